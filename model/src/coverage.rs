//! The rule clauses the model cites, and which of them a transition applies: the clauses of its
//! step (`Action::citation`) plus those of the events it produced. A checker run counts them, so
//! that a rules person sees what a bound exercised and what it never reached. The tests hold this
//! table and every citation together: each clause cited is listed, and each listed clause can be
//! counted.

use crate::action::Action;
use crate::state::{DiscountSource, Event, Grant, IgnoredWhy};

pub mod uncited;

/// Every clause the model can cite, with what it is about.
pub const CLAUSES: &[(&str, &str)] = &[
    (
        "205",
        "\"you may pay\" is a game action, not a cost: decided as it executes",
    ),
    ("354", "move a card to the chain"),
    (
        "354.3",
        "what a resolving item plays waits until it finishes",
    ),
    (
        "355.1.a",
        "optional additional costs (Repeat, Accelerate...) decided while playing",
    ),
    ("355.3", "modes chosen while playing"),
    ("355.4", "move destinations chosen while playing"),
    ("355.5", "targets chosen while playing"),
    ("355.8", "every target needs a legal choice"),
    ("355.13", "\"up to\": fewer targets"),
    ("356", "determine the total cost"),
    ("356.2.a.2", "Deflect is a mandatory additional cost"),
    (
        "356.2.b",
        "optional additional costs (Repeat, Accelerate...) added",
    ),
    (
        "356.3",
        "cost increases (a unit chosen by an opponent's item)",
    ),
    ("356.4.c", "component discounts (Ezreal, Marai Spire)"),
    ("356.4.d", "whole-card discounts once"),
    (
        "356.4.e",
        "a discount's own floor; the payer orders discounts where it matters",
    ),
    ("356.4.f.1", "an optional cost reduced to 0 still paid"),
    ("357", "pay the costs"),
    (
        "357.1.a",
        "runes exhausted ([1]) and recycled (Power) while paying",
    ),
    (
        "164.2",
        "a basic rune: \"[E]: Add [1]\", \"Recycle this: Add [C]\"",
    ),
    ("358", "check legality"),
    ("358.5", "a play that cannot be completed is undone"),
    ("359", "finalize"),
    ("359.3.d", "a spell goes to the trash after resolving"),
    (
        "359.3.e",
        "instructions executed, targets checked as they execute",
    ),
    ("359.3.e.5", "illegal targets are unaffected"),
    (
        "359.3.e.6",
        "instructions that cannot be followed are ignored",
    ),
    (
        "359.3.e.7",
        "an instruction with every target illegal does not execute",
    ),
    (
        "359.3.e.12",
        "a calculation on a departed source is ignored",
    ),
    ("359.3.e.14", "linked instructions"),
    ("359.3.e.15", "an item leaving the chain stops executing"),
    ("321", "cleanup after resolution"),
    ("338.1.b", "priority passes to the next player"),
    ("339", "pass priority"),
    ("340.1", "the newest finalized item resolves"),
    ("340.2", "the chain closes"),
    ("334.1", "the end of the turn: \"this turn\" effects end"),
    ("167", "the rune pool empties at the end of the turn"),
    ("383.3", "a triggered ability goes on the chain"),
    (
        "401",
        "an activated ability goes on the chain as a pending item",
    ),
    (
        "145.2",
        "a gear's activated ability only in its controller's open main phase",
    ),
    ("SFD-078", "Temporal Portal gives the next spell [Repeat]"),
    (
        "206",
        "what reads a card's cost reads its printed cost (Temporal Portal's [Repeat])",
    ),
    (
        "356.1.c",
        "\"base cost\" reads the printed base cost (The Academy's [Repeat])",
    ),
    (
        "383.4.b.2",
        "Targeting Effects after the targeting item is finalized",
    ),
    (
        "383.4.a.2",
        "a permanent's play trigger goes on the chain after it entered the board",
    ),
    ("402.1", "a trigger's \"you may\""),
    (
        "402.1.a",
        "a declined \"you may\" removes the trigger: not a counter",
    ),
    (
        "419.4.a",
        "\"when you play\" triggers when the play completes",
    ),
    (
        "419.4.b",
        "finalized cards count as played for Legion-style checks",
    ),
    ("425.1", "counter"),
    ("425.1.c", "no refund on counter"),
    ("750", "new choices"),
    ("751.1", "a new choice is one not previously made"),
    (
        "752.2",
        "choices made as it was played (Repeat) are not remade",
    ),
    ("753", "remake any subset of the choices"),
    ("754", "Targeting Effects of newly chosen objects"),
    ("809.1.c", "Deflect per choice"),
    ("820.1.a", "Repeat on abilities"),
    ("820.1.c.2", "each Repeat instance decided individually"),
    ("820.1.c.3", "each Repeat instance paid once"),
    ("820.1.d.2", "instructions not performed are ignored"),
    ("820.2.a", "each execution's own choices, in order"),
    ("820.3", "one more execution per instance paid"),
    ("820.3.a", "a repeated item is played once"),
    // ---- where the digest gives no rule number, the card code stands ----
    ("416", "recycle: a card goes to the bottom of the main deck"),
    (
        "359.3.e.9.a",
        "what an item chose is counted (Not So Fast, Repulse)",
    ),
    (
        "SFD-122",
        "look at the top of the main deck, draw one (Called Shot)",
    ),
    (
        "UNL-032",
        "you may reveal a unit looked at and draw it (Double Trouble)",
    ),
    (
        "SFD-136",
        "counter unless its controller pays, their decision (Hard Bargain)",
    ),
    (
        "OGN-047",
        "channel runes exhausted (Find Your Center; counted only for a pool-only player)",
    ),
    // Combat statuses and Might.
    ("807.2", "[Assault] granted this turn, summed"),
    ("423.1", "stun a unit"),
    ("415.1", "ready a unit"),
    (
        "417.6.b.3",
        "two units deal damage equal to their Mights to each other",
    ),
    ("355.10.d", "a group picked by its tag, not targeted"),
    (
        "423.1.a.1",
        "already stunned: returned to its owner's hand instead (a new object, 124)",
    ),
    // Costs other than [Repeat], where units enter, tokens played.
    (
        "355.2",
        "the location a unit or token enters chosen while playing",
    ),
    ("350.2", "a token is played"),
    ("359.2", "a unit enters the board exhausted when finalized"),
    ("805", "Accelerate: the unit enters ready"),
    ("356.2.a", "mandatory additional costs added"),
    (
        "357.2",
        "non-standard costs paid: a card discarded, a unit or gear exhausted or killed",
    ),
    (
        "356.7",
        "non-standard costs: a friendly unit exhausted or killed",
    ),
    ("414.4", "only a ready unit can be exhausted to pay a cost"),
];

