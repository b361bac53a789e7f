//! The messages of the engine protocol `rbcheck-engine/1` (see `corpus/PROTOCOL.md`): JSON
//! objects, one per line, and their conversion from and to case files.

use crate::case::ast::*;
use crate::case::from_trace::card_table;
use model::card::{Ability, CardDef, CardKind};
use model::catalogue::Catalogue;
use model::cost::{Cost, Domain};
use model::game::Game;
use model::rulebook::Rulebook;
use model::state::{Location, Player};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The protocol version both sides name in the handshake.
pub const PROTOCOL: &str = "rbcheck-engine/1";

/// The features a case can use; an engine names the ones it supports in its hello.
pub const FEATURES: [&str; 12] = [
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
];

/// The rules presets a case can name.
pub const PRESETS: [&str; 4] = ["v1.2", "v1.3", "rup4", "guide"];

/// rbcheck's first line: `{"type":"hello","protocol":"rbcheck-engine/1","client":"rbcheck 0.1.0"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientHello {
    /// Always `hello`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The protocol version rbcheck speaks.
    pub protocol: String,
    /// Who is asking.
    #[serde(default)]
    pub client: String,
}

impl ClientHello {
    /// rbcheck's hello.
    pub fn new() -> ClientHello {
        ClientHello {
            kind: "hello".into(),
            protocol: PROTOCOL.into(),
            client: format!("rbcheck {}", env!("CARGO_PKG_VERSION")),
        }
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
    /// The protocol version the engine speaks; must be [`PROTOCOL`].
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

    /// True if the engine implements the feature.
    pub fn supports(&self, feature: &str) -> bool {
        self.features
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
    /// `corpus/cards.toml`), with the abilities they trigger.
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
    /// The label of the unit whose "when I attack" ability triggers as the case starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<String>,
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
        }
    }
}

/// One play statement with its line in the case file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Play {
    /// The line of the statement in `case_text`.
    #[serde(default)]
    pub line: usize,
    /// The statement.
    #[serde(flatten)]
    pub stmt: PlayJson,
}

/// A play statement, tagged by `do`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum PlayJson {
    /// `PLAYER play "Card"`
    Play {
        /// `you` or `opponent`.
        player: String,
        /// The card's name.
        card: String,
    },
    /// `PLAYER pass`
    Pass {
        /// `you` or `opponent`.
        player: String,
    },
    /// `may perform` / `may decline`
    May {
        /// Perform.
        perform: bool,
    },
    /// `repeat N pay|skip`
    Repeat {
        /// 1-based instance.
        instance: u8,
        /// Pay it.
        pay: bool,
    },
    /// `exec K mode M`
    Mode {
        /// 1-based execution.
        exec: u8,
        /// 1-based mode.
        mode: u8,
    },
    /// `exec K target I OBJ`
    Target {
        /// 1-based execution.
        exec: u8,
        /// 1-based instruction.
        instruction: u8,
        /// A label, `token-N` or `item N`.
        object: String,
    },
    /// `exec K no-more-targets I`
    NoMoreTargets {
        /// 1-based execution.
        exec: u8,
        /// 1-based instruction.
        instruction: u8,
    },
    /// `exec K destination I LOCATION`
    Destination {
        /// 1-based execution.
        exec: u8,
        /// 1-based instruction.
        instruction: u8,
        /// `base you`, `base opponent` or `battlefield N`.
        location: String,
    },
    /// `pay [any D...]`
    Pay {
        /// The domains paying each [A], as letters.
        #[serde(default)]
        any: Vec<String>,
    },
    /// `new-choices item N`
    NewChoices {
        /// The item.
        item: u8,
    },
    /// `new-choices item N decline`
    DeclineNewChoices {
        /// The item.
        item: u8,
    },
}

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
}

/// A gear at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct GearObs {
    /// `board` or `trash`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
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
    /// The hello named another protocol version.
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
                "the engine speaks protocol `{got}`, rbcheck speaks `{PROTOCOL}`"
            ),
            Fault::Spawn(m) => write!(f, "the engine cannot be started: {m}"),
        }
    }
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

// ---- Case file -> request ----

fn player_name(p: Player) -> String {
    if p == Player::YOU {
        "you".into()
    } else {
        "opponent".into()
    }
}

