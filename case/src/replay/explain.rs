//! Why the model refuses a statement: the rule and the words a failing replay reports, found
//! from the step the statement stands for and the steps the model allows instead.

use model::action::Action;
use model::card::CardKind;
use model::game::Game;
use model::state::{CancelWhy, ChainItem, Event, Phase, State};

/// Why the model does not allow `a` here, as a rule and words. After an undone play (358.5) a
/// payment is refused for that; a choice keeps the rule that refuses it and says so too.
pub(super) fn explain(game: &Game, s: &State, a: &Action, enabled: &[Action]) -> (String, String) {
    let gone = s.chain.iter().all(|i| !i.is_pending()) && is_play_step(a);
    match gone.then(|| undone(game, s)).flatten() {
        Some(why) if matches!(a, Action::DetermineTotalCost | Action::PayCosts { .. }) => {
            ("358.5".into(), why)
        }
        Some(why) => {
            let (rule, words) = refused(game, s, a, enabled);
            (rule, format!("{words}; {why} (358.5)"))
        }
        None => refused(game, s, a, enabled),
    }
}

/// Why the model does not allow `a` here, as a rule and words (any undone play aside).
fn refused(game: &Game, s: &State, a: &Action, enabled: &[Action]) -> (String, String) {
    if let Some(why) = refused_decision(a, enabled).or_else(|| super::runes::refused(s, a, enabled))
    {
        return why;
    }
    let pending = s.chain.iter().find(|i| i.is_pending());
    if let Some(why) = past_last_execution(game, s, pending, a).or_else(|| out_of_order(a, enabled))
    {
        return why;
    }
    if let Some((rule, why)) = game.choice_refused(s, a) {
        return (rule.into(), why);
    }
    refused_action(game, s, a, enabled, pending)
}

/// A choice for an execution the item being played does not have (820.3).
fn past_last_execution(
    game: &Game,
    s: &State,
    pending: Option<&ChainItem>,
    a: &Action,
) -> Option<(String, String)> {
    let (item, exec) = (pending?, exec_of(a)?);
    let per = game.rules.executions_per_instance();
    let n = item.executions(per);
    if exec < n || !item.repeat.iter().all(|r| r.decided) {
        return None;
    }
    let paid = item.repeat.iter().filter(|r| r.paid > 0).count();
    Some((
        "820.3".into(),
        format!(
            "{} has {n} execution(s), one plus {per} for each paid Repeat instance ({paid} of {} paid); there is no execution {}",
            game.item_name(s, item.id),
            item.repeat.len(),
            exec + 1
        ),
    ))
}

/// A choice made before the decisions that come first in 355's order (a [Repeat] instance, a
/// trigger's "you may").
fn out_of_order(a: &Action, enabled: &[Action]) -> Option<(String, String)> {
    if matches!(a, Action::DeclareRepeat { .. }) {
        return None;
    }
    if let Some(Action::DeclareRepeat { instance, .. }) = enabled
        .iter()
        .find(|e| matches!(e, Action::DeclareRepeat { .. }))
    {
        return Some((
            "355.1.a".into(),
            format!("Repeat instance {} is decided first: optional additional costs are chosen before modes and targets", instance + 1),
        ));
    }
    let may_first = enabled
        .iter()
        .any(|e| matches!(e, Action::DecideOptional { .. }))
        && !matches!(a, Action::DecideOptional { .. });
    may_first.then(|| {
        (
            "402.1".into(),
            "the triggered ability's \"you may\" is decided first".into(),
        )
    })
}

