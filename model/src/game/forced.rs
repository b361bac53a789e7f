//! Forced steps: a state whose only enabled action is a procedure step of the rules, which no
//! player chooses. The checker follows a run of them without storing its states (its
//! `Model::forced`), so the declaration must agree with `Game::actions` exactly: it lists the
//! actions and answers only when there is one, of a procedure step.

use super::{on_chain, Game, Turn};
use crate::action::Action;
use crate::state::{Phase, State};

impl Game {
    /// The one action of `s` if it is a forced step: 356 DetermineTotalCost, 358
    /// CheckLegality, 359 Finalize, 340.1 Resolve, 820.3 Execute, 359.3.d FinishResolution or
    /// 321 Cleanup, when it is the only action enabled. Whose turn it is says first whether a
    /// player decides (priority, new choices, a decision inside an execution, making choices or
    /// paying), which is never forced, even with one option: that one option is still a
    /// player's decision, and a trace shows it as one.
    pub fn forced_step(&self, s: &State) -> Option<Action> {
        match self.turn(s) {
            Turn::Resolving(_) | Turn::Cleanup | Turn::Resolve => {}
            Turn::Pending(id) => match on_chain(s, id).phase {
                Phase::Chosen | Phase::Paid | Phase::Legal => {}
                _ => return None,
            },
            Turn::Over | Turn::Priority(_) | Turn::NewChoices(_) | Turn::Deciding(_) => {
                return None
            }
        }
        // Asked of almost every state: the actions are listed in a buffer kept per thread
        // rather than in a new vector each time.
        let mut out = SCRATCH.take();
        out.clear();
        self.actions(s, &mut out);
        let step = match out.as_slice() {
            [a] if is_procedure_step(a) => Some(*a),
            _ => None,
        };
        SCRATCH.set(out);
        step
    }
}

thread_local! {
    /// The buffer `forced_step` lists a state's actions in (taken while in use, so a nested
    /// call would only allocate its own).
    static SCRATCH: std::cell::Cell<Vec<Action>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Whether `a` is a step the rules' procedure takes, as opposed to a player's decision.
fn is_procedure_step(a: &Action) -> bool {
    matches!(
        a,
        Action::DetermineTotalCost
            | Action::CheckLegality
            | Action::Finalize
            | Action::Resolve
            | Action::Execute
            | Action::FinishResolution
            | Action::Cleanup
    )
}
