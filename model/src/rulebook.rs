//! Rulebooks: the rules versions (v1.2, v1.3, RUP4, the third-party guide) as values, each
//! difference a named field citing its rule, and the open questions of the digest as options.
//!
//! A rulebook file is TOML: `base = "rup4"` and any fields to change. Fields that encode a rule the
//! published rules all agree on (e.g. `payments_per_instance`) exist so that a rules team can try
//! an edit and see which invariants it breaks.

use crate::catalogue::{line_at, line_of_key};

mod fields;
mod readings;
mod tracked;
pub use fields::{FieldDoc, FIELDS};
pub use readings::*;
use serde::{Deserialize, Serialize};
use std::fmt;
pub use tracked::{field_bit, field_values, reading, Rules, TRACKED};

/// A published rules version or reading that a rulebook starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Version {
    /// Core Rules v1.2 (2025-12-01): Repeat is rule 746, spells only.
    #[serde(rename = "v1.2")]
    V1_2,
    /// Core Rules v1.3 (2026-03-30): rule 820, spells only.
    #[serde(rename = "v1.3")]
    V1_3,
    /// Core Rules RUP4 (2026-07-16): rule 820 on spells and abilities, new choices 750–755.
    Rup4,
    /// RUP4 read as the third-party guide (seed 000) reads new choices.
    Guide,
}

impl Version {
    /// Every version, oldest first.
    pub const ALL: [Version; 4] = [Version::V1_2, Version::V1_3, Version::Rup4, Version::Guide];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Version::V1_2 => "v1.2",
            Version::V1_3 => "v1.3",
            Version::Rup4 => "rup4",
            Version::Guide => "guide",
        }
    }

    /// The version with this name.
    pub fn parse(s: &str) -> Option<Version> {
        Version::ALL.into_iter().find(|v| v.name() == s)
    }
}

