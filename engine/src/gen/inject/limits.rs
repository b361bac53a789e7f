//! The injections that reach whole classes of limits and costs rather than one rule: a decision
//! stated once more than made (kind 18), a payment made with the other resource (19), one
//! more play than the turn allows (20), and a domain restriction of a cost paid with a domain
//! it does not allow (21).

use super::*;

/// Kind 18: a decision stated twice, right after itself (each limit exceeded by one).
pub(super) fn repeated(plays: &mut Vec<Line<PlayStmt>>, n: usize) -> Option<()> {
    let spots: Vec<usize> = plays
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            matches!(
                p.stmt,
                PlayStmt::Play { .. }
                    | PlayStmt::Activate { .. }
                    | PlayStmt::Repeat { pay: true, .. }
                    | PlayStmt::Optional { pay: true, .. }
                    | PlayStmt::Discard { .. }
                    | PlayStmt::PayWithUnit { .. }
                    | PlayStmt::Demand { pay: true }
                    | PlayStmt::Rune { .. }
                    | PlayStmt::Target { .. }
                    | PlayStmt::Pay { .. }
                    | PlayStmt::LookDraw { .. }
            )
        })
        .map(|(k, _)| k)
        .collect();
    let k = *spots.get(n % spots.len().max(1))?;
    let again = plays[k].stmt.clone();
    plays.insert(k + 1, Line::new(again));
    Some(())
}

/// Kind 19: a payment made with the other resource: a rune recycled for Power where it was
/// exhausted for Energy (or the reverse), or any-domain Power taken from the next domain.
pub(super) fn other_resource(plays: &mut [Line<PlayStmt>], n: usize) -> Option<()> {
    let spots: Vec<usize> = plays
        .iter()
        .enumerate()
        .filter(|(_, p)| match &p.stmt {
            PlayStmt::Rune { .. } => true,
            PlayStmt::Pay { any } => !any.is_empty(),
            _ => false,
        })
        .map(|(k, _)| k)
        .collect();
    let k = *spots.get(n % spots.len().max(1))?;
    match &mut plays[k].stmt {
        PlayStmt::Rune { how, .. } => {
            *how = match how {
                RuneUse::Exhaust => RuneUse::Recycle,
                RuneUse::Recycle => RuneUse::Exhaust,
            }
        }
        PlayStmt::Pay { any } => {
            let j = n % any.len();
            let d = model::cost::Domain::ALL;
            let at = d.iter().position(|x| *x == any[j]).unwrap_or(0);
            any[j] = d[(at + 1 + n % 5) % d.len()];
        }
        _ => return None,
    }
    Some(())
}

/// Kind 20: one more play than the turn allows: before the turn ends, a card of yours still in
/// hand played (or a gear already activated activated again).
pub(super) fn one_more_play(
    game: &Game,
    setup: &Setup,
    plays: &mut Vec<Line<PlayStmt>>,
    n: usize,
) -> Option<()> {
    let end = plays
        .iter()
        .position(|p| matches!(p.stmt, PlayStmt::EndTurn))?;
    let mut left: Vec<String> = setup.players[0]
        .hand
        .iter()
        .map(|c| game.card(*c).name.clone())
        .collect();
    let mut again = vec![];
    for p in &plays[..end] {
        match &p.stmt {
            PlayStmt::Play { player, card } if *player == Player::YOU => {
                if let Some(i) = left.iter().position(|c| c.eq_ignore_ascii_case(card)) {
                    left.remove(i);
                }
            }
            PlayStmt::Activate { player, object } if *player == Player::YOU => {
                again.push(PlayStmt::Activate {
                    player: *player,
                    object: object.clone(),
                });
            }
            _ => {}
        }
    }
    let options: Vec<PlayStmt> = left
        .into_iter()
        .map(|card| PlayStmt::Play {
            player: Player::YOU,
            card,
        })
        .chain(again)
        .collect();
    let stmt = options.get(n % options.len().max(1))?.clone();
    plays.insert(end, Line::new(stmt));
    Some(())
}

