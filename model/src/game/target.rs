//! Which objects and destinations a choice may name: the legal targets of a target spec
//! (355.5–355.14), checked when the choice is made and again as the instruction executes
//! (359.3.e.2–4), and the legal destinations of a move (355.4).

use super::Game;
use crate::card::{CardKind, Destination, Place, Side, TargetKind, TargetSpec};
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
            TargetKind::Spell => {
                for other in &s.chain {
                    if self.item_meets(other, item, spec, controller) {
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

    /// Whether chain item `other` meets the spec for `item`, controlled by `controller`.
    pub(super) fn item_meets(
        &self,
        other: &ChainItem,
        item: &ChainItem,
        spec: TargetSpec,
        controller: Player,
    ) -> bool {
        // 355.9: not the item itself; pending items are always finalized before anyone has priority.
        let c = self.card(other.card);
        other.id != item.id
            && !other.left_chain
            && c.kind == CardKind::Spell
            && !other.is_pending()
            && side_ok(spec.side, controller, other.controller)
            // 206: "costs no more than" reads the printed cost, ignoring [Repeat] paid.
            && spec.max_energy.is_none_or(|m| c.cost.energy <= m)
            && spec.max_power.is_none_or(|m| c.cost.power_total() <= m)
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
