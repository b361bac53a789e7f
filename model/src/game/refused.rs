//! Why the model does not allow a step: the rule that refuses it and the facts that say why, as
//! one typed reason. The guards that leave a choice out for a rule of their own (355.16, 357.3,
//! 355.4.a, a gear's activation) give their reason here; a step that is simply not due names
//! the step's own rule. A replayer, a report or a fuzzing triage prints or reads this reason; a
//! caller that speaks another vocabulary (case statements) adds its own words around it.

use std::fmt;

use super::unit_cost::{chose, unit_options};
use super::Game;
use crate::action::Action;
use crate::card::CardKind;
use crate::cost::Domain;
use crate::describe::possessive;
use crate::rulebook::{NewChoicesRule, NewChoicesScope};
use crate::state::{CancelWhy, ChainItem, Event, Obj, Phase, Pick, Player, State};

/// Why a step is not allowed now: the rule (see [`Refusal::rule`]) and, through `Display`, the
/// reason in the model's words (object names as the board shows them, no case-file syntax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// 358.5: the last play was undone and nothing was played since, so a step of playing has no
    /// play to belong to; `step` is why the step itself is refused, when it is a choice.
    Undone {
        /// What was undone and why.
        play: UndonePlay,
        /// The step's own refusal, for a choice (a payment has only the undoing).
        step: Option<Box<Refusal>>,
    },
    /// 416: "reveal a unit" takes a unit among the cards looked at, or none.
    NotAmongLooked,
    /// 416: the card to draw was chosen (or none can be); the rest is recycled one at a time.
    NothingToDraw,
    /// 357.1.a: the pool does not hold what a demand asks yet, but ready runes can add it.
    DemandNeedsRunes,
    /// 357: the demand cannot be paid from the pool or runes; it can only be declined.
    DemandUnpayable,
    /// 357.1.a: runes were exhausted for the demand, so it is paid.
    DemandRunesCommitted,
    /// 357.1.a: the player has no such rune (ready, for exhausting) on the board.
    NoSuchRune {
        /// Whose runes.
        player: Player,
        /// The rune's domain.
        domain: Domain,
        /// Exhausting (a ready rune is needed) rather than recycling.
        exhaust: bool,
    },
    /// 131: a demand asks for Energy, which a recycled rune's Power does not pay.
    PowerForDemand,
    /// 357.1.a: runes are used in the model's one order, and only while the cost (or demand)
    /// still needs what they add.
    RuneOutOfOrder {
        /// For a demand rather than a cost.
        demand: bool,
    },
    /// 820.3: a choice for an execution the item does not have.
    PastLastExecution {
        /// The item's name.
        item: String,
        /// Its executions.
        executions: u8,
        /// Executions each paid instance adds.
        per: u8,
        /// Paid instances.
        paid: usize,
        /// All instances.
        instances: usize,
        /// The execution asked for (zero-based).
        exec: u8,
    },
    /// 355.1.a: a Repeat instance is decided before modes and targets.
    RepeatFirst {
        /// The instance to decide (zero-based).
        instance: u8,
    },
    /// 402.1: a triggered ability's "you may" is decided first.
    OptionalFirst,
    /// 355.16: the mode has a required target with no legal choice.
    ModeWithoutTargets {
        /// The mode (zero-based).
        mode: u8,
    },
    /// 357.3: a unit the play chose is not killed for its cost while another unit can pay.
    KillsChosenTarget,
    /// 357.2: the cost kills a friendly unit with `need` or more Might; this one has less.
    TooLittleMight {
        /// The Might the cost asks for.
        need: u8,
    },
    /// 355.4.a: a move's destination is not where the unit already is.
    AlreadyThere,
    /// 355.1.a: Repeat is decided while an item is being played; none is.
    RepeatWithoutPlay,
    /// 820.1.a: the rulebook gives [Repeat] to spells only.
    RepeatOnAbility {
        /// The rulebook's name.
        book: String,
        /// The ability's card.
        card: String,
    },
    /// 820.1.c: the item has fewer Repeat instances.
    NoSuchRepeat {
        /// The card's name.
        card: String,
        /// Its instances.
        instances: usize,
        /// The instance asked for (zero-based).
        instance: u8,
    },
    /// 820.1.c.3: each instance can be paid only once.
    RepeatAlreadyPaid {
        /// The instance (zero-based).
        instance: u8,
    },
    /// 820.1.c.2: the instance was already decided.
    RepeatAlreadyDecided {
        /// The instance (zero-based).
        instance: u8,
    },
    /// 355.1.a: Repeat is decided before modes and targets, not later.
    RepeatTooLate,
    /// 820.1.c.2: instances are decided one at a time, in order.
    RepeatOutOfOrder,
    /// 334.1: the scenario is over (its chain closed, or the turn ended).
    Over {
        /// The turn has ended (else the single play's chain has closed).
        turn_ended: bool,
    },
    /// Every play the scenario's turn allows has been made: a limit of the scenario, not a rule.
    PlaysUsed,
    /// 334.1: the turn ends from the open state; the chain must close first.
    ChainOpen,
    /// 334.1: the turn player ends the turn after a play of the turn.
    NoPlayYet,
    /// A gear's ability cannot be activated now: the activation guard's rule and reason.
    Activation {
        /// The rule.
        rule: &'static str,
        /// The reason.
        why: &'static str,
    },
    /// 358.4: only a [Reaction] may be added to an existing chain.
    ReactionOnly {
        /// The player.
        player: Player,
    },
    /// 358.4: the player cannot play that card now.
    CannotPlay {
        /// The player.
        player: Player,
    },
    /// 339: only the player with priority passes.
    NoPriority {
        /// Who holds priority.
        holder: Option<Player>,
    },
    /// 355.8: the object is not a legal target here.
    IllegalTarget {
        /// The object's name.
        name: String,
    },
    /// 355.3: the mode cannot be chosen here.
    IllegalMode {
        /// The mode (zero-based).
        mode: u8,
    },
    /// 751.1 or 753.1: a new choice must be legal now and, under the rulebook, one the item was
    /// not previously choosing.
    IllegalNewChoice {
        /// The rule (751.1 for a choice made before, else 753.1).
        rule: &'static str,
        /// The remade object's name; None for keeping the old choice.
        name: Option<String>,
        /// The rulebook's name.
        book: String,
    },
    /// 750: no new choices are being made now.
    NoNewChoices,
    /// 356.4.d-e: the payer orders whole-card discounts only while two or more apply whose
    /// order changes the total, and only those not yet applied.
    NoDiscountToOrder {
        /// True while some order is being chosen (the named discount is not among those left).
        ordering: bool,
    },
    /// The step is not due now: the rules call for another (the step's own rule).
    NotDue {
        /// The refused step's rule.
        rule: &'static str,
    },
}

