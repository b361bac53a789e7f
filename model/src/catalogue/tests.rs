//! The catalogue's reading, its errors and the define lines written back.

use super::*;

#[test]
fn the_shipped_catalogue_loads() {
    let c = Catalogue::builtin();
    for name in [
        "Rocket Barrage",
        "Desert's Call",
        "Curtain Call",
        "Hidden Blade",
        "Square Up",
        "Bellows Breath",
        "Temptation",
        "Find Your Center",
        "Temporal Portal",
        "Ezreal, Prodigy",
        "Marai Spire",
        "Defy",
        "Wind Wall",
        "Mystic Reversal",
        "Pouty Poro",
    ] {
        assert!(c.id(name).is_some(), "{name} missing from model/cards.toml");
    }
    let curtain = &c.cards[c.id("Curtain Call").unwrap() as usize];
    assert_eq!(curtain.repeat.len(), 3);
    assert!(curtain.distinct_modes);
}

#[test]
fn every_card_round_trips_through_its_raw_form_and_its_define_line() {
    let text = BUILTIN;
    let raw: RawFile = toml::from_str(text).unwrap();
    let names: Vec<String> = raw.card.iter().map(|c| c.name.clone()).collect();
    let name_of = |id: CardId| names[id as usize].clone();
    for rc in &raw.card {
        let def = convert(rc, &names).unwrap();
        let back = convert(&unconvert(&def, name_of), &names).unwrap();
        assert_eq!(back, def, "{}", rc.name);
        // The define line drops only the set code.
        let line = card_table(&def, name_of);
        let table: toml::Table = toml::from_str(&format!("card = {line}")).unwrap();
        let read: RawCard = table["card"].clone().try_into().unwrap();
        let from_line = convert(&read, &names).unwrap();
        assert_eq!(
            from_line,
            CardDef {
                code: String::new(),
                printed: Printed::default(),
                ..def
            },
            "{line}"
        );
    }
}

#[test]
fn a_define_line_is_one_inline_table_with_sorted_keys() {
    // toml's tables are sorted maps: generated cases list a card's fields alphabetically.
    let c = Catalogue::builtin();
    let twin = Catalogue::from_toml(
        "[[card]]\nname = \"Twin Bolt\"\ntype = \"spell\"\ncost = \"[1]\"\nrepeat = [\"[1]\", \"Discard 1\"]\ndo = [{ effect = \"deal\", amount = 2, target = { kind = \"unit\" } }]\n",
        "x",
    )
    .unwrap();
    assert_eq!(
        card_table(&twin.cards[0], |id| c.cards[id as usize].name.clone()),
        "{ cost = \"[1]\", do = [{ amount = 2, effect = \"deal\", target = { kind = \"unit\" } }], name = \"Twin Bolt\", repeat = [\"[1]\", \"Discard 1\"], type = \"spell\" }"
    );
}

fn err(text: &str) -> CatalogueError {
    Catalogue::from_toml(text, "bad.toml").unwrap_err()
}

#[test]
fn malformed_entries_name_file_line_card_and_field() {
    let e = err("[[card]]\nname = \"X\"\ntype = \"spell\"\ncost = \"[2\"\ndo = [{ effect = \"draw\", amount = 1 }]\n");
    assert_eq!((e.file.as_str(), e.line), ("bad.toml", 2));
    assert!(
        e.message.contains("card `X`") && e.message.contains("`cost`"),
        "{e}"
    );

    let e = err("[[card]]\nname = \"X\"\ntype = \"spell\"\ncolour = \"red\"\n");
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.contains("colour"), "{e}");

    let e =
        err("[[card]]\nname = \"X\"\ntype = \"spell\"\ndo = [{ effect = \"deal\", amount = 2 }]\n");
    assert!(e.message.contains("needs a `target`"), "{e}");

    let e = err("[[card]]\nname = \"X\"\ntype = \"unit\"\nabilities = [{ ability = \"when-chosen\", trigger = \"Nope\" }]\n");
    assert!(e.message.contains("no card or ability named `Nope`"), "{e}");

    let e = err("[[card]]\nname = \"X\"\ntype = \"spell\"\nrepeat = [\"Discard two\"]\ndo = [{ effect = \"draw\", amount = 1 }]\n");
    assert!(e.message.contains("Discard N"), "{e}");

    let e = err("[[card]]\nname = \"X\"\ntype = \"wizard\"\n");
    assert!(e.message.contains("unknown variant"), "{e}");

    let e = err("[[card]]\nname = \"X\"\ntype = \"spell\"\ndo = [{ effect = \"draw\", amount = 1 }]\n[[card]]\nname = \"x\"\ntype = \"spell\"\ndo = [{ effect = \"draw\", amount = 1 }]\n");
    assert!(e.message.contains("defined earlier"), "{e}");
    assert_eq!(e.line, 6, "{e}");

    // The same name twice: the line is the second card's, where the error is.
    let card =
        "[[card]]\nname = \"X\"\ntype = \"spell\"\ndo = [{ effect = \"draw\", amount = 1 }]\n";
    let e = err(&format!("{card}{card}"));
    assert_eq!(e.line, 6, "{e}");
}

