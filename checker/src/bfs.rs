//! Level-synchronous parallel breadth-first search, deterministic for any thread count.
//!
//! Each level (breadth-first layer) runs in three parallel phases:
//! 1. **Expand**: the frontier is cut into chunks; each worker computes the successors of its
//!    chunk's states in order, drops those already visited in earlier levels, and buckets the
//!    rest by shard (a stable counting sort). Final states and progress are checked here, and
//!    so are the state properties when the level before had few duplicates (see
//!    `Search::eager`): a successor is then checked while it is still in cache.
//! 2. **Merge**: each visited-set shard inserts its candidates chunk by chunk, i.e. in canonical
//!    order (parent's frontier position, then action index); the first candidate to reach a
//!    fingerprint wins the parent slot, exactly as a sequential search would decide.
//! 3. **Collect**: the winners, still in canonical order, become the next frontier; the first
//!    winner on which each state property (`Always`, `Sometimes`) hits is kept, evaluating the
//!    properties here unless phase 1 already did.
//!
//! Because every decision is made in canonical order, counts, verdicts and traces do not depend
//! on the number of threads or on how the work was split. Because each property's first
//! finding is kept per level, counterexamples and witnesses are shortest (first in canonical
//! order among the shallowest). Only the current and the next frontier hold full states; traces
//! are rebuilt at the end from the visited set's parent links (see `crate::trace`).
//!
//! The frontier is kept as a list of parts (one per chunk of the previous level; a chunk may
//! span several) rather than one vector: concatenating a level's parts would briefly hold the
//! whole next frontier twice, which is the largest allocation of a level, and copy every state.
//!
//! Copying states is most of what a search costs besides the model itself, so a state is moved,
//! not copied, into its last successor (`Model::next_state_in_place`): on models whose states
//! mostly have one successor, that is most transitions. Stateright's `Model` takes the state by
//! reference and must copy for every successor.
//!
//! Two things end a level early. Exceeding the memory budget (see `crate::memory`) makes every
//! worker stop, and the level is discarded whole: it is never half-counted, so everything
//! reported comes from completed levels, and verdicts found so far stay shortest. A panic in
//! model code is caught per chunk and becomes [`CheckError::ModelPanicked`]; chunks after the
//! panicking one stop, chunks before it finish, so the panic reported is the first in canonical
//! order whatever the thread count.

use crate::error::CheckError;
use crate::fingerprint::fingerprint;
use crate::memory::{self, Budget, POLL_EVERY};
use crate::model::{Expectation, Model, Property};
use crate::result::{CheckResult, Outcome, PropertyResult, StopReason, Violation};
use crate::stats::{peak_memory_bytes, LevelProgress, Stats};
use crate::trace::{replay_checked, Trace};
use crate::visited::{shard_of_spread, spread, StateRef, VisitedSet, SHARDS};
use rayon::prelude::*;
use std::any::Any;
use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A progress callback, called between levels on one thread.
type LevelCallback<'a> = Box<dyn FnMut(&LevelProgress) + Send + 'a>;

/// Configures and runs a breadth-first check of a model (builder style).
pub struct Checker<'a, M: Model> {
    model: &'a M,
    threads: usize,
    max_states: Option<usize>,
    symmetry: bool,
    stop_on_first_violation: bool,
    report_progress: bool,
    on_level: Option<LevelCallback<'a>>,
    /// `None`: the default, decided when the run starts.
    memory_limit: Option<Option<u64>>,
}

/// Adds `model.checker()` to every model.
pub trait CheckerExt: Model + Sized {
    /// A checker for this model with default options.
    fn checker(&self) -> Checker<'_, Self>;
}

impl<M: Model> CheckerExt for M {
    fn checker(&self) -> Checker<'_, Self> {
        Checker::new(self)
    }
}

impl<'a, M: Model> Checker<'a, M> {
    /// A checker with default options: all cores, no state limit, a memory budget of 75 % of
    /// the memory available at the start of the run (see [`Checker::memory_limit`]), the
    /// model's fingerprint (symmetry reduction if the model defines it), every property
    /// decided, no progress output.
    pub fn new(model: &'a M) -> Self {
        Checker {
            model,
            threads: 0,
            max_states: None,
            symmetry: true,
            stop_on_first_violation: false,
            report_progress: false,
            on_level: None,
            memory_limit: None,
        }
    }

