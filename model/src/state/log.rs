//! The write-once shared event log a state carries: copies of a state share their events, and
//! each log keeps a running digest of its events so that hashing a state does not reread them.
//! This is one of the two modules of the crate with `unsafe` code (with `crate::inline_vec`).

use super::encode::{Bits, Encode};
use super::Event;
use std::cell::UnsafeCell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// What happened, in order: an append-only list of events that keeps a running digest of itself.
///
/// Every state carries its whole log, and the checker hashes every state it reaches: with the
/// digest, hashing a state costs the same however long its log is (each event is digested once,
/// when it is appended, instead of once per state it is in). It reads like a `Vec<Event>` (it
/// dereferences to a slice; it prints and compares as its events) but can only grow, through
/// [`Log::push`] and `extend`, so the digest always describes the events.
///
/// The digest of equal logs is equal, so hashing it agrees with `Eq`. Two different logs share a
/// digest with probability about 2⁻⁶⁴, which adds that much to the chance that two states share
/// a fingerprint (see `checker::fingerprint`).
///
/// Every step copies a state and appends to the copy's log, so copies share their events: a
/// copy is a reference to its original's `Chunk`, and the first of them to append extends the
/// chunk in place. A log that holds its chunk alone (the last successor of a state, in a
/// depth-first search, once its siblings are gone) appends in place too, over what a sibling
/// wrote there. Only a log that is not the first of several living copies or that fills its
/// chunk copies its events, into a new chunk. So most steps copy no event at all.
pub struct Log {
    /// Holds the events in its first `len` slots; `None` for the empty log.
    chunk: Option<Arc<Chunk>>,
    len: usize,
    /// Read directly by `impl Hash for State` (see `encode`).
    pub(super) digest: u64,
}

/// Event slots shared by a log and its copies.
///
/// Slot `i` is written once, by the one log that moves `claimed` from `i` to `i + 1`, and only
/// before any other log has a length above `i`: a log reads only its first `len` slots, which it
/// or the log it was copied from wrote before the copy was made. So no slot is read and written
/// at once, and none is written twice.
///
/// The invariants the `unsafe` code relies on, for every log `l` whose `chunk` is `c`:
/// 1. `l.len <= c.claimed <= c.slots.len()`, and slots `0..l.len` are initialised.
/// 2. While the chunk is shared, `claimed` only grows, by one, through a successful
///    compare-exchange from `n` to `n + 1`, which one log alone can win for a given `n`
///    (read-modify-writes of one atomic are totally ordered); a chunk is built with `claimed`
///    equal to the slots it was built with. A log that holds the chunk alone (`Arc::get_mut`:
///    no other log can read or claim it) may set `claimed` back to its own `len`, writing over
///    slots no log reads any more; it then gives the chunk a new `lineage`.
/// 3. A log's `len` grows only by its own claim; a copy starts with its original's `len`. So a
///    log with `len > i` is the claimer of slot `i` after writing it, or a copy made later.
struct Chunk {
    /// Slots below it are written or being written by the log that claimed them.
    claimed: AtomicUsize,
    /// Unique among the chunks made in this process, and renewed when slots are written over:
    /// two logs of the same lineage hold the same events up to the shorter one's length.
    lineage: u64,
    slots: Box<[UnsafeCell<MaybeUninit<Event>>]>,
}

// SAFETY: `Chunk` is `!Sync` only for its `UnsafeCell`s. Through `&Chunk` a slot is written only
// by the log that won its claim (invariant 2: no two writers), and only at an index no log reads
// yet (invariant 3: readers read below their `len`, and no log counts a slot before its claimer
// wrote it). A log reaches another thread only by being moved or copied there, which (as for any
// value in safe Rust) synchronises: the writes its events came from happen before the reads. So
// shared use across threads has no data race, and `Event` is `Copy` with no drop to run.
unsafe impl Sync for Chunk {}

/// The fewest slots of a new chunk: room for a lineage of steps to append before copying again.
const LOG_MIN_CHUNK: usize = 32;
/// The next chunk lineage to hand out.
static LINEAGES: AtomicU64 = AtomicU64::new(1);

/// A lineage no chunk had before.
fn new_lineage() -> u64 {
    LINEAGES.fetch_add(1, Ordering::Relaxed)
}

/// The digest of an empty log (hex digits of π).
const LOG_SEED: u64 = 0x243f_6a88_85a3_08d3;

impl Log {
    /// An empty log.
    pub const fn new() -> Log {
        Log {
            chunk: None,
            len: 0,
            digest: LOG_SEED,
        }
    }

