//! `rbcheck fuzz`: generation reaches every clause, illegal kind and card at a fresh seed and
//! fuzzes a card added to the catalogue; mutants die on cases the unmutated reference gets
//! right; runs are reproducible from their seed, findings are replayable case files, and the
//! bolero harness runs the same comparison on random inputs.

use crate::shared::root;
use rbcheck::engine::fuzz::{
    fuzz, recipe_from_bytes, Checker, FuzzConfig, Verdict, NONDETERMINISTIC,
};
use rbcheck::engine::gen;
use rbcheck::engine::score::{markdown_seeds, score_seeds};
use rbcheck::engine::{ModelEngine, ProcessEngine};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

fn reference() -> String {
    format!(
        "python3 {}",
        root().join("tests/engines/reference_engine.py").display()
    )
}

/// A seed nobody tuned generation to: drawn for this test run and printed, so a failure can be
/// repeated (`RBCHECK_TEST_SEED` gives one).
fn fresh_seed() -> u64 {
    if let Some(s) = std::env::var("RBCHECK_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
    {
        return s;
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let s = gen::Rng::derive(nanos, u64::from(std::process::id())).next_u64();
    println!("seed {s} (repeat with RBCHECK_TEST_SEED={s})");
    s
}

/// The mutant score at a fresh seed with a small budget (600 cases): a mutant is killed only by
/// a case on which the unmutated reference agrees with the model (the cases where it does not
/// are not sent to the mutants), and most mutants die. The full score at the default budget is
/// a measurement (`rbcheck fuzz --score`), not a test. It takes many minutes on 2 cores, so CI
/// leaves it out: `cargo test --release --test fuzz -- --ignored mutants_die`.
#[test]
#[ignore = "the mutant score: many minutes; run with -- --ignored"]
fn mutants_die_at_a_fresh_seed_on_cases_the_reference_gets_right() {
    let seed = fresh_seed();
    let cfg = FuzzConfig {
        cases: Some(600),
        ..FuzzConfig::default()
    };
    let jobs = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let rows = score_seeds(&reference(), &cfg, &[seed], Duration::from_secs(20), jobs).unwrap();
    let table = markdown_seeds(&rows, &cfg, &[seed]);
    println!("{table}");
    let clean = rows.iter().find(|r| r.mutant.is_none()).unwrap();
    assert_eq!(clean.report.faults, 0, "{table}");
    assert!(clean.report.compared >= 500, "{table}");
    let dirty: std::collections::BTreeSet<usize> = clean
        .report
        .findings
        .iter()
        .flat_map(|f| f.cases.iter().map(|c| c.0))
        .collect();
    let mutants: Vec<_> = rows.iter().filter(|r| r.mutant.is_some()).collect();
    assert!(mutants.len() >= 160, "{table}");
    for m in &mutants {
        for f in &m.report.findings {
            assert!(
                f.cases.iter().all(|c| !dirty.contains(&c.0)),
                "{:?} killed on a case the reference gets wrong",
                m.mutant
            );
        }
    }
    let killed = mutants.iter().filter(|r| r.ok()).count();
    assert!(
        killed * 100 >= mutants.len() * 80,
        "{killed}/{}\n{table}",
        mutants.len()
    );
}

/// Generation keeps to the engine's declared features: for an engine without `defines`,
/// synthetic triggers, abilities, grants or discounts, no generated case uses one (a candidate
/// that would is not kept), and the cases still vary.
#[test]
fn generation_keeps_to_the_declared_features() {
    let declared: Vec<String> = [
        "spells",
        "counters",
        "deflect",
        "tokens",
        "moves",
        "as-you-play",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let profile = gen::Profile::new(&declared);
    let rules = vec!["rup4".to_string()];
    let (mut outside, mut made) = (0, 0);
    let mut texts = std::collections::BTreeSet::new();
    for m in gen::cases(fresh_seed(), 300, &rules, &profile) {
        let Ok(case) = m.case else {
            continue;
        };
        made += 1;
        let cards = rbcheck::case::replay::cards(&case).unwrap();
        let used = rbcheck::engine::protocol::case_features(&case, &cards);
        if used.iter().any(|f| !declared.contains(f)) {
            outside += 1;
        }
        texts.insert(rbcheck::case::print(&case));
    }
    assert!(made >= 280, "{made}");
    assert_eq!(
        outside, 0,
        "{outside} of {made} cases use an undeclared feature"
    );
    assert!(texts.len() >= 200, "{}", texts.len());
}

/// The cases of the default budget at a fresh seed (the seed and the cases), generated once
/// for the tests that read them.
fn default_budget() -> &'static (u64, Vec<gen::Made>) {
    static MADE: std::sync::OnceLock<(u64, Vec<gen::Made>)> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        let seed = fresh_seed();
        let rules = vec!["rup4".to_string()];
        let n = rbcheck::engine::fuzz::DEFAULT_CASES as u64;
        (seed, gen::cases(seed, n, &rules, &gen::Profile::all()))
    })
}

