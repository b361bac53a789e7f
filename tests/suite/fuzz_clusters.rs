//! `rbcheck fuzz` triage by cause: one planted mistake is one cluster named by its rule, one
//! symptom with several causes is split by the cause, and an engine that answers one case two
//! ways is flagged, and a fault is shrunk and named like a disagreement.

use rbcheck::engine::fuzz::{fuzz, FuzzConfig, NONDETERMINISTIC};
use rbcheck::engine::{ModelEngine, ProcessEngine};
use std::time::Duration;

fn reference() -> String {
    format!(
        "python3 {}",
        crate::shared::root()
            .join("tests/engines/reference_engine.py")
            .display()
    )
}

/// The reference engine with one mutant.
fn mutant(name: &str) -> ProcessEngine {
    ProcessEngine::new(
        &format!("{} --mutant {name}", reference()),
        Duration::from_secs(20),
    )
    .unwrap()
}

/// One root cause is one cluster: the `unlimited-payments` mutant shows itself as a `repeat`
/// the engine accepts (refused by 820.1.c.3 or 355.1.a), a later statement, or an error reply,
/// all at the declaration of a [Repeat] instance; before triage these were four findings.
#[test]
fn unlimited_payments_is_one_cluster_named_by_its_rule() {
    let cfg = FuzzConfig {
        cases: Some(600),
        ..FuzzConfig::default()
    };
    // The unmutated reference agrees with the model on every generated case (docs/fuzzing.md),
    // so a second kind here would be a disagreement of the reference itself: worth a failure.
    let r = fuzz(&mut mutant("unlimited-payments"), &cfg);
    let kinds: Vec<&str> = r.findings.iter().map(|f| f.kind.as_str()).collect();
    assert_eq!(kinds.len(), 1, "{kinds:?}");
    let f = &r.findings[0];
    assert!(
        f.kind.contains("each Repeat instance paid once") && f.kind.contains("820.1.c"),
        "{kinds:?}"
    );
    assert!(
        f.symptoms.len() >= 2,
        "several symptoms, one cause: {:?}",
        f.symptoms
    );
    assert_eq!(f.cases.len(), f.hits);
    assert_eq!(f.symptoms.values().sum::<usize>(), f.hits);
}

/// A run of 800 cases at the default seed on the `repeat-paid-on-resolution` mutant, made once
/// for the tests that read it.
fn repeat_paid_on_resolution() -> &'static rbcheck::engine::fuzz::FuzzReport {
    static RUN: std::sync::OnceLock<rbcheck::engine::fuzz::FuzzReport> = std::sync::OnceLock::new();
    // 800 cases: the mistake shows in every case that pays a [Repeat] cost, and the tests
    // read the clusters, not the budget.
    RUN.get_or_init(|| {
        let cfg = FuzzConfig {
            cases: Some(800),
            ..FuzzConfig::default()
        };
        fuzz(&mut mutant("repeat-paid-on-resolution"), &cfg)
    })
}

/// One planted mistake, one cluster named by its rule: `repeat-paid-on-resolution` (the
/// [Repeat] cost paid when the extra execution resolves, not while playing) showed as 8
/// findings under 8 names (an error reply, paid less or more, fewer executions, legal `pay`,
/// `rune`, `close`, `play` and `end turn` statements refused). Its cases are one cluster, named
/// where the engine's run first leaves the model's: the [Repeat] cost added to the cost while
/// playing, the refusals folded in by the decision that cures them. Not yet reached: at seed
/// 0 up to 15 % of its cases stay in up to five smaller clusters (9 % in five when gear could
/// first be played from hand; 4 % in four before), and which ones moves with any change to the
/// model or the generator (an error reply after a statement the rules refuse, in a case with
/// three [Repeat] plays that no single decision cures; a refusal of a payment with runes or
/// Find Your Center's channelled ones that no decision cures; a refusal a countered item's
/// refund would explain). At seeds 1-3 the largest cluster held 66 %, 95 % and 85 % of the
/// cases, named by 356.2.b at each. This test holds that line and no worse.
#[test]
fn repeat_paid_on_resolution_is_one_cluster_named_by_its_rule() {
    let r = repeat_paid_on_resolution();
    let clusters: Vec<_> = r
        .findings
        .iter()
        .filter(|f| f.kind != NONDETERMINISTIC)
        .collect();
    let kinds: Vec<&str> = clusters.iter().map(|f| f.kind.as_str()).collect();
    let hits: usize = clusters.iter().map(|f| f.hits).sum();
    assert!(kinds.len() <= 6, "{kinds:?}");
    assert!(clusters[0].hits * 100 >= hits * 85, "{kinds:?}");
    let f = clusters[0];
    assert!(!f.merged.is_empty() && f.hits >= 30, "{f:?}");
    assert!(
        rbcheck::engine::clauses::clauses_of(&f.cited).contains(&"356.2.b".to_string()),
        "{}: {}",
        f.kind,
        f.cited
    );
    assert!(f.symptoms.len() >= 3, "{:?}", f.symptoms);
    assert!(
        f.sentence.contains("where the rules (356.2.b)"),
        "{}",
        f.sentence
    );
}

