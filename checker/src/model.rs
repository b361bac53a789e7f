//! What a checkable system is: the `Model` trait and its `Property` values.
//!
//! A model describes states and transitions only; it knows nothing about how it is explored.
//! The search (see `crate::bfs`) is generic over this trait, in the manner of Stateright's `Model`.

use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

/// A transition system with named properties, explored by the checker.
pub trait Model: Sync {
    /// One state of the system. Hash and Eq must agree with `fingerprint`.
    type State: Clone + Debug + Hash + Eq + Send + Sync;
    /// One transition label; re-executing the same action from the same state must give the same state.
    type Action: Clone + Debug + PartialEq + Send + Sync;

    /// The initial states, in a fixed order.
    fn init_states(&self) -> Vec<Self::State>;

    /// Appends the actions enabled in `state` to `out`, in a fixed order (the caller clears `out`).
    fn actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);

    /// The state reached by `action`, or `None` if the action turns out not to apply.
    fn next_state(&self, state: &Self::State, action: &Self::Action) -> Option<Self::State>;

    /// Turns `state`, which the caller no longer needs, into the state [`Model::next_state`]
    /// would give; `false`, with `state` unchanged, if the action does not apply. The search
    /// calls it for each state's last action. Override it when states are costly to copy or
    /// move, to step in place; it must give exactly what `next_state` gives.
    fn next_state_in_place(&self, state: &mut Self::State, action: &Self::Action) -> bool {
        match self.next_state(state, action) {
            Some(next) => {
                *state = next;
                true
            }
            None => false,
        }
    }

    /// [`Model::next_state`] for an action the search has just taken from `actions(state)`: a
    /// model whose `next_state` re-checks the guard for outside callers can skip it here, out
    /// of the search's inner loop. It must give exactly what `next_state` gives.
    fn next_state_of_enabled(
        &self,
        state: &Self::State,
        action: &Self::Action,
    ) -> Option<Self::State> {
        self.next_state(state, action)
    }

    /// [`Model::next_state_in_place`] for an action just taken from `actions(state)` (see
    /// [`Model::next_state_of_enabled`]).
    fn next_state_in_place_of_enabled(
        &self,
        state: &mut Self::State,
        action: &Self::Action,
    ) -> bool {
        self.next_state_in_place(state, action)
    }

    /// [`Model::next_state`] again for a transition the search has already taken, to rebuild a
    /// state it no longer holds (a fingerprint a finding's path needs). A model that counts
    /// its transitions (coverage) must not count these: it must give exactly what
    /// `next_state` gives, and nothing else.
    fn replay_state(&self, state: &Self::State, action: &Self::Action) -> Option<Self::State> {
        self.next_state(state, action)
    }

    /// Whether the model counts or records the steps it is asked for (coverage, probes of
    /// what a step reads): the checker then asks for no step beyond the search's own, such as
    /// the random walks that estimate a scenario's size to order a run's scenarios.
    fn observes_steps(&self) -> bool {
        false
    }

    /// The one action of `state` if `state` is a *forced step*: it has exactly one enabled
    /// action, and no player chooses it (a procedure step of the rules, like SPIN's `d_step`).
    /// `Some(a)` promises that `actions(state)` is exactly `[a]`; a trace that finds otherwise
    /// is an error ([`crate::CheckError::ForcedStepMismatch`]).
    ///
    /// With independent initial states (`crate::forest`), the checker then follows the run of
    /// forced steps without storing its states in the visited set: each is still checked
    /// against every property and counted as visited, and traces still show every step. A
    /// forced state reached twice is explored twice, so declare only steps whose states are
    /// not shared (as in a forest). The level-synchronous search ignores it.
    fn forced(&self, _state: &Self::State) -> Option<Self::Action> {
        None
    }

    /// The properties to verify; an empty list is an error for the checker.
    fn properties(&self) -> Vec<Property<Self>>
    where
        Self: Sized;

    /// One function that evaluates the condition of every property of `props` (the list
    /// [`Model::properties`] gave) on a state at once: bit `i` set when `props[i]`'s condition
    /// holds (a `Terminates` property's bit is not read). `None`, the default, has the checker
    /// call each condition on its own. Override it when the conditions share work that each
    /// would otherwise redo or look up per state (a summary of the state's history): it must
    /// give exactly what the conditions give. The checker asks once per run, with at most 64
    /// properties; the scenario-by-scenario search (`crate::forest`) uses it, at most once per
    /// state, and the level-synchronous search calls each condition.
    fn fused_conditions(&self, _props: &[Property<Self>]) -> Option<FusedConditions<Self>>
    where
        Self: Sized,
    {
        None
    }

    /// The deduplication key of a state. Override to apply symmetry reduction: states that are
    /// equivalent up to renaming interchangeable objects should map to the same key. The search
    /// still explores and reports concrete states, so every trace replays.
    fn fingerprint(&self, state: &Self::State) -> u64 {
        crate::fingerprint::fingerprint(state)
    }

    /// Whether the states reachable from different initial states are always different (the
    /// reachable graph splits into one part per initial state), e.g. because every state
    /// carries what it started from. The checker then explores each initial state's part on
    /// its own, in parallel, freeing it when done (see `crate::forest`), with the same results;
    /// and the run can be split into shards (`Checker::shard`). Declaring it falsely makes
    /// states reached from two initial states count twice: leave it `false` unless it holds.
    fn independent_inits(&self) -> bool {
        false
    }

    /// Whether the graph reachable from the initial state `init` is a tree: no state (no
    /// fingerprint, see [`Model::fingerprint`]) is reached by two different paths from `init`,
    /// and there is no cycle. Only used with [`Model::independent_inits`]: such a scenario is
    /// then explored depth-first with no visited set, storing only the current path
    /// (`crate::forest`), with the same results as the breadth-first scenario search.
    ///
    /// It requires [`Model::progress`] on every state, strictly increasing along every
    /// transition: the search checks it and stops with [`crate::CheckError::NotTreeShaped`]
    /// otherwise, so a false declaration cannot loop forever. Two paths meeting without a
    /// cycle cannot be detected without a visited set: the shared states would be counted once
    /// per path. Leave it `false` unless it holds.
    fn tree_shaped(&self, _init: &Self::State) -> bool {
        false
    }

    /// A value that must strictly increase along every transition, if the model has one.
    /// With it, `Terminates` properties are checked soundly without storing edges: a transition
    /// that does not increase it is reported as a possible cycle.
    fn progress(&self, _state: &Self::State) -> Option<u64> {
        None
    }

    /// A one-line description of an action for reports (the rule it applies, what it chose).
    fn format_action(&self, _state: &Self::State, action: &Self::Action) -> String {
        format!("{action:?}")
    }

    /// A description of what changed from `last` to `next`, for counterexample steps.
    fn format_step(&self, _last: &Self::State, _next: &Self::State) -> Option<String> {
        None
    }
}

