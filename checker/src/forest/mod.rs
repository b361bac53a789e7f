//! The search of a model whose initial states have disjoint reachable sets
//! ([`Model::independent_inits`]): each initial state (a *scenario*) is explored on its own, on
//! one thread, while the other threads explore other scenarios; each scenario's states are
//! freed when it is done. Memory then follows the largest scenarios being explored at once, not
//! the sum of all of them, and no level barrier holds a thread back.
//!
//! Each scenario's search ([`scenario`]) keeps the canonical order of the level-synchronous
//! search, and hands back a [`Summary`]: its states per depth, transitions per level, and each
//! property's first finding with the number of levels expanded to reach it. [`combine`] then
//! gives exactly what the level-synchronous search gives: a property's verdict comes from the
//! scenario with the shallowest finding (the first such scenario in initial-state order), and
//! a stop that search would make between levels (every property decided, first violation) is
//! applied afterwards by cutting every scenario's counts at that level. So the counts, verdicts
//! and traces do not depend on the thread count, or on how the scenarios were split.
//!
//! Splitting is what [`Part`] is for: `Checker::shard(k, n)` explores the scenarios [`plan`]
//! deals to shard `k` of `n` (by their estimated sizes, so that the shards take about as long)
//! and `Checker::run_part` returns their summaries; `Checker::merge` combines the parts of all
//! `n` shards into the result one run would give. A part is serialisable (serde), so shards
//! can run as separate processes, on separate machines.
//!
//! Stops: the memory budget abandons the scenarios being explored and keeps those finished
//! (where that happens depends on timing, as in the other search). `max_states` keeps the
//! first `max_states` states in scenario order (each scenario breadth-first): the scenarios
//! before the one that crosses the limit whole, that one up to the limit, none after it.
//!
//! A tree-shaped scenario (`Model::tree_shaped`) is explored depth-first instead
//! ([`dfs`], unless [`SearchOrder::BreadthFirst`] is asked): no visited set, no frontier, the
//! same summary. With `max_states`, the scenarios are explored depth-first up to the limit too,
//! but the one that crosses it is explored again breadth-first, since the limit keeps a
//! breadth-first prefix of it.

mod combine;
mod dfs;
mod forced;
pub mod plan;
mod scenario;

pub(crate) use combine::combine;

use crate::ctx::{catch, Ctx};
use crate::error::CheckError;
use crate::memory::{resident_bytes, Budget};
use crate::model::Model;
pub use crate::result::Found;
use dfs::TreeSearch;
use scenario::{Buffers, Halt, ScenarioSearch};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What the search of one scenario found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The initial state's index in `Model::init_states`.
    pub init: u32,
    /// The initial state's fingerprint.
    pub init_fp: u64,
    /// States visited at each depth (depth 0: the initial state): distinct, unless the model
    /// declares a forced state (`Model::forced`) that is reached twice.
    pub states_per_depth: Vec<u64>,
    /// States stored in the visited set at each depth: those visited but forced ones.
    #[serde(default)]
    pub stored_per_depth: Vec<u64>,
    /// Transitions made expanding each depth.
    pub transitions_per_level: Vec<u64>,
    /// Each property's first finding, in `Model::properties` order.
    pub findings: Vec<Option<Found>>,
    /// The first depth at which a state expanded while progress was compared had none.
    pub progress_missing_at: Option<u32>,
    /// Bytes the scenario's visited set took.
    pub visited_bytes: u64,
    /// Whether the scenario was explored whole (false: stopped at the state limit).
    pub complete: bool,
}

/// Why a part stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartStop {
    /// Every scenario of the part was explored.
    Done,
    /// The state limit was reached.
    MaxStates,
    /// The memory budget was exceeded: only the scenarios in `summaries` were finished.
    MemoryLimit,
}

/// The result of one shard: the summaries of its scenarios and what it cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// This shard (0-based) and the number of shards.
    pub shard: (u32, u32),
    /// The model's initial states (all shards), duplicates included.
    pub init_states: u32,
    /// The distinct initial states (all shards).
    pub distinct_inits: u32,
    /// The property names, to check that parts come from the same model.
    pub properties: Vec<String>,
    /// Whether `Model::fingerprint` (symmetry) was used.
    pub symmetry: bool,
    /// How the scenarios were dealt to the shards.
    #[serde(default)]
    pub plan: ShardPlan,
    /// The sizes [`plan`] estimated for this part's scenarios, summed (0 when not estimated).
    #[serde(default)]
    pub estimated_states: u64,
    /// The summaries, in initial-state order.
    pub summaries: Vec<Summary>,
    /// Why it stopped.
    pub stop: PartStop,
    /// Wall-clock seconds.
    pub elapsed_secs: f64,
    /// Peak resident memory of the process, if known.
    pub peak_memory_bytes: Option<u64>,
    /// The memory budget.
    pub memory_limit_bytes: Option<u64>,
    /// Resident memory when the budget was found exceeded.
    pub memory_at_stop_bytes: Option<u64>,
    /// The address-space ceiling, if it is what stopped the part.
    #[serde(default)]
    pub address_ceiling_at_stop_bytes: Option<u64>,
}

