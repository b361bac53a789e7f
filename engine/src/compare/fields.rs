//! The comparison tables: one row per result field of each kind of subject (see [`Field`]),
//! and how each field's values are told apart.

use super::{always, count, Compared, Field, Tell, Told};
use crate::protocol::*;
use model::cost::Cost;
use model::state::{Combat, UnitStatus};
use std::collections::{BTreeMap, BTreeSet};

/// Fields of the whole observation.
pub(super) const OBSERVATION_FIELDS: &[&dyn Compared<Observation>] = &[
    &Field::<Observation, Triggers> {
        name: "triggered",
        rule: "419.4.a, 820.3.a, 383",
        read: |o| o.triggered.as_ref(),
        // An engine silent about triggers agrees when nothing triggered.
        unreported: |m| !m.is_empty(),
        tell: Tell::Each(triggered),
    },
    &Field::<Observation, [EventObs]> {
        name: "events",
        rule: "820.3, 359.2, 383.3, 419.4.a, 425",
        read: |o| o.events.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, _, v| event_words(v),
            kind: events_kind,
        },
    },
];

/// Whether an item was cancelled: compared first, as it decides whether the rest is.
pub(super) const CANCELLED: Field<ItemObs, Cancelled> = Field {
    name: "cancelled",
    rule: "358.5",
    read: |i| i.cancelled.as_ref(),
    unreported: always,
    tell: Tell::One {
        words: |_, s, c| match c.is_cancelled() {
            true => format!("cancelled {s} {}", c.reason().unwrap_or(""))
                .trim()
                .to_string(),
            false => format!("not cancelled {s}"),
        },
        kind: cancelled_kind,
    },
};

/// Fields of an item that was not cancelled.
pub(super) const ITEM_FIELDS: &[&dyn Compared<ItemObs>] = &[
    &Field::<ItemObs, [u32]> {
        name: "repeat-paid",
        rule: "820.1.c",
        read: |i| i.repeat_paid.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("repeat-paid {s} {}", instances(v)),
            kind: repeat_paid_kind,
        },
    },
    &count::<ItemObs>("executions", "820.3", |i| i.executions.as_ref()),
    &Field::<ItemObs, [u32]> {
        name: "modes",
        rule: "355.3, 820.2.a",
        read: |i| i.modes.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("modes {s} {}", list(v)),
            kind: modes_kind,
        },
    },
    &count::<ItemObs>("play-events", "820.3.a, 419.4.a", |i| {
        i.play_events.as_ref()
    }),
    &Field::<ItemObs, bool> {
        name: "countered",
        rule: "425",
        read: |i| i.countered.as_ref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| match v {
                true => format!("countered {s}"),
                false => format!("not-countered {s}"),
            },
            kind: |m, e| {
                (m != e).then(|| match e {
                    true => "engine counters".into(),
                    false => "engine does not counter".into(),
                })
            },
        },
    },
    &Field::<ItemObs, EnteredObs> {
        name: "entered",
        rule: "359.2, 805",
        read: |i| i.entered.as_ref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| entered_words(s, v),
            kind: entered_kind,
        },
    },
    &Field::<ItemObs, [InstructionObs]> {
        name: "instructions",
        rule: "359.3.e, 820.3",
        read: |i| i.instructions.as_deref(),
        unreported: always,
        tell: Tell::Each(instructions),
    },
    &Field::<ItemObs, str> {
        name: "paid",
        rule: "356-357",
        read: |i| i.paid.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("paid {s} {}", cost_words(v)),
            kind: cost_kind,
        },
    },
];

/// Fields of a unit, by label.
pub(super) const UNIT_FIELDS: &[&dyn Compared<UnitObs>] = &[
    &Field::<UnitObs, str> {
        name: "unit-zone",
        rule: "359.3.e, 321",
        read: |u| u.zone.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, z| format!("{s} {}", zone_words(z)),
            kind: |m, e| zone_kind(m, e, "unit"),
        },
    },
    &Field::<UnitObs, u32> {
        name: "damage",
        rule: "359.3.e, 321",
        read: |u| u.damage.as_ref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("{s} damage {v}"),
            kind: more_fewer,
        },
    },
    &count::<UnitObs>("might", "807.1.c, 417, 321", |u| u.might.as_ref()),
    &Field::<UnitObs, UnitStatus> {
        name: "status",
        rule: "124.2, 414-415, 423.1, 807.2",
        read: |u| u.status.as_ref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("{s} {}", status_words(v)),
            kind: status_kind,
        },
    },
    &Field::<UnitObs, str> {
        name: "location",
        rule: "355.4, 359.3.e.6",
        read: |u| u.location.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("{s} at {v}"),
            kind: |m, e| {
                (parse_location(m) != parse_location(e)).then(|| "engine different".into())
            },
        },
    },
];

