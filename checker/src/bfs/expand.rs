//! Phase 1 of a level: expanding one chunk of the frontier into keyed successors.
//!
//! Each worker computes the successors of its chunk's states in canonical order (frontier
//! position, then action index), moving each state into its last successor, checks final
//! states and progress, optionally drops successors visited in earlier levels (the prefilter)
//! and checks the state properties while a successor is in cache (eager checking), then buckets
//! the successors' keys by visited-set shard for the merge.

use super::frontier::{present, Chunk, Spare};
use super::{catch, Ctx, Finding};
use crate::error::CheckError;
use crate::memory::{Budget, POLL_EVERY};
use crate::model::Model;
use crate::visited::{shard_of_spread, spread, StateRef, VisitedSet, SHARDS};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};

/// What makes the workers of one level stop early, polled every [`POLL_EVERY`] units of work.
pub(super) struct Cancel<'a> {
    /// The run's memory budget, shared by all workers.
    pub(super) budget: &'a Budget,
    /// Lowest index of a chunk that failed (error or panic), `usize::MAX` if none. Only later
    /// chunks stop, so that the first failure in canonical order is always found.
    pub(super) failed: AtomicUsize,
}

impl Cancel<'_> {
    /// Whether chunk `index` should give up.
    #[cold]
    fn poll(&self, index: usize) -> bool {
        self.failed.load(Ordering::Relaxed) < index || self.budget.exceeded()
    }

    /// Records that chunk `index` failed, so that the chunks after it stop.
    pub(super) fn fail(&self, index: usize) {
        self.failed.fetch_min(index, Ordering::Relaxed);
    }
}

/// How many keys ahead of a lookup to prefetch its slot.
pub(super) const LOOKAHEAD: usize = 8;

/// What the merge needs of a candidate successor. Kept apart from the state so that a shard's
/// keys are contiguous and small: the merge then streams through them instead of missing the
/// cache on every (possibly large) candidate.
#[derive(Clone, Copy, Default)]
pub(super) struct Key {
    /// The candidate's fingerprint.
    pub(super) fp: u64,
    /// `spread(fp)`, computed once.
    pub(super) h: u64,
    /// The raw reference of the state it was made from.
    pub(super) parent: u32,
    /// The index of the action that made it.
    pub(super) action: u32,
    /// Position of the candidate's state in `Expanded::states`.
    pub(super) index: u32,
}

/// One chunk's expansion.
pub(super) struct Expanded<S> {
    /// Successors not visited before this level, in canonical order (all present).
    pub(super) states: Vec<Option<S>>,
    /// Their keys, grouped by shard, in canonical order within each shard.
    pub(super) keys: Vec<Key>,
    /// `keys[offsets[k]..offsets[k + 1]]` belong to shard `k`.
    pub(super) offsets: [u32; SHARDS + 1],
    /// Set by the merge, per state: its new reference, or `StateRef::NONE` for a duplicate.
    pub(super) won: Vec<AtomicU32>,
    /// With eager checking, per state: bit `k` set if the `k`-th active state property hit on it
    /// (failed for `Always`, held for `Sometimes`). Empty otherwise.
    pub(super) hits: Vec<u64>,
    /// Successors made, duplicates included.
    pub(super) transitions: u64,
    /// Successors generated (before the prefilter).
    pub(super) generated: u64,
    /// Successors the prefilter found visited in an earlier level.
    pub(super) rejected: u64,
    /// First final state failing each checked `Terminates` property.
    pub(super) final_fail: Vec<Option<StateRef>>,
    /// First transition that does not increase progress.
    pub(super) cycle: Option<Finding>,
    /// Whether some state had no progress value.
    pub(super) progress_missing: bool,
}

/// What every worker of phase 1 reads: the search's context and this level's settings, built
/// once per level so that each chunk's expansion needs only its own inputs.
pub(super) struct Expander<'a, M: Model> {
    /// The model, its properties and the fingerprint.
    pub(super) ctx: Ctx<'a, M>,
    /// States of earlier levels, read by the prefilter only.
    pub(super) visited: &'a VisitedSet,
    /// The undecided `Terminates` properties, checked on final states.
    pub(super) terminates: &'a [usize],
    /// Whether some `Terminates` property is undecided, so that progress must be compared
    /// across every transition.
    pub(super) check_progress: bool,
    /// Whether to drop successors visited in earlier levels (see [`Expander::drop_visited`]).
    pub(super) prefilter: bool,
    /// Successors per state in the last level, to size the buffers.
    pub(super) branching: f64,
    /// What stops the workers early.
    pub(super) cancel: Cancel<'a>,
    /// Buffers to fill with successors.
    pub(super) spare: &'a Spare<Option<M::State>>,
    /// With eager checking: the active state properties and the depth being expanded.
    pub(super) eager: Option<(&'a [usize], usize)>,
}

