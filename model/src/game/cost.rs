//! Costs: determining the total cost (356) and paying it (357). The total is the base cost, then
//! the additional costs (Deflect, 356.2.a.2; each paid [Repeat] instance as a component with its
//! own discounts, 356.2.b, 356.4.c), then whole-card discounts once (356.4.d), floored at 0
//! (356.6). Each step's guard sits above its effect.

use super::{pending, pending_mut, Game};
use crate::action::Action;
use crate::card::{Ability, AdditionalCost, CardKind, Condition, Per, RepeatCost};
use crate::cost::{Cost, Domain};
use crate::rulebook::{DeflectRule, EzrealScope};
use crate::state::*;

/// The reducers of [Repeat] components a player has on the board.
#[derive(Clone, Copy)]
struct RepeatReducers {
    /// Units with Ezreal's "optional costs cost [1] or [A] less".
    ezreal: u8,
    /// Energy off each [Repeat] cost from controlled battlefields (Marai Spire).
    spire: u8,
}

/// The most whole-card discounts the payer orders (`ChainItem::discount_order` holds one fewer):
/// with more, they apply in board order, a bound of the model (no catalogue board comes near it).
const MAX_ORDERED: usize = 8;

/// A whole-card discount that applies to an item (356.4.d): where it comes from, the Energy it
/// takes off, and the floor that belongs to it (356.4.e; 0 for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WholeCard {
    source: DiscountSource,
    energy: u8,
    min: u8,
}

impl WholeCard {
    /// Takes the discount off `total`'s Energy, no lower than its own floor (356.4.e) nor 0
    /// (356.6); returns how much it took.
    fn apply(&self, total: &mut Cost) -> u8 {
        let room = total.energy.saturating_sub(self.min);
        total.reduce_energy(self.energy.min(room))
    }
}

/// True if applying `left` to `energy` in some order gives another total than another order
/// (356.4.e: "order matters" with a floor). Alike discounts (same Energy, same floor) are
/// one choice, so a board of many alike units costs no more than one.
fn order_matters(energy: u8, left: &[WholeCard]) -> bool {
    fn walk(energy: u8, left: &[(u8, u8)], seen: &mut Option<u8>) -> bool {
        if left.is_empty() {
            return *seen.get_or_insert(energy) != energy;
        }
        for k in 0..left.len() {
            if left[..k].contains(&left[k]) {
                continue;
            }
            let mut rest = left.to_vec();
            let (n, min) = rest.remove(k);
            if walk(energy - n.min(energy.saturating_sub(min)), &rest, seen) {
                return true;
            }
        }
        false
    }
    let alike: Vec<(u8, u8)> = left.iter().map(|d| (d.energy, d.min)).collect();
    walk(energy, &alike, &mut None)
}

/// Takes "[1] or [A] less" off `c`: the Energy if it has any, else one Power; returns how much.
fn one_or_any_less(c: &mut Cost) -> u8 {
    if c.reduce_energy(1) == 1 {
        1
    } else {
        c.reduce_one_power() as u8
    }
}

impl Game {
    /// DetermineTotalCost's guard (356): the pending item's choices are all made. PayCosts' guard
    /// (357): each way to pay the determined cost from the pool, then each rune that may add to
    /// the pool (357.1.a, `runes`); with none, the play is undone (358.5), as it is when the cost
    /// could be paid only by killing a unit the item chose (358.1, `kills_only_chosen`).
    pub(super) fn cost_actions(&self, s: &State, item: &ChainItem, out: &mut Vec<Action>) {
        if item.phase == Phase::Chosen {
            if let Some(component) = self.reduction_to_choose(s, item) {
                for less in [Reduction::Energy, Reduction::Power] {
                    out.push(Action::ChooseReduction { component, less });
                }
                return;
            }
            let first = self.discounts_to_order(s, item);
            if !first.is_empty() {
                out.extend(
                    first
                        .into_iter()
                        .map(|source| Action::OrderDiscount { source }),
                );
                return;
            }
            return out.push(Action::DetermineTotalCost);
        }
        if self.unit_costs_payable(s, item) && self.kills_only_chosen(s, item) {
            return self.cancel(out, CancelWhy::TargetsIllegal);
        }
        self.payment_options(s, item, out);
        self.rune_actions(s, item, out);
        if out.is_empty() {
            self.cancel(out, CancelWhy::CannotPay);
        }
    }

