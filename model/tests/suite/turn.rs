//! A turn, not a single play. Several plays by the turn player, each a full play whose
//! chain closes before the next begins (335, 340.2), reactions by both players, the grant "the
//! next spell you play this turn" used by exactly one spell and given back by an undone play
//! (358.5), and the end of the turn (334.1) ending "this turn" effects.

use super::common;
use common::*;
use model::action::Action;
use model::setup::TurnSetup;
use model::state::*;
use model::Game;

/// A turn of `plays` plays with these cards in your hand, a pool of 12 Energy, a 4-Might unit of
/// yours, and the opponent holding `opp` with 6 Energy.
fn turn(g: &Game, hand: &[&str], plays: u8, opp: &[&str]) -> Scn {
    let mut scn =
        Scn::new(g, hand[0], pool(12, &[])).unit(g, "Sturdy Dummy", YOU, Location::Base(YOU));
    for c in &hand[1..] {
        scn.setup.players[0].hand.push(id(g, c));
    }
    for c in opp {
        scn = scn.opp_hand(g, c, pool(6, &[]));
    }
    scn.setup.turn = TurnSetup {
        plays,
        end_turn: false,
    };
    scn
}

/// Plays `script`, taking a lone enabled action by itself (as `common::play`) unless it is
/// `EndTurn`, which the test takes itself.
fn steps(g: &Game, mut s: State, script: &[Action]) -> State {
    let mut script = script.iter().peekable();
    loop {
        let acts = enabled(g, &s);
        let next = match script.peek() {
            Some(a) if acts.contains(a) => *script.next().unwrap(),
            _ if acts.len() == 1 && acts[0] != Action::EndTurn => acts[0],
            Some(a) => panic!("{a:?} is not enabled: {acts:?}\nlog: {:#?}", s.log),
            None => return s,
        };
        s = g.step(&s, &next);
    }
}

fn play_card(hand: u8) -> Action {
    Action::MoveToChain { player: YOU, hand }
}

fn opp_plays(hand: u8) -> Action {
    Action::MoveToChain { player: OPP, hand }
}

/// The instances each played item got, by item id.
fn instances(s: &State, item: u8) -> usize {
    count(
        s,
        |e| matches!(e, Event::RepeatDeclared { item: i, .. } if *i == item),
    )
}

/// 335, 340.2: after the first play's chain closes, the turn player holds priority in the open
/// state and may play again or end the turn; each player responds with a reaction; the second
/// play is a full play of its own; the end of the turn (334.1) ends the Might given this turn.
#[test]
fn two_plays_with_both_players_responding_then_the_turn_ends() {
    let g = game(model::Version::Rup4);
    let scn = turn(
        &g,
        &["Feral Strength", "Feral Strength", "Frigid Touch"],
        2,
        &["Frigid Touch"],
    );
    let unit = Obj::Unit(0);
    let s = steps(
        &g,
        scn.state(&g),
        &[
            play_card(0),
            rep(0, false),
            tgt(0, 0, unit),
            pay(),
            Action::Pass,
            // The opponent responds with their reaction ...
            opp_plays(0),
            rep(0, false),
            tgt(0, 0, unit),
            pay(),
            // ... and you respond to their reaction (your reaction to their reaction).
            play_card(0),
            rep(0, false),
            tgt(0, 0, unit),
            pay(),
            Action::Pass,
            Action::Pass,
            Action::Pass,
            Action::Pass,
            Action::Pass,
            Action::Pass,
        ],
    );
    assert!(
        !s.is_over(),
        "the turn goes on after the first chain closes"
    );
    assert_eq!(s.priority, Some(YOU), "335: the turn player has priority");
    let acts = enabled(&g, &s);
    assert!(acts.contains(&Action::EndTurn));
    assert!(acts.contains(&play_card(0)), "a second play: {acts:?}");
    assert!(
        !acts.contains(&Action::Pass),
        "no passing in the open state"
    );
    // +2 -2 +2 so far.
    assert_eq!(s.units[0].might_mod, 2);
    let s = steps(
        &g,
        s,
        &[
            play_card(0),
            rep(0, false),
            tgt(0, 0, unit),
            pay(),
            Action::Pass,
            Action::Pass,
        ],
    );
    assert_eq!(s.units[0].might_mod, 0, "+2 -2 +2, then -2");
    assert_eq!(
        enabled(&g, &s),
        vec![Action::EndTurn],
        "two plays made: only the end of the turn is left"
    );
    assert_eq!(
        count(&s, |e| matches!(e, Event::Played { by, .. } if *by == YOU)),
        3
    );
    assert_eq!(count(&s, |e| matches!(e, Event::ChainClosed)), 2);
    assert_eq!(s.players[0].finalized_this_turn, 3);
    let s = g.next_state(&s, &Action::EndTurn).unwrap();
    assert!(s.is_over());
    assert!(enabled(&g, &s).is_empty());
    assert_eq!(
        s.players[0].finalized_this_turn, 0,
        "419.4.b counts this turn"
    );
}

