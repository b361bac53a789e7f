//! The directed tail's `held` area: what a player holds. Your own "enemy" counter
//! told to counter your own spell (425), and named cards drawn into hand, which the protocol v2
//! result field `players.P.hand` reports (359.3.e).

use model::state::Player;
use rbcheck::case::ast::{Expect, ObjRef, PlayStmt};
use rbcheck::engine::fuzz::{recipe_for, Checker, Verdict, DEFAULT_CASES};
use rbcheck::engine::gen::{self, tail::held::DECK, Focus};
use rbcheck::engine::observe::model_observation;
use rbcheck::engine::protocol::request;
use rbcheck::engine::{compare, ProcessEngine};
use std::path::PathBuf;
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn engine(script: &str, args: &str) -> ProcessEngine {
    let cmd = format!(
        "python3 {} {args}",
        root().join("tests/engines").join(script).display()
    );
    ProcessEngine::new(&cmd, Duration::from_secs(20)).unwrap()
}

/// The case index of the default budget whose stratum is `f`.
fn case_of(f: Focus) -> u64 {
    (0..DEFAULT_CASES as u64)
        .find(|i| gen::focus_of(*i) == f)
        .expect("the stratum is in the default budget")
}

/// The generated case of `seed` at stratum `f`, under RUP4 (the reference engine's rules).
fn case_at(seed: u64, f: Focus) -> rbcheck::case::ast::Case {
    let rules = vec!["rup4".to_string()];
    gen::generate(&recipe_for(seed, case_of(f)), &rules, vec![]).expect("the stratum makes a case")
}

