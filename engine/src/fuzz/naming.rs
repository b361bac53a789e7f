//! The names findings end a run with: the suspect clauses of the whole run rename the findings
//! named only by a symptom, and findings that end under one name are one cluster.

use super::{decisive, Finding, FuzzReport};
use crate::triage::Cause;

/// Ranks each finding's suspect clauses over the whole run (`spectrum`) and names by the most
/// suspect one every disagreement whose cause is only a symptom (a catch-all, the step where a
/// refusal shows, the decision that cures it): the place two runs part is often not the rule
/// broken (a [Repeat] instance left unpaid cures most mistakes of a later execution), while
/// the clause that the failing cases apply and the passing ones do not is where the mistake
/// lives. A cause the engine is seen to take (a statement it wrongly accepts, a wrong reading
/// of one rule), the specific clause of the event that decided the differing value, a settled
/// name (the rule the engine gave for refusing, executions cured by choosing alike) and a
/// fault keep their names; a renamed finding's first name is kept in `merged`.
pub(super) fn name_by_suspects(report: &mut FuzzReport) {
    for f in &mut report.findings {
        let cases: Vec<usize> = f.cases.iter().map(|(i, _)| *i).collect();
        f.suspects = crate::spectrum::suspects(&cases, &report.failing, &report.passed, 5);
        // A name traced to the event that decided the differing value, with a clause of its
        // own, is that case's cause; the spectrum is the whole run's correlation and names
        // only what the case could not (a catch-all, the step where a refusal shows).
        let symptom = f.fault.is_none() && !f.settled && f.weak;
        let Some(top) = f.suspects.first().filter(|_| symptom) else {
            continue;
        };
        let cause = Cause::suspected(&top.clause);
        // A catch-all clause (359.3.e, 357) says no more than the symptom did.
        if cause.weak || cause.name == f.kind {
            continue;
        }
        let was = std::mem::replace(&mut f.kind, cause.name);
        f.merged.retain(|k| k != &f.kind);
        f.merged.insert(0, was);
        f.cited = cause.rule;
        f.weak = cause.weak;
        f.sentence = decisive::sentence(f);
    }
}

/// Findings that end the run under one name are one cluster (`triage::Cause`): each joins the
/// first reported under that name, whose minimal case it keeps.
pub(super) fn merge_same_names(report: &mut FuzzReport) {
    let mut out: Vec<Finding> = Vec::with_capacity(report.findings.len());
    for f in std::mem::take(&mut report.findings) {
        match out.iter_mut().find(|g| g.kind == f.kind) {
            Some(g) => g.absorb(f),
            None => out.push(f),
        }
    }
    report.findings = out;
}
