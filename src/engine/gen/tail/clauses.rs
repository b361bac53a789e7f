//! Strata that reach the rule clauses the cycled cases do not reach at every seed (`check --coverage`'s clauses: readying, groups by tag, mandatory costs, gear abilities, channelling).

use crate::engine::gen::strata::Focus;
use crate::engine::gen::Recipe;

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[];

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    let _ = (r, k, n);
}
