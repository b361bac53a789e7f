//! `rbcheck cases`: options and output.

use super::progress::{bound_words, threads, ProgressArgs, Ticker, Watch};
use clap::Args;
use rbcheck::cases::{write_suite, SuiteOptions};
use rbcheck::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Options of `rbcheck cases`.
#[derive(Args)]
pub struct CasesArgs {
    /// Bound: a preset (listed below) or a bound file.
    #[arg(long)]
    pub bound: String,
    /// Rulebook: a preset (v1.2, v1.3, rup4, guide) or a rulebook file.
    #[arg(long, default_value = "rup4")]
    pub rules: String,
    /// The folder to write (it must not exist, or be empty).
    #[arg(long)]
    pub out: PathBuf,
    /// Replace the folder if an earlier run wrote it (only files of the kinds rbcheck writes,
    /// no subfolder), once this run is done.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object (`"format": "rbcheck-cases/1"`: the counts and each case's file,
    /// class and scenario) instead of the summary line.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Runs `rbcheck cases`.
pub fn run(args: &CasesArgs) -> Result<ExitCode, Error> {
    Ticker::new(&args.progress, "cases").header(&format!(
        "rbcheck cases: rules {} | {} | {} | writing {}",
        args.rules,
        bound_words(&args.bound),
        threads(),
        args.out.display()
    ));
    let counter = Arc::new(rbcheck::progress::Counter::default());
    let watch = Watch::start(&args.progress, "cases", counter.clone());
    let suite = write_suite(&SuiteOptions {
        rules: &args.rules,
        bound: &args.bound,
        out: &args.out,
        force: args.force,
        progress: Some(&counter),
    });
    drop(watch);
    let suite = suite?;
    if args.json {
        let text = serde_json::to_string(&suite).map_err(|e| Error::Usage(e.to_string()))?;
        outln!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{} behaviour classes in bound `{}` under `{}`: {} cases written to {}",
        suite.classes,
        suite.bound,
        args.rules,
        suite.written,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
