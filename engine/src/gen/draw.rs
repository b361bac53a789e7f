//! Drawing a starting position from the catalogue: cards are picked by their kind and
//! properties (what they are, their timing, their abilities), never by name or list position,
//! so a card added to the catalogue is drawn with no other change. Every setup field the model
//! accepts is drawn for both players: pools and runes, hands and decks (named cards on top),
//! near-victory, waiting grants, units of either side with either owner, damage and statuses
//! (exhausted, stunned, attacking or defending with [Assault]), gear, battlefields with their
//! controllers, showdowns, and turns of several plays. Which draws are kept is for the goals
//! (`goals`) to say, not for weights tuned here.

use super::prng::Rng;
use super::profile::{board_needs, play_needs, Profile};
use model::card::{Ability, CardDef, CardId, CardKind, Timing};
use model::cost::{Cost, Domain};
use model::setup::*;
use model::state::{Combat, Location, Player, RunesSetup, UnitStatus};

/// The catalogue's cards sorted by the roles they can have in a case, keeping only those the
/// engine's declared features allow in that role.
#[derive(Clone, Debug, Default)]
pub struct Pools {
    /// Cards that can be played from hand (spells, units, gear).
    pub hand: Vec<CardId>,
    /// Spells the opponent (or you, later in a turn) can play while a chain is open or in a
    /// showdown ([Reaction], [Action]).
    pub fast: Vec<CardId>,
    /// Units for the board.
    pub units: Vec<CardId>,
    /// Units with a "when I attack" ability (the scenario can start with it triggering).
    pub attackers: Vec<CardId>,
    /// Gear for the board.
    pub gear: Vec<CardId>,
    /// Battlefields with abilities.
    pub battlefields: Vec<CardId>,
    /// Named cards that can be on top of a deck (any card a player can hold).
    pub deck: Vec<CardId>,
    /// Every card's printed Might, by id.
    pub might: Vec<u8>,
}

impl Pools {
    /// The pools of a card table for an engine's profile.
    pub fn new(cards: &[CardDef], profile: &Profile) -> Pools {
        let mut p = Pools {
            might: cards.iter().map(|c| c.might).collect(),
            ..Pools::default()
        };
        for (i, c) in cards.iter().enumerate() {
            let id = i as CardId;
            let holdable = matches!(c.kind, CardKind::Spell | CardKind::Unit | CardKind::Gear)
                && (c.kind != CardKind::Spell || !c.modes.is_empty());
            let playable = holdable && profile.allows(&play_needs(c, cards));
            if playable {
                p.hand.push(id);
                if c.kind == CardKind::Spell && c.timing != Timing::Normal {
                    p.fast.push(id);
                }
            }
            if holdable && profile.has("deck-cards") {
                p.deck.push(id);
            }
            let on_board = profile.allows(&board_needs(c, cards));
            match c.kind {
                CardKind::Unit if on_board => {
                    p.units.push(id);
                    let attacks = c.has(|a| matches!(a, Ability::WhenAttacks(_)));
                    if attacks && profile.has("abilities") && profile.has("triggers") {
                        p.attackers.push(id);
                    }
                }
                CardKind::Gear if on_board => p.gear.push(id),
                CardKind::Battlefield if on_board => p.battlefields.push(id),
                _ => {}
            }
        }
        p
    }
}

/// Whose: you or the opponent, evenly.
fn side(rng: &mut Rng) -> Player {
    if rng.chance(1, 2) {
        Player::YOU
    } else {
        Player::OPP
    }
}

/// A pool: rich enough for most plays, poor (most payments fail: 358.5), or empty (paid with
/// runes, when the engine declares them).
fn pool(rng: &mut Rng) -> Cost {
    let mut c = Cost::default();
    let rich = rng.weighted(&[5, 2, 1]).unwrap_or(0);
    let (e, p) = match rich {
        0 => (rng.range(6, 14), 3),
        1 => (rng.range(0, 5), 1),
        _ => (0, 0),
    };
    c.energy = e;
    for d in 0..6 {
        c.power[d] = rng.range(0, p);
    }
    c
}

/// Runes: ready and exhausted ones of random domains, and a short rune deck (164.2, 357.1.a).
fn runes(rng: &mut Rng) -> RunesSetup {
    let mut r = RunesSetup::default();
    for _ in 0..rng.range(0, 5) {
        r.ready[rng.below(6)] += 1;
    }
    for _ in 0..rng.range(0, 2) {
        r.exhausted[rng.below(6)] += 1;
    }
    for _ in 0..rng.range(0, 2) {
        r.deck.push(Domain::ALL[rng.below(6)]);
    }
    r
}

