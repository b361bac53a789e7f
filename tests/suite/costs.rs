//! Costs other than [Repeat], tokens played and the case statements about them: each new
//! statement passes when the model agrees, fails (exit 1) when it does not, and is an
//! error (exit 2, naming its line) when it names nothing or is malformed.

use crate::shared::root;
use rbcheck::case::ast::*;
use rbcheck::case::{parse, print};

fn replay_text(name: &str, text: &str) -> (i32, String) {
    // One folder per test: tests run in parallel and reuse file names.
    let test = std::thread::current()
        .name()
        .unwrap_or("main")
        .replace("::", "-");
    let dir = std::env::temp_dir().join(format!("rbcheck-costs-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    let o = crate::shared::command()
        .args(["replay", f.to_str().unwrap()])
        .current_dir(root())
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

fn corpus(name: &str) -> String {
    std::fs::read_to_string(root().join("corpus/cases").join(name)).unwrap()
}

fn assert_exit(name: &str, text: &str, code: i32, want: &str) {
    let (got, out) = replay_text(name, text);
    assert_eq!(got, code, "{name}: expected exit {code}:\n{out}");
    assert!(out.contains(want), "{name}: expected `{want}` in:\n{out}");
}

/// Two Desert's Call tokens, the first at battlefield 2, the second at your base.
const TOKENS: &str = "token-location-chosen-spellwatcher-after-tokens.case";

#[test]
fn the_order_of_events_holds_fails_when_swapped_and_names_something() {
    let text = corpus(TOKENS);
    let line = "expect order play of item 1 then entry of token-1 then entry of token-2 then finalize of item 4";
    assert!(text.contains(line));
    assert_eq!(replay_text("order.case", &text).0, 0);
    // Swapped: the model's order is printed.
    assert_exit(
        "swapped.case",
        &text.replace(line, "expect order entry of token-2 then entry of token-1"),
        1,
        "but the model gives `order entry of token-1 then entry of token-2`",
    );
    // The trigger goes on the chain after the tokens, so it is not finalized before them.
    assert_exit(
        "trigger.case",
        &text.replace(
            line,
            "expect order finalize of item 4 then entry of token-1",
        ),
        1,
        "expected `order finalize of item 4 then entry of token-1`",
    );
    for (name, order, want) in [
        (
            "noexec.case",
            "expect order execution 3 of item 1 then play of item 1",
            "`execution 3 of item 1` matches no event",
        ),
        (
            "notoken.case",
            "expect order play of item 1 then entry of token-3",
            "`entry of token-3` matches no event",
        ),
        (
            "noitem.case",
            "expect order play of item 9 then play of item 1",
            "`play of item 9` matches no event",
        ),
        (
            "twice.case",
            "expect order play of item 1 then play of item 1",
            "`play of item 1` is named twice",
        ),
        (
            "trig.case",
            "expect order play of item 1 then trigger \"Spelwatcher: draw\"",
            "matches no event",
        ),
    ] {
        assert_exit(name, &text.replace(line, order), 2, want);
    }
    for (name, order, want) in [
        (
            "one.case",
            "expect order play of item 1",
            "an order needs two",
        ),
        (
            "word.case",
            "expect order play of item 1 then lunch of item 2",
            "expected a moment",
        ),
        (
            "entry.case",
            "expect order play of item 1 then entry of W",
            "expected `item N` or `token-K`",
        ),
        (
            "of.case",
            "expect order play item 1 then play of item 2",
            "expected `of`",
        ),
    ] {
        assert_exit(name, &text.replace(line, order), 2, want);
    }
}

#[test]
fn token_labels_name_the_tokens_in_the_order_they_entered() {
    let text = corpus(TOKENS);
    assert_exit(
        "where.case",
        &text.replace(
            "expect unit token-2 at base you",
            "expect unit token-2 at battlefield 2",
        ),
        1,
        "expected `unit token-2 at battlefield 2`, but the model gives `unit token-2 at base you`",
    );
    assert_eq!(
        replay_text(
            "board.case",
            &text.replace(
                "expect unit token-2 at base you",
                "expect unit token-1 on board"
            )
        )
        .0,
        0
    );
    assert_exit(
        "token3.case",
        &text.replace(
            "expect unit token-2 at base you",
            "expect unit token-3 damage 0",
        ),
        2,
        "`token-3`: no such token entered the board",
    );
    // The location is a decision here (you control battlefield 2): leaving it out is refused.
    let unchecked: String = text
        .lines()
        .filter(|l| !l.starts_with("location") && !l.contains("token-"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_exit(
        "noloc.case",
        &unchecked,
        1,
        "the rules call for where it enters (`location LOCATION`)",
    );
    // A location the unit may not enter (355.2) is refused.
    assert_exit(
        "badloc.case",
        &text.replace("location battlefield 2\n", "location battlefield 1\n"),
        1,
        "is not allowed",
    );
}

#[test]
fn a_token_play_is_a_play_event_and_the_spell_is_played_once() {
    let text = corpus(TOKENS);
    assert_exit(
        "twice.case",
        &text.replace("expect play-events item 1 1", "expect play-events item 1 2"),
        1,
        "but the model gives `play-events item 1 1`",
    );
    assert_exit(
        "token0.case",
        &text.replace("expect play-events item 2 1", "expect play-events item 2 0"),
        1,
        "but the model gives `play-events item 2 1`",
    );
}

#[test]
fn optional_costs_reductions_and_entering_are_checked() {
    let text = corpus("legion-rearguard-accelerate-paid-enters-ready.case");
    assert_eq!(replay_text("ok.case", &text).0, 0);
    for (name, from, to, code, want) in [
        (
            "exhausted.case",
            "expect entered item 1 at battlefield 1 ready",
            "expect entered item 1 at battlefield 1 exhausted",
            1,
            "but the model gives `entered item 1 at battlefield 1 ready`",
        ),
        (
            "none.case",
            "expect optional-paid item 1 1",
            "expect optional-paid item 1 none",
            1,
            "but the model gives `optional-paid item 1 1`",
        ),
        (
            "item9.case",
            "expect entered item 1 at battlefield 1 ready",
            "expect entered item 9 at base you ready",
            2,
            "there is no item 9",
        ),
        (
            "sleepy.case",
            "expect entered item 1 at battlefield 1 ready",
            "expect entered item 1 at battlefield 1 sleepy",
            2,
            "expected `ready` or `exhausted`, found `sleepy`",
        ),
        (
            "opt0.case",
            "optional 1 pay",
            "optional 0 pay",
            2,
            "counted from 1",
        ),
        (
            "optx.case",
            "optional 1 pay",
            "optional 1 maybe",
            2,
            "expected `pay` or `skip`",
        ),
        (
            "loc.case",
            "location battlefield 1",
            "location nowhere",
            2,
            "expected a location",
        ),
        (
            "twice.case",
            "optional 1 pay",
            "optional 1 pay\noptional 1 pay",
            1,
            "is not allowed",
        ),
        (
            "nocost.case",
            "optional 1 pay",
            "optional 2 pay",
            1,
            "is not allowed",
        ),
    ] {
        assert!(text.contains(from), "{name}");
        assert_exit(name, &text.replace(from, to), code, want);
    }
    let ez = corpus("ezreal-power-off-curtain-call-pays-with-five-energy.case");
    for (name, from, to, code, want) in [
        (
            "both.case",
            "reduce repeat 3 power",
            "reduce repeat 3 both",
            2,
            "expected `energy` or `power`, found `both`",
        ),
        (
            "part.case",
            "reduce repeat 3 power",
            "reduce rune 3 power",
            2,
            "expected `repeat` or `optional`",
        ),
        // Instance 1 is [1]: only its Energy can be taken, so there is no choice to make for it.
        (
            "nochoice.case",
            "reduce repeat 3 power",
            "reduce repeat 1 power",
            1,
            "is not allowed",
        ),
        (
            "missing.case",
            "reduce repeat 3 power\n",
            "",
            1,
            "is not allowed",
        ),
    ] {
        assert_exit(name, &ez.replace(from, to), code, want);
    }
}

#[test]
fn a_define_may_trigger_an_ability_another_define_declares() {
    let base = "rbcheck-case 1\nrules rup4\n\ndefine { name = \"Echo Watcher\", type = \"unit\", might = 2, abilities = [{ ability = \"when-you-play-a-spell\", trigger = \"Echo Watcher: draw\" }] }\ndefine { name = \"Echo Watcher: draw\", type = \"ability\", do = [{ effect = \"draw\", amount = 1 }] }\n\nunit W \"Echo Watcher\" you base you\npool you [1]\nhand you \"Void Seeker\"\nunit A \"Practice Dummy\" opponent battlefield 1\n";
    let text = format!("{base}pool you [3][R]\n\nyou play \"Void Seeker\"\nexec 1 target 1 A\npay\nyou pass\nopponent pass\npay\n\nexpect triggered \"Echo Watcher: draw\" 1\nexpect hand-size you 2\n");
    let (code, out) = replay_text("echo.case", &text);
    assert_eq!(code, 0, "{out}");
    assert_exit(
        "unknown.case",
        &text.replace(
            "trigger = \"Echo Watcher: draw\"",
            "trigger = \"Echo Watcher: drew\"",
        ),
        2,
        "no card or ability named `Echo Watcher: drew`",
    );
}

#[test]
fn the_new_statements_print_and_parse_back() {
    let case = Case {
        version: 1,
        header: vec![],
        rules: "rup4".into(),
        defines: vec![],
        board: vec![Line::new(BoardStmt::Academy(model::state::Player::OPP))],
        plays: vec![
            Line::new(PlayStmt::Play {
                player: model::state::Player::YOU,
                card: "X".into(),
            }),
            Line::new(PlayStmt::Optional {
                index: 2,
                pay: false,
            }),
            Line::new(PlayStmt::Location {
                to: model::state::Location::Battlefield(1),
            }),
            Line::new(PlayStmt::Reduce {
                part: Part::Optional,
                index: 1,
                less: Less::Power,
            }),
            Line::new(PlayStmt::Reduce {
                part: Part::Repeat,
                index: 3,
                less: Less::Energy,
            }),
            Line::new(PlayStmt::Discard {
                card: Some("Void Seeker".into()),
            }),
            Line::new(PlayStmt::Discard { card: None }),
        ],
        checkpoints: vec![],
        expects: vec![
            Line::new(Expect::OptionalPaid(1, vec![])),
            Line::new(Expect::OptionalPaid(1, vec![1, 2])),
            Line::new(Expect::Discarded(1, vec![])),
            Line::new(Expect::Discarded(1, vec![Some("Defy".into()), None])),
            Line::new(Expect::Entered(
                2,
                model::state::Location::Base(model::state::Player::YOU),
                true,
            )),
            Line::new(Expect::Order(vec![
                Moment::Execution(1, 2),
                Moment::Finalize(1),
                Moment::Play(1),
                Moment::Finish(1),
                Moment::Entry(ObjRef::Item(2)),
                Moment::Entry(ObjRef::Label("token-1".into())),
                Moment::Trigger("Spellwatcher: draw".into()),
            ])),
        ],
    };
    let text = print(&case);
    let back = parse(&text).unwrap();
    assert_eq!(print(&back), text);
    assert!(text.contains("academy opponent\n"), "{text}");
    assert!(text.contains("reduce optional 1 power\n"), "{text}");
    assert!(
        text.contains("discard \"Void Seeker\"\ndiscard other\n"),
        "{text}"
    );
    assert!(
        text.contains("expect discarded item 1 \"Defy\" other\n"),
        "{text}"
    );
    assert!(text.contains("expect order execution 2 of item 1 then finalize of item 1 then play of item 1 then finish of item 1 then entry of item 2 then entry of token-1 then trigger \"Spellwatcher: draw\"\n"), "{text}");
}

#[test]
fn the_discarded_card_is_the_payers_choice_and_is_read_back() {
    let text = corpus("square-up-discards-the-card-its-payer-chooses.case");
    assert_eq!(replay_text("ok.case", &text).0, 0);
    let other = text
        .replace("discard \"Void Seeker\"", "discard other")
        .replace(
            "expect trash you \"Void Seeker\" \"Square Up\"",
            "expect trash you \"Square Up\"",
        );
    assert_exit(
        "other.case",
        &other,
        1,
        "expected `discarded item 1 \"Void Seeker\"`, but the model gives `discarded item 1 other`",
    );
    for (name, from, to, code, want) in [
        (
            "nocard.case",
            "discard \"Void Seeker\"",
            "discard \"Void Seker\"",
            2,
            "unknown card \"Void Seker\"",
        ),
        (
            "nothand.case",
            "discard \"Void Seeker\"",
            "discard \"Defy\"",
            1,
            "is not allowed",
        ),
        (
            "missing.case",
            "discard \"Void Seeker\"\n",
            "",
            2,
            "must still decide: `discard \"Void Seeker\"` or `discard other`",
        ),
        (
            "expname.case",
            "expect discarded item 1 \"Void Seeker\"",
            "expect discarded item 1 \"Void Seker\"",
            2,
            "no card or ability is named \"Void Seker\"",
        ),
        (
            "expitem.case",
            "expect discarded item 1 \"Void Seeker\"",
            "expect discarded item 7 none",
            2,
            "there is no item 7",
        ),
        (
            "expnone.case",
            "expect discarded item 1 \"Void Seeker\"",
            "expect discarded item 1 none",
            1,
            "but the model gives `discarded item 1 \"Void Seeker\"`",
        ),
        (
            "bad.case",
            "discard \"Void Seeker\"",
            "discard 3",
            2,
            "expected a card name or `other`",
        ),
    ] {
        assert!(text.contains(from), "{name}");
        assert_exit(name, &text.replace(from, to), code, want);
    }
    // With only one kind of card left there is no choice to write.
    let forced = corpus("square-up-repeat-paid-by-discarding.case");
    assert_eq!(replay_text("forced.case", &forced).0, 0);
}

#[test]
fn non_energy_costs_the_model_lacks_are_refused_at_load() {
    let text = corpus("tithe-bolt-mandatory-discard-paid-once-when-repeated.case");
    let define = |cost: &str| {
        text.replace(
            "rules rup4\n",
            &format!("rules rup4\n\ndefine {{ name = \"Tithe Bolt\", type = \"spell\", cost = \"[1]\", repeat = [\"[1]\"], additional_costs = [\"{cost}\"], do = [{{ effect = \"deal\", amount = 2, target = {{ kind = \"unit\" }} }}] }}\n"),
        )
    };
    assert_eq!(replay_text("discard.case", &define("Discard 1")).0, 0);
    // "Kill a friendly unit" and "Exhaust a friendly unit" load since the unit costs
    // (tests in model/tests and the corpus); other kill and exhaust costs are still refused.
    assert_exit(
        "kill.case",
        &define("Kill an enemy unit"),
        2,
        "is not modelled",
    );
    assert_exit(
        "exhaust.case",
        &define("Exhaust me"),
        2,
        "only a triggered ability",
    );
    assert_exit(
        "zero.case",
        &define("Discard 0"),
        2,
        "expected `Discard N` with N from 1 to 255",
    );
    assert_exit(
        "odd.case",
        &define("Sing a song"),
        2,
        "unknown cost `Sing a song`",
    );
    // Paid once, not per execution: two discards would leave one card in hand.
    assert_exit(
        "twice.case",
        &text.replace("expect hand-size you 2", "expect hand-size you 1"),
        1,
        "but the model gives `hand-size you 2`",
    );
}
