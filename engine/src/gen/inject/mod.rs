//! Illegal statements injected into a legal generated case, one kind per [`Recipe::inject`]
//! value: illegal statements (an instance paid twice, a Repeat decided after paying, an item
//! played without the timing it needs, instances decided out of order) and illegal choices
//! (each target restriction violated once, two locations for "the same location", the same
//! object twice, a mode a "different modes" card already used, a destination the move does not
//! allow, a new choice the execution made before, a location a token may not enter, "other"
//! given the previous instruction's target, a new choice breaking the target's restriction,
//! your own spell as what your "enemy" counter counters, a card played on the open chain that may
//! not go there), and three that cover whole classes of limits and costs: a decision stated
//! once more than made (a second activation, a second payment, a card played twice: each limit
//! exceeded by one), a payment made with the other resource (a rune exhausted for Energy
//! recycled for Power instead, any-domain Power from another domain), one more play than the
//! turn allows, and a domain restriction of a cost paid with a domain it does not allow (one
//! domain of a player's Power renamed, with the statements naming it). The model decides what
//! the injected case should give; a candidate the model still finds legal is not kept.

use model::card::{CardDef, Place, Side, TargetKind, TargetSpec, Timing};
use model::game::Game;
use model::setup::Setup;
use model::state::{Location, Player};
use rbcheck_case::ast::*;
use rbcheck_case::from_trace::with_expectations;

mod limits;
use limits::{one_more_play, other_domain, other_resource, repeated};

/// What the case plays: the spell in your hand, or the attack ability.
fn item_def<'g>(game: &'g Game, setup: &Setup) -> Option<&'g CardDef> {
    match setup.players[0].hand.first() {
        Some(c) => Some(game.card(*c)),
        None => game
            .card_named("Vendetta Duelist: attack")
            .map(|c| game.card(c)),
    }
}

/// The target restriction of instruction `ins` (1-based) of execution `exec`.
fn spec_of(def: &CardDef, plays: &[Line<PlayStmt>], exec: u8, ins: u8) -> Option<TargetSpec> {
    let mode = plays
        .iter()
        .find_map(|p| match p.stmt {
            PlayStmt::Mode { exec: e, mode } if e == exec => Some(mode),
            _ => None,
        })
        .unwrap_or(1);
    def.modes
        .get(mode.checked_sub(1)? as usize)?
        .instructions
        .get(ins.checked_sub(1)? as usize)?
        .target
}

/// A board object: label, controller, location (`None`: gear).
fn objects(setup: &Setup) -> Vec<(String, Player, Option<Location>)> {
    let units = setup
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| (format!("u{}", i + 1), u.controller, Some(u.loc)));
    let gear = setup
        .gear
        .iter()
        .enumerate()
        .map(|(i, g)| (format!("g{}", i + 1), g.controller, None));
    units.chain(gear).collect()
}

fn side_ok(side: Side, controller: Player) -> bool {
    match side {
        Side::Any => true,
        Side::Enemy => controller != Player::YOU,
        Side::Friendly => controller == Player::YOU,
    }
}

fn place_ok(at: Place, loc: Location) -> bool {
    match at {
        Place::Base => matches!(loc, Location::Base(_)),
        Place::Battlefield => matches!(loc, Location::Battlefield(_)),
        _ => true,
    }
}

/// The label of an object that breaks exactly one restriction of `spec` (kind 4: its side,
/// 5: its place, 6: its kind), the `n`-th such if there are several.
fn violating(
    spec: &TargetSpec,
    objs: &[(String, Player, Option<Location>)],
    kind: u8,
    n: usize,
) -> Option<String> {
    let fits = |o: &(String, Player, Option<Location>)| match (kind, spec.kind, o.2) {
        (4, TargetKind::Unit, Some(l)) => !side_ok(spec.side, o.1) && place_ok(spec.at, l),
        (4, TargetKind::Gear, None) => !side_ok(spec.side, o.1),
        (5, TargetKind::Unit, Some(l)) => side_ok(spec.side, o.1) && !place_ok(spec.at, l),
        (6, TargetKind::Unit, None) | (6, TargetKind::Gear, Some(_)) => side_ok(spec.side, o.1),
        _ => false,
    };
    let v: Vec<&String> = objs.iter().filter(|o| fits(o)).map(|o| &o.0).collect();
    (!v.is_empty()).then(|| v[n % v.len()].clone())
}

