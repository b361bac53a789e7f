//! `rbcheck check` and `rbcheck graph`: build the system for a rulebook and a bound, run the
//! checker, and hand the result to the report.

use crate::{inputs, report};
use checker::CheckerExt;
use clap::Args;
use properties::RepeatSystem;
use std::io::IsTerminal;
use std::process::ExitCode;

/// Options of `rbcheck check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Rulebook: a preset (v1.2, v1.3, rup4, guide) or a rulebook file.
    #[arg(long, default_value = "rup4")]
    pub rules: String,
    /// Bound: a preset (tiny, default, large) or a bound file.
    #[arg(long, default_value = "default")]
    pub bound: String,
    /// Worker threads (0: one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print one JSON object instead of the human report.
    #[arg(long)]
    pub json: bool,
    /// Stop after this many distinct states; the result is then marked partial.
    #[arg(long)]
    pub max_states: Option<usize>,
    /// Turn symmetry reduction off (identical objects are then explored separately).
    #[arg(long)]
    pub no_symmetry: bool,
    /// Count, for every rule clause the model cites, the transitions that applied it, and list
    /// the clauses the bound never reached.
    #[arg(long)]
    pub coverage: bool,
    /// Also write each counterexample as a case file into this folder (which must not exist or
    /// be empty).
    #[arg(long)]
    pub cases: Option<std::path::PathBuf>,
    /// Also write each counterexample in every export format into this folder: a case file, the
    /// JSON steps, ITF (for Apalache/Quint tooling) and DOT.
    #[arg(long)]
    pub traces: Option<std::path::PathBuf>,
}

/// Options of `rbcheck graph`.
#[derive(Args)]
pub struct GraphArgs {
    /// Rulebook: a preset or a rulebook file.
    #[arg(long, default_value = "rup4")]
    pub rules: String,
    /// Bound: a preset or a bound file.
    #[arg(long, default_value = "tiny")]
    pub bound: String,
    /// The scenario's number in the bound (1-based; `rbcheck check` names them).
    #[arg(long, default_value_t = 1)]
    pub scenario: usize,
    /// Refuse graphs with more states than this.
    #[arg(long, default_value_t = 5000)]
    pub max_states: usize,
}

/// Runs `rbcheck check`.
pub fn run(args: &CheckArgs) -> Result<ExitCode, String> {
    let rules = inputs::rulebook(&args.rules)?;
    let bound = inputs::bound(&args.bound)?;
    if args.threads > 256 {
        return Err(format!("--threads {}: expected at most 256", args.threads));
    }
    let mut guard = args
        .cases
        .as_deref()
        .map(crate::cases::prepare_out)
        .transpose()?;
    let mut traces_guard = args
        .traces
        .as_deref()
        .map(crate::cases::prepare_out)
        .transpose()?;
    let mut system = RepeatSystem::new(rules, &bound)?;
    if args.coverage {
        system = system.count_coverage();
    }
    let progress = !args.json && std::io::stderr().is_terminal();
    let result = system
        .checker()
        .threads(args.threads)
        .max_states(args.max_states)
        .symmetry(!args.no_symmetry)
        .report_progress(progress)
        .run()
        .map_err(|e| e.to_string())?;
    let failed = result.properties.iter().any(|p| p.outcome.is_failure());
    for (dir, guard, all) in [
        (&args.cases, &mut guard, false),
        (&args.traces, &mut traces_guard, true),
    ] {
        let (Some(dir), Some(g)) = (dir, guard.as_mut()) else {
            continue;
        };
        let files = counterexample_files(&system, &result, args, dir, all)?;
        crate::cases::commit_out(g, &files)?;
        eprintln!(
            "wrote {} counterexample(s) to {}",
            files.len() / if all { 4 } else { 1 },
            dir.display()
        );
    }
    if args.json {
        println!("{}", report::json(&system, &bound, &result));
    } else {
        print!("{}", report::human(&system, &bound, &result));
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs `rbcheck graph`.
pub fn graph(args: &GraphArgs) -> Result<ExitCode, String> {
    let rules = inputs::rulebook(&args.rules)?;
    let bound = inputs::bound(&args.bound)?;
    let mut system = RepeatSystem::new(rules, &bound)?;
    let n = system.scenarios.len();
    if args.scenario == 0 || args.scenario > n {
        return Err(format!(
            "--scenario {}: the bound `{}` has scenarios 1 to {n}",
            args.scenario, bound.name
        ));
    }
    let one = system.scenarios.swap_remove(args.scenario - 1);
    system.scenarios = vec![one];
    let graph = checker::graph::explore(&system, args.max_states).map_err(|e| e.to_string())?;
    let dot = graph.to_dot(&system, |s| {
        s.log
            .last()
            .and_then(|e| system.game.describe_event(s, e))
            .unwrap_or_else(|| system.scenarios[0].name.clone())
    });
    print!("{dot}");
    Ok(ExitCode::SUCCESS)
}

/// The files for each counterexample: a case file, and with `all` also JSON, ITF and DOT.
fn counterexample_files(
    system: &RepeatSystem,
    result: &checker::CheckResult<RepeatSystem>,
    args: &CheckArgs,
    dir: &std::path::Path,
    all: bool,
) -> Result<Vec<(String, String)>, String> {
    let rules_line = crate::cases::rules_line(&args.rules, dir);
    let mut files = vec![];
    let mut n = 0;
    for p in &result.properties {
        let checker::Outcome::Violated { trace, .. } = &p.outcome else {
            continue;
        };
        n += 1;
        let stem = format!("{n:02}-{}", p.name);
        let actions: Vec<_> = trace.steps.iter().map(|s| s.action).collect();
        let header = vec![
            format!("Counterexample to `{}` ({}): {}", p.name, p.rule, p.doc),
            format!(
                "Found by `rbcheck check --rules {} --bound {}`; the property fails at step {} of its trace there.",
                args.rules,
                args.bound,
                actions.len()
            ),
            format!("Scenario: {}", system.scenarios[trace.init_index].name),
        ];
        let setup = &system.scenarios[trace.init_index].setup;
        let case =
            crate::cases::write_run(&system.game, &rules_line, setup, &actions, header, dir)?;
        files.push((format!("{stem}.case"), rbcheck::case::print(&case)));
        if all {
            let steps = serde_json::json!({ "property": p.name, "rule": p.rule, "steps": crate::report::steps(system, trace) });
            files.push((format!("{stem}.json"), steps.to_string()));
            files.push((
                format!("{stem}.itf.json"),
                crate::export::itf(system, trace, p.name, p.rule),
            ));
            files.push((
                format!("{stem}.dot"),
                crate::export::dot(system, trace, p.name),
            ));
        }
    }
    Ok(files)
}
