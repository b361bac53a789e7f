//! Strata about the chain and what may go on it: an [Action] card while a chain is open, a counter's cost limit, undone plays (358.5) and what they leave, Syndra's showdown grant.

use crate::engine::gen::strata::Focus;
use crate::engine::gen::{generated_base, unit, ItemPick, Recipe};
use model::card::RepeatCost;
use model::cost::{Cost, Domain};

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[
    Focus::Chain(0),
    Focus::Chain(1),
    Focus::Chain(2),
    Focus::Chain(3),
    Focus::Chain(4),
    Focus::Chain(5),
];

/// `ITEMS` indices: Hidden Blade, Find Your Center, Void Seeker (all [Action], 358.4).
const ACTIONS: [usize; 3] = [7, 8, 9];
/// `ITEMS` index of Void Seeker ([3][R], "deal 3 to a unit").
const VOID_SEEKER: usize = 9;
/// `ITEMS` index of Downstage Dramatics ([Reaction], [Repeat] [2]).
const DRAMATICS: usize = 13;
/// `UNITS` index of Watchful Sentry ("when an opponent chooses me").
const SENTRY: usize = 4;
/// `UNITS` index of Syndra, Transcendent.
const SYNDRA: usize = 7;

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    // Nothing drawn may get in the way of the situation: no injected statement but the
    // stratum's own, no Portal, Spire, gear or counters drawn.
    r.inject = 0;
    r.portal = false;
    r.spire = 0;
    r.gear.clear();
    r.reactions.clear();
    r.showdown = false;
    match k {
        0 => action_on_chain(r, n),
        1 => defy_on_power(r, n),
        2 => sentry_chosen_then_undone(r, n),
        3 => undone_plays_in_a_turn(r, n),
        4 => syndra_away(r, n),
        5 => syndra_and_enemy_spell(r, n),
        _ => {}
    }
}

/// Your Downstage Dramatics or Desert's Call with an [Action] card second in hand (a turn of
/// two plays): once the item is on the chain, the case says you play the [Action] card instead
/// of passing (injected, `Recipe::inject` 17), which 358.4 refuses: only a [Reaction] is added
/// to an existing chain. Every walk number plays the first card in hand (the item) and pays.
fn action_on_chain(r: &mut Recipe, n: usize) {
    r.item = ItemPick::Catalogue([DRAMATICS, 1][n % 2]);
    r.second = Some(ACTIONS[(n / 2) % ACTIONS.len()]);
    r.units = vec![unit(0, false, 1), unit(1, false, 0)];
    r.inject = 17;
    r.pool[0] = r.pool[0].max(12);
    r.pool[4] = r.pool[4].max(1);
    r.pool[3] = r.pool[3].max(1);
    crate::engine::gen::walk::bias(&mut r.walk, 40, 50);
    // `i` a multiple of 60 (of every option count up to 6): the first of the enabled plays.
    for p in &mut r.walk {
        *p = *p / 6000 * 6000 + *p % 100;
    }
}

/// Your generated spell costing [1] and two Power ([B][B] or [P][P]) against the opponent's
/// Defy ("counter a spell that costs no more than [4] and no more than [A]", 206): no legal
/// choice for it; the case says the opponent plays it on your spell instead of passing
/// (injected, kind 17), which 355.8 refuses.
fn defy_on_power(r: &mut Recipe, n: usize) {
    let mut d = generated_base();
    let domain = [Domain::Mind, Domain::Chaos][n % 2];
    d.cost = Cost {
        energy: 1,
        power: [0; 6],
        any: 0,
        own: 0,
    };
    d.cost.power[domain as usize] = 2;
    d.repeat = vec![RepeatCost::Pay(Cost::energy(0))];
    r.item = ItemPick::Generated(Box::new(d));
    r.units = vec![unit(0, false, 1), unit(1, false, 0)];
    r.reactions = vec![0];
    r.opp_rich = true;
    r.inject = 17;
    r.pool[0] = r.pool[0].max(4);
    r.pool[1] = r.pool[1].max(2);
    r.pool[2] = r.pool[2].max(2);
    // Every walk number below 40: the [Repeat] paid and everyone passes, so the case has the
    // opponent's pass for the injection to replace (the model undoes a Defy the walk plays,
    // with no target chosen to refuse).
    crate::engine::gen::walk::bias(&mut r.walk, 0, 40);
}

