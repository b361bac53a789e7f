//! The state of a play: the board, each player's resources and zones, the chain with each item's
//! [Repeat] decisions and per-execution choices, priority, and the event log of what happened.
//!
//! States are plain ordered data (no maps, no pointers) so that hashing and cloning are cheap and
//! deterministic: the checker stores millions of them.

use crate::card::{CardId, InstanceOrigin, RepeatCost};
use crate::cost::Cost;
use serde::{Deserialize, Serialize};
use std::cell::UnsafeCell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::{ManuallyDrop, MaybeUninit};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A player. Player 0 is "you", the turn player; player 1 is the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Player(pub u8);

impl Player {
    /// The turn player, who plays the item under test.
    pub const YOU: Player = Player(0);
    /// The opponent.
    pub const OPP: Player = Player(1);

    /// The other player (two-player games only).
    pub fn other(self) -> Player {
        Player(1 - self.0)
    }

    /// Index into per-player arrays.
    pub fn ix(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 == 0 { "you" } else { "opponent" })
    }
}

/// A location on the board: a player's base or a battlefield.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Location {
    /// The player's base.
    Base(Player),
    /// Battlefield number n.
    Battlefield(u8),
}

impl Location {
    /// True for battlefields.
    pub fn is_battlefield(self) -> bool {
        matches!(self, Location::Battlefield(_))
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Base(p) if p.0 == 0 => f.write_str("your base"),
            Location::Base(_) => f.write_str("opponent's base"),
            Location::Battlefield(n) => write!(f, "battlefield {}", n + 1),
        }
    }
}

/// Where a card or object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Zone {
    /// On the board.
    Board,
    /// In its owner's trash; a token that leaves the board ceases to exist (it is here too).
    Trash,
}

/// A unit. Its index in `State::units` names it for the whole play; once it leaves the board it
/// is a new object (124) and never legal as a target again (359.3.e.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Its definition.
    pub card: CardId,
    /// True for tokens.
    pub token: bool,
    /// Its owner.
    pub owner: Player,
    /// Its controller.
    pub controller: Player,
    /// Where it is.
    pub loc: Location,
    /// Board or trash.
    pub zone: Zone,
    /// Its printed (or token) Might.
    pub might: u8,
    /// Might given or taken this turn.
    pub might_mod: i8,
    /// Damage marked on it; lethal damage kills it in the next cleanup (321).
    pub damage: u8,
}

impl Unit {
    /// Its current Might, never below 0.
    pub fn current_might(&self) -> u8 {
        (self.might as i16 + self.might_mod as i16).clamp(0, 255) as u8
    }
}

/// A gear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gear {
    /// Its definition.
    pub card: CardId,
    /// Its owner and controller.
    pub controller: Player,
    /// Board or trash.
    pub zone: Zone,
}

/// A battlefield with its controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Battlefield {
    /// Its definition, if it has abilities that matter.
    pub card: Option<CardId>,
    /// Who controls it.
    pub controller: Option<Player>,
}

/// A player's resources and zones.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerState {
    /// The rune pool: Energy and Power by domain (`any` is always 0 here).
    pub pool: Cost,
    /// Named cards in hand (the ones that can be played in the scenario).
    pub hand: InlineVec<CardId, 4>,
    /// Other cards in hand, which only matter as cards to discard or as a count.
    pub hand_other: u8,
    /// Cards left in the main deck.
    pub deck: u8,
    /// Named cards in the trash.
    pub trash: InlineVec<CardId, 4>,
    /// Other cards in the trash (discarded or killed anonymous cards).
    pub trash_other: u8,
    /// Cards this player finalized this turn: what Legion-style checks count (419.4.b).
    pub finalized_this_turn: u8,
    /// Cards whose play was undone (358.5); the model does not try them again, so that undoing
    /// cannot loop.
    pub undone: InlineVec<CardId, 4>,
    /// Temporal Portal was activated: the next spell played gets [Repeat] equal to its cost.
    pub portal_charged: bool,
    /// This player is within 3 points of the Victory Score (Find Your Center's condition).
    pub near_victory: bool,
}

/// A [Repeat] instance of a chain item and the decision made for it (820.1.c).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RepeatInstance {
    /// What paying it costs.
    pub cost: RepeatCost,
    /// Printed or granted.
    pub origin: InstanceOrigin,
    /// How many times it was declared paid (the rules allow at most once, 820.1.c.3).
    pub paid: u8,
    /// Whether its decision has been made.
    pub decided: bool,
}

/// A chosen object: a unit, a gear or a chain item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Obj {
    /// `State::units[n]`.
    Unit(u8),
    /// `State::gear[n]`.
    Gear(u8),
    /// The chain item with this id.
    Item(u8),
}

/// One choice of one execution (355.3–355.5, 820.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pick {
    /// A target for the instruction at `slot` of the chosen mode.
    Target {
        /// Instruction index within the mode.
        slot: u8,
        /// The object chosen.
        obj: Obj,
    },
    /// No more targets for an "up to" instruction (355.13).
    EndTargets {
        /// Instruction index within the mode.
        slot: u8,
    },
    /// The destination of the move at `slot` (355.4).
    Destination {
        /// Instruction index within the mode.
        slot: u8,
        /// Where to.
        to: Location,
    },
}

/// The ordered choices of one execution: a mode and its picks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExecChoices {
    /// The mode chosen (0 for a plain item); `None` until chosen.
    pub mode: Option<u8>,
    /// The picks in the order made.
    pub picks: InlineVec<Pick, 2>,
    /// All choices of this execution are made.
    pub complete: bool,
}

impl ExecChoices {
    /// The targets chosen for `slot`, in order.
    pub fn targets(&self, slot: u8) -> impl Iterator<Item = Obj> + '_ {
        self.picks.iter().filter_map(move |p| match p {
            Pick::Target { slot: s, obj } if *s == slot => Some(*obj),
            _ => None,
        })
    }

    /// The destination chosen for `slot`.
    pub fn destination(&self, slot: u8) -> Option<Location> {
        self.picks.iter().find_map(|p| match p {
            Pick::Destination { slot: s, to } if *s == slot => Some(*to),
            _ => None,
        })
    }

    /// Every object chosen by this execution.
    pub fn objects(&self) -> impl Iterator<Item = Obj> + '_ {
        self.picks.iter().filter_map(|p| match p {
            Pick::Target { obj, .. } => Some(*obj),
            _ => None,
        })
    }
}

/// Where a chain item came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A card played from its controller's hand.
    Hand,
    /// A triggered ability of the unit `State::units[n]`.
    Trigger(u8),
    /// A unit token of this Might played by an effect.
    Token {
        /// Its Might.
        might: u8,
    },
}

