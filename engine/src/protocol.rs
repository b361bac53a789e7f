//! The messages of the engine protocol `rbcheck-engine/2` (see `corpus/PROTOCOL.md`): JSON
//! objects, one per line. Building a request from a case file, and a case back from a request,
//! is [`convert`]; what version 2 adds to version 1 (which rbcheck still speaks), [`v2`].

pub mod convert;
pub mod runes;
pub mod v2;

use rbcheck_case::ast::{Line, PlayStmt};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub use convert::{card_json, case_features, case_from_request, location_name, request};
pub use rbcheck_case::wire::{parse_location, parse_player};
pub use v2::{domain_table, EventObs, GrantsObs, RepeatShape};

/// The protocol version rbcheck speaks first, and `rbcheck serve` answers in.
pub const PROTOCOL: &str = "rbcheck-engine/2";

/// The first version, still spoken with an engine that answers in it (with its feature set).
pub const PROTOCOL_V1: &str = "rbcheck-engine/1";

/// Every version rbcheck speaks, newest first (the client hello's `accepts`).
pub const VERSIONS: [&str; 2] = [PROTOCOL, PROTOCOL_V1];

/// The features a case can use; an engine names the ones it supports in its hello.
pub const FEATURES: [&str; 18] = [
    "spells",
    "abilities",
    "counters",
    "new-choices",
    "deflect",
    "tokens",
    "discounts",
    "triggers",
    "defines",
    "grants",
    "moves",
    "as-you-play",
    // ---- the main deck, demands, counters, combat ----
    "deck-cards",
    "demands",
    "chosen-counters",
    "combat",
    // ---- runes ----
    "runes",
    // ---- a turn of several plays ----
    "turn",
];

/// Features protocol v1 cannot carry: with a v1 engine a case that uses one is always skipped as
/// unsupported, whatever its hello claims ("deck-cards": the v1 board has no field for the main
/// deck's named cards, which a v1 request would silently drop; v2 has `deck_top`; "runes": nor
/// for runes, which v2 carries as `players.P.runes`; "turn": nor for several plays, which v2
/// carries as `board.turn` and the `close` / `end-turn` plays).
pub const NOT_IN_V1: [&str; 3] = ["deck-cards", "runes", "turn"];

/// The rules presets a case can name.
pub const PRESETS: [&str; 4] = ["v1.2", "v1.3", "rup4", "guide"];

/// rbcheck's first line: `{"type":"hello","protocol":"rbcheck-engine/2","accepts":[...],...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientHello {
    /// Always `hello`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The protocol version rbcheck prefers.
    pub protocol: String,
    /// Every version rbcheck speaks (v2): the engine answers in one of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub accepts: Vec<String>,
    /// Who is asking.
    #[serde(default)]
    pub client: String,
    /// The domains' letters in costs and their names (v2), for engines that name domains.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub domains: BTreeMap<String, String>,
}

impl ClientHello {
    /// rbcheck's hello.
    pub fn new() -> ClientHello {
        ClientHello {
            kind: "hello".into(),
            protocol: PROTOCOL.into(),
            accepts: VERSIONS.iter().map(|v| v.to_string()).collect(),
            client: format!("rbcheck {}", env!("CARGO_PKG_VERSION")),
            domains: domain_table(),
        }
    }

    /// The hello of a client that speaks only v1, as rbcheck's was.
    pub fn v1() -> ClientHello {
        ClientHello {
            protocol: PROTOCOL_V1.into(),
            accepts: vec![],
            domains: BTreeMap::new(),
            ..ClientHello::new()
        }
    }

    /// True if an engine may answer this hello in `version`.
    pub fn accepts_version(&self, version: &str) -> bool {
        self.protocol == version || self.accepts.iter().any(|a| a == version)
    }

    /// The version to answer this hello in: v2 if the client accepts it, v1 if it speaks only
    /// v1, `None` for neither.
    pub fn answer_version(&self) -> Option<&'static str> {
        VERSIONS.into_iter().find(|v| self.accepts_version(v))
    }
}

impl Default for ClientHello {
    fn default() -> Self {
        ClientHello::new()
    }
}

