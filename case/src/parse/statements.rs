//! The statements of the board, play and expect sections, read from a line's tokens.

use super::lexer::Cursor;
use super::ParseError;
use crate::ast::*;
use model::cost::Domain;
use model::state::{CancelWhy, IgnoredWhy, Player};
use model::state::{Combat, UnitStatus};

/// A board statement, its keyword `head` already read.
pub(super) fn board(head: &str, c: &mut Cursor) -> Result<BoardStmt, ParseError> {
    Ok(match head {
        "unit" => {
            let label = c.word("a label for the unit")?;
            let card = c.quoted("the unit's card name")?;
            let controller = c.player()?;
            let loc = c.location()?;
            let (damage, owner, status) = unit_extras(c)?;
            BoardStmt::Unit(UnitStmt {
                label,
                card,
                controller,
                loc,
                damage,
                owner,
                status,
            })
        }
        "gear" => BoardStmt::Gear {
            label: c.word("a label for the gear")?,
            card: c.quoted("the gear's card name")?,
            controller: c.player()?,
        },
        "battlefield" => {
            let n = c.positive("a battlefield number")?;
            let mut controller = None;
            let mut card = None;
            while let Some(w) = c.peek_word() {
                match w {
                    "controller" => {
                        c.pos += 1;
                        controller = Some(c.player()?);
                    }
                    "card" => {
                        c.pos += 1;
                        card = Some(c.quoted("the battlefield's card name")?);
                    }
                    _ => {
                        return Err(c.err(format!(
                            "expected `controller PLAYER` or `card \"Name\"`, found {}",
                            c.describe()
                        )))
                    }
                }
            }
            BoardStmt::Battlefield {
                n,
                controller,
                card,
            }
        }
        "pool" => BoardStmt::Pool(c.player()?, c.cost()?),
        "hand" => BoardStmt::Hand(c.player()?, c.quoted("a card name")?),
        "other-cards" => BoardStmt::OtherCards(c.player()?, c.number("a number of cards")?),
        "deck" => BoardStmt::Deck(c.player()?, c.number("a number of cards")?),
        "portal" => BoardStmt::Portal(c.player()?),
        "near-victory" => BoardStmt::NearVictory(c.player()?),
        "showdown" => {
            if c.peek_word() == Some("battlefield") {
                c.pos += 1;
                BoardStmt::Showdown(Some(c.positive("a battlefield number")?))
            } else {
                BoardStmt::Showdown(None)
            }
        }
        "attack" => BoardStmt::Attack(c.word("the label of the attacking unit")?),
        "academy" => BoardStmt::Academy(c.player()?),
        _ => unreachable!("dispatched on board keywords"),
    })
}

/// What may follow a unit's location, in any order, each at most once: `damage N`,
/// `owner PLAYER`, `exhausted` or `ready`, `stunned`, `attacking` or `defending`, `assault N`.
fn unit_extras(c: &mut Cursor) -> Result<(u8, Option<Player>, UnitStatus), ParseError> {
    let (mut damage, mut owner, mut st) = (0, None, UnitStatus::default());
    let mut seen: Vec<&'static str> = vec![];
    while let Some(w) = c.peek_word() {
        let key: &'static str = match w {
            "damage" => "damage",
            "owner" => "owner",
            "exhausted" | "ready" => "exhausted/ready",
            "stunned" => "stunned",
            "attacking" | "defending" => "attacking/defending",
            "assault" => "assault",
            _ => {
                return Err(c.err(format!(
                    "expected `damage N`, `owner PLAYER`, `exhausted`, `ready`, `stunned`, `attacking`, `defending` or `assault N`, found {}",
                    c.describe()
                )))
            }
        };
        if seen.contains(&key) {
            return Err(c.err(format!("`{w}` (or its opposite) is given twice")));
        }
        seen.push(key);
        let w = w.to_string();
        c.pos += 1;
        match w.as_str() {
            "damage" => damage = c.number("the damage marked")?,
            "owner" => owner = Some(c.player()?),
            "exhausted" => st.exhausted = true,
            "ready" => st.exhausted = false,
            "stunned" => st.stunned = true,
            "attacking" => st.combat = Combat::Attacking,
            "defending" => st.combat = Combat::Defending,
            _ => st.assault = c.number("the [Assault] value granted this turn")?,
        }
    }
    Ok((damage, owner, st))
}

fn exec_number(c: &mut Cursor) -> Result<u8, ParseError> {
    c.keyword("exec")?;
    c.positive("an execution number")
}

