//! Fingerprints of what a part file's numbers depend on besides its rulebook and bound: the
//! sources of the model, its properties and the checker, and the card catalogue compiled into
//! the model. `rbcheck merge` refuses parts whose fingerprints differ, so that parts written by
//! different builds never merge into one report (`verify/src/shard/`).
//!
//! The fingerprint is FNV-1a (64 bits) over every file's path relative to the workspace and its
//! bytes, files in sorted order: stable across machines and checkouts, changed by any edit.

use std::path::{Path, PathBuf};

/// FNV-1a, 64 bits: small, stable, no dependency.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// Every file under `dir` (recursively), sorted.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The fingerprint of `paths` (files or folders) under `root`, as 16 hex digits.
fn fingerprint(root: &Path, paths: &[&str]) -> String {
    let mut all = vec![];
    for p in paths {
        let full = root.join(p);
        // Absolute: a relative path here is read from this crate's folder, not the workspace's.
        println!("cargo:rerun-if-changed={}", full.display());
        if full.is_dir() {
            files(&full, &mut all);
        } else {
            all.push(full);
        }
    }
    all.sort();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for f in &all {
        let rel = f.strip_prefix(root).unwrap_or(f);
        fnv(&mut hash, rel.to_string_lossy().as_bytes());
        fnv(&mut hash, &[0]);
        fnv(&mut hash, &std::fs::read(f).unwrap_or_default());
        fnv(&mut hash, &[0]);
    }
    format!("{hash:016x}")
}

fn main() {
    // The workspace's root: this crate's folder is one level below it.
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.parent().map(PathBuf::from).unwrap_or(manifest);
    let code = fingerprint(
        &root,
        &[
            "model/src",
            "model/Cargo.toml",
            "properties/src",
            "properties/Cargo.toml",
            "checker/src",
            "checker/Cargo.toml",
        ],
    );
    let catalogue = fingerprint(&root, &["model/cards.toml"]);
    println!("cargo:rustc-env=RBCHECK_MODEL_FINGERPRINT={code}");
    println!("cargo:rustc-env=RBCHECK_CATALOGUE_FINGERPRINT={catalogue}");
}
