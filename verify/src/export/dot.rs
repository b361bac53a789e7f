//! Counterexamples and state graphs as DOT (Graphviz), drawn for a person to read.
//!
//! A player's decisions are solid edges; a run of steps that involve no choice
//! (`Action::is_decision` false: DetermineTotalCost, CheckLegality, Resolve, ...) is collapsed
//! into one dashed edge listing them, so that the branching a reader cares about stands out.
//! Each node is a short summary of its state read from the state itself and its event log (the
//! chain and each item's phase, the rune pools, executions so far, the units, what just
//! happened), headed by the step that led to it. The start is filled, final states are rounded,
//! and a counterexample's violating state is red with `class="violating"`; the graph's title
//! names the property and its rule. Node text is larger than edge text.

use crate::case::print::{loc, player};
use checker::graph::{quoted, DotWriter, StateGraph};
use checker::{Model, Trace, Violation};
use model::state::{Event, Phase, Player, State, Zone};
use model::Action;
use properties::RepeatSystem;

/// Graph-wide statements of every DOT written here: node text 12pt, edge text 10pt.
const STYLE: [&str; 4] = [
    "rankdir=TB",
    "labelloc=t",
    "node [shape=box, fontsize=12, fontname=\"Helvetica\"]",
    "edge [fontsize=10, fontname=\"Helvetica\"]",
];

/// Attributes of the start state's node.
const START: [&str; 2] = ["style=filled", "fillcolor=\"#dde8f5\""];

/// Attributes of a final state's node (no step is enabled).
const FINAL: [&str; 1] = ["style=rounded"];

/// Attributes of a forced run's edge.
const FORCED: [&str; 2] = ["style=dashed", "color=\"#777777\""];

/// Attributes of a decision's edge.
const DECISION: [&str; 1] = ["penwidth=1.6"];

/// Most events a node lists under "new:" before saying how many more there were.
const NEW_EVENTS: usize = 4;

/// The graph title and its statement.
fn title(text: &str) -> String {
    format!("label={}", quoted(text))
}

/// A chain item's phase in words, with the rule it is at.
fn phase(p: &Phase) -> String {
    match *p {
        Phase::Choosing => "making choices (355)".into(),
        Phase::Chosen => "choices made, cost next (356)".into(),
        Phase::Costed => "cost determined, unpaid (357)".into(),
        Phase::Paid => "paid, legality unchecked (358)".into(),
        Phase::Legal => "legal, to be finalized (359)".into(),
        Phase::Finalized => "finalized, waiting to resolve".into(),
        Phase::Resolving { done } => format!("resolving, {done} execution(s) done"),
        Phase::NewChoices { exec, for_item } => format!(
            "execution {}: new choices for item {} (750)",
            exec + 1,
            for_item + 1
        ),
        Phase::Looking { exec, left, .. } => {
            format!("execution {}: looking at {left} card(s)", exec + 1)
        }
        Phase::Discarding { exec, left, .. } => {
            format!("execution {}: discarding {left} card(s)", exec + 1)
        }
        Phase::Demanding {
            exec,
            target,
            energy,
            ..
        } => format!(
            "execution {}: asks item {}'s controller for [{energy}]",
            exec + 1,
            target + 1
        ),
    }
}

/// The lines of a state's summary: chain, pools, executions so far, units, trashes.
fn summary(sys: &RepeatSystem, s: &State) -> Vec<String> {
    let g = &sys.game;
    let mut lines = vec![];
    if s.chain.is_empty() {
        let closed = s.log.iter().any(|e| matches!(e, Event::ChainClosed));
        lines.push(
            if closed {
                "chain: closed"
            } else {
                "chain: empty"
            }
            .to_string(),
        );
    }
    for i in s.chain.iter() {
        let paid = i.repeat.iter().filter(|r| r.paid > 0).count();
        let repeat = if i.repeat.is_empty() {
            String::new()
        } else {
            format!(", Repeat {paid}/{} paid", i.repeat.len())
        };
        lines.push(format!(
            "chain item {} {} ({}): {}{repeat}",
            i.id + 1,
            g.card(i.card).name,
            player(i.controller),
            phase(&i.phase)
        ));
    }
    let pools: Vec<String> = [Player::YOU, Player::OPP]
        .iter()
        .map(|p| format!("{} {}", player(*p), s.players[p.ix()].pool))
        .collect();
    lines.push(format!("pools: {}", pools.join(", ")));
    let executions = s
        .log
        .iter()
        .filter(|e| matches!(e, Event::ExecutionStarted { .. }))
        .count();
    lines.push(format!("executions so far: {executions}"));
    for u in s.units.iter() {
        let place = if u.zone == Zone::Board {
            loc(u.loc)
        } else {
            "trash".into()
        };
        lines.push(format!(
            "{} ({}, {place}): might {}, damage {}",
            g.card(u.card).name,
            player(u.controller),
            u.current_might(),
            u.damage
        ));
    }
    for p in [Player::YOU, Player::OPP] {
        let trash = &s.players[p.ix()].trash;
        if !trash.is_empty() {
            let names: Vec<&str> = trash.iter().map(|c| g.card(*c).name.as_str()).collect();
            lines.push(format!("{} trash: {}", player(p), names.join(", ")));
        }
    }
    lines
}