/// Fields of a gear, by label.
pub(super) const GEAR_FIELDS: &[&dyn Compared<GearObs>] = &[
    &Field::<GearObs, str> {
        name: "gear-zone",
        rule: "359.3.e",
        read: |g| g.zone.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, z| format!("{s} {}", zone_words(z)),
            kind: |m, e| zone_kind(m, e, "gear"),
        },
    },
    &Field::<GearObs, bool> {
        name: "gear-status",
        rule: "414.4, 401",
        read: |g| g.exhausted.as_ref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, x| format!("{s} {}", if *x { "exhausted" } else { "ready" }),
            kind: |m, e| {
                (m != e).then(|| format!("engine {}", if *e { "exhausted" } else { "ready" }))
            },
        },
    },
];

/// Fields of a player, `you` or `opponent`.
pub(super) const PLAYER_FIELDS: &[&dyn Compared<PlayerObs>] = &[
    &Field::<PlayerObs, str> {
        name: "pool",
        rule: "357, 425.1.c",
        read: |p| p.pool.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("pool {s} {}", cost_words(v)),
            kind: cost_kind,
        },
    },
    &count::<PlayerObs>("tokens", "820.3, 350.2", |p| p.tokens.as_ref()),
    &Field::<PlayerObs, [u32]> {
        name: "token-might",
        rule: "350.2, 807.1.c",
        read: |p| p.token_mights.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("token mights {s} {}", list(v)),
            kind: |m, e| {
                (m != e).then(|| match m.len() == e.len() {
                    true => "engine another Might".into(),
                    false => "engine another number of tokens".into(),
                })
            },
        },
    },
    &Field::<PlayerObs, GrantsObs> {
        name: "grants",
        rule: "820.1.c.2, 356.1.c, Temporal Portal, The Academy",
        read: |p| p.grants.as_ref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, g| format!("grants {s} {}", grant_words(g)),
            kind: grants_kind,
        },
    },
    &Field::<PlayerObs, runes::RunesJson> {
        name: "runes",
        rule: "164.2, 357.1.a, 358.5",
        read: |p| p.runes.as_ref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, r| format!("runes {s} {}", rune_words(r)),
            kind: runes_kind,
        },
    },
    &count::<PlayerObs>("hand-size", "359.3.e", |p| p.hand_size.as_ref()),
    &Field::<PlayerObs, [String]> {
        name: "hand",
        rule: "359.3.e",
        read: |p| p.hand.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("hand {s} {}", card_names(v)),
            kind: hand_kind,
        },
    },
    &count::<PlayerObs>("deck", "359.3.e", |p| p.deck.as_ref()),
    &count::<PlayerObs>("finalized", "419.4.b", |p| p.finalized.as_ref()),
    &Field::<PlayerObs, [String]> {
        name: "trash",
        rule: "425.1.a.1, 359.3.d",
        read: |p| p.trash.as_deref(),
        unreported: always,
        tell: Tell::One {
            words: |_, s, v| format!("trash {s} {}", card_names(v)),
            kind: trash_kind,
        },
    },
];

type Triggers = BTreeMap<String, u32>;

