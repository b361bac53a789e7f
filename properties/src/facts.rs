//! What a state's event log says, gathered in one pass for all the properties.
//!
//! Every property reads the log, and read one by one they would walk it once each (some once per
//! item): over half of the checker's time went there. Instead the first property asked about a
//! state folds its log into [`Facts`], per item and overall, and the others read those. The
//! result is kept for the state last asked about on each thread, because a checker asks every
//! property about one state before it goes on to the next; and the next state's log usually
//! extends that one's (a depth-first search goes from a state to its successor), so only its
//! new events are folded (the observers of SPIN's never claims and TLA+'s history variables:
//! a summary updated per event, not recomputed per state).
//!
//! The definitions each fact stands for are the plain ones in `invariants::reference` (tests
//! only); a test checks that both agree on every state of the bounded universe under every
//! rulebook, wrong ones included.

use model::state::{DiscountSource, Event, Obj, State, Zone};
use model::Cost;
use std::cell::RefCell;

/// A set of small numbers (instances, executions: all `u8`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Set256([u64; 4]);

impl Set256 {
    /// Adds `n`; whether it was already there.
    fn insert(&mut self, n: u8) -> bool {
        let (w, b) = ((n >> 6) as usize, 1u64 << (n & 63));
        let had = self.0[w] & b != 0;
        self.0[w] |= b;
        had
    }

    /// Whether every member of `self` is in `other`.
    pub fn is_subset(&self, other: &Set256) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    /// Whether it has no member.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The smallest member of `self` that `other` lacks.
    pub fn first_not_in(&self, other: &Set256) -> Option<u8> {
        (0..=255u8).find(|&n| {
            let (w, b) = ((n >> 6) as usize, 1u64 << (n & 63));
            self.0[w] & b != 0 && other.0[w] & b == 0
        })
    }
}

/// What the log says about one item (a chain item id).
#[derive(Clone, Copy, Default, Debug)]
pub struct ItemFacts {
    /// It was put on the chain (`MovedToChain`) at least once.
    pub on_chain: bool,
    /// The controller named by its first `MovedToChain`: who pays its costs.
    pub payer: Option<model::state::Player>,
    /// `RepeatDeclared` events for it.
    pub declared: u32,
    /// `RepeatDeclared` events for it with `pay: true`.
    pub paid: u32,
    /// The instances declared paid.
    pub paid_instances: Set256,
    /// Some instance was declared paid twice.
    pub paid_twice: bool,
    /// A `RepeatDeclared` for it came after its first `Finalized`.
    pub declared_after_finalized: bool,
    /// `ExecutionStarted` events for it.
    pub executions: u32,
    /// The executions it started.
    pub ran: Set256,
    /// The executions it chose something for (mode, target, end of targets, destination).
    pub chose: Set256,
    /// A choice for it came after its first `Finalized`.
    pub chose_after_finalized: bool,
    /// It was finalized.
    pub finalized: bool,
    /// It finished resolving (`Resolved`).
    pub resolved: bool,
    /// It left the chain without resolving (`LeftChain`).
    pub left_chain: bool,
    /// `Played` events for it.
    pub plays: u32,
    /// It was countered.
    pub countered: bool,
    /// Its own whole-card discount was applied this many times.
    pub self_discounts: u32,
    /// The units whose whole-card discount was applied to it (bit per unit number).
    pub unit_discounts: u64,
    /// A unit's whole-card discount was applied to it twice.
    pub unit_discounted_twice: bool,
    /// A [Repeat] instance of it was added at a cost of 0 (no discard either).
    pub zero_cost_repeat: bool,
    /// A choice of it was remade (new choices).
    pub remade: bool,
    /// What was paid for it, summed.
    pub paid_cost: Cost,
    /// Its play was undone (`PlayCancelled`, 358.5).
    pub undone: bool,
    /// What runes exhausted or recycled while paying for it added, by the rune's controller.
    pub runes_added: [Cost; 2],
    /// The [`Mark`]s it bears, as of the last event about it.
    marks: u16,
}

impl ItemFacts {
    /// It resolved and did not leave the chain some other way: it ran all its executions.
    pub fn resolved_whole(&self) -> bool {
        self.resolved && !self.left_chain
    }

