//! Playing an item: putting it on the chain (354, 383.3) and making its choices one at a time
//! (355, 402.1), with each [Repeat] instance decided on its own and each execution's mode, targets
//! and destinations chosen in declared order (820.1–820.2). Each step's guard sits above its
//! effect.

use super::{on_chain, on_chain_mut, pending_mut, Game};
use crate::action::Action;
use crate::card::{
    Ability, CardId, CardKind, Destination, Effect, InstanceOrigin, RepeatCost, TargetSpec, Timing,
};
use crate::rulebook::{ExtraChoices, InShowdown, TriggerMay};
use crate::state::*;

/// What a choice slot still needs.
pub(super) enum SlotNeed {
    /// Targets for the instruction in this slot.
    Target(u8, TargetSpec),
    /// Where the instruction in this slot moves its unit.
    Destination(u8, Destination),
}

impl Game {
    /// MoveToChain's guard (354): each card in the priority holder's hand it may play now.
    pub(super) fn move_to_chain_actions(&self, s: &State, p: Player, out: &mut Vec<Action>) {
        for (i, &c) in s.players[p.ix()].hand.iter().enumerate() {
            if self.may_play_now(s, p, c) {
                out.push(Action::MoveToChain {
                    player: p,
                    hand: i as u8,
                });
            }
        }
    }

    /// 358.4: timing. An empty chain needs the open state, where only the turn player with a
    /// play left may start one (335; a showdown needs [Action]); an existing chain needs
    /// [Reaction]. A card whose play was undone is back in hand and may be played again (358.5);
    /// only exploration leaves it alone (`Game::retry_undone`), so that undoing cannot loop.
    fn may_play_now(&self, s: &State, p: Player, card: CardId) -> bool {
        let c = self.card(card);
        if !matches!(c.kind, CardKind::Spell | CardKind::Unit | CardKind::Gear)
            || (!self.retry_undone && s.players[p.ix()].undone.contains(&card))
        {
            return false;
        }
        if s.chain.is_empty() {
            self.may_start_chain(s, p)
                && (!s.showdown || matches!(c.timing, Timing::Action | Timing::Reaction))
        } else {
            c.timing == Timing::Reaction
        }
    }

    /// MoveToChain's effect (354), with the [Repeat] instances the item has as it is played
    /// (printed, then granted: 820.1.c.2).
    pub(super) fn move_to_chain(&self, s: &mut State, player: Player, hand: u8) {
        let card = s.players[player.ix()].hand.remove(hand as usize);
        let def = self.card(card);
        if s.chain.is_empty() {
            // One of the turn's plays (given back if undone, 358.5).
            // The guard (`may_start_chain`) saw one left.
            s.turn.plays_left = s.turn.plays_left.saturating_sub(1);
        }
        let mut repeat: InlineVec<RepeatInstance, 4> = def
            .repeat
            .iter()
            .map(|&cost| RepeatInstance::undecided(cost, InstanceOrigin::Printed))
            .collect();
        let ps = &mut s.players[player.ix()];
        // "The next spell you play this turn": Temporal Portal's [Repeat] equal to its cost, the
        // printed cost (206); The Academy's equal to its base cost (356.1.c: the printed base
        // cost), a grant of its own that stacks with the Portal's (820.1.c.2); two activations
        // of Portals give two instances, one per effect. The spell uses the grants up (a wrong
        // rulebook leaves them for every spell this turn).
        let mut taken = Vec::new();
        if def.kind == CardKind::Spell {
            for g in Grant::ALL {
                let held = g.held(ps);
                if held > 0 && self.rules.next_spell_grant_used_once() {
                    g.set(ps, 0);
                }
                for _ in 0..held {
                    repeat.push(RepeatInstance::undecided(
                        RepeatCost::Pay(def.cost),
                        g.origin(),
                    ));
                    taken.push(g);
                }
            }
        }
        if s.showdown {
            for u in s
                .units
                .iter()
                .filter(|u| u.zone == Zone::Board && u.controller == player)
                .filter(|u| self.in_showdown(s, u))
            {
                for ab in &self.card(u.card).abilities {
                    if let Ability::SpellsHaveRepeatInShowdown(cost) = ab {
                        repeat.push(RepeatInstance::undecided(
                            RepeatCost::Pay(*cost),
                            InstanceOrigin::Syndra,
                        ));
                    }
                }
            }
        }
        let id = push_pending(s, card, Origin::Hand, player, repeat);
        let optional = def.optional_costs.len();
        let item = on_chain_mut(s, id);
        for _ in 0..optional {
            item.optional.push(OptionalChoice::default());
        }
        s.started = true;
        s.priority = None;
        s.passes = 0;
        s.log.push(Event::MovedToChain {
            item: id,
            card,
            by: player,
        });
        for grant in taken {
            s.log.push(Event::GrantTaken {
                item: id,
                who: player,
                grant,
            });
        }
        self.complete_choices(s, id);
    }

