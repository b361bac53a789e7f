//! Work done so far, shared between a command's worker threads and whoever reports progress
//! (the `rbcheck` binary prints a timed line on stderr from it), and the sink a caller may give
//! for the progress the library reports itself (`check`'s header and the checker's lines).

use std::sync::atomic::{AtomicUsize, Ordering};

/// Units of work done out of a total, counted from any thread, in phases (scenarios
/// explored, then cases written).
#[derive(Debug, Default)]
pub struct Counter {
    done: AtomicUsize,
    total: AtomicUsize,
    /// The [`Phase`], as its index.
    phase: std::sync::atomic::AtomicU8,
    /// When the phase under way started, if it was started by [`Counter::start_phase`].
    started: std::sync::Mutex<Option<std::time::Instant>>,
}

/// What a [`Counter`] counts now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Scenarios explored.
    Scenarios,
    /// Cases made from the runs found.
    CasesMade,
    /// Case files written.
    CasesWritten,
}

impl Phase {
    /// The unit counted, as progress lines name it.
    pub fn unit(self) -> &'static str {
        match self {
            Phase::Scenarios => "scenarios",
            Phase::CasesMade | Phase::CasesWritten => "cases",
        }
    }

    /// What is done to each unit, as progress lines say it.
    pub fn verb(self) -> &'static str {
        match self {
            Phase::Scenarios => "done",
            Phase::CasesMade => "made",
            Phase::CasesWritten => "written",
        }
    }
}

impl Counter {
    /// Starts counting another phase from 0 of `total`.
    pub fn start_phase(&self, phase: Phase, total: usize) {
        self.done.store(0, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        self.phase.store(phase as u8, Ordering::Relaxed);
        if let Ok(mut t) = self.started.lock() {
            *t = Some(std::time::Instant::now());
        }
    }

    /// Seconds since the phase under way started, if it was started by
    /// [`Counter::start_phase`] (the first phase runs from the command's start).
    pub fn phase_seconds(&self) -> Option<f64> {
        let t = self.started.lock().ok()?;
        t.map(|t| t.elapsed().as_secs_f64())
    }

    /// The phase counted now.
    pub fn phase(&self) -> Phase {
        match self.phase.load(Ordering::Relaxed) {
            0 => Phase::Scenarios,
            1 => Phase::CasesMade,
            _ => Phase::CasesWritten,
        }
    }

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

/// What a command reports while it works: a line of text (what runs, what was found), or how
/// far a search of scenarios has got.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A sentence, e.g. the header saying what runs.
    Message(&'a str),
    /// The checker's periodic report.
    Scenarios(&'a checker::ScenarioProgress),
}

/// Where a command's progress goes when the caller chooses (the binary's `--progress-json`);
/// without one, progress is printed on stderr as text.
#[derive(Clone)]
pub struct Sink(pub std::sync::Arc<dyn Fn(Event<'_>) + Send + Sync>);

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sink")
    }
}

impl Sink {
    /// Reports a message: to the sink if there is one, else on stderr.
    pub fn say(sink: Option<&Sink>, text: &str) {
        match sink {
            Some(s) => (s.0)(Event::Message(text)),
            None => eprintln!("{text}"),
        }
    }

    /// The checker's progress sink that forwards to this one.
    pub fn for_checker(&self) -> checker::ProgressSink {
        let me = self.clone();
        std::sync::Arc::new(move |p: &checker::ScenarioProgress| (me.0)(Event::Scenarios(p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_phase_counts_from_zero_of_its_own_total() {
        let c = Counter::default();
        c.set_total(3);
        c.tick();
        assert_eq!((c.get(), c.phase()), ((1, 3), Phase::Scenarios));
        c.start_phase(Phase::CasesWritten, 10);
        c.tick();
        c.tick();
        assert_eq!((c.get(), c.phase()), ((2, 10), Phase::CasesWritten));
        assert_eq!((c.phase().unit(), c.phase().verb()), ("cases", "written"));
        c.start_phase(Phase::CasesMade, 4);
        assert_eq!((c.get(), c.phase()), ((0, 4), Phase::CasesMade));
    }
}
