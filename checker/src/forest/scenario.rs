//! The search of one initial state's reachable set, on one thread: breadth-first, in the same
//! canonical order as the level-synchronous search (frontier position, then action index), so
//! that what it finds first is what that search would find first among this initial state's
//! states.
//!
//! It keeps its own small visited set (fingerprint, parent, link per state) and frees it, and
//! its frontier, when done; what it hands back is a [`Summary`]: counts per depth and each
//! property's first finding as a path of (action, fingerprint) steps.
//!
//! Forced states (`Model::forced`) are visited, checked and expanded level by level like the
//! others, so every count per depth and every finding is the same, but they are not stored:
//! no fingerprint, no record, no duplicate check (see [`super::forced`]).

use super::forced::{Link, Mark};
use super::{Found, Summary};
use crate::ctx::Ctx;
use crate::error::CheckError;
use crate::fingerprint::avalanche;
use crate::memory::POLL_EVERY;
use crate::model::{Expectation, Model};
use crate::trace::Hop;

/// The parent link of a record for an initial state.
const ROOT: u32 = u32::MAX;

/// One stored state: its fingerprint and how it was first reached from the stored state before
/// it.
struct Record {
    fp: u64,
    parent: u32,
    link: Link,
}

/// A frontier state, where it is, and its forced action if it is a forced state.
type Entry<M> = (<M as Model>::State, Mark, Option<<M as Model>::Action>);

/// Why a scenario's search stopped before the end.
pub(super) enum Halt {
    /// The run is being abandoned (memory budget, an earlier failure, or the scenario is past
    /// the state limit): nothing of this scenario is kept.
    Cancelled,
    /// A model error or panic.
    Failed(CheckError),
}

impl From<CheckError> for Halt {
    fn from(e: CheckError) -> Self {
        Halt::Failed(e)
    }
}

/// What one level of a scenario's search found for the properties, before it is booked.
struct LevelFinds {
    /// Per active state property: the first new state on which it hits.
    hits: Vec<Option<Mark>>,
    /// Per undecided `Terminates` property: the first final state failing it.
    final_fail: Vec<Option<Mark>>,
    /// The first transition that does not increase progress: (from, action, target fp).
    cycle: Option<(Mark, u32, u64)>,
    /// Whether a state expanded while progress was compared had no progress value.
    progress_missing: bool,
}

/// A worker's search buffers, kept from one scenario to the next: emptied, their memory stays.
/// Memory given back to the system costs a page fault per page when it is asked for again, and
/// the scenarios of `large` hold gigabytes each.
pub(super) struct Buffers<M: Model> {
    frontier: Vec<Entry<M>>,
    spare: Vec<Entry<M>>,
    records: Vec<Record>,
    slots: Vec<u32>,
}

impl<M: Model> Default for Buffers<M> {
    fn default() -> Self {
        Buffers {
            frontier: Vec::new(),
            spare: Vec::new(),
            records: Vec::new(),
            slots: Vec::new(),
        }
    }
}

/// A scenario's visited set and counts.
struct Store {
    /// The stored states.
    records: Vec<Record>,
    /// Their fingerprint index.
    seen: Index,
    /// States visited: stored, and forced ones left out of the records.
    visited: u64,
}

/// One scenario's search.
pub(super) struct ScenarioSearch<'a, M: Model> {
    pub(super) ctx: Ctx<'a, M>,
    /// Stop before visiting a state past this many (`--max-states` for the scenario).
    pub(super) cap: Option<u64>,
    /// Whether to leave forced states (`Model::forced`) out of the visited set.
    pub(super) collapse: bool,
    /// Whether the search ends once every property has a finding (at the end of its level, so
    /// each finding is still a shallowest one).
    pub(super) settle: bool,
    /// Asked every [`POLL_EVERY`] units of work: whether to give up.
    pub(super) cancelled: &'a (dyn Fn() -> bool + Sync),
    /// Called with the number of states visited since the last call, for progress reports.
    pub(super) tally: &'a (dyn Fn(u64) + Sync),
    /// Asked before a store grows, with the bytes the growth allocates: whether they fit (see
    /// `Budget::room_for`).
    pub(super) room_for: &'a (dyn Fn(u64) -> bool + Sync),
}