/// The engine's answer to the hello: who it is and what it supports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// Always `hello`.
    #[serde(rename = "type", default = "hello_kind")]
    pub kind: String,
    /// The protocol version the engine speaks: one of [`VERSIONS`].
    pub protocol: String,
    /// The engine's name.
    pub engine: String,
    /// The engine's version.
    #[serde(default)]
    pub version: String,
    /// The rules versions it implements (`rup4`, `v1.3`, `v1.2`, `guide`; `custom` for
    /// rulebook files).
    #[serde(default)]
    pub rules: Vec<String>,
    /// The features it implements (see [`FEATURES`]).
    #[serde(default)]
    pub features: Vec<String>,
    /// How it implements [Repeat] (v2; `instances` when left out).
    #[serde(default)]
    pub repeat: RepeatShape,
}

fn hello_kind() -> String {
    "hello".into()
}

impl Hello {
    /// A one-line description: `name version`.
    pub fn describe(&self) -> String {
        if self.version.is_empty() {
            self.engine.clone()
        } else {
            format!("{} {}", self.engine, self.version)
        }
    }

    /// True if the engine implements these rules (a preset name, or `custom`).
    pub fn supports_rules(&self, rules: &str) -> bool {
        let key = if PRESETS.contains(&rules) {
            rules
        } else {
            "custom"
        };
        self.rules.iter().any(|r| r.eq_ignore_ascii_case(key))
    }

    /// True if the engine implements the feature (and its protocol version can carry it).
    pub fn supports(&self, feature: &str) -> bool {
        !(self.is_v1() && NOT_IN_V1.contains(&feature))
            && self
                .features
                .iter()
                .any(|f| f.eq_ignore_ascii_case(feature))
    }
}

/// One case to run: its rules, cards, board and plays, and its text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseRequest {
    /// Always `case`.
    #[serde(rename = "type", default = "case_kind")]
    pub kind: String,
    /// The request's id; the reply carries it back.
    pub id: u64,
    /// A preset (`rup4`, `v1.3`, `v1.2`, `guide`) or, for a rulebook file, the path the case
    /// names.
    pub rules: String,
    /// For a rulebook file: its fields (see `rbcheck rules --list`), with `base`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rulebook: Option<Value>,
    /// The features the case uses.
    #[serde(default)]
    pub features: Vec<String>,
    /// Every card the case names, in the catalogue's vocabulary (the fields of
    /// `model/cards.toml`), with the abilities they trigger.
    #[serde(default)]
    pub cards: Vec<Value>,
    /// The starting position.
    pub board: Board,
    /// The decisions, in order.
    pub plays: Vec<Play>,
    /// The case file itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_text: Option<String>,
}

fn case_kind() -> String {
    "case".into()
}

/// The starting position of a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Board {
    /// Units on the board.
    #[serde(default)]
    pub units: Vec<UnitJson>,
    /// Gear on the board.
    #[serde(default)]
    pub gear: Vec<GearJson>,
    /// Every battlefield, in order.
    #[serde(default)]
    pub battlefields: Vec<BattlefieldJson>,
    /// `you` and `opponent`.
    pub players: Players,
    /// A showdown is in progress.
    #[serde(default)]
    pub showdown: bool,
    /// The battlefield (1-based) the showdown is at, when the case says (feature `combat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub showdown_battlefield: Option<u8>,
    /// The label of the unit whose "when I attack" ability triggers as the case starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<String>,
    /// A turn of several plays (feature `turn`, v2): absent for one play and no end of turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnJson>,
}

/// How much of the turn a case plays: `{"plays": N, "end_turn": bool}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnJson {
    /// At most this many plays by the turn player from the open state (1..=8).
    pub plays: u8,
    /// The case may end the turn (334.1).
    #[serde(default)]
    pub end_turn: bool,
}

/// A unit of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitJson {
    /// Its label.
    pub label: String,
    /// Its card.
    pub card: String,
    /// `you` or `opponent`.
    pub controller: String,
    /// `base you`, `base opponent` or `battlefield N`.
    pub location: String,
    /// Damage marked.
    #[serde(default)]
    pub damage: u8,
    /// `you` or `opponent` when the owner is not the controller (feature `combat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Exhausted, stunned, attacking/defending, [Assault] granted (feature `combat`).
    #[serde(default, skip_serializing_if = "is_default_status")]
    pub status: model::state::UnitStatus,
}

fn is_default_status(s: &model::state::UnitStatus) -> bool {
    *s == model::state::UnitStatus::default()
}

