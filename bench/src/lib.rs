//! Nothing to link: this package holds the benchmark (`benches/versus.rs`, the checker against
//! Stateright over the Repeat model) and the checker's tests on the real model
//! (`tests/repeat_model.rs`), so that `checker` itself depends on nothing above it.