/// The default budget at a fresh seed reaches every rule clause the model cites that a
/// generated case can reach (those it cannot are listed with the reason), every kind of
/// injected illegal statement, and every spell and unit of the catalogue: the goals steer it
/// there, no case is placed by hand. Five goals three draws deep, named below with what they
/// need, are reached at some seeds only, and a goal a few cases per seed reach may be missed
/// once; the test prints what this seed missed.
#[test]
fn the_default_budget_reaches_every_clause_every_illegal_kind_and_every_card() {
    // Clauses no generated case reaches, and why: 354.3 and 359.3.e.12 (what a resolving
    // item plays) are not generated.
    let unreachable = ["354.3", "359.3.e.12"];
    // Goals three draws deep, reached at some seeds of the default budget and not at others:
    // 754 (a Targeting Effect of an object newly chosen by Mystic Reversal's new choices: the
    // reversal, a spell whose choices can move to it, and Watchful Sentry), 423.1 and
    // 423.1.a.1 (a stunned attacker stunned again), and the injected kinds 12 (a new choice the
    // execution made before, 751.1: new choices over a spell with two targeting instructions)
    // and 15 (753.1). Other goals are reached by a handful of cases per seed (UNL-032, Called
    // Shot revealing, by 3 to 10), so a seed may miss one of them too. Over seeds 1000-1011
    // (`cargo bench -p rbcheck-bench --bench reach`, docs/fuzzing.md) a seed missed at most 4
    // goals, all deep; the test allows 6, at most one of them not deep, and names them.
    let deep = ["754", "423.1", "423.1.a.1", "kind 12", "kind 15"];
    let (seed, made) = default_budget();
    let goals: std::collections::BTreeSet<&String> = made.iter().flat_map(|m| &m.goals).collect();
    let mut missed: Vec<String> = model::coverage::CLAUSES
        .iter()
        .map(|(c, _)| *c)
        .filter(|c| !unreachable.contains(c) && !goals.contains(&format!("rule {c}")))
        .map(String::from)
        .collect();
    let kinds: std::collections::BTreeSet<u8> = made.iter().filter_map(|m| m.injected).collect();
    missed.extend(
        (1..=gen::INJECT_KINDS)
            .filter(|k| !kinds.contains(k))
            .map(|k| format!("kind {k}")),
    );
    eprintln!("seed {seed}: goals never reached: {missed:?}");
    let shallow = missed
        .iter()
        .filter(|m| !deep.contains(&m.as_str()))
        .count();
    assert!(
        missed.len() <= 6 && shallow <= 1,
        "seed {seed}: goals never reached: {missed:?}"
    );
    let cat = model::catalogue::Catalogue::builtin();
    let unplayed: Vec<&str> = cat
        .cards
        .iter()
        .filter(|c| {
            matches!(
                c.kind,
                model::card::CardKind::Spell | model::card::CardKind::Unit
            ) && !goals.contains(&format!("play {} by you", c.name))
                && !goals.contains(&format!("play {} by opp", c.name))
        })
        .map(|c| c.name.as_str())
        .collect();
    assert!(
        unplayed.is_empty(),
        "seed {seed}: never played: {unplayed:?}"
    );
}

