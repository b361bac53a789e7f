//! How evenly `rbcheck check --shard K/N` splits a bound: one unsharded run gives every
//! scenario's exact size; the benchmark then deals the scenarios to N shards three ways and
//! prints the largest shard's states over the mean: by position (every N-th, as a naive split
//! would), by the checker's plan (sizes estimated by random probes, `checker::forest::plan`),
//! and by the exact sizes (what a perfect estimate would give the same dealing rule). It also
//! prints what the plan costs (the probes of every scenario, which each shard makes) and how
//! far its estimates are from the exact sizes. Not a test: it asserts nothing.
//!
//! ```sh
//! cargo bench -p rbcheck-bench --bench shards                       # default bound
//! BENCH_BOUND=large BENCH_SHARDS=16,64,128 cargo bench -p rbcheck-bench --bench shards
//! ```
//!
//! `BENCH_PART=FILE` takes the exact sizes from the part file of an unsharded run of the same
//! bound (`rbcheck check --bound B --shard 1/1 --parts DIR`) instead of running it again.

use checker::forest::plan;
use checker::{CheckerExt, Model};
use model::rulebook::{Rulebook, Version};
use properties::{Bound, RepeatSystem};
use std::time::Instant;

/// The largest load over the mean load when scenario `i` (of size `sizes[i]`) goes to
/// `shard[i]`.
fn max_over_mean(sizes: &[u64], shard: &[u32], n: u32) -> f64 {
    let mut load = vec![0u64; n as usize];
    for (s, k) in sizes.iter().zip(shard) {
        load[*k as usize] += s;
    }
    let total: u64 = load.iter().sum();
    let max = load.iter().copied().max().unwrap_or(0);
    max as f64 * f64::from(n) / total.max(1) as f64
}

fn main() {
    let bound = std::env::var("BENCH_BOUND").unwrap_or_else(|_| "default".into());
    let shards: Vec<u32> = std::env::var("BENCH_SHARDS")
        .unwrap_or_else(|_| "16,64,128".into())
        .split(',')
        .map(|s| {
            s.trim().parse().unwrap_or_else(|_| {
                eprintln!("BENCH_SHARDS: `{s}` is not a number");
                std::process::exit(2)
            })
        })
        .collect();
    let Some(b) = Bound::preset(&bound) else {
        eprintln!("BENCH_BOUND: no preset `{bound}`");
        std::process::exit(2)
    };
    let sys = RepeatSystem::new(Rulebook::preset(Version::Rup4), &b).expect("the bound builds");
    let start = Instant::now();
    let part = match std::env::var("BENCH_PART") {
        Ok(path) => {
            let file = rbcheck::shard::read(std::path::Path::new(&path)).unwrap_or_else(|e| {
                eprintln!("BENCH_PART: {e}");
                std::process::exit(2)
            });
            if file.part.shard.1 != 1 || file.bound.arg != bound {
                eprintln!(
                    "BENCH_PART: {path} is not the one part of an unsharded run of `{bound}`"
                );
                std::process::exit(2)
            }
            file.part
        }
        Err(_) => sys
            .checker()
            .memory_limit(None)
            .run_part()
            .expect("the unsharded run completes"),
    };
    let run_secs = match std::env::var("BENCH_PART") {
        Ok(_) => part.elapsed_secs,
        Err(_) => start.elapsed().as_secs_f64(),
    };
    let exact: Vec<u64> = part
        .summaries
        .iter()
        .map(|s| s.states_per_depth.iter().sum())
        .collect();
    let inits = sys.init_states();
    let scenarios: Vec<_> = part
        .summaries
        .iter()
        .map(|s| (s.init, s.init_fp, inits[s.init as usize].clone()))
        .collect();
    let start = Instant::now();
    let estimates = plan::estimates(&sys, &scenarios).expect("the probes run");
    let plan_secs = start.elapsed().as_secs_f64();
    let total: u64 = exact.iter().sum();
    let biggest = exact.iter().copied().max().unwrap_or(0);
    let mut ratios: Vec<f64> = exact
        .iter()
        .zip(&estimates)
        .map(|(e, g)| (*g.max(&1) as f64 / *e.max(&1) as f64).ln().abs())
        .collect();
    ratios.sort_by(f64::total_cmp);
    let median = ratios.get(ratios.len() / 2).copied().unwrap_or(0.0).exp();
    let p90 = ratios
        .get(ratios.len() * 9 / 10)
        .copied()
        .unwrap_or(0.0)
        .exp();
    println!("## Shards of `{bound}`\n");
    println!(
        "{} scenarios, {total} states (one unsharded run: {run_secs:.1} s); the largest scenario holds {biggest} states.",
        exact.len()
    );
    println!(
        "The plan's random walks ({} per scenario, then more for the large ones; all threads): {plan_secs:.2} s, {:.1} % of the run's time; estimate within a factor {median:.2} of the exact size for half the scenarios, {p90:.2} for 90 %.\n",
        plan::PROBES,
        100.0 * plan_secs / run_secs.max(1e-9)
    );
    println!("| shards | by position | by the plan (estimates) | by exact sizes | largest scenario / mean |");
    println!("|---:|---:|---:|---:|---:|");
    for n in shards.into_iter().filter(|&n| n > 0) {
        let position: Vec<u32> = (0..exact.len()).map(|i| (i % n as usize) as u32).collect();
        let floor = biggest as f64 * f64::from(n) / total.max(1) as f64;
        println!(
            "| {n} | {:.2}× | {:.2}× | {:.2}× | {floor:.2}× |",
            max_over_mean(&exact, &position, n),
            max_over_mean(&exact, &plan::assign(&estimates, n), n),
            max_over_mean(&exact, &plan::assign(&exact, n), n),
        );
    }
}
