//! The engine protocol (`corpus/PROTOCOL.md`): `rbcheck serve` answers the handshake and cases;
//! requests round-trip; the reference engine agrees with the model on the corpus; engines that
//! crash, hang, print garbage or speak another version are reported as such and fuzzing goes on.

use crate::shared::root;
use rbcheck::case;
use rbcheck::engine::fuzz::{check_files, fuzz, FuzzConfig, Verdict};
use rbcheck::engine::observe::model_observation;
use rbcheck::engine::protocol::*;
use rbcheck::engine::{Engine, ModelEngine, ProcessEngine};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn engine_cmd(script: &str, args: &str) -> String {
    format!(
        "python3 {} {args}",
        root().join("tests/engines").join(script).display()
    )
}

fn corpus_case(name: &str) -> (case::Case, PathBuf) {
    let path = root().join("corpus/cases").join(name);
    let text = std::fs::read_to_string(&path).expect("the corpus case exists");
    (case::parse(&text).expect("it parses"), path)
}

#[test]
fn serve_answers_the_handshake_and_a_case() {
    let mut child = crate::shared::command()
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rbcheck serve starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    writeln!(
        stdin,
        "{}",
        serde_json::to_string(&ClientHello::new()).unwrap()
    )
    .unwrap();
    let hello: Hello = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(hello.protocol, PROTOCOL);
    assert_eq!(hello.engine, "rbcheck-model");
    assert!(hello.supports_rules("rup4") && hello.supports("new-choices"));

    let (c, path) = corpus_case("hidden-blade-repeated-draws-two.case");
    let req = request(&c, path.parent(), 7).unwrap();
    assert_eq!(req.features, vec!["spells", "grants"]);
    assert!(req.cards.iter().any(|c| c["name"] == "Hidden Blade"));
    writeln!(stdin, "{}", serde_json::to_string(&req).unwrap()).unwrap();
    let line = lines.next().unwrap().unwrap();
    let Reply::Result(obs) = parse_reply(&line, 7).unwrap() else {
        panic!("not a result: {line}")
    };
    assert_eq!(obs.legal, Some(true));
    let item = &obs.items.as_ref().unwrap()[0];
    assert_eq!(item.executions, Some(2));
    assert_eq!(item.paid.as_deref(), Some("[4][Y][Y]"));
    let ins = item.instructions.as_ref().unwrap();
    assert_eq!(ins[3].reason.as_deref(), Some("linked-not-executed"));
    assert_eq!(obs.players.as_ref().unwrap()["opponent"].hand_size, Some(2));

    // An illegal case names the statement.
    let (c, path) = corpus_case("deserts-call-one-instance-paid-twice-illegal.case");
    let req = request(&c, path.parent(), 8).unwrap();
    writeln!(stdin, "{}", serde_json::to_string(&req).unwrap()).unwrap();
    let line = lines.next().unwrap().unwrap();
    let Reply::Result(obs) = parse_reply(&line, 8).unwrap() else {
        panic!("not a result: {line}")
    };
    assert_eq!(obs.legal, Some(false));
    let ill = obs.illegal.unwrap();
    assert_eq!((ill.line, ill.play), (Some(13), Some(2)));
    assert_eq!(ill.rule.as_deref(), Some("820.1.c.3"));

    // Garbage gets an error, not a crash; `bye` ends the session.
    writeln!(stdin, "not json").unwrap();
    assert!(lines.next().unwrap().unwrap().contains("\"error\""));
    writeln!(stdin, "{{\"type\":\"bye\"}}").unwrap();
    assert!(child.wait().unwrap().success());
}

/// `rbcheck serve` sent `input` on stdin, its output once it ends.
fn serve_with(input: &[u8]) -> std::process::Output {
    crate::shared::command()
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(input)?;
            c.wait_with_output()
        })
        .unwrap()
}

#[test]
fn serve_refuses_another_protocol_version() {
    let out = serve_with(b"{\"type\":\"hello\",\"protocol\":\"rbcheck-engine/9\"}\n");
    assert!(String::from_utf8_lossy(&out.stdout).contains("rbcheck-engine/2"));
    assert_eq!(out.status.code(), Some(2));
}