/// Why the step `a` stands for is refused, by the kind of step, once no earlier reason holds.
fn refused_action(
    game: &Game,
    s: &State,
    a: &Action,
    enabled: &[Action],
    pending: Option<&ChainItem>,
) -> (String, String) {
    match *a {
        Action::DeclareRepeat { instance, .. } => repeat_refused(game, pending, instance),
        Action::MoveToChain { .. } | Action::EndTurn if s.is_over() => (
            "334.1".into(),
            match s.log.last() {
                Some(Event::TurnEnded) => "the turn has ended: nothing more can be played".into(),
                _ => "the play's chain has closed and the case is one play: give the board `turn plays N` for more".into(),
            },
        ),
        Action::MoveToChain { player, .. }
            if s.chain.is_empty() && player == model::state::Player::YOU && s.turn.plays_left == 0 =>
        {
            (
                "turn plays".into(),
                "you have made every play the board's `turn plays N` allows from the open state (a limit of the case, not a rule: raise N, at most 8)".into(),
            )
        }
        Action::EndTurn => (
            "334.1".into(),
            if !s.chain.is_empty() {
                "the turn ends from the open state: the chain must close first (`close`)".into()
            } else {
                "the turn player ends the turn after a play of the turn (the scenario is about plays)".into()
            },
        ),
        Action::ActivateAbility { gear } => {
            match game.activation_refused(s, model::state::Player::YOU, gear) {
                Some((rule, why)) => (rule.into(), why.into()),
                None => (a.rule().to_string(), "the gear cannot be activated now".into()),
            }
        }
        Action::MoveToChain { player, .. } => {
            if !s.chain.is_empty() {
                (
                    "358.4".into(),
                    format!("{player} may add to an existing chain only a [Reaction]"),
                )
            } else {
                ("358.4".into(), format!("{player} cannot play that now"))
            }
        }
        Action::Pass => (
            "339".into(),
            format!("{} now", super::decisions::priority_words(s)),
        ),
        Action::ChooseTarget { obj, .. } => (
            "355.8".into(),
            format!("{} is not a legal choice here", game.obj_name(s, obj)),
        ),
        Action::ChooseMode { mode, .. } => (
            "355.3".into(),
            format!("mode {} cannot be chosen here", mode + 1),
        ),
        Action::RemakeChoice { .. } | Action::KeepChoice
            if enabled
                .iter()
                .any(|e| matches!(e, Action::RemakeChoice { .. } | Action::KeepChoice)) =>
        {
            let what = match *a {
                Action::RemakeChoice { obj } => {
                    format!("{} cannot be the new choice", game.obj_name(s, obj))
                }
                _ => "the old choice cannot be kept".into(),
            };
            let rule = match (game.rules.new_choices(), *a) {
                (model::rulebook::NewChoicesRule::WholeSet, _) => "753.1",
                (_, Action::RemakeChoice { obj }) if chosen_before(game, s, obj) => "751.1",
                _ => "753.1",
            };
            (
                rule.into(),
                format!("{what}: a new choice must be legal now and, under {}, one the item was not previously choosing", game.rules.book().name),
            )
        }
        Action::RemakeChoice { .. } | Action::KeepChoice | Action::DeclineNewChoices => (
            "750".into(),
            "no new choices are being made for this item now".into(),
        ),
        _ => (
            a.rule().to_string(),
            format!(
                "the rules call for {} here",
                if enabled.is_empty() {
                    "nothing more".into()
                } else {
                    expected(game, s, enabled)
                }
            ),
        ),
    }
}

/// Why a decision taken while an instruction executes (looking at the deck, a demand to pay) is
/// refused, if `a` is one and the model is waiting for one.
fn refused_decision(a: &Action, enabled: &[Action]) -> Option<(String, String)> {
    Some(match a {
        Action::DrawLooked { .. } if enabled.iter().any(|e| matches!(e, Action::DrawLooked { .. })) => (
            "359.3.e".into(),
            "that card cannot be taken: \"reveal a unit\" takes a unit among the cards looked at, or none".into(),
        ),
        Action::DrawLooked { .. } | Action::RecycleLooked { .. }
            if enabled.iter().any(|e| matches!(e, Action::RecycleLooked { .. })) =>
        {
            (
                "416".into(),
                "no card is to be drawn now (one was chosen, or none can be): the rest is recycled, one `look recycle` line per card".into(),
            )
        }
        Action::PayDemand { pay: true }
            if enabled.iter().any(|e| matches!(e, Action::ExhaustRune { .. })) =>
        {
            (
                "357.1.a".into(),
                "the spell's controller's pool does not hold what the demand asks yet: exhaust runes first (`rune exhaust D` lines before `demand pay`)".into(),
            )
        }
        Action::PayDemand { pay: true } if enabled.contains(&Action::PayDemand { pay: false }) => (
            "357".into(),
            "the spell's controller cannot pay the demand from their pool or runes; they can only decline".into(),
        ),
        Action::PayDemand { pay: false } if enabled.contains(&Action::PayDemand { pay: true }) => (
            "357.1.a".into(),
            "runes were exhausted for this demand: it is paid (declining now would only leave their Energy floating, which this model leaves out)".into(),
        ),
        _ => return None,
    })
}

/// The execution a choice is for.
fn exec_of(a: &Action) -> Option<u8> {
    match *a {
        Action::ChooseMode { exec, .. }
        | Action::ChooseTarget { exec, .. }
        | Action::EndTargets { exec, .. }
        | Action::ChooseDestination { exec, .. } => Some(exec),
        _ => None,
    }
}

