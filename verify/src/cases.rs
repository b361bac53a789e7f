//! `rbcheck cases` and `check --cases`: writing runs of the model as case files. A conformance
//! suite has one case per observable behaviour class of a bound, the smallest found.

use crate::case::from_trace::{case_for_run, complete_run};
use crate::case::Case;
use crate::error::Error;
use crate::inputs;
use crate::outdir::{rules_line, OutFile, Target};
use crate::progress::Counter;
use model::action::Action;
use model::game::Game;
use model::state::{Event, State};
use properties::{RepeatSystem, Scenario};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;

/// What `rbcheck cases` is asked for.
#[derive(Clone, Copy, Debug)]
pub struct SuiteOptions<'a> {
    /// Rulebook: a preset or a rulebook file.
    pub rules: &'a str,
    /// Bound: a preset or a bound file.
    pub bound: &'a str,
    /// The folder to write (it must not exist, or be empty).
    pub out: &'a Path,
    /// Replace the folder if an earlier run wrote it (`--force`).
    pub force: bool,
    /// Counts the scenarios explored, for a progress line.
    pub progress: Option<&'a Counter>,
}

/// The `format` of [`Suite`] as `rbcheck cases --json` prints it.
pub const CASES_FORMAT: &str = "rbcheck-cases/1";

/// A conformance suite written (`rbcheck cases --json` prints it).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Suite {
    /// Always [`CASES_FORMAT`].
    pub format: &'static str,
    /// The bound's name.
    pub bound: String,
    /// The rulebook, as given.
    pub rules: String,
    /// The behaviour classes found.
    pub classes: usize,
    /// The case files written (one per class).
    pub written: usize,
    /// Each case written, in file order (the folder's INDEX.md lists the same).
    pub cases: Vec<SuiteCase>,
}

/// One case of a conformance suite.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SuiteCase {
    /// Its file name in the folder.
    pub file: String,
    /// Its behaviour class in a few words (the file name's last part).
    pub class: String,
    /// The scenario its play starts from.
    pub scenario: String,
}

/// What a behaviour class is made of: the abstract course of the play, without object identities.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Sig {
    Card(String),
    Repeat(u8, u8, bool),
    Mode(u8, u8, u8),
    Performed(u8, u8, u8),
    Ignored(u8, u8, u8, String),
    Countered(u8),
    Cancelled(u8, String),
    Remade(u8, u8),
    Kept(u8),
    Played(u8),
    Triggered(String),
    Deflect(u8),
    Discount(u8, String),
    LeftChain(u8),
}

fn signature(game: &Game, s: &State) -> Vec<Sig> {
    s.log
        .iter()
        .filter_map(|e| {
            Some(match *e {
                Event::MovedToChain { card, .. } => Sig::Card(game.card(card).name.clone()),
                Event::RepeatDeclared {
                    item,
                    instance,
                    pay,
                } => Sig::Repeat(item, instance, pay),
                Event::ModeChosen { item, exec, mode } => Sig::Mode(item, exec, mode),
                Event::Performed {
                    item, exec, slot, ..
                } => Sig::Performed(item, exec, slot),
                Event::Ignored {
                    item,
                    exec,
                    slot,
                    why,
                } => Sig::Ignored(item, exec, slot, format!("{why:?}")),
                Event::Countered { item, .. } => Sig::Countered(item),
                Event::PlayCancelled { item, why } => Sig::Cancelled(item, format!("{why:?}")),
                Event::ChoiceRemade { item, exec, .. } => Sig::Remade(item, exec),
                Event::ChoiceKept { item, .. } => Sig::Kept(item),
                Event::Played { item, .. } => Sig::Played(item),
                Event::Triggered { card, .. } => Sig::Triggered(game.card(card).name.clone()),
                Event::DeflectAdded { item, .. } => Sig::Deflect(item),
                Event::DiscountApplied { item, source, .. } => {
                    Sig::Discount(item, format!("{source:?}"))
                }
                Event::LeftChain { item } => Sig::LeftChain(item),
                _ => return None,
            })
        })
        .collect()
}

/// The smallest run found for a class: (decisions, board size, scenario index, actions).
type Best = (usize, usize, usize, Vec<Action>);

/// Every complete play of one scenario, keeping the smallest run of each class.
fn explore(game: &Game, idx: usize, sc: &Scenario, classes: &mut HashMap<Vec<Sig>, Best>) {
    let Ok(init) = game.initial_state(&sc.setup) else {
        return;
    };
    let size = sc.setup.units.len() + sc.setup.gear.len();
    each_complete_play(
        game,
        init,
        |_| true,
        |s, path| {
            let key = (path.iter().filter(|a| a.is_decision()).count(), size, idx);
            let sig = signature(game, s);
            match classes.get(&sig) {
                Some(b) if (b.0, b.1, b.2) <= key => {}
                _ => {
                    classes.insert(sig, (key.0, key.1, key.2, path));
                }
            }
        },
    );
}

