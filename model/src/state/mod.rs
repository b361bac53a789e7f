//! The state of a play: the board, each player's resources and zones, the chain with each item's
//! [Repeat] decisions and per-execution choices, priority, and the event log of what happened.
//!
//! States are plain ordered data (no maps, no pointers) so that hashing and cloning are cheap and
//! deterministic: the checker stores millions of them.
//!
//! - this module: the domain types (players, locations, units, gear, chain items, the state);
//! - `event`: the observable events that properties read;
//! - `log`: the shared, append-only event log each state carries;
//! - `encode`: the bit packing by which a state is hashed;
//! - [`InlineVec`] (in `crate::inline_vec`): the small vector that holds a state's lists.

mod board;
mod encode;
mod event;
mod event_objects;
mod log;
mod runes;

pub use self::board::{Battlefield, Combat, Gear, Unit, UnitStatus};
pub use self::encode::Future;
pub use self::event::{CancelWhy, DiscountSource, Event, IgnoredWhy};
pub use self::log::Log;
pub use self::runes::{Runes, RunesSetup, RunesSpent, MAX_RUNES};
pub use crate::inline_vec::InlineVec;

use crate::card::{CardId, InstanceOrigin, RepeatCost};
use crate::cost::Cost;
use serde::{Deserialize, Serialize};
use std::fmt;

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
    #[inline]
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
    /// Returned to its owner's hand (a new object, 124); a token ceases to exist.
    Hand,
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
    /// Cards whose play was undone (358.5); exploration does not try them again, so that undoing
    /// cannot loop (a replay may: `Game::retry_undone`).
    pub undone: InlineVec<CardId, 4>,
    /// Temporal Portal's grants waiting: each activation's "give the next spell you play this
    /// turn [Repeat] equal to its cost" is an effect of its own, and the next spell takes them all.
    pub portal_grants: u8,
    /// This player is within 3 points of the Victory Score (Find Your Center's condition).
    pub near_victory: bool,
    // ---- the main deck's named cards and channelled runes ----
    /// Named cards on top of the main deck, top first; the `deck` anonymous cards lie below them.
    pub deck_top: InlineVec<CardId, 4>,
    /// Cards recycled to the bottom of the main deck (416), in the order recycled: the last is the
    /// bottom card. They lie below the anonymous ones.
    pub recycled: InlineVec<DeckCard, 4>,
    /// Runes channelled exhausted during the play (Find Your Center). Runes themselves are not
    /// modelled yet: only how many were channelled, so that the instruction is observable.
    pub runes_exhausted: u8,
    /// The Academy's grants waiting: the next spell gets [Repeat] equal to its base cost for each.
    pub academy_grants: u8,
    /// The player's runes, when the scenario has them; `None` is a pool-only scenario, where
    /// costs are paid from the pool alone and channelling only counts (`runes_exhausted`).
    pub runes: Option<Runes>,
}

/// A card of a main deck: a named card, or one of the anonymous cards that only count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DeckCard {
    /// A card of the catalogue.
    Named(CardId),
    /// An anonymous card.
    Other,
}

/// The most cards a player may have in every zone together; setups above it are refused, so the
/// `u8` counts of hand, deck and trash never overflow (a draw moves a card, it never adds one).
pub const MAX_CARDS: usize = 200;

impl PlayerState {
    /// Cards in the main deck: the named top, the anonymous cards and the recycled bottom.
    pub fn deck_size(&self) -> usize {
        self.deck_top.len() + usize::from(self.deck) + self.recycled.len()
    }

    /// The card at position `i` of the main deck, counting from the top (0 is the top card).
    pub fn deck_card(&self, i: usize) -> Option<DeckCard> {
        let top = self.deck_top.len();
        let anon = usize::from(self.deck);
        if i < top {
            Some(DeckCard::Named(self.deck_top[i]))
        } else if i < top + anon {
            Some(DeckCard::Other)
        } else {
            self.recycled.get(i - top - anon).copied()
        }
    }

