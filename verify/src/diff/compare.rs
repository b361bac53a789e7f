//! The comparison at the heart of `rbcheck diff`: one scenario played under A and B with the
//! same decisions, its differences grouped into classes (what differs, or which step one side
//! refuses), each with its smallest example.

use crate::case::ast::Expect;
use crate::case::from_trace::expectations;
use crate::case::replay::{setup_labels, View};
use model::action::Action;
use model::game::Game;
use model::setup::Setup;
use model::state::State;
use properties::Scenario;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{Hash, Hasher};

/// The field of an expectation, for saying what differs.
fn field(e: &Expect) -> &'static str {
    match e {
        Expect::Legal | Expect::Illegal { .. } => "legality",
        Expect::Cancelled(..) => "cancelled",
        Expect::Paid(..) => "paid",
        Expect::RepeatPaid(..) => "repeat-paid",
        Expect::Executions(..) => "executions",
        Expect::PlayEvents(..) => "play-events",
        Expect::Performed(..) | Expect::Ignored(..) => "instructions",
        Expect::Countered(..) | Expect::NotCountered(..) => "countered",
        Expect::Triggered(..) => "triggered",
        Expect::Finalized(..) => "finalized",
        Expect::Grants(..) => "grants",
        Expect::UnitDamage(..)
        | Expect::UnitZone(..)
        | Expect::UnitAt(..)
        | Expect::UnitMight(..)
        | Expect::UnitStunned(..)
        | Expect::UnitReady(..)
        | Expect::UnitAssault(..) => "units",
        Expect::GearZone(..) => "gear",
        Expect::Tokens(..) => "tokens",
        Expect::Pool(..) => "pool",
        Expect::HandSize(..) => "hand-size",
        Expect::Trash(..) => "trash",
        Expect::Deck(..) => "deck",
        Expect::DeckTop(..) => "deck-top",
        Expect::Recycled(..) => "recycled",
        Expect::Hand(..) => "hand",
        Expect::Demands(..) => "demands",
        Expect::RunesExhausted(..) => "runes-exhausted",
        Expect::OptionalPaid(..) => "optional-paid",
        Expect::Entered(..) => "entered",
        Expect::Order(..) => "order",
        Expect::Discarded(..) => "discarded",
        Expect::Runes(..) => "runes",
    }
}

/// What kind of difference a class is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Kind {
    /// The same decisions, a different outcome in these fields.
    Outcome(BTreeSet<&'static str>),
    /// Decisions one side allows and the other refuses at this step, in the rules' words and
    /// with its rule (side 0 = A allows).
    Refused(u8, Step),
    /// Decisions complete on one side that the other continues with these decisions.
    NeedsMore(u8, BTreeSet<Step>),
}

impl Kind {
    pub(super) fn describe(&self, a: &str, b: &str) -> String {
        match self {
            Kind::Outcome(f) => format!(
                "same decisions, different outcome: {}",
                f.iter().copied().collect::<Vec<_>>().join(", ")
            ),
            Kind::Refused(s, step) => {
                let (y, n) = yes_no(*s, a, b);
                format!(
                    "a decision allowed under {y} is refused under {n}: {}",
                    step.phrase()
                )
            }
            Kind::NeedsMore(s, steps) => {
                let (y, n) = yes_no(*s, a, b);
                format!(
                    "a play complete under {y} needs a further decision under {n}: {}",
                    steps
                        .iter()
                        .map(Step::phrase)
                        .collect::<Vec<_>>()
                        .join(" or ")
                )
            }
        }
    }
}

/// A kind of step, as a class names it: the rules' words and the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Step {
    words: &'static str,
    rule: &'static str,
}

impl Step {
    fn of(a: &Action) -> Step {
        Step {
            words: a.words(),
            rule: a.rule(),
        }
    }

    pub(super) fn phrase(&self) -> String {
        format!("{} ({})", self.words, self.rule)
    }
}

fn yes_no<'a>(side: u8, a: &'a str, b: &'a str) -> (&'a str, &'a str) {
    if side == 0 {
        (a, b)
    } else {
        (b, a)
    }
}

/// Every complete play of a scenario: its decisions and its outcome.
fn plays(game: &Game, setup: &Setup) -> Vec<(Vec<Action>, Vec<Expect>)> {
    let Ok(init) = game.initial_state(setup) else {
        return vec![];
    };
    let labels = setup_labels(setup);
    let mut out = vec![];
    crate::cases::each_complete_play(game, init, Action::is_decision, |s, path| {
        let view = View {
            game,
            state: s,
            illegal: None,
            labels: &labels,
        };
        out.push((path, expectations(&view, setup)));
    });
    out
}

