//! `rbcheck cases` and `check --cases`: writing runs of the model as case files. A conformance
//! suite has one case per observable behaviour class of a bound, the smallest found.

use crate::inputs;
use clap::Args;
use model::action::Action;
use model::game::Game;
use model::state::{Event, State};
use properties::{RepeatSystem, Scenario};
use rayon::prelude::*;
use rbcheck::case::from_trace::{case_for_run, complete_run};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `rbcheck cases`.
#[derive(Args)]
pub struct CasesArgs {
    /// Bound: a preset (tiny, default, large) or a bound file.
    #[arg(long)]
    pub bound: String,
    /// Rulebook: a preset (v1.2, v1.3, rup4, guide) or a rulebook file.
    #[arg(long, default_value = "rup4")]
    pub rules: String,
    /// The folder to write (it must not exist, or be empty).
    #[arg(long)]
    pub out: PathBuf,
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
                Event::Performed { item, exec, slot } => Sig::Performed(item, exec, slot),
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
pub(crate) fn each_complete_play(
    game: &Game,
    init: State,
    keep: impl Fn(&Action) -> bool,
    mut visit: impl FnMut(&State, Vec<Action>),
) {
    let mut stack: Vec<(State, Vec<Action>)> = vec![(init, vec![])];
    let mut acts = vec![];
    while let Some((s, path)) = stack.pop() {
        acts.clear();
        game.actions(&s, &mut acts);
        if acts.is_empty() {
            visit(&s, path);
            continue;
        }
        for a in acts.iter().rev() {
            let mut p = path.clone();
            if keep(a) {
                p.push(*a);
            }
            stack.push((game.step(&s, a), p));
        }
    }
}

/// Runs `rbcheck cases`.
pub fn run(args: &CasesArgs) -> Result<ExitCode, String> {
    let rules = inputs::rulebook(&args.rules)?;
    let bound = inputs::bound(&args.bound)?;
    let mut guard = prepare_out(&args.out)?;
    let out = args.out.clone();
    let rules_line = rules_line(&args.rules, &args.out);
    let system = RepeatSystem::new(rules, &bound)?;
    let game = &system.game;
    let merged: HashMap<Vec<Sig>, Best> = system
        .scenarios
        .par_iter()
        .enumerate()
        .fold(HashMap::new, |mut m, (i, sc)| {
            explore(game, i, sc, &mut m);
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
    let mut files = vec![];
    for (n, (_, (_, _, idx, path))) in classes.iter().enumerate() {
        let sc = &system.scenarios[*idx];
        let header = vec![
            format!("Conformance case {} of {} for bound `{}` under `{}`: the smallest play of its behaviour class.", n + 1, classes.len(), bound.name, args.rules),
            format!("Scenario: {}", sc.name),
            "Generated by `rbcheck cases`; the expectations are the model's.".to_string(),
        ];
        let case = write_run(game, &rules_line, &sc.setup, path, header, &out)?;
        let first = game
            .card(
                sc.setup.players[0]
                    .hand
                    .first()
                    .copied()
                    .unwrap_or(game.token),
            )
            .name
            .clone();
        let slug: String = first
            .to_ascii_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        files.push((
            format!("{:04}-{}.case", n + 1, slug.trim_matches('-')),
            rbcheck::case::print(&case),
        ));
    }
    commit_out(&mut guard, &files)?;
    println!(
        "{} behaviour classes in bound `{}` under `{}`: {} cases written to {}",
        classes.len(),
        bound.name,
        args.rules,
        files.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A case for a run given as actions from a scenario's start, completed to the end of the play.
pub fn write_run(
    game: &Game,
    rules_line: &str,
    setup: &model::setup::Setup,
    path: &[Action],
    header: Vec<String>,
    dir: &Path,
) -> Result<rbcheck::case::Case, String> {
    let mut s = game.initial_state(setup)?;
    let mut run = vec![];
    for a in path {
        let next = game.step(&s, a);
        run.push((s, *a));
        s = next;
    }
    let run = complete_run(game, run, s);
    case_for_run(game, rules_line, setup, &run, header, Some(dir))
}

/// The `rules` line for cases written into `out`: a preset's name, or the rulebook file's path
/// relative to `out`.
pub fn rules_line(arg: &str, out: &Path) -> String {
    if model::rulebook::Rulebook::named(arg).is_some() {
        return arg.to_string();
    }
    let (Ok(file), Ok(cwd)) = (std::fs::canonicalize(arg), std::env::current_dir()) else {
        return arg.to_string();
    };
    let out_abs = if out.is_absolute() {
        out.to_path_buf()
    } else {
        cwd.join(out)
    };
    let out_parts: Vec<_> = out_abs.components().collect();
    let file_parts: Vec<_> = file.components().collect();
    let common = out_parts
        .iter()
        .zip(&file_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = PathBuf::new();
    for _ in common..out_parts.len() {
        rel.push("..");
    }
    for p in &file_parts[common..] {
        rel.push(p);
    }
    rel.display().to_string()
}

/// An output folder being written: removed again on failure unless it existed before.
pub struct OutDir {
    path: PathBuf,
    created: bool,
    committed: bool,
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if self.created && !self.committed {
            let _ = std::fs::remove_dir(&self.path);
        }
    }
}

/// Makes `out` an empty folder (cases are replayed from there while written); it must not exist
/// or be empty. Dropping the result without `commit_out` removes a folder it created.
pub fn prepare_out(out: &Path) -> Result<OutDir, String> {
    let existed = out.exists();
    if existed {
        let empty = std::fs::read_dir(out)
            .map_err(|e| format!("{}: {e}", out.display()))?
            .next()
            .is_none();
        if !empty {
            return Err(format!(
                "{}: the output folder exists and is not empty",
                out.display()
            ));
        }
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(OutDir {
        path: out.to_path_buf(),
        created: !existed,
        committed: false,
    })
}

/// Writes every file at once: into a staging folder renamed into place at the end, so a failure
/// leaves nothing half-written.
pub fn commit_out(guard: &mut OutDir, files: &[(String, String)]) -> Result<(), String> {
    let out = guard.path.clone();
    let out = out.as_path();
    let stage = out.with_extension(format!("tmp-{}", std::process::id()));
    std::fs::create_dir_all(&stage).map_err(|e| format!("{}: {e}", stage.display()))?;
    for (name, text) in files {
        if let Err(e) = std::fs::write(stage.join(name), text) {
            let _ = std::fs::remove_dir_all(&stage);
            return Err(format!("{}: {e}", stage.join(name).display()));
        }
    }
    std::fs::remove_dir(out).map_err(|e| format!("{}: {e}", out.display()))?;
    std::fs::rename(&stage, out).map_err(|e| format!("{}: {e}", out.display()))?;
    guard.committed = true;
    Ok(())
}