/// One player's resources, hand size, deck and waiting grants.
fn player(rng: &mut Rng, pools: &Pools, profile: &Profile) -> PlayerSetup {
    let mut p = PlayerSetup {
        pool: pool(rng),
        hand_other: rng.range(0, 3),
        deck: rng.range(0, 8),
        near_victory: rng.chance(1, 4),
        ..PlayerSetup::default()
    };
    if profile.has("runes") && (p.pool.is_zero() || rng.chance(1, 6)) {
        p.runes = Some(runes(rng));
    }
    if profile.has("grants") {
        p.portal_charged = rng.chance(1, 6);
        p.academy_charged = rng.chance(1, 8);
    }
    if rng.chance(1, 4) {
        for _ in 0..rng.range(1, 3) {
            if let Some(c) = rng.pick(&pools.deck) {
                p.deck_top.push(*c);
            }
        }
    }
    p
}

/// A unit of the board: either side, at a base or a battlefield, sometimes owned by the other
/// player, damaged, exhausted, stunned, or in the showdown's combat with [Assault].
fn unit(rng: &mut Rng, card: CardId, might: u8, s: &Setup, combat: bool) -> UnitSetup {
    let controller = side(rng);
    let loc = match rng.below(3) {
        0 => Location::Base(controller),
        n => Location::Battlefield(n as u8 - 1),
    };
    unit_at(rng, card, might, s, combat, (controller, loc))
}

/// [`unit`], for this controller at this location.
fn unit_at(
    rng: &mut Rng,
    card: CardId,
    might: u8,
    s: &Setup,
    combat: bool,
    (controller, loc): (Player, Location),
) -> UnitSetup {
    let mut u = UnitSetup::new(card, controller, loc);
    // Damage short of lethal: a unit with lethal damage would have died at the last cleanup
    // (321), so no game reaches such a position.
    if might > 1 && rng.chance(1, 5) {
        u.damage = rng.range(1, might - 1);
    }
    if combat {
        if rng.chance(1, 6) {
            u.owner = Some(controller.other());
        }
        u.status = UnitStatus {
            exhausted: rng.chance(1, 4),
            stunned: rng.chance(1, 8),
            ..UnitStatus::default()
        };
        if s.showdown_at.map(Location::Battlefield) == Some(loc) && rng.chance(2, 3) {
            u.status.combat = if rng.chance(1, 2) {
                Combat::Attacking
            } else {
                Combat::Defending
            };
            if rng.chance(1, 3) {
                u.status.assault = rng.range(1, 2);
            }
        }
    }
    u
}

/// The board: units (often an enemy one at a battlefield and one at its base, so that a play
/// has something to choose), gear and battlefields.
fn board(rng: &mut Rng, pools: &Pools, profile: &Profile, s: &mut Setup) {
    let might = |c: CardId| pools.might.get(usize::from(c)).copied().unwrap_or(0);
    let combat = profile.has("combat");
    let n = rng.range(0, 4);
    if rng.chance(2, 3) && !pools.units.is_empty() {
        let at = Location::Battlefield(s.showdown_at.unwrap_or(0));
        for loc in [at, Location::Base(Player::OPP)] {
            let card = pools.units[rng.below(pools.units.len())];
            let u = unit_at(rng, card, might(card), s, combat, (Player::OPP, loc));
            s.units.push(u);
        }
    }
    for _ in 0..n {
        if let Some(card) = rng.pick(&pools.units).copied() {
            let u = unit(rng, card, might(card), s, combat);
            s.units.push(u);
        }
    }
    for _ in 0..rng.weighted(&[3, 3, 1]).unwrap_or(0) {
        if let Some(card) = rng.pick(&pools.gear).copied() {
            let controller = side(rng);
            s.gear.push(GearSetup { card, controller });
        }
    }
    for b in 0..2 {
        if rng.chance(1, 3) {
            s.battlefields[b] = BattlefieldSetup {
                card: rng.pick(&pools.battlefields).copied(),
                controller: [None, Some(Player::YOU), Some(Player::OPP)][rng.below(3)],
            };
        }
    }
}

/// The scenario starts with a unit's "when I attack" ability triggering: the attacker of yours
/// and an enemy unit at its battlefield.
fn attack(rng: &mut Rng, pools: &Pools, s: &mut Setup) -> bool {
    let (Some(a), Some(e)) = (
        rng.pick(&pools.attackers).copied(),
        rng.pick(&pools.units).copied(),
    ) else {
        return false;
    };
    let at = Location::Battlefield(0);
    s.units.push(UnitSetup::new(e, Player::OPP, at));
    s.attack_trigger = Some(s.units.len() as u8);
    s.units.push(UnitSetup::new(a, Player::YOU, at));
    s.players[0].hand_other = s.players[0].hand_other.max(1);
    true
}

