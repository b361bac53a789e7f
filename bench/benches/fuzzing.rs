//! The engine-fuzzing benchmark: how many generated cases per second `rbcheck fuzz`
//! runs against the Python reference engine (generation, the model's run, the engine's answer
//! and the comparison, on one engine process), and the kill rate of its mutants at the default
//! budget. Not a test: it asserts nothing and prints Markdown.
//!
//! ```sh
//! cargo bench -p rbcheck-bench --bench fuzzing
//! BENCH_FUZZ_CASES=2000 BENCH_FUZZ_SEEDS=0,1,2 cargo bench -p rbcheck-bench --bench fuzzing
//! ```
//!
//! Environment (all optional):
//! - `BENCH_FUZZ_CASES`: cases of the throughput run (default 1000).
//! - `BENCH_FUZZ_SEEDS`: seeds of the kill-rate runs (default `0,1`), each at the default
//!   budget (`DEFAULT_CASES`), findings not shrunk.
//! - `BENCH_FUZZ_JOBS`: engines fuzzed at once for the kill rate (default: one per core).

use rbcheck::engine::fuzz::{fuzz, FuzzConfig};
use rbcheck::engine::score::{markdown_seeds, score_seeds};
use rbcheck::engine::ProcessEngine;
use std::time::{Duration, Instant};

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

fn main() {
    let engine = format!(
        "python3 {}/../tests/engines/reference_engine.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases = env_num("BENCH_FUZZ_CASES", 1000).max(1) as usize;
    let seeds: Vec<u64> = std::env::var("BENCH_FUZZ_SEEDS")
        .unwrap_or_else(|_| "0,1".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let jobs = match env_num("BENCH_FUZZ_JOBS", 0) {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n as usize,
    };

    let mut e =
        ProcessEngine::new(&engine, Duration::from_secs(20)).expect("the reference engine starts");
    let cfg = FuzzConfig {
        cases: Some(cases),
        ..FuzzConfig::default()
    };
    let start = Instant::now();
    let report = fuzz(&mut e, &cfg);
    let secs = start.elapsed().as_secs_f64();
    println!("## Throughput against the reference engine (seed 0)\n");
    println!("| cases | compared | skipped | seconds | cases/s |\n|---|---|---|---|---|");
    println!(
        "| {} | {} | {} | {secs:.1} | {:.0} |\n",
        report.cases,
        report.compared,
        report.unsupported.values().sum::<usize>(),
        report.cases as f64 / secs.max(1e-9)
    );

    let cfg = FuzzConfig {
        shrink_steps: 0,
        ..FuzzConfig::default()
    };
    let start = Instant::now();
    let rows =
        score_seeds(&engine, &cfg, &seeds, Duration::from_secs(20), jobs).expect("the mutants run");
    let secs = start.elapsed().as_secs_f64();
    let mutants: Vec<_> = rows.iter().filter(|r| r.mutant.is_some()).collect();
    let killed = mutants.iter().filter(|r| r.ok()).count();
    println!("## Kill rate at the default budget\n");
    println!(
        "{killed} of {} mutant runs killed ({:.1}%), seeds {seeds:?}, {jobs} workers, {secs:.1} s\n",
        mutants.len(),
        100.0 * killed as f64 / mutants.len().max(1) as f64
    );
    println!("{}", markdown_seeds(&rows, &cfg, &seeds));
}
