//! Reading card definitions from TOML (`model/cards.toml`), with errors that name the file, the
//! line, the card and the field.
//!
//! ```toml
//! [[card]]
//! name = "Rocket Barrage"
//! type = "spell"
//! domains = ["Mind"]
//! cost = "[4][B]"
//! repeat = ["[4][B]"]
//! modes = [
//!   { text = "Deal 4 to a unit in a base.", do = [{ effect = "deal", amount = 4, target = { kind = "unit", at = "base" } }] },
//!   { text = "Kill a gear.", do = [{ effect = "kill", target = { kind = "gear" } }] },
//! ]
//! ```

use crate::card::*;
use crate::cost::{Cost, Domain};
use abilities::{ability, raw_ability};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use toml::Spanned;

/// The shipped catalogue, compiled in; it lives in this package so that the package stands alone.
const BUILTIN: &str = include_str!("../cards.toml");

/// How errors name the shipped catalogue.
const BUILTIN_FILE: &str = "model/cards.toml";

/// A loaded set of definitions.
#[derive(Clone, Debug, Default)]
pub struct Catalogue {
    /// The definitions, in file order.
    pub cards: Vec<CardDef>,
}

/// A catalogue error: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogueError {
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// What was wrong, naming the card and field.
    pub message: String,
}

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for CatalogueError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    card: Vec<RawCard>,
}

/// A card as the catalogue writes it: what [`convert`] reads and [`unconvert`] writes back (fields
/// at their default are left out, as a person would write them).
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    code: String,
    #[serde(rename = "type")]
    kind: CardKind,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    domains: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cost: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    timing: Timing,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    repeat: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    discount: Option<SelfDiscount>,
    #[serde(default, skip_serializing_if = "is_default")]
    optional: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    as_you_play: Vec<RawInstruction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, rename = "do", skip_serializing_if = "Vec::is_empty")]
    instructions: Vec<RawInstruction>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    modes: Vec<RawMode>,
    #[serde(default, skip_serializing_if = "is_default")]
    distinct_modes: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    might: u8,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    abilities: Vec<RawAbility>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tags: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    synthetic: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    source: String,
    // ---- the printed text and what the model leaves out ----
    #[serde(default, skip_serializing_if = "Option::is_none")]
    printed: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unmodelled: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    modelled_text: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    optional_costs: Vec<RawOptionalCost>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    additional_costs: Vec<String>,
}

/// An optional additional cost as the catalogue writes it:
/// `{ cost = "[1][C]", rider = "accelerate" }` or `{ cost = "[G]", rider = "play-trigger",
/// trigger = "..." }`.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawOptionalCost {
    cost: String,
    rider: RawRider,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trigger: Option<String>,
}

#[derive(Deserialize, Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
enum RawRider {
    Accelerate,
    PlayTrigger,
    IfPaid,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawMode {
    text: String,
    #[serde(rename = "do")]
    instructions: Vec<RawInstruction>,
}

#[derive(Deserialize, Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
enum RawEffect {
    Deal,
    DealMight,
    Kill,
    Draw,
    Discard,
    PlayToken,
    Move,
    ItsControllerDraws,
    GiveMight,
    Counter,
    GainControl,
    NewChoices,
    BanishSelf,
    // ---- the main deck, demands, combat ----
    LookAtTop,
    CounterUnlessPays,
    MayPay,
    ChannelExhausted,
    Choose,
    GiveAssault,
    Stun,
    Ready,
    MightsToEachOther,
    GiveMightToGroup,
    StunOrReturnToHand,
    GrantRepeatToNextSpell,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawInstruction {
    effect: RawEffect,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    amount: Option<i8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to: Option<Destination>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target: Option<RawTarget>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    take: Option<LookTake>,
    tag: Option<String>,
    /// "If this kills it, ...": a `draw` or `play-token` that follows a kill or deal.
    #[serde(default, skip_serializing_if = "is_default")]
    if_this_kills: bool,
    /// "If you paid, ..." (true) or "Otherwise, ..." (false): a `draw` or `play-token` that
    /// reads the spell's `if-paid` optional cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    if_paid: Option<bool>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawTarget {
    kind: TargetKind,
    #[serde(default, skip_serializing_if = "is_default")]
    at: Place,
    #[serde(default, skip_serializing_if = "is_default")]
    side: Side,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    count: Option<u8>,
    #[serde(default, skip_serializing_if = "is_default")]
    up_to: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    same_location: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_energy: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_power: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chooses: Option<Chooses>,
    #[serde(default, skip_serializing_if = "is_default")]
    attacking: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    other: bool,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawAbility {
    ability: RawAbilityKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    amount: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cost: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trigger: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min: Option<u8>,
}

#[derive(Deserialize, Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
enum RawAbilityKind {
    OptionalCostsLess,
    RepeatCostsLess,
    SpellsHaveRepeatInShowdown,
    AbilitiesHaveRepeat,
    GrantRepeatToNextSpell,
    WhenYouPlayMe,
    WhenYouPlayASpell,
    WhenChosen,
    WhenAttacks,
    Deflect,
    GrantRepeatBaseCostToNextSpell,
    Activated,
    SpellsCostLess,
    ChoosersPayMore,
}

impl Catalogue {
    /// Reads a catalogue file.
    pub fn load(path: &Path) -> Result<Catalogue, CatalogueError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| CatalogueError {
            file: file.clone(),
            line: 0,
            message: format!("cannot read: {e}"),
        })?;
        Catalogue::from_toml(&text, &file)
    }

