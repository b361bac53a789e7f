//! Replaying runes: a `runes` board line gives a player runes, a `rune` line stands
//! for the model's ExhaustRune or RecycleRune step while a cost or a demand is paid (164.2,
//! 357.1.a), and
//! `expect runes` reads the runes on the final board.

use super::{err, CaseError, View};
use crate::ast::{Expect, PlayStmt, RunePart, RuneUse};
use model::action::Action;
use model::cost::Domain;
use model::setup::Setup;
use model::state::{Phase, Player, RunesSetup, State};

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

/// Why a rune step the model does not offer is refused, if `a` is one.
pub(super) fn refused(s: &State, a: &Action, enabled: &[Action]) -> Option<(String, String)> {
    let (Action::ExhaustRune { domain } | Action::RecycleRune { domain }) = *a else {
        return None;
    };
    let demand = demand_payer(s);
    let p = match s.chain.iter().find(|i| i.is_pending()) {
        Some(item) => item.controller,
        None => demand?.1,
    };
    let runes = s.players[p.ix()].runes.as_ref()?;
    let i = domain as usize;
    let exhaust = matches!(a, Action::ExhaustRune { .. });
    let has = if exhaust {
        runes.ready[i]
    } else {
        runes.ready[i] + runes.exhausted[i]
    };
    if has == 0 {
        let what = if exhaust { "ready " } else { "" };
        return Some((
            "357.1.a".into(),
            format!("{p} has no {what}{} rune on the board", domain.letter()),
        ));
    }
    let offered: Vec<String> = enabled
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
    if offered.is_empty() {
        return None;
    }
    if demand.is_some() && !matches!(a, Action::ExhaustRune { .. }) {
        return Some((
            "131".into(),
            format!("a demand asks for Energy, which a recycled rune's Power does not pay; the model offers {} here", offered.join(", ")),
        ));
    }
    if demand.is_some() {
        return Some((
            "357.1.a".into(),
            format!(
                "the model offers {} here: a rune is exhausted for a demand only while the pool lacks what it asks and the ready runes can make it up, domains in the order R G B O P Y (payments that end with the same runes are one)",
                offered.join(", ")
            ),
        ));
    }
    Some((
        "357.1.a".into(),
        format!(
            "the model offers {} here: a rune is used only while the cost still needs what it adds, all exhausting comes before any recycling, domains go in the order R G B O P Y (payments that end with the same runes are one), and no step that would leave a payable cost unpayable is offered",
            offered.join(", ")
        ),
    ))
}

/// The item answering a demand now and the player it asks (the controller of its target).
fn demand_payer(s: &State) -> Option<(u8, Player)> {
    s.chain.iter().find_map(|i| match i.phase {
        Phase::Demanding { target, .. } => s.item(target).map(|t| (i.id, t.controller)),
        _ => None,
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