/// The rules the model plays by.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rulebook {
    /// The name shown in reports (the preset's, or the file's).
    pub name: String,
    /// The version this rulebook starts from.
    pub base: Version,
    /// 820.1.a: abilities (not only spells) can have [Repeat]. False in v1.2 (746.1.a) and v1.3.
    pub repeat_on_abilities: bool,
    /// 820.1.c.3: how many times one [Repeat] instance may be paid. The rules say 1.
    pub payments_per_instance: u8,
    /// 820.3: extra executions per paid instance. The rules say 1.
    pub executions_per_instance: u8,
    /// 356.4.c (v1.3+): a discount on one cost component applies as soon as that component is
    /// added, and only to it. False (v1.2 §353): all discounts apply to the total.
    pub component_discounts: bool,
    /// Open question (a): Ezreal's discount once per optional cost or once per play.
    pub ezreal_scope: EzrealScope,
    /// 356.4 and the Temporal Portal FAQ: a whole-card discount applies once per play. True
    /// applies it once per execution (a wrong edit).
    pub discount_per_execution: bool,
    /// 356.4.f.1: a chosen optional additional cost reduced to 0 still counts as paid.
    pub zero_cost_counts_as_paid: bool,
    /// 359.3.e.14 (v1.3+): a linked instruction executes only if the one it refers to did.
    pub linked_instructions: bool,
    /// 359.3.e.15 (v1.3+): an item that leaves the chain during its resolution stops executing.
    pub leaving_chain_stops_execution: bool,
    /// 809.1.c: Deflect per choice (the errata) or per item (v1.2 as printed).
    pub deflect: DeflectRule,
    /// 135.2.b.3 (v1.3+): "as you play" instructions are not repeated. True repeats them once per
    /// extra execution (the v1.2 reading of "execute the instructions of this spell").
    pub as_you_play_repeated: bool,
    /// 402.1: when a trigger's "you may" is decided.
    pub trigger_may: TriggerMay,
    /// 820.3.a: the item is played once. True makes a play event per execution (a wrong edit).
    pub play_event_per_execution: bool,
    /// 158.3: no priority between executions. True opens a window (a wrong edit).
    pub window_between_executions: bool,
    /// 425.1.c: a counter refunds nothing. True refunds every cost paid (a wrong edit).
    pub refund_on_counter: bool,
    /// 425.1.a.1: a countered card goes to its owner's trash. False makes it vanish (a wrong edit).
    pub countered_card_to_trash: bool,
    /// 358.5: a play that fails is undone. False leaves it pending on the chain (a wrong edit).
    pub undo_illegal_play: bool,
    /// 359.3.e.5–7: what happens to illegal targets.
    pub illegal_targets: IllegalTargets,
    /// 820.2.a: each execution's own choices, or the first execution's copied.
    pub extra_execution_choices: ExtraChoices,
    /// 750–755: what new choices may do.
    pub new_choices: NewChoicesRule,
    /// Open question (d): per execution or for the whole item.
    pub new_choices_scope: NewChoicesScope,
    /// 752.2: new choices never remake [Repeat] decisions. True lets them (a wrong edit).
    pub new_choices_reopen_repeat: bool,
    /// Open question (b): a Targeting Effect once per item or once per choice.
    pub targeting_triggers: TargetingTriggers,
    /// 359.3.e.9.a, digest silent on Repeat: what a repeated item "chooses".
    #[serde(default = "default_chosen_across")]
    pub chosen_across: ChosenAcross,
    /// What "while I'm in a showdown" asks of the unit (Syndra); the digest is silent.
    pub in_showdown: InShowdown,
    /// 358.5: undoing a play gives back the runes its payment exhausted and recycled. False
    /// leaves them spent (and the resources they added gone): a wrong edit, the engine bug of an
    /// auto-payment that fails half-way.
    #[serde(default = "yes")]
    pub undo_gives_back_runes: bool,
    /// 357.1.a as this model reads it: while paying, a rune is exhausted or recycled only while
    /// the cost still needs what it adds. False lets a payment use runes past its cost, the
    /// surplus left floating: a wrong edit, an auto-payer that taps more than it must.
    #[serde(default = "yes")]
    pub runes_only_for_the_cost: bool,
    /// 359.3.e.14, 321, digest silent: what "if this kills it" reads after a deal.
    #[serde(default = "default_kills_it")]
    pub kills_it: KillsIt,
    /// "The next spell you play this turn" (Temporal Portal, The Academy): the grant is used up
    /// by that one spell. False leaves it for every spell this turn: a wrong edit.
    #[serde(default = "yes")]
    pub next_spell_grant_used_once: bool,
    /// 358.5: undoing a play gives back the grant its spell took. False loses the grant: a wrong
    /// edit.
    #[serde(default = "yes")]
    pub undo_gives_back_grants: bool,
    /// 357.1.a, 429.3, digest silent on demands: a player told to pay a demand ("unless its
    /// controller pays [N]", Hard Bargain) may exhaust runes to add the Energy, as when paying a
    /// cost. False pays a demand from the pool alone.
    #[serde(default = "yes")]
    pub demand_paid_with_runes: bool,
    /// 358.5, digest silent: who holds priority after an undone response.
    #[serde(default = "default_priority_after_undone")]
    pub priority_after_undone: PriorityAfterUndone,
    /// 419.4.a, digest silent on a change of control: who played a spell for its play event.
    #[serde(default = "default_spell_played_by")]
    pub spell_played_by: SpellPlayedBy,
    /// 334.1, digest silent on damage: the damage marked on units is removed when the turn ends.
    /// False keeps it past the end of the turn.
    #[serde(default = "yes")]
    pub damage_removed_at_end_of_turn: bool,
    /// 423 (Stun; the digest gives no rule for how long it lasts): a unit's stun ends when the
    /// turn ends. False (the model's reading) keeps it past the end of the turn, until a turn the
    /// scenario does not reach.
    #[serde(default)]
    pub stun_ends_at_end_of_turn: bool,
    /// 356.3, digest silent: "spells that choose me cost [N] more" adds its increase for each
    /// choice of the unit, as Deflect's errata reads Deflect (809.1.c). False adds it once per
    /// item.
    #[serde(default = "yes")]
    pub increase_per_choice: bool,
    /// 356.2.b, 359.3.e.14, digest silent on a change of control: a spell's "if you paid" reads
    /// whether its optional additional cost was paid, whoever controls the spell as it resolves.
    /// False reads it as paid only while the player who paid controls the spell.
    #[serde(default = "yes")]
    pub paid_read_after_control_change: bool,
}