    /// DetermineTotalCost's effect (356): base cost, then additional costs (Deflect per choice,
    /// 809.1.c; each paid [Repeat] instance with its component discounts as it is added,
    /// 356.4.c), then whole-card discounts once (356.4.d), floored at 0 (356.6).
    pub(super) fn determine_total_cost(&self, s: &mut State) {
        let item = pending(s).clone();
        let id = item.id;
        let mut events = vec![];
        let (mut total, cost, reducers) = self.cost_before_whole_card(s, &item, &mut events);
        let discard = cost.discard;
        for d in self.whole_card_in_order(s, &item) {
            let amount = d.apply(&mut total);
            events.push(Event::DiscountApplied {
                item: id,
                source: d.source,
                amount,
            });
        }
        s.log.extend(events);
        s.log.push(Event::CostDetermined {
            item: id,
            total,
            discard,
        });
        let item = pending_mut(s);
        item.cost = TotalCost {
            resources: total,
            ..cost
        };
        if !self.rules.zero_cost_counts_as_paid() {
            self.zero_cost_not_paid(item, reducers);
        }
        item.phase = Phase::Costed;
    }

    /// 356.1-356.4.c: the base cost, Deflect, the [Repeat] components with their component
    /// discounts, the mandatory costs that are not Energy or Power, and the increases (356.3):
    /// the total before the whole-card discounts, with the rest of the cost and the [Repeat]
    /// reducers.
    fn cost_before_whole_card(
        &self,
        s: &State,
        item: &ChainItem,
        events: &mut Vec<Event>,
    ) -> (Cost, TotalCost, RepeatReducers) {
        // 403.1: an activated ability's base cost is its activation cost.
        let mut total = if matches!(item.origin, Origin::Hand | Origin::Activated(_)) {
            self.card(item.card).cost
        } else {
            Cost::ZERO
        };
        self.add_deflect(s, item, &mut total, events);
        let reducers = self.repeat_reducers(s, item.controller);
        let (repeat_discard, pooled) =
            self.add_repeat_components(item, reducers, &mut total, events);
        let mut cost = self.add_mandatory_costs(item, events);
        cost.discard = cost.discard.saturating_add(repeat_discard);
        self.add_increases(s, item, &mut total, events);
        // v1.2 §353: the components' discounts come off the total, after the increases.
        if !self.rules.component_discounts() {
            discount_total(item.id, &mut total, pooled, events);
        }
        (total, cost, reducers)
    }

    /// 356.3: cost increases, after the additional costs and before the discounts: each unit
    /// of another player that the item chose and that says "spells and abilities your opponents
    /// control that choose me cost [N] more", for each choice of it or, under a rulebook that
    /// says so, once per item.
    fn add_increases(
        &self,
        s: &State,
        item: &ChainItem,
        total: &mut Cost,
        events: &mut Vec<Event>,
    ) {
        let mut seen: Vec<u8> = vec![];
        for obj in item.choices.iter().flat_map(|ex| ex.objects()) {
            let Obj::Unit(u) = obj else { continue };
            let unit = &s.units[u as usize];
            if unit.controller == item.controller
                || (!self.rules.increase_per_choice() && seen.contains(&u))
            {
                continue;
            }
            seen.push(u);
            for a in &self.card(unit.card).abilities {
                if let Ability::ChoosersPayMore(n) = *a {
                    total.energy = total.energy.saturating_add(n);
                    events.push(Event::CostIncreased {
                        item: item.id,
                        unit: u,
                        amount: n,
                    });
                }
            }
        }
    }

