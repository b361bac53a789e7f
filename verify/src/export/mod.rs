//! Counterexamples in the formats other tools read: JSON steps (here), ITF (the Informal Trace
//! Format of Apalache and Quint, [`itf`]) and DOT (Graphviz, [`dot`], which also draws
//! `rbcheck graph`'s state graphs). Case files are written by `crate::cases`.

mod dot;
mod itf;

pub use self::dot::{dot, graph_dot};
pub use self::itf::{
    itf, itf_trace, BigInt, ItfChoice, ItfGear, ItfItem, ItfOption, ItfPhase, ItfPlayer, ItfPool,
    ItfState, ItfTrace, ItfUnit, Picks, StateMeta, TraceMeta, Unit, VARS,
};

use crate::report::{steps, Step};
use checker::Trace;
use properties::RepeatSystem;
use serde::Serialize;

/// The `--traces` JSON file of one counterexample: the property and the trace's steps.
#[derive(Clone, Debug, Serialize)]
pub struct StepsFile {
    /// The property violated.
    pub property: String,
    /// The rule it checks.
    pub rule: String,
    /// The trace.
    pub steps: Vec<Step>,
}

/// A trace's steps as the `--traces` JSON file.
pub fn steps_file(
    sys: &RepeatSystem,
    trace: &Trace<RepeatSystem>,
    property: &str,
    rule: &str,
) -> String {
    let file = StepsFile {
        property: property.into(),
        rule: rule.into(),
        steps: steps(sys, trace),
    };
    serde_json::to_string(&file).expect("a trace serialises")
}
