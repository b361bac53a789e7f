//! Symmetry reduction (identical gear renamed into a canonical order, `RepeatSystem::fingerprint`)
//! changes only the deduplication key: with it on and off, every property gets the same verdict,
//! and every trace still replays (the checker replays each one against the key it was found by).

use checker::{CheckResult, CheckerExt, Model, Outcome};
use model::rulebook::{Rulebook, Version};
use properties::bound::{BoardShape, BodyShape, Resources};
use properties::system::canonical_gear;
use properties::{Bound, RepeatSystem};

fn run(sys: &RepeatSystem, symmetry: bool, threads: usize) -> CheckResult<RepeatSystem> {
    sys.checker()
        .threads(threads)
        .symmetry(symmetry)
        .run()
        .unwrap()
}

/// Verdict labels, and for a failure the length of its (shortest) trace.
fn verdicts(r: &CheckResult<RepeatSystem>) -> Vec<(&'static str, &'static str, Option<usize>)> {
    r.properties
        .iter()
        .map(|p| {
            let len = match &p.outcome {
                Outcome::Violated { trace, .. } | Outcome::Witnessed { trace } => Some(trace.len()),
                _ => None,
            };
            (p.name, p.outcome.label(), len)
        })
        .collect()
}

fn outcomes(r: &CheckResult<RepeatSystem>) -> Vec<Outcome<RepeatSystem>> {
    r.properties.iter().map(|p| p.outcome.clone()).collect()
}

#[test]
fn tiny_bound_gives_the_same_verdicts_and_states_with_and_without_symmetry() {
    let sys = RepeatSystem::new(
        Rulebook::preset(Version::Rup4),
        &Bound::preset("tiny").unwrap(),
    )
    .unwrap();
    let on = run(&sys, true, 2);
    let off = run(&sys, false, 2);
    assert!(on.complete && off.complete);
    assert_eq!(verdicts(&on), verdicts(&off));
    // The tiny bound has no two identical gear: nothing to reduce, and the keys are the plain
    // fingerprints, so even the traces are the same.
    assert_eq!(on.stats.states, off.stats.states);
    assert_eq!(outcomes(&on), outcomes(&off));
}

/// A bound whose board has two identical enemy gear (the `mixed` board) and items that kill a
/// gear: the one shipped situation the reduction applies to.
fn two_identical_gear() -> Bound {
    Bound {
        name: "two-gear".into(),
        instances: vec![0, 1],
        instance_costs: vec!["[1]".into()],
        bodies: vec![BodyShape::Modal],
        item_cost: 1,
        catalogue: vec!["Rocket Barrage".into()],
        abilities: false,
        boards: vec![BoardShape::Mixed],
        extras: vec![vec![]],
        resources: vec![Resources::Rich],
        reactions: vec![vec![], vec!["Defy".into()]],
        deck_top: vec![],
        turn: Default::default(),
        also: vec![],
    }
}

#[test]
fn identical_gear_are_reduced_with_the_same_verdicts_for_every_rulebook() {
    for version in [Version::Rup4, Version::V1_2, Version::V1_3, Version::Guide] {
        let sys = RepeatSystem::new(Rulebook::preset(version), &two_identical_gear()).unwrap();
        let on = run(&sys, true, 2);
        let off = run(&sys, false, 1);
        assert!(on.complete && off.complete);
        assert_eq!(verdicts(&on), verdicts(&off), "{version:?}");
        assert!(
            on.stats.states < off.stats.states,
            "{version:?}: {} states with symmetry, {} without",
            on.stats.states,
            off.stats.states
        );
        eprintln!(
            "{version:?}: {} states with symmetry reduction, {} without",
            on.stats.states, off.stats.states
        );
        // Deterministic across thread counts with the reduction on, too.
        let on1 = run(&sys, true, 1);
        assert_eq!(outcomes(&on1), outcomes(&on));
        assert_eq!(on1.stats.states, on.stats.states);
    }
}

#[test]
fn the_key_is_the_fingerprint_of_a_canonical_fixed_point() {
    // Walk the two-gear scenarios: a state with nothing to reorder keeps its plain fingerprint,
    // and a reordered one is keyed by its canonical form, which needs no further reordering.
    let sys = RepeatSystem::new(Rulebook::preset(Version::Rup4), &two_identical_gear()).unwrap();
    let mut frontier = sys.init_states();
    let mut seen = 0;
    let mut visited = 0;
    let mut actions = vec![];
    while let Some(s) = frontier.pop() {
        visited += 1;
        if visited > 300_000 {
            break;
        }
        let key = sys.fingerprint(&s);
        match canonical_gear(&s) {
            None => assert_eq!(key, checker::fingerprint(&s)),
            Some(c) => {
                assert_eq!(key, checker::fingerprint(&c));
                assert_eq!(canonical_gear(&c), None, "canonical form is a fixed point");
                seen += 1;
            }
        }
        actions.clear();
        sys.actions(&s, &mut actions);
        for a in &actions {
            if frontier.len() < 50_000 {
                frontier.extend(sys.next_state(&s, a));
            }
        }
    }
    assert!(seen > 0, "some state had its gear reordered");
}
