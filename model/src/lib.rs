//! A small-step transition model of playing, paying for and resolving a Riftbound chain item with
//! [Repeat] (rule 820 of RUP4; 746 of v1.2), under a chosen rulebook.
//!
//! - `card`, `cost`: item definitions as data; `catalogue` reads them from TOML.
//! - `rulebook`: the rules versions and open questions as named fields.
//! - `setup`: a scenario's starting position; `state`: the state and its event log;
//!   `inline_vec`: the small vector that holds a state's lists.
//! - `action`: the named steps; `game`: when each is enabled and what it does.
//!
//! The model knows nothing about how it is explored: `Game::actions` lists what may happen next
//! and `Game::next_state` says what happens then.

// Unsafe code lives in `inline_vec` and `state::log` only; each block says why it is sound.
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]

pub mod action;
pub mod card;
pub mod catalogue;
pub mod cost;
pub mod coverage;
pub mod describe;
pub mod game;
pub mod inline_vec;
pub mod rulebook;
pub mod setup;
pub mod state;
pub mod suggest;

pub use action::Action;
pub use card::{CardDef, CardId};
pub use catalogue::{Catalogue, CatalogueError};
pub use cost::{Cost, Domain};
pub use game::Game;
pub use rulebook::{Rulebook, Version};
pub use setup::Setup;
pub use state::{Event, Player, State};
