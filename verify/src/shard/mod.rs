//! `rbcheck check --shard K/N` and `rbcheck merge`: one check split into N processes (a
//! cluster's job array), each exploring the scenarios the checker's shard plan deals it (by
//! their estimated sizes, the same plan in every process) and writing a part file, merged into
//! the report one run would print.
//!
//! A part file holds the rulebook and the bound it was made with (their text, when they are
//! files, so that the merge does not depend on where it runs) and the checker's
//! [`checker::Part`]: per scenario, its counts and each property's first finding as a path of
//! actions. The merge rebuilds the system, combines the parts with `Checker::merge` (which
//! gives exactly the unsharded result) and replays the traces. A part is written to a temporary
//! file in the same folder and linked to its name, so a part file that exists is whole and is
//! never replaced; a shard whose part file exists already (same rulebook, bound, split and
//! build) is not run again, which is how a killed run resumes. A part that stopped at the
//! memory budget is kept too, and every message about it says it is partial.
//!
//! A part also records the rbcheck version and [`Build`], fingerprints of the model's,
//! properties' and checker's sources and of the card catalogue: the counts of a part depend on
//! them as much as on the rulebook and bound, so `merge` refuses parts of different builds.

use crate::check::CheckOptions;
use crate::error::Error;
use crate::inputs;
use crate::verdict::{BaseRun, Judgement, WitnessMiss};
use checker::{CheckResult, CheckerExt, Part, PartStop};
use model::rulebook::Rulebook;
use properties::{Bound, RepeatSystem};
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};

pub mod plan;

/// The format tag of part files (2: the version and the build's fingerprints are recorded).
pub const FORMAT: &str = "rbcheck-part/2";

/// Part files larger than this are refused.
pub const MAX_PART_BYTES: u64 = 1 << 30;

/// Most shards a run may be split into.
pub const MAX_SHARDS: u32 = 100_000;

/// A rulebook or bound as given: the argument, and the file's text if it was a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// The command-line argument (a preset name or a path).
    pub arg: String,
    /// The file's name stem (the rulebook's or bound's default name), for a file.
    pub name: Option<String>,
    /// The file's text, for a file.
    pub text: Option<String>,
}

impl Input {
    fn capture(arg: &str, is_preset: bool) -> Result<Input, Error> {
        if is_preset {
            return Ok(Input {
                arg: arg.into(),
                name: None,
                text: None,
            });
        }
        let text = std::fs::read_to_string(arg)
            .map_err(|e| Error::Usage(format!("{arg}: cannot read it again to record it: {e}")))?;
        let name = Path::new(arg)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(arg)
            .to_string();
        Ok(Input {
            arg: arg.into(),
            name: Some(name),
            text: Some(text),
        })
    }
}

/// What a part's numbers depend on besides its rulebook and bound: fingerprints (computed by
/// the build script, `build.rs`) of the sources of the model, the properties and the checker,
/// and of the card catalogue compiled into the model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Build {
    /// The model's, properties' and checker's sources.
    pub model: String,
    /// The card catalogue (`model/cards.toml`).
    pub catalogue: String,
}

impl Build {
    /// The build of this rbcheck.
    pub fn this() -> Build {
        Build {
            model: env!("RBCHECK_MODEL_FINGERPRINT").into(),
            catalogue: env!("RBCHECK_CATALOGUE_FINGERPRINT").into(),
        }
    }
}

/// What a part file holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PartFile {
    /// [`FORMAT`].
    pub format: String,
    /// The version of the rbcheck that wrote it.
    pub version: String,
    /// The build that wrote it.
    pub build: Build,
    /// The rulebook.
    pub rules: Input,
    /// The bound.
    pub bound: Input,
    /// The checker's part (its properties end with the probes of the fields the rulebook
    /// changes, as `check` runs them).
    pub part: Part,
    /// For a rulebook that edits its base: each witness this shard's search never reached, and
    /// what a run under the base found on the shard's scenarios (what `check` says of a missed
    /// witness needs it: unreachable, never reached, or undecided).
    #[serde(default)]
    pub base: Vec<BaseWitness>,
}

/// What the run under an edit's base found, on one shard's scenarios, for a witness the
/// shard's search never reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseWitness {
    /// The witness.
    pub name: String,
    /// Whether the base reached it.
    pub reached: bool,
    /// Why the base's run stopped before searching every scenario of the shard, if it did.
    pub stopped: Option<String>,
}

