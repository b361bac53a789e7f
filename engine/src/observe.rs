//! The model's side of a comparison: a replay's outcome as an [`Observation`] (every field
//! filled), and an observation back in the expectation vocabulary of case files.

use super::protocol::*;
use model::rulebook::Rulebook;
use model::state::{CancelWhy, Event, Location, Obj, Player, Zone};
use rbcheck_case::ast::{Case, Expect};
use rbcheck_case::parse::reason_name;
use rbcheck_case::replay::{observed, replay_under, View};
use std::collections::BTreeMap;
use std::path::Path;

fn zone_name(z: Zone) -> String {
    match z {
        Zone::Board => "board".into(),
        Zone::Trash => "trash".into(),
        Zone::Hand => "hand".into(),
    }
}

/// The written name of a cancel reason.
pub fn cancel_name(w: CancelWhy) -> &'static str {
    match w {
        CancelWhy::NoLegalChoice => "no-legal-choice",
        CancelWhy::CannotPay => "cannot-pay",
        CancelWhy::TargetsIllegal => "targets-illegal",
    }
}

/// Everything a replay shows, in the protocol's terms.
pub fn observation(r: &View) -> Observation {
    let mut o = Observation::default();
    match observed(r, &Expect::Legal) {
        Some(Expect::Illegal { line, rule, .. }) => {
            o.legal = Some(false);
            o.illegal = Some(IllegalObs {
                line: Some(line),
                play: None,
                rule,
                why: r.illegal.map(|i| i.why.clone()),
            });
            return o;
        }
        _ => o.legal = Some(true),
    }
    o.items = Some(items(r));
    o.chain_items = Some(
        r.state
            .log
            .iter()
            .filter_map(|e| match *e {
                Event::MovedToChain { item, .. } => Some(item as u32 + 1),
                _ => None,
            })
            .max()
            .unwrap_or(0),
    );
    o.triggered = Some(triggered(r));
    let (units, gear) = objects(r);
    o.units = Some(units);
    o.gear = Some(gear);
    o.players = Some(players(r));
    o.events = Some(events(r));
    o
}

/// The events that matter, in the order the model logged them (820.3, 359.2, 383.3, 419.4.a,
/// 425).
fn events(r: &View) -> Vec<EventObs> {
    let n = |i: u8| u32::from(i) + 1;
    r.state
        .log
        .iter()
        .filter_map(|e| match *e {
            Event::ExecutionStarted { item, exec } => Some(EventObs::Execution {
                item: n(item),
                exec: n(exec),
            }),
            Event::UnitEntered { item, .. } | Event::GearEntered { item, .. } => {
                Some(EventObs::UnitEntered { item: n(item) })
            }
            Event::Triggered { card, .. } => Some(EventObs::Triggered {
                ability: r.game.card(card).name.clone(),
            }),
            Event::Played { item, .. } => Some(EventObs::Played { item: n(item) }),
            Event::Countered { item, .. } => Some(EventObs::Countered { item: n(item) }),
            _ => None,
        })
        .collect()
}

/// The mode (1-based) each execution of a modal item ran, in the order run (355.3, 820.2.a):
/// the last mode chosen for that execution before it started.
fn modes(r: &View, item: u8) -> Vec<u32> {
    let mut chosen: BTreeMap<u8, u8> = BTreeMap::new();
    let mut ran = vec![];
    for e in &r.state.log {
        match *e {
            Event::ModeChosen {
                item: i,
                exec,
                mode,
            } if i == item => {
                chosen.insert(exec, mode);
            }
            Event::ExecutionStarted { item: i, exec } if i == item => {
                ran.push(chosen.get(&exec).map_or(1, |m| u32::from(*m) + 1));
            }
            _ => {}
        }
    }
    ran
}

/// How item `n` (1-based), a unit or gear played from hand, entered the board, as the log's
/// `UnitEntered` or `GearEntered` says (359.2; a unit ready if its [Accelerate] was paid, 805;
/// a gear ready in its controller's base); `None` if it did not.
fn entered(r: &View, n: u8) -> Option<EnteredObs> {
    match observed(r, &Expect::Entered(n, Location::Base(Player::YOU), false)) {
        Some(Expect::Entered(_, at, ready)) => Some(EnteredObs {
            location: location_name(at),
            ready,
        }),
        _ => None,
    }
}

