//! The [Repeat] properties: each a named, documented condition that cites its rule and reads what
//! happened (the event log, the board against the starting position), never a counter the model
//! keeps for itself.

use crate::facts::{self, Facts, ItemFacts, Mark};
use crate::system::RepeatSystem;
use checker::Property;
use model::cost::Cost;
use model::rulebook::{Rulebook, Version};
use model::state::{Event, Player, State};

mod grants;
#[cfg(test)]
mod reference;
mod runes;

type P = Property<RepeatSystem>;

/// A state property's condition read from the state and the facts of its log: one fold of the
/// log serves every property (`RepeatSystem`'s fused conditions evaluate them all at once).
pub(crate) type Fused = fn(&RepeatSystem, &State, &Facts) -> bool;

/// How a state settles a property, in words.
type Why = fn(&RepeatSystem, &State) -> Option<String>;

/// A property with its fused condition (none for termination).
pub(crate) type Listed = (P, Option<Fused>);

/// The condition of a property on its own: the facts of the state's log, then `c`.
fn lift(c: Fused) -> impl Fn(&RepeatSystem, &State) -> bool + Send + Sync + 'static {
    move |sys, s| facts::with(s, |f| c(sys, s, f))
}

/// Every property the checker verifies, in report order.
pub fn all() -> Vec<P> {
    listed().into_iter().map(|(p, _)| p).collect()
}

/// An invariant whose condition is `c`, explained by `why`, with `c` itself.
fn always(name: &'static str, rule: &'static str, doc: &'static str, c: Fused, why: Why) -> Listed {
    (
        P::always(name, rule, doc, lift(c)).explained_by(why),
        Some(c),
    )
}

/// A witness whose condition is `c`, explained by `what`, with `c` itself.
fn sometimes(
    name: &'static str,
    rule: &'static str,
    doc: &'static str,
    c: Fused,
    what: Why,
) -> Listed {
    (
        P::sometimes(name, rule, doc, lift(c)).explained_by(what),
        Some(c),
    )
}

