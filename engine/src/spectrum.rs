//! Spectrum-based fault localisation over a fuzzing run: which rule clauses the cases of a
//! cluster apply far more often than the cases the engine passed.
//!
//! Every case's model run applies rule clauses at its steps (`gen::goals::step_clauses`). A
//! clause that every failing case of a cluster applies and few passing cases do is where the
//! engine's mistake most likely lives; one that every case applies (paying the costs,
//! resolving) says nothing by itself. So each clause is also counted in the situations it was
//! applied in, as statistical debugging counts predicates at a program point rather than the
//! point alone: "340.1 with two or more items on the chain" separates an engine that resolves
//! the oldest item first, where "340.1" alone is applied by every case. The score is Ochiai's,
//! the measure the fault-localisation literature found best on real faults:
//! `failing(p) / sqrt(failing_total * (failing(p) + passing(p)))`.

use crate::gen::goals::{affected, item};
use model::action::Action;
use model::state::{Event, Phase, Player, State};
use rbcheck_case::ast::Case;
use std::collections::BTreeMap;

/// A situation a clause was applied in, which may point at a mistake more sharply than the
/// clause alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Context {
    /// Wherever it was applied.
    Any,
    /// With two or more items on the chain (which one goes first matters).
    DeepChain,
    /// In the second or a later execution of a repeated item (820.3).
    RepeatedExecution,
    /// In the third or a later execution.
    ThirdExecution,
    /// On an item controlled by the player whose turn it is not.
    OpponentsItem,
    /// Changing the things of the player who does not control the item.
    OtherPlayersThings,
}

impl Context {
    /// The situation in words, after the clause ("340.1 with two or more items on the chain");
    /// `None` for [`Context::Any`].
    pub fn words(self) -> Option<&'static str> {
        match self {
            Context::Any => None,
            Context::DeepChain => Some("with two or more items on the chain"),
            Context::RepeatedExecution => Some("in a repeated execution"),
            Context::ThirdExecution => Some("in the third or a later execution"),
            Context::OpponentsItem => Some("on an item of the player whose turn it is not"),
            Context::OtherPlayersThings => Some("changing the other player's things"),
        }
    }
}

/// A clause in a situation: what the spectrum counts.
pub type Predicate = (&'static str, Context);

/// A clause and how strongly a cluster's cases point at it (0 to 1).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Suspect {
    /// The rule clause, as the digest numbers it.
    pub clause: String,
    /// The situation it was applied in, where that points more sharply than the clause alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<&'static str>,
    /// Ochiai's score: 1 when every failing case and no passing case applies it.
    pub score: f64,
}

impl Suspect {
    /// The clause, its situation if any, and its score: `340.1 with two or more items on the
    /// chain (0.93)`.
    pub fn words(&self) -> String {
        match self.context {
            Some(ctx) => format!("{} {ctx} ({:.2})", self.clause, self.score),
            None => format!("{} ({:.2})", self.clause, self.score),
        }
    }
}

/// The predicates each failing case of a run holds, by case index.
#[derive(Clone, Debug, Default)]
pub struct Failing(pub BTreeMap<usize, Vec<Predicate>>);

/// Per predicate, the passing cases of a run that hold it.
#[derive(Clone, Debug, Default)]
pub struct Passing(pub BTreeMap<Predicate, usize>);

impl Passing {
    /// Counts a case the engine passed under every predicate its model run holds.
    pub fn count(&mut self, case: &Case) {
        for p in predicates(case) {
            *self.0.entry(p).or_default() += 1;
        }
    }
}

/// The execution (from 0) the item a step concerns is in, if it is resolving.
fn execution(s: &State, n: &State) -> Option<u8> {
    let started = n.log[s.log.len().min(n.log.len())..]
        .iter()
        .filter_map(|e| match e {
            Event::ExecutionStarted { exec, .. } => Some(*exec),
            _ => None,
        })
        .max();
    let running = item(s).and_then(|i| match i.phase {
        Phase::Resolving { done } => Some(done),
        Phase::NewChoices { exec, .. } => Some(exec),
        _ => None,
    });
    started.max(running)
}

/// The situations a step from `s` by `a` to `n` holds for every clause it applies.
fn contexts(s: &State, n: &State) -> Vec<Context> {
    let mut out = vec![Context::Any];
    let exec = execution(s, n).unwrap_or(0);
    if exec >= 1 {
        out.push(Context::RepeatedExecution);
    }
    if exec >= 2 {
        out.push(Context::ThirdExecution);
    }
    if let Some(it) = item(s) {
        if it.controller != Player::YOU {
            out.push(Context::OpponentsItem);
        }
        let other = if it.controller == Player::YOU {
            "opp"
        } else {
            "you"
        };
        let aff = affected(s, n);
        if aff == "both" || aff == other {
            out.push(Context::OtherPlayersThings);
        }
    }
    out
}