/// A location as the case format writes it.
pub fn location_name(l: Location) -> String {
    match l {
        Location::Base(p) => format!("base {}", player_name(p)),
        Location::Battlefield(n) => format!("battlefield {}", n + 1),
    }
}

/// Reads `you` / `opponent`.
pub fn parse_player(s: &str) -> Option<Player> {
    match s {
        "you" => Some(Player::YOU),
        "opponent" => Some(Player::OPP),
        _ => None,
    }
}

/// Reads `base you`, `base opponent`, `battlefield N`.
pub fn parse_location(s: &str) -> Option<Location> {
    let w: Vec<&str> = s.split_whitespace().collect();
    match w.as_slice() {
        ["base", p] => parse_player(p).map(Location::Base),
        ["battlefield", n] => n
            .parse::<u8>()
            .ok()
            .filter(|n| *n >= 1)
            .map(|n| Location::Battlefield(n - 1)),
        _ => None,
    }
}

fn obj_name(o: &ObjRef) -> String {
    match o {
        ObjRef::Label(l) => l.clone(),
        ObjRef::Item(n) => format!("item {n}"),
    }
}

/// A play statement as JSON.
pub fn play_json(p: &PlayStmt) -> PlayJson {
    match p {
        PlayStmt::Play(pl, c) => PlayJson::Play {
            player: player_name(*pl),
            card: c.clone(),
        },
        PlayStmt::Pass(pl) => PlayJson::Pass {
            player: player_name(*pl),
        },
        PlayStmt::May(b) => PlayJson::May { perform: *b },
        PlayStmt::Repeat { instance, pay } => PlayJson::Repeat {
            instance: *instance,
            pay: *pay,
        },
        PlayStmt::Mode { exec, mode } => PlayJson::Mode {
            exec: *exec,
            mode: *mode,
        },
        PlayStmt::Target {
            exec,
            instruction,
            obj,
        } => PlayJson::Target {
            exec: *exec,
            instruction: *instruction,
            object: obj_name(obj),
        },
        PlayStmt::NoMoreTargets { exec, instruction } => PlayJson::NoMoreTargets {
            exec: *exec,
            instruction: *instruction,
        },
        PlayStmt::Destination {
            exec,
            instruction,
            to,
        } => PlayJson::Destination {
            exec: *exec,
            instruction: *instruction,
            location: location_name(*to),
        },
        PlayStmt::Pay(any) => PlayJson::Pay {
            any: any.iter().map(|d| d.letter().to_string()).collect(),
        },
        PlayStmt::NewChoices(n) => PlayJson::NewChoices { item: *n },
        PlayStmt::DeclineNewChoices(n) => PlayJson::DeclineNewChoices { item: *n },
    }
}

/// The play statement a JSON play stands for.
pub fn play_stmt(p: &PlayJson) -> Result<PlayStmt, String> {
    let pl = |s: &str| parse_player(s).ok_or_else(|| format!("`{s}`: expected you or opponent"));
    Ok(match p {
        PlayJson::Play { player, card } => PlayStmt::Play(pl(player)?, card.clone()),
        PlayJson::Pass { player } => PlayStmt::Pass(pl(player)?),
        PlayJson::May { perform } => PlayStmt::May(*perform),
        PlayJson::Repeat { instance, pay } => PlayStmt::Repeat {
            instance: *instance,
            pay: *pay,
        },
        PlayJson::Mode { exec, mode } => PlayStmt::Mode {
            exec: *exec,
            mode: *mode,
        },
        PlayJson::Target {
            exec,
            instruction,
            object,
        } => PlayStmt::Target {
            exec: *exec,
            instruction: *instruction,
            obj: match object.strip_prefix("item ") {
                Some(n) => ObjRef::Item(
                    n.trim()
                        .parse()
                        .map_err(|_| format!("`{object}`: expected `item N`"))?,
                ),
                None => ObjRef::Label(object.clone()),
            },
        },
        PlayJson::NoMoreTargets { exec, instruction } => PlayStmt::NoMoreTargets {
            exec: *exec,
            instruction: *instruction,
        },
        PlayJson::Destination {
            exec,
            instruction,
            location,
        } => PlayStmt::Destination {
            exec: *exec,
            instruction: *instruction,
            to: parse_location(location).ok_or_else(|| format!("`{location}`: not a location"))?,
        },
        PlayJson::Pay { any } => PlayStmt::Pay(
            any.iter()
                .map(|d| Domain::parse(d).ok_or_else(|| format!("`{d}`: not a domain")))
                .collect::<Result<_, _>>()?,
        ),
        PlayJson::NewChoices { item } => PlayStmt::NewChoices(*item),
        PlayJson::DeclineNewChoices { item } => PlayStmt::DeclineNewChoices(*item),
    })
}

