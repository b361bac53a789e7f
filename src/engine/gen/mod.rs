//! Generating cases from the model: a [`Recipe`] (an item, a board, resources, the opponent's
//! reactions, and the choices of a random walk) is turned into a starting position, the model is
//! walked from it choosing among its enabled actions, and the run is written as a case whose
//! expectations are the model's. Proptest strategies generate recipes, biased toward what
//! engines get wrong: paid [Repeat] instances, the same target for several executions (so an
//! earlier execution makes a later target illegal), counters, discounts to zero, triggers.
//! Some recipes then inject an illegal statement or choice (`inject`). Recipes are fitted to the
//! engine's declared features and the budget is stratified (`strata`).

use crate::case::ast::*;
use crate::case::from_trace::case_for_run;
use model::card::*;
use model::catalogue::Catalogue;
use model::cost::{Cost, Domain};
use model::game::Game;
use model::rulebook::Rulebook;
use model::setup::*;
use model::state::{Location, Player};
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, Strategy};

mod inject;
mod stage;
pub mod strata;
pub mod tail;
pub mod turn;
pub(crate) mod walk;

pub use strata::{focus_of, recipe_at, Focus, Profile};
pub use walk::walk;

/// Real spells played as the item.
pub const ITEMS: [&str; 14] = [
    "Rocket Barrage",
    "Desert's Call",
    "Curtain Call",
    "Bellows Breath",
    "Temptation",
    "Square Up",
    "Frigid Touch",
    "Hidden Blade",
    "Find Your Center",
    "Void Seeker",
    "Vanishing Bolt",
    "Chant of Readiness",
    "Feral Strength",
    "Downstage Dramatics",
];

/// Catalogue cards played as the item only by their own strata (`Focus::Item(k)` with `k` from
/// [`ITEMS`]'s length on, see [`item_name`]), each on a board staged for it ([`stage`]): combat
/// spells, the deck's named cards, units played from hand and other additional costs.
/// They are not drawn at random, so the draws of every other stratum are unchanged. The last
/// four are the directed tail's: readying, a group by tag, a discard cost ([`tail::clauses`])
/// and the only card with "other" ([`tail::unreached`]). Their strata find them by name.
pub const FEATURED: [&str; 13] = [
    "Thwonk!",
    "Existential Dread",
    "Marching Orders",
    "Called Shot",
    "Double Trouble",
    "Legion Rearguard",
    "Clockwork Keeper",
    "Rallying Cry",
    "Deadly Strike",
    "Upstage Comedy",
    "Danger Zone",
    "Tithe Bolt",
    // The `unreached` tail: the only card with "other" (355.8).
    "Piercing Light",
];

/// The name of the item `ItemPick::Catalogue(i)`: [`ITEMS`] first, then [`FEATURED`].
pub fn item_name(i: usize) -> &'static str {
    if i < ITEMS.len() {
        ITEMS[i]
    } else {
        FEATURED[(i - ITEMS.len()) % FEATURED.len()]
    }
}

/// The item `ItemPick::Catalogue(i)` playing the featured card `name` (found by name, so that
/// the index does not depend on where in [`FEATURED`] the card was added).
pub fn featured(name: &str) -> Option<usize> {
    FEATURED
        .iter()
        .position(|c| *c == name)
        .map(|k| ITEMS.len() + k)
}

/// Units of boards.
pub const UNITS: [&str; 8] = [
    "Practice Dummy",
    "Sturdy Dummy",
    "Pouty Poro",
    "Volibear, Furious",
    "Watchful Sentry",
    "Spellwatcher",
    "Ezreal, Prodigy",
    "Syndra, Transcendent",
];

/// The opponent's reactions. Random draws take the first eight; the counters after them
/// only the `Counters` stratum gives.
pub const REACTIONS: [&str; 11] = [
    "Defy",
    "Wind Wall",
    "Swift Execution",
    "Sidestep",
    "Frigid Touch",
    "Feral Strength",
    "Downstage Dramatics",
    "Mystic Reversal",
    "Hard Bargain",
    "Not So Fast",
    "Repulse",
];

/// The name of a generated spell.
pub const GENERATED: &str = "Fuzz Spell";

