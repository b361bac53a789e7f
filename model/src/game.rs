//! The transition relation: for each step of playing, paying for and resolving a chain item, its
//! guard (`Game::actions`) and its effect (`Game::next_state`), following rules 349–359, the chain
//! (332–340), costs (356–357), counters (425), new choices (750–755) and [Repeat] (820).
//!
//! The model knows nothing about how it is explored: it only answers "what may happen next" and
//! "what happens then".

use crate::action::Action;
use crate::card::{
    Ability, CardDef, CardId, CardKind, Condition, Destination, Effect, InstanceOrigin, Place,
    RepeatCost, Side, TargetKind, TargetSpec, Timing,
};
use crate::cost::{Cost, Domain};
use crate::rulebook::{
    DeflectRule, ExtraChoices, EzrealScope, IllegalTargets, NewChoicesRule, NewChoicesScope,
    Rulebook, TargetingTriggers, TriggerMay,
};
use crate::setup::Setup;
use crate::state::*;

/// The rules and the card table: everything fixed while a scenario is explored.
#[derive(Clone, Debug)]
pub struct Game {
    /// The rulebook played by.
    pub rules: Rulebook,
    /// The card and ability definitions.
    pub cards: Vec<CardDef>,
    /// The definition used for unit tokens played by effects.
    pub token: CardId,
}

/// Who acts next, derived from the state.
enum Turn {
    /// The scenario is over.
    Over,
    /// The resolving item with this id runs its next step.
    Resolving(u8),
    /// The item with this id is paused for new choices.
    NewChoices(u8),
    /// A cleanup is outstanding.
    Cleanup,
    /// The oldest pending item (this id) continues its play steps.
    Pending(u8),
    /// This player holds priority.
    Priority(Player),
    /// Everyone passed: the newest finalized item resolves.
    Resolve,
}

impl Game {
    /// A game over these cards under these rules; adds a plain unit token if the table has none.
    pub fn new(rules: Rulebook, mut cards: Vec<CardDef>) -> Game {
        let token = match cards
            .iter()
            .position(|c| c.kind == CardKind::Unit && c.name == "Unit Token")
        {
            Some(i) => i as CardId,
            None => {
                cards.push(CardDef {
                    name: "Unit Token".into(),
                    code: String::new(),
                    kind: CardKind::Unit,
                    domains: vec![],
                    cost: Cost::ZERO,
                    timing: Timing::Normal,
                    repeat: vec![],
                    discount: None,
                    optional: false,
                    as_you_play: vec![],
                    modes: vec![],
                    distinct_modes: false,
                    might: 0,
                    abilities: vec![],
                    synthetic: false,
                    source: "a unit token played by an effect (e.g. Desert's Call's Sand Soldier)"
                        .into(),
                });
                (cards.len() - 1) as CardId
            }
        };
        Game {
            rules,
            cards,
            token,
        }
    }

    /// A card's definition.
    pub fn card(&self, id: CardId) -> &CardDef {
        &self.cards[id as usize]
    }

    /// The card with this name.
    pub fn card_named(&self, name: &str) -> Option<CardId> {
        self.cards
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(|i| i as CardId)
    }

    /// The state a scenario starts in.
    pub fn initial_state(&self, setup: &Setup) -> Result<State, String> {
        setup.validate(self.cards.len())?;
        let units = setup
            .units
            .iter()
            .map(|u| Unit {
                card: u.card,
                token: false,
                owner: u.controller,
                controller: u.controller,
                loc: u.loc,
                zone: Zone::Board,
                might: self.card(u.card).might,
                might_mod: 0,
                damage: u.damage,
            })
            .collect();
        let gear = setup
            .gear
            .iter()
            .map(|g| Gear {
                card: g.card,
                controller: g.controller,
                zone: Zone::Board,
            })
            .collect();
        let battlefields = setup
            .battlefields
            .iter()
            .map(|b| Battlefield {
                card: b.card,
                controller: b.controller,
            })
            .collect();
        let players = setup.players.clone().map(|p| PlayerState {
            pool: Cost { any: 0, ..p.pool },
            hand: p.hand.into(),
            hand_other: p.hand_other,
            deck: p.deck,
            trash: InlineVec::new(),
            trash_other: 0,
            finalized_this_turn: 0,
            undone: InlineVec::new(),
            portal_charged: p.portal_charged,
            near_victory: p.near_victory,
        });
        let mut s = State {
            units,
            gear,
            battlefields,
            players,
            chain: InlineVec::new(),
            queued: InlineVec::new(),
            next_item: 0,
            priority: Some(Player::YOU),
            passes: 0,
            showdown: setup.showdown,
            cleanup_due: false,
            started: false,
            start: Start {
                pools: [Cost::ZERO; 2],
                cards: [0; 2],
            },
            log: Log::new(),
        };
        s.start = Start {
            pools: [s.players[0].pool, s.players[1].pool],
            cards: [s.cards_of(Player(0)), s.cards_of(Player(1))],
        };
        if let Some(u) = setup.attack_trigger {
            let card = self
                .card(s.units[u as usize].card)
                .abilities
                .iter()
                .find_map(|a| match a {
                    Ability::WhenAttacks(c) => Some(*c),
                    _ => None,
                })
                .ok_or_else(|| format!("unit {} has no \"when I attack\" ability", u + 1))?;
            s.started = true;
            s.priority = None;
            self.put_trigger_on_chain(&mut s, card, u);
        }
        Ok(s)
    }

    fn turn(&self, s: &State) -> Turn {
        if s.is_over() {
            return Turn::Over;
        }
        if let Some(item) = s
            .chain
            .iter()
            .rev()
            .find(|i| matches!(i.phase, Phase::NewChoices { .. }))
        {
            return Turn::NewChoices(item.id);
        }
        if let Some(item) = s
            .chain
            .iter()
            .rev()
            .find(|i| matches!(i.phase, Phase::Resolving { .. }))
        {
            if s.priority.is_none() && s.passes == 0 && self.is_active(s, item.id) {
                return Turn::Resolving(item.id);
            }
        }
        if s.cleanup_due {
            return Turn::Cleanup;
        }
        if let Some(item) = s.chain.iter().find(|i| i.is_pending()) {
            return Turn::Pending(item.id);
        }
        match s.priority {
            Some(p) => Turn::Priority(p),
            None if s.chain.is_empty() => Turn::Over,
            None => Turn::Resolve,
        }
    }

    /// A resolving item runs while no newer item sits above it (a newer one exists only when a
    /// wrong rulebook opened a window between executions).
    fn is_active(&self, s: &State, id: u8) -> bool {
        s.chain.last().map(|i| i.id) == Some(id) && !s.chain.iter().any(|i| i.is_pending())
    }

