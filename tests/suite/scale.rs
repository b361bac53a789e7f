//! End-to-end tests of the limits and of splitting a check: the memory budget (`--memory`,
//! `ulimit -v`), `--max-states`, bounds too large to build, progress lines, and `--shard` with
//! `merge`.

use crate::shared::{rbcheck, root};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    for k in ["states", "transitions", "max_depth"] {
        assert_eq!(dfs[k], bfs[k], "{k}");
    }
    // The search's verdicts are the same. What a witness missed under this rulebook says also
    // depends on a second run under its base, which may stop at the address-space ceiling the
    // first one left little room under: then it is undecided (`unknown`), never "not
    // exercised" where the base does reach it (before: one run in two or three said so).
    let (d, b) = (
        dfs["properties"].as_array().unwrap(),
        bfs["properties"].as_array().unwrap(),
    );
    assert_eq!(d.len(), b.len());
    for (d, b) in d.iter().zip(b) {
        assert_eq!(d["name"], b["name"]);
        assert_eq!(d["outcome"], b["outcome"], "{}", d["name"]);
        if d["status"] != b["status"] {
            assert_eq!(d["status"], "unknown", "{}: {d} against {b}", d["name"]);
        }
    }
}

#[test]
fn the_memory_option_sets_the_budget_within_its_range() {
    let o = rbcheck(&[
        "check", "--rules", BIG, "--bound", "tiny", "--memory", "16M", "--search", "bfs", "--quiet",
    ]);
    let out = text(&o.stdout);
    assert!(
        out.contains("PARTIAL RUN: stopped: memory limit of 16 MiB reached"),
        "{out}"
    );
    // The header says the same budget (before: "0.0 GiB" there and "0.02 GiB" here).
    let o = rbcheck(&[
        "check",
        "--bound",
        "tiny",
        "--memory",
        "16M",
        "--max-states",
        "1",
    ]);
    assert!(
        text(&o.stderr).contains("| memory budget 16 MiB |"),
        "{}",
        text(&o.stderr)
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

/// `check --plan N` writes the plan once; the shards of that run deal their scenarios by it
/// (a plan edited to move one scenario moves it between the shards' parts), the merge says
/// how even the split was, and a plan of another run, or a file that is not a plan, is refused
/// naming the file.
#[test]
fn shards_deal_their_scenarios_by_the_plan_file_in_the_folder() {
    let dir = scratch("plan");
    let d = dir.to_str().unwrap();
    let plan = |bound: &str| {
        rbcheck(&[
            "check", "--bound", bound, "--quiet", "--plan", "3", "--parts", d,
        ])
    };
    let o = plan("tiny");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("dealt to 3 shards"),
        "{}",
        text(&o.stderr)
    );
    let path = dir.join("plan-of-3.json");
    let mut file: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    // Move the first scenario to the next shard: the plan file is what the shards follow.
    let first = file["plan"]["shard_of"][0].as_u64().unwrap();
    file["plan"]["shard_of"][0] = ((first + 1) % 3).into();
    std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
    let counts: Vec<usize> = (1..=3)
        .map(|k| {
            let o = shard("rup4", k, 3, &dir);
            assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
            let part: serde_json::Value = serde_json::from_slice(
                &std::fs::read(dir.join(format!("part-{k}-of-3.json"))).unwrap(),
            )
            .unwrap();
            part["part"]["summaries"].as_array().unwrap().len()
        })
        .collect();
    let dealt = |k: u64| {
        file["plan"]["shard_of"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x.as_u64() == Some(k))
            .count()
    };
    assert_eq!(counts, vec![dealt(0), dealt(1), dealt(2)]);
    let parts: Vec<String> = (1..=3).map(|k| format!("{d}/part-{k}-of-3.json")).collect();
    let args: Vec<&str> = parts.iter().map(String::as_str).collect();
    let merged = rbcheck(&[&["merge"], &args[..]].concat());
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    assert!(
        text(&merged.stderr).contains("the mean of"),
        "{}",
        text(&merged.stderr)
    );
    let whole = rbcheck(&["check", "--bound", "tiny", "--quiet"]);
    assert_eq!(
        untimed(&text(&merged.stdout)),
        untimed(&text(&whole.stdout))
    );
    // The plan of another bound is refused by a shard and by --plan, naming the file.
    for p in &parts {
        std::fs::remove_file(p).unwrap();
    }
    let other = rbcheck(&[
        "check", "--bound", "default", "--quiet", "--shard", "1/3", "--parts", d,
    ]);
    for o in [plan("default"), other] {
        assert_eq!(o.status.code(), Some(2));
        let e = text(&o.stderr);
        assert!(
            e.contains("plan-of-3.json: a plan file of another run"),
            "{e}"
        );
        assert!(e.contains("made for another bound"), "{e}");
    }
    // A file that is not a plan names its line.
    std::fs::write(&path, "{\"format\": \"rbcheck-plan/1\", \"plan\": 3}").unwrap();
    let o = plan("tiny");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("not an rbcheck plan file"),
        "{}",
        text(&o.stderr)
    );
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

/// A shard stopped by its memory budget writes a part that says it is partial, and a rerun that
/// keeps the part says so too (before: "already done, kept ..." as for a complete part); the
/// merge of it is a partial run.
#[test]
fn a_memory_stopped_shard_says_its_part_is_partial_when_written_and_when_kept() {
    let dir = scratch("parts-partial");
    let run = || {
        rbcheck(&[
            "check",
            "--rules",
            BIG,
            "--bound",
            "tiny",
            "--search",
            "bfs",
            "--memory",
            "16M",
            "--quiet",
            "--shard",
            "1/2",
            "--parts",
            dir.to_str().unwrap(),
        ])
    };
    for (attempt, said) in [(1, "wrote "), (2, "kept ")] {
        let o = run();
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(err.contains(said), "run {attempt}: {err}");
        assert!(err.contains("a PARTIAL part"), "run {attempt}: {err}");
        assert!(
            err.contains("PARTIAL: it stopped at the memory budget of 16 MiB after"),
            "run {attempt}: {err}"
        );
        assert!(!err.contains("already done"), "run {attempt}: {err}");
    }
    // A complete part is still "already done".
    let done = scratch("parts-done");
    let shard_done = || shard("rup4", 1, 2, &done);
    assert_eq!(shard_done().status.code(), Some(0));
    let o = shard_done();
    assert!(
        text(&o.stderr).contains("already done, kept"),
        "{}",
        text(&o.stderr)
    );
    assert!(!text(&o.stderr).contains("PARTIAL"), "{}", text(&o.stderr));
}

/// Writes `part` with `edit` applied to its JSON into `to`.
fn edited(part: &Path, to: &Path, edit: impl Fn(&mut serde_json::Value)) {
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(part).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(to, serde_json::to_vec(&v).unwrap()).unwrap();
}

/// A part records the rbcheck version and fingerprints of the build (model and catalogue), and
/// `merge` refuses a mixture, saying what differs; a symmetry mismatch is worded as one (before:
/// "rulebook, bound or number of shards differ"); a part of the older format is named as such.
#[test]
fn merge_refuses_a_mixture_of_builds_and_words_each_mismatch() {
    let d = scratch("parts-builds");
    assert_eq!(shard("rup4", 1, 2, &d).status.code(), Some(0));
    assert_eq!(shard("rup4", 2, 2, &d).status.code(), Some(0));
    let p1 = d.join("part-1-of-2.json");
    let p2 = d.join("part-2-of-2.json");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p1).unwrap()).unwrap();
    assert_eq!(v["format"], "rbcheck-part/2");
    assert_eq!(v["version"], env!("CARGO_PKG_VERSION"));
    for k in ["model", "catalogue"] {
        let f = v["build"][k].as_str().unwrap();
        assert!(
            f.len() == 16 && f.chars().all(|c| c.is_ascii_hexdigit()),
            "{k}: {f}"
        );
    }
    let other = d.join("other.json");
    let merge = |second: &Path| {
        let o = rbcheck(&["merge", p1.to_str().unwrap(), second.to_str().unwrap()]);
        (o.status.code(), text(&o.stderr))
    };
    assert_eq!(merge(&p2).0, Some(0), "the two parts of one build merge");
    type Edit = fn(&mut serde_json::Value);
    let cases: [(&str, Edit, &str); 5] = [
        ("model", |v| v["build"]["model"] = "0123456789abcdef".into(), "another build of rbcheck"),
        ("version", |v| v["version"] = "0.0.9".into(), "another build of rbcheck (version 0.0.9"),
        ("catalogue", |v| v["build"]["catalogue"] = "0123456789abcdef".into(), "another card catalogue"),
        ("symmetry", |v| v["part"]["symmetry"] = false.into(), "a symmetry mismatch: explored without symmetry reduction (--no-symmetry), the other with symmetry reduction"),
        ("format", |v| {
            v["format"] = "rbcheck-part/1".into();
            v.as_object_mut().unwrap().remove("build");
        }, "a part written by another version of rbcheck"),
    ];
    for (what, edit, want) in cases {
        let _ = std::fs::remove_file(&other);
        edited(&p2, &other, edit);
        let (code, err) = merge(&other);
        assert_eq!(code, Some(2), "{what}: {err}");
        assert!(err.contains(want), "{what}: expected `{want}` in {err}");
    }
    // A rerun that finds a part of another build there refuses it, saying so.
    std::fs::remove_file(&p2).unwrap();
    edited(&p1, &p2, |v| {
        v["build"]["model"] = "0123456789abcdef".into();
        v["part"]["shard"] = serde_json::json!([1, 2]);
    });
    let o = shard("rup4", 2, 2, &d);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("another build of rbcheck"),
        "{}",
        text(&o.stderr)
    );
}

