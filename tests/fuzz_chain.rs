//! The directed tail's `chain` area: what may go on the chain and what an undone play
//! leaves. An [Action] card or a Defy without a legal choice said to be played on the open chain
//! (358.4, 355.8), undone plays (358.5) that chose a Watchful Sentry or were one of a turn's
//! plays (335), and Syndra's showdown grant (820.1.b).

use model::state::Player;
use rbcheck::case::ast::{BoardStmt, Case, Expect, ObjRef, PlayStmt};
use rbcheck::engine::fuzz::{recipe_for, Checker, Verdict, DEFAULT_CASES};
use rbcheck::engine::gen::{self, Focus};
use rbcheck::engine::ProcessEngine;
use std::path::PathBuf;
use std::time::Duration;

fn engine(args: &str) -> ProcessEngine {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/reference_engine.py");
    ProcessEngine::new(
        &format!("python3 {} {args}", script.display()),
        Duration::from_secs(20),
    )
    .unwrap()
}

/// The case index of the default budget whose stratum is `f`.
fn case_of(f: Focus) -> u64 {
    (0..DEFAULT_CASES as u64)
        .find(|i| gen::focus_of(*i) == f)
        .expect("the stratum is in the default budget")
}

/// The generated case of `seed` at stratum `f`, under RUP4 (the reference engine's rules).
fn case_at(seed: u64, f: Focus) -> Case {
    let rules = vec!["rup4".to_string()];
    gen::generate(&recipe_for(seed, case_of(f)), &rules, vec![]).expect("the stratum makes a case")
}

/// The model's refusal (line, rule), if the case is illegal.
fn refused(case: &Case) -> Option<(usize, Option<String>)> {
    case.expects.iter().find_map(|e| match &e.stmt {
        Expect::Illegal { line, rule } => Some((*line, rule.clone())),
        _ => None,
    })
}

/// The cards each player plays, in order.
fn plays(case: &Case, who: Player) -> Vec<&str> {
    case.plays
        .iter()
        .filter_map(|p| match &p.stmt {
            PlayStmt::Play { player, card } if *player == who => Some(card.as_str()),
            _ => None,
        })
        .collect()
}

/// An expectation of the case, by a predicate.
fn expects(case: &Case, f: impl Fn(&Expect) -> bool) -> bool {
    case.expects.iter().any(|e| f(&e.stmt))
}

/// Chain(0) and Chain(1), over seeds 0..24: the case plays a card on the open chain that may
/// not go there, and the model refuses that very statement: your [Action] card's play (358.4),
/// the opponent's Defy's target, your spell costing two Power (355.8).
#[test]
fn a_card_that_may_not_go_on_the_chain_is_said_to_be_played_there() {
    for seed in 0..24 {
        let case = case_at(seed, Focus::Chain(0));
        let mine = plays(&case, Player::YOU);
        // The injected play, and the same card played again once the chain closed.
        assert!(mine.len() >= 2, "seed {seed}: {mine:?}");
        assert!(
            ["Hidden Blade", "Find Your Center", "Void Seeker"].contains(&mine[1]),
            "seed {seed}: {mine:?}"
        );
        let second = case
            .plays
            .iter()
            .filter(|p| matches!(p.stmt, PlayStmt::Play { .. }))
            .nth(1)
            .unwrap();
        assert_eq!(
            refused(&case),
            Some((second.line, Some("358.4".to_string()))),
            "seed {seed}"
        );

        let case = case_at(seed, Focus::Chain(1));
        assert_eq!(plays(&case, Player::OPP), ["Defy"], "seed {seed}");
        let told = case
            .plays
            .iter()
            .find(|p| {
                matches!(
                    p.stmt,
                    PlayStmt::Target {
                        obj: ObjRef::Item(1),
                        ..
                    }
                )
            })
            .unwrap_or_else(|| panic!("seed {seed}: Defy aimed at item 1"));
        assert_eq!(
            refused(&case),
            Some((told.line, Some("355.8".to_string()))),
            "seed {seed}"
        );
    }
}

/// Chain(2) and Chain(3), over seeds 0..24: a play is undone (358.5) and the turn goes on. In
/// Chain(2) the undone Void Seeker chose the opponent's Watchful Sentry, whose hand is left as
/// it was (no draw: 383.4.b.2); in Chain(3) two plays follow the undone one in a turn of two.
#[test]
fn undone_plays_leave_no_trigger_and_no_turn_play_used() {
    for seed in 0..24 {
        let case = case_at(seed, Focus::Chain(2));
        assert!(refused(&case).is_none(), "seed {seed}");
        assert_eq!(
            plays(&case, Player::YOU),
            ["Void Seeker", "Find Your Center"],
            "seed {seed}"
        );
        let chose_sentry = case.plays.iter().any(|p| {
            matches!(&p.stmt, PlayStmt::Target { exec: 1, obj: ObjRef::Label(l), .. } if l == "u1")
        });
        assert!(chose_sentry, "seed {seed}: the Sentry chosen");
        assert!(
            expects(&case, |e| matches!(e, Expect::Cancelled(1, _))),
            "seed {seed}: item 1 undone"
        );
        assert!(
            expects(&case, |e| matches!(e, Expect::HandSize(Player::OPP, 1))),
            "seed {seed}: the opponent drew nothing"
        );

        let case = case_at(seed, Focus::Chain(3));
        assert!(refused(&case).is_none(), "seed {seed}");
        let mine = plays(&case, Player::YOU);
        assert_eq!(mine.len(), 3, "seed {seed}: {mine:?}");
        assert_eq!(mine[0], "Void Seeker", "seed {seed}");
        assert!(
            expects(&case, |e| matches!(e, Expect::Cancelled(1, _))),
            "seed {seed}: item 1 undone"
        );
    }
}

