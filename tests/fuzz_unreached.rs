//! The `unreached` tail area: each of its strata makes, at every seed, the situation
//! a mistake shows in that no cycled case made (read from the generated case, whose
//! expectations are the model's).

use model::catalogue::Catalogue;
use model::state::Player;
use rbcheck::case::ast::{BoardStmt, Case, Expect, ObjRef, PlayStmt};
use rbcheck::engine::fuzz::{recipe_for, DEFAULT_CASES};
use rbcheck::engine::gen::{self, Focus};

/// The seeds every stratum is checked at (the budget's are 0 and 1).
const SEEDS: std::ops::Range<u64> = 0..40;

/// The case index of the area's stratum `k` in the default budget.
fn case_of(k: u8) -> u64 {
    (0..DEFAULT_CASES as u64)
        .find(|i| gen::strata::focus_of(*i) == Focus::Unreached(k))
        .expect("the stratum is in the default budget")
}

/// The case stratum `k` generates at `seed` (rup4, the reference engine's rules), and its
/// recipe's injected kind.
fn generated(k: u8, seed: u64) -> (Case, u8) {
    let r = recipe_for(seed, case_of(k));
    let case = gen::generate(&r, &["rup4".to_string()], vec![])
        .unwrap_or_else(|e| panic!("stratum {k}, seed {seed}: {e}"));
    (case, r.inject)
}

fn illegal_rule(c: &Case) -> Option<String> {
    c.expects.iter().find_map(|e| match &e.stmt {
        Expect::Illegal { rule, .. } => rule.clone(),
        _ => None,
    })
}

fn legal(c: &Case) -> bool {
    c.expects.iter().any(|e| e.stmt == Expect::Legal)
}

/// The plays of cards by you, in order, with their statement index.
fn your_plays(c: &Case) -> Vec<(usize, String)> {
    c.plays
        .iter()
        .enumerate()
        .filter_map(|(k, p)| match &p.stmt {
            PlayStmt::Play { player, card } if *player == Player::YOU => Some((k, card.clone())),
            _ => None,
        })
        .collect()
}

/// The highest [Repeat] instance decided between statements `from` and `to`.
fn last_instance(c: &Case, from: usize, to: usize) -> u8 {
    c.plays[from..to]
        .iter()
        .filter_map(|p| match p.stmt {
            PlayStmt::Repeat { instance, .. } => Some(instance),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

fn printed_repeats(name: &str) -> u8 {
    Catalogue::builtin()
        .cards
        .iter()
        .find(|c| c.name == name)
        .map_or(0, |c| c.repeat.len() as u8)
}

#[test]
fn piercing_light_gets_other_given_the_first_instructions_unit() {
    // 355.8: "up to one other unit" may not be the unit the previous instruction chose; the
    // injected kind 14 gives it exactly that unit, and the model refuses it for that rule.
    for seed in SEEDS {
        let (c, inject) = generated(0, seed);
        assert_eq!(inject, 14, "seed {seed}");
        assert_eq!(your_plays(&c)[0].1, "Piercing Light", "seed {seed}");
        assert_eq!(illegal_rule(&c).as_deref(), Some("355.8"), "seed {seed}");
        let targets: Vec<(u8, u8, &ObjRef)> = c
            .plays
            .iter()
            .filter_map(|p| match &p.stmt {
                PlayStmt::Target {
                    exec,
                    instruction,
                    obj,
                } => Some((*exec, *instruction, obj)),
                _ => None,
            })
            .collect();
        let again = targets
            .iter()
            .any(|(e, i, o)| *i == 2 && targets.contains(&(*e, 1, *o)));
        assert!(again, "seed {seed}: no other target given the first one");
    }
}

#[test]
fn a_new_choice_breaks_the_targets_restriction() {
    // 753.1: the opponent's Mystic Reversal remakes a choice with a unit that is not an enemy
    // of theirs and that the execution never chose (751.1 does not bar it).
    for seed in SEEDS {
        let (c, inject) = generated(1, seed);
        assert_eq!(inject, 15, "seed {seed}");
        assert!(
            c.plays
                .iter()
                .any(|p| matches!(p.stmt, PlayStmt::NewChoices { .. })),
            "seed {seed}: no new choices"
        );
        assert_eq!(illegal_rule(&c).as_deref(), Some("753.1"), "seed {seed}");
    }
}

#[test]
fn your_spell_is_played_while_the_opponents_portal_grant_waits() {
    // SFD-078: the opponent's grant is for the next spell *they* play; your spell gets only
    // its printed [Repeat] instances.
    for seed in SEEDS {
        let (c, _) = generated(2, seed);
        let portal = |p: Player| c.board.iter().any(|b| b.stmt == BoardStmt::Portal(p));
        assert!(portal(Player::OPP) && !portal(Player::YOU), "seed {seed}");
        assert!(legal(&c), "seed {seed}");
        let (first, name) = &your_plays(&c)[0];
        // Your spell's statements end where the next card is played (the opponent's may take
        // their own grant).
        let end = (first + 1..c.plays.len())
            .find(|k| matches!(c.plays[*k].stmt, PlayStmt::Play { .. }))
            .unwrap_or(c.plays.len());
        assert!(
            last_instance(&c, *first, end) <= printed_repeats(name),
            "seed {seed}: your {name} took the opponent's grant"
        );
    }
}

#[test]
fn a_unit_played_first_leaves_the_portal_grant_to_the_spell() {
    // SFD-078: the Portal gives the next *spell* [Repeat]; the unit played before it does not
    // use the grant up, so the spell's instances are its printed ones and the granted one.
    for seed in SEEDS {
        let (c, _) = generated(3, seed);
        assert!(c
            .board
            .iter()
            .any(|b| b.stmt == BoardStmt::Portal(Player::YOU)));
        assert!(legal(&c), "seed {seed}");
        let plays = your_plays(&c);
        assert!(
            ["Legion Rearguard", "Clockwork Keeper"].contains(&plays[0].1.as_str()),
            "seed {seed}: {plays:?}"
        );
        let (k, name) = &plays[1];
        let end = plays.get(2).map_or(c.plays.len(), |p| p.0);
        assert_eq!(
            last_instance(&c, *k, end),
            printed_repeats(name) + 1,
            "seed {seed}: {name} has no granted instance"
        );
    }
}

#[test]
fn a_reaction_on_your_chain_leaves_the_turns_second_play() {
    // 335: a [Reaction] you add to your own chain is a response, not one of the turn's plays;
    // the third spell is the turn's second play, from the open state.
    for seed in SEEDS {
        let (c, _) = generated(4, seed);
        assert!(legal(&c), "seed {seed}");
        let plays = your_plays(&c);
        assert_eq!(plays.len(), 3, "seed {seed}: {plays:?}");
        let closed = |a: usize, b: usize| {
            c.plays[a..b]
                .iter()
                .any(|p| matches!(p.stmt, PlayStmt::Close))
        };
        assert!(!closed(plays[0].0, plays[1].0), "seed {seed}: no reaction");
        assert!(
            closed(plays[1].0, plays[2].0),
            "seed {seed}: not the open state"
        );
    }
}
