//! A single new file written at the end of a command (`--html`): the file half of the outputs'
//! rules (see the parent module).

use super::{refuse, register, sibling, unregister};
use crate::error::FileError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A new single file to write at the end of a command (`--html`), under the folders' rules: it
/// is checked before any work (not a link, folder or existing file; its parent writable, proved
/// by making the hidden temporary sibling that will hold the text), written whole, and linked
/// into place only if nothing has appeared there meanwhile: an existing file is never replaced.
/// Dropping it without [`NewFile::commit`] removes everything it made.
#[derive(Debug)]
pub struct NewFile {
    /// The file as the user named it (for messages).
    shown: PathBuf,
    /// The file as an absolute path without `.`, `..` or links in its folder.
    target: PathBuf,
    /// The hidden temporary sibling written into.
    temp: PathBuf,
    /// Parent folders created for the file, outermost first (removed again on failure).
    created: Vec<PathBuf>,
    /// An existing file at the target is replaced (`--force`).
    replace: bool,
    committed: bool,
}

impl Drop for NewFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.temp);
        if !self.committed {
            for p in self.created.iter().rev() {
                let _ = std::fs::remove_dir(p);
            }
        }
        unregister(&self.temp);
    }
}

impl NewFile {
    /// Makes the hidden temporary sibling of a checked target (which proves the parent
    /// writable). Dropping the result without [`NewFile::commit`] removes everything it made.
    pub(super) fn make(
        shown: &Path,
        target: PathBuf,
        replace: bool,
        created: Vec<PathBuf>,
    ) -> Result<NewFile, FileError> {
        let file = NewFile {
            shown: shown.to_path_buf(),
            temp: sibling(&target),
            target,
            created,
            replace,
            committed: false,
        };
        register(&file.temp);
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&file.temp)
            .map_err(|e| refuse(shown, &format!("cannot make a file there: {e}")))?;
        Ok(file)
    }

    /// The file as the user named it.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// The file as an absolute path (to tell it from the other outputs of a command).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Writes `text` into the temporary sibling and links it into place; fails, leaving
    /// nothing behind, if a file has appeared at the target since [`NewFile::prepare`].
    pub fn commit(mut self, text: &str) -> Result<(), FileError> {
        std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(&self.temp)
            .and_then(|mut f| {
                f.write_all(text.as_bytes())?;
                f.sync_all()
            })
            .map_err(FileError::at(&self.shown))?;
        if self.replace {
            // `--force`: the rename replaces the old file at once, never leaving it half-written.
            std::fs::rename(&self.temp, &self.target).map_err(FileError::at(&self.shown))?;
            self.committed = true;
            return Ok(());
        }
        // A hard link, unlike a rename, fails instead of replacing a file that appeared meanwhile.
        match std::fs::hard_link(&self.temp, &self.target) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(refuse(
                    &self.shown,
                    "a file appeared there while rbcheck ran; it was left as it is",
                ))
            }
            Err(e) => return Err(FileError::at(&self.shown)(e)),
        }
        self.committed = true;
        Ok(())
    }
}
