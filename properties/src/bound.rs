//! The bounded universe the checker explores: generated items (number of [Repeat] instances and
//! their cost shapes, body shapes), the real cards of the catalogue, boards, the board cards that
//! change a play, resources, and the opponent's reactions. Every combination is one scenario.
//!
//! Named presets (`tiny`, `default`, `large`) or a TOML file with the same fields.

use build::{build, card_id, power};
use model::card::*;
use model::catalogue::{line_at, line_of_key, Catalogue};
use model::cost::{Cost, Domain};
use model::setup::*;
use model::state::{Location, Player};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The shape of a generated item's instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BodyShape {
    /// "Deal 2 to a unit."
    Deal,
    /// "Choose one — Deal 3 to a unit at a base; or Kill a gear." (Rocket Barrage's shape)
    Modal,
    /// "Kill a unit at a battlefield. Its controller draws 1." (Hidden Blade's shape)
    KillLinked,
    /// "Play a 1-Might unit token." (Desert's Call's shape)
    Token,
    /// "Move an enemy unit." (Temptation's shape)
    Move,
    /// "Deal 1 to up to two units at the same location." (Bellows Breath's shape)
    UpToTwo,
    /// "Draw 1."
    Draw,
}

impl BodyShape {
    fn instructions(self) -> (Vec<Mode>, bool) {
        let unit = |at, side, count, up_to| {
            Some(TargetSpec {
                count,
                up_to,
                same_location: count > 1,
                ..TargetSpec::one(TargetKind::Unit, at, side)
            })
        };
        let one = |text: &str, instructions| {
            vec![Mode {
                text: text.into(),
                instructions,
            }]
        };
        let modes = match self {
            BodyShape::Deal => one(
                "Deal 2 to a unit.",
                vec![Instruction {
                    effect: Effect::Deal(2),
                    target: unit(Place::Anywhere, Side::Any, 1, false),
                }],
            ),
            BodyShape::Modal => vec![
                Mode {
                    text: "Deal 3 to a unit at a base.".into(),
                    instructions: vec![Instruction {
                        effect: Effect::Deal(3),
                        target: unit(Place::Base, Side::Any, 1, false),
                    }],
                },
                Mode {
                    text: "Kill a gear.".into(),
                    instructions: vec![Instruction {
                        effect: Effect::Kill,
                        target: Some(TargetSpec::one(
                            TargetKind::Gear,
                            Place::Anywhere,
                            Side::Any,
                        )),
                    }],
                },
            ],
            BodyShape::KillLinked => one(
                "Kill a unit at a battlefield. Its controller draws 1.",
                vec![
                    Instruction {
                        effect: Effect::Kill,
                        target: unit(Place::Battlefield, Side::Any, 1, false),
                    },
                    Instruction {
                        effect: Effect::ItsControllerDraws(1),
                        target: None,
                    },
                ],
            ),
            BodyShape::Token => one(
                "Play a 1-Might unit token.",
                vec![Instruction {
                    effect: Effect::PlayToken(1),
                    target: None,
                }],
            ),
            BodyShape::Move => one(
                "Move an enemy unit.",
                vec![Instruction {
                    effect: Effect::Move(Destination::Anywhere),
                    target: unit(Place::Anywhere, Side::Enemy, 1, false),
                }],
            ),
            BodyShape::UpToTwo => one(
                "Deal 1 to up to two units at the same location.",
                vec![Instruction {
                    effect: Effect::Deal(1),
                    target: unit(Place::Anywhere, Side::Any, 2, true),
                }],
            ),
            BodyShape::Draw => one(
                "Draw 1.",
                vec![Instruction {
                    effect: Effect::Draw(1),
                    target: None,
                }],
            ),
        };
        (modes, false)
    }
}