/// A message with no `type`, or one serve does not know, is answered with an error that says
/// which types there are, and serve goes on.
#[test]
fn serve_names_the_message_types_it_knows() {
    let out = serve_with(b"{\"bogus\":1}\n{\"type\":\"banana\",\"id\":4}\n{\"type\":\"bye\"}\n");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0]["type"], "error");
    assert_eq!(
        lines[0]["message"],
        "a message needs a string `type`: hello, case or bye"
    );
    assert_eq!(lines[1]["id"], 4);
    assert_eq!(
        lines[1]["message"],
        "unknown message type `banana` (expected hello, case or bye)"
    );
    assert_eq!(out.status.code(), Some(0), "{text}");
}

/// `rbcheck serve` answers a v1 client in v1: its v1 features, and results without v2 fields;
/// a v2 client gets them.
#[test]
fn serve_answers_a_v1_client_in_v1_and_a_v2_client_in_v2() {
    let (c, path) = corpus_case("hidden-blade-repeated-draws-two.case");
    let req = serde_json::to_string(&request(&c, path.parent(), 1).unwrap()).unwrap();
    for (hello, v2) in [
        (serde_json::to_string(&ClientHello::v1()).unwrap(), false),
        (serde_json::to_string(&ClientHello::new()).unwrap(), true),
    ] {
        let out = crate::shared::command()
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .and_then(|mut ch| {
                write!(
                    ch.stdin.take().unwrap(),
                    "{hello}\n{req}\n{{\"type\":\"bye\"}}\n"
                )?;
                ch.wait_with_output()
            })
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let mut lines = text.lines();
        let h: Hello = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(h.is_v1(), !v2);
        assert_eq!(h.features.iter().any(|f| f == "deck-cards"), v2);
        let Reply::Result(o) = parse_reply(lines.next().unwrap(), 1).unwrap() else {
            panic!("{text}")
        };
        assert_eq!(o.events.is_some(), v2, "{text}");
        let you = &o.players.as_ref().unwrap()["you"];
        assert_eq!(you.grants, v2.then_some(GrantsObs::default()), "{text}");
    }
}

/// The model's v2 fields, read from what happened: the modes each execution ran, Might and
/// statuses of units on the board, grants left, and the events in order.
#[test]
fn the_model_states_every_v2_field() {
    let (c, path) = corpus_case("hidden-blade-repeated-draws-two.case");
    let o = model_observation(&c, path.parent()).unwrap();
    let ev: Vec<String> = o.events.unwrap().iter().map(|e| e.words()).collect();
    assert_eq!(
        ev,
        ["item 1 exec 1", "item 1 exec 2", "item 1 played"],
        "executions, then the play event"
    );
    // The Portal's grant was taken by the spell.
    let you = &o.players.as_ref().unwrap()["you"];
    assert_eq!(you.grants, Some(GrantsObs::default()));
    // A killed unit has no Might or statuses; one on the board has them.
    assert_eq!(o.units.as_ref().unwrap()["A"].might, None);
    // A spell does not enter the board; a unit played from hand does, where it was played,
    // ready only if its [Accelerate] was paid (359.2, 805).
    assert_eq!(o.items.as_ref().unwrap()[0].entered, None);
    for (file, location, ready) in [
        (
            "legion-rearguard-accelerate-paid-enters-ready.case",
            "battlefield 1",
            true,
        ),
        (
            "legion-rearguard-accelerate-skipped-enters-exhausted.case",
            "base you",
            false,
        ),
    ] {
        let (c, path) = corpus_case(file);
        let o = model_observation(&c, path.parent()).unwrap();
        let e = o.items.as_ref().unwrap()[0].entered.clone();
        let want = EnteredObs {
            location: location.into(),
            ready,
        };
        assert_eq!(e, Some(want), "{file}");
    }
    let files = case::collect(&[root().join("corpus/cases")]).unwrap();
    let (mut modal, mut on_board) = (0, 0);
    for f in files {
        let c = case::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let Ok(o) = model_observation(&c, f.parent()) else {
            continue;
        };
        for it in o.items.iter().flatten() {
            if let (Some(m), Some(k)) = (&it.modes, it.executions) {
                assert_eq!(
                    m.len() as u32,
                    k,
                    "{}: one mode per execution run",
                    f.display()
                );
                modal += 1;
            }
        }
        for u in o.units.iter().flat_map(|m| m.values()) {
            assert_eq!(u.might.is_some(), u.zone.as_deref() == Some("board"));
            on_board += usize::from(u.might.is_some());
        }
    }
    assert!(modal >= 3 && on_board >= 10, "{modal} {on_board}");
}