/// Every property in report order, each state property with its fused condition.
pub(crate) fn listed() -> Vec<Listed> {
    vec![
        always(
            "at-most-one-payment-per-instance",
            "820.1.c.3",
            "No [Repeat] instance of an item is declared paid more than once.",
            at_most_one_payment,
            why_paid_twice,
        ),
        always(
            "executions-equal-one-plus-paid",
            "820.3",
            "An item that finished resolving ran exactly 1 + (instances paid) executions, ignored instructions or not.",
            executions_equal_one_plus_paid,
            why_executions,
        ),
        always(
            "one-play-event",
            "820.3.a, 419.4",
            "An item is played at most once, and a countered item is not played at all.",
            one_play_event,
            why_plays,
        ),
        always(
            "choices-fixed-at-play",
            "355.15, 820.2",
            "Each execution has its own ordered choices, all made before the item was finalized; none after, except by new choices.",
            choices_fixed_at_play,
            why_choices,
        ),
        always(
            "discount-applied-once",
            "356.4, Spiritforged FAQ (Temporal Portal)",
            "Each whole-card discount (the card's own, a unit's) is applied at most once per play, however many executions.",
            discount_applied_once,
            why_discount,
        ),
        always(
            "zero-cost-still-paid",
            "356.4.f.1",
            "A [Repeat] instance declared paid whose cost was discounted to 0 still gives its execution.",
            zero_cost_still_paid,
            why_zero_cost,
        ),
        always(
            "no-refund-on-counter",
            "425.1.c",
            "Every cost paid stays paid: each pool equals its start, plus what runes added, minus what was paid, counters or not.",
            no_refund,
            why_refund,
        ),
        always(
            "no-window-between-executions",
            "158.3, 321",
            "While an item resolves, nobody passes, plays or finalizes anything and no cleanup runs, until it has finished.",
            no_window_between_executions,
            why_window,
        ),
        always(
            "illegal-target-ignored",
            "359.3.e.5, 820.1.d.2",
            "Nothing is done to an object after it left the board: an illegal target is unaffected.",
            illegal_target_ignored,
            why_touched,
        ),
        always(
            "new-choices-keep-repeat",
            "752.2",
            "No [Repeat] decision is made for an item after it was finalized: new choices do not reopen it.",
            new_choices_keep_repeat,
            why_reopened,
        ),
        always(
            "resources-conserved",
            "357, 425.1.a.1",
            "No pool goes above its start (plus what runes added) and no card is created, lost or in two zones.",
            resources_conserved,
            why_unconserved,
        ),
        always(
            "undone-play-gives-back-runes",
            "358.5",
            "Each player's runes are the starting runes changed only by the plays that were not undone: an undone play gives back every rune its payment exhausted or recycled.",
            |sys, s, _| runes::undone_play_gives_back_runes(sys, s),
            runes::why_runes_not_given_back,
        ),
        always(
            "payment-within-cost",
            "357.1.a",
            "The runes used to pay for an item add no more Energy, nor Power of any domain, than its total cost asks.",
            |sys, s, _| runes::payment_within_cost(sys, s),
            runes::why_payment_past_cost,
        ),
        always(
            "grant-used-by-one-play",
            "SFD-078, UNL-216, 358.5",
            "Each grant \"the next spell you play this turn\" is taken by exactly the next spell its holder plays, and by a later one only after an undone play gave it back.",
            grants::grant_used_by_one_play,
            grants::why_grant_misused,
        ),
        always(
            "undone-play-restores-everything",
            "358.5",
            "An undone play restores everything: each player's grants and runes are what the plays that were not undone left.",
            grants::undone_play_restores_everything,
            grants::why_not_restored,
        ),
        (
            P::terminates(
            "terminates",
            "340.2",
            "Every path ends with the chain closed and empty.",
            play_over,
        )
            .explained_by(why_not_over),
            None,
        ),
        sometimes(
            "witness: two of three instances paid, three executions",
            "820.1.c.2, 820.3",
            "Some item with three [Repeat] instances, two of them paid, runs three executions (Curtain Call).",
            two_of_three_paid,
            what_two_of_three,
        ),
        sometimes(
            "witness: target made illegal by the previous execution",
            "359.3.e, 820.1.d.2",
            "Some execution's instruction is ignored because the previous execution of the same item removed its target.",
            target_removed_by_previous_execution,
            what_target_removed,
        ),
        sometimes(
            "witness: repeat cost discounted to 0 and paid",
            "356.4.f.1",
            "Some [Repeat] instance is paid at a cost discounted to 0 and its execution runs.",
            zero_cost_witness,
            what_zero_cost,
        ),
        sometimes(
            "witness: repeated item countered",
            "425.1",
            "Some item with a paid [Repeat] instance is countered.",
            countered_witness,
            what_countered,
        ),
        sometimes(
            "witness: new choices for a repeated item",
            "750-755",
            "Some item with a paid [Repeat] instance has a choice remade.",
            remade_witness,
            what_remade,
        ),
    ]
}

/// The witnesses whose situation some rules versions have no rule for: the versions in which it
/// can happen, and why the others cannot reach it. Every other property applies to every
/// version.
const WITNESS_VERSIONS: &[(&str, &[Version], &str)] = &[
    (
        "witness: repeat cost discounted to 0 and paid",
        &[Version::V1_3, Version::Rup4, Version::Guide],
        "a discount applies to a [Repeat] cost alone only from v1.3 on (356.4.c); in v1.2 every discount applies to the total (353)",
    ),
    (
        "witness: new choices for a repeated item",
        &[Version::Rup4, Version::Guide],
        "making new choices (750-755) exists from RUP4 on; v1.2 (352.15) and v1.3 (355.15) never change a choice",
    ),
];

/// Why the property `name` cannot apply under `rules`, if it cannot: a witness of a situation
/// that the version the rules start from has no rule for.
pub fn not_applicable(name: &str, rules: &Rulebook) -> Option<&'static str> {
    WITNESS_VERSIONS
        .iter()
        .find(|(n, versions, _)| *n == name && !versions.contains(&rules.base))
        .map(|(_, _, why)| *why)
}

/// The property name closest to `name` (for "did you mean"), if one is close.
pub fn closest(name: &str) -> Option<&'static str> {
    all()
        .into_iter()
        .map(|p| (edit_distance(name, p.name), p.name))
        .filter(|(d, n)| *d <= n.len().max(name.len()) / 3)
        .min()
        .map(|(_, n)| n)
}

/// The Levenshtein distance between two strings, by characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// "s" when `n` is not 1.
fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// "N instance(s) paid".
fn paid_words(i: &ItemFacts) -> String {
    format!("{} instance{} paid", i.paid, plural(i.paid))
}

fn at_most_one_payment(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    !f.any(Mark::PaidTwice)
}

