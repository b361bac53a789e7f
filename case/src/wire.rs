//! The words of the model's small values as a case file writes them (`you`, `battlefield 2`,
//! `B`), both ways, and the same words in the engine protocol's JSON (`corpus/PROTOCOL.md`)
//! instead of the model's own serde form (`Player(0)`, `{"Battlefield":1}`): the AST's derived
//! serde takes these for those fields. The printer and the parser use the same words; this
//! module depends on no other of the crate.

use model::cost::Domain;
use model::state::{Location, Player};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Reads `you` / `opponent`.
pub fn parse_player(s: &str) -> Option<Player> {
    match s {
        "you" => Some(Player::YOU),
        "opponent" => Some(Player::OPP),
        _ => None,
    }
}

/// Reads `base you`, `base opponent`, `battlefield N`.
pub fn parse_location(s: &str) -> Option<Location> {
    let w: Vec<&str> = s.split_whitespace().collect();
    match w.as_slice() {
        ["base", p] => parse_player(p).map(Location::Base),
        ["battlefield", n] => n
            .parse::<u8>()
            .ok()
            .filter(|n| *n >= 1)
            .map(|n| Location::Battlefield(n - 1)),
        _ => None,
    }
}

/// A player as a case file writes it.
pub fn player_word(p: Player) -> &'static str {
    if p == Player::YOU {
        "you"
    } else {
        "opponent"
    }
}

/// A location as a case file writes it.
pub fn location_words(l: Location) -> String {
    match l {
        Location::Base(p) => format!("base {}", player_word(p)),
        Location::Battlefield(n) => format!("battlefield {}", n + 1),
    }
}

/// A player as `you` / `opponent` (serde `with`).
pub mod player {
    use super::*;

    /// Writes the player's word.
    pub fn serialize<S: Serializer>(p: &Player, s: S) -> Result<S::Ok, S::Error> {
        player_word(*p).serialize(s)
    }

    /// Reads the player's word.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Player, D::Error> {
        let s = String::deserialize(d)?;
        parse_player(&s).ok_or_else(|| D::Error::custom(format!("`{s}`: expected you or opponent")))
    }
}

/// A location as `base you` / `battlefield N` (serde `with`).
pub mod location {
    use super::*;

    /// Writes the location's words.
    pub fn serialize<S: Serializer>(l: &Location, s: S) -> Result<S::Ok, S::Error> {
        location_words(*l).serialize(s)
    }

    /// Reads the location's words.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Location, D::Error> {
        let s = String::deserialize(d)?;
        parse_location(&s).ok_or_else(|| D::Error::custom(format!("`{s}`: not a location")))
    }
}

/// Domains as their letters, `["B","Y"]` (serde `with`).
pub mod domains {
    use super::*;

    /// Writes each domain's letter.
    pub fn serialize<S: Serializer>(v: &[Domain], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|d| d.letter().to_string()))
    }

    /// Reads each domain from its letter (or name).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Domain>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|x| {
                Domain::parse(x).ok_or_else(|| D::Error::custom(format!("`{x}`: not a domain")))
            })
            .collect()
    }
}

/// One domain as its letter, `"G"` (serde `with`).
pub mod domain {
    use super::*;

    /// Writes the domain's letter.
    pub fn serialize<S: Serializer>(d: &Domain, s: S) -> Result<S::Ok, S::Error> {
        d.letter().to_string().serialize(s)
    }

    /// Reads the domain from its letter (or name).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Domain, D::Error> {
        let x = String::deserialize(d)?;
        Domain::parse(&x).ok_or_else(|| D::Error::custom(format!("`{x}`: not a domain")))
    }
}
