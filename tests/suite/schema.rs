//! Every JSON report rbcheck prints (`check`, `merge`, `diff`, `fuzz`, `replay`, `rules`,
//! `cases` and `bounds` with `--json`) validates against schema/report.schema.json, which
//! documents every key. The schema leaves objects open, so that a reader of an older schema
//! accepts a key added later; this validator is strict, so that every key printed is listed
//! (an object with `properties` and no `additionalProperties` takes only those keys).
//!
//! The validator here implements the part of JSON Schema 2020-12 the schema uses (`type`,
//! `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, `minimum`,
//! `oneOf`, local `$ref`) and refuses any other keyword, so that the schema cannot silently
//! say more than is checked. A crate (`jsonschema`) would pull in a regex engine and an HTTP
//! client for remote references; this subset is 100 lines.

use crate::shared::{rbcheck, root};
use serde_json::{json, Map, Value};
use std::collections::HashSet;
use std::path::PathBuf;

fn schema() -> Value {
    let text = std::fs::read_to_string(root().join("schema/report.schema.json")).unwrap();
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// The keywords that only annotate.
const ANNOTATIONS: [&str; 6] = [
    "$schema",
    "$id",
    "title",
    "description",
    "$comment",
    "$defs",
];

/// The errors of `v` against `s` (empty: valid), each with the JSON path.
fn validate(root: &Value, s: &Value, v: &Value, path: &str) -> Vec<String> {
    let Some(s) = s.as_object() else {
        return vec![format!("{path}: schema is not an object")];
    };
    let mut errors = vec![];
    for (k, rule) in s {
        let mut fail = |why: String| errors.push(format!("{path}: {why}"));
        match k.as_str() {
            k if ANNOTATIONS.contains(&k) => {}
            "$ref" => {
                let name = rule.as_str().and_then(|r| r.strip_prefix("#/$defs/"));
                match name.and_then(|n| root["$defs"].get(n)) {
                    Some(target) => errors.extend(validate(root, target, v, path)),
                    None => fail(format!("unresolvable $ref {rule}")),
                }
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => vec![],
                };
                if !types.iter().any(|t| has_type(v, t)) {
                    fail(format!("expected type {rule}, got {v}"));
                }
            }
            "const" if v != rule => fail(format!("expected {rule}, got {v}")),
            "const" => {}
            "enum" if !rule.as_array().is_some_and(|a| a.contains(v)) => {
                fail(format!("{v} is not one of {rule}"))
            }
            "enum" => {}
            "minimum" => {
                if v.as_f64().zip(rule.as_f64()).is_some_and(|(x, m)| x < m) {
                    fail(format!("{v} is below {rule}"));
                }
            }
            "maximum" => {
                if v.as_f64().zip(rule.as_f64()).is_some_and(|(x, m)| x > m) {
                    fail(format!("{v} is above {rule}"));
                }
            }
            "required" => {
                for key in rule.as_array().into_iter().flatten() {
                    let key = key.as_str().unwrap_or_default();
                    if v.as_object().is_some_and(|o| !o.contains_key(key)) {
                        fail(format!("missing required key `{key}`"));
                    }
                }
            }
            "properties" | "additionalProperties" => {
                let Some(o) = v.as_object() else { continue };
                let props = s.get("properties").and_then(Value::as_object);
                for (key, x) in o {
                    let p = format!("{path}.{key}");
                    let open = s.contains_key("additionalProperties");
                    match (props.and_then(|ps| ps.get(key)), k.as_str()) {
                        (Some(sub), "properties") => {
                            record(sub, key);
                            errors.extend(validate(root, sub, x, &p))
                        }
                        // Strict: the schema leaves objects open for readers, but every key
                        // rbcheck prints must be documented.
                        (None, "properties") if !open => {
                            errors.push(format!("{p}: key not in the schema"))
                        }
                        (None, "additionalProperties") if rule == &json!(false) => {
                            errors.push(format!("{p}: key not in the schema"))
                        }
                        (None, "additionalProperties") => {
                            errors.extend(validate(root, rule, x, &p))
                        }
                        _ => {}
                    }
                }
            }
            "items" => {
                for (i, x) in v.as_array().into_iter().flatten().enumerate() {
                    errors.extend(validate(root, rule, x, &format!("{path}[{i}]")));
                }
            }
            "oneOf" => {
                // Only the branch that matches records the keys it saw.
                let was = RECORDING.with(|r| r.replace(false));
                let ok: Vec<&Value> = rule
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|sub| validate(root, sub, v, path).is_empty())
                    .collect();
                RECORDING.with(|r| r.set(was));
                if ok.len() != 1 {
                    fail(format!(
                        "matches {} of the oneOf schemas, not exactly 1",
                        ok.len()
                    ));
                } else if was {
                    validate(root, ok[0], v, path);
                }
            }
            other => fail(format!(
                "keyword `{other}` is not supported by this validator"
            )),
        }
    }
    errors
}

