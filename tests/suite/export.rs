//! Tests of the counterexample exports and the state graph: every counterexample of every wrong
//! rulebook in `corpus/rulebooks/` decodes as ITF with the `itf` crate into typed values, and
//! the DOT files have the structure a reader relies on (a title naming the property and its
//! rule, one marked violating state, every edge labelled, decisions apart from forced steps).

use rbcheck::check::{graph, CheckRun, GraphOptions};
use serde::Deserialize;
use std::collections::BTreeMap;

use crate::shared::wrong_runs;

/// Each violated property of a run: (name, rule, violation, trace).
fn violations(
    run: &CheckRun,
) -> Vec<(
    &'static str,
    &'static str,
    &checker::Violation,
    &checker::Trace<properties::RepeatSystem>,
)> {
    let mut out = vec![];
    for p in &run.result.properties {
        if let checker::Outcome::Violated { trace, kind } = &p.outcome {
            out.push((p.name, p.rule, kind, trace));
        }
    }
    assert!(!out.is_empty(), "a failed run without a counterexample");
    out
}

/// Quint's `Option[T]` in ITF.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "tag", content = "value")]
enum QOption<T> {
    None,
    Some(T),
}

/// `mbt::nondetPicks`: the same three fields in every state, nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Picks {
    action_index: QOption<i64>,
    description: QOption<String>,
    scenario: QOption<String>,
}

