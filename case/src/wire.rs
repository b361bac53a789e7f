//! The case AST's values in the engine protocol's JSON (`corpus/PROTOCOL.md`): players,
//! locations, objects and domains are written there in the case file's words (`you`,
//! `battlefield 2`, `item 1`, `B`), not in the model's own serde form (`Player(0)`,
//! `{"Battlefield":1}`), so the AST's derived serde takes these for those fields. The words are
//! the printer's; reading them back is here, for a string already cut out of a JSON field.

use super::ast::ObjRef;
use super::print;
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

/// Reads a label or `item N`.
pub fn parse_obj(s: &str) -> Result<ObjRef, String> {
    match s.strip_prefix("item ") {
        Some(n) => n
            .trim()
            .parse()
            .map(ObjRef::Item)
            .map_err(|_| format!("`{s}`: expected `item N`")),
        None => Ok(ObjRef::Label(s.to_string())),
    }
}

/// A player as `you` / `opponent` (serde `with`).
pub mod player {
    use super::*;

    /// Writes the player's word.
    pub fn serialize<S: Serializer>(p: &Player, s: S) -> Result<S::Ok, S::Error> {
        print::player(*p).serialize(s)
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
        print::loc(*l).serialize(s)
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

/// An object as its label or `item N`: one string on the wire, as in a case file.
impl Serialize for ObjRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        print::obj(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for ObjRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ObjRef, D::Error> {
        parse_obj(&String::deserialize(d)?).map_err(D::Error::custom)
    }
}
