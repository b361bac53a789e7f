//! Coverage goals: what a generated case's model run reached, as the generator counts it. A
//! goal is a rule clause the model cited at a step (its action's citation, its events', the
//! context's: what `check --coverage` counts), crossed with the kind and controller of the
//! item concerned and with whose things the step changed; a decision kind crossed with the item;
//! what a target was (whose, whose card, token, statuses, [Deflect]); a card put on the chain
//! by whom; and, for a case with an illegal statement, the rule that refuses it crossed with
//! the kind of statement. Goals are read from the model's run, never from the recipe.

use model::action::Action;
use model::card::CardKind;
use model::card::{CardDef, RepeatCost};
use model::cost::Cost;
use model::coverage::{action_clauses, context_clauses, event_clauses};
use model::game::Game;
use model::state::CancelWhy;
use model::state::{ChainItem, Combat, Obj, Player, State};
use rbcheck_case::ast::{BoardStmt, Case, Expect, PlayStmt};
use std::collections::BTreeSet;

fn who(p: Player) -> &'static str {
    if p == Player::YOU {
        "you"
    } else {
        "opp"
    }
}

/// The item a step concerns: the one being played, else the newest on the chain.
pub fn item(s: &State) -> Option<&ChainItem> {
    s.chain
        .iter()
        .find(|i| i.is_pending())
        .or_else(|| s.chain.last())
}

/// "spell of you", or "none".
fn item_words(game: &Game, s: &State) -> String {
    match item(s) {
        Some(i) => format!("{} of {}", game.card(i.card).kind.word(), who(i.controller)),
        None => "none".into(),
    }
}

/// Whose things (units, gear, hands, pools, decks, runes) a step changed: `you`, `opp`, `both`
/// or `nobody`.
pub fn affected(s: &State, n: &State) -> &'static str {
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
        // What the item chose, from the same side: restrictions read it ("chooses a friendly
        // unit or gear", "chooses it and no other friendly unit").
        Obj::Item(id) => match s.item(id) {
            Some(i) => {
                let mut chose: Vec<String> = i
                    .choices
                    .iter()
                    .flat_map(|ex| ex.objects())
                    .map(|o| match o {
                        Obj::Unit(n) => s.units.get(usize::from(n)).map(|u| (u.controller, "unit")),
                        Obj::Gear(n) => s.gear.get(usize::from(n)).map(|g| (g.controller, "gear")),
                        Obj::Item(_) => None,
                    })
                    .map(|w| match w {
                        Some((p, what)) => format!("{} {what}", rel(p)),
                        None => "item".into(),
                    })
                    .collect();
                chose.sort();
                chose.dedup();
                let chose = match chose.is_empty() {
                    true => "nothing".to_string(),
                    false => chose.join(" and "),
                };
                format!(
                    "{} {} item choosing {chose}",
                    rel(i.controller),
                    game.card(i.card).kind.word()
                )
            }
            None => "item".into(),
        },
    }
}

