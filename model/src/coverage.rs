//! The rule clauses the model cites, and which of them a transition applies: the clauses of its
//! step plus those of the events it produced. A checker run counts them, so that a rules person
//! sees what a bound exercised and what it never reached.

use crate::action::Action;
use crate::state::{DiscountSource, Event, IgnoredWhy};

/// Every clause the model can cite, with what it is about.
pub const CLAUSES: &[(&str, &str)] = &[
    ("354", "move a card to the chain"),
    (
        "354.3",
        "what a resolving item plays waits until it finishes",
    ),
    ("355.1.a", "Repeat decided while playing"),
    ("355.3", "modes chosen while playing"),
    ("355.4", "move destinations chosen while playing"),
    ("355.5", "targets chosen while playing"),
    ("355.8", "every target needs a legal choice"),
    ("355.13", "\"up to\": fewer targets"),
    ("356", "determine the total cost"),
    ("356.2.a.2", "Deflect is a mandatory additional cost"),
    ("356.2.b", "optional additional costs (Repeat) added"),
    ("356.4.c", "component discounts (Ezreal, Marai Spire)"),
    ("356.4.d", "whole-card discounts once"),
    ("356.4.f.1", "an optional cost reduced to 0 still paid"),
    ("357", "pay the costs"),
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
    ("339", "pass priority"),
    ("340.1", "the newest finalized item resolves"),
    ("340.2", "the chain closes"),
    ("383.3", "a triggered ability goes on the chain"),
    (
        "383.4.b.2",
        "Targeting Effects after the targeting item is finalized",
    ),
    ("402.1", "a trigger's \"you may\""),
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
];

/// The clauses a step applies by itself.
pub fn action_clauses(a: &Action) -> &'static [&'static str] {
    match a {
        Action::MoveToChain { .. } => &["354"],
        Action::DecideOptional { .. } => &["402.1"],
        Action::DeclareRepeat { .. } => &["355.1.a", "820.1.c.2"],
        Action::ChooseMode { .. } => &["355.3", "820.2.a"],
        Action::ChooseTarget { .. } => &["355.5", "355.8", "820.2.a"],
        Action::EndTargets { .. } => &["355.13"],
        Action::ChooseDestination { .. } => &["355.4"],
        Action::DetermineTotalCost => &["356"],
        Action::PayCosts { .. } => &["357"],
        Action::CancelPlay { .. } => &["358.5"],
        Action::CheckLegality => &["358"],
        Action::Finalize => &["359"],
        Action::Pass => &["339"],
        Action::Resolve => &["340.1"],
        Action::Execute => &["359.3.e"],
        Action::FinishResolution => &["359.3.d"],
        Action::Cleanup => &["321"],
        Action::KeepChoice | Action::RemakeChoice { .. } => &["753"],
        Action::DeclineNewChoices => &["750"],
        Action::ReopenRepeat { .. } => &[],
    }
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
            source: DiscountSource::SelfDiscount,
            ..
        } => &["356.4.d"],
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
        Event::TargetUnaffected { .. } => &["359.3.e.5"],
        Event::TokenQueued { .. } => &["354.3"],
        Event::Triggered { .. } => &["383.3"],
        Event::Played { .. } => &["419.4.a", "820.3.a"],
        Event::Countered { .. } => &["425.1", "425.1.c"],
        Event::LeftChain { .. } => &["359.3.e.15"],
        Event::ChoiceRemade { .. } => &["751.1"],
        Event::ChainClosed => &["340.2"],
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
    // A Targeting Effect right after the item was finalized (383.4.b.2), or during new choices (754).
    if new.iter().any(|e| matches!(e, Event::Triggered { .. })) {
        if new.iter().any(|e| matches!(e, Event::Finalized { .. })) {
            out.push("383.4.b.2");
        }
        if new.iter().any(|e| matches!(e, Event::ChoiceRemade { .. })) {
            out.push("754");
        }
    }
    if repeat_on_ability {
        out.push("820.1.a");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cited_clause_is_listed() {
        let actions = [
            Action::MoveToChain {
                player: crate::state::Player::YOU,
                hand: 0,
            },
            Action::DecideOptional { accept: true },
            Action::DeclareRepeat {
                instance: 0,
                pay: true,
            },
            Action::ChooseMode { exec: 0, mode: 0 },
            Action::EndTargets { exec: 0, slot: 0 },
            Action::DetermineTotalCost,
            Action::PayCosts { any: [0; 6] },
            Action::CheckLegality,
            Action::Finalize,
            Action::Pass,
            Action::Resolve,
            Action::Execute,
            Action::FinishResolution,
            Action::Cleanup,
            Action::KeepChoice,
            Action::DeclineNewChoices,
        ];
        for a in actions {
            for c in action_clauses(&a) {
                assert!(clause_index(c).is_some(), "{c}");
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
}