/// Numbers separated by spaces (`none` for none).
fn list(v: &[u32]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn modes_kind(m: &[u32], e: &[u32]) -> Option<String> {
    if m == e {
        return None;
    }
    Some(if m.len() != e.len() {
        "engine runs another number of executions".into()
    } else if e.windows(2).all(|w| w[0] == w[1]) && m.windows(2).any(|w| w[0] != w[1]) {
        "engine runs the first execution's mode for every execution".into()
    } else {
        "engine runs another mode".into()
    })
}

/// As the case file's `expect entered item N at LOC ready|exhausted` says it.
pub(super) fn entered_words(item: &str, v: &EnteredObs) -> String {
    format!(
        "entered {item} at {} {}",
        v.location,
        if v.ready { "ready" } else { "exhausted" }
    )
}

/// Where the unit entered first (355.2), then whether ready (359.2, 805).
fn entered_kind(m: &EnteredObs, e: &EnteredObs) -> Option<String> {
    if parse_location(&m.location) != parse_location(&e.location) {
        Some("engine enters elsewhere".into())
    } else if m.ready != e.ready {
        Some(format!(
            "engine enters {}",
            if e.ready { "ready" } else { "exhausted" }
        ))
    } else {
        None
    }
}

fn status_words(v: &UnitStatus) -> String {
    let combat = match v.combat {
        Combat::None => "not in combat",
        Combat::Attacking => "attacking",
        Combat::Defending => "defending",
    };
    format!(
        "{}, {}, {combat}, assault {}",
        if v.exhausted { "exhausted" } else { "ready" },
        if v.stunned { "stunned" } else { "not stunned" },
        v.assault
    )
}

/// The first status that differs names the kind.
fn status_kind(m: &UnitStatus, e: &UnitStatus) -> Option<String> {
    let yes = |b: bool, w: &str| if b { w.to_string() } else { format!("not {w}") };
    if m.exhausted != e.exhausted {
        Some(format!(
            "engine {}",
            if e.exhausted { "exhausted" } else { "ready" }
        ))
    } else if m.stunned != e.stunned {
        Some(format!("engine {}", yes(e.stunned, "stunned")))
    } else if m.combat != e.combat {
        Some("engine another combat designation".into())
    } else {
        more_fewer(&u32::from(m.assault), &u32::from(e.assault)).map(|k| format!("assault: {k}"))
    }
}

/// A player's runes as the case format's `expect runes` lines would list them.
fn rune_words(r: &runes::RunesJson) -> String {
    let r = r.canonical();
    let letters = |v: &[model::cost::Domain]| match v.is_empty() {
        true => "none".to_string(),
        false => v
            .iter()
            .map(|d| d.letter().to_string())
            .collect::<Vec<_>>()
            .join(" "),
    };
    format!(
        "ready {}, exhausted {}, deck {}",
        letters(&r.ready),
        letters(&r.exhausted),
        letters(&r.deck)
    )
}

/// Runes are counts per domain on the board (any order) and an ordered rune deck; the kind
/// says which side has more runes exhausted, or that the deck differs.
fn runes_kind(m: &runes::RunesJson, e: &runes::RunesJson) -> Option<String> {
    let (m, e) = (m.canonical(), e.canonical());
    if m == e {
        return None;
    }
    Some(if e.exhausted.len() > m.exhausted.len() {
        "engine leaves more runes exhausted".into()
    } else if e.exhausted.len() < m.exhausted.len() {
        "engine leaves fewer runes exhausted".into()
    } else if m.ready != e.ready || m.exhausted != e.exhausted {
        "engine other runes on the board".into()
    } else {
        "engine another rune deck".into()
    })
}

fn grant_words(g: &GrantsObs) -> String {
    let w = |n: u8, what: &str| match n {
        0 => format!("{what} used or none"),
        1 => format!("{what} available"),
        n => format!("{what} {n} available"),
    };
    format!("{}, {}", w(g.portal, "portal"), w(g.academy, "academy"))
}

fn grants_kind(m: &GrantsObs, e: &GrantsObs) -> Option<String> {
    let one = |m: u8, e: u8, what: &str| {
        (m != e).then(|| match e > m {
            true => format!("engine leaves the {what} grant unused"),
            false => format!("engine uses up the {what} grant"),
        })
    };
    one(m.portal, e.portal, "portal").or_else(|| one(m.academy, e.academy, "academy"))
}

fn event_words(v: &[EventObs]) -> String {
    if v.is_empty() {
        return "no events".into();
    }
    v.iter().map(|e| e.words()).collect::<Vec<_>>().join(", ")
}

/// Events compared in order, ability names without case.
fn events_kind(m: &[EventObs], e: &[EventObs]) -> Option<String> {
    let words = |v: &[EventObs]| v.iter().map(|x| x.words()).collect::<Vec<_>>();
    let (a, b) = (words(m), words(e));
    if a == b {
        return None;
    }
    Some(
        if sorted(&a) == sorted(&b) {
            "engine different order"
        } else if b.len() > a.len() {
            "engine more events"
        } else if b.len() < a.len() {
            "engine fewer events"
        } else {
            "engine different events"
        }
        .into(),
    )
}

/// A count's difference: "engine more" or "engine fewer".
pub(super) fn more_fewer(model: &u32, engine: &u32) -> Option<String> {
    (model != engine).then(|| {
        if engine > model {
            "engine more"
        } else {
            "engine fewer"
        }
        .into()
    })
}

fn cancelled_kind(m: &Cancelled, e: &Cancelled) -> Option<String> {
    if e.is_cancelled() != m.is_cancelled() {
        Some(if e.is_cancelled() {
            "engine cancels a play the rules allow".into()
        } else {
            format!(
                "engine does not cancel ({})",
                m.reason().unwrap_or("cancelled")
            )
        })
    } else {
        match (m.reason(), e.reason()) {
            (Some(a), Some(b)) if a != b => {
                Some(format!("engine cancels for {b}, the rules for {a}"))
            }
            _ => None,
        }
    }
}

fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v
}

