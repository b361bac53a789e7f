//! The depth-first search of one scenario of a tree-shaped model ([`Model::tree_shaped`]): no
//! visited set and no frontier, only the states of the current path, yet exactly the
//! [`Summary`] the breadth-first scenario search ([`super::scenario`]) hands back.
//!
//! Why they agree: in a tree every state is reached by one path only, so the breadth-first
//! canonical order within a depth (the parent's position, then the action index) is the
//! lexicographic order of the action indices from the initial state, and that is the order in
//! which a depth-first search in action order meets that depth's states (preorder). So, per
//! property, the first finding at the shallowest level is the same state: this search keeps
//! the shallowest finding met so far and replaces it only by a strictly shallower one. The
//! counts per depth are sums, which do not depend on the order.
//!
//! What it can check, it checks: a state without a progress value, or a transition that does
//! not increase it, is an error ([`CheckError::NotTreeShaped`]), so a false declaration that
//! hides a cycle cannot make the search run forever. (The breadth-first search would report
//! such a transition as a possible cycle; here the declaration said there is none.) A false
//! declaration that hides two paths meeting without a cycle is not detected: the shared states
//! are counted once per path.
//!
//! Forced steps (`Model::forced`) are folded into paths with the same [`Link`]s as the
//! breadth-first search, so paths, traces and part files agree. Nothing is stored, so
//! `stored_per_depth` is all zeros and `visited_bytes` 0. A path's fingerprints are computed
//! only when a finding is kept: from the path's states, and for a state already moved into its
//! last successor, by replaying the path's actions from the nearest state still held
//! ([`Model::replay_state`], which a model does not count). Hashing every state about to be
//! moved instead costs a tenth of the search, for the few paths a finding keeps. The search
//! takes each transition exactly once, as the breadth-first search does (a model may count
//! them, as coverage does).

use super::forced::Link;
use super::scenario::Halt;
use super::{Found, Summary};
use crate::ctx::Ctx;
use crate::error::CheckError;
use crate::memory::POLL_EVERY;
use crate::model::{Expectation, Model};
use crate::trace::Hop;

/// One state of the current path and where its expansion is.
struct Frame<M: Model> {
    /// Where its state is in [`Walk::states`], until it is moved into its last successor.
    slot: Option<usize>,
    /// Its actions (the forced one alone, for a forced state).
    actions: Vec<M::Action>,
    /// The index of the next action to take.
    next: usize,
    /// Successors made so far.
    made: u64,
    /// Its progress value.
    progress: u64,
    /// How it is reached from the last state before it that the breadth-first search stores.
    link: Link,
    /// Whether the breadth-first search stores it (it is not a folded forced state).
    stored: bool,
    /// Its fingerprint, once a finding's path has needed it.
    fp: Option<u64>,
}

/// The search's mutable part: the path, the counts and the findings so far.
struct Walk<M: Model> {
    /// The initial state, kept to rebuild a path's states once they are moved on.
    root: M::State,
    stack: Vec<Frame<M>>,
    /// The path's states, each frame's at its slot: a successor is made in a slot of its own
    /// (copied from its parent, then stepped in place) and never moved, since moving a state
    /// of several hundred bytes, into the path and out, cost as much as a step's copy.
    states: Vec<M::State>,
    /// Slots of `states` no frame holds, for reuse.
    free: Vec<usize>,
    /// Action lists of popped frames, for reuse.
    spare: Vec<Vec<M::Action>>,
    summary: Summary,
    best: Vec<Option<Found>>,
    visited: u64,
    work: u32,
    unreported: u64,
}

