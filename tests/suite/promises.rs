//! The documented promises about inputs (docs/outputs.md, "Output folders and input files") tested
//! as a user meets them: every read has a size cap and refuses what is not a regular file, `serve`
//! writes no file, and messages name the file, the line and what is wrong.

use crate::shared::{rbcheck, root};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rbcheck-promises-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(path: &Path, s: &str) {
    std::fs::write(path, s).unwrap();
}

const CASE: &str = "rbcheck-case 1\nrules rup4\nunit A \"Practice Dummy\" opponent battlefield 1\npool you [6][Y][Y]\nhand you \"Hidden Blade\"\nyou play \"Hidden Blade\"\nexec 1 target 1 A\npay\nexpect executions item 1 1\n";

/// `--rules /dev/zero`, a FIFO, a case naming `/dev/zero` as its rules, a bound and a case file
/// that are devices: each is refused at once, naming the file and why (before, rbcheck read
/// /dev/zero until memory ran out, and a FIFO blocked).
#[test]
fn devices_fifos_and_huge_files_are_refused_naming_the_file() {
    let d = scratch("caps");
    let fifo = d.join("fifo.toml");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let fifo = fifo.to_str().unwrap();
    for args in [
        vec!["check", "--rules", "/dev/zero", "--bound", "tiny"],
        vec!["check", "--rules", fifo, "--bound", "tiny"],
        vec!["check", "--bound", "/dev/zero"],
        vec!["fmt", "/dev/zero"],
    ] {
        let o = rbcheck(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("cannot read: not a regular file"),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    let big = d.join("big.toml");
    write(
        &big,
        &format!("base = \"rup4\"\n#{}\n", "x".repeat(5 << 20)),
    );
    let o = rbcheck(&["check", "--rules", big.to_str().unwrap(), "--bound", "tiny"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("big.toml: cannot read: larger than the 4 MiB rbcheck reads"),
        "{}",
        text(&o.stderr)
    );
    let case = d.join("zero.case");
    write(&case, &CASE.replace("rules rup4", "rules \"/dev/zero\""));
    let o = rbcheck(&["replay", case.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stdout).contains(":2: rules `/dev/zero`: not a preset (v1.2, v1.3, rup4, guide), and the rulebook file /dev/zero: cannot read: not a regular file (it is a device)"),
        "{}",
        text(&o.stdout)
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// A rulebook file that does not exist is not an "unknown rulebook": the message says the file
/// cannot be read and why. A name that is no path is still "unknown".
#[test]
fn a_missing_rulebook_file_says_it_cannot_be_read() {
    let o = rbcheck(&["check", "--rules", "no/such/rules.toml", "--bound", "tiny"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr).trim(),
        "rbcheck: no/such/rules.toml: cannot read: No such file or directory (os error 2)"
    );
    let o = rbcheck(&["check", "--bound", "no-such-bound.toml"]);
    assert!(
        text(&o.stderr).contains("no-such-bound.toml: cannot read: No such file"),
        "{}",
        text(&o.stderr)
    );
    let o = rbcheck(&["check", "--rules", "rup5"]);
    assert!(text(&o.stderr).contains("unknown rulebook `rup5`: expected one of"));
    let d = scratch("missing-rules");
    let case = d.join("a.case");
    write(&case, &CASE.replace("rules rup4", "rules \"gone.toml\""));
    let o = rbcheck(&["replay", case.to_str().unwrap()]);
    assert!(
        text(&o.stdout).contains(
            "a.case:2: rules `gone.toml`: not a preset (v1.2, v1.3, rup4, guide), and the rulebook file"
        ) && text(&o.stdout).contains("gone.toml: cannot read: No such file"),
        "{}",
        text(&o.stdout)
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// A rulebook with errors on lines 7 and 9 reports line 7, the first in the file, whatever the
/// fields' names (before: line 9, the first in key order).
#[test]
fn a_rulebook_reports_its_first_error_by_line() {
    let d = scratch("rulebook-lines");
    let rb = d.join("two-errors.toml");
    write(
        &rb,
        "base = \"rup4\"\n\n\n\n\n\nzzz_field = 3\n\ndeflect = 3\n",
    );
    let o = rbcheck(&["check", "--rules", rb.to_str().unwrap(), "--bound", "tiny"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("two-errors.toml:7: unknown field `zzz_field`"),
        "{}",
        text(&o.stderr)
    );
    write(
        &rb,
        "base = \"rup4\"\n\n\n\n\n\ndeflect = 3\n\naaa_field = 1\n",
    );
    let o = rbcheck(&["check", "--rules", rb.to_str().unwrap(), "--bound", "tiny"]);
    let e = text(&o.stderr);
    assert!(
        e.contains("two-errors.toml:7: ") && e.contains("`deflect`"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "one line: {e}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// An `attack` naming a unit without a "when I attack" ability is reported at the `attack`
/// line with its label and card (before: line 1 and "unit 2").
#[test]
fn an_attack_error_names_its_line_and_label() {
    let d = scratch("attack");
    let case = d.join("a.case");
    write(
        &case,
        "rbcheck-case 1\nrules rup4\n\nunit D \"Vendetta Duelist\" you battlefield 1\nunit E \"Practice Dummy\" opponent battlefield 1\nother-cards you 3\nattack E\n\nmay perform\n",
    );
    let o = rbcheck(&["replay", case.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stdout).contains(
            "a.case:7: `attack E`: E is Practice Dummy, which has no \"when I attack\" ability"
        ),
        "{}",
        text(&o.stdout)
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// `rbcheck serve` parses a request's rulebook in memory: with a temp folder it cannot write
/// to, it still answers (before, it wrote the rulebook to a predictable file there, and
/// followed a link planted at that name).
#[test]
fn serve_writes_no_file_for_a_rulebook() {
    let case_path =
        root().join("corpus/cases/discount-per-execution-edit-find-your-center-costs-two.case");
    let case = rbcheck::case::parse(&std::fs::read_to_string(&case_path).unwrap()).unwrap();
    let req = rbcheck::engine::protocol::request(&case, case_path.parent(), 1).unwrap();
    assert!(req.rulebook.is_some());
    let tmp = scratch("serve-tmp");
    let ro = tmp.join("not-a-folder");
    write(&ro, "");
    let mut child = crate::shared::command()
        .arg("serve")
        .env("TMPDIR", &ro)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    writeln!(input, r#"{{"type":"hello","protocol":"rbcheck-engine/1"}}"#).unwrap();
    writeln!(input, "{}", serde_json::to_string(&req).unwrap()).unwrap();
    writeln!(input, r#"{{"type":"bye"}}"#).unwrap();
    drop(input);
    let o = child.wait_with_output().unwrap();
    let out = text(&o.stdout);
    let answer = out.lines().nth(1).unwrap_or_default();
    assert!(answer.contains(r#""type":"result""#), "{out}");
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        1,
        "no file beside"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// The symlink attack itself: links planted in a writable temp folder at the names `serve`
/// once wrote each request's rulebook to (`rbcheck-serve-PID-N.toml`), pointing at a file of the
/// user's. The answer comes, the file is untouched and nothing appears beside the links.
#[test]
fn serve_follows_no_link_planted_in_the_temp_folder() {
    let case_path =
        root().join("corpus/cases/discount-per-execution-edit-find-your-center-costs-two.case");
    let case = rbcheck::case::parse(&std::fs::read_to_string(&case_path).unwrap()).unwrap();
    let req = rbcheck::engine::protocol::request(&case, case_path.parent(), 1).unwrap();
    assert!(req.rulebook.is_some());
    let tmp = scratch("serve-links");
    let victim = tmp.join("victim.txt");
    write(&victim, "the user's file\n");
    let mut child = crate::shared::command()
        .arg("serve")
        .env("TMPDIR", &tmp)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // serve reads nothing until the hello: the links are in place before any request.
    for n in 0..8 {
        let link = tmp.join(format!("rbcheck-serve-{}-{n}.toml", child.id()));
        std::os::unix::fs::symlink(&victim, link).unwrap();
    }
    let mut input = child.stdin.take().unwrap();
    writeln!(input, r#"{{"type":"hello","protocol":"rbcheck-engine/1"}}"#).unwrap();
    for _ in 0..3 {
        writeln!(input, "{}", serde_json::to_string(&req).unwrap()).unwrap();
    }
    writeln!(input, r#"{{"type":"bye"}}"#).unwrap();
    drop(input);
    let o = child.wait_with_output().unwrap();
    let out = text(&o.stdout);
    assert_eq!(
        out.lines()
            .filter(|l| l.contains(r#""type":"result""#))
            .count(),
        3,
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "the user's file\n"
    );
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        9,
        "no file beside"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// A `serve` request line longer than the cap is answered with an error and skipped; the next
/// line is still answered (before, the whole line was read into memory).
#[test]
fn serve_caps_request_lines() {
    let mut child = crate::shared::command()
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        writeln!(input, r#"{{"type":"hello","protocol":"rbcheck-engine/1"}}"#)?;
        input.write_all(&vec![b'x'; 5 << 20])?;
        writeln!(input)?;
        writeln!(input, r#"{{"type":"nonsense","id":7}}"#)?;
        writeln!(input, r#"{{"type":"bye"}}"#)
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[1].contains("a line longer than 4 MiB"),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains(r#""id":7"#), "{}", lines[2]);
}

fn rbcheck_in(dir: &Path, args: &[&str]) -> Output {
    crate::shared::command()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("rbcheck runs")
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn rulebook(name: &str) -> String {
    root()
        .join("corpus/rulebooks")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A trace the case format cannot express: the report is printed, the other formats are
/// written, the case file is skipped with a reason, and the exit code is the verdict's (before:
/// exit 2, "the written case does not replay", no report and no files).
#[test]
fn an_export_that_cannot_express_a_trace_writes_the_rest_and_keeps_the_verdict() {
    let d = scratch("skip");
    let rb = rulebook("new-choices-reopen-repeat.toml");
    let o = rbcheck_in(
        &d,
        &[
            "check", "--rules", &rb, "--bound", "tiny", "--traces", "out",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("2 properties violated"),
        "{}",
        text(&o.stdout)
    );
    let err = text(&o.stderr);
    assert!(
        err.contains(
            "01-choices-fixed-at-play.case: not written: the written case does not replay"
        ),
        "{err}"
    );
    let files = entries(&d.join("out"));
    assert_eq!(files.len(), 6, "{files:?}");
    assert!(files.iter().all(|f| !f.ends_with(".case")), "{files:?}");
    assert_eq!(entries(&d), vec!["out"]);
    std::fs::remove_dir_all(&d).unwrap();
}

/// Every output target is checked before the run, and a refused one leaves nothing behind:
/// the same folder twice, `.`, a link, a file, a folder that cannot be made, a non-empty folder
/// (for `check`, `fuzz --out` and `fuzz --keep`).
#[test]
fn bad_output_targets_are_refused_before_the_run_and_leave_nothing() {
    let d = scratch("targets");
    std::fs::create_dir(d.join("empty")).unwrap();
    std::os::unix::fs::symlink(d.join("empty"), d.join("link")).unwrap();
    write(&d.join("afile"), "");
    std::fs::create_dir(d.join("full")).unwrap();
    write(&d.join("full/x"), "mine");
    let before = entries(&d);
    let rb = rulebook("one-target-list.toml");
    let engine = format!(
        "python3 {}",
        root().join("tests/engines/reference_engine.py").display()
    );
    let cases: &[(&[&str], &str)] = &[
        (&["--cases", "x", "--traces", "x"], "name the same folder x"),
        (&["--cases", "."], "name the output folder itself"),
        (&["--traces", "link"], "is a symbolic link"),
        (&["--cases", "afile"], "exists and is not a folder"),
        (&["--cases", "/proc/nope"], "cannot make a folder there"),
        (&["--cases", "full"], "exists and is not empty"),
    ];
    for (extra, why) in cases {
        let mut args = vec!["check", "--rules", &rb, "--bound", "tiny"];
        args.extend_from_slice(extra);
        let o = rbcheck_in(&d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains(why),
            "{args:?}: {}",
            text(&o.stderr)
        );
        assert!(o.stdout.is_empty(), "refused before the run: {args:?}");
        assert_eq!(entries(&d), before, "{args:?} left something");
    }
    let fuzz: &[(&[&str], &str)] = &[
        (&["--out", "afile"], "exists and is not a folder"),
        (&["--out", "full"], "exists and is not empty"),
        (&["--keep", "full"], "exists and is not empty"),
        (&["--keep", "/proc/nope"], "cannot make a folder there"),
        (&["--keep", "k", "--out", "k"], "name the same folder k"),
    ];
    for (extra, why) in fuzz {
        let mut args = vec!["fuzz", "--engine", &engine, "--cases", "2"];
        args.extend_from_slice(extra);
        let o = rbcheck_in(&d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains(why),
            "{args:?}: {}",
            text(&o.stderr)
        );
        assert_eq!(entries(&d), before, "{args:?} left something");
    }
    assert_eq!(std::fs::read_to_string(d.join("full/x")).unwrap(), "mine");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Outputs nested inside one another are compared before the run, by the one function every
/// command calls, whatever exists yet: each command is refused at once (exit 2), prints no
/// report and leaves nothing (before: `check --cases X --traces X/t` printed its verdict then
/// exited 2 writing nothing, `fuzz --out O --keep O/k` printed findings whose files did not
/// exist, `fuzz --keep K --html K/r.html` printed and wrote nothing, and the others were
/// refused as "exists and is not empty" about a folder the command itself had just made).
#[test]
fn outputs_nested_inside_one_another_are_refused_before_the_run() {
    let d = scratch("nested");
    std::fs::create_dir(d.join("empty")).unwrap();
    let before = entries(&d);
    let rb = rulebook("one-target-list.toml");
    let engine = format!(
        "python3 {}",
        root().join("tests/engines/reference_engine.py").display()
    );
    let check = |extra: &[&str]| -> Vec<String> {
        let mut a = vec![
            "check".to_string(),
            "--rules".into(),
            rb.clone(),
            "--bound".into(),
            "tiny".into(),
            "--quiet".into(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let fuzz = |extra: &[&str]| -> Vec<String> {
        let mut a = vec![
            "fuzz".to_string(),
            "--engine".into(),
            engine.clone(),
            "--cases".into(),
            "3".into(),
            "--quiet".into(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let diff = |extra: &[&str]| -> Vec<String> {
        let mut a = vec![
            "diff".to_string(),
            "v1.3".into(),
            "rup4".into(),
            "--bound".into(),
            "tiny".into(),
            "--quiet".into(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let runs: Vec<(Vec<String>, &str)> = vec![
        (
            check(&["--cases", "X", "--traces", "X/t"]),
            "--traces X/t lies inside --cases X",
        ),
        (
            check(&["--traces", "X/t", "--cases", "X"]),
            "--traces X/t lies inside --cases X",
        ),
        (
            check(&["--cases", "X", "--html", "X/r.html"]),
            "--html X/r.html lies inside --cases X",
        ),
        (
            check(&["--cases", "empty", "--traces", "empty/deep/t"]),
            "--traces empty/deep/t lies inside --cases empty",
        ),
        (
            check(&["--html", "X", "--cases", "X/c"]),
            "--cases X/c lies inside --html X, which is a file",
        ),
        (
            check(&["--cases", "X", "--html", "X"]),
            "--cases and --html name the same path X",
        ),
        (
            fuzz(&["--out", "O", "--keep", "O/k"]),
            "--keep O/k lies inside --out O",
        ),
        (
            fuzz(&["--keep", "K", "--html", "K/r.html"]),
            "--html K/r.html lies inside --keep K",
        ),
        (
            fuzz(&["--out", "O/a/b", "--keep", "O"]),
            "--out O/a/b lies inside --keep O",
        ),
        (
            diff(&["--out", "D", "--html", "D/r.html"]),
            "--html D/r.html lies inside --out D",
        ),
        (
            check(&["--shard", "1/2", "--parts", "P"]),
            "--parts expects an existing folder",
        ),
    ];
    for (args, why) in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = rbcheck_in(&d, &args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: expected `{why}` in {err}");
        assert!(!err.contains("not empty"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "refused before the run: {args:?}");
        assert_eq!(entries(&d), before, "{args:?} left something");
        assert!(
            entries(&d.join("empty")).is_empty(),
            "{args:?} left something"
        );
    }
    // Side by side, under a parent that does not exist yet, they are fine.
    let o = rbcheck_in(
        &d,
        &check(&[
            "--cases",
            "new/c",
            "--traces",
            "new/t",
            "--html",
            "new/r.html",
        ])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    assert_eq!(entries(&d.join("new")), vec!["c", "r.html", "t"]);
    std::fs::remove_dir_all(&d).unwrap();
}

/// An output path through `..` gives the cases the right relative path to their rulebook
/// (before: computed from the unresolved path, `../../../rb/...` for `x/../out`, so the run
/// failed at the end with "the written case does not replay").
#[test]
fn an_output_path_through_dotdot_gives_replayable_cases() {
    let d = scratch("dotdot");
    std::fs::create_dir_all(d.join("rb")).unwrap();
    std::fs::create_dir_all(d.join("x")).unwrap();
    std::fs::copy(
        rulebook("one-target-list.toml"),
        d.join("rb/one-target-list.toml"),
    )
    .unwrap();
    let o = rbcheck_in(
        &d,
        &[
            "check",
            "--rules",
            "rb/one-target-list.toml",
            "--bound",
            "tiny",
            "--cases",
            "x/../out",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let written = d.join("out");
    let files = entries(&written);
    assert_eq!(files.len(), 1);
    let case = std::fs::read_to_string(written.join(&files[0])).unwrap();
    assert!(
        case.contains("\nrules \"../rb/one-target-list.toml\"\n"),
        "{case}"
    );
    let o = rbcheck(&["replay", written.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    std::fs::remove_dir_all(&d).unwrap();
}

/// SIGINT (or SIGTERM) during a run removes the staged output: nothing is left, and the
/// process ends by the signal (before: an empty folder stayed).
#[test]
fn an_interrupted_run_leaves_nothing_behind() {
    for sig in ["INT", "TERM"] {
        let d = scratch(&format!("sig{sig}"));
        let mut child = crate::shared::command()
            .args([
                "check",
                "--bound",
                "default",
                "--threads",
                "1",
                "--cases",
                "out",
            ])
            .current_dir(&d)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait for the staging folder: the handler is installed by then.
        let start = std::time::Instant::now();
        while entries(&d).is_empty() && start.elapsed().as_secs() < 20 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(!entries(&d).is_empty(), "staged before the run");
        std::thread::sleep(std::time::Duration::from_millis(200));
        let killed = Command::new("kill")
            .args([format!("-{sig}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert!(status.signal().is_some(), "ended by the signal: {status:?}");
        assert_eq!(entries(&d), Vec::<String>::new(), "SIG{sig} left files");
        std::fs::remove_dir_all(&d).unwrap();
    }
}

/// A 41st unit is reported at its own line with its label (before: the first board line, "at
/// most 40 units and 40 gear").
#[test]
fn too_many_units_are_reported_at_the_one_too_many() {
    let d = scratch("units");
    let mut text = String::from("rbcheck-case 1\nrules rup4\n");
    for i in 1..=41 {
        text.push_str(&format!(
            "unit U{i} \"Practice Dummy\" opponent battlefield 1\n"
        ));
    }
    text.push_str("hand you \"Hidden Blade\"\nyou play \"Hidden Blade\"\n");
    let case = d.join("many.case");
    write(&case, &text);
    let o = rbcheck(&["replay", case.to_str().unwrap()]);
    assert!(
        text_of(&o).contains("many.case:43: unit U41: a case has at most 40 units"),
        "{}",
        text_of(&o)
    );
    std::fs::remove_dir_all(&d).unwrap();
}

fn text_of(o: &Output) -> String {
    text(&o.stdout)
}

/// A `--keep` case file that cannot be written stops the run with exit 2 and says why (it was
/// once ignored, leaving a folder that silently missed cases).
#[test]
fn a_keep_file_that_cannot_be_written_stops_the_fuzz_run_and_says_so() {
    let d = scratch("keep-fails");
    let engine = format!(
        "python3 {}",
        root().join("tests/engines/reference_engine.py").display()
    );
    // `ulimit -f 0`: no file may grow; SIGXFSZ ignored, so the write fails with EFBIG.
    let o = std::process::Command::new("sh")
        .current_dir(&d)
        .arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f 0; exec '{}' fuzz --engine \"{engine}\" --cases 5 --keep kept --out out",
            env!("CARGO_BIN_EXE_rbcheck"),
        ))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--keep: cannot write"), "{err}");
}