/// Kind 21: one domain of a player's Power, in the pool or on runes, renamed to a domain no card
/// of the case has (all of it, or one Power or rune of it), with the statements that name it
/// (`rune` lines, the domains `pay any` chooses). Where no cost component names that domain the
/// case stays as it was; where one does (a card's own [C], an [Accelerate] or [Repeat] Power of
/// its domain, a multi-domain card's [C]) it is now short of it: every domain restriction of a
/// cost is paid once with a domain it does not allow. Kept only when the model then refuses a
/// statement or undoes a play it did not undo before.
pub(super) fn other_domain(game: &Game, setup: &Setup, case: &Case, n: usize) -> Option<Case> {
    use model::cost::Domain;
    // Every (board line, domain) with Power to rename, of a domain some cost of a card played
    // names: renaming another changes nothing a cost restricts.
    let mut in_costs = [false; 6];
    for p in &case.plays {
        let PlayStmt::Play { card, .. } = &p.stmt else {
            continue;
        };
        let Some(def) = game.card_named(card).map(|c| game.card(c)) else {
            continue;
        };
        let repeat = def.repeat.iter().filter_map(|r| match r {
            model::card::RepeatCost::Pay(c) => Some(c),
            _ => None,
        });
        let optional = def.optional_costs.iter().map(|o| &o.cost);
        for c in std::iter::once(&def.cost).chain(repeat).chain(optional) {
            for (d, named) in in_costs.iter_mut().enumerate() {
                *named |=
                    c.power[d] > 0 || (c.own > 0 && def.domains.iter().any(|x| *x as usize == d));
            }
        }
    }
    let mut spots = vec![];
    for (k, b) in case.board.iter().enumerate() {
        let have: [bool; 6] = match &b.stmt {
            BoardStmt::Pool(_, c) => std::array::from_fn(|d| c.power[d] > 0),
            BoardStmt::Runes(_, r) => std::array::from_fn(|d| {
                r.ready[d] + r.exhausted[d] > 0 || r.deck.contains(&Domain::ALL[d])
            }),
            _ => continue,
        };
        spots.extend((0..6).filter(|&d| have[d] && in_costs[d]).map(|d| (k, d)));
    }
    // From the place `n` names on, the first domain whose renaming the model refuses or undoes:
    // a case's pools hold several domains, and only the ones its costs name can break one.
    let all = n.is_multiple_of(2);
    (0..spots.len())
        .map(|i| spots[(n / 2 + i) % spots.len()])
        .find_map(|(k, d)| renamed(game, setup, case, (k, d), all, n))
}

/// `case` with domain `d` of board line `k` renamed (all of it, or one Power or rune), if the
/// model then refuses a statement or undoes a play it did not before.
fn renamed(
    game: &Game,
    setup: &Setup,
    case: &Case,
    (k, d): (usize, usize),
    all: bool,
    n: usize,
) -> Option<Case> {
    use model::cost::Domain;
    // A domain no card in the case has (hands, board, the chain's cards), else the next one.
    let mut named = [false; 6];
    let cards = setup
        .players
        .iter()
        .flat_map(|p| p.hand.iter().chain(&p.deck_top));
    let on_board = setup.units.iter().map(|u| &u.card);
    for c in cards.chain(on_board) {
        for dom in &game.card(*c).domains {
            named[*dom as usize] = true;
        }
    }
    let other = (1..6)
        .map(|i| (d + i + n / 2) % 6)
        .filter(|&x| x != d)
        .find(|&x| !named[x])
        .unwrap_or((d + 1) % 6);
    let (from, to) = (Domain::ALL[d], Domain::ALL[other]);
    let mut out = case.clone();
    let mut s2 = setup.clone();
    let moved = |count: &mut [u8; 6]| {
        let m = if all { count[d] } else { count[d].min(1) };
        count[d] -= m;
        count[other] = count[other].saturating_add(m);
        m
    };
    match &mut out.board[k].stmt {
        BoardStmt::Pool(p, c) => {
            moved(&mut c.power);
            s2.players[p.ix()].pool = *c;
        }
        BoardStmt::Runes(p, r) => {
            // One rune: a ready one if there is one, else an exhausted one, else in the deck.
            let mut m = moved(&mut r.ready);
            if all || m == 0 {
                m += moved(&mut r.exhausted);
            }
            let mut left = if all { usize::MAX } else { usize::from(m == 0) };
            for x in r.deck.iter_mut().filter(|x| **x == from) {
                if left > 0 {
                    *x = to;
                    left -= 1;
                }
            }
            s2.players[p.ix()].runes = Some(r.clone());
        }
        _ => return None,
    }
    // The statements naming the renamed Power: every one when all of it moved, else the first.
    let mut left = if all { usize::MAX } else { 1 };
    for p in &mut out.plays {
        let names = match &mut p.stmt {
            PlayStmt::Rune { domain, .. } if *domain == from => domain,
            PlayStmt::Pay { any } => match any.iter_mut().find(|x| **x == from) {
                Some(x) => x,
                None => continue,
            },
            _ => continue,
        };
        if left > 0 {
            *names = to;
            left -= 1;
        }
    }
    let before = undone_or_refused(case);
    let out = with_expectations(out, &s2, None).ok()?;
    (undone_or_refused(&out) > before).then_some(out)
}

