//! Replaying a case through the model: build the game and the starting position, turn each
//! statement into the model's step, take the forced steps in between, and compare what happened
//! with the expectations, naming the first difference with its line and rule.

use super::ast::*;
use super::print::{expect_stmt, play_stmt};
use model::action::Action;
use model::card::CardKind;
use model::catalogue::Catalogue;
use model::game::Game;
use model::rulebook::Rulebook;
use model::setup::*;
use model::state::{Event, Obj, Phase, State, Zone};
use std::collections::HashMap;
use std::path::Path;

/// A case that cannot be replayed at all (unknown card, label, rulebook; a truncated play):
/// the file is wrong, not the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseError {
    /// 1-based line.
    pub line: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl std::fmt::Display for CaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.line, self.message)
    }
}

/// A statement the rules did not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    /// The statement's line.
    pub line: usize,
    /// The rule that forbids it.
    pub rule: String,
    /// Why, in words.
    pub why: String,
}

/// What replaying a case produced.
pub struct Replayed {
    /// The game it was played in.
    pub game: Game,
    /// The final state (where replay stopped, for an illegal statement).
    pub state: State,
    /// The first statement the rules did not allow, if any.
    pub illegal: Option<Illegal>,
    /// Labels of units and gear.
    pub labels: HashMap<String, Obj>,
}

/// A borrowed view of an outcome: what expectations are read from.
pub struct View<'a> {
    /// The game played.
    pub game: &'a Game,
    /// The final state.
    pub state: &'a State,
    /// The first refused statement, if any.
    pub illegal: Option<&'a Illegal>,
    /// Labels of units and gear.
    pub labels: &'a HashMap<String, Obj>,
}

impl Replayed {
    /// The outcome as a view.
    pub fn view(&self) -> View<'_> {
        View {
            game: &self.game,
            state: &self.state,
            illegal: self.illegal.as_ref(),
            labels: &self.labels,
        }
    }
}

/// The labels a written case gives a setup's objects: `u1`, `u2`, ... and `g1`, `g2`, ...
pub fn setup_labels(setup: &Setup) -> HashMap<String, Obj> {
    let mut m = HashMap::new();
    for i in 0..setup.units.len() {
        m.insert(format!("u{}", i + 1), Obj::Unit(i as u8));
    }
    for i in 0..setup.gear.len() {
        m.insert(format!("g{}", i + 1), Obj::Gear(i as u8));
    }
    m
}

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

fn err(line: usize, message: impl Into<String>) -> CaseError {
    CaseError {
        line,
        message: message.into(),
    }
}

/// The rulebook a case names: a preset, or a file relative to the case's folder.
pub fn rulebook(case: &Case, dir: Option<&Path>) -> Result<Rulebook, CaseError> {
    if let Some(r) = Rulebook::named(&case.rules) {
        return Ok(r);
    }
    let path = dir
        .map(|d| d.join(&case.rules))
        .unwrap_or_else(|| case.rules.clone().into());
    let text = std::fs::read_to_string(&path).map_err(|_| {
        err(
            header_line(case),
            format!(
                "unknown rules `{}`: expected v1.2, v1.3, rup4, guide or a rulebook file",
                case.rules
            ),
        )
    })?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("rulebook");
    Rulebook::from_toml(&text, name).map_err(|e| {
        err(
            header_line(case),
            format!("{}:{}: {}", path.display(), e.line, e.message),
        )
    })
}

fn header_line(case: &Case) -> usize {
    1 + case.header.len() + 1
}

/// The cards of a case: the catalogue plus its `define`s.
pub fn cards(case: &Case) -> Result<Vec<model::CardDef>, CaseError> {
    let mut tables = vec![];
    for d in &case.defines {
        let doc = format!("card = {}", d.stmt);
        let v: toml::Table = toml::from_str(&doc)
            .map_err(|e| err(d.line, format!("bad card table: {}", e.message().trim())))?;
        let Some(toml::Value::Table(t)) = v.get("card").cloned() else {
            return Err(err(
                d.line,
                "expected an inline table `{ name = ..., type = ... }`",
            ));
        };
        Catalogue::check_table(&t).map_err(|m| err(d.line, m))?;
        tables.push(t);
    }
    Catalogue::builtin_with(&tables, "the case's defines")
        .map(|c| c.cards)
        .map_err(|e| err(0, e.message))
}

