//! Riders linked to an earlier action (359.3.e.14: a later instruction that refers to an
//! earlier one's action executes only if that action happened): "If this kills it, ..." and a
//! spell's "If you paid, ... Otherwise, ...". Each execution's rider reads its
//! own execution's previous instruction (820.2.a: executions are separate). A kill kills at once;
//! damage kills only in the next cleanup (321), after the item has resolved, so whether a deal
//! "kills it" is read from the damage as the rider executes, the way the rulebook's `kills_it`
//! says (the digest is silent).

use super::instruction::{ignored, At, Outcome};
use super::Game;
use crate::card::{Effect, Rider, Then};
use crate::rulebook::KillsIt;
use crate::state::*;

impl Game {
    /// IfThisKillsIt (359.3.e.14): `then` happens only if the previous instruction of this
    /// execution was performed and killed its unit; otherwise the rider is ignored.
    pub(super) fn if_this_kills_it(
        &self,
        s: &mut State,
        item: &ChainItem,
        at: At,
        then: Then,
    ) -> Outcome {
        if !at.prev_done || !self.previous_killed(s, item, at) {
            return ignored(s, at, IgnoredWhy::LinkedNotExecuted);
        }
        let live = s.item(item.id).cloned().unwrap_or_else(|| item.clone());
        self.run_untargeted(s, &live, then.effect());
        Outcome::Performed
    }

    /// IfPaid (356.2.b, 359.3.e.14): "If you paid, `then`" happens only if the spell's `if-paid`
    /// optional cost was paid while it was played, "Otherwise, `then`" only if it was not; the
    /// other is ignored. A cost reduced to nothing counts as paid (356.4.f.1; the payment step
    /// records it so under the rulebook's `zero_cost_counts_as_paid`). Each execution reads the
    /// one payment. After a change of control, whether the new controller "paid" is the
    /// rulebook's `paid_read_after_control_change`. After a "you may pay" of its mode (205) the
    /// rider reads that answer, given in this execution by whoever controls the item now.
    pub(super) fn if_paid(
        &self,
        s: &mut State,
        item: &ChainItem,
        at: At,
        paid: bool,
        then: Then,
    ) -> Outcome {
        let def = self.card(item.card);
        let mode = item.choices[at.exec as usize].mode.unwrap_or(0);
        let was_paid = if def.modes[mode as usize].asks_before(at.slot as usize) {
            // "If you do": this execution's answer to the "you may pay" before it (205).
            paid_in_this_execution(s, item.id, at.exec)
        } else {
            let was_paid = def
                .optional_costs
                .iter()
                .position(|c| c.rider == Rider::IfPaid)
                .and_then(|i| item.optional.get(i))
                .is_some_and(|o| o.paid);
            was_paid && (at.controller == item.owner || self.rules.paid_read_after_control_change())
        };
        if was_paid != paid {
            return ignored(s, at, IgnoredWhy::LinkedNotExecuted);
        }
        let live = s.item(item.id).cloned().unwrap_or_else(|| item.clone());
        self.run_untargeted(s, &live, then.effect());
        Outcome::Performed
    }

    /// Whether the previous instruction (a kill or a deal of one unit, as the catalogue checks)
    /// killed its unit: a kill moved it off the board; a deal left it lethally damaged, and under
    /// `made-lethal` it was not lethally damaged before this deal.
    fn previous_killed(&self, s: &State, item: &ChainItem, at: At) -> bool {
        let ex = &item.choices[at.exec as usize];
        let (Some(mode), Some(slot)) = (ex.mode, at.slot.checked_sub(1)) else {
            return false;
        };
        let Some(prev) = self.card(item.card).modes[mode as usize]
            .instructions
            .get(slot as usize)
        else {
            return false;
        };
        let Some(Obj::Unit(u)) = ex.targets(slot).next() else {
            return false;
        };
        let unit = &s.units[u as usize];
        match prev.effect {
            Effect::Kill => unit.zone != Zone::Board,
            Effect::Deal(n) => {
                if !unit.lethal() {
                    return false;
                }
                let before = unit.damage.saturating_sub(n);
                let lethal_before = before > 0 && before >= unit.current_might();
                self.rules.kills_it() == KillsIt::LethalAfter || !lethal_before
            }
            _ => false,
        }
    }
}

/// Whether the "you may pay" of execution `exec` of item `id` was paid: its answer is the last
/// one the item asked of itself since that execution started.
fn paid_in_this_execution(s: &State, id: u8, exec: u8) -> bool {
    for e in s.log.iter().rev() {
        match *e {
            Event::DemandDecided {
                item, target, paid, ..
            } if item == id && target == id => return paid,
            Event::ExecutionStarted { item, exec: k } if item == id && k == exec => return false,
            _ => {}
        }
    }
    false
}
