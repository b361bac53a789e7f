//! Decisions made while an instruction executes: looking at the top of the main deck,
//! drawing one of the cards looked at and recycling the rest (Called Shot, Double Trouble; 416),
//! and a demand to pay or have a spell countered (Hard Bargain; 425). The resolving item pauses,
//! as for new choices (750), until the deciding player has decided; such an instruction is the
//! last of its mode (the catalogue checks it), so the execution is then complete. Each step's
//! guard sits above its effect.

use super::{on_chain, on_chain_mut, Game};
use crate::action::Action;
use crate::card::{CardKind, Effect, LookTake};
use crate::cost::Domain;
use crate::state::*;

impl Game {
    /// "Look at the top N of your Main Deck": the controller looks at as many as there are (none:
    /// nothing can be followed, 359.3.e.6) and the item pauses for the draw decision.
    pub(super) fn begin_looking(&self, s: &mut State, id: u8, exec: u8, slot: u8, n: u8) -> bool {
        let who = on_chain(s, id).controller;
        let left = n.min(u8::try_from(s.players[who.ix()].deck_size()).unwrap_or(u8::MAX));
        if left == 0 {
            return false;
        }
        s.log.push(Event::LookedAt {
            item: id,
            who,
            n: left,
        });
        s.log.push(Event::Performed {
            item: id,
            exec,
            slot,
            linked: false,
        });
        on_chain_mut(s, id).phase = Phase::Looking {
            exec,
            slot,
            left,
            taking: true,
        };
        // "You may reveal a unit": with no unit among them there is nothing to decide.
        if self.take_options(s, id).is_empty() {
            self.set_looking(s, id, left, false);
        }
        true
    }

    /// "Counter it unless its controller pays [N]": the target's controller decides; "you may
    /// pay [N]" (`target` the item itself): its own controller does.
    pub(super) fn begin_demand(&self, s: &mut State, at: (u8, u8, u8), target: u8, energy: u8) {
        let (id, exec, slot) = at;
        on_chain_mut(s, id).phase = Phase::Demanding {
            exec,
            slot,
            target,
            energy,
            runes: 0,
            from: Domain::ALL[0],
        };
    }

    /// The guards of a paused item's decision. DrawLooked (Called Shot: one of the cards looked
    /// at; Double Trouble: a named unit among them, or none), one action per distinct card, since
    /// identical cards are the same choice. RecycleLooked (416): which card goes to the bottom
    /// next, one per distinct card. PayDemand: pay if the pool holds it, or decline (paying
    /// when told to is optional in RUP4); with runes, see `demand_actions`.
    pub(super) fn decision_actions(&self, s: &State, id: u8, out: &mut Vec<Action>) {
        let item = on_chain(s, id);
        match item.phase {
            Phase::Looking { taking: true, .. } => {
                for index in self.take_options(s, id) {
                    out.push(Action::DrawLooked { index: Some(index) });
                }
                if self.look_take(s, id) == LookTake::MayRevealUnit {
                    out.push(Action::DrawLooked { index: None });
                }
            }
            Phase::Looking { left, .. } => {
                for index in distinct(s, item.controller, left) {
                    out.push(Action::RecycleLooked { index });
                }
            }
            Phase::Demanding { .. } => self.demand_actions(s, id, out),
            Phase::Discarding { .. } => self.discard_effect_actions(s, id, out),
            _ => unreachable!("not paused for a decision"),
        }
    }