/// A play that was undone (358.5): the item, its total cost and the pool that could not pay it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndonePlay {
    /// The item's name.
    pub item: String,
    /// Who played it.
    pub by: Player,
    /// Why it was undone.
    pub why: CancelWhy,
    /// The total cost and the pool, when a cost was determined.
    pub cost: Option<(String, String)>,
}

impl Refusal {
    /// The rule that refuses the step.
    pub fn rule(&self) -> &'static str {
        use Refusal::*;
        match self {
            Undone {
                step: Some(step), ..
            } => step.rule(),
            Undone { step: None, .. } => "358.5",
            NotAmongLooked | NothingToDraw => "416",
            DemandNeedsRunes | DemandRunesCommitted | NoSuchRune { .. } => "357.1.a",
            RuneOutOfOrder { .. } => "357.1.a",
            DemandUnpayable => "357",
            PowerForDemand => "131",
            PastLastExecution { .. } => "820.3",
            RepeatFirst { .. } | RepeatWithoutPlay | RepeatTooLate => "355.1.a",
            OptionalFirst => "402.1",
            ModeWithoutTargets { .. } => "355.16",
            KillsChosenTarget => "357.3",
            TooLittleMight { .. } => "357.2",
            AlreadyThere => "355.4.a",
            RepeatOnAbility { .. } => "820.1.a",
            NoSuchRepeat { .. } => "820.1.c",
            RepeatAlreadyPaid { .. } => "820.1.c.3",
            RepeatAlreadyDecided { .. } | RepeatOutOfOrder => "820.1.c.2",
            Over { .. } | ChainOpen | NoPlayYet => "334.1",
            PlaysUsed => "turn plays",
            Activation { rule, .. } | IllegalNewChoice { rule, .. } | NotDue { rule } => rule,
            ReactionOnly { .. } | CannotPlay { .. } => "358.4",
            NoPriority { .. } => "339",
            IllegalTarget { .. } => "355.8",
            IllegalMode { .. } => "355.3",
            NoNewChoices => "750",
            NoDiscountToOrder { .. } => "356.4.e",
        }
    }
}