    /// "While I'm in a showdown" (Syndra): what it asks of the unit is a rulebook option, the
    /// digest being silent; a showdown is at a battlefield (316.8.b).
    fn in_showdown(&self, s: &State, u: &Unit) -> bool {
        let here = s.showdown_at.map(Location::Battlefield) == Some(u.loc);
        match self.rules.in_showdown() {
            InShowdown::Anywhere => s.showdown,
            InShowdown::AtBattlefield => here,
            InShowdown::Designated => here && u.status.combat != Combat::None,
        }
    }

    /// 383.3, 401: a triggered ability becomes a pending item with its [Repeat] instances
    /// (820.1.a).
    pub(super) fn put_trigger_on_chain(&self, s: &mut State, card: CardId, source: u8) {
        let src = &s.units[source as usize];
        let controller = src.controller;
        let mut repeat = InlineVec::new();
        if self.rules.repeat_on_abilities() {
            repeat.extend(
                self.card(card)
                    .repeat
                    .iter()
                    .map(|&cost| RepeatInstance::undecided(cost, InstanceOrigin::Printed)),
            );
            for ab in &self.card(src.card).abilities {
                if let Ability::AbilitiesHaveRepeat(cost) = ab {
                    repeat.push(RepeatInstance::undecided(*cost, InstanceOrigin::SourceUnit));
                }
            }
        }
        let id = push_pending(s, card, Origin::Trigger(source), controller, repeat);
        // v1.3 decides a trigger's "you may" when it triggers, before it is placed; RUP4 during
        // its choices (402.1). The placement event follows the decision accordingly.
        let deferred =
            self.card(card).optional && self.rules.trigger_may() == TriggerMay::AtTrigger;
        if !deferred {
            s.log.push(Event::MovedToChain {
                item: id,
                card,
                by: controller,
            });
        }
        self.complete_choices(s, id);
    }

    /// The next choice of a pending item, in the rules' order: a trigger's "you may" (402.1), each
    /// [Repeat] instance (355.1.a, 820.1.c.2–3), then each execution's mode, targets and
    /// destinations (355.3–355.5, 820.2.a).
    pub(super) fn choice_actions(&self, s: &State, item: &ChainItem, out: &mut Vec<Action>) {
        let card = self.card(item.card);
        if card.optional && item.accepted.is_none() {
            out.push(Action::DecideOptional { accept: true });
            out.push(Action::DecideOptional { accept: false });
            return;
        }
        if let Some((i, inst)) = item.repeat.iter().enumerate().find(|(_, r)| !r.decided) {
            return self.declare_repeat_actions(i as u8, inst, out);
        }
        if let Some(i) = item.optional.iter().position(|o| !o.decided) {
            return declare_optional_actions(i as u8, out);
        }
        if !card.resolves() {
            return self.choose_location_actions(s, item, out);
        }
        let Some((e, ex)) = item.choices.iter().enumerate().find(|(_, c)| !c.complete) else {
            unreachable!("choosing with every execution complete")
        };
        let e = e as u8;
        let Some(mode) = ex.mode else {
            return self.choose_mode_actions(s, item, e, out);
        };
        match self.next_slot(item, e, mode) {
            Some(SlotNeed::Target(slot, spec)) => {
                self.choose_target_actions(s, item, e, slot, spec, out)
            }
            Some(SlotNeed::Destination(slot, dest)) => {
                self.choose_destination_actions(s, ex, e, slot, dest, out)
            }
            None => unreachable!("incomplete execution with nothing left to choose"),
        }
    }

    /// DecideOptional's effect (402.1): perform the trigger, or decline it, which removes it and
    /// is not a counter (402.1.a).
    pub(super) fn decide_optional(&self, s: &mut State, accept: bool) {
        let item = pending_mut(s);
        item.accepted = Some(accept);
        let (id, card, by) = (item.id, item.card, item.controller);
        s.log.push(Event::OptionalDecided {
            item: id,
            accepted: accept,
        });
        let deferred = self.rules.trigger_may() == TriggerMay::AtTrigger;
        if !accept {
            s.chain.retain(|i| i.id != id);
            self.after_chain_change(s);
            return;
        }
        if deferred {
            s.log.push(Event::MovedToChain { item: id, card, by });
        }
        self.complete_choices(s, id);
    }

