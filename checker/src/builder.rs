//! The [`Checker`] builder: a run's options, and which search strategy runs it (the
//! level-synchronous breadth-first search of `crate::bfs`, or the scenario-by-scenario search
//! of `crate::forest` for a model with independent initial states).

use crate::bfs::{self, LevelCallback};
use crate::ctx::{catch, Ctx, Fused};
use crate::error::CheckError;
use crate::forest;
use crate::memory::{self, Budget};
use crate::model::{Model, Property};
use crate::result::CheckResult;
use crate::stats::LevelProgress;

/// A run's properties, and the function evaluating all their conditions at once if the model
/// gives one ([`Model::fused_conditions`]).
struct Props<M: Model> {
    list: Vec<Property<M>>,
    fused: Option<Fused<M>>,
}

/// Configures and runs a breadth-first check of a model (builder style).
pub struct Checker<'a, M: Model> {
    model: &'a M,
    threads: usize,
    max_states: Option<usize>,
    symmetry: bool,
    stop_on_first_violation: bool,
    settle: bool,
    report_progress: bool,
    on_level: Option<LevelCallback<'a>>,
    /// `None`: the default, decided when the run starts.
    memory_limit: Option<Option<u64>>,
    /// This shard (0-based) and the number of shards, for models with independent initial
    /// states.
    shard: (u32, u32),
    plan: Option<forest::plan::Plan>,
    progress_every: std::time::Duration,
    progress_sink: Option<forest::ProgressSink>,
    collapse_forced: bool,
    search_order: forest::SearchOrder,
}

/// Adds `model.checker()` to every model.
pub trait CheckerExt: Model + Sized {
    /// A checker for this model with default options.
    fn checker(&self) -> Checker<'_, Self>;
}

impl<M: Model> CheckerExt for M {
    fn checker(&self) -> Checker<'_, Self> {
        Checker::new(self)
    }
}

impl<'a, M: Model> Checker<'a, M> {
    /// A checker with default options: all cores, no state limit, a memory budget of 75 % of
    /// the memory available at the start of the run (see [`Checker::memory_limit`]), the
    /// model's fingerprint (symmetry reduction if the model defines it), every property
    /// decided, no progress output.
    pub fn new(model: &'a M) -> Self {
        Checker {
            model,
            threads: 0,
            max_states: None,
            symmetry: true,
            stop_on_first_violation: false,
            settle: false,
            report_progress: false,
            on_level: None,
            memory_limit: None,
            shard: (0, 1),
            plan: None,
            progress_every: forest::PROGRESS_EVERY,
            progress_sink: None,
            collapse_forced: true,
            search_order: forest::SearchOrder::Auto,
        }
    }

    /// Worker threads in a dedicated pool (0: one per core). Results do not depend on it.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Stops after the level in which the number of distinct states reaches `limit` (`None`:
    /// no limit). The result is then incomplete unless nothing was left to explore.
    pub fn max_states(mut self, limit: impl Into<Option<usize>>) -> Self {
        self.max_states = limit.into();
        self
    }

    /// Whether to deduplicate with `Model::fingerprint` (true, the default, which applies the
    /// model's symmetry reduction if any) or with a hash of the whole state (false).
    pub fn symmetry(mut self, on: bool) -> Self {
        self.symmetry = on;
        self
    }

    /// For a model with independent initial states: ends each scenario's search once every
    /// property has a finding in it. For runs that ask only in which scenarios each property is
    /// found (the counts are then partial, and a depth-first finding is the first met, not
    /// necessarily the shallowest).
    pub fn settle_scenarios(mut self, on: bool) -> Self {
        self.settle = on;
        self
    }

    /// Stops after the level in which any property is violated, instead of exploring on until
    /// every property has a verdict.
    pub fn stop_on_first_violation(mut self, on: bool) -> Self {
        self.stop_on_first_violation = on;
        self
    }

    /// Prints a one-line progress report per level to stderr, if it is a terminal and the run
    /// has taken more than a second.
    pub fn report_progress(mut self, on: bool) -> Self {
        self.report_progress = on;
        self
    }

