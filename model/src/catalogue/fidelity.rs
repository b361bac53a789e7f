//! Catalogue fidelity: a printed card carries its printed text, and every part of that
//! text is accounted for: by a mode's text (its instructions model it), by `modelled_text` (its
//! abilities or discount model it), by a keyword the card's fields model ([Action], [Reaction],
//! [Repeat] and its costs, [Deflect]), or by an `unmodelled` entry, which reports list. Whatever
//! is left is an error at load, so no card silently stands in for a text the model cannot express.

use crate::card::{CardDef, RepeatCost, Timing};

/// The text in the form parts are compared: lower case, `[M]` spelled "Might", one space
/// between words.
fn norm(t: &str) -> String {
    t.to_lowercase()
        .replace("[m]", "might")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Removes the first occurrence of `part` from `rest`; false if it is not there.
fn take(rest: &mut String, part: &str) -> bool {
    match rest.find(part) {
        Some(i) => {
            rest.replace_range(i..i + part.len(), " ");
            true
        }
        None => false,
    }
}

/// Checks that every part of `def`'s printed text is accounted for. A card with a set code must
/// carry its printed text; cards made up for boards and probes carry none.
pub(super) fn check(def: &CardDef) -> Result<(), String> {
    let p = &def.printed;
    if p.text.is_empty() {
        if !def.code.is_empty() {
            return Err(format!(
                "a printed card ({}) needs `printed`: its text as printed (digest §7)",
                def.code
            ));
        }
        if !p.unmodelled.is_empty() || !p.modelled.is_empty() {
            return Err("`unmodelled` and `modelled_text` need `printed`".into());
        }
        return Ok(());
    }
    // Optional and additional costs other than [Repeat] are modelled by the card's cost fields
    // (Accelerate, Clockwork Keeper's "[G] ... draw 1"): they may claim text too.
    if !p.modelled.is_empty()
        && def.abilities.is_empty()
        && def.discount.is_none()
        && def.optional_costs.is_empty()
        && def.additional_costs.is_empty()
    {
        return Err(
            "`modelled_text` claims text for abilities, a discount or additional costs the card does not have".into(),
        );
    }
    let mut rest = norm(&p.text);
    for (field, parts) in [
        ("unmodelled", &p.unmodelled),
        ("modelled_text", &p.modelled),
    ] {
        for part in parts {
            if !take(&mut rest, &norm(part)) {
                return Err(format!(
                    "`{field}` entry \"{part}\" is not in the printed text"
                ));
            }
        }
    }
    for m in &def.modes {
        let t = norm(&m.text);
        if !t.is_empty() && !take(&mut rest, &t) {
            return Err(format!(
                "the mode text \"{}\" is not in the printed text \"{}\"",
                m.text, p.text
            ));
        }
    }
    leftover(def, &rest)
}

/// What may remain once the claimed parts are gone: punctuation, and the keywords and words the
/// card's own fields model. Anything else is a part of the text nothing accounts for.
fn leftover(def: &CardDef, rest: &str) -> Result<(), String> {
    let mut allowed: Vec<String> = vec![];
    match def.timing {
        Timing::Action => allowed.push("[action]".into()),
        Timing::Reaction => allowed.push("[reaction]".into()),
        Timing::Normal => {}
    }
    if !def.repeat.is_empty() {
        allowed.push("[repeat]".into());
        for r in &def.repeat {
            match r {
                RepeatCost::Pay(c) => allowed.push(norm(&c.to_string())),
                RepeatCost::Discard(n) => allowed.extend(["discard".into(), n.to_string()]),
            }
        }
    }
    match def.deflect() {
        0 => {}
        1 => allowed.push("[deflect]".into()),
        n => allowed.push(format!("[deflect {n}]")),
    }
    if def.is_modal() {
        let words = ["choose", "one", "you", "haven't", "already", "chosen"];
        allowed.extend(words.iter().map(|w| w.to_string()));
    }
    let mut rest = rest.to_string();
    // Longest first, so that "[1][a]" goes before "[1]".
    allowed.sort_by_key(|a| std::cmp::Reverse(a.len()));
    for a in &allowed {
        while take(&mut rest, a) {}
    }
    let punct: &[char] = &['.', ',', ';', ':', '—', '-', '/', '(', ')', '"'];
    let left: String = rest
        .split_whitespace()
        .map(|w| w.trim_matches(punct))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if left.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the printed text's part \"{left}\" is neither modelled nor listed in `unmodelled` (a card whose text the model cannot express must say so)"
    ))
}
