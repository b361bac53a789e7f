//! A player's runes (163–164): the runes on the board, ready or exhausted, counted per domain, and
//! the rune deck they are channelled from and recycled to. A basic rune has "[E]: Add [1]" and
//! "Recycle this: Add [C]" (164.2); a player pays with them during the payment step (357.1.a).
//!
//! Runes of one domain in one state are interchangeable, so the board holds counts, not rune
//! objects: two ways to pay that differ only in which Fury rune was exhausted are one state.

use crate::cost::{Cost, Domain};
use crate::inline_vec::InlineVec;
use serde::{Deserialize, Serialize};

/// The most runes a player may have (a rune deck is 12 runes); setups above it are refused, so the
/// `u8` counts never overflow (runes only move between the board and the rune deck).
pub const MAX_RUNES: usize = 12;

/// A player's runes: on the board per domain and state, and the rune deck.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Runes {
    /// Ready runes on the board, per domain (`Domain as usize`).
    pub ready: [u8; 6],
    /// Exhausted runes on the board, per domain.
    pub exhausted: [u8; 6],
    /// The rune deck, top first; a recycled rune goes to the bottom (164.2, 416).
    pub deck: InlineVec<Domain, 4>,
}

/// What one play's payment took from its controller's runes, so that undoing it (358.5) gives
/// exactly that back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RunesSpent {
    /// Runes exhausted for Energy, per domain.
    pub exhausted: [u8; 6],
    /// Runes recycled for Power that were exhausted (by this payment or before), per domain.
    pub recycled_exhausted: [u8; 6],
    /// Runes recycled for Power that were ready, per domain.
    pub recycled_ready: [u8; 6],
}

impl RunesSpent {
    /// The Energy and Power these runes added to the pool.
    pub fn produced(&self) -> Cost {
        let mut c = Cost::energy(self.exhausted.iter().sum());
        for d in 0..6 {
            c.power[d] = self.recycled_exhausted[d] + self.recycled_ready[d];
        }
        c
    }

    /// True when no rune was used.
    pub fn is_empty(&self) -> bool {
        *self == RunesSpent::default()
    }

    /// True when some rune was recycled (exhausting comes first in a payment).
    pub fn any_recycled(&self) -> bool {
        self.recycled_exhausted
            .iter()
            .chain(&self.recycled_ready)
            .any(|n| *n > 0)
    }

    /// True when some rune of a domain after `d` (in `Domain::ALL` order) was exhausted.
    pub fn exhausted_after(&self, d: Domain) -> bool {
        self.exhausted[d as usize + 1..].iter().any(|n| *n > 0)
    }

    /// True when some rune of a domain after `d` was recycled.
    pub fn recycled_after(&self, d: Domain) -> bool {
        let i = d as usize + 1;
        self.recycled_exhausted[i..]
            .iter()
            .chain(&self.recycled_ready[i..])
            .any(|n| *n > 0)
    }
}

impl Runes {
    /// All runes the player has, on the board and in the rune deck.
    pub fn total(&self) -> usize {
        let board: usize = self
            .ready
            .iter()
            .chain(&self.exhausted)
            .map(|n| usize::from(*n))
            .sum();
        board + self.deck.len()
    }

    /// "[E]: Add [1]" (164.2): a ready rune of `d` becomes exhausted; false if there is none.
    pub fn exhaust(&mut self, d: Domain) -> bool {
        let i = d as usize;
        if self.ready[i] == 0 {
            return false;
        }
        self.ready[i] -= 1;
        self.exhausted[i] += 1;
        true
    }

    /// "Recycle this: Add [C]" (164.2): a rune of `d` goes to the bottom of the rune deck, an
    /// exhausted one if there is one (a ready rune kept can still be exhausted, so recycling it
    /// instead is never better). Returns whether the recycled rune was ready, or `None` if the
    /// player has no rune of `d` on the board.
    pub fn recycle(&mut self, d: Domain) -> Option<bool> {
        let i = d as usize;
        let ready = if self.exhausted[i] > 0 {
            self.exhausted[i] -= 1;
            false
        } else if self.ready[i] > 0 {
            self.ready[i] -= 1;
            true
        } else {
            return None;
        };
        self.deck.push(d);
        Some(ready)
    }

