//! Plain-English renderings of actions and events with card names, for counterexamples that a
//! rules person reads without reading Rust.

use crate::action::Action;
use crate::game::Game;
use crate::state::{CancelWhy, DeckCard, DiscountSource, Event, IgnoredWhy, Obj, Player, State};

/// A player as an owner: "your", "opponent's" (not "you's").
pub fn possessive(p: Player) -> &'static str {
    if p.ix() == 0 {
        "your"
    } else {
        "opponent's"
    }
}

impl Game {
    /// A discount as reports name it: a unit's by the unit, the others by their card.
    pub fn discount_name(&self, s: &State, source: DiscountSource) -> String {
        match source {
            DiscountSource::Unit(u) => format!("{}'s discount", self.obj_name(s, Obj::Unit(u))),
            other => other.to_string(),
        }
    }

    /// A name for an object, as the board shows it.
    pub fn obj_name(&self, s: &State, obj: Obj) -> String {
        match obj {
            Obj::Unit(u) => match s.units.get(u as usize) {
                Some(unit) if unit.token => format!(
                    "{} {}-Might token (unit {})",
                    possessive(unit.controller),
                    unit.might,
                    u + 1
                ),
                Some(unit) => format!(
                    "{} {} (unit {})",
                    possessive(unit.controller),
                    self.card(unit.card).name,
                    u + 1
                ),
                None => format!("unit {}", u + 1),
            },
            Obj::Gear(g) => match s.gear.get(g as usize) {
                Some(gear) => format!(
                    "{} {} (gear {})",
                    possessive(gear.controller),
                    self.card(gear.card).name,
                    g + 1
                ),
                None => format!("gear {}", g + 1),
            },
            Obj::Item(i) => self.item_name(s, i),
        }
    }

    /// A name for a chain item: its card and id.
    pub fn item_name(&self, s: &State, item: u8) -> String {
        let card = s.item(item).map(|i| i.card).or_else(|| {
            s.log.iter().find_map(|e| match e {
                Event::MovedToChain { item: i, card, .. } if *i == item => Some(*card),
                _ => None,
            })
        });
        match card {
            Some(c) => format!("{} (item {})", self.card(c).name, item + 1),
            None => format!("item {}", item + 1),
        }
    }

    /// One line saying what an action does in state `s`, with its rule.
    pub fn describe_action(&self, s: &State, a: &Action) -> String {
        let text = match *a {
            Action::MoveToChain { player, hand } => {
                let card = s.players[player.ix()]
                    .hand
                    .get(hand as usize)
                    .map(|c| self.card(*c).name.as_str())
                    .unwrap_or("?");
                format!("{player} put {card} on the chain")
            }
            Action::ChooseTarget { exec, slot, obj } => {
                format!(
                    "execution {}: instruction {} targets {}",
                    exec + 1,
                    slot + 1,
                    self.obj_name(s, obj)
                )
            }
            Action::ChooseMode { exec, mode } => {
                let item = s.chain.iter().find(|i| i.is_pending());
                let text = item
                    .and_then(|i| self.card(i.card).modes.get(mode as usize))
                    .map(|m| m.text.as_str())
                    .unwrap_or("");
                format!("execution {}: mode {} \"{}\"", exec + 1, mode + 1, text)
            }
            Action::RemakeChoice { obj } => format!("new choice: {}", self.obj_name(s, obj)),
            _ => a.to_string(),
        };
        format!("{text}  [{}]", a.rule())
    }