    /// The actions enabled in `s`, in a fixed order.
    pub fn actions(&self, s: &State, out: &mut Vec<Action>) {
        match self.turn(s) {
            Turn::Over => {}
            Turn::Resolving(id) => {
                let item = s.item(id).expect("resolving item is on the chain");
                match item.phase {
                    Phase::Resolving { done }
                        if done < item.executions(self.rules.executions_per_instance) =>
                    {
                        out.push(Action::Execute)
                    }
                    _ => out.push(Action::FinishResolution),
                }
            }
            Turn::NewChoices(id) => self.new_choice_actions(s, id, out),
            Turn::Cleanup => out.push(Action::Cleanup),
            Turn::Pending(id) => self.play_step_actions(s, id, out),
            Turn::Priority(p) => {
                // A player may not start a chain by passing: the scenario is about the play.
                if s.started {
                    out.push(Action::Pass);
                }
                for (i, &c) in s.players[p.ix()].hand.iter().enumerate() {
                    if self.may_play_now(s, p, c) {
                        out.push(Action::MoveToChain {
                            player: p,
                            hand: i as u8,
                        });
                    }
                }
            }
            Turn::Resolve => out.push(Action::Resolve),
        }
    }

    /// 358.4: timing. An empty chain needs the open state (a showdown needs [Action]); an
    /// existing chain needs [Reaction].
    fn may_play_now(&self, s: &State, p: Player, card: CardId) -> bool {
        let c = self.card(card);
        if !matches!(c.kind, CardKind::Spell) || s.players[p.ix()].undone.contains(&card) {
            return false;
        }
        if s.chain.is_empty() {
            !s.started && (!s.showdown || matches!(c.timing, Timing::Action | Timing::Reaction))
        } else {
            c.timing == Timing::Reaction
        }
    }

