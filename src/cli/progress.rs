//! Progress on stderr for `cases`, `diff` and `fuzz`, in the style `check` uses: a header
//! saying what runs, then a timed `progress:` line (every 3 s by default) whether stderr is a
//! terminal or not and whatever stdout holds (`--json` too); `--quiet` silences both. Stdout
//! stays the report alone.

use super::check::parse_seconds;
use clap::Args;
use rbcheck::progress::Counter;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The progress flags, the same as `check`'s.
#[derive(Args, Clone, Debug)]
pub struct ProgressArgs {
    /// No header and no progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Seconds between two progress lines on stderr (0.1 to 3600; default 3).
    #[arg(long, value_parser = parse_seconds)]
    pub progress_every: Option<f64>,
}

/// The default time between two lines, as `check`'s.
const EVERY: Duration = Duration::from_secs(3);

/// Resident memory (`checker::memory::format_bytes`), or `unknown`.
fn memory() -> String {
    match checker::memory::resident_bytes() {
        Some(b) => checker::memory::format_bytes(b),
        None => "unknown".into(),
    }
}

/// Prints timed lines for work counted by the caller (a loop that polls [`Ticker::due`]).
pub struct Ticker {
    on: bool,
    every: Duration,
    start: Instant,
    last: Instant,
}

impl Ticker {
    /// A ticker for these flags, starting now.
    pub fn new(args: &ProgressArgs) -> Ticker {
        let now = Instant::now();
        Ticker {
            on: !args.quiet,
            every: args.progress_every.map_or(EVERY, Duration::from_secs_f64),
            start: now,
            last: now,
        }
    }

    /// Prints the header line (unless `--quiet`).
    pub fn header(&self, text: &str) {
        if self.on {
            eprintln!("{text}");
        }
    }

    /// Seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Prints `progress: {what}, memory M, T s` if a line is due (and not `--quiet`).
    pub fn tick(&mut self, what: impl FnOnce(f64) -> String) {
        if !self.on || self.last.elapsed() < self.every {
            return;
        }
        self.last = Instant::now();
        let secs = self.elapsed();
        eprintln!("progress: {}, memory {}, {secs:.1} s", what(secs), memory());
    }
}

/// A rate per second, 0 before any time has passed.
pub fn rate(n: usize, secs: f64) -> f64 {
    if secs > 0.0 {
        n as f64 / secs
    } else {
        0.0
    }
}

/// A thread printing a [`Counter`]'s scenarios done while the work runs in the library;
/// stopped (and joined) when dropped.
pub struct Watch {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watch {
    /// Starts watching `counter` (nothing is printed with `--quiet`).
    pub fn start(args: &ProgressArgs, counter: Arc<Counter>) -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        let mut ticker = Ticker::new(args);
        let thread = ticker.on.then(|| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    // Short sleeps, so that the end of the work is not delayed by a whole period.
                    std::thread::sleep(ticker.every.min(Duration::from_millis(50)));
                    let (done, total) = counter.get();
                    ticker.tick(|secs| {
                        format!(
                            "{done} of {total} scenarios done, {:.0} scenarios/s",
                            rate(done, secs)
                        )
                    });
                }
            })
        });
        Watch { stop, thread }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The header's description of a bound: its name and how many scenarios it makes (where
/// the bound can be read; a bad one is reported by the command itself).
pub fn bound_words(arg: &str) -> String {
    match rbcheck::inputs::bound(arg).map(|b| b.scenario_count()) {
        Ok(Ok(n)) => format!("bound {arg} ({n} scenarios)"),
        _ => format!("bound {arg}"),
    }
}

/// The header's thread count: the worker pool the library's parallel loops run on.
pub fn threads() -> String {
    let n = rayon::current_num_threads();
    format!("{n} thread{}", if n == 1 { "" } else { "s" })
}
