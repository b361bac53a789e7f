//! What is on the board besides the chain: units with their combat statuses, gear, and
//! battlefields with their controllers.

use super::*;

/// A unit. Its index in `State::units` names it for the whole play; once it leaves the board it
/// is a new object (124) and never legal as a target again (359.3.e.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Its definition.
    pub card: CardId,
    /// True for tokens.
    pub token: bool,
    /// Its owner.
    pub owner: Player,
    /// Its controller.
    pub controller: Player,
    /// Where it is.
    pub loc: Location,
    /// Board or trash.
    pub zone: Zone,
    /// Its printed (or token) Might.
    pub might: u8,
    /// Might given or taken this turn.
    pub might_mod: i8,
    /// Damage marked on it; lethal damage kills it in the next cleanup (321).
    pub damage: u8,
    /// Ready or exhausted, stunned, its combat designation, [Assault] granted this turn.
    pub status: UnitStatus,
}

impl Unit {
    /// Its current Might, never below 0: printed, plus what was given this turn, plus its
    /// [Assault] value while it is an attacker (807.1.c).
    pub fn current_might(&self) -> u8 {
        let assault = if self.status.combat == Combat::Attacking {
            self.status.assault as i16
        } else {
            0
        };
        (self.might as i16 + self.might_mod as i16 + assault).clamp(0, 255) as u8
    }

    /// 323.5, 423.1.c: damage marked is at least its Might (a unit with no damage is never
    /// lethal here, whatever its Might).
    pub fn lethal(&self) -> bool {
        self.zone == Zone::Board && self.damage > 0 && self.damage >= self.current_might()
    }
}

// ---- Combat statuses (units' statuses and Might) ----

/// A unit's combat designation (323.2, 459): attacker, defender, or none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Combat {
    /// No designation.
    #[default]
    None,
    /// An attacker: its [Assault] applies (807.1.d).
    Attacking,
    /// A defender.
    Defending,
}

/// The statuses of a unit on the board that combat spells read and change (124.2); all are
/// cleared when it changes zones (124.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnitStatus {
    /// Exhausted (414); a unit is ready otherwise (415).
    #[serde(default)]
    pub exhausted: bool,
    /// Stunned (423): a binary state, a stunned unit cannot be stunned again (423.1.a.1).
    #[serde(default)]
    pub stunned: bool,
    /// Attacker, defender or neither.
    #[serde(default)]
    pub combat: Combat,
    /// [Assault] granted this turn, summed over grants (807.2).
    #[serde(default)]
    pub assault: u8,
}

/// A gear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gear {
    /// Its definition.
    pub card: CardId,
    /// Its owner and controller.
    pub controller: Player,
    /// Board or trash.
    pub zone: Zone,
    /// Exhausted (it paid an "[E]" cost); gear starts ready.
    pub exhausted: bool,
}

/// A battlefield with its controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Battlefield {
    /// Its definition, if it has abilities that matter.
    pub card: Option<CardId>,
    /// Who controls it.
    pub controller: Option<Player>,
}
