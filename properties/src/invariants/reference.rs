//! The properties' plain definitions, each walking the log on its own: slow, and the meaning
//! that `facts` must agree with (checked by `facts_agree_with_the_definitions`).

use crate::system::RepeatSystem;
use model::state::{Event, Obj, State, Zone};

pub fn paid_instances(s: &State, item: u8) -> usize {
    s.log
        .iter()
        .filter(|e| matches!(e, Event::RepeatDeclared { item: i, pay: true, .. } if *i == item))
        .count()
}

pub fn executions(s: &State, item: u8) -> usize {
    s.log
        .iter()
        .filter(|e| matches!(e, Event::ExecutionStarted { item: i, .. } if *i == item))
        .count()
}

pub fn items(s: &State) -> impl Iterator<Item = u8> + '_ {
    s.log.iter().filter_map(|e| match e {
        Event::MovedToChain { item, .. } => Some(*item),
        _ => None,
    })
}

pub fn at_most_one_payment(_: &RepeatSystem, s: &State) -> bool {
    let mut seen: Vec<(u8, u8)> = Vec::new();
    for e in &s.log {
        if let Event::RepeatDeclared {
            item,
            instance,
            pay: true,
        } = e
        {
            if seen.contains(&(*item, *instance)) {
                return false;
            }
            seen.push((*item, *instance));
        }
    }
    true
}

pub fn resolved_whole(s: &State, item: u8) -> bool {
    s.log
        .iter()
        .any(|e| matches!(e, Event::Resolved { item: i } if *i == item))
        && !s
            .log
            .iter()
            .any(|e| matches!(e, Event::LeftChain { item: i } if *i == item))
}

pub fn executions_equal_one_plus_paid(_: &RepeatSystem, s: &State) -> bool {
    items(s)
        .filter(|i| resolved_whole(s, *i))
        .all(|i| executions(s, i) == 1 + paid_instances(s, i))
}

pub fn one_play_event(_: &RepeatSystem, s: &State) -> bool {
    items(s).all(|i| {
        let plays = s
            .log
            .iter()
            .filter(|e| matches!(e, Event::Played { item, .. } if *item == i))
            .count();
        let countered = s
            .log
            .iter()
            .any(|e| matches!(e, Event::Countered { item, .. } if *item == i));
        plays <= 1 && !(countered && plays > 0)
    })
}

pub fn choices_fixed_at_play(_: &RepeatSystem, s: &State) -> bool {
    for item in items(s) {
        let fin = s
            .log
            .iter()
            .position(|e| matches!(e, Event::Finalized { item: i } if *i == item));
        let mut chosen_execs: Vec<u8> = Vec::new();
        for (at, e) in s.log.iter().enumerate() {
            let exec = match e {
                Event::ModeChosen { item: i, exec, .. }
                | Event::TargetChosen { item: i, exec, .. }
                | Event::TargetsEnded { item: i, exec, .. }
                | Event::DestinationChosen { item: i, exec, .. }
                    if *i == item =>
                {
                    *exec
                }
                _ => continue,
            };
            if fin.is_some_and(|f| at > f) {
                return false;
            }
            if !chosen_execs.contains(&exec) {
                chosen_execs.push(exec);
            }
        }
        // An item that chose anything chose for every execution it ran.
        if !chosen_execs.is_empty() {
            let ran = s.log.iter().filter_map(|e| match e {
                Event::ExecutionStarted { item: i, exec } if *i == item => Some(*exec),
                _ => None,
            });
            for k in ran {
                if !chosen_execs.contains(&k) {
                    return false;
                }
            }
        }
    }
    true
}

pub fn discount_applied_once(_: &RepeatSystem, s: &State) -> bool {
    use model::state::DiscountSource::{SelfDiscount, Unit};
    items(s).all(|i| {
        let sources: Vec<_> = s
            .log
            .iter()
            .filter_map(|e| match e {
                Event::DiscountApplied {
                    item,
                    source: src @ (SelfDiscount | Unit(_)),
                    ..
                } if *item == i => Some(*src),
                _ => None,
            })
            .collect();
        sources
            .iter()
            .enumerate()
            .all(|(k, x)| !sources[..k].contains(x))
    })
}

