//! A bound's turn: how many plays the turn player makes, and the hands each player
//! holds besides the item: every multiset of up to k cards drawn from a set, per player.

use super::{multisets, BoundError};
use model::card::CardKind;
use model::catalogue::Catalogue;
use model::setup::{TurnSetup, MAX_PLAYS};
use serde::{Deserialize, Serialize};

/// The most cards a bound may add to a hand from its set.
pub const MAX_DRAWN: u8 = 3;

/// Hands drawn from a set: every multiset of 0 to `up_to` of its cards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandDraw {
    /// Catalogue cards a hand may hold (spells or units).
    pub from: Vec<String>,
    /// At most this many of them (0 to `MAX_DRAWN`).
    pub up_to: u8,
}

impl HandDraw {
    /// Every hand drawn, smallest first; one empty hand when nothing is drawn.
    pub fn hands(&self) -> Vec<Vec<String>> {
        (0..=usize::from(self.up_to))
            .flat_map(|k| multisets(self.from.len(), k))
            .map(|m| m.into_iter().map(|i| self.from[i].clone()).collect())
            .collect()
    }

    /// How many hands, without building them: `hands().len()` (checked arithmetic).
    pub fn count(&self) -> Option<u64> {
        let n = self.from.len() as u64;
        let mut total = 0u64;
        for k in 0..=u64::from(self.up_to) {
            // Multisets of size k over n kinds: C(n + k - 1, k).
            let mut c = 1u64;
            for i in 0..k {
                c = c.checked_mul(n + i)? / (i + 1);
            }
            total = total.checked_add(if n == 0 && k > 0 { 0 } else { c })?;
        }
        Some(total)
    }

    /// A readable name of one hand drawn, for scenario names.
    pub fn name(hand: &[String]) -> String {
        if hand.is_empty() {
            "nothing else".into()
        } else {
            hand.join(" + ")
        }
    }
}

/// The turn a bound's scenarios play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnBound {
    /// Plays the turn player makes (1 to `MAX_PLAYS`; 1, the default, is the single-play
    /// scenario, over when its chain closes).
    #[serde(default = "one")]
    pub plays: u8,
    /// Your hand besides the item.
    #[serde(default)]
    pub yours: HandDraw,
    /// The opponent's hand besides each `reactions` list.
    #[serde(default)]
    pub opponent: HandDraw,
}

fn one() -> u8 {
    1
}

impl Default for TurnBound {
    fn default() -> Self {
        TurnBound {
            plays: 1,
            yours: HandDraw::default(),
            opponent: HandDraw::default(),
        }
    }
}

impl TurnBound {
    /// The single-play turn with nothing drawn (a bound without `[turn]`).
    pub fn is_single(&self) -> bool {
        *self == TurnBound::default()
    }

    /// The turn of each scenario's setup.
    pub fn setup(&self) -> TurnSetup {
        TurnSetup {
            plays: self.plays,
            end_turn: false,
        }
    }

    /// How many scenarios each (item, board, extras, resources, reactions) makes.
    pub fn multiplier(&self) -> Option<u64> {
        self.yours.count()?.checked_mul(self.opponent.count()?)
    }

    /// Checks the ranges and the card names; `line` gives the line of a field of the `[turn]`
    /// table by its path under it (`["plays"]`, `["yours", "up_to"]`), so that an error names
    /// the field's own line, not the table's header.
    pub fn validate(&self, line: impl Fn(&[&str]) -> usize) -> Result<(), BoundError> {
        let err = |path: &[&str], message: String| {
            Err(BoundError {
                line: line(path),
                message,
            })
        };
        if !(1..=MAX_PLAYS).contains(&self.plays) {
            return err(
                &["plays"],
                format!("`turn.plays` is {}; expected 1 to {MAX_PLAYS}", self.plays),
            );
        }
        let cat = Catalogue::builtin();
        for (who, h) in [("yours", &self.yours), ("opponent", &self.opponent)] {
            if h.up_to > MAX_DRAWN {
                return err(
                    &[who, "up_to"],
                    format!(
                        "`turn.{who}.up_to` is {}; expected 0 to {MAX_DRAWN}",
                        h.up_to
                    ),
                );
            }
            if h.up_to > 0 && h.from.is_empty() {
                return err(
                    &[who, "up_to"],
                    format!("`turn.{who}.from` is empty but `up_to` is {}", h.up_to),
                );
            }
            for n in &h.from {
                let Some(id) = cat.id(n) else {
                    return err(
                        &[who, "from"],
                        format!("`turn.{who}.from`: no card named `{n}` in model/cards.toml"),
                    );
                };
                if !matches!(
                    cat.cards[id as usize].kind,
                    CardKind::Spell | CardKind::Unit | CardKind::Gear
                ) {
                    return err(
                        &[who, "from"],
                        format!("`turn.{who}.from`: `{n}` is not a spell, a unit or a gear"),
                    );
                }
            }
        }
        Ok(())
    }
}
