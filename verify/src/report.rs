//! The reports of `rbcheck check`: a table of properties and readable counterexamples for people,
//! and one JSON object (stable field names) for scripts; and the JSON object of `rbcheck fuzz`.
//! Each JSON report carries a `format` key (kind and version) and is described key by key in
//! schema/report.schema.json.

use crate::exercise::{AutoChoice, Exercise};
use crate::verdict::{BaseRun, Judgement, NotApplicable, Verdict, WitnessMiss};
use checker::{CheckResult, Expectation, Model, Outcome, Trace};

use properties::RepeatSystem;
use serde::Serialize;
use std::fmt::Write as _;

fn kind(e: Expectation) -> &'static str {
    match e {
        Expectation::Always => "always",
        Expectation::Sometimes => "sometimes",
        Expectation::Terminates => "terminates",
    }
}

/// The JSON status of an outcome: `holds`, `violated`, `not_exercised` (a witness no rulebook
/// reaches in the bound) or `unknown`.
fn status<M: Model>(o: &Outcome<M>, not_exercised: bool) -> &'static str {
    match o {
        Outcome::Holds | Outcome::Witnessed { .. } => "holds",
        Outcome::NeverReached if not_exercised => "not_exercised",
        Outcome::Violated { .. } | Outcome::NeverReached => "violated",
        Outcome::Unknown => "unknown",
    }
}

/// How a trace's last state settles its property, in words and numbers.
pub fn explanation(
    system: &RepeatSystem,
    name: &str,
    trace: &Trace<RepeatSystem>,
) -> Option<String> {
    let props = checker::Model::properties(system);
    let p = props.iter().find(|p| p.name == name)?;
    p.explanation(system, trace.last_state())
}

/// The scenario of a trace, cited so that `rbcheck graph` finds it.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioJson {
    /// The bound it comes from, when numbered.
    pub bound: Option<String>,
    /// Its name.
    pub name: String,
    /// Its 1-based number in that bound (`rbcheck graph --bound B --scenario N`), when numbered.
    pub number: Option<usize>,
}

fn scenario_json(system: &RepeatSystem, trace: &Trace<RepeatSystem>) -> ScenarioJson {
    let s = &system.scenarios[trace.init_index];
    ScenarioJson {
        bound: s.origin.as_ref().map(|o| o.bound.clone()),
        name: s.name.clone(),
        number: s.origin.as_ref().map(|o| o.number),
    }
}

/// The command that draws a trace's scenario, when it is numbered in a bound.
pub fn graph_command(
    system: &RepeatSystem,
    trace: &Trace<RepeatSystem>,
    rules: &str,
) -> Option<String> {
    let o = system.scenarios.get(trace.init_index)?.origin.as_ref()?;
    Some(format!(
        "rbcheck graph --rules {rules} --bound {} --scenario {}",
        o.bound, o.number
    ))
}

/// A run that left some property undecided (a state or memory limit stopped it).
pub fn partial<M: Model>(r: &CheckResult<M>) -> bool {
    r.properties
        .iter()
        .any(|p| matches!(p.outcome, Outcome::Unknown))
}

// Every JSON struct below lists its fields in alphabetical order: the order in which the
// reports have always been written (serde_json's maps are sorted), kept byte for byte.

/// One numbered step of a trace: step 0 names the scenario, each later one a transition with
/// its rule, its description and what changed.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// `start`, or the action's name.
    pub action: String,
    /// What the transition changed (empty if nothing visible); not on step 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<String>,
    /// The action in words; not on step 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The rule the action applies; null on step 0 (the start applies no rule).
    pub rule: Option<String>,
    /// The scenario's name; only on step 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The step's number, from 0.
    pub step: usize,
}