/// The model's reading of `spell_played_by` (a serde default, so that older rulebook JSON still
/// reads).
fn default_spell_played_by() -> SpellPlayedBy {
    SpellPlayedBy::Controller
}

/// The model's reading of `priority_after_undone` (a serde default, so that older rulebook JSON
/// still reads).
fn default_priority_after_undone() -> PriorityAfterUndone {
    PriorityAfterUndone::Restored
}

/// The model's reading of `kills_it` (a serde default, so that older rulebook JSON still reads).
fn default_kills_it() -> KillsIt {
    KillsIt::MadeLethal
}

/// The right reading of a rune field missing from an older rulebook (a serde default).
fn yes() -> bool {
    true
}

/// RUP4's reading of `chosen_across` (a serde default, so that older rulebook JSON still reads).
fn default_chosen_across() -> ChosenAcross {
    ChosenAcross::AllExecutions
}

impl Rulebook {
    /// The preset for a published version.
    pub fn preset(v: Version) -> Rulebook {
        let rup4 = Rulebook {
            name: v.name().to_string(),
            base: v,
            repeat_on_abilities: true,
            payments_per_instance: 1,
            executions_per_instance: 1,
            component_discounts: true,
            ezreal_scope: EzrealScope::EachCost,
            discount_per_execution: false,
            zero_cost_counts_as_paid: true,
            linked_instructions: true,
            leaving_chain_stops_execution: true,
            deflect: DeflectRule::PerChoice,
            as_you_play_repeated: false,
            trigger_may: TriggerMay::AtChoices,
            play_event_per_execution: false,
            window_between_executions: false,
            refund_on_counter: false,
            countered_card_to_trash: true,
            undo_illegal_play: true,
            illegal_targets: IllegalTargets::Ignored,
            extra_execution_choices: ExtraChoices::Own,
            new_choices: NewChoicesRule::Subset,
            new_choices_scope: NewChoicesScope::PerExecution,
            new_choices_reopen_repeat: false,
            targeting_triggers: TargetingTriggers::OncePerItem,
            chosen_across: ChosenAcross::AllExecutions,
            in_showdown: InShowdown::AtBattlefield,
            undo_gives_back_runes: true,
            runes_only_for_the_cost: true,
            kills_it: KillsIt::MadeLethal,
            next_spell_grant_used_once: true,
            undo_gives_back_grants: true,
            demand_paid_with_runes: true,
            priority_after_undone: PriorityAfterUndone::Restored,
            spell_played_by: SpellPlayedBy::Controller,
            damage_removed_at_end_of_turn: true,
            stun_ends_at_end_of_turn: false,
            increase_per_choice: true,
            paid_read_after_control_change: true,
        };
        match v {
            Version::Rup4 => rup4,
            Version::Guide => Rulebook {
                new_choices: NewChoicesRule::WholeSet,
                targeting_triggers: TargetingTriggers::PerChoice,
                ..rup4
            },
            Version::V1_3 => Rulebook {
                repeat_on_abilities: false,
                trigger_may: TriggerMay::AtTrigger,
                new_choices: NewChoicesRule::Forbidden,
                ..rup4
            },
            Version::V1_2 => Rulebook {
                repeat_on_abilities: false,
                component_discounts: false,
                linked_instructions: false,
                leaving_chain_stops_execution: false,
                deflect: DeflectRule::PerItem,
                as_you_play_repeated: true,
                trigger_may: TriggerMay::AtTrigger,
                new_choices: NewChoicesRule::Forbidden,
                ..rup4
            },
        }
    }

