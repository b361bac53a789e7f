//! The system's tree-shaped declaration (`Model::tree_shaped`): the depth-first search gives
//! the breadth-first results (verdicts, traces, every count) on the shipped bounds and wrong
//! rulebooks, at 1 and 2 threads and through shards. Counting more states than the
//! breadth-first search's distinct ones would show two paths meeting, i.e. a false declaration.

use checker::{CheckResult, CheckerExt, Model, SearchOrder};
use model::rulebook::{Rulebook, Version};
use properties::{Bound, RepeatSystem};

fn rulebook(name: &str) -> Rulebook {
    if name == "rup4" {
        return Rulebook::preset(Version::Rup4);
    }
    let path = format!(
        "{}/../corpus/rulebooks/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    Rulebook::from_toml(&text, name).unwrap()
}

/// The wrong rulebooks of the corpus.
fn wrong_rulebooks() -> Vec<String> {
    let dir = format!("{}/../corpus/rulebooks", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 10, "{names:?}");
    names
}

/// What must agree: everything but time, memory, and what the breadth-first search stores.
fn key(r: &CheckResult<RepeatSystem>) -> String {
    let mut s = r.stats.without_timings();
    s.visited_bytes = 0;
    s.bytes_per_state = 0.0;
    s.states_stored = 0;
    format!(
        "{:?} {:?} {} {} {:?}",
        r.properties, r.stop, r.complete, r.cycles_checked, s
    )
}

/// Checks `rules` on `bound` breadth-first, then depth-first at `threads`; returns the states.
fn compare(rules: &str, bound: &str, threads: &[usize], shards: bool) -> usize {
    let sys = RepeatSystem::new(rulebook(rules), &Bound::preset(bound).unwrap()).unwrap();
    let inits = sys.init_states();
    // A scenario with interchangeable gear is not a tree (symmetry merges its states) and is
    // searched breadth-first; the others depth-first, and the results must not tell them apart.
    let trees = inits.iter().filter(|s| sys.tree_shaped(s)).count();
    assert!(
        trees > 0,
        "{rules} {bound}: no tree-shaped scenario to compare"
    );
    let bfs = sys.checker().threads(2);
    let want = bfs.search_order(SearchOrder::BreadthFirst).run().unwrap();
    for &t in threads {
        let got = sys.checker().threads(t).run().unwrap();
        if trees == inits.len() {
            assert_eq!(
                got.stats.states_stored, 0,
                "{rules} {bound}: not depth-first"
            );
        } else {
            assert!(
                got.stats.states_stored < want.stats.states_stored,
                "{rules} {bound}: its tree-shaped scenarios were not searched depth-first"
            );
        }
        assert_eq!(key(&got), key(&want), "{rules} {bound} at {t} threads");
    }
    if shards {
        let parts = (0..3)
            .map(|k| sys.checker().threads(2).shard(k, 3).run_part().unwrap())
            .collect();
        let merged = sys.checker().merge(parts).unwrap();
        assert_eq!(key(&merged), key(&want), "{rules} {bound} in 3 shards");
    }
    want.stats.states
}

#[test]
fn depth_first_gives_the_breadth_first_result_on_tiny_with_every_rulebook() {
    assert_eq!(compare("rup4", "tiny", &[1, 2], true), 363_496);
    for name in wrong_rulebooks() {
        compare(&name, "tiny", &[2], name == "double-executions");
    }
}

#[test]
fn depth_first_gives_the_breadth_first_result_on_the_other_presets() {
    for bound in ["runes", "deck", "costs", "combat"] {
        compare("rup4", bound, &[2], false);
    }
}

#[test]
fn only_scenarios_with_interchangeable_gear_are_not_trees() {
    // Symmetry reduction gives one fingerprint to the states that differ by which of two
    // identical gear was chosen: those scenarios are searched breadth-first.
    let sys = RepeatSystem::new(rulebook("rup4"), &Bound::preset("large").unwrap()).unwrap();
    let (mut trees, mut not) = (0, 0);
    for s in sys.init_states() {
        let interchangeable = properties::system::interchangeable_gear(&s);
        assert_eq!(sys.tree_shaped(&s), !interchangeable);
        if interchangeable {
            not += 1;
        } else {
            trees += 1;
        }
    }
    assert!(trees > 0 && not > 0, "{trees} trees, {not} not");
}
