//! The case-file parser: one statement a line, errors with line, column and what was expected.
//! The grammar, with an example of every statement, is in `corpus/FORMAT.md`.

mod deck;
mod lexer;
mod runes;
mod statements;
mod turn;

use super::ast::*;
use lexer::{tokenize, Cursor, Tok};
use statements::{board, expect, play};
use std::fmt;

pub(crate) use lexer::trailing_comment;
pub(crate) use runes::part_word as rune_part_word;
pub use statements::reason_name;

/// The format version this parser reads.
pub const VERSION: u32 = 1;

/// The statements a case file may hold, as an unknown one is told.
const STATEMENTS: [&str; 35] = [
    "rules",
    "define",
    "unit",
    "gear",
    "battlefield",
    "pool",
    "hand",
    "other-cards",
    "deck",
    "deck-top",
    "portal",
    "near-victory",
    "showdown",
    "attack",
    "academy",
    "runes",
    "turn",
    "you",
    "opponent",
    "may",
    "repeat",
    "exec",
    "pay",
    "new-choices",
    "look",
    "demand",
    "optional",
    "location",
    "reduce",
    "discount",
    "discard",
    "rune",
    "close",
    "end turn",
    "expect",
];

/// A parse error: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub col: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

#[derive(PartialEq, PartialOrd, Clone, Copy, Debug)]
enum Section {
    Head,
    Defines,
    Board,
    Play,
    Expect,
}

/// Parses a case file's text.
pub fn parse(text: &str) -> Result<Case, ParseError> {
    let mut case = Case {
        version: 0,
        header: vec![],
        rules: String::new(),
        defines: vec![],
        board: vec![],
        plays: vec![],
        checkpoints: vec![],
        expects: vec![],
    };
    let mut section = Section::Head;
    let mut seen_version = false;
    let mut seen_rules = false;
    // A UTF-8 byte order mark, as some editors write, is not part of the text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if raw.contains('\u{0}') {
            return Err(ParseError {
                line: n,
                col: 1,
                message: "a NUL byte: case files are UTF-8 text".into(),
            });
        }
        let toks = tokenize(raw, n)?;
        if toks.is_empty() {
            if !seen_rules && raw.trim_start().starts_with('#') {
                case.header
                    .push(raw.trim_start().trim_start_matches('#').trim().to_string());
            }
            continue;
        }
        let mut c = Cursor {
            toks: &toks,
            pos: 0,
            line: n,
            end_col: raw.chars().count() + 1,
        };
        let head = c.word("a statement")?;
        if !seen_version {
            version_line(&mut c, &head)?;
            case.version = VERSION;
            seen_version = true;
            continue;
        }
        if !seen_rules && head != "rules" {
            return Err(ParseError {
                line: n,
                col: 1,
                message: "expected `rules NAME` right after the version line".into(),
            });
        }
        statement(&mut case, &mut section, &mut seen_rules, &mut c, &head)?;
    }
    if !seen_version {
        return Err(ParseError {
            line: 1,
            col: 1,
            message: "empty case: expected the version line `rbcheck-case 1`".into(),
        });
    }
    if !seen_rules {
        return Err(ParseError {
            line: text.lines().count().max(1),
            col: 1,
            message: "the case ends before `rules NAME`".into(),
        });
    }
    if case.plays.is_empty()
        && case
            .board
            .iter()
            .all(|b| !matches!(b.stmt, BoardStmt::Attack(_)))
    {
        return Err(ParseError {
            line: text.lines().count().max(1),
            col: 1,
            message: "the case has no play: expected a statement like `you play \"Card\"`".into(),
        });
    }
    Ok(case)
}

