//! Shrinking a finding: smaller candidate cases of the same cause (or fault), tried until
//! none is smaller.

use super::*;

/// A case of a finding with what the engine did on it.
pub(super) struct Shrunk {
    /// The case.
    pub(super) case: Case,
    /// Its differences (for a fault: none).
    pub(super) differences: Vec<Difference>,
    /// For a fault: what happened.
    pub(super) fault: Option<String>,
    /// What triage says of this case (for a fault: of the statement the rules refuse, if any).
    pub(super) cause: Option<Cause>,
}

/// The case as a finding's case, if `o` shows the symptom `family` (the first difference's
/// kind, or the fault's): a shrink keeps the symptom, and the cause is read on the case it
/// ends with, where what does not matter to the symptom is gone.
fn same(o: Outcome, case: Option<Case>, family: &str) -> Option<Shrunk> {
    if o.symptom() != family {
        return None;
    }
    let case = case?;
    match o {
        Outcome::Disagree(c, cause) => Some(Shrunk {
            case,
            differences: c.differences,
            fault: None,
            cause: Some(cause),
        }),
        Outcome::Fault(_, m, cause) => Some(Shrunk {
            case,
            differences: vec![],
            fault: Some(m),
            cause,
        }),
        _ => None,
    }
}

/// Simpler variants of a recipe's starting position: a unit, a gear or a card in hand left
/// out, a player's extras (named deck cards, runes, grants, near-victory, other cards) dropped,
/// one play per turn, no showdown, a generated spell with fewer instances or modes. The walk
/// keeps its seed; the variant is kept only if its case still shows the same cause.
fn recipe_candidates(r: &Recipe) -> Vec<Recipe> {
    let mut out = vec![];
    let s = &r.setup;
    let mut with = |f: &dyn Fn(&mut Recipe)| {
        let mut c = r.clone();
        f(&mut c);
        if c.setup != r.setup || c.generated != r.generated || c.inject != r.inject {
            out.push(c);
        }
    };
    for j in 0..s.units.len() {
        if s.attack_trigger.is_some_and(|t| usize::from(t) == j) {
            continue;
        }
        with(&|c| {
            c.setup.units.remove(j);
            if let Some(t) = &mut c.setup.attack_trigger {
                if usize::from(*t) > j {
                    *t -= 1;
                }
            }
        });
    }
    for j in 0..s.gear.len() {
        with(&|c| {
            c.setup.gear.remove(j);
        });
    }
    for j in 0..s.players[1].hand.len() {
        with(&|c| {
            c.setup.players[1].hand.remove(j);
        });
    }
    for j in 1..s.players[0].hand.len() {
        with(&|c| {
            c.setup.players[0].hand.remove(j);
        });
    }
    for p in 0..2 {
        with(&|c| c.setup.players[p].deck_top.clear());
        with(&|c| c.setup.players[p].runes = None);
        with(&|c| {
            let ps = &mut c.setup.players[p];
            (ps.portal_charged, ps.academy_charged, ps.near_victory) = (false, false, false);
        });
        with(&|c| (c.setup.players[p].hand_other, c.setup.players[p].deck) = (0, 0));
    }
    with(&|c| c.setup.turn = Default::default());
    with(&|c| c.setup.battlefields = vec![Default::default(); 2]);
    with(&|c| {
        c.setup.showdown = false;
        c.setup.showdown_at = None;
        for u in &mut c.setup.units {
            u.status.combat = Default::default();
            u.status.assault = 0;
        }
    });
    if let Some(g) = &r.generated {
        for j in 0..g.repeat.len() {
            with(&|c| {
                c.generated.as_mut().map(|g| g.repeat.remove(j));
            });
        }
        for j in 0..g.modes.len().saturating_sub(1) {
            with(&|c| {
                if let Some(g) = c.generated.as_mut() {
                    g.modes.remove(j);
                    g.distinct_modes &= g.modes.len() > 1;
                }
            });
        }
    }
    out
}

