//! Paying with runes (164.2, 357.1.a): while an item's cost is paid, its controller may exhaust
//! ready runes to add [1] and recycle runes to add one Power of their domain; PayCosts then takes
//! the cost from the pool (`cost`). Undoing a play (358.5) gives back exactly the runes its
//! payment used.
//!
//! Orders that end in the same runes are one: all exhausting comes before any recycling, each in
//! `Domain::ALL` order, and a recycled rune is an exhausted one when there is one (`Runes::recycle`).
//! A rune is used only while the cost still needs what it adds, so nothing is left floating; the
//! rules would let a player add more (the surplus empties with the pool, 166–167), which this
//! model leaves out to keep the state space small.

use super::cost::domain_mask;
use super::{pending, pending_mut, Game};
use crate::action::Action;
use crate::cost::{Cost, Domain};
use crate::state::*;

/// What the pool still lacks to pay a cost: Energy, Power per domain, Power of one of the card's
/// domains (`own`, those in the mask `mine`) and any-domain Power, after the Power the pool has
/// beyond each domain's own need (spent on the card's domains first, where it is needed most).
struct Shortfall {
    energy: u8,
    power: [u8; 6],
    own: u8,
    any: u8,
}

impl Shortfall {
    fn of(pool: Cost, need: Cost, mine: u8) -> Shortfall {
        let mut power = [0u8; 6];
        let (mut surplus, mut surplus_mine) = (0u8, 0u8);
        for (d, ((lack, n), p)) in power.iter_mut().zip(need.power).zip(pool.power).enumerate() {
            *lack = n.saturating_sub(p);
            let extra = p.saturating_sub(n);
            surplus = surplus.saturating_add(extra);
            if mine >> d & 1 == 1 {
                surplus_mine = surplus_mine.saturating_add(extra);
            }
        }
        let own_from_pool = need.own.min(surplus_mine);
        Shortfall {
            energy: need.energy.saturating_sub(pool.energy),
            power,
            own: need.own - own_from_pool,
            any: need.any.saturating_sub(surplus - own_from_pool),
        }
    }
}

impl Game {
    /// ExhaustRune's and RecycleRune's guards (357.1.a): the controller has runes; a ready rune
    /// may be exhausted while Energy is short, a rune recycled while Power of its domain (or of
    /// any domain) is short; exhausting before recycling, domains in order (one order for runes
    /// that end the same). While the cost can still be paid, only a step after which it still
    /// can is offered, so the order never strands a payable play; a cost the runes cannot pay is
    /// found out by paying until nothing is left to add, and the play is undone (358.5).
    pub(super) fn rune_actions(&self, s: &State, item: &ChainItem, out: &mut Vec<Action>) {
        let ps = &s.players[item.controller.ix()];
        let Some(runes) = &ps.runes else {
            return;
        };
        let need = item.cost.resources;
        let spent = &item.runes_spent;
        let mine = domain_mask(&self.card(item.card).domains);
        let payable = can_finish(ps.pool, need, mine, runes, spent);
        let short = Shortfall::of(ps.pool, need, mine);
        let free = !self.rules.runes_only_for_the_cost();
        for d in Domain::ALL {
            let i = d as usize;
            if (free || short.energy > 0)
                && runes.ready[i] > 0
                && ps.pool.energy < u8::MAX
                && !spent.any_recycled()
                && !spent.exhausted_after(d)
            {
                let (mut pool, mut r, mut sp) = (ps.pool, runes.clone(), *spent);
                r.exhaust(d);
                pool.energy += 1;
                sp.exhausted[i] += 1;
                if !payable || can_finish(pool, need, mine, &r, &sp) {
                    out.push(Action::ExhaustRune { domain: d });
                }
            }
        }
        for d in Domain::ALL {
            let i = d as usize;
            let wanted =
                short.power[i] > 0 || short.any > 0 || (short.own > 0 && mine >> i & 1 == 1);
            if (free || wanted)
                && (runes.ready[i] > 0 || runes.exhausted[i] > 0)
                && ps.pool.power[i] < u8::MAX
                && !spent.recycled_after(d)
            {
                let (mut pool, mut r, mut sp) = (ps.pool, runes.clone(), *spent);
                let ready = r.recycle(d) == Some(true);
                pool.power[i] += 1;
                if ready {
                    sp.recycled_ready[i] += 1;
                } else {
                    sp.recycled_exhausted[i] += 1;
                }
                if !payable || can_finish(pool, need, mine, &r, &sp) {
                    out.push(Action::RecycleRune { domain: d });
                }
            }
        }
    }