/// The version line, `rbcheck-case 1`, which must come first.
fn version_line(c: &mut Cursor, head: &str) -> Result<(), ParseError> {
    if head != "rbcheck-case" {
        return Err(ParseError {
            line: c.line,
            col: 1,
            message: "expected the version line `rbcheck-case 1` first".into(),
        });
    }
    let at = c.pos;
    let v = c.number("the format version")?;
    if u32::from(v) != VERSION {
        c.pos = at;
        return Err(c.err(format!(
            "format version {v} is not supported; this rbcheck reads version {VERSION}"
        )));
    }
    c.done()
}

/// One statement after the version line, in its section (defines, board, plays, expects:
/// in that order).
fn statement(
    case: &mut Case,
    section: &mut Section,
    seen_rules: &mut bool,
    c: &mut Cursor,
    head: &str,
) -> Result<(), ParseError> {
    match head {
        "rules" => rules_line(case, *section, seen_rules, c),
        "define" => {
            in_order(c, *section, Section::Defines, "`define`")?;
            *section = Section::Defines;
            match c.toks.get(c.pos).map(|t| &t.tok) {
                Some(Tok::Table(t)) => case.defines.push(Line { line: c.line, stmt: t.clone() }),
                _ => return Err(c.err(format!("expected a card as an inline TOML table `{{ name = ..., type = ... }}`, found {}", c.describe()))),
            }
            Ok(())
        }
        "unit" | "gear" | "battlefield" | "pool" | "hand" | "other-cards" | "deck" | "portal"
        | "near-victory" | "showdown" | "attack" | "deck-top" | "academy" | "runes" | "turn" => {
            board_line(case, section, c, head)
        }
        "you" | "opponent" | "may" | "repeat" | "exec" | "pay" | "new-choices" | "look"
        | "demand" | "optional" | "location" | "reduce" | "discount" | "discard" | "exhaust"
        | "kill" | "rune" | "close" | "end" => play_line(case, section, c, head),
        "expect" => {
            *section = Section::Expect;
            expect_line(case, c)
        }
        other => Err(at_line(
            c,
            format!(
                "unknown statement `{other}`{}; expected one of: {}",
                model::suggest::did_you_mean(other, STATEMENTS),
                STATEMENTS.join(", ")
            ),
        )),
    }
}

/// An error about the statement at the cursor's line as a whole.
fn at_line(c: &Cursor, message: String) -> ParseError {
    ParseError {
        line: c.line,
        col: 1,
        message,
    }
}

/// Refuses a statement of section `want` met in the later section `now`.
fn in_order(c: &Cursor, now: Section, want: Section, what: &str) -> Result<(), ParseError> {
    match now > want {
        true => Err(at_line(
            c,
            format!("{what} must come before {}", section_name(now)),
        )),
        false => Ok(()),
    }
}

/// `rules VERSION` or `rules "FILE"`, once, in the head.
fn rules_line(
    case: &mut Case,
    section: Section,
    seen_rules: &mut bool,
    c: &mut Cursor,
) -> Result<(), ParseError> {
    if *seen_rules {
        return Err(at_line(c, "a second `rules` statement".into()));
    }
    in_order(c, section, Section::Head, "`rules`")?;
    case.rules = match c.toks.get(c.pos).map(|t| &t.tok) {
        Some(Tok::Quoted(q)) => {
            c.pos += 1;
            q.clone()
        }
        _ => c.word("a rules version (v1.2, v1.3, rup4, guide) or a quoted rulebook file")?,
    };
    c.done()?;
    *seen_rules = true;
    Ok(())
}

/// A board statement `head ...`, before the plays; `turn` at most once.
fn board_line(
    case: &mut Case,
    section: &mut Section,
    c: &mut Cursor,
    head: &str,
) -> Result<(), ParseError> {
    in_order(
        c,
        *section,
        Section::Board,
        &format!("the board statement `{head}`"),
    )?;
    *section = Section::Board;
    let stmt = match head {
        "deck-top" => deck::board(c)?,
        "runes" => runes::board(c)?,
        "turn" => {
            if let Some(l) = case
                .board
                .iter()
                .find(|b| matches!(b.stmt, BoardStmt::Turn(_)))
            {
                return Err(at_line(
                    c,
                    format!("a second `turn` statement (line {} has one)", l.line),
                ));
            }
            turn::board(c)?
        }
        _ => board(head, c)?,
    };
    c.done()?;
    case.board.push(Line { line: c.line, stmt });
    Ok(())
}