/// A trace as numbered steps: the scenario, then each transition with its rule and what changed.
pub fn steps(system: &RepeatSystem, trace: &Trace<RepeatSystem>) -> Vec<Step> {
    let scenario = system.scenarios.get(trace.init_index);
    let mut out = vec![Step {
        action: "start".into(),
        changes: None,
        description: None,
        rule: None,
        scenario: Some(scenario.map(|s| s.name.clone()).unwrap_or_default()),
        step: 0,
    }];
    let mut last = &trace.init;
    for (i, step) in trace.steps.iter().enumerate() {
        out.push(Step {
            action: step.action.name().to_string(),
            changes: Some(system.format_step(last, &step.state).unwrap_or_default()),
            description: Some(system.format_action(last, &step.action)),
            rule: Some(step.action.rule().to_string()),
            scenario: None,
            step: i + 1,
        });
        last = &step.state;
    }
    out
}

/// A trace's steps, as `counterexample` and `witness` hold them.
#[derive(Clone, Debug, Serialize)]
pub struct Steps {
    /// How its last state settles the property.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// Its scenario, with the bound and number `rbcheck graph` takes.
    pub scenario: ScenarioJson,
    /// The steps, from the start.
    pub steps: Vec<Step>,
}

impl Steps {
    fn of(system: &RepeatSystem, name: &str, trace: &Trace<RepeatSystem>) -> Steps {
        Steps {
            explanation: explanation(system, name, trace),
            scenario: scenario_json(system, trace),
            steps: steps(system, trace),
        }
    }
}

/// One property's verdict in the JSON report.
#[derive(Clone, Debug, Serialize)]
pub struct PropertyJson {
    /// The shortest trace to a violation, if violated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<Steps>,
    /// With `--counterexamples N`: the further distinct counterexamples, shortest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counterexamples: Vec<Steps>,
    /// How the trace's last state settles the property, in numbers ("3 executions, 1 instance
    /// paid, expected 2"), for a violation or a witness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// `always`, `sometimes` or `terminates`.
    pub kind: &'static str,
    /// The property's name.
    pub name: &'static str,
    /// The verdict's label (`holds`, `witnessed`, `never reached`...).
    pub outcome: &'static str,
    /// The rule it checks.
    pub rule: &'static str,
    /// `holds`, `violated`, `not_exercised` or `unknown`.
    pub status: &'static str,
    /// For a witness never reached: the rulebook that reaches it on the same scenarios (the
    /// rulebook checked made it unreachable), or null if none does (the bound never reaches it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unreachable: Option<Option<String>>,
    /// The shortest trace to a witness, if witnessed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<Steps>,
}

/// The transitions that applied one rule clause (`--coverage`).
#[derive(Clone, Debug, Serialize)]
pub struct ClauseCount {
    /// What the clause is about.
    pub about: String,
    /// The clause's number.
    pub clause: String,
    /// Transitions that applied it.
    pub transitions: u64,
}

/// The `format` of [`CheckJson`], the report of `check --json` and `merge --json`: its kind
/// and version. The version changes when a key changes meaning or goes away (adding a key does
/// not change it); every key is described in schema/report.schema.json.
pub const CHECK_FORMAT: &str = "rbcheck-check/1";

/// Why the search stopped: the checker's reason as a word, and the one-line message.
#[derive(Clone, Debug, Serialize)]
pub struct StopJson {
    /// The sentence the human report prints.
    pub message: String,
    /// `exhausted` (complete), `all_decided`, `first_violation`, `max_states` or `memory_limit`.
    pub reason: checker::StopReason,
}

