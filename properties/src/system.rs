//! The Repeat model as a `checker::Model`: a game (rules + cards) and the scenarios of a bound.

use crate::bound::{Bound, Scenario};
use checker::{Model, Property};
use model::action::Action;
use model::catalogue::Catalogue;
use model::game::Game;
use model::rulebook::Rulebook;
use model::card::CardKind;
use model::coverage::{action_clauses, clause_index, context_clauses, event_clauses, CLAUSES};
use model::state::State;
use std::sync::atomic::{AtomicU64, Ordering};

/// The checkable system: one rulebook, the cards, and the scenarios to start from.
pub struct RepeatSystem {
    /// The rules and the cards (the catalogue plus the bound's generated items).
    pub game: Game,
    /// The initial scenarios, in a fixed order; `init_states` follows it.
    pub scenarios: Vec<Scenario>,
    /// Transitions per rule clause (`model::coverage::CLAUSES`), when coverage is counted.
    coverage: Option<Vec<AtomicU64>>,
}

impl RepeatSystem {
    /// The system for a rulebook over a bound, with the shipped catalogue.
    pub fn new(rules: Rulebook, bound: &Bound) -> Result<RepeatSystem, String> {
        let mut cards = Catalogue::builtin().cards;
        let scenarios = bound.scenarios(&mut cards)?;
        let game = Game::new(rules, cards);
        // Every scenario must start, so that a trace's initial index names its scenario.
        for s in &scenarios {
            game.initial_state(&s.setup).map_err(|e| format!("scenario `{}`: {e}", s.name))?;
        }
        Ok(RepeatSystem::from_parts(game, scenarios))
    }

    /// A system over given scenarios (case files, tests).
    pub fn from_parts(game: Game, scenarios: Vec<Scenario>) -> RepeatSystem {
        RepeatSystem { game, scenarios, coverage: None }
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
        Some(CLAUSES.iter().zip(c).map(|((k, d), n)| (*k, *d, n.load(Ordering::Relaxed))).collect())
    }

    fn count(&self, c: &[AtomicU64], state: &State, action: &Action, next: &State) {
        let new = &next.log[state.log.len().min(next.log.len())..];
        let on_ability = matches!(action, Action::DeclareRepeat { .. })
            && state.chain.iter().find(|i| i.is_pending()).is_some_and(|i| self.game.card(i.card).kind == CardKind::Ability);
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

impl Model for RepeatSystem {
    type State = State;
    type Action = Action;

    fn init_states(&self) -> Vec<State> {
        // Scenarios are validated when built; one that fails here is skipped rather than
        // aborting a run (it cannot happen for generated bounds, which a test guards).
        self.scenarios
            .iter()
            .filter_map(|s| self.game.initial_state(&s.setup).ok())
            .collect()
    }

    fn actions(&self, state: &State, out: &mut Vec<Action>) {
        self.game.actions(state, out);
    }

    fn next_state(&self, state: &State, action: &Action) -> Option<State> {
        // The checker only asks for actions it just listed; the guard was checked there.
        let next = self.game.step(state, action);
        if let Some(c) = &self.coverage {
            self.count(c, state, action, &next);
        }
        Some(next)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        crate::invariants::all()
    }

    fn progress(&self, state: &State) -> Option<u64> {
        // Every step logs at least one event (a test in the model guards it).
        Some(state.log.len() as u64)
    }

    fn format_action(&self, state: &State, action: &Action) -> String {
        self.game.describe_action(state, action)
    }

    fn format_step(&self, last: &State, next: &State) -> Option<String> {
        let lines: Vec<String> = next.log[last.log.len().min(next.log.len())..]
            .iter()
            .filter_map(|e| self.game.describe_event(next, e))
            .collect();
        (!lines.is_empty()).then(|| lines.join("; "))
    }
}
