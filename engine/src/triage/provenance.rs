//! Where the model decided what a board difference is about: the last event of the model's log
//! that changed the unit, gear or player the difference names, in the field that differs, and
//! the rule that event (or the instruction it belongs to) applies. A unit the engine leaves
//! on the board is traced to what killed it in the model's run (two units dealing their Mights
//! to each other, 417.6.b.3), or, when the engine's own board shows that unit with damage
//! reaching its Might, to the cleanup it died in (321); a unit the engine kills whose damage
//! only a reading of its Might without what was given this turn makes lethal, to the cleanup
//! that did not kill it (321); a grant the engine keeps to the end of the turn (334.1), a gear
//! left ready to the cost it paid (357.2), rather than to "instructions executed" (359.3.e).

use super::Cause;
use crate::compare::Difference;
use crate::protocol::Observation;
use model::coverage::event_clauses;
use model::state::{Event, Obj, Player};
use rbcheck_case::replay::Replayed;

/// What a board difference is about.
#[derive(Clone, Copy, PartialEq, Eq)]
enum About {
    Object(Obj),
    Player(Player),
}

/// The unit, gear or player a difference's subject names (`unit u1`, `gear g1`, `you`).
fn about(d: &Difference, r: &Replayed) -> Option<About> {
    let label = |rest: &str| r.labels.get(rest.trim()).copied().map(About::Object);
    if let Some(rest) = d.subject.strip_prefix("unit ") {
        return label(rest);
    }
    if let Some(rest) = d.subject.strip_prefix("gear ") {
        return label(rest);
    }
    match d.subject.as_str() {
        "you" => Some(About::Player(Player::YOU)),
        "opponent" => Some(About::Player(Player::OPP)),
        _ => None,
    }
}

/// True if event `at` of the log decides `field` of `what`: it changes that field of that unit
/// or gear (or, a target left unaffected, leaves it alone on purpose), or that player's part of
/// the board the field reads.
fn decides(field: &str, what: About, log: &[Event], at: usize) -> bool {
    let e = &log[at];
    match what {
        About::Object(o) => {
            // The end of the turn ends every unit's "this turn" Might, [Assault] and damage.
            if matches!(e, Event::TurnEnded) {
                return matches!(o, Obj::Unit(_)) && matches!(field, "might" | "damage" | "status");
            }
            e.objects().contains(&Some(o))
                && match field {
                    "unit-zone" | "gear-zone" => matches!(
                        e,
                        Event::ZoneChange { .. }
                            | Event::UnitEntered { .. }
                            | Event::PaidWithUnit { .. }
                            | Event::Damaged { .. }
                            | Event::MightsExchanged { .. }
                            | Event::TargetUnaffected { .. }
                    ),
                    "damage" => matches!(
                        e,
                        Event::Damaged { .. }
                            | Event::MightsExchanged { .. }
                            | Event::ZoneChange { .. }
                            | Event::TargetUnaffected { .. }
                    ),
                    "might" => matches!(
                        e,
                        Event::MightChanged { .. }
                            | Event::AssaultGiven { .. }
                            | Event::UnitEntered { .. }
                            | Event::TargetUnaffected { .. }
                    ),
                    "status" | "gear-status" => matches!(
                        e,
                        Event::Stunned { .. }
                            | Event::Readied { .. }
                            | Event::AssaultGiven { .. }
                            | Event::UnitEntered { .. }
                            | Event::PaidWithUnit { .. }
                            | Event::GearExhausted { .. }
                            | Event::TargetUnaffected { .. }
                    ),
                    "location" => matches!(
                        e,
                        Event::UnitMoved { .. }
                            | Event::UnitEntered { .. }
                            | Event::TargetUnaffected { .. }
                    ),
                    _ => false,
                }
        }
        About::Player(p) => {
            // The end of the turn ends every "this turn" grant (334.1).
            if field == "grants" && matches!(e, Event::TurnEnded) {
                return true;
            }
            let mine = e.player() == Some(p) || paid_by(log, at) == Some(p);
            mine && match field {
                "hand" | "hand-size" => matches!(
                    e,
                    Event::Drew { .. } | Event::DrewLooked { .. } | Event::Discarded { .. }
                ),
                "deck" => matches!(
                    e,
                    Event::Drew { .. } | Event::DrewLooked { .. } | Event::Recycled { .. }
                ),
                "pool" => matches!(
                    e,
                    Event::CostPaid { .. }
                        | Event::RuneExhausted { .. }
                        | Event::RuneRecycled { .. }
                        | Event::PoolEmptied { .. }
                        | Event::DemandDecided { paid: true, .. }
                        | Event::DemandRuneExhausted { .. }
                ),
                "runes" => matches!(
                    e,
                    Event::RuneExhausted { .. }
                        | Event::RuneRecycled { .. }
                        | Event::RuneChannelled { .. }
                        | Event::RunesChannelled { .. }
                        | Event::DemandRuneExhausted { .. }
                ),
                "grants" => matches!(e, Event::GrantGiven { .. } | Event::GrantTaken { .. }),
                _ => false,
            }
        }
    }
}

