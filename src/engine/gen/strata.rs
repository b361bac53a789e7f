//! What is generated for whom: the engine's declared feature profile, to which every recipe is
//! fitted before it becomes a case (an engine without `defines` gets catalogue spells instead of
//! generated ones, not skipped cases), and the strata the default budget cycles through, so that
//! rare combinations (the opponent's Deflect unit, their play trigger, a printed Repeat cost
//! that differs from the card's cost, each kind of illegal choice) are reached within 300 cases.

use super::turn::TurnFocus;
use super::{item_name, unit, ItemPick, Recipe, ITEMS, REACTIONS};
use crate::case::ast::{Case, Line, PlayStmt};
use crate::engine::protocol::case_features;
use model::card::{
    CardDef, Condition, Effect, Instruction, Place, RepeatCost, SelfDiscount, Side, TargetSpec,
};
use model::catalogue::Catalogue;
use model::cost::{Cost, Domain};
use model::state::Player;
use proptest::strategy::{BoxedStrategy, Strategy};

/// The features an engine declared (its hello), which generation keeps to.
#[derive(Clone, Debug)]
pub struct Profile {
    features: Vec<String>,
}

impl Profile {
    /// A profile of these features (protocol feature names).
    pub fn new(features: &[String]) -> Profile {
        Profile {
            features: features.iter().map(|f| f.to_ascii_lowercase()).collect(),
        }
    }

    /// Every feature: recipes are left as they are.
    pub fn all() -> Profile {
        Profile::new(
            &crate::engine::protocol::FEATURES
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>(),
        )
    }

    /// True if the engine declared the feature.
    pub fn has(&self, feature: &str) -> bool {
        self.features.iter().any(|f| f == feature)
    }

    fn allows(&self, needs: &[String]) -> bool {
        needs.iter().all(|n| self.has(n))
    }
}

/// The features playing `def` needs, by the protocol's own rule ([`case_features`] of a case
/// that plays it), plus `grants` when a spell without printed [Repeat] gets one from the Portal.
fn needs(def: &CardDef, cards: &[CardDef]) -> Vec<String> {
    let case = Case {
        version: 1,
        header: vec![],
        rules: "rup4".into(),
        defines: vec![],
        board: vec![],
        plays: vec![Line::new(PlayStmt::Play {
            player: Player::YOU,
            card: def.name.clone(),
        })],
        checkpoints: vec![],
        expects: vec![],
    };
    let mut f = case_features(&case, cards);
    if def.repeat.is_empty() {
        f.push("grants".into());
    }
    f
}

/// The board units' feature (by index into [`super::UNITS`]): Deflect, triggers, discounts, grants.
fn unit_needs(card: usize) -> Option<&'static str> {
    match card {
        2 | 3 => Some("deflect"),
        4 | 5 => Some("triggers"),
        6 => Some("discounts"),
        7 => Some("grants"),
        _ => None,
    }
}

