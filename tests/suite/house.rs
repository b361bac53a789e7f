//! The house rules CI keeps: no module of a crate imports back into one that imports it
//! (files naming each other through `crate::` or `super::`, the crate root aside), and no
//! product function is longer than [`MAX_LINES`] lines, but the event encoder (one arm per
//! event, each a few lines: splitting it would only scatter the format). Product code is every crate's `src/`, tests left out (`#[cfg(test)]` modules and
//! `tests.rs` files). The code is rustfmt's, so a function ends at the first line that closes
//! its brace at the indentation of its `fn`.

use crate::shared::root;
use std::path::{Path, PathBuf};

/// The longest a product function may be, its signature and closing brace included.
const MAX_LINES: usize = 120;

/// Every crate's product code.
const CRATES: [&str; 7] = [
    "src",
    "model/src",
    "checker/src",
    "properties/src",
    "case/src",
    "engine/src",
    "verify/src",
];

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
    for crate_src in CRATES {
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

/// A file's module path in its crate: `fuzz/clusters.rs` is `fuzz::clusters`, `foo/mod.rs`
/// and `foo.rs` are `foo`, `lib.rs` and `main.rs` are the root (empty).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The module paths `text` (the file of module `me`) names through `crate::` or `super::`,
/// outside its test modules and comments.
fn named_paths(text: &str, me: &[String]) -> Vec<Vec<String>> {
    // Code only: no test module, no comment (a doc may name a module it does not import).
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or("")
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| l.split(" // ").next().unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let code = code.as_str();
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = vec![];
    for (start, prefix) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
    {
        if start > 0 && code[..start].ends_with(|c: char| word(c) || c == ':') {
            continue;
        }
        let mut path: Vec<String> = match prefix {
            "crate::" => vec![],
            _ => me[..me.len().saturating_sub(1)].to_vec(),
        };
        let rest = &code[start + prefix.len()..];
        let mut tail = rest;
        // `super::super::x` climbs further.
        while let Some(t) = tail.strip_prefix("super::") {
            path.pop();
            tail = t;
        }
        // `crate::a::{b, c::d}`: each name of a group is a path of its own.
        let head: String = tail.chars().take_while(|c| word(*c) || *c == ':').collect();
        let head: Vec<String> = head
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        let after = &tail[head
            .iter()
            .map(|h| h.len() + 2)
            .sum::<usize>()
            .min(tail.len())..];
        let mut base = path.clone();
        base.extend(head);
        if let Some(group) = after.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for name in group.split(',') {
                let mut p = base.clone();
                p.extend(
                    name.trim()
                        .split("::")
                        .map(|s| s.trim().to_string())
                        .filter(|s| !s.is_empty()),
                );
                out.push(p);
            }
        } else {
            out.push(base);
        }
    }
    out
}

/// The import graph of one crate: each file's module and the modules it names (the longest
/// prefix of a named path that is a module), leaving out the crate root (it declares every
/// module and re-exports their names: an arrow into it says nothing of layering) and a
/// module's arrows to itself.
fn imports(src: &Path) -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let mut files = vec![];
    rust_files(src, &mut files);
    let modules: Vec<(Vec<String>, PathBuf)> = files
        .iter()
        .map(|f| (module_of(f.strip_prefix(src).unwrap()), f.clone()))
        .collect();
    let known = |p: &[String]| modules.iter().any(|(m, _)| m == p);
    modules
        .iter()
        .map(|(me, file)| {
            let text = std::fs::read_to_string(file).unwrap();
            let mut to: Vec<Vec<String>> = vec![];
            for path in named_paths(&text, me) {
                let Some(n) = (1..=path.len()).rev().find(|n| known(&path[..*n])) else {
                    continue;
                };
                let target = path[..n].to_vec();
                if &target != me && !to.contains(&target) {
                    to.push(target);
                }
            }
            (me.clone(), to)
        })
        .collect()
}

/// A circle of modules importing each other, if the graph has one.
fn circle(graph: &[(Vec<String>, Vec<Vec<String>>)]) -> Option<Vec<String>> {
    // Depth-first, colouring: 1 on the path, 2 done.
    fn visit(
        v: usize,
        graph: &[(Vec<String>, Vec<Vec<String>>)],
        colour: &mut [u8],
        path: &mut Vec<usize>,
    ) -> Option<Vec<String>> {
        colour[v] = 1;
        path.push(v);
        for t in &graph[v].1 {
            let Some(w) = graph.iter().position(|(m, _)| m == t) else {
                continue;
            };
            if colour[w] == 1 {
                let from = path.iter().position(|x| *x == w).unwrap();
                return Some(
                    path[from..]
                        .iter()
                        .map(|i| graph[*i].0.join("::"))
                        .collect(),
                );
            }
            if colour[w] == 0 {
                if let Some(c) = visit(w, graph, colour, path) {
                    return Some(c);
                }
            }
        }
        path.pop();
        colour[v] = 2;
        None
    }
    let mut colour = vec![0u8; graph.len()];
    (0..graph.len()).find_map(|v| {
        (colour[v] == 0)
            .then(|| visit(v, graph, &mut colour, &mut vec![]))
            .flatten()
    })
}

#[test]
fn no_module_of_a_crate_imports_back_into_one_that_imports_it() {
    let root = root();
    for krate in CRATES {
        let graph = imports(&root.join(krate));
        assert!(graph.len() > 3, "{krate}: {} modules", graph.len());
        if let Some(c) = circle(&graph) {
            panic!(
                "{krate}: modules import each other in a circle: {}",
                c.join(" -> ")
            );
        }
    }
}

#[test]
fn the_circle_finder_sees_a_circle_through_super_and_a_group() {
    let me = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    let a = named_paths(
        "use super::{b::X, c};\nfn f() { crate::d::e(); }\n",
        &me("x::a"),
    );
    assert_eq!(a, vec![me("d::e"), me("x::b::X"), me("x::c")]);
    // A comment names no import.
    assert!(named_paths("//! see `crate::y`\nfn g() {} // crate::z\n", &me("a")).is_empty());
    let graph = vec![
        (me("a"), vec![me("b")]),
        (me("b"), vec![me("c")]),
        (me("c"), vec![me("a")]),
    ];
    assert_eq!(
        circle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into()])
    );
    assert_eq!(circle(&graph[..2]), None);
}
