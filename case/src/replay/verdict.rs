//! Judging a replay: what the model shows for each expectation's subject, in the expectation's
//! own words, and the verdict on a case (the first expectation that does not hold).

use super::{Replayed, View};
use crate::ast::*;
use crate::print::{expect_stmt, play_stmt};
use model::state::{Event, Location, Obj, Zone};

/// The verdict on one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every expectation holds.
    Pass,
    /// The first expectation that does not hold: its line and the message.
    Fail {
        /// The expectation's (or statement's) line.
        line: usize,
        /// What differs, with the rule involved.
        message: String,
    },
}

/// The rule an expectation is about, for failure messages.
fn rule_of(e: &Expect) -> &'static str {
    match e {
        Expect::Legal | Expect::Illegal { .. } => "355-358",
        Expect::Cancelled(..) => "358.5",
        Expect::Paid(..) => "356-357",
        Expect::RepeatPaid(..) => "820.1.c",
        Expect::Executions(..) => "820.3",
        Expect::PlayEvents(..) => "820.3.a, 419.4.a",
        Expect::Performed(..) | Expect::Ignored(..) => "359.3.e, 820.1.d.2",
        Expect::Countered(..) | Expect::NotCountered(..) => "425",
        Expect::Triggered(..) => "383, 419.4.a",
        Expect::Finalized(..) => "419.4.b",
        Expect::Grants(..) => "SFD-078, UNL-216, 358.5",
        Expect::UnitDamage(..)
        | Expect::UnitZone(..)
        | Expect::UnitAt(..)
        | Expect::GearZone(..)
        | Expect::Tokens(..) => "359.3.e, 321",
        Expect::Pool(..) | Expect::HandSize(..) | Expect::Trash(..) | Expect::Deck(..) => {
            "357, 425.1"
        }
        Expect::DeckTop(..) | Expect::Hand(..) => "359.3.e",
        Expect::Recycled(..) => "416",
        Expect::Demands(..) => "425, Hard Bargain",
        Expect::RunesExhausted(..) => "Find Your Center",
        Expect::UnitMight(..) => "807.1.c, 321",
        Expect::UnitStunned(..) => "423.1",
        Expect::UnitReady(..) => "414, 415",
        Expect::UnitAssault(..) => "807.2",
        Expect::OptionalPaid(..) => "355.1.a, 356.2.b",
        Expect::Entered(..) => "355.2, 359.2, 805",
        Expect::Order(..) => "the event log's order",
        Expect::Discarded(..) => "357.2",
        Expect::Runes(..) => "164.2, 357.1.a, 358.5",
    }
}