/// What one chunk's expansion has found so far besides the successors themselves, gathered in
/// one place so that the steps of an expansion can share it.
struct Growing {
    /// The successors' keys in canonical order, before they are bucketed by shard.
    unsorted: Vec<Key>,
    /// As in [`Expanded`], before the prefilter.
    hits: Vec<u64>,
    /// As in [`Expanded`].
    transitions: u64,
    /// As in [`Expanded`].
    final_fail: Vec<Option<StateRef>>,
    /// As in [`Expanded`].
    cycle: Option<Finding>,
    /// As in [`Expanded`].
    progress_missing: bool,
    /// Counts states and successors since the last poll: successors are what fill memory, and
    /// a state's actions can be many.
    work: u32,
}

impl<M: Model> Expander<'_, M> {
    /// Expands chunk `index` of the frontier (phase 1); `None` if `cancel` stopped it.
    pub(super) fn expand(
        &self,
        index: usize,
        chunk: Chunk<'_, M::State>,
        actions: &mut Vec<M::Action>,
    ) -> Result<Option<Expanded<M::State>>, CheckError> {
        // Sized from the previous level's successors per state: growing the vector would copy
        // every (possibly large) state already in it.
        let chunk_len: usize = chunk.iter().map(|(s, _)| s.len()).sum();
        let expected = (chunk_len as f64 * self.branching * 1.1) as usize + 16;
        let mut states = self.spare.take(expected);
        let mut out = Growing {
            unsorted: Vec::with_capacity(expected),
            hits: Vec::with_capacity(if self.eager.is_some() { expected } else { 0 }),
            transitions: 0,
            final_fail: vec![None; self.terminates.len()],
            cycle: None,
            progress_missing: false,
            work: 0,
        };
        let pieces = chunk
            .into_iter()
            .flat_map(|(s, r)| s.iter_mut().zip(r.iter()));
        for (slot, r) in pieces {
            if !self.expand_state(index, slot, *r, &mut states, &mut out, actions)? {
                return Ok(None);
            }
        }

        let generated = states.len() as u64;
        if self.prefilter {
            self.drop_visited(&mut states, &mut out.unsorted, &mut out.hits);
        }
        let rejected = generated - states.len() as u64;
        let (keys, offsets) = by_shard(out.unsorted);
        let won = (0..states.len())
            .map(|_| AtomicU32::new(StateRef::NONE))
            .collect();
        Ok(Some(Expanded {
            states,
            keys,
            offsets,
            won,
            hits: out.hits,
            transitions: out.transitions,
            generated,
            rejected,
            final_fail: out.final_fail,
            cycle: out.cycle,
            progress_missing: out.progress_missing,
        }))
    }

    /// Makes the successors of the frontier state in `slot` (reference `r`) in action order,
    /// pushing them to `states`, and checks the state as a final state if it has none: the
    /// body of a chunk's loop, apart so that the chunk's set-up and finish read as steps.
    /// `false` if the chunk must stop.
    #[inline]
    fn expand_state(
        &self,
        index: usize,
        slot: &mut Option<M::State>,
        r: StateRef,
        states: &mut Vec<Option<M::State>>,
        out: &mut Growing,
        actions: &mut Vec<M::Action>,
    ) -> Result<bool, CheckError> {
        let model = self.ctx.model;
        let state = present(slot);
        if self.tick(&mut out.work, index) {
            return Ok(false);
        }
        actions.clear();
        model.actions(state, actions);
        if actions.len() > u32::MAX as usize {
            return Err(CheckError::TooManyActions);
        }
        let before = if self.check_progress {
            model.progress(state)
        } else {
            None
        };
        out.progress_missing |= self.check_progress && before.is_none();
        let mut enabled = false;
        let last = actions.len().wrapping_sub(1);
        for (a, action) in actions.iter().enumerate() {
            if self.tick(&mut out.work, index) {
                return Ok(false);
            }
            let at = u32::try_from(states.len()).map_err(|_| CheckError::TooManyActions)?;
            if a == last {
                // Nothing reads a state after its last successor is made, so that successor is
                // made from the state itself, in the place it will keep (see
                // `Model::next_state_in_place`): a state is large, and each move copies it.
                states.push(slot.take());
                let made = states.last_mut().and_then(Option::as_mut).expect("present");
                if !model.next_state_in_place_of_enabled(made, action) {
                    *slot = states.pop().flatten();
                    continue;
                }
            } else {
                let Some(next) = model.next_state_of_enabled(present(slot), action) else {
                    continue;
                };
                states.push(Some(next));
            }
            let next = states.last().and_then(Option::as_ref).expect("just made");
            enabled = true;
            self.record(next, r, a as u32, at, before, out)?;
        }
        if !enabled {
            // No successor was made, so the state was given back (or there was no action).
            self.check_final(present(slot), r, &mut out.final_fail);
        }
        // Done with it: every slot of a finished chunk is empty (see `Spare::put_emptied`).
        drop(slot.take());
        Ok(true)
    }

    /// Counts a unit of work (a state or a successor) and, every [`POLL_EVERY`], asks whether
    /// chunk `index` must stop: polling on every unit would cost an atomic load each.
    #[inline]
    fn tick(&self, work: &mut u32, index: usize) -> bool {
        *work += 1;
        if *work >= POLL_EVERY {
            *work = 0;
            return self.cancel.poll(index);
        }
        false
    }

    /// Books the successor `next`, made by action `a` from `r` and kept at position `at` of the
    /// chunk's states: counts the transition, remembers the first one that does not increase
    /// progress, keys it for the merge and, with eager checking, checks the state properties on
    /// it while it is still in cache (see `Search::eager`).
    #[inline]
    fn record(
        &self,
        next: &M::State,
        r: StateRef,
        a: u32,
        at: u32,
        before: Option<u64>,
        out: &mut Growing,
    ) -> Result<(), CheckError> {
        out.transitions += 1;
        let fp = self.ctx.fp(next);
        if let (Some(b), None) = (before, out.cycle) {
            if self
                .ctx
                .model
                .progress(next)
                .is_some_and(|after| after <= b)
            {
                out.cycle = Some(Finding::Edge {
                    from: r,
                    action: a,
                    fp,
                });
            }
        }
        out.unsorted.push(Key {
            fp,
            h: spread(fp),
            parent: r.to_raw(),
            action: a,
            index: at,
        });
        if let Some((active, depth)) = self.eager {
            out.hits.push(catch(
                || Ok(self.ctx.hits(active, next)),
                || {
                    format!(
                        "while checking a property on a state at depth {}",
                        depth + 1
                    )
                },
            )?);
        }
        Ok(())
    }

    /// Checks the undecided `Terminates` properties on `state`, which has no successor,
    /// remembering the first failure of each.
    #[inline]
    fn check_final(&self, state: &M::State, r: StateRef, final_fail: &mut [Option<StateRef>]) {
        for (fail, &p) in final_fail.iter_mut().zip(self.terminates) {
            if fail.is_none() && !(self.ctx.props[p].condition)(self.ctx.model, state) {
                *fail = Some(r);
            }
        }
    }

    /// The prefilter: drops the successors already visited in earlier levels, with their keys
    /// and hits, keeping the order of the rest. Done here rather than in the merge, it saves
    /// memory and merge work when many edges go back to old states (and costs a lookup per edge
    /// when few do).
    #[inline]
    fn drop_visited(
        &self,
        states: &mut Vec<Option<M::State>>,
        unsorted: &mut Vec<Key>,
        hits: &mut Vec<u64>,
    ) {
        // A stable in-place compaction, prefetching a few keys ahead.
        let mut kept = 0;
        let mut keep = Vec::with_capacity(unsorted.len());
        for i in 0..unsorted.len() {
            if let Some(k) = unsorted.get(i + LOOKAHEAD) {
                self.visited.prefetch(k.h);
            }
            let key = unsorted[i];
            let new = self.visited.get_spread(key.fp, key.h).is_none();
            keep.push(new);
            if new && !hits.is_empty() {
                hits[kept] = hits[i];
            }
            if new {
                unsorted[kept] = Key {
                    index: kept as u32,
                    ..key
                };
                kept += 1;
            }
        }
        unsorted.truncate(kept);
        hits.truncate(kept);
        // States are large: each kept one moves at most once, and only after a dropped one.
        if kept < keep.len() {
            let mut keep = keep.into_iter();
            states.retain(|_| keep.next() == Some(true));
        }
    }
}

/// Buckets `unsorted` by shard with a stable counting sort, so that each shard's merge reads
/// its candidates contiguously and still in canonical order; also returns where each shard's
/// keys begin.
#[inline]
fn by_shard(unsorted: Vec<Key>) -> (Vec<Key>, [u32; SHARDS + 1]) {
    let mut offsets = [0u32; SHARDS + 1];
    for k in &unsorted {
        offsets[shard_of_spread(k.h) + 1] += 1;
    }
    for k in 0..SHARDS {
        offsets[k + 1] += offsets[k];
    }
    let mut next = offsets;
    let mut keys = vec![Key::default(); unsorted.len()];
    for k in unsorted {
        let s = shard_of_spread(k.h);
        keys[next[s] as usize] = k;
        next[s] += 1;
    }
    (keys, offsets)
}
