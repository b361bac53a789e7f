//! Paying the mandatory additional costs that name a unit (356.2.a, 356.7, 357.2): "exhaust a
//! friendly unit", "kill a friendly unit" and a triggered ability's "exhaust me". They are part
//! of the total cost (356.2.a) and are paid after Energy and Power with the rest of the costs
//! (357.2): discards first, then exhausts, then kills, each unit the payer's choice; a choice
//! with one option is taken without a decision, as for discards. Whether they can be paid is
//! checked before anything is paid (203.3, 414.4), so a play that cannot pay them is undone with
//! nothing exhausted or killed (358.5). Ezreal's "[1] or [A] less" does not touch them: it only
//! reduces optional costs (Spiritforged FAQ).

use super::{pending, pending_mut, Game};
use crate::action::Action;
use crate::card::AdditionalCost;
use crate::state::*;

impl Game {
    /// 203.3, 414.4: the unit costs of the item can be paid now: its source is ready for
    /// "exhaust me", enough other ready friendly units for the exhausts, and enough friendly
    /// units for the kills. Whether one unit may pay an exhaust and a kill of the same play the
    /// digest does not say; no card has both, and the model lets it.
    pub(super) fn unit_costs_payable(&self, s: &State, item: &ChainItem) -> bool {
        let need = item.cost;
        let me = match item.origin {
            Origin::Trigger(src) if need.exhaust_me => {
                let u = &s.units[src as usize];
                if u.zone != Zone::Board || u.status.exhausted {
                    return false;
                }
                Some(src)
            }
            Origin::Activated(g) if need.exhaust_me => {
                // The gear's "[E]": it must be on the board and ready (414.4).
                let g = &s.gear[g as usize];
                if g.zone != Zone::Board || g.exhausted {
                    return false;
                }
                None
            }
            _ => None,
        };
        let gear_me = matches!(item.origin, Origin::Activated(_));
        let friendly = || {
            s.units_on_board()
                .filter(|(i, u)| u.controller == item.controller && Some(*i) != me)
        };
        let ready = friendly().filter(|(_, u)| !u.status.exhausted).count();
        let mighty = friendly()
            .filter(|(_, u)| u.current_might() >= need.kill_might)
            .count();
        (!need.exhaust_me || me.is_some() || gear_me)
            && ready >= usize::from(need.exhaust)
            && mighty >= usize::from(need.kill)
    }

    /// 358.1 before paying: the kills the item's cost needs can be paid only with units it chose,
    /// so whatever is paid, a chosen target is then illegal and the play is undone (358.5). The
    /// model undoes it before anything is paid, which ends where paying and undoing would.
    pub(super) fn kills_only_chosen(&self, s: &State, item: &ChainItem) -> bool {
        item.cost.kill > 0
            && s.units_on_board()
                .filter(|(i, u)| u.controller == item.controller && !chose(item, *i))
                .filter(|(_, u)| u.current_might() >= item.cost.kill_might)
                .count()
                < usize::from(item.cost.kill)
    }

    /// ExhaustForCost's and KillForCost's guard (357.2): with no card left to discard, each
    /// friendly unit that can pay the next unit cost: a ready one to exhaust (414.4), then any to
    /// kill.
    pub(super) fn unit_cost_actions(&self, s: &State, item: &ChainItem, out: &mut Vec<Action>) {
        for unit in unit_options(s, item) {
            out.push(match item.cost.exhaust > 0 {
                true => Action::ExhaustForCost { unit },
                false => Action::KillForCost { unit },
            });
        }
    }

    /// ExhaustForCost's effect (357.2, 414): the unit becomes exhausted; then any payment left
    /// with one option is made at once.
    pub(super) fn exhaust_for_cost(&self, s: &mut State, unit: u8) {
        self.pay_with(s, unit, AdditionalCost::ExhaustFriendlyUnit);
        self.forced_payments(s);
    }

