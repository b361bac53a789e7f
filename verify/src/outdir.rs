//! Output folders written all at once (cases, traces, diff examples, fuzz findings), new single
//! files (`--html` reports) and files rewritten in place (`rbcheck fmt --write`), keeping the
//! documented promise (docs/outputs.md): an output folder must be new or empty, nothing is ever
//! overwritten, and a failed or interrupted command leaves nothing behind.
//!
//! How: every command hands all its output targets to one function, [`prepare`], before any
//! work. It checks each by the rules of its kind (a folder: not `.`, not a link, not a file, new
//! or empty; a file: new; a shared folder such as `--parts`: existing), then compares them all
//! as absolute paths, before anything is made: no two may be the same and none may lie inside
//! another (a folder is replaced as a whole at the end, so what is written inside it would be
//! lost or would make the rename fail after the run). Only then are the staging siblings made
//! (which proves each parent writable). Files are written into a hidden staging sibling and the
//! staging folder is renamed onto the target at the end. Staging folders and temporary files
//! are registered so that SIGINT and SIGTERM remove them ([`cleanup_on_signals`]) before the
//! process ends with the signal.

use crate::error::FileError;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

mod file;
pub use file::NewFile;

/// A file to write: its name in the folder and its text.
pub type OutFile = (String, String);

/// An output folder being written: its staging sibling is removed again unless committed.
#[derive(Debug)]
pub struct OutDir {
    /// The folder as the user named it (for messages).
    shown: PathBuf,
    /// The folder as an absolute path without `.`, `..` or links.
    target: PathBuf,
    /// The hidden sibling written into, renamed onto `target` at the end.
    stage: PathBuf,
    /// What is at `target` now, replaced by the rename.
    existing: Existing,
    /// Parent folders created for the target, outermost first (removed again on failure).
    created: Vec<PathBuf>,
    committed: bool,
}

/// What a folder target holds before the command writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Existing {
    /// Nothing: the folder is new.
    Nothing,
    /// An empty folder, removed just before the rename.
    Empty,
    /// An earlier output (`--force`): only files of the kinds rbcheck writes, no subfolder;
    /// moved aside at the rename and removed once the new folder is in place.
    Earlier,
}

/// The file names an output folder of rbcheck holds: what `--force` may replace.
fn written_by_rbcheck(name: &str) -> bool {
    [".case", ".md", ".txt", ".json", ".dot", ".toml", ".html"]
        .iter()
        .any(|x| name.ends_with(x))
}

impl Drop for OutDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.stage);
            for p in self.created.iter().rev() {
                let _ = std::fs::remove_dir(p);
            }
        }
        unregister(&self.stage);
    }
}

fn refuse(path: &Path, why: &str) -> FileError {
    FileError::Refused(path.to_path_buf(), why.to_string())
}

/// `path` made absolute and normalised through its longest existing ancestor (so `..` after a
/// link means what the system means by it); the part that does not exist yet may hold no `.`
/// or `..`. Returns the path and the ancestors that do not exist, outermost first.
fn resolve(path: &Path) -> Result<(PathBuf, Vec<PathBuf>), FileError> {
    let cwd = std::env::current_dir().map_err(FileError::at(Path::new(".")))?;
    let abs = cwd.join(path);
    let mut existing = abs.as_path();
    let mut missing = vec![];
    while std::fs::symlink_metadata(existing).is_err() {
        let Some(parent) = existing.parent() else {
            break;
        };
        missing.push(existing.file_name().map(PathBuf::from).unwrap_or_default());
        existing = parent;
    }
    let mut out = std::fs::canonicalize(existing).map_err(FileError::at(existing))?;
    let mut created = vec![];
    for part in missing.iter().rev() {
        if part
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
            || part.as_os_str().is_empty()
        {
            return Err(refuse(
                path,
                "names a folder through `.` or `..` that does not exist",
            ));
        }
        out.push(part);
        created.push(out.clone());
    }
    // The target itself is not a parent to create.
    created.pop();
    Ok((out, created))
}

/// What an output option names, and so the rules it is checked by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A folder written whole at the end (`--out`, `--keep`, `--cases`, `--traces`): new or
    /// empty, never `.`, a link or a file.
    Folder,
    /// A new file written at the end (`--html`): it must not exist.
    File,
    /// A folder that exists and gathers the files of several runs, each added new (`--parts`).
    Shared,
}

