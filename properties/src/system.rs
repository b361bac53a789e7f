//! The Repeat model as a `checker::Model`: a game (rules + cards) and the scenarios of a bound.

use crate::bound::{Bound, Scenario};
use checker::{Model, Property};
use model::action::Action;
use model::catalogue::Catalogue;
use model::game::Game;
use model::rulebook::Rulebook;
use model::state::State;

/// The checkable system: one rulebook, the cards, and the scenarios to start from.
pub struct RepeatSystem {
    /// The rules and the cards (the catalogue plus the bound's generated items).
    pub game: Game,
    /// The initial scenarios, in a fixed order; `init_states` follows it.
    pub scenarios: Vec<Scenario>,
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
        RepeatSystem { game, scenarios }
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
        Some(self.game.step(state, action))
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
