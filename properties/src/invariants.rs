//! The [Repeat] properties: each a named, documented condition that cites its rule and reads what
//! happened (the event log, the board against the starting position), never a counter the model
//! keeps for itself.

use crate::facts::{self, Facts};
use crate::system::RepeatSystem;
use checker::Property;
use model::state::{Player, State};

mod grants;
#[cfg(test)]
mod reference;
mod runes;

type P = Property<RepeatSystem>;

/// Every property the checker verifies, in report order.
pub fn all() -> Vec<P> {
    vec![
        P::always(
            "at-most-one-payment-per-instance",
            "820.1.c.3",
            "No [Repeat] instance of an item is declared paid more than once.",
            at_most_one_payment,
        ),
        P::always(
            "executions-equal-one-plus-paid",
            "820.3",
            "An item that finished resolving ran exactly 1 + (instances paid) executions, ignored instructions or not.",
            executions_equal_one_plus_paid,
        ),
        P::always(
            "one-play-event",
            "820.3.a, 419.4",
            "An item is played at most once, and a countered item is not played at all.",
            one_play_event,
        ),
        P::always(
            "choices-fixed-at-play",
            "355.15, 820.2",
            "Each execution has its own ordered choices, all made before the item was finalized; none after, except by new choices.",
            choices_fixed_at_play,
        ),
        P::always(
            "discount-applied-once",
            "356.4, Spiritforged FAQ (Temporal Portal)",
            "A card's own whole-card discount is applied at most once per play, however many executions.",
            discount_applied_once,
        ),
        P::always(
            "zero-cost-still-paid",
            "356.4.f.1",
            "A [Repeat] instance declared paid whose cost was discounted to 0 still gives its execution.",
            zero_cost_still_paid,
        ),
        P::always(
            "no-refund-on-counter",
            "425.1.c",
            "Every cost paid stays paid: each pool equals its start, plus what runes added, minus what was paid, counters or not.",
            no_refund,
        ),
        P::always(
            "no-window-between-executions",
            "158.3, 321",
            "While an item resolves, nobody passes, plays or finalizes anything and no cleanup runs, until it has finished.",
            no_window_between_executions,
        ),
        P::always(
            "illegal-target-ignored",
            "359.3.e.5, 820.1.d.2",
            "Nothing is done to an object after it left the board: an illegal target is unaffected.",
            illegal_target_ignored,
        ),
        P::always(
            "new-choices-keep-repeat",
            "752.2",
            "No [Repeat] decision is made for an item after it was finalized: new choices do not reopen it.",
            new_choices_keep_repeat,
        ),
        P::always(
            "resources-conserved",
            "357, 425.1.a.1",
            "No pool goes above its start (plus what runes added) and no card is created, lost or in two zones.",
            resources_conserved,
        ),
        P::always(
            "undone-play-gives-back-runes",
            "358.5",
            "Each player's runes are the starting runes changed only by the plays that were not undone: an undone play gives back every rune its payment exhausted or recycled.",
            runes::undone_play_gives_back_runes,
        ),
        P::always(
            "payment-within-cost",
            "357.1.a",
            "The runes used to pay for an item add no more Energy, nor Power of any domain, than its total cost asks.",
            runes::payment_within_cost,
        ),
        P::always(
            "grant-used-by-one-play",
            "SFD-078, UNL-216, 358.5",
            "Each grant \"the next spell you play this turn\" is taken by exactly the next spell its holder plays, and by a later one only after an undone play gave it back.",
            grants::grant_used_by_one_play,
        ),
        P::always(
            "undone-play-restores-everything",
            "358.5",
            "An undone play restores everything: each player's grants and runes are what the plays that were not undone left.",
            grants::undone_play_restores_everything,
        ),
        P::terminates(
            "terminates",
            "340.2",
            "Every path ends with the chain closed and empty.",
            |_, s| s.is_over() && s.chain.is_empty(),
        ),
        P::sometimes(
            "witness: two of three instances paid, three executions",
            "820.1.c.2, 820.3",
            "Some item with three [Repeat] instances, two of them paid, runs three executions (Curtain Call).",
            two_of_three_paid,
        ),
        P::sometimes(
            "witness: target made illegal by the previous execution",
            "359.3.e, 820.1.d.2",
            "Some execution's instruction is ignored because the previous execution of the same item removed its target.",
            target_removed_by_previous_execution,
        ),
        P::sometimes(
            "witness: repeat cost discounted to 0 and paid",
            "356.4.f.1",
            "Some [Repeat] instance is paid at a cost discounted to 0 and its execution runs.",
            zero_cost_witness,
        ),
        P::sometimes(
            "witness: repeated item countered",
            "425.1",
            "Some item with a paid [Repeat] instance is countered.",
            countered_witness,
        ),
        P::sometimes(
            "witness: new choices for a repeated item",
            "750-755",
            "Some item with a paid [Repeat] instance has a choice remade.",
            remade_witness,
        ),
    ]
}

