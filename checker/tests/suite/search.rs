//! End-to-end tests of the breadth-first search on small models with known answers.

use super::models;

use checker::{
    CheckError, CheckResult, CheckerExt, Expectation, Model, Outcome, Property, StopReason, Trace,
    Violation,
};
use models::*;
use std::collections::{HashMap, VecDeque};

fn run<M: Model>(model: &M, threads: usize) -> CheckResult<M> {
    model.checker().threads(threads).run().expect("check runs")
}

/// The whole result minus what legitimately varies between runs (time, memory).
fn canonical<M: Model>(r: &CheckResult<M>) -> String {
    let mut r = r.clone();
    r.stats = r.stats.without_timings();
    format!("{r:?}")
}

/// Runs with 1, 2 and 3 threads, asserts the results are identical, returns the 1-thread one.
fn run_all_threads<M: Model>(model: &M) -> CheckResult<M> {
    let one = run(model, 1);
    for threads in [2, 3] {
        assert_eq!(
            canonical(&one),
            canonical(&run(model, threads)),
            "{threads} threads differ"
        );
    }
    one
}

fn trace<'a, M: Model>(r: &'a CheckResult<M>, name: &str) -> &'a Trace<M> {
    r.outcome(name)
        .trace()
        .unwrap_or_else(|| panic!("{name} has no trace: {:?}", r.outcome(name)))
}

#[test]
fn counters_have_exact_counts() {
    let m = Counters::new(3, 8).with(Counters::always_true());
    let r = run_all_threads(&m);
    assert_eq!(r.stats.init_states, 1);
    assert_eq!(r.stats.states, 729);
    assert_eq!(r.stats.transitions, 3 * 8 * 81);
    assert_eq!(r.stats.max_depth, 24);
    assert!(r.complete);
    assert_eq!(r.stop, StopReason::Exhausted);
    assert_eq!(*r.outcome("true"), Outcome::Holds);
    assert!(r.all_pass());
    assert!(r.stats.visited_bytes > 0);
}

#[test]
fn counterexamples_and_witnesses_are_shortest_and_canonical() {
    let mut m = Counters::new(3, 8)
        .with(Counters::sum_not_k())
        .with(Counters::sum_is_k())
        .with(Counters::all_max())
        .with(Counters::first_le_second());
    m.k = 10;
    let r = run_all_threads(&m);

    let Outcome::Violated { kind, trace: t } = r.outcome("sum_not_k") else {
        panic!("{r:?}")
    };
    assert_eq!(*kind, Violation::Invariant);
    assert_eq!(t.len(), 10);
    // First in canonical order (parent position, then action index) among depth-10 states.
    assert_eq!(t.last_state(), &vec![8, 2, 0]);
    // Index 0 each time: once counter 0 is at max, `Inc(1)` is the first enabled action.
    assert_eq!(t.action_indices(), vec![0; 10]);
    assert_eq!(t.steps[9].action, CounterAction::Inc(1));
    assert_eq!(Trace::replay(&m, 0, &t.action_indices()).as_ref(), Some(t));

    let Outcome::Witnessed { trace: witness } = r.outcome("sum_is_k") else {
        panic!("{r:?}")
    };
    assert_eq!(witness, t);
    assert_eq!(trace(&r, "all_max").len(), 24);
    assert_eq!(
        trace(&r, "first_le_second").states().collect::<Vec<_>>(),
        [&vec![0, 0, 0], &vec![1, 0, 0]]
    );

    // Every property was decided by depth 24, before [8, 8, 8] was expanded.
    assert_eq!(r.stop, StopReason::AllDecided);
    assert!(!r.complete);
    assert_eq!(r.stats.max_depth, 24);
}

#[test]
fn unreachable_witness_is_never_reached_and_invariant_holds() {
    let mut m = Counters::new(3, 8)
        .with(Counters::sum_is_k())
        .with(Counters::sum_not_k());
    m.k = 25;
    let r = run_all_threads(&m);
    assert!(r.complete);
    assert_eq!(*r.outcome("sum_is_k"), Outcome::NeverReached);
    assert!(r.outcome("sum_is_k").is_failure());
    assert_eq!(*r.outcome("sum_not_k"), Outcome::Holds);
    assert!(!r.all_pass());
}

