//! The errors of the `rbcheck` library: what went wrong before any verdict could be given. A
//! property that fails is not an error but a result (exit code 1); every error here is exit 2.

use std::path::{Path, PathBuf};

/// A rulebook or bound named on the command line that cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Neither a preset nor an existing file.
    #[error("unknown {what} `{arg}`: expected one of {presets} or a {what} file")]
    Unknown {
        /// `rulebook` or `bound`.
        what: &'static str,
        /// The name given.
        arg: String,
        /// The presets, comma-separated.
        presets: String,
    },
    /// A file named that cannot be read (missing, not a regular file, too large, not UTF-8).
    #[error("{arg}: {source}")]
    Unreadable {
        /// The file named.
        arg: String,
        /// Why.
        source: crate::read::ReadError,
    },
    /// The file does not describe a valid rulebook or bound.
    #[error("{arg}:{line}: {message}")]
    Invalid {
        /// The file named.
        arg: String,
        /// The line of the problem.
        line: usize,
        /// What was expected.
        message: String,
    },
}

/// A file or folder that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// An I/O failure on a path.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An output folder that already holds files, which would be mixed with the new ones.
    #[error("{}: the output folder exists and is not empty (rbcheck never overwrites unless given --force, which replaces an earlier output)", .0.display())]
    NotEmpty(PathBuf),
    /// An output target that cannot be written as a whole (`.`, a link, a file, ...).
    #[error("{}: cannot write there: {}", .0.display(), .1)]
    Refused(PathBuf, String),
    /// Two output targets of one command are the same path, or one lies inside another.
    #[error("{0}")]
    Clash(String),
}

impl FileError {
    /// A closure for `map_err` that names `path`.
    pub fn at(path: &Path) -> impl FnOnce(std::io::Error) -> FileError + '_ {
        move |source| FileError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Any failure of an `rbcheck` command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A rulebook or bound cannot be loaded.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A file or folder cannot be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// An option's value is out of range, or names nothing usable.
    #[error("{0}")]
    Usage(String),
    /// The bound's scenarios cannot be built or started under the rulebook.
    #[error("{0}")]
    Scenario(String),
    /// A run of the model cannot be written as a case file.
    #[error("{0}")]
    Case(String),
    /// The checker could not produce a result.
    #[error(transparent)]
    Check(#[from] checker::CheckError),
    /// An engine process could not be run or spoke the protocol wrongly.
    #[error("{0}")]
    Engine(String),
}

impl Error {
    /// A [`Error::Scenario`] from the model's message.
    pub fn scenario(e: impl std::fmt::Display) -> Error {
        Error::Scenario(e.to_string())
    }

    /// A [`Error::Case`] from the case writer's message.
    pub fn case(e: impl std::fmt::Display) -> Error {
        Error::Case(e.to_string())
    }

    /// An [`Error::Engine`] from the engine driver's message.
    pub fn engine(e: impl std::fmt::Display) -> Error {
        Error::Engine(e.to_string())
    }

    /// The process exit code for this error: always 2 (bad input or a failure of the tool); a
    /// violated property or a difference is a result, not an error, and exits 1.
    pub fn exit_code(&self) -> u8 {
        2
    }
}
