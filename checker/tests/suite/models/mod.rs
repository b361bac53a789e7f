//! Small models with known answers, shared by the integration tests.
#![allow(dead_code)]

use checker::{fingerprint, Model, Property};
use std::sync::atomic::{AtomicU64, Ordering};

/// `counters` counters, each action increments one of them up to `max`.
/// With `symmetric`, the fingerprint sorts the counters (they are interchangeable).
#[derive(Clone)]
pub struct Counters {
    pub counters: usize,
    pub max: u8,
    /// The sum that the `sum_not_k` invariant forbids and `sum_is_k` looks for.
    pub k: u32,
    pub symmetric: bool,
    /// Also offer a useless action (before the real ones) whose `next_state` is `None`.
    pub dead_actions: bool,
    pub props: Vec<Property<Counters>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CounterAction {
    Inc(usize),
    Nothing,
}

fn sum(s: &[u8]) -> u32 {
    s.iter().map(|&c| c as u32).sum()
}

impl Counters {
    pub fn new(counters: usize, max: u8) -> Self {
        Counters {
            counters,
            max,
            k: u32::MAX,
            symmetric: false,
            dead_actions: false,
            props: vec![],
        }
    }

    pub fn with(mut self, p: Property<Counters>) -> Self {
        self.props.push(p);
        self
    }

    pub fn always_true() -> Property<Counters> {
        Property::<Self>::always("true", "-", "trivially true", |_, _| true)
    }

    pub fn sum_not_k() -> Property<Counters> {
        Property::<Self>::always("sum_not_k", "-", "the counters never sum to k", |m, s| {
            sum(s) != m.k
        })
    }

    pub fn sum_is_k() -> Property<Counters> {
        Property::<Self>::sometimes("sum_is_k", "-", "the counters can sum to k", |m, s| {
            sum(s) == m.k
        })
    }

    pub fn all_max() -> Property<Counters> {
        Property::<Self>::sometimes("all_max", "-", "every counter can reach max", |m, s| {
            s.iter().all(|&c| c == m.max)
        })
    }

    pub fn first_le_second() -> Property<Counters> {
        Property::<Self>::always(
            "first_le_second",
            "-",
            "counter 0 never exceeds counter 1",
            |_, s| s[0] <= s[1],
        )
    }

    pub fn ends_at_max() -> Property<Counters> {
        Property::<Self>::terminates(
            "ends_at_max",
            "-",
            "runs end with every counter at max",
            |m, s| s.iter().all(|&c| c == m.max),
        )
    }
}

impl Model for Counters {
    type State = Vec<u8>;
    type Action = CounterAction;

    fn init_states(&self) -> Vec<Vec<u8>> {
        vec![vec![0; self.counters]]
    }

    fn actions(&self, state: &Vec<u8>, out: &mut Vec<CounterAction>) {
        if self.dead_actions {
            out.push(CounterAction::Nothing);
        }
        for (i, &c) in state.iter().enumerate() {
            if c < self.max {
                out.push(CounterAction::Inc(i));
            }
        }
    }

    fn next_state(&self, state: &Vec<u8>, action: &CounterAction) -> Option<Vec<u8>> {
        match action {
            CounterAction::Inc(i) => {
                let mut s = state.clone();
                s[*i] += 1;
                Some(s)
            }
            CounterAction::Nothing => None,
        }
    }

    fn properties(&self) -> Vec<Property<Self>> {
        self.props.clone()
    }

    fn fingerprint(&self, state: &Vec<u8>) -> u64 {
        if self.symmetric {
            let mut s = state.clone();
            s.sort_unstable();
            fingerprint(&s)
        } else {
            fingerprint(state)
        }
    }

    fn progress(&self, state: &Vec<u8>) -> Option<u64> {
        Some(sum(state) as u64)
    }

    fn format_action(&self, _: &Vec<u8>, action: &CounterAction) -> String {
        match action {
            CounterAction::Inc(i) => format!("increment counter {i}"),
            CounterAction::Nothing => "nothing".into(),
        }
    }

    fn format_step(&self, last: &Vec<u8>, next: &Vec<u8>) -> Option<String> {
        Some(format!("{last:?} -> {next:?}"))
    }
}

/// Tower of Hanoi: `state[d]` is the peg of disc `d` (0 is the smallest).
pub struct Hanoi {
    pub discs: usize,
}

impl Hanoi {
    fn top(state: &[u8], peg: u8) -> Option<usize> {
        state.iter().position(|&p| p == peg)
    }
}

impl Model for Hanoi {
    type State = Vec<u8>;
    type Action = (u8, u8);

    fn init_states(&self) -> Vec<Vec<u8>> {
        vec![vec![0; self.discs]]
    }