/// The injected case's statements, or `None` when this case has nothing to inject it into.
fn injected_plays(
    game: &Game,
    setup: &Setup,
    case: &Case,
    kind: u8,
    n: usize,
) -> Option<(Vec<Line<PlayStmt>>, bool)> {
    let mut plays = case.plays.clone();
    let mut showdown = false;
    match kind {
        1..=3 | 11 => showdown = statements(game, setup, &mut plays, kind)?,
        4..=10 => choices(game, setup, &mut plays, kind, n)?,
        12 | 13 => new_choices_and_locations(setup, &mut plays, kind, n)?,
        14 => other_again(game, setup, &mut plays, n)?,
        15 => new_choice_breaking(game, setup, &mut plays, n)?,
        16 | 17 => on_the_chain(game, setup, &mut plays, kind)?,
        18 => repeated(&mut plays, n)?,
        19 => other_resource(&mut plays, n)?,
        20 => one_more_play(game, setup, &mut plays, n)?,
        // Kind 21 changes the board, not the statements (`other_domain`).
        _ => return None,
    }
    Some((plays, showdown))
}

/// Kinds 1-3 and 11: illegal statements about [Repeat] and timing; true when the case must then
/// be in a showdown.
fn statements(
    game: &Game,
    setup: &Setup,
    plays: &mut Vec<Line<PlayStmt>>,
    kind: u8,
) -> Option<bool> {
    let is_repeat = |s: &PlayStmt| matches!(s, PlayStmt::Repeat { .. });
    let mut showdown = false;
    match kind {
        1 => {
            let k = find(plays, &is_repeat)?;
            let PlayStmt::Repeat { instance, .. } = plays[k].stmt else {
                return None;
            };
            let again = PlayStmt::Repeat {
                instance,
                pay: true,
            };
            plays.insert(k + 1, Line::new(again));
        }
        2 => {
            let k = find(plays, &is_repeat)?;
            let pay = find(plays, &|s| matches!(s, PlayStmt::Pay { .. }))?;
            let PlayStmt::Repeat { instance, .. } = plays[k].stmt else {
                return None;
            };
            if k > pay {
                return None;
            }
            let late = PlayStmt::Repeat {
                instance,
                pay: true,
            };
            plays.insert(pay + 1, Line::new(late));
        }
        3 => {
            let normal = item_def(game, setup).is_some_and(|d| d.timing == Timing::Normal);
            if !normal || setup.showdown || setup.players[0].hand.is_empty() {
                return None;
            }
            showdown = true;
        }
        11 => {
            // Instances decided out of order: the second before the first (820.1.c.2).
            let k = (1..plays.len())
                .find(|k| is_repeat(&plays[k - 1].stmt) && is_repeat(&plays[*k].stmt))?;
            plays.swap(k - 1, k);
        }
        _ => return None,
    }
    Some(showdown)
}

/// The index of the first play statement `f` accepts.
fn find(plays: &[Line<PlayStmt>], f: &dyn Fn(&PlayStmt) -> bool) -> Option<usize> {
    plays.iter().position(|p| f(&p.stmt))
}