    /// A unit's whole-card discount was applied to it (`DiscountApplied` from unit `u`).
    fn unit_discount(&mut self, u: u8) {
        let bit = 1u64 << (u % 64);
        self.unit_discounted_twice |= self.unit_discounts & bit != 0;
        self.unit_discounts |= bit;
    }
}

/// A condition on one item's facts that a property looks for in every item: each item's marks
/// are worked out again only when an event about it is folded, so a state's check reads one
/// word instead of walking every item once per property (a history variable, kept per item).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mark {
    /// Some [Repeat] instance was declared paid twice (820.1.c.3).
    PaidTwice,
    /// It resolved whole with other than 1 + (instances paid) executions (820.3).
    WrongExecutions,
    /// It was played more than once, or played and countered (820.3.a, 419.4).
    WrongPlays,
    /// A choice was made after it was finalized, or an execution ran with no choice of its
    /// own while others had theirs (355.15, 820.2).
    ChoicesUnfixed,
    /// A whole-card discount was applied to it twice (356.4).
    DiscountedTwice,
    /// It had a [Repeat] instance added at a cost of 0 and resolved whole with other than
    /// 1 + (instances paid) executions (356.4.f.1).
    ZeroCostLost,
    /// It had a [Repeat] instance added at a cost of 0 and resolved whole with two
    /// executions or more (356.4.f.1, a witness).
    ZeroCostReached,
    /// A [Repeat] decision for it came after it was finalized (752.2).
    RepeatReopened,
    /// Three [Repeat] instances declared, two paid, three executions (820.1.c.2, a witness).
    TwoOfThree,
    /// Countered with an instance paid (425.1, a witness).
    CounteredRepeated,
    /// A choice remade with an instance paid (750-755, a witness).
    RemadeRepeated,
}

impl Mark {
    /// Its bit in a set of marks.
    const fn bit(self) -> u16 {
        1 << self as u16
    }

    /// The marks item `i` bears: every condition at once, in straight-line code, since it is
    /// worked out for each item an event is folded about.
    fn of(i: &ItemFacts) -> u16 {
        let whole = i.on_chain && i.resolved_whole();
        let runs_wrong = whole && i.executions != 1 + i.paid;
        // An item that chose anything chose for every execution it ran.
        let unfixed = i.chose_after_finalized || !(i.chose.is_empty() || i.ran.is_subset(&i.chose));
        let on_chain = [
            (
                Mark::WrongPlays,
                i.plays > 1 || (i.countered && i.plays > 0),
            ),
            (Mark::ChoicesUnfixed, unfixed),
            (
                Mark::DiscountedTwice,
                i.self_discounts > 1 || i.unit_discounted_twice,
            ),
            (Mark::RepeatReopened, i.declared_after_finalized),
            (
                Mark::TwoOfThree,
                i.declared == 3 && i.paid == 2 && i.executions == 3,
            ),
        ];
        let anywhere = [
            (Mark::PaidTwice, i.paid_twice),
            (Mark::WrongExecutions, runs_wrong),
            (Mark::ZeroCostLost, runs_wrong && i.zero_cost_repeat),
            (
                Mark::ZeroCostReached,
                whole && i.zero_cost_repeat && i.executions >= 2,
            ),
            (Mark::CounteredRepeated, i.countered && i.paid > 0),
            (Mark::RemadeRepeated, i.remade && i.paid > 0),
        ];
        let bits = |marks: &[(Mark, bool)]| {
            marks
                .iter()
                .fold(0, |b, &(m, on)| b | (u16::from(on) << m as u16))
        };
        bits(&anywhere) | if i.on_chain { bits(&on_chain) } else { 0 }
    }
}

