//! Combining scenario summaries (from one run or from several shards) into the result the
//! level-synchronous search would give.
//!
//! That search expands level after level over all scenarios at once, and between levels stops
//! when every property is decided (or, if asked, at the first violation). Its first finding of
//! a property is the shallowest, first in canonical order, and canonical order puts every state
//! of an earlier initial state before those of a later one. So the combined finding of a
//! property is the one with the smallest (level, edge, initial state), and a stop between levels
//! is the level `cut` at which the condition first holds: every scenario's counts are then cut
//! to the states at depth `<= cut` and the transitions of the levels before it.

use super::{states, Part, PartStop, Summary};
use crate::ctx::{catch, result, Ctx};
use crate::error::CheckError;
use crate::model::{Expectation, Model};
use crate::result::{CheckResult, Outcome, PropertyResult, ScenarioFinding, StopReason, Violation};
use crate::stats::{peak_memory_bytes, Stats};
use crate::trace::replay_hops;
use std::time::Instant;

/// Checks that `parts` are the `n` shards of one run of this model, each once.
fn validate<M: Model>(ctx: &Ctx<'_, M>, parts: &[Part]) -> Result<(), CheckError> {
    let bad = |m: String| Err(CheckError::PartsMismatch(m));
    let Some(first) = parts.first() else {
        return bad("no part to merge".into());
    };
    let n = first.shard.1;
    let names: Vec<String> = ctx.props.iter().map(|p| p.name.to_string()).collect();
    let mut seen = vec![false; n as usize];
    for p in parts {
        if p.shard.1 != n {
            return bad(format!(
                "parts of {} shards and of {} shards cannot be merged",
                n, p.shard.1
            ));
        }
        if p.shard.0 >= n || std::mem::replace(&mut seen[p.shard.0 as usize], true) {
            return bad(format!("shard {}/{} is given twice", p.shard.0 + 1, n));
        }
        if p.init_states != first.init_states || p.distinct_inits != first.distinct_inits {
            return bad("the parts were made from different scenarios".into());
        }
        if p.plan != first.plan {
            return bad(format!(
                "the parts were dealt their scenarios by different plans ({:?} and {:?})",
                first.plan, p.plan
            ));
        }
        if p.properties != names || p.symmetry != ctx.symmetry {
            return bad("the parts were made with other properties or options".into());
        }
        if p.distinct_inits > p.init_states {
            return bad("a part counts more distinct scenarios than scenarios".into());
        }
        // A part file is outside input: every summary must fit the model before anything is
        // indexed by it.
        for s in &p.summaries {
            let at = format!("shard {}/{n}, scenario {}", p.shard.0 + 1, s.init);
            if s.init >= p.init_states {
                return bad(format!(
                    "{at}: no such scenario (the model has {})",
                    p.init_states
                ));
            }
            if s.findings.len() != names.len() {
                return bad(format!(
                    "{at}: {} findings for {} properties",
                    s.findings.len(),
                    names.len()
                ));
            }
            if s.transitions_per_level.len() > s.states_per_depth.len()
                || s.stored_per_depth.len() > s.states_per_depth.len()
            {
                return bad(format!(
                    "{at}: more levels of transitions or stored states than of states"
                ));
            }
        }
    }
    if let Some(k) = seen.iter().position(|s| !s) {
        return bad(format!("shard {}/{} is missing", k + 1, n));
    }
    Ok(())
}

