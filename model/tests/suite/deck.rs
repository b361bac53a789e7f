//! Rule tests of the main deck's named cards, looking at the top of it (Called
//! Shot, Double Trouble; recycling, 416), Hard Bargain's demand to pay, counters by what a repeated
//! spell chose (Not So Fast, Repulse; 359.3.e.9.a and the rulebook's `chosen_across`), channelled
//! runes, and draws that cannot wrap. Each reads the log or the board, and fails if the rule is
//! implemented wrongly.

use super::common;
use common::*;
use model::action::Action;
use model::cost::Domain;
use model::rulebook::{ChosenAcross, Rulebook, Version};
use model::state::*;

fn named(g: &model::Game, names: &[&str]) -> Vec<u16> {
    names.iter().map(|n| id(g, n)).collect()
}

/// Draw takes the top card: a named one goes to the hand by name (not as a count).
#[test]
fn a_draw_takes_the_named_top_card_into_the_hand() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Downstage Dramatics", pool(2, &[]));
    scn.setup.players[0].deck_top = named(&g, &["Defy", "Wind Wall"]);
    let s = play_out(&g, scn.state(&g), &[cast(), rep(0, false)]);
    let ps = &s.players[0];
    assert_eq!(ps.hand.as_slice(), &named(&g, &["Defy"])[..]);
    assert_eq!(ps.deck_top.as_slice(), &named(&g, &["Wind Wall"])[..]);
    assert_eq!(ps.hand_other, 3, "the anonymous hand is unchanged");
    assert_eq!(ps.deck_size(), 11);
}

/// Called Shot repeated: the second execution looks at the two cards under the first pair (the
/// first pair's other card went to the bottom), so it cannot draw the card recycled by the first.
#[test]
fn called_shot_repeated_looks_below_the_first_pair() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Called Shot", pool(0, &[(Domain::Chaos, 2)]));
    scn.setup.players[0].deck_top = named(&g, &["Defy", "Wind Wall", "Repulse", "Hard Bargain"]);
    scn.setup.players[0].deck = 0;
    let draw = |i| Action::DrawLooked { index: Some(i) };
    let s = play(&g, scn.state(&g), &[cast(), rep(0, true), pay(), draw(1)]);
    // Execution 2 looks at Repulse and Hard Bargain; Defy lies at the bottom now.
    let acts = enabled(&g, &s);
    assert_eq!(
        acts,
        vec![draw(0), draw(1)],
        "two distinct cards to choose from"
    );
    let s = play_out(&g, s, &[draw(0)]);
    let ps = &s.players[0];
    assert_eq!(
        ps.hand.as_slice(),
        &named(&g, &["Wind Wall", "Repulse"])[..]
    );
    let bottom: Vec<DeckCard> = named(&g, &["Defy", "Hard Bargain"])
        .into_iter()
        .map(DeckCard::Named)
        .collect();
    assert_eq!(
        ps.recycled.as_slice(),
        &bottom[..],
        "recycled to the bottom, in order"
    );
    assert_eq!(count(&s, |e| matches!(e, Event::LookedAt { n: 2, .. })), 2);
}

