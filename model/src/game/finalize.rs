//! The end of playing: checking the play's legality (358), undoing a play that cannot be
//! completed (358.5), and finalizing it (359), after which the Targeting Effects of what it chose
//! go on the chain (383.4.b.2). Each step's guard sits above its effect.

use super::{pending, pending_index, pending_mut, Game};
use crate::action::Action;
use crate::card::{Ability, CardId, CardKind, Rider};
use crate::rulebook::{PriorityAfterUndone, TargetingTriggers};
use crate::state::*;

impl Game {
    /// CheckLegality's guard (358): the cost is paid. Finalize's guard (359): the play is legal.
    pub(super) fn legality_actions(&self, item: &ChainItem, out: &mut Vec<Action>) {
        match item.phase {
            Phase::Paid => out.push(Action::CheckLegality),
            _ => out.push(Action::Finalize),
        }
    }

    /// CheckLegality's effect (358): 358.1–358.4 hold by construction: every choice was legal
    /// when made and nothing can act between choosing and this check; the cost was paid in full.
    pub(super) fn check_legality(&self, s: &mut State) {
        let item = pending_mut(s);
        item.phase = Phase::Legal;
        let id = item.id;
        s.log.push(Event::LegalityChecked { item: id });
    }

    /// CancelPlay's guard (358.5): a play that cannot go on is undone, unless a wrong rulebook
    /// leaves it pending. The play steps call it when a choice has no legal option or no way to
    /// pay is left.
    pub(super) fn cancel(&self, out: &mut Vec<Action>, why: CancelWhy) {
        if self.rules.undo_illegal_play() {
            out.push(Action::CancelPlay { why });
        }
    }

    /// CancelPlay's effect (358.5): undo the whole play: the card returns to hand, nothing is
    /// paid (runes used for the payment are given back), and it is not a counter. A card whose play was undone may be played again; exploration
    /// does not try it again in the scenario (`Game::retry_undone`, a bound so that undoing cannot
    /// loop).
    pub(super) fn cancel_play(&self, s: &mut State, why: CancelWhy) {
        let item = s.chain.remove(pending_index(s));
        let id = item.id;
        if item.origin == Origin::Hand && s.chain.is_empty() {
            // It was one of the turn's plays, started from the open state: undone, it is not
            // one any more (358.5).
            s.turn.plays_left = s.turn.plays_left.saturating_add(1);
        }
        let ps = &mut s.players[item.controller.ix()];
        if item.phase == Phase::Paid {
            ps.pool = ps.pool.plus(&item.cost.resources);
        }
        self.give_back_runes(ps, &item.runes_spent);
        match item.origin {
            Origin::Hand => {
                ps.hand.push(item.card);
                ps.undone.push(item.card);
            }
            // An undone activation is not tried again in exploration either (the same bound).
            Origin::Activated(_) => ps.undone.push(item.card),
            Origin::Trigger(_) | Origin::Token { .. } => {}
        }
        if let (Origin::Activated(g), Phase::Paid) = (item.origin, item.phase) {
            // Its "[E]" was paid with the rest (357.2): undone, the gear is ready again.
            s.gear[g as usize].exhausted = false;
        }
        // Taking a grant was an action of the play: undone with it, the grant waits again (a
        // wrong rulebook loses it).
        if self.rules.undo_gives_back_grants() {
            for g in item.repeat.iter().filter_map(|r| Grant::of(r.origin)) {
                g.give(ps);
            }
        }
        s.log.push(Event::PlayCancelled { item: id, why });
        self.after_chain_change(s);
        // A response: with the chain empty the turn player holds priority in the open state
        // under either reading.
        if item.origin == Origin::Hand && !s.chain.is_empty() && s.priority.is_some() {
            self.priority_after_undone(s, id, item.controller);
        }
    }

    /// 358.5, digest silent (`priority_after_undone`): after a response is undone, either the
    /// player who tried holds priority again with the passes made before it still counted (the
    /// play never happened), or the newest item's controller gains priority anew, as after any
    /// change of the chain (what `after_chain_change` just did).
    fn priority_after_undone(&self, s: &mut State, id: u8, by: Player) {
        if self.rules.priority_after_undone() != PriorityAfterUndone::Restored {
            return;
        }
        let Some(at) = s
            .log
            .iter()
            .rposition(|e| matches!(*e, Event::MovedToChain { item, .. } if item == id))
        else {
            return;
        };
        s.priority = Some(by);
        s.passes = passes_before(&s.log[..at]);
    }

    /// Finalize's effect (359): the item is finalized; "as you play" instructions run
    /// (135.2.b.3); Targeting Effects go on the chain after it (383.4.b.2); a token enters the
    /// board at once (337.2).
    pub(super) fn finalize(&self, s: &mut State) {
        let item = pending(s).clone();
        let id = item.id;
        let def = self.card(item.card);
        s.log.push(Event::Finalized { item: id });
        if def.kind == CardKind::Gear {
            return self.gear_enters(s, &item);
        }
        if !def.resolves() {
            return self.enter_board(s, &item);
        }
        if item.origin == Origin::Hand {
            s.players[item.controller.ix()].finalized_this_turn += 1;
        }
        pending_mut(s).phase = Phase::Finalized;
        for ins in def.as_you_play.clone() {
            self.run_untargeted(s, &item, ins.effect);
        }
        // Targeting Effects of objects an opponent's item chose.
        let mut chosen: Vec<u8> = vec![];
        for ex in &item.choices {
            for obj in ex.objects() {
                if let Obj::Unit(u) = obj {
                    if self.rules.targeting_triggers() == TargetingTriggers::OncePerItem
                        && chosen.contains(&u)
                    {
                        continue;
                    }
                    chosen.push(u);
                }
            }
        }
        for u in chosen {
            self.fire_when_chosen(s, u, item.controller, false);
        }
        self.after_chain_change(s);
    }

