//! Executing one instruction of an execution (359.3.e): its targets are checked again as it
//! executes (359.3.e.2–5), then it does what it says, or is ignored when it cannot be followed
//! (359.3.e.6–7, 359.3.e.12, 359.3.e.14; 820.1.d.2). Also the effects instructions share: damage,
//! death, drawing, and counters (425).

use super::target::side_ok;
use super::{on_chain_mut, Game};
use crate::card::{Chooses, Destination, Effect, Instruction, TargetSpec};
use crate::rulebook::{IllegalTargets, NewChoicesRule};
use crate::state::*;

/// How an instruction went.
#[derive(PartialEq, Eq)]
pub(crate) enum Outcome {
    /// It did what it says.
    Performed,
    /// It could not be followed, or every target was illegal.
    Ignored,
    /// It paused the item for new choices (750).
    Paused,
}

/// Where an instruction runs and what ran before it.
#[derive(Clone, Copy)]
pub(super) struct At {
    /// The resolving item.
    pub(super) id: u8,
    /// The execution.
    pub(super) exec: u8,
    /// The instruction's index in its mode.
    pub(super) slot: u8,
    /// The item's controller now (control may have changed while it resolved).
    pub(super) controller: Player,
    /// Whether the previous instruction was performed, for linked instructions (359.3.e.14).
    pub(super) prev_done: bool,
}

/// The instruction is ignored (359.3.e.6–7, 359.3.e.12, 359.3.e.14; 820.1.d.2).
pub(super) fn ignored(s: &mut State, at: At, why: IgnoredWhy) -> Outcome {
    s.log.push(Event::Ignored {
        item: at.id,
        exec: at.exec,
        slot: at.slot,
        why,
    });
    Outcome::Ignored
}

impl Game {
    /// 359.3.e: execute instruction `slot` of execution `k` of `item` (as it was when the
    /// execution began): check its targets again, then do what it says, or ignore it.
    pub(super) fn run_instruction(
        &self,
        s: &mut State,
        item: &ChainItem,
        k: u8,
        slot: u8,
        ins: &Instruction,
        prev_done: bool,
    ) -> Outcome {
        let at = At {
            id: item.id,
            exec: k,
            slot,
            controller: s.item(item.id).map_or(item.controller, |i| i.controller),
            prev_done,
        };
        let ex = &item.choices[k as usize];
        if refers_back(ins) && self.rules.linked_instructions() && !prev_done {
            return ignored(s, at, IgnoredWhy::LinkedNotExecuted);
        }
        let legal = match ins.target {
            Some(spec) => match self.legal_targets(s, item, at, spec) {
                Some(legal) => legal,
                None => return ignored(s, at, IgnoredWhy::TargetsIllegal),
            },
            None => vec![],
        };
        let outcome = match ins.effect {
            Effect::Deal(n) => {
                for obj in &legal {
                    self.deal(s, *obj, n);
                }
                Outcome::Performed
            }
            Effect::DealMight => self.deal_might(s, item, at, &legal),
            Effect::Kill => {
                for obj in &legal {
                    self.kill(s, *obj);
                }
                Outcome::Performed
            }
            Effect::Draw(_) | Effect::PlayToken(_) | Effect::BanishSelf => {
                let live = s.item(item.id).cloned().unwrap_or_else(|| item.clone());
                self.run_untargeted(s, &live, ins.effect);
                Outcome::Performed
            }
            Effect::Move(dest) => self.move_units(s, ex, at, dest, &legal),
            Effect::ItsControllerDraws(n) => self.its_controller_draws(s, ex, at, n),
            Effect::GiveMight(n) => {
                give_might(s, &legal, n);
                Outcome::Performed
            }
            Effect::Counter => {
                for obj in &legal {
                    if let Obj::Item(t) = *obj {
                        self.counter(s, t, item.id);
                    }
                }
                Outcome::Performed
            }
            Effect::GainControl => {
                gain_control(s, at, &legal);
                Outcome::Performed
            }
            Effect::NewChoices => return self.begin_new_choices(s, ex, at),
            Effect::ChannelExhausted(n) if n > 0 && no_rune_to_channel(s, item.controller) => {
                return ignored(s, at, IgnoredWhy::Impossible);
            }
            Effect::Choose | Effect::ChannelExhausted(_) | Effect::GrantRepeatToNextSpell => {
                let live = s.item(item.id).cloned().unwrap_or_else(|| item.clone());
                self.run_untargeted(s, &live, ins.effect);
                Outcome::Performed
            }
            Effect::Discard(n) => {
                return match self.begin_discarding(s, at.id, at.exec, at.slot, n) {
                    Outcome::Ignored => ignored(s, at, IgnoredWhy::Impossible),
                    other => other,
                }
            }
            Effect::LookAtTop { n, .. } => {
                return match self.begin_looking(s, at.id, at.exec, at.slot, n) {
                    true => Outcome::Paused,
                    false => ignored(s, at, IgnoredWhy::Impossible),
                }
            }
            Effect::CounterUnlessPays(energy) => {
                return self.counter_unless_pays(s, at, &legal, energy)
            }
            Effect::MayPay(energy) => return self.may_pay(s, at, energy),
            Effect::GiveAssault(_)
            | Effect::Stun
            | Effect::Ready
            | Effect::MightsToEachOther
            | Effect::GiveMightToGroup(..)
            | Effect::StunOrReturnToHand => self.run_combat(s, ex, at, ins.effect, &legal),
            Effect::IfThisKillsIt(then) => self.if_this_kills_it(s, item, at, then),
            Effect::IfPaid { paid, then } => self.if_paid(s, item, at, paid, then),
        };
        if outcome == Outcome::Performed {
            s.log.push(Event::Performed {
                item: at.id,
                exec: at.exec,
                slot: at.slot,
                linked: self.linked(ins),
            });
        }
        outcome
    }