/// One output option of a command: its flag (for messages), the path it names if it was
/// given, and its kind.
#[derive(Clone, Copy, Debug)]
pub struct Target<'a> {
    /// The option, e.g. `--cases`.
    pub flag: &'static str,
    /// The path given, if the option was.
    pub path: Option<&'a Path>,
    /// How it is written.
    pub kind: Kind,
    /// `--force`: an existing file, or a folder of an earlier output, is replaced at the end.
    pub replace: bool,
}

impl<'a> Target<'a> {
    /// A folder option.
    pub fn folder(flag: &'static str, path: Option<&'a Path>) -> Target<'a> {
        Target {
            flag,
            path,
            kind: Kind::Folder,
            replace: false,
        }
    }

    /// A new-file option.
    pub fn file(flag: &'static str, path: Option<&'a Path>) -> Target<'a> {
        Target {
            flag,
            path,
            kind: Kind::File,
            replace: false,
        }
    }

    /// The same target, replacing what is there if `on` (`--force`; see [`Target::replace`]).
    pub fn replacing(self, on: bool) -> Target<'a> {
        Target {
            replace: on,
            ..self
        }
    }

    /// A shared-folder option.
    pub fn shared(flag: &'static str, path: Option<&'a Path>) -> Target<'a> {
        Target {
            flag,
            path,
            kind: Kind::Shared,
            replace: false,
        }
    }
}

