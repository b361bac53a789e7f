//! The board after a step, as the HTML report shows it beside the steps: both players' pools,
//! hands, decks and trashes; every unit with its Might and statuses; the gear; the chain with
//! each item's phase, [Repeat] instances and the choices of each execution; and the events so
//! far. Everything is read from the state itself.

use super::esc;
use model::card::RepeatCost;
use model::game::Game;
use model::state::{ChainItem, Combat, Phase, Pick, Player, State, Unit, Zone};
use std::fmt::Write as _;

/// A chain item's phase in the rules' words, with the rule of the step it is at.
pub fn phase(p: &Phase) -> String {
    match p {
        Phase::Choosing => "pending: making choices (355)".into(),
        Phase::Chosen => "pending: choices made, total cost next (356)".into(),
        Phase::Costed => "pending: cost determined, to pay (357)".into(),
        Phase::Paid => "pending: paid, legality next (358)".into(),
        Phase::Legal => "pending: legal, to finalize (359)".into(),
        Phase::Finalized => "finalized, waiting to resolve (359.3)".into(),
        Phase::Resolving { done } => format!("resolving: {done} execution(s) done (820.3)"),
        Phase::NewChoices { exec, for_item } => format!(
            "resolving, paused in execution {}: new choices for item {} (750–755)",
            exec + 1,
            for_item + 1
        ),
        Phase::Looking {
            exec, left, taking, ..
        } => format!(
            "resolving, paused in execution {}: looking at {left} card(s), {}",
            exec + 1,
            if *taking {
                "choosing one to draw"
            } else {
                "recycling the rest"
            }
        ),
        Phase::Discarding { exec, left, .. } => format!(
            "resolving, paused in execution {}: choosing {left} card(s) to discard (422)",
            exec + 1
        ),
        Phase::Demanding { exec, energy, .. } => format!(
            "resolving, paused in execution {}: asking for [{energy}] or counter",
            exec + 1
        ),
    }
}

fn zone(z: Zone) -> &'static str {
    match z {
        Zone::Board => "board",
        Zone::Trash => "trash",
        Zone::Hand => "hand",
    }
}

/// A unit's statuses in words: ready or exhausted, stunned, attacker or defender, [Assault].
fn statuses(u: &Unit) -> String {
    let s = u.status;
    let mut v = vec![if s.exhausted { "exhausted" } else { "ready" }.to_string()];
    if s.stunned {
        v.push("stunned".into());
    }
    match s.combat {
        Combat::Attacking => v.push("attacking".into()),
        Combat::Defending => v.push("defending".into()),
        Combat::None => {}
    }
    if s.assault > 0 {
        v.push(format!("[Assault {}]", s.assault));
    }
    if u.lethal() {
        v.push("lethal damage".into());
    }
    v.join(", ")
}

/// A unit's Might: current, and how it is made up when not just printed.
fn might(u: &Unit) -> String {
    let now = u.current_might();
    if now == u.might {
        return now.to_string();
    }
    format!(
        "{now} <span class=\"muted\">(printed {}{:+})</span>",
        u.might,
        i16::from(now) - i16::from(u.might)
    )
}

fn players(g: &Game, s: &State, o: &mut String) {
    o.push_str("<h4>Players</h4><table class=\"players\"><thead><tr><th></th><th>pool</th><th>hand</th><th class=\"num\">deck</th><th>trash</th><th class=\"num\">finalized</th></tr></thead><tbody>");
    for p in [Player::YOU, Player::OPP] {
        let ps = &s.players[p.ix()];
        let mut hand: Vec<String> = ps.hand.iter().map(|c| g.card(*c).name.clone()).collect();
        if ps.hand_other > 0 {
            hand.push(format!("{} other card(s)", ps.hand_other));
        }
        let mut trash: Vec<String> = ps.trash.iter().map(|c| g.card(*c).name.clone()).collect();
        if ps.trash_other > 0 {
            trash.push(format!("{} other card(s)", ps.trash_other));
        }
        let priority = if s.priority == Some(p) {
            " <span class=\"badge\">priority</span>"
        } else {
            ""
        };
        let _ = write!(
            o,
            "<tr data-cell=\"player\"><th>{p}{priority}</th><td data-cell=\"pool\" class=\"mono\">{}</td><td data-cell=\"hand\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
            esc(&ps.pool.to_string()),
            esc(&none_if_empty(&hand)),
            ps.deck_size(),
            esc(&none_if_empty(&trash)),
            ps.finalized_this_turn
        );
    }
    o.push_str("</tbody></table>");
}

fn none_if_empty(v: &[String]) -> String {
    if v.is_empty() {
        "—".into()
    } else {
        v.join(", ")
    }
}