/// Kinds 4-10: illegal choices (each target restriction, "the same location", the same object
/// twice, a mode, a destination).
fn choices(
    game: &Game,
    setup: &Setup,
    plays: &mut [Line<PlayStmt>],
    kind: u8,
    n: usize,
) -> Option<()> {
    match kind {
        4..=6 => {
            let objs = objects(setup);
            let def = item_def(game, setup)?;
            let (k, label) = plays.iter().enumerate().find_map(|(k, p)| match &p.stmt {
                PlayStmt::Target {
                    exec, instruction, ..
                } => {
                    let spec = spec_of(def, plays, *exec, *instruction)?;
                    violating(&spec, &objs, kind, n).map(|l| (k, l))
                }
                _ => None,
            })?;
            if let PlayStmt::Target { obj, .. } = &mut plays[k].stmt {
                *obj = ObjRef::Label(label);
            }
        }
        7 | 8 => {
            // Two targets of one instruction: the second at another location (7), or the same
            // object again (8).
            let objs = objects(setup);
            let (k, first) =
                (1..plays.len()).find_map(|k| match (&plays[k - 1].stmt, &plays[k].stmt) {
                    (
                        PlayStmt::Target {
                            exec: e1,
                            instruction: i1,
                            obj: a,
                        },
                        PlayStmt::Target {
                            exec: e2,
                            instruction: i2,
                            ..
                        },
                    ) if e1 == e2 && i1 == i2 => Some((k, a.clone())),
                    _ => None,
                })?;
            let label = if kind == 8 {
                first
            } else {
                let ObjRef::Label(a) = &first else {
                    return None;
                };
                let at = objs.iter().find(|o| &o.0 == a)?.2?;
                let other = objs
                    .iter()
                    .filter(|o| o.2.is_some_and(|l| l != at))
                    .nth(n % objs.len().max(1))
                    .or_else(|| objs.iter().find(|o| o.2.is_some_and(|l| l != at)))?;
                ObjRef::Label(other.0.clone())
            };
            if let PlayStmt::Target { obj, .. } = &mut plays[k].stmt {
                *obj = label;
            }
        }
        9 => {
            // "Choose a different mode": execution 2 takes execution 1's mode.
            let first = plays.iter().find_map(|p| match p.stmt {
                PlayStmt::Mode { exec: 1, mode } => Some(mode),
                _ => None,
            })?;
            let k = find(plays, &|s| matches!(s, PlayStmt::Mode { exec: 2, .. }))?;
            let m = if item_def(game, setup)?.distinct_modes {
                first
            } else {
                // Without "different", a mode whose choices cannot be made: its number past the
                // last.
                item_def(game, setup)?.modes.len() as u8 + 1
            };
            plays[k].stmt = PlayStmt::Mode { exec: 2, mode: m };
        }
        10 => {
            // A destination the move does not allow: the opponent's base for your unit, yours
            // for theirs, or where the unit already is.
            let objs = objects(setup);
            let k = find(plays, &|s| matches!(s, PlayStmt::Destination { .. }))?;
            let moved = plays[..k].iter().rev().find_map(|p| match &p.stmt {
                PlayStmt::Target {
                    obj: ObjRef::Label(l),
                    ..
                } => objs.iter().find(|o| &o.0 == l),
                _ => None,
            })?;
            let bad = if n.is_multiple_of(2) {
                Location::Base(if moved.1 == Player::YOU {
                    Player::OPP
                } else {
                    Player::YOU
                })
            } else {
                moved.2?
            };
            if let PlayStmt::Destination { to, .. } = &mut plays[k].stmt {
                *to = bad;
            }
        }
        _ => return None,
    }
    Some(())
}