/// Shrinks a failing recipe while the engine still diverges for the same cause: simpler
/// starting positions whose cases are no larger and show the same symptom; returns the smallest
/// recipe and its case.
pub(super) fn shrink(
    checker: &mut Checker,
    recipe: &Recipe,
    case: Case,
    kind: &str,
    steps: usize,
) -> (Recipe, Option<Shrunk>) {
    let mut best = recipe.clone();
    let (o, _) = (checker.outcome_of(&case), ());
    let mut best_case: Option<Shrunk> = same(o, Some(case), kind);
    let size = |c: &Option<Shrunk>| c.as_ref().map(|s| size(&s.case)).unwrap_or(usize::MAX);
    let mut n = 0;
    'outer: loop {
        for cand in recipe_candidates(&best) {
            if n >= steps {
                break 'outer;
            }
            n += 1;
            let (o, case) = checker.outcome(&cand);
            // `same` keeps the symptom, as the first case showed it.
            let entry = same(o, case, kind);
            if entry.is_some() && size(&entry) <= size(&best_case) {
                best = cand;
                best_case = entry;
                continue 'outer;
            }
        }
        break;
    }
    (best, best_case)
}

/// Gives units and gear the labels `u1`, `u2`, ... and `g1`, `g2`, ... in board order, and
/// renames them in the plays.
pub(super) fn relabel(case: &mut Case) {
    use rbcheck_case::ast::{BoardStmt, ObjRef};
    let mut map = std::collections::HashMap::new();
    let (mut u, mut g) = (0, 0);
    for b in &mut case.board {
        match &mut b.stmt {
            BoardStmt::Unit(unit) => {
                u += 1;
                map.insert(unit.label.clone(), format!("u{u}"));
                unit.label = format!("u{u}");
            }
            BoardStmt::Gear { label, .. } => {
                g += 1;
                map.insert(label.clone(), format!("g{g}"));
                *label = format!("g{g}");
            }
            _ => {}
        }
    }
    for b in &mut case.board {
        if let BoardStmt::Attack(l) = &mut b.stmt {
            if let Some(n) = map.get(l) {
                *l = n.clone();
            }
        }
    }
    for p in &mut case.plays {
        if let PlayStmt::Target {
            obj: ObjRef::Label(l),
            ..
        } = &mut p.stmt
        {
            if let Some(n) = map.get(l) {
                *l = n.clone();
            }
        }
    }
}

/// The case without each of its plays in turn: the statements from a `play` or an `activate`
/// up to the next one (or `end turn`), with its decisions and passes; and without each chain
/// from such a statement to the `close` that resolves it (responses included). A play an
/// earlier one made possible, or one a later play needs, leaves a case the rules refuse
/// elsewhere, and that candidate simply does not keep the symptom.
fn fewer_plays(case: &Case) -> Vec<Case> {
    let starts = |s: &PlayStmt| matches!(s, PlayStmt::Play { .. } | PlayStmt::Activate { .. });
    let n = case.plays.len();
    let after = |from: usize, end: &dyn Fn(&PlayStmt) -> bool| {
        case.plays[from + 1..]
            .iter()
            .position(|p| end(&p.stmt))
            .map(|k| from + 1 + k)
    };
    let mut spans: Vec<(usize, usize)> = vec![];
    for from in (0..n).filter(|&k| starts(&case.plays[k].stmt)) {
        let play = after(from, &|s| starts(s) || *s == PlayStmt::EndTurn).unwrap_or(n);
        let chain = after(from, &|s| *s == PlayStmt::Close).map_or(n, |k| k + 1);
        for to in [play, chain] {
            if (from, to) != (0, n) && !spans.contains(&(from, to)) {
                spans.push((from, to));
            }
        }
    }
    spans
        .into_iter()
        .map(|(from, to)| {
            let mut c = case.clone();
            c.plays.drain(from..to);
            c
        })
        .collect()
}

