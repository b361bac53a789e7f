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

mod reads;
pub use reads::Reads;

/// How the checker is run for a choice of scenarios: threads and memory, as the user asked.
#[derive(Clone, Copy, Debug, Default)]
pub struct Effort {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// The memory budget in bytes (`None`: the checker's default).
    pub memory: Option<u64>,
}

impl Effort {
    /// Runs `system`'s checker with this effort, to learn in which scenarios each of its
    /// probes is found: a scenario's search ends once every probe is found in it.
    pub fn run(&self, system: &RepeatSystem) -> Result<CheckResult<RepeatSystem>, Error> {
        let c = system
            .checker()
            .threads(self.threads)
            .settle_scenarios(true);
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
    /// When this run's scenarios do not exercise the field: the smallest preset whose
    /// scenarios do, with how many of them were found before the search stopped (at least 1;
    /// empty if the run's scenarios exercise it, or if no preset does).
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
    /// Why `scenarios` (when 0) or `elsewhere` may miss some: the run that counted them stopped
    /// (its memory budget) before searching every scenario. Absent when every one was searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown: Option<String>,
}

/// Why a run may have missed something it looked for: `None` if it searched every scenario
/// to the end, else its stop (a memory budget or a state limit).
fn stopped(result: &CheckResult<RepeatSystem>) -> Option<String> {
    matches!(
        result.stop,
        checker::StopReason::MemoryLimit | checker::StopReason::MaxStates
    )
    .then(|| result.stop_message())
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
                    (0, _) if f.unknown.is_some() && f.elsewhere.is_empty() => format!(
                        "{head}: UNKNOWN: not seen deciding a step, but a run looking for it {}",
                        f.unknown.as_deref().unwrap_or_default()
                    ),
                    (0, _) => format!("{head}: NOT EXERCISED: it decides no step in any of the {total} scenarios{}", elsewhere_words(&f.elsewhere)),
                    (n, Some(e)) => format!("{head}: decides a step in {n} of {total} scenarios, e.g. {e}"),
                    (n, None) => format!("{head}: decides a step in {n} of {total} scenarios"),
                }
            })
            .collect()
    }
}

/// "; the preset P exercises it (in N scenarios): ...", or why no preset is named. The
/// presets are searched smallest first and the search stops at the first that exercises the
/// field ([`fill_elsewhere`]), so one is named.
fn elsewhere_words(presets: &[PresetCount]) -> String {
    match presets.first() {
        None => "; no preset but `large` (which is not searched) exercises it either: write a bound that does".into(),
        Some(p) => format!(
            "; the preset {} exercises it (in {} scenarios or more): run with `--bound {}` or `--bound auto`",
            p.preset, p.scenarios, p.preset
        ),
    }
}

/// The probes of `rules` against `against` over `game`'s cards.
pub fn probes_for(rules: &Rulebook, against: &Rulebook, game: &Game) -> Vec<FieldProbe> {
    probes(rules, against, &game.cards)
}

/// Per probe of `system`, the indices of `scenarios` whose start it decides
/// ([`decides_at_start`]).
fn starts_decided(system: &RepeatSystem, scenarios: &[Scenario]) -> Vec<Vec<usize>> {
    (0..system.probes().len())
        .map(|k| {
            (0..scenarios.len())
                .filter(|&i| decides_at_start(system, k, &scenarios[i].setup))
                .collect()
        })
        .collect()
}