/// What a count-shaped engine may be unable to say is named (it is sent all the same: a
/// decline is a conformance gap under that word's rule), and the comparison leaves out only
/// which instances were paid, keeping how many, and the modes each execution ran.
#[test]
fn a_count_shape_is_compared_only_on_what_it_can_express() {
    let count: Hello = serde_json::from_str(
        r#"{"protocol":"rbcheck-engine/2","engine":"c","repeat":"count","features":["spells"]}"#,
    )
    .unwrap();
    let inst = Hello {
        repeat: RepeatShape::Instances,
        ..count.clone()
    };
    let text = |plays: &str| {
        format!("rbcheck-case 1\nrules rup4\nunit A \"Practice Dummy\" opponent battlefield 1\nunit B \"Practice Dummy\" opponent battlefield 1\npool you [9][R][R][R]\nhand you \"Rocket Barrage\"\nportal you\n\n{plays}")
    };
    let req = |plays: &str| request(&case::parse(&text(plays)).unwrap(), None, 1).unwrap();
    // The same targets for both executions, instances in order: a count says it.
    let same = req(
        "you play \"Rocket Barrage\"\nrepeat 1 pay\nexec 1 target 1 A\nexec 2 target 1 A\npay\n",
    );
    assert_eq!(count.inexpressible(&same), None);
    // Another target for execution 2, or instance 1 skipped and 2 paid: a count cannot.
    let other = req(
        "you play \"Rocket Barrage\"\nrepeat 1 pay\nexec 1 target 1 A\nexec 2 target 1 B\npay\n",
    );
    assert_eq!(
        count.inexpressible(&other).as_deref(),
        Some("per-execution-choices")
    );
    assert_eq!(inst.inexpressible(&other), None);
    // Instance numbers are left out of a count's comparison; a count of payments and the modes
    // stay.
    let mut o = Observation {
        items: Some(vec![ItemObs {
            item: 1,
            modes: Some(vec![1, 2]),
            repeat_paid: Some(vec![2]),
            ..ItemObs::default()
        }]),
        ..Observation::default()
    };
    let c = count.expressible(&o);
    let it = &c.items.as_ref().unwrap()[0];
    assert_eq!(
        (it.modes.clone(), it.repeat_paid.clone()),
        (Some(vec![1, 2]), Some(vec![1]))
    );
    assert_eq!(inst.expressible(&o), o);
    o.items.as_mut().unwrap()[0].modes = None;
    assert_eq!(
        count.expressible(&o).items.unwrap()[0].repeat_paid,
        Some(vec![1])
    );
}

/// Every corpus case makes a request that serializes, parses back, and rebuilds (from the
/// structured fields alone) a case the model replays to the same outcome.
#[test]
fn requests_round_trip_through_json_and_back_to_cases() {
    let files = case::collect(&[root().join("corpus/cases")]).unwrap();
    assert!(files.len() >= 40);
    let mut model = ModelEngine::new();
    for f in files {
        let c = case::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let req = request(&c, f.parent(), 1).unwrap();
        let json = serde_json::to_string(&req).unwrap();
        let back: CaseRequest = serde_json::from_str(&json).unwrap();
        assert_eq!(back, req, "{}", f.display());
        let want = model_observation(&c, f.parent()).unwrap();
        // Without the case text: the model engine rebuilds the case from the fields.
        let structured = CaseRequest {
            case_text: None,
            ..back
        };
        let rebuilt = case_from_request(&structured).unwrap();
        assert_eq!(rebuilt.plays.len(), c.plays.len());
        match model.run(&structured) {
            Reply::Result(got) => {
                let diffs = rbcheck::engine::compare(&req, &want, &got);
                assert!(
                    diffs.differences.is_empty(),
                    "{}: {:?}",
                    f.display(),
                    diffs.differences
                );
                assert!(diffs.not_reported.is_empty(), "{}", f.display());
            }
            other => panic!("{}: {other:?}", f.display()),
        }
    }
}