/// How a decision sequence goes under a game: its outcome, the index of the first decision it
/// refuses, or the decisions it still needs at the end.
pub(super) enum Run {
    Done(Vec<Expect>),
    Refused(usize),
    NeedsMore(BTreeSet<Step>),
}

pub(super) fn run_decisions(game: &Game, setup: &Setup, decisions: &[Action]) -> Run {
    let Ok(mut s) = game.initial_state(setup) else {
        return Run::Refused(0);
    };
    let mut acts = vec![];
    for (i, d) in decisions.iter().enumerate() {
        advance(game, &mut s, &mut acts);
        if !acts.contains(d) {
            return Run::Refused(i);
        }
        game.step_in_place(&mut s, d);
    }
    advance(game, &mut s, &mut acts);
    if !acts.is_empty() {
        return Run::NeedsMore(acts.iter().map(Step::of).collect());
    }
    let labels = setup_labels(setup);
    Run::Done(expectations(
        &View {
            game,
            state: &s,
            illegal: None,
            labels: &labels,
        },
        setup,
    ))
}

fn differing_fields(a: &[Expect], b: &[Expect]) -> BTreeSet<&'static str> {
    let mut fa: BTreeMap<&str, Vec<&Expect>> = BTreeMap::new();
    let mut fb: BTreeMap<&str, Vec<&Expect>> = BTreeMap::new();
    for e in a {
        fa.entry(field(e)).or_default().push(e);
    }
    for e in b {
        fb.entry(field(e)).or_default().push(e);
    }
    fa.keys()
        .chain(fb.keys())
        .copied()
        .filter(|k| fa.get(k) != fb.get(k))
        .collect()
}

/// One example of a class: the scenario and the decisions (as played on the side that allows
/// them), ordered by size.
#[derive(Clone)]
pub(super) struct Example {
    pub(super) size: (usize, usize, usize),
    pub(super) scenario: usize,
    pub(super) decisions: Vec<Action>,
    /// Within its scenario, where the play comes in its side's depth-first order (the index of
    /// each decision among those offered): of two examples of one size, the earlier is kept.
    pub(super) order: Vec<u16>,
}

#[derive(Default)]
pub(super) struct Class {
    pub(super) scenarios: BTreeSet<usize>,
    pub(super) sequences: usize,
    /// `sequences` is a lower bound: counting them stopped at its budget (`COUNT_BUDGET`).
    pub(super) more: bool,
    pub(super) example: Option<Example>,
}

/// Counts `sequences` more decision sequences of a class, keeping the smaller example.
fn note(classes: &mut BTreeMap<Kind, Class>, kind: Kind, ex: Example, sequences: usize) {
    let c = classes.entry(kind).or_default();
    c.scenarios.insert(ex.scenario);
    c.sequences += sequences;
    let smaller = |old: &Example| (&ex.size, &ex.order) < (&old.size, &old.order);
    if c.example.as_ref().is_none_or(smaller) {
        c.example = Some(ex);
    }
}

/// Takes the procedure's forced steps (a single action that is no decision) from `s`, and
/// lists the decisions then offered in `acts`. `false` if a procedure step is offered beside
/// others, where decisions alone no longer name a play.
fn advance(game: &Game, s: &mut State, acts: &mut Vec<Action>) -> bool {
    loop {
        acts.clear();
        game.actions(s, acts);
        match acts.as_slice() {
            [a] if !a.is_decision() => {
                let a = *a;
                game.step_in_place(s, &a);
            }
            _ => return acts.iter().all(Action::is_decision),
        }
    }
}

/// How many steps counting the plays below refused decisions may take per scenario and side:
/// past it, each decision still to count stands for one play, and the count is a lower bound.
const COUNT_BUDGET: usize = 2_000_000;

/// The complete plays of `game` from `s` (every path to a state with no action), counted once
/// per distinct future: states reached by different paths (a log is a history, so they never
/// compare equal) share the count of what follows them. The plays below a decision one
/// rulebook refuses can still number in the billions (an instance paid again and again), so
/// each step spends `budget`; once it is spent, what is left is counted as one play each.
/// `memo` holds the counts of futures already seen in the same game.
fn count_plays(game: &Game, s: State, memo: &mut HashMap<u64, usize>, budget: &mut usize) -> usize {
    count_below(game, s, memo, budget, &mut vec![])
}