/// Builds the starting position and the labels.
pub fn setup(game: &Game, case: &Case) -> Result<(Setup, HashMap<String, Obj>), CaseError> {
    let mut s = Setup::default();
    for p in &mut s.players {
        p.deck = 10;
    }
    let mut labels: HashMap<String, Obj> = HashMap::new();
    let card = |line: usize, name: &str, kinds: &[CardKind]| -> Result<model::CardId, CaseError> {
        let id = game.card_named(name).ok_or_else(|| {
            err(
                line,
                format!("unknown card \"{name}\" (not in model/cards.toml or a `define`)"),
            )
        })?;
        if !kinds.contains(&game.card(id).kind) {
            return Err(err(
                line,
                format!(
                    "\"{name}\" is a {:?}, expected a {:?}",
                    game.card(id).kind,
                    kinds[0]
                ),
            ));
        }
        Ok(id)
    };
    let mut max_bf = 2u8;
    for b in &case.board {
        if let BoardStmt::Unit {
            loc: model::state::Location::Battlefield(n),
            ..
        } = b.stmt
        {
            max_bf = max_bf.max(n + 1);
        }
        if let BoardStmt::Battlefield { n, .. } = b.stmt {
            max_bf = max_bf.max(n);
        }
    }
    s.battlefields = vec![BattlefieldSetup::default(); max_bf as usize];
    let mut attack = None;
    for Line { line, stmt } in &case.board {
        let line = *line;
        let mut label = |l: &str, obj: Obj| -> Result<(), CaseError> {
            if l.starts_with("token-") || l == "item" {
                return Err(err(line, format!("the label `{l}` is reserved")));
            }
            if labels.insert(l.to_string(), obj).is_some() {
                return Err(err(line, format!("the label `{l}` is used twice")));
            }
            Ok(())
        };
        match stmt {
            BoardStmt::Unit {
                label: l,
                card: c,
                controller,
                loc,
                damage,
            } => {
                label(l, Obj::Unit(s.units.len() as u8))?;
                s.units.push(UnitSetup {
                    card: card(line, c, &[CardKind::Unit])?,
                    controller: *controller,
                    loc: *loc,
                    damage: *damage,
                });
            }
            BoardStmt::Gear {
                label: l,
                card: c,
                controller,
            } => {
                label(l, Obj::Gear(s.gear.len() as u8))?;
                s.gear.push(GearSetup {
                    card: card(line, c, &[CardKind::Gear])?,
                    controller: *controller,
                });
            }
            BoardStmt::Battlefield {
                n,
                controller,
                card: c,
            } => {
                let bf = &mut s.battlefields[*n as usize - 1];
                bf.controller = *controller;
                bf.card = c
                    .as_deref()
                    .map(|c| card(line, c, &[CardKind::Battlefield]))
                    .transpose()?;
            }
            BoardStmt::Pool(p, c) => {
                if c.any > 0 {
                    return Err(err(
                        line,
                        "a pool holds Power of named domains; [A] is only a cost",
                    ));
                }
                s.players[p.ix()].pool = *c;
            }
            BoardStmt::Hand(p, c) => {
                let id = card(line, c, &[CardKind::Spell])?;
                s.players[p.ix()].hand.push(id);
            }
            BoardStmt::OtherCards(p, n) => s.players[p.ix()].hand_other = *n,
            BoardStmt::Deck(p, n) => s.players[p.ix()].deck = *n,
            BoardStmt::Portal(p) => s.players[p.ix()].portal_charged = true,
            BoardStmt::NearVictory(p) => s.players[p.ix()].near_victory = true,
            BoardStmt::Showdown => s.showdown = true,
            BoardStmt::Attack(l) => attack = Some((line, l.clone())),
        }
    }
    if let Some((line, l)) = attack {
        match labels.get(&l) {
            Some(Obj::Unit(u)) => s.attack_trigger = Some(*u),
            _ => return Err(err(line, format!("`attack {l}`: no unit labelled `{l}`"))),
        }
    }
    s.validate(game.cards.len())
        .map_err(|m| err(case.board.first().map(|b| b.line).unwrap_or(1), m))?;
    Ok((s, labels))
}