/// The JSON report of `rbcheck check` (stable field names, for scripts).
#[derive(Clone, Debug, Serialize)]
pub struct CheckJson {
    /// How `--bound auto` chose its scenarios; null for a named bound.
    pub auto: Option<AutoChoice>,
    /// The bound's name (`auto` for a choice).
    pub bound: String,
    /// Memory per distinct state.
    pub bytes_per_state: f64,
    /// Whether every property was decided.
    pub complete: bool,
    /// Transitions per clause, with `--coverage`; else null.
    pub coverage: Option<Vec<ClauseCount>>,
    /// The fields the rulebook changes from its base, and where each decided a step.
    pub exercised: Exercise,
    /// [`CHECK_FORMAT`].
    pub format: &'static str,
    /// Distinct initial states.
    pub initial_states: usize,
    /// The deepest level explored.
    pub max_depth: usize,
    /// Properties left out because they cannot apply to the rules, each with why.
    pub not_applicable: Vec<NotApplicable>,
    /// Peak resident memory, where known.
    pub peak_memory_bytes: Option<u64>,
    /// Each property's verdict.
    pub properties: Vec<PropertyJson>,
    /// The rulebook's name.
    pub rules: String,
    /// The scenarios in which nothing can be done.
    pub scenarios_left_out: Vec<String>,
    /// Wall-clock time.
    pub seconds: f64,
    /// States visited (distinct states; forced steps included).
    pub states: usize,
    /// Throughput.
    pub states_per_second: f64,
    /// States stored in the visited set: `states` but the forced steps the checker followed
    /// without storing.
    pub states_stored: usize,
    /// Why and where the search stopped.
    pub stop: StopJson,
    /// Transitions explored.
    pub transitions: u64,
    /// `holds`, `violated`, `not_exercised` or `partial` (exit codes 0, 1, 3, 0).
    pub verdict: &'static str,
}

/// The JSON word of a verdict.
fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Failed { .. } => "violated",
        Verdict::Partial => "partial",
        Verdict::NotExercised => "not_exercised",
        Verdict::Holds => "holds",
    }
}

/// The JSON report.
pub fn json(system: &RepeatSystem, j: &Judgement, r: &CheckResult<RepeatSystem>) -> CheckJson {
    let properties = r
        .properties
        .iter()
        .map(|p| {
            let miss = j.miss(p.name);
            PropertyJson {
                counterexample: match &p.outcome {
                    Outcome::Violated { trace, .. } => Some(Steps::of(system, p.name, trace)),
                    _ => None,
                },
                counterexamples: j
                    .more
                    .iter()
                    .filter(|(n, _)| *n == p.name)
                    .flat_map(|(_, ts)| ts.iter().map(|t| Steps::of(system, p.name, t)))
                    .collect(),
                explanation: p
                    .outcome
                    .trace()
                    .and_then(|t| explanation(system, p.name, t)),
                kind: kind(p.expectation),
                name: p.name,
                outcome: p.outcome.label(),
                rule: p.rule,
                status: match miss.map(|m| &m.base) {
                    Some(BaseRun::Stopped { .. }) => "unknown",
                    _ => status(&p.outcome, miss.is_some_and(WitnessMiss::never_reached)),
                },
                unreachable: miss
                    .filter(|m| !matches!(m.base, BaseRun::Stopped { .. }))
                    .map(|m| m.reached_under().cloned()),
                witness: match &p.outcome {
                    Outcome::Witnessed { trace } => Some(Steps::of(system, p.name, trace)),
                    _ => None,
                },
            }
        })
        .collect();
    let coverage = system.coverage().map(|c| {
        c.iter()
            .map(|(k, d, n)| ClauseCount {
                about: d.to_string(),
                clause: k.to_string(),
                transitions: *n,
            })
            .collect()
    });
    let s = &r.stats;
    CheckJson {
        auto: j.auto.clone(),
        bound: j.bound.clone(),
        bytes_per_state: s.bytes_per_state,
        complete: !partial(r),
        coverage,
        exercised: j.exercise.clone(),
        format: CHECK_FORMAT,
        initial_states: s.init_states,
        max_depth: s.max_depth,
        not_applicable: j.not_applicable.clone(),
        peak_memory_bytes: s.peak_memory_bytes,
        properties,
        rules: system.game.rules.book().name.clone(),
        scenarios_left_out: system.unplayable.iter().map(|s| s.name.clone()).collect(),
        seconds: s.elapsed_secs,
        states: s.states,
        states_per_second: s.states_per_sec,
        states_stored: s.states_stored,
        stop: StopJson {
            message: r.stop_message(),
            reason: r.stop,
        },
        transitions: s.transitions,
        verdict: verdict_word(j.verdict(r)),
    }
}

