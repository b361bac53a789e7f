//! Generating cases from the model and the catalogue, steered by coverage goals.
//!
//! A [`Recipe`] is a starting position drawn from the catalogue by the cards' properties
//! (`draw`; sometimes with a spell recombined from the catalogue's parts, `spell`), the seed of
//! a random walk through the model's enabled actions (`walk`), and maybe an illegal statement
//! to inject (`inject`). The [`Generator`] makes case `i` of a seed by drawing several candidate
//! recipes from its own PRNG (`prng`), running the model on each, and keeping the one whose run
//! reaches the most goals not reached yet (`goals`: rule clauses crossed with the item's
//! controller and whose things change, decision kinds, targets, cards, illegal statements by the
//! rule refusing them), like a coverage-guided fuzzer. Candidates an engine cannot be sent (a
//! feature its hello does not declare) are not kept.

use model::card::CardDef;
use model::catalogue::Catalogue;
use model::game::Game;
use model::rulebook::Rulebook;
use model::setup::Setup;
use rbcheck_case::ast::*;
use rbcheck_case::from_trace::case_for_run;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

mod draw;
pub mod goals;
mod inject;
pub use checker::prng;
mod profile;
mod spell;
mod walk;

pub use draw::Pools;
pub use prng::Rng;
pub use profile::Profile;
pub use spell::GENERATED;
pub use walk::{walk, Walk};

/// The number of kinds of injected illegal statement (`inject`).
pub const INJECT_KINDS: u8 = inject::KINDS;

/// Everything a generated case is made from.
#[derive(Clone)]
pub struct Recipe {
    /// Which of the engine's rules presets (index, modulo their number).
    pub rules: u8,
    /// The catalogue the position is drawn from.
    pub catalogue: Arc<Vec<CardDef>>,
    /// A generated spell, after the catalogue's cards in the card table.
    pub generated: Option<Box<CardDef>>,
    /// The starting position; card ids index the catalogue, then the generated spell.
    pub setup: Setup,
    /// Where the walk's choices come from.
    pub walk: Walk,
    /// 0: none; else the first kind of illegal statement tried (see `inject`).
    pub inject: u8,
    /// Which place the injection takes among those that fit.
    pub inject_at: usize,
}

impl std::fmt::Debug for Recipe {
    /// Everything but the catalogue (a recipe's own choices).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recipe")
            .field("rules", &self.rules)
            .field("catalogue_cards", &self.catalogue.len())
            .field("generated", &self.generated)
            .field("setup", &self.setup)
            .field("walk", &self.walk)
            .field("inject", &self.inject)
            .field("inject_at", &self.inject_at)
            .finish()
    }
}

impl Recipe {
    /// The card table: the catalogue, then the generated spell.
    pub fn cards(&self) -> Vec<CardDef> {
        let mut c = self.catalogue.as_ref().clone();
        c.extend(self.generated.iter().map(|g| (**g).clone()));
        c
    }
}

/// The game and starting position of a recipe under a rulebook.
pub fn scenario(r: &Recipe, rules: Rulebook) -> Result<(Game, Setup), String> {
    let cards = r.cards();
    r.setup.validate(cards.len())?;
    Ok((Game::new(rules, cards), r.setup.clone()))
}

/// The rules presets among the engine's, in a fixed order.
pub fn usable_rules(engine_rules: &[String]) -> Vec<String> {
    crate::protocol::PRESETS
        .iter()
        .filter(|p| engine_rules.iter().any(|r| r.eq_ignore_ascii_case(p)))
        .map(|p| p.to_string())
        .collect()
}

/// A case, the goals its model run reached, and the kind and place of the illegal statement
/// injected.
type Built = (Case, BTreeSet<String>, Option<(u8, usize)>);

