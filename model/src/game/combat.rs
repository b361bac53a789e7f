//! The effects on units' combat statuses and Might: [Assault] given this turn (807),
//! [Stun] (423), readying (415), two units dealing damage equal to their Mights to each other
//! (417.6.b.3), Might given to a group picked by its tag (355.10.d), and "stun it; if it's
//! already stunned, return it to its owner's hand instead" (423.1.a.1, 124). Each effect runs
//! on the targets still legal as its instruction executes (359.3.e); `instruction` dispatches
//! here.

use super::instruction::{ignored, At, Outcome};
use super::Game;
use crate::card::{Effect, Tag};
use crate::state::*;

/// The units among the legal targets.
fn units(legal: &[Obj]) -> impl Iterator<Item = u8> + '_ {
    legal.iter().filter_map(|o| match *o {
        Obj::Unit(u) => Some(u),
        _ => None,
    })
}

impl Game {
    /// Runs one of this module's effects on the instruction's legal targets.
    pub(super) fn run_combat(
        &self,
        s: &mut State,
        ex: &ExecChoices,
        at: At,
        effect: Effect,
        legal: &[Obj],
    ) -> Outcome {
        match effect {
            Effect::GiveAssault(n) => {
                for u in units(legal) {
                    give_assault(s, u, n);
                }
                Outcome::Performed
            }
            Effect::Stun => {
                let mut any = false;
                for u in units(legal) {
                    any |= stun(s, u);
                }
                if any {
                    Outcome::Performed
                } else {
                    // 423.1.a.1: a stunned unit cannot be stunned again.
                    ignored(s, at, IgnoredWhy::Impossible)
                }
            }
            Effect::Ready => {
                let mut any = false;
                for u in units(legal) {
                    any |= ready(s, u);
                }
                if any {
                    Outcome::Performed
                } else {
                    // 415.1.b: a ready unit cannot be readied again.
                    ignored(s, at, IgnoredWhy::Impossible)
                }
            }
            Effect::MightsToEachOther => self.mights_to_each_other(s, ex, at, legal),
            Effect::GiveMightToGroup(tag, n) => self.give_might_to_group(s, at, tag, n),
            Effect::StunOrReturnToHand => {
                for u in units(legal) {
                    if s.units[u as usize].status.stunned {
                        self.return_to_owners_hand(s, u);
                    } else {
                        stun(s, u);
                    }
                }
                Outcome::Performed
            }
            _ => unreachable!("instruction dispatches only this module's effects here"),
        }
    }

    /// 417.6.b.3: the previous instruction's unit and this one's deal damage equal to their
    /// Mights to each other, both Mights read before either is dealt (359.3.f.2). "They" names
    /// both, so it is linked to the choice before it (359.3.e.14): if that unit is no longer a
    /// legal target, no damage is dealt at all.
    fn mights_to_each_other(
        &self,
        s: &mut State,
        ex: &ExecChoices,
        at: At,
        legal: &[Obj],
    ) -> Outcome {
        if !at.prev_done {
            return ignored(s, at, IgnoredWhy::LinkedNotExecuted);
        }
        let first = at
            .slot
            .checked_sub(1)
            .and_then(|p| ex.targets(p).next())
            .and_then(|o| match o {
                Obj::Unit(u) => Some(u),
                _ => None,
            });
        let (Some(a), Some(b)) = (first, units(legal).next()) else {
            return ignored(s, at, IgnoredWhy::Impossible);
        };
        if a == b || s.units[a as usize].zone != Zone::Board {
            return ignored(s, at, IgnoredWhy::Impossible);
        }
        let (ma, mb) = (
            s.units[a as usize].current_might(),
            s.units[b as usize].current_might(),
        );
        s.log.push(Event::MightsExchanged { a, b });
        // 417.1.e: only a positive amount is dealt.
        if ma > 0 {
            self.deal(s, Obj::Unit(b), ma);
        }
        if mb > 0 {
            self.deal(s, Obj::Unit(a), mb);
        }
        Outcome::Performed
    }

    /// "Give your [tag]s +N Might this turn": each unit of the tag the item's controller controls
    /// now, not targeted (355.10.d); performed even when the group is empty (nothing to follow).
    fn give_might_to_group(&self, s: &mut State, at: At, tag: Tag, n: i8) -> Outcome {
        let group: Vec<u8> = s
            .units_on_board()
            .filter(|(_, u)| u.controller == at.controller && self.card(u.card).tags.contains(&tag))
            .map(|(i, _)| i)
            .collect();
        s.log.push(Event::GroupAffected {
            item: at.id,
            exec: at.exec,
            n: group.len() as u8,
        });
        for u in group {
            let unit = &mut s.units[u as usize];
            unit.might_mod = unit.might_mod.saturating_add(n);
            s.log.push(Event::MightChanged { unit: u, by: n });
        }
        Outcome::Performed
    }

    /// Returns a unit to its owner's hand (56.2): a zone change, so it is a new object and every
    /// temporary modification and status is cleared (124, 124.1); a token ceases to exist.
    pub(super) fn return_to_owners_hand(&self, s: &mut State, u: u8) {
        let unit = &mut s.units[u as usize];
        unit.zone = Zone::Hand;
        unit.damage = 0;
        unit.might_mod = 0;
        unit.status = UnitStatus::default();
        let (owner, card, token) = (unit.owner, unit.card, unit.token);
        if !token {
            s.players[owner.ix()].hand.push(card);
        }
        s.log.push(Event::ZoneChange {
            obj: Obj::Unit(u),
            to: Zone::Hand,
        });
    }
}

/// 807.2: [Assault] granted this turn adds to what the unit has.
fn give_assault(s: &mut State, u: u8, n: u8) {
    let st = &mut s.units[u as usize].status;
    st.assault = st.assault.saturating_add(n);
    s.log.push(Event::AssaultGiven { unit: u, amount: n });
}

/// 423.1: the unit becomes stunned; false if it already was (423.1.a.1).
fn stun(s: &mut State, u: u8) -> bool {
    let st = &mut s.units[u as usize].status;
    if st.stunned {
        return false;
    }
    st.stunned = true;
    s.log.push(Event::Stunned { unit: u });
    true
}

/// 415.1: an exhausted unit becomes ready; false if it already was (415.1.b).
fn ready(s: &mut State, u: u8) -> bool {
    let st = &mut s.units[u as usize].status;
    if !st.exhausted {
        return false;
    }
    st.exhausted = false;
    s.log.push(Event::Readied { unit: u });
    true
}