/// A card definition as a JSON object in the catalogue's vocabulary.
pub fn card_json(game: &Game, c: &CardDef) -> Value {
    let text = format!("card = {}", card_table(game, c));
    toml::from_str::<toml::Table>(&text)
        .ok()
        .and_then(|t| t.get("card").cloned())
        .and_then(|v| serde_json::to_value(v).ok())
        .unwrap_or(Value::Null)
}

/// The features a case uses, judged from its board and the cards it plays.
pub fn case_features(case: &Case, cards: &[CardDef]) -> Vec<String> {
    let by_name = |n: &str| cards.iter().find(|c| c.name.eq_ignore_ascii_case(n));
    let mut f: Vec<&str> = vec![];
    let mut add = |x: &'static str| {
        if !f.contains(&x) {
            f.push(x);
        }
    };
    if !case.defines.is_empty() {
        add("defines");
    }
    let mut played: Vec<&CardDef> = vec![];
    for p in &case.plays {
        match &p.stmt {
            PlayStmt::Play(_, c) => {
                add("spells");
                if let Some(d) = by_name(c) {
                    played.push(d);
                }
            }
            PlayStmt::NewChoices(_) | PlayStmt::DeclineNewChoices(_) => add("new-choices"),
            _ => {}
        }
    }
    let mut board_cards: Vec<&CardDef> = vec![];
    for b in &case.board {
        match &b.stmt {
            BoardStmt::Unit { card, .. } | BoardStmt::Gear { card, .. } => {
                if let Some(d) = by_name(card) {
                    board_cards.push(d);
                }
            }
            BoardStmt::Battlefield { card: Some(c), .. } => {
                if let Some(d) = by_name(c) {
                    board_cards.push(d);
                }
            }
            BoardStmt::Portal(_) => add("grants"),
            BoardStmt::Attack(label) => {
                add("abilities");
                add("triggers");
                for b2 in &case.board {
                    if let BoardStmt::Unit {
                        label: l, card: c, ..
                    } = &b2.stmt
                    {
                        if l == label {
                            if let Some(d) = by_name(c) {
                                for a in &d.abilities {
                                    if let Ability::WhenAttacks(t) = a {
                                        if let Some(td) = cards.get(*t as usize) {
                                            played.push(td);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    for d in &board_cards {
        for a in &d.abilities {
            match a {
                Ability::OptionalCostsLess | Ability::RepeatCostsLess(_) => add("discounts"),
                Ability::SpellsHaveRepeatInShowdown(_) => add("grants"),
                Ability::WhenYouPlayASpell(_) | Ability::WhenChosen(_) => add("triggers"),
                Ability::Deflect(_) => add("deflect"),
                _ => {}
            }
        }
    }
    for d in &played {
        if d.discount.is_some() {
            add("discounts");
        }
        if !d.as_you_play.is_empty() {
            add("as-you-play");
        }
        if d.kind == CardKind::Ability {
            add("abilities");
        }
        for m in &d.modes {
            for i in &m.instructions {
                use model::card::Effect as E;
                match i.effect {
                    E::Counter => add("counters"),
                    E::NewChoices | E::GainControl => add("new-choices"),
                    E::PlayToken(_) => add("tokens"),
                    E::Move(_) => add("moves"),
                    _ => {}
                }
            }
        }
    }
    let mut out: Vec<String> = FEATURES
        .iter()
        .filter(|x| f.contains(x))
        .map(|x| x.to_string())
        .collect();
    out.dedup();
    out
}

/// Builds the request for a case (`dir` is the case's folder, for a rulebook file).
pub fn request(case: &Case, dir: Option<&Path>, id: u64) -> Result<CaseRequest, String> {
    let cards = crate::case::replay::cards(case).map_err(|e| e.to_string())?;
    let rules = Rulebook::named(&case.rules)
        .map(Ok)
        .unwrap_or_else(|| crate::case::replay::rulebook(case, dir).map_err(|e| e.to_string()))?;
    let rulebook = if PRESETS.contains(&case.rules.as_str()) {
        None
    } else {
        let path = dir
            .map(|d| d.join(&case.rules))
            .unwrap_or_else(|| case.rules.clone().into());
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let t: toml::Table =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Some(serde_json::to_value(t).map_err(|e| e.to_string())?)
    };
    let game = Game::new(rules, cards.clone());
    // Every card the case names, and the abilities they trigger.
    let mut names: Vec<String> = vec![];
    fn add_name(names: &mut Vec<String>, n: &str) {
        if !names.iter().any(|x| x.eq_ignore_ascii_case(n)) {
            names.push(n.to_string());
        }
    }
    for d in &case.defines {
        if let Ok(t) = toml::from_str::<toml::Table>(&format!("card = {}", d.stmt)) {
            if let Some(n) = t
                .get("card")
                .and_then(|c| c.get("name"))
                .and_then(|n| n.as_str())
            {
                add_name(&mut names, n);
            }
        }
    }
    let mut board = Board {
        players: Players::default(),
        ..Board::default()
    };
    let mut max_bf = 2u8;
    let mut bfs: BTreeMap<u8, BattlefieldJson> = BTreeMap::new();
    for b in &case.board {
        match &b.stmt {
            BoardStmt::Unit {
                label,
                card,
                controller,
                loc,
                damage,
            } => {
                add_name(&mut names, card);
                if let Location::Battlefield(n) = loc {
                    max_bf = max_bf.max(n + 1);
                }
                board.units.push(UnitJson {
                    label: label.clone(),
                    card: card.clone(),
                    controller: player_name(*controller),
                    location: location_name(*loc),
                    damage: *damage,
                });
            }
            BoardStmt::Gear {
                label,
                card,
                controller,
            } => {
                add_name(&mut names, card);
                board.gear.push(GearJson {
                    label: label.clone(),
                    card: card.clone(),
                    controller: player_name(*controller),
                });
            }
            BoardStmt::Battlefield {
                n,
                controller,
                card,
            } => {
                if let Some(c) = card {
                    add_name(&mut names, c);
                }
                max_bf = max_bf.max(*n);
                bfs.insert(
                    *n,
                    BattlefieldJson {
                        n: *n,
                        controller: controller.map(player_name),
                        card: card.clone(),
                    },
                );
            }
            BoardStmt::Pool(p, c) => pj(&mut board, *p).pool = c.to_string(),
            BoardStmt::Hand(p, c) => {
                add_name(&mut names, c);
                pj(&mut board, *p).hand.push(c.clone());
            }
            BoardStmt::OtherCards(p, n) => pj(&mut board, *p).other_cards = *n,
            BoardStmt::Deck(p, n) => pj(&mut board, *p).deck = *n,
            BoardStmt::Portal(p) => pj(&mut board, *p).portal = true,
            BoardStmt::NearVictory(p) => pj(&mut board, *p).near_victory = true,
            BoardStmt::Showdown => board.showdown = true,
            BoardStmt::Attack(l) => board.attack = Some(l.clone()),
        }
    }
    for n in 1..=max_bf {
        board
            .battlefields
            .push(bfs.remove(&n).unwrap_or(BattlefieldJson {
                n,
                controller: None,
                card: None,
            }));
    }
    for p in &case.plays {
        if let PlayStmt::Play(_, c) = &p.stmt {
            add_name(&mut names, c);
        }
    }
    // The abilities the named cards trigger.
    let mut i = 0;
    while i < names.len() {
        if let Some(id) = game.card_named(&names[i]) {
            for a in &game.card(id).abilities.clone() {
                if let Ability::WhenYouPlayASpell(t)
                | Ability::WhenChosen(t)
                | Ability::WhenAttacks(t) = a
                {
                    let n = game.card(*t).name.clone();
                    add_name(&mut names, &n);
                }
            }
        }
        i += 1;
    }
    let card_values = names
        .iter()
        .filter_map(|n| game.card_named(n))
        .map(|id| card_json(&game, game.card(id)))
        .collect();
    Ok(CaseRequest {
        kind: "case".into(),
        id,
        rules: case.rules.clone(),
        rulebook,
        features: case_features(case, &cards),
        cards: card_values,
        board,
        plays: case
            .plays
            .iter()
            .map(|p| Play {
                line: p.line,
                stmt: play_json(&p.stmt),
            })
            .collect(),
        case_text: Some(crate::case::print(case)),
    })
}

fn pj(b: &mut Board, p: Player) -> &mut PlayerJson {
    if p == Player::YOU {
        &mut b.players.you
    } else {
        &mut b.players.opponent
    }
}

/// Rebuilds a case from a request's structured fields (for engines, such as the model, that
/// read the case file: when `case_text` is absent).
pub fn case_from_request(req: &CaseRequest) -> Result<Case, String> {
    let builtin = Catalogue::builtin();
    let builtin_game = Game::new(
        Rulebook::named("rup4").expect("rup4"),
        builtin.cards.clone(),
    );
    let mut defines = vec![];
    for c in &req.cards {
        let name = c.get("name").and_then(|n| n.as_str()).unwrap_or("");
        let same = builtin_game
            .card_named(name)
            .map(|id| card_json(&builtin_game, builtin_game.card(id)) == *c)
            .unwrap_or(false);
        if !same {
            let t: toml::Value =
                serde_json::from_value(c.clone()).map_err(|e| format!("card `{name}`: {e}"))?;
            defines.push(Line::new(t.to_string()));
        }
    }
    let pl = |s: &str| parse_player(s).ok_or_else(|| format!("`{s}`: expected you or opponent"));
    let loc = |s: &str| parse_location(s).ok_or_else(|| format!("`{s}`: not a location"));
    let mut board = vec![];
    for u in &req.board.units {
        board.push(BoardStmt::Unit {
            label: u.label.clone(),
            card: u.card.clone(),
            controller: pl(&u.controller)?,
            loc: loc(&u.location)?,
            damage: u.damage,
        });
    }
    for g in &req.board.gear {
        board.push(BoardStmt::Gear {
            label: g.label.clone(),
            card: g.card.clone(),
            controller: pl(&g.controller)?,
        });
    }
    for b in &req.board.battlefields {
        if b.controller.is_some() || b.card.is_some() {
            board.push(BoardStmt::Battlefield {
                n: b.n,
                controller: b.controller.as_deref().map(pl).transpose()?,
                card: b.card.clone(),
            });
        }
    }
    for (p, j) in [
        (Player::YOU, &req.board.players.you),
        (Player::OPP, &req.board.players.opponent),
    ] {
        let pool = Cost::parse(&j.pool, &[]).map_err(|e| format!("pool `{}`: {e}", j.pool))?;
        if !pool.is_zero() {
            board.push(BoardStmt::Pool(p, pool));
        }
        for h in &j.hand {
            board.push(BoardStmt::Hand(p, h.clone()));
        }
        if j.other_cards > 0 {
            board.push(BoardStmt::OtherCards(p, j.other_cards));
        }
        if j.deck != 10 {
            board.push(BoardStmt::Deck(p, j.deck));
        }
        if j.portal {
            board.push(BoardStmt::Portal(p));
        }
        if j.near_victory {
            board.push(BoardStmt::NearVictory(p));
        }
    }
    if req.board.showdown {
        board.push(BoardStmt::Showdown);
    }
    if let Some(a) = &req.board.attack {
        board.push(BoardStmt::Attack(a.clone()));
    }
    let plays = req
        .plays
        .iter()
        .map(|p| play_stmt(&p.stmt).map(Line::new))
        .collect::<Result<Vec<_>, _>>()?;
    let case = Case {
        version: crate::case::parse::VERSION,
        header: vec![],
        rules: req.rules.clone(),
        defines,
        board: board.into_iter().map(Line::new).collect(),
        plays,
        expects: vec![],
    };
    // Number the lines as the printer lays them out.
    crate::case::parse(&crate::case::print(&case)).map_err(|e| e.to_string())
}