    /// The guards of a demand ("counter it unless its controller pays [N]", 425), answered by
    /// the target's controller. PayDemand{pay}: once the pool holds [N]. ExhaustRune (164.2,
    /// 357.1.a, option `demand_paid_with_runes`): a ready rune while the pool is short and the
    /// ready runes left in the canonical order (domains R G B O P Y, as for a cost) can still
    /// make up [N]; a recycled rune adds Power, which pays no Energy (131), so it is never
    /// offered. PayDemand{decline}: before any rune is exhausted for the demand, since declining
    /// afterwards only leaves the rune's [1] floating, the surplus this model leaves out as for
    /// a cost (`runes_only_for_the_cost`; when that is off, runes may be exhausted past [N] and
    /// declining stays open).
    fn demand_actions(&self, s: &State, id: u8, out: &mut Vec<Action>) {
        let Phase::Demanding {
            target,
            energy,
            runes: used,
            from,
            ..
        } = on_chain(s, id).phase
        else {
            unreachable!("demanding")
        };
        let free = !self.rules.runes_only_for_the_cost();
        let Some(t) = s.item(target) else {
            out.push(Action::PayDemand { pay: false });
            return;
        };
        let ps = &s.players[t.controller.ix()];
        if ps.pool.energy >= energy {
            out.push(Action::PayDemand { pay: true });
        }
        if let (Some(r), true) = (&ps.runes, self.rules.demand_paid_with_runes()) {
            let short = u16::from(energy.saturating_sub(ps.pool.energy));
            for d in Domain::ALL.into_iter().filter(|&d| d >= from) {
                // The ready runes this one and the later ones in the order can still use.
                let left: u16 = r.ready[d as usize..].iter().map(|n| u16::from(*n)).sum();
                if r.ready[d as usize] > 0
                    && ps.pool.energy < u8::MAX
                    && (free || (short > 0 && left >= short))
                {
                    out.push(Action::ExhaustRune { domain: d });
                }
            }
        }
        if used == 0 || free {
            out.push(Action::PayDemand { pay: false });
        }
    }

    /// ExhaustRune's effect while a demand is answered (164.2 "[E]: Add [1]", 357.1.a): the
    /// asked player's rune is exhausted and [1] goes to their pool at once.
    pub(super) fn exhaust_for_demand(&self, s: &mut State, id: u8, domain: Domain) {
        let Phase::Demanding {
            exec,
            slot,
            target,
            energy,
            runes,
            ..
        } = on_chain(s, id).phase
        else {
            unreachable!("demanding")
        };
        let Some(who) = s.item(target).map(|t| t.controller) else {
            return;
        };
        let ps = &mut s.players[who.ix()];
        let Some(r) = ps.runes.as_mut() else {
            return;
        };
        if !r.exhaust(domain) {
            return;
        }
        ps.pool.energy = ps.pool.energy.saturating_add(1);
        s.log.push(Event::DemandRuneExhausted {
            item: id,
            who,
            domain,
        });
        on_chain_mut(s, id).phase = Phase::Demanding {
            exec,
            slot,
            target,
            energy,
            runes: runes.saturating_add(1),
            from: domain,
        };
    }

    /// The item answering a demand now, if one is.
    pub(super) fn demanding_item(&self, s: &State) -> Option<u8> {
        s.chain
            .iter()
            .find(|i| matches!(i.phase, Phase::Demanding { .. }))
            .map(|i| i.id)
    }

    /// What the looking instruction takes.
    fn look_take(&self, s: &State, id: u8) -> LookTake {
        let item = on_chain(s, id);
        let Phase::Looking { exec, slot, .. } = item.phase else {
            unreachable!("looking")
        };
        let mode = item.choices[exec as usize].mode.unwrap_or(0);
        match self.card(item.card).modes[mode as usize].instructions[slot as usize].effect {
            Effect::LookAtTop { take, .. } => take,
            _ => unreachable!("a looking instruction"),
        }
    }

    /// Positions of the cards looked at that may be drawn, one per distinct card.
    fn take_options(&self, s: &State, id: u8) -> Vec<u8> {
        let item = on_chain(s, id);
        let Phase::Looking { left, .. } = item.phase else {
            return vec![];
        };
        let ps = &s.players[item.controller.ix()];
        let all = distinct(s, item.controller, left);
        match self.look_take(s, id) {
            LookTake::DrawOne => all,
            LookTake::MayRevealUnit => all
                .into_iter()
                .filter(|&i| {
                    matches!(ps.deck_card(i as usize), Some(DeckCard::Named(c))
                        if self.card(c).kind == CardKind::Unit)
                })
                .collect(),
        }
    }