thread_local! {
    /// Whether `validate` records the documented keys it meets (see `every_documented_key_is_printed`).
    static RECORDING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The (property schema, key) pairs met, the schema by address.
    static SEEN: std::cell::RefCell<HashSet<(usize, String)>> = std::cell::RefCell::new(HashSet::new());
}

/// Records that a value had the documented key `key`, whose schema is `sub`.
fn record(sub: &Value, key: &str) {
    if RECORDING.with(|r| r.get()) {
        SEEN.with(|s| {
            s.borrow_mut()
                .insert((sub as *const Value as usize, key.to_string()))
        });
    }
}

/// Every documented key of `s` (a schema) and of the schemas inside it: (its schema's address,
/// the key, a path for messages).
fn documented(s: &Value, path: &str, out: &mut Vec<(usize, String, String)>) {
    let Some(o) = s.as_object() else { return };
    for (k, sub) in o {
        match k.as_str() {
            "properties" => {
                for (key, x) in sub.as_object().into_iter().flatten() {
                    out.push((
                        x as *const Value as usize,
                        key.clone(),
                        format!("{path}.{key}"),
                    ));
                    documented(x, &format!("{path}.{key}"), out);
                }
            }
            "$defs" => {
                for (name, x) in sub.as_object().into_iter().flatten() {
                    documented(x, &format!("#/$defs/{name}"), out);
                }
            }
            "items" | "additionalProperties" => documented(sub, &format!("{path}[]"), out),
            "oneOf" => {
                for x in sub.as_array().into_iter().flatten() {
                    documented(x, path, out);
                }
            }
            _ => {}
        }
    }
}

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64(),
        _ => false,
    }
}

/// Asserts that `v` is a valid report of format `format`.
fn assert_valid(v: &Value, format: &str, what: &str) {
    let s = schema();
    let errors = validate(&s, &s, v, "$");
    assert!(errors.is_empty(), "{what}: {}", errors.join("\n"));
    assert_eq!(v["format"], format, "{what}");
}