/// Kinds 12 and 13: a new choice made before (751.1), a location a token may not enter (355.2).
fn new_choices_and_locations(
    setup: &Setup,
    plays: &mut [Line<PlayStmt>],
    kind: u8,
    n: usize,
) -> Option<()> {
    match kind {
        12 => {
            // A new choice the execution made before (751.1): in the item's new choices, an
            // instruction's target replaced by what the same execution chose while playing for
            // another of its instructions.
            let nc = find(plays, &|s| matches!(s, PlayStmt::NewChoices { .. }))?;
            // The item is played first; its choices end at its payment.
            let paid = find(plays, &|s| matches!(s, PlayStmt::Pay { .. }))?;
            let chosen: Vec<(u8, u8, ObjRef)> = plays[..paid]
                .iter()
                .filter_map(|p| match &p.stmt {
                    PlayStmt::Target {
                        exec,
                        instruction,
                        obj,
                    } => Some((*exec, *instruction, obj.clone())),
                    _ => None,
                })
                .collect();
            let options: Vec<(usize, ObjRef, bool)> = plays[nc + 1..]
                .iter()
                .enumerate()
                .take_while(|(_, p)| matches!(p.stmt, PlayStmt::Target { .. }))
                .filter_map(|(j, p)| match &p.stmt {
                    PlayStmt::Target {
                        exec,
                        instruction,
                        obj,
                    } => Some(
                        chosen
                            .iter()
                            .filter(move |(e, i, o)| e == exec && i != instruction && o != obj)
                            .map(move |(_, i, o)| (nc + 1 + j, o.clone(), i < instruction)),
                    ),
                    _ => None,
                })
                .flatten()
                .collect();
            // First the objects an earlier instruction chose: on a later instruction with no
            // stricter restriction they are legal now, so only 751.1 bars them.
            let earlier: Vec<&(usize, ObjRef, bool)> = options.iter().filter(|o| o.2).collect();
            let pool: Vec<&(usize, ObjRef, bool)> = if earlier.is_empty() {
                options.iter().collect()
            } else {
                earlier
            };
            let (k, reused, _) = (*pool.get(n % pool.len().max(1))?).clone();
            if let PlayStmt::Target { obj, .. } = &mut plays[k].stmt {
                *obj = reused;
            }
        }
        13 => {
            // Where a token enters (355.2): a location its controller may not enter (the
            // opponent's base, or a battlefield you do not control).
            let k = find(plays, &|s| matches!(s, PlayStmt::Location { .. }))?;
            let PlayStmt::Location { to } = plays[k].stmt else {
                return None;
            };
            let bad: Vec<Location> = std::iter::once(Location::Base(Player::OPP))
                .chain(
                    setup
                        .battlefields
                        .iter()
                        .enumerate()
                        .filter(|(_, b)| b.controller != Some(Player::YOU))
                        .map(|(i, _)| Location::Battlefield(i as u8)),
                )
                .filter(|l| *l != to)
                .collect();
            plays[k].stmt = PlayStmt::Location {
                to: *bad.get(n % bad.len().max(1))?,
            };
        }
        _ => return None,
    }
    Some(())
}

