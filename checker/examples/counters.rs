//! Throughput benchmark on trivial counters: `cargo run --release -p checker --example counters -- [max] [threads]`.

use checker::{CheckerExt, Model, Property};

/// Three counters, each incremented up to `max`: (max + 1)³ states.
struct Counters {
    max: u16,
}

impl Model for Counters {
    type State = [u16; 3];
    type Action = usize;

    fn init_states(&self) -> Vec<[u16; 3]> {
        vec![[0; 3]]
    }

    fn actions(&self, s: &[u16; 3], out: &mut Vec<usize>) {
        out.extend((0..3).filter(|&i| s[i] < self.max));
    }

    fn next_state(&self, s: &[u16; 3], &i: &usize) -> Option<[u16; 3]> {
        let mut n = *s;
        n[i] += 1;
        Some(n)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::<Self>::always(
            "bounded",
            "-",
            "counters stay bounded",
            |m, s| s.iter().all(|&c| c <= m.max),
        )]
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let max = args.next().map_or(150, |a| a.parse().expect("max"));
    let threads = args.next().map_or(1, |a| a.parse().expect("threads"));
    let r = Counters { max }
        .checker()
        .threads(threads)
        .report_progress(true)
        .run()
        .expect("run");
    let s = &r.stats;
    println!(
        "threads {threads}: {} states, {} transitions, depth {}, {:.2}s, {:.0} states/s, {:.1} B/state, peak {:.0} MiB",
        s.states,
        s.transitions,
        s.max_depth,
        s.elapsed_secs,
        s.states_per_sec,
        s.bytes_per_state,
        s.peak_memory_bytes.unwrap_or(0) as f64 / (1 << 20) as f64
    );
}