/// How the scenarios of a run were dealt to its shards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShardPlan {
    /// One shard takes every scenario (an unsharded run).
    #[default]
    Whole,
    /// Largest estimated first, each to the least loaded shard, by the [`plan::Plan`] of
    /// this digest ([`plan::Plan::digest`]).
    BySize {
        /// The plan's digest.
        plan: u64,
    },
}

/// How each scenario is explored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SearchOrder {
    /// Depth-first, storing only the current path, for each scenario the model declares
    /// tree-shaped (`Model::tree_shaped`); breadth-first for the others.
    #[default]
    Auto,
    /// Breadth-first with a visited set, whatever the model declares (for comparison).
    BreadthFirst,
}

/// How often progress is printed by default.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(3);

/// What the run needs besides the model: its options.
pub(crate) struct Options {
    pub(crate) shard: (u32, u32),
    /// The plan dealing the scenarios to the shards (made by the part itself when `None`).
    pub(crate) plan: Option<plan::Plan>,
    pub(crate) max_states: Option<usize>,
    /// Whether forced states are left out of the visited set (`Checker::collapse_forced`).
    pub(crate) collapse_forced: bool,
    /// Whether the scenarios the model declares tree-shaped are explored depth-first.
    pub(crate) depth_first: bool,
    /// Whether a scenario's search ends once every property has a finding in it
    /// (`Checker::settle_scenarios`).
    pub(crate) settle: bool,
    /// Print progress every this often (`None`: never).
    pub(crate) progress_every: Option<Duration>,
    /// Where progress goes; `None`: a line on stderr.
    pub(crate) progress_sink: Option<ProgressSink>,
    pub(crate) budget: Budget,
}

/// Counters shared by the workers, read by the progress reporter.
#[derive(Default)]
struct Shared {
    /// Next place in [`Workers::order`] to start.
    next: AtomicUsize,
    /// Lowest position that failed; later ones stop.
    failed: AtomicUsize,
    /// With `max_states`: the position of the scenario crossing the limit; later ones stop.
    last_needed: AtomicUsize,
    /// Scenarios finished.
    done: AtomicUsize,
    /// States stored, finished scenarios and running ones.
    states: AtomicU64,
    /// Set once the workers are done, to stop the reporter.
    finished: AtomicBool,
}

/// A scenario waiting to be explored: its initial index, fingerprint and state.
type Pending<S> = Mutex<Option<(u32, u64, S)>>;

/// One scenario's slot: its result once explored.
type Slot = Mutex<Option<Result<Summary, CheckError>>>;