/// Calls `visit` with the final state of every complete play from `init`, depth first in
/// action order, and the actions of the play that `keep` selects.
pub fn each_complete_play(
    game: &Game,
    init: State,
    keep: impl Fn(&Action) -> bool,
    mut visit: impl FnMut(&State, Vec<Action>),
) {
    let mut stack: Vec<(State, Vec<Action>)> = vec![(init, vec![])];
    let mut acts = vec![];
    while let Some((mut s, mut path)) = stack.pop() {
        acts.clear();
        game.actions(&s, &mut acts);
        let Some((&first, rest)) = acts.split_first() else {
            visit(&s, path);
            continue;
        };
        for a in rest.iter().rev() {
            let mut p = path.clone();
            if keep(a) {
                p.push(*a);
            }
            stack.push((game.step(&s, a), p));
        }
        // The first action, explored next, takes the state itself: a forced step (the only
        // action) copies nothing.
        if keep(&first) {
            path.push(first);
        }
        game.step_in_place(&mut s, &first);
        stack.push((s, path));
    }
}

/// Writes the conformance suite of a bound: one case per behaviour class, the smallest run.
pub fn write_suite(opts: &SuiteOptions) -> Result<Suite, Error> {
    let rules = inputs::rulebook(opts.rules)?;
    let bound = inputs::bound(opts.bound)?;
    let mut guard =
        crate::outdir::prepare(&[Target::folder("--out", Some(opts.out)).replacing(opts.force)])?
            .folder("--out")
            .expect("the target was given");
    let rules_line = rules_line(opts.rules, &guard);
    let system = RepeatSystem::new(rules, &bound).map_err(Error::scenario)?;
    let game = &system.game;
    let classes = classes(&system, opts.progress);
    let mut files: Vec<OutFile> = vec![];
    let mut cases = vec![];
    let mut index = vec![
        format!("# Conformance suite: bound `{}` under `{}`", bound.name, opts.rules),
        String::new(),
        format!("One case per behaviour class ({}), the smallest play of each: the file, the class in a few words, its scenario, and what the class does (the case's expectations, the model's).", classes.len()),
        String::new(),
        "| file | class | scenario | what happens |".to_string(),
        "|---|---|---|---|".to_string(),
    ];
    if let Some(p) = opts.progress {
        p.start_phase(crate::progress::Phase::CasesMade, classes.len());
    }
    for (n, (sig, (_, _, idx, path))) in classes.iter().enumerate() {
        if let Some(p) = opts.progress {
            p.tick();
        }
        let sc = &system.scenarios[*idx];
        let class = class_words(sig);
        let header = vec![
            format!("Conformance case {} of {} for bound `{}` under `{}`: the smallest play of its behaviour class.", n + 1, classes.len(), bound.name, opts.rules),
            format!("Scenario: {}", sc.name),
            format!("Class: {class}"),
            "Generated by `rbcheck cases`; the expectations are the model's.".to_string(),
        ];
        let case = write_run(game, &rules_line, &sc.setup, path, header, guard.stage())?;
        let name = format!("{:04}-{}--{class}.case", n + 1, slug(game, sc));
        index.push(index_row(&name, &class, sc, &case));
        files.push((name.clone(), crate::case::print(&case)));
        cases.push(SuiteCase {
            file: name,
            class,
            scenario: sc.name.clone(),
        });
    }
    let written = files.len();
    files.push(("INDEX.md".into(), index.join("\n") + "\n"));
    if let Some(p) = opts.progress {
        p.start_phase(crate::progress::Phase::CasesWritten, files.len());
    }
    guard.commit_counting(&files, || {
        if let Some(p) = opts.progress {
            p.tick();
        }
    })?;
    Ok(Suite {
        format: CASES_FORMAT,
        bound: bound.name,
        rules: opts.rules.to_string(),
        classes: classes.len(),
        written,
        cases,
    })
}

/// The index's row of one case: its file, its class's words, its scenario and its expectations (what tells its
/// class from the others), as Markdown table cells.
fn index_row(file: &str, class: &str, sc: &Scenario, case: &crate::case::ast::Case) -> String {
    let cell = |t: &str| t.replace('|', "\\|");
    let expects: Vec<String> = case
        .expects
        .iter()
        .map(|e| crate::case::print::expect_stmt(&e.stmt))
        .collect();
    format!(
        "| [{file}]({file}) | {class} | {} | {} |",
        cell(&sc.name),
        cell(&expects.join("; "))
    )
}

