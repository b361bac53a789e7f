//! Which scenarios each shard explores, so that the shards of one run take about as long.
//!
//! Scenarios differ in size by orders of magnitude, and a bound's scenario table is a product
//! of choices, so taking them by position (every `n`-th) can give one shard ten times the mean
//! while another idles. Instead each scenario's size is estimated before anything is explored,
//! by Knuth's random probes ("Estimating the efficiency of backtrack programs", Math. Comp. 29,
//! 1975): walk from the scenario's initial state to a final state, choosing each step at
//! random, and add up the products of the branching factors met on the way; the mean over
//! probes is an unbiased estimate of the number of states of a tree (of paths, where paths
//! join). The scenarios are then dealt largest first, each to the shard with the least
//! estimated work so far (Graham's LPT rule, within 4/3 of the best split).
//!
//! Every shard computes the same plan on its own: the probes' random numbers come from the
//! scenario's fingerprint through [`crate::prng`], the arithmetic is on integers, and ties are
//! broken by position. So shards on different machines agree without talking, and the plan of
//! a bound does not change with a dependency update or the thread count.

use crate::ctx::catch;
use crate::error::CheckError;
use crate::fingerprint::fingerprint;
use crate::model::Model;
use crate::prng::Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Random probes per scenario in the first round. More probes narrow each estimate; the plan
/// needs the large scenarios told apart from the small, and its cost is paid by every shard.
pub const PROBES: u64 = 8;

/// Most walks a scenario gets in the second round, which spends [`SECOND`] walks per
/// scenario on the scenarios the first round found large, in proportion to their estimates:
/// the split's error is the large scenarios' error.
const MAX_SECOND: u64 = 65536;

/// Second-round walks per scenario, dealt to the large ones.
const SECOND: u64 = 256;

/// A scenario gets at most one second-round walk per this many estimated states.
const SMALL: u64 = 256;

/// Longest probe followed; a model whose scenario has cycles would otherwise walk forever.
const MAX_DEPTH: usize = 4096;

/// The sum of `probes` random walks from `init`: each walk adds, at every depth it reaches,
/// the product of the branching factors above it (Knuth's estimate of one walk).
fn walks<M: Model>(model: &M, init: &M::State, rng: &mut Rng, probes: u64) -> u64 {
    let mut actions = Vec::new();
    let mut total: u64 = 0;
    for _ in 0..probes {
        let mut state = init.clone();
        let (mut width, mut states) = (1u64, 1u64);
        for _ in 0..MAX_DEPTH {
            actions.clear();
            model.actions(&state, &mut actions);
            if actions.is_empty() {
                break;
            }
            width = width.saturating_mul(actions.len() as u64);
            let action = &actions[rng.below(actions.len())];
            if !model.next_state_in_place(&mut state, action) {
                break;
            }
            states = states.saturating_add(width);
        }
        total = total.saturating_add(states);
    }
    total
}

/// Knuth's estimate of the states reachable from `init`, from [`PROBES`] random walks seeded
/// by `fp`.
pub fn estimate<M: Model>(model: &M, init: &M::State, fp: u64) -> u64 {
    walks(model, init, &mut Rng::derive(fp, 0), PROBES) / PROBES
}

/// Knuth's estimate of the states reachable from `init` from one random walk seeded by `fp`:
/// rough (it can be off by a factor of several), but a few dozen steps, so that ordering a
/// run's scenarios by it costs next to nothing beside exploring them.
pub fn rough_estimate<M: Model>(model: &M, init: &M::State, fp: u64) -> u64 {
    walks(model, init, &mut Rng::derive(fp, 0), 1)
}

/// [`rough_estimate`] of each scenario (initial index, fingerprint, state), in parallel on the
/// current rayon pool.
pub fn rough_estimates<M: Model>(
    model: &M,
    scenarios: &[(u32, u64, M::State)],
) -> Result<Vec<u64>, CheckError> {
    each(scenarios, |init, fp| rough_estimate(model, init, fp))
}

