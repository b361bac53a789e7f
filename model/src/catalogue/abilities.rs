//! Abilities as the catalogue writes them: reading a `RawAbility` into an `Ability`, and back.

use super::{parse_repeat, RawAbility, RawAbilityKind};
use crate::card::{Ability, CardId, CardKind, RepeatCost};
use crate::cost::Domain;

pub(super) fn raw_ability(a: &Ability, name_of: impl Fn(CardId) -> String) -> RawAbility {
    let mut min = None;
    let (ability, amount, cost, trigger) = match a {
        Ability::OptionalCostsLess => (RawAbilityKind::OptionalCostsLess, None, None, None),
        Ability::RepeatCostsLess(n) => (RawAbilityKind::RepeatCostsLess, Some(*n), None, None),
        Ability::SpellsHaveRepeatInShowdown(c) => (
            RawAbilityKind::SpellsHaveRepeatInShowdown,
            None,
            Some(c.to_string()),
            None,
        ),
        Ability::AbilitiesHaveRepeat(r) => (
            RawAbilityKind::AbilitiesHaveRepeat,
            None,
            Some(super::write::repeat_text(r)),
            None,
        ),
        Ability::GrantRepeatToNextSpell => {
            (RawAbilityKind::GrantRepeatToNextSpell, None, None, None)
        }
        Ability::WhenYouPlayASpell(id) => (
            RawAbilityKind::WhenYouPlayASpell,
            None,
            None,
            Some(name_of(*id)),
        ),
        Ability::WhenYouPlayMe(id) => (
            RawAbilityKind::WhenYouPlayMe,
            None,
            None,
            Some(name_of(*id)),
        ),
        Ability::WhenChosen(id) => (RawAbilityKind::WhenChosen, None, None, Some(name_of(*id))),
        Ability::WhenAttacks(id) => (RawAbilityKind::WhenAttacks, None, None, Some(name_of(*id))),
        Ability::Activated(id) => (RawAbilityKind::Activated, None, None, Some(name_of(*id))),
        Ability::Deflect(n) => (RawAbilityKind::Deflect, Some(*n), None, None),
        Ability::ChoosersPayMore(n) => (RawAbilityKind::ChoosersPayMore, Some(*n), None, None),
        Ability::SpellsCostLess { energy, min: m } => {
            min = (*m > 0).then_some(*m);
            (RawAbilityKind::SpellsCostLess, Some(*energy), None, None)
        }
        Ability::GrantRepeatBaseCostToNextSpell => (
            RawAbilityKind::GrantRepeatBaseCostToNextSpell,
            None,
            None,
            None,
        ),
    };
    RawAbility {
        ability,
        amount,
        cost,
        trigger,
        min,
    }
}

pub(super) fn ability(
    a: &RawAbility,
    names: &[String],
    domains: &[Domain],
) -> Result<Ability, String> {
    // The kind as a catalogue writes it (`spells-cost-less`), for messages.
    let kind = toml::Value::try_from(a.ability)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let amount = || a.amount.ok_or_else(|| format!("`{kind}` needs `amount`"));
    let cost = || {
        a.cost
            .as_deref()
            .ok_or_else(|| format!("`{kind}` needs `cost`"))
            .and_then(|c| parse_repeat(c, domains))
    };
    let trigger = || {
        let name = a
            .trigger
            .as_deref()
            .ok_or_else(|| format!("`{kind}` needs `trigger` (an ability's name)"))?;
        names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .map(|i| i as CardId)
            .ok_or_else(|| format!("`trigger`: no card or ability named `{name}`"))
    };
    if a.min.is_some() && a.ability != RawAbilityKind::SpellsCostLess {
        return Err(
            "`min` (a discount's floor, 356.4.e) belongs to `spells-cost-less` only".into(),
        );
    }
    Ok(match a.ability {
        RawAbilityKind::OptionalCostsLess => Ability::OptionalCostsLess,
        RawAbilityKind::RepeatCostsLess => Ability::RepeatCostsLess(amount()?),
        RawAbilityKind::SpellsHaveRepeatInShowdown => match cost()? {
            RepeatCost::Pay(c) => Ability::SpellsHaveRepeatInShowdown(c),
            RepeatCost::Discard(_) => return Err("Syndra-style grants cost Energy or Power".into()),
        },
        RawAbilityKind::AbilitiesHaveRepeat => Ability::AbilitiesHaveRepeat(cost()?),
        RawAbilityKind::GrantRepeatToNextSpell => Ability::GrantRepeatToNextSpell,
        RawAbilityKind::WhenYouPlayASpell => Ability::WhenYouPlayASpell(trigger()?),
        RawAbilityKind::WhenYouPlayMe => Ability::WhenYouPlayMe(trigger()?),
        RawAbilityKind::WhenChosen => Ability::WhenChosen(trigger()?),
        RawAbilityKind::WhenAttacks => Ability::WhenAttacks(trigger()?),
        RawAbilityKind::Activated => Ability::Activated(trigger()?),
        RawAbilityKind::Deflect => Ability::Deflect(amount()?),
        RawAbilityKind::GrantRepeatBaseCostToNextSpell => Ability::GrantRepeatBaseCostToNextSpell,
        RawAbilityKind::ChoosersPayMore => Ability::ChoosersPayMore(amount()?),
        RawAbilityKind::SpellsCostLess => Ability::SpellsCostLess {
            energy: amount()?,
            min: a.min.unwrap_or(0),
        },
    })
}

/// The abilities the model reads from the units on the board only: on another kind of card they
/// would do nothing, silently, so they are refused there.
pub(super) fn units_only(kind: CardKind, abilities: &[Ability]) -> Result<(), String> {
    let unit_only = |a: &Ability| {
        matches!(
            a,
            Ability::SpellsCostLess { .. } | Ability::ChoosersPayMore(_)
        )
    };
    if kind != CardKind::Unit && abilities.iter().any(unit_only) {
        return Err(
            "`spells-cost-less` and `choosers-pay-more` are abilities of a unit (type = \"unit\")"
                .into(),
        );
    }
    Ok(())
}