    /// With independent initial states (see [`Model::independent_inits`]), how often a
    /// progress line (scenarios done of the total, states, memory against the budget) is
    /// printed to stderr while `report_progress` is on, terminal or not; default
    /// [`forest::PROGRESS_EVERY`].
    pub fn progress_every(mut self, every: std::time::Duration) -> Self {
        self.progress_every = every;
        self
    }

    /// With independent initial states, sends each progress report to `sink` instead of
    /// printing it on stderr (while `report_progress` is on); the caller chooses the format.
    pub fn on_scenario_progress(mut self, sink: forest::ProgressSink) -> Self {
        self.progress_sink = Some(sink);
        self
    }

    /// Calls `f` after every level (from one thread, between the parallel phases).
    pub fn on_level(mut self, f: impl FnMut(&LevelProgress) + Send + 'a) -> Self {
        self.on_level = Some(Box::new(f));
        self
    }

    /// Stops the search cleanly, with [`StopReason::MemoryLimit`], once the process's resident
    /// memory (Linux `VmRSS`, the whole process) exceeds `bytes`; `None`: no limit.
    ///
    /// If this is not called, the limit is 75 % of `MemAvailable` in `/proc/meminfo` read when
    /// the run starts (see [`memory::default_limit`]), or no limit where that cannot be read
    /// (non-Linux). Resident memory is read between levels and, throttled, by the workers
    /// during a level; when it is exceeded the current level is discarded. Where the search
    /// stops then depends on timing and thread count: it is the one non-deterministic result.
    pub fn memory_limit(mut self, bytes: impl Into<Option<u64>>) -> Self {
        self.memory_limit = Some(bytes.into());
        self
    }

    /// Whether to follow runs of forced steps (see [`Model::forced`]) without storing their
    /// states (true, the default); only the search of independent initial states does. The
    /// verdicts, traces and states visited are the same either way; `Stats::states_stored`
    /// and the memory are not.
    pub fn collapse_forced(mut self, on: bool) -> Self {
        self.collapse_forced = on;
        self
    }

    /// How each scenario of a model with independent initial states is explored (default
    /// [`forest::SearchOrder::Auto`]: depth-first for a tree-shaped scenario, see
    /// [`Model::tree_shaped`]). The results are the same either way, but for
    /// `Stats::states_stored` (0 depth-first), the visited set's size and the memory.
    pub fn search_order(mut self, order: forest::SearchOrder) -> Self {
        self.search_order = order;
        self
    }

    /// Explores only shard `k` of `n` (0-based) of the initial states, for [`Checker::run_part`]:
    /// the distinct initial states [`forest::plan`] deals to it by their estimated sizes. Only
    /// for models with independent initial states ([`Model::independent_inits`]); `run`
    /// ignores it.
    pub fn shard(mut self, k: u32, n: u32) -> Self {
        self.shard = (k, n);
        self
    }

    /// Deals the shards' scenarios by `plan` (from [`Checker::plan`]) instead of making the
    /// plan again in this shard; [`Checker::run_part`] errors if the plan was made for other
    /// scenarios or another number of shards.
    pub fn with_plan(mut self, plan: forest::plan::Plan) -> Self {
        self.plan = Some(plan);
        self
    }

    /// The plan dealing this model's scenarios to `n` shards by their estimated sizes
    /// ([`forest::plan`]): what every shard makes for itself unless given one.
    pub fn plan(self, n: u32) -> Result<forest::plan::Plan, CheckError> {
        if !self.model.independent_inits() {
            return Err(CheckError::NotIndependent);
        }
        let props = self.properties()?;
        let pool = self.pool()?;
        let ctx = self.ctx(&props);
        forest::make_plan(ctx, n, &pool)
    }

