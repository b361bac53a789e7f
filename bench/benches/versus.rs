//! The performance benchmark: the `rbcheck` checker against Stateright's BFS checker (0.30.2 and
//! 0.31) over the same Repeat model, plus the scaling curve over the bounds.
//!
//! ```sh
//! cargo bench -p rbcheck-bench --bench versus                        # default bound, 1 and 2 threads
//! BENCH_BOUNDS=tiny,default,large cargo bench -p rbcheck-bench --bench versus   # + the larger curve
//! ```
//!
//! Environment (all optional):
//! - `BENCH_BOUNDS`: bounds of the scaling curve (default `default`); the comparison runs on the
//!   first one unless `BENCH_COMPARE` names another.
//! - `BENCH_COMPARE`: the bound of the engine comparison (default: the first of `BENCH_BOUNDS`).
//! - `BENCH_THREADS`: thread counts of the comparison (default `1,2`).
//! - `BENCH_RUNS`: runs per configuration, the median is reported (default 1).
//! - `BENCH_ENGINES`: which engines (default `rbcheck,stateright-0.30.2,stateright-0.31`).
//! - `BENCH_SEARCH`: how `rbcheck` explores each scenario: `auto` (default: depth-first where
//!   the model declares the scenario tree-shaped, with no visited set, so its bytes per state
//!   are 0) or `bfs` (breadth-first with a visited set everywhere).
//! - `BENCH_PROPS`: `all` (default: every `always` and `sometimes` property of `rbcheck check`,
//!   given to every engine) or `trivial` (one property that always holds, for every engine:
//!   engine overhead only).
//!
//! `rbcheck` runs with its default memory budget (75% of available memory), as `rbcheck check`
//! does: a bound too large for the machine stops cleanly and its curve row says so; the
//! comparison needs complete runs. Stateright has no budget.
//!
//! Every measured run is a separate child process (this binary re-executed with `--child`), so
//! that peak memory (`VmHWM`) belongs to one engine and one run. The harness checks that every
//! engine reports the same number of distinct states (symmetry reduction off), and that our
//! verdicts and traces are identical at every thread count, then prints Markdown tables.

use checker::{CheckerExt, Expectation, Model as _};
use model::action::Action;
use model::rulebook::{Rulebook, Version};
use model::state::State;
use properties::{Bound, RepeatSystem};
use std::collections::BTreeMap;
use std::process::Command;
use std::time::Instant;

// ---------------------------------------------------------------------------------------------
// The adapter: our model behind Stateright's `Model` trait (both versions).

/// Our system plus the properties every engine checks.
struct Adapter {
    sys: RepeatSystem,
    props: Vec<checker::Property<RepeatSystem>>,
}

impl Adapter {
    fn new(bound: &str, props: &str) -> Adapter {
        let sys = system(bound);
        let props = match props {
            "trivial" => vec![checker::Property::always(
                "true",
                "-",
                "always holds",
                |_: &RepeatSystem, _: &State| true,
            )],
            "all" => properties::invariants::all()
                .into_iter()
                .filter(|p| p.expectation != Expectation::Terminates)
                .collect(),
            other => panic!("BENCH_PROPS must be `all` or `trivial`, not `{other}`"),
        };
        assert!(props.len() <= MAX_PROPS);
        Adapter { sys, props }
    }
}

/// Stateright takes properties as plain `fn` pointers: one monomorphised trampoline per index.
const MAX_PROPS: usize = 24;

fn cond<const I: usize>(a: &Adapter, s: &State) -> bool {
    (a.props[I].condition)(&a.sys, s)
}

macro_rules! trampolines {
    ($($i:literal)*) => { [$(cond::<$i> as fn(&Adapter, &State) -> bool),*] };
}
const CONDS: [fn(&Adapter, &State) -> bool; MAX_PROPS] =
    trampolines!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);

