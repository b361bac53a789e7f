//! What several files' tests use: the crate's root, the command, and runs made once for the
//! whole suite.

use rbcheck::check::{check, CheckOptions, CheckRun};
use std::path::PathBuf;
use std::process::{Command, Output};

/// The crate's root: the corpus, the docs and the engines are named from it.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `rbcheck` command, with the suite's own cache folder (shared by its runs, apart from
/// the user's).
pub fn command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rbcheck"));
    c.env("RBCHECK_CACHE_DIR", cache_dir());
    c
}

/// The cache folder of the suite's runs of `rbcheck`.
pub fn cache_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rbcheck-cache")
}

/// `rbcheck ARGS` run from the crate's root, its output captured.
pub fn rbcheck(args: &[&str]) -> Output {
    command()
        .args(args)
        .current_dir(root())
        .output()
        .expect("rbcheck runs")
}

/// Every wrong rulebook's run on the tiny bound, with the file's name; each must fail there.
/// Checked once for all the tests of the suite (the exports, the rune cases).
pub fn wrong_runs() -> &'static [(String, CheckRun)] {
    static RUNS: std::sync::OnceLock<Vec<(String, CheckRun)>> = std::sync::OnceLock::new();
    RUNS.get_or_init(check_wrong_rulebooks)
}

fn check_wrong_rulebooks() -> Vec<(String, CheckRun)> {
    let mut books: Vec<PathBuf> = std::fs::read_dir(root().join("corpus/rulebooks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    books.sort();
    assert!(books.len() >= 12, "{books:?}");
    books
        .into_iter()
        .map(|book| {
            // A rulebook whose mistake needs more than `tiny` names its bound (`# bound: runes`).
            let text = std::fs::read_to_string(&book).unwrap();
            let bound = text
                .lines()
                .find_map(|l| l.strip_prefix("# bound:"))
                .map_or("tiny", str::trim);
            // On a bigger bound only the property the book breaks is checked, which is what the
            // exports and rune cases read: every property in full is 24 million states for
            // `runes-past-the-cost`, and no other property fails there.
            let properties: Vec<String> = match bound {
                "tiny" => vec![],
                _ => text
                    .lines()
                    .filter_map(|l| l.strip_prefix("# breaks:"))
                    .flat_map(|l| l.split(',').map(|p| p.trim().to_string()))
                    .collect(),
            };
            let run = check(
                &CheckOptions {
                    rules: book.to_str().unwrap().into(),
                    bound: bound.into(),
                    properties,
                    ..Default::default()
                },
                None,
                None,
            )
            .unwrap();
            let name = book.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                run.verdict().exit_code() == 1,
                "{name} fails no property on the {bound} bound"
            );
            (name, run)
        })
        .collect()
}
