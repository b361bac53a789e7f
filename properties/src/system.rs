//! The Repeat model as a `checker::Model`: a game (rules + cards) and the scenarios of a bound.

use crate::bound::{Bound, Origin, Scenario};
use crate::probe::FieldProbe;
use model::action::Action;
use model::card::CardKind;
use model::catalogue::Catalogue;
use model::coverage::{action_clauses, clause_index, context_clauses, event_clauses, CLAUSES};
use model::game::Game;
use model::rulebook::Rulebook;
use model::state::{Gear, Obj, Pick, State};
use std::sync::atomic::{AtomicU64, Ordering};

/// The most probes one system looks for at once.
pub const MAX_PROBES: usize = 64;

/// The checkable system: one rulebook, the cards, and the scenarios to start from.
pub struct RepeatSystem {
    /// The rules and the cards (the catalogue plus the bound's generated items).
    pub game: Game,
    /// The initial scenarios, in a fixed order; `init_states` follows it.
    pub scenarios: Vec<Scenario>,
    /// Transitions per rule clause (`model::coverage::CLAUSES`), when coverage is counted.
    pub(crate) coverage: Option<Vec<AtomicU64>>,
    /// The bound's scenarios left out because nobody can do anything in them, in bound order.
    pub unplayable: Vec<Scenario>,
    /// The rulebook fields looked for (`exercise`): each a witness after the properties.
    pub(crate) probes: Vec<FieldProbe>,
    /// The properties checked, by name (`None`: every one that applies to the rules).
    pub(crate) selected: Option<Vec<String>>,
    /// Only the probes are checked (choosing scenarios, not judging them).
    pub(crate) probes_only: bool,
    /// Every probe is of reads alone (`FieldProbe::reads`): a step needs no state before it.
    pub(crate) reads_only: bool,
}

impl RepeatSystem {
    /// The system for a rulebook over a bound, with the shipped catalogue, leaving out the
    /// scenarios in which nothing can be done (listed in `unplayable`). Each scenario is
    /// numbered (`Scenario::origin`) in the order kept, as `rbcheck graph --scenario` counts.
    pub fn new(rules: Rulebook, bound: &Bound) -> Result<RepeatSystem, String> {
        let (game, started) = RepeatSystem::start(rules, bound)?;
        let (playable, unplayable) = split_playable(&game, started);
        if playable.is_empty() {
            return Err(format!(
                "no scenario of the bound can start: in each of its {} scenarios the item cannot be played (358.4)",
                unplayable.len()
            ));
        }
        let mut sys = RepeatSystem::from_parts(game, playable);
        sys.unplayable = unplayable;
        Ok(sys)
    }

    /// The system over every scenario of the bound, including those in which nothing can be
    /// done: for comparing two rulebooks, where one may allow what the other does not. The
    /// playable scenarios are numbered as [`RepeatSystem::new`] numbers them; the others not.
    pub fn every_scenario(rules: Rulebook, bound: &Bound) -> Result<RepeatSystem, String> {
        let (game, started) = RepeatSystem::start(rules, bound)?;
        let mut number = 0;
        let scenarios = started
            .into_iter()
            .map(|(mut s, init)| {
                if playable(&game, &init) {
                    number += 1;
                    s.origin = Some(Origin {
                        bound: bound.name.clone(),
                        number,
                    });
                }
                s
            })
            .collect();
        Ok(RepeatSystem::from_parts(game, scenarios))
    }

    /// The game and each scenario of the bound with its initial state. Every scenario must
    /// start, so that a trace's initial index names its scenario.
    fn start(rules: Rulebook, bound: &Bound) -> Result<(Game, Vec<(Scenario, State)>), String> {
        let mut cards = Catalogue::builtin().cards;
        let scenarios = bound.scenarios(&mut cards)?;
        let game = Game::new(rules, cards);
        let started = started(&game, scenarios, &bound.name)?;
        Ok((game, started))
    }

    /// A system over given scenarios (case files, tests, a choice of scenarios).
    pub fn from_parts(game: Game, scenarios: Vec<Scenario>) -> RepeatSystem {
        RepeatSystem {
            game,
            scenarios,
            coverage: None,
            unplayable: vec![],
            probes: vec![],
            selected: None,
            probes_only: false,
            reads_only: false,
        }
    }