/// The clauses a step applies by itself (`Citation::applies`).
pub fn action_clauses(a: &Action) -> &'static [&'static str] {
    a.citation().applies
}

/// The clauses an event shows were applied.
pub fn event_clauses(e: &Event) -> &'static [&'static str] {
    match e {
        Event::RepeatDeclared { pay: true, .. } => &["820.1.c.3"],
        Event::RepeatCostAdded {
            cost, discard: 0, ..
        } if cost.is_zero() => &["356.2.b", "356.4.f.1"],
        Event::RepeatCostAdded { .. } => &["356.2.b"],
        Event::DiscountApplied {
            source: DiscountSource::SelfDiscount | DiscountSource::Unit(_),
            ..
        } => &["356.4.d"],
        Event::DiscountOrdered { .. } => &["356.4.e"],
        Event::CostIncreased { .. } => &["356.3"],
        Event::DiscountApplied { .. } => &["356.4.c"],
        Event::DeflectAdded { .. } => &["356.2.a.2", "809.1.c"],
        Event::Finalized { .. } => &["419.4.b"],
        Event::ExecutionStarted { exec, .. } if *exec > 0 => &["820.3"],
        Event::Ignored {
            why: IgnoredWhy::TargetsIllegal,
            ..
        } => &["359.3.e.7", "820.1.d.2"],
        Event::Ignored {
            why: IgnoredWhy::LinkedNotExecuted,
            ..
        } => &["359.3.e.14", "820.1.d.2"],
        Event::Ignored {
            why: IgnoredWhy::SourceGone,
            ..
        } => &["359.3.e.12", "820.1.d.2"],
        Event::Ignored {
            why: IgnoredWhy::Impossible,
            ..
        } => &["359.3.e.6", "820.1.d.2"],
        Event::Performed { linked: true, .. } => &["359.3.e.14"],
        Event::TargetUnaffected { .. } => &["359.3.e.5"],
        Event::TokenQueued { .. } => &["354.3"],
        Event::Triggered { .. } => &["383.3"],
        Event::Played { .. } => &["419.4.a", "820.3.a"],
        Event::Countered { .. } => &["425.1", "425.1.c"],
        Event::LeftChain { .. } => &["359.3.e.15"],
        Event::ChoiceRemade { .. } => &["751.1"],
        Event::NewChoicesBegun { .. } => &["752.2"],
        Event::ChainClosed => &["340.2"],
        Event::Recycled { .. } => &["416"],
        Event::ChosenChecked { .. } => &["359.3.e.9.a"],
        Event::DrewLooked { .. } => &["SFD-122"],
        Event::Revealed { .. } => &["UNL-032"],
        // An item asks its own controller only for a "you may pay" (it never targets itself).
        Event::DemandDecided { item, target, .. } if item == target => &["205"],
        Event::DemandDecided { .. } => &["SFD-136"],
        Event::RunesChannelled { .. } => &["OGN-047"],
        Event::AssaultGiven { .. } => &["807.2"],
        Event::Stunned { .. } => &["423.1"],
        Event::Readied { .. } => &["415.1"],
        Event::MightsExchanged { .. } => &["417.6.b.3"],
        Event::GroupAffected { .. } => &["355.10.d"],
        // Only "stun it; if it's already stunned, return it ... instead" returns a unit to hand.
        Event::ZoneChange {
            to: crate::state::Zone::Hand,
            ..
        } => &["423.1.a.1"],
        Event::OptionalCostAdded { cost, .. } if cost.is_zero() => &["356.2.b", "356.4.f.1"],
        Event::OptionalCostAdded { .. } => &["356.2.b"],
        Event::UnitEntered { ready: true, .. } => &["359.2", "805"],
        Event::UnitEntered { .. } | Event::GearEntered { .. } => &["359.2"],
        Event::AdditionalCostAdded { .. } => &["356.2.a"],
        Event::Discarded { .. } => &["357.2"],
        Event::PaidWithUnit { .. } => &["356.7"],
        Event::RuneExhausted { .. } | Event::RuneRecycled { .. } => &["357.1.a"],
        Event::DemandRuneExhausted { .. } => &["357.1.a", "SFD-136"],
        Event::RuneChannelled { .. } => &["OGN-047"],
        Event::GrantGiven { .. } => &["SFD-078"],
        Event::GearExhausted { .. } => &["357.2"],
        Event::TurnEnded => &["334.1"],
        Event::PoolEmptied { .. } => &["167"],
        Event::OptionalDecided {
            accepted: false, ..
        } => &["402.1.a"],
        Event::GrantTaken {
            grant: Grant::Portal,
            ..
        } => &["206"],
        Event::GrantTaken {
            grant: Grant::Academy,
            ..
        } => &["356.1.c"],
        Event::Cleanup => &["321"],
        _ => &[],
    }
}