    /// The next choice of a pending item, per 355 and 820.2 in declared order.
    fn play_step_actions(&self, s: &State, id: u8, out: &mut Vec<Action>) {
        let item = s.item(id).expect("pending item");
        match item.phase {
            Phase::Choosing => {}
            Phase::Chosen => return out.push(Action::DetermineTotalCost),
            Phase::Costed => {
                self.payment_options(s, item, out);
                if out.is_empty() {
                    self.cancel(out, CancelWhy::CannotPay);
                }
                return;
            }
            Phase::Paid => return out.push(Action::CheckLegality),
            Phase::Legal => return out.push(Action::Finalize),
            _ => unreachable!("not pending"),
        }
        let card = self.card(item.card);
        if card.optional && item.accepted.is_none() {
            out.push(Action::DecideOptional { accept: true });
            out.push(Action::DecideOptional { accept: false });
            return;
        }
        if let Some((i, inst)) = item.repeat.iter().enumerate().find(|(_, r)| !r.decided) {
            out.push(Action::DeclareRepeat {
                instance: i as u8,
                pay: false,
            });
            if inst.paid < self.rules.payments_per_instance {
                out.push(Action::DeclareRepeat {
                    instance: i as u8,
                    pay: true,
                });
            }
            return;
        }
        let Some((e, ex)) = item.choices.iter().enumerate().find(|(_, c)| !c.complete) else {
            unreachable!("choosing with every execution complete")
        };
        let e = e as u8;
        let Some(mode) = ex.mode else {
            for m in 0..card.modes.len() as u8 {
                let used = card.distinct_modes
                    && item.choices[..e as usize].iter().any(|c| c.mode == Some(m));
                if !used && self.mode_has_legal_choices(s, item, m) {
                    out.push(Action::ChooseMode { exec: e, mode: m });
                }
            }
            if out.is_empty() {
                self.cancel(out, CancelWhy::NoLegalChoice);
            }
            return;
        };
        match self.next_slot(item, e, mode) {
            Some(SlotNeed::Target(slot, spec)) => {
                let chosen: Vec<Obj> = ex.targets(slot).collect();
                for obj in self.candidates(s, item, spec, item.controller) {
                    if chosen.contains(&obj) {
                        continue;
                    }
                    if spec.same_location
                        && !chosen.is_empty()
                        && self.location_of(s, chosen[0]) != self.location_of(s, obj)
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
            Some(SlotNeed::Destination(slot, dest)) => {
                let unit = ex.targets(slot).next();
                for to in self.destinations(s, unit, dest) {
                    out.push(Action::ChooseDestination { exec: e, slot, to });
                }
                if out.is_empty() {
                    self.cancel(out, CancelWhy::NoLegalChoice);
                }
            }
            None => unreachable!("incomplete execution with nothing left to choose"),
        }
    }

    /// 358.5: a play that cannot go on is undone (unless a wrong rulebook leaves it pending).
    fn cancel(&self, out: &mut Vec<Action>, why: CancelWhy) {
        if self.rules.undo_illegal_play {
            out.push(Action::CancelPlay { why });
        }
    }

    fn mode_has_legal_choices(&self, s: &State, item: &ChainItem, mode: u8) -> bool {
        // 355.8, 355.16: a mode is chosen only if each of its required targets has a legal choice.
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

    /// The next unmade choice of execution `e` in mode `mode`.
    fn next_slot(&self, item: &ChainItem, e: u8, mode: u8) -> Option<SlotNeed> {
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

    /// Objects that meet a target spec now, for an item controlled by `controller`.
    fn candidates(
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

    fn unit_meets(
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

    fn item_meets(
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

    fn location_of(&self, s: &State, obj: Obj) -> Option<Location> {
        match obj {
            Obj::Unit(i) => Some(s.units[i as usize].loc),
            _ => None,
        }
    }

    /// 355.4: destinations for a move; never the unit's current location (355.4.a).
    fn destinations(&self, s: &State, unit: Option<Obj>, dest: Destination) -> Vec<Location> {
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

    fn destination_ok(&self, s: &State, u: u8, to: Location, dest: Destination) -> bool {
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

    /// 357: the ways to pay the determined cost from the pool; any-domain Power may come from
    /// any domain with Power left, and each distinct split is its own choice.
    fn payment_options(&self, s: &State, item: &ChainItem, out: &mut Vec<Action>) {
        let pool = s.players[item.controller.ix()].pool;
        let need = item.cost.resources;
        let discard = item.cost.discard;
        if pool.energy < need.energy {
            return;
        }
        let mut left = [0u8; 6];
        for (d, l) in left.iter_mut().enumerate() {
            if pool.power[d] < need.power[d] {
                return;
            }
            *l = pool.power[d] - need.power[d];
        }
        let p = &s.players[item.controller.ix()];
        if (p.hand_other as usize + p.hand.len()) < discard as usize {
            return;
        }
        let mut split = [0u8; 6];
        splits(need.any, 0, &left, &mut split, out);
    }

    /// The state after `a`, or `None` if `a` is not enabled here.
    pub fn next_state(&self, s: &State, a: &Action) -> Option<State> {
        let mut buf = Vec::new();
        self.actions(s, &mut buf);
        buf.contains(a).then(|| self.step(s, a))
    }

    /// The state after `a`, which the caller has just taken from `actions(s)`; skips re-checking
    /// the guard, which the checker's inner loop cannot afford.
    pub fn step(&self, s: &State, a: &Action) -> State {
        let mut n = s.clone();
        self.step_in_place(&mut n, a);
        n
    }

    /// [`Game::step`] in place: the state becomes its successor.
    pub fn step_in_place(&self, s: &mut State, a: &Action) {
        self.apply(s, *a);
    }

    /// The effect of an enabled action.
    fn apply(&self, s: &mut State, a: Action) {
        match a {
            Action::MoveToChain { player, hand } => self.move_to_chain(s, player, hand),
            Action::DecideOptional { accept } => self.decide_optional(s, accept),
            Action::DeclareRepeat { instance, pay } => self.declare_repeat(s, instance, pay),
            Action::ChooseMode { exec, mode } => {
                let id = self.pending_id(s);
                let item = s.item_mut(id).expect("pending");
                item.choices[exec as usize].mode = Some(mode);
                s.log.push(Event::ModeChosen {
                    item: id,
                    exec,
                    mode,
                });
                self.complete_choices(s, id);
            }
            Action::ChooseTarget { exec, slot, obj } => {
                let id = self.pending_id(s);
                let item = s.item_mut(id).expect("pending");
                item.choices[exec as usize]
                    .picks
                    .push(Pick::Target { slot, obj });
                item.ever_chosen.push((exec, obj));
                s.log.push(Event::TargetChosen {
                    item: id,
                    exec,
                    slot,
                    obj,
                });
                self.complete_choices(s, id);
            }
            Action::EndTargets { exec, slot } => {
                let id = self.pending_id(s);
                s.item_mut(id).expect("pending").choices[exec as usize]
                    .picks
                    .push(Pick::EndTargets { slot });
                s.log.push(Event::TargetsEnded {
                    item: id,
                    exec,
                    slot,
                });
                self.complete_choices(s, id);
            }
            Action::ChooseDestination { exec, slot, to } => {
                let id = self.pending_id(s);
                s.item_mut(id).expect("pending").choices[exec as usize]
                    .picks
                    .push(Pick::Destination { slot, to });
                s.log.push(Event::DestinationChosen {
                    item: id,
                    exec,
                    slot,
                    to,
                });
                self.complete_choices(s, id);
            }
            Action::DetermineTotalCost => self.determine_total_cost(s),
            Action::PayCosts { any } => self.pay_costs(s, any),
            Action::CancelPlay { why } => self.cancel_play(s, why),
            Action::CheckLegality => {
                let id = self.pending_id(s);
                // 358.1-358.4 hold by construction: every choice was legal when made and
                // nothing can act between choosing and this check; the cost was paid in full.
                s.item_mut(id).expect("pending").phase = Phase::Legal;
                s.log.push(Event::LegalityChecked { item: id });
            }
            Action::Finalize => self.finalize(s),
            Action::Pass => self.pass(s),
            Action::Resolve => self.resolve(s),
            Action::Execute => self.execute(s),
            Action::FinishResolution => self.finish_resolution(s),
            Action::Cleanup => self.cleanup(s),
            Action::KeepChoice => self.keep_choice(s),
            Action::RemakeChoice { obj } => self.remake_choice(s, obj),
            Action::DeclineNewChoices => self.end_new_choices(s),
            Action::ReopenRepeat { instance } => self.reopen_repeat(s, instance),
        }
    }

    fn pending_id(&self, s: &State) -> u8 {
        s.chain
            .iter()
            .find(|i| i.is_pending())
            .expect("a pending item")
            .id
    }

    /// 354, and the [Repeat] instances the item has as it is played (printed, then granted).
    fn move_to_chain(&self, s: &mut State, player: Player, hand: u8) {
        let card = s.players[player.ix()].hand.remove(hand as usize);
        let def = self.card(card);
        let mut repeat: InlineVec<RepeatInstance, 4> = def
            .repeat
            .iter()
            .map(|&cost| RepeatInstance {
                cost,
                origin: InstanceOrigin::Printed,
                paid: 0,
                decided: false,
            })
            .collect();
        let ps = &mut s.players[player.ix()];
        if ps.portal_charged && def.kind == CardKind::Spell {
            // Temporal Portal: [Repeat] equal to its cost, the printed cost (206).
            ps.portal_charged = false;
            repeat.push(RepeatInstance {
                cost: RepeatCost::Pay(def.cost),
                origin: InstanceOrigin::Portal,
                paid: 0,
                decided: false,
            });
        }
        if s.showdown {
            for u in s
                .units
                .iter()
                .filter(|u| u.zone == Zone::Board && u.controller == player)
            {
                for ab in &self.card(u.card).abilities {
                    if let Ability::SpellsHaveRepeatInShowdown(cost) = ab {
                        repeat.push(RepeatInstance {
                            cost: RepeatCost::Pay(*cost),
                            origin: InstanceOrigin::Syndra,
                            paid: 0,
                            decided: false,
                        });
                    }
                }
            }
        }
        let id = s.next_item;
        s.next_item += 1;
        s.chain.push(ChainItem {
            id,
            card,
            origin: Origin::Hand,
            owner: player,
            controller: player,
            phase: Phase::Choosing,
            repeat,
            accepted: None,
            choices: InlineVec::new(),
            cost: TotalCost::default(),
            ever_chosen: InlineVec::new(),
            left_chain: false,
        });
        s.started = true;
        s.priority = None;
        s.passes = 0;
        s.log.push(Event::MovedToChain {
            item: id,
            card,
            by: player,
        });
        self.complete_choices(s, id);
    }

    /// 383.3, 401: a triggered ability becomes a pending item with its [Repeat] instances.
    fn put_trigger_on_chain(&self, s: &mut State, card: CardId, source: u8) {
        let src = &s.units[source as usize];
        let controller = src.controller;
        let mut repeat = InlineVec::new();
        if self.rules.repeat_on_abilities {
            repeat.extend(self.card(card).repeat.iter().map(|&cost| RepeatInstance {
                cost,
                origin: InstanceOrigin::Printed,
                paid: 0,
                decided: false,
            }));
            for ab in &self.card(src.card).abilities {
                if let Ability::AbilitiesHaveRepeat(cost) = ab {
                    repeat.push(RepeatInstance {
                        cost: *cost,
                        origin: InstanceOrigin::SourceUnit,
                        paid: 0,
                        decided: false,
                    });
                }
            }
        }
        let id = s.next_item;
        s.next_item += 1;
        s.chain.push(ChainItem {
            id,
            card,
            origin: Origin::Trigger(source),
            owner: controller,
            controller,
            phase: Phase::Choosing,
            repeat,
            accepted: None,
            choices: InlineVec::new(),
            cost: TotalCost::default(),
            ever_chosen: InlineVec::new(),
            left_chain: false,
        });
        // v1.3 decides a trigger's "you may" when it triggers, before it is placed; RUP4 during
        // its choices (402.1). The placement event follows the decision accordingly.
        let deferred = self.card(card).optional && self.rules.trigger_may == TriggerMay::AtTrigger;
        if !deferred {
            s.log.push(Event::MovedToChain {
                item: id,
                card,
                by: controller,
            });
        }
        self.complete_choices(s, id);
    }

    fn decide_optional(&self, s: &mut State, accept: bool) {
        let id = self.pending_id(s);
        let item = s.item_mut(id).expect("pending");
        item.accepted = Some(accept);
        let (card, by) = (item.card, item.controller);
        s.log.push(Event::OptionalDecided {
            item: id,
            accepted: accept,
        });
        let deferred = self.rules.trigger_may == TriggerMay::AtTrigger;
        if !accept {
            // 402.1.a: declining removes it; not a counter.
            s.chain.retain(|i| i.id != id);
            self.after_chain_change(s);
            return;
        }
        if deferred {
            s.log.push(Event::MovedToChain { item: id, card, by });
        }
        self.complete_choices(s, id);
    }

    /// 820.1.c.2–3: each instance decided on its own; the rulebook says how often it may be paid.
    fn declare_repeat(&self, s: &mut State, instance: u8, pay: bool) {
        let id = self.pending_id(s);
        let max = self.rules.payments_per_instance;
        let item = s.item_mut(id).expect("pending");
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

    /// Lays out one choice record per execution once [Repeat] is decided, fills in what needs no
    /// decision (the mode of a plain item, instructions without targets), and moves a fully
    /// chosen item on to 356.
    fn complete_choices(&self, s: &mut State, id: u8) {
        let card = {
            let item = s.item(id).expect("item");
            if item.phase != Phase::Choosing {
                return;
            }
            self.card(item.card)
        };
        let item = s.item_mut(id).expect("item");
        if card.optional && item.accepted.is_none() {
            return;
        }
        if item.repeat.iter().any(|r| !r.decided) {
            return;
        }
        let n = item.executions(self.rules.executions_per_instance) as usize;
        let copy_first = self.rules.extra_execution_choices == ExtraChoices::CopyFirst;
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

    /// 356: base cost, then additional costs (Deflect per choice, 809.1.c; each paid [Repeat]
    /// instance with its component discounts as it is added, 356.4.c), then whole-card discounts
    /// once (356.4.d), floored at 0 (356.6).
    fn determine_total_cost(&self, s: &mut State) {
        let id = self.pending_id(s);
        let item = s.item(id).expect("pending").clone();
        let def = self.card(item.card);
        let controller = item.controller;
        let mut total = if item.origin == Origin::Hand {
            def.cost
        } else {
            Cost::ZERO
        };
        let mut discard = 0u8;
        let mut events = vec![];

        // 356.2.a.2: Deflect is a mandatory additional cost, for each opponent's choice of it.
        let mut seen: Vec<u8> = vec![];
        for ex in &item.choices {
            for obj in ex.objects() {
                if let Obj::Unit(u) = obj {
                    let unit = &s.units[u as usize];
                    let d = self.card(unit.card).deflect();
                    if d == 0 || unit.controller == controller {
                        continue;
                    }
                    if self.rules.deflect == DeflectRule::PerItem && seen.contains(&u) {
                        continue;
                    }
                    seen.push(u);
                    total.any = total.any.saturating_add(d);
                    events.push(Event::DeflectAdded {
                        item: id,
                        unit: u,
                        amount: d,
                    });
                }
            }
        }

        // 356.2.b: optional additional costs the player chose, each [Repeat] payment a component.
        let ezreal =
            self.controls_ability(s, controller, |a| matches!(a, Ability::OptionalCostsLess));
        let spire: u8 = s
            .battlefields
            .iter()
            .filter(|b| b.controller == Some(controller))
            .filter_map(|b| b.card)
            .flat_map(|c| self.card(c).abilities.iter())
            .map(|a| match a {
                Ability::RepeatCostsLess(n) => *n,
                _ => 0,
            })
            .sum();
        let mut pooled_discount = Cost::ZERO;
        let mut ezreal_used = 0u8;
        for (ii, inst) in item.repeat.iter().enumerate() {
            for _ in 0..inst.paid {
                match inst.cost {
                    RepeatCost::Discard(n) => {
                        discard = discard.saturating_add(n);
                        events.push(Event::RepeatCostAdded {
                            item: id,
                            instance: ii as u8,
                            cost: Cost::ZERO,
                            discard: n,
                        });
                    }
                    RepeatCost::Pay(mut component) => {
                        let ez = ezreal > 0
                            && (self.rules.ezreal_scope == EzrealScope::EachCost
                                || ezreal_used == 0);
                        if ez {
                            ezreal_used += 1;
                        }
                        if self.rules.component_discounts {
                            if spire > 0 {
                                let t = component.reduce_energy(spire);
                                if t > 0 {
                                    events.push(Event::DiscountApplied {
                                        item: id,
                                        source: DiscountSource::MaraiSpire,
                                        amount: t,
                                    });
                                }
                            }
                            if ez {
                                // "[1] or [A] less": the Energy if the component has any, else a Power.
                                let t = if component.reduce_energy(1) == 1 {
                                    1
                                } else {
                                    component.reduce_one_power() as u8
                                };
                                if t > 0 {
                                    events.push(Event::DiscountApplied {
                                        item: id,
                                        source: DiscountSource::Ezreal,
                                        amount: t,
                                    });
                                }
                            }
                        } else {
                            // v1.2 §353: discounts apply to the total, in any order.
                            pooled_discount.energy += spire;
                            if ez {
                                pooled_discount.any += 1;
                            }
                        }
                        events.push(Event::RepeatCostAdded {
                            item: id,
                            instance: ii as u8,
                            cost: component,
                            discard: 0,
                        });
                        total = total.plus(&component);
                    }
                }
            }
        }
        if !self.rules.component_discounts {
            if pooled_discount.energy > 0 {
                let t = total.reduce_energy(pooled_discount.energy);
                if t > 0 {
                    events.push(Event::DiscountApplied {
                        item: id,
                        source: DiscountSource::MaraiSpire,
                        amount: t,
                    });
                }
            }
            for _ in 0..pooled_discount.any {
                let t = if total.reduce_energy(1) == 1 {
                    1
                } else {
                    total.reduce_one_power() as u8
                };
                if t > 0 {
                    events.push(Event::DiscountApplied {
                        item: id,
                        source: DiscountSource::Ezreal,
                        amount: t,
                    });
                }
            }
        }

        // 356.4.d: whole-card discounts, once per play (the Temporal Portal FAQ).
        if let Some(d) = def.discount {
            let applies = match d.when {
                Condition::Always => true,
                Condition::OpponentNearVictory => s.players[controller.other().ix()].near_victory,
            };
            if applies && item.origin == Origin::Hand {
                let times = if self.rules.discount_per_execution {
                    item.executions(self.rules.executions_per_instance)
                } else {
                    1
                };
                for _ in 0..times {
                    let t = total.reduce_energy(d.energy);
                    events.push(Event::DiscountApplied {
                        item: id,
                        source: DiscountSource::SelfDiscount,
                        amount: t,
                    });
                }
            }
        }

        s.log.extend(events);
        s.log.push(Event::CostDetermined {
            item: id,
            total,
            discard,
        });
        let item = s.item_mut(id).expect("pending");
        item.cost = TotalCost {
            resources: total,
            discard,
        };
        if !self.rules.zero_cost_counts_as_paid {
            // A wrong edit: an optional cost reduced to 0 no longer counts as paid (356.4.f.1).
            for inst in item.repeat.iter_mut() {
                if let RepeatCost::Pay(c) = inst.cost {
                    let mut reduced = c;
                    reduced.reduce_energy(spire);
                    if ezreal > 0 && reduced.reduce_energy(1) == 0 {
                        reduced.reduce_one_power();
                    }
                    if reduced.is_zero() {
                        inst.paid = 0;
                    }
                }
            }
            let n = item.executions(self.rules.executions_per_instance) as usize;
            item.choices.truncate(n);
        }
        item.phase = Phase::Costed;
    }

    /// 357: Energy and Power together, then discards (anonymous cards first, a simplification:
    /// which card is discarded does not matter to any card modelled).
    fn pay_costs(&self, s: &mut State, any: [u8; 6]) {
        let id = self.pending_id(s);
        let item = s.item(id).expect("pending");
        let (controller, need) = (item.controller, item.cost);
        let ps = &mut s.players[controller.ix()];
        let mut paid = Cost {
            energy: need.resources.energy,
            power: need.resources.power,
            any: 0,
        };
        for (p, a) in paid.power.iter_mut().zip(any) {
            *p += a;
        }
        ps.pool.energy -= paid.energy;
        for d in 0..6 {
            ps.pool.power[d] -= paid.power[d];
        }
        let mut discarded = 0;
        while discarded < need.discard {
            if ps.hand_other > 0 {
                ps.hand_other -= 1;
                ps.trash_other += 1;
            } else if let Some(c) = ps.hand.pop() {
                ps.trash.push(c);
            } else {
                break;
            }
            discarded += 1;
        }
        let item = s.item_mut(id).expect("pending");
        item.cost = TotalCost {
            resources: paid,
            discard: discarded,
        };
        item.phase = Phase::Paid;
        s.log.push(Event::CostPaid {
            item: id,
            paid,
            discarded,
        });
    }

    /// 358.5: undo the whole play: the card returns to hand, nothing is paid, and it is not a
    /// counter. A card whose play was undone is not tried again in the scenario (a bound on
    /// exploration, so that undoing cannot loop).
    fn cancel_play(&self, s: &mut State, why: CancelWhy) {
        let id = self.pending_id(s);
        let pos = s.chain.iter().position(|i| i.id == id).expect("pending");
        let item = s.chain.remove(pos);
        let ps = &mut s.players[item.controller.ix()];
        if item.phase == Phase::Paid {
            ps.pool = ps.pool.plus(&item.cost.resources);
        }
        if item.origin == Origin::Hand {
            ps.hand.push(item.card);
            ps.undone.push(item.card);
        }
        s.log.push(Event::PlayCancelled { item: id, why });
        self.after_chain_change(s);
    }

    /// 359: the item is finalized; "as you play" instructions run (135.2.b.3); Targeting Effects
    /// go on the chain after it (383.4.b.2); a token enters the board at once (337.2).
    fn finalize(&self, s: &mut State) {
        let id = self.pending_id(s);
        let item = s.item(id).expect("pending").clone();
        let def = self.card(item.card);
        s.log.push(Event::Finalized { item: id });
        if let Origin::Token { might } = item.origin {
            s.chain.retain(|i| i.id != id);
            let u = s.units.len() as u8;
            s.units.push(Unit {
                card: item.card,
                token: true,
                owner: item.controller,
                controller: item.controller,
                loc: Location::Base(item.controller),
                zone: Zone::Board,
                might,
                might_mod: 0,
                damage: 0,
            });
            s.log.push(Event::ZoneChange {
                obj: Obj::Unit(u),
                to: Zone::Board,
            });
            self.after_chain_change(s);
            return;
        }
        if item.origin == Origin::Hand {
            s.players[item.controller.ix()].finalized_this_turn += 1;
        }
        s.item_mut(id).expect("pending").phase = Phase::Finalized;
        for ins in def.as_you_play.clone() {
            self.run_untargeted(s, &item, ins.effect);
        }
        // Targeting Effects of objects an opponent's item chose.
        let mut chosen: Vec<u8> = vec![];
        for ex in &item.choices {
            for obj in ex.objects() {
                if let Obj::Unit(u) = obj {
                    if self.rules.targeting_triggers == TargetingTriggers::OncePerItem
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

    fn fire_when_chosen(&self, s: &mut State, u: u8, chooser: Player, queue: bool) {
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

    /// 337.4, 340.2–340.4: after the chain changes, with nothing pending or resolving, the
    /// controller of the newest item gains priority, or the chain has closed.
    fn after_chain_change(&self, s: &mut State) {
        if s.cleanup_due
            || s.chain
                .iter()
                .any(|i| i.is_pending() || matches!(i.phase, Phase::NewChoices { .. }))
        {
            s.priority = None;
            return;
        }
        match s.chain.last() {
            None => {
                s.priority = None;
                if !s.is_over() {
                    s.log.push(Event::ChainClosed);
                }
            }
            Some(top) => {
                s.priority = Some(top.controller);
                s.passes = 0;
            }
        }
    }

    /// 339: pass; when every player has passed in sequence, the newest item resolves.
    fn pass(&self, s: &mut State) {
        let p = s.priority.expect("priority");
        s.log.push(Event::Passed { by: p });
        s.passes += 1;
        if s.passes >= 2 {
            s.priority = None;
            s.passes = 0;
        } else {
            s.priority = Some(p.other());
        }
    }

    /// 340.1: the newest finalized item resolves (or resumes, after a window a wrong rulebook
    /// opened).
    fn resolve(&self, s: &mut State) {
        let top = s.chain.last_mut().expect("an item to resolve");
        let id = top.id;
        if top.phase == Phase::Finalized {
            top.phase = Phase::Resolving { done: 0 };
            s.log.push(Event::ResolveStarted { item: id });
        }
    }

    /// 820.3, 359.3.e: run execution k with its own choices; targets are checked as each
    /// instruction executes, so an earlier execution can make a later one's targets illegal.
    fn execute(&self, s: &mut State) {
        let top = s.chain.last().expect("resolving").clone();
        let Phase::Resolving { done: k } = top.phase else {
            unreachable!("execute while not resolving")
        };
        s.log.push(Event::ExecutionStarted {
            item: top.id,
            exec: k,
        });
        if self.rules.as_you_play_repeated && k > 0 {
            for ins in self.card(top.card).as_you_play.clone() {
                self.run_untargeted(s, &top, ins.effect);
            }
        }
        let paused = self.run_instructions(s, top.id, k, 0);
        if paused {
            return;
        }
        self.after_execution(s, top.id, k);
    }

    fn after_execution(&self, s: &mut State, id: u8, k: u8) {
        let stop = self.stopped(s, id);
        let Some(item) = s.item_mut(id) else { return };
        let n = item.executions(self.rules.executions_per_instance);
        // An item that left the chain runs no further executions (359.3.e.15).
        item.phase = Phase::Resolving {
            done: if stop { n } else { k + 1 },
        };
        let controller = item.controller;
        let k = if stop { n - 1 } else { k };
        if self.rules.play_event_per_execution && k + 1 < n {
            // A wrong edit: each execution counted as a play (820.3.a says once).
            self.play_event(s, id);
        }
        if self.rules.window_between_executions && k + 1 < n {
            // A wrong edit: a priority window between executions (158.3 says none).
            s.log.push(Event::WindowOpened { item: id });
            s.priority = Some(controller);
            s.passes = 0;
        }
    }

    /// Runs the instructions of execution `k` from `from`; returns true if it paused for new
    /// choices.
    fn run_instructions(&self, s: &mut State, id: u8, k: u8, from: usize) -> bool {
        let Some(item) = s.item(id).cloned() else {
            return false;
        };
        let def = self.card(item.card);
        let ex = &item.choices[k as usize];
        let mode = &def.modes[ex.mode.unwrap_or(0) as usize];
        // Whether the previous instruction executed, for linked instructions (359.3.e.14).
        let mut prev_done = true;
        for (i, ins) in mode.instructions.iter().enumerate().skip(from) {
            if self.stopped(s, id) {
                // 359.3.e.15: it left the chain during its own resolution; it stops.
                return false;
            }
            let slot = i as u8;
            let done =
                self.run_instruction(s, &item, k, slot, ins.effect, ins.target, prev_done, i);
            if done == Outcome::Paused {
                return true;
            }
            prev_done = done == Outcome::Performed;
        }
        false
    }

    /// 359.3.e.15: an item that left the chain during its own resolution executes no further.
    fn stopped(&self, s: &State, id: u8) -> bool {
        self.rules.leaving_chain_stops_execution && s.item(id).is_none_or(|i| i.left_chain)
    }

    #[allow(clippy::too_many_arguments)]
    fn run_instruction(
        &self,
        s: &mut State,
        item: &ChainItem,
        k: u8,
        slot: u8,
        effect: Effect,
        spec: Option<TargetSpec>,
        prev_done: bool,
        index: usize,
    ) -> Outcome {
        let id = item.id;
        let controller = s.item(id).map(|i| i.controller).unwrap_or(item.controller);
        let ex = &item.choices[k as usize];
        let ignored = |s: &mut State, why| {
            s.log.push(Event::Ignored {
                item: id,
                exec: k,
                slot,
                why,
            });
            Outcome::Ignored
        };
        // Targets still legal now (359.3.e.2–4), unless a wrong rulebook affects them anyway.
        let mut legal: Vec<Obj> = vec![];
        if let Some(spec) = spec {
            let live = s.item(id).cloned().unwrap_or_else(|| item.clone());
            for obj in ex.targets(slot) {
                let ok = match obj {
                    Obj::Unit(u) => self.unit_meets(s, &live, spec, controller, u),
                    Obj::Gear(g) => {
                        let gear = &s.gear[g as usize];
                        gear.zone == Zone::Board && side_ok(spec.side, controller, gear.controller)
                    }
                    Obj::Item(t) => s
                        .item(t)
                        .is_some_and(|other| self.item_meets(other, &live, spec, controller)),
                };
                if ok || self.rules.illegal_targets == IllegalTargets::AffectedAnyway {
                    legal.push(obj);
                } else {
                    s.log.push(Event::TargetUnaffected {
                        item: id,
                        exec: k,
                        obj,
                    });
                }
            }
            if legal.is_empty() {
                return ignored(s, IgnoredWhy::TargetsIllegal);
            }
        }
        match effect {
            Effect::Deal(n) => {
                for obj in &legal {
                    self.deal(s, *obj, n);
                }
            }
            Effect::DealMight => {
                let Origin::Trigger(src) = item.origin else {
                    return ignored(s, IgnoredWhy::SourceGone);
                };
                let src = &s.units[src as usize];
                if src.zone != Zone::Board {
                    return ignored(s, IgnoredWhy::SourceGone);
                }
                let n = src.current_might();
                for obj in &legal {
                    self.deal(s, *obj, n);
                }
            }
            Effect::Kill => {
                for obj in &legal {
                    self.kill(s, *obj);
                }
            }
            Effect::Draw(_) | Effect::PlayToken(_) | Effect::BanishSelf => {
                let live = s.item(id).cloned().unwrap_or_else(|| item.clone());
                self.run_untargeted(s, &live, effect);
            }
            Effect::Move(dest) => {
                let to = ex.destination(slot);
                let mut moved = false;
                for obj in &legal {
                    if let (Obj::Unit(u), Some(to)) = (*obj, to) {
                        if self.destination_ok(s, u, to, dest) {
                            s.units[u as usize].loc = to;
                            s.log.push(Event::UnitMoved { unit: u, to });
                            moved = true;
                        }
                    }
                }
                if !moved {
                    return ignored(s, IgnoredWhy::Impossible);
                }
            }
            Effect::ItsControllerDraws(n) => {
                if self.rules.linked_instructions && !prev_done {
                    return ignored(s, IgnoredWhy::LinkedNotExecuted);
                }
                // The previous instruction's object, by its last-known controller (359.3.e.13).
                let prev = index.checked_sub(1).map(|p| p as u8);
                let who = prev
                    .and_then(|p| ex.targets(p).next())
                    .and_then(|o| match o {
                        Obj::Unit(u) => Some(s.units[u as usize].controller),
                        Obj::Gear(g) => Some(s.gear[g as usize].controller),
                        Obj::Item(_) => None,
                    });
                match who {
                    Some(p) => self.draw(s, p, n),
                    None => return ignored(s, IgnoredWhy::Impossible),
                }
            }
            Effect::GiveMight(n) => {
                for obj in &legal {
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
            Effect::Counter => {
                for obj in &legal {
                    if let Obj::Item(t) = *obj {
                        self.counter(s, t, id);
                    }
                }
            }
            Effect::GainControl => {
                for obj in &legal {
                    if let Obj::Item(t) = *obj {
                        if let Some(target) = s.item_mut(t) {
                            target.controller = controller;
                            s.log.push(Event::ControlChanged {
                                item: t,
                                to: controller,
                            });
                        }
                    }
                }
            }
            Effect::NewChoices => {
                let prev = index.checked_sub(1).map(|p| p as u8);
                let Some(Obj::Item(t)) = prev.and_then(|p| ex.targets(p).next()) else {
                    return ignored(s, IgnoredWhy::Impossible);
                };
                if !prev_done {
                    return ignored(s, IgnoredWhy::LinkedNotExecuted);
                }
                if self.rules.new_choices == NewChoicesRule::Forbidden {
                    // 355.15 (v1.2, v1.3): choices made while playing cannot change.
                    return ignored(s, IgnoredWhy::Impossible);
                }
                let Some(target) = s.item(t) else {
                    return ignored(s, IgnoredWhy::Impossible);
                };
                if target.controller != controller
                    || target.choices.iter().all(|c| c.objects().next().is_none())
                {
                    return ignored(s, IgnoredWhy::Impossible);
                }
                s.log.push(Event::Performed {
                    item: id,
                    exec: k,
                    slot,
                });
                s.log.push(Event::NewChoicesBegun { item: t });
                let top = s.item_mut(id).expect("resolving");
                top.phase = Phase::NewChoices {
                    exec: k,
                    for_item: t,
                };
                return Outcome::Paused;
            }
        }
        s.log.push(Event::Performed {
            item: id,
            exec: k,
            slot,
        });
        Outcome::Performed
    }

    /// Instructions without targets: draw, play a token, banish this.
    fn run_untargeted(&self, s: &mut State, item: &ChainItem, effect: Effect) {
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

    fn deal(&self, s: &mut State, obj: Obj, n: u8) {
        if let Obj::Unit(u) = obj {
            let unit = &mut s.units[u as usize];
            unit.damage = unit.damage.saturating_add(n);
            s.log.push(Event::Damaged { unit: u, amount: n });
            // 321: lethal damage kills in the next cleanup, never mid-resolution.
            s.cleanup_due = true;
        }
    }

    fn kill(&self, s: &mut State, obj: Obj) {
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

    fn draw(&self, s: &mut State, who: Player, n: u8) {
        let ps = &mut s.players[who.ix()];
        let n = n.min(ps.deck);
        ps.deck -= n;
        ps.hand_other += n;
        s.log.push(Event::Drew { who, n });
    }

    /// 425: the item does nothing and leaves the chain; a card goes to its owner's trash; no cost
    /// is refunded; it was finalized, so it still counts for Legion (419.4.b).
    fn counter(&self, s: &mut State, target: u8, by: u8) {
        let Some(pos) = s.chain.iter().position(|i| i.id == target) else {
            return;
        };
        let item = s.chain.remove(pos);
        if item.origin == Origin::Hand && self.rules.countered_card_to_trash {
            s.players[item.owner.ix()].trash.push(item.card);
        }
        s.log.push(Event::Countered { item: target, by });
        if self.rules.refund_on_counter {
            let ps = &mut s.players[item.controller.ix()];
            ps.pool = ps.pool.plus(&item.cost.resources);
            s.log.push(Event::Refunded { item: target });
        }
    }

    /// 359.3.d, 419.4.a, 158.3.a: the item leaves the chain; its play is complete (one play event,
    /// 820.3.a) and "when you play a spell" triggers; what it queued is placed now.
    fn finish_resolution(&self, s: &mut State) {
        let top = s.chain.last().expect("resolving").clone();
        if top.origin == Origin::Hand && !top.left_chain {
            s.players[top.owner.ix()].trash.push(top.card);
        }
        s.log.push(Event::Resolved { item: top.id });
        self.play_event(s, top.id);
        s.chain.pop();
        self.place_queued(s);
        self.after_chain_change(s);
    }

    fn play_event(&self, s: &mut State, id: u8) {
        let (card, by) = match s.item(id) {
            Some(i) => (i.card, i.controller),
            None => return,
        };
        s.log.push(Event::Played { item: id, by });
        if self.card(card).kind == CardKind::Spell {
            let watchers: Vec<(u8, CardId)> = s
                .units_on_board()
                .filter(|(_, u)| u.controller == by)
                .flat_map(|(i, u)| {
                    self.card(u.card)
                        .abilities
                        .iter()
                        .filter_map(move |a| match a {
                            Ability::WhenYouPlayASpell(c) => Some((i, *c)),
                            _ => None,
                        })
                })
                .collect();
            for (source, card) in watchers {
                s.log.push(Event::Triggered { card, source });
                s.queued.push(Queued::Trigger { card, source });
            }
        }
    }

    fn place_queued(&self, s: &mut State) {
        for q in std::mem::take(&mut s.queued) {
            match q {
                Queued::Token { controller, might } => {
                    let id = s.next_item;
                    s.next_item += 1;
                    s.chain.push(ChainItem {
                        id,
                        card: self.token,
                        origin: Origin::Token { might },
                        owner: controller,
                        controller,
                        phase: Phase::Legal,
                        repeat: InlineVec::new(),
                        accepted: Some(true),
                        choices: InlineVec::new(),
                        cost: TotalCost::default(),
                        ever_chosen: InlineVec::new(),
                        left_chain: false,
                    });
                    s.log.push(Event::MovedToChain {
                        item: id,
                        card: self.token,
                        by: controller,
                    });
                }
                Queued::Trigger { card, source } => self.put_trigger_on_chain(s, card, source),
            }
        }
    }

    /// 321: units with lethal damage die; a token that leaves the board ceases to exist.
    fn cleanup(&self, s: &mut State) {
        s.cleanup_due = false;
        s.log.push(Event::Cleanup);
        let dying: Vec<u8> = s
            .units_on_board()
            .filter(|(_, u)| u.damage > 0 && u.damage >= u.current_might())
            .map(|(i, _)| i)
            .collect();
        for u in dying {
            self.kill(s, Obj::Unit(u));
        }
        self.after_chain_change(s);
    }

    fn controls_ability(&self, s: &State, p: Player, pred: impl Fn(&Ability) -> bool) -> u8 {
        s.units_on_board()
            .filter(|(_, u)| u.controller == p && self.card(u.card).has(&pred))
            .count() as u8
    }

    // ---- New choices (750–755) ----

    /// The targets of the item whose choices may be remade, in declared order.
    fn remakeable(&self, item: &ChainItem) -> Vec<(u8, u8, Obj)> {
        let mut out = vec![];
        for (e, ex) in item.choices.iter().enumerate() {
            for p in &ex.picks {
                if let Pick::Target { slot, obj } = p {
                    out.push((e as u8, *slot, *obj));
                }
            }
        }
        out
    }

    /// How many remakeable choices have been decided since new choices began.
    fn new_choice_cursor(&self, s: &State, for_item: u8) -> usize {
        let start = s
            .log
            .iter()
            .rposition(|e| *e == Event::NewChoicesBegun { item: for_item })
            .expect("new choices began");
        s.log[start..]
            .iter()
            .filter(|e| {
                matches!(e, Event::ChoiceRemade { item, .. } | Event::ChoiceKept { item, .. } if *item == for_item)
            })
            .count()
    }

    fn new_choice_actions(&self, s: &State, id: u8, out: &mut Vec<Action>) {
        let Phase::NewChoices { for_item, .. } = s.item(id).expect("item").phase else {
            return;
        };
        let Some(target) = s.item(for_item) else {
            out.push(Action::DeclineNewChoices);
            return;
        };
        let picks = self.remakeable(target);
        let cursor = self.new_choice_cursor(s, for_item);
        if cursor == 0 {
            out.push(Action::DeclineNewChoices);
            if self.rules.new_choices_reopen_repeat {
                for (i, r) in target.repeat.iter().enumerate() {
                    if r.paid == 0 {
                        out.push(Action::ReopenRepeat { instance: i as u8 });
                    }
                }
            }
        }
        if cursor >= picks.len() {
            out.push(Action::KeepChoice); // closes the new choices
            return;
        }
        // The guide: "if you use it, all resulting choices must be legal" (753.1 agrees): with a
        // choice that has no legal option at all, only declining is possible.
        if cursor == 0 && self.rules.new_choices == NewChoicesRule::WholeSet {
            let possible = picks.iter().all(|(pe, ps, _)| {
                let ex = &target.choices[*pe as usize];
                let spec = self.card(target.card).modes[ex.mode.unwrap_or(0) as usize].instructions
                    [*ps as usize]
                    .target;
                spec.is_some_and(|spec| {
                    !self
                        .candidates(s, target, spec, target.controller)
                        .is_empty()
                })
            });
            if !possible {
                return;
            }
        }
        let (e, slot, old) = picks[cursor];
        let def = self.card(target.card);
        let ex = &target.choices[e as usize];
        let spec = def.modes[ex.mode.unwrap_or(0) as usize].instructions[slot as usize]
            .target
            .expect("target slot");
        let old_legal = self
            .candidates(s, target, spec, target.controller)
            .contains(&old);
        // 753: keep this choice. The guide remakes the whole set, so an illegal old choice
        // cannot be kept there ("you cannot reuse A").
        if self.rules.new_choices != NewChoicesRule::WholeSet || old_legal {
            out.push(Action::KeepChoice);
        }
        for obj in self.candidates(s, target, spec, target.controller) {
            let same_slot_taken = ex.targets(slot).any(|o| o == obj && o != old);
            if same_slot_taken {
                continue;
            }
            let fresh = match self.rules.new_choices_scope {
                NewChoicesScope::PerExecution => !target
                    .ever_chosen
                    .iter()
                    .any(|(pe, o)| *pe == e && *o == obj),
                NewChoicesScope::WholeItem => !target.ever_chosen.iter().any(|(_, o)| *o == obj),
            };
            // 751.1: a new choice is one not previously made; the guide allows the same again.
            let allowed = match self.rules.new_choices {
                NewChoicesRule::Subset => fresh,
                _ => obj != old || old_legal,
            };
            if allowed && !(obj == old && self.rules.new_choices == NewChoicesRule::WholeSet) {
                out.push(Action::RemakeChoice { obj });
            }
        }
    }

    fn keep_choice(&self, s: &mut State) {
        let (_, for_item) = self.new_choices_item(s);
        let picks = s
            .item(for_item)
            .map(|t| self.remakeable(t))
            .unwrap_or_default();
        let cursor = self.new_choice_cursor(s, for_item);
        if cursor >= picks.len() {
            return self.end_new_choices(s);
        }
        let (e, slot, old) = picks[cursor];
        s.log.push(Event::ChoiceKept {
            item: for_item,
            exec: e,
            slot,
        });
        if self.rules.new_choices == NewChoicesRule::WholeSet
            && self.rules.targeting_triggers == TargetingTriggers::PerChoice
        {
            // The guide: a targeting ability can trigger again even for the same target.
            if let Obj::Unit(u) = old {
                let chooser = s
                    .item(for_item)
                    .map(|t| t.controller)
                    .unwrap_or(Player::YOU);
                self.fire_when_chosen(s, u, chooser, true);
            }
        }
        if cursor + 1 >= picks.len() {
            self.end_new_choices(s);
        }
    }

    fn remake_choice(&self, s: &mut State, obj: Obj) {
        let (_, for_item) = self.new_choices_item(s);
        let picks = s
            .item(for_item)
            .map(|t| self.remakeable(t))
            .unwrap_or_default();
        let cursor = self.new_choice_cursor(s, for_item);
        let (e, slot, old) = picks[cursor];
        let target = s.item_mut(for_item).expect("target");
        let ex = &mut target.choices[e as usize];
        // Replace the old pick in place: the execution keeps its declared order.
        let mut seen = 0;
        let nth = picks[..cursor]
            .iter()
            .filter(|(pe, ps, _)| *pe == e && *ps == slot)
            .count();
        for p in ex.picks.iter_mut() {
            if let Pick::Target { slot: ps, obj: po } = p {
                if *ps == slot {
                    if seen == nth {
                        debug_assert_eq!(*po, old);
                        *po = obj;
                        break;
                    }
                    seen += 1;
                }
            }
        }
        target.ever_chosen.push((e, obj));
        let chooser = target.controller;
        s.log.push(Event::ChoiceRemade {
            item: for_item,
            exec: e,
            slot,
            obj,
        });
        // 754: a newly targeted object's Targeting Effects trigger now; 755: its Deflect is ignored.
        if let Obj::Unit(u) = obj {
            if obj != old || self.rules.new_choices == NewChoicesRule::WholeSet {
                self.fire_when_chosen(s, u, chooser, true);
            }
        }
        if cursor + 1 >= picks.len() {
            self.end_new_choices(s);
        }
    }

    fn reopen_repeat(&self, s: &mut State, instance: u8) {
        let (_, for_item) = self.new_choices_item(s);
        let target = s.item_mut(for_item).expect("target");
        target.repeat[instance as usize].paid += 1;
        target.repeat[instance as usize].decided = true;
        let copy = target.choices.last().cloned().unwrap_or_default();
        target.choices.push(copy);
        s.log.push(Event::RepeatDeclared {
            item: for_item,
            instance,
            pay: true,
        });
    }

    fn new_choices_item(&self, s: &State) -> (u8, u8) {
        s.chain
            .iter()
            .find_map(|i| match i.phase {
                Phase::NewChoices { for_item, .. } => Some((i.id, for_item)),
                _ => None,
            })
            .expect("an item making new choices")
    }

    fn end_new_choices(&self, s: &mut State) {
        let (id, for_item) = self.new_choices_item(s);
        let Phase::NewChoices { exec, .. } = s.item(id).expect("item").phase else {
            unreachable!()
        };
        s.log.push(Event::NewChoicesEnded { item: for_item });
        s.item_mut(id).expect("item").phase = Phase::Resolving { done: exec };
        // The permission is the item's last instruction (the catalogue checks it), so the
        // execution is complete.
        self.after_execution(s, id, exec);
    }
}

/// What a choice slot still needs.
enum SlotNeed {
    Target(u8, TargetSpec),
    Destination(u8, Destination),
}

/// How an instruction went.
#[derive(PartialEq, Eq)]
enum Outcome {
    Performed,
    Ignored,
    Paused,
}

fn side_ok(side: Side, controller: Player, owner: Player) -> bool {
    match side {
        Side::Any => true,
        Side::Enemy => owner != controller,
        Side::Friendly => owner == controller,
    }
}

/// Every way to take `n` any-domain Power from the domains' `left` Power, as PayCosts actions.
fn splits(n: u8, d: usize, left: &[u8; 6], cur: &mut [u8; 6], out: &mut Vec<Action>) {
    if n == 0 {
        out.push(Action::PayCosts { any: *cur });
        return;
    }
    if d == 6 {
        return;
    }
    for take in (0..=n.min(left[d])).rev() {
        cur[d] = take;
        splits(n - take, d + 1, left, cur, out);
    }
    cur[d] = 0;
}

/// Convenience for tests and tools: every domain's index.
pub fn domain_index(d: Domain) -> usize {
    d as usize
}
