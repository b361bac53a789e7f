//! The bit packing of the state parts and events about costs other than [Repeat], runes, and where
//! units enter (tags from 54 on), apart from `encode` so that file stays readable.

use super::{Bits, Encode};
use crate::card::AdditionalCost;
use crate::cost::Domain;
use crate::state::{Component, Event, OptionalChoice, Reduction, Runes, RunesSpent};
use std::hash::Hasher;

/// The tag of an event past the 6-bit tags: tag 63, its two-bit value 3, then `k` in three bits
/// (0 and 1 this group's, 2 to 7 the main group's, `Encode for Event`). Every event's tag must
/// differ from every other's: each event is digested on its own, zero-padded, so two variants
/// sharing a tag would share a digest wherever their fields are zero.
pub(super) fn escape<H: Hasher>(b: &mut Bits<'_, H>, k: u64) {
    b.put(63, 6);
    b.put(3, 2);
    b.put(k, 3);
}

/// One event of this group: its tag in 6 bits, then its fields.
pub(super) fn encode_event<H: Hasher>(e: &Event, b: &mut Bits<'_, H>) {
    use Event::*;
    let mut tag = |t: u64| b.put(t, 6);
    match *e {
        OptionalCostDeclared { item, index, pay } => {
            tag(54);
            b.u8(item);
            b.u8(index);
            b.bool(pay);
        }
        OptionalCostAdded { item, index, cost } => {
            tag(55);
            b.u8(item);
            b.u8(index);
            cost.encode(b);
        }
        ReductionChosen {
            item,
            component,
            less,
        } => {
            tag(56);
            b.u8(item);
            component.encode(b);
            less.encode(b);
        }
        LocationChosen { item, to } => {
            tag(57);
            b.u8(item);
            to.encode(b);
        }
        UnitEntered {
            item,
            unit,
            at,
            ready,
        } => {
            tag(58);
            b.u8(item);
            b.u8(unit);
            at.encode(b);
            b.bool(ready);
        }
        AdditionalCostAdded { item, discard } => {
            tag(59);
            b.u8(item);
            b.u8(discard);
        }
        Discarded { item, who, card } => {
            tag(60);
            b.u8(item);
            who.encode(b);
            card.encode(b);
        }
        RuneExhausted { item, who, domain } => {
            tag(61);
            b.u8(item);
            who.encode(b);
            domain.encode(b);
        }
        RuneRecycled {
            item,
            who,
            domain,
            ready,
        } => {
            tag(62);
            b.u8(item);
            who.encode(b);
            domain.encode(b);
            b.bool(ready);
        }
        // The last tag that 6 bits hold: events after it share it and add two bits of their own.
        RuneChannelled { who, domain } => {
            tag(63);
            b.put(0, 2);
            who.encode(b);
            domain.encode(b);
        }
        DemandRuneExhausted { item, who, domain } => {
            tag(63);
            b.put(2, 2);
            b.u8(item);
            who.encode(b);
            domain.encode(b);
        }
        PaidWithUnit { item, unit, cost } => {
            tag(63);
            b.put(1, 2);
            b.u8(item);
            b.u8(unit);
            let (k, n) = match cost {
                AdditionalCost::Discard(n) => (0, n),
                AdditionalCost::ExhaustFriendlyUnit => (1, 0),
                AdditionalCost::KillFriendlyUnit { min_might } => (2, min_might),
                AdditionalCost::ExhaustMe => (3, 0),
            };
            b.put(k, 2);
            b.u8(n);
        }
        DiscountOrdered { item, source } => {
            escape(b, 0);
            b.u8(item);
            source.encode(b);
        }
        CostIncreased { item, unit, amount } => {
            escape(b, 1);
            b.u8(item);
            b.u8(unit);
            b.u8(amount);
        }
        _ => unreachable!("not an event of this group"),
    }
}

impl Encode for Reduction {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        b.bool(*self == Reduction::Power);
    }
}

impl Encode for Component {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let (tag, n) = match *self {
            Component::Repeat(n) => (0, n),
            Component::Optional(n) => (1, n),
        };
        b.put(tag, 1);
        b.u8(n);
    }
}

impl Encode for OptionalChoice {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let OptionalChoice {
            decided,
            paid,
            less,
        } = *self;
        b.bool(decided);
        b.bool(paid);
        less.encode(b);
    }
}

impl Encode for Domain {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        b.put(*self as u64, 3);
    }
}

impl Encode for Runes {
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let Runes {
            ready,
            exhausted,
            deck,
        } = self;
        for n in ready.iter().chain(exhausted) {
            b.u8(*n);
        }
        b.list(deck);
    }
}

impl Encode for RunesSpent {
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        let RunesSpent {
            exhausted,
            recycled_exhausted,
            recycled_ready,
        } = self;
        for n in exhausted
            .iter()
            .chain(recycled_exhausted)
            .chain(recycled_ready)
        {
            b.u8(*n);
        }
    }
}
