//! `rbcheck`: the exhaustive model checker for the Riftbound [Repeat] rules.
//!
//! Exit codes: 0 every property holds, 1 a property fails, 2 bad input.

// Every unsafe block says why it is sound, one operation at a time.
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]

#[macro_use]
mod cli;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use cli::{cases, check, diff, fuzz, help};
use properties::Bound;
use rbcheck::{case, Error};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "rbcheck",
    version,
    about = "Exhaustive model checker for the Riftbound [Repeat] rules",
    after_help = "EXAMPLES:\n  rbcheck check --bound tiny\n  rbcheck diff v1.3 rup4\n  rbcheck replay corpus/\n\nEXIT CODES:\n  0    success (every property holds, no difference, every case passes)\n  1    a finding (a property fails, the rulebooks differ, a case fails)\n  2    bad input, named with file:line\n  141  stdout was closed early\nEach command's --help lists its own examples and exit codes."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour on stdout: auto (a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, global = true, value_enum, default_value_t)]
    color: cli::ColorWhen,
}

#[derive(Subcommand)]
enum Command {
    /// Explore every scenario of a bound under a rulebook and verify the properties.
    #[command(after_help = help::CHECK)]
    Check(check::CheckArgs),
    /// Merge the part files of a sharded check (`check --shard K/N --parts DIR`) into the
    /// report one unsharded run prints.
    #[command(after_help = help::MERGE)]
    Merge(check::MergeArgs),
    /// List the rulebook presets and fields, each with its rule.
    #[command(after_help = help::RULES)]
    Rules {
        /// Print every field with its rule, what it means and each preset's value.
        #[arg(long)]
        list: bool,
        /// Print what `--list` prints as one JSON object (`"format": "rbcheck-rules/1"`).
        #[arg(long, conflicts_with = "list")]
        json: bool,
    },
    /// List every bound preset: what it is for, what it contains and how many scenarios it makes.
    #[command(after_help = help::BOUNDS)]
    Bounds {
        /// Only this preset.
        name: Option<String>,
        /// Print one JSON object (`"format": "rbcheck-bounds/1"`) instead.
        #[arg(long, conflicts_with = "toml")]
        json: bool,
        /// Print the named preset as a bound file (TOML) to copy and edit.
        #[arg(long, requires = "name", conflicts_with = "states")]
        toml: bool,
        /// Also count each preset's distinct states under RUP4 by exploring it, as `check` does
        /// (seconds each; `large`, minutes and gigabytes, only when named).
        #[arg(long)]
        states: bool,
    },
    /// Write the state graph of one scenario of a bound as DOT.
    #[command(after_help = help::GRAPH)]
    Graph(check::GraphArgs),
    /// Write a conformance suite: one case per observable behaviour class of a bound.
    #[command(after_help = help::CASES)]
    Cases(cases::CasesArgs),
    /// Compare two rulebooks: every observable difference over a bound, grouped into classes.
    #[command(after_help = help::DIFF)]
    Diff(diff::DiffArgs),
    /// Replay case files through the model and compare with their expectations.
    #[command(after_help = help::REPLAY)]
    Replay {
        /// Case files, or folders searched for `*.case` files.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print one JSON object (format rbcheck-replay/1, schema/report.schema.json) instead
        /// of a line per file.
        #[arg(long)]
        json: bool,
        /// Send each case to this engine (a command speaking corpus/PROTOCOL.md) and compare its
        /// answer with the model's, one line per file: the same as `rbcheck fuzz --engine CMD
        /// --corpus PATHS`.
        #[arg(long, value_name = "CMD", conflicts_with = "json")]
        engine: Option<String>,
    },
    /// Print case files in canonical form (to stdout, or in place with --write).
    #[command(after_help = help::FMT)]
    Fmt {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Rewrite the files instead of printing them.
        #[arg(long)]
        write: bool,
    },
    /// Answer the engine protocol (rbcheck-engine/2 or /1, corpus/PROTOCOL.md) on stdin/stdout with
    /// the model: a known-good peer to test an engine adapter against.
    #[command(after_help = help::SERVE)]
    Serve,
    /// Fuzz an engine: generate cases from the model (default 4,000 cases; or --time S), run each
    /// on the model and on the engine, shrink each kind of disagreement to a minimal case file
    /// (expectations: the model's) written to --out, one line per finding.
    #[command(after_help = help::FUZZ)]
    Fuzz(fuzz::FuzzArgs),
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell), made from
    /// the same definitions as `--help`.
    #[command(after_help = help::COMPLETIONS)]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff, for `man -l -`): rbcheck(1), or rbcheck-COMMAND(1) for a
    /// command; made from the same definitions as `--help`.
    #[command(after_help = help::MAN)]
    Man {
        /// The command whose page to print (check, diff, fuzz, ...).
        command: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = parse();
    cli.color.apply();
    let result = match cli.command {
        Command::Check(args) => check::run(args),
        Command::Graph(args) => check::graph(args),
        Command::Merge(args) => check::merge(args),
        Command::Replay {
            paths,
            engine: Some(cmd),
            ..
        } => fuzz::replay_against(&cmd, &paths),
        Command::Replay { paths, json, .. } => replay(&paths, json),
        Command::Cases(args) => cases::run(&args),
        Command::Diff(args) => diff::run(args),
        Command::Fmt { files, write } => fmt(&files, write),
        Command::Serve => fuzz::serve(),
        Command::Fuzz(args) => fuzz::run(&args),
        Command::Rules { list, json } => check::rules(list, json),
        Command::Bounds {
            name,
            json,
            toml,
            states,
        } => check::bounds(name.as_deref(), json, toml, states),
        Command::Completions { shell } => {
            let mut buf = vec![];
            clap_complete::generate(shell, &mut command(), "rbcheck", &mut buf);
            out!("{}", String::from_utf8_lossy(&buf));
            Ok(ExitCode::SUCCESS)
        }
        Command::Man { command } => man(command.as_deref()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rbcheck: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// The command line, parsed.
fn parse() -> Cli {
    Cli::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit())
}

/// `rbcheck man [COMMAND]`: rbcheck(1), or rbcheck-COMMAND(1) with that command's options,
/// examples and exit codes.
fn man(name: Option<&str>) -> Result<ExitCode, Error> {
    let cmd = command();
    let page = match name {
        None => cmd,
        Some(n) => {
            let mut names: Vec<&str> = cmd
                .get_subcommands()
                .map(|s| s.get_name())
                .filter(|s| *s != "help")
                .collect();
            names.sort_unstable();
            let sub = cmd
                .find_subcommand(n)
                .filter(|_| n != "help")
                .ok_or_else(|| {
                    Error::Usage(format!(
                        "no command `{n}`: expected one of {}",
                        names.join(", ")
                    ))
                })?;
            let page = format!("rbcheck-{n}");
            sub.clone().name(page).bin_name(format!("rbcheck {n}"))
        }
    };
    let mut buf = vec![];
    clap_mangen::Man::new(page)
        .render(&mut buf)
        .map_err(|e| Error::Usage(format!("cannot render the manual page: {e}")))?;
    out!("{}", String::from_utf8_lossy(&buf));
    Ok(ExitCode::SUCCESS)
}

/// The command's definition, with the `--bound` help of every command that takes one listing the
/// presets from their one source (`properties::bound::PRESET_TABLE`).
fn command() -> clap::Command {
    let mut command = Cli::command();
    for name in ["check", "cases", "diff", "graph"] {
        command = command.mut_subcommand(name, |sub| {
            sub.mut_arg("bound", |arg| {
                let intro = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                let short = format!("{intro}\nPresets: {}.", Bound::PRESETS.join(", "));
                arg.help(short)
                    .long_help(rbcheck::bounds::bound_help(&intro))
            })
        });
    }
    command
}

/// `rbcheck replay`: one line per case, then `N passed, N failed` (and `, N invalid`).
fn replay(paths: &[PathBuf], json: bool) -> Result<ExitCode, Error> {
    let files = case::collect(paths).map_err(Error::Usage)?;
    if files.is_empty() {
        return Err(Error::Usage("no .case files found".into()));
    }
    let (mut passed, mut failed, mut invalid) = (0, 0, 0);
    let mut results = vec![];
    for f in &files {
        let file = f.display().to_string();
        let (verdict, line, message) = match case::run_file(f) {
            case::FileResult::Done(case::Verdict::Pass) => {
                passed += 1;
                ("pass", None, None)
            }
            case::FileResult::Done(case::Verdict::Fail { line, message }) => {
                failed += 1;
                ("fail", Some(line), Some(message))
            }
            case::FileResult::Invalid(message) => {
                invalid += 1;
                ("invalid", None, Some(message))
            }
        };
        if json {
            results.push(serde_json::json!({
                "file": file,
                "verdict": verdict,
                "line": line,
                "message": message,
            }));
            continue;
        }
        let text = match (verdict, line, message) {
            ("pass", ..) => format!("pass  {file}\n"),
            ("fail", Some(line), Some(m)) => format!("FAIL  {file}:{line}: {m}\n"),
            (_, _, m) => format!("ERROR {}\n", m.unwrap_or_default()),
        };
        out!("{}", cli::highlight(&text));
    }
    if json {
        let report = serde_json::json!({
            "format": "rbcheck-replay/1",
            "files": results,
            "passed": passed,
            "failed": failed,
            "invalid": invalid,
        });
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| Error::Usage(e.to_string()))?
        );
    } else {
        // An invalid file is not a failed expectation: it is counted apart, as the JSON does.
        if invalid > 0 {
            outln!("{passed} passed, {failed} failed, {invalid} invalid");
        } else {
            outln!("{passed} passed, {failed} failed");
        }
    }
    Ok(ExitCode::from(if invalid > 0 {
        2
    } else if failed > 0 {
        1
    } else {
        0
    }))
}

/// `rbcheck fmt`: the canonical form, comments and meaning kept (`rbcheck::case::format`);
/// nothing is written unless every file formats, and each file is replaced at once.
fn fmt(files: &[PathBuf], write: bool) -> Result<ExitCode, Error> {
    let mut out = vec![];
    for f in files {
        let text = rbcheck::read::read_text(f)
            .map_err(|e| Error::Usage(format!("{}: {e}", f.display())))?;
        let formatted =
            case::format(&text).map_err(|e| Error::Usage(format!("{}:{e}", f.display())))?;
        out.push((f, formatted));
    }
    for (f, text) in out {
        if write {
            rbcheck::outdir::write_atomic(f, &text)?;
        } else {
            out!("{text}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
