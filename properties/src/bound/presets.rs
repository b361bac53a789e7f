//! The named bounds. [`PRESET_TABLE`] is the one list of them: each preset's name, what it is
//! for, and the function that builds it; `Bound::PRESETS`, `rbcheck bounds` and the `--bound`
//! help of every command are read from it.

use super::{BoardShape, BodyShape, Bound, Extra, HandDraw, Resources, TurnBound};
use Extra::{
    Ezreal, FrugalAdept, MaraiSpire, OpponentNearVictory, Portal, PortalReady, Spellwatcher,
    Syndra, Tollkeeper,
};

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn r(v: &[&[&str]]) -> Vec<Vec<String>> {
    v.iter().map(|h| s(h)).collect()
}

fn e(v: &[&[Extra]]) -> Vec<Vec<Extra>> {
    v.iter().map(|x| x.to_vec()).collect()
}

/// A named bound: its name, what it is for (one line, for `rbcheck bounds` and `--help`), and
/// the function that builds it.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The name `--bound` takes.
    pub name: &'static str,
    /// What the preset is for, in one line.
    pub purpose: &'static str,
    /// Builds the bound.
    build: fn() -> Bound,
}

/// Every preset, in the order commands list them.
pub const PRESET_TABLE: [Preset; 9] = [
    Preset {
        name: "tiny",
        purpose: "seconds, for tests: two catalogue cards and small generated items; every witness is reached",
        build: tiny,
    },
    Preset {
        name: "default",
        purpose: "the main job: generated items with up to two [Repeat] instances and the catalogue's repeated cards",
        build: default_bound,
    },
    Preset {
        name: "large",
        purpose: "minutes and gigabytes: three-instance generated items, more boards and reactions",
        build: large,
    },
    Preset {
        name: "combat",
        purpose: "units' combat statuses and Might: [Assault], stun, ready, Mights dealt to each other",
        build: combat,
    },
    Preset {
        name: "deck",
        purpose: "the named main deck (look, draw, recycle), Hard Bargain's demands, Not So Fast and Repulse",
        build: deck,
    },
    Preset {
        name: "costs",
        purpose: "costs other than [Repeat]: units from hand, a spell's \"if you paid\", \"you may pay\", Ezreal's choice, token locations, discard, kill (one restricted by Might) and exhaust costs",
        build: costs,
    },
    Preset {
        name: "discounts",
        purpose: "cost modifiers: whole-card discounts read from the board (cards played this turn, highest Might, a showdown), floors whose order the payer chooses, a chosen unit's increase",
        build: discounts,
    },
    Preset {
        name: "runes",
        purpose: "paying with runes from an empty pool; payments that fail half-way and are undone",
        build: runes,
    },
    Preset {
        name: "multi",
        purpose: "a turn of two plays, each player able to respond; Temporal Portal activated in the turn, beside another one's grant; a gear played from hand beside a spell",
        build: multi,
    },
];

impl Bound {
    /// The preset names, in [`PRESET_TABLE`] order.
    pub const PRESETS: [&'static str; PRESET_TABLE.len()] = {
        let mut names = [""; PRESET_TABLE.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = PRESET_TABLE[i].name;
            i += 1;
        }
        names
    };

    /// A named preset.
    pub fn preset(name: &str) -> Option<Bound> {
        PRESET_TABLE
            .iter()
            .find(|p| p.name == name)
            .map(|p| (p.build)())
    }
}

