//! The canonical form of a case file: what `rbcheck fmt` writes and what parsing it gives back.

use super::ast::*;
use super::parse::reason_name;
use model::state::{CancelWhy, Combat, Location, Player, Zone};
use std::fmt::Write as _;

/// A player as a case file writes it.
pub fn player(p: Player) -> &'static str {
    super::wire::player_word(p)
}

/// A location as a case file writes it.
pub fn loc(l: Location) -> String {
    super::wire::location_words(l)
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// An object as a case file writes it.
pub fn obj(o: &ObjRef) -> String {
    o.to_string()
}

fn zone(z: Zone) -> &'static str {
    match z {
        Zone::Trash => "in trash",
        Zone::Board => "on board",
        Zone::Hand => "in hand",
    }
}

/// One board statement.
pub fn board_stmt(b: &BoardStmt) -> String {
    match b {
        BoardStmt::Unit(u) => {
            let status = &u.status;
            let mut d = if u.damage > 0 {
                format!(" damage {}", u.damage)
            } else {
                String::new()
            };
            if let Some(o) = u.owner {
                let _ = write!(d, " owner {}", player(o));
            }
            if status.exhausted {
                d.push_str(" exhausted");
            }
            if status.stunned {
                d.push_str(" stunned");
            }
            match status.combat {
                Combat::None => {}
                Combat::Attacking => d.push_str(" attacking"),
                Combat::Defending => d.push_str(" defending"),
            }
            if status.assault > 0 {
                let _ = write!(d, " assault {}", status.assault);
            }
            format!(
                "unit {} {} {} {}{d}",
                u.label,
                quote(&u.card),
                player(u.controller),
                loc(u.loc)
            )
        }
        BoardStmt::Gear {
            label,
            card,
            controller,
        } => format!("gear {label} {} {}", quote(card), player(*controller)),
        BoardStmt::Battlefield {
            n,
            controller,
            card,
        } => {
            let mut s = format!("battlefield {n}");
            if let Some(p) = controller {
                let _ = write!(s, " controller {}", player(*p));
            }
            if let Some(c) = card {
                let _ = write!(s, " card {}", quote(c));
            }
            s
        }
        BoardStmt::Pool(p, c) => format!("pool {} {c}", player(*p)),
        BoardStmt::Hand(p, c) => format!("hand {} {}", player(*p), quote(c)),
        BoardStmt::OtherCards(p, n) => format!("other-cards {} {n}", player(*p)),
        BoardStmt::Deck(p, n) => format!("deck {} {n}", player(*p)),
        BoardStmt::Portal(p) => format!("portal {}", player(*p)),
        BoardStmt::NearVictory(p) => format!("near-victory {}", player(*p)),
        BoardStmt::Showdown(None) => "showdown".into(),
        BoardStmt::Showdown(Some(n)) => format!("showdown battlefield {n}"),
        BoardStmt::Attack(l) => format!("attack {l}"),
        BoardStmt::DeckTop(p, v) => format!("deck-top {} {}", player(*p), names(v)),
        BoardStmt::Academy(p) => format!("academy {}", player(*p)),
        BoardStmt::Runes(p, r) => runes_board(*p, r),
        BoardStmt::Turn(t) => format!(
            "turn plays {}{}",
            t.plays,
            if t.end_turn { " end-turn" } else { "" }
        ),
    }
}

