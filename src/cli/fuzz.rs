//! `rbcheck fuzz` and `rbcheck serve`: options and output. The fuzzing, shrinking and scoring
//! are `rbcheck::engine`'s, the finding cases `rbcheck::findings`'.

use super::progress::{rate, ProgressArgs, ProgressJson, Ticker};
use clap::Args;
use rbcheck::engine::fuzz::{fuzz_with, FuzzConfig, FuzzReport};
use rbcheck::engine::score::{markdown, score};
use rbcheck::engine::{ModelEngine, ProcessEngine, PROTOCOL};
use rbcheck::findings::FindingWriter;
use rbcheck::outdir::{self, Target};
use rbcheck::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `rbcheck fuzz`.
#[derive(Args)]
pub struct FuzzArgs {
    /// The engine: a command and its arguments, speaking rbcheck-engine/2 (or /1) on stdin/stdout
    /// (corpus/PROTOCOL.md).
    #[arg(long)]
    pub engine: String,
    /// The seed: the same seed generates the same cases (default 0; with --score, a seed drawn
    /// fresh for the run and printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run this many cases, at least 1 (default 4000 when --time is not given).
    #[arg(long, value_parser = cases_count)]
    pub cases: Option<usize>,
    /// Run for this many seconds, 1 to 31536000 (with --cases: whichever comes first).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub time: Option<u64>,
    /// Where to write each finding's minimal case (each as soon as it is found) and, at the
    /// end, summary.txt.
    #[arg(long, default_value = "fuzz-findings")]
    pub out: PathBuf,
    /// List every case of every cluster (default: the smallest case of each and a count).
    #[arg(long)]
    pub all: bool,
    /// Seconds the engine may take to answer one case before it counts as hung: 0.05 to 3600.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT, value_parser = timeout_seconds)]
    pub timeout: f64,
    /// Candidate cases tried while shrinking one finding.
    #[arg(long, default_value_t = 150)]
    pub shrink_steps: usize,
    /// Score mode: fuzz the engine and each mutant it lists (`ENGINE --list-mutants`, run as
    /// `ENGINE --mutant NAME`) and print a Markdown table, at a seed drawn fresh for the run
    /// (printed) unless --seed is given. Cases on which the unmutated engine already disagrees
    /// with the model are not sent to the mutants. Writes no case files.
    #[arg(long)]
    pub score: bool,
    /// Engines fuzzed at once in score mode (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Also write every generated case to this folder (a regression suite for the engine).
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// Instead of generating cases, send these case files (or folders of them, e.g.
    /// corpus/cases) and compare each answer with the model's.
    #[arg(long, num_args = 1..)]
    pub corpus: Vec<PathBuf>,
    /// Also write a self-contained HTML report of the run to this file, which must not exist:
    /// each finding with its case and the model's and the engine's answers.
    #[arg(long, conflicts_with_all = ["score", "corpus"])]
    pub html: Option<PathBuf>,
    /// Replace an output that exists: a file named by --html, or a folder an earlier run
    /// wrote (only files of the kinds rbcheck writes, no subfolder), once this run is done.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object instead of the human report (generated runs only: not with
    /// --corpus or --score).
    #[arg(long, conflicts_with_all = ["corpus", "score"])]
    pub json: bool,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// The seconds an engine may take to answer one case unless `--timeout` says otherwise.
const DEFAULT_TIMEOUT: f64 = 10.0;

/// The shortest and longest `--timeout`, in seconds.
const TIMEOUT_RANGE: std::ops::RangeInclusive<f64> = 0.05..=3600.0;

/// `--timeout`: a number of seconds within [`TIMEOUT_RANGE`] (`inf`, `NaN`, negative and
/// out-of-range values are clap errors, exit 2; `Duration::from_secs_f64` would panic on some).
fn timeout_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if !TIMEOUT_RANGE.contains(&v) {
        return Err(format!(
            "{s} s is out of range: expected {} to {} seconds",
            TIMEOUT_RANGE.start(),
            TIMEOUT_RANGE.end()
        ));
    }
    Ok(v)
}

