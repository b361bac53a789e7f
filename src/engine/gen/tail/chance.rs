//! Strata for mistakes the cycled cases show only at some seeds: the situation is made on purpose instead of left to the draw.
//!
//! Each stratum stages its board and, where the walk's choices decide whether the situation
//! happens, maps every walk number into the class of `walk::choose` that makes it (a number `p`
//! is read as `r = p % 100`, the kind of choice, and `i = p / 100`, which of the enabled actions
//! of that kind): the strata's cases move with the tail's layout, so no stratum may depend on
//! one seed's draws.

use crate::engine::gen::strata::Focus;
use crate::engine::gen::turn::{self, TurnFocus};
use crate::engine::gen::{generated_base, unit, walk, ItemPick, Recipe};
use model::card::{Effect, Instruction, RepeatCost};
use model::cost::{Cost, Domain};

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[
    Focus::Chance(0),
    Focus::Chance(1),
    Focus::Chance(2),
    Focus::Chance(3),
    Focus::Chance(4),
    Focus::Chance(5),
    Focus::Chance(6),
    Focus::Chance(7),
    Focus::Chance(8),
];

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    // Nothing drawn may end the case before its situation: no injected statement, no
    // showdown (a turn of plays is not explored in one; the Ability and a spell need none).
    r.inject = 0;
    r.showdown = false;
    match k {
        0 => spire_on_power(r, n),
        1 => demands_twice(r),
        2 => portal_beside_spellwatcher(r, n),
        3 => sentry_chosen_by_ability(r),
        4 => token_under_reversal(r),
        5 => rune_recycled(r, n),
        6 => channelled(r, n),
        7 => both_grants(r, n),
        8 => short_draw(r, n),
        _ => {}
    }
}

/// Every walk number mapped into `r` in `lo..hi` (the kind of choice `choose` makes), its `i`
/// to `want` modulo `m` (which of the enabled actions): [`walk::bias_pick`] on the recipe.
fn bias(r: &mut Recipe, lo: u16, hi: u16, m: u16, want: u16) {
    walk::bias_pick(&mut r.walk, lo, hi, m, want);
}

/// Your Marai Spire beside a generated spell whose [Repeat] costs Power and no Energy ([B] or
/// [P], once or twice): the Spire's "[1] less" takes Energy only and leaves the Power to pay
/// (356.4.c). Every walk number below 40: each instance paid, nobody responds.
fn spire_on_power(r: &mut Recipe, n: usize) {
    let mut d = generated_base();
    let mut power = [0; 6];
    power[[Domain::Mind, Domain::Chaos][n % 2] as usize] = 1;
    d.repeat = vec![
        RepeatCost::Pay(Cost {
            energy: 0,
            power,
            any: 0,
            own: 0
        });
        1 + (n / 2) % 2
    ];
    r.item = ItemPick::Generated(Box::new(d));
    r.spire = 1;
    r.portal = false;
    r.units = vec![unit(0, false, 1), unit(1, false, 0)];
    r.reactions.clear();
    // [2] for the card, and two of each Power the [Repeat] costs ask for.
    r.pool[0] = r.pool[0].max(4);
    r.pool[1] = r.pool[1].max(2);
    r.pool[2] = r.pool[2].max(2);
    bias(r, 0, 40, 1, 0);
}

/// The opponent's Hard Bargain (`Counters(0)`'s board) with its [Repeat] paid against your
/// spell, and your pool able to pay both demands ([2] each, 820.3: each execution demands
/// again). Every walk number in 40..70 with an even `i`: the opponent plays Hard Bargain
/// rather than passing, pays its [Repeat], and you pay the first demand (`PayDemand` pay is
/// listed first), so the second execution still finds your spell and demands again.
fn demands_twice(r: &mut Recipe) {
    *r = crate::engine::gen::strata::focused(r.clone(), Focus::Counters(0));
    // Rocket Barrage twice ([4][B] each) and both demands; no grant, which would add a third
    // execution the pool cannot pay.
    r.portal = false;
    r.pool[0] = r.pool[0].max(16);
    r.pool[1] = r.pool[1].max(3);
    bias(r, 40, 70, 2, 0);
}