/// The union of two sorted index lists.
fn union(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out: Vec<usize> = a.iter().chain(b).copied().collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Takes the probes' verdicts out of `result` (they are the last properties) and says, per
/// probe, in how many scenarios it decided a step: the scenarios where its witness was found
/// or whose start it decides, and the scenarios left out as unplayable whose start it decides.
pub fn split(system: &RepeatSystem, result: &mut CheckResult<RepeatSystem>) -> Vec<FieldUse> {
    let k = system.probes().len();
    let n = result.properties.len() - k;
    let found: Vec<_> = result.found_in.drain(n..).collect();
    let verdicts: Vec<_> = result.properties.drain(n..).collect();
    let unknown = stopped(result);
    let starts = starts_decided(system, &system.scenarios);
    let unplayable = starts_decided(system, &system.unplayable);
    system
        .probes()
        .iter()
        .zip(found.iter().zip(&verdicts))
        .enumerate()
        .map(|(i, (p, (found, verdict)))| {
            let searched: Vec<usize> = found.iter().map(|f| f.init).collect();
            let decided = union(&searched, &starts[i]);
            let example = match &verdict.outcome {
                Outcome::Witnessed { trace } => {
                    system.scenarios.get(trace.init_index).map(Scenario::cite)
                }
                _ => decided
                    .first()
                    .and_then(|&s| system.scenarios.get(s))
                    .map(Scenario::cite),
            };
            let scenarios = decided.len() + unplayable[i].len();
            FieldUse {
                elsewhere: vec![],
                example,
                field: p.field.clone(),
                other: p.other.clone(),
                rule: p.rule,
                scenarios,
                value: p.value.clone(),
                unknown: unknown.clone().filter(|_| scenarios == 0),
            }
        })
        .collect()
}

/// [`split`] for a system with nothing searched (no playable scenario): only the starts of its
/// unplayable scenarios are compared.
pub fn split_nothing_searched(system: &RepeatSystem) -> Vec<FieldUse> {
    let unplayable = starts_decided(system, &system.unplayable);
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
            scenarios: unplayable[i].len(),
            value: p.value.clone(),
            unknown: None,
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
    /// Why the pass may have missed scenarios, if it stopped before the end.
    stopped: Option<String>,
}

/// Looks for each probe of `rules` against `against` in every scenario of the pool that reads
/// a field in which they differ ([`Reads`]): in the others both play alike.
fn pool_pass(rules: &Rulebook, against: &Rulebook, effort: Effort) -> Result<PoolPass, Error> {
    let changed = changed_bits(rules, against);
    let pool = Pool::new(rules).map_err(Error::scenario)?;
    let reads = Reads::of_pool(rules, against, effort)?.filter(|r| r.fits(&pool.game));
    let reads_changed = |s: &Scenario| reads.as_ref().is_none_or(|r| r.of(&s.setup) & changed != 0);
    pool_pass_of(
        pool,
        |game| probes_for(rules, against, game),
        reads_changed,
        effort,
    )
}

/// The fields in which two rulebooks differ, as `model::rulebook::reading` bits.
fn changed_bits(rules: &Rulebook, against: &Rulebook) -> u64 {
    rules
        .differing_fields(against)
        .iter()
        .filter_map(|f| model::rulebook::field_bit(f))
        .fold(0, |a, b| a | b)
}

/// Looks for each probe `make` gives (over the pool's cards) in the scenarios of `pool` that
/// `search` keeps.
fn pool_pass_of(
    pool: Pool,
    make: impl FnOnce(&Game) -> Vec<FieldProbe>,
    search: impl Fn(&Scenario) -> bool,
    effort: Effort,
) -> Result<PoolPass, Error> {
    let probes = make(&pool.game);
    let n = probes.len();
    let kept: Vec<usize> = (0..pool.playable.len())
        .filter(|&i| search(&pool.playable[i]))
        .collect();
    let system = RepeatSystem::from_parts(
        pool.game.clone(),
        kept.iter().map(|&i| pool.playable[i].clone()).collect(),
    )
    .with_probes(probes)
    .probes_only();
    let (found_in, stop) = match kept.is_empty() {
        true => (vec![vec![]; n], None),
        false => {
            let result = effort.run(&system)?;
            let stop = stopped(&result);
            let found: Vec<Vec<usize>> = result
                .found_in
                .iter()
                .map(|f| f.iter().map(|x| x.init).collect())
                .collect();
            (found, stop)
        }
    };
    let starts = starts_decided(&system, &system.scenarios);
    let found = found_in
        .iter()
        .zip(&starts)
        .map(|(f, st)| union(f, st).into_iter().map(|i| kept[i]).collect())
        .collect();
    let at_start = starts_decided(&system, &pool.unplayable);
    Ok(PoolPass {
        pool,
        probes: n,
        found,
        at_start,
        stopped: stop,
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
            let from = self.pool.unplayable_from[i];
            let p = POOL.iter().position(|p| *p == from).unwrap_or(POOL.len());
            *counts.entry(p).or_default() += 1;
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

/// Where one probe decides a step in the pool.
pub struct PoolUse {
    /// The probe.
    pub probe: FieldProbe,
    /// The playable scenarios of the pool in which it decides a step.
    pub playable: Vec<Scenario>,
    /// The scenarios nothing can be done in (under the rules) whose start it changes.
    pub unplayable: Vec<Scenario>,
    /// Both, per preset they come from.
    pub presets: Vec<PresetCount>,
}

/// Every one-field edit of `rules` ([`properties::exercise::every_one_field_edit`]) and the
/// pool's scenarios in which it decides a step, in one search of the pool: the presets a
/// rules person would need for each field, without knowing them.
pub fn one_field_edits_in_pool(
    rules: &Rulebook,
    effort: Effort,
) -> Result<(Game, Vec<PoolUse>), Error> {
    let mut made = vec![];
    let pool = Pool::new(rules).map_err(Error::scenario)?;
    let pass = pool_pass_of(
        pool,
        |game| {
            made = properties::exercise::every_one_field_edit(rules, &game.cards);
            made.clone()
        },
        |_| true,
        effort,
    )?;
    let uses = made
        .into_iter()
        .enumerate()
        .map(|(k, probe)| PoolUse {
            probe,
            playable: pass.found[k]
                .iter()
                .map(|&i| pass.pool.playable[i].clone())
                .collect(),
            unplayable: pass.at_start[k]
                .iter()
                .map(|&i| pass.pool.unplayable[i].clone())
                .collect(),
            presets: pass.by_preset(&pass.found[k], &pass.at_start[k]),
        })
        .collect();
    Ok((pass.pool.game.clone(), uses))
}

/// Scenarios searched at once while looking for a preset that exercises a field.
const ELSEWHERE_CHUNK: usize = 64;

/// Fills `elsewhere` for every field of `uses` that decided no step: the presets of the pool
/// whose scenarios it decides a step in. The presets are searched one at a time, smallest
/// first, each for the fields no earlier one exercised, a chunk of scenarios at a time, and the
/// search ends when every field has a preset: a field that some small preset exercises costs
/// the search of that preset's scenarios up to the first chunk that exercises it. The count
/// named is of that part of the preset (at least 1).
pub fn fill_elsewhere(
    uses: &mut [FieldUse],
    rules: &Rulebook,
    against: &Rulebook,
    effort: Effort,
) -> Result<(), Error> {
    if uses.iter().all(|u| u.scenarios > 0) {
        return Ok(());
    }
    let pool = Pool::new(rules).map_err(Error::scenario)?;
    let probes: Vec<FieldProbe> = probes_for(rules, against, &pool.game)
        .into_iter()
        .filter(|p| uses.iter().any(|u| u.scenarios == 0 && u.field == p.field))
        .collect();
    let mut found: Vec<Vec<PresetCount>> = vec![vec![]; probes.len()];
    let mut left: Vec<usize> = (0..probes.len()).collect();
    // The presets are searched smallest first and the search ends at the first that shows
    // each field: the reads narrow it when they are at hand, not worth a pass of their own.
    let reads = Reads::cached(rules, against).filter(|r| r.fits(&pool.game));
    // Why some search stopped before its end (the memory budget), if one did.
    let mut halted: Option<String> = None;
    for preset in POOL {
        if left.is_empty() {
            break;
        }
        let unplayable: Vec<Scenario> = pool
            .unplayable
            .iter()
            .zip(&pool.unplayable_from)
            .filter(|(_, from)| **from == preset)
            .map(|(s, _)| s.clone())
            .collect();
        let here: Vec<Scenario> = pool
            .playable
            .iter()
            .filter(|s| s.origin.as_ref().is_some_and(|o| o.bound == preset))
            .cloned()
            .collect();
        // The starts first (no search), then the scenarios a chunk at a time, each chunk for
        // the fields not yet found in this preset: the search ends at the chunk that finds the
        // last of them. Of a chunk, only the scenarios that read one of those fields can show
        // it ([`Reads`]); the chunks are cut before that, so what is counted is the same.
        let mut counts = vec![0usize; probes.len()];
        let mut chunks = std::iter::once(None).chain(here.chunks(ELSEWHERE_CHUNK).map(Some));
        let mut open = left.clone();
        while let (false, Some(chunk)) = (open.is_empty(), chunks.next()) {
            let wanted = open.iter().fold(0, |m, &k| m | probes[k].mask);
            let kept: Vec<Scenario> = chunk
                .unwrap_or_default()
                .iter()
                .filter(|s| reads.as_ref().is_none_or(|r| r.of(&s.setup) & wanted != 0))
                .cloned()
                .collect();
            let system = RepeatSystem::from_parts(pool.game.clone(), kept)
                .with_probes(open.iter().map(|&k| probes[k].clone()).collect())
                .probes_only();
            let (result, starts, unplayable) = match (chunk, system.scenarios.is_empty()) {
                (None, _) => (
                    None,
                    vec![vec![]; open.len()],
                    starts_decided(&system, &unplayable),
                ),
                (Some(_), true) => (None, vec![vec![]; open.len()], vec![vec![]; open.len()]),
                (Some(_), false) => {
                    let result = effort.run(&system)?;
                    halted = halted.or_else(|| stopped(&result));
                    (
                        Some(result),
                        starts_decided(&system, &system.scenarios),
                        vec![vec![]; open.len()],
                    )
                }
            };
            for (j, &k) in open.iter().enumerate() {
                let searched: Vec<usize> = result
                    .as_ref()
                    .map_or(vec![], |r| r.found_in[j].iter().map(|f| f.init).collect());
                counts[k] += union(&searched, &starts[j]).len() + unplayable[j].len();
            }
            open.retain(|&k| counts[k] == 0);
        }
        for &k in &left {
            if counts[k] > 0 {
                found[k].push(PresetCount {
                    preset: preset.to_string(),
                    scenarios: counts[k],
                });
            }
        }
        left.retain(|&k| found[k].is_empty());
    }
    for u in uses.iter_mut().filter(|u| u.scenarios == 0) {
        if let Some(k) = probes.iter().position(|p| p.field == u.field) {
            u.elsewhere = found[k].clone();
        }
        // A pass that stopped cannot say that no preset exercises the field.
        if u.elsewhere.is_empty() {
            if let Some(why) = &halted {
                u.unknown = Some(format!("in the presets of the pool {why}"));
            }
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
    if let Some(why) = &pass.stopped {
        return Err(Error::Usage(format!(
            "--bound auto: the search for the scenarios in which {} decides a step otherwise than {} {why}, so it cannot choose them: name a bound (--bound default) or give rbcheck more memory (--memory)",
            rules.name, against.name
        )));
    }
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