fn count_below(
    game: &Game,
    mut s: State,
    memo: &mut HashMap<u64, usize>,
    budget: &mut usize,
    acts: &mut Vec<Action>,
) -> usize {
    loop {
        if *budget == 0 {
            return 1;
        }
        *budget -= 1;
        acts.clear();
        game.actions(&s, acts);
        match acts.as_slice() {
            [] => return 1,
            [a] => {
                let a = *a;
                game.step_in_place(&mut s, &a);
            }
            _ => break,
        }
    }
    let key = {
        let mut h = std::hash::DefaultHasher::new();
        model::state::Future(&s).hash(&mut h);
        h.finish()
    };
    if let Some(&n) = memo.get(&key) {
        return n;
    }
    let offered = std::mem::take(acts);
    let n = offered.iter().fold(0usize, |n, a| {
        n.saturating_add(count_below(game, game.step(&s, a), memo, budget, acts))
    });
    *acts = offered;
    // A count cut short is a lower bound: kept, it would pass as exact to a later decision.
    if *budget > 0 {
        memo.insert(key, n);
    }
    n
}

/// One scenario played under A and B with the same decisions, both games driven together
/// depth first: where one side offers a decision the other does not, every complete play
/// below it on that side is a decision sequence the other refuses, counted without being
/// played on the other side; outcomes are read only where both sides end.
struct Joint<'a> {
    games: [&'a Game; 2],
    setup: &'a Setup,
    labels: HashMap<String, model::state::Obj>,
    idx: usize,
    size: usize,
    classes: BTreeMap<Kind, Class>,
    /// The decisions taken so far, and their indices among each side's offers.
    path: Vec<Action>,
    order: [Vec<u16>; 2],
    /// A procedure step was offered beside others somewhere on the common path.
    mixed: bool,
    /// Per side, the complete plays counted below each future seen, and the steps counting
    /// may still take (`count_plays`).
    memo: [HashMap<u64, usize>; 2],
    budget: [usize; 2],
}

impl Joint<'_> {
    fn example(&self, side: usize, extra: Option<(Action, u16)>) -> Example {
        let mut decisions = self.path.clone();
        let mut order = self.order[side].clone();
        if let Some((a, i)) = extra {
            decisions.push(a);
            order.push(i);
        }
        Example {
            size: (decisions.len(), self.size, self.idx),
            scenario: self.idx,
            decisions,
            order,
        }
    }

    fn outcome(&self, side: usize, s: &State) -> Vec<Expect> {
        let view = View {
            game: self.games[side],
            state: s,
            illegal: None,
            labels: &self.labels,
        };
        expectations(&view, self.setup)
    }

    /// Compares the plays below a state of each side reached by the same decisions.
    fn walk(&mut self, mut states: [State; 2]) {
        let mut offers: [Vec<Action>; 2] = [vec![], vec![]];
        for side in 0..2 {
            if !advance(self.games[side], &mut states[side], &mut offers[side]) {
                self.mixed = true;
                return;
            }
        }
        let [sa, sb] = states;
        match (offers[0].is_empty(), offers[1].is_empty()) {
            // An outcome reads the state and the cards, which both sides share: equal states
            // have equal outcomes.
            (true, true) if sa == sb => return,
            (true, true) => {
                let (oa, ob) = (self.outcome(0, &sa), self.outcome(1, &sb));
                if oa != ob {
                    let ex = self.example(0, None);
                    note(
                        &mut self.classes,
                        Kind::Outcome(differing_fields(&oa, &ob)),
                        ex,
                        1,
                    );
                }
                return;
            }
            (true, false) | (false, true) => {
                // The side whose play is complete; the other asks for more.
                let done = usize::from(!offers[0].is_empty());
                let steps = offers[1 - done].iter().map(Step::of).collect();
                let ex = self.example(done, None);
                note(&mut self.classes, Kind::NeedsMore(done as u8, steps), ex, 1);
            }
            (false, false) => {}
        }
        // What one side offers and the other does not: every play below it is refused there.
        let mut states = [Some(sa), Some(sb)];
        for side in 0..2 {
            for (i, a) in offers[side].iter().enumerate() {
                if offers[1 - side].contains(a) {
                    continue;
                }
                let s = states[side].as_ref().expect("taken only below");
                let n = count_plays(
                    self.games[side],
                    self.games[side].step(s, a),
                    &mut self.memo[side],
                    &mut self.budget[side],
                );
                let ex = self.example(side, Some((*a, i as u16)));
                let kind = Kind::Refused(side as u8, Step::of(a));
                note(&mut self.classes, kind.clone(), ex, n);
                if self.budget[side] == 0 {
                    self.classes.entry(kind).or_default().more = true;
                }
            }
        }
        let common: Vec<(u16, u16, Action)> = offers[0]
            .iter()
            .enumerate()
            .filter_map(|(i, a)| {
                let j = offers[1].iter().position(|b| b == a)?;
                Some((i as u16, j as u16, *a))
            })
            .collect();
        for (k, &(i, j, a)) in common.iter().enumerate() {
            let last = k + 1 == common.len();
            let mut next = |side: usize| {
                let g = self.games[side];
                match last {
                    true => {
                        let mut s = states[side].take().expect("the last child takes it");
                        g.step_in_place(&mut s, &a);
                        s
                    }
                    false => g.step(states[side].as_ref().expect("kept for the last"), &a),
                }
            };
            let pair = [next(0), next(1)];
            self.path.push(a);
            self.order[0].push(i);
            self.order[1].push(j);
            self.walk(pair);
            self.path.pop();
            self.order[0].pop();
            self.order[1].pop();
            if self.mixed {
                return;
            }
        }
    }
}

