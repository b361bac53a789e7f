//! Which objects and destinations a choice may name: the legal targets of a target spec
//! (355.5–355.14), checked when the choice is made and again as the instruction executes
//! (359.3.e.2–4), and the legal destinations of a move (355.4).

use super::Game;
use crate::card::{CardKind, Chooses, Destination, Place, Side, TargetKind, TargetSpec};
use crate::rulebook::ChosenAcross;
use crate::state::*;

impl Game {
    /// Objects that meet a target spec now, for an item controlled by `controller`.
    pub(super) fn candidates(
        &self,
        s: &State,
        item: &ChainItem,
        spec: TargetSpec,
        controller: Player,
    ) -> Vec<Obj> {
        let mut out = vec![];
        match spec.kind {
            TargetKind::Unit => {
                for (i, _) in s.units_on_board() {
                    if self.unit_meets(s, item, spec, controller, i) {
                        out.push(Obj::Unit(i));
                    }
                }
            }
            TargetKind::Gear => {
                for (i, g) in s.gear.iter().enumerate() {
                    if g.zone == Zone::Board && side_ok(spec.side, controller, g.controller) {
                        out.push(Obj::Gear(i as u8));
                    }
                }
            }
            TargetKind::Spell | TargetKind::SpellOrAbility => {
                for other in &s.chain {
                    if self.item_meets(s, other, item, spec, controller, None) {
                        out.push(Obj::Item(other.id));
                    }
                }
            }
        }
        out
    }

    /// Whether unit `i` meets the spec for an item controlled by `controller`.
    pub(super) fn unit_meets(
        &self,
        s: &State,
        item: &ChainItem,
        spec: TargetSpec,
        controller: Player,
        i: u8,
    ) -> bool {
        let u = &s.units[i as usize];
        if u.zone != Zone::Board || !side_ok(spec.side, controller, u.controller) {
            return false;
        }
        if spec.attacking && u.status.combat != Combat::Attacking {
            return false;
        }
        match spec.at {
            Place::Anywhere => true,
            Place::Base => !u.loc.is_battlefield(),
            Place::Battlefield => u.loc.is_battlefield(),
            Place::Here => match item.origin {
                Origin::Trigger(src) => {
                    let src = &s.units[src as usize];
                    src.zone == Zone::Board && src.loc == u.loc
                }
                _ => false,
            },
        }
    }

    /// Whether chain item `other` meets the spec for `item`, controlled by `controller`; `it` is
    /// the object a "chooses it" restriction refers to, `None` while it is not known yet (then
    /// any one object will do).
    pub(super) fn item_meets(
        &self,
        s: &State,
        other: &ChainItem,
        item: &ChainItem,
        spec: TargetSpec,
        controller: Player,
        it: Option<Obj>,
    ) -> bool {
        // 355.9: not the item itself; pending items are always finalized before anyone has priority.
        let c = self.card(other.card);
        let kind_ok = match spec.kind {
            TargetKind::SpellOrAbility => matches!(c.kind, CardKind::Spell | CardKind::Ability),
            _ => c.kind == CardKind::Spell,
        };
        other.id != item.id
            && !other.left_chain
            && kind_ok
            && !other.is_pending()
            && spec
                .chooses
                .is_none_or(|ch| self.chooses_ok(s, other, ch, controller, it))
            && side_ok(spec.side, controller, other.controller)
            // 206: "costs no more than" reads the printed cost, ignoring [Repeat] paid.
            && spec.max_energy.is_none_or(|m| c.cost.energy <= m)
            && spec.max_power.is_none_or(|m| c.cost.power_total() <= m)
    }

    /// Whether `other` has chosen what `ch` asks, "friendly" seen from `controller`. Its choices
    /// count whether or not they are still legal, but not objects that left the board
    /// (359.3.e.9.a); which executions count is the rulebook's `chosen_across`.
    fn chooses_ok(
        &self,
        s: &State,
        other: &ChainItem,
        ch: Chooses,
        controller: Player,
        it: Option<Obj>,
    ) -> bool {
        let friendly_on_board = |o: &Obj| match *o {
            Obj::Unit(u) => {
                let u = &s.units[u as usize];
                u.zone == Zone::Board && u.controller == controller
            }
            Obj::Gear(g) => {
                let g = &s.gear[g as usize];
                g.zone == Zone::Board && g.controller == controller
            }
            Obj::Item(_) => false,
        };
        // The friendly units a set of choices names, each once.
        let units_of = |objs: &mut dyn Iterator<Item = Obj>| {
            let mut v: Vec<Obj> = objs
                .filter(|o| matches!(o, Obj::Unit(_)) && friendly_on_board(o))
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let only_it = |v: &[Obj]| v.len() == 1 && it.is_none_or(|it| v[0] == it);
        match (ch, self.rules.chosen_across()) {
            (Chooses::FriendlyUnitOrGear, _) => other
                .choices
                .iter()
                .any(|ex| ex.objects().any(|o| friendly_on_board(&o))),
            (Chooses::OnlyItAmongFriendlyUnits, ChosenAcross::AllExecutions) => only_it(&units_of(
                &mut other.choices.iter().flat_map(|ex| ex.objects()),
            )),
            (Chooses::OnlyItAmongFriendlyUnits, ChosenAcross::OneExecution) => other
                .choices
                .iter()
                .any(|ex| only_it(&units_of(&mut ex.objects()))),
        }
    }

    /// The object a "chooses it" restriction at `slot` refers to: the execution's target of the
    /// instruction before (Repulse).
    pub(super) fn referent(&self, ex: &ExecChoices, spec: TargetSpec, slot: u8) -> Option<Obj> {
        match spec.chooses {
            Some(Chooses::OnlyItAmongFriendlyUnits) => {
                slot.checked_sub(1).and_then(|p| ex.targets(p).next())
            }
            _ => None,
        }
    }

    /// Where an object is, for "at the same location" (only units have one).
    pub(super) fn location_of(&self, s: &State, obj: Obj) -> Option<Location> {
        match obj {
            Obj::Unit(i) => Some(s.units[i as usize].loc),
            _ => None,
        }
    }

    /// 355.4: destinations for a move; never the unit's current location (355.4.a).
    pub(super) fn destinations(
        &self,
        s: &State,
        unit: Option<Obj>,
        dest: Destination,
    ) -> Vec<Location> {
        let Some(Obj::Unit(u)) = unit else {
            return vec![];
        };
        let unit = &s.units[u as usize];
        let mut all = vec![Location::Base(Player::YOU), Location::Base(Player::OPP)];
        all.extend((0..s.battlefields.len() as u8).map(Location::Battlefield));
        all.into_iter()
            .filter(|l| *l != unit.loc && self.destination_ok(s, u, *l, dest))
            .collect()
    }

    /// Whether unit `u` may move to `to` under `dest`.
    pub(super) fn destination_ok(&self, s: &State, u: u8, to: Location, dest: Destination) -> bool {
        let unit = &s.units[u as usize];
        if to == unit.loc {
            return false;
        }
        if let Location::Base(p) = to {
            // A unit can only be in its controller's base.
            if p != unit.controller {
                return false;
            }
        }
        match dest {
            Destination::Anywhere => true,
            Destination::WithSameController => s
                .units_on_board()
                .any(|(j, o)| j != u && o.loc == to && o.controller == unit.controller),
        }
    }
}

/// Whether an object on `owner`'s side is on the side a spec asks for, seen from `controller`.
pub(super) fn side_ok(side: Side, controller: Player, owner: Player) -> bool {
    match side {
        Side::Any => true,
        Side::Enemy => owner != controller,
        Side::Friendly => owner == controller,
    }
}
