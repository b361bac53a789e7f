//! Replaying runes: a `runes` board line gives a player runes, a `rune` line stands
//! for the model's ExhaustRune or RecycleRune step while a cost or a demand is paid (164.2,
//! 357.1.a), and
//! `expect runes` reads the runes on the final board.

use super::{err, CaseError, View};
use crate::ast::{Expect, PlayStmt, RunePart, RuneUse};
use model::action::Action;
use model::cost::Domain;
use model::game::demand_payer;
use model::setup::Setup;
use model::state::{Player, RunesSetup, State};

/// `runes PLAYER ...`: the player pays with these runes; a second line for one player is an
/// error (it would silently replace the first).
pub(super) fn board(
    s: &mut Setup,
    line: usize,
    p: Player,
    r: &RunesSetup,
) -> Result<(), CaseError> {
    let slot = &mut s.players[p.ix()].runes;
    if slot.is_some() {
        return Err(err(
            line,
            format!("a second `runes {p}` line: write all of a player's runes on one"),
        ));
    }
    *slot = Some(r.clone());
    Ok(())
}

/// The step a `rune` line stands for. A line for a player without runes is an error in the
/// file (the case made them pool-only); whether the step is allowed now is the model's to say.
pub(super) fn decision(s: &State, line: usize, stmt: &PlayStmt) -> Result<Action, CaseError> {
    let PlayStmt::Rune { how, domain } = *stmt else {
        unreachable!("only rune lines come here");
    };
    if let Some(item) = s.chain.iter().find(|i| i.is_pending()) {
        let p = item.controller;
        if s.players[p.ix()].runes.is_none() {
            return Err(err(
                line,
                format!("{p} pays for item {} but has no runes in this case (pool-only): write `runes {p} ready ...` on the board", item.id + 1),
            ));
        }
    } else if let Some((id, p)) = demand_payer(s) {
        if s.players[p.ix()].runes.is_none() {
            return Err(err(
                line,
                format!("{p} answers item {}'s demand but has no runes in this case (pool-only): write `runes {p} ready ...` on the board", id + 1),
            ));
        }
    }
    Ok(match how {
        RuneUse::Exhaust => Action::ExhaustRune { domain },
        RuneUse::Recycle => Action::RecycleRune { domain },
    })
}

/// What the final board shows for `expect runes`.
pub(super) fn observed(r: &View, e: &Expect) -> Option<Expect> {
    let Expect::Runes(p, part, _) = e else {
        return None;
    };
    let runes = r.state.players[p.ix()].runes.as_ref()?;
    let counted = |n: &[u8; 6]| -> Vec<Domain> {
        Domain::ALL
            .into_iter()
            .flat_map(|d| std::iter::repeat_n(d, usize::from(n[d as usize])))
            .collect()
    };
    let v = match part {
        RunePart::Ready => counted(&runes.ready),
        RunePart::Exhausted => counted(&runes.exhausted),
        RunePart::Deck => runes.deck.to_vec(),
    };
    Some(Expect::Runes(*p, *part, v))
}

/// `expect runes PLAYER ...` about a pool-only player matches nothing: an error, not a pass.
pub(super) fn check_subject(r: &View, e: &Expect) -> Result<(), String> {
    match e {
        Expect::Runes(p, ..) if r.state.players[p.ix()].runes.is_none() => Err(format!(
            "{p} has no runes in this case (pool-only): write `runes {p} ...` on the board, or `expect pool` for the pool"
        )),
        _ => Ok(()),
    }
}
