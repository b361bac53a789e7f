//! The transitions of the model, one per player decision or procedure step, each named after the
//! rule's words. `crate::game` says when each is enabled (its guard) and what it does (its effect).
//!
//! `Action::citation` is the one place that says which rule clauses a step cites: traces print
//! its text, coverage counts its clauses, and each variant's doc comment opens with the same
//! text (a test in `coverage` holds the three and the clause table together).

use crate::cost::Domain;
use crate::state::{CancelWhy, Component, Location, Obj, Player, Reduction};
use std::fmt;

/// A step of playing, paying for or resolving a chain item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// 354: move a card from hand to the chain as a pending item (MoveToChain).
    MoveToChain {
        /// Who plays it.
        player: Player,
        /// Index in that player's hand.
        hand: u8,
    },
    /// 402.1: decide a trigger's "you may".
    DecideOptional {
        /// Perform it, or decline (removing it; not a counter, 402.1.a).
        accept: bool,
    },
    /// 355.1.a, 820.1.c.2–3: declare one [Repeat] instance paid or not (DeclareRepeat).
    DeclareRepeat {
        /// The instance.
        instance: u8,
        /// Pay it or not.
        pay: bool,
    },
    /// 355.3, 820.2.a: choose the mode of execution `exec` (ChooseMode).
    ChooseMode {
        /// Execution index (0-based, in declared order).
        exec: u8,
        /// The mode.
        mode: u8,
    },
    /// 355.5, 355.8, 820.2.a: choose a target of execution `exec` (ChooseTarget).
    ChooseTarget {
        /// Execution index.
        exec: u8,
        /// Instruction slot.
        slot: u8,
        /// The object.
        obj: Obj,
    },
    /// 355.13: choose no more targets for an "up to" instruction.
    EndTargets {
        /// Execution index.
        exec: u8,
        /// Instruction slot.
        slot: u8,
    },
    /// 355.4: choose where a move goes (ChooseDestination).
    ChooseDestination {
        /// Execution index.
        exec: u8,
        /// Instruction slot.
        slot: u8,
        /// Where to.
        to: Location,
    },
    /// 356: determine the total cost (DetermineTotalCost).
    DetermineTotalCost,
    /// 164.2, 357.1.a: while paying, exhaust a ready rune of `domain` to add [1] (ExhaustRune).
    ExhaustRune {
        /// The rune's domain.
        domain: Domain,
    },
    /// 164.2, 357.1.a: while paying, recycle a rune of `domain` to add its Power (RecycleRune);
    /// an exhausted one if there is one.
    RecycleRune {
        /// The rune's domain.
        domain: Domain,
    },
    /// 357: pay the total cost (PayCosts); `any` says from which domains any-domain Power comes.
    PayCosts {
        /// Power of each domain spent on [A] requirements.
        any: [u8; 6],
    },
    /// 358.5: undo the play: a required choice has no legal option or the cost cannot be paid.
    CancelPlay {
        /// Why.
        why: CancelWhy,
    },
    /// 358: check the play's legality (CheckLegality).
    CheckLegality,
    /// 359: finish finalizing (Finalize).
    Finalize,
    /// 338.1.b, 339: pass priority (Pass).
    Pass,
    /// 340.1: the newest finalized item starts (or, after a window, resumes) resolving (Resolve).
    Resolve,
    /// 820.3, 359.3.e: run the next execution of the resolving item (Execute).
    Execute,
    /// 359.3.d, 419.4.a: the item has finished resolving, with no window before (158.3.a)
    /// (FinishResolution).
    FinishResolution,
    /// 321: perform the outstanding cleanup (Cleanup).
    Cleanup,
    /// 751–753: keep the current choice at the new-choices cursor.
    KeepChoice,
    /// 751–753: remake the choice at the new-choices cursor.
    RemakeChoice {
        /// The new object.
        obj: Obj,
    },
    /// 750: decline to make new choices at all.
    DeclineNewChoices,
    /// 752.2: a wrong edit only, which that clause forbids: mark an unpaid [Repeat] instance
    /// paid while making new choices.
    ReopenRepeat {
        /// The instance.
        instance: u8,
    },
    // ---- decisions inside an execution ----
    /// 359.3.e: draw the card looked at in position `index` (Called Shot), or reveal a unit and
    /// draw it, or none (Double Trouble) (DrawLooked).
    DrawLooked {
        /// Position from the top of the deck; `None`: take nothing ("you may").
        index: Option<u8>,
    },
    /// 416: recycle the card looked at in position `index`: it goes to the bottom of the main
    /// deck (RecycleLooked).
    RecycleLooked {
        /// Position from the top of the deck.
        index: u8,
    },
    /// 359.3.e: the controller of the spell Hard Bargain targets pays, or declines and it is
    /// countered (425.1, shown by Event::Countered) (PayDemand).
    PayDemand {
        /// Pay or decline.
        pay: bool,
    },
    // ---- Costs other than [Repeat] and where units enter ----
    /// 355.1.a, 356.2.b: declare one optional additional cost other than [Repeat] paid or not
    /// (DeclareOptionalCost).
    DeclareOptionalCost {
        /// Which of the card's optional costs.
        index: u8,
        /// Pay it or not.
        pay: bool,
    },
    /// 355.2: choose the location a unit or token will enter (ChooseLocation).
    ChooseLocation {
        /// Where.
        to: Location,
    },
    /// 356.4.c: choose which part "[1] or [A] less" takes off a component (ChooseReduction).
    ChooseReduction {
        /// The component.
        component: Component,
        /// Energy or Power.
        less: Reduction,
    },
    /// 356.4.d, 356.4.e: the payer applies this whole-card discount before the others not yet
    /// applied, where a discount's own floor makes their order matter (OrderDiscount).
    OrderDiscount {
        /// The discount: the card's own, or a unit's.
        source: crate::state::DiscountSource,
    },
    /// 357.2: discard a card to pay a cost, the payer's choice (DiscardForCost).
    DiscardForCost {
        /// A named card in hand, or `None` for one of the other cards.
        card: Option<crate::card::CardId>,
    },
    /// 357.2, 414.4: exhaust a ready friendly unit to pay a cost, the payer's choice
    /// (ExhaustForCost).
    ExhaustForCost {
        /// `State::units[n]`.
        unit: u8,
    },
    /// 357.2: kill a friendly unit to pay a cost, the payer's choice (KillForCost).
    KillForCost {
        /// `State::units[n]`.
        unit: u8,
    },
    // ---- a turn, not a single play ----
    /// 334.1: the turn player, holding priority in the open state, ends the turn; its
    /// end-of-turn steps (tasks, 334.1) end "this turn" effects (EndTurn).
    EndTurn,
    /// 401, 145.2: the turn player, holding priority in the open state of their main phase,
    /// activates an ability of their gear: it becomes a pending item, played like a spell
    /// (ActivateAbility).
    ActivateAbility {
        /// `State::gear[n]`.
        gear: u8,
    },
}