/// What the replay shows for an expectation's subject, in the expectation's own words.
pub fn observed(r: &View, e: &Expect) -> Option<Expect> {
    let s = &r.state;
    let label = |l: &str| unit_or_label(r, l);
    Some(match e {
        Expect::Legal | Expect::Illegal { .. } => match r.illegal {
            None => Expect::Legal,
            Some(i) => Expect::Illegal {
                line: i.line,
                rule: Some(i.rule.clone()),
                play: None,
            },
        },
        Expect::Cancelled(..)
        | Expect::Paid(..)
        | Expect::RepeatPaid(..)
        | Expect::Executions(..)
        | Expect::PlayEvents(..)
        | Expect::Performed(..)
        | Expect::Ignored(..)
        | Expect::Countered(..)
        | Expect::NotCountered(..)
        | Expect::Triggered(..) => return in_log(r, e),
        Expect::Finalized(p, _) => Expect::Finalized(*p, s.players[p.ix()].finalized_this_turn),
        Expect::Grants(p, _) => Expect::Grants(
            *p,
            model::state::Grant::ALL
                .into_iter()
                .flat_map(|g| std::iter::repeat_n(g, usize::from(g.held(&s.players[p.ix()]))))
                .collect(),
        ),
        Expect::UnitDamage(l, _) => match label(l)? {
            Obj::Unit(u) => Expect::UnitDamage(l.clone(), s.units[u as usize].damage),
            _ => return None,
        },
        Expect::UnitZone(l, _) => match label(l)? {
            Obj::Unit(u) => Expect::UnitZone(l.clone(), s.units[u as usize].zone),
            _ => return None,
        },
        Expect::UnitAt(l, _) => match label(l)? {
            Obj::Unit(u) => Expect::UnitAt(l.clone(), s.units[u as usize].loc),
            _ => return None,
        },
        Expect::GearZone(l, _) => match label(l)? {
            Obj::Gear(g) => Expect::GearZone(l.clone(), s.gear[g as usize].zone),
            _ => return None,
        },
        Expect::Tokens(p, _) => Expect::Tokens(
            *p,
            s.units
                .iter()
                .filter(|u| u.token && u.zone == Zone::Board && u.controller == *p)
                .count() as u8,
        ),
        Expect::Pool(p, _) => Expect::Pool(*p, s.players[p.ix()].pool),
        Expect::HandSize(p, _) => {
            let ps = &s.players[p.ix()];
            let n = ps.hand.len() + usize::from(ps.hand_other);
            Expect::HandSize(*p, u8::try_from(n).unwrap_or(u8::MAX))
        }
        Expect::Trash(p, _) => Expect::Trash(
            *p,
            s.players[p.ix()]
                .trash
                .iter()
                .map(|c| r.game.card(*c).name.clone())
                .collect(),
        ),
        Expect::Deck(p, _) => Expect::Deck(
            *p,
            u8::try_from(s.players[p.ix()].deck_size()).unwrap_or(u8::MAX),
        ),
        Expect::UnitMight(l, _)
        | Expect::UnitStunned(l, _)
        | Expect::UnitReady(l, _)
        | Expect::UnitAssault(l, _) => {
            let Obj::Unit(u) = label(l)? else {
                return None;
            };
            let u = &s.units[u as usize];
            match e {
                Expect::UnitMight(..) => Expect::UnitMight(l.clone(), u.current_might()),
                Expect::UnitStunned(..) => Expect::UnitStunned(l.clone(), u.status.stunned),
                Expect::UnitReady(..) => Expect::UnitReady(l.clone(), !u.status.exhausted),
                _ => Expect::UnitAssault(l.clone(), u.status.assault),
            }
        }
        Expect::DeckTop(..)
        | Expect::Hand(..)
        | Expect::Recycled(..)
        | Expect::Demands(..)
        | Expect::RunesExhausted(..) => return deck_observed(r, e),
        Expect::OptionalPaid(..)
        | Expect::Entered(..)
        | Expect::Discarded(..)
        | Expect::Order(..) => return costs_observed(r, e),
        Expect::Runes(..) => return super::runes::observed(r, e),
    })
}

/// What the replay shows for the expectations about the deck, the hand, demands
/// and channelled runes.
fn deck_observed(r: &View, e: &Expect) -> Option<Expect> {
    use model::state::DeckCard;
    let s = &r.state;
    let name = |c: &model::CardId| r.game.card(*c).name.clone();
    Some(match e {
        Expect::DeckTop(p, _) => {
            Expect::DeckTop(*p, s.players[p.ix()].deck_top.iter().map(name).collect())
        }
        Expect::Hand(p, _) => Expect::Hand(*p, s.players[p.ix()].hand.iter().map(name).collect()),
        Expect::Recycled(p, _) => Expect::Recycled(
            *p,
            s.players[p.ix()]
                .recycled
                .iter()
                .map(|c| match c {
                    DeckCard::Named(c) => DeckRef::Named(name(c)),
                    DeckCard::Other => DeckRef::Other,
                })
                .collect(),
        ),
        Expect::Demands(n, _) => Expect::Demands(
            *n,
            s.log
                .iter()
                .filter_map(|ev| match ev {
                    Event::DemandDecided { target, paid, .. } if *target == n - 1 => Some(*paid),
                    _ => None,
                })
                .collect(),
        ),
        Expect::RunesExhausted(p, _) => {
            Expect::RunesExhausted(*p, s.players[p.ix()].runes_exhausted)
        }
        _ => return None,
    })
}

