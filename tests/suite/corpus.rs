//! The hand-written case corpus (`corpus/cases/`): every case replays and passes through the
//! `rbcheck` binary, and every case file is already in canonical form.

use crate::shared::{rbcheck, root};
use std::path::{Path, PathBuf};

/// At least this many cases must pass.
const MIN_CASES: usize = 40;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `.case` files of the corpus, sorted, as paths relative to the package root.
fn case_files() -> Vec<PathBuf> {
    let dir = Path::new("corpus/cases");
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .expect("corpus/cases exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .map(|p| dir.join(p.file_name().expect("a file name")))
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_case_replays_and_passes() {
    let o = rbcheck(&["replay", "corpus/cases"]);
    let out = text(&o.stdout);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "replay failed:\n{out}{err}");

    let lines: Vec<&str> = out.lines().collect();
    let passes = lines.iter().filter(|l| l.starts_with("pass")).count();
    let not_passing: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("FAIL") || l.starts_with("ERROR"))
        .collect();
    assert!(
        not_passing.is_empty(),
        "cases not passing: {not_passing:#?}"
    );
    assert!(
        passes >= MIN_CASES,
        "only {passes} cases passed, expected at least {MIN_CASES}:\n{out}"
    );
    assert_eq!(
        passes,
        case_files().len(),
        "one `pass` line per case file:\n{out}"
    );
    let summary = format!("{passes} passed, 0 failed");
    assert!(
        lines.iter().any(|l| l.trim() == summary),
        "no summary line `{summary}`:\n{out}"
    );
}

#[test]
fn every_corpus_case_is_in_canonical_form() {
    let files = case_files();
    assert!(files.len() >= MIN_CASES, "only {} case files", files.len());
    let mut not_canonical = vec![];
    for f in &files {
        let path = f.to_str().expect("a UTF-8 path");
        let o = rbcheck(&["fmt", path]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "`rbcheck fmt {path}` failed: {}",
            text(&o.stderr)
        );
        let written = std::fs::read_to_string(root().join(f)).expect("the case file reads");
        if text(&o.stdout) != written {
            not_canonical.push(path.to_string());
        }
    }
    assert!(
        not_canonical.is_empty(),
        "not in canonical form (run `rbcheck fmt --write FILE`): {not_canonical:#?}"
    );
}

/// Every event the corpus's replays log digests apart from every other event: a log's digest
/// stands for its events in a state's hash, so two different events sharing a digest would make
/// two different states one. The corpus reaches nearly every kind of event, with the field
/// values cases really have (item 0, a declined first cost, the end of a turn).
#[test]
fn no_two_events_the_corpus_logs_share_a_digest() {
    use model::state::{Event, Log};
    let dir = root().join("corpus/cases");
    let mut seen: std::collections::HashMap<u64, Event> = std::collections::HashMap::new();
    for path in rbcheck::case::collect(std::slice::from_ref(&dir)).unwrap() {
        let case = rbcheck::case::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let Ok(r) = rbcheck::case::replay(&case, Some(&dir)) else {
            continue;
        };
        for e in r.state.log.iter() {
            let d = Log::from(vec![*e]).digest();
            let first = *seen.entry(d).or_insert(*e);
            assert_eq!(
                first,
                *e,
                "{} logs an event digesting as another",
                path.display()
            );
        }
    }
    assert!(seen.len() > 200, "{} distinct events", seen.len());
}

/// A linked instruction performed because the one before it was (Hidden Blade's "its controller
/// draws", 359.3.e.14) says so in its event, which cites the rule; under v1.2, which has no
/// linked instructions, the same instruction is performed unlinked.
#[test]
fn a_performed_linked_instruction_cites_its_rule() {
    use model::state::Event;
    let dir = root().join("corpus/cases");
    let text =
        std::fs::read_to_string(dir.join("hidden-blade-repeated-draws-four-v1-2.case")).unwrap();
    let linked_in = |rules: &str| {
        let case = rbcheck::case::parse(&text.replace("rules v1.2", rules)).unwrap();
        let r = rbcheck::case::replay(&case, Some(&dir)).unwrap();
        r.state
            .log
            .iter()
            .filter_map(|e| match *e {
                Event::Performed {
                    exec, slot, linked, ..
                } => Some((exec, slot, linked)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    // RUP4: execution 2's kill is ignored, so its draw is too; execution 1's draw is linked.
    assert_eq!(linked_in("rules rup4"), vec![(0, 0, false), (0, 1, true)]);
    assert_eq!(
        linked_in("rules v1.2"),
        vec![(0, 0, false), (0, 1, false), (1, 1, false)]
    );
    let linked = Event::Performed {
        item: 0,
        exec: 0,
        slot: 1,
        linked: true,
    };
    assert!(model::coverage::event_clauses(&linked).contains(&"359.3.e.14"));
}