fn advance(game: &Game, s: &mut State) {
    let mut acts = vec![];
    loop {
        acts.clear();
        game.actions(s, &mut acts);
        if acts.len() == 1 && !acts[0].is_decision() {
            *s = game.step(s, &acts[0]);
        } else {
            return;
        }
    }
}

fn resolve_obj(
    labels: &HashMap<String, Obj>,
    s: &State,
    line: usize,
    o: &ObjRef,
    setup_units: usize,
) -> Result<Obj, CaseError> {
    match o {
        ObjRef::Item(n) => Ok(Obj::Item(n - 1)),
        ObjRef::Label(l) => {
            if let Some(k) = l
                .strip_prefix("token-")
                .and_then(|k| k.parse::<usize>().ok())
            {
                let idx = setup_units + k - 1;
                return if k >= 1 && idx < s.units.len() {
                    Ok(Obj::Unit(idx as u8))
                } else {
                    Err(err(
                        line,
                        format!("`{l}`: no such token has been played yet"),
                    ))
                };
            }
            labels.get(l).copied().ok_or_else(|| {
                err(
                    line,
                    format!(
                        "unknown label `{l}`: declare it with `unit {l} ...` or `gear {l} ...`"
                    ),
                )
            })
        }
    }
}

/// Why the model does not allow `a` here, as a rule and words.
fn explain(game: &Game, s: &State, a: &Action, enabled: &[Action]) -> (String, String) {
    let pending = s.chain.iter().find(|i| i.is_pending());
    // A choice made before the decisions that come first in 355's order.
    if !matches!(a, Action::DeclareRepeat { .. }) {
        if let Some(Action::DeclareRepeat { instance, .. }) = enabled
            .iter()
            .find(|e| matches!(e, Action::DeclareRepeat { .. }))
        {
            return (
                "355.1.a".into(),
                format!("Repeat instance {} is decided first: optional additional costs are chosen before modes and targets", instance + 1),
            );
        }
        if enabled
            .iter()
            .any(|e| matches!(e, Action::DecideOptional { .. }))
            && !matches!(a, Action::DecideOptional { .. })
        {
            return (
                "402.1".into(),
                "the triggered ability's \"you may\" is decided first".into(),
            );
        }
    }
    match *a {
        Action::DeclareRepeat { instance, .. } => {
            if pending.is_none() {
                return (
                    "355.1.a".into(),
                    "Repeat is decided while the item is being played (its choices step); no item is being played now".into(),
                );
            }
            if let Some(item) = pending {
                let card = game.card(item.card);
                if card.kind == CardKind::Ability && !game.rules.repeat_on_abilities {
                    return (
                        "820.1.a".into(),
                        format!(
                            "under {} only spells have [Repeat]; {} is an ability",
                            game.rules.name, card.name
                        ),
                    );
                }
                match item.repeat.get(instance as usize) {
                    None => return ("820.1.c".into(), format!("{} has {} Repeat instance(s), not {}", card.name, item.repeat.len(), instance + 1)),
                    Some(r) if r.decided && r.paid > 0 => {
                        return ("820.1.c.3".into(), format!("Repeat instance {} was already paid; each instance can be paid only once", instance + 1))
                    }
                    Some(r) if r.decided => return ("820.1.c.2".into(), format!("Repeat instance {} was already decided", instance + 1)),
                    Some(_) => {}
                }
                if item.phase != Phase::Choosing || item.repeat.iter().all(|r| r.decided) {
                    return (
                        "355.1.a".into(),
                        "Repeat is decided while playing, before modes and targets, not later"
                            .into(),
                    );
                }
            }
            (
                "820.1.c.2".into(),
                "Repeat instances are decided one at a time, in order".into(),
            )
        }
        Action::MoveToChain { player, .. } => {
            if !s.chain.is_empty() {
                (
                    "358.4".into(),
                    format!("{player} may add to an existing chain only a [Reaction]"),
                )
            } else {
                ("358.4".into(), format!("{player} cannot play that now"))
            }
        }
        Action::Pass => (
            "339".into(),
            format!(
                "{} holds priority now",
                s.priority
                    .map(|p| p.to_string())
                    .unwrap_or_else(|| "nobody".into())
            ),
        ),
        Action::ChooseTarget { obj, .. } => (
            "355.8".into(),
            format!("{} is not a legal choice here", game.obj_name(s, obj)),
        ),
        Action::ChooseMode { mode, .. } => (
            "355.3".into(),
            format!("mode {} cannot be chosen here", mode + 1),
        ),
        Action::RemakeChoice { .. } | Action::KeepChoice
            if enabled
                .iter()
                .any(|e| matches!(e, Action::RemakeChoice { .. } | Action::KeepChoice)) =>
        {
            let what = match *a {
                Action::RemakeChoice { obj } => {
                    format!("{} cannot be the new choice", game.obj_name(s, obj))
                }
                _ => "the old choice cannot be kept".into(),
            };
            let rule = match game.rules.new_choices {
                model::rulebook::NewChoicesRule::WholeSet => "753.1",
                _ => "751.1, 753.1",
            };
            (
                rule.into(),
                format!("{what}: a new choice must be legal now and, under {}, one the item was not previously choosing", game.rules.name),
            )
        }
        Action::RemakeChoice { .. } | Action::KeepChoice | Action::DeclineNewChoices => (
            "750".into(),
            "no new choices are being made for this item now".into(),
        ),
        _ => {
            let expected: Vec<String> = enabled.iter().map(|e| e.name().to_string()).collect();
            (
                a.rule().to_string(),
                format!(
                    "the rules call for {} here",
                    if expected.is_empty() {
                        "nothing more".into()
                    } else {
                        expected.join(" or ")
                    }
                ),
            )
        }
    }
}