#[test]
fn garbage_replies_are_told_apart() {
    assert!(parse_reply("{\"type\":\"result\",\"id\":3,\"legal\":true}", 3).is_ok());
    for (line, why) in [
        ("hello", "not JSON"),
        ("[1,2]", "not a JSON object"),
        ("{\"id\":3}", "no `type`"),
        ("{\"type\":\"result\",\"id\":4}", "expected id 3"),
        (
            "{\"type\":\"result\",\"id\":3,\"legal\":\"yes\"}",
            "a bad `result`",
        ),
        ("{\"type\":\"banana\",\"id\":3}", "unknown message type"),
    ] {
        let e = parse_reply(line, 3).unwrap_err();
        assert!(e.contains(why), "{line}: {e}");
    }
    let Ok(Reply::Unsupported { feature, .. }) = parse_reply(
        "{\"type\":\"unsupported\",\"id\":3,\"feature\":\"deflect\"}",
        3,
    ) else {
        panic!()
    };
    assert_eq!(feature, "deflect");
}

/// The clean reference engine agrees with the model on every corpus case it supports, and it
/// supports every feature: it skips only the cases of other rules (rules versions
/// and rulebook files), never one for a feature.
#[test]
fn reference_engine_passes_the_corpus() {
    let mut e = ProcessEngine::new(
        &engine_cmd("reference_engine.py", ""),
        Duration::from_secs(20),
    )
    .unwrap();
    let files = case::collect(&[root().join("corpus/cases")]).unwrap();
    let verdicts = check_files(&mut e, &files).unwrap();
    let mut agree = 0;
    let mut other_rules = 0;
    for v in &verdicts {
        match &v.verdict {
            Verdict::Agree => agree += 1,
            Verdict::Unsupported(f) if f.starts_with("rules") => other_rules += 1,
            other => panic!("{}: {other:?}", v.path.display()),
        }
    }
    assert!(
        agree >= 120,
        "only {agree} corpus cases agree ({other_rules} of other rules)"
    );
}

fn fake(fail: &str, extra: &str, timeout: f64, cases: usize) -> rbcheck::engine::fuzz::FuzzReport {
    let cmd = engine_cmd(
        "fake_engine.py",
        &format!("--fail {fail} --every 6 {extra}"),
    );
    let mut e = ProcessEngine::new(&cmd, Duration::from_secs_f64(timeout)).unwrap();
    fuzz(
        &mut e,
        &FuzzConfig {
            cases: Some(cases),
            ..FuzzConfig::default()
        },
    )
}

fn kinds(r: &rbcheck::engine::fuzz::FuzzReport) -> Vec<String> {
    r.findings.iter().map(|f| f.kind.clone()).collect()
}

/// The clusters of the unmutated reference engine's own disagreements with the model in the
/// first `cases` cases (the fake engine answers as it does): they are not the fake's.
fn reference_kinds(cases: usize) -> Vec<String> {
    let cmd = engine_cmd("reference_engine.py", "");
    let mut e = ProcessEngine::new(&cmd, Duration::from_secs(10)).unwrap();
    let cfg = FuzzConfig {
        cases: Some(cases),
        ..FuzzConfig::default()
    };
    kinds(&fuzz(&mut e, &cfg))
}

