//! Writing a model run as a case file: the scenario becomes the board, each decision a play
//! statement, and the expectations are what replaying that very case gives, so a written case
//! always passes `rbcheck replay` under its rulebook.

use super::ast::*;
use super::replay::{observed, View};
use model::action::Action;
use model::card::{Ability, CardDef, CardId};
use model::catalogue::{self, Catalogue};
use model::game::Game;
use model::setup::Setup;
use model::state::{Event, Obj, Phase, Player, State};
use std::path::Path;

/// A card as a one-line TOML table in the catalogue's vocabulary (for `define`), naming the
/// cards its abilities trigger as `game` knows them.
pub fn card_table(game: &Game, c: &CardDef) -> String {
    catalogue::card_table(c, |id| game.card(id).name.clone())
}

fn unit_label(i: usize) -> String {
    format!("u{}", i + 1)
}

fn gear_label(i: usize) -> String {
    format!("g{}", i + 1)
}

/// The board statements of a setup, and the defines its cards need.
fn board(
    game: &Game,
    setup: &Setup,
    builtin: &Catalogue,
    defines: &mut Vec<String>,
) -> Vec<Line<BoardStmt>> {
    let mut need = |id: CardId| {
        let c = game.card(id);
        let same = builtin
            .id(&c.name)
            .map(|b| builtin.cards[b as usize] == *c)
            .unwrap_or(false);
        if !same {
            // Abilities it names must be known too.
            for a in &c.abilities {
                if let Ability::WhenYouPlayASpell(t)
                | Ability::WhenChosen(t)
                | Ability::WhenAttacks(t) = a
                {
                    let tc = game.card(*t);
                    if builtin
                        .id(&tc.name)
                        .map(|b| builtin.cards[b as usize] != *tc)
                        .unwrap_or(true)
                    {
                        let d = card_table(game, tc);
                        if !defines.contains(&d) {
                            defines.push(d);
                        }
                    }
                }
            }
            let d = card_table(game, c);
            if !defines.contains(&d) {
                defines.push(d);
            }
        }
        c.name.clone()
    };
    let mut out = vec![];
    for (i, u) in setup.units.iter().enumerate() {
        out.push(BoardStmt::Unit(UnitStmt {
            label: unit_label(i),
            card: need(u.card),
            controller: u.controller,
            loc: u.loc,
            damage: u.damage,
            owner: u.owner.filter(|o| *o != u.controller),
            status: u.status,
        }));
    }
    for (i, g) in setup.gear.iter().enumerate() {
        out.push(BoardStmt::Gear {
            label: gear_label(i),
            card: need(g.card),
            controller: g.controller,
        });
    }
    for (i, b) in setup.battlefields.iter().enumerate() {
        if b.controller.is_some() || b.card.is_some() {
            out.push(BoardStmt::Battlefield {
                n: i as u8 + 1,
                controller: b.controller,
                card: b.card.map(&mut need),
            });
        }
    }
    for p in [Player::YOU, Player::OPP] {
        let ps = &setup.players[p.ix()];
        if !ps.pool.is_zero() {
            out.push(BoardStmt::Pool(p, ps.pool));
        }
        for c in &ps.hand {
            out.push(BoardStmt::Hand(p, need(*c)));
        }
        if ps.hand_other > 0 {
            out.push(BoardStmt::OtherCards(p, ps.hand_other));
        }
        if ps.deck != 10 {
            out.push(BoardStmt::Deck(p, ps.deck));
        }
        if !ps.deck_top.is_empty() {
            out.push(BoardStmt::DeckTop(
                p,
                ps.deck_top.iter().map(|c| need(*c)).collect(),
            ));
        }
        if ps.portal_charged {
            out.push(BoardStmt::Portal(p));
        }
        if ps.near_victory {
            out.push(BoardStmt::NearVictory(p));
        }
        if ps.academy_charged {
            out.push(BoardStmt::Academy(p));
        }
        if let Some(r) = &ps.runes {
            out.push(BoardStmt::Runes(p, r.clone()));
        }
    }
    if setup.showdown || setup.showdown_at.is_some() {
        out.push(BoardStmt::Showdown(setup.showdown_at.map(|n| n + 1)));
    }
    if let Some(u) = setup.attack_trigger {
        out.push(BoardStmt::Attack(unit_label(u as usize)));
    }
    out.into_iter().map(Line::new).collect()
}