/// What the replay shows for the expectations about costs other than [Repeat] and where units
/// enter: optional costs paid, entries, discards, and the order of moments.
fn costs_observed(r: &View, e: &Expect) -> Option<Expect> {
    let s = &r.state;
    Some(match e {
        Expect::OptionalPaid(n, _) => Expect::OptionalPaid(
            *n,
            s.log
                .iter()
                .filter_map(|ev| match ev {
                    Event::OptionalCostDeclared {
                        item,
                        index,
                        pay: true,
                    } if *item == n - 1 => Some(index + 1),
                    _ => None,
                })
                .collect(),
        ),
        Expect::Entered(n, ..) => s.log.iter().find_map(|ev| match ev {
            Event::UnitEntered {
                item, at, ready, ..
            } if *item == n - 1 => Some(Expect::Entered(*n, *at, *ready)),
            // 359.2: a gear enters ready, in its controller's base.
            Event::GearEntered { item, gear } if *item == n - 1 => Some(Expect::Entered(
                *n,
                Location::Base(s.gear[*gear as usize].controller),
                true,
            )),
            _ => None,
        })?,
        Expect::Discarded(n, _) => Expect::Discarded(
            *n,
            s.log
                .iter()
                .filter_map(|ev| match ev {
                    Event::Discarded { item, card, .. } if *item == n - 1 => {
                        Some(card.map(|c| r.game.card(c).name.clone()))
                    }
                    _ => None,
                })
                .collect(),
        ),
        Expect::Order(v) => {
            let mut at: Vec<(usize, Moment)> = v
                .iter()
                .map(|m| moment_at(r, m).map(|i| (i, m.clone())))
                .collect::<Option<_>>()?;
            at.sort_by_key(|(i, _)| *i);
            Expect::Order(at.into_iter().map(|(_, m)| m).collect())
        }
        _ => return None,
    })
}

// ---- Token labels and the order of events ----

/// A label of the case, `token-K` (the K-th unit token that entered the board) or `played-N`
/// (the unit or gear item N put on the board, played from hand).
pub fn unit_or_label(r: &View, l: &str) -> Option<Obj> {
    if let Some(k) = l
        .strip_prefix("token-")
        .and_then(|k| k.parse::<usize>().ok())
    {
        return k.checked_sub(1).and_then(|k| nth_token(r.state, k));
    }
    if let Some(n) = played_item(l) {
        return played(r.state, n);
    }
    r.labels.get(l).copied()
}

/// The item number N of a `played-N` label.
pub fn played_item(l: &str) -> Option<u8> {
    l.strip_prefix("played-")?
        .parse::<u8>()
        .ok()
        .filter(|n| *n > 0)
}

/// The unit or gear that item `n` (1-based), played from hand, put on the board, if it has.
pub fn played(s: &model::state::State, n: u8) -> Option<Obj> {
    s.log.iter().find_map(|e| match *e {
        Event::UnitEntered { item, unit, .. } if item + 1 == n => Some(Obj::Unit(unit)),
        Event::GearEntered { item, gear } if item + 1 == n => Some(Obj::Gear(gear)),
        _ => None,
    })
}

/// The `k`-th (0-based) unit token that entered the board, in the order they entered.
pub fn nth_token(s: &model::state::State, k: usize) -> Option<Obj> {
    s.units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.token)
        .nth(k)
        .map(|(i, _)| Obj::Unit(i as u8))
}

/// Where in the log a moment first happened, if it did.
fn moment_at(r: &View, m: &Moment) -> Option<usize> {
    let token = match m {
        Moment::Entry(ObjRef::Label(l)) => match unit_or_label(r, l)? {
            Obj::Unit(u) => Some(u),
            _ => return None,
        },
        _ => None,
    };
    r.state.log.iter().position(|ev| match (m, ev) {
        (Moment::Execution(n, k), Event::ExecutionStarted { item, exec }) => {
            (*item, *exec) == (n - 1, k - 1)
        }
        (Moment::Finalize(n), Event::Finalized { item }) => *item == n - 1,
        (Moment::Play(n), Event::Played { item, .. }) => *item == n - 1,
        (Moment::Finish(n), Event::Resolved { item }) => *item == n - 1,
        (
            Moment::Entry(ObjRef::Item(n)),
            Event::UnitEntered { item, .. } | Event::GearEntered { item, .. },
        ) => *item == n - 1,
        (Moment::Entry(ObjRef::Label(_)), Event::UnitEntered { unit, .. }) => Some(*unit) == token,
        (Moment::Trigger(name), Event::Triggered { card, .. }) => {
            r.game.card(*card).name.eq_ignore_ascii_case(name)
        }
        _ => false,
    })
}