/// The human report.
pub fn human(system: &RepeatSystem, j: &Judgement, r: &CheckResult<RepeatSystem>) -> String {
    let mut o = String::new();
    let s = &r.stats;
    let rules = &system.game.rules.book().name;
    let _ = writeln!(
        o,
        "rbcheck: rules {rules} | bound {} ({} scenarios)\n{} initial states, {} distinct states ({} stored), {} transitions, depth {}, {:.1} s ({:.0} states/s){}\n",
        j.bound,
        system.scenarios.len(),
        s.init_states,
        s.states,
        s.states_stored,
        s.transitions,
        s.max_depth,
        s.elapsed_secs,
        s.states_per_sec,
        if partial(r) {
            format!("\nPARTIAL RUN: {}; properties not yet decided are unknown", r.stop_message())
        } else {
            String::new()
        },
    );
    if let Some(a) = &j.auto {
        let chosen: Vec<String> = a
            .chosen
            .iter()
            .map(|c| format!("{} from {}", c.scenarios, c.preset))
            .collect();
        let _ = writeln!(
            o,
            "bound auto: {}; chosen: {}\n",
            a.why,
            match chosen.is_empty() {
                true => "none".to_string(),
                false => chosen.join(", "),
            }
        );
    }
    if let Some(first) = system.unplayable.first() {
        let _ = writeln!(
            o,
            "{} scenarios of the bound left out: nothing can be done in them (the item cannot be played there, 358.4), e.g. `{}`\n",
            system.unplayable.len(),
            first.name
        );
    }
    property_table(&mut o, j, r);
    for p in &r.properties {
        match &p.outcome {
            Outcome::Violated { trace, kind: v } => {
                let more = j.more.iter().find(|(n, _)| *n == p.name).map(|(_, t)| t);
                let total = 1 + more.map_or(0, Vec::len);
                let traces = std::iter::once(trace).chain(more.into_iter().flatten());
                for (k, t) in traces.enumerate() {
                    let nth = match total {
                        1 => String::new(),
                        _ => format!(" {} of {total}", k + 1),
                    };
                    let _ = writeln!(
                        o,
                        "\nCOUNTEREXAMPLE{nth} for {} ({}), {} steps, {v:?}, in {}:",
                        p.name,
                        p.rule,
                        t.len(),
                        system.scenarios[t.init_index].cite()
                    );
                    let _ = writeln!(o, "  {}", p.doc);
                    if let Some(e) = explanation(system, p.name, t) {
                        let _ = writeln!(o, "  how it fails: {e} ({})", p.rule);
                    }
                    write_steps(&mut o, system, t);
                    if let Some(g) = graph_command(system, t, &j.rules_arg) {
                        let _ = writeln!(o, "  the whole scenario: {g}");
                    }
                }
            }
            Outcome::NeverReached => match j.miss(p.name).map(|m| &m.base) {
                Some(BaseRun::Reaches(base)) => {
                    let _ = writeln!(o, "\nUNREACHABLE UNDER {rules}: {} ({}): {}\n  {base} reaches it on the same scenarios; {rules} never does: the rulebook made it unreachable.", p.name, p.rule, p.doc);
                }
                Some(BaseRun::Stopped { base, why }) => {
                    let _ = writeln!(o, "\nUNDECIDED: {} ({}): {}\n  {rules} never reaches it on this bound; whether {base} does is unknown: the run under {base} {why}. Give rbcheck more memory (--memory) to decide.", p.name, p.rule, p.doc);
                }
                _ => {
                    let _ = writeln!(o, "\nNEVER REACHED: {} ({}): {}\n  The bound never reaches this situation, so it proves nothing about it.", p.name, p.rule, p.doc);
                }
            },
            _ => {}
        }
    }
    for na in &j.not_applicable {
        let _ = writeln!(
            o,
            "\nnot applicable to {rules}: {} ({}): {}",
            na.name, na.rule, na.why
        );
    }
    if !j.exercise.fields.is_empty() {
        let _ = writeln!(
            o,
            "\nFIELDS CHANGED FROM {}: where each decides a step",
            j.exercise.against
        );
        for line in j
            .exercise
            .lines(system.scenarios.len() + system.unplayable.len())
        {
            let _ = writeln!(o, "  {line}");
        }
    }
    coverage_section(&mut o, system);
    let _ = writeln!(o, "\n{}", j.verdict(r).words(j));
    o
}

