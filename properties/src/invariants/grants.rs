//! The grant properties, read from the event log and the board against the starting
//! position: "the next spell you play this turn" is taken by exactly that spell (Temporal
//! Portal, The Academy), and an undone play restores everything, grants and runes included
//! (358.5). Both hold vacuously when nobody starts with a grant and nothing is undone.

use super::runes;
use crate::system::RepeatSystem;
use model::card::CardKind;
use model::state::{Event, Grant, Player, State};

/// What the log says about the grants: which each player holds now, by the account of the start,
/// the spells that took them, the plays undone and the end of the turn; and whether every spell
/// took exactly the grants it should have.
struct Account {
    /// The grants each player should hold now, by `Grant::ALL` index.
    held: [[bool; 2]; 2],
    /// Every spell took exactly the grants its controller held as it was put on the chain.
    exact: bool,
    /// The first grant taken by a spell it was not due to: the spell's item and the grant.
    misuse: Option<(u8, Grant)>,
    /// The first spell that did not take every grant it was due.
    unused: Option<u8>,
}

/// Folds the log into the grant account.
fn account(sys: &RepeatSystem, s: &State) -> Account {
    let mut held = s.start.grants;
    let mut misuse = None;
    // Per spell put on the chain while its controller held grants: (item, player, grants due,
    // grants taken).
    let mut due: Vec<(u8, usize, [bool; 2], [bool; 2])> = vec![];
    let mut exact = true;
    for e in s.log.iter() {
        match *e {
            Event::MovedToChain { item, card, by }
                if sys.game.card(card).kind == CardKind::Spell =>
            {
                let p = by.ix();
                if held[p].iter().any(|h| *h) {
                    due.push((item, p, held[p], [false; 2]));
                    held[p] = [false; 2];
                }
            }
            Event::GrantTaken { item, who, grant } => {
                let g = grant as usize;
                match due.iter_mut().find(|d| d.0 == item && d.1 == who.ix()) {
                    Some(d) if d.2[g] && !d.3[g] => d.3[g] = true,
                    // Taken by a spell it was not due to (already used, or never held).
                    _ => {
                        exact = false;
                        misuse.get_or_insert((item, grant));
                    }
                }
            }
            Event::PlayCancelled { item, .. } => {
                if let Some(d) = due.iter().find(|d| d.0 == item) {
                    for (g, took) in d.3.iter().enumerate() {
                        held[d.1][g] |= *took;
                    }
                }
            }
            Event::GrantGiven { who, grant, .. } => held[who.ix()][grant as usize] = true,
            Event::TurnEnded => held = [[false; 2]; 2],
            _ => {}
        }
    }
    // Each spell took all it was due: `GrantTaken` follows `MovedToChain` in the same step.
    let unused = due.iter().find(|d| d.2 != d.3).map(|d| d.0);
    exact &= unused.is_none();
    Account {
        held,
        exact,
        misuse,
        unused,
    }
}

/// `grant-used-by-one-play`: each grant "the next spell you play this turn" is taken by exactly
/// the next spell its holder puts on the chain, and by no later one unless an undone play gave
/// it back (358.5).
pub fn grant_used_by_one_play(sys: &RepeatSystem, s: &State) -> bool {
    account(sys, s).exact
}

/// How `grant-used-by-one-play` fails in `s`, if it does.
pub fn why_grant_misused(sys: &RepeatSystem, s: &State) -> Option<String> {
    let a = account(sys, s);
    if let Some((item, grant)) = a.misuse {
        return Some(format!(
            "{} took the {grant:?} grant, which its controller did not hold for it",
            sys.game.item_name(s, item)
        ));
    }
    a.unused.map(|item| {
        format!(
            "{} did not take a grant its controller held as it was put on the chain",
            sys.game.item_name(s, item)
        )
    })
}

/// How `undone-play-restores-everything` fails in `s`, if it does.
pub fn why_not_restored(sys: &RepeatSystem, s: &State) -> Option<String> {
    let a = account(sys, s);
    for p in [Player::YOU, Player::OPP] {
        for (i, g) in Grant::ALL.iter().enumerate() {
            let (has, should) = (g.held(&s.players[p.ix()]), a.held[p.ix()][i]);
            if has != should {
                return Some(format!(
                    "{p} {} the {g:?} grant; the start, the spells that took it and the plays undone say {p} should {}",
                    if has { "holds" } else { "does not hold" },
                    if should { "hold it" } else { "not" }
                ));
            }
        }
    }
    runes::why_runes_not_given_back(sys, s)
}

/// `undone-play-restores-everything` (358.5): each player's grants are what the start, the
/// spells that took them, the undone plays that gave them back and the end of the turn say;
/// and the runes are the start changed only by plays not undone (`undone-play-gives-back-runes`).
pub fn undone_play_restores_everything(sys: &RepeatSystem, s: &State) -> bool {
    let a = account(sys, s);
    let grants_ok = (0..2).all(|p| {
        Grant::ALL
            .iter()
            .enumerate()
            .all(|(i, g)| g.held(&s.players[p]) == a.held[p][i])
    });
    grants_ok && runes::undone_play_gives_back_runes(sys, s)
}