/// What the checker must establish about a property's condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Expectation {
    /// The condition holds in every reachable state (an invariant); a violation has a shortest trace.
    Always,
    /// The condition holds in at least one reachable state (a witness); none found is a failure,
    /// because a bound that never reaches the situation proves nothing about it.
    Sometimes,
    /// Every path ends: there is no infinite path, and every state without successors satisfies
    /// the condition.
    Terminates,
}

/// A property's condition, read from the state (and the model's fixed data): true where the
/// property's condition holds.
pub type Condition<M> = Arc<dyn Fn(&M, &<M as Model>::State) -> bool + Send + Sync>;

/// Every property's condition on a state at once, as bits (see [`Model::fused_conditions`]).
pub type FusedConditions<M> = Box<dyn Fn(&M, &<M as Model>::State) -> u64 + Send + Sync>;

/// How a state that settles a property does so, in words and numbers ("3 executions, 1
/// instance paid, expected 2"); `None` if it has nothing to add to the property's doc.
pub type Explain<M> = Arc<dyn Fn(&M, &<M as Model>::State) -> Option<String> + Send + Sync>;

/// A named, documented condition over states with the rule it comes from.
///
/// Inside `Model::properties`, write `Property::<Self>::always(...)` when the compiler cannot
/// infer the closure's parameter types.
pub struct Property<M: Model> {
    /// Stable name, used on the command line and in JSON output.
    pub name: &'static str,
    /// The rule (or rules) the property checks, e.g. "820.1.c.3".
    pub rule: &'static str,
    /// One sentence saying what the property means.
    pub doc: &'static str,
    /// What must be established about the condition.
    pub expectation: Expectation,
    /// The condition.
    pub condition: Condition<M>,
    /// Says how the last state of a counterexample (or witness) settles the property; read only
    /// when a report is written, never during the search.
    pub explain: Option<Explain<M>>,
}

impl<M: Model> Property<M> {
    /// A property with this expectation and condition, and no explanation.
    pub fn new(
        name: &'static str,
        rule: &'static str,
        doc: &'static str,
        expectation: Expectation,
        condition: impl Fn(&M, &M::State) -> bool + Send + Sync + 'static,
    ) -> Self {
        Property {
            name,
            rule,
            doc,
            expectation,
            condition: Arc::new(condition),
            explain: None,
        }
    }

    /// The same property (name, rule, doc, expectation) over another model, with its condition
    /// written for that model: for adapters and wrappers around a model. The explanation is
    /// not carried over (it reads the other model's states).
    pub fn for_model<N: Model>(
        &self,
        condition: impl Fn(&N, &N::State) -> bool + Send + Sync + 'static,
    ) -> Property<N> {
        Property::new(self.name, self.rule, self.doc, self.expectation, condition)
    }

    /// The property with `explain` saying how a state settles it.
    pub fn explained_by(
        mut self,
        explain: impl Fn(&M, &M::State) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.explain = Some(Arc::new(explain));
        self
    }

    /// What `explain` says of `state`, if the property has one and it has something to say.
    pub fn explanation(&self, model: &M, state: &M::State) -> Option<String> {
        self.explain.as_ref().and_then(|e| e(model, state))
    }

    /// An invariant.
    pub fn always(
        name: &'static str,
        rule: &'static str,
        doc: &'static str,
        condition: impl Fn(&M, &M::State) -> bool + Send + Sync + 'static,
    ) -> Self {
        Property::new(name, rule, doc, Expectation::Always, condition)
    }

    /// A witness that must be reachable.
    pub fn sometimes(
        name: &'static str,
        rule: &'static str,
        doc: &'static str,
        condition: impl Fn(&M, &M::State) -> bool + Send + Sync + 'static,
    ) -> Self {
        Property::new(name, rule, doc, Expectation::Sometimes, condition)
    }

    /// Termination, with the condition every final state must satisfy.
    pub fn terminates(
        name: &'static str,
        rule: &'static str,
        doc: &'static str,
        condition: impl Fn(&M, &M::State) -> bool + Send + Sync + 'static,
    ) -> Self {
        Property::new(name, rule, doc, Expectation::Terminates, condition)
    }
}

impl<M: Model> Clone for Property<M> {
    fn clone(&self) -> Self {
        Property {
            condition: Arc::clone(&self.condition),
            explain: self.explain.clone(),
            ..*self
        }
    }
}

impl<M: Model> Debug for Property<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Property")
            .field("name", &self.name)
            .field("rule", &self.rule)
            .field("expectation", &self.expectation)
            .finish()
    }
}
