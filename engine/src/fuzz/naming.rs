//! The names findings end a run with: the suspect clauses of the whole run rename the findings
//! named only by a symptom, and findings that end under one name are one cluster.

use super::{decisive, Finding, FuzzReport, NOT_RECURRING};
use crate::triage::{self, Cause};

/// Ranks each finding's suspect clauses over the whole run (`spectrum`) and names by the most
/// suspect one every disagreement whose cause is only a symptom (a catch-all, the step where a
/// refusal shows, the decision that cures it): the place two runs part is often not the rule
/// broken (a [Repeat] instance left unpaid cures most mistakes of a later execution), while
/// the clause that the failing cases apply and the passing ones do not is where the mistake
/// lives. A cause the engine is seen to take (a statement it wrongly accepts, a wrong reading
/// of one rule), the specific clause of the event that decided the differing value, a settled
/// name (the rule the engine gave for refusing, executions cured by choosing alike) and a
/// fault that did not recur keep their names; a fault that recurs, named by where it showed,
/// is a symptom like a refusal. A renamed finding's first name is kept in `merged`.
pub(super) fn name_by_suspects(report: &mut FuzzReport) {
    for f in &mut report.findings {
        let cases: Vec<usize> = f.cases.iter().map(|(i, _)| *i).collect();
        f.suspects = crate::spectrum::suspects(&cases, &report.failing, &report.passing, 5);
    }
    rename_symptoms(report);
}