    /// DeclareRepeat's guard (355.1.a, 820.1.c.2–3): the first undecided instance, not paid, or
    /// paid while the rulebook allows another payment of it.
    fn declare_repeat_actions(&self, instance: u8, inst: &RepeatInstance, out: &mut Vec<Action>) {
        out.push(Action::DeclareRepeat {
            instance,
            pay: false,
        });
        if inst.paid < self.rules.payments_per_instance() {
            out.push(Action::DeclareRepeat {
                instance,
                pay: true,
            });
        }
    }

    /// DeclareRepeat's effect (820.1.c.2–3): each instance decided on its own; the rulebook says
    /// how often it may be paid.
    pub(super) fn declare_repeat(&self, s: &mut State, instance: u8, pay: bool) {
        let max = self.rules.payments_per_instance();
        let item = pending_mut(s);
        let id = item.id;
        let inst = &mut item.repeat[instance as usize];
        if pay {
            inst.paid += 1;
            inst.decided = inst.paid >= max;
        } else {
            inst.decided = true;
        }
        s.log.push(Event::RepeatDeclared {
            item: id,
            instance,
            pay,
        });
        self.complete_choices(s, id);
    }

    /// ChooseMode's guard (355.3, 820.2.a): each mode with a legal choice for every required
    /// target (355.8, 355.16), not one an earlier execution took if modes must differ; with none,
    /// the play is undone (358.5).
    fn choose_mode_actions(&self, s: &State, item: &ChainItem, e: u8, out: &mut Vec<Action>) {
        let card = self.card(item.card);
        for m in 0..card.modes.len() as u8 {
            let used =
                card.distinct_modes && item.choices[..e as usize].iter().any(|c| c.mode == Some(m));
            if !used && self.mode_has_legal_choices(s, item, m) {
                out.push(Action::ChooseMode { exec: e, mode: m });
            }
        }
        if out.is_empty() {
            self.cancel(out, CancelWhy::NoLegalChoice);
        }
    }

    /// 355.8, 355.16: a mode is chosen only if each of its required targets has a legal choice.
    pub(super) fn mode_has_legal_choices(&self, s: &State, item: &ChainItem, mode: u8) -> bool {
        self.card(item.card).modes[mode as usize]
            .instructions
            .iter()
            .all(|ins| match ins.target {
                Some(spec) if !spec.up_to => {
                    self.candidates(s, item, spec, item.controller).len() >= spec.count as usize
                }
                _ => true,
            })
    }

    /// ChooseMode's effect (355.3, 820.2.a): execution `exec` takes mode `mode`.
    pub(super) fn choose_mode(&self, s: &mut State, exec: u8, mode: u8) {
        let item = pending_mut(s);
        item.choices[exec as usize].mode = Some(mode);
        let id = item.id;
        s.log.push(Event::ModeChosen {
            item: id,
            exec,
            mode,
        });
        self.complete_choices(s, id);
    }

    /// ChooseTarget's and EndTargets' guard (355.5, 355.8, 355.13, 820.2.a): each legal object not
    /// already chosen for the slot (all at one location if the instruction says so), and ending
    /// an "up to" list early; with none, the play is undone (358.5).
    fn choose_target_actions(
        &self,
        s: &State,
        item: &ChainItem,
        e: u8,
        slot: u8,
        spec: TargetSpec,
        out: &mut Vec<Action>,
    ) {
        let chosen: Vec<Obj> = item.choices[e as usize].targets(slot).collect();
        let it = self.referent(&item.choices[e as usize], spec, slot);
        for obj in self.candidates(s, item, spec, item.controller) {
            if chosen.contains(&obj) {
                continue;
            }
            // Repulse: "chooses it" now that "it" is chosen (candidates accepted any one unit).
            if let (Some(_), Obj::Item(t)) = (it, obj) {
                let ok = s.item(t).is_some_and(|other| {
                    self.item_meets(s, other, item, spec, item.controller, it)
                });
                if !ok {
                    continue;
                }
            }
            if spec.same_location
                && !chosen.is_empty()
                && self.location_of(s, chosen[0]) != self.location_of(s, obj)
            {
                continue;
            }
            // "Other": not what the previous instruction of this execution chose.
            if spec.other
                && slot
                    .checked_sub(1)
                    .is_some_and(|p| item.choices[e as usize].targets(p).any(|o| o == obj))
            {
                continue;
            }
            out.push(Action::ChooseTarget { exec: e, slot, obj });
        }
        if spec.up_to {
            out.push(Action::EndTargets { exec: e, slot });
        }
        if out.is_empty() {
            self.cancel(out, CancelWhy::NoLegalChoice);
        }
    }

