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
//! This module holds the search loop; `level` runs the phases of one level, `expand` is phase 1
//! for one chunk, and `frontier` holds the frontier and the state buffers it recycles.

mod expand;
mod frontier;
mod level;

use crate::ctx::{catch, result, Ctx};
use crate::error::CheckError;
use crate::memory::Budget;
use crate::model::{Expectation, Model, Property};
use crate::result::{CheckResult, Outcome, PropertyResult, StopReason, Violation};
use crate::stats::{peak_memory_bytes, LevelProgress, Stats};
use crate::trace::{replay_checked, Trace};
use crate::visited::{StateRef, VisitedSet};
use frontier::{Frontier, Part, Spare};
use std::io::IsTerminal;
use std::time::Instant;

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

/// A progress callback, called between levels on one thread.
pub(crate) type LevelCallback<'a> = Box<dyn FnMut(&LevelProgress) + Send + 'a>;

/// What the builder asks of a breadth-first run.
pub(crate) struct Options<'a> {
    pub(crate) symmetry: bool,
    pub(crate) max_states: Option<usize>,
    pub(crate) stop_on_first_violation: bool,
    pub(crate) report_progress: bool,
    pub(crate) on_level: Option<LevelCallback<'a>>,
    pub(crate) budget: Budget,
}

/// Runs the breadth-first search of `model` (on the current rayon pool of `threads` workers).
pub(crate) fn run<M: Model>(
    model: &M,
    options: Options<'_>,
    props: Vec<Property<M>>,
    threads: usize,
) -> Result<CheckResult<M>, CheckError> {
    Search::new(model, options, props, threads).run()
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
    fn new(model: &'a M, c: Options<'a>, props: Vec<Property<M>>, threads: usize) -> Self {
        let n = props.len();
        Search {
            model,
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
            budget: c.budget,
            start: Instant::now(),
        }
    }

    fn ctx(&self) -> Ctx<'_, M> {
        Ctx {
            model: self.model,
            props: &self.props,
            fused: None,
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
