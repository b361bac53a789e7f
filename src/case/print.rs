//! The canonical form of a case file: what `rbcheck fmt` writes and what parsing it gives back.

use super::ast::*;
use super::parse::reason_name;
use model::state::{CancelWhy, Location, Player, Zone};
use std::fmt::Write as _;

/// A player as a case file writes it.
pub fn player(p: Player) -> &'static str {
    if p == Player::YOU {
        "you"
    } else {
        "opponent"
    }
}

/// A location as a case file writes it.
pub fn loc(l: Location) -> String {
    match l {
        Location::Base(p) => format!("base {}", player(p)),
        Location::Battlefield(n) => format!("battlefield {}", n + 1),
    }
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// An object as a case file writes it.
pub fn obj(o: &ObjRef) -> String {
    match o {
        ObjRef::Label(l) => l.clone(),
        ObjRef::Item(n) => format!("item {n}"),
    }
}

fn zone(z: Zone) -> &'static str {
    match z {
        Zone::Trash => "in trash",
        Zone::Board => "on board",
    }
}

/// One board statement.
pub fn board_stmt(b: &BoardStmt) -> String {
    match b {
        BoardStmt::Unit {
            label,
            card,
            controller,
            loc: l,
            damage,
        } => {
            let d = if *damage > 0 {
                format!(" damage {damage}")
            } else {
                String::new()
            };
            format!(
                "unit {label} {} {} {}{d}",
                quote(card),
                player(*controller),
                loc(*l)
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
        BoardStmt::Showdown => "showdown".into(),
        BoardStmt::Attack(l) => format!("attack {l}"),
        BoardStmt::Academy(p) => format!("academy {}", player(*p)),
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
        PlayStmt::Optional { index, pay } => {
            format!("optional {index} {}", if *pay { "pay" } else { "skip" })
        }
        PlayStmt::Location { to } => format!("location {}", loc(*to)),
        PlayStmt::Discard { card } => format!("discard {}", discarded(card)),
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
    }
}

/// One expectation, without the `expect` keyword.
pub fn expect_stmt(e: &Expect) -> String {
    match e {
        Expect::Legal => "legal".into(),
        Expect::Illegal {
            line,
            rule: Some(r),
        } => format!("illegal line {line} rule {r}"),
        Expect::Illegal { line, rule: None } => format!("illegal line {line}"),
        Expect::Cancelled(n, why) => {
            let w = match why {
                Some(CancelWhy::NoLegalChoice) => " no-legal-choice",
                Some(CancelWhy::CannotPay) => " cannot-pay",
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
    let mut o = format!("rbcheck-case {}\n", case.version);
    for h in &case.header {
        if h.is_empty() {
            o.push_str("#\n");
        } else {
            let _ = writeln!(o, "# {h}");
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
    let _ = writeln!(o, "rules {rules}");
    if !case.defines.is_empty() {
        o.push('\n');
        for d in &case.defines {
            let _ = writeln!(o, "define {}", d.stmt);
        }
    }
    if !case.board.is_empty() {
        o.push('\n');
        for b in &case.board {
            let _ = writeln!(o, "{}", board_stmt(&b.stmt));
        }
    }
    if !case.plays.is_empty() {
        o.push('\n');
        for p in &case.plays {
            let _ = writeln!(o, "{}", play_stmt(&p.stmt));
        }
    }
    if !case.expects.is_empty() {
        o.push('\n');
        for e in &case.expects {
            let _ = writeln!(o, "expect {}", expect_stmt(&e.stmt));
        }
    }
    o
}