    /// Runs the search to completion (or to a limit) and returns every property's verdict.
    ///
    /// For a model with independent initial states ([`Model::independent_inits`]) the
    /// scenarios are explored one per thread (see `crate::forest`), with the same results.
    /// A panic in model code becomes [`CheckError::ModelPanicked`] (the default panic hook
    /// still prints it); this needs the default `panic = "unwind"`.
    pub fn run(mut self) -> Result<CheckResult<M>, CheckError> {
        let props = self.properties()?;
        let pool = self.pool()?;
        if self.model.independent_inits() {
            self.shard = (0, 1);
            let stop_first = self.stop_on_first_violation;
            let ctx = self.ctx(&props);
            let part = forest::run_part(ctx, self.forest_options(), &pool)?;
            return forest::combine(ctx, vec![part], stop_first);
        }
        let threads = pool.current_num_threads();
        let options = self.bfs_options();
        pool.install(move || bfs::run(self.model, options, props.list, threads))
    }

    /// Explores this checker's shard (see [`Checker::shard`]) and returns its summaries, to be
    /// combined with the other shards' by [`Checker::merge`]. Errors with
    /// [`CheckError::NotIndependent`] unless the model declares independent initial states.
    pub fn run_part(mut self) -> Result<forest::Part, CheckError> {
        if !self.model.independent_inits() {
            return Err(CheckError::NotIndependent);
        }
        let (k, n) = self.shard;
        if n == 0 || k >= n {
            return Err(CheckError::PartsMismatch(format!(
                "shard {} of {n} does not exist",
                k + 1
            )));
        }
        let props = self.properties()?;
        let pool = self.pool()?;
        let ctx = self.ctx(&props);
        forest::run_part(ctx, self.forest_options(), &pool)
    }

    /// The result of one run from the parts of all its shards (see [`Checker::run_part`]):
    /// exactly what [`Checker::run`] gives, but for the time and memory figures (the shards'
    /// seconds summed, their peak memory's maximum).
    pub fn merge(self, parts: Vec<forest::Part>) -> Result<CheckResult<M>, CheckError> {
        let props = self.properties()?;
        let ctx = self.ctx(&props);
        forest::combine(ctx, parts, self.stop_on_first_violation)
    }

    /// The read-only context of a search of this checker's model with `props`.
    fn ctx<'p>(&self, props: &'p Props<M>) -> Ctx<'p, M>
    where
        'a: 'p,
    {
        Ctx {
            model: self.model,
            props: &props.list,
            fused: props.fused.as_ref(),
            symmetry: self.symmetry,
        }
    }

    fn properties(&self) -> Result<Props<M>, CheckError> {
        let model = self.model;
        let list = catch(
            || Ok(model.properties()),
            || "while listing the properties".into(),
        )?;
        if list.is_empty() {
            return Err(CheckError::NoProperties);
        }
        let fused = match list.len() <= 64 {
            true => catch(
                || Ok(model.fused_conditions(&list)),
                || "while fusing the properties' conditions".into(),
            )?
            .map(|all| Fused::new(all, &list)),
            false => None,
        };
        Ok(Props { list, fused })
    }

    fn pool(&self) -> Result<rayon::ThreadPool, CheckError> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .thread_name(|i| format!("rbcheck-worker-{i}"))
            .build()
            .map_err(|e| CheckError::ThreadPool(e.to_string()))
    }

    fn bfs_options(&mut self) -> bfs::Options<'a> {
        bfs::Options {
            symmetry: self.symmetry,
            max_states: self.max_states,
            stop_on_first_violation: self.stop_on_first_violation,
            report_progress: self.report_progress,
            on_level: self.on_level.take(),
            budget: Budget::new(
                self.memory_limit
                    .take()
                    .unwrap_or_else(memory::default_limit),
            ),
        }
    }

    fn forest_options(&mut self) -> forest::Options {
        forest::Options {
            shard: self.shard,
            plan: self.plan.take(),
            max_states: self.max_states,
            collapse_forced: self.collapse_forced,
            depth_first: self.search_order == forest::SearchOrder::Auto,
            settle: self.settle,
            progress_every: self.report_progress.then_some(self.progress_every),
            progress_sink: self.progress_sink.clone(),
            budget: Budget::new(
                self.memory_limit
                    .take()
                    .unwrap_or_else(memory::default_limit),
            ),
        }
    }
}
