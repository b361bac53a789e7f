//! `rbcheck`: the exhaustive model checker for the Riftbound [Repeat] rules.
//!
//! Exit codes: 0 every property holds, 1 a property fails, 2 bad input.

mod check;
mod inputs;
mod report;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "rbcheck",
    version,
    about = "Exhaustive model checker for the Riftbound [Repeat] rules"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Explore every scenario of a bound under a rulebook and verify the properties.
    Check(check::CheckArgs),
    /// List the rulebook presets and fields, each with its rule.
    Rules {
        /// Print every field with its rule, what it means and each preset's value.
        #[arg(long)]
        list: bool,
    },
    /// Write the state graph of one scenario of a bound as DOT.
    Graph(check::GraphArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Graph(args) => check::graph(&args),
        Command::Rules { list } => {
            report::rules(list);
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rbcheck: {e}");
            ExitCode::from(2)
        }
    }
}