/// A turn with your ready Temporal Portal (`Turn(Grants)` with the gear and no grant waiting)
/// and your Spellwatcher: the first decision activates the Portal (listed after the plays of
/// the two spells in hand, so `i` is 5 modulo 6: the last of two or three), whose ability is
/// not a spell (419.4.a: the Spellwatcher triggers on the spells only). The opponent holds
/// nothing, so the activation resolves.
fn portal_beside_spellwatcher(r: &mut Recipe, n: usize) {
    // `turn::focused`'s own number for "no grant waiting, the Portal gear" (even, m % 3 == 1).
    turn::focused(r, TurnFocus::Grants, 6 * (n % 1000) + 2);
    r.units.retain(|u| u.card != 5);
    r.units.push(unit(5, true, 0));
    r.reactions.clear();
    // `scenario` charges the Portal for a spell without printed [Repeat] unless the pool's
    // Energy is a multiple of 4, and a charged Portal's gear is exhausted: it could not be
    // activated.
    r.pool[0] = r.pool[0].max(12) / 4 * 4;
    if r.walk.is_empty() {
        r.walk.push(0);
    }
    let i = r.walk[0] / 100;
    r.walk[0] = (i - i % 6 + 5).min(599) * 100 + r.walk[0] % 100;
}

/// Vendetta Duelist's repeated attack ability with the opponent's Watchful Sentry the first
/// enemy unit at its battlefield (before the Practice Dummy `scenario` adds): every walk
/// number below 40 with an even `i` performs the ability, pays its [Repeat] and chooses the
/// Sentry in each execution (383.4.b.2: an opponent's ability chose it).
fn sentry_chosen_by_ability(r: &mut Recipe) {
    r.item = ItemPick::Ability;
    r.units = vec![unit(4, false, 1)];
    r.reactions.clear();
    r.hand_other = r.hand_other.max(1);
    bias(r, 0, 40, 2, 0);
}

/// Desert's Call ("play a 2 Might token", [Repeat] [2]) against the opponent's Mystic Reversal
/// and the Power to play it: every walk number in 40..50 pays the [Repeat] and has the
/// opponent take the spell, so its controller when it resolves is the opponent, whose tokens
/// they are (750, 820.3).
fn token_under_reversal(r: &mut Recipe) {
    r.item = ItemPick::Catalogue(1);
    r.reactions = vec![7];
    r.opp_rich = true;
    r.portal = false;
    r.spire = 0;
    r.pool[0] = r.pool[0].max(6);
    bias(r, 40, 50, 1, 0);
}

/// An empty pool and the runes of [`crate::engine::gen::RUNE_SETUPS`] 0 or 1 (rune decks [G] and
/// [Y]) against a spell that costs [1][B]: the Mind Power can only come from recycling a Mind
/// rune (164.2), which goes to the bottom of a rune deck whose top is another domain.
fn rune_recycled(r: &mut Recipe, n: usize) {
    let mut d = generated_base();
    d.cost = Cost {
        energy: 1,
        power: [0; 6],
        any: 0,
        own: 0,
    };
    d.cost.power[Domain::Mind as usize] = 1;
    // A free [Repeat]: paying it asks no more of the runes.
    d.repeat = vec![RepeatCost::Pay(Cost::energy(0))];
    r.item = ItemPick::Generated(Box::new(d));
    r.units = vec![unit(0, false, 1), unit(1, false, 0)];
    r.runes = 1 + (n % 2) as u8;
    r.pool = [0; 6];
    r.portal = false;
    r.spire = 0;
    r.reactions.clear();
}

/// Find Your Center for a player with runes (an empty pool, the rune setup with five or six
/// ready runes and a rune deck), no grant (which would make the play unpayable) and nothing the
/// opponent holds, so it resolves: "channel 1 rune exhausted".
fn channelled(r: &mut Recipe, n: usize) {
    r.item = ItemPick::Catalogue(8);
    r.runes = [1, 3][n % 2];
    r.pool = [0; 6];
    r.portal = false;
    r.reactions.clear();
    r.deck = r.deck.max(1);
}

/// Temporal Portal's and The Academy's grants both waiting (`Turn(Grants)` with its number's
/// `m % 3 == 2`): the first spell takes both, and every walk number below 40 pays each
/// instance, the Academy's after the Portal's (820.1.c.2).
fn both_grants(r: &mut Recipe, n: usize) {
    turn::focused(r, TurnFocus::Grants, 6 * (n % 1000) + 4);
    bias(r, 0, 40, 1, 0);
}

/// A generated spell "Draw N" with your deck holding fewer than N cards (one or two): the
/// draw takes what there is (359.3.e). No unit of yours draws first (a Spellwatcher would
/// empty the deck before the spell).
fn short_draw(r: &mut Recipe, n: usize) {
    let mut d = generated_base();
    let deck = 1 + (n % 2) as u8;
    d.modes[0].instructions = vec![Instruction {
        effect: Effect::Draw(deck + 1),
        target: None,
    }];
    r.item = ItemPick::Generated(Box::new(d));
    r.deck = deck;
    r.units.retain(|u| u.card != 5);
    r.reactions.clear();
    r.portal = false;
    r.pool[0] = r.pool[0].max(4);
}
