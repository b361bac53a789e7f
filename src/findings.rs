//! The case files of `rbcheck fuzz`: each finding's minimal case with a header saying what the
//! engine does wrong, named after the kind of disagreement.

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
        "{} generated case{} of this kind; the first was case {} of seed {seed}",
        f.hits,
        if f.hits == 1 { "" } else { "s" },
        f.first_case
    );
    let mut header = vec![
        format!("rbcheck fuzz finding {n}: {}.", f.kind),
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
