//! Run statistics, per-level progress and the process's peak memory.

use serde::Serialize;

/// Counts and costs of one run. Everything but the timing and memory fields is identical for
/// every thread count, unless the run stopped at the memory limit (which depends on timing).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Distinct initial states.
    pub init_states: usize,
    /// States visited: distinct states discovered (by fingerprint), counting a forced state
    /// (see `Model::forced`) left out of the visited set once per time it was reached.
    pub states: usize,
    /// States stored in the visited set: `states` but the forced states left out of it.
    pub states_stored: usize,
    /// Transitions explored: actions whose `next_state` was `Some`, including those that led to
    /// states already visited.
    pub transitions: u64,
    /// Depth of the deepest state discovered (initial states are at depth 0).
    pub max_depth: usize,
    /// Wall-clock seconds of the search, trace rebuilding included.
    pub elapsed_secs: f64,
    /// `states / elapsed_secs`.
    pub states_per_sec: f64,
    /// Peak resident memory of the whole process (Linux `VmHWM`), if known.
    pub peak_memory_bytes: Option<u64>,
    /// The memory budget of the run (see `Checker::memory_limit`); `None`: unlimited.
    pub memory_limit_bytes: Option<u64>,
    /// Resident memory when the budget was found exceeded, if it was (the search then stopped
    /// with `StopReason::MemoryLimit`).
    pub memory_at_stop_bytes: Option<u64>,
    /// The address-space ceiling (a fraction of `RLIMIT_AS`, see `memory::address_ceiling`)
    /// if it, rather than the budget, is what stopped the search.
    pub address_ceiling_at_stop_bytes: Option<u64>,
    /// Bytes allocated by the visited set.
    pub visited_bytes: usize,
    /// `visited_bytes / states`.
    pub bytes_per_state: f64,
}

impl Stats {
    /// A copy with the fields that vary between runs (time, memory) zeroed, for comparisons.
    pub fn without_timings(&self) -> Stats {
        Stats {
            elapsed_secs: 0.0,
            states_per_sec: 0.0,
            peak_memory_bytes: None,
            memory_limit_bytes: None,
            memory_at_stop_bytes: None,
            address_ceiling_at_stop_bytes: None,
            ..self.clone()
        }
    }
}

/// What the search reports after each level (breadth-first layer).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelProgress {
    /// Depth of the states just discovered.
    pub depth: usize,
    /// Distinct states so far.
    pub states: usize,
    /// States at this depth, to be expanded next.
    pub frontier: usize,
    /// Transitions explored so far.
    pub transitions: u64,
    /// Seconds since the search started.
    pub elapsed_secs: f64,
}

impl LevelProgress {
    /// A one-line summary for a terminal.
    pub fn line(&self) -> String {
        let rate = if self.elapsed_secs > 0.0 {
            self.states as f64 / self.elapsed_secs
        } else {
            0.0
        };
        format!(
            "depth {:>4}  states {:>12}  frontier {:>11}  {:>10.0} states/s  {:>7.1}s",
            self.depth, self.states, self.frontier, rate, self.elapsed_secs
        )
    }
}

/// The process's peak resident set size in bytes (Linux only; `None` elsewhere).
pub fn peak_memory_bytes() -> Option<u64> {
    crate::memory::peak_resident_bytes()
}

#[cfg(test)]
mod tests {
    #[test]
    fn peak_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(super::peak_memory_bytes().unwrap() > 1024 * 1024);
        }
    }
}