    /// Appends an event.
    #[inline]
    pub fn push(&mut self, e: Event) {
        let mut d = Digest(self.digest);
        let mut b = Bits::new(&mut d);
        e.encode(&mut b);
        b.finish();
        self.digest = d.0;
        let n = self.len;
        // The count read first is a plain load: `get_mut`'s check (an atomic read-modify-write)
        // only where it can succeed.
        let alone = self
            .chunk
            .as_ref()
            .is_some_and(|c| Arc::strong_count(c) == 1);
        if let Some(c) = self.chunk.as_mut().filter(|_| alone).and_then(Arc::get_mut) {
            if n < c.slots.len() {
                // Alone with the chunk: no atomic claim, and slots past `len` are nobody's.
                let claimed = c.claimed.get_mut();
                if *claimed > n {
                    c.lineage = new_lineage();
                }
                *claimed = n + 1;
                c.slots[n].get_mut().write(e);
                self.len = n + 1;
                return;
            }
        } else if let Some(c) = &self.chunk {
            if n < c.slots.len()
                && c.claimed
                    .compare_exchange(n, n + 1, Ordering::AcqRel, Ordering::Relaxed)
                    .is_ok()
            {
                // SAFETY: `n < c.slots.len()` was checked, so the pointer is to a live slot. This
                // log alone won the claim of slot `n` (invariant 2), so nothing else writes it;
                // no log reads it yet, since every log of `c` has `len <= n` until this one counts
                // it below (invariant 3). `MaybeUninit::write` drops no old value.
                unsafe { (*c.slots[n].get()).write(e) };
                self.len = n + 1;
                return;
            }
        }
        self.copy_and_push(e);
    }

    /// Appends `e` to a copy of the events in a new chunk of this log's own.
    #[cold]
    fn copy_and_push(&mut self, e: Event) {
        let n = self.len;
        let cap = (2 * (n + 1)).max(LOG_MIN_CHUNK);
        let mut slots = Vec::with_capacity(cap);
        slots.extend(
            self.as_slice()
                .iter()
                .chain([&e])
                .map(|&x| UnsafeCell::new(MaybeUninit::new(x))),
        );
        slots.resize_with(cap, || UnsafeCell::new(MaybeUninit::uninit()));
        self.chunk = Some(Arc::new(Chunk {
            claimed: AtomicUsize::new(n + 1),
            lineage: new_lineage(),
            slots: slots.into_boxed_slice(),
        }));
        self.len = n + 1;
    }

    /// The events.
    #[inline]
    pub fn as_slice(&self) -> &[Event] {
        match &self.chunk {
            None => &[],
            // SAFETY: `len <= c.slots.len()` and the first `len` slots are initialised
            // (invariant 1), by writes that happened before this log counted them. They are never
            // written again (a slot is written once, before anyone counts it), so they stay
            // unchanged while the slice, tied to `&self` (which keeps `c` alive), is in use.
            // `UnsafeCell<MaybeUninit<Event>>` is `repr(transparent)` over `Event`: same layout.
            Some(c) => unsafe {
                std::slice::from_raw_parts(c.slots.as_ptr().cast::<Event>(), self.len)
            },
        }
    }

    /// Which events buffer the log reads, as a number no other buffer had: two logs of the
    /// same lineage hold the same events up to the shorter one's length, so a reader that has
    /// read one can go on from there with the other. `None` for the empty log.
    pub fn lineage(&self) -> Option<u64> {
        self.chunk.as_ref().map(|c| c.lineage)
    }

    /// The running digest of the events (the same for equal logs).
    pub fn digest(&self) -> u64 {
        self.digest
    }
}

/// Folds the words of an event's encoding into a log's digest (as `checker::FpHasher` does).
struct Digest(u64);

impl Hasher for Digest {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, _: &[u8]) {
        unreachable!("events are encoded as words")
    }

    #[inline(always)]
    fn write_u64(&mut self, w: u64) {
        let p = u128::from(self.0 ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (p as u64) ^ ((p >> 64) as u64);
    }
}

impl Default for Log {
    fn default() -> Self {
        Log::new()
    }
}

impl Clone for Log {
    #[inline]
    fn clone(&self) -> Self {
        Log {
            chunk: self.chunk.clone(),
            len: self.len,
            digest: self.digest,
        }
    }
}

impl std::ops::Deref for Log {
    type Target = [Event];

    #[inline]
    fn deref(&self) -> &[Event] {
        self.as_slice()
    }
}

