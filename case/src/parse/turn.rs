//! The statements of a turn of several plays: `turn plays N [end-turn]` on the board,
//! and the play statements `close` (339, 340.2) and `end turn` (334.1).

use super::lexer::Cursor;
use super::ParseError;
use crate::ast::*;
use model::setup::{TurnSetup, MAX_PLAYS};

/// `turn plays N [end-turn]`, its keyword read: N in 1..=`MAX_PLAYS` (the model's limit: the
/// chain's ids hold no more plays).
pub(super) fn board(c: &mut Cursor) -> Result<BoardStmt, ParseError> {
    c.keyword("plays")?;
    let plays = c.number_in("the number of plays in the turn", 1, MAX_PLAYS)?;
    let end_turn = match c.peek_word() {
        Some("end-turn") => {
            c.pos += 1;
            true
        }
        Some(_) => {
            return Err(c.err(format!(
                "expected `end-turn` or the end of the line, found {}",
                c.describe()
            )))
        }
        None => false,
    };
    Ok(BoardStmt::Turn(TurnSetup { plays, end_turn }))
}

/// `close` or `end turn`, from its first word (already read as `head`).
pub(super) fn play(head: &str, c: &mut Cursor) -> Result<PlayStmt, ParseError> {
    Ok(match head {
        "close" => PlayStmt::Close,
        _ => {
            c.keyword("turn")?;
            PlayStmt::EndTurn
        }
    })
}