impl<M: Model> ScenarioSearch<'_, M> {
    /// Explores every state reachable from `init` (the `index`-th initial state, fingerprint
    /// `fp`), or up to the cap, in the memory of `bufs` (given back emptied).
    pub(super) fn run(
        &self,
        index: u32,
        fp: u64,
        init: M::State,
        bufs: &mut Buffers<M>,
    ) -> Result<Summary, Halt> {
        let mut store = Store {
            records: std::mem::take(&mut bufs.records),
            seen: Index {
                slots: std::mem::take(&mut bufs.slots),
            },
            visited: 1,
        };
        let mut frontier = std::mem::take(&mut bufs.frontier);
        let mut spare = std::mem::take(&mut bufs.spare);
        let out = self.search(index, fp, init, &mut store, (&mut frontier, &mut spare));
        frontier.clear();
        spare.clear();
        store.records.clear();
        store.seen.slots.clear();
        *bufs = Buffers {
            frontier,
            spare,
            records: store.records,
            slots: store.seen.slots,
        };
        out
    }

    /// [`ScenarioSearch::run`] in the buffers given, which `run` hands over empty.
    fn search(
        &self,
        index: u32,
        fp: u64,
        init: M::State,
        store: &mut Store,
        (frontier, spare): (&mut Vec<Entry<M>>, &mut Vec<Entry<M>>),
    ) -> Result<Summary, Halt> {
        let ctx = &self.ctx;
        let props = ctx.props;
        store.records.push(Record {
            fp,
            parent: ROOT,
            link: Link::ROOT,
        });
        store.seen.insert(&store.records, fp, 0);
        let mut findings: Vec<Option<Found>> = vec![None; props.len()];
        let mut summary = Summary {
            init: index,
            init_fp: fp,
            states_per_depth: vec![1],
            stored_per_depth: vec![1],
            transitions_per_level: vec![],
            findings: vec![],
            progress_missing_at: None,
            visited_bytes: 0,
            complete: true,
        };
        let undecided = self.undecided(&findings, &[Expectation::Always, Expectation::Sometimes]);
        let mut hit = vec![None; undecided.len()];
        ctx.check_state(&undecided, &init, (), &mut hit);
        for (&p, _) in undecided.iter().zip(&hit).filter(|(_, h)| h.is_some()) {
            findings[p] = Some(Found::state(0, vec![]));
        }
        frontier.push((init, Mark::stored(0), None));
        // The level before last's frontier, emptied, is `spare`, whose memory the next level
        // reuses, as the next scenario reuses both.
        let mut actions = Vec::new();
        let mut work = 0u32;
        let mut unreported = 0u64;
        while !frontier.is_empty() {
            let depth = summary.transitions_per_level.len();
            let active = self.undecided(&findings, &[Expectation::Always, Expectation::Sometimes]);
            let terminates = self.undecided(&findings, &[Expectation::Terminates]);
            let step = Step {
                active: &active,
                terminates: &terminates,
            };
            let mut finds = LevelFinds {
                hits: vec![None; active.len()],
                final_fail: vec![None; terminates.len()],
                cycle: None,
                progress_missing: false,
            };
            let mut next = std::mem::take(spare);
            next.reserve(frontier.len());
            let mut transitions = 0u64;
            let mut capped = false;
            for entry in frontier.drain(..) {
                let out = self.expand(
                    &step,
                    entry,
                    (&mut *store, &mut next),
                    &mut finds,
                    &mut actions,
                    &mut work,
                );
                match out {
                    Ok(made) => transitions += made,
                    Err(None) => {
                        // The cap: everything booked so far stays, as a partial scenario.
                        capped = true;
                        break;
                    }
                    Err(Some(halt)) => return Err(halt),
                }
                if next.len() as u64 >= unreported + 4096 {
                    (self.tally)(next.len() as u64 - unreported);
                    unreported = next.len() as u64;
                }
            }
            (self.tally)(next.len() as u64 - unreported);
            unreported = 0;
            summary.transitions_per_level.push(transitions);
            if finds.progress_missing {
                summary.progress_missing_at.get_or_insert(depth as u32);
            }
            self.book(depth, &step, finds, &store.records, &mut findings);
            if !next.is_empty() {
                summary.states_per_depth.push(next.len() as u64);
                let stored = next.iter().filter(|e| e.1.since.is_none()).count();
                summary.stored_per_depth.push(stored as u64);
            }
            if capped {
                summary.complete = false;
                break;
            }
            if self.settle && findings.iter().all(Option::is_some) {
                *spare = next;
                break;
            }
            frontier.clear();
            *spare = std::mem::replace(frontier, next);
        }
        Ok(self.finish(summary, findings, store))
    }

    /// The properties with one of `kinds` that this scenario has not decided yet.
    fn undecided(&self, findings: &[Option<Found>], kinds: &[Expectation]) -> Vec<usize> {
        (0..self.ctx.props.len())
            .filter(|&p| findings[p].is_none() && kinds.contains(&self.ctx.props[p].expectation))
            .collect()
    }

    /// Makes the successors of the frontier state in `entry` in action order, placing each
    /// (see [`ScenarioSearch::place`]); returns how many transitions were made. `Err(None)`: the
    /// cap was reached.
    #[inline]
    fn expand(
        &self,
        step: &Step<'_>,
        (state, mark, forced): Entry<M>,
        (store, next): Stores<'_, M>,
        finds: &mut LevelFinds,
        actions: &mut Vec<M::Action>,
        work: &mut u32,
    ) -> Result<u64, Option<Halt>> {
        let model = self.ctx.model;
        self.tick(work)?;
        actions.clear();
        match forced {
            // `Model::forced` promised it is the only action (a trace through it checks).
            Some(a) => actions.push(a),
            None => model.actions(&state, actions),
        }
        let before = if step.terminates.is_empty() {
            None
        } else {
            model.progress(&state)
        };
        let mut state = Some(state);
        let mut made = 0u64;
        let last = actions.len().wrapping_sub(1);
        for (a, action) in actions.iter().enumerate() {
            self.tick(work)?;
            let a = u32::try_from(a).map_err(|_| Some(CheckError::TooManyActions.into()))?;
            let succ = if a as usize == last {
                let mut s = state.take().expect("present until its last successor");
                if !model.next_state_in_place_of_enabled(&mut s, action) {
                    state = Some(s);
                    continue;
                }
                s
            } else {
                match model.next_state_of_enabled(state.as_ref().expect("present"), action) {
                    Some(s) => s,
                    None => continue,
                }
            };
            self.place(step, succ, mark, a, before, (store, next), finds)?;
            made += 1;
        }
        if made == 0 {
            let state = state
                .as_ref()
                .expect("given back when no successor was made");
            for (slot, &p) in finds.final_fail.iter_mut().zip(step.terminates) {
                if slot.is_none() && !(self.ctx.props[p].condition)(model, state) {
                    *slot = Some(mark);
                }
            }
        }
        finds.progress_missing |= before.is_none() && !step.terminates.is_empty();
        Ok(made)
    }

    /// Books `succ`, made by action `a` from the state at `from`: a forced state (one more
    /// step of a run, up to [`Link::MAX_FORCED`]) goes to the next frontier unstored; any
    /// other is fingerprinted and, if new, stored. Either way the transition is compared for
    /// progress and a new state checked against the active state properties.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn place(
        &self,
        step: &Step<'_>,
        succ: M::State,
        from: Mark,
        a: u32,
        before: Option<u64>,
        (store, next): Stores<'_, M>,
        finds: &mut LevelFinds,
    ) -> Result<(), Option<Halt>> {
        let ctx = &self.ctx;
        let link = match from.since {
            None => Link::new(a).ok_or(Some(Halt::Failed(CheckError::TooManyActions)))?,
            // An unstored state is forced: its one action is a forced step, and its link had room.
            Some(l) => l.then_forced().expect("room left for one more forced step"),
        };
        let forced = if self.collapse && link.forced() < Link::MAX_FORCED {
            ctx.model.forced(&succ)
        } else {
            None
        };
        let fp = forced.is_none().then(|| ctx.fp(&succ));
        let new = fp.is_none_or(|fp| !store.seen.contains(&store.records, fp));
        if new && self.cap.is_some_and(|cap| store.visited >= cap) {
            return Err(None);
        }
        if let (Some(b), None) = (before, finds.cycle) {
            if ctx.model.progress(&succ).is_some_and(|after| after <= b) {
                let fp = fp.unwrap_or_else(|| ctx.fp(&succ));
                finds.cycle = Some((from, a, fp));
            }
        }
        if !new {
            return Ok(());
        }
        if next.len() == next.capacity() || store.records.len() == store.records.capacity() {
            let sizes = (next.capacity(), store.records.capacity());
            self.reserve(sizes.0, sizes.1, store.seen.slots.len())?;
        }
        let to = match fp {
            None => Mark {
                at: from.at,
                since: Some(link),
            },
            Some(fp) => Mark::stored(self.record(store, fp, from.at, link)?),
        };
        store.visited += 1;
        // All at once where the model evaluates them so, not once per property.
        ctx.check_state(step.active, &succ, to, &mut finds.hits);
        next.push((succ, to, forced));
        Ok(())
    }

    /// Stores a new state (fingerprint `fp`, reached by `link` from record `parent`); returns
    /// its record.
    #[inline]
    fn record(
        &self,
        store: &mut Store,
        fp: u64,
        parent: u32,
        link: Link,
    ) -> Result<u32, Option<Halt>> {
        let records = &mut store.records;
        let at = u32::try_from(records.len())
            .ok()
            .filter(|&n| n != ROOT)
            .ok_or(Some(Halt::Failed(CheckError::TooManyStates {
                limit: ROOT as usize,
            })))?;
        if records.len() == records.capacity() {
            // Small steps keep the over-allocation, and so the bytes per state, bounded.
            records.reserve_exact((records.len() / 4).max(8));
        }
        records.push(Record { fp, parent, link });
        store.seen.insert(records, fp, at);
        Ok(at)
    }

    /// Checks that the stores can double before one of them does: a doubling allocates the
    /// new buffer while the old one is still held, which is when an address-space limit
    /// (`ulimit -v`) would make the allocation fail and the process abort.
    #[cold]
    fn reserve(&self, next: usize, records: usize, seen: usize) -> Result<(), Option<Halt>> {
        let bytes = 2 * next * std::mem::size_of::<Entry<M>>()
            + records * std::mem::size_of::<Record>() / 4
            + 2 * seen * std::mem::size_of::<u32>();
        if (self.room_for)(bytes as u64) {
            Ok(())
        } else {
            Err(Some(Halt::Cancelled))
        }
    }

    /// Counts a unit of work and, every [`POLL_EVERY`], asks whether to give up.
    #[inline]
    fn tick(&self, work: &mut u32) -> Result<(), Option<Halt>> {
        *work += 1;
        if *work >= POLL_EVERY {
            *work = 0;
            if (self.cancelled)() {
                return Err(Some(Halt::Cancelled));
            }
        }
        Ok(())
    }

    /// Books a finished level's finds as this scenario's first finding of each property: a
    /// failing final state outranks a cycle edge found in the same level, as in the
    /// level-synchronous search.
    fn book(
        &self,
        depth: usize,
        step: &Step<'_>,
        finds: LevelFinds,
        records: &[Record],
        findings: &mut [Option<Found>],
    ) {
        let level = (depth + 1) as u32;
        for (&p, hit) in step.active.iter().zip(finds.hits) {
            if let Some(to) = hit {
                findings[p] = Some(Found::state(level, path(records, to)));
            }
        }
        for (&p, fail) in step.terminates.iter().zip(finds.final_fail) {
            findings[p] = match (fail, finds.cycle) {
                (Some(at), _) => Some(Found::state(level, path(records, at))),
                (None, Some((from, action, fp))) => {
                    let mut steps = path(records, from);
                    steps.push(Hop {
                        action,
                        forced: 0,
                        fp: Some(fp),
                    });
                    Some(Found {
                        level,
                        edge: true,
                        path: steps,
                    })
                }
                (None, None) => None,
            };
        }
    }

    fn finish(&self, mut summary: Summary, findings: Vec<Option<Found>>, store: &Store) -> Summary {
        summary.findings = findings;
        // What the scenario's visited set holds, not the capacity of buffers an earlier
        // scenario may have grown: the same figure whatever ran before on this worker.
        summary.visited_bytes = (store.records.len() * std::mem::size_of::<Record>()
            + store.seen.slots.len() * std::mem::size_of::<u32>())
            as u64;
        summary
    }
}