/// Where a chain item is in its life (329, 352).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Pending: its controller is making choices (355).
    Choosing,
    /// Pending: choices made, total cost not yet determined (356).
    Chosen,
    /// Pending: total cost determined, not paid (357).
    Costed,
    /// Pending: paid, legality not checked (358).
    Paid,
    /// Pending: legal, to be finalized (359).
    Legal,
    /// A finalized chain item waiting to resolve (359.3).
    Finalized,
    /// Resolving; `next` executions have run (820.3).
    Resolving {
        /// Executions finished so far.
        done: u8,
    },
    /// Resolving, paused inside execution `exec` while its controller makes new choices for the
    /// item `for_item` (750–755).
    NewChoices {
        /// The execution that gave the permission.
        exec: u8,
        /// The chain item whose choices may be remade.
        for_item: u8,
    },
}

/// What the controller pays: the total cost of 356.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TotalCost {
    /// Energy and Power.
    pub resources: Cost,
    /// Cards to discard (a non-standard cost, 357.2).
    pub discard: u8,
}

/// An item on the chain.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChainItem {
    /// Unique within a state; never reused.
    pub id: u8,
    /// Its definition.
    pub card: CardId,
    /// Hand, trigger or token.
    pub origin: Origin,
    /// Its owner (whose trash a spell goes to).
    pub owner: Player,
    /// Who controls it now.
    pub controller: Player,
    /// Where it is in its life.
    pub phase: Phase,
    /// Its [Repeat] instances, printed first, then granted ones.
    pub repeat: InlineVec<RepeatInstance, 4>,
    /// A trigger's "you may": `None` until decided (402.1).
    pub accepted: Option<bool>,
    /// The choices of each execution, in the declared order (820.2.a).
    pub choices: InlineVec<ExecChoices, 4>,
    /// The total cost once determined (356); what was paid once paid (357).
    pub cost: TotalCost,
    /// Objects the item has chosen at some point, by execution (for "not previously chosen", 751.1).
    pub ever_chosen: InlineVec<(u8, Obj), 6>,
    /// It left the chain during its own resolution (359.3.e.15); it stays listed until it finishes.
    pub left_chain: bool,
}

impl ChainItem {
    /// Executions the item will run: 1 + `per` for each paid instance (820.3 says `per` is 1).
    pub fn executions(&self, per: u8) -> u8 {
        1u8.saturating_add(
            self.repeat
                .iter()
                .map(|r| r.paid)
                .sum::<u8>()
                .saturating_mul(per),
        )
    }

    /// True while the item is still being played (329.1).
    pub fn is_pending(&self) -> bool {
        matches!(
            self.phase,
            Phase::Choosing | Phase::Chosen | Phase::Costed | Phase::Paid | Phase::Legal
        )
    }
}

/// Something queued by a resolving item, waiting until it has finished (158.3, 354.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Queued {
    /// A unit token of this Might for this controller.
    Token {
        /// Its controller.
        controller: Player,
        /// Its Might.
        might: u8,
    },
    /// A triggered ability (definition) of the unit `units[source]`.
    Trigger {
        /// Its definition.
        card: CardId,
        /// The unit whose ability it is.
        source: u8,
    },
}

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
    /// The chain closed: the scenario is over (340.2).
    ChainClosed,
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
}

/// The whole state of a play.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    /// Units, including ones that left the board (they keep their index).
    pub units: InlineVec<Unit, 4>,
    /// Gear.
    pub gear: InlineVec<Gear, 2>,
    /// Battlefields.
    pub battlefields: InlineVec<Battlefield, 2>,
    /// Both players.
    pub players: [PlayerState; 2],
    /// The chain, oldest item first.
    pub chain: InlineVec<ChainItem, 2>,
    /// Items and triggers created by a resolving item, waiting until it finishes (158.3.a).
    pub queued: InlineVec<Queued, 2>,
    /// The next chain item id.
    pub next_item: u8,
    /// Who holds priority, if anyone (311–312).
    pub priority: Option<Player>,
    /// Consecutive passes (339).
    pub passes: u8,
    /// A showdown is in progress (Syndra's condition; [Action] timing).
    pub showdown: bool,
    /// A lethal-damage cleanup is outstanding (321.1).
    pub cleanup_due: bool,
    /// The scenario's play has begun (so an empty chain means it is over).
    pub started: bool,
    /// What each player started with, for properties that compare the board with it.
    pub start: Start,
    /// Everything observable that happened, in order.
    pub log: Log,
}

/// What the players started with; never changes during a play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Start {
    /// Each player's rune pool.
    pub pools: [Cost; 2],
    /// Each player's cards (hand, deck, trash, board; tokens excluded).
    pub cards: [u8; 2],
}

impl Clone for State {
    fn clone(&self) -> Self {
        let log = self.log.clone();
        State {
            units: self.units.clone(),
            gear: self.gear.clone(),
            battlefields: self.battlefields.clone(),
            players: self.players.clone(),
            chain: self.chain.clone(),
            queued: self.queued.clone(),
            next_item: self.next_item,
            priority: self.priority,
            passes: self.passes,
            showdown: self.showdown,
            cleanup_due: self.cleanup_due,
            started: self.started,
            start: self.start.clone(),
            log,
        }
    }
}

/// Hashes a state as a packed bit string: each field in as few bits as its type needs (a bool in
/// one bit, a `u8` in eight, an enum's variant in a few bits before its fields, a list's length
/// before its elements), handed to the hasher 64 bits at a time.
///
/// A state is mostly small fields and carries its whole event log. Hashed field by field (the
/// derived `Hash`), each field costs the hasher a call and a round of mixing: several hundred per
/// state, more than producing the state costs. Packed, a state is a few dozen words.
///
/// The bit string is decodable by following the types (fixed widths, variant tags before the
/// fields they select, lengths before elements), so distinct states give distinct strings, and
/// equal states equal ones: this agrees with `Eq`. Every `encode` destructures its value
/// exhaustively, so a field added to a state type cannot be silently left out.
impl Hash for State {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut b = Bits::new(state);
        let State {
            units,
            gear,
            battlefields,
            players,
            chain,
            queued,
            next_item,
            priority,
            passes,
            showdown,
            cleanup_due,
            started,
            start,
            log,
        } = self;
        b.list(units);
        b.list(gear);
        b.list(battlefields);
        players[0].encode(&mut b);
        players[1].encode(&mut b);
        b.list(chain);
        b.list(queued);
        b.u8(*next_item);
        priority.encode(&mut b);
        b.u8(*passes);
        b.bool(*showdown);
        b.bool(*cleanup_due);
        b.bool(*started);
        start.encode(&mut b);
        // The log's digest stands for its events (see `Log`).
        b.len(log.len());
        b.put(log.digest & 0xffff_ffff, 32);
        b.put(log.digest >> 32, 32);
        b.finish();
    }
}

