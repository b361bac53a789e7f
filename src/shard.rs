//! `rbcheck check --shard K/N` and `rbcheck merge`: one check split into N processes (a
//! cluster's job array), each exploring every N-th scenario and writing a part file, merged into
//! the report one run would print.
//!
//! A part file holds the rulebook and the bound it was made with (their text, when they are
//! files, so that the merge does not depend on where it runs) and the checker's
//! [`checker::Part`]: per scenario, its counts and each property's first finding as a path of
//! actions. The merge rebuilds the system, combines the parts with `Checker::merge` (which
//! gives exactly the unsharded result) and replays the traces. A part is written to a temporary
//! file in the same folder and renamed, so a part file that exists is whole; a shard whose part
//! file exists already (same rulebook, bound and split) is not run again, which is how a killed
//! run resumes.

use crate::check::CheckOptions;
use crate::error::Error;
use crate::inputs;
use checker::{CheckResult, CheckerExt, Part};
use model::rulebook::Rulebook;
use properties::{Bound, RepeatSystem};
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The format tag of part files.
pub const FORMAT: &str = "rbcheck-part/1";

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

/// What a part file holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PartFile {
    /// [`FORMAT`].
    pub format: String,
    /// The rulebook.
    pub rules: Input,
    /// The bound.
    pub bound: Input,
    /// The checker's part.
    pub part: Part,
}

impl PartFile {
    /// Whether two parts come from the same rulebook, bound and split (the shard aside).
    fn same_run(&self, other: &PartFile) -> bool {
        self.rules == other.rules
            && self.bound == other.bound
            && self.part.shard.1 == other.part.shard.1
            && self.part.symmetry == other.part.symmetry
    }
}

/// The file name of shard `k` (1-based) of `n`.
pub fn part_name(k: u32, n: u32) -> String {
    format!("part-{k}-of-{n}.json")
}

/// What a shard run did.
pub struct ShardRun {
    /// The part file.
    pub path: PathBuf,
    /// Whether it already existed (the shard was not run again).
    pub resumed: bool,
    /// The scenarios and states of the part.
    pub scenarios: usize,
    /// States explored by the part.
    pub states: u64,
}

/// Runs shard `k` (1-based) of `n` and writes its part file into `dir`, unless a part file for
/// the same run is there already.
pub fn run(opts: &CheckOptions, (k, n): (u32, u32), dir: &Path) -> Result<ShardRun, Error> {
    if opts.coverage || opts.cases.is_some() || opts.traces.is_some() || opts.max_states.is_some() {
        return Err(Error::Usage(
            "--shard cannot be used with --coverage, --cases, --traces or --max-states".into(),
        ));
    }
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "--parts {}: expected an existing folder",
            dir.display()
        )));
    }
    let rules = inputs::rulebook(&opts.rules)?;
    let bound = inputs::bound(&opts.bound)?;
    let input = |arg: &str, preset: bool| Input::capture(arg, preset);
    let rules_in = input(&opts.rules, Rulebook::named(&opts.rules).is_some())?;
    let bound_in = input(&opts.bound, Bound::preset(&opts.bound).is_some())?;
    let path = dir.join(part_name(k, n));
    if path.exists() {
        let old = read(&path)?;
        let wanted = PartFile {
            format: FORMAT.into(),
            rules: rules_in,
            bound: bound_in,
            part: old.part.clone(),
        };
        if !old.same_run(&wanted) || old.part.shard != (k - 1, n) {
            return Err(Error::Usage(format!(
                "{}: a part file of another run is there; remove it or use another folder",
                path.display()
            )));
        }
        return Ok(summary(path, &old.part, true));
    }
    let system = RepeatSystem::new(rules, &bound).map_err(Error::scenario)?;
    let part = crate::check::configure(system.checker(), opts)
        .shard(k - 1, n)
        .run_part()?;
    let file = PartFile {
        format: FORMAT.into(),
        rules: rules_in,
        bound: bound_in,
        part,
    };
    write_atomically(
        &path,
        &serde_json::to_vec(&file).expect("a part serialises"),
    )?;
    Ok(summary(path, &file.part, false))
}

fn summary(path: PathBuf, part: &Part, resumed: bool) -> ShardRun {
    ShardRun {
        path,
        resumed,
        scenarios: part.summaries.len(),
        states: part
            .summaries
            .iter()
            .map(|s| s.states_per_depth.iter().sum::<u64>())
            .sum(),
    }
}

/// Writes `bytes` to a temporary file beside `path`, then renames it to `path`: a reader never
/// sees half a file, and a killed shard leaves at most a temporary file, never a part.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("part");
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let fail = |e: std::io::Error| Error::Usage(format!("{}: cannot write: {e}", path.display()));
    let result = (|| {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}

/// Reads a part file, refusing one that is too large or not a part.
pub fn read(path: &Path) -> Result<PartFile, Error> {
    let bad = |m: String| Error::Usage(format!("{}: {m}", path.display()));
    let f = std::fs::File::open(path).map_err(|e| bad(format!("cannot read: {e}")))?;
    let mut bytes = vec![];
    f.take(MAX_PART_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_PART_BYTES {
        return Err(bad(format!(
            "larger than {MAX_PART_BYTES} bytes: not a part file"
        )));
    }
    let file: PartFile = serde_json::from_slice(&bytes).map_err(|e| {
        bad(format!(
            "line {}: not an rbcheck part file ({FORMAT}): {e}",
            e.line()
        ))
    })?;
    if file.format != FORMAT {
        return Err(bad(format!(
            "format `{}`, expected `{FORMAT}`",
            file.format
        )));
    }
    Ok(file)
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

/// A merged run: the system, the bound and the result one unsharded run would give.
pub struct Merged {
    /// The system, rebuilt from the parts' rulebook and bound.
    pub system: RepeatSystem,
    /// The bound.
    pub bound: Bound,
    /// The combined result.
    pub result: CheckResult<RepeatSystem>,
}

impl Merged {
    /// The judgement of a merged run: its bound, and nothing the parts do not record.
    pub fn judgement(&self) -> crate::verdict::Judgement {
        crate::verdict::Judgement {
            bound: self.bound.name.clone(),
            rules_arg: self.system.game.rules.name().to_string(),
            ..Default::default()
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
    if let Some((i, _)) = files.iter().enumerate().find(|(_, f)| !f.same_run(first)) {
        return Err(Error::Usage(format!(
            "{}: a part of another run than {} (rulebook, bound or number of shards differ)",
            paths[i].display(),
            paths[0].display()
        )));
    }
    let rules = rebuild(&first.rules, Rulebook::named, |t, n| {
        Rulebook::from_toml(t, n).map_err(|e| format!("line {}: {}", e.line, e.message))
    })?;
    let bound = rebuild(&first.bound, Bound::preset, |t, n| {
        Bound::from_toml(t, n).map_err(|e| e.to_string())
    })?;
    let symmetry = first.part.symmetry;
    let system = RepeatSystem::new(rules, &bound).map_err(Error::scenario)?;
    let parts = files.into_iter().map(|f| f.part).collect();
    let result = system
        .checker()
        .threads(threads)
        .symmetry(symmetry)
        .merge(parts)?;
    Ok(Merged {
        system,
        bound,
        result,
    })
}
