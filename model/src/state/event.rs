//! The observable events of a play, in the vocabulary of the rules: what properties, traces and
//! case expectations read (never the model's own counters), with the reasons they carry.

use super::{DeckCard, Location, Obj, Player, Zone};
use crate::card::CardId;
use crate::cost::{Cost, Domain};
use serde::{Deserialize, Serialize};

/// Why an instruction was not performed (359.3.e, 820.1.d.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IgnoredWhy {
    /// Every target is illegal now (359.3.e.7).
    TargetsIllegal,
    /// A linked instruction whose earlier instruction did not execute (359.3.e.14).
    LinkedNotExecuted,
    /// Its source (the unit whose Might it reads) is gone (359.3.e.12).
    SourceGone,
    /// The instruction cannot be followed (e.g. the destination no longer qualifies, 359.3.e.6).
    Impossible,
}

/// Why a play was undone (358.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CancelWhy {
    /// No legal choice exists for a required choice (355.8).
    NoLegalChoice,
    /// The total cost cannot be paid (357, 358.2).
    CannotPay,
    /// A chosen target would be illegal at the legality check (358.1): the cost can be paid only
    /// by killing a unit the item chose.
    TargetsIllegal,
}

/// An observable event. Properties read these, never the model's own counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A card or ability was put on the chain as a pending item (354).
    MovedToChain {
        /// The item.
        item: u8,
        /// Its definition.
        card: CardId,
        /// Its controller.
        by: Player,
    },
    /// A trigger's "you may" was decided (402.1).
    OptionalDecided {
        /// The item.
        item: u8,
        /// Performed or declined.
        accepted: bool,
    },
    /// A [Repeat] instance was declared paid or not (355.1.a, 820.1.c.2).
    RepeatDeclared {
        /// The item.
        item: u8,
        /// The instance index.
        instance: u8,
        /// Paid or not.
        pay: bool,
    },
    /// A mode was chosen for an execution (355.3, 820.2.a).
    ModeChosen {
        /// The item.
        item: u8,
        /// Execution index (0-based).
        exec: u8,
        /// Mode index.
        mode: u8,
    },
    /// A target was chosen (355.5).
    TargetChosen {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
        /// Instruction slot.
        slot: u8,
        /// The object.
        obj: Obj,
    },
    /// No more targets were chosen for an "up to" instruction (355.13).
    TargetsEnded {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
        /// Instruction slot.
        slot: u8,
    },
    /// A move destination was chosen (355.4).
    DestinationChosen {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
        /// Instruction slot.
        slot: u8,
        /// Where to.
        to: Location,
    },
    /// A discount was applied while determining the total cost (356.4).
    DiscountApplied {
        /// The item.
        item: u8,
        /// Whose discount.
        source: DiscountSource,
        /// Energy and Power taken off.
        amount: u8,
    },
    /// A paid [Repeat] instance's cost was added, after its component discounts (356.2.b, 356.4.c).
    RepeatCostAdded {
        /// The item.
        item: u8,
        /// The instance.
        instance: u8,
        /// Its Energy and Power after component discounts.
        cost: Cost,
        /// Cards to discard.
        discard: u8,
    },
    /// Deflect added its cost (809.1.c).
    DeflectAdded {
        /// The item.
        item: u8,
        /// The Deflect unit.
        unit: u8,
        /// Power added.
        amount: u8,
    },
    /// The total cost was determined (356).
    CostDetermined {
        /// The item.
        item: u8,
        /// The total.
        total: Cost,
        /// Cards to discard.
        discard: u8,
    },
    /// The cost was paid (357).
    CostPaid {
        /// The item.
        item: u8,
        /// Energy and Power by domain actually spent.
        paid: Cost,
        /// Cards discarded.
        discarded: u8,
    },
    /// A play was undone: not a counter (358.5).
    PlayCancelled {
        /// The item.
        item: u8,
        /// Why.
        why: CancelWhy,
    },
    /// The item passed its legality check (358).
    LegalityChecked {
        /// The item.
        item: u8,
    },
    /// The item was finalized (359).
    Finalized {
        /// The item.
        item: u8,
    },
    /// A player passed priority (338.1.b).
    Passed {
        /// Who.
        by: Player,
    },
    /// A player reacted while an item was mid-resolution (only a wrong rulebook allows it).
    WindowOpened {
        /// The resolving item.
        item: u8,
    },
    /// The item started resolving (340.1).
    ResolveStarted {
        /// The item.
        item: u8,
    },
    /// Execution `exec` of the item started (820.3).
    ExecutionStarted {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
    },
    /// An instruction was performed.
    Performed {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
        /// Instruction index.
        slot: u8,
        /// It is linked to the instruction before it (359.3.e.14): performed because that one
        /// was, on what that one acted on.
        linked: bool,
    },
    /// An instruction was ignored (820.1.d.2, 359.3.e.6).
    Ignored {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
        /// Instruction index.
        slot: u8,
        /// Why.
        why: IgnoredWhy,
    },
    /// A target was unaffected because it is illegal now (359.3.e.5).
    TargetUnaffected {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
        /// The object.
        obj: Obj,
    },
    /// Damage was dealt.
    Damaged {
        /// The unit.
        unit: u8,
        /// How much.
        amount: u8,
    },
    /// Might changed this turn.
    MightChanged {
        /// The unit.
        unit: u8,
        /// By how much.
        by: i8,
    },
    /// An object moved zone or location (a kill, a death, a move, a token entering).
    ZoneChange {
        /// The object.
        obj: Obj,
        /// To which zone.
        to: Zone,
    },
    /// A unit moved between locations.
    UnitMoved {
        /// The unit.
        unit: u8,
        /// Where to.
        to: Location,
    },
    /// A player drew cards.
    Drew {
        /// Who.
        who: Player,
        /// How many.
        n: u8,
    },
    /// A token was played by a resolving item and waits on the chain (354.3).
    TokenQueued {
        /// The item that played it.
        item: u8,
    },
    /// A triggered ability triggered and waits to go on the chain (383.3, 158.3).
    Triggered {
        /// The ability.
        card: CardId,
        /// The unit it belongs to.
        source: u8,
    },
    /// The item finished resolving; the play of a spell is complete: the play event of 419.4.a.
    Played {
        /// The item.
        item: u8,
        /// Who played it.
        by: Player,
    },
    /// The item finished resolving and left the chain (359.3.d, 406.5).
    Resolved {
        /// The item.
        item: u8,
    },
    /// The item was countered (425).
    Countered {
        /// The item.
        item: u8,
        /// The item that countered it.
        by: u8,
    },
    /// Costs of a countered item were refunded (only a wrong rulebook does this).
    Refunded {
        /// The item.
        item: u8,
    },
    /// The item left the chain during its own resolution (359.3.e.15).
    LeftChain {
        /// The item.
        item: u8,
    },
    /// Control of the item changed.
    ControlChanged {
        /// The item.
        item: u8,
        /// The new controller.
        to: Player,
    },
    /// New choices began for the item (750).
    NewChoicesBegun {
        /// The item.
        item: u8,
    },
    /// A choice of the item was remade (751–753).
    ChoiceRemade {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
        /// Instruction slot.
        slot: u8,
        /// The new object.
        obj: Obj,
    },
    /// A choice was kept while making new choices (753).
    ChoiceKept {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
        /// Instruction slot.
        slot: u8,
    },
    /// New choices ended.
    NewChoicesEnded {
        /// The item.
        item: u8,
    },
    /// A cleanup ran (321).
    Cleanup,
    /// The chain closed (340.2): a single-play scenario is over; in a turn the turn player
    /// regains priority in the open state (335).
    ChainClosed,
    /// `who`'s spell, item `item`, took the grant "the next spell you play this turn" as it was
    /// put on the chain.
    GrantTaken {
        /// The spell.
        item: u8,
        /// Its controller, who held the grant.
        who: Player,
        /// Which grant.
        grant: super::Grant,
    },
    /// The turn player ended the turn: "this turn" effects ended.
    TurnEnded,
    /// What was left in `who`'s rune pool at the end of the turn, `amount`, is gone: the pool
    /// empties (166–167).
    PoolEmptied {
        /// Whose pool.
        who: Player,
        /// What it held.
        amount: Cost,
    },
    /// `who` was given the grant "the next spell you play this turn" by item `item` (Temporal
    /// Portal's activated ability resolving).
    GrantGiven {
        /// The ability that gave it.
        item: u8,
        /// Who holds it now.
        who: Player,
        /// Which grant.
        grant: super::Grant,
    },
    /// Gear `gear` was exhausted to pay its own ability's "[E]" (357.2, 414).
    GearExhausted {
        /// The ability paid for.
        item: u8,
        /// `State::gear[n]`.
        gear: u8,
    },
    // ---- the main deck, demands to pay, channelled runes ----
    /// A player looked at the top `n` cards of their main deck (Called Shot, Double Trouble).
    LookedAt {
        /// The item whose instruction it is.
        item: u8,
        /// Whose deck.
        who: Player,
        /// How many cards (fewer than asked if the deck is short).
        n: u8,
    },
    /// A player revealed a named card looked at (Double Trouble: "reveal a unit").
    Revealed {
        /// Who.
        who: Player,
        /// The card.
        card: CardId,
    },
    /// A player drew one of the cards looked at (a draw: hand-size and deck change with it).
    DrewLooked {
        /// Who.
        who: Player,
        /// The card.
        card: DeckCard,
    },
    /// A card was recycled: put on the bottom of its owner's main deck (416).
    Recycled {
        /// Whose deck.
        who: Player,
        /// The card.
        card: DeckCard,
    },
    /// A player asked to pay for a chain item decided (Hard Bargain: "unless its controller pays").
    DemandDecided {
        /// The item that demands.
        item: u8,
        /// The item whose controller was asked.
        target: u8,
        /// Who decided.
        by: Player,
        /// Paid, or declined (the target is then countered).
        paid: bool,
        /// The Energy asked for (taken from `by`'s pool if paid).
        energy: u8,
    },
    /// A player declined to take a card looked at ("you may reveal a unit": Double Trouble).
    RevealDeclined {
        /// Who.
        who: Player,
    },
    /// A counter checked what the spell or ability it targets chose (Not So Fast, Repulse),
    /// counting its choices as 359.3.e.9.a says.
    ChosenChecked {
        /// The countering item.
        item: u8,
        /// The item whose choices were counted.
        target: u8,
        /// Whether they meet the restriction.
        met: bool,
    },
    /// A player channelled runes exhausted (Find Your Center).
    RunesChannelled {
        /// Who.
        who: Player,
        /// How many.
        n: u8,
    },
    // ---- Combat statuses ----
    /// A unit became stunned (423.1).
    Stunned {
        /// The unit.
        unit: u8,
    },
    /// An exhausted unit became ready (415.1).
    Readied {
        /// The unit.
        unit: u8,
    },
    /// A unit was given [Assault N] this turn; grants are summed (807.2).
    AssaultGiven {
        /// The unit.
        unit: u8,
        /// N.
        amount: u8,
    },
    /// Two units dealt damage equal to their Mights to each other; they are the sources
    /// (417.6.b.3).
    MightsExchanged {
        /// The item's controller's unit.
        a: u8,
        /// The other unit.
        b: u8,
    },
    /// An instruction affected a group picked by its characteristics, without targeting
    /// (355.10.d): "your Mechs".
    GroupAffected {
        /// The item.
        item: u8,
        /// Execution index.
        exec: u8,
        /// How many units the group held.
        n: u8,
    },
    // ---- Costs other than [Repeat], where units enter (355.1.a, 355.2, 356.4.c, 359.2) ----
    /// An optional additional cost other than [Repeat] was declared paid or not (355.1.a).
    OptionalCostDeclared {
        /// The item.
        item: u8,
        /// Which of the card's optional costs.
        index: u8,
        /// Paid or not.
        pay: bool,
    },
    /// A paid optional additional cost was added, after its component discounts (356.2.b,
    /// 356.4.c); it counts as paid even at 0 (356.4.f.1).
    OptionalCostAdded {
        /// The item.
        item: u8,
        /// Which of the card's optional costs.
        index: u8,
        /// Its Energy and Power after component discounts.
        cost: Cost,
    },
    /// The payer chose which part "[1] or [A] less" takes off a component (356.4.c).
    ReductionChosen {
        /// The item.
        item: u8,
        /// The component.
        component: super::Component,
        /// Energy or Power.
        less: super::Reduction,
    },
    /// A unit the item chose raised its cost: "spells and abilities your opponents control that
    /// choose me cost [N] more" (356.3).
    CostIncreased {
        /// The item.
        item: u8,
        /// The unit chosen.
        unit: u8,
        /// Energy added.
        amount: u8,
    },
    /// The payer put this whole-card discount before the others not yet applied, a discount's
    /// own floor making their order matter (356.4.d-e).
    DiscountOrdered {
        /// The item.
        item: u8,
        /// The discount.
        source: DiscountSource,
    },
    /// The location a unit or token will enter was chosen (355.2).
    LocationChosen {
        /// The item.
        item: u8,
        /// Where.
        to: Location,
    },
    /// A unit played (from hand or as a token) entered the board (359.2), ready if its
    /// [Accelerate] was paid (805), else exhausted.
    UnitEntered {
        /// The item it was.
        item: u8,
        /// The unit.
        unit: u8,
        /// Where.
        at: Location,
        /// Ready (805) rather than exhausted (359.2).
        ready: bool,
    },
    /// A gear played from hand entered the board, ready, in its controller's base (359.2).
    GearEntered {
        /// The item it was.
        item: u8,
        /// The gear.
        gear: u8,
    },
    /// A mandatory additional cost was added (356.2.a): cards to discard.
    AdditionalCostAdded {
        /// The item.
        item: u8,
        /// Cards to discard.
        discard: u8,
    },
    /// A card was discarded to pay a cost, chosen by the payer (357.2).
    Discarded {
        /// The item paid for.
        item: u8,
        /// Who discarded.
        who: Player,
        /// The named card, or `None` for one of the other cards in hand.
        card: Option<CardId>,
    },
    /// A friendly unit was exhausted or killed to pay a mandatory additional cost, chosen by
    /// the payer (357.2); a kill is also a zone change, logged after it.
    PaidWithUnit {
        /// The item paid for.
        item: u8,
        /// The unit.
        unit: u8,
        /// The cost it paid.
        cost: crate::card::AdditionalCost,
    },
    // ---- Runes ----
    /// A rune was exhausted to add [1] while paying for an item (164.2, 357.1.a).
    RuneExhausted {
        /// The item being paid for.
        item: u8,
        /// The rune's controller.
        who: Player,
        /// The rune's domain.
        domain: Domain,
    },
    /// A rune was recycled to add one Power of its domain while paying for an item (164.2,
    /// 357.1.a); it goes to the bottom of the rune deck.
    RuneRecycled {
        /// The item being paid for.
        item: u8,
        /// The rune's controller.
        who: Player,
        /// The rune's domain.
        domain: Domain,
        /// The rune was ready (else exhausted) when recycled.
        ready: bool,
    },
    /// The top rune of a rune deck was channelled exhausted (Find Your Center).
    RuneChannelled {
        /// Whose rune.
        who: Player,
        /// Its domain.
        domain: Domain,
    },
    /// A rune was exhausted to add [1] while paying a demand ("unless its controller pays",
    /// Hard Bargain; 164.2, 357.1.a, option `demand_paid_with_runes`).
    DemandRuneExhausted {
        /// The item that demands.
        item: u8,
        /// The rune's controller, who was asked to pay.
        who: Player,
        /// The rune's domain.
        domain: Domain,
    },
}

