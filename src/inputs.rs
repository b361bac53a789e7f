//! Loading what the user names on the command line: a rulebook (preset or file) and a bound
//! (preset or file). Every problem is an error naming the file, the line and what was expected.

use model::rulebook::{Rulebook, Version};
use properties::Bound;
use std::path::Path;

/// A rulebook preset name or a rulebook file.
pub fn rulebook(arg: &str) -> Result<Rulebook, String> {
    if let Some(r) = Rulebook::named(arg) {
        return Ok(r);
    }
    let path = Path::new(arg);
    if !path.exists() {
        let names: Vec<&str> = Version::ALL.iter().map(|v| v.name()).collect();
        return Err(format!(
            "unknown rulebook `{arg}`: expected one of {} or a rulebook file",
            names.join(", ")
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{arg}: cannot read: {e}"))?;
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or(arg);
    Rulebook::from_toml(&text, name).map_err(|e| format!("{arg}:{}: {}", e.line, e.message))
}

/// A bound preset name or a bound file.
pub fn bound(arg: &str) -> Result<Bound, String> {
    if let Some(b) = Bound::preset(arg) {
        return Ok(b);
    }
    let path = Path::new(arg);
    if !path.exists() {
        return Err(format!(
            "unknown bound `{arg}`: expected one of {} or a bound file",
            Bound::PRESETS.join(", ")
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{arg}: cannot read: {e}"))?;
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or(arg);
    Bound::from_toml(&text, name).map_err(|e| format!("{arg}:{}: {}", e.line, e.message))
}
