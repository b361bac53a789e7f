//! Where in the model's log a difference is decided: each field's witness event and the cause
//! it shows (the last step of triage, after a refused statement and a rule read otherwise).

use super::provenance;
use super::Cause;
use crate::compare::Difference;
use crate::protocol::Observation;
use model::coverage::event_clauses;
use model::state::Event;

/// The item number (1-based) a difference's subject names, as the model's 0-based index.
fn item_of(d: &Difference) -> Option<u8> {
    let rest = d.subject.strip_prefix("item ")?;
    let n: u32 = rest.split_whitespace().next()?.parse().ok()?;
    u8::try_from(n.checked_sub(1)?).ok()
}

/// A number after `word ` in a subject (`exec 2` -> 2).
fn number_after(s: &str, word: &str) -> Option<u8> {
    let i = s.find(&format!("{word} "))?;
    s[i + word.len() + 1..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Where in the model's log a difference is decided, and the cause it shows. A difference
/// the log cannot place comes last, under its field's rule.
pub(super) fn witness(
    d: &Difference,
    log: &[Event],
    replayed: Option<&rbcheck_case::replay::Replayed>,
    engine: &Observation,
) -> (usize, Cause) {
    if d.rule.starts_with("PROTOCOL.md") {
        // The answer names what the case does not have: a mistake of the adapter, not of a
        // rule, after every rule's difference.
        return (usize::MAX - 1, Cause::named(&d.kind, &d.rule));
    }
    let item = item_of(d);
    let of_item = |e: &Event| item.is_none() || e.item() == item;
    let first = |want: &dyn Fn(&Event) -> bool| log.iter().position(|e| of_item(e) && want(e));
    let at_event = |i: usize| at_event(log, i);
    match d.field {
        "cancelled" => fallback(
            first(&|e| {
                matches!(
                    e,
                    Event::PlayCancelled { .. } | Event::CostDetermined { .. }
                )
            }),
            &["358.5"],
        ),
        "repeat-paid" => {
            let i = first(&|e| matches!(e, Event::RepeatDeclared { .. }));
            (
                i.unwrap_or(usize::MAX - 2),
                Cause::cited(
                    &["355.1.a", "820.1.c.2", "820.1.c.3"],
                    "355.1.a, 820.1.c.2–3",
                    None,
                ),
            )
        }
        "paid" => paid_witness(log, item, engine),
        "executions" => {
            match first(&|e| matches!(e, Event::ExecutionStarted { exec, .. } if *exec > 0)) {
                Some(i) => at_event(i),
                None => fallback(
                    first(&|e| matches!(e, Event::ExecutionStarted { .. })),
                    &["820.3"],
                ),
            }
        }
        // The mode an execution ran is the mode chosen for it while the item was played.
        "modes" => fallback(
            first(&|e| matches!(e, Event::ModeChosen { .. })),
            &["355.3", "820.2.a"],
        ),
        // Where and how a unit played from hand entered is decided when it entered: exhausted
        // (359.2), or ready if its [Accelerate] was paid (805). A unit the rules do not enter
        // is traced to 359.2 itself.
        "entered" => match first(&|e| matches!(e, Event::UnitEntered { .. })) {
            Some(i) => at_event(i),
            None => fallback(None, &["359.2"]),
        },
        "play-events" => fallback(
            first(&|e| matches!(e, Event::Played { .. })),
            &["419.4.a", "820.3.a"],
        ),
        "countered" => fallback(
            first(&|e| matches!(e, Event::Countered { .. } | Event::ResolveStarted { .. })),
            &["425.1"],
        ),
        "instructions" => {
            let exec = number_after(&d.subject, "exec").and_then(|k| k.checked_sub(1));
            let slot = number_after(&d.subject, "instruction").and_then(|k| k.checked_sub(1));
            let i = first(&|e| match *e {
                Event::Performed {
                    exec: x, slot: s, ..
                }
                | Event::Ignored {
                    exec: x, slot: s, ..
                } => Some(x) == exec && Some(s) == slot,
                _ => false,
            });
            match i {
                Some(i) if !provenance::clauses_at(log, i, &|_| true).is_empty() => {
                    let c = provenance::clauses_at(log, i, &|_| true);
                    (i, Cause::cited(c, &c.join(", "), None))
                }
                i => fallback(
                    i.or_else(|| first(&|e| matches!(e, Event::ExecutionStarted { .. }))),
                    &["359.3.e"],
                ),
            }
        }
        _ => replayed
            .and_then(|r| provenance::last_change(d, r, engine))
            .unwrap_or_else(|| board_witness(d, log)),
    }
}

/// Where in the model's log a difference of the board, the players or the events is decided
/// (the rest of [`witness`]).
fn board_witness(d: &Difference, log: &[Event]) -> (usize, Cause) {
    match d.field {
        "triggered" => fallback(
            log.iter()
                .position(|e| matches!(e, Event::Triggered { .. })),
            &["383.3"],
        ),
        "pool" => fallback(
            log.iter().position(|e| matches!(e, Event::CostPaid { .. })),
            &["357"],
        ),
        "trash" => match log
            .iter()
            .position(|e| matches!(e, Event::Countered { .. }))
        {
            Some(i) => at_event(log, i),
            None => fallback(
                log.iter().position(|e| matches!(e, Event::Played { .. })),
                &["359.3.d"],
            ),
        },
        // Which named cards are in hand is decided by the draws: from the top of the main
        // deck (359.3.e), the first draw being where a wrong end shows.
        "hand" => fallback(
            log.iter().position(|e| matches!(e, Event::Drew { .. })),
            &["359.3.e"],
        ),
        "tokens" => fallback(
            log.iter()
                .position(|e| matches!(e, Event::TokenQueued { .. })),
            &["350.2"],
        ),
        "finalized" => fallback(
            log.iter()
                .position(|e| matches!(e, Event::Finalized { .. })),
            &["359"],
        ),
        // After the end of the turn a unit's Might is its printed Might again: "this turn"
        // effects ended there (334.1), whatever gave the Might before.
        "might" if log.iter().any(|e| matches!(e, Event::TurnEnded)) => fallback(
            log.iter().position(|e| matches!(e, Event::TurnEnded)),
            &["334.1"],
        ),
        _ => fallback(
            log.iter()
                .position(|e| matches!(e, Event::Performed { .. } | Event::Ignored { .. })),
            &["359.3.e"],
        ),
    }
}

/// The cause an event of the log shows, at its position.
fn at_event(log: &[Event], i: usize) -> (usize, Cause) {
    let clauses = event_clauses(&log[i]);
    (i, Cause::cited(clauses, &clauses.join(", "), None))
}

/// A cause citing `clauses`, at the event `i` that decides the difference; a difference no
/// event of the model's run places is a symptom of an earlier divergence.
fn fallback(i: Option<usize>, clauses: &[&str]) -> (usize, Cause) {
    let c = Cause::cited(clauses, &clauses.join(", "), None);
    match i {
        Some(i) => (i, c),
        None => (usize::MAX - 2, c.weak()),
    }
}

/// Energy and Power of a cost, counted together (what a wrong component changes).
fn amount(c: &model::cost::Cost) -> i32 {
    i32::from(c.energy) + i32::from(c.power_total())
}

/// A `paid` difference traced to the cost component that explains it: the first component
/// of the item (in the model's log) whose amount equals the difference, or else divides it
/// (a component applied once per execution, or not at all when it was due twice); else the
/// total cost (356).
fn paid_witness(log: &[Event], item: Option<u8>, engine: &Observation) -> (usize, Cause) {
    let Some(item) = item else {
        return (usize::MAX - 2, Cause::cited(&["356"], "356", None));
    };
    let model_total = log.iter().find_map(|e| match e {
        Event::CostPaid { item: i, paid, .. } if *i == item => Some(amount(paid)),
        _ => None,
    });
    let engine_total = engine
        .items
        .as_ref()
        .and_then(|v| v.iter().find(|x| x.item == u32::from(item) + 1))
        .and_then(|x| x.paid.as_deref())
        .and_then(|p| model::cost::Cost::parse(p, &[]).ok())
        .map(|c| amount(&c));
    let start = log
        .iter()
        .position(|e| matches!(e, Event::CostDetermined { item: i, .. } if *i == item))
        .unwrap_or(usize::MAX - 2);
    let (Some(m), Some(e)) = (model_total, engine_total) else {
        return (start, Cause::cited(&["356"], "356", None));
    };
    let diff = (m - e).abs();
    let components: Vec<(usize, i32)> = log
        .iter()
        .enumerate()
        .filter_map(|(i, ev)| {
            let a = match ev {
                Event::DiscountApplied {
                    item: x, amount, ..
                } if *x == item => i32::from(*amount),
                Event::RepeatCostAdded { item: x, cost, .. } if *x == item => amount(cost),
                Event::DeflectAdded {
                    item: x, amount, ..
                } if *x == item => i32::from(*amount),
                Event::OptionalCostAdded { item: x, cost, .. } if *x == item => amount(cost),
                _ => return None,
            };
            (a > 0).then_some((i, a))
        })
        .collect();
    let pick = components
        .iter()
        .find(|(_, a)| *a == diff)
        .or_else(|| components.iter().find(|(_, a)| diff > 0 && diff % a == 0));
    match pick {
        Some((i, _)) => {
            let clauses = event_clauses(&log[*i]);
            // Components are decided while the total cost is determined: charged there.
            (start, Cause::cited(clauses, &clauses.join(", "), None))
        }
        None => (start, Cause::cited(&["356"], "356", None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn difference(field: &'static str, subject: &str) -> Difference {
        Difference {
            field,
            subject: subject.into(),
            model: String::new(),
            engine: String::new(),
            rule: "355.3, 820.2.a".into(),
            kind: String::new(),
        }
    }

    /// A difference in the modes an item's executions ran is traced to the choice of its mode
    /// (a cause, not a symptom), even with another item's choice before it in the log.
    #[test]
    fn a_mode_difference_is_traced_to_its_items_mode_choice() {
        let log = [
            Event::ModeChosen {
                item: 1,
                exec: 0,
                mode: 0,
            },
            Event::ModeChosen {
                item: 0,
                exec: 1,
                mode: 2,
            },
        ];
        let (at, cause) = witness(
            &difference("modes", "item 1"),
            &log,
            None,
            &Observation::default(),
        );
        assert_eq!(at, 1);
        assert!(!cause.weak, "{cause:?}");
        assert_eq!(cause.rule, "355.3, 820.2.a");
    }
}