/// What a part or plan file was made for: the build, rulebook, bound, number of shards and
/// symmetry setting. Two files of one run have the same origin.
#[derive(Clone, Copy)]
pub(crate) struct Origin<'a> {
    pub(crate) version: &'a str,
    pub(crate) build: &'a Build,
    pub(crate) rules: &'a Input,
    pub(crate) bound: &'a Input,
    pub(crate) shards: u32,
    pub(crate) symmetry: bool,
}

impl Origin<'_> {
    /// Why files of these two origins cannot belong to one run, in words that name what
    /// differs, or `None` if they can.
    pub(crate) fn differs_from(&self, b: &Origin<'_>) -> Option<String> {
        let a = self;
        if a.version != b.version || a.build.model != b.build.model {
            return Some(format!(
                "written by another build of rbcheck (version {}, model {}; the other: version {}, model {}): files of different builds never belong together, run every shard (and --plan) with one build",
                a.version, a.build.model, b.version, b.build.model
            ));
        }
        if a.build.catalogue != b.build.catalogue {
            return Some(format!(
                "written with another card catalogue (catalogue {}; the other: {}): run every shard with one build",
                a.build.catalogue, b.build.catalogue
            ));
        }
        if a.rules != b.rules {
            return Some(format!(
                "made for another rulebook ({}; the other: {})",
                a.rules.arg, b.rules.arg
            ));
        }
        if a.bound != b.bound {
            return Some(format!(
                "made for another bound ({}; the other: {})",
                a.bound.arg, b.bound.arg
            ));
        }
        if a.shards != b.shards {
            return Some(format!(
                "made for a run split into {} shards (the other: {})",
                a.shards, b.shards
            ));
        }
        if a.symmetry != b.symmetry {
            let words = |on: bool| match on {
                true => "with symmetry reduction",
                false => "without symmetry reduction (--no-symmetry)",
            };
            return Some(format!(
                "a symmetry mismatch: explored {}, the other {}; the states are counted differently, so the files do not belong together: run every shard (and --plan) with the same --no-symmetry setting",
                words(a.symmetry),
                words(b.symmetry)
            ));
        }
        None
    }
}

impl PartFile {
    /// What the part was made for.
    pub(crate) fn origin(&self) -> Origin<'_> {
        Origin {
            version: &self.version,
            build: &self.build,
            rules: &self.rules,
            bound: &self.bound,
            shards: self.part.shard.1,
            symmetry: self.part.symmetry,
        }
    }

    /// Why two parts cannot be parts of one run (the shard aside), or `None` if they can.
    fn differs_from(&self, other: &PartFile) -> Option<String> {
        self.origin().differs_from(&other.origin())
    }

    /// Why the part is partial (it stopped at the memory budget), if it is.
    pub fn partial(&self) -> Option<String> {
        let p = &self.part;
        match p.stop {
            PartStop::Done => None,
            PartStop::MaxStates => Some("it stopped at the state limit".into()),
            PartStop::MemoryLimit => Some(match p.memory_limit_bytes {
                Some(b) => format!(
                    "it stopped at the memory budget of {} after {} scenario(s)",
                    checker::memory::format_bytes(b),
                    p.summaries.len()
                ),
                None => format!(
                    "it stopped at the memory limit after {} scenario(s)",
                    p.summaries.len()
                ),
            }),
        }
    }
}

/// The file name of shard `k` (1-based) of `n`.
pub fn part_name(k: u32, n: u32) -> String {
    format!("part-{k}-of-{n}.json")
}

/// What a shard run did.
pub struct ShardRun {
    /// The shard (1-based) and the number of shards.
    pub shard: (u32, u32),
    /// The part file.
    pub path: PathBuf,
    /// Whether it already existed (the shard was not run again).
    pub resumed: bool,
    /// The scenarios and states of the part.
    pub scenarios: usize,
    /// States explored by the part.
    pub states: u64,
    /// States the shard plan estimated for the part (0 for a single shard).
    pub estimated: u64,
    /// Why the part is partial, if it is ([`PartFile::partial`]).
    pub partial: Option<String>,
}