/// Explores the scenarios of one shard in parallel and returns their summaries.
pub(crate) fn run_part<M: Model>(
    ctx: Ctx<'_, M>,
    opts: Options,
    pool: &rayon::ThreadPool,
) -> Result<Part, CheckError> {
    let start = Instant::now();
    let (init_states, distinct) = distinct_inits(ctx)?;
    let distinct_inits = distinct.len() as u32;
    let (k, n) = opts.shard;
    let (plan, mine, estimated_states) = if n > 1 {
        let plan = match opts.plan {
            Some(ref p) => p.clone(),
            None => pool.install(|| plan::Plan::make(ctx.model, &distinct, n))?,
        };
        plan.fits(&distinct, n)?;
        let estimated = plan.loads()[k as usize];
        let mine: Vec<_> = distinct
            .into_iter()
            .zip(&plan.shard_of)
            .filter(|(_, s)| **s == k)
            .map(|(d, _)| d)
            .collect();
        let digest = plan.digest();
        (ShardPlan::BySize { plan: digest }, mine, estimated)
    } else {
        (ShardPlan::Whole, distinct, 0)
    };
    let order = work_order(ctx, &opts, &mine, pool)?;
    let mine: Vec<Pending<M::State>> = mine.into_iter().map(|d| Mutex::new(Some(d))).collect();
    let shared = Shared {
        failed: AtomicUsize::new(usize::MAX),
        last_needed: AtomicUsize::new(usize::MAX),
        ..Shared::default()
    };
    let slots: Vec<Slot> = mine.iter().map(|_| Mutex::new(None)).collect();
    let prefix = Mutex::new((0usize, 0u64));
    let workers = Workers {
        ctx,
        opts: &opts,
        mine: &mine,
        order: &order,
        slots: &slots,
        shared: &shared,
        prefix: &prefix,
    };
    std::thread::scope(|scope| {
        if let Some(every) = opts.progress_every {
            let (shared, budget, total) = (&shared, &opts.budget, mine.len());
            let sink = opts.progress_sink.as_ref();
            scope.spawn(move || report(shared, total, budget, start, every, sink));
        }
        pool.broadcast(|_| workers.work());
        shared.finished.store(true, Ordering::Relaxed);
    });
    let (summaries, stop) = workers.gather()?;
    Ok(Part {
        shard: opts.shard,
        init_states,
        distinct_inits,
        properties: ctx.props.iter().map(|p| p.name.to_string()).collect(),
        symmetry: ctx.symmetry,
        plan,
        estimated_states,
        summaries,
        stop,
        elapsed_secs: start.elapsed().as_secs_f64(),
        peak_memory_bytes: crate::stats::peak_memory_bytes(),
        memory_limit_bytes: opts.budget.limit(),
        memory_at_stop_bytes: opts
            .budget
            .exceeded_at()
            .filter(|_| stop == PartStop::MemoryLimit),
        address_ceiling_at_stop_bytes: opts
            .budget
            .address_ceiling()
            .filter(|_| stop == PartStop::MemoryLimit && opts.budget.exceeded_by_address()),
    })
}

/// The model's initial states counted, and the distinct ones as (initial index, fingerprint,
/// state): the first of equal initial states is kept, as the level-synchronous search does.
#[allow(clippy::type_complexity)]
fn distinct_inits<M: Model>(
    ctx: Ctx<'_, M>,
) -> Result<(u32, Vec<(u32, u64, M::State)>), CheckError> {
    let inits = catch(
        || Ok(ctx.model.init_states()),
        || "while computing the initial states".into(),
    )?;
    if inits.is_empty() {
        return Err(CheckError::NoInitialStates);
    }
    let init_states = u32::try_from(inits.len()).map_err(|_| CheckError::TooManyActions)?;
    let mut fps = HashSet::new();
    let mut distinct = vec![];
    for (i, s) in inits.into_iter().enumerate() {
        let fp = catch(
            || Ok(ctx.fp(&s)),
            || "while fingerprinting the initial states".into(),
        )?;
        if fps.insert(fp) {
            distinct.push((i as u32, fp, s));
        }
    }
    Ok((init_states, distinct))
}

/// The order in which the workers take `scenarios` (their positions): with several threads,
/// largest first by [`plan::rough_estimate`], so that no large scenario is left to run alone at
/// the end while the other threads idle (Graham's LPT rule). Results are booked by position, so
/// the order changes nothing reported. In position order when one thread runs, with a state
/// limit, whose prefix of scenarios must be explored first, and for a model that observes its
/// steps ([`Model::observes_steps`]), which the walks would add to.
fn work_order<M: Model>(
    ctx: Ctx<'_, M>,
    opts: &Options,
    scenarios: &[(u32, u64, M::State)],
    pool: &rayon::ThreadPool,
) -> Result<Vec<usize>, CheckError> {
    if pool.current_num_threads() < 2
        || opts.max_states.is_some()
        || scenarios.len() < 2
        || ctx.model.observes_steps()
    {
        return Ok((0..scenarios.len()).collect());
    }
    let sizes = pool.install(|| plan::rough_estimates(ctx.model, scenarios))?;
    Ok(plan::largest_first(&sizes))
}

/// The plan dealing the scenarios of this run to `n` shards ([`plan::Plan::make`]).
pub(crate) fn make_plan<M: Model>(
    ctx: Ctx<'_, M>,
    n: u32,
    pool: &rayon::ThreadPool,
) -> Result<plan::Plan, CheckError> {
    let (_, distinct) = distinct_inits(ctx)?;
    pool.install(|| plan::Plan::make(ctx.model, &distinct, n.max(1)))
}

