//! A scenario's starting position: the board, the resources and hands, and what is about to be
//! played. The checker's bounds and the case files both describe scenarios with this type.

use crate::card::CardId;
use crate::cost::Cost;
use crate::state::{Combat, Location, Player, RunesSetup, UnitStatus, MAX_CARDS, MAX_RUNES};
use serde::{Deserialize, Serialize};

/// A unit on the board at the start.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnitSetup {
    /// Its definition.
    pub card: CardId,
    /// Its controller (and owner).
    pub controller: Player,
    /// Where it is.
    pub loc: Location,
    /// Damage already marked.
    #[serde(default)]
    pub damage: u8,
    /// Its owner, when it is not its controller.
    #[serde(default)]
    pub owner: Option<Player>,
    /// Exhausted, stunned, attacking or defending, [Assault] granted earlier this turn.
    #[serde(default)]
    pub status: UnitStatus,
}

impl UnitSetup {
    /// A unit of `card` for `controller` at `loc`, undamaged, owned by its controller, ready,
    /// with no other status.
    pub fn new(card: CardId, controller: Player, loc: Location) -> UnitSetup {
        UnitSetup {
            card,
            controller,
            loc,
            damage: 0,
            owner: None,
            status: UnitStatus::default(),
        }
    }
}

/// A gear on the board at the start.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GearSetup {
    /// Its definition.
    pub card: CardId,
    /// Its controller (and owner).
    pub controller: Player,
}

/// A battlefield at the start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BattlefieldSetup {
    /// Its definition, if it has abilities that matter (Marai Spire).
    pub card: Option<CardId>,
    /// Its controller.
    pub controller: Option<Player>,
}

/// A player at the start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerSetup {
    /// The rune pool.
    pub pool: Cost,
    /// Named cards in hand, playable in the scenario.
    pub hand: Vec<CardId>,
    /// Other cards in hand.
    pub hand_other: u8,
    /// Cards in the main deck.
    pub deck: u8,
    /// Temporal Portal was activated this turn.
    pub portal_charged: bool,
    /// Within 3 points of the Victory Score.
    pub near_victory: bool,
    // ---- the main deck, grants, runes ----
    /// Named cards on top of the main deck, top first, above the `deck` anonymous ones.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deck_top: Vec<CardId>,
    /// The Academy's hold triggered this turn: the next spell gets [Repeat] equal to its base
    /// cost.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub academy_charged: bool,
    /// The player's runes; `None` (the default) is a pool-only player, who pays from `pool` alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runes: Option<RunesSetup>,
}

/// The whole starting position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Setup {
    /// Units.
    pub units: Vec<UnitSetup>,
    /// Gear.
    pub gear: Vec<GearSetup>,
    /// Battlefields (at least as many as the units' battlefield locations need).
    pub battlefields: Vec<BattlefieldSetup>,
    /// You (index 0) and the opponent (index 1).
    pub players: [PlayerSetup; 2],
    /// A showdown is in progress.
    pub showdown: bool,
    /// The battlefield the showdown is at, if the scenario says (316.8.b); implies `showdown`.
    #[serde(default)]
    pub showdown_at: Option<u8>,
    /// The scenario starts with this unit's "when I attack" ability triggering: the index of a
    /// unit in `units` whose definition has such an ability.
    pub attack_trigger: Option<u8>,
    /// How much of the turn is explored: one play (the default) or several, and the end of turn.
    #[serde(default, skip_serializing_if = "TurnSetup::is_one_play")]
    pub turn: TurnSetup,
}

/// The most plays by the turn player a scenario may make; more would not fit the chain's ids.
pub const MAX_PLAYS: u8 = 8;

/// How much of the turn a scenario explores.
///
/// The default, one play with no end of turn, is the single-play scenario a bound or case
/// means unless it says otherwise: it is over when that play's chain closes (340.2). With more plays, or
/// `end_turn`, the turn player regains priority in the open state each time the chain closes
/// (335, 340.2) and may play again while plays remain, or end the turn; the scenario is over when
/// the turn ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TurnSetup {
    /// At most this many plays by the turn player from the open state (1..=`MAX_PLAYS`).
    pub plays: u8,
    /// The turn's end is explored even with one play (implied by `plays` above 1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub end_turn: bool,
}

