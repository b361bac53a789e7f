//! One test per rule the model implements, from the worked examples of the seeds and the digest.
//! Each reads what happened (the event log, the board), and each would fail if the rule were
//! implemented wrongly; where a rulebook field flips the rule, the test shows both sides.

use super::common;
use common::*;
use model::action::Action;
use model::cost::Domain;
use model::rulebook::{DeflectRule, EzrealScope, Rulebook, TargetingTriggers, Version};
use model::state::*;

fn rb_pool() -> model::Cost {
    pool(8, &[(Domain::Mind, 2)])
}

/// 820.2.a (seed 001/002): Rocket Barrage repeated, "deal 4 to a unit in a base" first, then "kill
/// a gear": both choices declared while playing, executed in the declared order.
#[test]
fn rocket_barrage_two_modes_run_in_declared_order() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Rocket Barrage", rb_pool())
        .unit(&g, "Sturdy Dummy", OPP, Location::Base(OPP))
        .gear(&g, "Spare Gear", OPP);
    for (first_damage, script) in [
        (true, vec![cast(), rep(0, true), mode(0, 0), mode(1, 1)]),
        (false, vec![cast(), rep(0, true), mode(0, 1), mode(1, 0)]),
    ] {
        let s = play_out(&g, scn.state(&g), &script);
        let dmg = pos(&s, |e| matches!(e, Event::Damaged { unit: 0, amount: 4 }));
        let kill = pos(&s, |e| {
            matches!(
                e,
                Event::ZoneChange {
                    obj: Obj::Gear(0),
                    to: Zone::Trash
                }
            )
        });
        assert_eq!(
            dmg < kill,
            first_damage,
            "executions must follow the declared order"
        );
        // Both choices were made before the item was finalized (355, 820.2).
        let fin = pos(&s, |e| matches!(e, Event::Finalized { item: 0 }));
        assert!(
            s.log[..fin]
                .iter()
                .filter(|e| matches!(e, Event::ModeChosen { .. }))
                .count()
                == 2
        );
        assert_eq!(
            count(&s, |e| matches!(e, Event::ExecutionStarted { item: 0, .. })),
            2
        );
        assert_eq!(s.players[0].pool.energy, 0, "4 + 4 Energy paid");
    }
}

/// 820.2.a: "Kill a gear" twice with two gear, in the stated order.
#[test]
fn rocket_barrage_kills_two_gear_in_the_stated_order() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Rocket Barrage", rb_pool())
        .gear(&g, "Spare Gear", OPP)
        .gear(&g, "Spare Gear", OPP);
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, true),
            mode(0, 1),
            tgt(0, 0, Obj::Gear(1)),
            mode(1, 1),
            tgt(1, 0, Obj::Gear(0)),
        ],
    );
    let k1 = pos(&s, |e| {
        matches!(
            e,
            Event::ZoneChange {
                obj: Obj::Gear(1),
                ..
            }
        )
    });
    let k0 = pos(&s, |e| {
        matches!(
            e,
            Event::ZoneChange {
                obj: Obj::Gear(0),
                ..
            }
        )
    });
    assert!(k1 < k0);
}

/// 359.3.e, 820.1.d.2: an earlier execution makes a later one's target illegal; the later
/// instruction is ignored, not retargeted.
#[test]
fn an_execution_whose_target_was_killed_by_the_previous_one_is_ignored() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Rocket Barrage", rb_pool())
        .gear(&g, "Spare Gear", OPP)
        .gear(&g, "Spare Gear", OPP);
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, true),
            mode(0, 1),
            tgt(0, 0, Obj::Gear(0)),
            mode(1, 1),
            tgt(1, 0, Obj::Gear(0)),
        ],
    );
    assert_eq!(
        count(&s, |e| matches!(
            e,
            Event::ZoneChange {
                obj: Obj::Gear(_),
                ..
            }
        )),
        1
    );
    assert_eq!(
        count(&s, |e| matches!(
            e,
            Event::Ignored {
                exec: 1,
                why: IgnoredWhy::TargetsIllegal,
                ..
            }
        )),
        1
    );
    assert_eq!(s.gear[1].zone, Zone::Board, "the other gear is untouched");
}

/// 746.1.d.1 / 820.1.d.1: Desert's Call repeated plays two Sand Soldiers; the tokens wait until
/// the spell has finished (354.3) and then enter the board.
#[test]
fn deserts_call_twice_plays_two_tokens_after_resolution() {
    let g = game(Version::Rup4);
    let s = play_out(
        &g,
        Scn::new(&g, "Desert's Call", pool(4, &[])).state(&g),
        &[cast(), rep(0, true)],
    );
    let tokens: Vec<_> = s
        .units
        .iter()
        .filter(|u| u.token && u.zone == Zone::Board)
        .collect();
    assert_eq!(tokens.len(), 2);
    assert!(tokens.iter().all(|t| t.might == 2 && t.controller == YOU));
    let resolved = pos(&s, |e| matches!(e, Event::Resolved { item: 0 }));
    let entered = pos(&s, |e| {
        matches!(
            e,
            Event::ZoneChange {
                obj: Obj::Unit(_),
                to: Zone::Board
            }
        )
    });
    assert!(
        resolved < entered,
        "tokens enter only after the spell finished resolving"
    );
    // Without paying, one token.
    let s = play_out(
        &g,
        Scn::new(&g, "Desert's Call", pool(4, &[])).state(&g),
        &[cast(), rep(0, false)],
    );
    assert_eq!(s.units.iter().filter(|u| u.token).count(), 1);
}

