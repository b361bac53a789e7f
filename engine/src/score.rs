//! The mutant score: fuzz a reference engine and each of its mutants (`CMD --list-mutants`
//! names them, `CMD --mutant NAME` runs one) with the same budget, and tell which were found.

use super::fuzz::{fuzz, FuzzConfig, FuzzReport};
use super::process::{split_command, ProcessEngine};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One row of the score table.
#[derive(Clone, Debug)]
pub struct ScoreRow {
    /// The mutant's name (`None` for the unmutated engine).
    pub mutant: Option<String>,
    /// The mistake it makes.
    pub description: String,
    /// The fuzzing run.
    pub report: FuzzReport,
}

impl ScoreRow {
    /// A mutant is killed when fuzzing finds anything; the clean engine passes when it finds
    /// nothing (and the run was not cut short).
    pub fn ok(&self) -> bool {
        let found = !self.report.findings.is_empty();
        match self.mutant {
            Some(_) => found,
            None => !found && self.report.aborted.is_none(),
        }
    }
}

/// The mutants an engine command offers: `CMD --list-mutants` prints `name<TAB>description`.
pub fn list_mutants(cmd: &str) -> Result<Vec<(String, String)>, String> {
    let argv = split_command(cmd)?;
    let out = Command::new(&argv[0])
        .args(&argv[1..])
        .arg("--list-mutants")
        .output()
        .map_err(|e| format!("`{cmd} --list-mutants`: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`{cmd} --list-mutants` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match l.split_once('\t') {
            Some((a, b)) => (a.trim().to_string(), b.trim().to_string()),
            None => (l.trim().to_string(), String::new()),
        })
        .collect())
}

/// Fuzzes the engine and every mutant, `jobs` at a time, at `cfg.seed`; rows in the order:
/// clean, mutants (see [`score_seeds`]).
pub fn score(
    cmd: &str,
    cfg: &FuzzConfig,
    timeout: Duration,
    jobs: usize,
) -> Result<Vec<ScoreRow>, String> {
    score_seeds(cmd, cfg, &[cfg.seed], timeout, jobs)
}

/// One run of the score: which engine (`None`: the unmutated one), its description, and the
/// configuration it runs with.
type Job = (Option<String>, String, FuzzConfig);

/// Runs `jobs` score runs, `workers` at a time; rows in the order of `jobs`.
fn run_jobs(
    cmd: &str,
    jobs: Vec<Job>,
    timeout: Duration,
    workers: usize,
) -> Result<Vec<ScoreRow>, String> {
    let n = jobs.len();
    let queue = Arc::new(Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>()));
    let rows: Arc<Mutex<Vec<Option<ScoreRow>>>> = Arc::new(Mutex::new(vec![None; n]));
    let errors: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(vec![]));
    std::thread::scope(|s| {
        for _ in 0..workers.max(1) {
            let (queue, rows, errors) = (queue.clone(), rows.clone(), errors.clone());
            s.spawn(move || loop {
                let next = queue
                    .lock()
                    .ok()
                    .and_then(|mut q| (!q.is_empty()).then(|| q.remove(0)));
                let Some((ix, (mutant, description, cfg))) = next else {
                    break;
                };
                let command = match &mutant {
                    Some(m) => format!("{cmd} --mutant {m}"),
                    None => cmd.to_string(),
                };
                match ProcessEngine::new(&command, timeout) {
                    Ok(mut e) => {
                        let report = fuzz(&mut e, &cfg);
                        if let Ok(mut r) = rows.lock() {
                            r[ix] = Some(ScoreRow {
                                mutant,
                                description,
                                report,
                            });
                        }
                    }
                    Err(m) => {
                        if let Ok(mut e) = errors.lock() {
                            e.push(m);
                        }
                    }
                }
            });
        }
    });
    let errors = errors.lock().map(|e| e.clone()).unwrap_or_default();
    if let Some(e) = errors.first() {
        return Err(e.clone());
    }
    let rows = rows.lock().map(|r| r.clone()).unwrap_or_default();
    Ok(rows.into_iter().flatten().collect())
}