/// Kinds 16 and 17: your own spell countered by your "enemy" counter (425), a card played on the
/// open chain that may not go there (358.4, 355.8).
fn on_the_chain(
    game: &Game,
    setup: &Setup,
    plays: &mut Vec<Line<PlayStmt>>,
    kind: u8,
) -> Option<()> {
    match kind {
        16 => {
            // "Counter an enemy spell" (425): your own counter, played on your own spell (item
            // 1), told to counter that spell, which is no enemy's.
            let (k, slot) = plays
                .iter()
                .enumerate()
                .skip(1)
                .find_map(|(k, p)| match &p.stmt {
                    PlayStmt::Play { player, card } if *player == Player::YOU => {
                        let def = game.card(game.card_named(card)?);
                        let slot = def.modes.first()?.instructions.iter().position(|i| {
                            i.target.is_some_and(|t| {
                                matches!(t.kind, TargetKind::Spell | TargetKind::SpellOrAbility)
                                    && t.side == Side::Enemy
                            })
                        })?;
                        Some((k, slot as u8 + 1))
                    }
                    _ => None,
                })?;
            let own = PlayStmt::Target {
                exec: 1,
                instruction: slot,
                obj: ObjRef::Item(1),
            };
            match plays.get(k + 1).map(|p| &p.stmt) {
                Some(PlayStmt::Target {
                    exec: 1,
                    instruction,
                    ..
                }) if *instruction == slot => plays[k + 1].stmt = own,
                _ => plays.insert(k + 1, Line::new(own)),
            }
            // The model undid the play (no legal choice), so nothing paid it: an engine that
            // accepts the target is given the payment, to end the play and say it is legal.
            if !matches!(
                plays.get(k + 2).map(|p| &p.stmt),
                Some(PlayStmt::Pay { .. })
            ) {
                plays.insert(k + 2, Line::new(PlayStmt::Pay { any: vec![] }));
            }
        }
        17 => {
            // In place of a pass while the item is on the chain, a card played that may not go
            // there: the opponent's first card (a counter with no legal choice, aimed at the
            // item: 355.8), or else your second, an [Action] card (358.4).
            let paid = find(plays, &|s| matches!(s, PlayStmt::Pay { .. }))?;
            let (who, card) = match setup.players[1].hand.first() {
                Some(c) => (Player::OPP, *c),
                None => (Player::YOU, *setup.players[0].hand.get(1)?),
            };
            // The player's pass, or a `close` (everyone passes), which stays after the card; a
            // case whose passes are left implicit ends with the item's payment: the card is
            // played after it, the opponent's once you passed (339).
            let at = plays[paid..].iter().position(|p| match p.stmt {
                PlayStmt::Pass { player } => player == who,
                PlayStmt::Close => true,
                _ => false,
            });
            let (k, keep) = match at {
                Some(j) => (paid + j, matches!(plays[paid + j].stmt, PlayStmt::Close)),
                None if paid + 1 == plays.len() => {
                    if who == Player::OPP {
                        plays.push(Line::new(PlayStmt::Pass {
                            player: Player::YOU,
                        }));
                    }
                    (plays.len(), true)
                }
                None => return None,
            };
            let def = game.card(card);
            let mut lines = vec![Line::new(PlayStmt::Play {
                player: who,
                card: def.name.clone(),
            })];
            let slot = def.modes.first().and_then(|m| {
                m.instructions.iter().position(|i| {
                    i.target.is_some_and(|t| {
                        matches!(t.kind, TargetKind::Spell | TargetKind::SpellOrAbility)
                    })
                })
            });
            if let Some(slot) = slot {
                lines.push(Line::new(PlayStmt::Target {
                    exec: 1,
                    instruction: slot as u8 + 1,
                    obj: ObjRef::Item(1),
                }));
            }
            lines.push(Line::new(PlayStmt::Pay { any: vec![] }));
            plays.splice(k..k + usize::from(!keep), lines);
        }
        _ => return None,
    }
    Some(())
}

/// Kind 14: an "other" target (Piercing Light's "up to one other unit") given what the same
/// execution's previous instruction chose (355.8), in place of the target chosen for it or of
/// its "no more targets".
fn other_again(game: &Game, setup: &Setup, plays: &mut [Line<PlayStmt>], n: usize) -> Option<()> {
    let def = item_def(game, setup)?;
    let spots: Vec<(usize, ObjRef)> = plays
        .iter()
        .enumerate()
        .filter_map(|(k, p)| {
            let (PlayStmt::Target {
                exec, instruction, ..
            }
            | PlayStmt::NoMoreTargets { exec, instruction }) = p.stmt
            else {
                return None;
            };
            if !spec_of(def, plays, exec, instruction)?.other {
                return None;
            }
            // What the previous instruction of this execution chose, before this line.
            let before = plays[..k].iter().rev().find_map(|q| match &q.stmt {
                PlayStmt::Target {
                    exec: e,
                    instruction: i,
                    obj,
                } if *e == exec && *i + 1 == instruction => Some(obj.clone()),
                _ => None,
            })?;
            Some((k, before))
        })
        .collect();
    let (k, obj) = spots.get(n % spots.len().max(1))?.clone();
    let (PlayStmt::Target {
        exec, instruction, ..
    }
    | PlayStmt::NoMoreTargets { exec, instruction }) = plays[k].stmt
    else {
        return None;
    };
    plays[k].stmt = PlayStmt::Target {
        exec,
        instruction,
        obj,
    };
    Some(())
}

