//! Counterexamples as ITF, the Informal Trace Format of Apalache and Quint, with
//! `mbt::actionTaken` and `mbt::nondetPicks` per state as model-based testing tools expect.
//!
//! Every value is typed the way Quint writes its own: integers as `#bigint`, absent values and
//! chain phases as Quint sum types (`{"tag", "value"}`), pools as records of numbers; ITF has
//! no null. Structs list their fields in alphabetical order, the order serde_json's maps use.

use crate::case::print::{loc, player};
use checker::{Model, Trace};
use model::cost::{Cost, Domain};
use model::state::{Combat, Obj, Phase, Player, State, Zone};
use properties::RepeatSystem;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// An ITF integer: `{"#bigint": "<decimal>"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BigInt(pub i64);

impl Serialize for BigInt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("#bigint", &self.0.to_string())?;
        m.end()
    }
}

/// An optional value as Quint encodes its `Option` sum type in ITF (ITF has no null):
/// `{"tag": "Some", "value": v}` or `{"tag": "None", "value": {"#tup": []}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItfOption<T>(pub Option<T>);

/// The ITF empty tuple, Quint's unit value (the value of a sum type's bare tag).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Unit {
    #[serde(rename = "#tup")]
    tup: [(); 0],
}

impl<T: Serialize> Serialize for ItfOption<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        match &self.0 {
            Some(v) => {
                m.serialize_entry("tag", "Some")?;
                m.serialize_entry("value", v)?;
            }
            None => {
                m.serialize_entry("tag", "None")?;
                m.serialize_entry("value", &Unit { tup: [] })?;
            }
        }
        m.end()
    }
}

/// A unit in an ITF state.
#[derive(Clone, Debug, Serialize)]
pub struct ItfUnit {
    /// The card's name.
    pub card: String,
    /// Who controls it.
    pub controller: &'static str,
    /// Damage marked on it.
    pub damage: BigInt,
    /// Where it is.
    pub location: String,
    /// Its current Might.
    pub might: BigInt,
    /// Exhausted, stunned, its combat designation and [Assault] granted this turn.
    pub status: ItfStatus,
    /// Whether it is a token.
    pub token: bool,
    /// `board` or `trash`.
    pub zone: &'static str,
}

/// A unit's status in an ITF state (414, 415, 423, 807.2).
#[derive(Clone, Debug, Serialize)]
pub struct ItfStatus {
    /// [Assault] granted this turn, summed.
    pub assault: BigInt,
    /// `none`, `attacking` or `defending`.
    pub combat: &'static str,
    /// Exhausted (else ready).
    pub exhausted: bool,
    /// Stunned.
    pub stunned: bool,
}

/// A gear in an ITF state.
#[derive(Clone, Debug, Serialize)]
pub struct ItfGear {
    /// The card's name.
    pub card: String,
    /// Who controls it.
    pub controller: &'static str,
    /// Exhausted (it paid an [E] cost); gear starts ready.
    pub exhausted: bool,
    /// `board` or `trash`.
    pub zone: &'static str,
}

/// A player's runes in an ITF state (163–164).
#[derive(Clone, Debug, Serialize)]
pub struct ItfRunes {
    /// The rune deck, top first, as domain names.
    pub deck: Vec<&'static str>,
    /// Exhausted runes on the board, per domain.
    pub exhausted: ItfDomains,
    /// Ready runes on the board, per domain.
    pub ready: ItfDomains,
}

/// A count per domain.
#[derive(Clone, Debug, Serialize)]
pub struct ItfDomains {
    /// Body.
    pub body: BigInt,
    /// Calm.
    pub calm: BigInt,
    /// Chaos.
    pub chaos: BigInt,
    /// Fury.
    pub fury: BigInt,
    /// Mind.
    pub mind: BigInt,
    /// Order.
    pub order: BigInt,
}

impl From<&[u8; 6]> for ItfDomains {
    fn from(n: &[u8; 6]) -> ItfDomains {
        let p = |d: Domain| int(n[d as usize]);
        ItfDomains {
            body: p(Domain::Body),
            calm: p(Domain::Calm),
            chaos: p(Domain::Chaos),
            fury: p(Domain::Fury),
            mind: p(Domain::Mind),
            order: p(Domain::Order),
        }
    }
}

/// The grants waiting for a player's next spell, counted (one per effect that gave one).
#[derive(Clone, Debug, Serialize)]
pub struct ItfGrants {
    /// The Academy's: the next spell gets [Repeat] equal to its base cost for each.
    pub academy: BigInt,
    /// Temporal Portal's, one per activation: the next spell gets [Repeat] equal to its cost for each.
    pub portal: BigInt,
}