/// Combines the parts into one result, rebuilding each verdict's trace.
pub(crate) fn combine<M: Model>(
    ctx: Ctx<'_, M>,
    parts: Vec<Part>,
    stop_on_first_violation: bool,
) -> Result<CheckResult<M>, CheckError> {
    let started = Instant::now();
    validate(&ctx, &parts)?;
    let mut summaries: Vec<&Summary> = parts.iter().flat_map(|p| &p.summaries).collect();
    summaries.sort_by_key(|s| s.init);
    if summaries.windows(2).any(|w| w[0].init == w[1].init) {
        return Err(CheckError::PartsMismatch(
            "a scenario appears in two parts".into(),
        ));
    }
    let stops: Vec<PartStop> = parts.iter().map(|p| p.stop).collect();
    let (stop, cut) = if stops.contains(&PartStop::MemoryLimit) {
        (StopReason::MemoryLimit, None)
    } else if stops.contains(&PartStop::MaxStates) {
        (StopReason::MaxStates, None)
    } else {
        if summaries.len() != parts[0].distinct_inits as usize {
            return Err(CheckError::PartsMismatch(format!(
                "the parts hold {} of the {} scenarios",
                summaries.len(),
                parts[0].distinct_inits
            )));
        }
        level_stop(&ctx, &summaries, stop_on_first_violation)
    };
    let complete = stop == StopReason::Exhausted;
    let within = |level: u32| cut.is_none_or(|c| level <= c);
    let mut properties = Vec::with_capacity(ctx.props.len());
    for p in 0..ctx.props.len() {
        let best = summaries
            .iter()
            .filter_map(|s| s.findings[p].as_ref().map(|f| (f, s)))
            .filter(|(f, _)| within(f.level))
            .min_by_key(|(f, s)| (f.level, f.edge, s.init));
        properties.push(verdict(&ctx, p, best, complete)?);
    }
    let stats = stats(&parts, &summaries, cut, started)?;
    let has_terminates = ctx
        .props
        .iter()
        .any(|p| p.expectation == Expectation::Terminates);
    let cycles_checked = has_terminates && cycles_checked(&ctx, &summaries, cut);
    let found_in = (0..ctx.props.len())
        .map(|p| {
            summaries
                .iter()
                .filter_map(|s| {
                    let f = s.findings[p].as_ref()?;
                    Some(ScenarioFinding {
                        init: s.init as usize,
                        init_fp: s.init_fp,
                        found: f.clone(),
                    })
                })
                .collect()
        })
        .collect();
    Ok(CheckResult {
        properties,
        complete,
        stop,
        cycles_checked,
        stats,
        found_in,
        symmetry: ctx.symmetry,
    })
}

/// The first finding level of each property over all scenarios.
fn best_levels<M: Model>(ctx: &Ctx<'_, M>, summaries: &[&Summary]) -> Vec<Option<u32>> {
    (0..ctx.props.len())
        .map(|p| {
            summaries
                .iter()
                .filter_map(|s| s.findings[p].as_ref().map(|f| f.level))
                .min()
        })
        .collect()
}

/// The deepest depth with a state.
fn deepest(summaries: &[&Summary]) -> u32 {
    summaries
        .iter()
        .map(|s| s.states_per_depth.len().saturating_sub(1) as u32)
        .max()
        .unwrap_or(0)
}

/// Where the level-synchronous search would have stopped over these (complete) scenarios:
/// after the level at which every property was decided, or the first violation if asked, unless
/// nothing was left to expand by then; `None` as the cut when it would have run to the end.
fn level_stop<M: Model>(
    ctx: &Ctx<'_, M>,
    summaries: &[&Summary],
    stop_on_first_violation: bool,
) -> (StopReason, Option<u32>) {
    let best = best_levels(ctx, summaries);
    let all_decided = best.iter().copied().collect::<Option<Vec<u32>>>();
    let all_decided = all_decided.map(|v| v.into_iter().max().unwrap_or(0));
    let first_violation = ctx
        .props
        .iter()
        .zip(&best)
        .filter(|(p, _)| p.expectation != Expectation::Sometimes)
        .filter_map(|(_, b)| *b)
        .min()
        .filter(|_| stop_on_first_violation);
    let deepest = deepest(summaries);
    // Between levels the search checks, in this order: nothing left, all decided, violation.
    match (all_decided, first_violation) {
        (Some(a), v) if a <= deepest && v.is_none_or(|v| a <= v) => {
            (StopReason::AllDecided, Some(a))
        }
        (_, Some(v)) if v <= deepest => (StopReason::FirstViolation, Some(v)),
        _ => (StopReason::Exhausted, None),
    }
}

/// One property's verdict from its best finding, replaying its trace.
fn verdict<M: Model>(
    ctx: &Ctx<'_, M>,
    p: usize,
    best: Option<(&super::Found, &&Summary)>,
    complete: bool,
) -> Result<PropertyResult<M>, CheckError> {
    let prop = &ctx.props[p];
    let outcome = match best {
        Some((f, s)) => {
            let trace = catch(
                || {
                    replay_hops(
                        ctx.model,
                        |st| ctx.fp(st),
                        prop.name,
                        s.init as usize,
                        s.init_fp,
                        &f.path,
                    )
                },
                || format!("while replaying the trace of property `{}`", prop.name),
            )?;
            match prop.expectation {
                Expectation::Sometimes => Outcome::Witnessed { trace },
                Expectation::Always => Outcome::Violated {
                    kind: Violation::Invariant,
                    trace,
                },
                Expectation::Terminates => Outcome::Violated {
                    kind: if f.edge {
                        Violation::PossibleCycle
                    } else {
                        Violation::FinalState
                    },
                    trace,
                },
            }
        }
        None if !complete => Outcome::Unknown,
        None if prop.expectation == Expectation::Sometimes => Outcome::NeverReached,
        None => Outcome::Holds,
    };
    Ok(result(prop, outcome))
}

