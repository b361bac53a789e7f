//! The HTML report of `rbcheck diff --html`: the rulebooks' differing fields with their rules,
//! then each class of observable difference with its smallest pair of cases side by side, the
//! lines that only one of the pair has marked.

use super::{esc, facts, page, rule_quotes};
use crate::diff::DiffReport;
use model::rulebook::FIELDS;
use std::collections::HashSet;
use std::fmt::Write as _;

/// A field's rule, as `rbcheck rules --list` gives it.
fn field_rule(name: &str) -> &'static str {
    FIELDS
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.rule)
        .unwrap_or("")
}

/// A case as a `<pre>`, each line that `other` does not have marked.
fn case_pre(text: &str, other: &str) -> String {
    let theirs: HashSet<&str> = other.lines().collect();
    let mut o = String::from("<pre class=\"case\">");
    for line in text.lines() {
        // The header says which rulebook the file is for: not a difference worth marking.
        if !theirs.contains(line) && !line.starts_with('#') && !line.starts_with("rules ") {
            let _ = writeln!(o, "<span class=\"only\">{}</span>", esc(line));
        } else {
            let _ = writeln!(o, "{}", esc(line));
        }
    }
    o.push_str("</pre>");
    o
}

fn fields(r: &DiffReport) -> String {
    if r.fields.is_empty() {
        return "<p>The rulebooks have the same fields.</p>".into();
    }
    let mut o = String::from("<table class=\"fields\"><thead><tr><th>field that differs</th><th>rule</th></tr></thead><tbody>");
    for f in &r.fields {
        let _ = write!(
            o,
            "<tr><td class=\"mono\">{}</td><td class=\"mono\">{}</td></tr>",
            esc(f),
            esc(field_rule(f))
        );
    }
    o.push_str("</tbody></table>");
    o
}

/// The whole `diff --html` page; `command` is the command line shown in the title bar.
pub fn diff_report(r: &DiffReport, command: &str) -> String {
    let mut body = String::new();
    let verdict = if r.differs() {
        format!(
            "<span class=\"bad\">{} class(es) of observable difference</span>",
            r.classes.len()
        )
    } else {
        "<span class=\"ok\">no observable difference in this bound</span>".to_string()
    };
    let _ = writeln!(
        body,
        "<section class=\"card\" id=\"summary\"><h2>Summary</h2>{}{}</section>",
        facts(&[
            ("verdict", verdict),
            ("A", esc(&r.a)),
            ("B", esc(&r.b)),
            (
                "bound",
                format!("{} ({} scenarios)", esc(&r.bound), r.scenarios)
            ),
        ]),
        fields(r)
    );
    for (n, c) in r.classes.iter().enumerate() {
        let explained = if c.explained_by.is_empty() {
            "no single field (a combination of the fields that differ)".to_string()
        } else {
            c.explained_by
                .iter()
                .map(|f| format!("{f} ({})", field_rule(f)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let rules: Vec<&str> = c.explained_by.iter().map(|f| field_rule(f)).collect();
        let _ = write!(
            body,
            "<section class=\"card class\" id=\"class{}\"><h2>Class {} of {}: {}</h2><p>{} scenario(s), {} decision sequence(s); explained by {}.</p>{}",
            n + 1,
            n + 1,
            r.classes.len(),
            esc(&c.what),
            c.scenarios,
            c.sequences,
            esc(&explained),
            rule_quotes(&rules.join(", "))
        );
        match c.pair.as_slice() {
            [(na, a), (nb, b)] => {
                let _ = write!(
                    body,
                    "<h3>Smallest example (lines only one side has are marked)</h3><div class=\"pair\"><div data-side=\"a\"><h4>under {}</h4>{}</div><div data-side=\"b\"><h4>under {}</h4>{}</div></div>",
                    esc(na),
                    case_pre(a, b),
                    esc(nb),
                    case_pre(b, a)
                );
            }
            _ => body.push_str("<p class=\"muted\">No example pair was built for this class.</p>"),
        }
        body.push_str("</section>\n");
    }
    page(
        &format!("rbcheck diff: {} → {} | bound {}", r.a, r.b, r.bound),
        command,
        &body,
    )
}
