//! Replaying a case through the model: build the game and the starting position, turn each
//! statement into the model's step, take the forced steps in between, and compare what happened
//! with the expectations, naming the first difference with its line and rule.

mod costs;
mod decisions;
mod deck;
mod explain;
mod runes;
mod verdict;

use super::ast::*;
use decisions::{decisions, Run};
use explain::explain;
use model::action::Action;
use model::card::CardKind;
use model::catalogue::Catalogue;
use model::game::Game;
use model::rulebook::Rulebook;
use model::setup::*;
use model::state::{Obj, State};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

pub use verdict::{check_subjects, observed, verdict, Verdict};

/// A case that cannot be replayed at all (unknown card, label, rulebook; a truncated play):
/// the file is wrong, not the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseError {
    /// 1-based line.
    pub line: usize,
    /// What was wrong and what was expected.
    pub message: String,
    /// For a case cut short: the decision the model needs there.
    pub undecided: Option<Box<Undecided>>,
}

/// A decision the model needs where a case writes none: before play statement `before` (its
/// index; the number of statements for the end of the plays), the player may take `action`
/// (the first decision other than passing the model offers) in `state`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undecided {
    /// The index of the play statement the decision comes before.
    pub before: usize,
    /// The state the decision is taken in.
    pub state: State,
    /// The model's first choice of that decision.
    pub action: Action,
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
    /// The state after the first N play statements, for the expectations written there
    /// (`Case::checkpoints`), by N; absent where the replay stopped before.
    pub at: Vec<(usize, State)>,
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

    /// The state after the first `after` play statements as a view (nothing refused up to
    /// there), if the replay got that far.
    pub fn view_at(&self, after: usize) -> Option<View<'_>> {
        let (_, state) = self.at.iter().find(|(n, _)| *n == after)?;
        Some(View {
            game: &self.game,
            state,
            illegal: None,
            labels: &self.labels,
        })
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

