//! What a case file says: its setup, the decisions played, and the expected outcome. The parser
//! builds this, the printer writes it back in canonical form, and the replayer runs it.

use super::wire;
use model::cost::{Cost, Domain};
use model::setup::TurnSetup;
use model::state::{CancelWhy, IgnoredWhy, Location, Player, RunesSetup, UnitStatus};
use serde::{Deserialize, Serialize};

/// A whole case file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The format version (the first line, `rbcheck-case 1`).
    pub version: u32,
    /// Comment lines before the first statement: the case's description and source.
    pub header: Vec<String>,
    /// The rules version or rulebook file name.
    pub rules: String,
    /// Cards defined in the case, as one-line TOML tables in the catalogue's vocabulary.
    pub defines: Vec<Line<String>>,
    /// The starting position.
    pub board: Vec<Line<BoardStmt>>,
    /// The decisions, in order.
    pub plays: Vec<Line<PlayStmt>>,
    /// Expectations written among the play statements, in file order: each checked
    /// right after the play statements above it, nothing passed for it.
    pub checkpoints: Vec<Checkpoint>,
    /// The expected outcome; what is not stated is not checked.
    pub expects: Vec<Line<Expect>>,
}

/// An expectation written among the play statements: checked once the first `after` play
/// statements have been applied, before the next one (nothing is passed for it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// How many play statements come before it (at least 1, fewer than all of them).
    pub after: usize,
    /// The expectation.
    pub expect: Line<Expect>,
}

/// A statement with the line it came from (0 for statements built in memory). On the wire
/// (a request's `plays`) the statement's fields sit beside `line`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line<T> {
    /// 1-based line number in the file.
    #[serde(default)]
    pub line: usize,
    /// The statement.
    #[serde(flatten)]
    pub stmt: T,
}

impl<T> Line<T> {
    /// A statement without a source line.
    pub fn new(stmt: T) -> Line<T> {
        Line { line: 0, stmt }
    }
}

/// A reference to an object of the case: a labelled unit or gear, or a chain item by number
/// (one string on the wire, as in a case file: its label or `item N`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ObjRef {
    /// A unit or gear by its label.
    Label(String),
    /// The n-th item put on the chain (1-based).
    Item(u8),
}

impl ObjRef {
    /// Reads a label or `item N`.
    pub fn parse(s: &str) -> Result<ObjRef, String> {
        match s.strip_prefix("item ") {
            Some(n) => n
                .trim()
                .parse()
                .map(ObjRef::Item)
                .map_err(|_| format!("`{s}`: expected `item N`")),
            None => Ok(ObjRef::Label(s.to_string())),
        }
    }
}

impl std::fmt::Display for ObjRef {
    /// The object as a case file writes it: its label or `item N`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ObjRef::Label(l) => f.write_str(l),
            ObjRef::Item(n) => write!(f, "item {n}"),
        }
    }
}

impl Serialize for ObjRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_string().serialize(s)
    }
}

impl<'de> Deserialize<'de> for ObjRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ObjRef, D::Error> {
        ObjRef::parse(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// A unit on the board, as a `unit` line states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitStmt {
    /// Its label.
    pub label: String,
    /// The card.
    pub card: String,
    /// Its controller.
    pub controller: Player,
    /// Where it is.
    pub loc: Location,
    /// Damage already marked.
    pub damage: u8,
    /// `owner PLAYER`, when not its controller.
    pub owner: Option<Player>,
    /// `exhausted`, `stunned`, `attacking` / `defending`, `assault N`.
    pub status: UnitStatus,
}

/// A statement of the board section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardStmt {
    /// `unit LABEL "Card" PLAYER LOCATION [damage N] [owner PLAYER] [STATUS...]`
    Unit(UnitStmt),
    /// `gear LABEL "Card" PLAYER`
    Gear {
        /// Its label.
        label: String,
        /// The card.
        card: String,
        /// Its controller.
        controller: Player,
    },
    /// `battlefield N [controller PLAYER] [card "Card"]`
    Battlefield {
        /// 1-based number.
        n: u8,
        /// Its controller.
        controller: Option<Player>,
        /// Its card, if it has abilities that matter.
        card: Option<String>,
    },
    /// `pool PLAYER COST`
    Pool(Player, Cost),
    /// `hand PLAYER "Card"`: a named card in hand.
    Hand(Player, String),
    /// `other-cards PLAYER N`: cards in hand that only count.
    OtherCards(Player, u8),
    /// `deck PLAYER N`
    Deck(Player, u8),
    /// `portal PLAYER`: Temporal Portal was activated this turn.
    Portal(Player),
    /// `near-victory PLAYER`
    NearVictory(Player),
    /// `showdown [battlefield N]`: a showdown, at battlefield N (1-based) when given.
    Showdown(Option<u8>),
    /// `attack LABEL`: the scenario starts with that unit's "when I attack" ability.
    Attack(String),
    // ---- the main deck and grants ----
    /// `deck-top PLAYER "Card"...`: named cards on top of the main deck, top first, above the
    /// `deck N` anonymous ones.
    DeckTop(Player, Vec<String>),
    /// `academy PLAYER`: The Academy's hold triggered this turn (its next spell gets [Repeat]
    /// equal to its base cost).
    Academy(Player),
    // ---- Runes ----
    /// `runes PLAYER [ready D...] [exhausted D...] [deck D...]`: the player pays with runes
    /// (164, 357.1.a); without it the player is pool-only.
    Runes(Player, RunesSetup),
    // ---- A turn of several plays ----
    /// `turn plays N [end-turn]`: the turn player may make up to N plays from the open state
    /// (N in 1..=`MAX_PLAYS`), and with `end-turn` the case may end the turn (334.1). Absent:
    /// one play, no end of turn.
    Turn(TurnSetup),
}