// ---- printed text and what the model leaves out ----

/// The shipped catalogue's Hidden Blade, as a one-card catalogue with `edit` applied to its text.
fn hidden_blade(edit: impl Fn(String) -> String) -> Result<Catalogue, CatalogueError> {
    let start = BUILTIN.find("name = \"Hidden Blade\"").unwrap();
    let end = start + BUILTIN[start..].find("[[card]]").unwrap();
    Catalogue::from_toml(&edit(format!("[[card]]\n{}", &BUILTIN[start..end])), "x")
}

#[test]
fn a_printed_part_nothing_accounts_for_is_an_error_at_load() {
    assert!(hidden_blade(|t| t).is_ok());
    let err = hidden_blade(|t| t.replace("unmodelled = [\"[Hidden]\"]\n", ""))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("\"[hidden]\" is neither modelled nor listed"),
        "{err}"
    );
    let err = hidden_blade(|t| t.replace("\"[Hidden]\"]", "\"[Hidden]\", \"[Stun]\"]"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`unmodelled` entry \"[Stun]\" is not in the printed text"),
        "{err}"
    );
    // A mode that models something the card does not print is refused too.
    let err = hidden_blade(|t| {
        t.replace(
            "Its controller draws 2.\"\ndo",
            "Its controller draws 3.\"\ndo",
        )
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("is neither modelled nor listed")
            || err.contains("is not in the printed text"),
        "{err}"
    );
    let err = hidden_blade(|t| {
        let from = t.find("printed =").unwrap();
        let to = from + t[from..].find('\n').unwrap() + 1;
        format!("{}{}", &t[..from], &t[to..]).replace("unmodelled = [\"[Hidden]\"]\n", "")
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("needs `printed`"), "{err}");
}

/// A case's `define` of a card the catalogue already has, refused for a missing field, says
/// that card is built in and what a `define` under its name does; one of another name does not.
#[test]
fn a_refused_define_of_a_shipped_card_says_it_is_built_in() {
    let table = |name: &str| -> toml::Table {
        toml::from_str(&format!(
            "name = \"{name}\"\ncode = \"OGN-213\"\ntype = \"spell\"\ncost = \"[2][A]\"\n\
             do = [{{ effect = \"kill\", target = {{ kind = \"unit\" }} }}]\n"
        ))
        .unwrap()
    };
    let err = Catalogue::check_table(&table("Hidden Blade"), &[]).unwrap_err();
    assert!(err.contains("needs `printed`"), "{err}");
    assert!(err.contains("`Hidden Blade` is built in, OGN-213"), "{err}");
    assert!(err.contains("without a `define`"), "{err}");
    let err = Catalogue::builtin_with(&[table("hidden blade")], "case.case")
        .unwrap_err()
        .message;
    assert!(err.contains("is built in"), "{err}");
    let err = Catalogue::check_table(&table("Hidden Knife"), &[]).unwrap_err();
    assert!(!err.contains("built in"), "{err}");
}

#[test]
fn the_cards_of_digest_7_2_and_7_3_and_issue_12_are_present_with_their_text() {
    let c = Catalogue::builtin();
    for name in [
        "Temporal Portal",
        "Syndra, Transcendent",
        "Marai Spire",
        "Ezreal, Prodigy",
        "Vendetta Duelist",
        "Find Your Center",
        "Defy",
        "Wind Wall",
        "Not So Fast",
        "Repulse",
        "Mystic Reversal",
        "Hidden Blade",
        "Void Seeker",
        "Pouty Poro",
        "Volibear, Furious",
        "Called Shot",
        "Double Trouble",
        "Hard Bargain",
    ] {
        let id = c.id(name).unwrap_or_else(|| panic!("{name} missing"));
        let def = &c.cards[id as usize];
        assert!(
            !def.printed.text.is_empty() || def.synthetic,
            "{name} has no printed text"
        );
    }
    let hb = &c.cards[c.id("Hidden Blade").unwrap() as usize];
    assert_eq!(hb.printed.unmodelled, vec!["[Hidden]".to_string()]);
}

/// "If you paid, ..." needs a spell with exactly one `if-paid` optional cost and rides on a draw
/// or a token; each way of writing it wrong is refused at load, naming what was expected.
#[test]
fn an_if_paid_rider_needs_a_spell_with_one_cost_to_read() {
    let check = |fields: &str, ins: &str| {
        let text = format!(
            "name = \"Probe\"\ntype = \"spell\"\ncost = \"[1]\"\n{fields}\n\
             do = [{{ effect = \"deal\", amount = 1, target = {{ kind = \"unit\" }} }}, {ins}]\n"
        );
        Catalogue::check_table(&toml::from_str(&text).unwrap(), &[])
    };
    let cost = "optional_costs = [{ cost = \"[1]\", rider = \"if-paid\" }]";
    let draw = "{ effect = \"draw\", amount = 1, if_paid = true }";
    assert!(check(cost, draw).is_ok());
    assert!(check(
        cost,
        "{ effect = \"play-token\", amount = 1, if_paid = false }"
    )
    .is_ok());
    let err = check("", draw).unwrap_err();
    assert!(err.contains("needs an optional cost"), "{err}");
    let err = check(cost, "{ effect = \"draw\", amount = 1 }").unwrap_err();
    assert!(
        err.contains("needs an instruction marked `if_paid`"),
        "{err}"
    );
    let err = check(
        cost,
        "{ effect = \"deal\", amount = 1, if_paid = true, target = { kind = \"unit\" } }",
    )
    .unwrap_err();
    assert!(err.contains("`draw` or `play-token` only"), "{err}");
    let two = "optional_costs = [{ cost = \"[1]\", rider = \"if-paid\" }, { cost = \"[2]\", rider = \"if-paid\" }]";
    let err = check(two, draw).unwrap_err();
    assert!(err.contains("at most one `if-paid`"), "{err}");
    let err = check(
        "optional_costs = [{ cost = \"[1]\", rider = \"accelerate\" }]",
        draw,
    )
    .unwrap_err();
    assert!(err.contains("a spell's optional cost takes"), "{err}");
    // "You may pay [1]. If you do, ...": the rider reads the payment, not a cost; a payment no
    // rider reads is refused, and so is a cost that only such riders would read.
    let may = "{ effect = \"may-pay\", amount = 1 }";
    assert!(check("", &format!("{may}, {draw}")).is_ok());
    let err = check("", may).unwrap_err();
    assert!(err.contains("a `may-pay` needs a rider"), "{err}");
    let err = check("", &format!("{may}, {may}, {draw}")).unwrap_err();
    assert!(err.contains("a `may-pay` needs a rider"), "{err}");
    let err = check(cost, &format!("{may}, {draw}")).unwrap_err();
    assert!(
        err.contains("needs an instruction marked `if_paid`"),
        "{err}"
    );
    assert!(check(cost, &format!("{draw}, {may}, {draw}")).is_ok());
    let unit = "name = \"Probe\"\ntype = \"unit\"\nmight = 1\n\
                optional_costs = [{ cost = \"[1]\", rider = \"if-paid\" }]\n";
    let err = Catalogue::check_table(&toml::from_str(unit).unwrap(), &[]).unwrap_err();
    assert!(err.contains("`if-paid` is a spell's cost"), "{err}");
}
