//! The conformance table of a fuzzing run, like a test262 results table: per rule clause, how
//! many cases the engine passed, how many show it deviating, how many it could not express,
//! with an example of each.
//!
//! A case passes the clauses its model run applies (the steps of its statements and the
//! events of its log, `model::coverage`); it deviates under the clauses its cluster cites; it
//! is not expressible under the rule of its conformance gap (`capability`).

use super::fuzz::FuzzReport;
use crate::clauses::clauses_of;
use model::coverage::{clause_index, CLAUSES};
use serde::Serialize;
use std::collections::BTreeMap;

/// One row: a rule clause and its three cells.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ClauseRow {
    /// The clause, as the digest numbers it (`820.2.a`), or a gap's rule.
    pub clause: String,
    /// Its words in the model's clause table (empty when it has none).
    pub words: String,
    /// Cases agreeing with the rules whose model run applies the clause.
    pub passed: usize,
    /// The first of them (its index in the run).
    pub passed_case: Option<usize>,
    /// Cases of clusters citing the clause.
    pub deviates: usize,
    /// The first such cluster (1-based finding number; its minimal case is that finding's).
    pub deviates_finding: Option<usize>,
    /// Cases the engine cannot express, under this rule.
    pub not_expressible: usize,
    /// The first of them (its index in the run).
    pub not_expressible_case: Option<usize>,
}

/// The table of a run: every clause with a nonzero cell, in the model's clause order, then the
/// others (gaps' rules, cited clauses the table lacks) in text order.
pub fn rows(r: &FuzzReport) -> Vec<ClauseRow> {
    let mut rows: BTreeMap<String, ClauseRow> = BTreeMap::new();
    for (c, (n, first)) in &r.passed.0 {
        let e = entry(&mut rows, c);
        e.passed = *n;
        e.passed_case = Some(*first);
    }
    for (k, f) in r.findings.iter().enumerate() {
        for c in clauses_of(&f.cited) {
            let e = entry(&mut rows, &c);
            e.deviates += f.hits;
            e.deviates_finding.get_or_insert(k + 1);
        }
    }
    for g in &r.gaps {
        let e = entry(&mut rows, &g.rule);
        e.not_expressible += g.cases;
        let first = e.not_expressible_case.get_or_insert(g.first_case);
        *first = (*first).min(g.first_case);
    }
    let mut out: Vec<ClauseRow> = rows.into_values().collect();
    out.sort_by_key(|r| {
        (
            clause_index(&r.clause).unwrap_or(usize::MAX),
            r.clause.clone(),
        )
    });
    out
}

/// The row of `clause`, made if new.
fn entry<'a>(rows: &'a mut BTreeMap<String, ClauseRow>, clause: &str) -> &'a mut ClauseRow {
    rows.entry(clause.to_string()).or_insert_with(|| ClauseRow {
        clause: clause.to_string(),
        words: CLAUSES
            .iter()
            .find(|(k, _)| *k == clause)
            .map(|(_, w)| w.to_string())
            .unwrap_or_default(),
        ..ClauseRow::default()
    })
}

/// The table as text, one clause a line: `clause  passed  deviates  not expressible  words`.
pub fn text(r: &FuzzReport) -> String {
    let rows = rows(r);
    if rows.is_empty() {
        return String::new();
    }
    let cell = |n: usize, ex: Option<String>| match (n, ex) {
        (0, _) => "-".to_string(),
        (n, Some(e)) => format!("{n} ({e})"),
        (n, None) => n.to_string(),
    };
    let mut out = format!(
        "CONFORMANCE per rule clause (cases; an example of each cell):\n  {:<12} {:<18} {:<18} {:<20} {}\n",
        "clause", "passed", "deviates", "not expressible", "the rule"
    );
    for row in rows {
        out.push_str(&format!(
            "  {:<12} {:<18} {:<18} {:<20} {}\n",
            row.clause,
            cell(row.passed, row.passed_case.map(|c| format!("case {c}"))),
            cell(
                row.deviates,
                row.deviates_finding.map(|f| format!("finding {f}"))
            ),
            cell(
                row.not_expressible,
                row.not_expressible_case.map(|c| format!("case {c}"))
            ),
            row.words
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::clauses_of;

    #[test]
    fn cited_texts_name_their_clauses() {
        assert_eq!(
            clauses_of("355.1.a, 820.1.c.2–3"),
            ["355.1.a", "820.1.c.2", "820.1.c.3"]
        );
        assert_eq!(clauses_of("356-357"), ["356", "357"]);
        assert_eq!(clauses_of("SFD-078; 425.1"), ["SFD-078", "425.1"]);
        assert!(clauses_of("PROTOCOL.md, Answers").is_empty());
    }
}