/// A play statement `head ...`: after the board, nothing after `end turn`; expectations read
/// since the last play statement become checkpoints.
fn play_line(
    case: &mut Case,
    section: &mut Section,
    c: &mut Cursor,
    head: &str,
) -> Result<(), ParseError> {
    if *section == Section::Expect {
        // Expectations among the play statements are checked at that point.
        checkpoints(case)?;
    } else {
        in_order(
            c,
            *section,
            Section::Play,
            &format!("the play statement `{head}`"),
        )?;
    }
    *section = Section::Play;
    if let Some(end) = case.plays.iter().find(|p| p.stmt == PlayStmt::EndTurn) {
        return Err(at_line(
            c,
            format!(
                "nothing can be played after `end turn` (line {}): the turn is over (334.1)",
                end.line
            ),
        ));
    }
    let stmt = match head {
        "look" | "demand" => deck::play(head, c)?,
        "rune" => runes::play(c)?,
        "close" | "end" => {
            let stmt = turn::play(head, c)?;
            let ends = case
                .board
                .iter()
                .any(|b| matches!(b.stmt, BoardStmt::Turn(t) if t.end_turn));
            if stmt == PlayStmt::EndTurn && !ends {
                return Err(at_line(c, "`end turn` needs the board statement `turn plays N end-turn` (334.1): without it the case ends when the last chain closes".into()));
            }
            stmt
        }
        _ => {
            c.pos = 0;
            play(c)?
        }
    };
    c.done()?;
    case.plays.push(Line { line: c.line, stmt });
    Ok(())
}

/// An `expect` statement; `illegal play K` is resolved to the K-th play statement's line.
fn expect_line(case: &mut Case, c: &mut Cursor) -> Result<(), ParseError> {
    let mut stmt = expect(c)?;
    c.done()?;
    // `illegal play K` names the K-th play statement; the plays are all read by now.
    if let Expect::Illegal {
        line,
        play: Some(k),
        ..
    } = &mut stmt
    {
        let Some(p) = case.plays.get(*k - 1) else {
            return Err(at_line(
                c,
                format!(
                    "`expect illegal play {k}`: the case has {} play statement{}",
                    case.plays.len(),
                    if case.plays.len() == 1 { "" } else { "s" }
                ),
            ));
        };
        *line = p.line;
    }
    case.expects.push(Line { line: c.line, stmt });
    Ok(())
}

/// Turns the expectations read since the last play statement into checkpoints: a play
/// statement follows them, so they are checked at that point, not at the end. They
/// must follow a play statement, and cannot be `legal` / `illegal`, which judge the whole case.
fn checkpoints(case: &mut Case) -> Result<(), ParseError> {
    let Some(first) = case.expects.first() else {
        return Ok(());
    };
    if case.plays.is_empty() {
        return Err(ParseError {
            line: first.line,
            col: 1,
            message: "an expectation before the first play statement: expectations come after a play statement (among them, or after the last)".into(),
        });
    }
    for e in std::mem::take(&mut case.expects) {
        if matches!(e.stmt, Expect::Legal | Expect::Illegal { .. }) {
            return Err(ParseError {
                line: e.line,
                col: 1,
                message: "`expect legal` / `expect illegal` judge the whole case: write them after the last play statement".into(),
            });
        }
        case.checkpoints.push(Checkpoint {
            after: case.plays.len(),
            expect: e,
        });
    }
    Ok(())
}

fn section_name(s: Section) -> &'static str {
    match s {
        Section::Head => "the head",
        Section::Defines => "the defines",
        Section::Board => "the board",
        Section::Play => "the plays",
        Section::Expect => "the expectations",
    }
}