/// One symptom, several causes: `paid: engine less` comes from a discount applied per
/// execution (356.4), a Repeat cost left out of the payment (356.2.b) or Deflect paid once per
/// unit (809.1.c); each is its own cluster, named by the cost component that explains it.
#[test]
fn paid_engine_less_is_split_by_the_cost_component_that_explains_it() {
    let mut clusters: Vec<(String, String)> = vec![];
    for m in [
        "discount-per-execution",
        "repeat-paid-on-resolution",
        "deflect-paid-once",
    ] {
        let own;
        let r = match m {
            "repeat-paid-on-resolution" => repeat_paid_on_resolution(),
            // A cost component's mistake shows in the first few hundred cases.
            _ => {
                let cfg = FuzzConfig {
                    cases: Some(400),
                    ..FuzzConfig::default()
                };
                own = fuzz(&mut mutant(m), &cfg);
                &own
            }
        };
        // The mutant's largest cluster with the symptom: a straggler of one or two cases can
        // be explained otherwise (a [Repeat] cost paid late without a discount reads like a
        // discount applied per execution).
        if let Some(f) = r
            .findings
            .iter()
            .filter(|f| f.symptoms.contains_key("paid: engine less"))
            .max_by_key(|f| f.hits)
        {
            clusters.push((m.to_string(), f.kind.clone()));
        }
    }
    let names: std::collections::BTreeSet<&str> =
        clusters.iter().map(|(_, k)| k.as_str()).collect();
    assert!(names.len() >= 2, "{clusters:#?}");
    // A discount per execution is named by the discounts' clause: the rulebook reading
    // `discount_per_execution` (the model replaying the case so gives the engine's answer) or
    // whole-card discounts applied once (356.4.d).
    for (m, k) in &clusters {
        let discount = k.contains("(356.4, Temporal Portal FAQ)") || k.contains("(356.4.d)");
        assert_eq!(
            discount,
            m == "discount-per-execution",
            "{m}: {k}\n{clusters:#?}"
        );
        if m == "repeat-paid-on-resolution" {
            assert!(k.contains("356.2.b"), "{m}: {k}\n{clusters:#?}");
        }
        if m == "deflect-paid-once" {
            assert!(k.contains("809.1.c"), "{m}: {k}\n{clusters:#?}");
        }
    }
}

/// The model, except that every other answer has a card too many in your hand: an engine whose
/// answer depends on what it ran before (the test is reproducible, the engine is not).
struct Coin {
    model: ModelEngine,
    state: u64,
}

impl rbcheck::engine::Engine for Coin {
    fn hello(&mut self) -> Result<rbcheck::engine::Hello, rbcheck::engine::Fault> {
        self.model.hello()
    }

    fn run(&mut self, req: &rbcheck::engine::CaseRequest) -> rbcheck::engine::Reply {
        // Every other answer tampered with: the same case sent twice in a row is answered
        // two ways.
        self.state += 1;
        match self.model.run(req) {
            rbcheck::engine::Reply::Result(mut o) if self.state.is_multiple_of(2) => {
                if let Some(p) = o.players.as_mut().and_then(|p| p.get_mut("you")) {
                    p.hand_size = p.hand_size.map(|h| h + 1);
                }
                rbcheck::engine::Reply::Result(o)
            }
            other => other,
        }
    }
}

