//! Counterexample and witness traces, rebuilt by re-executing recorded action indices.
//!
//! The search stores only (parent, action index) per state, so a trace is recovered by walking
//! parents back to an initial state and replaying the actions forwards. Replay checks each
//! state's fingerprint against the one recorded during the search: a model whose transitions
//! depend on anything but the state would otherwise produce a trace that is silently wrong.

use crate::error::CheckError;
use crate::model::Model;
use std::fmt::{self, Write as _};

/// One transition of a trace.
pub struct Step<M: Model> {
    /// The action taken.
    pub action: M::Action,
    /// Its index in the `actions` output of the previous state.
    pub action_index: usize,
    /// The state it led to.
    pub state: M::State,
}

/// A path from an initial state, as concrete states and actions.
pub struct Trace<M: Model> {
    /// Index of the first state among `Model::init_states`.
    pub init_index: usize,
    /// The initial state.
    pub init: M::State,
    /// The transitions taken, in order.
    pub steps: Vec<Step<M>>,
}

impl<M: Model> Trace<M> {
    /// Number of transitions.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the trace is just an initial state.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The state the trace ends in.
    pub fn last_state(&self) -> &M::State {
        self.steps.last().map_or(&self.init, |s| &s.state)
    }

    /// Every state of the trace, the initial one first.
    pub fn states(&self) -> impl Iterator<Item = &M::State> {
        std::iter::once(&self.init).chain(self.steps.iter().map(|s| &s.state))
    }

    /// The action indices, enough with `init_index` to replay the trace.
    pub fn action_indices(&self) -> Vec<usize> {
        self.steps.iter().map(|s| s.action_index).collect()
    }

    /// Re-executes a trace from its indices; `None` if an index is out of range or an action
    /// does not apply.
    pub fn replay(model: &M, init_index: usize, action_indices: &[usize]) -> Option<Self> {
        let init = model.init_states().into_iter().nth(init_index)?;
        let mut trace = Trace {
            init_index,
            init,
            steps: Vec::with_capacity(action_indices.len()),
        };
        let mut actions = Vec::new();
        for &i in action_indices {
            actions.clear();
            let state = trace.last_state();
            model.actions(state, &mut actions);
            let action = actions.get(i)?;
            let next = model.next_state(state, action)?;
            trace.steps.push(Step {
                action: action.clone(),
                action_index: i,
                state: next,
            });
        }
        Some(trace)
    }

    /// Numbered steps for a report, using `format_action` and `format_step`.
    pub fn format(&self, model: &M) -> String {
        let mut out = format!("0. initial state #{}\n", self.init_index);
        let mut prev = &self.init;
        for (n, step) in self.steps.iter().enumerate() {
            let _ = writeln!(
                out,
                "{}. {}",
                n + 1,
                model.format_action(prev, &step.action)
            );
            if let Some(change) = model.format_step(prev, &step.state) {
                for line in change.lines() {
                    let _ = writeln!(out, "   {line}");
                }
            }
            prev = &step.state;
        }
        out
    }
}

/// One recorded step of a trace: an action (its index among the state's actions), then
/// `forced` forced steps (each its state's only action, declared by `Model::forced`), reaching
/// a state whose fingerprint is `fp` when it was recorded (forced states left out of the
/// visited set have none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Hop {
    /// The index of the action.
    pub action: u32,
    /// The forced steps after it.
    pub forced: u32,
    /// The fingerprint of the state reached, if recorded.
    pub fp: Option<u64>,
}

/// Rebuilds a trace from `init_index` and recorded `(action index, fingerprint)` steps,
/// checking every fingerprint (`init_fp` for the initial state) with `fingerprint`.
pub(crate) fn replay_checked<M: Model>(
    model: &M,
    fingerprint: impl Fn(&M::State) -> u64,
    property: &str,
    init_index: usize,
    init_fp: u64,
    path: &[(u32, u64)],
) -> Result<Trace<M>, CheckError> {
    let hops: Vec<Hop> = path
        .iter()
        .map(|&(action, fp)| Hop {
            action,
            forced: 0,
            fp: Some(fp),
        })
        .collect();
    replay_hops(model, fingerprint, property, init_index, init_fp, &hops)
}

