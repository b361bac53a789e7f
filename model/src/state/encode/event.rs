//! Each event's part of a state's bit string: the log's digest is built from these.

use super::{Bits, Encode};
use crate::state::{CancelWhy, DiscountSource, Event, IgnoredWhy};
use std::hash::Hasher;

impl Encode for Event {
    // Longer than 120 lines, and reads better so: one short arm per event variant, and the tags
    // (which must stay distinct) are read down one column.
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
                source.encode(b);
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
                b.put(
                    match why {
                        CancelWhy::NoLegalChoice => 0,
                        CancelWhy::CannotPay => 1,
                        CancelWhy::TargetsIllegal => 2,
                    },
                    2,
                );
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
            Performed {
                item,
                exec,
                slot,
                linked,
            } => {
                tag(19);
                b.u8(item);
                b.u8(exec);
                b.u8(slot);
                b.bool(linked);
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
            // Tags 54 to 63 are the cost group's (`costs::encode_event`): these take the escape
            // it leaves under tag 63, after the two values of its own (`escape`).
            TurnEnded => super::costs::escape(b, 2),
            PoolEmptied { who, amount } => {
                super::costs::escape(b, 6);
                who.encode(b);
                amount.encode(b);
            }
            GrantGiven { item, who, grant } => {
                super::costs::escape(b, 4);
                b.u8(item);
                who.encode(b);
                b.bool(grant == crate::state::Grant::Academy);
            }
            GearExhausted { item, gear } => {
                super::costs::escape(b, 5);
                b.u8(item);
                b.u8(gear);
            }
            GearEntered { item, gear } => {
                super::costs::escape(b, 7);
                b.u8(item);
                b.u8(gear);
            }
            GrantTaken { item, who, grant } => {
                super::costs::escape(b, 3);
                b.u8(item);
                who.encode(b);
                b.bool(grant == crate::state::Grant::Academy);
            }
            Stunned { unit } => {
                tag(41);
                b.u8(unit);
            }
            Readied { unit } => {
                tag(42);
                b.u8(unit);
            }
            AssaultGiven { unit, amount } => {
                tag(43);
                b.u8(unit);
                b.u8(amount);
            }
            MightsExchanged { a, b: other } => {
                tag(44);
                b.u8(a);
                b.u8(other);
            }
            GroupAffected { item, exec, n } => {
                tag(45);
                b.u8(item);
                b.u8(exec);
                b.u8(n);
            }
            LookedAt { item, who, n } => {
                tag(46);
                b.u8(item);
                who.encode(b);
                b.u8(n);
            }
            Revealed { who, card } => {
                tag(47);
                who.encode(b);
                b.u16(card);
            }
            DrewLooked { who, card } => {
                tag(48);
                who.encode(b);
                card.encode(b);
            }
            Recycled { who, card } => {
                tag(49);
                who.encode(b);
                card.encode(b);
            }
            DemandDecided {
                item,
                target,
                by,
                paid,
                energy,
            } => {
                tag(50);
                b.u8(item);
                b.u8(target);
                by.encode(b);
                b.bool(paid);
                b.u8(energy);
            }
            RevealDeclined { who } => {
                tag(53);
                who.encode(b);
            }
            ChosenChecked { item, target, met } => {
                tag(52);
                b.u8(item);
                b.u8(target);
                b.bool(met);
            }
            RunesChannelled { who, n } => {
                tag(51);
                who.encode(b);
                b.u8(n);
            }
            // Tags from 54 on: costs other than [Repeat] and where units enter.
            OptionalCostDeclared { .. }
            | OptionalCostAdded { .. }
            | ReductionChosen { .. }
            | DiscountOrdered { .. }
            | CostIncreased { .. }
            | LocationChosen { .. }
            | UnitEntered { .. }
            | AdditionalCostAdded { .. }
            | Discarded { .. }
            | RuneExhausted { .. }
            | RuneRecycled { .. }
            | RuneChannelled { .. }
            | DemandRuneExhausted { .. }
            | PaidWithUnit { .. } => super::costs::encode_event(self, b),
        }
    }
}

impl Encode for DiscountSource {
    #[inline(always)]
    fn encode<H: Hasher>(&self, b: &mut Bits<'_, H>) {
        match *self {
            DiscountSource::SelfDiscount => b.put(0, 2),
            DiscountSource::Ezreal => b.put(1, 2),
            DiscountSource::MaraiSpire => b.put(2, 2),
            DiscountSource::Unit(u) => {
                b.put(3, 2);
                b.u8(u);
            }
        }
    }
}