/// "The next spell you play this turn": Temporal Portal's grant goes to the first spell only.
#[test]
fn the_portal_grant_is_used_by_the_first_spell_only() {
    let g = game(model::Version::Rup4);
    let scn = turn(&g, &["Feral Strength", "Frigid Touch"], 2, &[]).portal();
    let unit = Obj::Unit(0);
    let s = steps(
        &g,
        scn.state(&g),
        &[
            play_card(0),
            rep(0, false),
            rep(1, true),
            tgt(0, 0, unit),
            tgt(1, 0, unit),
            pay(),
            Action::Pass,
            Action::Pass,
            play_card(0),
            rep(0, false),
            tgt(0, 0, unit),
            pay(),
            Action::Pass,
            Action::Pass,
        ],
    );
    assert_eq!(instances(&s, 0), 2, "printed + the Portal's");
    assert_eq!(instances(&s, 1), 1, "printed only: the grant was used");
    assert_eq!(s.players[0].portal_grants, 0);
    assert_eq!(s.units[0].might_mod, 2, "+2 twice, -2 once");
    assert_eq!(enabled(&g, &s), vec![Action::EndTurn]);
}

/// 358.5: an undone play gives the grant back, and the next spell uses it; the undone play is
/// not one of the turn's plays.
#[test]
fn an_undone_play_gives_the_grant_back_to_the_next_spell() {
    let g = game(model::Version::Rup4);
    let mut scn = turn(&g, &["Desert's Call", "Frigid Touch"], 2, &[]).portal();
    scn.setup.players[0].pool = pool(4, &[]);
    let s = steps(
        &g,
        scn.state(&g),
        // Desert's Call with both instances paid costs 6: it cannot be paid and is undone.
        &[play_card(0), rep(0, true), rep(1, true)],
    );
    assert_eq!(count(&s, |e| matches!(e, Event::PlayCancelled { .. })), 1);
    assert_eq!(s.players[0].portal_grants, 1, "the grant is given back");
    assert_eq!(s.turn.plays_left, 2, "an undone play is not a play");
    // Frigid Touch is now card 0 (Desert's Call went back to the end of the hand).
    assert_eq!(s.players[0].hand[0], id(&g, "Frigid Touch"));
    let s = steps(
        &g,
        s,
        &[
            play_card(0),
            rep(0, false),
            rep(1, false),
            tgt(0, 0, Obj::Unit(0)),
            pay(),
            Action::Pass,
            Action::Pass,
        ],
    );
    assert_eq!(instances(&s, 1), 2, "printed + the Portal's, given back");
    assert_eq!(s.players[0].portal_grants, 0);
}

/// 334.1: ending the turn ends an unused grant and the Might given this turn; a single-play
/// scenario (the default) is over when its chain closes, with no end of turn.
#[test]
fn the_end_of_the_turn_ends_this_turn_effects() {
    let g = game(model::Version::Rup4);
    let mut scn = turn(&g, &["Feral Strength"], 1, &[]);
    scn.setup.players[0].academy_charged = true;
    scn.setup.turn.end_turn = true;
    let script = [
        play_card(0),
        rep(0, false),
        rep(1, false),
        tgt(0, 0, Obj::Unit(0)),
        pay(),
        Action::Pass,
        Action::Pass,
    ];
    let s = steps(&g, scn.state(&g), &script);
    assert_eq!(s.units[0].might_mod, 2);
    assert_eq!(enabled(&g, &s), vec![Action::EndTurn]);
    let s = g.next_state(&s, &Action::EndTurn).unwrap();
    assert_eq!(s.units[0].might_mod, 0, "the +2 was for this turn");
    assert_eq!(s.units[0].current_might(), 4);
    assert!(s.is_over());

    // The same play in the default single-play scenario: over when the chain closes.
    let mut one = turn(&g, &["Feral Strength"], 1, &[]);
    one.setup.players[0].academy_charged = true;
    let s = steps(&g, one.state(&g), &script);
    assert!(s.is_over());
    assert!(enabled(&g, &s).is_empty());
    assert_eq!(s.units[0].might_mod, 2);
}

