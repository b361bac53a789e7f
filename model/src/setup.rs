//! A scenario's starting position: the board, the resources and hands, and what is about to be
//! played. The checker's bounds and the case files both describe scenarios with this type.

use crate::card::CardId;
use crate::cost::Cost;
use crate::state::{Location, Player};
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
    /// The Academy's hold triggered this turn: the next spell gets [Repeat] equal to its base
    /// cost.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub academy_charged: bool,
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
    /// The scenario starts with this unit's "when I attack" ability triggering: the index of a
    /// unit in `units` whose definition has such an ability.
    pub attack_trigger: Option<u8>,
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
        let you = Player::YOU.ix();
        if self.players[you].hand.is_empty() && self.attack_trigger.is_none() {
            return Err("nothing to play: your hand is empty and no ability triggers".into());
        }
        Ok(())
    }
}