    fn actions(&self, state: &Vec<u8>, out: &mut Vec<(u8, u8)>) {
        for from in 0..3 {
            for to in 0..3 {
                if from == to {
                    continue;
                }
                if let Some(d) = Self::top(state, from) {
                    let fits = match Self::top(state, to) {
                        None => true,
                        Some(e) => d < e,
                    };
                    if fits {
                        out.push((from, to));
                    }
                }
            }
        }
    }

    fn next_state(&self, state: &Vec<u8>, &(from, to): &(u8, u8)) -> Option<Vec<u8>> {
        let d = Self::top(state, from)?;
        let mut s = state.clone();
        s[d] = to;
        Some(s)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::<Self>::sometimes("solved", "-", "every disc on peg 2", |_, s| {
                s.iter().all(|&p| p == 2)
            }),
            Property::<Self>::always(
                "ordered",
                "-",
                "pegs stay ordered (true by construction)",
                |_, _| true,
            ),
        ]
    }
}

/// A counter modulo `modulus` (a cycle) with a progress measure that the wrap-around breaks.
pub struct Ring {
    pub modulus: u8,
}

impl Model for Ring {
    type State = u8;
    type Action = ();

    fn init_states(&self) -> Vec<u8> {
        vec![0]
    }

    fn actions(&self, _: &u8, out: &mut Vec<()>) {
        out.push(());
    }

    fn next_state(&self, s: &u8, _: &()) -> Option<u8> {
        Some((s + 1) % self.modulus)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::<Self>::terminates(
            "ends",
            "-",
            "every run ends",
            |_, _| true,
        )]
    }

    fn progress(&self, s: &u8) -> Option<u64> {
        Some(*s as u64)
    }
}

/// Steps of +1 or +2 from 0 while below 5: the final states are 5 and 6.
pub struct Steps {
    pub with_progress: bool,
}

impl Model for Steps {
    type State = u8;
    type Action = u8;

    fn init_states(&self) -> Vec<u8> {
        vec![0]
    }

    fn actions(&self, s: &u8, out: &mut Vec<u8>) {
        if *s < 5 {
            out.extend([1, 2]);
        }
    }

    fn next_state(&self, s: &u8, a: &u8) -> Option<u8> {
        Some(s + a)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::<Self>::terminates(
                "ends_at_5",
                "-",
                "every run ends exactly at 5",
                |_, s| *s == 5,
            ),
            Property::<Self>::terminates(
                "ends_at_5_or_6",
                "-",
                "every run ends at 5 or 6",
                |_, s| *s >= 5,
            ),
        ]
    }

    fn progress(&self, s: &u8) -> Option<u64> {
        self.with_progress.then_some(*s as u64)
    }
}

pub static NOISE: AtomicU64 = AtomicU64::new(0);

/// A model whose transitions read a global counter: not a function of the state.
pub struct Noisy;

impl Model for Noisy {
    type State = (u8, u64);
    type Action = ();

    fn init_states(&self) -> Vec<(u8, u64)> {
        vec![(0, 0)]
    }

    fn actions(&self, s: &(u8, u64), out: &mut Vec<()>) {
        if s.0 < 5 {
            out.push(());
        }
    }

    fn next_state(&self, s: &(u8, u64), _: &()) -> Option<(u8, u64)> {
        Some((s.0 + 1, NOISE.fetch_add(1, Ordering::Relaxed)))
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::<Self>::always(
            "below_3",
            "-",
            "never reaches 3",
            |_, s| s.0 < 3,
        )]
    }
}

/// A pseudo-random graph over `0..size` with three successors per state, many shared: tests
/// that the parent kept for each state is the one a sequential FIFO search would keep.
pub struct Scrambled {
    pub size: u32,
    pub target: u32,
}

impl Scrambled {
    pub fn successors(&self, x: u32) -> [u32; 3] {
        let n = self.size as u64;
        let x = x as u64;
        [
            ((x * 7 + 1) % n) as u32,
            ((x * x + 13) % n) as u32,
            ((x ^ 0x5a5) % n) as u32,
        ]
    }
}

impl Model for Scrambled {
    type State = u32;
    type Action = u32;

    fn init_states(&self) -> Vec<u32> {
        vec![0, 5, 0]
    }

    fn actions(&self, s: &u32, out: &mut Vec<u32>) {
        out.extend(self.successors(*s));
    }

    fn next_state(&self, _: &u32, a: &u32) -> Option<u32> {
        Some(*a)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![
            Property::<Self>::sometimes("target", "-", "reaches the target", |m, s| *s == m.target),
            Property::<Self>::always("not_target", "-", "never reaches the target", |m, s| {
                *s != m.target
            }),
            Property::<Self>::always("true", "-", "keeps the search going to the end", |_, _| {
                true
            }),
        ]
    }
}