/// A decision of the play section. On the wire (`corpus/PROTOCOL.md`) it is an object tagged by
/// `do`, with these fields under these names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case")]
pub enum PlayStmt {
    /// `PLAYER play "Card"` (354)
    Play {
        /// Who plays.
        #[serde(with = "wire::player")]
        player: Player,
        /// The card's name.
        card: String,
    },
    /// `PLAYER pass` (339)
    Pass {
        /// Who passes.
        #[serde(with = "wire::player")]
        player: Player,
    },
    /// `may perform` / `may decline` (402.1)
    May {
        /// Perform (or decline).
        perform: bool,
    },
    /// `repeat N pay` / `repeat N skip`: one line per instance (820.1.c.2–3)
    Repeat {
        /// 1-based instance.
        instance: u8,
        /// Paid or not.
        pay: bool,
    },
    /// `exec K mode M` (355.3, 820.2.a)
    Mode {
        /// 1-based execution.
        exec: u8,
        /// 1-based mode.
        mode: u8,
    },
    /// `exec K target I OBJ` (355.5)
    Target {
        /// 1-based execution.
        exec: u8,
        /// 1-based instruction.
        instruction: u8,
        /// The object.
        #[serde(rename = "object")]
        obj: ObjRef,
    },
    /// `exec K no-more-targets I` (355.13)
    NoMoreTargets {
        /// 1-based execution.
        exec: u8,
        /// 1-based instruction.
        instruction: u8,
    },
    /// `exec K destination I LOCATION` (355.4)
    Destination {
        /// 1-based execution.
        exec: u8,
        /// 1-based instruction.
        instruction: u8,
        /// Where to.
        #[serde(rename = "location", with = "wire::location")]
        to: Location,
    },
    /// `pay [any DOMAIN...]` (357)
    Pay {
        /// The domains any-domain Power is taken from, one per [A].
        #[serde(default, with = "wire::domains")]
        any: Vec<Domain>,
    },
    /// `new-choices item N`: the `exec ... target` lines that follow are the item's whole new
    /// set of targets, replacing the old (751–753).
    NewChoices {
        /// The item.
        item: u8,
    },
    /// `new-choices item N decline` (750)
    DeclineNewChoices {
        /// The item.
        item: u8,
    },
    // ---- Costs other than [Repeat] and where units enter ----
    /// `optional N pay` / `optional N skip`: an optional additional cost other than [Repeat]
    /// (355.1.a)
    Optional {
        /// 1-based optional cost of the card.
        index: u8,
        /// Paid or not.
        pay: bool,
    },
    /// `location LOCATION`: where the unit or token being played will enter (355.2)
    Location {
        /// Where.
        #[serde(rename = "location", with = "wire::location")]
        to: Location,
    },
    /// `reduce repeat N energy|power` / `reduce optional N energy|power`: which part "[1] or [A]
    /// less" takes off that component (356.4.c)
    Reduce {
        /// The kind of component.
        part: Part,
        /// 1-based index of the component within its kind.
        index: u8,
        /// What is taken off.
        less: Less,
    },
    /// `discard "Card"` / `discard other`: the card discarded to pay a cost (357.2)
    Discard {
        /// The named card, or `None` for one of the other cards in hand.
        #[serde(default)]
        card: Option<String>,
    },
    /// `exhaust LABEL` / `kill LABEL`: the friendly unit exhausted or killed to pay a mandatory
    /// additional cost (357.2)
    PayWithUnit {
        /// Killed (`kill`) rather than exhausted (`exhaust`).
        kill: bool,
        /// The unit.
        #[serde(rename = "object")]
        unit: ObjRef,
    },
    /// `discount own` / `discount LABEL`: the whole-card discount the payer applies before the
    /// others not yet applied, where a discount's own floor makes the order matter (356.4.d-e)
    Discount {
        /// The unit whose discount it is; `None` for the card's own.
        #[serde(default, rename = "object", skip_serializing_if = "Option::is_none")]
        unit: Option<ObjRef>,
    },
    // ---- decisions inside an execution ----
    /// `look draw "Card"|other|none`: the card looked at that is drawn (or revealed and drawn);
    /// `none` declines a "you may" (359.3.e).
    LookDraw {
        /// The card; `None` for none.
        card: Option<DeckRef>,
    },
    /// `look recycle "Card"|other`: the next card looked at to go to the bottom of the deck (416).
    LookRecycle {
        /// The card.
        card: DeckRef,
    },
    /// `demand pay` / `demand decline`: the asked player pays, or declines and the spell is
    /// countered (Hard Bargain).
    Demand {
        /// Pay or decline.
        pay: bool,
    },
    // ---- Runes ----
    /// `rune exhaust D` / `rune recycle D`: while paying, exhaust a ready rune to add [1] or
    /// recycle a rune to add one Power of its domain (164.2, 357.1.a).
    Rune {
        /// Exhaust or recycle.
        #[serde(rename = "use")]
        how: RuneUse,
        /// The rune's domain.
        #[serde(with = "wire::domain")]
        domain: Domain,
    },
    // ---- A turn of several plays ----
    /// `close`: everyone passes until the chain closes (339, 340.2); in a turn of several plays
    /// the turn player then holds priority in the open state and may play again.
    Close,
    /// `end turn` (334.1): the turn player ends the turn; "this turn" effects and unused grants
    /// end.
    EndTurn,
    /// `PLAYER activate LABEL` (401, 145.2): activate the ability of that gear (Temporal Portal's
    /// "[A], [E]: ..."); its cost and the priority rounds follow like a spell's.
    Activate {
        /// Who activates.
        #[serde(with = "wire::player")]
        player: Player,
        /// The gear.
        object: ObjRef,
    },
}

