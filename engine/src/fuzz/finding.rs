//! Making a finding: a new cause's case shrunk and named, and its shrunk case sent twice more to
//! see that the engine answers it one way.

use super::*;

/// A finding of a new cause, first met at case `i`: its case shrunk while the engine still
/// shows the same symptom, then named on the shrunk case (`decisive::name_cluster`). A fault is
/// shrunk the same way if it happens again when the case is sent again; one that does not
/// recur is kept as it came, and says so.
pub(super) fn new_finding(
    checker: &mut Checker,
    recipe: &Recipe,
    cfg: &FuzzConfig,
    outcome: &Outcome,
    kind: String,
    case: Case,
    i: usize,
) -> Finding {
    let rules = case.rules.clone();
    let original_plays = size(&case);
    let family = outcome.symptom();
    let recurs = match outcome {
        Outcome::Fault(..) => checker.outcome_of(&case).symptom() == family,
        _ => true,
    };
    let first = Shrunk {
        case: case.clone(),
        differences: match outcome {
            Outcome::Disagree(c, _) => c.differences.clone(),
            _ => vec![],
        },
        fault: match outcome {
            Outcome::Fault(_, m, _) if recurs => Some(m.clone()),
            Outcome::Fault(_, m, _) => Some(format!("{m} (it {NOT_RECURRING}: the fault depends on what the engine ran before, so the case is not shrunk)")),
            _ => None,
        },
        cause: outcome.cause().cloned(),
    };
    let (recipe, shrunk) = if recurs {
        shrink(
            checker,
            recipe,
            first.case.clone(),
            &family,
            cfg.shrink_steps,
        )
    } else {
        (recipe.clone(), None)
    };
    let best = match shrunk {
        Some(s) => shrink_case(checker, s, &family, cfg.shrink_steps),
        None => first,
    };
    let (cause, decisive, cured) = if recurs {
        decisive::name_cluster(checker, &best)
    } else {
        (None, None, vec![])
    };
    let model = crate::observe::model_observation(&best.case, None).ok();
    let refused_line = model
        .as_ref()
        .and_then(|m| m.illegal.as_ref())
        .and_then(|x| x.line);
    let line = cause.as_ref().and_then(|c| c.line);
    let mut f = Finding {
        kind: cause.as_ref().map_or(kind, |c| c.name.clone()),
        cited: match (&cause, best.differences.first()) {
            (Some(c), _) => c.rule.clone(),
            (None, Some(d)) => d.rule.clone(),
            _ => triage::fault_rule(&best.case, model.as_ref()),
        },
        symptoms: BTreeMap::from([(family, 1)]),
        cases: vec![(i, outcome.line())],
        hits: 1,
        first_case: i,
        shrunk_from: (original_plays, size(&best.case)),
        recipe,
        case: best.case,
        differences: best.differences,
        fault: best.fault,
        rules,
        sentence: String::new(),
        line,
        refused: line.is_some() && line == refused_line,
        weak: cause.as_ref().is_some_and(|c| c.weak),
        traced: cause.as_ref().is_some_and(|c| c.traced),
        settled: cause.as_ref().is_some_and(|c| c.settled),
        decisive: decisive.map(|c| c.name),
        cured,
        merged: vec![],
        suspects: vec![],
        filed: vec![],
    };
    f.sentence = decisive::sentence(&f);
    f
}

/// Sends a finding's shrunk case to the engine twice more: two different answers to one case
/// flag the engine nondeterministic, a finding of its own (an engine whose answer depends on
/// what it ran before cannot be held to any single case). A fault that did not recur is
/// already said to be so in its finding, and not replayed again.
pub(super) fn replay_twice(checker: &mut Checker, f: &Finding) -> Option<Finding> {
    if f.kind == NONDETERMINISTIC
        || f.fault
            .as_deref()
            .is_some_and(|m| m.contains(NOT_RECURRING))
    {
        return None;
    }
    let case = rbcheck_case::parse(&rbcheck_case::print(&f.case)).ok()?;
    checker.outcome_of(&case);
    let first = checker.last_answer.clone();
    checker.outcome_of(&case);
    let second = checker.last_answer.clone();
    if first == second {
        return None;
    }
    let cut = |s: &str| s.chars().take(300).collect::<String>();
    Some(Finding {
        kind: NONDETERMINISTIC.into(),
        cited: "the rules give one outcome for one position and one set of decisions".into(),
        symptoms: BTreeMap::from([(NONDETERMINISTIC.to_string(), 1)]),
        cases: vec![(f.first_case, "the same case answered two ways".into())],
        hits: 1,
        first_case: f.first_case,
        recipe: f.recipe.clone(),
        case: f.case.clone(),
        differences: vec![],
        fault: Some(format!(
            "the engine answered this case two ways when it was sent twice (the shrunk case of finding `{}`): first {}, then {}",
            f.kind,
            cut(&first),
            cut(&second)
        )),
        shrunk_from: f.shrunk_from,
        rules: f.rules.clone(),
        sentence: "the engine answers one case two ways where the rules give one outcome for one position and one set of decisions".into(),
        line: None,
        refused: false,
        weak: false,
        traced: false,
        settled: false,
        decisive: None,
        cured: vec![],
        merged: vec![],
        suspects: vec![],
        filed: vec![],
    })
}
