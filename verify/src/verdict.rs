//! The verdict of a check: what the checker's outcomes, the fields exercised and the witnesses
//! missed add up to, in one place, for every report and for the exit code.

use crate::exercise::{AutoChoice, Exercise};
use checker::{CheckResult, Expectation, Outcome, Trace};
use properties::RepeatSystem;
use serde::Serialize;

/// A property left out because it cannot apply to the rules checked.
#[derive(Clone, Debug, Serialize)]
pub struct NotApplicable {
    /// The property.
    pub name: &'static str,
    /// Its rule.
    pub rule: &'static str,
    /// Why it cannot apply.
    pub why: &'static str,
}

/// A witness the run never reached, and whether the rulebook's edit is why.
#[derive(Clone, Debug, Serialize)]
pub struct WitnessMiss {
    /// The witness.
    pub name: &'static str,
    /// What the run under the edit's base found on the same scenarios.
    pub base: BaseRun,
}

/// What the run under an edit's base found for a witness the edit's run missed.
#[derive(Clone, Debug, Serialize)]
pub enum BaseRun {
    /// The base misses it too (or there is no edit): the bound never reaches it.
    Misses,
    /// The base (named) reaches it: the edit made it unreachable.
    Reaches(String),
    /// Unknown: the run under the base (named) stopped before reaching it, for the reason
    /// given (a memory budget); neither "unreachable" nor "never reached" can be said.
    Stopped {
        /// The base rulebook.
        base: String,
        /// Why its run stopped.
        why: String,
    },
}

impl WitnessMiss {
    /// The rulebook that reaches the witness on the same scenarios, if one does.
    pub fn reached_under(&self) -> Option<&String> {
        match &self.base {
            BaseRun::Reaches(b) => Some(b),
            _ => None,
        }
    }

    /// Whether no rulebook reaches it on these scenarios: the bound never does.
    pub fn never_reached(&self) -> bool {
        matches!(self.base, BaseRun::Misses)
    }
}

/// Per violated property, the counterexamples after its shortest.
pub type MoreCounterexamples = Vec<(&'static str, Vec<Trace<RepeatSystem>>)>;

/// What a check established besides the checker's verdicts (none of it for a merge of parts).
#[derive(Clone, Debug, Default)]
pub struct Judgement {
    /// The bound's name (`auto` for a choice).
    pub bound: String,
    /// The rulebook as the command line named it (a preset or a path), for the commands a
    /// report suggests.
    pub rules_arg: String,
    /// How `--bound auto` chose the scenarios.
    pub auto: Option<AutoChoice>,
    /// The fields the rulebook changes, and where each decided a step.
    pub exercise: Exercise,
    /// Properties left out as inapplicable to the rules.
    pub not_applicable: Vec<NotApplicable>,
    /// Witnesses never reached, each with whether the edit made it so.
    pub misses: Vec<WitnessMiss>,
    /// Per property with several counterexamples asked for (`--counterexamples N`), the ones
    /// after the shortest, distinct by the rule steps they take.
    pub more: MoreCounterexamples,
}

/// The run's verdict, from the most serious down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Some invariant is violated, or the edit made a witness unreachable (exit 1).
    Failed {
        /// Properties violated (invariants and termination).
        violated: usize,
        /// Witnesses the edit made unreachable.
        unreachable: usize,
    },
    /// No violation, but the run stopped before deciding everything (exit 0, marked partial).
    Partial,
    /// No violation, but the run looked at less than it judges: a changed field decided no
    /// step, or a witness was reached under neither rulebook (exit 3).
    NotExercised,
    /// Every property holds, every witness was reached, every changed field was exercised.
    Holds,
}

/// The exit code of a check whose properties all hold but which left something unexercised.
pub const NOT_EXERCISED_EXIT: u8 = 3;

impl Judgement {
    /// The verdict of `result` with what this judgement adds.
    pub fn verdict(&self, result: &CheckResult<RepeatSystem>) -> Verdict {
        let violated = result
            .properties
            .iter()
            .filter(|p| p.expectation != Expectation::Sometimes && p.outcome.is_failure())
            .count();
        let unreachable = self
            .misses
            .iter()
            .filter(|m| m.reached_under().is_some())
            .count();
        if violated + unreachable > 0 {
            return Verdict::Failed {
                violated,
                unreachable,
            };
        }
        let undecided = |m: &WitnessMiss| matches!(m.base, BaseRun::Stopped { .. });
        if result
            .properties
            .iter()
            .any(|p| matches!(p.outcome, Outcome::Unknown))
            || self.misses.iter().any(undecided)
        {
            return Verdict::Partial;
        }
        let missed = self.misses.iter().any(WitnessMiss::never_reached);
        if missed || !self.exercise.unexercised().is_empty() {
            return Verdict::NotExercised;
        }
        Verdict::Holds
    }

    /// The miss recorded for witness `name`, if it was missed.
    pub fn miss(&self, name: &str) -> Option<&WitnessMiss> {
        self.misses.iter().find(|m| m.name == name)
    }
}

impl Verdict {
    /// The process exit code: 0 holds (or partial), 1 failed, 3 not exercised.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Failed { .. } => 1,
            Verdict::NotExercised => NOT_EXERCISED_EXIT,
            Verdict::Partial | Verdict::Holds => 0,
        }
    }

    /// The verdict in words, as the reports end.
    pub fn words(self, j: &Judgement) -> String {
        match self {
            Verdict::Failed {
                violated,
                unreachable,
            } => {
                let mut parts = vec![];
                if violated > 0 {
                    parts.push(format!(
                        "{violated} propert{} violated",
                        if violated == 1 { "y" } else { "ies" }
                    ));
                }
                if unreachable > 0 {
                    parts.push(format!(
                        "{unreachable} witness{} made unreachable by the rulebook",
                        if unreachable == 1 { "" } else { "es" }
                    ));
                }
                parts.join(", ")
            }
            Verdict::Partial => "no violation found so far (partial run)".into(),
            Verdict::NotExercised => {
                let fields: Vec<&str> = j
                    .exercise
                    .unexercised()
                    .iter()
                    .map(|f| f.field.as_str())
                    .collect();
                let missed: Vec<&str> = j
                    .misses
                    .iter()
                    .filter(|m| m.never_reached())
                    .map(|m| m.name)
                    .collect();
                let mut what = vec![];
                if !fields.is_empty() {
                    what.push(format!(
                        "the changed field{} {} decide{} no step in this bound",
                        if fields.len() == 1 { "" } else { "s" },
                        fields.join(", "),
                        if fields.len() == 1 { "s" } else { "" }
                    ));
                }
                if !missed.is_empty() {
                    what.push(format!("never reached: {}", missed.join(", ")));
                }
                format!(
                    "NOT EXERCISED: no property is violated, but {}",
                    what.join("; ")
                )
            }
            Verdict::Holds => "every property holds".into(),
        }
    }
}
