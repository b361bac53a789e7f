//! `rbcheck diff A B`: what a rulebook edit changes. For every scenario of a bound and every
//! sequence of player decisions, the observable outcome (in the vocabulary of case
//! expectations) under A and under B; differences are grouped into classes by what differs,
//! each with its smallest example as a pair of replayable cases and the rulebook fields that
//! explain it.

use crate::cases::{commit_out, prepare_out, rules_line};
use crate::inputs;
use clap::Args;
use model::action::Action;
use model::game::Game;
use model::rulebook::{Rulebook, FIELDS};
use model::setup::Setup;
use model::state::State;
use properties::{Bound, RepeatSystem};
use rayon::prelude::*;
use rbcheck::case::ast::{Case, Expect};
use rbcheck::case::from_trace::{case_for_run, complete_run, expectations};
use rbcheck::case::replay::{setup_labels, View};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `rbcheck diff`.
#[derive(Args)]
pub struct DiffArgs {
    /// The first rulebook: a preset (v1.2, v1.3, rup4, guide) or a rulebook file.
    pub a: String,
    /// The second rulebook.
    pub b: String,
    /// Bound: a preset (tiny, default, large) or a bound file.
    #[arg(long, default_value = "tiny")]
    pub bound: String,
    /// Write each class's smallest example as a pair of cases (and a README) into this folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON object instead of the human report.
    #[arg(long)]
    pub json: bool,
}

/// The field of an expectation, for saying what differs.
fn field(e: &Expect) -> &'static str {
    match e {
        Expect::Legal | Expect::Illegal { .. } => "legality",
        Expect::Cancelled(..) => "cancelled",
        Expect::Paid(..) => "paid",
        Expect::RepeatPaid(..) => "repeat-paid",
        Expect::Executions(..) => "executions",
        Expect::PlayEvents(..) => "play-events",
        Expect::Performed(..) | Expect::Ignored(..) => "instructions",
        Expect::Countered(..) | Expect::NotCountered(..) => "countered",
        Expect::Triggered(..) => "triggered",
        Expect::Finalized(..) => "finalized",
        Expect::UnitDamage(..) | Expect::UnitZone(..) | Expect::UnitAt(..) => "units",
        Expect::GearZone(..) => "gear",
        Expect::Tokens(..) => "tokens",
        Expect::Pool(..) => "pool",
        Expect::HandSize(..) => "hand-size",
        Expect::Trash(..) => "trash",
        Expect::Deck(..) => "deck",
    }
}

/// What kind of difference a class is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    /// The same decisions, a different outcome in these fields.
    Outcome(BTreeSet<&'static str>),
    /// Decisions one side allows and the other refuses at this step (side 0 = A allows).
    Refused(u8, &'static str),
    /// Decisions complete on one side that the other continues with these decisions.
    NeedsMore(u8, BTreeSet<&'static str>),
}

impl Kind {
    fn describe(&self, a: &str, b: &str) -> String {
        match self {
            Kind::Outcome(f) => format!(
                "same decisions, different outcome: {}",
                f.iter().copied().collect::<Vec<_>>().join(", ")
            ),
            Kind::Refused(s, step) => {
                let (y, n) = yes_no(*s, a, b);
                format!("a {step} decision allowed under {y} is refused under {n}")
            }
            Kind::NeedsMore(s, steps) => {
                let (y, n) = yes_no(*s, a, b);
                format!(
                    "a play complete under {y} needs a further decision under {n} ({})",
                    steps.iter().copied().collect::<Vec<_>>().join(" or ")
                )
            }
        }
    }
}

fn yes_no<'a>(side: u8, a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    if side == 0 {
        (a, b)
    } else {
        (b, a)
    }
}

/// Every complete play of a scenario: its decisions and its outcome.
fn plays(game: &Game, setup: &Setup) -> Vec<(Vec<Action>, Vec<Expect>)> {
    let Ok(init) = game.initial_state(setup) else {
        return vec![];
    };
    let labels = setup_labels(setup);
    let mut out = vec![];
    crate::cases::each_complete_play(game, init, Action::is_decision, |s, path| {
        let view = View {
            game,
            state: s,
            illegal: None,
            labels: &labels,
        };
        out.push((path, expectations(&view, setup)));
    });
    out
}