/// `--cases`: at least 1 (a run of no case compares nothing; it is not a pass).
fn cases_count(s: &str) -> Result<usize, String> {
    let v: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number of cases"))?;
    if v == 0 {
        return Err("expected at least 1 case".into());
    }
    Ok(v)
}

/// A seed nobody chose: the clock and the process id, mixed.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    rbcheck::engine::gen::Rng::derive(nanos, u64::from(std::process::id())).next_u64()
}

fn config(args: &FuzzArgs) -> FuzzConfig {
    FuzzConfig {
        seed: args.seed.unwrap_or(0),
        cases: args.cases,
        time: args.time.map(Duration::from_secs),
        shrink_steps: args.shrink_steps,
        keep: args.keep.clone(),
        ..FuzzConfig::default()
    }
}

/// The human report: each finding, then the run's counts, gaps, conformance and coverage.
fn print_report(args: &FuzzArgs, r: &FuzzReport, written: &[(usize, PathBuf)]) {
    for (n, f) in r.findings.iter().enumerate() {
        let file = written
            .iter()
            .find(|(k, _)| *k == n)
            .map(|(_, p)| p.as_path());
        print_finding(args, n, f, file);
    }
    print_totals(args, r);
}

/// One finding: its name and sentence, the causes merged into it, its suspects and symptoms,
/// and the case file written for it with the command that replays that case alone.
fn print_finding(
    args: &FuzzArgs,
    n: usize,
    f: &rbcheck::engine::fuzz::Finding,
    file: Option<&std::path::Path>,
) {
    outln!(
        "FINDING {}  {} — {} case{}, first at case {}",
        n + 1,
        f.kind,
        f.hits,
        if f.hits == 1 { "" } else { "s" },
        f.first_case
    );
    outln!("  {}", f.sentence);
    if !f.merged.is_empty() {
        outln!("  one root cause: also seen as {}", f.merged.join("; "));
    }
    if !f.suspects.is_empty() {
        let s: Vec<String> = f.suspects.iter().map(|s| s.words()).collect();
        outln!(
            "  suspect clauses (its cases apply them, the cases passed seldom do): {}",
            s.join(", ")
        );
    }
    if f.symptoms.len() > 1 || args.all {
        let s: Vec<String> = f
            .symptoms
            .iter()
            .map(|(k, v)| format!("{k} ({v})"))
            .collect();
        outln!("  symptoms: {}", s.join(", "));
    }
    if args.all {
        for (i, line) in &f.cases {
            outln!("  case {i}: {line}");
        }
    }
    if let Some(p) = file {
        if f.fault.is_some() {
            outln!("  case: {}", p.display());
        } else {
            outln!(
                "  minimal case: {} ({} statements, shrunk from {})",
                p.display(),
                f.shrunk_from.1,
                f.shrunk_from.0
            );
        }
        // The one case, not the whole budget: what an engine author reruns after a fix.
        outln!(
            "  replay: rbcheck fuzz --engine {:?} --corpus {:?}",
            args.engine,
            p.display().to_string()
        );
    }
}