/// The predicates a case's model run holds: each clause a step applies, in each situation the
/// step was in; none if the model cannot replay the case. The depth of the chain is a situation
/// only of the steps that pick an item of it (340.1 resolving the newest, 337.1 finalizing the
/// oldest pending), where it decides which one: for every other step it is incidental, and
/// counting it there would point at whatever else happens while a chain is deep.
pub fn predicates(case: &Case) -> Vec<Predicate> {
    let Ok((replayed, steps)) = rbcheck_case::replay::replay_traced(case) else {
        return vec![];
    };
    let mut out: Vec<Predicate> = vec![];
    for w in steps.windows(2) {
        let (s, a, n) = (&w[0].0, &w[0].1, &w[1].0);
        let clauses = crate::gen::goals::step_clauses(&replayed.game, s, a, n);
        for ctx in contexts(s, n) {
            out.extend(clauses.iter().map(|c| (*c, ctx)));
        }
        if matches!(a, Action::Resolve | Action::Finalize) && s.chain.len() >= 2 {
            let picks = model::coverage::action_clauses(a);
            out.extend(picks.iter().map(|c| (*c, Context::DeepChain)));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The `n` clauses most suspect for a cluster whose cases are `cases`, best first, each in the
/// situation that points at it most sharply; of equal scores, a clause wherever applied before
/// one in a situation, the more specific clause (more parts) first, then the digest's order.
pub fn suspects(cases: &[usize], failing: &Failing, passing: &Passing, n: usize) -> Vec<Suspect> {
    let runs: Vec<&Vec<Predicate>> = cases.iter().filter_map(|i| failing.0.get(i)).collect();
    if runs.is_empty() {
        return vec![];
    }
    let mut hit: BTreeMap<Predicate, usize> = BTreeMap::new();
    for run in &runs {
        for p in run.iter() {
            *hit.entry(*p).or_default() += 1;
        }
    }
    let total = runs.len() as f64;
    let mut scored: Vec<(Predicate, f64)> = hit
        .into_iter()
        .map(|(p, f)| {
            let passed = passing.0.get(&p).copied().unwrap_or(0) as f64;
            let f = f as f64;
            (p, f / (total * (f + passed)).sqrt())
        })
        .collect();
    let parts = |c: &str| c.split(['.', '-']).count();
    scored.sort_by(|((a, actx), sa), ((b, bctx), sb)| {
        sb.total_cmp(sa)
            .then(actx.cmp(bctx))
            .then(parts(b).cmp(&parts(a)))
            .then(a.cmp(b))
    });
    let mut out: Vec<Suspect> = vec![];
    for ((clause, ctx), score) in scored {
        if out.iter().any(|s| s.clause == clause) {
            continue;
        }
        out.push(Suspect {
            clause: clause.to_string(),
            context: ctx.words(),
            score,
        });
        if out.len() == n {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clause_only_failing_cases_apply_comes_first() {
        let any = |c| (c, Context::Any);
        let mut failing = Failing::default();
        failing.0.insert(3, vec![any("357"), any("805.1.a.1")]);
        failing
            .0
            .insert(7, vec![any("357"), any("805.1.a.1"), any("420.1")]);
        let mut passing = Passing::default();
        passing.0.insert(any("357"), 90);
        passing.0.insert(any("420.1"), 2);
        let s = suspects(&[3, 7], &failing, &passing, 3);
        assert_eq!(s[0].clause, "805.1.a.1");
        assert_eq!(s[0].context, None);
        assert!((s[0].score - 1.0).abs() < 1e-9);
        assert_eq!(s.last().unwrap().clause, "357");
        assert!(suspects(&[5], &failing, &passing, 3).is_empty());
    }

    /// A clause every case applies points nowhere; the same clause in a situation only the
    /// failing cases were in is the top suspect, named with that situation, and listed once.
    #[test]
    fn a_clause_applied_everywhere_is_suspect_in_the_situation_the_failures_share() {
        let mut failing = Failing::default();
        for i in 0..4 {
            failing.0.insert(
                i,
                vec![
                    ("340.1", Context::Any),
                    ("340.1", Context::DeepChain),
                    ("383.3", Context::Any),
                ],
            );
        }
        let mut passing = Passing::default();
        passing.0.insert(("340.1", Context::Any), 200);
        passing.0.insert(("340.1", Context::DeepChain), 1);
        passing.0.insert(("383.3", Context::Any), 30);
        let s = suspects(&[0, 1, 2, 3], &failing, &passing, 5);
        assert_eq!(s[0].clause, "340.1");
        assert_eq!(s[0].context, Context::DeepChain.words());
        assert_eq!(s.iter().filter(|x| x.clause == "340.1").count(), 1);
        assert_eq!(s[1].clause, "383.3");
    }
}