/// A card added to the catalogue is fuzzed with no other change: a catalogue with one more
/// spell (a made-up one, appended) makes generated cases that play it, carry its definition,
/// and replay.
#[test]
fn a_card_added_to_the_catalogue_is_fuzzed() {
    let extra: toml::Table = toml::from_str(
        r#"
name = "Appended Bolt"
type = "spell"
cost = "[1]"
timing = "action"
repeat = ["[1]"]
do = [{ effect = "deal", amount = 3, target = { kind = "unit", side = "enemy" } }]
synthetic = true
source = "a test"
"#,
    )
    .unwrap();
    let cat = model::catalogue::Catalogue::builtin_with(&[extra], "test").unwrap();
    let rules = vec!["rup4".to_string()];
    let mut g = gen::Generator::new(fresh_seed(), &rules, &gen::Profile::all(), &cat);
    let mut played = 0;
    let mut goals = std::collections::BTreeSet::new();
    for i in 0..400 {
        let made = g.next(i);
        goals.extend(made.goals);
        let Ok(case) = made.case else { continue };
        let plays_it = case.plays.iter().any(|p| {
            matches!(&p.stmt, rbcheck::case::ast::PlayStmt::Play { card, .. } if card == "Appended Bolt")
        });
        if plays_it {
            played += 1;
            let text = rbcheck::case::print(&case);
            assert!(
                text.contains("define {") && text.contains("Appended Bolt"),
                "{text}"
            );
            let back = rbcheck::case::parse(&text).unwrap();
            assert!(
                rbcheck::engine::observe::model_observation(&back, None).is_ok(),
                "{text}"
            );
        }
    }
    // Coverage steers generation to the card's play goal; how often it is played after that
    // is left to chance (2 to 32 of 400 over 40 seeds), so the test asks for the goal.
    assert!(
        played >= 1 && goals.contains("play Appended Bolt by you"),
        "the appended card was played in {played} of 400 cases, its goal {}reached",
        if goals.contains("play Appended Bolt by you") {
            ""
        } else {
            "not "
        }
    );
}

/// Generated cases mix setups of every kind, read from the cases themselves: turns of several
/// plays of yours that end, runes, near-victory of either player, a unit owned by the other
/// player, a defender with [Assault], gear.
#[test]
fn generated_cases_hold_turns_runes_and_both_sides_of_the_board() {
    use model::state::Player;
    use rbcheck::case::ast::{BoardStmt, PlayStmt};
    let (seed, made) = default_budget();
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for m in made {
        let Ok(case) = &m.case else { continue };
        let text = rbcheck::case::print(case);
        let board = |f: &dyn Fn(&BoardStmt) -> bool| case.board.iter().any(|b| f(&b.stmt));
        let mine = case
            .plays
            .iter()
            .filter(|p| {
                matches!(
                    p.stmt,
                    PlayStmt::Play {
                        player: Player::YOU,
                        ..
                    }
                )
            })
            .count();
        let ended = case
            .plays
            .iter()
            .any(|p| matches!(p.stmt, PlayStmt::EndTurn));
        let defends_with_assault = text
            .lines()
            .any(|l| l.starts_with("unit ") && l.contains("defending") && l.contains("assault"));
        for (what, on) in [
            ("two plays of yours in a turn that ends", mine >= 2 && ended),
            ("runes", board(&|b| matches!(b, BoardStmt::Runes(..)))),
            ("near-victory you", text.contains("near-victory you")),
            (
                "near-victory opponent",
                text.contains("near-victory opponent"),
            ),
            ("owned by the other player", text.contains(" owner ")),
            ("defending with assault", defends_with_assault),
            ("gear", board(&|b| matches!(b, BoardStmt::Gear { .. }))),
            (
                "a spell given two Portal grants",
                m.goals.iter().any(|g| g.contains("portal + portal")),
            ),
        ] {
            *seen.entry(what).or_default() += usize::from(on);
        }
    }
    assert!(seen.values().all(|n| *n >= 1), "seed {seed}: {seen:?}");
}

/// The same seed gives the same cases, and the same findings; another seed other cases.
#[test]
fn runs_are_reproducible_from_the_seed() {
    let rules = vec!["rup4".to_string()];
    let texts = |seed| {
        gen::cases(seed, 40, &rules, &gen::Profile::all())
            .into_iter()
            .map(|m| m.case.map(|c| rbcheck::case::print(&c)))
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(7), texts(7));
    assert_ne!(texts(7), texts(8));
    let run = || {
        let mut e = ProcessEngine::new(
            &format!("{} --mutant reverse-executions", reference()),
            Duration::from_secs(20),
        )
        .unwrap();
        let r = fuzz(
            &mut e,
            &FuzzConfig {
                seed: 3,
                cases: Some(60),
                ..FuzzConfig::default()
            },
        );
        r.findings
            .iter()
            .map(|f| {
                (
                    f.kind.clone(),
                    f.first_case,
                    f.hits,
                    rbcheck::case::print(&f.case),
                )
            })
            .collect::<Vec<_>>()
    };
    let first = run();
    assert!(!first.is_empty());
    assert_eq!(first, run());
}

