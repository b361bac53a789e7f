//! Tests of `InlineVec`: it must behave as a `Vec` would, and every path through its `unsafe`
//! code (inline, spilled, cloned, moved across threads, a panicking clone) must drop each element
//! exactly once. `.ci/run` runs them under Miri.

use super::InlineVec;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Push(u8),
    Pop,
    Truncate(usize),
    Remove(usize),
    Insert(usize, u8),
    Retain(u8),
    Resize(usize, u8),
    Clone,
    Clear,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u8>().prop_map(Op::Push),
        1 => Just(Op::Pop),
        1 => (0usize..8).prop_map(Op::Truncate),
        1 => (0usize..8).prop_map(Op::Remove),
        1 => (0usize..8, any::<u8>()).prop_map(|(i, x)| Op::Insert(i, x)),
        1 => (1u8..4).prop_map(Op::Retain),
        1 => (0usize..9, any::<u8>()).prop_map(|(n, x)| Op::Resize(n, x)),
        1 => Just(Op::Clone),
        1 => Just(Op::Clear),
    ]
}

/// Runs `ops` on an `InlineVec` and a `Vec` of `mk(x)` elements; every result must agree.
fn agrees_with_vec<T, const N: usize>(
    ops: Vec<Op>,
    mk: impl Fn(u8) -> T,
    key: impl Fn(&T) -> u8,
) -> Result<(), TestCaseError>
where
    T: Clone + PartialEq + std::fmt::Debug + std::hash::Hash,
{
    let mut v: Vec<T> = Vec::new();
    let mut s: InlineVec<T, N> = InlineVec::new();
    for op in ops {
        match op {
            Op::Push(x) => {
                v.push(mk(x));
                s.push(mk(x));
            }
            Op::Pop => prop_assert_eq!(v.pop(), s.pop()),
            Op::Truncate(n) => {
                v.truncate(n);
                s.truncate(n);
            }
            Op::Remove(i) => {
                if i < v.len() {
                    prop_assert_eq!(v.remove(i), s.remove(i));
                }
            }
            Op::Insert(i, x) => {
                if i <= v.len() {
                    v.insert(i, mk(x));
                    s.insert(i, mk(x));
                }
            }
            Op::Retain(m) => {
                let mut seen_v = vec![];
                let mut seen_s = vec![];
                v.retain(|x| {
                    seen_v.push(x.clone());
                    key(x) % 4 != m
                });
                s.retain(|x| {
                    seen_s.push(x.clone());
                    key(x) % 4 != m
                });
                prop_assert_eq!(seen_v, seen_s);
            }
            Op::Resize(n, x) => {
                v.resize(n, mk(x));
                s.resize(n, mk(x));
            }
            Op::Clone => {
                let c = s.clone();
                prop_assert_eq!(&c, &v);
                s = c;
            }
            Op::Clear => {
                v.clear();
                s.clear();
            }
        }
        prop_assert_eq!(&s, &v);
        prop_assert_eq!(s.len(), v.len());
        prop_assert_eq!(checker_like_hash(&s), checker_like_hash(&v));
        prop_assert_eq!(format!("{s:?}"), format!("{v:?}"));
    }
    prop_assert_eq!(s.into_vec(), v);
    Ok(())
}

proptest! {
    /// Owned, dropping elements (`String`), so that a double drop or a leak would show under
    /// a sanitizer, and every result must equal a `Vec`'s. (Too slow for Miri, which runs
    /// `agrees_with_vec` on fixed sequences instead.)
    #[test]
    #[cfg_attr(miri, ignore)]
    fn behaves_like_a_vec(ops in proptest::collection::vec(op(), 0..60)) {
        agrees_with_vec::<String, 3>(ops, |x| x.to_string(), |x| x.len() as u8)?;
    }

    /// Elements aligned to 1 (as most state lists are), so the spilled vector's pointer sits
    /// unaligned right after the length byte.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn behaves_like_a_vec_unaligned(ops in proptest::collection::vec(op(), 0..60)) {
        agrees_with_vec::<[u8; 3], 2>(ops, |x| [x, x ^ 1, 7], |x| x[0])?;
    }
}