/// What the log says, per item and overall.
#[derive(Clone, Default, Debug)]
pub struct Facts {
    /// Indexed by item id; items never mentioned keep the default.
    pub items: Vec<ItemFacts>,
    /// The first event that did something while another item resolved, or made two
    /// resolutions overlap (158.3): its index in the log.
    pub window_during_resolution: Option<u32>,
    /// The first event that did something to an object after it went to the trash, or sent it
    /// there twice: its index in the log.
    pub touched_after_gone: Option<u32>,
    /// The first execution k ≥ 1 that left a target unaffected that execution k − 1 of the same
    /// item had sent to the trash or a hand, as (item, execution).
    pub target_removed_by_previous_execution: Option<(u8, u8)>,
    /// The log's indices of the events the grant account reads (items put on the chain,
    /// grants given and taken, plays undone, the turn's end), in order: a few of a log's
    /// events, so that account need not walk the whole log of every state.
    pub grant_events: Vec<u32>,
    /// Grants given or taken so far (`GrantGiven`, `GrantTaken`): with none, and none held at
    /// the start, nobody ever held a grant.
    pub grant_moves: u32,
    /// What left each player's pool: paid for the items they put on the chain, paid on
    /// demands, emptied at the end of the turn; summed as it happened.
    spent: [Cost; 2],
    /// What each player's runes added for plays not undone (so far) and for demands.
    produced: [Cost; 2],
    /// The [`Mark`]s some item bears.
    marks: u16,
    /// The items an event was folded about since their marks were last worked out, a bit per
    /// item id (ids from 63 up share the last bit).
    touched: u64,
}

impl Facts {
    /// Whether some item bears `mark`.
    #[inline]
    pub fn any(&self, mark: Mark) -> bool {
        self.marks & mark.bit() != 0
    }

    /// The first item (by id) that bears `mark`, with its id.
    pub fn first(&self, mark: Mark) -> Option<(u8, ItemFacts)> {
        self.items
            .iter()
            .enumerate()
            .find(|(_, i)| i.marks & mark.bit() != 0)
            .map(|(id, i)| (id as u8, *i))
    }

    /// The items that were put on the chain.
    pub fn chained(&self) -> impl Iterator<Item = &ItemFacts> {
        self.items.iter().filter(|i| i.on_chain)
    }

    /// What left each player's pool: what they paid for the items they put on the chain and
    /// on demands, and what left it as it emptied at the end of the turn (166–167).
    pub fn spent(&self) -> [Cost; 2] {
        self.spent
    }

    /// What each player's runes added to their pool for plays that were not undone, and for
    /// demands: the part of the pool that did not come from the start.
    pub fn runes_produced(&self) -> [Cost; 2] {
        self.produced
    }

    /// Back to the facts of an empty log, keeping the buffers.
    fn clear(&mut self) {
        self.items.clear();
        self.window_during_resolution = None;
        self.touched_after_gone = None;
        self.target_removed_by_previous_execution = None;
        self.spent = [Cost::ZERO; 2];
        self.produced = [Cost::ZERO; 2];
        self.grant_events.clear();
        self.grant_moves = 0;
        self.marks = 0;
        self.touched = 0;
    }

    /// Folds `events`, which follow the events `cur` has read, into `self`.
    fn fold(&mut self, events: &[Event], cur: &mut Cursor) {
        for e in events {
            self.note_grant_event(e, cur.at);
            self.read(e, cur);
            cur.at += 1;
        }
        self.remark();
    }

    /// Works out again the marks of the items events were folded about, then which marks some
    /// item bears.
    fn remark(&mut self) {
        let mut touched = std::mem::take(&mut self.touched);
        while touched != 0 {
            let id = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let end = if id == 63 {
                self.items.len().max(id)
            } else {
                id + 1
            };
            for i in self.items.get_mut(id..end).unwrap_or_default() {
                i.marks = Mark::of(i);
            }
        }
        self.marks = self.items.iter().fold(0, |m, i| m | i.marks);
    }

    /// Lists the event at `at` if the grant account reads it (see `grant_events`).
    #[inline]
    fn note_grant_event(&mut self, e: &Event, at: u32) {
        match e {
            Event::GrantTaken { .. } | Event::GrantGiven { .. } => {
                self.grant_moves += 1;
                self.grant_events.push(at);
            }
            Event::MovedToChain { .. } | Event::PlayCancelled { .. } | Event::TurnEnded => {
                self.grant_events.push(at)
            }
            _ => {}
        }
    }

