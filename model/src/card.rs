//! Card and ability definitions as data: what an item costs, its [Repeat] instances, its modes,
//! targets and effects, and the static and triggered abilities of permanents that change a play.
//!
//! These are the validated forms; `crate::catalogue` reads them from TOML.

use crate::cost::{Cost, Domain};
use serde::{Deserialize, Serialize};

/// Index of a definition in the model's card table.
pub type CardId = u16;

/// What kind of thing a definition describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CardKind {
    /// A spell: executes its instructions, then goes to its owner's trash (351, 359.3.d).
    Spell,
    /// A unit: enters the board when finalized (359.2).
    Unit,
    /// A gear: enters the board when finalized (359.2).
    Gear,
    /// A battlefield, controlled by a player or nobody.
    Battlefield,
    /// A triggered ability of a permanent, played like a spell without a card (398–406).
    Ability,
}

impl CardKind {
    /// The kind as the catalogue writes it (`spell`, `unit`, `gear`, `battlefield`, `ability`).
    pub fn word(self) -> &'static str {
        match self {
            CardKind::Spell => "spell",
            CardKind::Unit => "unit",
            CardKind::Gear => "gear",
            CardKind::Battlefield => "battlefield",
            CardKind::Ability => "ability",
        }
    }
}

/// When an item may be played (358.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timing {
    /// Only in an open, neutral state (the turn player's main phase).
    #[default]
    Normal,
    /// [Action]: also in a showdown's open state.
    Action,
    /// [Reaction]: also on an existing chain (closed state).
    Reaction,
}

/// The cost of one [Repeat] instance (820.1.c).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RepeatCost {
    /// Energy and/or Power.
    Pay(Cost),
    /// A non-resource cost: discard N cards (Square Up; RUP4 820.1.d.1).
    Discard(u8),
}

/// Where a [Repeat] instance comes from; granted instances stack with printed ones (820.1.c.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InstanceOrigin {
    /// Printed on the card.
    Printed,
    /// Temporal Portal: "[Repeat] equal to its cost" (printed cost, 206).
    Portal,
    /// Syndra, Transcendent: "your spells have [Repeat] [2][P]" while in a showdown.
    Syndra,
    /// "My abilities have [Repeat] — Discard 1" (RUP4 820.1.d.1).
    SourceUnit,
    /// The Academy: "give your next spell this turn [Repeat] equal to its base cost" (356.1.c).
    Academy,
}

/// A whole-card discount the card gives itself (356.4.d), e.g. Find Your Center.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfDiscount {
    /// Energy taken off the total (for each of `per`'s count).
    pub energy: u8,
    /// When the discount applies.
    pub when: Condition,
    /// What the Energy is counted by: once, or for each of a count the board gives.
    #[serde(default, skip_serializing_if = "Per::is_once")]
    pub per: Per,
    /// "To a minimum of [N]": the discount takes the total's Energy no lower than this; the floor
    /// belongs to this discount only (356.4.e). 0: no floor but 356.6's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min: u8,
}

/// What a discount's Energy is counted by when it is "[N] less for each ...".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Per {
    /// Taken off once.
    #[default]
    Once,
    /// "For each card you've played this turn": the cards its controller finalized this turn
    /// (419.4.b; a repeated spell is one card, 820.3.a).
    CardPlayedThisTurn,
    /// "Where X is the highest Might among your units": the greatest current Might of a unit its
    /// controller controls on the board (0 with none).
    HighestFriendlyMight,
}

impl Per {
    /// True for `Once` (the default, left out when written).
    pub fn is_once(&self) -> bool {
        *self == Per::Once
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A board condition a discount can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Condition {
    /// Always.
    Always,
    /// "If an opponent is within 3 points of the Victory Score."
    OpponentNearVictory,
    /// "While you're in a showdown": a showdown is in progress (341-348).
    Showdown,
}

/// One bulleted option of a "choose one" item, or the only body of a plain one (355.3).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mode {
    /// The rules text of the mode, for reports.
    pub text: String,
    /// The instructions, top to bottom.
    pub instructions: Vec<Instruction>,
}

impl Mode {
    /// Whether a "you may pay" comes before instruction `slot`: a rider there marked `if_paid`
    /// reads its answer rather than the card's optional additional cost.
    pub fn asks_before(&self, slot: usize) -> bool {
        self.instructions[..slot.min(self.instructions.len())]
            .iter()
            .any(|i| matches!(i.effect, Effect::MayPay(_)))
    }

