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
    /// Owned by the vector: from `Box::leak`, freed (by `Box::from_raw`) in `drop` or `into_vec`.
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

// SAFETY: an `InlineVec<T, N>` is, for ownership, a `[T; N]` or a `Box<Vec<T>>` (which are
// `Send` when `T` is): it owns its elements, and its heap pointer comes from a `Box` that no other
// value points to (it is never copied out except to be read while `self` is borrowed, or freed
// once in `drop`/`into_vec`). So moving it to another thread moves only `T`s, which `T: Send`
// allows. `NonNull` is not `Send` only because it cannot know this.
unsafe impl<T: Send, const N: usize> Send for InlineVec<T, N> {}
// SAFETY: through `&InlineVec` one reaches only `&T` (`as_slice`, `heap`, iteration); every
// method that mutates takes `&mut self` and there is no interior mutability. Sharing it across
// threads thus shares only `&T`, which `T: Sync` allows, as for `[T; N]` and `Box<Vec<T>>`.
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
            // SAFETY: `len == SPILLED` only after `heap` was written (`from_heap`, `spill`), and
            // nothing writes `inline` while spilled, so `heap` is the live, initialised field.
            // It is copied out by value, as a packed field must be (no reference to it is made,
            // so its alignment of 1 does not matter).
            Some(unsafe { self.data.heap }.0)
        } else {
            None
        }
    }

    /// The heap vector, if spilled.
    #[inline]
    fn heap(&self) -> Option<&Vec<T>> {
        // SAFETY: a live `heap` points to a `Vec` leaked from a `Box` (aligned, initialised)
        // that only `self` owns and frees only on `drop`/`into_vec`, which need `self` by value
        // or `&mut`: so the `Vec` outlives the returned borrow, tied to `&self`, and no `&mut`
        // to it exists meanwhile.
        self.heap_ptr().map(|p| unsafe { p.as_ref() })
    }

    /// The heap vector, mutably, if spilled.
    #[inline]
    fn heap_mut(&mut self) -> Option<&mut Vec<T>> {
        // SAFETY: valid and owned by `self` as in `heap`; the borrow is tied to `&mut self`, so
        // no other reference to the `Vec` (all go through `self`) can exist while it lives.
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
            // SAFETY: not spilled, so `len <= N` and the first `len` slots of the inline array
            // (contiguous, aligned for `T`) are initialised; the slice borrows `self`, so no
            // `&mut` method can change them while it lives.
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
        // SAFETY: not spilled, so `n <= N` and the first `n` slots of the inline array are
        // initialised; the slice borrows `self` mutably, so it is the only access to them.
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
                // SAFETY: `i < n <= N`, within the inline array.
                let slot = unsafe { self.slots().add(i) };
                // SAFETY: slot `i < n` was initialised; it is read once, and `len` is already 0,
                // so the vector no longer drops it: `v` is its one owner.
                v.push(unsafe { slot.read() });
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
            // SAFETY: `n < N`, within the inline array.
            let slot = unsafe { self.slots_mut().add(n) };
            // SAFETY: slot `n` is aligned and not initialised (only the first `len` are), so
            // writing overwrites nothing that needed a drop; `len` then counts it.
            unsafe { slot.write(x) };
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
        // SAFETY: the new `len` is below the old one, which was at most `N`: within the array.
        let slot = unsafe { self.slots().add(self.len as usize) };
        // SAFETY: slot `len` was initialised, and `len` no longer counts it, so it is read out
        // once and the vector will not drop it again.
        Some(unsafe { slot.read() })
    }

    /// Keeps the first `n` elements, dropping the rest.
    pub fn truncate(&mut self, n: usize) {
        if let Some(v) = self.heap_mut() {
            v.truncate(n);
            return;
        }
        while self.len as usize > n {
            self.len -= 1;
            // SAFETY: the new `len` is below the old one, at most `N`: within the array.
            let slot = unsafe { self.slots_mut().add(self.len as usize) };
            // SAFETY: slot `len` was initialised, and `len` no longer counts it before the drop
            // runs, so it is dropped once even if its `drop` panics (then it leaks).
            unsafe { std::ptr::drop_in_place(slot) };
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
        // SAFETY: `index < n <= N` (not spilled), within the inline array.
        let hole = unsafe { p.add(index) };
        // SAFETY: `index + 1 <= n <= N`: within the array or one past its end.
        let tail = unsafe { p.add(index + 1) };
        // SAFETY: slot `index` is initialised; it is read out once, and the copy below writes
        // over it without dropping, so the vector no longer owns it.
        let x = unsafe { std::ptr::read(hole) };
        // SAFETY: slots `index + 1 .. n` are initialised and in bounds; they move down by one
        // (`copy` allows the overlap). Slot `n - 1` is then stale, and `len` stops counting it,
        // with no panic possible in between.
        unsafe { std::ptr::copy(tail, hole, n - index - 1) };
        self.len -= 1;
        x
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
        // SAFETY: `index <= n < N` (not spilled, not full), within the inline array.
        let hole = unsafe { p.add(index) };
        // SAFETY: `index + 1 <= n + 1 <= N`: within the array or one past its end.
        let tail = unsafe { p.add(index + 1) };
        // SAFETY: slots `index .. n` are initialised and move up by one into `index + 1 ..= n`,
        // which `n < N` keeps in bounds (`copy` allows the overlap). Slot `index` is left a
        // bitwise duplicate, overwritten below without being dropped.
        unsafe { std::ptr::copy(hole, tail, n - index) };
        // SAFETY: `hole` is in bounds and aligned; its old value now lives at `index + 1`, so
        // writing over it without a drop loses nothing. No panic can occur before `len` counts
        // the new element.
        unsafe { std::ptr::write(hole, x) };
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
            // SAFETY: `p` came from `Box::leak` of a `Box<Vec<T>>` and is owned by `this` alone;
            // `this` is never dropped, so the box is rebuilt and freed exactly once, here.
            return *unsafe { Box::from_raw(p.as_ptr()) };
        }
        let n = this.len as usize;
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            // SAFETY: `i < n <= N` (not spilled), within the inline array.
            let slot = unsafe { this.slots_mut().add(i) };
            // SAFETY: slot `i < len` is initialised and read once; `this` is never dropped, so
            // `v` is its one owner.
            v.push(unsafe { slot.read() });
        }
        v
    }
}