/// What a payment does with a rune (164.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuneUse {
    /// "[E]: Add [1]".
    Exhaust,
    /// "Recycle this: Add [C]".
    Recycle,
}

/// Which of a player's runes an `expect runes` line lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunePart {
    /// Ready runes on the board, by domain.
    Ready,
    /// Exhausted runes on the board, by domain.
    Exhausted,
    /// The rune deck, top first.
    Deck,
}

/// A card of a main deck in a statement: a named card, or `other` (an anonymous one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeckRef {
    /// A card by name.
    Named(String),
    /// An anonymous card.
    Other,
}

/// The kind of cost component a `reduce` line names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    /// A [Repeat] instance.
    Repeat,
    /// An optional additional cost other than [Repeat].
    Optional,
}

/// What "[1] or [A] less" takes off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Less {
    /// One Energy.
    Energy,
    /// One Power.
    Power,
}

/// A moment of the play that `expect order` names: the first event in the log that matches it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moment {
    /// `execution K of item N` (820.3)
    Execution(u8, u8),
    /// `finalize of item N` (359)
    Finalize(u8),
    /// `play of item N`: its play event (419.4.a, 350.2)
    Play(u8),
    /// `finish of item N`: it finished resolving (359.3.d)
    Finish(u8),
    /// `entry of OBJ`: the unit played as item N, or token `token-K`, entered the board (359.2)
    Entry(ObjRef),
    /// `trigger "Ability"`: the ability triggered (the first time)
    Trigger(String),
}