/// The events `now` logged since `before`, in words, at most [`NEW_EVENTS`] of them.
fn new_events(sys: &RepeatSystem, before: &State, now: &State) -> Vec<String> {
    let from = before.log.len().min(now.log.len());
    let all: Vec<String> = now.log[from..]
        .iter()
        .filter_map(|e| sys.game.describe_event(now, e))
        .collect();
    let mut lines: Vec<String> = all
        .iter()
        .take(NEW_EVENTS)
        .map(|e| format!("new: {e}"))
        .collect();
    if all.len() > NEW_EVENTS {
        lines.push(format!("new: ... and {} more", all.len() - NEW_EVENTS));
    }
    lines
}

/// A node's label: its heading, then the state's summary and what is new since `before`.
fn label(sys: &RepeatSystem, heading: &str, before: Option<&State>, s: &State) -> String {
    let mut lines = vec![heading.to_string()];
    lines.extend(summary(sys, s));
    if let Some(b) = before {
        lines.extend(new_events(sys, b, s));
    }
    lines.join("\n")
}

/// The heading of a node reached by `action` (its name and rule: a CheckLegality node says so).
fn after(action: &Action) -> String {
    format!("after {} [{}]", action.name(), action.rule())
}

/// An edge's label for a run of steps, numbered from `first` (1-based): a decision alone, or
/// forced steps one a line.
fn run_label(lines: &[String], first: usize, decision: bool) -> String {
    if decision {
        return format!("{first}. {}", lines.join(""));
    }
    let last = first + lines.len() - 1;
    let span = if last == first {
        format!("{first}")
    } else {
        format!("{first}–{last}")
    };
    format!("{span} forced:\n{}", lines.join("\n"))
}

/// A counterexample as DOT: the path from its start to the violating state (its last), decisions
/// solid, forced runs collapsed, titled with the property and its rule.
pub fn dot(
    sys: &RepeatSystem,
    trace: &Trace<RepeatSystem>,
    property: &str,
    rule: &str,
    kind: &Violation,
) -> String {
    let scenario = sys
        .scenarios
        .get(trace.init_index)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    let what = match kind {
        Violation::Invariant => "the last state breaks it",
        Violation::FinalState => "the last state is final and breaks it",
        Violation::PossibleCycle => "the last step makes no progress",
    };
    let heading = format!(
        "counterexample to {property} ({rule}) under {}: {what}",
        sys.game.rules.book().name
    );
    let mut statements: Vec<&str> = STYLE.to_vec();
    let t = title(&heading);
    statements.push(&t);
    let mut dot = DotWriter::new(&quoted(property), &statements);
    let violating = ["class=\"violating\"", "color=red", "penwidth=3"];
    if trace.steps.is_empty() {
        // The start itself violates the property.
        let heading = format!("VIOLATES {property} ({rule}) at the start: {scenario}");
        dot.node(0, &label(sys, &heading, None, &trace.init), &violating);
        return dot.finish();
    }
    dot.node(
        0,
        &label(sys, &format!("start: {scenario}"), None, &trace.init),
        &START,
    );
    // Runs of steps: each decision alone, each maximal sequence of forced steps together.
    let mut node = 0;
    let mut from_state = &trace.init;
    let mut i = 0;
    while i < trace.steps.len() {
        let decision = trace.steps[i].action.is_decision();
        let mut end = i + 1;
        while !decision && end < trace.steps.len() && !trace.steps[end].action.is_decision() {
            end += 1;
        }
        let mut lines = vec![];
        let mut before = from_state;
        for step in &trace.steps[i..end] {
            lines.push(sys.format_action(before, &step.action));
            before = &step.state;
        }
        let last = end == trace.steps.len();
        let mut heading = after(&trace.steps[end - 1].action);
        if last {
            heading = format!("VIOLATES {property} ({rule}), {heading}");
        }
        let attrs: &[&str] = if last { &violating } else { &[] };
        dot.node(
            node + 1,
            &label(sys, &heading, Some(from_state), before),
            attrs,
        );
        let mut edge: Vec<&str> = if decision {
            DECISION.to_vec()
        } else {
            FORCED.to_vec()
        };
        if last && matches!(kind, Violation::PossibleCycle) {
            edge.push("color=red");
        }
        dot.edge_with(node, node + 1, &run_label(&lines, i + 1, decision), &edge);
        node += 1;
        from_state = before;
        i = end;
    }
    dot.finish()
}

