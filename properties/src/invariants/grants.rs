//! The grant properties, read from the event log and the board against the starting
//! position: "the next spell you play this turn" is taken by exactly that spell (Temporal
//! Portal, The Academy), and an undone play restores everything, grants and runes included
//! (358.5). Both hold vacuously when nobody starts with a grant and nothing is undone.

use super::runes;
use crate::facts::{self, Facts};
use crate::system::RepeatSystem;
use model::card::CardKind;
use model::inline_vec::InlineVec;
use model::state::{Event, Grant, Player, State};

/// What the log says about the grants: which each player holds now, by the account of the start,
/// the spells that took them, the plays undone and the end of the turn; and whether every spell
/// took exactly the grants it should have.
#[derive(Clone, Copy)]
struct Account {
    /// How many of each grant each player should hold now, by `Grant::ALL` index.
    held: [[u8; 2]; 2],
    /// Every spell took exactly the grants its controller held as it was put on the chain.
    exact: bool,
    /// The first grant taken by a spell it was not due to: the spell's item and the grant.
    misuse: Option<(u8, Grant)>,
    /// The first spell that did not take every grant it was due.
    unused: Option<u8>,
}

impl Account {
    /// The account of a log in which nobody ever held a grant.
    const NONE: Account = Account {
        held: [[0; 2]; 2],
        exact: true,
        misuse: None,
        unused: None,
    };
}

/// The account of the state last asked about on this thread, and what it was read from: the
/// system, the grants held at the start, and the log (its buffer, length and digest, as
/// `facts` keys its memo). Both grant properties read it, one after the other, for every state.
type Memo = Option<((usize, [[u8; 2]; 2], usize, usize, u64), Account)>;

thread_local! {
    static MEMO: std::cell::Cell<Memo> = const { std::cell::Cell::new(None) };
}

/// The grant account of `s` (whose log's facts are `f`), folded from its grant events unless
/// it is the one folded last.
fn account(sys: &RepeatSystem, s: &State, f: &Facts) -> Account {
    // Nobody held a grant, at the start or since: nothing to fold.
    if f.grant_moves == 0 && s.start.grants == [[0; 2]; 2] {
        return Account::NONE;
    }
    let log = s.log.as_slice();
    let key = (
        sys as *const RepeatSystem as usize,
        s.start.grants,
        log.as_ptr() as usize,
        log.len(),
        s.log.digest(),
    );
    MEMO.with(|m| match m.get() {
        Some((k, a)) if k == key => a,
        _ => {
            let a = fold_events(sys, s, &f.grant_events);
            m.set(Some((key, a)));
            a
        }
    })
}