/// The outputs of one command, checked together and prepared, taken by flag.
#[derive(Debug, Default)]
pub struct Outputs {
    folders: Vec<(&'static str, OutDir)>,
    files: Vec<(&'static str, NewFile)>,
    shared: Vec<(&'static str, PathBuf)>,
}

impl Outputs {
    /// The prepared folder of `flag`, if it was given (taken out: once).
    pub fn folder(&mut self, flag: &str) -> Option<OutDir> {
        let i = self.folders.iter().position(|(f, _)| *f == flag)?;
        Some(self.folders.remove(i).1)
    }

    /// The prepared file of `flag`, if it was given (taken out: once).
    pub fn file(&mut self, flag: &str) -> Option<NewFile> {
        let i = self.files.iter().position(|(f, _)| *f == flag)?;
        Some(self.files.remove(i).1)
    }

    /// The shared folder of `flag` (its real path), if it was given.
    pub fn shared(&self, flag: &str) -> Option<&Path> {
        self.shared
            .iter()
            .find(|(f, _)| *f == flag)
            .map(|(_, p)| p.as_path())
    }
}

/// A target that passed its kind's checks, resolved; nothing made yet.
struct Checked<'a> {
    flag: &'static str,
    shown: &'a Path,
    kind: Kind,
    /// The absolute path without `.`, `..` or links.
    target: PathBuf,
    /// Parent folders to make, outermost first.
    to_create: Vec<PathBuf>,
    /// What a folder target holds now (replaced at the end).
    existing: Existing,
    /// An existing file target, replaced at the end (`--force`).
    replace_file: bool,
}

/// Checks every output target of a command before it runs, all together, and prepares them;
/// every command calls it once with all its targets. Each is checked by the rules of its
/// [`Kind`]; then no two may name the same path and none may lie inside a folder or file
/// target (compared as absolute paths through links, before anything is made, so a target
/// nested in one that does not exist yet is named as such, not as a folder that "is not
/// empty"). Nothing is made unless every target passes; what is made is removed again if the
/// command fails before writing it.
pub fn prepare(targets: &[Target<'_>]) -> Result<Outputs, FileError> {
    let mut checked: Vec<Checked> = vec![];
    for t in targets {
        let Some(path) = t.path else { continue };
        let c = check(t.flag, path, t.kind, t.replace)?;
        for o in &checked {
            clash(o, &c)?;
        }
        checked.push(c);
    }
    let mut outputs = Outputs::default();
    // Parents two targets share are made once and recorded by both: each removes them again
    // only if they are empty, so the last one dropped does.
    let mut made: Vec<PathBuf> = vec![];
    for c in checked {
        let mut created = vec![];
        for p in &c.to_create {
            match std::fs::create_dir(p) {
                Ok(()) => made.push(p.clone()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && made.contains(p) => {}
                Err(e) => return Err(FileError::at(p)(e)),
            }
            created.push(p.clone());
        }
        match c.kind {
            Kind::Folder => {
                let dir = OutDir::make(c.shown, c.target, c.existing, created)?;
                outputs.folders.push((c.flag, dir));
            }
            Kind::File => {
                let file = NewFile::make(c.shown, c.target, c.replace_file, created)?;
                outputs.files.push((c.flag, file));
            }
            Kind::Shared => outputs.shared.push((c.flag, c.target)),
        }
    }
    Ok(outputs)
}

/// The checks of one target's kind, without making anything.
fn check<'a>(
    flag: &'static str,
    path: &'a Path,
    kind: Kind,
    replace: bool,
) -> Result<Checked<'a>, FileError> {
    let (mut existing, mut replace_file) = (Existing::Nothing, false);
    match kind {
        Kind::Folder => existing = check_folder(path, replace)?,
        Kind::File => replace_file = check_file(path, replace)?,
        Kind::Shared => {
            if !std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
                return Err(refuse(
                    path,
                    &format!("{flag} expects an existing folder (the shards of a run share it)"),
                ));
            }
        }
    }
    let (target, to_create) = resolve(path)?;
    Ok(Checked {
        flag,
        shown: path,
        kind,
        target,
        to_create,
        existing,
        replace_file,
    })
}

/// Refuses two targets at the same path, or one inside a folder or file target.
fn clash(a: &Checked, b: &Checked) -> Result<(), FileError> {
    let what = |c: &Checked| match c.kind {
        Kind::File => "path",
        _ => "folder",
    };
    if a.target == b.target {
        let same = if a.kind == b.kind { what(a) } else { "path" };
        return Err(FileError::Clash(format!(
            "{} and {} name the same {same} {}: give each its own",
            a.flag,
            b.flag,
            b.shown.display()
        )));
    }
    for (outer, inner) in [(a, b), (b, a)] {
        if outer.kind != Kind::Shared && inner.target.starts_with(&outer.target) {
            let whole = match outer.kind {
                Kind::File => "is a file",
                _ => "is written whole at the end",
            };
            return Err(FileError::Clash(format!(
                "{} {} lies inside {} {}, which {whole}: give each output a place outside the others",
                inner.flag,
                inner.shown.display(),
                outer.flag,
                outer.shown.display()
            )));
        }
    }
    Ok(())
}

/// A folder target's own checks: it must not be `.`, `..`, a link or a file, and must be new
/// or an empty folder, or with `replace` an earlier output (files of the kinds rbcheck writes,
/// no subfolder: a folder of anything else is never removed). Returns what it holds.
fn check_folder(out: &Path, replace: bool) -> Result<Existing, FileError> {
    if matches!(
        out.components().next_back(),
        None | Some(Component::CurDir | Component::ParentDir | Component::RootDir)
    ) {
        return Err(refuse(
            out,
            "name the output folder itself (not `.`, `..` or `/`): it is replaced as a whole",
        ));
    }
    match std::fs::symlink_metadata(out) {
        Ok(m) if m.file_type().is_symlink() => Err(refuse(
            out,
            "is a symbolic link: name the folder it points to",
        )),
        Ok(m) if m.is_dir() => {
            let mut entries = vec![];
            for e in std::fs::read_dir(out).map_err(FileError::at(out))? {
                let e = e.map_err(FileError::at(out))?;
                let file = e.file_type().map_err(FileError::at(out))?.is_file();
                entries.push((e.file_name().to_string_lossy().into_owned(), file));
            }
            if entries.is_empty() {
                return Ok(Existing::Empty);
            }
            if !replace {
                return Err(FileError::NotEmpty(out.to_path_buf()));
            }
            if let Some((name, _)) = entries
                .iter()
                .find(|(name, file)| !file || !written_by_rbcheck(name))
            {
                return Err(refuse(
                    out,
                    &format!(
                        "--force replaces only an earlier output of rbcheck, and this folder holds `{name}`, which rbcheck does not write: remove it yourself or name another folder"
                    ),
                ));
            }
            Ok(Existing::Earlier)
        }
        Ok(_) => Err(refuse(out, "exists and is not a folder")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Existing::Nothing),
        Err(e) => Err(FileError::at(out)(e)),
    }
}

/// A file target's own checks: it must name a file (not `.`, `..` or `/`) that does not exist
/// (nothing is overwritten), or with `replace` an existing file (not a link). Returns whether
/// one exists.
fn check_file(path: &Path, replace: bool) -> Result<bool, FileError> {
    if !matches!(path.components().next_back(), Some(Component::Normal(_))) {
        return Err(refuse(path, "name a file (not `.`, `..` or `/`)"));
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => Err(refuse(path, "is a folder: name a file")),
        Ok(m) if m.file_type().is_symlink() => {
            Err(refuse(path, "is a symbolic link: name the file itself"))
        }
        Ok(_) if replace => Ok(true),
        Ok(_) => Err(refuse(
            path,
            "the file exists (rbcheck never overwrites unless given --force): remove it or name another",
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(FileError::at(path)(e)),
    }
}

/// A unique number for staging names within this process.
static STAGE_SEQ: AtomicUsize = AtomicUsize::new(0);

/// A hidden sibling of `target` for staging: `.NAME.rbcheck-PID-N`.
fn sibling(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = STAGE_SEQ.fetch_add(1, Ordering::Relaxed);
    target.with_file_name(format!(".{name}.rbcheck-{}-{n}", std::process::id()))
}

impl OutDir {
    /// Makes the staging folder of a checked target (which proves the parent writable).
    /// Dropping the result without [`OutDir::commit`] removes everything it made.
    fn make(
        shown: &Path,
        target: PathBuf,
        existing: Existing,
        created: Vec<PathBuf>,
    ) -> Result<OutDir, FileError> {
        let dir = OutDir {
            shown: shown.to_path_buf(),
            stage: sibling(&target),
            target,
            existing,
            created,
            committed: false,
        };
        register(&dir.stage);
        std::fs::create_dir(&dir.stage)
            .map_err(|e| refuse(shown, &format!("cannot make a folder there: {e}")))?;
        Ok(dir)
    }

    /// The folder as the user named it.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// The folder as an absolute path without `.`, `..` or links (what a file in it is
    /// relative to).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// The staging folder, a sibling of the target: files written there (`rbcheck fuzz
    /// --keep`) are moved into place by [`OutDir::commit`], and a case replayed from there finds
    /// the same relative paths as from the target.
    pub fn stage(&self) -> &Path {
        &self.stage
    }

    /// Writes `files` into the staging folder (never over a file already there) and renames
    /// it onto the target, so a failure leaves nothing half-written.
    pub fn commit(&mut self, files: &[OutFile]) -> Result<(), FileError> {
        self.commit_counting(files, || {})
    }

    /// [`commit`](Self::commit), calling `written` after each file (for a progress count).
    pub fn commit_counting(
        &mut self,
        files: &[OutFile],
        mut written: impl FnMut(),
    ) -> Result<(), FileError> {
        for (name, text) in files {
            let file = self.stage.join(name);
            let done = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&file)
                .and_then(|mut f| f.write_all(text.as_bytes()));
            done.map_err(FileError::at(&file))?;
            written();
        }
        match self.existing {
            Existing::Nothing => {}
            // Fails, leaving the files staged and then removed, if the folder is no longer
            // empty: nothing a user put there is lost.
            Existing::Empty => {
                std::fs::remove_dir(&self.target).map_err(FileError::at(&self.shown))?
            }
            Existing::Earlier => return self.replace_earlier(),
        }
        std::fs::rename(&self.stage, &self.target).map_err(FileError::at(&self.shown))?;
        self.committed = true;
        Ok(())
    }

    /// Puts the staged folder in place of an earlier output: the old one is moved aside, the
    /// new one renamed in (the old put back if that fails), then the old one removed.
    fn replace_earlier(&mut self) -> Result<(), FileError> {
        // Not registered for removal on a signal: interrupted between the renames, the old
        // output stays whole in its hidden sibling rather than being lost.
        let aside = sibling(&self.target);
        std::fs::rename(&self.target, &aside).map_err(FileError::at(&self.shown))?;
        if let Err(e) = std::fs::rename(&self.stage, &self.target) {
            let _ = std::fs::rename(&aside, &self.target);
            return Err(FileError::at(&self.shown)(e));
        }
        self.committed = true;
        std::fs::remove_dir_all(&aside).map_err(FileError::at(&aside))
    }
}

/// Replaces the file `path` by `text` at once: written to a temporary sibling, then renamed
/// over it, so a full disk or a signal leaves the old file whole. A link is followed, and the
/// file keeps its permissions.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), FileError> {
    let real = std::fs::canonicalize(path).map_err(FileError::at(path))?;
    let perms = std::fs::metadata(&real)
        .map_err(FileError::at(path))?
        .permissions();
    let temp = sibling(&real);
    register(&temp);
    let result = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.set_permissions(perms)?;
            f.sync_all()
        })
        .and_then(|_| std::fs::rename(&temp, &real));
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    unregister(&temp);
    result.map_err(FileError::at(path))
}