/// A fixed sequence of every operation, at every length from empty to spilled and back, in
/// the order a simple generator gives: what Miri runs in place of the property tests.
fn fixed_ops() -> Vec<Op> {
    let mut x = 12345u32;
    let mut next = move |m: u32| {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (x >> 16) % m
    };
    let mut ops = Vec::new();
    for round in 0..4 {
        for i in 0..6 {
            ops.push(Op::Push(round * 10 + i));
        }
        for _ in 0..30 {
            let r = next(100) as u8;
            ops.push(match next(9) {
                0 | 1 => Op::Push(r),
                2 => Op::Pop,
                3 => Op::Truncate(r as usize % 8),
                4 => Op::Remove(r as usize % 8),
                5 => Op::Insert(r as usize % 8, r),
                6 => Op::Retain(1 + r % 3),
                7 => Op::Resize(r as usize % 9, r),
                _ => Op::Clone,
            });
        }
        // Cleared, then cloned: the clone of an empty spilled vector is inline again.
        ops.push(Op::Clear);
        ops.push(Op::Clone);
    }
    ops
}

#[test]
fn agrees_with_vec_on_a_fixed_sequence() {
    agrees_with_vec::<String, 3>(fixed_ops(), |x| x.to_string(), |x| x.len() as u8).unwrap();
    agrees_with_vec::<[u8; 3], 2>(fixed_ops(), |x| [x, x ^ 1, 7], |x| x[0]).unwrap();
}

fn checker_like_hash<T: std::hash::Hash + ?Sized>(t: &T) -> Vec<u8> {
    /// Records what a hasher is given, so that two values hash alike under any hasher.
    #[derive(Default)]
    struct Record(Vec<u8>);
    impl std::hash::Hasher for Record {
        fn finish(&self) -> u64 {
            0
        }
        fn write(&mut self, bytes: &[u8]) {
            self.0.extend_from_slice(bytes);
            self.0.push(0xff);
        }
    }
    let mut r = Record::default();
    t.hash(&mut r);
    r.0
}

#[test]
fn spills_beyond_n_and_reads_alike() {
    let mut s: InlineVec<u16, 2> = InlineVec::new();
    s.push(1);
    s.push(2);
    assert!(!s.spilled());
    s.push(3);
    assert!(s.spilled());
    assert_eq!(s, vec![1, 2, 3]);
    assert_eq!(&s[1..], &[2, 3]);
    assert_eq!(s.iter().sum::<u16>(), 6);
    let c = s.clone();
    assert_eq!(c, s);
    let v: Vec<u16> = s.into();
    assert_eq!(v, vec![1, 2, 3]);
}

/// An element that counts its live copies, so a leak or a double drop shows as a count.
#[derive(Debug, PartialEq)]
struct Counted {
    value: u32,
    live: std::rc::Rc<std::cell::Cell<i32>>,
    /// Cloning it panics (to test that a failed clone drops only what it made).
    poison: bool,
}

impl Counted {
    fn new(value: u32, live: &std::rc::Rc<std::cell::Cell<i32>>) -> Self {
        live.set(live.get() + 1);
        Counted {
            value,
            live: live.clone(),
            poison: false,
        }
    }
}

impl Clone for Counted {
    fn clone(&self) -> Self {
        assert!(!self.poison, "poisoned clone");
        Counted::new(self.value, &self.live)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.live.set(self.live.get() - 1);
    }
}

/// Every way in and out of the vector, inline and spilled, drops each element exactly once.
#[test]
fn push_spill_clone_iterate_and_drop_each_element_once() {
    let live = std::rc::Rc::new(std::cell::Cell::new(0));
    let mk = |v: u32| Counted::new(v, &live);
    let values = |s: &[Counted]| s.iter().map(|c| c.value).collect::<Vec<_>>();
    {
        let mut s: InlineVec<Counted, 3> = InlineVec::new();
        for v in 0..3 {
            s.push(mk(v));
        }
        assert!(!s.spilled());
        let inline_copy = s.clone();
        s.push(mk(3));
        assert!(s.spilled());
        assert_eq!(live.get(), 7);
        let spilled_copy = s.clone();
        assert!(spilled_copy.spilled());
        assert_eq!(values(&s), [0, 1, 2, 3]);
        assert_eq!(values(&inline_copy), [0, 1, 2]);
        for c in &mut s {
            c.value += 10;
        }
        assert_eq!(s.iter().map(|c| c.value).sum::<u32>(), 46);
        assert_eq!(s.pop().map(|c| c.value), Some(13));
        assert_eq!(s.remove(0).value, 10);
        s.insert(1, mk(99));
        // Spilled but short again: its clone is inline.
        let short = s.clone();
        assert!(!short.spilled());
        assert_eq!(values(&short), [11, 99, 12]);
        // Partly consumed owning iterators drop the rest.
        let mut it = short.into_iter();
        assert_eq!(it.next().map(|c| c.value), Some(11));
        drop(it);
        let mut it = spilled_copy.into_iter();
        assert_eq!(it.next().map(|c| c.value), Some(0));
        drop(it);
        let v: Vec<Counted> = inline_copy.into();
        assert_eq!(values(&v), [0, 1, 2]);
        let back: InlineVec<Counted, 3> = v.into();
        assert!(!back.spilled());
        let big: InlineVec<Counted, 3> = (0..5).map(mk).collect::<Vec<_>>().into();
        assert!(big.spilled());
        let mut t: InlineVec<Counted, 3> = (0..3).map(mk).collect();
        t.insert(0, mk(7)); // inserting into a full inline vector spills it
        assert!(t.spilled());
        assert_eq!(values(&t), [7, 0, 1, 2]);
        t.retain(|c| c.value % 2 == 1);
        t.truncate(1);
        assert_eq!(values(&t), [7]);
        let mut u: InlineVec<Counted, 3> = (0..3).map(mk).collect();
        u.remove(1);
        u.insert(1, mk(5));
        u.retain(|c| c.value != 0);
        assert_eq!(values(&u), [5, 2]);
        u.clear();
        assert!(u.is_empty());
    }
    assert_eq!(live.get(), 0, "every element dropped exactly once");
}

