//! Progress on stderr for `check`, `cases`, `diff` and `fuzz`: a header saying what runs, then
//! a timed `progress:` line (every 3 s by default) whether stderr is a terminal or not and
//! whatever stdout holds (`--json` too); `--quiet` silences both. With `--progress-json` each
//! of these is one JSON object per line instead (`rbcheck-progress/1`), for a program to follow
//! a long run. Stdout stays the report alone.

use clap::Args;
use rbcheck::progress::Counter;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Parses a number of seconds from 0.1 to 3600.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if (0.1..=3600.0).contains(&s) => Ok(s),
        _ => Err(format!("expected seconds from 0.1 to 3600; got `{text}`")),
    }
}

/// The progress flags, the same as `check`'s.
#[derive(Args, Clone, Debug)]
pub struct ProgressArgs {
    /// No header and no progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Seconds between two progress lines on stderr (0.1 to 3600; default 3).
    #[arg(long, value_parser = parse_seconds)]
    pub progress_every: Option<f64>,
    /// Progress on stderr as one JSON object per line (`"format": "rbcheck-progress/1"`).
    #[arg(long, conflicts_with = "quiet")]
    pub progress_json: bool,
}

/// The `format` of a progress line under `--progress-json`.
pub const PROGRESS_FORMAT: &str = "rbcheck-progress/1";

/// One line of `--progress-json`: a message, or how far the work has got.
#[derive(Clone, Debug, Serialize)]
pub struct ProgressJson<'a> {
    /// Always [`PROGRESS_FORMAT`].
    pub format: &'static str,
    /// The command reporting (`check`, `cases`, `diff`, `fuzz`).
    pub command: &'a str,
    /// `message` (a sentence: what runs, a finding) or `progress`.
    pub kind: &'static str,
    /// For a message: the sentence, as the text form prints it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// For progress: what is counted, `scenarios` or `cases`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<&'static str>,
    /// For progress: units done.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done: Option<u64>,
    /// For progress: units in all, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// For `check`'s progress: distinct states so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<u64>,
    /// For `fuzz`'s progress: cases compared so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compared: Option<u64>,
    /// For `fuzz`'s progress: findings so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub findings: Option<u64>,
    /// For progress: the process's resident memory, where it can be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<u64>,
    /// Seconds since the command started.
    pub seconds: f64,
}

impl<'a> ProgressJson<'a> {
    /// A message line.
    pub fn message(command: &'a str, text: &str, seconds: f64) -> Self {
        ProgressJson {
            format: PROGRESS_FORMAT,
            command,
            kind: "message",
            text: Some(text.to_string()),
            unit: None,
            done: None,
            total: None,
            states: None,
            compared: None,
            findings: None,
            memory_bytes: None,
            seconds,
        }
    }

    /// A progress line: `done` of `total` `unit`s.
    pub fn progress(
        command: &'a str,
        unit: &'static str,
        done: u64,
        total: Option<u64>,
        seconds: f64,
    ) -> Self {
        ProgressJson {
            kind: "progress",
            text: None,
            unit: Some(unit),
            done: Some(done),
            total,
            memory_bytes: checker::memory::resident_bytes(),
            ..ProgressJson::message(command, "", seconds)
        }
    }

    /// Prints it on stderr, one line.
    pub fn print(&self) {
        if let Ok(line) = serde_json::to_string(self) {
            eprintln!("{line}");
        }
    }
}

/// `check`'s progress as JSON lines: its header and the checker's periodic reports.
pub fn json_sink(command: &'static str) -> rbcheck::progress::Sink {
    use rbcheck::progress::Event;
    let start = Instant::now();
    rbcheck::progress::Sink(Arc::new(move |e: Event<'_>| {
        let secs = start.elapsed().as_secs_f64();
        match e {
            Event::Message(text) => ProgressJson::message(command, text, secs).print(),
            Event::Scenarios(p) => ProgressJson {
                states: Some(p.states),
                memory_bytes: p.resident_bytes,
                ..ProgressJson::progress(
                    command,
                    "scenarios",
                    p.done as u64,
                    Some(p.total as u64),
                    p.seconds,
                )
            }
            .print(),
        }
    }))
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
    /// The command's name for `--progress-json` lines; `None`: text lines.
    json: Option<&'static str>,
    every: Duration,
    start: Instant,
    last: Instant,
}

impl Ticker {
    /// A ticker for these flags, starting now; `command` names the command in JSON lines.
    pub fn new(args: &ProgressArgs, command: &'static str) -> Ticker {
        let now = Instant::now();
        Ticker {
            on: !args.quiet,
            json: args.progress_json.then_some(command),
            every: args.progress_every.map_or(EVERY, Duration::from_secs_f64),
            start: now,
            last: now,
        }
    }

    /// Prints the header line (unless `--quiet`).
    pub fn header(&self, text: &str) {
        match (self.on, self.json) {
            (false, _) => {}
            (true, Some(command)) => ProgressJson::message(command, text, self.elapsed()).print(),
            (true, None) => eprintln!("{text}"),
        }
    }

    /// Seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Prints `progress: {text}, memory M, T s` if a line is due (and not `--quiet`), or
    /// under `--progress-json` the line `json` makes.
    pub fn tick(
        &mut self,
        text: impl FnOnce(f64) -> String,
        json: impl FnOnce(&'static str, f64) -> ProgressJson<'static>,
    ) {
        if !self.on || self.last.elapsed() < self.every {
            return;
        }
        self.last = Instant::now();
        let secs = self.elapsed();
        match self.json {
            Some(command) => json(command, secs).print(),
            None => eprintln!("progress: {}, memory {}, {secs:.1} s", text(secs), memory()),
        }
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
    pub fn start(args: &ProgressArgs, command: &'static str, counter: Arc<Counter>) -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        let mut ticker = Ticker::new(args, command);
        let thread = ticker.on.then(|| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    // Short sleeps, so that the end of the work is not delayed by a whole period.
                    std::thread::sleep(ticker.every.min(Duration::from_millis(50)));
                    let (done, total) = counter.get();
                    let phase = counter.phase();
                    // The rate is of the phase under way.
                    let phase_secs = counter.phase_seconds();
                    let unit = phase.unit();
                    ticker.tick(
                        |secs| {
                            format!(
                                "{done} of {total} {unit} {}, {:.0} {unit}/s",
                                phase.verb(),
                                rate(done, phase_secs.unwrap_or(secs))
                            )
                        },
                        |command, secs| {
                            ProgressJson::progress(
                                command,
                                unit,
                                done as u64,
                                Some(total as u64),
                                secs,
                            )
                        },
                    );
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