/// Fuzzes the engine and every mutant once per seed; rows in the order: for each engine
/// (clean, then the mutants), one row per seed. The unmutated engine runs first: the cases on
/// which it already disagrees with the model are not sent to the mutants (a difference there
/// says nothing of the mutant), so a mutant is killed only by a case the unmutated engine gets
/// right.
pub fn score_seeds(
    cmd: &str,
    cfg: &FuzzConfig,
    seeds: &[u64],
    timeout: Duration,
    jobs: usize,
) -> Result<Vec<ScoreRow>, String> {
    let mutants = list_mutants(cmd)?;
    // The score asks only whether and where: findings are not shrunk.
    let cfg = &FuzzConfig {
        shrink_steps: 0,
        ..cfg.clone()
    };
    let clean_jobs: Vec<Job> = seeds
        .iter()
        .map(|seed| {
            let c = FuzzConfig {
                seed: *seed,
                ..cfg.clone()
            };
            (None, "none (the reference)".to_string(), c)
        })
        .collect();
    let mut rows = run_jobs(cmd, clean_jobs, timeout, jobs)?;
    let mut work: Vec<Job> = vec![];
    for (m, d) in mutants {
        for (seed, clean) in seeds.iter().zip(&rows) {
            let skip = clean
                .report
                .findings
                .iter()
                .flat_map(|f| f.cases.iter().map(|(i, _)| *i))
                .collect();
            // A mutant is killed by its first finding: the cases after it cost time.
            let c = FuzzConfig {
                seed: *seed,
                stop_at_first_finding: true,
                skip,
                ..cfg.clone()
            };
            work.push((Some(m.clone()), d.clone(), c));
        }
    }
    rows.extend(run_jobs(cmd, work, timeout, jobs)?);
    Ok(rows)
}

/// The case at which a run first found something, and what (`—` when nothing).
fn first_finding(r: &FuzzReport) -> (String, String) {
    match r.findings.iter().min_by_key(|f| f.first_case) {
        Some(f) => (f.first_case.to_string(), f.kind.replace('|', "/")),
        None => ("—".into(), "—".into()),
    }
}

/// The score over several seeds as a Markdown table: per engine, the case at which each seed's
/// run first found something (the mutant dies there) and the kind found first.
pub fn markdown_seeds(rows: &[ScoreRow], cfg: &FuzzConfig, seeds: &[u64]) -> String {
    let mut o = String::new();
    let budget = cfg
        .case_limit()
        .map(|c| format!("{c} cases"))
        .unwrap_or_else(|| "a time budget".into());
    o.push_str(&format!("Budget per engine and seed: {budget}.\n\n"));
    o.push_str("| engine | the mistake |");
    for s in seeds {
        o.push_str(&format!(" dies at case (seed {s}) |"));
    }
    let first_seed = seeds.first().copied().unwrap_or(0);
    o.push_str(&format!(" first finding (seed {first_seed}) |\n|---|---|"));
    o.push_str(&"---|".repeat(seeds.len() + 1));
    o.push('\n');
    let mut names: Vec<&Option<String>> = vec![];
    for r in rows {
        if !names.contains(&&r.mutant) {
            names.push(&r.mutant);
        }
    }
    let (mut killed, mut total) = (0usize, 0usize);
    for name in names {
        let runs: Vec<&ScoreRow> = rows.iter().filter(|r| &r.mutant == name).collect();
        let Some(first) = runs.first() else { continue };
        let label = match name {
            Some(m) => format!("`--mutant {m}`"),
            None => "reference".into(),
        };
        o.push_str(&format!(
            "| {label} | {} |",
            first.description.replace('|', "/")
        ));
        for s in seeds {
            let cell = match runs.iter().find(|r| r.report.seed == *s) {
                Some(r) if name.is_some() => {
                    total += 1;
                    killed += usize::from(r.ok());
                    if r.ok() {
                        first_finding(&r.report).0
                    } else {
                        "**survived**".into()
                    }
                }
                Some(r) if r.ok() => "clean".into(),
                Some(r) => format!("**{} findings**", r.report.findings.len()),
                None => "—".into(),
            };
            o.push_str(&format!(" {cell} |"));
        }
        o.push_str(&format!(" {} |\n", first_finding(&first.report).1));
    }
    o.push_str(&format!(
        "\nScore: {killed}/{total} mutant runs killed ({} seeds).\n",
        seeds.len()
    ));
    o
}