/// The legal case of a recipe and, if the recipe injects, each illegal statement that fits it
/// (`all`: every kind, at two places each; else the first kind that fits from the recipe's on,
/// at the recipe's place), each with the goals its model run reached.
fn make(
    r: &Recipe,
    rules: &[String],
    header: Vec<String>,
    all: bool,
) -> Result<Vec<Built>, String> {
    if rules.is_empty() {
        return Err("the engine supports no rules preset".into());
    }
    let name = &rules[r.rules as usize % rules.len()];
    let rulebook = Rulebook::named(name).ok_or_else(|| format!("unknown rules `{name}`"))?;
    let (game, setup) = scenario(r, rulebook)?;
    let run = walk(&game, &setup, &r.walk)?;
    let case = case_for_run(&game, name, &setup, &run, header, None)?;
    let reached = goals::of_run(&game, &run);
    if r.inject == 0 {
        return Ok(vec![(case, reached, None)]);
    }
    let mut out = vec![];
    for k in 0..inject::KINDS {
        let kind = (r.inject - 1 + k) % inject::KINDS + 1;
        let places = if all { 2 } else { 1 };
        for at in (0..places).map(|p| r.inject_at + p) {
            if let Some(c) = inject::inject(&game, &setup, &case, kind, at) {
                // The run stops at the refused statement: what it reaches is that refusal.
                let g = match kind {
                    inject::OTHER_DOMAIN => goals::of_other_domain(&game, &case, &c, kind),
                    _ => goals::of_illegal(&c, kind).into_iter().collect(),
                };
                let g = g.into_iter().collect();
                out.push((c, g, Some((kind, at))));
                if !all {
                    return Ok(out);
                }
            }
        }
    }
    out.push((case, reached, None));
    Ok(out)
}

/// The case for a recipe under one of `rules` (presets), with `header` lines.
pub fn generate(r: &Recipe, rules: &[String], header: Vec<String>) -> Result<Case, String> {
    make(r, rules, header, false).map(|mut v| v.swap_remove(0).0)
}

/// The case for a recipe, if the engine's declared profile allows every feature it uses.
pub fn generate_for(
    r: &Recipe,
    rules: &[String],
    profile: &Profile,
    header: Vec<String>,
) -> Result<Case, String> {
    let case = generate(r, rules, header)?;
    if !profile.fits(&case, &r.cards()) {
        return Err("the case uses a feature the engine does not declare".into());
    }
    Ok(case)
}

/// Draws recipes from a catalogue for an engine's profile.
#[derive(Clone, Debug)]
pub struct Drawer {
    catalogue: Arc<Vec<CardDef>>,
    pools: Pools,
    parts: spell::Parts,
    profile: Profile,
}

impl Drawer {
    /// A drawer over a catalogue's cards for an engine's profile.
    pub fn new(catalogue: &Catalogue, profile: &Profile) -> Drawer {
        Drawer {
            catalogue: Arc::new(catalogue.cards.clone()),
            pools: Pools::new(&catalogue.cards, profile),
            parts: spell::Parts::new(&catalogue.cards),
            profile: profile.clone(),
        }
    }

    /// A recipe near `parent`: one or two small changes to its starting position, its walk,
    /// its injection or its generated spell (a valid position, or else a fresh draw).
    pub fn mutate(&self, parent: &Recipe, rng: &mut Rng) -> Recipe {
        let mut r = parent.clone();
        for _ in 0..rng.range(1, 2) {
            match rng.below(6) {
                0 => r.walk = Walk::Seed(rng.next_u64()),
                1 => (r.inject, r.inject_at) = (rng.range(1, inject::KINDS), rng.below(1 << 16)),
                2 if r.generated.is_some() => {
                    r.generated = spell::spell(rng, &self.parts).map(Box::new);
                }
                _ => draw::mutate(rng, &self.pools, &self.profile, &mut r.setup),
            }
        }
        let cards = self.catalogue.len() + usize::from(r.generated.is_some());
        match r.setup.validate(cards) {
            Ok(()) => r,
            Err(_) => self.draw(rng),
        }
    }

    /// One recipe drawn from `rng`.
    pub fn draw(&self, rng: &mut Rng) -> Recipe {
        let generated = match self.profile.has("defines") && rng.chance(3, 10) {
            true => spell::spell(rng, &self.parts).map(Box::new),
            false => None,
        };
        let item = generated
            .as_ref()
            .map(|_| self.catalogue.len() as model::card::CardId);
        let setup = draw::setup(rng, &self.pools, &self.profile, item);
        let inject = match rng.chance(1, 4) {
            true => rng.range(1, inject::KINDS),
            false => 0,
        };
        Recipe {
            rules: rng.below(256) as u8,
            catalogue: self.catalogue.clone(),
            generated,
            setup,
            walk: Walk::Seed(rng.next_u64()),
            inject,
            inject_at: rng.below(1 << 16),
        }
    }
}

