//! `rbcheck bounds`: every bound preset with what it is for, what it contains (in the words a
//! bound file uses) and its size in scenarios, read from `properties::bound::PRESET_TABLE`, the one
//! list of presets; with `--states`, its size in states too, counted by exploring it; and the
//! text of the `--bound` option of every command, from the same list.

use crate::check::{check, CheckOptions};
use crate::Error;
use properties::bound::{Bound, HandDraw, PRESET_TABLE};
use serde::Serialize;
use std::fmt::Write;

/// The `format` of [`BoundsJson`], the report of `rbcheck bounds --json`.
pub const BOUNDS_FORMAT: &str = "rbcheck-bounds/1";

/// The report of `rbcheck bounds --json`.
#[derive(Clone, Debug, Serialize)]
pub struct BoundsJson {
    /// Always [`BOUNDS_FORMAT`].
    pub format: &'static str,
    /// Every preset, in the order `--bound` lists them.
    pub presets: Vec<PresetSummary>,
}

/// One preset: its name, purpose, size and contents.
#[derive(Clone, Debug, Serialize)]
pub struct PresetSummary {
    /// The name `--bound` takes.
    pub name: &'static str,
    /// What it is for.
    pub purpose: &'static str,
    /// How many scenarios it makes, its `also` parts included (computed, not built).
    pub scenarios: u64,
    /// How many generated items (body shapes times [Repeat] instance cost multisets).
    pub generated_items: u64,
    /// Distinct states under RUP4, counted by exploring the preset (`--states`); null when not
    /// counted.
    pub states: Option<u64>,
    /// The preset itself, as a bound file writes it (the same keys; `also` parts nested).
    pub bound: Bound,
}

/// Every preset, summarised.
pub fn summaries() -> Vec<PresetSummary> {
    PRESET_TABLE
        .iter()
        .filter_map(|p| {
            let bound = Bound::preset(p.name)?;
            Some(PresetSummary {
                name: p.name,
                purpose: p.purpose,
                scenarios: bound.scenario_count().unwrap_or(u64::MAX),
                generated_items: generated_items(&bound),
                states: None,
                bound,
            })
        })
        .collect()
}

/// The presets `--states` counts when no preset is named: all but `large`, whose exploration
/// takes minutes and gigabytes (name it to count it).
pub fn counted_by_default(name: &str) -> bool {
    name != "large"
}

/// Counts a preset's distinct states under RUP4 by exploring it, as `rbcheck check --bound NAME`
/// does (the same search, so the same count and cost).
pub fn count_states(name: &str, threads: usize) -> Result<u64, Error> {
    let opts = CheckOptions {
        rules: "rup4".into(),
        bound: name.into(),
        threads,
        ..CheckOptions::default()
    };
    let run = check(&opts, None, None)?;
    if !run.result.complete {
        return Err(Error::Usage(format!(
            "bound `{name}`: the exploration stopped before the end ({:?}), so its states were not all counted",
            run.result.stop
        )));
    }
    Ok(run.result.stats.states as u64)
}

/// One preset as a bound file (TOML), to copy and edit; it reads back as the same bound.
pub fn toml(name: &str) -> Result<String, String> {
    let bound = Bound::preset(name).ok_or_else(|| unknown(name))?;
    toml::to_string(&bound).map_err(|e| format!("cannot print bound `{name}` as TOML: {e}"))
}

/// The error for a name that is no preset, listing the presets.
fn unknown(name: &str) -> String {
    format!(
        "unknown bound preset `{name}`; the presets are {}",
        Bound::PRESETS.join(", ")
    )
}

/// The text of every command's `--bound` option: the presets, one a line, with their sizes.
pub fn bound_help(intro: &str) -> String {
    let mut o = format!("{intro}\nPresets (`rbcheck bounds` says what each contains):");
    for s in summaries() {
        let _ = write!(
            o,
            "\n  {:<8} {} scenarios: {}",
            s.name, s.scenarios, s.purpose
        );
    }
    o
}

