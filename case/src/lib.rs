//! Case files: a line-oriented record of a setup, the decisions played and the expected outcome
//! (grammar in `corpus/FORMAT.md`), with a parser, a canonical printer and a replayer.

// Every unsafe block says why it is sound, one operation at a time.
#![warn(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]

pub mod ast;
pub mod format;
pub mod from_trace;
pub mod parse;
pub mod print;
pub mod read;
pub mod replay;
pub mod wire;

pub use ast::Case;
pub use format::{format, FormatError};
pub use parse::{parse, ParseError};
pub use print::print;
pub use replay::{replay, verdict, CaseError, Verdict};

use std::path::{Path, PathBuf};

/// Every `.case` file named, or under a named folder, sorted; an error names a path that does not
/// exist or is neither a regular file nor a folder (a FIFO would block the read forever).
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = vec![];
    for p in paths {
        // A path the user names is followed if it is a link: they chose it.
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                walk(p, &mut out).map_err(|e| format!("{}: {e}", p.display()))?
            }
            Ok(m) if m.is_file() => out.push(p.clone()),
            Ok(_) => return Err(format!("{}: not a regular file or folder", p.display())),
            Err(_) => return Err(format!("{}: no such file or folder", p.display())),
        }
    }
    Ok(out)
}

/// The `.case` files under `dir`. Links are not followed and only regular files are taken: a
/// link to a parent folder would replay the same cases again and again (or never end), and a
/// FIFO would block the read.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries = std::fs::read_dir(dir)?
        .map(|e| e.and_then(|e| Ok((e.path(), e.file_type()?))))
        .collect::<Result<Vec<_>, _>>()?;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, kind) in entries {
        if kind.is_dir() {
            walk(&path, out)?;
        } else if kind.is_file() && path.extension().is_some_and(|x| x == "case") {
            out.push(path);
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

/// Reads, parses and replays one file: the case and its replay, or what is wrong with the
/// file as `file:line:col: message` (`file:line: message` for a case that parses but cannot
/// be replayed). Every command that reads case files judges them by this one function.
pub fn load_file(path: &Path) -> Result<(Case, replay::Replayed), String> {
    let text = crate::read::read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let case = parse(&text).map_err(|e| {
        let at = format!("{}:{}:{}: {}", path.display(), e.line, e.col, e.message);
        at + &snippet(&text, e.line, Some(e.col))
    })?;
    let r = replay(&case, path.parent()).map_err(|e| {
        let at = format!("{}:{}: {}", path.display(), e.line, e.message);
        at + &snippet(&text, e.line, None)
    })?;
    Ok((case, r))
}

/// Line `line` of `text` with a caret under column `col` (1-based, in characters) and the
/// word that starts there, or under the statement when no column is known; empty for a line
/// the text does not have. Drawn by annotate-snippets, as rustc draws its own.
fn snippet(text: &str, line: usize, col: Option<usize>) -> String {
    let Some(source) = line.checked_sub(1).and_then(|l| text.lines().nth(l)) else {
        return String::new();
    };
    let indent = source.len() - source.trim_start().len();
    // A caret under blank space points at nothing: it moves to the next word (a statement
    // indented by a tab is reported at column 1).
    let start = match col {
        Some(c) => source
            .char_indices()
            .skip(c.saturating_sub(1))
            .find(|(_, ch)| !ch.is_whitespace())
            .map_or(source.len(), |(i, _)| i),
        None => indent,
    };
    let end = match col {
        Some(_) => source[start..]
            .find(char::is_whitespace)
            .map_or(source.len(), |n| start + n),
        None => source.trim_end().len(),
    };
    // Tabs drawn as four spaces, and the caret moved with them.
    let shown = source.replace('\t', "    ");
    let at = |i: usize| i + 3 * source[..i].matches('\t').count();
    let message = annotate_snippets::Level::Error.title("").snippet(
        annotate_snippets::Snippet::source(&shown)
            .line_start(line)
            .annotation(annotate_snippets::Level::Error.span(at(start)..at(end.max(start)))),
    );
    let drawn = annotate_snippets::Renderer::plain()
        .render(message)
        .to_string();
    // The first line is the (empty) title: the caller's `file:line:col: message` says it.
    drawn
        .lines()
        .skip(1)
        .fold(String::new(), |out, l| out + "\n" + l)
}

/// Parses, replays and judges one file.
pub fn run_file(path: &Path) -> FileResult {
    match load_file(path) {
        Ok((case, r)) => FileResult::Done(verdict(&case, &r)),
        Err(m) => FileResult::Invalid(m),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A folder holding a link to itself replayed one case 41 times, and a FIFO named
    /// `x.case` hung the walk.
    #[test]
    fn folder_walks_skip_links_and_fifos() {
        let dir = std::env::temp_dir().join(format!("rbcheck-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/a.case"), "rbcheck-case 1\n").unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("sub/loop")).unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("loop2")).unwrap();
        std::os::unix::fs::symlink(dir.join("sub/a.case"), dir.join("link.case")).unwrap();
        let fifo = std::process::Command::new("mkfifo")
            .arg(dir.join("x.case"))
            .status()
            .unwrap();
        assert!(fifo.success());
        let found = collect(std::slice::from_ref(&dir)).unwrap();
        assert_eq!(found, vec![dir.join("sub/a.case")]);
        let named = collect(&[dir.join("x.case")]).unwrap_err();
        assert!(
            named.ends_with("x.case: not a regular file or folder"),
            "{named}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