/// Folds the events of the log at `ixs` (its grant events, in order) into the grant account.
fn fold_events(sys: &RepeatSystem, s: &State, ixs: &[u32]) -> Account {
    let mut held = s.start.grants;
    let mut misuse = None;
    // Per spell put on the chain while its controller held grants: (item, player, grants due,
    // grants taken), counted: each activation's grant is an instance of its own (820.1.c.2).
    // Few spells meet a grant in one log: kept inline, the fold allocates nothing.
    let mut due: InlineVec<(u8, usize, [u8; 2], [u8; 2]), 4> = InlineVec::default();
    let mut exact = true;
    for &i in ixs {
        match s.log[i as usize] {
            Event::MovedToChain { item, card, by }
                if sys.game.card(card).kind == CardKind::Spell =>
            {
                let p = by.ix();
                if held[p].iter().any(|h| *h > 0) {
                    due.push((item, p, held[p], [0; 2]));
                    held[p] = [0; 2];
                }
            }
            Event::GrantTaken { item, who, grant } => {
                let g = grant as usize;
                match due.iter_mut().find(|d| d.0 == item && d.1 == who.ix()) {
                    Some(d) if d.3[g] < d.2[g] => d.3[g] += 1,
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
                        held[d.1][g] = held[d.1][g].saturating_add(*took);
                    }
                }
            }
            Event::GrantGiven { who, grant, .. } => {
                let h = &mut held[who.ix()][grant as usize];
                *h = h.saturating_add(1);
            }
            Event::TurnEnded => held = [[0; 2]; 2],
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
pub fn grant_used_by_one_play(sys: &RepeatSystem, s: &State, f: &Facts) -> bool {
    account(sys, s, f).exact
}

/// How `grant-used-by-one-play` fails in `s`, if it does.
pub fn why_grant_misused(sys: &RepeatSystem, s: &State) -> Option<String> {
    let a = facts::with(s, |f| account(sys, s, f));
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
    let a = facts::with(s, |f| account(sys, s, f));
    for p in [Player::YOU, Player::OPP] {
        for (i, g) in Grant::ALL.iter().enumerate() {
            let (has, should) = (g.held(&s.players[p.ix()]), a.held[p.ix()][i]);
            if has != should {
                return Some(format!(
                    "{p} holds {has} of the {g:?} grant; the start, the spells that took it and the plays undone say {should}",
                ));
            }
        }
    }
    runes::why_runes_not_given_back(sys, s)
}

/// `undone-play-restores-everything` (358.5): each player's grants are what the start, the
/// spells that took them, the undone plays that gave them back and the end of the turn say;
/// and the runes are the start changed only by plays not undone (`undone-play-gives-back-runes`).
pub fn undone_play_restores_everything(sys: &RepeatSystem, s: &State, f: &Facts) -> bool {
    restored(sys, s, account(sys, s, f))
}

/// Whether the grants held are those of account `a`, and the runes were given back.
fn restored(sys: &RepeatSystem, s: &State, a: Account) -> bool {
    let grants_ok = (0..2).all(|p| {
        Grant::ALL
            .iter()
            .enumerate()
            .all(|(i, g)| g.held(&s.players[p]) == a.held[p][i])
    });
    grants_ok && runes::undone_play_gives_back_runes(sys, s)
}

/// The grant account folded from every event of the log: the plain definition the account
/// from the grant events alone must agree with.
#[cfg(test)]
fn whole_log(sys: &RepeatSystem, s: &State) -> Account {
    let all: Vec<u32> = (0..s.log.len() as u32).collect();
    fold_events(sys, s, &all)
}

/// `grant-used-by-one-play` read from the whole log.
#[cfg(test)]
pub(super) fn plain_grant_used_by_one_play(sys: &RepeatSystem, s: &State) -> bool {
    whole_log(sys, s).exact
}

/// `undone-play-restores-everything` read from the whole log.
#[cfg(test)]
pub(super) fn plain_undone_play_restores_everything(sys: &RepeatSystem, s: &State) -> bool {
    restored(sys, s, whole_log(sys, s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bound;
    use checker::Model;
    use model::rulebook::{Rulebook, Version};

    /// The memo is keyed by what the account reads: two states with the same (empty) log but
    /// different grants at the start are accounted apart, asked one after the other.
    #[test]
    fn the_memo_tells_apart_states_that_differ_only_at_the_start() {
        let bound = Bound::preset("multi").expect("a preset");
        let sys = RepeatSystem::new(Rulebook::preset(Version::Rup4), &bound).expect("it builds");
        let init = sys.init_states().into_iter().next().expect("a scenario");
        let mut plain = init.clone();
        plain.log = Default::default();
        plain.start.grants = [[0; 2]; 2];
        for p in &mut plain.players {
            for g in Grant::ALL {
                g.set(p, 0);
            }
        }
        let mut granted = plain.clone();
        granted.start.grants[0][0] = 1;
        assert!(crate::facts::with(&plain, |f| {
            undone_play_restores_everything(&sys, &plain, f)
        }));
        // Held at the start, never taken, not held now: not restored.
        assert!(!crate::facts::with(&granted, |f| {
            undone_play_restores_everything(&sys, &granted, f)
        }));
        assert!(crate::facts::with(&plain, |f| {
            undone_play_restores_everything(&sys, &plain, f)
        }));
    }
}
