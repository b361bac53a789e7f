//! The visited set: every fingerprint reached so far, with the parent and action that first
//! reached it, in at most 32 bytes per state.
//!
//! Layout, per shard: a dense `Vec` of 16-byte records (fingerprint, parent reference, action
//! index) in insertion order, and an open-addressing index of 4-byte slots pointing into it.
//! A slot holds `local index + 1` in its low 26 bits (0 means empty) and 6 more bits of the
//! fingerprint's hash as a tag, so most probes of other keys are rejected without reading the
//! records. Records never move (growth rehashes only the slots), which gives every state a stable 32-bit
//! [`StateRef`] (shard, local index) that children use as their parent link: traces are walked
//! back through these references without storing any path.
//!
//! Memory: records grow by 25 % at a time (≤ 20 B/state), slots are a power of two kept at most
//! 3/4 full (≤ 10.7 B/state), so the whole set stays under [`MAX_BYTES_PER_STATE`].
//!
//! The set is split into [`SHARDS`] shards by hash bits so that the search can insert one
//! level's new states into all shards in parallel, each shard in canonical order.

use crate::error::CheckError;
use crate::fingerprint::avalanche;

const SHARD_BITS: u32 = 6;
/// Number of shards, filled in parallel; fixed so that results never depend on the thread count.
pub const SHARDS: usize = 1 << SHARD_BITS;
const LOCAL_BITS: u32 = 32 - SHARD_BITS;
const LOCAL_MASK: u32 = (1 << LOCAL_BITS) - 1;
/// Slots store `local + 1` in `LOCAL_BITS` bits, so the last local index is `LOCAL_MASK - 1`.
const MAX_PER_SHARD: usize = LOCAL_MASK as usize;
const TAG_BITS: u32 = 32 - LOCAL_BITS;
const NO_PARENT: u32 = u32::MAX;

/// Bytes of one record (fingerprint, parent, action).
pub const ENTRY_BYTES: usize = std::mem::size_of::<Record>();
/// Bytes of one index slot.
pub const SLOT_BYTES: usize = std::mem::size_of::<u32>();
/// Upper bound on [`VisitedSet::bytes_per_state`] once shards hold more than a few dozen states:
/// records at most 25 % over-allocated plus slots at least 3/8 full.
pub const MAX_BYTES_PER_STATE: f64 = ENTRY_BYTES as f64 * 1.25 + SLOT_BYTES as f64 / 0.375;
/// Most states the set can hold (the per-shard limit times the shard count).
pub const MAX_STATES: usize = MAX_PER_SHARD * SHARDS;

/// A stable reference to a visited state: its shard and its index within the shard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateRef(u32);

impl StateRef {
    /// The value used for "no reference" in packed per-candidate arrays.
    pub(crate) const NONE: u32 = u32::MAX;

    fn new(shard: usize, local: u32) -> Self {
        StateRef(((shard as u32) << LOCAL_BITS) | local)
    }

    /// The packed 32-bit form.
    pub fn to_raw(self) -> u32 {
        self.0
    }

    /// Unpacks a value from [`StateRef::to_raw`]; `None` for the "no reference" value.
    pub fn from_raw(raw: u32) -> Option<Self> {
        (raw != Self::NONE).then_some(StateRef(raw))
    }

    fn shard(self) -> usize {
        (self.0 >> LOCAL_BITS) as usize
    }

    fn local(self) -> usize {
        (self.0 & LOCAL_MASK) as usize
    }
}

/// One stored state, as read back from the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The state's fingerprint.
    pub fingerprint: u64,
    /// The state it was first reached from; `None` for an initial state.
    pub parent: Option<StateRef>,
    /// The action index in the parent's `actions` output, or the index among `init_states`
    /// for an initial state.
    pub action: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Record {
    fp: u64,
    parent: u32,
    action: u32,
}

const _: () = assert!(ENTRY_BYTES == 16);

/// Spreads a (possibly user-made, poorly mixed) fingerprint over all bits; a bijection, so it
/// cannot introduce collisions. The search computes it once per candidate and passes it along.
#[inline(always)]
pub(crate) fn spread(fp: u64) -> u64 {
    avalanche(fp)
}

/// The shard of a spread fingerprint.
#[inline(always)]
pub(crate) fn shard_of_spread(h: u64) -> usize {
    (h >> (64 - SHARD_BITS)) as usize
}

/// One shard: dense records plus a linear-probing index into them.
#[derive(Default)]
pub(crate) struct Shard {
    records: Vec<Record>,
    slots: Vec<u32>,
}

impl Shard {
    #[inline]
    fn tag(h: u64) -> u32 {
        ((h >> (64 - SHARD_BITS - TAG_BITS)) as u32) & ((1 << TAG_BITS) - 1)
    }

