//! Every property can fail: each deliberately wrong rulebook in `corpus/rulebooks/` names the
//! property it breaks (`# breaks: NAME`), and the checker must find that violation on the tiny
//! bound (or the bound its `# bound: NAME` line names), with a counterexample that replays. And
//! the published rulebooks pass.

use checker::{CheckerExt, Expectation, Outcome};
use model::rulebook::{Rulebook, Version};
use properties::{Bound, RepeatSystem};
use std::path::Path;

fn check(rules: Rulebook) -> checker::CheckResult<RepeatSystem> {
    check_on(rules, "tiny")
}

/// The check on a named bound: a wrong rulebook about something `tiny` leaves out (runes) names
/// its bound in a `# bound: NAME` line.
fn check_on(rules: Rulebook, bound: &str) -> checker::CheckResult<RepeatSystem> {
    let sys = RepeatSystem::new(rules, &Bound::preset(bound).unwrap()).unwrap();
    sys.checker().threads(2).run().unwrap()
}

#[test]
fn every_shipped_wrong_rulebook_breaks_the_property_it_names() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/rulebooks");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut broken = vec![];
    // One at a time: the runs are large enough that running them side by side costs memory.
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let expected = text
            .lines()
            .find_map(|l| l.strip_prefix("# breaks: "))
            .expect("a `# breaks:` line")
            .trim()
            .to_string();
        let bound = text
            .lines()
            .find_map(|l| l.strip_prefix("# bound: "))
            .map_or("tiny", str::trim);
        let name = f.file_stem().unwrap().to_str().unwrap();
        let rules =
            Rulebook::from_toml(&text, name).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        // That property alone, to its first violation: which one breaks is the question here,
        // not every verdict.
        let sys = RepeatSystem::new(rules, &Bound::preset(bound).unwrap())
            .unwrap()
            .select(std::slice::from_ref(&expected))
            .unwrap();
        let result = sys
            .checker()
            .threads(2)
            .stop_on_first_violation(true)
            .run()
            .unwrap();
        match result.outcome(&expected) {
            Outcome::Violated { trace, .. } => {
                assert!(!trace.is_empty(), "{name}: the counterexample has steps");
                broken.push(expected);
            }
            other => panic!(
                "{name}: expected `{expected}` to be violated, got {}",
                other.label()
            ),
        }
    }
    // Every invariant and the termination property has a rulebook that breaks it.
    let sys = RepeatSystem::new(
        Rulebook::preset(Version::Rup4),
        &Bound::preset("tiny").unwrap(),
    )
    .unwrap();
    for p in properties::invariants::all() {
        if p.expectation != Expectation::Sometimes {
            assert!(
                broken.iter().any(|b| b == p.name),
                "no wrong rulebook breaks `{}`",
                p.name
            );
        }
    }
    drop(sys);
}

#[test]
fn rup4_and_the_guide_pass_everything_on_the_tiny_bound() {
    for v in [Version::Rup4, Version::Guide] {
        let r = check(Rulebook::preset(v));
        for p in &r.properties {
            assert!(
                p.outcome.is_success(),
                "{v:?}: {} is {}",
                p.name,
                p.outcome.label()
            );
        }
        assert!(r.complete);
    }
}

#[test]
fn older_versions_keep_the_invariants_and_cannot_make_new_choices() {
    for v in [Version::V1_2, Version::V1_3] {
        let r = check(Rulebook::preset(v));
        for p in &r.properties {
            if p.expectation != Expectation::Sometimes {
                assert!(
                    p.outcome.is_success(),
                    "{v:?}: {} is {}",
                    p.name,
                    p.outcome.label()
                );
            }
        }
        // The witness cannot apply to a version without new choices: it is left out, and says why.
        let witness = "witness: new choices for a repeated item";
        assert!(r.property(witness).is_none(), "{v:?}: {witness} is checked");
        let sys = RepeatSystem::new(Rulebook::preset(v), &Bound::preset("tiny").unwrap()).unwrap();
        assert!(sys.not_applicable().iter().any(|(p, _)| p.name == witness));
        // 355.15 without the RUP4 exception: with the version's fields but counted as a RUP4
        // edit (so the witness applies), new choices never happen.
        let mut as_edit = Rulebook::preset(v);
        as_edit.base = Version::Rup4;
        assert!(matches!(
            check(as_edit).outcome(witness),
            Outcome::NeverReached
        ));
    }
}

#[test]
fn a_bound_that_never_reaches_a_witness_fails_it() {
    // No reactions at all: nothing is ever countered, so the counter witness proves nothing.
    let mut bound = Bound::preset("tiny").unwrap();
    bound.reactions = vec![vec![]];
    let sys = RepeatSystem::new(Rulebook::preset(Version::Rup4), &bound).unwrap();
    let r = sys.checker().threads(1).run().unwrap();
    assert!(matches!(
        r.outcome("witness: repeated item countered"),
        Outcome::NeverReached
    ));
    assert!(r.properties.iter().any(|p| p.outcome.is_failure()));
}

#[test]
fn rup4_passes_everything_on_the_runes_bound() {
    let r = check_on(Rulebook::preset(Version::Rup4), "runes");
    for p in &r.properties {
        assert!(
            p.outcome.is_success(),
            "{} is {}",
            p.name,
            p.outcome.label()
        );
    }
    assert!(r.complete);
}