#[test]
fn initial_state_violation_has_an_empty_trace() {
    let mut m = Counters::new(2, 3)
        .with(Counters::sum_not_k())
        .with(Counters::always_true());
    m.k = 0;
    let r = run(&m, 2);
    let t = trace(&r, "sum_not_k");
    assert!(t.is_empty());
    assert_eq!(t.init, vec![0, 0]);
    assert!(r.complete, "an undecided property keeps the search going");
}

#[test]
fn termination_with_progress_holds_and_rules_out_cycles() {
    let m = Counters::new(2, 4).with(Counters::ends_at_max());
    let r = run_all_threads(&m);
    assert_eq!(*r.outcome("ends_at_max"), Outcome::Holds);
    assert!(r.cycles_checked);
}

#[test]
fn cycle_breaking_progress_is_reported_with_a_trace() {
    let m = Ring { modulus: 4 };
    let r = run_all_threads(&m);
    let Outcome::Violated { kind, trace } = r.outcome("ends") else {
        panic!("{r:?}")
    };
    assert_eq!(*kind, Violation::PossibleCycle);
    assert_eq!(trace.states().copied().collect::<Vec<_>>(), [0, 1, 2, 3, 0]);
    assert_eq!(r.stats.states, 4);
}

#[test]
fn failing_final_state_is_reported_with_a_shortest_trace() {
    for with_progress in [true, false] {
        let m = Steps { with_progress };
        let r = run_all_threads(&m);
        let Outcome::Violated { kind, trace } = r.outcome("ends_at_5") else {
            panic!("{r:?}")
        };
        assert_eq!(*kind, Violation::FinalState);
        assert_eq!(trace.states().copied().collect::<Vec<_>>(), [0, 2, 4, 6]);
        assert_eq!(trace.action_indices(), [1, 1, 1]);
        assert_eq!(*r.outcome("ends_at_5_or_6"), Outcome::Holds);
        assert!(r.complete);
        // Without a progress measure, a Holds for Terminates says nothing about cycles.
        assert_eq!(r.cycles_checked, with_progress);
    }
}

