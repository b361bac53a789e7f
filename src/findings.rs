//! The case files of `rbcheck fuzz`: each finding's minimal case with a header saying what the
//! engine does wrong, named after its cause, written as soon as it is found ([`FindingWriter`]:
//! a killed run keeps what it found), and the run's `summary.txt` at the end.

use crate::engine::fuzz::{with_header, Finding, FuzzReport};
use crate::error::Error;
use crate::outdir::OutDir;
use std::path::PathBuf;

/// The finding cases written by [`write_findings`].
#[derive(Clone, Debug, Default)]
pub struct FindingFiles {
    /// The index of each finding written, with its file.
    pub files: Vec<(usize, PathBuf)>,
    /// The findings whose case could not be built (index, why); they are not written.
    pub failed: Vec<(usize, String)>,
}

/// A file-name slug: lowercase letters and digits, other runs as one `-`, at most 60 characters.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.to_ascii_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let t: String = out.trim_matches('-').chars().take(60).collect();
    t.trim_end_matches('-').to_string()
}

/// The finding's case, with a header that says what the engine does wrong.
pub fn finding_case(f: &Finding, n: usize, engine: &str, seed: u64) -> Result<String, Error> {
    let hits = format!(
        "first found at case {} of seed {seed}; summary.txt lists every case of this cause",
        f.first_case
    );
    let mut header = vec![
        format!("rbcheck fuzz finding {n}: {}.", f.kind),
        format!("Rule: {}.", f.cited),
        match f.fault {
            Some(_) => format!("The engine `{engine}` fails on this case ({hits}):"),
            None => format!(
                "The engine `{engine}` disagrees with the rules on this case ({hits}; shrunk from {} to {} statements):",
                f.shrunk_from.0, f.shrunk_from.1
            ),
        },
    ];
    match &f.fault {
        Some(m) => header.push(format!("  {m}")),
        None => {
            for d in f.differences.iter().take(6) {
                header.push(format!("  {}", d.line()));
            }
            if f.differences.len() > 6 {
                header.push(format!(
                    "  ... and {} more differences",
                    f.differences.len() - 6
                ));
            }
        }
    }
    header.push("The expectations are the model's (`rbcheck replay` passes); the engine should give the same.".into());
    let case = with_header(&f.case, header).map_err(Error::case)?;
    Ok(crate::case::print(&case))
}

/// Writes each finding of `report` as `NNN-<kind>.case` into `out`, all at once (nothing is
/// written without findings: the folder is then not made).
pub fn write_findings(
    report: &FuzzReport,
    out: &mut OutDir,
    seed: u64,
) -> Result<FindingFiles, Error> {
    let mut written = FindingFiles::default();
    if report.findings.is_empty() {
        return Ok(written);
    }
    let engine = report
        .engine
        .as_ref()
        .map(|h| h.describe())
        .unwrap_or_default();
    let mut files = vec![];
    for (n, f) in report.findings.iter().enumerate() {
        let name = format!("{:03}-{}.case", n + 1, slug(&f.kind));
        match finding_case(f, n + 1, &engine, seed) {
            Ok(text) => {
                written.files.push((n, out.path().join(&name)));
                files.push((name, text));
            }
            Err(e) => written.failed.push((n, e.to_string())),
        }
    }
    out.commit(&files)?;
    Ok(written)
}

/// Writes each finding's case into the output folder as soon as it is found: the first one
/// moves the staged folder into place (so a run without findings makes no folder), the others
/// are written one by one, each whole or not at all (`outdir::write_new`). A run killed midway
/// keeps every finding written so far.
pub struct FindingWriter {
    out: OutDir,
    engine: String,
    seed: u64,
    placed: bool,
    /// What was written and what failed.
    pub files: FindingFiles,
}

impl FindingWriter {
    /// A writer into `out` (prepared, not committed) for `engine`'s findings under `seed`.
    pub fn new(out: OutDir, engine: String, seed: u64) -> FindingWriter {
        FindingWriter {
            out,
            engine,
            seed,
            placed: false,
            files: FindingFiles::default(),
        }
    }

