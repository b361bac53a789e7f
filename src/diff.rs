//! `rbcheck diff A B`: what a rulebook edit changes. For every scenario of a bound and every
//! sequence of player decisions, the observable outcome (in the vocabulary of case
//! expectations) under A and under B; differences are grouped into classes by what differs,
//! each with its smallest example as a pair of replayable cases and the rulebook fields that
//! explain it.

use crate::case::ast::{Case, Expect};
use crate::case::from_trace::{case_for_run, complete_run, expectations};
use crate::case::replay::{setup_labels, View};
use crate::error::Error;
use crate::exercise::{self, AutoChoice, Effort, Exercise};
use crate::inputs;
use crate::outdir::{rules_line, OutDir, OutFile};
use model::action::Action;
use model::game::Game;
use model::rulebook::{Rulebook, FIELDS};
use model::setup::Setup;
use model::state::State;
use properties::{Bound, RepeatSystem, Scenario};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

mod human;

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
        Expect::UnitDamage(..)
        | Expect::UnitZone(..)
        | Expect::UnitAt(..)
        | Expect::UnitMight(..)
        | Expect::UnitStunned(..)
        | Expect::UnitReady(..)
        | Expect::UnitAssault(..) => "units",
        Expect::GearZone(..) => "gear",
        Expect::Tokens(..) => "tokens",
        Expect::Pool(..) => "pool",
        Expect::HandSize(..) => "hand-size",
        Expect::Trash(..) => "trash",
        Expect::Deck(..) => "deck",
        Expect::DeckTop(..) => "deck-top",
        Expect::Recycled(..) => "recycled",
        Expect::Hand(..) => "hand",
        Expect::Demands(..) => "demands",
        Expect::RunesExhausted(..) => "runes-exhausted",
        Expect::OptionalPaid(..) => "optional-paid",
        Expect::Entered(..) => "entered",
        Expect::Order(..) => "order",
        Expect::Discarded(..) => "discarded",
        Expect::Runes(..) => "runes",
    }
}

/// What kind of difference a class is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    /// The same decisions, a different outcome in these fields.
    Outcome(BTreeSet<&'static str>),
    /// Decisions one side allows and the other refuses at this step, in the rules' words and
    /// with its rule (side 0 = A allows).
    Refused(u8, Step),
    /// Decisions complete on one side that the other continues with these decisions.
    NeedsMore(u8, BTreeSet<Step>),
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
                format!(
                    "a decision allowed under {y} is refused under {n}: {}",
                    step.phrase()
                )
            }
            Kind::NeedsMore(s, steps) => {
                let (y, n) = yes_no(*s, a, b);
                format!(
                    "a play complete under {y} needs a further decision under {n}: {}",
                    steps
                        .iter()
                        .map(Step::phrase)
                        .collect::<Vec<_>>()
                        .join(" or ")
                )
            }
        }
    }
}

/// A kind of step, as a class names it: the rules' words and the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Step {
    words: &'static str,
    rule: &'static str,
}

impl Step {
    fn of(a: &Action) -> Step {
        Step {
            words: a.words(),
            rule: a.rule(),
        }
    }

