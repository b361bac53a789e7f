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
    #[serde(default, skip_serializing_if = "is_default")]
    synthetic: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    source: String,
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
    PlayToken,
    Move,
    ItsControllerDraws,
    GiveMight,
    Counter,
    GainControl,
    NewChoices,
    BanishSelf,
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
}

#[derive(Deserialize, Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
enum RawAbilityKind {
    OptionalCostsLess,
    RepeatCostsLess,
    SpellsHaveRepeatInShowdown,
    AbilitiesHaveRepeat,
    GrantRepeatToNextSpell,
    WhenYouPlayASpell,
    WhenChosen,
    WhenAttacks,
    Deflect,
    GrantRepeatBaseCostToNextSpell,
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

    /// The shipped catalogue with extra cards (one TOML table each) added; an extra card with a
    /// catalogue card's name replaces it, so a rules person can try an edited card.
    pub fn builtin_with(extra: &[toml::Table], file: &str) -> Result<Catalogue, CatalogueError> {
        let mut doc: toml::Table = toml::from_str(BUILTIN).map_err(|e| CatalogueError {
            file: BUILTIN_FILE.into(),
            line: 1,
            message: e.message().to_string(),
        })?;
        let cards = doc
            .entry("card")
            .or_insert_with(|| toml::Value::Array(vec![]));
        let toml::Value::Array(list) = cards else {
            unreachable!("the shipped catalogue has a card array")
        };
        for t in extra {
            let name = t
                .get("name")
                .and_then(|n| n.as_str())
                .map(str::to_ascii_lowercase);
            list.retain(|c| {
                c.get("name")
                    .and_then(|n| n.as_str())
                    .map(str::to_ascii_lowercase)
                    != name
                    || name.is_none()
            });
            list.push(toml::Value::Table(t.clone()));
        }
        let raw: RawFile = doc
            .try_into()
            .map_err(|e: toml::de::Error| CatalogueError {
                file: file.to_string(),
                line: 0,
                message: e.message().trim().to_string(),
            })?;
        let names: Vec<String> = raw.card.iter().map(|c| c.name.clone()).collect();
        let mut out = Vec::with_capacity(raw.card.len());
        for rc in &raw.card {
            out.push(convert(rc, &names).map_err(|m| CatalogueError {
                file: file.to_string(),
                line: 0,
                message: format!("card `{}`: {m}", rc.name),
            })?);
        }
        Ok(Catalogue { cards: out })
    }

    /// Checks one card given as a TOML table (a case file's `define`), without the rest; `also`
    /// names the other cards defined beside it, which its abilities may trigger.
    pub fn check_table(t: &toml::Table, also: &[String]) -> Result<(), String> {
        let rc: RawCard = t
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| e.message().trim().to_string())?;
        let cat = Catalogue::builtin();
        let mut names: Vec<String> = cat.cards.iter().map(|c| c.name.clone()).collect();
        names.push(rc.name.clone());
        names.extend(also.iter().cloned());
        convert(&rc, &names)
            .map(|_| ())
            .map_err(|m| format!("card `{}`: {m}", rc.name))
    }

    /// The id of the card with this name (case-insensitive).
    pub fn id(&self, name: &str) -> Option<CardId> {
        self.cards
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
            .map(|i| i as CardId)
    }

    /// The catalogue shipped in `model/cards.toml`, compiled in.
    pub fn builtin() -> Catalogue {
        Catalogue::from_toml(BUILTIN, BUILTIN_FILE)
            .expect("the shipped catalogue is valid (a test guards it)")
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
        if let Some(pos) = m
            .instructions
            .iter()
            .position(|i| i.effect == Effect::NewChoices)
        {
            if pos + 1 != m.instructions.len() {
                return Err(format!(
                    "mode {}: `new-choices` must be the last instruction",
                    mi + 1
                ));
            }
        }
    }
    let as_you_play = instructions(&rc.as_you_play, "as_you_play")?;
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
    let optional_costs = costs::optional_costs(rc, names, &domains)?;
    let additional_costs = rc
        .additional_costs
        .iter()
        .map(|c| costs::additional_cost(c))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CardDef {
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
        synthetic: rc.synthetic,
        source: rc.source.clone(),
        optional_costs,
        additional_costs,
    })
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// A card as a one-line TOML table in the catalogue's vocabulary (a case file's `define`);
/// `name_of` names the cards its abilities trigger. The set code is left out: a define is a
/// made-up or edited card, not the printed one.
pub fn card_table(c: &CardDef, name_of: impl Fn(CardId) -> String) -> String {
    let raw = RawCard {
        code: String::new(),
        ..unconvert(c, name_of)
    };
    toml::Value::try_from(&raw)
        .expect("a raw card is a TOML table")
        .to_string()
}

