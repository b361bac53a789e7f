//! Turning one play statement into the model's steps it stands for (354-359, 751-753, 145.2):
//! the decisions of a case file, read against the state the replay has reached.

use super::*;
use model::state::{DiscountSource, Player};

/// The model's steps a statement stands for, each with the line it is charged to.
pub(super) type Steps = Vec<(usize, Action)>;

/// What a replay reads its statements against.
pub(super) struct Run<'a> {
    pub(super) game: &'a Game,
    pub(super) labels: &'a HashMap<String, Obj>,
    /// Where each step taken is recorded, when the caller asked for the steps.
    pub(super) trace: Option<&'a RefCell<Vec<(State, Action)>>>,
}

impl Run<'_> {
    /// Takes step `a` from `s`, recording it when tracing.
    pub(super) fn step(&self, s: &mut State, a: Action) {
        if let Some(t) = self.trace {
            t.borrow_mut().push((s.clone(), a));
        }
        *s = self.game.step(s, &a);
    }
}

/// The model's steps (with their lines) that the statement at `i` stands for, and the index of
/// the next statement; or the statement is illegal before any step is tried (354, 339).
pub(super) fn decisions(
    run: &Run,
    s: &State,
    plays: &[Line<PlayStmt>],
    i: usize,
) -> Result<Result<(Steps, usize), Illegal>, CaseError> {
    let (line, stmt) = (plays[i].line, &plays[i].stmt);
    let step = match stmt {
        PlayStmt::NewChoices { item } => {
            let (w, next) = new_choices(run, s, plays, i, *item)?;
            return Ok(Ok((w, next)));
        }
        // Handled by `play_all`: its passes depend on what each resolution does.
        PlayStmt::Close => {
            return Err(err(
                line,
                "`close` is replayed by passing, not as a decision",
            ));
        }
        PlayStmt::Play { .. }
        | PlayStmt::Pass { .. }
        | PlayStmt::Activate { .. }
        | PlayStmt::Target { .. }
        | PlayStmt::PayWithUnit { .. }
        | PlayStmt::Discount { .. } => on_the_board(run, s, line, stmt)?,
        PlayStmt::Optional { .. }
        | PlayStmt::Location { .. }
        | PlayStmt::Discard { .. }
        | PlayStmt::Reduce { .. } => Ok(costs::decision(run.game, line, stmt)?),
        PlayStmt::Rune { .. } => Ok(runes::decision(s, line, stmt)?),
        PlayStmt::LookDraw { .. } | PlayStmt::LookRecycle { .. } | PlayStmt::Demand { .. } => {
            deck::decision(run.game, s, line, stmt)
        }
        _ => Ok(as_written(line, stmt)?),
    };
    Ok(step.map(|a| (vec![(line, a)], i + 1)))
}

/// The step of a statement that names a card in hand, a player who must hold priority, or an
/// object by its label: read against the state, or illegal before any step (354, 339, 145.2).
fn on_the_board(
    run: &Run,
    s: &State,
    line: usize,
    stmt: &PlayStmt,
) -> Result<Result<Action, Illegal>, CaseError> {
    let step = match stmt {
        PlayStmt::Play { player: p, card: c } => {
            let Some(h) = s.players[p.ix()]
                .hand
                .iter()
                .position(|id| run.game.card(*id).name.eq_ignore_ascii_case(c))
            else {
                let illegal = Illegal {
                    line,
                    rule: "354".into(),
                    why: format!("{p} has no \"{c}\" in hand"),
                };
                return Ok(Err(illegal));
            };
            Action::MoveToChain {
                player: *p,
                hand: h as u8,
            }
        }
        PlayStmt::Pass { player: p } => {
            if let Some(illegal) = not_holding(s, *p, line, "339", "pass") {
                return Ok(Err(illegal));
            }
            Action::Pass
        }
        PlayStmt::PayWithUnit { kill, unit } => {
            let Obj::Unit(unit) = resolve_obj(run.labels, s, line, unit)? else {
                return Err(err(line, "expected the label of a unit, not a gear"));
            };
            match kill {
                true => Action::KillForCost { unit },
                false => Action::ExhaustForCost { unit },
            }
        }
        PlayStmt::Discount { unit: None } => Action::OrderDiscount {
            source: DiscountSource::SelfDiscount,
        },
        PlayStmt::Discount { unit: Some(unit) } => {
            let Obj::Unit(unit) = resolve_obj(run.labels, s, line, unit)? else {
                return Err(err(
                    line,
                    "expected `own` or the label of a unit, not a gear",
                ));
            };
            Action::OrderDiscount {
                source: DiscountSource::Unit(unit),
            }
        }
        PlayStmt::Activate { player: p, object } => {
            let Obj::Gear(gear) = resolve_obj(run.labels, s, line, object)? else {
                return Err(err(line, "expected the label of a gear, not a unit"));
            };
            // The model's step names no player: the one holding priority activates (145.2).
            // Without this check `opponent activate P` would replay as the turn player's.
            if let Some(illegal) = not_holding(s, *p, line, "145.2", "activate") {
                return Ok(Err(illegal));
            }
            Action::ActivateAbility { gear }
        }
        PlayStmt::Target {
            exec,
            instruction,
            obj,
        } => Action::ChooseTarget {
            exec: exec - 1,
            slot: instruction - 1,
            obj: resolve_obj(run.labels, s, line, obj)?,
        },
        _ => as_written(line, stmt)?,
    };
    Ok(Ok(step))
}

