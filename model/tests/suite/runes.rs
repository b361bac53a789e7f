//! Paying with runes (164.2, 357.1.a) and undoing a payment (358.5): Power comes from recycling a
//! rune of the right domain, Energy from exhausting one, an optional cost discounted to 0 needs no
//! rune and still counts as paid (356.4.f.1), a failed payment gives every rune back, and Find
//! Your Center channels the top rune of the rune deck.

use super::common;
use common::*;
use model::action::Action;
use model::cost::{Cost, Domain};
use model::rulebook::{Rulebook, Version};
use model::setup::Setup;
use model::state::*;

/// `ready` and `exhausted` runes per domain, and a rune deck, for a setup.
fn runes(ready: &[(Domain, u8)], exhausted: &[(Domain, u8)], deck: &[Domain]) -> RunesSetup {
    let mut r = RunesSetup {
        deck: deck.to_vec(),
        ..Default::default()
    };
    for (d, n) in ready {
        r.ready[*d as usize] = *n;
    }
    for (d, n) in exhausted {
        r.exhausted[*d as usize] = *n;
    }
    r
}

fn with_runes(mut setup: Setup, r: RunesSetup) -> Setup {
    setup.players[0].runes = Some(r);
    setup
}

fn your_runes(s: &State) -> &Runes {
    s.players[0].runes.as_ref().expect("you have runes")
}

/// Plays `script` up to the payment step (357) of the item being played, and then the rest of the
/// script's rune steps one at a time: a step with one option is taken only before the payment,
/// so that what the payment offers can be looked at.
fn to_payment(g: &model::game::Game, mut s: State, script: &[Action]) -> State {
    let mut script = script.iter();
    let mut next = script.next();
    loop {
        let paying = s.chain.iter().any(|i| i.phase == Phase::Costed);
        let acts = enabled(g, &s);
        let a = match next {
            Some(a) if acts.contains(a) => {
                next = script.next();
                *a
            }
            None if paying => return s,
            _ if acts.len() == 1 && !paying => acts[0],
            _ => panic!("{next:?} not enabled: {acts:?}"),
        };
        s = g.next_state(&s, &a).unwrap();
    }
}

const CHAOS: usize = Domain::Chaos as usize;
const FURY: usize = Domain::Fury as usize;

#[test]
fn a_power_cost_is_paid_by_recycling_a_rune_of_its_domain() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Called Shot", Cost::ZERO);
    scn.setup = with_runes(
        scn.setup,
        runes(&[(Domain::Fury, 2), (Domain::Chaos, 1)], &[], &[]),
    );
    // Called Shot is [P] and its [Repeat] [P]: two Chaos.
    // Only Chaos runes add [P]: a Fury rune is never offered, and there is one Chaos rune.
    let s = to_payment(&g, scn.state(&g), &[cast(), rep(0, true)]);
    assert_eq!(
        enabled(&g, &s),
        vec![Action::RecycleRune {
            domain: Domain::Chaos
        }]
    );
    let s = to_payment(
        &g,
        s,
        &[Action::RecycleRune {
            domain: Domain::Chaos,
        }],
    );
    // One [P] short and no Chaos rune left: the play is undone, and the Chaos rune comes back.
    assert_eq!(
        enabled(&g, &s),
        vec![Action::CancelPlay {
            why: CancelWhy::CannotPay
        }]
    );
    // Skipping the [Repeat]: one Chaos rune recycled, the Fury runes untouched, nothing floats.
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            cast(),
            rep(0, false),
            Action::RecycleRune {
                domain: Domain::Chaos,
            },
            pay(),
        ],
    );
    let r = your_runes(&s);
    assert_eq!(
        (r.ready[FURY], r.ready[CHAOS], r.exhausted[CHAOS]),
        (2, 0, 0)
    );
    assert_eq!(&r.deck[..], &[Domain::Chaos], "recycled to the rune deck");
    assert_eq!(s.players[0].pool, Cost::ZERO);
    assert_eq!(
        count(&s, |e| matches!(
            e,
            Event::RuneRecycled {
                domain: Domain::Chaos,
                ready: true,
                ..
            }
        )),
        1
    );
}

#[test]
fn energy_comes_from_exhausting_and_an_exhausted_rune_is_recycled_first() {
    let g = game(Version::Rup4);
    // Hidden Blade is [2][Y]: exhaust two Order runes for [2], then recycle one for [Y]; the
    // recycled rune is an exhausted one, so one Order rune stays ready.
    let mut scn = Scn::new(&g, "Hidden Blade", Cost::ZERO).unit(
        &g,
        "Practice Dummy",
        OPP,
        model::state::Location::Battlefield(0),
    );
    scn.setup = with_runes(scn.setup, runes(&[(Domain::Order, 3)], &[], &[]));
    let order = Domain::Order;
    let s = to_payment(
        &g,
        scn.state(&g),
        &[
            cast(),
            tgt(0, 0, Obj::Unit(0)),
            Action::ExhaustRune { domain: order },
            Action::ExhaustRune { domain: order },
        ],
    );
    // Energy is paid for: no more exhausting, only recycling for the [Y].
    assert_eq!(enabled(&g, &s), vec![Action::RecycleRune { domain: order }]);
    let s = play(&g, s, &[Action::RecycleRune { domain: order }, pay()]);
    let r = your_runes(&s);
    let o = order as usize;
    assert_eq!((r.ready[o], r.exhausted[o], r.deck.len()), (1, 1, 1));
    assert_eq!(s.players[0].pool, Cost::ZERO);
}