    /// Worker threads in a dedicated pool (0: one per core). Results do not depend on it.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Stops after the level in which the number of distinct states reaches `limit` (`None`:
    /// no limit). The result is then incomplete unless nothing was left to explore.
    pub fn max_states(mut self, limit: impl Into<Option<usize>>) -> Self {
        self.max_states = limit.into();
        self
    }

    /// Whether to deduplicate with `Model::fingerprint` (true, the default, which applies the
    /// model's symmetry reduction if any) or with a hash of the whole state (false).
    pub fn symmetry(mut self, on: bool) -> Self {
        self.symmetry = on;
        self
    }

    /// Stops after the level in which any property is violated, instead of exploring on until
    /// every property has a verdict.
    pub fn stop_on_first_violation(mut self, on: bool) -> Self {
        self.stop_on_first_violation = on;
        self
    }

    /// Prints a one-line progress report per level to stderr, if it is a terminal and the run
    /// has taken more than a second.
    pub fn report_progress(mut self, on: bool) -> Self {
        self.report_progress = on;
        self
    }

    /// Calls `f` after every level (from one thread, between the parallel phases).
    pub fn on_level(mut self, f: impl FnMut(&LevelProgress) + Send + 'a) -> Self {
        self.on_level = Some(Box::new(f));
        self
    }

    /// Stops the search cleanly, with [`StopReason::MemoryLimit`], once the process's resident
    /// memory (Linux `VmRSS`, the whole process) exceeds `bytes`; `None`: no limit.
    ///
    /// If this is not called, the limit is 75 % of `MemAvailable` in `/proc/meminfo` read when
    /// the run starts (see [`memory::default_limit`]), or no limit where that cannot be read
    /// (non-Linux). Resident memory is read between levels and, throttled, by the workers
    /// during a level; when it is exceeded the current level is discarded. Where the search
    /// stops then depends on timing and thread count: it is the one non-deterministic result.
    pub fn memory_limit(mut self, bytes: impl Into<Option<u64>>) -> Self {
        self.memory_limit = Some(bytes.into());
        self
    }

    /// Runs the search to completion (or to a limit) and returns every property's verdict.
    ///
    /// A panic in model code becomes [`CheckError::ModelPanicked`] (the default panic hook
    /// still prints it); this needs the default `panic = "unwind"`.
    pub fn run(self) -> Result<CheckResult<M>, CheckError> {
        let model = self.model;
        let props = catch(
            || Ok(model.properties()),
            || "while listing the properties".into(),
        )?;
        if props.is_empty() {
            return Err(CheckError::NoProperties);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .thread_name(|i| format!("rbcheck-worker-{i}"))
            .build()
            .map_err(|e| CheckError::ThreadPool(e.to_string()))?;
        let threads = pool.current_num_threads();
        pool.install(move || Search::new(self, props, threads).run())
    }
}

/// What the search keeps about a property's first finding, until traces are rebuilt.
#[derive(Clone, Copy, Debug)]
enum Finding {
    /// The state itself violates (or, for `Sometimes`, witnesses) the property.
    State(StateRef),
    /// The transition `action` from `from` (to a state with fingerprint `fp`) does not increase
    /// progress.
    Edge {
        from: StateRef,
        action: u32,
        fp: u64,
    },
}

/// The read-only part of a search, shared by all workers.
struct Ctx<'a, M: Model> {
    model: &'a M,
    props: &'a [Property<M>],
    symmetry: bool,
}

impl<M: Model> Ctx<'_, M> {
    #[inline]
    fn fp(&self, s: &M::State) -> u64 {
        if self.symmetry {
            self.model.fingerprint(s)
        } else {
            fingerprint(s)
        }
    }

    /// The active state properties that hit on `state`, as bits in `active` order.
    #[inline]
    fn hits(&self, active: &[usize], state: &M::State) -> u64 {
        let mut bits = 0;
        for (k, &p) in active.iter().enumerate() {
            let prop = &self.props[p];
            let holds = (prop.condition)(self.model, state);
            if holds == (prop.expectation == Expectation::Sometimes) {
                bits |= 1 << k;
            }
        }
        bits
    }

    /// Evaluates the `active` state properties on `state`, remembering the first hit of each.
    #[inline]
    fn check_state(
        &self,
        active: &[usize],
        state: &M::State,
        r: StateRef,
        found: &mut [Option<StateRef>],
    ) {
        for (slot, &p) in found.iter_mut().zip(active) {
            if slot.is_none() {
                let prop = &self.props[p];
                let holds = (prop.condition)(self.model, state);
                if holds == (prop.expectation == Expectation::Sometimes) {
                    *slot = Some(r);
                }
            }
        }
    }
}