/// The workers of one part and what they share.
struct Workers<'a, M: Model> {
    ctx: Ctx<'a, M>,
    opts: &'a Options,
    mine: &'a [Pending<M::State>],
    /// The positions in `mine`, in the order the workers take them.
    order: &'a [usize],
    slots: &'a [Slot],
    shared: &'a Shared,
    /// With `max_states`: (positions whose counts are summed, their total states).
    prefix: &'a Mutex<(usize, u64)>,
}

impl<M: Model> Workers<'_, M> {
    /// Whether the scenario at `pos` is no longer wanted.
    fn unwanted(&self, pos: usize) -> bool {
        let s = self.shared;
        s.failed.load(Ordering::Relaxed) < pos
            || s.last_needed.load(Ordering::Relaxed) < pos
            || self.opts.budget.exceeded()
    }

    /// One worker: takes the next scenario in [`Workers::order`] until none is left.
    fn work(&self) {
        let mut bufs = Buffers::default();
        loop {
            let next = self.shared.next.fetch_add(1, Ordering::Relaxed);
            let Some(&pos) = self.order.get(next) else {
                return;
            };
            if self.unwanted(pos) {
                // A later place may hold an earlier position, still wanted.
                continue;
            }
            let (index, fp, init) = lock(&self.mine[pos]).take().expect("taken once");
            let result = self.explore(
                pos,
                (index, fp, init),
                self.opts.max_states,
                true,
                &mut bufs,
            );
            let result = match result {
                Ok(s) => Ok(s),
                Err(Halt::Cancelled) => continue,
                Err(Halt::Failed(e)) => {
                    self.shared.failed.fetch_min(pos, Ordering::Relaxed);
                    Err(e)
                }
            };
            if result.is_ok() {
                self.shared.done.fetch_add(1, Ordering::Relaxed);
            }
            // Stored before it is counted, so that whichever worker counts last sees it.
            *lock(&self.slots[pos]) = Some(result);
            self.note_count();
        }
    }

    /// Explores the scenario at `pos` (initial index, fingerprint, state) with a state cap,
    /// depth-first if the run is and `may_dfs` (a cut at the cap must be breadth-first), a
    /// breadth-first search in the worker's buffers.
    fn explore(
        &self,
        pos: usize,
        (index, fp, init): (u32, u64, M::State),
        cap: Option<usize>,
        may_dfs: bool,
        bufs: &mut Buffers<M>,
    ) -> Result<Summary, Halt> {
        let cancelled = || self.unwanted(pos);
        let tally = |n| {
            self.shared.states.fetch_add(n, Ordering::Relaxed);
        };
        let cap = cap.map(|c| c as u64);
        let collapse = self.opts.collapse_forced;
        let context = || format!("while exploring the scenario of initial state #{index}");
        let tree = may_dfs
            && self.opts.depth_first
            && match catch(|| Ok(self.ctx.model.tree_shaped(&init)), context) {
                Ok(tree) => tree,
                Err(e) => return Err(Halt::Failed(e)),
            };
        if tree {
            let search = TreeSearch {
                ctx: self.ctx,
                cap,
                collapse,
                settle: self.opts.settle,
                cancelled: &cancelled,
                tally: &tally,
            };
            return catch(|| Ok(search.run(index, fp, init)), context)
                .unwrap_or_else(|e| Err(Halt::Failed(e)));
        }
        let search = ScenarioSearch {
            ctx: self.ctx,
            cap,
            collapse,
            settle: self.opts.settle,
            cancelled: &cancelled,
            tally: &tally,
            room_for: &|bytes| self.opts.budget.room_for(bytes),
        };
        self.shared.states.fetch_add(1, Ordering::Relaxed);
        catch(|| Ok(search.run(index, fp, init, bufs)), context)
            .unwrap_or_else(|e| Err(Halt::Failed(e)))
    }

    /// With `max_states`: adds a finished scenario's count to the prefix in order, and marks
    /// the scenario that crosses the limit, after which no scenario is needed.
    fn note_count(&self) {
        let Some(max) = self.opts.max_states else {
            return;
        };
        let mut prefix = lock(self.prefix);
        loop {
            let (at, sum) = *prefix;
            if at >= self.slots.len() || self.shared.last_needed.load(Ordering::Relaxed) <= at {
                return;
            }
            let slot = match lock(&self.slots[at]).as_ref() {
                Some(Ok(s)) => Some((s.complete, states(s))),
                _ => None,
            };
            let Some((complete, count)) = slot else {
                return;
            };
            if !complete || sum + count > max as u64 {
                self.shared.last_needed.store(at, Ordering::Relaxed);
                return;
            }
            *prefix = (at + 1, sum + count);
        }
    }

    /// The finished summaries in order, the first error in order, and why the part stopped;
    /// with `max_states`, the scenario crossing the limit is explored again up to it.
    fn gather(&self) -> Result<(Vec<Summary>, PartStop), CheckError> {
        let mut out = vec![];
        let memory = self.opts.budget.exceeded_at().is_some();
        let last_needed = self.shared.last_needed.load(Ordering::Relaxed);
        for (pos, slot) in self.slots.iter().enumerate() {
            if pos > last_needed {
                break;
            }
            match lock(slot).take() {
                Some(Err(e)) => return Err(e),
                Some(Ok(s)) => out.push(s),
                None => {}
            }
        }
        if memory {
            return Ok((out, PartStop::MemoryLimit));
        }
        let Some(max) = self.opts.max_states else {
            return Ok((out, PartStop::Done));
        };
        if last_needed == usize::MAX {
            return Ok((out, PartStop::Done));
        }
        // Every scenario before `last_needed` is finished and counted; this one is cut to what
        // is left of the limit.
        let crossing = out.pop().expect("the crossing scenario finished");
        let before: u64 = out.iter().map(states).sum();
        let left = max as u64 - before;
        if left > 0 {
            let init = catch(
                || Ok(self.ctx.model.init_states()),
                || "while computing the initial states".into(),
            )?
            .swap_remove(crossing.init as usize);
            match self.explore(
                last_needed,
                (crossing.init, crossing.init_fp, init),
                Some(left as usize),
                false,
                &mut Buffers::default(),
            ) {
                Ok(s) => out.push(s),
                Err(Halt::Failed(e)) => return Err(e),
                Err(Halt::Cancelled) => return Ok((out, PartStop::MemoryLimit)),
            }
        }
        Ok((out, PartStop::MaxStates))
    }
}

