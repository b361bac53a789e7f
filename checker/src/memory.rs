//! The memory budget: reading the process's resident memory and the machine's available memory
//! (Linux `/proc`), the limits the process runs under (`RLIMIT_AS`, the cgroup's memory limit),
//! and the shared flag that stops every worker once the budget is exceeded.
//!
//! Two limits are watched. Resident memory (`VmRSS`) is held under the budget, by default
//! [`DEFAULT_FRACTION`] of the smallest of the machine's available memory and the cgroup's
//! memory limit (a container's `memory.max`, or cgroup v1's `memory.limit_in_bytes`), which the
//! host's `MemAvailable` does not show. Address space (`VmSize`) is held under
//! [`ADDRESS_FRACTION`] of `RLIMIT_AS` (`ulimit -v`), whatever the budget: past that limit an
//! allocation fails and the process aborts, so the search must stop well before it.
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

/// Fraction of `RLIMIT_AS` the address space may reach: the rest is headroom for the one
/// allocation (a buffer doubling) that may happen between two reads.
pub const ADDRESS_FRACTION: f64 = 0.7;

/// Shortest time between two reads of `/proc/self/status` by all workers together.
pub const READ_INTERVAL: Duration = Duration::from_millis(5);

/// Units of work (states expanded plus successors generated) between two polls by one worker.
pub const POLL_EVERY: u32 = 256;

/// A memory size for people: MiB below 1 GiB (`16 MiB`, `767.5 MiB`), GiB with two decimals
/// from there (`1.50 GiB`). One function for every report, so that a small budget is never
/// shown as `0.0 GiB`.
pub fn format_bytes(bytes: u64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    const GIB: u64 = 1 << 30;
    if bytes >= GIB {
        return format!("{:.2} GiB", bytes as f64 / GIB as f64);
    }
    let mib = bytes as f64 / MIB;
    if mib.fract() == 0.0 {
        format!("{mib:.0} MiB")
    } else {
        format!("{mib:.1} MiB")
    }
}

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

/// The process's address space in bytes (Linux `VmSize`; `None` elsewhere).
pub fn virtual_bytes() -> Option<u64> {
    read_kb_field("/proc/self/status", "VmSize:")
}

/// The soft `RLIMIT_AS` (`ulimit -v`) in bytes, from `/proc/self/limits`; `None` if unlimited
/// or unknown.
pub fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// Values at or above this in a cgroup limit file mean "no limit" (cgroup v1 writes a page-rounded
/// `i64::MAX`).
const CGROUP_UNLIMITED: u64 = 1 << 60;

/// Reads a cgroup limit file: a number of bytes, or `max` (no limit).
fn read_cgroup_file(path: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let n: u64 = text.trim().parse().ok()?;
    (n < CGROUP_UNLIMITED).then_some(n)
}

/// The memory limit of the cgroup the process runs in (v2 `memory.max`, v1
/// `memory.limit_in_bytes`), read at the process's own cgroup path and at the root of the cgroup
/// mount (what a container sees); `None` if there is none.
pub fn cgroup_limit() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut candidates = vec![];
    for line in own.lines() {
        let mut f = line.splitn(3, ':');
        let (_, controllers, path) = (f.next(), f.next().unwrap_or(""), f.next().unwrap_or(""));
        let path = path.trim_end_matches('/');
        if controllers.is_empty() {
            candidates.push(format!("/sys/fs/cgroup{path}/memory.max"));
        } else if controllers.split(',').any(|c| c == "memory") {
            candidates.push(format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"));
        }
    }
    candidates.push("/sys/fs/cgroup/memory.max".into());
    candidates.push("/sys/fs/cgroup/memory/memory.limit_in_bytes".into());
    candidates.iter().filter_map(|p| read_cgroup_file(p)).min()
}

/// The budget used when none is given: [`DEFAULT_FRACTION`] (75 %) of the smaller of
/// `MemAvailable` now and the cgroup's memory limit, or `None` (no limit) where neither can be
/// read.
pub fn default_limit() -> Option<u64> {
    default_limit_from().map(|(b, _)| b)
}

