//! The HTML report of `rbcheck check --html`: the run's summary, every property with its
//! meaning and verdict, and each counterexample as a table of steps (rule numbers, the rules'
//! text from the digest) beside the board after the selected step.

use super::board::board;
use super::{esc, facts, page, rule_quotes};
use crate::report::{explanation, graph_command};
use crate::verdict::{Judgement, Verdict};
use checker::{CheckResult, Expectation, Model, Outcome, Trace, Violation};
use properties::RepeatSystem;
use std::fmt::Write as _;

fn kind(e: Expectation) -> &'static str {
    match e {
        Expectation::Always => "always",
        Expectation::Sometimes => "sometimes",
        Expectation::Terminates => "terminates",
    }
}

fn verdict_class<M: Model>(o: &Outcome<M>) -> &'static str {
    if o.is_failure() {
        "bad"
    } else if o.is_success() {
        "ok"
    } else {
        "unknown"
    }
}

fn violation(v: Violation) -> &'static str {
    match v {
        Violation::Invariant => "the property is false in the last state",
        Violation::FinalState => "the last state has no successor and the property is false there",
        Violation::PossibleCycle => "the last step makes no progress: the play may go on for ever",
    }
}

fn summary(system: &RepeatSystem, j: &Judgement, r: &CheckResult<RepeatSystem>) -> String {
    let s = &r.stats;
    let v = j.verdict(r);
    let class = match v {
        Verdict::Failed { .. } => "bad",
        Verdict::Holds => "ok",
        Verdict::Partial | Verdict::NotExercised => "unknown",
    };
    let verdict = format!("<span class=\"{class}\">{}</span>", esc(&v.words(j)));
    let mut rows = vec![
        ("verdict", verdict),
        ("rules", esc(&system.game.rules.book().name)),
        (
            "bound",
            format!(
                "{} ({} scenarios){}",
                esc(&j.bound),
                system.scenarios.len(),
                j.auto
                    .as_ref()
                    .map(|a| format!(": {}", esc(&a.why)))
                    .unwrap_or_default()
            ),
        ),
        (
            "states",
            format!(
                "{} distinct ({} initial), {} transitions, depth {}",
                s.states, s.init_states, s.transitions, s.max_depth
            ),
        ),
        ("time", format!("{:.1} s", s.elapsed_secs)),
        ("search", esc(&r.stop_message())),
    ];
    // How each violated property fails, first: a reader sees why the verdict is what it is
    // without scrolling past the table to the counterexample (numbered as the sections are).
    let mut n = 0;
    for p in &r.properties {
        if let Outcome::Violated { trace, .. } = &p.outcome {
            n += 1;
            let how = explanation(system, p.name, trace)
                .map(|e| format!(": {}", esc(&e)))
                .unwrap_or_default();
            rows.push((
                "how it fails",
                format!(
                    "<a href=\"#ce{n}\" class=\"mono\">{}</a> ({}){how}, in {} steps",
                    esc(p.name),
                    esc(p.rule),
                    trace.steps.len()
                ),
            ));
        }
    }
    if !system.unplayable.is_empty() {
        rows.push((
            "left out",
            format!(
                "{} scenario(s) in which the item cannot be played (358.4)",
                system.unplayable.len()
            ),
        ));
    }
    let lines = j
        .exercise
        .lines(system.scenarios.len() + system.unplayable.len());
    if !lines.is_empty() {
        rows.push((
            "fields changed",
            lines
                .iter()
                .map(|l| esc(l))
                .collect::<Vec<_>>()
                .join("<br>"),
        ));
    }
    for na in &j.not_applicable {
        rows.push((
            "not applicable",
            format!("{} ({}): {}", esc(na.name), esc(na.rule), esc(na.why)),
        ));
    }
    format!(
        "<section class=\"card\" id=\"summary\"><h2>Summary</h2>{}</section>\n",
        facts(&rows)
    )
}

fn properties_table(r: &CheckResult<RepeatSystem>) -> String {
    let mut o = String::from(
        "<section class=\"card\" id=\"properties\"><h2>Properties</h2><table class=\"properties\"><thead><tr><th>property</th><th>kind</th><th>verdict</th><th>rule</th><th>what it means</th></tr></thead><tbody>",
    );
    let mut n = 0;
    for p in &r.properties {
        let name = if matches!(p.outcome, Outcome::Violated { .. }) {
            n += 1;
            format!("<a href=\"#ce{n}\">{}</a>", esc(p.name))
        } else {
            esc(p.name)
        };
        let _ = write!(
            o,
            "<tr data-property=\"{}\"><td class=\"mono\">{name}</td><td>{}</td><td class=\"{}\">{}</td><td class=\"mono\">{}</td><td>{}</td></tr>",
            esc(p.name),
            kind(p.expectation),
            verdict_class(&p.outcome),
            p.outcome.label(),
            esc(p.rule),
            esc(p.doc)
        );
    }
    o.push_str("</tbody></table></section>\n");
    o
}