/// Seconds: for tests. Every witness is reached.
fn tiny() -> Bound {
    Bound {
        name: "tiny".into(),
        instances: vec![0, 1, 2],
        instance_costs: s(&["[1]"]),
        bodies: vec![BodyShape::Deal, BodyShape::KillLinked],
        item_cost: 1,
        catalogue: s(&["Curtain Call", "Find Your Center"]),
        abilities: true,
        boards: vec![BoardShape::EnemySpread],
        extras: e(&[&[], &[Ezreal, MaraiSpire], &[Portal, OpponentNearVictory]]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Defy"], &["Mystic Reversal"]]),
        deck_top: vec![],
        turn: TurnBound::default(),
        also: vec![],
    }
}

/// The main job: about 7.4 million states, every property holds under RUP4.
fn default_bound() -> Bound {
    Bound {
        name: "default".into(),
        instances: vec![0, 1, 2],
        instance_costs: s(&["[1]", "[1][B]", "Discard 1"]),
        bodies: vec![
            BodyShape::Deal,
            BodyShape::Modal,
            BodyShape::KillLinked,
            BodyShape::Token,
        ],
        item_cost: 1,
        catalogue: s(&[
            "Rocket Barrage",
            "Desert's Call",
            "Curtain Call",
            "Hidden Blade",
            "Find Your Center",
            "Vanishing Bolt",
        ]),
        abilities: true,
        boards: vec![
            BoardShape::EnemySpread,
            BoardShape::Deflect,
            BoardShape::Sentry,
        ],
        extras: e(&[&[], &[Ezreal, MaraiSpire], &[Portal], &[Spellwatcher]]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Defy"], &["Mystic Reversal"]]),
        deck_top: vec![],
        turn: TurnBound::default(),
        also: vec![],
    }
}

/// Minutes and gigabytes: three-instance generated items, more boards and reactions.
fn large() -> Bound {
    Bound {
        name: "large".into(),
        instances: vec![0, 1, 2, 3],
        instance_costs: s(&["[1]", "[1][B]", "Discard 1"]),
        bodies: vec![
            BodyShape::Deal,
            BodyShape::Modal,
            BodyShape::KillLinked,
            BodyShape::Token,
            BodyShape::Move,
        ],
        item_cost: 1,
        catalogue: s(&[
            "Rocket Barrage",
            "Desert's Call",
            "Curtain Call",
            "Hidden Blade",
            "Square Up",
            "Bellows Breath",
            "Temptation",
            "Find Your Center",
            "Chant of Readiness",
            "Vanishing Bolt",
        ]),
        abilities: true,
        boards: vec![
            BoardShape::EnemySpread,
            BoardShape::Deflect,
            BoardShape::Sentry,
            BoardShape::Mixed,
        ],
        extras: e(&[
            &[],
            &[Ezreal, MaraiSpire],
            &[Portal, OpponentNearVictory],
            &[Spellwatcher],
            &[Syndra],
        ]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Defy"], &["Swift Execution"], &["Mystic Reversal"]]),
        deck_top: vec![],
        turn: TurnBound::default(),
        also: vec![],
    }
}

/// Units' combat statuses and Might: every catalogue spell that gives [Assault], stuns,
/// readies, makes two units deal damage to each other, gives a group Might or returns a unit to its
/// owner's hand, on boards with a combat on (you attacking, or the opponent) and one without; Syndra
/// at the showdown; the opponent answering with Frigid Touch. Seconds.
fn combat() -> Bound {
    Bound {
        name: "combat".into(),
        instances: vec![],
        instance_costs: vec![],
        bodies: vec![],
        item_cost: 1,
        catalogue: s(&[
            "Blood Rush",
            "Square Up",
            "Thwonk!",
            "Existential Dread",
            "Marching Orders",
            "Piercing Light",
            "Bonds of Strength",
            "Danger Zone",
            "Upstage Comedy",
            "Frigid Touch",
            "Curtain Call",
        ]),
        abilities: false,
        boards: vec![
            BoardShape::Attack,
            BoardShape::Defence,
            BoardShape::Exhausted,
        ],
        extras: e(&[&[], &[Syndra], &[Ezreal, MaraiSpire]]),
        resources: vec![Resources::Rich],
        reactions: r(&[&[], &["Frigid Touch"], &["Defy"], &["Mystic Reversal"]]),
        deck_top: vec![],
        turn: TurnBound::default(),
        also: vec![],
    }
}

/// The named deck, looking and recycling, demands to pay, counters by what a repeated
/// spell chose, channelled runes.
fn deck() -> Bound {
    Bound {
        name: "deck".into(),
        instances: vec![],
        instance_costs: vec![],
        bodies: vec![],
        item_cost: 1,
        catalogue: s(&[
            "Called Shot",
            "Double Trouble",
            "Bellows Breath",
            "Find Your Center",
            "Hidden Blade",
            "Curtain Call",
        ]),
        abilities: false,
        boards: vec![BoardShape::EnemySpread],
        extras: e(&[&[], &[Ezreal, MaraiSpire], &[Portal, OpponentNearVictory]]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[
            &[],
            &["Hard Bargain"],
            &["Not So Fast"],
            &["Repulse"],
            &["Mystic Reversal"],
        ]),
        deck_top: s(&["Pouty Poro", "Spare Gear", "Practice Dummy"]),
        turn: TurnBound::default(),
        also: vec![],
    }
}

/// Costs other than [Repeat]: units played from hand with optional additional costs (Accelerate,
/// Clockwork Keeper, Blast Corps Cadet) and a spell's read by "If you paid, ... Otherwise, ..."
/// (Gambit Bolt), a "you may pay" that is no cost (Toll Bolt's instruction, Tollkeeper's
/// "when you play a spell" trigger; 205), Ezreal's choice of what to take off, token locations and
/// plays, and The Academy's grant beside the Portal's; mandatory costs that exhaust or kill a
/// friendly unit (the Mixed board has one) and the "if this kills it" rider.
fn costs() -> Bound {
    Bound {
        name: "costs".into(),
        instances: vec![0, 1],
        instance_costs: s(&["[1][B]"]),
        bodies: vec![BodyShape::Token],
        item_cost: 1,
        catalogue: s(&[
            "Legion Rearguard",
            "Clockwork Keeper",
            "Blast Corps Cadet",
            "Curtain Call",
            "Desert's Call",
            "Hidden Blade",
            "Tithe Bolt",
            "Gambit Bolt",
            "Toll Bolt",
            "Grim Offering",
            "Rallying Cry",
            "Deadly Strike",
        ]),
        abilities: false,
        boards: vec![BoardShape::EnemySpread, BoardShape::Mixed],
        extras: e(&[
            &[],
            &[Ezreal, MaraiSpire],
            &[Portal, Extra::Academy],
            &[Ezreal, Tollkeeper],
        ]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Defy"], &["Mystic Reversal"]]),
        deck_top: vec![],
        turn: TurnBound::default(),
        also: vec![costs_mighty()],
    }
}

/// `costs`' second part: a kill cost restricted by Might (Titan's Tithe, "kill a friendly unit
/// with 3 or more Might"; 357.2) beside Grim Offering's unrestricted one, on the Exhausted board
/// (a 4-Might unit can pay) and the Mixed one (no unit of yours can: the play is undone).
fn costs_mighty() -> Bound {
    Bound {
        name: "costs".into(),
        instances: vec![],
        instance_costs: vec![],
        bodies: vec![],
        item_cost: 1,
        catalogue: s(&["Titan's Tithe", "Grim Offering"]),
        abilities: false,
        boards: vec![BoardShape::Exhausted, BoardShape::Mixed],
        extras: e(&[&[]]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Defy"]]),
        deck_top: vec![],
        turn: TurnBound::default(),
        also: vec![],
    }
}

/// Whole-card discounts that read the board (356.4.d) and floors of their own (356.4.e): Momentum
/// Bolt ("[1] less per card you've played this turn, to a minimum of [1]") as the first or the
/// second play of a turn, after a spell that may be repeated; Giant's Share (your highest Might:
/// the Exhausted board gives you a 4-Might unit); Find Your Center beside Frugal Adept's floored
/// discount (the payer orders them); Ezreal's component discounts before them (356.4.c); Taxing
/// Warden, whose choosers pay [1] more (356.3), on a board of its own. A
/// second part puts Ambush Volley in a showdown (one play: a turn in a showdown needs focus
/// passing, which the model does not have).
fn discounts() -> Bound {
    Bound {
        name: "discounts".into(),
        instances: vec![],
        instance_costs: vec![],
        bodies: vec![],
        item_cost: 1,
        catalogue: s(&["Momentum Bolt", "Giant's Share", "Find Your Center"]),
        abilities: false,
        boards: vec![
            BoardShape::EnemyBase,
            BoardShape::Exhausted,
            BoardShape::Warden,
        ],
        extras: e(&[
            &[],
            &[FrugalAdept],
            &[FrugalAdept, OpponentNearVictory],
            &[FrugalAdept, Ezreal],
        ]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Defy"]]),
        deck_top: vec![],
        turn: TurnBound {
            plays: 2,
            yours: HandDraw {
                from: s(&["Desert's Call", "Momentum Bolt"]),
                up_to: 1,
            },
            opponent: HandDraw::default(),
        },
        also: vec![discounts_showdown()],
    }
}

/// `discounts`' second part, one play: Ambush Volley ("[2] less during a showdown") and Giant's
/// Share on the Attack board (a showdown at battlefield 1) and off it, with and without Frugal
/// Adept; Curtain Call, Rocket Barrage and Mystic Reversal for the witnesses every preset
/// reaches (two of three instances paid, a target the previous execution removed, new choices).
fn discounts_showdown() -> Bound {
    Bound {
        name: "discounts".into(),
        instances: vec![],
        instance_costs: vec![],
        bodies: vec![],
        item_cost: 1,
        catalogue: s(&[
            "Ambush Volley",
            "Giant's Share",
            "Curtain Call",
            "Rocket Barrage",
        ]),
        abilities: false,
        boards: vec![BoardShape::Attack, BoardShape::Mixed],
        extras: e(&[&[], &[FrugalAdept]]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Defy"], &["Mystic Reversal"]]),
        deck_top: vec![],
        turn: TurnBound::default(),
        also: vec![],
    }
}

/// Paying with runes: an empty pool and a few runes (`Resources::Runes`), items whose
/// costs need Energy, Power of a domain the runes have (Chaos, Calm) or lack (Order), an optional
/// cost Ezreal takes to 0, Find Your Center channelling from the rune deck, and Curtain Call's
/// three instances (with the reactions and bodies the witnesses need). Some payments succeed,
/// some fail half-way and are undone (358.5). Hard Bargain's demand finds your pool empty, so it
/// is paid by exhausting runes or declined.
fn runes() -> Bound {
    Bound {
        name: "runes".into(),
        instances: vec![0, 1],
        instance_costs: s(&["[1]", "[B]"]),
        bodies: vec![BodyShape::Deal, BodyShape::KillLinked],
        item_cost: 1,
        catalogue: s(&[
            "Find Your Center",
            "Called Shot",
            "Clockwork Keeper",
            "Hidden Blade",
            "Curtain Call",
        ]),
        abilities: false,
        boards: vec![BoardShape::EnemySpread],
        extras: e(&[&[], &[Ezreal], &[Portal, OpponentNearVictory]]),
        resources: vec![Resources::Runes],
        reactions: r(&[&[], &["Defy"], &["Mystic Reversal"], &["Hard Bargain"]]),
        deck_top: vec![],
        turn: TurnBound::default(),
        also: vec![],
    }
}

/// A turn, not a single play: the turn player makes two plays, each a full play whose
/// chain closes before the next; you hold the item and up to one more card (a reaction: your
/// second play or your response), the opponent up to two reactions, so that each player can
/// respond. Temporal Portal's grant and tight resources reach "the next spell" and undone plays.
/// The main part is one small board (an enemy unit at its base); a second part (`also`) puts
/// units at a battlefield, for the witnesses that need one or a second target (Curtain Call's two
/// of three, a target removed by the previous execution, new choices), with fewer variants:
/// crossed with every hand and extra, that board made the bound explode past 40 million states.
fn multi() -> Bound {
    Bound {
        name: "multi".into(),
        instances: vec![1],
        instance_costs: s(&["[1]"]),
        bodies: vec![BodyShape::Deal],
        item_cost: 1,
        catalogue: s(&["Feral Strength", "Curtain Call"]),
        abilities: false,
        boards: vec![BoardShape::EnemyBase],
        extras: e(&[&[], &[Portal], &[MaraiSpire]]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Frigid Touch"], &["Mystic Reversal"]]),
        deck_top: vec![],
        turn: TurnBound {
            plays: 2,
            yours: HandDraw {
                from: s(&["Feral Strength", "Frigid Touch"]),
                up_to: 1,
            },
            opponent: HandDraw {
                from: s(&["Defy"]),
                up_to: 1,
            },
        },
        also: vec![multi_battlefield(), multi_activation(), multi_gear()],
    }
}

/// `multi`'s third part: Temporal Portal on the board ready, so that you may activate it
/// ("[A], [E]: ...", 401) and then play two spells (Feral Strength, then what you drew), the
/// opponent answering with nothing, Mystic Reversal, and up to one Defy; rich and tight
/// resources (tight has one Power for [A]). Beside it, a second Portal already activated this
/// turn: activating the ready one gives the next spell a second Portal instance (each
/// activation's grant an effect of its own, 820.1.c.2). Crossed with every item and reaction of
/// the first part, the activation's own chain made it 48 million states.
fn multi_activation() -> Bound {
    Bound {
        name: "multi".into(),
        instances: vec![],
        instance_costs: vec![],
        bodies: vec![],
        item_cost: 1,
        catalogue: s(&["Feral Strength"]),
        abilities: false,
        boards: vec![BoardShape::EnemyBase],
        extras: e(&[&[PortalReady], &[Portal, PortalReady]]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Mystic Reversal"]]),
        deck_top: vec![],
        turn: TurnBound {
            plays: 2,
            yours: HandDraw {
                from: s(&["Feral Strength", "Frigid Touch"]),
                up_to: 1,
            },
            opponent: HandDraw {
                from: s(&["Defy"]),
                up_to: 1,
            },
        },
        also: vec![],
    }
}

/// `multi`'s fourth part: a gear played from hand (Spare Gear, 359.2: it enters ready in your
/// base once paid) beside Feral Strength, with Temporal Portal's grant held: whichever is played
/// first, only the spell takes "the next spell you play this turn" (SFD-078); rich and tight
/// resources, the opponent holding nothing or Defy.
fn multi_gear() -> Bound {
    Bound {
        name: "multi".into(),
        instances: vec![],
        instance_costs: vec![],
        bodies: vec![],
        item_cost: 1,
        catalogue: s(&["Feral Strength"]),
        abilities: false,
        boards: vec![BoardShape::EnemyBase],
        extras: e(&[&[Portal]]),
        resources: vec![Resources::Rich, Resources::Tight],
        reactions: r(&[&[], &["Defy"]]),
        deck_top: vec![],
        turn: TurnBound {
            plays: 2,
            yours: HandDraw {
                from: s(&["Spare Gear"]),
                up_to: 1,
            },
            opponent: HandDraw::default(),
        },
        also: vec![],
    }
}

/// `multi`'s second part: an enemy unit at a battlefield and one at its base, Curtain Call and
/// items that deal 2 or kill at a battlefield with one [Repeat] [1], rich resources, the opponent
/// holding nothing or Mystic Reversal, you the item and nothing or Frigid Touch (still two plays,
/// and each player can respond).
fn multi_battlefield() -> Bound {
    Bound {
        name: "multi".into(),
        instances: vec![1],
        instance_costs: s(&["[1]"]),
        bodies: vec![BodyShape::Deal, BodyShape::KillLinked],
        item_cost: 1,
        catalogue: s(&["Curtain Call"]),
        abilities: false,
        boards: vec![BoardShape::EnemySpread],
        extras: e(&[&[]]),
        resources: vec![Resources::Rich],
        reactions: r(&[&[], &["Mystic Reversal"]]),
        deck_top: vec![],
        turn: TurnBound {
            plays: 2,
            yours: HandDraw {
                from: s(&["Frigid Touch"]),
                up_to: 1,
            },
            opponent: HandDraw::default(),
        },
        also: vec![],
    }
}