/// A gear of the board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GearJson {
    /// Its label.
    pub label: String,
    /// Its card.
    pub card: String,
    /// `you` or `opponent`.
    pub controller: String,
}

/// A battlefield.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattlefieldJson {
    /// 1-based number.
    pub n: u8,
    /// `you`, `opponent` or null.
    #[serde(default)]
    pub controller: Option<String>,
    /// Its card, or null.
    #[serde(default)]
    pub card: Option<String>,
}

/// Both players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Players {
    /// The turn player, who plays first.
    pub you: PlayerJson,
    /// The other player.
    pub opponent: PlayerJson,
}

/// One player's resources and zones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerJson {
    /// The rune pool, e.g. `[8][B][B]`.
    pub pool: String,
    /// Named cards in hand.
    #[serde(default)]
    pub hand: Vec<String>,
    /// Other cards in hand.
    #[serde(default)]
    pub other_cards: u8,
    /// Cards in the main deck.
    pub deck: u8,
    /// Temporal Portal was activated.
    #[serde(default)]
    pub portal: bool,
    /// Within 3 points of the Victory Score.
    #[serde(default)]
    pub near_victory: bool,
    /// The Academy's hold triggered: the next spell gets [Repeat] equal to its base cost.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub academy: bool,
    /// Named cards on top of the main deck, top first, above the `deck` others (v2, feature
    /// `deck-cards`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deck_top: Vec<String>,
    /// The player's runes (feature `runes`); absent for a pool-only player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runes: Option<runes::RunesJson>,
}

impl Default for PlayerJson {
    fn default() -> Self {
        PlayerJson {
            pool: "[0]".into(),
            hand: vec![],
            other_cards: 0,
            deck: 10,
            portal: false,
            near_victory: false,
            academy: false,
            deck_top: vec![],
            runes: None,
        }
    }
}

/// One play statement with its line in the case file: `line` beside the statement's fields
/// (the case AST's own serde form, tagged by `do`).
pub type Play = Line<PlayStmt>;

/// What an engine observed: every field optional; a field left out is not compared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Observation {
    /// Every statement was allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<bool>,
    /// The first statement not allowed (when `legal` is false).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub illegal: Option<IllegalObs>,
    /// Chain items, by number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<ItemObs>>,
    /// How many times each triggered ability triggered (absent names: 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triggered: Option<BTreeMap<String, u32>>,
    /// Units by label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<BTreeMap<String, UnitObs>>,
    /// Gear by label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gear: Option<BTreeMap<String, GearObs>>,
    /// `you` and `opponent`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<BTreeMap<String, PlayerObs>>,
    /// v2: the events that matter, in the order they happened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<EventObs>>,
    /// The model's only, never sent: how many items went on the chain, tokens included (which
    /// `items` leaves out), so that an engine naming an item beyond them is a difference.
    #[serde(skip)]
    pub chain_items: Option<u32>,
}

/// Where and why the case stopped being legal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct IllegalObs {
    /// The statement's line in `case_text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The statement's 0-based index in `plays`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play: Option<usize>,
    /// The rule that forbids it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Why, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// A chain item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ItemObs {
    /// Its number (1 = the first item put on the chain).
    pub item: u32,
    /// `false`, or why the play was undone: `no-legal-choice`, `cannot-pay` (or `true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancelled: Option<Cancelled>,
    /// The Repeat instances paid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat_paid: Option<Vec<u32>>,
    /// What its controller paid in all, e.g. `[8][B][B]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paid: Option<String>,
    /// Executions run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executions: Option<u32>,
    /// Times it was played (0 if countered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play_events: Option<u32>,
    /// It was countered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub countered: Option<bool>,
    /// Every instruction of every execution that ran, performed or ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<Vec<InstructionObs>>,
    /// v2, a card with modes: the mode (1-based) each execution ran, in the order run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modes: Option<Vec<u32>>,
    /// v2, a unit played from hand that entered the board: where, and whether ready (359.2,
    /// 805). Absent for any other item; an engine stating it for an item the rules did not
    /// enter is a difference.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entered: Option<EnteredObs>,
}

/// How a unit played from hand entered the board (359.2, 805): result field `items[].entered`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnteredObs {
    /// `base you`, `base opponent` or `battlefield N`, as `units[].location`.
    pub location: String,
    /// Ready ([Accelerate] paid, 805) rather than exhausted (359.2).
    pub ready: bool,
}