    /// 356.2.a.2: Deflect is a mandatory additional cost, for each opponent's choice of a unit
    /// with it (809.1.c), or once per unit under a rulebook that says so.
    fn add_deflect(&self, s: &State, item: &ChainItem, total: &mut Cost, events: &mut Vec<Event>) {
        let mut seen: Vec<u8> = vec![];
        for ex in &item.choices {
            for obj in ex.objects() {
                if let Obj::Unit(u) = obj {
                    let unit = &s.units[u as usize];
                    let d = self.card(unit.card).deflect();
                    if d == 0 || unit.controller == item.controller {
                        continue;
                    }
                    if self.rules.deflect() == DeflectRule::PerItem && seen.contains(&u) {
                        continue;
                    }
                    seen.push(u);
                    total.any = total.any.saturating_add(d);
                    events.push(Event::DeflectAdded {
                        item: item.id,
                        unit: u,
                        amount: d,
                    });
                }
            }
        }
    }

    /// What reduces `controller`'s [Repeat] components now: Ezreal on the board, Marai Spire on
    /// a controlled battlefield.
    fn repeat_reducers(&self, s: &State, controller: Player) -> RepeatReducers {
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
        RepeatReducers { ezreal, spire }
    }

    /// 356.2.b: the optional additional costs the player chose, each [Repeat] payment a
    /// component, discounted as it is added (356.4.c) or, under v1.2, from the total (§353).
    /// Returns the cards to discard.
    fn add_repeat_components(
        &self,
        item: &ChainItem,
        reducers: RepeatReducers,
        total: &mut Cost,
        events: &mut Vec<Event>,
    ) -> (u8, Cost) {
        let id = item.id;
        let mut discard = 0u8;
        let mut pooled_discount = Cost::ZERO;
        let mut ezreal_used = 0u8;
        for (ii, inst) in item.repeat.iter().enumerate() {
            let less = inst.less;
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
                        let ez = reducers.ezreal > 0
                            && (self.rules.ezreal_scope() == EzrealScope::EachCost
                                || ezreal_used == 0);
                        if ez {
                            ezreal_used += 1;
                        }
                        if self.rules.component_discounts() {
                            let ez = ez.then_some(less);
                            discount_component(id, &mut component, reducers.spire, ez, events);
                        } else {
                            // v1.2 §353: discounts apply to the total, in any order.
                            pooled_discount.energy += reducers.spire;
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
                        *total = total.plus(&component);
                    }
                }
            }
        }
        for (oi, o) in item.optional.iter().enumerate() {
            if !o.paid {
                continue;
            }
            let mut component = self.card(item.card).optional_costs[oi].cost;
            let ez = reducers.ezreal > 0
                && (self.rules.ezreal_scope() == EzrealScope::EachCost || ezreal_used == 0);
            if ez {
                ezreal_used += 1;
            }
            if self.rules.component_discounts() {
                discount_component(id, &mut component, 0, ez.then_some(o.less), events);
            } else if ez {
                pooled_discount.any += 1;
            }
            events.push(Event::OptionalCostAdded {
                item: id,
                index: oi as u8,
                cost: component,
            });
            *total = total.plus(&component);
        }
        (discard, pooled_discount)
    }

    /// The components Ezreal's "[1] or [A] less" applies to, in the order they are added
    /// (paid [Repeat] instances, then paid optional costs), each with what it costs before that
    /// discount and the reduction chosen for it; only under component discounts (356.4.c).
    fn ezreal_components(
        &self,
        s: &State,
        item: &ChainItem,
    ) -> Vec<(Component, Cost, Option<Reduction>)> {
        let reducers = self.repeat_reducers(s, item.controller);
        if reducers.ezreal == 0 || !self.rules.component_discounts() {
            return vec![];
        }
        let mut out = vec![];
        for (ii, inst) in item.repeat.iter().enumerate() {
            if let (RepeatCost::Pay(mut c), true) = (inst.cost, inst.paid > 0) {
                c.reduce_energy(reducers.spire);
                out.push((Component::Repeat(ii as u8), c, inst.less));
            }
        }
        for (oi, o) in item.optional.iter().enumerate() {
            if o.paid {
                let c = self.card(item.card).optional_costs[oi].cost;
                out.push((Component::Optional(oi as u8), c, o.less));
            }
        }
        if self.rules.ezreal_scope() != EzrealScope::EachCost {
            out.truncate(1);
        }
        out
    }

    /// ChooseReduction's guard (356.4.c): the first component Ezreal reduces that has both
    /// Energy and Power and whose reduction is not chosen yet; when only one part can be taken
    /// the choice is not a choice, and none is asked.
    fn reduction_to_choose(&self, s: &State, item: &ChainItem) -> Option<Component> {
        self.ezreal_components(s, item)
            .into_iter()
            .find(|(_, c, less)| less.is_none() && c.energy > 0 && c.power_total() > 0)
            .map(|(k, _, _)| k)
    }

    /// ChooseReduction's effect (356.4.c): "[1] or [A] less" is the payer's choice.
    pub(super) fn choose_reduction(&self, s: &mut State, component: Component, less: Reduction) {
        let item = pending_mut(s);
        let id = item.id;
        match component {
            Component::Repeat(i) => item.repeat[i as usize].less = Some(less),
            Component::Optional(i) => item.optional[i as usize].less = Some(less),
        }
        s.log.push(Event::ReductionChosen {
            item: id,
            component,
            less,
        });
    }

    /// 356.4.d: the whole-card discounts that apply to `item` now, in board order: the card's
    /// own (once per play, the Temporal Portal FAQ, or once per execution under a wrong
    /// rulebook), then each friendly unit's "spells you play cost less". Only a card played from
    /// hand has them (a copy or a trigger has no cost of its own to discount).
    fn whole_card_discounts(&self, s: &State, item: &ChainItem) -> Vec<WholeCard> {
        let mut out = vec![];
        if item.origin != Origin::Hand {
            return out;
        }
        let def = self.card(item.card);
        if let Some(d) = def.discount {
            let applies = match d.when {
                Condition::Always => true,
                Condition::OpponentNearVictory => {
                    s.players[item.controller.other().ix()].near_victory
                }
                Condition::Showdown => s.showdown,
            };
            let count = match d.per {
                Per::Once => 1,
                Per::CardPlayedThisTurn => s.players[item.controller.ix()].finalized_this_turn,
                Per::HighestFriendlyMight => s
                    .units_on_board()
                    .filter(|(_, u)| u.controller == item.controller)
                    .map(|(_, u)| u.current_might())
                    .max()
                    .unwrap_or(0),
            };
            let times = if self.rules.discount_per_execution() {
                item.executions(self.rules.executions_per_instance())
            } else {
                1
            };
            if applies {
                for _ in 0..times {
                    out.push(WholeCard {
                        source: DiscountSource::SelfDiscount,
                        energy: d.energy.saturating_mul(count),
                        min: d.min,
                    });
                }
            }
        }
        if def.kind == CardKind::Spell {
            for (u, unit) in s.units_on_board() {
                if unit.controller != item.controller {
                    continue;
                }
                for a in &self.card(unit.card).abilities {
                    if let Ability::SpellsCostLess { energy, min } = *a {
                        out.push(WholeCard {
                            source: DiscountSource::Unit(u),
                            energy,
                            min,
                        });
                    }
                }
            }
        }
        out
    }

    /// The whole-card discounts in the order they apply: those the payer put first (356.4.e),
    /// then the rest in board order (their order cannot change the total).
    fn whole_card_in_order(&self, s: &State, item: &ChainItem) -> Vec<WholeCard> {
        let mut left = self.whole_card_discounts(s, item);
        let mut out = Vec::with_capacity(left.len());
        for source in item.discount_order.iter() {
            if let Some(k) = left.iter().position(|d| d.source == *source) {
                out.push(left.remove(k));
            }
        }
        out.extend(left);
        out
    }

    /// OrderDiscount's guard (356.4.d-e): the whole-card discounts not yet ordered, when two or
    /// more are left and the order they apply in changes the total (only a floor of a
    /// discount's own can do that); one of each kind where two are alike. With more than
    /// `MAX_ORDERED` in all, none is asked: they follow in board order.
    fn discounts_to_order(&self, s: &State, item: &ChainItem) -> Vec<DiscountSource> {
        if item.origin != Origin::Hand {
            return vec![];
        }
        let all = self.whole_card_in_order(s, item);
        if all.len() > MAX_ORDERED {
            return vec![];
        }
        let (done, left) = all.split_at(item.discount_order.len().min(all.len()));
        if left.len() < 2 || left.iter().all(|d| d.min == 0) {
            return vec![];
        }
        let (mut total, _, _) = self.cost_before_whole_card(s, item, &mut vec![]);
        for d in done {
            d.apply(&mut total);
        }
        if !order_matters(total.energy, left) {
            return vec![];
        }
        let mut out: Vec<DiscountSource> = vec![];
        for (k, d) in left.iter().enumerate() {
            if !left[..k]
                .iter()
                .any(|e| e.energy == d.energy && e.min == d.min)
            {
                out.push(d.source);
            }
        }
        out
    }

    /// OrderDiscount's effect (356.4.e): the discount applies before those not yet ordered.
    pub(super) fn order_discount(&self, s: &mut State, source: DiscountSource) {
        let item = pending_mut(s);
        item.discount_order.push(source);
        let id = item.id;
        s.log.push(Event::DiscountOrdered { item: id, source });
    }

    /// A wrong edit: an optional cost reduced to 0 no longer counts as paid (356.4.f.1 says it
    /// does), so the execution it would give is dropped.
    fn zero_cost_not_paid(&self, item: &mut ChainItem, reducers: RepeatReducers) {
        for inst in item.repeat.iter_mut() {
            if let RepeatCost::Pay(c) = inst.cost {
                let mut reduced = c;
                reduced.reduce_energy(reducers.spire);
                if reducers.ezreal > 0 {
                    one_or_any_less(&mut reduced);
                }
                if reduced.is_zero() {
                    inst.paid = 0;
                }
            }
        }
        let n = item.executions(self.rules.executions_per_instance()) as usize;
        item.choices.truncate(n);
    }

    /// 357: the ways to pay the determined cost from the pool; any-domain Power may come from
    /// any domain with Power left, Power of the card's domains ([C] on a multi-domain card,
    /// 135.2.e.6.c) from one of those, and each distinct split is its own choice.
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
        if !self.unit_costs_payable(s, item) {
            return;
        }
        let own = domain_mask(&self.card(item.card).domains);
        let mut ways = vec![];
        for o in splits(need.own, own, left) {
            let rest: [u8; 6] = std::array::from_fn(|d| left[d] - o[d]);
            for a in splits(need.any, ALL_DOMAINS, rest) {
                let way: [u8; 6] = std::array::from_fn(|d| o[d] + a[d]);
                if !ways.contains(&way) {
                    ways.push(way);
                }
            }
        }
        out.extend(ways.into_iter().map(|any| Action::PayCosts { any }));
    }

    /// 356.2.a: the card's mandatory additional costs that are not Energy or Power: cards to
    /// discard and units to exhaust or kill (356.7), as a total cost without resources.
    fn add_mandatory_costs(&self, item: &ChainItem, events: &mut Vec<Event>) -> TotalCost {
        let mut cost = TotalCost::default();
        for c in &self.card(item.card).additional_costs {
            match *c {
                AdditionalCost::Discard(n) => {
                    cost.discard = cost.discard.saturating_add(n);
                    events.push(Event::AdditionalCostAdded {
                        item: item.id,
                        discard: n,
                    });
                }
                AdditionalCost::ExhaustFriendlyUnit => {
                    cost.exhaust = cost.exhaust.saturating_add(1)
                }
                AdditionalCost::KillFriendlyUnit { min_might } => {
                    cost.kill = cost.kill.saturating_add(1);
                    cost.kill_might = cost.kill_might.max(min_might);
                }
                AdditionalCost::ExhaustMe => cost.exhaust_me = true,
            }
        }
        cost
    }

    /// PayCosts' effect (357.1): Energy and Power together, and "exhaust me"; the cards to
    /// discard and the units to exhaust or kill are chosen next, one at a time (357.2,
    /// `discard`, `unit_cost`).
    pub(super) fn pay_costs(&self, s: &mut State, any: [u8; 6]) {
        let item = pending(s);
        let (id, controller, need) = (item.id, item.controller, item.cost);
        let ps = &mut s.players[controller.ix()];
        let mut paid = Cost {
            energy: need.resources.energy,
            power: need.resources.power,
            ..Cost::ZERO
        };
        for (p, a) in paid.power.iter_mut().zip(any) {
            *p += a;
        }
        ps.pool.energy -= paid.energy;
        for d in 0..6 {
            ps.pool.power[d] -= paid.power[d];
        }
        let item = pending_mut(s);
        // From here `discard` counts the cards still to discard (357.2).
        item.cost = TotalCost {
            resources: paid,
            ..need
        };
        item.phase = Phase::Paid;
        s.log.push(Event::CostPaid {
            item: id,
            paid,
            discarded: need.discard,
        });
        self.exhaust_me(s);
        self.forced_payments(s);
    }
}

