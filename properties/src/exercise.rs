//! Which rulebook fields a run exercised: the states in which a field's value decided a step.
//!
//! A field *decides a step* in a state when the model, with only that field set to another
//! value, lists other actions there or makes another successor by one of them. Each probe is a
//! witness the checker looks for like any other (`Expectation::Sometimes`), so a run reports,
//! per field, the scenarios in which it decided something and the shortest path to such a state.
//! The model records which fields each step reads (`model::rulebook::reading`): only a step that
//! read a probed field is made again under its other value, so a probe costs little where its
//! field plays no part.
//! If a field decides no step in any reachable state, the states reachable with the other
//! value are exactly the same, with the same steps between them: no property can tell the two
//! values apart in that bound, and a verdict there says nothing about the field.

use crate::system::RepeatSystem;
use checker::Property;
use model::action::Action;
use model::card::CardDef;
use model::game::Game;
use model::rulebook::{field_bit, reading, Rulebook, FIELDS, TRACKED};
use model::setup::Setup;
use model::state::State;
use std::cell::RefCell;

pub use crate::probe::FieldProbe;

/// The property name of a probe. Leaked: `Property` names are `&'static str`, and a run makes
/// a handful of probes, once.
fn property_name(field: &str) -> &'static str {
    Box::leak(format!("exercised: {field}").into_boxed_str())
}

/// The probes of every field in which `rules` differs from `other`, each set alone to
/// `other`'s value; and, when several differ, one more with all of them at once (a step can
/// depend on two fields together and on neither alone).
pub fn probes(rules: &Rulebook, other: &Rulebook, cards: &[CardDef]) -> Vec<FieldProbe> {
    let fields = rules.differing_fields(other);
    let mut out: Vec<FieldProbe> = fields
        .iter()
        .filter_map(|f| probe(rules, &rules.with_field_of(other, f)?, f, cards))
        .collect();
    if fields.len() > 1 {
        let mut all = other.clone();
        all.name = rules.name.clone();
        let field = fields.join(" + ");
        out.push(FieldProbe {
            name: property_name(&field),
            field,
            rule: "",
            value: rules.name.clone(),
            other: other.name.clone(),
            game: Game::new(all, cards.to_vec()),
            mask: fields
                .iter()
                .filter_map(|f| field_bit(f))
                .fold(0, |a, b| a | b),
            reads: false,
        });
    }
    out
}

/// The probe of `field` set to its value in `alt` (which differs from `rules` in that field
/// alone); `None` for a name that is no field.
pub fn probe(
    rules: &Rulebook,
    alt: &Rulebook,
    field: &str,
    cards: &[CardDef],
) -> Option<FieldProbe> {
    let value = rules.value_of(field)?;
    let other = alt.value_of(field)?;
    Some(FieldProbe {
        field: field.to_string(),
        name: property_name(&format!("{field} = {other}")),
        rule: FIELDS
            .iter()
            .find(|d| d.name == field)
            .map_or("", |d| d.rule),
        value,
        other,
        game: Game::new(alt.clone(), cards.to_vec()),
        mask: field_bit(field)?,
        reads: false,
    })
}

/// A probe for every field the model records reads of, each found in the states made by a
/// step that read it or whose actions were listed reading it. A scenario none of whose states
/// reads a field plays the same whatever the field's value: over such a scenario, an edit of
/// that field alone needs no search.
pub fn read_probes(rules: &Rulebook, cards: &[CardDef]) -> Vec<FieldProbe> {
    let game = Game::new(rules.clone(), cards.to_vec());
    TRACKED
        .iter()
        .filter_map(|f| {
            Some(FieldProbe {
                field: f.to_string(),
                name: property_name(&format!("{f} read")),
                rule: "",
                value: rules.value_of(f)?,
                other: String::new(),
                game: game.clone(),
                mask: field_bit(f)?,
                reads: true,
            })
        })
        .collect()
}

/// A probe for every other value of every field of `rules` ([`Rulebook::alternatives`]): what
/// walking every one-field edit of a rulebook looks for, in one search.
pub fn every_one_field_edit(rules: &Rulebook, cards: &[CardDef]) -> Vec<FieldProbe> {
    FIELDS
        .iter()
        .flat_map(|f| {
            rules
                .alternatives(f.name)
                .into_iter()
                .filter_map(move |alt| probe(rules, &alt, f.name, cards))
        })
        .collect()
}

/// Which probes decided what, noted as the checker makes states and lists their actions, for
/// the probe conditions it then asks about them. The checker makes a state (`next_state*`),
/// lists its actions and checks its properties on one thread before it makes another, so the
/// last transition and the last listing noted are those of the state asked about; each is
/// keyed by the state's log (which every step lengthens) to make sure.
#[derive(Default)]
struct Noted {
    /// The state the last transition made, and the probes that decided that transition.
    transition: Option<(LogKey, u64)>,
    /// The state whose actions were last listed, and the probes that decide that listing.
    actions: Option<(LogKey, u64)>,
}

/// A state's identity while it is being checked: its log's buffer, length and digest.
type LogKey = (usize, usize, u64);

fn log_key(s: &State) -> LogKey {
    let log = s.log.as_slice();
    (log.as_ptr() as usize, log.len(), s.log.digest())
}

