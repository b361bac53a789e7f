//! Writing a card back in the catalogue's vocabulary: the inverse of `convert`, for a case
//! file's `define` and an engine request's card list.

use super::*;

/// A card as a one-line TOML table in the catalogue's vocabulary (a case file's `define`);
/// `name_of` names the cards its abilities trigger. The set code is left out: a define is a
/// made-up or edited card, not the printed one.
pub fn card_table(c: &CardDef, name_of: impl Fn(CardId) -> String) -> String {
    // A define is an edited or made-up card, not the printed one: no code, no printed text.
    let raw = RawCard {
        code: String::new(),
        printed: None,
        unmodelled: vec![],
        modelled_text: vec![],
        ..unconvert(c, name_of)
    };
    toml::Value::try_from(&raw)
        .expect("a raw card is a TOML table")
        .to_string()
}

/// The inverse of [`convert`]: the raw card that converts back to `c`.
pub(super) fn unconvert(c: &CardDef, name_of: impl Fn(CardId) -> String) -> RawCard {
    let (text, instructions, modes) = match c.modes.as_slice() {
        [] => (None, vec![], vec![]),
        [one] => (
            Some(one.text.clone()).filter(|t| !t.is_empty()),
            raw_instructions(&one.instructions),
            vec![],
        ),
        many => (
            None,
            vec![],
            many.iter()
                .map(|m| RawMode {
                    text: m.text.clone(),
                    instructions: raw_instructions(&m.instructions),
                })
                .collect(),
        ),
    };
    RawCard {
        name: c.name.clone(),
        code: c.code.clone(),
        kind: c.kind,
        domains: c.domains.iter().map(|d| format!("{d:?}")).collect(),
        cost: Some(c.cost.to_string()).filter(|_| !c.cost.is_zero()),
        timing: c.timing,
        repeat: c.repeat.iter().map(repeat_text).collect(),
        discount: c.discount,
        optional: c.optional,
        as_you_play: raw_instructions(&c.as_you_play),
        text,
        instructions,
        modes,
        distinct_modes: c.distinct_modes,
        might: c.might,
        abilities: c
            .abilities
            .iter()
            .map(|a| raw_ability(a, &name_of))
            .collect(),
        tags: c.tags.iter().map(|t| t.name().to_string()).collect(),
        synthetic: c.synthetic,
        source: c.source.clone(),
        printed: Some(c.printed.text.clone()).filter(|t| !t.is_empty()),
        unmodelled: c.printed.unmodelled.clone(),
        modelled_text: c.printed.modelled.clone(),
        optional_costs: c
            .optional_costs
            .iter()
            .map(|o| {
                let (rider, trigger) = match o.rider {
                    Rider::EnterReady => (RawRider::Accelerate, None),
                    Rider::PlayTrigger(id) => (RawRider::PlayTrigger, Some(name_of(id))),
                    Rider::IfPaid => (RawRider::IfPaid, None),
                };
                RawOptionalCost {
                    cost: o.cost.to_string(),
                    rider,
                    trigger,
                }
            })
            .collect(),
        additional_costs: c
            .additional_costs
            .iter()
            .map(AdditionalCost::text)
            .collect(),
    }
}

pub(super) fn repeat_text(r: &RepeatCost) -> String {
    match r {
        RepeatCost::Pay(cost) => cost.to_string(),
        RepeatCost::Discard(n) => format!("Discard {n}"),
    }
}

fn raw_instructions(list: &[Instruction]) -> Vec<RawInstruction> {
    // The file reads amounts as i8; every amount a card can have came through there.
    let n = |n: u8| Some(i8::try_from(n).expect("amounts fit the catalogue's i8"));
    list.iter()
        .map(|i| {
            let (effect, amount, to) = match i.effect {
                Effect::Deal(a) => (RawEffect::Deal, n(a), None),
                Effect::DealMight => (RawEffect::DealMight, None, None),
                Effect::Kill => (RawEffect::Kill, None, None),
                Effect::Draw(a) => (RawEffect::Draw, n(a), None),
                Effect::PlayToken(a) => (RawEffect::PlayToken, n(a), None),
                Effect::Move(d) => (
                    RawEffect::Move,
                    None,
                    Some(d).filter(|d| *d != Destination::Anywhere),
                ),
                Effect::ItsControllerDraws(a) => (RawEffect::ItsControllerDraws, n(a), None),
                Effect::GiveMight(a) => (RawEffect::GiveMight, Some(a), None),
                Effect::Counter => (RawEffect::Counter, None, None),
                Effect::GainControl => (RawEffect::GainControl, None, None),
                Effect::NewChoices => (RawEffect::NewChoices, None, None),
                Effect::Discard(a) => (RawEffect::Discard, n(a), None),
                Effect::BanishSelf => (RawEffect::BanishSelf, None, None),
                Effect::GiveAssault(a) => (RawEffect::GiveAssault, n(a), None),
                Effect::Stun => (RawEffect::Stun, None, None),
                Effect::Ready => (RawEffect::Ready, None, None),
                Effect::MightsToEachOther => (RawEffect::MightsToEachOther, None, None),
                Effect::Choose => (RawEffect::Choose, None, None),
                Effect::GiveMightToGroup(_, a) => (RawEffect::GiveMightToGroup, Some(a), None),
                Effect::StunOrReturnToHand => (RawEffect::StunOrReturnToHand, None, None),
                Effect::LookAtTop { n: a, .. } => (RawEffect::LookAtTop, n(a), None),
                Effect::CounterUnlessPays(a) => (RawEffect::CounterUnlessPays, n(a), None),
                Effect::MayPay(a) => (RawEffect::MayPay, n(a), None),
                Effect::ChannelExhausted(a) => (RawEffect::ChannelExhausted, n(a), None),
                Effect::GrantRepeatToNextSpell => (RawEffect::GrantRepeatToNextSpell, None, None),
                Effect::IfThisKillsIt(then) | Effect::IfPaid { then, .. } => match then {
                    Then::Draw(a) => (RawEffect::Draw, n(a), None),
                    Then::PlayToken(a) => (RawEffect::PlayToken, n(a), None),
                },
            };
            let tag = match i.effect {
                Effect::GiveMightToGroup(t, _) => Some(t.name().to_string()),
                _ => None,
            };
            let take = match i.effect {
                Effect::LookAtTop { take, .. } => Some(take),
                _ => None,
            };
            let target = i.target.map(|t| RawTarget {
                kind: t.kind,
                at: t.at,
                side: t.side,
                count: Some(t.count).filter(|c| *c != 1),
                up_to: t.up_to,
                same_location: t.same_location,
                max_energy: t.max_energy,
                max_power: t.max_power,
                attacking: t.attacking,
                other: t.other,
                chooses: t.chooses,
            });
            RawInstruction {
                if_this_kills: matches!(i.effect, Effect::IfThisKillsIt(_)),
                if_paid: match i.effect {
                    Effect::IfPaid { paid, .. } => Some(paid),
                    _ => None,
                },
                effect,
                amount,
                to,
                target,
                tag,
                take,
            }
        })
        .collect()
}
