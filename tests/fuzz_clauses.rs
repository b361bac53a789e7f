//! The clauses area of the directed tail (`gen::tail::clauses`): each stratum reaches the rule
//! clauses it is made for, by construction rather than by the chance of a seed's draws.

use rbcheck::engine::fuzz::recipe_for;
use rbcheck::engine::gen::{self, tail, Focus};

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