impl ShardRun {
    /// The line `check --shard` prints: what was written or kept, and whether it is partial.
    pub fn describe(&self) -> String {
        let (k, n) = self.shard;
        let what = match (self.resumed, &self.partial) {
            (false, None) => format!("wrote {}", self.path.display()),
            (true, None) => format!("already done, kept {}", self.path.display()),
            (false, Some(_)) => format!("wrote {}, a PARTIAL part", self.path.display()),
            (true, Some(_)) => format!(
                "kept {} from an earlier run: a PARTIAL part, not run again",
                self.path.display()
            ),
        };
        let mut line = format!(
            "shard {k}/{n}: {what} ({} scenarios, {} states; the plan estimated {})",
            self.scenarios, self.states, self.estimated
        );
        if let Some(why) = &self.partial {
            line.push_str(&format!(
                "\nshard {k}/{n}: PARTIAL: {why}; a merge including it is a partial run. To complete it, remove {} and run the shard again with a larger --memory",
                self.path.display()
            ));
        }
        line
    }
}

/// A split run's rulebook and bound, read and recorded.
pub(crate) struct Inputs {
    pub(crate) rules: Rulebook,
    pub(crate) bound: Bound,
    pub(crate) rules_in: Input,
    pub(crate) bound_in: Input,
}

impl Inputs {
    /// The rulebook and bound of a split run (`flag`: `--shard` or `--plan`), refusing the
    /// options a split run cannot take.
    pub(crate) fn of(opts: &CheckOptions, flag: &str) -> Result<Inputs, Error> {
        if opts.coverage
            || opts.cases.is_some()
            || opts.traces.is_some()
            || opts.max_states.is_some()
        {
            return Err(Error::Usage(format!(
                "{flag} cannot be used with --coverage, --cases, --traces or --max-states"
            )));
        }
        // A part records its bound as named: `auto` would choose scenarios by a search of its
        // own in each shard, so a shard takes a named bound (the default preset when none is
        // named).
        let bound_arg = match opts.bound.as_str() {
            "" => "default",
            "auto" => {
                return Err(Error::Usage(format!(
                    "{flag} needs a named bound (a preset or a bound file), not `auto`"
                )))
            }
            b => b,
        };
        Ok(Inputs {
            rules: inputs::rulebook(&opts.rules)?,
            bound: inputs::bound(bound_arg)?,
            rules_in: Input::capture(&opts.rules, Rulebook::named(&opts.rules).is_some())?,
            bound_in: Input::capture(bound_arg, Bound::preset(bound_arg).is_some())?,
        })
    }

    /// The system a split run checks: the model with the probes of the fields the rulebook
    /// changes, as `check` runs them.
    pub(crate) fn system(&self) -> Result<RepeatSystem, Error> {
        let against = self.rules.base_rulebook();
        let system = RepeatSystem::new(self.rules.clone(), &self.bound).map_err(Error::scenario)?;
        let probes = crate::exercise::probes_for(&self.rules, &against, &system.game);
        Ok(system.with_probes(probes))
    }

    /// The origin of a file of this run, made by this build.
    pub(crate) fn origin<'a>(
        &'a self,
        build: &'a Build,
        shards: u32,
        symmetry: bool,
    ) -> Origin<'a> {
        Origin {
            version: env!("CARGO_PKG_VERSION"),
            build,
            rules: &self.rules_in,
            bound: &self.bound_in,
            shards,
            symmetry,
        }
    }
}

