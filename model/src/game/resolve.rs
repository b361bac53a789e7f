//! Priority and resolution: passing (339), the newest item resolving (340.1) execution by
//! execution with no window between them (820.3, 158.3, 359.3.e), finishing (359.3.d, 419.4.a),
//! cleanup (321), and what follows a change to the chain (337.4, 340.2–340.4). The instructions
//! of an execution are in `instruction`. Each step's guard sits above its effect.

use super::instruction::Outcome;
use super::{on_chain, Game};
use crate::action::Action;
use crate::card::{Ability, CardId, CardKind};
use crate::rulebook::SpellPlayedBy;
use crate::state::*;

impl Game {
    /// 337.4, 340.2–340.4: after the chain changes, with nothing pending or resolving, the
    /// controller of the newest item gains priority, or the chain has closed.
    pub(super) fn after_chain_change(&self, s: &mut State) {
        if self.cleanup_outstanding(s)
            || s.chain
                .iter()
                .any(|i| i.is_pending() || i.phase.is_paused())
        {
            s.priority = None;
            return;
        }
        match s.chain.last() {
            None => self.chain_closed(s),
            Some(top) => {
                s.priority = Some(top.controller);
                s.passes = 0;
            }
        }
    }

    /// Pass's guard (339): the priority holder may pass while a chain exists; in the open state
    /// the turn player plays or ends the turn instead (the scenario is about plays).
    pub(super) fn pass_actions(&self, s: &State, out: &mut Vec<Action>) {
        if !s.chain.is_empty() {
            out.push(Action::Pass);
        }
    }

