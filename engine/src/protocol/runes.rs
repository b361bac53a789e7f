//! A player's runes on the wire (feature `runes`): in a request's board and in a
//! result's players, as domain letters: ready and exhausted runes in domain order (R G B O P Y),
//! the rune deck top first.

use model::cost::Domain;
use model::state::{Runes, RunesSetup, MAX_RUNES};
use rbcheck_case::wire;
use serde::{Deserialize, Serialize};

/// A player's runes: `{"ready":["G","G"],"exhausted":["R"],"deck":["G"]}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunesJson {
    /// Ready runes on the board, one letter per rune.
    #[serde(with = "wire::domains")]
    pub ready: Vec<Domain>,
    /// Exhausted runes on the board, one letter per rune.
    #[serde(with = "wire::domains")]
    pub exhausted: Vec<Domain>,
    /// The rune deck, top first.
    #[serde(with = "wire::domains")]
    pub deck: Vec<Domain>,
}

/// Each domain `n[d]` times, in domain order.
fn counted(n: &[u8; 6]) -> Vec<Domain> {
    Domain::ALL
        .into_iter()
        .flat_map(|d| std::iter::repeat_n(d, usize::from(n[d as usize])))
        .collect()
}

impl RunesJson {
    /// The runes of a setup.
    pub fn of_setup(r: &RunesSetup) -> RunesJson {
        RunesJson {
            ready: counted(&r.ready),
            exhausted: counted(&r.exhausted),
            deck: r.deck.clone(),
        }
    }

    /// The runes of a state.
    pub fn of_runes(r: &Runes) -> RunesJson {
        RunesJson {
            ready: counted(&r.ready),
            exhausted: counted(&r.exhausted),
            deck: r.deck.to_vec(),
        }
    }

    /// The setup these runes describe; more than `MAX_RUNES` is refused.
    pub fn to_setup(&self) -> Result<RunesSetup, String> {
        let total = self.ready.len() + self.exhausted.len() + self.deck.len();
        if total > MAX_RUNES {
            return Err(format!(
                "runes: {total} runes; at most {MAX_RUNES} (a rune deck's size)"
            ));
        }
        let mut r = RunesSetup {
            deck: self.deck.clone(),
            ..RunesSetup::default()
        };
        // At most MAX_RUNES in all: the u8 counts cannot overflow.
        self.ready.iter().for_each(|d| r.ready[*d as usize] += 1);
        self.exhausted
            .iter()
            .for_each(|d| r.exhausted[*d as usize] += 1);
        Ok(r)
    }

    /// The same runes with ready and exhausted in domain order (an engine may list them in
    /// any order: they are counts).
    pub fn canonical(&self) -> RunesJson {
        let mut c = self.clone();
        c.ready.sort();
        c.exhausted.sort();
        c
    }
}
