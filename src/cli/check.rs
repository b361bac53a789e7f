//! `rbcheck check`, `rbcheck graph` and `rbcheck rules`: options and output.

use super::progress::parse_seconds;
use clap::Args;
use rbcheck::check::{CheckOptions, GraphOptions};
use rbcheck::outdir::{self, Target};
use rbcheck::{report, Error};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `rbcheck check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Rulebook: a preset (v1.2, v1.3, rup4, guide) or a rulebook file.
    #[arg(long, default_value = "rup4")]
    pub rules: String,
    /// Bound: a preset (listed below), a bound file, or `auto`: the scenarios of every preset
    /// but `large` in which the rulebook decides a step otherwise than its base (the fields each
    /// scenario reads under the base are cached: RBCHECK_CACHE_DIR, RBCHECK_CACHE=off). Default:
    /// `auto` for a rulebook file, `default` for a preset.
    #[arg(long, default_value = "")]
    pub bound: String,
    /// Check only this property (repeatable; the names are those of the report's table).
    #[arg(long = "property", value_name = "NAME")]
    pub properties: Vec<String>,
    /// Up to N distinct shortest counterexamples per violated property, from different
    /// scenarios, each taking a sequence of rule steps the others do not (1 to 100).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub counterexamples: u64,
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
    /// The memory budget, e.g. 512M or 2G (from 16M to 1P; default: 75 % of the available
    /// memory or of the cgroup's limit, whichever is smaller). Past it the run stops, partial.
    #[arg(long, value_parser = parse_size)]
    pub memory: Option<u64>,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Seconds between two progress lines on stderr (0.1 to 3600; default 3).
    #[arg(long, value_parser = parse_seconds)]
    pub progress_every: Option<f64>,
    /// Progress on stderr as one JSON object per line (`"format": "rbcheck-progress/1"`).
    #[arg(long, conflicts_with = "quiet")]
    pub progress_json: bool,
    /// Explore only shard K of N (1 <= K <= N) of the scenarios and write its part file into
    /// the --parts folder, for `rbcheck merge` (skipped if that part file exists already).
    #[arg(long, value_parser = parse_shard, requires = "parts")]
    pub shard: Option<(u32, u32)>,
    /// Deal the scenarios to N shards by their estimated sizes, write that plan into the
    /// --parts folder (plan-of-N.json) and stop: every `--shard K/N` then reads it instead of
    /// making it again.
    #[arg(long, value_name = "N", requires = "parts", conflicts_with = "shard", value_parser = parse_shards)]
    pub plan: Option<u32>,
    /// The folder for --shard's part files and --plan's plan file.
    #[arg(long)]
    pub parts: Option<PathBuf>,
    /// How each scenario is explored: `auto` depth-first, storing only the current path, where
    /// the model declares the scenario tree-shaped (breadth-first elsewhere); `bfs`
    /// breadth-first with a visited set everywhere. The results are the same but for the
    /// states stored and the memory.
    #[arg(long, value_enum, default_value_t = SearchArg::Auto)]
    pub search: SearchArg,
    /// Also write a self-contained HTML report to this file, which must not exist: the summary,
    /// every property with its meaning, each counterexample step by step beside the board.
    #[arg(long, conflicts_with = "shard")]
    pub html: Option<PathBuf>,
    /// Replace an output that exists: a file named by --html, or a folder an earlier run
    /// wrote (only files of the kinds rbcheck writes, no subfolder), once this run is done.
    #[arg(long)]
    pub force: bool,
}

/// The values of `--search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SearchArg {
    /// Depth-first where the model declares a scenario tree-shaped.
    Auto,
    /// Breadth-first everywhere.
    Bfs,
}

/// Options of `rbcheck merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// The part files of every shard of one run (`part-K-of-N.json`).
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
    /// Print one JSON object instead of the human report.
    #[arg(long)]
    pub json: bool,
    /// Worker threads to replay the traces (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Do not print how evenly the shards shared the work (on stderr).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Smallest and largest `--memory`.
const MEMORY_RANGE: (u64, u64) = (16 << 20, 1 << 50);

/// Parses a size such as `2G`, `512M`, `1.5G` or `4000000000` (bytes; K, M, G, T, P are
/// powers of 1024, optionally followed by `B` or `iB`), within [`MEMORY_RANGE`].
pub fn parse_size(text: &str) -> Result<u64, String> {
    let expected = || format!("expected a size such as 512M or 2G, from 16M to 1P; got `{text}`");
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (number, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], c.to_ascii_uppercase()),
        _ => (t, ' '),
    };
    let shift = match unit {
        ' ' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        'T' => 40,
        'P' => 50,
        _ => return Err(expected()),
    };
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(expected());
    }
    let value: f64 = number.parse().map_err(|_| expected())?;
    let bytes = value * (1u64 << shift) as f64;
    if !(bytes >= MEMORY_RANGE.0 as f64 && bytes <= MEMORY_RANGE.1 as f64) {
        return Err(expected());
    }
    Ok(bytes as u64)
}

/// Parses `K/N`, 1 <= K <= N <= `shard::MAX_SHARDS`.
pub fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let max = rbcheck::shard::MAX_SHARDS;
    let expected = || format!("expected K/N with 1 <= K <= N <= {max}; got `{text}`");
    let (k, n) = text.split_once('/').ok_or_else(expected)?;
    let k: u32 = k.trim().parse().map_err(|_| expected())?;
    let n: u32 = n.trim().parse().map_err(|_| expected())?;
    if k == 0 || k > n || n > max {
        return Err(expected());
    }
    Ok((k, n))
}

