//! The `rbcheck` library: case files (parse, print, replay). The command itself is `main.rs`.

pub mod case;
pub mod engine;