/// What happened, in order: an append-only list of events that keeps a running digest of itself.
///
/// Every state carries its whole log, and the checker hashes every state it reaches: with the
/// digest, hashing a state costs the same however long its log is (each event is digested once,
/// when it is appended, instead of once per state it is in). It reads like a `Vec<Event>` (it
/// dereferences to a slice; it prints and compares as its events) but can only grow, through
/// [`Log::push`] and `extend`, so the digest always describes the events.
///
/// The digest of equal logs is equal, so hashing it agrees with `Eq`. Two different logs share a
/// digest with probability about 2⁻⁶⁴, which adds that much to the chance that two states share
/// a fingerprint (see `checker::fingerprint`).
///
/// Every step copies a state and appends to the copy's log, so copies share their events: a
/// copy is a reference to its original's `Chunk`, and the first of them to append extends the
/// chunk in place. Only a log that is not the first (a sibling: another successor of the same
/// state) or that fills its chunk copies its events, into a new chunk. The checker's states form
/// nearly a tree in which most states have one successor, so most steps copy no event at all.
pub struct Log {
    /// Holds the events in its first `len` slots; `None` for the empty log.
    chunk: Option<Arc<Chunk>>,
    len: usize,
    digest: u64,
}

/// Event slots shared by a log and its copies.
///
/// Slot `i` is written once, by the one log that moves `claimed` from `i` to `i + 1`, and only
/// before any other log has a length above `i`: a log reads only its first `len` slots, which it
/// or the log it was copied from wrote before the copy was made. So no slot is read and written
/// at once, and none is written twice.
struct Chunk {
    /// Slots below it are written or being written by the log that claimed them.
    claimed: AtomicUsize,
    slots: Box<[UnsafeCell<MaybeUninit<Event>>]>,
}

// SAFETY: shared access writes a slot only after claiming it (an atomic exchange that one log
// alone wins) and reads only slots whose writes happened before (see `Chunk`); publishing a
// state to another thread orders its writes before that thread's reads.
unsafe impl Sync for Chunk {}

/// The fewest slots of a new chunk: room for a lineage of steps to append before copying again.
const LOG_MIN_CHUNK: usize = 32;
/// The digest of an empty log (hex digits of π).
const LOG_SEED: u64 = 0x243f_6a88_85a3_08d3;

impl Log {
    /// An empty log.
    pub const fn new() -> Log {
        Log {
            chunk: None,
            len: 0,
            digest: LOG_SEED,
        }
    }

    /// Appends an event.
    #[inline]
    pub fn push(&mut self, e: Event) {
        let mut d = Digest(self.digest);
        let mut b = Bits::new(&mut d);
        e.encode(&mut b);
        b.finish();
        self.digest = d.0;
        let n = self.len;
        if let Some(c) = &self.chunk {
            if n < c.slots.len()
                && c.claimed
                    .compare_exchange(n, n + 1, Ordering::AcqRel, Ordering::Relaxed)
                    .is_ok()
            {
                // SAFETY: this log alone claimed slot `n`, and no log reads it before this one
                // counts it (see `Chunk`).
                unsafe { (*c.slots[n].get()).write(e) };
                self.len = n + 1;
                return;
            }
        }
        self.copy_and_push(e);
    }

    /// Appends `e` to a copy of the events in a new chunk of this log's own.
    #[cold]
    fn copy_and_push(&mut self, e: Event) {
        let n = self.len;
        let cap = (2 * (n + 1)).max(LOG_MIN_CHUNK);
        let mut slots = Vec::with_capacity(cap);
        slots.extend(
            self.as_slice()
                .iter()
                .chain([&e])
                .map(|&x| UnsafeCell::new(MaybeUninit::new(x))),
        );
        slots.resize_with(cap, || UnsafeCell::new(MaybeUninit::uninit()));
        self.chunk = Some(Arc::new(Chunk {
            claimed: AtomicUsize::new(n + 1),
            slots: slots.into_boxed_slice(),
        }));
        self.len = n + 1;
    }

    /// The events.
    #[inline]
    pub fn as_slice(&self) -> &[Event] {
        match &self.chunk {
            None => &[],
            // SAFETY: the first `len` slots were written before this log counted them, are
            // never written again (see `Chunk`), and `UnsafeCell<MaybeUninit<Event>>` is laid
            // out as `Event`.
            Some(c) => unsafe {
                std::slice::from_raw_parts(c.slots.as_ptr().cast::<Event>(), self.len)
            },
        }
    }

    /// The running digest of the events (the same for equal logs).
    pub fn digest(&self) -> u64 {
        self.digest
    }
}

/// Folds the words of an event's encoding into a log's digest (as `checker::FpHasher` does).
struct Digest(u64);

impl Hasher for Digest {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, _: &[u8]) {
        unreachable!("events are encoded as words")
    }

    #[inline(always)]
    fn write_u64(&mut self, w: u64) {
        let p = u128::from(self.0 ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (p as u64) ^ ((p >> 64) as u64);
    }
}

impl Default for Log {
    fn default() -> Self {
        Log::new()
    }
}

impl Clone for Log {
    #[inline]
    fn clone(&self) -> Self {
        Log {
            chunk: self.chunk.clone(),
            len: self.len,
            digest: self.digest,
        }
    }
}

impl std::ops::Deref for Log {
    type Target = [Event];

    #[inline]
    fn deref(&self) -> &[Event] {
        self.as_slice()
    }
}

impl fmt::Debug for Log {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl PartialEq for Log {
    fn eq(&self, other: &Log) -> bool {
        self.digest == other.digest && self.as_slice() == other.as_slice()
    }
}

impl Eq for Log {}

impl PartialEq<Vec<Event>> for Log {
    fn eq(&self, other: &Vec<Event>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<[Event]> for Log {
    fn eq(&self, other: &[Event]) -> bool {
        self.as_slice() == other
    }
}

/// Hashes exactly as `Vec<Event>` does; `State` hashes the digest instead.
impl Hash for Log {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state)
    }
}

impl Extend<Event> for Log {
    fn extend<I: IntoIterator<Item = Event>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}

impl FromIterator<Event> for Log {
    fn from_iter<I: IntoIterator<Item = Event>>(iter: I) -> Self {
        let mut log = Log::new();
        log.extend(iter);
        log
    }
}

impl From<Vec<Event>> for Log {
    fn from(v: Vec<Event>) -> Self {
        v.into_iter().collect()
    }
}

impl From<Log> for Vec<Event> {
    fn from(log: Log) -> Self {
        log.as_slice().to_vec()
    }
}

impl<'a> IntoIterator for &'a Log {
    type Item = &'a Event;
    type IntoIter = std::slice::Iter<'a, Event>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// A bit string written into a hasher a word at a time (see `impl Hash for State`).
struct Bits<'a, H: Hasher> {
    out: &'a mut H,
    /// Bits not yet written, in the low `n` bits.
    acc: u64,
    n: u32,
}

impl<'a, H: Hasher> Bits<'a, H> {
    fn new(out: &'a mut H) -> Self {
        Bits { out, acc: 0, n: 0 }
    }

