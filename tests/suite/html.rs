//! The HTML reports (`check --html`, `diff --html`, `fuzz --html`): each is parsed as XML (the
//! reports are well-formed XHTML), and its steps, rule numbers, rule texts, boards, case pairs
//! and answers are checked against the same run's JSON report; the file is never overwritten nor
//! left half-written.

use crate::shared::{rbcheck, root};
use roxmltree::{Document, Node, ParsingOptions};
use std::path::{Path, PathBuf};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rbcheck-html-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A bound of a few scenarios in which the double-executions rulebook fails.
const SMALL_BOUND: &str = "instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\nboards = [\"enemy-spread\"]\nextras = [[]]\nresources = [\"rich\"]\nreactions = [[]]\n";

fn parse(text: &str) -> Document<'_> {
    let opts = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(text, opts)
        .unwrap_or_else(|e| panic!("the report is not well-formed XHTML: {e}"))
}

fn class_has(n: &Node, c: &str) -> bool {
    n.attribute("class")
        .is_some_and(|v| v.split_whitespace().any(|x| x == c))
}

fn all<'a, 'i>(n: Node<'a, 'i>, tag: &str, class: &str) -> Vec<Node<'a, 'i>> {
    n.descendants()
        .filter(|d| d.has_tag_name(tag) && (class.is_empty() || class_has(d, class)))
        .collect()
}

fn text(n: &Node) -> String {
    n.descendants()
        .filter(|d| d.is_text())
        .filter_map(|d| d.text())
        .collect()
}

/// Nothing in the page reaches the network: no `src`, no `href` but in-page anchors, no `@import`.
fn self_contained(doc: &Document, raw: &str) {
    for n in doc.descendants().filter(|n| n.is_element()) {
        assert!(n.attribute("src").is_none(), "{:?}", n.tag_name());
        if let Some(h) = n.attribute("href") {
            assert!(h.starts_with('#'), "a link out of the page: {h}");
        }
    }
    assert!(!raw.contains("@import") && !raw.contains("url("));
}

