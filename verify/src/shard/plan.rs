//! The shard plan as a file. Every shard of a run deals the scenarios to the shards the same
//! way (the checker's plan: sizes estimated by random walks, largest first to the least loaded
//! shard), and without a plan each shard makes it for itself, which on a bound of many small
//! scenarios costs a shard about as much as its own part. `rbcheck check --plan N --parts DIR`
//! makes it once and writes `DIR/plan-of-N.json`; a shard of that run finds it there and reads
//! it instead. A plan file of another run (another build, rulebook, bound, number of shards or
//! symmetry setting) in the folder is an error, as a part file of another run is.

use super::{parse_tagged, read_tagged, Build, Inputs, Largest, Origin};
use crate::check::CheckOptions;
use crate::error::Error;
use checker::forest::plan::Plan;
use checker::CheckerExt;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The format tag of plan files.
pub const FORMAT: &str = "rbcheck-plan/1";

/// What a plan file holds: the plan and the run it was made for.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlanFile {
    /// [`FORMAT`].
    pub format: String,
    /// The version of the rbcheck that wrote it.
    pub version: String,
    /// The build that wrote it.
    pub build: Build,
    /// The rulebook.
    pub rules: super::Input,
    /// The bound.
    pub bound: super::Input,
    /// Whether the scenarios were fingerprinted with symmetry reduction.
    pub symmetry: bool,
    /// The checker's plan.
    pub plan: Plan,
}

impl PlanFile {
    /// What the plan was made for.
    fn origin(&self) -> Origin<'_> {
        Origin {
            version: &self.version,
            build: &self.build,
            rules: &self.rules,
            bound: &self.bound,
            shards: self.plan.shards,
            symmetry: self.symmetry,
        }
    }
}

/// The file name of the plan for `n` shards.
pub fn file_name(n: u32) -> String {
    format!("plan-of-{n}.json")
}

/// Parses a plan file's bytes: the plan, or what is wrong (with its line).
pub fn parse(bytes: &[u8]) -> Result<PlanFile, String> {
    parse_tagged(bytes, FORMAT, "plan", "make it again with this one")
}

/// The plan in `dir` for the run of `wanted`, if there is one; an error names a plan file of
/// another run or one that is not a plan.
pub(crate) fn read_for(dir: &Path, wanted: &Origin<'_>) -> Result<Option<Plan>, Error> {
    let path = dir.join(file_name(wanted.shards));
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let file = read_tagged(&path, parse)?;
    if let Some(why) = file.origin().differs_from(wanted) {
        return Err(Error::Usage(format!(
            "{}: a plan file of another run is there: {why}; remove it or use another folder",
            path.display()
        )));
    }
    Ok(Some(file.plan))
}

/// What `check --plan` did.
pub struct PlanRun {
    /// The plan file.
    pub path: PathBuf,
    /// Whether it already existed (it was not made again).
    pub kept: bool,
    /// The plan.
    pub plan: Plan,
}

impl PlanRun {
    /// The lines `check --plan` prints: the file, and the estimated split.
    pub fn describe(&self) -> String {
        let loads = self.plan.loads();
        let l = Largest::of(&loads);
        let n = loads.len();
        format!(
            "{} {}: {} scenarios dealt to {n} shards, about {} states in all; the largest, shard {}/{n}, about {} states, {:.2}x the mean",
            if self.kept { "kept" } else { "wrote" },
            self.path.display(),
            self.plan.shard_of.len(),
            l.total,
            l.shard + 1,
            l.load,
            l.over_mean,
        )
    }
}

/// Makes the plan for `n` shards and writes it into `dir`, unless the plan of this run is
/// there already.
pub fn make(opts: &CheckOptions, n: u32, dir: &Path) -> Result<PlanRun, Error> {
    let ins = Inputs::of(opts, "--plan")?;
    let build = Build::this();
    let symmetry = !opts.no_symmetry;
    let path = dir.join(file_name(n));
    if let Some(plan) = read_for(dir, &ins.origin(&build, n, symmetry))? {
        return Ok(PlanRun {
            path,
            kept: true,
            plan,
        });
    }
    let mut outputs =
        crate::outdir::prepare(&[crate::outdir::Target::file("the plan file", Some(&path))])?;
    let out = outputs.file("the plan file").expect("the target was given");
    let system = ins.system()?;
    let plan = crate::check::configure(system.checker(), opts).plan(n)?;
    let file = PlanFile {
        format: FORMAT.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        build,
        rules: ins.rules_in,
        bound: ins.bound_in,
        symmetry,
        plan,
    };
    out.commit(&serde_json::to_string(&file).expect("a plan serialises"))?;
    Ok(PlanRun {
        path,
        kept: false,
        plan: file.plan,
    })
}
