//! The case file's tokens (words, quoted names, costs, inline TOML tables) and a cursor over
//! one line's tokens that reports what it expected where.

use super::ParseError;
use crate::ast::ObjRef;
use model::cost::Cost;
use model::state::{Location, Player, Zone};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Word(String),
    Quoted(String),
    Cost(String),
    Table(String),
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) col: usize,
}

pub(super) fn tokenize(line: &str, n: usize) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    let err = |col: usize, message: String| ParseError {
        line: n,
        col: col + 1,
        message,
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '#' {
            break;
        } else if c == '"' {
            let start = i;
            let mut s = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => {
                        return Err(err(
                            start,
                            "unterminated string: expected a closing `\"`".into(),
                        ))
                    }
                    Some('"') => break,
                    Some('\\') if matches!(chars.get(i + 1), Some('"') | Some('\\')) => {
                        s.push(chars[i + 1]);
                        i += 2;
                    }
                    Some(ch) => {
                        s.push(*ch);
                        i += 1;
                    }
                }
            }
            i += 1;
            out.push(Token {
                tok: Tok::Quoted(s),
                col: start + 1,
            });
        } else if c == '{' {
            // An inline TOML table runs to the end of the line (comments are TOML's business).
            let s: String = chars[i..].iter().collect();
            out.push(Token {
                tok: Tok::Table(s.trim_end().to_string()),
                col: i + 1,
            });
            break;
        } else if c == '[' {
            let start = i;
            let mut s = String::new();
            while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '#' {
                s.push(chars[i]);
                i += 1;
            }
            out.push(Token {
                tok: Tok::Cost(s),
                col: start + 1,
            });
        } else {
            let start = i;
            let mut s = String::new();
            while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '#' && chars[i] != '"'
            {
                s.push(chars[i]);
                i += 1;
            }
            out.push(Token {
                tok: Tok::Word(s),
                col: start + 1,
            });
        }
    }
    Ok(out)
}

/// The comment at the end of a statement line (from its `#`), if any: the `#` that
/// [`tokenize`] stops at, outside quotes. A `{...}` table keeps its comments (they are TOML's).
pub(crate) fn trailing_comment(line: &str) -> Option<&str> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if quoted {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => quoted = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            '{' => return None,
            '#' => return Some(line[i..].trim_end()),
            _ => {}
        }
    }
    None
}

