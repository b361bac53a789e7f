//! Reading a rulebook as the model plays: each field through a method that records the read
//! (so a run knows which fields decided a step), and every value each field can take (so an edit
//! of one field can be walked through all its values).

use super::*;
use serde::Deserialize;

/// The rules a game plays by, each field read through a method of its own name that records
/// the read on the reading thread (see [`reading`]): so that a run can tell which fields a step
/// consulted, and compare only those with another value (`properties::exercise`). The fields
/// are private: the model cannot read one unrecorded.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    book: Rulebook,
}

thread_local! {
    /// The fields read on this thread since the innermost [`reading`] began, as bits in
    /// [`TRACKED`] order.
    static READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Notes that field `bit` was read.
#[inline(always)]
fn note(bit: u32) {
    READS.with(|r| r.set(r.get() | (1u64 << bit)));
}

/// Runs `f` and returns its result with the fields of the rules it read (bits in [`TRACKED`]
/// order); reads inside count for an enclosing `reading` too.
pub fn reading<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let outer = READS.with(|r| r.replace(0));
    let out = f();
    let mine = READS.with(|r| r.get());
    READS.with(|r| r.set(outer | mine));
    (out, mine)
}

/// The bit of a field in the masks [`reading`] returns (`None` for a name that is no field).
pub fn field_bit(name: &str) -> Option<u64> {
    TRACKED.iter().position(|f| *f == name).map(|i| 1u64 << i)
}

macro_rules! tracked_fields {
    ($($field:ident: $ty:ty),* $(,)?) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u32)]
        enum Bit {
            $($field),*
        }

        /// The fields [`Rules`] records reads of, in bit order.
        pub const TRACKED: &[&str] = &[$(stringify!($field)),*];

        /// Every value field `name` can take, as a rulebook file writes it (`None` for a name
        /// that is no field): both booleans, 1 to 3 for a count, each variant of a choice.
        pub fn field_values(name: &str) -> Option<Vec<toml::Value>> {
            match name {
                $(stringify!($field) => Some(<$ty as FieldValues>::values()),)*
                _ => None,
            }
        }

        impl Rules {
            $(
                #[doc = concat!("`", stringify!($field), "`, recorded as read.")]
                #[inline(always)]
                pub fn $field(&self) -> $ty {
                    note(Bit::$field as u32);
                    self.book.$field
                }
            )*
        }
    };
}

tracked_fields! {
    repeat_on_abilities: bool,
    payments_per_instance: u8,
    executions_per_instance: u8,
    component_discounts: bool,
    ezreal_scope: EzrealScope,
    discount_per_execution: bool,
    zero_cost_counts_as_paid: bool,
    linked_instructions: bool,
    leaving_chain_stops_execution: bool,
    deflect: DeflectRule,
    as_you_play_repeated: bool,
    trigger_may: TriggerMay,
    play_event_per_execution: bool,
    window_between_executions: bool,
    refund_on_counter: bool,
    countered_card_to_trash: bool,
    undo_illegal_play: bool,
    illegal_targets: IllegalTargets,
    extra_execution_choices: ExtraChoices,
    new_choices: NewChoicesRule,
    new_choices_scope: NewChoicesScope,
    new_choices_reopen_repeat: bool,
    targeting_triggers: TargetingTriggers,
    chosen_across: ChosenAcross,
    in_showdown: InShowdown,
    undo_gives_back_runes: bool,
    runes_only_for_the_cost: bool,
    kills_it: KillsIt,
    next_spell_grant_used_once: bool,
    undo_gives_back_grants: bool,
    demand_paid_with_runes: bool,
    priority_after_undone: PriorityAfterUndone,
    spell_played_by: SpellPlayedBy,
    damage_removed_at_end_of_turn: bool,
    stun_ends_at_end_of_turn: bool,
    increase_per_choice: bool,
    paid_read_after_control_change: bool
}

/// The values a field of some type can take, for walking every edit of one field.
trait FieldValues {
    fn values() -> Vec<toml::Value>;
}

impl FieldValues for bool {
    fn values() -> Vec<toml::Value> {
        vec![false.into(), true.into()]
    }
}

/// The counts (`payments_per_instance`, `executions_per_instance`): the rules' 1 and the
/// two wrong readings a bound can tell apart from it.
impl FieldValues for u8 {
    fn values() -> Vec<toml::Value> {
        (1..=3).map(|n: i64| n.into()).collect()
    }
}

/// A deserializer that only records the variant names serde asks an enum for: the names a
/// rulebook file writes, taken from the enum's own definition (its `rename_all` applied).
struct VariantNames(std::cell::Cell<&'static [&'static str]>);

impl<'de> serde::Deserializer<'de> for &VariantNames {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("not an enum"))
    }

    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.set(variants);
        Err(serde::de::Error::custom("names recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

macro_rules! enum_values {
    ($($ty:ty),* $(,)?) => {$(
        impl FieldValues for $ty {
            fn values() -> Vec<toml::Value> {
                let names = VariantNames(std::cell::Cell::new(&[]));
                let _ = <$ty>::deserialize(&names);
                names.0.get().iter().map(|n| toml::Value::from(*n)).collect()
            }
        }
    )*};
}

enum_values!(
    EzrealScope,
    DeflectRule,
    TriggerMay,
    IllegalTargets,
    ExtraChoices,
    NewChoicesRule,
    NewChoicesScope,
    TargetingTriggers,
    ChosenAcross,
    InShowdown,
    KillsIt,
    PriorityAfterUndone,
    SpellPlayedBy,
);

impl Rulebook {
    /// Every rulebook that differs from this one in `field` alone, one per other value the
    /// field can take ([`field_values`]), each named `NAME with FIELD = VALUE`.
    pub fn alternatives(&self, field: &str) -> Vec<Rulebook> {
        let Ok(table) = toml::Table::try_from(self) else {
            return vec![];
        };
        let mine = table.get(field);
        field_values(field)
            .unwrap_or_default()
            .into_iter()
            .filter(|v| Some(v) != mine)
            .filter_map(|v| {
                let mut t = table.clone();
                t.insert(
                    "name".into(),
                    format!("{} with {field} = {v}", self.name).into(),
                );
                t.insert(field.to_string(), v);
                Rulebook::deserialize(t).ok()
            })
            .collect()
    }
}

impl Rules {
    /// The rules of a rulebook.
    pub fn new(book: Rulebook) -> Rules {
        Rules { book }
    }

    /// The whole rulebook, for naming and copying it: a field read through it is not recorded,
    /// so the model's steps never read one this way.
    pub fn book(&self) -> &Rulebook {
        &self.book
    }

    /// The rulebook's name.
    pub fn name(&self) -> &str {
        &self.book.name
    }
}
