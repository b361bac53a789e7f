//! The hand bit packing by which a state is hashed: each value is written into a hasher as a
//! decodable bit string (see `impl Hash for State`), and each event into a log's digest.

use super::{
    Battlefield, ChainItem, Combat, DeckCard, ExecChoices, Gear, Location, Obj, Origin, Phase,
    Pick, Player, PlayerState, Queued, RepeatInstance, Start, State, TotalCost, Unit, UnitStatus,
    Zone,
};
use crate::card::{CardId, InstanceOrigin, RepeatCost};
use crate::cost::Cost;
use std::hash::{Hash, Hasher};

mod costs;

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
        self.encode_with(state, true);
    }
}

/// A state hashed for what decides its future: every field but the log, which no guard reads
/// except to place new choices (751–753), so the log's digest stays in while any item makes
/// them. Two states with equal futures offer the same actions and the same complete plays,
/// whatever happened before them: counting plays can share the count of one among all.
pub struct Future<'a>(pub &'a State);

impl Hash for Future<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let new_choices = self
            .0
            .chain
            .iter()
            .any(|c| matches!(c.phase, Phase::NewChoices { .. }));
        self.0.encode_with(state, new_choices);
    }
}

impl State {
    /// Writes the state's bit string into `state`; with `log`, its log's digest last.
    fn encode_with<H: Hasher>(&self, state: &mut H, with_log: bool) {
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
            showdown_at,
            cleanup_due,
            started,
            turn,
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
        showdown_at.encode(&mut b);
        b.bool(*cleanup_due);
        b.bool(*started);
        b.u8(turn.plays_left);
        b.bool(turn.ends);
        start.encode(&mut b);
        if with_log {
            // The log's digest stands for its events (see `Log`).
            b.len(log.len());
            b.put(log.digest & 0xffff_ffff, 32);
            b.put(log.digest >> 32, 32);
        }
        b.finish();
    }
}

/// A bit string written into a hasher a word at a time (see `impl Hash for State`).
pub(super) struct Bits<'a, H: Hasher> {
    out: &'a mut H,
    /// Bits not yet written, in the low `n` bits.
    acc: u64,
    n: u32,
}

impl<'a, H: Hasher> Bits<'a, H> {
    pub(super) fn new(out: &'a mut H) -> Self {
        Bits { out, acc: 0, n: 0 }
    }

    /// Appends the low `bits` bits of `v` (`bits` at most 32, `v` below `2^bits`).
    #[inline(always)]
    pub(super) fn put(&mut self, v: u64, bits: u32) {
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
    pub(super) fn bool(&mut self, v: bool) {
        self.put(u64::from(v), 1);
    }

    #[inline(always)]
    pub(super) fn u8(&mut self, v: u8) {
        self.put(u64::from(v), 8);
    }

    #[inline(always)]
    pub(super) fn u16(&mut self, v: u16) {
        self.put(u64::from(v), 16);
    }

    /// A length: one byte below 255, else 255 and the length in 64 bits.
    #[inline(always)]
    pub(super) fn len(&mut self, n: usize) {
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
    pub(super) fn list<T: Encode>(&mut self, items: &[T]) {
        self.len(items.len());
        for x in items {
            x.encode(self);
        }
    }

    pub(super) fn finish(self) {
        if self.n > 0 {
            self.out.write_u64(self.acc);
        }
    }
}

/// A value's part of a state's bit string.
pub(super) trait Encode {
    /// Appends this value's bits.
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
        b.put(
            match self {
                Zone::Board => 0,
                Zone::Trash => 1,
                Zone::Hand => 2,
            },
            2,
        );
    }
}

impl Encode for Cost {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let Cost {
            energy,
            power,
            any,
            own,
        } = *self;
        let [p0, p1, p2, p3, p4, p5] = power;
        let w = u64::from_le_bytes([energy, p0, p1, p2, p3, p4, p5, any]);
        b.put(w & 0xffff_ffff, 32);
        b.put(w >> 32, 32);
        b.u8(own);
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
            status,
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
        status.encode(b);
    }
}