    /// One line for an event, or None for bookkeeping not worth a line.
    pub fn describe_event(&self, s: &State, e: &Event) -> Option<String> {
        Some(match e {
            Event::TargetsEnded { .. } | Event::LegalityChecked { .. } => return None,
            Event::MovedToChain { .. }
            | Event::OptionalDecided { .. }
            | Event::RepeatDeclared { .. }
            | Event::ModeChosen { .. }
            | Event::TargetChosen { .. }
            | Event::DestinationChosen { .. }
            | Event::Finalized { .. } => self.describe_play(s, e),
            Event::RepeatCostAdded { .. }
            | Event::DiscountApplied { .. }
            | Event::DeflectAdded { .. }
            | Event::CostDetermined { .. }
            | Event::CostPaid { .. }
            | Event::PlayCancelled { .. } => self.describe_cost(s, e),
            Event::Passed { .. }
            | Event::WindowOpened { .. }
            | Event::ResolveStarted { .. }
            | Event::ExecutionStarted { .. }
            | Event::Performed { .. }
            | Event::Ignored { .. }
            | Event::TargetUnaffected { .. }
            | Event::TokenQueued { .. }
            | Event::Triggered { .. }
            | Event::Played { .. }
            | Event::Resolved { .. }
            | Event::Countered { .. }
            | Event::Refunded { .. }
            | Event::LeftChain { .. }
            | Event::ControlChanged { .. }
            | Event::Cleanup
            | Event::ChainClosed => self.describe_resolution(s, e),
            Event::Damaged { .. }
            | Event::MightChanged { .. }
            | Event::ZoneChange { .. }
            | Event::UnitMoved { .. }
            | Event::Drew { .. } => self.describe_board(s, e),
            Event::GrantTaken { item, grant, .. } => format!(
                "item {} takes the {grant:?} grant \"the next spell you play this turn\"",
                u16::from(*item) + 1
            ),
            Event::GrantGiven { who, grant, .. } => format!(
                "the {grant:?} grant \"the next spell you play this turn\" is now held by {who}"
            ),
            Event::GearExhausted { gear, .. } => format!(
                "{} is exhausted to pay its ability's [E]",
                self.obj_name(s, Obj::Gear(*gear))
            ),
            Event::GearEntered { gear, .. } => format!(
                "{} enters the board ready, in its controller's base",
                self.obj_name(s, Obj::Gear(*gear))
            ),
            Event::TurnEnded => "the turn ends: \"this turn\" effects and unused grants end".into(),
            Event::PoolEmptied { who, amount } => {
                format!("{who}'s rune pool empties at the end of the turn: {amount} is gone")
            }
            Event::Stunned { unit } => format!("{} is stunned", self.obj_name(s, Obj::Unit(*unit))),
            Event::Readied { unit } => format!("{} is readied", self.obj_name(s, Obj::Unit(*unit))),
            Event::AssaultGiven { unit, amount } => format!(
                "{} is given [Assault {amount}] this turn",
                self.obj_name(s, Obj::Unit(*unit))
            ),
            Event::MightsExchanged { a, b } => format!(
                "{} and {} deal damage equal to their Mights to each other",
                self.obj_name(s, Obj::Unit(*a)),
                self.obj_name(s, Obj::Unit(*b))
            ),
            Event::GroupAffected { item, n, .. } => {
                format!(
                    "{} affects a group of {n} unit(s)",
                    self.item_name(s, *item)
                )
            }
            Event::NewChoicesBegun { .. }
            | Event::ChoiceRemade { .. }
            | Event::ChoiceKept { .. }
            | Event::NewChoicesEnded { .. } => self.describe_new_choices(s, e),
            Event::LookedAt { .. }
            | Event::Revealed { .. }
            | Event::DrewLooked { .. }
            | Event::Recycled { .. }
            | Event::DemandDecided { .. }
            | Event::ChosenChecked { .. }
            | Event::RevealDeclined { .. }
            | Event::RunesChannelled { .. } => self.describe_deck(s, e),
            Event::OptionalCostDeclared { .. }
            | Event::OptionalCostAdded { .. }
            | Event::ReductionChosen { .. }
            | Event::DiscountOrdered { .. }
            | Event::CostIncreased { .. }
            | Event::LocationChosen { .. }
            | Event::UnitEntered { .. }
            | Event::AdditionalCostAdded { .. }
            | Event::Discarded { .. }
            | Event::RuneExhausted { .. }
            | Event::RuneRecycled { .. }
            | Event::RuneChannelled { .. }
            | Event::DemandRuneExhausted { .. }
            | Event::PaidWithUnit { .. } => self.describe_other_costs(s, e),
        })
    }

