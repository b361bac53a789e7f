//! How a finding is named: a board difference by the event of the model's run that decided the
//! value that differs, a statement the rules refuse by the model's reason, a legal statement
//! the engine refuses by the rule the engine gives for it. Each test runs one planted mistake
//! of the reference engine to its first finding; before these names, each of them came out
//! under the step of the statement or the catch-all "instructions executed" (359.3.e).

use crate::shared::root;
use rbcheck::engine::fuzz::{fuzz, FuzzConfig, NONDETERMINISTIC};
use rbcheck::engine::ProcessEngine;
use std::time::Duration;

/// The report of fuzzing the reference engine with `mutant` at seed 7 within `cases` cases,
/// stopping at the first finding if `first`.
fn run(mutant: &str, cases: usize, first: bool) -> rbcheck::engine::fuzz::FuzzReport {
    run_at(mutant, cases, first, 7)
}

/// How many of the seeds 7, 8 and 9 give a run of `mutant` within `cases` cases for which
/// `holds` is true: which cluster comes first, and which clauses its few cases share, depends
/// on the cases drawn, so a naming mechanism is judged on most seeds, not on one.
fn seeds_where(
    mutant: &str,
    cases: usize,
    holds: impl Fn(&rbcheck::engine::fuzz::FuzzReport) -> bool,
) -> (usize, Vec<String>) {
    let mut seen = vec![];
    let mut n = 0;
    for seed in 7..=9 {
        let r = run_at(mutant, cases, false, seed);
        n += usize::from(holds(&r));
        seen.push(format!(
            "seed {seed}: {:?}",
            r.findings.iter().map(|f| &f.kind).collect::<Vec<_>>()
        ));
    }
    (n, seen)
}

/// `run` at `seed`.
fn run_at(mutant: &str, cases: usize, first: bool, seed: u64) -> rbcheck::engine::fuzz::FuzzReport {
    let cmd = format!(
        "python3 {} --mutant {mutant}",
        root().join("tests/engines/reference_engine.py").display()
    );
    let mut engine = ProcessEngine::new(&cmd, Duration::from_secs(20)).unwrap();
    let cfg = FuzzConfig {
        seed,
        cases: Some(cases),
        stop_at_first_finding: first,
        ..FuzzConfig::default()
    };
    fuzz(&mut engine, &cfg)
}

/// The names of the findings of `run(mutant, cases, first)`, the flag for a nondeterministic
/// engine left out.
fn findings(mutant: &str, cases: usize, first: bool) -> Vec<String> {
    run(mutant, cases, first)
        .findings
        .into_iter()
        .map(|f| f.kind)
        .filter(|k| k != NONDETERMINISTIC)
        .collect()
}

/// The name of the first finding of `findings(mutant, cases, true)`.
fn first_finding(mutant: &str, cases: usize) -> String {
    let kinds = findings(mutant, cases, true);
    assert!(
        !kinds.is_empty(),
        "{mutant}: nothing found in {cases} cases"
    );
    kinds.into_iter().next().unwrap_or_default()
}

/// Two units dealing damage to each other one way only (Marching Orders) leaves a unit on the
/// board and its damage unmarked: named by what killed it in the model's run, 417.6.b.3.
#[test]
fn a_unit_left_on_the_board_is_named_by_what_killed_it() {
    let kind = first_finding("mights-one-way", 400);
    assert!(kind.contains("(417.6.b.3)"), "{kind}");
}

/// A unit paying "exhaust a friendly unit" left ready shows in its status: named by the cost
/// it paid in the model's run (356.7), not by the instructions that ran after.
#[test]
fn a_status_is_named_by_the_cost_that_changed_it() {
    let kind = first_finding("exhaust-cost-not-exhausted", 400);
    assert!(kind.contains("(356.7)"), "{kind}");
}

/// An exhausted gear activated again: the model refuses the `activate` for 414.4 (only a
/// ready object pays an [E] cost), which names the finding rather than the step of
/// activating (401).
#[test]
fn a_statement_the_rules_refuse_is_named_by_the_models_reason() {
    let kind = first_finding("exhausted-gear-activates", 800);
    assert!(kind.contains("(414.4)"), "{kind}");
}

/// A [Reaction] refused in a showdown: the engine refuses a legal `play` citing 358.4, the
/// rule it applies where it does not apply; "move a card to the chain (354)" said only where.
#[test]
fn a_legal_statement_the_engine_refuses_is_named_by_the_engines_reason() {
    let kind = first_finding("reaction-refused-in-showdown", 200);
    assert!(
        kind.contains("358.4") && kind.contains("applied by the engine"),
        "{kind}"
    );
}

/// Damage kept past the end of the turn (RUP4's reading removes it with the turn's other "this
/// turn" effects, 334.1) is one cause: one cluster, named by the rulebook field that decides it
/// (`damage_removed_at_end_of_turn`, 334.1), not one per event that last touched the damaged
/// unit before the turn ended (a ready, an [Assault] given).
#[test]
fn a_difference_the_end_of_the_turn_decides_is_one_cluster() {
    let kinds = findings("damage-persists", 500, false);
    assert_eq!(kinds.len(), 1, "{kinds:?}");
    assert!(kinds[0].contains("334.1"), "{kinds:?}");
}

