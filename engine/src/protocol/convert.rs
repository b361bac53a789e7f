//! Conversions between the protocol's messages and the case AST / model: the request for a case
//! file (its board in the protocol's words, every card it names in the catalogue's vocabulary,
//! the features it uses), and a case rebuilt from a request's structured fields.

use super::*;
use model::card::{Ability, CardDef, CardKind, Rider};
use model::catalogue::Catalogue;
use model::cost::Cost;
use model::game::Game;
use model::rulebook::Rulebook;
use model::state::{Location, Player};
use rbcheck_case::ast::*;
use rbcheck_case::from_trace::card_table;
use rbcheck_case::print::player;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// A location as the case format writes it.
pub use rbcheck_case::print::loc as location_name;

/// A card definition as a JSON object in the catalogue's vocabulary.
pub fn card_json(game: &Game, c: &CardDef) -> Value {
    let text = format!("card = {}", card_table(game, c));
    toml::from_str::<toml::Table>(&text)
        .ok()
        .and_then(|t| t.get("card").cloned())
        .and_then(|v| serde_json::to_value(v).ok())
        .unwrap_or(Value::Null)
}

/// The features found so far, in the order found, each once.
#[derive(Default)]
struct Found(Vec<&'static str>);

impl Found {
    fn add(&mut self, x: &'static str) {
        if !self.0.contains(&x) {
            self.0.push(x);
        }
    }
}

/// The features a case uses, judged from its board and the cards it plays.
pub fn case_features(case: &Case, cards: &[CardDef]) -> Vec<String> {
    let mut f = Found::default();
    if !case.defines.is_empty() {
        f.add("defines");
    }
    let mut played = play_features(case, cards, &mut f);
    let board_cards = board_features(case, cards, &mut f, &mut played);
    for d in &board_cards {
        for a in &d.abilities {
            match a {
                Ability::OptionalCostsLess
                | Ability::RepeatCostsLess(_)
                | Ability::SpellsCostLess { .. }
                | Ability::ChoosersPayMore(_) => f.add("discounts"),
                Ability::SpellsHaveRepeatInShowdown(_) => f.add("grants"),
                Ability::WhenYouPlayASpell(_) | Ability::WhenChosen(_) => f.add("triggers"),
                Ability::Deflect(_) => f.add("deflect"),
                _ => {}
            }
        }
    }
    for d in &played {
        if d.discount.is_some() {
            f.add("discounts");
        }
        if !d.as_you_play.is_empty() {
            f.add("as-you-play");
        }
        if d.kind == CardKind::Ability {
            f.add("abilities");
        }
        for m in &d.modes {
            for i in &m.instructions {
                instruction_features(i)
                    .into_iter()
                    .flatten()
                    .for_each(|x| f.add(x));
            }
        }
    }
    let mut out: Vec<String> = FEATURES
        .iter()
        .filter(|x| f.0.contains(x))
        .map(|x| x.to_string())
        .collect();
    out.dedup();
    out
}

/// The card named `n` of `cards`, by name whatever its case.
fn by_name<'c>(cards: &'c [CardDef], n: &str) -> Option<&'c CardDef> {
    cards.iter().find(|c| c.name.eq_ignore_ascii_case(n))
}

/// The features the play statements use; the cards they play.
fn play_features<'c>(case: &Case, cards: &'c [CardDef], f: &mut Found) -> Vec<&'c CardDef> {
    let mut played = vec![];
    for p in &case.plays {
        match &p.stmt {
            PlayStmt::Play { card: c, .. } => {
                f.add("spells");
                played.extend(by_name(cards, c));
            }
            PlayStmt::NewChoices { .. } | PlayStmt::DeclineNewChoices { .. } => {
                f.add("new-choices")
            }
            PlayStmt::LookDraw { .. } | PlayStmt::LookRecycle { .. } => f.add("deck-cards"),
            PlayStmt::Demand { .. } => f.add("demands"),
            PlayStmt::Rune { .. } => f.add("runes"),
            PlayStmt::Close | PlayStmt::EndTurn | PlayStmt::Activate { .. } => f.add("turn"),
            _ => {}
        }
    }
    played
}

