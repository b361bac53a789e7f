//! A driver for rule tests: builds scenarios from the shipped catalogue and plays a script of
//! decisions, taking forced steps (the only enabled action) by itself.

#![allow(dead_code)]

use model::action::Action;
use model::catalogue::Catalogue;
use model::cost::{Cost, Domain};
use model::game::Game;
use model::rulebook::{Rulebook, Version};
use model::setup::*;
use model::state::*;

pub fn game(v: Version) -> Game {
    game_with(Rulebook::preset(v))
}

pub fn game_with(rules: Rulebook) -> Game {
    Game::new(rules, Catalogue::builtin().cards)
}

pub fn id(g: &Game, name: &str) -> u16 {
    g.card_named(name)
        .unwrap_or_else(|| panic!("no card {name}"))
}

/// A pool of `energy` Energy and `power` of each listed domain.
pub fn pool(energy: u8, power: &[(Domain, u8)]) -> Cost {
    let mut c = Cost::energy(energy);
    for (d, n) in power {
        c.power[*d as usize] += n;
    }
    c
}

/// A scenario builder.
pub struct Scn {
    pub setup: Setup,
}

impl Scn {
    pub fn new(g: &Game, card: &str, you_pool: Cost) -> Scn {
        let mut setup = Setup::default();
        setup.players[0] = PlayerSetup {
            pool: you_pool,
            hand: vec![id(g, card)],
            hand_other: 3,
            deck: 10,
            ..Default::default()
        };
        setup.players[1] = PlayerSetup {
            hand_other: 3,
            deck: 10,
            ..Default::default()
        };
        setup.battlefields = vec![BattlefieldSetup::default(), BattlefieldSetup::default()];
        Scn { setup }
    }
    pub fn unit(mut self, g: &Game, name: &str, p: Player, loc: Location) -> Scn {
        self.setup.units.push(UnitSetup {
            card: id(g, name),
            controller: p,
            loc,
            damage: 0,
            owner: None,
            status: Default::default(),
        });
        self
    }
    pub fn gear(mut self, g: &Game, name: &str, p: Player) -> Scn {
        self.setup.gear.push(GearSetup {
            card: id(g, name),
            controller: p,
        });
        self
    }
    pub fn opp_hand(mut self, g: &Game, name: &str, opp_pool: Cost) -> Scn {
        self.setup.players[1].hand.push(id(g, name));
        self.setup.players[1].pool = opp_pool;
        self
    }
    pub fn portal(mut self) -> Scn {
        self.setup.players[0].portal_charged = true;
        self
    }
    pub fn spire(mut self, g: &Game) -> Scn {
        self.setup.battlefields[0] = BattlefieldSetup {
            card: Some(id(g, "Marai Spire")),
            controller: Some(Player::YOU),
        };
        self
    }
    pub fn opp_near_victory(mut self) -> Scn {
        self.setup.players[1].near_victory = true;
        self
    }
    pub fn state(&self, g: &Game) -> State {
        g.initial_state(&self.setup).expect("valid setup")
    }
}

pub fn enabled(g: &Game, s: &State) -> Vec<Action> {
    let mut v = vec![];
    g.actions(s, &mut v);
    v
}

/// Plays `script` from `s`: forced steps are taken automatically; each scripted action must be
/// enabled when its turn comes. Returns the final state once the script is used up and no
/// further step is forced.
pub fn play(g: &Game, mut s: State, script: &[Action]) -> State {
    let mut script = script.iter().peekable();
    for _ in 0..500 {
        let acts = enabled(g, &s);
        if acts.is_empty() {
            assert!(
                script.peek().is_none(),
                "script left over at the end: {:?}",
                script.collect::<Vec<_>>()
            );
            return s;
        }
        let next = match script.peek() {
            Some(a) if acts.contains(a) => *script.next().unwrap(),
            _ if acts.len() == 1 => acts[0],
            Some(a) => panic!(
                "scripted {a:?} is not enabled; enabled: {acts:?}\nlog: {:#?}",
                s.log
            ),
            None => return s,
        };
        s = g.next_state(&s, &next).expect("enabled action applies");
    }
    panic!("no end after 500 steps");
}

/// Plays the script and then passes priority until the play is over.
pub fn play_out(g: &Game, s: State, script: &[Action]) -> State {
    let mut s = play(g, s, script);
    for _ in 0..50 {
        let acts = enabled(g, &s);
        if acts.is_empty() {
            return s;
        }
        let a = if acts.contains(&Action::Pass) {
            Action::Pass
        } else {
            acts[0]
        };
        s = g.next_state(&s, &a).unwrap();
        s = play(g, s, &[]);
    }
    panic!("did not end");
}

pub fn count(s: &State, pred: impl Fn(&Event) -> bool) -> usize {
    s.log.iter().filter(|e| pred(e)).count()
}

pub fn pos(s: &State, pred: impl Fn(&Event) -> bool) -> usize {
    s.log
        .iter()
        .position(pred)
        .unwrap_or_else(|| panic!("event not found in {:#?}", s.log))
}

pub const YOU: Player = Player::YOU;
pub const OPP: Player = Player::OPP;
pub fn cast() -> Action {
    Action::MoveToChain {
        player: YOU,
        hand: 0,
    }
}
pub fn rep(i: u8, pay: bool) -> Action {
    Action::DeclareRepeat { instance: i, pay }
}
pub fn mode(exec: u8, m: u8) -> Action {
    Action::ChooseMode { exec, mode: m }
}
pub fn tgt(exec: u8, slot: u8, obj: Obj) -> Action {
    Action::ChooseTarget { exec, slot, obj }
}
pub fn pay() -> Action {
    Action::PayCosts { any: [0; 6] }
}
