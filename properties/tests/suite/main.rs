//! The properties' and system's tests: one test binary for every file here, linked once;
//! `cargo test -p properties --test suite nonvacuity::` runs one file's tests.

mod fingerprints;
mod forced;
mod nonvacuity;
mod owned_successor;
mod repeat_model;
mod symmetry;
mod tree;