/// The command writes each finding as a minimal case that `rbcheck replay` passes, and reports
/// it in one line with its rule.
#[test]
fn findings_are_written_as_replayable_cases() {
    let out = std::env::temp_dir().join(format!("rbcheck-fuzz-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = crate::shared::command()
        .args([
            "fuzz",
            "--engine",
            &format!("{} --mutant unlimited-payments", reference()),
            "--cases",
            "120",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    // The first finding is the paid-twice instance, found as a `repeat` or as a statement.
    assert!(
        stdout.contains("FINDING 1  ")
            && (stdout.contains("each Repeat instance paid once (355.1.a, 820.1.c.2–3)")
                || stdout.contains("(820.1.c.3)")),
        "{stdout}"
    );
    assert!(stdout.contains(") say `illegal line"), "{stdout}");
    assert!(stdout.contains("reproduce: rbcheck fuzz"), "{stdout}");
    // Each finding says how to replay its one case; run as printed, that finds it again.
    let replays: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  replay: rbcheck "))
        .collect();
    assert!(!replays.is_empty(), "{stdout}");
    let words = shell_words(replays[0]);
    assert_eq!(words[0..2], ["fuzz", "--engine"], "{words:?}");
    assert_eq!(words[3], "--corpus", "{words:?}");
    let again = crate::shared::command().args(&words).output().unwrap();
    let again_out = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(1), "{again_out}");
    assert!(again_out.contains("0 agree, 1 differ"), "{again_out}");
    let files: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    assert!(!files.is_empty());
    // The run's summary lists every cluster with its rule and symptoms.
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(
        summary.contains("FINDING 1 ") && summary.contains("symptoms: "),
        "{summary}"
    );
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(text.contains("# rbcheck fuzz finding"), "{text}");
        let r = crate::shared::command()
            .arg("replay")
            .arg(f)
            .output()
            .unwrap();
        assert!(
            r.status.success(),
            "{}:\n{}{text}",
            f.display(),
            String::from_utf8_lossy(&r.stdout)
        );
    }
    // The shrunk case of the first finding is small: the play, its Repeat lines, little else.
    let first = files
        .iter()
        .find(|f| f.file_name().unwrap().to_string_lossy().starts_with("001-"))
        .unwrap();
    let c = rbcheck::case::parse(&std::fs::read_to_string(first).unwrap()).unwrap();
    // (Curtain Call, which the stratified budget now reaches first, keeps a mode per execution.)
    assert!(c.plays.len() <= 14 && c.board.len() <= 8, "{c:?}");
    let _ = std::fs::remove_dir_all(&out);
}

/// The model against itself, in process: nothing to find.
#[test]
fn the_model_agrees_with_itself() {
    let mut model = ModelEngine::new();
    let r = fuzz(
        &mut model,
        &FuzzConfig {
            cases: Some(200),
            ..FuzzConfig::default()
        },
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(r.compared, 200);
}

static REFERENCE: Mutex<Option<ProcessEngine>> = Mutex::new(None);

/// The bolero harness: raw bytes drive the case generator (the first 32 the starting position,
/// the rest the walk's decisions) and the case runs on the model and on an engine
/// (`RBCHECK_FUZZ_ENGINE`, default: the reference engine), which must answer every case (no
/// crash, hang or garbage). Where the reference engine disagrees with the model, `rbcheck fuzz`
/// reports it as a finding; the harness prints it. Under `cargo test` bolero feeds random
/// bytes; `cargo bolero test --test fuzz bolero_engine_answers_every_generated_case` drives it
/// with libFuzzer's coverage guidance.
#[test]
fn bolero_engine_answers_every_generated_case() {
    let cmd = std::env::var("RBCHECK_FUZZ_ENGINE").unwrap_or_else(|_| reference());
    bolero::check!()
        .with_iterations(300)
        .with_max_len(512)
        .for_each(|bytes: &[u8]| {
            let recipe = recipe_from_bytes(bytes);
            let mut guard = REFERENCE.lock().unwrap_or_else(|p| p.into_inner());
            let engine = guard.get_or_insert_with(|| {
                ProcessEngine::new(&cmd, Duration::from_secs(20)).expect("a command")
            });
            let mut checker = Checker::new(engine).expect("the engine starts");
            match checker.check(&recipe) {
                Verdict::Disagree(d) => println!("the engine disagrees: {}", d[0].line()),
                Verdict::Fault(f) => panic!("the engine failed: {f}\nrecipe: {recipe:?}"),
                _ => {}
            }
        });
    // The same harness with the model on both sides, in process.
    bolero::check!()
        .with_iterations(300)
        .for_each(|bytes: &[u8]| {
            let mut model = ModelEngine::new();
            let mut checker = Checker::new(&mut model).unwrap();
            assert!(!matches!(
                checker.check(&recipe_from_bytes(bytes)),
                Verdict::Disagree(_) | Verdict::Fault(_)
            ));
        });
}

fn fuzz_cli(args: &[&str]) -> std::process::Output {
    crate::shared::command()
        .arg("fuzz")
        .args(args)
        .current_dir(root())
        .output()
        .expect("rbcheck runs")
}

/// Out-of-range options: `--timeout inf` once panicked, `--timeout -5` became 0.05 s, `--cases 0` passed.
/// Out-of-range numbers are clap errors, exit 2, before any engine is started.
#[test]
fn fuzz_numbers_out_of_range_are_errors() {
    for args in [
        ["--timeout", "inf"],
        ["--timeout=-5", "--cases=3"],
        ["--timeout", "NaN"],
        ["--timeout", "0.01"],
        ["--timeout", "1e9"],
        ["--cases", "0"],
        ["--cases", "-1"],
        ["--time", "0"],
    ] {
        let mut all = vec!["--engine", "./no-such-engine"];
        all.extend(args);
        let o = fuzz_cli(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            err.contains("invalid value") || err.contains("unexpected argument"),
            "{args:?}: {err}"
        );
        assert!(
            !err.contains("cannot be started") && o.stdout.is_empty(),
            "{args:?}: parsed, then ran"
        );
    }
}

/// `fuzz --corpus` judges each file as `replay` does: one that is not a valid case (a parse
/// error, a card the model does not know) is `ERROR file:line[:col]: ...` with the same words
/// as `replay`, and the run exits 2 (before: "invalid ... (see rbcheck replay)", counted as
/// skipped, no line, exit 0). The valid cases beside it are still compared.
#[test]
fn fuzz_corpus_reports_an_invalid_case_file_as_replay_does_and_exits_2() {
    let dir = std::env::temp_dir().join(format!("rbcheck-corpus-invalid-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good = root().join("corpus/cases/deserts-call-one-instance-paid-twice-illegal.case");
    std::fs::copy(&good, dir.join("a-good.case")).unwrap();
    let text = std::fs::read_to_string(&good).unwrap();
    std::fs::write(
        dir.join("b-parse.case"),
        text.replace("pool you [6]", "pool you [6][Q]"),
    )
    .unwrap();
    std::fs::write(
        dir.join("c-card.case"),
        text.replace("Desert's Call", "Deserts Cal"),
    )
    .unwrap();
    let engine = format!(
        "python3 {}",
        root().join("tests/engines/reference_engine.py").display()
    );
    let o = fuzz_cli(&["--engine", &engine, "--corpus", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(2), "{stdout}");
    let replayed = crate::shared::command()
        .args(["replay", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let errors: Vec<String> = String::from_utf8_lossy(&replayed.stdout)
        .lines()
        .filter(|l| l.starts_with("ERROR "))
        .map(String::from)
        .collect();
    assert_eq!(errors.len(), 2, "replay names both");
    assert!(errors[0].contains("b-parse.case:8:"), "{errors:?}");
    assert!(errors[1].contains("c-card.case:9:"), "{errors:?}");
    for e in &errors {
        assert!(
            stdout.lines().any(|l| l == e),
            "`{e}` missing from:\n{stdout}"
        );
    }
    assert!(
        stdout.contains("agree        "),
        "the valid case is compared: {stdout}"
    );
    assert!(stdout.contains("2 files are not a valid case"), "{stdout}");
    assert!(!stdout.contains("skipped as"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run that compared nothing "passed" with exit 0. An engine that declines every
/// case, or answers every case with an empty result, makes `fuzz` exit 2 and say why.
#[test]
fn a_fuzz_run_that_compared_nothing_exits_2_with_the_reasons() {
    let out = std::env::temp_dir().join(format!("rbcheck-nothing-{}", std::process::id()));
    for (fail, why) in [
        ("unsupported-all", "8 answered `unsupported` by the engine"),
        (
            "empty-results",
            "8 answered with a result stating no field rbcheck compares",
        ),
    ] {
        let _ = std::fs::remove_dir_all(&out);
        let engine = format!(
            "python3 {} --fail {fail}",
            root().join("tests/engines/fake_engine.py").display()
        );
        let o = fuzz_cli(&[
            "--engine",
            &engine,
            "--cases",
            "8",
            "--out",
            out.to_str().unwrap(),
        ]);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(2), "{fail}: {stdout}");
        assert!(stdout.contains("NOTHING COMPARED"), "{fail}: {stdout}");
        assert!(stdout.contains(why), "{fail}: {stdout}");
        // The same with the corpus sent instead of generated cases.
        let o = fuzz_cli(&["--engine", &engine, "--corpus", "corpus/cases"]);
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(2), "{fail} --corpus: {stdout}");
        assert!(
            stdout.contains("NOTHING COMPARED"),
            "{fail} --corpus: {stdout}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// An engine answer naming an item (4294967295), unit, gear or player the case does
/// not have was silently ignored; each is now a finding of its own kind.
#[test]
fn an_engine_naming_what_does_not_exist_is_a_finding() {
    for (fail, kind) in [
        (
            "unknown-item",
            "executions: engine reports an item the case does not have",
        ),
        (
            "unknown-unit",
            "unit-zone: engine reports a unit the case does not have",
        ),
        (
            "unknown-gear",
            "gear-zone: engine reports a gear the case does not have",
        ),
        (
            "unknown-player",
            "hand-size: engine reports a player the case does not have",
        ),
    ] {
        let cmd = format!(
            "python3 {} --fail {fail} --every 3",
            root().join("tests/engines/fake_engine.py").display()
        );
        let mut e = ProcessEngine::new(&cmd, Duration::from_secs(10)).unwrap();
        let r = fuzz(
            &mut e,
            // 24 cases: the injected-illegal strata among the first ones (cases 2 and 5 are
            // refused plays, whose answers name no item) leave enough legal ones.
            &FuzzConfig {
                cases: Some(24),
                shrink_steps: 10,
                ..FuzzConfig::default()
            },
        );
        // Every third answer (by request id) names it: the shrunk case, sent twice more, may
        // be answered both ways, and the engine is then rightly flagged nondeterministic too.
        let kinds: Vec<&str> = r
            .findings
            .iter()
            .map(|f| f.kind.as_str())
            .filter(|k| *k != NONDETERMINISTIC)
            .collect();
        assert_eq!(kinds, vec![kind], "{fail}");
        assert!(r.findings[0].hits >= 2, "{fail}: {:?}", r.findings[0].hits);
    }
}

/// Findings are written as they are found: a run killed midway keeps each whole finding found
/// so far, and leaves no half-written or temporary file.
#[test]
fn a_killed_run_keeps_the_findings_written_so_far() {
    let d = std::env::temp_dir().join(format!("rbcheck-fuzz-stream-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let mut run = crate::shared::command()
        .current_dir(&d)
        .args([
            "fuzz",
            "--engine",
            &format!("{} --mutant unlimited-payments", reference()),
            "--cases",
            "1000000",
            "--out",
            "out",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let first = d.join("out");
    let mut found = None;
    for _ in 0..1200 {
        if let Some(f) = std::fs::read_dir(&first).ok().and_then(|mut r| r.next()) {
            found = Some(f.unwrap().path());
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = Command::new("kill")
        .args(["-TERM", &run.id().to_string()])
        .status();
    let _ = run.wait();
    let found = found.expect("a finding was written while the run went on");
    let names: Vec<String> = std::fs::read_dir(&first)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n.ends_with(".case") && !n.starts_with('.')),
        "{names:?}"
    );
    let text = std::fs::read_to_string(&found).unwrap();
    let c = rbcheck::case::parse(&text).unwrap();
    assert!(!c.plays.is_empty());
    let _ = std::fs::remove_dir_all(&d);
}

/// The words of a command line as `rbcheck` prints it: bare words and double-quoted strings
/// with backslash escapes (Rust's `{:?}` of a string).
fn shell_words(line: &str) -> Vec<String> {
    let mut out = vec![];
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c == ' ' {
            chars.next();
            continue;
        }
        let mut w = String::new();
        if c == '"' {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => w.extend(chars.next()),
                    c => w.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == ' ' {
                    break;
                }
                w.push(c);
                chars.next();
            }
        }
        out.push(w);
    }
    out
}
