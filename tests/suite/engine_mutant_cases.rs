//! Cases that kill the reference engine's mutants: the corpus cases that catch the mistakes of the
//! deck, demand, counter, combat and cost features, and the hand-written case of each mutant of the
//! second held-out set, each replayed with the clean engine (which must agree with the model) and
//! with the mutant (which must not).

use crate::shared::root;
use rbcheck::engine::fuzz::{check_files, Verdict};
use rbcheck::engine::ProcessEngine;
use std::process::Command;
use std::time::Duration;

fn engine_cmd(script: &str, args: &str) -> String {
    format!(
        "python3 {} {args}",
        root().join("tests/engines").join(script).display()
    )
}

/// The reference engine's mistakes in the deck, demand, counter, combat and cost features
/// (known survivors until the generator's strata reached them; now in its `MUTANTS`) are each caught by the corpus too: the cases named here
/// show a difference or a fault with the mutant, so the clean engine's agreement on them
/// (`reference_engine_passes_the_corpus`) means something.
#[test]
fn the_corpus_kills_the_reference_engines_feature_mutants() {
    let kills = [
        (
            "stun-twice",
            "thwonk-repeated-on-one-attacker-stuns-once.case",
        ),
        ("attacking-unchecked", "thwonk-needs-an-attacking-unit.case"),
        (
            "return-to-controller",
            "existential-dread-returns-to-owner-not-controller.case",
        ),
        (
            "mights-one-way",
            "marching-orders-repeated-mights-to-each-other.case",
        ),
        (
            "looked-stay-on-top",
            "called-shot-repeated-draws-two-named-cards.case",
        ),
        (
            "demand-paid-free",
            "hard-bargain-repeated-second-demand-counters.case",
        ),
        (
            "chosen-first-execution-only",
            "not-so-fast-counters-repeated-spell-second-execution-choice.case",
        ),
        (
            "optional-cost-not-paid",
            "blast-corps-cadet-paid-deals-two-at-a-battlefield.case",
        ),
        (
            "exhaust-cost-not-exhausted",
            "rallying-cry-exhausts-the-unit-its-payer-chooses.case",
        ),
        (
            "kills-it-any-lethal",
            "if-this-kills-it-repeated-deal-draws-once.case",
        ),
        // Seen since the result field `items[].entered`.
        (
            "accelerate-enters-exhausted",
            "legion-rearguard-accelerate-paid-enters-ready.case",
        ),
        (
            "if-paid-first-execution-only",
            "gambit-bolt-paid-every-execution-draws.case",
        ),
        (
            "may-pay-asked-once",
            "toll-bolt-repeated-asks-in-each-execution.case",
        ),
        (
            "kill-might-ignored",
            "titans-tithe-kill-cost-takes-only-a-mighty-unit.case",
        ),
        (
            "grant-used-by-gear",
            "turn-gear-from-hand-leaves-the-portal-grant-to-the-spell.case",
        ),
    ];
    for (mutant, file) in kills {
        kills_on(mutant, &root().join("corpus/cases").join(file));
    }
}

/// The clean reference engine agrees with the model on the case at `path`, and `mutant` does not.
fn kills_on(mutant: &str, path: &std::path::Path) {
    for args in ["", &format!("--mutant {mutant}")] {
        let mut e = ProcessEngine::new(
            &engine_cmd("reference_engine.py", args),
            Duration::from_secs(20),
        )
        .unwrap();
        let v = check_files(&mut e, std::slice::from_ref(&path.to_path_buf())).unwrap();
        let agrees = matches!(v[0].verdict, Verdict::Agree);
        assert_eq!(
            agrees,
            args.is_empty(),
            "{} with `{args}`: {:?}",
            path.display(),
            v[0].verdict
        );
    }
}

