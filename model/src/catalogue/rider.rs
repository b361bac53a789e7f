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
    let Some(then) = Then::of(effect) else {
        return Err(format!(
            "{at}: `if_this_kills` rides on `draw` or `play-token` only in this model"
        ));
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
    if matches!(effect, Effect::IfThisKillsIt(_)) {
        return Err(format!(
            "{at}: `if_paid` and `if_this_kills` cannot both mark one instruction"
        ));
    }
    let Some(then) = Then::of(effect) else {
        return Err(format!(
            "{at}: `if_paid` rides on `draw` or `play-token` only in this model"
        ));
    };
    Ok(Effect::IfPaid { paid, then })
}

/// A rider marked `if_paid` reads the "you may pay" before it in its mode (`MayPay`), if any,
/// or else the card's optional additional cost (`rider = "if-paid"`): a spell has exactly one
/// such cost when riders read it, and none that no rider reads, since a cost that changes
/// nothing would be paid for nothing; a "you may pay" likewise has a rider after it.
pub(super) fn check_if_paid(
    kind: CardKind,
    modes: &[Mode],
    costs: &[OptionalCost],
) -> Result<(), String> {
    for (mi, m) in modes.iter().enumerate() {
        // Each "you may pay" has a rider reading it before the next one, or the mode's end.
        let mut unread = false;
        for i in &m.instructions {
            match i.effect {
                Effect::MayPay(_) if unread => break,
                Effect::MayPay(_) => unread = true,
                Effect::IfPaid { .. } => unread = false,
                _ => {}
            }
        }
        if unread {
            return Err(format!(
                "mode {}: a `may-pay` needs a rider marked `if_paid` after it (\"If you do, ...\"), before any other `may-pay`",
                mi + 1
            ));
        }
    }
    let readers: usize = modes.iter().map(Mode::cost_readers).sum();
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