    /// Probes for `fp`; `Ok(local)` if present, else `Err(empty slot index)`.
    #[inline]
    fn probe(&self, fp: u64, h: u64) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let tag = Self::tag(h);
        let mut i = h as usize & mask;
        loop {
            let s = self.slots[i];
            if s == 0 {
                return Err(i);
            }
            if s >> LOCAL_BITS == tag {
                let local = (s & LOCAL_MASK) - 1;
                if self.records[local as usize].fp == fp {
                    return Ok(local);
                }
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn get(&self, fp: u64, h: u64) -> Option<u32> {
        if self.records.is_empty() {
            return None;
        }
        self.probe(fp, h).ok()
    }

    /// Asks the CPU to start loading the slot where a probe for `h` begins: lookups are
    /// dominated by cache misses, and issuing them a few keys ahead overlaps them.
    #[inline(always)]
    pub(crate) fn prefetch(&self, h: u64) {
        #[cfg(target_arch = "x86_64")]
        if !self.slots.is_empty() {
            let i = h as usize & (self.slots.len() - 1);
            let p = self.slots[i..].as_ptr() as *const i8;
            // SAFETY: a prefetch has no observable effect and never faults; `p` is in bounds.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = h;
    }

    /// Number of records.
    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    /// Inserts `fp` unless present; returns its local index and whether it is new.
    pub(crate) fn insert(
        &mut self,
        fp: u64,
        parent: Option<StateRef>,
        action: u32,
    ) -> Result<(u32, bool), CheckError> {
        self.insert_spread(fp, spread(fp), parent, action)
    }

    /// [`Shard::insert`] with `h = spread(fp)` already computed.
    #[inline]
    pub(crate) fn insert_spread(
        &mut self,
        fp: u64,
        h: u64,
        parent: Option<StateRef>,
        action: u32,
    ) -> Result<(u32, bool), CheckError> {
        debug_assert_eq!(h, spread(fp));
        if !self.records.is_empty() {
            if let Ok(local) = self.probe(fp, h) {
                return Ok((local, false));
            }
        }
        let len = self.records.len();
        if len >= MAX_PER_SHARD {
            return Err(CheckError::TooManyStates { limit: MAX_STATES });
        }
        if (len + 1) * 4 > self.slots.len() * 3 {
            self.grow_slots();
        }
        if len == self.records.capacity() {
            // Small steps keep the over-allocation (and so bytes per state) bounded; realloc of
            // large blocks is usually a remap, not a copy.
            self.records.reserve_exact((len / 4).max(8));
        }
        let slot = self.probe(fp, h).expect_err("absent key");
        self.slots[slot] = (Self::tag(h) << LOCAL_BITS) | (len as u32 + 1);
        self.records.push(Record {
            fp,
            parent: parent.map_or(NO_PARENT, |p| p.0),
            action,
        });
        Ok((len as u32, true))
    }

    /// Doubles the index and re-inserts every record in order; no old slot is read.
    fn grow_slots(&mut self) {
        let cap = (self.slots.len() * 2).max(16);
        // Zeroed by writing, not by `vec![0; cap]`: calloc maps the shared zero page, and the
        // probes' read-then-write would then take a copy-on-write fault per page, each with a
        // TLB shootdown across the worker threads (measured: a third of the run time).
        self.slots = Vec::new();
        self.slots.reserve_exact(cap);
        self.slots.resize(cap, 0);
        let mask = cap - 1;
        for (local, r) in self.records.iter().enumerate() {
            let h = spread(r.fp);
            let mut i = h as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (Self::tag(h) << LOCAL_BITS) | (local as u32 + 1);
        }
    }

    fn heap_bytes(&self) -> usize {
        self.records.capacity() * ENTRY_BYTES + self.slots.capacity() * SLOT_BYTES
    }
}

/// The set of visited fingerprints with their first parent and action.
pub struct VisitedSet {
    shards: Vec<Shard>,
}

impl Default for VisitedSet {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for VisitedSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VisitedSet")
            .field("len", &self.len())
            .field("heap_bytes", &self.heap_bytes())
            .finish()
    }
}

impl VisitedSet {
    /// An empty set (allocates nothing per shard until used).
    pub fn new() -> Self {
        VisitedSet {
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
        }
    }

    /// Number of distinct fingerprints stored.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.records.len()).sum()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The reference of `fp`, if stored.
    #[inline]
    pub fn get(&self, fp: u64) -> Option<StateRef> {
        self.get_spread(fp, spread(fp))
    }

    /// [`VisitedSet::get`] with `h = spread(fp)` already computed.
    #[inline]
    pub(crate) fn get_spread(&self, fp: u64, h: u64) -> Option<StateRef> {
        let shard = shard_of_spread(h);
        self.shards[shard]
            .get(fp, h)
            .map(|local| StateRef::new(shard, local))
    }

    /// Starts loading the slot a lookup of `h = spread(fp)` will read first.
    #[inline(always)]
    pub(crate) fn prefetch(&self, h: u64) {
        self.shards[shard_of_spread(h)].prefetch(h);
    }

    /// Whether `fp` is stored.
    #[inline]
    pub fn contains(&self, fp: u64) -> bool {
        self.get(fp).is_some()
    }

    /// Stores `fp` unless present (the first insertion keeps its parent and action); returns
    /// its reference and whether it was new.
    pub fn insert(
        &mut self,
        fp: u64,
        parent: Option<StateRef>,
        action: u32,
    ) -> Result<(StateRef, bool), CheckError> {
        let shard = shard_of_spread(spread(fp));
        let (local, new) = self.shards[shard].insert(fp, parent, action)?;
        Ok((StateRef::new(shard, local), new))
    }

    /// The stored entry behind a reference returned by this set.
    pub fn entry(&self, r: StateRef) -> Entry {
        let rec = self.shards[r.shard()].records[r.local()];
        Entry {
            fingerprint: rec.fp,
            parent: StateRef::from_raw(rec.parent),
            action: rec.action,
        }
    }

    /// Bytes actually allocated by the set (records, index slots and the shard array).
    pub fn heap_bytes(&self) -> usize {
        self.shards.iter().map(Shard::heap_bytes).sum::<usize>()
            + self.shards.capacity() * std::mem::size_of::<Shard>()
    }

    /// Allocated bytes divided by stored states (0 when empty).
    pub fn bytes_per_state(&self) -> f64 {
        let n = self.len();
        if n == 0 {
            0.0
        } else {
            self.heap_bytes() as f64 / n as f64
        }
    }

    /// Mutable access to the shards and their numbers, for parallel insertion.
    pub(crate) fn shards_mut(
        &mut self,
    ) -> rayon::iter::Enumerate<rayon::slice::IterMut<'_, Shard>> {
        use rayon::prelude::*;
        self.shards.par_iter_mut().enumerate()
    }

    /// The reference of a state inserted as `local` into `shard` by [`Shard::insert`].
    pub(crate) fn make_ref(shard: usize, local: u32) -> StateRef {
        StateRef::new(shard, local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    #[test]
    fn entry_sizes_and_bound() {
        assert_eq!(ENTRY_BYTES, 16);
        assert_eq!(SLOT_BYTES, 4);
        const { assert!(MAX_BYTES_PER_STATE <= 32.0) };
    }

    #[test]
    fn bytes_per_state_stays_under_32_at_every_size() {
        let mut set = VisitedSet::new();
        let mut worst: f64 = 0.0;
        for i in 0..400_000u64 {
            set.insert(crate::fingerprint::fingerprint(&i), None, 0)
                .unwrap();
            if i >= 4_000 && i % 997 == 0 {
                worst = worst.max(set.bytes_per_state());
            }
        }
        assert_eq!(set.len(), 400_000);
        assert!(worst <= 32.0, "worst {worst} B/state");
        assert!(set.bytes_per_state() <= MAX_BYTES_PER_STATE);
    }

    #[test]
    fn poorly_mixed_fingerprints_still_spread() {
        // User fingerprints (symmetry) may be small integers; they must still shard evenly.
        let mut set = VisitedSet::new();
        for i in 0..64_000u64 {
            set.insert(i, None, i as u32).unwrap();
        }
        let max = set.shards.iter().map(|s| s.records.len()).max().unwrap();
        assert!(max < 1_300, "{max}");
        for i in 0..64_000u64 {
            assert_eq!(set.entry(set.get(i).unwrap()).action, i as u32);
        }
        assert_eq!(set.get(64_000), None);
    }

    proptest! {
        #[test]
        fn insert_then_query_round_trips(
            fps in proptest::collection::vec(any::<u64>(), 1..2_000),
            actions in proptest::collection::vec(any::<u32>(), 2_000),
            parents in proptest::collection::vec(any::<prop::sample::Index>(), 2_000),
        ) {
            let mut set = VisitedSet::new();
            let mut expected: HashMap<u64, (StateRef, Option<StateRef>, u32)> = HashMap::new();
            let mut refs: Vec<StateRef> = Vec::new();
            for (i, &fp) in fps.iter().enumerate() {
                let parent = if refs.is_empty() || i % 5 == 0 { None } else { Some(refs[parents[i].index(refs.len())]) };
                let (r, new) = set.insert(fp, parent, actions[i]).unwrap();
                prop_assert_eq!(new, !expected.contains_key(&fp));
                if new {
                    expected.insert(fp, (r, parent, actions[i]));
                    refs.push(r);
                } else {
                    prop_assert_eq!(r, expected[&fp].0);
                }
            }
            prop_assert_eq!(set.len(), expected.len());
            for (&fp, &(r, parent, action)) in &expected {
                prop_assert_eq!(set.get(fp), Some(r));
                prop_assert_eq!(set.entry(r), Entry { fingerprint: fp, parent, action });
            }
            for fp in fps.iter().map(|f| f.wrapping_add(1)) {
                prop_assert_eq!(set.get(fp).is_some(), expected.contains_key(&fp));
            }
        }
    }
}
