//! Named cards in hand, which the protocol v2 result field `players.P.hand` reports
//! (359.3.e): compared as a multiset of names, and an engine wrong in them alone is caught.

use crate::shared::root;
use rbcheck::engine::gen;
use rbcheck::engine::observe::model_observation;
use rbcheck::engine::protocol::request;
use rbcheck::engine::{compare, ProcessEngine};
use std::time::Duration;

fn engine(script: &str, args: &str) -> ProcessEngine {
    let cmd = format!(
        "python3 {} {args}",
        root().join("tests/engines").join(script).display()
    );
    ProcessEngine::new(&cmd, Duration::from_secs(20)).unwrap()
}

/// The first generated case of seed 0 (RUP4) that ends with at least two named cards in your
/// hand, read from the model's observation.
fn case_with_two_named_cards() -> rbcheck::case::ast::Case {
    let rules = vec!["rup4".to_string()];
    gen::cases(0, 400, &rules, &gen::Profile::all())
        .into_iter()
        .filter_map(|m| m.case.ok())
        .find(|c| {
            model_observation(c, None).is_ok_and(|o| {
                o.players
                    .as_ref()
                    .and_then(|p| p.get("you"))
                    .and_then(|y| y.hand.as_ref())
                    .is_some_and(|h| h.len() >= 2)
            })
        })
        .expect("a generated case ends with two named cards in your hand")
}

/// `players.P.hand` is compared as a multiset of names: another card is a difference of its
/// own kind traced to 359.3.e, another order is none, and an engine leaving it out is not
/// compared on it.
#[test]
fn the_named_cards_in_hand_are_compared() {
    let case = case_with_two_named_cards();
    let req = request(&case, None, 1).unwrap();
    let model = model_observation(&case, None).unwrap();
    let with_hand = |hand: Option<Vec<String>>| {
        let mut o = model.clone();
        o.players.as_mut().unwrap().get_mut("you").unwrap().hand = hand;
        o
    };
    let hand = model.players.as_ref().unwrap()["you"].hand.clone().unwrap();
    assert!(hand.len() >= 2, "{hand:?}");
    let mut reversed = hand.clone();
    reversed.reverse();
    assert!(compare(&req, &model, &with_hand(Some(reversed)))
        .differences
        .is_empty());
    let c = compare(&req, &model, &with_hand(None));
    assert!(c.differences.is_empty() && c.not_reported.contains("hand"));
    let mut other = hand.clone();
    *other.last_mut().unwrap() = "Defy".into();
    let c = compare(&req, &model, &with_hand(Some(other)));
    assert_eq!(c.kind(), Some("hand: engine different cards"));
    assert_eq!(
        (c.differences[0].rule.as_str(), c.differences.len()),
        ("359.3.e", 1)
    );
    let c = compare(&req, &model, &with_hand(Some(hand[..1].to_vec())));
    assert_eq!(c.kind(), Some("hand: engine fewer named cards"));
}

/// An engine wrong in `players.P.hand` alone (the fake engine's `--fail wrong-hand`) is caught on
/// the default budget's first cases, and nothing else is found; a v1 engine, which has no such
/// field, is not compared on it.
#[test]
fn an_engine_wrong_in_the_named_cards_in_hand_is_caught() {
    let cfg = rbcheck::engine::fuzz::FuzzConfig {
        cases: Some(80),
        ..Default::default()
    };
    let mut e = engine("fake_engine.py", "--fail wrong-hand");
    let r = rbcheck::engine::fuzz::fuzz(&mut e, &cfg);
    let symptoms: Vec<&String> = r.findings.iter().flat_map(|f| f.symptoms.keys()).collect();
    assert!(!symptoms.is_empty(), "no finding");
    assert!(
        symptoms.iter().all(|s| s.starts_with("hand: engine ")),
        "{symptoms:?}"
    );
    let mut e = engine("fake_engine.py", "--fail v1");
    let r = rbcheck::engine::fuzz::fuzz(&mut e, &cfg);
    assert!(r.findings.is_empty(), "{:?}", r.findings.len());
}