fn why_paid_twice(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, _) = facts::with(s, |f| f.first(Mark::PaidTwice))?;
    let mut times = [0u32; 256];
    for e in s.log.iter() {
        if let Event::RepeatDeclared {
            item,
            instance,
            pay: true,
        } = *e
        {
            if item == id {
                times[instance as usize] += 1;
            }
        }
    }
    let (k, n) = times.iter().enumerate().find(|(_, n)| **n > 1)?;
    Some(format!(
        "{}: [Repeat] instance {} declared paid {n} times, at most once allowed",
        sys.game.item_name(s, id),
        k + 1
    ))
}

fn executions_equal_one_plus_paid(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    !f.any(Mark::WrongExecutions)
}

fn why_executions(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, i) = facts::with(s, |f| f.first(Mark::WrongExecutions))?;
    Some(format!(
        "{}: {} execution{}, {}, expected {}",
        sys.game.item_name(s, id),
        i.executions,
        plural(i.executions),
        paid_words(&i),
        1 + i.paid
    ))
}

fn one_play_event(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    !f.any(Mark::WrongPlays)
}

fn why_plays(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, i) = facts::with(s, |f| f.first(Mark::WrongPlays))?;
    let name = sys.game.item_name(s, id);
    Some(match i.countered {
        true => format!(
            "{name}: countered, yet {} play event{}, expected 0",
            i.plays,
            plural(i.plays)
        ),
        false => format!("{name}: {} play events, expected 1", i.plays),
    })
}

fn choices_fixed_at_play(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    !f.any(Mark::ChoicesUnfixed)
}

fn why_choices(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, i) = facts::with(s, |f| f.first(Mark::ChoicesUnfixed))?;
    let name = sys.game.item_name(s, id);
    Some(match i.ran.first_not_in(&i.chose) {
        Some(k) if !i.chose_after_finalized => format!(
            "{name}: execution {} ran with no choice made for it while playing",
            k + 1
        ),
        _ => format!("{name}: a choice was made after it was finalized"),
    })
}

fn discount_applied_once(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    !f.any(Mark::DiscountedTwice)
}

fn why_discount(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, i) = facts::with(s, |f| f.first(Mark::DiscountedTwice))?;
    Some(match i.self_discounts {
        n if n > 1 => format!(
            "{}: its own discount applied {n} times, expected at most once",
            sys.game.item_name(s, id)
        ),
        _ => format!(
            "{}: a unit's discount applied twice, expected at most once",
            sys.game.item_name(s, id)
        ),
    })
}

fn zero_cost_still_paid(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    !f.any(Mark::ZeroCostLost)
}

fn why_zero_cost(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, i) = facts::with(s, |f| f.first(Mark::ZeroCostLost))?;
    Some(format!(
        "{}: a [Repeat] instance added at a cost of 0; {}, {} execution{}, expected {}",
        sys.game.item_name(s, id),
        paid_words(&i),
        i.executions,
        plural(i.executions),
        1 + i.paid
    ))
}

fn zero_cost_witness(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    f.any(Mark::ZeroCostReached) && !f.any(Mark::ZeroCostLost)
}

fn what_zero_cost(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, i) = facts::with(s, |f| f.first(Mark::ZeroCostReached))?;
    Some(format!(
        "{}: a [Repeat] instance paid at a cost of 0; {}, {} executions",
        sys.game.item_name(s, id),
        paid_words(&i),
        i.executions
    ))
}

/// The first player whose pool is not the start plus what runes added minus what was paid (and
/// minus what left it as it emptied at the end of the turn, 166–167): the player and those four
/// amounts (now, start, added, paid).
fn refund_of(s: &State, f: &Facts) -> Option<(Player, [Cost; 4])> {
    let paid = f.spent();
    let produced = produced(s, f);
    [Player::YOU, Player::OPP].into_iter().find_map(|p| {
        let i = p.ix();
        let now = s.players[i].pool;
        // What runes added counts as if it had been in the pool from the start.
        let start = s.start.pools[i].plus(&produced[i]);
        let kept = now.energy + paid[i].energy == start.energy
            && (0..6).all(|d| now.power[d] + paid[i].power[d] == start.power[d]);
        (!kept).then_some((p, [now, s.start.pools[i], produced[i], paid[i]]))
    })
}