    /// Appends the low `bits` bits of `v` (`bits` at most 32, `v` below `2^bits`).
    #[inline(always)]
    fn put(&mut self, v: u64, bits: u32) {
        debug_assert!(bits <= 32 && v >> bits == 0);
        self.acc |= v << self.n;
        let total = self.n + bits;
        if total >= 64 {
            self.out.write_u64(self.acc);
            // `n >= 32` here, so the shift is in range; the bits of `v` that did not fit.
            self.acc = if self.n == 0 { 0 } else { v >> (64 - self.n) };
            self.n = total - 64;
        } else {
            self.n = total;
        }
    }

    #[inline(always)]
    fn bool(&mut self, v: bool) {
        self.put(u64::from(v), 1);
    }

    #[inline(always)]
    fn u8(&mut self, v: u8) {
        self.put(u64::from(v), 8);
    }

    #[inline(always)]
    fn u16(&mut self, v: u16) {
        self.put(u64::from(v), 16);
    }

    /// A length: one byte below 255, else 255 and the length in 64 bits.
    #[inline(always)]
    fn len(&mut self, n: usize) {
        if n < 255 {
            self.put(n as u64, 8);
        } else {
            self.put(255, 8);
            let n = n as u64;
            self.put(n & 0xffff_ffff, 32);
            self.put(n >> 32, 32);
        }
    }

    #[inline(always)]
    fn list<T: Encode>(&mut self, items: &[T]) {
        self.len(items.len());
        for x in items {
            x.encode(self);
        }
    }

    fn finish(self) {
        if self.n > 0 {
            self.out.write_u64(self.acc);
        }
    }
}

/// A value's part of a state's bit string.
trait Encode {
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>);
}

impl<T: Encode> Encode for Option<T> {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        match self {
            None => b.bool(false),
            Some(x) => {
                b.bool(true);
                x.encode(b);
            }
        }
    }
}

impl Encode for u8 {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        b.u8(*self);
    }
}

impl Encode for bool {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        b.bool(*self);
    }
}

impl Encode for CardId {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        b.u16(*self);
    }
}

impl Encode for Player {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        b.u8(self.0);
    }
}

impl Encode for Location {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        match *self {
            Location::Base(p) => {
                b.put(0, 1);
                b.u8(p.0);
            }
            Location::Battlefield(n) => {
                b.put(1, 1);
                b.u8(n);
            }
        }
    }
}

impl Encode for Zone {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        b.bool(match self {
            Zone::Board => false,
            Zone::Trash => true,
        });
    }
}

impl Encode for Cost {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let Cost { energy, power, any } = *self;
        let [p0, p1, p2, p3, p4, p5] = power;
        let w = u64::from_le_bytes([energy, p0, p1, p2, p3, p4, p5, any]);
        b.put(w & 0xffff_ffff, 32);
        b.put(w >> 32, 32);
    }
}

impl Encode for Obj {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let (tag, n) = match *self {
            Obj::Unit(n) => (0, n),
            Obj::Gear(n) => (1, n),
            Obj::Item(n) => (2, n),
        };
        b.put(tag, 2);
        b.u8(n);
    }
}

impl Encode for (u8, Obj) {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        b.u8(self.0);
        self.1.encode(b);
    }
}

impl Encode for Unit {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let Unit {
            card,
            token,
            owner,
            controller,
            loc,
            zone,
            might,
            might_mod,
            damage,
        } = *self;
        b.u16(card);
        b.bool(token);
        owner.encode(b);
        controller.encode(b);
        loc.encode(b);
        zone.encode(b);
        b.u8(might);
        b.u8(might_mod as u8);
        b.u8(damage);
    }
}

impl Encode for Gear {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let Gear {
            card,
            controller,
            zone,
        } = *self;
        b.u16(card);
        controller.encode(b);
        zone.encode(b);
    }
}

impl Encode for Battlefield {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let Battlefield { card, controller } = *self;
        card.encode(b);
        controller.encode(b);
    }
}

impl Encode for PlayerState {
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let PlayerState {
            pool,
            hand,
            hand_other,
            deck,
            trash,
            trash_other,
            finalized_this_turn,
            undone,
            portal_charged,
            near_victory,
        } = self;
        pool.encode(b);
        b.list(hand);
        b.u8(*hand_other);
        b.u8(*deck);
        b.list(trash);
        b.u8(*trash_other);
        b.u8(*finalized_this_turn);
        b.list(undone);
        b.bool(*portal_charged);
        b.bool(*near_victory);
    }
}

impl Encode for RepeatInstance {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let RepeatInstance {
            cost,
            origin,
            paid,
            decided,
        } = *self;
        match cost {
            RepeatCost::Pay(c) => {
                b.put(0, 1);
                c.encode(b);
            }
            RepeatCost::Discard(n) => {
                b.put(1, 1);
                b.u8(n);
            }
        }
        b.put(
            match origin {
                InstanceOrigin::Printed => 0,
                InstanceOrigin::Portal => 1,
                InstanceOrigin::Syndra => 2,
                InstanceOrigin::SourceUnit => 3,
            },
            2,
        );
        b.u8(paid);
        b.bool(decided);
    }
}

impl Encode for Pick {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        match *self {
            Pick::Target { slot, obj } => {
                b.put(0, 2);
                b.u8(slot);
                obj.encode(b);
            }
            Pick::EndTargets { slot } => {
                b.put(1, 2);
                b.u8(slot);
            }
            Pick::Destination { slot, to } => {
                b.put(2, 2);
                b.u8(slot);
                to.encode(b);
            }
        }
    }
}

impl Encode for ExecChoices {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let ExecChoices {
            mode,
            picks,
            complete,
        } = self;
        mode.encode(b);
        b.list(picks);
        b.bool(*complete);
    }
}

impl Encode for ChainItem {
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let ChainItem {
            id,
            card,
            origin,
            owner,
            controller,
            phase,
            repeat,
            accepted,
            choices,
            cost,
            ever_chosen,
            left_chain,
        } = self;
        b.u8(*id);
        b.u16(*card);
        match *origin {
            Origin::Hand => b.put(0, 2),
            Origin::Trigger(u) => {
                b.put(1, 2);
                b.u8(u);
            }
            Origin::Token { might } => {
                b.put(2, 2);
                b.u8(might);
            }
        }
        owner.encode(b);
        controller.encode(b);
        match *phase {
            Phase::Choosing => b.put(0, 3),
            Phase::Chosen => b.put(1, 3),
            Phase::Costed => b.put(2, 3),
            Phase::Paid => b.put(3, 3),
            Phase::Legal => b.put(4, 3),
            Phase::Finalized => b.put(5, 3),
            Phase::Resolving { done } => {
                b.put(6, 3);
                b.u8(done);
            }
            Phase::NewChoices { exec, for_item } => {
                b.put(7, 3);
                b.u8(exec);
                b.u8(for_item);
            }
        }
        b.list(repeat);
        accepted.encode(b);
        b.list(choices);
        let TotalCost { resources, discard } = *cost;
        resources.encode(b);
        b.u8(discard);
        b.list(ever_chosen);
        b.bool(*left_chain);
    }
}