fn err(line: usize, message: impl Into<String>) -> CaseError {
    CaseError {
        line,
        message: message.into(),
        undecided: None,
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
    let text = crate::read::read_text(&path).map_err(|e| {
        err(
            header_line(case),
            format!(
                "rules `{}`: not a preset (v1.2, v1.3, rup4, guide), and the rulebook file {}: {e}",
                case.rules,
                path.display()
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
        tables.push((d.line, t));
    }
    // A define may trigger an ability another define of the same case declares.
    let names: Vec<String> = tables
        .iter()
        .filter_map(|(_, t)| t.get("name").and_then(|n| n.as_str()).map(String::from))
        .collect();
    for (line, t) in &tables {
        Catalogue::check_table(t, &names).map_err(|m| err(*line, m))?;
    }
    let tables: Vec<toml::Table> = tables.into_iter().map(|(_, t)| t).collect();
    Catalogue::builtin_with(&tables, "the case's defines")
        .map(|c| c.cards)
        .map_err(|e| err(define_line(case, &e.message), e.message))
}

/// The line of the `define` a catalogue error is about: the one whose card it names (`card
/// `Name`: ...`), else the first `define` (an error that names no card is about them all).
fn define_line(case: &Case, message: &str) -> usize {
    let named = |d: &&Line<String>| {
        toml::from_str::<toml::Table>(&format!("card = {}", d.stmt))
            .ok()
            .and_then(|t| t.get("card")?.get("name")?.as_str().map(str::to_string))
            .is_some_and(|n| message.starts_with(&format!("card `{n}`")))
    };
    case.defines
        .iter()
        .find(named)
        .or(case.defines.first())
        .map(|d| d.line)
        .unwrap_or_else(|| header_line(case))
}

/// The most units, and the most gear, a case may have (the model's limit, `Setup::validate`).
pub const MAX_OBJECTS: usize = 40;

/// The most cards a player may hold in hand and deck together (hand cards, `other-cards` and
/// `deck`), so that drawing and returning cards to hand stay within the model's counts.
pub const MAX_CARDS: usize = model::state::MAX_CARDS;

/// Builds the starting position and the labels.
pub fn setup(game: &Game, case: &Case) -> Result<(Setup, HashMap<String, Obj>), CaseError> {
    let mut s = Setup::default();
    for p in &mut s.players {
        p.deck = 10;
    }
    let mut labels: HashMap<String, Obj> = HashMap::new();
    let card = |line: usize, name: &str, kinds: &[CardKind]| card_of(game, line, name, kinds);
    s.battlefields = vec![BattlefieldSetup::default(); battlefield_count(case) as usize];
    let mut attack = None;
    for Line { line, stmt } in &case.board {
        let line = *line;
        let mut label = |l: &str, obj: Obj| -> Result<(), CaseError> {
            if l.starts_with("token-") || l.starts_with("played-") || l == "item" || l == "own" {
                return Err(err(
                    line,
                    format!(
                        "the label `{l}` is reserved (`item N`, `token-N`, `played-N`, `discount own`)"
                    ),
                ));
            }
            if labels.insert(l.to_string(), obj).is_some() {
                return Err(err(line, format!("the label `{l}` is used twice")));
            }
            Ok(())
        };
        match stmt {
            BoardStmt::Unit(u) => {
                if s.units.len() >= MAX_OBJECTS {
                    return Err(err(
                        line,
                        format!("unit {}: a case has at most {MAX_OBJECTS} units", u.label),
                    ));
                }
                label(&u.label, Obj::Unit(s.units.len() as u8))?;
                s.units.push(UnitSetup {
                    card: card(line, &u.card, &[CardKind::Unit])?,
                    controller: u.controller,
                    loc: u.loc,
                    damage: u.damage,
                    owner: u.owner,
                    status: u.status,
                });
            }
            BoardStmt::Gear {
                label: l,
                card: c,
                controller,
            } => {
                if s.gear.len() >= MAX_OBJECTS {
                    return Err(err(
                        line,
                        format!("gear {l}: a case has at most {MAX_OBJECTS} gear"),
                    ));
                }
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
                let id = card(line, c, &[CardKind::Spell, CardKind::Unit, CardKind::Gear])?;
                s.players[p.ix()].hand.push(id);
            }
            BoardStmt::OtherCards(p, n) => s.players[p.ix()].hand_other = *n,
            BoardStmt::Deck(p, n) => s.players[p.ix()].deck = *n,
            BoardStmt::Portal(p) => s.players[p.ix()].portal_charged = true,
            BoardStmt::NearVictory(p) => s.players[p.ix()].near_victory = true,
            BoardStmt::Showdown(at) => {
                s.showdown = true;
                s.showdown_at = at.map(|n| n - 1);
            }
            BoardStmt::Attack(l) => attack = Some((line, l.clone())),
            BoardStmt::DeckTop(p, v) => s.players[p.ix()]
                .deck_top
                .extend(deck::deck_top_cards(game, line, v)?),
            BoardStmt::Academy(p) => s.players[p.ix()].academy_charged = true,
            BoardStmt::Runes(p, r) => runes::board(&mut s, line, *p, r)?,
            BoardStmt::Turn(t) => s.turn = *t,
        }
    }
    check_card_counts(case, &s)?;
    if let Some((line, l)) = attack {
        s.attack_trigger = Some(attack_trigger(game, &s, &labels, line, &l)?);
    }
    s.validate(game.cards.len())
        .map_err(|m| err(case.board.first().map(|b| b.line).unwrap_or(1), m))?;
    Ok((s, labels))
}

/// Refuses a player with more cards in hand and deck than the model counts (at the line of the
/// last statement that added some).
fn check_card_counts(case: &Case, s: &Setup) -> Result<(), CaseError> {
    for (p, ps) in s.players.iter().enumerate() {
        let cards =
            ps.hand.len() + usize::from(ps.hand_other) + usize::from(ps.deck) + ps.deck_top.len();
        if cards > MAX_CARDS {
            let line = case
                .board
                .iter()
                .rev()
                .find(|b| {
                    matches!(b.stmt, BoardStmt::OtherCards(q, _) | BoardStmt::Deck(q, _) | BoardStmt::Hand(q, _) | BoardStmt::DeckTop(q, _) if q.ix() == p)
                })
                .map(|b| b.line)
                .unwrap_or(1);
            return Err(err(
                line,
                format!("{} has {cards} cards in hand and deck together (hand cards, other-cards, deck and deck-top); at most {MAX_CARDS}", model::state::Player(p as u8)),
            ));
        }
    }
    Ok(())
}

/// The unit of `attack LABEL`, which must have a "when I attack" ability.
fn attack_trigger(
    game: &Game,
    s: &Setup,
    labels: &HashMap<String, Obj>,
    line: usize,
    l: &str,
) -> Result<u8, CaseError> {
    match labels.get(l) {
        Some(Obj::Unit(u)) => {
            let card = game.card(s.units[usize::from(*u)].card);
            let attacks = card
                .abilities
                .iter()
                .any(|a| matches!(a, model::card::Ability::WhenAttacks(_)));
            if !attacks {
                return Err(err(
                    line,
                    format!(
                        "`attack {l}`: {l} is {}, which has no \"when I attack\" ability",
                        card.name
                    ),
                ));
            }
            Ok(*u)
        }
        _ => Err(err(line, format!("`attack {l}`: no unit labelled `{l}`"))),
    }
}

/// The card named, which must be of one of `kinds`.
fn card_of(
    game: &Game,
    line: usize,
    name: &str,
    kinds: &[CardKind],
) -> Result<model::CardId, CaseError> {
    let id = game.card_named(name).ok_or_else(|| {
        err(
            line,
            format!(
                "unknown card \"{name}\" (not in model/cards.toml or a `define`){}",
                model::suggest::did_you_mean(name, game.cards.iter().map(|c| c.name.as_str()))
            ),
        )
    })?;
    if !kinds.contains(&game.card(id).kind) {
        return Err(err(
            line,
            format!(
                "\"{name}\" is a {}, expected a {}",
                game.card(id).kind.word(),
                kinds
                    .iter()
                    .map(|k| k.word())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        ));
    }
    Ok(id)
}

/// Battlefields on the board: two, or as many as the case names or puts a unit at.
fn battlefield_count(case: &Case) -> u8 {
    let mut max_bf = 2u8;
    for b in &case.board {
        if let BoardStmt::Unit(u) = &b.stmt {
            if let model::state::Location::Battlefield(n) = u.loc {
                max_bf = max_bf.max(n + 1);
            }
        }
        if let BoardStmt::Battlefield { n, .. } | BoardStmt::Showdown(Some(n)) = b.stmt {
            max_bf = max_bf.max(n);
        }
    }
    max_bf
}

fn advance(run: &Run, s: &mut State) {
    let mut acts = vec![];
    loop {
        acts.clear();
        run.game.actions(s, &mut acts);
        if acts.len() == 1 && !acts[0].is_decision() {
            run.step(s, acts[0]);
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
) -> Result<Obj, CaseError> {
    match o {
        ObjRef::Item(n) => Ok(Obj::Item(n - 1)),
        ObjRef::Label(l) => {
            if let Some(k) = l
                .strip_prefix("token-")
                .and_then(|k| k.parse::<usize>().ok())
            {
                // Checked: `k` is the file's number, any size (token-0 and huge ones exist not).
                return k
                    .checked_sub(1)
                    .and_then(|k| verdict::nth_token(s, k))
                    .ok_or_else(|| err(line, format!("`{l}`: no such token has been played yet")));
            }
            if let Some(n) = verdict::played_item(l) {
                return verdict::played(s, n).ok_or_else(|| {
                    err(
                        line,
                        format!("`{l}`: item {n} has put no unit or gear on the board yet"),
                    )
                });
            }
            labels.get(l).copied().ok_or_else(|| {
                err(
                    line,
                    format!(
                        "unknown label `{l}`{}: declare it with `unit {l} ...` or `gear {l} ...`",
                        model::suggest::did_you_mean(l, labels.keys().map(String::as_str))
                    ),
                )
            })
        }
    }
}

/// Replays a case: every statement in order, forced steps in between, and trailing passes until
/// the chain closes.
pub fn replay(case: &Case, dir: Option<&Path>) -> Result<Replayed, CaseError> {
    replay_under(case, rulebook(case, dir)?)
}

/// Replays a case under `rules`, whatever its `rules` line names (`rbcheck serve` parses a
/// request's rulebook in memory and never writes it to a file).
pub fn replay_under(case: &Case, rules: Rulebook) -> Result<Replayed, CaseError> {
    replay_keeping(case, rules, &checkpoint_positions(case))
}

/// Replays a case under `rules`, keeping the state after the first N play statements for each
/// N of `positions` (ascending) in [`Replayed::at`], besides those its checkpoints need.
pub fn replay_keeping(
    case: &Case,
    rules: Rulebook,
    positions: &[usize],
) -> Result<Replayed, CaseError> {
    replay_recording(case, rules, positions, None)
}

/// Replays a case under its own rulebook, recording every step the model took: each state with
/// the action taken from it, and last the final state with a placeholder (`Pass`). The rule
/// clauses a step applies depend on the state it applied them in (how deep the chain was, which
/// execution ran, whose item it was); a fuzzing run's fault localisation reads them here.
pub fn replay_traced(case: &Case) -> Result<(Replayed, Vec<(State, Action)>), CaseError> {
    let trace = RefCell::new(vec![]);
    let replayed = replay_recording(case, rulebook(case, None)?, &[], Some(&trace))?;
    let mut steps = trace.into_inner();
    steps.push((replayed.state.clone(), Action::Pass));
    Ok((replayed, steps))
}

fn replay_recording(
    case: &Case,
    rules: Rulebook,
    positions: &[usize],
    trace: Option<&RefCell<Vec<(State, Action)>>>,
) -> Result<Replayed, CaseError> {
    let mut positions = positions.to_vec();
    positions.extend(checkpoint_positions(case));
    positions.sort_unstable();
    positions.dedup();
    let mut game = Game::new(rules, cards(case)?);
    // A case may play again a card whose play was undone (358.5): its statements end, so the
    // exploration bound against undoing in a loop is not needed here.
    game.retry_undone = true;
    let (setup, labels) = setup(&game, case)?;
    let mut s = game.initial_state(&setup).map_err(|m| err(1, m))?;
    check_exec_order(case)?;
    let run = Run {
        game: &game,
        labels: &labels,
        trace,
    };
    let mut at = vec![];
    let illegal = play_all(&run, &mut s, &case.plays, &positions, &mut at)?;
    if illegal.is_none() {
        let last = case.plays.last().map(|p| p.line).unwrap_or(1);
        close_chain(&run, &mut s, (last, case.plays.len()))?;
    }
    let replayed = Replayed {
        game,
        state: s,
        illegal,
        labels,
        at,
    };
    verdict::check_subjects(case, &replayed.view())?;
    verdict::check_checkpoint_subjects(case, &replayed)?;
    Ok(replayed)
}

/// The distinct numbers of play statements after which a checkpoint is read, ascending.
fn checkpoint_positions(case: &Case) -> Vec<usize> {
    let mut v: Vec<usize> = case.checkpoints.iter().map(|c| c.after).collect();
    v.dedup();
    v
}

/// Plays every statement in order, forced steps in between; the first illegal one stops. After
/// the statements counted in `positions` (forced steps taken, nothing passed) the state is kept
/// in `at` for the expectations written there.
fn play_all(
    run: &Run,
    s: &mut State,
    plays: &[Line<PlayStmt>],
    positions: &[usize],
    at: &mut Vec<(usize, State)>,
) -> Result<Option<Illegal>, CaseError> {
    let mut acts: Vec<Action> = vec![];
    let mut i = 0;
    while i < plays.len() {
        advance(run, s);
        if plays[i].stmt == PlayStmt::Close {
            if let Err(illegal) = close(run, s, plays[i].line, i)? {
                return Ok(Some(illegal));
            }
            i += 1;
        } else {
            let wanted = match decisions(run, s, plays, i)? {
                Ok((wanted, next)) => {
                    i = next;
                    wanted
                }
                Err(illegal) => return Ok(Some(illegal)),
            };
            for (l, a) in wanted {
                advance(run, s);
                acts.clear();
                run.game.actions(s, &mut acts);
                if !acts.contains(&a) {
                    let (rule, why) = explain(run.game, run.labels, s, &a, &acts);
                    return Ok(Some(Illegal { line: l, rule, why }));
                }
                run.step(s, a);
            }
        }
        // A checkpoint inside a `new-choices` block is read after the block (its lines are one
        // decision).
        for &p in positions.iter().filter(|&&p| p <= i) {
            if !at.iter().any(|(q, _)| *q == p) {
                advance(run, s);
                at.push((p, s.clone()));
            }
        }
    }
    Ok(None)
}

/// `close` (339, 340.2): everyone passes until the chain closes. With no chain to close the
/// statement is illegal (the turn player is in the open state: nothing to pass); a decision other
/// than passing on the way means the case is cut short, as at the end of the plays.
fn close(
    run: &Run,
    s: &mut State,
    line: usize,
    index: usize,
) -> Result<Result<(), Illegal>, CaseError> {
    if s.chain.is_empty() {
        return Ok(Err(Illegal {
            line,
            rule: "340.2".into(),
            why: "there is no chain to close: nothing is on the chain".into(),
        }));
    }
    let game = run.game;
    let mut acts: Vec<Action> = vec![];
    loop {
        advance(run, s);
        acts.clear();
        game.actions(s, &mut acts);
        if acts.contains(&Action::Pass) {
            run.step(s, Action::Pass);
        } else if s.chain.is_empty() {
            return Ok(Ok(()));
        } else {
            return Err(must_decide(
                run,
                s,
                &acts,
                (line, index),
                "`close` passes until the chain closes",
            ));
        }
    }
}

/// The error for a case cut short: `what` ends here (at `line`, before play statement `before`),
/// but a player must still decide something other than passing.
fn must_decide(
    run: &Run,
    s: &State,
    acts: &[Action],
    (line, before): (usize, usize),
    what: &str,
) -> CaseError {
    let who = s
        .chain
        .iter()
        .find(|i| i.is_pending())
        .map(|i| i.controller)
        .or(s.priority);
    let decision = explain::expected(run.game, run.labels, s, acts);
    let mut e = err(
        line,
        format!(
            "{what}, but {} must still decide: {decision}; write that decision (see corpus/FORMAT.md)",
            who.map(|p| p.to_string()).unwrap_or_else(|| "a player".into())
        ),
    );
    e.undecided = acts.iter().find(|a| **a != Action::Pass).map(|&action| {
        Box::new(Undecided {
            before,
            state: s.clone(),
            action,
        })
    });
    e
}

/// The plays are over: everyone passes until the chain closes; a decision other than passing
/// left to take means the case is cut short.
fn close_chain(run: &Run, s: &mut State, (last, end): (usize, usize)) -> Result<(), CaseError> {
    let game = run.game;
    let mut acts: Vec<Action> = vec![];
    for _ in 0..10_000 {
        advance(run, s);
        acts.clear();
        game.actions(s, &mut acts);
        if acts.is_empty() {
            break;
        }
        if acts.contains(&Action::Pass) {
            run.step(s, Action::Pass);
            continue;
        }
        // In a turn of several plays a closed chain leaves the open state, where the turn
        // player may play again or end the turn: the case stops there.
        if s.chain.is_empty() && s.turn.ends {
            break;
        }
        return Err(must_decide(
            run,
            s,
            &acts,
            (last, end),
            "the plays end here",
        ));
    }
    Ok(())
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