impl fmt::Display for UndonePlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.why {
            CancelWhy::CannotPay => "its total cost cannot be paid",
            CancelWhy::NoLegalChoice => "a required choice has no legal option, 355.8",
            CancelWhy::TargetsIllegal => {
                "its cost can be paid only by killing a unit it chose, which is then an illegal target (358.1)"
            }
        };
        let cost = match &self.cost {
            Some((total, pool)) => format!(": total {total}, pool {pool}"),
            None => String::new(),
        };
        write!(
            f,
            "the play of {} was undone{cost} ({why}); the card is back in {} hand and nothing more is decided for that play",
            self.item,
            possessive(self.by)
        )
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            Undone { play, step: None } => write!(f, "{play}"),
            Undone { play, step: Some(step) } => write!(f, "{step}; {play} (358.5)"),
            NotAmongLooked => f.write_str("that card cannot be taken: \"reveal a unit\" takes a unit among the cards looked at, or none"),
            NothingToDraw => f.write_str("no card is to be drawn now (one was chosen, or none can be): the rest is recycled, one card at a time"),
            DemandNeedsRunes => f.write_str("the spell's controller's pool does not hold what the demand asks yet: exhaust runes first"),
            DemandUnpayable => f.write_str("the spell's controller cannot pay the demand from their pool or runes; they can only decline"),
            DemandRunesCommitted => f.write_str("runes were exhausted for this demand: it is paid (declining now would only leave their Energy floating, which this model leaves out)"),
            NoSuchRune { player, domain, exhaust } => {
                let what = if *exhaust { "ready " } else { "" };
                write!(f, "{player} has no {what}{} rune on the board", domain.letter())
            }
            PowerForDemand => f.write_str("a demand asks for Energy, which a recycled rune's Power does not pay"),
            RuneOutOfOrder { demand: true } => f.write_str("a rune is exhausted for a demand only while the pool lacks what it asks and the ready runes can make it up, domains in the order R G B O P Y (payments that end with the same runes are one)"),
            RuneOutOfOrder { demand: false } => f.write_str("a rune is used only while the cost still needs what it adds, all exhausting comes before any recycling, domains go in the order R G B O P Y (payments that end with the same runes are one), and no step that would leave a payable cost unpayable is offered"),
            PastLastExecution { item, executions, per, paid, instances, exec } => write!(
                f,
                "{item} has {executions} execution(s), one plus {per} for each paid Repeat instance ({paid} of {instances} paid); there is no execution {}",
                exec + 1
            ),
            RepeatFirst { instance } => write!(f, "Repeat instance {} is decided first: optional additional costs are chosen before modes and targets", instance + 1),
            OptionalFirst => f.write_str("the triggered ability's \"you may\" is decided first"),
            ModeWithoutTargets { mode } => write!(f, "mode {} has a target with no legal choice: choosing it would surely make the play illegal", mode + 1),
            KillsChosenTarget => f.write_str("a unit the play chose is not killed to pay its cost while another unit can pay: its target would then be illegal"),
            TooLittleMight { need } => write!(f, "the cost kills a friendly unit with {need} or more Might; this unit has less"),
            AlreadyThere => f.write_str("a unit cannot be moved to where it already is"),
            RepeatWithoutPlay => f.write_str("Repeat is decided while the item is being played (its choices step); no item is being played now"),
            RepeatOnAbility { book, card } => write!(f, "under {book} only spells have [Repeat]; {card} is an ability"),
            NoSuchRepeat { card, instances, instance } => write!(f, "{card} has {instances} Repeat instance(s), not {}", instance + 1),
            RepeatAlreadyPaid { instance } => write!(f, "Repeat instance {} was already paid; each instance can be paid only once", instance + 1),
            RepeatAlreadyDecided { instance } => write!(f, "Repeat instance {} was already decided", instance + 1),
            RepeatTooLate => f.write_str("Repeat is decided while playing, before modes and targets, not later"),
            RepeatOutOfOrder => f.write_str("Repeat instances are decided one at a time, in order"),
            Over { turn_ended: true } => f.write_str("the turn has ended: nothing more can be played"),
            Over { turn_ended: false } => f.write_str("the play's chain has closed and the scenario is one play"),
            PlaysUsed => f.write_str("every play the scenario's turn allows from the open state has been made (a limit of the scenario, not a rule)"),
            ChainOpen => f.write_str("the turn ends from the open state: the chain must close first"),
            NoPlayYet => f.write_str("the turn player ends the turn after a play of the turn (the scenario is about plays)"),
            Activation { why, .. } => f.write_str(why),
            ReactionOnly { player } => write!(f, "{player} may add to an existing chain only a [Reaction]"),
            CannotPlay { player } => write!(f, "{player} cannot play that now"),
            NoPriority { holder: Some(Player::YOU) } => f.write_str("you hold priority now"),
            NoPriority { holder: Some(_) } => f.write_str("the opponent holds priority now"),
            NoPriority { holder: None } => f.write_str("nobody holds priority now"),
            IllegalTarget { name } => write!(f, "{name} is not a legal choice here"),
            IllegalMode { mode } => write!(f, "mode {} cannot be chosen here", mode + 1),
            IllegalNewChoice { name, book, .. } => {
                match name {
                    Some(n) => write!(f, "{n} cannot be the new choice")?,
                    None => f.write_str("the old choice cannot be kept")?,
                }
                write!(f, ": a new choice must be legal now and, under {book}, one the item was not previously choosing")
            }
            NoNewChoices => f.write_str("no new choices are being made for this item now"),
            NotDue { .. } => f.write_str("the rules call for another step here"),
            NoDiscountToOrder { ordering: true } => f.write_str("that discount is not one left to order: it does not apply to this item, or it is ordered already, or it is alike to one offered"),
            NoDiscountToOrder { ordering: false } => f.write_str("no order of discounts is asked for: fewer than two whole-card discounts are left to apply, or their order cannot change the total (only a discount's own floor can), or more than 8 apply (the model then applies them in board order: the card's own first, then units as the board lists them)"),
        }
    }
}

