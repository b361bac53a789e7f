//! A panic in model code is returned as `CheckError::ModelPanicked`, the same for every thread
//! count. (The default panic hook still prints each panic to stderr.)

use checker::{CheckError, CheckerExt, Model, Property};

/// Which model method panics.
#[derive(Clone, Copy, Debug)]
enum Site {
    InitStates,
    Properties,
    Actions,
    NextState,
    Fingerprint,
    Condition,
    Terminates,
}

/// A tree with fan-out 20 (8000 states at depth 3, so several chunks per level) whose `site`
/// panics on some of the states at depth 3.
struct Bomb {
    site: Site,
}

/// (depth, id).
type State = (u8, u32);

fn armed(s: &State) -> bool {
    s.0 == 3 && s.1 % 1000 == 777
}

impl Model for Bomb {
    type State = State;
    type Action = u32;

    fn init_states(&self) -> Vec<State> {
        if let Site::InitStates = self.site {
            panic!("no initial states today");
        }
        vec![(0, 0)]
    }

    fn actions(&self, s: &State, out: &mut Vec<u32>) {
        if let (Site::Actions, true) = (self.site, armed(s)) {
            panic!("actions of {s:?}");
        }
        if s.0 < 4 {
            out.extend(0..20);
        }
    }

    fn next_state(&self, s: &State, &a: &u32) -> Option<State> {
        if let (Site::NextState, true) = (self.site, armed(s)) {
            std::panic::panic_any(42u8);
        }
        Some((s.0 + 1, s.1 * 20 + a))
    }

    fn fingerprint(&self, s: &State) -> u64 {
        if let (Site::Fingerprint, true) = (self.site, armed(s)) {
            panic!("fingerprint of {s:?}");
        }
        checker::fingerprint(s)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        if let Site::Properties = self.site {
            panic!("no properties today");
        }
        let condition: fn(&Bomb, &State) -> bool = |m, s| {
            if let (Site::Condition, true) = (m.site, armed(s)) {
                panic!("condition on {s:?}");
            }
            true
        };
        // A condition on final states only (depth 4): its panic is on a depth-4 state.
        let ends: fn(&Bomb, &State) -> bool = |m, s| {
            if let (Site::Terminates, true) = (m.site, s.0 == 4 && s.1 % 1000 == 777) {
                panic!("final condition on {s:?}");
            }
            true
        };
        vec![
            Property::<Self>::always("ok", "-", "-", condition),
            Property::<Self>::terminates("ends", "-", "-", ends),
        ]
    }
}

/// The error of a run with 1, 2 and 3 threads, which must be identical.
fn error(site: Site) -> String {
    let errors: Vec<String> = [1, 2, 3]
        .iter()
        .map(
            |&threads| match (Bomb { site }).checker().threads(threads).run() {
                Err(e @ CheckError::ModelPanicked { .. }) => e.to_string(),
                other => panic!("{site:?}, {threads} threads: {other:?}"),
            },
        )
        .collect();
    assert!(
        errors.iter().all(|e| *e == errors[0]),
        "{site:?}: {errors:?}"
    );
    errors.into_iter().next().unwrap()
}

#[test]
fn a_panicking_model_is_an_error_naming_the_depth_and_the_first_panic() {
    // The first armed state in canonical order is (3, 777).
    let cases = [
        (
            Site::Actions,
            "while expanding a state at depth 3 into its successors: actions of (3, 777)",
        ),
        (
            Site::NextState,
            "while expanding a state at depth 3 into its successors: (panic payload is not a string)",
        ),
        // Successors at depth 3 are fingerprinted while their parents at depth 2 are expanded.
        (
            Site::Fingerprint,
            "while expanding a state at depth 2 into its successors: fingerprint of (3, 777)",
        ),
        (
            Site::Condition,
            "while checking a property on a state at depth 3: condition on (3, 777)",
        ),
        (
            Site::Terminates,
            "while expanding a state at depth 4 into its successors: final condition on (4, 777)",
        ),
        (
            Site::InitStates,
            "while computing or checking the initial states (depth 0): no initial states today",
        ),
        (
            Site::Properties,
            "while listing the properties: no properties today",
        ),
    ];
    for (site, detail) in cases {
        assert_eq!(
            error(site),
            format!("the model panicked {detail}"),
            "{site:?}"
        );
    }
}

#[test]
fn a_run_after_a_panicking_run_is_unaffected() {
    assert!(Bomb {
        site: Site::Actions
    }
    .checker()
    .run()
    .is_err());
    // No `Site` is armed in this model: a clean run of the same tree.
    struct Quiet;
    impl Model for Quiet {
        type State = State;
        type Action = u32;
        fn init_states(&self) -> Vec<State> {
            vec![(0, 0)]
        }
        fn actions(&self, s: &State, out: &mut Vec<u32>) {
            if s.0 < 4 {
                out.extend(0..20);
            }
        }
        fn next_state(&self, s: &State, &a: &u32) -> Option<State> {
            Some((s.0 + 1, s.1 * 20 + a))
        }
        fn properties(&self) -> Vec<Property<Self>> {
            vec![Property::<Self>::always("ok", "-", "-", |_, _| true)]
        }
    }
    let r = Quiet.checker().run().unwrap();
    assert!(r.complete);
    assert_eq!(r.stats.states, 1 + 20 + 400 + 8000 + 160_000);
}
