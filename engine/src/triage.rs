//! Triage by cause: where an engine first diverges from the rules, named in the rules' words.
//!
//! A case's differences are many symptoms of usually one mistake: an engine that lets a
//! [Repeat] instance be paid twice shows it as a refused `repeat`, a refused later statement or
//! an error reply, depending on the case. The fuzzer groups findings by the *cause* this module
//! gives, not by the first differing field:
//!
//! - **a statement the rules refuse** and the engine accepts (or answers with an error): the
//!   engine diverges there, and the cause is the model step that statement stands for, with
//!   its rule (`Action::citation`);
//! - **one rule read otherwise**: otherwise, the model replays the case under each rulebook
//!   that changes one clause (`model::rulebook::FIELDS`, the wrong readings `corpus/rulebooks/`
//!   holds); if one of them gives exactly the engine's answer, that clause is the cause (an
//!   engine applying a discount per execution, or Deflect once per unit, is named so whatever
//!   field showed it first, even a refused `pay`);
//! - **a statement the engine refuses** and the rules allow: the cause is that statement's step;
//! - **a result field**: each difference is traced to the model's event that decided it (the
//!   item's Repeat declarations, the cost components, executions, instructions, counters...),
//!   and the cause is the earliest of those events in the model's log, with the clause it
//!   shows (`coverage::event_clauses`). A `paid` difference is traced to the cost component
//!   (356.2.b Repeat, 356.4 discount, 809.1.c Deflect, ...) whose amount explains it.
//!
//! The result is the model's reading; the engine is only seen through its final answer, so a
//! cause is the first place where that answer and the model's run part, not a proof of where
//! the engine's code is wrong.

use super::compare::Comparison;
use super::protocol::*;
use model::coverage::{event_clauses, CLAUSES};
use model::state::Event;
use rbcheck_case::ast::{Case, PlayStmt};
use std::path::Path;

mod provenance;
mod reasons;
mod witness;

/// Why an engine diverges: the rule clause and its words. Findings with the same name are one
/// cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    /// The cluster's name: the rules' words, then the rule numbers in parentheses.
    pub name: String,
    /// The rule numbers cited, in the digest's spelling.
    pub rule: String,
    /// The statement line where the engine first diverges, when a statement shows it.
    pub line: Option<usize>,
    /// A symptom rather than a cause: the engine refusing a statement the rules allow, a fault,
    /// or a difference traced to no more than a catch-all clause (359.3.e, 357, 356). Such a
    /// cluster is told apart by the decision that cures it (`fuzz`'s decisive probe).
    pub weak: bool,
    /// Traced to where the model decided the value that differs (the last change to a unit,
    /// gear or player), not to a step the engine is seen to take otherwise: a later
    /// execution's choices whose alignment with the first's cures the case say more (820.2.a).
    pub traced: bool,
    /// No reading of the whole run overrules this name (`fuzz`'s suspect clauses): it is the
    /// rule the engine itself gave for refusing a legal statement, or a later execution's
    /// choices whose alignment with the first's cures the case (820.2.a).
    pub settled: bool,
}

impl Cause {
    /// A cause that is not a rule of the game (a protocol mistake, a fault): named as is.
    pub fn named(name: &str, rule: &str) -> Cause {
        Cause {
            name: name.to_string(),
            rule: rule.to_string(),
            line: None,
            weak: false,
            traced: false,
            settled: false,
        }
    }

    /// The same cause, marked a symptom (see [`Cause::weak`]).
    pub fn weak(self) -> Cause {
        Cause { weak: true, ..self }
    }

    /// The cause a cluster's most suspect clause names (`spectrum`).
    pub fn suspected(clause: &str) -> Cause {
        Cause::cited(&[clause], clause, None)
    }

    /// A cause citing `clauses`, worded from the model's clause table.
    fn cited(clauses: &[&str], text: &str, line: Option<usize>) -> Cause {
        let words: Vec<&str> = clauses
            .iter()
            .filter_map(|c| CLAUSES.iter().find(|(k, _)| k == c).map(|(_, w)| *w))
            .collect();
        let words = if words.is_empty() {
            "the rules".to_string()
        } else {
            words.join("; ")
        };
        Cause {
            name: format!("{words} ({text})"),
            rule: text.to_string(),
            line,
            // What only a catch-all clause explains is no more than a symptom.
            weak: catch_all(text),
            traced: false,
            settled: false,
        }
    }
}

/// True for a catch-all clause (359.3.e: instructions executed; 357: costs paid; 356: the total
/// cost): a difference traced to one says no more than that something differed there.
pub fn catch_all(clause: &str) -> bool {
    matches!(clause, "359.3.e" | "357" | "356")
}