    /// Takes the card at position `i` of the main deck out of it.
    pub fn take_deck_card(&mut self, i: usize) -> Option<DeckCard> {
        let top = self.deck_top.len();
        let anon = usize::from(self.deck);
        if i < top {
            Some(DeckCard::Named(self.deck_top.remove(i)))
        } else if i < top + anon {
            self.deck -= 1;
            Some(DeckCard::Other)
        } else if i - top - anon < self.recycled.len() {
            Some(self.recycled.remove(i - top - anon))
        } else {
            None
        }
    }

    /// Puts a card into the hand: a named one by name, an anonymous one as a count. The setup's
    /// bound (`MAX_CARDS`) keeps the count below 255; it saturates rather than wraps regardless.
    pub fn add_to_hand(&mut self, card: DeckCard) {
        match card {
            DeckCard::Named(c) => self.hand.push(c),
            DeckCard::Other => self.hand_other = self.hand_other.saturating_add(1),
        }
    }
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
    /// Which part of it Ezreal's "[1] or [A] less" takes off, once its payer has chosen (356.4.c).
    pub less: Option<Reduction>,
}

impl RepeatInstance {
    /// An instance as the item gets it while being played: not yet decided, not paid (820.1.c.2).
    pub fn undecided(cost: RepeatCost, origin: InstanceOrigin) -> Self {
        RepeatInstance {
            cost,
            origin,
            paid: 0,
            decided: false,
            less: None,
        }
    }
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
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct ExecChoices {
    /// The mode chosen (0 for a plain item); `None` until chosen.
    pub mode: Option<u8>,
    /// The picks in the order made.
    pub picks: InlineVec<Pick, 2>,
    /// All choices of this execution are made.
    pub complete: bool,
}

// Cloned with every chain item of every state copy: the picks are copied whole.
impl Clone for ExecChoices {
    #[inline]
    fn clone(&self) -> Self {
        let ExecChoices {
            mode,
            picks,
            complete,
        } = self;
        ExecChoices {
            mode: *mode,
            picks: picks.copied(),
            complete: *complete,
        }
    }
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
    /// An activated ability of the gear `State::gear[n]` (398–406).
    Activated(u8),
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
    // ---- decisions made while an instruction executes ----
    /// Resolving, paused inside execution `exec` at instruction `slot`: its controller has looked
    /// at the top `left` cards of their main deck, which are still there; `taking` while the
    /// card to draw (or reveal and draw) is still to be chosen, then the rest is recycled.
    Looking {
        /// The execution.
        exec: u8,
        /// The instruction.
        slot: u8,
        /// Cards looked at that are still on top of the deck.
        left: u8,
        /// The draw decision is still to be made.
        taking: bool,
    },
    /// Resolving, paused inside execution `exec` at instruction `slot` ("Discard N", 422): its
    /// controller still has `left` cards to choose and discard; the later instructions follow.
    Discarding {
        /// The execution.
        exec: u8,
        /// The instruction.
        slot: u8,
        /// Cards still to discard.
        left: u8,
    },
    /// Resolving, paused inside execution `exec`: the controller of chain item `target` decides
    /// whether to pay `energy` Energy, or have it countered (Hard Bargain).
    Demanding {
        /// The execution.
        exec: u8,
        /// The asking instruction's index in its mode.
        slot: u8,
        /// The chain item whose controller is asked to pay: the target of a demand (425), or
        /// the resolving item itself for a "you may pay" (205; an item never targets itself,
        /// 355.9).
        target: u8,
        /// What they are asked to pay.
        energy: u8,
        /// Runes they have exhausted to pay it so far (164.2, 357.1.a).
        runes: u8,
        /// The domain of the last of those runes: the next is of this domain or a later one, so
        /// that orders ending with the same runes are one.
        from: crate::cost::Domain,
    },
}

impl Phase {
    /// True while a resolving item waits for a player's decision inside an execution (new
    /// choices, looking at the deck, a demand to pay): nobody has priority then.
    pub fn is_paused(&self) -> bool {
        matches!(
            self,
            Phase::NewChoices { .. }
                | Phase::Looking { .. }
                | Phase::Demanding { .. }
                | Phase::Discarding { .. }
        )
    }
}

/// What the controller pays: the total cost of 356.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TotalCost {
    /// Energy and Power.
    pub resources: Cost,
    /// Cards to discard (a non-standard cost, 357.2).
    pub discard: u8,
    /// Friendly units to exhaust, the payer's choice (357.2, 414.4).
    pub exhaust: u8,
    /// Friendly units to kill, the payer's choice (357.2).
    pub kill: u8,
    /// The least Might a unit killed for the cost may have (0: any).
    pub kill_might: u8,
    /// A triggered ability's source unit is exhausted as its cost ("exhaust me", 414.4).
    pub exhaust_me: bool,
}

