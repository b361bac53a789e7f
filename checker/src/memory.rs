//! The memory budget: reading the process's resident memory and the machine's available memory
//! (Linux `/proc`), and the shared flag that stops every worker once the budget is exceeded.
//!
//! A state space can grow by gigabytes within one breadth-first level, so checking only between
//! levels is not enough: workers poll [`Budget::exceeded`] while they expand. Reading `/proc`
//! costs tens of microseconds, so it is throttled to one read per [`READ_INTERVAL`] for the
//! whole process, whatever the thread count; in between, a poll is one clock read and one
//! relaxed atomic load, and workers poll only every [`POLL_EVERY`] units of work.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Fraction of `MemAvailable` used as the default budget: the rest is headroom for the kernel,
/// other processes and the allocator's retained pages that resident memory still counts.
pub const DEFAULT_FRACTION: f64 = 0.75;

/// Shortest time between two reads of `/proc/self/status` by all workers together.
pub const READ_INTERVAL: Duration = Duration::from_millis(5);

/// Units of work (states expanded plus successors generated) between two polls by one worker.
pub const POLL_EVERY: u32 = 256;

/// Reads a `kB` field such as `VmRSS:` from a `/proc` file, in bytes.
fn read_kb_field(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// The process's current resident set size in bytes (Linux `VmRSS`; `None` elsewhere).
pub fn resident_bytes() -> Option<u64> {
    read_kb_field("/proc/self/status", "VmRSS:")
}

/// The process's peak resident set size in bytes (Linux `VmHWM`; `None` elsewhere).
pub fn peak_resident_bytes() -> Option<u64> {
    read_kb_field("/proc/self/status", "VmHWM:")
}

/// Memory the kernel estimates can be allocated without swapping (Linux `MemAvailable`;
/// `None` elsewhere).
pub fn available_bytes() -> Option<u64> {
    read_kb_field("/proc/meminfo", "MemAvailable:")
}

/// The budget used when none is given: [`DEFAULT_FRACTION`] (75 %) of `MemAvailable` now, or
/// `None` (no limit) where it cannot be read.
pub fn default_limit() -> Option<u64> {
    available_bytes().map(|b| (b as f64 * DEFAULT_FRACTION) as u64)
}

/// A memory budget shared by all workers of one run.
pub struct Budget {
    limit: Option<u64>,
    over: AtomicBool,
    /// The resident size that exceeded the limit (0 until then).
    seen: AtomicU64,
    start: Instant,
    /// Nanoseconds after `start` of the last `/proc` read, so that workers share one throttle.
    last_read: AtomicU64,
}

impl Budget {
    /// A budget of `limit` bytes of resident memory (`None`: unlimited, polls cost nothing).
    pub fn new(limit: Option<u64>) -> Self {
        Budget {
            limit,
            over: AtomicBool::new(false),
            seen: AtomicU64::new(0),
            start: Instant::now(),
            last_read: AtomicU64::new(0),
        }
    }

    /// The limit in bytes, if any.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// The resident size at which the budget was found exceeded, if it was.
    pub fn exceeded_at(&self) -> Option<u64> {
        self.over
            .load(Ordering::Relaxed)
            .then(|| self.seen.load(Ordering::Relaxed))
    }

    /// Whether the budget is exceeded, reading `/proc` only if no worker has read it within
    /// [`READ_INTERVAL`]. Once true, stays true.
    pub fn exceeded(&self) -> bool {
        let Some(limit) = self.limit else {
            return false;
        };
        if self.over.load(Ordering::Relaxed) {
            return true;
        }
        let now = self.start.elapsed().as_nanos() as u64;
        let last = self.last_read.load(Ordering::Relaxed);
        if now.saturating_sub(last) < READ_INTERVAL.as_nanos() as u64
            || self
                .last_read
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return false;
        }
        self.check(limit)
    }

    /// Reads resident memory now, regardless of the throttle (between levels).
    pub fn exceeded_now(&self) -> bool {
        match self.limit {
            None => false,
            Some(_) if self.over.load(Ordering::Relaxed) => true,
            Some(limit) => self.check(limit),
        }
    }

    fn check(&self, limit: u64) -> bool {
        match resident_bytes() {
            Some(rss) if rss > limit => {
                self.seen.store(rss, Ordering::Relaxed);
                self.over.store(true, Ordering::Relaxed);
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_fields_are_read_on_linux() {
        if cfg!(target_os = "linux") {
            // Other tests of this process allocate meanwhile, and other processes too: compare
            // only values that no concurrent allocation can reorder.
            let rss = resident_bytes().unwrap();
            assert!(rss > 1024 * 1024);
            assert!(peak_resident_bytes().unwrap() > 1024 * 1024);
            let before = available_bytes().unwrap();
            let limit = default_limit().unwrap();
            let after = available_bytes().unwrap();
            let (lo, hi) = (before.min(after) as f64, before.max(after) as f64);
            // Rounding to whole kB and to an integer: a kB of slack either way.
            assert!(limit as f64 >= lo * DEFAULT_FRACTION - 1024.0);
            assert!(limit as f64 <= hi * DEFAULT_FRACTION + 1024.0);
        }
    }

    #[test]
    fn budget_trips_once_exceeded_and_stays_tripped() {
        assert!(!Budget::new(None).exceeded_now());
        assert!(!Budget::new(Some(u64::MAX)).exceeded_now());
        if cfg!(target_os = "linux") {
            let b = Budget::new(Some(1));
            assert_eq!(b.exceeded_at(), None);
            assert!(b.exceeded_now());
            assert!(b.exceeded());
            assert!(b.exceeded_at().unwrap() > 1);
        }
    }
}