/// The cause of a divergence at the statement on `line`: the model step it stands for.
pub fn statement_cause(case: &Case, line: usize) -> Option<Cause> {
    let p = case.plays.iter().find(|p| p.line == line)?;
    let c = crate::clauses::statement_step(&p.stmt).citation();
    let mut clauses: Vec<&str> = c.applies.to_vec();
    // A `repeat N pay` refused for paying an instance twice breaks 820.1.c.3, which the
    // step cites only when it pays (Event::RepeatDeclared).
    if matches!(p.stmt, PlayStmt::Repeat { pay: true, .. }) {
        clauses.push("820.1.c.3");
    }
    Some(Cause::cited(&clauses, c.text, Some(line)))
}

/// The line of the first statement where the model's and the engine's legality part, if they
/// do: the model refuses a statement the engine accepted (or answered with an error), or the
/// engine refuses a statement the model accepts, whichever comes first.
pub fn divergent_line(
    req: &CaseRequest,
    model: &Observation,
    engine: Option<&Observation>,
) -> Option<usize> {
    let line_of = |i: &IllegalObs| {
        i.line
            .or_else(|| i.play.and_then(|p| req.plays.get(p).map(|x| x.line)))
    };
    let ml = model.illegal.as_ref().and_then(line_of);
    let el = engine.and_then(|e| match e.legal {
        Some(false) => e.illegal.as_ref().and_then(line_of),
        _ => None,
    });
    match (ml, el) {
        (Some(m), Some(e)) if m == e => None,
        (Some(m), Some(e)) => Some(m.min(e)),
        (m, e) => m.or(e),
    }
}

/// The keyword of the statement on `line` (`play`, `pay`, `repeat`, `target`...), without the
/// player or the execution it is for.
fn keyword(case: &Case, line: usize) -> String {
    let text = statement_text(case, line).unwrap_or_default();
    let mut words = text
        .split_whitespace()
        .filter(|w| *w != "you" && *w != "opponent");
    match words.next() {
        // `exec 1 target 1 u2`: the choice made.
        Some("exec") => words.nth(1).unwrap_or("exec").to_string(),
        Some(w) => w.to_string(),
        None => String::new(),
    }
}

/// The cause of a comparison's differences: where the engine first diverges from the model's
/// run of `case` (`dir`: the case's folder, for a rulebook file).
pub fn cause(
    case: &Case,
    dir: Option<&Path>,
    req: &CaseRequest,
    model: &Observation,
    engine: &Observation,
    cmp: &Comparison,
) -> Cause {
    let legality = cmp.differences.iter().any(|d| d.field == "legality");
    let divergent = divergent_line(req, model, Some(engine));
    let model_refuses = |l: usize| model.illegal.as_ref().and_then(|i| i.line) == Some(l);
    if let Some(l) = divergent.filter(|l| legality && model_refuses(*l)) {
        // The model's reason names the cause where it says more than the step the statement
        // stands for (a play refused for its timing, 358.4, is more than "move a card to the
        // chain"); one the step already cites would split one cause by the case.
        let step = statement_cause(case, l);
        let reason = model
            .illegal
            .as_ref()
            .and_then(|i| reasons::model_refusal(i, &keyword(case, l), l))
            .filter(|r| reasons::says_more(r, step.as_ref()));
        if let Some(c) = reason.or(step) {
            return c;
        }
    }
    if let Some(c) = one_rule_otherwise(case, dir, req, engine) {
        return c;
    }
    // The engine refusing what the rules allow is where it shows; its reason says why, unless
    // it only says "not now".
    if let Some(l) = divergent.filter(|_| legality) {
        let reason = engine
            .illegal
            .as_ref()
            .filter(|_| engine.legal == Some(false))
            .and_then(|i| reasons::engine_refusal(i, &keyword(case, l), l));
        if let Some(c) = reason {
            return c;
        }
        if let Some(c) = statement_cause(case, l) {
            return c.weak();
        }
    }
    let replayed = rbcheck_case::replay::replay(case, dir).ok();
    let log: &[Event] = replayed.as_ref().map_or(&[], |r| &r.state.log[..]);
    let mut best: Option<(usize, Cause)> = None;
    for d in &cmp.differences {
        let (at, c) = witness::witness(d, log, replayed.as_ref(), engine);
        if best.as_ref().is_none_or(|(b, _)| at < *b) {
            best = Some((at, c));
        }
    }
    best.map(|(_, c)| c).unwrap_or_else(|| {
        Cause::named("the engine's answer differs", "PROTOCOL.md, Comparison").weak()
    })
}