/// What is played.
#[derive(Clone, Debug)]
pub enum ItemPick {
    /// A real spell, by index into [`ITEMS`].
    Catalogue(usize),
    /// A generated spell.
    Generated(Box<CardDef>),
    /// Vendetta Duelist's "when I attack" ability (RUP4's repeated ability).
    Ability,
}

/// A unit of the board.
#[derive(Clone, Debug)]
pub struct UnitPick {
    /// Index into [`UNITS`].
    pub card: usize,
    /// Controlled by you.
    pub mine: bool,
    /// 0: its controller's base; 1, 2: battlefield 1, 2.
    pub loc: u8,
    /// Damage already marked.
    pub damage: u8,
}

/// An undamaged unit of [`UNITS`] (`card`), yours or the opponent's, at `loc` (as [`UnitPick`]).
pub fn unit(card: usize, mine: bool, loc: u8) -> UnitPick {
    UnitPick {
        card,
        mine,
        loc,
        damage: 0,
    }
}

/// Everything a generated case is made from.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// Which of the engine's rules versions (index, modulo their number).
    pub rules: u8,
    /// The item.
    pub item: ItemPick,
    /// The units.
    pub units: Vec<UnitPick>,
    /// The gear (true: yours).
    pub gear: Vec<bool>,
    /// Marai Spire: 0 none, 1 yours, 2 the opponent's.
    pub spire: u8,
    /// Temporal Portal activated.
    pub portal: bool,
    /// A showdown is in progress.
    pub showdown: bool,
    /// The opponent is within 3 points of the Victory Score.
    pub near_victory: bool,
    /// Your pool: Energy, and Power of Mind, Chaos, Order, Fury, Calm.
    pub pool: [u8; 6],
    /// Other cards in your hand.
    pub hand_other: u8,
    /// Cards in your deck.
    pub deck: u8,
    /// The opponent's reactions (indices into [`REACTIONS`]).
    pub reactions: Vec<usize>,
    /// The opponent can pay for anything.
    pub opp_rich: bool,
    /// The random walk's choices.
    pub walk: Vec<u16>,
    /// 0: none; 1: an instance paid twice; 2: a Repeat decided after paying; 3: the item played
    /// in a showdown without [Action]; 4, 5, 6: a target breaking its side, place or kind
    /// restriction; 7: two locations for "the same location"; 8: the same object twice; 9: a
    /// mode that cannot be chosen; 10: an illegal destination; 11: instances out of order;
    /// 12: a new choice the execution made before (751.1); 13: a location a token may not
    /// enter (355.2); 14: "other" given the previous instruction's target (355.8); 15: a new
    /// choice breaking the target's restriction (753.1); 16: your own spell countered by your
    /// "enemy" counter (425); 17: a card played on the open chain that may not go there (358.4,
    /// 355.8). Kinds 14 and 15 only from the `unreached` tail, 16 from `held`, 17 from `chain`.
    pub inject: u8,
    /// Your runes: 0 none (a pool-only player); 1 to 3 one of [`RUNE_SETUPS`]. Only
    /// the `Runes` stratum sets it: drawing it would change every seed's recipes.
    pub runes: u8,
    /// A second spell of yours in hand (index into [`ITEMS`]), making the scenario a turn of two
    /// plays that ends (335, 340.2, 334.1). Only the `Turn` strata set it.
    pub second: Option<usize>,
    /// The Academy's grant waits for your next spell (356.1.c). Only the `Turn` strata set it.
    pub academy: bool,
    /// A ready Temporal Portal of yours on the board, to be activated in the turn (145.2, 401).
    /// Only the `Turn` strata set it, in a turn of two plays.
    pub portal_gear: bool,
    /// The walk activates a ready gear's ability of yours at the first chance (145.2, 401)
    /// instead of leaving it to its draws. Only the clauses tail sets it.
    pub activate: bool,
    /// A third card of yours in hand, after the second (an index as for
    /// `ItemPick::Catalogue`, see [`item_name`]): a unit played before the spells, or a spell
    /// left for the open state after a [Reaction] on the chain (335). Only in a turn of plays
    /// (`second`); only the `unreached` tail sets it.
    pub third: Option<usize>,
    /// The opponent's Temporal Portal grant waits for the next spell *they* play (SFD-078).
    /// Only the `unreached` tail sets it.
    pub opp_portal: bool,
    /// Reactions of yours in hand beside the item (indices into [`REACTIONS`]): an "enemy"
    /// counter with only your own spell to counter (425). Only the `Held` strata set it.
    pub own_reactions: Vec<usize>,
    /// Distinct named cards on top of your main deck (the first of [`tail::held::DECK`]), above
    /// the `deck` anonymous ones: which card a draw takes shows in hand (359.3.e). Only the
    /// `Held` strata set it.
    pub deck_named: u8,
    /// The `board` tail's change to the staged board (0 none): 1 the attacking Vendetta Duelist
    /// with [Assault 2] over a Sturdy Dummy (807.2); 2 Existential Dread's stunned attacker
    /// alone attacking, with damage marked (124); 3 Upstage Comedy's first exhausted unit alone
    /// (415.1.b). Only the `board` tail sets it.
    pub board: u8,
    /// The showdown is at this battlefield (0-based, 316.8.b) rather than at none: Syndra's
    /// "while I'm in a showdown" (820.1.b) then holds for a unit there. Only the `chain` tail
    /// sets it.
    pub showdown_at: Option<u8>,
}