/// The controller of the item whose cost event `at` pays, for a cost paid.
fn paid_by(log: &[Event], at: usize) -> Option<Player> {
    let Event::CostPaid { item, .. } = log[at] else {
        return None;
    };
    log[..at].iter().rev().find_map(|e| match *e {
        Event::MovedToChain { item: i, by, .. } if i == item => Some(by),
        _ => None,
    })
}

/// True for an event that ends the span of one instruction's effects: what is logged between
/// two of these belongs to the instruction whose `Performed` closes it.
fn boundary(e: &Event) -> bool {
    matches!(
        e,
        Event::Performed { .. }
            | Event::Ignored { .. }
            | Event::ExecutionStarted { .. }
            | Event::ResolveStarted { .. }
            | Event::Resolved { .. }
            | Event::Played { .. }
            | Event::Cleanup
            | Event::ChainClosed
            | Event::TurnEnded
    )
}

/// The clauses event `at` shows: its own, or else those of the instruction it is (a
/// `Performed`) or is an effect of: the first event with clauses logged for that instruction
/// (its effects come before its `Performed`) that `same` accepts (one about the same unit, gear
/// or player).
pub(super) fn clauses_at(
    log: &[Event],
    at: usize,
    same: &dyn Fn(usize) -> bool,
) -> &'static [&'static str] {
    let own = event_clauses(&log[at]);
    if !own.is_empty() {
        return own;
    }
    let start = log[..at].iter().rposition(boundary).map_or(0, |b| b + 1);
    let end = match log[at..].iter().position(boundary) {
        Some(k) if matches!(log[at + k], Event::Performed { .. }) => at + k,
        _ => return own,
    };
    (start..end)
        .filter(|&j| same(j))
        .map(|j| event_clauses(&log[j]))
        .find(|c| !c.is_empty())
        .unwrap_or(own)
}

/// Where a difference of the board is decided in the model's run `r`: the last event deciding
/// the field of the unit, gear or player the difference names that shows a rule (`clauses_at`),
/// and that rule; for a trash, the same for the zone of each unit or gear whose card one side
/// has there and the other not. None if no such event shows a rule.
pub(super) fn last_change(
    d: &Difference,
    r: &Replayed,
    engine: &Observation,
) -> Option<(usize, Cause)> {
    let log: &[Event] = &r.state.log;
    // The last event that decided the value, and its rule; none if it shows no rule, except a
    // unit leaving the board, which is what the damage or kill before it decided, or the
    // cleanup it died in when the engine's own board shows it lethal and still standing.
    let last = |field: &str, what: About| {
        let same = |j: usize| decides(field, what, log, j);
        for i in (0..log.len()).rev().filter(|&i| same(i)) {
            let c = if died_in_cleanup(log, i) && standing_lethal(what, r, engine) {
                event_clauses(&Event::Cleanup)
            } else {
                clauses_at(log, i, &same)
            };
            if !c.is_empty() {
                let cause = Cause {
                    traced: true,
                    settled: false,
                    ..Cause::cited(c, &c.join(", "), None)
                };
                return Some((i, cause));
            }
            if !matches!(log[i], Event::ZoneChange { .. }) {
                return None;
            }
        }
        None
    };
    let what = about(d, r);
    if d.field == "unit-zone" {
        if let Some(found) = what.and_then(|w| killed_below_might(w, r, engine)) {
            return Some(found);
        }
    }
    if let Some(found) = what.and_then(|w| last(d.field, w)) {
        return Some(found);
    }
    if d.field == "trash" {
        let apart = trashed_apart(d, r);
        let killed = apart
            .iter()
            .find_map(|&o| killed_below_might(About::Object(o), r, engine));
        return killed.or_else(|| {
            apart
                .into_iter()
                .filter_map(|o| last("unit-zone", About::Object(o)))
                .min_by_key(|(i, _)| *i)
        });
    }
    None
}