/// The run's counts, the answers that stated nothing, the gaps, the conformance table, the
/// coverage and the command that reproduces the run.
fn print_totals(args: &FuzzArgs, r: &FuzzReport) {
    let skipped: usize = r.unsupported.values().sum();
    let what: Vec<String> = r
        .unsupported
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    outln!(
        "{} cases in {:.1} s: {} compared ({} agreed), {} not expressible by the engine{}, {} engine fault{}; {} finding{}",
        r.cases,
        r.seconds,
        r.compared,
        r.agreed,
        skipped,
        if what.is_empty() { String::new() } else { format!(" ({})", what.join(", ")) },
        r.faults,
        if r.faults == 1 { "" } else { "s" },
        r.findings.len(),
        if r.findings.len() == 1 { "" } else { "s" }
    );
    if r.stated_nothing > 0 {
        outln!(
            "{} answer{} stated nothing comparable (only `legal: true`, or no field): not compared",
            r.stated_nothing,
            if r.stated_nothing == 1 { "" } else { "s" }
        );
    }
    for g in &r.gaps {
        outln!(
            "GAP: {}: {}, {} case{} (first: case {}; not expressible, not a finding)",
            g.what,
            g.rule,
            g.cases,
            if g.cases == 1 { "" } else { "s" },
            g.first_case
        );
    }
    out!("{}", rbcheck::engine::conformance::text(r));
    if !r.not_reported.is_empty() {
        let nr: Vec<String> = r
            .not_reported
            .iter()
            .map(|(k, v)| format!("{k} ({v} cases)"))
            .collect();
        outln!(
            "not reported by the engine (not compared): {}",
            nr.join(", ")
        );
    }
    if r.generation_failures > 0 {
        outln!("{} recipes made no case (skipped)", r.generation_failures);
    }
    outln!(
        "coverage: the generated cases reached {} distinct goals (rule clauses by item and by whose things change, decisions, targets, cards, illegal statements)",
        r.goals
    );
    if let Some(a) = &r.aborted {
        outln!("STOPPED: {a}");
    }
    outln!(
        "reproduce: rbcheck fuzz --engine {:?} --seed {} --cases {}",
        args.engine,
        r.seed,
        r.cases
    );
}

/// What `fuzz` does after each case: on stderr the header once the engine said hello, each new
/// finding and a timed progress line (nothing with `--quiet`); and each new finding written to
/// the output folder at once, so a killed run keeps it.
fn on_case<'a>(
    args: &'a FuzzArgs,
    limit: Option<usize>,
    writer: &'a mut Option<FindingWriter>,
    write_error: &'a mut Option<Error>,
) -> impl FnMut(usize, &FuzzReport) + 'a {
    let mut last_shown = 0usize;
    let mut ticker = Ticker::new(&args.progress, "fuzz");
    move |i, r| {
        if i == 1 {
            if let Some(h) = &r.engine {
                ticker.header(&format!(
                    "rbcheck fuzz: engine `{}` ({PROTOCOL}; rules {}; features {}), seed {}, budget {}",
                    h.describe(),
                    h.rules.join(" "),
                    h.features.join(" "),
                    r.seed,
                    match (limit, args.time) {
                        (Some(c), Some(t)) => format!("{c} cases or {t} s"),
                        (Some(c), None) => format!("{c} cases"),
                        (_, Some(t)) => format!("{t} s"),
                        _ => String::new(),
                    }
                ));
            }
        }
        if r.findings.len() > last_shown {
            for (n, f) in r.findings.iter().enumerate().skip(last_shown) {
                ticker.header(&format!("  case {}: new finding: {}", f.first_case, f.kind));
                stream(writer, write_error, r, n, f);
            }
            last_shown = r.findings.len();
        }
        ticker.tick(
            |secs| {
                let of = match (limit, args.time) {
                    (Some(c), _) => format!(" of {c}"),
                    (None, Some(t)) => format!(" (of {t} s)"),
                    _ => String::new(),
                };
                format!(
                    "{i}{of} cases, {} compared, {} finding(s), {:.0} cases/s",
                    r.compared,
                    r.findings.len(),
                    rate(i, secs)
                )
            },
            |command, secs| ProgressJson {
                compared: Some(r.compared as u64),
                findings: Some(r.findings.len() as u64),
                ..ProgressJson::progress(command, "cases", i as u64, limit.map(|c| c as u64), secs)
            },
        );
    }
}

/// `fuzz --json`: the report as one JSON object (its `nothing_compared` says what the human
/// report's NOTHING COMPARED line says).
fn print_json(r: &FuzzReport, written: &[(usize, PathBuf)]) {
    let json = rbcheck::report::fuzz_json(r, written);
    outln!(
        "{}",
        serde_json::to_string(&json).expect("the report serialises")
    );
}

