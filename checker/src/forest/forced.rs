//! Runs of forced steps (see `Model::forced`) in a scenario's search: how a state left out of
//! the visited set is still located, and how the full trace to it is rebuilt.
//!
//! A forced state (its only action is a step no player chooses) is checked, counted and
//! expanded but not stored: the frontier carries it with a [`Mark`], the last stored state
//! before it and the [`Link`] from there. A stored state's record keeps its link too, so a
//! record's parent may be several steps back; a finding's path is a list of
//! [`crate::trace::Hop`]s, and rebuilding its trace re-executes every forced step.

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
