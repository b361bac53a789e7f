//! What an engine declared it supports (its hello's features), and which features a card needs
//! in each role it can have in a case, judged by the protocol's own rule (`case_features`) on a
//! one-statement case: generation draws only cards the engine can be sent.

use crate::protocol::case_features;
use model::card::{CardDef, CardKind};
use model::state::{Location, Player};
use rbcheck_case::ast::{BoardStmt, Case, Line, PlayStmt, UnitStmt};

/// The features an engine declared (its hello), which generation keeps to.
#[derive(Clone, Debug)]
pub struct Profile {
    features: Vec<String>,
}

impl Profile {
    /// A profile of these features (protocol feature names).
    pub fn new(features: &[String]) -> Profile {
        Profile {
            features: features.iter().map(|f| f.to_ascii_lowercase()).collect(),
        }
    }

    /// Every feature.
    pub fn all() -> Profile {
        Profile::new(
            &crate::protocol::FEATURES
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>(),
        )
    }

    /// True if the engine declared the feature.
    pub fn has(&self, feature: &str) -> bool {
        self.features.iter().any(|f| f == feature)
    }

    /// True if the engine declared every one of `needs`.
    pub fn allows(&self, needs: &[String]) -> bool {
        needs.iter().all(|n| self.has(n))
    }

    /// True if the engine can be sent this case (every feature it uses is declared).
    pub fn fits(&self, case: &Case, cards: &[CardDef]) -> bool {
        self.allows(&case_features(case, cards))
    }
}

fn case_of(board: Vec<BoardStmt>, plays: Vec<PlayStmt>) -> Case {
    Case {
        version: 1,
        header: vec![],
        rules: "rup4".into(),
        defines: vec![],
        board: board.into_iter().map(Line::new).collect(),
        plays: plays.into_iter().map(Line::new).collect(),
        checkpoints: vec![],
        expects: vec![],
    }
}

/// The features playing `def` from hand needs.
pub fn play_needs(def: &CardDef, cards: &[CardDef]) -> Vec<String> {
    let play = PlayStmt::Play {
        player: Player::YOU,
        card: def.name.clone(),
    };
    case_features(&case_of(vec![], vec![play]), cards)
}

/// The features having `def` on the board needs (a unit, a gear or a battlefield).
pub fn board_needs(def: &CardDef, cards: &[CardDef]) -> Vec<String> {
    let card = def.name.clone();
    let stmt = match def.kind {
        CardKind::Unit => BoardStmt::Unit(UnitStmt {
            label: "u1".into(),
            card,
            controller: Player::YOU,
            loc: Location::Base(Player::YOU),
            damage: 0,
            owner: None,
            status: Default::default(),
        }),
        CardKind::Gear => BoardStmt::Gear {
            label: "g1".into(),
            card,
            controller: Player::YOU,
        },
        _ => BoardStmt::Battlefield {
            n: 1,
            controller: Some(Player::YOU),
            card: Some(card),
        },
    };
    case_features(&case_of(vec![stmt], vec![]), cards)
}