#[test]
fn a_crashing_engine_is_reported_and_restarted() {
    let r = fake("crash", "", 10.0, 40);
    assert_eq!(kinds(&r), vec!["engine crash"]);
    let f = &r.findings[0];
    assert!(f.hits >= 3, "{f:?}");
    assert!(f.summary().contains("exit status: 3"), "{}", f.summary());
    assert!(
        f.summary().contains("crashing on case"),
        "stderr is kept: {}",
        f.summary()
    );
    assert_eq!(r.cases, 40, "fuzzing goes on");
    assert!(r.agreed >= 25 && r.aborted.is_none(), "{r:?}");
    // The case that caused it is a valid case.
    assert!(f.case.plays.len() > 1);
}

#[test]
fn a_hanging_engine_is_reported_and_restarted() {
    // 1.5 s, not less: a loaded machine can take longer than that to start the Python engine
    // again, and a slow start would be reported as a second hang.
    let r = fake("hang", "", 1.5, 14);
    assert_eq!(kinds(&r), vec!["engine hang"]);
    assert!(r.findings[0]
        .summary()
        .contains("did not answer within 1.5 s"));
    assert_eq!(r.cases, 14);
    assert!(r.agreed >= 8, "{r:?}");
}

#[test]
fn an_engine_printing_garbage_is_reported_and_restarted() {
    let r = fake("garbage", "", 10.0, 30);
    assert_eq!(kinds(&r), vec!["engine garbage"]);
    assert!(r.findings[0]
        .summary()
        .contains("this is not a protocol message"));
    assert_eq!(r.cases, 30);
    assert!(r.agreed >= 20, "{r:?}");
}

#[test]
fn an_engine_speaking_another_version_is_reported_and_restarted() {
    let state = std::env::temp_dir().join(format!("rbcheck-fake-state-{}", std::process::id()));
    let _ = std::fs::remove_file(&state);
    let r = fake(
        "wrong-version",
        &format!("--state {}", state.display()),
        10.0,
        30,
    );
    let _ = std::fs::remove_file(&state);
    let k = kinds(&r);
    assert!(k.contains(&"engine wrong-version".to_string()), "{k:?}");
    let f = r
        .findings
        .iter()
        .find(|f| f.kind == "engine wrong-version")
        .unwrap();
    assert!(f.summary().contains("rbcheck-engine/0"), "{}", f.summary());
    assert_eq!(r.cases, 30);
    assert!(r.agreed >= 15, "{r:?}");

    // Always the wrong version: the handshake fails, and the run stops (exit code 2).
    let mut e = ProcessEngine::new(
        &engine_cmd("fake_engine.py", "--fail always-wrong-version"),
        Duration::from_secs(10),
    )
    .unwrap();
    assert!(matches!(e.hello(), Err(Fault::WrongVersion { got }) if got == "rbcheck-engine/0"));
    let r = fuzz(&mut e, &FuzzConfig::default());
    assert!(r.engine.is_none() && r.cases == 0);
    assert!(r.aborted.unwrap().contains("rbcheck-engine/0"));
}

/// Each v2 result field an engine gets wrong is caught: every symptom of every finding is that
/// field's difference (findings are grouped by cause; the symptoms say which field showed it).
#[test]
fn an_engine_wrong_in_a_v2_field_is_caught() {
    let mut runs = std::collections::HashMap::new();
    for (fail, kind) in [
        ("wrong-mode", "modes: "),
        ("wrong-might", "might: engine more"),
        // Flipped both ways: staged boards hold exhausted units too (Rallying Cry's stratum).
        ("wrong-status", "status: engine "),
        ("wrong-entered", "entered: engine enters "),
        ("wrong-grants", "grants: "),
        ("wrong-order", "events: engine different order"),
    ] {
        let r = runs
            .entry(fail)
            .or_insert_with(|| fake(fail, "", 10.0, 120));
        let symptoms: Vec<&String> = r.findings.iter().flat_map(|f| f.symptoms.keys()).collect();
        assert!(!r.findings.is_empty(), "{fail}: no finding");
        // Every other field agrees: nothing else is found.
        assert!(
            symptoms.iter().all(|x| x.starts_with(kind)),
            "{fail}: {symptoms:?} (kinds {:?})",
            kinds(r)
        );
    }
    // A wrong mode is caused where the mode is chosen (355.3, 820.2.a); a unit entering
    // otherwise where it entered (359.2, 805 when its [Accelerate] was paid).
    for (fail, rule) in [("wrong-mode", "355.3"), ("wrong-entered", "359.2")] {
        let r = &runs[fail];
        assert!(
            kinds(r).iter().all(|k| k.contains(rule)),
            "{fail}: {:?}",
            kinds(r)
        );
    }
}