/// What an expectation checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `legal`: every statement is allowed.
    Legal,
    /// `illegal line N [rule R]` or `illegal play K [rule R]`: the statement at line N (the
    /// K-th play statement) is not allowed.
    Illegal {
        /// The play statement's line.
        line: usize,
        /// The rule that forbids it, if stated.
        rule: Option<String>,
        /// As written `illegal play K`: the statement's position among the play statements
        /// (from 1), which names it whatever lines are added above it.
        play: Option<usize>,
    },
    /// `cancelled item N [no-legal-choice|cannot-pay]` (358.5)
    Cancelled(u8, Option<CancelWhy>),
    /// `paid item N COST`: the item's total payment (357).
    Paid(u8, Cost),
    /// `repeat-paid item N I...`: exactly these instances declared paid (`none` for none).
    RepeatPaid(u8, Vec<u8>),
    /// `executions item N K` (820.3)
    Executions(u8, u8),
    /// `play-events item N K` (820.3.a)
    PlayEvents(u8, u8),
    /// `performed item N exec K instruction I`
    Performed(u8, u8, u8),
    /// `ignored item N exec K instruction I [REASON]` (359.3.e, 820.1.d.2)
    Ignored(u8, u8, u8, Option<IgnoredWhy>),
    /// `countered item N` (425)
    Countered(u8),
    /// `not-countered item N`
    NotCountered(u8),
    /// `triggered "Ability" K`: how many times an ability triggered.
    Triggered(String, u8),
    /// `finalized PLAYER K`: cards the player finalized this turn (419.4.b, Legion).
    Finalized(Player, u8),
    /// `grants PLAYER portal|academy...` / `grants PLAYER none`: the "next spell you play this
    /// turn" grants the player still holds (SFD-078, UNL-216; given back by an undone play,
    /// 358.5; ended by the end of the turn).
    Grants(Player, Vec<model::state::Grant>),
    /// `unit LABEL damage K`
    UnitDamage(String, u8),
    /// `unit LABEL in trash` / `unit LABEL on board`
    UnitZone(String, model::state::Zone),
    /// `unit LABEL at LOCATION`
    UnitAt(String, Location),
    /// `gear LABEL in trash` / `gear LABEL on board`
    GearZone(String, model::state::Zone),
    /// `tokens PLAYER K`: unit tokens on the board.
    Tokens(Player, u8),
    /// `pool PLAYER COST`
    Pool(Player, Cost),
    /// `hand-size PLAYER K`: all cards in hand.
    HandSize(Player, u8),
    /// `trash PLAYER "Card"...`: the named cards in the trash, in order (`none` for none).
    Trash(Player, Vec<String>),
    /// `deck PLAYER K`
    Deck(Player, u8),
    // ---- the main deck, the hand, demands ----
    /// `deck-top PLAYER "Card"...` / `none`: the named cards on top of the main deck, above the
    /// first anonymous or recycled card, top first.
    DeckTop(Player, Vec<String>),
    /// `recycled PLAYER "Card"|other...` / `none`: the cards at the bottom of the main deck that
    /// were recycled there, in the order recycled.
    Recycled(Player, Vec<DeckRef>),
    /// `hand PLAYER "Card"...` / `none`: the named cards in hand, in order.
    Hand(Player, Vec<String>),
    /// `demands item N paid|declined...`: the decisions on the demands made of item N's
    /// controller, in order (Hard Bargain).
    Demands(u8, Vec<bool>),
    /// `runes-exhausted PLAYER K`: runes channelled exhausted (Find Your Center).
    RunesExhausted(Player, u8),
    // ---- Combat statuses and Might ----
    /// `unit LABEL might K`: its current Might (807.1.c: with [Assault] while attacking).
    UnitMight(String, u8),
    /// `unit LABEL stunned` / `unit LABEL not-stunned` (423.1)
    UnitStunned(String, bool),
    /// `unit LABEL ready` / `unit LABEL exhausted` (414, 415)
    UnitReady(String, bool),
    /// `unit LABEL assault K`: the [Assault] granted this turn, summed (807.2).
    UnitAssault(String, u8),
    // ---- Costs other than [Repeat], where units enter, the order of events ----
    /// `optional-paid item N I...` / `... none`: exactly these optional costs declared paid
    OptionalPaid(u8, Vec<u8>),
    /// `entered item N at LOCATION ready|exhausted`: the unit played as item N entered there
    /// (359.2), ready if its [Accelerate] was paid (805)
    Entered(u8, Location, bool),
    /// `order M then M ...`: these moments happened in this order
    Order(Vec<Moment>),
    /// `discarded item N "Card"|other ...` / `... none`: the cards discarded to pay item N's
    /// costs, in order (`None`: one of the other cards)
    Discarded(u8, Vec<Option<String>>),
    // ---- Runes ----
    /// `runes PLAYER ready|exhausted|deck D...|none`: the player's ready or exhausted runes (in
    /// domain order, R G B O P Y) or rune deck (top first) at the end.
    Runes(Player, RunePart, Vec<Domain>),
}
