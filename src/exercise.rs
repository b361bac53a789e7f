//! What a check or a diff looked at of the rulebook edit it judges: for every field the edit
//! changes, the scenarios in which the field's value decided a step (`properties::exercise`);
//! the presets that would exercise a field a bound leaves alone; and `--bound auto`, the
//! scenarios of every preset in which the edit decides a step.

use crate::error::Error;
use checker::{CheckResult, CheckerExt, Outcome};
use model::game::Game;
use model::rulebook::Rulebook;
use properties::bound::pool::{Pool, POOL};
use properties::exercise::{decides_at_start, probes, FieldProbe};
use properties::{RepeatSystem, Scenario};
use serde::Serialize;
use std::collections::BTreeMap;

/// How the checker is run for a choice of scenarios: threads and memory, as the user asked.
#[derive(Clone, Copy, Debug, Default)]
pub struct Effort {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// The memory budget in bytes (`None`: the checker's default).
    pub memory: Option<u64>,
}

impl Effort {
    /// Runs `system`'s checker with this effort.
    pub fn run(&self, system: &RepeatSystem) -> Result<CheckResult<RepeatSystem>, Error> {
        let c = system.checker().threads(self.threads);
        let c = match self.memory {
            Some(b) => c.memory_limit(b),
            None => c,
        };
        Ok(c.run()?)
    }
}

/// Scenarios of one preset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PresetCount {
    /// The preset.
    pub preset: String,
    /// How many of its scenarios.
    pub scenarios: usize,
}

/// One field the rulebook changes and where its value decided a step.
#[derive(Clone, Debug, Serialize)]
pub struct FieldUse {
    /// Presets whose scenarios exercise the field, when this run's scenarios do not (empty if
    /// they do, or if no preset does).
    pub elsewhere: Vec<PresetCount>,
    /// The scenario of the shortest path to a state where the field decides a step.
    pub example: Option<String>,
    /// The field (or several, joined with `+`, set together).
    pub field: String,
    /// The value it is compared with (the base's, or the other rulebook's).
    pub other: String,
    /// The rule it encodes.
    pub rule: &'static str,
    /// Scenarios in which it decides a step (including scenarios it makes unplayable).
    pub scenarios: usize,
    /// Its value in the rulebook judged.
    pub value: String,
}

/// The fields a run exercised, against the rulebook they are compared with.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Exercise {
    /// The rulebook the changed fields are compared with: the base version, or the other
    /// rulebook of a diff (empty when nothing is compared).
    pub against: String,
    /// One entry per changed field, and one for all of them together when several change.
    pub fields: Vec<FieldUse>,
}

impl Exercise {
    /// The fields that decided no step in any scenario of the run.
    pub fn unexercised(&self) -> Vec<&FieldUse> {
        self.fields.iter().filter(|f| f.scenarios == 0).collect()
    }

    /// A line for the human report per field; empty when no field changes.
    pub fn lines(&self, total: usize) -> Vec<String> {
        self.fields
            .iter()
            .map(|f| {
                let rule = match f.rule {
                    "" => String::new(),
                    r => format!(" ({r})"),
                };
                let head = format!("{} = {} (against {}){rule}", f.field, f.value, f.other);
                match (f.scenarios, &f.example) {
                    (0, _) => format!("{head}: NOT EXERCISED: it decides no step in any of the {total} scenarios{}", elsewhere_words(&f.elsewhere)),
                    (n, Some(e)) => format!("{head}: decides a step in {n} of {total} scenarios, e.g. {e}"),
                    (n, None) => format!("{head}: decides a step in {n} of {total} scenarios"),
                }
            })
            .collect()
    }
}

/// "; exercised by presets A (N scenarios), B (M): `--bound A`", or why none is named.
fn elsewhere_words(presets: &[PresetCount]) -> String {
    match presets.first() {
        None => "; no preset of the pool exercises it either (`large` is not searched): write a bound that does".into(),
        Some(first) => format!(
            "; exercised by {}: run with `--bound {}` or `--bound auto`",
            presets
                .iter()
                .map(|p| format!("{} ({} scenarios)", p.preset, p.scenarios))
                .collect::<Vec<_>>()
                .join(", "),
            first.preset
        ),
    }
}