/// The table of properties: name, kind, verdict, rule; then the inapplicable ones.
fn property_table(o: &mut String, j: &Judgement, r: &CheckResult<RepeatSystem>) {
    let width = r
        .properties
        .iter()
        .map(|p| p.name.len())
        .chain(j.not_applicable.iter().map(|p| p.name.len()))
        .max()
        .unwrap_or(10);
    let _ = writeln!(
        o,
        "{:<width$}  {:<10}  {:<14}  rule",
        "property", "kind", "verdict"
    );
    for p in &r.properties {
        let label = match (&p.outcome, j.miss(p.name)) {
            (Outcome::NeverReached, Some(m)) => match m.base {
                BaseRun::Reaches(_) => "unreachable",
                BaseRun::Stopped { .. } => "undecided",
                BaseRun::Misses => p.outcome.label(),
            },
            _ => p.outcome.label(),
        };
        let _ = writeln!(
            o,
            "{:<width$}  {:<10}  {:<14}  {}",
            p.name,
            kind(p.expectation),
            label,
            p.rule
        );
    }
    for p in &j.not_applicable {
        let _ = writeln!(
            o,
            "{:<width$}  {:<10}  {:<14}  {}",
            p.name, "sometimes", "not applicable", p.rule
        );
    }
}

/// `--coverage`: the transitions per clause and the clauses never reached.
fn coverage_section(o: &mut String, system: &RepeatSystem) {
    let Some(cov) = system.coverage() else {
        return;
    };
    let _ = writeln!(
        o,
        "\nRULE COVERAGE: transitions that applied each clause the model cites"
    );
    for (k, d, n) in &cov {
        let _ = writeln!(o, "  {k:<10} {n:>12}  {d}");
    }
    let never: Vec<&str> = cov
        .iter()
        .filter(|(_, _, n)| *n == 0)
        .map(|(k, _, _)| *k)
        .collect();
    if never.is_empty() {
        let _ = writeln!(o, "every clause was reached");
    } else {
        let _ = writeln!(o, "never reached in this bound: {}", never.join(", "));
    }
}

fn write_steps(o: &mut String, system: &RepeatSystem, trace: &Trace<RepeatSystem>) {
    for st in steps(system, trace) {
        if let Some(scenario) = &st.scenario {
            let _ = writeln!(o, "  0. start: {scenario}");
            continue;
        }
        let _ = writeln!(
            o,
            "  {}. {}",
            st.step,
            st.description.as_deref().unwrap_or("")
        );
        if let Some(c) = st.changes.as_deref().filter(|c| !c.is_empty()) {
            let _ = writeln!(o, "     -> {c}");
        }
    }
}

/// The `format` of [`FuzzJson`], the report of `fuzz --json` (schema/report.schema.json).
pub const FUZZ_FORMAT: &str = "rbcheck-fuzz/1";

/// One finding in the JSON report of `rbcheck fuzz`.
#[derive(Clone, Debug, Serialize)]
pub struct FindingJson {
    /// The finding's case file under `--out`, if it was written.
    pub case: Option<String>,
    /// For an engine fault or error reply: what happened; else null.
    pub fault: Option<String>,
    /// The index (from 0) of the first generated case that hit it.
    pub first_case: usize,
    /// How many generated cases hit it.
    pub hits: usize,
    /// The kind: what all its cases have in common.
    pub kind: String,
    /// The rules the case is under.
    pub rules: String,
    /// Statements of the first case that hit it, before shrinking.
    pub statements_before: usize,
    /// Statements of the shrunk case.
    pub statements_after: usize,
    /// The one-line report: what the engine did, what the rule says.
    pub summary: String,
    /// The rule clause(s) the cluster is named by.
    pub cited: String,
    /// The sentence it supports: "the engine performs X where the rules (rule) say Y".
    pub sentence: String,
    /// The kinds of first difference (or fault) its cases showed, with how many showed each.
    pub symptoms: std::collections::BTreeMap<String, usize>,
    /// Other names its cases first came under, folded into this cluster (one root cause).
    pub merged: Vec<String>,
    /// The clauses its cases apply far more often than the cases the engine passed, best first.
    pub suspects: Vec<crate::engine::spectrum::Suspect>,
}