/// A starting position: the item (`item`, if given, is played first: a generated card's id),
/// more cards of yours for a turn of several plays, the opponent's fast spells, the board and
/// both players' resources.
pub fn setup(rng: &mut Rng, pools: &Pools, profile: &Profile, item: Option<CardId>) -> Setup {
    let mut s = Setup {
        battlefields: vec![BattlefieldSetup::default(), BattlefieldSetup::default()],
        ..Setup::default()
    };
    s.players = [player(rng, pools, profile), player(rng, pools, profile)];
    s.showdown = rng.chance(1, 4);
    if s.showdown && profile.has("combat") && rng.chance(1, 2) {
        s.showdown_at = Some(rng.below(2) as u8);
    }
    let turn = profile.has("turn") && !s.showdown && rng.chance(1, 3);
    if turn {
        s.turn = TurnSetup {
            plays: rng.range(1, 3),
            end_turn: true,
        };
    }
    board(rng, pools, profile, &mut s);
    let attacks = item.is_none() && rng.chance(1, 10) && attack(rng, pools, &mut s);
    if !attacks {
        let first = item.or_else(|| rng.pick(&pools.hand).copied());
        s.players[0].hand.extend(first);
    }
    // A turn holds more of your cards than its plays, now and then one more: a play past the
    // turn's limit is then possible to state (and illegal).
    let more = if turn {
        usize::from(s.turn.plays) - 1 + rng.below(2)
    } else {
        rng.below(4) / 3
    };
    for _ in 0..more {
        let pool = if rng.chance(1, 2) {
            &pools.fast
        } else {
            &pools.hand
        };
        s.players[0].hand.extend(rng.pick(pool).copied());
    }
    for _ in 0..rng.weighted(&[2, 3, 2, 1]).unwrap_or(0) {
        let pool = if rng.chance(3, 4) {
            &pools.fast
        } else {
            &pools.hand
        };
        s.players[1].hand.extend(rng.pick(pool).copied());
    }
    s
}

/// One small change to a starting position (a coverage-guided fuzzer's mutation): a unit
/// redrawn, added or left out, your first card replaced, a player's resources redrawn, the
/// showdown toggled, the opponent's hand changed, a player's flags toggled.
pub fn mutate(rng: &mut Rng, pools: &Pools, profile: &Profile, s: &mut Setup) {
    let might = |c: CardId| pools.might.get(usize::from(c)).copied().unwrap_or(0);
    let combat = profile.has("combat");
    let attacker = s.attack_trigger.map(usize::from);
    let movable: Vec<usize> = (0..s.units.len())
        .filter(|j| Some(*j) != attacker)
        .collect();
    match rng.below(8) {
        0 if !movable.is_empty() => {
            let j = movable[rng.below(movable.len())];
            let card = if rng.chance(1, 2) {
                s.units[j].card
            } else {
                rng.pick(&pools.units).copied().unwrap_or(s.units[j].card)
            };
            s.units[j] = unit(rng, card, might(card), s, combat);
        }
        1 => {
            if let Some(card) = rng.pick(&pools.units).copied() {
                let u = unit(rng, card, might(card), s, combat);
                s.units.push(u);
            }
        }
        2 if !movable.is_empty() => {
            let j = movable[rng.below(movable.len())];
            s.units.remove(j);
            if let Some(t) = &mut s.attack_trigger {
                if usize::from(*t) > j {
                    *t -= 1;
                }
            }
        }
        3 if !s.players[0].hand.is_empty() => {
            if let Some(c) = rng.pick(&pools.hand).copied() {
                s.players[0].hand[0] = c;
            }
        }
        4 => {
            let p = rng.below(2);
            let hand = std::mem::take(&mut s.players[p].hand);
            s.players[p] = player(rng, pools, profile);
            s.players[p].hand = hand;
        }
        5 if s.turn.is_one_play() => {
            s.showdown = !s.showdown;
            s.showdown_at = match s.showdown && combat {
                true => Some(rng.below(2) as u8),
                false => None,
            };
            for u in &mut s.units {
                if s.showdown_at.map(Location::Battlefield) != Some(u.loc) {
                    u.status.combat = Combat::None;
                }
            }
        }
        6 => {
            let hand = &mut s.players[1].hand;
            match rng.pick(&pools.fast).copied() {
                Some(c) if hand.is_empty() || rng.chance(1, 2) => hand.push(c),
                Some(c) => hand[0] = c,
                None => {}
            }
        }
        _ => {
            let p = &mut s.players[rng.below(2)];
            match rng.below(3) {
                0 => p.near_victory = !p.near_victory,
                1 if profile.has("grants") => p.portal_charged = !p.portal_charged,
                2 if profile.has("grants") => p.academy_charged = !p.academy_charged,
                _ => p.near_victory = !p.near_victory,
            }
        }
    }
}