    fn phrase(&self) -> String {
        format!("{} ({})", self.words, self.rule)
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
    NeedsMore(BTreeSet<Step>),
}

fn run_decisions(game: &Game, setup: &Setup, decisions: &[Action]) -> Run {
    let Ok(mut s) = game.initial_state(setup) else {
        return Run::Refused(0);
    };
    let mut acts = vec![];
    for (i, d) in decisions.iter().enumerate() {
        advance(game, &mut s, &mut acts);
        if !acts.contains(d) {
            return Run::Refused(i);
        }
        game.step_in_place(&mut s, d);
    }
    advance(game, &mut s, &mut acts);
    if !acts.is_empty() {
        return Run::NeedsMore(acts.iter().map(Step::of).collect());
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

/// One example of a class: the scenario and the decisions (as played on the side that allows
/// them), ordered by size.
#[derive(Clone)]
struct Example {
    size: (usize, usize, usize),
    scenario: usize,
    decisions: Vec<Action>,
    /// Within its scenario, where the play comes in its side's depth-first order (the index of
    /// each decision among those offered): of two examples of one size, the earlier is kept.
    order: Vec<u16>,
}

#[derive(Default)]
struct Class {
    scenarios: BTreeSet<usize>,
    sequences: usize,
    example: Option<Example>,
}

/// Counts `sequences` more decision sequences of a class, keeping the smaller example.
fn note(classes: &mut BTreeMap<Kind, Class>, kind: Kind, ex: Example, sequences: usize) {
    let c = classes.entry(kind).or_default();
    c.scenarios.insert(ex.scenario);
    c.sequences += sequences;
    let smaller = |old: &Example| (&ex.size, &ex.order) < (&old.size, &old.order);
    if c.example.as_ref().is_none_or(smaller) {
        c.example = Some(ex);
    }
}

/// Takes the procedure's forced steps (a single action that is no decision) from `s`, and
/// lists the decisions then offered in `acts`. `false` if a procedure step is offered beside
/// others, where decisions alone no longer name a play.
fn advance(game: &Game, s: &mut State, acts: &mut Vec<Action>) -> bool {
    loop {
        acts.clear();
        game.actions(s, acts);
        match acts.as_slice() {
            [a] if !a.is_decision() => {
                let a = *a;
                game.step_in_place(s, &a);
            }
            _ => return acts.iter().all(Action::is_decision),
        }
    }
}

/// The complete plays of `game` from `s` (every path to a state with no action).
fn count_plays(game: &Game, s: State) -> usize {
    let mut n = 0;
    crate::cases::each_complete_play(game, s, |_| false, |_, _| n += 1);
    n
}

/// One scenario played under A and B with the same decisions, both games driven together
/// depth first: where one side offers a decision the other does not, every complete play
/// below it on that side is a decision sequence the other refuses, counted without being
/// played on the other side; outcomes are read only where both sides end.
struct Joint<'a> {
    games: [&'a Game; 2],
    setup: &'a Setup,
    labels: HashMap<String, model::state::Obj>,
    idx: usize,
    size: usize,
    classes: BTreeMap<Kind, Class>,
    /// The decisions taken so far, and their indices among each side's offers.
    path: Vec<Action>,
    order: [Vec<u16>; 2],
    /// A procedure step was offered beside others somewhere on the common path.
    mixed: bool,
}

impl Joint<'_> {
    fn example(&self, side: usize, extra: Option<(Action, u16)>) -> Example {
        let mut decisions = self.path.clone();
        let mut order = self.order[side].clone();
        if let Some((a, i)) = extra {
            decisions.push(a);
            order.push(i);
        }
        Example {
            size: (decisions.len(), self.size, self.idx),
            scenario: self.idx,
            decisions,
            order,
        }
    }

    fn outcome(&self, side: usize, s: &State) -> Vec<Expect> {
        let view = View {
            game: self.games[side],
            state: s,
            illegal: None,
            labels: &self.labels,
        };
        expectations(&view, self.setup)
    }

    /// Compares the plays below a state of each side reached by the same decisions.
    fn walk(&mut self, mut states: [State; 2]) {
        let mut offers: [Vec<Action>; 2] = [vec![], vec![]];
        for side in 0..2 {
            if !advance(self.games[side], &mut states[side], &mut offers[side]) {
                self.mixed = true;
                return;
            }
        }
        let [sa, sb] = states;
        match (offers[0].is_empty(), offers[1].is_empty()) {
            // An outcome reads the state and the cards, which both sides share: equal states
            // have equal outcomes.
            (true, true) if sa == sb => return,
            (true, true) => {
                let (oa, ob) = (self.outcome(0, &sa), self.outcome(1, &sb));
                if oa != ob {
                    let ex = self.example(0, None);
                    note(
                        &mut self.classes,
                        Kind::Outcome(differing_fields(&oa, &ob)),
                        ex,
                        1,
                    );
                }
                return;
            }
            (true, false) | (false, true) => {
                let done = usize::from(offers[0].is_empty());
                let steps = offers[1 - done].iter().map(Step::of).collect();
                let ex = self.example(done, None);
                note(&mut self.classes, Kind::NeedsMore(done as u8, steps), ex, 1);
            }
            (false, false) => {}
        }
        // What one side offers and the other does not: every play below it is refused there.
        let mut states = [Some(sa), Some(sb)];
        for side in 0..2 {
            for (i, a) in offers[side].iter().enumerate() {
                if offers[1 - side].contains(a) {
                    continue;
                }
                let s = states[side].as_ref().expect("taken only below");
                let n = count_plays(self.games[side], self.games[side].step(s, a));
                let ex = self.example(side, Some((*a, i as u16)));
                note(
                    &mut self.classes,
                    Kind::Refused(side as u8, Step::of(a)),
                    ex,
                    n,
                );
            }
        }
        let common: Vec<(u16, u16, Action)> = offers[0]
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                let j = offers[1].iter().position(|b| b == a)?;
                Some((i as u16, j as u16, *a))
            })
            .collect();
        for (k, &(i, j, a)) in common.iter().enumerate() {
            let last = k + 1 == common.len();
            let mut next = |side: usize| {
                let g = self.games[side];
                match last {
                    true => {
                        let mut s = states[side].take().expect("the last child takes it");
                        g.step_in_place(&mut s, &a);
                        s
                    }
                    false => g.step(states[side].as_ref().expect("kept for the last"), &a),
                }
            };
            let pair = [next(0), next(1)];
            self.path.push(a);
            self.order[0].push(i);
            self.order[1].push(j);
            self.walk(pair);
            self.path.pop();
            self.order[0].pop();
            self.order[1].pop();
            if self.mixed {
                return;
            }
        }
    }
}