/// The counts (cut at `cut`), the time and the memory of the combined run.
fn stats(
    parts: &[Part],
    summaries: &[&Summary],
    cut: Option<u32>,
    started: Instant,
) -> Result<Stats, CheckError> {
    let (mut states_n, mut stored, mut transitions) = (0u64, 0u64, 0u64);
    // Parts are outside input: counts that overflow are an error, never a wrapped total.
    let overflow = || CheckError::PartsMismatch("the parts' counts overflow".into());
    let total = |v: &[u64], take: usize| {
        v.iter()
            .take(take)
            .try_fold(0u64, |a, x| a.checked_add(*x))
            .ok_or_else(overflow)
    };
    for s in summaries {
        let keep = cut.map_or(usize::MAX, |c| c as usize);
        let add = |a: u64, b: u64| a.checked_add(b).ok_or_else(overflow);
        states_n = add(
            states_n,
            total(&s.states_per_depth, keep.saturating_add(1))?,
        )?;
        stored = add(stored, total(&s.stored_per_depth, keep.saturating_add(1))?)?;
        transitions = add(transitions, total(&s.transitions_per_level, keep)?)?;
    }
    debug_assert!(cut.is_some() || states_n == summaries.iter().map(|s| states(s)).sum::<u64>());
    let states_n =
        usize::try_from(states_n).map_err(|_| CheckError::TooManyStates { limit: usize::MAX })?;
    let elapsed =
        parts.iter().map(|p| p.elapsed_secs).sum::<f64>() + started.elapsed().as_secs_f64();
    let visited = summaries
        .iter()
        .try_fold(0u64, |a, s| a.checked_add(s.visited_bytes))
        .ok_or_else(overflow)?;
    let peak = parts
        .iter()
        .filter_map(|p| p.peak_memory_bytes)
        .chain(peak_memory_bytes())
        .max();
    Ok(Stats {
        init_states: parts[0].distinct_inits as usize,
        states: states_n,
        states_stored: usize::try_from(stored)
            .map_err(|_| CheckError::TooManyStates { limit: usize::MAX })?,
        transitions,
        max_depth: cut.unwrap_or_else(|| deepest(summaries)) as usize,
        elapsed_secs: elapsed,
        states_per_sec: if elapsed > 0.0 {
            states_n as f64 / elapsed
        } else {
            0.0
        },
        peak_memory_bytes: peak,
        memory_limit_bytes: parts[0].memory_limit_bytes,
        memory_at_stop_bytes: parts.iter().filter_map(|p| p.memory_at_stop_bytes).max(),
        address_ceiling_at_stop_bytes: parts
            .iter()
            .filter_map(|p| p.address_ceiling_at_stop_bytes)
            .max(),
        visited_bytes: visited as usize,
        bytes_per_state: if states_n > 0 {
            visited as f64 / states_n as f64
        } else {
            0.0
        },
    })
}

/// Whether `Terminates` properties were checked for cycles on every level the level-synchronous
/// search would have expanded: it compares progress only while some `Terminates` property is
/// undecided, and notes a state without a progress value.
fn cycles_checked<M: Model>(ctx: &Ctx<'_, M>, summaries: &[&Summary], cut: Option<u32>) -> bool {
    let best = best_levels(ctx, summaries);
    let decided: Option<Vec<u32>> = ctx
        .props
        .iter()
        .zip(&best)
        .filter(|(p, _)| p.expectation == Expectation::Terminates)
        .map(|(_, b)| *b)
        .collect();
    // Levels expanded, and the level from which no `Terminates` property is undecided.
    let expanded = cut.unwrap_or_else(|| deepest(summaries) + 1);
    let all_t = decided.and_then(|v| v.into_iter().max());
    let skipped = all_t.is_some_and(|t| t < expanded);
    let until = all_t.unwrap_or(u32::MAX).min(expanded);
    let missing = summaries
        .iter()
        .filter_map(|s| s.progress_missing_at)
        .any(|d| d < until);
    !skipped && !missing
}
