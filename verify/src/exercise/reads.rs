//! Which rulebook fields each scenario of the pool reads under a rulebook, kept on disk between
//! runs.
//!
//! The model is deterministic and reads every field through `Rules`: a scenario none of whose
//! reachable states reads any field an edit changes plays, step for step, exactly as under the
//! rulebook the edit starts from, so no field of the edit can decide a step in it. Knowing the
//! fields each scenario reads under a base, `--bound auto` searches only the scenarios that
//! read a changed field. Finding them is one search of the whole pool under the base (as long
//! as one `--bound auto` pass); it is written to the cache folder, keyed by the executable and
//! the base rulebook, so later edits of the same base skip it.
//!
//! The cache folder is `$RBCHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/rbcheck`, else
//! `~/.cache/rbcheck`; `RBCHECK_CACHE=off` turns it off. A file that does not parse or belongs
//! to another executable or rulebook is ignored and rewritten; a cache that cannot be written
//! costs only the time. Runs that need the same file at once search once: the first holds a
//! lock beside it (`reads-KEY.lock`) while it searches, and the others wait, then read it.

use super::Effort;
use crate::error::Error;
use model::card::CardDef;
use model::game::Game;
use model::rulebook::{reading, Rulebook, Version};
use model::setup::Setup;
use properties::bound::pool::Pool;
use properties::exercise::read_probes;
use properties::RepeatSystem;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first line of a cache file: its kind and version.
const FORMAT: &str = "rbcheck-reads/1";

/// The fields (as `model::rulebook::reading` bits) each scenario of the pool reads under one
/// rulebook, at its start or in any state reachable from it.
#[derive(Debug, PartialEq, Eq)]
pub struct Reads {
    /// The pool's cards, hashed: a setup names cards by their index in this list.
    cards: u64,
    /// By the scenario's setup (hashed); two setups with one hash share the union of their
    /// fields, which only widens what is searched.
    masks: HashMap<u64, u64>,
}

impl Reads {
    /// The fields `setup` reads: every field for a setup not in the pool, which is searched
    /// as if it read them all.
    pub fn of(&self, setup: &Setup) -> u64 {
        self.masks
            .get(&setup_key(setup))
            .copied()
            .unwrap_or(u64::MAX)
    }

    /// Whether these are reads over `game`'s cards: over another card list the same setup
    /// names other cards, and nothing here applies.
    pub fn fits(&self, game: &Game) -> bool {
        self.cards == cards_key(&game.cards)
    }

    /// The reads of every scenario of the pool under `a` or under `b`: either serves to skip
    /// the scenarios that read none of the fields in which they differ (such a scenario reads
    /// none under the other either, since both play it alike). A cached one if there is one;
    /// else one search of the pool, under whichever is a rules version (the base that edits
    /// come back to), else under `b`, then cached. `None` when that search stopped before its
    /// end (the memory budget): what it did not search may read anything.
    pub fn of_pool(a: &Rulebook, b: &Rulebook, effort: Effort) -> Result<Option<Reads>, Error> {
        Reads::of_pool_in(cache_dir(), a, b, effort)
    }

    /// The reads of every scenario of the pool under `a` or under `b` if the cache holds them;
    /// for a search that can end early without them, where computing them could cost more
    /// than it saves.
    pub fn cached(a: &Rulebook, b: &Rulebook) -> Option<Reads> {
        let dir = cache_dir()?;
        [a, b]
            .iter()
            .filter_map(|r| cache_file(&dir, r))
            .find_map(|(path, key)| load(&path, key))
    }

    /// [`Reads::of_pool`] with the cache in `dir` (`None`: no cache).
    pub fn of_pool_in(
        dir: Option<PathBuf>,
        a: &Rulebook,
        b: &Rulebook,
        effort: Effort,
    ) -> Result<Option<Reads>, Error> {
        let files = [a, b].map(|r| dir.as_deref().and_then(|d| cache_file(d, r)));
        let cached = files
            .iter()
            .flatten()
            .find_map(|(path, key)| load(path, *key));
        if cached.is_some() {
            return Ok(cached);
        }
        let is_version = |r: &Rulebook| {
            Version::ALL
                .iter()
                .any(|v| r.differing_fields(&Rulebook::preset(*v)).is_empty())
        };
        let (base, file) = match is_version(a) && !is_version(b) {
            true => (a, &files[0]),
            false => (b, &files[1]),
        };
        // Runs started together (a build's parallel checks, a test suite) search once: the
        // others wait on the lock, then read what the first wrote.
        let _lock = file.as_ref().and_then(|(path, _)| lock(path));
        if let Some(reads) = file.as_ref().and_then(|(path, key)| load(path, *key)) {
            return Ok(Some(reads));
        }
        let Some(reads) = search(base, effort)? else {
            return Ok(None);
        };
        if let Some((path, key)) = file {
            // A cache that cannot be written costs the next run this search, nothing more.
            let _ = store(path, *key, &reads);
        }
        Ok(Some(reads))
    }
}

/// An exclusive lock beside the cache file `path`, held until dropped; `None` when it cannot be
/// had (no folder, a file system without locks): the search then runs unguarded.
fn lock(path: &Path) -> Option<std::fs::File> {
    std::fs::create_dir_all(path.parent()?).ok()?;
    let f = std::fs::File::create(path.with_extension("lock")).ok()?;
    f.lock().ok()?;
    Some(f)
}

fn cards_key(cards: &[CardDef]) -> u64 {
    let mut h = DefaultHasher::new();
    cards.hash(&mut h);
    h.finish()
}

fn setup_key(setup: &Setup) -> u64 {
    let mut h = DefaultHasher::new();
    setup.hash(&mut h);
    h.finish()
}

