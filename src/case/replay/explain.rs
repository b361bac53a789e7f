//! Why the model refuses a statement: the rule and the words a failing replay reports, found
//! from the step the statement stands for and the steps the model allows instead.

use model::action::Action;
use model::card::CardKind;
use model::game::Game;
use model::state::{ChainItem, Phase, State};

/// Why the model does not allow `a` here, as a rule and words.
pub(super) fn explain(game: &Game, s: &State, a: &Action, enabled: &[Action]) -> (String, String) {
    let pending = s.chain.iter().find(|i| i.is_pending());
    // A choice made before the decisions that come first in 355's order.
    if !matches!(a, Action::DeclareRepeat { .. }) {
        if let Some(Action::DeclareRepeat { instance, .. }) = enabled
            .iter()
            .find(|e| matches!(e, Action::DeclareRepeat { .. }))
        {
            return (
                "355.1.a".into(),
                format!("Repeat instance {} is decided first: optional additional costs are chosen before modes and targets", instance + 1),
            );
        }
        if enabled
            .iter()
            .any(|e| matches!(e, Action::DecideOptional { .. }))
            && !matches!(a, Action::DecideOptional { .. })
        {
            return (
                "402.1".into(),
                "the triggered ability's \"you may\" is decided first".into(),
            );
        }
    }
    match *a {
        Action::DeclareRepeat { instance, .. } => repeat_refused(game, pending, instance),
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
            format!(
                "{} holds priority now",
                s.priority
                    .map(|p| p.to_string())
                    .unwrap_or_else(|| "nobody".into())
            ),
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
            let rule = match game.rules.new_choices {
                model::rulebook::NewChoicesRule::WholeSet => "753.1",
                _ => "751.1, 753.1",
            };
            (
                rule.into(),
                format!("{what}: a new choice must be legal now and, under {}, one the item was not previously choosing", game.rules.name),
            )
        }
        Action::RemakeChoice { .. } | Action::KeepChoice | Action::DeclineNewChoices => (
            "750".into(),
            "no new choices are being made for this item now".into(),
        ),
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
        Action::PayDemand { pay: true } if enabled.contains(&Action::PayDemand { pay: false }) => (
            "357".into(),
            "the spell's controller cannot pay the demand from their pool; they can only decline".into(),
        ),
        _ => {
            let expected: Vec<String> = enabled.iter().map(|e| e.name().to_string()).collect();
            (
                a.rule().to_string(),
                format!(
                    "the rules call for {} here",
                    if expected.is_empty() {
                        "nothing more".into()
                    } else {
                        expected.join(" or ")
                    }
                ),
            )
        }
    }
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
        if card.kind == CardKind::Ability && !game.rules.repeat_on_abilities {
            return (
                "820.1.a".into(),
                format!(
                    "under {} only spells have [Repeat]; {} is an ability",
                    game.rules.name, card.name
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