impl fmt::Debug for Log {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl PartialEq for Log {
    fn eq(&self, other: &Log) -> bool {
        self.digest == other.digest && self.as_slice() == other.as_slice()
    }
}

impl Eq for Log {}

impl PartialEq<Vec<Event>> for Log {
    fn eq(&self, other: &Vec<Event>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<[Event]> for Log {
    fn eq(&self, other: &[Event]) -> bool {
        self.as_slice() == other
    }
}

/// Hashes exactly as `Vec<Event>` does; `State` hashes the digest instead.
impl Hash for Log {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state)
    }
}

impl Extend<Event> for Log {
    fn extend<I: IntoIterator<Item = Event>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}

impl FromIterator<Event> for Log {
    fn from_iter<I: IntoIterator<Item = Event>>(iter: I) -> Self {
        let mut log = Log::new();
        log.extend(iter);
        log
    }
}

impl From<Vec<Event>> for Log {
    fn from(v: Vec<Event>) -> Self {
        v.into_iter().collect()
    }
}

impl From<Log> for Vec<Event> {
    fn from(log: Log) -> Self {
        log.as_slice().to_vec()
    }
}

impl<'a> IntoIterator for &'a Log {
    type Item = &'a Event;
    type IntoIter = std::slice::Iter<'a, Event>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::Cost;
    use crate::state::{Obj, Player};

    fn events() -> Vec<Event> {
        vec![
            Event::MovedToChain {
                item: 0,
                card: 3,
                by: Player::YOU,
            },
            Event::CostPaid {
                item: 0,
                paid: Cost::energy(2),
                discarded: 1,
            },
            Event::TargetChosen {
                item: 0,
                exec: 1,
                slot: 0,
                obj: Obj::Gear(1),
            },
            Event::ChainClosed,
        ]
    }

    #[test]
    fn the_digest_depends_only_on_the_events() {
        let pushed = {
            let mut l = Log::new();
            for e in events() {
                l.push(e);
            }
            l
        };
        let collected: Log = events().into_iter().collect();
        let converted = Log::from(events());
        assert_eq!(pushed.digest(), collected.digest());
        assert_eq!(pushed.digest(), converted.digest());
        assert_eq!(pushed.clone().digest(), pushed.digest());
        assert_eq!(pushed, events());
        assert_eq!(format!("{pushed:?}"), format!("{:?}", events()));
        let mut other = events();
        other.swap(1, 2);
        let other = Log::from(other);
        assert_ne!(other.digest(), pushed.digest());
        assert_ne!(other, pushed);
        assert_ne!(Log::new().digest(), pushed.digest());
        assert_eq!(&pushed[1..], &events()[1..]);
    }

    /// Events of different variants digest differently even where every field is zero: the
    /// digest stands for the events in a state's hash, so two variants sharing a tag (and, with
    /// zero fields, every bit) would make two different states one.
    #[test]
    fn events_of_different_variants_never_share_a_digest() {
        use crate::state::{Grant, Location};
        let zero = Cost::energy(0);
        let pairs = [
            (
                Event::TurnEnded,
                Event::OptionalCostDeclared {
                    item: 0,
                    index: 0,
                    pay: false,
                },
            ),
            (
                Event::GrantTaken {
                    item: 0,
                    who: Player::YOU,
                    grant: Grant::Portal,
                },
                Event::OptionalCostAdded {
                    item: 0,
                    index: 0,
                    cost: zero,
                },
            ),
            (
                Event::GearExhausted { item: 0, gear: 0 },
                Event::LocationChosen {
                    item: 0,
                    to: Location::Base(Player::YOU),
                },
            ),
            (
                Event::PoolEmptied {
                    who: Player::YOU,
                    amount: zero,
                },
                Event::UnitEntered {
                    item: 0,
                    unit: 0,
                    at: Location::Base(Player::YOU),
                    ready: false,
                },
            ),
        ];
        for (a, b) in pairs {
            let (da, db) = (Log::from(vec![a]).digest(), Log::from(vec![b]).digest());
            assert_ne!(da, db, "{a:?} and {b:?}");
        }
    }