/// Whether a play was undone (358.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cancelled {
    /// `false` (not undone) or `true` (undone, reason not given).
    Flag(bool),
    /// Undone, with the reason.
    Why(String),
}

impl Cancelled {
    /// True if undone.
    pub fn is_cancelled(&self) -> bool {
        !matches!(self, Cancelled::Flag(false))
    }

    /// The reason, if given.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Cancelled::Why(w) => Some(w),
            _ => None,
        }
    }
}

/// One instruction of one execution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct InstructionObs {
    /// 1-based execution.
    pub exec: u32,
    /// 1-based instruction.
    pub instruction: u32,
    /// Performed (true) or ignored (false).
    pub performed: bool,
    /// Why it was ignored: `targets-illegal`, `linked-not-executed`, `source-gone`, `impossible`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A unit at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct UnitObs {
    /// `board` or `trash`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// Damage marked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<u32>,
    /// `base you`, `base opponent` or `battlefield N`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// v2, a unit on the board: its current Might (printed, given this turn, [Assault] while
    /// attacking).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub might: Option<u32>,
    /// v2, a unit on the board: exhausted, stunned, attacking/defending, [Assault] granted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<model::state::UnitStatus>,
}

/// A gear at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct GearObs {
    /// `board` or `trash`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// v2, a gear on the board: exhausted (it paid an "[E]" cost, 414) rather than ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exhausted: Option<bool>,
}

/// A player at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct PlayerObs {
    /// The rune pool.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<String>,
    /// All cards in hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand_size: Option<u32>,
    /// v2: the named cards in hand (the case's named cards and those drawn or returned by name;
    /// anonymous cards are only in `hand_size`), in the order they came into the hand. Compared
    /// as a multiset: the rules give a hand no order (359.3.e).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// Named cards in the trash, in the order they arrived.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trash: Option<Vec<String>>,
    /// Cards in the main deck.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deck: Option<u32>,
    /// Cards finalized this turn (419.4.b).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finalized: Option<u32>,
    /// Unit tokens on the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u32>,
    /// v2: the current Might of each unit token the player controls on the board, lowest
    /// first (350.2: a token is played with the Might its instruction names).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_mights: Option<Vec<u32>>,
    /// v2: the grants still available at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grants: Option<GrantsObs>,
    /// v2, feature `runes`: the player's runes at the end (ready, exhausted, rune deck).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runes: Option<runes::RunesJson>,
}

/// The `result` message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultMsg {
    /// Always `result`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The request's id.
    pub id: u64,
    /// What was observed.
    #[serde(flatten)]
    pub obs: Observation,
}

/// What an engine answers to one case.
// One reply per case, moved and dropped, never stored in bulk: boxing the result buys nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// It ran the case: what it observed.
    Result(Observation),
    /// It does not implement something the case uses.
    Unsupported {
        /// The feature (one of [`FEATURES`], `rules`, or the engine's own word).
        feature: String,
        /// Details.
        detail: String,
    },
    /// It failed on the case and says so.
    Error(String),
    /// It crashed, hung, printed garbage or spoke another protocol version.
    Fault(Fault),
}

/// An engine process misbehaving.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// The process exited.
    Crash {
        /// Its exit status.
        status: String,
        /// The end of its standard error.
        stderr: String,
    },
    /// No answer within the time limit.
    Hang {
        /// The limit, in seconds.
        seconds: f64,
    },
    /// A line that is not a protocol message, or not the expected one.
    Garbage {
        /// The line (truncated).
        line: String,
        /// What was wrong with it.
        why: String,
    },
    /// The hello named a protocol version rbcheck does not speak.
    WrongVersion {
        /// What it said.
        got: String,
    },
    /// The engine could not be started at all.
    Spawn(String),
}

