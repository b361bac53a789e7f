//! The values of the rulebook fields that are choices rather than switches or counts: one enum
//! per rule area where versions, errata or the digest's open questions differ, each variant
//! saying which reading it is and where it comes from.

use serde::{Deserialize, Serialize};

/// How Ezreal's "[1] or [A] less" meets several optional additional costs (open question a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EzrealScope {
    /// Once for each optional additional cost paid (the wording plus 356.4.c suggest this).
    EachCost,
    /// Once per play, on the first optional additional cost.
    OncePerPlay,
}

/// How often a Deflect object adds its cost (809.1.c; Spiritforged FAQ errata of 2026-01-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeflectRule {
    /// For each time an opponent's item chooses it (the errata, "because of Repeat").
    PerChoice,
    /// Once per item that chooses it, however many times (v1.2 as printed).
    PerItem,
}

/// When a triggered ability's "you may" is decided (402.1; 383.3.a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TriggerMay {
    /// When it triggers, before it is placed (v1.3).
    AtTrigger,
    /// During its choices step, with its other choices (RUP4 402.1).
    AtChoices,
}

/// What happens to an instruction whose targets are all illegal when it executes (359.3.e.5–7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IllegalTargets {
    /// Illegal targets are unaffected; an instruction with none legal is ignored (the rules).
    Ignored,
    /// Illegal targets are affected anyway (a wrong edit, for checking the checker).
    AffectedAnyway,
}

/// What "you may make new choices for it" allows (750–755).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NewChoicesRule {
    /// Choices made while playing can never change (v1.2 §352.15, v1.3 §355.15 have no exception).
    Forbidden,
    /// RUP4: remake any subset (753); each remade choice must be one not previously chosen
    /// (751.1); Targeting Effects trigger only for newly chosen objects (754).
    Subset,
    /// The guide (seed 000): remake the whole eligible set; the same choices are allowed again;
    /// targeting abilities trigger again, even for the same target.
    WholeSet,
}

/// Which earlier choices a remade choice is compared with (open question d).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NewChoicesScope {
    /// Each execution's choices are separate 355 choices (the digest's inference).
    PerExecution,
    /// All executions' choices form one set: "not previously chosen" means by any execution.
    WholeItem,
}

/// How often a Targeting Effect triggers for an object chosen by several executions (open question b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TargetingTriggers {
    /// Once per item that chooses it.
    OncePerItem,
    /// Once per choice, as Deflect is paid.
    PerChoice,
}

/// How the choices of extra executions are made (820.2.a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExtraChoices {
    /// Each execution has its own choices, declared in order while playing (the rules).
    Own,
    /// Every execution reuses the first execution's choices (a wrong edit, and a common engine bug).
    CopyFirst,
}

/// Which executions' choices count when a counter asks what a repeated item "chooses" (Not So
/// Fast, Repulse). The digest is silent on Repeat here (359.3.e.9.a only counts targets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChosenAcross {
    /// The item chooses everything any of its executions chose (one chain item with n choice
    /// vectors, 820.2; as Deflect counts every vector, 809.1.c).
    AllExecutions,
    /// Each execution is judged alone: the restriction holds if one execution's choices meet it.
    OneExecution,
}

/// What "while I'm in a showdown" asks of a unit (Syndra, Transcendent). The digest is silent;
/// 740.2.c defines only "in combat" (at the battlefield where combat is ongoing, with a combat
/// designation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InShowdown {
    /// A showdown is in progress anywhere; the unit may be in its base (the model's first reading).
    Anywhere,
    /// The unit is at the battlefield where the showdown is (316.8.b: a showdown is at a
    /// battlefield).
    AtBattlefield,
    /// As 740.2.c says of "in combat": at that battlefield and attacking or defending.
    Designated,
}

/// Who "you" is in "when you play a spell" and whose play event it is (419.4.a) for a spell
/// whose control changed before it resolved (Mystic Reversal). The digest is silent; the Unleashed
/// FAQ says "play" in a trigger condition means the card's resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpellPlayedBy {
    /// The spell's controller as it resolves: the act of playing completes then (the model's
    /// first reading).
    Controller,
    /// The player who played it (put it on the chain), whoever controls it when it resolves.
    Player,
}

/// Who holds priority after a play made in response is undone (358.5: "every action taken in
/// this process is undone"). The digest does not say whether priority is part of what is undone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PriorityAfterUndone {
    /// As before the play: the player who tried to respond holds priority again, and the passes
    /// made before it still count (the other player need not pass again).
    Restored,
    /// As after any change of the chain: the newest item's controller gains priority and the
    /// passes start over (the model's first reading).
    TopController,
}

/// What "if this kills it" reads after a deal (open question): damage kills only in the
/// next cleanup (321), after the whole item has resolved, and the digest does not say which deal
/// "kills" a unit that several executions damaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KillsIt {
    /// This deal made the unit's damage lethal: it was not lethal before, it is after (the
    /// damage without which it would not die). A repeated deal on a unit an earlier execution
    /// already doomed does not kill it again.
    MadeLethal,
    /// The unit's damage is lethal after this deal, whoever made it so: each execution that hits
    /// a doomed unit "kills" it.
    LethalAfter,
}