    /// Folds one event into the facts of its item and into the resolution window, the fold's
    /// main step; what happens to objects is left to [`Facts::read_object`].
    #[inline]
    fn read(&mut self, e: &Event, cur: &mut Cursor) {
        match *e {
            Event::MovedToChain { item: id, by, .. } => {
                let f = at(&mut self.items, &mut self.touched, id);
                f.on_chain = true;
                f.payer.get_or_insert(by);
                if cur.resolving.is_some() {
                    self.window_during_resolution.get_or_insert(cur.at);
                }
            }
            Event::RepeatDeclared {
                item: id,
                instance,
                pay,
            } => {
                let f = at(&mut self.items, &mut self.touched, id);
                f.declared += 1;
                f.declared_after_finalized |= f.finalized;
                if pay {
                    f.paid += 1;
                    f.paid_twice |= f.paid_instances.insert(instance);
                }
            }
            Event::ModeChosen { item: id, exec, .. }
            | Event::TargetChosen { item: id, exec, .. }
            | Event::TargetsEnded { item: id, exec, .. }
            | Event::DestinationChosen { item: id, exec, .. } => {
                let f = at(&mut self.items, &mut self.touched, id);
                f.chose_after_finalized |= f.finalized;
                f.chose.insert(exec);
            }
            Event::Finalized { item: id } => {
                at(&mut self.items, &mut self.touched, id).finalized = true;
                if cur.resolving.is_some() {
                    self.window_during_resolution.get_or_insert(cur.at);
                }
            }
            Event::DiscountApplied {
                item: id,
                source: DiscountSource::SelfDiscount,
                ..
            } => at(&mut self.items, &mut self.touched, id).self_discounts += 1,
            Event::DiscountApplied {
                item: id,
                source: DiscountSource::Unit(u),
                ..
            } => at(&mut self.items, &mut self.touched, id).unit_discount(u),
            Event::RepeatCostAdded {
                item: id,
                cost,
                discard: 0,
                ..
            } if cost.is_zero() => {
                at(&mut self.items, &mut self.touched, id).zero_cost_repeat = true
            }
            Event::CostPaid { item: id, paid, .. } => {
                let f = at(&mut self.items, &mut self.touched, id);
                f.paid_cost = f.paid_cost.plus(&paid);
                // A cost is paid after its item was put on the chain, so its payer is known.
                if let Some(p) = f.payer {
                    self.spent[p.ix()] = self.spent[p.ix()].plus(&paid);
                }
            }
            Event::ResolveStarted { item: id } => {
                if cur.resolving.is_some() {
                    self.window_during_resolution.get_or_insert(cur.at);
                }
                cur.resolving = Some(id);
            }
            Event::ExecutionStarted { item: id, exec } => {
                let f = at(&mut self.items, &mut self.touched, id);
                f.executions += 1;
                f.ran.insert(exec);
                cur.exec_of = Some((id, exec));
            }
            Event::Resolved { item: id } => {
                at(&mut self.items, &mut self.touched, id).resolved = true;
                if cur.resolving == Some(id) {
                    cur.resolving = None;
                }
                cur.exec_of = None;
            }
            Event::LeftChain { item: id } => {
                at(&mut self.items, &mut self.touched, id).left_chain = true
            }
            Event::Played { item: id, .. } => at(&mut self.items, &mut self.touched, id).plays += 1,
            Event::Countered { item: id, .. } => {
                at(&mut self.items, &mut self.touched, id).countered = true;
                if cur.resolving == Some(id) {
                    self.window_during_resolution.get_or_insert(cur.at);
                }
            }
            Event::ChoiceRemade { item: id, .. } => {
                at(&mut self.items, &mut self.touched, id).remade = true
            }
            Event::PlayCancelled { .. }
            | Event::DemandDecided { .. }
            | Event::RuneExhausted { .. }
            | Event::RuneRecycled { .. }
            | Event::DemandRuneExhausted { .. }
            | Event::PoolEmptied { .. } => self.read_resources(e),
            Event::Passed { .. } | Event::Cleanup | Event::WindowOpened { .. }
                if cur.resolving.is_some() =>
            {
                self.window_during_resolution.get_or_insert(cur.at);
            }
            Event::Damaged { .. }
            | Event::MightChanged { .. }
            | Event::UnitMoved { .. }
            | Event::ZoneChange { .. }
            | Event::Stunned { .. }
            | Event::Readied { .. }
            | Event::AssaultGiven { .. }
            | Event::TargetUnaffected { .. } => self.read_object(e, cur),
            _ => {}
        }
    }

