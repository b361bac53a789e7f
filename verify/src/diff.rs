//! `rbcheck diff A B`: what a rulebook edit changes. For every scenario of a bound and every
//! sequence of player decisions, the observable outcome (in the vocabulary of case
//! expectations) under A and under B; differences are grouped into classes by what differs,
//! each with its smallest example as a pair of replayable cases and the rulebook fields that
//! explain it.

use crate::case::ast::Case;
use crate::case::from_trace::{case_for_run, complete_run};
use crate::error::Error;
use crate::exercise::{self, AutoChoice, Effort, Exercise};
use crate::inputs;
use crate::outdir::{rules_line, OutDir, OutFile};
use model::action::Action;
use model::game::Game;
use model::rulebook::{Rulebook, FIELDS};
use model::setup::Setup;
use properties::{Bound, RepeatSystem};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod compare;
mod human;

pub use compare::first_difference;
use compare::{compare_scenario, run_decisions, Class, Kind, Run};

/// What `rbcheck diff` is asked for.
#[derive(Clone, Debug)]
pub struct DiffOptions {
    /// The first rulebook: a preset or a rulebook file.
    pub a: String,
    /// The second rulebook.
    pub b: String,
    /// Bound: a preset, a bound file, or `auto` (also when empty): the scenarios of every
    /// preset but `large` in which A decides a step otherwise than B.
    pub bound: String,
    /// Write each class's smallest example as a pair of cases (and a README) into this folder.
    pub out: Option<PathBuf>,
    /// Build each class's pair of cases even without `out` (for `--html`).
    pub pairs: bool,
    /// Counts the scenarios compared, for a progress line.
    pub progress: Option<std::sync::Arc<crate::progress::Counter>>,
}

// The JSON structs list their fields in alphabetical order, the order the report has always
// had (serde_json's maps are sorted).

/// The `format` of [`DiffReport`]'s JSON: its kind and version (schema/report.schema.json).
pub const DIFF_FORMAT: &str = "rbcheck-diff/1";

/// The differences between two rulebooks over a bound (the JSON report of `rbcheck diff`).
#[derive(Clone, Debug, Serialize)]
pub struct DiffReport {
    /// The first rulebook's name.
    pub a: String,
    /// The second rulebook's name.
    pub b: String,
    /// The bound's name.
    pub bound: String,
    /// The classes of observable difference.
    pub classes: Vec<DiffClass>,
    /// The rulebook fields whose values differ.
    pub fields: Vec<&'static str>,
    /// [`DIFF_FORMAT`].
    pub format: &'static str,
    /// The scenarios compared.
    pub scenarios: usize,
    /// How `--bound auto` chose its scenarios; null for a named bound.
    pub auto: Option<AutoChoice>,
    /// Each field that differs, and where (under A) its value decided a step.
    pub exercised: Exercise,
    /// `differ`, `same` (no observable difference, every differing field exercised) or
    /// `not_exercised` (no difference seen, but some differing field decided no step).
    pub verdict: &'static str,
    /// The folder the examples were written to.
    #[serde(skip)]
    pub out: Option<PathBuf>,
}

/// One class of observable difference.
#[derive(Clone, Debug, Serialize)]
pub struct DiffClass {
    /// The example's pair of case files (under `--out`), A's first.
    pub cases: Vec<String>,
    /// The fields that, set alone to B's value in A, change the smallest example.
    pub explained_by: Vec<&'static str>,
    /// The scenarios in which it happens.
    pub scenarios: usize,
    /// The decision sequences that show it.
    pub sequences: usize,
    /// `sequences` is a lower bound: in some scenario there were too many to count.
    pub sequences_at_least: bool,
    /// What differs, in words.
    pub what: String,
    /// The example's pair of cases as text, each with its rulebook's name, A's first (built
    /// with `out` or `pairs`, else empty).
    #[serde(skip)]
    pub pair: Vec<(String, String)>,
}

