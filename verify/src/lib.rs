//! Checking Riftbound rulebooks over bounds: `check` (the properties over every scenario, with
//! `--bound auto` for an edit), `diff` (two rulebooks compared), `cases` (a conformance suite),
//! shards and their merge, the verdicts and their reports (text and JSON), the exports (case
//! files, ITF, DOT) and the output folders they are written to. The `rbcheck` command parses
//! arguments, calls these and prints; case files and engine fuzzing are the `rbcheck-case` and
//! `rbcheck-engine` crates, re-exported here as [`case`] and [`engine`].

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
pub mod inputs;
pub mod outdir;
pub mod progress;
pub mod report;
pub mod shard;
pub mod verdict;

pub use error::Error;
pub use rbcheck_case as case;
pub use rbcheck_case::read;
pub use rbcheck_engine as engine;
