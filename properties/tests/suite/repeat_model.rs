//! The checker on the real Repeat model (a tree-shaped space of large states, each carrying its
//! event log): the visited set stays within 32 bytes per state, and 1 and 2 threads give the
//! same counts, verdicts and traces, printed byte for byte alike, with and without symmetry
//! reduction, including under a rulebook that breaks a property (real counterexamples).

use checker::{CheckResult, CheckerExt, Outcome};
use model::rulebook::{Rulebook, Version};
use properties::{Bound, RepeatSystem};

fn tiny(rules: Rulebook) -> RepeatSystem {
    RepeatSystem::new(rules, &Bound::preset("tiny").unwrap()).unwrap()
}

/// Everything a user sees of a run but its timings: stats, verdicts, and each trace as printed.
fn printed(sys: &RepeatSystem, r: &CheckResult<RepeatSystem>) -> String {
    let mut out = format!("{:?}\n", r.stats.without_timings());
    for p in &r.properties {
        out += &format!("{} {}\n", p.name, p.outcome.label());
        if let Some(t) = p.outcome.trace() {
            out += &t.format(sys);
        }
    }
    out
}

fn check_thread_counts(sys: &RepeatSystem, symmetry: bool) -> CheckResult<RepeatSystem> {
    let run = |threads| {
        sys.checker()
            .threads(threads)
            .symmetry(symmetry)
            .run()
            .unwrap()
    };
    let one = run(1);
    assert!(one.complete);
    let reference = printed(sys, &one);
    let two = run(2);
    assert_eq!(
        printed(sys, &two),
        reference,
        "2 threads differ from 1 (symmetry {symmetry})"
    );
    // Measured on the run, not only by construction.
    assert!(
        one.stats.bytes_per_state <= 32.0,
        "{} bytes per visited state",
        one.stats.bytes_per_state
    );
    assert!(one.stats.bytes_per_state <= checker::visited::MAX_BYTES_PER_STATE);
    one
}

#[test]
fn published_rules_same_results_for_every_thread_count() {
    let sys = tiny(Rulebook::preset(Version::Rup4));
    let on = check_thread_counts(&sys, true);
    let off = check_thread_counts(&sys, false);
    assert!(on.all_pass());
    assert_eq!(on.stats.states, off.stats.states);
}

#[test]
fn counterexamples_are_the_same_shortest_traces_for_every_thread_count() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/rulebooks/double-executions.toml"),
    )
    .unwrap();
    let sys = tiny(Rulebook::from_toml(&text, "double-executions").unwrap());
    let r = check_thread_counts(&sys, true);
    let Outcome::Violated { trace, .. } = r.outcome("executions-equal-one-plus-paid") else {
        panic!("the wrong rulebook must break its property");
    };
    assert!(!trace.is_empty());
}