/// `size` of each scenario, in parallel; a panic in model code is an error naming the scenario.
fn each<S: Sync>(
    scenarios: &[(u32, u64, S)],
    size: impl Fn(&S, u64) -> u64 + Sync,
) -> Result<Vec<u64>, CheckError> {
    scenarios
        .par_iter()
        .map(|(index, fp, init)| catch(|| Ok(size(init, *fp)), context(*index)))
        .collect()
}

/// Where a panic while estimating happened.
fn context(index: u32) -> impl FnOnce() -> String {
    move || format!("while estimating the size of the scenario of initial state #{index}")
}

/// Positions of `sizes`, largest first; equal sizes in position order.
pub fn largest_first(sizes: &[u64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&pos| Reverse(sizes[pos]));
    order
}

/// The estimated sizes of the scenarios (initial index, fingerprint, state), in parallel on the
/// current rayon pool: [`estimate`] for each, then a second round of walks for the large ones
/// ([`SECOND`]). A panic in model code is an error naming the scenario.
pub fn estimates<M: Model>(
    model: &M,
    scenarios: &[(u32, u64, M::State)],
) -> Result<Vec<u64>, CheckError> {
    let first = each(scenarios, |init, fp| estimate(model, init, fp))?;
    let total = first.iter().fold(0u128, |a, x| a + u128::from(*x)).max(1);
    let budget = u128::from(SECOND) * scenarios.len() as u128;
    scenarios
        .par_iter()
        .zip(&first)
        .map(|((index, fp, init), &est)| {
            // A walk costs a few dozen steps: a small scenario gets few, lest the probes cost
            // more than exploring it.
            let more = (budget * u128::from(est) / total)
                .min(u128::from(MAX_SECOND))
                .min(u128::from(est / SMALL)) as u64;
            if more == 0 {
                return Ok(est);
            }
            let sum = catch(
                || Ok(walks(model, init, &mut Rng::derive(*fp, 1), more)),
                context(*index),
            )?;
            let all = u128::from(est) * u128::from(PROBES) + u128::from(sum);
            Ok((all / u128::from(PROBES + more)) as u64)
        })
        .collect()
}

/// A run's scenarios dealt to its shards: made once ([`Plan::make`], or by each shard for
/// itself), it can be saved and given to every shard, which then spends nothing on probes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// The number of shards.
    pub shards: u32,
    /// Each distinct scenario's estimated states, in initial-state order.
    pub estimates: Vec<u64>,
    /// Each distinct scenario's shard (0-based), in the same order.
    pub shard_of: Vec<u32>,
    /// A digest of the distinct initial states' fingerprints: a plan fits only the run whose
    /// scenarios it was made from.
    pub scenarios: u64,
}

impl Plan {
    /// Estimates the sizes of `scenarios` (initial index, fingerprint, state: the distinct
    /// initial states in order) and deals them to `n` shards.
    pub(crate) fn make<M: Model>(
        model: &M,
        scenarios: &[(u32, u64, M::State)],
        n: u32,
    ) -> Result<Plan, CheckError> {
        let estimates = estimates(model, scenarios)?;
        Ok(Plan {
            shards: n,
            shard_of: assign(&estimates, n),
            estimates,
            scenarios: digest_of(scenarios),
        })
    }

    /// What identifies the split: the same for two plans that deal the same scenarios alike.
    pub fn digest(&self) -> u64 {
        fingerprint(&(self.shards, &self.shard_of, self.scenarios))
    }

    /// The estimated states of each shard.
    pub fn loads(&self) -> Vec<u64> {
        let mut load = vec![0u64; self.shards as usize];
        for (e, k) in self.estimates.iter().zip(&self.shard_of) {
            if let Some(l) = load.get_mut(*k as usize) {
                *l = l.saturating_add(*e);
            }
        }
        load
    }

