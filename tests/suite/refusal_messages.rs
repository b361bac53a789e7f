//! What a failing replay says when the model refuses a statement: the rule that
//! refuses it and plain words, never the model's internal step names.

use std::path::PathBuf;

/// Replays `text` as a case file; the exit code and stdout.
fn replay(name: &str, text: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("rbcheck-refusals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    let o = crate::shared::command()
        .args(["replay", f.to_str().unwrap()])
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")))
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&f);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// Bellows Breath with its Repeat skipped has one execution: a choice for execution 2 is about an
/// execution that does not exist (820.3), not an illegal target (355.8).
#[test]
fn a_choice_for_an_execution_never_paid_says_there_is_no_such_execution() {
    let (code, out) = replay(
        "unpaid-exec.case",
        "rbcheck-case 1\nrules rup4\n\n\
         define { name = \"Frail Dummy\", type = \"unit\", might = 1, source = \"test\" }\n\n\
         unit A \"Frail Dummy\" you base you\npool you [2][B][B]\nhand you \"Bellows Breath\"\n\n\
         you play \"Bellows Breath\"\nrepeat 1 skip\nexec 1 target 1 A\nexec 1 no-more-targets 1\n\
         exec 2 target 1 A\npay\n\nexpect legal\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("unpaid-exec.case:14:")
            && out.contains("has 1 execution(s)")
            && out.contains("(0 of 1 paid); there is no execution 2 (820.3)"),
        "{out}"
    );
    assert!(!out.contains("355.8") && !out.contains("you's"), "{out}");
}

/// An object is "your" unit, not "you's".
#[test]
fn an_illegal_target_of_yours_is_named_your_unit() {
    let (code, out) = replay(
        "your-unit.case",
        "rbcheck-case 1\nrules rup4\n\nunit A \"Practice Dummy\" you base you\n\
         unit B \"Practice Dummy\" opponent battlefield 1\npool you [6][Y][Y]\nhand you \"Hidden Blade\"\n\n\
         you play \"Hidden Blade\"\nexec 1 target 1 A\npay\n\nexpect legal\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("your Practice Dummy (unit 1) is not a legal choice here (355.8)"),
        "{out}"
    );
}

/// Desert's Call with its Repeat paid from [3] is undone (358.5); the next `pay` is told so,
/// with the total and the pool, not "the rules call for nothing more".
#[test]
fn a_pay_after_an_undone_play_says_the_play_was_undone() {
    let (code, out) = replay(
        "undone-pay.case",
        "rbcheck-case 1\nrules rup4\n\npool you [3]\nhand you \"Desert's Call\"\n\n\
         you play \"Desert's Call\"\nrepeat 1 pay\npay\n\nexpect legal\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("undone-pay.case:9:")
            && out.contains("the play of Desert's Call (item 1) was undone: total [4], pool [3]")
            && out.contains("(358.5)"),
        "{out}"
    );
    assert!(!out.contains("nothing more here"), "{out}");
}

/// A `pay` before the modes are chosen: the message says which statement is expected, in the
/// case file's words, once (not "ChooseMode or ChooseMode or ChooseMode").
#[test]
fn what_is_expected_instead_is_said_in_case_statements_not_step_names() {
    let (code, out) = replay(
        "modes-first.case",
        "rbcheck-case 1\nrules rup4\n\nunit A \"Practice Dummy\" opponent battlefield 1\n\
         unit B \"Practice Dummy\" opponent base opponent\npool you [5]\nhand you \"Curtain Call\"\n\n\
         you play \"Curtain Call\"\nrepeat 1 skip\nrepeat 2 skip\nrepeat 3 skip\npay\n\n\
         expect legal\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("a mode for execution 1 (`exec 1 mode M`, M one of 1, 2, 3, 4)"),
        "{out}"
    );
    assert!(!out.contains("ChooseMode"), "{out}");
    // The plays end before a decision: the same words.
    let (code, out) = replay(
        "cut-short.case",
        "rbcheck-case 1\nrules rup4\n\nunit A \"Practice Dummy\" opponent battlefield 1\n\
         unit B \"Practice Dummy\" opponent base opponent\npool you [5]\nhand you \"Curtain Call\"\n\n\
         you play \"Curtain Call\"\nrepeat 1 skip\nrepeat 2 skip\nrepeat 3 skip\n\n\
         expect legal\n",
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("you must still decide: a mode for execution 1 (`exec 1 mode M`"),
        "{out}"
    );
    assert!(!out.contains("ChooseMode"), "{out}");
}

/// A case cut short after any statement of any corpus case says what decision is left in the
/// words of case statements, never by a model step's name (`KillForCost`, `ExhaustRune`...):
/// every corpus case is replayed cut after each of its statements.
#[test]
fn a_case_cut_short_names_the_decision_left_in_case_words() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = rbcheck::case::collect(&[root.join("corpus/cases")]).unwrap();
    // A step name is a CamelCase word: upper case after lower case (`KillForCost`); the
    // placeholders of case statements are all capitals (`UNIT`).
    let camel = |w: &str| {
        w.as_bytes()
            .windows(2)
            .any(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_uppercase())
    };
    let (mut cut_short, mut leaks) = (0, vec![]);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let Ok(case) = rbcheck::case::parse(&text) else {
            continue;
        };
        for k in 1..case.plays.len() {
            let mut c = case.clone();
            c.plays.truncate(k);
            c.expects.clear();
            c.checkpoints.clear();
            let dir = f.parent();
            let Err(e) = rbcheck::case::replay(&c, dir) else {
                continue;
            };
            if !e.message.contains("must still decide") {
                continue;
            }
            cut_short += 1;
            if e.message
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(camel)
            {
                leaks.push(format!("{}: {}", f.display(), e.message));
            }
        }
    }
    assert!(
        cut_short >= 100,
        "only {cut_short} cut-short cases looked at"
    );
    assert!(leaks.is_empty(), "{leaks:#?}");
}