#[test]
fn check_html_shows_each_counterexample_step_by_step_beside_its_board() {
    let d = tmp("check");
    let bound = d.join("small.toml");
    std::fs::write(&bound, SMALL_BOUND).unwrap();
    let html = d.join("report.html");
    let rules = "corpus/rulebooks/double-executions.toml";
    let o = rbcheck(&[
        "check",
        "--rules",
        rules,
        "--bound",
        s(&bound),
        "--quiet",
        "--html",
        s(&html),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let j = rbcheck(&[
        "check",
        "--rules",
        rules,
        "--bound",
        s(&bound),
        "--quiet",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    let raw = std::fs::read_to_string(&html).unwrap();
    let doc = parse(&raw);
    self_contained(&doc, &raw);
    let root_el = doc.root_element();

    // Every property, with its meaning and its verdict.
    let props = json["properties"].as_array().unwrap();
    for p in props {
        let name = p["name"].as_str().unwrap();
        let row = root_el
            .descendants()
            .find(|n| n.has_tag_name("tr") && n.attribute("data-property") == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}"));
        let cells: Vec<String> = row
            .children()
            .filter(|c| c.is_element())
            .map(|c| text(&c))
            .collect();
        assert_eq!(cells[2], p["outcome"].as_str().unwrap(), "{name}");
        assert_eq!(cells[3], p["rule"].as_str().unwrap(), "{name}");
        assert!(cells[4].len() > 20, "{name}: no meaning");
    }

    // Each counterexample: the JSON's steps, in order, with their rules; one board per step.
    let violated: Vec<&serde_json::Value> = props
        .iter()
        .filter(|p| p["counterexample"].is_object())
        .collect();
    let sections = all(root_el, "section", "counterexample");
    assert!(!violated.is_empty());
    assert_eq!(sections.len(), violated.len());
    // The summary, first on the page, says how each violated property fails, linking to its
    // counterexample: the reason for the verdict needs no scrolling.
    let summary = root_el
        .descendants()
        .find(|n| n.attribute("id") == Some("summary"))
        .expect("a summary section");
    let how: Vec<Node> = all(summary, "a", "")
        .into_iter()
        .filter(|a| a.attribute("href").is_some_and(|h| h.starts_with("#ce")))
        .collect();
    assert_eq!(how.len(), violated.len());
    for (a, (p, sec)) in how.iter().zip(violated.iter().zip(&sections)) {
        assert_eq!(Some(text(a).as_str()), p["name"].as_str());
        assert_eq!(a.attribute("href").map(|h| &h[1..]), sec.attribute("id"));
        let row = text(&a.parent().unwrap());
        let why = p["counterexample"]["explanation"].as_str().unwrap();
        assert!(row.contains(why), "{row} lacks {why}");
    }
    for (sec, p) in sections.iter().zip(&violated) {
        assert_eq!(sec.attribute("data-property"), p["name"].as_str());
        // The scenario's cards with their text, before the steps: the made-up spell with the
        // model's text and its [Repeat], the unit with its Might; then what the symbols mean.
        let cards = all(*sec, "details", "cards");
        assert_eq!(cards.len(), 1);
        let rows: Vec<String> = all(cards[0], "tr", "")
            .iter()
            .skip(1)
            .map(|r| text(r))
            .collect();
        assert!(
            rows.iter()
                .any(|r| r.contains("[Repeat] [1]") && r.contains("model's text")),
            "{rows:?}"
        );
        assert!(rows.iter().any(|r| r.contains("unit, Might")), "{rows:?}");
        let legend = text(&all(*sec, "p", "legend")[0]);
        for letter in ["R Fury", "G Calm", "B Mind", "O Body", "P Chaos", "Y Order"] {
            assert!(legend.contains(letter), "{legend}");
        }
        let steps = p["counterexample"]["steps"].as_array().unwrap();
        let rows: Vec<Node> = all(*sec, "tr", "")
            .into_iter()
            .filter(|r| r.attribute("data-step").is_some())
            .collect();
        assert_eq!(rows.len(), steps.len(), "{}", p["name"]);
        let boards = all(*sec, "div", "board");
        assert_eq!(boards.len(), steps.len());
        let mut events = 0;
        for (i, (row, step)) in rows.iter().zip(steps).enumerate() {
            let cells: Vec<String> = row
                .children()
                .filter(|c| c.is_element())
                .map(|c| text(&c))
                .collect();
            assert!(
                cells[1].starts_with(step["action"].as_str().unwrap()),
                "{cells:?}"
            );
            // The start applies no rule (`null` in the JSON, an empty cell on the page).
            let rule = step["rule"].as_str().unwrap_or("");
            assert_eq!(cells[3], rule);
            // The rule has its own column: the description does not repeat it.
            assert!(
                rule.is_empty() || !cells[2].contains(&format!("[{rule}]")),
                "{cells:?}"
            );
            assert_eq!(row.attribute("data-rule"), Some(rule));
            // The row's board: the board after this step, with the rule texts it cites.
            let board = boards
                .iter()
                .find(|b| b.attribute("id") == row.attribute("data-board"))
                .unwrap();
            assert_eq!(board.attribute("data-step"), Some(i.to_string().as_str()));
            for clause in rule.split(", ").filter(|c| !c.is_empty()) {
                let clause = clause.split('–').next().unwrap();
                let quote = all(*board, "div", "rule")
                    .into_iter()
                    .find(|q| q.attribute("data-clause") == Some(clause))
                    .unwrap_or_else(|| panic!("step {i}: no text for {clause}"));
                assert!(
                    !class_has(&quote, "missing"),
                    "step {i}: {clause} not found"
                );
                assert!(text(&quote).len() > 40, "step {i}: {}", text(&quote));
            }
            // The board's cells: both players' pools, every unit with its Might, the events.
            let cells = |c: &str| {
                board
                    .descendants()
                    .filter(|n| n.attribute("data-cell") == Some(c))
                    .count()
            };
            assert_eq!(cells("player"), 2);
            assert_eq!(cells("pool"), 2);
            assert_eq!(cells("might"), cells("unit"));
            assert!(cells("unit") >= 1);
            // Events so far: never fewer than at the step before; some by the last.
            assert!(cells("event") >= events, "step {i}: events lost");
            events = cells("event");
            // Only the violating state is shown before a click.
            assert_eq!(class_has(board, "hidden"), i + 1 != steps.len());
            assert_eq!(class_has(row, "selected"), i + 1 == steps.len());
        }
        assert!(events > 0);
    }
    // The text of a rule the model cites, quoted from the digest.
    assert!(raw.contains("Move the card to the Chain"));

    // A printed card shows its printed text (model/cards.toml), with its code.
    let printed = d.join("printed.toml");
    std::fs::write(
        &printed,
        SMALL_BOUND.replace(
            "instances = [1]",
            "instances = [0]\ncatalogue = [\"Curtain Call\"]",
        ),
    )
    .unwrap();
    let html = d.join("printed.html");
    let args = [
        "check",
        "--rules",
        rules,
        "--bound",
        s(&printed),
        "--quiet",
        "--coverage",
        "--html",
        s(&html),
    ];
    assert_eq!(rbcheck(&args).status.code(), Some(1));
    let raw = std::fs::read_to_string(&html).unwrap();
    let doc = parse(&raw);
    let rows: Vec<String> = all(doc.root_element(), "details", "cards")
        .iter()
        .flat_map(|c| all(*c, "tr", ""))
        .map(|r| text(&r))
        .collect();
    assert!(
        rows.iter().any(|r| r.contains("Curtain Call") && r.contains("Deal 2 to a unit at a battlefield.")),
        "{rows:?}"
    );
    // With --coverage: each clause the model cites with its transitions, the never-reached
    // ones first and marked.
    let table = all(doc.root_element(), "table", "coverage");
    let rows: Vec<Node> = all(table[0], "tr", "").into_iter().skip(1).collect();
    assert!(rows.len() > 20, "{}", rows.len());
    let zero = |r: &Node| text(&all(*r, "td", "num")[0]) == "0";
    assert!(rows.iter().all(|r| zero(r) == class_has(r, "bad")));
    assert!(rows.windows(2).all(|w| zero(&w[0]) || !zero(&w[1])));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_html_file_is_checked_first_never_overwritten_nor_left_half_written() {
    let d = tmp("refuse");
    let html = d.join("r.html");
    std::fs::write(&html, "mine").unwrap();
    let o = rbcheck(&["check", "--bound", "tiny", "--html", s(&html)]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("r.html") && err.contains("never overwrites"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&html).unwrap(), "mine");
    // A folder is not a file.
    let o = rbcheck(&["check", "--bound", "tiny", "--html", s(&d)]);
    assert_eq!(o.status.code(), Some(2));
    // A bad input after the file was checked: nothing is left behind, not even the temporary.
    let fresh = d.join("sub").join("new.html");
    let o = rbcheck(&["check", "--bound", "no-such-bound", "--html", s(&fresh)]);
    assert_eq!(o.status.code(), Some(2));
    let left: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["r.html"], "left behind: {left:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--force` replaces an existing report and an earlier output folder once the run is done, and
/// never a folder holding what rbcheck does not write (a subfolder, a file of another kind).
#[test]
fn force_replaces_an_earlier_output_and_nothing_else() {
    let d = tmp("force");
    let html = d.join("r.html");
    let cases = d.join("cases");
    let run = |force: bool, cases: &Path| {
        let mut args = vec![
            "check",
            "--rules",
            "corpus/rulebooks/double-executions.toml",
            "--bound",
            "tiny",
            "--quiet",
            "--html",
            s(&html),
            "--cases",
            s(cases),
        ];
        if force {
            args.push("--force");
        }
        rbcheck(&args)
    };
    assert_eq!(run(false, &cases).status.code(), Some(1));
    std::fs::write(&html, "old report").unwrap();
    std::fs::write(cases.join("stale.case"), "an earlier run's case").unwrap();
    // Without --force both are refused, and the message says how to replace them.
    let o = run(false, &cases);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&html).unwrap(), "old report");
    // With it, both are replaced whole: the stale case is gone, the report is new.
    let o = run(true, &cases);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(std::fs::read_to_string(&html).unwrap().contains("<html"));
    let names: Vec<String> = std::fs::read_dir(&cases)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.is_empty() && !names.contains(&"stale.case".to_string()),
        "{names:?}"
    );
    // Nothing is left beside them (no staging or moved-aside folder).
    let left: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    // A folder of anything else is never removed, --force or not.
    for (what, make) in [
        ("a subfolder", "sub/"),
        ("a file rbcheck does not write", "photo.jpg"),
    ] {
        let other = d.join(format!("other-{}", make.trim_end_matches('/')));
        std::fs::create_dir_all(&other).unwrap();
        match make.strip_suffix('/') {
            Some(sub) => std::fs::create_dir(other.join(sub)).unwrap(),
            None => std::fs::write(other.join(make), "mine").unwrap(),
        }
        let o = run(true, &other);
        assert_eq!(o.status.code(), Some(2), "{what}");
        assert!(other.join(make.trim_end_matches('/')).exists(), "{what}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn diff_html_shows_each_class_with_its_smallest_pair_side_by_side() {
    let d = tmp("diff");
    let html = d.join("diff.html");
    let o = rbcheck(&[
        "diff",
        "v1.3",
        "rup4",
        "--bound",
        "tiny",
        "--html",
        s(&html),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let j = rbcheck(&["diff", "v1.3", "rup4", "--bound", "tiny", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    let raw = std::fs::read_to_string(&html).unwrap();
    let doc = parse(&raw);
    self_contained(&doc, &raw);
    let classes = json["classes"].as_array().unwrap();
    let sections = all(doc.root_element(), "section", "class");
    assert_eq!(sections.len(), classes.len());
    let mut marked = 0;
    for (sec, c) in sections.iter().zip(classes) {
        assert!(text(sec).contains(c["what"].as_str().unwrap()));
        let pres = all(*sec, "pre", "case");
        assert_eq!(pres.len(), 2);
        assert!(
            text(&pres[0]).contains("\nrules v1.3\n"),
            "{}",
            text(&pres[0])
        );
        assert!(text(&pres[1]).contains("\nrules rup4\n"));
        // Each side with its outcome under its rulebook.
        assert!(text(&pres[0]).contains("\nexpect ") && text(&pres[1]).contains("\nexpect "));
        marked += all(*sec, "span", "only").len();
    }
    assert!(marked > 0, "no line marked as differing");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn fuzz_html_shows_each_finding_with_the_model_and_the_engine_answers() {
    let d = tmp("fuzz");
    let html = d.join("fuzz.html");
    let engine = format!(
        "python3 {} --mutant unlimited-payments",
        root().join("tests/engines/reference_engine.py").display()
    );
    let out = d.join("findings");
    let o = rbcheck(&[
        "fuzz",
        "--engine",
        &engine,
        "--cases",
        "120",
        "--out",
        s(&out),
        "--html",
        s(&html),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let raw = std::fs::read_to_string(&html).unwrap();
    let doc = parse(&raw);
    self_contained(&doc, &raw);
    let findings = all(doc.root_element(), "section", "finding");
    // One case file per finding (beside them, summary.txt lists every case).
    let files = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "case"))
        })
        .count();
    assert_eq!(findings.len(), files);
    let first = &findings[0];
    // Grouped by cause: a Repeat instance paid when the rules refuse it.
    assert!(text(first).contains("`repeat"), "{}", text(first));
    let rows = all(*first, "tr", "");
    let answers: Vec<Vec<String>> = rows
        .iter()
        .filter(|r| r.attribute("data-field").is_some())
        .map(|r| {
            r.children()
                .filter(|c| c.is_element())
                .map(|c| text(&c))
                .collect()
        })
        .collect();
    assert!(!answers.is_empty());
    for a in &answers {
        assert_ne!(a[2], a[3], "the model and the engine agree: {a:?}");
    }
    // An instance paid twice is refused by 820.1.c.3, or by 355.1.a when it is declared after
    // the choices; whichever the row cites, its rule text is quoted.
    let rule = answers
        .iter()
        .map(|a| a[4].clone())
        .find(|r| r == "820.1.c.3" || r == "355.1.a")
        .unwrap_or_else(|| panic!("{answers:?}"));
    assert!(all(*first, "div", "rule")
        .iter()
        .any(|q| q.attribute("data-clause") == Some(rule.as_str())));
    let case = &all(*first, "pre", "case")[0];
    assert!(text(case).starts_with("rbcheck-case 1"));
    // The conformance table: the clause the mutant breaks deviates, with its finding linked.
    let table = all(doc.root_element(), "section", "")
        .into_iter()
        .find(|x| x.attribute("id") == Some("conformance"))
        .expect("a conformance section");
    let row = all(table, "tr", "")
        .into_iter()
        .find(|r| r.attribute("data-clause") == Some(rule.as_str()))
        .unwrap_or_else(|| panic!("no row {rule}: {}", text(&table)));
    assert!(text(&row).contains("(finding 1)"), "{}", text(&row));
    let _ = std::fs::remove_dir_all(&d);
}