/// The memory-limited `check` run of the cgroup tests, started through `prefix`, and what it
/// printed.
fn check_in(prefix: &[&str]) -> (Option<i32>, String, String) {
    let bin = env!("CARGO_BIN_EXE_rbcheck");
    let o = Command::new(prefix[0])
        .args(&prefix[1..])
        .args([
            bin, "check", "--rules", BIG, "--bound", "tiny", "--search", "bfs",
        ])
        .current_dir(root())
        .output()
        .unwrap();
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

/// What a run under a memory limit of `limit_mib` must show: the header's budget is 75 % of the
/// limit, named as the cgroup's, and the run stops there, partial, with what it found.
fn assert_stopped_by_the_cgroup(limit_mib: u64, (code, out, err): (Option<i32>, String, String)) {
    let budget = format!(
        "memory budget {} MiB (75 % of the cgroup's memory limit)",
        limit_mib * 3 / 4
    );
    assert!(err.contains(&budget), "expected `{budget}` in: {err}");
    assert_eq!(
        code,
        Some(1),
        "violations found before the stop: {out}{err}"
    );
    assert!(
        out.contains(&format!(
            "PARTIAL RUN: stopped: memory limit of {} MiB reached",
            limit_mib * 3 / 4
        )),
        "{out}"
    );
}

/// A real cgroup memory limit (enforced by the kernel): `check` reads it, sets its default
/// budget to 75 % of it and stops there with a PARTIAL RUN instead of being killed. The limit
/// comes from `systemd-run --scope -p MemoryMax=` where systemd runs, or from a writable cgroup
/// folder named by `RBCHECK_TEST_CGROUP` (v2 `memory.max` or v1 `memory.limit_in_bytes`);
/// where neither is available the test says why and checks nothing.
#[test]
fn check_under_a_cgroup_memory_limit_stops_partial() {
    const LIMIT_MIB: u64 = 160;
    if let Ok(dir) = std::env::var("RBCHECK_TEST_CGROUP") {
        let dir = PathBuf::from(dir);
        let file = ["memory.max", "memory.limit_in_bytes"]
            .into_iter()
            .map(|f| dir.join(f))
            .find(|f| f.exists())
            .unwrap_or_else(|| panic!("{}: no memory.max or memory.limit_in_bytes", dir.display()));
        std::fs::write(&file, (LIMIT_MIB << 20).to_string()).unwrap();
        let procs = dir.join("cgroup.procs");
        let bin = env!("CARGO_BIN_EXE_rbcheck");
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "echo $$ > '{}' && exec '{bin}' check --rules {BIG} --bound tiny --search bfs",
                procs.display()
            ))
            .current_dir(root())
            .output()
            .unwrap();
        assert_stopped_by_the_cgroup(
            LIMIT_MIB,
            (o.status.code(), text(&o.stdout), text(&o.stderr)),
        );
        return;
    }
    let probe = Command::new("systemd-run")
        .args([
            "--scope",
            "--quiet",
            "-p",
            &format!("MemoryMax={LIMIT_MIB}M"),
            "true",
        ])
        .output();
    match probe {
        Ok(p) if p.status.success() => {
            let max = format!("MemoryMax={LIMIT_MIB}M");
            let run = check_in(&["systemd-run", "--scope", "--quiet", "-p", &max]);
            assert_stopped_by_the_cgroup(LIMIT_MIB, run);
        }
        Ok(p) => println!(
            "SKIPPED: no cgroup memory limit can be set here: `systemd-run --scope` fails ({}) and RBCHECK_TEST_CGROUP names no writable cgroup folder",
            text(&p.stderr).lines().next().unwrap_or("no reason given")
        ),
        Err(e) => println!(
            "SKIPPED: no cgroup memory limit can be set here: systemd-run cannot be run ({e}) and RBCHECK_TEST_CGROUP names no writable cgroup folder"
        ),
    }
}

