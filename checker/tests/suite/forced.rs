//! Forced steps (`Model::forced`): the search of independent initial states follows them
//! without storing their states, and gives the same verdicts, traces and visited counts as
//! when it stores every state; a violation on a forced state is found with its full trace.

use checker::{CheckError, CheckResult, CheckerExt, Model, Outcome, Property};

/// Trees of "procedures": a state at a depth that is a multiple of 3 is a choice (3 actions),
/// the others have one action, a forced step. Each state carries its path, so the trees never
/// meet (a forest).
#[derive(Clone, Copy)]
struct Procs {
    roots: u8,
    /// Whether `forced` is declared (false: the same system without the declaration).
    declare: bool,
    /// A wrong declaration: choice states declared forced too.
    lie: bool,
    independent: bool,
}

/// (root, depth, value, path).
type S = (u8, u8, u32, u64);

const DEPTH: u8 = 8;

impl Model for Procs {
    type State = S;
    type Action = u8;

    fn init_states(&self) -> Vec<S> {
        (0..self.roots).map(|r| (r, 0, u32::from(r), 0)).collect()
    }

    fn actions(&self, s: &S, out: &mut Vec<u8>) {
        if s.1 >= DEPTH {
            return;
        }
        if s.1.is_multiple_of(3) {
            out.extend([0, 1, 2]);
        } else {
            out.push(7);
        }
    }

    fn next_state(&self, &(root, depth, value, path): &S, &a: &u8) -> Option<S> {
        let value = (value * 3 + u32::from(a) + 1) % 31;
        Some((root, depth + 1, value, path * 11 + u64::from(a) + 1))
    }

    fn forced(&self, s: &S) -> Option<u8> {
        let one = s.1 < DEPTH && !s.1.is_multiple_of(3);
        (self.declare && (one || (self.lie && s.1 < DEPTH))).then_some(7)
    }

    fn independent_inits(&self) -> bool {
        self.independent
    }

    fn progress(&self, s: &S) -> Option<u64> {
        Some(s.1.into())
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            // Depth 5 is reached by a forced step (5 % 3 != 0): the violation is on a state
            // that is not stored.
            Property::<Self>::always("forced-clean", "-", "no value 4 at depth 5", |_, s| {
                !(s.1 == 5 && s.2 == 4)
            }),
            Property::<Self>::always("fine", "-", "holds", |_, s| s.2 < 31),
            Property::<Self>::sometimes("deep", "-", "depth 7 with value 3", |_, s| {
                s.1 == 7 && s.2 == 3
            }),
            Property::<Self>::terminates("ends", "-", "every path ends", |_, _| true),
        ]
    }
}

/// What must agree: verdicts with their traces, the stop, and the counts but those of stored
/// states and memory.
fn key(r: &CheckResult<Procs>) -> String {
    let mut s = r.stats.without_timings();
    s.visited_bytes = 0;
    s.bytes_per_state = 0.0;
    s.states_stored = 0;
    format!("{:?} {:?} {} {:?}", r.properties, r.stop, r.complete, s)
}

fn model(declare: bool) -> Procs {
    Procs {
        roots: 5,
        declare,
        lie: false,
        independent: true,
    }
}

#[test]
fn collapsing_forced_steps_changes_only_what_is_stored() {
    let plain = model(false).checker().threads(1).run().unwrap();
    assert_eq!(plain.stats.states_stored, plain.stats.states);
    for threads in [1, 2] {
        for declared in [model(true).checker(), model(false).checker()] {
            let r = declared.threads(threads).run().unwrap();
            assert_eq!(key(&r), key(&plain));
        }
        let off = model(true).checker().collapse_forced(false).run().unwrap();
        assert_eq!(off.stats.states_stored, off.stats.states);
        let on = model(true).checker().threads(threads).run().unwrap();
        // Per root: depths 0..=8 hold 1, 3, 3, 3, 9, 9, 9, 27, 27 states; only the choices
        // (depths 0, 3, 6) and the final states (depth 8) are not forced.
        let per_root = 1 + 3 + 3 + 3 + 9 + 9 + 9 + 27 + 27;
        let choices = 1 + 3 + 9 + 27;
        assert_eq!(on.stats.states, 5 * per_root);
        assert_eq!(on.stats.states_stored, 5 * choices);
    }
}

#[test]
fn a_violation_on_a_forced_step_has_its_full_trace() {
    let r = model(true).checker().run().unwrap();
    let p = &r.properties[0];
    let Outcome::Violated { trace, .. } = &p.outcome else {
        panic!("{:?}", p.outcome)
    };
    // Every step is there: choice, two forced steps, choice, forced step to depth 5.
    let actions: Vec<u8> = trace.steps.iter().map(|s| s.action).collect();
    assert_eq!(actions.len(), 5);
    assert!(actions[0] < 3 && actions[3] < 3, "{actions:?}");
    assert_eq!([actions[1], actions[2], actions[4]], [7, 7, 7]);
    let last = trace.steps.last().unwrap();
    assert_eq!((last.state.1, last.state.2, last.action_index), (5, 4, 0));
    // And it is the trace the search storing every state finds.
    let off = model(true).checker().collapse_forced(false).run().unwrap();
    assert_eq!(
        format!("{:?}", off.properties[0]),
        format!("{:?}", r.properties[0])
    );
}

#[test]
fn a_false_forced_declaration_is_reported_when_a_trace_crosses_it() {
    let liar = Procs {
        lie: true,
        ..model(true)
    };
    match liar.checker().run() {
        Err(CheckError::ForcedStepMismatch { detail }) => {
            assert!(detail.contains("declared forced"), "{detail}")
        }
        other => panic!("{:?}", other.map(|r| r.stop)),
    }
}

#[test]
fn the_level_synchronous_search_stores_every_state() {
    let joint = Procs {
        independent: false,
        ..model(true)
    };
    let r = joint.checker().run().unwrap();
    assert_eq!(r.stats.states_stored, r.stats.states);
    assert_eq!(key(&r), key(&model(true).checker().run().unwrap()));
}

/// A run of forced steps that cycles: 1 -> 2 -> 3 -> 1 ... after the choice at 0.
struct Loop {
    declare: bool,
}

impl Model for Loop {
    type State = u8;
    type Action = u8;

    fn init_states(&self) -> Vec<u8> {
        vec![0]
    }

    fn actions(&self, &s: &u8, out: &mut Vec<u8>) {
        if s == 0 {
            out.extend([1, 2]);
        } else {
            out.push(0);
        }
    }

    fn next_state(&self, &s: &u8, &a: &u8) -> Option<u8> {
        Some(if s == 0 { a } else { s % 3 + 1 })
    }

    fn forced(&self, &s: &u8) -> Option<u8> {
        (self.declare && s != 0).then_some(0)
    }

    fn independent_inits(&self) -> bool {
        true
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::<Self>::always(
            "small",
            "-",
            "below 4",
            |_, &s| s < 4,
        )]
    }
}

#[test]
fn a_cycle_of_forced_steps_still_ends() {
    let plain = Loop { declare: false }.checker().run().unwrap();
    let r = Loop { declare: true }.checker().run().unwrap();
    assert!(r.complete && plain.complete);
    assert_eq!(
        format!("{:?}", r.properties),
        format!("{:?}", plain.properties)
    );
    // A stored state every 256 forced steps: the stored ones repeat, and the run ends.
    assert!(r.stats.states_stored <= 8, "{:?}", r.stats);
    assert!(r.stats.states > plain.stats.states);
}