impl DiffReport {
    /// Whether the rulebooks differ observably in the bound (exit code 1).
    pub fn differs(&self) -> bool {
        !self.classes.is_empty()
    }

    /// The verdict's word: `differ`, `same` or `not_exercised`.
    fn judge(&self) -> &'static str {
        if self.differs() {
            "differ"
        } else if self.exercised.unexercised().is_empty() {
            "same"
        } else {
            "not_exercised"
        }
    }

    /// The exit code: 1 if they differ, 3 if no difference was seen but some differing field
    /// decided no step in the bound, else 0.
    pub fn exit_code(&self) -> u8 {
        match self.verdict {
            "differ" => 1,
            "not_exercised" => crate::verdict::NOT_EXERCISED_EXIT,
            _ => 0,
        }
    }
}

/// The rulebook A with one field set to B's value.
fn with_field(a: &Rulebook, b: &Rulebook, f: &str) -> Option<Rulebook> {
    let mut ta = toml::Table::try_from(a).ok()?;
    let tb = toml::Table::try_from(b).ok()?;
    ta.insert(f.to_string(), tb.get(f)?.clone());
    serde::Deserialize::deserialize(ta).ok()
}

fn outcome_of(game: &Game, setup: &Setup, decisions: &[Action]) -> String {
    match run_decisions(game, setup, decisions) {
        Run::Done(o) => format!("{o:?}"),
        Run::Refused(i) => format!("refused at {i}"),
        Run::NeedsMore(s) => format!("needs {s:?}"),
    }
}

/// The scenarios a diff compares, under A: the bound's, every one (one rulebook may allow a play
/// that the other refuses from the start), or those `auto` chose.
fn diff_scenarios(
    ra: &Rulebook,
    rb: &Rulebook,
    bound: &str,
) -> Result<(RepeatSystem, String, Option<AutoChoice>), Error> {
    if !matches!(bound, "" | "auto") {
        let bound: Bound = inputs::bound(bound)?;
        let sa = RepeatSystem::every_scenario(ra.clone(), &bound).map_err(Error::scenario)?;
        return Ok((sa, bound.name, None));
    }
    let (game, scenarios, choice) = exercise::choose(ra, rb, true, Effort::default())?;
    Ok((
        RepeatSystem::from_parts(game, scenarios),
        "auto".into(),
        Some(choice),
    ))
}

/// Where each field in which A differs from B decided a step, over the scenarios of `sa`
/// (its playable ones searched, the others' starts compared).
fn diff_exercise(sa: &RepeatSystem, ra: &Rulebook, rb: &Rulebook) -> Result<Exercise, Error> {
    let probes = exercise::probes_for(ra, rb, &sa.game);
    if probes.is_empty() {
        return Ok(Exercise::default());
    }
    let (playable, unplayable): (Vec<_>, Vec<_>) = sa
        .scenarios
        .iter()
        .cloned()
        .partition(|s| s.origin.is_some());
    let mut fields = match playable.is_empty() {
        true => {
            let mut sys = RepeatSystem::from_parts(sa.game.clone(), vec![]).with_probes(probes);
            sys.unplayable = unplayable;
            exercise::split_nothing_searched(&sys)
        }
        false => {
            let mut sys = RepeatSystem::from_parts(sa.game.clone(), playable)
                .with_probes(probes)
                .probes_only();
            sys.unplayable = unplayable;
            let mut result = Effort::default().run(&sys)?;
            exercise::split(&sys, &mut result)
        }
    };
    exercise::fill_elsewhere(&mut fields, ra, rb, Effort::default())?;
    Ok(Exercise {
        against: rb.name.clone(),
        fields,
    })
}