    /// Events of optional costs other than [Repeat], reductions, and where units enter
    /// (355.1.a, 355.2, 356.4.c, 359.2).
    fn describe_other_costs(&self, s: &State, e: &Event) -> String {
        let it = |i: u8| self.item_name(s, i);
        match *e {
            Event::OptionalCostDeclared { item, index, pay } => format!(
                "{}: optional cost {} {}",
                it(item),
                index + 1,
                if pay { "will be paid" } else { "not paid" }
            ),
            Event::OptionalCostAdded { item, index, cost } => {
                format!("{}: optional cost {} adds {cost}", it(item), index + 1)
            }
            Event::ReductionChosen {
                item,
                component,
                less,
            } => format!("{}: {component:?} costs one {less:?} less", it(item)),
            Event::DiscountOrdered { item, source } => format!(
                "{}: {} applies before the discounts not yet ordered (356.4.e)",
                it(item),
                self.discount_name(s, source)
            ),
            Event::CostIncreased { item, unit, amount } => format!(
                "{}: choosing {} makes it cost [{amount}] more (356.3)",
                it(item),
                self.obj_name(s, Obj::Unit(unit))
            ),
            Event::LocationChosen { item, to } => format!("{}: will enter at {to}", it(item)),
            Event::UnitEntered {
                unit, at, ready, ..
            } => format!(
                "{} enters the board at {at}, {}",
                self.obj_name(s, Obj::Unit(unit)),
                if ready { "ready" } else { "exhausted" }
            ),
            Event::AdditionalCostAdded { item, discard } => {
                format!("{}: additional cost Discard {discard}", it(item))
            }
            Event::PaidWithUnit { item, unit, cost } => format!(
                "{}: {} pays \"{}\"",
                it(item),
                self.obj_name(s, Obj::Unit(unit)),
                cost.text()
            ),
            Event::Discarded { item, who, card } => format!(
                "{}: {who} discards {}",
                it(item),
                card.map_or("another card".to_string(), |c| self.card(c).name.clone())
            ),
            Event::RuneExhausted { item, who, domain } => {
                format!("{}: {who} exhaust a {domain:?} rune: add [1]", it(item))
            }
            Event::DemandRuneExhausted { item, who, domain } => format!(
                "{}: {who} exhaust a {domain:?} rune: add [1] to pay the demand",
                it(item)
            ),
            Event::RuneRecycled {
                item,
                who,
                domain,
                ready,
            } => format!(
                "{}: {who} recycle a{} {domain:?} rune: add [{}]",
                it(item),
                if ready { " ready" } else { "n exhausted" },
                domain.letter()
            ),
            Event::RuneChannelled { who, domain } => {
                format!("{who} channel a {domain:?} rune exhausted")
            }
            _ => unreachable!("not this group's event"),
        }
    }

    /// Events of putting an item on the chain, choosing and finalizing (354–355, 359).
    fn describe_play(&self, s: &State, e: &Event) -> String {
        let it = |i: u8| self.item_name(s, i);
        match *e {
            Event::MovedToChain { item, by, .. } => {
                format!("{} is pending on the chain, controlled by {by}", it(item))
            }
            Event::OptionalDecided { item, accepted } => {
                format!(
                    "{}: \"you may\" {}",
                    it(item),
                    if accepted { "performed" } else { "declined" }
                )
            }
            Event::RepeatDeclared {
                item,
                instance,
                pay,
            } => {
                format!(
                    "{}: Repeat instance {} {}",
                    it(item),
                    instance + 1,
                    if pay { "will be paid" } else { "not paid" }
                )
            }
            Event::ModeChosen { item, exec, mode } => format!(
                "{}: execution {} chooses mode {}",
                it(item),
                exec + 1,
                mode + 1
            ),
            Event::TargetChosen {
                item, exec, obj, ..
            } => {
                format!(
                    "{}: execution {} chooses {}",
                    it(item),
                    exec + 1,
                    self.obj_name(s, obj)
                )
            }
            Event::DestinationChosen { item, exec, to, .. } => {
                format!("{}: execution {} moves to {to}", it(item), exec + 1)
            }
            Event::Finalized { item } => format!("{} is finalized", it(item)),
            _ => unreachable!("not this group's event"),
        }
    }