/// The JSON report of `rbcheck fuzz` (a generated run; not `--corpus` or `--score`).
#[derive(Clone, Debug, Serialize)]
pub struct FuzzJson {
    /// Why the run stopped early, if it did.
    pub aborted: Option<String>,
    /// Cases the engine agreed on.
    pub agreed: usize,
    /// Cases generated.
    pub cases: usize,
    /// Cases compared on at least one field.
    pub compared: usize,
    /// Of the unsupported cases, those the engine declined though its hello claims them.
    pub declined: usize,
    /// The engine's name and version from its hello; null if the handshake failed.
    pub engine: Option<String>,
    /// Engine faults (crash, hang, garbage, wrong version) and error replies.
    pub faults: usize,
    /// The findings, in order of discovery.
    pub findings: Vec<FindingJson>,
    /// [`FUZZ_FORMAT`].
    pub format: &'static str,
    /// Recipes the model could make no case of.
    pub generation_failures: usize,
    /// Fields the engine did not report, with the number of cases.
    pub not_reported: std::collections::BTreeMap<String, usize>,
    /// Why the run proves nothing about the engine (nothing was compared); else null.
    pub nothing_compared: Option<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The seed: the same seed generates the same cases.
    pub seed: u64,
    /// Answers that stated no field rbcheck compares (not compared).
    pub stated_nothing: usize,
    /// Cases skipped as unsupported, by feature or rules.
    pub unsupported: std::collections::BTreeMap<String, usize>,
    /// The same cases as conformance gaps, each under the rule the engine cannot follow.
    pub gaps: Vec<crate::engine::capability::Gap>,
    /// Per rule clause: cases passed, deviating, not expressible, with an example of each.
    pub conformance: Vec<crate::engine::conformance::ClauseRow>,
}

/// The JSON report of a fuzzing run; `written` maps findings (by index) to their case files.
pub fn fuzz_json(
    r: &crate::engine::fuzz::FuzzReport,
    written: &[(usize, std::path::PathBuf)],
) -> FuzzJson {
    let findings = r
        .findings
        .iter()
        .enumerate()
        .map(|(n, f)| FindingJson {
            case: written
                .iter()
                .find(|(k, _)| *k == n)
                .map(|(_, p)| p.display().to_string()),
            fault: f.fault.clone(),
            first_case: f.first_case,
            hits: f.hits,
            kind: f.kind.clone(),
            rules: f.rules.clone(),
            statements_before: f.shrunk_from.0,
            statements_after: f.shrunk_from.1,
            summary: f.summary(),
            cited: f.cited.clone(),
            sentence: f.sentence.clone(),
            symptoms: f.symptoms.clone(),
            merged: f.merged.clone(),
            suspects: f.suspects.clone(),
        })
        .collect();
    FuzzJson {
        aborted: r.aborted.clone(),
        agreed: r.agreed,
        cases: r.cases,
        compared: r.compared,
        declined: r.declined,
        engine: r.engine.as_ref().map(|h| h.describe()),
        faults: r.faults,
        findings,
        format: FUZZ_FORMAT,
        generation_failures: r.generation_failures,
        not_reported: r.not_reported.clone(),
        nothing_compared: r.nothing_compared(),
        seconds: r.seconds,
        seed: r.seed,
        stated_nothing: r.stated_nothing,
        unsupported: r.unsupported.clone(),
        gaps: r.gaps.clone(),
        conformance: crate::engine::conformance::rows(r),
    }
}
