//! Which events name an object of the board (a unit or gear) and which field does: the model
//! owns its event type, so it says where objects are in it, for whoever renames them (symmetry
//! reduction of interchangeable gear) or looks for the first mention of one.

use super::{Event, Obj};

impl Event {
    /// The object this event names, if it names one (a target chosen, unaffected or remade, a
    /// zone change).
    pub fn object(&self) -> Option<Obj> {
        let found = std::cell::Cell::new(None);
        self.map_object(&|o| {
            found.set(Some(o));
            o
        });
        found.get()
    }

    /// The event with the object it names renamed by `f` (unchanged if it names none).
    /// Exhaustive, so that a new event that names an object cannot be missed by a renaming.
    pub fn map_object(self, f: &dyn Fn(Obj) -> Obj) -> Event {
        use Event::*;
        match self {
            TargetChosen {
                item,
                exec,
                slot,
                obj,
            } => TargetChosen {
                item,
                exec,
                slot,
                obj: f(obj),
            },
            TargetUnaffected { item, exec, obj } => TargetUnaffected {
                item,
                exec,
                obj: f(obj),
            },
            ZoneChange { obj, to } => ZoneChange { obj: f(obj), to },
            DiscountApplied {
                item,
                source,
                amount,
            } => DiscountApplied {
                item,
                source: source.map_unit(f),
                amount,
            },
            CostIncreased { item, unit, amount } => match f(Obj::Unit(unit)) {
                Obj::Unit(unit) => CostIncreased { item, unit, amount },
                _ => self,
            },
            DiscountOrdered { item, source } => DiscountOrdered {
                item,
                source: source.map_unit(f),
            },
            ChoiceRemade {
                item,
                exec,
                slot,
                obj,
            } => ChoiceRemade {
                item,
                exec,
                slot,
                obj: f(obj),
            },
            MovedToChain { .. }
            | OptionalDecided { .. }
            | RepeatDeclared { .. }
            | ModeChosen { .. }
            | TargetsEnded { .. }
            | DestinationChosen { .. }
            | RepeatCostAdded { .. }
            | DeflectAdded { .. }
            | CostDetermined { .. }
            | CostPaid { .. }
            | PlayCancelled { .. }
            | LegalityChecked { .. }
            | Finalized { .. }
            | Passed { .. }
            | WindowOpened { .. }
            | ResolveStarted { .. }
            | ExecutionStarted { .. }
            | Performed { .. }
            | Ignored { .. }
            | Damaged { .. }
            | MightChanged { .. }
            | UnitMoved { .. }
            | Drew { .. }
            | TokenQueued { .. }
            | Triggered { .. }
            | Played { .. }
            | Resolved { .. }
            | Countered { .. }
            | Refunded { .. }
            | LeftChain { .. }
            | ControlChanged { .. }
            | NewChoicesBegun { .. }
            | ChoiceKept { .. }
            | NewChoicesEnded { .. }
            | Cleanup
            | ChainClosed
            | TurnEnded
            | PoolEmptied { .. }
            | GrantGiven { .. }
            | GearExhausted { .. }
            | GrantTaken { .. }
            | LookedAt { .. }
            | Revealed { .. }
            | DrewLooked { .. }
            | Recycled { .. }
            | DemandDecided { .. }
            | ChosenChecked { .. }
            | RevealDeclined { .. }
            | RunesChannelled { .. }
            | Stunned { .. }
            | Readied { .. }
            | AssaultGiven { .. }
            | MightsExchanged { .. }
            | GroupAffected { .. }
            | OptionalCostDeclared { .. }
            | OptionalCostAdded { .. }
            | ReductionChosen { .. }
            | LocationChosen { .. }
            | UnitEntered { .. }
            | GearEntered { .. }
            | AdditionalCostAdded { .. }
            | Discarded { .. }
            | RuneExhausted { .. }
            | RuneRecycled { .. }
            | RuneChannelled { .. }
            | DemandRuneExhausted { .. }
            | PaidWithUnit { .. } => self,
        }
    }
}

impl super::DiscountSource {
    /// The source with its unit renamed by `f` (unchanged if it is no unit's).
    fn map_unit(self, f: &dyn Fn(Obj) -> Obj) -> Self {
        match self {
            super::DiscountSource::Unit(u) => match f(Obj::Unit(u)) {
                Obj::Unit(u) => super::DiscountSource::Unit(u),
                _ => self,
            },
            other => other,
        }
    }
}