/// Replays a case: every statement in order, forced steps in between, and trailing passes until
/// the chain closes.
pub fn replay(case: &Case, dir: Option<&Path>) -> Result<Replayed, CaseError> {
    let rules = rulebook(case, dir)?;
    let game = Game::new(rules, cards(case)?);
    let (setup, labels) = setup(&game, case)?;
    let setup_units = setup.units.len();
    let mut s = game.initial_state(&setup).map_err(|m| err(1, m))?;
    check_exec_order(case)?;
    let mut acts: Vec<Action> = vec![];
    let mut i = 0;
    let plays = &case.plays;
    while i < plays.len() {
        advance(&game, &mut s);
        let Line { line, stmt } = &plays[i];
        let line = *line;
        acts.clear();
        game.actions(&s, &mut acts);
        let mut wanted: Vec<(usize, Action)> = vec![];
        match stmt {
            PlayStmt::Play { player: p, card: c } => {
                let Some(h) = s.players[p.ix()]
                    .hand
                    .iter()
                    .position(|id| game.card(*id).name.eq_ignore_ascii_case(c))
                else {
                    let illegal = Illegal {
                        line,
                        rule: "354".into(),
                        why: format!("{p} has no \"{c}\" in hand"),
                    };
                    return Ok(Replayed {
                        game,
                        state: s,
                        illegal: Some(illegal),
                        labels,
                    });
                };
                wanted.push((
                    line,
                    Action::MoveToChain {
                        player: *p,
                        hand: h as u8,
                    },
                ));
            }
            PlayStmt::Pass { player: p } => {
                if s.priority != Some(*p) {
                    let who = s
                        .priority
                        .map(|q| q.to_string())
                        .unwrap_or_else(|| "nobody".into());
                    let illegal = Illegal {
                        line,
                        rule: "339".into(),
                        why: format!("{p} cannot pass: {who} holds priority"),
                    };
                    return Ok(Replayed {
                        game,
                        state: s,
                        illegal: Some(illegal),
                        labels,
                    });
                }
                wanted.push((line, Action::Pass));
            }
            PlayStmt::May { perform } => {
                wanted.push((line, Action::DecideOptional { accept: *perform }))
            }
            PlayStmt::Repeat { instance, pay } => wanted.push((
                line,
                Action::DeclareRepeat {
                    instance: instance - 1,
                    pay: *pay,
                },
            )),
            PlayStmt::Mode { exec, mode } => wanted.push((
                line,
                Action::ChooseMode {
                    exec: exec - 1,
                    mode: mode - 1,
                },
            )),
            PlayStmt::Target {
                exec,
                instruction,
                obj,
            } => {
                let obj = resolve_obj(&labels, &s, line, obj, setup_units)?;
                wanted.push((
                    line,
                    Action::ChooseTarget {
                        exec: exec - 1,
                        slot: instruction - 1,
                        obj,
                    },
                ));
            }
            PlayStmt::NoMoreTargets { exec, instruction } => wanted.push((
                line,
                Action::EndTargets {
                    exec: exec - 1,
                    slot: instruction - 1,
                },
            )),
            PlayStmt::Destination {
                exec,
                instruction,
                to,
            } => wanted.push((
                line,
                Action::ChooseDestination {
                    exec: exec - 1,
                    slot: instruction - 1,
                    to: *to,
                },
            )),
            PlayStmt::Pay { any } => {
                let mut split = [0u8; 6];
                for d in any {
                    split[*d as usize] += 1;
                }
                wanted.push((line, Action::PayCosts { any: split }));
            }
            PlayStmt::DeclineNewChoices { .. } => wanted.push((line, Action::DeclineNewChoices)),
            PlayStmt::NewChoices { item } => {
                // The lines that follow are the item's whole new set of targets, in order.
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
                    let obj = resolve_obj(&labels, &s, *l, o, setup_units)?;
                    wanted.push((
                        *l,
                        if obj == *oo {
                            Action::KeepChoice
                        } else {
                            Action::RemakeChoice { obj }
                        },
                    ));
                }
                i = j - 1;
            }
        }
        for (l, a) in wanted {
            advance(&game, &mut s);
            acts.clear();
            game.actions(&s, &mut acts);
            if !acts.contains(&a) {
                let (rule, why) = explain(&game, &s, &a, &acts);
                return Ok(Replayed {
                    game,
                    state: s,
                    illegal: Some(Illegal { line: l, rule, why }),
                    labels,
                });
            }
            s = game.step(&s, &a);
        }
        i += 1;
    }
    // The plays are over: everyone passes until the chain closes.
    let last = plays.last().map(|p| p.line).unwrap_or(1);
    for _ in 0..10_000 {
        advance(&game, &mut s);
        acts.clear();
        game.actions(&s, &mut acts);
        if acts.is_empty() {
            break;
        }
        if acts.contains(&Action::Pass) {
            s = game.step(&s, &Action::Pass);
            continue;
        }
        let who = s
            .chain
            .iter()
            .find(|i| i.is_pending())
            .map(|i| i.controller)
            .or(s.priority);
        let decision = acts
            .iter()
            .map(|a| a.name())
            .collect::<Vec<_>>()
            .join(" or ");
        return Err(err(
            last,
            format!(
                "the plays end here, but {} must still decide: {decision}; write that decision (see corpus/FORMAT.md)",
                who.map(|p| p.to_string()).unwrap_or_else(|| "a player".into())
            ),
        ));
    }
    Ok(Replayed {
        game,
        state: s,
        illegal: None,
        labels,
    })
}

