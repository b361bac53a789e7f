//! Strata about the chain and what may go on it: an [Action] card while a chain is open, a counter's cost limit, undone plays (358.5) and what they leave, Syndra's showdown grant.

use crate::engine::gen::strata::Focus;
use crate::engine::gen::Recipe;

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[];

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    let _ = (r, k, n);
}