    /// Folds an event about what entered or left a pool: runes used for an item or a demand,
    /// a demand paid, an undone play giving its runes back, the pool emptied at the end of the turn. Apart
    /// from [`Facts::read`] because these are running totals per player, not facts of an item.
    #[inline]
    fn read_resources(&mut self, e: &Event) {
        match *e {
            Event::PlayCancelled { item: id, .. } => {
                let f = at(&mut self.items, &mut self.touched, id);
                // An undone play gives back what its runes added (358.5), once.
                if !std::mem::replace(&mut f.undone, true) {
                    for (p, added) in self.produced.iter_mut().zip(f.runes_added) {
                        *p = p.less(&added);
                    }
                }
            }
            Event::RuneExhausted { item: id, who, .. } => {
                let one = Cost::energy(1);
                self.add_rune(id, who, &one);
            }
            Event::RuneRecycled {
                item: id,
                who,
                domain,
                ..
            } => {
                let mut one = Cost::ZERO;
                one.power[domain as usize] = 1;
                self.add_rune(id, who, &one);
            }
            Event::DemandDecided {
                by,
                paid: true,
                energy,
                ..
            } => self.spent[by.ix()] = self.spent[by.ix()].plus(&Cost::energy(energy)),
            Event::DemandRuneExhausted { who, .. } => {
                let p = &mut self.produced[who.ix()];
                *p = p.plus(&Cost::energy(1));
            }
            Event::PoolEmptied { who, amount } => {
                self.spent[who.ix()] = self.spent[who.ix()].plus(&amount);
            }
            _ => {}
        }
    }

    /// What a rune added while paying for item `id`: counted as produced unless that play is
    /// undone (now or later).
    fn add_rune(&mut self, id: u8, who: model::state::Player, added: &Cost) {
        let f = at(&mut self.items, &mut self.touched, id);
        f.runes_added[who.ix()] = f.runes_added[who.ix()].plus(added);
        if !f.undone {
            self.produced[who.ix()] = self.produced[who.ix()].plus(added);
        }
    }

    /// Folds an event about an object (a unit or a card in a zone): what was touched after it
    /// went to the trash, and what each execution sent there. Apart from [`Facts::read`] because
    /// these facts are about objects, not items, and follow the objects through the trash.
    #[inline]
    fn read_object(&mut self, e: &Event, cur: &mut Cursor) {
        match *e {
            Event::Damaged { unit, .. }
            | Event::MightChanged { unit, .. }
            | Event::UnitMoved { unit, .. }
            | Event::Stunned { unit }
            | Event::Readied { unit }
            | Event::AssaultGiven { unit, .. }
                if cur.gone.contains(&Obj::Unit(unit)) =>
            {
                self.touched_after_gone.get_or_insert(cur.at);
            }
            // Leaving the board for the trash or a hand makes a new object (124).
            Event::ZoneChange {
                obj,
                to: Zone::Trash | Zone::Hand,
            } => {
                if cur.gone.contains(&obj) {
                    self.touched_after_gone.get_or_insert(cur.at);
                }
                cur.gone.push(obj);
                if let Some((id, exec)) = cur.exec_of {
                    cur.left_in.push((obj, id, exec));
                }
            }
            Event::TargetUnaffected {
                item: id,
                exec,
                obj,
            } => {
                let removed = exec >= 1
                    && cur
                        .left_in
                        .iter()
                        .any(|&(o, i, k)| o == obj && i == id && k + 1 == exec);
                if removed {
                    self.target_removed_by_previous_execution
                        .get_or_insert((id, exec));
                }
            }
            _ => {}
        }
    }
}

/// Where the fold of a log stands between two events: what the events so far left open.
#[derive(Default)]
struct Cursor {
    /// The index of the event being read: the events read so far.
    at: u32,
    /// `no-window-between-executions`: the item resolving, if any.
    resolving: Option<u8>,
    /// The witness: the execution running, as (item, execution).
    exec_of: Option<(u8, u8)>,
    /// `illegal-target-ignored`: objects gone to the trash.
    gone: Vec<Obj>,
    /// The witness: what each execution sent to the trash, as (object, item, execution).
    left_in: Vec<(Obj, u8, u8)>,
}

impl Cursor {
    /// Back to the start of a log, keeping the buffers.
    fn reset(&mut self) {
        self.at = 0;
        self.resolving = None;
        self.exec_of = None;
        self.gone.clear();
        self.left_in.clear();
    }
}

/// The facts of item `id`, made room for, noted as touched (its marks are to be worked out).
#[inline]
fn at<'a>(items: &'a mut Vec<ItemFacts>, touched: &mut u64, id: u8) -> &'a mut ItemFacts {
    *touched |= 1 << id.min(63);
    let ix = id as usize;
    if items.len() <= ix {
        items.resize(ix + 1, ItemFacts::default());
    }
    &mut items[ix]
}

