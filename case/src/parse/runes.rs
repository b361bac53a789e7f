//! The rune statements: a player's runes on the board and in the rune deck, the
//! payment decisions that exhaust or recycle a rune (164.2, 357.1.a), and expectations on the
//! runes at the end.

use super::lexer::Cursor;
use super::ParseError;
use crate::ast::*;
use model::cost::Domain;
use model::state::{RunesSetup, MAX_RUNES};

/// `runes PLAYER [ready D...] [exhausted D...] [deck D...]`, its keyword read. Each part at most
/// once; the runes together at most `MAX_RUNES` (a rune deck's size).
pub(super) fn board(c: &mut Cursor) -> Result<BoardStmt, ParseError> {
    let p = c.player()?;
    let mut r = RunesSetup::default();
    let mut seen: Vec<RunePart> = vec![];
    let mut total = 0usize;
    while c.pos < c.toks.len() {
        let at = c.pos;
        let part = part(c, "`ready`, `exhausted` or `deck`")?;
        if seen.contains(&part) {
            c.pos = at;
            return Err(c.err(format!("`{}` is given twice", part_word(part))));
        }
        seen.push(part);
        let ds = domains(c, false, &mut total)?;
        for d in ds {
            match part {
                // At most MAX_RUNES (12) runes in all: the u8 counts cannot overflow.
                RunePart::Ready => r.ready[d as usize] += 1,
                RunePart::Exhausted => r.exhausted[d as usize] += 1,
                RunePart::Deck => r.deck.push(d),
            }
        }
    }
    Ok(BoardStmt::Runes(p, r))
}

/// `rune exhaust D` / `rune recycle D`, its keyword read.
pub(super) fn play(c: &mut Cursor) -> Result<PlayStmt, ParseError> {
    let how = match c.word("`exhaust` or `recycle`")?.as_str() {
        "exhaust" => RuneUse::Exhaust,
        "recycle" => RuneUse::Recycle,
        w => {
            c.pos -= 1;
            return Err(c.err(format!("expected `exhaust` or `recycle`, found `{w}`")));
        }
    };
    Ok(PlayStmt::Rune {
        how,
        domain: domain(c)?,
    })
}

/// `expect runes PLAYER ready|exhausted|deck D...|none`, after `expect runes`. Ready and
/// exhausted runes are a count per domain, kept in domain order (R G B O P Y).
pub(super) fn expect(c: &mut Cursor) -> Result<Expect, ParseError> {
    let p = c.player()?;
    let part = part(c, "`ready`, `exhausted` or `deck`")?;
    let mut v = if c.peek_word() == Some("none") {
        c.pos += 1;
        vec![]
    } else {
        domains(c, true, &mut 0)?
    };
    if part != RunePart::Deck {
        v.sort();
    }
    Ok(Expect::Runes(p, part, v))
}

/// The word for a part, as the printer writes it.
pub(crate) fn part_word(p: RunePart) -> &'static str {
    match p {
        RunePart::Ready => "ready",
        RunePart::Exhausted => "exhausted",
        RunePart::Deck => "deck",
    }
}

fn part(c: &mut Cursor, expected: &str) -> Result<RunePart, ParseError> {
    Ok(match c.word(expected)?.as_str() {
        "ready" => RunePart::Ready,
        "exhausted" => RunePart::Exhausted,
        "deck" => RunePart::Deck,
        w => {
            c.pos -= 1;
            return Err(c.err(format!("expected {expected}, found `{w}`")));
        }
    })
}

fn domain(c: &mut Cursor) -> Result<Domain, ParseError> {
    let w = c.word("a rune's domain (R G B O P Y)")?;
    Domain::parse(&w).ok_or_else(|| {
        c.pos -= 1;
        c.err(format!(
            "expected a rune's domain (R G B O P Y, or a name), found `{w}`"
        ))
    })
}

/// Domains up to the next part word (or, with `to_end`, the end of the line): at least one,
/// and `total` (counted across the line) at most `MAX_RUNES`.
fn domains(c: &mut Cursor, to_end: bool, total: &mut usize) -> Result<Vec<Domain>, ParseError> {
    let mut v = vec![];
    while c.pos < c.toks.len() {
        if !to_end && matches!(c.peek_word(), Some("ready" | "exhausted" | "deck")) {
            break;
        }
        if *total >= MAX_RUNES {
            return Err(c.err(format!(
                "more than {MAX_RUNES} runes (a rune deck's size) on one line"
            )));
        }
        v.push(domain(c)?);
        *total += 1;
    }
    if v.is_empty() {
        return Err(c.err(format!(
            "expected a rune's domain (R G B O P Y), found {}",
            c.describe()
        )));
    }
    Ok(v)
}
