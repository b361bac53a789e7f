//! The reports of `rbcheck check`: a table of properties and readable counterexamples for people,
//! and one JSON object (stable field names) for scripts.

use checker::{CheckResult, Expectation, Model, Outcome, Trace};
use model::rulebook::{Rulebook, Version, FIELDS};
use properties::{Bound, RepeatSystem};
use serde_json::{json, Value};
use std::fmt::Write as _;

fn kind(e: Expectation) -> &'static str {
    match e {
        Expectation::Always => "always",
        Expectation::Sometimes => "sometimes",
        Expectation::Terminates => "terminates",
    }
}

/// The JSON status of an outcome: `holds`, `violated` or `unknown`.
fn status<M: Model>(o: &Outcome<M>) -> &'static str {
    match o {
        Outcome::Holds | Outcome::Witnessed { .. } => "holds",
        Outcome::Violated { .. } | Outcome::NeverReached => "violated",
        Outcome::Unknown => "unknown",
    }
}

/// A run that left some property undecided (a state or memory limit stopped it).
pub fn partial<M: Model>(r: &CheckResult<M>) -> bool {
    r.properties
        .iter()
        .any(|p| matches!(p.outcome, Outcome::Unknown))
}

/// A trace as numbered steps: the scenario, then each transition with its rule and what changed.
pub fn steps(system: &RepeatSystem, trace: &Trace<RepeatSystem>) -> Vec<Value> {
    let mut out = vec![json!({
        "step": 0,
        "action": "start",
        "rule": "",
        "scenario": system.scenarios.get(trace.init_index).map(|s| s.name.clone()).unwrap_or_default(),
    })];
    let mut last = &trace.init;
    for (i, step) in trace.steps.iter().enumerate() {
        out.push(json!({
            "step": i + 1,
            "action": step.action.name(),
            "rule": step.action.rule(),
            "description": system.format_action(last, &step.action),
            "changes": system.format_step(last, &step.state).unwrap_or_default(),
        }));
        last = &step.state;
    }
    out
}

/// The JSON report.
pub fn json(system: &RepeatSystem, bound: &Bound, r: &CheckResult<RepeatSystem>) -> String {
    let props: Vec<Value> = r
        .properties
        .iter()
        .map(|p| {
            let mut v = json!({
                "name": p.name,
                "rule": p.rule,
                "kind": kind(p.expectation),
                "status": status(&p.outcome),
                "outcome": p.outcome.label(),
            });
            if let Outcome::Violated { trace, .. } = &p.outcome {
                v["counterexample"] = json!({ "steps": steps(system, trace) });
            }
            if let Outcome::Witnessed { trace } = &p.outcome {
                v["witness"] = json!({ "steps": steps(system, trace) });
            }
            v
        })
        .collect();
    let s = &r.stats;
    json!({
        "rules": system.game.rules.name,
        "bound": bound.name,
        "complete": !partial(r),
        "stop": r.stop_message(),
        "initial_states": s.init_states,
        "scenarios_left_out": system.unplayable,
        "states": s.states,
        "transitions": s.transitions,
        "max_depth": s.max_depth,
        "seconds": s.elapsed_secs,
        "states_per_second": s.states_per_sec,
        "peak_memory_bytes": s.peak_memory_bytes,
        "bytes_per_state": s.bytes_per_state,
        "properties": props,
        "coverage": system.coverage().map(|c| c.iter().map(|(k, d, n)| json!({ "clause": k, "about": d, "transitions": n })).collect::<Vec<_>>()),
    })
    .to_string()
}

/// The human report.
pub fn human(system: &RepeatSystem, bound: &Bound, r: &CheckResult<RepeatSystem>) -> String {
    let mut o = String::new();
    let s = &r.stats;
    let _ = writeln!(
        o,
        "rbcheck: rules {} | bound {} ({} scenarios)\n{} initial states, {} distinct states, {} transitions, depth {}, {:.1} s ({:.0} states/s){}\n",
        system.game.rules.name,
        bound.name,
        system.scenarios.len(),
        s.init_states,
        s.states,
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
    if let Some(first) = system.unplayable.first() {
        let _ = writeln!(
            o,
            "{} scenarios of the bound left out: nothing can be done in them (the item cannot be played there, 358.4), e.g. `{first}`\n",
            system.unplayable.len()
        );
    }
    let width = r
        .properties
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(10);
    let _ = writeln!(
        o,
        "{:<width$}  {:<10}  {:<13}  rule",
        "property", "kind", "verdict"
    );
    for p in &r.properties {
        let _ = writeln!(
            o,
            "{:<width$}  {:<10}  {:<13}  {}",
            p.name,
            kind(p.expectation),
            p.outcome.label(),
            p.rule
        );
    }
    for p in &r.properties {
        match &p.outcome {
            Outcome::Violated { trace, kind: v } => {
                let _ = writeln!(
                    o,
                    "\nCOUNTEREXAMPLE for {} ({}), {} steps, {v:?}:",
                    p.name,
                    p.rule,
                    trace.len()
                );
                let _ = writeln!(o, "  {}", p.doc);
                write_steps(&mut o, system, trace);
            }
            Outcome::NeverReached => {
                let _ = writeln!(o, "\nNEVER REACHED: {} ({}): {}\n  The bound never reaches this situation, so it proves nothing about it.", p.name, p.rule, p.doc);
            }
            _ => {}
        }
    }
    if let Some(cov) = system.coverage() {
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
    let failed = r
        .properties
        .iter()
        .filter(|p| p.outcome.is_failure())
        .count();
    let _ = writeln!(
        o,
        "\n{}",
        if failed == 0 {
            if partial(r) {
                "no violation found so far (partial run)".to_string()
            } else {
                "every property holds".to_string()
            }
        } else {
            format!(
                "{failed} propert{} failed",
                if failed == 1 { "y" } else { "ies" }
            )
        }
    );
    o
}

fn write_steps(o: &mut String, system: &RepeatSystem, trace: &Trace<RepeatSystem>) {
    for v in steps(system, trace) {
        let n = v["step"].as_u64().unwrap_or(0);
        if n == 0 {
            let _ = writeln!(o, "  0. start: {}", v["scenario"].as_str().unwrap_or(""));
            continue;
        }
        let _ = writeln!(o, "  {n}. {}", v["description"].as_str().unwrap_or(""));
        if let Some(c) = v["changes"].as_str().filter(|c| !c.is_empty()) {
            let _ = writeln!(o, "     -> {c}");
        }
    }
}

/// `rbcheck rules`: the presets and fields.
pub fn rules(list: bool) {
    let presets: Vec<Rulebook> = Version::ALL.iter().map(|v| Rulebook::preset(*v)).collect();
    println!(
        "presets: {}",
        Version::ALL
            .iter()
            .map(|v| v.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !list {
        println!(
            "(`rbcheck rules --list` prints every field with its rule and each preset's value)"
        );
        return;
    }
    let tables: Vec<toml::Table> = presets
        .iter()
        .map(|r| toml::Table::try_from(r).unwrap_or_default())
        .collect();
    for f in FIELDS {
        let values: Vec<String> = Version::ALL
            .iter()
            .zip(&tables)
            .map(|(v, t)| {
                format!(
                    "{}={}",
                    v.name(),
                    t.get(f.name).map(|x| x.to_string()).unwrap_or_default()
                )
            })
            .collect();
        println!(
            "{}  [{}]\n    {}\n    {}",
            f.name,
            f.rule,
            f.doc,
            values.join("  ")
        );
    }
}