    /// Also looks for these probes (see `exercise`): one witness each, after the properties.
    /// At most [`MAX_PROBES`] (a probe is a bit of a `u64` while a state is checked); those past
    /// it are dropped.
    pub fn with_probes(mut self, mut probes: Vec<FieldProbe>) -> RepeatSystem {
        probes.truncate(MAX_PROBES);
        self.reads_only = !probes.is_empty() && probes.iter().all(|p| p.reads);
        self.probes = probes;
        self
    }

    /// Checks only the probes: for choosing the scenarios that exercise a field.
    pub fn probes_only(mut self) -> RepeatSystem {
        self.probes_only = true;
        self
    }

    /// The probes looked for, in property order after the properties.
    pub fn probes(&self) -> &[FieldProbe] {
        &self.probes
    }

    /// Whether the property `name` is checked (every one, unless some were selected).
    pub(crate) fn is_selected(&self, name: &str) -> bool {
        self.selected
            .as_ref()
            .is_none_or(|s| s.iter().any(|n| n == name))
    }

    /// Counts, from now on, how many transitions apply each rule clause (a little slower).
    pub fn count_coverage(mut self) -> RepeatSystem {
        self.coverage = Some(CLAUSES.iter().map(|_| AtomicU64::new(0)).collect());
        self
    }

    /// Each clause with the transitions that applied it, in `CLAUSES` order; `None` if coverage
    /// was not counted. Traces rebuilt for the report re-execute a few transitions, which count too.
    pub fn coverage(&self) -> Option<Vec<(&'static str, &'static str, u64)>> {
        let c = self.coverage.as_ref()?;
        Some(
            CLAUSES
                .iter()
                .zip(c)
                .map(|((k, d), n)| (*k, *d, n.load(Ordering::Relaxed)))
                .collect(),
        )
    }