/// The step of a statement that says all it stands for: a decision, a choice of an execution
/// (numbered from 1 in a case file, from 0 in the model), a payment, the end of the turn.
fn as_written(line: usize, stmt: &PlayStmt) -> Result<Action, CaseError> {
    Ok(match stmt {
        PlayStmt::May { perform } => Action::DecideOptional { accept: *perform },
        PlayStmt::Repeat { instance, pay } => Action::DeclareRepeat {
            instance: instance - 1,
            pay: *pay,
        },
        PlayStmt::Mode { exec, mode } => Action::ChooseMode {
            exec: exec - 1,
            mode: mode - 1,
        },
        PlayStmt::NoMoreTargets { exec, instruction } => Action::EndTargets {
            exec: exec - 1,
            slot: instruction - 1,
        },
        PlayStmt::Destination {
            exec,
            instruction,
            to,
        } => Action::ChooseDestination {
            exec: exec - 1,
            slot: instruction - 1,
            to: *to,
        },
        PlayStmt::Pay { any } => Action::PayCosts {
            any: any_split(any),
        },
        PlayStmt::DeclineNewChoices { .. } => Action::DeclineNewChoices,
        PlayStmt::EndTurn => Action::EndTurn,
        _ => return Err(err(line, "this statement is not one decision")),
    })
}

/// The statement is illegal when `p` does not hold priority: only the player holding it may
/// pass (339) or activate (145.2).
fn not_holding(s: &State, p: Player, line: usize, rule: &str, verb: &str) -> Option<Illegal> {
    if s.priority == Some(p) {
        return None;
    }
    Some(Illegal {
        line,
        rule: rule.into(),
        why: format!("{p} cannot {verb}: {}", priority_words(s)),
    })
}

/// Who holds priority, in the case file's words.
pub(super) fn priority_words(s: &State) -> &'static str {
    match s.priority {
        Some(Player::YOU) => "you hold priority",
        Some(_) => "the opponent holds priority",
        None => "nobody holds priority",
    }
}

/// How many [A] of `pay any ...` go to each domain.
fn any_split(any: &[model::cost::Domain]) -> [u8; 6] {
    let mut split = [0u8; 6];
    for d in any {
        split[*d as usize] += 1;
    }
    split
}

/// `new-choices item N` (751–753): the lines that follow are the item's whole new set of
/// targets, in the order of the original choices, each kept or remade; `repeat N pay` among
/// them reopens an instance. Returns the steps and the index of the next statement.
fn new_choices(
    run: &Run,
    s: &State,
    plays: &[Line<PlayStmt>],
    i: usize,
    item: u8,
) -> Result<(Steps, usize), CaseError> {
    let line = plays[i].line;
    let mut wanted: Vec<(usize, Action)> = vec![];
    let mut j = i + 1;
    let mut set: Vec<(usize, u8, u8, ObjRef)> = vec![];
    let mut reopen: Vec<(usize, u8)> = vec![];
    while j < plays.len() {
        match &plays[j].stmt {
            PlayStmt::Target {
                exec,
                instruction,
                obj,
            } => set.push((plays[j].line, *exec, *instruction, obj.clone())),
            PlayStmt::Repeat {
                instance,
                pay: true,
            } => reopen.push((plays[j].line, *instance)),
            _ => break,
        }
        j += 1;
    }
    let Some(target) = s.item(item - 1).cloned() else {
        return Err(err(line, format!("item {item} is not on the chain")));
    };
    for (l, inst) in &reopen {
        wanted.push((*l, Action::ReopenRepeat { instance: inst - 1 }));
    }
    let mut old: Vec<(u8, u8, Obj)> = vec![];
    for (e, ex) in target.choices.iter().enumerate() {
        for p in &ex.picks {
            if let model::state::Pick::Target { slot, obj } = p {
                old.push((e as u8, *slot, *obj));
            }
        }
    }
    if set.len() != old.len() {
        return Err(err(
                line,
                format!("new choices list the item's whole new set of targets: item {item} has {} target(s), the case lists {}", old.len(), set.len()),
            ));
    }
    for ((l, e, ins, o), (oe, os, oo)) in set.iter().zip(&old) {
        if (e - 1, ins - 1) != (*oe, *os) {
            return Err(err(*l, format!("expected the new choice for exec {} target {} here (same order as the original choices)", oe + 1, os + 1)));
        }
        let obj = resolve_obj(run.labels, s, *l, o)?;
        wanted.push((
            *l,
            if obj == *oo {
                Action::KeepChoice
            } else {
                Action::RemakeChoice { obj }
            },
        ));
    }
    Ok((wanted, j))
}
