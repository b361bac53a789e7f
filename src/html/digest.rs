//! The rule texts the HTML reports quote: the rules digest (`corpus/digest.md`)
//! embedded at build time, split into paragraphs, and a look-up from
//! a rule number as the model cites it (`"355.1.a, 820.1.c.2–3"`) to the paragraph that states
//! it. The digest is a paraphrase, not the Core Rules: the report says so beside every quote.

/// The digest, as copied into the repository.
pub const DIGEST: &str = include_str!("../../corpus/digest.md");

/// Where the digest came from, as the report names it.
pub const SOURCE: &str = "the rules digest (corpus/digest.md)";

/// The longest quote, in characters: a paragraph past it is cut with `…`.
const MAX_QUOTE: usize = 700;

/// How a clause was found in the digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Match {
    /// The paragraph states the clause (it starts with its number, or is a step headed by it).
    States,
    /// The paragraph mentions the clause.
    Mentions,
    /// Only a sub-clause, a range holding it, or the parent clause is in the digest.
    Nearest,
}

/// One clause's text from the digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleText {
    /// The clause as cited.
    pub clause: String,
    /// What the digest holds for it, when not the clause itself (`820.1.c.2–3` for `820.1.c.3`).
    pub via: Option<String>,
    /// How it was found.
    pub how: Match,
    /// The digest's section heading above the paragraph.
    pub section: String,
    /// The paragraph, markdown emphasis removed.
    pub text: String,
    /// The paragraph's first line in `corpus/digest.md` (1-based).
    pub line: usize,
}

/// A paragraph of the digest: a bullet, a numbered item, a table row or a plain paragraph.
struct Para {
    line: usize,
    section: String,
    text: String,
}

/// Whether a line starts a new paragraph: a bullet, a numbered item, or a bold heading at the
/// margin (an indented line in bold goes on its paragraph).
fn starts_block(raw: &str) -> bool {
    let t = raw.trim();
    let numbered = t
        .split_once(". ")
        .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    t.starts_with("* ") || t.starts_with("- ") || raw.starts_with("**") || numbered
}

fn paragraphs() -> Vec<Para> {
    let mut out: Vec<Para> = vec![];
    let mut section = String::new();
    let mut open = false;
    // The header cells of the table being read: a row is quoted as `header: cell` pairs.
    let mut header: Option<Vec<String>> = None;
    for (i, raw) in DIGEST.lines().enumerate() {
        let t = raw.trim();
        if t.is_empty() || t.starts_with("<!--") || t.chars().all(|c| c == '-') {
            open = false;
            continue;
        }
        if let Some(h) = t.strip_prefix('#') {
            section = h.trim_start_matches('#').trim().to_string();
            open = false;
            continue;
        }
        let table = t.starts_with('|');
        if !table {
            header = None;
        } else if t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ')) {
            continue;
        }
        if table {
            let cells: Vec<String> = t
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect();
            let Some(head) = &header else {
                header = Some(cells);
                continue;
            };
            let pairs: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(k, c)| match head.get(k).filter(|_| k > 0) {
                    Some(h) => format!("{h}: {c}"),
                    None => c.clone(),
                })
                .collect();
            out.push(Para {
                line: i + 1,
                section: section.clone(),
                text: format!("| {}", pairs.join(" · ")),
            });
            open = false;
            continue;
        }
        if open && !starts_block(raw) {
            let last = out.last_mut().expect("an open paragraph exists");
            last.text.push(' ');
            last.text.push_str(t);
            continue;
        }
        out.push(Para {
            line: i + 1,
            section: section.clone(),
            text: t.to_string(),
        });
        open = true;
    }
    out
}