/// The index of a clause in `CLAUSES`.
pub fn clause_index(c: &str) -> Option<usize> {
    CLAUSES.iter().position(|(k, _)| *k == c)
}

/// Extra clauses that depend on what happened around an event, not on the event alone.
pub fn context_clauses(new: &[Event], repeat_on_ability: bool) -> Vec<&'static str> {
    let mut out = vec![];
    // A permanent's play trigger once it entered the board (383.4.a.2); a Targeting Effect
    // right after the item was finalized (383.4.b.2), or during new choices (754).
    if new.iter().any(|e| matches!(e, Event::Triggered { .. })) {
        if new.iter().any(|e| matches!(e, Event::UnitEntered { .. })) {
            out.push("383.4.a.2");
        } else if new.iter().any(|e| matches!(e, Event::Finalized { .. })) {
            out.push("383.4.b.2");
        }
        if new.iter().any(|e| matches!(e, Event::ChoiceRemade { .. })) {
            out.push("754");
        }
    }
    if repeat_on_ability {
        out.push("820.1.a");
    }
    // A token's play completes as it enters the board (350.2): only tokens enter by a zone change.
    if new.iter().any(|e| matches!(e, Event::Played { .. }))
        && new.iter().any(|e| {
            matches!(
                e,
                Event::ZoneChange {
                    to: crate::state::Zone::Board,
                    ..
                }
            )
        })
    {
        out.push("350.2");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::Cost;
    use crate::state::{Location, Obj, Player};

    /// One action of every kind; the match makes a new kind a compile error here until listed.
    fn every_kind() -> Vec<Action> {
        let all = vec![
            Action::MoveToChain {
                player: Player::YOU,
                hand: 0,
            },
            Action::DecideOptional { accept: true },
            Action::DeclareRepeat {
                instance: 0,
                pay: true,
            },
            Action::ChooseMode { exec: 0, mode: 0 },
            Action::ChooseTarget {
                exec: 0,
                slot: 0,
                obj: Obj::Unit(0),
            },
            Action::EndTargets { exec: 0, slot: 0 },
            Action::ChooseDestination {
                exec: 0,
                slot: 0,
                to: Location::Battlefield(0),
            },
            Action::DetermineTotalCost,
            Action::PayCosts { any: [0; 6] },
            Action::ExhaustRune {
                domain: crate::cost::Domain::Fury,
            },
            Action::RecycleRune {
                domain: crate::cost::Domain::Fury,
            },
            Action::CancelPlay {
                why: crate::state::CancelWhy::CannotPay,
            },
            Action::CheckLegality,
            Action::Finalize,
            Action::Pass,
            Action::Resolve,
            Action::Execute,
            Action::FinishResolution,
            Action::Cleanup,
            Action::KeepChoice,
            Action::RemakeChoice { obj: Obj::Unit(0) },
            Action::DeclineNewChoices,
            Action::ReopenRepeat { instance: 0 },
            Action::DrawLooked { index: None },
            Action::RecycleLooked { index: 0 },
            Action::PayDemand { pay: true },
            Action::DeclareOptionalCost {
                index: 0,
                pay: true,
            },
            Action::ChooseLocation {
                to: Location::Base(Player::YOU),
            },
            Action::ChooseReduction {
                component: crate::state::Component::Repeat(0),
                less: crate::state::Reduction::Power,
            },
            Action::OrderDiscount {
                source: DiscountSource::SelfDiscount,
            },
            Action::DiscardForCost { card: None },
            Action::ExhaustForCost { unit: 0 },
            Action::KillForCost { unit: 0 },
            Action::EndTurn,
            Action::ActivateAbility { gear: 0 },
        ];
        for a in &all {
            match a {
                Action::MoveToChain { .. }
                | Action::DecideOptional { .. }
                | Action::DeclareRepeat { .. }
                | Action::ChooseMode { .. }
                | Action::ChooseTarget { .. }
                | Action::EndTargets { .. }
                | Action::ChooseDestination { .. }
                | Action::DetermineTotalCost
                | Action::PayCosts { .. }
                | Action::ExhaustRune { .. }
                | Action::RecycleRune { .. }
                | Action::CancelPlay { .. }
                | Action::CheckLegality
                | Action::Finalize
                | Action::Pass
                | Action::Resolve
                | Action::Execute
                | Action::FinishResolution
                | Action::Cleanup
                | Action::KeepChoice
                | Action::RemakeChoice { .. }
                | Action::DeclineNewChoices
                | Action::ReopenRepeat { .. }
                | Action::DrawLooked { .. }
                | Action::RecycleLooked { .. }
                | Action::PayDemand { .. } => {}
                Action::DeclareOptionalCost { .. }
                | Action::ChooseLocation { .. }
                | Action::ChooseReduction { .. }
                | Action::OrderDiscount { .. }
                | Action::DiscardForCost { .. }
                | Action::ExhaustForCost { .. }
                | Action::KillForCost { .. } => {}
                Action::EndTurn | Action::ActivateAbility { .. } => {}
            }
        }
        all
    }

    /// One event for each arm of `event_clauses`.
    fn every_cited_event() -> Vec<Event> {
        let ignored = |why| Event::Ignored {
            item: 0,
            exec: 0,
            slot: 0,
            why,
        };
        let discount = |source| Event::DiscountApplied {
            item: 0,
            source,
            amount: 1,
        };
        let repeat_cost = |cost| Event::RepeatCostAdded {
            item: 0,
            instance: 0,
            cost,
            discard: 0,
        };
        vec![
            Event::RepeatDeclared {
                item: 0,
                instance: 0,
                pay: true,
            },
            repeat_cost(Cost::ZERO),
            repeat_cost(Cost::energy(1)),
            discount(DiscountSource::SelfDiscount),
            discount(DiscountSource::Ezreal),
            discount(DiscountSource::Unit(0)),
            Event::DiscountOrdered {
                item: 0,
                source: DiscountSource::SelfDiscount,
            },
            Event::CostIncreased {
                item: 0,
                unit: 0,
                amount: 1,
            },
            Event::DeflectAdded {
                item: 0,
                unit: 0,
                amount: 1,
            },
            Event::Finalized { item: 0 },
            Event::ExecutionStarted { item: 0, exec: 1 },
            ignored(IgnoredWhy::TargetsIllegal),
            ignored(IgnoredWhy::LinkedNotExecuted),
            ignored(IgnoredWhy::SourceGone),
            ignored(IgnoredWhy::Impossible),
            Event::Performed {
                item: 0,
                exec: 0,
                slot: 1,
                linked: true,
            },
            Event::TargetUnaffected {
                item: 0,
                exec: 0,
                obj: Obj::Unit(0),
            },
            Event::TokenQueued { item: 0 },
            Event::Triggered { card: 0, source: 0 },
            Event::Played {
                item: 0,
                by: Player::YOU,
            },
            Event::Countered { item: 0, by: 1 },
            Event::LeftChain { item: 0 },
            Event::ChoiceRemade {
                item: 0,
                exec: 0,
                slot: 0,
                obj: Obj::Unit(0),
            },
            Event::NewChoicesBegun { item: 0 },
            Event::ChainClosed,
            Event::Recycled {
                who: Player::YOU,
                card: crate::state::DeckCard::Other,
            },
            Event::ChosenChecked {
                item: 0,
                target: 1,
                met: true,
            },
            Event::DrewLooked {
                who: Player::YOU,
                card: crate::state::DeckCard::Other,
            },
            Event::Revealed {
                who: Player::YOU,
                card: 0,
            },
            Event::DemandDecided {
                item: 0,
                target: 1,
                by: Player::OPP,
                paid: false,
                energy: 2,
            },
            Event::DemandDecided {
                item: 0,
                target: 0,
                by: Player::YOU,
                paid: true,
                energy: 1,
            },
            Event::RunesChannelled {
                who: Player::YOU,
                n: 1,
            },
            Event::AssaultGiven { unit: 0, amount: 2 },
            Event::Stunned { unit: 0 },
            Event::Readied { unit: 0 },
            Event::MightsExchanged { a: 0, b: 1 },
            Event::GroupAffected {
                item: 0,
                exec: 0,
                n: 1,
            },
            Event::ZoneChange {
                obj: Obj::Unit(0),
                to: crate::state::Zone::Hand,
            },
            Event::OptionalCostAdded {
                item: 0,
                index: 0,
                cost: Cost::ZERO,
            },
            Event::OptionalCostAdded {
                item: 0,
                index: 0,
                cost: Cost::energy(1),
            },
            Event::UnitEntered {
                item: 0,
                unit: 0,
                at: Location::Base(Player::YOU),
                ready: true,
            },
            Event::UnitEntered {
                item: 0,
                unit: 0,
                at: Location::Base(Player::YOU),
                ready: false,
            },
            Event::AdditionalCostAdded {
                item: 0,
                discard: 1,
            },
            Event::Discarded {
                item: 0,
                who: Player::YOU,
                card: None,
            },
            Event::RuneExhausted {
                item: 0,
                who: Player::YOU,
                domain: crate::cost::Domain::Fury,
            },
            Event::RuneRecycled {
                item: 0,
                who: Player::YOU,
                domain: crate::cost::Domain::Fury,
                ready: false,
            },
            Event::RuneChannelled {
                who: Player::YOU,
                domain: crate::cost::Domain::Calm,
            },
            Event::DemandRuneExhausted {
                item: 0,
                who: Player::OPP,
                domain: crate::cost::Domain::Fury,
            },
            Event::PaidWithUnit {
                item: 0,
                unit: 0,
                cost: crate::card::AdditionalCost::KillFriendlyUnit { min_might: 0 },
            },
            Event::GrantGiven {
                item: 0,
                who: Player::YOU,
                grant: crate::state::Grant::Portal,
            },
            Event::GearExhausted { item: 0, gear: 0 },
            Event::PoolEmptied {
                who: Player::YOU,
                amount: crate::cost::Cost::default(),
            },
            Event::OptionalDecided {
                item: 0,
                accepted: false,
            },
            Event::GrantTaken {
                item: 0,
                who: Player::YOU,
                grant: crate::state::Grant::Portal,
            },
            Event::GrantTaken {
                item: 0,
                who: Player::YOU,
                grant: crate::state::Grant::Academy,
            },
        ]
    }

    /// The clauses a citation's text names: "355.1.a, 820.1.c.2–3" names 355.1.a, 820.1.c.2 and
    /// 820.1.c.3; "751–753" names 751, 752 and 753.
    fn named(text: &str) -> Vec<String> {
        let mut out = vec![];
        for part in text.split(", ") {
            let Some((first, last)) = part.split_once('–') else {
                out.push(part.to_string());
                continue;
            };
            let (prefix, from) = match first.rsplit_once('.') {
                Some((p, f)) => (format!("{p}."), f),
                None => (String::new(), first),
            };
            let (from, to): (u32, u32) = (from.parse().unwrap(), last.parse().unwrap());
            out.extend((from..=to).map(|n| format!("{prefix}{n}")));
        }
        out
    }

    /// `clause` is `named` or one of its subclauses.
    fn within(clause: &str, named: &str) -> bool {
        clause == named || clause.starts_with(&format!("{named}."))
    }

    #[test]
    fn every_cited_clause_is_listed() {
        for a in every_kind() {
            let c = a.citation();
            assert!(
                !c.text.contains('-'),
                "{}: the digest writes ranges with –",
                a.name()
            );
            let names = named(c.text);
            for n in &names {
                assert!(
                    CLAUSES.iter().any(|(k, _)| within(k, n)),
                    "{}: cites {n}, which the clause table lacks",
                    a.name()
                );
            }
            for cl in c.applies {
                assert!(clause_index(cl).is_some(), "{}: {cl} not listed", a.name());
                assert!(
                    names.iter().any(|n| within(cl, n)),
                    "{}: applies {cl} without citing it",
                    a.name()
                );
            }
        }
        for e in every_cited_event() {
            assert!(!event_clauses(&e).is_empty(), "{e:?} cites nothing");
            for cl in event_clauses(&e) {
                assert!(clause_index(cl).is_some(), "{e:?}: {cl} not listed");
            }
        }
        for (c, _) in CLAUSES {
            assert_eq!(
                CLAUSES.iter().filter(|(k, _)| k == c).count(),
                1,
                "{c} listed twice"
            );
        }
    }

    #[test]
    fn every_listed_clause_can_be_counted() {
        let context = [
            Event::Triggered { card: 0, source: 0 },
            Event::Finalized { item: 0 },
            Event::ChoiceRemade {
                item: 0,
                exec: 0,
                slot: 0,
                obj: Obj::Unit(0),
            },
            Event::Played {
                item: 0,
                by: Player::YOU,
            },
            Event::ZoneChange {
                obj: Obj::Unit(0),
                to: crate::state::Zone::Board,
            },
        ];
        let mut counted: Vec<&str> = context_clauses(&context, true);
        let entered = Event::UnitEntered {
            item: 0,
            unit: 0,
            at: crate::state::Location::Base(Player::YOU),
            ready: false,
        };
        counted.extend(context_clauses(&[context[0], entered], false));
        for a in every_kind() {
            counted.extend(action_clauses(&a));
        }
        for e in every_cited_event() {
            counted.extend(event_clauses(&e));
        }
        for (c, _) in CLAUSES {
            assert!(counted.contains(c), "{c} is listed but nothing applies it");
        }
    }

    #[test]
    fn each_step_doc_opens_with_its_citation() {
        let source = include_str!("action.rs");
        let lines: Vec<&str> = source.lines().collect();
        for a in every_kind() {
            let name = a.name();
            let at = lines
                .iter()
                .position(|l| {
                    let l = l.trim_start();
                    l == format!("{name},") || l == format!("{name} {{")
                })
                .unwrap_or_else(|| panic!("{name} not declared"));
            let first_doc = (0..at)
                .rev()
                .take_while(|&i| lines[i].trim_start().starts_with("///"))
                .last()
                .unwrap_or_else(|| panic!("{name} has no doc"));
            let expected = format!("/// {}: ", a.citation().text);
            assert!(
                lines[first_doc].trim_start().starts_with(&expected),
                "{name}'s doc should open with \"{expected}\": {}",
                lines[first_doc]
            );
        }
    }
}