/// Spiritforged FAQ (seed 002): Find Your Center with a Repeat granted by Temporal Portal costs
/// 3 + 3 - 2 = 4: the whole-card discount applies once, and the granted cost is the printed cost.
#[test]
fn find_your_center_with_temporal_portal_costs_four() {
    let cost_of = |rules: Rulebook| {
        let g = game_with(rules);
        let scn = Scn::new(&g, "Find Your Center", pool(9, &[]))
            .portal()
            .opp_near_victory();
        let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true)]);
        let total = s.log.iter().find_map(|e| match e {
            Event::CostDetermined { total, .. } => Some(total.energy),
            _ => None,
        });
        let draws: u8 = s
            .log
            .iter()
            .map(|e| if let Event::Drew { n, .. } = e { *n } else { 0 })
            .sum();
        (total.unwrap(), draws, 9 - s.players[0].pool.energy)
    };
    assert_eq!(cost_of(Rulebook::preset(Version::Rup4)), (4, 2, 4));
    // A wrong edit applies the discount per execution: 2, which the FAQ rules out.
    let wrong = Rulebook {
        discount_per_execution: true,
        ..Rulebook::preset(Version::Rup4)
    };
    assert_eq!(cost_of(wrong).0, 2);
}

/// 356.4.f.1, Ezreal FAQ: an optional additional cost reduced to 0 still counts as paid; the
/// execution happens.
#[test]
fn ezreal_reducing_a_repeat_cost_to_zero_still_gives_the_execution() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Desert's Call", pool(2, &[]))
        .unit(&g, "Ezreal, Prodigy", YOU, Location::Base(YOU))
        .spire(&g);
    // [2] - Marai Spire [1] - Ezreal [1] = 0.
    let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true)]);
    assert!(s
        .log
        .iter()
        .any(|e| matches!(e, Event::CostDetermined { total, .. } if total.energy == 2)));
    assert_eq!(
        count(&s, |e| matches!(e, Event::ExecutionStarted { .. })),
        2
    );
    assert_eq!(s.units.iter().filter(|u| u.token).count(), 2);
    let wrong = Rulebook {
        zero_cost_counts_as_paid: false,
        ..Rulebook::preset(Version::Rup4)
    };
    let g = game_with(wrong);
    let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true)]);
    assert_eq!(
        count(&s, |e| matches!(e, Event::ExecutionStarted { .. })),
        1
    );
}

/// Unleashed patch notes, RQ Vegas 2026: repeated Hidden Blade on one unit draws 2 in total; the
/// second kill is ignored (zone change) and its linked draw with it (359.3.e.14). Under v1.2,
/// without linked instructions, the draw happens again.
#[test]
fn repeated_hidden_blade_on_one_unit_draws_two_in_total() {
    for (v, expected) in [(Version::Rup4, 2u8), (Version::V1_3, 2), (Version::V1_2, 4)] {
        let g = game(v);
        let scn = Scn::new(&g, "Hidden Blade", pool(6, &[(Domain::Order, 2)]))
            .unit(&g, "Practice Dummy", OPP, Location::Battlefield(0))
            .portal();
        let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true)]);
        let drawn: u8 = s
            .log
            .iter()
            .map(|e| match e {
                Event::Drew { who, n } if *who == OPP => *n,
                _ => 0,
            })
            .sum();
        assert_eq!(drawn, expected, "{v:?}");
        assert_eq!(
            count(&s, |e| matches!(
                e,
                Event::ZoneChange {
                    obj: Obj::Unit(0),
                    to: Zone::Trash
                }
            )),
            1
        );
        assert_eq!(s.players[1].hand_other, 3 + expected);
    }
}

/// 809.1.c (Spiritforged FAQ errata): a repeated spell that chooses the same Deflect unit twice
/// pays Deflect twice; v1.2 as printed charged once per item.
#[test]
fn deflect_is_paid_per_choice() {
    for (rule, extra) in [(DeflectRule::PerChoice, 2u8), (DeflectRule::PerItem, 1)] {
        let g = game_with(Rulebook {
            deflect: rule,
            ..Rulebook::preset(Version::Rup4)
        });
        let scn = Scn::new(
            &g,
            "Rocket Barrage",
            pool(8, &[(Domain::Mind, 2), (Domain::Calm, 2)]),
        )
        .unit(&g, "Pouty Poro", OPP, Location::Base(OPP));
        let s = play(
            &g,
            scn.state(&g),
            &[
                cast(),
                rep(0, true),
                mode(0, 0),
                mode(1, 0),
                Action::DetermineTotalCost,
            ],
        );
        let total = s.log.iter().find_map(|e| match e {
            Event::CostDetermined { total, .. } => Some(*total),
            _ => None,
        });
        assert_eq!(total.unwrap().any, extra, "{rule:?}");
        assert_eq!(
            count(&s, |e| matches!(e, Event::DeflectAdded { .. })),
            extra as usize
        );
    }
}

