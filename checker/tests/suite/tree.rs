//! Tree-shaped scenarios (`Model::tree_shaped`): the depth-first search gives exactly what the
//! breadth-first scenario search gives (every summary, so every result, shard and merge), at
//! every thread count, with and without folded forced steps; and a declaration the search can
//! catch out (progress missing or not increasing) is an error, not an endless run.

use checker::{CheckError, CheckResult, CheckerExt, Model, Property, SearchOrder, StopReason};

/// Trees, one per root, with forced steps (every depth `% 3 == 1`), an action that does not
/// apply, a run of forced steps longer than a link holds, and properties found at various
/// depths. Each state carries its path, so nothing is reached twice.
#[derive(Clone, Copy)]
struct Branches {
    roots: u8,
    /// Which property set: 0 some hold, 1 every property decided early.
    variant: u8,
    /// A false declaration the search can catch: 1 progress stands still on one transition,
    /// 2 one state has no progress value.
    lie: u8,
}

/// (root, depth, value, path).
type S = (u8, u16, u32, u64);

/// Root 7's forced run: longer than a link's 255 forced steps.
const LONG: u16 = 300;

impl Model for Branches {
    type State = S;
    type Action = u32;

    fn init_states(&self) -> Vec<S> {
        let mut v: Vec<S> = (0..self.roots).map(|r| (r, 0, u32::from(r), 0)).collect();
        // A repeated initial state: kept once.
        v.insert(2.min(v.len()), (0, 0, 0, 0));
        v
    }

    fn actions(&self, &(root, depth, _, _): &S, out: &mut Vec<u32>) {
        if root == 7 {
            if depth < LONG {
                out.push(0);
            }
            return;
        }
        let limit = 4 + u16::from(root % 4);
        if depth >= limit {
            return;
        }
        if depth % 3 == 1 {
            out.push(0);
        } else {
            out.extend(0..(2 + u32::from(root % 3)));
        }
    }

    fn next_state(&self, &(root, depth, value, path): &S, &a: &u32) -> Option<S> {
        if root == 5 && a == 1 && depth == 2 {
            return None;
        }
        let value = (value * 3 + a) % 23;
        Some((root, depth + 1, value, path * 5 + u64::from(a) + 1))
    }

    fn forced(&self, &(root, depth, _, _): &S) -> Option<u32> {
        let one = if root == 7 {
            depth < LONG
        } else {
            depth % 3 == 1 && depth < 4 + u16::from(root % 4)
        };
        one.then_some(0)
    }

    fn progress(&self, &(root, depth, value, _): &S) -> Option<u64> {
        match self.lie {
            1 if root == 3 && depth == 2 => Some(1),
            2 if root == 2 && depth == 3 && value % 2 == 0 => None,
            _ => Some(depth.into()),
        }
    }

    fn independent_inits(&self) -> bool {
        true
    }

    fn tree_shaped(&self, _init: &S) -> bool {
        true
    }

    fn properties(&self) -> Vec<Property<Self>> {
        let mut v = vec![
            Property::<Self>::always("not-17", "-", "value 17 never seen", |_, s| s.2 != 17),
            Property::<Self>::sometimes("deep-4", "-", "depth 4 reached", |_, s| s.1 == 4),
            Property::<Self>::terminates("ends-small", "-", "final values < 20", |_, s| s.2 < 20),
            Property::<Self>::terminates("ends-odd", "-", "final values odd", |_, s| s.2 % 2 == 1),
        ];
        if self.variant == 0 {
            v.push(Property::<Self>::always("fine", "-", "always", |_, _| true));
            v.push(Property::<Self>::sometimes(
                "never",
                "-",
                "never",
                |_, s| s.2 > 1000,
            ));
            v.push(Property::<Self>::always(
                "long-run",
                "-",
                "the forced run ends",
                |_, s| s.1 < LONG,
            ));
        }
        v
    }
}

