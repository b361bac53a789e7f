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
//! The frontier is kept as a list of parts rather than one vector, so that building the next one
//! never copies it whole (see `frontier`).
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
//!
//! This module holds the [`Checker`] builder and the search loop; `level` runs the phases of one
//! level, `expand` is phase 1 for one chunk, and `frontier` holds the frontier and the state
//! buffers it recycles.

mod expand;
mod frontier;
mod level;

use crate::error::CheckError;
use crate::fingerprint::fingerprint;
use crate::forest;
use crate::memory::{self, Budget};
use crate::model::{Expectation, Model, Property};
use crate::result::{CheckResult, Outcome, PropertyResult, StopReason, Violation};
use crate::stats::{peak_memory_bytes, LevelProgress, Stats};
use crate::trace::{replay_checked, Trace};
use crate::visited::{StateRef, VisitedSet};
use frontier::{Frontier, Part, Spare};
use std::any::Any;
use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
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
    /// This shard (0-based) and the number of shards, for models with independent initial
    /// states.
    shard: (u32, u32),
    progress_every: std::time::Duration,
    collapse_forced: bool,
    search_order: forest::SearchOrder,
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
            shard: (0, 1),
            progress_every: forest::PROGRESS_EVERY,
            collapse_forced: true,
            search_order: forest::SearchOrder::Auto,
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

    /// With independent initial states (see [`Model::independent_inits`]), how often a
    /// progress line (scenarios done of the total, states, memory against the budget) is
    /// printed to stderr while `report_progress` is on, terminal or not; default
    /// [`forest::PROGRESS_EVERY`].
    pub fn progress_every(mut self, every: std::time::Duration) -> Self {
        self.progress_every = every;
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

    /// Whether to follow runs of forced steps (see [`Model::forced`]) without storing their
    /// states (true, the default); only the search of independent initial states does. The
    /// verdicts, traces and states visited are the same either way; `Stats::states_stored`
    /// and the memory are not.
    pub fn collapse_forced(mut self, on: bool) -> Self {
        self.collapse_forced = on;
        self
    }

    /// How each scenario of a model with independent initial states is explored (default
    /// [`forest::SearchOrder::Auto`]: depth-first for a tree-shaped scenario, see
    /// [`Model::tree_shaped`]). The results are the same either way, but for
    /// `Stats::states_stored` (0 depth-first), the visited set's size and the memory.
    pub fn search_order(mut self, order: forest::SearchOrder) -> Self {
        self.search_order = order;
        self
    }

    /// Explores only shard `k` of `n` (0-based) of the initial states, for [`Checker::run_part`]:
    /// the distinct initial states at positions `k, k + n, ...`. Only for models with
    /// independent initial states ([`Model::independent_inits`]); `run` ignores it.
    pub fn shard(mut self, k: u32, n: u32) -> Self {
        self.shard = (k, n);
        self
    }

    /// Runs the search to completion (or to a limit) and returns every property's verdict.
    ///
    /// For a model with independent initial states ([`Model::independent_inits`]) the
    /// scenarios are explored one per thread (see `crate::forest`), with the same results.
    /// A panic in model code becomes [`CheckError::ModelPanicked`] (the default panic hook
    /// still prints it); this needs the default `panic = "unwind"`.
    pub fn run(mut self) -> Result<CheckResult<M>, CheckError> {
        let props = self.properties()?;
        let pool = self.pool()?;
        if self.model.independent_inits() {
            self.shard = (0, 1);
            let stop_first = self.stop_on_first_violation;
            let ctx = Ctx {
                model: self.model,
                props: &props,
                symmetry: self.symmetry,
            };
            let part = forest::run_part(ctx, self.forest_options(), &pool)?;
            return forest::combine::combine(ctx, vec![part], stop_first);
        }
        let threads = pool.current_num_threads();
        pool.install(move || Search::new(self, props, threads).run())
    }

    /// Explores this checker's shard (see [`Checker::shard`]) and returns its summaries, to be
    /// combined with the other shards' by [`Checker::merge`]. Errors with
    /// [`CheckError::NotIndependent`] unless the model declares independent initial states.
    pub fn run_part(mut self) -> Result<forest::Part, CheckError> {
        if !self.model.independent_inits() {
            return Err(CheckError::NotIndependent);
        }
        let (k, n) = self.shard;
        if n == 0 || k >= n {
            return Err(CheckError::PartsMismatch(format!(
                "shard {} of {n} does not exist",
                k + 1
            )));
        }
        let props = self.properties()?;
        let pool = self.pool()?;
        let ctx = Ctx {
            model: self.model,
            props: &props,
            symmetry: self.symmetry,
        };
        forest::run_part(ctx, self.forest_options(), &pool)
    }

    /// The result of one run from the parts of all its shards (see [`Checker::run_part`]):
    /// exactly what [`Checker::run`] gives, but for the time and memory figures (the shards'
    /// seconds summed, their peak memory's maximum).
    pub fn merge(self, parts: Vec<forest::Part>) -> Result<CheckResult<M>, CheckError> {
        let props = self.properties()?;
        let ctx = Ctx {
            model: self.model,
            props: &props,
            symmetry: self.symmetry,
        };
        forest::combine::combine(ctx, parts, self.stop_on_first_violation)
    }

    fn properties(&self) -> Result<Vec<Property<M>>, CheckError> {
        let model = self.model;
        let props = catch(
            || Ok(model.properties()),
            || "while listing the properties".into(),
        )?;
        if props.is_empty() {
            return Err(CheckError::NoProperties);
        }
        Ok(props)
    }

    fn pool(&self) -> Result<rayon::ThreadPool, CheckError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .thread_name(|i| format!("rbcheck-worker-{i}"))
            .build()
            .map_err(|e| CheckError::ThreadPool(e.to_string()))
    }

    fn forest_options(&mut self) -> forest::Options {
        forest::Options {
            shard: self.shard,
            max_states: self.max_states,
            collapse_forced: self.collapse_forced,
            depth_first: self.search_order == forest::SearchOrder::Auto,
            progress_every: self.report_progress.then_some(self.progress_every),
            budget: Budget::new(
                self.memory_limit
                    .take()
                    .unwrap_or_else(memory::default_limit),
            ),
        }
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
pub(crate) struct Ctx<'a, M: Model> {
    pub(crate) model: &'a M,
    pub(crate) props: &'a [Property<M>],
    pub(crate) symmetry: bool,
}

