//! The pool `--bound auto` draws from: the scenarios of every preset but `large`, each once,
//! over one card table, each keeping the preset and number it has there.

use super::Bound;
use crate::bound::Scenario;
use crate::system::{split_playable, started};
use model::catalogue::Catalogue;
use model::game::Game;
use model::rulebook::Rulebook;
use std::collections::HashSet;

/// The presets of the pool, smallest first, so that a scenario several presets share is cited
/// from the smallest. `large` (a billion states) is left out: exploring it is not a choice a
/// rules person should pay for by default.
pub const POOL: [&str; 8] = [
    "tiny",
    "deck",
    "runes",
    "discounts",
    "costs",
    "combat",
    "multi",
    "default",
];

/// Every scenario of the pool's presets, once, under one card table.
pub struct Pool {
    /// The rules and the cards: the catalogue and every preset's generated items.
    pub game: Game,
    /// The scenarios in which something can be done, each with its preset and number there.
    pub playable: Vec<Scenario>,
    /// The scenarios in which nothing can be done under the rules (no number).
    pub unplayable: Vec<Scenario>,
    /// The preset each of `unplayable` comes from.
    pub unplayable_from: Vec<&'static str>,
    /// Each preset with its scenarios (playable or not) before removing those an earlier
    /// preset has.
    pub presets: Vec<(&'static str, usize)>,
}

impl Pool {
    /// The pool under `rules`: each preset's scenarios numbered as `RepeatSystem::new` numbers
    /// them under these rules (so `rbcheck graph --bound P --scenario N` shows the same one).
    pub fn new(rules: &Rulebook) -> Result<Pool, String> {
        let mut cards = Catalogue::builtin().cards;
        let mut made = vec![];
        for name in POOL {
            let bound = Bound::preset(name).ok_or_else(|| format!("no preset `{name}`"))?;
            made.push((name, bound.scenarios(&mut cards)?));
        }
        let game = Game::new(rules.clone(), cards);
        let mut seen = HashSet::new();
        let (mut playable, mut unplayable, mut presets) = (vec![], vec![], vec![]);
        let mut unplayable_from = vec![];
        for (name, scenarios) in made {
            presets.push((name, scenarios.len()));
            let (yes, no) = split_playable(&game, started(&game, scenarios, name)?);
            for (s, keep) in yes
                .into_iter()
                .map(|s| (s, true))
                .chain(no.into_iter().map(|s| (s, false)))
            {
                if seen.insert(s.setup.clone()) {
                    match keep {
                        true => playable.push(s),
                        false => {
                            unplayable.push(Scenario { origin: None, ..s });
                            unplayable_from.push(name);
                        }
                    }
                }
            }
        }
        Ok(Pool {
            game,
            playable,
            unplayable,
            unplayable_from,
            presets,
        })
    }
}