/// Your Void Seeker ([3][R]) with the opponent's Watchful Sentry its only target and no Fury
/// Power to pay: the play chooses the Sentry and is undone (358.5), so no finalized item chose
/// it and its "when an opponent chooses me" does not trigger (383.4.b.2).
fn sentry_chosen_then_undone(r: &mut Recipe, n: usize) {
    r.item = ItemPick::Catalogue(VOID_SEEKER);
    r.units = vec![unit(SENTRY, false, 1 + (n % 2) as u8)];
    // Energy a multiple of 4: no Portal grant for the spell without [Repeat].
    r.pool = [4 + 4 * (n % 2) as u8, 1, 1, 1, 0, 1];
    // A turn of two plays with Find Your Center ([3]) to play after the undone one: the case
    // goes on after the undo, with the Sentry's controller's hand and the turn's plays shown.
    r.second = Some(8);
    crate::engine::gen::walk::bias(&mut r.walk, 0, 40);
    for p in &mut r.walk {
        *p = *p / 6000 * 6000 + *p % 100;
    }
}

/// A turn of two plays (`Recipe::second`) and three cards, the first Void Seeker with no unit
/// to choose: its play is undone (358.5) and gives the turn's play back (335), so Find Your
/// Center and Desert's Call are both played after it. Every decision plays the first card
/// offered and pays: an engine that keeps the undone play refuses the last.
fn undone_plays_in_a_turn(r: &mut Recipe, n: usize) {
    r.item = ItemPick::Catalogue(VOID_SEEKER);
    let others = [8, 1];
    r.second = Some(others[n % 2]);
    r.third = Some(others[(n + 1) % 2]);
    r.units.clear();
    // [3] and [2] + [2]; Energy a multiple of 4: no Portal grant for Void Seeker.
    r.pool = [8, 0, 0, 0, 1, 0];
    r.walk = vec![10];
}

/// Your Syndra in your base while a showdown is at battlefield 1, and your [Action] spell:
/// she is not in the showdown, so her "your spells have [Repeat] [2][P]" gives nothing
/// (820.1.b). Every walk number pays the instances there are.
fn syndra_away(r: &mut Recipe, n: usize) {
    r.item = ItemPick::Catalogue([3, 8, VOID_SEEKER][n % 3]);
    r.units = vec![unit(SYNDRA, true, 0), unit(0, false, 1), unit(1, false, 0)];
    r.showdown = true;
    r.showdown_at = Some(0);
    r.pool = [8, 2, 3, 0, 1, 0];
    crate::engine::gen::walk::bias(&mut r.walk, 0, 40);
}

/// Your Syndra at the showdown's battlefield and your [Action] spell, which she gives
/// [Repeat] [2][P], against the opponent's Feral Strength or Frigid Touch: the opponent's
/// reaction is no spell of Syndra's controller and gets no [Repeat] from her (820.1.b). Every
/// walk number plays rather than passes and pays each instance.
fn syndra_and_enemy_spell(r: &mut Recipe, n: usize) {
    r.item = ItemPick::Catalogue([3, 8, VOID_SEEKER][n % 3]);
    r.units = vec![unit(SYNDRA, true, 1), unit(0, false, 1), unit(1, false, 0)];
    r.showdown = true;
    r.showdown_at = Some(0);
    r.reactions = vec![[5, 4][(n / 3) % 2]];
    r.opp_rich = true;
    r.pool = [12, 3, 4, 0, 1, 0];
    crate::engine::gen::walk::bias(&mut r.walk, 40, 50);
}