impl Default for TurnSetup {
    fn default() -> Self {
        TurnSetup {
            plays: 1,
            end_turn: false,
        }
    }
}

impl TurnSetup {
    /// The single-play scenario (the default): over when the chain closes.
    pub fn is_one_play(&self) -> bool {
        *self == TurnSetup::default()
    }

    /// Whether the scenario goes on to the end of the turn.
    pub fn ends(&self) -> bool {
        self.end_turn || self.plays > 1
    }
}

impl Setup {
    /// Checks that indices and locations refer to things that exist.
    pub fn validate(&self, cards: usize) -> Result<(), String> {
        let bf = self.battlefields.len() as u8;
        for (i, u) in self.units.iter().enumerate() {
            if usize::from(u.card) >= cards {
                return Err(format!("unit {} refers to an unknown card", i + 1));
            }
            if u.controller.0 > 1 {
                return Err(format!(
                    "unit {}: player {} does not exist",
                    i + 1,
                    u.controller.0
                ));
            }
            match u.loc {
                Location::Battlefield(n) if n >= bf => {
                    return Err(format!(
                        "unit {} is at battlefield {}, but there are {bf}",
                        i + 1,
                        n + 1
                    ))
                }
                Location::Base(p) if p.0 > 1 => {
                    return Err(format!("unit {}: no such base", i + 1))
                }
                _ => {}
            }
        }
        self.validate_combat()?;
        if !(1..=MAX_PLAYS).contains(&self.turn.plays) {
            return Err(format!(
                "{} plays in the turn; expected 1 to {MAX_PLAYS}",
                self.turn.plays
            ));
        }
        if self.turn.ends() && (self.showdown || self.showdown_at.is_some()) {
            return Err("a turn of several plays (or its end) in a showdown needs focus passing (340.2.a, 347), which the model does not have: use one play".into());
        }
        if self.units.len() > 40 || self.gear.len() > 40 {
            return Err("at most 40 units and 40 gear".into());
        }
        if let Some(t) = self.attack_trigger {
            if usize::from(t) >= self.units.len() {
                return Err(format!(
                    "the attack trigger names unit {}, which does not exist",
                    t + 1
                ));
            }
        }
        for (p, ps) in self.players.iter().enumerate() {
            if let Some(c) = ps.deck_top.iter().find(|c| usize::from(**c) >= cards) {
                return Err(format!("{}'s deck names unknown card {c}", Player(p as u8)));
            }
            if let Some(r) = &ps.runes {
                if r.total() > MAX_RUNES {
                    return Err(format!(
                        "{} has {} runes; at most {MAX_RUNES} (a rune deck's size)",
                        Player(p as u8),
                        r.total()
                    ));
                }
            }
            let n = ps.hand.len()
                + ps.deck_top.len()
                + usize::from(ps.hand_other)
                + usize::from(ps.deck);
            if n > MAX_CARDS {
                return Err(format!(
                    "{} has {n} cards in hand and deck; at most {MAX_CARDS}",
                    Player(p as u8)
                ));
            }
        }
        let you = Player::YOU.ix();
        if self.players[you].hand.is_empty() && self.attack_trigger.is_none() {
            return Err("nothing to play: your hand is empty and no ability triggers".into());
        }
        Ok(())
    }

    /// Owners exist; a showdown's battlefield exists; attackers and defenders are at the
    /// showdown's battlefield (323.2.c: a unit elsewhere loses its designation).
    fn validate_combat(&self) -> Result<(), String> {
        if let Some(n) = self.showdown_at {
            if usize::from(n) >= self.battlefields.len() {
                return Err(format!(
                    "the showdown is at battlefield {}, but there are {}",
                    u16::from(n) + 1,
                    self.battlefields.len()
                ));
            }
        }
        for (i, u) in self.units.iter().enumerate() {
            if u.owner.is_some_and(|p| p.0 > 1) {
                return Err(format!("unit {}: its owner does not exist", i + 1));
            }
            if u.status.combat != Combat::None
                && self.showdown_at.map(Location::Battlefield) != Some(u.loc)
            {
                return Err(format!(
                    "unit {} is attacking or defending, so it must be at the showdown's battlefield (declare `showdown battlefield N` there; 323.2.c)",
                    i + 1
                ));
            }
        }
        Ok(())
    }
}
