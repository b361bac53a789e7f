//! The rune properties, read from the event log and the board against the starting
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

/// `undone-play-gives-back-runes` (358.5): each player's runes on the board and in the rune deck
/// are the starting runes changed by the rune events of plays that were not undone, in order.
pub fn undone_play_gives_back_runes(_: &RepeatSystem, s: &State) -> bool {
    runes_not_given_back(s).is_none()
}

/// How `undone-play-gives-back-runes` fails in `s`, if it does.
pub fn why_runes_not_given_back(_: &RepeatSystem, s: &State) -> Option<String> {
    runes_not_given_back(s)
}

/// Where the runes part from the account of the start and the plays not undone: the first rune
/// event the account cannot follow, or the player whose runes end otherwise.
fn runes_not_given_back(s: &State) -> Option<String> {
    if !has_runes(s) {
        return None;
    }
    let undone = undone(s);
    let mut expected: [Option<Runes>; 2] = s.start.runes.clone();
    for (at, e) in s.log.iter().enumerate() {
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
            return Some(format!(
                "step {} of the log uses a rune that the start and the plays not undone do not leave: {e:?}",
                at + 1
            ));
        }
    }
    [Player::YOU, Player::OPP].into_iter().find_map(|p| {
        let (want, have) = (&expected[p.ix()], &s.players[p.ix()].runes);
        (want != have).then(|| {
            format!(
                "{p}: runes {}, but the start and the plays not undone leave {}",
                runes_words(have),
                runes_words(want)
            )
        })
    })
}

/// Runes in words: ready and exhausted per domain, and the rune deck's size.
fn runes_words(r: &Option<Runes>) -> String {
    let Some(r) = r else {
        return "none".into();
    };
    let per = |n: &[u8; 6]| {
        let v: Vec<String> = Domain::ALL
            .iter()
            .filter(|d| n[**d as usize] > 0)
            .map(|d| format!("{} {}", n[*d as usize], d.letter()))
            .collect();
        match v.is_empty() {
            true => "none".to_string(),
            false => v.join(" + "),
        }
    };
    format!(
        "ready {}, exhausted {}, {} in the rune deck",
        per(&r.ready),
        per(&r.exhausted),
        r.deck.len()
    )
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
    payment_past_cost(s).is_none()
}

/// How `payment-within-cost` fails in `s`, if it does.
pub fn why_payment_past_cost(sys: &RepeatSystem, s: &State) -> Option<String> {
    Some(match payment_past_cost(s)? {
        PastCost::Demand { item, runes, asked } => format!(
            "{}: {runes} rune{} exhausted to answer a demand of [{asked}]{}",
            sys.game.item_name(s, item),
            if runes == 1 { "" } else { "s" },
            if runes > asked { "" } else { ", then declined" }
        ),
        PastCost::BeforeCost { item } => format!(
            "{}: a rune used before its cost was determined",
            sys.game.item_name(s, item)
        ),
        PastCost::Item { item, used, total } => format!(
            "{}: its runes added {used}, its total cost is {total}",
            sys.game.item_name(s, item)
        ),
    })
}

/// How a payment used runes past what it needed.
enum PastCost {
    /// Runes exhausted to answer a demand: more than it asked, or then declined.
    Demand { item: u8, runes: u8, asked: u8 },
    /// A rune used for an item whose cost was not yet determined.
    BeforeCost { item: u8 },
    /// An item's runes added more than its total cost.
    Item { item: u8, used: Cost, total: Cost },
}

/// The first payment in `s` that used runes past its cost (see `payment_within_cost`).
fn payment_past_cost(s: &State) -> Option<PastCost> {
    if !has_runes(s) {
        return None;
    }
    if let Some(d) = demand_past_asked(s) {
        return Some(d);
    }
    // Per item id: its determined total, and what its runes added so far.
    let mut items: Vec<(u8, Cost, Cost)> = vec![];
    for e in &s.log {
        match *e {
            Event::CostDetermined { item, total, .. } => items.push((item, total, Cost::ZERO)),
            Event::RuneExhausted { item, .. } | Event::RuneRecycled { item, .. } => {
                let Some((_, _, used)) = items.iter_mut().rev().find(|(i, _, _)| *i == item) else {
                    return Some(PastCost::BeforeCost { item });
                };
                match *e {
                    Event::RuneRecycled { domain, .. } => used.power[domain as usize] += 1,
                    _ => used.energy += 1,
                }
            }
            _ => {}
        }
    }
    items.into_iter().find_map(|(item, total, used)| {
        let within = used.energy <= total.energy
            && (0..6).all(|d| {
                u16::from(used.power[d]) <= u16::from(total.power[d]) + u16::from(total.any)
            });
        (!within).then_some(PastCost::Item { item, used, total })
    })
}

/// The demand half of `payment-within-cost`: the runes exhausted since a demanding item's last
/// decision add at most the Energy its next decision asks, and that decision is `paid`.
fn demand_past_asked(s: &State) -> Option<PastCost> {
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
                        return Some(PastCost::Demand {
                            item,
                            runes: n,
                            asked: energy,
                        });
                    }
                }
            }
            _ => {}
        }
    }
    None
}
