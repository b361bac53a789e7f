//! Case files: a line-oriented record of a setup, the decisions played and the expected outcome
//! (grammar in `corpus/FORMAT.md`), with a parser, a canonical printer and a replayer.

pub mod ast;
pub mod from_trace;
pub mod parse;
pub mod print;
pub mod replay;
pub mod wire;

pub use ast::Case;
pub use parse::{parse, ParseError};
pub use print::print;
pub use replay::{replay, verdict, CaseError, Verdict};

use std::path::{Path, PathBuf};

/// Every `.case` file named, or under a named folder, sorted; an error names a path that does not exist.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = vec![];
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out).map_err(|e| format!("{}: {e}", p.display()))?;
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for e in entries {
        if e.is_dir() {
            walk(&e, out)?;
        } else if e.extension().is_some_and(|x| x == "case") {
            out.push(e);
        }
    }
    Ok(())
}

/// The outcome of one case file.
pub enum FileResult {
    /// Replayed and compared.
    Done(Verdict),
    /// Not a valid case: a parse error or a case the model cannot set up.
    Invalid(String),
}

/// Parses, replays and judges one file.
pub fn run_file(path: &Path) -> FileResult {
    let text = match std::fs::read(path) {
        Ok(b) => match String::from_utf8(b) {
            Ok(t) => t,
            Err(e) => {
                return FileResult::Invalid(format!(
                    "{}: not UTF-8 text (byte {})",
                    path.display(),
                    e.utf8_error().valid_up_to()
                ))
            }
        },
        Err(e) => return FileResult::Invalid(format!("{}: cannot read: {e}", path.display())),
    };
    let case = match parse(&text) {
        Ok(c) => c,
        Err(e) => {
            return FileResult::Invalid(format!(
                "{}:{}:{}: {}",
                path.display(),
                e.line,
                e.col,
                e.message
            ))
        }
    };
    match replay(&case, path.parent()) {
        Ok(r) => FileResult::Done(verdict(&case, &r)),
        Err(e) => FileResult::Invalid(format!("{}:{}: {}", path.display(), e.line, e.message)),
    }
}
