//! Strata about units and runes on the board: a returned unit's damage, readying a ready unit, [Assault] while attacking, which rune a payment recycles and which one is channelled.
//!
//! Each stratum makes its situation by construction: a board changed by the recipe's `board`
//! field ([`restage`], the Duelist's [Assault] in `scenario`) or a rune setup of [`RUNES`], a
//! single legal target where the walk would otherwise choose, and every walk number mapped
//! into the class of choices that plays the situation out (`gen::walk::bias`).

use crate::engine::gen::strata::{self, Focus};
use crate::engine::gen::walk::bias;
use crate::engine::gen::{generated_base, unit, ItemPick, Recipe, RUNE_SETUPS};
use model::card::RepeatCost;
use model::cost::{Cost, Domain};
use model::setup::Setup;
use model::state::{Combat, Player};

/// This area's strata, in case order (each a `Focus` this module makes).
pub const STRATA: &[Focus] = &[
    Focus::Board(0),
    Focus::Board(1),
    Focus::Board(2),
    Focus::Board(3),
    Focus::Board(4),
];

/// This area's rune setups (ready, exhausted, rune deck), the recipe's `runes` after
/// [`RUNE_SETUPS`]: a ready and an exhausted Mind rune, so a payment's recycling picks one of
/// them (164.2); four ready Calm runes over a rune deck whose top ([B]) and bottom ([R]) differ,
/// so channelling shows which end it takes (OGN-047).
pub const RUNES: [([u8; 6], [u8; 6], &[Domain]); 2] = [
    ([0, 0, 1, 0, 0, 0], [0, 0, 1, 0, 0, 0], &[Domain::Calm]),
    ([0, 4, 0, 0, 0, 0], [0; 6], &[Domain::Mind, Domain::Fury]),
];

/// The recipe made to contain what stratum `k` of this area is about; `n` is the recipe's first
/// walk number, for variety between draws.
pub fn focused(r: &mut Recipe, k: u8, n: usize) {
    match k {
        0 => returned_with_damage(r),
        1 => readied_twice(r),
        2 => assault_might(r),
        3 => recycled_of_two(r, n),
        4 => channelled_from_top(r),
        _ => {}
    }
}

/// The staged board of a featured card changed for `board` (the recipe's field; 0 changes
/// nothing): Existential Dread's stunned attacker is the only attacker and has damage marked, so
/// its return to hand must clear it (124); Upstage Comedy keeps only its first exhausted unit,
/// which every execution then readies (415.1.b).
pub fn restage(s: &mut Setup, board: u8) {
    match board {
        2 => {
            let mut first = true;
            for u in s.units.iter_mut().filter(|u| u.controller == Player::OPP) {
                if first {
                    u.status.stunned = true;
                    u.status.combat = Combat::Attacking;
                    // Practice Dummy (Might 2) survives 1 damage.
                    u.damage = 1;
                    first = false;
                } else {
                    u.status.combat = Combat::None;
                }
            }
        }
        3 => s.units.truncate(1),
        _ => {}
    }
}

/// A featured card by name, focused like the cycle's featured strata: its staged board alone,
/// no counters, no injected statement.
fn featured(r: &mut Recipe, name: &str) {
    if let Some(k) = crate::engine::gen::featured(name) {
        *r = strata::focused(r.clone(), Focus::Item(k));
    }
}

/// Existential Dread on its staged showdown, the opponent's stunned attacker alone attacking
/// with 1 damage: "return it to its owner's hand" makes a new object without damage (124,
/// 56.2), which the case's `unit E damage 0` shows. Every walk number below 40: the [Repeat]
/// paid and nobody responds; the single attacker is the only target.
fn returned_with_damage(r: &mut Recipe) {
    featured(r, "Existential Dread");
    r.board = 2;
    bias(&mut r.walk, 0, 40);
}

/// Upstage Comedy ("Ready a unit", [Repeat] [2]) with one exhausted unit on the board: both
/// executions choose it, and the second finds it ready and is ignored (415.1.b, 820.1.d.2).
/// Every walk number below 40 pays the [Repeat].
fn readied_twice(r: &mut Recipe) {
    featured(r, "Upstage Comedy");
    r.board = 3;
    r.pool[0] = r.pool[0].max(4);
    bias(&mut r.walk, 0, 40);
}

/// Vendetta Duelist attacking with [Assault 2] (Might 5 while attacking, 807.2) over the enemy
/// Sturdy Dummy (Might 4): "damage equal to my Might" deals 5 in each of the two executions,
/// 10 in all, where the printed 3 would deal 6 (807.1.c). Every walk number below 40 performs
/// the optional ability, pays its [Repeat] (discarding one of the cards in hand) and chooses
/// the Dummy, the only enemy unit there.
fn assault_might(r: &mut Recipe) {
    r.item = ItemPick::Ability;
    r.board = 1;
    r.units.clear();
    r.reactions.clear();
    r.inject = 0;
    r.showdown = false;
    r.hand_other = r.hand_other.max(1);
    bias(&mut r.walk, 0, 40);
}

/// A spell costing [B] alone, an empty pool and [`RUNES`] 0 (one ready and one exhausted Mind
/// rune): the Power comes from recycling a Mind rune, the exhausted one first (164.2, 357.1.a).
/// Its [Repeat] is free, so paying it asks nothing more of the runes.
fn recycled_of_two(r: &mut Recipe, n: usize) {
    let mut d = generated_base();
    d.cost = Cost::energy(0);
    d.cost.power[Domain::Mind as usize] = 1;
    d.repeat = vec![RepeatCost::Pay(Cost::energy(0)); 1 + n % 2];
    r.item = ItemPick::Generated(Box::new(d));
    r.units = vec![unit(0, false, 1), unit(1, false, 0)];
    no_interference(r);
    r.runes = 1 + RUNE_SETUPS.len() as u8;
}

/// Find Your Center for a player with [`RUNES`] 1 (four ready Calm runes over the rune deck
/// [B] then [R]): "channel 1 rune exhausted" takes the top one, [B] (OGN-047).
fn channelled_from_top(r: &mut Recipe) {
    r.item = ItemPick::Catalogue(8);
    no_interference(r);
    r.deck = r.deck.max(1);
    r.runes = 2 + RUNE_SETUPS.len() as u8;
}

/// An empty pool (every payment from the runes), no grant, no Spire, no counters, no injected
/// statement, no showdown and no turn of plays.
fn no_interference(r: &mut Recipe) {
    r.pool = [0; 6];
    r.portal = false;
    r.spire = 0;
    r.reactions.clear();
    r.inject = 0;
    r.showdown = false;
    r.second = None;
    r.academy = false;
}