/// One step of a trace as the report shows it.
struct StepView {
    name: String,
    /// `decision` or `forced` (nothing for the start).
    badge: &'static str,
    what: String,
    rule: &'static str,
    changes: String,
}

impl StepView {
    fn start(scenario: &str) -> StepView {
        StepView {
            name: "start".into(),
            badge: "",
            what: format!("the scenario: {scenario}"),
            rule: "",
            changes: String::new(),
        }
    }

    fn of(
        system: &RepeatSystem,
        prev: &model::state::State,
        step: &checker::Step<RepeatSystem>,
    ) -> StepView {
        let a = &step.action;
        let what = system.format_action(prev, a);
        // The rule column says it already, and a bare step name says nothing new.
        let what = what
            .strip_suffix(&format!("[{}]", a.rule()))
            .map(|w| w.trim_end().to_string())
            .unwrap_or(what);
        StepView {
            name: a.name().to_string(),
            badge: if a.is_decision() {
                "<span class=\"badge decision\">decision</span>"
            } else {
                "<span class=\"badge forced\">forced</span>"
            },
            what: if what == a.name() {
                String::new()
            } else {
                what
            },
            rule: a.rule(),
            changes: system.format_step(prev, &step.state).unwrap_or_default(),
        }
    }

    /// The step's row in the table; `selected` also marks it as the violation (the last).
    fn row(&self, i: usize, board_id: &str, selected: bool) -> String {
        format!(
            "<tr{} data-board=\"{board_id}\" data-step=\"{i}\" data-rule=\"{}\"><td class=\"num\">{i}</td><td class=\"mono\">{} {}</td><td>{}{}</td><td class=\"mono\">{}</td></tr>",
            if selected { " class=\"selected violation\"" } else { "" },
            esc(self.rule),
            esc(&self.name),
            self.badge,
            esc(&self.what),
            if self.changes.is_empty() {
                String::new()
            } else {
                format!("<div class=\"muted\">\u{2192} {}</div>", esc(&self.changes))
            },
            esc(self.rule)
        )
    }

    /// The panel after the step: its rules' text, what changed, the board.
    fn board(&self, i: usize, board_id: &str, selected: bool, board: String) -> String {
        format!(
            "<div class=\"board{}\" id=\"{board_id}\" data-step=\"{i}\"><h3>After step {i}: <span class=\"mono\">{}</span></h3>{}{}{board}</div>",
            if selected { "" } else { " hidden" },
            esc(&self.name),
            if self.rule.is_empty() {
                String::new()
            } else {
                rule_quotes(self.rule)
            },
            if self.changes.is_empty() {
                String::new()
            } else {
                format!("<p><b>What changed:</b> {}</p>", esc(&self.changes))
            },
        )
    }
}

/// One counterexample: the property, its rules' text, and the steps beside the board.
fn counterexample(
    system: &RepeatSystem,
    rules_arg: &str,
    n: usize,
    p: &checker::PropertyResult<RepeatSystem>,
    trace: &Trace<RepeatSystem>,
    v: Violation,
) -> String {
    let g = &system.game;
    let id = format!("ce{n}");
    let scenario = system
        .scenarios
        .get(trace.init_index)
        .map(|s| s.name.as_str())
        .unwrap_or("");
    let mut o = String::new();
    let numbers = explanation(system, p.name, trace)
        .map(|e| format!("{}: ", esc(&e)))
        .unwrap_or_default();
    let graph = graph_command(system, trace, rules_arg)
        .map(|c| format!(" The whole scenario: <code>{}</code>.", esc(&c)))
        .unwrap_or_default();
    let cite = system
        .scenarios
        .get(trace.init_index)
        .map(|s| s.cite())
        .unwrap_or_default();
    let _ = write!(
        o,
        "<section class=\"card counterexample\" id=\"{id}\" data-property=\"{}\"><h2>Counterexample {n}: <span class=\"mono\">{}</span> ({})</h2>\
         <p><b>The property:</b> {}</p><p><b>How it fails:</b> {numbers}{} — after step {}, the last row (marked \u{2716}).</p>\
         <h3>The rule it checks</h3>{}<p class=\"note\">Rule texts are quoted from {}: a paraphrase of the Core Rules, not their wording.</p>\
         <h3>Steps</h3><p class=\"note\">Scenario: {} ({cite}).{graph} Click a step (or use the arrow keys after a click) to see the board after it.</p>",
        esc(p.name),
        esc(p.name),
        esc(p.rule),
        esc(p.doc),
        violation(v),
        trace.len(),
        rule_quotes(p.rule),
        esc(super::digest::SOURCE),
        esc(scenario)
    );
    o.push_str(&super::cards::cards_table(g, &trace.init));
    o.push_str(&super::cards::legend());
    o.push_str("<div class=\"trace\"><div><table class=\"steps\"><thead><tr><th class=\"num\">#</th><th>step</th><th>what happens</th><th>rule</th></tr></thead><tbody>");
    let last = trace.len();
    let mut boards = String::new();
    let mut prev = &trace.init;
    for i in 0..=last {
        let (view, state) = match i {
            0 => (StepView::start(scenario), &trace.init),
            _ => {
                let step = &trace.steps[i - 1];
                let view = StepView::of(system, prev, step);
                prev = &step.state;
                (view, &step.state)
            }
        };
        // The violating state is shown first (and without the script).
        let selected = i == last;
        let board_id = format!("{id}-s{i}");
        o.push_str(&view.row(i, &board_id, selected));
        boards.push_str(&view.board(i, &board_id, selected, board(g, state)));
    }
    let _ = writeln!(
        o,
        "</tbody></table></div><div class=\"panel\">{boards}</div></div></section>"
    );
    o
}