/// Repeat instances, in order (`none` for none).
fn instances(v: &[u32]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    sorted(v)
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn repeat_paid_kind(m: &[u32], e: &[u32]) -> Option<String> {
    (sorted(m) != sorted(e)).then(|| {
        match e.len().cmp(&m.len()) {
            std::cmp::Ordering::Greater => "engine more",
            std::cmp::Ordering::Less => "engine fewer",
            std::cmp::Ordering::Equal => "engine different",
        }
        .into()
    })
}

/// Every instruction of every execution, by execution and instruction number.
fn instructions(item: &str, m: &[InstructionObs], e: &[InstructionObs]) -> Vec<Told> {
    let map = |v: &[InstructionObs]| {
        v.iter()
            .map(|x| ((x.exec, x.instruction), (x.performed, x.reason.clone())))
            .collect::<BTreeMap<_, _>>()
    };
    let (mm, em) = (map(m), map(e));
    let keys: BTreeSet<(u32, u32)> = mm.keys().chain(em.keys()).copied().collect();
    let mut told = vec![];
    for (k, i) in keys {
        let (a, b) = (mm.get(&(k, i)), em.get(&(k, i)));
        let kind = match (a, b) {
            (Some((true, _)), Some((true, _))) | (None, None) => continue,
            (Some((false, ra)), Some((false, rb))) => match (ra, rb) {
                (Some(x), Some(y)) if x != y => {
                    format!("engine ignores for {y}, the rules for {x}")
                }
                _ => continue,
            },
            (Some((false, r)), Some((true, _))) => format!(
                "engine performs an instruction the rules ignore ({})",
                r.as_deref().unwrap_or("ignored")
            ),
            (Some((true, _)), Some((false, r))) => format!(
                "engine ignores ({}) an instruction the rules perform",
                r.as_deref().unwrap_or("no reason")
            ),
            (None, Some(_)) => {
                "engine runs an instruction of an execution the rules do not run".into()
            }
            (Some(_), None) => "engine does not run an instruction the rules run".into(),
        };
        let reason = a
            .and_then(|x| x.1.as_deref())
            .or(b.and_then(|x| x.1.as_deref()));
        told.push(Told {
            subject: format!("{item} exec {k} instruction {i}"),
            model: instruction_words(item, k, i, a),
            engine: instruction_words(item, k, i, b),
            kind,
            rule: instruction_rule(reason),
        });
    }
    told
}

/// The rule an ignored instruction's reason cites, finer than the field's.
fn instruction_rule(reason: Option<&str>) -> Option<&'static str> {
    match reason {
        Some("targets-illegal") => Some("359.3.e.7, 820.1.d.2"),
        Some("linked-not-executed") => Some("359.3.e.14"),
        Some("impossible") => Some("359.3.e.6"),
        Some("source-gone") => Some("359.3.e.12"),
        _ => None,
    }
}

fn instruction_words(item: &str, k: u32, i: u32, v: Option<&(bool, Option<String>)>) -> String {
    match v {
        Some((true, _)) => format!("performed {item} exec {k} instruction {i}"),
        Some((false, Some(r))) => format!("ignored {item} exec {k} instruction {i} {r}"),
        Some((false, None)) => format!("ignored {item} exec {k} instruction {i}"),
        None => format!("no execution {k} of {item} runs instruction {i}"),
    }
}

