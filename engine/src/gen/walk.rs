//! The random walk that turns a starting position into a run: at each state one choice among
//! the model's enabled actions (the model's own nondeterminism, nothing added), taken by one
//! policy object, [`Chooser`], that leans toward what engines get wrong (paid [Repeat]
//! instances, the same target again in a later execution, remade new choices), then completed
//! to the end of the play. The numbers come from the generator's PRNG, or from raw bytes for
//! coverage-guided fuzzers, one number a decision.

use super::prng::Rng;
use model::action::Action;
use model::game::Game;
use model::setup::Setup;
use model::state::{Phase, Pick, State};
use rbcheck_case::from_trace::complete_run;

/// Where a walk's choices come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Walk {
    /// The PRNG stream of this seed.
    Seed(u64),
    /// These bytes, one a number, then zeros (a byte-string fuzzer's input: a mutation of one
    /// byte changes one decision).
    Bytes(Vec<u8>),
}

/// The walk's policy: how one action is chosen among the enabled ones.
pub struct Chooser {
    source: Source,
}

enum Source {
    Rng(Rng),
    Bytes(Vec<u8>, usize),
}

impl Chooser {
    /// The chooser of a walk.
    pub fn new(w: &Walk) -> Chooser {
        Chooser {
            source: match w {
                Walk::Seed(s) => Source::Rng(Rng::new(*s)),
                Walk::Bytes(b) => Source::Bytes(b.clone(), 0),
            },
        }
    }

    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        match &mut self.source {
            Source::Rng(r) => r.below(n),
            Source::Bytes(b, i) => {
                let x = b.get(*i).copied().unwrap_or(0);
                *i += 1;
                usize::from(x) % n.max(1)
            }
        }
    }

    /// One of `v` (not empty).
    fn pick(&mut self, v: &[Action]) -> Action {
        v[self.below(v.len())]
    }

    /// One biased choice among `acts` in state `s`.
    pub fn choose(&mut self, s: &State, acts: &[Action]) -> Action {
        let r = self.below(100);
        let of =
            |f: &dyn Fn(&Action) -> bool| acts.iter().copied().filter(|a| f(a)).collect::<Vec<_>>();
        let repeat = of(&|a| matches!(a, Action::DeclareRepeat { .. }));
        if !repeat.is_empty() {
            let pay = of(&|a| matches!(a, Action::DeclareRepeat { pay: true, .. }));
            let skip = of(&|a| matches!(a, Action::DeclareRepeat { pay: false, .. }));
            let v = match (r < 75 && !pay.is_empty(), skip.is_empty()) {
                (true, _) => pay,
                (false, false) => skip,
                _ => repeat,
            };
            return self.pick(&v);
        }
        // New choices (750-753): sometimes declined, half the time a choice remade.
        if r >= 85 && acts.contains(&Action::DeclineNewChoices) {
            return Action::DeclineNewChoices;
        }
        let remake = of(&|a| matches!(a, Action::RemakeChoice { .. }));
        if !remake.is_empty() && r < 50 {
            return self.pick(&remake);
        }
        let optional = of(&|a| matches!(a, Action::DecideOptional { .. }));
        if !optional.is_empty() {
            return Action::DecideOptional { accept: r < 70 };
        }
        let starts = of(&|a| {
            matches!(
                a,
                Action::MoveToChain { .. } | Action::ActivateAbility { .. }
            )
        });
        if acts.contains(&Action::EndTurn) {
            // The open state of a turn (335): mostly another play, while one is possible.
            return if r < 85 && !starts.is_empty() {
                self.pick(&starts)
            } else {
                Action::EndTurn
            };
        }
        if acts.contains(&Action::Pass) {
            return if r >= 40 && !starts.is_empty() {
                self.pick(&starts)
            } else {
                Action::Pass
            };
        }
        let targets = of(&|a| matches!(a, Action::ChooseTarget { .. }));
        if !targets.is_empty() {
            return self.target(s, acts, &targets, r);
        }
        self.pick(acts)
    }

    /// A target: sometimes no more ("up to"), often what an earlier execution chose for the
    /// same instruction (so that executing it first makes it illegal for a later one).
    fn target(&mut self, s: &State, acts: &[Action], targets: &[Action], r: usize) -> Action {
        let end: Vec<Action> = acts
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::EndTargets { .. }))
            .collect();
        if !end.is_empty() && r >= 70 {
            return self.pick(&end);
        }
        if r < 55 {
            if let Action::ChooseTarget { exec, slot, .. } = targets[0] {
                let before = earlier_targets(s, exec, slot);
                let again: Vec<Action> = targets
                    .iter()
                    .copied()
                    .filter(
                        |a| matches!(a, Action::ChooseTarget { obj, .. } if before.contains(obj)),
                    )
                    .collect();
                if !again.is_empty() {
                    return self.pick(&again);
                }
            }
        }
        self.pick(targets)
    }
}

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

/// The model's run from `setup`: the chooser's choices, completed to the end of the play.
pub fn walk(game: &Game, setup: &Setup, w: &Walk) -> Result<Vec<(State, Action)>, String> {
    let mut chooser = Chooser::new(w);
    let mut s = game.initial_state(setup)?;
    let mut run = vec![];
    let mut acts = vec![];
    for _ in 0..2000 {
        acts.clear();
        game.actions(&s, &mut acts);
        if acts.is_empty() {
            break;
        }
        let a = if acts.len() == 1 {
            acts[0]
        } else {
            chooser.choose(&s, &acts)
        };
        let next = game.step(&s, &a);
        run.push((s, a));
        s = next;
    }
    Ok(complete_run(game, run, s))
}