/// An engine that answers one case two ways is flagged nondeterministic, a finding of its own.
#[test]
fn an_engine_answering_at_random_is_flagged_nondeterministic() {
    let mut e = Coin {
        model: ModelEngine::new(),
        state: 0,
    };
    let r = fuzz(
        &mut e,
        &FuzzConfig {
            cases: Some(40),
            shrink_steps: 20,
            ..FuzzConfig::default()
        },
    );
    let kinds: Vec<&str> = r.findings.iter().map(|f| f.kind.as_str()).collect();
    assert!(kinds.contains(&NONDETERMINISTIC), "{kinds:?}");
    let f = r
        .findings
        .iter()
        .find(|f| f.kind == NONDETERMINISTIC)
        .unwrap();
    assert!(f.summary().contains("two ways"), "{}", f.summary());
    // The model itself is deterministic: never flagged.
    let r = fuzz(
        &mut ModelEngine::new(),
        &FuzzConfig {
            cases: Some(40),
            ..FuzzConfig::default()
        },
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
}

/// The model, except that it answers `error` to every case that pays a [Repeat] instance.
struct ErrsOnRepeat(ModelEngine);

impl rbcheck::engine::Engine for ErrsOnRepeat {
    fn hello(&mut self) -> Result<rbcheck::engine::Hello, rbcheck::engine::Fault> {
        self.0.hello()
    }

    fn run(&mut self, req: &rbcheck::engine::CaseRequest) -> rbcheck::engine::Reply {
        if req
            .case_text
            .as_deref()
            .is_some_and(|t| t.contains("pay\n") && t.contains("repeat 1 pay"))
        {
            return rbcheck::engine::Reply::Error("repeat not implemented".into());
        }
        self.0.run(req)
    }
}

/// A fault (an error where the rules allow the play) is shrunk like a disagreement and named
/// by the statement it is at and the rule the model applies there: here the `repeat 1 pay`
/// whose skipping cures it (355.1.a, 820.1.c.2-3), one cluster at each of three seeds. The same
/// engine erring on a case whose statement the rules refuse (the generator injects such
/// statements) fails there another way, by not refusing it: that is its own finding, never
/// shrunk into or out of the first (its symptom says the rules refuse a statement).
#[test]
fn a_fault_is_shrunk_and_cites_a_rule() {
    for seed in 0..3 {
        let r = fuzz(
            &mut ErrsOnRepeat(ModelEngine::new()),
            &FuzzConfig {
                seed,
                cases: Some(150),
                ..FuzzConfig::default()
            },
        );
        let refused = |f: &&rbcheck::engine::fuzz::Finding| {
            f.symptoms
                .keys()
                .all(|s| s.ends_with("at a statement the rules refuse"))
        };
        let (at_refused, allowed): (Vec<_>, Vec<_>) = r.findings.iter().partition(refused);
        let kinds: Vec<&String> = r.findings.iter().map(|f| &f.kind).collect();
        assert_eq!(allowed.len(), 1, "seed {seed}: {kinds:?}");
        fault_named_by_its_statement(allowed[0]);
        assert!(
            at_refused.iter().all(|f| f.refused),
            "seed {seed}: {kinds:?}"
        );
        assert!(!r.findings.iter().any(|f| f.kind == NONDETERMINISTIC));
    }
}

/// `f` is a shrunk fault named by the `repeat 1 pay` that cures it.
fn fault_named_by_its_statement(f: &rbcheck::engine::fuzz::Finding) {
    assert!(f.fault.is_some(), "{f:?}");
    assert!(
        f.shrunk_from.1 < f.shrunk_from.0,
        "shrunk: {:?}",
        f.shrunk_from
    );
    assert!(f.cited.contains("820.1.c"), "{}", f.cited);
    assert!(
        f.sentence.contains("`repeat 1 pay`") && f.sentence.contains("allow it"),
        "{}",
        f.sentence
    );
}
