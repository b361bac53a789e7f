//! Strata about units and runes on the board: a returned unit's damage, readying a ready unit, [Assault] while attacking, which rune a payment recycles and which one is channelled.

use crate::engine::gen::strata::Focus;
use crate::engine::gen::Recipe;

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[];

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    let _ = (r, k, n);
}