/// Searches the pool under `base` for the fields each scenario reads.
fn search(base: &Rulebook, effort: Effort) -> Result<Option<Reads>, Error> {
    let pool = Pool::new(base).map_err(Error::scenario)?;
    let probes = read_probes(base, &pool.game.cards);
    let bits: Vec<u64> = probes.iter().map(|p| p.mask).collect();
    let system = RepeatSystem::from_parts(pool.game.clone(), pool.playable.clone())
        .with_probes(probes)
        .probes_only();
    let result = effort.run(&system)?;
    if super::stopped(&result).is_some() {
        return Ok(None);
    }
    let mut masks: HashMap<u64, u64> = HashMap::new();
    let game = &pool.game;
    for sc in pool.playable.iter().chain(&pool.unplayable) {
        // The start: the state it makes and the actions listed there.
        let ((), read) = reading(|| {
            if let Ok(s) = game.initial_state(&sc.setup) {
                game.actions(&s, &mut vec![]);
            }
        });
        *masks.entry(setup_key(&sc.setup)).or_default() |= read;
    }
    for (k, found) in result.found_in.iter().enumerate() {
        for f in found {
            let setup = &pool.playable[f.init].setup;
            *masks.entry(setup_key(setup)).or_default() |= bits[k];
        }
    }
    Ok(Some(Reads {
        cards: cards_key(&pool.game.cards),
        masks,
    }))
}

/// The cache folder the environment names (module doc); `None` when the cache is off or there
/// is nowhere to put it.
fn cache_dir() -> Option<PathBuf> {
    if std::env::var_os("RBCHECK_CACHE").is_some_and(|v| v == "off") {
        return None;
    }
    let dir = match std::env::var_os("RBCHECK_CACHE_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => match std::env::var_os("XDG_CACHE_HOME") {
            Some(d) if !d.is_empty() => PathBuf::from(d).join("rbcheck"),
            _ => PathBuf::from(std::env::var_os("HOME")?).join(".cache/rbcheck"),
        },
    };
    Some(dir)
}

/// The cache file in `dir` for `base` and its key (the executable and the rulebook's fields
/// hashed together); `None` if the executable cannot be read.
fn cache_file(dir: &Path, base: &Rulebook) -> Option<(PathBuf, u64)> {
    let mut h = DefaultHasher::new();
    exe_hash()?.hash(&mut h);
    // The fields only: an edit that sets every field as its base reads what the base reads.
    let mut fields = base.clone();
    fields.name.clear();
    toml::to_string(&fields).ok()?.hash(&mut h);
    let key = h.finish();
    Some((dir.join(format!("reads-{key:016x}.txt")), key))
}

/// The executable's bytes hashed, once per process. It holds the model, the cards and the
/// presets: another build may read other fields anywhere.
fn exe_hash() -> Option<u64> {
    static HASH: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *HASH.get_or_init(|| {
        let exe = std::fs::read(std::env::current_exe().ok()?).ok()?;
        let mut h = DefaultHasher::new();
        exe.hash(&mut h);
        Some(h.finish())
    })
}

fn load(path: &Path, key: u64) -> Option<Reads> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    if lines.next()? != FORMAT || lines.next()? != format!("key {key:016x}") {
        return None;
    }
    let cards = u64::from_str_radix(lines.next()?.strip_prefix("cards ")?, 16).ok()?;
    let mut masks = HashMap::new();
    for line in lines {
        let (s, m) = line.split_once(' ')?;
        let s = u64::from_str_radix(s, 16).ok()?;
        let m = u64::from_str_radix(m, 16).ok()?;
        masks.insert(s, m);
    }
    Some(Reads { cards, masks })
}

/// Writes the cache file whole or not at all (a temporary file renamed over it), so that two
/// runs writing at once leave one of their identical files.
fn store(path: &Path, key: u64, reads: &Reads) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(path);
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".reads-{}-{key:016x}.tmp", std::process::id()));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
    writeln!(out, "{FORMAT}\nkey {key:016x}\ncards {:016x}", reads.cards)?;
    let mut masks: Vec<_> = reads.masks.iter().collect();
    masks.sort();
    for (s, m) in masks {
        writeln!(out, "{s:016x} {m:x}")?;
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Reads {
        Reads {
            cards: 3,
            masks: HashMap::from([(1, 0b101), (0xffff_0000_0000_0001, 1 << 40)]),
        }
    }

    #[test]
    fn a_stored_file_loads_back_under_its_key_only() {
        let dir = std::env::temp_dir().join(format!("rbcheck-reads-{}", std::process::id()));
        let path = dir.join("reads-test.txt");
        store(&path, 7, &sample()).unwrap();
        assert_eq!(load(&path, 7), Some(sample()));
        assert_eq!(load(&path, 8), None, "another executable or rulebook");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_file_is_ignored() {
        let dir = std::env::temp_dir().join(format!("rbcheck-reads-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("reads-test.txt");
        for text in [
            "",
            "rbcheck-reads/1\n",
            "rbcheck-reads/2\nkey 0000000000000007\n",
            "rbcheck-reads/1\nkey 0000000000000007\n",
            "rbcheck-reads/1\nkey 0000000000000007\ncards x\n",
            "rbcheck-reads/1\nkey 0000000000000007\ncards 3\n1 zz\n",
            "rbcheck-reads/1\nkey 0000000000000007\ncards 3\n1\n",
            "rbcheck-reads/1\nkey 0000000000000007\ncards 3\n10000000000000000000 1\n",
        ] {
            std::fs::write(&path, text).unwrap();
            assert_eq!(load(&path, 7), None, "{text:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_setup_outside_the_pool_reads_every_field() {
        assert_eq!(sample().of(&Setup::default()), u64::MAX);
    }
}