/// The staging folders and temporary files of this process, removed on SIGINT or SIGTERM.
static STAGED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn register(p: &Path) {
    cleanup_on_signals();
    STAGED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(p.to_path_buf());
}

fn unregister(p: &Path) {
    STAGED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|x| x != p);
}

/// Removes every registered staging folder or temporary file.
fn remove_staged() {
    let staged = STAGED.lock().unwrap_or_else(|e| e.into_inner());
    for p in staged.iter() {
        if std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()) {
            let _ = std::fs::remove_dir_all(p);
        } else {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Makes SIGINT and SIGTERM kill the engines' process groups and remove the staged outputs
/// before the process ends with the
/// signal (exit status 130 or 143, as without the handler). Installed once, on the first
/// output or before the first engine starts. The handler only writes the signal's number to a pipe (all a signal handler may
/// safely do); a thread reading the pipe does the removal in ordinary code.
#[cfg(unix)]
pub fn cleanup_on_signals() {
    use std::sync::atomic::AtomicI32;
    use std::sync::Once;
    static INSTALL: Once = Once::new();
    static PIPE: AtomicI32 = AtomicI32::new(-1);
    extern "C" fn on_signal(sig: libc::c_int) {
        let fd = PIPE.load(Ordering::Relaxed);
        let b = sig as u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is a live local byte.
        unsafe { libc::write(fd, (&b as *const u8).cast(), 1) };
    }
    INSTALL.call_once(|| {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: `fds` is a valid array of two ints for pipe(2) to fill.
        if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
            return;
        }
        PIPE.store(fds[1], Ordering::Relaxed);
        let read_fd = fds[0];
        std::thread::spawn(move || {
            let Some(b) = wait_for_signal(read_fd) else {
                return;
            };
            rbcheck_engine::process::kill_groups();
            remove_staged();
            // SAFETY: restores the default action of the signal received, so that raising it
            // again ends the process as it would have ended without this handler.
            unsafe { libc::signal(libc::c_int::from(b), libc::SIG_DFL) };
            // SAFETY: raises a signal whose action is now the default one.
            unsafe { libc::raise(libc::c_int::from(b)) };
        });
        for sig in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: installs a handler that only calls write(2) on a pipe that stays open.
            unsafe {
                libc::signal(
                    sig,
                    on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t,
                );
            }
        }
    });
}