impl Fault {
    /// A short name for grouping: `crash`, `hang`, `garbage`, `wrong-version`, `spawn`.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Crash { .. } => "crash",
            Fault::Hang { .. } => "hang",
            Fault::Garbage { .. } => "garbage",
            Fault::WrongVersion { .. } => "wrong-version",
            Fault::Spawn(_) => "spawn",
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crash { status, stderr } if stderr.is_empty() => {
                write!(f, "the engine crashed ({status})")
            }
            Fault::Crash { status, stderr } => write!(
                f,
                "the engine crashed ({status}); its stderr ends: {}",
                stderr.trim().replace('\n', " | ")
            ),
            Fault::Hang { seconds } => write!(f, "the engine did not answer within {seconds} s"),
            Fault::Garbage { line, why } => write!(f, "the engine printed `{line}`: {why}"),
            Fault::WrongVersion { got } => write!(
                f,
                "the engine speaks protocol `{got}`, rbcheck speaks `{PROTOCOL}` and `{PROTOCOL_V1}`"
            ),
            Fault::Spawn(m) => write!(f, "the engine cannot be started: {m}"),
        }
    }
}

/// Reads an engine's first line as its hello to `client`: a `hello` of a protocol version
/// both sides speak, or the fault that names what is wrong with it.
pub fn parse_hello(line: &str, client: &ClientHello) -> Result<Hello, Fault> {
    let v: Value = serde_json::from_str(line).map_err(|e| Fault::Garbage {
        line: short(line),
        why: format!("expected the hello, not JSON ({e})"),
    })?;
    if v.get("type").and_then(|t| t.as_str()) != Some("hello") {
        return Err(Fault::Garbage {
            line: short(line),
            why: "expected the engine's hello".into(),
        });
    }
    let proto = v
        .get("protocol")
        .and_then(|p| p.as_str())
        .unwrap_or("")
        .to_string();
    if !VERSIONS.contains(&proto.as_str()) || !client.accepts_version(&proto) {
        return Err(Fault::WrongVersion { got: proto });
    }
    serde_json::from_value::<Hello>(v).map_err(|e| Fault::Garbage {
        line: short(line),
        why: format!("a bad hello: {e}"),
    })
}

/// A reply as one JSON line.
pub fn reply_line(id: u64, reply: &Reply) -> String {
    let q = |s: &str| Value::String(s.to_string()).to_string();
    match reply {
        Reply::Result(obs) => serde_json::to_string(&ResultMsg {
            kind: "result".into(),
            id,
            obs: obs.clone(),
        })
        .unwrap_or_default(),
        Reply::Unsupported { feature, detail } => format!(
            "{{\"type\":\"unsupported\",\"id\":{id},\"feature\":{},\"detail\":{}}}",
            q(feature),
            q(detail)
        ),
        Reply::Error(m) | Reply::Fault(Fault::Spawn(m)) => {
            format!("{{\"type\":\"error\",\"id\":{id},\"message\":{}}}", q(m))
        }
        Reply::Fault(f) => format!(
            "{{\"type\":\"error\",\"id\":{id},\"message\":{}}}",
            q(&f.to_string())
        ),
    }
}

/// Reads an engine's line as the reply to request `id`.
pub fn parse_reply(line: &str, id: u64) -> Result<Reply, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
    let Some(o) = v.as_object() else {
        return Err("not a JSON object".into());
    };
    let kind = o
        .get("type")
        .and_then(|t| t.as_str())
        .ok_or("no `type` field")?;
    let got = o.get("id").and_then(|i| i.as_u64());
    if got != Some(id) {
        return Err(format!(
            "a `{kind}` for id {}, expected id {id}",
            got.map(|g| g.to_string()).unwrap_or_else(|| "none".into())
        ));
    }
    match kind {
        "result" => {
            let r: ResultMsg =
                serde_json::from_value(v.clone()).map_err(|e| format!("a bad `result`: {e}"))?;
            Ok(Reply::Result(r.obs))
        }
        "unsupported" => Ok(Reply::Unsupported {
            feature: o
                .get("feature")
                .and_then(|f| f.as_str())
                .unwrap_or("unnamed")
                .to_string(),
            detail: o
                .get("detail")
                .and_then(|f| f.as_str())
                .unwrap_or("")
                .to_string(),
        }),
        "error" => Ok(Reply::Error(
            o.get("message")
                .and_then(|f| f.as_str())
                .unwrap_or("(no message)")
                .to_string(),
        )),
        k => Err(format!(
            "unknown message type `{k}` (expected result, unsupported or error)"
        )),
    }
}

/// An engine's line cut to 160 characters, for messages.
pub(crate) fn short(l: &str) -> String {
    let mut s: String = l.chars().take(160).collect();
    if s.len() < l.len() {
        s.push('…');
    }
    s
}