/// 425.1.c, 419.4.b, 206: Defy counters a repeated Rocket Barrage (printed cost [4][B] qualifies
/// even with Repeat paid); no execution, no refund, not played, but finalized for Legion.
#[test]
fn countered_repeated_spell_no_execution_no_refund_still_counts_for_legion() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Rocket Barrage", rb_pool())
        .gear(&g, "Spare Gear", OPP)
        .opp_hand(&g, "Defy", pool(1, &[(Domain::Calm, 1)]));
    let s = play(
        &g,
        scn.state(&g),
        &[cast(), rep(0, true), mode(0, 1), mode(1, 1), Action::Pass],
    );
    let acts = enabled(&g, &s);
    assert!(
        acts.contains(&Action::MoveToChain {
            player: OPP,
            hand: 0
        }),
        "Defy may target it (206): {acts:?}"
    );
    let s = play_out(
        &g,
        s,
        &[
            Action::MoveToChain {
                player: OPP,
                hand: 0,
            },
            tgt(0, 0, Obj::Item(0)),
        ],
    );
    assert_eq!(
        count(&s, |e| matches!(e, Event::Countered { item: 0, .. })),
        1
    );
    assert_eq!(
        count(&s, |e| matches!(e, Event::ExecutionStarted { item: 0, .. })),
        0
    );
    assert_eq!(count(&s, |e| matches!(e, Event::Played { item: 0, .. })), 0);
    assert_eq!(s.players[0].pool.energy, 0, "nothing refunded");
    assert_eq!(
        s.players[0].finalized_this_turn, 1,
        "it was finalized (419.4.b)"
    );
    assert!(s.players[0].trash.contains(&id(&g, "Rocket Barrage")));
    assert_eq!(s.gear[0].zone, Zone::Board);
    // A wrong edit refunds.
    let g = game_with(Rulebook {
        refund_on_counter: true,
        ..Rulebook::preset(Version::Rup4)
    });
    let s = play(
        &g,
        scn.state(&g),
        &[cast(), rep(0, true), mode(0, 1), mode(1, 1), Action::Pass],
    );
    let s = play_out(
        &g,
        s,
        &[
            Action::MoveToChain {
                player: OPP,
                hand: 0,
            },
            tgt(0, 0, Obj::Item(0)),
        ],
    );
    assert_eq!(s.players[0].pool.energy, 8);
}

/// 206: Defy cannot target a spell whose printed cost exceeds its limits.
#[test]
fn defy_reads_the_printed_cost() {
    let g = game(Version::Rup4);
    // Void Seeker costs [3][R]: 3 <= 4 Energy and 1 <= 1 Power: legal. Mystic Reversal's [4][G][G][G]
    // would not be (3 Power).
    let scn = Scn::new(&g, "Void Seeker", pool(3, &[(Domain::Fury, 1)]))
        .unit(&g, "Practice Dummy", OPP, Location::Battlefield(0))
        .opp_hand(&g, "Defy", pool(1, &[(Domain::Calm, 1)]));
    let s = play(&g, scn.state(&g), &[cast(), Action::Pass]);
    assert!(enabled(&g, &s).contains(&Action::MoveToChain {
        player: OPP,
        hand: 0
    }));
    let g2 = game(Version::Rup4);
    let mut scn2 =
        Scn::new(&g2, "Rocket Barrage", pool(8, &[(Domain::Mind, 2)])).gear(&g2, "Spare Gear", OPP);
    scn2.setup.players[1].hand.push(id(&g2, "Defy"));
    scn2.setup.players[1].pool = pool(1, &[(Domain::Calm, 1)]);
    // Find the Defy target options once it is on the chain.
    let s = play_out(
        &g2,
        scn2.state(&g2),
        &[
            cast(),
            rep(0, false),
            mode(0, 1),
            Action::Pass,
            Action::MoveToChain {
                player: OPP,
                hand: 0,
            },
        ],
    );
    assert!(s.log.iter().any(|e| matches!(
        e,
        Event::TargetChosen {
            item: 1,
            obj: Obj::Item(0),
            ..
        }
    )));
    assert!(s
        .log
        .iter()
        .any(|e| matches!(e, Event::Countered { item: 0, .. })));
}

/// RUP4 820.1.a, 820.1.d.1: a repeated triggered ability paying "Discard 1" deals damage equal to
/// the unit's Might twice. Under v1.3 abilities have no [Repeat].
#[test]
fn a_repeated_ability_pays_discard_one() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Downstage Dramatics", pool(0, &[]))
        .unit(&g, "Vendetta Duelist", YOU, Location::Battlefield(0))
        .unit(&g, "Practice Dummy", OPP, Location::Battlefield(0))
        .unit(&g, "Practice Dummy", OPP, Location::Battlefield(0));
    scn.setup.attack_trigger = Some(0);
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            Action::DecideOptional { accept: true },
            rep(0, true),
            tgt(0, 0, Obj::Unit(1)),
            tgt(1, 0, Obj::Unit(2)),
            // 357.2: the payer chooses one of the other cards, not Downstage Dramatics.
            Action::DiscardForCost { card: None },
        ],
    );
    assert!(s
        .log
        .iter()
        .any(|e| matches!(e, Event::CostPaid { discarded: 1, .. })));
    assert_eq!(s.players[0].hand_other, 2);
    assert_eq!(
        count(&s, |e| matches!(e, Event::Damaged { amount: 3, .. })),
        2
    );
    assert_eq!(s.units[1].zone, Zone::Trash);
    assert_eq!(s.units[2].zone, Zone::Trash);

    let g = game(Version::V1_3);
    let s = play(
        &g,
        scn.state(&g),
        &[Action::DecideOptional { accept: true }],
    );
    assert!(
        !enabled(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::DeclareRepeat { .. })),
        "v1.3: Repeat is on spells only"
    );
}

