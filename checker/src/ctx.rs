//! What every search strategy shares: the read-only context of a run (the model, its
//! properties, how states are fingerprinted), catching a panic in model code, and a property's
//! result record.

use crate::error::CheckError;
use crate::fingerprint::fingerprint;
use crate::model::{Expectation, Model, Property};
use crate::result::{Outcome, PropertyResult};
use crate::visited::StateRef;
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The read-only part of a search, shared by all workers.
pub(crate) struct Ctx<'a, M: Model> {
    pub(crate) model: &'a M,
    pub(crate) props: &'a [Property<M>],
    pub(crate) symmetry: bool,
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
        let mut bits = 0;
        for (k, &p) in active.iter().enumerate() {
            let prop = &self.props[p];
            let holds = (prop.condition)(self.model, state);
            if holds == (prop.expectation == Expectation::Sometimes) {
                bits |= 1 << k;
            }
        }
        bits
    }

    /// Evaluates the `active` state properties on `state`, remembering the first hit of each.
    #[inline]
    pub(crate) fn check_state(
        &self,
        active: &[usize],
        state: &M::State,
        r: StateRef,
        found: &mut [Option<StateRef>],
    ) {
        for (slot, &p) in found.iter_mut().zip(active) {
            if slot.is_none() {
                let prop = &self.props[p];
                let holds = (prop.condition)(self.model, state);
                if holds == (prop.expectation == Expectation::Sometimes) {
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