/// What each player's runes added to their pool: nothing when nobody started with runes.
fn produced(s: &State, f: &Facts) -> [Cost; 2] {
    match s.start.runes.iter().any(Option::is_some) {
        true => f.runes_produced(),
        false => [Cost::ZERO; 2],
    }
}

fn no_refund(_: &RepeatSystem, s: &State, f: &Facts) -> bool {
    refund_of(s, f).is_none()
}

fn why_refund(_: &RepeatSystem, s: &State) -> Option<String> {
    let (p, [now, start, added, paid]) = facts::with(s, |f| refund_of(s, f))?;
    Some(format!(
        "{p}: {now} in the pool, but the start {start}, plus {added} added by runes, minus {paid} paid or emptied at the end of the turn, is not that"
    ))
}

fn no_window_between_executions(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    f.window_during_resolution.is_none()
}

/// The event at `at` in words, or its debug form.
fn event_words(sys: &RepeatSystem, s: &State, at: u32) -> String {
    let Some(e) = s.log.as_slice().get(at as usize) else {
        return String::new();
    };
    sys.game
        .describe_event(s, e)
        .unwrap_or_else(|| format!("{e:?}"))
}

fn why_window(sys: &RepeatSystem, s: &State) -> Option<String> {
    let at = facts::with(s, |f| f.window_during_resolution)?;
    Some(format!(
        "while an item was resolving, step {} of its log: {}",
        at + 1,
        event_words(sys, s, at)
    ))
}

fn illegal_target_ignored(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    f.touched_after_gone.is_none()
}

fn why_touched(sys: &RepeatSystem, s: &State) -> Option<String> {
    let at = facts::with(s, |f| f.touched_after_gone)?;
    Some(format!(
        "after the object left the board: {}",
        event_words(sys, s, at)
    ))
}

fn new_choices_keep_repeat(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    !f.any(Mark::RepeatReopened)
}

fn why_reopened(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, _) = facts::with(s, |f| f.first(Mark::RepeatReopened))?;
    Some(format!(
        "{}: a [Repeat] decision made after it was finalized",
        sys.game.item_name(s, id)
    ))
}

/// The first player whose pool holds more than the start plus what runes added, or whose cards
/// are not the ones they started with: the player and what is wrong.
fn unconserved(s: &State, f: &Facts) -> Option<(Player, String)> {
    let produced = produced(s, f);
    let cards = s.cards();
    [Player::YOU, Player::OPP].into_iter().find_map(|p| {
        let now = s.players[p.ix()].pool;
        let start = s.start.pools[p.ix()].plus(&produced[p.ix()]);
        if now.energy > start.energy || (0..6).any(|d| now.power[d] > start.power[d]) {
            return Some((
                p,
                format!(
                    "{now} in the pool, more than the start {} plus {} added by runes",
                    s.start.pools[p.ix()],
                    produced[p.ix()]
                ),
            ));
        }
        let (cards, was) = (cards[p.ix()], s.start.cards[p.ix()]);
        (cards != was).then(|| {
            (
                p,
                format!("{cards} cards in the game's zones, started with {was}"),
            )
        })
    })
}

fn resources_conserved(_: &RepeatSystem, s: &State, f: &Facts) -> bool {
    unconserved(s, f).is_none()
}

fn why_unconserved(_: &RepeatSystem, s: &State) -> Option<String> {
    let (p, what) = facts::with(s, |f| unconserved(s, f))?;
    Some(format!("{p}: {what}"))
}

fn two_of_three_paid(_: &RepeatSystem, s: &State, f: &Facts) -> bool {
    s.chain.is_empty() && f.any(Mark::TwoOfThree)
}

fn what_two_of_three(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, _) = facts::with(s, |f| f.first(Mark::TwoOfThree))?;
    Some(format!(
        "{}: 3 [Repeat] instances declared, 2 paid, 3 executions",
        sys.game.item_name(s, id)
    ))
}

fn target_removed_by_previous_execution(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    f.target_removed_by_previous_execution.is_some()
}

fn what_target_removed(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, exec) = facts::with(s, |f| f.target_removed_by_previous_execution)?;
    Some(format!(
        "{}: execution {} left its target unaffected, which execution {exec} had removed",
        sys.game.item_name(s, id),
        exec + 1
    ))
}

fn countered_witness(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    f.any(Mark::CounteredRepeated)
}

fn what_countered(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, i) = facts::with(s, |f| f.first(Mark::CounteredRepeated))?;
    Some(format!(
        "{}: {}, then countered after {} execution{}",
        sys.game.item_name(s, id),
        paid_words(&i),
        i.executions,
        plural(i.executions)
    ))
}

