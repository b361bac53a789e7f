//! How far the case generator reaches at the default budget, over seeds no test or tuning
//! used: for each seed, the rule clauses the model cites that no generated case reached, the
//! kinds of illegal statement never injected, and the spells and units never played. Not a
//! test: it asserts nothing and prints Markdown, one row per seed and a summary.
//!
//! ```sh
//! cargo bench -p rbcheck-bench --bench reach
//! BENCH_REACH_SEEDS=1000-1019 BENCH_REACH_CASES=1500 cargo bench -p rbcheck-bench --bench reach
//! ```
//!
//! Environment (all optional):
//! - `BENCH_REACH_SEEDS`: a range `A-B` or a list `a,b,c` (default `1000-1009`).
//! - `BENCH_REACH_CASES`: cases per seed (default: the fuzzer's default budget).

use rbcheck::engine::gen;
use std::collections::BTreeSet;
use std::time::Instant;

/// Clauses no generated case can reach (what a resolving item plays is not generated).
const UNREACHABLE: [&str; 2] = ["354.3", "359.3.e.12"];

/// The seeds `BENCH_REACH_SEEDS` names; a malformed value stops the benchmark with exit code 2.
fn seeds() -> Vec<u64> {
    let spec = std::env::var("BENCH_REACH_SEEDS").unwrap_or_else(|_| "1000-1009".into());
    let bad = |what: String| -> ! {
        eprintln!("BENCH_REACH_SEEDS: {what}");
        std::process::exit(2)
    };
    match spec.split_once('-') {
        Some((a, b)) => match (a.trim().parse::<u64>(), b.trim().parse::<u64>()) {
            (Ok(a), Ok(b)) if a <= b => (a..=b).collect(),
            _ => bad(format!("expected A-B with A <= B, got `{spec}`")),
        },
        None => spec
            .split(',')
            .map(|s| {
                s.trim()
                    .parse()
                    .unwrap_or_else(|_| bad(format!("`{s}` is not a number")))
            })
            .collect(),
    }
}

fn main() {
    let cases = std::env::var("BENCH_REACH_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(rbcheck::engine::fuzz::DEFAULT_CASES as u64);
    let cat = model::catalogue::Catalogue::builtin();
    let rules = vec!["rup4".to_string()];
    println!("## Reach of the generator, {cases} cases per seed\n");
    println!("| seed | seconds | clauses missed | kinds missed | cards never played |");
    println!("|---|---|---|---|---|");
    let (mut all_clean, mut n, mut missed_total) = (0, 0, 0);
    let mut by_goal: std::collections::BTreeMap<String, u32> = Default::default();
    let mut rarest = vec![];
    for seed in seeds() {
        let start = Instant::now();
        let made = gen::cases(seed, cases, &rules, &gen::Profile::all());
        let secs = start.elapsed().as_secs_f64();
        let goals: BTreeSet<&String> = made.iter().flat_map(|m| &m.goals).collect();
        let clauses: Vec<String> = model::coverage::CLAUSES
            .iter()
            .map(|(c, _)| *c)
            .filter(|c| !UNREACHABLE.contains(c) && !goals.contains(&format!("rule {c}")))
            .map(String::from)
            .collect();
        let kinds_seen: BTreeSet<u8> = made.iter().filter_map(|m| m.injected).collect();
        let kinds: Vec<String> = (1..=gen::INJECT_KINDS)
            .filter(|k| !kinds_seen.contains(k))
            .map(|k| format!("kind {k}"))
            .collect();
        let cards: Vec<String> = cat
            .cards
            .iter()
            .filter(|c| {
                matches!(
                    c.kind,
                    model::card::CardKind::Spell | model::card::CardKind::Unit
                ) && !goals.contains(&format!("play {} by you", c.name))
                    && !goals.contains(&format!("play {} by opp", c.name))
            })
            .map(|c| c.name.clone())
            .collect();
        println!(
            "| {seed} | {secs:.1} | {} | {} | {} |",
            clauses.join(", "),
            kinds.join(", "),
            cards.join(", ")
        );
        // The rarest clauses reached: where the next misses will come from.
        let mut rare: Vec<(usize, &str)> = model::coverage::CLAUSES
            .iter()
            .map(|(c, _)| {
                let goal = format!("rule {c}");
                (made.iter().filter(|m| m.goals.contains(&goal)).count(), *c)
            })
            .filter(|(n, _)| *n > 0)
            .collect();
        rare.sort();
        let rare: Vec<String> = rare
            .iter()
            .take(6)
            .map(|(n, c)| format!("{c} ({n})"))
            .collect();
        let mut kinds_n: Vec<(usize, u8)> = (1..=gen::INJECT_KINDS)
            .map(|k| (made.iter().filter(|m| m.injected == Some(k)).count(), k))
            .collect();
        kinds_n.sort();
        let kinds_n: Vec<String> = kinds_n
            .iter()
            .take(4)
            .map(|(n, k)| format!("kind {k} ({n})"))
            .collect();
        rarest.push(format!(
            "{seed}: {}; {}",
            rare.join(", "),
            kinds_n.join(", ")
        ));
        let missed = clauses.len() + kinds.len() + cards.len();
        for g in clauses.iter().chain(&kinds).chain(&cards) {
            *by_goal.entry(g.clone()).or_default() += 1;
        }
        n += 1;
        missed_total += missed;
        if missed == 0 {
            all_clean += 1;
        }
    }
    println!(
        "\nSeeds reaching everything: {all_clean} of {n}; goals missed in all: {missed_total}."
    );
    for (g, k) in by_goal {
        println!("- {g}: missed at {k} of {n} seeds");
    }
    println!("\nThe rarest clauses and kinds reached (cases reaching each), per seed:\n");
    for r in rarest {
        println!("- {r}");
    }
}
