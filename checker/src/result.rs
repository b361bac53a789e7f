//! What a run established: one outcome per property, plus statistics.

use crate::error::CheckError;
use crate::model::{Expectation, Model};
use crate::stats::Stats;
use crate::trace::{replay_from, Hop, Trace};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a property was violated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Violation {
    /// An `Always` condition is false in the trace's last state.
    Invariant,
    /// A `Terminates` condition is false in the trace's last state, which has no successor.
    FinalState,
    /// The trace's last transition does not increase `Model::progress`: an infinite path may
    /// exist, so termination is not established.
    PossibleCycle,
}

/// The verdict on one property.
pub enum Outcome<M: Model> {
    /// Proven over the whole reachable state space: only given by a complete run
    /// ([`StopReason::Exhausted`]). For `Terminates`, infinite paths are ruled out only if
    /// [`CheckResult::cycles_checked`].
    Holds,
    /// A shortest trace to a violation.
    Violated {
        /// What kind of violation the trace shows.
        kind: Violation,
        /// The trace, ending in the violating state (or transition).
        trace: Trace<M>,
    },
    /// A `Sometimes` condition holds at the end of this shortest trace.
    Witnessed {
        /// The trace to the first state found satisfying the condition.
        trace: Trace<M>,
    },
    /// A `Sometimes` condition holds in no reachable state (a failure); only given by a
    /// complete run.
    NeverReached,
    /// The run stopped early without deciding: not violated (or not witnessed) so far.
    Unknown,
}

impl<M: Model> Outcome<M> {
    /// Whether the verdict is a failure of the property (violated or never reached).
    pub fn is_failure(&self) -> bool {
        matches!(self, Outcome::Violated { .. } | Outcome::NeverReached)
    }

    /// Whether the verdict is a success (holds or witnessed).
    pub fn is_success(&self) -> bool {
        matches!(self, Outcome::Holds | Outcome::Witnessed { .. })
    }

    /// The counterexample or witness, if any.
    pub fn trace(&self) -> Option<&Trace<M>> {
        match self {
            Outcome::Violated { trace, .. } | Outcome::Witnessed { trace } => Some(trace),
            _ => None,
        }
    }

    /// A short lowercase label ("holds", "violated", "witnessed", "never reached", "unknown").
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Holds => "holds",
            Outcome::Violated { .. } => "violated",
            Outcome::Witnessed { .. } => "witnessed",
            Outcome::NeverReached => "never reached",
            Outcome::Unknown => "unknown",
        }
    }
}

/// A property with its verdict.
pub struct PropertyResult<M: Model> {
    /// The property's name.
    pub name: &'static str,
    /// The rule it checks.
    pub rule: &'static str,
    /// What it means.
    pub doc: &'static str,
    /// What had to be established.
    pub expectation: Expectation,
    /// What was established.
    pub outcome: Outcome<M>,
}

/// Why the search stopped.
///
/// Only [`StopReason::Exhausted`] is a complete run, the only kind that can prove a property
/// (`Holds`, including every `Terminates` property that holds) or show that a witness is never
/// reached. Every other stop leaves states unexplored: verdicts found before it (violations,
/// witnesses) are definitive and shortest, and the rest are `Unknown`. All stops but
/// [`StopReason::MemoryLimit`] happen at the same point for every thread count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// Every reachable state was explored: the run is complete.
    Exhausted,
    /// Every property already had a definitive verdict (violated or witnessed): incomplete,
    /// but no verdict is `Unknown`.
    AllDecided,
    /// A property was violated and `stop_on_first_violation` was set: incomplete.
    FirstViolation,
    /// The `max_states` limit was reached: incomplete.
    MaxStates,
    /// Resident memory exceeded the budget (`Checker::memory_limit`), so the level being
    /// expanded was discarded: incomplete. [`Stats::max_depth`] and [`Stats::states`] describe
    /// the completed levels. Where this happens depends on timing and thread count.
    MemoryLimit,
}

/// The result of a run.
pub struct CheckResult<M: Model> {
    /// One verdict per property, in `Model::properties` order.
    pub properties: Vec<PropertyResult<M>>,
    /// Whether every reachable state was explored (`stop` is [`StopReason::Exhausted`]). If
    /// not, properties neither violated nor witnessed are `Unknown`: in particular a
    /// `Terminates` or `Always` property can only be `Holds` in a complete run.
    pub complete: bool,
    /// Why the search stopped (see [`StopReason`] for which stops are complete).
    pub stop: StopReason,
    /// Whether `Model::progress` was defined on every expanded state, so that `Terminates`
    /// properties were also checked for cycles. If false, a `Terminates` property that holds was
    /// only checked on final states: infinite paths are not ruled out.
    pub cycles_checked: bool,
    /// Counts and costs.
    pub stats: Stats,
    /// Per property (in `Model::properties` order), every scenario whose search settled it
    /// (violated or witnessed it), in initial-state order: how many scenarios reach a situation,
    /// and more counterexamples than the shortest. Each scenario is searched whole, so this
    /// holds the findings past a stop between levels too (`AllDecided`, `FirstViolation`). Empty
    /// for models without independent initial states (`Model::independent_inits`).
    pub found_in: Vec<Vec<ScenarioFinding>>,
    /// Whether the search deduplicated by `Model::fingerprint` (symmetry), which replaying a
    /// finding checks against.
    pub symmetry: bool,
}

/// A property's first finding in one scenario.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Found {
    /// Levels expanded when it was found: 0 for the initial state, `d + 1` for a state at depth
    /// `d + 1` or a final state or cycle edge at depth `d`.
    pub level: u32,
    /// Whether it is a transition that does not increase progress (which ranks after a failing
    /// final state found at the same level).
    pub edge: bool,
    /// The steps from the initial state, forced steps folded (see `Model::forced`).
    pub path: Vec<Hop>,
}