impl Encode for Queued {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        match *self {
            Queued::Token { controller, might } => {
                b.put(0, 1);
                controller.encode(b);
                b.u8(might);
            }
            Queued::Trigger { card, source } => {
                b.put(1, 1);
                b.u16(card);
                b.u8(source);
            }
        }
    }
}

impl Encode for Start {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let Start { pools, cards } = self;
        pools[0].encode(b);
        pools[1].encode(b);
        b.u8(cards[0]);
        b.u8(cards[1]);
    }
}

impl Encode for Event {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        use Event::*;
        // The variant in 6 bits, then its fields.
        let mut tag = |t: u64| b.put(t, 6);
        match *self {
            MovedToChain { item, card, by } => {
                tag(0);
                b.u8(item);
                b.u16(card);
                by.encode(b);
            }
            OptionalDecided { item, accepted } => {
                tag(1);
                b.u8(item);
                b.bool(accepted);
            }
            RepeatDeclared {
                item,
                instance,
                pay,
            } => {
                tag(2);
                b.u8(item);
                b.u8(instance);
                b.bool(pay);
            }
            ModeChosen { item, exec, mode } => {
                tag(3);
                b.u8(item);
                b.u8(exec);
                b.u8(mode);
            }
            TargetChosen {
                item,
                exec,
                slot,
                obj,
            } => {
                tag(4);
                b.u8(item);
                b.u8(exec);
                b.u8(slot);
                obj.encode(b);
            }
            TargetsEnded { item, exec, slot } => {
                tag(5);
                b.u8(item);
                b.u8(exec);
                b.u8(slot);
            }
            DestinationChosen {
                item,
                exec,
                slot,
                to,
            } => {
                tag(6);
                b.u8(item);
                b.u8(exec);
                b.u8(slot);
                to.encode(b);
            }
            DiscountApplied {
                item,
                source,
                amount,
            } => {
                tag(7);
                b.u8(item);
                b.put(
                    match source {
                        DiscountSource::SelfDiscount => 0,
                        DiscountSource::Ezreal => 1,
                        DiscountSource::MaraiSpire => 2,
                    },
                    2,
                );
                b.u8(amount);
            }
            RepeatCostAdded {
                item,
                instance,
                cost,
                discard,
            } => {
                tag(8);
                b.u8(item);
                b.u8(instance);
                cost.encode(b);
                b.u8(discard);
            }
            DeflectAdded { item, unit, amount } => {
                tag(9);
                b.u8(item);
                b.u8(unit);
                b.u8(amount);
            }
            CostDetermined {
                item,
                total,
                discard,
            } => {
                tag(10);
                b.u8(item);
                total.encode(b);
                b.u8(discard);
            }
            CostPaid {
                item,
                paid,
                discarded,
            } => {
                tag(11);
                b.u8(item);
                paid.encode(b);
                b.u8(discarded);
            }
            PlayCancelled { item, why } => {
                tag(12);
                b.u8(item);
                b.bool(match why {
                    CancelWhy::NoLegalChoice => false,
                    CancelWhy::CannotPay => true,
                });
            }
            LegalityChecked { item } => {
                tag(13);
                b.u8(item);
            }
            Finalized { item } => {
                tag(14);
                b.u8(item);
            }
            Passed { by } => {
                tag(15);
                by.encode(b);
            }
            WindowOpened { item } => {
                tag(16);
                b.u8(item);
            }
            ResolveStarted { item } => {
                tag(17);
                b.u8(item);
            }
            ExecutionStarted { item, exec } => {
                tag(18);
                b.u8(item);
                b.u8(exec);
            }
            Performed { item, exec, slot } => {
                tag(19);
                b.u8(item);
                b.u8(exec);
                b.u8(slot);
            }
            Ignored {
                item,
                exec,
                slot,
                why,
            } => {
                tag(20);
                b.u8(item);
                b.u8(exec);
                b.u8(slot);
                b.put(
                    match why {
                        IgnoredWhy::TargetsIllegal => 0,
                        IgnoredWhy::LinkedNotExecuted => 1,
                        IgnoredWhy::SourceGone => 2,
                        IgnoredWhy::Impossible => 3,
                    },
                    2,
                );
            }
            TargetUnaffected { item, exec, obj } => {
                tag(21);
                b.u8(item);
                b.u8(exec);
                obj.encode(b);
            }
            Damaged { unit, amount } => {
                tag(22);
                b.u8(unit);
                b.u8(amount);
            }
            MightChanged { unit, by } => {
                tag(23);
                b.u8(unit);
                b.u8(by as u8);
            }
            ZoneChange { obj, to } => {
                tag(24);
                obj.encode(b);
                to.encode(b);
            }
            UnitMoved { unit, to } => {
                tag(25);
                b.u8(unit);
                to.encode(b);
            }
            Drew { who, n } => {
                tag(26);
                who.encode(b);
                b.u8(n);
            }
            TokenQueued { item } => {
                tag(27);
                b.u8(item);
            }
            Triggered { card, source } => {
                tag(28);
                b.u16(card);
                b.u8(source);
            }
            Played { item, by } => {
                tag(29);
                b.u8(item);
                by.encode(b);
            }
            Resolved { item } => {
                tag(30);
                b.u8(item);
            }
            Countered { item, by } => {
                tag(31);
                b.u8(item);
                b.u8(by);
            }
            Refunded { item } => {
                tag(32);
                b.u8(item);
            }
            LeftChain { item } => {
                tag(33);
                b.u8(item);
            }
            ControlChanged { item, to } => {
                tag(34);
                b.u8(item);
                to.encode(b);
            }
            NewChoicesBegun { item } => {
                tag(35);
                b.u8(item);
            }
            ChoiceRemade {
                item,
                exec,
                slot,
                obj,
            } => {
                tag(36);
                b.u8(item);
                b.u8(exec);
                b.u8(slot);
                obj.encode(b);
            }
            ChoiceKept { item, exec, slot } => {
                tag(37);
                b.u8(item);
                b.u8(exec);
                b.u8(slot);
            }
            NewChoicesEnded { item } => {
                tag(38);
                b.u8(item);
            }
            Cleanup => tag(39),
            ChainClosed => tag(40),
        }
    }
}

impl State {
    /// How many cards player `p` has now, in every zone (tokens excluded).
    pub fn cards_of(&self, p: Player) -> u8 {
        let ps = &self.players[p.ix()];
        let board = self
            .units
            .iter()
            .filter(|u| !u.token && u.owner == p && u.zone == Zone::Board)
            .count()
            + self
                .gear
                .iter()
                .filter(|g| g.controller == p && g.zone == Zone::Board)
                .count();
        let chain = self
            .chain
            .iter()
            .filter(|i| i.owner == p && i.origin == Origin::Hand && !i.left_chain)
            .count();
        (ps.hand.len()
            + ps.hand_other as usize
            + ps.deck as usize
            + ps.trash.len()
            + ps.trash_other as usize
            + board
            + chain) as u8
    }