macro_rules! stateright_adapter {
    ($sr:ident) => {
        impl $sr::Model for Adapter {
            type State = State;
            type Action = Action;

            fn init_states(&self) -> Vec<State> {
                self.sys.init_states()
            }

            fn actions(&self, state: &State, actions: &mut Vec<Action>) {
                self.sys.actions(state, actions)
            }

            // Stateright passes only actions it has just listed, as our search does.
            fn next_state(&self, state: &State, action: Action) -> Option<State> {
                self.sys.next_state_of_enabled(state, &action)
            }

            fn properties(&self) -> Vec<$sr::Property<Self>> {
                self.props
                    .iter()
                    .enumerate()
                    .map(|(i, p)| match p.expectation {
                        Expectation::Always => $sr::Property::always(p.name, CONDS[i]),
                        Expectation::Sometimes => $sr::Property::sometimes(p.name, CONDS[i]),
                        Expectation::Terminates => unreachable!("filtered out"),
                    })
                    .collect()
            }
        }
    };
}
stateright_adapter!(stateright_030);
stateright_adapter!(stateright_031);

/// The same properties for our checker (a wrapper, so that `trivial` applies to it too).
impl checker::Model for Adapter {
    type State = State;
    type Action = Action;

    fn init_states(&self) -> Vec<State> {
        self.sys.init_states()
    }

    fn actions(&self, state: &State, out: &mut Vec<Action>) {
        self.sys.actions(state, out)
    }

    fn next_state(&self, state: &State, action: &Action) -> Option<State> {
        self.sys.next_state(state, action)
    }

    fn next_state_of_enabled(&self, state: &State, action: &Action) -> Option<State> {
        self.sys.next_state_of_enabled(state, action)
    }

    fn next_state_in_place_of_enabled(&self, state: &mut State, action: &Action) -> bool {
        self.sys.next_state_in_place_of_enabled(state, action)
    }

    fn properties(&self) -> Vec<checker::Property<Self>> {
        self.props
            .iter()
            .enumerate()
            .map(|(i, p)| p.for_model(CONDS[i]))
            .collect()
    }

    fn fingerprint(&self, state: &State) -> u64 {
        self.sys.fingerprint(state)
    }

    // Explored as the production system is (each scenario on its own, depth-first where it is
    // a tree, forced steps not stored), so that `trivial` measures that search without the
    // properties rather than another search.
    fn independent_inits(&self) -> bool {
        self.sys.independent_inits()
    }

    fn tree_shaped(&self, init: &State) -> bool {
        self.sys.tree_shaped(init)
    }

    fn forced(&self, state: &State) -> Option<Action> {
        self.sys.forced(state)
    }

    fn progress(&self, state: &State) -> Option<u64> {
        self.sys.progress(state)
    }
}

fn system(bound: &str) -> RepeatSystem {
    let b = Bound::preset(bound).unwrap_or_else(|| panic!("unknown bound `{bound}`"));
    RepeatSystem::new(Rulebook::preset(Version::Rup4), &b).expect("bound builds")
}

// ---------------------------------------------------------------------------------------------
// Child: one measured run.

fn vm_hwm() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// One run of our checker: complete, states, seconds, visited-set bytes per state, digest of
/// the verdicts and traces, transitions.
fn ours<M: checker::Model>(
    m: &M,
    threads: usize,
    symmetry: bool,
) -> (bool, usize, f64, f64, u64, u64) {
    let search = match std::env::var("BENCH_SEARCH").as_deref() {
        Err(_) | Ok("auto") => checker::SearchOrder::Auto,
        Ok("bfs") => checker::SearchOrder::BreadthFirst,
        Ok(other) => panic!("BENCH_SEARCH must be `auto` or `bfs`, not `{other}`"),
    };
    let t = Instant::now();
    let r = m
        .checker()
        .threads(threads)
        .symmetry(symmetry)
        .search_order(search)
        .run()
        .expect("run");
    let secs = t.elapsed().as_secs_f64();
    (
        r.complete,
        r.stats.states,
        secs,
        r.stats.bytes_per_state,
        checker::fingerprint(&format!("{:?}", r.properties)),
        r.stats.transitions,
    )
}