/// The features the board uses; the cards on it. An attacking unit's "when I attack" ability
/// is a card played (into `played`).
fn board_features<'c>(
    case: &Case,
    cards: &'c [CardDef],
    f: &mut Found,
    played: &mut Vec<&'c CardDef>,
) -> Vec<&'c CardDef> {
    let mut board_cards = vec![];
    for b in &case.board {
        match &b.stmt {
            BoardStmt::Unit(u) => {
                if u.owner.is_some() || u.status != model::state::UnitStatus::default() {
                    f.add("combat");
                }
                board_cards.extend(by_name(cards, &u.card));
            }
            BoardStmt::Gear { card, .. } => board_cards.extend(by_name(cards, card)),
            BoardStmt::Battlefield { card: Some(c), .. } => board_cards.extend(by_name(cards, c)),
            BoardStmt::Portal(_) => f.add("grants"),
            BoardStmt::DeckTop(..) => f.add("deck-cards"),
            BoardStmt::Runes(..) => f.add("runes"),
            BoardStmt::Turn(_) => f.add("turn"),
            BoardStmt::Showdown(Some(_)) => f.add("combat"),
            BoardStmt::Attack(label) => {
                f.add("abilities");
                f.add("triggers");
                played.extend(attack_abilities(case, cards, label));
            }
            _ => {}
        }
    }
    board_cards
}

/// The "when I attack" abilities of the unit labelled `label`.
fn attack_abilities<'c>(case: &Case, cards: &'c [CardDef], label: &str) -> Vec<&'c CardDef> {
    let unit_card = case.board.iter().find_map(|b| match &b.stmt {
        BoardStmt::Unit(u) if u.label == label => Some(&u.card),
        _ => None,
    });
    let Some(d) = unit_card.and_then(|c| by_name(cards, c)) else {
        return vec![];
    };
    d.abilities
        .iter()
        .filter_map(|a| match a {
            Ability::WhenAttacks(t) => cards.get(*t as usize),
            _ => None,
        })
        .collect()
}

/// The features an instruction of a played card uses: its effect's, and `combat` for a target
/// restricted to attacking or other units.
fn instruction_features(i: &model::card::Instruction) -> [Option<&'static str>; 3] {
    use model::card::Effect as E;
    let by_target = i
        .target
        .is_some_and(|t| t.attacking || t.other)
        .then_some("combat");
    let (by_effect, also) = match i.effect {
        E::Counter if i.target.is_some_and(|t| t.chooses.is_some()) => {
            (Some("counters"), Some("chosen-counters"))
        }
        E::Counter => (Some("counters"), None),
        E::CounterUnlessPays(_) => (Some("counters"), Some("demands")),
        E::MayPay(_) => (Some("demands"), None),
        E::LookAtTop { .. } => (Some("deck-cards"), None),
        E::NewChoices | E::GainControl => (Some("new-choices"), None),
        E::PlayToken(_) => (Some("tokens"), None),
        E::Move(_) => (Some("moves"), None),
        // `Choose` only names an object (Repulse, Marching Orders): the effect that reads it
        // says which feature the card needs.
        E::GiveAssault(_)
        | E::Stun
        | E::Ready
        | E::MightsToEachOther
        | E::GiveMightToGroup(..)
        | E::StunOrReturnToHand => (Some("combat"), None),
        _ => (None, None),
    };
    [by_effect, also, by_target]
}

