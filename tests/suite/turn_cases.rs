//! A turn of several plays in case files: the board line `turn plays N [end-turn]`,
//! the play statements `close` and `end turn`, expectations among the plays (read where they are
//! written), their wire form; hostile forms are errors naming their line; cases written by
//! `rbcheck cases`, `rbcheck diff` and `check` on a turn replay; and the hand-written turn cases
//! catch the wrong rulebooks they are about.

use crate::shared::{rbcheck, root};
use rbcheck::case::{parse, print, replay, verdict, Verdict};
use rbcheck::check::{check, CheckOptions};
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rbcheck-turn-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Replays `text` as a file: exit code and stdout.
fn replay_text(name: &str, text: &str) -> (i32, String) {
    // A folder per file: `tmp` empties its folder, and tests run in parallel.
    let f = tmp(&format!("replay-{name}")).join(name);
    std::fs::write(&f, text).unwrap();
    let o = rbcheck(&["replay", f.to_str().unwrap()]);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// Two plays of Feral Strength on A, the first chain closed by `close`, the turn ended.
const TURN: &str = "rbcheck-case 1\nrules rup4\n\nunit A \"Practice Dummy\" you base you\npool you [4]\nhand you \"Feral Strength\"\nhand you \"Feral Strength\"\nturn plays 2 end-turn\n\nyou play \"Feral Strength\"\nrepeat 1 skip\nexec 1 target 1 A\npay\nclose\nexpect unit A might 4\nexpect executions item 1 1\nyou play \"Feral Strength\"\nrepeat 1 skip\nexec 1 target 1 A\npay\nclose\nexpect unit A might 6\nend turn\n\nexpect legal\nexpect unit A might 2\nexpect pool you [0]\n";

#[test]
fn turn_statements_print_back_as_they_parse() {
    let case = parse(TURN).unwrap();
    assert_eq!(case.checkpoints.len(), 3);
    assert_eq!(
        case.checkpoints.iter().map(|c| c.after).collect::<Vec<_>>(),
        [5, 5, 10]
    );
    assert_eq!(case.expects.len(), 3);
    let out = print(&case);
    assert_eq!(
        out, TURN,
        "the canonical form keeps expectations where written"
    );
    // Spacing is not meaning.
    let loose = TURN.replace("turn plays 2 end-turn", "turn   plays 2   end-turn");
    assert_eq!(print(&parse(&loose).unwrap()), TURN);
    // Absent: one play, no end of turn (every earlier case keeps its meaning).
    let one = parse(&TURN.replace("turn plays 2 end-turn\n", "")).err();
    assert!(
        one.is_some_and(|e| e.message.contains("`end turn` needs the board statement")),
        "end turn without the board line"
    );
}

#[test]
fn turn_statements_on_the_wire() {
    use rbcheck::case::ast::PlayStmt;
    for (p, j) in [
        (PlayStmt::Close, r#"{"do":"close"}"#),
        (PlayStmt::EndTurn, r#"{"do":"end-turn"}"#),
        (
            PlayStmt::Activate {
                player: model::state::Player::YOU,
                object: rbcheck::case::ast::ObjRef::Label("P".into()),
            },
            r#"{"do":"activate","player":"you","object":"P"}"#,
        ),
    ] {
        assert_eq!(serde_json::to_string(&p).unwrap(), j);
        assert_eq!(serde_json::from_str::<PlayStmt>(j).unwrap(), p);
    }
    let case = parse(TURN).unwrap();
    let req = rbcheck::engine::protocol::convert::request(&case, None, 1).unwrap();
    let v = serde_json::to_value(&req).unwrap();
    assert_eq!(
        v["board"]["turn"],
        serde_json::json!({"plays": 2, "end_turn": true})
    );
    assert!(
        req.features.iter().any(|f| f == "turn"),
        "{:?}",
        req.features
    );
    assert!(v["plays"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["do"] == "close"));
    // The structured request rebuilds the same plays and board (expectations are not sent).
    let back = rbcheck::engine::protocol::convert::case_from_request(&req).unwrap();
    let stmts =
        |c: &rbcheck::case::Case| c.plays.iter().map(|p| p.stmt.clone()).collect::<Vec<_>>();
    assert_eq!(stmts(&back), stmts(&case));
    assert!(print(&back).contains("\nturn plays 2 end-turn\n"));
    // A one-play case has no `turn` field and does not use the feature.
    let single = parse("rbcheck-case 1\nrules rup4\n\npool you [2]\nhand you \"Feral Strength\"\nunit A \"Practice Dummy\" you base you\n\nyou play \"Feral Strength\"\nrepeat 1 skip\nexec 1 target 1 A\npay\n").unwrap();
    let req = rbcheck::engine::protocol::convert::request(&single, None, 1).unwrap();
    assert!(serde_json::to_value(&req).unwrap()["board"]
        .get("turn")
        .is_none());
    assert!(!req.features.iter().any(|f| f == "turn"));
}

/// Each hostile form: (what to change in TURN, the line:column, words the message must contain).
#[test]
fn malformed_turn_statements_name_their_line() {
    let cases: [(&str, &str, &str, &str); 9] = [
        ("turn plays 2 end-turn", "turn plays 0 end-turn", "8:12", "expected the number of plays in the turn (a number from 1 to 8), found `0`"),
        ("turn plays 2 end-turn", "turn plays 9", "8:12", "expected the number of plays in the turn (a number from 1 to 8), found `9`"),
        ("turn plays 2 end-turn", "turn plays 300", "8:12", "(a number from 1 to 8), found `300`"),
        ("turn plays 2 end-turn", "turn plays two", "8:12", "expected the number of plays in the turn"),
        ("turn plays 2 end-turn", "turn plays 2 end", "8:14", "expected `end-turn` or the end of the line"),
        ("turn plays 2 end-turn", "turn plays 2 end-turn\nturn plays 1", "9:1", "a second `turn` statement (line 8 has one)"),
        ("end turn\n", "end turn\nend turn\n", "24:1", "nothing can be played after `end turn` (line 23)"),
        ("expect unit A might 4\n", "expect legal\n", "15:1", "judge the whole case"),
        ("you play \"Feral Strength\"\nrepeat 1 skip\nexec 1 target 1 A\npay\nclose\nexpect unit A might 4", "expect unit A might 2\nyou play \"Feral Strength\"\nrepeat 1 skip\nexec 1 target 1 A\npay\nclose", "10:1", "an expectation before the first play statement"),
    ];
    for (from, to, at, want) in cases {
        let text = TURN.replacen(from, to, 1);
        assert_ne!(text, TURN, "{from}");
        let e = parse(&text).expect_err(to);
        let got = format!("{}:{}", e.line, e.col);
        assert_eq!(got, at, "{to}: {}", e.message);
        assert!(
            e.message.contains(want),
            "{to}: want `{want}` in `{}`",
            e.message
        );
        // The command line says it too, with exit code 2 and nothing else.
        let (code, out) = replay_text("bad.case", &text);
        assert_eq!(code, 2, "{to}:\n{out}");
    }
}

/// An expectation among the plays is read where it is written: A has 4 Might after the first
/// chain, 6 after the second and 2 at the end; each value written at another point fails there,
/// and an item not played yet at that point is an error in the file, not a pass.
#[test]
fn expectations_among_the_plays_are_read_where_they_are_written() {
    let (code, out) = replay_text("turn.case", TURN);
    assert_eq!(code, 0, "{out}");
    let (code, out) = replay_text(
        "early.case",
        &TURN.replacen("expect unit A might 4", "expect unit A might 6", 1),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "early.case:15: expected `unit A might 6`, but the model gives `unit A might 4`"
        ),
        "{out}"
    );
    let (code, out) = replay_text(
        "late.case",
        &TURN.replacen("expect unit A might 6", "expect unit A might 2", 1),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("late.case:22: expected `unit A might 2`"),
        "{out}"
    );
    let (code, out) = replay_text(
        "notyet.case",
        &TURN.replacen(
            "expect executions item 1 1",
            "expect executions item 2 1",
            1,
        ),
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("notyet.case:16: `expect executions item 2 1`: there is no item 2: the replay put 1 item(s) on the chain"),
        "{out}"
    );
}

/// `close` with no chain is an illegal statement (340.2); a play beyond `turn plays N` is refused
/// with the case's limit as the reason; `end turn` while the chain holds items is refused (334.1).
#[test]
fn turn_statements_the_model_refuses() {
    let (code, out) = replay_text("close.case", &TURN.replacen("close\n", "close\nclose\n", 1));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("close.case:15: `close` is not allowed: there is no chain to close: nothing is on the chain (340.2)"),
        "{out}"
    );
    let (code, out) = replay_text(
        "beyond.case",
        &TURN.replacen("turn plays 2 end-turn", "turn plays 1 end-turn", 1),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("beyond.case:17: `you play \"Feral Strength\"` is not allowed: you have made every play the board's `turn plays N` allows"),
        "{out}"
    );
    let (code, out) = replay_text(
        "early-end.case",
        &TURN.replacen(
            "pay\nclose\nexpect unit A might 6\n",
            "pay\nexpect unit A might 4\n",
            1,
        ),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("`end turn` is not allowed: the turn ends from the open state: the chain must close first"),
        "{out}"
    );
}

fn replay_under_rulebook(case: &str, book: &str) -> Verdict {
    let path = root().join("corpus/cases").join(case);
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace("rules rup4", &format!("rules \"../rulebooks/{book}\""));
    let case = parse(&text).unwrap();
    let r = replay(&case, path.parent()).unwrap();
    verdict(&case, &r)
}

/// The hand-written turn cases pass under RUP4 and each catches the wrong rulebook it is about.
#[test]
fn the_turn_cases_catch_the_wrong_rulebooks() {
    let o = rbcheck(&["replay", "corpus/cases"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    for (case, book, want) in [
        (
            "turn-portal-grant-used-by-first-spell-not-second.case",
            "grant-for-every-spell.toml",
            "`exec 1 target 1 A` is not allowed: Repeat instance 2 is decided first",
        ),
        (
            "turn-activated-portal-repeats-first-spell-only.case",
            "grant-for-every-spell.toml",
            "`exec 1 target 1 A` is not allowed: Repeat instance 2 is decided first",
        ),
        (
            "turn-undone-play-gives-grant-back-to-second-play.case",
            "undo-loses-grant.toml",
            "`repeat 2 pay` is not allowed: Frigid Touch has 1 Repeat instance(s), not 2",
        ),
        (
            "turn-two-plays-opponent-responds-to-both.case",
            "refund-on-counter.toml",
            "expected `pool you [0]`, but the model gives `pool you [2]`",
        ),
        (
            "turn-your-reaction-to-their-reaction.case",
            "countered-card-vanishes.toml",
            "expected `trash opponent \"Frigid Touch\"`, but the model gives `trash opponent none`",
        ),
    ] {
        let Verdict::Fail { message, .. } = replay_under_rulebook(case, book) else {
            panic!("{case} passes under {book}")
        };
        assert!(message.contains(want), "{case} under {book}: {message}");
    }
}

/// Every counterexample of the two grant rulebooks on the `multi` bound is written as a case
/// that replays (passes) under that rulebook and whose final state still breaks the property.
#[test]
fn turn_counterexamples_become_cases_that_break_the_same_property() {
    for book in ["grant-for-every-spell.toml", "undo-loses-grant.toml"] {
        let path = root().join("corpus/rulebooks").join(book);
        let run = check(
            &CheckOptions {
                rules: path.to_str().unwrap().into(),
                bound: "multi".into(),
                ..Default::default()
            },
            None,
            None,
        )
        .unwrap();
        let mut seen = 0;
        for p in &run.result.properties {
            let checker::Outcome::Violated { trace, .. } = &p.outcome else {
                continue;
            };
            seen += 1;
            let sc = &run.system.scenarios[trace.init_index];
            let actions: Vec<_> = trace.steps.iter().map(|s| s.action).collect();
            let dir: &Path = path.parent().unwrap();
            let case = rbcheck::cases::write_run(
                &run.system.game,
                book,
                &sc.setup,
                &actions,
                vec![format!("counterexample to {}", p.name)],
                dir,
            )
            .unwrap_or_else(|e| panic!("{book}: {} not written: {e}", p.name));
            let text = print(&case);
            assert!(text.contains("\nturn plays 2"), "{text}");
            let case = parse(&text).unwrap();
            let r = replay(&case, Some(dir)).unwrap();
            assert_eq!(verdict(&case, &r), Verdict::Pass, "{text}");
            let prop = properties::invariants::all()
                .into_iter()
                .find(|q| q.name == p.name)
                .unwrap();
            assert!(
                !(prop.condition)(&run.system, &r.state),
                "{book}: the case's final state satisfies {}:\n{text}",
                p.name
            );
        }
        assert!(seen > 0, "{book} breaks no property on bound multi");
    }
}

/// `rbcheck diff` on the `multi` bound writes example cases of several plays that replay.
#[test]
fn diff_on_a_turn_writes_examples_that_replay() {
    let out = tmp("diff");
    let _ = std::fs::remove_dir_all(&out);
    let o = rbcheck(&[
        "diff",
        "rup4",
        "corpus/rulebooks/undo-loses-grant.toml",
        "--bound",
        "multi",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let cases: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(!cases.is_empty());
    assert!(cases.iter().all(|t| t.contains("\nturn plays 2")));
    let o = rbcheck(&["replay", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// A small turn bound (two plays, the Portal, reactions on both sides): `rbcheck cases` writes a
/// suite of several-play cases, with `close`, `end turn` and expectations between plays, that
/// all replay.
#[test]
fn a_turn_suite_is_written_with_several_plays_and_replays() {
    let d = tmp("suite");
    let bound = d.join("turn.toml");
    std::fs::write(
        &bound,
        "instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\ncatalogue = [\"Feral Strength\"]\nboards = [\"enemy-base\"]\nextras = [[], [\"portal\"]]\nresources = [\"rich\"]\nreactions = [[], [\"Frigid Touch\"]]\n\n[turn]\nplays = 2\nyours = { from = [\"Feral Strength\"], up_to = 1 }\nopponent = { from = [\"Defy\"], up_to = 1 }\n",
    )
    .unwrap();
    let out = d.join("suite");
    let o = rbcheck(&[
        "cases",
        "--bound",
        bound.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let paths: Vec<std::path::PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    // The index lists every case file once, with its scenario and what its class does.
    let index = std::fs::read_to_string(out.join("INDEX.md")).unwrap();
    for p in &paths {
        let name = p.file_name().unwrap().to_str().unwrap();
        let rows: Vec<&str> = index
            .lines()
            .filter(|l| l.starts_with(&format!("| [{name}]")))
            .collect();
        assert_eq!(rows.len(), 1, "{name} in the index");
        let text = std::fs::read_to_string(p).unwrap();
        let last = text
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("expect "))
            .unwrap();
        assert!(
            rows[0].ends_with(&format!("{} |", last.replace('|', "\\|"))),
            "{}: {last}",
            rows[0]
        );
    }
    let texts: Vec<String> = paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let has = |s: &str| texts.iter().filter(|t| t.contains(s)).count();
    assert!(texts.len() > 100, "{} cases", texts.len());
    assert_eq!(has("\nturn plays 2"), texts.len());
    assert!(has("\nclose\n") > 100 && has("\nend turn\n") > 100);
    // Some case has an expectation followed by a play statement.
    let between = texts
        .iter()
        .filter(|t| {
            let lines: Vec<&str> = t.lines().collect();
            lines.windows(2).any(|w| {
                w[0].starts_with("expect ") && !w[1].starts_with("expect ") && !w[1].is_empty()
            })
        })
        .count();
    assert!(
        between > 10,
        "{between} cases with expectations between plays"
    );
    let o = rbcheck(&["replay", out.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        stdout
            .lines()
            .filter(|l| !l.starts_with("pass"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
