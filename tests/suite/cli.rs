//! End-to-end tests of the `rbcheck` command as a user runs it.

use crate::shared::{rbcheck, root};
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

#[test]
fn check_on_the_tiny_bound_holds_and_reports_every_property() {
    let o = rbcheck(&["check", "--bound", "tiny"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("every property holds"), "{out}");
    for name in [
        "at-most-one-payment-per-instance",
        "executions-equal-one-plus-paid",
        "terminates",
        "820.1.c.3",
    ] {
        assert!(out.contains(name), "missing {name}");
    }
}

#[test]
fn json_output_keeps_its_field_names() {
    let o = rbcheck(&["check", "--bound", "tiny", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    for k in [
        "rules",
        "bound",
        "initial_states",
        "states",
        "transitions",
        "max_depth",
        "seconds",
        "properties",
    ] {
        assert!(v.get(k).is_some(), "missing `{k}`");
    }
    assert_eq!(v["rules"], "rup4");
    assert_eq!(v["bound"], "tiny");
    assert_eq!(v["complete"], true);
    for p in v["properties"].as_array().unwrap() {
        assert!(p["name"].is_string() && p["rule"].is_string());
        assert_eq!(p["status"], "holds", "{p}");
    }
}

#[test]
fn a_wrong_rulebook_exits_1_with_a_rule_citing_counterexample() {
    let o = rbcheck(&[
        "check",
        "--bound",
        "tiny",
        "--rules",
        "corpus/rulebooks/play-per-execution.toml",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("COUNTEREXAMPLE for one-play-event"), "{out}");
    assert!(
        out.contains("[355.1.a, 820.1.c.2–3]"),
        "steps cite their rule: {out}"
    );
    assert!(out.contains("has been played by you (play event)"), "{out}");
    let o = rbcheck(&[
        "check",
        "--bound",
        "tiny",
        "--rules",
        "corpus/rulebooks/play-per-execution.toml",
        "--json",
    ]);
    let v = json(&o);
    let p = v["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "one-play-event")
        .unwrap()
        .clone();
    assert_eq!(p["status"], "violated");
    let steps = p["counterexample"]["steps"].as_array().unwrap();
    assert!(steps.len() > 3);
    assert!(steps
        .iter()
        .skip(1)
        .all(|s| s["rule"].as_str().is_some_and(|r| !r.is_empty())));
}

#[test]
fn bad_input_exits_2_naming_the_file_and_line() {
    let o = rbcheck(&["check", "--rules", "v9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown rulebook `v9`"),
        "{}",
        stderr(&o)
    );

    let dir = std::env::temp_dir().join(format!("rbcheck-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "base = \"rup4\"\n\npayments_per_instance = \"many\"\n",
    )
    .unwrap();
    let o = rbcheck(&["check", "--bound", "tiny", "--rules", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.toml:3:"), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "nothing written half-way");

    let badb = dir.join("badbound.toml");
    std::fs::write(&badb, "instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\nboards = [\"nowhere\"]\n").unwrap();
    let o = rbcheck(&["check", "--bound", badb.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("badbound.toml:4:"), "{}", stderr(&o));

    let o = rbcheck(&["check", "--bound", "enormous"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("tiny, default, large"));
    std::fs::remove_dir_all(&dir).ok();
}

/// A bound's `deck_top` naming no card is refused at its file and line, before any scenario is
/// built (before: "no card" with neither); an error in a `[turn]` field names that field's
/// line, not the table's header, however the table is written.
#[test]
fn bound_errors_name_the_file_and_the_fields_own_line() {
    let dir = std::env::temp_dir().join(format!("rbcheck-cli-bound-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let head = "instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\nboards = [\"enemy-spread\"]\nextras = [[]]\nresources = [\"rich\"]\nreactions = [[]]\n";
    for (name, tail, at, want) in [
        ("top.toml", "deck_top = [\"Pouty Poro\",\n  \"No Such Card\"]\n", 8, "no card named `No Such Card`"),
        ("topkind.toml", "\n\ndeck_top = [\"Marai Spire\"]\n", 10, "a main deck holds spells, units and gear"),
        ("plays.toml", "\n[turn]\n\nplays = 9\n", 11, "`turn.plays` is 9"),
        ("upto.toml", "[turn]\nplays = 2\nyours = { from = [\"Pouty Poro\"], up_to = 1 }\nopponent = { from = [\"Pouty Poro\"],\n  up_to = 7 }\n", 12, "`turn.opponent.up_to` is 7"),
        ("from.toml", "[turn]\nplays = 2\n\n[turn.yours]\nup_to = 1\n\nfrom = [\"Nope\"]\n", 14, "no card named `Nope`"),
        ("empty.toml", "[turn]\nplays = 2\n[turn.yours]\nfrom = []\nup_to = 2\n", 12, "`turn.yours.from` is empty"),
    ] {
        let f = dir.join(name);
        std::fs::write(&f, format!("{head}{tail}")).unwrap();
        let o = rbcheck(&["check", "--bound", f.to_str().unwrap(), "--quiet"]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        let want_at = format!("{name}:{at}: ");
        assert!(stderr(&o).contains(&want_at), "{name}: expected `{want_at}` in {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{name}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{name}: refused before the run");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A witness the edit's run missed is "unreachable" only if the run under the base reaches it,
/// and "never reached" (NOT EXERCISED) only if that run searched everything and missed it
/// too. When that run stopped first (a memory budget), the witness is UNDECIDED: the verdict
/// is partial and the JSON status `unknown` (before: taken as "the base misses it too", so the
/// same command said NOT EXERCISED or "unreachable" depending on the memory left).
#[test]
fn a_witness_whose_base_run_stopped_is_undecided_never_not_exercised() {
    use rbcheck::verdict::{BaseRun, Verdict};
    let opts = rbcheck::check::CheckOptions {
        rules: "corpus/rulebooks/double-executions.toml".into(),
        bound: "tiny".into(),
        properties: vec!["witness: two of three instances paid, three executions".into()],
        counterexamples: 1,
        ..Default::default()
    };
    std::env::set_current_dir(root()).unwrap();
    let mut run = rbcheck::check::check(&opts, None, None).unwrap();
    assert_eq!(run.judgement.misses.len(), 1);
    assert!(
        matches!(&run.judgement.misses[0].base, BaseRun::Reaches(b) if b == "rup4"),
        "{:?}",
        run.judgement.misses[0]
    );
    assert!(matches!(
        run.verdict(),
        Verdict::Failed { unreachable: 1, .. }
    ));
    run.judgement.misses[0].base = BaseRun::Stopped {
        base: "rup4".into(),
        why: "stopped: memory limit of 16 MiB reached at depth 3 after 40 states".into(),
    };
    assert_eq!(run.verdict(), Verdict::Partial);
    let human = rbcheck::report::human(&run.system, &run.judgement, &run.result);
    assert!(
        human.contains("UNDECIDED: witness: two of three"),
        "{human}"
    );
    assert!(
        human.contains(
            "whether rup4 does is unknown: the run under rup4 stopped: memory limit of 16 MiB"
        ),
        "{human}"
    );
    assert!(!human.contains("NEVER REACHED"), "{human}");
    assert!(!human.contains("NOT EXERCISED"), "{human}");
    let json = serde_json::to_value(rbcheck::report::json(
        &run.system,
        &run.judgement,
        &run.result,
    ))
    .unwrap();
    let p = json["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "witness: two of three instances paid, three executions")
        .unwrap();
    assert_eq!(p["status"], "unknown", "{p}");
    assert!(p.get("unreachable").is_none(), "{p}");
}

#[test]
fn max_states_gives_a_partial_result_marked_as_such() {
    let o = rbcheck(&["check", "--bound", "tiny", "--max-states", "5000", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    assert_eq!(v["complete"], false);
    assert!(v["properties"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["status"] == "unknown"));
    let o = rbcheck(&["check", "--bound", "tiny", "--max-states", "5000"]);
    assert!(stdout(&o).contains("PARTIAL RUN"));
}

/// The search calls the model's transitions once per transition, whatever the order; the
/// fields a rulebook edit exercises are counted in those transitions, so the report (counts
/// and the example scenario included) is the same depth-first and breadth-first. A search
/// that ran a transition again (to rebuild a path it did not keep) would count other scenarios.
#[test]
fn results_do_not_depend_on_the_search_order() {
    let rules = "corpus/rulebooks/illegal-targets-affected.toml";
    let run = |search: &str| {
        json(&rbcheck(&[
            "check", "--bound", "tiny", "--rules", rules, "--json", "--quiet", "--search", search,
        ]))
    };
    let (auto, bfs) = (run("auto"), run("bfs"));
    assert!(
        auto["exercised"]["fields"][0]["scenarios"]
            .as_u64()
            .unwrap()
            > 0
    );
    // What the two searches store differs (the depth-first one stores nothing); what they
    // found may not.
    for key in [
        "exercised",
        "properties",
        "states",
        "transitions",
        "verdict",
    ] {
        assert_eq!(auto[key], bfs[key], "{key}");
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let strip = |o: &Output| {
        let mut v = json(o);
        for k in ["seconds", "states_per_second", "peak_memory_bytes"] {
            v.as_object_mut().unwrap().remove(k);
        }
        v
    };
    for rules in ["rup4", "corpus/rulebooks/illegal-targets-affected.toml"] {
        let one = rbcheck(&[
            "check",
            "--bound",
            "tiny",
            "--rules",
            rules,
            "--json",
            "--threads",
            "1",
        ]);
        let two = rbcheck(&[
            "check",
            "--bound",
            "tiny",
            "--rules",
            rules,
            "--json",
            "--threads",
            "2",
        ]);
        assert_eq!(strip(&one), strip(&two), "{rules}");
    }
}

#[test]
fn rules_list_documents_every_field_with_its_rule() {
    let o = rbcheck(&["rules", "--list"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for f in model::rulebook::FIELDS {
        assert!(out.contains(f.name) && out.contains(f.rule), "{}", f.name);
    }
    assert!(out.contains("v1.2=false") || out.contains("v1.2="));
}

#[test]
fn graph_writes_dot_for_one_scenario() {
    let o = rbcheck(&["graph", "--bound", "tiny", "--scenario", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("digraph"), "{out}");
    assert!(out.contains("MoveToChain") || out.contains("put"), "{out}");
    let o = rbcheck(&["graph", "--bound", "tiny", "--scenario", "100000"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn counterexamples_export_as_case_json_itf_and_dot() {
    let dir = std::env::temp_dir().join(format!("rbcheck-traces-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = rbcheck(&[
        "check",
        "--bound",
        "tiny",
        "--rules",
        "corpus/rulebooks/replicate.toml",
        "--traces",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let stem = dir.join("01-at-most-one-payment-per-instance");
    let itf_text = std::fs::read_to_string(stem.with_extension("itf.json")).unwrap();
    // Typed: `itf::Value` cannot hold Quint's unit `{"#tup": []}`, an absent option's value.
    #[derive(serde::Deserialize)]
    struct Action {
        #[serde(rename = "mbt::actionTaken")]
        _action: String,
    }
    let trace: itf::Trace<Action> =
        itf::trace_from_str(&itf_text).expect("the ITF output parses with the itf crate");
    assert!(trace.states.len() > 3);
    assert!(
        itf_text.contains("\"mbt::actionTaken\":\"DeclareRepeat\""),
        "{itf_text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(stem.with_extension("json")).unwrap())
            .unwrap();
    assert_eq!(json["rule"], "820.1.c.3");
    assert_eq!(json["steps"].as_array().unwrap().len(), trace.states.len());
    let dot = std::fs::read_to_string(stem.with_extension("dot")).unwrap();
    assert!(
        dot.starts_with("digraph") && dot.contains("s1 -> s2"),
        "{dot}"
    );
    let o = rbcheck(&["replay", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn coverage_lists_clauses_and_the_ones_never_reached() {
    let o = rbcheck(&["check", "--bound", "tiny", "--coverage"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("RULE COVERAGE"), "{out}");
    // The tiny bound has no Deflect unit and no token: those clauses are reported unreached.
    let never = out
        .lines()
        .find(|l| l.starts_with("never reached in this bound:"))
        .expect("a list of unreached clauses");
    assert!(
        never.contains("809.1.c") && never.contains("354.3"),
        "{never}"
    );
    assert!(!never.contains("820.1.c.3"), "{never}");
    let v = json(&rbcheck(&[
        "check",
        "--bound",
        "tiny",
        "--coverage",
        "--json",
    ]));
    let cov = v["coverage"].as_array().unwrap();
    let n = |c: &str| {
        cov.iter().find(|x| x["clause"] == c).unwrap()["transitions"]
            .as_u64()
            .unwrap()
    };
    assert!(n("820.1.c.3") > 0 && n("359.3.e.14") > 0);
    assert_eq!(n("809.1.c"), 0);
}

#[test]
fn scenarios_where_the_item_cannot_be_played_are_left_out_and_named() {
    // Syndra's showdown (358.4): only [Action] and [Reaction] spells can be played. The
    // generated spell is [Action]; Rocket Barrage is not, so with Syndra nothing can be done.
    let dir = std::env::temp_dir().join(format!("rbcheck-cli-syndra-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bound = dir.join("syndra.toml");
    let fields = "boards = [\"enemy-spread\"]\nextras = [[], [\"syndra\"]]\nresources = [\"rich\"]\nreactions = [[]]\nabilities = false\n";
    std::fs::write(
        &bound,
        format!("instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\ncatalogue = [\"Rocket Barrage\"]\n{fields}"),
    )
    .unwrap();
    // Exit 3, NOT EXERCISED: nothing is violated, but a bound this small reaches none of the
    // witnesses.
    let o = rbcheck(&["check", "--bound", bound.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("NOT EXERCISED"), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("(3 scenarios)"), "{out}");
    assert!(
        out.contains("1 scenarios of the bound left out")
            && out.contains("`Rocket Barrage | board enemy-spread | syndra"),
        "{out}"
    );
    let o = rbcheck(&["check", "--bound", bound.to_str().unwrap(), "--json"]);
    let v = json(&o);
    let left_out = &v["scenarios_left_out"];
    assert_eq!(left_out.as_array().map(Vec::len), Some(1), "{left_out}");
    // Left in, the scenario would be a play that never ends.
    let terminates = v["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "terminates")
        .unwrap();
    assert_eq!(terminates["status"], "holds", "{terminates}");

    // A bound in which no scenario can start is bad input.
    let none = dir.join("none.toml");
    std::fs::write(
        &none,
        format!("instances = [0]\ninstance_costs = []\nbodies = []\ncatalogue = [\"Rocket Barrage\"]\n{}", fields.replace("[[], [\"syndra\"]]", "[[\"syndra\"]]")),
    )
    .unwrap();
    let o = rbcheck(&["check", "--bound", none.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("no scenario of the bound can start"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty(), "nothing written half-way");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs rbcheck with a stdout pipe whose reading end is already closed.
fn rbcheck_into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    crate::shared::command()
        .args(args)
        .current_dir(root())
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("rbcheck runs")
}

/// `rbcheck rules --list | head -c1` once panicked with a backtrace. Every command that
/// prints exits quietly (141, as if killed by SIGPIPE) when its reader has gone.
#[test]
fn a_closed_stdout_pipe_ends_every_command_quietly() {
    let tmp = std::env::temp_dir().join(format!("rbcheck-pipe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let cases_out = tmp.join("cases");
    let fuzz_out = tmp.join("fuzz");
    let serve = format!("{} serve", env!("CARGO_BIN_EXE_rbcheck"));
    let runs: Vec<Vec<&str>> = vec![
        vec!["rules", "--list"],
        vec!["check", "--bound", "tiny"],
        vec!["graph", "--bound", "tiny", "--scenario", "1"],
        vec![
            "cases",
            "--bound",
            "tiny",
            "--out",
            cases_out.to_str().unwrap(),
        ],
        vec!["diff", "v1.3", "rup4", "--bound", "tiny"],
        vec!["replay", "corpus/cases"],
        vec![
            "fmt",
            "corpus/cases/bellows-breath-repeated-three-units-each-execution.case",
        ],
        vec![
            "fuzz",
            "--engine",
            &serve,
            "--cases",
            "3",
            "--out",
            fuzz_out.to_str().unwrap(),
        ],
    ];
    for args in runs {
        let o = rbcheck_into_closed_pipe(&args);
        let err = stderr(&o);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert_eq!(o.status.code(), Some(141), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn every_commands_help_has_examples_and_exit_codes() {
    let commands = [
        "check", "merge", "rules", "bounds", "graph", "cases", "diff", "replay", "fmt", "serve",
        "fuzz",
    ];
    for c in commands {
        for flag in ["--help", "-h"] {
            let o = rbcheck(&[c, flag]);
            assert_eq!(o.status.code(), Some(0), "{c} {flag}");
            let out = stdout(&o);
            let examples = out
                .split_once("EXAMPLES:\n")
                .unwrap_or_else(|| panic!("{c} {flag}: no EXAMPLES section\n{out}"))
                .1;
            let (examples, codes) = examples
                .split_once("EXIT CODES:\n")
                .unwrap_or_else(|| panic!("{c} {flag}: no EXIT CODES after EXAMPLES\n{out}"));
            // Each example runs this command (serve's are fuzz lines that start it).
            let this = if c == "serve" { "fuzz" } else { c };
            assert!(
                examples
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .all(|l| l.trim_start().starts_with(&format!("rbcheck {this} "))
                        || l.trim_start() == format!("rbcheck {this}")),
                "{c}: an example of another command\n{examples}"
            );
            assert!(
                codes.contains("  0 ") && codes.contains("  2 "),
                "{c}: {codes}"
            );
        }
    }
    let top = stdout(&rbcheck(&["--help"]));
    assert!(
        top.contains("EXAMPLES:") && top.contains("EXIT CODES:"),
        "{top}"
    );
}

/// The `progress:` lines of a command's stderr.
fn progress_lines(o: &Output) -> Vec<String> {
    stderr(o)
        .lines()
        .filter(|l| l.starts_with("progress: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn check_prints_a_header_and_timed_progress_when_piped_and_with_json() {
    // stderr is a pipe here, never a terminal.
    let o = rbcheck(&[
        "check",
        "--bound",
        "tiny",
        "--json",
        "--progress-every",
        "0.1",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    let header = err.lines().next().unwrap_or_default();
    assert!(
        header.starts_with("rbcheck check: rules rup4 | bound tiny (")
            && header.contains(" scenarios) | ")
            && header.contains(" thread")
            && header.contains("memory budget"),
        "{err}"
    );
    let lines = progress_lines(&o);
    assert!(!lines.is_empty(), "{err}");
    assert!(
        lines.iter().all(|l| l.contains(" scenarios done, ")
            && l.contains(" states/s, ")
            && l.contains(" budget, ")),
        "{err}"
    );
    // Stdout is the report alone.
    assert!(json(&o).is_object());
    let quiet = rbcheck(&["check", "--bound", "tiny", "--json", "--quiet"]);
    assert_eq!(stderr(&quiet), "");
    // Nothing either for a report written to a file: the file is what was asked for.
    let page = std::env::temp_dir().join(format!("rbcheck-cli-quiet-{}.html", std::process::id()));
    let _ = std::fs::remove_file(&page);
    let quiet = rbcheck(&[
        "check",
        "--bound",
        "tiny",
        "--quiet",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(stderr(&quiet), "");
    assert!(page.is_file());
    let _ = std::fs::remove_file(&page);
}

#[test]
fn cases_and_diff_print_a_header_and_timed_progress() {
    let dir = std::env::temp_dir().join(format!("rbcheck-cli-progress-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let o = rbcheck(&[
        "cases",
        "--bound",
        "tiny",
        "--out",
        out,
        "--progress-every",
        "0.1",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("rbcheck cases: rules rup4 | bound tiny (162 scenarios) | "),
        "{err}"
    );
    // The scenarios explored, then the cases made and written, each phase counted apart.
    let lines = progress_lines(&o);
    let phase = |l: &str| {
        [
            " of 162 scenarios done, ",
            " of 3070 cases made, ",
            " of 3071 cases written, ",
        ]
        .iter()
        .position(|p| l.contains(p))
        .unwrap_or_else(|| panic!("{l}"))
    };
    let phases: Vec<usize> = lines.iter().map(|l| phase(l)).collect();
    assert!(phases.windows(2).all(|w| w[0] <= w[1]), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let o = rbcheck(&["cases", "--bound", "tiny", "--out", out, "--quiet"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o), "");
    let _ = std::fs::remove_dir_all(&dir);

    let args = ["diff", "v1.3", "rup4", "--bound", "tiny", "--json"];
    let o = rbcheck(&[&args[..], &["--progress-every", "0.1"]].concat());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("rbcheck diff: rules v1.3 and rup4 | bound tiny ("),
        "{err}"
    );
    let lines = progress_lines(&o);
    assert!(!lines.is_empty(), "{err}");
    assert!(
        lines
            .iter()
            .all(|l| l.contains(" scenarios done, ") && l.contains(" scenarios/s, memory ")),
        "{err}"
    );
    assert!(json(&o).is_object());
    let o = rbcheck(&["diff", "v1.3", "rup4", "--bound", "tiny", "--quiet"]);
    assert_eq!(stderr(&o), "");
}

#[test]
fn fuzz_prints_a_header_and_timed_progress() {
    let dir =
        std::env::temp_dir().join(format!("rbcheck-cli-fuzz-progress-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let engine = format!(
        "python3 {}",
        root().join("tests/engines/reference_engine.py").display()
    );
    let out = dir.to_str().unwrap();
    let args = ["fuzz", "--engine", &engine, "--cases", "40", "--out", out];
    let o = rbcheck(&[&args[..], &["--progress-every", "0.1"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.starts_with("rbcheck fuzz: engine `"), "{err}");
    let lines = progress_lines(&o);
    assert!(!lines.is_empty(), "{err}");
    assert!(
        lines
            .iter()
            .all(|l| l.contains(" of 40 cases, ") && l.contains(" cases/s, memory ")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let o = rbcheck(&[&args[..], &["--quiet"]].concat());
    assert_eq!(stderr(&o), "");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `rbcheck completions SHELL` prints a script for that shell from the same definitions as
/// `--help` (every command is in it); an unknown shell is a usage error.
#[test]
fn completions_and_man_pages_come_from_the_command_definitions() {
    let o = rbcheck(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let script = stdout(&o);
    assert!(script.contains("complete -F"), "{script}");
    for cmd in ["check", "diff", "fuzz", "replay", "bounds", "man"] {
        assert!(script.contains(cmd), "bash completion lacks {cmd}");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = rbcheck(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        assert!(stdout(&o).contains("fuzz"), "{shell}");
    }
    assert_eq!(rbcheck(&["completions", "tcsh"]).status.code(), Some(2));

    let o = rbcheck(&["man"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH rbcheck"),
        "{page}"
    );
    assert!(page.contains(".TH rbcheck 1"), "{page}");
    let o = rbcheck(&["man", "fuzz"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH rbcheck-fuzz 1"), "{page}");
    assert!(
        page.contains("EXIT CODES"),
        "the command's own help: {page}"
    );
    let o = rbcheck(&["man", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no command `nosuch`: expected one of bounds, cases, check"),
        "{}",
        stderr(&o)
    );
}

/// A misspelt card, label, statement or rulebook field is named with the closest known one, and
/// a case file's error shows its line with a caret under the word.
#[test]
fn errors_show_the_line_with_a_caret_and_suggest_the_closest_name() {
    let dir = std::env::temp_dir().join(format!("rbcheck-cli-suggest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let case = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let card = case(
        "card.case",
        "rbcheck-case 1\nrules rup4\n\npool you [8]\nhand you \"Desert's Cal\"\n\nyou play \"Desert's Call\"\npay\n\nexpect legal\n",
    );
    let o = rbcheck(&["replay", &card]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("unknown card \"Desert's Cal\" (not in model/cards.toml or a `define`) (did you mean `Desert's Call`?)"),
        "{out}"
    );
    assert!(
        out.contains("5 | hand you \"Desert's Cal\""),
        "the line: {out}"
    );
    let caret = out.lines().find(|l| l.contains('^')).unwrap_or_default();
    assert!(
        caret.trim_start_matches([' ', '|']).starts_with('^'),
        "{out}"
    );

    let stmt = case(
        "stmt.case",
        "rbcheck-case 1\nrules rup4\n\npool you [8]\nhnd you \"Desert's Call\"\n",
    );
    let out = stdout(&rbcheck(&["replay", &stmt]));
    assert!(
        out.contains(":5:1: unknown statement `hnd` (did you mean `hand`?); expected"),
        "{out}"
    );
    // The caret is under the statement's first column.
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("5 | hnd you"))
        .expect("the line");
    let bar = lines[at].find("hnd").unwrap();
    assert_eq!(lines[at + 1].find('^'), Some(bar), "{out}");

    // Indented by a tab: drawn as four spaces, the caret still under the word, not the blank.
    let tabbed = case(
        "tab.case",
        "rbcheck-case 1\nrules rup4\n\npool you [8]\n\thnd you \"Desert's Call\"\n",
    );
    let out = stdout(&rbcheck(&["replay", &tabbed]));
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("5 |     hnd you"))
        .expect("the line");
    let bar = lines[at].find("hnd").unwrap();
    assert_eq!(lines[at + 1].find('^'), Some(bar), "{out}");

    let book = dir.join("typo.toml");
    std::fs::write(&book, "base = \"rup4\"\npayment_per_instance = 2\n").unwrap();
    let o = rbcheck(&[
        "check",
        "--rules",
        book.to_str().unwrap(),
        "--bound",
        "tiny",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "unknown field `payment_per_instance` (did you mean `payments_per_instance`?)"
        ),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Colour reaches stdout only when asked for or on a terminal: `--color always` paints a pass
/// green and a failure red; piped (as here) or `--color never`, the output is plain.
#[test]
fn colour_only_when_asked_for_or_on_a_terminal() {
    let case = "corpus/cases/academy-and-portal-grant-two-instances.case";
    let o = rbcheck(&["replay", case, "--color", "always"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("\x1b[32mpass\x1b[0m  "),
        "{:?}",
        stdout(&o)
    );
    for args in [
        vec!["replay", case],
        vec!["replay", case, "--color", "never"],
    ] {
        let o = rbcheck(&args);
        assert!(!stdout(&o).contains('\x1b'), "{args:?}: {:?}", stdout(&o));
        assert!(stdout(&o).starts_with("pass  "), "{args:?}");
    }
    let o = rbcheck(&[
        "check",
        "--rules",
        "corpus/rulebooks/double-executions.toml",
        "--bound",
        "tiny",
        "--color",
        "always",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("\x1b[1m\x1b[31mCOUNTEREXAMPLE"),
        "{:?}",
        stdout(&o)
    );
}