/// A player in an ITF state.
#[derive(Clone, Debug, Serialize)]
pub struct ItfPlayer {
    /// Cards left in the deck.
    pub deck: BigInt,
    /// Items finalized this turn.
    pub finalized: BigInt,
    /// Grants waiting for the player's next spell.
    pub grants: ItfGrants,
    /// Cards in hand.
    pub hand_size: BigInt,
    /// Within 3 points of the Victory Score.
    pub near_victory: bool,
    /// `you` or `opponent`.
    pub player: &'static str,
    /// The rune pool.
    pub pool: ItfPool,
    /// The runes on the board and in the rune deck; `None` for a player who pays from the
    /// pool alone.
    pub runes: ItfOption<ItfRunes>,
    /// Runes channelled exhausted during the play (counted for a pool-only player too).
    pub runes_channelled: BigInt,
    /// The trash's cards.
    pub trash: Vec<String>,
}

/// One execution's choices of a chain item.
#[derive(Clone, Debug, Serialize)]
pub struct ItfChoice {
    /// The mode chosen (1-based), if the card has modes.
    pub mode: ItfOption<BigInt>,
    /// The targets chosen.
    pub targets: Vec<String>,
}

/// An item on the chain in an ITF state.
#[derive(Clone, Debug, Serialize)]
pub struct ItfItem {
    /// The card's name.
    pub card: String,
    /// The choices of each execution.
    pub choices: Vec<ItfChoice>,
    /// Who controls it.
    pub controller: &'static str,
    /// Its number (1-based).
    pub item: BigInt,
    /// Where in the play it is.
    pub phase: ItfPhase,
    /// The [Repeat] instances paid (1-based).
    pub repeat_paid: Vec<BigInt>,
}

/// `mbt::nondetPicks`: what was picked to reach a state, Quint-style: the same fields in every
/// state, each an option (the scenario for the first state, the action for the others).
#[derive(Clone, Debug, Serialize)]
pub struct Picks {
    /// The action's index among the state's enabled actions.
    pub action_index: ItfOption<BigInt>,
    /// The action in words, with its rule.
    pub description: ItfOption<String>,
    /// The scenario's name.
    pub scenario: ItfOption<String>,
}

/// A rune pool (or any amount of Energy and Power): Energy and each domain's Power.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ItfPool {
    /// Body Power, [O].
    pub body: BigInt,
    /// Calm Power, [G].
    pub calm: BigInt,
    /// Chaos Power, [P].
    pub chaos: BigInt,
    /// Energy, [n].
    pub energy: BigInt,
    /// Fury Power, [R].
    pub fury: BigInt,
    /// Mind Power, [B].
    pub mind: BigInt,
    /// Order Power, [Y].
    pub order: BigInt,
}

impl From<&Cost> for ItfPool {
    fn from(c: &Cost) -> ItfPool {
        let p = |d: Domain| int(c.power[d as usize]);
        ItfPool {
            body: p(Domain::Body),
            calm: p(Domain::Calm),
            chaos: p(Domain::Chaos),
            energy: int(c.energy),
            fury: p(Domain::Fury),
            mind: p(Domain::Mind),
            order: p(Domain::Order),
        }
    }
}

/// Where a chain item is in its life, as a Quint sum type: the tag is the phase's name, the
/// value its fields as a record (executions, instructions and items counted from 1, as
/// everywhere in ITF) or the unit value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "tag", content = "value")]
pub enum ItfPhase {
    /// Pending: choices being made (355).
    Choosing(Unit),
    /// Pending: total cost not yet determined (356).
    Chosen(Unit),
    /// Pending: cost determined, not paid (357).
    Costed(Unit),
    /// Pending: paid, legality not checked (358).
    Paid(Unit),
    /// Pending: legal, to be finalized (359).
    Legal(Unit),
    /// Finalized, waiting to resolve (359.3).
    Finalized(Unit),
    /// Resolving; `done` executions have run (820.3).
    Resolving {
        /// Executions finished.
        done: BigInt,
    },
    /// Paused in execution `exec` while new choices are made for item `for_item` (750–755).
    NewChoices {
        /// The execution.
        exec: BigInt,
        /// The item whose choices may be remade.
        for_item: BigInt,
    },
    /// Paused in execution `exec`, instruction `slot`, looking at the deck's top `left` cards.
    Looking {
        /// The execution.
        exec: BigInt,
        /// Cards looked at still on top of the deck.
        left: BigInt,
        /// The instruction.
        slot: BigInt,
        /// The draw decision is still to be made.
        taking: bool,
    },
    /// Paused in execution `exec` at `slot`: its controller chooses `left` more cards to discard.
    Discarding {
        /// The execution.
        exec: BigInt,
        /// Cards still to discard.
        left: BigInt,
        /// The instruction.
        slot: BigInt,
    },
    /// Paused in execution `exec`: item `target`'s controller decides to pay `energy` or not.
    Demanding {
        /// Energy asked.
        energy: BigInt,
        /// The execution.
        exec: BigInt,
        /// The item whose controller is asked.
        target: BigInt,
    },
}