/// 356.4.c: a component's own discounts as it is added: Marai Spire's Energy off, then
/// Ezreal's "[1] or [A] less" (`ez`: it applies, with the part its payer chose, if a choice was
/// needed).
fn discount_component(
    id: u8,
    component: &mut Cost,
    spire: u8,
    ez: Option<Option<Reduction>>,
    events: &mut Vec<Event>,
) {
    if spire > 0 {
        let t = component.reduce_energy(spire);
        discounted(events, id, DiscountSource::MaraiSpire, t);
    }
    if let Some(less) = ez {
        let t = match less {
            Some(Reduction::Power) => component.reduce_one_power() as u8,
            Some(Reduction::Energy) => component.reduce_energy(1),
            None => one_or_any_less(component),
        };
        discounted(events, id, DiscountSource::Ezreal, t);
    }
}

/// v1.2 §353: the components' discounts pooled and taken off the total instead.
fn discount_total(id: u8, total: &mut Cost, pooled: Cost, events: &mut Vec<Event>) {
    if pooled.energy > 0 {
        let t = total.reduce_energy(pooled.energy);
        discounted(events, id, DiscountSource::MaraiSpire, t);
    }
    for _ in 0..pooled.any {
        let t = one_or_any_less(total);
        discounted(events, id, DiscountSource::Ezreal, t);
    }
}