impl Event {
    /// The units and gear whose state this event changes, or (a target left unaffected as
    /// illegal, 359.3.e.5) leaves alone on purpose: where a difference on one of them is
    /// decided. Choosing a target changes nothing yet.
    pub fn objects(&self) -> [Option<Obj>; 2] {
        use Event::*;
        let unit = |u: u8| Some(Obj::Unit(u));
        match *self {
            Damaged { unit: u, .. }
            | MightChanged { unit: u, .. }
            | UnitMoved { unit: u, .. }
            | Stunned { unit: u }
            | Readied { unit: u }
            | AssaultGiven { unit: u, .. }
            | UnitEntered { unit: u, .. }
            | PaidWithUnit { unit: u, .. }
            | CostIncreased { unit: u, .. } => [unit(u), None],
            DiscountApplied {
                source: DiscountSource::Unit(u),
                ..
            }
            | DiscountOrdered {
                source: DiscountSource::Unit(u),
                ..
            } => [unit(u), None],
            MightsExchanged { a, b } => [unit(a), unit(b)],
            ZoneChange { obj, .. } | TargetUnaffected { obj, .. } => [Some(obj), None],
            GearExhausted { gear, .. } | GearEntered { gear, .. } => [Some(Obj::Gear(gear)), None],
            _ => [None, None],
        }
    }

