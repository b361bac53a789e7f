//! The model's rule tests: one test binary for every file here, linked once. `common` holds
//! the builders the files share; `cargo test -p rbcheck-model --test suite rules::` runs one
//! file's tests.

mod accelerate;
mod combat;
mod common;
mod deck;
mod rules;
mod runes;
mod turn;
mod walk;
