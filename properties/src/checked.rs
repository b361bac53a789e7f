//! The Repeat system as a `checker::Model`: its steps are the game's, with the rulebook
//! fields each step reads noted for the probes (`exercise`) and the clauses it applies counted
//! when coverage is asked for; its properties are the invariants that apply (`invariants`),
//! then the probes. Kept apart from `system`, which the properties and probes read, so that no
//! module imports back into one that imports it.

use crate::invariants::{Fused, Listed};
use crate::system::{canonical_gear, interchangeable_gear, RepeatSystem};
use checker::model::FusedConditions;
use checker::{Model, Property};
use model::action::Action;
use model::rulebook::reading;
use model::state::State;

impl RepeatSystem {
    /// Whether probe `k`'s field decided the step into `s` or decides the actions of `s`.
    pub fn probe_decides(&self, k: usize, s: &State) -> bool {
        crate::exercise::probe_holds(self, k, s)
    }

    /// Checks only the properties named (each must name a property; an error says which does
    /// not, with the closest name).
    pub fn select(mut self, names: &[String]) -> Result<RepeatSystem, String> {
        let all = crate::invariants::all();
        for n in names {
            if !all.iter().any(|p| p.name == n) {
                let near = crate::invariants::closest(n)
                    .map(|c| format!(" (did you mean `{c}`?)"))
                    .unwrap_or_default();
                return Err(format!(
                    "--property {n}: no such property{near}; `rbcheck check --help` lists them"
                ));
            }
        }
        self.selected = Some(names.to_vec());
        Ok(self)
    }

    /// The properties that cannot apply to these rules, each with why: witnesses of a
    /// situation the rules version has no rule for (they are not checked). Selected ones only.
    pub fn not_applicable(&self) -> Vec<(Property<RepeatSystem>, &'static str)> {
        crate::invariants::all()
            .into_iter()
            .filter(|p| self.is_selected(p.name))
            .filter_map(|p| {
                let why = crate::invariants::not_applicable(p.name, self.game.rules.book())?;
                Some((p, why))
            })
            .collect()
    }

    /// The invariants this system checks (selected, applying to its rules), in report order,
    /// each with its fused condition: none unless only probes are checked.
    fn invariants(&self) -> Vec<Listed> {
        if self.probes_only {
            return vec![];
        }
        crate::invariants::listed()
            .into_iter()
            .filter(|(p, _)| self.is_selected(p.name))
            .filter(|(p, _)| {
                crate::invariants::not_applicable(p.name, self.game.rules.book()).is_none()
            })
            .collect()
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
        if self.probes.is_empty() {
            return self.game.actions(state, out);
        }
        let ((), read) = reading(|| self.game.actions(state, out));
        crate::exercise::note_actions(self, state, out, read);
    }

    /// `None` for an action not enabled in `state`, whoever asks: an effect applied without
    /// its guard could find nothing to act on.
    fn next_state(&self, state: &State, action: &Action) -> Option<State> {
        if !self.game.is_enabled(state, action) {
            return None;
        }
        self.next_state_of_enabled(state, action)
    }

    fn next_state_in_place(&self, state: &mut State, action: &Action) -> bool {
        if !self.game.is_enabled(state, action) {
            return false;
        }
        self.next_state_in_place_of_enabled(state, action)
    }

    // The search passes only actions it has just listed: re-listing them to check the guard
    // again would double the cost of every transition.
    fn next_state_of_enabled(&self, state: &State, action: &Action) -> Option<State> {
        if self.probes.is_empty() {
            let next = self.game.step(state, action);
            if let Some(c) = &self.coverage {
                self.count(c, state, action, &next);
            }
            return Some(next);
        }
        let (next, read) = reading(|| self.game.step(state, action));
        if let Some(c) = &self.coverage {
            self.count(c, state, action, &next);
        }
        crate::exercise::note_transition(self, state, action, &next, read);
        Some(next)
    }

    fn observes_steps(&self) -> bool {
        self.coverage.is_some() || !self.probes.is_empty()
    }

