//! One level of the search: its three parallel phases (expand, merge, collect; see the parent
//! module) and what the search books between them.
//!
//! Each phase hands the next its results in canonical order, and each decision taken here
//! (first finding, first error, winner of a fingerprint) is taken in that order.

use super::expand::{Cancel, Expanded, Expander, LOOKAHEAD};
use super::frontier::{present, Frontier, Part};
use super::{catch, Ctx, Finding, Search};
use crate::error::CheckError;
use crate::model::{Expectation, Model};
use crate::visited::{Shard, StateRef, VisitedSet};
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One chunk's new states and its first hit for each checked state property.
type Collected<S> = (Part<S>, Vec<Option<StateRef>>);

/// One chunk's expansion as phase 1 returns it: `None` if the memory budget stopped it.
type Expansion<S> = Result<Option<Expanded<S>>, CheckError>;

impl<M: Model> Search<'_, M> {
    /// Expands the frontier at `depth` and returns the next one; `None` if the memory budget was
    /// exceeded, in which case nothing of this level is kept.
    pub(super) fn level(
        &mut self,
        mut frontier: Frontier<M::State>,
        depth: usize,
    ) -> Result<Option<Frontier<M::State>>, CheckError> {
        let terminates = self.undecided(&[Expectation::Terminates]);
        let check_progress = !terminates.is_empty();
        // Only phase 3 decides these, so the set is the same in phases 1 and 3.
        let active = self.undecided(&[Expectation::Always, Expectation::Sometimes]);
        let eager = self.eager && !active.is_empty() && active.len() <= 64;
        let frontier_len = frontier.len();

        let eager_active = eager.then_some(&active[..]);
        let results = self.expand_all(
            &mut frontier,
            depth,
            &terminates,
            check_progress,
            eager_active,
        );
        self.recycle(frontier, &results);
        let Some(expanded) = gather(results)? else {
            return Ok(None);
        };
        self.tally(&expanded, &terminates, check_progress);

        let states_before = self.visited.len();
        let old_hits = self.merge(&expanded)?;
        self.adapt(&expanded, old_hits, states_before, frontier_len);

        let parts = self.collect(expanded, &active, eager, depth)?;
        for (k, &p) in active.iter().enumerate() {
            self.findings[p] = parts
                .iter()
                .find_map(|(_, found)| found[k])
                .map(Finding::State);
        }
        let mut next = Frontier::new();
        for (f, _) in parts {
            next.push_part(f);
        }
        Ok(Some(next))
    }

    /// Phase 1: expands the frontier chunk by chunk in parallel, returning the chunks'
    /// expansions in canonical order. A chunk that fails stops the chunks after it (see
    /// [`Cancel`]); `eager` holds the state properties to check on each successor, if any.
    fn expand_all(
        &self,
        frontier: &mut Frontier<M::State>,
        depth: usize,
        terminates: &[usize],
        check_progress: bool,
        eager: Option<&[usize]>,
    ) -> Vec<Expansion<M::State>> {
        let chunk = (frontier.len() / (self.threads * 8)).clamp(64, 4096);
        let expander = Expander {
            ctx: self.ctx(),
            visited: &self.visited,
            terminates,
            check_progress,
            prefilter: self.prefilter,
            branching: self.branching,
            cancel: Cancel {
                budget: &self.budget,
                failed: AtomicUsize::new(usize::MAX),
            },
            spare: &self.spare,
            eager: eager.map(|active| (active, depth)),
        };
        let expander = &expander;
        frontier
            .chunks(chunk)
            .into_par_iter()
            .enumerate()
            .map_init(Vec::new, |actions, (index, part)| {
                let result = catch(
                    || expander.expand(index, part, actions),
                    || format!("while expanding a state at depth {depth} into its successors"),
                );
                if result.is_err() {
                    expander.cancel.fail(index);
                }
                result
            })
            .collect()
    }

    /// Frees the expanded level's states and keeps their buffers for the next expansion, freeing
    /// those this one left unused: freeing a level's states is a large part of the work of a
    /// level, so it is done in parallel.
    fn recycle(&mut self, frontier: Frontier<M::State>, results: &[Expansion<M::State>]) {
        self.spare.clear();
        // Every state of a fully expanded level was moved into a successor or dropped there.
        let emptied = results.iter().all(|r| matches!(r, Ok(Some(_))));
        let spare = &self.spare;
        frontier.parts.into_par_iter().for_each(|p| {
            if emptied {
                spare.put_emptied(p.states)
            } else {
                spare.put(p.states)
            }
        });
    }

    /// Books what phase 1 found besides successors: the transitions, whether progress was
    /// missing or not checked, and each undecided `Terminates` property's first failing final
    /// state or, failing that, first cycle edge.
    fn tally(
        &mut self,
        expanded: &[Expanded<M::State>],
        terminates: &[usize],
        check_progress: bool,
    ) {
        self.progress_skipped |= !check_progress;
        for e in expanded {
            self.transitions += e.transitions;
            self.progress_missing |= e.progress_missing;
        }
        // A failing final state at this depth is shorter than a cycle edge out of it.
        let cycle = expanded.iter().find_map(|e| e.cycle);
        for (k, &p) in terminates.iter().enumerate() {
            let final_state = expanded
                .iter()
                .find_map(|e| e.final_fail[k])
                .map(Finding::State);
            self.findings[p] = final_state.or(cycle);
        }
    }

    /// Phase 2: inserts the candidates into the visited set, one shard per task, setting each
    /// winner's reference in `Expanded::won`; returns how many candidates were states of an
    /// earlier level (back edges the prefilter did not drop).
    fn merge(&mut self, expanded: &[Expanded<M::State>]) -> Result<u64, CheckError> {
        self.visited
            .shards_mut()
            .map(|(k, shard)| merge_shard(k, shard, expanded))
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }

    /// Adapts the next level's strategies to this one's counts: the prefilter, eager checking
    /// and the expected successors per state.
    fn adapt(
        &mut self,
        expanded: &[Expanded<M::State>],
        old_hits: u64,
        states_before: usize,
        frontier_len: usize,
    ) {
        // Prefilter the next level only if this one had many edges back to earlier levels.
        let generated: u64 = expanded.iter().map(|e| e.generated).sum();
        let back_edges: u64 = old_hits + expanded.iter().map(|e| e.rejected).sum::<u64>();
        self.prefilter = back_edges * 4 > generated;
        // Eager checking wastes the checks of successors that are not new.
        let winners = (self.visited.len() - states_before) as u64;
        self.eager = winners * 2 >= generated;
        self.branching = (generated as f64 / frontier_len.max(1) as f64).min(64.0);
    }

    /// Phase 3: collects each chunk's winners, in parallel, with the first winner on which each
    /// `active` state property hits (checked here unless phase 1 did, `eager`).
    fn collect(
        &self,
        expanded: Vec<Expanded<M::State>>,
        active: &[usize],
        eager: bool,
        depth: usize,
    ) -> Result<Vec<Collected<M::State>>, CheckError> {
        let parts: Vec<Result<Collected<M::State>, CheckError>> = {
            let ctx = &self.ctx();
            expanded
                .into_par_iter()
                .map(|e| {
                    catch(
                        move || Ok(collect_chunk(ctx, e, active, eager)),
                        || {
                            format!(
                                "while checking a property on a state at depth {}",
                                depth + 1
                            )
                        },
                    )
                })
                .collect()
        };
        // Sequentially, so that the error reported is the first in canonical order.
        parts.into_iter().collect()
    }
}

