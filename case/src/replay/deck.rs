//! Replaying the decisions made while an instruction executes: which card
//! looked at a `look draw` or `look recycle` line names (its position from the top of the deck),
//! and the main deck's named cards of the setup.

use super::{err, CaseError, Illegal};
use crate::ast::{DeckRef, PlayStmt};
use model::action::Action;
use model::card::CardKind;
use model::game::Game;
use model::state::{DeckCard, Phase, Player, State};

/// The step a `look` or `demand` line stands for, or why it is not allowed here.
pub(super) fn decision(
    game: &Game,
    s: &State,
    line: usize,
    stmt: &PlayStmt,
) -> Result<Action, Illegal> {
    let looking = s.chain.iter().find_map(|i| match i.phase {
        Phase::Looking { left, .. } => Some((i.controller, left)),
        _ => None,
    });
    let card = match stmt {
        PlayStmt::Demand { pay } => return Ok(Action::PayDemand { pay: *pay }),
        PlayStmt::LookDraw { card: None } => return Ok(Action::DrawLooked { index: None }),
        PlayStmt::LookDraw { card: Some(c) } | PlayStmt::LookRecycle { card: c } => c,
        _ => unreachable!("only look and demand lines come here"),
    };
    let Some((who, left)) = looking else {
        return Err(Illegal {
            line,
            rule: "359.3.e".into(),
            why: "no one is looking at the top of a main deck now".into(),
        });
    };
    let index = position(game, s, who, left, card).ok_or_else(|| Illegal {
        line,
        rule: "359.3.e".into(),
        why: format!("{} is not among the cards looked at", describe(card)),
    })?;
    Ok(match stmt {
        PlayStmt::LookDraw { .. } => Action::DrawLooked { index: Some(index) },
        _ => Action::RecycleLooked { index },
    })
}

/// The first position among the top `left` cards of `who`'s deck holding `card`.
fn position(game: &Game, s: &State, who: Player, left: u8, card: &DeckRef) -> Option<u8> {
    let ps = &s.players[who.ix()];
    (0..left).find(|&i| match (ps.deck_card(i as usize), card) {
        (Some(DeckCard::Named(c)), DeckRef::Named(n)) => game.card(c).name.eq_ignore_ascii_case(n),
        (Some(DeckCard::Other), DeckRef::Other) => true,
        _ => false,
    })
}

fn describe(card: &DeckRef) -> String {
    match card {
        DeckRef::Named(n) => format!("\"{n}\""),
        DeckRef::Other => "an other card".into(),
    }
}

/// The ids of a `deck-top` line's cards: spells, units or gear (what a main deck holds).
pub(super) fn deck_top_cards(
    game: &Game,
    line: usize,
    names: &[String],
) -> Result<Vec<model::CardId>, CaseError> {
    names
        .iter()
        .map(|n| {
            let id = game.card_named(n).ok_or_else(|| {
                err(
                    line,
                    format!("unknown card \"{n}\" (not in model/cards.toml or a `define`)"),
                )
            })?;
            match game.card(id).kind {
                CardKind::Spell | CardKind::Unit | CardKind::Gear => Ok(id),
                k => Err(err(
                    line,
                    format!("\"{n}\" is a {k:?}: a main deck holds spells, units and gear"),
                )),
            }
        })
        .collect()
}
