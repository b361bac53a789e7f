//! Comparing an engine's observation with the model's (the rules of `corpus/PROTOCOL.md`,
//! "Comparison"): each difference in the expectation vocabulary, with its rule and a kind that
//! does not depend on the case, so that many hits of one bug group into one finding.
//!
//! Legality is compared first and decides whether anything else is. Every other result field
//! is a row of a table ([`Field`]) for the subjects it belongs to (an item, a unit, a gear, a
//! player, the whole observation): its name, how it is read, how a difference is told, the rule
//! it cites. Comparing a field the protocol adds is adding a row.

mod fields;
mod legality;

use super::protocol::*;
use fields::{CANCELLED, GEAR_FIELDS, ITEM_FIELDS, OBSERVATION_FIELDS, PLAYER_FIELDS, UNIT_FIELDS};
use legality::legality;
use std::collections::{BTreeMap, BTreeSet};

/// The fields compared, in the order a case's differences are ranked.
pub const FIELDS: [&str; 29] = [
    "legality",
    "cancelled",
    "repeat-paid",
    "executions",
    "modes",
    "play-events",
    "countered",
    "entered",
    "instructions",
    "triggered",
    "events",
    "paid",
    "pool",
    "unit-zone",
    "gear-zone",
    "gear-status",
    "damage",
    "might",
    "status",
    "location",
    "tokens",
    "token-might",
    "grants",
    "runes",
    "hand-size",
    "hand",
    "deck",
    "trash",
    "finalized",
];

/// One difference between the engine and the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Which field (one of [`FIELDS`]).
    pub field: &'static str,
    /// What it is about: `item 1`, `unit A`, `you`, ...
    pub subject: String,
    /// What the rules (the model) say, as an expectation.
    pub model: String,
    /// What the engine says, in the same words.
    pub engine: String,
    /// The rule involved.
    pub rule: String,
    /// The kind of difference, independent of the case: the grouping key.
    pub kind: String,
}

impl Difference {
    /// One line: what the engine did, what the rule says, the rule number.
    pub fn line(&self) -> String {
        format!(
            "{}: the engine gives `{}`, the rules say `{}` ({})",
            self.subject, self.engine, self.model, self.rule
        )
    }
}

/// The outcome of one comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// The differences, most telling first.
    pub differences: Vec<Difference>,
    /// Fields the model describes that the engine did not report (not compared).
    pub not_reported: BTreeSet<&'static str>,
    /// How many values were compared: each field of each subject both sides stated, and
    /// legality when either side refuses a statement. 0 with no difference: the answer stated
    /// nothing comparable (`legal: true` alone, for a legal case), which is not an agreement.
    pub compared: usize,
}

impl Comparison {
    /// The kind of the most telling difference: what a finding is grouped by.
    pub fn kind(&self) -> Option<&str> {
        self.differences.first().map(|d| d.kind.as_str())
    }
}

/// Compares an engine's observation of `req` with the model's (which describes everything).
pub fn compare(req: &CaseRequest, model: &Observation, engine: &Observation) -> Comparison {
    let mut out = Comparison::default();
    // `legal: true` of a case the rules allow says nothing of its substance (an engine
    // answering it to every case would agree with every legal one): legality counts as compared
    // only where a statement is refused, on either side, and the engine must say which.
    if engine.legal.is_some() && !(model.legal.unwrap_or(true) && engine.legal == Some(true)) {
        out.compared += 1;
    }
    if legality(req, model, engine, &mut out) {
        for f in OBSERVATION_FIELDS {
            f.compare("", model, Some(engine), &mut out);
        }
        items(model, engine, &mut out);
        keyed(&model.units, &engine.units, "unit", UNIT_FIELDS, &mut out);
        keyed(&model.gear, &engine.gear, "gear", GEAR_FIELDS, &mut out);
        keyed(&model.players, &engine.players, "", PLAYER_FIELDS, &mut out);
        // What the engine names that the case does not have is a difference, never ignored.
        // The model lists every labelled unit and both players; gear it may leave out when
        // it has no zone to state, so a gear label of the board is known too.
        let board_gear: BTreeSet<&str> = req.board.gear.iter().map(|g| g.label.as_str()).collect();
        unknown(
            &model.units,
            &engine.units,
            "unit",
            "unit-zone",
            &|_| false,
            &mut out,
        );
        let known_gear = |k: &str| board_gear.contains(k);
        unknown(
            &model.gear,
            &engine.gear,
            "gear",
            "gear-zone",
            &known_gear,
            &mut out,
        );
        unknown(
            &model.players,
            &engine.players,
            "player",
            "hand-size",
            &|_| false,
            &mut out,
        );
    }
    // Stable: within a field, subjects stay in the order they were compared.
    out.differences.sort_by_key(|d| rank(d.field));
    out
}

