//! A generic, parallel, level-synchronous explicit-state model checker.
//!
//! A [`Model`] describes states, actions and [`Property`] values; a [`Checker`] explores every
//! reachable state breadth-first on a dedicated thread pool and returns a [`CheckResult`] with
//! one [`Outcome`] per property. Results (counts, verdicts, traces) are identical for every
//! thread count, and counterexamples are shortest. The one exception is a run stopped by the
//! memory budget ([`StopReason::MemoryLimit`], on by default: see [`Checker::memory_limit`]),
//! whose stopping point depends on timing; what it does report is still exact and shortest.
//! A panic in model code is returned as [`CheckError::ModelPanicked`].
//!
//! ```
//! use checker::{CheckerExt, Model, Outcome, Property};
//!
//! struct Count;
//! impl Model for Count {
//!     type State = u8;
//!     type Action = ();
//!     fn init_states(&self) -> Vec<u8> { vec![0] }
//!     fn actions(&self, s: &u8, out: &mut Vec<()>) { if *s < 5 { out.push(()) } }
//!     fn next_state(&self, s: &u8, _: &()) -> Option<u8> { Some(s + 1) }
//!     fn properties(&self) -> Vec<Property<Self>> {
//!         vec![Property::always("below 3", "-", "never reaches 3", |_, s| *s < 3)]
//!     }
//! }
//!
//! let result = Count.checker().threads(1).run().unwrap();
//! let Outcome::Violated { trace, .. } = result.outcome("below 3") else { panic!() };
//! assert_eq!(trace.len(), 3);
//! ```

// Every unsafe block says why it is sound, one operation at a time.
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]
#![warn(missing_docs)]

pub mod bfs;
pub mod builder;
mod ctx;
pub mod error;
pub mod fingerprint;
pub mod forest;
pub mod graph;
pub mod memory;
pub mod model;
pub mod prng;
pub mod result;
pub mod stats;
pub mod trace;
pub mod visited;

pub use builder::{Checker, CheckerExt};
pub use error::CheckError;
pub use fingerprint::{fingerprint, FpBuildHasher, FpHasher};
pub use forest::{Part, PartStop, ProgressSink, ScenarioProgress, SearchOrder, ShardPlan, Summary};
pub use graph::StateGraph;
pub use model::{Expectation, Model, Property};
pub use result::{CheckResult, Outcome, PropertyResult, ScenarioFinding, StopReason, Violation};
pub use stats::{LevelProgress, Stats};
pub use trace::{Hop, Step, Trace};
pub use visited::{StateRef, VisitedSet};