/// A summary's state count.
pub(crate) fn states(s: &Summary) -> u64 {
    s.states_per_depth.iter().sum()
}

/// Locks a mutex, ignoring poisoning (a panic is caught and reported before any lock is
/// poisoned by it).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// How far a search of independent scenarios has got, as its progress reports say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScenarioProgress {
    /// Scenarios searched to the end.
    pub done: usize,
    /// Scenarios of this run (this shard's, when sharded).
    pub total: usize,
    /// Distinct states so far.
    pub states: u64,
    /// Seconds since the search started.
    pub seconds: f64,
    /// The process's resident memory, where it can be read.
    pub resident_bytes: Option<u64>,
    /// The memory budget, if there is one.
    pub budget_bytes: Option<u64>,
}

impl ScenarioProgress {
    /// States per second so far.
    pub fn states_per_second(&self) -> f64 {
        self.states as f64 / self.seconds.max(1e-9)
    }
}

impl std::fmt::Display for ScenarioProgress {
    /// `progress: D of T scenarios done, S states, R states/s, memory M of B budget, T s`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let gib = crate::memory::format_bytes;
        let memory = match (self.resident_bytes, self.budget_bytes) {
            (Some(r), Some(l)) => format!("memory {} of {} budget", gib(r), gib(l)),
            (Some(r), None) => format!("memory {} (no budget)", gib(r)),
            _ => "memory unknown".into(),
        };
        write!(
            f,
            "progress: {} of {} scenarios done, {} states, {:.0} states/s, {}, {:.1} s",
            self.done,
            self.total,
            self.states,
            self.states_per_second(),
            memory,
            self.seconds
        )
    }
}

/// Where progress reports go: a line on stderr unless the caller gave its own sink.
pub type ProgressSink = std::sync::Arc<dyn Fn(&ScenarioProgress) + Send + Sync>;

/// Reports progress every `every` until the workers finish: the scenarios done of the total,
/// the states stored, and memory against the budget.
fn report(
    shared: &Shared,
    total: usize,
    budget: &Budget,
    start: Instant,
    every: Duration,
    sink: Option<&ProgressSink>,
) {
    let mut last = Instant::now();
    while !shared.finished.load(Ordering::Relaxed) {
        std::thread::sleep(every.min(Duration::from_millis(50)));
        if last.elapsed() < every {
            continue;
        }
        last = Instant::now();
        let progress = ScenarioProgress {
            done: shared.done.load(Ordering::Relaxed),
            total,
            states: shared.states.load(Ordering::Relaxed),
            seconds: start.elapsed().as_secs_f64(),
            resident_bytes: resident_bytes(),
            budget_bytes: budget.limit(),
        };
        match sink {
            Some(f) => f(&progress),
            None => eprintln!("{progress}"),
        }
    }
}