/// Runs `rbcheck fuzz`. Exit code 0: no finding; 1: findings; 2: the engine could not be run.
pub fn run(args: &FuzzArgs) -> Result<ExitCode, Error> {
    // Engines run in process groups of their own: an interrupt must kill them too.
    rbcheck::outdir::cleanup_on_signals();
    let mut cfg = config(args);
    let timeout = Duration::from_secs_f64(args.timeout);
    if args.score {
        match args.seed {
            Some(s) => outln!("Seed {s} (given with --seed)."),
            None => {
                cfg.seed = fresh_seed();
                outln!(
                    "Seed {} (drawn for this run; repeat it with --seed {}).",
                    cfg.seed,
                    cfg.seed
                );
            }
        }
        let jobs = if args.jobs == 0 {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        } else {
            args.jobs
        };
        let rows = score(&args.engine, &cfg, timeout, jobs).map_err(Error::engine)?;
        out!("{}", markdown(&rows, &cfg));
        return Ok(ExitCode::from(if rows.iter().all(|r| r.ok()) {
            0
        } else {
            1
        }));
    }
    if !args.corpus.is_empty() {
        let mut engine = ProcessEngine::new(&args.engine, timeout).map_err(Error::engine)?;
        return corpus(&mut engine, &args.corpus);
    }
    // Every output is checked (and staged), and compared with the others, before the engine
    // starts: a bad one fails fast, and a run's report is never lost to a folder that cannot
    // be written.
    let mut outputs = outdir::prepare(&[
        Target::folder("--out", Some(&args.out)).replacing(args.force),
        Target::folder("--keep", args.keep.as_deref()).replacing(args.force),
        Target::file("--html", args.html.as_deref()).replacing(args.force),
    ])?;
    let out = outputs.folder("--out").expect("--out has a default");
    let mut keep = outputs.folder("--keep");
    let html = outputs.file("--html");
    cfg.keep = keep.as_ref().map(|k| k.stage().to_path_buf());
    let mut engine = ProcessEngine::new(&args.engine, timeout).map_err(Error::engine)?;
    let limit = cfg.case_limit();
    let mut writer: Option<FindingWriter> = Some(FindingWriter::new(out, String::new(), cfg.seed));
    let mut write_error: Option<Error> = None;
    let report = fuzz_with(
        &mut engine,
        &cfg,
        &mut on_case(args, limit, &mut writer, &mut write_error),
    );
    if let Some(why) = &report.keep_failed {
        // Said before anything else is written, so that a later failure cannot hide it.
        eprintln!("rbcheck fuzz: {why}; the run stopped there");
    }
    if let Some(k) = keep.as_mut() {
        k.commit(&[])?;
    }
    if report.engine.is_none() {
        if args.json {
            print_json(&report, &[]);
        } else {
            outln!("STOPPED: {}", report.aborted.clone().unwrap_or_default());
        }
        return Ok(ExitCode::from(2));
    }
    let finished = match (writer.as_mut(), write_error) {
        (Some(w), None) => w.finish(&report),
        (_, Some(e)) => Err(e),
        (None, None) => Ok(()),
    };
    let written = writer.map(|w| w.files).unwrap_or_default();
    if let Err(e) = finished {
        match args.json {
            true => print_json(&report, &written.files),
            false => print_report(args, &report, &written.files),
        }
        return Err(e);
    }
    for (n, e) in &written.failed {
        eprintln!("rbcheck fuzz: cannot write finding {}: {e}", n + 1);
    }
    match args.json {
        true => print_json(&report, &written.files),
        false => print_report(args, &report, &written.files),
    }
    if let Some(h) = html {
        let page = rbcheck::html::fuzz_report(&report, &rbcheck::html::command_line());
        let shown = h.path().display().to_string();
        h.commit(&page)?;
        if !args.progress.quiet {
            eprintln!("wrote the HTML report to {shown}");
        }
    }
    if report.keep_failed.is_some() {
        return Ok(ExitCode::from(2));
    }
    if let Some(why) = report.nothing_compared() {
        if !args.json {
            outln!("NOTHING COMPARED: {why}; this run proves nothing about the engine");
        }
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::from(
        if report.aborted.is_some() && report.compared == 0 {
            2
        } else if report.findings.is_empty() {
            0
        } else {
            1
        },
    ))
}

