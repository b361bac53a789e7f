//! Tests of the explicit state graph and its DOT output.

use super::models;

use checker::graph::explore;
use checker::CheckError;
use models::*;

#[test]
fn small_graph_has_every_state_and_edge() {
    let m = Counters::new(2, 2);
    let g = explore(&m, 100).unwrap();
    assert_eq!(g.state_count(), 9);
    assert_eq!(g.edge_count(), 12);
    assert_eq!(g.initial.len(), 1);
    let dot = g.to_dot_debug(&m);
    assert!(dot.starts_with("digraph states {"), "{dot}");
    assert!(
        dot.contains("s0 [label=\"[0, 0]\", peripheries=2];"),
        "{dot}"
    );
    assert!(
        dot.contains("s0 -> s1 [label=\"increment counter 0\"];"),
        "{dot}"
    );
    assert_eq!(dot.matches(" -> ").count(), 12);
}

#[test]
fn graph_uses_the_model_fingerprint_and_custom_labels() {
    let mut m = Counters::new(2, 2);
    m.symmetric = true;
    let g = explore(&m, 100).unwrap();
    assert_eq!(g.state_count(), 6);
    let dot = g.to_dot(&m, |s| format!("sum \"{}\"", s.iter().sum::<u8>()));
    assert!(dot.contains("label=\"sum \\\"0\\\"\""), "{dot}");
}

#[test]
fn graph_over_the_limit_is_an_error() {
    let m = Hanoi { discs: 4 };
    assert_eq!(
        explore(&m, 80).unwrap_err(),
        CheckError::GraphTooLarge { limit: 80 }
    );
    assert_eq!(explore(&m, 81).unwrap().state_count(), 81);
}