    /// Checks that the plan deals exactly `scenarios` to `n` shards.
    pub(crate) fn fits<S>(&self, scenarios: &[(u32, u64, S)], n: u32) -> Result<(), CheckError> {
        let bad = |m: String| Err(CheckError::PartsMismatch(m));
        if self.shards != n {
            return bad(format!(
                "the shard plan is for {} shards, not {n}",
                self.shards
            ));
        }
        if self.scenarios != digest_of(scenarios)
            || self.shard_of.len() != scenarios.len()
            || self.estimates.len() != scenarios.len()
        {
            return bad("the shard plan was made for other scenarios".into());
        }
        if self.shard_of.iter().any(|&k| k >= n) {
            return bad(format!("the shard plan names a shard past {n}"));
        }
        Ok(())
    }
}

/// The digest of the scenarios' fingerprints, in order.
fn digest_of<S>(scenarios: &[(u32, u64, S)]) -> u64 {
    let fps: Vec<u64> = scenarios.iter().map(|s| s.1).collect();
    fingerprint(&fps)
}

/// The shard (0-based, below `n`) of each scenario, by the LPT rule over `sizes`: largest
/// first (ties: earlier position first), each to the least loaded shard (ties: lowest shard).
pub fn assign(sizes: &[u64], n: u32) -> Vec<u32> {
    let n = n.max(1);
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| (Reverse(sizes[i]), i));
    let mut loads: BinaryHeap<Reverse<(u64, u32)>> = (0..n).map(|k| Reverse((0, k))).collect();
    let mut shard = vec![0; sizes.len()];
    for i in order {
        let Reverse((load, k)) = loads.pop().expect("n >= 1 shards");
        shard[i] = k;
        // Every scenario costs something, even one estimated at 0 states.
        loads.push(Reverse((load.saturating_add(sizes[i].max(1)), k)));
    }
    shard
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Largest first, each to the least loaded: 6 | 2 2 1 1, then 1 to the tied lowest shard
    /// and the last 1 to the other, an even split of 14; position-wise it would be 10 against 4.
    #[test]
    fn the_largest_go_first_to_the_least_loaded() {
        let sizes = [1, 1, 6, 1, 1, 2, 2];
        let shard = assign(&sizes, 2);
        let load = |k| {
            (0..sizes.len())
                .filter(|&i| shard[i] == k)
                .map(|i| sizes[i])
                .sum::<u64>()
        };
        assert_eq!((load(0), load(1)), (7, 7));
        assert_eq!(shard[2], 0);
        assert_eq!(assign(&sizes, 2), shard, "the same plan every time");
        assert_eq!(assign(&[], 3), Vec::<u32>::new());
        assert!(assign(&[5, 0, 0], 1).iter().all(|&k| k == 0));
    }

    /// A complete binary tree of depth `d` has 2^(d+1) − 1 states, and every probe of it sees
    /// exactly that: the estimate is exact on a uniform tree.
    #[test]
    fn a_uniform_tree_is_estimated_exactly() {
        struct Binary(u8);
        impl Model for Binary {
            type State = (u8, u64);
            type Action = bool;
            fn init_states(&self) -> Vec<(u8, u64)> {
                vec![(0, 0)]
            }
            fn actions(&self, s: &(u8, u64), out: &mut Vec<bool>) {
                if s.0 < self.0 {
                    out.extend([false, true]);
                }
            }
            fn next_state(&self, s: &(u8, u64), a: &bool) -> Option<(u8, u64)> {
                Some((s.0 + 1, s.1 * 2 + u64::from(*a)))
            }
            fn properties(&self) -> Vec<crate::Property<Self>> {
                vec![]
            }
        }
        for d in 0..10 {
            assert_eq!(estimate(&Binary(d), &(0, 0), 7), (1 << (d + 1)) - 1);
            assert_eq!(rough_estimate(&Binary(d), &(0, 0), 7), (1 << (d + 1)) - 1);
        }
    }

    #[test]
    fn the_largest_are_taken_first_and_ties_in_position_order() {
        assert_eq!(largest_first(&[1, 5, 0, 5, 9]), vec![4, 1, 3, 0, 2]);
        assert_eq!(largest_first(&[]), Vec::<usize>::new());
    }
}
