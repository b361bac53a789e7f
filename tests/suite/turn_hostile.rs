//! Hostile inputs to the turn statements: who activates a gear, the range
//! a `turn plays N` refusal names, and strings in a protocol request that would print as other
//! statements than were sent. Each was a silent pass or a misleading answer before.

use crate::shared::root;
use rbcheck::engine::protocol::convert::{case_from_request, request};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// The corpus case that activates Temporal Portal, then plays two spells.
fn portal_case() -> String {
    std::fs::read_to_string(
        root().join("corpus/cases/turn-activated-portal-repeats-first-spell-only.case"),
    )
    .unwrap()
}

/// Replays `text` as a file in a folder of its own: exit code and stdout.
fn replay_text(name: &str, text: &str) -> (i32, String) {
    let d = std::env::temp_dir().join(format!(
        "rbcheck-turn-hostile-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join(name);
    std::fs::write(&f, text).unwrap();
    let o = crate::shared::command()
        .args(["replay", f.to_str().unwrap()])
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// `opponent activate P` while the turn player holds priority in the open state: the model's
/// step names no player, so the line used to replay as the turn player's activation and the case
/// passed. It is an illegal statement naming who holds priority (145.2).
#[test]
fn only_the_player_holding_priority_activates() {
    let text = portal_case();
    assert_eq!(replay_text("ok.case", &text).0, 0);
    let bad = text.replacen("you activate P\n", "opponent activate P\n", 1);
    assert_ne!(bad, text);
    let (code, out) = replay_text("opp.case", &bad);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("opp.case:19: `opponent activate P` is not allowed: opponent cannot activate: you hold priority (145.2)"),
        "{out}"
    );
}

/// Every refusal of `turn plays N` names the range the statement takes (1 to 8), not the 0 to
/// 255 of a plain number.
#[test]
fn turn_plays_refusals_name_one_to_eight() {
    let text = portal_case();
    for n in ["0", "9", "300", "99999999999999999999999", "-1", "two"] {
        let bad = text.replacen("turn plays 2\n", &format!("turn plays {n}\n"), 1);
        let e = rbcheck::case::parse(&bad).expect_err(n);
        assert_eq!((e.line, e.col), (17, 12), "{n}: {}", e.message);
        assert_eq!(
            e.message,
            format!("expected the number of plays in the turn (a number from 1 to 8), found `{n}`")
        );
        assert_eq!(replay_text("n.case", &bad).0, 2, "{n}");
    }
}

/// A request whose activated gear label holds a line break printed as two statements (the
/// activation and an injected `you pass`), and the answer blamed the request's next play. The
/// request is refused as bad; the same request with a clean label is answered.
#[test]
fn a_request_string_that_prints_as_other_statements_is_refused() {
    let case = rbcheck::case::parse(&portal_case()).unwrap();
    let req = request(&case, None, 1).unwrap();
    assert!(case_from_request(&req).is_ok());
    let mut v = serde_json::to_value(&req).unwrap();
    let act = v["plays"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["do"] == "activate")
        .unwrap();
    act["object"] = "P\nyou pass".into();
    let bad: rbcheck::engine::protocol::CaseRequest = serde_json::from_value(v.clone()).unwrap();
    let e = case_from_request(&bad).unwrap_err();
    assert!(e.contains("not one word of a case file"), "{e}");

    // On the wire: `rbcheck serve` answers an error for it, then answers the clean request.
    let mut child = crate::shared::command()
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    writeln!(
        stdin,
        "{}",
        serde_json::to_string(&rbcheck::engine::protocol::ClientHello::new()).unwrap()
    )
    .unwrap();
    lines.next().unwrap().unwrap();
    v.as_object_mut().unwrap().remove("case_text");
    writeln!(stdin, "{v}").unwrap();
    let answer = lines.next().unwrap().unwrap();
    assert!(answer.contains("\"error\""), "{answer}");
    let mut clean = serde_json::to_value(&req).unwrap();
    clean.as_object_mut().unwrap().remove("case_text");
    writeln!(stdin, "{clean}").unwrap();
    let answer = lines.next().unwrap().unwrap();
    assert!(answer.contains("\"legal\":true"), "{answer}");
    writeln!(stdin, "{{\"type\":\"bye\"}}").unwrap();
    assert!(child.wait().unwrap().success());
}