    // A replayed transition was counted and probed when the search first took it.
    fn replay_state(&self, state: &State, action: &Action) -> Option<State> {
        Some(self.game.step(state, action))
    }

    fn next_state_in_place_of_enabled(&self, state: &mut State, action: &Action) -> bool {
        // Probes of reads alone need only the fields the step read, not the state before it.
        if self.coverage.is_none() && self.reads_only {
            let ((), read) = reading(|| self.game.step_in_place(state, action));
            crate::exercise::note_reads(self, state, read);
            return true;
        }
        // Counting and the probes read the state before the step as well.
        if self.coverage.is_some() || !self.probes.is_empty() {
            let Some(next) = self.next_state_of_enabled(state, action) else {
                return false;
            };
            *state = next;
            return true;
        }
        self.game.step_in_place(state, action);
        true
    }

    /// The properties that apply to the rules (and were selected), then the probes.
    fn properties(&self) -> Vec<Property<Self>> {
        let mut out: Vec<Property<Self>> = self.invariants().into_iter().map(|(p, _)| p).collect();
        out.extend(crate::exercise::properties(self));
        out
    }

    /// The invariants' conditions read from one fold of the state's log (`facts`) instead of
    /// one look-up per property: when `props` are the invariants this system lists, and no
    /// probe (the probes have no fused condition).
    fn fused_conditions(&self, props: &[Property<Self>]) -> Option<FusedConditions<Self>> {
        let listed = self.invariants();
        let same = listed.len() == props.len()
            && listed.iter().zip(props).all(|((l, _), p)| l.name == p.name);
        if !same || props.len() > 64 {
            return None;
        }
        // The termination property's condition is read at final states only, not here.
        let conds: Vec<Option<Fused>> = listed.into_iter().map(|(_, c)| c).collect();
        Some(Box::new(move |sys: &RepeatSystem, s: &State| {
            crate::facts::with(s, |f| {
                conds.iter().enumerate().fold(0u64, |bits, (i, c)| match c {
                    Some(c) if c(sys, s, f) => bits | 1 << i,
                    _ => bits,
                })
            })
        }))
    }

    /// The procedure steps no player chooses, when they are a state's only action (see
    /// `Game::forced_step`): the checker follows them without storing their states.
    fn forced(&self, state: &State) -> Option<Action> {
        self.game.forced_step(state)
    }

    /// True: no state is reachable from two scenarios. A card a scenario starts with is never
    /// removed from the state (it only changes zone, keeping its index and card), `start`
    /// records the rune pools and never changes, and the log only grows; so two different
    /// initial states never lead to the same state. On every shipped bound, transitions =
    /// distinct states − initial states, which a joint search would break if two met.
    fn independent_inits(&self) -> bool {
        true
    }

    /// True unless the scenario has interchangeable gear. Every state carries its event log,
    /// which only grows (each step logs at least one event, which `progress` counts), so a
    /// state determines the path that reached it and no path returns to a state. But with two
    /// identical gear, symmetry reduction ([`canonical_gear`]) gives one fingerprint to the
    /// states that differ by which of them was chosen, and these are reached by two paths.
    /// The gear never change (cards keep their index), so the initial state tells. The
    /// depth-first search finds the breadth-first counts on tiny and the wrong rulebooks
    /// (tests in `tests/suite/tree.rs`).
    fn tree_shaped(&self, init: &State) -> bool {
        !interchangeable_gear(init)
    }

    fn progress(&self, state: &State) -> Option<u64> {
        // Every step logs at least one event (a test in the model guards it).
        Some(state.log.len() as u64)
    }

    /// The deduplication key with symmetry reduction: identical gear (same card, same
    /// controller) are interchangeable, so they are renamed into a canonical order (see
    /// [`canonical_gear`]) before hashing. Only the key changes: the search explores and reports
    /// the concrete states, so every trace replays.
    fn fingerprint(&self, state: &State) -> u64 {
        match canonical_gear(state) {
            Some(canonical) => checker::fingerprint(&canonical),
            None => checker::fingerprint(state),
        }
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