impl Action {
    /// True for a player's decision; false for a step of the procedure that involves no choice
    /// (a case file writes decisions only; a replayer takes the other steps by itself).
    pub fn is_decision(&self) -> bool {
        !matches!(
            self,
            Action::DetermineTotalCost
                | Action::CheckLegality
                | Action::Finalize
                | Action::Resolve
                | Action::Execute
                | Action::FinishResolution
                | Action::Cleanup
                | Action::CancelPlay { .. }
        )
    }

    /// The rule clauses the step cites: the single source of the model's citations.
    pub fn citation(&self) -> Citation {
        let cite = |text, applies| Citation { text, applies };
        match self {
            Action::MoveToChain { .. } => cite("354", &["354"]),
            Action::DecideOptional { .. } => cite("402.1", &["402.1"]),
            // 820.1.c.3 when paid: Event::RepeatDeclared.
            Action::DeclareRepeat { .. } => cite("355.1.a, 820.1.c.2–3", &["355.1.a", "820.1.c.2"]),
            Action::ChooseMode { .. } => cite("355.3, 820.2.a", &["355.3", "820.2.a"]),
            Action::ChooseTarget { .. } => {
                cite("355.5, 355.8, 820.2.a", &["355.5", "355.8", "820.2.a"])
            }
            Action::EndTargets { .. } => cite("355.13", &["355.13"]),
            Action::ChooseDestination { .. } => cite("355.4", &["355.4"]),
            Action::DetermineTotalCost => cite("356", &["356"]),
            Action::PayCosts { .. } => cite("357", &["357"]),
            Action::ExhaustRune { .. } | Action::RecycleRune { .. } => {
                cite("164.2, 357.1.a", &["164.2", "357.1.a"])
            }
            Action::CancelPlay { .. } => cite("358.5", &["358.5"]),
            Action::CheckLegality => cite("358", &["358"]),
            Action::Finalize => cite("359", &["359"]),
            Action::Pass => cite("338.1.b, 339", &["338.1.b", "339"]),
            Action::Resolve => cite("340.1", &["340.1"]),
            // 820.3 from the second execution on: Event::ExecutionStarted.
            Action::Execute => cite("820.3, 359.3.e", &["359.3.e"]),
            // 419.4.a with the play event: Event::Played.
            Action::FinishResolution => cite("359.3.d, 419.4.a", &["359.3.d"]),
            Action::Cleanup => cite("321", &["321"]),
            // 751.1 when a choice is remade (Event::ChoiceRemade); 752.2 ("752" here) when new
            // choices begin (Event::NewChoicesBegun).
            Action::KeepChoice | Action::RemakeChoice { .. } => cite("751–753", &["753"]),
            Action::DeclineNewChoices => cite("750", &["750"]),
            // A wrong edit: it breaks the clause it cites, and applies none.
            Action::ReopenRepeat { .. } => cite("752.2", &[]),
            Action::DrawLooked { .. } | Action::PayDemand { .. } => cite("359.3.e", &["359.3.e"]),
            Action::RecycleLooked { .. } => cite("416", &["416"]),
            Action::DeclareOptionalCost { .. } => cite("355.1.a, 356.2.b", &["355.1.a"]),
            Action::ChooseLocation { .. } => cite("355.2", &["355.2"]),
            Action::ChooseReduction { .. } => cite("356.4.c", &["356.4.c"]),
            Action::OrderDiscount { .. } => cite("356.4.d, 356.4.e", &["356.4.e"]),
            Action::DiscardForCost { .. } => cite("357.2", &["357.2"]),
            Action::ExhaustForCost { .. } => cite("357.2, 414.4", &["357.2", "414.4"]),
            Action::KillForCost { .. } => cite("357.2", &["357.2"]),
            Action::EndTurn => cite("334.1", &["334.1"]),
            Action::ActivateAbility { .. } => cite("401, 145.2", &["401", "145.2"]),
        }
    }

