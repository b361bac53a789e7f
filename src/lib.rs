//! The `rbcheck` library: checking a rulebook over a bound and its reports, counterexample
//! exports, conformance suites, rulebook diffs, case files (parse, print, replay) and the engine
//! protocol. The command itself (`main.rs`) parses arguments, calls these and prints.

// Every unsafe block says why it is sound, one operation at a time.
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]

pub mod bounds;
pub mod case;
pub mod cases;
pub mod check;
pub mod diff;
pub mod engine;
pub mod error;
pub mod exercise;
pub mod export;
pub mod findings;
pub mod html;
pub mod inputs;
pub mod outdir;
pub mod progress;
pub mod read;
pub mod report;
pub mod rules;
pub mod shard;
pub mod verdict;

pub use error::Error;
