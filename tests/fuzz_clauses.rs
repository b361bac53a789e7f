//! The clauses area of the directed tail (`gen::tail::clauses`): each stratum reaches the rule
//! clauses it is made for, by construction rather than by the chance of a seed's draws.

use rbcheck::engine::fuzz::{check_files, recipe_for, Verdict};
use rbcheck::engine::gen::{self, tail, Focus};
use rbcheck::engine::ProcessEngine;
use std::path::PathBuf;
use std::time::Duration;

/// The case index of each clauses stratum within the default budget.
fn clause_cases() -> Vec<(u8, u64)> {
    (0..300 + tail::LEN as u64)
        .filter_map(|i| match gen::focus_of(i) {
            Focus::Clause(k) if i >= tail::CYCLED => Some((k, i)),
            _ => None,
        })
        .collect()
}

/// Every clauses stratum is in the default budget and reaches its clauses (415.1 readying,
/// 355.10.d a group by tag, 356.2.a a mandatory discard, 414.4 and 356.7 a friendly unit
/// exhausted by choice, 401, 145.2 and SFD-078 the Portal activated and its grant, OGN-047
/// channelling) at seeds 0 to 9, read from what the model applied on the generated run.
#[test]
fn every_clause_stratum_reaches_its_clause_at_ten_seeds() {
    let cases = clause_cases();
    assert_eq!(cases.len(), tail::clauses::STRATA.len(), "{cases:?}");
    for (k, i) in cases {
        let want = tail::clauses::clauses_of(k);
        assert!(!want.is_empty(), "stratum {k} names no clause");
        for seed in 0..10 {
            let r = recipe_for(seed, i);
            let reached = gen::strata::clauses_reached(&r, "rup4").unwrap();
            let missing: Vec<_> = want.iter().filter(|c| !reached.contains(c)).collect();
            assert!(
                missing.is_empty(),
                "stratum {k} (case {i}) at seed {seed} misses {missing:?}: {r:?}"
            );
        }
    }
}

/// The clauses strata make cases the fitted profile of a full engine keeps, with the card
/// each is about played: a case the model could not write would reach nothing.
#[test]
fn every_clause_stratum_generates_a_case_playing_its_card() {
    let rules = vec!["rup4".to_string()];
    for (k, i) in clause_cases() {
        for seed in 0..2 {
            let r = recipe_for(seed, i);
            let case = gen::generate_for(&r, &rules, &gen::Profile::all(), vec![]);
            let text = rbcheck::case::print(&case.unwrap());
            let card = match k {
                0 => "Upstage Comedy",
                1 => "Danger Zone",
                2 => "Tithe Bolt",
                3 => "Rallying Cry",
                4 => "activate",
                _ => "Find Your Center",
            };
            assert!(text.contains(card), "stratum {k} seed {seed}:\n{text}");
        }
    }
}

/// The mutants the clauses strata kill, each with the stratum whose case kills it: the
/// Spellwatcher's "when you play a spell" triggering on the Portal's activated ability (419.4.a,
/// stratum 4) and Find Your Center channelling its rune ready (OGN-047, stratum 5). At seeds 0
/// and 1 the clean reference engine agrees with the model on that case and the mutant does not.
#[test]
fn the_clause_strata_kill_their_mutants_at_seeds_0_and_1() {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/reference_engine.py");
    let rules = vec!["rup4".to_string()];
    let dir = std::env::temp_dir().join(format!("rbcheck-fuzz-clauses-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = clause_cases();
    for (mutant, k) in [("play-trigger-on-abilities", 4), ("channel-ready", 5)] {
        let i = cases.iter().find(|c| c.0 == k).unwrap().1;
        for seed in 0..2 {
            let r = recipe_for(seed, i);
            let case = gen::generate_for(&r, &rules, &gen::Profile::all(), vec![]).unwrap();
            let path = dir.join(format!("{mutant}-{seed}.case"));
            std::fs::write(&path, rbcheck::case::print(&case)).unwrap();
            for args in [String::new(), format!("--mutant {mutant}")] {
                let cmd = format!("python3 {} {args}", script.display());
                let mut e = ProcessEngine::new(&cmd, Duration::from_secs(20)).unwrap();
                let v = check_files(&mut e, std::slice::from_ref(&path)).unwrap();
                let agrees = matches!(v[0].verdict, Verdict::Agree);
                assert_eq!(
                    agrees,
                    args.is_empty(),
                    "case {i} of seed {seed} with `{args}`: {:?}",
                    v[0].verdict
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
