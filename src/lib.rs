//! The `rbcheck` command's library: the HTML reports, the rulebook listing and the writer of
//! fuzzing findings, over the crates that do the work, re-exported here so that one path
//! reaches everything: [`check`], [`diff`], [`cases`] and the rest from `rbcheck-verify`,
//! [`case`] (`rbcheck-case`) and [`engine`] (`rbcheck-engine`). The command itself (`main.rs`,
//! `cli/`) parses arguments, calls these and prints.

// Every unsafe block says why it is sound, one operation at a time.
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]

pub mod findings;
pub mod html;
pub mod rules;

pub use rbcheck_verify::{
    bounds, case, cases, check, diff, engine, error, exercise, export, inputs, outdir, progress,
    read, report, shard, verdict, Error,
};