impl Game {
    /// Why the model does not allow `a` in `s`; None when it does. Steps the model takes by
    /// itself (a forced step) count as allowed only where they are offered.
    pub fn refusal(&self, s: &State, a: &Action) -> Option<Refusal> {
        let mut enabled = vec![];
        self.actions(s, &mut enabled);
        if enabled.contains(a) {
            return None;
        }
        let gone = s.chain.iter().all(|i| !i.is_pending()) && is_play_step(a);
        Some(match gone.then(|| self.undone_play(s)).flatten() {
            Some(play) if matches!(a, Action::DetermineTotalCost | Action::PayCosts { .. }) => {
                Refusal::Undone { play, step: None }
            }
            Some(play) => Refusal::Undone {
                play,
                step: Some(Box::new(self.refused(s, a, &enabled))),
            },
            None => self.refused(s, a, &enabled),
        })
    }

    /// Why `a` is refused (any undone play aside), given the steps `enabled` now.
    fn refused(&self, s: &State, a: &Action, enabled: &[Action]) -> Refusal {
        if let Some(r) = refused_decision(a, enabled).or_else(|| rune_refused(s, a, enabled)) {
            return r;
        }
        let pending = s.chain.iter().find(|i| i.is_pending());
        if let Some(r) = self
            .past_last_execution(s, pending, a)
            .or_else(|| out_of_order(a, enabled))
            .or_else(|| self.choice_refused(s, a))
        {
            return r;
        }
        self.refused_step(s, a, enabled, pending)
    }

