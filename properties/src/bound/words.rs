//! Scenario names in the bound file's vocabulary: a board, a body shape, a board card or the
//! resources are named as a bound file spells them (`enemy-spread`, `kill-linked`,
//! `marai-spire`, `rich`), never by their Rust names, so that a name read in a report can be
//! typed back into a bound file.

use super::BodyShape;
use serde::Serialize;

/// A value as a bound file spells it: its serde name (e.g. `kill-linked`).
pub(super) fn word<T: Serialize + std::fmt::Debug>(value: &T) -> String {
    match toml::Value::try_from(value) {
        Ok(toml::Value::String(s)) => s,
        // Every bound enum is a unit enum that serialises to a string; Debug only as a fallback.
        _ => format!("{value:?}"),
    }
}

/// A generated item's card name: its body shape and its [Repeat] instances' costs, as the
/// bound file's `bodies` and `instance_costs` spell them, e.g.
/// `Generated kill-linked spell, Repeat [1] / [A]` or `Generated deal spell, no Repeat`.
pub(super) fn generated_name(body: BodyShape, costs: &[&str]) -> String {
    let body = word(&body);
    if costs.is_empty() {
        format!("Generated {body} spell, no Repeat")
    } else {
        format!("Generated {body} spell, Repeat {}", costs.join(" / "))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{BoardShape, Extra, Resources};
    use super::*;

    #[test]
    fn names_are_the_bound_files_words() {
        assert_eq!(word(&BoardShape::EnemySpread), "enemy-spread");
        assert_eq!(word(&Extra::OpponentNearVictory), "opponent-near-victory");
        assert_eq!(word(&Resources::Rich), "rich");
        assert_eq!(
            generated_name(BodyShape::KillLinked, &["[1]", "[A]"]),
            "Generated kill-linked spell, Repeat [1] / [A]"
        );
        assert_eq!(
            generated_name(BodyShape::Deal, &[]),
            "Generated deal spell, no Repeat"
        );
    }

    #[test]
    fn every_scenario_name_reads_back_as_bound_words() {
        // A Rust name (CamelCase) anywhere in a preset's scenario names would be a leak.
        for preset in crate::Bound::PRESETS {
            let bound = crate::Bound::preset(preset).unwrap();
            let mut cards = model::catalogue::Catalogue::builtin().cards;
            for sc in bound.scenarios(&mut cards).unwrap() {
                // Card names are proper nouns; the rest (board, board cards, resources) is words.
                let rest: Vec<&str> = sc.name.split(" | ").skip(1).take(3).collect();
                assert!(
                    rest[0].starts_with("board ")
                        && !rest.iter().any(|w| w.contains(char::is_uppercase)),
                    "{preset}: {}",
                    sc.name
                );
            }
        }
    }
}