/// Runs shard `k` (1-based) of `n` and writes its part file into `dir`, unless a part file for
/// the same run is there already. The scenarios are dealt by the plan file in `dir` if there
/// is one ([`plan`]), else by the plan the shard makes for itself.
pub fn run(opts: &CheckOptions, (k, n): (u32, u32), dir: &Path) -> Result<ShardRun, Error> {
    let ins = Inputs::of(opts, "--shard")?;
    let build = Build::this();
    let path = dir.join(part_name(k, n));
    if std::fs::symlink_metadata(&path).is_ok() {
        let old = read(&path)?;
        let wanted = ins.origin(&build, n, old.part.symmetry);
        let why = old.origin().differs_from(&wanted).or_else(|| {
            (old.part.shard != (k - 1, n)).then(|| "a part of another shard".to_string())
        });
        if let Some(why) = why {
            return Err(Error::Usage(format!(
                "{}: a part file of another run is there: {why}; remove it or use another folder",
                path.display()
            )));
        }
        return Ok(summary((k, n), path, &old, true));
    }
    // The part file is checked (and its temporary sibling made) before the search, by the
    // rules of every output.
    let mut outputs =
        crate::outdir::prepare(&[crate::outdir::Target::file("the part file", Some(&path))])?;
    let out = outputs.file("the part file").expect("the target was given");
    let system = ins.system()?;
    let symmetry = !opts.no_symmetry;
    // The base's run of the same shard must take the same scenarios: one plan for both.
    let plan = match plan::read_for(dir, &ins.origin(&build, n, symmetry))? {
        Some(p) => p,
        None => crate::check::configure(system.checker(), opts).plan(n)?,
    };
    let part = crate::check::configure(system.checker(), opts)
        .shard(k - 1, n)
        .with_plan(plan.clone())
        .run_part()?;
    let against = ins.rules.base_rulebook();
    let base = base_witnesses(&system, &part, &against, opts, plan)?;
    let file = PartFile {
        format: FORMAT.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        build,
        rules: ins.rules_in,
        bound: ins.bound_in,
        part,
        base,
    };
    out.commit(&serde_json::to_string(&file).expect("a part serialises"))?;
    Ok(summary((k, n), path, &file, false))
}

/// The witnesses `part` never reached, each with what a run under `against` (the edit's base)
/// found on the same shard of the same scenarios; nothing when the rulebook edits nothing.
fn base_witnesses(
    system: &RepeatSystem,
    part: &Part,
    against: &Rulebook,
    opts: &CheckOptions,
    plan: checker::forest::plan::Plan,
) -> Result<Vec<BaseWitness>, Error> {
    if system
        .game
        .rules
        .book()
        .differing_fields(against)
        .is_empty()
    {
        return Ok(vec![]);
    }
    let props = checker::Model::properties(system);
    let missed: Vec<String> = props
        .iter()
        .enumerate()
        .take(props.len() - system.probes().len())
        .filter(|(_, p)| p.expectation == checker::Expectation::Sometimes)
        .filter(|(i, _)| part.summaries.iter().all(|s| s.findings[*i].is_none()))
        .map(|(_, p)| p.name.to_string())
        .collect();
    if missed.is_empty() {
        return Ok(vec![]);
    }
    let base = RepeatSystem::from_parts(
        model::game::Game::new(against.clone(), system.game.cards.clone()),
        system.scenarios.clone(),
    )
    .select(&missed)
    .map_err(Error::Usage)?;
    let base_props: Vec<&str> = checker::Model::properties(&base)
        .iter()
        .map(|p| p.name)
        .collect();
    let (k, n) = part.shard;
    let run = crate::check::configure(base.checker(), opts)
        .shard(k, n)
        .with_plan(plan)
        .run_part()?;
    let stopped = match run.stop {
        PartStop::Done => None,
        _ => Some(format!(
            "stopped (shard {}/{n}) at its memory budget after {} scenario(s)",
            k + 1,
            run.summaries.len()
        )),
    };
    Ok(missed
        .into_iter()
        .map(|name| {
            // A witness that cannot apply under the base is missed by it, whatever it searched.
            let at = base_props.iter().position(|p| *p == name);
            let reached = at.is_some_and(|i| run.summaries.iter().any(|s| s.findings[i].is_some()));
            BaseWitness {
                stopped: stopped.clone().filter(|_| !reached && at.is_some()),
                name,
                reached,
            }
        })
        .collect())
}

fn summary(shard: (u32, u32), path: PathBuf, file: &PartFile, resumed: bool) -> ShardRun {
    ShardRun {
        shard,
        path,
        resumed,
        scenarios: file.part.summaries.len(),
        states: part_states(&file.part),
        estimated: file.part.estimated_states,
        partial: file.partial(),
    }
}

/// The states a part explored. Saturating: a part file is outside input, and this is only
/// said, never merged.
fn part_states(part: &Part) -> u64 {
    part.summaries
        .iter()
        .flat_map(|s| &s.states_per_depth)
        .fold(0u64, |a, x| a.saturating_add(*x))
}

/// Reads a part file, refusing one that is too large or not a part.
pub fn read(path: &Path) -> Result<PartFile, Error> {
    read_tagged(path, parse)
}