/// What must agree: everything but time, memory, and what the breadth-first search stores.
fn key(r: &CheckResult<Branches>) -> String {
    let mut s = r.stats.without_timings();
    s.visited_bytes = 0;
    s.bytes_per_state = 0.0;
    s.states_stored = 0;
    format!(
        "{:?} {:?} {} {} {:?}",
        r.properties, r.stop, r.complete, r.cycles_checked, s
    )
}

#[test]
fn depth_first_gives_the_breadth_first_summaries_and_results() {
    for variant in [0, 1] {
        for roots in [1, 4, 9] {
            let m = Branches {
                roots,
                variant,
                lie: 0,
            };
            for collapse in [true, false] {
                // Every scenario's summary, findings below any cut included.
                let part = |order| {
                    let c = m.checker().threads(2).collapse_forced(collapse);
                    let mut p = c.search_order(order).run_part().unwrap();
                    for s in &mut p.summaries {
                        s.stored_per_depth.clear();
                        s.visited_bytes = 0;
                    }
                    (p.summaries, p.stop)
                };
                let bfs = part(SearchOrder::BreadthFirst);
                assert_eq!(
                    part(SearchOrder::Auto),
                    bfs,
                    "variant {variant} roots {roots}"
                );
                for first in [false, true] {
                    let run = |order, threads| {
                        m.checker()
                            .threads(threads)
                            .collapse_forced(collapse)
                            .stop_on_first_violation(first)
                            .search_order(order)
                            .run()
                            .unwrap()
                    };
                    let want = run(SearchOrder::BreadthFirst, 1);
                    assert!(want.stats.states_stored > 0);
                    for threads in [1, 2] {
                        let got = run(SearchOrder::Auto, threads);
                        // Nothing stored: the depth-first search ran.
                        assert_eq!(got.stats.states_stored, 0);
                        assert_eq!(key(&got), key(&want), "variant {variant} roots {roots}");
                    }
                    for n in [2, 3] {
                        let parts = (0..n)
                            .map(|k| m.checker().threads(2).shard(k, n).run_part().unwrap())
                            .collect();
                        let merged = m.checker().stop_on_first_violation(first);
                        let merged = merged.merge(parts).unwrap();
                        assert_eq!(key(&merged), key(&want), "{n} shards");
                    }
                }
            }
        }
    }
    // The runs above include early stops and failing final states, or they would test less
    // than they claim.
    let m = Branches {
        roots: 9,
        variant: 1,
        lie: 0,
    };
    let r = m.checker().run().unwrap();
    assert_eq!(r.stop, StopReason::AllDecided);
    assert!(r.outcome("ends-small").is_failure() && r.outcome("ends-odd").is_failure());
}

#[test]
fn max_states_keeps_the_breadth_first_prefix() {
    let m = Branches {
        roots: 9,
        variant: 0,
        lie: 0,
    };
    let all = m.checker().run().unwrap().stats.states;
    for max in [1, 5, 40, 100, 400, all - 1, all] {
        let bfs = m.checker().threads(1).max_states(max);
        let want = bfs.search_order(SearchOrder::BreadthFirst).run().unwrap();
        for threads in [1, 2] {
            let got = m.checker().threads(threads).max_states(max).run().unwrap();
            assert_eq!(got.stats.states, max);
            assert_eq!(key(&got), key(&want), "max {max}");
        }
    }
}

#[test]
fn progress_that_stands_still_or_is_missing_is_an_error() {
    for (lie, says) in [
        (1, "does not increase progress (1 to 1)"),
        (2, "no progress"),
    ] {
        let m = Branches {
            roots: 6,
            variant: 0,
            lie,
        };
        for threads in [1, 2] {
            match m.checker().threads(threads).run() {
                Err(e @ CheckError::NotTreeShaped { .. }) => {
                    assert!(e.to_string().contains(says), "{e}")
                }
                other => panic!("lie {lie}: {:?}", other.map(|r| r.stop)),
            }
        }
        // The breadth-first search does not need it.
        let c = m.checker().search_order(SearchOrder::BreadthFirst);
        assert!(c.run().is_ok());
    }
}