    /// How many of its riders marked `if_paid` read the card's optional additional cost.
    pub fn cost_readers(&self) -> usize {
        (0..self.instructions.len())
            .filter(|&k| matches!(self.instructions[k].effect, Effect::IfPaid { .. }))
            .filter(|&k| !self.asks_before(k))
            .count()
    }
}

/// One instruction: an effect and, if it chooses objects, what it may choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// What the instruction does.
    pub effect: Effect,
    /// What it targets, if it targets (355.5).
    pub target: Option<TargetSpec>,
}

/// The effects of the model's vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Deal N damage to each target.
    Deal(u8),
    /// Deal damage equal to the source unit's Might (read when it executes, 359.3.f.2).
    DealMight,
    /// Kill each target (unit or gear): it goes to the trash, a zone change (124).
    Kill,
    /// The item's controller draws N.
    Draw(u8),
    /// "Discard N": the controller puts N cards of their choice from hand into the trash (422);
    /// the choice pauses the item, and the mode's later instructions run after it.
    Discard(u8),
    /// Play an N-Might unit token; it waits on the chain until the item has finished (354.3).
    PlayToken(u8),
    /// Move the target to the chosen destination (355.4).
    Move(Destination),
    /// "Its controller draws N": refers to the previous instruction's target (a linked
    /// instruction, 359.3.e.14).
    ItsControllerDraws(u8),
    /// Give the target +N (or −N) Might this turn.
    GiveMight(i8),
    /// Counter the target chain item (425).
    Counter,
    /// Gain control of the target chain item.
    GainControl,
    /// "You may make new choices for it" (750–755): "it" is the spell the previous instruction
    /// targeted.
    NewChoices,
    /// Banish this item from the chain while it resolves (a rules probe for 359.3.e.15).
    BanishSelf,
    // ---- the main deck, demands, counters by what a spell chose ----
    /// "Look at the top N of your Main Deck", take a card as `take` says, recycle the rest to
    /// the bottom (416): the controller decides while the instruction executes.
    LookAtTop {
        /// How many cards.
        n: u8,
        /// What is taken from them.
        take: LookTake,
    },
    /// "Counter it unless its controller pays [N]" (Hard Bargain): the target's controller
    /// decides while the instruction executes; paying is optional (RUP4), declining counters (425).
    CounterUnlessPays(u8),
    /// "You may pay [N]": not a cost but a game action (205) that the item's controller decides
    /// while the instruction executes, paying Energy from their pool (runes as for a demand,
    /// the rulebook's `demand_paid_with_runes`); the riders after it marked `if_paid` read the
    /// decision ("If you do, ...", 359.3.e.14). Each execution asks again.
    MayPay(u8),
    /// "Channel N runes exhausted" (Find Your Center). Runes are not modelled yet: the model
    /// counts them per player and logs the event.
    ChannelExhausted(u8),
    /// "Choose X": the instruction only names an object that a later one refers to (Repulse's
    /// friendly unit; Marching Orders' first unit).
    Choose,
    // ---- Combat statuses and Might ----
    /// "Give a unit [Assault N] this turn": summed with its other [Assault] (807.2).
    GiveAssault(u8),
    /// "[Stun] a unit" (423.1); a stunned unit is not stunned again (423.1.a.1).
    Stun,
    /// "Ready a unit" (415.1); a ready unit is not readied again (415.1.b).
    Ready,
    /// "They deal damage equal to their Mights to each other": the previous instruction's
    /// target and this one's, each the source of its own damage (417.6.b.3).
    MightsToEachOther,
    /// "Give your [tag]s +N Might this turn": every unit of that tag the item's controller
    /// controls, picked by its characteristics, not targeted (355.10.d).
    GiveMightToGroup(Tag, i8),
    /// "[Stun] it; if it's already stunned, return it to its owner's hand instead"
    /// (423.1.a.1; a zone change makes it a new object, 124).
    StunOrReturnToHand,
    /// "If this kills it, ...": a reflexive rider that refers to the previous instruction's kill
    /// or damage (359.3.e.14) and does `then` only if that instruction, in this execution,
    /// killed its unit; what a deal "kills" is the rulebook's `kills_it` (`game::rider`).
    IfThisKillsIt(Then),
    /// "If you paid, ..." (`paid`) or "Otherwise, ..." (not `paid`): a rider that refers to
    /// the spell's optional additional cost (356.2.b) and does `then` only if that cost was, or
    /// was not, paid while the spell was played (359.3.e.14: linked to that action). Every
    /// execution reads the same payment: the cost is paid once, as the item is played (820.3.a).
    /// After a "you may pay" of its mode (`MayPay`) it reads that decision instead ("If you
    /// do, ..."), made again in each execution.
    IfPaid {
        /// True for "if you paid", false for "otherwise".
        paid: bool,
        /// What the rider does.
        then: Then,
    },
    /// "Give the next spell you play this turn [Repeat] equal to its cost" (Temporal Portal's
    /// activated ability): the controller holds that grant until a spell takes it.
    GrantRepeatToNextSpell,
}

