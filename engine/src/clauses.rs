//! The rule clauses a case applies, and the clauses a citation names: the common ground of the
//! conformance table (what a passing case passed) and the naming of a cause (the step a
//! statement stands for; the suspects of a finding count clauses per step, in `spectrum`).
//! Read from the model's own citations (`Action::citation`, `model::coverage`).

use model::action::Action;
use model::coverage::{clause_index, event_clauses};
use model::state::{Location, Obj};
use rbcheck_case::ast::{Case, PlayStmt, RuneUse};
use std::collections::BTreeMap;

/// The model step a play statement stands for, with the clauses it cites (the rules' words
/// for "what the player does here").
pub(crate) fn statement_step(p: &PlayStmt) -> Action {
    use model::state::{Component, Player, Reduction};
    match p {
        PlayStmt::Play { .. } => Action::MoveToChain {
            player: Player::YOU,
            hand: 0,
        },
        PlayStmt::Pass { .. } => Action::Pass,
        PlayStmt::May { perform } => Action::DecideOptional { accept: *perform },
        PlayStmt::Repeat { pay, .. } => Action::DeclareRepeat {
            instance: 0,
            pay: *pay,
        },
        PlayStmt::Mode { .. } => Action::ChooseMode { exec: 0, mode: 0 },
        PlayStmt::Target { .. } => Action::ChooseTarget {
            exec: 0,
            slot: 0,
            obj: Obj::Unit(0),
        },
        PlayStmt::NoMoreTargets { .. } => Action::EndTargets { exec: 0, slot: 0 },
        PlayStmt::Destination { .. } => Action::ChooseDestination {
            exec: 0,
            slot: 0,
            to: Location::Base(Player::YOU),
        },
        PlayStmt::Pay { .. } => Action::PayCosts { any: [0; 6] },
        PlayStmt::NewChoices { .. } => Action::KeepChoice,
        PlayStmt::DeclineNewChoices { .. } => Action::DeclineNewChoices,
        PlayStmt::Optional { pay, .. } => Action::DeclareOptionalCost {
            index: 0,
            pay: *pay,
        },
        PlayStmt::Location { .. } => Action::ChooseLocation {
            to: Location::Base(Player::YOU),
        },
        PlayStmt::Reduce { .. } => Action::ChooseReduction {
            component: Component::Repeat(0),
            less: Reduction::Energy,
        },
        PlayStmt::Discard { .. } => Action::DiscardForCost { card: None },
        PlayStmt::Discount { .. } => Action::OrderDiscount {
            source: model::state::DiscountSource::SelfDiscount,
        },
        PlayStmt::PayWithUnit { kill: true, .. } => Action::KillForCost { unit: 0 },
        PlayStmt::PayWithUnit { kill: false, .. } => Action::ExhaustForCost { unit: 0 },
        PlayStmt::LookDraw { .. } => Action::DrawLooked { index: None },
        PlayStmt::LookRecycle { .. } => Action::RecycleLooked { index: 0 },
        PlayStmt::Demand { pay } => Action::PayDemand { pay: *pay },
        PlayStmt::Rune { how, domain } => match how {
            RuneUse::Exhaust => Action::ExhaustRune { domain: *domain },
            RuneUse::Recycle => Action::RecycleRune { domain: *domain },
        },
        // `close` is passes until the chain closes (339, 340.2).
        PlayStmt::Close => Action::Pass,
        PlayStmt::EndTurn => Action::EndTurn,
        PlayStmt::Activate { .. } => Action::ActivateAbility { gear: 0 },
    }
}

/// The clauses the model step of a play statement applies.
pub fn step_clauses(p: &PlayStmt) -> &'static [&'static str] {
    statement_step(p).citation().applies
}

/// Per clause, the passing cases counted during a run and the first of them.
#[derive(Clone, Debug, Default)]
pub struct Passed(pub BTreeMap<String, (usize, usize)>);

impl Passed {
    /// Counts case `i`, which the engine passed, under every clause its model run applies.
    pub fn count(&mut self, case: &Case, i: usize) {
        for c in applied(case) {
            self.0.entry(c.to_string()).or_insert((0, i)).0 += 1;
        }
    }
}

/// The clauses the model applies on a case: each statement's step and each event of its run.
pub fn applied(case: &Case) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = vec![];
    let steps = case
        .plays
        .iter()
        .flat_map(|p| step_clauses(&p.stmt).iter().copied());
    let log = rbcheck_case::replay::replay(case, None)
        .map(|r| r.state.log.iter().copied().collect::<Vec<_>>())
        .unwrap_or_default();
    let events = log.iter().flat_map(|e| event_clauses(e).iter().copied());
    for c in steps.chain(events) {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The clauses a cited rule text names (`355.1.a, 820.1.c.2–3` -> `355.1.a`, `820.1.c.2`,
/// `820.1.c.3`): each number of the text, a range's end completed from its start.
pub fn clauses_of(cited: &str) -> Vec<String> {
    let mut out = vec![];
    for part in cited.split([',', ';']) {
        let part = part.trim();
        let range = part
            .split_once(['–', '-'])
            .filter(|_| clause_index(part).is_none());
        match range {
            Some((a, b)) if is_clause(a.trim()) => {
                let (a, b) = (a.trim(), b.trim());
                out.push(a.to_string());
                // `820.1.c.2–3`: the end completes the start's stem; `356-357` is whole.
                match a.rsplit_once('.') {
                    Some((stem, _)) if !b.contains('.') => out.push(format!("{stem}.{b}")),
                    _ if is_clause(b) => out.push(b.to_string()),
                    _ => {}
                }
            }
            Some(_) => {}
            None if is_clause(part) => out.push(part.to_string()),
            None => {}
        }
    }
    out.dedup();
    out
}

/// A rule number of the digest or a card code (`SFD-078`), not words.
fn is_clause(s: &str) -> bool {
    !s.is_empty()
        && !s.contains(' ')
        && (s.starts_with(|c: char| c.is_ascii_digit()) || clause_index(s).is_some())
}