/// Every domain, as a mask for [`splits`].
const ALL_DOMAINS: u8 = 0b11_1111;

/// The domains of `domains` as a mask, bit `Domain as usize` set for each.
pub(super) fn domain_mask(domains: &[Domain]) -> u8 {
    domains.iter().fold(0, |m, d| m | 1 << *d as usize)
}

/// Every way to take `n` Power from the `left` Power of the domains in `mask`, most from the
/// first domain first.
fn splits(n: u8, mask: u8, left: [u8; 6]) -> Vec<[u8; 6]> {
    fn go(n: u8, d: usize, mask: u8, left: &[u8; 6], cur: &mut [u8; 6], out: &mut Vec<[u8; 6]>) {
        if n == 0 {
            return out.push(*cur);
        }
        if d == 6 {
            return;
        }
        let most = if mask >> d & 1 == 1 {
            n.min(left[d])
        } else {
            0
        };
        for take in (0..=most).rev() {
            cur[d] = take;
            go(n - take, d + 1, mask, left, cur, out);
        }
        cur[d] = 0;
    }
    let mut out = vec![];
    go(n, 0, mask, &left, &mut [0; 6], &mut out);
    out
}

/// Logs a discount that took something off (a discount that found nothing to reduce is silent).
#[inline]
fn discounted(events: &mut Vec<Event>, item: u8, source: DiscountSource, amount: u8) {
    if amount > 0 {
        events.push(Event::DiscountApplied {
            item,
            source,
            amount,
        });
    }
}
