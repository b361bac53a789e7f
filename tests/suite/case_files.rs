//! Case files: the printer is the canonical form and round-trips; the parser survives any input;
//! malformed files give precise errors and exit 2; generated suites replay.

use crate::shared::{rbcheck, root};
use model::cost::{Cost, Domain};
use model::state::{Combat, IgnoredWhy, Location, Player, UnitStatus, Zone};
use proptest::prelude::*;
use rbcheck::case::ast::*;
use rbcheck::case::{parse, print};

fn strip(c: &Case) -> Case {
    let mut c = c.clone();
    c.defines.iter_mut().for_each(|l| l.line = 0);
    c.board.iter_mut().for_each(|l| l.line = 0);
    c.plays.iter_mut().for_each(|l| l.line = 0);
    c.expects.iter_mut().for_each(|l| l.line = 0);
    c.checkpoints.iter_mut().for_each(|cp| cp.expect.line = 0);
    c
}

fn label() -> impl Strategy<Value = String> {
    "[a-zA-Z][a-zA-Z0-9_]{0,6}".prop_filter("reserved", |l| l != "item" && !l.starts_with("token-"))
}
fn name() -> impl Strategy<Value = String> {
    "[ -~]{1,20}".prop_filter("no leading/trailing issues", |s| !s.is_empty())
}
fn player() -> impl Strategy<Value = Player> {
    prop_oneof![Just(Player::YOU), Just(Player::OPP)]
}
fn loc() -> impl Strategy<Value = Location> {
    prop_oneof![
        player().prop_map(Location::Base),
        (0u8..5).prop_map(Location::Battlefield)
    ]
}
fn cost() -> impl Strategy<Value = Cost> {
    (0u8..20, proptest::array::uniform6(0u8..3)).prop_map(|(e, p)| Cost {
        energy: e,
        power: p,
        any: 0,
        own: 0,
    })
}
fn obj() -> impl Strategy<Value = ObjRef> {
    prop_oneof![
        label().prop_map(ObjRef::Label),
        (1u8..9).prop_map(ObjRef::Item)
    ]
}
fn board() -> impl Strategy<Value = BoardStmt> {
    prop_oneof![
        (
            (label(), name(), player(), loc(), 0u8..5),
            (
                proptest::option::of(player()),
                any::<bool>(),
                any::<bool>(),
                0u8..3,
                0u8..5
            )
        )
            .prop_map(
                |((label, card, controller, loc, damage), (owner, ex, st, c, a))| {
                    BoardStmt::Unit(UnitStmt {
                        label,
                        card,
                        controller,
                        loc,
                        damage,
                        owner,
                        status: UnitStatus {
                            exhausted: ex,
                            stunned: st,
                            combat: [Combat::None, Combat::Attacking, Combat::Defending]
                                [c as usize],
                            assault: a,
                        },
                    })
                }
            ),
        (label(), name(), player()).prop_map(|(label, card, controller)| BoardStmt::Gear {
            label,
            card,
            controller
        }),
        (
            1u8..5,
            proptest::option::of(player()),
            proptest::option::of(name())
        )
            .prop_map(|(n, controller, card)| BoardStmt::Battlefield {
                n,
                controller,
                card
            }),
        (player(), cost()).prop_map(|(p, c)| BoardStmt::Pool(p, c)),
        (player(), name()).prop_map(|(p, c)| BoardStmt::Hand(p, c)),
        (player(), any::<u8>()).prop_map(|(p, n)| BoardStmt::OtherCards(p, n)),
        (player(), any::<u8>()).prop_map(|(p, n)| BoardStmt::Deck(p, n)),
        player().prop_map(BoardStmt::Portal),
        player().prop_map(BoardStmt::NearVictory),
        proptest::option::of(1u8..5).prop_map(BoardStmt::Showdown),
        label().prop_map(BoardStmt::Attack),
        (player(), proptest::collection::vec(name(), 1..3))
            .prop_map(|(p, v)| BoardStmt::DeckTop(p, v)),
    ]
}
fn deck_ref() -> impl Strategy<Value = DeckRef> {
    prop_oneof![Just(DeckRef::Other), name().prop_map(DeckRef::Named)]
}
fn play() -> impl Strategy<Value = PlayStmt> {
    prop_oneof![
        (player(), name()).prop_map(|(player, card)| PlayStmt::Play { player, card }),
        player().prop_map(|player| PlayStmt::Pass { player }),
        any::<bool>().prop_map(|perform| PlayStmt::May { perform }),
        (1u8..5, any::<bool>()).prop_map(|(instance, pay)| PlayStmt::Repeat { instance, pay }),
        (1u8..5, 1u8..5).prop_map(|(exec, mode)| PlayStmt::Mode { exec, mode }),
        (1u8..5, 1u8..4, obj()).prop_map(|(exec, instruction, obj)| PlayStmt::Target {
            exec,
            instruction,
            obj
        }),
        (1u8..5, 1u8..4)
            .prop_map(|(exec, instruction)| PlayStmt::NoMoreTargets { exec, instruction }),
        (1u8..5, 1u8..4, loc()).prop_map(|(exec, instruction, to)| PlayStmt::Destination {
            exec,
            instruction,
            to
        }),
        proptest::collection::vec(prop_oneof![Just(Domain::Mind), Just(Domain::Calm)], 0..3)
            .prop_map(|any| PlayStmt::Pay { any }),
        (1u8..5).prop_map(|item| PlayStmt::NewChoices { item }),
        (1u8..5).prop_map(|item| PlayStmt::DeclineNewChoices { item }),
        proptest::option::of(deck_ref()).prop_map(|card| PlayStmt::LookDraw { card }),
        deck_ref().prop_map(|card| PlayStmt::LookRecycle { card }),
        any::<bool>().prop_map(|pay| PlayStmt::Demand { pay }),
    ]
}
fn expect() -> impl Strategy<Value = Expect> {
    let why = prop_oneof![
        Just(None),
        Just(Some(IgnoredWhy::TargetsIllegal)),
        Just(Some(IgnoredWhy::LinkedNotExecuted)),
        Just(Some(IgnoredWhy::Impossible))
    ];
    prop_oneof![
        Just(Expect::Legal),
        (
            1usize..99,
            proptest::option::of("[0-9]{3}(\\.[0-9a-z]{1,2}){0,3}")
        )
            .prop_map(|(line, rule)| Expect::Illegal {
                line,
                rule,
                play: None
            }),
        (1u8..5, any::<u8>()).prop_map(|(n, k)| Expect::Executions(n, k)),
        (1u8..5, any::<u8>()).prop_map(|(n, k)| Expect::PlayEvents(n, k)),
        (1u8..5, cost()).prop_map(|(n, c)| Expect::Paid(n, c)),
        (1u8..5, proptest::collection::vec(1u8..4, 0..3))
            .prop_map(|(n, v)| Expect::RepeatPaid(n, v)),
        (1u8..5, 1u8..5, 1u8..4, why).prop_map(|(n, e, i, w)| Expect::Ignored(n, e, i, w)),
        (1u8..5, 1u8..5, 1u8..4).prop_map(|(n, e, i)| Expect::Performed(n, e, i)),
        (1u8..5).prop_map(Expect::Countered),
        (name(), any::<u8>()).prop_map(|(a, k)| Expect::Triggered(a, k)),
        (label(), any::<u8>()).prop_map(|(l, d)| Expect::UnitDamage(l, d)),
        (
            label(),
            prop_oneof![Just(Zone::Trash), Just(Zone::Board), Just(Zone::Hand)]
        )
            .prop_map(|(l, z)| Expect::UnitZone(l, z)),
        (label(), loc()).prop_map(|(l, at)| Expect::UnitAt(l, at)),
        (label(), any::<u8>()).prop_map(|(l, k)| Expect::UnitMight(l, k)),
        (label(), any::<u8>()).prop_map(|(l, k)| Expect::UnitAssault(l, k)),
        (label(), any::<bool>()).prop_map(|(l, b)| Expect::UnitStunned(l, b)),
        (label(), any::<bool>()).prop_map(|(l, b)| Expect::UnitReady(l, b)),
        (player(), cost()).prop_map(|(p, c)| Expect::Pool(p, c)),
        (player(), proptest::collection::vec(name(), 0..3)).prop_map(|(p, v)| Expect::Trash(p, v)),
        (player(), any::<u8>()).prop_map(|(p, k)| Expect::HandSize(p, k)),
        (player(), proptest::collection::vec(name(), 0..3))
            .prop_map(|(p, v)| Expect::DeckTop(p, v)),
        (player(), proptest::collection::vec(name(), 0..3)).prop_map(|(p, v)| Expect::Hand(p, v)),
        (player(), proptest::collection::vec(deck_ref(), 0..3))
            .prop_map(|(p, v)| Expect::Recycled(p, v)),
        (1u8..5, proptest::collection::vec(any::<bool>(), 1..3))
            .prop_map(|(n, v)| Expect::Demands(n, v)),
        (player(), any::<u8>()).prop_map(|(p, k)| Expect::RunesExhausted(p, k)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The printer is the canonical form: printing a case and parsing it gives the same case.
    #[test]
    fn print_then_parse_gives_the_same_case(
        header in proptest::collection::vec("[ -~]{0,30}", 0..3),
        board in proptest::collection::vec(board(), 0..6),
        mut plays in proptest::collection::vec(play(), 0..8),
        expects in proptest::collection::vec(expect(), 0..8),
    ) {
        plays.insert(0, PlayStmt::Play {
                player: Player::YOU,
                card: "X".into(),
            });
        let header: Vec<String> = header.into_iter().map(|h| h.trim().to_string()).collect();
        let case = Case {
            version: 1,
            header,
            rules: "rup4".into(),
            defines: vec![Line::new("{ name = \"X\", type = \"spell\", do = [{ effect = \"draw\", amount = 1 }] }".to_string())],
            board: board.into_iter().map(Line::new).collect(),
            plays: plays.into_iter().map(Line::new).collect(),
            checkpoints: vec![],
            expects: expects.into_iter().map(Line::new).collect(),
        };
        let text = print(&case);
        let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(strip(&back), strip(&case));
        prop_assert_eq!(print(&back), text);
    }
}

/// Any bytes: the parser returns a case or an error with a line and column, never panics.
#[test]
fn the_parser_survives_arbitrary_bytes() {
    bolero::check!().for_each(|input: &[u8]| {
        if let Ok(text) = std::str::from_utf8(input) {
            match parse(text) {
                Ok(c) => {
                    let again = parse(&print(&c)).expect("a parsed case prints to a parseable one");
                    assert_eq!(strip(&again), strip(&c));
                }
                Err(e) => assert!(e.line >= 1 && e.col >= 1),
            }
        }
    });
}

/// Corpus files cut or mutated at random: errors, never panics, in the parser or the replayer.
#[test]
fn mutated_cases_never_panic_the_replayer() {
    let corpus = root().join("corpus/cases");
    let texts: Vec<String> = rbcheck::case::collect(&[corpus])
        .unwrap()
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    bolero::check!()
        .with_type::<(u16, u16, u8, u8)>()
        .for_each(|(which, at, op, byte)| {
            let t = &texts[*which as usize % texts.len()];
            let mut b = t.as_bytes().to_vec();
            let at = *at as usize % (b.len() + 1);
            match op % 3 {
                0 => b.truncate(at),
                1 => b.insert(at, *byte),
                _ => {
                    if at < b.len() {
                        b.remove(at);
                    }
                }
            }
            if let Ok(text) = String::from_utf8(b) {
                if let Ok(case) = parse(&text) {
                    let _ = rbcheck::case::replay(&case, Some(&root().join("corpus/cases")));
                }
            }
        });
}

fn replay_text(name: &str, text: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("rbcheck-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    let o = rbcheck(&["replay", f.to_str().unwrap()]);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

const GOOD: &str = "rbcheck-case 1\nrules rup4\n\nunit A \"Practice Dummy\" opponent battlefield 1\npool you [9][Y][Y]\nhand you \"Hidden Blade\"\nportal you\n\nyou play \"Hidden Blade\"\nrepeat 1 pay\nexec 1 target 1 A\nexec 2 target 1 A\npay\n\nexpect executions item 1 2\nexpect hand-size opponent 2\n";

#[test]
fn malformed_files_give_precise_errors_and_exit_2() {
    assert_eq!(
        replay_text("good.case", GOOD).0,
        0,
        "{}",
        replay_text("good.case", GOOD).1
    );
    let cases: &[(&str, String, &str)] = &[
        (
            "truncated.case",
            GOOD[..GOOD.find("exec 1").unwrap()].to_string(),
            "must still decide",
        ),
        (
            "unknown.case",
            GOOD.replace("pay\n\n", "pay\nflourish\n\n"),
            ":14:1: unknown statement `flourish`",
        ),
        (
            "arity.case",
            GOOD.replace("exec 1 target 1 A", "exec 1 target 1"),
            ":11:16: expected a unit or gear label",
        ),
        (
            "card.case",
            GOOD.replace("\"Practice Dummy\"", "\"Practise Dummy\""),
            ":4: unknown card \"Practise Dummy\"",
        ),
        (
            "order.case",
            GOOD.replace(
                "exec 1 target 1 A\nexec 2 target 1 A",
                "exec 2 target 1 A\nexec 1 target 1 A",
            ),
            "exec 2 before exec 1",
        ),
        (
            "version.case",
            GOOD.replace("rbcheck-case 1", "rbcheck-case 7"),
            ":1:14: format version 7 is not supported",
        ),
        (
            "label.case",
            GOOD.replace("exec 2 target 1 A", "exec 2 target 1 Z"),
            ":12: unknown label `Z`",
        ),
        (
            "quote.case",
            GOOD.replace("hand you \"Hidden Blade\"", "hand you \"Hidden Blade"),
            ":6:10: unterminated string",
        ),
        (
            "cost.case",
            GOOD.replace("[9][Y][Y]", "[9][Q]"),
            "unknown cost symbol `[Q]`",
        ),
        (
            "section.case",
            GOOD.replace("pay\n\n", "pay\nunit B \"Practice Dummy\" you base you\n"),
            "must come before the plays",
        ),
    ];
    for (name, text, want) in cases {
        let (code, out) = replay_text(name, text);
        assert_eq!(code, 2, "{name}: {out}");
        assert!(out.contains(want), "{name}: expected `{want}` in:\n{out}");
        assert!(
            out.contains(name),
            "{name}: the error names the file:\n{out}"
        );
        // Counted as invalid, not as a failed expectation.
        assert!(
            out.contains("0 passed, 0 failed, 1 invalid"),
            "{name}: {out}"
        );
    }
}

#[test]
fn a_wrong_expectation_fails_with_its_line_and_rule() {
    let (code, out) = replay_text(
        "wrong.case",
        &GOOD.replace("expect executions item 1 2", "expect executions item 1 1"),
    );
    assert_eq!(code, 1);
    assert!(out.contains("wrong.case:15: expected `executions item 1 1`, but the model gives `executions item 1 2` (820.3)"), "{out}");
    assert!(out.contains("0 passed, 1 failed"));
    let (code, out) = replay_text(
        "twice.case",
        &GOOD.replace("repeat 1 pay", "repeat 1 pay\nrepeat 1 pay"),
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("twice.case:11: `repeat 1 pay` is not allowed") && out.contains("820.1.c.3"),
        "{out}"
    );
}

#[test]
fn a_generated_suite_replays_and_counterexamples_become_cases() {
    let dir = std::env::temp_dir().join(format!("rbcheck-suite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = rbcheck(&["cases", "--bound", "tiny", "--out", dir.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        said.contains("behaviour classes") && said.contains("cases written"),
        "{said}"
    );
    let o = rbcheck(&["replay", dir.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        out.lines()
            .filter(|l| !l.starts_with("pass"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // A second run refuses to overwrite.
    let o = rbcheck(&["cases", "--bound", "tiny", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();

    let cx = std::env::temp_dir().join(format!("rbcheck-cx-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cx);
    let o = rbcheck(&[
        "check",
        "--bound",
        "tiny",
        "--rules",
        "corpus/rulebooks/refund-on-counter.toml",
        "--cases",
        cx.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = rbcheck(&["replay", cx.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let text = std::fs::read_to_string(cx.join("01-no-refund-on-counter.case")).unwrap();
    assert!(
        text.contains("# Counterexample to `no-refund-on-counter` (425.1.c)"),
        "{text}"
    );
    assert!(text.contains("expect countered item 1"), "{text}");
    std::fs::remove_dir_all(&cx).unwrap();
}

#[test]
fn fmt_prints_the_canonical_form() {
    let messy = GOOD.replace(
        "you play \"Hidden Blade\"",
        "you   play   \"Hidden Blade\"   # spaced out",
    );
    let (_, _) = replay_text("messy.case", &messy);
    let dir = std::env::temp_dir().join(format!("rbcheck-malformed-{}", std::process::id()));
    let o = rbcheck(&["fmt", dir.join("messy.case").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    // Canonical statements; the comment stays beside its statement.
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        print(&parse(GOOD).unwrap()).replace(
            "you play \"Hidden Blade\"\n",
            "you play \"Hidden Blade\" # spaced out\n"
        )
    );
}

/// Replays `text` and requires a case error (exit 2) naming the file and containing `want`.
fn assert_case_error(name: &str, text: &str, want: &str) {
    let (code, out) = replay_text(name, text);
    assert_eq!(code, 2, "{name}: expected exit 2 (a case error):\n{out}");
    assert!(out.contains(want), "{name}: expected `{want}` in:\n{out}");
    assert!(out.contains("ERROR "), "{name}: {out}");
}

#[test]
fn an_expectation_about_nothing_is_an_error_not_a_pass() {
    let line15 = |e: &str| GOOD.replace("expect executions item 1 2", e);
    for (name, e, want) in [
        ("exec9.case", "expect executions item 9 0", ":15: `expect executions item 9 0`: there is no item 9"),
        ("events9.case", "expect play-events item 9 0", ":15: `expect play-events item 9 0`: there is no item 9"),
        ("notcountered9.case", "expect not-countered item 9", ":15: `expect not-countered item 9`: there is no item 9"),
        ("paid9.case", "expect paid item 9 [0]", ":15: `expect paid item 9 [0]`: there is no item 9"),
        ("repeat9.case", "expect repeat-paid item 9 none", "there is no item 9"),
        ("ignored9.case", "expect ignored item 9 exec 1 instruction 1", "there is no item 9"),
        ("trigger.case", "expect triggered \"Spelwatcher: draw\" 0", ":15: `expect triggered \"Spelwatcher: draw\" 0`: no card or ability is named \"Spelwatcher: draw\""),
        ("trash.case", "expect trash you \"Hiden Blade\"", "no card or ability is named \"Hiden Blade\""),
        ("unitlabel.case", "expect unit Z damage 0", ":15: `expect unit Z damage 0`: unknown label `Z`"),
        ("gearlabel.case", "expect gear A in trash", "`A` is not a gear"),
        ("illegalline.case", "expect illegal line 3", "line 3 is not a play statement"),
    ] {
        assert_case_error(name, &line15(e), want);
    }
    // The same expectations about what exists still replay as before.
    assert_eq!(
        replay_text("exec1.case", &line15("expect not-countered item 1")).0,
        0
    );
    assert_eq!(
        replay_text(
            "trig.case",
            &line15("expect triggered \"Spellwatcher: draw\" 0")
        )
        .0,
        0
    );
}

/// The same holds in a case that expects an illegal statement and gets it: the replay ends
/// there, so an item (token, moment) it never reached is an error, not a pass (before: the
/// item check was skipped once the replay stopped at the refused statement, and these passed).
#[test]
fn an_expectation_about_nothing_is_an_error_in_a_case_expecting_illegal_too() {
    let base = std::fs::read_to_string(
        root().join("corpus/cases/deserts-call-one-instance-paid-twice-illegal.case"),
    )
    .unwrap();
    assert_eq!(
        replay_text("illegal.case", &base).0,
        0,
        "the corpus case passes"
    );
    let line = base.lines().count() + 1;
    for (i, e) in [
        "expect executions item 9 0",
        "expect play-events item 9 0",
        "expect paid item 9 [0]",
        "expect not-countered item 9",
        "expect repeat-paid item 9 none",
        "expect optional-paid item 9 none",
        "expect discarded item 9 none",
        "expect demands item 9 paid",
        "expect entered item 9 at base you ready",
        "expect cancelled item 9",
        "expect ignored item 9 exec 1 instruction 1",
    ]
    .iter()
    .enumerate()
    {
        assert_case_error(
            &format!("illegal-item9-{i}.case"),
            &format!("{base}{e}\n"),
            &format!(":{line}: `{e}`: there is no item 9"),
        );
    }
    assert_case_error(
        "illegal-token.case",
        &format!("{base}expect unit token-1 on board\n"),
        "no such token entered the board",
    );
    // Nothing played from hand entered the board: `played-N` names nothing.
    assert_case_error(
        "illegal-played.case",
        &format!("{base}expect gear played-1 on board\n"),
        "`played-1`: item 1 put no unit or gear on the board",
    );
    assert_case_error(
        "illegal-order.case",
        &format!("{base}expect order play of item 1 then execution 1 of item 9\n"),
        "matches no event of the replay",
    );
    // An item that exists there is still checked as before.
    assert_eq!(
        replay_text(
            "illegal-item1.case",
            &format!("{base}expect play-events item 1 0\n")
        )
        .0,
        0
    );
    // A refused statement the case does not expect is reported as such, whatever follows.
    let unexpected = base.replace(
        "expect illegal line 13 rule 820.1.c.3",
        "expect executions item 9 0",
    );
    let (code, out) = replay_text("unexpected.case", &unexpected);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(":13: `repeat 1 pay` is not allowed"), "{out}");
}

/// `expect illegal play K` names the K-th play statement, so a comment added above it does not
/// make the case name another line; `fmt` keeps the form; a position past the plays, or 0, is a
/// case error naming the line.
#[test]
fn an_illegal_statement_is_named_by_its_position_among_the_plays() {
    let base = std::fs::read_to_string(
        root().join("corpus/cases/deserts-call-one-instance-paid-twice-illegal.case"),
    )
    .unwrap();
    let by_play = base.replace("expect illegal line 13", "expect illegal play 3");
    assert_eq!(replay_text("by-play.case", &by_play).0, 0, "{by_play}");
    let commented = by_play.replace("repeat 1 pay\n", "# paid\nrepeat 1 pay\n");
    let (code, out) = replay_text("by-play-commented.case", &commented);
    assert_eq!(code, 0, "{out}");
    // The same edit breaks the absolute line, which now names a line of no play statement.
    let lined = base.replace("repeat 1 pay\n", "# paid\nrepeat 1 pay\n");
    assert_ne!(replay_text("by-line-commented.case", &lined).0, 0);
    // The second play statement is legal: naming it is a failed expectation, not a pass.
    let wrong = base.replace("expect illegal line 13", "expect illegal play 2");
    assert_eq!(replay_text("by-play-wrong.case", &wrong).0, 1);
    let printed = print(&parse(&by_play).unwrap());
    assert!(
        printed.contains("expect illegal play 3 rule 820.1.c.3"),
        "{printed}"
    );
    for (at, want) in [
        (
            "play 4",
            ":15:1: `expect illegal play 4`: the case has 3 play statements",
        ),
        ("play 0", "play statements are counted from 1"),
        ("statement 3", "expected `line N` or `play K`"),
    ] {
        let text = base.replace("illegal line 13", &format!("illegal {at}"));
        assert_case_error(&format!("by-{}.case", at.replace(' ', "-")), &text, want);
    }
}

#[test]
fn numbers_out_of_range_are_errors_with_line_and_column_never_wraps() {
    // u8 counts in a cost: 258 [Y] replayed as [Y][Y], 256 [B] printed as [0].
    let many_y = format!("[6]{}", "[Y]".repeat(258));
    assert_case_error(
        "pool.case",
        &GOOD.replace("[9][Y][Y]", &many_y),
        ":5:10: bad cost: too many `[Y]`: a cost holds at most 255 Power of one kind",
    );
    assert_case_error(
        "expectpool.case",
        &format!("{GOOD}expect pool you {}\n", "[B]".repeat(256)),
        ":17:17: bad cost: too many `[B]`",
    );
    assert_case_error(
        "energy.case",
        &GOOD.replace("[9][Y][Y]", "[256]"),
        ":5:10: bad cost: `[256]` is out of range: a cost holds 0 to 255 Energy",
    );
    assert_case_error(
        "count.case",
        &GOOD.replace("expect executions item 1 2", "expect executions item 1 256"),
        ":15:26: a number of executions `256` is out of range: expected a number from 0 to 255",
    );
    assert_case_error(
        "line.case",
        &format!("{GOOD}expect illegal line 99999999999999999999999\n"),
        ":17:21: line number `99999999999999999999999` is out of range",
    );
    // other-cards 255 and a draw of 2 gave a hand of 1.
    assert_case_error(
        "hand.case",
        &GOOD
            .replace("portal you\n", "portal you\nother-cards opponent 255\n")
            .replace("hand-size opponent 2", "hand-size opponent 1"),
        ":8: opponent has 265 cards in hand and deck together (hand cards, other-cards, deck and deck-top); at most 200",
    );
    // A token label's number is checked against the tokens played: this one resolved to unit A.
    assert_case_error(
        "token.case",
        &GOOD
            .replace(
                "portal you\n",
                "portal you\nunit B \"Practice Dummy\" opponent battlefield 1\n",
            )
            .replace(
                "exec 2 target 1 A",
                "exec 2 target 1 token-18446744073709551615",
            ),
        ":13: `token-18446744073709551615`: no such token has been played yet",
    );
    assert_case_error(
        "token0.case",
        &GOOD.replace("exec 2 target 1 A", "exec 2 target 1 token-0"),
        "`token-0`: no such token",
    );
}

#[test]
fn a_utf8_byte_order_mark_is_skipped() {
    let (code, out) = replay_text("bom.case", &format!("\u{feff}{GOOD}"));
    assert_eq!(code, 0, "{out}");
    let c = parse::parse(&format!("\u{feff}{GOOD}")).unwrap();
    assert_eq!(c, parse::parse(GOOD).unwrap());
}

/// A Blood Rush case whose statuses and Might expectations each fail when they should,
/// match nothing as an error, and whose setup statements are checked.
const COMBAT: &str = "rbcheck-case 1
rules rup4

unit A \"Practice Dummy\" you battlefield 1 attacking exhausted
unit D \"Sturdy Dummy\" opponent battlefield 1 defending stunned owner you
showdown battlefield 1
pool you [2]
hand you \"Blood Rush\"

you play \"Blood Rush\"
repeat 1 pay
exec 1 target 1 A
exec 2 target 1 A
pay

expect unit A might 6
";

#[test]
fn combat_expectations_fail_when_they_should() {
    assert_eq!(replay_text("combat.case", COMBAT).0, 0);
    for (e, got) in [
        ("expect unit A might 5", "the model gives `unit A might 6`"),
        (
            "expect unit A assault 2",
            "the model gives `unit A assault 4`",
        ),
        ("expect unit A ready", "the model gives `unit A exhausted`"),
        (
            "expect unit D not-stunned",
            "the model gives `unit D stunned`",
        ),
        ("expect unit D in hand", "the model gives `unit D on board`"),
        ("expect unit D might 5", "the model gives `unit D might 4`"),
    ] {
        let (code, out) = replay_text("c.case", &COMBAT.replace("expect unit A might 6", e));
        assert_eq!(code, 1, "{e}: {out}");
        assert!(
            out.contains(":16: expected") && out.contains(got),
            "{e}: {out}"
        );
    }
    for (e, ok) in [
        ("expect unit A assault 4", true),
        ("expect unit A exhausted", true),
        ("expect unit D stunned", true),
        ("expect unit D on board", true),
    ] {
        let code = replay_text("c.case", &COMBAT.replace("expect unit A might 6", e)).0;
        assert_eq!(code == 0, ok, "{e}");
    }
    // An expectation about a unit that does not exist is an error, never a pass.
    for e in [
        "expect unit Z might 0",
        "expect unit Z stunned",
        "expect unit Z in hand",
    ] {
        assert_case_error(
            "z.case",
            &COMBAT.replace("expect unit A might 6", e),
            "unknown label `Z`",
        );
    }
    // Setup: an attacker must be at the showdown's battlefield; statuses are not given twice.
    assert_case_error(
        "noshowdown.case",
        &COMBAT.replace("showdown battlefield 1\n", ""),
        "must be at the showdown's battlefield",
    );
    assert_case_error(
        "twice.case",
        &COMBAT.replace("attacking exhausted", "attacking defending"),
        ":4:",
    );
    assert_case_error(
        "far.case",
        &COMBAT.replace("showdown battlefield 1", "showdown battlefield 9"),
        "battlefield",
    );
}

/// A case cut short where the model needs decisions it does not write (a changed decision can
/// call for more: a cost no longer cancelled must be paid) is made whole with the model's
/// first choices: the decisions written in, the case replays; a case with another error is
/// not touched.
#[test]
fn a_case_cut_short_is_completed_with_the_models_decisions() {
    use rbcheck::case::from_trace::with_missing_decisions;
    let text = "rbcheck-case 1\nrules rup4\n\nunit u1 \"Practice Dummy\" you base you\npool you [3][B]\nhand you \"Chant of Readiness\"\n\nyou play \"Chant of Readiness\"\n";
    let cut = parse(text).unwrap();
    let e = rbcheck::case::replay(&cut, None)
        .err()
        .expect("a case cut short is an error");
    assert!(e.message.contains("must still decide"), "{}", e.message);
    assert!(e.undecided.is_some(), "the error carries the decision");
    let whole = with_missing_decisions(&cut, 6).expect("completed");
    assert!(whole.plays.len() > cut.plays.len(), "{}", print(&whole));
    assert!(
        rbcheck::case::replay(&whole, None).is_ok(),
        "{}",
        print(&whole)
    );
    // The statements it had come first, in order.
    assert_eq!(whole.plays[0].stmt, cut.plays[0].stmt);
    // A case with an unknown card is no case to complete.
    let bad = parse(&text.replace("Chant of Readiness", "No Such Card")).unwrap();
    assert!(with_missing_decisions(&bad, 6).is_none());
}