impl From<&Phase> for ItfPhase {
    fn from(p: &Phase) -> ItfPhase {
        let unit = Unit::default();
        let nth = |n: u8| int(i64::from(n) + 1);
        match *p {
            Phase::Choosing => ItfPhase::Choosing(unit),
            Phase::Chosen => ItfPhase::Chosen(unit),
            Phase::Costed => ItfPhase::Costed(unit),
            Phase::Paid => ItfPhase::Paid(unit),
            Phase::Legal => ItfPhase::Legal(unit),
            Phase::Finalized => ItfPhase::Finalized(unit),
            Phase::Resolving { done } => ItfPhase::Resolving { done: int(done) },
            Phase::NewChoices { exec, for_item } => ItfPhase::NewChoices {
                exec: nth(exec),
                for_item: nth(for_item),
            },
            Phase::Looking {
                exec,
                slot,
                left,
                taking,
            } => ItfPhase::Looking {
                exec: nth(exec),
                left: int(left),
                slot: nth(slot),
                taking,
            },
            Phase::Discarding { exec, slot, left } => ItfPhase::Discarding {
                exec: nth(exec),
                left: int(left),
                slot: nth(slot),
            },
            Phase::Demanding {
                exec,
                target,
                energy,
                ..
            } => ItfPhase::Demanding {
                energy: int(energy),
                exec: nth(exec),
                target: nth(target),
            },
        }
    }
}

/// A state's `#meta`: its index in the trace.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct StateMeta {
    /// The index, from 0.
    pub index: usize,
}

/// One ITF state: the variables of [`VARS`] and its `#meta`.
#[derive(Clone, Debug, Serialize)]
pub struct ItfState {
    /// The index in the trace.
    #[serde(rename = "#meta")]
    pub meta: StateMeta,
    /// The chain, bottom first.
    pub chain: Vec<ItfItem>,
    /// Every event so far, in words.
    pub events: Vec<String>,
    /// Every gear.
    pub gear: Vec<ItfGear>,
    /// The action that led here (`init` for the first state).
    #[serde(rename = "mbt::actionTaken")]
    pub action_taken: String,
    /// What was picked.
    #[serde(rename = "mbt::nondetPicks")]
    pub nondet_picks: Picks,
    /// Both players.
    pub players: Vec<ItfPlayer>,
    /// The rules the action cites (`None` for the first state).
    pub rule: ItfOption<String>,
    /// Every unit.
    pub units: Vec<ItfUnit>,
}

/// The trace's `#meta`.
#[derive(Clone, Debug, Serialize)]
pub struct TraceMeta {
    /// What the trace shows.
    pub description: String,
    /// Always `ITF`.
    pub format: &'static str,
    /// Where ITF is described.
    #[serde(rename = "format-description")]
    pub format_description: &'static str,
    /// Always `rbcheck`.
    pub source: &'static str,
}

/// An ITF trace.
#[derive(Clone, Debug, Serialize)]
pub struct ItfTrace {
    /// What it is.
    #[serde(rename = "#meta")]
    pub meta: TraceMeta,
    /// The states in order.
    pub states: Vec<ItfState>,
    /// The variables of each state.
    pub vars: [&'static str; 8],
}

/// The variables of every ITF state.
pub const VARS: [&str; 8] = [
    "mbt::actionTaken",
    "mbt::nondetPicks",
    "rule",
    "units",
    "gear",
    "players",
    "chain",
    "events",
];

fn int(n: impl Into<i64>) -> BigInt {
    BigInt(n.into())
}

fn obj(o: Obj) -> String {
    match o {
        Obj::Unit(u) => format!("unit {}", u + 1),
        Obj::Gear(g) => format!("gear {}", g + 1),
        Obj::Item(i) => format!("item {}", i + 1),
    }
}

fn domain(d: Domain) -> &'static str {
    match d {
        Domain::Fury => "fury",
        Domain::Calm => "calm",
        Domain::Mind => "mind",
        Domain::Body => "body",
        Domain::Chaos => "chaos",
        Domain::Order => "order",
    }
}

fn zone(z: Zone) -> &'static str {
    if z == Zone::Board {
        "board"
    } else {
        "trash"
    }
}