/// A chain item's phase, a Quint sum type.
#[derive(Debug, Deserialize)]
#[serde(tag = "tag", content = "value")]
enum Phase {
    Choosing,
    Chosen,
    Costed,
    Paid,
    Legal,
    Finalized,
    Resolving {
        done: i64,
    },
    NewChoices {
        exec: i64,
        for_item: i64,
    },
    Looking {
        exec: i64,
        left: i64,
        slot: i64,
        taking: bool,
    },
    Demanding {
        energy: i64,
        exec: i64,
        target: i64,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Pool {
    body: i64,
    calm: i64,
    chaos: i64,
    energy: i64,
    fury: i64,
    mind: i64,
    order: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Domains {
    body: i64,
    calm: i64,
    chaos: i64,
    fury: i64,
    mind: i64,
    order: i64,
}

impl Domains {
    /// In the model's domain order (Fury, Calm, Mind, Body, Chaos, Order).
    fn counts(&self) -> [i64; 6] {
        [
            self.fury, self.calm, self.mind, self.body, self.chaos, self.order,
        ]
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Runes {
    deck: Vec<String>,
    exhausted: Domains,
    ready: Domains,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Grants {
    academy: i64,
    portal: i64,
}

#[derive(Deserialize)]
struct ItfPlayer {
    pool: Pool,
    runes: QOption<Runes>,
    grants: Grants,
    near_victory: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Status {
    assault: i64,
    combat: String,
    exhausted: bool,
    stunned: bool,
}

#[derive(Deserialize)]
struct ItfGear {
    exhausted: bool,
}

#[derive(Deserialize)]
struct ItfChoice {
    mode: QOption<i64>,
}

#[derive(Deserialize)]
struct ItfItem {
    item: i64,
    phase: Phase,
    choices: Vec<ItfChoice>,
}

#[derive(Deserialize)]
struct ItfUnit {
    damage: i64,
    status: Status,
}

#[derive(Deserialize)]
struct ItfState {
    #[serde(rename = "mbt::actionTaken")]
    action: String,
    #[serde(rename = "mbt::nondetPicks")]
    picks: Picks,
    rule: QOption<String>,
    chain: Vec<ItfItem>,
    players: Vec<ItfPlayer>,
    units: Vec<ItfUnit>,
    gear: Vec<ItfGear>,
}

/// The variant name of a model phase, as the ITF tag must spell it.
fn phase_name(p: &model::state::Phase) -> String {
    let debug = format!("{p:?}");
    debug.split([' ', '{']).next().unwrap().to_string()
}

/// The ITF tag of a decoded phase.
fn tag(p: &Phase) -> &'static str {
    match p {
        Phase::Choosing => "Choosing",
        Phase::Chosen => "Chosen",
        Phase::Costed => "Costed",
        Phase::Paid => "Paid",
        Phase::Legal => "Legal",
        Phase::Finalized => "Finalized",
        Phase::Resolving { .. } => "Resolving",
        Phase::NewChoices { .. } => "NewChoices",
        Phase::Looking { .. } => "Looking",
        Phase::Demanding { .. } => "Demanding",
    }
}

/// Checks one decoded ITF state against the model state it stands for.
fn check_state(what: &str, i: usize, s: &ItfState, model: &model::State, seen: &mut Seen) {
    if i == 0 {
        assert_eq!(s.action, "init", "{what}");
        assert_eq!(s.rule, QOption::None, "{what}");
        assert_eq!(s.picks.action_index, QOption::None, "{what}");
        assert_eq!(s.picks.description, QOption::None, "{what}");
        assert!(matches!(s.picks.scenario, QOption::Some(_)), "{what}");
    } else {
        assert!(
            matches!(&s.rule, QOption::Some(r) if !r.is_empty()),
            "{what} {i}"
        );
        assert!(matches!(s.picks.action_index, QOption::Some(n) if n >= 0));
        assert!(
            matches!(s.picks.description, QOption::Some(_)),
            "{what} {i}"
        );
        assert_eq!(s.picks.scenario, QOption::None, "{what} {i}");
    }
    assert!(s.units.iter().all(|u| u.damage >= 0));
    // Pools are numbers, the model's own.
    for (p, mp) in s.players.iter().zip(&model.players) {
        let want = mp.pool;
        assert_eq!(p.pool.energy, i64::from(want.energy), "{what} {i}");
        let power = [
            p.pool.fury,
            p.pool.calm,
            p.pool.mind,
            p.pool.body,
            p.pool.chaos,
            p.pool.order,
        ];
        assert_eq!(power, want.power.map(i64::from), "{what} {i}");
        // Runes, waiting grants and near-victory, the model's own.
        match (&p.runes, &mp.runes) {
            (QOption::Some(r), Some(m)) => {
                assert_eq!(r.ready.counts(), m.ready.map(i64::from), "{what} {i}");
                assert_eq!(
                    r.exhausted.counts(),
                    m.exhausted.map(i64::from),
                    "{what} {i}"
                );
                let deck: Vec<String> = m
                    .deck
                    .iter()
                    .map(|d| format!("{d:?}").to_lowercase())
                    .collect();
                assert_eq!(r.deck, deck, "{what} {i}");
                seen.runes += 1;
            }
            (QOption::None, None) => {}
            _ => panic!("{what} {i}: runes in one of ITF and the model only"),
        }
        assert_eq!(p.grants.portal, i64::from(mp.portal_grants), "{what} {i}");
        assert_eq!(p.grants.academy, i64::from(mp.academy_grants), "{what} {i}");
        assert_eq!(p.near_victory, mp.near_victory, "{what} {i}");
        seen.grants += usize::from(p.grants.portal > 0);
    }
    // Statuses of units and gear.
    assert_eq!(s.units.len(), model.units.len(), "{what} {i}");
    for (u, m) in s.units.iter().zip(model.units.iter()) {
        assert_eq!(u.status.exhausted, m.status.exhausted, "{what} {i}");
        assert_eq!(u.status.stunned, m.status.stunned, "{what} {i}");
        assert_eq!(u.status.assault, i64::from(m.status.assault), "{what} {i}");
        let combat = format!("{:?}", m.status.combat).to_lowercase();
        assert_eq!(u.status.combat, combat, "{what} {i}");
        seen.exhausted += usize::from(u.status.exhausted);
    }
    for (g, m) in s.gear.iter().zip(model.gear.iter()) {
        assert_eq!(g.exhausted, m.exhausted, "{what} {i}");
        seen.exhausted += usize::from(g.exhausted);
    }
    // Phases are the model's, as variants with their fields.
    assert_eq!(s.chain.len(), model.chain.len(), "{what} {i}");
    for (item, m) in s.chain.iter().zip(model.chain.iter()) {
        assert!(item.item >= 1);
        assert_eq!(tag(&item.phase), phase_name(&m.phase), "{what} {i}");
        match (&item.phase, &m.phase) {
            (Phase::Resolving { done }, model::state::Phase::Resolving { done: d }) => {
                assert_eq!(*done, i64::from(*d), "{what} {i}");
                seen.resolving = seen.resolving.max(*done);
            }
            // Executions, instructions and items count from 1 in ITF.
            (Phase::NewChoices { exec, for_item }, _) => assert!(*exec >= 1 && *for_item >= 1),
            (
                Phase::Looking {
                    exec,
                    slot,
                    left,
                    taking,
                },
                model::state::Phase::Looking { taking: t, .. },
            ) => {
                assert!(*exec >= 1 && *slot >= 1 && *left >= 0);
                assert_eq!(taking, t, "{what} {i}");
            }
            (
                Phase::Demanding {
                    energy,
                    exec,
                    target,
                },
                _,
            ) => assert!(*energy >= 0 && *exec >= 1 && *target >= 1),
            _ => {}
        }
        for c in &item.choices {
            match c.mode {
                QOption::Some(m) => {
                    assert!(m >= 1);
                    seen.modes[0] += 1;
                }
                QOption::None => seen.modes[1] += 1,
            }
        }
    }
}

/// What the ITF test saw across all traces, so that it knows its checks were exercised.
#[derive(Default)]
struct Seen {
    modes: [usize; 2],
    resolving: i64,
    runes: usize,
    grants: usize,
    exhausted: usize,
}

#[test]
fn every_counterexample_of_every_wrong_rulebook_decodes_as_typed_itf() {
    let mut seen = Seen::default();
    let mut decoded = 0;
    for (book, run) in wrong_runs() {
        for (name, rule, _, trace) in violations(run) {
            let what = format!("{book} {name}");
            let text = rbcheck::export::itf(&run.system, trace, name, rule);
            // ITF has no null: an absent value is Quint's `None`.
            assert!(!text.contains("null"), "{what}");
            let itf: itf::Trace<ItfState> =
                itf::trace_from_str(&text).unwrap_or_else(|e| panic!("{what}: not typed ITF: {e}"));
            assert_eq!(itf.states.len(), trace.steps.len() + 1, "{what}");
            let models = std::iter::once(&trace.init).chain(trace.steps.iter().map(|s| &s.state));
            for (i, (s, m)) in itf.states.iter().zip(models).enumerate() {
                check_state(&what, i, &s.value, m, &mut seen);
            }
            // Every state has exactly the declared variables (and its `#meta`).
            let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
            let mut vars: Vec<&str> = itf.vars.iter().map(String::as_str).collect();
            vars.push("#meta");
            vars.sort_unstable();
            for s in raw["states"].as_array().unwrap() {
                let mut keys: Vec<&str> = s.as_object().unwrap().keys().map(|k| &**k).collect();
                keys.sort_unstable();
                assert_eq!(keys, vars, "{what}");
            }
            decoded += 1;
        }
    }
    assert!(decoded >= 12, "{decoded} ITF traces");
    assert!(
        seen.modes[0] > 0 && seen.modes[1] > 0,
        "modes: {:?}",
        seen.modes
    );
    assert!(seen.resolving >= 1, "no trace resolved an execution");
    // The runes, a waiting grant and an exhausted unit or gear were each seen in some trace.
    assert!(
        seen.runes > 0 && seen.grants > 0 && seen.exhausted > 0,
        "runes {}, grants {}, exhausted units and gear {}",
        seen.runes,
        seen.grants,
        seen.exhausted
    );
}

/// Attributes of a DOT statement.
type Attrs = BTreeMap<String, String>;

/// What the tests read from a DOT file: its title, nodes and edges, in order.
#[derive(Default)]
struct Dot {
    title: Option<String>,
    node_defaults: Attrs,
    edge_defaults: Attrs,
    nodes: Vec<(usize, Attrs)>,
    edges: Vec<(usize, usize, Attrs)>,
}

/// Parses `key=value, key="quoted \"value\""` (a DOT attribute list without its brackets).
fn parse_attrs(s: &str) -> Attrs {
    let mut out = Attrs::new();
    let mut chars = s.chars().peekable();
    loop {
        while matches!(chars.peek(), Some(' ' | ',')) {
            chars.next();
        }
        let key: String = chars.by_ref().take_while(|c| *c != '=').collect();
        if key.is_empty() {
            return out;
        }
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => match chars.next() {
                        Some('n') => value.push('\n'),
                        Some(c) => value.push(c),
                        None => panic!("unterminated escape in {s}"),
                    },
                    c => value.push(c),
                }
            }
        } else {
            while let Some(c) = chars.peek().copied() {
                if c == ',' {
                    break;
                }
                value.push(c);
                chars.next();
            }
        }
        out.insert(key.trim().to_string(), value.trim().to_string());
    }
}

/// The number of a node id `s<n>`.
fn node_id(s: &str) -> usize {
    s.trim()
        .strip_prefix('s')
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("not a node id: {s}"))
}

/// Parses the DOT rbcheck writes: one statement a line.
fn parse_dot(text: &str) -> Dot {
    let mut dot = Dot::default();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("digraph "), "{text}");
    for line in lines {
        let line = line.trim();
        if line == "}" {
            continue;
        }
        let stmt = line
            .strip_suffix(';')
            .unwrap_or_else(|| panic!("no `;`: {line}"));
        let (head, attrs) = match stmt.split_once(" [") {
            Some((h, a)) => (h, parse_attrs(a.strip_suffix(']').unwrap())),
            None => (stmt, Attrs::new()),
        };
        if let Some((from, to)) = head.split_once(" -> ") {
            dot.edges.push((node_id(from), node_id(to), attrs));
        } else if head == "node" {
            dot.node_defaults = attrs;
        } else if head == "edge" {
            dot.edge_defaults = attrs;
        } else if let Some(title) = head.strip_prefix("label=") {
            dot.title = parse_attrs(&format!("t={title}")).remove("t");
        } else if head.starts_with('s') && !attrs.is_empty() {
            dot.nodes.push((node_id(head), attrs));
        } else {
            assert!(head.contains('='), "unknown statement: {line}");
        }
    }
    dot
}

/// What every DOT rbcheck writes holds: labelled edges between declared nodes, each node a
/// state summary, node text no smaller than edge text, decisions solid and forced runs dashed.
fn check_common(what: &str, dot: &Dot) {
    let size = |a: &Attrs| a["fontsize"].parse::<f64>().unwrap();
    assert!(
        size(&dot.node_defaults) >= size(&dot.edge_defaults),
        "{what}"
    );
    let ids: Vec<usize> = dot.nodes.iter().map(|n| n.0).collect();
    for (from, to, a) in &dot.edges {
        assert!(
            ids.contains(from) && ids.contains(to),
            "{what}: {from} -> {to}"
        );
        let label = a.get("label").map(String::as_str).unwrap_or_default();
        assert!(!label.trim().is_empty(), "{what}: an unlabelled edge");
        let dashed = a.get("style").map(String::as_str) == Some("dashed");
        assert_eq!(label.contains("forced:"), dashed, "{what}: {label}");
    }
    for (n, a) in &dot.nodes {
        let label = &a["label"];
        for part in ["pools: ", "executions so far: ", "chain"] {
            assert!(
                label.contains(part),
                "{what}: node {n} lacks {part}: {label}"
            );
        }
    }
}

#[test]
fn counterexample_dot_names_the_property_marks_the_violation_and_collapses_forced_steps() {
    let mut collapsed = 0;
    for (book, run) in wrong_runs() {
        for (name, rule, kind, trace) in violations(run) {
            let what = format!("{book} {name}");
            let text = rbcheck::export::dot(&run.system, trace, name, rule, kind);
            let dot = parse_dot(&text);
            check_common(&what, &dot);
            let title = dot
                .title
                .as_deref()
                .unwrap_or_else(|| panic!("{what}: no title"));
            assert!(
                title.contains(name) && title.contains(rule),
                "{what}: {title}"
            );
            let violating: Vec<usize> = dot
                .nodes
                .iter()
                .filter(|(_, a)| a.get("class").map(String::as_str) == Some("violating"))
                .map(|n| n.0)
                .collect();
            let last = dot.nodes.iter().map(|n| n.0).max().unwrap();
            assert_eq!(
                violating,
                vec![last],
                "{what}: one violating node, the last"
            );
            // Only the first node is the start; the others say which step led to them.
            for (n, a) in &dot.nodes {
                assert_eq!(a["label"].starts_with("start: "), *n == 0, "{what}: {n}");
            }
            // A path whose edges account for every step once: a decision each, or a forced run.
            let mut steps = 0;
            for (i, (from, to, a)) in dot.edges.iter().enumerate() {
                assert_eq!((*from, *to), (i, i + 1), "{what}");
                let label = &a["label"];
                steps += if label.contains("forced:") {
                    collapsed += usize::from(label.lines().count() > 2);
                    label.lines().count() - 1
                } else {
                    1
                };
            }
            assert_eq!(steps, trace.steps.len(), "{what}");
            let decisions = trace.steps.iter().filter(|s| s.action.is_decision());
            let solid = dot
                .edges
                .iter()
                .filter(|e| !e.2["label"].contains("forced:"));
            assert_eq!(solid.count(), decisions.count(), "{what}");
        }
    }
    assert!(
        collapsed > 0,
        "no counterexample collapsed two forced steps"
    );
}

#[test]
fn the_state_graph_is_titled_and_collapses_forced_runs_into_one_edge() {
    let text = graph(&GraphOptions {
        rules: "rup4".into(),
        bound: "tiny".into(),
        scenario: 1,
        max_states: 10_000,
    })
    .unwrap();
    let dot = parse_dot(&text);
    check_common("graph", &dot);
    let title = dot.title.expect("a title");
    assert!(
        title.contains("scenario 1") && title.contains("tiny"),
        "{title}"
    );
    let states: usize = title
        .split_once(": ")
        .and_then(|(_, r)| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no state count in {title}"));
    assert!(dot.nodes.len() < states, "{} of {states}", dot.nodes.len());
    // CheckLegality is forced: it is inside a collapsed run, never drawn like the start.
    let starts = dot
        .nodes
        .iter()
        .filter(|n| n.1["label"].starts_with("start: "));
    assert_eq!(starts.count(), 1);
    assert!(dot.edges.iter().any(|e| {
        let label = &e.2["label"];
        label.contains("CheckLegality") && label.lines().count() > 2
    }));
    // Final states say so; the graph has as many as the scenario has ways to end.
    let finals = dot
        .nodes
        .iter()
        .filter(|n| n.1["label"].contains("(final)"));
    assert!(finals.count() >= 1);
}
