//! The house rules CI keeps: no product function is longer than [`MAX_LINES`] lines, but the
//! event encoder (one arm per event, each a few lines: splitting it would only scatter the
//! format). Product code is every crate's `src/`, tests left out (`#[cfg(test)]` modules and
//! `tests.rs` files). The code is rustfmt's, so a function ends at the first line that closes
//! its brace at the indentation of its `fn`.

use crate::shared::root;
use std::path::{Path, PathBuf};

/// The longest a product function may be, its signature and closing brace included.
const MAX_LINES: usize = 120;

/// Functions allowed to be longer: (file, function).
const ALLOWED: [(&str, &str); 1] = [("model/src/state/encode/event.rs", "encode")];

/// Every function of `text` longer than `max` lines, outside its test modules: (name, lines).
fn long_functions(text: &str, max: usize) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = vec![];
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.trim_start();
        let indent = line.len() - code.len();
        let after_vis = code
            .strip_prefix("pub ")
            .or_else(|| code.strip_prefix("pub(crate) "))
            .or_else(|| code.strip_prefix("pub(super) "))
            .unwrap_or(code);
        let after_kw = after_vis
            .strip_prefix("const ")
            .or_else(|| after_vis.strip_prefix("unsafe "))
            .unwrap_or(after_vis);
        let Some(sig) = after_kw.strip_prefix("fn ") else {
            continue;
        };
        let name: String = sig
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{}}}", " ".repeat(indent));
        let end = lines[i + 1..]
            .iter()
            .position(|l| l.starts_with(&close) && !l[indent..].starts_with("} else"));
        // A declaration without a body (a trait's) ends on its own line.
        if line.trim_end().ends_with(';') {
            continue;
        }
        if let Some(n) = end.map(|k| k + 2) {
            if n > max {
                out.push((name, n));
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs")
            && p.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(p);
        }
    }
}

#[test]
fn no_product_function_is_longer_than_the_limit() {
    let root = root();
    let mut files = vec![];
    for crate_src in [
        "src",
        "model/src",
        "checker/src",
        "properties/src",
        "case/src",
        "engine/src",
        "verify/src",
    ] {
        rust_files(&root.join(crate_src), &mut files);
    }
    assert!(files.len() > 100, "{} files", files.len());
    let mut long = vec![];
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        for (name, n) in long_functions(&text, MAX_LINES) {
            if !ALLOWED.contains(&(rel.as_str(), name.as_str())) {
                long.push(format!("{rel}: fn {name}, {n} lines"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_LINES} lines (split them):\n{}",
        long.join("\n")
    );
}

/// The scanner finds a long function, its length counted from `fn` to its closing brace, and
/// not one inside a test module; the allowed encoder is long, so it is found too.
#[test]
fn the_scanner_finds_a_long_function() {
    let body = "    let x = 1;\n".repeat(125);
    let text = format!(
        "/// Doc.\npub fn big() {{\n{body}}}\n\nfn small() {{\n}}\n\n#[cfg(test)]\nmod tests {{\n    fn hidden() {{\n{body}    }}\n}}\n"
    );
    assert_eq!(
        long_functions(&text, MAX_LINES),
        vec![("big".to_string(), 127)]
    );
    let encoder = std::fs::read_to_string(root().join(ALLOWED[0].0)).unwrap();
    assert!(long_functions(&encoder, MAX_LINES)
        .iter()
        .any(|(n, _)| n == ALLOWED[0].1));
}
