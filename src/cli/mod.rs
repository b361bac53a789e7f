//! The commands of the `rbcheck` binary: each one's options (clap) and what it prints. The work
//! itself is done by the `rbcheck` library.

pub mod cases;
pub mod check;
pub mod diff;
pub mod fuzz;