/// How a decision sequence goes under a game: its outcome, the index of the first decision it
/// refuses, or the decisions it still needs at the end.
enum Run {
    Done(Vec<Expect>),
    Refused(usize),
    NeedsMore(BTreeSet<&'static str>),
}

fn run_decisions(game: &Game, setup: &Setup, decisions: &[Action]) -> Run {
    let Ok(mut s) = game.initial_state(setup) else {
        return Run::Refused(0);
    };
    let mut acts = vec![];
    let advance = |s: &mut State, acts: &mut Vec<Action>| loop {
        acts.clear();
        game.actions(s, acts);
        if acts.len() == 1 && !acts[0].is_decision() {
            *s = game.step(s, &acts[0]);
        } else {
            return;
        }
    };
    for (i, d) in decisions.iter().enumerate() {
        advance(&mut s, &mut acts);
        if !acts.contains(d) {
            return Run::Refused(i);
        }
        s = game.step(&s, d);
    }
    advance(&mut s, &mut acts);
    if !acts.is_empty() {
        return Run::NeedsMore(acts.iter().map(|a| a.name()).collect());
    }
    let labels = setup_labels(setup);
    Run::Done(expectations(
        &View {
            game,
            state: &s,
            illegal: None,
            labels: &labels,
        },
        setup,
    ))
}

fn differing_fields(a: &[Expect], b: &[Expect]) -> BTreeSet<&'static str> {
    let mut fa: BTreeMap<&str, Vec<&Expect>> = BTreeMap::new();
    let mut fb: BTreeMap<&str, Vec<&Expect>> = BTreeMap::new();
    for e in a {
        fa.entry(field(e)).or_default().push(e);
    }
    for e in b {
        fb.entry(field(e)).or_default().push(e);
    }
    fa.keys()
        .chain(fb.keys())
        .copied()
        .filter(|k| fa.get(k) != fb.get(k))
        .collect()
}

/// One example of a class: the scenario and the decisions (as played on the side that allows them).
#[derive(Clone)]
struct Example {
    size: (usize, usize, usize),
    scenario: usize,
    decisions: Vec<Action>,
    side: u8,
}

#[derive(Default)]
struct Class {
    scenarios: BTreeSet<usize>,
    sequences: usize,
    example: Option<Example>,
}

fn note(classes: &mut BTreeMap<Kind, Class>, kind: Kind, ex: Example) {
    let c = classes.entry(kind).or_default();
    c.scenarios.insert(ex.scenario);
    c.sequences += 1;
    if c.example.as_ref().is_none_or(|e| ex.size < e.size) {
        c.example = Some(ex);
    }
}