#[test]
fn non_deterministic_model_is_an_error_not_a_panic() {
    let err = Noisy.checker().threads(2).run().unwrap_err();
    match &err {
        CheckError::ModelNotDeterministic {
            property,
            step,
            detail,
        } => {
            assert_eq!(property, "below_3");
            assert_eq!(*step, 1);
            assert!(detail.contains("different state"), "{detail}");
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(err.to_string().contains("diverged at step 1"), "{err}");
}

#[test]
fn max_states_gives_an_incomplete_run_with_unknown_verdicts() {
    let mut m = Counters::new(3, 8)
        .with(Counters::sum_not_k())
        .with(Counters::sum_is_k())
        .with(Counters::ends_at_max())
        .with(Counters::first_le_second());
    m.k = 20;
    let r = m.checker().threads(1).max_states(100).run().unwrap();
    assert_eq!(
        canonical(&r),
        canonical(&m.checker().threads(2).max_states(100).run().unwrap())
    );
    assert!(!r.complete);
    assert_eq!(r.stop, StopReason::MaxStates);
    assert!(
        r.stats.states >= 100 && r.stats.states < 729,
        "{}",
        r.stats.states
    );
    assert_eq!(*r.outcome("sum_not_k"), Outcome::Unknown);
    assert_eq!(*r.outcome("sum_is_k"), Outcome::Unknown);
    assert_eq!(*r.outcome("ends_at_max"), Outcome::Unknown);
    // A violation found before the limit is still definitive.
    assert!(matches!(
        r.outcome("first_le_second"),
        Outcome::Violated { .. }
    ));

    // A limit above the state count changes nothing.
    let full = m.checker().max_states(10_000).run().unwrap();
    assert!(full.complete);
    assert_eq!(*full.outcome("ends_at_max"), Outcome::Holds);
    assert_eq!(trace(&full, "sum_not_k").len(), 20);
}

#[test]
fn symmetry_reduces_states_and_traces_still_replay() {
    let mut m = Counters::new(2, 10)
        .with(Counters::sum_not_k())
        .with(Counters::always_true());
    m.symmetric = true;
    m.k = 15;
    let reduced = run_all_threads(&m);
    assert_eq!(reduced.stats.states, 11 * 12 / 2);
    let full = m.checker().symmetry(false).run().unwrap();
    assert_eq!(full.stats.states, 121);

    for r in [&reduced, &full] {
        let t = trace(r, "sum_not_k");
        assert_eq!(t.len(), 15);
        assert_eq!(t.last_state().iter().map(|&c| c as u32).sum::<u32>(), 15);
        assert_eq!(
            Trace::replay(&m, t.init_index, &t.action_indices()).as_ref(),
            Some(t)
        );
    }
}

#[test]
fn bytes_per_state_of_the_search_stay_under_32() {
    let m = Counters::new(3, 60).with(Counters::always_true());
    let r = run(&m, 2);
    assert_eq!(r.stats.states, 61 * 61 * 61);
    assert!(
        r.stats.bytes_per_state <= 32.0,
        "{} B/state",
        r.stats.bytes_per_state
    );
    assert!(r.stats.bytes_per_state <= checker::visited::MAX_BYTES_PER_STATE);
}

#[test]
fn hanoi_has_3_pow_n_states_and_an_optimal_witness() {
    let n = 7;
    let r = run_all_threads(&Hanoi { discs: n });
    assert_eq!(r.stats.states, 3usize.pow(n as u32));
    assert_eq!(r.stats.transitions, 3 * 3u64.pow(n as u32) - 3);
    assert_eq!(r.stats.max_depth, (1 << n) - 1);
    assert_eq!(trace(&r, "solved").len(), (1 << n) - 1);
    assert_eq!(*r.outcome("ordered"), Outcome::Holds);
}

#[test]
fn no_properties_and_no_initial_states_are_errors() {
    let m = Counters::new(2, 2);
    assert_eq!(m.checker().run().unwrap_err(), CheckError::NoProperties);

    struct Empty;
    impl Model for Empty {
        type State = u8;
        type Action = u8;
        fn init_states(&self) -> Vec<u8> {
            vec![]
        }
        fn actions(&self, _: &u8, _: &mut Vec<u8>) {}
        fn next_state(&self, _: &u8, _: &u8) -> Option<u8> {
            None
        }
        fn properties(&self) -> Vec<Property<Self>> {
            vec![Property::always("t", "-", "-", |_, _| true)]
        }
    }
    assert_eq!(
        Empty.checker().run().unwrap_err(),
        CheckError::NoInitialStates
    );
}

#[test]
fn inapplicable_actions_are_not_edges_and_keep_their_indices() {
    let mut m = Counters::new(3, 8)
        .with(Counters::sum_not_k())
        .with(Counters::ends_at_max());
    m.dead_actions = true;
    m.k = 3;
    let r = run_all_threads(&m);
    assert_eq!(r.stats.transitions, 3 * 8 * 81);
    let t = trace(&r, "sum_not_k");
    assert_eq!(
        t.action_indices(),
        [1, 1, 1],
        "index 0 is the inapplicable action"
    );
    // [8, 8, 8] has only the inapplicable action: it is a final state, and it satisfies the condition.
    assert_eq!(*r.outcome("ends_at_max"), Outcome::Holds);
}

/// A plain sequential FIFO search: (states, transitions, max depth, path to target).
fn reference_bfs(m: &Scrambled) -> (usize, u64, usize, Option<(usize, Vec<usize>)>) {
    let mut seen: HashMap<u32, (Option<u32>, usize, usize)> = HashMap::new();
    let mut queue = VecDeque::new();
    for (i, s) in m.init_states().into_iter().enumerate() {
        if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(s) {
            e.insert((None, i, 0));
            queue.push_back(s);
        }
    }
    let mut transitions = 0;
    while let Some(x) = queue.pop_front() {
        let depth = seen[&x].2;
        for (a, y) in m.successors(x).into_iter().enumerate() {
            transitions += 1;
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(y) {
                e.insert((Some(x), a, depth + 1));
                queue.push_back(y);
            }
        }
    }
    let max_depth = seen.values().map(|v| v.2).max().unwrap();
    let path = seen.contains_key(&m.target).then(|| {
        let mut path = vec![];
        let mut x = m.target;
        loop {
            let (parent, a, _) = seen[&x];
            match parent {
                Some(p) => {
                    path.push(a);
                    x = p;
                }
                None => {
                    path.reverse();
                    return (a, path);
                }
            }
        }
    });
    (seen.len(), transitions, max_depth, path)
}

#[test]
fn parents_match_a_sequential_fifo_search() {
    for (size, target) in [(5_000, 4_321), (100_000, 77_777), (100_000, 3)] {
        let m = Scrambled { size, target };
        let (states, transitions, max_depth, path) = reference_bfs(&m);
        let r = run_all_threads(&m);
        assert_eq!(r.stats.init_states, 2);
        assert_eq!(r.stats.states, states);
        assert_eq!(r.stats.transitions, transitions);
        assert_eq!(r.stats.max_depth, max_depth);
        let (init_index, actions) = path.expect("target reachable");
        let t = trace(&r, "target");
        assert_eq!(
            (t.init_index, t.action_indices()),
            (init_index, actions),
            "size {size}"
        );
        assert_eq!(trace(&r, "not_target"), t);
        assert!(r.complete);
    }
}

#[test]
fn stop_on_first_violation_stops_early() {
    let m = Counters::new(3, 8)
        .with(Counters::first_le_second())
        .with(Counters::always_true());
    let r = m.checker().stop_on_first_violation(true).run().unwrap();
    assert_eq!(r.stop, StopReason::FirstViolation);
    assert_eq!(r.stats.max_depth, 1);
    assert_eq!(*r.outcome("true"), Outcome::Unknown);
}

#[test]
fn level_callback_sees_every_level() {
    let m = Counters::new(2, 5).with(Counters::always_true());
    let mut depths = vec![];
    let r = m
        .checker()
        .threads(2)
        .on_level(|p| depths.push((p.depth, p.frontier)))
        .run()
        .unwrap();
    assert_eq!(r.stats.max_depth, 10);
    let expected: Vec<(usize, usize)> = (1..=10)
        .map(|d: usize| (d, (0..=5).filter(|&a: &usize| d >= a && d - a <= 5).count()))
        .collect();
    // The last call reports the empty frontier after the deepest level.
    assert_eq!(depths[..10], expected[..]);
    assert_eq!(depths[10], (10, 0));
}

#[test]
fn trace_format_numbers_steps_with_model_descriptions() {
    let mut m = Counters::new(2, 3).with(Counters::sum_not_k());
    m.k = 2;
    let r = run(&m, 1);
    let text = trace(&r, "sum_not_k").format(&m);
    assert_eq!(
        text,
        "0. initial state #0\n1. increment counter 0\n   [0, 0] -> [1, 0]\n2. increment counter 0\n   [1, 0] -> [2, 0]\n"
    );
    assert_eq!(r.properties[0].expectation, Expectation::Always);
}

/// Wraps a model and records which threads call `actions`.
struct ThreadSpy<M> {
    inner: M,
    threads: std::sync::Mutex<std::collections::HashSet<String>>,
}

impl<M: Model> Model for ThreadSpy<M> {
    type State = M::State;
    type Action = M::Action;
    fn init_states(&self) -> Vec<M::State> {
        self.inner.init_states()
    }
    fn actions(&self, s: &M::State, out: &mut Vec<M::Action>) {
        let name = std::thread::current()
            .name()
            .unwrap_or("unnamed")
            .to_string();
        self.threads.lock().unwrap().insert(name);
        self.inner.actions(s, out)
    }
    fn next_state(&self, s: &M::State, a: &M::Action) -> Option<M::State> {
        self.inner.next_state(s, a)
    }
    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::<Self>::always("t", "-", "-", |_, _| true)]
    }
}

#[test]
fn threads_option_sets_the_worker_pool_size() {
    for threads in [1, 2] {
        let m = ThreadSpy {
            inner: Counters::new(3, 30),
            threads: Default::default(),
        };
        m.checker().threads(threads).run().unwrap();
        let seen = m.threads.into_inner().unwrap();
        assert!(seen.len() <= threads, "{seen:?}");
        assert!(
            seen.iter().all(|n| n.starts_with("rbcheck-worker-")),
            "{seen:?}"
        );
    }
}
