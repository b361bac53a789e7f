//! Why the model does not offer a choice that a guard leaves out for a rule of its own, rather
//! than because the choice is not due: the guard's reason, as the rule and words, so that a
//! replayer, a report or a fuzzing triage cites the rule the guard applies instead of the step.

use super::unit_cost::{chose, unit_options};
use super::Game;
use crate::action::Action;
use crate::state::{Obj, State};

impl Game {
    /// The rule a guard applies in refusing `a` to the item being played, and why; None when `a`
    /// is refused for no reason of its own (not due now, no such object), which the step's own
    /// citation says.
    pub fn choice_refused(&self, s: &State, a: &Action) -> Option<(&'static str, String)> {
        let item = s.chain.iter().find(|i| i.is_pending())?;
        match *a {
            // 355.16: a mode a required target of which has no legal choice would surely make
            // the play fail (355.8), so it cannot be chosen.
            Action::ChooseMode { exec, mode } => {
                let card = self.card(item.card);
                let taken = card.distinct_modes
                    && item.choices[..usize::from(exec).min(item.choices.len())]
                        .iter()
                        .any(|c| c.mode == Some(mode));
                let exists = usize::from(mode) < card.modes.len();
                (exists && !taken && !self.mode_has_legal_choices(s, item, mode)).then(|| {
                    (
                        "355.16",
                        format!(
                            "mode {} has a target with no legal choice: choosing it would surely make the play illegal",
                            mode + 1
                        ),
                    )
                })
            }
            // 357.3: killing a unit the item chose, while another unit could pay, surely makes
            // the play fail (the chosen target is then illegal, 358.1).
            Action::KillForCost { unit } => {
                let spared = unit_options(s, item);
                (chose(item, unit) && !spared.contains(&unit) && !spared.is_empty()).then(|| {
                    (
                        "357.3",
                        "a unit the play chose is not killed to pay its cost while another unit can pay: its target would then be illegal".to_string(),
                    )
                })
            }
            // 355.4.a: a move's destination is not where the unit already is.
            Action::ChooseDestination { exec, slot, to } => {
                let ex = item.choices.get(usize::from(exec))?;
                let Some(Obj::Unit(u)) = ex.targets(slot).next() else {
                    return None;
                };
                (s.units.get(usize::from(u))?.loc == to).then(|| {
                    (
                        "355.4.a",
                        "a unit cannot be moved to where it already is".to_string(),
                    )
                })
            }
            _ => None,
        }
    }
}
