//! The fuzzer: generate cases from seeds, run each on the model and on the engine, compare,
//! group every hit by its cause (the rule and model step where the engine first diverges,
//! `triage`), shrink the first case of each cause (faults too) to a small case of the same
//! cause, and replay the shrunk case twice to tell a nondeterministic engine. Case `i` of seed
//! `s` is always the same case.

use super::capability::{self, Gap};
use super::compare::{compare, Comparison, Difference};
use super::gen::{self, Recipe};
use super::observe::model_observation;
use super::protocol::*;
use super::triage::{self, Cause};
use super::Engine;
use rbcheck_case::ast::{Case, PlayStmt};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The default budget in cases: what a run against the reference engine does in about half a
/// minute on two cores, half the minute an engine author should wait at most.
pub const DEFAULT_CASES: usize = 4000;

/// How long, how many, from which seed.
#[derive(Clone, Debug)]
pub struct FuzzConfig {
    /// The seed: the same seed gives the same cases.
    pub seed: u64,
    /// Stop after this many cases.
    pub cases: Option<usize>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Candidate evaluations allowed to shrink one finding.
    pub shrink_steps: usize,
    /// Stop after this many failed engine starts in a row.
    pub max_failed_starts: usize,
    /// Also write every generated case here (`NNNNN.case`, expectations: the model's).
    pub keep: Option<std::path::PathBuf>,
    /// Stop at the first finding: a mutant score asks only whether and where an engine is
    /// first caught, and the cases after it cost time.
    pub stop_at_first_finding: bool,
    /// Cases generated but not sent (the score's: those on which the unmutated engine already
    /// disagrees with the model, which say nothing of a mutant).
    pub skip: std::collections::BTreeSet<usize>,
}

impl Default for FuzzConfig {
    fn default() -> Self {
        FuzzConfig {
            seed: 0,
            cases: None,
            time: None,
            shrink_steps: 150,
            max_failed_starts: 5,
            keep: None,
            stop_at_first_finding: false,
            skip: Default::default(),
        }
    }
}

impl FuzzConfig {
    /// The number of cases to run, if bounded.
    pub fn case_limit(&self) -> Option<usize> {
        match (self.cases, self.time) {
            (None, None) => Some(DEFAULT_CASES),
            (c, _) => c,
        }
    }
}

/// The kind of the finding that flags an engine answering one case two ways.
pub const NONDETERMINISTIC: &str = "engine nondeterministic";

/// One cluster: the disagreements and faults of one cause.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The cluster's name (the grouping key): the cause in the rules' words with its rule
    /// numbers, or a fault's kind (`engine crash`), or a protocol difference's kind.
    pub kind: String,
    /// The rule the cluster cites (for a fault: what the rules say of its case).
    pub cited: String,
    /// The kinds of first difference its cases showed (one cause, several symptoms), with
    /// how many cases showed each.
    pub symptoms: BTreeMap<String, usize>,
    /// Every case of the cluster: its index and its first difference (or fault), in order.
    pub cases: Vec<(usize, String)>,
    /// How many generated cases hit it.
    pub hits: usize,
    /// The index of the first case that hit it.
    pub first_case: usize,
    /// The shrunk recipe.
    pub recipe: Recipe,
    /// The shrunk case (expectations: the model's).
    pub case: Case,
    /// The differences on the shrunk case (for a fault: empty).
    pub differences: Vec<Difference>,
    /// For an engine fault or error: what happened.
    pub fault: Option<String>,
    /// Statements (defines, board, plays) before and after shrinking.
    pub shrunk_from: (usize, usize),
    /// The rules the case is under.
    pub rules: String,
    /// What the finding supports, in one sentence: "the engine performs X where the rules
    /// (rule) say Y" (for a fault: the statement it fails on and what the rules say of it).
    pub sentence: String,
    /// The statement of the shrunk case where the engine diverges, when one shows it.
    pub line: Option<usize>,
    /// The rules refuse that statement.
    pub refused: bool,
    /// The cluster is named by a symptom (see `triage::Cause::weak`).
    pub weak: bool,
    /// The cluster's cause is only where the model decided the value that differs (see
    /// `triage::Cause::traced`).
    pub traced: bool,
    /// No reading of the whole run overrules its name (see `triage::Cause::settled`).
    pub settled: bool,
    /// The cause of the decision of the shrunk case whose flip makes the engine agree, if one
    /// does: a symptom cluster with the same decisive decision as a cause cluster is that
    /// cause's.
    pub decisive: Option<String>,
    /// The clauses that decision brings about on the shrunk case: a symptom cluster joins the
    /// cause cluster whose rule is among them.
    pub cured: Vec<String>,
    /// Other names its cases first came under (clusters merged into this one).
    pub merged: Vec<String>,
    /// The clauses its cases apply far more often than the cases the engine passed, best
    /// first (`spectrum`); computed when the run ends.
    pub suspects: Vec<super::spectrum::Suspect>,
    /// The positions (0-based) it and the findings merged into it were reported at while the
    /// run went on, its own first: the numbers their case files were first written under.
    pub filed: Vec<usize>,
}