/// Held(0), at every seed of a range: you play your spell, then your Not So Fast, whose target
/// is said to be your spell (item 1); the model refuses that statement (no enemy spell chooses
/// a friendly unit: 425, the play undone for want of a legal choice, 355.8).
#[test]
fn your_counter_is_told_to_counter_your_own_spell() {
    for seed in 0..40 {
        let case = case_at(seed, Focus::Held(0));
        let mine: Vec<&str> = case
            .plays
            .iter()
            .filter_map(|p| match &p.stmt {
                PlayStmt::Play {
                    player: Player::YOU,
                    card,
                } => Some(card.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(mine.len(), 2, "seed {seed}: {mine:?}");
        assert_eq!(mine[1], "Not So Fast", "seed {seed}");
        let told = case.plays.iter().position(|p| {
            matches!(
                p.stmt,
                PlayStmt::Target {
                    exec: 1,
                    obj: ObjRef::Item(1),
                    ..
                }
            )
        });
        let told = told.unwrap_or_else(|| panic!("seed {seed}: no target naming item 1"));
        let refused = case.expects.iter().find_map(|e| match &e.stmt {
            Expect::Illegal { line, rule } => Some((*line, rule.clone())),
            _ => None,
        });
        assert_eq!(
            refused,
            Some((case.plays[told].line, Some("355.8".to_string()))),
            "seed {seed}: the model refuses the injected target"
        );
    }
}

/// Held(1), at every seed of a range: three or four distinct named cards on your deck's top,
/// more cards in the deck than are drawn, and the model's result names the top cards drawn in
/// your hand (so a draw from the bottom would name others, or none).
#[test]
fn named_cards_are_drawn_from_the_top_into_hand() {
    for seed in 0..40 {
        let case = case_at(seed, Focus::Held(1));
        let o = model_observation(&case, None).unwrap();
        let you = &o.players.as_ref().unwrap()["you"];
        let hand = you
            .hand
            .clone()
            .expect("the model states the named cards in hand");
        let drawn: Vec<&str> = DECK
            .iter()
            .copied()
            .filter(|c| hand.iter().any(|h| h == c))
            .collect();
        assert!(
            !drawn.is_empty(),
            "seed {seed}: nothing named drawn: {hand:?}"
        );
        assert_eq!(
            drawn,
            DECK[..drawn.len()],
            "seed {seed}: drawn from the top"
        );
        assert!(
            you.deck.unwrap() >= 1,
            "seed {seed}: the deck keeps a card a bottom draw would take instead"
        );
    }
}

/// The two mutants the area is about are killed on its cases at seeds 0 and 1, each for what
/// it breaks (a legality difference on the injected target; the named cards in hand), and the
/// clean reference engine agrees with the model there.
#[test]
fn the_held_mutants_die_on_their_strata_at_seeds_0_and_1() {
    for (f, mutant, kind) in [
        (
            Focus::Held(0),
            "counter-side-ignored",
            "legality: engine accepts a `target`",
        ),
        (Focus::Held(1), "draw-from-bottom", "hand: engine "),
    ] {
        for seed in [0, 1] {
            let r = recipe_for(seed, case_of(f));
            let mut clean = engine("reference_engine.py", "");
            let v = Checker::new(&mut clean).unwrap().check(&r);
            assert!(matches!(v, Verdict::Agree), "{f:?} seed {seed}: {v:?}");
            let mut wrong = engine("reference_engine.py", &format!("--mutant {mutant}"));
            match Checker::new(&mut wrong).unwrap().check(&r) {
                Verdict::Disagree(d) => {
                    assert!(d[0].kind.starts_with(kind), "{mutant} seed {seed}: {d:?}")
                }
                v => panic!("{mutant} seed {seed}: {v:?}"),
            }
        }
    }
}

/// `players.P.hand` is compared as a multiset of names: another card is a difference of its
/// own kind traced to 359.3.e, another order is none, and an engine leaving it out is not
/// compared on it.
#[test]
fn the_named_cards_in_hand_are_compared() {
    let case = case_at(0, Focus::Held(1));
    let req = request(&case, None, 1).unwrap();
    let model = model_observation(&case, None).unwrap();
    let with_hand = |hand: Option<Vec<String>>| {
        let mut o = model.clone();
        o.players.as_mut().unwrap().get_mut("you").unwrap().hand = hand;
        o
    };
    let hand = model.players.as_ref().unwrap()["you"].hand.clone().unwrap();
    assert!(hand.len() >= 2, "{hand:?}");
    let mut reversed = hand.clone();
    reversed.reverse();
    assert!(compare(&req, &model, &with_hand(Some(reversed)))
        .differences
        .is_empty());
    let c = compare(&req, &model, &with_hand(None));
    assert!(c.differences.is_empty() && c.not_reported.contains("hand"));
    let mut other = hand.clone();
    *other.last_mut().unwrap() = "Defy".into();
    let c = compare(&req, &model, &with_hand(Some(other)));
    assert_eq!(c.kind(), Some("hand: engine different cards"));
    assert_eq!(
        (c.differences[0].rule.as_str(), c.differences.len()),
        ("359.3.e", 1)
    );
    let c = compare(&req, &model, &with_hand(Some(hand[..1].to_vec())));
    assert_eq!(c.kind(), Some("hand: engine fewer named cards"));
}

/// An engine wrong in `players.P.hand` alone (the fake engine's `--fail wrong-hand`) is caught on
/// the default budget's first cases, and nothing else is found; a v1 engine, which has no such
/// field, is not compared on it.
#[test]
fn an_engine_wrong_in_the_named_cards_in_hand_is_caught() {
    let cfg = rbcheck::engine::fuzz::FuzzConfig {
        cases: Some(80),
        ..Default::default()
    };
    let mut e = engine("fake_engine.py", "--fail wrong-hand");
    let r = rbcheck::engine::fuzz::fuzz(&mut e, &cfg);
    let symptoms: Vec<&String> = r.findings.iter().flat_map(|f| f.symptoms.keys()).collect();
    assert!(!symptoms.is_empty(), "no finding");
    assert!(
        symptoms.iter().all(|s| s.starts_with("hand: engine ")),
        "{symptoms:?}"
    );
    let mut e = engine("fake_engine.py", "--fail v1");
    let r = rbcheck::engine::fuzz::fuzz(&mut e, &cfg);
    assert!(r.findings.is_empty(), "{:?}", r.findings.len());
}