/// An item on the chain.
#[derive(Debug, PartialEq, Eq, Hash)]
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
    /// The decisions on the card's optional additional costs other than [Repeat] (355.1.a).
    pub optional: InlineVec<OptionalChoice, 2>,
    /// For a unit (or token): the location it will enter, once chosen (355.2).
    pub enters: Option<Location>,
    /// The runes its payment has exhausted and recycled so far (357.1.a), for undoing (358.5).
    pub runes_spent: RunesSpent,
    /// The whole-card discounts its payer has put first, in order, where a floor makes the
    /// order matter (356.4.d-e); the others follow in board order.
    pub discount_order: InlineVec<DiscountSource, 7>,
}

// Every state copy clones its chain: the vectors of `Copy` elements are copied whole (the
// destructuring makes a field added later a compile error here until it is copied too).
impl Clone for ChainItem {
    #[inline]
    fn clone(&self) -> Self {
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
            optional,
            enters,
            runes_spent,
            discount_order,
        } = self;
        ChainItem {
            id: *id,
            card: *card,
            origin: *origin,
            owner: *owner,
            controller: *controller,
            phase: *phase,
            repeat: repeat.copied(),
            accepted: *accepted,
            choices: choices.clone(),
            cost: *cost,
            ever_chosen: ever_chosen.copied(),
            left_chain: *left_chain,
            optional: optional.copied(),
            enters: *enters,
            runes_spent: *runes_spent,
            discount_order: discount_order.copied(),
        }
    }
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
    /// The battlefield the showdown is at, when the scenario says (316.8.b).
    pub showdown_at: Option<u8>,
    /// A lethal-damage cleanup is outstanding (321.1).
    pub cleanup_due: bool,
    /// The scenario's first play (or trigger) has begun: passing needs a chain, and a cleanup
    /// before it leaves the turn player priority in the open state.
    pub started: bool,
    /// Where the turn is: plays left and whether its end is explored.
    pub turn: TurnState,
    /// What each player started with, for properties that compare the board with it.
    pub start: Start,
    /// Everything observable that happened, in order.
    pub log: Log,
}

/// Where the turn is: how many more plays the turn player may start from the open
/// state, and whether the scenario goes on to the end of the turn (`Setup::turn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnState {
    /// Plays the turn player may still start from the open state; an undone one (358.5) is
    /// given back.
    pub plays_left: u8,
    /// The turn's end is explored: a closed chain gives the turn player priority again (335).
    pub ends: bool,
}

/// A grant "the next spell you play this turn" a player holds: taken by exactly
/// that spell, given back if its play is undone (358.5), ended with the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Grant {
    /// Temporal Portal's: [Repeat] equal to the spell's cost (206).
    Portal,
    /// The Academy's: [Repeat] equal to the spell's base cost (356.1.c).
    Academy,
}

impl Grant {
    /// Both grants, in index order.
    pub const ALL: [Grant; 2] = [Grant::Portal, Grant::Academy];

    /// How many of this grant `p` holds now (each given by an effect of its own).
    pub fn held(self, p: &PlayerState) -> u8 {
        match self {
            Grant::Portal => p.portal_grants,
            Grant::Academy => p.academy_grants,
        }
    }

    /// The origin of the [Repeat] instance the grant gives.
    pub fn origin(self) -> InstanceOrigin {
        match self {
            Grant::Portal => InstanceOrigin::Portal,
            Grant::Academy => InstanceOrigin::Academy,
        }
    }