/// The recipe changed so that its case uses only features the engine declared: an unsupported
/// item is replaced by the next catalogue spell it supports, unsupported units, reactions, the
/// Spire and the Portal are left out. (What an engine refuses only at run time, such as a cost
/// statement it did not implement, cannot be known from its hello and is still skipped.)
pub fn fit(r: &Recipe, p: &Profile) -> Recipe {
    let mut r = r.clone();
    let cards = Catalogue::builtin().cards;
    let by_name = |n: &str| cards.iter().find(|c| c.name == n);
    let item_ok = |r: &Recipe| match &r.item {
        ItemPick::Catalogue(i) => {
            by_name(item_name(*i)).is_some_and(|d| p.allows(&needs(d, &cards)))
        }
        ItemPick::Generated(d) => {
            let mut all = cards.clone();
            all.push((**d).clone());
            p.has("defines") && p.allows(&needs(d, &all))
        }
        ItemPick::Ability => p.has("abilities") && p.has("triggers"),
    };
    if !item_ok(&r) {
        let start = r.walk.first().copied().unwrap_or(0) as usize;
        let found = (0..ITEMS.len())
            .map(|k| (start + k) % ITEMS.len())
            .find(|k| {
                item_ok(&Recipe {
                    item: ItemPick::Catalogue(*k),
                    ..r.clone()
                })
            });
        if let Some(k) = found {
            r.item = ItemPick::Catalogue(k);
        }
    }
    r.units
        .retain(|u| unit_needs(u.card).is_none_or(|f| p.has(f)));
    let reaction_ok = |i: &usize| {
        by_name(REACTIONS[*i % REACTIONS.len()]).is_some_and(|d| {
            let mut n = needs(d, &cards);
            n.retain(|f| f != "grants");
            p.allows(&n)
        })
    };
    r.reactions.retain(reaction_ok);
    r.own_reactions.retain(reaction_ok);
    if !p.has("deck-cards") {
        r.deck_named = 0;
    }
    if !p.has("discounts") {
        r.spire = 0;
    }
    if !p.has("grants") {
        r.portal = false;
    }
    if !p.has("runes") {
        r.runes = 0;
    }
    // The `board` tail's attacking Duelist with [Assault] and its showdown are combat.
    if !p.has("combat") && r.board == 1 {
        r.board = 0;
    }
    if !p.has("grants") {
        r.academy = false;
        r.portal_gear = false;
        r.opp_portal = false;
    }
    super::turn::fit(&mut r, p, |d| p.allows(&needs(d, &cards)));
    // The third card only in a turn of plays, and only one the engine can play.
    if r.second.is_none()
        || r.third
            .is_some_and(|k| !by_name(item_name(k)).is_some_and(|d| p.allows(&needs(d, &cards))))
    {
        r.third = None;
    }
    r
}

/// What one stratum of the budget makes sure its recipes contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The recipe as drawn.
    Plain,
    /// Your spell choosing the opponent's Deflect units (809.1.c, 356.2.a.2).
    EnemyDeflect,
    /// Your spell choosing your own Deflect unit (no Deflect cost: it is not an enemy's).
    FriendlyDeflect,
    /// The opponent's Spellwatcher and reactions: their play trigger (419.4.a).
    EnemyTrigger,
    /// The opponent's Syndra (her grant is her controller's, 820.1.b).
    EnemySyndra,
    /// Watchful Sentries of both sides chosen (383.4.b.2: only an opponent's choice triggers).
    Chosen,
    /// The opponent holds counters and can pay (425.1).
    Counter,
    /// Vendetta Duelist's repeated attack ability (820.1.a, 402.1).
    Ability,
    /// A generated spell whose printed [Repeat] cost differs from its cost, with the Portal's
    /// granted instance beside it (the granted one costs the card's cost).
    PrintedRepeat,
    /// Marai Spire, yours or theirs (356.4.c), with cheap Repeat costs (356.4.f.1).
    Spire,
    /// A pool too small to pay (358.5).
    Poor,
    /// No unit to choose (358.5: the play is undone).
    NoTarget,
    /// A card by index into [`ITEMS`], on a board that lets it do what it does.
    Item(usize),
    /// An injected illegal statement (see [`Recipe::inject`]).
    Illegal(u8),
    /// A generated spell with its own discount (356.4.d), paid for several executions.
    Discount,
    /// A generated spell whose first mode kills a unit and second deals to two: a later
    /// execution's targets partly made illegal by an earlier one (359.3.e.5, 359.3.e.7).
    PartialIllegal,
    /// An empty pool and runes to pay with (164.2, 357.1.a), for an engine declaring `runes`;
    /// a payment that fails half-way must give its runes back (358.5).
    Runes,
    /// A turn of two plays with two of your spells in hand, for an engine declaring
    /// `turn`: see [`super::turn::TurnFocus`].
    Turn(super::turn::TurnFocus),
    /// The opponent's Mystic Reversal against a spell whose executions each choose for two
    /// instructions, your Watchful Sentry beside the targets: new choices (750-753) that may
    /// target the Sentry anew (754) or, injected (`Illegal(12)`), reuse an execution's earlier
    /// choice (751.1).
    NewChoices,
    // ---- counters, linked instructions, featured cards ----
    /// The opponent's Hard Bargain (0), Not So Fast (1) or Repulse (2) against your repeated spell, your
    /// Spellwatcher beside it: demands (425), what a repeated spell chooses across its
    /// executions (359.3.e.9.a), a countered spell's play trigger (419.4.a.1).
    Counters(u8),
    /// Hidden Blade with units of both players: "its controller" of each execution's own
    /// target (359.3.e.14).
    LinkedBoth,
    /// The `NewChoices` board with your Pouty Poro in place of the Sentry: a new choice of a
    /// Deflect unit is charged to the spell's new controller (755).
    NewChoicesDeflect,
    /// Vendetta Duelist's ability with enemy Deflect units at its battlefield (809.1.c: Deflect
    /// is for spells only).
    AbilityDeflect,
    /// A Chaos spell costing [0] or [1] with a discount of [2] (356.4.d), a [Repeat] cost in
    /// Mind (820.1.c) and a "Discard 1" [Repeat] cost, with no other card in hand two times in
    /// three (422.3).
    CheapDiscount,
    // ---- the directed tail (`super::tail`): each area's stratum `k`, made by its module
    /// A stratum of [`super::tail::clauses`].
    Clause(u8),
    /// A stratum of [`super::tail::unreached`].
    Unreached(u8),
    /// A stratum of [`super::tail::chance`].
    Chance(u8),
    /// A stratum of [`super::tail::held`].
    Held(u8),
    /// A stratum of [`super::tail::chain`].
    Chain(u8),
    /// A stratum of [`super::tail::board`].
    Board(u8),
}