/// Kind 15: a remade choice (new choices, 750-753) that breaks the target's side or place
/// restriction as seen by the spell's new controller (753.1), and that the execution never
/// chose before (so that 751.1 is not what bars it).
fn new_choice_breaking(
    game: &Game,
    setup: &Setup,
    plays: &mut [Line<PlayStmt>],
    n: usize,
) -> Option<()> {
    let def = item_def(game, setup)?;
    let nc = plays
        .iter()
        .position(|p| matches!(p.stmt, PlayStmt::NewChoices { .. }))?;
    // The new choices are made by whoever played the spell that called for them (Mystic
    // Reversal: its controller takes the spell, 750).
    let me = plays[..nc].iter().rev().find_map(|p| match p.stmt {
        PlayStmt::Play { player, .. } => Some(player),
        _ => None,
    })?;
    // The item is played first; its choices end at its payment.
    let paid = plays
        .iter()
        .position(|p| matches!(p.stmt, PlayStmt::Pay { .. }))?;
    let chosen = |exec: u8| -> Vec<ObjRef> {
        plays[..paid]
            .iter()
            .filter_map(|p| match &p.stmt {
                PlayStmt::Target { exec: e, obj, .. } if *e == exec => Some(obj.clone()),
                _ => None,
            })
            .collect()
    };
    let objs = objects(setup);
    let mut options: Vec<(usize, String)> = vec![];
    for (j, p) in plays[nc + 1..].iter().enumerate() {
        let PlayStmt::Target {
            exec,
            instruction,
            obj,
        } = &p.stmt
        else {
            break;
        };
        let Some(spec) = spec_of(def, plays, *exec, *instruction) else {
            continue;
        };
        let before = chosen(*exec);
        for (label, controller, loc) in &objs {
            let o = ObjRef::Label(label.clone());
            let Some(loc) = loc else { continue };
            if spec.kind != TargetKind::Unit || &o == obj || before.contains(&o) {
                continue;
            }
            // The side as seen by `me` (side_ok's is your own).
            let side = match spec.side {
                Side::Any => true,
                Side::Enemy => *controller != me,
                Side::Friendly => *controller == me,
            };
            if !(side && place_ok(spec.at, *loc)) {
                options.push((nc + 1 + j, label.clone()));
            }
        }
    }
    let (k, label) = options.get(n % options.len().max(1))?.clone();
    if let PlayStmt::Target { obj, .. } = &mut plays[k].stmt {
        *obj = ObjRef::Label(label);
    }
    Some(())
}

/// The case with an illegal statement of this kind injected, expectations the model's; `None`
/// when the case offers no place for it or the model finds the result legal after all.
pub fn inject(game: &Game, setup: &Setup, case: &Case, kind: u8, n: usize) -> Option<Case> {
    if kind == OTHER_DOMAIN {
        return other_domain(game, setup, case, n);
    }
    let (plays, showdown) = injected_plays(game, setup, case, kind, n)?;
    let mut injected = case.clone();
    injected.plays = plays;
    let mut s2 = setup.clone();
    if showdown {
        injected.board.push(Line::new(BoardStmt::Showdown(None)));
        s2.showdown = true;
    }
    let out = with_expectations(injected, &s2, None).ok()?;
    // The old injections (1-3) keep whatever the model says; a choice injected must be illegal,
    // and kinds 14 and 15 for the rule they break (355.8, 753.1), not an earlier one.
    let rules: &[&str] = match kind {
        14 => &["355.8"],
        15 => &["753.1"],
        17 => &["358.4", "355.8"],
        _ => &[],
    };
    let illegal = out.expects.iter().any(|e| match &e.stmt {
        Expect::Illegal { rule: r, .. } => {
            rules.is_empty() || r.as_deref().is_some_and(|r| rules.contains(&r))
        }
        _ => false,
    });
    (kind <= 3 || illegal).then_some(out)
}

/// The number of kinds of injection.
pub const KINDS: u8 = 21;

/// The kind that pays with Power of another domain (`other_domain`).
pub const OTHER_DOMAIN: u8 = 21;
