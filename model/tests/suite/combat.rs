//! Units' combat statuses and Might: each test reads the board or the event log after a
//! play, and each would fail if its rule were implemented wrongly; where a rulebook option flips the
//! rule, the test shows both sides.

use super::common;
use common::*;
use model::rulebook::{InShowdown, Rulebook, Version};
use model::state::*;

fn attacking() -> UnitStatus {
    UnitStatus {
        combat: Combat::Attacking,
        ..UnitStatus::default()
    }
}

/// A scenario with `card` in hand and a showdown at battlefield 1.
fn in_showdown(g: &model::Game, card: &str) -> Scn {
    let mut scn = Scn::new(g, card, pool(8, &[(model::Domain::Chaos, 2)]));
    scn.setup.showdown_at = Some(0);
    scn
}

/// 807.2: two grants of [Assault 2] sum to [Assault 4]; 807.1.c: +4 Might only while attacking.
#[test]
fn assault_grants_are_summed_and_count_only_while_attacking() {
    let g = game(Version::Rup4);
    let mut scn = in_showdown(&g, "Blood Rush")
        .unit(&g, "Practice Dummy", YOU, Location::Battlefield(0))
        .unit(&g, "Practice Dummy", YOU, Location::Base(YOU));
    scn.setup.units[0].status = attacking();
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, true),
            tgt(0, 0, Obj::Unit(0)),
            tgt(1, 0, Obj::Unit(0)),
        ],
    );
    assert_eq!(s.units[0].status.assault, 4);
    assert_eq!(s.units[0].current_might(), 6);
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, true),
            tgt(0, 0, Obj::Unit(1)),
            tgt(1, 0, Obj::Unit(1)),
        ],
    );
    assert_eq!(s.units[1].status.assault, 4);
    assert_eq!(s.units[1].current_might(), 2, "not an attacker: no Might");
}

/// 423.1.a.1: a stunned unit is not stunned again; Existential Dread returns it to its owner's hand
/// instead, a new object with its statuses cleared (124, 124.1).
#[test]
fn stun_then_return_to_owners_hand() {
    let g = game(Version::Rup4);
    let mut scn = in_showdown(&g, "Existential Dread").unit(
        &g,
        "Practice Dummy",
        OPP,
        Location::Battlefield(0),
    );
    scn.setup.units[0].status = attacking();
    scn.setup.units[0].owner = Some(YOU);
    let script = [
        cast(),
        rep(0, true),
        tgt(0, 0, Obj::Unit(0)),
        tgt(1, 0, Obj::Unit(0)),
    ];
    let s = play_out(&g, scn.state(&g), &script);
    assert_eq!(s.units[0].zone, Zone::Hand);
    assert_eq!(s.units[0].status, UnitStatus::default());
    assert_eq!(count(&s, |e| matches!(e, Event::Stunned { .. })), 1);
    let dummy = id(&g, "Practice Dummy");
    assert!(s.players[0].hand.contains(&dummy), "to its owner's hand");
    assert!(!s.players[1].hand.contains(&dummy), "not its controller's");
    // Thwonk! on the same unit twice stuns it once and ignores the second execution.
    let mut scn =
        in_showdown(&g, "Thwonk!").unit(&g, "Practice Dummy", OPP, Location::Battlefield(0));
    scn.setup.units[0].status = attacking();
    let s = play_out(&g, scn.state(&g), &script);
    assert!(s.units[0].status.stunned);
    assert_eq!(s.units[0].zone, Zone::Board);
    assert_eq!(
        count(&s, |e| matches!(
            e,
            Event::Ignored {
                exec: 1,
                why: IgnoredWhy::Impossible,
                ..
            }
        )),
        1
    );
}

/// 415.1, 415.1.b: readying an exhausted unit; a ready one is not readied again.
#[test]
fn ready_an_exhausted_unit_once() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Upstage Comedy", pool(4, &[])).unit(
        &g,
        "Practice Dummy",
        YOU,
        Location::Base(YOU),
    );
    scn.setup.units[0].status.exhausted = true;
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, true),
            tgt(0, 0, Obj::Unit(0)),
            tgt(1, 0, Obj::Unit(0)),
        ],
    );
    assert!(!s.units[0].status.exhausted);
    assert_eq!(count(&s, |e| matches!(e, Event::Readied { .. })), 1);
}