/// A play statement, from its first word.
pub(super) fn play(c: &mut Cursor) -> Result<PlayStmt, ParseError> {
    let head = c.word("a play statement")?;
    Ok(match head.as_str() {
        "you" => by_player(c, Player::YOU)?,
        "opponent" => by_player(c, Player::OPP)?,
        "may" => match c.word("`perform` or `decline`")?.as_str() {
            "perform" => PlayStmt::May { perform: true },
            "decline" => PlayStmt::May { perform: false },
            w => {
                c.pos -= 1;
                return Err(c.err(format!("expected `perform` or `decline`, found `{w}`")));
            }
        },
        "repeat" => PlayStmt::Repeat {
            instance: c.positive("a Repeat instance number")?,
            pay: pay_or_skip(c)?,
        },
        "exec" => {
            c.pos -= 1;
            exec(c)?
        }
        "pay" => pay(c)?,
        "new-choices" => {
            let item = c.item()?;
            if c.peek_word() == Some("decline") {
                c.pos += 1;
                PlayStmt::DeclineNewChoices { item }
            } else {
                PlayStmt::NewChoices { item }
            }
        }
        "optional" => PlayStmt::Optional {
            index: c.positive("an optional cost number")?,
            pay: pay_or_skip(c)?,
        },
        "location" => PlayStmt::Location { to: c.location()? },
        "reduce" => reduce(c)?,
        "discount" => PlayStmt::Discount {
            unit: match c.word("`own` or the label of the unit whose discount applies next")? {
                w if w == "own" => None,
                w => Some(ObjRef::Label(w)),
            },
        },
        "discard" => PlayStmt::Discard {
            card: discarded_card(c)?,
        },
        w @ ("exhaust" | "kill") => pay_with_unit(c, w == "kill")?,
        _ => unreachable!("dispatched on play keywords"),
    })
}

/// `PLAYER play "Card"`, `PLAYER pass` or `PLAYER activate LABEL`, after the player.
fn by_player(c: &mut Cursor, player: Player) -> Result<PlayStmt, ParseError> {
    Ok(
        match c
            .word("`play \"Card\"`, `pass` or `activate LABEL`")?
            .as_str()
        {
            "play" => PlayStmt::Play {
                player,
                card: c.quoted("the card's name")?,
            },
            "pass" => PlayStmt::Pass { player },
            "activate" => PlayStmt::Activate {
                player,
                object: ObjRef::Label(c.word("the label of the gear activated")?),
            },
            w => {
                c.pos -= 1;
                return Err(c.err(format!(
                    "expected `play \"Card\"`, `pass` or `activate LABEL`, found `{w}`"
                )));
            }
        },
    )
}

/// `exec K mode M`, `exec K target I OBJ`, `exec K no-more-targets I` or `exec K destination I
/// LOCATION` (355.3-355.5, 820.2.a), from `exec`.
fn exec(c: &mut Cursor) -> Result<PlayStmt, ParseError> {
    let exec = exec_number(c)?;
    Ok(
        match c
            .word("`mode`, `target`, `no-more-targets` or `destination`")?
            .as_str()
        {
            "mode" => PlayStmt::Mode {
                exec,
                mode: c.positive("a mode number")?,
            },
            "target" => PlayStmt::Target {
                exec,
                instruction: c.positive("an instruction number")?,
                obj: c.obj()?,
            },
            "no-more-targets" => PlayStmt::NoMoreTargets {
                exec,
                instruction: c.positive("an instruction number")?,
            },
            "destination" => PlayStmt::Destination {
                exec,
                instruction: c.positive("an instruction number")?,
                to: c.location()?,
            },
            w => {
                c.pos -= 1;
                return Err(c.err(format!(
                    "expected `mode`, `target`, `no-more-targets` or `destination`, found `{w}`"
                )));
            }
        },
    )
}

/// `pay [any DOMAIN...]` (357), after `pay`.
fn pay(c: &mut Cursor) -> Result<PlayStmt, ParseError> {
    let mut any = vec![];
    if c.peek_word() == Some("any") {
        c.pos += 1;
        while let Some(w) = c.peek_word() {
            let Some(d) = Domain::parse(w) else {
                return Err(c.err(format!(
                    "expected a domain (R G B O P Y, or a name), found `{w}`"
                )));
            };
            any.push(d);
            c.pos += 1;
        }
        if any.is_empty() {
            return Err(c.err("expected the domains that pay [A] after `any`"));
        }
    }
    Ok(PlayStmt::Pay { any })
}