    /// Copies share events until they diverge; each must still read as its own events, whoever
    /// appends first, past a chunk's end, and on several threads at once.
    #[test]
    fn copies_diverge_independently() {
        let ev = |n: u8| Event::Resolved { item: n };
        let mut base = Log::new();
        let mut expect = Vec::new();
        for n in 0..5 {
            base.push(ev(n));
            expect.push(ev(n));
        }
        let mut a = base.clone();
        let mut b = base.clone();
        b.push(ev(100));
        a.push(ev(200));
        base.push(ev(250));
        let with = |x: u8| expect.iter().copied().chain([ev(x)]).collect::<Vec<_>>();
        assert_eq!(b, with(100));
        assert_eq!(a, with(200));
        assert_eq!(base, with(250));
        assert_eq!(b.digest(), Log::from(with(100)).digest());
        let mut long = a.clone();
        let mut long_v = with(200);
        for n in 0..(3 * LOG_MIN_CHUNK as u8) {
            let snapshot = long.clone();
            long.push(ev(n));
            long_v.push(ev(n));
            assert_eq!(snapshot, long_v[..long_v.len() - 1]);
        }
        assert_eq!(long, long_v);
        assert_eq!(a, with(200));
        let logs: Vec<Log> = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..4u8)
                .map(|t| {
                    let mut l = base.clone();
                    sc.spawn(move || {
                        for n in 0..40 {
                            l.push(ev(t * 50 + n));
                        }
                        l
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (t, l) in logs.iter().enumerate() {
            let mut v = with(250);
            v.extend((0..40).map(|n| ev(t as u8 * 50 + n)));
            assert_eq!(*l, v);
            assert_eq!(l.digest(), Log::from(v).digest());
        }
        assert_eq!(base, with(250));
    }

    /// A log alone with its chunk appends in place, over what a dropped copy wrote there, and
    /// takes a new lineage then: a reader that went on by lineage would otherwise take the
    /// dropped copy's events for its own.
    #[test]
    fn a_log_alone_writes_over_a_dropped_copy_under_a_new_lineage() {
        let ev = |n: u8| Event::Resolved { item: n };
        let mut parent: Log = (0..3).map(ev).collect();
        let before = parent.lineage();
        let mut sibling = parent.clone();
        sibling.push(ev(10));
        sibling.push(ev(11));
        assert_eq!(
            sibling.lineage(),
            before,
            "the first copy extends the shared chunk"
        );
        let ptr = sibling.as_slice().as_ptr();
        drop(sibling);
        parent.push(ev(20));
        assert_eq!(
            parent.as_slice().as_ptr(),
            ptr,
            "appended in place, not copied"
        );
        assert_ne!(parent.lineage(), before, "slot 3 was written over");
        assert_eq!(parent, (0..3).map(ev).chain([ev(20)]).collect::<Vec<_>>());
        assert_eq!(
            parent.digest(),
            Log::from((0..3).map(ev).chain([ev(20)]).collect::<Vec<_>>()).digest()
        );
        // Alone and at the end of what was claimed: the lineage stays.
        let now = parent.lineage();
        parent.push(ev(21));
        assert_eq!(parent.lineage(), now);
        // Shared again: the copy that appends second copies, into a lineage of its own.
        let mut a = parent.clone();
        let mut b = parent.clone();
        a.push(ev(30));
        b.push(ev(31));
        assert_eq!(a.lineage(), now);
        assert_ne!(b.lineage(), now);
        assert_eq!(parent.len(), 5);
    }

    /// Clones of one log race to append on several threads: exactly one extends the shared
    /// chunk in place, the others copy, and every log reads as its own events.
    #[test]
    fn concurrent_claims_have_one_winner() {
        let ev = |n: u8| Event::Resolved { item: n };
        let base: Log = (0..3).map(ev).collect();
        let shared = base.chunk.clone().expect("a chunk");
        let logs: Vec<Log> = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..4u8)
                .map(|t| {
                    let mut l = base.clone();
                    sc.spawn(move || {
                        l.push(ev(10 + t));
                        l
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let in_place = logs
            .iter()
            .filter(|l| Arc::ptr_eq(l.chunk.as_ref().unwrap(), &shared))
            .count();
        assert_eq!(in_place, 1);
        assert_eq!(shared.claimed.load(Ordering::Relaxed), 4);
        for (t, l) in logs.iter().enumerate() {
            let want: Vec<Event> = (0..3).chain([10 + t as u8]).map(ev).collect();
            assert_eq!(*l, want);
            assert_eq!(l.digest(), Log::from(want).digest());
        }
        assert_eq!(base, (0..3).map(ev).collect::<Vec<_>>());
    }

    /// A log handed from thread to thread keeps extending one chunk; each thread reads what the
    /// one before wrote, while older copies are read and dropped elsewhere.
    #[test]
    fn a_log_passed_between_threads_reads_what_was_written_before() {
        let ev = |n: u8| Event::Resolved { item: n };
        let (to_b, from_a) = std::sync::mpsc::channel::<Log>();
        let (to_main, from_b) = std::sync::mpsc::channel::<Log>();
        let mut l = Log::new();
        l.push(ev(0));
        let keep = l.clone();
        std::thread::scope(|sc| {
            sc.spawn(move || {
                l.push(ev(1));
                let older = l.clone();
                l.push(ev(2));
                to_b.send(l).unwrap();
                assert_eq!(older, vec![ev(0), ev(1)]);
            });
            sc.spawn(move || {
                let mut l = from_a.recv().unwrap();
                assert_eq!(l, vec![ev(0), ev(1), ev(2)]);
                l.push(ev(3));
                to_main.send(l).unwrap();
            });
            let l = from_b.recv().unwrap();
            assert_eq!(l, (0..4).map(ev).collect::<Vec<_>>());
            assert!(Arc::ptr_eq(
                l.chunk.as_ref().unwrap(),
                keep.chunk.as_ref().unwrap()
            ));
        });
        assert_eq!(keep, vec![ev(0)]);
    }
}