fn at_most_one_payment(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| f.items.iter().all(|i| !i.paid_twice))
}

fn executions_equal_one_plus_paid(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| {
        f.chained()
            .filter(|i| i.resolved_whole())
            .all(|i| i.executions == 1 + i.paid)
    })
}

fn one_play_event(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| {
        f.chained()
            .all(|i| i.plays <= 1 && !(i.countered && i.plays > 0))
    })
}

fn choices_fixed_at_play(_: &RepeatSystem, s: &State) -> bool {
    // An item that chose anything chose for every execution it ran.
    facts::with(s, |f| {
        f.chained()
            .all(|i| !i.chose_after_finalized && (i.chose.is_empty() || i.ran.is_subset(&i.chose)))
    })
}

fn discount_applied_once(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| f.chained().all(|i| i.self_discounts <= 1))
}

fn zero_cost_still_paid(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, zero_cost_holds)
}

fn zero_cost_holds(f: &Facts) -> bool {
    f.chained()
        .filter(|i| i.resolved_whole())
        .all(|i| !i.zero_cost_repeat || i.executions == 1 + i.paid)
}

fn zero_cost_witness(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| {
        f.chained()
            .any(|i| i.resolved_whole() && i.zero_cost_repeat && i.executions >= 2)
            && zero_cost_holds(f)
    })
}

fn no_refund(_: &RepeatSystem, s: &State) -> bool {
    let paid = facts::with(s, Facts::paid_by);
    let produced = runes::produced_by(s);
    (0..2).all(|p| {
        let now = s.players[p].pool;
        // What runes added counts as if it had been in the pool from the start.
        let start = s.start.pools[p].plus(&produced[p]);
        now.energy + paid[p].energy == start.energy
            && (0..6).all(|d| now.power[d] + paid[p].power[d] == start.power[d])
    })
}

fn no_window_between_executions(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| !f.window_during_resolution)
}

fn illegal_target_ignored(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| !f.touched_after_gone)
}

fn new_choices_keep_repeat(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| f.chained().all(|i| !i.declared_after_finalized))
}

fn resources_conserved(_: &RepeatSystem, s: &State) -> bool {
    let produced = runes::produced_by(s);
    for p in [Player::YOU, Player::OPP] {
        let now = s.players[p.ix()].pool;
        let start = s.start.pools[p.ix()].plus(&produced[p.ix()]);
        if now.energy > start.energy || (0..6).any(|d| now.power[d] > start.power[d]) {
            return false;
        }
        if s.cards_of(p) != s.start.cards[p.ix()] {
            return false;
        }
    }
    true
}

fn two_of_three_paid(_: &RepeatSystem, s: &State) -> bool {
    s.chain.is_empty()
        && facts::with(s, |f| {
            f.chained()
                .any(|i| i.declared == 3 && i.paid == 2 && i.executions == 3)
        })
}

fn target_removed_by_previous_execution(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| f.target_removed_by_previous_execution)
}

fn countered_witness(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| f.items.iter().any(|i| i.countered && i.paid > 0))
}

fn remade_witness(_: &RepeatSystem, s: &State) -> bool {
    facts::with(s, |f| f.items.iter().any(|i| i.remade && i.paid > 0))
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

    /// The system, explored as usual, with one property: the fused and plain readings agree.
    struct Agree {
        sys: RepeatSystem,
        pairs: Vec<(&'static str, Cond, Cond)>,
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
        fn properties(&self) -> Vec<checker::Property<Self>> {
            vec![checker::Property::always(
                "fused = plain",
                "-",
                "every property reads the same from the facts as from the log",
                |a: &Agree, s: &State| {
                    a.pairs.iter().all(|(name, fused, plain)| {
                        let (f, p) = (fused(&a.sys, s), plain(&a.sys, s));
                        if f != p {
                            eprintln!("`{name}`: facts say {f}, the log says {p}: {:?}", s.log);
                        }
                        f == p
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
            // Reads the board, not the log: the same function.
            "resources-conserved" => resources_conserved,
            "undone-play-gives-back-runes" => runes::undone_play_gives_back_runes,
            "payment-within-cost" => runes::payment_within_cost,
            // Read the log directly already (no facts): the same functions.
            "grant-used-by-one-play" => grants::grant_used_by_one_play,
            "undone-play-restores-everything" => grants::undone_play_restores_everything,
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

    #[test]
    fn facts_agree_with_the_plain_definitions_on_every_reachable_state() {
        let bound = crate::Bound::preset("tiny").unwrap();
        for (name, rules) in rulebooks() {
            let pairs = all()
                .into_iter()
                .filter(|p| p.expectation != Expectation::Terminates)
                .map(|p| (p.name, p.condition, plain(p.name)))
                .collect();
            let agree = Agree {
                sys: RepeatSystem::new(rules, &bound).unwrap(),
                pairs,
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