fn rank(field: &str) -> usize {
    FIELDS
        .iter()
        .position(|f| *f == field)
        .unwrap_or(FIELDS.len())
}

// ---- The rows of a table ----

/// A difference as a field tells it; the row adds the field, its rule and the kind's prefix.
pub(super) struct Told {
    pub(super) subject: String,
    pub(super) model: String,
    pub(super) engine: String,
    pub(super) kind: String,
    /// A finer rule than the row's, when the difference names one.
    pub(super) rule: Option<&'static str>,
}

/// How a field's two values are told apart.
pub(super) enum Tell<V: ?Sized> {
    /// One value per subject: the expectation a value stands for (given the subject), and the
    /// kind of the difference between the model's and the engine's (`None`: they agree).
    One {
        /// The field's name, the subject and a value.
        words: fn(&str, &str, &V) -> String,
        kind: fn(&V, &V) -> Option<String>,
    },
    /// A collection compared entry by entry, each entry a difference of its own.
    Each(fn(&str, &V, &V) -> Vec<Told>),
}

/// One row of a comparison table: a result field of subjects of type `T`.
pub(super) struct Field<T, V: ?Sized> {
    /// Its name, one of [`FIELDS`].
    pub(super) name: &'static str,
    /// The rule a difference cites.
    pub(super) rule: &'static str,
    /// The field's value, on either side; `None`: not stated (the model's: not compared, the
    /// engine's: not reported).
    pub(super) read: fn(&T) -> Option<&V>,
    /// Whether an engine leaving the field out leaves this model value uncompared.
    pub(super) unreported: fn(&V) -> bool,
    /// How a difference is told.
    pub(super) tell: Tell<V>,
}

/// A row of any value type, for the tables.
pub(super) trait Compared<T> {
    /// The field's name.
    fn name(&self) -> &'static str;
    /// Compares the field of one subject (`engine`: `None` if the engine left the subject out).
    fn compare(&self, subject: &str, model: &T, engine: Option<&T>, out: &mut Comparison);
}

impl<T, V: ?Sized> Compared<T> for Field<T, V> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn compare(&self, subject: &str, model: &T, engine: Option<&T>, out: &mut Comparison) {
        let Some(m) = (self.read)(model) else {
            return;
        };
        let Some(e) = engine.and_then(self.read) else {
            if (self.unreported)(m) {
                out.not_reported.insert(self.name);
            }
            return;
        };
        out.compared += 1;
        let told = match &self.tell {
            Tell::One { words, kind } => kind(m, e)
                .map(|kind| Told {
                    subject: subject.to_string(),
                    model: words(self.name, subject, m),
                    engine: words(self.name, subject, e),
                    kind,
                    rule: None,
                })
                .into_iter()
                .collect(),
            Tell::Each(each) => each(subject, m, e),
        };
        for t in told {
            out.differences.push(Difference {
                field: self.name,
                subject: t.subject,
                model: t.model,
                engine: t.engine,
                rule: t.rule.unwrap_or(self.rule).to_string(),
                kind: format!("{}: {}", self.name, t.kind),
            });
        }
    }
}

/// A count told as `NAME SUBJECT N` and compared as more or fewer, stated when known.
pub(super) const fn count<T>(
    name: &'static str,
    rule: &'static str,
    read: fn(&T) -> Option<&u32>,
) -> Field<T, u32> {
    Field {
        name,
        rule,
        read,
        unreported: always,
        tell: Tell::One {
            words: |name, s, v| format!("{name} {s} {v}"),
            kind: fields::more_fewer,
        },
    }
}

