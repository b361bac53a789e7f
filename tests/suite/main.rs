//! The command's tests, end to end: one test binary for every file here, so that the suite is
//! linked once (each file of `tests/` would be a binary of its own, linking the whole crate)
//! and the tests of all files share the cores instead of each file's slowest test running
//! alone. `cargo test --test suite edits::` runs one file's tests. `tests/fuzz_parsers.rs` stays
//! a binary of its own: `cargo bolero test --test fuzz_parsers` drives its targets.

mod case_files;
mod cli;
mod corpus;
mod costs;
mod diff;
mod doc_commands;
mod edits;
mod engine_heldout3;
mod engine_mutant_cases;
mod engine_protocol;
mod export;
mod fmt;
mod fuzz;
mod fuzz_capabilities;
mod fuzz_clusters;
mod fuzz_held;
mod fuzz_naming;
mod house;
mod html;
mod listings;
mod no_tracker_refs;
mod promises;
mod refusal_messages;
mod rune_cases;
mod scale;
mod schema;
mod shared;
mod turn_cases;
mod turn_hostile;