impl Finding {
    /// Takes in another cluster's cases: the same root cause.
    fn absorb(&mut self, other: Finding) {
        self.hits += other.hits;
        for (k, v) in other.symptoms {
            *self.symptoms.entry(k).or_default() += v;
        }
        self.cases.extend(other.cases);
        self.cases.sort_by_key(|(i, _)| *i);
        self.first_case = self.first_case.min(other.first_case);
        self.filed.extend(other.filed);
        for k in std::iter::once(other.kind).chain(other.merged) {
            if k != self.kind && !self.merged.contains(&k) {
                self.merged.push(k);
            }
        }
    }

    /// One more case of the cluster.
    fn add_case(&mut self, i: usize, outcome: &Outcome) {
        self.hits += 1;
        *self.symptoms.entry(outcome.symptom()).or_default() += 1;
        self.cases.push((i, outcome.line()));
    }

    /// The one-line report: what the engine did, what the rule says, the rule number.
    pub fn summary(&self) -> String {
        match (&self.fault, self.differences.first()) {
            (Some(f), _) => f.clone(),
            (None, Some(d)) => d.line(),
            (None, None) => self.kind.clone(),
        }
    }
}

/// What a fuzzing run found.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    /// The engine's hello.
    pub engine: Option<Hello>,
    /// The seed.
    pub seed: u64,
    /// Cases generated.
    pub cases: usize,
    /// Cases compared.
    pub compared: usize,
    /// Cases the engine agreed on.
    pub agreed: usize,
    /// Cases skipped, by unsupported feature or rules.
    pub unsupported: BTreeMap<String, usize>,
    /// The same cases (skipped, declined, or decided otherwise by an automatic Repeat) as
    /// conformance gaps, each under the rule the engine cannot follow, in order of appearance.
    pub gaps: Vec<Gap>,
    /// Per rule clause, the cases the engine passed (see `conformance`).
    pub passed: super::clauses::Passed,
    /// The clauses, in their situations, each case of a finding applies (see `spectrum`).
    pub failing: super::spectrum::Failing,
    /// The same for the cases the engine passed, counted per clause and situation.
    pub passing: super::spectrum::Passing,
    /// Of those, cases the engine answered `unsupported` to (the rest its hello does not claim).
    pub declined: usize,
    /// Cases the engine answered with a result stating no field rbcheck compares (not
    /// counted as compared: such an answer agrees with nothing).
    pub stated_nothing: usize,
    /// Fields the engine did not report, with the number of cases.
    pub not_reported: BTreeMap<String, usize>,
    /// Engine faults (crash, hang, garbage, wrong version) and error replies.
    pub faults: usize,
    /// Recipes the model could not make a case of.
    pub generation_failures: usize,
    /// Cases generated but not sent (`FuzzConfig::skip`).
    pub excluded: usize,
    /// Coverage goals the generated cases reached (distinct).
    pub goals: usize,
    /// The findings, in order of discovery.
    pub findings: Vec<Finding>,
    /// Why the run stopped early, if it did.
    pub aborted: Option<String>,
    /// A `--keep` case file that could not be written: the run stops there, since the folder
    /// would silently miss cases.
    pub keep_failed: Option<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// What one case gave.