/// The probes of `rules` against `against` over `game`'s cards.
pub fn probes_for(rules: &Rulebook, against: &Rulebook, game: &Game) -> Vec<FieldProbe> {
    probes(rules, against, &game.cards)
}

/// Takes the probes' verdicts out of `result` (they are the last properties) and says, per
/// probe, in how many scenarios it decided a step: the scenarios where its witness was found,
/// plus the scenarios left out as unplayable whose start it changes.
pub fn split(system: &RepeatSystem, result: &mut CheckResult<RepeatSystem>) -> Vec<FieldUse> {
    let k = system.probes().len();
    let n = result.properties.len() - k;
    let found: Vec<_> = result.found_in.drain(n..).collect();
    let verdicts: Vec<_> = result.properties.drain(n..).collect();
    let inits: Vec<_> = system
        .unplayable
        .iter()
        .filter_map(|s| system.game.initial_state(&s.setup).ok())
        .collect();
    system
        .probes()
        .iter()
        .zip(found.iter().zip(&verdicts))
        .enumerate()
        .map(|(i, (p, (found, verdict)))| {
            let at_start = inits
                .iter()
                .filter(|s| decides_at_start(system, i, s))
                .count();
            let example = match &verdict.outcome {
                Outcome::Witnessed { trace } => {
                    system.scenarios.get(trace.init_index).map(Scenario::cite)
                }
                _ => None,
            };
            FieldUse {
                elsewhere: vec![],
                example,
                field: p.field.clone(),
                other: p.other.clone(),
                rule: p.rule,
                scenarios: found.len() + at_start,
                value: p.value.clone(),
            }
        })
        .collect()
}

/// [`split`] for a system with nothing searched (no playable scenario): only the starts of its
/// unplayable scenarios are compared.
pub fn split_nothing_searched(system: &RepeatSystem) -> Vec<FieldUse> {
    let inits: Vec<_> = system
        .unplayable
        .iter()
        .filter_map(|s| system.game.initial_state(&s.setup).ok())
        .collect();
    system
        .probes()
        .iter()
        .enumerate()
        .map(|(i, p)| FieldUse {
            elsewhere: vec![],
            example: None,
            field: p.field.clone(),
            other: p.other.clone(),
            rule: p.rule,
            scenarios: inits
                .iter()
                .filter(|s| decides_at_start(system, i, s))
                .count(),
            value: p.value.clone(),
        })
        .collect()
}

/// What a pool pass found: per probe, the pool's scenarios (by index into `pool.playable`)
/// in which it decides a step, and the unplayable ones whose start it changes.
struct PoolPass {
    pool: Pool,
    probes: usize,
    found: Vec<Vec<usize>>,
    at_start: Vec<Vec<usize>>,
}

/// Looks for each probe of `rules` against `against` in every scenario of the pool.
fn pool_pass(rules: &Rulebook, against: &Rulebook, effort: Effort) -> Result<PoolPass, Error> {
    let pool = Pool::new(rules).map_err(Error::scenario)?;
    let probes = probes_for(rules, against, &pool.game);
    let n = probes.len();
    let system = RepeatSystem::from_parts(pool.game.clone(), pool.playable.clone())
        .with_probes(probes)
        .probes_only();
    let result = effort.run(&system)?;
    let found = result
        .found_in
        .iter()
        .map(|f| f.iter().map(|x| x.init).collect())
        .collect();
    let inits: Vec<_> = pool
        .unplayable
        .iter()
        .map(|s| pool.game.initial_state(&s.setup).map_err(Error::scenario))
        .collect::<Result<_, _>>()?;
    let at_start = (0..n)
        .map(|k| {
            (0..inits.len())
                .filter(|&i| decides_at_start(&system, k, &inits[i]))
                .collect()
        })
        .collect();
    Ok(PoolPass {
        pool,
        probes: n,
        found,
        at_start,
    })
}