/// Builds the request for a case (`dir` is the case's folder, for a rulebook file).
pub fn request(case: &Case, dir: Option<&Path>, id: u64) -> Result<CaseRequest, String> {
    let cards = rbcheck_case::replay::cards(case).map_err(|e| e.to_string())?;
    let rules = Rulebook::named(&case.rules)
        .map(Ok)
        .unwrap_or_else(|| rbcheck_case::replay::rulebook(case, dir).map_err(|e| e.to_string()))?;
    let rulebook = rulebook_json(case, dir)?;
    let game = Game::new(rules, cards.clone());
    // Every card the case names, in the order it names them, and the abilities they trigger.
    let mut names: Vec<String> = vec![];
    for d in &case.defines {
        if let Ok(t) = toml::from_str::<toml::Table>(&format!("card = {}", d.stmt)) {
            if let Some(n) = t
                .get("card")
                .and_then(|c| c.get("name"))
                .and_then(|n| n.as_str())
            {
                add_name(&mut names, n);
            }
        }
    }
    let board = board_json(case, &mut names);
    for p in &case.plays {
        if let PlayStmt::Play { card: c, .. } = &p.stmt {
            add_name(&mut names, c);
        }
    }
    triggered_names(&game, &mut names);
    let card_values = names
        .iter()
        .filter_map(|n| game.card_named(n))
        .map(|id| card_json(&game, game.card(id)))
        .collect();
    Ok(CaseRequest {
        kind: "case".into(),
        id,
        rules: case.rules.clone(),
        rulebook,
        features: case_features(case, &cards),
        cards: card_values,
        board,
        plays: case.plays.clone(),
        case_text: Some(rbcheck_case::print(case)),
    })
}

/// A rulebook file's fields as JSON (`None` for a preset).
fn rulebook_json(case: &Case, dir: Option<&Path>) -> Result<Option<Value>, String> {
    if PRESETS.contains(&case.rules.as_str()) {
        return Ok(None);
    }
    let path = dir
        .map(|d| d.join(&case.rules))
        .unwrap_or_else(|| case.rules.clone().into());
    let text =
        rbcheck_case::read::read_text(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let t: toml::Table = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(serde_json::to_value(t).map_err(|e| e.to_string())?))
}

fn add_name(names: &mut Vec<String>, n: &str) {
    if !names.iter().any(|x| x.eq_ignore_ascii_case(n)) {
        names.push(n.to_string());
    }
}

/// The board of a request; the cards it names are added to `names`.
fn board_json(case: &Case, names: &mut Vec<String>) -> Board {
    let mut board = Board {
        players: Players::default(),
        ..Board::default()
    };
    let mut max_bf = 2u8;
    let mut bfs: BTreeMap<u8, BattlefieldJson> = BTreeMap::new();
    for b in &case.board {
        match &b.stmt {
            BoardStmt::Unit(u) => {
                add_name(names, &u.card);
                if let Location::Battlefield(n) = u.loc {
                    max_bf = max_bf.max(n + 1);
                }
                board.units.push(UnitJson {
                    label: u.label.clone(),
                    card: u.card.clone(),
                    controller: player(u.controller).to_string(),
                    location: location_name(u.loc),
                    damage: u.damage,
                    owner: u.owner.map(|o| player(o).to_string()),
                    status: u.status,
                });
            }
            BoardStmt::Gear {
                label,
                card,
                controller,
            } => {
                add_name(names, card);
                board.gear.push(GearJson {
                    label: label.clone(),
                    card: card.clone(),
                    controller: player(*controller).to_string(),
                });
            }
            BoardStmt::Battlefield {
                n,
                controller,
                card,
            } => {
                if let Some(c) = card {
                    add_name(names, c);
                }
                max_bf = max_bf.max(*n);
                bfs.insert(
                    *n,
                    BattlefieldJson {
                        n: *n,
                        controller: controller.map(|p| player(p).to_string()),
                        card: card.clone(),
                    },
                );
            }
            BoardStmt::Pool(p, c) => pj(&mut board, *p).pool = c.to_string(),
            BoardStmt::Hand(p, c) => {
                add_name(names, c);
                pj(&mut board, *p).hand.push(c.clone());
            }
            BoardStmt::OtherCards(p, n) => pj(&mut board, *p).other_cards = *n,
            BoardStmt::Deck(p, n) => pj(&mut board, *p).deck = *n,
            BoardStmt::Portal(p) => pj(&mut board, *p).portal = true,
            BoardStmt::NearVictory(p) => pj(&mut board, *p).near_victory = true,
            BoardStmt::Showdown(at) => {
                board.showdown = true;
                board.showdown_battlefield = *at;
                if let Some(n) = at {
                    max_bf = max_bf.max(*n);
                }
            }
            BoardStmt::Attack(l) => board.attack = Some(l.clone()),
            // v2 only: a v1 engine is never sent such a case (`NOT_IN_V1`).
            BoardStmt::DeckTop(p, v) => {
                v.iter().for_each(|c| add_name(names, c));
                pj(&mut board, *p).deck_top = v.clone();
            }
            BoardStmt::Academy(p) => pj(&mut board, *p).academy = true,
            BoardStmt::Runes(p, r) => {
                pj(&mut board, *p).runes = Some(super::runes::RunesJson::of_setup(r))
            }
            // v2 only: a v1 engine is never sent such a case (`NOT_IN_V1`).
            BoardStmt::Turn(t) => {
                board.turn = Some(super::TurnJson {
                    plays: t.plays,
                    end_turn: t.end_turn,
                })
            }
        }
    }
    for n in 1..=max_bf {
        board
            .battlefields
            .push(bfs.remove(&n).unwrap_or(BattlefieldJson {
                n,
                controller: None,
                card: None,
            }));
    }
    board
}