    /// The chain item with this id.
    pub fn item(&self, id: u8) -> Option<&ChainItem> {
        self.chain.iter().find(|i| i.id == id)
    }

    /// The chain item with this id, mutably.
    pub fn item_mut(&mut self, id: u8) -> Option<&mut ChainItem> {
        self.chain.iter_mut().find(|i| i.id == id)
    }

    /// True when the play is over: the chain has closed after the play began.
    pub fn is_over(&self) -> bool {
        matches!(self.log.last(), Some(Event::ChainClosed))
    }

    /// Units on the board.
    pub fn units_on_board(&self) -> impl Iterator<Item = (u8, &Unit)> {
        self.units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.zone == Zone::Board)
            .map(|(i, u)| (i as u8, u))
    }
}

/// A vector that keeps up to `N` elements inline, in the value itself, and moves them to the
/// heap only beyond that. The lists of a state (units, chain items, choices, picks...) are short:
/// inline, copying a state (which the checker does for every transition) allocates nothing for
/// them, and dropping one frees nothing.
///
/// Its header is a single byte, the length (or `SPILLED`), and it is aligned as its elements,
/// not as a pointer: every byte of it is copied with each state, so `InlineVec<CardId, 4>` is 10
/// bytes where a tagged enum of an array and a `Box` would be 16.
///
/// It reads like a `Vec` (it dereferences to a slice), and hashes, compares and prints exactly
/// as a `Vec` with the same elements would.
pub struct InlineVec<T, const N: usize> {
    /// How many slots of `data.inline` are initialised, or `SPILLED` when `data.heap` is live.
    len: u8,
    data: Data<T, N>,
}

/// The `len` of a vector whose elements are on the heap.
const SPILLED: u8 = u8::MAX;

/// Which field is live, the vector's `len` says.
union Data<T, const N: usize> {
    /// The first `len` slots are initialised.
    inline: ManuallyDrop<[MaybeUninit<T>; N]>,
    /// Owned by the vector: from `Box::into_raw`, freed in `drop` or `into_vec`.
    heap: HeapPtr<T>,
}

/// Packed, so that the pointer of the rare spilled vector does not make every vector 8-aligned.
#[repr(C, packed)]
struct HeapPtr<T>(NonNull<Vec<T>>);

impl<T> Clone for HeapPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for HeapPtr<T> {}

// SAFETY: the vector owns its elements, inline or behind a pointer that no other value holds,
// exactly as a `Box<Vec<T>>` would; the raw pointer only hides that from the compiler.
unsafe impl<T: Send, const N: usize> Send for InlineVec<T, N> {}
// SAFETY: as for `Send`: shared access only ever hands out `&T`.
unsafe impl<T: Sync, const N: usize> Sync for InlineVec<T, N> {}

impl<T, const N: usize> InlineVec<T, N> {
    const CHECK: () = assert!(N > 0 && N < SPILLED as usize, "N must be in 1..=254");

    /// An empty vector (allocates nothing).
    pub const fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::CHECK;
        InlineVec {
            len: 0,
            data: Data {
                inline: ManuallyDrop::new([const { MaybeUninit::uninit() }; N]),
            },
        }
    }

    /// A spilled vector holding `v`.
    fn from_heap(v: Vec<T>) -> Self {
        let mut out = Self::new();
        out.data.heap = HeapPtr(NonNull::from(Box::leak(Box::new(v))));
        out.len = SPILLED;
        out
    }

    /// The pointer to the heap vector, if spilled.
    #[inline(always)]
    fn heap_ptr(&self) -> Option<NonNull<Vec<T>>> {
        if self.len == SPILLED {
            // SAFETY: `len` says `heap` is the live field (read by value: it is packed). Read
            // only then: inline, those bytes may be uninitialised.
            Some(unsafe { self.data.heap }.0)
        } else {
            None
        }
    }

    /// The heap vector, if spilled.
    #[inline]
    fn heap(&self) -> Option<&Vec<T>> {
        // SAFETY: a live `heap` is valid and owned by `self`, so it is borrowed as long as it.
        self.heap_ptr().map(|p| unsafe { p.as_ref() })
    }

    /// The heap vector, mutably, if spilled.
    #[inline]
    fn heap_mut(&mut self) -> Option<&mut Vec<T>> {
        // SAFETY: as in `heap`; `&mut self` makes the access exclusive.
        self.heap_ptr().map(|mut p| unsafe { p.as_mut() })
    }

    /// The first inline slot (meaningful only while not spilled).
    #[inline(always)]
    fn slots(&self) -> *const T {
        (&raw const self.data.inline).cast()
    }

    /// The first inline slot, mutably (meaningful only while not spilled).
    #[inline(always)]
    fn slots_mut(&mut self) -> *mut T {
        (&raw mut self.data.inline).cast()
    }

    /// The elements.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        match self.heap() {
            Some(v) => v,
            // SAFETY: not spilled, so the first `len` slots are initialised.
            None => unsafe { std::slice::from_raw_parts(self.slots(), self.len as usize) },
        }
    }

    /// The elements, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        if self.len == SPILLED {
            return self.heap_mut().expect("spilled");
        }
        let n = self.len as usize;
        // SAFETY: not spilled, so the first `len` slots are initialised.
        unsafe { std::slice::from_raw_parts_mut(self.slots_mut(), n) }
    }

    /// Whether the elements are on the heap (more than `N` were held at some point).
    pub fn spilled(&self) -> bool {
        self.len == SPILLED
    }

    /// The heap vector, moving the elements there first (with room for `extra` more) if inline.
    #[cold]
    fn spill(&mut self, extra: usize) -> &mut Vec<T> {
        if self.len != SPILLED {
            let n = self.len as usize;
            let mut v = Vec::with_capacity((n + extra).max(2 * N));
            // Ownership of the elements passes to `v`: forget them here first.
            self.len = 0;
            for i in 0..n {
                // SAFETY: slot `i < n` was initialised, and is read once (len is now 0).
                v.push(unsafe { self.slots().add(i).read() });
            }
            self.data.heap = HeapPtr(NonNull::from(Box::leak(Box::new(v))));
            self.len = SPILLED;
        }
        self.heap_mut().expect("spilled")
    }

    /// Appends an element.
    #[inline]
    pub fn push(&mut self, x: T) {
        let n = self.len as usize;
        // `SPILLED` is never below `N`.
        if n < N {
            // SAFETY: slot `n < N` is in bounds and not initialised.
            unsafe { self.slots_mut().add(n).write(x) };
            self.len += 1;
        } else {
            self.spill(1).push(x);
        }
    }

    /// Removes the last element.
    pub fn pop(&mut self) -> Option<T> {
        if let Some(v) = self.heap_mut() {
            return v.pop();
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: slot `len` was initialised and is no longer counted.
        Some(unsafe { self.slots().add(self.len as usize).read() })
    }

    /// Keeps the first `n` elements, dropping the rest.
    pub fn truncate(&mut self, n: usize) {
        if let Some(v) = self.heap_mut() {
            v.truncate(n);
            return;
        }
        while self.len as usize > n {
            self.len -= 1;
            // SAFETY: slot `len` was initialised and is no longer counted.
            unsafe { std::ptr::drop_in_place(self.slots_mut().add(self.len as usize)) };
        }
    }

    /// Removes every element.
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Removes and returns the element at `index`, shifting the later ones down.
    pub fn remove(&mut self, index: usize) -> T {
        let n = self.len();
        assert!(
            index < n,
            "removal index {index} is out of bounds (len {n})"
        );
        if let Some(v) = self.heap_mut() {
            return v.remove(index);
        }
        let p = self.slots_mut();
        // SAFETY: `index < n`; the element is read out, the initialised tail moved down over it,
        // and the length reduced so the last slot is no longer counted.
        unsafe {
            let x = std::ptr::read(p.add(index));
            std::ptr::copy(p.add(index + 1), p.add(index), n - index - 1);
            self.len -= 1;
            x
        }
    }

    /// Inserts an element at `index`, shifting the later ones up.
    pub fn insert(&mut self, index: usize, x: T) {
        let n = self.len();
        assert!(
            index <= n,
            "insertion index {index} is out of bounds (len {n})"
        );
        if self.len == SPILLED || n == N {
            self.spill(1).insert(index, x);
            return;
        }
        let p = self.slots_mut();
        // SAFETY: `n < N`, so there is room for the tail to move up by one slot.
        unsafe {
            std::ptr::copy(p.add(index), p.add(index + 1), n - index);
            std::ptr::write(p.add(index), x);
        }
        self.len += 1;
    }

    /// Keeps the elements for which `keep` is true, in order (`keep` sees each once, in order).
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        if let Some(v) = self.heap_mut() {
            v.retain(keep);
            return;
        }
        let s = self.as_mut_slice();
        let mut removed = 0;
        for i in 0..s.len() {
            if !keep(&s[i]) {
                removed += 1;
            } else if removed > 0 {
                s.swap(i - removed, i);
            }
        }
        let n = s.len() - removed;
        self.truncate(n);
    }

    /// Resizes to `n` elements, appending clones of `value` or dropping the excess.
    pub fn resize(&mut self, n: usize, value: T)
    where
        T: Clone,
    {
        if n <= self.len() {
            self.truncate(n);
        } else {
            while self.len() < n {
                self.push(value.clone());
            }
        }
    }

    /// The elements as a `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        // `this` is never dropped: its elements (or its box) move out exactly once below.
        let mut this = ManuallyDrop::new(self);
        if let Some(p) = this.heap_ptr() {
            // SAFETY: from `Box::into_raw`, and owned by `this`, which no longer frees it.
            return *unsafe { Box::from_raw(p.as_ptr()) };
        }
        let n = this.len as usize;
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            // SAFETY: slot `i < len` is initialised, and read once.
            v.push(unsafe { this.slots_mut().add(i).read() });
        }
        v
    }
}