/// How a case names an object: setup units and gear by label, tokens by the order they entered
/// (`token-K`: units played from hand are not tokens and are not counted), and a unit or gear
/// played from hand by the item that put it on the board (`played-N`).
fn obj_ref(setup: &Setup, s: &State, o: Obj) -> ObjRef {
    let token = |u: u8| s.units[u as usize].token;
    match o {
        Obj::Unit(u) if (u as usize) < setup.units.len() => ObjRef::Label(unit_label(u as usize)),
        Obj::Gear(g) if (g as usize) < setup.gear.len() => ObjRef::Label(gear_label(g as usize)),
        Obj::Unit(u) if token(u) => ObjRef::Label(format!(
            "token-{}",
            s.units
                .iter()
                .take(u as usize + 1)
                .filter(|x| x.token)
                .count()
        )),
        // A unit or gear played from hand: named by the item that put it on the board.
        Obj::Unit(_) | Obj::Gear(_) => {
            let item = s.log.iter().find_map(|e| match (*e, o) {
                (Event::UnitEntered { item, unit, .. }, Obj::Unit(u)) if unit == u => Some(item),
                (Event::GearEntered { item, gear }, Obj::Gear(g)) if gear == g => Some(item),
                _ => None,
            });
            // Every object past the setup entered by such an event; were one not to, `played-0`
            // names no item, and the replay of the case refuses it rather than guess.
            ObjRef::Label(format!("played-{}", item.map_or(0, |i| u16::from(i) + 1)))
        }
        Obj::Item(i) => ObjRef::Item(i + 1),
    }
}

/// The play statements for one action taken in state `s` (a decision a case left out).
pub fn statements_for(game: &Game, setup: &Setup, s: &State, a: Action) -> Vec<PlayStmt> {
    plays(game, setup, &[(s.clone(), a)])
}

/// The play statements for a run's actions (the states are the ones before each action).
fn plays(game: &Game, setup: &Setup, run: &[(State, Action)]) -> Vec<PlayStmt> {
    let mut out = vec![];
    let closes = closes(run);
    let mut skip_to = 0;
    for (k, (s, a)) in run.iter().enumerate() {
        if k < skip_to {
            continue;
        }
        if let Some(j) = closes[k] {
            out.push(PlayStmt::Close);
            skip_to = j;
            continue;
        }
        let new_choices_for = s.chain.iter().find_map(|i| match i.phase {
            Phase::NewChoices { for_item, .. } => Some(for_item),
            _ => None,
        });
        let item = new_choices_for.unwrap_or(0);
        match *a {
            Action::DeclineNewChoices => out.push(PlayStmt::DeclineNewChoices { item: item + 1 }),
            Action::ReopenRepeat { instance } => {
                new_choices_header(s, &mut out, item);
                out.push(PlayStmt::Repeat {
                    instance: instance + 1,
                    pay: true,
                });
            }
            Action::KeepChoice | Action::RemakeChoice { .. } => {
                let next_log: &[Event] = run
                    .get(k + 1)
                    .map(|(n, _)| &n.log[s.log.len().min(n.log.len())..])
                    .unwrap_or(&[]);
                new_choices_header(s, &mut out, item);
                new_targets(setup, s, next_log, item, &mut out);
            }
            _ => out.extend(statement(game, setup, s, *a)),
        }
    }
    // Trailing passes are implied (everyone passes until the chain closes at the end).
    while matches!(out.last(), Some(PlayStmt::Pass { .. } | PlayStmt::Close)) {
        out.pop();
    }
    out
}