/// Names each finding that is only a symptom by its most suspect clause (`name_by_suspects`).
fn rename_symptoms(report: &mut FuzzReport) {
    for f in &mut report.findings {
        // A name traced to the event that decided the differing value, with a clause of its
        // own, is that case's cause; the spectrum is the whole run's correlation and names
        // only what the case could not (a catch-all, the step where a refusal shows).
        let recurs = f
            .fault
            .as_deref()
            .is_none_or(|m| !m.contains(NOT_RECURRING));
        let symptom = recurs && !f.settled && f.weak;
        let Some(top) = f
            .suspects
            .first()
            .filter(|top| symptom || unborne(f, &top.clause))
        else {
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

/// True if `f`'s name, read on its shrunk case (the event that decided a differing value), is
/// borne out neither by that case nor by the run: the decision that cures the case does not
/// bring that event about (`decisive::consequences`) but does bring about `top`, the cluster's
/// most suspect clause, and none of the name's clauses is among the suspects at all. The case
/// then showed the mistake through a value the decision only passes through (a discount of a
/// cost a [Repeat] instance changed), and the decision and the run agree on another rule.
fn unborne(f: &Finding, top: &str) -> bool {
    let own = crate::clauses::clauses_of(&f.cited);
    f.fault.is_none()
        && !f.refused
        && !f.settled
        && !own.is_empty()
        && own.iter().all(|c| !f.cured.contains(c))
        && f.cured.iter().any(|c| c == top)
        && f.suspects.iter().all(|s| !own.contains(&s.clause))
}

/// A finding whose own name the run's evidence does not bear out joins the larger cluster that
/// evidence names: its cases point most strongly (its top suspect) at the clause another
/// finding, with at least as many cases, is named by, and not at any clause of its own name.
/// The name of a finding read on one shrunk case (the event that decided a differing value, the
/// rule the engine gave for a refusal) is where that case showed the mistake; the spectrum is
/// where all its cases share it with the larger cluster. A statement the engine wrongly
/// accepts and a fault keep their own clusters: what the engine did there is seen, not
/// inferred. Largest clusters are settled first, so a chain of such joins ends in the largest.
pub(super) fn join_by_suspects(report: &mut FuzzReport) {
    let order = by_hits(report);
    let mut into: Vec<Option<usize>> = vec![None; report.findings.len()];
    for &n in &order {
        let f = &report.findings[n];
        if f.fault.is_some() || f.refused {
            continue;
        }
        let Some(top) = f.suspects.first() else {
            continue;
        };
        if crate::clauses::clauses_of(&f.cited).contains(&top.clause) {
            continue;
        }
        let names = |g: &Finding| {
            g.fault.is_none()
                && !g.weak
                && g.hits >= f.hits
                && crate::clauses::clauses_of(&g.cited).contains(&top.clause)
        };
        into[n] = order
            .iter()
            .copied()
            .find(|&m| m != n && into[m].is_none() && names(&report.findings[m]));
    }
    absorb_into(report, &into);
}

/// Moves each finding `n` with `into[n]` set into the cluster its joins end in.
fn absorb_into(report: &mut FuzzReport, into: &[Option<usize>]) {
    // A finding joined by another may itself have joined a third (of equal size, settled
    // later): follow the joins to the cluster that stays.
    let last = |mut n: usize| {
        for _ in 0..into.len() {
            match into[n] {
                Some(m) => n = m,
                None => break,
            }
        }
        n
    };
    let targets: Vec<Option<usize>> = (0..into.len())
        .map(|n| into[n].map(|_| last(n)).filter(|&m| m != n))
        .collect();
    let mut slots: Vec<Option<Finding>> = std::mem::take(&mut report.findings)
        .into_iter()
        .map(Some)
        .collect();
    for (n, m) in targets.iter().enumerate() {
        if let Some(m) = *m {
            if let Some(f) = slots[n].take() {
                if let Some(g) = slots[m].as_mut() {
                    g.absorb(f);
                }
            }
        }
    }
    report.findings = slots.into_iter().flatten().collect();
}

/// A finding named by the event that decided a differing value joins the larger cluster cured
/// by the same decision when that event is itself one the decision brings about
/// (`decisive::consequences`): the value differs because the decision was taken, and the
/// decision is where the larger cluster shows the one mistake. A fault, a refusal and a
/// finding without a decision that cures it keep their clusters.
pub(super) fn join_by_decision(report: &mut FuzzReport) {
    let order = by_hits(report);
    let mut into: Vec<Option<usize>> = vec![None; report.findings.len()];
    for &n in &order {
        let f = &report.findings[n];
        let clauses = crate::clauses::clauses_of(&f.cited);
        let brought = !clauses.is_empty() && clauses.iter().all(|c| f.cured.contains(c));
        if f.fault.is_some() || f.refused || f.decisive.is_none() || !brought {
            continue;
        }
        // The largest such cluster; it may itself join a larger one (`absorb_into` follows).
        into[n] = order.iter().copied().find(|&m| {
            let g = &report.findings[m];
            g.hits > f.hits && g.fault.is_none() && g.decisive == f.decisive
        });
    }
    absorb_into(report, &into);
}

/// The findings' indices, most cases first (of equal counts, in the order found).
fn by_hits(report: &FuzzReport) -> Vec<usize> {
    let mut order: Vec<usize> = (0..report.findings.len()).collect();
    order.sort_by_key(|&n| std::cmp::Reverse(report.findings[n].hits));
    order
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

/// Orders the findings by the generated cases each explains, most first (of equal counts, in
/// the order found): where one mistake shows as several clusters, the one that explains most of
/// its cases is the likeliest to be named by its cause, the smaller ones by a symptom seen on a
/// few shrunk cases; a report read from the top meets the cause first.
pub(super) fn largest_first(report: &mut FuzzReport) {
    report.findings.sort_by_key(|f| std::cmp::Reverse(f.hits));
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
/// whole name. A fault's clauses name a cause only where the run's suspects renamed it (its
/// first name then kept in `merged`; faults join no other cluster before this).
fn root(f: &Finding) -> String {
    let clauses = crate::clauses::clauses_of(&f.cited);
    let unnamed_fault = f.fault.is_some() && f.merged.is_empty();
    if unnamed_fault || clauses.is_empty() || clauses.iter().any(|c| triage::catch_all(c)) {
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

    /// A finding whose cases point most strongly at the clause a larger finding is named by,
    /// and not at its own, joins it; one the spectrum bears out, one pointing at a smaller
    /// finding's clause and a statement the engine wrongly accepts stay apart; the largest
    /// comes first.
    #[test]
    fn a_finding_joins_the_larger_cluster_its_cases_point_at() {
        let suspect = |c: &str| crate::spectrum::Suspect {
            clause: c.into(),
            context: None,
            score: 0.9,
        };
        let with = |f: Finding, hits: usize, top: &str| Finding {
            hits,
            suspects: vec![suspect(top)],
            ..f
        };
        let mut report = FuzzReport {
            findings: vec![
                with(
                    finding("cards counted as played (419.4.b)", "419.4.b", 1),
                    40,
                    "340.1",
                ),
                with(
                    finding("the newest item resolves (340.1)", "340.1", 2),
                    90,
                    "340.1",
                ),
                with(finding("counter (425.1)", "425.1", 3), 20, "425.1"),
                with(finding("new choices (750)", "750", 4), 5, "425.1"),
                with(finding("a token is played (350.2)", "350.2", 5), 30, "750"),
                Finding {
                    refused: true,
                    ..with(
                        finding("an illegal `pass` accepted (339)", "339", 6),
                        3,
                        "340.1",
                    )
                },
            ],
            ..FuzzReport::default()
        };
        join_by_suspects(&mut report);
        largest_first(&mut report);
        let got: Vec<(&str, usize)> = report
            .findings
            .iter()
            .map(|f| (f.kind.as_str(), f.hits))
            .collect();
        assert_eq!(
            got,
            vec![
                ("the newest item resolves (340.1)", 130),
                ("a token is played (350.2)", 30),
                ("counter (425.1)", 25),
                ("an illegal `pass` accepted (339)", 3),
            ]
        );
        assert_eq!(
            report.findings[0].merged,
            vec!["cards counted as played (419.4.b)"]
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

    /// A fault that recurs, named only by the step it showed at, is renamed by its cases' most
    /// suspect clause and joins the finding of that rule; one that did not recur keeps its
    /// name and its cluster.
    #[test]
    fn a_recurring_fault_is_renamed_by_its_suspects() {
        let fault = |kind: &str, message: &str, i| Finding {
            fault: Some(message.into()),
            weak: true,
            suspects: vec![crate::spectrum::Suspect {
                clause: "340.1".into(),
                context: None,
                score: 0.99,
            }],
            ..finding(kind, "419.4.b", i)
        };
        let mut report = FuzzReport {
            findings: vec![
                finding("the newest item resolves (340.1)", "340.1", 1),
                fault("cards counted as played (419.4.b)", "an error", 2),
                fault(
                    "cards counted as played (419.4.b) again",
                    &format!("an error (it {NOT_RECURRING})"),
                    3,
                ),
            ],
            ..FuzzReport::default()
        };
        rename_symptoms(&mut report);
        merge_same_names(&mut report);
        let got: Vec<(&str, usize)> = report
            .findings
            .iter()
            .map(|f| (f.kind.as_str(), f.hits))
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].1, 2, "{got:?}");
        assert!(report.findings[0]
            .merged
            .contains(&"cards counted as played (419.4.b)".into()));
        assert_eq!(got[1].0, "cards counted as played (419.4.b) again");
    }

    /// A finding named by the event that decided a differing value joins the larger cluster
    /// cured by the same decision when the decision brings that event about; one whose event
    /// the decision does not bring about, one cured by another decision, and a fault stay.
    #[test]
    fn a_value_the_decision_brings_about_joins_the_cluster_it_cures() {
        let repeat = Some("each Repeat instance paid once (820.1.c.3)".to_string());
        let cured = |f: Finding, hits: usize, decisive: &Option<String>, cured: &[&str]| Finding {
            hits,
            decisive: decisive.clone(),
            cured: cured.iter().map(|c| c.to_string()).collect(),
            ..f
        };
        let mut report = FuzzReport {
            findings: vec![
                cured(
                    finding("component discounts (356.4.c)", "356.4.c", 1),
                    3,
                    &repeat,
                    &["356.2.b", "356.4.c"],
                ),
                cured(
                    finding("optional additional costs added (356.2.b)", "356.2.b", 2),
                    200,
                    &repeat,
                    &["356.2.b", "820.1.c.3"],
                ),
                cured(
                    finding("whole-card discounts once (356.4.d)", "356.4.d", 3),
                    2,
                    &repeat,
                    &["356.2.b"],
                ),
                cured(
                    finding("cost increases (356.3)", "356.3", 4),
                    2,
                    &Some("a mode (355.3)".into()),
                    &["356.3"],
                ),
                Finding {
                    fault: Some("an error".into()),
                    ..cured(
                        finding("base cost (356.1.c)", "356.1.c", 5),
                        1,
                        &repeat,
                        &["356.1.c"],
                    )
                },
            ],
            ..FuzzReport::default()
        };
        join_by_decision(&mut report);
        largest_first(&mut report);
        let got: Vec<(&str, usize)> = report
            .findings
            .iter()
            .map(|f| (f.kind.as_str(), f.hits))
            .collect();
        assert_eq!(
            got,
            vec![
                ("optional additional costs added (356.2.b)", 203),
                ("whole-card discounts once (356.4.d)", 2),
                ("cost increases (356.3)", 2),
                ("base cost (356.1.c)", 1),
            ]
        );
    }

    /// A name read on the shrunk case (a discount that decided the differing Cost) gives way to
    /// the cluster's top suspect when the decision that cures the case brings the suspect about
    /// and not the discount, and no suspect is the discount's clause; where the run does suspect
    /// the discount, or the cure brings it about too, the name stands.
    #[test]
    fn a_name_the_cure_and_the_run_both_pass_over_gives_way() {
        let suspects = |cs: &[&str]| {
            cs.iter()
                .map(|c| crate::spectrum::Suspect {
                    clause: c.to_string(),
                    context: None,
                    score: 0.6,
                })
                .collect::<Vec<_>>()
        };
        let read = |suspected: &[&str], cured: &[&str], i| Finding {
            decisive: Some("each Repeat instance paid once (820.1.c.3)".into()),
            cured: cured.iter().map(|c| c.to_string()).collect(),
            suspects: suspects(suspected),
            ..finding("whole-card discounts once (356.4.d)", "356.4.d", i)
        };
        let mut report = FuzzReport {
            findings: vec![
                read(&["356.2.b", "820.1.c.3"], &["356.2.b", "820.1.c.3"], 1),
                read(&["356.2.b", "356.4.d"], &["356.2.b"], 2),
                read(&["356.2.b"], &["356.2.b", "356.4.d"], 3),
            ],
            ..FuzzReport::default()
        };
        rename_symptoms(&mut report);
        let cited: Vec<&str> = report.findings.iter().map(|f| f.cited.as_str()).collect();
        assert_eq!(cited, vec!["356.2.b", "356.4.d", "356.4.d"]);
        assert_eq!(
            report.findings[0].merged,
            vec!["whole-card discounts once (356.4.d)"]
        );
    }
}