/// A board: the units and gear in play before the item is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoardShape {
    /// No units, no gear.
    Empty,
    /// An enemy 2-Might unit at its base and an enemy gear.
    EnemyBase,
    /// An enemy 2-Might unit at a battlefield and one at its base.
    EnemySpread,
    /// An enemy [Deflect] unit at its base and an enemy unit at a battlefield.
    Deflect,
    /// An enemy unit with a Targeting Effect ("when an opponent chooses me") at its base.
    Sentry,
    /// An enemy unit that makes the items choosing it cost [1] more (356.3) at its base and an
    /// enemy unit at a battlefield.
    Warden,
    /// Enemy units at base and battlefield, two enemy gear, your unit at the battlefield.
    Mixed,
    // ---- Combat statuses ----
    /// A combat at battlefield 1 (a showdown there): your 2-Might unit attacking, an enemy
    /// 4-Might unit defending; your exhausted Mech in your base, an enemy Mech in its base.
    Attack,
    /// A combat at battlefield 1 where the opponent attacks: an enemy 2-Might unit attacking and
    /// already stunned, one of yours (owned by the opponent) defending; your Mech in your base.
    Defence,
    /// No showdown: your exhausted Mech and a damaged 4-Might unit in your base, an enemy unit at
    /// battlefield 1 and one in its base.
    Exhausted,
}

/// Board cards of yours that change how the item is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Extra {
    /// Nothing.
    None,
    /// Ezreal, Prodigy: optional additional costs cost [1] or [A] less.
    Ezreal,
    /// Marai Spire (you control it): [Repeat] costs cost [1] less.
    MaraiSpire,
    /// Temporal Portal activated: the next spell gets [Repeat] equal to its cost.
    Portal,
    /// Syndra in a showdown: your spells have [Repeat] [2][P].
    Syndra,
    /// A "when you play a spell" trigger.
    Spellwatcher,
    /// A "when you play a spell" trigger that asks "you may pay [1]. If you do, draw 1" (205).
    Tollkeeper,
    /// The opponent is within 3 points of the Victory Score (Find Your Center's discount).
    OpponentNearVictory,
    /// The Academy's hold triggered: the next spell gets [Repeat] equal to its base cost.
    Academy,
    /// Frugal Adept in your base: spells you play cost [1] less, to a minimum of [1] (a
    /// whole-card discount with a floor of its own, 356.4.e).
    FrugalAdept,
    /// Temporal Portal on the board, ready and not yet activated: in a turn of several plays
    /// you may activate it ("[A], [E]: ...", 401) before a play.
    PortalReady,
}

/// Your resources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Resources {
    /// Enough for anything: 12 Energy, 3 Mind, 2 Chaos, 3 Calm, 2 Order, 2 Fury Power, 3 cards in hand.
    Rich,
    /// Too few for everything: 4 Energy, 1 Mind, 1 Chaos Power, 1 card in hand.
    Tight,
    /// An empty pool and runes to pay with: 2 Calm, 2 Mind and 1 Chaos ready, 1
    /// Fury exhausted, a rune deck of 1 Calm; 2 cards in hand. Enough for some plays, not all,
    /// so payments that fail half-way are reached.
    Runes,
}

/// A bounded universe of scenarios.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bound {
    /// The bound's name, for reports.
    #[serde(default)]
    pub name: String,
    /// How many [Repeat] instances generated items have (each value 0 to 3).
    pub instances: Vec<u8>,
    /// The cost shapes a generated instance may have (e.g. "[1]", "[B]", "[1][B]", "Discard 1").
    /// Every multiset of these of each size in `instances` is generated: identical instances are
    /// interchangeable, so their order is not enumerated twice.
    pub instance_costs: Vec<String>,
    /// The body shapes of generated items.
    pub bodies: Vec<BodyShape>,
    /// The printed Energy cost of generated items.
    #[serde(default = "default_item_cost")]
    pub item_cost: u8,
    /// Real cards from the catalogue, played as the item on every board.
    #[serde(default)]
    pub catalogue: Vec<String>,
    /// Also play the RUP4 triggered ability with "[Repeat] — Discard 1" (Vendetta Duelist).
    #[serde(default)]
    pub abilities: bool,
    /// Boards.
    pub boards: Vec<BoardShape>,
    /// Sets of board cards; each set is one variant (`[]` for none).
    pub extras: Vec<Vec<Extra>>,
    /// Your resources.
    pub resources: Vec<Resources>,
    /// The opponent's hand of reactions, one list per scenario variant ([] for none).
    pub reactions: Vec<Vec<String>>,
    /// Named cards on top of your main deck, top first ("look at the top N").
    #[serde(default)]
    pub deck_top: Vec<String>,
    /// The turn: plays by the turn player and the hands drawn besides the item.
    #[serde(default, skip_serializing_if = "TurnBound::is_single")]
    pub turn: TurnBound,
    /// More scenarios: each of these bounds' scenarios, after this one's (`[[also]]` tables), for
    /// a shape too costly to cross with everything above (e.g. a bigger board only with a
    /// smaller hand).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Bound>,
}

