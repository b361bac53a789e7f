//! The directed tail of the default budget. The first [`CYCLED`] cases cycle through
//! [`super::strata::STRATA`]; the tail follows them with one case per situation that the cycle
//! reaches only by the chance of a seed's draws or not at all (a clause the model cites, a
//! mistake an engine can make). Appending keeps every earlier case index and so every kill the
//! cycle already makes: a layout change that shifts cases loses chance kills that no test
//! names. Each area of the tail is its own module with its own slice of strata.

pub mod board;
pub mod chain;
pub mod chance;
pub mod clauses;
pub mod held;
pub mod unreached;

use super::strata::Focus;

/// The cases cycled through the strata before the tail.
pub const CYCLED: u64 = 300;

/// The tail's areas, in case order.
const AREAS: [&[Focus]; 6] = [
    clauses::STRATA,
    unreached::STRATA,
    chance::STRATA,
    held::STRATA,
    chain::STRATA,
    board::STRATA,
];

/// The number of cases in the tail.
pub const LEN: usize = clauses::STRATA.len()
    + unreached::STRATA.len()
    + chance::STRATA.len()
    + held::STRATA.len()
    + chain::STRATA.len()
    + board::STRATA.len();

/// The tail's stratum of case `CYCLED + j`, if `j` is within the tail.
pub fn at(j: u64) -> Option<Focus> {
    let mut j = usize::try_from(j).ok()?;
    for area in AREAS {
        if j < area.len() {
            return Some(area[j]);
        }
        j -= area.len();
    }
    None
}