/// Reads a file of at most [`MAX_PART_BYTES`] and parses it with `parse`; errors name the file.
fn read_tagged<T>(path: &Path, parse: fn(&[u8]) -> Result<T, String>) -> Result<T, Error> {
    let bad = |m: String| Error::Usage(format!("{}: {m}", path.display()));
    let f = std::fs::File::open(path).map_err(|e| bad(format!("cannot read: {e}")))?;
    let mut bytes = vec![];
    f.take(MAX_PART_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_PART_BYTES {
        return Err(bad(format!(
            "larger than {MAX_PART_BYTES} bytes: not an rbcheck file"
        )));
    }
    parse(&bytes).map_err(bad)
}

/// Parses a part file's bytes: the part, or what is wrong (with its line).
pub fn parse(bytes: &[u8]) -> Result<PartFile, String> {
    parse_tagged(bytes, FORMAT, "part", "run the shard again with this one")
}

/// Parses the bytes of an rbcheck file of kind `kind` (part, plan) and format tag `format`.
/// The tag is read first, so that a file of another format (an older rbcheck's) is named as
/// such rather than by the first field it lacks; `remedy` says what to do then.
fn parse_tagged<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    format: &str,
    kind: &str,
    remedy: &str,
) -> Result<T, String> {
    #[derive(Deserialize)]
    struct Tag {
        format: Option<serde_json::Value>,
    }
    let not_one = |e: serde_json::Error| {
        format!(
            "line {}: not an rbcheck {kind} file ({format}): {e}",
            e.line()
        )
    };
    let tag: Tag = serde_json::from_slice(bytes).map_err(not_one)?;
    match tag.format.as_ref().and_then(|f| f.as_str()) {
        Some(f) if f == format => {}
        Some(f) if f.starts_with(&format!("rbcheck-{kind}/")) => {
            return Err(format!(
                "format `{f}`, expected `{format}`: a {kind} written by another version of rbcheck; {remedy}"
            ))
        }
        _ => {
            return Err(format!(
                "line 1: not an rbcheck {kind} file: its `format` is not `{format}`"
            ))
        }
    }
    serde_json::from_slice(bytes).map_err(not_one)
}

/// Rebuilds a rulebook or bound from a part file's record of it.
fn rebuild<T>(
    input: &Input,
    preset: impl Fn(&str) -> Option<T>,
    parse: impl Fn(&str, &str) -> Result<T, String>,
) -> Result<T, Error> {
    match (&input.text, &input.name) {
        (Some(text), Some(name)) => parse(text, name)
            .map_err(|m| Error::Usage(format!("{} (as recorded in the part): {m}", input.arg))),
        _ => preset(&input.arg)
            .ok_or_else(|| Error::Usage(format!("`{}` is not a preset", input.arg))),
    }
}

/// A merged run: the system, the bound, the result and the judgement one unsharded run would
/// give.
pub struct Merged {
    /// The system, rebuilt from the parts' rulebook and bound.
    pub system: RepeatSystem,
    /// The bound.
    pub bound: Bound,
    /// The combined result (the probes taken out).
    pub result: CheckResult<RepeatSystem>,
    /// What `check` adds to the result: the fields exercised and the witnesses missed.
    pub judgement: Judgement,
    /// How evenly the shards shared the work.
    pub balance: Balance,
}

/// How evenly the shards of a merged run shared the work: each shard's states explored, in
/// shard order.
pub struct Balance {
    /// States explored by each shard (index: shard − 1).
    pub states: Vec<u64>,
}

impl Balance {
    /// The line `merge` prints about it: the largest shard against the mean.
    pub fn describe(&self) -> String {
        let n = self.states.len();
        let l = Largest::of(&self.states);
        format!(
            "{n} shard(s): the largest, shard {}/{n}, explored {} states, {:.2}x the mean of {}",
            l.shard + 1,
            l.load,
            l.over_mean,
            l.total / n.max(1) as u64
        )
    }
}

/// The largest of the shards' loads (states explored or estimated) against their mean.
pub(crate) struct Largest {
    /// The largest shard (0-based; the first of equal ones).
    pub(crate) shard: usize,
    /// Its load.
    pub(crate) load: u64,
    /// The loads summed (saturating: they may come from files).
    pub(crate) total: u64,
    /// Its load over the mean load (1.0 when every load is 0).
    pub(crate) over_mean: f64,
}