fn default_item_cost() -> u8 {
    1
}

/// A bound that cannot be used, with where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundError {
    /// 1-based line in the file, when known.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for BoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// One generated scenario: a name for reports and its starting position.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// A readable name: the item, the board, the extras, the resources and the reactions.
    pub name: String,
    /// The starting position.
    pub setup: Setup,
    /// The bound it comes from and its number there, when it has one.
    pub origin: Option<Origin>,
}

/// Where a scenario comes from: a bound, and its 1-based number among that bound's scenarios
/// in which something can be done (the number `rbcheck graph --bound B --scenario N` takes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The bound's name.
    pub bound: String,
    /// The scenario's number in it.
    pub number: usize,
}

impl Scenario {
    /// "scenario N of bound B", or the name alone for a scenario from nowhere numbered.
    pub fn cite(&self) -> String {
        match &self.origin {
            Some(o) => format!("scenario {} of bound {}", o.number, o.bound),
            None => format!("scenario `{}`", self.name),
        }
    }
}

impl Bound {
    /// Reads a bound file (TOML with the fields above); `name` is used when the file has none.
    pub fn from_toml(text: &str, name: &str) -> Result<Bound, BoundError> {
        let mut b: Bound = toml::from_str(text).map_err(|e| BoundError {
            line: e.span().map(|s| line_at(text, s.start)).unwrap_or(1),
            message: e.message().trim().to_string(),
        })?;
        if b.name.is_empty() {
            b.name = name.to_string();
        }
        b.validate(text, None, &mut also_headers(text).into_iter())?;
        if let Err(message) = b.scenario_count() {
            return Err(BoundError {
                line: b.largest_key_line(text),
                message,
            });
        }
        Ok(b)
    }