impl Encode for UnitStatus {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let UnitStatus {
            exhausted,
            stunned,
            combat,
            assault,
        } = *self;
        b.bool(exhausted);
        b.bool(stunned);
        b.put(
            match combat {
                Combat::None => 0,
                Combat::Attacking => 1,
                Combat::Defending => 2,
            },
            2,
        );
        b.u8(assault);
    }
}

impl Encode for Gear {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let Gear {
            card,
            controller,
            zone,
            exhausted,
        } = *self;
        b.u16(card);
        controller.encode(b);
        zone.encode(b);
        b.bool(exhausted);
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
            portal_grants,
            near_victory,
            deck_top,
            recycled,
            runes_exhausted,
            academy_grants,
            runes,
        } = self;
        pool.encode(b);
        b.list(hand);
        b.u8(*hand_other);
        b.u8(*deck);
        b.list(trash);
        b.u8(*trash_other);
        b.u8(*finalized_this_turn);
        b.list(undone);
        b.u8(*portal_grants);
        b.bool(*near_victory);
        b.list(deck_top);
        b.list(recycled);
        b.u8(*runes_exhausted);
        b.u8(*academy_grants);
        runes.encode(b);
    }
}

impl Encode for DeckCard {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        match *self {
            DeckCard::Named(c) => {
                b.put(0, 1);
                b.u16(c);
            }
            DeckCard::Other => b.put(1, 1),
        }
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
            less,
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
                InstanceOrigin::Academy => 4,
            },
            3,
        );
        b.u8(paid);
        b.bool(decided);
        less.encode(b);
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
            optional,
            enters,
            runes_spent,
            discount_order,
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
            Origin::Activated(g) => {
                b.put(3, 2);
                b.u8(g);
            }
        }
        owner.encode(b);
        controller.encode(b);
        match *phase {
            Phase::Choosing => b.put(0, 4),
            Phase::Chosen => b.put(1, 4),
            Phase::Costed => b.put(2, 4),
            Phase::Paid => b.put(3, 4),
            Phase::Legal => b.put(4, 4),
            Phase::Finalized => b.put(5, 4),
            Phase::Resolving { done } => {
                b.put(6, 4);
                b.u8(done);
            }
            Phase::NewChoices { exec, for_item } => {
                b.put(7, 4);
                b.u8(exec);
                b.u8(for_item);
            }
            Phase::Looking {
                exec,
                slot,
                left,
                taking,
            } => {
                b.put(8, 4);
                b.u8(exec);
                b.u8(slot);
                b.u8(left);
                b.bool(taking);
            }
            Phase::Demanding {
                exec,
                slot,
                target,
                energy,
                runes,
                from,
            } => {
                b.put(9, 4);
                b.u8(exec);
                b.u8(slot);
                b.u8(target);
                b.u8(energy);
                b.u8(runes);
                from.encode(b);
            }
            Phase::Discarding { exec, slot, left } => {
                b.put(10, 4);
                b.u8(exec);
                b.u8(slot);
                b.u8(left);
            }
        }
        b.list(repeat);
        accepted.encode(b);
        b.list(choices);
        let TotalCost {
            resources,
            discard,
            exhaust,
            kill,
            kill_might,
            exhaust_me,
        } = *cost;
        resources.encode(b);
        b.u8(discard);
        b.u8(exhaust);
        b.u8(kill);
        b.u8(kill_might);
        b.bool(exhaust_me);
        b.list(ever_chosen);
        b.bool(*left_chain);
        b.list(optional);
        enters.encode(b);
        runes_spent.encode(b);
        b.list(discount_order);
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
        let Start {
            pools,
            runes,
            cards,
            grants,
        } = self;
        pools[0].encode(b);
        pools[1].encode(b);
        runes[0].encode(b);
        runes[1].encode(b);
        b.u8(cards[0]);
        b.u8(cards[1]);
        for g in grants.iter().flatten() {
            b.u8(*g);
        }
    }
}

mod event;