/// With `--coverage`: the transitions that applied each clause the model cites, the clauses
/// never reached first (what the run proves nothing about), each with the rule's text.
fn coverage(system: &RepeatSystem) -> String {
    let Some(mut cov) = system.coverage() else {
        return String::new();
    };
    cov.sort_by_key(|(_, _, n)| *n != 0);
    let never = cov.iter().filter(|(_, _, n)| *n == 0).count();
    let mut o = format!(
        "<section class=\"card\" id=\"coverage\"><h2>Rule coverage</h2><p>Transitions that applied each clause the model cites: {} of {} clauses reached{}.</p><table class=\"coverage\"><thead><tr><th>clause</th><th class=\"num\">transitions</th><th>about</th></tr></thead><tbody>",
        cov.len() - never,
        cov.len(),
        if never == 0 { String::new() } else { format!("; {never} never reached in this bound, so the verdict says nothing about them") }
    );
    for (clause, about, n) in &cov {
        let class = if *n == 0 { " class=\"bad\"" } else { "" };
        let _ = write!(
            o,
            "<tr data-clause=\"{}\"{class}><td class=\"mono\">{}</td><td class=\"num\">{n}</td><td>{}</td></tr>",
            esc(clause),
            esc(clause),
            esc(about)
        );
    }
    o.push_str("</tbody></table></section>\n");
    o
}

/// The whole `check --html` page for a finished run; `command` is the command line shown in
/// the title bar.
pub fn check_report(
    system: &RepeatSystem,
    j: &Judgement,
    r: &CheckResult<RepeatSystem>,
    command: &str,
) -> String {
    let mut body = summary(system, j, r);
    body.push_str(&properties_table(r));
    let mut n = 0;
    for p in &r.properties {
        match &p.outcome {
            Outcome::Violated { trace, kind } => {
                n += 1;
                body.push_str(&counterexample(system, &j.rules_arg, n, p, trace, *kind));
            }
            Outcome::NeverReached => {
                let (title, why) = match j.miss(p.name).map(|m| &m.base) {
                    Some(crate::verdict::BaseRun::Reaches(base)) => (
                        "Unreachable under this rulebook",
                        format!("{} reaches it on the same scenarios; {} never does: the rulebook made it unreachable.", esc(base), esc(&system.game.rules.book().name)),
                    ),
                    Some(crate::verdict::BaseRun::Stopped { base, why }) => (
                        "Undecided",
                        format!("{} never reaches it on this bound; whether {} does is unknown: the run under {} {}.", esc(&system.game.rules.book().name), esc(base), esc(base), esc(why)),
                    ),
                    _ => (
                        "Never reached",
                        "The bound never reaches this situation, so it proves nothing about it.".to_string(),
                    ),
                };
                let _ = writeln!(
                    body,
                    "<section class=\"card\"><h2>{title}: <span class=\"mono\">{}</span> ({})</h2><p>{}</p><p>{why}</p>{}</section>",
                    esc(p.name),
                    esc(p.rule),
                    esc(p.doc),
                    rule_quotes(p.rule)
                );
            }
            _ => {}
        }
    }
    if n == 0 {
        body.push_str("<section class=\"card\"><p>No counterexample: no property was violated in this run.</p></section>\n");
    }
    body.push_str(&coverage(system));
    page(
        &format!(
            "rbcheck check: {} | bound {}",
            system.game.rules.book().name,
            j.bound
        ),
        command,
        &body,
    )
}