/// The facts of the state last asked about on this thread, which log they were read from, and
/// where that fold stands.
///
/// A state's log shares its events with the log of the state it came from (`Log`: a step
/// appends to its copy, in place, in the buffer both share). So when the log asked about is of
/// the same lineage as the one read last ([`model::state::Log::lineage`]) and is no shorter, the one read
/// last is a prefix of it, and only the new events are folded: in a depth-first search, a
/// step's few events rather than the whole log. Holding no copy of the log, the memo never
/// keeps a buffer shared that a step could otherwise extend alone.
struct Memo {
    /// The lineage and length of the log read last (`None`: nothing read yet).
    seen: Option<(Option<u64>, usize)>,
    facts: Facts,
    cursor: Cursor,
}

thread_local! {
    // Built at compile time: an access is then a plain thread-local read, with no check that
    // it was initialised (there are sixteen per state).
    static MEMO: RefCell<Memo> = const {
        RefCell::new(Memo {
            seen: None,
            facts: Facts {
                items: Vec::new(),
                window_during_resolution: None,
                touched_after_gone: None,
                target_removed_by_previous_execution: None,
                grant_events: Vec::new(),
                grant_moves: 0,
                spent: [Cost::ZERO; 2],
                produced: [Cost::ZERO; 2],
                marks: 0,
                touched: 0,
            },
            cursor: Cursor {
                at: 0,
                resolving: None,
                exec_of: None,
                gone: Vec::new(),
                left_in: Vec::new(),
            },
        })
    };
}

/// Calls `f` with the facts of `s`'s log, folding only what the memo has not read.
pub fn with<R>(s: &State, f: impl FnOnce(&Facts) -> R) -> R {
    MEMO.with(|m| {
        let m = &mut *m.borrow_mut();
        let new = s.log.as_slice();
        let lineage = s.log.lineage();
        let (read, extends) = match m.seen {
            Some((l, read)) => (read, l == lineage && read <= new.len()),
            None => (0, false),
        };
        if !extends || read == 0 {
            m.facts.clear();
            m.cursor.reset();
            m.facts.fold(new, &mut m.cursor);
        } else if read < new.len() {
            m.facts.fold(&new[read..], &mut m.cursor);
        }
        m.seen = Some((lineage, new.len()));
        f(&m.facts)
    })
}

/// The facts of `log`, read afresh.
pub fn of(log: &[Event]) -> Facts {
    let mut facts = Facts::default();
    facts.fold(log, &mut Cursor::default());
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Instance `instance` of item `item` declared paid.
    fn paid(item: u8, instance: u8) -> Event {
        Event::RepeatDeclared {
            item,
            instance,
            pay: true,
        }
    }

    /// An item's marks follow the events about it, whatever its id: ids from 63 up share one
    /// bit of the touched set, so each of them must still be worked out again.
    #[test]
    fn marks_follow_every_item_whatever_its_id() {
        for id in [0u8, 5, 62, 63, 64, 70, 255] {
            let once = of(&[paid(id, 0)]);
            assert!(!once.any(Mark::PaidTwice), "item {id}: paid once");
            let twice = of(&[paid(id, 0), paid(3, 1), paid(id, 0)]);
            assert!(twice.any(Mark::PaidTwice), "item {id}: paid twice");
            assert_eq!(twice.first(Mark::PaidTwice).map(|(i, _)| i), Some(id));
        }
    }

    /// Folded a step at a time, as the memo folds a depth-first search's states, the marks are
    /// those of the whole log folded at once.
    #[test]
    fn marks_folded_in_steps_are_those_of_the_whole_log() {
        let log = [paid(64, 0), paid(1, 0), paid(64, 0), paid(1, 1)];
        for cut in 0..=log.len() {
            let mut facts = Facts::default();
            let mut cur = Cursor::default();
            facts.fold(&log[..cut], &mut cur);
            facts.fold(&log[cut..], &mut cur);
            let whole = of(&log);
            assert_eq!(facts.marks, whole.marks, "cut at {cut}");
            assert_eq!(
                facts.first(Mark::PaidTwice).map(|(i, _)| i),
                Some(64),
                "cut at {cut}"
            );
        }
    }
}
