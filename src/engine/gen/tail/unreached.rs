//! Strata for mistakes no cycled case can show: situations generation did not make at all (the opponent's grant, a unit played before a spell, a reaction in a turn of plays, new choices breaking a restriction, "other").

use crate::engine::gen::strata::Focus;
use crate::engine::gen::Recipe;

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[];

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    let _ = (r, k, n);
}