/// Runs Stateright's BFS checker of crate `$sr` on the model and records what it found.
macro_rules! stateright_bfs {
    ($sr:ident, $bound:expr, $props:expr, $threads:expr, $out:expr) => {{
        use $sr::Checker as _;
        let a = Adapter::new($bound, $props);
        // Stateright's `state_count` starts at the number of initial states and adds one per
        // successor generated, duplicates included: minus the initial states, the transitions.
        let inits = a.sys.init_states().len();
        let t = Instant::now();
        let c = $sr::Model::checker(a).threads($threads).spawn_bfs().join();
        let secs = t.elapsed().as_secs_f64();
        $out.insert("states", c.unique_state_count().to_string());
        $out.insert(
            "transitions",
            c.state_count().saturating_sub(inits).to_string(),
        );
        $out.insert("secs", format!("{secs:.4}"));
        $out.insert("discoveries", c.discoveries().len().to_string());
    }};
}

/// Runs one engine and prints `key=value` pairs on one line.
fn child(engine: &str, bound: &str, threads: usize, symmetry: bool, props: &str) {
    let base = vm_hwm();
    let mut out: BTreeMap<&str, String> = BTreeMap::new();
    match engine {
        "rbcheck" => {
            // The production system, with its own properties (including `terminates`), when
            // every property is asked for; the wrapper for the trivial property.
            // With the default memory budget, so that a bound too large for the machine stops
            // cleanly (reported as partial) instead of being killed.
            let (complete, states, secs, bps, digest, transitions) = if props == "all" {
                ours(&system(bound), threads, symmetry)
            } else {
                ours(&Adapter::new(bound, props), threads, symmetry)
            };
            out.insert("states", states.to_string());
            out.insert("secs", format!("{secs:.4}"));
            out.insert("visited_bps", format!("{bps:.2}"));
            out.insert("digest", format!("{digest:016x}"));
            out.insert("transitions", transitions.to_string());
            out.insert("complete", u8::from(complete).to_string());
        }
        // The two Stateright versions have the same API but distinct types.
        "stateright-0.30.2" => stateright_bfs!(stateright_030, bound, props, threads, out),
        "stateright-0.31" => stateright_bfs!(stateright_031, bound, props, threads, out),
        other => panic!("unknown engine `{other}`"),
    }
    out.insert("peak", vm_hwm().to_string());
    out.insert("base", base.to_string());
    let line: Vec<String> = out.iter().map(|(k, v)| format!("{k}={v}")).collect();
    println!("RESULT {}", line.join(" "));
}

// ---------------------------------------------------------------------------------------------
// Parent: runs the children and prints the tables.

#[derive(Clone, Debug, Default)]
struct Run {
    states: usize,
    secs: f64,
    peak: u64,
    base: u64,
    visited_bps: Option<f64>,
    /// Successors generated (for Stateright: its `state_count` less the initial states).
    transitions: u64,
    digest: Option<String>,
    /// False if the run stopped at the memory budget.
    complete: bool,
}

fn run_child(engine: &str, bound: &str, threads: usize, symmetry: bool, props: &str) -> Run {
    let exe = std::env::current_exe().expect("own path");
    let output = Command::new(exe)
        .args([
            "--child",
            engine,
            bound,
            &threads.to_string(),
            if symmetry { "on" } else { "off" },
            props,
        ])
        .output()
        .expect("run child");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let Some(line) = stdout.lines().find_map(|l| l.strip_prefix("RESULT ")) else {
        panic!(
            "{engine} on {bound} with {threads} threads failed: {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    };
    let kv: BTreeMap<&str, &str> = line.split(' ').filter_map(|p| p.split_once('=')).collect();
    let run = Run {
        states: kv["states"].parse().unwrap(),
        secs: kv["secs"].parse().unwrap(),
        peak: kv["peak"].parse().unwrap(),
        base: kv["base"].parse().unwrap(),
        visited_bps: kv.get("visited_bps").map(|v| v.parse().unwrap()),
        transitions: kv.get("transitions").map_or(0, |v| v.parse().unwrap()),
        digest: kv.get("digest").map(|v| v.to_string()),
        complete: kv.get("complete").is_none_or(|v| *v == "1"),
    };
    eprintln!(
        "  {engine:<18} {bound:<8} threads {threads} symmetry {:<3}: {:>10} states {:>8.2} s {:>10.0} states/s peak {:>6.0} MiB",
        if symmetry { "on" } else { "off" },
        run.states,
        run.secs,
        run.states as f64 / run.secs,
        run.peak as f64 / (1 << 20) as f64
    );
    run
}

/// The run with the median time of `n` runs (the faster middle one for even `n`).
fn median(mut runs: Vec<Run>) -> Run {
    runs.sort_by(|a, b| a.secs.total_cmp(&b.secs));
    runs[(runs.len() - 1) / 2].clone()
}

fn env_list(name: &str, default: &str) -> Vec<String> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_string())
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn mib(b: u64) -> String {
    format!("{:.0} MiB", b as f64 / (1 << 20) as f64)
}

fn date() -> String {
    Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "?".into())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        let a = &args[i + 1..];
        child(&a[0], &a[1], a[2].parse().unwrap(), a[3] == "on", &a[4]);
        return;
    }
    if args.iter().any(|a| a == "--list") {
        // `cargo bench -- --list` and `cargo test --benches` ask for this: nothing to list.
        return;
    }
    let cfg = Config::from_env();
    let results = compare_engines(&cfg);
    assert_agreement(&results, &cfg.compare);
    print_comparison(&cfg, &results);
    if std::env::var("BENCH_CURVE").map_or(true, |v| v != "0") {
        print_curve(&cfg);
    }
}