/// The strata, cycled through by case index: case `i` is drawn from `STRATA[i % len]`.
///
/// The layout is coverage-directed: every clause the default budget must reach and every kind
/// of injected illegal choice has a stratum that reaches it by construction (a card or a board
/// that makes the model apply it), instead of being left to the chance of a `Plain` draw, so a
/// change to the layout cannot silently drop one (`tests/fuzz.rs` checks seeds 0 and 1). The
/// first cycle (58 cases) holds every stratum once; the 300 cycled cases give each five or six
/// draws, and the directed tail ([`super::tail`]) follows them. Strata whose situation also depends on the walk's choices (the opponent's
/// Deflect, counters, Sentries chosen, a later execution's partly illegal targets) appear
/// twice.
pub const STRATA: [Focus; 58] = [
    Focus::Plain,
    Focus::EnemyDeflect,
    Focus::Illegal(4),
    Focus::EnemyTrigger,
    Focus::PrintedRepeat,
    Focus::Illegal(5),
    Focus::Counter,
    Focus::Spire,
    Focus::Discount,
    Focus::Illegal(6),
    Focus::Chosen,
    Focus::Ability,
    Focus::Illegal(7),
    Focus::FriendlyDeflect,
    Focus::Poor,
    Focus::Illegal(8),
    Focus::Item(1),
    Focus::Item(2),
    Focus::Illegal(9),
    Focus::Item(3),
    Focus::Item(4),
    Focus::Illegal(10),
    Focus::Item(7),
    Focus::Item(10),
    Focus::Illegal(11),
    Focus::Item(11),
    Focus::NoTarget,
    Focus::Illegal(1),
    Focus::EnemySyndra,
    Focus::Item(0),
    Focus::Illegal(2),
    // In place of a second Plain and a second Counter stratum (no mutant's first kill
    // at seeds 0 and 1 was there), so that every other case index keeps its own.
    Focus::Turn(TurnFocus::Plays),
    Focus::Illegal(3),
    Focus::Turn(TurnFocus::Grants),
    Focus::EnemyDeflect,
    Focus::Runes,
    Focus::PartialIllegal,
    // In place of a second Chosen stratum (slot 31 holds the turn's Plays).
    Focus::NewChoices,
    Focus::Item(5),
    Focus::Illegal(12),
    Focus::Illegal(13),
    Focus::PartialIllegal,
    // The featured cards (`super::FEATURED`, on their staged boards), the opponent's
    // other counters, Deflect against an ability, a cheap discounted spell, linked draws of
    // both players, a new choice of a Deflect unit.
    Focus::Item(14),
    Focus::Counters(0),
    Focus::Item(15),
    Focus::Item(16),
    Focus::AbilityDeflect,
    Focus::Item(17),
    Focus::Item(18),
    Focus::Counters(1),
    Focus::Item(19),
    Focus::Item(20),
    Focus::CheapDiscount,
    Focus::Item(21),
    Focus::Item(22),
    Focus::Counters(2),
    Focus::LinkedBoth,
    Focus::NewChoicesDeflect,
];

