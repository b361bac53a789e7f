//! Comparing an engine's observation with the model's (the rules of `corpus/PROTOCOL.md`,
//! "Comparison"): each difference in the expectation vocabulary, with its rule and a kind that
//! does not depend on the case, so that many hits of one bug group into one finding.

use super::protocol::*;
use crate::case::ast::PlayStmt;
use model::cost::Cost;
use std::collections::{BTreeMap, BTreeSet};

/// The fields compared, in the order a case's differences are ranked.
pub const FIELDS: [&str; 19] = [
    "legality",
    "cancelled",
    "repeat-paid",
    "executions",
    "play-events",
    "countered",
    "instructions",
    "triggered",
    "paid",
    "pool",
    "unit-zone",
    "gear-zone",
    "damage",
    "location",
    "tokens",
    "hand-size",
    "deck",
    "trash",
    "finalized",
];

/// One difference between the engine and the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Which field (one of [`FIELDS`]).
    pub field: &'static str,
    /// What it is about: `item 1`, `unit A`, `you`, ...
    pub subject: String,
    /// What the rules (the model) say, as an expectation.
    pub model: String,
    /// What the engine says, in the same words.
    pub engine: String,
    /// The rule involved.
    pub rule: String,
    /// The kind of difference, independent of the case: the grouping key.
    pub kind: String,
}

impl Difference {
    /// One line: what the engine did, what the rule says, the rule number.
    pub fn line(&self) -> String {
        format!(
            "{}: the engine gives `{}`, the rules say `{}` ({})",
            self.subject, self.engine, self.model, self.rule
        )
    }
}

/// The outcome of one comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// The differences, most telling first.
    pub differences: Vec<Difference>,
    /// Fields the model describes that the engine did not report (not compared).
    pub not_reported: BTreeSet<&'static str>,
}

impl Comparison {
    /// The kind of the most telling difference: what a finding is grouped by.
    pub fn kind(&self) -> Option<&str> {
        self.differences.first().map(|d| d.kind.as_str())
    }
}

fn rank(field: &str) -> usize {
    FIELDS
        .iter()
        .position(|f| *f == field)
        .unwrap_or(FIELDS.len())
}

fn more_fewer(model: u32, engine: u32) -> &'static str {
    if engine > model {
        "engine more"
    } else {
        "engine fewer"
    }
}

fn cost_total(c: &Cost) -> u32 {
    c.energy as u32 + c.power_total() as u32
}

/// The rule a statement kind is governed by (for an engine refusing it).
fn statement_rule(p: &PlayStmt) -> (&'static str, &'static str) {
    match p {
        PlayStmt::Play { .. } => ("play", "354, 358.4"),
        PlayStmt::Pass { .. } => ("pass", "339"),
        PlayStmt::May { .. } => ("may", "402.1"),
        PlayStmt::Repeat { .. } => ("repeat", "820.1.c, 355.1.a"),
        PlayStmt::Mode { .. } => ("mode", "355.3, 820.2.a"),
        PlayStmt::Target { .. } => ("target", "355.5, 355.8, 820.2.a"),
        PlayStmt::NoMoreTargets { .. } => ("no-more-targets", "355.13"),
        PlayStmt::Destination { .. } => ("destination", "355.4"),
        PlayStmt::Pay { .. } => ("pay", "356-357"),
        PlayStmt::NewChoices { .. } | PlayStmt::DeclineNewChoices { .. } => {
            ("new-choices", "750-753")
        }
    }
}

fn stmt_text(req: &CaseRequest, index: usize) -> String {
    req.plays
        .get(index)
        .map(|p| crate::case::print::play_stmt(&p.stmt))
        .unwrap_or_else(|| "?".into())
}

fn instruction_rule(reason: Option<&str>) -> &'static str {
    match reason {
        Some("targets-illegal") => "359.3.e.7, 820.1.d.2",
        Some("linked-not-executed") => "359.3.e.14",
        Some("impossible") => "359.3.e.6",
        Some("source-gone") => "359.3.e.12",
        _ => "359.3.e, 820.3",
    }
}

fn instr_text(n: u32, k: u32, i: u32, v: Option<&(bool, Option<String>)>) -> String {
    match v {
        Some((true, _)) => format!("performed item {n} exec {k} instruction {i}"),
        Some((false, Some(r))) => format!("ignored item {n} exec {k} instruction {i} {r}"),
        Some((false, None)) => format!("ignored item {n} exec {k} instruction {i}"),
        None => format!("no execution {k} of item {n} runs instruction {i}"),
    }
}

