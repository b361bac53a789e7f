//! What `rbcheck bounds`, `rbcheck rules --list` and the `--bound` help tell a user, checked
//! against the presets and fields themselves: every preset and field is listed, with what the
//! program would actually do with it.

use crate::shared::rbcheck;
use properties::bound::{Bound, PRESET_TABLE};
use std::path::PathBuf;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rbcheck-listings-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bounds_lists_every_preset_with_its_purpose_contents_and_scenario_count() {
    let o = rbcheck(&["bounds"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for p in PRESET_TABLE {
        let b = Bound::preset(p.name).unwrap();
        let n = b.scenario_count().unwrap();
        let head = format!("{} ({n} scenarios): {}", p.name, p.purpose);
        assert!(out.lines().any(|l| l == head), "missing `{head}`\n{out}");
        let block: String = out
            .split(&head)
            .nth(1)
            .unwrap()
            .lines()
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        for card in &b.catalogue {
            assert!(block.contains(card.as_str()), "{}: {card}\n{block}", p.name);
        }
        for key in ["items", "boards", "extras", "resources", "reactions"] {
            assert!(block.contains(key), "{}: no {key}\n{block}", p.name);
        }
        if !b.also.is_empty() {
            assert!(
                block.contains(&format!("part 2 of {}", b.also.len() + 1)),
                "{}: its parts\n{block}",
                p.name
            );
        }
    }
}

#[test]
fn bounds_json_holds_every_preset_as_a_bound_file_writes_it() {
    let o = rbcheck(&["bounds", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "rbcheck-bounds/1");
    let presets = v["presets"].as_array().unwrap();
    assert_eq!(presets.len(), PRESET_TABLE.len());
    for (j, p) in presets.iter().zip(PRESET_TABLE) {
        let b = Bound::preset(p.name).unwrap();
        assert_eq!(j["name"], p.name);
        assert_eq!(j["purpose"], p.purpose);
        assert_eq!(j["scenarios"], b.scenario_count().unwrap());
        assert_eq!(j["bound"], serde_json::to_value(&b).unwrap(), "{}", p.name);
    }
    let one = rbcheck(&["bounds", "deck", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(v["presets"].as_array().unwrap().len(), 1);
    assert_eq!(v["presets"][0]["name"], "deck");
}

#[test]
fn a_preset_printed_as_toml_reads_back_as_the_same_bound_and_checks() {
    let dir = scratch("toml");
    for name in Bound::PRESETS {
        let o = rbcheck(&["bounds", name, "--toml"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        let back = Bound::from_toml(&stdout(&o), name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, Bound::preset(name).unwrap(), "{name}");
    }
    // The file is one a user can pass to --bound.
    let file = dir.join("my-bound.toml");
    std::fs::write(&file, stdout(&rbcheck(&["bounds", "tiny", "--toml"]))).unwrap();
    let o = rbcheck(&["check", "--bound", file.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("every property holds"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_preset_is_an_error_naming_the_presets() {
    let o = rbcheck(&["bounds", "huge"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("unknown bound preset `huge`"), "{err}");
    assert!(Bound::PRESETS.iter().all(|p| err.contains(p)), "{err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn the_bound_help_of_every_command_lists_every_preset() {
    for command in ["check", "cases", "diff", "graph"] {
        let long = stdout(&rbcheck(&[command, "--help"]));
        for p in PRESET_TABLE {
            let n = Bound::preset(p.name).unwrap().scenario_count().unwrap();
            let line = format!("{:<8} {n} scenarios: {}", p.name, p.purpose);
            assert!(long.contains(&line), "{command} --help: `{line}`\n{long}");
        }
        let short = stdout(&rbcheck(&[command, "-h"]));
        let names = format!("Presets: {}.", Bound::PRESETS.join(", "));
        assert!(short.contains(&names), "{command} -h\n{short}");
    }
}

#[test]
fn rules_list_gives_each_field_what_it_decides_and_values_a_rulebook_accepts() {
    let o = rbcheck(&["rules", "--list"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    let dir = scratch("rules");
    for f in model::rulebook::FIELDS {
        let block: Vec<&str> = out
            .split(&format!("\n{}  [{}]\n", f.name, f.rule))
            .nth(1)
            .unwrap_or_else(|| panic!("no entry for {}\n{out}", f.name))
            .lines()
            .take(3)
            .collect();
        assert_eq!(block[0], format!("    decides: {}", f.doc), "{}", f.name);
        assert!(block[2].starts_with("    presets: v1.2="), "{}", f.name);
        let values = block[1].strip_prefix("    values:  ").unwrap();
        let listed: Vec<String> = match values.strip_prefix("a count (") {
            Some(rest) => rest
                .trim_end_matches(", ...)")
                .split(", ")
                .map(String::from)
                .collect(),
            None => values.split(" | ").map(|v| v.to_string()).collect(),
        };
        assert!(listed.len() >= 2, "{}: {values}", f.name);
        // Every value listed, written into a rulebook file as listed, is accepted.
        for v in listed {
            let literal = if v.parse::<i64>().is_ok() || v == "true" || v == "false" {
                v.clone()
            } else {
                format!("\"{v}\"")
            };
            let file = dir.join(format!("{}.toml", f.name));
            std::fs::write(&file, format!("base = \"rup4\"\n{} = {literal}\n", f.name)).unwrap();
            let text = std::fs::read_to_string(&file).unwrap();
            model::rulebook::Rulebook::from_toml(&text, f.name)
                .unwrap_or_else(|e| panic!("{} = {literal}: {e}", f.name));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bounds_states_counts_what_check_explores() {
    let o = rbcheck(&["bounds", "tiny", "--states", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let check = rbcheck(&["check", "--bound", "tiny", "--json", "--quiet"]);
    let c: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    assert!(c["states"].as_u64().unwrap() > 0);
    assert_eq!(v["presets"][0]["states"], c["states"]);
    let human = stdout(&rbcheck(&["bounds", "tiny", "--states"]));
    assert!(
        human.starts_with(&format!(
            "tiny ({} scenarios, {} states): ",
            Bound::preset("tiny").unwrap().scenario_count().unwrap(),
            c["states"]
        )),
        "{human}"
    );
    // Without --states nothing is explored and the count is null.
    let plain = rbcheck(&["bounds", "tiny", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(v["presets"][0]["states"].is_null());
}