impl<T, const N: usize> Drop for InlineVec<T, N> {
    fn drop(&mut self) {
        if let Some(p) = self.heap_ptr() {
            // SAFETY: `p` came from `Box::leak` of a `Box<Vec<T>>`, is owned by `self` alone, and
            // `into_vec` (the other place that frees it) never lets `self` be dropped: the box
            // is rebuilt and freed exactly once.
            drop(unsafe { Box::from_raw(p.as_ptr()) });
        } else {
            // SAFETY: the slice is exactly the initialised elements, which the vector owns and
            // which nothing uses after `drop`: each is dropped once.
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
                    // SAFETY: `i < len <= N` (not spilled), within `self`'s inline array.
                    let from = unsafe { src.add(i) };
                    // SAFETY: `i < N`, within `out`'s inline array.
                    let to = unsafe { dst.add(i) };
                    // SAFETY: source slot `i < self.len` is initialised, and `&self` keeps it
                    // unchanged while borrowed.
                    let x = unsafe { &*from }.clone();
                    // SAFETY: destination slot `i` is aligned and free (`out.len == i`). `out.len`
                    // counts each clone once written, so should a clone panic, `out` drops
                    // exactly the clones made so far.
                    unsafe { to.write(x) };
                    out.len += 1;
                }
                out
            }
            Some(v) if v.len() <= N => v.iter().cloned().collect(),
            Some(v) => Self::from_heap(v.clone()),
        }
    }
}

impl<T: Copy, const N: usize> InlineVec<T, N> {
    /// What `clone` gives, for `Copy` elements made as one copy of the whole inline array
    /// rather than element by element: the chain items every state copy clones are made of
    /// such vectors, and the fixed-size copy is a few moves where the element loop is not.
    #[inline]
    pub fn copied(&self) -> Self {
        match self.heap() {
            None => InlineVec {
                len: self.len,
                data: Data {
                    // SAFETY: not spilled, so `inline` is the live field. `[MaybeUninit<T>; N]`
                    // (in a `ManuallyDrop`) is `Copy` when `T` is, so reading it by value copies
                    // its bytes, uninitialised slots included, which `MaybeUninit` permits; the
                    // copy's first `len` slots hold the same initialised elements, and `Copy`
                    // elements own nothing that two copies could both free.
                    inline: unsafe { self.data.inline },
                },
            },
            Some(v) if v.len() <= N => v.iter().copied().collect(),
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
mod tests;