    /// Channels the top rune of the rune deck exhausted; `None` when the rune deck is empty.
    pub fn channel_exhausted(&mut self) -> Option<Domain> {
        if self.deck.is_empty() {
            return None;
        }
        let d = self.deck.remove(0);
        self.exhausted[d as usize] += 1;
        Some(d)
    }

    /// Undoes a payment (358.5): recycled runes come back from the bottom of the rune deck in the
    /// state they were in, and exhausted runes become ready again. Returns false, changing
    /// nothing, if these runes are not where the payment put them.
    pub fn give_back(&mut self, spent: &RunesSpent) -> bool {
        let mut next = self.clone();
        for d in Domain::ALL.into_iter().rev() {
            let i = d as usize;
            for _ in 0..spent.recycled_exhausted[i] + spent.recycled_ready[i] {
                if next.deck.last() != Some(&d) {
                    return false;
                }
                next.deck.pop();
            }
            next.exhausted[i] += spent.recycled_exhausted[i];
            next.ready[i] += spent.recycled_ready[i];
            let Some(e) = next.exhausted[i].checked_sub(spent.exhausted[i]) else {
                return false;
            };
            next.exhausted[i] = e;
            next.ready[i] += spent.exhausted[i];
        }
        *self = next;
        true
    }
}

/// A player's runes at the start of a scenario, as a setup writes them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RunesSetup {
    /// Ready runes on the board, per domain.
    #[serde(default)]
    pub ready: [u8; 6],
    /// Exhausted runes on the board, per domain.
    #[serde(default)]
    pub exhausted: [u8; 6],
    /// The rune deck, top first.
    #[serde(default)]
    pub deck: Vec<Domain>,
}

impl RunesSetup {
    /// All runes, board and deck.
    pub fn total(&self) -> usize {
        let board: usize = self
            .ready
            .iter()
            .chain(&self.exhausted)
            .map(|n| usize::from(*n))
            .sum();
        board + self.deck.len()
    }

    /// The runes in play.
    pub fn to_runes(&self) -> Runes {
        Runes {
            ready: self.ready,
            exhausted: self.exhausted,
            deck: self.deck.iter().copied().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn giving_back_a_payment_restores_the_runes_exactly() {
        let mut r = RunesSetup {
            ready: [2, 1, 0, 0, 0, 0],
            exhausted: [0, 1, 0, 0, 0, 0],
            deck: vec![Domain::Mind],
        }
        .to_runes();
        let before = r.clone();
        let mut spent = RunesSpent::default();
        assert!(r.exhaust(Domain::Fury));
        spent.exhausted[0] += 1;
        assert_eq!(r.recycle(Domain::Fury), Some(false));
        spent.recycled_exhausted[0] += 1;
        assert_eq!(r.recycle(Domain::Calm), Some(false));
        spent.recycled_exhausted[1] += 1;
        assert_eq!(r.recycle(Domain::Calm), Some(true));
        spent.recycled_ready[1] += 1;
        assert_eq!(r.ready, [1, 0, 0, 0, 0, 0]);
        assert_eq!(
            &r.deck[..],
            &[Domain::Mind, Domain::Fury, Domain::Calm, Domain::Calm]
        );
        assert_eq!(spent.produced().to_string(), "[1][R][G][G]");
        assert!(r.give_back(&spent));
        assert_eq!(r, before);
        // Giving back twice finds the runes elsewhere and changes nothing.
        assert!(!r.give_back(&spent));
        assert_eq!(r, before);
    }

    #[test]
    fn channelling_takes_the_top_rune_exhausted() {
        let mut r = RunesSetup {
            deck: vec![Domain::Calm, Domain::Fury],
            ..Default::default()
        }
        .to_runes();
        assert_eq!(r.channel_exhausted(), Some(Domain::Calm));
        assert_eq!(r.exhausted[Domain::Calm as usize], 1);
        assert_eq!(r.channel_exhausted(), Some(Domain::Fury));
        assert_eq!(r.channel_exhausted(), None);
    }
}
