//! `rbcheck check` and `rbcheck graph`: build the system for a rulebook and a bound, run the
//! checker, and write the counterexamples out (as cases, or in every export format).

use crate::error::Error;
use crate::exercise::{self, Effort};
use crate::outdir::{rules_line, OutDir, OutFile};
use crate::progress::Sink;
use crate::verdict::{BaseRun, Judgement, NotApplicable, Verdict, WitnessMiss};
use crate::{cases, export, inputs};
use checker::{CheckResult, CheckerExt, Expectation, Outcome, Trace};
use model::action::Action;
use model::rulebook::Rulebook;
use properties::{Bound, RepeatSystem};
use std::path::PathBuf;

/// What `rbcheck check` is asked for (`Default`: the command's defaults, one counterexample
/// per violated property).
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Rulebook: a preset or a rulebook file.
    pub rules: String,
    /// Bound: a preset, a bound file, `auto`, or empty for the default (`auto` for a rulebook
    /// file, `default` for a preset; see [`resolve_bound`]).
    pub bound: String,
    /// Check only these properties (empty: every one that applies).
    pub properties: Vec<String>,
    /// Up to this many distinct shortest counterexamples per violated property (0 counts as 1).
    pub counterexamples: usize,
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
    /// Where progress goes while `progress` is on; `None`: text on stderr.
    pub sink: Option<crate::progress::Sink>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            rules: String::new(),
            bound: String::new(),
            properties: vec![],
            counterexamples: 1,
            threads: 0,
            max_states: None,
            no_symmetry: false,
            coverage: false,
            cases: None,
            traces: None,
            progress: false,
            memory: None,
            progress_every: None,
            search: checker::SearchOrder::default(),
            sink: None,
        }
    }
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
    let c = match &opts.sink {
        Some(sink) => c.on_scenario_progress(sink.for_checker()),
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

/// A finished `rbcheck check`: the system, the verdicts, what the run exercised, and the output
/// folders still to be written (by [`CheckRun::write_outputs`], after the report is printed).
pub struct CheckRun {
    /// The system checked.
    pub system: RepeatSystem,
    /// The checker's verdicts and statistics (the probes of the changed fields taken out).
    pub result: CheckResult<RepeatSystem>,
    /// What the run adds to the checker's verdicts: the bound, the fields exercised, the
    /// witnesses missed, more counterexamples.
    pub judgement: Judgement,
    /// The `--cases` and `--traces` folders, checked and staged, not yet written; `true` for
    /// every format.
    outs: Vec<(OutDir, bool)>,
    /// The options, for the counterexamples' headers.
    opts: CheckOptions,
}

impl CheckRun {
    /// The verdict (its exit code: 0, 1 or 3).
    pub fn verdict(&self) -> Verdict {
        self.judgement.verdict(&self.result)
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

/// The bound a check or diff runs on: the one named, or, when none is, `auto` for a rulebook
/// file (an edit) and `default` for a preset.
pub fn resolve_bound(bound: &str, rules_args: &[&str]) -> String {
    match bound {
        "" if rules_args.iter().any(|r| Rulebook::named(r).is_none()) => "auto".into(),
        "" => "default".into(),
        b => b.to_string(),
    }
}

/// Runs `rbcheck check`, writing counterexamples into `cases` and `traces` (the `--cases` and
/// `--traces` folders, prepared by the command with its other outputs: `outdir::prepare`).
pub fn check(
    opts: &CheckOptions,
    cases: Option<OutDir>,
    traces: Option<OutDir>,
) -> Result<CheckRun, Error> {
    let rules = inputs::rulebook(&opts.rules)?;
    let against = rules.base_rulebook();
    let bound_arg = resolve_bound(&opts.bound, &[&opts.rules]);
    if opts.threads > 256 {
        return Err(Error::Usage(format!(
            "--threads {}: expected at most 256",
            opts.threads
        )));
    }
    if opts.max_states == Some(0) {
        return Err(Error::Usage("--max-states 0: expected at least 1".into()));
    }
    if opts.counterexamples > 100 {
        return Err(Error::Usage(format!(
            "--counterexamples {}: expected 1 to 100",
            opts.counterexamples
        )));
    }
    let outs: Vec<(OutDir, bool)> = [(cases, false), (traces, true)]
        .into_iter()
        .filter_map(|(dir, all)| Some((dir?, all)))
        .collect();
    let effort = Effort {
        threads: opts.threads,
        memory: opts.memory,
    };
    let (system, bound_name, auto) = scenarios(&rules, &against, &bound_arg, effort, opts)?;
    let probes = exercise::probes_for(&rules, &against, &system.game);
    let mut system = system.with_probes(probes);
    if !opts.properties.is_empty() {
        system = system.select(&opts.properties).map_err(Error::Usage)?;
    }
    if opts.coverage {
        system = system.count_coverage();
    }
    if opts.progress {
        Sink::say(opts.sink.as_ref(), &header(&system, &bound_name, opts));
    }
    let mut result = configure(system.checker(), opts).run()?;
    let mut fields = exercise::split(&system, &mut result);
    exercise::fill_elsewhere(&mut fields, &rules, &against, effort)?;
    let misses = witness_misses(&system, &result, &rules, &against, effort)?;
    let more = more_counterexamples(&system, &result, opts.counterexamples)?;
    let judgement = Judgement {
        bound: bound_name,
        rules_arg: opts.rules.clone(),
        auto,
        exercise: exercise::Exercise {
            against: match fields.is_empty() {
                true => String::new(),
                false => against.name.clone(),
            },
            fields,
        },
        not_applicable: not_applicable(&system),
        misses,
        more,
    };
    Ok(CheckRun {
        system,
        result,
        judgement,
        outs,
        opts: opts.clone(),
    })
}

/// The properties left out of `system` as inapplicable to its rules, for the judgement.
pub fn not_applicable(system: &RepeatSystem) -> Vec<NotApplicable> {
    system
        .not_applicable()
        .into_iter()
        .map(|(p, why)| NotApplicable {
            name: p.name,
            rule: p.rule,
            why,
        })
        .collect()
}

/// The system to check and the bound's name: the bound named, or the scenarios `auto` chose
/// (the `default` preset when the pool has none in which the rulebook decides otherwise).
fn scenarios(
    rules: &Rulebook,
    against: &Rulebook,
    bound: &str,
    effort: Effort,
    opts: &CheckOptions,
) -> Result<(RepeatSystem, String, Option<exercise::AutoChoice>), Error> {
    if bound != "auto" {
        let bound = inputs::bound(bound)?;
        let system = RepeatSystem::new(rules.clone(), &bound).map_err(Error::scenario)?;
        return Ok((system, bound.name, None));
    }
    if opts.progress {
        let text = format!(
            "rbcheck check: --bound auto: looking for the scenarios in which {} decides a step otherwise than {}",
            rules.name, against.name
        );
        Sink::say(opts.sink.as_ref(), &text);
    }
    let (game, chosen, mut choice) = exercise::choose(rules, against, false, effort)?;
    if chosen.is_empty() {
        let bound = Bound::preset("default").expect("a preset");
        let system = RepeatSystem::new(rules.clone(), &bound).map_err(Error::scenario)?;
        choice.why = format!(
            "no scenario of the presets {} exercises the change: the default bound",
            choice.presets.join(", ")
        );
        return Ok((system, "auto".into(), Some(choice)));
    }
    Ok((
        RepeatSystem::from_parts(game, chosen),
        "auto".into(),
        Some(choice),
    ))
}

/// The witnesses the run never reached, each with whether `against` (the edit's base) reaches
/// it on the same scenarios: if it does, the edit made it unreachable. A run under `against`
/// that stops (its memory budget) before reaching one leaves that one undecided, said so,
/// never taken for "the base misses it too".
fn witness_misses(
    system: &RepeatSystem,
    result: &CheckResult<RepeatSystem>,
    rules: &Rulebook,
    against: &Rulebook,
    effort: Effort,
) -> Result<Vec<WitnessMiss>, Error> {
    let missed: Vec<&'static str> = result
        .properties
        .iter()
        .filter(|p| p.expectation == Expectation::Sometimes)
        .filter(|p| matches!(p.outcome, Outcome::NeverReached))
        .map(|p| p.name)
        .collect();
    if missed.is_empty() {
        return Ok(vec![]);
    }
    if rules.differing_fields(against).is_empty() {
        return Ok(missed
            .into_iter()
            .map(|name| WitnessMiss {
                name,
                base: BaseRun::Misses,
            })
            .collect());
    }
    let names: Vec<String> = missed.iter().map(|n| n.to_string()).collect();
    let base = RepeatSystem::from_parts(
        model::game::Game::new(against.clone(), system.game.cards.clone()),
        system.scenarios.clone(),
    )
    .select(&names)
    .map_err(Error::Usage)?;
    let r = effort.run(&base)?;
    Ok(missed
        .into_iter()
        .map(|name| WitnessMiss {
            name,
            base: match r.outcome(name) {
                Outcome::Witnessed { .. } => BaseRun::Reaches(against.name.clone()),
                Outcome::NeverReached => BaseRun::Misses,
                _ => BaseRun::Stopped {
                    base: against.name.clone(),
                    why: r.stop_message(),
                },
            },
        })
        .collect())
}

/// For each violated property, up to `n - 1` more counterexamples than its shortest, from
/// other scenarios, shortest first, each taking a sequence of rule steps no earlier one takes.
fn more_counterexamples(
    system: &RepeatSystem,
    result: &CheckResult<RepeatSystem>,
    n: usize,
) -> Result<crate::verdict::MoreCounterexamples, Error> {
    if n <= 1 {
        return Ok(vec![]);
    }
    let inits = checker::Model::init_states(system);
    let signature = |t: &Trace<RepeatSystem>| -> Vec<(&'static str, &'static str)> {
        t.steps
            .iter()
            .map(|s| (Action::name(&s.action), s.action.rule()))
            .collect()
    };
    let mut out = vec![];
    for (p, found) in result.properties.iter().zip(&result.found_in) {
        let Outcome::Violated { trace, .. } = &p.outcome else {
            continue;
        };
        let mut seen = vec![signature(trace)];
        let mut order: Vec<_> = found.iter().collect();
        order.sort_by_key(|f| (f.found.level, f.found.edge, f.init));
        let mut traces = vec![];
        for f in order {
            if traces.len() + 1 >= n {
                break;
            }
            let t = result.replay_finding(system, &inits, p.name, f)?;
            let sig = signature(&t);
            if !seen.contains(&sig) {
                seen.push(sig);
                traces.push(t);
            }
        }
        if !traces.is_empty() {
            out.push((p.name, traces));
        }
    }
    Ok(out)
}

/// The line printed before a search: what is checked, with how many threads and how much
/// memory, so that a long run's progress lines can be read against it.
fn header(system: &RepeatSystem, bound: &str, opts: &CheckOptions) -> String {
    let threads = match opts.threads {
        0 => rayon::current_num_threads(),
        n => n,
    };
    let gib = checker::memory::format_bytes;
    let budget = match opts.memory {
        Some(b) => format!("memory budget {}", gib(b)),
        None => match checker::memory::default_limit_from() {
            Some((b, from)) => format!(
                "memory budget {} ({:.0} % of {from})",
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
        system.game.rules.book().name,
        bound,
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
        system.game.rules.book().name,
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
                "Found by `rbcheck check --rules {}{}`; the property fails at step {} of its trace there.",
                opts.rules,
                match opts.bound.as_str() {
                    "" => String::new(),
                    b => format!(" --bound {b}"),
                },
                actions.len()
            ),
            format!(
                "Scenario: {} ({})",
                system.scenarios[trace.init_index].name,
                system.scenarios[trace.init_index].cite()
            ),
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