    /// Events of determining and paying the cost, or undoing the play (356–358).
    fn describe_cost(&self, s: &State, e: &Event) -> String {
        let it = |i: u8| self.item_name(s, i);
        match *e {
            Event::RepeatCostAdded {
                item,
                instance,
                cost,
                discard,
            } => {
                if discard > 0 {
                    format!(
                        "{}: Repeat instance {} adds Discard {discard}",
                        it(item),
                        instance + 1
                    )
                } else {
                    format!("{}: Repeat instance {} adds {cost}", it(item), instance + 1)
                }
            }
            Event::DiscountApplied {
                item,
                source,
                amount,
            } => format!(
                "{}: {} takes {amount} off (356.4)",
                it(item),
                self.discount_name(s, source)
            ),
            Event::DeflectAdded { item, unit, amount } => {
                format!(
                    "{}: Deflect of {} adds [A]x{amount}",
                    it(item),
                    self.obj_name(s, Obj::Unit(unit))
                )
            }
            Event::CostDetermined {
                item,
                total,
                discard,
            } => {
                let d = if discard > 0 {
                    format!(" and Discard {discard}")
                } else {
                    String::new()
                };
                format!("{}: total cost {total}{d}", it(item))
            }
            Event::CostPaid {
                item,
                paid,
                discarded,
            } => {
                let d = if discarded > 0 {
                    format!(", discarded {discarded}")
                } else {
                    String::new()
                };
                format!("{}: paid {paid}{d}", it(item))
            }
            Event::PlayCancelled { item, why } => format!(
                "{}: play undone ({})",
                it(item),
                match why {
                    CancelWhy::NoLegalChoice => "no legal choice, 355.8",
                    CancelWhy::CannotPay => "cost cannot be paid, 357",
                    CancelWhy::TargetsIllegal => "its cost kills a unit it chose, 358.1",
                }
            ),
            _ => unreachable!("not this group's event"),
        }
    }

    /// Events of priority, resolution and cleanup (321, 339–340, 359.3, 425).
    fn describe_resolution(&self, s: &State, e: &Event) -> String {
        let it = |i: u8| self.item_name(s, i);
        match *e {
            Event::Passed { by } => format!("{by} passed"),
            Event::WindowOpened { item } => {
                format!("a priority window opens inside {}'s resolution", it(item))
            }
            Event::ResolveStarted { item } => format!("{} starts resolving", it(item)),
            Event::ExecutionStarted { item, exec } => {
                format!("{}: execution {} starts", it(item), exec + 1)
            }
            Event::Performed {
                item,
                exec,
                slot,
                linked,
            } => format!(
                "{}: execution {} instruction {} performed{}",
                it(item),
                exec + 1,
                slot + 1,
                if linked {
                    ", on what the instruction before it acted on"
                } else {
                    ""
                }
            ),
            Event::Ignored {
                item,
                exec,
                slot,
                why,
            } => format!(
                "{}: execution {} instruction {} ignored ({})",
                it(item),
                exec + 1,
                slot + 1,
                match why {
                    IgnoredWhy::TargetsIllegal => "every target is illegal, 359.3.e.7",
                    IgnoredWhy::LinkedNotExecuted =>
                        "linked to an instruction that did not execute, 359.3.e.14",
                    IgnoredWhy::SourceGone => "its source is gone, 359.3.e.12",
                    IgnoredWhy::Impossible => "it cannot be followed, 359.3.e.6",
                }
            ),
            Event::TargetUnaffected { obj, .. } => format!(
                "{} is an illegal target now and is unaffected",
                self.obj_name(s, obj)
            ),
            Event::TokenQueued { item } => format!("{}: a token waits until it finishes", it(item)),
            Event::Triggered { card, source } => {
                format!(
                    "{} triggers ({})",
                    self.card(card).name,
                    self.obj_name(s, Obj::Unit(source))
                )
            }
            Event::Played { item, by } => {
                format!("{} has been played by {by} (play event)", it(item))
            }
            Event::Resolved { item } => format!("{} finished resolving", it(item)),
            Event::Countered { item, by } => format!("{} is countered by {}", it(item), it(by)),
            Event::Refunded { item } => format!("{}: costs refunded", it(item)),
            Event::LeftChain { item } => format!("{} leaves the chain", it(item)),
            Event::ControlChanged { item, to } => format!("{} is now controlled by {to}", it(item)),
            Event::Cleanup => "cleanup".to_string(),
            Event::ChainClosed => "the chain is empty and closes".to_string(),
            _ => unreachable!("not this group's event"),
        }
    }

