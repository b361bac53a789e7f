//! What an engine cannot express, named by the rule it cannot follow: a case the engine's hello
//! does not claim, a case it declines, a [Repeat] decision an automatic engine does not take.
//! Such a case is a conformance gap, counted under its rule, never a silent skip.

use super::protocol::*;
use rbcheck_case::ast::PlayStmt;
use serde::Serialize;
use std::collections::BTreeMap;

/// The capability words an engine may decline a case with (`unsupported` reply's `feature`),
/// besides the features: what it cannot do, and the rule that asks for it.
pub const CAPABILITIES: [(&str, &str, &str); 3] = [
    (
        "per-execution-choices",
        "cannot choose per execution (modes, targets, destinations)",
        "820.2.a",
    ),
    (
        "repeat-instances",
        "cannot name which [Repeat] instance is paid",
        "820.1.c.2",
    ),
    (
        REPEAT_DECISION,
        "does not let the player decide each [Repeat] instance",
        "820.1.c.2",
    ),
];

/// The gap of an automatic-Repeat engine that decided a case's [Repeat] otherwise.
pub const REPEAT_DECISION: &str = "repeat-decision";

/// Each feature of [`FEATURES`]: what a case using it does, and the rule it exercises.
const FEATURE_RULES: [(&str, &str, &str); 18] = [
    ("spells", "play spells", "359.3"),
    ("abilities", "activate abilities with [Repeat]", "820.1.a"),
    ("counters", "counter an item", "425.1"),
    ("new-choices", "make new choices", "750"),
    ("deflect", "pay Deflect", "809.1.c"),
    ("tokens", "play unit tokens", "350.2"),
    ("discounts", "apply discounts", "356.4.d"),
    ("triggers", "trigger abilities", "383.3"),
    (
        "defines",
        "play cards the case defines",
        "FORMAT.md, define",
    ),
    ("grants", "give [Repeat] to another card", "SFD-078"),
    ("moves", "choose a move's destination", "355.4"),
    (
        "as-you-play",
        "run \"as you play\" instructions",
        "135.2.b.3",
    ),
    ("deck-cards", "draw named cards", "359.3.e"),
    (
        "demands",
        "ask for a payment as an instruction executes (Hard Bargain, \"you may pay\")",
        "SFD-136",
    ),
    ("chosen-counters", "count what an item chose", "359.3.e.9.a"),
    ("combat", "hold combat statuses and Might", "807.2"),
    ("runes", "pay with runes", "357.1.a"),
    ("turn", "play a turn of several plays", "334.1"),
];

/// One conformance gap: cases the engine cannot express, by the rule it cannot follow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Gap {
    /// What the engine cannot do, in words: `cannot choose per execution ...`.
    pub what: String,
    /// The rule it cannot follow (for a rules preset: `rules v1.2`).
    pub rule: String,
    /// The reason as the engine or its hello gave it (a feature, a capability word).
    pub reason: String,
    /// How many cases.
    pub cases: usize,
    /// The first such case's index.
    pub first_case: usize,
}

/// What the engine cannot do and the rule, for a skip or decline reason.
pub fn gap_of(reason: &str) -> (String, String) {
    if let Some(r) = reason.strip_prefix("rules ") {
        return (
            format!("does not implement the {r} rules"),
            format!("rules {r}"),
        );
    }
    if let Some((_, what, rule)) = CAPABILITIES.iter().find(|(w, ..)| *w == reason) {
        return (what.to_string(), rule.to_string());
    }
    if let Some((f, what, rule)) = FEATURE_RULES
        .iter()
        .find(|(f, ..)| f.eq_ignore_ascii_case(reason))
    {
        return (format!("cannot {what} (feature {f})"), rule.to_string());
    }
    (
        format!("declines cases with `{reason}`"),
        "(rule not named)".to_string(),
    )
}

/// Counts one case of a gap in `gaps` (kept in order of first appearance).
pub fn record(gaps: &mut Vec<Gap>, reason: &str, case: usize) {
    if let Some(g) = gaps.iter_mut().find(|g| g.reason == reason) {
        g.cases += 1;
        return;
    }
    let (what, rule) = gap_of(reason);
    gaps.push(Gap {
        what,
        rule,
        reason: reason.to_string(),
        cases: 1,
        first_case: case,
    });
}

/// The reason an engine declined a case: its own word when rbcheck knows it, else what its
/// Repeat shape cannot say in the case, else its word as given.
pub fn decline_reason(hello: &Hello, req: &CaseRequest, word: &str) -> String {
    let known = CAPABILITIES.iter().any(|(w, ..)| *w == word)
        || FEATURE_RULES
            .iter()
            .any(|(f, ..)| f.eq_ignore_ascii_case(word))
        || word == "rules";
    match (known, hello.inexpressible(req)) {
        (true, _) if word == "rules" => format!("rules {}", req.rules),
        (true, _) => word.to_string(),
        (false, Some(w)) => w,
        (false, None) => word.to_string(),
    }
}

/// Per item, how many [Repeat] instances an observation says were paid (items paying none left
/// out).
fn payments(o: &Observation) -> BTreeMap<u32, usize> {
    o.items
        .iter()
        .flatten()
        .filter_map(|i| {
            let n = i.repeat_paid.as_ref().map_or(0, |v| v.len());
            (n > 0).then_some((i.item, n))
        })
        .collect()
}

/// The case pays a [Repeat] instance.
pub fn pays(req: &CaseRequest) -> bool {
    req.plays
        .iter()
        .any(|p| matches!(p.stmt, PlayStmt::Repeat { pay: true, .. }))
}

/// For an engine that decides [Repeat] itself (hello `"repeat": "automatic"`): true if its answer does not show the case's
/// decisions (another number paid for an item, or a case that pays and an answer that cannot
/// show it: refused, or a play undone), so that the rest of the answer is about another game
/// than the case's.
pub fn decided_otherwise(req: &CaseRequest, model: &Observation, engine: &Observation) -> bool {
    let pays = pays(req);
    let refused = model.legal == Some(false) || engine.legal == Some(false);
    // A refused [Repeat] decision, or a refused choice of a later execution, is about the
    // decisions such an engine does not take.
    let refused_decision = model
        .illegal
        .as_ref()
        .and_then(|i| i.play)
        .and_then(|ix| req.plays.get(ix))
        .is_some_and(|p| match &p.stmt {
            PlayStmt::Repeat { .. } => true,
            PlayStmt::Mode { exec, .. }
            | PlayStmt::Target { exec, .. }
            | PlayStmt::NoMoreTargets { exec, .. }
            | PlayStmt::Destination { exec, .. } => *exec > 1,
            _ => false,
        });
    // An undone play shows no payment either way, and why it was undone (a cost it could not
    // pay, a later execution with no legal choice) may be the payment's.
    let undone = |o: &Observation| {
        o.items
            .iter()
            .flatten()
            .any(|i| i.cancelled.as_ref().is_some_and(|c| c.is_cancelled()))
    };
    refused_decision
        || (pays && (refused || undone(model) || undone(engine)))
        || payments(model) != payments(engine)
}
