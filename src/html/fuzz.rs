//! The HTML report of `rbcheck fuzz --html`: the run's counts, then each finding with the
//! model's and the engine's answers side by side (and the rule each difference involves, quoted
//! from the digest) and its minimal case.

use super::{esc, facts, page, rule_quotes};
use crate::engine::fuzz::FuzzReport;
use crate::findings::finding_case;
use std::fmt::Write as _;

/// The whole `fuzz --html` page; `command` is the command line shown in the title bar.
pub fn fuzz_report(r: &FuzzReport, command: &str) -> String {
    let engine = r.engine.as_ref().map(|h| h.describe()).unwrap_or_default();
    let skipped: usize = r.unsupported.values().sum();
    let verdict = if let Some(why) = r.nothing_compared() {
        format!(
            "<span class=\"unknown\">nothing compared</span>: {}; this run proves nothing about the engine",
            esc(&why)
        )
    } else if r.findings.is_empty() {
        format!(
            "<span class=\"ok\">no finding</span> in {} compared case(s)",
            r.compared
        )
    } else {
        format!("<span class=\"bad\">{} finding(s)</span>", r.findings.len())
    };
    let mut rows = vec![
        ("verdict", verdict),
        ("engine", format!("<span class=\"mono\">{}</span>", esc(&engine))),
        ("seed", r.seed.to_string()),
        (
            "cases",
            format!(
                "{} generated in {:.1} s: {} compared ({} agreed), {} not expressible by the engine (conformance gaps), {} engine fault(s)",
                r.cases, r.seconds, r.compared, r.agreed, skipped, r.faults
            ),
        ),
    ];
    if let Some(why) = &r.aborted {
        rows.push(("stopped", esc(why)));
    }
    let mut body = format!(
        "<section class=\"card\" id=\"summary\"><h2>Summary</h2>{}</section>\n",
        facts(&rows)
    );
    body.push_str(&conformance(r));
    for (n, f) in r.findings.iter().enumerate() {
        let _ = write!(
            body,
            "<section class=\"card finding\" id=\"finding{}\"><h2>Finding {}: {}</h2><p>{} generated case(s) of this kind; the first was case {} of seed {}.{}</p>",
            n + 1,
            n + 1,
            esc(&f.kind),
            f.hits,
            f.first_case,
            r.seed,
            if f.fault.is_some() {
                String::new()
            } else {
                format!(
                    " Shrunk from {} to {} statements.",
                    f.shrunk_from.0, f.shrunk_from.1
                )
            }
        );
        let _ = write!(
            body,
            "<p class=\"sentence\"><b>{}</b></p>",
            esc(&f.sentence)
        );
        if !f.suspects.is_empty() {
            let s: Vec<String> = f.suspects.iter().map(|s| esc(&s.words())).collect();
            let _ = write!(
                body,
                "<p class=\"suspects\">Suspect clauses (its cases apply them, the cases the engine passed seldom do; Ochiai's score): {}</p>",
                s.join(", ")
            );
        }
        if !f.merged.is_empty() {
            let _ = write!(
                body,
                "<p>One root cause: its cases were also seen as {}.</p>",
                esc(&f.merged.join("; "))
            );
        }
        if let Some(m) = &f.fault {
            let _ = write!(
                body,
                "<p><b>The engine fails on this case:</b></p><pre>{}</pre>",
                esc(m)
            );
        } else {
            body.push_str("<table class=\"answers\"><thead><tr><th>field</th><th>about</th><th>the model (the rules)</th><th>the engine</th><th>rule</th></tr></thead><tbody>");
            for d in &f.differences {
                let _ = write!(
                    body,
                    "<tr data-field=\"{}\"><td class=\"mono\">{}</td><td>{}</td><td class=\"mono ok\">{}</td><td class=\"mono bad\">{}</td><td class=\"mono\">{}</td></tr>",
                    esc(d.field),
                    esc(d.field),
                    esc(&d.subject),
                    esc(&d.model),
                    esc(&d.engine),
                    esc(&d.rule)
                );
            }
            body.push_str("</tbody></table>");
            let mut rules: Vec<&str> = f.differences.iter().map(|d| d.rule.as_str()).collect();
            rules.sort_unstable();
            rules.dedup();
            body.push_str(&rule_quotes(&rules.join(", ")));
        }
        let case =
            finding_case(f, n + 1, &engine, r.seed).unwrap_or_else(|_| crate::case::print(&f.case));
        let _ = writeln!(
            body,
            "<h3>The case (its expectations are the model's)</h3><pre class=\"case\">{}</pre></section>",
            esc(&case)
        );
    }
    page(&format!("rbcheck fuzz: {engine}"), command, &body)
}

/// The conformance table (per rule clause: passed, deviates, not expressible, with an example
/// of each cell) and the gaps, as a section.
fn conformance(r: &FuzzReport) -> String {
    let rows = crate::engine::conformance::rows(r);
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<section class=\"card\" id=\"conformance\"><h2>Conformance per rule clause</h2>",
    );
    for g in &r.gaps {
        let _ = write!(
            out,
            "<p class=\"unknown\">Not expressible: {} ({}), {} case(s), first case {}.</p>",
            esc(&g.what),
            esc(&g.rule),
            g.cases,
            g.first_case
        );
    }
    out.push_str("<table class=\"answers\"><thead><tr><th>clause</th><th>passed</th><th>deviates</th><th>not expressible</th><th>the rule</th></tr></thead><tbody>");
    let cell = |n: usize, example: Option<String>, class: &str| match (n, example) {
        (0, _) => "<td>-</td>".to_string(),
        (n, Some(e)) => format!("<td class=\"{class}\">{n} ({e})</td>"),
        (n, None) => format!("<td class=\"{class}\">{n}</td>"),
    };
    for row in rows {
        let _ = write!(
            out,
            "<tr data-clause=\"{}\"><td class=\"mono\">{}</td>{}{}{}<td>{}</td></tr>",
            esc(&row.clause),
            esc(&row.clause),
            cell(
                row.passed,
                row.passed_case.map(|c| format!("case {c}")),
                "ok"
            ),
            cell(
                row.deviates,
                row.deviates_finding
                    .map(|f| format!("<a href=\"#finding{f}\">finding {f}</a>")),
                "bad"
            ),
            cell(
                row.not_expressible,
                row.not_expressible_case.map(|c| format!("case {c}")),
                "unknown"
            ),
            esc(&row.words)
        );
    }
    out.push_str("</tbody></table></section>\n");
    out
}
