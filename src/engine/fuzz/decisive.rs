//! Naming a cluster on its shrunk case: the cause triage reads there, or, where that is only a
//! symptom (the engine refusing what the rules allow, a fault, a catch-all clause), the decision
//! of the case that cures it. A decision the engine gets right the other way is where its run
//! leaves the model's: the cluster is named by the model step of that decision and its rule.

use super::*;

/// The decision of `case` whose change cures the divergence: the engine agrees with the rules
/// on the changed case, which they allow, or (with `refusals`, for a symptom of legality)
/// refuse at a statement the case has (a decision that changes the cost leaves the case's
/// payments too big: agreeing there is computing the same cost). First the least change: a later execution
/// choosing as the first did (every decision and execution kept); then a binary decision taken
/// the other way ([Repeat] instance, optional cost, "you may", demand). Its play index.
pub(super) fn decisive(checker: &mut Checker, case: &Case, refusals: bool) -> Option<usize> {
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
        let Some(Ok(c)) = c.map(|c| crate::case::parse(&crate::case::print(&c))) else {
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
    (0..n)
        .find(|&ix| cures(triage::aligned(case, ix)))
        .or_else(|| (0..n).find(|&ix| cures(triage::flipped(case, ix))))
}

/// What a decision brings about: the clauses of the model's events on `case` that the case
/// with the decision at play `ix` changed no longer has (each event counted once). A symptom
/// cured by undoing the decision is a symptom of a cause among these.
pub(super) fn consequences(case: &Case, ix: usize) -> Vec<String> {
    let changed = triage::aligned(case, ix).or_else(|| triage::flipped(case, ix));
    let clauses = |c: &Case| -> Vec<&'static str> {
        crate::case::replay::replay(c, None)
            .map(|r| {
                r.state
                    .log
                    .iter()
                    .flat_map(|e| model::coverage::event_clauses(e).iter().copied())
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut left = clauses(case);
    for c in changed.map(|c| clauses(&c)).unwrap_or_default() {
        if let Some(k) = left.iter().position(|x| *x == c) {
            left.remove(k);
        }
    }
    left.sort_unstable();
    left.dedup();
    left.into_iter().map(String::from).collect()
}

/// The cluster's cause on its shrunk case, the cause of the decision that cures it (if one
/// does) and what that decision brings about (`consequences`): a cause that is more than a symptom stands; a symptom is named by its decisive
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
    let ix = decisive(checker, case, refusals);
    let cured = ix.map(|ix| consequences(case, ix)).unwrap_or_default();
    let decisive = ix
        .and_then(|ix| triage::statement_cause(case, case.plays[ix].line))
        .map(Cause::weak);
    let cause = match (&best.cause, &best.fault) {
        (Some(c), None) if !c.weak => Some(c.clone()),
        (Some(c), None) => Some(decisive.clone().unwrap_or_else(|| c.clone())),
        (_, Some(m)) => {
            // An error is no `legal: false`: the decision that cures it says where the engine's
            // run breaks; else a statement the rules refuse (where it should have answered
            // `legal: false`); else what the model applies where the fault says it is.
            decisive
                .clone()
                .or_else(|| best.cause.clone().filter(|c| !c.weak))
                .or_else(|| triage::fault_line(case, m).and_then(|l| triage::applied_at(case, l)))
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
