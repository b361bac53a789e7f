//! Coverage goals: what a generated case's model run reached, as the generator counts it. A
//! goal is a rule clause the model cited at a step (its action's citation, its events', the
//! context's: what `check --coverage` counts), crossed with the kind and controller of the
//! item concerned and with whose things the step changed; a decision kind crossed with the item;
//! what a target was (whose, whose card, token, statuses, [Deflect]); a card put on the chain
//! by whom; and, for a case with an illegal statement, the rule that refuses it crossed with
//! the kind of statement. Goals are read from the model's run, never from the recipe.

use crate::case::ast::{Case, Expect, PlayStmt};
use model::action::Action;
use model::card::CardKind;
use model::coverage::{action_clauses, context_clauses, event_clauses};
use model::game::Game;
use model::state::{ChainItem, Combat, Obj, Player, State};
use std::collections::BTreeSet;

fn who(p: Player) -> &'static str {
    if p == Player::YOU {
        "you"
    } else {
        "opp"
    }
}

fn kind(k: CardKind) -> &'static str {
    match k {
        CardKind::Spell => "spell",
        CardKind::Unit => "unit",
        CardKind::Gear => "gear",
        CardKind::Battlefield => "battlefield",
        CardKind::Ability => "ability",
    }
}

/// The item a step concerns: the one being played, else the newest on the chain.
fn item(s: &State) -> Option<&ChainItem> {
    s.chain
        .iter()
        .find(|i| i.is_pending())
        .or_else(|| s.chain.last())
}

/// "spell of you", or "none".
fn item_words(game: &Game, s: &State) -> String {
    match item(s) {
        Some(i) => format!("{} of {}", kind(game.card(i.card).kind), who(i.controller)),
        None => "none".into(),
    }
}

/// Whose things (units, gear, hands, pools, decks, runes) a step changed.
fn affected(s: &State, n: &State) -> &'static str {
    let mut t = [false; 2];
    for (i, u) in n.units.iter().enumerate() {
        if s.units.get(i) != Some(u) {
            t[u.controller.ix()] = true;
        }
    }
    for (i, g) in n.gear.iter().enumerate() {
        if s.gear.get(i) != Some(g) {
            t[g.controller.ix()] = true;
        }
    }
    for (p, changed) in t.iter_mut().enumerate() {
        *changed |= s.players[p] != n.players[p];
    }
    match t {
        [true, true] => "both",
        [true, false] => "you",
        [false, true] => "opp",
        [false, false] => "nobody",
    }
}

/// A target as its restriction sees it: whose (from the chooser's side), what, and the
/// statuses and properties rules read.
fn target_words(game: &Game, s: &State, obj: Obj) -> String {
    let me = item(s).map(|i| i.controller).unwrap_or(Player::YOU);
    let rel = |p: Player| if p == me { "friendly" } else { "enemy" };
    match obj {
        Obj::Unit(n) => match s.units.get(usize::from(n)) {
            Some(u) => {
                let mut w = format!("{} unit", rel(u.controller));
                let flags = [
                    (u.owner != u.controller, "owned by the other player"),
                    (u.token, "token"),
                    (u.damage > 0, "damaged"),
                    (u.status.exhausted, "exhausted"),
                    (u.status.stunned, "stunned"),
                    (u.status.combat == Combat::Attacking, "attacking"),
                    (u.status.combat == Combat::Defending, "defending"),
                    (u.status.assault > 0, "with assault"),
                    (game.card(u.card).deflect() > 0, "with deflect"),
                ];
                for (on, f) in flags {
                    if on {
                        w.push_str(", ");
                        w.push_str(f);
                    }
                }
                w
            }
            None => "unit".into(),
        },
        Obj::Gear(n) => match s.gear.get(usize::from(n)) {
            Some(g) if g.exhausted => format!("{} gear, exhausted", rel(g.controller)),
            Some(g) => format!("{} gear", rel(g.controller)),
            None => "gear".into(),
        },
        Obj::Item(id) => match s.item(id) {
            Some(i) => format!(
                "{} {} item",
                rel(i.controller),
                kind(game.card(i.card).kind)
            ),
            None => "item".into(),
        },
    }
}

/// The goals one step reaches.
fn step_goals(game: &Game, s: &State, a: &Action, n: &State, out: &mut BTreeSet<String>) {
    let new = &n.log[s.log.len().min(n.log.len())..];
    let it = item_words(game, s);
    let on_ability = matches!(a, Action::DeclareRepeat { .. })
        && item(s).is_some_and(|i| game.card(i.card).kind == CardKind::Ability);
    let aff = affected(s, n);
    let clauses = action_clauses(a)
        .iter()
        .copied()
        .chain(new.iter().flat_map(|e| event_clauses(e).iter().copied()))
        .chain(context_clauses(new, on_ability));
    for c in clauses {
        out.insert(format!("rule {c}"));
        out.insert(format!("rule {c} | item {it} | changes {aff}"));
    }
    if a.is_decision() {
        out.insert(format!("decide {} | item {it}", a.words()));
    }
    if let Action::ChooseTarget { obj, .. } = a {
        out.insert(format!(
            "target {} | item {it}",
            target_words(game, s, *obj)
        ));
    }
    if let Action::MoveToChain { player, hand } = a {
        if let Some(c) = s.players[player.ix()].hand.get(usize::from(*hand)) {
            out.insert(format!("play {} by {}", game.card(*c).name, who(*player)));
        }
    }
    for i in n.chain.iter().filter(|i| s.item(i.id).is_none()) {
        out.insert(format!(
            "chain {} of {}",
            game.card(i.card).name,
            who(i.controller)
        ));
    }
}

/// The goals a model run reaches (its last pair is the final state with a placeholder action).
pub fn of_run(game: &Game, run: &[(State, Action)]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for w in run.windows(2) {
        step_goals(game, &w[0].0, &w[0].1, &w[1].0, &mut out);
    }
    out
}

/// The kind of a play statement, as the case format names it.
fn statement_kind(s: &PlayStmt) -> String {
    let d = format!("{s:?}");
    d.split([' ', '{', '('])
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The goal of a case's illegal statement: the rule refusing it, the kind of statement, and the
/// way it was made illegal (the injection's kind: each restriction, cost and limit broken).
pub fn of_illegal(case: &Case, how: u8) -> Option<String> {
    case.expects.iter().find_map(|e| match &e.stmt {
        Expect::Illegal { line, rule, .. } => {
            let stmt = case.plays.iter().find(|p| p.line == *line)?;
            Some(format!(
                "illegal {} | {} | way {how}",
                rule.as_deref().unwrap_or("?"),
                statement_kind(&stmt.stmt)
            ))
        }
        _ => None,
    })
}