/// 820.1.c.2–3 (seed 000 example): each instance is decided on its own and paid at most once;
/// Curtain Call paying two of its three instances runs three executions with different modes.
#[test]
fn curtain_call_two_of_three_instances_three_distinct_modes() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Curtain Call", pool(6, &[(Domain::Mind, 1)]))
        .unit(&g, "Sturdy Dummy", OPP, Location::Battlefield(0))
        .unit(&g, "Sturdy Dummy", OPP, Location::Base(OPP));
    let s0 = play(&g, scn.state(&g), &[cast(), rep(0, true)]);
    // Instance 1 was paid once: its decision is made; nothing offers paying it again.
    assert!(!enabled(&g, &s0).contains(&rep(0, true)));
    let s = play(
        &g,
        s0,
        &[rep(1, false), rep(2, true), mode(0, 0), mode(1, 1)],
    );
    let modes = enabled(&g, &s);
    assert!(
        !modes.contains(&mode(2, 0)) && !modes.contains(&mode(2, 1)),
        "modes already chosen: {modes:?}"
    );
    let s = play_out(&g, s, &[mode(2, 2)]);
    assert_eq!(
        count(&s, |e| matches!(e, Event::ExecutionStarted { .. })),
        3
    );
    // Base [4] + [1] + [1][A] paid.
    assert_eq!(s.players[0].pool.energy, 0);
    assert_eq!(s.players[0].pool.power[Domain::Mind as usize], 0);
}

/// A wrong edit (MTG replicate, seed 004): an instance payable again and again.
#[test]
fn replicate_like_edit_lets_one_instance_be_paid_twice() {
    let g = game_with(Rulebook {
        payments_per_instance: 3,
        ..Rulebook::preset(Version::Rup4)
    });
    let s = play_out(
        &g,
        Scn::new(&g, "Desert's Call", pool(6, &[])).state(&g),
        &[cast(), rep(0, true), rep(0, true), rep(0, false)],
    );
    assert_eq!(s.units.iter().filter(|u| u.token).count(), 3);
}

/// 158.3, 321, ruling 8454: Bellows Breath repeated on the same unit: both hits land, with no
/// priority and no cleanup between executions; the unit dies in the cleanup after.
#[test]
fn bellows_breath_twice_on_one_unit_no_window_no_cleanup_between() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Bellows Breath", pool(2, &[(Domain::Mind, 2)])).unit(
        &g,
        "Practice Dummy",
        OPP,
        Location::Base(OPP),
    );
    let script = [
        cast(),
        rep(0, true),
        tgt(0, 0, Obj::Unit(0)),
        Action::EndTargets { exec: 0, slot: 0 },
        tgt(1, 0, Obj::Unit(0)),
        Action::EndTargets { exec: 1, slot: 0 },
    ];
    let s = play_out(&g, scn.state(&g), &script);
    assert_eq!(
        count(&s, |e| matches!(e, Event::Damaged { unit: 0, amount: 1 })),
        2
    );
    let e1 = pos(&s, |e| matches!(e, Event::ExecutionStarted { exec: 1, .. }));
    let e0 = pos(&s, |e| matches!(e, Event::ExecutionStarted { exec: 0, .. }));
    assert!(!s.log[e0..e1].iter().any(|e| matches!(
        e,
        Event::Passed { .. } | Event::Cleanup | Event::ZoneChange { .. }
    )));
    let died = pos(&s, |e| {
        matches!(
            e,
            Event::ZoneChange {
                obj: Obj::Unit(0),
                to: Zone::Trash
            }
        )
    });
    assert!(died > pos(&s, |e| matches!(e, Event::Resolved { .. })));
    // A wrong edit opens a window between executions.
    let g = game_with(Rulebook {
        window_between_executions: true,
        ..Rulebook::preset(Version::Rup4)
    });
    let s = play_out(&g, scn.state(&g), &script);
    let e0 = pos(&s, |e| matches!(e, Event::ExecutionStarted { exec: 0, .. }));
    let e1 = pos(&s, |e| matches!(e, Event::ExecutionStarted { exec: 1, .. }));
    assert!(s.log[e0..e1]
        .iter()
        .any(|e| matches!(e, Event::Passed { .. })));
}