    /// Events on the board: damage, Might, zones, moves, draws.
    fn describe_board(&self, s: &State, e: &Event) -> String {
        match *e {
            Event::Damaged { unit, amount } => {
                format!("{} is dealt {amount}", self.obj_name(s, Obj::Unit(unit)))
            }
            Event::MightChanged { unit, by } => {
                format!("{} gets {by:+} Might", self.obj_name(s, Obj::Unit(unit)))
            }
            Event::ZoneChange { obj, to } => format!("{} goes to {to:?}", self.obj_name(s, obj)),
            Event::UnitMoved { unit, to } => {
                format!("{} moves to {to}", self.obj_name(s, Obj::Unit(unit)))
            }
            Event::Drew { who, n } => {
                format!("{who} draw{} {n}", if who.0 == 0 { "" } else { "s" })
            }
            _ => unreachable!("not this group's event"),
        }
    }

    /// Events of the main deck, demands to pay and channelled runes.
    fn describe_deck(&self, s: &State, e: &Event) -> String {
        let card = |c: DeckCard| match c {
            DeckCard::Named(id) => format!("\"{}\"", self.card(id).name),
            DeckCard::Other => "an other card".to_string(),
        };
        match *e {
            Event::LookedAt { item, who, n } => format!(
                "{}: {who} look{} at the top {n} of the main deck",
                self.item_name(s, item),
                if who.0 == 0 { "" } else { "s" }
            ),
            Event::Revealed { who, card: c } => {
                format!(
                    "{who} reveal{} \"{}\"",
                    if who.0 == 0 { "" } else { "s" },
                    self.card(c).name
                )
            }
            Event::DrewLooked { who, card: c } => {
                format!(
                    "{who} draw{} {}",
                    if who.0 == 0 { "" } else { "s" },
                    card(c)
                )
            }
            Event::Recycled { who, card: c } => {
                format!(
                    "{} goes to the bottom of {who}'s main deck (recycled, 416)",
                    card(c)
                )
            }
            Event::DemandDecided {
                item,
                target,
                by,
                paid,
                energy,
            } if item == target => format!(
                "{}: {by} {} [{energy}] (\"you may pay\", 205)",
                self.item_name(s, item),
                if paid { "pays" } else { "declines to pay" },
            ),
            Event::DemandDecided {
                item,
                target,
                by,
                paid,
                ..
            } => format!(
                "{}: {by} {} for {}",
                self.item_name(s, item),
                if paid { "pays" } else { "declines to pay" },
                self.item_name(s, target)
            ),
            Event::ChosenChecked { item, target, met } => format!(
                "{}: {} {} what it requires (359.3.e.9.a)",
                self.item_name(s, item),
                self.item_name(s, target),
                if met { "chose" } else { "did not choose" }
            ),
            Event::RevealDeclined { who } => format!("{who} take(s) none of the cards looked at"),
            Event::RunesChannelled { who, n } => format!("{who} channel {n} rune(s) exhausted"),
            _ => unreachable!("not this group's event"),
        }
    }

    /// Events of making new choices (750–755).
    fn describe_new_choices(&self, s: &State, e: &Event) -> String {
        let it = |i: u8| self.item_name(s, i);
        match *e {
            Event::NewChoicesBegun { item } => format!("{}: new choices begin", it(item)),
            Event::ChoiceRemade {
                item, exec, obj, ..
            } => {
                format!(
                    "{}: execution {} now chooses {}",
                    it(item),
                    exec + 1,
                    self.obj_name(s, obj)
                )
            }
            Event::ChoiceKept { item, exec, .. } => {
                format!("{}: execution {} keeps its choice", it(item), exec + 1)
            }
            Event::NewChoicesEnded { item } => format!("{}: new choices end", it(item)),
            _ => unreachable!("not this group's event"),
        }
    }
}