impl<T, const N: usize> Drop for InlineVec<T, N> {
    fn drop(&mut self) {
        if let Some(p) = self.heap_ptr() {
            // SAFETY: from `Box::into_raw`, and freed only here.
            drop(unsafe { Box::from_raw(p.as_ptr()) });
        } else {
            // SAFETY: drops each initialised element once.
            unsafe { std::ptr::drop_in_place(self.as_mut_slice()) };
        }
    }
}

impl<T, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Clone, const N: usize> Clone for InlineVec<T, N> {
    #[inline]
    fn clone(&self) -> Self {
        match self.heap() {
            None => {
                let mut out = Self::new();
                let (src, dst) = (self.slots(), out.slots_mut());
                for i in 0..self.len as usize {
                    // SAFETY: source slot `i < len` is initialised and destination slot `i < N`
                    // is free. `out.len` counts each clone as it is written, so should a clone
                    // panic, `out` drops exactly the clones made so far.
                    unsafe { dst.add(i).write((*src.add(i)).clone()) };
                    out.len += 1;
                }
                out
            }
            Some(v) if v.len() <= N => v.iter().cloned().collect(),
            Some(v) => Self::from_heap(v.clone()),
        }
    }
}

impl<T, const N: usize> std::ops::Deref for InlineVec<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T, const N: usize> std::ops::DerefMut for InlineVec<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl<T: PartialEq, const N: usize, const M: usize> PartialEq<InlineVec<T, M>> for InlineVec<T, N> {
    fn eq(&self, other: &InlineVec<T, M>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq, const N: usize> Eq for InlineVec<T, N> {}

impl<T: PartialEq, const N: usize> PartialEq<Vec<T>> for InlineVec<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T]> for InlineVec<T, N> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq, const N: usize, const K: usize> PartialEq<[T; K]> for InlineVec<T, N> {
    fn eq(&self, other: &[T; K]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

/// Hashes exactly as `Vec<T>` and `[T]` do (length, then the elements).
impl<T: Hash, const N: usize> Hash for InlineVec<T, N> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state)
    }
}

impl<T, const N: usize> Extend<T> for InlineVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl<T, const N: usize> FromIterator<T> for InlineVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        v.extend(iter);
        v
    }
}

impl<T, const N: usize> From<Vec<T>> for InlineVec<T, N> {
    fn from(v: Vec<T>) -> Self {
        if v.len() > N {
            Self::from_heap(v)
        } else {
            v.into_iter().collect()
        }
    }
}

impl<T, const N: usize> From<InlineVec<T, N>> for Vec<T> {
    fn from(v: InlineVec<T, N>) -> Self {
        v.into_vec()
    }
}

impl<T, const N: usize> IntoIterator for InlineVec<T, N> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a mut InlineVec<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

