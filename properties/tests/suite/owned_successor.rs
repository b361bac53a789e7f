//! The search builds each state's last successor in the state itself
//! (`Model::next_state_in_place`, `Game::step_in_place`) instead of in a copy. That must change nothing:
//! the same states, transitions, verdicts and traces as copying every time, under the rulebooks
//! and the wrong edits whose runs stop on a violation.

use checker::{CheckResult, CheckerExt, Model, Property};
use model::action::Action;
use model::rulebook::{Rulebook, Version};
use model::state::State;
use properties::{Bound, RepeatSystem};

/// The system with the checker's default `next_state_in_place`: a copy for every successor.
struct Copying(RepeatSystem, Vec<Property<RepeatSystem>>);

/// Properties are plain `fn` pointers: one trampoline per index into the system's list.
fn cond<const I: usize>(m: &Copying, s: &State) -> bool {
    (m.1[I].condition)(&m.0, s)
}

macro_rules! trampolines {
    ($($i:literal)*) => { [$(cond::<$i> as fn(&Copying, &State) -> bool),*] };
}
const CONDS: [fn(&Copying, &State) -> bool; 24] =
    trampolines!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);

impl Model for Copying {
    type State = State;
    type Action = Action;
    fn init_states(&self) -> Vec<State> {
        self.0.init_states()
    }
    fn actions(&self, s: &State, out: &mut Vec<Action>) {
        self.0.actions(s, out)
    }
    fn next_state(&self, s: &State, a: &Action) -> Option<State> {
        self.0.next_state(s, a)
    }
    fn properties(&self) -> Vec<Property<Self>> {
        self.1
            .iter()
            .enumerate()
            .map(|(i, p)| p.for_model(CONDS[i]))
            .collect()
    }
    fn progress(&self, s: &State) -> Option<u64> {
        self.0.progress(s)
    }
    fn fingerprint(&self, s: &State) -> u64 {
        self.0.fingerprint(s)
    }
}

/// Everything a run reports but its timing and memory.
fn summary<M: Model>(r: &CheckResult<M>) -> String {
    let props: Vec<String> = r
        .properties
        .iter()
        .map(|p| format!("{} {:?}", p.name, p.outcome))
        .collect();
    format!(
        "{} states, {} transitions, depth {}, complete {}, stop {:?}\n{}",
        r.stats.states,
        r.stats.transitions,
        r.stats.max_depth,
        r.complete,
        r.stop,
        props.join("\n")
    )
}

#[test]
fn moving_the_last_successor_changes_nothing() {
    let tiny = Bound::preset("tiny").unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/rulebooks");
    let mut books: Vec<(String, Rulebook)> = Version::ALL
        .into_iter()
        .map(|v| (v.name().to_string(), Rulebook::preset(v)))
        .collect();
    // Wrong edits: runs that report counterexamples.
    for name in [
        "one-target-list",
        "refund-on-counter",
        "new-choices-reopen-repeat",
    ] {
        let text = std::fs::read_to_string(dir.join(format!("{name}.toml"))).unwrap();
        books.push((name.into(), Rulebook::from_toml(&text, name).unwrap()));
    }
    for (name, rules) in books {
        let moving = RepeatSystem::new(rules.clone(), &tiny).unwrap();
        let props = moving.properties();
        let copying = Copying(RepeatSystem::new(rules, &tiny).unwrap(), props);
        assert!(copying.1.len() <= CONDS.len());
        for threads in [1, 2] {
            let a = summary(&moving.checker().threads(threads).run().unwrap());
            let b = summary(&copying.checker().threads(threads).run().unwrap());
            assert_eq!(a, b, "{name} at {threads} threads");
        }
    }
}