/// How many times each ability triggered, names compared without case (absent: 0).
fn triggered(_: &str, m: &Triggers, e: &Triggers) -> Vec<Told> {
    let lower = |m: &Triggers| {
        m.iter()
            .map(|(k, v)| (k.to_ascii_lowercase(), (k.clone(), *v)))
            .collect::<BTreeMap<_, _>>()
    };
    let (ml, el) = (lower(m), lower(e));
    let keys: BTreeSet<&String> = ml.keys().chain(el.keys()).collect();
    let mut told = vec![];
    for k in keys {
        let name = ml
            .get(k)
            .or(el.get(k))
            .map(|x| x.0.clone())
            .unwrap_or_default();
        let count = |m: &BTreeMap<String, (String, u32)>| m.get(k).map(|x| x.1).unwrap_or(0);
        let (a, b) = (count(&ml), count(&el));
        if let Some(kind) = more_fewer(&a, &b) {
            told.push(Told {
                subject: format!("\"{name}\""),
                model: format!("triggered \"{name}\" {a}"),
                engine: format!("triggered \"{name}\" {b}"),
                kind,
                rule: None,
            });
        }
    }
    told
}

/// A cost as read (normalised), or as given with why it cannot be read.
fn cost_words(v: &str) -> String {
    match Cost::parse(v, &[]) {
        Ok(c) => c.to_string(),
        Err(e) => format!("{v} (unreadable: {e})"),
    }
}

fn cost_total(c: &Cost) -> u32 {
    c.energy as u32 + c.power_total() as u32
}

/// Costs compared as read; a model cost that cannot be read is not compared.
fn cost_kind(model: &str, engine: &str) -> Option<String> {
    let m = Cost::parse(model, &[]).ok()?;
    match Cost::parse(engine, &[]) {
        Err(_) => Some("engine unreadable".into()),
        Ok(e) if e != m => Some(
            match cost_total(&e).cmp(&cost_total(&m)) {
                std::cmp::Ordering::Greater => "engine more",
                std::cmp::Ordering::Less => "engine less",
                std::cmp::Ordering::Equal => "engine different domains",
            }
            .into(),
        ),
        _ => None,
    }
}

fn zone_words(z: &str) -> &'static str {
    if z.eq_ignore_ascii_case("board") {
        "on board"
    } else {
        "in trash"
    }
}

fn zone_kind(model: &str, engine: &str, what: &str) -> Option<String> {
    (!model.eq_ignore_ascii_case(engine)).then(|| {
        if engine.eq_ignore_ascii_case("board") {
            format!("engine leaves a {what} on the board")
        } else {
            format!("engine puts a {what} in the trash")
        }
    })
}

/// Card names, quoted (`none` for none).
fn card_names(v: &[String]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter()
        .map(|x| format!("\"{x}\""))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Trash contents compared without case, in order.
fn trash_kind(m: &[String], e: &[String]) -> Option<String> {
    let low = |v: &[String]| v.iter().map(|x| x.to_ascii_lowercase()).collect::<Vec<_>>();
    let (la, lb) = (low(m), low(e));
    if la == lb {
        return None;
    }
    let kind = if sorted(&la) == sorted(&lb) {
        "engine different order"
    } else if lb.len() < la.len() {
        "engine fewer cards"
    } else if lb.len() > la.len() {
        "engine more cards"
    } else {
        "engine different cards"
    };
    Some(kind.into())
}

/// The named cards in hand compared without case and as a multiset: a hand has no order, so
/// only which cards differ (a draw from the wrong end of the deck, 359.3.e).
fn hand_kind(m: &[String], e: &[String]) -> Option<String> {
    let low = |v: &[String]| sorted(&v.iter().map(|x| x.to_ascii_lowercase()).collect::<Vec<_>>());
    let (la, lb) = (low(m), low(e));
    if la == lb {
        return None;
    }
    let kind = if lb.len() < la.len() {
        "engine fewer named cards"
    } else if lb.len() > la.len() {
        "engine more named cards"
    } else {
        "engine different cards"
    };
    Some(kind.into())
}