impl Found {
    pub(crate) fn state(level: u32, path: Vec<Hop>) -> Self {
        Found {
            level,
            edge: false,
            path,
        }
    }
}

/// Where one scenario's search first settled a property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioFinding {
    /// The scenario's initial state: its index in `Model::init_states`.
    pub init: usize,
    /// That initial state's fingerprint.
    pub init_fp: u64,
    /// The level and the path of the finding.
    pub found: Found,
}

impl<M: Model> CheckResult<M> {
    /// The trace of a finding, replayed from its initial state (`inits` is
    /// `model.init_states()`, built once by a caller replaying several).
    pub fn replay_finding(
        &self,
        model: &M,
        inits: &[M::State],
        property: &str,
        f: &ScenarioFinding,
    ) -> Result<Trace<M>, CheckError> {
        let Some(init) = inits.get(f.init) else {
            return Err(CheckError::ModelNotDeterministic {
                property: property.to_string(),
                step: 0,
                detail: format!(
                    "init_states now returns {} states, fewer than the recorded index {}",
                    inits.len(),
                    f.init
                ),
            });
        };
        let fp = |s: &M::State| match self.symmetry {
            true => model.fingerprint(s),
            false => crate::fingerprint(s),
        };
        replay_from(
            model,
            fp,
            property,
            (f.init, init.clone(), f.init_fp),
            &f.found.path,
        )
    }

    /// The result of the property named `name`.
    pub fn property(&self, name: &str) -> Option<&PropertyResult<M>> {
        self.properties.iter().find(|p| p.name == name)
    }

    /// The outcome of the property named `name` (panics if there is none: for tests and tools
    /// that name properties they defined).
    pub fn outcome(&self, name: &str) -> &Outcome<M> {
        &self
            .property(name)
            .unwrap_or_else(|| panic!("no property named {name}"))
            .outcome
    }

    /// Whether every property was proven or witnessed.
    pub fn all_pass(&self) -> bool {
        self.properties.iter().all(|p| p.outcome.is_success())
    }

    /// A one-line account of why and where the search stopped, for reports, e.g.
    /// "stopped: memory limit of 12.00 GiB reached at depth 7 after 1234567 states".
    pub fn stop_message(&self) -> String {
        let s = &self.stats;
        let at = format!("at depth {} after {} states", s.max_depth, s.states);
        match self.stop {
            StopReason::Exhausted => format!("complete: every reachable state explored ({at})"),
            StopReason::AllDecided => format!("stopped: every property decided {at}"),
            StopReason::FirstViolation => format!("stopped: first violation found {at}"),
            StopReason::MaxStates => format!("stopped: state limit reached {at}"),
            StopReason::MemoryLimit => {
                match (s.address_ceiling_at_stop_bytes, s.memory_limit_bytes) {
                    (Some(cap), _) => format!(
                        "stopped: address space reached {} (70 % of the process's ulimit -v) {at}",
                        crate::memory::format_bytes(cap)
                    ),
                    (None, limit) => match limit {
                        Some(limit) => {
                            format!(
                                "stopped: memory limit of {} reached {at}",
                                crate::memory::format_bytes(limit)
                            )
                        }
                        None => format!("stopped: memory limit reached {at}"),
                    },
                }
            }
        }
    }
}

impl<M: Model> Clone for Outcome<M> {
    fn clone(&self) -> Self {
        match self {
            Outcome::Holds => Outcome::Holds,
            Outcome::Violated { kind, trace } => Outcome::Violated {
                kind: *kind,
                trace: trace.clone(),
            },
            Outcome::Witnessed { trace } => Outcome::Witnessed {
                trace: trace.clone(),
            },
            Outcome::NeverReached => Outcome::NeverReached,
            Outcome::Unknown => Outcome::Unknown,
        }
    }
}

impl<M: Model> fmt::Debug for Outcome<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Holds => write!(f, "Holds"),
            Outcome::Violated { kind, trace } => f
                .debug_struct("Violated")
                .field("kind", kind)
                .field("trace", trace)
                .finish(),
            Outcome::Witnessed { trace } => {
                f.debug_struct("Witnessed").field("trace", trace).finish()
            }
            Outcome::NeverReached => write!(f, "NeverReached"),
            Outcome::Unknown => write!(f, "Unknown"),
        }
    }
}

impl<M: Model> PartialEq for Outcome<M> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Outcome::Violated { kind: a, trace: s }, Outcome::Violated { kind: b, trace: t }) => {
                a == b && s == t
            }
            (Outcome::Witnessed { trace: s }, Outcome::Witnessed { trace: t }) => s == t,
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

impl<M: Model> Clone for PropertyResult<M> {
    fn clone(&self) -> Self {
        PropertyResult {
            outcome: self.outcome.clone(),
            ..*self
        }
    }
}

impl<M: Model> fmt::Debug for PropertyResult<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PropertyResult")
            .field("name", &self.name)
            .field("rule", &self.rule)
            .field("expectation", &self.expectation)
            .field("outcome", &self.outcome)
            .finish()
    }
}

impl<M: Model> Clone for CheckResult<M> {
    fn clone(&self) -> Self {
        CheckResult {
            properties: self.properties.clone(),
            stats: self.stats.clone(),
            found_in: self.found_in.clone(),
            ..*self
        }
    }
}

impl<M: Model> fmt::Debug for CheckResult<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CheckResult")
            .field("properties", &self.properties)
            .field("complete", &self.complete)
            .field("stop", &self.stop)
            .field("cycles_checked", &self.cycles_checked)
            .field("stats", &self.stats)
            .finish()
    }
}