/// Smaller variants of a case: one play fewer (`fewer_plays`), a board statement dropped, a
/// pool emptied of one kind of resource, fewer cards, no damage.
pub(super) fn case_candidates(case: &Case) -> Vec<Case> {
    use rbcheck_case::ast::{BoardStmt, UnitStmt};
    let mut out = fewer_plays(case);
    for j in 0..case.board.len() {
        let mut c = case.clone();
        c.board.remove(j);
        relabel(&mut c);
        out.push(c);
    }
    for (j, b) in case.board.iter().enumerate() {
        let mut variants: Vec<BoardStmt> = vec![];
        match &b.stmt {
            BoardStmt::Pool(p, cost) => {
                if cost.energy > 0 {
                    let mut c = *cost;
                    c.energy = 0;
                    variants.push(BoardStmt::Pool(*p, c));
                    c.energy = cost.energy / 2;
                    variants.push(BoardStmt::Pool(*p, c));
                    c.energy = cost.energy - 1;
                    variants.push(BoardStmt::Pool(*p, c));
                }
                for d in 0..6 {
                    if cost.power[d] > 0 {
                        let mut c = *cost;
                        c.power[d] = 0;
                        variants.push(BoardStmt::Pool(*p, c));
                        c.power[d] = cost.power[d] - 1;
                        variants.push(BoardStmt::Pool(*p, c));
                    }
                }
            }
            BoardStmt::OtherCards(p, n) if *n > 1 => {
                variants.push(BoardStmt::OtherCards(*p, n - 1))
            }
            BoardStmt::Deck(p, n) if *n > 1 => variants.push(BoardStmt::Deck(*p, n / 2)),
            BoardStmt::Unit(u) if u.damage > 0 => variants.push(BoardStmt::Unit(UnitStmt {
                damage: 0,
                ..u.clone()
            })),
            _ => {}
        }
        for v in variants {
            let mut c = case.clone();
            c.board[j].stmt = v;
            out.push(c);
        }
    }
    out
}

/// Shrinks a case while the engine still shows the same symptom.
pub(super) fn shrink_case(
    checker: &mut Checker,
    start: Shrunk,
    kind: &str,
    steps: usize,
) -> Shrunk {
    let mut best = start;
    let mut n = 0;
    'outer: loop {
        for cand in case_candidates(&best.case) {
            if n >= steps {
                break 'outer;
            }
            n += 1;
            let Ok(cand) = rbcheck_case::parse(&rbcheck_case::print(&Case {
                checkpoints: vec![],
                expects: vec![],
                ..cand
            })) else {
                continue;
            };
            let o = checker.outcome_of(&cand);
            if let Some(found) = same(o, Some(cand.clone()), kind) {
                if let Ok(with) = with_header(&cand, best.case.header.clone()) {
                    best = Shrunk {
                        case: with,
                        ..found
                    };
                    continue 'outer;
                }
            }
        }
        break;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each play can go, alone or with the chain its `close` resolves; a case of one play
    /// has nothing to drop.
    #[test]
    fn a_case_loses_one_play_or_one_chain_at_a_time() {
        let case = rbcheck_case::parse(
            "rbcheck-case 1\nrules rup4\n\n\
             unit u1 \"Taxing Warden\" opponent battlefield 2\n\
             gear g1 \"Temporal Portal\" you\n\
             pool you [P]\nhand you \"Vanishing Bolt\"\nhand you \"Blood Rush\"\n\
             turn plays 3 end-turn\n\n\
             you activate g1\npay any P\nclose\n\
             you play \"Vanishing Bolt\"\nrepeat 1 skip\nrepeat 2 skip\nexec 1 target 1 u1\n\
             you play \"Blood Rush\"\nclose\n\
             end turn\n",
        )
        .expect("a case");
        let kept = |c: &Case| -> Vec<String> {
            c.plays
                .iter()
                .map(|p| rbcheck_case::print::play_stmt(&p.stmt))
                .collect()
        };
        let got: Vec<Vec<String>> = fewer_plays(&case).iter().map(kept).collect();
        let all = kept(&case);
        let without = |from: usize, to: usize| -> Vec<String> {
            all.iter()
                .enumerate()
                .filter(|(k, _)| *k < from || *k >= to)
                .map(|(_, s)| s.clone())
                .collect()
        };
        assert_eq!(
            got,
            vec![without(0, 3), without(3, 7), without(3, 9), without(7, 9)],
            "{all:?}"
        );
        let one = rbcheck_case::parse(
            "rbcheck-case 1\nrules rup4\n\npool you [P]\nhand you \"Blood Rush\"\n\n\
             you play \"Blood Rush\"\n",
        )
        .expect("a case");
        assert!(fewer_plays(&one).is_empty());
    }
}