/// 820.2.a: an item's choices are declared execution by execution, in order.
fn check_exec_order(case: &Case) -> Result<(), CaseError> {
    let mut current = 0u8;
    let mut in_new_choices = false;
    for Line { line, stmt } in &case.plays {
        let exec = match stmt {
            PlayStmt::Mode { exec, .. }
            | PlayStmt::Target { exec, .. }
            | PlayStmt::NoMoreTargets { exec, .. }
            | PlayStmt::Destination { exec, .. } => *exec,
            PlayStmt::NewChoices { .. } => {
                in_new_choices = true;
                current = 0;
                continue;
            }
            PlayStmt::Repeat { .. } if in_new_choices => continue,
            _ => {
                current = 0;
                in_new_choices = false;
                continue;
            }
        };
        if exec < current {
            return Err(err(*line, format!("exec {exec} comes after exec {current}: each execution's choices are declared in order (820.2.a)")));
        }
        // In a new-choices block only the targets are listed, so executions without one are
        // absent; the order still holds.
        if exec > current + 1 && !in_new_choices {
            return Err(err(*line, format!("exec {exec} before exec {}: executions are declared in order, none skipped (820.2.a)", current + 1)));
        }
        current = exec;
    }
    Ok(())
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
        Expect::UnitDamage(..)
        | Expect::UnitZone(..)
        | Expect::UnitAt(..)
        | Expect::GearZone(..)
        | Expect::Tokens(..) => "359.3.e, 321",
        Expect::Pool(..) | Expect::HandSize(..) | Expect::Trash(..) | Expect::Deck(..) => {
            "357, 425.1"
        }
    }
}