/// 417.6.b.3: each deals damage equal to its Might to the other, both read before either is dealt.
#[test]
fn mights_to_each_other_reads_both_mights_first() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Marching Orders", pool(3, &[]))
        .unit(&g, "Sturdy Dummy", YOU, Location::Base(YOU))
        .unit(&g, "Practice Dummy", OPP, Location::Battlefield(0));
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, false),
            tgt(0, 0, Obj::Unit(0)),
            tgt(0, 1, Obj::Unit(1)),
        ],
    );
    assert_eq!(s.units[0].damage, 2, "the enemy's Might");
    assert_eq!(s.units[1].damage, 4, "your unit's Might");
    assert_eq!(s.units[1].zone, Zone::Trash);
    assert_eq!(s.units[0].zone, Zone::Board);
}

/// "Give your Mechs +1": every Mech you control, no other unit, not targeted (355.10.d).
#[test]
fn group_by_tag_is_yours_and_tagged_only() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Danger Zone", pool(4, &[(model::Domain::Fury, 2)]))
        .unit(&g, "Scrap Mech", YOU, Location::Base(YOU))
        .unit(&g, "Scrap Mech", OPP, Location::Base(OPP))
        .unit(&g, "Practice Dummy", YOU, Location::Base(YOU));
    let s = play_out(&g, scn.state(&g), &[cast(), rep(0, true)]);
    let m: Vec<u8> = s.units.iter().map(|u| u.current_might()).collect();
    assert_eq!(m, vec![4, 2, 2]);
    assert_eq!(count(&s, |e| matches!(e, Event::TargetChosen { .. })), 0);
}

/// 323.5 read from the board: Might falling to the damage kills in the next cleanup, and damage
/// already lethal in the setup kills before anything resolves.
#[test]
fn cleanup_reads_lethal_damage_from_the_board() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Frigid Touch", pool(4, &[])).unit(
        &g,
        "Sturdy Dummy",
        OPP,
        Location::Battlefield(0),
    );
    scn.setup.units[0].damage = 1;
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, true),
            tgt(0, 0, Obj::Unit(0)),
            tgt(1, 0, Obj::Unit(0)),
        ],
    );
    assert_eq!(s.units[0].zone, Zone::Trash);
    // The cleanup comes after the resolution (321), not between executions.
    let died = pos(&s, |e| {
        matches!(
            e,
            Event::ZoneChange {
                to: Zone::Trash,
                ..
            }
        )
    });
    let resolved = pos(&s, |e| matches!(e, Event::Resolved { .. }));
    assert!(died > resolved);
    let mut scn = Scn::new(&g, "Feral Strength", pool(2, &[]))
        .unit(&g, "Practice Dummy", OPP, Location::Base(OPP))
        .unit(&g, "Practice Dummy", YOU, Location::Base(YOU));
    scn.setup.units[0].damage = 2;
    let s0 = scn.state(&g);
    assert_eq!(enabled(&g, &s0), vec![model::action::Action::Cleanup]);
    let s = g.next_state(&s0, &model::action::Action::Cleanup).unwrap();
    assert_eq!(s.units[0].zone, Zone::Trash, "lethal in the setup");
    assert_eq!(s.priority, Some(YOU), "and the turn player can still play");
    assert!(enabled(&g, &s).contains(&cast()));
}

/// Syndra's "while I'm in a showdown" under each reading of the rulebook option.
#[test]
fn syndra_in_showdown_follows_the_rulebook_option() {
    let instances = |opt: InShowdown, loc: Location, status: UnitStatus| {
        let g = game_with(Rulebook {
            in_showdown: opt,
            ..Rulebook::preset(Version::Rup4)
        });
        let mut scn = in_showdown(&g, "Bellows Breath").unit(&g, "Syndra, Transcendent", YOU, loc);
        scn.setup.units[0].status = status;
        let s = play(&g, scn.state(&g), &[cast()]);
        s.chain[0].repeat.len()
    };
    let (base, bf) = (Location::Base(YOU), Location::Battlefield(0));
    let none = UnitStatus::default();
    assert_eq!(instances(InShowdown::AtBattlefield, base, none), 1);
    assert_eq!(instances(InShowdown::AtBattlefield, bf, none), 2);
    assert_eq!(instances(InShowdown::Anywhere, base, none), 2);
    assert_eq!(instances(InShowdown::Designated, bf, none), 1);
    assert_eq!(instances(InShowdown::Designated, bf, attacking()), 2);
    assert_eq!(
        Rulebook::preset(Version::Rup4).in_showdown,
        InShowdown::AtBattlefield
    );
}