/// What `check` reads of a cgroup, tested where no real limit can be set: in a private mount
/// namespace (`unshare --mount`, root only; nothing outside the test's own process sees it) a
/// cgroup folder whose `memory.max` says 64 MiB is mounted where rbcheck looks for its cgroup's
/// limit, so the default budget is 48 MiB and the run stops there with a PARTIAL RUN. The kernel
/// enforces nothing here: this checks rbcheck's half of the promise, the test above both halves.
#[test]
fn check_reads_its_cgroups_memory_limit_and_stops_partial_under_it() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_rbcheck");
    let script = format!(
        "mount -t tmpfs rbcheck-test /sys/fs/cgroup && echo {} > /sys/fs/cgroup/memory.max && exec '{bin}' check --rules {BIG} --bound tiny --search bfs",
        64u64 << 20
    );
    let o = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", &script])
        .current_dir(root())
        .output();
    match o {
        Ok(o) if text(&o.stderr).contains("rbcheck check:") => {
            assert_stopped_by_the_cgroup(64, (o.status.code(), text(&o.stdout), text(&o.stderr)));
        }
        Ok(o) => println!(
            "SKIPPED: no private mount namespace here (`unshare --mount` needs root): {}",
            text(&o.stderr).lines().next().unwrap_or("")
        ),
        Err(e) => println!("SKIPPED: unshare cannot be run: {e}"),
    }
}