/// A clone that panics part-way leaves no element dropped twice or leaked.
#[test]
fn a_failed_clone_drops_only_the_clones_it_made() {
    let live = std::rc::Rc::new(std::cell::Cell::new(0));
    let mut s: InlineVec<Counted, 4> = InlineVec::new();
    for v in 0..3 {
        s.push(Counted::new(v, &live));
    }
    s[2].poison = true;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.clone()));
    assert!(r.is_err());
    assert_eq!(live.get(), 3);
    drop(s);
    assert_eq!(live.get(), 0);
}

/// One-byte elements put the spilled vector's pointer at an odd address; reading, writing
/// and freeing it must not assume alignment.
#[test]
fn a_spilled_pointer_may_sit_unaligned() {
    assert_eq!(std::mem::align_of::<InlineVec<u8, 1>>(), 1);
    let mut row: Vec<InlineVec<u8, 1>> = (0..3).map(|_| InlineVec::new()).collect();
    for (i, v) in row.iter_mut().enumerate() {
        v.extend(0..=i as u8 + 1);
        assert!(v.spilled());
    }
    let copy = row.clone();
    assert_eq!(copy[2], [0, 1, 2, 3]);
    assert_eq!(row, copy);
}

/// Vectors move to and are shared with other threads (`Send` and `Sync`).
#[test]
fn moves_and_shares_across_threads() {
    let inline: InlineVec<String, 2> = ["a".to_string()].into_iter().collect();
    let spilled: InlineVec<String, 2> = ["b", "c", "d"].iter().map(|s| s.to_string()).collect();
    let read = std::thread::scope(|sc| {
        let (a, b) = (&inline, &spilled);
        let r1 = sc.spawn(move || a.iter().chain(b).cloned().collect::<String>());
        let r2 = sc.spawn(move || b.len() + a.len());
        (r1.join().unwrap(), r2.join().unwrap())
    });
    assert_eq!(read, ("abcd".to_string(), 4));
    let (inline, spilled) = std::thread::spawn(move || {
        let mut spilled = spilled;
        spilled.push("e".to_string());
        (inline, spilled)
    })
    .join()
    .unwrap();
    assert_eq!(inline, ["a".to_string()]);
    assert_eq!(spilled.concat(), "bcde");
}

/// `copied` gives what `clone` gives, inline (every length up to N) and spilled (back inline
/// once it fits, as `clone` does), and the copy is independent of the original.
#[test]
fn copied_is_clone_for_copy_elements() {
    for n in 0..7u8 {
        let mut v: InlineVec<(u8, u16), 3> = InlineVec::new();
        for i in 0..n {
            v.push((i, u16::from(i) * 300));
        }
        if n == 6 {
            v.truncate(2); // spilled, yet short enough to fit inline again
        }
        let (c, k) = (v.copied(), v.clone());
        assert_eq!(c.as_slice(), k.as_slice());
        assert_eq!(c.spilled(), k.spilled(), "length {n}");
        let mut c = c;
        c.push((9, 9));
        assert_eq!(v.as_slice(), k.as_slice(), "the original is untouched");
    }
}