/// Candidate recipes drawn for each case; the one reaching the most new goals is kept.
pub const CANDIDATES: u64 = 4;

/// Injected cases kept waiting for their turn at most (the oldest are dropped first).
const MAX_WAITING: usize = 256;

/// The coverage-steered generator of one seed: case `i` depends on the seed and on the cases
/// before it (the goals they reached), so a run is the same run at the same seed.
pub struct Generator {
    seed: u64,
    drawer: Drawer,
    rules: Vec<String>,
    profile: Profile,
    /// Every goal reached so far, in the order first reached (an order the seed fixes).
    goals: Vec<Goal>,
    /// Where each goal is in `goals`.
    index: HashMap<String, usize>,
    /// Recipes whose cases reached a goal first: the parents of mutated candidates.
    corpus: Vec<Recipe>,
    /// Legal parents not yet given their injection stage, newest last.
    uninjected: Vec<usize>,
    /// The injection stage's cases that lost to another in their turn, each offered again as
    /// a candidate of the cases after it while it still reaches a goal not reached yet: every
    /// kind of illegal statement that fits a new position is sent, not only the one that won.
    waiting: Vec<Made>,
}

/// A goal reached: how often, and the recipe (in the corpus) that reached it first.
struct Goal {
    seen: u32,
    parent: usize,
}

/// A case the generator made: its recipe, the case, and the goals its run reached.
pub struct Made {
    /// The recipe.
    pub recipe: Recipe,
    /// The case (expectations: the model's), or why the recipe made none.
    pub case: Result<Case, String>,
    /// The goals the case's model run reached.
    pub goals: BTreeSet<String>,
    /// The kind of illegal statement injected, if one was.
    pub injected: Option<u8>,
}

impl Generator {
    /// The generator of `seed` for an engine's rules presets and profile, over a catalogue.
    pub fn new(seed: u64, rules: &[String], profile: &Profile, catalogue: &Catalogue) -> Self {
        Generator {
            seed,
            drawer: Drawer::new(catalogue, profile),
            rules: rules.to_vec(),
            profile: profile.clone(),
            goals: vec![],
            index: HashMap::new(),
            corpus: vec![],
            uninjected: vec![],
            waiting: vec![],
        }
    }

    /// How many distinct goals the cases made so far reached.
    pub fn goals_reached(&self) -> usize {
        self.goals.len()
    }

    /// The value of reaching `goals` now: each goal not reached before counts most, the rarer
    /// the more.
    fn value(&self, goals: &BTreeSet<String>) -> f64 {
        goals
            .iter()
            .map(|g| match self.index.get(g) {
                None => 100.0,
                Some(&k) => 1.0 / (1.0 + f64::from(self.goals[k].seen)),
            })
            .sum()
    }

    /// A parent for a mutated candidate: the recipe that first reached a goal drawn with weight
    /// inversely proportional to how often that goal was reached since, so that the neighbours
    /// of rare goals are searched most (rare-branch targeting, as in FairFuzz). A goal a
    /// thousand cases reach spends little; one reached once is where the next new goals lie.
    fn parent(&self, rng: &mut Rng) -> &Recipe {
        // Integer weights: the same draw on every platform, for years.
        let weight = |g: &Goal| (1u64 << 20) / u64::from(g.seen.max(1));
        let total: u64 = self.goals.iter().map(weight).sum();
        let mut at = rng.next_u64() % total.max(1);
        for g in &self.goals {
            match at.checked_sub(weight(g)) {
                Some(rest) => at = rest,
                None => return &self.corpus[g.parent],
            }
        }
        &self.corpus[self.goals[self.goals.len() - 1].parent]
    }

