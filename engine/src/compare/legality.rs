//! Comparing legality, first: whether both sides accept every statement, or refuse the same
//! one; a difference here stops the comparison, as what follows an illegal statement is not
//! comparable.

use super::{Comparison, Difference};
use crate::protocol::*;
use rbcheck_case::ast::PlayStmt;

/// Compares legality; true if the rest is to be compared (both sides found every statement
/// legal, or the engine did not say and the model found them legal).
pub(super) fn legality(
    req: &CaseRequest,
    model: &Observation,
    engine: &Observation,
    out: &mut Comparison,
) -> bool {
    let model_legal = model.legal.unwrap_or(true);
    let difference = match engine.legal {
        None => {
            out.not_reported.insert("legality");
            return model_legal;
        }
        Some(true) if model_legal => return true,
        Some(true) => engine_accepts(req, model),
        Some(false) if model_legal => engine_refuses(req, engine),
        Some(false) => match engine.illegal.as_ref().and_then(|i| line_of(req, i)) {
            None => {
                out.not_reported.insert("legality");
                None
            }
            Some(el) => other_statement(req, model, el),
        },
    };
    out.differences.extend(difference);
    false
}

fn legality_difference(
    subject: String,
    model: String,
    engine: String,
    rule: &str,
    kind: String,
) -> Difference {
    Difference {
        field: "legality",
        subject,
        model,
        engine,
        rule: rule.to_string(),
        kind: format!("legality: {kind}"),
    }
}

/// The engine accepts every statement; the model refuses one.
fn engine_accepts(req: &CaseRequest, model: &Observation) -> Option<Difference> {
    let mi = model.illegal.clone().unwrap_or_default();
    let line = mi.line.unwrap_or(0);
    let play = req.plays.iter().find(|p| p.line == line);
    let stmt = play
        .map(|p| rbcheck_case::print::play_stmt(&p.stmt))
        .unwrap_or_default();
    let rule = mi.rule.unwrap_or_else(|| "355-358".into());
    let what = play.map(|p| statement_rule(&p.stmt).0).unwrap_or("?");
    Some(legality_difference(
        format!("line {line} `{stmt}`"),
        format!("illegal line {line} rule {rule}"),
        "legal".into(),
        &rule,
        format!("engine accepts a `{what}` the rules refuse ({rule})"),
    ))
}

/// The engine refuses a statement; the model accepts them all.
fn engine_refuses(req: &CaseRequest, engine: &Observation) -> Option<Difference> {
    let ei = engine.illegal.clone().unwrap_or_default();
    let line = line_of(req, &ei);
    let idx = line.and_then(|l| index_of(req, l)).or(ei.play);
    let (what, rule) = idx
        .and_then(|i| req.plays.get(i))
        .map(|p| statement_rule(&p.stmt))
        .unwrap_or(("statement", "355-358"));
    let stmt = idx.map(|i| stmt_text(req, i)).unwrap_or_default();
    let why = ei.why.map(|w| format!(" ({w})")).unwrap_or_default();
    let line = line.map(|l| l.to_string()).unwrap_or_else(|| "?".into());
    let cited = ei.rule.map(|r| format!(" rule {r}")).unwrap_or_default();
    Some(legality_difference(
        format!("line {line} `{stmt}`"),
        "legal".into(),
        format!("illegal line {line}{cited}{why}"),
        rule,
        format!("engine refuses a legal `{what}`"),
    ))
}

/// Both refuse a statement, the engine at line `el`: a difference if the model's is another.
fn other_statement(req: &CaseRequest, model: &Observation, el: usize) -> Option<Difference> {
    let ml = model.illegal.as_ref().and_then(|i| line_of(req, i));
    if Some(el) == ml {
        return None;
    }
    let rule = model
        .illegal
        .as_ref()
        .and_then(|i| i.rule.clone())
        .unwrap_or_else(|| "355-358".into());
    let ml = ml.unwrap_or(0);
    let stmt = index_of(req, ml)
        .map(|i| stmt_text(req, i))
        .unwrap_or_default();
    Some(legality_difference(
        format!("line {ml} `{stmt}`"),
        format!("illegal line {ml} rule {rule}"),
        format!("illegal line {el}"),
        &rule,
        if el > ml {
            format!("engine accepts a statement the rules refuse ({rule})")
        } else {
            "engine refuses an earlier, legal statement".into()
        },
    ))
}

/// The line of the refused statement, given or found from its index.
fn line_of(req: &CaseRequest, i: &IllegalObs) -> Option<usize> {
    i.line
        .or_else(|| i.play.and_then(|p| req.plays.get(p).map(|x| x.line)))
}

fn index_of(req: &CaseRequest, line: usize) -> Option<usize> {
    req.plays.iter().position(|p| p.line == line)
}

fn stmt_text(req: &CaseRequest, index: usize) -> String {
    req.plays
        .get(index)
        .map(|p| rbcheck_case::print::play_stmt(&p.stmt))
        .unwrap_or_else(|| "?".into())
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
        PlayStmt::LookDraw { .. } => ("look draw", "359.3.e"),
        PlayStmt::LookRecycle { .. } => ("look recycle", "416"),
        PlayStmt::Demand { .. } => ("demand", "425"),
        PlayStmt::Optional { .. } => ("optional", "355.1.a, 356.2.b"),
        PlayStmt::Location { .. } => ("location", "355.2"),
        PlayStmt::Reduce { .. } => ("reduce", "356.4.c"),
        PlayStmt::Discard { .. } => ("discard", "357.2"),
        PlayStmt::Discount { .. } => ("discount", "356.4.e"),
        PlayStmt::PayWithUnit { kill: true, .. } => ("kill", "357.2"),
        PlayStmt::PayWithUnit { kill: false, .. } => ("exhaust", "357.2, 414.4"),
        PlayStmt::Rune { .. } => ("rune", "164.2, 357.1.a"),
        PlayStmt::Close => ("close", "339, 340.2"),
        PlayStmt::EndTurn => ("end turn", "334.1"),
        PlayStmt::Activate { .. } => ("activate", "401, 145.2"),
    }
}