/// The human listing of `all` (the summaries, states counted or not): each preset (or the one
/// named) with its purpose, size and contents.
pub fn human(all: &[PresetSummary], only: Option<&str>) -> Result<String, String> {
    let chosen: Vec<&PresetSummary> = match only {
        None => all.iter().collect(),
        Some(name) => {
            let found: Vec<&PresetSummary> = all.iter().filter(|s| s.name == name).collect();
            if found.is_empty() {
                return Err(unknown(name));
            }
            found
        }
    };
    let mut o = String::new();
    for s in &chosen {
        let states = match s.states {
            Some(n) => format!(", {n} states"),
            None => String::new(),
        };
        let _ = writeln!(
            o,
            "{} ({} scenarios{states}): {}",
            s.name, s.scenarios, s.purpose
        );
        contents(&mut o, &s.bound, s.generated_items, "  ");
        let parts = &s.bound.also;
        for (i, part) in parts.iter().enumerate() {
            let _ = writeln!(
                o,
                "  part {} of {} ({} scenarios):",
                i + 2,
                parts.len() + 1,
                part.scenario_count().unwrap_or(u64::MAX)
            );
            contents(&mut o, part, generated_items(part), "    ");
        }
        o.push('\n');
    }
    let _ = writeln!(
        o,
        "A scenario is one item on one board with one set of board cards, resources and hands. \
         `rbcheck bounds NAME --toml` prints a preset as a bound file to start an edit from; \
         `--states` counts each preset's states by exploring it (all but `large` unless named)."
    );
    Ok(o)
}

/// The lines of one bound (or part): items, boards, board cards, resources, hands, turn.
fn contents(o: &mut String, b: &Bound, generated: u64, indent: &str) {
    let mut items = vec![];
    if generated > 0 {
        let instances: Vec<String> = b.instances.iter().map(u8::to_string).collect();
        let instances = match instances.split_last() {
            Some((last, [])) if last == "1" => "1 [Repeat] instance".to_string(),
            Some((last, [])) => format!("{last} [Repeat] instances"),
            Some((last, rest)) => format!("{} or {last} [Repeat] instances", rest.join(", ")),
            None => "no [Repeat] instance".to_string(),
        };
        items.push(format!(
            "{generated} generated (bodies {}; {instances} costing {}; printed cost [{}])",
            list(&b.bodies),
            b.instance_costs.join(", "),
            b.item_cost
        ));
    }
    if !b.catalogue.is_empty() {
        items.push(format!("catalogue cards {}", b.catalogue.join(", ")));
    }
    if b.abilities {
        items.push("the repeated triggered ability (Vendetta Duelist)".into());
    }
    let line = |o: &mut String, key: &str, value: String| {
        let _ = writeln!(o, "{indent}{key:<11}{value}");
    };
    line(o, "items", items.join("; "));
    line(o, "boards", list(&b.boards));
    let extras: Vec<String> = b
        .extras
        .iter()
        .map(|set| {
            if set.is_empty() {
                "none".to_string()
            } else {
                list(set).replace(", ", " + ")
            }
        })
        .collect();
    line(o, "extras", extras.join(" | "));
    line(o, "resources", list(&b.resources));
    let reactions: Vec<String> = b
        .reactions
        .iter()
        .map(|r| {
            if r.is_empty() {
                "none".to_string()
            } else {
                r.join(" + ")
            }
        })
        .collect();
    line(o, "reactions", reactions.join(" | "));
    if !b.deck_top.is_empty() {
        line(o, "deck top", b.deck_top.join(", "));
    }
    if !b.turn.is_single() {
        line(
            o,
            "turn",
            format!(
                "{} plays; you also hold {}; the opponent also holds {}",
                b.turn.plays,
                drawn(&b.turn.yours),
                drawn(&b.turn.opponent)
            ),
        );
    }
}

/// "up to 1 of Defy, Frigid Touch", or "nothing more".
fn drawn(h: &HandDraw) -> String {
    if h.up_to == 0 || h.from.is_empty() {
        "nothing more".into()
    } else {
        format!("up to {} of {}", h.up_to, h.from.join(", "))
    }
}

/// Values as a bound file spells them (`enemy-spread`, `kill-linked`), comma-separated.
fn list<T: Serialize + std::fmt::Debug>(values: &[T]) -> String {
    let words: Vec<String> = values
        .iter()
        .map(|v| match toml::Value::try_from(v) {
            Ok(toml::Value::String(s)) => s,
            _ => format!("{v:?}"),
        })
        .collect();
    if words.is_empty() {
        "none".into()
    } else {
        words.join(", ")
    }
}

/// Generated items of one bound (not its parts): for each instance count k, every multiset of
/// k instance costs, times the body shapes.
fn generated_items(b: &Bound) -> u64 {
    let n = b.instance_costs.len() as u64;
    let mut total = 0u64;
    for &k in &b.instances {
        let mut combos = 1u64;
        for i in 0..u64::from(k) {
            combos = combos.saturating_mul(n + i) / (i + 1);
        }
        total = total.saturating_add(combos.saturating_mul(b.bodies.len() as u64));
    }
    total
}