fn remade_witness(_: &RepeatSystem, _: &State, f: &Facts) -> bool {
    f.any(Mark::RemadeRepeated)
}

fn what_remade(sys: &RepeatSystem, s: &State) -> Option<String> {
    let (id, i) = facts::with(s, |f| f.first(Mark::RemadeRepeated))?;
    Some(format!(
        "{}: {}, a choice remade",
        sys.game.item_name(s, id),
        paid_words(&i)
    ))
}

fn play_over(_: &RepeatSystem, s: &State) -> bool {
    s.is_over() && s.chain.is_empty()
}

fn why_not_over(sys: &RepeatSystem, s: &State) -> Option<String> {
    if play_over(sys, s) {
        return None;
    }
    let n = s.chain.len() as u32;
    Some(match n {
        0 => "no step follows, and the play is not over".to_string(),
        _ => format!(
            "no step follows, with {n} item{} still on the chain: {}",
            plural(n),
            s.chain
                .iter()
                .map(|i| sys.game.item_name(s, i.id))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    //! The properties read [`Facts`], gathered in one pass; their meaning is the plain
    //! definitions in `reference`. Both must agree on every reachable state, under every
    //! rulebook, the deliberately wrong ones included (they reach the violating states).

    use super::*;
    use checker::{CheckerExt, Expectation, Model, Outcome};
    use model::action::Action;
    use model::rulebook::{Rulebook, Version};

    type Cond = fn(&RepeatSystem, &State) -> bool;

    /// The system, explored as usual, with one property: the fused and plain readings agree,
    /// each condition on its own and all of them evaluated at once (`fused_conditions`).
    struct Agree {
        sys: RepeatSystem,
        pairs: Vec<(&'static str, checker::model::Condition<RepeatSystem>, Cond)>,
        /// The system's properties by name, in the order of the bits of `at_once`.
        order: Vec<&'static str>,
        at_once: checker::model::FusedConditions<RepeatSystem>,
    }

    impl Model for Agree {
        type State = State;
        type Action = Action;
        fn init_states(&self) -> Vec<State> {
            self.sys.init_states()
        }
        fn actions(&self, s: &State, out: &mut Vec<Action>) {
            self.sys.actions(s, out)
        }
        fn next_state(&self, s: &State, a: &Action) -> Option<State> {
            self.sys.next_state(s, a)
        }
        // Explored as `check` explores it (depth-first per scenario), so that the facts are
        // folded a step at a time, as they are there.
        fn independent_inits(&self) -> bool {
            self.sys.independent_inits()
        }
        fn tree_shaped(&self, init: &State) -> bool {
            self.sys.tree_shaped(init)
        }
        fn progress(&self, s: &State) -> Option<u64> {
            self.sys.progress(s)
        }
        fn forced(&self, s: &State) -> Option<Action> {
            self.sys.forced(s)
        }
        fn properties(&self) -> Vec<checker::Property<Self>> {
            vec![checker::Property::always(
                "fused = plain",
                "-",
                "every property reads the same from the facts as from the log",
                |a: &Agree, s: &State| {
                    let bits = (a.at_once)(&a.sys, s);
                    a.pairs.iter().all(|(name, fused, plain)| {
                        let (f, p) = (fused(&a.sys, s), plain(&a.sys, s));
                        if f != p {
                            eprintln!("`{name}`: facts say {f}, the log says {p}: {:?}", s.log);
                        }
                        let bit = a.order.iter().position(|n| n == name);
                        let together = bit.is_none_or(|i| (bits >> i & 1 == 1) == p);
                        if !together {
                            eprintln!("`{name}`: evaluated with the others it says {}, the log says {p}: {:?}", !p, s.log);
                        }
                        f == p && together
                    })
                },
            )]
        }
    }

    fn plain(name: &str) -> Cond {
        match name {
            "at-most-one-payment-per-instance" => reference::at_most_one_payment,
            "executions-equal-one-plus-paid" => reference::executions_equal_one_plus_paid,
            "one-play-event" => reference::one_play_event,
            "choices-fixed-at-play" => reference::choices_fixed_at_play,
            "discount-applied-once" => reference::discount_applied_once,
            "zero-cost-still-paid" => reference::zero_cost_still_paid,
            "no-refund-on-counter" => reference::no_refund,
            "no-window-between-executions" => reference::no_window_between_executions,
            "illegal-target-ignored" => reference::illegal_target_ignored,
            "new-choices-keep-repeat" => reference::new_choices_keep_repeat,
            "resources-conserved" => reference::resources_conserved,
            "undone-play-gives-back-runes" => runes::undone_play_gives_back_runes,
            "payment-within-cost" => runes::payment_within_cost,
            "grant-used-by-one-play" => grants::plain_grant_used_by_one_play,
            "undone-play-restores-everything" => grants::plain_undone_play_restores_everything,
            "witness: two of three instances paid, three executions" => {
                reference::two_of_three_paid
            }
            "witness: target made illegal by the previous execution" => {
                reference::target_removed_by_previous_execution
            }
            "witness: repeat cost discounted to 0 and paid" => reference::zero_cost_witness,
            "witness: repeated item countered" => reference::countered_witness,
            "witness: new choices for a repeated item" => reference::remade_witness,
            other => panic!("no plain definition for `{other}`"),
        }
    }

    fn rulebooks() -> Vec<(String, Rulebook)> {
        let mut out: Vec<(String, Rulebook)> = Version::ALL
            .into_iter()
            .map(|v| (format!("{v:?}"), Rulebook::preset(v)))
            .collect();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/rulebooks");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let name = f.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&f).unwrap();
            out.push((name.clone(), Rulebook::from_toml(&text, &name).unwrap()));
        }
        out
    }

    /// On `tiny` under every rulebook, and on the runes (`runes`) and demands (`deck`) bounds,
    /// which `tiny` lacks, under RUP4 and the rulebook that breaks what runes give back (for
    /// `runes`) or what a counter refunds (for `deck`).
    #[test]
    fn facts_agree_with_the_plain_definitions_on_every_reachable_state() {
        let wanted = |bound: &str, rules: &str| match bound {
            "tiny" => true,
            "runes" => ["Rup4", "undo-keeps-runes-spent"].contains(&rules),
            _ => ["Rup4", "refund-on-counter"].contains(&rules),
        };
        for bound in ["tiny", "runes", "deck"] {
            agree_on(bound, &|rules| wanted(bound, rules));
        }
    }

    /// The facts agree with the plain definitions on every state of `bound` under each rulebook
    /// `pick` names.
    fn agree_on(bound: &str, pick: &dyn Fn(&str) -> bool) {
        let picked: Vec<_> = rulebooks().into_iter().filter(|(n, _)| pick(n)).collect();
        assert!(picked.len() > 1, "{bound}: the rulebooks named exist");
        let bound = crate::Bound::preset(bound).unwrap();
        for (name, rules) in picked {
            let pairs = all()
                .into_iter()
                .filter(|p| p.expectation != Expectation::Terminates)
                .map(|p| (p.name, p.condition, plain(p.name)))
                .collect();
            let sys = RepeatSystem::new(rules, &bound).unwrap();
            let props = sys.properties();
            let order = props.iter().map(|p| p.name).collect();
            let at_once = sys.fused_conditions(&props).expect("the invariants fuse");
            let agree = Agree {
                sys,
                pairs,
                order,
                at_once,
            };
            let r = agree.checker().threads(2).run().unwrap();
            assert!(r.complete, "{name}: explored");
            assert!(
                matches!(r.outcome("fused = plain"), Outcome::Holds),
                "{name}: the facts disagree with the plain definitions (see stderr)"
            );
        }
    }

    #[test]
    fn facts_of_one_log_are_not_reused_for_another() {
        let rules = Rulebook::preset(Version::Rup4);
        let sys = RepeatSystem::new(rules, &crate::Bound::preset("tiny").unwrap()).unwrap();
        // Two states whose answers differ, asked about alternately.
        let init = sys.init_states().remove(0);
        let mut actions = vec![];
        sys.actions(&init, &mut actions);
        let next = sys.next_state(&init, &actions[0]).unwrap();
        let moved = |s: &State| facts::with(s, |f| f.items.iter().filter(|i| i.on_chain).count());
        let plain_moved = |s: &State| facts::of(&s.log).chained().count();
        assert_ne!(
            plain_moved(&init),
            plain_moved(&next),
            "the two answers differ"
        );
        for _ in 0..3 {
            assert_eq!(moved(&init), plain_moved(&init));
            assert_eq!(moved(&next), plain_moved(&next));
        }
    }
}