/// The report on stdout and, one per line, the JSON objects on stderr (`--progress-json`).
fn report_and_progress(args: &[&str], code: i32) -> (Value, Vec<Value>) {
    let o = rbcheck(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    let v = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let lines = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: `{l}`: {e}")))
        .collect();
    (v, lines)
}

fn report(args: &[&str], code: i32) -> Value {
    let o = rbcheck(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rbcheck-schema-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Step 0 names the scenario with a null rule; every later step names its rule.
fn assert_steps_have_rules(v: &Value) {
    for p in v["properties"].as_array().unwrap() {
        for trace in [&p["counterexample"], &p["witness"]] {
            for (i, st) in trace["steps"].as_array().into_iter().flatten().enumerate() {
                match i {
                    0 => assert!(st["rule"].is_null() && st["scenario"].is_string(), "{st}"),
                    _ => assert!(st["rule"].as_str().is_some_and(|r| !r.is_empty()), "{st}"),
                }
            }
        }
    }
}

#[test]
fn check_and_merge_reports_validate() {
    let holds = report(&["check", "--bound", "tiny", "--json", "--quiet"], 0);
    assert_valid(&holds, "rbcheck-check/1", "check tiny");
    assert_eq!(holds["stop"]["reason"], "exhausted");
    assert_steps_have_rules(&holds);
    let wrong = "corpus/rulebooks/double-executions.toml";
    let args = [
        "check",
        "--rules",
        wrong,
        "--bound",
        "tiny",
        "--json",
        "--coverage",
    ];
    let failing = report(&args, 1);
    assert_valid(&failing, "rbcheck-check/1", "check wrong rulebook");
    assert!(failing["coverage"].is_array());
    let props = failing["properties"].as_array().unwrap();
    assert!(props.iter().any(|p| p["counterexample"].is_object()));
    assert_steps_have_rules(&failing);
    let partial = report(
        &["check", "--bound", "tiny", "--json", "--max-states", "500"],
        0,
    );
    assert_valid(&partial, "rbcheck-check/1", "check partial");
    assert_eq!(partial["stop"]["reason"], "max_states");
    assert!(partial["stop"]["message"]
        .as_str()
        .unwrap()
        .contains("state limit"));

    let parts = scratch("parts");
    std::fs::create_dir_all(&parts).unwrap();
    for k in ["1/2", "2/2"] {
        let p = parts.to_str().unwrap();
        let o = rbcheck(&["check", "--bound", "tiny", "--shard", k, "--parts", p]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{k}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let files: Vec<String> = std::fs::read_dir(&parts)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = report(&args, 0);
    assert_valid(&merged, "rbcheck-check/1", "merge");
    let _ = std::fs::remove_dir_all(&parts);
}

/// `rules --json`, `bounds --json` and `cases --json` print what their text forms print.
#[test]
fn listing_reports_validate() {
    let rules = report(&["rules", "--json"], 0);
    assert_valid(&rules, "rbcheck-rules/1", "rules");
    let listed = String::from_utf8(rbcheck(&["rules", "--list"]).stdout).unwrap();
    let fields = rules["fields"].as_array().unwrap();
    assert!(fields.len() > 10, "{}", fields.len());
    for f in fields {
        let name = f["name"].as_str().unwrap();
        let line = format!("{name}  [{}]", f["rule"].as_str().unwrap());
        assert!(listed.contains(&line), "`rules --list` lacks {line}");
        assert!(
            f["presets"]["rup4"].is_boolean()
                || f["presets"]["rup4"].is_number()
                || f["presets"]["rup4"].is_string(),
            "{f}"
        );
    }
    let bounds = report(&["bounds", "--json"], 0);
    assert_valid(&bounds, "rbcheck-bounds/1", "bounds");
    assert!(bounds["presets"].as_array().unwrap().len() >= 8);
    let out = scratch("cases");
    let out_arg = out.to_str().unwrap().to_string();
    let cases = report(
        &[
            "cases", "--bound", "tiny", "--out", &out_arg, "--json", "--quiet",
        ],
        0,
    );
    assert_valid(&cases, "rbcheck-cases/1", "cases tiny");
    let listed = cases["cases"].as_array().unwrap();
    assert_eq!(listed.len() as u64, cases["written"].as_u64().unwrap());
    for c in listed {
        let file = c["file"].as_str().unwrap();
        assert!(out.join(file).is_file(), "{file} listed, not written");
        let class = c["class"].as_str().unwrap();
        assert!(file.ends_with(&format!("--{class}.case")), "{c}");
        // The class's words say what the case's expectations (the model's) say.
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        let words: Vec<&str> = class.split('-').collect();
        assert_eq!(
            text.contains("expect countered item 1\n"),
            words.contains(&"countered"),
            "{file}"
        );
        assert_eq!(
            text.contains("expect repeat-paid item 1 none"),
            !class.starts_with("repeat-"),
            "{file}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The schema is open (a reader of it accepts a key added later); strictness lives in this
/// validator, which must still refuse a key the schema does not list.
#[test]
fn the_schema_leaves_objects_open_and_the_tests_strict() {
    let text = std::fs::read_to_string(root().join("schema/report.schema.json")).unwrap();
    assert!(!text.contains("\"additionalProperties\": false"));
    let s = schema();
    let mut v = report(&["rules", "--json"], 0);
    assert!(validate(&s, &s["$defs"]["rules"], &v, "$").is_empty());
    v["fields"][0]["added_later"] = json!(1);
    let errors = validate(&s, &s["$defs"]["rules"], &v, "$");
    assert!(
        errors.iter().any(|e| e.contains("fields[0].added_later")),
        "{errors:?}"
    );
}

#[test]
fn diff_reports_validate() {
    let same = report(&["diff", "rup4", "rup4", "--json", "--quiet"], 0);
    assert_valid(&same, "rbcheck-diff/1", "diff rup4 rup4");
    let out = scratch("diff");
    let args = [
        "diff",
        "v1.3",
        "rup4",
        "--bound",
        "tiny",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ];
    let differs = report(&args, 1);
    assert_valid(&differs, "rbcheck-diff/1", "diff v1.3 rup4");
    assert!(differs["classes"][0]["cases"][0].is_string());
    let _ = std::fs::remove_dir_all(&out);
}

/// `replay --json`: one entry per file with its verdict, a failing line and message where
/// there is one, the counts, and the exit code of the text report.
#[test]
fn replay_reports_validate() {
    let all = report(&["replay", "--json", "corpus/cases"], 0);
    assert_valid(&all, "rbcheck-replay/1", "replay corpus/cases");
    let files = all["files"].as_array().unwrap();
    assert!(files.len() >= 100, "{}", files.len());
    assert_eq!(all["passed"].as_u64(), Some(files.len() as u64));
    // A case whose expectation the model contradicts fails at that line; one that cannot be
    // parsed is invalid.
    let d = scratch("replay");
    std::fs::create_dir_all(&d).unwrap();
    let good = std::fs::read_to_string(
        root().join("corpus/cases/academy-grant-is-an-instance-of-its-own.case"),
    )
    .unwrap();
    let mut lines: Vec<String> = good.lines().map(String::from).collect();
    let last = lines
        .iter()
        .rposition(|l| l.starts_with("expect "))
        .unwrap();
    lines.insert(last + 1, "expect executions item 1 9".into());
    std::fs::write(d.join("a-fails.case"), lines.join("\n") + "\n").unwrap();
    let r = report(&["replay", "--json", d.to_str().unwrap()], 1);
    assert_valid(&r, "rbcheck-replay/1", "a failing case");
    assert_eq!(r["files"][0]["verdict"], "fail");
    assert_eq!(r["files"][0]["line"].as_u64(), Some(last as u64 + 2));
    assert!(r["files"][0]["message"].is_string());
    std::fs::write(d.join("b-invalid.case"), "no such statement\n").unwrap();
    let r = report(&["replay", "--json", d.to_str().unwrap()], 2);
    assert_valid(&r, "rbcheck-replay/1", "an invalid case");
    assert_eq!(r["files"][1]["verdict"], "invalid");
    assert_eq!(
        (r["failed"].as_u64(), r["invalid"].as_u64()),
        (Some(1), Some(1))
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn fuzz_reports_validate() {
    let engine = |args: &str| {
        format!(
            "python3 {} {args}",
            root().join("tests/engines/reference_engine.py").display()
        )
    };
    let out = scratch("fuzz-clean");
    let clean = engine("");
    let args = ["fuzz", "--engine", &clean, "--cases", "20", "--json"];
    let mut args = args.to_vec();
    let out_arg = out.to_str().unwrap().to_string();
    args.extend(["--out", &out_arg]);
    let v = report(&args, 0);
    assert_valid(&v, "rbcheck-fuzz/1", "fuzz clean");
    assert_eq!(v["findings"], json!([]));
    let _ = std::fs::remove_dir_all(&out);

    let out = scratch("fuzz-mutant");
    let out_arg = out.to_str().unwrap().to_string();
    let mutant = engine("--mutant one-target-list");
    let args = [
        "fuzz", "--engine", &mutant, "--cases", "60", "--json", "--out", &out_arg,
    ];
    let v = report(&args, 1);
    assert_valid(&v, "rbcheck-fuzz/1", "fuzz mutant");
    assert!(v["findings"][0]["case"].is_string(), "{v}");
    let _ = std::fs::remove_dir_all(&out);

    let v = report(&["fuzz", "--engine", "/nonexistent/engine", "--json"], 2);
    assert_valid(&v, "rbcheck-fuzz/1", "fuzz no engine");
    assert!(v["engine"].is_null() && v["aborted"].is_string());
}

#[test]
fn the_validator_refuses_what_the_schema_forbids() {
    let s = schema();
    let good = json!({
        "format": "rbcheck-diff/1", "a": "v1.3", "b": "rup4", "bound": "tiny",
        "classes": [], "fields": [], "scenarios": 3, "auto": null,
        "exercised": {"against": "rup4", "fields": []}, "verdict": "same"
    });
    assert!(validate(&s, &s, &good, "$").is_empty());
    let mut bad: Vec<Value> = vec![];
    let with = |f: &dyn Fn(&mut Map<String, Value>)| {
        let mut v = good.clone();
        f(v.as_object_mut().unwrap());
        v
    };
    bad.push(with(&|o| {
        o.insert("undocumented".into(), json!(1));
    }));
    bad.push(with(&|o| {
        o.remove("bound");
    }));
    bad.push(with(&|o| {
        o.insert("scenarios".into(), json!(-1));
    }));
    bad.push(with(&|o| {
        o.insert("scenarios".into(), json!("3"));
    }));
    bad.push(with(&|o| {
        o.insert("format".into(), json!("rbcheck-diff/2"));
    }));
    bad.push(with(&|o| {
        o.insert("classes".into(), json!([{"what": "x"}]));
    }));
    bad.push(with(&|o| {
        o.insert("verdict".into(), json!("holds"));
    }));
    for b in &bad {
        assert!(!validate(&s, &s, b, "$").is_empty(), "accepted {b}");
    }
    // An unknown keyword in a schema is an error, not a pass.
    let odd = json!({"pattern": "^a"});
    assert!(!validate(&odd, &odd, &json!("a"), "$").is_empty());
}

/// The other direction of strictness: every key the schema documents is printed by some report,
/// so the schema cannot describe a key rbcheck no longer prints. One run of each kind, chosen
/// to show the optional keys (a wrong rulebook for counterexamples, witnesses and unreachable
/// ones; v1.2 for properties that do not apply; an edit's `auto` bound; an engine's gaps; the
/// `multi` bound for a turn and `also`).
#[test]
fn every_documented_key_is_printed() {
    let s = schema();
    let out = scratch("coverage");
    let cases = out.join("cases");
    let findings = out.join("findings");
    let engine = format!(
        "python3 {} --mutant one-target-list",
        root().join("tests/engines/reference_engine.py").display()
    );
    // A rulebook file: `diff` takes `--bound auto`, whose choice the report describes.
    std::fs::create_dir_all(&out).unwrap();
    let edit = out.join("edit.toml");
    std::fs::write(&edit, "base = \"rup4\"\nrunes_only_for_the_cost = false\n").unwrap();
    // An engine that declines what a count cannot say: conformance gaps.
    let gaps = out.join("gaps");
    let declines = format!(
        "python3 {} --fail count-declines",
        root().join("tests/engines/fake_engine.py").display()
    );
    let runs: Vec<(Vec<&str>, i32)> = vec![
        (
            vec![
                "check",
                "--bound",
                "tiny",
                "--rules",
                "corpus/rulebooks/double-executions.toml",
                "--json",
                "--quiet",
                "--coverage",
                "--counterexamples",
                "2",
            ],
            1,
        ),
        (
            vec![
                "diff", "v1.3", "rup4", "--bound", "tiny", "--json", "--quiet",
            ],
            1,
        ),
        (vec!["replay", "--json", "corpus/cases"], 0),
        (
            vec![
                "check", "--bound", "tiny", "--rules", "v1.2", "--json", "--quiet",
            ],
            0,
        ),
        (
            vec!["diff", "rup4", edit.to_str().unwrap(), "--json", "--quiet"],
            1,
        ),
        (
            vec![
                "fuzz",
                "--engine",
                &declines,
                "--cases",
                "120",
                "--json",
                "--out",
                gaps.to_str().unwrap(),
            ],
            0,
        ),
        (vec!["rules", "--json"], 0),
        (vec!["bounds", "--json"], 0),
        (
            vec![
                "cases",
                "--bound",
                "tiny",
                "--out",
                cases.to_str().unwrap(),
                "--json",
                "--quiet",
            ],
            0,
        ),
        (
            vec![
                "fuzz",
                "--engine",
                &engine,
                "--cases",
                "60",
                "--json",
                "--out",
                findings.to_str().unwrap(),
            ],
            1,
        ),
    ];
    RECORDING.with(|r| r.set(true));
    let mut progress = 0;
    for (args, code) in &runs {
        // Each run reports its progress as JSON lines too, often enough to see some.
        let mut args = args.clone();
        if args[0] != "rules" && args[0] != "bounds" && args[0] != "replay" {
            args.extend(["--progress-json", "--progress-every", "0.1"]);
            args.retain(|a| *a != "--quiet");
        }
        let (v, lines) = report_and_progress(&args, *code);
        for x in std::iter::once(&v).chain(&lines) {
            let errors = validate(&s, &s, x, "$");
            assert!(errors.is_empty(), "{args:?}: {x}: {}", errors.join("\n"));
        }
        progress += lines.len();
    }
    assert!(progress > 0);
    RECORDING.with(|r| r.set(false));
    let mut keys = vec![];
    documented(&s, "$", &mut keys);
    let seen = SEEN.with(|x| x.borrow().clone());
    let never: Vec<&String> = keys
        .iter()
        .filter(|(at, key, _)| !seen.contains(&(*at, key.clone())))
        .map(|(_, _, path)| path)
        .collect();
    assert!(keys.len() > 150, "{} keys", keys.len());
    assert!(never.is_empty(), "documented, never printed: {never:?}");
    let _ = std::fs::remove_dir_all(&out);
}