    /// Counts the clauses the transition from `state` by `action` to `next` applied.
    pub(crate) fn count(&self, c: &[AtomicU64], state: &State, action: &Action, next: &State) {
        let new = &next.log[state.log.len().min(next.log.len())..];
        let on_ability = matches!(action, Action::DeclareRepeat { .. })
            && state
                .chain
                .iter()
                .find(|i| i.is_pending())
                .is_some_and(|i| self.game.card(i.card).kind == CardKind::Ability);
        let mut seen: Vec<usize> = Vec::with_capacity(8);
        let clauses = action_clauses(action)
            .iter()
            .copied()
            .chain(new.iter().flat_map(|e| event_clauses(e).iter().copied()))
            .chain(context_clauses(new, on_ability));
        for cl in clauses {
            if let Some(i) = clause_index(cl) {
                if !seen.contains(&i) {
                    seen.push(i);
                    c[i].fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }
}

/// Whether anybody can do anything in a scenario's initial state.
fn playable(game: &Game, init: &State) -> bool {
    let mut actions = vec![];
    game.actions(init, &mut actions);
    !actions.is_empty()
}

/// Each scenario with its initial state; every one must start.
pub(crate) fn started(
    game: &Game,
    scenarios: Vec<Scenario>,
    bound: &str,
) -> Result<Vec<(Scenario, State)>, String> {
    scenarios
        .into_iter()
        .map(|s| match game.initial_state(&s.setup) {
            Ok(init) => Ok((s, init)),
            Err(e) => Err(format!("scenario `{}` of bound `{bound}`: {e}", s.name)),
        })
        .collect()
}

/// The scenarios in which something can be done, numbered in order (`Scenario::origin`), and
/// the others. A scenario in which no action is possible (the item cannot be played there at
/// all, e.g. a spell without [Action] during Syndra's showdown, 358.4) is not about the play:
/// it is left out and named, rather than reported as a play that never ends.
pub(crate) fn split_playable(
    game: &Game,
    started: Vec<(Scenario, State)>,
) -> (Vec<Scenario>, Vec<Scenario>) {
    let (mut yes, mut no) = (vec![], vec![]);
    for (s, init) in started {
        match playable(game, &init) {
            true => yes.push(s),
            false => no.push(s),
        }
    }
    for (i, s) in yes.iter_mut().enumerate() {
        if let Some(o) = &mut s.origin {
            o.number = i + 1;
        }
    }
    (yes, no)
}

/// Whether two of the state's gear share a card and a controller: the only case in which
/// [`canonical_gear`] can rename anything, and so two states share a fingerprint.
pub fn interchangeable_gear(state: &State) -> bool {
    let gear = &state.gear;
    let n = gear.len();
    (0..n).any(|i| {
        (i + 1..n).any(|j| gear[i].card == gear[j].card && gear[i].controller == gear[j].controller)
    })
}

/// The state with its interchangeable gear renamed into a canonical order, or `None` when that
/// order is the one it has (most states: no two gear share a card and a controller).
///
/// Gear with the same card and controller differ only by what happened to them, and every such
/// thing is in the event log (a gear is only ever chosen as a target, and killed, one at a time,
/// each logged). So within each class of identical gear, the gear are ordered by their first
/// mention in the log, the never-mentioned ones (still identical: nothing happened to them)
/// after, by index; and the state is rewritten with the new indices everywhere an index names a
/// gear (the gear list, the log, the picks and `ever_chosen`). Two states get the same key
/// exactly when one is the other with identical gear swapped; the rules never look at a gear's
/// index (only at its card, controller and zone) and change at most one gear per step, so such
/// states have swapped successors and the same verdicts. That is what makes the reduction sound.
///
/// Units are not reduced: a cleanup or a trigger affects several units in one step, in index
/// order, so swapping identical units can reorder a step's events and the swapped states are not
/// always equivalent. Identical [Repeat] instances are not either: they are declared in order,
/// so paying the first and not the second is logged differently from the converse, and no
/// renaming makes those states equal. On the shipped bounds, only `large` (its `mixed` board has
/// two identical enemy gear) has anything to reduce.
pub fn canonical_gear(state: &State) -> Option<State> {
    let gear = &state.gear;
    let n = gear.len();
    let same = |a: &Gear, b: &Gear| a.card == b.card && a.controller == b.controller;
    if !interchangeable_gear(state) {
        return None;
    }
    // First mention of each gear in the log (picks and `ever_chosen` only name gear that were
    // chosen, which the log records).
    let mut first = vec![usize::MAX; n];
    for (k, e) in state.log.iter().enumerate() {
        if let Some(Obj::Gear(g)) = e.object() {
            if let Some(f) = first.get_mut(g as usize) {
                if *f == usize::MAX {
                    *f = k;
                }
            }
        }
    }
    // perm[old] = new: each class keeps its set of indices, reordered by (first mention, index).
    let mut perm: Vec<u8> = (0..n as u8).collect();
    let mut done = vec![false; n];
    for i in 0..n {
        if done[i] {
            continue;
        }
        let class: Vec<usize> = (i..n).filter(|&j| same(&gear[i], &gear[j])).collect();
        let mut order = class.clone();
        order.sort_by_key(|&g| (first[g], g));
        for (slot, &g) in class.iter().zip(&order) {
            perm[g] = *slot as u8;
            done[g] = true;
        }
    }
    if perm.iter().enumerate().all(|(i, &p)| p as usize == i) {
        return None;
    }
    let rename = |o: Obj| match o {
        Obj::Gear(g) => Obj::Gear(perm.get(g as usize).copied().unwrap_or(g)),
        other => other,
    };
    let mut c = state.clone();
    for (old, g) in state.gear.iter().enumerate() {
        c.gear[perm[old] as usize] = *g;
    }
    c.log = state.log.iter().map(|e| e.map_object(&rename)).collect();
    for item in c.chain.iter_mut() {
        for ex in item.choices.iter_mut() {
            for p in ex.picks.iter_mut() {
                if let Pick::Target { obj, .. } = p {
                    *obj = rename(*obj);
                }
            }
        }
        for (_, obj) in item.ever_chosen.iter_mut() {
            *obj = rename(*obj);
        }
    }
    Some(c)
}
