//! The `rbcheck` library: checking a rulebook over a bound and its reports, counterexample
//! exports, conformance suites and rulebook diffs. Case files (`rbcheck-case`) and engine
//! fuzzing (`rbcheck-engine`) are crates of their own, re-exported here as [`case`] and
//! [`engine`]. The command itself (`main.rs`) parses arguments, calls these and prints.

// Every unsafe block says why it is sound, one operation at a time.
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]

pub mod bounds;
pub mod cases;
pub mod check;
pub mod diff;
pub mod error;
pub mod exercise;
pub mod export;
pub mod findings;
pub mod html;
pub mod inputs;
pub mod outdir;
pub mod progress;
pub mod report;
pub mod rules;
pub mod shard;
pub mod verdict;

pub use error::Error;
pub use rbcheck_case as case;
pub use rbcheck_case::read;
pub use rbcheck_engine as engine;