/// For [`Field::unreported`]: every model value an engine leaves out is left uncompared.
pub(super) fn always<V: ?Sized>(_: &V) -> bool {
    true
}

// ---- The subjects ----

/// Every item of the model's, against the engine's item of the same number.
fn items(model: &Observation, engine: &Observation, out: &mut Comparison) {
    let Some(mitems) = &model.items else {
        return;
    };
    let Some(eitems) = &engine.items else {
        out.not_reported.insert(CANCELLED.name);
        out.not_reported
            .extend(ITEM_FIELDS.iter().map(|f| f.name()));
        return;
    };
    // Tokens' items the model leaves out, but they exist: numbers up to `chain_items`.
    let exists = |n: u32| {
        mitems.iter().any(|m| m.item == n) || model.chain_items.is_some_and(|c| n >= 1 && n <= c)
    };
    for ei in eitems {
        if !exists(ei.item) {
            out.differences.push(Difference {
                field: "executions",
                subject: format!("item {}", ei.item),
                model: format!("no item {}", ei.item),
                engine: format!("item {}", ei.item),
                rule: "PROTOCOL.md, Answers".into(),
                kind: "executions: engine reports an item the case does not have".into(),
            });
        }
    }
    for mi in mitems {
        let subject = format!("item {}", mi.item);
        let Some(ei) = eitems.iter().find(|e| e.item == mi.item) else {
            out.not_reported.insert("executions");
            continue;
        };
        // The model states every field; an item it did not cancel may leave `cancelled` out.
        let filled;
        let mi = if mi.cancelled.is_some() {
            mi
        } else {
            filled = ItemObs {
                cancelled: Some(Cancelled::Flag(false)),
                ..mi.clone()
            };
            &filled
        };
        CANCELLED.compare(&subject, mi, Some(ei), out);
        let undone = |i: &ItemObs| i.cancelled.as_ref().is_some_and(|c| c.is_cancelled());
        if undone(mi) || undone(ei) {
            continue;
        }
        for f in ITEM_FIELDS {
            f.compare(&subject, mi, Some(ei), out);
        }
        // The model states `entered` for every item that entered the board: one the engine
        // says entered and the rules do not is a difference, never a field left uncompared.
        if let (None, Some(e)) = (&mi.entered, &ei.entered) {
            out.compared += 1;
            out.differences.push(Difference {
                field: "entered",
                subject: subject.clone(),
                model: format!("{subject} does not enter the board"),
                engine: fields::entered_words(&subject, e),
                rule: "359.2".into(),
                kind: "entered: engine enters a unit the rules do not".into(),
            });
        }
    }
}

/// Every subject of the model's, by key, against the engine's of the same key (`what`: the
/// word before the key in the subject, if any).
fn keyed<T>(
    model: &Option<BTreeMap<String, T>>,
    engine: &Option<BTreeMap<String, T>>,
    what: &str,
    fields: &[&dyn Compared<T>],
    out: &mut Comparison,
) {
    let Some(model) = model else {
        return;
    };
    for (key, m) in model {
        let e = engine.as_ref().and_then(|e| e.get(key));
        let subject = match what {
            "" => key.clone(),
            w => format!("{w} {key}"),
        };
        for f in fields {
            f.compare(&subject, m, e, out);
        }
    }
}