fn units(g: &Game, s: &State, o: &mut String) {
    if s.units.is_empty() {
        o.push_str("<h4>Units</h4><p class=\"muted\">none</p>");
        return;
    }
    o.push_str("<h4>Units</h4><table class=\"units\"><thead><tr><th>#</th><th>unit</th><th>controller</th><th>where</th><th class=\"num\">Might</th><th class=\"num\">damage</th><th>status</th></tr></thead><tbody>");
    for (i, u) in s.units.iter().enumerate() {
        let name = if u.token {
            format!("{}-Might token", u.might)
        } else {
            g.card(u.card).name.clone()
        };
        let place = if u.zone == Zone::Board {
            u.loc.to_string()
        } else {
            zone(u.zone).to_string()
        };
        let _ = write!(
            o,
            "<tr data-cell=\"unit\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\" data-cell=\"might\">{}</td><td class=\"num\">{}</td><td data-cell=\"status\">{}</td></tr>",
            i + 1,
            esc(&name),
            u.controller,
            esc(&place),
            might(u),
            u.damage,
            if u.zone == Zone::Board {
                esc(&statuses(u))
            } else {
                "—".into()
            }
        );
    }
    o.push_str("</tbody></table>");
    if !s.gear.is_empty() {
        o.push_str("<h4>Gear</h4><table class=\"gear\"><thead><tr><th>#</th><th>gear</th><th>controller</th><th>where</th></tr></thead><tbody>");
        for (i, x) in s.gear.iter().enumerate() {
            let _ = write!(
                o,
                "<tr data-cell=\"gear\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                i + 1,
                esc(&g.card(x.card).name),
                x.controller,
                zone(x.zone)
            );
        }
        o.push_str("</tbody></table>");
    }
}

/// The choices of each execution of an item: its mode, targets and destinations.
fn executions(g: &Game, s: &State, item: &ChainItem) -> String {
    let n = item.executions(g.rules.executions_per_instance());
    let mut rows = vec![];
    for c in item.choices.iter() {
        let mut parts = vec![];
        if let Some(m) = c.mode.filter(|_| g.card(item.card).modes.len() > 1) {
            parts.push(format!("mode {}", m + 1));
        }
        for p in c.picks.iter() {
            match p {
                Pick::Target { obj, .. } => parts.push(g.obj_name(s, *obj)),
                Pick::EndTargets { .. } => parts.push("no more targets".into()),
                Pick::Destination { to, .. } => parts.push(format!("to {to}")),
            }
        }
        if !c.complete {
            parts.push("(choosing)".into());
        }
        rows.push(format!(
            "<li data-cell=\"execution\">{}</li>",
            esc(&none_if_empty(&parts))
        ));
    }
    format!(
        "{n} execution(s); choices of each:<ol class=\"events\">{}</ol>",
        rows.join("")
    )
}

fn repeat(item: &ChainItem) -> String {
    if item.repeat.is_empty() {
        return "—".into();
    }
    let v: Vec<String> = item
        .repeat
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let cost = match r.cost {
                RepeatCost::Pay(c) => c.to_string(),
                RepeatCost::Discard(n) => format!("discard {n}"),
            };
            let state = match (r.decided, r.paid) {
                (false, _) => "undecided".to_string(),
                (true, 0) => "not paid".to_string(),
                (true, 1) => "paid".to_string(),
                (true, k) => format!("paid {k} times"),
            };
            format!("{} {cost}: {state}", i + 1)
        })
        .collect();
    esc(&v.join("; "))
}

fn chain(g: &Game, s: &State, o: &mut String) {
    if s.chain.is_empty() {
        o.push_str("<h4>Chain</h4><p class=\"muted\">empty</p>");
        return;
    }
    o.push_str("<h4>Chain (newest last)</h4><table class=\"chain\"><thead><tr><th>item</th><th>controller</th><th>phase</th><th>[Repeat]</th><th>executions</th></tr></thead><tbody>");
    for item in s.chain.iter() {
        let _ = write!(
            o,
            "<tr data-cell=\"chain-item\"><td>{}</td><td>{}</td><td>{}</td><td class=\"mono\">{}</td><td>{}</td></tr>",
            esc(&g.item_name(s, item.id)),
            item.controller,
            esc(&phase(&item.phase)),
            repeat(item),
            executions(g, s, item)
        );
    }
    o.push_str("</tbody></table>");
}

fn events(g: &Game, s: &State, o: &mut String) {
    let lines: Vec<String> = s
        .log
        .iter()
        .filter_map(|e| g.describe_event(s, e))
        .collect();
    let _ = write!(o, "<h4>Events so far ({})</h4>", lines.len());
    if lines.is_empty() {
        o.push_str("<p class=\"muted\">none yet</p>");
        return;
    }
    o.push_str("<ol class=\"events\">");
    for l in lines {
        let _ = write!(o, "<li data-cell=\"event\">{}</li>", esc(&l));
    }
    o.push_str("</ol>");
}

/// The board of `s` as an HTML fragment: players, units and gear, the chain, the events.
pub fn board(g: &Game, s: &State) -> String {
    let mut o = String::new();
    players(g, s, &mut o);
    units(g, s, &mut o);
    chain(g, s, &mut o);
    events(g, s, &mut o);
    o
}