    /// The guards that leave a choice of the item being played out for a rule of their own.
    fn choice_refused(&self, s: &State, a: &Action) -> Option<Refusal> {
        let item = s.chain.iter().find(|i| i.is_pending())?;
        match *a {
            // 355.16: a mode a required target of which has no legal choice would surely make
            // the play fail (355.8), so it cannot be chosen.
            Action::ChooseMode { exec, mode } => {
                let card = self.card(item.card);
                let taken = card.distinct_modes
                    && item.choices[..usize::from(exec).min(item.choices.len())]
                        .iter()
                        .any(|c| c.mode == Some(mode));
                let exists = usize::from(mode) < card.modes.len();
                (exists && !taken && !self.mode_has_legal_choices(s, item, mode))
                    .then_some(Refusal::ModeWithoutTargets { mode })
            }
            // 357.3: killing a unit the item chose, while another unit could pay, surely makes
            // the play fail (the chosen target is then illegal, 358.1).
            Action::KillForCost { unit }
                if s.units.get(usize::from(unit)).is_some_and(|u| {
                    u.zone == crate::state::Zone::Board && u.current_might() < item.cost.kill_might
                }) =>
            {
                Some(Refusal::TooLittleMight {
                    need: item.cost.kill_might,
                })
            }
            Action::KillForCost { unit } => {
                let spared = unit_options(s, item);
                (chose(item, unit) && !spared.contains(&unit) && !spared.is_empty())
                    .then_some(Refusal::KillsChosenTarget)
            }
            // 355.4.a: a move's destination is not where the unit already is.
            Action::ChooseDestination { exec, slot, to } => {
                let ex = item.choices.get(usize::from(exec))?;
                let Some(Obj::Unit(u)) = ex.targets(slot).next() else {
                    return None;
                };
                (s.units.get(usize::from(u))?.loc == to).then_some(Refusal::AlreadyThere)
            }
            _ => None,
        }
    }

    /// A choice for an execution the item being played does not have (820.3).
    fn past_last_execution(
        &self,
        s: &State,
        pending: Option<&ChainItem>,
        a: &Action,
    ) -> Option<Refusal> {
        let (item, exec) = (pending?, exec_of(a)?);
        let per = self.rules.executions_per_instance();
        let executions = item.executions(per);
        if exec < executions || !item.repeat.iter().all(|r| r.decided) {
            return None;
        }
        Some(Refusal::PastLastExecution {
            item: self.item_name(s, item.id),
            executions,
            per,
            paid: item.repeat.iter().filter(|r| r.paid > 0).count(),
            instances: item.repeat.len(),
            exec,
        })
    }

    /// Why the step `a` stands for is refused, by the kind of step, once no earlier reason holds.
    fn refused_step(
        &self,
        s: &State,
        a: &Action,
        enabled: &[Action],
        pending: Option<&ChainItem>,
    ) -> Refusal {
        match *a {
            Action::DeclareRepeat { instance, .. } => self.repeat_refused(pending, instance),
            Action::MoveToChain { .. } | Action::EndTurn if s.is_over() => Refusal::Over {
                turn_ended: matches!(s.log.last(), Some(Event::TurnEnded)),
            },
            Action::MoveToChain { player, .. }
                if s.chain.is_empty() && player == Player::YOU && s.turn.plays_left == 0 =>
            {
                Refusal::PlaysUsed
            }
            Action::EndTurn if !s.chain.is_empty() => Refusal::ChainOpen,
            Action::EndTurn => Refusal::NoPlayYet,
            Action::ActivateAbility { gear } => match self.activation_refused(s, Player::YOU, gear)
            {
                Some((rule, why)) => Refusal::Activation { rule, why },
                None => Refusal::NotDue { rule: a.rule() },
            },
            // Priority first (339): a [Reaction] played by the player without priority is
            // refused for that, not for its timing.
            Action::MoveToChain { player, .. }
                if !s.chain.is_empty() && s.priority != Some(player) =>
            {
                Refusal::NoPriority { holder: s.priority }
            }
            Action::MoveToChain { player, .. } if !s.chain.is_empty() => {
                Refusal::ReactionOnly { player }
            }
            Action::MoveToChain { player, .. } => Refusal::CannotPlay { player },
            Action::Pass => Refusal::NoPriority { holder: s.priority },
            Action::ChooseTarget { obj, .. } => Refusal::IllegalTarget {
                name: self.obj_name(s, obj),
            },
            Action::ChooseMode { mode, .. } => Refusal::IllegalMode { mode },
            Action::RemakeChoice { .. } | Action::KeepChoice
                if enabled
                    .iter()
                    .any(|e| matches!(e, Action::RemakeChoice { .. } | Action::KeepChoice)) =>
            {
                let rule = match (self.rules.new_choices(), *a) {
                    (NewChoicesRule::WholeSet, _) => "753.1",
                    (_, Action::RemakeChoice { obj }) if self.chosen_before(s, obj) => "751.1",
                    _ => "753.1",
                };
                Refusal::IllegalNewChoice {
                    rule,
                    name: match *a {
                        Action::RemakeChoice { obj } => Some(self.obj_name(s, obj)),
                        _ => None,
                    },
                    book: self.rules.book().name.clone(),
                }
            }
            Action::RemakeChoice { .. } | Action::KeepChoice | Action::DeclineNewChoices => {
                Refusal::NoNewChoices
            }
            Action::OrderDiscount { .. } => Refusal::NoDiscountToOrder {
                ordering: enabled
                    .iter()
                    .any(|e| matches!(e, Action::OrderDiscount { .. })),
            },
            _ => Refusal::NotDue { rule: a.rule() },
        }
    }