/// The rule clauses the step from `s` by `a` to `n` applies: its action's citation, its new
/// events' and the context's (what `check --coverage` counts), each once.
pub fn step_clauses(game: &Game, s: &State, a: &Action, n: &State) -> Vec<&'static str> {
    let new = &n.log[s.log.len().min(n.log.len())..];
    let on_ability = matches!(a, Action::DeclareRepeat { .. })
        && item(s).is_some_and(|i| game.card(i.card).kind == CardKind::Ability);
    let mut out: Vec<&'static str> = vec![];
    let all = action_clauses(a)
        .iter()
        .copied()
        .chain(new.iter().flat_map(|e| event_clauses(e).iter().copied()))
        .chain(context_clauses(new, on_ability));
    for c in all {
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The goals one step reaches.
fn step_goals(game: &Game, s: &State, a: &Action, n: &State, out: &mut BTreeSet<String>) {
    let it = item_words(game, s);
    let aff = affected(s, n);
    for c in step_clauses(game, s, a, n) {
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
        // Where its [Repeat] instances came from, as a multiset: printed, granted (one per
        // grant: two Portal activations are two), a unit's. Each mix is a goal of its own.
        if !i.repeat.is_empty() {
            let mut from: Vec<String> = i
                .repeat
                .iter()
                .map(|r| format!("{:?}", r.origin).to_lowercase())
                .collect();
            from.sort();
            out.insert(format!(
                "instances {} | {}",
                game.card(i.card).kind.word(),
                from.join(" + ")
            ));
        }
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

/// Power of each domain on a case's board, in pools and on runes (ready, exhausted, in the deck).
fn power_on_board(case: &Case) -> [u32; 6] {
    let mut p = [0u32; 6];
    for b in &case.board {
        match &b.stmt {
            BoardStmt::Pool(_, c) => (0..6).for_each(|d| p[d] += u32::from(c.power[d])),
            BoardStmt::Runes(_, r) => {
                (0..6).for_each(|d| p[d] += u32::from(r.ready[d]) + u32::from(r.exhausted[d]));
                r.deck.iter().for_each(|d| p[*d as usize] += 1);
            }
            _ => {}
        }
    }
    p
}

/// Whether a cost names Power of domain `d`: as that domain, or as a multi-domain card's [C].
fn names(cost: &Cost, d: usize, def: &CardDef) -> bool {
    cost.power[d] > 0 || (cost.own > 0 && def.domains.iter().any(|x| *x as usize == d))
}

/// The goal of a case paid with Power of another domain (`injected` made from `legal` by
/// injection `way`): what the model made of it (the refusal's rule and statement, or a play
/// undone for want of payment) crossed with the cost components of the cards played that name
/// the domain taken away and were paid (printed, [Repeat], an optional cost such as
/// [Accelerate]), one goal each, so that each domain restriction of each card is a goal of its
/// own whatever else the case plays.
pub fn of_other_domain(game: &Game, legal: &Case, injected: &Case, way: u8) -> Vec<String> {
    let what = of_illegal(injected, way).or_else(|| {
        injected.expects.iter().find_map(|e| match &e.stmt {
            Expect::Cancelled(_, Some(CancelWhy::CannotPay)) => {
                Some(format!("undone 358.5 cannot-pay | way {way}"))
            }
            _ => None,
        })
    });
    let (was, now) = (power_on_board(legal), power_on_board(injected));
    let (Some(what), Some(taken)) = (what, (0..6).find(|&d| now[d] < was[d])) else {
        return vec![];
    };
    let mut parts: Vec<String> = vec![];
    let mut card: Option<&CardDef> = None;
    for p in &injected.plays {
        let part = match (&p.stmt, card) {
            (PlayStmt::Play { card: name, .. }, _) => {
                card = game.card_named(name).map(|c| game.card(c));
                card.filter(|d| names(&d.cost, taken, d))
                    .map(|d| format!("{} printed", d.name))
            }
            (
                PlayStmt::Repeat {
                    pay: true,
                    instance,
                },
                Some(d),
            ) => match d.repeat.get(usize::from(*instance).wrapping_sub(1)) {
                Some(RepeatCost::Pay(c)) if names(c, taken, d) => {
                    Some(format!("{} [Repeat]", d.name))
                }
                _ => None,
            },
            (PlayStmt::Optional { pay: true, index }, Some(d)) => d
                .optional_costs
                .get(usize::from(*index).wrapping_sub(1))
                .filter(|o| names(&o.cost, taken, d))
                .map(|o| format!("{} {:?}", d.name, o.rider)),
            _ => None,
        };
        parts.extend(part);
    }
    parts.sort();
    parts.dedup();
    if parts.is_empty() {
        parts.push("no cost paid names the domain".into());
    }
    parts.into_iter().map(|p| format!("{what} | {p}")).collect()
}