    /// DrawLooked's effect: the card at `index` (revealed first if the card says so) goes to the
    /// hand; then the rest is recycled.
    pub(super) fn draw_looked(&self, s: &mut State, index: Option<u8>) {
        let id = self.paused_id(s);
        let Phase::Looking { left, .. } = on_chain(s, id).phase else {
            unreachable!("looking")
        };
        let who = on_chain(s, id).controller;
        let mut left = left;
        if let Some(i) = index {
            let reveal = self.look_take(s, id) == LookTake::MayRevealUnit;
            let ps = &mut s.players[who.ix()];
            if let Some(card) = ps.take_deck_card(i as usize) {
                ps.add_to_hand(card);
                left -= 1;
                if let (true, DeckCard::Named(c)) = (reveal, card) {
                    s.log.push(Event::Revealed { who, card: c });
                }
                s.log.push(Event::DrewLooked { who, card });
                s.log.push(Event::Drew { who, n: 1 });
            }
        } else {
            s.log.push(Event::RevealDeclined { who });
        }
        self.set_looking(s, id, left, false);
    }

    /// RecycleLooked's effect (416): the card at `index` goes to the bottom of the deck.
    pub(super) fn recycle_looked(&self, s: &mut State, index: u8) {
        let id = self.paused_id(s);
        let Phase::Looking { left, .. } = on_chain(s, id).phase else {
            unreachable!("looking")
        };
        recycle(s, on_chain(s, id).controller, index);
        self.set_looking(s, id, left - 1, false);
    }

    /// The looking item now has `left` cards looked at on top. When their order cannot be told
    /// apart (all the same card), they are recycled at once in the canonical order; when none is
    /// left, the execution is complete.
    fn set_looking(&self, s: &mut State, id: u8, mut left: u8, taking: bool) {
        let who = on_chain(s, id).controller;
        if !taking {
            while left > 0 && distinct(s, who, left).len() == 1 {
                recycle(s, who, 0);
                left -= 1;
            }
        }
        let Phase::Looking { exec, slot, .. } = on_chain(s, id).phase else {
            unreachable!("looking")
        };
        if left == 0 && !taking {
            on_chain_mut(s, id).phase = Phase::Resolving { done: exec };
            self.after_execution(s, id, exec);
        } else {
            on_chain_mut(s, id).phase = Phase::Looking {
                exec,
                slot,
                left,
                taking,
            };
        }
    }

    /// PayDemand's effect: the target's controller pays from their pool, or declines and the
    /// target is countered (425); either way the execution is complete. For a "you may pay"
    /// (205) the item's controller pays or not, and the mode's later instructions run, the
    /// riders reading the decision (359.3.e.14).
    pub(super) fn pay_demand(&self, s: &mut State, pay: bool) {
        let id = self.paused_id(s);
        let Phase::Demanding {
            exec,
            slot,
            target,
            energy,
            ..
        } = on_chain(s, id).phase
        else {
            unreachable!("demanding")
        };
        if let Some(by) = s.item(target).map(|t| t.controller) {
            if pay {
                let pool = &mut s.players[by.ix()].pool;
                pool.energy = pool.energy.saturating_sub(energy);
            }
            s.log.push(Event::DemandDecided {
                item: id,
                target,
                by,
                paid: pay,
                energy,
            });
            if !pay && target != id {
                self.counter(s, target, id);
            }
        }
        on_chain_mut(s, id).phase = Phase::Resolving { done: exec };
        if target == id && self.run_instructions_from(s, id, exec, slot + 1, true) {
            return;
        }
        self.after_execution(s, id, exec);
    }

    /// The item paused for a decision inside an execution.
    fn paused_id(&self, s: &State) -> u8 {
        s.chain
            .iter()
            .find(|i| matches!(i.phase, Phase::Looking { .. } | Phase::Demanding { .. }))
            .map(|i| i.id)
            .expect("an item paused for a decision")
    }
}

/// Positions among the top `left` cards of `who`'s deck, the first of each distinct card.
fn distinct(s: &State, who: Player, left: u8) -> Vec<u8> {
    let ps = &s.players[who.ix()];
    let mut seen: Vec<DeckCard> = vec![];
    let mut out = vec![];
    for i in 0..left {
        if let Some(c) = ps.deck_card(i as usize) {
            if !seen.contains(&c) {
                seen.push(c);
                out.push(i);
            }
        }
    }
    out
}

/// 416: the card at position `index` of `who`'s deck goes to its bottom.
fn recycle(s: &mut State, who: Player, index: u8) {
    let ps = &mut s.players[who.ix()];
    if let Some(card) = ps.take_deck_card(index as usize) {
        ps.recycled.push(card);
        s.log.push(Event::Recycled { who, card });
    }
}