    /// Why a Repeat instance cannot be declared now (355.1.a, 820.1).
    fn repeat_refused(&self, pending: Option<&ChainItem>, instance: u8) -> Refusal {
        let Some(item) = pending else {
            return Refusal::RepeatWithoutPlay;
        };
        let card = self.card(item.card);
        if card.kind == CardKind::Ability && !self.rules.repeat_on_abilities() {
            return Refusal::RepeatOnAbility {
                book: self.rules.book().name.clone(),
                card: card.name.clone(),
            };
        }
        match item.repeat.get(usize::from(instance)) {
            None => {
                return Refusal::NoSuchRepeat {
                    card: card.name.clone(),
                    instances: item.repeat.len(),
                    instance,
                }
            }
            Some(r) if r.decided && r.paid > 0 => return Refusal::RepeatAlreadyPaid { instance },
            Some(r) if r.decided => return Refusal::RepeatAlreadyDecided { instance },
            Some(_) => {}
        }
        if item.phase != Phase::Choosing || item.repeat.iter().all(|r| r.decided) {
            return Refusal::RepeatTooLate;
        }
        Refusal::RepeatOutOfOrder
    }

    /// When the last play was undone (358.5) and nothing was played since: what was undone, with
    /// the total cost and the pool that could not pay it.
    fn undone_play(&self, s: &State) -> Option<UndonePlay> {
        let (item, why) = s.log.iter().rev().find_map(|e| match *e {
            Event::PlayCancelled { item, why } => Some(Some((item, why))),
            Event::MovedToChain { .. } => Some(None),
            _ => None,
        })??;
        let by = s.log.iter().find_map(|e| match *e {
            Event::MovedToChain { item: i, by, .. } if i == item => Some(by),
            _ => None,
        })?;
        let cost = s.log.iter().rev().find_map(|e| match e {
            Event::CostDetermined { item: i, total, .. } if *i == item => {
                Some((total.to_string(), s.players[by.ix()].pool.to_string()))
            }
            _ => None,
        });
        Some(UndonePlay {
            item: self.item_name(s, item),
            by,
            why,
            cost,
        })
    }

    /// 751.1: whether the execution whose choice is being remade (the one at the cursor of the
    /// current new choices) chose `obj` before, as the rulebook's scope counts it. A refused new
    /// choice chosen before breaks 751.1; any other breaks 753.1 (it is not a legal choice now).
    fn chosen_before(&self, s: &State, obj: Obj) -> bool {
        let Some(for_item) = s.chain.iter().find_map(|i| match i.phase {
            Phase::NewChoices { for_item, .. } => Some(for_item),
            _ => None,
        }) else {
            return false;
        };
        let Some(target) = s.item(for_item) else {
            return false;
        };
        let start = s
            .log
            .iter()
            .rposition(|e| *e == Event::NewChoicesBegun { item: for_item })
            .unwrap_or(s.log.len());
        let cursor = s.log[start..]
            .iter()
            .filter(|e| {
                matches!(e, Event::ChoiceRemade { item, .. } | Event::ChoiceKept { item, .. } if *item == for_item)
            })
            .count();
        let execs: Vec<u8> = target
            .choices
            .iter()
            .enumerate()
            .flat_map(|(e, ex)| {
                ex.picks
                    .iter()
                    .filter(|p| matches!(p, Pick::Target { .. }))
                    .map(move |_| e as u8)
            })
            .collect();
        let Some(&exec) = execs.get(cursor) else {
            return false;
        };
        target.ever_chosen.iter().any(|(e, o)| {
            *o == obj
                && (*e == exec || self.rules.new_choices_scope() == NewChoicesScope::WholeItem)
        })
    }
}

