//! The cards of a scenario with their text, so that a reader of a counterexample sees what each
//! card does without looking it up, and a legend for the symbols the boards use.

use super::esc;
use model::card::{CardDef, CardKind, RepeatCost};
use model::cost::Domain;
use model::game::Game;
use model::state::State;
use std::fmt::Write as _;

/// Every card a state shows (hands, the board, battlefields, the chain, named deck cards, trash),
/// each once, in that order.
fn cards_of(s: &State) -> Vec<model::card::CardId> {
    let mut ids = vec![];
    for p in &s.players {
        ids.extend(p.hand.iter().copied());
    }
    ids.extend(s.units.iter().map(|u| u.card));
    ids.extend(s.gear.iter().map(|g| g.card));
    ids.extend(s.battlefields.iter().filter_map(|b| b.card));
    ids.extend(s.chain.iter().map(|c| c.card));
    for p in &s.players {
        ids.extend(p.deck_top.iter().copied());
        ids.extend(p.trash.iter().copied());
    }
    let mut seen = vec![];
    ids.retain(|c| {
        let new = !seen.contains(c);
        seen.push(*c);
        new
    });
    ids
}

/// The card's text: as printed where the catalogue has it, else what the model gives it (its
/// modes and [Repeat] instances), labelled as such.
fn text(c: &CardDef) -> String {
    if !c.printed.text.is_empty() {
        return esc(&c.printed.text);
    }
    let mut parts: Vec<String> = vec![];
    let modes: Vec<&str> = c
        .modes
        .iter()
        .map(|m| m.text.as_str())
        .filter(|t| !t.is_empty())
        .collect();
    match modes.len() {
        0 => {}
        1 => parts.push(modes[0].to_string()),
        _ => parts.push(format!("Choose one — {}", modes.join(" / "))),
    }
    for r in &c.repeat {
        parts.push(match r {
            RepeatCost::Pay(cost) => format!("[Repeat] {cost}"),
            RepeatCost::Discard(n) => format!("[Repeat] — Discard {n}"),
        });
    }
    if parts.is_empty() {
        return "<span class=\"muted\">no text</span>".into();
    }
    format!(
        "{} <span class=\"muted\">(made up for the bound: the model's text, not a printed card)</span>",
        esc(&parts.join(". "))
    )
}

/// A table of the cards the scenario's start shows: name, kind, cost and text.
pub fn cards_table(g: &Game, start: &State) -> String {
    let mut o = String::from(
        "<details class=\"cards\" open=\"open\"><summary>The cards in this scenario</summary><table><thead><tr><th>card</th><th>kind</th><th>cost</th><th>text</th></tr></thead><tbody>",
    );
    for id in cards_of(start) {
        let c = g.card(id);
        let code = if c.code.is_empty() {
            String::new()
        } else {
            format!(" <span class=\"muted\">{}</span>", esc(&c.code))
        };
        let _ = write!(
            o,
            "<tr><td>{}{code}</td><td>{}</td><td class=\"mono\">{}</td><td>{}</td></tr>",
            esc(&c.name),
            match c.kind {
                CardKind::Unit => format!("unit, Might {}", c.might),
                k => k.word().to_string(),
            },
            esc(&c.cost.to_string()),
            text(c)
        );
    }
    o.push_str("</tbody></table></details>");
    o
}

/// What the symbols of the boards mean, read from the model's own domain letters.
pub fn legend() -> String {
    let letters: Vec<String> = Domain::ALL
        .iter()
        .map(|d| format!("{} {d:?}", d.letter()))
        .collect();
    format!(
        "<p class=\"note legend\"><b>Symbols:</b> a pool or cost is its Energy in brackets, then one \
         bracketed letter per Power: <span class=\"mono\">[2][R][B]</span> is 2 Energy, one Fury Power \
         and one Mind Power. Letters: {}; C one Power of the card's own domain (of one of them, for a \
         card of several), A one Power of any domain. \u{2716} marks the state where the property \
         fails.</p>",
        letters.join(", ")
    )
}
