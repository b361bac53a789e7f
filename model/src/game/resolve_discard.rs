//! "Discard N" as an instruction (Ezreal, Prodigy: "When you play me, discard 1, then draw 2."):
//! to discard is to put a card from one's hand into the trash (422), the controller choosing
//! which. The resolving item pauses while the choice is open, as it does for looking at the deck
//! (`decide`); unlike looking, the instruction need not end its mode, so once the last card is
//! discarded the mode's later instructions run. A choice between cards that cannot be told apart
//! is not a decision, and an empty hand discards nothing (359.3.e.6).

use super::discard::{discard_options, move_to_trash};
use super::instruction::Outcome;
use super::{on_chain, on_chain_mut, Game};
use crate::action::Action;
use crate::card::CardId;
use crate::state::*;

impl Game {
    /// "Discard N" begins (422): the item pauses for the choice, after any discards that are no
    /// choice; with nothing left to choose, it was performed (or, with an empty hand, could not
    /// be followed at all).
    pub(super) fn begin_discarding(
        &self,
        s: &mut State,
        id: u8,
        exec: u8,
        slot: u8,
        n: u8,
    ) -> Outcome {
        let who = on_chain(s, id).controller;
        if discard_options(s, who).is_empty() {
            return Outcome::Ignored;
        }
        s.log.push(Event::Performed {
            item: id,
            exec,
            slot,
            linked: false,
        });
        let left = forced_resolution_discards(s, id, who, n);
        if left == 0 {
            return Outcome::Performed;
        }
        on_chain_mut(s, id).phase = Phase::Discarding { exec, slot, left };
        Outcome::Paused
    }

    /// DiscardForCost's guard while an instruction discards (422): each distinct card in the
    /// controller's hand.
    pub(super) fn discard_effect_actions(&self, s: &State, id: u8, out: &mut Vec<Action>) {
        for card in discard_options(s, on_chain(s, id).controller) {
            out.push(Action::DiscardForCost { card });
        }
    }

    /// The item paused by "Discard N", if any.
    pub(super) fn discarding_item(&self, s: &State) -> Option<u8> {
        s.chain
            .iter()
            .find(|i| matches!(i.phase, Phase::Discarding { .. }))
            .map(|i| i.id)
    }

    /// DiscardForCost's effect while an instruction discards (422): the chosen card goes to the
    /// trash; when no choice is left, the mode's later instructions run.
    pub(super) fn discard_chosen(&self, s: &mut State, id: u8, card: Option<CardId>) {
        let Phase::Discarding { exec, slot, left } = on_chain(s, id).phase else {
            unreachable!("discarding")
        };
        let who = on_chain(s, id).controller;
        move_to_trash(s, id, who, card);
        let left = forced_resolution_discards(s, id, who, left - 1);
        if left > 0 {
            on_chain_mut(s, id).phase = Phase::Discarding { exec, slot, left };
            return;
        }
        on_chain_mut(s, id).phase = Phase::Resolving { done: exec };
        if !self.run_instructions_from(s, id, exec, slot + 1, true) {
            self.after_execution(s, id, exec);
        }
    }
}

/// Discards that leave `who` no choice (one kind of card left, or none), made without a
/// decision; returns how many are still to be chosen.
fn forced_resolution_discards(s: &mut State, id: u8, who: Player, mut left: u8) -> u8 {
    while left > 0 {
        match discard_options(s, who)[..] {
            [] => return 0,
            [only] => move_to_trash(s, id, who, only),
            _ => return left,
        }
        left -= 1;
    }
    0
}
