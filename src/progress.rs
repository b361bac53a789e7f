//! Work done so far, shared between a command's worker threads and whoever reports progress
//! (the `rbcheck` binary prints a timed line on stderr from it). The library only counts; it
//! never prints.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Units of work done out of a total, counted from any thread.
#[derive(Debug, Default)]
pub struct Counter {
    done: AtomicUsize,
    total: AtomicUsize,
}

impl Counter {
    /// Sets the total (once it is known, e.g. after the bound is built).
    pub fn set_total(&self, total: usize) {
        self.total.store(total, Ordering::Relaxed);
    }

    /// Counts one unit done.
    pub fn tick(&self) {
        self.done.fetch_add(1, Ordering::Relaxed);
    }

    /// Units done and the total (0 while unknown).
    pub fn get(&self) -> (usize, usize) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }
}
