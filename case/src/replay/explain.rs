//! Why the model refuses a statement, in the words a failing replay reports: the model's
//! reason ([`Game::refusal`]) with the case statements that would do instead where the reason
//! points at them.

use model::action::Action;
use model::game::{Game, Refusal};
use model::state::{Obj, State};
use std::collections::HashMap;

/// The case's labels of the board's objects, to name a unit as the case does.
pub(super) type Labels = HashMap<String, Obj>;

/// Why the model does not allow `a` here, as its rule and words.
pub(super) fn explain(
    game: &Game,
    labels: &Labels,
    s: &State,
    a: &Action,
    enabled: &[Action],
) -> (String, String) {
    let r = game
        .refusal(s, a)
        .unwrap_or(Refusal::NotDue { rule: a.rule() });
    (r.rule().to_string(), words(game, labels, s, &r, enabled))
}

/// The model's reason, with the statements a case writes instead where the reason names a step
/// of the case's own (a board line, `close`, rune lines) or the steps the rules call for.
fn words(game: &Game, labels: &Labels, s: &State, r: &Refusal, enabled: &[Action]) -> String {
    match r {
        Refusal::Undone {
            play,
            step: Some(step),
        } => format!("{}; {play} (358.5)", words(game, labels, s, step, enabled)),
        Refusal::Over { turn_ended: false } => {
            "the play's chain has closed and the case is one play: give the board `turn plays N` for more".into()
        }
        Refusal::PlaysUsed => {
            "you have made every play the board's `turn plays N` allows from the open state (a limit of the case, not a rule: raise N, at most 8)".into()
        }
        Refusal::ChainOpen => format!("{r} (`close`)"),
        Refusal::DemandNeedsRunes => {
            format!("{r} (`rune exhaust D` lines before `demand pay`)")
        }
        Refusal::NothingToDraw => {
            "no card is to be drawn now (one was chosen, or none can be): the rest is recycled, one `look recycle` line per card".into()
        }
        Refusal::PowerForDemand => format!("{r}; the model offers {} here", offered(enabled)),
        Refusal::RuneOutOfOrder { .. } => {
            format!("the model offers {} here: {r}", offered(enabled))
        }
        Refusal::NotDue { .. } if enabled.is_empty() => {
            "the rules call for nothing more here".into()
        }
        Refusal::NotDue { .. } => {
            format!("the rules call for {} here", expected(game, labels, s, enabled))
        }
        _ => r.to_string(),
    }
}

/// The payment statements the model offers now.
fn offered(enabled: &[Action]) -> String {
    let words: Vec<String> = enabled
        .iter()
        .filter_map(|e| match e {
            Action::ExhaustRune { domain } => Some(format!("`rune exhaust {}`", domain.letter())),
            Action::RecycleRune { domain } => Some(format!("`rune recycle {}`", domain.letter())),
            Action::PayCosts { .. } => Some("`pay`".into()),
            Action::PayDemand { pay: true } => Some("`demand pay`".into()),
            Action::PayDemand { pay: false } => Some("`demand decline`".into()),
            _ => None,
        })
        .collect();
    words.join(", ")
}

/// What the model allows next, in the words of case statements (corpus/FORMAT.md), each once:
/// the case's author writes one of these, or the replayer takes the step itself.
pub(super) fn expected(game: &Game, labels: &Labels, s: &State, enabled: &[Action]) -> String {
    let mut out: Vec<String> = vec![];
    for e in enabled {
        let words = match *e {
            Action::MoveToChain { player, .. } => format!("`{player} play \"CARD\"`"),
            Action::Pass => match s.priority {
                Some(p) => format!("`{p} pass`"),
                None => "a pass".into(),
            },
            Action::DecideOptional { .. } => "`may perform` or `may decline`".into(),
            Action::DeclareRepeat { instance, .. } => {
                format!("`repeat {0} pay` or `repeat {0} skip`", instance + 1)
            }
            Action::ChooseMode { exec, .. } => {
                let modes: Vec<String> = enabled
                    .iter()
                    .filter_map(|x| match *x {
                        Action::ChooseMode { exec: e, mode } if e == exec => {
                            Some((mode + 1).to_string())
                        }
                        _ => None,
                    })
                    .collect();
                format!(
                    "a mode for execution {0} (`exec {0} mode M`, M one of {1})",
                    exec + 1,
                    modes.join(", ")
                )
            }
            Action::ChooseTarget { exec, slot, .. } => format!(
                "a target for execution {0}, instruction {1} (`exec {0} target {1} OBJ`)",
                exec + 1,
                slot + 1
            ),
            Action::EndTargets { exec, slot } => {
                format!("`exec {} no-more-targets {}`", exec + 1, slot + 1)
            }
            Action::ChooseDestination { exec, slot, .. } => format!(
                "a destination for execution {0}, instruction {1} (`exec {0} destination {1} LOCATION`)",
                exec + 1,
                slot + 1
            ),
            Action::DetermineTotalCost | Action::PayCosts { .. } => "`pay`".into(),
            Action::RemakeChoice { .. } | Action::KeepChoice => {
                "the new choices (`exec K target I OBJ` lines after `new-choices item N`)".into()
            }
            Action::DeclineNewChoices => "`new-choices item N decline`".into(),
            Action::DrawLooked { .. } => {
                "the card to draw from those looked at (`look draw \"Card\"`, `look draw other` or `look draw none`)".into()
            }
            Action::RecycleLooked { .. } => {
                "the next card looked at to recycle (`look recycle \"Card\"` or `look recycle other`)".into()
            }
            Action::PayDemand { .. } => "the answer to the demand (`demand pay` or `demand decline`)".into(),
            Action::DeclareOptionalCost { index, .. } => {
                format!("`optional {0} pay` or `optional {0} skip`", index + 1)
            }
            Action::ChooseLocation { .. } => "where it enters (`location LOCATION`)".into(),
            Action::ChooseReduction { component, .. } => {
                let (part, i) = match component {
                    model::state::Component::Repeat(i) => ("repeat", i),
                    model::state::Component::Optional(i) => ("optional", i),
                };
                format!("`reduce {part} {0} energy` or `reduce {part} {0} power`", i + 1)
            }
            Action::OrderDiscount { source } => match source {
                model::state::DiscountSource::Unit(u) => {
                    match labels.iter().find(|(_, o)| **o == Obj::Unit(u)) {
                        Some((l, _)) => format!("`discount {l}`"),
                        None => format!("`discount LABEL` for {}", game.obj_name(s, Obj::Unit(u))),
                    }
                }
                _ => "`discount own`".into(),
            },
            Action::DiscardForCost { card: Some(c) } => {
                format!("`discard \"{}\"`", game.card(c).name)
            }
            Action::DiscardForCost { card: None } => "`discard other`".into(),
            Action::ExhaustForCost { .. } => "a unit exhausted for the cost (`exhaust UNIT`)".into(),
            Action::KillForCost { .. } => "a unit killed for the cost (`kill UNIT`)".into(),
            Action::ExhaustRune { domain } => format!("`rune exhaust {}`", domain.letter()),
            Action::RecycleRune { domain } => format!("`rune recycle {}`", domain.letter()),
            Action::EndTurn => "`end turn`".into(),
            Action::ActivateAbility { gear } => format!(
                "`{} activate GEAR` (a gear's ability)",
                s.gear[gear as usize].controller
            ),
            _ => game.describe_action(s, e),
        };
        if !out.contains(&words) {
            out.push(words);
        }
    }
    out.join(" or ")
}