/// What a rider ("if this kills it", "if you paid") does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Then {
    /// The item's controller draws N.
    Draw(u8),
    /// Play an N-Might unit token (354.3: it waits until the item has finished).
    PlayToken(u8),
}

impl Then {
    /// The rider an effect can be: a draw or a token (`None` for any other effect).
    pub fn of(effect: Effect) -> Option<Then> {
        match effect {
            Effect::Draw(n) => Some(Then::Draw(n)),
            Effect::PlayToken(n) => Some(Then::PlayToken(n)),
            _ => None,
        }
    }

    /// The same action as an effect of its own.
    pub fn effect(self) -> Effect {
        match self {
            Then::Draw(n) => Effect::Draw(n),
            Then::PlayToken(n) => Effect::PlayToken(n),
        }
    }
}

/// What a "look at the top N" instruction takes from the cards looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LookTake {
    /// "Draw one" (Called Shot): one of them, the controller's choice.
    DrawOne,
    /// "You may reveal a unit and draw it" (Double Trouble): a named unit among them, or none.
    MayRevealUnit,
}

/// A restriction on what a targeted chain item has chosen (Not So Fast, Repulse). "Friendly" is
/// seen from the controller of the item that targets. Which executions' choices count is the
/// rulebook's `chosen_across` (the digest is silent on Repeat here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Chooses {
    /// "That chooses a friendly unit or gear" (Not So Fast).
    FriendlyUnitOrGear,
    /// "That chooses it and no other friendly unit", "it" being the target of the instruction
    /// before (Repulse); targets that left the board are not counted (359.3.e.9.a).
    OnlyItAmongFriendlyUnits,
}

/// A unit's tag (763.1), for group effects; the model knows the tags its cards use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tag {
    /// Mech (Danger Zone's "your Mechs").
    Mech,
}

impl Tag {
    /// Every tag the model knows.
    pub const ALL: [Tag; 1] = [Tag::Mech];

    /// The tag's printed name.
    pub fn name(self) -> &'static str {
        match self {
            Tag::Mech => "Mech",
        }
    }

    /// The tag with this printed name.
    pub fn parse(s: &str) -> Option<Tag> {
        Tag::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
    }
}

/// Where a move may go (355.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Destination {
    /// Any other location.
    Anywhere,
    /// "A location where there's a unit with the same controller" (Temptation).
    WithSameController,
}

/// What kind of object a target is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TargetKind {
    /// A unit on the board.
    Unit,
    /// A gear on the board.
    Gear,
    /// A spell on the chain.
    Spell,
    /// A spell or an ability on the chain (Not So Fast, Repulse: "an enemy spell or ability").
    SpellOrAbility,
}

/// Where a unit target must be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    /// Anywhere on the board.
    #[default]
    Anywhere,
    /// At a base.
    Base,
    /// At a battlefield.
    Battlefield,
    /// "Here": at the source unit's location.
    Here,
}

/// Whose objects may be chosen, relative to the item's controller (359.3.f.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// Anyone's.
    #[default]
    Any,
    /// An opponent's.
    Enemy,
    /// Your own.
    Friendly,
}

/// What one instruction may target (355.5–355.14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TargetSpec {
    /// Unit, gear or spell.
    pub kind: TargetKind,
    /// For units: where.
    pub at: Place,
    /// Whose.
    pub side: Side,
    /// How many targets.
    pub count: u8,
    /// "Up to N": fewer, even none, may be chosen (355.13).
    pub up_to: bool,
    /// All targets of the instruction at one location (Bellows Breath).
    pub same_location: bool,
    /// For spells: printed Energy cost at most this (Defy; checked on the printed cost, 206).
    pub max_energy: Option<u8>,
    /// For spells: printed Power cost at most this.
    pub max_power: Option<u8>,
    /// For spells and abilities: what the chosen item must have chosen.
    pub chooses: Option<Chooses>,
    /// For units: only an attacking unit (Thwonk!, Existential Dread).
    pub attacking: bool,
    /// For units: "other": not a unit the previous instruction of the same execution chose
    /// (Piercing Light).
    pub other: bool,
}

