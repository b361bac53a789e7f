//! Independent initial states (`Model::independent_inits`): exploring each scenario on its own
//! gives exactly what the level-synchronous search gives, at every thread count and shard split.

use checker::{CheckResult, CheckerExt, Model, Part, Property, StopReason};

/// Several small trees, one per root, with duplicates inside a tree (values wrap), one root
/// with a transition that does not increase progress, and properties found at various depths.
struct Trees {
    roots: u8,
    independent: bool,
    /// Which property set: 0 some hold, 1 every property decided early.
    variant: u8,
}

type S = (u8, u8, u32);

impl Model for Trees {
    type State = S;
    type Action = u32;

    fn init_states(&self) -> Vec<S> {
        let mut v: Vec<S> = (0..self.roots).map(|r| (r, 0, u32::from(r))).collect();
        // A repeated initial state: kept once.
        v.insert(2.min(v.len()), (0, 0, 0));
        v
    }

    fn actions(&self, &(root, depth, value): &S, out: &mut Vec<u32>) {
        let limit = 3 + root % 4;
        if depth < limit {
            out.extend(0..(2 + u32::from(root % 3)));
            if root == 3 && depth == 2 && value % 2 == 0 {
                out.push(99);
            }
        }
    }

    fn next_state(&self, &(root, depth, value): &S, &a: &u32) -> Option<S> {
        if a == 99 {
            return Some((root, depth, value | 1));
        }
        if root == 5 && a == 1 && depth == 1 {
            return None;
        }
        Some((root, depth + 1, (value * 3 + a) % 23))
    }

    fn progress(&self, s: &S) -> Option<u64> {
        Some(s.1.into())
    }

    fn independent_inits(&self) -> bool {
        self.independent
    }

    fn properties(&self) -> Vec<Property<Self>> {
        let mut v = vec![
            Property::<Self>::always("not-17", "-", "value 17 never seen", |_, s| s.2 != 17),
            Property::<Self>::sometimes("deep-4", "-", "depth 4 reached", |_, s| s.1 == 4),
            Property::<Self>::terminates("ends-small", "-", "final values < 20", |_, s| s.2 < 20),
        ];
        if self.variant == 0 {
            v.push(Property::<Self>::always("fine", "-", "always", |_, _| true));
            v.push(Property::<Self>::sometimes(
                "never",
                "-",
                "never",
                |_, s| s.2 > 1000,
            ));
        }
        v
    }
}

/// What must agree: everything but time, memory and the visited set's size.
fn key(r: &CheckResult<Trees>) -> String {
    let mut s = r.stats.without_timings();
    s.visited_bytes = 0;
    s.bytes_per_state = 0.0;
    format!(
        "{:?} {:?} {} {} {:?}",
        r.properties, r.stop, r.complete, r.cycles_checked, s
    )
}

#[test]
fn independent_scenarios_give_the_level_synchronous_result() {
    for variant in [0, 1] {
        for roots in [1, 4, 9] {
            for first in [false, true] {
                let joint = Trees {
                    roots,
                    independent: false,
                    variant,
                };
                let forest = Trees {
                    independent: true,
                    ..joint
                };
                let want = joint
                    .checker()
                    .threads(1)
                    .stop_on_first_violation(first)
                    .run()
                    .unwrap();
                let mut bytes = None;
                for threads in [1, 2, 3] {
                    let got = forest
                        .checker()
                        .threads(threads)
                        .stop_on_first_violation(first)
                        .run()
                        .unwrap();
                    assert_eq!(key(&got), key(&want), "variant {variant} roots {roots}");
                    // A worker's buffers outlive its scenarios; what a scenario reports of its
                    // visited set does not depend on which ran before it on that worker.
                    let b = *bytes.get_or_insert(got.stats.visited_bytes);
                    assert_eq!(got.stats.visited_bytes, b, "{threads} threads");
                }
                for n in [1, 2, 3, 7] {
                    let parts = (0..n)
                        .map(|k| forest.checker().threads(2).shard(k, n).run_part().unwrap())
                        .rev()
                        .collect();
                    let merged = forest
                        .checker()
                        .stop_on_first_violation(first)
                        .merge(parts)
                        .unwrap();
                    assert_eq!(key(&merged), key(&want), "{n} shards");
                }
            }
        }
    }
    // The cases above include early stops, or they would test less than they claim.
    let m = Trees {
        roots: 9,
        independent: true,
        variant: 1,
    };
    assert_eq!(m.checker().run().unwrap().stop, StopReason::AllDecided);
}

#[test]
fn a_missing_or_repeated_shard_is_refused() {
    let m = Trees {
        roots: 6,
        independent: true,
        variant: 0,
    };
    let part = |k| m.checker().shard(k, 3).run_part().unwrap();
    assert!(m.checker().merge(vec![part(0), part(1)]).is_err());
    assert!(m.checker().merge(vec![part(0), part(1), part(1)]).is_err());
    assert!(m.checker().merge(vec![]).is_err());
    let joint = Trees {
        independent: false,
        ..m
    };
    assert!(joint.checker().run_part().is_err());
}