/// The stratum of case `i`: the cycle for the first [`super::tail::CYCLED`] cases, then the
/// directed tail, then the cycle again (for budgets beyond the default) where it left off.
pub fn focus_of(i: u64) -> Focus {
    use super::tail;
    let cycled = if i < tail::CYCLED {
        i
    } else if let Some(f) = tail::at(i - tail::CYCLED) {
        return f;
    } else {
        i - tail::LEN as u64
    };
    STRATA[(cycled % STRATA.len() as u64) as usize]
}

/// The recipes of case `i`: [`super::recipe`], focused on its stratum.
pub fn recipe_at(i: u64) -> BoxedStrategy<Recipe> {
    let f = focus_of(i);
    super::recipe().prop_map(move |r| focused(r, f)).boxed()
}

/// The recipe made to contain what the stratum is about (the rest is left as drawn).
pub fn focused(mut r: Recipe, f: Focus) -> Recipe {
    let n = r.walk.first().copied().unwrap_or(0) as usize;
    match f {
        Focus::Plain => {}
        Focus::EnemyDeflect => {
            // Frigid Touch, Void Seeker or Curtain Call: a unit target the Deflect units meet.
            r.item = ItemPick::Catalogue([6, 9, 2][n % 3]);
            r.units = vec![unit(2, false, 1), unit(3, false, (n % 2) as u8)];
            r.units.push(unit(0, false, 0));
            r.pool[0] = r.pool[0].max(8);
            r.pool[1] = r.pool[1].max(2);
        }
        Focus::FriendlyDeflect => {
            r.item = ItemPick::Catalogue(12);
            r.units = vec![unit(2, true, 1), unit(0, false, 1)];
        }
        Focus::EnemyTrigger => {
            r.units.retain(|u| u.card != 5);
            r.units.push(unit(5, false, 0));
            r.reactions = vec![[4, 5, 6][n % 3], 2];
            r.opp_rich = true;
        }
        Focus::EnemySyndra => {
            r.units.push(unit(7, false, 1));
            r.reactions = vec![[4, 5, 6][n % 3]];
            r.opp_rich = true;
        }
        Focus::Chosen => {
            // Repeated Frigid Touch or Feral Strength, the Sentries the only units.
            r.units = vec![unit(4, false, 1), unit(4, true, 1)];
            r.item = ItemPick::Catalogue([6, 12][n % 2]);
            r.pool[0] = r.pool[0].max(8);
        }
        Focus::Discount => {
            let mut d = super::generated_base();
            d.cost = Cost::energy(3 + (n % 2) as u8);
            d.discount = Some(SelfDiscount {
                energy: 2,
                when: Condition::Always,
            });
            r.item = ItemPick::Generated(Box::new(d));
            r.pool[0] = r.pool[0].max(10);
            r.near_victory = n.is_multiple_of(3);
        }
        Focus::PartialIllegal => {
            let mut d = super::generated_base();
            let (kill, deal) = (d.modes[0].clone(), d.modes[0].clone());
            d.modes = vec![kill, deal];
            d.modes[0].instructions[0].effect = Effect::Kill;
            if let Some(t) = &mut d.modes[1].instructions[0].target {
                t.count = 2;
            }
            d.repeat = vec![RepeatCost::Pay(Cost::energy(0)); 2];
            r.item = ItemPick::Generated(Box::new(d));
            r.units = vec![unit(0, false, 1), unit(1, false, 1), unit(0, false, 0)];
            // An injected statement would end the case before the executions it is about.
            r.inject = 0;
            // Every decision's bias below 40 (see `choose`): both instances paid, nobody
            // responds, and a later execution prefers the object an earlier one chose, so a
            // "kill" before a "deal to two" leaves the deal one target of two (359.3.e.7) on
            // half the mode draws instead of leaving it to the chance of every decision.
            for p in &mut r.walk {
                *p = *p / 100 * 100 + *p % 100 % 40;
            }
        }
        Focus::NewChoices => new_choices_board(&mut r, n, false),
        Focus::Counter => {
            r.reactions = vec![n % 2, (n / 2) % 2];
            r.opp_rich = true;
            r.inject = 0;
        }
        Focus::Ability => r.item = ItemPick::Ability,
        Focus::PrintedRepeat => {
            let mut d = match &r.item {
                ItemPick::Generated(d) => (**d).clone(),
                _ => super::generated_base(),
            };
            // Printed [Repeat] [1] or [P] on a card costing [2]..[4].
            d.cost = Cost::energy(2 + (n % 3) as u8);
            d.repeat = vec![RepeatCost::Pay(if n.is_multiple_of(2) {
                Cost::energy(1)
            } else {
                Cost {
                    energy: 0,
                    power: [0, 0, 1, 0, 0, 0],
                    any: 0,
                    own: 0,
                }
            })];
            r.item = ItemPick::Generated(Box::new(d));
            r.portal = true;
            r.pool[0] = r.pool[0].max(10);
            r.pool[2] = r.pool[2].max(1);
        }
        Focus::Spire => {
            r.spire = 1 + (n % 2) as u8;
            if let ItemPick::Generated(d) = &mut r.item {
                d.repeat = vec![RepeatCost::Pay(Cost::energy((n % 3) as u8))];
            }
        }
        Focus::Poor => {
            r.pool = [(n % 3) as u8, 0, (n % 2) as u8, 0, 0, 0];
        }
        Focus::Runes => {
            r.runes = 1 + (n % super::RUNE_SETUPS.len()) as u8;
            r.pool = [0; 6];
            r.inject = 0;
        }
        Focus::Turn(t) => super::turn::focused(&mut r, t, n),
        Focus::NoTarget => {
            r.units.clear();
            r.gear.clear();
            r.item = ItemPick::Catalogue([6, 12, 9, 4][n % 4]);
        }
        Focus::Item(k) if k >= ITEMS.len() => {
            // A featured card: its board is staged by `super::stage`; nothing drawn may get in
            // its way (no counters, no injected statement, no Portal or Spire).
            r.item = ItemPick::Catalogue(k);
            r.units.clear();
            r.gear.clear();
            r.reactions.clear();
            r.inject = 0;
            r.portal = false;
            r.spire = 0;
            r.showdown = false;
            let least = [9, 2, 2, 2, 2, u8::from(!n.is_multiple_of(3))];
            for (j, m) in least.iter().enumerate() {
                r.pool[j] = r.pool[j].max(*m);
            }
        }
        Focus::Counters(k) => {
            // Rocket Barrage, Frigid Touch or Feral Strength against the counter.
            r.item = ItemPick::Catalogue([0, 6, 12][n % 3]);
            r.reactions = vec![8 + usize::from(k % 3)];
            r.units = vec![
                unit(0, false, 1),
                unit(1, false, 1),
                unit(0, true, 1),
                unit(5, true, 0),
            ];
            r.gear = vec![true, false];
            r.opp_rich = true;
            r.inject = 0;
            r.showdown = false;
            r.pool[0] = r.pool[0].max(10);
            r.pool[1] = r.pool[1].max(2);
        }
        Focus::LinkedBoth => {
            r.item = ItemPick::Catalogue(7);
            r.units = vec![unit(0, false, 1), unit(0, true, 1), unit(1, false, 0)];
            r.inject = 0;
            r.reactions.clear();
        }
        Focus::NewChoicesDeflect => {
            new_choices_board(&mut r, n, false);
            r.units.retain(|u| u.card != 4);
            r.units.push(unit(2, true, (n % 2) as u8));
            // Every decision's bias in 40..50 (see `choose`): the opponent plays Mystic
            // Reversal rather than passing, and remakes a choice rather than keeping it, whose
            // only new target is the Deflect unit (755), instead of leaving both to chance.
            super::walk::bias(&mut r.walk, 40, 50);
        }
        Focus::AbilityDeflect => {
            r.item = ItemPick::Ability;
            // The Duelist attacks at battlefield 1 (`loc` 1).
            r.units = vec![unit(2, false, 1), unit(3, false, 1)];
            r.inject = 0;
            for j in 1..6 {
                r.pool[j] = r.pool[j].max(1);
            }
        }
        Focus::CheapDiscount => {
            let mut d = super::generated_base();
            d.domains = vec![Domain::Chaos];
            d.cost = Cost::energy((n % 2) as u8);
            d.discount = Some(SelfDiscount {
                energy: 2,
                when: Condition::Always,
            });
            // [1][B]: Mind Power on a Chaos card.
            d.repeat = vec![
                RepeatCost::Pay(Cost {
                    energy: 1,
                    power: [0, 0, 1, 0, 0, 0],
                    any: 0,
                    own: 0,
                }),
                RepeatCost::Discard(1),
            ];
            r.item = ItemPick::Generated(Box::new(d));
            r.hand_other = u8::from(n.is_multiple_of(3));
            r.near_victory = true;
            r.inject = 0;
            r.pool[0] = r.pool[0].max(6);
            r.pool[1] = r.pool[1].max(2);
            r.pool[2] = r.pool[2].max(2);
        }
        Focus::Clause(k) => super::tail::clauses::focused(&mut r, k, n),
        Focus::Unreached(k) => super::tail::unreached::focused(&mut r, k, n),
        Focus::Chance(k) => super::tail::chance::focused(&mut r, k, n),
        Focus::Held(k) => super::tail::held::focused(&mut r, k, n),
        Focus::Chain(k) => super::tail::chain::focused(&mut r, k, n),
        Focus::Board(k) => super::tail::board::focused(&mut r, k, n),
        Focus::Item(k) => {
            r.item = ItemPick::Catalogue(k);
            if k == 3 && r.units.len() < 3 {
                // Bellows Breath: units at two locations, for "the same location".
                r.units
                    .extend([unit(0, false, 1), unit(1, false, 2), unit(0, false, 1)]);
            }
        }
        Focus::Illegal(k) => {
            r.inject = k;
            match k {
                // A spell whose unit target has a side (4) or place (5) restriction, and units
                // of both sides at both kinds of location: an object breaking exactly that
                // restriction is always there to inject.
                4 | 5 => {
                    let mut d = super::generated_base();
                    if let Some(t) = &mut d.modes[0].instructions[0].target {
                        if k == 4 {
                            t.side = [Side::Enemy, Side::Friendly][n % 2];
                        } else {
                            t.at = [Place::Base, Place::Battlefield][n % 2];
                        }
                    }
                    r.item = ItemPick::Generated(Box::new(d));
                    r.units = vec![
                        unit(0, false, 1),
                        unit(1, true, 1),
                        unit(0, false, 0),
                        unit(1, true, 0),
                    ];
                    r.pool[0] = r.pool[0].max(6);
                }
                // A unit target and gear on the board; several instances to decide.
                6 => {
                    r.gear = vec![false, true];
                    r.item = ItemPick::Catalogue([6, 12][n % 2]);
                }
                7 => {
                    r.item = ItemPick::Catalogue(3);
                    r.units = vec![unit(0, false, 1), unit(0, false, 1), unit(1, false, 2)];
                    r.pool[1] = r.pool[1].max(2);
                }
                // Bellows Breath (three targets of one instruction) with units at two
                // locations: a second target the same as the first (355.8).
                8 => {
                    r.item = ItemPick::Catalogue(3);
                    r.units = vec![unit(0, false, 1), unit(1, false, 1), unit(0, false, 2)];
                    r.pool[1] = r.pool[1].max(2);
                }
                // Temptation: an enemy unit with somewhere to go (a unit of theirs at another
                // location), so the move has a destination to replace (355.4).
                10 => {
                    r.item = ItemPick::Catalogue(4);
                    r.units = vec![unit(0, false, 1), unit(1, false, 0), unit(0, false, 2)];
                    r.pool[0] = r.pool[0].max(6);
                }
                11 => r.item = ItemPick::Catalogue(2),
                12 => new_choices_board(&mut r, n, true),
                // A spell playing a token while you control Marai Spire's battlefield: the
                // token's location is a choice (355.2) that can be replaced.
                13 => {
                    let mut d = super::generated_base();
                    d.modes[0].instructions = vec![Instruction {
                        effect: Effect::PlayToken(1 + (n % 2) as u8),
                        target: None,
                    }];
                    d.repeat = vec![RepeatCost::Pay(Cost::energy((n % 2) as u8))];
                    r.item = ItemPick::Generated(Box::new(d));
                    r.spire = 1;
                    r.pool[0] = r.pool[0].max(6);
                }
                _ => {}
            }
        }
    }
    // Half the generated discounts are conditional (Find Your Center's condition, 356.4.d).
    if let ItemPick::Generated(d) = &mut r.item {
        if let Some(disc) = &mut d.discount {
            if n % 2 == 1 {
                *disc = SelfDiscount {
                    energy: disc.energy,
                    when: Condition::OpponentNearVictory,
                };
            }
        }
    }
    r
}