/// Every behaviour class of the system with its smallest run, in scenario order.
fn classes(system: &RepeatSystem, progress: Option<&Counter>) -> Vec<(Vec<Sig>, Best)> {
    let game = &system.game;
    if let Some(p) = progress {
        p.set_total(system.scenarios.len());
    }
    let merged: HashMap<Vec<Sig>, Best> = system
        .scenarios
        .par_iter()
        .enumerate()
        .fold(HashMap::new, |mut m, (i, sc)| {
            explore(game, i, sc, &mut m);
            if let Some(p) = progress {
                p.tick();
            }
            m
        })
        .reduce(HashMap::new, |mut a, b| {
            for (k, v) in b {
                match a.get(&k) {
                    Some(x) if (x.0, x.1, x.2) <= (v.0, v.1, v.2) => {}
                    _ => {
                        a.insert(k, v);
                    }
                }
            }
            a
        });
    let mut classes: Vec<(Vec<Sig>, Best)> = merged.into_iter().collect();
    classes.sort_by(|a, b| (a.1 .2, a.1 .0, &a.0).cmp(&(b.1 .2, b.1 .0, &b.0)));
    classes
}

/// A case file's name begins with the first card in the player's hand.
fn slug(game: &Game, sc: &Scenario) -> String {
    let first = &game
        .card(
            sc.setup.players[0]
                .hand
                .first()
                .copied()
                .unwrap_or(game.token),
        )
        .name;
    words_of(first)
}

/// A few words naming a behaviour class by what sets it apart, for its file name: the
/// [Repeat] instances paid on the played item, how its play ends (countered, cancelled), the
/// choices that became illegal or were remade, Deflect, discounts, and the cards that reacted
/// or triggered; `resolves` when the play resolves with none of these.
fn class_words(sig: &[Sig]) -> String {
    let mut words: Vec<String> = vec![];
    let push = |words: &mut Vec<String>, w: String| {
        if !words.contains(&w) {
            words.push(w);
        }
    };
    let paid = sig
        .iter()
        .filter(|x| matches!(x, Sig::Repeat(0, _, true)))
        .count();
    if paid > 0 {
        push(&mut words, format!("repeat-{paid}"));
    }
    for x in sig {
        match x {
            // A triggered ability goes on the chain too; it is named as a trigger.
            Sig::Card(name)
                if sig.iter().position(|y| y == x) != Some(0)
                    && !words.contains(&format!("trigger-{}", words_of(name))) =>
            {
                push(&mut words, format!("vs-{}", words_of(name)))
            }
            Sig::Countered(0) => push(&mut words, "countered".into()),
            Sig::Cancelled(0, why) => push(&mut words, format!("cancelled-{}", words_of(why))),
            Sig::Ignored(0, ..) => push(&mut words, "target-illegal".into()),
            Sig::Remade(0, _) => push(&mut words, "new-choices".into()),
            Sig::Kept(0) => push(&mut words, "choices-kept".into()),
            Sig::Deflect(0) => push(&mut words, "deflect".into()),
            Sig::Discount(0, _) => push(&mut words, "discount".into()),
            Sig::Triggered(name) => push(&mut words, format!("trigger-{}", words_of(name))),
            _ => {}
        }
    }
    if words.is_empty() {
        push(&mut words, "resolves".into());
    }
    let mut name = words.join("-");
    if name.len() > 80 {
        let cut = name[..80].rfind('-').unwrap_or(80);
        name.truncate(cut);
    }
    name
}

/// Lower-case words joined by `-`, for file names (`CannotPay` is `cannot-pay`).
fn words_of(text: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        if c.is_ascii_uppercase() && prev_lower {
            out.push('-');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '-'
        });
    }
    let parts: Vec<&str> = out.split('-').filter(|p| !p.is_empty()).collect();
    parts.join("-")
}

/// A case for a run given as actions from a scenario's start, completed to the end of the play.
pub fn write_run(
    game: &Game,
    rules_line: &str,
    setup: &model::setup::Setup,
    path: &[Action],
    header: Vec<String>,
    dir: &Path,
) -> Result<Case, Error> {
    let mut s = game.initial_state(setup).map_err(Error::case)?;
    let mut run = vec![];
    for a in path {
        let next = game.step(&s, a);
        run.push((s, *a));
        s = next;
    }
    let run = complete_run(game, run, s);
    case_for_run(game, rules_line, setup, &run, header, Some(dir)).map_err(Error::case)
}