/// RQ Vegas 2026 "Repeated Temptation": targets at different locations; one made illegal before
/// resolution, only the remaining legal effect resolves.
#[test]
fn repeated_temptation_with_one_target_killed_in_response() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Temptation", pool(4, &[]))
        .unit(&g, "Practice Dummy", OPP, Location::Battlefield(0))
        .unit(&g, "Practice Dummy", OPP, Location::Base(OPP))
        .unit(&g, "Practice Dummy", OPP, Location::Battlefield(1))
        .opp_hand(&g, "Swift Execution", pool(1, &[]));
    let s = play(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, true),
            tgt(0, 0, Obj::Unit(0)),
            Action::ChooseDestination {
                exec: 0,
                slot: 0,
                to: Location::Battlefield(1),
            },
            tgt(1, 0, Obj::Unit(1)),
            Action::ChooseDestination {
                exec: 1,
                slot: 0,
                to: Location::Battlefield(1),
            },
            Action::Pass,
            Action::MoveToChain {
                player: OPP,
                hand: 0,
            },
            tgt(0, 0, Obj::Unit(1)),
        ],
    );
    let s = play_out(&g, s, &[]);
    assert_eq!(s.units[0].loc, Location::Battlefield(1));
    assert_eq!(s.units[1].zone, Zone::Trash);
    assert_eq!(
        count(&s, |e| matches!(
            e,
            Event::Ignored {
                item: 0,
                exec: 1,
                why: IgnoredWhy::TargetsIllegal,
                ..
            }
        )),
        1
    );
    assert_eq!(count(&s, |e| matches!(e, Event::UnitMoved { .. })), 1);
}

/// 820.3.a, 419.4.a: a repeated spell is played once: "when you play a spell" triggers once, after
/// resolution; a wrong edit makes a play per execution.
#[test]
fn a_repeated_spell_triggers_when_you_play_once() {
    for (per_exec, expected) in [(false, 1), (true, 2)] {
        let g = game_with(Rulebook {
            play_event_per_execution: per_exec,
            ..Rulebook::preset(Version::Rup4)
        });
        let scn = Scn::new(&g, "Desert's Call", pool(4, &[])).unit(
            &g,
            "Spellwatcher",
            YOU,
            Location::Base(YOU),
        );
        let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true)]);
        assert_eq!(
            count(&s, |e| matches!(e, Event::Played { item: 0, .. })),
            expected
        );
        assert_eq!(
            count(&s, |e| matches!(e, Event::Triggered { .. })),
            expected
        );
        assert_eq!(
            count(
                &s,
                |e| matches!(e, Event::Drew { who, n: 1 } if *who == YOU)
            ),
            expected
        );
    }
}

/// 135.2.b.3 (v1.3+): "as you play" instructions run once, while playing; v1.2's reading repeats them.
#[test]
fn as_you_play_instructions_are_not_repeated() {
    for (v, draws) in [(Version::Rup4, 1), (Version::V1_2, 2)] {
        let g = game(v);
        let scn = Scn::new(&g, "Chant of Readiness", pool(2, &[])).unit(
            &g,
            "Sturdy Dummy",
            OPP,
            Location::Base(OPP),
        );
        let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true)]);
        assert_eq!(
            count(&s, |e| matches!(e, Event::Drew { who, .. } if *who == YOU)),
            draws,
            "{v:?}"
        );
    }
}

/// 359.3.e.15 (v1.3+), RQ Vegas 2026: a repeated spell that leaves the chain during its
/// resolution does not execute again. v1.2 has no such rule.
#[test]
fn leaving_the_chain_stops_further_executions() {
    for (v, hits) in [(Version::Rup4, 1), (Version::V1_2, 2)] {
        let g = game(v);
        let scn = Scn::new(&g, "Vanishing Bolt", pool(2, &[])).unit(
            &g,
            "Sturdy Dummy",
            OPP,
            Location::Base(OPP),
        );
        let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true)]);
        assert_eq!(
            count(&s, |e| matches!(e, Event::Damaged { .. })),
            hits,
            "{v:?}"
        );
        assert!(s.is_over());
    }
}

/// 356.4.c (v1.3+): Marai Spire's "[1] less" applies to each Repeat component as it is added, so a
/// Power-only component gets nothing; v1.2 applied discounts to the total.
#[test]
fn component_discounts_apply_to_their_component() {
    for (v, total_energy) in [(Version::Rup4, 4u8), (Version::V1_2, 3)] {
        let g = game(v);
        let scn = Scn::new(&g, "Curtain Call", pool(4, &[(Domain::Mind, 1)]))
            .spire(&g)
            .unit(&g, "Sturdy Dummy", OPP, Location::Battlefield(0));
        let s = play(
            &g,
            scn.state(&g),
            &[
                cast(),
                rep(0, false),
                rep(1, true),
                rep(2, false),
                mode(0, 0),
                mode(1, 1),
            ],
        );
        let s = play(&g, s, &[]);
        let total = s.log.iter().find_map(|e| match e {
            Event::CostDetermined { total, .. } => Some(*total),
            _ => None,
        });
        assert_eq!(total.unwrap().energy, total_energy, "{v:?}");
    }
}