/// `rbcheck graph`'s state graph of one scenario as DOT: states as summaries, decisions solid,
/// forced runs collapsed into one dashed edge, titled with `heading`.
pub fn graph_dot(sys: &RepeatSystem, graph: &StateGraph<RepeatSystem>, heading: &str) -> String {
    let (nodes, edges) = (&graph.states, &graph.edges);
    let n = nodes.len();
    let mut out: Vec<Vec<usize>> = vec![vec![]; n];
    let mut into: Vec<Vec<usize>> = vec![vec![]; n];
    for (k, e) in edges.iter().enumerate() {
        out[e.from].push(k);
        into[e.to].push(k);
    }
    let initial = &graph.initial;
    let forced = |k: usize| !edges[k].action.is_decision();
    // A node inside a forced run: reached by one forced step, left by one forced step.
    let hidden: Vec<bool> = (0..n)
        .map(|v| {
            !initial.contains(&v)
                && into[v].len() == 1
                && out[v].len() == 1
                && forced(into[v][0])
                && forced(out[v][0])
        })
        .collect();
    let mut statements: Vec<&str> = STYLE.to_vec();
    let t = title(heading);
    statements.push(&t);
    let mut dot = DotWriter::new("states", &statements);
    let mut drawn = vec![];
    for v in (0..n).filter(|v| !hidden[*v]) {
        let (heading, attrs): (String, &[&str]) = if initial.contains(&v) {
            let name = sys.scenarios.first().map(|s| s.name.as_str());
            (format!("start: {}", name.unwrap_or_default()), &START)
        } else {
            let a = &edges[into[v][0]].action;
            let attrs: &[&str] = if out[v].is_empty() { &FINAL } else { &[] };
            (after(a), attrs)
        };
        let heading = if out[v].is_empty() {
            format!("{heading} (final)")
        } else {
            heading
        };
        drawn.push((v, heading, attrs));
    }
    // Each drawn node's out-edges, each followed through hidden nodes to the next drawn one.
    let mut runs = vec![];
    for &(v, _, _) in &drawn {
        for &k in &out[v] {
            let mut lines = vec![sys.format_action(&nodes[v], &edges[k].action)];
            let mut to = edges[k].to;
            let mut guard = n;
            while hidden[to] && guard > 0 {
                let next = out[to][0];
                lines.push(sys.format_action(&nodes[to], &edges[next].action));
                to = edges[next].to;
                guard -= 1;
            }
            runs.push((v, to, k, lines));
        }
    }
    for (v, heading, attrs) in &drawn {
        // What is new is read against the start of the run that reached it, if one did.
        let from = runs.iter().find(|r| r.1 == *v).map(|r| &nodes[r.0]);
        dot.node(*v, &label(sys, heading, from, &nodes[*v]), attrs);
    }
    for (v, to, k, lines) in &runs {
        let decision = !forced(*k);
        let text = if decision {
            lines.join("")
        } else {
            format!("forced:\n{}", lines.join("\n"))
        };
        let attrs: &[&str] = if decision { &DECISION } else { &FORCED };
        dot.edge_with(*v, *to, &text, attrs);
    }
    dot.finish()
}