/// `exhaust LABEL` / `kill LABEL` (357.2): the friendly unit that pays a unit cost.
fn pay_with_unit(c: &mut Cursor, kill: bool) -> Result<PlayStmt, ParseError> {
    let what = if kill {
        "the label of the unit killed for the cost"
    } else {
        "the label of the unit exhausted for the cost"
    };
    Ok(PlayStmt::PayWithUnit {
        kill,
        unit: ObjRef::Label(c.word(what)?),
    })
}

fn reason(w: &str) -> Option<IgnoredWhy> {
    Some(match w {
        "targets-illegal" => IgnoredWhy::TargetsIllegal,
        "linked-not-executed" => IgnoredWhy::LinkedNotExecuted,
        "source-gone" => IgnoredWhy::SourceGone,
        "impossible" => IgnoredWhy::Impossible,
        _ => return None,
    })
}

/// The written name of an ignore reason.
pub fn reason_name(r: IgnoredWhy) -> &'static str {
    match r {
        IgnoredWhy::TargetsIllegal => "targets-illegal",
        IgnoredWhy::LinkedNotExecuted => "linked-not-executed",
        IgnoredWhy::SourceGone => "source-gone",
        IgnoredWhy::Impossible => "impossible",
    }
}

/// An expectation, after `expect`.
pub(super) fn expect(c: &mut Cursor) -> Result<Expect, ParseError> {
    let what = c.word("an expectation")?;
    if let Some(e) = super::deck::expect(&what, c)? {
        return Ok(e);
    }
    Ok(match what.as_str() {
        "legal" => Expect::Legal,
        "illegal" => illegal(c)?,
        "cancelled" => cancelled(c)?,
        "paid" => Expect::Paid(c.item()?, c.cost()?),
        "repeat-paid" => {
            let item = c.item()?;
            let mut v = vec![];
            if c.peek_word() == Some("none") {
                c.pos += 1;
            } else {
                v.push(c.positive("an instance number or `none`")?);
                while c.peek_word().is_some() {
                    v.push(c.positive("an instance number")?);
                }
            }
            Expect::RepeatPaid(item, v)
        }
        "executions" => Expect::Executions(c.item()?, c.number("a number of executions")?),
        "play-events" => Expect::PlayEvents(c.item()?, c.number("a number of play events")?),
        "performed" | "ignored" => instruction(c, what == "performed")?,
        "countered" => Expect::Countered(c.item()?),
        "not-countered" => Expect::NotCountered(c.item()?),
        "triggered" => Expect::Triggered(
            c.quoted("an ability's name")?,
            c.number("a number of times")?,
        ),
        "finalized" => Expect::Finalized(c.player()?, c.number("a number of cards")?),
        "unit" => unit(c)?,
        "gear" => {
            let label = c.word("a gear label")?;
            Expect::GearZone(label, c.zone()?)
        }
        "tokens" => Expect::Tokens(c.player()?, c.number("a number of tokens")?),
        "pool" => Expect::Pool(c.player()?, c.cost()?),
        "hand-size" => Expect::HandSize(c.player()?, c.number("a number of cards")?),
        "trash" => Expect::Trash(
            c.player()?,
            none_or_list(c, |c| c.quoted("a card name or `none`"))?,
        ),
        "deck" => Expect::Deck(c.player()?, c.number("a number of cards")?),
        "grants" => {
            let p = c.player()?;
            // One word per grant held: two Portal activations wait as `portal portal`.
            let mut v = none_or_list(c, grant)?;
            v.sort_by_key(|g| *g as u8);
            Expect::Grants(p, v)
        }
        "optional-paid" => {
            let item = c.item()?;
            let mut v = vec![];
            if c.peek_word() == Some("none") {
                c.pos += 1;
            } else {
                v.push(c.positive("an optional cost number or `none`")?);
                while c.peek_word().is_some() {
                    v.push(c.positive("an optional cost number")?);
                }
            }
            Expect::OptionalPaid(item, v)
        }
        "entered" => {
            let item = c.item()?;
            c.keyword("at")?;
            let at = c.location()?;
            let ready = match c.word("`ready` or `exhausted`")?.as_str() {
                "ready" => true,
                "exhausted" => false,
                w => {
                    c.pos -= 1;
                    return Err(c.err(format!("expected `ready` or `exhausted`, found `{w}`")));
                }
            };
            Expect::Entered(item, at, ready)
        }
        "order" => order(c)?,
        "discarded" => Expect::Discarded(c.item()?, none_or_list(c, discarded_card)?),
        w => {
            c.pos -= 1;
            return Err(c.err(format!(
                "unknown expectation `{w}`; see corpus/FORMAT.md for the list"
            )));
        }
    })
}

