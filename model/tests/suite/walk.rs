//! Random walks over the transitions from generated items, boards and rulebooks: no step panics,
//! every enabled action applies, and every walk ends with the chain closed (the only way a walk
//! ends, an undone illegal play included).

use model::action::Action;
use model::card::*;
use model::catalogue::Catalogue;
use model::cost::Cost;
use model::game::Game;
use model::rulebook::{Rulebook, Version};
use model::setup::*;
use model::state::{Event, Location, Player};
use proptest::prelude::*;

fn target(kind: TargetKind, at: Place, side: Side, count: u8, up_to: bool) -> Option<TargetSpec> {
    Some(TargetSpec {
        count,
        up_to,
        same_location: count > 1,
        ..TargetSpec::one(kind, at, side)
    })
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        Just(Place::Anywhere),
        Just(Place::Base),
        Just(Place::Battlefield)
    ]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Any), Just(Side::Enemy), Just(Side::Friendly)]
}

/// One or two instructions: a targeted one, optionally followed by a linked one.
fn instructions() -> impl Strategy<Value = Vec<Instruction>> {
    let first = prop_oneof![
        (1u8..5, place(), side(), 1u8..3, any::<bool>()).prop_map(|(n, at, sd, c, up)| {
            Instruction {
                effect: Effect::Deal(n),
                target: target(TargetKind::Unit, at, sd, c, up),
            }
        }),
        (place(), side()).prop_map(|(at, sd)| Instruction {
            effect: Effect::Kill,
            target: target(TargetKind::Unit, at, sd, 1, false)
        }),
        side().prop_map(|sd| Instruction {
            effect: Effect::Kill,
            target: target(TargetKind::Gear, Place::Anywhere, sd, 1, false)
        }),
        (1u8..3).prop_map(|n| Instruction {
            effect: Effect::Draw(n),
            target: None
        }),
        (1u8..4).prop_map(|n| Instruction {
            effect: Effect::PlayToken(n),
            target: None
        }),
        (-3i8..4, side()).prop_map(|(n, sd)| Instruction {
            effect: Effect::GiveMight(n),
            target: target(TargetKind::Unit, Place::Anywhere, sd, 1, false)
        }),
        (side(), any::<bool>()).prop_map(|(sd, same)| Instruction {
            effect: Effect::Move(if same {
                Destination::WithSameController
            } else {
                Destination::Anywhere
            }),
            target: target(TargetKind::Unit, Place::Anywhere, sd, 1, false),
        }),
    ];
    let second = prop_oneof![
        Just(None),
        (1u8..3).prop_map(|n| Some(Instruction {
            effect: Effect::ItsControllerDraws(n),
            target: None
        })),
        Just(Some(Instruction {
            effect: Effect::BanishSelf,
            target: None
        })),
        (1u8..2).prop_map(|n| Some(Instruction {
            effect: Effect::Draw(n),
            target: None
        })),
    ];
    (first, second).prop_map(|(a, b)| {
        let mut v = vec![a];
        if let Some(b) = b {
            if !(matches!(b.effect, Effect::ItsControllerDraws(_)) && a.target.is_none()) {
                v.push(b);
            }
        }
        v
    })
}

fn repeat_cost() -> impl Strategy<Value = RepeatCost> {
    prop_oneof![
        (0u8..4).prop_map(|e| RepeatCost::Pay(Cost::energy(e))),
        (0u8..3, 0u8..2).prop_map(|(e, p)| RepeatCost::Pay(Cost {
            energy: e,
            power: [0, 0, p, 0, 0, 0],
            any: 0,
            own: 0
        })),
        (0u8..2).prop_map(|a| RepeatCost::Pay(Cost {
            energy: 1,
            power: [0; 6],
            any: a,
            own: 0
        })),
        Just(RepeatCost::Discard(1)),
    ]
}

fn item() -> impl Strategy<Value = CardDef> {
    (
        proptest::collection::vec(instructions(), 1..4),
        proptest::collection::vec(repeat_cost(), 0..4),
        any::<bool>(),
        0u8..4,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(modes, repeat, distinct, energy, discount, as_you_play)| CardDef {
                name: "Generated".into(),
                code: String::new(),
                kind: CardKind::Spell,
                domains: vec![model::Domain::Mind],
                cost: Cost::energy(energy),
                timing: Timing::Action,
                repeat,
                discount: discount.then_some(SelfDiscount {
                    energy: 2,
                    when: Condition::Always,
                    per: model::card::Per::Once,
                    min: energy % 2,
                }),
                optional: false,
                optional_costs: vec![],
                additional_costs: vec![],
                as_you_play: if as_you_play {
                    vec![Instruction {
                        effect: Effect::Draw(1),
                        target: None,
                    }]
                } else {
                    vec![]
                },
                modes: modes
                    .into_iter()
                    .map(|instructions| Mode {
                        text: String::new(),
                        instructions,
                    })
                    .collect(),
                distinct_modes: distinct,
                might: 0,
                abilities: vec![],
                tags: vec![],
                synthetic: true,
                source: "generated".into(),
                printed: Default::default(),
            },
        )
}

