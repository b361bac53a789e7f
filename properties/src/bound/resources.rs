//! What each `Resources` choice gives you: the pool, the other cards in hand, and runes.

use super::{power, Resources};
use model::cost::{Cost, Domain};
use model::state::RunesSetup;

impl Resources {
    /// Your pool, your other cards in hand, and your runes (`None`: pay from the pool alone).
    pub(super) fn yours(self) -> (Cost, u8, Option<RunesSetup>) {
        match self {
            Resources::Rich => (
                Cost {
                    energy: 12,
                    power: power(&[
                        (Domain::Mind, 3),
                        (Domain::Chaos, 2),
                        (Domain::Calm, 3),
                        (Domain::Order, 2),
                        (Domain::Fury, 2),
                    ]),
                    any: 0,
                    own: 0,
                },
                3,
                None,
            ),
            Resources::Tight => (
                Cost {
                    energy: 4,
                    power: power(&[(Domain::Mind, 1), (Domain::Chaos, 1)]),
                    any: 0,
                    own: 0,
                },
                1,
                None,
            ),
            Resources::Runes => (
                Cost::ZERO,
                2,
                Some(RunesSetup {
                    ready: power(&[(Domain::Calm, 2), (Domain::Mind, 2), (Domain::Chaos, 1)]),
                    exhausted: power(&[(Domain::Fury, 1)]),
                    deck: vec![Domain::Calm],
                }),
            ),
        }
    }
}
