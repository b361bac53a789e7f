//! A model's fused conditions (`Model::fused_conditions`): every search gives the results it
//! gives with each condition evaluated on its own, and evaluates the fused function at most
//! once per state it visits (not once per property).

use checker::model::FusedConditions;
use checker::{CheckResult, CheckerExt, Model, Property};
use std::sync::atomic::{AtomicU64, Ordering};

/// Small trees, one per root; a state names its path (so each scenario is a tree) unless
/// `merge`, which folds values so that paths meet (breadth-first scenarios).
struct Fusing {
    independent: bool,
    tree: bool,
    fuse: bool,
    /// Calls of the fused function.
    calls: AtomicU64,
}

/// (root, depth, path code).
type S = (u8, u8, u32);

fn value(s: &S) -> u32 {
    s.2 % 23
}

fn not_17(s: &S) -> bool {
    value(s) != 17
}

fn deep(s: &S) -> bool {
    s.1 == 3
}

fn never(s: &S) -> bool {
    s.2 > 100_000
}

impl Model for Fusing {
    type State = S;
    type Action = u32;

    fn init_states(&self) -> Vec<S> {
        (0..5).map(|r| (r, 0, u32::from(r))).collect()
    }

    fn actions(&self, &(root, depth, _): &S, out: &mut Vec<u32>) {
        if depth < 3 + root % 3 {
            out.extend(0..(2 + u32::from(root % 3)));
        }
    }

    fn next_state(&self, &(root, depth, code): &S, &a: &u32) -> Option<S> {
        let code = match self.tree {
            true => code * 4 + a + 1,
            false => (code * 3 + a) % 29,
        };
        Some((root, depth + 1, code))
    }

    fn progress(&self, s: &S) -> Option<u64> {
        Some(s.1.into())
    }

    fn independent_inits(&self) -> bool {
        self.independent
    }

    fn tree_shaped(&self, _: &S) -> bool {
        self.tree
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::<Self>::always("not-17", "-", "value 17 never seen", |_, s| not_17(s)),
            Property::<Self>::sometimes("deep", "-", "depth 3 reached", |_, s| deep(s)),
            Property::<Self>::terminates("ends", "-", "final depth > 2", |_, s| s.1 > 2),
            Property::<Self>::sometimes("never", "-", "never reached", |_, s| never(s)),
        ]
    }

    fn fused_conditions(&self, props: &[Property<Self>]) -> Option<FusedConditions<Self>> {
        if !self.fuse || props.len() != 4 {
            return None;
        }
        Some(Box::new(|m: &Fusing, s: &S| {
            m.calls.fetch_add(1, Ordering::Relaxed);
            u64::from(not_17(s)) | u64::from(deep(s)) << 1 | u64::from(never(s)) << 3
        }))
    }
}

fn key(r: &CheckResult<Fusing>) -> String {
    let mut s = r.stats.without_timings();
    s.visited_bytes = 0;
    s.bytes_per_state = 0.0;
    s.peak_memory_bytes = None;
    format!("{:?} {:?} {} {:?}", r.properties, r.stop, r.complete, s)
}

/// With and without fusing, the level-synchronous search, the breadth-first scenario search
/// and the depth-first one give the same results; the scenario searches use the fused
/// function, at most once per state.
#[test]
fn fused_conditions_give_the_same_results_once_per_state() {
    for (independent, tree) in [(false, false), (true, false), (true, true)] {
        for threads in [1, 2] {
            let run = |fuse| {
                let m = Fusing {
                    independent,
                    tree,
                    fuse,
                    calls: AtomicU64::new(0),
                };
                let r = m.checker().threads(threads).run().unwrap();
                (
                    key(&r),
                    r.stats.states as u64,
                    m.calls.load(Ordering::Relaxed),
                )
            };
            let (plain, _, none) = run(false);
            let (fused, states, calls) = run(true);
            let how = format!("independent {independent}, tree {tree}, {threads} threads");
            assert_eq!(plain, fused, "{how}");
            assert_eq!(none, 0, "{how}: not asked for, not called");
            // The level-synchronous search evaluates each condition on its own.
            assert!(
                calls > 0 || !independent,
                "{how}: the fused function was used"
            );
            assert!(
                calls <= states,
                "{how}: {calls} calls of the fused function for {states} states"
            );
        }
    }
}