/// What the event log shows for an expectation about a chain item or a trigger.
fn in_log(r: &View, e: &Expect) -> Option<Expect> {
    let log = &r.state.log;
    let count = |f: &dyn Fn(&Event) -> bool| log.iter().filter(|e| f(e)).count() as u8;
    Some(match e {
        Expect::Cancelled(n, _) => {
            let why = log.iter().find_map(|ev| match ev {
                Event::PlayCancelled { item, why } if *item == n - 1 => Some(*why),
                _ => None,
            })?;
            Expect::Cancelled(*n, Some(why))
        }
        Expect::Paid(n, _) => Expect::Paid(
            *n,
            log.iter().fold(model::Cost::ZERO, |acc, ev| match ev {
                Event::CostPaid { item, paid, .. } if *item == n - 1 => acc.plus(paid),
                _ => acc,
            }),
        ),
        Expect::RepeatPaid(n, _) => Expect::RepeatPaid(
            *n,
            log.iter()
                .filter_map(|ev| match ev {
                    Event::RepeatDeclared {
                        item,
                        instance,
                        pay: true,
                    } if *item == n - 1 => Some(instance + 1),
                    _ => None,
                })
                .collect(),
        ),
        Expect::Executions(n, _) => Expect::Executions(
            *n,
            count(&|ev| matches!(ev, Event::ExecutionStarted { item, .. } if *item == n - 1)),
        ),
        Expect::PlayEvents(n, _) => Expect::PlayEvents(
            *n,
            count(&|ev| matches!(ev, Event::Played { item, .. } if *item == n - 1)),
        ),
        Expect::Performed(n, k, i) | Expect::Ignored(n, k, i, _) => {
            let (item, exec, slot) = (n - 1, k - 1, i - 1);
            log.iter().find_map(|ev| match ev {
                Event::Performed {
                    item: a,
                    exec: b,
                    slot: c,
                    ..
                } if (*a, *b, *c) == (item, exec, slot) => Some(Expect::Performed(*n, *k, *i)),
                Event::Ignored {
                    item: a,
                    exec: b,
                    slot: c,
                    why,
                } if (*a, *b, *c) == (item, exec, slot) => {
                    Some(Expect::Ignored(*n, *k, *i, Some(*why)))
                }
                _ => None,
            })?
        }
        Expect::Countered(n) | Expect::NotCountered(n) => {
            if log
                .iter()
                .any(|ev| matches!(ev, Event::Countered { item, .. } if *item == n - 1))
            {
                Expect::Countered(*n)
            } else {
                Expect::NotCountered(*n)
            }
        }
        Expect::Triggered(name, _) => Expect::Triggered(
            name.clone(),
            count(
                &|ev| matches!(ev, Event::Triggered { card, .. } if r.game.card(*card).name.eq_ignore_ascii_case(name)),
            ),
        ),
        _ => return None,
    })
}

/// Every expectation must be about something that exists: an item the replay put on the chain,
/// a declared label of the right kind, a card or ability the case knows, a play statement's line.
/// One that matches nothing is an error in the file (it could never be checked), not a pass or a
/// failure of the rules.
pub fn check_subjects(case: &Case, r: &View) -> Result<(), super::CaseError> {
    subjects(case, &case.expects, r)
}

/// [`check_subjects`] for the expectations written among the plays, each against the
/// state where it is written: an item not yet played there is an error at that point. One the
/// replay can never reach (it is written after the statement the case expects illegal) is an
/// error too; one after a refused statement the case does not expect is skipped, since the
/// verdict reports that statement.
pub fn check_checkpoint_subjects(case: &Case, r: &Replayed) -> Result<(), super::CaseError> {
    let expects_illegal = case
        .expects
        .iter()
        .any(|e| matches!(e.stmt, Expect::Illegal { .. }));
    for cp in &case.checkpoints {
        match r.view_at(cp.after) {
            Some(v) => subjects(case, std::slice::from_ref(&cp.expect), &v)?,
            None if expects_illegal => {
                return Err(super::CaseError {
                    undecided: None,
                    line: cp.expect.line,
                    message: format!(
                        "`expect {}` comes after the statement the case expects illegal: the replay never gets there",
                        expect_stmt(&cp.expect.stmt)
                    ),
                })
            }
            None => {}
        }
    }
    Ok(())
}