/// [`replay_checked`] over [`Hop`]s: each forced step is re-executed (and must be its state's
/// only action, the one `Model::forced` declares), and each recorded fingerprint is checked.
pub(crate) fn replay_hops<M: Model>(
    model: &M,
    fingerprint: impl Fn(&M::State) -> u64,
    property: &str,
    init_index: usize,
    init_fp: u64,
    hops: &[Hop],
) -> Result<Trace<M>, CheckError> {
    let diverged = |step: usize, detail: String| CheckError::ModelNotDeterministic {
        property: property.to_string(),
        step,
        detail,
    };
    let mut inits = model.init_states();
    if init_index >= inits.len() {
        return Err(diverged(
            0,
            format!(
                "init_states now returns {} states, fewer than the recorded index {init_index}",
                inits.len()
            ),
        ));
    }
    let init = inits.swap_remove(init_index);
    replay_from(
        model,
        fingerprint,
        property,
        (init_index, init, init_fp),
        hops,
    )
}

/// [`replay_hops`] from an initial state the caller already has (`(index, state, fingerprint)`),
/// so that replaying many traces builds the initial states once.
pub(crate) fn replay_from<M: Model>(
    model: &M,
    fingerprint: impl Fn(&M::State) -> u64,
    property: &str,
    (init_index, init, init_fp): (usize, M::State, u64),
    hops: &[Hop],
) -> Result<Trace<M>, CheckError> {
    let diverged = |step: usize, detail: String| CheckError::ModelNotDeterministic {
        property: property.to_string(),
        step,
        detail,
    };
    if fingerprint(&init) != init_fp {
        return Err(diverged(
            0,
            format!(
                "initial state #{init_index} has a different fingerprint than during the search"
            ),
        ));
    }
    let mut trace = Trace {
        init_index,
        init,
        steps: Vec::with_capacity(hops.len()),
    };
    let mut actions = Vec::new();
    for hop in hops {
        let last = trace.steps.len() + 1 + hop.forced as usize;
        for k in 0..=hop.forced {
            let step = trace.steps.len() + 1;
            let state = trace.last_state();
            actions.clear();
            model.actions(state, &mut actions);
            let index = if k == 0 { hop.action } else { 0 };
            if k > 0 {
                let declared = model.forced(state);
                if actions.len() != 1 || declared.as_ref() != actions.first() {
                    return Err(CheckError::ForcedStepMismatch {
                        detail: format!(
                            "at step {step} of the trace of `{property}`, the state declared \
                             forced ({declared:?}) has the actions {actions:?}"
                        ),
                    });
                }
            }
            let Some(action) = actions.get(index as usize) else {
                return Err(diverged(
                    step,
                    format!(
                        "the state now has {} actions; the search took action #{index}",
                        actions.len()
                    ),
                ));
            };
            let Some(next) = model.next_state(state, action) else {
                return Err(diverged(
                    step,
                    format!("action #{index} ({action:?}) no longer applies"),
                ));
            };
            if step == last && hop.fp.is_some_and(|fp| fingerprint(&next) != fp) {
                return Err(diverged(
                    step,
                    format!("action #{index} ({action:?}) now leads to a different state than during the search"),
                ));
            }
            trace.steps.push(Step {
                action: action.clone(),
                action_index: index as usize,
                state: next,
            });
        }
    }
    Ok(trace)
}

impl<M: Model> Clone for Step<M> {
    fn clone(&self) -> Self {
        Step {
            action: self.action.clone(),
            action_index: self.action_index,
            state: self.state.clone(),
        }
    }
}

impl<M: Model> Clone for Trace<M> {
    fn clone(&self) -> Self {
        Trace {
            init_index: self.init_index,
            init: self.init.clone(),
            steps: self.steps.clone(),
        }
    }
}

impl<M: Model> fmt::Debug for Step<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Step")
            .field("action", &self.action)
            .field("action_index", &self.action_index)
            .field("state", &self.state)
            .finish()
    }
}

impl<M: Model> fmt::Debug for Trace<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trace")
            .field("init_index", &self.init_index)
            .field("init", &self.init)
            .field("steps", &self.steps)
            .finish()
    }
}

impl<M: Model> PartialEq for Step<M> {
    fn eq(&self, other: &Self) -> bool {
        self.action == other.action
            && self.action_index == other.action_index
            && self.state == other.state
    }
}

impl<M: Model> PartialEq for Trace<M> {
    fn eq(&self, other: &Self) -> bool {
        self.init_index == other.init_index && self.init == other.init && self.steps == other.steps
    }
}