    /// A preset by name (`v1.2`, `v1.3`, `rup4`, `guide`).
    pub fn named(name: &str) -> Option<Rulebook> {
        Version::parse(name).map(Rulebook::preset)
    }

    /// Reads a rulebook file's text: a `base` and the fields it changes.
    pub fn from_toml(text: &str, name: &str) -> Result<Rulebook, RulebookError> {
        let table: toml::Table =
            toml::from_str(text).map_err(|e| RulebookError::from_toml(&e, text))?;
        let Some(base) = table.get("base") else {
            return Err(RulebookError {
                line: 1,
                message: "missing `base` (one of v1.2, v1.3, rup4, guide)".into(),
            });
        };
        let Some(version) = base.as_str().and_then(Version::parse) else {
            return Err(RulebookError {
                line: line_of_key(text, "base"),
                message: format!(
                    "`base` is {base}; expected one of \"v1.2\", \"v1.3\", \"rup4\", \"guide\""
                ),
            });
        };
        let mut merged =
            toml::Table::try_from(Rulebook::preset(version)).map_err(|e| RulebookError {
                line: 1,
                message: e.to_string(),
            })?;
        merged.insert("name".into(), toml::Value::String(name.to_string()));
        // Fields are checked in the order of their lines, each alone on the preset, so that the
        // error reported is the first in the file (not the first in key order).
        let mut fields: Vec<(usize, String, toml::Value)> = table
            .into_iter()
            .map(|(k, v)| (line_of_key(text, &k), k, v))
            .collect();
        fields.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        for (line, k, v) in fields {
            if !merged.contains_key(&k) {
                return Err(RulebookError {
                    line,
                    message: format!(
                        "unknown field `{k}`{}; `rbcheck rules --list` prints the fields",
                        crate::suggest::did_you_mean(&k, merged.keys().map(String::as_str))
                    ),
                });
            }
            let mut alone = merged.clone();
            alone.insert(k.clone(), v.clone());
            if let Err(e) = Rulebook::deserialize(alone) {
                return Err(RulebookError {
                    line,
                    // serde's message ends with "\nin `field`"; one line reads better.
                    message: e
                        .to_string()
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" "),
                });
            }
            merged.insert(k, v);
        }
        Rulebook::deserialize(merged).map_err(|e| RulebookError {
            line: 1,
            message: e.to_string().trim().to_string(),
        })
    }

    /// This rulebook with `field` set to `other`'s value (`None` for a field `FIELDS` lacks).
    pub fn with_field_of(&self, other: &Rulebook, field: &str) -> Option<Rulebook> {
        let mut mine = toml::Table::try_from(self).ok()?;
        let theirs = toml::Table::try_from(other).ok()?;
        FIELDS.iter().find(|f| f.name == field)?;
        mine.insert(field.to_string(), theirs.get(field)?.clone());
        Rulebook::deserialize(mine).ok()
    }

    /// A field's value, as a rulebook file writes it (`None` for a field `FIELDS` lacks).
    pub fn value_of(&self, field: &str) -> Option<String> {
        FIELDS.iter().find(|f| f.name == field)?;
        let table = toml::Table::try_from(self).ok()?;
        table.get(field).map(|v| v.to_string())
    }

    /// The rulebook of the version this one starts from.
    pub fn base_rulebook(&self) -> Rulebook {
        Rulebook::preset(self.base)
    }

    /// The fields whose values differ between two rulebooks.
    pub fn differing_fields(&self, other: &Rulebook) -> Vec<&'static str> {
        let a = toml::Table::try_from(self).unwrap_or_default();
        let b = toml::Table::try_from(other).unwrap_or_default();
        FIELDS
            .iter()
            .filter(|f| a.get(f.name) != b.get(f.name))
            .map(|f| f.name)
            .collect()
    }
}