/// Whether `r` is where the case ends, so that every subject must exist in it: the replay ran
/// to the end, or stopped at the very statement the case expects illegal. A replay stopped at a
/// statement the case does not expect refused never got to what follows (items, tokens,
/// moments): the verdict reports that statement instead.
fn at_the_end(case: &Case, r: &View) -> bool {
    match r.illegal {
        None => true,
        Some(i) => case
            .expects
            .iter()
            .any(|e| matches!(e.stmt, Expect::Illegal { line, .. } if line == i.line)),
    }
}

fn subjects(case: &Case, expects: &[Line<Expect>], r: &View) -> Result<(), super::CaseError> {
    let items = usize::from(r.state.next_item);
    let end = at_the_end(case, r);
    for Line { line, stmt } in expects {
        let fail = |message: String| {
            Err(super::CaseError {
                undecided: None,
                line: *line,
                message: format!("`expect {}`: {message}", expect_stmt(stmt)),
            })
        };
        let item = match stmt {
            Expect::Cancelled(n, _)
            | Expect::Paid(n, _)
            | Expect::RepeatPaid(n, _)
            | Expect::Executions(n, _)
            | Expect::PlayEvents(n, _)
            | Expect::Performed(n, ..)
            | Expect::Ignored(n, ..)
            | Expect::Countered(n)
            | Expect::NotCountered(n)
            | Expect::Demands(n, _)
            | Expect::OptionalPaid(n, _)
            | Expect::Entered(n, ..)
            | Expect::Discarded(n, _) => Some(*n),
            _ => None,
        };
        if let (Some(n), true) = (item, end) {
            if usize::from(n) > items {
                return fail(format!(
                    "there is no item {n}: the replay put {items} item(s) on the chain"
                ));
            }
        }
        let (label, unit) = match stmt {
            Expect::UnitDamage(l, _)
            | Expect::UnitZone(l, _)
            | Expect::UnitAt(l, _)
            | Expect::UnitMight(l, _)
            | Expect::UnitStunned(l, _)
            | Expect::UnitReady(l, _)
            | Expect::UnitAssault(l, _) => (Some(l), true),
            Expect::GearZone(l, _) => (Some(l), false),
            _ => (None, false),
        };
        if let Some(l) = label {
            if l.starts_with("token-") && unit && unit_or_label(r, l).is_none() && end {
                return fail(format!(
                    "`{l}`: no such token entered the board (tokens are numbered from 1 in the order they enter)"
                ));
            }
            if played_item(l).is_some() && unit_or_label(r, l).is_none() && end {
                return fail(format!(
                    "`{l}`: item {} put no unit or gear on the board (`played-N` names what item N, played from hand, put there)",
                    &l["played-".len()..]
                ));
            }
            match (unit_or_label(r, l).as_ref(), unit) {
                (Some(Obj::Unit(_)), true) | (Some(Obj::Gear(_)), false) => {}
                (None, _) if l.starts_with("token-") || played_item(l).is_some() => {}
                (Some(_), true) => return fail(format!("`{l}` is not a unit")),
                (Some(_), false) => return fail(format!("`{l}` is not a gear")),
                (None, _) => {
                    return fail(format!(
                        "unknown label `{l}`: declare it with `{} {l} ...`",
                        if unit { "unit" } else { "gear" }
                    ))
                }
            }
        }
        if let (Expect::Order(v), true) = (stmt, end) {
            for (i, m) in v.iter().enumerate() {
                if v[..i].contains(m) {
                    return fail(format!("`{}` is named twice", crate::print::moment(m)));
                }
                if moment_at(r, m).is_none() {
                    return fail(format!(
                        "`{}` matches no event of the replay",
                        crate::print::moment(m)
                    ));
                }
            }
        }
        let discarded: Vec<String> = match stmt {
            Expect::Discarded(_, v) => v.iter().flatten().cloned().collect(),
            _ => vec![],
        };
        let recycled: Vec<String>;
        let names: &[String] = match stmt {
            Expect::Triggered(name, _) => std::slice::from_ref(name),
            Expect::Trash(_, v) | Expect::DeckTop(_, v) | Expect::Hand(_, v) => v,
            Expect::Discarded(..) => &discarded,
            Expect::Recycled(_, v) => {
                recycled = v
                    .iter()
                    .filter_map(|d| match d {
                        DeckRef::Named(n) => Some(n.clone()),
                        DeckRef::Other => None,
                    })
                    .collect();
                &recycled
            }
            _ => &[],
        };
        for name in names {
            if r.game.card_named(name).is_none() {
                return fail(format!(
                    "no card or ability is named \"{name}\" (not in model/cards.toml or a `define`)"
                ));
            }
        }
        if let Expect::Illegal { line: l, .. } = stmt {
            if !case.plays.iter().any(|p| p.line == *l) {
                return fail(format!("line {l} is not a play statement"));
            }
        }
        super::runes::check_subject(r, stmt).or_else(fail)?;
    }
    Ok(())
}