/// Ezreal reducing only the first paid [Repeat] cost: the case is cured by leaving the second
/// instance unpaid, so the two runs part at a [Repeat] declaration (820.1.c); the clause the
/// failing cases apply and the passing ones seldom do is Ezreal's reduction (356.4.c), which
/// names the finding.
#[test]
fn a_symptom_is_named_by_the_clause_its_failing_cases_single_out() {
    let kinds = findings("ezreal-once-per-play", 600, false);
    assert!(
        kinds.first().is_some_and(|k| k.contains("356.4.c")),
        "{kinds:?}"
    );
}

/// "Its controller draws" drawing for the item's controller: the difference is traced no
/// further than the catch-all of executing instructions (359.3.e); the cases that fail all
/// apply the linked instruction (359.3.e.14), which is among the first suspects the finding
/// lists. The finding is not left under the catch-all, at any of three seeds. Which suspect
/// ranks first depends on the few cases of the cluster (a clause the same cases happen to
/// apply, a mandatory cost, can rank above it), so only the top three are asked for, at one
/// seed of three at least; how often a planted rule is named is measured in docs/fuzzing.md.
#[test]
fn a_catch_all_gives_way_to_the_suspect_clause() {
    let firsts: Vec<_> = (7..=9)
        .map(|seed| {
            run_at("linked-draws-for-you", 600, false, seed)
                .findings
                .into_iter()
                .find(|f| f.kind != NONDETERMINISTIC)
                .expect("a finding")
        })
        .collect();
    let seen: Vec<(&String, Vec<&str>)> = firsts
        .iter()
        .map(|f| {
            (
                &f.kind,
                f.suspects.iter().map(|s| s.clause.as_str()).collect(),
            )
        })
        .collect();
    assert!(
        firsts.iter().all(|f| !f.kind.contains("(359.3.e)")),
        "{seen:#?}"
    );
    assert!(
        firsts
            .iter()
            .any(|f| f.suspects.iter().take(3).any(|s| s.clause == "359.3.e.14")),
        "{seen:#?}"
    );
}

/// An engine resolving the oldest item of the chain first, where 340.1 says the newest: every
/// case with two items on the chain breaks, whatever else it does, and "340.1" alone is applied
/// by every case the engine passes too. Counted in the situation it was applied in ("with two
/// or more items on the chain") the clause singles the failures out; the cluster that explains
/// most cases comes first and is named by 340.1, at two seeds of three at least. (Counting
/// clauses alone, the first finding was named by whatever else those cases did: a trigger
/// going on the chain, an execution, the counter.)
#[test]
fn a_clause_every_case_applies_is_named_in_the_situation_that_breaks_it() {
    let (n, seen) = seeds_where("resolve-oldest-first", 600, |r| {
        r.findings
            .iter()
            .find(|f| f.kind != NONDETERMINISTIC)
            .is_some_and(|f| f.cited.contains("340.1"))
    });
    assert!(n >= 2, "{seen:#?}");
}

/// An engine whose cleanup compares damage with the printed Might: a unit made lethal by a
/// Might penalty left standing (its own board shows the unit lethal), and a unit given Might
/// killed by damage below its current Might, are both named by the cleanup (321), not by what
/// changed its Might or the instructions that ran after, first, at two of three seeds.
#[test]
fn a_unit_the_engine_shows_lethal_and_standing_is_named_by_the_cleanup() {
    let (n, seen) = seeds_where("death-ignores-might-modifier", 400, |r| {
        r.findings
            .iter()
            .find(|f| f.kind != NONDETERMINISTIC)
            .is_some_and(|f| f.kind.contains("(321)"))
    });
    assert!(n >= 2, "{seen:#?}");
}

/// Fuzzes the reference engine with `mutant` at seed 7 within `cases` cases through the CLI,
/// into a fresh folder: the JSON report's findings and the case files on disk, sorted.
fn fuzz_to_disk(mutant: &str, cases: usize) -> (Vec<serde_json::Value>, Vec<String>) {
    let out = std::env::temp_dir().join(format!("rbcheck-{mutant}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let engine = format!(
        "python3 {} --mutant {mutant}",
        root().join("tests/engines/reference_engine.py").display()
    );
    let cases = cases.to_string();
    let o = crate::shared::rbcheck(&[
        "fuzz",
        "--engine",
        &engine,
        "--seed",
        "7",
        "--cases",
        &cases,
        "--json",
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
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let findings = v["findings"].as_array().unwrap().clone();
    let mut files: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".case"))
        .collect();
    files.sort();
    for f in &findings {
        let case = f["case"].as_str().unwrap();
        let text = std::fs::read_to_string(case).unwrap_or_else(|e| panic!("{case}: {e}"));
        assert!(text.contains(f["kind"].as_str().unwrap()), "{text}");
    }
    std::fs::remove_dir_all(&out).ok();
    (findings, files)
}

/// A finding renamed when the run ends is on disk under its final name only: the file written
/// as it was found is replaced, and the JSON names the file that is there.
#[test]
fn a_renamed_finding_is_written_under_its_final_name_only() {
    let (findings, files) = fuzz_to_disk("ezreal-once-per-play", 600);
    assert_eq!(files.len(), findings.len(), "{files:?}");
    assert!(files[0].contains("356-4-c"), "{files:?}");
}

/// An engine that never cleans up: one of its symptoms, first named by the [Repeat] decision
/// that cures it, takes its suspect clause's name when the run ends, the cleanup (321) another
/// finding already has; the two are one cluster, on disk once.
#[test]
fn findings_that_end_under_one_name_are_one_cluster() {
    let (findings, files) = fuzz_to_disk("no-cleanup", 600);
    let mut kinds: Vec<&str> = findings
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), kinds.len(), "{files:?}");
    let n = kinds.len();
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds.len(), n, "{kinds:?}");
}
