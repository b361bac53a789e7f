//! Turns of several plays in generated cases: two of your spells in hand, the turn
//! player starting a chain from the open state twice (335, 340.2), the opponent responding and
//! you responding to their response, grants "the next spell you play this turn" (Temporal
//! Portal, The Academy) used by one play and given back when it is undone (358.5), and the end
//! of the turn ending "this turn" effects (334.1). Only for an engine that declares `turn`; the
//! model plays the turn out and is the oracle as for every other case.

use super::strata::Profile;
use super::{unit, ItemPick, Recipe, ITEMS};
use model::card::CardDef;
use model::catalogue::Catalogue;

/// What a turn stratum makes sure its recipes contain (each alternates between two kinds of
/// turn by the recipe's own number, so that two strata of the budget hold all four).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnFocus {
    /// Two spells, the opponent holding reactions: your second spell a [Reaction] (to answer
    /// their response) or Might given "this turn" that the end of the turn ends; paid from a
    /// rich pool, or (every other recipe) with runes from an empty pool (164.2, 357.1.a).
    Plays,
    /// Temporal Portal, The Academy or both waiting: the first spell uses them up (820.1.c.2);
    /// or (every other recipe) a first spell the pool cannot pay, whose undone play gives the
    /// grant back for the second spell (358.5).
    Grants,
}

/// Your second spells: [Reaction]s (Frigid Touch, Feral Strength with its Might "this turn",
/// Downstage Dramatics) and spells for the open state (Hidden Blade, Find Your Center), by index
/// into [`ITEMS`].
const SECONDS: [usize; 5] = [12, 6, 13, 7, 8];

/// First spells without a printed [Repeat] (Hidden Blade, Void Seeker, Temptation, Rocket
/// Barrage), so that a grant's instance is the one deciding, by index into [`ITEMS`].
const GRANTED: [usize; 4] = [7, 9, 4, 0];

/// The recipe made to contain what the turn stratum is about; `n` is the recipe's own number.
pub fn focused(r: &mut Recipe, f: TurnFocus, n: usize) {
    r.inject = 0;
    // The model has no focus passing (340.2.a, 347): a turn of several plays is not explored
    // in a showdown.
    r.showdown = false;
    r.second = Some(SECONDS[n % SECONDS.len()]);
    // Something of each side to target, at a battlefield and at a base.
    if r.units.len() < 2 {
        r.units.push(unit(0, false, 1));
        r.units.push(unit(1, true, 0));
    }
    if matches!(r.item, ItemPick::Ability) {
        r.item = ItemPick::Catalogue(GRANTED[n % GRANTED.len()]);
    }
    let m = n / 2;
    match (f, n % 2) {
        (TurnFocus::Plays, 0) => {
            r.reactions = vec![[4, 5, 6, 0][m % 4], [2, 1, 3][m % 3]];
            r.opp_rich = true;
            rich(r);
        }
        (TurnFocus::Plays, _) => {
            r.runes = 1 + (m % super::RUNE_SETUPS.len()) as u8;
            r.pool = [0; 6];
        }
        (TurnFocus::Grants, 0) => {
            r.item = ItemPick::Catalogue(GRANTED[m % GRANTED.len()]);
            r.portal = m % 3 != 1;
            r.academy = !m.is_multiple_of(3);
            // With no grant waiting, a ready Portal to activate first (145.2, 401, SFD-078).
            r.portal_gear = m % 3 == 1;
            rich(r);
        }
        (TurnFocus::Grants, _) => {
            // A generated spell costing [5] against a pool of [3]: cannot be paid (358.5).
            let mut d = super::generated_base();
            d.cost = model::cost::Cost::energy(5);
            r.item = ItemPick::Generated(Box::new(d));
            r.second = Some([12, 7][m % 2]);
            r.portal = m.is_multiple_of(2);
            r.academy = m % 2 == 1;
            r.portal_gear = m % 2 == 1;
            r.pool = [3, 0, 0, 1, 0, 0];
        }
    }
}

/// The turn left out for an engine that does not declare `turn`, and a second spell it could
/// not play replaced by the first of [`SECONDS`] it can (`allows`: the features playing a card
/// needs are declared).
pub fn fit(r: &mut Recipe, p: &Profile, allows: impl Fn(&CardDef) -> bool) {
    let Some(k) = r.second else {
        return;
    };
    if !p.has("turn") || matches!(r.item, ItemPick::Ability) {
        r.second = None;
        return;
    }
    let cards = Catalogue::builtin().cards;
    let ok = |k: usize| {
        cards
            .iter()
            .find(|c| c.name == ITEMS[k % ITEMS.len()])
            .is_some_and(&allows)
    };
    r.second = std::iter::once(k).chain(SECONDS).find(|k| ok(*k));
}

/// A pool that pays both spells with their granted instances, mostly (Energy, and Power of
/// each domain the catalogue spells ask for).
fn rich(r: &mut Recipe) {
    let least = [12, 2, 2, 3, 2, 2];
    for (k, m) in least.iter().enumerate() {
        r.pool[k] = r.pool[k].max(*m);
    }
}
