//! The case-file parser: one statement a line, errors with line, column and what was expected.
//! The grammar, with an example of every statement, is in `corpus/FORMAT.md`.

use super::ast::*;
use model::cost::{Cost, Domain};
use model::state::{CancelWhy, IgnoredWhy, Location, Player, Zone};
use std::fmt;

/// The format version this parser reads.
pub const VERSION: u32 = 1;

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

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Quoted(String),
    Cost(String),
    Table(String),
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    col: usize,
}

fn tokenize(line: &str, n: usize) -> Result<Vec<Token>, ParseError> {
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

struct Cursor<'a> {
    toks: &'a [Token],
    pos: usize,
    line: usize,
    end_col: usize,
}

impl<'a> Cursor<'a> {
    fn err(&self, message: impl Into<String>) -> ParseError {
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

    fn describe(&self) -> String {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            None => "the end of the line".into(),
            Some(Tok::Word(w)) => format!("`{w}`"),
            Some(Tok::Quoted(q)) => format!("\"{q}\""),
            Some(Tok::Cost(c)) => format!("`{c}`"),
            Some(Tok::Table(_)) => "a `{...}` table".into(),
        }
    }

    fn word(&mut self, expected: &str) -> Result<String, ParseError> {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Word(w)) => {
                self.pos += 1;
                Ok(w.clone())
            }
            _ => Err(self.err(format!("expected {expected}, found {}", self.describe()))),
        }
    }

    fn keyword(&mut self, kw: &str) -> Result<(), ParseError> {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Word(w)) if w == kw => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.err(format!("expected `{kw}`, found {}", self.describe()))),
        }
    }

    fn peek_word(&self) -> Option<&str> {
        match self.toks.get(self.pos).map(|t| &t.tok) {
            Some(Tok::Word(w)) => Some(w),
            _ => None,
        }
    }

    fn quoted(&mut self, expected: &str) -> Result<String, ParseError> {
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

    fn number(&mut self, expected: &str) -> Result<u8, ParseError> {
        let at = self.pos;
        let w = self.word(expected)?;
        w.parse::<u8>().map_err(|_| {
            self.pos = at;
            self.err(format!(
                "expected {expected} (a number from 0 to 255), found `{w}`"
            ))
        })
    }

    fn positive(&mut self, expected: &str) -> Result<u8, ParseError> {
        let at = self.pos;
        let n = self.number(expected)?;
        if n == 0 {
            self.pos = at;
            return Err(self.err(format!("expected {expected}, counted from 1, found 0")));
        }
        Ok(n)
    }

    fn cost(&mut self) -> Result<Cost, ParseError> {
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

    fn player(&mut self) -> Result<Player, ParseError> {
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

    fn location(&mut self) -> Result<Location, ParseError> {
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

    fn obj(&mut self) -> Result<ObjRef, ParseError> {
        if self.peek_word() == Some("item") {
            self.pos += 1;
            return Ok(ObjRef::Item(self.positive("an item number")?));
        }
        let w = self.word("a unit or gear label, or `item N`")?;
        Ok(ObjRef::Label(w))
    }

    fn item(&mut self) -> Result<u8, ParseError> {
        self.keyword("item")?;
        self.positive("an item number")
    }

    fn done(&self) -> Result<(), ParseError> {
        match self.toks.get(self.pos) {
            None => Ok(()),
            Some(_) => Err(self.err(format!(
                "expected the end of the statement, found {}",
                self.describe()
            ))),
        }
    }

    fn zone(&mut self) -> Result<Zone, ParseError> {
        let at = self.pos;
        match self.word("`in trash` or `on board`")?.as_str() {
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
                Err(self.err(format!("expected `in trash` or `on board`, found `{w}`")))
            }
        }
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
        expects: vec![],
    };
    let mut section = Section::Head;
    let mut seen_version = false;
    let mut seen_rules = false;
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
            if head != "rbcheck-case" {
                return Err(ParseError {
                    line: n,
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
            c.done()?;
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
        let order =
            |c: &Cursor, now: Section, want: Section, what: &str| -> Result<(), ParseError> {
                if now > want {
                    Err(ParseError {
                        line: c.line,
                        col: 1,
                        message: format!("{what} must come before {}", section_name(now)),
                    })
                } else {
                    Ok(())
                }
            };
        match head.as_str() {
            "rules" => {
                if seen_rules {
                    return Err(ParseError { line: n, col: 1, message: "a second `rules` statement".into() });
                }
                order(&c, section, Section::Head, "`rules`")?;
                case.rules = match c.toks.get(c.pos).map(|t| &t.tok) {
                    Some(Tok::Quoted(q)) => {
                        c.pos += 1;
                        q.clone()
                    }
                    _ => c.word("a rules version (v1.2, v1.3, rup4, guide) or a quoted rulebook file")?,
                };
                c.done()?;
                seen_rules = true;
            }
            "define" => {
                order(&c, section, Section::Defines, "`define`")?;
                section = Section::Defines;
                match c.toks.get(c.pos).map(|t| &t.tok) {
                    Some(Tok::Table(t)) => case.defines.push(Line { line: n, stmt: t.clone() }),
                    _ => return Err(c.err(format!("expected a card as an inline TOML table `{{ name = ..., type = ... }}`, found {}", c.describe()))),
                }
            }
            "unit" | "gear" | "battlefield" | "pool" | "hand" | "other-cards" | "deck" | "portal" | "near-victory"
            | "showdown" | "attack" => {
                order(&c, section, Section::Board, &format!("the board statement `{head}`"))?;
                section = Section::Board;
                let stmt = board(&head, &mut c)?;
                c.done()?;
                case.board.push(Line { line: n, stmt });
            }
            "you" | "opponent" | "may" | "repeat" | "exec" | "pay" | "new-choices" => {
                order(&c, section, Section::Play, &format!("the play statement `{head}`"))?;
                section = Section::Play;
                c.pos = 0;
                let stmt = play(&mut c)?;
                c.done()?;
                case.plays.push(Line { line: n, stmt });
            }
            "expect" => {
                section = Section::Expect;
                let stmt = expect(&mut c)?;
                c.done()?;
                case.expects.push(Line { line: n, stmt });
            }
            other => {
                return Err(ParseError {
                    line: n,
                    col: 1,
                    message: format!("unknown statement `{other}`; expected one of: rules, define, unit, gear, battlefield, pool, hand, other-cards, deck, portal, near-victory, showdown, attack, you, opponent, may, repeat, exec, pay, new-choices, expect"),
                })
            }
        }
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

fn section_name(s: Section) -> &'static str {
    match s {
        Section::Head => "the head",
        Section::Defines => "the defines",
        Section::Board => "the board",
        Section::Play => "the plays",
        Section::Expect => "the expectations",
    }
}

fn board(head: &str, c: &mut Cursor) -> Result<BoardStmt, ParseError> {
    Ok(match head {
        "unit" => {
            let label = c.word("a label for the unit")?;
            let card = c.quoted("the unit's card name")?;
            let controller = c.player()?;
            let loc = c.location()?;
            let mut damage = 0;
            if c.peek_word() == Some("damage") {
                c.pos += 1;
                damage = c.number("the damage marked")?;
            }
            BoardStmt::Unit {
                label,
                card,
                controller,
                loc,
                damage,
            }
        }
        "gear" => BoardStmt::Gear {
            label: c.word("a label for the gear")?,
            card: c.quoted("the gear's card name")?,
            controller: c.player()?,
        },
        "battlefield" => {
            let n = c.positive("a battlefield number")?;
            let mut controller = None;
            let mut card = None;
            while let Some(w) = c.peek_word() {
                match w {
                    "controller" => {
                        c.pos += 1;
                        controller = Some(c.player()?);
                    }
                    "card" => {
                        c.pos += 1;
                        card = Some(c.quoted("the battlefield's card name")?);
                    }
                    _ => {
                        return Err(c.err(format!(
                            "expected `controller PLAYER` or `card \"Name\"`, found {}",
                            c.describe()
                        )))
                    }
                }
            }
            BoardStmt::Battlefield {
                n,
                controller,
                card,
            }
        }
        "pool" => BoardStmt::Pool(c.player()?, c.cost()?),
        "hand" => BoardStmt::Hand(c.player()?, c.quoted("a card name")?),
        "other-cards" => BoardStmt::OtherCards(c.player()?, c.number("a number of cards")?),
        "deck" => BoardStmt::Deck(c.player()?, c.number("a number of cards")?),
        "portal" => BoardStmt::Portal(c.player()?),
        "near-victory" => BoardStmt::NearVictory(c.player()?),
        "showdown" => BoardStmt::Showdown,
        "attack" => BoardStmt::Attack(c.word("the label of the attacking unit")?),
        _ => unreachable!("dispatched on board keywords"),
    })
}

fn exec_number(c: &mut Cursor) -> Result<u8, ParseError> {
    c.keyword("exec")?;
    c.positive("an execution number")
}

fn play(c: &mut Cursor) -> Result<PlayStmt, ParseError> {
    let head = c.word("a play statement")?;
    Ok(match head.as_str() {
        "you" | "opponent" => {
            let p = if head == "you" {
                Player::YOU
            } else {
                Player::OPP
            };
            match c.word("`play \"Card\"` or `pass`")?.as_str() {
                "play" => PlayStmt::Play {
                    player: p,
                    card: c.quoted("the card's name")?,
                },
                "pass" => PlayStmt::Pass { player: p },
                w => {
                    c.pos -= 1;
                    return Err(c.err(format!("expected `play \"Card\"` or `pass`, found `{w}`")));
                }
            }
        }
        "may" => match c.word("`perform` or `decline`")?.as_str() {
            "perform" => PlayStmt::May { perform: true },
            "decline" => PlayStmt::May { perform: false },
            w => {
                c.pos -= 1;
                return Err(c.err(format!("expected `perform` or `decline`, found `{w}`")));
            }
        },
        "repeat" => {
            let instance = c.positive("a Repeat instance number")?;
            let pay = match c.word("`pay` or `skip`")?.as_str() {
                "pay" => true,
                "skip" => false,
                w => {
                    c.pos -= 1;
                    return Err(c.err(format!("expected `pay` or `skip`, found `{w}`")));
                }
            };
            PlayStmt::Repeat { instance, pay }
        }
        "exec" => {
            c.pos -= 1;
            let exec = exec_number(c)?;
            match c
                .word("`mode`, `target`, `no-more-targets` or `destination`")?
                .as_str()
            {
                "mode" => PlayStmt::Mode {
                    exec,
                    mode: c.positive("a mode number")?,
                },
                "target" => PlayStmt::Target {
                    exec,
                    instruction: c.positive("an instruction number")?,
                    obj: c.obj()?,
                },
                "no-more-targets" => PlayStmt::NoMoreTargets {
                    exec,
                    instruction: c.positive("an instruction number")?,
                },
                "destination" => PlayStmt::Destination {
                    exec,
                    instruction: c.positive("an instruction number")?,
                    to: c.location()?,
                },
                w => {
                    c.pos -= 1;
                    return Err(c.err(format!("expected `mode`, `target`, `no-more-targets` or `destination`, found `{w}`")));
                }
            }
        }
        "pay" => {
            let mut any = vec![];
            if c.peek_word() == Some("any") {
                c.pos += 1;
                while let Some(w) = c.peek_word() {
                    let Some(d) = Domain::parse(w) else {
                        return Err(c.err(format!(
                            "expected a domain (R G B O P Y, or a name), found `{w}`"
                        )));
                    };
                    any.push(d);
                    c.pos += 1;
                }
                if any.is_empty() {
                    return Err(c.err("expected the domains that pay [A] after `any`"));
                }
            }
            PlayStmt::Pay { any }
        }
        "new-choices" => {
            let item = c.item()?;
            if c.peek_word() == Some("decline") {
                c.pos += 1;
                PlayStmt::DeclineNewChoices { item }
            } else {
                PlayStmt::NewChoices { item }
            }
        }
        _ => unreachable!("dispatched on play keywords"),
    })
}

fn reason(w: &str) -> Option<IgnoredWhy> {
    Some(match w {
        "targets-illegal" => IgnoredWhy::TargetsIllegal,
        "linked-not-executed" => IgnoredWhy::LinkedNotExecuted,
        "source-gone" => IgnoredWhy::SourceGone,
        "impossible" => IgnoredWhy::Impossible,
        _ => return None,
    })
}

/// The written name of an ignore reason.
pub fn reason_name(r: IgnoredWhy) -> &'static str {
    match r {
        IgnoredWhy::TargetsIllegal => "targets-illegal",
        IgnoredWhy::LinkedNotExecuted => "linked-not-executed",
        IgnoredWhy::SourceGone => "source-gone",
        IgnoredWhy::Impossible => "impossible",
    }
}

fn expect(c: &mut Cursor) -> Result<Expect, ParseError> {
    let what = c.word("an expectation")?;
    Ok(match what.as_str() {
        "legal" => Expect::Legal,
        "illegal" => {
            c.keyword("line")?;
            let at = c.pos;
            let w = c.word("a line number")?;
            let line = w.parse::<usize>().map_err(|_| {
                c.pos = at;
                c.err(format!("expected a line number, found `{w}`"))
            })?;
            let rule = if c.peek_word() == Some("rule") {
                c.pos += 1;
                Some(c.word("a rule number like 820.1.c.3")?)
            } else {
                None
            };
            Expect::Illegal { line, rule }
        }
        "cancelled" => {
            let item = c.item()?;
            let why = match c.peek_word() {
                Some("no-legal-choice") => Some(CancelWhy::NoLegalChoice),
                Some("cannot-pay") => Some(CancelWhy::CannotPay),
                Some(w) => {
                    return Err(c.err(format!(
                        "expected `no-legal-choice`, `cannot-pay` or the end, found `{w}`"
                    )))
                }
                None => None,
            };
            if why.is_some() {
                c.pos += 1;
            }
            Expect::Cancelled(item, why)
        }
        "paid" => Expect::Paid(c.item()?, c.cost()?),
        "repeat-paid" => {
            let item = c.item()?;
            let mut v = vec![];
            if c.peek_word() == Some("none") {
                c.pos += 1;
            } else {
                v.push(c.positive("an instance number or `none`")?);
                while c.peek_word().is_some() {
                    v.push(c.positive("an instance number")?);
                }
            }
            Expect::RepeatPaid(item, v)
        }
        "executions" => Expect::Executions(c.item()?, c.number("a number of executions")?),
        "play-events" => Expect::PlayEvents(c.item()?, c.number("a number of play events")?),
        "performed" | "ignored" => {
            let item = c.item()?;
            let exec = exec_number(c)?;
            c.keyword("instruction")?;
            let ins = c.positive("an instruction number")?;
            if what == "performed" {
                Expect::Performed(item, exec, ins)
            } else {
                let why = match c.peek_word() {
                    None => None,
                    Some(w) => match reason(w) {
                        Some(r) => {
                            c.pos += 1;
                            Some(r)
                        }
                        None => return Err(c.err(format!("expected a reason (targets-illegal, linked-not-executed, source-gone, impossible), found `{w}`"))),
                    },
                };
                Expect::Ignored(item, exec, ins, why)
            }
        }
        "countered" => Expect::Countered(c.item()?),
        "not-countered" => Expect::NotCountered(c.item()?),
        "triggered" => Expect::Triggered(
            c.quoted("an ability's name")?,
            c.number("a number of times")?,
        ),
        "finalized" => Expect::Finalized(c.player()?, c.number("a number of cards")?),
        "unit" => {
            let label = c.word("a unit label")?;
            match c.peek_word() {
                Some("damage") => {
                    c.pos += 1;
                    Expect::UnitDamage(label, c.number("the damage")?)
                }
                Some("at") => {
                    c.pos += 1;
                    Expect::UnitAt(label, c.location()?)
                }
                _ => Expect::UnitZone(label, c.zone()?),
            }
        }
        "gear" => {
            let label = c.word("a gear label")?;
            Expect::GearZone(label, c.zone()?)
        }
        "tokens" => Expect::Tokens(c.player()?, c.number("a number of tokens")?),
        "pool" => Expect::Pool(c.player()?, c.cost()?),
        "hand-size" => Expect::HandSize(c.player()?, c.number("a number of cards")?),
        "trash" => {
            let p = c.player()?;
            let mut v = vec![];
            if c.peek_word() == Some("none") {
                c.pos += 1;
            } else {
                v.push(c.quoted("a card name or `none`")?);
                while c.pos < c.toks.len() {
                    v.push(c.quoted("a card name")?);
                }
            }
            Expect::Trash(p, v)
        }
        "deck" => Expect::Deck(c.player()?, c.number("a number of cards")?),
        w => {
            c.pos -= 1;
            return Err(c.err(format!(
                "unknown expectation `{w}`; see corpus/FORMAT.md for the list"
            )));
        }
    })
}