const UNITS: [&str; 9] = [
    "Practice Dummy",
    "Sturdy Dummy",
    "Pouty Poro",
    "Volibear, Furious",
    "Watchful Sentry",
    "Spellwatcher",
    "Ezreal, Prodigy",
    "Syndra, Transcendent",
    "Vendetta Duelist",
];
const REACTIONS: [&str; 6] = [
    "Defy",
    "Wind Wall",
    "Swift Execution",
    "Sidestep",
    "Mystic Reversal",
    "Frigid Touch",
];

#[derive(Debug, Clone)]
struct Board {
    units: Vec<(usize, bool, u8)>,
    gear: Vec<bool>,
    spire: bool,
    portal: bool,
    showdown: bool,
    opp: Vec<usize>,
    energy: u8,
    power: u8,
    attack_trigger: bool,
}

fn board() -> impl Strategy<Value = Board> {
    (
        proptest::collection::vec((0..UNITS.len(), any::<bool>(), 0u8..3), 0..5),
        proptest::collection::vec(any::<bool>(), 0..3),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        proptest::collection::vec(0..REACTIONS.len(), 0..3),
        0u8..12,
        0u8..4,
        any::<bool>(),
    )
        .prop_map(
            |(units, gear, spire, portal, showdown, opp, energy, power, attack_trigger)| Board {
                units,
                gear,
                spire,
                portal,
                showdown,
                opp,
                energy,
                power,
                attack_trigger,
            },
        )
}

fn rulebook() -> impl Strategy<Value = Rulebook> {
    (0usize..4, any::<u8>()).prop_map(|(v, edits)| {
        let mut r = Rulebook::preset(Version::ALL[v]);
        // Wrong edits too: the model must stay total under any rulebook.
        r.payments_per_instance = 1 + (edits & 1);
        r.window_between_executions = edits & 2 != 0;
        r.refund_on_counter = edits & 4 != 0;
        r.play_event_per_execution = edits & 8 != 0;
        r.new_choices_reopen_repeat = edits & 16 != 0;
        r.zero_cost_counts_as_paid = edits & 32 == 0;
        r.discount_per_execution = edits & 64 != 0;
        r.illegal_targets = if edits & 128 != 0 {
            model::rulebook::IllegalTargets::AffectedAnyway
        } else {
            model::rulebook::IllegalTargets::Ignored
        };
        r
    })
}

fn scenario(g: &Game, b: &Board, item: u16) -> Setup {
    let id = |n: &str| g.card_named(n).unwrap();
    let mut s = Setup {
        battlefields: vec![BattlefieldSetup::default(), BattlefieldSetup::default()],
        ..Setup::default()
    };
    if b.spire {
        s.battlefields[0] = BattlefieldSetup {
            card: Some(id("Marai Spire")),
            controller: Some(Player::YOU),
        };
    }
    for (u, mine, loc) in &b.units {
        let p = if *mine { Player::YOU } else { Player::OPP };
        let loc = match loc {
            0 => Location::Base(p),
            n => Location::Battlefield(n - 1),
        };
        s.units.push(UnitSetup {
            card: id(UNITS[*u]),
            controller: p,
            loc,
            damage: 0,
            owner: None,
            status: Default::default(),
        });
    }
    for mine in &b.gear {
        s.gear.push(GearSetup {
            card: id("Spare Gear"),
            controller: if *mine { Player::YOU } else { Player::OPP },
        });
    }
    let mut pool = Cost::energy(b.energy);
    pool.power[model::Domain::Mind as usize] = b.power;
    pool.power[model::Domain::Chaos as usize] = b.power / 2;
    s.players[0] = PlayerSetup {
        pool,
        hand: vec![item],
        hand_other: 2,
        deck: 6,
        portal_charged: b.portal,
        ..Default::default()
    };
    let mut opp_pool = Cost::energy(6);
    opp_pool.power[model::Domain::Calm as usize] = 3;
    opp_pool.power[model::Domain::Order as usize] = 1;
    s.players[1] = PlayerSetup {
        pool: opp_pool,
        hand: b.opp.iter().map(|r| id(REACTIONS[*r])).collect(),
        hand_other: 2,
        deck: 6,
        ..Default::default()
    };
    s.showdown = b.showdown;
    if b.attack_trigger {
        if let Some(i) = b
            .units
            .iter()
            .position(|(u, mine, _)| UNITS[*u] == "Vendetta Duelist" && *mine)
        {
            s.attack_trigger = Some(i as u8);
        }
    }
    s
}

