//! Building one scenario's starting position from the bound's shapes: the board (its units and
//! gear, the combat boards), the board cards of the extras, resources and hands.

use super::*;

/// One scenario's board: the bound's board shape and extras, your resources and the item in
/// hand (or the attacking unit whose ability is played), and the opponent's hand of reactions.
pub(super) fn build(
    cards: &[CardDef],
    item: Option<model::CardId>,
    board: BoardShape,
    extras: &[Extra],
    res: Resources,
    hand: &[String],
) -> Result<Setup, String> {
    let you = Player::YOU;
    let mut s = Setup {
        battlefields: vec![BattlefieldSetup::default(), BattlefieldSetup::default()],
        ..Setup::default()
    };
    board_cards(&mut s, cards, board)?;
    extra_cards(&mut s, cards, extras)?;
    let (pool, hand_other, runes) = res.yours();
    s.players[0].pool = pool;
    s.players[0].runes = runes;
    s.players[0].hand_other = hand_other;
    s.players[0].deck = 8;
    match item {
        Some(c) => s.players[0].hand.push(c),
        None => {
            let u = s.units.len() as u8;
            add_unit(
                &mut s,
                cards,
                "Vendetta Duelist",
                you,
                Location::Battlefield(0),
            )?;
            s.attack_trigger = Some(u);
        }
    }
    let body = u8::from(hand.iter().any(|h| {
        card_id(cards, h).is_ok_and(|c| cards[c as usize].domains.contains(&Domain::Body))
    }));
    s.players[1] = PlayerSetup {
        pool: Cost {
            energy: 8,
            // One Body Power only for a Body reaction (Repulse), so other bounds stay as they were.
            power: power(&[(Domain::Calm, 3), (Domain::Order, 1), (Domain::Body, body)]),
            any: 0,
            own: 0,
        },
        hand: hand
            .iter()
            .map(|h| card_id(cards, h))
            .collect::<Result<_, _>>()?,
        hand_other: 2,
        deck: 8,
        near_victory: s.players[1].near_victory,
        ..PlayerSetup::default()
    };
    Ok(s)
}

pub(super) fn card_id(cards: &[CardDef], n: &str) -> Result<model::CardId, String> {
    // Ignoring case, as the catalogue's own lookups (`Catalogue::id`) and a bound's validation.
    cards
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(n))
        .map(|i| i as model::CardId)
        .ok_or_else(|| format!("no card `{n}`"))
}

fn add_unit(
    s: &mut Setup,
    cards: &[CardDef],
    n: &str,
    p: Player,
    loc: Location,
) -> Result<(), String> {
    s.units.push(UnitSetup {
        card: card_id(cards, n)?,
        controller: p,
        loc,
        damage: 0,
        owner: None,
        status: Default::default(),
    });
    Ok(())
}

fn add_gear(s: &mut Setup, cards: &[CardDef], n: &str, p: Player) -> Result<(), String> {
    s.gear.push(GearSetup {
        card: card_id(cards, n)?,
        controller: p,
    });
    Ok(())
}

/// Power by domain, from (domain, amount) pairs.
pub(super) fn power(pairs: &[(Domain, u8)]) -> [u8; 6] {
    let mut p = [0u8; 6];
    for (d, n) in pairs {
        p[*d as usize] = *n;
    }
    p
}

/// The units and gear a board shape puts in play.
fn board_cards(s: &mut Setup, cards: &[CardDef], board: BoardShape) -> Result<(), String> {
    let (you, opp) = (Player::YOU, Player::OPP);
    let unit = |s: &mut Setup, n: &str, p: Player, loc: Location| add_unit(s, cards, n, p, loc);
    match board {
        BoardShape::Empty => {}
        BoardShape::EnemyBase => {
            unit(s, "Practice Dummy", opp, Location::Base(opp))?;
            add_gear(s, cards, "Spare Gear", opp)?;
        }
        BoardShape::EnemySpread => {
            unit(s, "Practice Dummy", opp, Location::Battlefield(0))?;
            unit(s, "Practice Dummy", opp, Location::Base(opp))?;
        }
        BoardShape::Deflect => {
            unit(s, "Pouty Poro", opp, Location::Base(opp))?;
            unit(s, "Practice Dummy", opp, Location::Battlefield(0))?;
        }
        BoardShape::Warden => {
            unit(s, "Taxing Warden", opp, Location::Base(opp))?;
            unit(s, "Practice Dummy", opp, Location::Battlefield(0))?;
        }
        BoardShape::Sentry => {
            unit(s, "Watchful Sentry", opp, Location::Base(opp))?;
            unit(s, "Practice Dummy", opp, Location::Battlefield(0))?;
        }
        BoardShape::Attack | BoardShape::Defence | BoardShape::Exhausted => {
            combat_board(s, cards, board)?
        }
        BoardShape::Mixed => {
            unit(s, "Practice Dummy", opp, Location::Base(opp))?;
            unit(s, "Practice Dummy", opp, Location::Battlefield(0))?;
            unit(s, "Practice Dummy", you, Location::Battlefield(0))?;
            add_gear(s, cards, "Spare Gear", opp)?;
            add_gear(s, cards, "Spare Gear", opp)?;
        }
    }
    Ok(())
}