/// True if event `at` is a zone change among a cleanup's effects: a unit dying of lethal
/// damage (321).
fn died_in_cleanup(log: &[Event], at: usize) -> bool {
    matches!(log[at], Event::ZoneChange { .. })
        && log[..at]
            .iter()
            .rev()
            .find(|e| boundary(e))
            .is_some_and(|e| matches!(e, Event::Cleanup))
}

/// What the engine's board shows of unit `what`, found by the unit's label in the case.
fn shown_unit<'e>(
    what: About,
    r: &Replayed,
    engine: &'e Observation,
) -> Option<&'e crate::protocol::UnitObs> {
    let About::Object(o @ Obj::Unit(_)) = what else {
        return None;
    };
    let label = r.labels.iter().find(|(_, v)| **v == o).map(|(k, _)| k)?;
    engine.units.as_ref()?.get(label.as_str())
}

/// True if the engine's board shows unit `what` on the board with damage reaching its Might:
/// the engine marked what made it lethal and did not kill it.
fn standing_lethal(what: About, r: &Replayed, engine: &Observation) -> bool {
    shown_unit(what, r, engine).is_some_and(|u| {
        u.zone.as_deref() != Some("trash")
            && matches!((u.damage, u.might), (Some(dmg), Some(m)) if dmg > 0 && dmg >= m)
    })
}

/// A unit the engine's board shows in the trash, which the model's run leaves on the board
/// with damage below its current Might but reaching a reading of its Might that leaves out
/// what was given or taken this turn, or its [Assault]: the engine's cleanup judged it lethal
/// by the wrong Might. Traced to the model's last cleanup (321), which did not kill it; a unit
/// whose damage no reading of its Might explains is left to what dealt the damage.
fn killed_below_might(what: About, r: &Replayed, engine: &Observation) -> Option<(usize, Cause)> {
    let About::Object(Obj::Unit(i)) = what else {
        return None;
    };
    let u = r.state.units.get(usize::from(i))?;
    let shown = shown_unit(what, r, engine)?;
    if shown.zone.as_deref() != Some("trash") || u.zone != model::state::Zone::Board {
        return None;
    }
    let current = i16::from(u.current_might());
    let printed = i16::from(u.might);
    let readings = [printed, printed + i16::from(u.might_mod)];
    let damage = i16::from(u.damage);
    let wrong = damage > 0 && damage < current && readings.iter().any(|&m| damage >= m);
    if !wrong {
        return None;
    }
    let at = r
        .state
        .log
        .iter()
        .rposition(|e| matches!(e, Event::Cleanup))?;
    let c = event_clauses(&Event::Cleanup);
    Some((
        at,
        Cause {
            traced: true,
            ..Cause::cited(c, &c.join(", "), None)
        },
    ))
}

/// The units and gear of the model's run whose card is in one side's trash and not the
/// other's (by name, counted): what a trash difference is about beyond the spells.
fn trashed_apart(d: &Difference, r: &Replayed) -> Vec<Obj> {
    let names = |s: &str| -> Vec<String> {
        s.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let mut apart = names(&d.model);
    for n in names(&d.engine) {
        match apart.iter().position(|x| *x == n) {
            Some(k) => {
                apart.remove(k);
            }
            None => apart.push(n),
        }
    }
    let name = |id| r.game.card(id).name.as_str();
    let units = r.state.units.iter().enumerate();
    let gear = r.state.gear.iter().enumerate();
    units
        .filter(|(_, u)| apart.iter().any(|n| n == name(u.card)))
        .map(|(i, _)| Obj::Unit(i as u8))
        .chain(
            gear.filter(|(_, g)| apart.iter().any(|n| n == name(g.card)))
                .map(|(i, _)| Obj::Gear(i as u8)),
        )
        .collect()
}