    /// Whether `ins`, under these rules, is performed only if the instruction before it was,
    /// on what that one acted on (359.3.e.14): each guard below that ignores it otherwise.
    fn linked(&self, ins: &Instruction) -> bool {
        match ins.effect {
            Effect::MightsToEachOther | Effect::NewChoices => true,
            Effect::ItsControllerDraws(_) => self.rules.linked_instructions(),
            _ => refers_back(ins) && self.rules.linked_instructions(),
        }
    }

    /// Hard Bargain's "counter unless its controller pays" (SFD-136): performed as the demand
    /// is made, which pauses the execution until the controller answers it.
    fn counter_unless_pays(&self, s: &mut State, at: At, legal: &[Obj], energy: u8) -> Outcome {
        let Some(Obj::Item(t)) = legal.first().copied() else {
            return ignored(s, at, IgnoredWhy::TargetsIllegal);
        };
        // A target affected although illegal (a wrong edit) may have left the chain: its
        // controller can no longer be asked, so the demand cannot be followed.
        if s.item(t).is_none() {
            return ignored(s, at, IgnoredWhy::Impossible);
        }
        s.log.push(Event::Performed {
            item: at.id,
            exec: at.exec,
            slot: at.slot,
            linked: false,
        });
        self.begin_demand(s, (at.id, at.exec, at.slot), t, energy);
        Outcome::Paused
    }

    /// "You may pay [N]" (205): offered as it executes to whoever controls the item now, the
    /// decision pausing the execution; the riders after it read the answer.
    fn may_pay(&self, s: &mut State, at: At, energy: u8) -> Outcome {
        s.log.push(Event::Performed {
            item: at.id,
            exec: at.exec,
            slot: at.slot,
            linked: false,
        });
        self.begin_demand(s, (at.id, at.exec, at.slot), at.id, energy);
        Outcome::Paused
    }

