//! Naming a cluster on its shrunk case: the cause triage reads there, or, where that is only a
//! symptom (the engine refusing what the rules allow, a fault, a catch-all clause), the decision
//! of the case that cures it. A decision the engine gets right the other way is where its run
//! leaves the model's: the cluster is named by the model step of that decision and its rule.

use super::*;
use rbcheck_case::from_trace::with_missing_decisions;

/// The decision of `case` whose change cures the divergence: the engine agrees with the rules
/// on the changed case, which they allow, or (with `refusals`, for a symptom of legality)
/// refuse at a statement the case has (a decision that changes the cost leaves the case's
/// payments too big: agreeing there is computing the same cost). First the least change: a later execution
/// choosing as the first did (every decision and execution kept); then a binary decision taken
/// the other way ([Repeat] instance, optional cost, "you may", demand); of several, the last
/// before line `at`, where the divergence shows. Its play index.
pub(super) fn decisive(
    checker: &mut Checker,
    case: &Case,
    refusals: bool,
    at: Option<usize>,
) -> Option<usize> {
    let n = case.plays.len();
    let refused_at = |c: &Case| {
        let m = model_observation(c, None).ok()?;
        let line = m.illegal.as_ref()?.line?;
        c.plays
            .iter()
            .find(|p| p.line == line)
            .map(|p| p.stmt.clone())
    };
    let refused = refused_at(case);
    let mut cures = |c: Option<Case>| {
        // A changed decision can call for another the case does not write (a cost no longer
        // cancelled must be paid): the model's first choice is written in.
        let Some(c) = c.and_then(|c| with_missing_decisions(&c, 4)) else {
            return false;
        };
        // A refusal of a statement the change made is no agreement; one of a statement the
        // case had (a payment too big now, a turn that cannot end yet) is the engine's state
        // there matching the model's.
        let now = refused_at(&c);
        let kept = now
            .as_ref()
            .is_none_or(|st| case.plays.iter().any(|p| &p.stmt == st));
        (now == refused || (refusals && kept))
            && matches!(checker.outcome_of(&c), Outcome::Agree(cmp) if cmp.compared > 0)
    };
    // Of the decisions that cure, the last one before the line where the run shows the
    // divergence: an earlier one can cure by changing what comes later as well.
    let last_before = |found: Vec<usize>| {
        let before = |ix: &usize| at.is_none_or(|l| case.plays[*ix].line < l);
        found
            .iter()
            .copied()
            .rfind(before)
            .or(found.first().copied())
    };
    let aligned: Vec<usize> = (0..n)
        .filter(|&ix| cures(triage::aligned(case, ix)))
        .collect();
    // Undoing what a decision adds (an instance or a cost paid, a "you may" performed) before
    // adding what it left out: an added cost can cure by having the play cancelled, which only
    // hides the divergence.
    let (off, on): (Vec<usize>, Vec<usize>) = (0..n)
        .filter(|&ix| cures(triage::flipped(case, ix)))
        .partition(|&ix| takes_on(&case.plays[ix].stmt));
    last_before(aligned)
        .or_else(|| last_before(off))
        .or_else(|| last_before(on))
}

/// True for a binary decision taken the way that adds to the play: an instance or a cost
/// paid, a "you may" performed, a demand paid.
fn takes_on(stmt: &PlayStmt) -> bool {
    match stmt {
        PlayStmt::Repeat { pay, .. }
        | PlayStmt::Optional { pay, .. }
        | PlayStmt::Demand { pay } => *pay,
        PlayStmt::May { perform } => *perform,
        _ => false,
    }
}

/// What a decision brings about: the clauses of the model's events on `case`, about the item
/// the decision at play `ix` is for, that the case with that decision changed no longer has, or
/// has and `case` has not (each event counted once). A symptom cured by undoing the decision is a symptom of a cause
/// among these. Only that item's events count: the changed case can go on where the case
/// stopped, and what later items do there is no consequence of the decision.
pub(super) fn consequences(case: &Case, ix: usize) -> Vec<String> {
    let changed = triage::aligned(case, ix)
        .or_else(|| triage::flipped(case, ix))
        .and_then(|c| with_missing_decisions(&c, 4));
    let item = decided_item(case, ix);
    let clauses = |c: &Case| -> Vec<&'static str> {
        rbcheck_case::replay::replay(c, None)
            .map(|r| {
                r.state
                    .log
                    .iter()
                    .filter(|e| item.is_none() || e.item() == item)
                    .flat_map(|e| model::coverage::event_clauses(e).iter().copied())
                    .collect()
            })
            .unwrap_or_default()
    };
    // Both ways: a `skip` made `pay` brings about what the changed case has.
    let mut left = clauses(case);
    let mut right = vec![];
    for c in changed.map(|c| clauses(&c)).unwrap_or_default() {
        match left.iter().position(|x| *x == c) {
            Some(k) => {
                left.remove(k);
            }
            None => right.push(c),
        }
    }
    left.extend(right);
    left.sort_unstable();
    left.dedup();
    left.into_iter().map(String::from).collect()
}