    /// The grant whose instance this is, if any.
    pub fn of(origin: InstanceOrigin) -> Option<Grant> {
        Grant::ALL.into_iter().find(|g| g.origin() == origin)
    }

    /// `p` holding `n` of this grant.
    pub fn set(self, p: &mut PlayerState, n: u8) {
        match self {
            Grant::Portal => p.portal_grants = n,
            Grant::Academy => p.academy_grants = n,
        }
    }

    /// `p` holding one more of this grant.
    pub fn give(self, p: &mut PlayerState) {
        self.set(p, self.held(p).saturating_add(1));
    }
}

/// What the players started with; never changes during a play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Start {
    /// Each player's rune pool.
    pub pools: [Cost; 2],
    /// Each player's runes (`None` in a pool-only scenario).
    pub runes: [Option<Runes>; 2],
    /// Each player's cards (hand, deck, trash, board; tokens excluded).
    pub cards: [u8; 2],
    /// How many of each grant each player held, by `Grant::ALL` index.
    pub grants: [[u8; 2]; 2],
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
            showdown_at: self.showdown_at,
            cleanup_due: self.cleanup_due,
            started: self.started,
            turn: self.turn,
            start: self.start.clone(),
            log,
        }
    }
}

impl State {
    /// How many cards each player has now, in every zone (tokens excluded), by player index:
    /// one pass over the board and the chain for both.
    pub fn cards(&self) -> [u8; 2] {
        let mut n = [0usize; 2];
        for u in self.units.iter() {
            if !u.token && u.zone == Zone::Board {
                n[u.owner.ix()] += 1;
            }
        }
        for g in self.gear.iter() {
            if g.zone == Zone::Board {
                n[g.controller.ix()] += 1;
            }
        }
        for i in self.chain.iter() {
            if i.origin == Origin::Hand && !i.left_chain {
                n[i.owner.ix()] += 1;
            }
        }
        std::array::from_fn(|p| {
            let ps = &self.players[p];
            let m = n[p]
                + ps.hand.len()
                + ps.hand_other as usize
                + ps.deck_size()
                + ps.trash.len()
                + ps.trash_other as usize;
            // At most MAX_CARDS (the setup refuses more) plus the board: it fits a u8 unless a
            // scenario holds over 55 permanents, and saturates rather than wraps then.
            u8::try_from(m).unwrap_or(u8::MAX)
        })
    }

    /// The chain item with this id.
    pub fn item(&self, id: u8) -> Option<&ChainItem> {
        self.chain.iter().find(|i| i.id == id)
    }

    /// The chain item with this id, mutably.
    pub fn item_mut(&mut self, id: u8) -> Option<&mut ChainItem> {
        self.chain.iter_mut().find(|i| i.id == id)
    }

    /// True when the scenario's turn is over: the turn ended (`EndTurn`), or, in a single-play
    /// scenario that does not explore the end of the turn, the play's chain closed (340.2).
    pub fn is_over(&self) -> bool {
        match self.log.last() {
            Some(Event::TurnEnded) => true,
            Some(Event::ChainClosed) => !self.turn.ends,
            _ => false,
        }
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

// ---- Costs other than [Repeat] and where units enter (355.1.a, 355.2, 356.4.c) ----

/// Which part of a cost "[1] or [A] less" takes off: the payer's choice (356.4.c).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reduction {
    /// One Energy.
    Energy,
    /// One Power.
    Power,
}

/// A component of a total cost that a discount can apply to on its own (356.4.c).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Component {
    /// The [Repeat] instance with this index.
    Repeat(u8),
    /// The optional additional cost (other than [Repeat]) with this index.
    Optional(u8),
}

/// The decision on one optional additional cost other than [Repeat] (355.1.a, 356.2.b).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OptionalChoice {
    /// Whether its decision has been made.
    pub decided: bool,
    /// The player chose to pay it: it counts as paid however much was paid (356.4.f.1).
    pub paid: bool,
    /// Which part Ezreal's "[1] or [A] less" takes off, once chosen (356.4.c).
    pub less: Option<Reduction>,
}