#[cfg(test)]
mod inline_vec_tests {
    use super::InlineVec;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Op {
        Push(u8),
        Pop,
        Truncate(usize),
        Remove(usize),
        Insert(usize, u8),
        Retain(u8),
        Resize(usize, u8),
        Clone,
        Clear,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => any::<u8>().prop_map(Op::Push),
            1 => Just(Op::Pop),
            1 => (0usize..8).prop_map(Op::Truncate),
            1 => (0usize..8).prop_map(Op::Remove),
            1 => (0usize..8, any::<u8>()).prop_map(|(i, x)| Op::Insert(i, x)),
            1 => (1u8..4).prop_map(Op::Retain),
            1 => (0usize..9, any::<u8>()).prop_map(|(n, x)| Op::Resize(n, x)),
            1 => Just(Op::Clone),
            1 => Just(Op::Clear),
        ]
    }

    /// Runs `ops` on an `InlineVec` and a `Vec` of `mk(x)` elements; every result must agree.
    fn agrees_with_vec<T, const N: usize>(
        ops: Vec<Op>,
        mk: impl Fn(u8) -> T,
        key: impl Fn(&T) -> u8,
    ) -> Result<(), TestCaseError>
    where
        T: Clone + PartialEq + std::fmt::Debug + std::hash::Hash,
    {
        let mut v: Vec<T> = Vec::new();
        let mut s: InlineVec<T, N> = InlineVec::new();
        for op in ops {
            match op {
                Op::Push(x) => {
                    v.push(mk(x));
                    s.push(mk(x));
                }
                Op::Pop => prop_assert_eq!(v.pop(), s.pop()),
                Op::Truncate(n) => {
                    v.truncate(n);
                    s.truncate(n);
                }
                Op::Remove(i) => {
                    if i < v.len() {
                        prop_assert_eq!(v.remove(i), s.remove(i));
                    }
                }
                Op::Insert(i, x) => {
                    if i <= v.len() {
                        v.insert(i, mk(x));
                        s.insert(i, mk(x));
                    }
                }
                Op::Retain(m) => {
                    let mut seen_v = vec![];
                    let mut seen_s = vec![];
                    v.retain(|x| {
                        seen_v.push(x.clone());
                        key(x) % 4 != m
                    });
                    s.retain(|x| {
                        seen_s.push(x.clone());
                        key(x) % 4 != m
                    });
                    prop_assert_eq!(seen_v, seen_s);
                }
                Op::Resize(n, x) => {
                    v.resize(n, mk(x));
                    s.resize(n, mk(x));
                }
                Op::Clone => {
                    let c = s.clone();
                    prop_assert_eq!(&c, &v);
                    s = c;
                }
                Op::Clear => {
                    v.clear();
                    s.clear();
                }
            }
            prop_assert_eq!(&s, &v);
            prop_assert_eq!(s.len(), v.len());
            prop_assert_eq!(checker_like_hash(&s), checker_like_hash(&v));
            prop_assert_eq!(format!("{s:?}"), format!("{v:?}"));
        }
        prop_assert_eq!(s.into_vec(), v);
        Ok(())
    }

    proptest! {
        /// Owned, dropping elements (`String`), so that a double drop or a leak would show under
        /// Miri or a sanitizer, and every result must equal a `Vec`'s.
        #[test]
        fn behaves_like_a_vec(ops in proptest::collection::vec(op(), 0..60)) {
            agrees_with_vec::<String, 3>(ops, |x| x.to_string(), |x| x.len() as u8)?;
        }

        /// Elements aligned to 1 (as most state lists are), so the spilled vector's pointer sits
        /// unaligned right after the length byte.
        #[test]
        fn behaves_like_a_vec_unaligned(ops in proptest::collection::vec(op(), 0..60)) {
            agrees_with_vec::<[u8; 3], 2>(ops, |x| [x, x ^ 1, 7], |x| x[0])?;
        }
    }

    fn checker_like_hash<T: std::hash::Hash + ?Sized>(t: &T) -> Vec<u8> {
        /// Records what a hasher is given, so that two values hash alike under any hasher.
        #[derive(Default)]
        struct Record(Vec<u8>);
        impl std::hash::Hasher for Record {
            fn finish(&self) -> u64 {
                0
            }
            fn write(&mut self, bytes: &[u8]) {
                self.0.extend_from_slice(bytes);
                self.0.push(0xff);
            }
        }
        let mut r = Record::default();
        t.hash(&mut r);
        r.0
    }

    #[test]
    fn spills_beyond_n_and_reads_alike() {
        let mut s: InlineVec<u16, 2> = InlineVec::new();
        s.push(1);
        s.push(2);
        assert!(!s.spilled());
        s.push(3);
        assert!(s.spilled());
        assert_eq!(s, vec![1, 2, 3]);
        assert_eq!(&s[1..], &[2, 3]);
        assert_eq!(s.iter().sum::<u16>(), 6);
        let c = s.clone();
        assert_eq!(c, s);
        let v: Vec<u16> = s.into();
        assert_eq!(v, vec![1, 2, 3]);
    }
}

#[cfg(test)]
mod log_tests {
    use super::*;

    fn events() -> Vec<Event> {
        vec![
            Event::MovedToChain {
                item: 0,
                card: 3,
                by: Player::YOU,
            },
            Event::CostPaid {
                item: 0,
                paid: Cost::energy(2),
                discarded: 1,
            },
            Event::TargetChosen {
                item: 0,
                exec: 1,
                slot: 0,
                obj: Obj::Gear(1),
            },
            Event::ChainClosed,
        ]
    }

    #[test]
    fn the_digest_depends_only_on_the_events() {
        let pushed = {
            let mut l = Log::new();
            for e in events() {
                l.push(e);
            }
            l
        };
        let collected: Log = events().into_iter().collect();
        let converted = Log::from(events());
        assert_eq!(pushed.digest(), collected.digest());
        assert_eq!(pushed.digest(), converted.digest());
        assert_eq!(pushed.clone().digest(), pushed.digest());
        assert_eq!(pushed, events());
        assert_eq!(format!("{pushed:?}"), format!("{:?}", events()));
        let mut other = events();
        other.swap(1, 2);
        let other = Log::from(other);
        assert_ne!(other.digest(), pushed.digest());
        assert_ne!(other, pushed);
        assert_ne!(Log::new().digest(), pushed.digest());
        assert_eq!(&pushed[1..], &events()[1..]);
    }

    /// Copies share events until they diverge; each must still read as its own events, whoever
    /// appends first, past a chunk's end, and on several threads at once.
    #[test]
    fn copies_diverge_independently() {
        let ev = |n: u8| Event::Resolved { item: n };
        let mut base = Log::new();
        let mut expect = Vec::new();
        for n in 0..5 {
            base.push(ev(n));
            expect.push(ev(n));
        }
        let mut a = base.clone();
        let mut b = base.clone();
        b.push(ev(100));
        a.push(ev(200));
        base.push(ev(250));
        let with = |x: u8| expect.iter().copied().chain([ev(x)]).collect::<Vec<_>>();
        assert_eq!(b, with(100));
        assert_eq!(a, with(200));
        assert_eq!(base, with(250));
        assert_eq!(b.digest(), Log::from(with(100)).digest());
        let mut long = a.clone();
        let mut long_v = with(200);
        for n in 0..(3 * LOG_MIN_CHUNK as u8) {
            let snapshot = long.clone();
            long.push(ev(n));
            long_v.push(ev(n));
            assert_eq!(snapshot, long_v[..long_v.len() - 1]);
        }
        assert_eq!(long, long_v);
        assert_eq!(a, with(200));
        let logs: Vec<Log> = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..4u8)
                .map(|t| {
                    let mut l = base.clone();
                    sc.spawn(move || {
                        for n in 0..40 {
                            l.push(ev(t * 50 + n));
                        }
                        l
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (t, l) in logs.iter().enumerate() {
            let mut v = with(250);
            v.extend((0..40).map(|n| ev(t as u8 * 50 + n)));
            assert_eq!(*l, v);
            assert_eq!(l.digest(), Log::from(v).digest());
        }
        assert_eq!(base, with(250));
    }
}
