//! The turn around the plays: who may start a chain in the open state, the open state
//! a closed chain leaves in a turn (335, 340.2), and ending the turn (334.1), which ends "this
//! turn" effects. A single-play scenario (the default `Setup::turn`) never reaches these steps
//! after its chain closes: it is over then. Each step's guard sits above its effect.

use super::Game;
use crate::action::Action;
use crate::state::*;

impl Game {
    /// 335, 312.2: who may start a chain: in the open state only the turn player, who holds
    /// priority there, and only while the scenario leaves them a play.
    pub(super) fn may_start_chain(&self, s: &State, p: Player) -> bool {
        p == Player::YOU && s.chain.is_empty() && s.turn.plays_left > 0
    }

    /// 340.2, 335: the chain is empty and closes; in a turn the open state follows, where the
    /// turn player gains priority again (with nothing pending or outstanding in the main phase).
    pub(super) fn chain_closed(&self, s: &mut State) {
        s.priority = None;
        if !matches!(s.log.last(), Some(Event::ChainClosed | Event::TurnEnded)) {
            s.log.push(Event::ChainClosed);
        }
        if s.turn.ends {
            s.priority = Some(Player::YOU);
            s.passes = 0;
        }
    }

    /// EndTurn's guard (334.1): the turn player holds priority in the open state of a scenario
    /// that explores the end of the turn, after its first play (the scenario is about plays).
    pub(super) fn end_turn_actions(&self, s: &State, p: Player, out: &mut Vec<Action>) {
        if s.turn.ends && s.started && s.chain.is_empty() && p == Player::YOU {
            out.push(Action::EndTurn);
        }
    }

    /// EndTurn's effect (334.1: the end-of-turn steps are tasks handled before anything else):
    /// "this turn" effects end: Might given or taken this turn, [Assault] granted this turn,
    /// the unused grants "the next spell you play this turn" (Temporal Portal, The Academy), and
    /// what counts cards played this turn (419.4.b). The digest gives no clause numbers for these
    /// expirations beyond 334.1, and says nothing of damage or stuns: whether damage is removed
    /// and whether a stun ends are the rulebook's (`damage_removed_at_end_of_turn`,
    /// `stun_ends_at_end_of_turn`), each read only where a unit has some. Each rune pool empties
    /// (166–167), what it held logged so that the pool properties can account for it.
    pub(super) fn end_turn(&self, s: &mut State) {
        for u in s.units.iter_mut().filter(|u| u.zone == Zone::Board) {
            u.might_mod = 0;
            u.status.assault = 0;
            if u.damage > 0 && self.rules.damage_removed_at_end_of_turn() {
                u.damage = 0;
            }
            if u.status.stunned && self.rules.stun_ends_at_end_of_turn() {
                u.status.stunned = false;
            }
        }
        for ps in s.players.iter_mut() {
            ps.portal_grants = 0;
            ps.academy_grants = 0;
            ps.finalized_this_turn = 0;
        }
        s.priority = None;
        s.passes = 0;
        for who in [Player::YOU, Player::OPP] {
            let pool = std::mem::take(&mut s.players[who.ix()].pool);
            if !pool.is_zero() {
                s.log.push(Event::PoolEmptied { who, amount: pool });
            }
        }
        // Last, as `State::is_over` reads it.
        s.log.push(Event::TurnEnded);
    }
}
