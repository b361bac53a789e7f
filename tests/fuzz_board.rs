//! The board area of the directed tail (`gen::tail::board`): each stratum makes its situation
//! (a returned unit's damage, a unit readied twice, [Assault] while attacking, a rune recycled
//! beside another of its domain, a rune channelled from a two-domain rune deck) by
//! construction, and its case kills its mutant of the third held-out set.

use rbcheck::engine::fuzz::{check_files, recipe_for, Verdict};
use rbcheck::engine::gen::{self, tail, Focus};
use rbcheck::engine::ProcessEngine;
use std::path::PathBuf;
use std::time::Duration;

/// The case index of each board stratum within the default budget.
fn board_cases() -> Vec<(u8, u64)> {
    (0..300 + tail::LEN as u64)
        .filter_map(|i| match gen::focus_of(i) {
            Focus::Board(k) if i >= tail::CYCLED => Some((k, i)),
            _ => None,
        })
        .collect()
}

/// The generated case's text for the board stratum `k` at `seed`.
fn case_text(k: u8, seed: u64) -> String {
    let i = board_cases().iter().find(|c| c.0 == k).unwrap().1;
    let r = recipe_for(seed, i);
    let rules = vec!["rup4".to_string()];
    let case = gen::generate_for(&r, &rules, &gen::Profile::all(), vec![]).unwrap();
    rbcheck::case::print(&case)
}

/// What each stratum's case must contain for its situation to happen, read from the model's
/// run: the damaged unit back in hand without its damage (124); the second execution's ready
/// ignored as impossible (415.1.b); the Sturdy Dummy dealt 5 twice by the Duelist with [Assault 2]
/// (807.2); the ready Mind rune kept after recycling the exhausted one (164.2); the top rune
/// [B] channelled exhausted beside the Calm runes, [R] left in the rune deck (OGN-047).
fn situation(k: u8) -> &'static [&'static str] {
    match k {
        0 => &["in hand", "damage 0"],
        1 => &[
            "exec 2 target",
            "ignored item 1 exec 2 instruction 1 impossible",
        ],
        2 => &["attacking assault 2", "damage 10"],
        3 => &["rune recycle B", "expect runes you ready B"],
        4 => &["Find Your Center", "expect runes you deck R"],
        _ => &[],
    }
}

/// Every board stratum is in the default budget and makes its situation at seeds 0 to 24.
#[test]
fn every_board_stratum_makes_its_situation_at_25_seeds() {
    let cases = board_cases();
    assert_eq!(cases.len(), tail::board::STRATA.len(), "{cases:?}");
    for (k, _) in cases {
        for seed in 0..25 {
            let text = case_text(k, seed);
            for want in situation(k) {
                assert!(
                    text.contains(want),
                    "stratum {k} seed {seed} lacks `{want}`:\n{text}"
                );
            }
        }
    }
}

/// The mutants of the third held-out set the board strata kill, each with its stratum: at
/// seeds 0 and 1 the clean reference engine agrees with the model on that case and the mutant
/// does not.
#[test]
fn the_board_strata_kill_their_mutants_at_seeds_0_and_1() {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/reference_engine.py");
    let dir = std::env::temp_dir().join(format!("rbcheck-fuzz-board-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (mutant, k) in [
        ("returned-unit-keeps-damage", 0),
        ("ready-twice", 1),
        ("deal-might-printed", 2),
        ("recycle-ready-first", 3),
        ("channel-from-bottom", 4),
    ] {
        for seed in 0..2 {
            let path = dir.join(format!("{mutant}-{seed}.case"));
            std::fs::write(&path, case_text(k, seed)).unwrap();
            for args in [String::new(), format!("--mutant {mutant}")] {
                let cmd = format!("python3 {} {args}", script.display());
                let mut e = ProcessEngine::new(&cmd, Duration::from_secs(20)).unwrap();
                let v = check_files(&mut e, std::slice::from_ref(&path)).unwrap();
                let agrees = matches!(v[0].verdict, Verdict::Agree);
                assert_eq!(
                    agrees,
                    args.is_empty(),
                    "stratum {k} seed {seed} with `{args}`: {:?}",
                    v[0].verdict
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