impl TargetSpec {
    /// One target of `kind` at `at` on `side`, with no further restriction: the shape most
    /// instructions have, which the others change with struct update syntax.
    pub fn one(kind: TargetKind, at: Place, side: Side) -> TargetSpec {
        TargetSpec {
            kind,
            at,
            side,
            count: 1,
            up_to: false,
            same_location: false,
            max_energy: None,
            max_power: None,
            chooses: None,
            attacking: false,
            other: false,
        }
    }
}

/// Static and triggered abilities of permanents that change how an item is played.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ability {
    /// Ezreal, Prodigy: "Optional additional costs you pay cost [1] or [A] less."
    OptionalCostsLess,
    /// Marai Spire: "While you control this battlefield, friendly [Repeat] costs cost [N] less."
    RepeatCostsLess(u8),
    /// Syndra, Transcendent: "While I'm in a showdown, your spells have [Repeat] [cost]."
    SpellsHaveRepeatInShowdown(Cost),
    /// "My abilities have [Repeat] [cost]" (RUP4 820.1.d.1).
    AbilitiesHaveRepeat(RepeatCost),
    /// Temporal Portal: "[A], [E]: Give the next spell you play this turn [Repeat] equal to its
    /// cost." as a setup fact: activated before the scenario starts (`portal you`).
    GrantRepeatToNextSpell,
    /// "COST: EFFECT", an activated ability of gear (398–406): the ability card it puts on the
    /// chain, whose cost is the activation cost ("[E]" is its "exhaust me").
    Activated(CardId),
    /// "When you play me, ...": triggers when the unit is played (383.4.a).
    WhenYouPlayMe(CardId),
    /// "When you play a spell, ...": triggers when a spell's play completes (419.4.a).
    WhenYouPlayASpell(CardId),
    /// "When an opponent's spell or ability chooses me, ...": a Targeting Effect (383.4.b.2).
    WhenChosen(CardId),
    /// "When I attack or defend, ...": a triggered ability the scenario starts with.
    WhenAttacks(CardId),
    /// [Deflect N]: opponents' items that choose me cost N more Power of any domain (809).
    Deflect(u8),
    /// "Spells and abilities your opponents control that choose me cost [N] more": a cost
    /// increase (356.3) of an opponent's item, for each choice of the unit or once per item
    /// (rulebook `increase_per_choice`).
    ChoosersPayMore(u8),
    /// "The Energy costs of spells you play are reduced by [N], to a minimum of [M]": a
    /// whole-card discount from a unit on the board (356.4.d), with its own floor (356.4.e).
    SpellsCostLess {
        /// Energy taken off.
        energy: u8,
        /// The floor that belongs to this discount (0: none but 356.6's).
        min: u8,
    },
    /// The Academy: "When you hold here, give your next spell this turn [Repeat] equal to its
    /// base cost." The hold is part of a scenario's setup.
    GrantRepeatBaseCostToNextSpell,
}

/// A card or ability definition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CardDef {
    /// The card's name, unique in a catalogue.
    pub name: String,
    /// The set code (e.g. SFD-077), empty for made-up cards.
    pub code: String,
    /// Spell, unit, gear, battlefield or ability.
    pub kind: CardKind,
    /// The card's domains.
    pub domains: Vec<Domain>,
    /// The printed cost (206: what "a card's cost" means).
    pub cost: Cost,
    /// When it may be played.
    pub timing: Timing,
    /// Printed [Repeat] instances, in order.
    pub repeat: Vec<RepeatCost>,
    /// A discount the card gives itself.
    pub discount: Option<SelfDiscount>,
    /// For triggered abilities whose effect starts "you may" (402.1).
    pub optional: bool,
    /// "As you play" instructions: run while playing, not on resolution (135.2.b.3).
    pub as_you_play: Vec<Instruction>,
    /// The modes; one mode means a plain item, more mean "choose one".
    pub modes: Vec<Mode>,
    /// "Choose one you haven't already chosen": executions must pick different modes.
    pub distinct_modes: bool,
    /// For units: Might.
    pub might: u8,
    /// Abilities of a permanent or battlefield.
    pub abilities: Vec<Ability>,
    /// For units: its tags (763.1), e.g. Mech.
    pub tags: Vec<Tag>,
    /// True for a card made up to probe a rule (no printed card reads so).
    pub synthetic: bool,
    /// Where the text comes from (set, rule, FAQ).
    pub source: String,
    /// Optional additional costs other than [Repeat], in printed order (356.2.b, 805).
    pub optional_costs: Vec<OptionalCost>,
    /// Mandatory additional costs that are not Energy or Power (356.2.a, 356.7).
    pub additional_costs: Vec<AdditionalCost>,
    /// The printed text, and which parts of it the model leaves out.
    pub printed: Printed,
}