impl<M: Model> Clone for Ctx<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M: Model> Copy for Ctx<'_, M> {}

impl<M: Model> Ctx<'_, M> {
    #[inline]
    pub(crate) fn fp(&self, s: &M::State) -> u64 {
        if self.symmetry {
            self.model.fingerprint(s)
        } else {
            fingerprint(s)
        }
    }

    /// The active state properties that hit on `state`, as bits in `active` order.
    #[inline]
    pub(crate) fn hits(&self, active: &[usize], state: &M::State) -> u64 {
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
pub(crate) fn catch<T>(
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

/// A property's result record.
pub(crate) fn result<M: Model>(prop: &Property<M>, outcome: Outcome<M>) -> PropertyResult<M> {
    PropertyResult {
        name: prop.name,
        rule: prop.rule,
        doc: prop.doc,
        expectation: prop.expectation,
        outcome,
    }
}

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
            states_stored: states,
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
            address_ceiling_at_stop_bytes: self
                .budget
                .address_ceiling()
                .filter(|_| stop == StopReason::MemoryLimit && self.budget.exceeded_by_address()),
            visited_bytes: self.visited.heap_bytes(),
            bytes_per_state: self.visited.bytes_per_state(),
        };
        Ok(CheckResult {
            properties,
            complete,
            stop,
            cycles_checked: has_terminates && !self.progress_missing && !self.progress_skipped,
            stats,
            found_in: vec![vec![]; self.ctx().props.len()],
            symmetry: self.ctx().symmetry,
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
