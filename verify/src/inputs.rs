//! Loading what the user names on the command line: a rulebook (preset or file) and a bound
//! (preset or file). Every problem is an error naming the file, the line and what was expected.

use crate::error::InputError;
use model::rulebook::{Rulebook, Version};
use properties::Bound;
use std::path::Path;

/// A rulebook preset name or a rulebook file.
pub fn rulebook(arg: &str) -> Result<Rulebook, InputError> {
    if let Some(r) = Rulebook::named(arg) {
        return Ok(r);
    }
    let names: Vec<&str> = Version::ALL.iter().map(|v| v.name()).collect();
    let (text, name) = read(arg, "rulebook", &names)?;
    Rulebook::from_toml(&text, name).map_err(|e| invalid(arg, e.line, e.message))
}

/// A bound preset name or a bound file.
pub fn bound(arg: &str) -> Result<Bound, InputError> {
    if let Some(b) = Bound::preset(arg) {
        return Ok(b);
    }
    let (text, name) = read(arg, "bound", &Bound::PRESETS)?;
    Bound::from_toml(&text, name).map_err(|e| invalid(arg, e.line, e.message))
}

/// The text of the file `arg` and its stem (the rulebook's or bound's name). A name that is
/// neither a preset nor a path to anything is "unknown"; a path that names something that
/// cannot be read (missing, a folder, a FIFO, a device, over the size cap) says why.
fn read<'a>(
    arg: &'a str,
    what: &'static str,
    presets: &[&str],
) -> Result<(String, &'a str), InputError> {
    let path = Path::new(arg);
    let looks_like_a_file = arg.contains(['/', '.']) || std::fs::symlink_metadata(path).is_ok();
    if !looks_like_a_file {
        return Err(InputError::Unknown {
            what,
            arg: arg.into(),
            presets: presets.join(", "),
        });
    }
    let text = crate::read::read_text(path).map_err(|source| InputError::Unreadable {
        arg: arg.into(),
        source,
    })?;
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or(arg);
    Ok((text, name))
}

fn invalid(arg: &str, line: usize, message: String) -> InputError {
    InputError::Invalid {
        arg: arg.into(),
        line,
        message,
    }
}