/// Double Trouble: only a unit may be revealed; the rest is recycled in the order chosen, and
/// identical (anonymous) cards are not a choice: they are recycled without a decision.
#[test]
fn double_trouble_reveals_only_a_unit_and_recycles_in_the_chosen_order() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Double Trouble", pool(2, &[]));
    scn.setup.players[0].deck_top = named(&g, &["Defy", "Pouty Poro"]);
    let s = play(&g, scn.state(&g), &[cast(), rep(0, false), pay()]);
    let acts = enabled(&g, &s);
    assert_eq!(
        acts,
        vec![
            Action::DrawLooked { index: Some(1) },
            Action::DrawLooked { index: None }
        ],
        "Defy is not a unit; declining is allowed"
    );
    let s = play(&g, s, &[Action::DrawLooked { index: None }]);
    // Defy, Pouty Poro and one other card: three distinct cards, three choices.
    assert_eq!(enabled(&g, &s).len(), 3);
    let s = play_out(
        &g,
        s,
        &[
            Action::RecycleLooked { index: 2 },
            Action::RecycleLooked { index: 1 },
        ],
    );
    let ps = &s.players[0];
    assert!(ps.hand.is_empty());
    let want = [
        DeckCard::Other,
        DeckCard::Named(id(&g, "Pouty Poro")),
        DeckCard::Named(id(&g, "Defy")),
    ];
    assert_eq!(ps.recycled.as_slice(), &want[..]);
    assert_eq!(count(&s, |e| matches!(e, Event::Revealed { .. })), 0);

    // All anonymous: nothing to decide once nothing can be revealed.
    let scn = Scn::new(&g, "Double Trouble", pool(2, &[]));
    let s = play_out(&g, scn.state(&g), &[cast(), rep(0, false), pay()]);
    assert_eq!(count(&s, |e| matches!(e, Event::Recycled { .. })), 3);
    assert_eq!(s.players[0].deck_size(), 10);
}

/// Hard Bargain repeated: two demands; the controller can pay only from their pool, and
/// declining counters the spell (425.1).
#[test]
fn hard_bargain_repeated_demands_twice() {
    let g = game(Version::Rup4);
    let scn =
        Scn::new(&g, "Desert's Call", pool(4, &[])).opp_hand(&g, "Hard Bargain", pool(4, &[]));
    let opp_cast = Action::MoveToChain {
        player: OPP,
        hand: 0,
    };
    let s = play(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, false),
            pay(),
            Action::Pass,
            opp_cast,
            rep(0, true),
            tgt(0, 0, Obj::Item(0)),
            tgt(1, 0, Obj::Item(0)),
            pay(),
        ],
    );
    let pay_it = Action::PayDemand { pay: true };
    let decline = Action::PayDemand { pay: false };
    assert_eq!(enabled(&g, &s), vec![pay_it, decline]);
    let s = g.next_state(&s, &pay_it).unwrap();
    let s = g.next_state(&s, &Action::Execute).unwrap();
    assert_eq!(
        enabled(&g, &s),
        vec![decline],
        "[0] left: the second cannot be paid"
    );
    let s = play_out(&g, s, &[decline]);
    let decided: Vec<bool> = s
        .log
        .iter()
        .filter_map(|e| match e {
            Event::DemandDecided {
                target: 0, paid, ..
            } => Some(*paid),
            _ => None,
        })
        .collect();
    assert_eq!(decided, vec![true, false]);
    assert_eq!(
        count(&s, |e| matches!(e, Event::Countered { item: 0, by: 1 })),
        1
    );
    assert_eq!(s.players[0].pool.energy, 0);
    assert!(s.units.is_empty(), "no token: Desert's Call was countered");
}

/// Repulse against a repeated Bellows Breath choosing the opponent's unit A in execution 1 and
/// their unit B in execution 2: all executions counted, it chooses another friendly unit too, so
/// Repulse cannot target it; each execution judged alone, it can. The rulebook names the choice.
#[test]
fn repulse_reads_what_a_repeated_spell_chose_as_the_rulebook_says() {
    for (across, legal) in [
        (ChosenAcross::AllExecutions, false),
        (ChosenAcross::OneExecution, true),
    ] {
        let g = game_with(Rulebook {
            chosen_across: across,
            ..Rulebook::preset(Version::Rup4)
        });
        let scn = Scn::new(&g, "Bellows Breath", pool(2, &[(Domain::Mind, 2)]))
            .unit(&g, "Sturdy Dummy", OPP, Location::Battlefield(0))
            .unit(&g, "Practice Dummy", OPP, Location::Battlefield(0))
            .opp_hand(&g, "Repulse", pool(1, &[(Domain::Body, 1)]));
        let end = |e| Action::EndTargets { exec: e, slot: 0 };
        let s = play(
            &g,
            scn.state(&g),
            &[
                cast(),
                rep(0, true),
                tgt(0, 0, Obj::Unit(0)),
                end(0),
                tgt(1, 0, Obj::Unit(1)),
                end(1),
                pay(),
                Action::Pass,
                Action::MoveToChain {
                    player: OPP,
                    hand: 0,
                },
            ],
        );
        // One step at a time: `play` would take a lone enabled action by itself.
        let s = g.next_state(&s, &tgt(0, 0, Obj::Unit(0))).unwrap();
        let acts = enabled(&g, &s);
        assert_eq!(
            acts.contains(&tgt(0, 1, Obj::Item(0))),
            legal,
            "{across:?}: {acts:?}"
        );
    }
}