/// The one play statement for action `a` taken in state `s`, outside new choices; none for a
/// step no statement stands for (the model's own steps).
fn statement(game: &Game, setup: &Setup, s: &State, a: Action) -> Option<PlayStmt> {
    Some(match a {
        Action::MoveToChain { player, hand } => PlayStmt::Play {
            player,
            card: game
                .card(s.players[player.ix()].hand[hand as usize])
                .name
                .clone(),
        },
        Action::DecideOptional { accept } => PlayStmt::May { perform: accept },
        Action::DeclareRepeat { instance, pay } => PlayStmt::Repeat {
            instance: instance + 1,
            pay,
        },
        Action::ChooseMode { exec, mode } => PlayStmt::Mode {
            exec: exec + 1,
            mode: mode + 1,
        },
        Action::ChooseTarget { exec, slot, obj } => PlayStmt::Target {
            exec: exec + 1,
            instruction: slot + 1,
            obj: obj_ref(setup, s, obj),
        },
        Action::EndTargets { exec, slot } => PlayStmt::NoMoreTargets {
            exec: exec + 1,
            instruction: slot + 1,
        },
        Action::ChooseDestination { exec, slot, to } => PlayStmt::Destination {
            exec: exec + 1,
            instruction: slot + 1,
            to,
        },
        Action::PayCosts { any } => PlayStmt::Pay {
            any: any
                .iter()
                .enumerate()
                .flat_map(|(d, n)| std::iter::repeat_n(model::Domain::ALL[d], *n as usize))
                .collect(),
        },
        Action::Pass => PlayStmt::Pass {
            player: s.priority.unwrap_or(Player::YOU),
        },
        Action::DrawLooked { index } => PlayStmt::LookDraw {
            card: index.map(|i| looked(game, s, i)),
        },
        Action::RecycleLooked { index } => PlayStmt::LookRecycle {
            card: looked(game, s, index),
        },
        Action::PayDemand { pay } => PlayStmt::Demand { pay },
        Action::DeclareOptionalCost { index, pay } => PlayStmt::Optional {
            index: index + 1,
            pay,
        },
        Action::ChooseLocation { to } => PlayStmt::Location { to },
        Action::ChooseReduction { component, less } => {
            let (part, i) = match component {
                model::state::Component::Repeat(i) => (Part::Repeat, i),
                model::state::Component::Optional(i) => (Part::Optional, i),
            };
            let less = match less {
                model::state::Reduction::Energy => Less::Energy,
                model::state::Reduction::Power => Less::Power,
            };
            PlayStmt::Reduce {
                part,
                index: i + 1,
                less,
            }
        }
        Action::DiscardForCost { card } => PlayStmt::Discard {
            card: card.map(|c| game.card(c).name.clone()),
        },
        Action::OrderDiscount { source } => PlayStmt::Discount {
            unit: match source {
                model::state::DiscountSource::Unit(u) => Some(obj_ref(setup, s, Obj::Unit(u))),
                _ => None,
            },
        },
        Action::ExhaustForCost { unit } | Action::KillForCost { unit } => PlayStmt::PayWithUnit {
            kill: matches!(a, Action::KillForCost { .. }),
            unit: obj_ref(setup, s, Obj::Unit(unit)),
        },
        Action::ExhaustRune { domain } => PlayStmt::Rune {
            how: RuneUse::Exhaust,
            domain,
        },
        Action::RecycleRune { domain } => PlayStmt::Rune {
            how: RuneUse::Recycle,
            domain,
        },
        Action::EndTurn => PlayStmt::EndTurn,
        Action::ActivateAbility { gear } => PlayStmt::Activate {
            player: s.gear[gear as usize].controller,
            object: obj_ref(setup, s, Obj::Gear(gear)),
        },
        _ => return None,
    })
}

/// Where a run's passes close the chain with nothing but passes on the way (339, 340.2): for
/// the run's index of each such first pass, `Some(j)`, j the index where the chain is empty;
/// those passes are written as one `close`. Passes with another decision among them (a
/// reaction, a "you may" while resolving) stay explicit.
fn closes(run: &[(State, Action)]) -> Vec<Option<usize>> {
    let mut out = vec![None; run.len()];
    let mut k = 0;
    while k < run.len() {
        if run[k].1 != Action::Pass || run[k].0.chain.is_empty() {
            k += 1;
            continue;
        }
        let mut j = k;
        while j < run.len()
            && !run[j].0.chain.is_empty()
            && (run[j].1 == Action::Pass || !run[j].1.is_decision())
        {
            j += 1;
        }
        if j < run.len() && run[j].0.chain.is_empty() {
            out[k] = Some(j);
            k = j;
        } else {
            k += 1;
        }
    }
    out
}

/// The card at position `i` of the deck of the player looking at it, as a case names it.
fn looked(game: &Game, s: &State, i: u8) -> DeckRef {
    let who = s
        .chain
        .iter()
        .find(|it| matches!(it.phase, Phase::Looking { .. }))
        .map_or(Player::YOU, |it| it.controller);
    match s.players[who.ix()].deck_card(i as usize) {
        Some(model::state::DeckCard::Named(c)) => DeckRef::Named(game.card(c).name.clone()),
        _ => DeckRef::Other,
    }
}