/// The rune setups of the `Runes` stratum, with an empty pool (357.1.a): the `runes` bound's
/// (enough for some plays), a poor one (most payments fail after a rune was used: 358.5 must
/// give it back), and one rune of each domain over a rune deck (Power of any domain, channelling).
pub const RUNE_SETUPS: [([u8; 6], [u8; 6], &[Domain]); 3] = [
    ([0, 2, 2, 0, 1, 0], [1, 0, 0, 0, 0, 0], &[Domain::Calm]),
    ([0, 0, 1, 0, 0, 0], [0, 0, 1, 0, 1, 0], &[Domain::Order]),
    ([1, 1, 1, 1, 1, 1], [0; 6], &[Domain::Mind, Domain::Mind]),
];

fn target(kind: TargetKind, at: Place, side: Side, count: u8, up_to: bool) -> Option<TargetSpec> {
    Some(TargetSpec {
        kind,
        at,
        side,
        count,
        up_to,
        same_location: count > 1,
        max_energy: None,
        max_power: None,
        chooses: None,
        attacking: false,
        other: false,
    })
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        3 => Just(Place::Anywhere),
        1 => Just(Place::Base),
        1 => Just(Place::Battlefield)
    ]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![3 => Just(Side::Any), 2 => Just(Side::Enemy), 1 => Just(Side::Friendly)]
}

fn instructions() -> impl Strategy<Value = Vec<Instruction>> {
    let first = prop_oneof![
        4 => (1u8..5, place(), side(), prop_oneof![4 => Just(1u8), 1 => Just(2u8)], any::<bool>()).prop_map(|(n, at, sd, c, up)| Instruction {
            effect: Effect::Deal(n),
            target: target(TargetKind::Unit, at, sd, c, up && c > 1),
        }),
        3 => (place(), side()).prop_map(|(at, sd)| Instruction {
            effect: Effect::Kill,
            target: target(TargetKind::Unit, at, sd, 1, false)
        }),
        1 => side().prop_map(|sd| Instruction {
            effect: Effect::Kill,
            target: target(TargetKind::Gear, Place::Anywhere, sd, 1, false)
        }),
        1 => (1u8..3).prop_map(|n| Instruction { effect: Effect::Draw(n), target: None }),
        1 => (1u8..4).prop_map(|n| Instruction { effect: Effect::PlayToken(n), target: None }),
        1 => (-3i8..4, side()).prop_map(|(n, sd)| Instruction {
            effect: Effect::GiveMight(n),
            target: target(TargetKind::Unit, Place::Anywhere, sd, 1, false)
        }),
        1 => (side(), any::<bool>()).prop_map(|(sd, same)| Instruction {
            effect: Effect::Move(if same { Destination::WithSameController } else { Destination::Anywhere }),
            target: target(TargetKind::Unit, Place::Anywhere, sd, 1, false),
        }),
    ];
    let second = prop_oneof![
        4 => Just(None),
        3 => (1u8..3).prop_map(|n| Some(Instruction { effect: Effect::ItsControllerDraws(n), target: None })),
        1 => Just(Some(Instruction { effect: Effect::BanishSelf, target: None })),
        1 => Just(Some(Instruction { effect: Effect::Draw(1), target: None })),
    ];
    (first, second).prop_map(|(a, b)| {
        let mut v = vec![a];
        if let Some(b) = b {
            let linked = matches!(b.effect, Effect::ItsControllerDraws(_));
            if !(linked
                && a.target
                    .is_none_or(|t| t.kind != TargetKind::Unit || t.count > 1))
            {
                v.push(b);
            }
        }
        v
    })
}