/// Writes a new finding as soon as it is found; after a failed write no other is tried (the
/// error ends the run's report).
fn stream(
    writer: &mut Option<FindingWriter>,
    error: &mut Option<Error>,
    r: &FuzzReport,
    n: usize,
    f: &rbcheck::engine::fuzz::Finding,
) {
    if error.is_some() {
        return;
    }
    if let Some(w) = writer.as_mut() {
        w.set_engine(r.engine.as_ref().map(|h| h.describe()).unwrap_or_default());
        if let Err(e) = w.write(n, f) {
            *error = Some(e);
        }
    }
}

/// Runs `rbcheck serve`: the model answers the protocol on stdin/stdout.
pub fn serve() -> Result<ExitCode, Error> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    rbcheck::engine::serve::serve(&mut ModelEngine::new(), stdin.lock(), stdout.lock())
        .map_err(Error::engine)?;
    Ok(ExitCode::SUCCESS)
}

/// `rbcheck replay --engine CMD PATHS`: the case files through the engine, as `fuzz --corpus`
/// does with the default timeout.
pub fn replay_against(cmd: &str, paths: &[PathBuf]) -> Result<ExitCode, Error> {
    rbcheck::outdir::cleanup_on_signals();
    let timeout = Duration::from_secs_f64(DEFAULT_TIMEOUT);
    let mut engine = ProcessEngine::new(cmd, timeout).map_err(Error::engine)?;
    corpus(&mut engine, paths)
}

/// `rbcheck fuzz --corpus`: case files through the engine, one line each. A file that is not a
/// valid case is an error as in `rbcheck replay` (`ERROR file:line:col: ...`, exit 2), never
/// a skip: the corpus the user named was not what they meant.
fn corpus(engine: &mut ProcessEngine, paths: &[PathBuf]) -> Result<ExitCode, Error> {
    use rbcheck::engine::fuzz::{check_files, Verdict};
    let files = rbcheck::case::collect(paths).map_err(Error::Usage)?;
    if files.is_empty() {
        return Err(Error::Usage("no .case files found".into()));
    }
    let verdicts = check_files(engine, &files).map_err(Error::engine)?;
    let (mut agree, mut differ, mut skipped, mut faults, mut empty) = (0, 0, 0, 0, 0);
    let mut invalid = 0;
    for v in &verdicts {
        let p = v.path.display();
        match &v.verdict {
            Verdict::Agree => {
                agree += 1;
                outln!("agree        {p}");
            }
            Verdict::Disagree(d) => {
                differ += 1;
                outln!("DIFFER       {p}: {}", d[0].line());
                for x in d.iter().skip(1).take(4) {
                    outln!("             {}", x.line());
                }
            }
            Verdict::Unsupported(f) => {
                skipped += 1;
                outln!("unsupported  {p}: {f}");
            }
            Verdict::Fault(m) => {
                faults += 1;
                outln!("FAULT        {p}: {m}");
            }
            Verdict::Invalid(why) => {
                invalid += 1;
                outln!("ERROR {why}");
            }
            Verdict::NoCase => {
                // A valid case file the protocol cannot carry: the model refused what it
                // replays, which the check above rules out.
                invalid += 1;
                outln!("ERROR {p}: the case replays but cannot be sent to an engine");
            }
            Verdict::StatedNothing => {
                empty += 1;
                outln!("NOTHING      {p}: the answer states no field rbcheck compares");
            }
        }
    }
    outln!("{agree} agree, {differ} differ, {skipped} skipped, {faults} engine faults");
    if invalid > 0 {
        outln!(
            "{invalid} file{} not a valid case (each named above with its line; `rbcheck replay` says the same)",
            if invalid == 1 { " is" } else { "s are" }
        );
        return Ok(ExitCode::from(2));
    }
    if agree + differ == 0 {
        outln!(
            "NOTHING COMPARED: no case was compared on any field ({skipped} skipped, {empty} \
             answered with a result stating no field rbcheck compares, {faults} engine faults); \
             this run proves nothing about the engine"
        );
        return Ok(ExitCode::from(2));
    }
    if empty > 0 {
        outln!("{empty} answers stated no field rbcheck compares (not compared)");
    }
    Ok(ExitCode::from(if differ + faults > 0 { 1 } else { 0 }))
}