/// An error in a rulebook file, with the line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulebookError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl RulebookError {
    fn from_toml(e: &toml::de::Error, text: &str) -> RulebookError {
        let line = e.span().map(|s| line_at(text, s.start)).unwrap_or(1);
        RulebookError {
            line,
            message: e.message().to_string(),
        }
    }
}

impl fmt::Display for RulebookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_differ_where_the_digest_says() {
        let v12 = Rulebook::preset(Version::V1_2);
        let v13 = Rulebook::preset(Version::V1_3);
        let r4 = Rulebook::preset(Version::Rup4);
        let g = Rulebook::preset(Version::Guide);
        assert!(!v13.repeat_on_abilities && r4.repeat_on_abilities);
        assert!(!v12.linked_instructions && v13.linked_instructions);
        assert_eq!(v13.new_choices, NewChoicesRule::Forbidden);
        assert_eq!(g.new_choices, NewChoicesRule::WholeSet);
        let mut d = v13.differing_fields(&r4);
        d.sort();
        assert_eq!(d, ["new_choices", "repeat_on_abilities", "trigger_may"]);
    }

    #[test]
    fn every_field_is_tracked_in_the_order_it_is_documented() {
        let names: Vec<&str> = FIELDS.iter().map(|f| f.name).collect();
        assert_eq!(TRACKED, names.as_slice());
        let rules = Rules::new(Rulebook::preset(Version::Rup4));
        let ((), read) = reading(|| {
            rules.deflect();
            rules.kills_it();
        });
        assert_eq!(
            read,
            field_bit("deflect").unwrap() | field_bit("kills_it").unwrap()
        );
        let ((), outer) = reading(|| {
            let ((), inner) = reading(|| {
                rules.new_choices();
            });
            assert_eq!(inner, field_bit("new_choices").unwrap());
        });
        assert_eq!(
            outer,
            field_bit("new_choices").unwrap(),
            "an inner read counts outside too"
        );
    }

    #[test]
    fn every_field_has_each_of_its_values_as_an_alternative() {
        let rup4 = Rulebook::preset(Version::Rup4);
        for f in FIELDS {
            let alts = rup4.alternatives(f.name);
            let values = field_values(f.name).unwrap();
            assert!(values.len() >= 2, "{}: {values:?}", f.name);
            assert_eq!(
                alts.len(),
                values.len() - 1,
                "{}: one per other value",
                f.name
            );
            for a in &alts {
                assert_eq!(a.differing_fields(&rup4), [f.name]);
            }
        }
        // The variants come from the enums' own names, as files write them.
        let shown = |f: &str| {
            field_values(f)
                .unwrap()
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            shown("new_choices"),
            ["\"forbidden\"", "\"subset\"", "\"whole-set\""]
        );
        assert_eq!(shown("deflect"), ["\"per-choice\"", "\"per-item\""]);
    }

    #[test]
    fn every_field_is_documented() {
        let t = toml::Table::try_from(Rulebook::preset(Version::Rup4)).unwrap();
        for k in t.keys().filter(|k| *k != "name" && *k != "base") {
            assert!(
                FIELDS.iter().any(|f| f.name == k),
                "field {k} has no FieldDoc"
            );
        }
        assert_eq!(FIELDS.len(), t.len() - 2);
    }

    #[test]
    fn files_override_fields_and_errors_name_the_line() {
        let r = Rulebook::from_toml("base = \"rup4\"\npayments_per_instance = 3\n", "replicate")
            .unwrap();
        assert_eq!(r.payments_per_instance, 3);
        assert_eq!(r.name, "replicate");
        let e = Rulebook::from_toml("base = \"rup4\"\n\nfoo = 1\n", "x").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("unknown field `foo`"));
        let e = Rulebook::from_toml("base = \"rup4\"\ndeflect = \"twice\"\n", "x").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let e = Rulebook::from_toml("base = \"v9\"\n", "x").unwrap_err();
        assert!(e.message.contains("expected one of"));
        let e = Rulebook::from_toml("base = \"rup4\"\nrefund_on_counter = 1\n", "x").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(Rulebook::from_toml("base = ", "x").is_err());
    }
}
