//! Strata about what a player holds: your own "enemy" counter with only your own spell to
//! counter, and named cards drawn into hand.

use crate::engine::gen::strata::Focus;
use crate::engine::gen::{ItemPick, Recipe, UnitPick};

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[Focus::Held(0), Focus::Held(1)];

/// The distinct named cards put on top of your main deck (`Recipe::deck_named` of them, top
/// first): cards the turn cannot play once the item resolved, so only a draw moves them.
pub const DECK: [&str; 4] = ["Pouty Poro", "Wind Wall", "Sturdy Dummy", "Hard Bargain"];

/// [`super::super::REACTIONS`]'s Not So Fast: "counter an enemy spell or ability that chooses a
/// friendly unit or gear".
const NOT_SO_FAST: usize = 9;

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    r.reactions.clear();
    r.gear.clear();
    r.inject = 0;
    r.portal = false;
    r.spire = 0;
    r.showdown = false;
    r.opp_rich = false;
    if r.walk.is_empty() {
        r.walk.push(n as u16);
    }
    // Every decision's bias in 40..50 (see `walk::choose`): a [Repeat] paid, and a play rather
    // than a pass whenever one is possible, instead of leaving the play that shows the
    // mistake to the chance of one decision.
    crate::engine::gen::walk::bias(&mut r.walk, 40, 50);
    match k {
        // Your Frigid Touch, Feral Strength or Void Seeker on your own unit (only yours are on
        // the board), then your Not So Fast: no enemy spell chooses a friendly unit, so the
        // counter has no legal choice and its play is undone (425, 355.8, 358.5); the case
        // then says it counters your spell (injected, `Recipe::inject` 16), which the rules
        // refuse.
        0 => {
            r.item = ItemPick::Catalogue([6, 12, 9][n % 3]);
            let mine = |loc| UnitPick {
                card: 0,
                mine: true,
                loc,
                damage: 0,
            };
            r.units = vec![mine(1), mine(1 + (n % 2) as u8), mine(0)];
            r.own_reactions = vec![NOT_SO_FAST];
            // Told to counter your own spell (injected): the model refuses it, there being no
            // legal choice (355.8) since your spell is no enemy's (425).
            r.inject = 16;
            // The first decision plays the item, first in hand, not the counter (a reaction may
            // start a chain too): `choose` picks among the plays by the hundreds, even here.
            r.walk[0] = r.walk[0] / 200 * 200 + r.walk[0] % 100;
            // The item, its [Repeat] and Not So Fast's [2][G]; Void Seeker's [R] twice (the
            // Portal's granted [Repeat] costs its cost).
            r.pool[0] = r.pool[0].max(10);
            r.pool[4] = r.pool[4].max(2);
            r.pool[5] = r.pool[5].max(1);
        }
        // Downstage Dramatics (draw 1, [Repeat] [2]) or Find Your Center (draw 1) with three or
        // four named cards on top of your deck and zero to two anonymous ones below them: more
        // cards than the draws take, so a draw from the bottom ends with other cards in hand
        // (359.3.e).
        _ => {
            r.item = ItemPick::Catalogue([13, 8][n % 2]);
            // No Watchful Sentry or Spellwatcher: their "draw" triggers would take a third
            // card, and a drawn reaction could then be played on the trigger, so that a wrong
            // draw shows as a refused play rather than in hand (and at most two draws leave a
            // named card in the deck for a bottom draw to take).
            r.units.retain(|u| !matches!(u.card, 4 | 5));
            r.deck_named = 3 + ((n / 2) % 2) as u8;
            r.deck = (n % 3) as u8;
            r.pool[0] = r.pool[0].max(8);
        }
    }
}
