//! Reading the riders linked to an earlier action (359.3.e.14): "If this kills it, ...", a
//! `draw` or `play-token` instruction marked `if_this_kills = true` right after a kill or deal
//! of exactly one unit; and "If you paid, ..." / "Otherwise, ...", one marked `if_paid = true`
//! or `false`, which reads the spell's `if-paid` optional additional cost (`check_if_paid`).

use crate::card::{CardKind, Effect, Instruction, Mode, OptionalCost, Rider, TargetKind, Then};

/// The effect `effect` becomes when `if_this_kills` marks it: the rider, checked against the
/// instruction before it (`before`, the instructions read so far).
pub(super) fn reflexive(
    effect: Effect,
    if_this_kills: bool,
    before: &[Instruction],
    at: &str,
) -> Result<Effect, String> {
    if !if_this_kills {
        return Ok(effect);
    }
    let then = match effect {
        Effect::Draw(n) => Then::Draw(n),
        Effect::PlayToken(n) => Then::PlayToken(n),
        _ => {
            return Err(format!(
                "{at}: `if_this_kills` rides on `draw` or `play-token` only in this model"
            ))
        }
    };
    let prev = before.last();
    let ok = prev.is_some_and(|p| {
        matches!(p.effect, Effect::Kill | Effect::Deal(_))
            && p.target
                .is_some_and(|t| t.kind == TargetKind::Unit && t.count == 1 && !t.up_to)
    });
    if !ok {
        return Err(format!(
            "{at}: `if_this_kills` must follow a `kill` or `deal` of exactly one unit (\"it\")"
        ));
    }
    Ok(Effect::IfThisKillsIt(then))
}

/// The effect `effect` becomes when `if_paid` marks it: "If you paid, ..." (`Some(true)`) or
/// "Otherwise, ..." (`Some(false)`); whether the card has the cost it reads is checked with the
/// whole card (`check_if_paid`).
pub(super) fn if_paid(effect: Effect, if_paid: Option<bool>, at: &str) -> Result<Effect, String> {
    let Some(paid) = if_paid else {
        return Ok(effect);
    };
    let then = match effect {
        Effect::Draw(n) => Then::Draw(n),
        Effect::PlayToken(n) => Then::PlayToken(n),
        Effect::IfThisKillsIt(_) => {
            return Err(format!(
                "{at}: `if_paid` and `if_this_kills` cannot both mark one instruction"
            ))
        }
        _ => {
            return Err(format!(
                "{at}: `if_paid` rides on `draw` or `play-token` only in this model"
            ))
        }
    };
    Ok(Effect::IfPaid { paid, then })
}

/// A card whose instructions read "if you paid" has exactly one optional additional cost for
/// them to read (`rider = "if-paid"`), on a spell; and such a cost has an instruction reading it,
/// since a cost that changes nothing would be paid for nothing.
pub(super) fn check_if_paid(
    kind: CardKind,
    modes: &[Mode],
    costs: &[OptionalCost],
) -> Result<(), String> {
    let readers = modes
        .iter()
        .flat_map(|m| &m.instructions)
        .filter(|i| matches!(i.effect, Effect::IfPaid { .. }))
        .count();
    let paid_costs = costs.iter().filter(|c| c.rider == Rider::IfPaid).count();
    if paid_costs > 0 && kind != CardKind::Spell {
        return Err(
            "field `optional_costs`: `if-paid` is a spell's cost in this model (units have `accelerate` and `play-trigger`)".into(),
        );
    }
    match (readers, paid_costs) {
        (0, 0) => Ok(()),
        (_, 0) => Err(
            "an instruction with `if_paid` needs an optional cost `{ cost = \"...\", rider = \"if-paid\" }` to read".into(),
        ),
        (0, _) => Err(
            "field `optional_costs`: an `if-paid` cost needs an instruction marked `if_paid` that reads it".into(),
        ),
        (_, 1) => Ok(()),
        _ => Err("field `optional_costs`: at most one `if-paid` cost".into()),
    }
}
