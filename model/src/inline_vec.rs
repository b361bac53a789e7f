//! `InlineVec`, a small vector that keeps its first elements inline with a one-byte header: the
//! lists of a state are short and copied with every transition. Generic: it knows nothing of
//! cards. This is one of the two modules of the crate with `unsafe` code (with `state::log`).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::{ManuallyDrop, MaybeUninit};
use std::ptr::NonNull;

/// A vector that keeps up to `N` elements inline, in the value itself, and moves them to the
/// heap only beyond that. The lists of a state (units, chain items, choices, picks...) are short:
/// inline, copying a state (which the checker does for every transition) allocates nothing for
/// them, and dropping one frees nothing.
///
/// Its header is a single byte, the length (or `SPILLED`), and it is aligned as its elements,
/// not as a pointer: every byte of it is copied with each state, so `InlineVec<CardId, 4>` is 10
/// bytes where a tagged enum of an array and a `Box` would be 16.
///
/// It reads like a `Vec` (it dereferences to a slice), and hashes, compares and prints exactly
/// as a `Vec` with the same elements would.
pub struct InlineVec<T, const N: usize> {
    /// How many slots of `data.inline` are initialised, or `SPILLED` when `data.heap` is live.
    len: u8,
    data: Data<T, N>,
}

/// The `len` of a vector whose elements are on the heap.
const SPILLED: u8 = u8::MAX;

/// Which field is live, the vector's `len` says.
union Data<T, const N: usize> {
    /// The first `len` slots are initialised.
    inline: ManuallyDrop<[MaybeUninit<T>; N]>,
    /// Owned by the vector: from `Box::into_raw`, freed in `drop` or `into_vec`.
    heap: HeapPtr<T>,
}

/// Packed, so that the pointer of the rare spilled vector does not make every vector 8-aligned.
#[repr(C, packed)]
struct HeapPtr<T>(NonNull<Vec<T>>);

impl<T> Clone for HeapPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for HeapPtr<T> {}

// SAFETY: the vector owns its elements, inline or behind a pointer that no other value holds,
// exactly as a `Box<Vec<T>>` would; the raw pointer only hides that from the compiler.
unsafe impl<T: Send, const N: usize> Send for InlineVec<T, N> {}
// SAFETY: as for `Send`: shared access only ever hands out `&T`.
unsafe impl<T: Sync, const N: usize> Sync for InlineVec<T, N> {}

impl<T, const N: usize> InlineVec<T, N> {
    const CHECK: () = assert!(N > 0 && N < SPILLED as usize, "N must be in 1..=254");