    /// The rule clauses the step cites, as traces print them (`Citation::text`).
    pub fn rule(&self) -> &'static str {
        self.citation().text
    }

    /// The step as a phrase in the rules' words, for readers who do not know the step names
    /// (`rbcheck diff`'s classes): "paying the costs", not `PayCosts`.
    pub fn words(&self) -> &'static str {
        match self {
            Action::MoveToChain { .. } => "putting a card on the chain to play it",
            Action::DecideOptional { .. } => "deciding a triggered ability's \"you may\"",
            Action::DeclareRepeat { .. } => "declaring a [Repeat] instance paid or not",
            Action::ChooseMode { .. } => "choosing a mode",
            Action::ChooseTarget { .. } => "choosing a target",
            Action::EndTargets { .. } => "choosing no more targets for an \"up to\" instruction",
            Action::ChooseDestination { .. } => "choosing where a move goes",
            Action::DetermineTotalCost => "determining the total cost",
            Action::PayCosts { .. } => "paying the costs",
            Action::CancelPlay { .. } => "undoing the play",
            Action::CheckLegality => "checking that the play is legal",
            Action::Finalize => "finalizing the play",
            Action::Pass => "passing priority",
            Action::Resolve => "resolving the top item of the chain",
            Action::Execute => "executing the item's instructions",
            Action::FinishResolution => "finishing the resolution",
            Action::Cleanup => "performing a cleanup",
            Action::KeepChoice => "keeping a choice while making new choices",
            Action::RemakeChoice { .. } => "making a new choice",
            Action::DeclineNewChoices => "declining to make new choices",
            Action::ReopenRepeat { .. } => "paying a [Repeat] instance a second time",
            Action::DrawLooked { .. } => "drawing one of the cards looked at",
            Action::RecycleLooked { .. } => "recycling a card looked at",
            Action::PayDemand { .. } => "answering a demand to pay",
            Action::DeclareOptionalCost { .. } => {
                "declaring an optional additional cost paid or not"
            }
            Action::ChooseLocation { .. } => "choosing where a unit is played",
            Action::ChooseReduction { .. } => "choosing which cost a discount reduces",
            Action::OrderDiscount { .. } => "choosing the order of discounts with a floor",
            Action::DiscardForCost { .. } => "choosing the card discarded for a cost",
            Action::ExhaustForCost { .. } => "choosing the unit exhausted for a cost",
            Action::KillForCost { .. } => "choosing the unit killed for a cost",
            Action::ExhaustRune { .. } => "exhausting a rune to add Energy",
            Action::RecycleRune { .. } => "recycling a rune to add Power",
            Action::EndTurn => "ending the turn",
            Action::ActivateAbility { .. } => "activating an ability of a gear",
        }
    }

    /// The step's name, as in the rules' words.
    pub fn name(&self) -> &'static str {
        match self {
            Action::MoveToChain { .. } => "MoveToChain",
            Action::DecideOptional { .. } => "DecideOptional",
            Action::DeclareRepeat { .. } => "DeclareRepeat",
            Action::ChooseMode { .. } => "ChooseMode",
            Action::ChooseTarget { .. } => "ChooseTarget",
            Action::EndTargets { .. } => "EndTargets",
            Action::ChooseDestination { .. } => "ChooseDestination",
            Action::DetermineTotalCost => "DetermineTotalCost",
            Action::PayCosts { .. } => "PayCosts",
            Action::ExhaustRune { .. } => "ExhaustRune",
            Action::RecycleRune { .. } => "RecycleRune",
            Action::CancelPlay { .. } => "CancelPlay",
            Action::CheckLegality => "CheckLegality",
            Action::Finalize => "Finalize",
            Action::Pass => "Pass",
            Action::Resolve => "Resolve",
            Action::Execute => "Execute",
            Action::FinishResolution => "FinishResolution",
            Action::Cleanup => "Cleanup",
            Action::KeepChoice => "KeepChoice",
            Action::RemakeChoice { .. } => "RemakeChoice",
            Action::DeclineNewChoices => "DeclineNewChoices",
            Action::ReopenRepeat { .. } => "ReopenRepeat",
            Action::DrawLooked { .. } => "DrawLooked",
            Action::RecycleLooked { .. } => "RecycleLooked",
            Action::PayDemand { .. } => "PayDemand",
            Action::DeclareOptionalCost { .. } => "DeclareOptionalCost",
            Action::ChooseLocation { .. } => "ChooseLocation",
            Action::ChooseReduction { .. } => "ChooseReduction",
            Action::OrderDiscount { .. } => "OrderDiscount",
            Action::DiscardForCost { .. } => "DiscardForCost",
            Action::ExhaustForCost { .. } => "ExhaustForCost",
            Action::KillForCost { .. } => "KillForCost",
            Action::EndTurn => "EndTurn",
            Action::ActivateAbility { .. } => "ActivateAbility",
        }
    }
}