/// Open question (a) as an option: Ezreal once per optional cost or once per play.
#[test]
fn ezreal_scope_is_a_named_option() {
    for (scope, energy) in [(EzrealScope::EachCost, 4u8), (EzrealScope::OncePerPlay, 5)] {
        let g = game_with(Rulebook {
            ezreal_scope: scope,
            ..Rulebook::preset(Version::Rup4)
        });
        let scn = Scn::new(&g, "Curtain Call", pool(8, &[(Domain::Mind, 2)]))
            .unit(&g, "Ezreal, Prodigy", YOU, Location::Base(YOU))
            .unit(&g, "Sturdy Dummy", OPP, Location::Battlefield(0))
            .unit(&g, "Sturdy Dummy", OPP, Location::Base(OPP));
        // [4] + [1] + [1][A], Ezreal on each optional cost: [4] + [0] + [0][A].
        let s = play(
            &g,
            scn.state(&g),
            &[cast(), rep(0, true), rep(1, false), rep(2, true)],
        );
        let mut script = vec![mode(0, 0), mode(1, 1), mode(2, 2), tgt(2, 0, Obj::Unit(2))];
        if scope == EzrealScope::EachCost {
            // 356.4.c: which of "[1] or [A]" comes off [1][A] is the payer's choice.
            script.push(Action::ChooseReduction {
                component: model::state::Component::Repeat(2),
                less: model::state::Reduction::Energy,
            });
        }
        script.push(Action::DetermineTotalCost);
        let s = play(&g, s, &script);
        let total = s.log.iter().find_map(|e| match e {
            Event::CostDetermined { total, .. } => Some(*total),
            _ => None,
        });
        assert_eq!(total.unwrap().energy, energy, "{scope:?}");
    }
}

/// Open question (b) as an option: a Targeting Effect for an object chosen by two executions.
#[test]
fn targeting_trigger_once_per_item_or_per_choice() {
    for (rule, n) in [
        (TargetingTriggers::OncePerItem, 1),
        (TargetingTriggers::PerChoice, 2),
    ] {
        let g = game_with(Rulebook {
            targeting_triggers: rule,
            ..Rulebook::preset(Version::Rup4)
        });
        let scn = Scn::new(&g, "Rocket Barrage", rb_pool()).unit(
            &g,
            "Watchful Sentry",
            OPP,
            Location::Base(OPP),
        );
        let s = play_out(
            &g,
            scn.state(&g),
            &[cast(), rep(0, true), mode(0, 0), mode(1, 0)],
        );
        assert_eq!(
            count(&s, |e| matches!(e, Event::Triggered { .. })),
            n,
            "{rule:?}"
        );
        // 383.4.b.2: they go on the chain after the item is finalized, before it resolves.
        let fin = pos(&s, |e| matches!(e, Event::Finalized { item: 0 }));
        let trig = pos(&s, |e| matches!(e, Event::Triggered { .. }));
        let res = pos(&s, |e| matches!(e, Event::ResolveStarted { item: 0 }));
        assert!(fin < trig && trig < res);
    }
}

/// 357, 358.5: a cost that cannot be paid undoes the play: not a counter, nothing paid, the card
/// back in hand.
#[test]
fn an_unpayable_cost_undoes_the_play() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Desert's Call", pool(3, &[]));
    let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true)]);
    assert!(s.log.iter().any(|e| matches!(
        e,
        Event::PlayCancelled {
            why: CancelWhy::CannotPay,
            ..
        }
    )));
    assert!(!s
        .log
        .iter()
        .any(|e| matches!(e, Event::Finalized { .. } | Event::Countered { .. })));
    assert_eq!(s.players[0].pool.energy, 3);
    assert_eq!(s.players[0].hand, vec![id(&g, "Desert's Call")]);
    assert_eq!(s.players[0].finalized_this_turn, 0);
    assert!(s.is_over());
}

/// 358.5: "every action taken in this process is undone": a play undone gives back the Temporal
/// Portal grant it took, for the next spell.
#[test]
fn an_undone_play_gives_back_the_portal_grant() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Desert's Call", pool(3, &[])).portal();
    let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true), rep(1, true)]);
    assert!(s
        .log
        .iter()
        .any(|e| matches!(e, Event::PlayCancelled { .. })));
    assert_eq!(s.players[0].portal_grants, 1);
}

/// 752.2: new choices (Mystic Reversal) cannot add or remove Repeat; the number of executions is
/// fixed. A wrong edit lets them.
#[test]
fn new_choices_cannot_add_repeat() {
    let scn_for = |g: &model::Game| {
        Scn::new(g, "Rocket Barrage", rb_pool())
            .unit(g, "Sturdy Dummy", OPP, Location::Base(OPP))
            .unit(g, "Sturdy Dummy", YOU, Location::Base(YOU))
            .opp_hand(g, "Mystic Reversal", pool(4, &[(Domain::Calm, 3)]))
    };
    let script = [
        cast(),
        rep(0, false),
        mode(0, 0),
        tgt(0, 0, Obj::Unit(0)),
        Action::Pass,
        Action::MoveToChain {
            player: OPP,
            hand: 0,
        },
        tgt(0, 0, Obj::Item(0)),
        Action::Pass,
        Action::Pass,
    ];
    let g = game(Version::Rup4);
    let s = play(&g, scn_for(&g).state(&g), &script);
    let acts = enabled(&g, &s);
    assert!(acts.contains(&Action::DeclineNewChoices), "{acts:?}");
    assert!(!acts
        .iter()
        .any(|a| matches!(a, Action::ReopenRepeat { .. })));
    // Retarget to your own unit, now an enemy of the new controller.
    let s = play_out(&g, s, &[Action::RemakeChoice { obj: Obj::Unit(1) }]);
    assert_eq!(
        count(&s, |e| matches!(e, Event::ExecutionStarted { item: 0, .. })),
        1
    );
    assert_eq!(s.units[1].damage, 4);
    assert_eq!(s.units[0].damage, 0);

    let g = game_with(Rulebook {
        new_choices_reopen_repeat: true,
        ..Rulebook::preset(Version::Rup4)
    });
    let s = play(&g, scn_for(&g).state(&g), &script);
    let s = play_out(
        &g,
        s,
        &[Action::ReopenRepeat { instance: 0 }, Action::KeepChoice],
    );
    assert_eq!(
        count(&s, |e| matches!(e, Event::ExecutionStarted { item: 0, .. })),
        2
    );
}

