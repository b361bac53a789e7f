//! `rbcheck check`, `rbcheck graph` and `rbcheck rules`: options and output.

use clap::Args;
use rbcheck::check::{CheckOptions, GraphOptions};
use rbcheck::{report, Error};
use std::io::IsTerminal;
use std::path::PathBuf;
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
    pub cases: Option<PathBuf>,
    /// Also write each counterexample in every export format into this folder: a case file, the
    /// JSON steps, ITF (for Apalache/Quint tooling) and DOT.
    #[arg(long)]
    pub traces: Option<PathBuf>,
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

/// Runs `rbcheck check`: exit 1 if a property fails.
pub fn run(args: CheckArgs) -> Result<ExitCode, Error> {
    let opts = CheckOptions {
        progress: !args.json && std::io::stderr().is_terminal(),
        rules: args.rules,
        bound: args.bound,
        threads: args.threads,
        max_states: args.max_states,
        no_symmetry: args.no_symmetry,
        coverage: args.coverage,
        cases: args.cases,
        traces: args.traces,
    };
    let mut run = rbcheck::check::check(&opts)?;
    // The verdict first: a failed export must not hide it.
    if args.json {
        let json = report::json(&run.system, &run.bound, &run.result);
        outln!(
            "{}",
            serde_json::to_string(&json).expect("the report serialises")
        );
    } else {
        out!("{}", report::human(&run.system, &run.bound, &run.result));
    }
    for w in run.write_outputs()? {
        for s in &w.skipped {
            eprintln!("rbcheck: {}: {s}", w.dir.display());
        }
        eprintln!(
            "wrote {} counterexample(s) to {}{}",
            w.counterexamples,
            w.dir.display(),
            if w.skipped.is_empty() {
                String::new()
            } else {
                format!(" ({} file(s) skipped)", w.skipped.len())
            }
        );
    }
    Ok(if run.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs `rbcheck graph`.
pub fn graph(args: GraphArgs) -> Result<ExitCode, Error> {
    let dot = rbcheck::check::graph(&GraphOptions {
        rules: args.rules,
        bound: args.bound,
        scenario: args.scenario,
        max_states: args.max_states,
    })?;
    out!("{dot}");
    Ok(ExitCode::SUCCESS)
}

/// Runs `rbcheck rules`.
pub fn rules(list: bool) -> Result<ExitCode, Error> {
    out!("{}", report::rules(list));
    Ok(ExitCode::SUCCESS)
}