/// The `NewChoices` board: your spell choosing an enemy unit, then another enemy unit (`reuse`:
/// any unit, so that the first instruction's old choice is a legal new choice for the second,
/// barred only by 751.1), the second execution's Repeat free, the opponent's Mystic Reversal
/// and the Power to play it, an enemy unit at a battlefield and at their base, and your
/// Watchful Sentry ("when an opponent chooses me"), which only new choices made by the
/// opponent can newly target (754).
pub(super) fn new_choices_board(r: &mut Recipe, n: usize, reuse: bool) {
    let mut d = super::generated_base();
    let one = d.modes[0].instructions[0];
    // "Enemy unit" is the opponent's before Mystic Reversal and yours after it: a remade
    // choice can only be your Sentry, which the item never chose.
    let enemy = one.target.map(|t| TargetSpec {
        side: Side::Enemy,
        ..t
    });
    d.modes[0].instructions = vec![
        Instruction {
            effect: Effect::Deal(1 + (n % 2) as u8),
            target: enemy,
        },
        Instruction {
            effect: Effect::Deal(1),
            target: if reuse { one.target } else { enemy },
        },
    ];
    d.repeat = vec![RepeatCost::Pay(Cost::energy(0))];
    r.item = ItemPick::Generated(Box::new(d));
    r.units = vec![unit(0, false, 1), unit(1, false, 0), unit(4, true, 0)];
    r.gear.clear();
    // Mystic Reversal (index 7), and the opponent's pool of [8] and [G][G][G][G].
    r.reactions = vec![7];
    r.opp_rich = true;
    r.showdown = false;
    r.inject = if r.inject == 12 { 12 } else { 0 };
    r.pool[0] = r.pool[0].max(4);
}

