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

/// Fuzzes the engine and every mutant, `jobs` at a time; rows in the order: clean, mutants.
pub fn score(
    cmd: &str,
    cfg: &FuzzConfig,
    timeout: Duration,
    jobs: usize,
) -> Result<Vec<ScoreRow>, String> {
    let mutants = list_mutants(cmd)?;
    let mut work: Vec<(usize, Option<String>, String)> =
        vec![(0, None, "none (the reference)".into())];
    for (i, (m, d)) in mutants.into_iter().enumerate() {
        work.push((i + 1, Some(m), d));
    }
    let n = work.len();
    let queue = Arc::new(Mutex::new(work));
    let rows: Arc<Mutex<Vec<Option<ScoreRow>>>> = Arc::new(Mutex::new(vec![None; n]));
    let errors: Arc<Mutex<Vec<String>>> = Arc::new(Mutex::new(vec![]));
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            let (queue, rows, errors) = (queue.clone(), rows.clone(), errors.clone());
            s.spawn(move || loop {
                let next = queue.lock().ok().and_then(|mut q| {
                    if q.is_empty() {
                        None
                    } else {
                        Some(q.remove(0))
                    }
                });
                let Some((ix, mutant, description)) = next else {
                    break;
                };
                let command = match &mutant {
                    Some(m) => format!("{cmd} --mutant {m}"),
                    None => cmd.to_string(),
                };
                match ProcessEngine::new(&command, timeout) {
                    Ok(mut e) => {
                        let report = fuzz(&mut e, cfg);
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
    let clean = rows
        .iter()
        .find(|r| r.mutant.is_none())
        .is_some_and(|r| r.ok());
    o.push_str(&format!(
        "\nScore: {killed}/{} mutants killed; the reference {}.\n",
        mutants.len(),
        if clean {
            "yields no finding"
        } else {
            "YIELDS FINDINGS"
        }
    ));
    o
}