/// 751.1, 753 vs the guide (seed 000): under RUP4 a remade choice must be one not previously
/// chosen; the guide allows the same again. Under v1.3 (355.15, no exception) nothing may be remade.
#[test]
fn new_choices_differ_between_rup4_the_guide_and_v13() {
    let setup = |g: &model::Game| {
        Scn::new(g, "Rocket Barrage", pool(8, &[(Domain::Mind, 2)]))
            .unit(g, "Sturdy Dummy", YOU, Location::Base(YOU))
            .unit(g, "Sturdy Dummy", YOU, Location::Base(YOU))
            .opp_hand(g, "Mystic Reversal", pool(4, &[(Domain::Calm, 3)]))
    };
    let script = [
        cast(),
        rep(0, true),
        mode(0, 0),
        tgt(0, 0, Obj::Unit(0)),
        mode(1, 0),
        tgt(1, 0, Obj::Unit(1)),
        Action::Pass,
        Action::MoveToChain {
            player: OPP,
            hand: 0,
        },
        tgt(0, 0, Obj::Item(0)),
        Action::Pass,
        Action::Pass,
    ];
    // After gaining control, YOUR units are the new controller's enemies; execution 1 may be
    // remade to unit 1 under both (not previously chosen by execution 1).
    let g = game(Version::Rup4);
    let s = play(&g, setup(&g).state(&g), &script);
    let acts = enabled(&g, &s);
    assert!(acts.contains(&Action::RemakeChoice { obj: Obj::Unit(1) }));
    assert!(
        !acts.contains(&Action::RemakeChoice { obj: Obj::Unit(0) }),
        "751.1: not the same again"
    );
    let g = game(Version::Guide);
    let s = play(&g, setup(&g).state(&g), &script);
    let acts = enabled(&g, &s);
    assert!(
        acts.contains(&Action::KeepChoice)
            && acts.contains(&Action::RemakeChoice { obj: Obj::Unit(1) })
    );
    let g = game(Version::V1_3);
    let s = play_out(&g, setup(&g).state(&g), &script);
    assert_eq!(count(&s, |e| matches!(e, Event::NewChoicesBegun { .. })), 0);
    assert!(s.log.iter().any(|e| matches!(
        e,
        Event::Ignored {
            why: IgnoredWhy::Impossible,
            ..
        }
    )));
}

/// 754–755: a newly chosen Deflect unit adds no cost, and a newly chosen object's Targeting
/// Effects trigger then.
#[test]
fn new_choices_ignore_deflect_and_trigger_targeting_effects_of_new_targets() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Rocket Barrage", rb_pool())
        .unit(&g, "Sturdy Dummy", OPP, Location::Base(OPP))
        .unit(&g, "Watchful Sentry", YOU, Location::Base(YOU))
        .unit(&g, "Pouty Poro", YOU, Location::Base(YOU))
        .opp_hand(&g, "Mystic Reversal", pool(4, &[(Domain::Calm, 3)]));
    let pre = [
        cast(),
        rep(0, false),
        mode(0, 0),
        tgt(0, 0, Obj::Unit(0)),
        Action::Pass,
        Action::MoveToChain {
            player: OPP,
            hand: 0,
        },
        tgt(0, 0, Obj::Item(0)),
        Action::Pass,
        Action::Pass,
    ];
    let s = play_out(
        &g,
        play(&g, scn.state(&g), &pre),
        &[Action::RemakeChoice { obj: Obj::Unit(1) }],
    );
    assert_eq!(
        count(&s, |e| matches!(e, Event::Triggered { source: 1, .. })),
        1
    );
    assert_eq!(
        count(&s, |e| matches!(e, Event::CostDetermined { item: 0, .. })),
        1,
        "no new cost (755)"
    );
    let s = play_out(
        &g,
        play(&g, scn.state(&g), &pre),
        &[Action::RemakeChoice { obj: Obj::Unit(2) }],
    );
    assert_eq!(
        count(&s, |e| matches!(e, Event::DeflectAdded { .. })),
        0,
        "755: Deflect ignored"
    );
    assert_eq!(s.units[2].damage, 4);
}

/// 402.1 vs v1.3: when a trigger's "you may" is decided, seen in the order of events.
#[test]
fn trigger_may_timing_differs_between_versions() {
    for (v, decided_first) in [(Version::V1_3, true), (Version::Rup4, false)] {
        let g = game(v);
        let mut scn = Scn::new(&g, "Downstage Dramatics", pool(0, &[]))
            .unit(&g, "Vendetta Duelist", YOU, Location::Battlefield(0))
            .unit(&g, "Sturdy Dummy", OPP, Location::Battlefield(0));
        scn.setup.attack_trigger = Some(0);
        let s = play(
            &g,
            scn.state(&g),
            &[Action::DecideOptional { accept: true }],
        );
        let d = pos(&s, |e| matches!(e, Event::OptionalDecided { .. }));
        let m = pos(&s, |e| matches!(e, Event::MovedToChain { .. }));
        assert_eq!(d < m, decided_first, "{v:?}");
    }
}