/// A second activation of a Temporal Portal after the first exhausted it is refused because the
/// gear is exhausted (its [E] cannot be paid, 414.4), in those words: the model's guard says why.
#[test]
fn a_second_activation_of_an_exhausted_gear_says_it_is_exhausted() {
    let (code, out) = replay(
        "exhausted-gear.case",
        "rbcheck-case 1\nrules rup4\n\nunit A \"Practice Dummy\" you base you\ngear P \"Temporal Portal\" you\npool you [12][B][B]\nhand you \"Feral Strength\"\nturn plays 2\n\nyou activate P\npay any B\nclose\nyou activate P\n\nexpect legal\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("414.4") && out.contains("exhausted"), "{out}");
}

/// Rocket Barrage's "Kill a gear" with no gear on the board: the mode is refused because
/// choosing it would surely make the play illegal (355.16), not merely "cannot be chosen" (355.3).
#[test]
fn a_mode_with_no_legal_target_is_refused_by_355_16() {
    let (code, out) = replay(
        "mode-no-gear.case",
        "rbcheck-case 1\nrules rup4\n\nunit A \"Practice Dummy\" opponent base opponent\n\
         pool you [4][B]\nhand you \"Rocket Barrage\"\n\n\
         you play \"Rocket Barrage\"\nrepeat 1 skip\nexec 1 mode 2\npay\n\nexpect legal\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("mode 2 has a target with no legal choice") && out.contains("(355.16)"),
        "{out}"
    );
}

/// Grim Offering targets A; B and C could pay its "kill a friendly unit": killing A would make
/// its own target illegal (357.3), so `kill A` is refused by that rule.
#[test]
fn killing_the_chosen_unit_for_a_cost_is_refused_by_357_3() {
    let (code, out) = replay(
        "kill-chosen.case",
        "rbcheck-case 1\nrules rup4\n\nunit A \"Sturdy Dummy\" you base you\n\
         unit B \"Practice Dummy\" you base you\nunit C \"Practice Dummy\" you base you\n\
         pool you [1]\nhand you \"Grim Offering\"\n\n\
         you play \"Grim Offering\"\nrepeat 1 skip\nexec 1 target 1 A\npay\nkill A\n\nexpect legal\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("(357.3)"), "{out}");
}

/// Temptation moving A to the battlefield it stands at: the destination is refused by 355.4.a.
#[test]
fn a_destination_where_the_unit_stands_is_refused_by_355_4_a() {
    let (code, out) = replay(
        "same-place.case",
        "rbcheck-case 1\nrules rup4\n\nunit A \"Practice Dummy\" opponent battlefield 1\n\
         unit C \"Practice Dummy\" opponent battlefield 2\npool you [4]\nhand you \"Temptation\"\n\n\
         you play \"Temptation\"\nrepeat 1 skip\nexec 1 target 1 A\n\
         exec 1 destination 1 battlefield 1\npay\n\nexpect legal\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("cannot be moved to where it already is") && out.contains("(355.4.a)"),
        "{out}"
    );
}

/// A pass by the player who does not hold priority names who does, in plain words ("you hold",
/// not "you holds").
#[test]
fn a_pass_out_of_turn_says_who_holds_priority() {
    let (code, out) = replay(
        "pass-out-of-turn.case",
        "rbcheck-case 1\nrules rup4\n\n\
         define { name = \"Frail Dummy\", type = \"unit\", might = 1, source = \"test\" }\n\n\
         unit A \"Frail Dummy\" you base you\npool you [2][B][B]\nhand you \"Bellows Breath\"\n\n\
         you play \"Bellows Breath\"\nrepeat 1 skip\nexec 1 target 1 A\nexec 1 no-more-targets 1\n\
         pay\nopponent pass\n\nexpect legal\n",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("pass-out-of-turn.case:15:")
            && out.contains("opponent cannot pass: you hold priority (339)"),
        "{out}"
    );
}
