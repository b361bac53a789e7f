//! Runes in case files: the `runes` board line, the `rune exhaust|recycle` payment
//! statements and `expect runes`; every malformed form is an error naming its line and column;
//! counterexamples of the rune rulebooks on the `runes` bound are written as cases that replay
//! and still break the same property; and the hand-written rune cases catch a wrong rulebook.

use crate::shared::{rbcheck, root};
use rbcheck::case::{parse, print, replay, verdict, Verdict};
use std::path::Path;

const BASE: &str = "rbcheck-case 1\nrules rup4\n\nruns-here\nhand you \"Find Your Center\"\n\nyou play \"Find Your Center\"\nrune exhaust G\nrune exhaust B\n\nexpect cancelled item 1 cannot-pay\n";

fn with_runes(line: &str) -> String {
    BASE.replace("runs-here", line)
}

#[test]
fn rune_statements_print_back_as_they_parse() {
    let text = "rbcheck-case 1\nrules rup4\n\nhand you \"Find Your Center\"\nrunes you ready B G G exhausted R deck Y P\n\nyou play \"Find Your Center\"\nrune exhaust G\nrune recycle R\npay\n\nexpect runes you ready G\nexpect runes you exhausted none\nexpect runes you deck P Y\n";
    let case = parse(text).unwrap();
    let out = print(&case);
    // Ready and exhausted runes are counts, printed in domain order (R G B O P Y); the rune
    // deck keeps its order.
    assert!(
        out.contains("runes you ready G G B exhausted R deck Y P\n"),
        "{out}"
    );
    assert!(out.contains("rune exhaust G\nrune recycle R\n"), "{out}");
    assert!(out.contains("expect runes you deck P Y\n"), "{out}");
    assert_eq!(parse(&out).unwrap(), parse(&out).unwrap());
    assert_eq!(print(&parse(&out).unwrap()), out);
    // Names are read too, and print as letters.
    let named = text.replace("rune recycle R", "rune recycle fury");
    assert_eq!(print(&parse(&named).unwrap()), out);
}