/// A plan made once and given to every shard deals the scenarios as each shard would on its
/// own, so the merge is the one run's result; a plan for another split, or parts dealt by
/// different plans, are refused.
#[test]
fn a_plan_made_once_deals_as_every_shard_would() {
    let m = Trees {
        roots: 9,
        independent: true,
        variant: 0,
    };
    let want = key(&m.checker().run().unwrap());
    let plan = m.checker().plan(3).unwrap();
    assert_eq!(plan.shard_of.len(), 9, "the distinct scenarios");
    let given: Vec<_> = (0..3)
        .map(|k| {
            m.checker()
                .shard(k, 3)
                .with_plan(plan.clone())
                .run_part()
                .unwrap()
        })
        .collect();
    let own: Vec<_> = (0..3)
        .map(|k| m.checker().shard(k, 3).run_part().unwrap())
        .collect();
    let dealt = |p: &Part| (p.shard, p.plan, p.estimated_states, p.summaries.clone());
    assert_eq!(
        given.iter().map(dealt).collect::<Vec<_>>(),
        own.iter().map(dealt).collect::<Vec<_>>()
    );
    assert_eq!(key(&m.checker().merge(given.clone()).unwrap()), want);
    let loads = plan.loads();
    assert_eq!(loads.len(), 3);
    assert!(given
        .iter()
        .all(|p| p.estimated_states == loads[p.shard.0 as usize]));
    // A plan for 3 shards does not split a run into 4, nor fits a model with other scenarios.
    assert!(m
        .checker()
        .shard(0, 4)
        .with_plan(plan.clone())
        .run_part()
        .is_err());
    let other = Trees { roots: 8, ..m };
    assert!(other
        .checker()
        .shard(0, 3)
        .with_plan(plan.clone())
        .run_part()
        .is_err());
    // Parts dealt by different plans: the same scenarios, dealt otherwise.
    let mut moved = plan.clone();
    let first = moved.shard_of[0];
    moved.shard_of[0] = (first + 1) % 3;
    let mixed = vec![
        given[0].clone(),
        given[1].clone(),
        m.checker().shard(2, 3).with_plan(moved).run_part().unwrap(),
    ];
    assert!(m.checker().merge(mixed).is_err());
}

#[test]
fn max_states_keeps_exactly_that_many_states_at_any_thread_count() {
    let m = Trees {
        roots: 9,
        independent: true,
        variant: 0,
    };
    let all = m.checker().run().unwrap().stats.states;
    for max in [1, 5, 40, 100, all - 1] {
        let one = m.checker().threads(1).max_states(max).run().unwrap();
        assert_eq!(one.stop, StopReason::MaxStates);
        assert_eq!(one.stats.states, max);
        for threads in [2, 3] {
            let r = m.checker().threads(threads).max_states(max).run().unwrap();
            assert_eq!(key(&r), key(&one));
        }
    }
    let r = m.checker().max_states(all).run().unwrap();
    assert_eq!(r.stop, StopReason::Exhausted);
}

/// Binary trees of depth 8, one per root, with a witness at depth 2 in the even roots only;
/// counts the transitions it is asked for.
struct Witness {
    made: std::sync::atomic::AtomicU64,
}

impl Model for Witness {
    type State = (u8, u8, u16);
    type Action = u16;

    fn init_states(&self) -> Vec<(u8, u8, u16)> {
        (0..6).map(|r| (r, 0, 0)).collect()
    }

    fn actions(&self, s: &(u8, u8, u16), out: &mut Vec<u16>) {
        if s.1 < 8 {
            out.extend([0, 1]);
        }
    }

    fn next_state(&self, &(r, d, v): &(u8, u8, u16), &a: &u16) -> Option<(u8, u8, u16)> {
        self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some((r, d + 1, v * 2 + a))
    }

    fn progress(&self, s: &(u8, u8, u16)) -> Option<u64> {
        Some(s.1.into())
    }

    fn independent_inits(&self) -> bool {
        true
    }

    fn tree_shaped(&self, init: &(u8, u8, u16)) -> bool {
        init.0 >= 3
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::<Self>::sometimes(
            "even-root-depth-2",
            "-",
            "an even root reaches depth 2",
            |_, s| s.0 % 2 == 0 && s.1 == 2,
        )]
    }
}

/// Settling (`settle_scenarios`) ends a scenario's search, breadth-first or depth-first, once
/// every property has a finding in it: each property is found in the same scenarios as by the
/// full search, with fewer transitions.
#[test]
fn settled_scenarios_find_each_property_in_the_same_scenarios() {
    let run = |settle: bool| {
        let m = Witness {
            made: Default::default(),
        };
        let r = m
            .checker()
            .threads(1)
            .settle_scenarios(settle)
            .run()
            .unwrap();
        let inits: Vec<usize> = r.found_in[0].iter().map(|f| f.init).collect();
        (inits, m.made.into_inner())
    };
    let (full, full_made) = run(false);
    let (settled, settled_made) = run(true);
    assert_eq!(full, vec![0, 2, 4]);
    assert_eq!(settled, full);
    assert!(
        settled_made < full_made,
        "{settled_made} transitions settled, {full_made} in full"
    );
}