pub(super) struct Cursor<'a> {
    pub(super) toks: &'a [Token],
    pub(super) pos: usize,
    pub(super) line: usize,
    pub(super) end_col: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn err(&self, message: impl Into<String>) -> ParseError {
        let col = self
            .toks
            .get(self.pos)
            .map(|t| t.col)
            .unwrap_or(self.end_col);
        ParseError {
            line: self.line,
            col,
            message: message.into(),
        }
    }

    pub(super) fn describe(&self) -> String {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            None => "the end of the line".into(),
            Some(Tok::Word(w)) => format!("`{w}`"),
            Some(Tok::Quoted(q)) => format!("\"{q}\""),
            Some(Tok::Cost(c)) => format!("`{c}`"),
            Some(Tok::Table(_)) => "a `{...}` table".into(),
        }
    }

    pub(super) fn word(&mut self, expected: &str) -> Result<String, ParseError> {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Word(w)) => {
                self.pos += 1;
                Ok(w.clone())
            }
            _ => Err(self.err(format!("expected {expected}, found {}", self.describe()))),
        }
    }

    pub(super) fn keyword(&mut self, kw: &str) -> Result<(), ParseError> {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Word(w)) if w == kw => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.err(format!("expected `{kw}`, found {}", self.describe()))),
        }
    }

    pub(super) fn peek_word(&self) -> Option<&str> {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Word(w)) => Some(w),
            _ => None,
        }
    }

    pub(super) fn quoted(&mut self, expected: &str) -> Result<String, ParseError> {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Quoted(q)) => {
                self.pos += 1;
                Ok(q.clone())
            }
            _ => Err(self.err(format!(
                "expected {expected} in double quotes, found {}",
                self.describe()
            ))),
        }
    }

    pub(super) fn number(&mut self, expected: &str) -> Result<u8, ParseError> {
        let at = self.pos;
        let w = self.word(expected)?;
        w.parse::<u8>().map_err(|_| {
            self.pos = at;
            if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
                self.err(format!(
                    "{expected} `{w}` is out of range: expected a number from 0 to {}",
                    u8::MAX
                ))
            } else {
                self.err(format!(
                    "expected {expected} (a number from 0 to 255), found `{w}`"
                ))
            }
        })
    }

    /// A number in `lo..=hi`; every refusal (not a number, too large, out of the range) names
    /// that range, not the 0 to 255 of `number`.
    pub(super) fn number_in(&mut self, expected: &str, lo: u8, hi: u8) -> Result<u8, ParseError> {
        let at = self.pos;
        let w = self.word(expected)?;
        match w.parse::<u64>() {
            Ok(n) if (lo as u64..=hi as u64).contains(&n) => Ok(n as u8),
            _ => {
                self.pos = at;
                Err(self.err(format!(
                    "expected {expected} (a number from {lo} to {hi}), found `{w}`"
                )))
            }
        }
    }

    pub(super) fn positive(&mut self, expected: &str) -> Result<u8, ParseError> {
        let at = self.pos;
        let n = self.number(expected)?;
        if n == 0 {
            self.pos = at;
            return Err(self.err(format!("expected {expected}, counted from 1, found 0")));
        }
        Ok(n)
    }

    pub(super) fn cost(&mut self) -> Result<Cost, ParseError> {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Cost(c)) => {
                let r = Cost::parse(c, &[]).map_err(|m| self.err(format!("bad cost: {m}")));
                self.pos += 1;
                r
            }
            _ => Err(self.err(format!(
                "expected a cost like [4][B] or [0], found {}",
                self.describe()
            ))),
        }
    }

    pub(super) fn player(&mut self) -> Result<Player, ParseError> {
        let at = self.pos;
        match self.word("a player (`you` or `opponent`)")?.as_str() {
            "you" => Ok(Player::YOU),
            "opponent" => Ok(Player::OPP),
            other => {
                self.pos = at;
                Err(self.err(format!(
                    "expected a player (`you` or `opponent`), found `{other}`"
                )))
            }
        }
    }

    pub(super) fn location(&mut self) -> Result<Location, ParseError> {
        let at = self.pos;
        match self
            .word("a location (`base PLAYER` or `battlefield N`)")?
            .as_str()
        {
            "base" => Ok(Location::Base(self.player()?)),
            "battlefield" => Ok(Location::Battlefield(
                self.positive("a battlefield number")? - 1,
            )),
            other => {
                self.pos = at;
                Err(self.err(format!(
                    "expected a location (`base PLAYER` or `battlefield N`), found `{other}`"
                )))
            }
        }
    }

    pub(super) fn obj(&mut self) -> Result<ObjRef, ParseError> {
        if self.peek_word() == Some("item") {
            self.pos += 1;
            return Ok(ObjRef::Item(self.positive("an item number")?));
        }
        let w = self.word("a unit or gear label, or `item N`")?;
        Ok(ObjRef::Label(w))
    }

    pub(super) fn item(&mut self) -> Result<u8, ParseError> {
        self.keyword("item")?;
        self.positive("an item number")
    }

    pub(super) fn done(&self) -> Result<(), ParseError> {
        match self.toks.get(self.pos) {
            None => Ok(()),
            Some(_) => Err(self.err(format!(
                "expected the end of the statement, found {}",
                self.describe()
            ))),
        }
    }

    pub(super) fn zone(&mut self) -> Result<Zone, ParseError> {
        let at = self.pos;
        match self
            .word("`in trash`, `in hand` or `on board` (or a status)")?
            .as_str()
        {
            "in" if self.peek_word() == Some("hand") => {
                self.keyword("hand")?;
                Ok(Zone::Hand)
            }
            "in" => {
                self.keyword("trash")?;
                Ok(Zone::Trash)
            }
            "on" => {
                self.keyword("board")?;
                Ok(Zone::Board)
            }
            w => {
                self.pos = at;
                Err(self.err(format!(
                    "expected `in trash`, `in hand`, `on board`, `might N`, `assault N`, `stunned`, `not-stunned`, `ready` or `exhausted`, found `{w}`"
                )))
            }
        }
    }
}
