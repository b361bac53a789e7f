//! `rbcheck check` and `rbcheck graph`: build the system for a rulebook and a bound, run the
//! checker, and write the counterexamples out (as cases, or in every export format).

use crate::error::Error;
use crate::outdir::{rules_line, OutDir, OutFile};
use crate::{cases, export, inputs};
use checker::{CheckResult, CheckerExt, Outcome};
use properties::{Bound, RepeatSystem};
use std::path::PathBuf;

/// What `rbcheck check` is asked for.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Rulebook: a preset or a rulebook file.
    pub rules: String,
    /// Bound: a preset or a bound file.
    pub bound: String,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Stop after this many distinct states.
    pub max_states: Option<usize>,
    /// Turn symmetry reduction off.
    pub no_symmetry: bool,
    /// Count the transitions that applied each rule clause.
    pub coverage: bool,
    /// Write each counterexample as a case file into this folder.
    pub cases: Option<PathBuf>,
    /// Write each counterexample in every export format into this folder.
    pub traces: Option<PathBuf>,
    /// Report progress on stderr while searching.
    pub progress: bool,
    /// The memory budget in bytes (`None`: the default, see `checker::memory::default_limit`).
    pub memory: Option<u64>,
    /// Seconds between two progress lines (`None`: the checker's default).
    pub progress_every: Option<f64>,
    /// How each scenario is explored (default: depth-first where the model declares the
    /// scenario tree-shaped).
    pub search: checker::SearchOrder,
}

/// Applies the options the search itself takes (threads, state limit, symmetry, search order,
/// progress, memory budget) to a checker.
pub fn configure<'a>(
    c: checker::Checker<'a, RepeatSystem>,
    opts: &CheckOptions,
) -> checker::Checker<'a, RepeatSystem> {
    let c = c
        .threads(opts.threads)
        .max_states(opts.max_states)
        .symmetry(!opts.no_symmetry)
        .search_order(opts.search)
        .report_progress(opts.progress);
    let c = match opts.progress_every {
        Some(secs) => c.progress_every(std::time::Duration::from_secs_f64(secs)),
        None => c,
    };
    match opts.memory {
        Some(bytes) => c.memory_limit(bytes),
        None => c,
    }
}

/// Counterexamples written into a folder.
#[derive(Clone, Debug)]
pub struct Written {
    /// The folder.
    pub dir: PathBuf,
    /// How many counterexamples (each may be several files).
    pub counterexamples: usize,
    /// Files that could not be written, each with why (a trace no case file can express).
    pub skipped: Vec<String>,
}

/// A finished `rbcheck check`: the system, the bound, the verdicts, and the output folders
/// still to be written (by [`CheckRun::write_outputs`], after the report is printed).
pub struct CheckRun {
    /// The system checked.
    pub system: RepeatSystem,
    /// The bound it was built from.
    pub bound: Bound,
    /// The checker's verdicts and statistics.
    pub result: CheckResult<RepeatSystem>,
    /// The `--cases` and `--traces` folders, checked and staged, not yet written; `true` for
    /// every format.
    outs: Vec<(OutDir, bool)>,
    /// The options, for the counterexamples' headers.
    opts: CheckOptions,
}

impl CheckRun {
    /// Whether some property failed (exit code 1).
    pub fn failed(&self) -> bool {
        self.result
            .properties
            .iter()
            .any(|p| p.outcome.is_failure())
    }

    /// Writes the `--cases` and `--traces` folders, in that order. A counterexample that a
    /// format cannot express is skipped in that format and said so; the others are written.
    pub fn write_outputs(&mut self) -> Result<Vec<Written>, Error> {
        let mut written = vec![];
        for (mut out, all) in std::mem::take(&mut self.outs) {
            let (files, skipped) =
                counterexample_files(&self.system, &self.result, &self.opts, &out, all);
            out.commit(&files)?;
            written.push(Written {
                dir: out.path().to_path_buf(),
                counterexamples: self
                    .result
                    .properties
                    .iter()
                    .filter(|p| matches!(p.outcome, Outcome::Violated { .. }))
                    .count(),
                skipped,
            });
        }
        Ok(written)
    }
}

/// Runs `rbcheck check`.
pub fn check(opts: &CheckOptions) -> Result<CheckRun, Error> {
    let rules = inputs::rulebook(&opts.rules)?;
    let bound = inputs::bound(&opts.bound)?;
    if opts.threads > 256 {
        return Err(Error::Usage(format!(
            "--threads {}: expected at most 256",
            opts.threads
        )));
    }
    if opts.max_states == Some(0) {
        return Err(Error::Usage("--max-states 0: expected at least 1".into()));
    }
    // Both folders are checked (and staged) before the search, so that a bad one fails fast.
    let mut outs: Vec<(OutDir, bool)> = vec![];
    for (dir, all) in [(&opts.cases, false), (&opts.traces, true)] {
        if let Some(dir) = dir {
            let out = OutDir::prepare(dir)?;
            if outs.iter().any(|(o, _)| o.target() == out.target()) {
                return Err(Error::Usage(format!(
                    "--cases and --traces name the same folder {}: give each its own",
                    dir.display()
                )));
            }
            outs.push((out, all));
        }
    }
    let mut system = RepeatSystem::new(rules, &bound).map_err(Error::scenario)?;
    if opts.coverage {
        system = system.count_coverage();
    }
    if opts.progress {
        eprintln!("{}", header(&system, &bound, opts));
    }
    let result = configure(system.checker(), opts).run()?;
    Ok(CheckRun {
        system,
        bound,
        result,
        outs,
        opts: opts.clone(),
    })
}