/// The inverse of [`convert`]: the raw card that converts back to `c`.
fn unconvert(c: &CardDef, name_of: impl Fn(CardId) -> String) -> RawCard {
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
        synthetic: c.synthetic,
        source: c.source.clone(),
        optional_costs: c
            .optional_costs
            .iter()
            .map(|o| {
                let (rider, trigger) = match o.rider {
                    Rider::EnterReady => (RawRider::Accelerate, None),
                    Rider::PlayTrigger(id) => (RawRider::PlayTrigger, Some(name_of(id))),
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
            .map(|a| {
                let AdditionalCost::Discard(n) = a;
                format!("Discard {n}")
            })
            .collect(),
    }
}

fn repeat_text(r: &RepeatCost) -> String {
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
                Effect::BanishSelf => (RawEffect::BanishSelf, None, None),
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
            });
            RawInstruction {
                effect,
                amount,
                to,
                target,
            }
        })
        .collect()
}

fn raw_ability(a: &Ability, name_of: impl Fn(CardId) -> String) -> RawAbility {
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
            Some(repeat_text(r)),
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
        Ability::WhenChosen(id) => (RawAbilityKind::WhenChosen, None, None, Some(name_of(*id))),
        Ability::WhenAttacks(id) => (RawAbilityKind::WhenAttacks, None, None, Some(name_of(*id))),
        Ability::Deflect(n) => (RawAbilityKind::Deflect, Some(*n), None, None),
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
    }
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
        let amount = |what: &str| {
            ri.amount
                .ok_or_else(|| format!("{at}: `{what}` needs `amount`"))
        };
        let unsigned = |what: &str| {
            amount(what).and_then(|a| {
                u8::try_from(a).map_err(|_| format!("{at}: `amount` must be 0 or more"))
            })
        };
        let effect = match ri.effect {
            RawEffect::Deal => Effect::Deal(unsigned("deal")?),
            RawEffect::DealMight => Effect::DealMight,
            RawEffect::Kill => Effect::Kill,
            RawEffect::Draw => Effect::Draw(unsigned("draw")?),
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
        };
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
                })
            })
            .transpose()?;
        let needs: Option<&[TargetKind]> = match effect {
            Effect::Deal(_) | Effect::DealMight | Effect::GiveMight(_) | Effect::Move(_) => {
                Some(&[TargetKind::Unit])
            }
            Effect::Kill => Some(&[TargetKind::Unit, TargetKind::Gear]),
            Effect::Counter | Effect::GainControl => Some(&[TargetKind::Spell]),
            Effect::Draw(_)
            | Effect::PlayToken(_)
            | Effect::BanishSelf
            | Effect::ItsControllerDraws(_)
            | Effect::NewChoices => None,
        };
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
        out.push(Instruction { effect, target });
    }
    Ok(out)
}

fn ability(a: &RawAbility, names: &[String], domains: &[Domain]) -> Result<Ability, String> {
    let amount = || {
        a.amount
            .ok_or_else(|| format!("`{:?}` needs `amount`", a.ability))
    };
    let cost = || {
        a.cost
            .as_deref()
            .ok_or_else(|| format!("`{:?}` needs `cost`", a.ability))
            .and_then(|c| parse_repeat(c, domains))
    };
    let trigger = || {
        let name = a
            .trigger
            .as_deref()
            .ok_or_else(|| format!("`{:?}` needs `trigger` (an ability's name)", a.ability))?;
        names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .map(|i| i as CardId)
            .ok_or_else(|| format!("`trigger`: no card or ability named `{name}`"))
    };
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
        RawAbilityKind::WhenChosen => Ability::WhenChosen(trigger()?),
        RawAbilityKind::WhenAttacks => Ability::WhenAttacks(trigger()?),
        RawAbilityKind::Deflect => Ability::Deflect(amount()?),
        RawAbilityKind::GrantRepeatBaseCostToNextSpell => Ability::GrantRepeatBaseCostToNextSpell,
    })
}

mod costs;
#[cfg(test)]
mod tests;
