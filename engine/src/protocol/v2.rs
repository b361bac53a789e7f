//! What protocol `rbcheck-engine/2` adds to version 1 (see `corpus/PROTOCOL.md`): the engine's
//! capability profile (the [`RepeatShape`] it implements), the domain table of the client's
//! hello, the result fields v1 has no room for (modes run, how a played unit entered, Might and
//! statuses, the named cards in hand, grants left, the order of the events that matter), and how
//! a comparison keeps to what an engine's protocol version and Repeat shape can express.

use super::{CaseRequest, Hello, Observation, PlayStmt, PROTOCOL_V1};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How an engine implements [Repeat] (hello field `repeat`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepeatShape {
    /// The model's: numbered instances, each paid at most once, one set of choices (mode,
    /// targets, destinations) per execution (820.1.c, 820.2.a).
    #[default]
    Instances,
    /// A count: "paid N more times". It cannot say which instance was paid; whether it can
    /// make different choices per execution it shows by answering (or declining) such cases.
    Count,
    /// No player decision: the engine decides itself which [Repeat] instances are paid. A case
    /// is compared where the engine's decision (its `repeat_paid`) is the case's; elsewhere
    /// it is a conformance gap under 820.1.c.2.
    Automatic,
}

/// The domains as costs write them, for an engine that names domains otherwise (client hello
/// field `domains`): `{"R": "Fury", ...}`.
pub fn domain_table() -> BTreeMap<String, String> {
    model::cost::Domain::ALL
        .iter()
        .map(|d| (d.letter().to_string(), format!("{d:?}")))
        .collect()
}

/// A player's grants still waiting at the end, counted: what was used is what the request's
/// board had (and the activations during the case gave) and this no longer has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrantsObs {
    /// How many Temporal Portal grants ("[Repeat] equal to its cost", one per activation) still
    /// wait for the next spell.
    #[serde(default, deserialize_with = "grant_count")]
    pub portal: u8,
    /// How many of The Academy's grants ("[Repeat] equal to its base cost") still wait.
    #[serde(default, deserialize_with = "grant_count")]
    pub academy: u8,
}

/// A grant count as an engine states it: a number, or a bool for "one" or "none" (what an engine
/// that holds at most one grant of a kind writes).
fn grant_count<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    struct Count;
    impl serde::de::Visitor<'_> for Count {
        type Value = u8;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a number of grants waiting (0-255), or true / false for one / none")
        }
        fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<u8, E> {
            Ok(u8::from(v))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u8, E> {
            u8::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u8, E> {
            u8::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
        }
    }
    d.deserialize_any(Count)
}

/// One event that matters, in the order it happened (result field `events`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum EventObs {
    /// Execution `exec` of item `item` started (820.3).
    Execution {
        /// The item.
        item: u32,
        /// 1-based execution.
        exec: u32,
    },
    /// The unit or unit token that item `item` was entered the board (359.2, 354.3).
    UnitEntered {
        /// The item.
        item: u32,
    },
    /// A triggered ability triggered (383.3).
    Triggered {
        /// The ability's name.
        ability: String,
    },
    /// Item `item` was played: its play event (419.4.a, 820.3.a).
    Played {
        /// The item.
        item: u32,
    },
    /// Item `item` was countered (425).
    Countered {
        /// The item.
        item: u32,
    },
}

impl EventObs {
    /// As a case file's reader would say it; ability names lower-cased so that they compare
    /// without case.
    pub fn words(&self) -> String {
        match self {
            EventObs::Execution { item, exec } => format!("item {item} exec {exec}"),
            EventObs::UnitEntered { item } => format!("item {item} enters"),
            EventObs::Triggered { ability } => format!("\"{}\" triggers", ability.to_lowercase()),
            EventObs::Played { item } => format!("item {item} played"),
            EventObs::Countered { item } => format!("item {item} countered"),
        }
    }
}

impl Hello {
    /// The protocol version the engine speaks is version 1.
    pub fn is_v1(&self) -> bool {
        self.protocol == PROTOCOL_V1
    }

    /// What the engine's Repeat shape may be unable to say in this request, if anything (a
    /// capability word of `capability::CAPABILITIES`): a count cannot pay instances out of
    /// order or twice (`repeat-instances`), nor perhaps choose per execution
    /// (`per-execution-choices`). The case is sent all the same: what the engine answers is
    /// compared, and a decline is a conformance gap under this word's rule.
    pub fn inexpressible(&self, req: &CaseRequest) -> Option<String> {
        if self.repeat != RepeatShape::Count {
            return None;
        }
        count_inexpressible(req)
    }

