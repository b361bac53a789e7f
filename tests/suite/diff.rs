//! `rbcheck diff`: identical rulebooks differ in nothing; each version step shows the changes §9
//! of the digest lists (where the bound reaches them); every class is explained by a field that
//! differs; the example cases replay under their own rulebooks; the shipped diffs replay.

use crate::shared::{rbcheck, root};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// The bound every comparison here runs on, written once: tests run in parallel threads of one
/// process, and rewriting the file under a running `rbcheck diff` let it read a truncated file.
fn bound() -> PathBuf {
    static BOUND: OnceLock<PathBuf> = OnceLock::new();
    BOUND
        .get_or_init(|| {
            let dir = std::env::temp_dir().join(format!("rbcheck-diff-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let f = dir.join("small.toml");
            std::fs::write(
                &f,
                "instances = []\ninstance_costs = []\nbodies = []\ncatalogue = [\"Hidden Blade\", \"Vanishing Bolt\", \"Chant of Readiness\", \"Curtain Call\"]\nabilities = true\nboards = [\"deflect\"]\nextras = [[], [\"ezreal\", \"marai-spire\"], [\"portal\"]]\nresources = [\"rich\"]\nreactions = [[], [\"Mystic Reversal\"]]\n",
            )
            .unwrap();
            f
        })
        .clone()
}

/// `rbcheck diff A B --json` on the bound, run once per pair for all the tests that read it.
fn diff_json(a: &str, b: &str) -> (i32, serde_json::Value) {
    type Runs = Mutex<HashMap<(String, String), Arc<OnceLock<(i32, serde_json::Value)>>>>;
    static RUNS: OnceLock<Runs> = OnceLock::new();
    let once = RUNS
        .get_or_init(Runs::default)
        .lock()
        .unwrap()
        .entry((a.into(), b.into()))
        .or_default()
        .clone();
    once.get_or_init(|| {
        let f = bound();
        let o = rbcheck(&["diff", a, b, "--bound", f.to_str().unwrap(), "--json"]);
        let v = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
        (o.status.code().unwrap(), v)
    })
    .clone()
}

fn classes(v: &serde_json::Value) -> Vec<(String, Vec<String>)> {
    v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["what"].as_str().unwrap().to_string(),
                c["explained_by"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn a_rulebook_compared_with_itself_differs_in_nothing() {
    for r in ["rup4", "v1.2", "corpus/rulebooks/replicate.toml"] {
        let (code, v) = diff_json(r, r);
        assert_eq!(code, 0, "{r}");
        assert!(v["classes"].as_array().unwrap().is_empty(), "{r}: {v}");
        assert!(v["fields"].as_array().unwrap().is_empty());
    }
}

#[test]
fn v13_to_rup4_makes_a_repeated_ability_legal_and_new_choices_possible() {
    let (code, v) = diff_json("v1.3", "rup4");
    assert_eq!(code, 1);
    let c = classes(&v);
    assert!(
        c.iter().any(|(w, f)| w
            .contains("a decision allowed under rup4 is refused under v1.3: declaring a [Repeat] instance paid or not (355.1.a, 820.1.c.2–3)")
            && f == &["repeat_on_abilities"]),
        "{c:#?}"
    );
    assert!(
        c.iter().any(|(w, f)| w
            .contains("allowed under rup4 is refused under v1.3: making a new choice")
            && f == &["new_choices"]),
        "{c:#?}"
    );
}

#[test]
fn v12_to_v13_shows_the_digest_section_9_changes() {
    let (_, v) = diff_json("v1.2", "v1.3");
    let explained: Vec<String> = classes(&v).into_iter().flat_map(|(_, f)| f).collect();
    for field in [
        "linked_instructions",
        "leaving_chain_stops_execution",
        "as_you_play_repeated",
        "deflect",
        "component_discounts",
    ] {
        assert!(
            explained.iter().any(|f| f == field),
            "no class explained by {field}: {explained:?}"
        );
    }
}

#[test]
fn every_class_is_explained_by_a_field_that_differs() {
    for (a, b) in [
        ("v1.2", "v1.3"),
        ("v1.3", "rup4"),
        ("rup4", "guide"),
        ("rup4", "corpus/rulebooks/double-executions.toml"),
    ] {
        let (_, v) = diff_json(a, b);
        let fields: Vec<String> = v["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            .collect();
        for (what, by) in classes(&v) {
            assert!(
                !by.is_empty(),
                "{a} -> {b}: `{what}` is explained by no field"
            );
            assert!(
                by.iter().all(|f| fields.contains(f)),
                "{a} -> {b}: {by:?} not among {fields:?}"
            );
        }
    }
}

#[test]
fn example_cases_replay_under_their_own_rulebooks() {
    let f = bound();
    let out = f.parent().unwrap().join("out");
    let _ = std::fs::remove_dir_all(&out);
    let o = rbcheck(&[
        "diff",
        "v1.3",
        "rup4",
        "--bound",
        f.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.join("README.md").exists());
    let o = rbcheck(&["replay", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let text: String = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        text.contains("expect illegal line") && text.contains("rule 820.1.a"),
        "a v1.3 case shows the repeated ability refused"
    );
    // Only this test's folder: the bound beside it serves the tests still running.
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn the_shipped_diffs_replay() {
    let o = rbcheck(&["replay", "corpus/diffs"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{out}");
    let n: usize = out.lines().filter(|l| l.starts_with("pass")).count();
    assert!(n >= 20, "{out}");
}

/// Class descriptions are in the rules' words: no step name of the model reaches the reader.
#[test]
fn classes_name_steps_in_the_rules_words_not_the_models_step_names() {
    let (_, v) = diff_json("v1.2", "rup4");
    for (what, _) in classes(&v) {
        for name in [
            "PayCosts",
            "MoveToChain",
            "DeclareRepeat",
            "ChooseTarget",
            "Pass ",
            "RemakeChoice",
        ] {
            assert!(!what.contains(name), "{what}");
        }
        if what.contains("refused") || what.contains("further decision") {
            assert!(
                what.ends_with(')'),
                "a step's words end with its rule: {what}"
            );
        }
    }
}

/// Each shipped diff folder is exactly what `rbcheck diff` writes today for the command its
/// README names, so a change to the model or the report that moves them fails here, not later in
/// a reader's hands (`corpus/diffs/regenerate.sh` rewrites them).
#[test]
fn the_shipped_diffs_are_what_rbcheck_diff_writes_today() {
    let tmp = std::env::temp_dir().join(format!("rbcheck-diff-fresh-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(root().join("corpus/diffs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("README.md").is_file())
        .collect();
    folders.sort();
    assert!(folders.len() >= 6, "{folders:?}");
    let mut stale = vec![];
    for dir in &folders {
        let name = dir.file_name().unwrap().to_str().unwrap();
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        let cmd = readme.lines().next().unwrap();
        let args: Vec<&str> = cmd
            .trim_start_matches("# `rbcheck diff ")
            .trim_end_matches(" --bound versions`")
            .split(' ')
            .collect();
        assert_eq!(args.len(), 2, "{name}: first line {cmd:?}");
        let out = tmp.join(name);
        let o = rbcheck(&[
            "diff",
            args[0],
            args[1],
            "--bound",
            "corpus/diffs/versions.toml",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            o.status.code() == Some(1) || o.status.code() == Some(0),
            "{name}: {o:?}"
        );
        let files = |d: &std::path::Path| -> Vec<(String, String)> {
            let mut v: Vec<(String, String)> = std::fs::read_dir(d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .map(|p| {
                    let text = std::fs::read_to_string(&p).unwrap();
                    (p.file_name().unwrap().to_str().unwrap().to_string(), text)
                })
                .collect();
            v.sort();
            v
        };
        let (want, got) = (files(dir), files(&out));
        // The README names the example cases by the path they were written at.
        let written_at = out.to_str().unwrap().to_string();
        // A case names its rulebook file by a path relative to itself: the same file is the same.
        let same = |w: &(String, String), g: &(String, String)| {
            w.0 == g.0
                && w.1.lines().count() == g.1.lines().count()
                && w.1.lines().zip(g.1.lines()).all(|(a, b)| {
                    a == b
                        || a == b.replace(&written_at, &format!("corpus/diffs/{name}"))
                        || match (a.strip_prefix("rules "), b.strip_prefix("rules ")) {
                            (Some(pa), Some(pb)) => {
                                let (pa, pb) = (pa.trim_matches('"'), pb.trim_matches('"'));
                                let ra = dir.join(pa).canonicalize().ok();
                                ra.is_some() && ra == out.join(pb).canonicalize().ok()
                            }
                            _ => false,
                        }
                })
        };
        let fresh = want.len() == got.len() && want.iter().zip(&got).all(|(w, g)| same(w, g));
        if !fresh {
            let names = |v: &[(String, String)]| v.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
            let differ: Vec<&String> = want
                .iter()
                .filter(|w| !got.iter().any(|g| same(w, g)))
                .map(|w| &w.0)
                .collect();
            stale.push(format!(
                "{name}: shipped {:?}, written today {:?}, differing {differ:?}",
                names(&want),
                names(&got)
            ));
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
    assert!(
        stale.is_empty(),
        "corpus/diffs is stale (run corpus/diffs/regenerate.sh):\n{}",
        stale.join("\n")
    );
}

/// An edit under which a play can go on where the base's ends, and whose refused decisions
/// have more plays below them than can be walked one by one: every instance paid twice.
#[test]
fn a_play_that_asks_for_more_names_what_it_asks_and_huge_counts_say_they_are_bounds() {
    let dir = std::env::temp_dir().join(format!("rbcheck-diff-more-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let edit = dir.join("paid-twice.toml");
    std::fs::write(&edit, "base = \"rup4\"\npayments_per_instance = 2\n").unwrap();
    let o = rbcheck(&[
        "diff",
        "rup4",
        edit.to_str().unwrap(),
        "--bound",
        "costs",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let classes = v["classes"].as_array().unwrap();
    let what = |c: &serde_json::Value| c["what"].as_str().unwrap().to_string();
    // The base's play is over where the edit still offers a second payment of an instance.
    assert!(
        classes.iter().any(|c| what(c)
            == "a play complete under rup4 needs a further decision under paid-twice: declaring a [Repeat] instance paid or not (355.1.a, 820.1.c.2–3)"),
        "{classes:#?}"
    );
    // Paying again, refused under the base, has more plays below it than the count's budget.
    let again = classes
        .iter()
        .find(|c| what(c).starts_with("a decision allowed under paid-twice is refused under rup4: declaring a [Repeat] instance"))
        .expect("a second payment is refused under rup4");
    assert_eq!(again["sequences_at_least"], true, "{again}");
    let text = rbcheck(&["diff", "rup4", edit.to_str().unwrap(), "--bound", "costs"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("at least "));
    std::fs::remove_dir_all(&dir).ok();
}
