//! The rune properties (issue 13), read from the event log and the board against the starting
//! position: an undone play gives back every rune its payment used (358.5), and a payment uses
//! runes only for what its cost needs (357.1.a). Both hold vacuously when nobody has runes.

use crate::system::RepeatSystem;
use model::cost::{Cost, Domain};
use model::state::{Event, Player, Runes, State};

/// Whether some player started with runes: the properties below say nothing otherwise.
fn has_runes(s: &State) -> bool {
    s.start.runes.iter().any(Option::is_some)
}

/// The items whose play was undone (358.5).
fn undone(s: &State) -> Vec<u8> {
    s.log
        .iter()
        .filter_map(|e| match e {
            Event::PlayCancelled { item, .. } => Some(*item),
            _ => None,
        })
        .collect()
}

/// What each player's runes added to their pool for plays that were not undone: the part of the
/// pool that did not come from the start.
pub fn produced_by(s: &State) -> [Cost; 2] {
    let mut out = [Cost::ZERO; 2];
    if !has_runes(s) {
        return out;
    }
    let undone = undone(s);
    for e in &s.log {
        match *e {
            Event::RuneExhausted { item, who, .. } if !undone.contains(&item) => {
                out[who.ix()] = out[who.ix()].plus(&Cost::energy(1));
            }
            // A demand is answered while its item resolves: nothing undoes it.
            Event::DemandRuneExhausted { who, .. } => {
                out[who.ix()] = out[who.ix()].plus(&Cost::energy(1));
            }
            Event::RuneRecycled {
                item, who, domain, ..
            } if !undone.contains(&item) => {
                out[who.ix()].power[domain as usize] += 1;
            }
            _ => {}
        }
    }
    out
}

/// `undone-play-gives-back-runes` (358.5): each player's runes on the board and in the rune deck
/// are the starting runes changed by the rune events of plays that were not undone, in order.
pub fn undone_play_gives_back_runes(_: &RepeatSystem, s: &State) -> bool {
    if !has_runes(s) {
        return true;
    }
    let undone = undone(s);
    let mut expected: [Option<Runes>; 2] = s.start.runes.clone();
    for e in &s.log {
        let ok =
            match *e {
                Event::RuneExhausted { item, who, domain } if !undone.contains(&item) => {
                    runes_of(&mut expected, who).is_some_and(|r| r.exhaust(domain))
                }
                Event::RuneRecycled {
                    item,
                    who,
                    domain,
                    ready,
                } if !undone.contains(&item) => runes_of(&mut expected, who)
                    .is_some_and(|r| recycle_as_logged(r, domain, ready)),
                Event::DemandRuneExhausted { who, domain, .. } => {
                    runes_of(&mut expected, who).is_some_and(|r| r.exhaust(domain))
                }
                Event::RuneChannelled { who, domain } => runes_of(&mut expected, who)
                    .is_some_and(|r| r.channel_exhausted() == Some(domain)),
                _ => true,
            };
        if !ok {
            return false;
        }
    }
    (0..2).all(|p| expected[p] == s.players[p].runes)
}

fn runes_of(r: &mut [Option<Runes>; 2], who: Player) -> Option<&mut Runes> {
    r[who.ix()].as_mut()
}

/// A recycle as the event says it happened: a ready or an exhausted rune to the bottom.
fn recycle_as_logged(r: &mut Runes, d: Domain, ready: bool) -> bool {
    let i = d as usize;
    let from = if ready {
        &mut r.ready[i]
    } else {
        &mut r.exhausted[i]
    };
    let Some(left) = from.checked_sub(1) else {
        return false;
    };
    *from = left;
    r.deck.push(d);
    true
}

/// `payment-within-cost` (357.1.a): the runes exhausted for an item add no more Energy than its
/// total cost asks, and the runes of a domain recycled for it no more than its Power of that
/// domain plus its any-domain Power; no rune is used for an item before its cost is determined.
/// Likewise the runes exhausted to answer a demand add no more than the Energy it asks, and a
/// demand answered with runes is paid (declining would leave their Energy floating).
pub fn payment_within_cost(_: &RepeatSystem, s: &State) -> bool {
    if !has_runes(s) {
        return true;
    }
    if !demands_within_asked(s) {
        return false;
    }
    // Per item id: its determined total, and what its runes added so far.
    let mut items: Vec<(u8, Cost, Cost)> = vec![];
    for e in &s.log {
        match *e {
            Event::CostDetermined { item, total, .. } => items.push((item, total, Cost::ZERO)),
            Event::RuneExhausted { item, .. } | Event::RuneRecycled { item, .. } => {
                let Some((_, _, used)) = items.iter_mut().rev().find(|(i, _, _)| *i == item) else {
                    return false;
                };
                match *e {
                    Event::RuneRecycled { domain, .. } => used.power[domain as usize] += 1,
                    _ => used.energy += 1,
                }
            }
            _ => {}
        }
    }
    items.iter().all(|(_, total, used)| {
        used.energy <= total.energy
            && (0..6).all(|d| {
                u16::from(used.power[d]) <= u16::from(total.power[d]) + u16::from(total.any)
            })
    })
}

/// The demand half of `payment-within-cost`: the runes exhausted since a demanding item's last
/// decision add at most the Energy its next decision asks, and that decision is `paid`.
fn demands_within_asked(s: &State) -> bool {
    // Per demanding item: runes exhausted for its open demand.
    let mut open: Vec<(u8, u8)> = vec![];
    for e in &s.log {
        match *e {
            Event::DemandRuneExhausted { item, .. } => {
                match open.iter_mut().find(|(i, _)| *i == item) {
                    Some((_, n)) => *n += 1,
                    None => open.push((item, 1)),
                }
            }
            Event::DemandDecided {
                item, paid, energy, ..
            } => {
                if let Some(k) = open.iter().position(|(i, _)| *i == item) {
                    let (_, n) = open.remove(k);
                    if n > energy || !paid {
                        return false;
                    }
                }
            }
            _ => {}
        }
    }
    true
}