pub fn zero_cost_still_paid(_: &RepeatSystem, s: &State) -> bool {
    items(s).filter(|i| resolved_whole(s, *i)).all(|i| {
        let zero = s.log.iter().any(|e| {
            matches!(e, Event::RepeatCostAdded { item, cost, discard: 0, .. } if *item == i && cost.is_zero())
        });
        !zero || executions(s, i) == 1 + paid_instances(s, i)
    })
}

pub fn zero_cost_witness(sys: &RepeatSystem, s: &State) -> bool {
    items(s).any(|i| {
        resolved_whole(s, i)
            && s.log.iter().any(|e| {
                matches!(e, Event::RepeatCostAdded { item, cost, discard: 0, .. } if *item == i && cost.is_zero())
            })
            && executions(s, i) >= 2
    }) && zero_cost_still_paid(sys, s)
}

/// What each player has paid, summed from the log.
pub fn paid_by(s: &State) -> [model::Cost; 2] {
    let mut out = [model::Cost::ZERO; 2];
    let payer = |item: u8| {
        s.log.iter().find_map(|e| match e {
            Event::MovedToChain { item: i, by, .. } if *i == item => Some(*by),
            _ => None,
        })
    };
    for e in &s.log {
        if let Event::CostPaid { item, paid, .. } = e {
            if let Some(p) = payer(*item) {
                out[p.ix()] = out[p.ix()].plus(paid);
            }
        }
        // A demand paid (Hard Bargain) is paid from the pool too.
        if let Event::DemandDecided {
            by,
            paid: true,
            energy,
            ..
        } = e
        {
            out[by.ix()] = out[by.ix()].plus(&model::Cost::energy(*energy));
        }
    }
    out
}

pub fn no_refund(_: &RepeatSystem, s: &State) -> bool {
    let (paid, emptied) = (paid_by(s), emptied_by(s));
    let paid: [model::Cost; 2] = std::array::from_fn(|p| paid[p].plus(&emptied[p]));
    let produced = produced_by(s);
    (0..2).all(|p| {
        let now = s.players[p].pool;
        let start = s.start.pools[p].plus(&produced[p]);
        now.energy + paid[p].energy == start.energy
            && (0..6).all(|d| now.power[d] + paid[p].power[d] == start.power[d])
    })
}

pub fn no_window_between_executions(_: &RepeatSystem, s: &State) -> bool {
    let mut resolving: Option<u8> = None;
    for e in &s.log {
        match e {
            Event::ResolveStarted { item } => {
                if resolving.is_some() {
                    return false;
                }
                resolving = Some(*item);
            }
            Event::Resolved { item } if resolving == Some(*item) => resolving = None,
            Event::Countered { item, .. } if resolving == Some(*item) => return false,
            Event::Passed { .. }
            | Event::MovedToChain { .. }
            | Event::Finalized { .. }
            | Event::Cleanup
            | Event::WindowOpened { .. }
                if resolving.is_some() =>
            {
                return false
            }
            _ => {}
        }
    }
    true
}

pub fn illegal_target_ignored(_: &RepeatSystem, s: &State) -> bool {
    let mut gone: Vec<Obj> = Vec::new();
    for e in &s.log {
        let touched = match e {
            Event::Damaged { unit, .. }
            | Event::MightChanged { unit, .. }
            | Event::UnitMoved { unit, .. }
            | Event::Stunned { unit }
            | Event::Readied { unit }
            | Event::AssaultGiven { unit, .. } => Obj::Unit(*unit),
            Event::ZoneChange {
                obj,
                to: Zone::Trash | Zone::Hand,
            } => {
                if gone.contains(obj) {
                    return false;
                }
                gone.push(*obj);
                continue;
            }
            _ => continue,
        };
        if gone.contains(&touched) {
            return false;
        }
    }
    true
}

pub fn new_choices_keep_repeat(_: &RepeatSystem, s: &State) -> bool {
    items(s).all(|i| {
        let fin = s
            .log
            .iter()
            .position(|e| matches!(e, Event::Finalized { item } if *item == i));
        match fin {
            None => true,
            Some(f) => !s.log[f..]
                .iter()
                .any(|e| matches!(e, Event::RepeatDeclared { item, .. } if *item == i)),
        }
    })
}