/// Every decision sequence of one scenario compared under A and B, grouped into classes. The
/// same decisions are given to both: a sequence that ends on both sides is compared by its
/// outcome (A's sequences only, once); one that a side refuses, or that ends on one side while
/// the other asks for more, is counted for the side that allows it.
fn compare_scenario(ga: &Game, gb: &Game, idx: usize, setup: &Setup) -> BTreeMap<Kind, Class> {
    // Both games share the cards, and a start fails only on a setup that does not fit them:
    // then on both sides, and nothing is compared.
    let (Ok(ia), Ok(ib)) = (ga.initial_state(setup), gb.initial_state(setup)) else {
        return BTreeMap::new();
    };
    let mut joint = Joint {
        games: [ga, gb],
        setup,
        labels: setup_labels(setup),
        idx,
        size: setup.units.len() + setup.gear.len(),
        classes: BTreeMap::new(),
        path: vec![],
        order: [vec![], vec![]],
        mixed: false,
    };
    joint.walk([ia, ib]);
    match joint.mixed {
        false => joint.classes,
        true => compare_by_plays(ga, gb, idx, setup),
    }
}

/// [`compare_scenario`] for a model that offers a procedure step beside decisions, which the
/// joint walk cannot pair: every complete play of each side, each replayed on the other.
fn compare_by_plays(ga: &Game, gb: &Game, idx: usize, setup: &Setup) -> BTreeMap<Kind, Class> {
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
        for (n, (d, o)) in mine.iter().enumerate() {
            let ex = |decisions: Vec<Action>| Example {
                size: (decisions.len(), size, idx),
                scenario: idx,
                decisions,
                order: vec![n as u16],
            };
            match other_map.get(d) {
                Some(theirs) if side == 0 => {
                    if *theirs != o {
                        let kind = Kind::Outcome(differing_fields(o, theirs));
                        note(&mut classes, kind, ex(d.clone()), 1);
                    }
                }
                Some(_) => {}
                None => match run_decisions(other_game, setup, d) {
                    Run::Refused(i) if i < d.len() => {
                        let kind = Kind::Refused(side, Step::of(&d[i]));
                        note(&mut classes, kind, ex(d[..=i].to_vec()), 1);
                    }
                    Run::Refused(_) => {}
                    Run::NeedsMore(steps) => {
                        note(&mut classes, Kind::NeedsMore(side, steps), ex(d.clone()), 1)
                    }
                    Run::Done(theirs) => {
                        if side == 0 && theirs != *o {
                            let kind = Kind::Outcome(differing_fields(o, &theirs));
                            note(&mut classes, kind, ex(d.clone()), 1);
                        }
                    }
                },
            }
        }
    }
    classes
}

/// The first of `scenarios` in which the same decisions give another outcome under `gb` than
/// under `ga`, or decisions one allows the other refuses (both games over the same cards).
pub fn first_difference(ga: &Game, gb: &Game, scenarios: &[Scenario]) -> Option<usize> {
    scenarios
        .iter()
        .position(|s| !compare_scenario(ga, gb, 0, &s.setup).is_empty())
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
