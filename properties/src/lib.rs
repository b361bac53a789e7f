//! The [Repeat] properties and the bounded universe they are checked over.
//!
//! - `invariants`: the named properties, each citing its rule, reading the event log and board.
//! - `facts`: what a state's log says, gathered once for all the properties.
//! - `bound`: the presets and bound files that say which scenarios are explored.
//! - `system`: the Repeat system: the rules, the cards and the scenarios.
//! - `checked`: the system as a `checker::Model` (its steps and properties).
//! - `probe`: a rulebook field set to another value, looked for by `exercise`.
//! - `exercise`: which rulebook fields decided a step of a run.

// Every unsafe block says why it is sound, one operation at a time.
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]

pub mod bound;
mod checked;
pub mod exercise;
pub mod facts;
pub mod invariants;
pub mod probe;
pub mod system;

pub use bound::{Bound, Origin, Scenario};
pub use system::RepeatSystem;
