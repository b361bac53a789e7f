//! Work done so far, shared between a command's worker threads and whoever reports progress
//! (the `rbcheck` binary prints a timed line on stderr from it), and the sink a caller may give
//! for the progress the library reports itself (`check`'s header and the checker's lines).

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