    /// The chain item this event is about, if any.
    pub fn item(&self) -> Option<u8> {
        use Event::*;
        match *self {
            MovedToChain { item, .. }
            | OptionalDecided { item, .. }
            | RepeatDeclared { item, .. }
            | DiscountApplied { item, .. }
            | RepeatCostAdded { item, .. }
            | DeflectAdded { item, .. }
            | CostDetermined { item, .. }
            | CostPaid { item, .. }
            | PlayCancelled { item, .. }
            | Finalized { item }
            | ResolveStarted { item }
            | ExecutionStarted { item, .. }
            | Performed { item, .. }
            | Ignored { item, .. }
            | Played { item, .. }
            | Countered { item, .. }
            | OptionalCostAdded { item, .. }
            | DiscountOrdered { item, .. }
            | CostIncreased { item, .. }
            | AdditionalCostAdded { item, .. }
            | UnitEntered { item, .. }
            | GearEntered { item, .. }
            | ModeChosen { item, .. }
            | TargetChosen { item, .. }
            | TargetsEnded { item, .. }
            | DestinationChosen { item, .. }
            | LegalityChecked { item, .. }
            | WindowOpened { item, .. }
            | TargetUnaffected { item, .. }
            | TokenQueued { item, .. }
            | Resolved { item, .. }
            | Refunded { item, .. }
            | LeftChain { item, .. }
            | ControlChanged { item, .. }
            | NewChoicesBegun { item, .. }
            | ChoiceRemade { item, .. }
            | ChoiceKept { item, .. }
            | NewChoicesEnded { item, .. }
            | GrantTaken { item, .. }
            | GrantGiven { item, .. }
            | GearExhausted { item, .. }
            | LookedAt { item, .. }
            | DemandDecided { item, .. }
            | ChosenChecked { item, .. }
            | GroupAffected { item, .. }
            | OptionalCostDeclared { item, .. }
            | ReductionChosen { item, .. }
            | LocationChosen { item, .. }
            | Discarded { item, .. }
            | PaidWithUnit { item, .. }
            | RuneExhausted { item, .. }
            | RuneRecycled { item, .. }
            | DemandRuneExhausted { item, .. } => Some(item),
            _ => None,
        }
    }

