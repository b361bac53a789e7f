//! Output folders written all at once (cases, traces, diff examples): a folder must be new or
//! empty, and a failure leaves nothing half-written.

use crate::error::FileError;
use std::path::{Path, PathBuf};

/// A file to write: its name in the folder and its text.
pub type OutFile = (String, String);

/// An output folder being written: removed again on failure unless it existed before.
#[derive(Debug)]
pub struct OutDir {
    path: PathBuf,
    created: bool,
    committed: bool,
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if self.created && !self.committed {
            let _ = std::fs::remove_dir(&self.path);
        }
    }
}

impl OutDir {
    /// Makes `out` an empty folder (cases are replayed from there while written); it must not
    /// exist or be empty. Dropping the result without [`OutDir::commit`] removes a folder it
    /// created.
    pub fn prepare(out: &Path) -> Result<OutDir, FileError> {
        let existed = out.exists();
        if existed {
            let empty = std::fs::read_dir(out)
                .map_err(FileError::at(out))?
                .next()
                .is_none();
            if !empty {
                return Err(FileError::NotEmpty(out.to_path_buf()));
            }
        }
        std::fs::create_dir_all(out).map_err(FileError::at(out))?;
        Ok(OutDir {
            path: out.to_path_buf(),
            created: !existed,
            committed: false,
        })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes every file at once: into a staging folder renamed into place at the end, so a
    /// failure leaves nothing half-written.
    pub fn commit(&mut self, files: &[OutFile]) -> Result<(), FileError> {
        let out = self.path.clone();
        let out = out.as_path();
        let stage = out.with_extension(format!("tmp-{}", std::process::id()));
        std::fs::create_dir_all(&stage).map_err(FileError::at(&stage))?;
        for (name, text) in files {
            let file = stage.join(name);
            if let Err(e) = std::fs::write(&file, text) {
                let _ = std::fs::remove_dir_all(&stage);
                return Err(FileError::at(&file)(e));
            }
        }
        std::fs::remove_dir(out).map_err(FileError::at(out))?;
        std::fs::rename(&stage, out).map_err(FileError::at(out))?;
        self.committed = true;
        Ok(())
    }
}

/// The `rules` line for cases written into `out`: a preset's name, or the rulebook file's path
/// relative to `out`.
pub fn rules_line(arg: &str, out: &Path) -> String {
    if model::rulebook::Rulebook::named(arg).is_some() {
        return arg.to_string();
    }
    let (Ok(file), Ok(cwd)) = (std::fs::canonicalize(arg), std::env::current_dir()) else {
        return arg.to_string();
    };
    let out_abs = if out.is_absolute() {
        out.to_path_buf()
    } else {
        cwd.join(out)
    };
    let out_parts: Vec<_> = out_abs.components().collect();
    let file_parts: Vec<_> = file.components().collect();
    let common = out_parts
        .iter()
        .zip(&file_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = PathBuf::new();
    for _ in common..out_parts.len() {
        rel.push("..");
    }
    for p in &file_parts[common..] {
        rel.push(p);
    }
    rel.display().to_string()
}