    /// 359.3.e.2–5: the targets of the slot still legal now (the others are unaffected), or
    /// `None` if none is; a wrong rulebook affects illegal targets anyway.
    fn legal_targets(
        &self,
        s: &mut State,
        item: &ChainItem,
        at: At,
        spec: TargetSpec,
    ) -> Option<Vec<Obj>> {
        let mut legal: Vec<Obj> = vec![];
        let it = self.referent(&item.choices[at.exec as usize], spec, at.slot);
        for obj in item.choices[at.exec as usize].targets(at.slot) {
            // The item as it is now, if still on the chain (read, not copied: the log is
            // written only once the check is made).
            let live = s.item(at.id).unwrap_or(item);
            let ok = match obj {
                Obj::Unit(u) => self.unit_meets(s, live, spec, at.controller, u),
                Obj::Gear(g) => {
                    let gear = &s.gear[g as usize];
                    gear.zone == Zone::Board && side_ok(spec.side, at.controller, gear.controller)
                }
                Obj::Item(t) => s
                    .item(t)
                    .is_some_and(|other| self.item_meets(s, other, live, spec, at.controller, it)),
            };
            if let Obj::Item(t) = obj {
                if spec.chooses.is_some() && s.item(t).is_some() {
                    s.log.push(Event::ChosenChecked {
                        item: at.id,
                        target: t,
                        met: ok,
                    });
                }
            }
            if ok || self.rules.illegal_targets() == IllegalTargets::AffectedAnyway {
                legal.push(obj);
            } else {
                s.log.push(Event::TargetUnaffected {
                    item: at.id,
                    exec: at.exec,
                    obj,
                });
            }
        }
        (!legal.is_empty()).then_some(legal)
    }

    /// "Deal damage equal to my Might": read as it executes (359.3.f.2); ignored if the source
    /// unit has left the board (359.3.e.12).
    fn deal_might(&self, s: &mut State, item: &ChainItem, at: At, legal: &[Obj]) -> Outcome {
        let Origin::Trigger(src) = item.origin else {
            return ignored(s, at, IgnoredWhy::SourceGone);
        };
        let src = &s.units[src as usize];
        if src.zone != Zone::Board {
            return ignored(s, at, IgnoredWhy::SourceGone);
        }
        let n = src.current_might();
        for obj in legal {
            self.deal(s, *obj, n);
        }
        Outcome::Performed
    }

    /// Move each legal unit to the chosen destination if it is still a legal one; ignored if none
    /// moves (359.3.e.6).
    fn move_units(
        &self,
        s: &mut State,
        ex: &ExecChoices,
        at: At,
        dest: Destination,
        legal: &[Obj],
    ) -> Outcome {
        let to = ex.destination(at.slot);
        let mut moved = false;
        for obj in legal {
            if let (Obj::Unit(u), Some(to)) = (*obj, to) {
                if self.destination_ok(s, u, to, dest) {
                    s.units[u as usize].loc = to;
                    s.log.push(Event::UnitMoved { unit: u, to });
                    moved = true;
                }
            }
        }
        if moved {
            Outcome::Performed
        } else {
            ignored(s, at, IgnoredWhy::Impossible)
        }
    }

    /// "Its controller draws": linked to the previous instruction (359.3.e.14), whose object's
    /// last-known controller draws (359.3.e.13).
    fn its_controller_draws(&self, s: &mut State, ex: &ExecChoices, at: At, n: u8) -> Outcome {
        if self.rules.linked_instructions() && !at.prev_done {
            return ignored(s, at, IgnoredWhy::LinkedNotExecuted);
        }
        let prev = at.slot.checked_sub(1);
        let who = prev
            .and_then(|p| ex.targets(p).next())
            .and_then(|o| match o {
                Obj::Unit(u) => Some(s.units[u as usize].controller),
                Obj::Gear(g) => Some(s.gear[g as usize].controller),
                Obj::Item(_) => None,
            });
        match who {
            Some(p) => {
                self.draw(s, p, n);
                Outcome::Performed
            }
            None => ignored(s, at, IgnoredWhy::Impossible),
        }
    }