/// Runs model code, turning a panic into [`CheckError::ModelPanicked`] described by `context`
/// (built only on panic). Unwind safety is asserted because whatever the panic interrupted is
/// discarded with the run.
fn catch<T>(
    f: impl FnOnce() -> Result<T, CheckError>,
    context: impl FnOnce() -> String,
) -> Result<T, CheckError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(panicked(context(), &*payload)))
}

/// The error for a caught panic, with its message if it has one.
fn panicked(context: String, payload: &(dyn Any + Send)) -> CheckError {
    let message = if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else {
        "(panic payload is not a string)"
    };
    CheckError::ModelPanicked {
        detail: format!("{context}: {message}"),
    }
}

/// What makes the workers of one level stop early, polled every [`POLL_EVERY`] units of work.
struct Cancel<'a> {
    budget: &'a Budget,
    /// Lowest index of a chunk that failed (error or panic), `usize::MAX` if none. Only later
    /// chunks stop, so that the first failure in canonical order is always found.
    failed: AtomicUsize,
}

impl Cancel<'_> {
    /// Whether chunk `index` should give up.
    #[cold]
    fn poll(&self, index: usize) -> bool {
        self.failed.load(Ordering::Relaxed) < index || self.budget.exceeded()
    }

    fn fail(&self, index: usize) {
        self.failed.fetch_min(index, Ordering::Relaxed);
    }
}

/// How many keys ahead of a lookup to prefetch its slot.
const LOOKAHEAD: usize = 8;

/// What the merge needs of a candidate successor. Kept apart from the state so that a shard's
/// keys are contiguous and small: the merge then streams through them instead of missing the
/// cache on every (possibly large) candidate.
#[derive(Clone, Copy, Default)]
struct Key {
    fp: u64,
    /// `spread(fp)`, computed once.
    h: u64,
    parent: u32,
    action: u32,
    /// Position of the candidate's state in `Expanded::states`.
    index: u32,
}

/// One chunk's expansion.
struct Expanded<S> {
    /// Successors not visited before this level, in canonical order (all present).
    states: Vec<Option<S>>,
    /// Their keys, grouped by shard, in canonical order within each shard.
    keys: Vec<Key>,
    /// `keys[offsets[k]..offsets[k + 1]]` belong to shard `k`.
    offsets: [u32; SHARDS + 1],
    /// Set by the merge, per state: its new reference, or `StateRef::NONE` for a duplicate.
    won: Vec<AtomicU32>,
    /// With eager checking, per state: bit `k` set if the `k`-th active state property hit on it
    /// (failed for `Always`, held for `Sometimes`). Empty otherwise.
    hits: Vec<u64>,
    transitions: u64,
    /// Successors generated (before the prefilter).
    generated: u64,
    /// Successors the prefilter found visited in an earlier level.
    rejected: u64,
    /// First final state failing each checked `Terminates` property.
    final_fail: Vec<Option<StateRef>>,
    /// First transition that does not increase progress.
    cycle: Option<Finding>,
    /// Whether some state had no progress value.
    progress_missing: bool,
}