/// Compares two rulebooks over a bound; with `out` (the `--out` folder, prepared by the command
/// with its other outputs: `outdir::prepare`), writes each class's smallest example.
pub fn diff(opts: &DiffOptions, out: Option<OutDir>) -> Result<DiffRun, Error> {
    let ra = inputs::rulebook(&opts.a)?;
    let rb = inputs::rulebook(&opts.b)?;
    let guard = out;
    let (sa, bound_name, auto) = diff_scenarios(&ra, &rb, &opts.bound)?;
    let exercised = diff_exercise(&sa, &ra, &rb)?;
    let gb = Game::new(rb.clone(), sa.game.cards.clone());
    let progress = opts.progress.as_deref();
    if let Some(p) = progress {
        p.set_total(sa.scenarios.len());
    }
    let merged = compare_all(&sa, &gb, progress);
    let mut report = DiffReport {
        a: ra.name.clone(),
        b: rb.name.clone(),
        bound: bound_name.clone(),
        classes: vec![],
        fields: ra.differing_fields(&rb),
        format: DIFF_FORMAT,
        scenarios: sa.scenarios.len(),
        auto,
        exercised,
        verdict: "",
        out: opts.out.clone(),
    };
    let mut files = vec![];
    for (n, (kind, class)) in merged.iter().enumerate() {
        let ex = class.example.as_ref().expect("a class has an example");
        let setup = &sa.scenarios[ex.scenario].setup;
        let games = (&sa.game, &gb);
        let explained = explaining_fields(&ra, &rb, &report.fields, games, setup, &ex.decisions);
        let what = kind.describe(&report.a, &report.b);
        let mut cases = vec![];
        let mut pair = vec![];
        if guard.is_some() || opts.pairs {
            let header = |name: &str| {
                vec![
                    format!("rbcheck diff {} {} --bound {}: class {} of {}.", opts.a, opts.b, bound_name, n + 1, merged.len()),
                    what.clone(),
                    format!("Explained by: {}.", explain_fields(&explained)),
                    format!("Scenario: {} ({})", sa.scenarios[ex.scenario].name, sa.scenarios[ex.scenario].cite()),
                    format!("This file: the plays under {name}; the other file of the pair: the same plays under the other rulebook."),
                ]
            };
            for (game, rules_arg, name) in
                [(&sa.game, &opts.a, &report.a), (&gb, &opts.b, &report.b)]
            {
                // Without a folder the rules line is the argument as given, relative to here.
                let (rules, dir) = match &guard {
                    Some(out) => (rules_line(rules_arg, out), Some(out.stage())),
                    None => (rules_arg.clone(), None),
                };
                let case = example_case(game, &rules, setup, &ex.decisions, header(name), dir)?;
                let text = crate::case::print(&case);
                pair.push((name.clone(), text.clone()));
                if guard.is_some() {
                    let file = format!("{:02}-{}.case", n + 1, sanitize(name));
                    files.push((file.clone(), text));
                    cases.push(file);
                }
            }
        }
        report.classes.push(DiffClass {
            cases,
            explained_by: explained,
            scenarios: class.scenarios.len(),
            sequences: class.sequences,
            sequences_at_least: class.more,
            what,
            pair,
        });
    }
    report.verdict = report.judge();
    let title = format!(
        "rbcheck diff {} {} --bound {}",
        opts.a, opts.b, report.bound
    );
    Ok(DiffRun {
        report,
        out: guard.map(|g| (g, files, title)),
    })
}

/// A finished `rbcheck diff`: the report, and the `--out` folder (checked and staged) still to
/// be written by [`DiffRun::write_out`], after the report is printed.
pub struct DiffRun {
    /// What differs.
    pub report: DiffReport,
    /// The folder, its example cases and the README's title.
    out: Option<(OutDir, Vec<OutFile>, String)>,
}

impl DiffRun {
    /// Writes the example cases and a README holding the human report (nothing without
    /// `--out`).
    pub fn write_out(&mut self) -> Result<(), Error> {
        if let Some((mut guard, files, title)) = self.out.take() {
            write_out(&mut guard, files, &self.report, &title)?;
        }
        Ok(())
    }
}