    /// ExhaustRune's effect (164.2 "[E]: Add [1]"): the rune is exhausted and [1] is added to the
    /// pool at once (357.1.a: an Add ability resolves immediately).
    pub(super) fn exhaust_rune(&self, s: &mut State, domain: Domain) {
        let (id, who) = (pending(s).id, pending(s).controller);
        let ps = &mut s.players[who.ix()];
        let Some(runes) = ps.runes.as_mut() else {
            return;
        };
        if !runes.exhaust(domain) {
            return;
        }
        ps.pool.energy = ps.pool.energy.saturating_add(1);
        let spent = &mut pending_mut(s).runes_spent.exhausted[domain as usize];
        *spent = spent.saturating_add(1);
        s.log.push(Event::RuneExhausted {
            item: id,
            who,
            domain,
        });
    }

    /// RecycleRune's effect (164.2 "Recycle this: Add [C]"): the rune goes to the bottom of the
    /// rune deck and one Power of its domain is added to the pool.
    pub(super) fn recycle_rune(&self, s: &mut State, domain: Domain) {
        let (id, who) = (pending(s).id, pending(s).controller);
        let ps = &mut s.players[who.ix()];
        let Some(ready) = ps.runes.as_mut().and_then(|r| r.recycle(domain)) else {
            return;
        };
        let d = domain as usize;
        ps.pool.power[d] = ps.pool.power[d].saturating_add(1);
        let spent = &mut pending_mut(s).runes_spent;
        let n = if ready {
            &mut spent.recycled_ready[d]
        } else {
            &mut spent.recycled_exhausted[d]
        };
        *n = n.saturating_add(1);
        s.log.push(Event::RuneRecycled {
            item: id,
            who,
            domain,
            ready,
        });
    }

    /// Part of CancelPlay's effect (358.5): the runes the payment used are given back and what
    /// they added leaves the pool; under a wrong rulebook the runes stay spent.
    pub(super) fn give_back_runes(&self, ps: &mut PlayerState, spent: &RunesSpent) {
        if spent.is_empty() {
            return;
        }
        let produced = spent.produced();
        ps.pool.energy = ps.pool.energy.saturating_sub(produced.energy);
        for d in 0..6 {
            ps.pool.power[d] = ps.pool.power[d].saturating_sub(produced.power[d]);
        }
        if let (Some(r), true) = (ps.runes.as_mut(), self.rules.undo_gives_back_runes()) {
            // Nothing moves runes between paying and undoing, so they are where it put them.
            let given = r.give_back(spent);
            debug_assert!(given, "the runes moved during a payment");
        }
    }

    /// "Channel N runes exhausted" (Find Your Center) for a player with runes: the top runes of
    /// the rune deck, as many as it holds up to N; returns how many.
    pub(super) fn channel_runes(&self, s: &mut State, who: Player, n: u8) -> u8 {
        let mut done = 0u8;
        for _ in 0..n {
            let Some(domain) = s.players[who.ix()]
                .runes
                .as_mut()
                .and_then(|r| r.channel_exhausted())
            else {
                break;
            };
            done += 1;
            s.log.push(Event::RuneChannelled { who, domain });
        }
        done
    }
}

/// Whether the rune steps still allowed (exhausting only before any recycling, each in domain
/// order from the last one used) can make the pool cover `need`. Exhausting leaves a rune on the
/// board, where it can still be recycled, so Energy and Power are found independently.
fn can_finish(pool: Cost, need: Cost, mine: u8, runes: &Runes, spent: &RunesSpent) -> bool {
    let short = Shortfall::of(pool, need, mine);
    let last = |counts: &[&[u8; 6]]| {
        (0..6)
            .rev()
            .find(|&d| counts.iter().any(|c| c[d] > 0))
            .unwrap_or(0)
    };
    let energy = if spent.any_recycled() {
        short.energy == 0
    } else {
        let from = last(&[&spent.exhausted]);
        let ready: u16 = runes.ready[from..].iter().map(|n| u16::from(*n)).sum();
        ready >= u16::from(short.energy)
    };
    let from = last(&[&spent.recycled_exhausted, &spent.recycled_ready]);
    let (mut spare, mut spare_mine) = (0u16, 0u16);
    for d in 0..6 {
        let board = u16::from(runes.ready[d]) + u16::from(runes.exhausted[d]);
        let lack = u16::from(short.power[d]);
        if d < from {
            if lack > 0 {
                return false;
            }
        } else if board < lack {
            return false;
        } else {
            spare += board - lack;
            if mine >> d & 1 == 1 {
                spare_mine += board - lack;
            }
        }
    }
    // The card's-domain Power comes from its domains, the any-domain Power from what is left.
    energy
        && spare_mine >= u16::from(short.own)
        && spare >= u16::from(short.own) + u16::from(short.any)
}
