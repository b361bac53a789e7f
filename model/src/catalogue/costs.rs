//! Reading the costs other than [Repeat] a card declares: optional additional costs with what
//! paying them does, and mandatory non-Energy additional costs.

use super::{RawCard, RawRider};
use crate::card::*;
use crate::cost::{Cost, Domain};

/// The card's optional additional costs other than [Repeat]: a unit's (Accelerate, a play
/// trigger) or a spell's "If you paid, ..." (`if-paid`; `rider::check_if_paid` checks the rest).
pub(super) fn optional_costs(
    rc: &RawCard,
    names: &[String],
    domains: &[Domain],
) -> Result<Vec<OptionalCost>, String> {
    if !rc.optional_costs.is_empty() && !matches!(rc.kind, CardKind::Unit | CardKind::Spell) {
        return Err("field `optional_costs`: only units and spells have them in this model".into());
    }
    if rc.optional_costs.len() > 2 {
        return Err("field `optional_costs`: at most 2".into());
    }
    let mut out = vec![];
    for (i, o) in rc.optional_costs.iter().enumerate() {
        let at = format!("field `optional_costs`, cost {}", i + 1);
        let cost = Cost::parse(&o.cost, domains).map_err(|e| format!("{at}: {e}"))?;
        let rider = match (o.rider, &o.trigger) {
            (RawRider::Accelerate | RawRider::PlayTrigger, _) if rc.kind != CardKind::Unit => {
                return Err(format!(
                    "{at}: a spell's optional cost takes `rider = \"if-paid\"` (`accelerate` and `play-trigger` are units')"
                ))
            }
            (RawRider::Accelerate, None) => Rider::EnterReady,
            (RawRider::IfPaid, None) => Rider::IfPaid,
            (RawRider::PlayTrigger, Some(name)) => Rider::PlayTrigger(
                names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(name))
                    .map(|i| i as CardId)
                    .ok_or_else(|| format!("{at}: `trigger`: no card or ability named `{name}`"))?,
            ),
            (RawRider::PlayTrigger, None) => {
                return Err(format!(
                    "{at}: `play-trigger` needs `trigger` (an ability's name)"
                ))
            }
            (_, Some(_)) => return Err(format!("{at}: only `play-trigger` takes `trigger`")),
        };
        out.push(OptionalCost { cost, rider });
    }
    Ok(out)
}

/// A mandatory additional cost as the catalogue writes it: `Discard N`, `Exhaust a friendly
/// unit`, `Kill a friendly unit` (or `Kill a friendly unit with N+ Might`, a restriction on the
/// cost's object) or `Exhaust me` (356.2.a, 357.2). Other non-standard costs are
/// named so that a card needing one is refused, not approximated.
pub(super) fn additional_cost(text: &str, kind: CardKind) -> Result<AdditionalCost, String> {
    let t = text.trim();
    let at = "field `additional_costs`";
    if let Some(n) = t.strip_prefix("Discard ") {
        return n
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|n| *n > 0)
            .map(AdditionalCost::Discard)
            .ok_or_else(|| format!("{at}: `{t}`: expected `Discard N` with N from 1 to 255"));
    }
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "exhaust a friendly unit" => return Ok(AdditionalCost::ExhaustFriendlyUnit),
        "kill a friendly unit" => return Ok(AdditionalCost::KillFriendlyUnit { min_might: 0 }),
        // "Me" is the source of a triggered ability; a card being played has no unit on the
        // board that is "me".
        "exhaust me" if kind == CardKind::Ability => return Ok(AdditionalCost::ExhaustMe),
        "exhaust me" => {
            return Err(format!(
                "{at}: `{t}`: only a triggered ability (`type = \"ability\"`) has a source unit to exhaust"
            ))
        }
        _ => {}
    }
    if let Some(n) = lower
        .strip_prefix("kill a friendly unit with ")
        .and_then(|r| r.strip_suffix("+ might"))
    {
        return n
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|n| *n > 0)
            .map(|min_might| AdditionalCost::KillFriendlyUnit { min_might })
            .ok_or_else(|| {
                format!(
                    "{at}: `{t}`: expected `Kill a friendly unit with N+ Might`, N from 1 to 255"
                )
            });
    }
    if lower.starts_with("kill") || lower.starts_with("exhaust") || lower.starts_with("recycle") {
        return Err(format!(
            "{at}: `{t}` is not modelled (expected `Discard N`, `Exhaust a friendly unit`, `Kill a friendly unit`, `Kill a friendly unit with N+ Might` or `Exhaust me`)"
        ));
    }
    Err(format!(
        "{at}: unknown cost `{t}`; expected `Discard N`, `Exhaust a friendly unit`, `Kill a friendly unit` or `Exhaust me`"
    ))
}
