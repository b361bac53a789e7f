//! The statements of the main deck's named cards, the decisions made while an
//! instruction executes (looking at the deck, a demand to pay), and expectations on the deck,
//! the hand, demands and channelled runes.

use super::lexer::{Cursor, Tok};
use super::ParseError;
use crate::ast::*;

/// `deck-top PLAYER "Card"...`, its keyword read.
pub(super) fn board(c: &mut Cursor) -> Result<BoardStmt, ParseError> {
    let p = c.player()?;
    let mut cards = vec![c.quoted("a card name")?];
    while c.pos < c.toks.len() {
        cards.push(c.quoted("a card name")?);
    }
    Ok(BoardStmt::DeckTop(p, cards))
}

/// `look draw "Card"|other|none`, `look recycle "Card"|other`, `demand pay|decline`, the first
/// word `head` read.
pub(super) fn play(head: &str, c: &mut Cursor) -> Result<PlayStmt, ParseError> {
    if head == "demand" {
        return Ok(match c.word("`pay` or `decline`")?.as_str() {
            "pay" => PlayStmt::Demand { pay: true },
            "decline" => PlayStmt::Demand { pay: false },
            w => {
                c.pos -= 1;
                return Err(c.err(format!("expected `pay` or `decline`, found `{w}`")));
            }
        });
    }
    match c.word("`draw` or `recycle`")?.as_str() {
        "draw" => {
            if c.peek_word() == Some("none") {
                c.pos += 1;
                return Ok(PlayStmt::LookDraw { card: None });
            }
            Ok(PlayStmt::LookDraw {
                card: Some(deck_ref(c, "a card name, `other` or `none`")?),
            })
        }
        "recycle" => Ok(PlayStmt::LookRecycle {
            card: deck_ref(c, "a card name or `other`")?,
        }),
        w => {
            c.pos -= 1;
            Err(c.err(format!("expected `draw` or `recycle`, found `{w}`")))
        }
    }
}

/// A deck card: `"Card"` or `other`.
fn deck_ref(c: &mut Cursor, expected: &str) -> Result<DeckRef, ParseError> {
    match c.toks.get(c.pos).map(|t| &t.tok) {
        Some(Tok::Word(w)) if w == "other" => {
            c.pos += 1;
            Ok(DeckRef::Other)
        }
        Some(Tok::Quoted(_)) => Ok(DeckRef::Named(c.quoted(expected)?)),
        _ => Err(c.err(format!("expected {expected}, found {}", c.describe()))),
    }
}

/// A list after the player: `none`, or one or more items read by `one`.
fn list<T>(
    c: &mut Cursor,
    mut one: impl FnMut(&mut Cursor) -> Result<T, ParseError>,
) -> Result<Vec<T>, ParseError> {
    if c.peek_word() == Some("none") {
        c.pos += 1;
        return Ok(vec![]);
    }
    let mut v = vec![one(c)?];
    while c.pos < c.toks.len() {
        v.push(one(c)?);
    }
    Ok(v)
}

/// The expectations of this module, after `expect`; `None` if `what` is not one of them.
pub(super) fn expect(what: &str, c: &mut Cursor) -> Result<Option<Expect>, ParseError> {
    Ok(Some(match what {
        "deck-top" => {
            let p = c.player()?;
            Expect::DeckTop(p, list(c, |c| c.quoted("a card name or `none`"))?)
        }
        "recycled" => {
            let p = c.player()?;
            Expect::Recycled(
                p,
                list(c, |c| deck_ref(c, "a card name, `other` or `none`"))?,
            )
        }
        "hand" => {
            let p = c.player()?;
            Expect::Hand(p, list(c, |c| c.quoted("a card name or `none`"))?)
        }
        "demands" => {
            let item = c.item()?;
            let mut v = vec![];
            loop {
                match c.word("`paid` or `declined`")?.as_str() {
                    "paid" => v.push(true),
                    "declined" => v.push(false),
                    w => {
                        c.pos -= 1;
                        return Err(c.err(format!("expected `paid` or `declined`, found `{w}`")));
                    }
                }
                if c.pos >= c.toks.len() {
                    break;
                }
            }
            Expect::Demands(item, v)
        }
        "runes-exhausted" => Expect::RunesExhausted(c.player()?, c.number("a number of runes")?),
        "runes" => super::runes::expect(c)?,
        _ => return Ok(None),
    }))
}
