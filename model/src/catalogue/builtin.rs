//! The catalogue shipped in `model/cards.toml`, compiled in: parsed and checked once per
//! process, with case `define`s added to it (each set converted once).

use super::{convert, Catalogue, CatalogueError, RawCard, RawFile, BUILTIN, BUILTIN_FILE};
use crate::card::CardDef;

impl Catalogue {
    /// The shipped catalogue with extra cards (one TOML table each) added; an extra card with a
    /// catalogue card's name replaces it, so a rules person can try an edited card.
    pub fn builtin_with(extra: &[toml::Table], file: &str) -> Result<Catalogue, CatalogueError> {
        if extra.is_empty() {
            return Ok(Catalogue::builtin());
        }
        // The same few defines come back in case after case (a fuzz run, a suite's replay):
        // each set is converted and checked once per process.
        type Built = std::collections::HashMap<String, Catalogue>;
        static BUILT: std::sync::Mutex<Option<Built>> = std::sync::Mutex::new(None);
        let key: String = extra.iter().map(|t| format!("{t}\n---\n")).collect();
        if let Some(c) = BUILT
            .lock()
            .ok()
            .and_then(|m| m.as_ref().and_then(|m| m.get(&key).cloned()))
        {
            return Ok(c);
        }
        let c = Catalogue::convert_with(extra, file)?;
        if let Ok(mut m) = BUILT.lock() {
            let m = m.get_or_insert_with(Built::new);
            // A bound on memory, not a policy: past it, start again.
            if m.len() >= 512 {
                m.clear();
            }
            m.insert(key, c.clone());
        }
        Ok(c)
    }

    /// [`Catalogue::builtin_with`] without its memory.
    fn convert_with(extra: &[toml::Table], file: &str) -> Result<Catalogue, CatalogueError> {
        // The shipped text parsed once per process: a fuzz run builds the cards of every case.
        static DOC: std::sync::OnceLock<Result<toml::Table, String>> = std::sync::OnceLock::new();
        let mut doc = DOC
            .get_or_init(|| toml::from_str(BUILTIN).map_err(|e| e.message().to_string()))
            .clone()
            .map_err(|message| CatalogueError {
                file: BUILTIN_FILE.into(),
                line: 1,
                message,
            })?;
        let cards = doc
            .entry("card")
            .or_insert_with(|| toml::Value::Array(vec![]));
        let toml::Value::Array(list) = cards else {
            unreachable!("the shipped catalogue has a card array")
        };
        for t in extra {
            let name = t
                .get("name")
                .and_then(|n| n.as_str())
                .map(str::to_ascii_lowercase);
            list.retain(|c| {
                c.get("name")
                    .and_then(|n| n.as_str())
                    .map(str::to_ascii_lowercase)
                    != name
                    || name.is_none()
            });
            list.push(toml::Value::Table(t.clone()));
        }
        let raw: RawFile = doc
            .try_into()
            .map_err(|e: toml::de::Error| CatalogueError {
                file: file.to_string(),
                line: 0,
                message: e.message().trim().to_string(),
            })?;
        let names: Vec<String> = raw.card.iter().map(|c| c.name.clone()).collect();
        let mut out = Vec::with_capacity(raw.card.len());
        for rc in &raw.card {
            out.push(convert(rc, &names).map_err(|m| CatalogueError {
                file: file.to_string(),
                line: 0,
                message: format!("card `{}`: {m}{}", rc.name, replaces(&rc.name)),
            })?);
        }
        Ok(Catalogue { cards: out })
    }

    /// Checks one card given as a TOML table (a case file's `define`), without the rest; `also`
    /// names the other cards defined beside it, which its abilities may trigger.
    pub fn check_table(t: &toml::Table, also: &[String]) -> Result<(), String> {
        let rc: RawCard = t
            .clone()
            .try_into()
            .map_err(|e: toml::de::Error| e.message().trim().to_string())?;
        let mut names = Catalogue::builtin_names().to_vec();
        names.push(rc.name.clone());
        names.extend(also.iter().cloned());
        convert(&rc, &names)
            .map(|_| ())
            .map_err(|m| format!("card `{}`: {m}{}", rc.name, replaces(&rc.name)))
    }

    /// The shipped card a card of this name replaces, if any.
    fn shipped(name: &str) -> Option<CardDef> {
        Catalogue::builtin()
            .cards
            .into_iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The names of the shipped catalogue's cards, in file order.
    fn builtin_names() -> &'static [String] {
        static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        NAMES.get_or_init(|| {
            Catalogue::builtin()
                .cards
                .into_iter()
                .map(|c| c.name)
                .collect()
        })
    }

    /// The catalogue shipped in `model/cards.toml`, compiled in.
    pub fn builtin() -> Catalogue {
        // Parsed and checked once per process; the fuzzer and replay ask for it for every case.
        static BUILT: std::sync::OnceLock<Catalogue> = std::sync::OnceLock::new();
        BUILT
            .get_or_init(|| {
                Catalogue::from_toml(BUILTIN, BUILTIN_FILE)
                    .expect("the shipped catalogue is valid (a test guards it)")
            })
            .clone()
    }
}

/// What a refused extra card with a shipped card's name should know: that card is built in, and
/// a card under its name replaces it whole (a case that only plays it needs no `define`).
fn replaces(name: &str) -> String {
    match Catalogue::shipped(name) {
        Some(c) => format!(
            " (`{}` is built in{}: a case plays it as the catalogue has it without a `define`; a \
             `define` under its name replaces it whole, so it must be a whole card, `printed` \
             included when it carries a set `code`)",
            c.name,
            if c.code.is_empty() {
                String::new()
            } else {
                format!(", {}", c.code)
            }
        ),
        None => String::new(),
    }
}