/// [`default_limit`] and what it is a fraction of: "the available memory" or "the cgroup's
/// memory limit", whichever is smaller (for the line a run prints before it starts).
pub fn default_limit_from() -> Option<(u64, &'static str)> {
    const AVAILABLE: &str = "the available memory";
    const CGROUP: &str = "the cgroup's memory limit";
    let room = match (available_bytes(), cgroup_limit()) {
        (Some(a), Some(c)) if c < a => Some((c, CGROUP)),
        (Some(a), _) => Some((a, AVAILABLE)),
        (None, Some(c)) => Some((c, CGROUP)),
        (None, None) => None,
    };
    room.map(|(b, from)| ((b as f64 * DEFAULT_FRACTION) as u64, from))
}

/// The address-space ceiling the search keeps under: [`ADDRESS_FRACTION`] of `RLIMIT_AS`.
pub fn address_ceiling() -> Option<u64> {
    address_space_limit().map(|b| (b as f64 * ADDRESS_FRACTION) as u64)
}

/// A memory budget shared by all workers of one run.
pub struct Budget {
    limit: Option<u64>,
    /// The address-space ceiling (see [`address_ceiling`]), if the process has an `RLIMIT_AS`.
    address: Option<u64>,
    over: AtomicBool,
    /// The resident size that exceeded the limit (0 until then).
    seen: AtomicU64,
    /// Whether the address-space ceiling, rather than the budget, was exceeded.
    by_address: AtomicBool,
    start: Instant,
    /// Nanoseconds after `start` of the last `/proc` read, so that workers share one throttle.
    last_read: AtomicU64,
}

impl Budget {
    /// A budget of `limit` bytes of resident memory (`None`: unlimited), also kept under the
    /// process's `RLIMIT_AS` if it has one (see [`address_ceiling`]). Without either, polls
    /// cost nothing.
    pub fn new(limit: Option<u64>) -> Self {
        Budget {
            limit,
            address: address_ceiling(),
            by_address: AtomicBool::new(false),
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
        if self.limit.is_none() && self.address.is_none() {
            return false;
        }
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
        self.check()
    }

    /// Reads resident memory now, regardless of the throttle (between levels).
    pub fn exceeded_now(&self) -> bool {
        if self.limit.is_none() && self.address.is_none() {
            return false;
        }
        self.over.load(Ordering::Relaxed) || self.check()
    }

    /// The address-space ceiling watched besides the budget, if any.
    pub fn address_ceiling(&self) -> Option<u64> {
        self.address
    }

    /// Whether an allocation of `bytes` more fits under `RLIMIT_AS` with a tenth of it to
    /// spare, reading the address space now; if not, the budget is marked exceeded (by the
    /// address space), so that the search stops instead of failing that allocation and
    /// aborting. Called before a buffer grows (rarely: growth doubles); always true without an
    /// `RLIMIT_AS`.
    pub fn room_for(&self, bytes: u64) -> bool {
        let Some(cap) = self.address else {
            return true;
        };
        let hard = (cap as f64 / ADDRESS_FRACTION * 0.9) as u64;
        match virtual_bytes() {
            Some(vm) if vm.saturating_add(bytes) > hard => {
                self.seen
                    .store(resident_bytes().unwrap_or(0), Ordering::Relaxed);
                self.by_address.store(true, Ordering::Relaxed);
                self.over.store(true, Ordering::Relaxed);
                false
            }
            _ => true,
        }
    }

    /// Whether it was the address-space ceiling (`RLIMIT_AS`) that was exceeded.
    pub fn exceeded_by_address(&self) -> bool {
        self.by_address.load(Ordering::Relaxed)
    }

    fn check(&self) -> bool {
        let rss = self
            .limit
            .and_then(|limit| resident_bytes().filter(|&r| r > limit));
        let vm = self
            .address
            .and_then(|cap| virtual_bytes().filter(|&v| v > cap));
        // The figure reported is resident memory, the budget's unit, even when the address
        // space is what ran out.
        match (rss, vm) {
            (None, None) => false,
            (r, v) => {
                self.by_address
                    .store(r.is_none() && v.is_some(), Ordering::Relaxed);
                let seen = r.or_else(resident_bytes).unwrap_or(0);
                self.seen.store(seen, Ordering::Relaxed);
                self.over.store(true, Ordering::Relaxed);
                true
            }
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
    fn sizes_below_a_gib_are_written_in_mib_never_as_zero() {
        assert_eq!(format_bytes(16 << 20), "16 MiB");
        assert_eq!(format_bytes((767 << 20) + (1 << 19)), "767.5 MiB");
        assert_eq!(format_bytes(1 << 30), "1.00 GiB");
        assert_eq!(format_bytes(3 << 29), "1.50 GiB");
        assert_eq!(format_bytes(0), "0 MiB");
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