/// The state as ITF values, reached by `action` (applying `rule`) with `picks`.
fn itf_state(
    sys: &RepeatSystem,
    s: &State,
    index: usize,
    action: &str,
    rule: Option<&str>,
    picks: Picks,
) -> ItfState {
    let g = &sys.game;
    let card = |c| g.card(c).name.clone();
    ItfState {
        meta: StateMeta { index },
        chain: s
            .chain
            .iter()
            .map(|i| ItfItem {
                card: card(i.card),
                choices: i
                    .choices
                    .iter()
                    .map(|c| ItfChoice {
                        mode: ItfOption(c.mode.map(|m| int(m + 1))),
                        targets: c.objects().map(obj).collect(),
                    })
                    .collect(),
                controller: player(i.controller),
                item: int(i.id + 1),
                phase: ItfPhase::from(&i.phase),
                repeat_paid: i
                    .repeat
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.paid > 0)
                    .map(|(n, _)| int(n as i64 + 1))
                    .collect(),
            })
            .collect(),
        events: s
            .log
            .iter()
            .filter_map(|e| g.describe_event(s, e))
            .collect(),
        gear: s
            .gear
            .iter()
            .map(|x| ItfGear {
                card: card(x.card),
                controller: player(x.controller),
                exhausted: x.exhausted,
                zone: zone(x.zone),
            })
            .collect(),
        action_taken: action.into(),
        nondet_picks: picks,
        players: [Player::YOU, Player::OPP]
            .iter()
            .map(|p| {
                let ps = &s.players[p.ix()];
                ItfPlayer {
                    deck: int(ps.deck),
                    finalized: int(ps.finalized_this_turn),
                    grants: ItfGrants {
                        academy: int(ps.academy_grants),
                        portal: int(ps.portal_grants),
                    },
                    hand_size: int(ps.hand.len() as i64 + i64::from(ps.hand_other)),
                    near_victory: ps.near_victory,
                    player: player(*p),
                    pool: ItfPool::from(&ps.pool),
                    runes: ItfOption(ps.runes.as_ref().map(|r| ItfRunes {
                        deck: r.deck.iter().map(|d| domain(*d)).collect(),
                        exhausted: ItfDomains::from(&r.exhausted),
                        ready: ItfDomains::from(&r.ready),
                    })),
                    runes_channelled: int(ps.runes_exhausted),
                    trash: ps.trash.iter().map(|c| card(*c)).collect(),
                }
            })
            .collect(),
        rule: ItfOption(rule.map(String::from)),
        units: s
            .units
            .iter()
            .map(|u| ItfUnit {
                card: card(u.card),
                controller: player(u.controller),
                location: loc(u.loc),
                zone: zone(u.zone),
                might: int(u.current_might()),
                damage: int(u.damage),
                status: ItfStatus {
                    assault: int(u.status.assault),
                    combat: match u.status.combat {
                        Combat::None => "none",
                        Combat::Attacking => "attacking",
                        Combat::Defending => "defending",
                    },
                    exhausted: u.status.exhausted,
                    stunned: u.status.stunned,
                },
                token: u.token,
            })
            .collect(),
    }
}

/// A counterexample as an ITF trace.
pub fn itf_trace(
    sys: &RepeatSystem,
    trace: &Trace<RepeatSystem>,
    property: &str,
    rule: &str,
) -> ItfTrace {
    let scenario = sys
        .scenarios
        .get(trace.init_index)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let mut states = vec![itf_state(
        sys,
        &trace.init,
        0,
        "init",
        None,
        Picks {
            action_index: ItfOption(None),
            description: ItfOption(None),
            scenario: ItfOption(Some(scenario)),
        },
    )];
    let mut last = &trace.init;
    for (i, step) in trace.steps.iter().enumerate() {
        let index = i64::try_from(step.action_index).expect("an action index fits in i64");
        let picks = Picks {
            action_index: ItfOption(Some(int(index))),
            description: ItfOption(Some(sys.format_action(last, &step.action))),
            scenario: ItfOption(None),
        };
        states.push(itf_state(
            sys,
            &step.state,
            i + 1,
            step.action.name(),
            Some(step.action.rule()),
            picks,
        ));
        last = &step.state;
    }
    ItfTrace {
        meta: TraceMeta {
            description: format!(
                "counterexample to {property} ({rule}) under {}",
                sys.game.rules.book().name
            ),
            format: "ITF",
            format_description: "https://apalache-mc.org/docs/adr/015adr-trace.html",
            source: "rbcheck",
        },
        states,
        vars: VARS,
    }
}

/// A counterexample as ITF JSON.
pub fn itf(sys: &RepeatSystem, trace: &Trace<RepeatSystem>, property: &str, rule: &str) -> String {
    serde_json::to_string(&itf_trace(sys, trace, property, rule)).expect("an ITF trace serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_values_are_quint_options_not_null() {
        let some = serde_json::to_string(&ItfOption(Some(BigInt(2)))).unwrap();
        assert_eq!(some, r##"{"tag":"Some","value":{"#bigint":"2"}}"##);
        let none = serde_json::to_string(&ItfOption::<BigInt>(None)).unwrap();
        assert_eq!(none, r##"{"tag":"None","value":{"#tup":[]}}"##);
    }
}