/// The second held-out set: every mutant
/// `--held-out-2 --list-mutants` names is shown to change behaviour by the case named here (a
/// corpus case, or `tests/engines/heldout/NAME.case` written for it), on which the clean engine
/// agrees with the model; a listed mutant without a case is a failure, not a pass.
#[test]
fn each_second_held_out_mutant_changes_behaviour_on_its_case() {
    let cases: &[(&str, &str)] = &[
        (
            "ezreal-once-per-play",
            "corpus/cases/ezreal-power-off-curtain-call-pays-with-five-energy.case",
        ),
        (
            "spire-reduces-power",
            "corpus/cases/marai-spire-no-discount-on-power-only-repeat.case",
        ),
        (
            "resolve-after-one-pass",
            "corpus/cases/called-shot-repeated-draws-two-named-cards.case",
        ),
        (
            "no-stacking-own-items",
            "corpus/cases/new-choices-object-targeted-before-no-trigger.case",
        ),
        (
            "up-to-all-required",
            "corpus/cases/bellows-breath-repeated-on-one-unit-both-hits-land.case",
        ),
        (
            "other-unchecked",
            "corpus/cases/piercing-light-second-target-must-be-other.case",
        ),
        (
            "enemy-relative-to-owner",
            "corpus/cases/new-choices-remade-set-at-one-location-legal.case",
        ),
        (
            "counter-limit-strict",
            "corpus/cases/defy-counters-repeated-rocket-barrage-printed-cost.case",
        ),
        (
            "demand-once",
            "corpus/cases/hard-bargain-repeated-second-demand-counters.case",
        ),
        (
            "token-always-base",
            "corpus/cases/token-location-chosen-spellwatcher-after-tokens.case",
        ),
        (
            "lethal-strict",
            "corpus/cases/bellows-breath-repeated-three-units-each-execution.case",
        ),
        (
            "assault-replaces",
            "corpus/cases/blood-rush-repeated-gives-assault-four.case",
        ),
        (
            "might-not-floored",
            "corpus/cases/new-choices-target-effect-once-per-new-object.case",
        ),
        (
            "recycled-rune-on-top",
            "corpus/cases/runes-repeat-power-pip-paid-by-recycling.case",
        ),
        (
            "channel-ready",
            "corpus/cases/runes-find-your-center-channels-top-rune-exhausted.case",
        ),
        (
            "academy-dropped-with-portal",
            "corpus/cases/academy-and-portal-grant-two-instances.case",
        ),
        (
            "deflect-value-one",
            "corpus/cases/deflect-two-paid-per-choice-volibear.case",
        ),
    ];
    let out = Command::new("python3")
        .arg(root().join("tests/engines/reference_engine.py"))
        .args(["--held-out-2", "--list-mutants"])
        .output()
        .expect("python3 runs the reference engine");
    let listed: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    assert_eq!(listed.len(), 30, "{listed:?}");
    for mutant in &listed {
        let path = match cases.iter().find(|(m, _)| m == mutant) {
            Some((_, file)) => root().join(file),
            None => root()
                .join("tests/engines/heldout")
                .join(format!("{mutant}.case")),
        };
        assert!(
            path.is_file(),
            "no case shows what `{mutant}` changes: {}",
            path.display()
        );
        kills_on(mutant, &path);
    }
}

/// `rbcheck replay --engine CMD` sends the case files to an engine, as `fuzz --corpus` does:
/// the clean engine agrees on a corpus case (exit 0), a mutant it catches differs (exit 1), and
/// `--json` with `--engine` is a usage error (exit 2).
#[test]
fn replay_against_an_engine_compares_each_case() {
    let case = root().join("corpus/cases/thwonk-repeated-on-one-attacker-stuns-once.case");
    let case = case.to_str().unwrap();
    let run = |engine: &str, extra: &[&str]| {
        let o = crate::shared::command()
            .args(["replay", "--engine", engine])
            .args(extra)
            .arg(case)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, out) = run(&engine_cmd("reference_engine.py", ""), &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("1 agree, 0 differ"), "{out}");
    let mutant = engine_cmd("reference_engine.py", "--mutant stun-twice");
    let (code, out) = run(&mutant, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("0 agree, 1 differ"), "{out}");
    let (code, _) = run(&mutant, &["--json"]);
    assert_eq!(code, Some(2));
}
