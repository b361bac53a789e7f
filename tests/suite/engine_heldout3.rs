//! The third and fourth sets of mutants kept out of the scored list: every mutant that `reference_engine.py
//! --held-out-3 --list-mutants` (or `--held-out-4`) names changes the engine's behaviour on the
//! case written for it, `tests/engines/heldout/NAME.case`, on which the clean engine agrees with
//! the model. A sibling
//! of `each_second_held_out_mutant_changes_behaviour_on_its_case` in tests/suite/engine_protocol.rs
//! (kept apart because that file is past its 800 lines).

use crate::shared::root;
use rbcheck::engine::fuzz::{check_files, Verdict};
use rbcheck::engine::ProcessEngine;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

fn reference(args: &str) -> String {
    format!(
        "python3 {} {args}",
        root().join("tests/engines/reference_engine.py").display()
    )
}

/// The mutants `--held-out-3 --list-mutants` lists: `(name, description)`.
fn listed() -> Vec<(String, String)> {
    listed_by("--held-out-3")
}

/// The mutants `SET --list-mutants` lists: `(name, description)`.
fn listed_by(set: &str) -> Vec<(String, String)> {
    let out = Command::new("python3")
        .arg(root().join("tests/engines/reference_engine.py"))
        .args([set, "--list-mutants"])
        .output()
        .expect("python3 runs the reference engine");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (m, d) = l.split_once('\t').unwrap_or((l, ""));
            (m.to_string(), d.to_string())
        })
        .collect()
}

/// The verdict of the engine run as `args` on the case at `path`.
fn verdict(args: &str, path: &Path) -> Verdict {
    let mut e = ProcessEngine::new(&reference(args), Duration::from_secs(20)).unwrap();
    let v = check_files(&mut e, &[path.to_path_buf()]).unwrap();
    v[0].verdict.clone()
}

/// Thirty mutants, each with a rule number in its description and a hand-written case on which
/// the clean engine agrees with the model and the mutant differs from it: a difference (or an
/// answer of another legality), not a crash, so each mistake is seen for what it breaks.
#[test]
fn each_third_held_out_mutant_changes_behaviour_on_its_case() {
    let mutants = listed();
    assert_eq!(mutants.len(), 30, "{mutants:?}");
    each_changes_behaviour_on_its_case(&mutants);
}

/// The fourth set: eight mistakes about whole-card discounts (their floors, their order, what
/// they count), written by an author who never read the generator, each with its case.
#[test]
fn each_fourth_held_out_mutant_changes_behaviour_on_its_case() {
    let mutants = listed_by("--held-out-4");
    assert_eq!(mutants.len(), 8, "{mutants:?}");
    each_changes_behaviour_on_its_case(&mutants);
}

/// Each mutant cites a rule and differs from the model on `heldout/NAME.case`, where the clean
/// engine agrees.
fn each_changes_behaviour_on_its_case(mutants: &[(String, String)]) {
    for (mutant, description) in mutants {
        assert!(
            description.contains('(') && description.chars().any(|c| c.is_ascii_digit()),
            "`{mutant}` cites no rule: {description}"
        );
        let path = root()
            .join("tests/engines/heldout")
            .join(format!("{mutant}.case"));
        assert!(
            path.is_file(),
            "no case shows what `{mutant}` changes: {}",
            path.display()
        );
        let clean = verdict("", &path);
        assert!(
            matches!(clean, Verdict::Agree),
            "{}: the clean engine gives {clean:?}",
            path.display()
        );
        let with = verdict(&format!("--mutant {mutant}"), &path);
        assert!(
            matches!(with, Verdict::Disagree(_)),
            "{} with `--mutant {mutant}`: {with:?}",
            path.display()
        );
    }
}

/// The third set is new: none of its names is in the first two held-out sets (its killed
/// mutants joined the scored `MUTANTS` after the measurement, so that list is no test), and `--held-out-3` passed beside `--mutant` (as `rbcheck fuzz
/// --score` runs it) is accepted.
#[test]
fn third_held_out_names_are_new_and_runnable_as_score_runs_them() {
    let others: Vec<String> = [
        vec!["--held-out", "--list-mutants"],
        vec!["--held-out-2", "--list-mutants"],
    ]
    .iter()
    .flat_map(|args| {
        let out = Command::new("python3")
            .arg(root().join("tests/engines/reference_engine.py"))
            .args(args)
            .output()
            .expect("python3 runs the reference engine");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect::<Vec<_>>()
    })
    .collect();
    let mutants = listed();
    for (mutant, _) in &mutants {
        assert!(!others.contains(mutant), "`{mutant}` is not a new name");
    }
    let (first, _) = &mutants[0];
    let path = root()
        .join("tests/engines/heldout")
        .join(format!("{first}.case"));
    let with = verdict(&format!("--held-out-3 --mutant {first}"), &path);
    assert!(matches!(with, Verdict::Disagree(_)), "{with:?}");
}