/// Expands chunk `index` of the frontier (phase 1); `None` if `cancel` stopped it. With
/// `prefilter`, successors already visited in earlier levels are dropped here rather than in the
/// merge, which saves memory and merge work when many edges go back to old states (and costs a
/// lookup per edge when few do).
#[allow(clippy::too_many_arguments)]
fn expand<M: Model>(
    ctx: &Ctx<'_, M>,
    visited: &VisitedSet,
    terminates: &[usize],
    check_progress: bool,
    prefilter: bool,
    branching: f64,
    cancel: &Cancel<'_>,
    index: usize,
    chunk: Chunk<'_, M::State>,
    spare: &Spare<Option<M::State>>,
    eager: Option<(&[usize], usize)>,
    actions: &mut Vec<M::Action>,
) -> Result<Option<Expanded<M::State>>, CheckError> {
    let model = ctx.model;
    // Counts states and successors since the last poll: successors are what fill memory, and
    // a state's actions can be many.
    let mut work = 0u32;
    // Sized from the previous level's successors per state: growing the vector would copy
    // every (possibly large) state already in it.
    let chunk_len: usize = chunk.iter().map(|(s, _)| s.len()).sum();
    let expected = (chunk_len as f64 * branching * 1.1) as usize + 16;
    let mut states = spare.take(expected);
    let mut unsorted = Vec::with_capacity(expected);
    let mut hits = Vec::with_capacity(if eager.is_some() { expected } else { 0 });
    let mut transitions = 0u64;
    let mut final_fail = vec![None; terminates.len()];
    let mut cycle = None;
    let mut progress_missing = false;
    let pieces = chunk
        .into_iter()
        .flat_map(|(s, r)| s.iter_mut().zip(r.iter()));
    for (slot, r) in pieces {
        let state = present(slot);
        work += 1;
        if work >= POLL_EVERY {
            work = 0;
            if cancel.poll(index) {
                return Ok(None);
            }
        }
        actions.clear();
        model.actions(state, actions);
        if actions.len() > u32::MAX as usize {
            return Err(CheckError::TooManyActions);
        }
        let before = if check_progress {
            model.progress(state)
        } else {
            None
        };
        progress_missing |= check_progress && before.is_none();
        let mut enabled = false;
        let last = actions.len().wrapping_sub(1);
        for (a, action) in actions.iter().enumerate() {
            work += 1;
            if work >= POLL_EVERY {
                work = 0;
                if cancel.poll(index) {
                    return Ok(None);
                }
            }
            let index = u32::try_from(states.len()).map_err(|_| CheckError::TooManyActions)?;
            if a == last {
                // Nothing reads a state after its last successor is made, so that successor is
                // made from the state itself, in the place it will keep (see
                // `Model::next_state_in_place`): a state is large, and each move copies it.
                states.push(slot.take());
                let made = states.last_mut().and_then(Option::as_mut).expect("present");
                if !model.next_state_in_place(made, action) {
                    *slot = states.pop().flatten();
                    continue;
                }
            } else {
                let Some(next) = model.next_state(present(slot), action) else {
                    continue;
                };
                states.push(Some(next));
            }
            let next = states.last().and_then(Option::as_ref).expect("just made");
            enabled = true;
            transitions += 1;
            let fp = ctx.fp(next);
            if let (Some(b), None) = (before, cycle) {
                if model.progress(next).is_some_and(|after| after <= b) {
                    cycle = Some(Finding::Edge {
                        from: *r,
                        action: a as u32,
                        fp,
                    });
                }
            }
            unsorted.push(Key {
                fp,
                h: spread(fp),
                parent: r.to_raw(),
                action: a as u32,
                index,
            });
            if let Some((active, depth)) = eager {
                // While the successor is still in cache (see `Search::eager`).
                hits.push(catch(
                    || Ok(ctx.hits(active, next)),
                    || {
                        format!(
                            "while checking a property on a state at depth {}",
                            depth + 1
                        )
                    },
                )?);
            }
        }
        if !enabled {
            // No successor was made, so the state was given back (or there was no action).
            let state = present(slot);
            for (fail, &p) in final_fail.iter_mut().zip(terminates) {
                if fail.is_none() && !(ctx.props[p].condition)(model, state) {
                    *fail = Some(*r);
                }
            }
        }
        // Done with it: every slot of a finished chunk is empty (see `Spare::put_emptied`).
        drop(slot.take());
    }

    let generated = states.len() as u64;
    if prefilter {
        // A stable in-place compaction, prefetching a few keys ahead.
        let mut kept = 0;
        let mut keep = Vec::with_capacity(unsorted.len());
        for i in 0..unsorted.len() {
            if let Some(k) = unsorted.get(i + LOOKAHEAD) {
                visited.prefetch(k.h);
            }
            let key = unsorted[i];
            let new = visited.get_spread(key.fp, key.h).is_none();
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
    let rejected = generated - states.len() as u64;

    // A stable counting sort by shard.
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
    let won = (0..states.len())
        .map(|_| AtomicU32::new(StateRef::NONE))
        .collect();
    Ok(Some(Expanded {
        states,
        keys,
        offsets,
        won,
        hits,
        transitions,
        generated,
        rejected,
        final_fail,
        cycle,
        progress_missing,
    }))
}

/// A frontier state that has not been moved into a successor yet.
fn present<S>(slot: &Option<S>) -> &S {
    slot.as_ref()
        .expect("a frontier state is present until its last successor is made")
}

/// A property's result record.
fn result<M: Model>(prop: &Property<M>, outcome: Outcome<M>) -> PropertyResult<M> {
    PropertyResult {
        name: prop.name,
        rule: prop.rule,
        doc: prop.doc,
        expectation: prop.expectation,
        outcome,
    }
}

/// Emptied state buffers, reused by the next expansion: a level's states fill buffers whose pages
/// the level before already touched, where new ones would cost the kernel a page fault and a
/// zeroed page every 4 KiB. At most one level's buffers are kept.
struct Spare<S>(Mutex<Vec<Vec<S>>>);

impl<S> Default for Spare<S> {
    fn default() -> Self {
        Spare(Mutex::new(Vec::new()))
    }
}

impl<S: Send> Spare<S> {
    /// An empty buffer with room for `capacity` states.
    fn take(&self, capacity: usize) -> Vec<S> {
        let spare = self.0.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut v = spare.unwrap_or_default();
        v.reserve(capacity);
        v
    }

    /// Empties `v` (dropping its states here, on the caller's thread) and keeps its buffer.
    fn put(&self, mut v: Vec<S>) {
        v.clear();
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(v);
    }

    /// Frees the buffers not taken, on all threads.
    fn clear(&mut self) {
        std::mem::take(self.0.get_mut().unwrap_or_else(|e| e.into_inner()))
            .into_par_iter()
            .for_each(drop);
    }
}

impl<S: Send> Spare<Option<S>> {
    /// Keeps the buffer of `v`, whose slots are all `None`, without visiting them: clearing it
    /// would read every slot (one cache miss per state of the level) only to find nothing to
    /// drop.
    fn put_emptied(&self, mut v: Vec<Option<S>>) {
        debug_assert!(v.iter().all(Option::is_none));
        // SAFETY: shrinking the length only forgets elements, and a `None` owns nothing.
        unsafe { v.set_len(0) };
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(v);
    }
}

/// The frontier: states of one depth with their references, in canonical order, split into
/// parts so that building it never copies the whole of it.
struct Frontier<S> {
    parts: Vec<Part<S>>,
    len: usize,
}

/// Consecutive frontier states and their references (kept apart, so that a chunk's expansion
/// output becomes a part without moving its states).
struct Part<S> {
    /// `None` once a state has been moved into its last successor.
    states: Vec<Option<S>>,
    refs: Vec<StateRef>,
}

/// Consecutive frontier states, as slices of one or more consecutive parts: a chunk is cut to
/// its size wherever parts begin, so that no state is moved to make chunks long.
type Chunk<'p, S> = Vec<(&'p mut [Option<S>], &'p [StateRef])>;

impl<S> Frontier<S> {
    fn new() -> Self {
        Frontier {
            parts: Vec::new(),
            len: 0,
        }
    }

    /// Appends states that follow all those already in the frontier.
    fn push_part(&mut self, part: Part<S>) {
        debug_assert_eq!(part.states.len(), part.refs.len());
        self.len += part.refs.len();
        if !part.refs.is_empty() {
            self.parts.push(part);
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Consecutive slices of at most `size` states, in canonical order.
    fn chunks(&mut self, size: usize) -> Vec<Chunk<'_, S>> {
        let mut out = Vec::with_capacity(self.len / size.max(1) + 1);
        let mut chunk: Chunk<'_, S> = Vec::new();
        let mut room = size.max(1);
        for p in &mut self.parts {
            let (mut states, mut refs) = (&mut p.states[..], &p.refs[..]);
            while !states.is_empty() {
                let n = room.min(states.len());
                let (head, tail) = states.split_at_mut(n);
                chunk.push((head, &refs[..n]));
                (states, refs) = (tail, &refs[n..]);
                room -= n;
                if room == 0 {
                    out.push(std::mem::take(&mut chunk));
                    room = size.max(1);
                }
            }
        }
        if !chunk.is_empty() {
            out.push(chunk);
        }
        out
    }
}

/// One chunk's new states and its first hit for each checked state property.
type Collected<S> = (Part<S>, Vec<Option<StateRef>>);

/// One run's mutable state.
struct Search<'a, M: Model> {
    model: &'a M,
    props: Vec<Property<M>>,
    threads: usize,
    symmetry: bool,
    max_states: Option<usize>,
    stop_on_first_violation: bool,
    report_progress: bool,
    on_level: Option<LevelCallback<'a>>,
    visited: VisitedSet,
    findings: Vec<Option<Finding>>,
    transitions: u64,
    progress_missing: bool,
    progress_skipped: bool,
    /// Whether expansion drops successors visited in earlier levels (adapted per level).
    prefilter: bool,
    /// Whether state properties are checked on each successor as it is made, while it is in
    /// cache, rather than on the winners after the merge, which reads every state of the level
    /// again from memory. Eager checking also checks successors that then lose to a duplicate
    /// in the same level, so it is chosen only after a level with few of them; either way the
    /// first hit among the winners, in canonical order, is kept.
    eager: bool,
    /// Successors per expanded state in the last level, to size the expansion buffers.
    branching: f64,
    /// The emptied state buffers of the level expanded last.
    spare: Spare<Option<M::State>>,
    budget: Budget,
    start: Instant,
}

impl<'a, M: Model> Search<'a, M> {
    fn new(c: Checker<'a, M>, props: Vec<Property<M>>, threads: usize) -> Self {
        let n = props.len();
        Search {
            model: c.model,
            props,
            threads,
            symmetry: c.symmetry,
            max_states: c.max_states,
            stop_on_first_violation: c.stop_on_first_violation,
            report_progress: c.report_progress,
            on_level: c.on_level,
            visited: VisitedSet::new(),
            findings: vec![None; n],
            transitions: 0,
            progress_missing: false,
            progress_skipped: false,
            prefilter: true,
            eager: true,
            branching: 1.0,
            spare: Spare::default(),
            budget: Budget::new(c.memory_limit.unwrap_or_else(memory::default_limit)),
            start: Instant::now(),
        }
    }

    fn ctx(&self) -> Ctx<'_, M> {
        Ctx {
            model: self.model,
            props: &self.props,
            symmetry: self.symmetry,
        }
    }

    /// Undecided properties with one of the given expectations.
    fn undecided(&self, kinds: &[Expectation]) -> Vec<usize> {
        (0..self.props.len())
            .filter(|&p| self.findings[p].is_none() && kinds.contains(&self.props[p].expectation))
            .collect()
    }

    fn run(mut self) -> Result<CheckResult<M>, CheckError> {
        let mut frontier = self.initial_level()?;
        let init_states = frontier.len();
        let mut depth = 0;
        let mut printed = false;
        let stop = loop {
            if frontier.is_empty() {
                break StopReason::Exhausted;
            }
            if self.findings.iter().all(Option::is_some) {
                break StopReason::AllDecided;
            }
            if self.stop_on_first_violation && self.any_violation() {
                break StopReason::FirstViolation;
            }
            if self.max_states.is_some_and(|max| self.visited.len() >= max) {
                break StopReason::MaxStates;
            }
            // Last, so that the deterministic stops above win when both apply.
            if self.budget.exceeded_now() {
                break StopReason::MemoryLimit;
            }
            match self.level(frontier, depth)? {
                Some(next) => frontier = next,
                None => break StopReason::MemoryLimit,
            }
            if !frontier.is_empty() {
                depth += 1;
            }
            printed |= self.report(depth, frontier.len());
        };
        if printed {
            eprintln!();
        }
        let complete = stop == StopReason::Exhausted;
        let properties = self.verdicts(complete)?;
        let has_terminates = self
            .props
            .iter()
            .any(|p| p.expectation == Expectation::Terminates);

        let elapsed = self.start.elapsed().as_secs_f64();
        let states = self.visited.len();
        let stats = Stats {
            init_states,
            states,
            transitions: self.transitions,
            max_depth: depth,
            elapsed_secs: elapsed,
            states_per_sec: if elapsed > 0.0 {
                states as f64 / elapsed
            } else {
                0.0
            },
            peak_memory_bytes: peak_memory_bytes(),
            memory_limit_bytes: self.budget.limit(),
            memory_at_stop_bytes: self
                .budget
                .exceeded_at()
                .filter(|_| stop == StopReason::MemoryLimit),
            visited_bytes: self.visited.heap_bytes(),
            bytes_per_state: self.visited.bytes_per_state(),
        };
        Ok(CheckResult {
            properties,
            complete,
            stop,
            cycles_checked: has_terminates && !self.progress_missing && !self.progress_skipped,
            stats,
        })
    }

    /// Stores the distinct initial states (depth 0) and checks the state properties on them.
    fn initial_level(&mut self) -> Result<Frontier<M::State>, CheckError> {
        catch(
            || {
                let inits = self.model.init_states();
                if inits.is_empty() {
                    return Err(CheckError::NoInitialStates);
                }
                let mut states = Vec::new();
                let mut refs = Vec::new();
                for (i, s) in inits.into_iter().enumerate() {
                    let index = u32::try_from(i).map_err(|_| CheckError::TooManyActions)?;
                    let (r, new) = self.visited.insert(self.ctx().fp(&s), None, index)?;
                    if new {
                        states.push(s);
                        refs.push(r);
                    }
                }
                let active = self.undecided(&[Expectation::Always, Expectation::Sometimes]);
                let mut found = vec![None; active.len()];
                let ctx = self.ctx();
                for (s, r) in states.iter().zip(&refs) {
                    ctx.check_state(&active, s, *r, &mut found);
                }
                let states = states.into_iter().map(Some).collect();
                for (&p, f) in active.iter().zip(found) {
                    self.findings[p] = f.map(Finding::State);
                }
                let mut frontier = Frontier::new();
                frontier.push_part(Part { states, refs });
                Ok(frontier)
            },
            || "while computing or checking the initial states (depth 0)".into(),
        )
    }

    /// Reports a finished level to the callback and, if asked, to the terminal; returns whether
    /// a line was printed.
    fn report(&mut self, depth: usize, frontier: usize) -> bool {
        let progress = LevelProgress {
            depth,
            states: self.visited.len(),
            frontier,
            transitions: self.transitions,
            elapsed_secs: self.start.elapsed().as_secs_f64(),
        };
        if let Some(f) = self.on_level.as_mut() {
            f(&progress);
        }
        let print =
            self.report_progress && progress.elapsed_secs > 1.0 && std::io::stderr().is_terminal();
        if print {
            eprint!("\r{}", progress.line());
        }
        print
    }

    /// One verdict per property, rebuilding the trace of each finding.
    fn verdicts(&self, complete: bool) -> Result<Vec<PropertyResult<M>>, CheckError> {
        let mut properties = Vec::with_capacity(self.props.len());
        for (prop, finding) in self.props.iter().zip(&self.findings) {
            let outcome = match (*finding, prop.expectation) {
                (Some(f), Expectation::Sometimes) => Outcome::Witnessed {
                    trace: self.trace(prop, f)?,
                },
                (Some(f), expectation) => {
                    let kind = match (expectation, f) {
                        (Expectation::Always, _) => Violation::Invariant,
                        (_, Finding::State(_)) => Violation::FinalState,
                        (_, Finding::Edge { .. }) => Violation::PossibleCycle,
                    };
                    Outcome::Violated {
                        kind,
                        trace: self.trace(prop, f)?,
                    }
                }
                (None, _) if !complete => Outcome::Unknown,
                (None, Expectation::Sometimes) => Outcome::NeverReached,
                (None, _) => Outcome::Holds,
            };
            properties.push(result(prop, outcome));
        }
        Ok(properties)
    }

    fn any_violation(&self) -> bool {
        self.findings
            .iter()
            .zip(&self.props)
            .any(|(f, p)| f.is_some() && p.expectation != Expectation::Sometimes)
    }

    /// Expands the frontier at `depth` and returns the next one; `None` if the memory budget was
    /// exceeded, in which case nothing of this level is kept.
    fn level(
        &mut self,
        mut frontier: Frontier<M::State>,
        depth: usize,
    ) -> Result<Option<Frontier<M::State>>, CheckError> {
        let terminates = self.undecided(&[Expectation::Terminates]);
        let check_progress = !terminates.is_empty();
        // Only phase 3 decides these, so the set is the same in phases 1 and 3.
        let active = self.undecided(&[Expectation::Always, Expectation::Sometimes]);
        let eager = self.eager && !active.is_empty() && active.len() <= 64;
        let chunk = (frontier.len() / (self.threads * 8)).clamp(64, 4096);
        let frontier_len = frontier.len();

        // Phase 1: expand.
        let results: Vec<Result<Option<Expanded<M::State>>, CheckError>> = {
            let ctx = self.ctx();
            let visited = &self.visited;
            let terminates = &terminates;
            let prefilter = self.prefilter;
            let branching = self.branching;
            let cancel = Cancel {
                budget: &self.budget,
                failed: AtomicUsize::new(usize::MAX),
            };
            let cancel = &cancel;
            let spare = &self.spare;
            let eager = eager.then_some((&active[..], depth));
            frontier
                .chunks(chunk)
                .into_par_iter()
                .enumerate()
                .map_init(Vec::new, |actions, (index, part)| {
                    let result = catch(
                        || {
                            expand(
                                &ctx,
                                visited,
                                terminates,
                                check_progress,
                                prefilter,
                                branching,
                                cancel,
                                index,
                                part,
                                spare,
                                eager,
                                actions,
                            )
                        },
                        || format!("while expanding a state at depth {depth} into its successors"),
                    );
                    if result.is_err() {
                        cancel.fail(index);
                    }
                    result
                })
                .collect()
        };
        // Freeing a level's states is a large part of the work of a level: in parallel. Their
        // buffers are kept for the next expansion, and what this one left unused is freed.
        self.spare.clear();
        // Every state of a fully expanded level was moved into a successor or dropped there.
        let emptied = results.iter().all(|r| matches!(r, Ok(Some(_))));
        frontier.parts.into_par_iter().for_each(|p| {
            if emptied {
                self.spare.put_emptied(p.states)
            } else {
                self.spare.put(p.states)
            }
        });
        // An error (the first in canonical order) outranks a memory stop: it is a bug to report.
        let mut expanded = Vec::with_capacity(results.len());
        let mut abandoned = false;
        for result in results {
            match result? {
                Some(e) => expanded.push(e),
                None => abandoned = true,
            }
        }
        if abandoned {
            return Ok(None);
        }
        self.progress_skipped |= !check_progress;
        for e in &expanded {
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

        // Phase 2: merge, one shard per task, candidates in canonical order.
        let exp = &expanded;
        let states_before = self.visited.len();
        let old_hits = self
            .visited
            .shards_mut()
            .map(|(k, shard)| -> Result<u64, CheckError> {
                let before = shard.len();
                let mut old_hits = 0;
                for e in exp {
                    let keys = &e.keys[e.offsets[k] as usize..e.offsets[k + 1] as usize];
                    for (n, key) in keys.iter().enumerate() {
                        if let Some(ahead) = keys.get(n + LOOKAHEAD) {
                            shard.prefetch(ahead.h);
                        }
                        let parent = StateRef::from_raw(key.parent);
                        let (local, new) =
                            shard.insert_spread(key.fp, key.h, parent, key.action)?;
                        if new {
                            let r = VisitedSet::make_ref(k, local);
                            e.won[key.index as usize].store(r.to_raw(), Ordering::Relaxed);
                        } else if (local as usize) < before {
                            old_hits += 1;
                        }
                    }
                }
                Ok(old_hits)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        // Prefilter the next level only if this one had many edges back to earlier levels.
        let generated: u64 = expanded.iter().map(|e| e.generated).sum();
        let back_edges: u64 = old_hits + expanded.iter().map(|e| e.rejected).sum::<u64>();
        self.prefilter = back_edges * 4 > generated;
        // Eager checking wastes the checks of successors that are not new.
        let winners = (self.visited.len() - states_before) as u64;
        self.eager = winners * 2 >= generated;
        self.branching = (generated as f64 / frontier_len.max(1) as f64).min(64.0);

        // Phase 3: collect the winners and check state properties on them.
        let parts: Vec<Result<Collected<M::State>, CheckError>> = {
            let ctx = &self.ctx();
            let active = &active;
            expanded
                .into_par_iter()
                .map(|e| {
                    catch(
                        move || {
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
                            Ok((Part { states, refs }, found))
                        },
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
        let parts = parts.into_iter().collect::<Result<Vec<_>, _>>()?;
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

    /// Rebuilds the trace of a finding by walking parents back and replaying forwards.
    fn trace(&self, prop: &Property<M>, finding: Finding) -> Result<Trace<M>, CheckError> {
        let (target, last) = match finding {
            Finding::State(r) => (r, None),
            Finding::Edge { from, action, fp } => (from, Some((action, fp))),
        };
        let mut path = Vec::new();
        let mut entry = self.visited.entry(target);
        while let Some(parent) = entry.parent {
            path.push((entry.action, entry.fingerprint));
            entry = self.visited.entry(parent);
        }
        path.reverse();
        path.extend(last);
        let ctx = self.ctx();
        catch(
            || {
                replay_checked(
                    self.model,
                    |s| ctx.fp(s),
                    prop.name,
                    entry.action as usize,
                    entry.fingerprint,
                    &path,
                )
            },
            || format!("while replaying the trace of property `{}`", prop.name),
        )
    }
}