    /// 750: "make new choices for it", linked to the previous instruction's target item: the
    /// resolving item pauses until its controller has made them (751–753). Ignored when the rules
    /// forbid new choices (355.15 in v1.2, v1.3) or there is nothing to remake.
    fn begin_new_choices(&self, s: &mut State, ex: &ExecChoices, at: At) -> Outcome {
        let prev = at.slot.checked_sub(1);
        let Some(Obj::Item(t)) = prev.and_then(|p| ex.targets(p).next()) else {
            return ignored(s, at, IgnoredWhy::Impossible);
        };
        if !at.prev_done {
            return ignored(s, at, IgnoredWhy::LinkedNotExecuted);
        }
        if self.rules.new_choices() == NewChoicesRule::Forbidden {
            return ignored(s, at, IgnoredWhy::Impossible);
        }
        let Some(target) = s.item(t) else {
            return ignored(s, at, IgnoredWhy::Impossible);
        };
        if target.controller != at.controller
            || target.choices.iter().all(|c| c.objects().next().is_none())
        {
            return ignored(s, at, IgnoredWhy::Impossible);
        }
        s.log.push(Event::Performed {
            item: at.id,
            exec: at.exec,
            slot: at.slot,
            linked: true,
        });
        s.log.push(Event::NewChoicesBegun { item: t });
        on_chain_mut(s, at.id).phase = Phase::NewChoices {
            exec: at.exec,
            for_item: t,
        };
        Outcome::Paused
    }

    /// Instructions without targets: draw, play a token, banish this.
    pub(super) fn run_untargeted(&self, s: &mut State, item: &ChainItem, effect: Effect) {
        match effect {
            Effect::Draw(n) => self.draw(s, item.controller, n),
            Effect::PlayToken(might) => {
                // 354.3: it waits on the chain until the item has finished resolving.
                s.queued.push(Queued::Token {
                    controller: item.controller,
                    might,
                });
                s.log.push(Event::TokenQueued { item: item.id });
            }
            Effect::GrantRepeatToNextSpell => {
                // The grant waits for the controller's next spell (`move_to_chain` takes it),
                // beside any other activation's: each is an effect of its own (820.1.c.2).
                Grant::Portal.give(&mut s.players[item.controller.ix()]);
                s.log.push(Event::GrantGiven {
                    item: item.id,
                    who: item.controller,
                    grant: Grant::Portal,
                });
            }
            Effect::ChannelExhausted(n) => {
                // A pool-only player has no rune deck: the runes are only counted.
                let n = if s.players[item.controller.ix()].runes.is_some() {
                    self.channel_runes(s, item.controller, n)
                } else {
                    n
                };
                let ps = &mut s.players[item.controller.ix()];
                ps.runes_exhausted = ps.runes_exhausted.saturating_add(n);
                s.log.push(Event::RunesChannelled {
                    who: item.controller,
                    n,
                });
            }
            Effect::BanishSelf => {
                if let Some(it) = s.item_mut(item.id).filter(|i| !i.left_chain) {
                    it.left_chain = true;
                    let (owner, card, from_hand) = (it.owner, it.card, it.origin == Origin::Hand);
                    if from_hand {
                        // Banishment is not modelled as its own zone: the card goes to the trash.
                        s.players[owner.ix()].trash.push(card);
                    }
                    s.log.push(Event::LeftChain { item: item.id });
                }
            }
            _ => {}
        }
    }

    /// Deal `n` damage to a unit; it dies in the next cleanup if lethal (321).
    pub(super) fn deal(&self, s: &mut State, obj: Obj, n: u8) {
        if let Obj::Unit(u) = obj {
            let unit = &mut s.units[u as usize];
            unit.damage = unit.damage.saturating_add(n);
            s.log.push(Event::Damaged { unit: u, amount: n });
            // 321: lethal damage kills in the next cleanup, never mid-resolution.
            s.cleanup_due = true;
        }
    }

