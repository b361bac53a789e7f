//! End-to-end tests of the limits and of splitting a check: the memory budget (`--memory`,
//! `ulimit -v`), `--max-states`, bounds too large to build, progress lines, and `--shard` with
//! `merge`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn rbcheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbcheck"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("rbcheck runs")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&o.stdout)))
}

/// A fresh empty folder under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// This rulebook's `tiny` run has one scenario of about two million states: a few hundred MB
/// breadth-first (`--search bfs`); depth-first it needs almost nothing.
const BIG: &str = "corpus/rulebooks/double-executions.toml";

#[test]
fn under_ulimit_v_a_big_run_stops_partial_instead_of_aborting() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_rbcheck");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 250000 && exec '{bin}' check --rules {BIG} --bound tiny --search bfs --quiet"
        ))
        .current_dir(root())
        .output()
        .unwrap();
    let out = text(&o.stdout);
    // Exit 1: violations found before the stop are still reported; never a signal (abort).
    assert_eq!(o.status.code(), Some(1), "{out}{}", text(&o.stderr));
    assert!(out.contains("PARTIAL RUN"), "{out}");
    assert!(out.contains("address space reached"), "{out}");
    // Depth-first (the default for this tree-shaped model), the same run fits and completes
    // with the breadth-first counts.
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 250000 && exec '{bin}' check --rules {BIG} --bound tiny --quiet --json"
        ))
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let dfs = json(&o);
    assert_eq!(dfs["complete"], true);
    let o = rbcheck(&[
        "check", "--rules", BIG, "--bound", "tiny", "--quiet", "--json", "--search", "bfs",
    ]);
    let bfs = json(&o);
    for k in ["states", "transitions", "max_depth", "properties"] {
        assert_eq!(dfs[k], bfs[k], "{k}");
    }
}