    /// 359.2, 350.2: a unit or token leaves the chain and enters the board at the chosen location,
    /// exhausted, or ready if its [Accelerate] was paid (805); its play is complete, so it is
    /// played now (one play event); a play effect whose optional cost was paid goes on the chain
    /// after it has entered (383.4.a.2). A token enters at once, never waiting (337.2).
    fn enter_board(&self, s: &mut State, item: &ChainItem) {
        let def = self.card(item.card);
        s.chain.retain(|i| i.id != item.id);
        let (token, might) = match item.origin {
            Origin::Token { might } => (true, might),
            _ => (false, def.might),
        };
        if item.origin == Origin::Hand {
            s.players[item.controller.ix()].finalized_this_turn += 1;
        }
        // The riders of the optional costs paid, however much was actually paid (356.4.f.1).
        let riders: Vec<Rider> = item
            .optional
            .iter()
            .zip(&def.optional_costs)
            .filter(|(o, _)| o.paid)
            .map(|(_, c)| c.rider)
            .collect();
        let ready = riders.contains(&Rider::EnterReady);
        let at = item.enters.unwrap_or(Location::Base(item.controller));
        let u = s.units.len() as u8;
        s.units.push(Unit {
            card: item.card,
            token,
            owner: item.owner,
            controller: item.controller,
            loc: at,
            zone: Zone::Board,
            might,
            might_mod: 0,
            damage: 0,
            // 359.2: a unit enters the board exhausted, unless its [Accelerate] was paid (805).
            status: UnitStatus {
                exhausted: !ready,
                ..UnitStatus::default()
            },
        });
        if token {
            s.log.push(Event::ZoneChange {
                obj: Obj::Unit(u),
                to: Zone::Board,
            });
        }
        s.log.push(Event::UnitEntered {
            item: item.id,
            unit: u,
            at,
            ready,
        });
        s.log.push(Event::Played {
            item: item.id,
            by: item.controller,
        });
        // "When you play me" (383.4.a): printed play triggers, then those a paid cost added.
        let printed = self
            .card(item.card)
            .abilities
            .iter()
            .filter_map(|a| match a {
                Ability::WhenYouPlayMe(c) => Some(*c),
                _ => None,
            });
        for card in printed.collect::<Vec<_>>() {
            s.log.push(Event::Triggered { card, source: u });
            self.put_trigger_on_chain(s, card, u);
        }
        for r in riders {
            if let Rider::PlayTrigger(card) = r {
                s.log.push(Event::Triggered { card, source: u });
                self.put_trigger_on_chain(s, card, u);
            }
        }
        self.after_chain_change(s);
    }

    /// 359.2: a gear played from hand leaves the chain and enters the board ready in its
    /// controller's base, not waiting for priority (337.2); its play is complete, so it is
    /// played now (one play event). It is no spell: "the next spell you play" grants wait on.
    fn gear_enters(&self, s: &mut State, item: &ChainItem) {
        s.chain.retain(|i| i.id != item.id);
        s.players[item.controller.ix()].finalized_this_turn += 1;
        let gear = s.gear.len() as u8;
        s.gear.push(Gear {
            card: item.card,
            controller: item.controller,
            zone: Zone::Board,
            exhausted: false,
        });
        s.log.push(Event::GearEntered {
            item: item.id,
            gear,
        });
        s.log.push(Event::Played {
            item: item.id,
            by: item.controller,
        });
        self.after_chain_change(s);
    }

    /// 383.3, 383.4.b.2: unit `u`'s Targeting Effects trigger when an opponent's item chose it:
    /// on the chain at once after finalizing, or queued (`queue`) during new choices (754).
    pub(super) fn fire_when_chosen(&self, s: &mut State, u: u8, chooser: Player, queue: bool) {
        let unit = &s.units[u as usize];
        if unit.zone != Zone::Board || unit.controller == chooser {
            return;
        }
        let abilities: Vec<CardId> = self
            .card(unit.card)
            .abilities
            .iter()
            .filter_map(|a| match a {
                Ability::WhenChosen(c) => Some(*c),
                _ => None,
            })
            .collect();
        for card in abilities {
            s.log.push(Event::Triggered { card, source: u });
            if queue {
                s.queued.push(Queued::Trigger { card, source: u });
            } else {
                self.put_trigger_on_chain(s, card, u);
            }
        }
    }
}

/// The passes in sequence at the end of `log`: the passes made before a play whose events
/// follow. A play undone in between (358.5) never happened, so its events are skipped.
fn passes_before(log: &[Event]) -> u8 {
    let mut passes = 0u8;
    let mut i = log.len();
    while i > 0 {
        i -= 1;
        match log[i] {
            Event::Passed { .. } => passes = passes.saturating_add(1),
            Event::PlayCancelled { item, .. } => {
                match log[..i]
                    .iter()
                    .rposition(|e| matches!(*e, Event::MovedToChain { item: j, .. } if j == item))
                {
                    Some(start) => i = start,
                    None => break,
                }
            }
            _ => break,
        }
    }
    passes
}