/// `none`, or one or more of what `one` reads, to the end of the line.
fn none_or_list<T>(
    c: &mut Cursor,
    one: impl Fn(&mut Cursor) -> Result<T, ParseError>,
) -> Result<Vec<T>, ParseError> {
    let mut v = vec![];
    if c.peek_word() == Some("none") {
        c.pos += 1;
        return Ok(v);
    }
    v.push(one(c)?);
    while c.pos < c.toks.len() {
        v.push(one(c)?);
    }
    Ok(v)
}

/// `portal` or `academy`: a "next spell you play this turn" grant.
fn grant(c: &mut Cursor) -> Result<model::state::Grant, ParseError> {
    match c.word("`portal`, `academy` or `none`")?.as_str() {
        "portal" => Ok(model::state::Grant::Portal),
        "academy" => Ok(model::state::Grant::Academy),
        w => {
            c.pos -= 1;
            Err(c.err(format!(
                "expected `portal` or `academy` (or `none` alone), found `{w}`"
            )))
        }
    }
}

/// `unit LABEL damage|at|might|assault|stunned|not-stunned|ready|exhausted|ZONE ...`
fn unit(c: &mut Cursor) -> Result<Expect, ParseError> {
    let label = c.word("a unit label")?;
    Ok(match c.peek_word() {
        Some("damage") => {
            c.pos += 1;
            Expect::UnitDamage(label, c.number("the damage")?)
        }
        Some("at") => {
            c.pos += 1;
            Expect::UnitAt(label, c.location()?)
        }
        Some("might") => {
            c.pos += 1;
            Expect::UnitMight(label, c.number("the Might")?)
        }
        Some("assault") => {
            c.pos += 1;
            Expect::UnitAssault(label, c.number("the [Assault] value")?)
        }
        Some(w @ ("stunned" | "not-stunned")) => {
            let v = w == "stunned";
            c.pos += 1;
            Expect::UnitStunned(label, v)
        }
        Some(w @ ("ready" | "exhausted")) => {
            let v = w == "ready";
            c.pos += 1;
            Expect::UnitReady(label, v)
        }
        _ => Expect::UnitZone(label, c.zone()?),
    })
}

/// `illegal line N [rule R]`
fn illegal(c: &mut Cursor) -> Result<Expect, ParseError> {
    let by_play = match c.peek_word() {
        Some("play") => true,
        Some("line") => false,
        other => {
            return Err(c.err(format!(
                "expected `line N` or `play K` (the K-th play statement), found `{}`",
                other.unwrap_or("the end of the line")
            )))
        }
    };
    c.pos += 1;
    let at = c.pos;
    let what = if by_play {
        "a play statement's position (1 for the first)"
    } else {
        "a line number"
    };
    let w = c.word(what)?;
    let n = w.parse::<usize>().map_err(|_| {
        c.pos = at;
        if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
            let of = if by_play {
                "play statement position"
            } else {
                "line number"
            };
            c.err(format!("{of} `{w}` is out of range"))
        } else {
            c.err(format!("expected {what}, found `{w}`"))
        }
    })?;
    if by_play && n == 0 {
        c.pos = at;
        return Err(c.err("play statements are counted from 1".to_string()));
    }
    let (line, play) = if by_play { (0, Some(n)) } else { (n, None) };
    let rule = if c.peek_word() == Some("rule") {
        c.pos += 1;
        Some(c.word("a rule number like 820.1.c.3")?)
    } else {
        None
    };
    Ok(Expect::Illegal { line, rule, play })
}

/// `cancelled item N [no-legal-choice|cannot-pay|targets-illegal]` (358.5)
fn cancelled(c: &mut Cursor) -> Result<Expect, ParseError> {
    let item = c.item()?;
    let why = match c.peek_word() {
        Some("no-legal-choice") => Some(CancelWhy::NoLegalChoice),
        Some("cannot-pay") => Some(CancelWhy::CannotPay),
        Some("targets-illegal") => Some(CancelWhy::TargetsIllegal),
        Some(w) => {
            return Err(c.err(format!(
            "expected `no-legal-choice`, `cannot-pay`, `targets-illegal` or the end, found `{w}`"
        )))
        }
        None => None,
    };
    if why.is_some() {
        c.pos += 1;
    }
    Ok(Expect::Cancelled(item, why))
}