/// The benchmark's settings, from the environment (see the top of the file).
struct Config {
    bounds: Vec<String>,
    compare: String,
    threads: Vec<usize>,
    runs: usize,
    engines: Vec<String>,
    props: String,
    nproc: usize,
}

impl Config {
    fn from_env() -> Config {
        let bounds = env_list("BENCH_BOUNDS", "default");
        let compare = std::env::var("BENCH_COMPARE").unwrap_or_else(|_| bounds[0].clone());
        let threads: Vec<usize> = env_list("BENCH_THREADS", "1,2")
            .iter()
            .map(|t| t.parse().expect("BENCH_THREADS: numbers"))
            .collect();
        let runs: usize = std::env::var("BENCH_RUNS")
            .ok()
            .map_or(1, |r| r.parse().expect("BENCH_RUNS: a number"));
        let engines = env_list("BENCH_ENGINES", "rbcheck,stateright-0.30.2,stateright-0.31");
        let props = std::env::var("BENCH_PROPS").unwrap_or_else(|_| "all".into());
        let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
        Config {
            bounds,
            compare,
            threads,
            runs,
            engines,
            props,
            nproc,
        }
    }
}

/// Every engine at every thread count on the comparison bound, median of the runs.
fn compare_engines(cfg: &Config) -> Vec<(String, usize, Run)> {
    let Config {
        compare,
        threads,
        runs,
        engines,
        props,
        ..
    } = cfg;
    let runs = *runs;
    eprintln!(
        "comparison on `{compare}` ({props} properties), {runs} run(s) each, median reported"
    );
    // Round-robin over the configurations, so that a noisy stretch of time (the machine is
    // shared) hits every engine alike rather than one engine's runs.
    let configs: Vec<(String, usize)> = engines
        .iter()
        .flat_map(|e| threads.iter().map(move |&t| (e.clone(), t)))
        .collect();
    let mut samples: Vec<Vec<Run>> = vec![vec![]; configs.len()];
    for _ in 0..runs {
        for (c, (engine, t)) in configs.iter().enumerate() {
            samples[c].push(run_child(engine, compare, *t, false, props));
        }
    }
    configs
        .into_iter()
        .zip(samples)
        .map(|((e, t), runs)| (e, t, median(runs)))
        .collect()
}

/// Same distinct states for every engine and thread count; same verdicts and traces for ours.
fn assert_agreement(results: &[(String, usize, Run)], compare: &str) {
    for (e, t, r) in results {
        assert!(
            r.complete,
            "{e} at {t} threads stopped at the memory budget: `{compare}` is too large to compare on this machine"
        );
    }
    let states = results[0].2.states;
    for (e, t, r) in results {
        assert_eq!(
            r.states, states,
            "{e} at {t} threads found {} distinct states, {} found {states}",
            r.states, results[0].0
        );
    }
    let digests: Vec<&String> = results
        .iter()
        .filter_map(|(_, _, r)| r.digest.as_ref())
        .collect();
    assert!(
        digests.windows(2).all(|w| w[0] == w[1]),
        "rbcheck's verdicts or traces differ between thread counts"
    );
}

