//! Paying non-standard costs (357.2): after Energy and Power are paid, each card a cost discards
//! is chosen by the payer, among the named cards in hand and the other cards. Cards that cannot
//! be told apart make one choice, and a choice with one option is taken without a decision.

use super::{pending, pending_mut, Game};
use crate::action::Action;
use crate::card::CardId;
use crate::state::*;

impl Game {
    /// DiscardForCost's guard (357.2, 422.3): each distinct card the payer can discard, when the
    /// paid item still has cards to discard.
    pub(super) fn discard_actions(&self, s: &State, item: &ChainItem, out: &mut Vec<Action>) {
        for card in discard_options(s, item.controller) {
            out.push(Action::DiscardForCost { card });
        }
    }

    /// DiscardForCost's effect (357.2): the card goes to its owner's trash; then any payment
    /// left with only one option is made at once (`unit_cost`).
    pub(super) fn discard_for_cost(&self, s: &mut State, card: Option<CardId>) {
        discard_one(s, card);
        self.forced_payments(s);
    }

    /// Discards that leave the payer no choice (one kind of card left), made without a decision.
    pub(super) fn forced_discards(&self, s: &mut State) {
        loop {
            let item = pending(s);
            if item.cost.discard == 0 {
                return;
            }
            match discard_options(s, item.controller)[..] {
                [only] => discard_one(s, only),
                _ => return,
            }
        }
    }
}

/// The distinct cards `p` can discard: each named card once, and `None` for the other cards.
pub(super) fn discard_options(s: &State, p: Player) -> Vec<Option<CardId>> {
    let ps = &s.players[p.ix()];
    let mut out: Vec<Option<CardId>> = vec![];
    for &c in ps.hand.iter() {
        if !out.contains(&Some(c)) {
            out.push(Some(c));
        }
    }
    if ps.hand_other > 0 {
        out.push(None);
    }
    out
}

/// Discards one card for the pending item's cost and logs which.
fn discard_one(s: &mut State, card: Option<CardId>) {
    let item = pending_mut(s);
    item.cost.discard -= 1;
    let (id, who) = (item.id, item.controller);
    move_to_trash(s, id, who, card);
}

/// `who` discards `card` (a named card, or `None` for another card) for item `id` (422), and
/// the log says which.
pub(super) fn move_to_trash(s: &mut State, id: u8, who: Player, card: Option<CardId>) {
    let ps = &mut s.players[who.ix()];
    match card {
        Some(c) => {
            if let Some(i) = ps.hand.iter().position(|h| *h == c) {
                ps.hand.remove(i);
                ps.trash.push(c);
            }
        }
        None => {
            ps.hand_other -= 1;
            ps.trash_other += 1;
        }
    }
    s.log.push(Event::Discarded {
        item: id,
        who,
        card,
    });
}