/// A count-shaped engine that says every execution ran the first's mode is sent the cases
/// whose executions choose other modes, and caught there (355.3, 820.2.a): its shape hides no
/// deviation. A v1 engine, and a v1 engine that refuses the v2 hello, are driven in v1 and
/// agree.
#[test]
fn count_shaped_and_v1_engines_are_compared_on_what_they_can_say() {
    let mut r = fake("count-shape", "", 10.0, 200);
    let theirs = reference_kinds(200);
    r.findings.retain(|f| !theirs.contains(&f.kind));
    assert!(
        r.findings
            .iter()
            .any(|f| f.cited.contains("820.2.a") || f.cited.contains("355.3")),
        "{:?}",
        kinds(&r)
    );
    assert!(r.unsupported.is_empty(), "{:?}", r.unsupported);
    assert!(r.agreed >= 90, "{r:?}");
    let theirs = reference_kinds(60);
    for fail in ["v1", "v1-strict"] {
        let mut r = fake(fail, "", 10.0, 60);
        r.findings.retain(|f| !theirs.contains(&f.kind));
        assert!(r.findings.is_empty(), "{fail}: {:?}", kinds(&r));
        assert!(
            r.engine.as_ref().unwrap().is_v1() && r.agreed >= 40,
            "{fail}: {r:?}"
        );
    }
}

#[test]
fn an_engine_that_cannot_start_stops_the_run_with_exit_code_2() {
    let o = crate::shared::command()
        .args(["fuzz", "--engine", "./no-such-engine", "--cases", "3"])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stdout).contains("cannot be started"));
    assert!(!Path::new(&std::env::temp_dir())
        .join("fuzz-findings/001-engine-spawn.case")
        .exists());
}

// The bytes on an engine's pipes. Each test runs the fake engine in one of its
// pipe modes (tests/engines/fake_engine.py).

#[test]
fn a_stdout_line_that_is_not_utf8_is_garbage_that_says_so_not_a_crash() {
    let r = fake("non-utf8-stdout", "", 10.0, 14);
    assert_eq!(kinds(&r), vec!["engine garbage"], "{r:?}");
    let s = r.findings[0].summary();
    assert!(s.contains("not UTF-8"), "{s}");
    assert_eq!(r.cases, 14);
    assert!(r.agreed >= 8, "{r:?}");
}

#[test]
fn stderr_that_is_not_utf8_is_drained_and_no_case_becomes_a_false_crash() {
    let r = fake("non-utf8-stderr", "", 10.0, 14);
    assert!(r.findings.is_empty(), "{:?}", kinds(&r));
    assert_eq!(r.cases, 14);
    assert!(r.agreed >= 10, "{r:?}");
}

#[test]
fn an_endless_stdout_line_is_cut_at_the_cap_and_reported() {
    let r = fake("endless-line", "", 20.0, 8);
    assert_eq!(kinds(&r), vec!["engine garbage"], "{r:?}");
    let s = r.findings[0].summary();
    assert!(s.contains("longer than 1 MiB"), "{s}");
    assert_eq!(r.cases, 8);
    assert!(r.agreed >= 5, "{r:?}");
}

/// The engine answers case 3 with two lines (in one write): the fault is case 3's, and case 4
/// (a new process) is answered normally.
#[test]
fn two_lines_for_one_answer_are_blamed_on_that_case() {
    let mut e = ProcessEngine::new(
        &engine_cmd("fake_engine.py", "--fail two-lines --every 3"),
        Duration::from_secs(10),
    )
    .unwrap();
    let (c, path) = corpus_case("hidden-blade-repeated-draws-two.case");
    for id in 1..=5 {
        let req = request(&c, path.parent(), id).unwrap();
        match e.run(&req) {
            Reply::Fault(Fault::Garbage { why, .. }) if id == 3 => {
                assert!(why.contains("second line"), "{why}")
            }
            Reply::Result(_) if id != 3 => {}
            other => panic!("case {id}: {other:?}"),
        }
    }
}