/// The item the decision at play `ix` of `case` is taken for: the first item an event of that
/// step is about.
fn decided_item(case: &Case, ix: usize) -> Option<u8> {
    let rules = rbcheck_case::replay::rulebook(case, None).ok()?;
    let r = rbcheck_case::replay::replay_keeping(case, rules, &[ix, ix + 1]).ok()?;
    // The state after no statement is not kept: the log starts empty.
    let before = match ix {
        0 => 0,
        _ => r.at.iter().find(|(n, _)| *n == ix)?.1.log.len(),
    };
    let (_, after) = r.at.iter().find(|(n, _)| *n == ix + 1)?;
    after
        .log
        .iter()
        .skip(before)
        .find_map(model::state::Event::item)
}

/// The cluster's cause on its shrunk case, the cause of the decision that cures it (if one
/// does) and what that decision brings about (`consequences`): a cause that is more than a
/// symptom stands, unless it is only where the model decided the value and a later execution
/// choosing as the first did cures the case (820.2.a); a symptom is named by its decisive
/// decision; a fault by its decisive decision, else the statement the rules refuse, else what
/// the model applies at the statement the fault is at (`triage::applied_at`).
pub(super) fn name_cluster(
    checker: &mut Checker,
    best: &Shrunk,
) -> (Option<Cause>, Option<Cause>, Vec<String>) {
    let case = &best.case;
    // Agreeing on a refusal cures only a symptom of legality (a refusal, a fault): a result
    // field is cured by a run the rules allow.
    let refusals = best.fault.is_some()
        || best
            .differences
            .first()
            .is_some_and(|d| d.field == "legality");
    let at = best.cause.as_ref().and_then(|c| c.line).or_else(|| {
        best.fault
            .as_ref()
            .and_then(|m| triage::fault_line(case, m))
    });
    let ix = decisive(checker, case, refusals, at);
    let cured = ix.map(|ix| consequences(case, ix)).unwrap_or_default();
    let decisive = ix
        .and_then(|ix| triage::statement_cause(case, case.plays[ix].line))
        .map(Cause::weak);
    // A later execution's choices that cure the case by choosing as the first did name it
    // better than where the model decided the value that differs.
    let aligned_cure = ix.is_some_and(|ix| triage::aligned(case, ix).is_some());
    // Executions cured by choosing alike name the mistake (820.2.a), not a symptom of it.
    let decisive = decisive.map(|c| Cause {
        settled: aligned_cure,
        ..c
    });
    let cause = match (&best.cause, &best.fault) {
        (Some(c), None) if c.traced && aligned_cure => decisive.clone().or(Some(c.clone())),
        (Some(c), None) if !c.weak => Some(c.clone()),
        (Some(c), None) => Some(decisive.clone().unwrap_or_else(|| c.clone())),
        (_, Some(m)) => {
            // An error is no `legal: false`: the decision that cures it says where the engine's
            // run breaks; else a statement the rules refuse (where it should have answered
            // `legal: false`); else what the model applies where the fault says it is.
            decisive
                .clone()
                .or_else(|| best.cause.clone().filter(|c| !c.weak))
                // Where a fault shows is only its symptom, as a refusal's step is.
                .or_else(|| {
                    triage::fault_line(case, m)
                        .and_then(|l| triage::applied_at(case, l))
                        .map(Cause::weak)
                })
        }
        (None, None) => None,
    };
    (cause, decisive, cured)
}

/// The sentence a finding supports: what the engine does, what the rules say, and the rule.
pub(super) fn sentence(f: &Finding) -> String {
    match (&f.fault, f.differences.first()) {
        (Some(m), _) => {
            let at = f
                .line
                .and_then(|l| {
                    triage::statement_text(&f.case, l).map(|s| format!("`{s}` (line {l})"))
                })
                .unwrap_or_else(|| "this case".into());
            format!(
                "the engine fails on {at} ({}) where the rules ({}) {}",
                m.chars().take(160).collect::<String>(),
                f.cited,
                if f.refused { "refuse it" } else { "allow it" }
            )
        }
        (None, Some(d)) => format!(
            "the engine performs `{}` where the rules ({}) say `{}`",
            d.engine, f.cited, d.model
        ),
        (None, None) => f.kind.clone(),
    }
}