/// What `expand` needs of the level being expanded.
struct Step<'a> {
    active: &'a [usize],
    terminates: &'a [usize],
}

/// The scenario's stores that `expand` adds to: the visited set and the next frontier.
type Stores<'a, M> = (&'a mut Store, &'a mut Vec<Entry<M>>);

/// The fingerprint index of a scenario's records: open addressing with linear probing over
/// 4-byte slots holding a record's position + 1 (0: empty), at most 3/4 full. With the 16-byte
/// records grown by a quarter at a time, a stored state costs at most about 31 bytes, as in the
/// level-synchronous search's visited set.
#[derive(Default)]
struct Index {
    slots: Vec<u32>,
}

impl Index {
    /// The slot holding `fp`, or the empty slot where it would go.
    #[inline]
    fn probe(&self, records: &[Record], fp: u64) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut i = avalanche(fp) as usize & mask;
        loop {
            match self.slots[i] {
                0 => return Err(i),
                s if records[s as usize - 1].fp == fp => return Ok(i),
                _ => i = (i + 1) & mask,
            }
        }
    }

    #[inline]
    fn contains(&self, records: &[Record], fp: u64) -> bool {
        !self.slots.is_empty() && self.probe(records, fp).is_ok()
    }

    /// Indexes record `at` (fingerprint `fp`, absent).
    #[inline]
    fn insert(&mut self, records: &[Record], fp: u64, at: u32) {
        if (at as usize + 1) * 4 > self.slots.len() * 3 {
            self.grow(&records[..at as usize]);
        }
        let i = self.probe(records, fp).expect_err("absent");
        self.slots[i] = at + 1;
    }

    /// Doubles the slots and re-indexes `records` (those indexed so far).
    #[cold]
    fn grow(&mut self, records: &[Record]) {
        let cap = (self.slots.len() * 2).max(16);
        // Zeroed by writing, not by `vec![0; cap]`, as in `visited`: calloc's shared zero
        // page would take a copy-on-write fault per page on the first probes. The old slots
        // are not read (`records` is re-indexed), so their memory is written over, and a
        // buffer kept from an earlier scenario is used as it is.
        self.slots.clear();
        if self.slots.capacity() < cap {
            self.slots.reserve_exact(cap);
        }
        self.slots.resize(cap, 0);
        let mask = cap - 1;
        for (at, r) in records.iter().enumerate() {
            let mut i = avalanche(r.fp) as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = at as u32 + 1;
        }
    }
}

/// The steps from the initial state to the state at `to`: each stored state's link and
/// fingerprint, then, for an unstored one, its link.
fn path(records: &[Record], to: Mark) -> Vec<Hop> {
    let hop = |l: Link, fp| Hop {
        action: l.action(),
        forced: l.forced(),
        fp,
    };
    let mut steps = vec![];
    let mut at = to.at;
    while records[at as usize].parent != ROOT {
        let r = &records[at as usize];
        steps.push(hop(r.link, Some(r.fp)));
        at = r.parent;
    }
    steps.reverse();
    steps.extend(to.since.map(|l| hop(l, None)));
    steps
}
