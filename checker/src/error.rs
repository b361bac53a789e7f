//! Why a check could not produce a result.

use std::fmt;

/// A failure of the checker itself or of the model's contract (as opposed to a property
/// verdict, which is a normal result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// `Model::properties` returned nothing: a run would prove nothing.
    NoProperties,
    /// `Model::init_states` returned nothing: there is nothing to explore.
    NoInitialStates,
    /// Re-executing a recorded trace did not reproduce the states seen during the search, so
    /// the model's transitions (or its fingerprint) depend on something outside the state.
    ModelNotDeterministic {
        /// The property whose trace was being rebuilt.
        property: String,
        /// The step that diverged (0 is the initial state).
        step: usize,
        /// What differed.
        detail: String,
    },
    /// The visited set is full (see `visited::MAX_STATES`).
    TooManyStates {
        /// The number of states the set can hold.
        limit: usize,
    },
    /// An action index or initial-state index does not fit the 32 bits stored per state.
    TooManyActions,
    /// The state graph has more states than the limit given to `graph::explore`.
    GraphTooLarge {
        /// The limit that was exceeded.
        limit: usize,
    },
    /// A state `Model::forced` declared forced did not have exactly that one action.
    ForcedStepMismatch {
        /// The step of the trace being rebuilt (0 is the initial state) and what was found.
        detail: String,
    },
    /// The worker thread pool could not be created.
    ThreadPool(String),
    /// Shard parts that are not the shards of one run (see `Checker::merge`).
    PartsMismatch(String),
    /// Sharding needs a model with independent initial states (`Model::independent_inits`).
    NotIndependent,
    /// A model declaring a tree-shaped state space (`Model::tree_shaped`) broke what the
    /// depth-first search checks of it: a state without a progress value, or a transition that
    /// does not increase progress.
    NotTreeShaped {
        /// Which state or transition, and what was found.
        detail: String,
    },
    /// Model code (`init_states`, `actions`, `next_state`, `fingerprint`, `progress`, a property
    /// condition...) panicked; the run was abandoned.
    ModelPanicked {
        /// Where it happened (the depth of the state being processed, if known) and the panic
        /// message.
        detail: String,
    },
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::NoProperties => write!(f, "the model has no properties to check"),
            CheckError::NoInitialStates => write!(f, "the model has no initial states"),
            CheckError::ModelNotDeterministic {
                property,
                step,
                detail,
            } => write!(
                f,
                "model is not deterministic: replaying the trace of property `{property}` \
                 diverged at step {step}: {detail}"
            ),
            CheckError::TooManyStates { limit } => {
                write!(
                    f,
                    "more than {limit} distinct states: the visited set is full"
                )
            }
            CheckError::TooManyActions => {
                write!(
                    f,
                    "an action or initial-state index does not fit in 32 bits"
                )
            }
            CheckError::GraphTooLarge { limit } => {
                write!(f, "the state graph has more than {limit} states")
            }
            CheckError::ForcedStepMismatch { detail } => write!(
                f,
                "the model declared a forced step that is not the state's only action: {detail}"
            ),
            CheckError::PartsMismatch(m) => write!(f, "cannot merge the parts: {m}"),
            CheckError::NotIndependent => write!(
                f,
                "the model does not declare independent initial states, so it cannot be split into shards"
            ),
            CheckError::NotTreeShaped { detail } => write!(
                f,
                "the model declares a tree-shaped state space, but {detail}; the depth-first \
                 search needs progress to increase on every transition (the breadth-first \
                 search does not)"
            ),
            CheckError::ThreadPool(e) => write!(f, "cannot start the worker threads: {e}"),
            CheckError::ModelPanicked { detail } => write!(f, "the model panicked {detail}"),
        }
    }
}

impl std::error::Error for CheckError {}