/// The rule clauses the model applied on the run a recipe makes (as `check --coverage` counts
/// them: the step's citation, its events', and the context's), under the first of `rules`.
pub fn clauses_reached(r: &Recipe, rules: &str) -> Result<Vec<&'static str>, String> {
    use model::coverage::{action_clauses, context_clauses, event_clauses};
    let rulebook = model::rulebook::Rulebook::named(rules)
        .ok_or_else(|| format!("unknown rules `{rules}`"))?;
    let (game, setup) = super::scenario(r, rulebook)?;
    let run = super::walk(&game, &setup, &r.walk, r.activate)?;
    let mut out: Vec<&'static str> = vec![];
    // The run's last pair is the final state with a placeholder action: only pairs with a
    // successor are steps.
    for w in run.windows(2) {
        let ((s, a), (next, _)) = (&w[0], &w[1]);
        let new = &next.log[s.log.len().min(next.log.len())..];
        let on_ability = matches!(a, model::action::Action::DeclareRepeat { .. })
            && s.chain
                .iter()
                .find(|i| i.is_pending())
                .is_some_and(|i| game.card(i.card).kind == model::card::CardKind::Ability);
        let all = action_clauses(a)
            .iter()
            .copied()
            .chain(new.iter().flat_map(|e| event_clauses(e).iter().copied()))
            .chain(context_clauses(new, on_ability));
        for c in all {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    Ok(out)
}