/// `new-choices item N`, unless a choice of this round was already written (751).
fn new_choices_header(s: &State, out: &mut Vec<PlayStmt>, item: u8) {
    let begun = s
        .log
        .iter()
        .rposition(|e| *e == Event::NewChoicesBegun { item });
    let decided = begun.is_some_and(|b| {
        s.log[b..].iter().any(|e| {
            matches!(
                e,
                Event::ChoiceKept { .. }
                    | Event::ChoiceRemade { .. }
                    | Event::RepeatDeclared { .. }
            )
        })
    });
    if !decided {
        out.push(PlayStmt::NewChoices { item: item + 1 });
    }
}

/// The target lines a kept or remade choice stands for (753), read from the events it logged.
fn new_targets(setup: &Setup, s: &State, next_log: &[Event], item: u8, out: &mut Vec<PlayStmt>) {
    for e in next_log {
        match *e {
            Event::ChoiceKept {
                exec,
                slot,
                item: i,
            } if i == item => {
                let old = s.item(item).and_then(|t| {
                    t.choices[exec as usize]
                        .targets(slot)
                        .nth(kept_index(s, item, exec, slot))
                });
                if let Some(o) = old {
                    out.push(PlayStmt::Target {
                        exec: exec + 1,
                        instruction: slot + 1,
                        obj: obj_ref(setup, s, o),
                    });
                }
            }
            Event::ChoiceRemade {
                exec,
                slot,
                obj,
                item: i,
            } if i == item => out.push(PlayStmt::Target {
                exec: exec + 1,
                instruction: slot + 1,
                obj: obj_ref(setup, s, obj),
            }),
            _ => {}
        }
    }
}

/// Which of a slot's targets the new-choices cursor is on (a slot can have several).
fn kept_index(s: &State, item: u8, exec: u8, slot: u8) -> usize {
    let begun = s
        .log
        .iter()
        .rposition(|e| *e == Event::NewChoicesBegun { item })
        .unwrap_or(0);
    s.log[begun..]
        .iter()
        .filter(|e| {
            matches!(e, Event::ChoiceKept { item: i, exec: x, slot: y } | Event::ChoiceRemade { item: i, exec: x, slot: y, .. }
                if *i == item && *x == exec && *y == slot)
        })
        .count()
}

/// Continues a run to the end of the play: pass when possible, otherwise take the first option.
pub fn complete_run(
    game: &Game,
    mut run: Vec<(State, Action)>,
    mut last: State,
) -> Vec<(State, Action)> {
    let mut acts = vec![];
    for _ in 0..10_000 {
        // In a turn of several plays a closed chain leaves the open state (335, 340.2): the
        // play is over there, and what comes next (another play, the end of the turn) is not
        // part of it.
        if last.turn.ends && last.started && last.chain.is_empty() {
            break;
        }
        acts.clear();
        game.actions(&last, &mut acts);
        let Some(a) = acts
            .iter()
            .find(|a| **a == Action::Pass)
            .or(acts.first())
            .copied()
        else {
            break;
        };
        let next = game.step(&last, &a);
        run.push((last, a));
        last = next;
    }
    run.push((last, Action::Pass)); // the final state, with a placeholder action never printed
    run
}

/// The expectations that describe a replay's outcome in full.
pub fn expectations(r: &View, setup: &Setup) -> Vec<Expect> {
    let s = &r.state;
    let mut out = vec![Expect::Legal];
    let items: Vec<u8> = s
        .log
        .iter()
        .filter_map(|e| match e {
            Event::MovedToChain { item, .. } => Some(*item),
            _ => None,
        })
        .collect();
    let add = |e: Expect, out: &mut Vec<Expect>| {
        if let Some(g) = observed(r, &e) {
            out.push(g);
        }
    };
    for item in items {
        let n = item + 1;
        if s.log
            .iter()
            .any(|e| matches!(e, Event::PlayCancelled { item: i, .. } if *i == item))
        {
            add(Expect::Cancelled(n, None), &mut out);
            continue;
        }
        let card = s.log.iter().find_map(|e| match e {
            Event::MovedToChain { item: i, card, .. } if *i == item => Some(*card),
            _ => None,
        });
        if card == Some(r.game.token) {
            continue;
        }
        add(Expect::RepeatPaid(n, vec![]), &mut out);
        if s.log
            .iter()
            .any(|e| matches!(e, Event::CostPaid { item: i, .. } if *i == item))
        {
            add(Expect::Paid(n, model::Cost::ZERO), &mut out);
        }
        add(Expect::Executions(n, 0), &mut out);
        add(Expect::PlayEvents(n, 0), &mut out);
        // A unit played from hand: where and how it entered (359.2, 805).
        add(
            Expect::Entered(n, model::state::Location::Base(Player::YOU), false),
            &mut out,
        );
        for e in &s.log {
            match *e {
                Event::Performed {
                    item: i,
                    exec,
                    slot,
                    ..
                } if i == item => out.push(Expect::Performed(n, exec + 1, slot + 1)),
                Event::Ignored {
                    item: i,
                    exec,
                    slot,
                    why,
                } if i == item => out.push(Expect::Ignored(n, exec + 1, slot + 1, Some(why))),
                _ => {}
            }
        }
        add(Expect::Countered(n), &mut out);
    }
    let mut triggered: Vec<String> = vec![];
    for e in &s.log {
        if let Event::Triggered { card, .. } = e {
            let name = r.game.card(*card).name.clone();
            if !triggered.contains(&name) {
                triggered.push(name);
            }
        }
    }
    for t in triggered {
        add(Expect::Triggered(t, 0), &mut out);
    }
    for p in [Player::YOU, Player::OPP] {
        add(Expect::Finalized(p, 0), &mut out);
        // The grants, where the player had or has one: what was used, kept or given back.
        let had = &setup.players[p.ix()];
        let has = &s.players[p.ix()];
        if had.portal_charged
            || had.academy_charged
            || has.portal_grants > 0
            || has.academy_grants > 0
        {
            add(Expect::Grants(p, vec![]), &mut out);
        }
    }
    out.extend(board_expectations(r, setup));
    out
}