    /// KillForCost's effect (357.2): the unit goes to its owner's trash (a token ceases to
    /// exist), a zone change (124); then any payment left with one option is made at once.
    pub(super) fn kill_for_cost(&self, s: &mut State, unit: u8) {
        let min_might = pending(s).cost.kill_might;
        self.pay_with(s, unit, AdditionalCost::KillFriendlyUnit { min_might });
        self.forced_payments(s);
    }

    /// "Exhaust me" at PayCosts (357.2): the source has no alternative, so there is no decision.
    pub(super) fn exhaust_me(&self, s: &mut State) {
        let item = pending_mut(s);
        if !item.cost.exhaust_me {
            return;
        }
        item.cost.exhaust_me = false;
        let id = item.id;
        match item.origin {
            Origin::Trigger(src) => {
                s.units[src as usize].status.exhausted = true;
                s.log.push(Event::PaidWithUnit {
                    item: id,
                    unit: src,
                    cost: AdditionalCost::ExhaustMe,
                });
            }
            Origin::Activated(gear) => {
                s.gear[gear as usize].exhausted = true;
                s.log.push(Event::GearExhausted { item: id, gear });
            }
            Origin::Hand | Origin::Token { .. } => {}
        }
    }

    /// Pays one unit cost of the pending item with `unit` and logs it; a kill is a kill like any
    /// other (to the owner's trash, a zone change, 124).
    fn pay_with(&self, s: &mut State, unit: u8, cost: AdditionalCost) {
        let item = pending_mut(s);
        let id = item.id;
        match cost {
            AdditionalCost::KillFriendlyUnit { .. } => item.cost.kill -= 1,
            _ => item.cost.exhaust -= 1,
        }
        s.log.push(Event::PaidWithUnit {
            item: id,
            unit,
            cost,
        });
        if matches!(cost, AdditionalCost::KillFriendlyUnit { .. }) {
            self.kill(s, Obj::Unit(unit));
        } else {
            s.units[unit as usize].status.exhausted = true;
        }
    }

    /// The payments that leave the payer no choice, made without a decision: discards first,
    /// then unit costs with a single candidate.
    pub(super) fn forced_payments(&self, s: &mut State) {
        self.forced_discards(s);
        loop {
            let item = pending(s);
            if item.cost.discard > 0 || item.cost.exhaust + item.cost.kill == 0 {
                return;
            }
            let how = match item.cost.exhaust > 0 {
                true => AdditionalCost::ExhaustFriendlyUnit,
                false => AdditionalCost::KillFriendlyUnit {
                    min_might: item.cost.kill_might,
                },
            };
            match unit_options(s, item)[..] {
                [only] => self.pay_with(s, only, how),
                _ => return,
            }
        }
    }
}

/// The friendly units that can pay the pending item's next unit cost: ready ones while units are
/// still to be exhausted, then any with the Might a restricted kill asks for. A unit the item
/// chose is not killed while another unit can pay (357.3: no deterministic self-sabotage;
/// killed, it would be an illegal target, 358.1).
pub(super) fn unit_options(s: &State, item: &ChainItem) -> Vec<u8> {
    let exhausting = item.cost.exhaust > 0;
    let all: Vec<u8> = s
        .units_on_board()
        .filter(|(_, u)| u.controller == item.controller)
        .filter(|(_, u)| !exhausting || !u.status.exhausted)
        .filter(|(_, u)| exhausting || u.current_might() >= item.cost.kill_might)
        .map(|(i, _)| i)
        .collect();
    if exhausting {
        return all;
    }
    let spared: Vec<u8> = all.iter().copied().filter(|&u| !chose(item, u)).collect();
    if spared.is_empty() {
        all
    } else {
        spared
    }
}

/// Whether `item` chose unit `u` for some execution.
pub(super) fn chose(item: &ChainItem, u: u8) -> bool {
    item.choices
        .iter()
        .any(|ex| ex.objects().any(|o| o == Obj::Unit(u)))
}