/// Every chain item but tokens, by number (820.3: executions, instructions; 358.5: cancelled).
fn items(r: &View) -> Vec<ItemObs> {
    let s = r.state;
    let mut items = vec![];
    for e in &s.log {
        let Event::MovedToChain { item, card, .. } = *e else {
            continue;
        };
        if card == r.game.token {
            continue;
        }
        let n = item + 1;
        let mut it = ItemObs {
            item: n as u32,
            ..ItemObs::default()
        };
        match observed(r, &Expect::Cancelled(n, None)) {
            Some(Expect::Cancelled(_, Some(w))) => {
                it.cancelled = Some(Cancelled::Why(cancel_name(w).into()));
                items.push(it);
                continue;
            }
            _ => it.cancelled = Some(Cancelled::Flag(false)),
        }
        if let Some(Expect::RepeatPaid(_, v)) = observed(r, &Expect::RepeatPaid(n, vec![])) {
            it.repeat_paid = Some(v.iter().map(|x| *x as u32).collect());
        }
        if let Some(Expect::Paid(_, c)) = observed(r, &Expect::Paid(n, model::Cost::ZERO)) {
            it.paid = Some(c.to_string());
        }
        if let Some(Expect::Executions(_, k)) = observed(r, &Expect::Executions(n, 0)) {
            it.executions = Some(k as u32);
        }
        if let Some(Expect::PlayEvents(_, k)) = observed(r, &Expect::PlayEvents(n, 0)) {
            it.play_events = Some(k as u32);
        }
        it.countered = Some(matches!(
            observed(r, &Expect::Countered(n)),
            Some(Expect::Countered(_))
        ));
        let mut ins = vec![];
        for ev in &s.log {
            match *ev {
                Event::Performed {
                    item: i,
                    exec,
                    slot,
                    ..
                } if i == item => ins.push(InstructionObs {
                    exec: exec as u32 + 1,
                    instruction: slot as u32 + 1,
                    performed: true,
                    reason: None,
                }),
                Event::Ignored {
                    item: i,
                    exec,
                    slot,
                    why,
                } if i == item => ins.push(InstructionObs {
                    exec: exec as u32 + 1,
                    instruction: slot as u32 + 1,
                    performed: false,
                    reason: Some(reason_name(why).into()),
                }),
                _ => {}
            }
        }
        it.instructions = Some(ins);
        if r.game.card(card).modes.len() > 1 {
            it.modes = Some(modes(r, item));
        }
        it.entered = entered(r, n);
        items.push(it);
    }
    items
}

/// How many times each ability triggered, by name.
fn triggered(r: &View) -> BTreeMap<String, u32> {
    let s = r.state;
    let mut triggered: BTreeMap<String, u32> = BTreeMap::new();
    for e in &s.log {
        if let Event::Triggered { card, .. } = e {
            *triggered
                .entry(r.game.card(*card).name.clone())
                .or_default() += 1;
        }
    }
    triggered
}