/// The rulebooks that read one clause of `base` otherwise: each field of
/// `model::rulebook::FIELDS` set to each other value it can take (a flag flipped, a count of
/// 2, each other named reading), with the field's documentation.
fn one_clause_variants(
    base: &model::rulebook::Rulebook,
) -> Vec<(
    model::rulebook::Rulebook,
    &'static model::rulebook::FieldDoc,
)> {
    let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(base) else {
        return vec![];
    };
    let mut out = vec![];
    for doc in model::rulebook::FIELDS {
        let Some(now) = fields.get(doc.name) else {
            continue;
        };
        let others: Vec<serde_json::Value> = match now {
            serde_json::Value::Bool(b) => vec![(!b).into()],
            serde_json::Value::Number(n) if n.as_u64() == Some(1) => vec![2.into()],
            serde_json::Value::String(v) => doc
                .doc
                .split(':')
                .next()
                .unwrap_or("")
                .split(" | ")
                .map(str::trim)
                .filter(|o| o != v && !o.is_empty() && !o.contains(' '))
                .map(|o| o.into())
                .collect(),
            _ => vec![],
        };
        for v in others {
            let mut f = fields.clone();
            f.insert(doc.name.to_string(), v);
            if let Ok(r) = serde_json::from_value(serde_json::Value::Object(f)) {
                out.push((r, doc));
            }
        }
    }
    out
}

/// The one clause that, read otherwise, makes the model give exactly the engine's answer (the
/// first such, in the order of `model::rulebook::FIELDS`).
fn one_rule_otherwise(
    case: &Case,
    dir: Option<&Path>,
    req: &CaseRequest,
    engine: &Observation,
) -> Option<Cause> {
    let base = rbcheck_case::replay::rulebook(case, dir).ok()?;
    // A reading that only refuses where the engine refuses matches a symptom, not a cause:
    // many wrong readings of costs refuse the same `pay`.
    let refusal = engine.legal == Some(false);
    for (rules, doc) in one_clause_variants(&base) {
        let Ok(obs) = super::observe::model_observation_under(case, rules) else {
            continue;
        };
        let c = super::compare::compare(req, &obs, engine);
        if c.differences.is_empty() && c.compared > 0 {
            let clause = doc.rule.split(',').next().unwrap_or(doc.rule).trim();
            let words = CLAUSES
                .iter()
                .find(|(k, _)| *k == clause)
                .map(|(_, w)| w.to_string())
                .unwrap_or_else(|| {
                    doc.doc
                        .split(" (wrong")
                        .next()
                        .unwrap_or(doc.doc)
                        .to_string()
                });
            return Some(Cause {
                name: format!("{words} ({})", doc.rule),
                rule: doc.rule.to_string(),
                line: None,
                weak: refusal,
                traced: false,
                settled: false,
            });
        }
    }
    None
}

/// The rule a fault on `case` cites: the steps of its statements, which the rules allow (or
/// the statement they refuse, where the engine should have answered `legal: false`).
pub fn fault_rule(case: &Case, model: Option<&Observation>) -> String {
    if let Some(l) = model.and_then(|m| m.illegal.as_ref()).and_then(|i| i.line) {
        if let Some(c) = statement_cause(case, l) {
            return format!(
                "the rules refuse line {l} ({}); the engine should answer `legal: false` there",
                c.rule
            );
        }
    }
    let mut cited: Vec<&str> = vec![];
    for p in &case.plays {
        let t = crate::clauses::statement_step(&p.stmt).citation().text;
        if !cited.contains(&t) {
            cited.push(t);
        }
    }
    format!(
        "the rules allow every statement of this case ({})",
        cited.join("; ")
    )
}

/// The case with the decision at play `index` taken the other way (a [Repeat] instance, an
/// optional cost, a "you may", a demand paid or not), if it is such a decision. A [Repeat]
/// instance no longer paid takes the choices of the execution it paid for with it (820.2.a).
pub fn flipped(case: &Case, index: usize) -> Option<Case> {
    let mut c = case.clone();
    let stmt = &mut c.plays.get_mut(index)?.stmt;
    let skipped_repeat = match stmt {
        PlayStmt::Repeat { pay, .. } => {
            *pay = !*pay;
            !*pay
        }
        PlayStmt::Optional { pay, .. } | PlayStmt::Demand { pay } => {
            *pay = !*pay;
            false
        }
        PlayStmt::May { perform } => {
            *perform = !*perform;
            false
        }
        _ => return None,
    };
    if skipped_repeat {
        drop_last_execution(&mut c, index);
    }
    c.checkpoints.clear();
    c.expects.clear();
    Some(c)
}

/// The execution a choice statement is for (mode, target, end of targets, destination).
fn exec_of(p: &PlayStmt) -> Option<u8> {
    match p {
        PlayStmt::Mode { exec, .. }
        | PlayStmt::Target { exec, .. }
        | PlayStmt::NoMoreTargets { exec, .. }
        | PlayStmt::Destination { exec, .. } => Some(*exec),
        _ => None,
    }
}