    /// Reads catalogue text; `file` names it in errors.
    pub fn from_toml(text: &str, file: &str) -> Result<Catalogue, CatalogueError> {
        let raw: RawFile = toml::from_str(text).map_err(|e| CatalogueError {
            file: file.to_string(),
            line: e.span().map(|s| line_at(text, s.start)).unwrap_or(1),
            message: e.message().trim().to_string(),
        })?;
        let names: Vec<String> = raw.card.iter().map(|c| c.name.clone()).collect();
        let mut cards = Vec::with_capacity(raw.card.len());
        for (i, rc) in raw.card.iter().enumerate() {
            let err = |message: String| CatalogueError {
                file: file.to_string(),
                line: line_of_card(text, i),
                message: format!("card `{}`: {message}", rc.name),
            };
            if names[..i].iter().any(|n| n.eq_ignore_ascii_case(&rc.name)) {
                return Err(err("a card with this name is defined earlier".into()));
            }
            cards.push(convert(rc, &names).map_err(err)?);
        }
        Ok(Catalogue { cards })
    }

    /// The id of the card with this name (case-insensitive).
    pub fn id(&self, name: &str) -> Option<CardId> {
        self.cards
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(|i| i as CardId)
    }
}

/// The 1-based line of a byte offset in `text` (the start of a toml span).
pub fn line_at(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The 1-based line of a top-level key of a TOML text, from the parser's spans; 1 when the text
/// does not parse or lacks the key (errors then point at the top of the file).
pub fn line_of_key(text: &str, key: &str) -> usize {
    toml::from_str::<BTreeMap<Spanned<String>, IgnoredAny>>(text)
        .ok()
        .and_then(|keys| {
            keys.get_key_value(key)
                .map(|(k, _)| line_at(text, k.span().start))
        })
        .unwrap_or(1)
}

/// The 1-based line of the `name` of the `index`th `[[card]]` of a catalogue text, from the
/// parser's spans (only read when reporting an error, so a valid file is parsed once).
fn line_of_card(text: &str, index: usize) -> usize {
    #[derive(Deserialize)]
    struct Names {
        #[serde(default)]
        card: Vec<Named>,
    }
    #[derive(Deserialize)]
    struct Named {
        name: Spanned<String>,
    }
    toml::from_str::<Names>(text)
        .ok()
        .and_then(|n| {
            n.card
                .get(index)
                .map(|c| line_at(text, c.name.span().start))
        })
        .unwrap_or(1)
}

fn convert(rc: &RawCard, names: &[String]) -> Result<CardDef, String> {
    let domains = rc
        .domains
        .iter()
        .map(|d| Domain::parse(d).ok_or_else(|| format!("field `domains`: unknown domain `{d}`")))
        .collect::<Result<Vec<_>, _>>()?;
    let cost = match &rc.cost {
        Some(c) => Cost::parse(c, &domains).map_err(|e| format!("field `cost`: {e}"))?,
        None => Cost::ZERO,
    };
    let repeat = rc
        .repeat
        .iter()
        .map(|r| parse_repeat(r, &domains).map_err(|e| format!("field `repeat`: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let resolves = matches!(rc.kind, CardKind::Spell | CardKind::Ability);
    let mut modes = vec![];
    if !rc.instructions.is_empty() {
        if !rc.modes.is_empty() {
            return Err("give either `do` (one body) or `modes`, not both".into());
        }
        modes.push(Mode {
            text: rc.text.clone().unwrap_or_default(),
            instructions: instructions(&rc.instructions, "do")?,
        });
    }
    for (i, m) in rc.modes.iter().enumerate() {
        modes.push(Mode {
            text: m.text.clone(),
            instructions: instructions(&m.instructions, &format!("modes[{i}].do"))?,
        });
    }
    if resolves && modes.is_empty() {
        return Err("a spell or ability needs `do` or `modes`".into());
    }
    if !resolves && !modes.is_empty() {
        return Err("only spells and abilities have `do` or `modes`".into());
    }
    if !resolves && !repeat.is_empty() {
        return Err("field `repeat`: only spells and abilities have [Repeat] (820.1.a)".into());
    }
    for (mi, m) in modes.iter().enumerate() {
        // An instruction that pauses the item for a decision ends its execution (`game`).
        if let Some(pos) = m.instructions.iter().position(|i| pauses(i.effect)) {
            if pos + 1 != m.instructions.len() {
                return Err(format!(
                    "mode {}: `{}` must be the last instruction",
                    mi + 1,
                    effect_name(m.instructions[pos].effect)
                ));
            }
        }
    }
    let tags = rc
        .tags
        .iter()
        .map(|t| parse_tag(t).map_err(|e| format!("field `tags`: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    if !tags.is_empty() && rc.kind != CardKind::Unit {
        return Err("field `tags`: only units have tags in this model".into());
    }
    let as_you_play = instructions(&rc.as_you_play, "as_you_play")?;
    if as_you_play
        .iter()
        .any(|i| matches!(i.effect, Effect::IfPaid { .. } | Effect::IfThisKillsIt(_)))
    {
        return Err(
            "field `as_you_play`: `if_paid` and `if_this_kills` are for `do` or `modes`".into(),
        );
    }
    if let Some(i) = as_you_play.iter().find(|i| i.target.is_some()) {
        return Err(format!(
            "field `as_you_play`: `{:?}` with a target is not supported there",
            i.effect
        ));
    }
    let abilities = rc
        .abilities
        .iter()
        .enumerate()
        .map(|(i, a)| ability(a, names, &domains).map_err(|e| format!("abilities[{i}]: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    abilities::units_only(rc.kind, &abilities)?;
    let optional_costs = costs::optional_costs(rc, names, &domains)?;
    rider::check_if_paid(rc.kind, &modes, &optional_costs)?;
    let additional_costs = rc
        .additional_costs
        .iter()
        .map(|c| costs::additional_cost(c, rc.kind))
        .collect::<Result<Vec<_>, _>>()?;
    let def = CardDef {
        name: rc.name.clone(),
        code: rc.code.clone(),
        kind: rc.kind,
        domains,
        cost,
        timing: rc.timing,
        repeat,
        discount: rc.discount,
        optional: rc.optional,
        as_you_play,
        modes,
        distinct_modes: rc.distinct_modes,
        might: rc.might,
        abilities,
        tags,
        synthetic: rc.synthetic,
        source: rc.source.clone(),
        optional_costs,
        additional_costs,
        printed: Printed {
            text: rc.printed.clone().unwrap_or_default(),
            unmodelled: rc.unmodelled.clone(),
            modelled: rc.modelled_text.clone(),
        },
    };
    fidelity::check(&def)?;
    Ok(def)
}

/// True for an effect that pauses the resolving item for a decision (it must end its mode).
fn pauses(e: Effect) -> bool {
    matches!(
        e,
        Effect::NewChoices | Effect::LookAtTop { .. } | Effect::CounterUnlessPays(_)
    )
}

/// The catalogue's name of an effect, for errors.
fn effect_name(e: Effect) -> &'static str {
    match e {
        Effect::NewChoices => "new-choices",
        Effect::LookAtTop { .. } => "look-at-top",
        Effect::CounterUnlessPays(_) => "counter-unless-pays",
        Effect::MayPay(_) => "may-pay",
        _ => "this effect",
    }
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

fn parse_repeat(text: &str, domains: &[Domain]) -> Result<RepeatCost, String> {
    let t = text.trim();
    if let Some(n) = t
        .strip_prefix("Discard ")
        .or_else(|| t.strip_prefix("discard "))
    {
        return n
            .trim()
            .parse::<u8>()
            .map(RepeatCost::Discard)
            .map_err(|_| format!("`{t}`: expected `Discard N` with a number N"));
    }
    Cost::parse(t, domains).map(RepeatCost::Pay)
}

fn instructions(raw: &[RawInstruction], field: &str) -> Result<Vec<Instruction>, String> {
    let mut out = vec![];
    for (i, ri) in raw.iter().enumerate() {
        let at = format!("field `{field}`, instruction {}", i + 1);
        let effect = rider::reflexive(effect_of(ri, &at)?, ri.if_this_kills, &out, &at)?;
        let effect = rider::if_paid(effect, ri.if_paid, &at)?;
        let target = ri
            .target
            .as_ref()
            .map(|t| {
                let count = t.count.unwrap_or(1);
                if count == 0 {
                    return Err(format!("{at}: `count` must be at least 1"));
                }
                if count > 4 {
                    return Err(format!("{at}: `count` is at most 4 in this model"));
                }
                Ok(TargetSpec {
                    kind: t.kind,
                    at: t.at,
                    side: t.side,
                    count,
                    up_to: t.up_to,
                    same_location: t.same_location,
                    max_energy: t.max_energy,
                    max_power: t.max_power,
                    chooses: t.chooses,
                    attacking: t.attacking,
                    other: t.other,
                })
            })
            .transpose()?;
        let needs: Option<&[TargetKind]> = match effect {
            Effect::Deal(_)
            | Effect::DealMight
            | Effect::GiveMight(_)
            | Effect::Move(_)
            | Effect::GiveAssault(_)
            | Effect::Stun
            | Effect::Ready
            | Effect::MightsToEachOther
            | Effect::StunOrReturnToHand => Some(&[TargetKind::Unit]),
            Effect::Kill => Some(&[TargetKind::Unit, TargetKind::Gear]),
            Effect::Counter | Effect::CounterUnlessPays(_) => {
                Some(&[TargetKind::Spell, TargetKind::SpellOrAbility])
            }
            Effect::GainControl => Some(&[TargetKind::Spell]),
            Effect::Choose => Some(&[TargetKind::Unit, TargetKind::Gear]),
            Effect::Draw(_)
            | Effect::Discard(_)
            | Effect::PlayToken(_)
            | Effect::BanishSelf
            | Effect::ItsControllerDraws(_)
            | Effect::NewChoices
            | Effect::LookAtTop { .. }
            | Effect::ChannelExhausted(_)
            | Effect::GrantRepeatToNextSpell
            | Effect::GiveMightToGroup(..)
            | Effect::IfThisKillsIt(_)
            | Effect::IfPaid { .. }
            | Effect::MayPay(_) => None,
        };
        if let Some(t) = target.filter(|t| t.chooses.is_some()) {
            if !matches!(t.kind, TargetKind::Spell | TargetKind::SpellOrAbility) {
                return Err(format!(
                    "{at}: `chooses` restricts spells and abilities only"
                ));
            }
            if t.chooses == Some(Chooses::OnlyItAmongFriendlyUnits)
                && out.last().is_none_or(|p: &Instruction| p.target.is_none())
            {
                return Err(format!(
                    "{at}: `chooses = \"only-it-among-friendly-units\"` must follow an instruction with a target (\"it\")"
                ));
            }
        }
        match (needs, target) {
            (Some(kinds), Some(t)) if !kinds.contains(&t.kind) => {
                return Err(format!(
                    "{at}: `{:?}` cannot target a {:?}",
                    ri.effect, t.kind
                ))
            }
            (Some(_), None) => return Err(format!("{at}: `{:?}` needs a `target`", ri.effect)),
            (None, Some(_)) => return Err(format!("{at}: `{:?}` takes no `target`", ri.effect)),
            _ => {}
        }
        if matches!(effect, Effect::ItsControllerDraws(_))
            && out.last().is_none_or(|p: &Instruction| p.target.is_none())
        {
            return Err(format!(
                "{at}: `its-controller-draws` must follow an instruction with a target"
            ));
        }
        if effect == Effect::NewChoices
            && out
                .last()
                .and_then(|p: &Instruction| p.target)
                .is_none_or(|t| t.kind != TargetKind::Spell)
        {
            return Err(format!("{at}: `new-choices` must follow an instruction that targets a spell (\"... for it\")"));
        }
        check_links(&out, effect, target, &at)?;
        out.push(Instruction { effect, target });
    }
    Ok(out)
}

mod abilities;
mod builtin;
mod fidelity;
mod rider;
/// An instruction's effect, with its amount and tag checked.
fn effect_of(ri: &RawInstruction, at: &str) -> Result<Effect, String> {
    let amount = |what: &str| {
        ri.amount
            .ok_or_else(|| format!("{at}: `{what}` needs `amount`"))
    };
    let unsigned = |what: &str| {
        amount(what)
            .and_then(|a| u8::try_from(a).map_err(|_| format!("{at}: `amount` must be 0 or more")))
    };
    let effect = match ri.effect {
        RawEffect::Deal => Effect::Deal(unsigned("deal")?),
        RawEffect::DealMight => Effect::DealMight,
        RawEffect::Kill => Effect::Kill,
        RawEffect::Draw => Effect::Draw(unsigned("draw")?),
        RawEffect::Discard => Effect::Discard(unsigned("discard")?),
        RawEffect::PlayToken => Effect::PlayToken(unsigned("play-token")?),
        RawEffect::Move => Effect::Move(ri.to.unwrap_or(Destination::Anywhere)),
        RawEffect::ItsControllerDraws => {
            Effect::ItsControllerDraws(unsigned("its-controller-draws")?)
        }
        RawEffect::GiveMight => Effect::GiveMight(amount("give-might")?),
        RawEffect::Counter => Effect::Counter,
        RawEffect::GainControl => Effect::GainControl,
        RawEffect::NewChoices => Effect::NewChoices,
        RawEffect::BanishSelf => Effect::BanishSelf,
        RawEffect::GiveAssault => Effect::GiveAssault(unsigned("give-assault")?),
        RawEffect::Stun => Effect::Stun,
        RawEffect::Ready => Effect::Ready,
        RawEffect::MightsToEachOther => Effect::MightsToEachOther,
        RawEffect::Choose => Effect::Choose,
        RawEffect::GiveMightToGroup => {
            let tag = ri
                .tag
                .as_deref()
                .ok_or_else(|| format!("{at}: `give-might-to-group` needs `tag`"))
                .and_then(|t| parse_tag(t).map_err(|e| format!("{at}: {e}")))?;
            Effect::GiveMightToGroup(tag, amount("give-might-to-group")?)
        }
        RawEffect::StunOrReturnToHand => Effect::StunOrReturnToHand,
        RawEffect::LookAtTop => Effect::LookAtTop {
            n: unsigned("look-at-top")?,
            take: ri.take.ok_or_else(|| {
                format!("{at}: `look-at-top` needs `take` (draw-one or may-reveal-unit)")
            })?,
        },
        RawEffect::CounterUnlessPays => Effect::CounterUnlessPays(unsigned("counter-unless-pays")?),
        RawEffect::MayPay => Effect::MayPay(unsigned("may-pay")?),
        RawEffect::ChannelExhausted => Effect::ChannelExhausted(unsigned("channel-exhausted")?),
        RawEffect::GrantRepeatToNextSpell => Effect::GrantRepeatToNextSpell,
    };
    if ri.take.is_some() && !matches!(effect, Effect::LookAtTop { .. }) {
        return Err(format!("{at}: only `look-at-top` takes `take`"));
    }
    if ri.tag.is_some() && !matches!(effect, Effect::GiveMightToGroup(..)) {
        return Err(format!("{at}: only `give-might-to-group` takes a `tag`"));
    }
    Ok(effect)
}

/// Instructions that refer to the one before them ("they", "other") need one that chose a unit.
fn check_links(
    out: &[Instruction],
    effect: Effect,
    target: Option<TargetSpec>,
    at: &str,
) -> Result<(), String> {
    let after_unit_choice = out
        .last()
        .and_then(|p: &Instruction| p.target)
        .is_some_and(|t| t.kind == TargetKind::Unit);
    if effect == Effect::MightsToEachOther && !after_unit_choice {
        return Err(format!(
            "{at}: `mights-to-each-other` must follow an instruction that chooses a unit (\"they\" are both units)"
        ));
    }
    if target.is_some_and(|t| t.other) && !after_unit_choice {
        return Err(format!(
            "{at}: `other` needs an instruction before it that chooses a unit"
        ));
    }
    if target.is_some_and(|t| (t.attacking || t.other) && t.kind != TargetKind::Unit) {
        return Err(format!(
            "{at}: `attacking` and `other` apply to unit targets"
        ));
    }
    Ok(())
}

/// A tag by its printed name; the model knows only the tags its cards use.
fn parse_tag(t: &str) -> Result<Tag, String> {
    Tag::parse(t).ok_or_else(|| {
        let known: Vec<&str> = Tag::ALL.iter().map(|t| t.name()).collect();
        format!("unknown tag `{t}`; the model knows {}", known.join(", "))
    })
}

mod write;
pub use write::card_table;
#[cfg(test)]
use write::unconvert;

mod costs;
#[cfg(test)]
mod tests;