    /// Case `i` (call in order: the goals of the cases before it steer it).
    pub fn next(&mut self, i: u64) -> Made {
        let mut stream = Rng::derive(self.seed, i);
        let mut last_err = String::from("no candidate");
        // The injection stage: the newest legal parent is tried once with every kind of illegal
        // statement at two places each (`make`), as a coverage-guided fuzzer gives each new
        // corpus entry its deterministic stage. An injection that fits only a rare position is
        // tried as soon as a case first reaches that position, not when a mutation happens to
        // pick both that parent and an injection.
        let mut stage = self.uninjected.pop().map(|k| {
            let mut r = self.corpus[k].clone();
            (r.inject, r.inject_at) = (1, stream.below(1 << 16));
            r
        });
        let candidates = CANDIDATES + u64::from(stage.is_some());
        // The waiting injected case that reaches the most goals not reached yet competes too;
        // those that reach none any more are dropped.
        self.waiting
            .retain(|m| m.goals.iter().any(|g| !self.index.contains_key(g)));
        let mut best: Option<(f64, Made, bool)> = None;
        if let Some((k, v)) = (self
            .waiting
            .iter()
            .map(|m| self.value(&m.goals))
            .enumerate())
        .max_by(|a, b| a.1.total_cmp(&b.1))
        {
            best = Some((v, self.waiting.remove(k), true));
        }
        let mut tried = 0;
        while tried < candidates * 4 && (tried < candidates || best.is_none()) {
            tried += 1;
            let mut rng = Rng::new(stream.next_u64());
            // Half the candidates are fresh draws, half mutations of a recipe that reached a
            // goal first (as a coverage-guided fuzzer grows its corpus).
            let staged = stage.is_some();
            let recipe = match (stage.take(), self.goals.is_empty()) {
                (Some(r), _) => r,
                (None, false) if rng.chance(1, 2) => {
                    let parent = self.parent(&mut rng);
                    self.drawer.mutate(parent, &mut rng)
                }
                _ => self.drawer.draw(&mut rng),
            };
            let options = match make(&recipe, &self.rules, vec![], true) {
                Ok(v) => v,
                Err(e) => {
                    last_err = e;
                    continue;
                }
            };
            for (case, goals, injected) in options {
                if !self.profile.fits(&case, &recipe.cards()) {
                    last_err = "the case uses a feature the engine does not declare".into();
                    continue;
                }
                let v = self.value(&goals);
                let mut recipe = recipe.clone();
                (recipe.inject, recipe.inject_at) = injected.unwrap_or((0, 0));
                let made = Made {
                    recipe,
                    case: Ok(case),
                    goals,
                    injected: injected.map(|i| i.0),
                };
                let waits = staged && injected.is_some();
                let lost = match best.as_ref().is_none_or(|(b, _, _)| v > *b) {
                    true => best.replace((v, made, waits)),
                    false => Some((v, made, waits)),
                };
                if let Some((_, m, true)) = lost {
                    self.waiting.push(m);
                }
            }
        }
        if self.waiting.len() > MAX_WAITING {
            self.waiting.drain(..self.waiting.len() - MAX_WAITING);
        }
        match best {
            Some((_, m, _)) => {
                // A goal reached first makes the recipe a parent, the parent of that goal.
                let parent = self.corpus.len();
                let mut first = false;
                for g in &m.goals {
                    match self.index.get(g) {
                        Some(&k) => self.goals[k].seen += 1,
                        None => {
                            first = true;
                            self.index.insert(g.clone(), self.goals.len());
                            self.goals.push(Goal { seen: 1, parent });
                        }
                    }
                }
                if first {
                    if m.recipe.inject == 0 {
                        self.uninjected.push(parent);
                    }
                    self.corpus.push(m.recipe.clone());
                }
                m
            }
            None => Made {
                recipe: self.drawer.draw(&mut stream),
                case: Err(last_err),
                goals: BTreeSet::new(),
                injected: None,
            },
        }
    }
}

/// The first `n` cases of `seed` (rup4-style callers: tests, benchmarks).
pub fn cases(seed: u64, n: u64, rules: &[String], profile: &Profile) -> Vec<Made> {
    let mut g = Generator::new(seed, rules, profile, &Catalogue::builtin());
    (0..n).map(|i| g.next(i)).collect()
}
