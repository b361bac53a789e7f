//! Driving third-party engines with cases: the protocol `rbcheck-engine/2` (JSON lines over an
//! engine process's stdin/stdout, `corpus/PROTOCOL.md`), the [`Engine`] trait with the model
//! and child processes behind it, the comparison of an engine's answer with the model's, and
//! the fuzzer that generates cases, shrinks disagreements and groups them by kind.

// Every unsafe block says why it is sound, one operation at a time.
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]

pub mod capability;
pub mod clauses;
pub mod compare;
pub mod conformance;
pub mod fuzz;
pub mod gen;
pub mod model_engine;
pub mod observe;
pub mod process;
pub mod protocol;
pub mod score;
pub mod serve;
pub mod spectrum;
pub mod triage;

pub use compare::{compare, Comparison, Difference};
pub use model_engine::ModelEngine;
pub use process::ProcessEngine;
pub use protocol::{CaseRequest, Fault, Hello, Observation, Reply, PROTOCOL};

/// An engine that runs cases: the model in process, or a child process speaking the protocol.
pub trait Engine {
    /// Who the engine is and what it supports (the handshake).
    fn hello(&mut self) -> Result<Hello, Fault>;
    /// Runs one case.
    fn run(&mut self, req: &CaseRequest) -> Reply;
}