/// One scenario's depth-first search; the same fields as the breadth-first
/// `ScenarioSearch`, and the same meaning.
pub(super) struct TreeSearch<'a, M: Model> {
    pub(super) ctx: Ctx<'a, M>,
    /// Stop before visiting a state past this many; the summary is then marked incomplete.
    pub(super) cap: Option<u64>,
    /// Whether forced states are folded (`Model::forced`), as in the breadth-first search.
    pub(super) collapse: bool,
    /// Whether the search ends once every property has a finding (not the shallowest then).
    pub(super) settle: bool,
    /// Asked every [`POLL_EVERY`] units of work: whether to give up.
    pub(super) cancelled: &'a (dyn Fn() -> bool + Sync),
    /// Called with the number of states visited since the last call, for progress reports.
    pub(super) tally: &'a (dyn Fn(u64) + Sync),
}

impl<M: Model> TreeSearch<'_, M> {
    /// Explores every state reachable from `init` (the `index`-th initial state, fingerprint
    /// `fp`) depth-first in action order, or up to the cap.
    pub(super) fn run(&self, index: u32, fp: u64, init: M::State) -> Result<Summary, Halt> {
        let mut walk = Walk {
            root: init.clone(),
            stack: vec![],
            states: vec![init],
            free: vec![],
            spare: vec![],
            summary: Summary {
                init: index,
                init_fp: fp,
                states_per_depth: vec![],
                stored_per_depth: vec![],
                transitions_per_level: vec![],
                findings: vec![],
                progress_missing_at: None,
                visited_bytes: 0,
                complete: true,
            },
            best: vec![None; self.ctx.props.len()],
            visited: 0,
            work: 0,
            unreported: 0,
        };
        self.enter(&mut walk, 0, None)?;
        while let Some(top) = walk.stack.last_mut() {
            if top.next == top.actions.len() {
                self.leave(&mut walk)?;
                continue;
            }
            let a = top.next;
            top.next += 1;
            let via = u32::try_from(a).map_err(|_| CheckError::TooManyActions)?;
            let model = self.ctx.model;
            let (states, free) = (&mut walk.states, &mut walk.free);
            let succ = if top.next == top.actions.len() {
                let slot = top.slot.take().expect("present until its last successor");
                if model.next_state_in_place_of_enabled(&mut states[slot], &top.actions[a]) {
                    Some(slot)
                } else {
                    top.slot = Some(slot);
                    None
                }
            } else {
                let from = top.slot.expect("present");
                let slot = copy_into(states, free, from);
                if model.next_state_in_place_of_enabled(&mut states[slot], &top.actions[a]) {
                    Some(slot)
                } else {
                    free.push(slot);
                    None
                }
            };
            self.tick(&mut walk.work)?;
            let Some(succ) = succ else { continue };
            top.made += 1;
            let link = if top.stored {
                Link::new(via).ok_or(CheckError::TooManyActions)?
            } else {
                // An unstored state is forced, and its link had room for one more step.
                top.link
                    .then_forced()
                    .expect("room left for one more forced step")
            };
            let from = (top.progress, via, link);
            if self.cap.is_some_and(|cap| walk.visited >= cap) {
                walk.summary.complete = false;
                break;
            }
            self.enter(&mut walk, succ, Some(from))?;
            if self.settle && walk.best.iter().all(Option::is_some) {
                break;
            }
        }
        (self.tally)(walk.visited - walk.unreported);
        let mut summary = walk.summary;
        summary.stored_per_depth = vec![0; summary.states_per_depth.len()];
        summary.findings = walk.best;
        Ok(summary)
    }

    /// Visits the state in `slot`, made from the top of the path by `from` = (the parent's
    /// progress, the action's index, the link), or the initial state (`None`): counts it,
    /// checks progress and the state properties, lists its actions and pushes it on the path.
    fn enter(
        &self,
        walk: &mut Walk<M>,
        slot: usize,
        from: Option<(u64, u32, Link)>,
    ) -> Result<(), Halt> {
        let (model, depth) = (self.ctx.model, walk.stack.len());
        let progress = self.progress_of(walk, &walk.states[slot], from)?;
        walk.visited += 1;
        if walk.visited >= walk.unreported + 4096 {
            (self.tally)(walk.visited - walk.unreported);
            walk.unreported = walk.visited;
        }
        let summary = &mut walk.summary;
        if summary.states_per_depth.len() == depth {
            summary.states_per_depth.push(0);
            summary.transitions_per_level.push(0);
        }
        summary.states_per_depth[depth] += 1;
        let link = from.map_or(Link::ROOT, |(_, _, link)| link);
        // The initial state is always stored; past it, as the breadth-first search decides.
        let state = &walk.states[slot];
        let forced = if from.is_some() && self.collapse && link.forced() < Link::MAX_FORCED {
            model.forced(state)
        } else {
            None
        };
        let mut actions = walk.spare.pop().unwrap_or_default();
        actions.clear();
        let stored = forced.is_none();
        match forced {
            Some(a) => actions.push(a),
            None => model.actions(state, &mut actions),
        }
        walk.stack.push(Frame {
            slot: Some(slot),
            actions,
            next: 0,
            made: 0,
            progress,
            link,
            stored,
            fp: None,
        });
        let (props, level) = (self.ctx.props, depth as u32);
        let state = &walk.states[slot];
        // Evaluated together where the model can; else one by one, only those a finding here
        // would settle.
        let Some(mut settled) = self.ctx.settled(state) else {
            for (p, prop) in props.iter().enumerate() {
                if prop.expectation == Expectation::Terminates || !shallower(&walk.best[p], level) {
                    continue;
                }
                if self.ctx.settles(p, &walk.states[slot]) {
                    walk.best[p] = Some(Found::state(level, self.path(walk, p)?));
                }
            }
            return Ok(());
        };
        while settled != 0 {
            let p = settled.trailing_zeros() as usize;
            settled &= settled - 1;
            if shallower(&walk.best[p], level) {
                walk.best[p] = Some(Found::state(level, self.path(walk, p)?));
            }
        }
        Ok(())
    }

    /// `state`'s progress value, checked to exceed its parent's: the evidence that the
    /// declared tree has no cycle.
    fn progress_of(
        &self,
        walk: &Walk<M>,
        state: &M::State,
        from: Option<(u64, u32, Link)>,
    ) -> Result<u64, Halt> {
        let depth = walk.stack.len();
        let at = || format!("depth {depth} of initial state #{}", walk.summary.init);
        let Some(progress) = self.ctx.model.progress(state) else {
            return Err(CheckError::NotTreeShaped {
                detail: format!("a state at {} has no progress value", at()),
            }
            .into());
        };
        match from {
            Some((before, via, _)) if progress <= before => Err(CheckError::NotTreeShaped {
                detail: format!(
                    "action #{via} into {} does not increase progress ({before} to {progress})",
                    at()
                ),
            }
            .into()),
            _ => Ok(progress),
        }
    }

    /// Pops the top of the path once every action is taken: counts its transitions and, if
    /// it made no successor, checks it as a final state against the `Terminates` properties.
    fn leave(&self, walk: &mut Walk<M>) -> Result<(), Halt> {
        let depth = walk.stack.len() - 1;
        let top = &walk.stack[depth];
        walk.summary.transitions_per_level[depth] += top.made;
        if top.made == 0 {
            // A final state's finding counts at the level of the expansion that found it.
            let level = depth as u32 + 1;
            let props = self.ctx.props;
            for (p, prop) in props.iter().enumerate() {
                if prop.expectation != Expectation::Terminates || !shallower(&walk.best[p], level) {
                    continue;
                }
                let state = walk.held(depth).expect("kept: no successor");
                if !(prop.condition)(self.ctx.model, state) {
                    walk.best[p] = Some(Found::state(level, self.path(walk, p)?));
                }
            }
        }
        let frame = walk.stack.pop().expect("not empty");
        walk.spare.push(frame.actions);
        walk.free.extend(frame.slot);
        Ok(())
    }

    /// The steps from the initial state to the top of the path, folded as the breadth-first
    /// search folds them: a hop with its fingerprint per stored state, then one without for
    /// an unstored top. Fingerprints computed here stay on their frames for later findings
    /// (of property `prop`, named if a replay fails).
    fn path(&self, walk: &mut Walk<M>, prop: usize) -> Result<Vec<Hop>, Halt> {
        let hop = |l: Link, fp| Hop {
            action: l.action(),
            forced: l.forced(),
            fp,
        };
        let mut steps = vec![];
        // The last state replayed and its frame: the next replay goes on from it, so that a
        // path is replayed at most once from end to end however many fingerprints it lacks.
        let mut replayed: Option<(usize, M::State)> = None;
        for k in 1..walk.stack.len() {
            let frame = &walk.stack[k];
            if !frame.stored {
                continue;
            }
            let fp = match (frame.fp, walk.held(k)) {
                (Some(fp), _) => fp,
                (None, Some(state)) => self.ctx.fp(state),
                (None, None) => {
                    let state = self.replay_to(walk, k, replayed.take(), prop)?;
                    let fp = self.ctx.fp(&state);
                    replayed = Some((k, state));
                    fp
                }
            };
            walk.stack[k].fp = Some(fp);
            steps.push(hop(walk.stack[k].link, Some(fp)));
        }
        let top = walk.stack.last().expect("not empty");
        if !top.stored {
            steps.push(hop(top.link, None));
        }
        Ok(steps)
    }

    /// The state of the path's `k`-th frame, moved on into its last successor: replayed from
    /// the nearest state before it that is held by its frame or was replayed last (`from`),
    /// or from the initial state.
    fn replay_to(
        &self,
        walk: &Walk<M>,
        k: usize,
        from: Option<(usize, M::State)>,
        prop: usize,
    ) -> Result<M::State, Halt> {
        let held = (0..k).rev().find(|&j| walk.stack[j].slot.is_some());
        let (mut j, mut state) = match (held, from) {
            (h, Some((j, state))) if h.is_none_or(|h| h <= j) => (j, state),
            (Some(h), _) => (h, walk.held(h).expect("held").clone()),
            (None, _) => (0, walk.root.clone()),
        };
        while j < k {
            let frame = &walk.stack[j];
            // The action taken last from a frame is the one that made the frame after it.
            let action = &frame.actions[frame.next - 1];
            let Some(next) = self.ctx.model.replay_state(&state, action) else {
                return Err(CheckError::ModelNotDeterministic {
                    property: self.ctx.props[prop].name.to_string(),
                    step: j + 1,
                    detail: "a transition the search took does not apply when replayed".into(),
                }
                .into());
            };
            state = next;
            j += 1;
        }
        Ok(state)
    }

    /// Counts a unit of work and, every [`POLL_EVERY`], asks whether to give up.
    #[inline]
    fn tick(&self, work: &mut u32) -> Result<(), Halt> {
        *work += 1;
        if *work >= POLL_EVERY {
            *work = 0;
            if (self.cancelled)() {
                return Err(Halt::Cancelled);
            }
        }
        Ok(())
    }
}

impl<M: Model> Walk<M> {
    /// The state of the path's `k`-th frame, unless it was moved into its last successor.
    fn held(&self, k: usize) -> Option<&M::State> {
        self.stack[k].slot.map(|slot| &self.states[slot])
    }
}

/// A free slot of `states` (or a new one) holding a copy of the state in slot `from`.
fn copy_into<S: Clone>(states: &mut Vec<S>, free: &mut Vec<usize>, from: usize) -> usize {
    match free.pop() {
        Some(slot) => {
            let (src, dst) = if from < slot {
                let (a, b) = states.split_at_mut(slot);
                (&a[from], &mut b[0])
            } else {
                let (a, b) = states.split_at_mut(from);
                (&b[0], &mut a[slot])
            };
            dst.clone_from(src);
            slot
        }
        None => {
            states.push(states[from].clone());
            states.len() - 1
        }
    }
}

/// Whether a finding at `level` would be kept over `best`: only a strictly shallower one
/// replaces it, since the first met at a level is the first in canonical order.
fn shallower(best: &Option<Found>, level: u32) -> bool {
    best.as_ref().is_none_or(|f| f.level > level)
}