/// The combat boards: statuses set as the board shape says.
fn combat_board(s: &mut Setup, cards: &[CardDef], board: BoardShape) -> Result<(), String> {
    use model::state::{Combat, UnitStatus};
    let (you, opp) = (Player::YOU, Player::OPP);
    let with = |s: &mut Setup, n: &str, p: Player, loc: Location, status: UnitStatus| {
        add_unit(s, cards, n, p, loc)?;
        if let Some(u) = s.units.last_mut() {
            u.status = status;
        }
        Ok::<(), String>(())
    };
    let plain = UnitStatus::default();
    let status = |combat: Combat, exhausted: bool| UnitStatus {
        combat,
        exhausted,
        ..plain
    };
    let bf = Location::Battlefield(0);
    match board {
        BoardShape::Attack => {
            s.showdown_at = Some(0);
            with(
                s,
                "Practice Dummy",
                you,
                bf,
                status(Combat::Attacking, true),
            )?;
            with(s, "Sturdy Dummy", opp, bf, status(Combat::Defending, false))?;
            with(
                s,
                "Scrap Mech",
                you,
                Location::Base(you),
                status(Combat::None, true),
            )?;
            with(s, "Scrap Mech", opp, Location::Base(opp), plain)?;
        }
        BoardShape::Defence => {
            s.showdown_at = Some(0);
            let stunned = UnitStatus {
                stunned: true,
                ..status(Combat::Attacking, true)
            };
            with(s, "Practice Dummy", opp, bf, stunned)?;
            with(s, "Sturdy Dummy", you, bf, status(Combat::Defending, false))?;
            if let Some(u) = s.units.last_mut() {
                u.owner = Some(opp);
            }
            with(s, "Scrap Mech", you, Location::Base(you), plain)?;
        }
        _ => {
            with(
                s,
                "Scrap Mech",
                you,
                Location::Base(you),
                status(Combat::None, true),
            )?;
            with(s, "Sturdy Dummy", you, Location::Base(you), plain)?;
            if let Some(u) = s.units.last_mut() {
                u.damage = 1;
            }
            with(s, "Practice Dummy", opp, bf, plain)?;
            with(s, "Practice Dummy", opp, Location::Base(opp), plain)?;
        }
    }
    Ok(())
}

/// Your board cards of a variant (and whether Syndra makes it a showdown).
fn extra_cards(s: &mut Setup, cards: &[CardDef], extras: &[Extra]) -> Result<(), String> {
    let you = Player::YOU;
    let mut showdown = false;
    for extra in extras {
        match extra {
            Extra::None => {}
            Extra::Ezreal => add_unit(s, cards, "Ezreal, Prodigy", you, Location::Base(you))?,
            Extra::MaraiSpire => {
                s.battlefields[1] = BattlefieldSetup {
                    card: Some(card_id(cards, "Marai Spire")?),
                    controller: Some(you),
                }
            }
            Extra::Portal => {
                add_gear(s, cards, "Temporal Portal", you)?;
                s.players[0].portal_charged = true;
            }
            Extra::Syndra => {
                // "While I'm in a showdown": at the showdown's battlefield; the
                // board's showdown if it has one, else one at battlefield 2.
                let at = s.showdown_at.unwrap_or(1);
                add_unit(
                    s,
                    cards,
                    "Syndra, Transcendent",
                    you,
                    Location::Battlefield(at),
                )?;
                s.showdown_at = Some(at);
                showdown = true;
            }
            Extra::Spellwatcher => add_unit(s, cards, "Spellwatcher", you, Location::Base(you))?,
            Extra::Tollkeeper => add_unit(s, cards, "Tollkeeper", you, Location::Base(you))?,
            Extra::FrugalAdept => add_unit(s, cards, "Frugal Adept", you, Location::Base(you))?,
            Extra::OpponentNearVictory => s.players[1].near_victory = true,
            Extra::Academy => s.players[0].academy_charged = true,
            Extra::PortalReady => add_gear(s, cards, "Temporal Portal", you)?,
        }
    }
    s.showdown = showdown || s.showdown_at.is_some();
    Ok(())
}