/// The chunks' expansions in canonical order, or `None` if the memory budget stopped one. An
/// error (the first in canonical order) outranks a memory stop: it is a bug to report.
fn gather<S>(results: Vec<Expansion<S>>) -> Result<Option<Vec<Expanded<S>>>, CheckError> {
    let mut expanded = Vec::with_capacity(results.len());
    let mut abandoned = false;
    for result in results {
        match result? {
            Some(e) => expanded.push(e),
            None => abandoned = true,
        }
    }
    Ok((!abandoned).then_some(expanded))
}

/// Inserts shard `k`'s candidates chunk by chunk, i.e. in canonical order, so that the first
/// candidate to reach a fingerprint wins, as a sequential search would decide; returns how many
/// candidates were states of an earlier level.
#[inline]
fn merge_shard<S>(
    k: usize,
    shard: &mut Shard,
    expanded: &[Expanded<S>],
) -> Result<u64, CheckError> {
    let before = shard.len();
    let mut old_hits = 0;
    for e in expanded {
        let keys = &e.keys[e.offsets[k] as usize..e.offsets[k + 1] as usize];
        for (n, key) in keys.iter().enumerate() {
            if let Some(ahead) = keys.get(n + LOOKAHEAD) {
                shard.prefetch(ahead.h);
            }
            let parent = StateRef::from_raw(key.parent);
            let (local, new) = shard.insert_spread(key.fp, key.h, parent, key.action)?;
            if new {
                let r = VisitedSet::make_ref(k, local);
                e.won[key.index as usize].store(r.to_raw(), Ordering::Relaxed);
            } else if (local as usize) < before {
                old_hits += 1;
            }
        }
    }
    Ok(old_hits)
}

/// Turns one chunk's expansion into its part of the next frontier: the winners of the merge,
/// kept in place, with their references, and the first winner on which each `active` state
/// property hits.
#[inline]
fn collect_chunk<M: Model>(
    ctx: &Ctx<'_, M>,
    e: Expanded<M::State>,
    active: &[usize],
    eager: bool,
) -> Collected<M::State> {
    let mut found = vec![None; active.len()];
    let won: Vec<Option<StateRef>> = e
        .won
        .into_iter()
        .map(|w| StateRef::from_raw(w.into_inner()))
        .collect();
    let mut states = e.states;
    // Keep the winners in place: only states after a duplicate move.
    if won.iter().any(Option::is_none) {
        let mut keep = won.iter();
        states.retain(|_| keep.next().is_some_and(Option::is_some));
    }
    if eager {
        for (w, bits) in won.iter().zip(&e.hits) {
            let Some(r) = w else { continue };
            for (k, slot) in found.iter_mut().enumerate() {
                if slot.is_none() && bits & (1 << k) != 0 {
                    *slot = Some(*r);
                }
            }
        }
    }
    let refs: Vec<StateRef> = won.into_iter().flatten().collect();
    if !eager {
        for (state, &r) in states.iter().zip(&refs) {
            ctx.check_state(active, present(state), r, &mut found);
        }
    }
    (Part { states, refs }, found)
}