/// A difference for each subject the engine names that the model does not have (and
/// `known` does not know): `engine reports unit X, which the case does not have`.
fn unknown<T>(
    model: &Option<BTreeMap<String, T>>,
    engine: &Option<BTreeMap<String, T>>,
    what: &str,
    field: &'static str,
    known: &dyn Fn(&str) -> bool,
    out: &mut Comparison,
) {
    let (Some(model), Some(engine)) = (model, engine) else {
        return;
    };
    for key in engine.keys() {
        if model.contains_key(key) || known(key) {
            continue;
        }
        out.differences.push(Difference {
            field,
            subject: format!("{what} {key}"),
            model: format!("no {what} {key}"),
            engine: format!("{what} {key}"),
            rule: "PROTOCOL.md, Answers".into(),
            kind: format!("{field}: engine reports a {what} the case does not have"),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::fields::*;
    use super::*;

    /// A row names a field of [`FIELDS`], which ranks it; no field has two rows.
    #[test]
    fn every_row_is_a_ranked_field_once() {
        let mut names: Vec<&str> = vec!["legality", CANCELLED.name];
        names.extend(OBSERVATION_FIELDS.iter().map(|f| f.name()));
        names.extend(ITEM_FIELDS.iter().map(|f| f.name()));
        names.extend(UNIT_FIELDS.iter().map(|f| f.name()));
        names.extend(GEAR_FIELDS.iter().map(|f| f.name()));
        names.extend(PLAYER_FIELDS.iter().map(|f| f.name()));
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        let mut all = FIELDS.to_vec();
        all.sort();
        assert_eq!(sorted, all);
    }

    /// Legion Rearguard played with its [Accelerate] paid, at battlefield 1, and the model's
    /// observation of it.
    fn rearguard(accelerate: bool) -> (CaseRequest, Observation) {
        let text = format!(
            "rbcheck-case 1\nrules rup4\n\nbattlefield 1 controller you\npool you [3][R]\nhand you \"Legion Rearguard\"\n\nyou play \"Legion Rearguard\"\noptional 1 {}\nlocation battlefield 1\npay\n",
            if accelerate { "pay" } else { "skip" }
        );
        let case = rbcheck_case::parse(&text).unwrap();
        let req = request(&case, None, 1).unwrap();
        let model = crate::observe::model_observation(&case, None).unwrap();
        (req, model)
    }

    /// The model's observation with item 1's `entered` replaced (`None`: left out).
    fn with_entered(o: &Observation, entered: Option<EnteredObs>) -> Observation {
        let mut o = o.clone();
        o.items.as_mut().unwrap()[0].entered = entered;
        o
    }

    /// How a unit played from hand entered (359.2, 805): an engine saying a unit whose
    /// [Accelerate] was paid entered exhausted, or one that was not entered ready, or elsewhere,
    /// is a difference of its own kind; one leaving the field out is not compared on it; one
    /// saying a unit entered that the rules do not enter is a difference too.
    #[test]
    fn how_a_played_unit_entered_is_compared() {
        let at = |location: &str, ready: bool| EnteredObs {
            location: location.into(),
            ready,
        };
        let (req, model) = rearguard(true);
        assert_eq!(
            model.items.as_ref().unwrap()[0].entered,
            Some(at("battlefield 1", true))
        );
        assert!(compare(&req, &model, &model).differences.is_empty());
        let c = compare(
            &req,
            &model,
            &with_entered(&model, Some(at("battlefield 1", false))),
        );
        assert_eq!(c.kind(), Some("entered: engine enters exhausted"));
        let d = &c.differences[0];
        assert_eq!(d.rule, "359.2, 805");
        assert_eq!(d.model, "entered item 1 at battlefield 1 ready");
        assert_eq!(d.engine, "entered item 1 at battlefield 1 exhausted");
        assert_eq!(c.differences.len(), 1, "{:?}", c.differences);
        let c = compare(
            &req,
            &model,
            &with_entered(&model, Some(at("base you", true))),
        );
        assert_eq!(c.kind(), Some("entered: engine enters elsewhere"));
        let c = compare(&req, &model, &with_entered(&model, None));
        assert!(c.differences.is_empty() && c.not_reported.contains("entered"));

        let (req, model) = rearguard(false);
        let c = compare(
            &req,
            &model,
            &with_entered(&model, Some(at("battlefield 1", true))),
        );
        assert_eq!(c.kind(), Some("entered: engine enters ready"));

        // A spell does not enter the board (359.3): an engine saying it did is a difference.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/cases/hidden-blade-repeated-draws-two.case");
        let case = rbcheck_case::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let req = request(&case, path.parent(), 1).unwrap();
        let model = crate::observe::model_observation(&case, path.parent()).unwrap();
        assert_eq!(model.items.as_ref().unwrap()[0].entered, None);
        let engine = with_entered(&model, Some(at("base you", true)));
        let c = compare(&req, &model, &engine);
        assert_eq!(
            c.kind(),
            Some("entered: engine enters a unit the rules do not")
        );
        assert_eq!(c.differences[0].rule, "359.2");
    }
}