    /// ChooseTarget's effect (355.5, 820.2.a): the object becomes one of the slot's targets.
    pub(super) fn choose_target(&self, s: &mut State, exec: u8, slot: u8, obj: Obj) {
        let item = pending_mut(s);
        item.choices[exec as usize]
            .picks
            .push(Pick::Target { slot, obj });
        item.ever_chosen.push((exec, obj));
        let id = item.id;
        s.log.push(Event::TargetChosen {
            item: id,
            exec,
            slot,
            obj,
        });
        self.complete_choices(s, id);
    }

    /// EndTargets' effect (355.13): an "up to" instruction takes no more targets.
    pub(super) fn end_targets(&self, s: &mut State, exec: u8, slot: u8) {
        let item = pending_mut(s);
        item.choices[exec as usize]
            .picks
            .push(Pick::EndTargets { slot });
        let id = item.id;
        s.log.push(Event::TargetsEnded {
            item: id,
            exec,
            slot,
        });
        self.complete_choices(s, id);
    }

    /// ChooseDestination's guard (355.4): each legal destination of the slot's unit; with none,
    /// the play is undone (358.5).
    fn choose_destination_actions(
        &self,
        s: &State,
        ex: &ExecChoices,
        e: u8,
        slot: u8,
        dest: Destination,
        out: &mut Vec<Action>,
    ) {
        let unit = ex.targets(slot).next();
        for to in self.destinations(s, unit, dest) {
            out.push(Action::ChooseDestination { exec: e, slot, to });
        }
        if out.is_empty() {
            self.cancel(out, CancelWhy::NoLegalChoice);
        }
    }

    /// ChooseDestination's effect (355.4): the slot's unit will move there.
    pub(super) fn choose_destination(&self, s: &mut State, exec: u8, slot: u8, to: Location) {
        let item = pending_mut(s);
        item.choices[exec as usize]
            .picks
            .push(Pick::Destination { slot, to });
        let id = item.id;
        s.log.push(Event::DestinationChosen {
            item: id,
            exec,
            slot,
            to,
        });
        self.complete_choices(s, id);
    }

    /// After each choice: lays out one choice record per execution once [Repeat] is decided
    /// (820.2.a), fills in what needs no decision (the mode of a plain item, instructions without
    /// targets), and moves a fully chosen item on to 356.
    pub(super) fn complete_choices(&self, s: &mut State, id: u8) {
        let card = {
            let item = on_chain(s, id);
            if item.phase != Phase::Choosing {
                return;
            }
            self.card(item.card)
        };
        let item = on_chain_mut(s, id);
        if card.optional && item.accepted.is_none() {
            return;
        }
        if item.repeat.iter().any(|r| !r.decided) || item.optional.iter().any(|o| !o.decided) {
            return;
        }
        if !card.resolves() {
            return self.complete_location(s, id);
        }
        let item = on_chain_mut(s, id);
        let n = item.executions(self.rules.executions_per_instance()) as usize;
        let copy_first = self.rules.extra_execution_choices() == ExtraChoices::CopyFirst;
        let lay_out = if copy_first { 1 } else { n };
        while item.choices.len() < lay_out {
            item.choices.push(ExecChoices {
                mode: if card.is_modal() { None } else { Some(0) },
                picks: InlineVec::new(),
                complete: false,
            });
        }
        for e in 0..item.choices.len() {
            if item.choices[e].complete {
                continue;
            }
            let Some(mode) = item.choices[e].mode else {
                return;
            };
            if self.next_slot(item, e as u8, mode).is_some() {
                return;
            }
            item.choices[e].complete = true;
        }
        if copy_first {
            // A wrong edit: every execution reuses the first one's choices (820.2.a says each
            // execution has its own).
            let first = item.choices[0].clone();
            item.choices.resize(n, first);
        }
        item.phase = Phase::Chosen;
    }