fn skipped(r: &FuzzReport) -> String {
    let n: usize = r.unsupported.values().sum();
    if n == 0 {
        return "0".into();
    }
    let what: Vec<String> = r
        .unsupported
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    format!("{n} ({})", what.join(", "))
}

/// The score as a Markdown table, with a closing line.
pub fn markdown(rows: &[ScoreRow], cfg: &FuzzConfig) -> String {
    let mut o = String::new();
    let budget = match (cfg.case_limit(), cfg.time) {
        (Some(c), Some(t)) => format!("{c} cases or {} s", t.as_secs()),
        (Some(c), None) => format!("{c} cases"),
        (None, Some(t)) => format!("{} s", t.as_secs()),
        (None, None) => String::new(),
    };
    o.push_str(&format!(
        "Budget per engine: {budget}, seed {}.\n\n",
        cfg.seed
    ));
    o.push_str("| engine | the mistake | result | found at case | first finding | compared | skipped (unsupported) |\n");
    o.push_str("|---|---|---|---|---|---|---|\n");
    for r in rows {
        let name = match &r.mutant {
            Some(m) => format!("`--mutant {m}`"),
            None => "reference".into(),
        };
        let result = match (&r.mutant, r.ok(), &r.report.aborted) {
            (_, _, Some(a)) if r.report.findings.is_empty() => format!("aborted: {a}"),
            (Some(_), true, _) => format!(
                "killed ({} finding{})",
                r.report.findings.len(),
                if r.report.findings.len() == 1 {
                    ""
                } else {
                    "s"
                }
            ),
            (Some(_), false, _) => "**survived**".into(),
            (None, true, _) => "no finding".into(),
            (None, false, _) => format!("**{} findings**", r.report.findings.len()),
        };
        let first = r
            .report
            .findings
            .iter()
            .map(|f| f.first_case)
            .min()
            .map(|c| c.to_string())
            .unwrap_or_else(|| "—".into());
        let kind = r
            .report
            .findings
            .iter()
            .min_by_key(|f| f.first_case)
            .map(|f| f.kind.replace('|', "/"))
            .unwrap_or_else(|| "—".into());
        o.push_str(&format!(
            "| {name} | {} | {result} | {first} | {kind} | {} | {} |\n",
            r.description.replace('|', "/"),
            r.report.compared,
            skipped(&r.report)
        ));
    }
    let mutants: Vec<&ScoreRow> = rows.iter().filter(|r| r.mutant.is_some()).collect();
    let killed = mutants.iter().filter(|r| r.ok()).count();
    let clean = rows.iter().find(|r| r.mutant.is_none());
    let said = match clean {
        Some(r) if r.ok() => "yields no finding".to_string(),
        Some(r) => format!(
            "DISAGREES WITH THE MODEL on {} cases ({} findings), which were not sent to the mutants",
            r.report.findings.iter().map(|f| f.hits).sum::<usize>(),
            r.report.findings.len()
        ),
        None => "was not run".to_string(),
    };
    o.push_str(&format!(
        "\nScore: {killed}/{} mutants killed; the reference {said}.\n",
        mutants.len()
    ));
    o
}
