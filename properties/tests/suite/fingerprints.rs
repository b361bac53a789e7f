//! The packed state hash (`impl Hash for State`, with the log's running digest) tells states
//! apart exactly as `Eq` does: on every state reachable from a sample of the tiny bound's
//! scenarios, distinct states have distinct fingerprints.

use checker::Model;
use model::catalogue::Catalogue;
use model::game::Game;
use model::rulebook::{Rulebook, Version};
use model::state::State;
use properties::{Bound, RepeatSystem};
use std::collections::HashSet;

#[test]
fn distinct_states_have_distinct_fingerprints() {
    let mut cards = Catalogue::builtin().cards;
    let scenarios = Bound::preset("tiny")
        .unwrap()
        .scenarios(&mut cards)
        .unwrap();
    // Every 7th scenario: all items, boards and extras, a few thousand states each.
    let sample = scenarios.into_iter().step_by(7).collect();
    let sys = RepeatSystem::from_parts(Game::new(Rulebook::preset(Version::Rup4), cards), sample);
    let mut states: HashSet<State> = HashSet::new();
    let mut fingerprints: HashSet<u64> = HashSet::new();
    let mut frontier = sys.init_states();
    let mut actions = vec![];
    while let Some(s) = frontier.pop() {
        if !states.insert(s.clone()) {
            continue;
        }
        fingerprints.insert(checker::fingerprint(&s));
        actions.clear();
        sys.actions(&s, &mut actions);
        frontier.extend(actions.iter().filter_map(|a| sys.next_state(&s, a)));
    }
    assert!(states.len() > 10_000, "{} states", states.len());
    assert_eq!(fingerprints.len(), states.len());
}