    /// The next unmade choice of execution `e` in mode `mode`, in declared order.
    pub(super) fn next_slot(&self, item: &ChainItem, e: u8, mode: u8) -> Option<SlotNeed> {
        let ex = &item.choices[e as usize];
        for (i, ins) in self.card(item.card).modes[mode as usize]
            .instructions
            .iter()
            .enumerate()
        {
            let slot = i as u8;
            if let Some(spec) = ins.target {
                let n = ex.targets(slot).count() as u8;
                let ended = ex.picks.contains(&Pick::EndTargets { slot });
                if n < spec.count && !ended {
                    return Some(SlotNeed::Target(slot, spec));
                }
                if let Effect::Move(dest) = ins.effect {
                    if n > 0 && ex.destination(slot).is_none() {
                        return Some(SlotNeed::Destination(slot, dest));
                    }
                }
            }
        }
        None
    }
}

/// Puts a new pending item on the chain (354, 383.3): a chain item starts choosing, with its
/// [Repeat] instances and nothing chosen yet. Returns its id.
#[inline]
pub(super) fn push_pending(
    s: &mut State,
    card: CardId,
    origin: Origin,
    controller: Player,
    repeat: InlineVec<RepeatInstance, 4>,
) -> u8 {
    let id = s.next_item;
    s.next_item += 1;
    s.chain.push(ChainItem {
        id,
        card,
        origin,
        owner: controller,
        controller,
        phase: Phase::Choosing,
        repeat,
        accepted: None,
        choices: InlineVec::new(),
        cost: TotalCost::default(),
        ever_chosen: InlineVec::new(),
        left_chain: false,
        optional: InlineVec::new(),
        enters: None,
        runes_spent: RunesSpent::default(),
        discount_order: InlineVec::new(),
    });
    id
}

/// DeclareOptionalCost's guard (355.1.a): the first undecided optional additional cost, paid or
/// not; each at most once.
fn declare_optional_actions(index: u8, out: &mut Vec<Action>) {
    out.push(Action::DeclareOptionalCost { index, pay: false });
    out.push(Action::DeclareOptionalCost { index, pay: true });
}

// ---- Optional additional costs other than [Repeat], and where a unit enters ----
impl Game {
    /// DeclareOptionalCost's effect (355.1.a, 356.2.b): the decision is made while playing; a
    /// cost declared paid is added in 356 and counts as paid at any amount (356.4.f.1).
    pub(super) fn declare_optional(&self, s: &mut State, index: u8, pay: bool) {
        let item = pending_mut(s);
        let id = item.id;
        let o = &mut item.optional[index as usize];
        o.decided = true;
        o.paid = pay;
        s.log.push(Event::OptionalCostDeclared {
            item: id,
            index,
            pay,
        });
        self.complete_choices(s, id);
    }

    /// 355.2: where a unit may enter: its controller's base or a battlefield they control.
    fn entry_locations(&self, s: &State, p: Player) -> Vec<Location> {
        let mut out = vec![Location::Base(p)];
        for (i, b) in s.battlefields.iter().enumerate() {
            if b.controller == Some(p) {
                out.push(Location::Battlefield(i as u8));
            }
        }
        out
    }

    /// ChooseLocation's guard (355.2): each location the unit may enter, when there is more than
    /// one (a single one is taken without a decision, see `complete_location`).
    fn choose_location_actions(&self, s: &State, item: &ChainItem, out: &mut Vec<Action>) {
        for to in self.entry_locations(s, item.controller) {
            out.push(Action::ChooseLocation { to });
        }
    }

    /// ChooseLocation's effect (355.2): the unit will enter there.
    pub(super) fn choose_location(&self, s: &mut State, to: Location) {
        let item = pending_mut(s);
        item.enters = Some(to);
        let id = item.id;
        s.log.push(Event::LocationChosen { item: id, to });
        self.complete_choices(s, id);
    }

    /// A unit's choices are complete once its location is chosen; with only one location
    /// possible it is taken at once. A token played by an effect pays no cost and goes straight
    /// to finalizing; a unit from hand goes on to 356.
    fn complete_location(&self, s: &mut State, id: u8) {
        let item = on_chain(s, id);
        // 359.2: a gear enters in its controller's base; there is nothing to choose.
        let gear = self.card(item.card).kind == CardKind::Gear;
        if item.enters.is_none() && !gear {
            let places = self.entry_locations(s, item.controller);
            let [only] = places[..] else { return };
            on_chain_mut(s, id).enters = Some(only);
            s.log.push(Event::LocationChosen { item: id, to: only });
        }
        let item = on_chain_mut(s, id);
        item.phase = if matches!(item.origin, Origin::Token { .. }) {
            Phase::Legal
        } else {
            Phase::Chosen
        };
    }
}