/// Compares an engine's observation of `req` with the model's (which describes everything).
pub fn compare(req: &CaseRequest, model: &Observation, engine: &Observation) -> Comparison {
    let mut diffs: Vec<Difference> = vec![];
    let mut diff =
        |field: &'static str, subject: String, m: String, e: String, rule: &str, kind: String| {
            diffs.push(Difference {
                field,
                subject,
                model: m,
                engine: e,
                rule: rule.to_string(),
                kind: format!("{field}: {kind}"),
            })
        };
    let mut nr: BTreeSet<&'static str> = BTreeSet::new();
    // Legality.
    let line_of = |i: &IllegalObs| -> Option<usize> {
        i.line
            .or_else(|| i.play.and_then(|p| req.plays.get(p).map(|x| x.line)))
    };
    let index_of = |line: usize| req.plays.iter().position(|p| p.line == line);
    let model_legal = model.legal.unwrap_or(true);
    match engine.legal {
        None => {
            nr.insert("legality");
            if !model_legal {
                return finish(diffs, nr);
            }
        }
        Some(true) if !model_legal => {
            let mi = model.illegal.clone().unwrap_or_default();
            let line = mi.line.unwrap_or(0);
            let stmt = index_of(line)
                .map(|i| stmt_text(req, i))
                .unwrap_or_default();
            let rule = mi.rule.clone().unwrap_or_else(|| "355-358".into());
            let kind_stmt = index_of(line)
                .and_then(|i| req.plays.get(i))
                .map(|p| statement_rule(&p.stmt).0)
                .unwrap_or("?");
            diff(
                "legality",
                format!("line {line} `{stmt}`"),
                format!("illegal line {line} rule {rule}"),
                "legal".into(),
                &rule,
                format!("engine accepts a `{kind_stmt}` the rules refuse ({rule})"),
            );
            return finish(diffs, nr);
        }
        Some(false) if model_legal => {
            let ei = engine.illegal.clone().unwrap_or_default();
            let line = line_of(&ei);
            let idx = line.and_then(index_of).or(ei.play);
            let (what, rule) = idx
                .and_then(|i| req.plays.get(i))
                .map(|p| statement_rule(&p.stmt))
                .unwrap_or(("statement", "355-358"));
            let stmt = idx.map(|i| stmt_text(req, i)).unwrap_or_default();
            let why = ei
                .why
                .as_deref()
                .map(|w| format!(" ({w})"))
                .unwrap_or_default();
            diff(
                "legality",
                format!(
                    "line {} `{stmt}`",
                    line.map(|l| l.to_string()).unwrap_or_else(|| "?".into())
                ),
                "legal".into(),
                format!(
                    "illegal line {}{}{why}",
                    line.map(|l| l.to_string()).unwrap_or_else(|| "?".into()),
                    ei.rule
                        .as_deref()
                        .map(|r| format!(" rule {r}"))
                        .unwrap_or_default()
                ),
                rule,
                format!("engine refuses a legal `{what}`"),
            );
            return finish(diffs, nr);
        }
        Some(false) => {
            // Both illegal: the same statement?
            let ml = model.illegal.as_ref().and_then(line_of);
            let el = engine.illegal.as_ref().and_then(line_of);
            match el {
                None => {
                    nr.insert("legality");
                }
                Some(el) if Some(el) != ml => {
                    let rule = model
                        .illegal
                        .as_ref()
                        .and_then(|i| i.rule.clone())
                        .unwrap_or_else(|| "355-358".into());
                    let ml = ml.unwrap_or(0);
                    diff(
                        "legality",
                        format!(
                            "line {ml} `{}`",
                            index_of(ml).map(|i| stmt_text(req, i)).unwrap_or_default()
                        ),
                        format!("illegal line {ml} rule {rule}"),
                        format!("illegal line {el}"),
                        &rule,
                        if el > ml {
                            format!("engine accepts a statement the rules refuse ({rule})")
                        } else {
                            "engine refuses an earlier, legal statement".into()
                        },
                    );
                }
                _ => {}
            }
            return finish(diffs, nr);
        }
        Some(true) => {}
    }
    // Items.
    if let Some(mitems) = &model.items {
        match &engine.items {
            None => {
                nr.insert("cancelled");
                nr.insert("repeat-paid");
                nr.insert("paid");
                nr.insert("executions");
                nr.insert("play-events");
                nr.insert("countered");
                nr.insert("instructions");
            }
            Some(eitems) => {
                for mi in mitems {
                    let n = mi.item;
                    let subject = format!("item {n}");
                    let Some(ei) = eitems.iter().find(|e| e.item == n) else {
                        nr.insert("executions");
                        continue;
                    };
                    // Cancelled.
                    let mc = mi.cancelled.clone().unwrap_or(Cancelled::Flag(false));
                    match &ei.cancelled {
                        None => {
                            nr.insert("cancelled");
                        }
                        Some(ec) => {
                            if ec.is_cancelled() != mc.is_cancelled() {
                                let m = if mc.is_cancelled() {
                                    format!("cancelled item {n} {}", mc.reason().unwrap_or(""))
                                } else {
                                    format!("not cancelled item {n}")
                                };
                                let e = if ec.is_cancelled() {
                                    format!("cancelled item {n} {}", ec.reason().unwrap_or(""))
                                } else {
                                    format!("not cancelled item {n}")
                                };
                                diff(
                                    "cancelled",
                                    subject.clone(),
                                    m.trim().into(),
                                    e.trim().into(),
                                    "358.5",
                                    if ec.is_cancelled() {
                                        "engine cancels a play the rules allow".into()
                                    } else {
                                        format!(
                                            "engine does not cancel ({})",
                                            mc.reason().unwrap_or("cancelled")
                                        )
                                    },
                                );
                            } else if let (Some(a), Some(b)) = (mc.reason(), ec.reason()) {
                                if a != b {
                                    diff(
                                        "cancelled",
                                        subject.clone(),
                                        format!("cancelled item {n} {a}"),
                                        format!("cancelled item {n} {b}"),
                                        "358.5",
                                        format!("engine cancels for {b}, the rules for {a}"),
                                    );
                                }
                            }
                        }
                    }
                    if mc.is_cancelled() {
                        continue;
                    }
                    if ei.cancelled.as_ref().is_some_and(|x| x.is_cancelled()) {
                        continue;
                    }
                    // Repeat paid.
                    match (&mi.repeat_paid, &ei.repeat_paid) {
                        (Some(m), Some(e)) => {
                            let (mut a, mut b) = (m.clone(), e.clone());
                            a.sort();
                            b.sort();
                            if a != b {
                                let show = |v: &[u32]| {
                                    if v.is_empty() {
                                        "none".to_string()
                                    } else {
                                        v.iter()
                                            .map(|x| x.to_string())
                                            .collect::<Vec<_>>()
                                            .join(" ")
                                    }
                                };
                                diff(
                                    "repeat-paid",
                                    subject.clone(),
                                    format!("repeat-paid item {n} {}", show(&a)),
                                    format!("repeat-paid item {n} {}", show(&b)),
                                    "820.1.c",
                                    if b.len() > a.len() {
                                        "engine more".into()
                                    } else if b.len() < a.len() {
                                        "engine fewer".into()
                                    } else {
                                        "engine different".into()
                                    },
                                );
                            }
                        }
                        (Some(_), None) => {
                            nr.insert("repeat-paid");
                        }
                        _ => {}
                    }
                    // Counts.
                    for (field, m, e, rule, word) in [
                        (
                            "executions",
                            mi.executions,
                            ei.executions,
                            "820.3",
                            "executions",
                        ),
                        (
                            "play-events",
                            mi.play_events,
                            ei.play_events,
                            "820.3.a, 419.4.a",
                            "play-events",
                        ),
                    ] {
                        match (m, e) {
                            (Some(m), Some(e)) if m != e => diff(
                                field,
                                subject.clone(),
                                format!("{word} item {n} {m}"),
                                format!("{word} item {n} {e}"),
                                rule,
                                more_fewer(m, e).into(),
                            ),
                            (Some(_), None) => {
                                nr.insert(field);
                            }
                            _ => {}
                        }
                    }
                    match (mi.countered, ei.countered) {
                        (Some(m), Some(e)) if m != e => {
                            let t = |b: bool| {
                                if b {
                                    format!("countered item {n}")
                                } else {
                                    format!("not-countered item {n}")
                                }
                            };
                            diff(
                                "countered",
                                subject.clone(),
                                t(m),
                                t(e),
                                "425",
                                if e {
                                    "engine counters".into()
                                } else {
                                    "engine does not counter".into()
                                },
                            );
                        }
                        (Some(_), None) => {
                            nr.insert("countered");
                        }
                        _ => {}
                    }
                    // Instructions.
                    match (&mi.instructions, &ei.instructions) {
                        (Some(m), Some(e)) => {
                            let map = |v: &[InstructionObs]| {
                                v.iter()
                                    .map(|x| {
                                        ((x.exec, x.instruction), (x.performed, x.reason.clone()))
                                    })
                                    .collect::<BTreeMap<_, _>>()
                            };
                            let (mm, em) = (map(m), map(e));
                            let keys: BTreeSet<(u32, u32)> =
                                mm.keys().chain(em.keys()).copied().collect();
                            for (k, i) in keys {
                                let (a, b) = (mm.get(&(k, i)), em.get(&(k, i)));
                                let kind = match (a, b) {
                                    (Some((true, _)), Some((true, _))) => continue,
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
                                    (Some(_), None) => {
                                        "engine does not run an instruction the rules run".into()
                                    }
                                    (None, None) => continue,
                                };
                                let reason = a
                                    .and_then(|x| x.1.as_deref())
                                    .or(b.and_then(|x| x.1.as_deref()));
                                diff(
                                    "instructions",
                                    format!("item {n} exec {k} instruction {i}"),
                                    instr_text(n, k, i, a),
                                    instr_text(n, k, i, b),
                                    instruction_rule(reason),
                                    kind,
                                );
                            }
                        }
                        (Some(_), None) => {
                            nr.insert("instructions");
                        }
                        _ => {}
                    }
                    // Paid.
                    match (&mi.paid, &ei.paid) {
                        (Some(m), Some(e)) => cost_diff(
                            &mut diff,
                            "paid",
                            subject.clone(),
                            &format!("paid item {n}"),
                            m,
                            e,
                            "356-357",
                        ),
                        (Some(_), None) => {
                            nr.insert("paid");
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    // Triggers.
    if let Some(mt) = &model.triggered {
        match &engine.triggered {
            None => {
                if !mt.is_empty() {
                    nr.insert("triggered");
                }
            }
            Some(et) => {
                let lower = |m: &BTreeMap<String, u32>| {
                    m.iter()
                        .map(|(k, v)| (k.to_ascii_lowercase(), (k.clone(), *v)))
                        .collect::<BTreeMap<_, _>>()
                };
                let (ml, el) = (lower(mt), lower(et));
                let keys: BTreeSet<&String> = ml.keys().chain(el.keys()).collect();
                for k in keys {
                    let name = ml
                        .get(k)
                        .or(el.get(k))
                        .map(|x| x.0.clone())
                        .unwrap_or_default();
                    let (a, b) = (
                        ml.get(k).map(|x| x.1).unwrap_or(0),
                        el.get(k).map(|x| x.1).unwrap_or(0),
                    );
                    if a != b {
                        diff(
                            "triggered",
                            format!("\"{name}\""),
                            format!("triggered \"{name}\" {a}"),
                            format!("triggered \"{name}\" {b}"),
                            "419.4.a, 820.3.a, 383",
                            more_fewer(a, b).into(),
                        );
                    }
                }
            }
        }
    }
    // Units and gear.
    if let Some(mu) = &model.units {
        for (l, m) in mu {
            let e = engine.units.as_ref().and_then(|u| u.get(l));
            let subject = format!("unit {l}");
            match (&m.zone, e.and_then(|e| e.zone.as_ref())) {
                (Some(a), Some(b)) if !a.eq_ignore_ascii_case(b) => diff(
                    "unit-zone",
                    subject.clone(),
                    format!("unit {l} {}", zone_words(a)),
                    format!("unit {l} {}", zone_words(b)),
                    "359.3.e, 321",
                    if b.eq_ignore_ascii_case("board") {
                        "engine leaves a unit on the board".into()
                    } else {
                        "engine puts a unit in the trash".into()
                    },
                ),
                (Some(_), None) => {
                    nr.insert("unit-zone");
                }
                _ => {}
            }
            match (m.damage, e.and_then(|e| e.damage)) {
                (Some(a), Some(b)) if a != b => diff(
                    "damage",
                    subject.clone(),
                    format!("unit {l} damage {a}"),
                    format!("unit {l} damage {b}"),
                    "359.3.e, 321",
                    more_fewer(a, b).into(),
                ),
                (Some(_), None) => {
                    nr.insert("damage");
                }
                _ => {}
            }
            match (&m.location, e.and_then(|e| e.location.as_ref())) {
                (Some(a), Some(b)) if parse_location(a) != parse_location(b) => diff(
                    "location",
                    subject.clone(),
                    format!("unit {l} at {a}"),
                    format!("unit {l} at {b}"),
                    "355.4, 359.3.e.6",
                    "engine different".into(),
                ),
                (Some(_), None) => {
                    nr.insert("location");
                }
                _ => {}
            }
        }
    }
    if let Some(mg) = &model.gear {
        for (l, m) in mg {
            let e = engine.gear.as_ref().and_then(|g| g.get(l));
            match (&m.zone, e.and_then(|e| e.zone.as_ref())) {
                (Some(a), Some(b)) if !a.eq_ignore_ascii_case(b) => diff(
                    "gear-zone",
                    format!("gear {l}"),
                    format!("gear {l} {}", zone_words(a)),
                    format!("gear {l} {}", zone_words(b)),
                    "359.3.e",
                    if b.eq_ignore_ascii_case("board") {
                        "engine leaves a gear on the board".into()
                    } else {
                        "engine puts a gear in the trash".into()
                    },
                ),
                (Some(_), None) => {
                    nr.insert("gear-zone");
                }
                _ => {}
            }
        }
    }
    // Players.
    if let Some(mp) = &model.players {
        for (p, m) in mp {
            let e = engine.players.as_ref().and_then(|x| x.get(p));
            match (&m.pool, e.and_then(|e| e.pool.as_ref())) {
                (Some(a), Some(b)) => cost_diff(
                    &mut diff,
                    "pool",
                    p.clone(),
                    &format!("pool {p}"),
                    a,
                    b,
                    "357, 425.1.c",
                ),
                (Some(_), None) => {
                    nr.insert("pool");
                }
                _ => {}
            }
            for (field, a, b, rule, word) in [
                (
                    "tokens",
                    m.tokens,
                    e.and_then(|e| e.tokens),
                    "820.3, 350.2",
                    "tokens",
                ),
                (
                    "hand-size",
                    m.hand_size,
                    e.and_then(|e| e.hand_size),
                    "359.3.e",
                    "hand-size",
                ),
                ("deck", m.deck, e.and_then(|e| e.deck), "359.3.e", "deck"),
                (
                    "finalized",
                    m.finalized,
                    e.and_then(|e| e.finalized),
                    "419.4.b",
                    "finalized",
                ),
            ] {
                match (a, b) {
                    (Some(a), Some(b)) if a != b => diff(
                        field,
                        p.clone(),
                        format!("{word} {p} {a}"),
                        format!("{word} {p} {b}"),
                        rule,
                        more_fewer(a, b).into(),
                    ),
                    (Some(_), None) => {
                        nr.insert(field);
                    }
                    _ => {}
                }
            }
            match (&m.trash, e.and_then(|e| e.trash.as_ref())) {
                (Some(a), Some(b)) => {
                    let low =
                        |v: &[String]| v.iter().map(|x| x.to_ascii_lowercase()).collect::<Vec<_>>();
                    let (la, lb) = (low(a), low(b));
                    if la != lb {
                        let (mut sa, mut sb) = (la.clone(), lb.clone());
                        sa.sort();
                        sb.sort();
                        let kind = if sa == sb {
                            "engine different order"
                        } else if lb.len() < la.len() {
                            "engine fewer cards"
                        } else if lb.len() > la.len() {
                            "engine more cards"
                        } else {
                            "engine different cards"
                        };
                        let show = |v: &[String]| {
                            if v.is_empty() {
                                "none".to_string()
                            } else {
                                v.iter()
                                    .map(|x| format!("\"{x}\""))
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            }
                        };
                        diff(
                            "trash",
                            p.clone(),
                            format!("trash {p} {}", show(a)),
                            format!("trash {p} {}", show(b)),
                            "425.1.a.1, 359.3.d",
                            kind.into(),
                        );
                    }
                }
                (Some(_), None) => {
                    nr.insert("trash");
                }
                _ => {}
            }
        }
    }
    finish(diffs, nr)
}

fn finish(mut differences: Vec<Difference>, not_reported: BTreeSet<&'static str>) -> Comparison {
    differences.sort_by_key(|d| rank(d.field));
    Comparison {
        differences,
        not_reported,
    }
}

fn zone_words(z: &str) -> &'static str {
    if z.eq_ignore_ascii_case("board") {
        "on board"
    } else {
        "in trash"
    }
}

fn cost_diff(
    diff: &mut impl FnMut(&'static str, String, String, String, &str, String),
    field: &'static str,
    subject: String,
    words: &str,
    model: &str,
    engine: &str,
    rule: &str,
) {
    let Ok(m) = Cost::parse(model, &[]) else {
        return;
    };
    match Cost::parse(engine, &[]) {
        Err(e) => diff(
            field,
            subject,
            format!("{words} {m}"),
            format!("{words} {engine} (unreadable: {e})"),
            rule,
            "engine unreadable".into(),
        ),
        Ok(e) if e != m => diff(
            field,
            subject,
            format!("{words} {m}"),
            format!("{words} {e}"),
            rule,
            match cost_total(&e).cmp(&cost_total(&m)) {
                std::cmp::Ordering::Greater => "engine more".into(),
                std::cmp::Ordering::Less => "engine less".into(),
                std::cmp::Ordering::Equal => "engine different domains".into(),
            },
        ),
        _ => {}
    }
}
