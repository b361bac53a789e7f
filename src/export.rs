//! Counterexamples in the formats other tools read: JSON steps, ITF (the Informal Trace Format of
//! Apalache and Quint, with `mbt::actionTaken` and `mbt::nondetPicks` per state, as model-based
//! testing tools expect) and DOT. Case files are written by `crate::cases`.
//!
//! Every struct serialised here lists its fields in alphabetical order, the order the files have
//! always had (serde_json's maps are sorted), so that they stay byte for byte the same.

use crate::case::print::{loc, player};
use crate::report::{steps, Step};
use checker::graph::{quoted, DotWriter};
use checker::{Model, Trace};
use model::state::{Obj, Player, State, Zone};
use properties::RepeatSystem;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// The `--traces` JSON file of one counterexample: the property and the trace's steps.
#[derive(Clone, Debug, Serialize)]
pub struct StepsFile {
    /// The property violated.
    pub property: String,
    /// The rule it checks.
    pub rule: String,
    /// The trace.
    pub steps: Vec<Step>,
}

/// A trace's steps as the `--traces` JSON file.
pub fn steps_file(
    sys: &RepeatSystem,
    trace: &Trace<RepeatSystem>,
    property: &str,
    rule: &str,
) -> String {
    let file = StepsFile {
        property: property.into(),
        rule: rule.into(),
        steps: steps(sys, trace),
    };
    serde_json::to_string(&file).expect("a trace serialises")
}

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

/// The ITF empty tuple, Quint's unit value.
#[derive(Serialize)]
struct Unit {
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
    /// Whether it is a token.
    pub token: bool,
    /// `board` or `trash`.
    pub zone: &'static str,
}

/// A gear in an ITF state.
#[derive(Clone, Debug, Serialize)]
pub struct ItfGear {
    /// The card's name.
    pub card: String,
    /// Who controls it.
    pub controller: &'static str,
    /// `board` or `trash`.
    pub zone: &'static str,
}

/// A player in an ITF state.
#[derive(Clone, Debug, Serialize)]
pub struct ItfPlayer {
    /// Cards left in the deck.
    pub deck: BigInt,
    /// Items finalized this turn.
    pub finalized: BigInt,
    /// Cards in hand.
    pub hand_size: BigInt,
    /// `you` or `opponent`.
    pub player: &'static str,
    /// The rune pool.
    pub pool: String,
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
    pub phase: String,
    /// The [Repeat] instances paid (1-based).
    pub repeat_paid: Vec<BigInt>,
}

/// What was picked to reach a state: the scenario for the first, the action for the others.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Picks {
    /// The initial state.
    Init {
        /// The scenario's name.
        scenario: String,
    },
    /// A step.
    Step {
        /// The action's index among the state's actions.
        action_index: BigInt,
        /// The action in words.
        description: String,
    },
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
    /// The rule the action applies (empty for the first state).
    pub rule: String,
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
    rule: &str,
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
                phase: format!("{:?}", i.phase),
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
                    hand_size: int(ps.hand.len() as i64 + i64::from(ps.hand_other)),
                    player: player(*p),
                    pool: ps.pool.to_string(),
                    trash: ps.trash.iter().map(|c| card(*c)).collect(),
                }
            })
            .collect(),
        rule: rule.into(),
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
        "",
        Picks::Init { scenario },
    )];
    let mut last = &trace.init;
    for (i, step) in trace.steps.iter().enumerate() {
        let picks = Picks::Step {
            action_index: int(step.action_index as i64),
            description: sys.format_action(last, &step.action),
        };
        states.push(itf_state(
            sys,
            &step.state,
            i + 1,
            step.action.name(),
            step.action.rule(),
            picks,
        ));
        last = &step.state;
    }
    ItfTrace {
        meta: TraceMeta {
            description: format!(
                "counterexample to {property} ({rule}) under {}",
                sys.game.rules.name
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

/// A trace as a DOT path: one node per state (its newest events), one edge per step (its rule).
pub fn dot(sys: &RepeatSystem, trace: &Trace<RepeatSystem>, property: &str) -> String {
    let mut dot = DotWriter::new(
        &quoted(property),
        &["rankdir=TB", "node [shape=box, fontsize=10]"],
    );
    let scenario = sys
        .scenarios
        .get(trace.init_index)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    dot.node(0, &format!("start: {scenario}"), &[]);
    let mut last = &trace.init;
    for (i, step) in trace.steps.iter().enumerate() {
        let changes = sys.format_step(last, &step.state).unwrap_or_default();
        dot.node(i + 1, &changes, &[]);
        dot.edge(i, i + 1, &sys.format_action(last, &step.action));
        last = &step.state;
    }
    dot.finish()
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