/// Why a decision taken while an instruction executes (looking at the deck, a demand to pay) is
/// refused, if `a` is one and the model is waiting for one.
fn refused_decision(a: &Action, enabled: &[Action]) -> Option<Refusal> {
    let offers = |f: fn(&Action) -> bool| enabled.iter().any(f);
    Some(match a {
        Action::DrawLooked { .. } if offers(|e| matches!(e, Action::DrawLooked { .. })) => {
            Refusal::NotAmongLooked
        }
        Action::DrawLooked { .. } | Action::RecycleLooked { .. }
            if offers(|e| matches!(e, Action::RecycleLooked { .. })) =>
        {
            Refusal::NothingToDraw
        }
        Action::PayDemand { pay: true } if offers(|e| matches!(e, Action::ExhaustRune { .. })) => {
            Refusal::DemandNeedsRunes
        }
        Action::PayDemand { pay: true } if enabled.contains(&Action::PayDemand { pay: false }) => {
            Refusal::DemandUnpayable
        }
        Action::PayDemand { pay: false } if enabled.contains(&Action::PayDemand { pay: true }) => {
            Refusal::DemandRunesCommitted
        }
        _ => return None,
    })
}

/// The item answering a demand now and the player it asks (the controller of its target).
pub fn demand_payer(s: &State) -> Option<(u8, Player)> {
    s.chain.iter().find_map(|i| match i.phase {
        Phase::Demanding { target, .. } => s.item(target).map(|t| (i.id, t.controller)),
        _ => None,
    })
}

/// Why a rune step the model does not offer is refused, if `a` is one and a player with runes
/// is paying a cost or answering a demand.
fn rune_refused(s: &State, a: &Action, enabled: &[Action]) -> Option<Refusal> {
    let (Action::ExhaustRune { domain } | Action::RecycleRune { domain }) = *a else {
        return None;
    };
    let demand = demand_payer(s);
    let player = match s.chain.iter().find(|i| i.is_pending()) {
        Some(item) => item.controller,
        None => demand?.1,
    };
    let runes = s.players[player.ix()].runes.as_ref()?;
    let i = domain as usize;
    let exhaust = matches!(a, Action::ExhaustRune { .. });
    let has = if exhaust {
        runes.ready[i]
    } else {
        runes.ready[i] + runes.exhausted[i]
    };
    if has == 0 {
        return Some(Refusal::NoSuchRune {
            player,
            domain,
            exhaust,
        });
    }
    let paying = enabled.iter().any(|e| {
        matches!(
            e,
            Action::ExhaustRune { .. }
                | Action::RecycleRune { .. }
                | Action::PayCosts { .. }
                | Action::PayDemand { .. }
        )
    });
    if !paying {
        return None;
    }
    Some(match demand {
        Some(_) if !exhaust => Refusal::PowerForDemand,
        Some(_) => Refusal::RuneOutOfOrder { demand: true },
        None => Refusal::RuneOutOfOrder { demand: false },
    })
}

/// The execution a choice is for.
fn exec_of(a: &Action) -> Option<u8> {
    match *a {
        Action::ChooseMode { exec, .. }
        | Action::ChooseTarget { exec, .. }
        | Action::EndTargets { exec, .. }
        | Action::ChooseDestination { exec, .. } => Some(exec),
        _ => None,
    }
}

/// A choice made before the decisions that come first in 355's order (a [Repeat] instance, a
/// trigger's "you may").
fn out_of_order(a: &Action, enabled: &[Action]) -> Option<Refusal> {
    if matches!(a, Action::DeclareRepeat { .. }) {
        return None;
    }
    if let Some(&Action::DeclareRepeat { instance, .. }) = enabled
        .iter()
        .find(|e| matches!(e, Action::DeclareRepeat { .. }))
    {
        return Some(Refusal::RepeatFirst { instance });
    }
    let may_first = enabled
        .iter()
        .any(|e| matches!(e, Action::DecideOptional { .. }))
        && !matches!(a, Action::DecideOptional { .. });
    may_first.then_some(Refusal::OptionalFirst)
}

/// A step of playing an item (354–357): it needs an item being played.
fn is_play_step(a: &Action) -> bool {
    matches!(
        a,
        Action::DecideOptional { .. }
            | Action::DeclareRepeat { .. }
            | Action::ChooseMode { .. }
            | Action::ChooseTarget { .. }
            | Action::EndTargets { .. }
            | Action::ChooseDestination { .. }
            | Action::DetermineTotalCost
            | Action::PayCosts { .. }
    )
}