enum Outcome {
    Agree(Comparison),
    Disagree(Comparison, Cause),
    Unsupported(String),
    /// The engine answered `unsupported` to a case its hello claims.
    Declined(String),
    /// A fault's kind, its message, and the cause when the rules refuse a statement of the
    /// case (an error reply there is the engine diverging at that statement).
    Fault(String, String, Option<Cause>),
    NoCase,
}

impl Outcome {
    /// The cluster the outcome belongs to, if it is a finding.
    fn kind(&self) -> Option<String> {
        match self {
            Outcome::Disagree(_, c) | Outcome::Fault(_, _, Some(c)) => Some(c.name.clone()),
            Outcome::Fault(k, _, None) => Some(k.clone()),
            _ => None,
        }
    }

    /// What triage says of the case, when it is a finding.
    fn cause(&self) -> Option<&Cause> {
        match self {
            Outcome::Disagree(_, c) | Outcome::Fault(_, _, Some(c)) => Some(c),
            _ => None,
        }
    }

    /// The symptom: the first difference's kind, or the fault's.
    fn symptom(&self) -> String {
        match self {
            Outcome::Disagree(c, _) => c.kind().unwrap_or_default().to_string(),
            // A fault on a case the rules allow is not shrunk into one on a case they refuse
            // (a card left out of the hand): that is the engine failing at another statement.
            Outcome::Fault(k, _, Some(_)) => format!("{k} at a statement the rules refuse"),
            Outcome::Fault(k, _, None) => k.clone(),
            _ => String::new(),
        }
    }

    /// One line: the first difference, or the fault.
    fn line(&self) -> String {
        match self {
            Outcome::Disagree(c, _) => c.differences.first().map(|d| d.line()).unwrap_or_default(),
            Outcome::Fault(_, m, _) => m.clone(),
            _ => String::new(),
        }
    }
}

impl FuzzReport {
    /// Why the run compared nothing (`None`: at least one case was compared on at least one
    /// field). A run that compared nothing proves nothing, whatever else it says: `rbcheck
    /// fuzz` exits 2 with these reasons.
    pub fn nothing_compared(&self) -> Option<String> {
        if self.compared > 0 {
            return None;
        }
        let skipped: usize = self.unsupported.values().sum::<usize>() - self.declined;
        let mut why = vec![];
        if self.cases == 0 {
            why.push("no case was run".to_string());
        }
        for (n, what) in [
            (
                skipped,
                "skipped as unsupported by the engine's hello (features or rules)",
            ),
            (self.declined, "answered `unsupported` by the engine"),
            (
                self.stated_nothing,
                "answered with a result stating no field rbcheck compares",
            ),
            (self.faults, "engine faults"),
            (self.generation_failures, "recipes that made no case"),
        ] {
            if n > 0 {
                why.push(format!("{n} {what}"));
            }
        }
        Some(format!(
            "no case was compared on any field ({})",
            why.join("; ")
        ))
    }
}