/// Where a chain closed (or a play was undone) before more statements: the board
/// there, as expectations among the plays, where it differs from the end (the item expectations
/// at the end say the rest).
fn checkpoints(
    r: &super::replay::Replayed,
    setup: &Setup,
    end: &[Line<Expect>],
) -> Vec<Checkpoint> {
    let mut out = vec![];
    let mut before_empty = true;
    for (after, state) in &r.at {
        let empty = state.chain.is_empty() && state.started;
        if empty && !before_empty {
            let view = View {
                game: &r.game,
                state,
                illegal: None,
                labels: &r.labels,
            };
            for e in board_expectations(&view, setup) {
                if !end.iter().any(|x| x.stmt == e) {
                    out.push(Checkpoint {
                        after: *after,
                        expect: Line::new(e),
                    });
                }
            }
        }
        before_empty = empty;
    }
    out
}

/// The expectations on the board and the players (not the items) that describe a state.
fn board_expectations(r: &View, setup: &Setup) -> Vec<Expect> {
    let s = &r.state;
    let mut out = vec![];
    let add = |e: Expect, out: &mut Vec<Expect>| {
        if let Some(g) = observed(r, &e) {
            out.push(g);
        }
    };
    for (i, u) in setup.units.iter().enumerate() {
        let l = unit_label(i);
        let now = &s.units[i];
        if now.damage != u.damage {
            out.push(Expect::UnitDamage(l.clone(), now.damage));
        }
        out.push(Expect::UnitZone(l.clone(), now.zone));
        if now.loc != u.loc {
            out.push(Expect::UnitAt(l.clone(), now.loc));
        }
        // Statuses and Might that changed, read from the final board.
        let card_might = r.game.card(u.card).might;
        let was = model::state::Unit {
            might: card_might,
            might_mod: 0,
            damage: u.damage,
            status: u.status,
            ..*now
        };
        if now.zone == model::state::Zone::Board && now.current_might() != was.current_might() {
            out.push(Expect::UnitMight(l.clone(), now.current_might()));
        }
        if now.status.stunned != u.status.stunned {
            out.push(Expect::UnitStunned(l.clone(), now.status.stunned));
        }
        if now.status.exhausted != u.status.exhausted {
            out.push(Expect::UnitReady(l.clone(), !now.status.exhausted));
        }
        if now.status.assault != u.status.assault {
            out.push(Expect::UnitAssault(l, now.status.assault));
        }
    }
    for i in 0..setup.gear.len() {
        out.push(Expect::GearZone(gear_label(i), s.gear[i].zone));
    }
    for p in [Player::YOU, Player::OPP] {
        add(Expect::Tokens(p, 0), &mut out);
        add(Expect::Pool(p, model::Cost::ZERO), &mut out);
        add(Expect::HandSize(p, 0), &mut out);
        add(Expect::Trash(p, vec![]), &mut out);
        add(Expect::Deck(p, 0), &mut out);
        // Only a player with runes: for a pool-only one `observed` gives nothing.
        for part in [RunePart::Ready, RunePart::Exhausted, RunePart::Deck] {
            add(Expect::Runes(p, part, vec![]), &mut out);
        }
    }
    out
}