/// `performed|ignored item N exec K instruction I [REASON]` (359.3.e)
fn instruction(c: &mut Cursor, performed: bool) -> Result<Expect, ParseError> {
    let item = c.item()?;
    let exec = exec_number(c)?;
    c.keyword("instruction")?;
    let ins = c.positive("an instruction number")?;
    if performed {
        Ok(Expect::Performed(item, exec, ins))
    } else {
        let why = match c.peek_word() {
            None => None,
            Some(w) => match reason(w) {
                Some(r) => {
                    c.pos += 1;
                    Some(r)
                }
                None => return Err(c.err(format!("expected a reason (targets-illegal, linked-not-executed, source-gone, impossible), found `{w}`"))),
            },
        };
        Ok(Expect::Ignored(item, exec, ins, why))
    }
}

// ---- Costs other than [Repeat], where units enter, the order of events ----

/// `pay` or `skip`.
fn pay_or_skip(c: &mut Cursor) -> Result<bool, ParseError> {
    match c.word("`pay` or `skip`")?.as_str() {
        "pay" => Ok(true),
        "skip" => Ok(false),
        w => {
            c.pos -= 1;
            Err(c.err(format!("expected `pay` or `skip`, found `{w}`")))
        }
    }
}

/// `reduce repeat|optional N energy|power` (356.4.c)
fn reduce(c: &mut Cursor) -> Result<PlayStmt, ParseError> {
    let part = match c.word("`repeat` or `optional`")?.as_str() {
        "repeat" => Part::Repeat,
        "optional" => Part::Optional,
        w => {
            c.pos -= 1;
            return Err(c.err(format!("expected `repeat` or `optional`, found `{w}`")));
        }
    };
    let index = c.positive("a component number")?;
    let less = match c.word("`energy` or `power`")?.as_str() {
        "energy" => Less::Energy,
        "power" => Less::Power,
        w => {
            c.pos -= 1;
            return Err(c.err(format!("expected `energy` or `power`, found `{w}`")));
        }
    };
    Ok(PlayStmt::Reduce { part, index, less })
}

/// `order M then M ...`: at least two moments.
fn order(c: &mut Cursor) -> Result<Expect, ParseError> {
    let mut v = vec![moment(c)?];
    while c.peek_word() == Some("then") {
        c.pos += 1;
        v.push(moment(c)?);
    }
    if v.len() < 2 {
        return Err(c.err(format!(
            "expected `then` and a second moment (an order needs two), found {}",
            c.describe()
        )));
    }
    Ok(Expect::Order(v))
}

/// One moment of `expect order`.
fn moment(c: &mut Cursor) -> Result<Moment, ParseError> {
    let expected = "a moment: `execution K of item N`, `finalize of item N`, `play of item N`, `finish of item N`, `entry of item N`, `entry of token-K` or `trigger \"Ability\"`";
    let at = c.pos;
    let w = c.word(expected)?;
    let of_item = |c: &mut Cursor| -> Result<u8, ParseError> {
        c.keyword("of")?;
        c.item()
    };
    Ok(match w.as_str() {
        "execution" => {
            let k = c.positive("an execution number")?;
            Moment::Execution(of_item(c)?, k)
        }
        "finalize" => Moment::Finalize(of_item(c)?),
        "play" => Moment::Play(of_item(c)?),
        "finish" => Moment::Finish(of_item(c)?),
        "entry" => {
            c.keyword("of")?;
            let obj = c.obj()?;
            if let ObjRef::Label(l) = &obj {
                if !l.starts_with("token-") {
                    c.pos -= 1;
                    return Err(c.err(format!(
                        "expected `item N` or `token-K` after `entry of`, found `{l}`"
                    )));
                }
            }
            Moment::Entry(obj)
        }
        "trigger" => Moment::Trigger(c.quoted("an ability's name")?),
        _ => {
            c.pos = at;
            return Err(c.err(format!("expected {expected}, found `{w}`")));
        }
    })
}

/// A discarded card: `"Card"` or `other` (one of the other cards in hand).
fn discarded_card(c: &mut Cursor) -> Result<Option<String>, ParseError> {
    if c.peek_word() == Some("other") {
        c.pos += 1;
        return Ok(None);
    }
    c.quoted("a card name or `other`").map(Some)
}