/// The comparison table and the speed-ups, as Markdown.
fn print_comparison(cfg: &Config, results: &[(String, usize, Run)]) {
    let Config {
        compare,
        threads,
        runs,
        engines,
        props,
        nproc,
        ..
    } = cfg;
    let states = results[0].2.states;
    let ours = |t: usize| {
        results
            .iter()
            .find(|(e, tt, _)| e == "rbcheck" && *tt == t)
            .map(|(_, _, r)| r.clone())
    };
    println!(
        "### rbcheck vs Stateright, bound `{compare}` ({props} properties), {}, nproc {nproc}\n",
        date()
    );
    println!(
        "Every engine found {states} distinct states (symmetry reduction off). Median of {runs} run(s); each run is its own process.\n"
    );
    println!("| engine | threads | distinct states | transitions | seconds | states/s | peak memory | peak B/state | visited-set B/state | rbcheck speed-up |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (e, t, r) in results {
        let rate = r.states as f64 / r.secs;
        let ratio = ours(*t).map_or("-".to_string(), |o| {
            format!("{:.2}×", (o.states as f64 / o.secs) / rate)
        });
        println!(
            "| {e} | {t} | {} | {} | {:.2} | {:.0} | {} | {:.0} | {} | {ratio} |",
            r.states,
            r.transitions,
            r.secs,
            rate,
            mib(r.peak),
            (r.peak.saturating_sub(r.base)) as f64 / r.states as f64,
            r.visited_bps.map_or("n/a".into(), |b| format!("{b:.1}")),
        );
    }
    let best_sr = |t: usize| {
        results
            .iter()
            .filter(|(e, tt, _)| e.starts_with("stateright") && *tt == t)
            .map(|(e, _, r)| (e.clone(), r.states as f64 / r.secs))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    };
    println!();
    for &t in threads {
        if let (Some(o), Some((e, rate))) = (ours(t), best_sr(t)) {
            println!(
                "- {t} thread(s): rbcheck {:.2}× the states/s of the faster Stateright ({e}).",
                (o.states as f64 / o.secs) / rate
            );
        }
    }
    if let (Some(a), Some(b)) = (ours(1), ours(2)) {
        println!("- rbcheck from 1 to 2 threads: {:.2}×.", a.secs / b.secs);
    }
    for e in engines.iter().filter(|e| e.starts_with("stateright")) {
        let rate = |t| {
            results
                .iter()
                .find(|(ee, tt, _)| ee == e && *tt == t)
                .map(|(_, _, r)| r.secs)
        };
        if let (Some(a), Some(b)) = (rate(1), rate(2)) {
            println!("- {e} from 1 to 2 threads: {:.2}×.", a / b);
        }
    }
}

/// The scaling curve: ours only, at all cores, with and without symmetry reduction.
fn print_curve(cfg: &Config) {
    let Config {
        bounds,
        runs,
        nproc,
        ..
    } = cfg;
    let (runs, nproc) = (*runs, *nproc);
    eprintln!("scaling curve over {bounds:?}");
    println!("\n### rbcheck scaling curve (all properties, {nproc} threads)\n");
    println!("| bound | states (symmetry off) | seconds | states/s | states (symmetry on) | seconds | peak memory (on) |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for b in bounds {
        let off = median(
            (0..runs)
                .map(|_| run_child("rbcheck", b, nproc, false, "all"))
                .collect(),
        );
        let on = median(
            (0..runs)
                .map(|_| run_child("rbcheck", b, nproc, true, "all"))
                .collect(),
        );
        // A run stopped by the memory budget explored at least that many states.
        let count = |r: &Run| {
            if r.complete {
                r.states.to_string()
            } else {
                format!("≥ {} (memory budget reached)", r.states)
            }
        };
        println!(
            "| {b} | {} | {:.2} | {:.0} | {} | {:.2} | {} |",
            count(&off),
            off.secs,
            off.states as f64 / off.secs,
            count(&on),
            on.secs,
            mib(on.peak)
        );
    }
}
