//! Naming a cluster on its shrunk case: the cause triage reads there, or, where that is only a
//! symptom (the engine refusing what the rules allow, a fault, a catch-all clause), the decision
//! of the case that cures it. A decision the engine gets right the other way is where its run
//! leaves the model's: the cluster is named by the model step of that decision and its rule.

use super::*;

/// The decision of `case` whose change cures the divergence: the engine agrees with the rules
/// on the changed case, which they allow or refuse at the same statement as the case. First
/// the least change: a later execution choosing as the first did (every decision and execution
/// kept); then a binary decision taken the other way ([Repeat] instance, optional cost, "you
/// may", demand). Its play index.
pub(super) fn decisive(checker: &mut Checker, case: &Case) -> Option<usize> {
    let n = case.plays.len();
    let refused_text = |c: &Case| {
        let m = model_observation(c, None).ok()?;
        let line = m.illegal.as_ref()?.line?;
        triage::statement_text(c, line)
    };
    let refused = refused_text(case);
    let mut cures = |c: Option<Case>| {
        let Some(Ok(c)) = c.map(|c| crate::case::parse(&crate::case::print(&c))) else {
            return false;
        };
        refused_text(&c) == refused
            && matches!(checker.outcome_of(&c), Outcome::Agree(cmp) if cmp.compared > 0)
    };
    (0..n)
        .find(|&ix| cures(triage::aligned(case, ix)))
        .or_else(|| (0..n).find(|&ix| cures(triage::flipped(case, ix))))
}

/// The cluster's cause on its shrunk case, and the cause of the decision that cures it (if
/// one does): a cause that is more than a symptom stands; a symptom is named by its decisive
/// decision; a fault by its decisive decision, else the statement the rules refuse, else what
/// the model applies at the statement the fault is at (`triage::applied_at`).
pub(super) fn name_cluster(checker: &mut Checker, best: &Shrunk) -> (Option<Cause>, Option<Cause>) {
    let case = &best.case;
    let decisive = decisive(checker, case)
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
    (cause, decisive)
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