/// The clause numbers of a citation: `"355.1.a, 820.1.c.2–3"` gives `355.1.a`, `820.1.c.2`,
/// `820.1.c.3`; `"750-755"` gives `750`, `755`; a source without a number (`"Spiritforged FAQ
/// (Temporal Portal)"`) is kept as written.
pub fn clauses(citation: &str) -> Vec<String> {
    let mut out = vec![];
    for part in citation.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let range = part
            .split_once(['–', '-'])
            .filter(|_| part.starts_with(|c: char| c.is_ascii_digit()));
        let Some((a, b)) = range else {
            out.push(part.to_string());
            continue;
        };
        let (a, b) = (a.trim(), b.trim());
        out.push(a.to_string());
        // `820.1.c.2–3`: an end without a dot replaces the last part of the start.
        match a.rsplit_once('.') {
            Some((stem, _)) if !b.contains('.') => out.push(format!("{stem}.{b}")),
            _ => out.push(b.to_string()),
        }
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

/// The byte offsets where `clause` occurs in `text` as a whole rule number (not inside
/// `1355.1` nor as the start of `355.1.a`).
fn occurrences(text: &str, clause: &str) -> Vec<usize> {
    let mut out = vec![];
    let mut from = 0;
    while let Some(k) = text[from..].find(clause) {
        let at = from + k;
        let end = at + clause.len();
        let before = text[..at].chars().next_back();
        let after: Vec<char> = text[end..].chars().take(2).collect();
        let starts_ok = !before.is_some_and(|c| is_word(c) || c == '.');
        let ends_ok = match after.as_slice() {
            [] => true,
            [c, ..] if is_word(*c) => false,
            ['.', c, ..] if is_word(*c) => false,
            _ => true,
        };
        if starts_ok && ends_ok {
            out.push(at);
        }
        from = end;
    }
    out
}

/// The paragraph with the markdown emphasis removed, cut at [`MAX_QUOTE`] characters.
fn plain(text: &str) -> String {
    let t = text.replace("**", "").replace('`', "");
    let t = t.trim_start_matches(['*', '-', ' ', '|']).to_string();
    if t.chars().count() <= MAX_QUOTE {
        return t;
    }
    let cut: String = t.chars().take(MAX_QUOTE).collect();
    format!("{cut}…")
}

/// How well a paragraph states `clause`: 3 if it starts with it, 2 if it is headed by it in
/// brackets (`Step 1 — Move the card to the Chain (354).`), 1 if it mentions it; table rows
/// count one less (they compare versions rather than state a rule).
fn score(p: &Para, clause: &str) -> Option<u8> {
    let hits = occurrences(&p.text, clause);
    let first = *hits.first()?;
    let lead = p.text[..first].trim_start_matches(['*', '-', ' ', '|']);
    let numbered_lead = lead
        .trim_end_matches(". ")
        .chars()
        .all(|c| c.is_ascii_digit());
    let base = if lead.is_empty() || numbered_lead {
        3
    } else if hits
        .iter()
        .any(|&h| p.text[..h].ends_with('(') && p.text[h + clause.len()..].starts_with(')'))
    {
        2
    } else {
        1
    };
    Some(if p.text.starts_with('|') {
        base - 1
    } else {
        base
    })
}

/// Whether a range such as `820.1.c.2–3` holds `clause` (`820.1.c.3`): the same stem, and the
/// last part between the ends (numbers by value, letters in order).
fn range_covers(range: &str, clause: &str) -> bool {
    if !range.contains('–') {
        return false;
    }
    let ends = clauses(range);
    let [a, b] = ends.as_slice() else {
        return false;
    };
    let last = |c: &str| -> Option<(String, String)> {
        c.rsplit_once('.')
            .map(|(stem, l)| (stem.to_string(), l.to_string()))
    };
    let (Some((sa, la)), Some((sb, lb)), Some((sc, lc))) = (last(a), last(b), last(clause)) else {
        return false;
    };
    if sa != sc || sb != sc {
        return false;
    }
    match (la.parse::<u32>(), lb.parse::<u32>(), lc.parse::<u32>()) {
        (Ok(x), Ok(y), Ok(z)) => x <= z && z <= y,
        _ => la.len() == 1 && lb.len() == 1 && lc.len() == 1 && la <= lc && lc <= lb,
    }
}

/// The token of the digest that starts at `at`: a rule number with its range (`820.1.c.2–3`).
fn token_at(text: &str, at: usize) -> String {
    text[at..]
        .chars()
        .take_while(|c| is_word(*c) || matches!(c, '.' | '–'))
        .collect::<String>()
        .trim_end_matches('.')
        .to_string()
}

/// The digest's text for one clause: the paragraph that states it best; failing that, one that
/// holds a sub-clause or a range of it, or its parent clause's (labelled as such); `None` if
/// nothing in the digest is near.
pub fn lookup(clause: &str) -> Option<RuleText> {
    let paras = paragraphs();
    let numbered = clause.starts_with(|c: char| c.is_ascii_digit());
    if !numbered {
        // `Spiritforged FAQ (Temporal Portal)`: a paragraph naming both.
        let lower = clause.to_lowercase();
        let pieces: Vec<&str> = lower
            .split(['(', ')'])
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        let p = paras.iter().find(|p| {
            let t = p.text.to_lowercase();
            pieces.iter().all(|x| t.contains(x))
        })?;
        return Some(found(clause, None, Match::Mentions, p));
    }
    let best = paras
        .iter()
        .filter_map(|p| score(p, clause).map(|s| (s, p)))
        .max_by_key(|(s, p)| (*s, std::cmp::Reverse(p.line)));
    if let Some((s, p)) = best {
        let how = if s >= 2 {
            Match::States
        } else {
            Match::Mentions
        };
        return Some(found(clause, None, how, p));
    }
    // A range that holds it (`820.1.c.2–3` for `820.1.c.3`).
    if let Some((parent, _)) = clause.rsplit_once('.') {
        let prefix = format!("{parent}.");
        for p in &paras {
            for (at, _) in p.text.match_indices(&prefix) {
                let token = token_at(&p.text, at);
                if range_covers(&token, clause) {
                    return Some(found(clause, Some(token), Match::Nearest, p));
                }
            }
        }
    }
    // A sub-clause (`416.3` for `416`), or the parent clause's text.
    let mut stem = clause.to_string();
    loop {
        let prefix = format!("{stem}.");
        for p in &paras {
            if let Some(at) = p.text.find(&prefix).filter(|&at| {
                !p.text[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| is_word(c) || c == '.')
            }) {
                let via = token_at(&p.text, at);
                return Some(found(clause, Some(via), Match::Nearest, p));
            }
        }
        let (parent, _) = stem.rsplit_once('.')?;
        if let Some((_, p)) = paras
            .iter()
            .filter_map(|p| score(p, parent).map(|s| (s, p)))
            .max_by_key(|(s, p)| (*s, std::cmp::Reverse(p.line)))
        {
            return Some(found(clause, Some(parent.to_string()), Match::Nearest, p));
        }
        stem = parent.to_string();
    }
}

fn found(clause: &str, via: Option<String>, how: Match, p: &Para) -> RuleText {
    RuleText {
        clause: clause.to_string(),
        via,
        how,
        section: p.section.clone(),
        text: plain(&p.text),
        line: p.line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_split_into_clauses_and_ranges() {
        assert_eq!(
            clauses("355.1.a, 820.1.c.2–3"),
            ["355.1.a", "820.1.c.2", "820.1.c.3"]
        );
        assert_eq!(clauses("750-755"), ["750", "755"]);
        assert_eq!(clauses("751–753"), ["751", "753"]);
        assert_eq!(
            clauses("356.4, Spiritforged FAQ (Temporal Portal)"),
            ["356.4", "Spiritforged FAQ (Temporal Portal)"]
        );
    }

    #[test]
    fn a_clause_is_found_where_the_digest_states_it() {
        let t = lookup("355.3").unwrap();
        assert_eq!(t.how, Match::States);
        assert!(t.text.starts_with("355.3: modes"), "{}", t.text);
        let step = lookup("354").unwrap();
        assert!(
            step.text.contains("Move the card to the Chain"),
            "{}",
            step.text
        );
        // Not the 1355 of some other number, nor 355.1.a for 355.1.
        assert_eq!(occurrences("a 1355.1 b 355.1.a c (355.1).", "355.1"), [22]);
    }

    #[test]
    fn every_clause_the_model_and_the_properties_cite_has_a_text() {
        let props = properties::invariants::all();
        let cited = model::coverage::CLAUSES
            .iter()
            .map(|(c, _)| c.to_string())
            .chain(props.iter().flat_map(|p| clauses(p.rule)));
        let mut missing = vec![];
        for c in cited {
            match lookup(&c) {
                Some(t) => assert!(t.text.len() > 30, "{c}: {t:?}"),
                None => missing.push(c),
            }
        }
        // Combat's clauses come from the Core Rules, which the digest does not cover;
        // the report says "not in the digest" for them.
        assert_eq!(
            missing,
            ["807.2", "423.1", "415.1", "417.6.b.3", "423.1.a.1"],
            "update this list if the digest changed"
        );
    }

    #[test]
    fn a_clause_missing_from_the_digest_is_labelled_nearest() {
        let t = lookup("820.1.c.3").unwrap();
        assert_eq!(t.how, Match::Nearest);
        assert_eq!(t.via.as_deref(), Some("820.1.c.2–3"));
        assert!(lookup("999.9").is_none());
    }
}