fn matches(expected: &Expect, got: &Expect) -> bool {
    match (expected, got) {
        (
            Expect::Illegal { line, rule, .. },
            Expect::Illegal {
                line: l2, rule: r2, ..
            },
        ) => {
            line == l2
                && rule.as_ref().is_none_or(|r| {
                    r2.as_deref()
                        .is_some_and(|g| g.starts_with(r.as_str()) || r.starts_with(g))
                })
        }
        (Expect::Cancelled(a, None), Expect::Cancelled(b, _)) => a == b,
        (Expect::Ignored(a, b, c, None), Expect::Ignored(d, e, f, _)) => (a, b, c) == (d, e, f),
        (Expect::Discarded(n, a), Expect::Discarded(m, b)) => {
            let same = |x: &Option<String>, y: &Option<String>| match (x, y) {
                (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
                (None, None) => true,
                _ => false,
            };
            n == m && a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Expect::Trash(p, a), Expect::Trash(q, b)) => {
            let (mut a, mut b) = (a.clone(), b.clone());
            a.iter_mut().for_each(|x| *x = x.to_ascii_lowercase());
            b.iter_mut().for_each(|x| *x = x.to_ascii_lowercase());
            p == q && a == b
        }
        // Card names are compared as the catalogue's lookups are: ignoring case.
        (Expect::DeckTop(..), Expect::DeckTop(..))
        | (Expect::Hand(..), Expect::Hand(..))
        | (Expect::Recycled(..), Expect::Recycled(..)) => {
            expect_stmt(expected).eq_ignore_ascii_case(&expect_stmt(got))
        }
        _ => expected == got,
    }
}

/// Compares a replay with the case's expectations; the first difference fails the case.
pub fn verdict(case: &Case, r: &Replayed) -> Verdict {
    let expects_illegal = case
        .expects
        .iter()
        .any(|e| matches!(e.stmt, Expect::Illegal { .. }));
    if let (Some(i), false) = (&r.illegal, expects_illegal) {
        let stmt = case
            .plays
            .iter()
            .find(|p| p.line == i.line)
            .map(|p| play_stmt(&p.stmt))
            .unwrap_or_default();
        return Verdict::Fail {
            line: i.line,
            message: format!("`{stmt}` is not allowed: {} ({})", i.why, i.rule),
        };
    }
    let checkpoints = case
        .checkpoints
        .iter()
        .filter_map(|cp| Some((r.view_at(cp.after)?, &cp.expect)));
    let end = case.expects.iter().map(|e| (r.view(), e));
    for (view, Line { line, stmt }) in checkpoints.chain(end) {
        let got = observed(&view, stmt);
        let ok = got.as_ref().is_some_and(|g| matches(stmt, g));
        if !ok {
            let what = match &got {
                Some(g) => format!("the model gives `{}`", expect_stmt(g)),
                None => match stmt {
                    Expect::Cancelled(n, _) => format!("item {n} was not cancelled"),
                    Expect::Performed(..) | Expect::Ignored(..) => {
                        "that instruction never ran".into()
                    }
                    Expect::Entered(n, ..) => format!("item {n} never entered the board"),
                    _ => "nothing matches (unknown label or item)".into(),
                },
            };
            let extra = match (&r.illegal, stmt) {
                (Some(i), Expect::Illegal { .. }) => format!(": {}", i.why),
                _ => String::new(),
            };
            return Verdict::Fail {
                line: *line,
                message: format!(
                    "expected `{}`, but {what}{extra} ({})",
                    expect_stmt(stmt),
                    rule_of(stmt)
                ),
            };
        }
    }
    Verdict::Pass
}
