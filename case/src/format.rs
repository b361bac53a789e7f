//! `rbcheck fmt`: a case file in canonical form with its meaning and its comments kept. Every
//! statement is printed canonically, in the canonical layout; each comment stays with the
//! statement it stands above or beside; and `expect illegal line N` is renumbered to the line
//! its statement moves to, so a case's verdict is the same before and after (a property test
//! replays both on the corpus and on mutants of it).

use super::ast::{Case, Expect};
use super::parse::{parse, trailing_comment, ParseError};
use super::print::{print_with, Comments};

/// Why a file cannot be formatted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// It is not a valid case file.
    Parse(ParseError),
    /// An `expect illegal line N` names no play statement: renumbering could make it name one.
    IllegalLine {
        /// The expectation's line.
        line: usize,
        /// The line it names.
        names: usize,
    },
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Parse(e) => write!(f, "{}:{}: {}", e.line, e.col, e.message),
            FormatError::IllegalLine { line, names } => write!(
                f,
                "{line}:1: `expect illegal line {names}`: line {names} is not a play statement, \
                 so fmt cannot keep what it names (fix the line number first)"
            ),
        }
    }
}

/// The canonical form of the case file `text`, its comments kept.
pub fn format(text: &str) -> Result<String, FormatError> {
    let case = parse(text).map_err(FormatError::Parse)?;
    for e in &case.expects {
        if let Expect::Illegal { line, .. } = e.stmt {
            if !case.plays.iter().any(|p| p.line == line) {
                return Err(FormatError::IllegalLine {
                    line: e.line,
                    names: line,
                });
            }
        }
    }
    Ok(print_with(&case, &comments(text, &case)))
}

/// The comments of `text` that `case` does not hold, each keyed by its statement's line.
fn comments(text: &str, case: &Case) -> Comments {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut c = Comments::default();
    let mut pending: Vec<String> = vec![];
    // The version line is the first statement, `rules` the second; comment lines before
    // `rules` are the header, which the case holds.
    let mut statements = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            if statements >= 2 {
                pending.push(t.to_string());
            }
            continue;
        }
        statements += 1;
        let trailing = trailing_comment(raw).map(str::to_string);
        match statements {
            1 => c.version = trailing,
            2 => c.rules = trailing,
            _ => {
                if !pending.is_empty() {
                    c.before.insert(n, std::mem::take(&mut pending));
                }
                if let Some(t) = trailing {
                    c.trailing.insert(n, t);
                }
            }
        }
    }
    c.tail = pending;
    debug_assert!(statements >= 2 || case.rules.is_empty());
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE: &str = "rbcheck-case 1 # v\n# About it.\nrules   rup4 # r\n# the board\nunit A \"Practice Dummy\" opponent battlefield 1 # A dummy\n\n\npool you [6][Y][Y]\nhand you \"Hidden Blade\"\n# the play\nyou play \"Hidden Blade\"\nexec 1 target 1 A\nexec 1 target 1 A # twice: illegal\npay\nexpect illegal line 13\n# the end\n";

    #[test]
    fn comments_stay_and_illegal_lines_follow_their_statement() {
        let out = format(CASE).unwrap();
        assert_eq!(
            out,
            "rbcheck-case 1 # v\n# About it.\nrules rup4 # r\n\n# the board\nunit A \"Practice Dummy\" opponent battlefield 1 # A dummy\npool you [6][Y][Y]\nhand you \"Hidden Blade\"\n\n# the play\nyou play \"Hidden Blade\"\nexec 1 target 1 A\nexec 1 target 1 A # twice: illegal\npay\n\nexpect illegal line 13\n# the end\n"
        );
        assert_eq!(format(&out).unwrap(), out, "fmt is idempotent");
        let moved = CASE
            .replace("\n\n\n", "\n\n\n\n\n")
            .replace("line 13", "line 15");
        let out2 = format(&moved).unwrap();
        assert_eq!(out2, out, "the illegal line follows its statement");
    }

    #[test]
    fn an_illegal_line_naming_no_play_is_refused() {
        let e = format(&CASE.replace("line 13", "line 4")).unwrap_err();
        assert!(
            e.to_string().starts_with("15:1: `expect illegal line 4`"),
            "{e}"
        );
    }
}