    /// The part of an observation this engine's version and shape can state: what the
    /// comparison reads, on both sides. A v1 engine's result has no v2 field (one it sends anyway
    /// is not read); a count or automatic Repeat has no instance numbers (a count of payments is
    /// kept, as instances 1..N).
    pub fn expressible(&self, o: &Observation) -> Observation {
        let mut o = o.clone();
        if self.is_v1() {
            o.events = None;
            for i in o.items.iter_mut().flatten() {
                i.modes = None;
                i.entered = None;
            }
            for u in o.units.iter_mut().flat_map(|m| m.values_mut()) {
                u.might = None;
                u.status = None;
            }
            for g in o.gear.iter_mut().flat_map(|m| m.values_mut()) {
                g.exhausted = None;
            }
            for p in o.players.iter_mut().flat_map(|m| m.values_mut()) {
                p.token_mights = None;
                p.grants = None;
                p.runes = None;
                p.hand = None;
            }
        }
        if self.repeat != RepeatShape::Instances {
            // Which instances were paid a count cannot say, only how many; the modes each
            // execution ran it can, and they are compared (820.2.a).
            for i in o.items.iter_mut().flatten() {
                if let Some(v) = &mut i.repeat_paid {
                    *v = (1..=v.len() as u32).collect();
                }
            }
        }
        o
    }
}

/// For a count-shaped engine: the first thing in the plays a count cannot say. Each play's
/// `repeat` statements must pay instances 1, 2, ... in order, once each (a count says "one
/// more", not which); every execution's mode, targets and destinations must be the first
/// execution's (one list serves every execution).
fn count_inexpressible(req: &CaseRequest) -> Option<String> {
    // The choices of each execution of the current play, by execution; reset at each `play`.
    let mut paid: u32 = 0;
    let mut per_exec: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let check = |per_exec: &BTreeMap<u32, Vec<String>>| -> Option<String> {
        let first = per_exec.get(&1).cloned().unwrap_or_default();
        per_exec
            .iter()
            .find(|(k, v)| **k > 1 && **v != first)
            .map(|_| "per-execution-choices".to_string())
    };
    for p in &req.plays {
        match &p.stmt {
            PlayStmt::Play { .. } => {
                if let Some(w) = check(&per_exec) {
                    return Some(w);
                }
                paid = 0;
                per_exec.clear();
            }
            PlayStmt::Repeat { instance, pay } if *pay => {
                if u32::from(*instance) != paid + 1 {
                    return Some("repeat-instances".to_string());
                }
                paid += 1;
            }
            PlayStmt::Mode { exec, mode } => per_exec
                .entry(u32::from(*exec))
                .or_default()
                .push(format!("mode {mode}")),
            PlayStmt::Target {
                exec,
                instruction,
                obj,
            } => per_exec
                .entry(u32::from(*exec))
                .or_default()
                .push(format!("target {instruction} {obj:?}")),
            PlayStmt::NoMoreTargets { exec, instruction } => per_exec
                .entry(u32::from(*exec))
                .or_default()
                .push(format!("no-more-targets {instruction}")),
            PlayStmt::Destination {
                exec,
                instruction,
                to,
            } => per_exec
                .entry(u32::from(*exec))
                .or_default()
                .push(format!("destination {instruction} {to:?}")),
            _ => {}
        }
    }
    check(&per_exec)
}

#[cfg(test)]
mod tests {
    use super::GrantsObs;

    /// Grants are counted; an engine that holds at most one of a kind may still say `true`.
    #[test]
    fn grants_read_counts_and_bools_and_refuse_anything_else() {
        let read = |s: &str| serde_json::from_str::<GrantsObs>(s);
        let g = read(r#"{"portal": 2, "academy": true}"#).unwrap();
        assert_eq!((g.portal, g.academy), (2, 1));
        assert_eq!(read(r#"{"portal": false}"#).unwrap(), GrantsObs::default());
        for bad in [
            r#"{"portal": 256}"#,
            r#"{"portal": -1}"#,
            r#"{"portal": "two"}"#,
        ] {
            let e = read(bad).unwrap_err().to_string();
            assert!(e.contains("a number of grants waiting"), "{bad}: {e}");
        }
    }
}
