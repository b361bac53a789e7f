//! The checker's tests on small models: one test binary for every file here, linked once.
//! `models` holds the toy models the files share. The memory budget's tests are a binary of
//! their own (`tests/memory.rs`): the budget is on the whole process's resident memory.

mod forced;
mod forest;
mod fused;
mod graph;
mod models;
mod panics;
mod search;
mod tree;
