//! `rbcheck fmt` keeps meaning and comments: every corpus case, and mutants of them
//! (comments and blank lines added, lines removed, duplicated, swapped, `expect illegal` moved),
//! gets the same verdict before and after formatting; formatting is idempotent; `--write`
//! replaces each file at once.

use crate::shared::root;
use proptest::prelude::*;
use rbcheck::case::{self, Verdict};
use std::path::{Path, PathBuf};

/// Every `.case` file of the corpus, with its text.
fn corpus() -> Vec<(PathBuf, String)> {
    let files = case::collect(&[root().join("corpus")]).unwrap();
    assert!(files.len() > 90);
    files
        .into_iter()
        .map(|f| {
            let t = std::fs::read_to_string(&f).unwrap();
            (f, t)
        })
        .collect()
}

/// A case text's verdict, replayed from `dir`: `pass`, `fail: MESSAGE` or `invalid`. Digits
/// are dropped from messages: they name lines, which formatting moves.
fn judge(text: &str, dir: &Path) -> String {
    let Ok(c) = case::parse(text) else {
        return "invalid".into();
    };
    match case::replay(&c, Some(dir)) {
        Err(_) => "invalid".into(),
        Ok(r) => match case::verdict(&c, &r) {
            Verdict::Pass => "pass".into(),
            Verdict::Fail { message, .. } => format!(
                "fail: {}",
                message.replace(|c: char| c.is_ascii_digit(), "")
            ),
        },
    }
}

/// The same verdict before and after `fmt` (when it formats at all: a file it refuses must
/// be one that is not a valid case), and `fmt` of its output changes nothing.
fn same_verdict(text: &str, dir: &Path) -> Result<(), TestCaseError> {
    let before = judge(text, dir);
    match case::format(text) {
        Ok(out) => {
            prop_assert_eq!(&before, &judge(&out, dir), "formatted:\n{}", out);
            let again = case::format(&out).ok();
            prop_assert_eq!(again.as_ref(), Some(&out), "idempotent");
        }
        Err(_) => prop_assert_eq!(before, "invalid", "fmt refused a valid case"),
    }
    Ok(())
}

#[test]
fn every_corpus_case_keeps_its_verdict_and_comments_through_fmt() {
    for (f, text) in corpus() {
        let dir = f.parent().unwrap();
        assert_ne!(judge(&text, dir), "invalid", "{}", f.display());
        same_verdict(&text, dir).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let out = case::format(&text).unwrap();
        for line in text.lines().filter(|l| l.trim_start().starts_with('#')) {
            let body = line.trim().trim_start_matches('#').trim();
            assert!(out.contains(body), "{}: lost comment {line}", f.display());
        }
    }
}

/// One edit of a case file's lines.
#[derive(Clone, Debug)]
enum Mutation {
    Comment(usize),
    Blank(usize),
    Trailing(usize),
    Delete(usize),
    Duplicate(usize),
    Swap(usize),
    /// `expect illegal line N` plus a delta, or a new one naming line N.
    Illegal(usize, i8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Comment),
        any::<usize>().prop_map(Mutation::Blank),
        any::<usize>().prop_map(Mutation::Trailing),
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Duplicate),
        any::<usize>().prop_map(Mutation::Swap),
        (any::<usize>(), -3i8..=3).prop_map(|(a, b)| Mutation::Illegal(a, b)),
    ]
}

fn mutate(text: &str, edits: &[Mutation]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for m in edits {
        let n = lines.len().max(1);
        match *m {
            Mutation::Comment(i) => lines.insert(i % (n + 1), "# an inserted note".into()),
            Mutation::Blank(i) => lines.insert(i % (n + 1), String::new()),
            Mutation::Trailing(i) => {
                if let Some(l) = lines.get_mut(i % n) {
                    if !l.contains('{') && !l.trim_start().starts_with('#') {
                        l.push_str("  # beside it");
                    }
                }
            }
            Mutation::Delete(i) if lines.len() > 1 => {
                lines.remove(i % n);
            }
            Mutation::Duplicate(i) if !lines.is_empty() => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Mutation::Swap(i) if lines.len() > 1 => lines.swap(i % (n - 1), i % (n - 1) + 1),
            Mutation::Illegal(i, d) => {
                let at = lines
                    .iter()
                    .position(|l| l.starts_with("expect illegal line "));
                match at {
                    Some(k) => {
                        let rest: Vec<&str> = lines[k]["expect illegal line ".len()..]
                            .splitn(2, ' ')
                            .collect();
                        let n: i64 = rest[0].parse().unwrap_or(1);
                        let tail = rest.get(1).map(|t| format!(" {t}")).unwrap_or_default();
                        lines[k] =
                            format!("expect illegal line {}{tail}", (n + i64::from(d)).max(1));
                    }
                    None => lines.push(format!("expect illegal line {}", i % (n + 1) + 1)),
                }
            }
            _ => {}
        }
    }
    lines.join("\n") + "\n"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    /// Mutants of corpus cases: whatever their verdict (pass, fail or invalid), `fmt` keeps it.
    #[test]
    fn mutants_keep_their_verdict_through_fmt(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec(mutation(), 1..6),
    ) {
        thread_local!(static CORPUS: Vec<(PathBuf, String)> = corpus());
        let (f, text) = CORPUS.with(|c| pick.get(c).clone());
        let m = mutate(&text, &edits);
        same_verdict(&m, f.parent().unwrap())?;
    }
}

/// `fmt --write` replaces each file at once: when the disk fills up (here a file-size limit)
/// the file keeps its old text, whole, and no temporary file is left (before, it was
/// truncated to the limit).
#[cfg(unix)]
#[test]
fn fmt_write_is_atomic_when_the_disk_fills() {
    let d = std::env::temp_dir().join(format!("rbcheck-fmt-atomic-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let src = root().join("corpus/cases/bellows-breath-repeated-on-one-unit-both-hits-land.case");
    let mut text = std::fs::read_to_string(src).unwrap();
    // Padding that fmt changes (spaces) so that the file is rewritten, over 4 KiB long.
    text = text.replace(
        "\nexpect ",
        "\nexpect                                                  ",
    );
    for _ in 0..40 {
        text.push_str("#                      a long comment line that makes the file large\n");
    }
    assert!(text.len() > 4096);
    let file = d.join("big.case");
    std::fs::write(&file, &text).unwrap();
    // `ulimit -f 2`: at most 1 KiB per file written; SIGXFSZ ignored, so a write past it
    // fails with EFBIG instead of killing the process.
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f 2; exec '{}' fmt --write '{}'",
            env!("CARGO_BIN_EXE_rbcheck"),
            file.display()
        ))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text,
        "the old text, whole"
    );
    assert_eq!(
        std::fs::read_dir(&d).unwrap().count(),
        1,
        "no temporary file left"
    );
    // Without the limit the same file is formatted, comments kept.
    let o = crate::shared::command()
        .args(["fmt", "--write", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let out = std::fs::read_to_string(&file).unwrap();
    assert!(out.contains("a long comment line") && out.contains("\nexpect legal\n"));
    std::fs::remove_dir_all(&d).unwrap();
}