/// Every scenario compared under A (`sa`'s game) and B, the classes merged.
fn compare_all(
    sa: &RepeatSystem,
    gb: &Game,
    progress: Option<&crate::progress::Counter>,
) -> BTreeMap<Kind, Class> {
    sa.scenarios
        .par_iter()
        .enumerate()
        .map(|(i, sc)| {
            let classes = compare_scenario(&sa.game, gb, i, &sc.setup);
            progress.inspect(|p| p.tick());
            classes
        })
        .reduce(BTreeMap::new, |mut x, y| {
            for (k, c) in y {
                let e = x.entry(k).or_default();
                e.scenarios.extend(c.scenarios);
                e.sequences += c.sequences;
                e.more |= c.more;
                if let Some(ex) = c.example {
                    if e.example.as_ref().is_none_or(|old| ex.size < old.size) {
                        e.example = Some(ex);
                    }
                }
            }
            x
        })
}

/// The fields that explain an example: set alone to B's value in A, they change its outcome.
fn explaining_fields(
    ra: &Rulebook,
    rb: &Rulebook,
    fields: &[&'static str],
    (ga, gb): (&Game, &Game),
    setup: &Setup,
    decisions: &[Action],
) -> Vec<&'static str> {
    let base = outcome_of(ga, setup, decisions);
    let target = outcome_of(gb, setup, decisions);
    fields
        .iter()
        .copied()
        .filter(|f| {
            with_field(ra, rb, f).is_some_and(|r| {
                let g = Game::new(r, ga.cards.clone());
                let o = outcome_of(&g, setup, decisions);
                o != base || o == target
            })
        })
        .collect()
}

/// Writes the example cases and a README holding the human report.
fn write_out(
    guard: &mut OutDir,
    mut files: Vec<OutFile>,
    report: &DiffReport,
    title: &str,
) -> Result<(), Error> {
    files.push((
        "README.md".into(),
        format!("# `{title}`\n\n```\n{}```\n", report.human()),
    ));
    guard.commit(&files)?;
    Ok(())
}

fn explain_fields(f: &[&str]) -> String {
    if f.is_empty() {
        return "no single field (a combination of the fields that differ)".into();
    }
    f.iter()
        .map(|n| {
            let rule = FIELDS
                .iter()
                .find(|d| d.name == *n)
                .map(|d| d.rule)
                .unwrap_or("");
            format!("{n} ({rule})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// A case of the example's decisions under one game, with that game's outcome as expectations.
/// A refused decision is written and becomes `expect illegal line N rule R`, except a refused
/// new-choice step, which a case cannot state on its own: there the case stops before it and
/// continues as this game does.
fn example_case(
    game: &Game,
    rules: &str,
    setup: &Setup,
    decisions: &[Action],
    header: Vec<String>,
    dir: Option<&Path>,
) -> Result<Case, Error> {
    let mut s = game.initial_state(setup).map_err(Error::case)?;
    let mut run = vec![];
    let mut acts = vec![];
    for d in decisions {
        loop {
            acts.clear();
            game.actions(&s, &mut acts);
            if acts.len() == 1 && !acts[0].is_decision() {
                let next = game.step(&s, &acts[0]);
                run.push((s, acts[0]));
                s = next;
            } else {
                break;
            }
        }
        if !acts.contains(d) {
            let writable = !matches!(
                d,
                Action::Pass
                    | Action::KeepChoice
                    | Action::RemakeChoice { .. }
                    | Action::DeclineNewChoices
                    | Action::ReopenRepeat { .. }
            );
            if writable {
                run.push((s.clone(), *d));
                run.push((s, Action::Pass));
                return case_for_run(game, rules, setup, &run, header, dir).map_err(Error::case);
            }
            break;
        }
        let next = game.step(&s, d);
        run.push((s, *d));
        s = next;
    }
    let run = complete_run(game, run, s);
    case_for_run(game, rules, setup, &run, header, dir).map_err(Error::case)
}
