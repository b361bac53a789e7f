//! The frontier of a breadth-first level and the state buffers it recycles.
//!
//! The frontier is kept as a list of parts (one per chunk of the previous level; a chunk may
//! span several) rather than one vector: concatenating a level's parts would briefly hold the
//! whole next frontier twice, which is the largest allocation of a level, and copy every state.
//! [`Spare`] keeps the emptied buffers of one level for the next expansion to fill.

use crate::visited::StateRef;
use rayon::prelude::*;
use std::sync::Mutex;

/// A frontier state that has not been moved into a successor yet.
#[inline]
pub(super) fn present<S>(slot: &Option<S>) -> &S {
    slot.as_ref()
        .expect("a frontier state is present until its last successor is made")
}

/// Emptied state buffers, reused by the next expansion: a level's states fill buffers whose pages
/// the level before already touched, where new ones would cost the kernel a page fault and a
/// zeroed page every 4 KiB. At most one level's buffers are kept.
pub(super) struct Spare<S>(Mutex<Vec<Vec<S>>>);

impl<S> Default for Spare<S> {
    fn default() -> Self {
        Spare(Mutex::new(Vec::new()))
    }
}

impl<S: Send> Spare<S> {
    /// An empty buffer with room for `capacity` states.
    pub(super) fn take(&self, capacity: usize) -> Vec<S> {
        let spare = self.0.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut v = spare.unwrap_or_default();
        v.reserve(capacity);
        v
    }

    /// Empties `v` (dropping its states here, on the caller's thread) and keeps its buffer.
    pub(super) fn put(&self, mut v: Vec<S>) {
        v.clear();
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(v);
    }

    /// Frees the buffers not taken, on all threads.
    pub(super) fn clear(&mut self) {
        std::mem::take(self.0.get_mut().unwrap_or_else(|e| e.into_inner()))
            .into_par_iter()
            .for_each(drop);
    }
}

impl<S: Send> Spare<Option<S>> {
    /// Keeps the buffer of `v`, whose slots are all `None`, without visiting them: clearing it
    /// would read every slot (one cache miss per state of the level) only to find nothing to
    /// drop.
    pub(super) fn put_emptied(&self, mut v: Vec<Option<S>>) {
        debug_assert!(v.iter().all(Option::is_none));
        // SAFETY: shrinking the length only forgets elements, and a `None` owns nothing.
        unsafe { v.set_len(0) };
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(v);
    }
}

/// The frontier: states of one depth with their references, in canonical order, split into
/// parts so that building it never copies the whole of it.
pub(super) struct Frontier<S> {
    /// In canonical order, none empty.
    pub(super) parts: Vec<Part<S>>,
    /// The states in all parts.
    len: usize,
}

/// Consecutive frontier states and their references (kept apart, so that a chunk's expansion
/// output becomes a part without moving its states).
pub(super) struct Part<S> {
    /// `None` once a state has been moved into its last successor.
    pub(super) states: Vec<Option<S>>,
    /// The states' references in the visited set.
    pub(super) refs: Vec<StateRef>,
}

/// Consecutive frontier states, as slices of one or more consecutive parts: a chunk is cut to
/// its size wherever parts begin, so that no state is moved to make chunks long.
pub(super) type Chunk<'p, S> = Vec<(&'p mut [Option<S>], &'p [StateRef])>;

impl<S> Frontier<S> {
    /// An empty frontier.
    pub(super) fn new() -> Self {
        Frontier {
            parts: Vec::new(),
            len: 0,
        }
    }

    /// Appends states that follow all those already in the frontier.
    pub(super) fn push_part(&mut self, part: Part<S>) {
        debug_assert_eq!(part.states.len(), part.refs.len());
        self.len += part.refs.len();
        if !part.refs.is_empty() {
            self.parts.push(part);
        }
    }

    /// How many states it holds.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no state.
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Consecutive slices of at most `size` states, in canonical order.
    pub(super) fn chunks(&mut self, size: usize) -> Vec<Chunk<'_, S>> {
        let mut out = Vec::with_capacity(self.len / size.max(1) + 1);
        let mut chunk: Chunk<'_, S> = Vec::new();
        let mut room = size.max(1);
        for p in &mut self.parts {
            let (mut states, mut refs) = (&mut p.states[..], &p.refs[..]);
            while !states.is_empty() {
                let n = room.min(states.len());
                let (head, tail) = states.split_at_mut(n);
                chunk.push((head, &refs[..n]));
                (states, refs) = (tail, &refs[n..]);
                room -= n;
                if room == 0 {
                    out.push(std::mem::take(&mut chunk));
                    room = size.max(1);
                }
            }
        }
        if !chunk.is_empty() {
            out.push(chunk);
        }
        out
    }
}
