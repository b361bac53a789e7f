//! What users read (the README, docs/, the corpus's guides) and what the program prints (the
//! string literals of src/, model/, checker/, properties/, which sit beside their comments) name
//! no tracker issue, work session or commit: a user has none of those. History belongs in
//! CHANGELOG.md, in words. This test reads the files and names each offending file:line.

use crate::shared::root;
use std::path::{Path, PathBuf};

/// A reference a user cannot follow, found on one line.
fn offence(line: &str, prose: &str) -> Option<&'static str> {
    let lower = line.to_lowercase();
    if numbered_after(
        &lower,
        &["issue ", "issues ", "issue #", "session ", "sessions "],
    ) {
        return Some("a tracker issue or work session by number");
    }
    if numbered_after(&lower, &["pr #", "pull request #", "ticket #", "bug #"]) || hash_ref(line) {
        return Some("a tracker reference `#N`");
    }
    if commit_hash(prose) {
        return Some("a commit hash");
    }
    None
}

/// Whether one of `words` is followed by a digit, at a word start.
fn numbered_after(lower: &str, words: &[&str]) -> bool {
    words.iter().any(|w| {
        lower.match_indices(w).any(|(i, _)| {
            let starts_word = lower[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric() && c != '_');
            starts_word
                && lower[i + w.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
        })
    })
}

/// `(#12)`: a bare tracker number in parentheses (a colour such as ` #666` is left alone).
fn hash_ref(line: &str) -> bool {
    line.match_indices("(#").any(|(i, _)| {
        let digits: String = line[i + 2..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        !digits.is_empty() && line[i + 2 + digits.len()..].starts_with(')')
    })
}

/// A word of 7 to 40 hexadecimal digits with a digit and a letter in it (a commit hash), not a
/// `0x` literal nor a colour.
fn commit_hash(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        (7..=40).contains(&w.len())
            && w.chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
            && w.chars().any(|c| c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_lowercase())
            && !text.contains(&format!("0x{w}"))
            && !text.contains(&format!("#{w}"))
    })
}

/// The part of a source line that is prose: its comment (`//`, `#` in TOML). Commit hashes are
/// looked for there only; code may hold hexadecimal test data.
fn prose_of<'a>(path: &Path, line: &'a str) -> &'a str {
    let marker = match path.extension().and_then(|e| e.to_str()) {
        Some("rs") => "//",
        Some("toml") => "#",
        _ => return line,
    };
    line.find(marker).map_or("", |i| &line[i..])
}

/// Every file under `dir` (relative to the root) whose extension is one of `exts`.
fn files(dir: &str, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let rel = path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            files(&rel, exts, out);
        } else if path
            .extension()
            .and_then(|x| x.to_str())
            .is_some_and(|x| exts.contains(&x))
        {
            out.push(PathBuf::from(rel));
        }
    }
}

/// What users read and what the program is built from.
fn scanned() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from("README.md")];
    files("docs", &["md"], &mut out);
    files("corpus", &["md", "toml"], &mut out);
    for dir in [
        "src",
        "model",
        "checker",
        "properties",
        "case",
        "engine",
        "bench",
    ] {
        files(dir, &["rs", "toml"], &mut out);
    }
    // The digest is a verbatim copy of an outside document; its hashes name the commits of
    // other repositories it was read from, which a reader can follow.
    out.retain(|p| p != Path::new("corpus/digest.md"));
    out
}

#[test]
fn no_tracker_session_or_commit_reference_where_users_read() {
    let mut found = vec![];
    let scanned = scanned();
    assert!(
        scanned.len() > 100,
        "too few files found: {}",
        scanned.len()
    );
    for path in &scanned {
        let text = std::fs::read_to_string(root().join(path))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for (i, line) in text.lines().enumerate() {
            let status = path.extension().is_some_and(|e| e == "md")
                && line.starts_with('#')
                && line.trim_start_matches('#').trim() == "Status";
            if status {
                found.push(format!(
                    "{}:{}: a work-log \"Status\" section",
                    path.display(),
                    i + 1
                ));
            } else if let Some(what) = offence(line, prose_of(path, line)) {
                found.push(format!(
                    "{}:{}: {what}: {}",
                    path.display(),
                    i + 1,
                    line.trim()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} line(s) name a tracker issue, session or commit (history goes to CHANGELOG.md, in words):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_detector_finds_what_it_is_for_and_passes_plain_prose() {
    let n = 12;
    for bad in [
        format!("as issue {n} asked"),
        format!("(Issue {n}) done"),
        format!("see issue #{n}"),
        format!("since session {n}"),
        format!("fixed in (#{n})"),
        format!("fixed in PR #{n}"),
    ] {
        assert!(offence(&bad, &bad).is_some(), "{bad}");
    }
    let hash = format!("{}{}", "3e323b", "6");
    assert!(offence("at commit", &format!("at commit {hash}")).is_some());
    for fine in [
        "the issue is that a play is undone",
        "rbcheck-engine/2, 820.1.c.2–3, 357.1.a",
        "color: #666; background: #efefef; 0x9e3779b97f4a7c15",
        "initial state #0 of the model",
        "a word such as deadbeef or abcdefa has no digit",
        "seeds 0 and 1, 1,016,186,325 states",
    ] {
        assert_eq!(offence(fine, fine), None, "{fine}");
    }
}