impl Largest {
    /// The largest of `loads`.
    pub(crate) fn of(loads: &[u64]) -> Largest {
        let total = loads.iter().fold(0u64, |a, x| a.saturating_add(*x));
        let (shard, load) = loads
            .iter()
            .copied()
            .enumerate()
            .max_by_key(|&(i, l)| (l, std::cmp::Reverse(i)))
            .unwrap_or((0, 0));
        let over_mean = match total {
            0 => 1.0,
            t => load as f64 * loads.len() as f64 / t as f64,
        };
        Largest {
            shard,
            load,
            total,
            over_mean,
        }
    }
}

/// Merges part files into one result.
pub fn merge(paths: &[PathBuf], threads: usize) -> Result<Merged, Error> {
    let files = paths
        .iter()
        .map(|p| read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let first = files
        .first()
        .ok_or_else(|| Error::Usage("no part file to merge".into()))?;
    for (i, f) in files.iter().enumerate().skip(1) {
        if let Some(why) = f.differs_from(first) {
            return Err(Error::Usage(format!(
                "{}: a part of another run than {}: {why}",
                paths[i].display(),
                paths[0].display()
            )));
        }
    }
    let rules = rebuild(&first.rules, Rulebook::named, |t, n| {
        Rulebook::from_toml(t, n).map_err(|e| format!("line {}: {}", e.line, e.message))
    })?;
    let bound = rebuild(&first.bound, Bound::preset, |t, n| {
        Bound::from_toml(t, n).map_err(|e| e.to_string())
    })?;
    let (symmetry, rules_arg) = (first.part.symmetry, first.rules.arg.clone());
    let against = rules.base_rulebook();
    let system = RepeatSystem::new(rules.clone(), &bound).map_err(Error::scenario)?;
    let probes = crate::exercise::probes_for(&rules, &against, &system.game);
    let system = system.with_probes(probes);
    let base: Vec<BaseWitness> = files.iter().flat_map(|f| f.base.clone()).collect();
    let mut states = vec![0; first.part.shard.1 as usize];
    for f in &files {
        if let Some(slot) = states.get_mut(f.part.shard.0 as usize) {
            *slot = part_states(&f.part);
        }
    }
    let balance = Balance { states };
    let parts = files.into_iter().map(|f| f.part).collect();
    let mut result = system
        .checker()
        .threads(threads)
        .symmetry(symmetry)
        .merge(parts)?;
    let mut fields = crate::exercise::split(&system, &mut result);
    let effort = crate::exercise::Effort {
        threads,
        memory: None,
    };
    crate::exercise::fill_elsewhere(&mut fields, &rules, &against, effort)?;
    let misses = merged_misses(&result, &rules, &against, &base, paths.len());
    let judgement = Judgement {
        bound: bound.name.clone(),
        rules_arg,
        exercise: crate::exercise::Exercise {
            against: match fields.is_empty() {
                true => String::new(),
                false => against.name.clone(),
            },
            fields,
        },
        not_applicable: crate::check::not_applicable(&system),
        misses,
        ..Default::default()
    };
    Ok(Merged {
        system,
        bound,
        result,
        judgement,
        balance,
    })
}

/// The witnesses the merged run never reached, each judged by the shards' runs under the base:
/// unreachable if one reached it, never reached if every shard searched all its scenarios
/// under the base and missed it, else undecided.
fn merged_misses(
    result: &CheckResult<RepeatSystem>,
    rules: &Rulebook,
    against: &Rulebook,
    base: &[BaseWitness],
    shards: usize,
) -> Vec<WitnessMiss> {
    let edits = !rules.differing_fields(against).is_empty();
    result
        .properties
        .iter()
        .filter(|p| p.expectation == checker::Expectation::Sometimes)
        .filter(|p| matches!(p.outcome, checker::Outcome::NeverReached))
        .map(|p| {
            let found: Vec<&BaseWitness> = base.iter().filter(|b| b.name == p.name).collect();
            let judged = match () {
                _ if !edits => BaseRun::Misses,
                _ if found.iter().any(|b| b.reached) => BaseRun::Reaches(against.name.clone()),
                _ if found.len() == shards && found.iter().all(|b| b.stopped.is_none()) => {
                    BaseRun::Misses
                }
                _ => BaseRun::Stopped {
                    base: against.name.clone(),
                    why: found
                        .iter()
                        .find_map(|b| b.stopped.clone())
                        .unwrap_or_else(|| "was not run by every shard".into()),
                },
            };
            WitnessMiss {
                name: p.name,
                base: judged,
            }
        })
        .collect()
}