#[test]
fn rune_statements_on_the_wire_use_the_case_words() {
    use rbcheck::case::ast::{PlayStmt, RuneUse};
    let p = PlayStmt::Rune {
        how: RuneUse::Recycle,
        domain: model::Domain::Chaos,
    };
    let j = serde_json::to_string(&p).unwrap();
    assert_eq!(j, r#"{"do":"rune","use":"recycle","domain":"P"}"#);
    assert_eq!(serde_json::from_str::<PlayStmt>(&j).unwrap(), p);
    assert!(
        serde_json::from_str::<PlayStmt>(r#"{"do":"rune","use":"burn","domain":"P"}"#).is_err()
    );
    assert!(
        serde_json::from_str::<PlayStmt>(r#"{"do":"rune","use":"exhaust","domain":"Q"}"#).is_err()
    );
}

/// Each malformed rune form: (the text, the line and column, words the message must contain).
#[test]
fn malformed_rune_statements_name_their_line_and_column() {
    let thirteen = format!("runes you ready {}", ["G"; 13].join(" "));
    let cases: Vec<(String, usize, usize, &str)> = vec![
        (with_runes("runes you"), 0, 0, ""),
        (
            with_runes("runes you ready"),
            4,
            16,
            "expected a rune's domain",
        ),
        (with_runes("runes you ready X"), 4, 17, "found `X`"),
        (
            with_runes("runes you ready G ready B"),
            4,
            19,
            "`ready` is given twice",
        ),
        (
            with_runes("runes you blue G"),
            4,
            11,
            "expected `ready`, `exhausted` or `deck`",
        ),
        (with_runes("runes someone ready G"), 4, 7, "you"),
        (with_runes(&thirteen), 4, 41, "more than 12 runes"),
        (
            with_runes("runes you ready G deck"),
            4,
            23,
            "expected a rune's domain",
        ),
        (
            with_runes("runes you ready G B").replace("rune exhaust B", "rune burn B"),
            9,
            6,
            "expected `exhaust` or `recycle`",
        ),
        (
            with_runes("runes you ready G B").replace("rune exhaust B", "rune exhaust"),
            9,
            13,
            "domain",
        ),
        (
            with_runes("runes you ready G B").replace("rune exhaust B", "rune exhaust B B"),
            9,
            16,
            "end of the statement",
        ),
        (
            format!("{}expect runes you\n", with_runes("runes you ready G B")),
            12,
            17,
            "`ready`, `exhausted` or `deck`",
        ),
        (
            format!(
                "{}expect runes you ready\n",
                with_runes("runes you ready G B")
            ),
            12,
            23,
            "domain",
        ),
        (
            format!(
                "{}expect runes you ready none G\n",
                with_runes("runes you ready G B")
            ),
            12,
            29,
            "end of the statement",
        ),
        (
            format!(
                "{}expect runes you deck Z\n",
                with_runes("runes you ready G B")
            ),
            12,
            23,
            "found `Z`",
        ),
    ];
    for (text, line, col, want) in cases {
        match parse(&text) {
            Ok(_) if line == 0 => {}
            Ok(_) => panic!("parsed, expected an error at {line}:{col}:\n{text}"),
            Err(e) => {
                assert_eq!((e.line, e.col), (line, col), "{}\n{text}", e.message);
                assert!(e.message.contains(want), "{}: want `{want}`", e.message);
            }
        }
    }
}

/// Replays `text` as a file: exit code and stdout.
fn replay_text(name: &str, text: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("rbcheck-runes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    let o = rbcheck(&["replay", f.to_str().unwrap()]);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// A case that says something about runes nobody has is an error (exit 2), never a pass.
#[test]
fn rune_lines_about_runes_nobody_has_are_errors() {
    let good = with_runes("runes you ready G B");
    let (code, out) = replay_text("good.case", &good);
    assert_eq!(code, 0, "{out}");
    let errors = [
        (
            format!("{good}expect runes opponent ready none\n"),
            "good2.case:12: `expect runes opponent ready none`: opponent has no runes in this case (pool-only)",
        ),
        (
            good.replace("runes you ready G B", "runes you ready G\nrunes you ready B"),
            "twice.case:5: a second `runes you` line",
        ),
        (
            good.replace("runes you ready G B", "pool you [3]"),
            "pool-only.case:8: you pays for item 1 but has no runes in this case (pool-only)",
        ),
    ];
    for (i, (text, want)) in errors.iter().enumerate() {
        let name = ["good2.case", "twice.case", "pool-only.case"][i];
        let (code, out) = replay_text(name, text);
        assert_eq!(code, 2, "{name}:\n{out}");
        assert!(out.contains(want), "{name}: want `{want}` in\n{out}");
    }
    // A rune the model does not offer is an illegal statement with the rule (357.1.a).
    let (code, out) = replay_text(
        "wrong-rune.case",
        &good.replace("rune exhaust B", "rune exhaust R"),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("you has no ready R rune on the board (357.1.a)"),
        "{out}"
    );
}

/// Replays a corpus case under another rulebook file.
fn replay_under_rulebook(case: &str, book: &str) -> Verdict {
    let path = root().join("corpus/cases").join(case);
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace("rules rup4", &format!("rules \"../rulebooks/{book}\""));
    let case = parse(&text).unwrap();
    let r = replay(&case, path.parent()).unwrap();
    verdict(&case, &r)
}

/// The hand-written rune cases pass under RUP4 and catch the wrong rune rulebooks: the failed
/// payment case fails when an undone play keeps its runes spent (358.5).
#[test]
fn the_failed_payment_case_catches_runes_left_spent() {
    let v = replay_under_rulebook(
        "runes-failed-payment-gives-back-exhausted-runes.case",
        "undo-keeps-runes-spent.toml",
    );
    let Verdict::Fail { message, .. } = v else {
        panic!("the case passes under undo-keeps-runes-spent")
    };
    assert!(
        message.contains("expected `runes you ready G B`"),
        "{message}"
    );
    let o = rbcheck(&["replay", "corpus/cases"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// Every counterexample of the two rune rulebooks on the `runes` bound (the bound each names)
/// is written as a case that replays (passes) under that rulebook, and whose final state still
/// breaks the property it is a counterexample to.
#[test]
fn rune_counterexamples_become_cases_that_break_the_same_property() {
    for book in ["undo-keeps-runes-spent.toml", "runes-past-the-cost.toml"] {
        let path = root().join("corpus/rulebooks").join(book);
        let (_, run) = crate::shared::wrong_runs()
            .iter()
            .find(|(name, _)| name == book)
            .unwrap_or_else(|| panic!("{book}: not among the wrong rulebooks"));
        assert_eq!(run.judgement.bound, "runes", "{book}");
        let mut seen = 0;
        for p in &run.result.properties {
            let checker::Outcome::Violated { trace, .. } = &p.outcome else {
                continue;
            };
            seen += 1;
            let sc = &run.system.scenarios[trace.init_index];
            assert!(sc.setup.players[0].runes.is_some(), "{book}: {}", sc.name);
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
            assert!(text.contains("\nrunes you "), "{text}");
            assert!(text.contains("\nrune "), "{text}");
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
        assert!(seen > 0, "{book} breaks no property on bound runes");
    }
}

/// `rbcheck cases --bound runes` writes a suite whose cases say their runes and all replay.
#[test]
fn the_runes_suite_is_written_with_runes_and_replays() {
    let dir = std::env::temp_dir().join(format!("rbcheck-runes-suite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = rbcheck(&["cases", "--bound", "runes", "--out", dir.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let with_runes = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            let text = std::fs::read_to_string(e.as_ref().unwrap().path()).unwrap();
            text.contains("\nrunes you ") && text.contains("\nrune ")
        })
        .count();
    assert!(with_runes > 100, "{with_runes} cases pay with runes");
    let o = rbcheck(&["replay", dir.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        out.lines()
            .filter(|l| !l.starts_with("pass"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn domain() -> impl proptest::strategy::Strategy<Value = model::Domain> {
    use proptest::prelude::*;
    (0usize..6).prop_map(|i| model::Domain::ALL[i])
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// Any rune setup, rune statement and rune expectation prints and parses back the same
    /// (ready and exhausted runes are counts: the parser keeps them in domain order).
    #[test]
    fn rune_forms_print_and_parse_back(
        ready in proptest::collection::vec(domain(), 0..5),
        exhausted in proptest::collection::vec(domain(), 0..4),
        deck in proptest::collection::vec(domain(), 0..4),
        uses in proptest::collection::vec((proptest::bool::ANY, domain()), 0..4),
        part in 0usize..3,
        listed in proptest::collection::vec(domain(), 0..5),
    ) {
        use rbcheck::case::ast::*;
        use model::state::{Player, RunesSetup};
        let mut r = RunesSetup { deck, ..Default::default() };
        ready.iter().for_each(|d| r.ready[*d as usize] += 1);
        exhausted.iter().for_each(|d| r.exhausted[*d as usize] += 1);
        let part = [RunePart::Ready, RunePart::Exhausted, RunePart::Deck][part];
        let mut listed = listed;
        if part != RunePart::Deck {
            listed.sort();
        }
        let mut plays = vec![Line::new(PlayStmt::Play { player: Player::YOU, card: "X".into() })];
        for (exhaust, domain) in uses {
            let how = if exhaust { RuneUse::Exhaust } else { RuneUse::Recycle };
            plays.push(Line::new(PlayStmt::Rune { how, domain }));
        }
        let case = Case {
            version: 1,
            header: vec![],
            rules: "rup4".into(),
            defines: vec![],
            board: vec![Line::new(BoardStmt::Runes(Player::OPP, r))],
            plays,
            checkpoints: vec![],
            expects: vec![Line::new(Expect::Runes(Player::YOU, part, listed))],
        };
        let text = print(&case);
        let back = parse(&text).unwrap();
        proptest::prop_assert_eq!(print(&back), text.clone());
        let strip = |c: &Case| (c.board.iter().map(|l| l.stmt.clone()).collect::<Vec<_>>(),
            c.plays.iter().map(|l| l.stmt.clone()).collect::<Vec<_>>(),
            c.expects.iter().map(|l| l.stmt.clone()).collect::<Vec<_>>());
        proptest::prop_assert_eq!(strip(&back), strip(&case), "{}", text);
    }
}
