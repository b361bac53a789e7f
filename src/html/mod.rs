//! The self-contained HTML reports of `check --html`, `diff --html` and `fuzz --html`: one file
//! each, with its style and a little script inline, no network, no external font, so that it
//! can be mailed or opened from anywhere. The markup is well-formed XHTML as well as HTML (every
//! element closed, every attribute quoted, the script in a CDATA section), which the tests
//! check with an XML parser.
//!
//! A counterexample is a table of steps, each with its rule numbers and the rules' text from the
//! digest ([`digest`]); clicking a step shows the board after it ([`board`]). A diff shows each
//! class's smallest pair of cases side by side; a fuzz run each finding's case with the model's
//! and the engine's answers.

pub mod board;
pub mod cards;
pub mod check;
pub mod diff;
pub mod digest;
pub mod fuzz;

use std::fmt::Write as _;

pub use check::check_report;
pub use diff::diff_report;
pub use fuzz::fuzz_report;

/// The command line as typed, for the title bar (`rbcheck check --rules rup4 --html r.html`).
pub fn command_line() -> String {
    let mut words = vec!["rbcheck".to_string()];
    for a in std::env::args_os().skip(1) {
        let a = a.to_string_lossy().into_owned();
        if a.is_empty() || a.contains(|c: char| c.is_whitespace() || c == '\'') {
            words.push(format!("'{}'", a.replace('\'', "'\\''")));
        } else {
            words.push(a);
        }
    }
    words.join(" ")
}

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element text and attribute values.
pub fn esc(text: &str) -> String {
    let mut o = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            // Control characters are not allowed in XML; a case text never holds them, an
            // engine's message might.
            c if c.is_control() && c != '\n' && c != '\t' => o.push('\u{fffd}'),
            c => o.push(c),
        }
    }
    o
}

/// The style of every report: a light page, tables with thin rules, a sticky board panel.
const CSS: &str = r#"
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0; color: #1d2330; background: #f5f6f8; }
header.top { background: #1f2a44; color: #fff; padding: 14px 24px; }
header.top h1 { margin: 0 0 4px 0; font-size: 20px; }
header.top p { margin: 0; color: #c9d2e6; }
main { padding: 12px 24px 40px 24px; }
section.card { background: #fff; border: 1px solid #d8dce4; border-radius: 6px; padding: 12px 16px; margin: 14px 0; }
h2 { font-size: 17px; margin: 4px 0 8px 0; }
h3 { font-size: 15px; margin: 10px 0 6px 0; }
h4 { font-size: 13px; margin: 10px 0 4px 0; color: #3b4660; text-transform: uppercase; letter-spacing: .03em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid #e3e6ec; }
th { background: #eef1f6; font-weight: 600; font-size: 13px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; }
dl.facts dt { color: #5b6478; }
dl.facts dd { margin: 0; }
.ok { color: #11703a; font-weight: 600; }
.bad { color: #b3261e; font-weight: 600; }
.unknown { color: #8a5a00; font-weight: 600; }
.muted { color: #6b7385; }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: #f7f8fa; border: 1px solid #e3e6ec; padding: 8px; overflow-x: auto; margin: 0; white-space: pre-wrap; }
.trace { display: grid; grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr); gap: 14px; align-items: start; }
.trace .steps tbody tr { cursor: pointer; }
.trace .steps tbody tr:hover { background: #f0f4ff; }
.trace .steps tbody tr.selected { background: #dfe8ff; box-shadow: inset 3px 0 0 #3b6cf6; }
.trace .steps tr.violation td:first-child::after { content: " \2716"; color: #b3261e; }
.badge { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; background: #e8ebf1; color: #3b4660; }
.badge.decision { background: #e3f0ff; color: #1b4fb8; }
.badge.forced { background: #efefef; color: #666; }
.panel { position: sticky; top: 8px; max-height: calc(100vh - 16px); overflow-y: auto; border: 1px solid #c9d3ea; border-radius: 6px; background: #fbfcff; padding: 8px 12px; }
.board.hidden { display: none; }
.rule { border-left: 3px solid #9fb3e6; padding: 2px 8px; margin: 6px 0; background: #f4f7ff; font-size: 13px; }
.rule .src { color: #6b7385; font-size: 11.5px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.pair pre .only { background: #fff2c4; display: inline-block; width: 100%; }
ol.events { margin: 0; padding-left: 22px; font-size: 13px; }
.note { font-size: 12.5px; color: #5b6478; }
"#;

/// Selecting a step shows its board; arrow keys move between steps. Written without `<` and
/// `&` so that it is the same text as XML and as HTML.
const JS: &str = r#"
var rbCurrent = null;
function rbSelect(row) {
  var trace = row.closest('.trace');
  trace.querySelectorAll('tr.selected').forEach(function (r) { r.classList.remove('selected'); });
  row.classList.add('selected');
  trace.querySelectorAll('.board').forEach(function (b) {
    b.classList.toggle('hidden', b.id !== row.dataset.board);
  });
  rbCurrent = row;
}
document.querySelectorAll('.trace .steps tbody tr').forEach(function (row) {
  row.addEventListener('click', function () { rbSelect(row); });
});
document.addEventListener('keydown', function (e) {
  if (rbCurrent === null) { return; }
  var next = null;
  if (e.key === 'ArrowDown') { next = rbCurrent.nextElementSibling; }
  if (e.key === 'ArrowUp') { next = rbCurrent.previousElementSibling; }
  if (next !== null) { rbSelect(next); next.scrollIntoView({block: 'nearest'}); e.preventDefault(); }
});
"#;

/// A whole page: the title bar, the body's sections, the style and the script.
pub fn page(title: &str, subtitle: &str, body: &str) -> String {
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n\
         <meta charset=\"utf-8\"/>\n<meta name=\"generator\" content=\"rbcheck {}\"/>\n\
         <title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n\
         <header class=\"top\"><h1>{}</h1><p>{}</p></header>\n<main>\n{body}</main>\n\
         <script>//<![CDATA[{JS}//]]></script>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        esc(title),
        esc(title),
        esc(subtitle),
    );
    o
}

/// A definition list of facts (`label`, value as HTML).
pub fn facts(rows: &[(&str, String)]) -> String {
    let mut o = String::from("<dl class=\"facts\">");
    for (k, v) in rows {
        let _ = write!(o, "<dt>{}</dt><dd>{v}</dd>", esc(k));
    }
    o.push_str("</dl>\n");
    o
}

/// The digest's text for every clause of `citation`, as quote blocks (a clause the digest does
/// not hold is said so, never left out).
pub fn rule_quotes(citation: &str) -> String {
    let mut o = String::new();
    for clause in digest::clauses(citation) {
        match digest::lookup(&clause) {
            Some(t) => {
                let how = match (&t.via, t.how) {
                    (Some(v), _) => format!("not in the digest on its own; nearest: {}", esc(v)),
                    (None, digest::Match::Mentions) => "a paragraph that mentions it".into(),
                    _ => "where the digest states it".into(),
                };
                let _ = write!(
                    o,
                    "<div class=\"rule\" data-clause=\"{}\"><b>{}</b> <span class=\"src\">{how} · digest line {}, §{}</span><br/>{}</div>",
                    esc(&clause),
                    esc(&clause),
                    t.line,
                    esc(&t.section),
                    esc(&t.text)
                );
            }
            None => {
                let _ = write!(
                    o,
                    "<div class=\"rule missing\" data-clause=\"{}\"><b>{}</b> <span class=\"src\">not in the digest</span></div>",
                    esc(&clause),
                    esc(&clause)
                );
            }
        }
    }
    o
}