/// A turn of several plays in a showdown would need focus passing (340.2.a), which the model
/// lacks: refused, not explored wrongly; and the number of plays has a range.
#[test]
fn unsupported_turns_are_refused() {
    let g = game(model::Version::Rup4);
    let mut scn = turn(&g, &["Feral Strength"], 2, &[]);
    scn.setup.showdown = true;
    let e = g.initial_state(&scn.setup).unwrap_err();
    assert!(e.contains("focus"), "{e}");
    for plays in [0, model::setup::MAX_PLAYS + 1] {
        let mut scn = turn(&g, &["Feral Strength"], 2, &[]);
        scn.setup.turn.plays = plays;
        let e = g.initial_state(&scn.setup).unwrap_err();
        assert!(e.contains("plays in the turn"), "{e}");
    }
}

fn activate_portal() -> Action {
    Action::ActivateAbility { gear: 0 }
}

/// 401, 145.2, SFD-078: the turn player activates Temporal Portal in the open state: the ability
/// goes on the chain, [A] is paid with Power and [E] exhausts the Portal (357.2); both players
/// pass and it resolves, giving the grant; the next spell takes it, the one after does not, and
/// an exhausted Portal cannot be activated again.
#[test]
fn an_activated_portal_gives_repeat_to_the_next_spell_only() {
    let g = game(model::Version::Rup4);
    let mut scn =
        turn(&g, &["Feral Strength", "Frigid Touch"], 2, &[]).gear(&g, "Temporal Portal", YOU);
    scn.setup.players[0].pool = pool(12, &[(model::cost::Domain::Mind, 1)]);
    let s0 = scn.state(&g);
    assert!(enabled(&g, &s0).contains(&activate_portal()));
    let s = steps(&g, s0, &[activate_portal(), Action::Pass, Action::Pass]);
    assert!(
        !s.is_over(),
        "the activation's chain closing is not the turn's end"
    );
    assert!(s.gear[0].exhausted, "[E] was paid");
    assert_eq!(
        s.players[0].portal_grants, 1,
        "the ability resolved: the grant waits"
    );
    assert_eq!(
        s.players[0].pool.power_total(),
        0,
        "[A] was paid with the Mind Power"
    );
    assert_eq!(s.turn.plays_left, 2, "an activation is not a play");
    let acts = enabled(&g, &s);
    assert!(
        !acts.contains(&activate_portal()),
        "an exhausted Portal: {acts:?}"
    );
    let unit = Obj::Unit(0);
    let s = steps(
        &g,
        s,
        &[
            play_card(0),
            rep(0, false),
            rep(1, true),
            tgt(0, 0, unit),
            tgt(1, 0, unit),
            pay(),
            Action::Pass,
            Action::Pass,
            play_card(0),
            rep(0, false),
            tgt(0, 0, unit),
            pay(),
            Action::Pass,
            Action::Pass,
        ],
    );
    // Item 0 is the activation.
    assert_eq!(instances(&s, 1), 2, "printed + the Portal's");
    assert_eq!(instances(&s, 2), 1, "printed only: the grant was used");
    assert_eq!(s.players[0].portal_grants, 0);
    assert_eq!(s.units[0].might_mod, 2, "+2 twice, -2 once");
}

/// 358.5, 203.3: with no Power to pay [A] the activation is undone: the Portal stays ready, no
/// grant is given, and the activation is not tried again.
#[test]
fn an_activation_that_cannot_be_paid_is_undone() {
    let g = game(model::Version::Rup4);
    let scn = turn(&g, &["Feral Strength"], 2, &[]).gear(&g, "Temporal Portal", YOU);
    let mut s = g.step(&scn.state(&g), &activate_portal());
    // The forced steps up to the undoing (`steps` would go on into the lone play left).
    while count(&s, |e| matches!(e, Event::PlayCancelled { .. })) == 0 {
        let acts = enabled(&g, &s);
        assert_eq!(acts.len(), 1, "forced steps only: {acts:?}");
        s = g.step(&s, &acts[0]);
    }
    assert!(!s.gear[0].exhausted);
    assert_eq!(s.players[0].portal_grants, 0);
    assert!(!enabled(&g, &s).contains(&activate_portal()));
    assert!(enabled(&g, &s).contains(&play_card(0)));
}