fn repeat_cost() -> impl Strategy<Value = RepeatCost> {
    prop_oneof![
        4 => (0u8..4).prop_map(|e| RepeatCost::Pay(Cost::energy(e))),
        2 => (0u8..3).prop_map(|e| RepeatCost::Pay(Cost { energy: e, power: [0, 0, 1, 0, 0, 0], any: 0, own: 0 })),
        1 => Just(RepeatCost::Pay(Cost { energy: 1, power: [0; 6], any: 1, own: 0 })),
        1 => Just(RepeatCost::Discard(1)),
    ]
}

/// A generated spell.
pub fn generated_item() -> impl Strategy<Value = CardDef> {
    (
        prop_oneof![5 => proptest::collection::vec(instructions(), 1..=1), 2 => proptest::collection::vec(instructions(), 2..4)],
        prop_oneof![1 => proptest::collection::vec(repeat_cost(), 0..1), 5 => proptest::collection::vec(repeat_cost(), 1..3), 1 => proptest::collection::vec(repeat_cost(), 3..4)],
        any::<bool>(),
        0u8..4,
        prop_oneof![3 => Just(false), 1 => Just(true)],
        prop_oneof![6 => Just(false), 1 => Just(true)],
        prop_oneof![3 => Just(Timing::Action), 2 => Just(Timing::Normal), 1 => Just(Timing::Reaction)],
    )
        .prop_map(|(modes, repeat, distinct, energy, discount, as_you_play, timing)| CardDef {
            name: GENERATED.into(),
            code: String::new(),
            kind: CardKind::Spell,
            domains: vec![Domain::Mind],
            cost: Cost::energy(energy),
            timing,
            repeat,
            discount: discount.then_some(SelfDiscount {
                energy: 2,
                when: Condition::Always,
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
            distinct_modes: distinct && modes.len() > 1,
            modes: modes
                .into_iter()
                .map(|instructions| Mode {
                    text: String::new(),
                    instructions,
                })
                .collect(),
            might: 0,
            abilities: vec![],
            tags: vec![],
            synthetic: true,
            source: "generated by rbcheck fuzz".into(),
            printed: Default::default(),
        })
}

fn item_pick() -> impl Strategy<Value = ItemPick> {
    prop_oneof![
        5 => (0..ITEMS.len()).prop_map(ItemPick::Catalogue),
        4 => generated_item().prop_map(|d| ItemPick::Generated(Box::new(d))),
        1 => Just(ItemPick::Ability),
    ]
}

fn unit_pick() -> impl Strategy<Value = UnitPick> {
    (
        prop_oneof![
            5 => Just(0usize), 3 => Just(1usize), 2 => Just(2usize), 1 => Just(3usize),
            1 => Just(4usize), 2 => Just(5usize), 2 => Just(6usize), 1 => Just(7usize)
        ],
        prop_oneof![2 => Just(false), 1 => Just(true)],
        0u8..3,
        prop_oneof![4 => Just(0u8), 1 => Just(1u8)],
    )
        .prop_map(|(card, mine, loc, damage)| UnitPick {
            card,
            // Ezreal, Syndra and Spellwatcher change your plays: they are yours.
            mine: mine || card >= 5,
            loc,
            damage,
        })
}

/// Recipes, biased toward the interesting.
pub fn recipe() -> BoxedStrategy<Recipe> {
    let board = (
        (
            prop_oneof![1 => Just(0u8), 3 => Just(1u8), 1 => Just(2u8)],
            proptest::collection::vec(unit_pick(), 0..4),
        )
            .prop_map(|(core, mut v)| {
                if core > 0 {
                    // Something to target: enemy units at a battlefield and at their base
                    // (sometimes one with [Deflect]).
                    v.insert(
                        0,
                        UnitPick {
                            card: 0,
                            mine: false,
                            loc: 1,
                            damage: 0,
                        },
                    );
                    v.insert(
                        1,
                        UnitPick {
                            card: if core == 2 { 2 } else { 1 },
                            mine: false,
                            loc: 0,
                            damage: 0,
                        },
                    );
                }
                v
            }),
        prop_oneof![1 => proptest::collection::vec(prop_oneof![3 => Just(false), 1 => Just(true)], 0..1), 2 => proptest::collection::vec(prop_oneof![3 => Just(false), 1 => Just(true)], 1..3)],
        prop_oneof![4 => Just(0u8), 2 => Just(1u8), 1 => Just(2u8)],
        prop_oneof![2 => Just(false), 1 => Just(true)],
        prop_oneof![5 => Just(false), 1 => Just(true)],
        prop_oneof![2 => Just(false), 1 => Just(true)],
    );
    let res = (
        prop_oneof![
            5 => (8u8..15, 2u8..5, 1u8..3, 1u8..3, 1u8..3, 0u8..3).prop_map(|(e, b, p, y, r, g)| [e, b, p, y, r, g]),
            1 => (0u8..7, 0u8..2, 0u8..2, 0u8..2, 0u8..2, 0u8..2).prop_map(|(e, b, p, y, r, g)| [e, b, p, y, r, g]),
        ],
        0u8..4,
        prop_oneof![1 => 1u8..3, 3 => 3u8..11],
    );
    let opp = (
        prop_oneof![
            2 => proptest::collection::vec(prop_oneof![3 => 0usize..2, 2 => 2usize..4, 2 => 4usize..7, 1 => Just(7usize)], 0..1),
            3 => proptest::collection::vec(prop_oneof![3 => 0usize..2, 2 => 2usize..4, 2 => 4usize..7, 1 => Just(7usize)], 1..3),
        ],
        prop_oneof![3 => Just(true), 1 => Just(false)],
    );
    (
        any::<u8>(),
        item_pick(),
        board,
        res,
        opp,
        proptest::collection::vec(any::<u16>(), 0..60),
        prop_oneof![16 => Just(0u8), 2 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
    )
        .prop_map(
            |(
                rules,
                item,
                (units, gear, spire, portal, showdown, near_victory),
                (pool, hand_other, deck),
                (reactions, opp_rich),
                walk,
                inject,
            )| Recipe {
                rules,
                item,
                units,
                gear,
                spire,
                portal,
                showdown,
                near_victory,
                pool,
                hand_other,
                deck,
                reactions,
                opp_rich,
                walk,
                inject,
                runes: 0,
                second: None,
                academy: false,
                portal_gear: false,
                activate: false,
                third: None,
                opp_portal: false,
                own_reactions: vec![],
                deck_named: 0,
                board: 0,
                showdown_at: None,
            },
        )
        .boxed()
}

/// The game and starting position of a recipe under a rulebook.
pub fn scenario(r: &Recipe, rules: Rulebook) -> Result<(Game, Setup), String> {
    let mut cards = Catalogue::builtin().cards;
    if let ItemPick::Generated(def) = &r.item {
        cards.push((**def).clone());
    }
    let game = Game::new(rules, cards);
    let id = |n: &str| game.card_named(n).ok_or_else(|| format!("no card `{n}`"));
    let mut s = Setup {
        battlefields: vec![BattlefieldSetup::default(), BattlefieldSetup::default()],
        ..Setup::default()
    };
    let item = match &r.item {
        ItemPick::Catalogue(i) => Some(id(item_name(*i))?),
        ItemPick::Generated(_) => Some(id(GENERATED)?),
        ItemPick::Ability => None,
    };
    let has_repeat = item.is_some_and(|i| !game.card(i).repeat.is_empty());
    let timing = item
        .map(|i| game.card(i).timing)
        .unwrap_or(Timing::Reaction);
    let mut syndra = false;
    for u in &r.units {
        let p = if u.mine { Player::YOU } else { Player::OPP };
        let loc = match u.loc {
            0 => Location::Base(p),
            n => Location::Battlefield(n - 1),
        };
        let name = UNITS[u.card % UNITS.len()];
        syndra |= u.mine && name.starts_with("Syndra");
        s.units.push(UnitSetup {
            card: id(name)?,
            controller: p,
            loc,
            damage: u.damage,
            owner: None,
            status: Default::default(),
        });
    }
    for mine in &r.gear {
        s.gear.push(GearSetup {
            card: id("Spare Gear")?,
            controller: if *mine { Player::YOU } else { Player::OPP },
        });
    }
    if r.spire > 0 {
        s.battlefields[(r.spire as usize + r.units.len()) % 2] = BattlefieldSetup {
            card: Some(id("Marai Spire")?),
            controller: Some(if r.spire == 1 {
                Player::YOU
            } else {
                Player::OPP
            }),
        };
    }
    let [e, b, p, y, rr, g] = r.pool;
    let mut pool = Cost::energy(e);
    pool.power[Domain::Mind as usize] = b;
    pool.power[Domain::Chaos as usize] = p;
    pool.power[Domain::Order as usize] = y;
    pool.power[Domain::Fury as usize] = rr;
    pool.power[Domain::Calm as usize] = g;
    // A spell without printed Repeat gets one from Temporal Portal (or Syndra), mostly; not
    // when the walk is to activate the Portal on the board (its grant is the activation's).
    let portal = r.portal
        || (item.is_some() && !has_repeat && !(syndra && r.showdown) && e % 4 != 0 && !r.activate);
    let second = match (item, r.second) {
        (Some(_), Some(k)) => Some(id(ITEMS[k % ITEMS.len()])?),
        _ => None,
    };
    let third = match (second, r.third) {
        (Some(_), Some(k)) => Some(id(item_name(k))?),
        _ => None,
    };
    if second.is_some() && r.portal_gear {
        s.gear.push(GearSetup {
            card: id("Temporal Portal")?,
            controller: Player::YOU,
        });
    }
    if second.is_some() {
        // Two of your spells: a turn of two plays, explored to its end (334.1).
        s.turn = TurnSetup {
            plays: 2,
            end_turn: true,
        };
    }
    let own_reactions = r
        .own_reactions
        .iter()
        .map(|i| id(REACTIONS[*i % REACTIONS.len()]))
        .collect::<Result<Vec<_>, _>>()?;
    s.players[0] = PlayerSetup {
        pool,
        hand: item
            .into_iter()
            .chain(second)
            .chain(third)
            .chain(own_reactions)
            .collect(),
        academy_charged: r.academy && item.is_some(),
        hand_other: r.hand_other,
        deck: r.deck,
        portal_charged: portal && item.is_some(),
        runes: r.runes.checked_sub(1).map(|k| {
            // Setups past `RUNE_SETUPS` are the `board` tail's (only it sets them).
            let k = usize::from(k);
            let (ready, exhausted, deck) = match k.checked_sub(RUNE_SETUPS.len()) {
                Some(j) => tail::board::RUNES[j % tail::board::RUNES.len()],
                None => RUNE_SETUPS[k],
            };
            model::state::RunesSetup {
                ready,
                exhausted,
                deck: deck.to_vec(),
            }
        }),
        ..Default::default()
    };
    s.players[1] = PlayerSetup {
        pool: if r.opp_rich {
            Cost {
                energy: 8,
                power: [1, 4, 1, 0, 0, 1],
                any: 0,
                own: 0,
            }
        } else {
            Cost {
                energy: 1,
                power: [0, 1, 0, 0, 0, 0],
                any: 0,
                own: 0,
            }
        },
        hand: r
            .reactions
            .iter()
            .map(|i| id(REACTIONS[*i % REACTIONS.len()]))
            .collect::<Result<_, _>>()?,
        hand_other: 1,
        deck: 6,
        near_victory: r.near_victory,
        portal_charged: r.opp_portal,
        ..Default::default()
    };
    if r.deck_named > 0 {
        let named = &tail::held::DECK[..usize::from(r.deck_named).min(tail::held::DECK.len())];
        s.players[0].deck_top = named.iter().map(|n| id(n)).collect::<Result<_, _>>()?;
    }
    if r.reactions.iter().any(|i| *i >= 8) {
        // Repulse costs [1][O]: Body Power the rich pool otherwise lacks.
        s.players[1].pool.power[Domain::Body as usize] += 1;
    }
    if let ItemPick::Catalogue(i) = &r.item {
        if *i >= ITEMS.len() {
            let n = r.walk.first().copied().unwrap_or(0) as usize;
            stage::stage(&mut s, item_name(*i), n, &id)?;
            tail::board::restage(&mut s, r.board);
        }
    }
    // A showdown only for items that may be played in one (the timing injection adds it back).
    s.showdown = r.showdown && timing != Timing::Normal;
    if s.showdown {
        s.showdown_at = r.showdown_at;
    }
    if item.is_none() {
        // The attacking Vendetta Duelist and an enemy unit at its battlefield.
        let at = Location::Battlefield(0);
        // The `board` tail's Duelist has [Assault 2]: against a Sturdy Dummy (Might 4) its
        // Might while attacking (807.2) decides whether one execution kills.
        let enemy = if r.board == 1 {
            "Sturdy Dummy"
        } else {
            "Practice Dummy"
        };
        s.units.push(UnitSetup::new(id(enemy)?, Player::OPP, at));
        s.attack_trigger = Some(s.units.len() as u8);
        s.units
            .push(UnitSetup::new(id("Vendetta Duelist")?, Player::YOU, at));
        if r.board == 1 {
            // [Assault] counts only while attacking (807.2): the Duelist attacks in a showdown
            // at its battlefield, the Sturdy Dummy defends (323.2.c).
            let d = s.units.len() - 1;
            s.units[d].status.combat = model::state::Combat::Attacking;
            s.units[d].status.assault = 2;
            s.units[d - 1].status.combat = model::state::Combat::Defending;
            s.showdown_at = Some(0);
            s.showdown = true;
        }
        s.players[0].hand_other = s.players[0].hand_other.max(1);
    }
    Ok((game, s))
}

/// The rules presets among the engine's, in a fixed order.
pub fn usable_rules(engine_rules: &[String]) -> Vec<String> {
    crate::engine::protocol::PRESETS
        .iter()
        .filter(|p| engine_rules.iter().any(|r| r.eq_ignore_ascii_case(p)))
        .map(|p| p.to_string())
        .collect()
}

/// The case for a recipe under one of `rules` (presets), with `header` lines.
pub fn generate(r: &Recipe, rules: &[String], header: Vec<String>) -> Result<Case, String> {
    if rules.is_empty() {
        return Err("the engine supports no rules preset".into());
    }
    let name = &rules[r.rules as usize % rules.len()];
    let rulebook = Rulebook::named(name).ok_or_else(|| format!("unknown rules `{name}`"))?;
    let (game, setup) = scenario(r, rulebook)?;
    let run = walk(&game, &setup, &r.walk, r.activate)?;
    let case = case_for_run(&game, name, &setup, &run, header, None)?;
    if r.inject == 0 {
        return Ok(case);
    }
    let n = r.walk.iter().map(|w| *w as usize).sum::<usize>();
    Ok(inject::inject(&game, &setup, &case, r.inject, n).unwrap_or(case))
}

/// The case for a recipe fitted to the engine's declared profile ([`strata::fit`]).
pub fn generate_for(
    r: &Recipe,
    rules: &[String],
    profile: &Profile,
    header: Vec<String>,
) -> Result<Case, String> {
    generate(&strata::fit(r, profile), rules, header)
}

/// A plain generated spell: "Deal 2 to a unit", [Repeat] [2].
pub fn generated_base() -> CardDef {
    let mut d = CardDef {
        name: GENERATED.into(),
        code: String::new(),
        kind: CardKind::Spell,
        domains: vec![Domain::Mind],
        cost: Cost::energy(2),
        timing: Timing::Action,
        repeat: vec![RepeatCost::Pay(Cost::energy(2))],
        discount: None,
        optional: false,
        optional_costs: vec![],
        additional_costs: vec![],
        as_you_play: vec![],
        distinct_modes: false,
        modes: vec![],
        might: 0,
        abilities: vec![],
        tags: vec![],
        synthetic: true,
        source: "generated by rbcheck fuzz".into(),
        printed: Default::default(),
    };
    d.modes.push(Mode {
        text: String::new(),
        instructions: vec![Instruction {
            effect: Effect::Deal(2),
            target: target(TargetKind::Unit, Place::Anywhere, Side::Any, 1, false),
        }],
    });
    d
}