thread_local! {
    static NOTED: RefCell<Noted> = RefCell::new(Noted::default());
}

/// The probes (as bits) whose fields `read` holds, among `sys`'s.
fn touched(sys: &RepeatSystem, read: u64) -> impl Iterator<Item = (usize, &FieldProbe)> {
    sys.probes()
        .iter()
        .enumerate()
        .filter(move |(_, p)| p.mask & read != 0)
}

/// Notes which probes decide the actions `mine` of `s`, listed reading the fields `read`.
pub(crate) fn note_actions(sys: &RepeatSystem, s: &State, mine: &[Action], read: u64) {
    let bits = actions_decided(sys, s, mine, read);
    NOTED.with(|n| n.borrow_mut().actions = Some((log_key(s), bits)));
}

fn actions_decided(sys: &RepeatSystem, s: &State, mine: &[Action], read: u64) -> u64 {
    let mut bits = 0;
    let mut theirs = vec![];
    for (k, p) in touched(sys, read) {
        theirs.clear();
        if !p.reads {
            p.game.actions(s, &mut theirs);
        }
        if p.reads || theirs != mine {
            bits |= 1 << k;
        }
    }
    bits
}

/// Notes which probes decided the step `a` from `s` to `next`, which read the fields `read`:
/// those under whose other value the step makes another state. A step that read none of a
/// probe's fields goes the same way under both values (the model is deterministic and reads
/// every field through `Rules`), so only the others are stepped again.
pub(crate) fn note_transition(sys: &RepeatSystem, s: &State, a: &Action, next: &State, read: u64) {
    let mut bits = 0;
    for (k, p) in touched(sys, read) {
        if p.reads || p.game.step(s, a) != *next {
            bits |= 1 << k;
        }
    }
    NOTED.with(|n| n.borrow_mut().transition = Some((log_key(next), bits)));
}

/// Notes which probes of reads alone ([`read_probes`]) the step into `next` found: those of the
/// fields `read` holds.
pub(crate) fn note_reads(sys: &RepeatSystem, next: &State, read: u64) {
    let bits = touched(sys, read).fold(0, |b, (k, _)| b | 1 << k);
    NOTED.with(|n| n.borrow_mut().transition = Some((log_key(next), bits)));
}

/// Probe `k`'s condition: its field decided the step into `s`, or decides the actions of `s`
/// (listed again if the checker has not just listed them).
pub(crate) fn probe_holds(sys: &RepeatSystem, k: usize, s: &State) -> bool {
    let key = log_key(s);
    let (into, listed) = NOTED.with(|n| {
        let n = n.borrow();
        let pick = |x: Option<(LogKey, u64)>| x.filter(|(at, _)| *at == key).map(|(_, b)| b);
        (pick(n.transition), pick(n.actions))
    });
    if into.unwrap_or(0) & (1 << k) != 0 {
        return true;
    }
    let listed = listed.unwrap_or_else(|| {
        let mut mine = vec![];
        let ((), read) = reading(|| sys.game.actions(s, &mut mine));
        let bits = actions_decided(sys, s, &mine, read);
        NOTED.with(|n| n.borrow_mut().actions = Some((key, bits)));
        bits
    });
    listed & (1 << k) != 0
}

/// The plain definition the noted probes stand for: whether `alt`'s rules decide a step of
/// `game` in `s` (other actions, or another successor by one of them). For tests: the checker
/// finds a probe in a scenario exactly when some state of it satisfies this or was made by a
/// step it decides.
pub fn decides(game: &Game, alt: &Game, s: &State) -> bool {
    let (mut mine, mut theirs) = (vec![], vec![]);
    game.actions(s, &mut mine);
    alt.actions(s, &mut theirs);
    mine != theirs || mine.iter().any(|a| game.step(s, a) != alt.step(s, a))
}

/// The probe properties of a system, one per probe, after its other properties.
pub(crate) fn properties(sys: &RepeatSystem) -> Vec<Property<RepeatSystem>> {
    (0..sys.probes().len())
        .map(|k| {
            let p = &sys.probes()[k];
            Property::sometimes(
                p.name,
                p.rule,
                "Some reachable state made by a step the field's value decided, or whose actions it decides: with the other value, another successor or other actions.",
                move |sys: &RepeatSystem, s: &State| sys.probe_decides(k, s),
            )
        })
        .collect()
}

/// Whether probe `probe` decides the start of a scenario: with its value, the scenario starts
/// in another state (a trigger put on the chain at the start takes other [Repeat] instances,
/// say), or other actions are enabled there (an item nobody can play under the checked rules
/// may be playable).
pub fn decides_at_start(sys: &RepeatSystem, probe: usize, setup: &Setup) -> bool {
    let p = &sys.probes()[probe];
    match (sys.game.initial_state(setup), p.game.initial_state(setup)) {
        (Ok(mine), Ok(theirs)) if mine == theirs => {
            let (mut a, mut b) = (vec![], vec![]);
            sys.game.actions(&mine, &mut a);
            p.game.actions(&mine, &mut b);
            a != b
        }
        (Err(_), Err(_)) => false,
        _ => true,
    }
}
