//! Spectrum-based fault localisation over a fuzzing run: which rule clauses the cases of a
//! cluster apply far more often than the cases the engine passed.
//!
//! Every case's model run applies a set of clauses (`clauses::applied`): the steps of its
//! statements and the events of its log. A clause that every failing case of a cluster applies
//! and few passing cases do is where the engine's mistake most likely lives; one that every
//! case applies (paying the costs, finalizing) says nothing. The score is Ochiai's, the
//! measure the fault-localisation literature found best on real faults:
//! `failing(c) / sqrt(failing_total * (failing(c) + passing(c)))`.

use super::clauses::Passed;
use std::collections::BTreeMap;

/// A clause and how strongly a cluster's cases point at it (0 to 1).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Suspect {
    /// The rule clause, as the digest numbers it.
    pub clause: String,
    /// Ochiai's score: 1 when every failing case and no passing case applies it.
    pub score: f64,
}

/// The clauses each failing case of a run applies, by case index.
#[derive(Clone, Debug, Default)]
pub struct Failing(pub BTreeMap<usize, Vec<&'static str>>);

/// The `n` clauses most suspect for a cluster whose cases are `cases`, best first; of equal
/// scores, the more specific clause (more parts) first, then the digest's order.
pub fn suspects(cases: &[usize], failing: &Failing, passed: &Passed, n: usize) -> Vec<Suspect> {
    let runs: Vec<&Vec<&'static str>> = cases.iter().filter_map(|i| failing.0.get(i)).collect();
    if runs.is_empty() {
        return vec![];
    }
    let mut hit: BTreeMap<&'static str, usize> = BTreeMap::new();
    for run in &runs {
        for c in run.iter() {
            *hit.entry(c).or_default() += 1;
        }
    }
    let total = runs.len() as f64;
    let mut out: Vec<Suspect> = hit
        .into_iter()
        .map(|(c, f)| {
            let p = passed.0.get(c).map_or(0, |(n, _)| *n) as f64;
            let f = f as f64;
            Suspect {
                clause: c.to_string(),
                score: f / (total * (f + p)).sqrt(),
            }
        })
        .collect();
    let parts = |c: &str| c.split(['.', '-']).count();
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(parts(&b.clause).cmp(&parts(&a.clause)))
            .then(a.clause.cmp(&b.clause))
    });
    out.truncate(n);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clause_only_failing_cases_apply_comes_first() {
        let mut failing = Failing::default();
        failing.0.insert(3, vec!["357", "805.1.a.1"]);
        failing.0.insert(7, vec!["357", "805.1.a.1", "420.1"]);
        let mut passed = Passed::default();
        passed.0.insert("357".into(), (90, 0));
        passed.0.insert("420.1".into(), (2, 1));
        let s = suspects(&[3, 7], &failing, &passed, 3);
        assert_eq!(s[0].clause, "805.1.a.1");
        assert!((s[0].score - 1.0).abs() < 1e-9);
        assert_eq!(s.last().unwrap().clause, "357");
        assert!(suspects(&[5], &failing, &passed, 3).is_empty());
    }
}
