//! A probe: one rulebook field (or a set of them) of the rulebook checked, set to another
//! value, looked for wherever it decides a step (`exercise` says how). Data only, so that the
//! system can hold its probes without importing the code that looks for them.

use model::game::Game;

/// One field (or a set of fields) of the rulebook checked, set to another value.
#[derive(Clone, Debug)]
pub struct FieldProbe {
    /// The field's name, or the names of the fields joined with `+`.
    pub field: String,
    /// The property name under which the checker looks for it: `exercised: ` and the field.
    pub name: &'static str,
    /// The rule the field encodes (`FIELDS`), empty for a set of fields.
    pub rule: &'static str,
    /// The value the checked rulebook gives it.
    pub value: String,
    /// The value it is compared with.
    pub other: String,
    /// The rules and cards with that other value.
    pub game: Game,
    /// The fields set, as bits of `model::rulebook::reading`'s masks: a step that reads none
    /// of them is the same under both values.
    pub mask: u64,
    /// Found wherever a step reads one of the fields, whatever the other value would do
    /// ([`crate::exercise::read_probes`]).
    pub reads: bool,
}