/// The labelled units and gear at the end.
fn objects(r: &View) -> (BTreeMap<String, UnitObs>, BTreeMap<String, GearObs>) {
    let mut units = BTreeMap::new();
    let mut gear = BTreeMap::new();
    let mut labels: Vec<(&String, &Obj)> = r.labels.iter().collect();
    labels.sort();
    for (l, obj) in labels {
        match obj {
            Obj::Unit(ix) => {
                let mut u = UnitObs::default();
                if let Some(Expect::UnitZone(_, z)) =
                    observed(r, &Expect::UnitZone(l.clone(), Zone::Board))
                {
                    u.zone = Some(zone_name(z));
                }
                if let Some(Expect::UnitDamage(_, d)) =
                    observed(r, &Expect::UnitDamage(l.clone(), 0))
                {
                    u.damage = Some(d as u32);
                }
                if let Some(Expect::UnitAt(_, at)) = observed(
                    r,
                    &Expect::UnitAt(l.clone(), model::state::Location::Base(Player::YOU)),
                ) {
                    u.location = Some(location_name(at));
                }
                // Might and statuses are a unit's on the board; leaving it clears them (124.1).
                let unit = &r.state.units[*ix as usize];
                if unit.zone == Zone::Board {
                    u.might = Some(u32::from(unit.current_might()));
                    u.status = Some(unit.status);
                }
                units.insert(l.clone(), u);
            }
            Obj::Gear(ix) => {
                if let Some(Expect::GearZone(_, z)) =
                    observed(r, &Expect::GearZone(l.clone(), Zone::Board))
                {
                    // Ready or exhausted is a gear's on the board, like a unit's status.
                    let exhausted = (z == Zone::Board)
                        .then(|| r.state.gear.get(*ix as usize).map(|g| g.exhausted))
                        .flatten();
                    gear.insert(
                        l.clone(),
                        GearObs {
                            zone: Some(zone_name(z)),
                            exhausted,
                        },
                    );
                }
            }
            Obj::Item(_) => {}
        }
    }
    (units, gear)
}

/// Both players' resources and zones at the end.
fn players(r: &View) -> BTreeMap<String, PlayerObs> {
    let mut players = BTreeMap::new();
    for p in [Player::YOU, Player::OPP] {
        let mut po = PlayerObs::default();
        if let Some(Expect::Pool(_, c)) = observed(r, &Expect::Pool(p, model::Cost::ZERO)) {
            po.pool = Some(c.to_string());
        }
        if let Some(Expect::HandSize(_, k)) = observed(r, &Expect::HandSize(p, 0)) {
            po.hand_size = Some(k as u32);
        }
        // Which named cards: a draw from the wrong end of the deck keeps the count (359.3.e).
        if let Some(Expect::Hand(_, v)) = observed(r, &Expect::Hand(p, vec![])) {
            po.hand = Some(v);
        }
        if let Some(Expect::Trash(_, v)) = observed(r, &Expect::Trash(p, vec![])) {
            po.trash = Some(v);
        }
        if let Some(Expect::Deck(_, k)) = observed(r, &Expect::Deck(p, 0)) {
            po.deck = Some(k as u32);
        }
        if let Some(Expect::Finalized(_, k)) = observed(r, &Expect::Finalized(p, 0)) {
            po.finalized = Some(k as u32);
        }
        if let Some(Expect::Tokens(_, k)) = observed(r, &Expect::Tokens(p, 0)) {
            po.tokens = Some(k as u32);
        }
        let mut mights: Vec<u32> = r
            .state
            .units
            .iter()
            .filter(|u| u.token && u.zone == Zone::Board && u.controller == p)
            .map(|u| u32::from(u.current_might()))
            .collect();
        mights.sort_unstable();
        po.token_mights = Some(mights);
        let ps = &r.state.players[p.ix()];
        po.grants = Some(GrantsObs {
            portal: ps.portal_grants,
            academy: ps.academy_grants,
        });
        po.runes = ps
            .runes
            .as_ref()
            .map(crate::protocol::runes::RunesJson::of_runes);
        players.insert(
            if p == Player::YOU { "you" } else { "opponent" }.to_string(),
            po,
        );
    }
    players
}

/// Replays a case through the model and describes the outcome; the illegal statement, if
/// any, is also named by its index among the plays.
pub fn model_observation(case: &Case, dir: Option<&Path>) -> Result<Observation, String> {
    let rules = rbcheck_case::replay::rulebook(case, dir)
        .map_err(|e| format!("line {}: {}", e.line, e.message))?;
    model_observation_under(case, rules)
}

/// [`model_observation`] under `rules`, whatever the case's `rules` line names.
pub fn model_observation_under(case: &Case, rules: Rulebook) -> Result<Observation, String> {
    let r = replay_under(case, rules).map_err(|e| format!("line {}: {}", e.line, e.message))?;
    let mut o = observation(&r.view());
    if let Some(i) = &mut o.illegal {
        i.play = i
            .line
            .and_then(|l| case.plays.iter().position(|p| p.line == l));
    }
    Ok(o)
}