/// Every decision sequence of one scenario compared under A and B, grouped into classes. The
/// same decisions are given to both: a sequence that ends on both sides is compared by its
/// outcome (A's sequences only, once); one that a side refuses, or that ends on one side while
/// the other asks for more, is counted for the side that allows it.
pub(super) fn compare_scenario(
    ga: &Game,
    gb: &Game,
    idx: usize,
    setup: &Setup,
) -> BTreeMap<Kind, Class> {
    // Both games share the cards, and a start fails only on a setup that does not fit them:
    // then on both sides, and nothing is compared.
    let (Ok(ia), Ok(ib)) = (ga.initial_state(setup), gb.initial_state(setup)) else {
        return BTreeMap::new();
    };
    let mut joint = Joint {
        games: [ga, gb],
        setup,
        labels: setup_labels(setup),
        idx,
        size: setup.units.len() + setup.gear.len(),
        classes: BTreeMap::new(),
        path: vec![],
        order: [vec![], vec![]],
        mixed: false,
        memo: [HashMap::new(), HashMap::new()],
        budget: [COUNT_BUDGET; 2],
    };
    joint.walk([ia, ib]);
    match joint.mixed {
        false => joint.classes,
        true => compare_by_plays(ga, gb, idx, setup),
    }
}

/// [`compare_scenario`] for a model that offers a procedure step beside decisions, which the
/// joint walk cannot pair: every complete play of each side, each replayed on the other.
fn compare_by_plays(ga: &Game, gb: &Game, idx: usize, setup: &Setup) -> BTreeMap<Kind, Class> {
    let mut classes = BTreeMap::new();
    let size = setup.units.len() + setup.gear.len();
    let pa = plays(ga, setup);
    let pb = plays(gb, setup);
    let in_b: HashMap<&Vec<Action>, &Vec<Expect>> = pb.iter().map(|(d, o)| (d, o)).collect();
    let in_a: HashMap<&Vec<Action>, &Vec<Expect>> = pa.iter().map(|(d, o)| (d, o)).collect();
    for (side, (mine, other_map, other_game)) in
        [(&pa, &in_b, gb), (&pb, &in_a, ga)].into_iter().enumerate()
    {
        let side = side as u8;
        for (n, (d, o)) in mine.iter().enumerate() {
            let ex = |decisions: Vec<Action>| Example {
                size: (decisions.len(), size, idx),
                scenario: idx,
                decisions,
                order: vec![n as u16],
            };
            match other_map.get(d) {
                Some(theirs) if side == 0 => {
                    if *theirs != o {
                        let kind = Kind::Outcome(differing_fields(o, theirs));
                        note(&mut classes, kind, ex(d.clone()), 1);
                    }
                }
                Some(_) => {}
                None => match run_decisions(other_game, setup, d) {
                    Run::Refused(i) if i < d.len() => {
                        let kind = Kind::Refused(side, Step::of(&d[i]));
                        note(&mut classes, kind, ex(d[..=i].to_vec()), 1);
                    }
                    Run::Refused(_) => {}
                    Run::NeedsMore(steps) => {
                        note(&mut classes, Kind::NeedsMore(side, steps), ex(d.clone()), 1)
                    }
                    Run::Done(theirs) => {
                        if side == 0 && theirs != *o {
                            let kind = Kind::Outcome(differing_fields(o, &theirs));
                            note(&mut classes, kind, ex(d.clone()), 1);
                        }
                    }
                },
            }
        }
    }
    classes
}

/// The first of `scenarios` in which the same decisions give another outcome under `gb` than
/// under `ga`, or decisions one allows the other refuses (both games over the same cards).
pub fn first_difference(ga: &Game, gb: &Game, scenarios: &[Scenario]) -> Option<usize> {
    scenarios
        .iter()
        .position(|s| !compare_scenario(ga, gb, 0, &s.setup).is_empty())
}
