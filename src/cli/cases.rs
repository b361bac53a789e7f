//! `rbcheck cases`: options and output.

use clap::Args;
use rbcheck::cases::{write_suite, SuiteOptions};
use rbcheck::Error;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `rbcheck cases`.
#[derive(Args)]
pub struct CasesArgs {
    /// Bound: a preset (tiny, default, large) or a bound file.
    #[arg(long)]
    pub bound: String,
    /// Rulebook: a preset (v1.2, v1.3, rup4, guide) or a rulebook file.
    #[arg(long, default_value = "rup4")]
    pub rules: String,
    /// The folder to write (it must not exist, or be empty).
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `rbcheck cases`.
pub fn run(args: &CasesArgs) -> Result<ExitCode, Error> {
    let suite = write_suite(&SuiteOptions {
        rules: &args.rules,
        bound: &args.bound,
        out: &args.out,
    })?;
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