    /// An empty vector (allocates nothing).
    pub const fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::CHECK;
        InlineVec {
            len: 0,
            data: Data {
                inline: ManuallyDrop::new([const { MaybeUninit::uninit() }; N]),
            },
        }
    }

    /// A spilled vector holding `v`.
    fn from_heap(v: Vec<T>) -> Self {
        let mut out = Self::new();
        out.data.heap = HeapPtr(NonNull::from(Box::leak(Box::new(v))));
        out.len = SPILLED;
        out
    }

    /// The pointer to the heap vector, if spilled.
    #[inline(always)]
    fn heap_ptr(&self) -> Option<NonNull<Vec<T>>> {
        if self.len == SPILLED {
            // SAFETY: `len` says `heap` is the live field (read by value: it is packed). Read
            // only then: inline, those bytes may be uninitialised.
            Some(unsafe { self.data.heap }.0)
        } else {
            None
        }
    }

    /// The heap vector, if spilled.
    #[inline]
    fn heap(&self) -> Option<&Vec<T>> {
        // SAFETY: a live `heap` is valid and owned by `self`, so it is borrowed as long as it.
        self.heap_ptr().map(|p| unsafe { p.as_ref() })
    }

    /// The heap vector, mutably, if spilled.
    #[inline]
    fn heap_mut(&mut self) -> Option<&mut Vec<T>> {
        // SAFETY: as in `heap`; `&mut self` makes the access exclusive.
        self.heap_ptr().map(|mut p| unsafe { p.as_mut() })
    }

    /// The first inline slot (meaningful only while not spilled).
    #[inline(always)]
    fn slots(&self) -> *const T {
        (&raw const self.data.inline).cast()
    }

    /// The first inline slot, mutably (meaningful only while not spilled).
    #[inline(always)]
    fn slots_mut(&mut self) -> *mut T {
        (&raw mut self.data.inline).cast()
    }

    /// The elements.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        match self.heap() {
            Some(v) => v,
            // SAFETY: not spilled, so the first `len` slots are initialised.
            None => unsafe { std::slice::from_raw_parts(self.slots(), self.len as usize) },
        }
    }

    /// The elements, mutably.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        if self.len == SPILLED {
            return self.heap_mut().expect("spilled");
        }
        let n = self.len as usize;
        // SAFETY: not spilled, so the first `len` slots are initialised.
        unsafe { std::slice::from_raw_parts_mut(self.slots_mut(), n) }
    }

    /// Whether the elements are on the heap (more than `N` were held at some point).
    pub fn spilled(&self) -> bool {
        self.len == SPILLED
    }

    /// The heap vector, moving the elements there first (with room for `extra` more) if inline.
    #[cold]
    fn spill(&mut self, extra: usize) -> &mut Vec<T> {
        if self.len != SPILLED {
            let n = self.len as usize;
            let mut v = Vec::with_capacity((n + extra).max(2 * N));
            // Ownership of the elements passes to `v`: forget them here first.
            self.len = 0;
            for i in 0..n {
                // SAFETY: slot `i < n` was initialised, and is read once (len is now 0).
                v.push(unsafe { self.slots().add(i).read() });
            }
            self.data.heap = HeapPtr(NonNull::from(Box::leak(Box::new(v))));
            self.len = SPILLED;
        }
        self.heap_mut().expect("spilled")
    }

    /// Appends an element.
    #[inline]
    pub fn push(&mut self, x: T) {
        let n = self.len as usize;
        // `SPILLED` is never below `N`.
        if n < N {
            // SAFETY: slot `n < N` is in bounds and not initialised.
            unsafe { self.slots_mut().add(n).write(x) };
            self.len += 1;
        } else {
            self.spill(1).push(x);
        }
    }

    /// Removes the last element.
    pub fn pop(&mut self) -> Option<T> {
        if let Some(v) = self.heap_mut() {
            return v.pop();
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: slot `len` was initialised and is no longer counted.
        Some(unsafe { self.slots().add(self.len as usize).read() })
    }

    /// Keeps the first `n` elements, dropping the rest.
    pub fn truncate(&mut self, n: usize) {
        if let Some(v) = self.heap_mut() {
            v.truncate(n);
            return;
        }
        while self.len as usize > n {
            self.len -= 1;
            // SAFETY: slot `len` was initialised and is no longer counted.
            unsafe { std::ptr::drop_in_place(self.slots_mut().add(self.len as usize)) };
        }
    }

    /// Removes every element.
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Removes and returns the element at `index`, shifting the later ones down.
    pub fn remove(&mut self, index: usize) -> T {
        let n = self.len();
        assert!(
            index < n,
            "removal index {index} is out of bounds (len {n})"
        );
        if let Some(v) = self.heap_mut() {
            return v.remove(index);
        }
        let p = self.slots_mut();
        // SAFETY: `index < n`; the element is read out, the initialised tail moved down over it,
        // and the length reduced so the last slot is no longer counted.
        unsafe {
            let x = std::ptr::read(p.add(index));
            std::ptr::copy(p.add(index + 1), p.add(index), n - index - 1);
            self.len -= 1;
            x
        }
    }

    /// Inserts an element at `index`, shifting the later ones up.
    pub fn insert(&mut self, index: usize, x: T) {
        let n = self.len();
        assert!(
            index <= n,
            "insertion index {index} is out of bounds (len {n})"
        );
        if self.len == SPILLED || n == N {
            self.spill(1).insert(index, x);
            return;
        }
        let p = self.slots_mut();
        // SAFETY: `n < N`, so there is room for the tail to move up by one slot.
        unsafe {
            std::ptr::copy(p.add(index), p.add(index + 1), n - index);
            std::ptr::write(p.add(index), x);
        }
        self.len += 1;
    }

    /// Keeps the elements for which `keep` is true, in order (`keep` sees each once, in order).
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        if let Some(v) = self.heap_mut() {
            v.retain(keep);
            return;
        }
        let s = self.as_mut_slice();
        let mut removed = 0;
        for i in 0..s.len() {
            if !keep(&s[i]) {
                removed += 1;
            } else if removed > 0 {
                s.swap(i - removed, i);
            }
        }
        let n = s.len() - removed;
        self.truncate(n);
    }

    /// Resizes to `n` elements, appending clones of `value` or dropping the excess.
    pub fn resize(&mut self, n: usize, value: T)
    where
        T: Clone,
    {
        if n <= self.len() {
            self.truncate(n);
        } else {
            while self.len() < n {
                self.push(value.clone());
            }
        }
    }

    /// The elements as a `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        // `this` is never dropped: its elements (or its box) move out exactly once below.
        let mut this = ManuallyDrop::new(self);
        if let Some(p) = this.heap_ptr() {
            // SAFETY: from `Box::into_raw`, and owned by `this`, which no longer frees it.
            return *unsafe { Box::from_raw(p.as_ptr()) };
        }
        let n = this.len as usize;
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            // SAFETY: slot `i < len` is initialised, and read once.
            v.push(unsafe { this.slots_mut().add(i).read() });
        }
        v
    }
}

