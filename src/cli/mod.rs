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
    // Colour (see `highlight`) reaches a terminal only: anstream drops it for a pipe or a
    // file, under NO_COLOR, and as `--color` says.
    let mut stdout = anstream::stdout().lock();
    if let Err(e) = stdout.write_fmt(args) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(BROKEN_PIPE_EXIT);
        }
        eprintln!("rbcheck: cannot write to stdout: {e}");
        std::process::exit(2);
    }
}

/// `text` with the words a reader looks for first in colour: a failure (COUNTEREXAMPLE, FAIL,
/// ERROR, a violated property) in red, a pass in green, a verdict that claims less than it
/// seems (NOT EXERCISED, PARTIAL RUN) in yellow. Only printing colours: the reports written to
/// files stay plain, and `write_stdout` drops the colour where it is not wanted.
pub fn highlight(text: &str) -> String {
    use anstyle::{AnsiColor, Style};
    let red = AnsiColor::Red.on_default().bold();
    let green = AnsiColor::Green.on_default();
    let yellow = AnsiColor::Yellow.on_default().bold();
    let paint = |s: &str, style: Style| format!("{style}{s}{style:#}");
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let marked = [
            ("COUNTEREXAMPLE", red),
            ("FAIL", red),
            ("ERROR", red),
            ("every property holds", green),
            ("pass", green),
            ("NOT EXERCISED", yellow),
            ("PARTIAL RUN", yellow),
        ]
        .into_iter()
        .find(|(w, _)| line.starts_with(w));
        match marked {
            Some((w, style)) => {
                out.push_str(&paint(w, style));
                out.push_str(&line[w.len()..]);
            }
            None => match line.find(" violated ") {
                Some(at) => {
                    out.push_str(&line[..at + 1]);
                    out.push_str(&paint("violated", red));
                    out.push_str(&line[at + 9..]);
                }
                None => out.push_str(line),
            },
        }
    }
    out
}

/// When stdout gets colour (`--color`): on a terminal unless NO_COLOR is set, always, never.
#[derive(Clone, Copy, Debug, Default, clap::ValueEnum)]
pub enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set (or CLICOLOR_FORCE forces it).
    #[default]
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

impl ColorWhen {
    /// Makes every later write to stdout follow this choice.
    pub fn apply(self) {
        anstream::ColorChoice::write_global(match self {
            ColorWhen::Auto => anstream::ColorChoice::Auto,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        });
    }
}
