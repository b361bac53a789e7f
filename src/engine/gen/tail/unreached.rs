//! Strata for mistakes no cycled case can show: situations generation did not make at all (the opponent's grant, a unit played before a spell, a reaction in a turn of plays, new choices breaking a restriction, "other").

use crate::engine::gen::strata::Focus;
use crate::engine::gen::{featured, unit, ItemPick, Recipe};

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[
    Focus::Unreached(0),
    Focus::Unreached(1),
    Focus::Unreached(2),
    Focus::Unreached(3),
    Focus::Unreached(4),
];

/// Spells that are not [Reaction]s, so that nobody can play them on a chain (358.4): Hidden
/// Blade and Void Seeker (no printed [Repeat]: the Portal's is their only one), Temptation and
/// Rocket Barrage (the Portal's beside the printed one), by index into
/// [`crate::engine::gen::ITEMS`].
const GRANTED: [usize; 4] = [7, 9, 4, 0];

/// [Reaction]s of yours (Feral Strength, Frigid Touch, Downstage Dramatics), by index into
/// [`crate::engine::gen::ITEMS`].
const REACTIONS: [usize; 3] = [12, 6, 13];

/// Spells for the open state only (Hidden Blade, Find Your Center: [Action], not [Reaction]),
/// by index into [`crate::engine::gen::ITEMS`].
const OPEN: [usize; 2] = [7, 8];

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    r.showdown = false;
    r.spire = 0;
    r.gear.clear();
    match k {
        // Piercing Light on its staged board (`super::super::stage`), its "up to one other unit"
        // given the unit its first instruction chose, injected (355.8).
        0 => {
            r.item = ItemPick::Catalogue(featured("Piercing Light").unwrap_or(0));
            r.units.clear();
            r.reactions.clear();
            r.portal = false;
            r.inject = 14;
            // [2][R] and [Repeat] [2][R].
            r.pool[0] = r.pool[0].max(6);
            r.pool[4] = r.pool[4].max(2);
        }
        // The `NewChoices` board with a third enemy unit, at battlefield 2: an execution's two
        // instructions choose at most two of the three, so one is left that it never chose
        // (751.1 does not bar it) and that is the new controller's own, not an enemy of theirs:
        // the remade choice injected with it breaks the side (753.1).
        1 => {
            crate::engine::gen::strata::new_choices_board(r, n, false);
            r.units.push(unit(1, false, 2));
            r.portal = false;
            r.inject = 15;
            // Every decision's bias in 40..50 (see `walk::choose`): the opponent plays Mystic
            // Reversal rather than passing and remakes a choice rather than keeping it.
            crate::engine::gen::walk::bias(&mut r.walk, 40, 50);
        }
        // The opponent's Portal grant waiting, your spell played: the grant is not yours
        // (SFD-078 "the next spell you play"). Your own Portal is left out: a spell without a
        // printed [Repeat] gets no grant with an Energy pool that is a multiple of 4 (see
        // `scenario`).
        2 => {
            r.item = ItemPick::Catalogue([13, 12, 6, 7, 9, 0][n % 6]);
            r.opp_portal = true;
            r.portal = false;
            r.inject = 0;
            r.pool[0] = 12;
            for j in 1..6 {
                r.pool[j] = r.pool[j].max(2);
            }
            r.units = vec![unit(0, false, 1), unit(1, false, 0), unit(0, true, 1)];
        }
        // A turn of plays: a unit from hand (Legion Rearguard, Clockwork Keeper), then a spell
        // with your Portal's grant still waiting (SFD-078: the next *spell*).
        3 => {
            let spell = GRANTED[n % GRANTED.len()];
            r.item = ItemPick::Catalogue(spell);
            r.second = Some(OPEN[(n / 4) % OPEN.len()]);
            let units = ["Legion Rearguard", "Clockwork Keeper"];
            r.third = featured(units[(n / 8) % 2]);
            r.portal = true;
            turn(r);
            // One walk number for every decision: its 2 picks the third card (the unit) among
            // the three playable ones, then the item (2 % 2) among the two left; below 85, the
            // turn's next play rather than its end (see `walk::choose`).
            r.walk = vec![200 + (n % 70) as u16];
        }
        // A turn of plays: a spell, your [Reaction] on its chain (a response, not one of the
        // turn's plays, 335), then a spell for the open state as the turn's second play.
        4 => {
            r.item = ItemPick::Catalogue(REACTIONS[n % REACTIONS.len()]);
            r.second = Some(REACTIONS[(n / 3) % REACTIONS.len()]);
            r.third = Some(OPEN[(n / 9) % OPEN.len()]);
            r.portal = false;
            turn(r);
            // One walk number for every decision: its 0 picks the item first; from 40 on, a
            // play rather than a pass while you hold priority with the item on the chain (the
            // reaction, the only card that can be played there); below 70, the next play
            // rather than the turn's end (see `walk::choose`).
            r.walk = vec![40 + (n % 30) as u16];
        }
        _ => {}
    }
}

/// A turn of plays without the opponent's responses: they hold nothing, so every priority
/// window of theirs is a pass that takes no walk number; a pool paying every play.
fn turn(r: &mut Recipe) {
    r.reactions.clear();
    r.inject = 0;
    r.academy = false;
    r.portal_gear = false;
    r.units = vec![unit(0, false, 1), unit(1, false, 0), unit(0, true, 1)];
    // Energy a multiple of 4: no Portal grant unless `portal` says so (see `scenario`).
    r.pool = [20, 3, 2, 3, 3, 3];
}