    /// Writes finding `n` (0-based) as `NNN-<cause>.case`. A finding whose case cannot be
    /// built is recorded in `files.failed`; a file that cannot be written is an error.
    pub fn write(&mut self, n: usize, f: &Finding) -> Result<(), Error> {
        let name = format!("{:03}-{}.case", n + 1, slug(&f.kind));
        let text = match finding_case(f, n + 1, &self.engine, self.seed) {
            Ok(t) => t,
            Err(e) => {
                self.files.failed.push((n, e.to_string()));
                return Ok(());
            }
        };
        self.place(&name, &text)?;
        self.files.files.push((n, self.out.path().join(&name)));
        Ok(())
    }

    fn place(&mut self, name: &str, text: &str) -> Result<(), Error> {
        if self.placed {
            crate::outdir::write_new(&self.out.target().join(name), text)?;
        } else {
            self.out.commit(&[(name.to_string(), text.to_string())])?;
            self.placed = true;
        }
        Ok(())
    }

    /// Writes `summary.txt` at the end of a run with findings: every cluster, its rule, its
    /// symptoms and every case of it (nothing when the run found nothing).
    /// A finding renamed or renumbered when the run ended (named by its suspect clause, or
    /// joined with another of the same name, `fuzz`) is written again under its final name,
    /// and its first file removed; so is the file of a finding merged into another.
    pub fn finish(&mut self, report: &FuzzReport) -> Result<(), Error> {
        if report.findings.is_empty() {
            return Ok(());
        }
        // The final position of the finding a file was first written for, if it still
        // stands for one (not merged into another).
        let primary = |was: usize| {
            let n = report
                .findings
                .iter()
                .position(|f| f.filed.contains(&was))?;
            (report.findings[n].filed.first() == Some(&was)).then_some(n)
        };
        let mut kept = vec![];
        let mut renamed = vec![];
        for (was, old) in std::mem::take(&mut self.files.files) {
            let Some(n) = primary(was) else {
                // Its cases are the finding's it joined, whose file stands for them.
                let _ = std::fs::remove_file(&old);
                continue;
            };
            let f = &report.findings[n];
            let name = format!("{:03}-{}.case", n + 1, slug(&f.kind));
            // Its case was built once; should it not build again, the first file stays.
            match finding_case(f, n + 1, &self.engine, self.seed) {
                Ok(text) if old.file_name().is_none_or(|o| o != name.as_str()) => {
                    renamed.push((n, old, name, text))
                }
                _ => kept.push((n, old)),
            }
        }
        // Every first file goes before any final one is written: a final name may be one a
        // first file had.
        for (_, old, _, _) in &renamed {
            let _ = std::fs::remove_file(old);
        }
        for (n, _, name, text) in renamed {
            self.place(&name, &text)?;
            kept.push((n, self.out.path().join(&name)));
        }
        kept.sort_by_key(|(n, _)| *n);
        self.files.files = kept;
        self.files.failed = std::mem::take(&mut self.files.failed)
            .into_iter()
            .filter_map(|(was, e)| Some((primary(was)?, e)))
            .collect();
        self.place("summary.txt", &summary(report, true))
    }

    /// Names the engine in the headers (known after the handshake).
    pub fn set_engine(&mut self, engine: String) {
        self.engine = engine;
    }
}

/// The clusters of a run: each with its rule, count, symptoms and (with `all`) every case,
/// else the first few.
pub fn summary(report: &FuzzReport, all: bool) -> String {
    let mut out = String::new();
    for (n, f) in report.findings.iter().enumerate() {
        out.push_str(&format!(
            "FINDING {} {} ({} case{})\n  rule: {}\n",
            n + 1,
            f.kind,
            f.hits,
            if f.hits == 1 { "" } else { "s" },
            f.cited
        ));
        let symptoms: Vec<String> = f
            .symptoms
            .iter()
            .map(|(k, v)| format!("{k} ({v})"))
            .collect();
        out.push_str(&format!("  symptoms: {}\n", symptoms.join(", ")));
        let shown = if all {
            f.cases.len()
        } else {
            f.cases.len().min(1)
        };
        for (i, line) in f.cases.iter().take(shown) {
            out.push_str(&format!("  case {i}: {line}\n"));
        }
        if shown < f.cases.len() {
            out.push_str(&format!(
                "  ... and {} more cases (--all lists them)\n",
                f.cases.len() - shown
            ));
        }
    }
    out
}
