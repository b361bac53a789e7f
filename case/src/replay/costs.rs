//! The steps of a case's cost statements: optional additional costs, where a unit
//! enters, the card a discard cost takes, and which part of a cost Ezreal reduces.

use super::err;
use crate::ast::{Less, Part, PlayStmt};
use crate::CaseError;
use model::action::Action;
use model::game::Game;
use model::state::{Component, Reduction};

/// The model's step for a cost statement (`optional`, `location`, `discard`, `reduce`).
pub(super) fn decision(game: &Game, line: usize, stmt: &PlayStmt) -> Result<Action, CaseError> {
    Ok(match stmt {
        PlayStmt::Optional { index, pay } => Action::DeclareOptionalCost {
            index: index - 1,
            pay: *pay,
        },
        PlayStmt::Location { to } => Action::ChooseLocation { to: *to },
        PlayStmt::Discard { card } => {
            let card = match card {
                Some(n) => Some(game.card_named(n).ok_or_else(|| {
                    err(
                        line,
                        format!("unknown card \"{n}\" (not in model/cards.toml or a `define`)"),
                    )
                })?),
                None => None,
            };
            Action::DiscardForCost { card }
        }
        PlayStmt::Reduce { part, index, less } => {
            let i = index - 1;
            let component = match part {
                Part::Repeat => Component::Repeat(i),
                Part::Optional => Component::Optional(i),
            };
            let less = match less {
                Less::Energy => Reduction::Energy,
                Less::Power => Reduction::Power,
            };
            Action::ChooseReduction { component, less }
        }
        _ => unreachable!("only cost statements come here"),
    })
}