fn compare_scenario(ga: &Game, gb: &Game, idx: usize, setup: &Setup) -> BTreeMap<Kind, Class> {
    let mut classes = BTreeMap::new();
    let size = setup.units.len() + setup.gear.len();
    let pa = plays(ga, setup);
    let pb = plays(gb, setup);
    let in_b: HashMap<&Vec<Action>, &Vec<Expect>> = pb.iter().map(|(d, o)| (d, o)).collect();
    let in_a: HashMap<&Vec<Action>, &Vec<Expect>> = pa.iter().map(|(d, o)| (d, o)).collect();
    for (side, (mine, other_map, other_game)) in
        [(&pa, &in_b, gb), (&pb, &in_a, ga)].into_iter().enumerate()
    {
        let side = side as u8;
        for (d, o) in mine.iter() {
            let ex = |decisions: Vec<Action>| Example {
                size: (decisions.len(), size, idx),
                scenario: idx,
                decisions,
                side,
            };
            match other_map.get(d) {
                Some(theirs) if side == 0 => {
                    if *theirs != o {
                        note(
                            &mut classes,
                            Kind::Outcome(differing_fields(o, theirs)),
                            ex(d.clone()),
                        );
                    }
                }
                Some(_) => {}
                None => match run_decisions(other_game, setup, d) {
                    Run::Refused(i) => {
                        let step = d[i].name();
                        note(
                            &mut classes,
                            Kind::Refused(side, step),
                            ex(d[..=i].to_vec()),
                        );
                    }
                    Run::NeedsMore(steps) => {
                        note(&mut classes, Kind::NeedsMore(side, steps), ex(d.clone()))
                    }
                    Run::Done(theirs) => {
                        if side == 0 && theirs != *o {
                            note(
                                &mut classes,
                                Kind::Outcome(differing_fields(o, &theirs)),
                                ex(d.clone()),
                            );
                        }
                    }
                },
            }
        }
    }
    classes
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

/// Runs `rbcheck diff`.
pub fn run(args: &DiffArgs) -> Result<ExitCode, String> {
    let ra = inputs::rulebook(&args.a)?;
    let rb = inputs::rulebook(&args.b)?;
    let bound: Bound = inputs::bound(&args.bound)?;
    let mut guard = args.out.as_deref().map(prepare_out).transpose()?;
    // Every scenario: one rulebook may allow a play that the other refuses from the start.
    let sa = RepeatSystem::every_scenario(ra.clone(), &bound)?;
    let gb = Game::new(rb.clone(), sa.game.cards.clone());
    let ga = &sa.game;
    let merged: BTreeMap<Kind, Class> = sa
        .scenarios
        .par_iter()
        .enumerate()
        .map(|(i, sc)| compare_scenario(ga, &gb, i, &sc.setup))
        .reduce(BTreeMap::new, |mut x, y| {
            for (k, c) in y {
                let e = x.entry(k).or_default();
                e.scenarios.extend(c.scenarios);
                e.sequences += c.sequences;
                if let Some(ex) = c.example {
                    if e.example.as_ref().is_none_or(|old| ex.size < old.size) {
                        e.example = Some(ex);
                    }
                }
            }
            x
        });
    let fields = ra.differing_fields(&rb);
    let (name_a, name_b) = (ra.name.clone(), rb.name.clone());
    let mut report = vec![];
    let mut files = vec![];
    for (n, (kind, class)) in merged.iter().enumerate() {
        let ex = class.example.as_ref().expect("a class has an example");
        let setup = &sa.scenarios[ex.scenario].setup;
        // The fields that explain it: set alone to B's value in A, they change this example.
        let base = outcome_of(ga, setup, &ex.decisions);
        let target = outcome_of(&gb, setup, &ex.decisions);
        let explained: Vec<&str> = fields
            .iter()
            .copied()
            .filter(|f| {
                with_field(&ra, &rb, f).is_some_and(|r| {
                    let g = Game::new(r, sa.game.cards.clone());
                    let o = outcome_of(&g, setup, &ex.decisions);
                    o != base || o == target
                })
            })
            .collect();
        let mut case_files = vec![];
        if let Some(out) = &args.out {
            let slug = format!("{:02}", n + 1);
            for (side, (game, rules_arg, name)) in [(ga, &args.a, &name_a), (&gb, &args.b, &name_b)]
                .into_iter()
                .enumerate()
            {
                let header = vec![
                    format!("rbcheck diff {} {} --bound {}: class {} of {}.", args.a, args.b, bound.name, n + 1, merged.len()),
                    kind.describe(&name_a, &name_b),
                    format!("Explained by: {}.", explain_fields(&explained)),
                    format!("Scenario: {}", sa.scenarios[ex.scenario].name),
                    format!("This file: the plays under {name}; the other file of the pair: the same plays under the other rulebook."),
                ];
                let case = example_case(
                    game,
                    &rules_line(rules_arg, out),
                    setup,
                    &ex.decisions,
                    header,
                    out,
                )?;
                let file = format!("{slug}-{}.case", sanitize(name));
                files.push((file.clone(), rbcheck::case::print(&case)));
                case_files.push(file);
                let _ = side;
            }
        }
        report.push((
            kind.clone(),
            class.scenarios.len(),
            class.sequences,
            explained,
            case_files,
            ex.side,
        ));
    }
    let human = human(
        args,
        &bound,
        sa.scenarios.len(),
        &fields,
        &name_a,
        &name_b,
        &report,
    );
    if args.out.is_some() {
        files.push((
            "README.md".into(),
            format!(
                "# `rbcheck diff {} {} --bound {}`\n\n```\n{human}```\n",
                args.a, args.b, bound.name
            ),
        ));
        if let Some(g) = guard.as_mut() {
            commit_out(g, &files)?;
        }
    }
    if args.json {
        let classes: Vec<_> = report
            .iter()
            .map(|(kind, scenarios, sequences, explained, cases, _)| {
                json!({
                    "what": kind.describe(&name_a, &name_b),
                    "scenarios": scenarios,
                    "sequences": sequences,
                    "explained_by": explained,
                    "cases": cases,
                })
            })
            .collect();
        println!(
            "{}",
            json!({ "a": name_a, "b": name_b, "bound": bound.name, "scenarios": sa.scenarios.len(), "fields": fields, "classes": classes })
        );
    } else {
        print!("{human}");
    }
    Ok(if report.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
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

type Row = (Kind, usize, usize, Vec<&'static str>, Vec<String>, u8);

fn human(
    args: &DiffArgs,
    bound: &Bound,
    scenarios: usize,
    fields: &[&str],
    a: &str,
    b: &str,
    report: &[Row],
) -> String {
    let mut o = format!(
        "rbcheck diff: {a} -> {b} | bound {} ({scenarios} scenarios)\n",
        bound.name
    );
    if fields.is_empty() {
        o.push_str("the rulebooks have the same fields\n");
    } else {
        o.push_str(&format!("fields that differ: {}\n", explain_fields(fields)));
    }
    if report.is_empty() {
        o.push_str("no observable difference in this bound\n");
        return o;
    }
    o.push_str(&format!(
        "{} class(es) of observable difference:\n",
        report.len()
    ));
    for (n, (kind, sc, seq, explained, cases, _)) in report.iter().enumerate() {
        o.push_str(&format!(
            "{:>3}. {}\n     {sc} scenario(s), {seq} decision sequence(s); explained by {}\n",
            n + 1,
            kind.describe(a, b),
            explain_fields(explained)
        ));
        if !cases.is_empty() {
            let dir = args
                .out
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            o.push_str(&format!(
                "     smallest example: {dir}/{} and {dir}/{}\n",
                cases[0], cases[1]
            ));
        }
    }
    o
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
    dir: &std::path::Path,
) -> Result<Case, String> {
    let mut s = game.initial_state(setup)?;
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
                return case_for_run(game, rules, setup, &run, header, Some(dir));
            }
            break;
        }
        let next = game.step(&s, d);
        run.push((s, *d));
        s = next;
    }
    let run = complete_run(game, run, s);
    case_for_run(game, rules, setup, &run, header, Some(dir))
}