/// The plays `start..end` of the play that play `index` belongs to (from its `play`).
fn play_span(c: &Case, index: usize) -> (usize, usize) {
    let start = c.plays[..=index]
        .iter()
        .rposition(|p| matches!(p.stmt, PlayStmt::Play { .. }))
        .unwrap_or(0);
    let end = c.plays[index + 1..]
        .iter()
        .position(|p| matches!(p.stmt, PlayStmt::Play { .. }))
        .map_or(c.plays.len(), |k| index + 1 + k);
    (start, end)
}

/// The case with the execution that the choice at play `index` is for choosing as the first
/// execution did (its modes, targets and destinations replaced by copies of the first's), if
/// that execution is a later one and chose otherwise (820.2.a).
pub fn aligned(case: &Case, index: usize) -> Option<Case> {
    let k = exec_of(&case.plays.get(index)?.stmt).filter(|k| *k > 1)?;
    let (start, end) = play_span(case, index);
    let span = &case.plays[start..end];
    let first_k = start + span.iter().position(|p| exec_of(&p.stmt) == Some(k))?;
    if first_k != index {
        return None;
    }
    let as_first: Vec<_> = span
        .iter()
        .filter(|p| exec_of(&p.stmt) == Some(1))
        .map(|p| {
            let mut p = p.clone();
            set_exec(&mut p.stmt, k);
            p
        })
        .collect();
    let now: Vec<_> = span
        .iter()
        .filter(|p| exec_of(&p.stmt) == Some(k))
        .map(|p| &p.stmt)
        .collect();
    if as_first.is_empty() || as_first.iter().map(|p| &p.stmt).eq(now.iter().copied()) {
        return None;
    }
    let mut c = case.clone();
    let mut plays: Vec<_> = c.plays[..start].to_vec();
    for (j, p) in span.iter().enumerate() {
        if start + j == first_k {
            plays.extend(as_first.iter().cloned());
        }
        if exec_of(&p.stmt) != Some(k) {
            plays.push(p.clone());
        }
    }
    plays.extend(c.plays[end..].iter().cloned());
    c.plays = plays;
    c.checkpoints.clear();
    c.expects.clear();
    Some(c)
}

fn set_exec(p: &mut PlayStmt, k: u8) {
    match p {
        PlayStmt::Mode { exec, .. }
        | PlayStmt::Target { exec, .. }
        | PlayStmt::NoMoreTargets { exec, .. }
        | PlayStmt::Destination { exec, .. } => *exec = k,
        _ => {}
    }
}

/// Removes the choices of the last execution of the play that play `index` belongs to.
fn drop_last_execution(c: &mut Case, index: usize) {
    let (start, end) = play_span(c, index);
    let Some(last) = c.plays[start..end]
        .iter()
        .filter_map(|p| exec_of(&p.stmt))
        .max()
        .filter(|e| *e > 1)
    else {
        return;
    };
    let mut k = start;
    let mut end = end;
    while k < end {
        if exec_of(&c.plays[k].stmt) == Some(last) {
            c.plays.remove(k);
            end -= 1;
        } else {
            k += 1;
        }
    }
}

/// The statement an engine's fault is at: the line its message names (`line N`), if the case
/// has a statement there, else the last statement (where the plays end).
pub fn fault_line(case: &Case, message: &str) -> Option<usize> {
    let named = message
        .match_indices("line ")
        .filter_map(|(i, w)| {
            let digits: String = message[i + w.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse::<usize>().ok()
        })
        .find(|l| case.plays.iter().any(|p| p.line == *l));
    named.or_else(|| case.plays.last().map(|p| p.line))
}

/// The statement on `line` as the case file writes it.
pub fn statement_text(case: &Case, line: usize) -> Option<String> {
    let p = case.plays.iter().find(|p| p.line == line)?;
    Some(rbcheck_case::print::play_stmt(&p.stmt))
}

/// What the model applies on the statement at `line` of `case`: the first event with a rule
/// clause that the statement (and the steps that follow it on their own) adds to the model's
/// log, as a cause at that line; else the statement's step.
pub fn applied_at(case: &Case, line: usize) -> Option<Cause> {
    let ix = case.plays.iter().position(|p| p.line == line)?;
    let rules = rbcheck_case::replay::rulebook(case, None).ok()?;
    let r = rbcheck_case::replay::replay_keeping(case, rules, &[ix, ix + 1]).ok()?;
    let state_at = |n: usize| r.at.iter().find(|(k, _)| *k == n).map(|(_, s)| s);
    let before = state_at(ix).map_or(0, |s| s.log.len());
    let after = state_at(ix + 1).unwrap_or(&r.state);
    let first = after
        .log
        .iter()
        .skip(before)
        .map(event_clauses)
        .find(|c| !c.is_empty());
    match first {
        Some(clauses) => Some(Cause::cited(clauses, &clauses.join(", "), Some(line))),
        None => statement_cause(case, line),
    }
}