pub fn two_of_three_paid(_: &RepeatSystem, s: &State) -> bool {
    s.chain.is_empty()
        && items(s).any(|i| {
            let declared: Vec<(u8, bool)> = s
                .log
                .iter()
                .filter_map(|e| match e {
                    Event::RepeatDeclared {
                        item,
                        instance,
                        pay,
                    } if *item == i => Some((*instance, *pay)),
                    _ => None,
                })
                .collect();
            declared.len() == 3
                && declared.iter().filter(|(_, p)| *p).count() == 2
                && executions(s, i) == 3
        })
}

pub fn target_removed_by_previous_execution(_: &RepeatSystem, s: &State) -> bool {
    // An Ignored(TargetsIllegal) in execution k >= 1 whose target left the board during execution k-1.
    let mut exec_of: Option<(u8, u8)> = None;
    let mut left_in: Vec<(Obj, u8, u8)> = Vec::new();
    for e in &s.log {
        match e {
            Event::ExecutionStarted { item, exec } => exec_of = Some((*item, *exec)),
            Event::Resolved { .. } => exec_of = None,
            Event::ZoneChange {
                obj,
                to: Zone::Trash | Zone::Hand,
            } => {
                if let Some((item, exec)) = exec_of {
                    left_in.push((*obj, item, exec));
                }
            }
            Event::TargetUnaffected { item, exec, obj }
                if *exec >= 1
                    && left_in
                        .iter()
                        .any(|(o, i, k)| o == obj && i == item && *k + 1 == *exec) =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// The `sometimes` witness of a countered repeated item.
pub fn countered_witness(_: &RepeatSystem, s: &State) -> bool {
    s.log
        .iter()
        .any(|e| matches!(e, Event::Countered { item, .. } if paid_instances(s, *item) > 0))
}

/// The `sometimes` witness of new choices for a repeated item.
pub fn remade_witness(_: &RepeatSystem, s: &State) -> bool {
    s.log
        .iter()
        .any(|e| matches!(e, Event::ChoiceRemade { item, .. } if paid_instances(s, *item) > 0))
}

/// `resources-conserved`: no pool above its start plus what runes added (walking the log for
/// the runes), and each player's cards those they started with.
pub fn resources_conserved(_: &RepeatSystem, s: &State) -> bool {
    let produced = produced_by(s);
    (0..2).all(|p| {
        let now = s.players[p].pool;
        let start = s.start.pools[p].plus(&produced[p]);
        now.energy <= start.energy
            && (0..6).all(|d| now.power[d] <= start.power[d])
            && s.cards()[p] == s.start.cards[p]
    })
}

/// What each player's runes added to their pool for plays that were not undone: the part of the
/// pool that did not come from the start.
pub fn produced_by(s: &State) -> [model::Cost; 2] {
    let mut out = [model::Cost::ZERO; 2];
    if !s.start.runes.iter().any(Option::is_some) {
        return out;
    }
    let undone: Vec<u8> = s
        .log
        .iter()
        .filter_map(|e| match e {
            Event::PlayCancelled { item, .. } => Some(*item),
            _ => None,
        })
        .collect();
    for e in &s.log {
        match *e {
            Event::RuneExhausted { item, who, .. } if !undone.contains(&item) => {
                out[who.ix()] = out[who.ix()].plus(&model::Cost::energy(1));
            }
            // A demand is answered while its item resolves: nothing undoes it.
            Event::DemandRuneExhausted { who, .. } => {
                out[who.ix()] = out[who.ix()].plus(&model::Cost::energy(1));
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

/// What left each player's pool as it emptied at the end of the turn (166–167).
pub fn emptied_by(s: &State) -> [model::Cost; 2] {
    let mut out = [model::Cost::ZERO; 2];
    for e in &s.log {
        if let Event::PoolEmptied { who, amount } = e {
            out[who.ix()] = out[who.ix()].plus(amount);
        }
    }
    out
}