/// Parses `--plan`'s number of shards, 2 to [`rbcheck::shard::MAX_SHARDS`].
pub fn parse_shards(text: &str) -> Result<u32, String> {
    let max = rbcheck::shard::MAX_SHARDS;
    match text.trim().parse::<u32>() {
        Ok(n) if (2..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a number of shards from 2 to {max}; got `{text}`"
        )),
    }
}

/// Options of `rbcheck graph`.
#[derive(Args)]
pub struct GraphArgs {
    /// Rulebook: a preset or a rulebook file.
    #[arg(long, default_value = "rup4")]
    pub rules: String,
    /// Bound: a preset (listed below) or a bound file.
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
        progress: !args.quiet,
        memory: args.memory,
        progress_every: args.progress_every,
        rules: args.rules,
        bound: args.bound,
        properties: args.properties,
        counterexamples: args.counterexamples as usize,
        threads: args.threads,
        max_states: args.max_states,
        no_symmetry: args.no_symmetry,
        coverage: args.coverage,
        cases: args.cases,
        traces: args.traces,
        search: match args.search {
            SearchArg::Auto => checker::SearchOrder::Auto,
            SearchArg::Bfs => checker::SearchOrder::BreadthFirst,
        },
        sink: args
            .progress_json
            .then(|| super::progress::json_sink("check")),
    };
    // Every output is checked, and compared with the others, before the search.
    let mut outputs = outdir::prepare(&[
        Target::folder("--cases", opts.cases.as_deref()).replacing(args.force),
        Target::folder("--traces", opts.traces.as_deref()).replacing(args.force),
        Target::file("--html", args.html.as_deref()).replacing(args.force),
        Target::shared("--parts", args.parts.as_deref()),
    ])?;
    if let (Some(n), Some(dir)) = (args.plan, outputs.shared("--parts")) {
        let made = rbcheck::shard::plan::make(&opts, n, dir)?;
        eprintln!("{}", made.describe());
        return Ok(ExitCode::SUCCESS);
    }
    if let (Some(shard), Some(dir)) = (args.shard, outputs.shared("--parts")) {
        let run = rbcheck::shard::run(&opts, shard, dir)?;
        eprintln!("{}", run.describe());
        return Ok(ExitCode::SUCCESS);
    }
    if args.parts.is_some() {
        return Err(Error::Usage("--parts needs --shard K/N or --plan N".into()));
    }
    let html = outputs.file("--html");
    let mut run =
        rbcheck::check::check(&opts, outputs.folder("--cases"), outputs.folder("--traces"))?;
    // The verdict first: a failed export must not hide it.
    if args.json {
        let json = report::json(&run.system, &run.judgement, &run.result);
        outln!(
            "{}",
            serde_json::to_string(&json).expect("the report serialises")
        );
    } else {
        out!(
            "{}",
            super::highlight(&report::human(&run.system, &run.judgement, &run.result))
        );
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
    if let Some(h) = html {
        let page = rbcheck::html::check_report(
            &run.system,
            &run.judgement,
            &run.result,
            &rbcheck::html::command_line(),
        );
        let shown = h.path().display().to_string();
        h.commit(&page)?;
        if !args.quiet {
            eprintln!("wrote the HTML report to {shown}");
        }
    }
    Ok(ExitCode::from(run.verdict().exit_code()))
}

/// Runs `rbcheck merge`: the report of the merged parts, exit 1 if a property fails.
pub fn merge(args: MergeArgs) -> Result<ExitCode, Error> {
    let m = rbcheck::shard::merge(&args.parts, args.threads)?;
    if !args.quiet {
        eprintln!("{}", m.balance.describe());
    }
    if args.json {
        let json = report::json(&m.system, &m.judgement, &m.result);
        outln!(
            "{}",
            serde_json::to_string(&json).expect("the report serialises")
        );
    } else {
        out!(
            "{}",
            super::highlight(&report::human(&m.system, &m.judgement, &m.result))
        );
    }
    // The exit code of the unsharded run: 1 failed, 3 not exercised, 0 otherwise.
    Ok(ExitCode::from(m.judgement.verdict(&m.result).exit_code()))
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
pub fn rules(list: bool, json: bool) -> Result<ExitCode, Error> {
    if json {
        let text = serde_json::to_string(&rbcheck::rules::json())
            .map_err(|e| Error::Usage(e.to_string()))?;
        outln!("{text}");
    } else {
        out!("{}", rbcheck::rules::text(list));
    }
    Ok(ExitCode::SUCCESS)
}

/// `rbcheck bounds [NAME] [--json | --toml] [--states]`: the presets with their purpose,
/// contents and size, or one preset as a bound file.
pub fn bounds(name: Option<&str>, json: bool, toml: bool, states: bool) -> Result<ExitCode, Error> {
    use rbcheck::bounds;
    if let (true, Some(n)) = (toml, name) {
        out!("{}", bounds::toml(n).map_err(Error::Usage)?);
        return Ok(ExitCode::SUCCESS);
    }
    let mut all = bounds::summaries();
    if let Some(n) = name {
        if !all.iter().any(|p| p.name == n) {
            return Err(Error::Usage(bounds::human(&all, Some(n)).unwrap_err()));
        }
        all.retain(|p| p.name == n);
    }
    if states {
        for p in &mut all {
            if name.is_some() || bounds::counted_by_default(p.name) {
                eprintln!("rbcheck bounds: exploring {} to count its states", p.name);
                p.states = Some(bounds::count_states(p.name, 0)?);
            }
        }
    }
    if json {
        let report = bounds::BoundsJson {
            format: bounds::BOUNDS_FORMAT,
            presets: all,
        };
        let text = serde_json::to_string(&report).map_err(|e| Error::Usage(e.to_string()))?;
        outln!("{text}");
    } else {
        out!("{}", bounds::human(&all, name).map_err(Error::Usage)?);
    }
    Ok(ExitCode::SUCCESS)
}
