//! Activating an ability of gear (398–406): Temporal Portal's "[A], [E]: Give the next
//! spell you play this turn [Repeat] equal to its cost". The activation puts a pending item on
//! the chain (401) that is then played like a spell: its cost is the activation cost (403.1),
//! "[A]" paid from the pool or with runes and "[E]" the gear's "exhaust me" (357.2, 414);
//! finalized, it waits for both players to pass and resolves (340.1), giving the grant. It is not
//! an Add ability, so it does not resolve on finalization (337.2 names only units, gear and Add
//! abilities). Each step's guard sits above its effect.

use super::{play::push_pending, Game};
use crate::action::Action;
use crate::card::Ability;
use crate::state::*;

impl Game {
    /// ActivateAbility's guard (145.2, 401): the turn player holds priority in the open state of
    /// their main phase (an empty chain, not a showdown: the Portal's ability has neither
    /// [Action] nor [Reaction]); the gear is on the board, theirs and ready (its "[E]" could not
    /// be paid otherwise, 414.4). Two limits of the model, not of the rules: only in a scenario
    /// that goes on after a chain closes (a single-play scenario is over then, so an activation
    /// would be its whole play), and only while a play is left (an activation no play can use
    /// changes nothing the properties read). An activation that was undone (358.5) may be made
    /// again, as a card may be played again; exploration does not try it again
    /// (`Game::retry_undone`), as for cards.
    pub(super) fn activate_actions(&self, s: &State, p: Player, out: &mut Vec<Action>) {
        for i in 0..s.gear.len() {
            if self.activation_refused(s, p, i as u8).is_none() {
                out.push(Action::ActivateAbility { gear: i as u8 });
            }
        }
    }

    /// Why `p` cannot activate gear `gear`'s ability now, as the rule and words (None if the
    /// gear allows it): the guard of [`Game::activate_actions`] for one gear, which replay
    /// reports when a case activates it anyway.
    pub fn activation_refused(
        &self,
        s: &State,
        p: Player,
        gear: u8,
    ) -> Option<(&'static str, &'static str)> {
        if p != Player::YOU || !s.turn.ends {
            return Some((
                "145.2",
                "a gear is activated by the turn player in a turn of several plays",
            ));
        }
        if !s.chain.is_empty() || s.showdown {
            return Some((
                "145.2",
                "a gear's ability is activated only in the open state: no chain, no showdown",
            ));
        }
        if s.turn.plays_left == 0 {
            return Some((
                "turn plays",
                "no play of the turn is left (a limit of the case: raise `turn plays N`)",
            ));
        }
        let Some(g) = s.gear.get(gear as usize) else {
            return Some(("401", "there is no such gear"));
        };
        let Some(ab) = self.activated_ability(g.card) else {
            return Some(("401", "the gear has no activated ability"));
        };
        if g.zone != Zone::Board {
            return Some(("145.2", "the gear is not on the board"));
        }
        if g.controller != p {
            return Some(("145.2", "only the gear's controller may activate it"));
        }
        if g.exhausted {
            return Some((
                "414.4",
                "the gear is exhausted: its [E] cannot be paid until it is readied",
            ));
        }
        if !self.retry_undone && s.players[p.ix()].undone.contains(&ab) {
            return Some(("358.5", "an activation that was undone is not tried again"));
        }
        None
    }

    /// ActivateAbility's effect (401): the ability becomes a pending item controlled by the
    /// gear's controller; the state is closed and its choices follow (402).
    pub(super) fn activate(&self, s: &mut State, gear: u8) {
        let g = s.gear[gear as usize];
        let Some(ab) = self.activated_ability(g.card) else {
            return;
        };
        let id = push_pending(
            s,
            ab,
            Origin::Activated(gear),
            g.controller,
            InlineVec::new(),
        );
        s.priority = None;
        s.passes = 0;
        s.log.push(Event::MovedToChain {
            item: id,
            card: ab,
            by: g.controller,
        });
        self.complete_choices(s, id);
    }

    /// The ability card a gear's activated ability puts on the chain, if it has one.
    fn activated_ability(&self, card: crate::card::CardId) -> Option<crate::card::CardId> {
        self.card(card).abilities.iter().find_map(|a| match a {
            Ability::Activated(ab) => Some(*ab),
            _ => None,
        })
    }
}
