//! A refused statement named by the reason given for refusing it: the model's (the rule it
//! applies there, always a cause), or the engine's where it refuses what the rules allow (the
//! rule it applies where it does not apply, when that rule is one the model knows and says more
//! than "not now").

use super::Cause;
use crate::clauses::clauses_of;
use crate::protocol::IllegalObs;
use model::coverage::{clause_index, CLAUSES};

/// Reasons that say only that the engine's state has already left the model's (whose priority
/// it is, whether the chain or the turn can go on) or that a cost was not met: where the run
/// shows, not why. A refusal for one of these is named otherwise.
const NOT_WHY: &[&str] = &[
    "145.2", "334.1", "335", "338", "339", "340.2", "356", "357", "358.5", "359.3.e",
];

/// True for a clause of `NOT_WHY`. A clause under one says which rule of it applies (357.1.a,
/// the runes that add to a cost; 357.2, the unit that pays one), so it names a cause.
pub(super) fn not_why(clause: &str) -> bool {
    NOT_WHY.contains(&clause)
}

/// The words of a reason's rule: rule numbers and what stands between them.
fn tokens(rule: &str) -> impl Iterator<Item = &str> {
    rule.split(|c: char| c == ',' || c == ';' || c.is_whitespace())
}

/// The clauses a reason's rule names that the model's clause table knows, in its order.
fn known(rule: &str) -> Vec<&'static str> {
    tokens(rule)
        .filter_map(|t| clause_index(t).map(|i| CLAUSES[i].0))
        .collect()
}

/// True if the model's reason `r` says more than the `step` the refused statement stands for:
/// a clause the step does not cite, nor one above a clause it cites (820.1.c says less than
/// 820.1.c.3), nor one that only says "not now".
pub(super) fn says_more(r: &Cause, step: Option<&Cause>) -> bool {
    let cited = step.map(|s| clauses_of(&s.rule)).unwrap_or_default();
    let said = clauses_of(&r.rule);
    let more = |c: &String| {
        !not_why(c)
            && !cited
                .iter()
                .any(|k| k == c || k.starts_with(&format!("{c}.")))
    };
    said.is_empty() || said.iter().any(more)
}

/// The cause of a statement the model refuses: the rule the model gives for it, in the clause
/// table's words, else as "a `play` the rules refuse (rule)" (the model's words name the
/// player, which would split one cause by the case), at `line`. None if it gives no rule.
pub(super) fn model_refusal(i: &IllegalObs, stmt: &str, line: usize) -> Option<Cause> {
    let rule = i.rule.as_deref()?.trim();
    let clauses = known(rule);
    let mut c = if clauses.is_empty() {
        Cause::named(&format!("a `{stmt}` the rules refuse ({rule})"), rule)
    } else {
        Cause::cited(&clauses, rule, None)
    };
    c.line = Some(line);
    Some(c)
}

/// True for a rule number as the digest writes one: three digits, then dotted parts.
fn rule_number(t: &str) -> bool {
    let mut parts = t.split('.');
    let head = parts.next().unwrap_or("");
    head.len() == 3
        && head.bytes().all(|b| b.is_ascii_digit())
        && parts.all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The cause of a statement the engine refuses and the rules allow, from the engine's reason:
/// the first rule number it gives (in the clause table's words where the model knows it),
/// unless that rule only says "not now" or "not paid" (`NOT_WHY`). A symptom still: the
/// decision that cures it, where one does, names the cluster. `stmt` is the statement's
/// keyword (`play`, `pay`, ...).
pub(super) fn engine_refusal(i: &IllegalObs, stmt: &str, line: usize) -> Option<Cause> {
    let rule = i.rule.as_deref()?;
    let clause = tokens(rule).find(|t| rule_number(t))?;
    if not_why(clause) {
        return None;
    }
    let name = match clause_index(clause).map(|i| CLAUSES[i].1) {
        Some(words) => {
            format!("{words} ({clause}), applied by the engine to refuse a legal `{stmt}`")
        }
        None => format!("rule {clause}, applied by the engine to refuse a legal `{stmt}`"),
    };
    Some(Cause {
        name,
        rule: clause.to_string(),
        line: Some(line),
        weak: true,
        traced: false,
        settled: true,
    })
}