/// Chain(4) and Chain(5), over seeds 0..24: a showdown at battlefield 1 and your Syndra. Away
/// from it (in your base), she gives your spell no [Repeat]; at it, she gives your spell hers
/// and the opponent's reaction, played on it, only its printed one (820.1.b).
#[test]
fn syndra_grants_only_her_controller_in_her_showdown() {
    let rulebook = || model::rulebook::Rulebook::named("rup4").unwrap();
    for seed in 0..24 {
        for (f, home) in [
            (Focus::Chain(4), "base"),
            (Focus::Chain(5), "battlefield 1"),
        ] {
            let case = case_at(seed, f);
            assert!(refused(&case).is_none(), "{f:?} seed {seed}");
            assert!(
                case.board
                    .iter()
                    .any(|b| matches!(b.stmt, BoardStmt::Showdown(Some(1)))),
                "{f:?} seed {seed}: the showdown at battlefield 1"
            );
            let r = recipe_for(seed, case_of(f));
            let (game, setup) = gen::scenario(&r, rulebook()).unwrap();
            let syndra = game.card_named("Syndra, Transcendent").unwrap();
            let at = setup
                .units
                .iter()
                .find(|u| u.card == syndra && u.controller == Player::YOU)
                .map(|u| u.loc);
            let want = if home == "base" {
                model::state::Location::Base(Player::YOU)
            } else {
                model::state::Location::Battlefield(0)
            };
            assert_eq!(at, Some(want), "{f:?} seed {seed}");
            // Each played card's [Repeat] decisions (the lines after its play, before the next
            // play): its printed instances, and Syndra's for your spell at her showdown only.
            let mut decided: Vec<(Player, String, usize)> = vec![];
            for p in &case.plays {
                match &p.stmt {
                    PlayStmt::Play { player, card } => decided.push((*player, card.clone(), 0)),
                    PlayStmt::Repeat { .. } => {
                        if let Some(last) = decided.last_mut() {
                            last.2 += 1;
                        }
                    }
                    _ => {}
                }
            }
            for (who, card, n) in &decided {
                let printed = game.card(game.card_named(card).unwrap()).repeat.len();
                let syndra = usize::from(*who == Player::YOU && home != "base");
                assert_eq!(*n, printed + syndra, "{f:?} seed {seed}: {card}");
            }
            if home != "base" {
                assert!(
                    decided.iter().any(|d| d.0 == Player::OPP),
                    "{f:?} seed {seed}: the opponent's reaction played"
                );
            }
        }
    }
}

/// Each of the area's six mutants is killed on its stratum at seeds 0 and 1, for what it
/// breaks, and the clean reference engine agrees with the model there.
#[test]
fn the_chain_mutants_die_on_their_strata_at_seeds_0_and_1() {
    // The Syndra mutants' extra [Repeat] instance shows as a statement refused while the engine
    // waits for that instance's decision (820.1.c.2).
    for (k, mutant, kind, says) in [
        (
            0,
            "action-on-chain",
            "legality: engine accepts a statement",
            "line",
        ),
        (
            1,
            "counter-power-limit-ignored",
            "legality: engine accepts a `target`",
            "",
        ),
        (
            2,
            "when-chosen-on-undo",
            "legality: engine refuses a legal `play`",
            "line",
        ),
        (
            3,
            "undo-uses-turn-play",
            "legality: engine refuses a legal `play`",
            "line",
        ),
        (
            4,
            "syndra-anywhere",
            "legality: engine refuses a legal",
            "820.1.c.2",
        ),
        (
            5,
            "syndra-grants-opponent",
            "legality: engine refuses a legal",
            "820.1.c.2",
        ),
    ] {
        let f = Focus::Chain(k);
        for seed in [0, 1] {
            let r = recipe_for(seed, case_of(f));
            let mut clean = engine("");
            let v = Checker::new(&mut clean).unwrap().check(&r);
            assert!(matches!(v, Verdict::Agree), "{f:?} seed {seed}: {v:?}");
            let mut wrong = engine(&format!("--mutant {mutant}"));
            match Checker::new(&mut wrong).unwrap().check(&r) {
                Verdict::Disagree(d) => {
                    assert!(
                        d[0].kind.starts_with(kind) && d[0].engine.contains(says),
                        "{mutant} seed {seed}: {d:?}"
                    )
                }
                v => panic!("{mutant} seed {seed}: {v:?}"),
            }
        }
    }
}