    /// Checks ranges, names and non-empty lists; `part` is the line of the `[[also]]` table a
    /// part of the bound starts on (its keys' lines are not told apart from the main table's).
    /// `headers` yields the lines of the `[[also]]` (and nested `[[also.also]]`) headers in
    /// document order, which is the order this walk meets the parts.
    fn validate(
        &self,
        text: &str,
        part: Option<usize>,
        headers: &mut std::vec::IntoIter<usize>,
    ) -> Result<(), BoundError> {
        let b = self;
        let line_of = |key: &str| part.unwrap_or_else(|| line_of_key(text, key));
        if let Some(n) = b.instances.iter().find(|n| **n > 3) {
            return Err(BoundError {
                line: line_of("instances"),
                message: format!("`instances` has {n}; each must be 0 to 3"),
            });
        }
        for c in &b.instance_costs {
            parse_instance(c).map_err(|m| BoundError {
                line: line_of("instance_costs"),
                message: format!("`instance_costs`: {m}"),
            })?;
        }
        let cat = Catalogue::builtin();
        for n in b.catalogue.iter().chain(b.reactions.iter().flatten()) {
            let Some(id) = cat.id(n) else {
                let key = if b.catalogue.contains(n) {
                    "catalogue"
                } else {
                    "reactions"
                };
                return Err(BoundError {
                    line: line_of(key),
                    message: format!("no card named `{n}` in model/cards.toml"),
                });
            };
            // An item is played from hand: a spell or a unit (the `costs` preset plays units);
            // the opponent's reactions are spells.
            let kind = cat.cards[id as usize].kind;
            let (key, allowed, what) = if b.catalogue.contains(n) {
                (
                    "catalogue",
                    matches!(kind, CardKind::Spell | CardKind::Unit),
                    "a spell or a unit",
                )
            } else {
                ("reactions", kind == CardKind::Spell, "a spell")
            };
            if !allowed {
                return Err(BoundError {
                    line: line_of(key),
                    message: format!("`{n}` is a {kind:?}; `{key}` takes {what}"),
                });
            }
        }
        // What `deck_top` names is looked up as the scenarios look it up (`build::card_id`),
        // so a name refused there is refused here, at its line, before any scenario is built.
        for n in &b.deck_top {
            let kind = card_id(&cat.cards, n).map(|id| cat.cards[id as usize].kind);
            let message = match kind {
                Err(_) => format!("`deck_top`: no card named `{n}` in model/cards.toml"),
                Ok(CardKind::Spell | CardKind::Unit | CardKind::Gear) => continue,
                Ok(k) => format!(
                    "`deck_top`: `{n}` is a {k:?}: a main deck holds spells, units and gear"
                ),
            };
            return Err(BoundError {
                line: line_of("deck_top"),
                message,
            });
        }
        b.turn
            .validate(|field| part.unwrap_or_else(|| line_of_field(text, "turn", field)))?;
        if b.boards.is_empty()
            || b.extras.is_empty()
            || b.resources.is_empty()
            || b.reactions.is_empty()
        {
            return Err(BoundError {
                line: part.unwrap_or(1),
                message: "`boards`, `extras`, `resources` and `reactions` each need at least one entry ([] is a reaction list with none)".into(),
            });
        }
        let also = line_of_key(text, "also");
        for a in &b.also {
            // Each part names its own header's line (the second part's error used to name the
            // first's); a part written inline (`also = [{...}]`) has none: the `also` key's.
            let at = headers.next().unwrap_or(also);
            a.validate(text, Some(at), headers)?;
        }
        Ok(())
    }

    /// The most scenarios a bound may make: past it a bound is refused before any scenario is
    /// built (each takes memory, and the search's per-scenario records are indexed by u32).
    pub const MAX_SCENARIOS: u64 = 1_000_000;

    /// How many scenarios the bound makes, computed without building them (checked
    /// arithmetic); an error naming the count if it is over [`Bound::MAX_SCENARIOS`].
    pub fn scenario_count(&self) -> Result<u64, String> {
        let too_many = || {
            format!(
                "the bound makes more than 2^64 scenarios; at most {} are allowed",
                Bound::MAX_SCENARIOS
            )
        };
        let n = self.instance_costs.len() as u64;
        let mut items = 0u64;
        for &k in &self.instances {
            // Multisets of size k over n kinds: C(n + k - 1, k), k <= 3.
            let mut combos = 1u64;
            for i in 0..u64::from(k) {
                combos = combos.checked_mul(n + i).ok_or_else(too_many)? / (i + 1);
            }
            items = combos
                .checked_mul(self.bodies.len() as u64)
                .and_then(|c| items.checked_add(c))
                .ok_or_else(too_many)?;
        }
        items = items
            .checked_add(self.catalogue.len() as u64 + u64::from(self.abilities))
            .ok_or_else(too_many)?;
        let count = [
            self.boards.len(),
            self.extras.len(),
            self.resources.len(),
            self.reactions.len(),
        ]
        .iter()
        .try_fold(items, |acc, &f| acc.checked_mul(f as u64))
        .and_then(|c| c.checked_mul(self.turn.multiplier()?))
        .ok_or_else(too_many)?;
        let mut count = count;
        for a in &self.also {
            count = count
                .checked_add(a.scenario_count()?)
                .ok_or_else(too_many)?;
        }
        if count > Bound::MAX_SCENARIOS {
            return Err(format!(
                "the bound makes {count} scenarios ({items} items x {} boards x {} extras x {} resources x {} reactions x {} hands, plus its `also` parts); at most {} are allowed",
                self.boards.len(),
                self.extras.len(),
                self.resources.len(),
                self.reactions.len(),
                self.turn.multiplier().unwrap_or(u64::MAX),
                Bound::MAX_SCENARIOS
            ));
        }
        Ok(count)
    }