impl<T, const N: usize> Drop for InlineVec<T, N> {
    fn drop(&mut self) {
        if let Some(p) = self.heap_ptr() {
            // SAFETY: from `Box::into_raw`, and freed only here.
            drop(unsafe { Box::from_raw(p.as_ptr()) });
        } else {
            // SAFETY: drops each initialised element once.
            unsafe { std::ptr::drop_in_place(self.as_mut_slice()) };
        }
    }
}

impl<T, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Clone, const N: usize> Clone for InlineVec<T, N> {
    #[inline]
    fn clone(&self) -> Self {
        match self.heap() {
            None => {
                let mut out = Self::new();
                let (src, dst) = (self.slots(), out.slots_mut());
                for i in 0..self.len as usize {
                    // SAFETY: source slot `i < len` is initialised and destination slot `i < N`
                    // is free. `out.len` counts each clone as it is written, so should a clone
                    // panic, `out` drops exactly the clones made so far.
                    unsafe { dst.add(i).write((*src.add(i)).clone()) };
                    out.len += 1;
                }
                out
            }
            Some(v) if v.len() <= N => v.iter().cloned().collect(),
            Some(v) => Self::from_heap(v.clone()),
        }
    }
}

impl<T, const N: usize> std::ops::Deref for InlineVec<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T, const N: usize> std::ops::DerefMut for InlineVec<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

impl<T: PartialEq, const N: usize, const M: usize> PartialEq<InlineVec<T, M>> for InlineVec<T, N> {
    fn eq(&self, other: &InlineVec<T, M>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq, const N: usize> Eq for InlineVec<T, N> {}

impl<T: PartialEq, const N: usize> PartialEq<Vec<T>> for InlineVec<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T]> for InlineVec<T, N> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq, const N: usize, const K: usize> PartialEq<[T; K]> for InlineVec<T, N> {
    fn eq(&self, other: &[T; K]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

/// Hashes exactly as `Vec<T>` and `[T]` do (length, then the elements).
impl<T: Hash, const N: usize> Hash for InlineVec<T, N> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state)
    }
}

impl<T, const N: usize> Extend<T> for InlineVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl<T, const N: usize> FromIterator<T> for InlineVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        v.extend(iter);
        v
    }
}

impl<T, const N: usize> From<Vec<T>> for InlineVec<T, N> {
    fn from(v: Vec<T>) -> Self {
        if v.len() > N {
            Self::from_heap(v)
        } else {
            v.into_iter().collect()
        }
    }
}

impl<T, const N: usize> From<InlineVec<T, N>> for Vec<T> {
    fn from(v: InlineVec<T, N>) -> Self {
        v.into_vec()
    }
}

impl<T, const N: usize> IntoIterator for InlineVec<T, N> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a mut InlineVec<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

#[cfg(test)]
mod tests {
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
        /// Miri or a sanitizer, and every result must equal a `Vec`'s.
        #[test]
        fn behaves_like_a_vec(ops in proptest::collection::vec(op(), 0..60)) {
            agrees_with_vec::<String, 3>(ops, |x| x.to_string(), |x| x.len() as u8)?;
        }

        /// Elements aligned to 1 (as most state lists are), so the spilled vector's pointer sits
        /// unaligned right after the length byte.
        #[test]
        fn behaves_like_a_vec_unaligned(ops in proptest::collection::vec(op(), 0..60)) {
            agrees_with_vec::<[u8; 3], 2>(ops, |x| [x, x ^ 1, 7], |x| x[0])?;
        }
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
}