/// Not So Fast: an enemy spell that chooses nothing friendly cannot be targeted; one that
/// chooses a friendly gear in its second execution only can, and is countered.
#[test]
fn not_so_fast_needs_a_friendly_choice_in_some_execution() {
    let g = game(Version::Rup4);
    let nsf = pool(2, &[(Domain::Calm, 1)]);
    let scn = Scn::new(&g, "Rocket Barrage", pool(8, &[(Domain::Mind, 2)]))
        .gear(&g, "Spare Gear", YOU)
        .gear(&g, "Spare Gear", OPP)
        .opp_hand(&g, "Not So Fast", nsf);
    let opp_cast = Action::MoveToChain {
        player: OPP,
        hand: 0,
    };
    for (second, targetable) in [(0u8, false), (1u8, true)] {
        let s = play(
            &g,
            scn.state(&g),
            &[
                cast(),
                rep(0, true),
                mode(0, 1),
                tgt(0, 0, Obj::Gear(0)),
                mode(1, 1),
                tgt(1, 0, Obj::Gear(second)),
                pay(),
                Action::Pass,
            ],
        );
        let s = g.next_state(&s, &opp_cast).unwrap();
        let acts = enabled(&g, &s);
        assert_eq!(
            acts.contains(&tgt(0, 0, Obj::Item(0))),
            targetable,
            "{acts:?}"
        );
        if targetable {
            let s = play_out(&g, s, &[tgt(0, 0, Obj::Item(0)), pay()]);
            assert_eq!(
                count(&s, |e| matches!(e, Event::Countered { item: 0, .. })),
                1
            );
            assert_eq!(
                count(&s, |e| matches!(e, Event::ChosenChecked { met: true, .. })),
                1
            );
        }
    }
}

/// Find Your Center repeated channels one rune exhausted per execution.
#[test]
fn find_your_center_channels_a_rune_per_execution() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Find Your Center", pool(9, &[])).portal();
    let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true), pay()]);
    assert_eq!(s.players[0].runes_exhausted, 2);
    assert_eq!(
        count(&s, |e| matches!(e, Event::RunesChannelled { n: 1, .. })),
        2
    );
}

/// Hand and deck counts cannot wrap: a setup over the card bound is refused, and a full deck
/// drawn into a large hand stays exact.
#[test]
fn card_counts_are_bounded_and_exact() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Downstage Dramatics", pool(4, &[]));
    scn.setup.players[0].hand_other = 150;
    scn.setup.players[0].deck = 60;
    assert!(
        g.initial_state(&scn.setup).is_err(),
        "211 cards: over the bound"
    );
    scn.setup.players[0].deck = 49;
    let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true), pay()]);
    assert_eq!(s.players[0].hand_other, 152);
    assert_eq!(s.players[0].deck_size(), 47);
}