    /// Each (opponent's hand, your hand besides the item): each `reactions` list with each hand
    /// drawn for the opponent, and each hand drawn for you.
    fn hands(&self) -> Vec<(Vec<String>, Vec<String>)> {
        let mut out = vec![];
        for r in &self.reactions {
            for o in self.turn.opponent.hands() {
                for y in self.turn.yours.hands() {
                    out.push(([r.clone(), o.clone()].concat(), y));
                }
            }
        }
        out
    }

    /// The line of the list that multiplies the scenario count most, for an error.
    fn largest_key_line(&self, text: &str) -> usize {
        let keys = [
            ("instance_costs", self.instance_costs.len()),
            ("boards", self.boards.len()),
            ("extras", self.extras.len()),
            ("resources", self.resources.len()),
            ("reactions", self.reactions.len()),
            ("catalogue", self.catalogue.len()),
        ];
        let key = keys
            .iter()
            .max_by_key(|(_, n)| *n)
            .map_or("boards", |k| k.0);
        line_of_key(text, key)
    }

    /// The items the bound generates (each instance count, combination of instance costs and
    /// body), their definitions added to `cards` unless an equal one is there already.
    fn generated_items(
        &self,
        cards: &mut Vec<CardDef>,
    ) -> Result<Vec<(String, model::CardId)>, String> {
        let mut items: Vec<(String, model::CardId)> = vec![];
        let costs: Vec<RepeatCost> = self
            .instance_costs
            .iter()
            .map(|c| parse_instance(c))
            .collect::<Result<_, _>>()?;
        for &k in &self.instances {
            for combo in multisets(costs.len(), k as usize) {
                for &body in &self.bodies {
                    let repeat: Vec<RepeatCost> = combo.iter().map(|i| costs[*i]).collect();
                    let costs: Vec<&str> = combo
                        .iter()
                        .map(|i| self.instance_costs[*i].as_str())
                        .collect();
                    let name = words::generated_name(body, &costs);
                    // An `also` part generating the same item uses the same definition; a
                    // part with another printed cost makes a definition of its own.
                    let cost = Cost::energy(self.item_cost);
                    if let Some(i) = cards
                        .iter()
                        .position(|c| c.synthetic && c.name == name && c.cost == cost)
                    {
                        items.push((name, i as model::CardId));
                        continue;
                    }
                    let (modes, distinct_modes) = body.instructions();
                    cards.push(CardDef {
                        name: name.clone(),
                        code: String::new(),
                        kind: CardKind::Spell,
                        domains: vec![Domain::Mind],
                        cost,
                        timing: Timing::Action,
                        repeat,
                        discount: None,
                        optional: false,
                        as_you_play: vec![],
                        modes,
                        distinct_modes,
                        might: 0,
                        abilities: vec![],
                        tags: vec![],
                        synthetic: true,
                        source: format!("generated by bound `{}`", self.name),
                        printed: Default::default(),
                        optional_costs: vec![],
                        additional_costs: vec![],
                    });
                    items.push((name, (cards.len() - 1) as model::CardId));
                }
            }
        }
        Ok(items)
    }

