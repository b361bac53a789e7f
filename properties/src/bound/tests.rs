//! Tests of bounds: scenario counts, presets, and errors naming the line.

use super::*;

#[test]
fn multisets_do_not_repeat_permutations() {
    assert_eq!(multisets(4, 2).len(), 10);
    assert_eq!(multisets(4, 3).len(), 20);
    assert_eq!(multisets(2, 0), vec![Vec::<usize>::new()]);
}

#[test]
fn scenario_counts_are_computed_before_building() {
    for name in Bound::PRESETS {
        let b = Bound::preset(name).unwrap();
        let built = b.scenarios(&mut Catalogue::builtin().cards).unwrap().len();
        assert_eq!(b.scenario_count().unwrap(), built as u64, "{name}");
    }
    // 400 boards, extras and reactions: 64 million scenarios times the items, refused
    // before any is built, with the count.
    let many = |n: usize, v: &str| vec![v; n].join(", ");
    let text = format!(
        "instances = [0]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\nboards = [{}]\nextras = [{}]\nresources = [\"rich\"]\nreactions = [{}]\n",
        many(400, "\"empty\""),
        many(400, "[]"),
        many(400, "[]"),
    );
    let e = Bound::from_toml(&text, "huge").unwrap_err();
    assert!(
        e.message.contains("makes 64000000 scenarios"),
        "{}",
        e.message
    );
    assert!(e.message.contains("at most 1000000"), "{}", e.message);
    assert_eq!(e.line, 7, "the last of the largest lists");
    let b = Bound {
        instances: vec![3; 400],
        instance_costs: vec!["[1]".into(); 1 << 20],
        ..Bound::preset("tiny").unwrap()
    };
    assert!(b.scenario_count().unwrap_err().contains("more than 2^64"));
}

#[test]
fn presets_build() {
    for name in Bound::PRESETS {
        let b = Bound::preset(name).unwrap();
        let mut cards = Catalogue::builtin().cards;
        let scenarios = b.scenarios(&mut cards).unwrap();
        assert!(!scenarios.is_empty());
    }
}

#[test]
fn bad_bound_files_name_the_line() {
    let e = Bound::from_toml("instances = [5]\ninstance_costs = []\nbodies = []\nboards = [\"empty\"]\nextras = [[]]\nresources = [\"rich\"]\nreactions = [[]]\n", "x").unwrap_err();
    assert_eq!(e.line, 1);
    let e = Bound::from_toml("instances = [1]\ninstance_costs = [\"[Q]\"]\nbodies = []\nboards = [\"empty\"]\nextras = [[]]\nresources = [\"rich\"]\nreactions = [[]]\n", "x").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let e = Bound::from_toml(
        "instances = [1]\ninstance_costs = []\nbodies = [\"wobble\"]\n",
        "x",
    )
    .unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    let e = Bound::from_toml("instances = [1]\ninstance_costs = []\nbodies = []\nboards = [\"empty\"]\nextras = [[]]\nresources = [\"rich\"]\nreactions = [[\"Nope\"]]\n", "x").unwrap_err();
    assert!(e.message.contains("Nope"), "{e}");
}

#[test]
fn also_parts_add_their_scenarios_and_name_their_line() {
    let main = "instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\nboards = [\"enemy-base\"]\nextras = [[]]\nresources = [\"rich\"]\nreactions = [[]]\n";
    let part = "\n[[also]]\ninstances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\", \"kill-linked\"]\nboards = [\"enemy-spread\"]\nextras = [[]]\nresources = [\"rich\", \"tight\"]\nreactions = [[]]\n";
    let b = Bound::from_toml(&format!("{main}{part}"), "x").unwrap();
    assert_eq!(b.scenario_count().unwrap(), 1 + 4);
    let mut cards = Catalogue::builtin().cards;
    let before = cards.len();
    let scenarios = b.scenarios(&mut cards).unwrap();
    assert_eq!(scenarios.len(), 5);
    assert!(
        scenarios[4].name.contains("board enemy-spread"),
        "{}",
        scenarios[4].name
    );
    // The Deal item both parts generate is one definition.
    assert_eq!(cards.len(), before + 2);
    let bad = part.replace("reactions = [[]]", "reactions = [[\"Nope\"]]");
    let e = Bound::from_toml(&format!("{main}{bad}"), "x").unwrap_err();
    assert!(e.message.contains("Nope"), "{e}");
    assert_eq!(e.line, 9, "the `[[also]]` table's line: {e}");
}

/// With two `[[also]]` parts (and one nested in the first), an error in a later part names that
/// part's header line, not the first part's (every part's error once named line 9).
#[test]
fn each_also_part_names_its_own_header_line() {
    let main = "instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\nboards = [\"enemy-base\"]\nextras = [[]]\nresources = [\"rich\"]\nreactions = [[]]\n";
    let part = "\n[[also]]\ninstances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\nboards = [\"enemy-base\"]\nextras = [[]]\nresources = [\"rich\"]\nreactions = [[]]\n";
    let bad = part.replace("reactions = [[]]", "reactions = [[\"Nope\"]]");
    // Parts start on lines 9 and 18.
    let e = Bound::from_toml(&format!("{main}{part}{bad}"), "x").unwrap_err();
    assert!(e.message.contains("Nope"), "{e}");
    assert_eq!(e.line, 18, "{e}");
    // A part nested in the first (line 18), then the second part (line 27).
    let nested = part.replace("[[also]]", "[[also.also]]");
    let e = Bound::from_toml(&format!("{main}{part}{nested}{bad}"), "x").unwrap_err();
    assert_eq!(e.line, 27, "{e}");
    let nested_bad = bad.replace("[[also]]", "[[also.also]]");
    let e = Bound::from_toml(&format!("{main}{part}{nested_bad}{part}"), "x").unwrap_err();
    assert_eq!(e.line, 18, "{e}");
    assert!(Bound::from_toml(&format!("{main}{part}{nested}{part}"), "x").is_ok());
}

/// `--bound auto` draws from every preset but `large`: a new preset is not left out of it.
#[test]
fn the_auto_pool_holds_every_preset_but_large() {
    let mut pool: Vec<&str> = super::pool::POOL.to_vec();
    let mut presets: Vec<&str> = Bound::PRESETS
        .iter()
        .copied()
        .filter(|p| *p != "large")
        .collect();
    pool.sort_unstable();
    presets.sort_unstable();
    assert_eq!(pool, presets);
}