/// What the replay shows for an expectation's subject, in the expectation's own words.
pub fn observed(r: &View, e: &Expect) -> Option<Expect> {
    let s = &r.state;
    let log = &s.log;
    let count = |f: &dyn Fn(&Event) -> bool| log.iter().filter(|e| f(e)).count() as u8;
    let label = |l: &str| r.labels.get(l).copied();
    Some(match e {
        Expect::Legal | Expect::Illegal { .. } => match r.illegal {
            None => Expect::Legal,
            Some(i) => Expect::Illegal {
                line: i.line,
                rule: Some(i.rule.clone()),
            },
        },
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
        Expect::Finalized(p, _) => Expect::Finalized(*p, s.players[p.ix()].finalized_this_turn),
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
            Expect::HandSize(*p, ps.hand.len() as u8 + ps.hand_other)
        }
        Expect::Trash(p, _) => Expect::Trash(
            *p,
            s.players[p.ix()]
                .trash
                .iter()
                .map(|c| r.game.card(*c).name.clone())
                .collect(),
        ),
        Expect::Deck(p, _) => Expect::Deck(*p, s.players[p.ix()].deck),
    })
}

fn matches(expected: &Expect, got: &Expect) -> bool {
    match (expected, got) {
        (Expect::Illegal { line, rule }, Expect::Illegal { line: l2, rule: r2 }) => {
            line == l2
                && rule.as_ref().is_none_or(|r| {
                    r2.as_deref()
                        .is_some_and(|g| g.starts_with(r.as_str()) || r.starts_with(g))
                })
        }
        (Expect::Cancelled(a, None), Expect::Cancelled(b, _)) => a == b,
        (Expect::Ignored(a, b, c, None), Expect::Ignored(d, e, f, _)) => (a, b, c) == (d, e, f),
        (Expect::Trash(p, a), Expect::Trash(q, b)) => {
            let (mut a, mut b) = (a.clone(), b.clone());
            a.iter_mut().for_each(|x| *x = x.to_ascii_lowercase());
            b.iter_mut().for_each(|x| *x = x.to_ascii_lowercase());
            p == q && a == b
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
    for Line { line, stmt } in &case.expects {
        let got = observed(&r.view(), stmt);
        let ok = got.as_ref().is_some_and(|g| matches(stmt, g));
        if !ok {
            let what = match &got {
                Some(g) => format!("the model gives `{}`", expect_stmt(g)),
                None => match stmt {
                    Expect::Cancelled(n, _) => format!("item {n} was not cancelled"),
                    Expect::Performed(..) | Expect::Ignored(..) => {
                        "that instruction never ran".into()
                    }
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