#[test]
fn the_memory_option_sets_the_budget_within_its_range() {
    let o = rbcheck(&[
        "check", "--rules", BIG, "--bound", "tiny", "--memory", "16M", "--search", "bfs", "--quiet",
    ]);
    let out = text(&o.stdout);
    assert!(
        out.contains("PARTIAL RUN: stopped: memory limit of 0.0 GiB"),
        "{out}"
    );
    for bad in ["3X", "15M", "2P", "-1G", "", "G"] {
        let o = rbcheck(&["check", "--bound", "tiny", &format!("--memory={bad}")]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(text(&o.stderr).contains("from 16M to 1P"), "{bad}");
    }
    let o = rbcheck(&[
        "check", "--bound", "tiny", "--memory", "2G", "--json", "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json(&o)["complete"], true);
}

#[test]
fn max_states_stops_at_exactly_that_many_states_at_any_thread_count() {
    let run = |threads: &str| {
        let o = rbcheck(&[
            "check",
            "--bound",
            "tiny",
            "--max-states",
            "5000",
            "--json",
            "--quiet",
            "--threads",
            threads,
        ]);
        let mut v = json(&o);
        for k in ["seconds", "states_per_second", "peak_memory_bytes"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    let one = run("1");
    assert_eq!(one["states"], 5000);
    assert_eq!(one["complete"], false);
    assert_eq!(run("2"), one);
    let o = rbcheck(&["check", "--bound", "tiny", "--max-states", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_bound_of_too_many_scenarios_is_refused_before_it_is_built() {
    let dir = scratch("huge-bound");
    let many = |v: &str| vec![v; 400].join(",");
    let file = dir.join("huge.toml");
    std::fs::write(
        &file,
        format!(
            "instances = [0]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\nboards = [{}]\nextras = [{}]\nresources = [\"rich\"]\nreactions = [{}]\n",
            many("\"empty\""),
            many("[]"),
            many("[]")
        ),
    )
    .unwrap();
    assert!(std::fs::metadata(&file).unwrap().len() < 8000);
    let start = std::time::Instant::now();
    let o = rbcheck(&[
        "check",
        "--bound",
        file.to_str().unwrap(),
        "--max-states",
        "1000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("huge.toml:7:"), "{err}");
    assert!(err.contains("64000000 scenarios"), "{err}");
    assert!(start.elapsed().as_secs() < 10);
}

#[test]
fn progress_goes_to_stderr_on_a_timer_and_quiet_silences_it() {
    let args = ["check", "--rules", BIG, "--bound", "tiny", "--json"];
    let noisy = rbcheck(&[&args[..], &["--progress-every", "0.1"]].concat());
    let quiet = rbcheck(&[&args[..], &["--quiet"]].concat());
    let err = text(&noisy.stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("progress: "))
        .expect(&err);
    assert!(line.contains(" of 162 scenarios done, "), "{line}");
    assert!(
        line.contains(" states, ") && line.contains(" states/s, memory "),
        "{line}"
    );
    assert!(text(&quiet.stderr).is_empty(), "{}", text(&quiet.stderr));
    let strip = |o: &Output| {
        let mut v = json(o);
        for k in ["seconds", "states_per_second", "peak_memory_bytes"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    assert_eq!(strip(&noisy), strip(&quiet), "stdout does not change");
}

/// The human report with its one timing (seconds and states per second) blanked.
fn untimed(report: &str) -> String {
    let re = |l: &str| match l.find(", depth ") {
        Some(i) => match l[i..].find(" s (") {
            Some(_) => format!(
                "{}, depth {}",
                &l[..i],
                l[i + 8..].split(',').next().unwrap()
            ),
            None => l.to_string(),
        },
        None => l.to_string(),
    };
    report.lines().map(re).collect::<Vec<_>>().join("\n")
}

fn shard(rules: &str, k: u32, n: u32, dir: &Path) -> Output {
    rbcheck(&[
        "check",
        "--rules",
        rules,
        "--bound",
        "tiny",
        "--quiet",
        "--shard",
        &format!("{k}/{n}"),
        "--parts",
        dir.to_str().unwrap(),
    ])
}

#[test]
fn shard_processes_merge_into_the_unsharded_report_byte_for_byte() {
    for (rules, code) in [
        ("rup4", 0),
        ("corpus/rulebooks/illegal-targets-affected.toml", 1),
    ] {
        let dir = scratch(&format!("shards-{}", rules.len()));
        let n = 3;
        let parts: Vec<String> = (1..=n)
            .map(|k| {
                dir.join(format!("part-{k}-of-{n}.json"))
                    .to_str()
                    .unwrap()
                    .into()
            })
            .collect();
        // Two shards finish, then the run is "killed": the merge names the missing one.
        for k in [1, 3] {
            assert_eq!(shard(rules, k, n, &dir).status.code(), Some(0));
        }
        let o = rbcheck(&[&["merge"], &[parts[0].as_str(), parts[2].as_str()][..]].concat());
        assert_eq!(o.status.code(), Some(2));
        assert!(
            text(&o.stderr).contains("shard 2/3 is missing"),
            "{}",
            text(&o.stderr)
        );
        // Resuming runs only what is missing: a finished part is kept as it is.
        let before = std::fs::read(&parts[0]).unwrap();
        for k in 1..=n {
            let o = shard(rules, k, n, &dir);
            assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
            let resumed = text(&o.stderr).contains("already done");
            assert_eq!(resumed, k != 2, "{}", text(&o.stderr));
        }
        assert_eq!(std::fs::read(&parts[0]).unwrap(), before);
        // No temporary file is left beside the parts.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);

        let part_args: Vec<&str> = parts.iter().map(String::as_str).collect();
        let merged = rbcheck(&[&["merge", "--json"], &part_args[..]].concat());
        let whole = rbcheck(&[
            "check", "--rules", rules, "--bound", "tiny", "--json", "--quiet",
        ]);
        assert_eq!(merged.status.code(), Some(code));
        assert_eq!(whole.status.code(), Some(code));
        let strip = |o: &Output| {
            let mut v = json(o);
            for k in ["seconds", "states_per_second", "peak_memory_bytes"] {
                v.as_object_mut().unwrap().remove(k);
            }
            serde_json::to_string(&v).unwrap()
        };
        assert_eq!(strip(&merged), strip(&whole));
        let merged = rbcheck(&[&["merge"], &part_args[..]].concat());
        let whole = rbcheck(&["check", "--rules", rules, "--bound", "tiny", "--quiet"]);
        assert_eq!(
            untimed(&text(&merged.stdout)),
            untimed(&text(&whole.stdout))
        );
        assert!(
            text(&whole.stdout).contains(" s ("),
            "the timing is what is blanked"
        );
    }
}

#[test]
fn merge_refuses_parts_of_different_runs_and_files_that_are_not_parts() {
    let a = scratch("parts-a");
    let b = scratch("parts-b");
    assert_eq!(shard("rup4", 1, 2, &a).status.code(), Some(0));
    assert_eq!(shard("v1.3", 2, 2, &b).status.code(), Some(0));
    let pa = a.join("part-1-of-2.json");
    let pb = b.join("part-2-of-2.json");
    let o = rbcheck(&["merge", pa.to_str().unwrap(), pb.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("another run"),
        "{}",
        text(&o.stderr)
    );
    // A part file of another run in the folder is not overwritten.
    let o = shard("v1.3", 1, 2, &a);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("of another run"),
        "{}",
        text(&o.stderr)
    );
    let junk = a.join("junk.json");
    std::fs::write(&junk, "{\"format\": 1}").unwrap();
    let o = rbcheck(&["merge", junk.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("junk.json: line 1"),
        "{}",
        text(&o.stderr)
    );
    for bad in ["0/2", "3/2", "1/0", "x", "1/100001"] {
        let o = rbcheck(&["check", "--shard", bad, "--parts", a.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
    }
    let o = rbcheck(&["check", "--shard", "1/2"]);
    assert_eq!(o.status.code(), Some(2), "--shard needs --parts");
}