/// How many plays a case's expectations undo for want of payment, with a refused statement
/// counted as 100 plays (a refusal ends the case, so it weighs more than any undone play).
fn undone_or_refused(case: &Case) -> usize {
    case.expects
        .iter()
        .map(|e| match &e.stmt {
            Expect::Illegal { .. } => 100,
            Expect::Cancelled(_, Some(model::state::CancelWhy::CannotPay)) => 1,
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use rbcheck_case::ast::{BoardStmt, Expect};

    /// [Accelerate]'s [1][C] on a Fury unit, paid from a pool whose only Power is Fury: with
    /// that Power renamed to another domain the play is undone for want of payment, so the
    /// `pay` after it is refused (358.5).
    #[test]
    fn a_domain_renamed_undoes_a_play_whose_accelerate_needs_it() {
        let text = "rbcheck-case 1\nrules rup4\n\nbattlefield 1 controller you\n\
            pool you [3][R]\nhand you \"Legion Rearguard\"\n\nyou play \"Legion Rearguard\"\n\
            optional 1 pay\nlocation battlefield 1\npay\n\nexpect legal\n";
        let case = rbcheck_case::parse(text).unwrap();
        let rules = rbcheck_case::replay::rulebook(&case, None).unwrap();
        let game = model::game::Game::new(rules, model::catalogue::Catalogue::builtin().cards);
        let (setup, _) = rbcheck_case::replay::setup(&game, &case).unwrap();
        let out = super::inject(&game, &setup, &case, super::OTHER_DOMAIN, 0).unwrap();
        let pool = out.board.iter().find_map(|b| match &b.stmt {
            BoardStmt::Pool(_, c) => Some(*c),
            _ => None,
        });
        assert_eq!(pool.unwrap().power[model::cost::Domain::Fury as usize], 0);
        assert!(
            out.expects.iter().any(|e| matches!(
                &e.stmt,
                Expect::Illegal { rule: Some(r), .. } if r == "358.5"
            )),
            "{}",
            rbcheck_case::print(&out)
        );
        let goals = crate::gen::goals::of_other_domain(&game, &case, &out, super::OTHER_DOMAIN);
        assert_eq!(goals.len(), 1, "{goals:?}");
        assert!(goals[0].starts_with("illegal 358.5 | Pay"), "{goals:?}");
        assert!(
            goals[0].contains("Legion Rearguard EnterReady"),
            "{goals:?}"
        );
        // Without a cost naming the domain, nothing is injected.
        let plain = text.replace("optional 1 pay", "optional 1 skip");
        let case = rbcheck_case::parse(&plain).unwrap();
        let (setup, _) = rbcheck_case::replay::setup(&game, &case).unwrap();
        assert!(super::inject(&game, &setup, &case, super::OTHER_DOMAIN, 0).is_none());
    }
}