    /// Kill a unit or destroy a gear: to its owner's trash (a token ceases to exist).
    pub(super) fn kill(&self, s: &mut State, obj: Obj) {
        match obj {
            Obj::Unit(u) => {
                let unit = &mut s.units[u as usize];
                unit.zone = Zone::Trash;
                let (owner, card, token) = (unit.owner, unit.card, unit.token);
                if !token {
                    s.players[owner.ix()].trash.push(card);
                }
            }
            Obj::Gear(g) => {
                let gear = &mut s.gear[g as usize];
                gear.zone = Zone::Trash;
                let (owner, card) = (gear.controller, gear.card);
                s.players[owner.ix()].trash.push(card);
            }
            Obj::Item(_) => return,
        }
        s.log.push(Event::ZoneChange {
            obj,
            to: Zone::Trash,
        });
    }

    /// `who` draws `n`, one at a time from the top, as many as the deck has: a named card goes
    /// to the hand by name, an anonymous one as a count (`PlayerState::add_to_hand`).
    fn draw(&self, s: &mut State, who: Player, n: u8) {
        let ps = &mut s.players[who.ix()];
        let mut drawn = 0u8;
        while drawn < n {
            let Some(card) = ps.take_deck_card(0) else {
                break;
            };
            ps.add_to_hand(card);
            drawn += 1;
        }
        s.log.push(Event::Drew { who, n: drawn });
    }

    /// 425: the item does nothing and leaves the chain; a card goes to its owner's trash; no cost
    /// is refunded; it was finalized, so it still counts for Legion (419.4.b).
    pub(super) fn counter(&self, s: &mut State, target: u8, by: u8) {
        let Some(pos) = s.chain.iter().position(|i| i.id == target) else {
            return;
        };
        let item = s.chain.remove(pos);
        if item.origin == Origin::Hand && self.rules.countered_card_to_trash() {
            s.players[item.owner.ix()].trash.push(item.card);
        }
        s.log.push(Event::Countered { item: target, by });
        if self.rules.refund_on_counter() {
            let ps = &mut s.players[item.controller.ix()];
            ps.pool = ps.pool.plus(&item.cost.resources);
            s.log.push(Event::Refunded { item: target });
        }
    }
}

/// "Give +N/-N Might": a unit made lethal dies in the next cleanup (321).
fn give_might(s: &mut State, legal: &[Obj], n: i8) {
    for obj in legal {
        if let Obj::Unit(u) = *obj {
            let unit = &mut s.units[u as usize];
            unit.might_mod = unit.might_mod.saturating_add(n);
            s.log.push(Event::MightChanged { unit: u, by: n });
            if n < 0 {
                s.cleanup_due = true;
            }
        }
    }
}

/// "Gain control of it": each legal target item changes controller.
fn gain_control(s: &mut State, at: At, legal: &[Obj]) {
    for obj in legal {
        if let Obj::Item(t) = *obj {
            if let Some(target) = s.item_mut(t) {
                target.controller = at.controller;
                s.log.push(Event::ControlChanged {
                    item: t,
                    to: at.controller,
                });
            }
        }
    }
}

/// With the rune deck empty there is no rune to channel: the instruction cannot be followed and
/// is ignored, not performed (359.3.e.6, 820.1.d.2). A pool-only player has no rune deck and
/// counts what it channels.
fn no_rune_to_channel(s: &State, who: Player) -> bool {
    s.players[who.ix()]
        .runes
        .as_ref()
        .is_some_and(|r| r.deck.is_empty())
}

/// Repulse's "chooses it": the target is the previous instruction's object (359.3.e.14).
fn refers_back(ins: &Instruction) -> bool {
    ins.target
        .is_some_and(|t| t.chooses == Some(Chooses::OnlyItAmongFriendlyUnits))
}
