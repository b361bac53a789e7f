//! Generated spells, made of the catalogue's own parts: whole modes of its spells (so linked
//! instructions keep the instruction they refer to), its [Repeat] costs, additional costs and
//! "as you play" instructions, recombined with drawn costs, timings, discounts and target
//! restrictions. A part added to the catalogue is recombined with no other change; the case
//! carries the spell as a `define`.

use super::prng::Rng;
use model::card::*;
use model::cost::{Cost, Domain};

/// The name of a generated spell.
pub const GENERATED: &str = "Fuzz Spell";

/// The parts of the catalogue's spells that generated spells are made of.
#[derive(Clone, Debug, Default)]
pub struct Parts {
    modes: Vec<Mode>,
    repeats: Vec<RepeatCost>,
    additional: Vec<AdditionalCost>,
    as_you_play: Vec<Vec<Instruction>>,
    /// The costs of the spells' optional additional costs read by "If you paid, ...".
    if_paid: Vec<Cost>,
}

impl Parts {
    /// The parts of a card table's spells.
    pub fn new(cards: &[CardDef]) -> Parts {
        let mut p = Parts::default();
        for c in cards.iter().filter(|c| c.kind == CardKind::Spell) {
            p.modes.extend(c.modes.iter().cloned());
            p.repeats.extend(c.repeat.iter().copied());
            p.additional.extend(c.additional_costs.iter().copied());
            p.if_paid.extend(
                c.optional_costs
                    .iter()
                    .filter(|o| o.rider == Rider::IfPaid)
                    .map(|o| o.cost),
            );
            if !c.as_you_play.is_empty() {
                p.as_you_play.push(c.as_you_play.clone());
            }
        }
        p
    }
}

/// A drawn cost: Energy, sometimes Power of one domain or of any.
fn cost(rng: &mut Rng, max: u8) -> Cost {
    let mut c = Cost::energy(rng.range(0, max));
    match rng.below(6) {
        0 | 1 => c.power[rng.below(Domain::ALL.len())] = 1,
        2 => c.any = 1,
        _ => {}
    }
    c
}

/// A [Repeat] cost: one of the catalogue's, or a drawn one (Energy, Power, a discard).
fn repeat_cost(rng: &mut Rng, parts: &Parts) -> RepeatCost {
    match rng.below(5) {
        0 | 1 => parts
            .repeats
            .get(rng.below(parts.repeats.len()))
            .copied()
            .unwrap_or(RepeatCost::Pay(Cost::energy(1))),
        2 => RepeatCost::Discard(1),
        _ => RepeatCost::Pay(cost(rng, 3)),
    }
}

/// A mode of the catalogue, its unit targets' side and place now and then redrawn (each
/// restriction of the model's vocabulary then meets every board).
fn mode(rng: &mut Rng, parts: &Parts) -> Option<Mode> {
    let mut m = parts.modes.get(rng.below(parts.modes.len()))?.clone();
    for i in &mut m.instructions {
        if let Some(t) = &mut i.target {
            if t.kind == TargetKind::Unit && t.at != Place::Here && rng.chance(1, 4) {
                t.side = [Side::Any, Side::Enemy, Side::Friendly][rng.below(3)];
                t.at = [Place::Anywhere, Place::Base, Place::Battlefield][rng.below(3)];
            }
        }
    }
    Some(m)
}

/// A discount of the model's vocabulary: any condition, counted once or per a count of the
/// board, sometimes with a floor of its own (356.4.e).
fn discount(rng: &mut Rng) -> SelfDiscount {
    SelfDiscount {
        energy: rng.range(1, 2),
        when: [
            Condition::Always,
            Condition::OpponentNearVictory,
            Condition::Showdown,
        ][rng.below(3)],
        per: [
            Per::Once,
            Per::CardPlayedThisTurn,
            Per::HighestFriendlyMight,
        ][rng.below(3)],
        min: if rng.chance(1, 3) { rng.range(1, 2) } else { 0 },
    }
}

/// A generated spell (`None` when the catalogue has no spell to take modes from).
pub fn spell(rng: &mut Rng, parts: &Parts) -> Option<CardDef> {
    let n = match rng.weighted(&[5, 2, 1])? {
        0 => 1,
        k => k + 1,
    };
    let modes = (0..n)
        .map(|_| mode(rng, parts))
        .collect::<Option<Vec<_>>>()?;
    let repeats = rng.weighted(&[1, 5, 2, 1])?;
    // A mode that reads "If you paid" comes with a cost for it to read (one per spell).
    let reads_paid = modes.iter().any(|m| m.cost_readers() > 0);
    let optional_costs = match reads_paid {
        true => vec![OptionalCost {
            cost: match rng.chance(1, 2) {
                true => parts.if_paid.get(rng.below(parts.if_paid.len())).copied(),
                false => None,
            }
            .unwrap_or_else(|| cost(rng, 2)),
            rider: Rider::IfPaid,
        }],
        false => vec![],
    };
    Some(CardDef {
        name: GENERATED.into(),
        code: String::new(),
        kind: CardKind::Spell,
        domains: vec![Domain::ALL[rng.below(Domain::ALL.len())]],
        cost: cost(rng, 3),
        timing: [Timing::Action, Timing::Normal, Timing::Reaction][rng.weighted(&[3, 2, 1])?],
        repeat: (0..repeats).map(|_| repeat_cost(rng, parts)).collect(),
        discount: rng.chance(1, 4).then(|| discount(rng)),
        optional: false,
        optional_costs,
        additional_costs: match rng.chance(1, 6) {
            true => parts
                .additional
                .get(rng.below(parts.additional.len()))
                .copied()
                .into_iter()
                .collect(),
            false => vec![],
        },
        as_you_play: match rng.chance(1, 6) {
            true => parts
                .as_you_play
                .get(rng.below(parts.as_you_play.len()))
                .cloned()
                .unwrap_or_default(),
            false => vec![],
        },
        distinct_modes: n > 1 && rng.chance(1, 2),
        modes,
        might: 0,
        abilities: vec![],
        tags: vec![],
        synthetic: true,
        source: "generated by rbcheck fuzz".into(),
        printed: Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::catalogue::{card_table, Catalogue};

    /// Every generated spell is a card the catalogue accepts, as its case's `define` line
    /// writes it: a part whose use needs another part (a rider that reads a cost) brings it.
    #[test]
    fn every_generated_spell_is_a_define_the_catalogue_accepts() {
        let cat = Catalogue::builtin();
        let parts = Parts::new(&cat.cards);
        let name_of = |id: CardId| cat.cards[id as usize].name.clone();
        let mut rng = Rng::new(7);
        let mut read_paid = 0;
        for _ in 0..3000 {
            let Some(def) = spell(&mut rng, &parts) else {
                panic!("the catalogue has spells");
            };
            let line = card_table(&def, name_of);
            let wrapped: toml::Table = toml::from_str(&format!("card = {line}")).unwrap();
            let toml::Value::Table(table) = &wrapped["card"] else {
                panic!("{line} is not a table");
            };
            if let Err(e) = Catalogue::check_table(table, &[]) {
                panic!("{line}: {e}");
            }
            read_paid += usize::from(def.optional_costs.iter().any(|o| o.rider == Rider::IfPaid));
        }
        assert!(read_paid > 0, "no generated spell read \"If you paid\"");
    }
}
