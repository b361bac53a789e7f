//! Reading a reflexive rider, "If this kills it, ..." (359.3.e.14): a `draw` or `play-token`
//! instruction marked `if_this_kills = true`, right after a kill or deal of exactly one unit.

use crate::card::{Effect, Instruction, TargetKind, Then};

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
