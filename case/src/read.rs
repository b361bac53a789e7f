//! Reading the files a user names (rulebooks, bounds, case files, a case's rulebook) with a size
//! cap: `--rules /dev/zero` or a case whose `rules` names a FIFO would otherwise read forever or
//! until memory runs out. Only regular files are read, and at most [`MAX_FILE_BYTES`] of them.

use std::io::Read;
use std::path::Path;

/// The largest file rbcheck reads: 4 MiB. The largest shipped input (a generated case, a
/// rulebook, a bound) is a few kilobytes, so this is far above any real one.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The longest line `rbcheck serve` accepts: a request carries one case, a few kilobytes.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// Why a file could not be read. The message does not name the file: the caller does.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The operating system refused (no such file, permission denied, ...).
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    /// A folder, FIFO, device or socket: reading it may never end.
    #[error("cannot read: not a regular file (it is {0})")]
    NotRegular(&'static str),
    /// Larger than [`MAX_FILE_BYTES`].
    #[error("cannot read: larger than the {} MiB rbcheck reads", MAX_FILE_BYTES >> 20)]
    TooLarge,
    /// Not UTF-8 text.
    #[error("not UTF-8 text (byte {0})")]
    NotUtf8(usize),
}

/// What kind of non-regular file `m` describes, in words.
fn kind(m: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if m.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Opens `path` for reading without blocking on a FIFO (the type is checked on the open file,
/// so a file swapped for a FIFO between a check and the open is still caught).
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    o.open(path)
}

/// The bytes of the regular file `path`, at most [`MAX_FILE_BYTES`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, ReadError> {
    let file = open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind(&meta)));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge);
    }
    let mut bytes = vec![];
    // One byte more than the cap tells a file that grew past it while read.
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}

/// The text of the regular file `path`, at most [`MAX_FILE_BYTES`], which must be UTF-8.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    String::from_utf8(read_bytes(path)?)
        .map_err(|e| ReadError::NotUtf8(e.utf8_error().valid_up_to()))
}

/// One line of `input` without its `\n` (and a `\r` before it), read with a cap of `max`
/// bytes; `Ok(None)` at the end of input. A longer line is an error, and the rest of it is
/// skipped so that the next line can still be read.
pub fn read_line(
    input: &mut impl std::io::BufRead,
    max: usize,
) -> std::io::Result<Option<Result<String, LineError>>> {
    let mut buf = vec![];
    let mut too_long = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            if buf.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (take, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            if buf.len() + take > max {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(&chunk[..take]);
            }
        }
        input.consume(take + usize::from(end));
        if end {
            break;
        }
    }
    if too_long {
        return Ok(Some(Err(LineError::TooLong)));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(String::from_utf8(buf).map_err(|e| {
        LineError::NotUtf8(e.utf8_error().valid_up_to())
    })))
}

/// A line [`read_line`] could not give as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// Longer than the cap.
    #[error("a line longer than {} MiB", MAX_LINE_BYTES >> 20)]
    TooLong,
    /// Not UTF-8.
    #[error("not UTF-8 text (byte {0})")]
    NotUtf8(usize),
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn devices_and_fifos_are_refused_without_reading() {
        let e = read_text(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read: not a regular file (it is a device)"
        );
        let dir = std::env::temp_dir().join(format!("rbcheck-read-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("f");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let e = read_text(&fifo).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read: not a regular file (it is a FIFO)"
        );
        let big = dir.join("big");
        std::fs::write(&big, vec![b'a'; MAX_FILE_BYTES as usize + 1]).unwrap();
        assert!(matches!(read_text(&big), Err(ReadError::TooLarge)));
        std::fs::write(&big, vec![b'a'; MAX_FILE_BYTES as usize]).unwrap();
        assert_eq!(read_text(&big).unwrap().len(), MAX_FILE_BYTES as usize);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn long_lines_are_refused_and_skipped() {
        let text = format!("ok\n{}\nnext\r\n", "x".repeat(100));
        let mut input = std::io::BufReader::with_capacity(8, text.as_bytes());
        let mut got = vec![];
        while let Some(l) = read_line(&mut input, 50).unwrap() {
            got.push(l);
        }
        assert_eq!(
            got,
            vec![Ok("ok".into()), Err(LineError::TooLong), Ok("next".into())]
        );
    }
}