impl PoolPass {
    /// Per preset, how many of the scenarios at these pool indices come from it.
    fn by_preset(&self, playable: &[usize], unplayable: &[usize]) -> Vec<PresetCount> {
        let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
        let origin = |s: &Scenario| {
            let b = s.origin.as_ref().map_or("", |o| o.bound.as_str());
            POOL.iter().position(|p| *p == b).unwrap_or(POOL.len())
        };
        for &i in playable {
            *counts.entry(origin(&self.pool.playable[i])).or_default() += 1;
        }
        for &i in unplayable {
            *counts.entry(origin(&self.pool.unplayable[i])).or_default() += 1;
        }
        counts
            .into_iter()
            .map(|(p, n)| PresetCount {
                preset: POOL.get(p).copied().unwrap_or("?").to_string(),
                scenarios: n,
            })
            .collect()
    }
}

/// Fills `elsewhere` for every field of `uses` that decided no step: the presets of the pool
/// whose scenarios it decides a step in (one pass over the pool, only when some field needs it).
pub fn fill_elsewhere(
    uses: &mut [FieldUse],
    rules: &Rulebook,
    against: &Rulebook,
    effort: Effort,
) -> Result<(), Error> {
    if uses.iter().all(|u| u.scenarios > 0) {
        return Ok(());
    }
    let pass = pool_pass(rules, against, effort)?;
    let probes = probes_for(rules, against, &pass.pool.game);
    for u in uses.iter_mut().filter(|u| u.scenarios == 0) {
        if let Some(k) = probes.iter().position(|p| p.field == u.field) {
            u.elsewhere = pass.by_preset(&pass.found[k], &pass.at_start[k]);
        }
    }
    Ok(())
}

/// How `--bound auto` chose its scenarios, for the report.
#[derive(Clone, Debug, Serialize)]
pub struct AutoChoice {
    /// The scenarios chosen, per preset they come from.
    pub chosen: Vec<PresetCount>,
    /// The distinct scenarios of the pool searched.
    pub pool: usize,
    /// The presets of the pool.
    pub presets: Vec<String>,
    /// Why these, in a sentence.
    pub why: String,
}

/// The scenarios `--bound auto` checks `rules` on: those of the pool in which `rules` and
/// `against` differ in some step (each field alone, or all together), and, for a diff, the
/// pool's unplayable scenarios whose start they change (`with_unplayable`). With no field
/// changed, the `default` preset.
pub fn choose(
    rules: &Rulebook,
    against: &Rulebook,
    with_unplayable: bool,
    effort: Effort,
) -> Result<(Game, Vec<Scenario>, AutoChoice), Error> {
    let presets: Vec<String> = POOL.iter().map(|p| p.to_string()).collect();
    if rules.differing_fields(against).is_empty() {
        let bound = properties::Bound::preset("default").expect("a preset");
        let sys = RepeatSystem::new(rules.clone(), &bound).map_err(Error::scenario)?;
        let n = sys.scenarios.len();
        let why = format!(
            "{} changes no field of {}: the default bound",
            rules.name, against.name
        );
        let chosen = vec![PresetCount {
            preset: "default".into(),
            scenarios: n,
        }];
        return Ok((
            sys.game,
            sys.scenarios,
            AutoChoice {
                chosen,
                pool: n,
                presets,
                why,
            },
        ));
    }
    let pass = pool_pass(rules, against, effort)?;
    let mut playable: Vec<usize> = pass.found.iter().flatten().copied().collect();
    playable.sort_unstable();
    playable.dedup();
    let mut unplayable: Vec<usize> = match with_unplayable {
        true => pass.at_start.iter().flatten().copied().collect(),
        false => vec![],
    };
    unplayable.sort_unstable();
    unplayable.dedup();
    let chosen = pass.by_preset(&playable, &unplayable);
    let pool_size = pass.pool.playable.len() + pass.pool.unplayable.len();
    let why = format!(
        "the {} of the {pool_size} distinct scenarios of the presets {} in which {} decides a step otherwise than {} ({} probe{})",
        playable.len() + unplayable.len(),
        POOL.join(", "),
        rules.name,
        against.name,
        pass.probes,
        if pass.probes == 1 { "" } else { "s: each changed field alone, and all together" }
    );
    let mut scenarios: Vec<Scenario> = playable
        .iter()
        .map(|&i| pass.pool.playable[i].clone())
        .collect();
    scenarios.extend(unplayable.iter().map(|&i| pass.pool.unplayable[i].clone()));
    Ok((
        pass.pool.game,
        scenarios,
        AutoChoice {
            chosen,
            pool: pool_size,
            presets,
            why,
        },
    ))
}