/// A printed card's text as data, and how the model accounts for each part of it: its modes'
/// texts, the text its abilities and discount model, and the parts it does not model. The
/// catalogue refuses a printed card with a part none of these claims (`catalogue::fidelity`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Printed {
    /// The text as printed (digest §7); empty for cards made up for boards and probes.
    pub text: String,
    /// Parts of the text the model does not express, e.g. `[Hidden]`; reports list them.
    pub unmodelled: Vec<String>,
    /// Parts of the text that the card's abilities or discount model (not its modes).
    pub modelled: Vec<String>,
}

impl CardDef {
    /// True for spells and abilities: the items that resolve and can have [Repeat] (820.1.a).
    pub fn resolves(&self) -> bool {
        matches!(self.kind, CardKind::Spell | CardKind::Ability)
    }

    /// True when the card chooses one of several modes (355.3).
    pub fn is_modal(&self) -> bool {
        self.modes.len() > 1
    }

    /// The Deflect value of a permanent.
    pub fn deflect(&self) -> u8 {
        self.abilities
            .iter()
            .map(|a| match a {
                Ability::Deflect(n) => *n,
                _ => 0,
            })
            .sum()
    }

    /// True if the permanent has the given kind of ability.
    pub fn has(&self, pred: impl Fn(&Ability) -> bool) -> bool {
        self.abilities.iter().any(pred)
    }
}

// ---- Costs other than [Repeat] (356.2, 356.7, 805) ----

/// An optional additional cost ("you may pay ... as an additional cost"), decided while playing
/// (355.1.a) and reduced by Ezreal like a [Repeat] cost (Spiritforged FAQ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OptionalCost {
    /// What paying it costs.
    pub cost: Cost,
    /// What paying it does.
    pub rider: Rider,
}

/// What paying an optional additional cost does; it counts as paid however much was actually
/// paid (356.4.f.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rider {
    /// [Accelerate] (805): "If you do, I enter ready."
    EnterReady,
    /// "If you paid, draw N" as the unit is played: its play effect (383.4.a.2), a triggered
    /// ability that goes on the chain after the unit has entered the board.
    PlayTrigger(CardId),
    /// A spell's "If you paid, ... Otherwise, ...": its instructions marked `if_paid` read the
    /// decision as they execute (`Effect::IfPaid`).
    IfPaid,
}

/// A mandatory additional cost that is not Energy or Power (356.2.a, 356.7), paid in 357.2 after
/// Energy and Power. It must be possible to pay when the cost is paid (203.3; exhaust 414.4;
/// discard 422.3), or the play is undone (358.5). Recycling and other non-standard costs are
/// refused when a card is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AdditionalCost {
    /// "As an additional cost, discard N": the payer chooses which cards (357.2, 422.3).
    Discard(u8),
    /// "As an additional cost, exhaust a friendly unit": the payer chooses which ready unit
    /// (357.2, 414.4: an exhausted unit cannot be exhausted to pay a cost).
    ExhaustFriendlyUnit,
    /// "As an additional cost, kill a friendly unit" (357.2, 356.7), with `min_might` or more
    /// Might when the card restricts the cost's object (0: any unit; a [Mighty]-style
    /// restriction, read from the unit's Might as the cost is paid, 807.1.c): the payer chooses
    /// which.
    KillFriendlyUnit {
        /// The least Might the unit killed may have.
        min_might: u8,
    },
    /// "As an additional cost, exhaust me": a triggered ability's source unit, which must be
    /// on the board and ready (414.4); no choice, so no decision.
    ExhaustMe,
}

impl AdditionalCost {
    /// The cost as the catalogue writes it.
    pub fn text(&self) -> String {
        match self {
            AdditionalCost::Discard(n) => format!("Discard {n}"),
            AdditionalCost::ExhaustFriendlyUnit => "Exhaust a friendly unit".into(),
            AdditionalCost::KillFriendlyUnit { min_might: 0 } => "Kill a friendly unit".into(),
            AdditionalCost::KillFriendlyUnit { min_might } => {
                format!("Kill a friendly unit with {min_might}+ Might")
            }
            AdditionalCost::ExhaustMe => "Exhaust me".into(),
        }
    }
}