    /// The generated item definitions (to add to the catalogue) and every scenario.
    pub fn scenarios(&self, cards: &mut Vec<CardDef>) -> Result<Vec<Scenario>, String> {
        self.scenario_count()?;
        let mut items = self.generated_items(cards)?;
        let find = |cards: &Vec<CardDef>, n: &str| {
            cards
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(n))
                .map(|i| i as model::CardId)
                .ok_or_else(|| format!("no card `{n}`"))
        };
        for n in &self.catalogue {
            items.push((n.clone(), find(cards, n)?));
        }
        let mut out = vec![];
        let plays: Vec<(String, Option<model::CardId>)> = items
            .into_iter()
            .map(|(n, id)| (n, Some(id)))
            .chain(
                self.abilities
                    .then(|| ("Vendetta Duelist's attack ability".to_string(), None)),
            )
            .collect();
        for (item_name, item) in &plays {
            for &board in &self.boards {
                for extra in &self.extras {
                    for &res in &self.resources {
                        for (hand, yours) in self.hands() {
                            let mut setup = build(cards, *item, board, extra, res, &hand)?;
                            for n in &self.deck_top {
                                setup.players[0].deck_top.push(card_id(cards, n)?);
                            }
                            for n in &yours {
                                setup.players[0].hand.push(card_id(cards, n)?);
                            }
                            setup.turn = self.turn.setup();
                            let mut opp = if hand.is_empty() {
                                "no reaction".to_string()
                            } else {
                                hand.join(" + ")
                            };
                            let item_name = if self.turn.is_single() {
                                item_name.clone()
                            } else {
                                opp = format!("{opp} | {} plays", self.turn.plays);
                                format!("{item_name} + {}", HandDraw::name(&yours))
                            };
                            let yours: Vec<String> = extra.iter().map(words::word).collect();
                            let yours = match yours.is_empty() {
                                true => "no board card".to_string(),
                                false => yours.join(" + "),
                            };
                            let (board, res) = (words::word(&board), words::word(&res));
                            out.push(Scenario {
                                name: format!("{item_name} | board {board} | {yours} | {res} | opponent: {opp}"),
                                setup,
                                origin: None,
                            });
                        }
                    }
                }
            }
        }
        for a in &self.also {
            out.extend(a.scenarios(cards)?);
        }
        // Numbered for now in the order made; a system renumbers the playable ones.
        for (i, s) in out.iter_mut().enumerate() {
            s.origin = Some(Origin {
                bound: self.name.clone(),
                number: i + 1,
            });
        }
        Ok(out)
    }
}

/// The 1-based line of the field `path` (e.g. `["yours", "up_to"]`) of the top-level table
/// `table`, from the parser's spans: the field's own line, else the nearest enclosing table's
/// that is written, else the table's header (1 when the text does not parse or lacks it).
fn line_of_field(text: &str, table: &str, path: &[&str]) -> usize {
    use toml::de::{DeTable, DeValue};
    fn find<'a, 'i>(t: &'a DeTable<'i>, key: &str) -> Option<(usize, &'a DeValue<'i>)> {
        t.iter()
            .find(|(k, _)| k.get_ref().as_ref() == key)
            .map(|(k, v)| (k.span().start, v.get_ref()))
    }
    let Ok(doc) = DeTable::parse(text) else {
        return line_of_key(text, table);
    };
    let Some((mut at, mut value)) = find(doc.get_ref(), table) else {
        return line_of_key(text, table);
    };
    for key in path {
        let DeValue::Table(t) = value else {
            break;
        };
        let Some(next) = find(t, key) else {
            break;
        };
        (at, value) = next;
    }
    line_at(text, at)
}

/// The 1-based lines of the `[[also]]` and `[[also.also...]]` table headers, in document order.
fn also_headers(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            l.trim()
                .strip_prefix("[[")
                .and_then(|t| t.split(']').next())
                .is_some_and(|name| name.split('.').all(|k| k.trim() == "also"))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

fn parse_instance(c: &str) -> Result<RepeatCost, String> {
    let t = c.trim();
    if let Some(n) = t.strip_prefix("Discard ") {
        return n
            .parse()
            .map(RepeatCost::Discard)
            .map_err(|_| format!("`{t}`: expected `Discard N`"));
    }
    Cost::parse(t, &[Domain::Mind]).map(RepeatCost::Pay)
}

/// Every multiset of size k over n kinds, as non-decreasing index lists.
fn multisets(n: usize, k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = vec![];
    for rest in multisets(n, k - 1) {
        let from = rest.last().copied().unwrap_or(0);
        for i in from..n {
            let mut v = rest.clone();
            v.push(i);
            out.push(v);
        }
    }
    out
}

mod build;
pub mod pool;
mod presets;
pub use presets::{Preset, PRESET_TABLE};
mod resources;
mod turn;
pub use turn::{HandDraw, TurnBound};
#[cfg(test)]
mod tests;
mod words;