/// A step of playing an item (354–357): it needs an item being played.
fn is_play_step(a: &Action) -> bool {
    matches!(
        a,
        Action::DecideOptional { .. }
            | Action::DeclareRepeat { .. }
            | Action::ChooseMode { .. }
            | Action::ChooseTarget { .. }
            | Action::EndTargets { .. }
            | Action::ChooseDestination { .. }
            | Action::DetermineTotalCost
            | Action::PayCosts { .. }
    )
}

/// When the last play was undone (358.5) and nothing was played since: what happened, with the
/// total cost and the pool that could not pay it.
fn undone(game: &Game, s: &State) -> Option<String> {
    let (item, why) = s.log.iter().rev().find_map(|e| match *e {
        Event::PlayCancelled { item, why } => Some(Some((item, why))),
        Event::MovedToChain { .. } => Some(None),
        _ => None,
    })??;
    let by = s.log.iter().find_map(|e| match *e {
        Event::MovedToChain { item: i, by, .. } if i == item => Some(by),
        _ => None,
    })?;
    let total = s.log.iter().rev().find_map(|e| match *e {
        Event::CostDetermined { item: i, total, .. } if i == item => Some(total),
        _ => None,
    });
    let why = match why {
        CancelWhy::CannotPay => "its total cost cannot be paid".to_string(),
        CancelWhy::NoLegalChoice => "a required choice has no legal option, 355.8".to_string(),
        CancelWhy::TargetsIllegal => {
            "its cost can be paid only by killing a unit it chose, which is then an illegal target (358.1)".to_string()
        }
    };
    let cost = match total {
        Some(t) => format!(": total {t}, pool {}", s.players[by.ix()].pool),
        None => String::new(),
    };
    Some(format!(
        "the play of {} was undone{cost} ({why}); the card is back in {} hand and nothing more is decided for that play",
        game.item_name(s, item),
        model::describe::possessive(by)
    ))
}

/// What the model allows next, in the words of case statements (corpus/FORMAT.md), each once:
/// the case's author writes one of these, or the replayer takes the step itself.
pub(super) fn expected(game: &Game, s: &State, enabled: &[Action]) -> String {
    let mut out: Vec<String> = vec![];
    for e in enabled {
        let words = match *e {
            Action::MoveToChain { player, .. } => format!("`{player} play \"CARD\"`"),
            Action::Pass => match s.priority {
                Some(p) => format!("`{p} pass`"),
                None => "a pass".into(),
            },
            Action::DecideOptional { .. } => "`may perform` or `may decline`".into(),
            Action::DeclareRepeat { instance, .. } => {
                format!("`repeat {0} pay` or `repeat {0} skip`", instance + 1)
            }
            Action::ChooseMode { exec, .. } => {
                let modes: Vec<String> = enabled
                    .iter()
                    .filter_map(|x| match *x {
                        Action::ChooseMode { exec: e, mode } if e == exec => {
                            Some((mode + 1).to_string())
                        }
                        _ => None,
                    })
                    .collect();
                format!(
                    "a mode for execution {0} (`exec {0} mode M`, M one of {1})",
                    exec + 1,
                    modes.join(", ")
                )
            }
            Action::ChooseTarget { exec, slot, .. } => format!(
                "a target for execution {0}, instruction {1} (`exec {0} target {1} OBJ`)",
                exec + 1,
                slot + 1
            ),
            Action::EndTargets { exec, slot } => {
                format!("`exec {} no-more-targets {}`", exec + 1, slot + 1)
            }
            Action::ChooseDestination { exec, slot, .. } => format!(
                "a destination for execution {0}, instruction {1} (`exec {0} destination {1} LOCATION`)",
                exec + 1,
                slot + 1
            ),
            Action::DetermineTotalCost | Action::PayCosts { .. } => "`pay`".into(),
            Action::RemakeChoice { .. } | Action::KeepChoice => {
                "the new choices (`exec K target I OBJ` lines after `new-choices item N`)".into()
            }
            Action::DeclineNewChoices => "`new-choices item N decline`".into(),
            Action::DrawLooked { .. } => {
                "the card to draw from those looked at (`look draw \"Card\"`, `look draw other` or `look draw none`)".into()
            }
            Action::RecycleLooked { .. } => {
                "the next card looked at to recycle (`look recycle \"Card\"` or `look recycle other`)".into()
            }
            Action::PayDemand { .. } => "the answer to the demand (`demand pay` or `demand decline`)".into(),
            Action::DeclareOptionalCost { index, .. } => {
                format!("`optional {0} pay` or `optional {0} skip`", index + 1)
            }
            Action::ChooseLocation { .. } => "where it enters (`location LOCATION`)".into(),
            Action::ChooseReduction { component, .. } => {
                let (part, i) = match component {
                    model::state::Component::Repeat(i) => ("repeat", i),
                    model::state::Component::Optional(i) => ("optional", i),
                };
                format!("`reduce {part} {0} energy` or `reduce {part} {0} power`", i + 1)
            }
            Action::DiscardForCost { card: Some(c) } => {
                format!("`discard \"{}\"`", game.card(c).name)
            }
            Action::DiscardForCost { card: None } => "`discard other`".into(),
            Action::ExhaustForCost { .. } => "a unit exhausted for the cost (`exhaust UNIT`)".into(),
            Action::KillForCost { .. } => "a unit killed for the cost (`kill UNIT`)".into(),
            Action::ExhaustRune { domain } => format!("`rune exhaust {}`", domain.letter()),
            Action::RecycleRune { domain } => format!("`rune recycle {}`", domain.letter()),
            Action::EndTurn => "`end turn`".into(),
            Action::ActivateAbility { gear } => format!(
                "`{} activate GEAR` (a gear's ability)",
                s.gear[gear as usize].controller
            ),
            _ => game.describe_action(s, e),
        };
        if !out.contains(&words) {
            out.push(words);
        }
    }
    out.join(" or ")
}