/// Adds the abilities the named cards trigger or activate (and those they trigger in turn).
fn triggered_names(game: &Game, names: &mut Vec<String>) {
    let mut i = 0;
    while i < names.len() {
        if let Some(id) = game.card_named(&names[i]) {
            for a in &game.card(id).abilities.clone() {
                if let Ability::WhenYouPlayASpell(t)
                | Ability::WhenChosen(t)
                | Ability::WhenAttacks(t)
                | Ability::WhenYouPlayMe(t)
                | Ability::Activated(t) = a
                {
                    let n = game.card(*t).name.clone();
                    add_name(names, &n);
                }
            }
            // The play trigger a paid optional cost adds (383.4.a.2, Clockwork Keeper).
            for o in &game.card(id).optional_costs.clone() {
                if let Rider::PlayTrigger(t) = o.rider {
                    let n = game.card(t).name.clone();
                    add_name(names, &n);
                }
            }
        }
        i += 1;
    }
}

fn pj(b: &mut Board, p: Player) -> &mut PlayerJson {
    if p == Player::YOU {
        &mut b.players.you
    } else {
        &mut b.players.opponent
    }
}

/// The cards of a request that are not the shipped catalogue's as it is: a case's defines.
fn request_defines(req: &CaseRequest) -> Result<Vec<Line<String>>, String> {
    let builtin = Catalogue::builtin();
    let builtin_game = Game::new(
        Rulebook::named("rup4").expect("rup4"),
        builtin.cards.clone(),
    );
    let mut defines = vec![];
    for c in &req.cards {
        let name = c.get("name").and_then(|n| n.as_str()).unwrap_or("");
        let same = builtin_game
            .card_named(name)
            .map(|id| card_json(&builtin_game, builtin_game.card(id)) == *c)
            .unwrap_or(false);
        if !same {
            let t: toml::Value =
                serde_json::from_value(c.clone()).map_err(|e| format!("card `{name}`: {e}"))?;
            defines.push(Line::new(t.to_string()));
        }
    }
    Ok(defines)
}