/// Hard Bargain repeated against a player whose pool is empty but who has three ready runes:
/// a demand is paid by exhausting runes (164.2, 357.1.a), in the canonical domain
/// order, and once runes are used it is paid; the second [2] finds one ready rune, which cannot
/// make it up, so it can only be declined. With `demand_paid_with_runes` off, runes do not help.
#[test]
fn hard_bargain_demand_is_paid_by_exhausting_runes() {
    let opp_cast = Action::MoveToChain {
        player: OPP,
        hand: 0,
    };
    let to_demand = |g: &model::Game| {
        let mut scn =
            Scn::new(g, "Desert's Call", pool(2, &[])).opp_hand(g, "Hard Bargain", pool(4, &[]));
        let mut r = RunesSetup::default();
        r.ready[Domain::Fury as usize] = 1;
        r.ready[Domain::Calm as usize] = 2;
        scn.setup.players[0].runes = Some(r);
        play(
            g,
            scn.state(g),
            &[
                cast(),
                rep(0, false),
                pay(),
                Action::Pass,
                opp_cast,
                rep(0, true),
                tgt(0, 0, Obj::Item(0)),
                tgt(1, 0, Obj::Item(0)),
                pay(),
            ],
        )
    };
    let pay_it = Action::PayDemand { pay: true };
    let decline = Action::PayDemand { pay: false };
    let ex = |domain| Action::ExhaustRune { domain };

    let g = game(Version::Rup4);
    let s = to_demand(&g);
    assert_eq!(s.players[0].pool.energy, 0, "the pool is empty");
    assert_eq!(
        enabled(&g, &s),
        vec![ex(Domain::Fury), ex(Domain::Calm), decline]
    );
    let s = g.next_state(&s, &ex(Domain::Calm)).unwrap();
    assert_eq!(
        enabled(&g, &s),
        vec![ex(Domain::Calm)],
        "Calm then Fury is Fury then Calm; declining now would leave [1] floating"
    );
    let s = g.next_state(&s, &ex(Domain::Calm)).unwrap();
    assert_eq!(enabled(&g, &s), vec![pay_it]);
    let s = g.next_state(&s, &pay_it).unwrap();
    let s = g.next_state(&s, &Action::Execute).unwrap();
    assert_eq!(
        enabled(&g, &s),
        vec![decline],
        "one ready rune cannot make up the second [2]"
    );
    let s = play_out(&g, s, &[decline]);
    let decided: Vec<bool> = s
        .log
        .iter()
        .filter_map(|e| match e {
            Event::DemandDecided {
                target: 0, paid, ..
            } => Some(*paid),
            _ => None,
        })
        .collect();
    assert_eq!(decided, vec![true, false]);
    let exhausted: Vec<Domain> = s
        .log
        .iter()
        .filter_map(|e| match e {
            Event::DemandRuneExhausted {
                item: 1,
                who: Player::YOU,
                domain,
            } => Some(*domain),
            _ => None,
        })
        .collect();
    assert_eq!(exhausted, vec![Domain::Calm, Domain::Calm]);
    let r = s.players[0].runes.as_ref().unwrap();
    assert_eq!(
        (
            r.ready[Domain::Fury as usize],
            r.ready[Domain::Calm as usize]
        ),
        (1, 0)
    );
    assert_eq!(r.exhausted[Domain::Calm as usize], 2);
    assert_eq!(
        s.players[0].pool.energy, 0,
        "the runes' [2] paid the demand"
    );
    assert_eq!(
        count(&s, |e| matches!(e, Event::Countered { item: 0, by: 1 })),
        1
    );

    let g = game_with(Rulebook {
        demand_paid_with_runes: false,
        ..Rulebook::preset(Version::Rup4)
    });
    // The only answer is to decline, so the script takes it: the spell is countered at once.
    let s = to_demand(&g);
    assert!(s
        .log
        .iter()
        .all(|e| !matches!(e, Event::DemandRuneExhausted { .. })));
    assert!(matches!(
        s.log
            .iter()
            .find(|e| matches!(e, Event::DemandDecided { .. })),
        Some(Event::DemandDecided { paid: false, .. })
    ));
}