    /// Pass's effect (338.1.b, 339): priority goes to the next player; when every player has
    /// passed in sequence, the newest item resolves.
    pub(super) fn pass(&self, s: &mut State) {
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

    /// Resolve's effect (340.1): the newest finalized item resolves (or resumes, after a window
    /// a wrong rulebook opened).
    pub(super) fn resolve(&self, s: &mut State) {
        let top = s.chain.last_mut().expect("an item to resolve");
        let id = top.id;
        if top.phase == Phase::Finalized {
            top.phase = Phase::Resolving { done: 0 };
            s.log.push(Event::ResolveStarted { item: id });
        }
    }

    /// Execute's guard (820.3): the resolving item has executions left; FinishResolution's
    /// (359.3.d): it has none.
    pub(super) fn resolving_actions(&self, s: &State, id: u8, out: &mut Vec<Action>) {
        let item = on_chain(s, id);
        match item.phase {
            Phase::Resolving { done }
                if done < item.executions(self.rules.executions_per_instance()) =>
            {
                out.push(Action::Execute)
            }
            _ => out.push(Action::FinishResolution),
        }
    }

    /// Execute's effect (820.3, 359.3.e): run execution k with its own choices; targets are
    /// checked as each instruction executes, so an earlier execution can make a later one's
    /// targets illegal.
    pub(super) fn execute(&self, s: &mut State) {
        let top = s.chain.last().expect("resolving");
        let (id, card) = (top.id, top.card);
        let Phase::Resolving { done: k } = top.phase else {
            unreachable!("execute while not resolving")
        };
        s.log.push(Event::ExecutionStarted { item: id, exec: k });
        if self.rules.as_you_play_repeated() && k > 0 {
            let top = s.chain.last().expect("resolving").clone();
            for ins in self.card(card).as_you_play.clone() {
                self.run_untargeted(s, &top, ins.effect);
            }
        }
        let paused = self.run_instructions(s, id, k);
        if paused {
            return;
        }
        self.after_execution(s, id, k);
    }

    /// After execution `k`: count it done, or every execution done if the item left the chain
    /// (359.3.e.15); wrong rulebooks add a play event or a priority window here.
    pub(super) fn after_execution(&self, s: &mut State, id: u8, k: u8) {
        let stop = self.stopped(s, id);
        let Some(item) = s.item_mut(id) else { return };
        let n = item.executions(self.rules.executions_per_instance());
        // An item that left the chain runs no further executions (359.3.e.15).
        item.phase = Phase::Resolving {
            done: if stop { n } else { k + 1 },
        };
        let controller = item.controller;
        let k = if stop { n - 1 } else { k };
        if self.rules.play_event_per_execution() && k + 1 < n {
            // A wrong edit: each execution counted as a play (820.3.a says once).
            self.play_event(s, id);
        }
        if self.rules.window_between_executions() && k + 1 < n {
            // A wrong edit: a priority window between executions (158.3 says none).
            s.log.push(Event::WindowOpened { item: id });
            s.priority = Some(controller);
            s.passes = 0;
        }
    }

    /// Runs the instructions of execution `k` in order (359.3.e); returns true if one paused it
    /// for new choices.
    fn run_instructions(&self, s: &mut State, id: u8, k: u8) -> bool {
        self.run_instructions_from(s, id, k, 0, true)
    }

    /// Runs the instructions of execution `k` from `from` on (after a pause, `prev_done` says
    /// whether the one before was performed); returns true if one paused it.
    pub(super) fn run_instructions_from(
        &self,
        s: &mut State,
        id: u8,
        k: u8,
        from: u8,
        prev_done: bool,
    ) -> bool {
        let Some(item) = s.item(id).cloned() else {
            return false;
        };
        let def = self.card(item.card);
        let ex = &item.choices[k as usize];
        let mode = &def.modes[ex.mode.unwrap_or(0) as usize];
        // Whether the previous instruction executed, for linked instructions (359.3.e.14).
        let mut prev_done = prev_done;
        for (i, ins) in mode.instructions.iter().enumerate().skip(from as usize) {
            if self.stopped(s, id) {
                // 359.3.e.15: it left the chain during its own resolution; it stops.
                return false;
            }
            let done = self.run_instruction(s, &item, k, i as u8, ins, prev_done);
            if done == Outcome::Paused {
                return true;
            }
            prev_done = done == Outcome::Performed;
        }
        false
    }

    /// 359.3.e.15: an item that left the chain during its own resolution executes no further.
    pub(super) fn stopped(&self, s: &State, id: u8) -> bool {
        self.rules.leaving_chain_stops_execution() && s.item(id).is_none_or(|i| i.left_chain)
    }

    /// FinishResolution's effect (359.3.d, 419.4.a, 158.3.a): the item leaves the chain; its
    /// play is complete (one play event, 820.3.a) and "when you play a spell" triggers; what it
    /// queued is placed now.
    pub(super) fn finish_resolution(&self, s: &mut State) {
        let top = s.chain.last().expect("resolving");
        let (id, card, owner) = (top.id, top.card, top.owner);
        if top.origin == Origin::Hand && !top.left_chain {
            s.players[owner.ix()].trash.push(card);
        }
        s.log.push(Event::Resolved { item: id });
        self.play_event(s, id);
        s.chain.pop();
        self.place_queued(s);
        self.after_chain_change(s);
    }

    /// The item's play is complete (419.4.a): one play event, and "when you play a spell"
    /// abilities trigger, waiting until the chain item has finished (354.3). Whose play it is,
    /// for a spell whose control changed, is the rulebook's `spell_played_by`.
    pub(super) fn play_event(&self, s: &mut State, id: u8) {
        let (card, by) = match s.item(id) {
            Some(i) => (i.card, self.played_by(i)),
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

    /// Who played `item` for its play event: its controller as it resolves, or (a reading the
    /// digest leaves open) the player who put it on the chain, its owner (`push_pending`; a
    /// change of control changes only the controller). The rulebook is read only when the two
    /// differ, so that a scenario without a change of control does not count as one the field
    /// decides.
    fn played_by(&self, item: &ChainItem) -> Player {
        if item.owner == item.controller {
            return item.controller;
        }
        match self.rules.spell_played_by() {
            SpellPlayedBy::Controller => item.controller,
            SpellPlayedBy::Player => item.owner,
        }
    }

    /// What waited for the item to finish (354.3, 383.3): tokens and triggers go on the chain.
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
                        // A token is played (350.2): it makes its choices, then finalizes.
                        phase: Phase::Choosing,
                        repeat: InlineVec::new(),
                        accepted: Some(true),
                        choices: InlineVec::new(),
                        cost: TotalCost::default(),
                        ever_chosen: InlineVec::new(),
                        left_chain: false,
                        optional: InlineVec::new(),
                        enters: None,
                        runes_spent: RunesSpent::default(),
                        discount_order: InlineVec::new(),
                    });
                    s.log.push(Event::MovedToChain {
                        item: id,
                        card: self.token,
                        by: controller,
                    });
                    self.complete_choices(s, id);
                }
                Queued::Trigger { card, source } => self.put_trigger_on_chain(s, card, source),
            }
        }
    }

    /// 319, 321.1: a cleanup is outstanding after a qualifying event (the flag), and whenever
    /// the board holds a unit with lethal damage, however it got there (a Might change, a status
    /// change such as losing [Assault], damage marked in the setup): 323.5 reads the board.
    pub(super) fn cleanup_outstanding(&self, s: &State) -> bool {
        s.cleanup_due || s.units.iter().any(|u| u.lethal())
    }

    /// Cleanup's effect (321): units with lethal damage die; a token that leaves the board
    /// ceases to exist.
    pub(super) fn cleanup(&self, s: &mut State) {
        s.cleanup_due = false;
        s.log.push(Event::Cleanup);
        let dying: Vec<u8> = s
            .units_on_board()
            .filter(|(_, u)| u.lethal())
            .map(|(i, _)| i)
            .collect();
        for u in dying {
            self.kill(s, Obj::Unit(u));
        }
        if s.started {
            self.after_chain_change(s);
        } else {
            // A cleanup before anything was played (lethal damage in the setup): the turn player
            // keeps priority in the open state (312.2.a).
            s.priority = Some(Player::YOU);
        }
    }
}
