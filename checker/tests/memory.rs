//! The memory budget. In its own test binary because the budget is on the whole process's
//! resident memory, which tests running alongside would disturb.

use checker::memory::{available_bytes, resident_bytes};
use checker::{CheckerExt, Model, Outcome, Property, StopReason};

/// Every state has `branching` distinct successors, so level `k` has `branching^k` states and
/// the second level alone would need gigabytes.
struct Fan {
    branching: u64,
}

impl Model for Fan {
    /// (depth, id): ids are distinct, so nothing is deduplicated.
    type State = (u8, u64);
    type Action = u64;

    fn init_states(&self) -> Vec<(u8, u64)> {
        vec![(0, 0)]
    }

    fn actions(&self, _: &(u8, u64), out: &mut Vec<u64>) {
        out.extend(0..self.branching);
    }

    fn next_state(&self, &(depth, id): &(u8, u64), &a: &u64) -> Option<(u8, u64)> {
        Some((
            depth + 1,
            id.wrapping_mul(self.branching).wrapping_add(a + 1),
        ))
    }

    fn progress(&self, s: &(u8, u64)) -> Option<u64> {
        Some(s.0.into())
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::<Self>::always("not_6", "-", "state (1, 6) is bad", |_, s| *s != (1, 6)),
            Property::<Self>::always("true", "-", "always true", |_, _| true),
            Property::<Self>::sometimes("deep", "-", "depth 10", |_, s| s.0 == 10),
            Property::<Self>::terminates("ends", "-", "every path ends", |_, _| true),
        ]
    }
}

const MIB: u64 = 1 << 20;

#[test]
fn exceeding_the_budget_mid_level_stops_cleanly_and_keeps_earlier_verdicts() {
    let Some(rss) = resident_bytes() else {
        return; // Not Linux: no budget can be enforced.
    };
    let m = Fan { branching: 5000 };
    for threads in [1, 2] {
        let start = std::time::Instant::now();
        let limit = rss.max(resident_bytes().unwrap()) + 50 * MIB;
        let r = m
            .checker()
            .threads(threads)
            .memory_limit(limit)
            .run()
            .unwrap();
        assert!(start.elapsed().as_secs_f64() < 2.0, "{:?}", start.elapsed());
        assert_eq!(r.stop, StopReason::MemoryLimit);
        assert!(!r.complete);
        // Level 2 (25 million states, > 1 GiB of candidates) was abandoned whole: everything
        // reported comes from levels 0 and 1.
        assert_eq!(r.stats.max_depth, 1);
        assert_eq!(r.stats.states, 5001);
        assert_eq!(r.stats.transitions, 5000);
        assert_eq!(r.stats.memory_limit_bytes, Some(limit));
        assert!(r.stats.memory_at_stop_bytes.unwrap() > limit);
        // Found in level 1, before the stop: still definitive and shortest.
        let Outcome::Violated { trace, .. } = r.outcome("not_6") else {
            panic!("{r:?}")
        };
        assert_eq!(trace.len(), 1);
        assert_eq!(trace.last_state(), &(1, 6));
        for name in ["true", "deep", "ends"] {
            assert_eq!(*r.outcome(name), Outcome::Unknown, "{name}");
        }
        let message = r.stop_message();
        assert!(
            message.starts_with("stopped: memory limit of "),
            "{message}"
        );
        assert!(
            message.ends_with(" MiB reached at depth 1 after 5001 states"),
            "{message}"
        );
    }
}

#[test]
fn budget_already_exceeded_stops_before_the_first_level() {
    if resident_bytes().is_none() {
        return;
    }
    let r = Fan { branching: 5000 }
        .checker()
        .memory_limit(1)
        .run()
        .unwrap();
    assert_eq!(r.stop, StopReason::MemoryLimit);
    assert!(!r.complete);
    assert_eq!((r.stats.max_depth, r.stats.states), (0, 1));
    assert_eq!(*r.outcome("not_6"), Outcome::Unknown);
}

/// `Fan` with a bounded depth, so that a run can finish.
struct Shallow(Fan);

impl Model for Shallow {
    type State = (u8, u64);
    type Action = u64;
    fn init_states(&self) -> Vec<(u8, u64)> {
        self.0.init_states()
    }
    fn actions(&self, s: &(u8, u64), out: &mut Vec<u64>) {
        if s.0 < 2 {
            self.0.actions(s, out)
        }
    }
    fn next_state(&self, s: &(u8, u64), a: &u64) -> Option<(u8, u64)> {
        self.0.next_state(s, a)
    }
    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::<Self>::always("true", "-", "-", |_, _| true)]
    }
}

#[test]
fn default_budget_is_three_quarters_of_available_memory_and_none_disables_it() {
    let m = Shallow(Fan { branching: 10 });
    let r = m.checker().run().unwrap();
    assert_eq!(r.stop, StopReason::Exhausted);
    assert_eq!(r.stats.states, 111);
    if let Some(available) = available_bytes() {
        let limit = r.stats.memory_limit_bytes.unwrap() as f64;
        // MemAvailable moves a little between the two reads.
        assert!(
            (limit / (available as f64 * 0.75) - 1.0).abs() < 0.05,
            "{limit}"
        );
    }
    assert_eq!(r.stats.memory_at_stop_bytes, None);
    assert!(r.stop_message().starts_with("complete: "));

    let r = m.checker().memory_limit(None).run().unwrap();
    assert_eq!(r.stats.memory_limit_bytes, None);
    assert!(r.complete);
}

/// `Fan` declared tree-shaped (ids are distinct) and bounded at depth 6: depth-first, it needs
/// almost no memory but would take years.
struct TreeFan(Fan);

impl Model for TreeFan {
    type State = (u8, u64);
    type Action = u64;
    fn init_states(&self) -> Vec<(u8, u64)> {
        self.0.init_states()
    }
    fn actions(&self, s: &(u8, u64), out: &mut Vec<u64>) {
        if s.0 < 6 {
            self.0.actions(s, out)
        }
    }
    fn next_state(&self, s: &(u8, u64), a: &u64) -> Option<(u8, u64)> {
        self.0.next_state(s, a)
    }
    fn progress(&self, s: &(u8, u64)) -> Option<u64> {
        self.0.progress(s)
    }
    fn independent_inits(&self) -> bool {
        true
    }
    fn tree_shaped(&self, _: &(u8, u64)) -> bool {
        true
    }
    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::<Self>::always("true", "-", "-", |_, _| true)]
    }
}

#[test]
fn the_depth_first_search_stops_at_the_budget_too() {
    if resident_bytes().is_none() {
        return;
    }
    let r = TreeFan(Fan { branching: 5000 })
        .checker()
        .threads(2)
        .memory_limit(1)
        .run()
        .unwrap();
    assert_eq!(r.stop, StopReason::MemoryLimit);
    assert!(!r.complete);
    assert_eq!(*r.outcome("true"), Outcome::Unknown);
}