/// Waits for the signal handler's byte on the pipe `fd`: the signal's number, or `None` once
/// the pipe cannot be read. Only an interrupted read (`EINTR`) is tried again: any other
/// failure, or the end of the pipe, would fail the same way at once, so looping on it would
/// spin at full CPU for the rest of the process.
#[cfg(unix)]
fn wait_for_signal(fd: libc::c_int) -> Option<u8> {
    let mut b = 0u8;
    loop {
        // SAFETY: reads at most one byte into a live local.
        let n = unsafe { libc::read(fd, (&mut b as *mut u8).cast(), 1) };
        match n {
            1 => return Some(b),
            -1 if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
            _ => return None,
        }
    }
}

/// Elsewhere signals end the process without clean-up.
#[cfg(not(unix))]
pub fn cleanup_on_signals() {}

/// The `rules` line for cases written into `out`: a preset's name, or the rulebook file's path
/// relative to the folder (its real path: `..` and links resolved).
pub fn rules_line(arg: &str, out: &OutDir) -> String {
    if model::rulebook::Rulebook::named(arg).is_some() {
        return arg.to_string();
    }
    let Ok(file) = std::fs::canonicalize(arg) else {
        return arg.to_string();
    };
    let out_parts: Vec<_> = out.target().components().collect();
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

/// Writes a new file `path` at once, never over an existing one: written to a hidden
/// temporary sibling (removed on SIGINT and SIGTERM), then linked to its name, so a reader, a
/// full disk or a signal never sees it half-written (`rbcheck fuzz` streams findings so).
pub fn write_new(path: &Path, text: &str) -> Result<(), FileError> {
    let temp = sibling(path);
    register(&temp);
    let result = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_all()
        })
        .and_then(|_| std::fs::hard_link(&temp, path));
    let _ = std::fs::remove_file(&temp);
    unregister(&temp);
    result.map_err(FileError::at(path))
}

#[cfg(all(test, unix))]
mod tests;
