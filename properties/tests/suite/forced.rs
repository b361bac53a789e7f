//! The model's forced steps (`Game::forced_step`, the system's `Model::forced`): they agree
//! with the actions listed, the checker's results do not depend on collapsing them, a
//! violation on a forced step is found with every step of its trace, and an action that is not
//! enabled is refused rather than applied.

use checker::{CheckerExt, Model, Outcome, SearchOrder};
use model::action::Action;
use model::rulebook::{Rulebook, Version};
use properties::{Bound, RepeatSystem};

fn system(rulebook: &str) -> RepeatSystem {
    let rules = if rulebook == "rup4" {
        Rulebook::preset(Version::Rup4)
    } else {
        let path = format!(
            "{}/../corpus/rulebooks/{rulebook}.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap();
        Rulebook::from_toml(&text, rulebook).unwrap()
    };
    RepeatSystem::new(rules, &Bound::preset("tiny").unwrap()).unwrap()
}

#[test]
fn a_declared_forced_step_is_the_only_action_and_a_procedure_step() {
    let sys = system("rup4");
    let (mut forced, mut seen) = (0, 0);
    let mut frontier: Vec<_> = sys.init_states().into_iter().step_by(5).collect();
    let mut actions = vec![];
    while let Some(s) = frontier.pop() {
        seen += 1;
        actions.clear();
        sys.actions(&s, &mut actions);
        let declared = sys.forced(&s);
        if let Some(a) = declared {
            forced += 1;
            assert_eq!(actions, vec![a], "{s:?}");
        }
        // A procedure step alone is declared; one option left to a player (a pass, a payment,
        // a choice) is still that player's decision and is not.
        let procedure = matches!(
            actions[..],
            [Action::DetermineTotalCost
                | Action::CheckLegality
                | Action::Finalize
                | Action::Resolve
                | Action::Execute
                | Action::FinishResolution
                | Action::Cleanup]
        );
        assert_eq!(declared.is_some(), procedure, "{actions:?}");
        frontier.extend(actions.iter().filter_map(|a| sys.next_state(&s, a)));
    }
    assert!(
        seen > 10_000 && forced * 3 > seen,
        "{forced} forced of {seen}"
    );
}

/// Runs `rulebook` on the tiny bound with and without collapsing; both must agree, and the
/// property `name`'s counterexample must end with a forced step.
fn violation_on_a_forced_step(rulebook: &str, name: &str, state_unstored: bool) {
    let sys = system(rulebook);
    // Folding is what the breadth-first search stores; depth-first stores nothing.
    let bfs = || sys.checker().search_order(SearchOrder::BreadthFirst);
    let on = bfs().run().unwrap();
    let off = bfs().collapse_forced(false).run().unwrap();
    assert_eq!(
        format!("{:?}", on.properties),
        format!("{:?}", off.properties)
    );
    assert_eq!(on.stats.states, off.stats.states);
    assert_eq!(off.stats.states_stored, off.stats.states);
    assert!(
        on.stats.states_stored * 2 < on.stats.states,
        "{:?}",
        on.stats
    );
    let p = on.properties.iter().find(|p| p.name == name).unwrap();
    let Outcome::Violated { trace, .. } = &p.outcome else {
        panic!("{name} not violated under {rulebook}: {:?}", p.outcome)
    };
    let n = trace.steps.len();
    let before = if n >= 2 {
        &trace.steps[n - 2].state
    } else {
        &trace.init
    };
    let last = &trace.steps[n - 1];
    assert_eq!(sys.forced(before), Some(last.action), "{rulebook}");
    // The violating state is itself forced, so the search never stored it.
    assert_eq!(
        sys.forced(&last.state).is_some(),
        state_unstored,
        "{rulebook}"
    );
}

#[test]
fn a_violation_on_a_forced_step_is_found_with_its_whole_trace() {
    // Execute (820.3), on a state whose own next step is forced too.
    violation_on_a_forced_step("countered-card-vanishes", "resources-conserved", true);
    // FinishResolution (359.3.d) and DetermineTotalCost (356).
    violation_on_a_forced_step("double-executions", "executions-equal-one-plus-paid", false);
    violation_on_a_forced_step("discount-per-execution", "discount-applied-once", false);
}

#[test]
fn an_action_that_is_not_enabled_is_refused() {
    let sys = system("rup4");
    let init = sys.init_states().swap_remove(0);
    // Nothing is paused for a decision in an initial state: these effects would find no item.
    for a in [
        Action::DrawLooked { index: Some(0) },
        Action::DrawLooked { index: None },
        Action::RecycleLooked { index: 0 },
        Action::PayDemand { pay: true },
        Action::Execute,
        Action::Finalize,
    ] {
        assert!(!sys.game.is_enabled(&init, &a));
        assert_eq!(sys.game.next_state(&init, &a), None, "{a:?}");
        assert_eq!(sys.next_state(&init, &a), None, "{a:?}");
        let mut s = init.clone();
        assert!(!sys.next_state_in_place(&mut s, &a), "{a:?}");
        assert_eq!(s, init);
    }
}