#[test]
fn a_failed_payment_gives_back_every_rune_it_used() {
    let scenario = |g: &model::game::Game| {
        let mut scn = Scn::new(g, "Find Your Center", Cost::energy(1));
        // [3] to pay: the pool's [1] and two Fury runes would do, but there is one.
        scn.setup = with_runes(
            scn.setup,
            runes(&[(Domain::Fury, 1)], &[(Domain::Calm, 1)], &[Domain::Mind]),
        );
        scn.state(g)
    };
    let g = game(Version::Rup4);
    let start = scenario(&g);
    let s = to_payment(
        &g,
        start.clone(),
        &[
            cast(),
            Action::ExhaustRune {
                domain: Domain::Fury,
            },
        ],
    );
    assert_eq!(your_runes(&s).exhausted[FURY], 1);
    assert_eq!(s.players[0].pool.energy, 2);
    let s = play_out(&g, s, &[]);
    assert_eq!(
        count(&s, |e| matches!(
            e,
            Event::PlayCancelled {
                why: CancelWhy::CannotPay,
                ..
            }
        )),
        1
    );
    assert_eq!(your_runes(&s), your_runes(&start), "358.5: nothing spent");
    assert_eq!(s.players[0].pool, Cost::energy(1));
    // The wrong edit keeps the rune exhausted: this test's assertion fails under it.
    let wrong = game_with(Rulebook {
        undo_gives_back_runes: false,
        ..Rulebook::preset(Version::Rup4)
    });
    let s = play_out(
        &wrong,
        scenario(&wrong),
        &[
            cast(),
            Action::ExhaustRune {
                domain: Domain::Fury,
            },
        ],
    );
    assert_ne!(your_runes(&s), your_runes(&start));
}

#[test]
fn an_optional_cost_discounted_to_zero_needs_no_rune_and_is_still_paid() {
    let g = game(Version::Rup4);
    // Ezreal makes Clockwork Keeper's optional [G] cost [A] less: 0. The [2] comes from two
    // runes; no Calm rune is recycled, and the Keeper still draws (356.4.f.1).
    let mut scn = Scn::new(&g, "Clockwork Keeper", Cost::ZERO).unit(
        &g,
        "Ezreal, Prodigy",
        YOU,
        model::state::Location::Base(YOU),
    );
    scn.setup = with_runes(scn.setup, runes(&[(Domain::Calm, 2)], &[], &[]));
    let s = play_out(
        &g,
        scn.state(&g),
        &[
            cast(),
            Action::DeclareOptionalCost {
                index: 0,
                pay: true,
            },
            Action::ExhaustRune {
                domain: Domain::Calm,
            },
            Action::ExhaustRune {
                domain: Domain::Calm,
            },
            pay(),
        ],
    );
    let r = your_runes(&s);
    let c = Domain::Calm as usize;
    assert_eq!((r.ready[c], r.exhausted[c], r.deck.len()), (0, 2, 0));
    assert_eq!(count(&s, |e| matches!(e, Event::RuneRecycled { .. })), 0);
    assert_eq!(count(&s, |e| matches!(e, Event::Drew { n: 1, .. })), 1);
}

#[test]
fn find_your_center_channels_the_top_rune_of_the_rune_deck() {
    let g = game(Version::Rup4);
    let mut scn = Scn::new(&g, "Find Your Center", Cost::energy(3));
    scn.setup = with_runes(scn.setup, runes(&[], &[], &[Domain::Calm, Domain::Fury]));
    let s = play_out(&g, scn.state(&g), &[cast(), pay()]);
    let r = your_runes(&s);
    assert_eq!(r.exhausted[Domain::Calm as usize], 1);
    assert_eq!(r.exhausted[FURY], 0);
    assert_eq!(&r.deck[..], &[Domain::Fury]);
    assert_eq!(s.players[0].runes_exhausted, 1);
    // An empty rune deck channels nothing.
    let mut scn = Scn::new(&g, "Find Your Center", Cost::energy(3));
    scn.setup = with_runes(scn.setup, RunesSetup::default());
    let s = play_out(&g, scn.state(&g), &[cast(), pay()]);
    assert_eq!(s.players[0].runes_exhausted, 0);
    assert_eq!(count(&s, |e| matches!(e, Event::RuneChannelled { .. })), 0);
}

#[test]
fn a_pool_only_player_is_offered_no_rune_step() {
    let g = game(Version::Rup4);
    let scn = Scn::new(&g, "Find Your Center", Cost::energy(1));
    let s = to_payment(&g, scn.state(&g), &[cast()]);
    assert_eq!(
        enabled(&g, &s),
        vec![Action::CancelPlay {
            why: CancelWhy::CannotPay
        }]
    );
}