/// Why a Repeat instance cannot be declared now (355.1.a, 820.1).
fn repeat_refused(game: &Game, pending: Option<&ChainItem>, instance: u8) -> (String, String) {
    if pending.is_none() {
        return (
            "355.1.a".into(),
            "Repeat is decided while the item is being played (its choices step); no item is being played now".into(),
        );
    }
    if let Some(item) = pending {
        let card = game.card(item.card);
        if card.kind == CardKind::Ability && !game.rules.repeat_on_abilities() {
            return (
                "820.1.a".into(),
                format!(
                    "under {} only spells have [Repeat]; {} is an ability",
                    game.rules.book().name,
                    card.name
                ),
            );
        }
        match item.repeat.get(instance as usize) {
            None => {
                return (
                    "820.1.c".into(),
                    format!(
                        "{} has {} Repeat instance(s), not {}",
                        card.name,
                        item.repeat.len(),
                        instance + 1
                    ),
                )
            }
            Some(r) if r.decided && r.paid > 0 => {
                return (
                    "820.1.c.3".into(),
                    format!(
                        "Repeat instance {} was already paid; each instance can be paid only once",
                        instance + 1
                    ),
                )
            }
            Some(r) if r.decided => {
                return (
                    "820.1.c.2".into(),
                    format!("Repeat instance {} was already decided", instance + 1),
                )
            }
            Some(_) => {}
        }
        if item.phase != Phase::Choosing || item.repeat.iter().all(|r| r.decided) {
            return (
                "355.1.a".into(),
                "Repeat is decided while playing, before modes and targets, not later".into(),
            );
        }
    }
    (
        "820.1.c.2".into(),
        "Repeat instances are decided one at a time, in order".into(),
    )
}

/// 751.1: whether the execution whose choice is being remade (the one at the cursor of the
/// current new choices) chose `obj` before, as the rulebook's scope counts it. One clause per
/// refusal, so that an `expect illegal ... rule R` line can name it: a refused new choice
/// chosen before breaks 751.1, any other breaks 753.1 (it is not a legal choice now).
fn chosen_before(game: &Game, s: &State, obj: model::state::Obj) -> bool {
    use model::state::Pick;
    let Some(for_item) = s.chain.iter().find_map(|i| match i.phase {
        Phase::NewChoices { for_item, .. } => Some(for_item),
        _ => None,
    }) else {
        return false;
    };
    let Some(target) = s.item(for_item) else {
        return false;
    };
    let start = s
        .log
        .iter()
        .rposition(|e| *e == Event::NewChoicesBegun { item: for_item })
        .unwrap_or(s.log.len());
    let cursor = s.log[start..]
        .iter()
        .filter(|e| {
            matches!(e, Event::ChoiceRemade { item, .. } | Event::ChoiceKept { item, .. } if *item == for_item)
        })
        .count();
    let execs: Vec<u8> = target
        .choices
        .iter()
        .enumerate()
        .flat_map(|(e, ex)| {
            ex.picks
                .iter()
                .filter(|p| matches!(p, Pick::Target { .. }))
                .map(move |_| e as u8)
        })
        .collect();
    let Some(&exec) = execs.get(cursor) else {
        return false;
    };
    target.ever_chosen.iter().any(|(e, o)| {
        *o == obj
            && (*e == exec
                || game.rules.new_choices_scope() == model::rulebook::NewChoicesScope::WholeItem)
    })
}