    /// The player whose hand, main deck, rune pool, runes or grants this event changes or
    /// looks at, when the event names them (a cost paid names only its item).
    pub fn player(&self) -> Option<Player> {
        use Event::*;
        match *self {
            Drew { who, .. }
            | DrewLooked { who, .. }
            | Recycled { who, .. }
            | Discarded { who, .. }
            | RuneExhausted { who, .. }
            | RuneRecycled { who, .. }
            | RuneChannelled { who, .. }
            | RunesChannelled { who, .. }
            | DemandRuneExhausted { who, .. }
            | PoolEmptied { who, .. }
            | GrantGiven { who, .. }
            | GrantTaken { who, .. }
            | LookedAt { who, .. } => Some(who),
            DemandDecided { by, .. } => Some(by),
            _ => None,
        }
    }
}

/// Whose discount was applied (356.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DiscountSource {
    /// The card's own whole-card discount (Find Your Center).
    SelfDiscount,
    /// Ezreal, Prodigy, on an optional additional cost.
    Ezreal,
    /// Marai Spire, on a [Repeat] cost.
    MaraiSpire,
    /// A unit on the board whose "spells you play cost less" is a whole-card discount (356.4.d).
    Unit(u8),
}

impl std::fmt::Display for DiscountSource {
    /// The source as a report names it: the card's own words, not the model's variant name.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DiscountSource::SelfDiscount => "its own discount",
            DiscountSource::Ezreal => "Ezreal, Prodigy",
            DiscountSource::MaraiSpire => "Marai Spire",
            DiscountSource::Unit(_) => "a unit's discount",
        })
    }
}