/// Whether a process is running (a zombie is not).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

/// An engine started by a wrapper script (`sh -c '...; exit'`), which starts a child of its own:
/// the hang on every 3rd case kills the whole process group, and so does the end of the run.
#[test]
fn an_engine_and_every_process_it_started_are_killed_on_timeout_and_at_exit() {
    let pids = std::env::temp_dir().join(format!("rbcheck-fake-pids-{}", std::process::id()));
    let _ = std::fs::remove_file(&pids);
    let cmd = format!(
        "sh -c '{}; exit $?'",
        engine_cmd(
            "fake_engine.py",
            &format!("--fail spawns-child --every 3 --state {}", pids.display())
        )
    );
    let mut e = ProcessEngine::new(&cmd, Duration::from_secs_f64(2.0)).unwrap();
    let (c, path) = corpus_case("hidden-blade-repeated-draws-two.case");
    for id in 1..=4 {
        let req = request(&c, path.parent(), id).unwrap();
        let reply = e.run(&req);
        assert_eq!(matches!(reply, Reply::Fault(Fault::Hang { .. })), id == 3);
        if id == 3 {
            // The first process's child was killed with it.
            let first: u32 = std::fs::read_to_string(&pids)
                .unwrap()
                .lines()
                .next()
                .unwrap()
                .parse()
                .unwrap();
            std::thread::sleep(Duration::from_millis(200));
            assert!(!alive(first), "the child {first} outlived the timeout");
        }
    }
    drop(e);
    std::thread::sleep(Duration::from_millis(200));
    let all: Vec<u32> = std::fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    let _ = std::fs::remove_file(&pids);
    assert_eq!(all.len(), 2, "two processes were started");
    let survivors: Vec<_> = all.iter().filter(|p| alive(**p)).collect();
    for p in &survivors {
        let _ = Command::new("kill").arg("-9").arg(p.to_string()).status();
    }
    assert!(survivors.is_empty(), "children left running: {survivors:?}");
}

