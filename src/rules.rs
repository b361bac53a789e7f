//! `rbcheck rules`: the rulebook presets and fields, each field with its rule, what it decides,
//! the values it takes and each preset's value, as text or as one JSON object.

use model::rulebook::{Rulebook, Version, FIELDS};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The `format` of [`RulesJson`], the report of `rbcheck rules --json`.
pub const RULES_FORMAT: &str = "rbcheck-rules/1";

/// The report of `rbcheck rules --json`: everything `rules --list` prints.
#[derive(Clone, Debug, Serialize)]
pub struct RulesJson {
    /// Always [`RULES_FORMAT`].
    pub format: &'static str,
    /// The preset names, in the order `--rules` takes them.
    pub presets: Vec<&'static str>,
    /// Every field a rulebook file may set.
    pub fields: Vec<FieldJson>,
    /// Cards with printed text the model leaves out.
    pub unmodelled_cards: Vec<UnmodelledCard>,
}

/// One rulebook field.
#[derive(Clone, Debug, Serialize)]
pub struct FieldJson {
    /// Its name in rulebook files.
    pub name: &'static str,
    /// The rule clause it encodes.
    pub rule: &'static str,
    /// What it decides.
    pub decides: &'static str,
    /// The values it takes, as a rulebook file writes them (a count lists its first few).
    pub values: Vec<toml::Value>,
    /// True when the field is a count (its values go on past those listed).
    pub count: bool,
    /// Each preset's value, by preset name.
    pub presets: BTreeMap<&'static str, toml::Value>,
}

/// A catalogue card with printed parts the model does not express.
#[derive(Clone, Debug, Serialize)]
pub struct UnmodelledCard {
    /// The card's name.
    pub name: String,
    /// Its collector code.
    pub code: String,
    /// The parts of its text the model leaves out.
    pub unmodelled: Vec<String>,
}

/// Everything `rules --list` and `rules --json` print, read from the model's own tables.
pub fn json() -> RulesJson {
    let tables: Vec<(&'static str, toml::Table)> = Version::ALL
        .iter()
        .map(|v| {
            let table = toml::Table::try_from(Rulebook::preset(*v)).unwrap_or_default();
            (v.name(), table)
        })
        .collect();
    let fields = FIELDS
        .iter()
        .map(|f| {
            let values = model::rulebook::field_values(f.name).unwrap_or_default();
            FieldJson {
                name: f.name,
                rule: f.rule,
                decides: f.doc,
                count: !values.is_empty() && values.iter().all(toml::Value::is_integer),
                values,
                presets: tables
                    .iter()
                    .filter_map(|(v, t)| Some((*v, t.get(f.name)?.clone())))
                    .collect(),
            }
        })
        .collect();
    let unmodelled_cards = model::catalogue::Catalogue::builtin()
        .cards
        .into_iter()
        .filter(|c| !c.printed.unmodelled.is_empty())
        .map(|c| UnmodelledCard {
            name: c.name,
            code: c.code,
            unmodelled: c.printed.unmodelled,
        })
        .collect();
    RulesJson {
        format: RULES_FORMAT,
        presets: Version::ALL.iter().map(|v| v.name()).collect(),
        fields,
        unmodelled_cards,
    }
}

/// `rbcheck rules`: the presets, and with `list` every field with its rule and each preset's
/// value.
pub fn text(list: bool) -> String {
    let all = json();
    let mut o = String::new();
    let _ = writeln!(o, "presets: {}", all.presets.join(", "));
    if !list {
        let _ = writeln!(
            o,
            "(`rbcheck rules --list` prints every field with its rule, what it decides, the values \
             it takes and each preset's value)"
        );
        return o;
    }
    let _ = writeln!(
        o,
        "A rulebook file is `base = \"rup4\"` (or another preset) and the fields it changes, e.g. \
         `payments_per_instance = 2`.\n"
    );
    for f in &all.fields {
        let presets: Vec<String> = all
            .presets
            .iter()
            .map(|p| {
                let value = f.presets.get(p).map(|x| x.to_string());
                format!("{p}={}", value.unwrap_or_default())
            })
            .collect();
        let _ = writeln!(
            o,
            "{}  [{}]\n    decides: {}\n    values:  {}\n    presets: {}",
            f.name,
            f.rule,
            f.decides,
            values_words(f),
            presets.join("  ")
        );
    }
    let _ = writeln!(
        o,
        "\ncards with printed text the model leaves out (model/cards.toml `unmodelled`):"
    );
    for c in &all.unmodelled_cards {
        let _ = writeln!(o, "  {} ({}): {}", c.name, c.code, c.unmodelled.join(" | "));
    }
    o
}

/// The values a field takes, as a rulebook file writes them (`false | true`,
/// `each-cost | once-per-play`); a count says it is one.
fn values_words(f: &FieldJson) -> String {
    let words: Vec<String> = f
        .values
        .iter()
        .map(|v| match v {
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    if f.count {
        format!("a count ({}, ...)", words.join(", "))
    } else {
        words.join(" | ")
    }
}
