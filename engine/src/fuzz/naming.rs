//! The names findings end a run with: the suspect clauses of the whole run rename the findings
//! named only by a symptom, and findings that end under one name are one cluster.

use super::{decisive, Finding, FuzzReport};
use crate::triage::{self, Cause};

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

/// Findings that end the run named by one rule are one cluster: each joins the first reported
/// under it, whose minimal case it keeps (its own name stays in `merged`). A finding named by a
/// rule is keyed by the clauses it cites, so that the same rule reached through another
/// statement ("... applied by the engine to refuse a legal `pass`") is not a second finding; a
/// fault and a finding named by a catch-all clause are keyed by their whole name, since their
/// clause says nothing of the cause. Two opposite mistakes under one rule stay apart: an engine
/// accepting what the rule refuses, and an engine refusing by that rule what it allows. A
/// cluster is named by a cause rather than by the engine's refusal when it has one.
pub(super) fn merge_same_names(report: &mut FuzzReport) {
    let mut out: Vec<(String, Finding)> = Vec::with_capacity(report.findings.len());
    for mut f in std::mem::take(&mut report.findings) {
        let key = root(&f);
        let opposite = |g: &Finding| (lax(g) && strict(&f)) || (strict(g) && lax(&f));
        match out.iter_mut().find(|(k, g)| *k == key && !opposite(g)) {
            Some((_, g)) => {
                if g.weak && !f.weak {
                    std::mem::swap(g, &mut f);
                }
                g.absorb(f)
            }
            None => out.push((key, f)),
        }
    }
    report.findings = out.into_iter().map(|(_, f)| f).collect();
}

/// The engine accepted a statement the rules refuse (or answered it with an error).
fn lax(f: &Finding) -> bool {
    f.refused
}

/// The engine refused a statement the rules allow, citing the rule the finding is named by.
fn strict(f: &Finding) -> bool {
    f.weak && f.settled
}

/// What a finding is merged by: the clauses it is named by, when they name a cause; else its
/// whole name.
fn root(f: &Finding) -> String {
    let clauses = crate::clauses::clauses_of(&f.cited);
    if f.fault.is_some() || clauses.is_empty() || clauses.iter().any(|c| triage::catch_all(c)) {
        return format!("name: {}", f.kind);
    }
    let mut clauses = clauses;
    clauses.sort();
    clauses.dedup();
    format!("rule: {}", clauses.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finding named `kind`, citing `cited`, with one case numbered `i`.
    fn finding(kind: &str, cited: &str, i: usize) -> Finding {
        let case = rbcheck_case::parse::parse(
            "rbcheck-case 1\nrules rup4\n\npool you [1]\nhand you \"Blood Rush\"\n\nyou play \"Blood Rush\"\n\nexpect legal\n",
        )
            .expect("a minimal case");
        Finding {
            kind: kind.into(),
            cited: cited.into(),
            symptoms: std::collections::BTreeMap::new(),
            cases: vec![(i, String::new())],
            hits: 1,
            first_case: i,
            recipe: super::super::recipe_from_bytes(&[]),
            case,
            differences: vec![],
            fault: None,
            shrunk_from: (1, 1),
            rules: "rup4".into(),
            sentence: String::new(),
            line: None,
            refused: false,
            weak: false,
            traced: false,
            settled: false,
            decisive: None,
            cured: vec![],
            merged: vec![],
            suspects: vec![],
            filed: vec![i],
        }
    }

    fn merged(findings: Vec<Finding>) -> Vec<(String, usize)> {
        let mut report = FuzzReport {
            findings,
            ..FuzzReport::default()
        };
        merge_same_names(&mut report);
        report
            .findings
            .iter()
            .map(|f| (f.kind.clone(), f.hits))
            .collect()
    }

    /// One rule reached through two statements is one finding, under the first name; a
    /// catch-all and a fault stay apart by their names.
    #[test]
    fn findings_named_by_one_rule_are_one_cluster() {
        let refused = Finding {
            weak: true,
            settled: true,
            ..finding(
                "\"up to\": fewer targets (355.13), applied by the engine to refuse a legal `pass`",
                "355.13",
                7,
            )
        };
        let got = merged(vec![
            finding("\"up to\": fewer targets (355.13)", "355.13", 3),
            refused,
            finding("instructions executed (359.3.e)", "359.3.e", 4),
            finding("the engine's answer (359.3.e)", "359.3.e", 5),
            Finding {
                fault: Some("engine crash".into()),
                ..finding("engine crash", "355.13", 6)
            },
        ]);
        assert_eq!(
            got,
            vec![
                ("\"up to\": fewer targets (355.13)".to_string(), 2),
                ("instructions executed (359.3.e)".to_string(), 1),
                ("the engine's answer (359.3.e)".to_string(), 1),
                ("engine crash".to_string(), 1),
            ]
        );
    }

    /// The engine's refusal found first does not name a cluster a cause joins later; an engine
    /// accepting what 358.4 refuses and one refusing by 358.4 what it allows are two findings.
    #[test]
    fn a_cause_names_the_cluster_and_opposite_mistakes_stay_apart() {
        let strict = |kind: &str, i| Finding {
            weak: true,
            settled: true,
            ..finding(kind, "358.4", i)
        };
        let got = merged(vec![
            strict(
                "timing (358.4), applied by the engine to refuse a legal `play`",
                2,
            ),
            finding("timing (358.4)", "358.4", 5),
        ]);
        assert_eq!(got, vec![("timing (358.4)".to_string(), 2)]);
        let lax = Finding {
            refused: true,
            ..finding("an illegal `play` accepted: timing (358.4)", "358.4", 3)
        };
        let got = merged(vec![
            lax,
            strict(
                "timing (358.4), applied by the engine to refuse a legal `play`",
                4,
            ),
        ]);
        assert_eq!(got.len(), 2, "{got:?}");
    }
}
