//! The random walk that turns a recipe into a run: at each state, one choice among the enabled
//! actions, biased by the recipe's numbers toward what engines get wrong (paid [Repeat]
//! instances, the same target again in a later execution, remade new choices), then completed
//! to the end of the play.

use crate::case::from_trace::complete_run;
use model::action::Action;
use model::game::Game;
use model::setup::Setup;
use model::state::{Phase, Pick, State};

/// The objects the pending item's earlier executions chose for `slot`.
fn earlier_targets(s: &State, exec: u8, slot: u8) -> Vec<model::state::Obj> {
    let Some(item) = s
        .chain
        .iter()
        .find(|i| i.is_pending() || matches!(i.phase, Phase::NewChoices { .. }))
    else {
        return vec![];
    };
    item.choices
        .iter()
        .take(exec as usize)
        .flat_map(|c| c.picks.iter())
        .filter_map(|p| match p {
            Pick::Target { slot: s2, obj } if *s2 == slot => Some(*obj),
            _ => None,
        })
        .collect()
}

/// One biased choice among enabled actions; `p` is the walk's number for this decision;
/// `activate`: a gear's activated ability is taken whenever it is enabled (145.2, 401).
fn choose(s: &State, acts: &[Action], p: u16, activate: bool) -> Action {
    if activate {
        if let Some(a) = acts
            .iter()
            .find(|a| matches!(a, Action::ActivateAbility { .. }))
        {
            return *a;
        }
    }
    let r = p % 100;
    let i = (p / 100) as usize;
    let pick = |v: Vec<Action>| v[i % v.len()];
    let of =
        |f: &dyn Fn(&Action) -> bool| acts.iter().copied().filter(|a| f(a)).collect::<Vec<_>>();
    let repeat = of(&|a| matches!(a, Action::DeclareRepeat { .. }));
    if !repeat.is_empty() {
        let pay = of(&|a| matches!(a, Action::DeclareRepeat { pay: true, .. }));
        let skip = of(&|a| matches!(a, Action::DeclareRepeat { pay: false, .. }));
        return if r < 75 && !pay.is_empty() {
            pick(pay)
        } else if !skip.is_empty() {
            pick(skip)
        } else {
            pick(repeat)
        };
    }
    // New choices (750-753): sometimes declined, half the time a choice remade (rather than
    // kept), so that both 750 and what follows a remade choice (its legality, 754's
    // triggers) are reached.
    if r >= 85 && acts.contains(&Action::DeclineNewChoices) {
        return Action::DeclineNewChoices;
    }
    let remake = of(&|a| matches!(a, Action::RemakeChoice { .. }));
    if !remake.is_empty() && r < 50 {
        return pick(remake);
    }
    let optional = of(&|a| matches!(a, Action::DecideOptional { .. }));
    if !optional.is_empty() {
        return Action::DecideOptional { accept: r < 70 };
    }
    if acts.contains(&Action::EndTurn) {
        // The open state of a turn (335): mostly the next play, while one is possible.
        let plays = of(&|a| matches!(a, Action::MoveToChain { .. }));
        return if r < 85 && !plays.is_empty() {
            pick(plays)
        } else {
            Action::EndTurn
        };
    }
    if acts.contains(&Action::Pass) {
        let plays = of(&|a| matches!(a, Action::MoveToChain { .. }));
        return if r >= 40 && !plays.is_empty() {
            pick(plays)
        } else {
            Action::Pass
        };
    }
    let targets = of(&|a| matches!(a, Action::ChooseTarget { .. }));
    if !targets.is_empty() {
        let end = of(&|a| matches!(a, Action::EndTargets { .. }));
        if !end.is_empty() && r >= 70 {
            return pick(end);
        }
        if r < 55 {
            if let Action::ChooseTarget { exec, slot, .. } = targets[0] {
                let before = earlier_targets(s, exec, slot);
                let again = targets
                    .iter()
                    .copied()
                    .filter(
                        |a| matches!(a, Action::ChooseTarget { obj, .. } if before.contains(obj)),
                    )
                    .collect::<Vec<_>>();
                if !again.is_empty() {
                    return pick(again);
                }
            }
        }
        return pick(targets);
    }
    pick(acts.to_vec())
}

/// The model's run for a recipe: a walk of biased choices, completed to the end of the play;
/// `activate` (the recipe's field): a ready gear of yours is activated at the first chance.
pub fn walk(
    game: &Game,
    setup: &Setup,
    picks: &[u16],
    activate: bool,
) -> Result<Vec<(State, Action)>, String> {
    let mut s = game.initial_state(setup)?;
    let mut run = vec![];
    let mut acts = vec![];
    let mut decisions = 0usize;
    for _ in 0..2000 {
        acts.clear();
        game.actions(&s, &mut acts);
        if acts.is_empty() {
            break;
        }
        let a = if acts.len() == 1 {
            acts[0]
        } else {
            let p = if picks.is_empty() {
                0
            } else {
                picks[decisions % picks.len()]
            };
            if acts.iter().any(Action::is_decision) {
                decisions += 1;
            }
            choose(&s, &acts, p, activate)
        };
        let next = game.step(&s, &a);
        run.push((s, a));
        s = next;
    }
    Ok(complete_run(game, run, s))
}

/// Every walk number mapped so that [`choose`] makes choices of the kind `lo..hi` (a number's
/// last two digits), keeping which enabled action it picks (its hundreds, modulo 600: a
/// multiple of every option count up to 6) and within `u16` (proptest draws `u16::MAX` and its
/// neighbours often, and `p / 100 * 100 + 40` wrapped them round to a pass); an empty walk gets
/// one number.
pub fn bias(walk: &mut Vec<u16>, lo: u16, hi: u16) {
    bias_pick(walk, lo, hi, 1, 0);
}

/// [`bias`], with the hundreds also brought to `want` modulo `m` (`m` at most 6): which of `m`
/// enabled actions every decision picks.
pub fn bias_pick(walk: &mut Vec<u16>, lo: u16, hi: u16, m: u16, want: u16) {
    if walk.is_empty() {
        walk.push(0);
    }
    let m = m.clamp(1, 6);
    for p in walk {
        let i = *p / 100 % 600;
        *p = (i - i % m + want % m) * 100 + lo + *p % 100 % (hi - lo).max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Biased numbers land in the asked kind of choice, keep the option they pick among up to
    /// six, and do not wrap round near `u16::MAX` (which made a biased play a pass).
    #[test]
    fn a_biased_walk_keeps_its_pick_and_its_kind_of_choice() {
        let mut w: Vec<u16> = (0..=u16::MAX)
            .step_by(7)
            .chain([u16::MAX - 1, u16::MAX])
            .collect();
        let before = w.clone();
        bias(&mut w, 40, 50);
        for (p, q) in before.iter().zip(&w) {
            assert!((40..50).contains(&(q % 100)), "{p} -> {q}");
            for n in 1..=6 {
                assert_eq!((p / 100) % n, (q / 100) % n, "{p} -> {q}, {n} options");
            }
        }
        let mut w = vec![u16::MAX, 12_345];
        bias_pick(&mut w, 0, 40, 2, 1);
        assert!(
            w.iter().all(|q| q % 100 < 40 && (q / 100) % 2 == 1),
            "{w:?}"
        );
        let mut empty = vec![];
        bias(&mut empty, 40, 50);
        assert_eq!(empty, vec![40]);
    }
}