/// The rule clauses a step cites (`Action::citation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Citation {
    /// As traces print them, in the digest's spelling: `"355.1.a, 820.1.c.2–3"`.
    pub text: &'static str,
    /// The clauses named by `text` that the step applies every time it is taken; coverage counts
    /// them per transition. The others it applies only when one of its events shows it
    /// (`coverage::event_clauses`), or, for a wrong edit, breaks.
    pub applies: &'static [&'static str],
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())?;
        match self {
            // Numbers are 1-based, as the events' descriptions name units and gear.
            Action::MoveToChain { player, hand } => {
                write!(f, "({player}, hand card {})", u16::from(*hand) + 1)
            }
            Action::DecideOptional { accept } => {
                write!(f, "({})", if *accept { "perform" } else { "decline" })
            }
            Action::DeclareRepeat { instance, pay } => {
                write!(
                    f,
                    "(instance {}, {})",
                    instance + 1,
                    if *pay { "pay" } else { "don't pay" }
                )
            }
            Action::ChooseMode { exec, mode } => {
                write!(f, "(execution {}, mode {})", exec + 1, mode + 1)
            }
            Action::ChooseTarget { exec, slot, obj } => {
                write!(
                    f,
                    "(execution {}, instruction {}, {obj:?})",
                    exec + 1,
                    slot + 1
                )
            }
            Action::EndTargets { exec, slot } => {
                write!(f, "(execution {}, instruction {})", exec + 1, slot + 1)
            }
            Action::ChooseDestination { exec, slot, to } => {
                write!(
                    f,
                    "(execution {}, instruction {}, {to})",
                    exec + 1,
                    slot + 1
                )
            }
            Action::PayCosts { any } if any.iter().any(|n| *n > 0) => {
                write!(f, "([A] paid as {any:?})")
            }
            Action::ExhaustRune { domain } | Action::RecycleRune { domain } => {
                write!(f, "({domain:?})")
            }
            Action::CancelPlay { why } => write!(f, "({why:?})"),
            Action::RemakeChoice { obj } => write!(f, "({obj:?})"),
            Action::ReopenRepeat { instance } => write!(f, "(instance {})", instance + 1),
            Action::DrawLooked { index: Some(i) } => write!(f, "(card {} from the top)", i + 1),
            Action::DrawLooked { index: None } => write!(f, "(none)"),
            Action::RecycleLooked { index } => write!(f, "(card {} from the top)", index + 1),
            Action::PayDemand { pay } => {
                write!(f, "({})", if *pay { "pay" } else { "decline" })
            }
            Action::DeclareOptionalCost { index, pay } => write!(
                f,
                "(optional cost {}, {})",
                index + 1,
                if *pay { "pay" } else { "don't pay" }
            ),
            Action::ChooseLocation { to } => write!(f, "({to})"),
            Action::ChooseReduction { component, less } => {
                write!(f, "({component:?}, {less:?} less)")
            }
            Action::OrderDiscount { source } => write!(f, "({source:?} first)"),
            Action::DiscardForCost { card: Some(c) } => write!(f, "(card {c})"),
            Action::DiscardForCost { card: None } => write!(f, "(another card)"),
            Action::ExhaustForCost { unit } | Action::KillForCost { unit } => {
                write!(f, "(unit {})", u16::from(*unit) + 1)
            }
            Action::ActivateAbility { gear } => write!(f, "(gear {})", u16::from(*gear) + 1),
            _ => Ok(()),
        }
    }
}