/// Interrupting rbcheck (SIGINT) kills the engine's whole process group too: it runs in a group
/// of its own, which the terminal's Ctrl-C does not reach, so it was once left running.
#[test]
fn an_interrupted_run_kills_the_engine_and_what_it_started() {
    let d = std::env::temp_dir().join(format!("rbcheck-sigint-engine-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let pids = d.join("pids");
    let engine = engine_cmd(
        "fake_engine.py",
        &format!(
            "--fail spawns-child --every 1000000 --state {}",
            pids.display()
        ),
    );
    let mut run = crate::shared::command()
        .current_dir(&d)
        .args([
            "fuzz", "--engine", &engine, "--cases", "1000000", "--out", "out",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the engine has started its child.
    let mut child_pid = None;
    for _ in 0..200 {
        if let Some(p) = std::fs::read_to_string(&pids)
            .ok()
            .and_then(|t| t.lines().next().and_then(|l| l.parse::<u32>().ok()))
        {
            child_pid = Some(p);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let child_pid = child_pid.expect("the engine started its child");
    let _ = Command::new("kill")
        .args(["-INT", &run.id().to_string()])
        .status();
    let _ = run.wait();
    std::thread::sleep(Duration::from_millis(300));
    let left = alive(child_pid);
    if left {
        let _ = Command::new("kill")
            .arg("-9")
            .arg(child_pid.to_string())
            .status();
    }
    let _ = std::fs::remove_dir_all(&d);
    assert!(
        !left,
        "the engine's child {child_pid} outlived the interrupted run"
    );
}

/// A request carries every card the case names "with the abilities they trigger": also a unit's
/// printed "when you play me" (Ezreal, Prodigy) and the play trigger a paid optional cost adds
/// (Clockwork Keeper, 383.4.a.2). Before, both were left out, so an engine that reads `cards`
/// had no definition for the ability it must put on the chain.
#[test]
fn requests_carry_the_play_triggers_of_units_and_optional_costs() {
    for (file, trigger) in [
        (
            "ezreal-play-trigger-discards-chosen-card-then-draws-two.case",
            "Ezreal, Prodigy: discard",
        ),
        (
            "clockwork-keeper-cost-reduced-to-zero-still-draws.case",
            "Clockwork Keeper: draw",
        ),
        (
            "blast-corps-cadet-paid-deals-two-at-a-battlefield.case",
            "Blast Corps Cadet: deal",
        ),
    ] {
        let (c, path) = corpus_case(file);
        let req = request(&c, path.parent(), 1).unwrap();
        assert!(
            req.cards.iter().any(|c| c["name"] == trigger),
            "{file}: {trigger} missing from {:?}",
            req.cards.iter().map(|c| &c["name"]).collect::<Vec<_>>()
        );
    }
}

/// The JSON blocks of PROTOCOL.md's short path, in order.
fn short_path_blocks() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("corpus/PROTOCOL.md")).unwrap();
    let start = doc
        .find("## The short path")
        .expect("the short path section");
    let end = start + doc[start..].find("\n## ").unwrap();
    doc[start..end]
        .split("```json")
        .skip(1)
        .map(|b| b.split("```").next().unwrap().trim().to_string())
        .collect()
}

/// The short path's hello and minimal result, answered by an engine that knows nothing else,
/// agree with the model on the corpus case the section quotes; the same answer with another
/// Might for B is reported as that difference.
#[test]
fn the_protocols_short_path_works_as_written() {
    let blocks = short_path_blocks();
    assert_eq!(blocks.len(), 3, "{blocks:?}");
    let hello: serde_json::Value = serde_json::from_str(&blocks[0]).expect("the hello is JSON");
    let result: serde_json::Value = serde_json::from_str(&blocks[2]).expect("the result is JSON");
    assert!(blocks[1].contains("\"do\":\"repeat\",\"instance\":1,\"pay\":true"));
    let d = std::env::temp_dir().join(format!("rbcheck-short-path-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    // The engine answers the hello and every case with the section's own JSON.
    let script = d.join("engine.py");
    std::fs::write(
        &script,
        "import json, sys\nhere = sys.argv[1]\nfor line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'hello':\n        print(open(here + '/hello.json').read().strip(), flush=True)\n    elif m['type'] == 'case':\n        r = json.load(open(here + '/result.json'))\n        r['id'] = m['id']\n        print(json.dumps(r), flush=True)\n    else:\n        break\n",
    )
    .unwrap();
    std::fs::write(d.join("hello.json"), hello.to_string()).unwrap();
    let run = |result: &serde_json::Value| {
        std::fs::write(d.join("result.json"), result.to_string()).unwrap();
        let case = root().join("corpus/cases/bonds-of-strength-repeated-two-units-each.case");
        let cmd = format!("python3 {} {}", script.display(), d.display());
        let o =
            crate::shared::rbcheck(&["fuzz", "--engine", &cmd, "--corpus", case.to_str().unwrap()]);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).to_string(),
        )
    };
    let (code, out) = run(&result);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("1 agree, 0 differ"), "{out}");
    let mut wrong = result.clone();
    wrong["units"]["B"]["might"] = serde_json::json!(5);
    let (code, out) = run(&wrong);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("the engine gives `might unit B 5`"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--engine "rbcheck serve"`, the example `serve --help` gives, works with rbcheck off the
/// `PATH`: a bare `rbcheck` is the running program.
#[test]
fn rbcheck_serve_as_an_engine_needs_no_path() {
    let out = std::env::temp_dir().join(format!("rbcheck-serve-path-{}", std::process::id()));
    let o = crate::shared::command()
        .args([
            "fuzz",
            "--engine",
            "rbcheck serve",
            "--cases",
            "5",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .env("PATH", "/usr/bin:/bin")
        .current_dir(root())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(text.contains("5 compared (5 agreed)"), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}