/// A recipe from raw bytes (for coverage-guided fuzzers): the first 32 bytes seed the
/// starting position's draw (through the generator's PRNG), the rest are the walk's choices, one
/// byte a decision, so that a mutation of the tail changes one decision of the play.
pub fn recipe_from_bytes(bytes: &[u8]) -> Recipe {
    let (head, tail) = bytes.split_at(bytes.len().min(32));
    // FNV-1a over the head: every byte of it changes the draw.
    let seed = head.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01B3)
    });
    let drawer = gen::Drawer::new(
        &model::catalogue::Catalogue::builtin(),
        &gen::Profile::all(),
    );
    let mut r = drawer.draw(&mut gen::Rng::new(seed));
    if !tail.is_empty() {
        r.walk = gen::Walk::Bytes(tail.iter().take(120).copied().collect());
    }
    r
}

/// Compares one case on the model and the engine: the differences, or why there are none.
pub struct Checker<'a> {
    engine: &'a mut dyn Engine,
    hello: Hello,
    rules: Vec<String>,
    profile: gen::Profile,
    next_id: u64,
    /// The engine's last answer, as text (what a second run of the same case is held to).
    last_answer: String,
}

/// A one-case verdict, for tests and the bolero harness.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// The engine agrees with the model.
    Agree,
    /// The differences.
    Disagree(Vec<Difference>),
    /// Not compared: the engine does not support this.
    Unsupported(String),
    /// Not compared: the engine's result states no field rbcheck compares.
    StatedNothing,
    /// The engine crashed, hung, printed garbage or replied with an error.
    Fault(String),
    /// The recipe makes no case.
    NoCase,
    /// The case file is not a valid case: why, naming the file and line as `replay` does.
    Invalid(String),
}

