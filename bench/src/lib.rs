//! Nothing to link: this package holds the benchmarks (`benches/versus.rs`, the checker against
//! Stateright over the Repeat model; `benches/fuzzing.rs`; `benches/reach.rs`), so that neither
//! `checker` nor the test build depends on Stateright.
