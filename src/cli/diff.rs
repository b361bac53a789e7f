//! `rbcheck diff`: options and output.

use super::progress::{bound_words, threads, ProgressArgs, Ticker, Watch};
use clap::Args;
use rbcheck::diff::{diff, DiffOptions};
use rbcheck::outdir::{self, Target};
use rbcheck::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Options of `rbcheck diff`.
#[derive(Args)]
pub struct DiffArgs {
    /// The first rulebook: a preset (v1.2, v1.3, rup4, guide) or a rulebook file.
    pub a: String,
    /// The second rulebook.
    pub b: String,
    /// Bound: a preset (listed below), a bound file, or `auto` (the default): the scenarios of
    /// every preset but `large` in which A decides a step otherwise than B (the fields each
    /// scenario reads are cached: RBCHECK_CACHE_DIR, RBCHECK_CACHE=off).
    #[arg(long, default_value = "auto")]
    pub bound: String,
    /// Write each class's smallest example as a pair of cases (and a README) into this folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON object instead of the human report.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report to this file, which must not exist: each class
    /// with its smallest pair of cases side by side.
    #[arg(long)]
    pub html: Option<PathBuf>,
    /// Replace an output that exists: a file named by --html, or a folder an earlier run
    /// wrote (only files of the kinds rbcheck writes, no subfolder), once this run is done.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// Runs `rbcheck diff`: exit 1 if the rulebooks differ observably.
pub fn run(args: DiffArgs) -> Result<ExitCode, Error> {
    let mut outputs = outdir::prepare(&[
        Target::folder("--out", args.out.as_deref()).replacing(args.force),
        Target::file("--html", args.html.as_deref()).replacing(args.force),
    ])?;
    let html = outputs.file("--html");
    Ticker::new(&args.progress, "diff").header(&format!(
        "rbcheck diff: rules {} and {} | {} | {}",
        args.a,
        args.b,
        bound_words(&args.bound),
        threads()
    ));
    let counter = Arc::new(rbcheck::progress::Counter::default());
    let watch = Watch::start(&args.progress, "diff", counter.clone());
    let run = diff(
        &DiffOptions {
            a: args.a,
            b: args.b,
            bound: args.bound,
            out: args.out,
            pairs: html.is_some(),
            progress: Some(counter),
        },
        outputs.folder("--out"),
    );
    drop(watch);
    let mut run = run?;
    // The report first: a failed write must not hide it.
    let report = &run.report;
    if args.json {
        outln!(
            "{}",
            serde_json::to_string(report).expect("the report serialises")
        );
    } else {
        out!("{}", super::highlight(&report.human()));
    }
    let differs = report.differs();
    run.write_out()?;
    if let Some(h) = html {
        let page = rbcheck::html::diff_report(&run.report, &rbcheck::html::command_line());
        let shown = h.path().display().to_string();
        h.commit(&page)?;
        if !args.progress.quiet {
            eprintln!("wrote the HTML report to {shown}");
        }
    }
    let _ = differs;
    Ok(ExitCode::from(run.report.exit_code()))
}
