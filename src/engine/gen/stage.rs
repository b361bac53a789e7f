//! The boards staged for the featured cards ([`super::FEATURED`]): each card is played only by
//! its own stratum, on a board that lets it do what it does (attackers for combat spells, named
//! cards on the deck, exhausted units to ready, a discard to pay), so the rules clauses it is
//! about are reached by construction rather than by the draw.

use model::card::CardId;
use model::setup::*;
use model::state::{Location, Player};

/// The board staged for a [`super::FEATURED`] card (`n` varies it): what the card needs to do what it
/// does, and the situations its rules clauses are about.
pub(super) fn stage(
    s: &mut Setup,
    name: &str,
    n: usize,
    id: &dyn Fn(&str) -> Result<CardId, String>,
) -> Result<(), String> {
    use model::state::Combat;
    let (you, opp) = (Player::YOU, Player::OPP);
    let bf = Location::Battlefield(0);
    let unit = |units: &mut Vec<UnitSetup>, card: &str, p: Player, loc: Location| {
        units.push(UnitSetup::new(id(card)?, p, loc));
        Ok::<usize, String>(units.len() - 1)
    };
    match name {
        // A showdown at battlefield 1: an enemy attacker, stunned half the time (423.1.a.1),
        // owned by you two times in three (Existential Dread returns it to its owner's hand,
        // 124), a second attacker and your defender; a third of the time no unit attacks, so
        // there is nothing to choose (the play is undone, 358.5).
        "Thwonk!" | "Existential Dread" => {
            let none = (n / 6) % 3 == 2;
            let a = unit(&mut s.units, "Practice Dummy", opp, bf)?;
            let b = unit(&mut s.units, "Sturdy Dummy", opp, bf)?;
            let d = unit(&mut s.units, "Sturdy Dummy", you, bf)?;
            s.units[a].status.stunned = n.is_multiple_of(2);
            s.units[a].owner = (!(n / 2).is_multiple_of(3)).then_some(you);
            if !none {
                s.units[a].status.combat = Combat::Attacking;
                s.units[b].status.combat = if n % 5 < 2 {
                    Combat::Attacking
                } else {
                    Combat::None
                };
                s.units[d].status.combat = Combat::Defending;
            }
            s.showdown_at = Some(0);
            s.showdown = true;
        }
        // A friendly unit anywhere and enemy units at both battlefields (417.6.b.3).
        "Marching Orders" => {
            unit(&mut s.units, "Sturdy Dummy", you, Location::Base(you))?;
            unit(&mut s.units, "Practice Dummy", opp, bf)?;
            unit(&mut s.units, "Sturdy Dummy", opp, Location::Battlefield(1))?;
            if n % 2 == 1 {
                unit(&mut s.units, "Practice Dummy", you, bf)?;
            }
        }
        // Named cards on top of your deck, a unit among them (416).
        "Called Shot" | "Double Trouble" => {
            let named = [
                "Pouty Poro",
                "Defy",
                "Wind Wall",
                "Sturdy Dummy",
                "Hard Bargain",
            ];
            let k = 2 + n % 3;
            s.players[0].deck_top = (0..k)
                .map(|j| id(named[(n + j) % named.len()]))
                .collect::<Result<_, _>>()?;
        }
        // A unit from hand: to your base or a battlefield you control (805, 356.2.a).
        "Legion Rearguard" | "Clockwork Keeper" => {
            if n.is_multiple_of(2) {
                s.battlefields[0].controller = Some(you);
            }
            s.players[0].portal_charged = false;
            s.players[0].deck = s.players[0].deck.max(2);
        }
        // Friendly units to exhaust, one exhausted already, sometimes all (357.2, 414.4).
        "Rallying Cry" => {
            for k in 0..2 {
                let u = unit(&mut s.units, "Practice Dummy", you, Location::Base(you))?;
                s.units[u].status.exhausted = k == 1 || n.is_multiple_of(5);
            }
            unit(&mut s.units, "Practice Dummy", opp, bf)?;
            s.players[0].deck = s.players[0].deck.max(3);
        }
        // Units two damage kills, one of them lethally damaged already by the first
        // execution when the walk chooses it twice (359.3.e.14).
        "Deadly Strike" => {
            let a = unit(&mut s.units, "Practice Dummy", opp, Location::Base(opp))?;
            s.units[a].damage = (n % 2) as u8;
            unit(&mut s.units, "Sturdy Dummy", opp, bf)?;
            s.players[0].deck = s.players[0].deck.max(3);
        }
        // Exhausted units only, so that the first execution readies one (415.1) and a later
        // execution choosing it again finds it ready (415.1.b).
        "Upstage Comedy" => {
            for (p, loc) in [(you, Location::Base(you)), (opp, bf), (you, bf)]
                .into_iter()
                .take(2 + n % 2)
            {
                let u = unit(&mut s.units, "Sturdy Dummy", p, loc)?;
                s.units[u].status.exhausted = true;
            }
        }
        // Your Mechs (one or two), the opponent's Mech and your unit that is no Mech: "your
        // Mechs" is a group of the first only, picked as it resolves, not targeted (355.10.d).
        "Danger Zone" => {
            unit(&mut s.units, "Scrap Mech", you, Location::Base(you))?;
            if n % 2 == 1 {
                unit(&mut s.units, "Scrap Mech", you, bf)?;
            }
            unit(&mut s.units, "Scrap Mech", opp, bf)?;
            unit(&mut s.units, "Practice Dummy", you, bf)?;
        }
        // Units to deal to and cards in hand to discard for the mandatory cost (356.2.a, 357.2).
        "Tithe Bolt" => {
            unit(&mut s.units, "Practice Dummy", opp, bf)?;
            unit(&mut s.units, "Sturdy Dummy", you, Location::Base(you))?;
            let p = &mut s.players[0];
            p.hand_other = p.hand_other.max(1 + (n % 2) as u8);
        }
        // Piercing Light: units at a battlefield for its first target and others for its "up to
        // one other unit" (355.8), one of them yours; sometimes one in a base as well.
        "Piercing Light" => {
            unit(&mut s.units, "Practice Dummy", opp, bf)?;
            unit(&mut s.units, "Sturdy Dummy", opp, bf)?;
            unit(&mut s.units, "Sturdy Dummy", you, bf)?;
            if n % 2 == 1 {
                unit(&mut s.units, "Practice Dummy", opp, Location::Base(opp))?;
            }
        }
        _ => {}
    }
    Ok(())
}
