//! The transition relation: for each step of playing, paying for and resolving a chain item, its
//! guard (what `Game::actions` lists) and its effect (what `Game::step` does), following rules
//! 349–359, the chain (332–340), costs (356–357), counters (425), new choices (750–755) and
//! [Repeat] (820).
//!
//! This module holds what every rule area shares: the `Game`, a scenario's initial state, the
//! scheduler that says whose step comes next (`turn`), and the dispatch from an action to its
//! effect. Each step's guard and effect sit together in the module of its rule area:
//!
//! - `play`: putting an item on the chain and making its choices (354–355, 402.1, 820.1–2);
//! - `target`: which objects and destinations a choice may name (355.4–355.14);
//! - `cost`: determining and paying the total cost (356–357);
//! - `finalize`: checking legality, undoing a failed play, finalizing (358–359, 383.4.b.2);
//! - `resolve`: priority, resolution and cleanup (321, 337–340, 359.3.d, 820.3);
//! - `instruction`: executing one instruction (359.3.e, 425);
//! - `new_choices`: making new choices for a finalized item (750–755);
//! - `decide`: decisions inside an execution: the deck looked at, a demand to pay (416, 425);
//! - `turn`: the turn around the plays: the open state after a chain closes, ending the turn;
//! - `forced`: which states' one action is a procedure step no player chooses (for the checker).
//!
//! The model knows nothing about how it is explored: it only answers "what may happen next" and
//! "what happens then".

mod activate;
mod combat;
mod cost;
mod decide;
mod discard;
mod finalize;
mod forced;
mod instruction;
mod new_choices;
mod play;
mod refused;
mod resolve;
mod resolve_discard;
mod rider;
mod runes;
mod target;
mod turn;
mod unit_cost;

pub use refused::{demand_payer, Refusal, UndonePlay};

use crate::action::Action;
use crate::card::{Ability, CardDef, CardId, CardKind, Timing};
use crate::cost::Cost;
use crate::rulebook::{Rulebook, Rules};
use crate::setup::Setup;
use crate::state::*;

/// The rules and the card table: everything fixed while a scenario is explored.
#[derive(Clone, Debug)]
pub struct Game {
    /// The rules played by, each field's reads recorded (`Rules`).
    pub rules: Rules,
    /// The card and ability definitions.
    pub cards: Vec<CardDef>,
    /// The definition used for unit tokens played by effects.
    pub token: CardId,
    /// Whether a card or activation whose play was undone may be tried again, as 358.5 allows
    /// (the card is back in hand, nothing was paid). Off by default: exhaustive exploration keeps
    /// a bound there so that undoing cannot loop; a replay follows a case's statements, which
    /// end, so it turns this on.
    pub retry_undone: bool,
}

/// Who acts next, derived from the state.
enum Turn {
    /// The scenario is over.
    Over,
    /// The resolving item with this id runs its next step.
    Resolving(u8),
    /// The item with this id is paused for new choices.
    NewChoices(u8),
    /// The item with this id is paused for a decision inside an execution (`decide`).
    Deciding(u8),
    /// A cleanup is outstanding.
    Cleanup,
    /// The oldest pending item (this id) continues its play steps.
    Pending(u8),
    /// This player holds priority.
    Priority(Player),
    /// Everyone passed: the newest finalized item resolves.
    Resolve,
}

/// Where the item being played sits on the chain: the oldest pending item.
///
/// Invariant: the play steps (DecideOptional up to Finalize, and CancelPlay) are enabled only when
/// `Game::turn` found a pending item (`Turn::Pending`), and their effects run on that state; so the
/// item is there. A missing one is a bug in a guard, not a state the model can reach.
#[inline]
fn pending_index(s: &State) -> usize {
    s.chain
        .iter()
        .position(|i| i.is_pending())
        .expect("a play step runs only while an item is pending")
}

/// The item being played (see [`pending_index`]).
#[inline]
fn pending(s: &State) -> &ChainItem {
    &s.chain[pending_index(s)]
}

/// The item being played, mutably (see [`pending_index`]).
#[inline]
fn pending_mut(s: &mut State) -> &mut ChainItem {
    let i = pending_index(s);
    &mut s.chain[i]
}

