//! Runs of forced steps (see `Model::forced`) in a scenario's search: how a state left out of
//! the visited set is still located, and how the full trace to it is rebuilt.
//!
//! A forced state (its only action is a step no player chooses) is checked, counted and
//! expanded but not stored: the frontier carries it with a [`Mark`], the last stored state
//! before it and the [`Link`] from there. A stored state's record keeps its link too, so a
//! record's parent may be several steps back; [`unfold`] re-executes those steps from the
//! initial state to give every step of a trace with its fingerprint.

use crate::bfs::Ctx;
use crate::error::CheckError;
use crate::model::Model;

/// How a state is reached from the stored state before it: one action (its index among that
/// state's actions), then `forced()` forced steps. Packed in 32 bits so that a record stays
/// 16 bytes: the action index in the low 24 bits, the forced steps in the high 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Link(u32);

/// Bits of a [`Link`] that hold the action index.
const ACTION_BITS: u32 = 24;

impl Link {
    /// The most forced steps a link holds: the state after that many is stored, which also
    /// keeps a cycle of forced steps finite (its stored states repeat and are deduplicated).
    pub(super) const MAX_FORCED: u32 = 255;

    /// The link of an initial state's record, which no trace follows.
    pub(super) const ROOT: Link = Link(0);

    /// The action with index `action`, no forced step after it; `None` if the index does not
    /// fit in 24 bits.
    pub(super) fn new(action: u32) -> Option<Link> {
        (action < 1 << ACTION_BITS).then_some(Link(action))
    }

    /// The index of the chosen action.
    pub(super) fn action(self) -> u32 {
        self.0 & ((1 << ACTION_BITS) - 1)
    }

    /// The forced steps after it.
    pub(super) fn forced(self) -> u32 {
        self.0 >> ACTION_BITS
    }

    /// The same link followed by one more forced step; `None` past [`Link::MAX_FORCED`].
    pub(super) fn then_forced(self) -> Option<Link> {
        (self.forced() < Self::MAX_FORCED).then_some(Link(self.0 + (1 << ACTION_BITS)))
    }
}

/// Where a frontier state is: its own record (`since: None`), or, for a forced state that is
/// not stored, the last stored state before it (`at`) and the link from there.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark {
    /// A record: the state's own, or its last stored ancestor's.
    pub(super) at: u32,
    /// How the state is reached from record `at`, if it is not stored itself.
    pub(super) since: Option<Link>,
}

impl Mark {
    /// A stored state's mark.
    pub(super) fn stored(at: u32) -> Mark {
        Mark { at, since: None }
    }
}

/// A trace with forced runs folded: (link, fingerprint) per stored state from the initial
/// state, and for an unstored last state its link with no fingerprint.
pub(super) type Folded = Vec<(Link, Option<u64>)>;

/// The (action index, fingerprint) steps from `init` along `folded`, every forced step
/// included: forced steps are re-executed (action index 0, the state's only action), and each
/// stored state's fingerprint is checked against the one recorded during the search.
pub(super) fn unfold<M: Model>(
    ctx: &Ctx<'_, M>,
    property: &str,
    init: &M::State,
    folded: &Folded,
) -> Result<Vec<(u32, u64)>, CheckError> {
    let model = ctx.model;
    let diverged = |step: usize, detail: String| CheckError::ModelNotDeterministic {
        property: property.to_string(),
        step,
        detail,
    };
    let mut state = init.clone();
    let mut out: Vec<(u32, u64)> = vec![];
    let mut actions = vec![];
    for &(link, fp) in folded {
        actions.clear();
        model.actions(&state, &mut actions);
        let step = out.len() + 1;
        let Some(action) = actions.get(link.action() as usize) else {
            return Err(diverged(step, format!("action #{} is gone", link.action())));
        };
        state = model
            .next_state(&state, action)
            .ok_or_else(|| diverged(step, "the action no longer applies".into()))?;
        out.push((link.action(), ctx.fp(&state)));
        for _ in 0..link.forced() {
            let step = out.len() + 1;
            actions.clear();
            model.actions(&state, &mut actions);
            let declared = model.forced(&state);
            if actions.len() != 1 || declared.as_ref() != actions.first() {
                return Err(CheckError::ForcedStepMismatch {
                    detail: format!(
                        "at step {step} of the trace of `{property}`, the state declared \
                         forced ({declared:?}) has the actions {actions:?}"
                    ),
                });
            }
            state = model
                .next_state(&state, &actions[0])
                .ok_or_else(|| diverged(step, "the forced step does not apply".into()))?;
            out.push((0, ctx.fp(&state)));
        }
        if let Some(fp) = fp {
            if out.last().map(|l| l.1) != Some(fp) {
                return Err(diverged(
                    out.len(),
                    "the state has a different fingerprint than during the search".into(),
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::Link;

    #[test]
    fn a_link_keeps_its_action_and_counts_forced_steps_up_to_the_limit() {
        let mut l = Link::new((1 << 24) - 1).unwrap();
        assert!(Link::new(1 << 24).is_none());
        for n in 1..=Link::MAX_FORCED {
            l = l.then_forced().unwrap();
            assert_eq!((l.action(), l.forced()), ((1 << 24) - 1, n));
        }
        assert!(l.then_forced().is_none());
    }
}
