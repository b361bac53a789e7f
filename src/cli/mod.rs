//! The commands of the `rbcheck` binary: each one's options (clap) and what it prints. The work
//! itself is done by the `rbcheck` library.
//!
//! Everything the commands print goes through [`out!`] and [`outln!`]: when the reader of
//! stdout has gone (`rbcheck rules --list | head -c1`), the process ends quietly with exit code
//! 141 (128 + SIGPIPE, what a shell reports for a tool killed by SIGPIPE, so `pipefail` still
//! sees the output was cut) instead of `println!`'s panic and backtrace.
//!
//! Why not restore SIGPIPE's default action at the start of `main` instead: the Rust runtime
//! ignores SIGPIPE so that a write to a closed pipe is an error, and `rbcheck fuzz` relies on
//! that: writing a request to an engine that has just crashed must be an `EPIPE` reported as
//! an engine fault, not a signal that kills rbcheck with the run half done. Handling
//! `BrokenPipe` where stdout is written keeps both.

/// `print!` to stdout; a closed pipe ends the process quietly (see the module docs).
macro_rules! out {
    ($($t:tt)*) => { $crate::cli::write_stdout(format_args!($($t)*)) };
}

/// `println!` to stdout; a closed pipe ends the process quietly (see the module docs).
macro_rules! outln {
    () => { $crate::cli::write_stdout(format_args!("\n")) };
    ($($t:tt)*) => { $crate::cli::write_stdout(format_args!("{}\n", format_args!($($t)*))) };
}

pub mod cases;
pub mod check;
pub mod diff;
pub mod fuzz;
pub mod help;
pub mod progress;

/// Exit code when stdout's reader has gone: 128 + SIGPIPE.
pub const BROKEN_PIPE_EXIT: i32 = 141;

/// Writes to stdout. A closed pipe exits quietly with [`BROKEN_PIPE_EXIT`]; any other write
/// error exits 2 with a one-line message (never a panic).
pub fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(BROKEN_PIPE_EXIT);
        }
        eprintln!("rbcheck: cannot write to stdout: {e}");
        std::process::exit(2);
    }
}