/// One play statement.
pub fn play_stmt(p: &PlayStmt) -> String {
    match p {
        PlayStmt::Play { player: p, card } => format!("{} play {}", player(*p), quote(card)),
        PlayStmt::Pass { player: p } => format!("{} pass", player(*p)),
        PlayStmt::May { perform: true } => "may perform".into(),
        PlayStmt::May { perform: false } => "may decline".into(),
        PlayStmt::Repeat { instance, pay } => {
            format!("repeat {instance} {}", if *pay { "pay" } else { "skip" })
        }
        PlayStmt::Mode { exec, mode } => format!("exec {exec} mode {mode}"),
        PlayStmt::Target {
            exec,
            instruction,
            obj: o,
        } => format!("exec {exec} target {instruction} {}", obj(o)),
        PlayStmt::NoMoreTargets { exec, instruction } => {
            format!("exec {exec} no-more-targets {instruction}")
        }
        PlayStmt::Destination {
            exec,
            instruction,
            to,
        } => format!("exec {exec} destination {instruction} {}", loc(*to)),
        PlayStmt::Pay { any } if any.is_empty() => "pay".into(),
        PlayStmt::Pay { any } => format!(
            "pay any {}",
            any.iter()
                .map(|d| d.letter().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        PlayStmt::NewChoices { item } => format!("new-choices item {item}"),
        PlayStmt::DeclineNewChoices { item } => format!("new-choices item {item} decline"),
        PlayStmt::LookDraw { card: None } => "look draw none".into(),
        PlayStmt::LookDraw { card: Some(c) } => format!("look draw {}", deck_ref(c)),
        PlayStmt::LookRecycle { card } => format!("look recycle {}", deck_ref(card)),
        PlayStmt::Demand { pay } => format!("demand {}", if *pay { "pay" } else { "decline" }),
        PlayStmt::Optional { index, pay } => {
            format!("optional {index} {}", if *pay { "pay" } else { "skip" })
        }
        PlayStmt::Location { to } => format!("location {}", loc(*to)),
        PlayStmt::Discard { card } => format!("discard {}", discarded(card)),
        PlayStmt::Discount { unit: None } => "discount own".into(),
        PlayStmt::Discount { unit: Some(u) } => format!("discount {}", obj(u)),
        PlayStmt::PayWithUnit { kill, unit } => {
            format!("{} {}", if *kill { "kill" } else { "exhaust" }, obj(unit))
        }
        PlayStmt::Reduce { part, index, less } => format!(
            "reduce {} {index} {}",
            match part {
                Part::Repeat => "repeat",
                Part::Optional => "optional",
            },
            match less {
                Less::Energy => "energy",
                Less::Power => "power",
            }
        ),
        PlayStmt::Rune { how, domain } => format!(
            "rune {} {}",
            match how {
                RuneUse::Exhaust => "exhaust",
                RuneUse::Recycle => "recycle",
            },
            domain.letter()
        ),
        PlayStmt::Close => "close".into(),
        PlayStmt::Activate { player: p, object } => {
            format!("{} activate {}", player(*p), obj(object))
        }
        PlayStmt::EndTurn => "end turn".into(),
    }
}

/// One expectation, without the `expect` keyword.
pub fn expect_stmt(e: &Expect) -> String {
    match e {
        Expect::Legal => "legal".into(),
        Expect::Illegal { line, rule, play } => {
            let at = match play {
                Some(k) => format!("play {k}"),
                None => format!("line {line}"),
            };
            match rule {
                Some(r) => format!("illegal {at} rule {r}"),
                None => format!("illegal {at}"),
            }
        }
        Expect::Cancelled(n, why) => {
            let w = match why {
                Some(CancelWhy::NoLegalChoice) => " no-legal-choice",
                Some(CancelWhy::CannotPay) => " cannot-pay",
                Some(CancelWhy::TargetsIllegal) => " targets-illegal",
                None => "",
            };
            format!("cancelled item {n}{w}")
        }
        Expect::Paid(n, c) => format!("paid item {n} {c}"),
        Expect::RepeatPaid(n, v) if v.is_empty() => format!("repeat-paid item {n} none"),
        Expect::RepeatPaid(n, v) => {
            format!(
                "repeat-paid item {n} {}",
                v.iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }
        Expect::Executions(n, k) => format!("executions item {n} {k}"),
        Expect::PlayEvents(n, k) => format!("play-events item {n} {k}"),
        Expect::Performed(n, e, i) => format!("performed item {n} exec {e} instruction {i}"),
        Expect::Ignored(n, e, i, why) => {
            let w = why
                .map(|r| format!(" {}", reason_name(r)))
                .unwrap_or_default();
            format!("ignored item {n} exec {e} instruction {i}{w}")
        }
        Expect::Countered(n) => format!("countered item {n}"),
        Expect::NotCountered(n) => format!("not-countered item {n}"),
        Expect::Triggered(a, k) => format!("triggered {} {k}", quote(a)),
        Expect::Finalized(p, k) => format!("finalized {} {k}", player(*p)),
        Expect::Grants(p, v) => format!("grants {} {}", player(*p), grants(v)),
        Expect::UnitDamage(l, d) => format!("unit {l} damage {d}"),
        Expect::UnitZone(l, z) => format!("unit {l} {}", zone(*z)),
        Expect::UnitAt(l, at) => format!("unit {l} at {}", loc(*at)),
        Expect::GearZone(l, z) => format!("gear {l} {}", zone(*z)),
        Expect::Tokens(p, k) => format!("tokens {} {k}", player(*p)),
        Expect::Pool(p, c) => format!("pool {} {c}", player(*p)),
        Expect::HandSize(p, k) => format!("hand-size {} {k}", player(*p)),
        Expect::Trash(p, v) if v.is_empty() => format!("trash {} none", player(*p)),
        Expect::Trash(p, v) => format!(
            "trash {} {}",
            player(*p),
            v.iter().map(|c| quote(c)).collect::<Vec<_>>().join(" ")
        ),
        Expect::Deck(p, k) => format!("deck {} {k}", player(*p)),
        Expect::DeckTop(p, v) => format!("deck-top {} {}", player(*p), names(v)),
        Expect::Hand(p, v) => format!("hand {} {}", player(*p), names(v)),
        Expect::Recycled(p, v) if v.is_empty() => format!("recycled {} none", player(*p)),
        Expect::Recycled(p, v) => format!(
            "recycled {} {}",
            player(*p),
            v.iter().map(deck_ref).collect::<Vec<_>>().join(" ")
        ),
        Expect::Demands(n, v) => format!(
            "demands item {n} {}",
            v.iter()
                .map(|p| if *p { "paid" } else { "declined" })
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Expect::RunesExhausted(p, k) => format!("runes-exhausted {} {k}", player(*p)),
        Expect::UnitMight(l, k) => format!("unit {l} might {k}"),
        Expect::UnitStunned(l, true) => format!("unit {l} stunned"),
        Expect::UnitStunned(l, false) => format!("unit {l} not-stunned"),
        Expect::UnitReady(l, true) => format!("unit {l} ready"),
        Expect::UnitReady(l, false) => format!("unit {l} exhausted"),
        Expect::UnitAssault(l, k) => format!("unit {l} assault {k}"),
        Expect::OptionalPaid(n, v) if v.is_empty() => format!("optional-paid item {n} none"),
        Expect::OptionalPaid(n, v) => format!(
            "optional-paid item {n} {}",
            v.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Expect::Entered(n, at, ready) => format!(
            "entered item {n} at {} {}",
            loc(*at),
            if *ready { "ready" } else { "exhausted" }
        ),
        Expect::Discarded(n, v) if v.is_empty() => format!("discarded item {n} none"),
        Expect::Discarded(n, v) => format!(
            "discarded item {n} {}",
            v.iter().map(discarded).collect::<Vec<_>>().join(" ")
        ),
        Expect::Order(v) => format!(
            "order {}",
            v.iter().map(moment).collect::<Vec<_>>().join(" then ")
        ),
        Expect::Runes(p, part, v) => format!(
            "runes {} {} {}",
            player(*p),
            super::parse::rune_part_word(*part),
            if v.is_empty() {
                "none".into()
            } else {
                letters(v.iter().copied())
            }
        ),
    }
}

/// Domain letters separated by spaces.
fn letters(v: impl Iterator<Item = model::cost::Domain>) -> String {
    v.map(|d| d.letter().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `runes PLAYER [ready D...] [exhausted D...] [deck D...]`, each count in domain order.
fn runes_board(p: Player, r: &model::state::RunesSetup) -> String {
    let mut s = format!("runes {}", player(p));
    let counted = |n: &[u8; 6]| -> Vec<model::cost::Domain> {
        model::cost::Domain::ALL
            .into_iter()
            .flat_map(|d| std::iter::repeat_n(d, usize::from(n[d as usize])))
            .collect()
    };
    if r.ready.iter().any(|n| *n > 0) {
        let _ = write!(s, " ready {}", letters(counted(&r.ready).into_iter()));
    }
    if r.exhausted.iter().any(|n| *n > 0) {
        let _ = write!(
            s,
            " exhausted {}",
            letters(counted(&r.exhausted).into_iter())
        );
    }
    if !r.deck.is_empty() {
        let _ = write!(s, " deck {}", letters(r.deck.iter().copied()));
    }
    s
}

/// Card names, quoted, or `none`.
fn names(v: &[String]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter().map(|c| quote(c)).collect::<Vec<_>>().join(" ")
}

/// A deck card: `"Card"` or `other`.
fn deck_ref(d: &DeckRef) -> String {
    match d {
        DeckRef::Named(c) => quote(c),
        DeckRef::Other => "other".into(),
    }
}

/// A discarded card: its quoted name, or `other`.
fn discarded(c: &Option<String>) -> String {
    c.as_deref().map_or("other".to_string(), quote)
}

/// One moment of `expect order`.
pub fn moment(m: &Moment) -> String {
    match m {
        Moment::Execution(n, k) => format!("execution {k} of item {n}"),
        Moment::Finalize(n) => format!("finalize of item {n}"),
        Moment::Play(n) => format!("play of item {n}"),
        Moment::Finish(n) => format!("finish of item {n}"),
        Moment::Entry(o) => format!("entry of {}", obj(o)),
        Moment::Trigger(a) => format!("trigger {}", quote(a)),
    }
}

/// The whole case in canonical form.
pub fn print(case: &Case) -> String {
    print_with(case, &Comments::default())
}

/// The comments of a case file that its [`Case`] does not hold (the header is in
/// [`Case::header`]), keyed by the line of the statement they belong to, so that `rbcheck fmt`
/// keeps them.
#[derive(Clone, Debug, Default)]
pub struct Comments {
    /// Comment lines before a statement (after the one before it), by the statement's line.
    pub before: std::collections::HashMap<usize, Vec<String>>,
    /// The comment at the end of a statement's line, by its line.
    pub trailing: std::collections::HashMap<usize, String>,
    /// The comment at the end of the version line.
    pub version: Option<String>,
    /// The comment at the end of the `rules` line.
    pub rules: Option<String>,
    /// Comment lines after the last statement.
    pub tail: Vec<String>,
}

/// The case in canonical form with `comments` put back beside their statements. An `expect
/// illegal line N` naming a play statement that came from line N is renumbered to the line that
/// statement is printed on, so that it names the same statement.
pub fn print_with(case: &Case, comments: &Comments) -> String {
    let mut o = String::new();
    let mut printed = 0usize;
    let mut line = |o: &mut String, source: usize, text: &str| -> usize {
        for c in comments.before.get(&source).into_iter().flatten() {
            let _ = writeln!(o, "{c}");
            printed += 1;
        }
        match comments.trailing.get(&source) {
            Some(t) if source != 0 => {
                let _ = writeln!(o, "{text} {t}");
            }
            _ => {
                let _ = writeln!(o, "{text}");
            }
        }
        printed += 1;
        printed
    };
    let with = |text: String, c: &Option<String>| match c {
        Some(c) => format!("{text} {c}"),
        None => text,
    };
    line(
        &mut o,
        0,
        &with(format!("rbcheck-case {}", case.version), &comments.version),
    );
    for h in &case.header {
        if h.is_empty() {
            line(&mut o, 0, "#");
        } else {
            line(&mut o, 0, &format!("# {h}"));
        }
    }
    let rules = if case
        .rules
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c))
        && !case.rules.is_empty()
    {
        case.rules.clone()
    } else {
        quote(&case.rules)
    };
    line(&mut o, 0, &with(format!("rules {rules}"), &comments.rules));
    if !case.defines.is_empty() {
        line(&mut o, 0, "");
        for d in &case.defines {
            line(&mut o, d.line, &format!("define {}", d.stmt));
        }
    }
    if !case.board.is_empty() {
        line(&mut o, 0, "");
        for b in &case.board {
            line(&mut o, b.line, &board_stmt(&b.stmt));
        }
    }
    let mut renumber = std::collections::HashMap::new();
    if !case.plays.is_empty() {
        line(&mut o, 0, "");
        for (i, p) in case.plays.iter().enumerate() {
            let at = line(&mut o, p.line, &play_stmt(&p.stmt));
            if p.line != 0 {
                renumber.insert(p.line, at);
            }
            // Expectations among the plays right below the statement they follow.
            for cp in case.checkpoints.iter().filter(|cp| cp.after == i + 1) {
                line(
                    &mut o,
                    cp.expect.line,
                    &format!("expect {}", expect_stmt(&cp.expect.stmt)),
                );
            }
        }
    }
    if !case.expects.is_empty() {
        line(&mut o, 0, "");
        for e in &case.expects {
            let stmt = match &e.stmt {
                Expect::Illegal {
                    line: l,
                    rule,
                    play,
                } => Expect::Illegal {
                    line: renumber.get(l).copied().unwrap_or(*l),
                    rule: rule.clone(),
                    play: *play,
                },
                other => other.clone(),
            };
            line(&mut o, e.line, &format!("expect {}", expect_stmt(&stmt)));
        }
    }
    for c in &comments.tail {
        let _ = writeln!(o, "{c}");
    }
    o
}

/// Grants as `expect grants` writes them: `portal academy`, or `none`.
fn grants(v: &[model::state::Grant]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    v.iter()
        .map(|g| match g {
            model::state::Grant::Portal => "portal",
            model::state::Grant::Academy => "academy",
        })
        .collect::<Vec<_>>()
        .join(" ")
}