/// A whole case for a run from `setup` under `rules` (a preset name, or a rulebook path as the
/// case should name it), with `header` lines; the expectations come from replaying it.
pub fn case_for_run(
    game: &Game,
    rules: &str,
    setup: &Setup,
    run: &[(State, Action)],
    header: Vec<String>,
    dir: Option<&Path>,
) -> Result<Case, String> {
    let builtin = Catalogue::builtin();
    let mut defines = vec![];
    let mut board = board(game, setup, &builtin, &mut defines);
    // A turn of several plays, or one that ends: `turn plays N`, with `end-turn`
    // when the run ends the turn (the model explores the end with more than one play anyway).
    let ends = run.iter().any(|(_, a)| *a == Action::EndTurn);
    if !setup.turn.is_one_play() || ends {
        board.push(Line::new(BoardStmt::Turn(model::setup::TurnSetup {
            plays: setup.turn.plays,
            end_turn: setup.turn.end_turn || ends,
        })));
    }
    let plays = plays(game, setup, run);
    let case = Case {
        version: super::parse::VERSION,
        header,
        rules: rules.to_string(),
        defines: defines.into_iter().map(Line::new).collect(),
        board,
        plays: plays.into_iter().map(Line::new).collect(),
        checkpoints: vec![],
        expects: vec![],
    };
    with_expectations(case, setup, dir)
}

/// The case with its expectations replaced by what replaying it gives: `illegal line N rule R`
/// if a statement is refused, the full outcome otherwise.
pub fn with_expectations(
    mut case: Case,
    setup: &Setup,
    dir: Option<&Path>,
) -> Result<Case, String> {
    case.expects.clear();
    case.checkpoints.clear();
    // Number the lines as the printer lays them out, so that replay errors point somewhere.
    let text = super::print(&case);
    case = super::parse(&text)
        .map_err(|e| format!("the written case does not parse ({e}):\n{text}"))?;
    // The state after every statement, to find where a chain closed before more plays: only a
    // turn has such points (a single play is over when its chain closes).
    let turn = case
        .board
        .iter()
        .any(|b| matches!(b.stmt, BoardStmt::Turn(_)));
    let every: Vec<usize> = match turn {
        true => (1..case.plays.len()).collect(),
        false => vec![],
    };
    let rules = super::replay::rulebook(&case, dir).map_err(|e| e.to_string())?;
    let replayed = super::replay::replay_keeping(&case, rules, &every)
        .map_err(|e| format!("the written case does not replay ({e}):\n{text}"))?;
    case.expects = match &replayed.illegal {
        Some(i) => vec![Expect::Illegal {
            line: i.line,
            rule: Some(i.rule.clone()),
            play: None,
        }],
        None => expectations(&replayed.view(), setup),
    }
    .into_iter()
    .map(Line::new)
    .collect();
    if replayed.illegal.is_none() {
        case.checkpoints = checkpoints(&replayed, setup, &case.expects);
    }
    let text = super::print(&case);
    super::parse(&text).map_err(|e| format!("the written case does not parse ({e}):\n{text}"))
}

/// `case` with each decision the model needs and the case leaves out (at a `close` or at the
/// end of the plays) written in, taken as the model's first choice; expectations dropped. A case
/// changed in one decision needs this to stay whole: a cost that is no longer cancelled must now
/// be paid. None if the case has another error, or still lacks a decision after `rounds`.
pub fn with_missing_decisions(case: &Case, rounds: usize) -> Option<Case> {
    let mut c = case.clone();
    c.expects.clear();
    c.checkpoints.clear();
    for _ in 0..=rounds {
        // Printing and parsing again numbers the inserted lines.
        c = super::parse(&super::print(&c)).ok()?;
        let e = match super::replay::replay(&c, None) {
            Ok(_) => return Some(c),
            Err(e) => e,
        };
        let u = e.undecided?;
        let game = Game::new(
            super::replay::rulebook(&c, None).ok()?,
            super::replay::cards(&c).ok()?,
        );
        let (setup, _) = super::replay::setup(&game, &c).ok()?;
        let at = u.before.min(c.plays.len());
        let stmts = statements_for(&game, &setup, &u.state, u.action);
        if stmts.is_empty() {
            return None;
        }
        for (k, stmt) in stmts.into_iter().enumerate() {
            c.plays.insert(at + k, Line { line: 0, stmt });
        }
    }
    None
}