/// 355.8: with no legal target for the only mode, the play cannot proceed and is undone.
#[test]
fn no_legal_target_undoes_the_play() {
    let g = game(Version::Rup4);
    let s = play_out(
        &g,
        Scn::new(&g, "Hidden Blade", pool(2, &[(Domain::Order, 1)])).state(&g),
        &[cast()],
    );
    assert!(s.log.iter().any(|e| matches!(
        e,
        Event::PlayCancelled {
            why: CancelWhy::NoLegalChoice,
            ..
        }
    )));
}

/// Syndra grants [Repeat] [2][P] in a showdown; Temporal Portal's grant (the printed cost, 206)
/// stacks with the printed instance (820.1.c.2); 358.4: a spell without [Action] cannot start a
/// chain in a showdown.
#[test]
fn granted_instances_stack_with_printed_ones() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Desert's Call", pool(8, &[]));
    scn.setup.showdown = true;
    assert!(
        enabled(&g, &scn.state(&g)).is_empty(),
        "Desert's Call has no [Action]"
    );

    let mut scn = Scn::new(
        &g,
        "Bellows Breath",
        pool(8, &[(Domain::Mind, 3), (Domain::Chaos, 1)]),
    )
    .unit(&g, "Syndra, Transcendent", YOU, Location::Battlefield(0))
    .unit(&g, "Sturdy Dummy", OPP, Location::Base(OPP))
    .portal();
    scn.setup.showdown_at = Some(0);
    let s = play(&g, scn.state(&g), &[cast()]);
    let item = &s.chain[0];
    assert_eq!(
        item.repeat.len(),
        3,
        "printed [1][B], Portal [1][B], Syndra [2][P]"
    );
    let mut script = vec![rep(0, true), rep(1, true), rep(2, true)];
    for e in 0..4 {
        script.push(tgt(e, 0, Obj::Unit(1)));
        script.push(Action::EndTargets { exec: e, slot: 0 });
    }
    let s = play_out(&g, s, &script);
    assert_eq!(
        count(&s, |e| matches!(e, Event::Damaged { unit: 1, .. })),
        4
    );
    assert_eq!(s.players[0].pool.energy, 8 - 5);
}

/// Takes the enabled action while there is exactly one and `stop` does not hold.
fn step_until(g: &model::Game, mut s: State, stop: impl Fn(&[Action]) -> bool) -> State {
    loop {
        let acts = enabled(g, &s);
        if stop(&acts) || acts.len() != 1 {
            return s;
        }
        s = g.next_state(&s, &acts[0]).unwrap();
    }
}

/// The guide (seed 000): "if you use [new choices], all resulting choices must be legal". With a
/// target killed in response and nothing legal to replace it, only declining is possible, and
/// the play still ends (found by `rbcheck diff rup4 guide`: the model used to get stuck).
#[test]
fn guide_new_choices_with_no_legal_replacement_can_only_be_declined() {
    let g = game(Version::Guide);
    // Execution 1 kills the gear (still legal later), execution 2 deals 4 to the unit, which the
    // opponent kills in response; after gaining control no unit is left at a base.
    let mut scn = Scn::new(&g, "Rocket Barrage", rb_pool())
        .unit(&g, "Practice Dummy", OPP, Location::Base(OPP))
        .gear(&g, "Spare Gear", OPP);
    scn.setup.players[1].hand = vec![id(&g, "Swift Execution"), id(&g, "Mystic Reversal")];
    scn.setup.players[1].pool = pool(8, &[(Domain::Calm, 3)]);
    let script = [
        cast(),
        rep(0, true),
        mode(0, 1),
        mode(1, 0),
        Action::Pass,
        Action::MoveToChain {
            player: OPP,
            hand: 0,
        },
        Action::Pass,
        Action::Pass,
        Action::Pass,
        Action::MoveToChain {
            player: OPP,
            hand: 0,
        },
    ];
    let mut s = scn.state(&g);
    for a in &script {
        s = step_until(&g, s, |acts| acts.contains(a));
        s = g.next_state(&s, a).unwrap();
    }
    // Pass until Mystic Reversal's new choices begin.
    let mut s = step_until(&g, s, |acts| !acts.contains(&Action::Pass));
    while !matches!(s.log.last(), Some(Event::NewChoicesBegun { .. })) {
        let acts = enabled(&g, &s);
        assert!(!acts.is_empty(), "ended before new choices: {:?}", s.log);
        let a = if acts.contains(&Action::Pass) {
            Action::Pass
        } else {
            acts[0]
        };
        s = g.next_state(&s, &a).unwrap();
    }
    // Keeping the gear would lead to a choice with no legal option: only declining is allowed.
    assert_eq!(
        enabled(&g, &s),
        vec![Action::DeclineNewChoices],
        "{:?}",
        &s.log[s.log.len().saturating_sub(8)..]
    );
    let s = play_out(&g, s, &[Action::DeclineNewChoices]);
    assert!(s.is_over());
    assert_eq!(
        s.gear[0].zone,
        Zone::Trash,
        "the declined choices stand: the gear is killed"
    );
}
