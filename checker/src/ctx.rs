//! What every search strategy shares: the read-only context of a run (the model, its
//! properties, how states are fingerprinted), catching a panic in model code, and a property's
//! result record.

use crate::error::CheckError;
use crate::fingerprint::fingerprint;
use crate::model::{Expectation, FusedConditions, Model, Property};
use crate::result::{Outcome, PropertyResult};
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The read-only part of a search, shared by all workers.
pub(crate) struct Ctx<'a, M: Model> {
    pub(crate) model: &'a M,
    pub(crate) props: &'a [Property<M>],
    /// Every condition of `props` at once, when the model gives that.
    pub(crate) fused: Option<&'a Fused<M>>,
    pub(crate) symmetry: bool,
}

/// A model's function evaluating every property's condition at once
/// ([`Model::fused_conditions`]), with which bits say a property is settled.
pub(crate) struct Fused<M: Model> {
    all: FusedConditions<M>,
    /// The invariants: settled where the condition fails.
    always: u64,
    /// The witnesses: settled where the condition holds.
    sometimes: u64,
}

impl<M: Model> Fused<M> {
    /// `all` for `props`, which it evaluates in their order.
    pub(crate) fn new(all: FusedConditions<M>, props: &[Property<M>]) -> Fused<M> {
        let mask = |e| {
            props
                .iter()
                .enumerate()
                .filter(|(_, p)| p.expectation == e)
                .fold(0u64, |m, (i, _)| m | 1 << i)
        };
        Fused {
            all,
            always: mask(Expectation::Always),
            sometimes: mask(Expectation::Sometimes),
        }
    }

    /// The state properties `state` settles, a bit per property: a failing invariant, a
    /// witness holding (never a termination property).
    #[inline]
    fn settled(&self, model: &M, state: &M::State) -> u64 {
        ((self.all)(model, state) ^ self.always) & (self.always | self.sometimes)
    }
}

impl<M: Model> Clone for Ctx<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M: Model> Copy for Ctx<'_, M> {}

impl<M: Model> Ctx<'_, M> {
    #[inline]
    pub(crate) fn fp(&self, s: &M::State) -> u64 {
        if self.symmetry {
            self.model.fingerprint(s)
        } else {
            fingerprint(s)
        }
    }

    /// The active state properties that hit on `state`, as bits in `active` order.
    #[inline]
    pub(crate) fn hits(&self, active: &[usize], state: &M::State) -> u64 {
        let settled = self.settled(state);
        let mut bits = 0;
        for (k, &p) in active.iter().enumerate() {
            let hit = match settled {
                Some(all) => all >> p & 1 == 1,
                None => self.settles(p, state),
            };
            if hit {
                bits |= 1 << k;
            }
        }
        bits
    }

    /// Every state property `state` settles, a bit per property, when the model evaluates
    /// them all at once; `None` otherwise (ask [`Ctx::settles`] for each).
    #[inline]
    pub(crate) fn settled(&self, state: &M::State) -> Option<u64> {
        self.fused.map(|f| f.settled(self.model, state))
    }

    /// Whether `state` settles state property `p`: fails it, or holds it for a witness.
    #[inline]
    pub(crate) fn settles(&self, p: usize, state: &M::State) -> bool {
        let prop = &self.props[p];
        (prop.condition)(self.model, state) == (prop.expectation == Expectation::Sometimes)
    }

    /// Evaluates the `active` state properties on `state`, remembering the first hit of each.
    #[inline]
    pub(crate) fn check_state<R: Copy>(
        &self,
        active: &[usize],
        state: &M::State,
        r: R,
        found: &mut [Option<R>],
    ) {
        if found.iter().all(Option::is_some) {
            return;
        }
        let settled = self.settled(state);
        for (slot, &p) in found.iter_mut().zip(active) {
            if slot.is_none() {
                let hit = match settled {
                    Some(all) => all >> p & 1 == 1,
                    None => self.settles(p, state),
                };
                if hit {
                    *slot = Some(r);
                }
            }
        }
    }
}

/// Runs model code, turning a panic into [`CheckError::ModelPanicked`] described by `context`
/// (built only on panic). Unwind safety is asserted because whatever the panic interrupted is
/// discarded with the run.
pub(crate) fn catch<T>(
    f: impl FnOnce() -> Result<T, CheckError>,
    context: impl FnOnce() -> String,
) -> Result<T, CheckError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| Err(panicked(context(), &*payload)))
}

/// The error for a caught panic, with its message if it has one.
fn panicked(context: String, payload: &(dyn Any + Send)) -> CheckError {
    let message = if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else {
        "(panic payload is not a string)"
    };
    CheckError::ModelPanicked {
        detail: format!("{context}: {message}"),
    }
}

/// A property's result record.
pub(crate) fn result<M: Model>(prop: &Property<M>, outcome: Outcome<M>) -> PropertyResult<M> {
    PropertyResult {
        name: prop.name,
        rule: prop.rule,
        doc: prop.doc,
        expectation: prop.expectation,
        outcome,
    }
}