/// The line printed before a search: what is checked, with how many threads and how much
/// memory, so that a long run's progress lines can be read against it.
fn header(system: &RepeatSystem, bound: &Bound, opts: &CheckOptions) -> String {
    let threads = match opts.threads {
        0 => rayon::current_num_threads(),
        n => n,
    };
    let gib = |b: u64| format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64);
    let budget = match opts.memory {
        Some(b) => format!("memory budget {}", gib(b)),
        None => match checker::memory::default_limit() {
            Some(b) => format!(
                "memory budget {} ({:.0} % of the available memory)",
                gib(b),
                checker::memory::DEFAULT_FRACTION * 100.0
            ),
            None => "no memory budget (the available memory cannot be read)".into(),
        },
    };
    let search = match opts.search {
        checker::SearchOrder::Auto => "depth-first where tree-shaped",
        checker::SearchOrder::BreadthFirst => "breadth-first",
    };
    format!(
        "rbcheck check: rules {} | bound {} ({} scenarios) | {threads} thread{} | {budget} | {search}",
        system.game.rules.name,
        bound.name,
        system.scenarios.len(),
        if threads == 1 { "" } else { "s" }
    )
}

/// What `rbcheck graph` is asked for.
#[derive(Clone, Debug)]
pub struct GraphOptions {
    /// Rulebook: a preset or a rulebook file.
    pub rules: String,
    /// Bound: a preset or a bound file.
    pub bound: String,
    /// The scenario's number in the bound (1-based).
    pub scenario: usize,
    /// Refuse graphs with more states than this.
    pub max_states: usize,
}

/// Runs `rbcheck graph`: the state graph of one scenario, as DOT.
pub fn graph(opts: &GraphOptions) -> Result<String, Error> {
    let rules = inputs::rulebook(&opts.rules)?;
    let bound = inputs::bound(&opts.bound)?;
    let mut system = RepeatSystem::new(rules, &bound).map_err(Error::scenario)?;
    let n = system.scenarios.len();
    if opts.scenario == 0 || opts.scenario > n {
        return Err(Error::Usage(format!(
            "--scenario {}: the bound `{}` has scenarios 1 to {n}",
            opts.scenario, bound.name
        )));
    }
    let one = system.scenarios.swap_remove(opts.scenario - 1);
    system.scenarios = vec![one];
    let graph = checker::graph::explore(&system, opts.max_states)?;
    let title = format!(
        "states of scenario {} of bound {} under {}: {} states; solid edges are decisions, dashed ones forced steps",
        opts.scenario,
        bound.name,
        system.game.rules.name,
        graph.state_count()
    );
    Ok(export::graph_dot(&system, &graph, &title))
}

/// The files for each counterexample: a case file, and with `all` also JSON, ITF and DOT; and
/// the files left out, each with why (a run the case format cannot express).
fn counterexample_files(
    system: &RepeatSystem,
    result: &CheckResult<RepeatSystem>,
    opts: &CheckOptions,
    out: &OutDir,
    all: bool,
) -> (Vec<OutFile>, Vec<String>) {
    let rules_line = rules_line(&opts.rules, out);
    let mut files = vec![];
    let mut skipped = vec![];
    let mut n = 0;
    for p in &result.properties {
        let Outcome::Violated { trace, kind } = &p.outcome else {
            continue;
        };
        n += 1;
        let stem = format!("{n:02}-{}", p.name);
        let actions: Vec<_> = trace.steps.iter().map(|s| s.action).collect();
        let header = vec![
            format!("Counterexample to `{}` ({}): {}", p.name, p.rule, p.doc),
            format!(
                "Found by `rbcheck check --rules {} --bound {}`; the property fails at step {} of its trace there.",
                opts.rules,
                opts.bound,
                actions.len()
            ),
            format!("Scenario: {}", system.scenarios[trace.init_index].name),
        ];
        let setup = &system.scenarios[trace.init_index].setup;
        match cases::write_run(
            &system.game,
            &rules_line,
            setup,
            &actions,
            header,
            out.stage(),
        ) {
            Ok(case) => files.push((format!("{stem}.case"), crate::case::print(&case))),
            Err(e) => {
                let why = e.to_string();
                let why = why.lines().next().unwrap_or_default().trim_end_matches(':');
                skipped.push(format!("{stem}.case: not written: {why}"));
            }
        }
        if all {
            files.push((
                format!("{stem}.json"),
                export::steps_file(system, trace, p.name, p.rule),
            ));
            files.push((
                format!("{stem}.itf.json"),
                export::itf(system, trace, p.name, p.rule),
            ));
            files.push((
                format!("{stem}.dot"),
                export::dot(system, trace, p.name, p.rule, kind),
            ));
        }
    }
    (files, skipped)
}
