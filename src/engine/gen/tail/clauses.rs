//! Strata that reach the rule clauses the cycled cases do not reach at every seed (`check --coverage`'s clauses: readying, groups by tag, mandatory costs, gear abilities, channelling).
//!
//! Each stratum makes its clause by construction, whatever the walk draws: the card is played
//! on a board staged for it (`gen::stage`), nobody can counter it, and the pool pays
//! for it and its [Repeat] instances.

use crate::engine::gen::strata::{self, Focus};
use crate::engine::gen::{unit, ItemPick, Recipe};

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[
    Focus::Clause(0),
    Focus::Clause(1),
    Focus::Clause(2),
    Focus::Clause(3),
    Focus::Clause(4),
    Focus::Clause(5),
];

/// The clauses stratum `k` is made to reach (`tests/fuzz_clauses.rs` checks it does). The model
/// cites 356.2.a only for a discard cost (its `AdditionalCostAdded` event), so a "discard 1"
/// makes it, not Rallying Cry's "exhaust a friendly unit".
pub fn clauses_of(k: u8) -> &'static [&'static str] {
    match k {
        0 => &["415.1"],
        1 => &["355.10.d"],
        2 => &["356.2.a"],
        3 => &["414.4", "356.7"],
        4 => &["401", "145.2", "SFD-078"],
        5 => &["OGN-047"],
        _ => &[],
    }
}

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    match k {
        // Upstage Comedy on exhausted units (415.1), Danger Zone with your Mechs (355.10.d),
        // Tithe Bolt's "discard 1" (356.2.a), each on its staged board.
        0 => featured(r, "Upstage Comedy"),
        1 => featured(r, "Danger Zone"),
        2 => featured(r, "Tithe Bolt"),
        // Rallying Cry with two ready units of yours besides its staged ones: which one is
        // exhausted is a choice, so the step ExhaustForCost is taken (414.4, 356.7) instead of
        // the forced payment of a single option.
        3 => {
            featured(r, "Rallying Cry");
            r.units = vec![unit(0, true, 0), unit(1, true, 1)];
        }
        4 => portal_activated(r, n),
        5 => find_your_center(r, n),
        _ => {}
    }
}

/// A featured card by name (its index is looked up, so that cards appended to [`crate::engine::gen::FEATURED`]
/// elsewhere do not change which one is played), focused like the cycle's featured strata: its
/// staged board alone, no counters, no injected statement.
fn featured(r: &mut Recipe, name: &str) {
    if let Some(k) = crate::engine::gen::featured(name) {
        *r = strata::focused(r.clone(), Focus::Item(k));
    }
}

/// A turn of two of your spells, the first without printed [Repeat], and a ready Temporal Portal
/// of yours that the walk activates first (145.2, 401): its ability resolves and gives the grant
/// (SFD-078) that your next spell then uses. Your Spellwatcher is beside it: "when you play a
/// spell" must not trigger on the activated ability (419.4.a).
fn portal_activated(r: &mut Recipe, n: usize) {
    // Hidden Blade, Void Seeker, Temptation or Rocket Barrage; then Frigid Touch, Feral
    // Strength, Downstage Dramatics, Hidden Blade or Find Your Center.
    r.item = ItemPick::Catalogue([7, 9, 4, 0][n % 4]);
    r.second = Some([12, 6, 13, 7, 8][(n / 4) % 5]);
    r.portal_gear = true;
    r.activate = true;
    r.portal = false;
    r.academy = false;
    r.runes = 0;
    r.spire = 0;
    r.showdown = false;
    r.inject = 0;
    r.reactions.clear();
    r.units = vec![unit(0, false, 1), unit(1, false, 0), unit(5, true, 0)];
    let least = [12, 2, 2, 3, 2, 2];
    for (j, m) in least.iter().enumerate() {
        r.pool[j] = r.pool[j].max(*m);
    }
}

/// Find Your Center resolving (OGN-047) for a player with runes over a rune deck and an empty
/// pool (357.1.a): the channelled rune comes from the deck exhausted. (A pool-only player's
/// channel is only counted; the cycle draws that one.) Nobody can counter it.
fn find_your_center(r: &mut Recipe, n: usize) {
    r.item = ItemPick::Catalogue(8);
    r.reactions.clear();
    r.inject = 0;
    r.showdown = false;
    r.second = None;
    r.spire = 0;
    // No granted [Repeat] [3]: the runes could not pay it beside the card's [3] (358.5).
    r.portal = false;
    // The rune setups with a rune deck and runes enough to pay [3] (`RUNE_SETUPS` 0 and 2).
    r.runes = [1, 3][n % 2];
    r.pool = [0; 6];
}