impl<'a> Checker<'a> {
    /// A checker for an engine (this does the handshake).
    pub fn new(engine: &'a mut dyn Engine) -> Result<Checker<'a>, Fault> {
        let hello = engine.hello()?;
        let rules = gen::usable_rules(&hello.rules);
        // What the engine declared and its protocol version can carry.
        let declared: Vec<String> = hello
            .features
            .iter()
            .filter(|f| hello.supports(f))
            .cloned()
            .collect();
        let profile = gen::Profile::new(&declared);
        Ok(Checker {
            engine,
            hello,
            rules,
            profile,
            next_id: 0,
            last_answer: String::new(),
        })
    }

    /// The engine's hello.
    pub fn hello(&self) -> &Hello {
        &self.hello
    }

    /// The case a recipe makes for this engine (under one of its rules).
    pub fn case(&self, r: &Recipe, header: Vec<String>) -> Result<Case, String> {
        gen::generate_for(r, &self.rules, &self.profile, header)
    }

    /// Runs a case on both sides.
    pub fn check_case(&mut self, case: &Case) -> Verdict {
        self.check_case_in(case, None)
    }

    /// Runs a case from a file in `dir` (for a rulebook file the case names) on both sides.
    pub fn check_case_in(&mut self, case: &Case, dir: Option<&std::path::Path>) -> Verdict {
        match self.outcome_in(case, dir) {
            Outcome::Agree(c) if c.compared == 0 => Verdict::StatedNothing,
            Outcome::Agree(_) => Verdict::Agree,
            Outcome::Disagree(c, _) => Verdict::Disagree(c.differences),
            Outcome::Unsupported(f) | Outcome::Declined(f) => Verdict::Unsupported(f),
            Outcome::Fault(_, m, _) => Verdict::Fault(m),
            Outcome::NoCase => Verdict::NoCase,
        }
    }

    /// Runs a recipe's case on both sides.
    pub fn check(&mut self, r: &Recipe) -> Verdict {
        match self.case(r, vec![]) {
            Ok(c) => self.check_case(&c),
            Err(_) => Verdict::NoCase,
        }
    }

    fn outcome(&mut self, r: &Recipe) -> (Outcome, Option<Case>) {
        match self.case(r, vec![]) {
            Ok(c) => (self.outcome_of(&c), Some(c)),
            Err(_) => (Outcome::NoCase, None),
        }
    }

    fn outcome_of(&mut self, case: &Case) -> Outcome {
        self.outcome_in(case, None)
    }

    fn outcome_in(&mut self, case: &Case, dir: Option<&std::path::Path>) -> Outcome {
        if !self.hello.supports_rules(&case.rules) {
            return Outcome::Unsupported(format!("rules {}", case.rules));
        }
        self.next_id += 1;
        let req = match request(case, dir, self.next_id) {
            Ok(r) => r,
            Err(_) => return Outcome::NoCase,
        };
        if let Some(f) = req.features.iter().find(|f| !self.hello.supports(f)) {
            return Outcome::Unsupported(f.clone());
        }
        // What a count-shaped Repeat may not say is sent all the same: the engine answers it
        // (and is compared) or declines it (a gap under the rule it cannot follow).
        let model = match model_observation(case, dir) {
            Ok(m) => self.hello.expressible(&m),
            Err(_) => return Outcome::NoCase,
        };
        let reply = self.engine.run(&req);
        self.last_answer = match &reply {
            Reply::Result(obs) => serde_json::to_string(obs).unwrap_or_default(),
            Reply::Unsupported { feature, .. } => format!("unsupported {feature}"),
            Reply::Error(m) => format!("error {m}"),
            Reply::Fault(f) => format!("engine {}", f.kind()),
        };
        match reply {
            Reply::Result(obs)
                if self.hello.repeat == RepeatShape::Automatic
                    && capability::decided_otherwise(&req, &model, &obs) =>
            {
                Outcome::Unsupported(capability::REPEAT_DECISION.into())
            }
            Reply::Result(obs) => {
                let c = compare(&req, &model, &self.hello.expressible(&obs));
                if c.differences.is_empty() {
                    Outcome::Agree(c)
                } else {
                    let cause = triage::cause(case, dir, &req, &model, &obs, &c);
                    Outcome::Disagree(c, cause)
                }
            }
            Reply::Unsupported { feature, .. } => {
                Outcome::Declined(capability::decline_reason(&self.hello, &req, &feature))
            }
            // The plays follow the case's [Repeat] decisions; an engine taking its own may
            // find them ending early or going on: not a fault of it.
            Reply::Error(_)
                if self.hello.repeat == RepeatShape::Automatic && capability::pays(&req) =>
            {
                Outcome::Unsupported(capability::REPEAT_DECISION.into())
            }
            Reply::Error(m) => Outcome::Fault(
                "engine error".into(),
                format!("the engine reports an error: {m}"),
                triage::divergent_line(&req, &model, None)
                    .and_then(|l| triage::statement_cause(case, l)),
            ),
            Reply::Fault(f) => Outcome::Fault(format!("engine {}", f.kind()), f.to_string(), None),
        }
    }
}

/// The statements of a case (defines, board and plays): what shrinking makes smaller.
pub fn size(c: &Case) -> usize {
    c.defines.len() + c.board.len() + c.plays.len()
}

/// Runs the fuzzer against an engine.
pub fn fuzz(engine: &mut dyn Engine, cfg: &FuzzConfig) -> FuzzReport {
    fuzz_with(engine, cfg, &mut |_, _| {})
}

/// Runs the fuzzer, calling `progress(case_index, report)` after every case.
pub fn fuzz_with(
    engine: &mut dyn Engine,
    cfg: &FuzzConfig,
    progress: &mut dyn FnMut(usize, &FuzzReport),
) -> FuzzReport {
    let start = Instant::now();
    let mut report = FuzzReport {
        seed: cfg.seed,
        ..FuzzReport::default()
    };
    let Some(hello) = handshake(engine, cfg, &mut report, start) else {
        return report;
    };
    report.engine = Some(hello);
    let mut checker = match Checker::new(engine) {
        Ok(c) => c,
        Err(f) => {
            report.aborted = Some(f.to_string());
            return report;
        }
    };
    if checker.rules.is_empty() {
        report.aborted = Some(format!(
            "the engine supports none of the rules rbcheck generates ({}); its hello says {:?}",
            PRESETS.join(", "),
            checker.hello.rules
        ));
        return report;
    }
    let limit = cfg.case_limit();
    let mut failed_in_a_row = 0usize;
    let mut i = 0usize;
    let mut clusters = Clusters::default();
    let mut generator = gen::Generator::new(
        cfg.seed,
        &checker.rules,
        &checker.profile,
        &model::catalogue::Catalogue::builtin(),
    );
    loop {
        if limit.is_some_and(|l| i >= l) || cfg.time.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
        let made = generator.next(i as u64);
        report.goals = generator.goals_reached();
        if cfg.skip.contains(&i) {
            report.excluded += 1;
            i += 1;
            progress(i, &report);
            continue;
        }
        let recipe = made.recipe;
        report.cases += 1;
        let (outcome, case) = match made.case {
            Ok(c) => (checker.outcome_of(&c), Some(c)),
            Err(_) => (Outcome::NoCase, None),
        };
        if let (Some(dir), Some(c)) = (&cfg.keep, &case) {
            let path = dir.join(format!("{i:05}.case"));
            let written = std::fs::create_dir_all(dir)
                .and_then(|()| std::fs::write(&path, rbcheck_case::print(c)));
            if let Err(e) = written {
                let why = format!("--keep: cannot write {}: {e}", path.display());
                report.aborted = Some(why.clone());
                report.keep_failed = Some(why);
                break;
            }
        }
        if count(&mut report, &outcome, i) {
            failed_in_a_row = 0;
        }
        if let (Outcome::Agree(c), Some(case)) = (&outcome, &case) {
            if c.compared > 0 {
                report.passed.count(case, i);
                report.passing.count(case);
            }
        }
        if let (Some(kind), Some(case)) = (outcome.kind(), case) {
            report
                .failing
                .0
                .insert(i, super::spectrum::predicates(&case));
            let hit = Hit {
                outcome: &outcome,
                kind,
                case,
                i,
            };
            let new = clusters.file(&mut report, &mut checker, &recipe, cfg, hit);
            if new && cfg.stop_at_first_finding {
                i += 1;
                progress(i, &report);
                break;
            }
        }
        if let Outcome::Fault(..) = outcome {
            failed_in_a_row += 1;
            if failed_in_a_row >= cfg.max_failed_starts.max(1) * 4 {
                report.aborted = Some(format!(
                    "the engine failed on {failed_in_a_row} cases in a row; stopping"
                ));
                i += 1;
                progress(i, &report);
                break;
            }
        }
        i += 1;
        progress(i, &report);
    }
    if clusters.release(&mut report, &mut checker) {
        progress(i, &report);
    }
    naming::name_by_suspects(&mut report);
    naming::join_by_suspects(&mut report);
    naming::join_by_decision(&mut report);
    naming::merge_same_names(&mut report);
    naming::largest_first(&mut report);
    report.seconds = start.elapsed().as_secs_f64();
    report
}

/// Counts case `i`'s outcome in the report; true if the engine answered (no fault).
fn count(report: &mut FuzzReport, outcome: &Outcome, i: usize) -> bool {
    match outcome {
        Outcome::Agree(c) if c.compared == 0 => report.stated_nothing += 1,
        Outcome::Agree(c) | Outcome::Disagree(c, _) => {
            report.compared += 1;
            for f in &c.not_reported {
                *report.not_reported.entry(f.to_string()).or_default() += 1;
            }
            if matches!(outcome, Outcome::Agree(_)) {
                report.agreed += 1;
            }
        }
        Outcome::Unsupported(f) | Outcome::Declined(f) => {
            *report.unsupported.entry(f.clone()).or_default() += 1;
            capability::record(&mut report.gaps, f, i);
            if matches!(outcome, Outcome::Declined(_)) {
                report.declined += 1;
            }
        }
        Outcome::Fault(..) => {
            report.faults += 1;
            return false;
        }
        Outcome::NoCase => report.generation_failures += 1,
    }
    true
}

/// What a fault finding says when the fault did not happen again on the same case.
pub const NOT_RECURRING: &str = "did not recur when the case was sent again";

/// The engine's hello; a failing start is retried like any other, up to
/// `cfg.max_failed_starts` in a row (`None`: the run is aborted, said in the report).
fn handshake(
    engine: &mut dyn Engine,
    cfg: &FuzzConfig,
    report: &mut FuzzReport,
    start: Instant,
) -> Option<Hello> {
    let mut attempts = 0;
    loop {
        match engine.hello() {
            Ok(h) => return Some(h),
            Err(Fault::Spawn(m)) => {
                report.aborted = Some(format!("the engine cannot be started: {m}"));
                report.seconds = start.elapsed().as_secs_f64();
                return None;
            }
            Err(f) => {
                attempts += 1;
                report.faults += 1;
                if attempts >= cfg.max_failed_starts {
                    report.aborted = Some(format!(
                        "the engine failed to start {attempts} times in a row; last: {f}"
                    ));
                    report.seconds = start.elapsed().as_secs_f64();
                    return None;
                }
            }
        }
    }
}

/// The number of play statements of a case that are decisions (not passes).
pub fn decisions(c: &Case) -> usize {
    c.plays
        .iter()
        .filter(|p| !matches!(p.stmt, PlayStmt::Pass { .. }))
        .count()
}

/// The verdict on one case file.
#[derive(Clone, Debug)]
pub struct FileVerdict {
    /// The file.
    pub path: std::path::PathBuf,
    /// What the engine did with it (compared with the model's replay, not the file's
    /// expectations: the two agree for a passing case).
    pub verdict: Verdict,
}

/// Sends case files to an engine and compares each answer with the model's. A file that is
/// not a valid case (what `rbcheck replay` calls an error) is [`Verdict::Invalid`] with the
/// same message, and is never sent.
pub fn check_files(
    engine: &mut dyn Engine,
    files: &[std::path::PathBuf],
) -> Result<Vec<FileVerdict>, Fault> {
    let mut checker = Checker::new(engine)?;
    let mut out = vec![];
    for f in files {
        let verdict = match rbcheck_case::load_file(f) {
            Ok((case, _)) => checker.check_case_in(&case, f.parent()),
            Err(why) => Verdict::Invalid(why),
        };
        out.push(FileVerdict {
            path: f.clone(),
            verdict,
        });
    }
    Ok(out)
}

/// The case with these header lines and the model's expectations (lines renumbered).
pub fn with_header(case: &Case, header: Vec<String>) -> Result<Case, String> {
    use rbcheck_case::replay;
    let mut c = case.clone();
    c.header = header;
    c.expects.clear();
    let c = rbcheck_case::parse(&rbcheck_case::print(&c)).map_err(|e| e.to_string())?;
    let rules = replay::rulebook(&c, None).map_err(|e| e.to_string())?;
    let game = model::game::Game::new(rules, replay::cards(&c).map_err(|e| e.to_string())?);
    let (setup, _) = replay::setup(&game, &c).map_err(|e| e.to_string())?;
    rbcheck_case::from_trace::with_expectations(c, &setup, None)
}

mod clusters;
mod decisive;
mod finding;
mod naming;
mod shrink;
use clusters::{Clusters, Hit};
use finding::{new_finding, replay_twice};
use shrink::{shrink, shrink_case, Shrunk};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_bytes_make_a_recipe() {
        for input in [
            vec![],
            vec![0u8; 64],
            vec![255u8; 600],
            (0..=255u8).collect::<Vec<_>>(),
        ] {
            let r = recipe_from_bytes(&input);
            if let gen::Walk::Bytes(b) = &r.walk {
                assert!(b.len() <= 120);
            }
        }
    }
}