/// The chain item `id`, which this step's guard or the step itself found on the chain.
///
/// Invariant: nothing since removed the item; a missing one is a bug in the step, not a state the
/// model can reach.
#[inline]
fn on_chain(s: &State, id: u8) -> &ChainItem {
    s.item(id)
        .expect("an item found on the chain in this step is still on it")
}

/// [`on_chain`], mutably; the same invariant.
#[inline]
fn on_chain_mut(s: &mut State, id: u8) -> &mut ChainItem {
    s.item_mut(id)
        .expect("an item found on the chain in this step is still on it")
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
                    tags: vec![],
                    synthetic: false,
                    source: "a unit token played by an effect (e.g. Desert's Call's Sand Soldier)"
                        .into(),
                    printed: Default::default(),
                    optional_costs: vec![],
                    additional_costs: vec![],
                });
                (cards.len() - 1) as CardId
            }
        };
        Game {
            rules: Rules::new(rules),
            cards,
            token,
            retry_undone: false,
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
                owner: u.owner.unwrap_or(u.controller),
                controller: u.controller,
                loc: u.loc,
                zone: Zone::Board,
                might: self.card(u.card).might,
                might_mod: 0,
                damage: u.damage,
                status: u.status,
            })
            .collect();
        // "Temporal Portal was activated this turn" (`portal_charged`): the activation paid its
        // "[E]", so the player's first Portal on the board starts exhausted; other gear ready.
        let mut spent = setup.players.each_ref().map(|p| p.portal_charged);
        let gear = setup
            .gear
            .iter()
            .map(|g| {
                let portal = self
                    .card(g.card)
                    .has(|a| matches!(a, Ability::GrantRepeatToNextSpell));
                let exhausted = portal && std::mem::take(&mut spent[g.controller.ix()]);
                Gear {
                    card: g.card,
                    controller: g.controller,
                    zone: Zone::Board,
                    exhausted,
                }
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
            portal_grants: u8::from(p.portal_charged),
            near_victory: p.near_victory,
            deck_top: p.deck_top.iter().copied().collect(),
            recycled: InlineVec::new(),
            runes_exhausted: 0,
            academy_grants: u8::from(p.academy_charged),
            runes: p.runes.as_ref().map(RunesSetup::to_runes),
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
            showdown: setup.showdown || setup.showdown_at.is_some(),
            showdown_at: setup.showdown_at,
            cleanup_due: false,
            started: false,
            turn: TurnState {
                plays_left: setup.turn.plays,
                ends: setup.turn.ends(),
            },
            start: Start {
                pools: [Cost::ZERO; 2],
                runes: [None, None],
                cards: [0; 2],
                grants: [[0; 2]; 2],
            },
            log: Log::new(),
        };
        s.start = Start {
            pools: [s.players[0].pool, s.players[1].pool],
            runes: [s.players[0].runes.clone(), s.players[1].runes.clone()],
            cards: s.cards(),
            grants: s.players.clone().map(|p| Grant::ALL.map(|g| g.held(&p))),
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

    /// Who acts next. The order of the checks is the rules' order of precedence: new choices
    /// pause everything (750); a resolving item runs its executions with no window between them
    /// (158.3, 820.3); cleanup comes before anything else happens (321); a pending item's play
    /// steps run before anyone has priority (354–359); then priority (338–339), then resolution
    /// (340).
    fn turn(&self, s: &State) -> Turn {
        if s.is_over() {
            return Turn::Over;
        }
        if let Some(item) = s.chain.iter().rev().find(|i| i.phase.is_paused()) {
            return match item.phase {
                Phase::NewChoices { .. } => Turn::NewChoices(item.id),
                _ => Turn::Deciding(item.id),
            };
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
        if self.cleanup_outstanding(s) {
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

    /// The actions enabled in `s`, in a fixed order. Each rule area lists its own steps; this
    /// only says whose turn it is.
    pub fn actions(&self, s: &State, out: &mut Vec<Action>) {
        match self.turn(s) {
            Turn::Over => {}
            Turn::Resolving(id) => self.resolving_actions(s, id, out),
            Turn::NewChoices(id) => self.new_choice_actions(s, id, out),
            Turn::Deciding(id) => self.decision_actions(s, id, out),
            Turn::Cleanup => out.push(Action::Cleanup),
            Turn::Pending(id) => {
                let item = on_chain(s, id);
                match item.phase {
                    Phase::Choosing => self.choice_actions(s, item, out),
                    Phase::Chosen | Phase::Costed => self.cost_actions(s, item, out),
                    Phase::Paid if item.cost.discard > 0 => self.discard_actions(s, item, out),
                    Phase::Paid if item.cost.exhaust + item.cost.kill > 0 => {
                        self.unit_cost_actions(s, item, out)
                    }
                    Phase::Paid | Phase::Legal => self.legality_actions(item, out),
                    _ => unreachable!("not pending"),
                }
            }
            Turn::Priority(p) => {
                self.pass_actions(s, out);
                self.move_to_chain_actions(s, p, out);
                self.end_turn_actions(s, p, out);
                self.activate_actions(s, p, out);
            }
            Turn::Resolve => out.push(Action::Resolve),
        }
    }

    /// Whether `a` is enabled in `s`, i.e. listed by [`Game::actions`]: the guard every effect
    /// relies on (an effect applied without it may find nothing to act on, e.g. no item paused
    /// for DrawLooked's decision).
    pub fn is_enabled(&self, s: &State, a: &Action) -> bool {
        let mut buf = Vec::new();
        self.actions(s, &mut buf);
        buf.contains(a)
    }

    /// The state after `a`, or `None` if `a` is not enabled here.
    pub fn next_state(&self, s: &State, a: &Action) -> Option<State> {
        self.is_enabled(s, a).then(|| self.step(s, a))
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

    /// The effect of an enabled action; each lives beside its guard in its rule area's module.
    fn apply(&self, s: &mut State, a: Action) {
        match a {
            Action::MoveToChain { player, hand } => self.move_to_chain(s, player, hand),
            Action::DecideOptional { accept } => self.decide_optional(s, accept),
            Action::DeclareRepeat { instance, pay } => self.declare_repeat(s, instance, pay),
            Action::ChooseMode { exec, mode } => self.choose_mode(s, exec, mode),
            Action::ChooseTarget { exec, slot, obj } => self.choose_target(s, exec, slot, obj),
            Action::EndTargets { exec, slot } => self.end_targets(s, exec, slot),
            Action::ChooseDestination { exec, slot, to } => {
                self.choose_destination(s, exec, slot, to)
            }
            Action::DetermineTotalCost => self.determine_total_cost(s),
            Action::PayCosts { any } => self.pay_costs(s, any),
            Action::ExhaustRune { domain } => match self.demanding_item(s) {
                Some(id) => self.exhaust_for_demand(s, id, domain),
                None => self.exhaust_rune(s, domain),
            },
            Action::RecycleRune { domain } => self.recycle_rune(s, domain),
            Action::CancelPlay { why } => self.cancel_play(s, why),
            Action::CheckLegality => self.check_legality(s),
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
            Action::DrawLooked { index } => self.draw_looked(s, index),
            Action::RecycleLooked { index } => self.recycle_looked(s, index),
            Action::PayDemand { pay } => self.pay_demand(s, pay),
            Action::DeclareOptionalCost { index, pay } => self.declare_optional(s, index, pay),
            Action::ChooseLocation { to } => self.choose_location(s, to),
            Action::ChooseReduction { component, less } => {
                self.choose_reduction(s, component, less)
            }
            Action::OrderDiscount { source } => self.order_discount(s, source),
            Action::DiscardForCost { card } => match self.discarding_item(s) {
                Some(id) => self.discard_chosen(s, id, card),
                None => self.discard_for_cost(s, card),
            },
            Action::ExhaustForCost { unit } => self.exhaust_for_cost(s, unit),
            Action::KillForCost { unit } => self.kill_for_cost(s, unit),
            Action::EndTurn => self.end_turn(s),
            Action::ActivateAbility { gear } => self.activate(s, gear),
        }
    }

    /// How many units on the board `p` controls with an ability matching `pred`.
    fn controls_ability(&self, s: &State, p: Player, pred: impl Fn(&Ability) -> bool) -> u8 {
        s.units_on_board()
            .filter(|(_, u)| u.controller == p && self.card(u.card).has(&pred))
            .count() as u8
    }
}