/// The game with the generated item added to the catalogue, and the scenario's initial state.
fn start(def: CardDef, b: &Board, rules: Rulebook) -> (Game, model::state::State) {
    let mut cards = Catalogue::builtin().cards;
    cards.push(def);
    let g = Game::new(rules, cards);
    let generated = g.card_named("Generated").unwrap();
    let s = g.initial_state(&scenario(&g, b, generated)).unwrap();
    (g, s)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_walks_never_panic_and_always_close_the_chain(
        def in item(),
        b in board(),
        rules in rulebook(),
        picks in proptest::collection::vec(any::<u32>(), 200),
    ) {
        // Every [Repeat] instance the item can have (its own, Temporal Portal's grant, Marai
        // Spire's), each paid as often as the rulebook lets, each payment adding its executions.
        let instances = def.repeat.len() + usize::from(b.portal) + usize::from(b.spire);
        let most = 1 + instances
            * usize::from(rules.payments_per_instance)
            * usize::from(rules.executions_per_instance);
        let (g, mut s) = start(def, &b, rules);
        let mut acts: Vec<Action> = vec![];
        let mut steps = 0;
        loop {
            acts.clear();
            g.actions(&s, &mut acts);
            if acts.is_empty() {
                break;
            }
            let a = acts[picks[steps % picks.len()] as usize % acts.len()];
            let next = g.next_state(&s, &a);
            prop_assert!(next.is_some(), "enabled action {:?} did not apply", a);
            let next = next.unwrap();
            prop_assert!(next.log.len() > s.log.len(), "{:?} logged nothing", a);
            s = next;
            steps += 1;
            prop_assert!(steps < 2000, "walk did not end: {:?}", &s.log[s.log.len().saturating_sub(20)..]);
        }
        prop_assert!(s.is_over(), "stuck with the chain open: {:?}", s.chain);
        prop_assert!(s.chain.is_empty());
        // The generated card's item: with an attack trigger on the board, item 0 is the trigger.
        let item = s.log.iter().find_map(|e| match e {
            Event::MovedToChain { item, card, .. } if g.card(*card).name == "Generated" => Some(*item),
            _ => None,
        });
        let execs = s
            .log
            .iter()
            .filter(|e| matches!(e, Event::ExecutionStarted { item: i, .. } if Some(*i) == item))
            .count();
        prop_assert!(execs <= most, "{} executions, at most {}", execs, most);
    }
}

/// A clause the model cites, or one it applies by refusing a step or heads (the digest numbers it
/// does not cite, with that stance).
fn known(clause: &str) -> bool {
    use model::coverage::uncited::{Stance, UNCITED};
    model::coverage::clause_index(clause).is_some()
        || UNCITED
            .iter()
            .any(|(c, st, _)| *c == clause && matches!(st, Stance::Refusal | Stance::Heading))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// The model's refusals agree with its guards: a step is refused exactly when it is not
    /// offered, every refusal cites a clause of the model's table (or the scenario's own play
    /// limit), and a second payment of a [Repeat] instance the log shows paid is refused by
    /// 820.1.c.3 while the item's choices are made, when the rulebook allows one payment per instance.
    #[test]
    fn refusals_agree_with_the_guards_and_cite_known_clauses(
        def in item(),
        b in board(),
        rules in rulebook(),
        picks in proptest::collection::vec(any::<u32>(), 200),
    ) {
        let once = rules.payments_per_instance == 1;
        let (g, mut s) = start(def, &b, rules);
        let mut acts: Vec<Action> = vec![];
        // Every step offered anywhere in the walk, probed in every state of it.
        let mut seen: Vec<Action> = vec![
            Action::Pass,
            Action::EndTurn,
            Action::DetermineTotalCost,
            Action::DeclareRepeat { instance: 0, pay: true },
            Action::DeclareRepeat { instance: 3, pay: true },
        ];
        for step in 0..2000 {
            acts.clear();
            g.actions(&s, &mut acts);
            for a in &acts {
                if !seen.contains(a) {
                    seen.push(*a);
                }
            }
            for a in &seen {
                let refusal = g.refusal(&s, a);
                prop_assert_eq!(refusal.is_none(), acts.contains(a), "{:?}", a);
                let Some(r) = refusal else { continue };
                // A step that is not due cites the step's own rule, which the step's tests check.
                let own = matches!(r, model::game::Refusal::NotDue { .. }) && r.rule() == a.rule();
                prop_assert!(
                    own || r.rule() == "turn plays" || known(r.rule()),
                    "{:?} refused citing {}, a clause neither table of the model accounts for", a, r.rule()
                );
                prop_assert!(!r.to_string().is_empty());
                if let (true, Action::DeclareRepeat { instance, pay: true }) = (once, *a) {
                    // Declared paid since the item being played was put on the chain (an
                    // undone play of the same id before it does not count).
                    // While its choices are made, when Repeat is declared.
                    let pending = s
                        .chain
                        .iter()
                        .find(|c| c.phase == model::state::Phase::Choosing)
                        .map(|c| c.id);
                    let from = s.log.iter().rposition(|e| {
                        matches!(*e, Event::PlayCancelled { item, .. } if Some(item) == pending)
                    }).map_or(0, |p| p + 1);
                    let paid = s.log[from..].iter().any(|e| matches!(
                        *e,
                        Event::RepeatDeclared { item, instance: i, pay: true }
                            if i == instance && Some(item) == pending
                    ));
                    if paid {
                        prop_assert_eq!(r.rule(), "820.1.c.3", "{}", r);
                    }
                }
            }
            if acts.is_empty() {
                break;
            }
            let a = acts[picks[step % picks.len()] as usize % acts.len()];
            s = g.step(&s, &a);
        }
    }
}