/// The board statements a request's board stands for.
fn request_board(req: &CaseRequest) -> Result<Vec<BoardStmt>, String> {
    let pl = |s: &str| parse_player(s).ok_or_else(|| format!("`{s}`: expected you or opponent"));
    let loc = |s: &str| parse_location(s).ok_or_else(|| format!("`{s}`: not a location"));
    let mut board = vec![];
    for u in &req.board.units {
        board.push(BoardStmt::Unit(UnitStmt {
            label: u.label.clone(),
            card: u.card.clone(),
            controller: pl(&u.controller)?,
            loc: loc(&u.location)?,
            damage: u.damage,
            owner: u.owner.as_deref().map(pl).transpose()?,
            status: u.status,
        }));
    }
    for g in &req.board.gear {
        board.push(BoardStmt::Gear {
            label: g.label.clone(),
            card: g.card.clone(),
            controller: pl(&g.controller)?,
        });
    }
    for b in &req.board.battlefields {
        if b.controller.is_some() || b.card.is_some() {
            board.push(BoardStmt::Battlefield {
                n: b.n,
                controller: b.controller.as_deref().map(pl).transpose()?,
                card: b.card.clone(),
            });
        }
    }
    for (p, j) in [
        (Player::YOU, &req.board.players.you),
        (Player::OPP, &req.board.players.opponent),
    ] {
        let pool = Cost::parse(&j.pool, &[]).map_err(|e| format!("pool `{}`: {e}", j.pool))?;
        if !pool.is_zero() {
            board.push(BoardStmt::Pool(p, pool));
        }
        for h in &j.hand {
            board.push(BoardStmt::Hand(p, h.clone()));
        }
        if j.other_cards > 0 {
            board.push(BoardStmt::OtherCards(p, j.other_cards));
        }
        if j.deck != 10 {
            board.push(BoardStmt::Deck(p, j.deck));
        }
        if j.portal {
            board.push(BoardStmt::Portal(p));
        }
        if j.near_victory {
            board.push(BoardStmt::NearVictory(p));
        }
        if j.academy {
            board.push(BoardStmt::Academy(p));
        }
        if !j.deck_top.is_empty() {
            board.push(BoardStmt::DeckTop(p, j.deck_top.clone()));
        }
        if let Some(r) = &j.runes {
            board.push(BoardStmt::Runes(p, r.to_setup()?));
        }
    }
    if req.board.showdown || req.board.showdown_battlefield.is_some() {
        board.push(BoardStmt::Showdown(req.board.showdown_battlefield));
    }
    if let Some(a) = &req.board.attack {
        board.push(BoardStmt::Attack(a.clone()));
    }
    if let Some(t) = req.board.turn {
        board.push(BoardStmt::Turn(model::setup::TurnSetup {
            plays: t.plays,
            end_turn: t.end_turn,
        }));
    }
    Ok(board)
}

/// Rebuilds a case from a request's structured fields (for engines, such as the model, that
/// read the case file: when `case_text` is absent).
pub fn case_from_request(req: &CaseRequest) -> Result<Case, String> {
    let defines = request_defines(req)?;
    let board = request_board(req)?;
    // Line numbers are the printer's, below.
    let plays = req
        .plays
        .iter()
        .map(|p| Line::new(p.stmt.clone()))
        .collect();
    let case = Case {
        version: rbcheck_case::parse::VERSION,
        header: vec![],
        rules: req.rules.clone(),
        defines,
        board: board.into_iter().map(Line::new).collect(),
        plays,
        checkpoints: vec![],
        expects: vec![],
    };
    // Number the lines as the printer lays them out.
    let parsed = rbcheck_case::parse(&rbcheck_case::print(&case)).map_err(|e| e.to_string())?;
    // A string field holding a line break or a quote (a label `"P\nyou pass"`) would print as
    // more or other statements than were sent, and answers would name the wrong play: refused.
    let stmts = |c: &Case| c.plays.iter().map(|p| p.stmt.clone()).collect::<Vec<_>>();
    let boards = |c: &Case| c.board.iter().map(|b| b.stmt.clone()).collect::<Vec<_>>();
    if stmts(&parsed) != stmts(&case) || boards(&parsed) != boards(&case) {
        return Err(
            "a bad case request: a label, card name or other string field is not one word of a case file (it holds a line break, a quote or a space), so the plays or the board read back differently"
                .into(),
        );
    }
    Ok(parsed)
}
