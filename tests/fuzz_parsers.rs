//! Fuzz targets for every parser of outside input: case files (parsed, printed and replayed),
//! rulebooks, bounds (parsed, and built when small), an engine's hello and replies (parsed and
//! compared with the model's answers), `rbcheck serve` requests and part files (parsed, and
//! merged). Each target starts from seeds (the corpus, the presets, real part files and the
//! inputs of past bugs), mutates one seed (cut, insert, delete, overwrite, or splice with another
//! seed) and checks that the parser answers with a value or a proper error, never a panic: an
//! error names a line inside the input (or the field, for JSON) and says something. A case file
//! that parses prints to a text that parses to the same case and prints the same again.
//!
//! Under `cargo test` (and so `.ci/run`) each target runs its seeds and then random mutations
//! (bolero's random engine; `BOLERO_RANDOM_SEED` in a failure message replays it) for at most
//! `ITERATIONS` or `BUDGET`, whichever ends first, so that the file stays under a minute of CI
//! time on two cores. With cargo-bolero, libFuzzer drives the same targets with coverage
//! guidance and no limit, for example
//! `cargo bolero test --test fuzz_parsers case_files_parse_and_print_stably`.

use rbcheck::case::{parse, print};
use rbcheck::engine::compare::compare;
use rbcheck::engine::protocol::{
    parse_hello, parse_reply, reply_line, request, ClientHello, Reply,
};
use rbcheck::engine::serve::serve;
use rbcheck::engine::{Engine, ModelEngine};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Random mutations per target under `cargo test`, at most.
const ITERATIONS: usize = 20_000;

/// Time per target under `cargo test`, at most (seven targets: well under a minute).
const BUDGET: Duration = Duration::from_secs(6);

/// The lines of a text, as an error may name them (the line after the last too, for an error
/// at the end of the input).
fn lines(text: &str) -> usize {
    text.lines().count() + 1
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` (recursively) whose name ends in `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().path()) {
            if e.is_dir() {
                todo.push(e);
            } else if e.to_string_lossy().ends_with(ext) {
                out.push(e);
            }
        }
    }
    out.sort();
    out
}

fn read_all(paths: &[PathBuf]) -> Vec<Vec<u8>> {
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// One mutation of one seed, chosen by the fuzzer's input.
type Mutation = (u16, u16, u16, u8, Vec<u8>);

/// The seed `which` mutated: `op` picks cut, insert, delete, overwrite or splice at `at`.
fn mutate(seeds: &[Vec<u8>], (which, at, len, op, bytes): &Mutation) -> Vec<u8> {
    let mut b = seeds[*which as usize % seeds.len()].clone();
    let at = *at as usize % (b.len() + 1);
    let len = *len as usize % 64;
    match op % 6 {
        0 => b.truncate(at),
        1 => {
            b.splice(at..at, bytes.iter().copied());
        }
        2 => {
            b.drain(at..(at + len).min(b.len()));
        }
        3 => {
            let end = (at + bytes.len()).min(b.len());
            b.splice(at..end, bytes.iter().copied());
        }
        4 => {
            // A piece of another seed: statements out of their place.
            let other = &seeds[len % seeds.len()];
            let from = bytes.first().map_or(0, |x| *x as usize * 7) % (other.len() + 1);
            let to = (from + 40 + len).min(other.len());
            b.splice(at..at, other[from..to].iter().copied());
        }
        _ => {
            // A digit run grown: numbers past every range.
            b.splice(at..at, std::iter::repeat_n(b'9', 1 + len));
        }
    }
    b
}

/// Runs `check` on every seed, then on mutations of them (`ITERATIONS` or `BUDGET`, whichever
/// ends first); `check` also gets the index of the seed the input comes from.
fn fuzz(seeds: &[Vec<u8>], check: impl Fn(&[u8], usize) + std::panic::RefUnwindSafe) {
    assert!(!seeds.is_empty());
    for (i, s) in seeds.iter().enumerate() {
        check(s, i);
    }
    bolero::check!()
        .with_iterations(ITERATIONS)
        .with_test_time(BUDGET)
        .with_max_len(4096)
        .with_type::<Mutation>()
        .for_each(|m| check(&mutate(seeds, m), m.0 as usize % seeds.len()));
}

/// Case files from past bugs.
const CASE_REGRESSIONS: &[&str] = &[
    "\u{feff}rbcheck-case 1\nrules rup4\n",
    "rbcheck-case 1\nrules rup4\npool you [256]\n",
    "rbcheck-case 1\nrules rup4\npool you [6][B][B][B][B][B][B][B][B][B][B][B][B]\n",
    "rbcheck-case 1\nrules rup4\nother-cards opponent 255\n",
    "rbcheck-case 1\nrules rup4\nhand you \"Hidden Blade\"\nyou play \"Hidden Blade\"\nexec 1 target 1 token-18446744073709551615\n",
    "rbcheck-case 1\nrules rup4\nexpect executions item 9 0\nexpect illegal line 99999999999999999999\n",
    "rbcheck-case 1\nrules /dev/null\n",
    "rbcheck-case 1\ndefine { name = \"X\", type = \"unit\", might = 99999999999 }\n",
    "rbcheck-case 1\n# only a comment \r\n\r\n",
];

#[test]
fn case_files_parse_and_print_stably() {
    let mut seeds = read_all(&files(&root().join("corpus"), ".case"));
    assert!(seeds.len() >= 90, "the corpus is found");
    seeds.extend(CASE_REGRESSIONS.iter().map(|s| s.as_bytes().to_vec()));
    fuzz(&seeds, |bytes, _| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        match parse(text) {
            Ok(case) => {
                let printed = print(&case);
                let again = parse(&printed).unwrap_or_else(|e| {
                    panic!("a parsed case prints to one that does not parse: {e}\n{printed}")
                });
                assert_eq!(print(&again), printed, "printing is stable");
                assert_eq!(again.plays.len(), case.plays.len());
                assert_eq!(again.expects.len(), case.expects.len());
                // Replayed: a verdict, or an error at a line of the file that says what.
                match rbcheck::case::replay(&case, None) {
                    Ok(r) => {
                        let _ = rbcheck::case::verdict(&case, &r);
                    }
                    Err(e) => assert!(
                        (1..=lines(text)).contains(&e.line) && !e.message.is_empty(),
                        "a replay error outside the file ({} lines): {e}\n{text}",
                        lines(text)
                    ),
                }
            }
            Err(e) => assert!(
                e.line >= 1 && e.line <= lines(text) && e.col >= 1 && !e.message.is_empty(),
                "{e}"
            ),
        }
    });
}

#[test]
fn rulebooks_parse_or_name_a_line() {
    let mut seeds = read_all(&files(&root().join("corpus/rulebooks"), ".toml"));
    for v in model::rulebook::Version::ALL {
        let mut t = toml::Table::try_from(model::rulebook::Rulebook::preset(v)).unwrap();
        t.remove("name");
        t.insert("base".into(), toml::Value::String(v.name().into()));
        seeds.push(toml::to_string(&t).unwrap().into_bytes());
    }
    for s in [
        "base = \"rup4\"\n\npayments_per_instance = \"many\"\n",
        "base = \"rup4\"\nx = 1\n\n\n\n\nexecutions_per_instance = -1\n\nnope = 2\n",
        "base = \"v9\"\n",
        "executions_per_instance = 255\n",
    ] {
        seeds.push(s.as_bytes().to_vec());
    }
    fuzz(&seeds, |bytes, _| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        if let Err(e) = model::rulebook::Rulebook::from_toml(text, "fuzz") {
            assert!(
                (1..=lines(text)).contains(&e.line) && !e.message.is_empty(),
                "{e:?}"
            );
        }
    });
}

#[test]
fn bounds_parse_or_name_a_line() {
    let mut seeds: Vec<Vec<u8>> = properties::bound::Bound::PRESETS
        .iter()
        .map(|p| {
            let b = properties::bound::Bound::preset(p).unwrap();
            toml::to_string(&b).unwrap().into_bytes()
        })
        .collect();
    for s in [
        "instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\ncatalogue = [\"Rocket Barrage\"]\nboards = [\"enemy-spread\"]\nextras = [[], [\"syndra\"]]\nresources = [\"rich\"]\nreactions = [[]]\nabilities = false\n",
        "instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"deal\"]\nboards = [\"nowhere\"]\n",
        "instances = [4]\n",
        "instance_costs = [\"[256]\"]\n",
        // A deck's top and a turn: the bugs of a bound that parsed but failed to build with
        // no line, and a [turn] error named at the table's header.
        "instances = [1]\ninstance_costs = [\"[1]\"]\nbodies = [\"draw\"]\nboards = [\"enemy-spread\"]\nextras = [[]]\nresources = [\"rich\"]\nreactions = [[]]\ndeck_top = [\"Pouty Poro\", \"Defy\"]\n\n[turn]\nplays = 2\nyours = { from = [\"Pouty Poro\"], up_to = 1 }\n\n[turn.opponent]\nfrom = [\"Defy\"]\nup_to = 1\n",
    ] {
        seeds.push(s.as_bytes().to_vec());
    }
    fuzz(&seeds, |bytes, _| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        match properties::bound::Bound::from_toml(text, "fuzz") {
            Err(e) => assert!(
                (1..=lines(text)).contains(&e.line) && !e.message.is_empty(),
                "{e:?}"
            ),
            // A small bound that parses builds: what could not be built would be an error
            // naming no line. (Building a huge bound is the checker's business.)
            Ok(b) if b.scenario_count().is_ok_and(|n| n <= 48) => {
                let rules = model::rulebook::Rulebook::named("rup4").unwrap();
                if let Err(e) = properties::RepeatSystem::new(rules, &b) {
                    assert!(
                        e.starts_with("no scenario of the bound can start"),
                        "a bound that parses fails to build, naming no line: {e}\n{text}"
                    );
                }
            }
            Ok(_) => {}
        }
    });
}

/// The corpus cases as requests, and the model's answers to them as reply lines.
fn requests_and_replies() -> (Vec<String>, Vec<String>) {
    let mut model = ModelEngine::new();
    let (mut reqs, mut replies) = (vec![], vec![]);
    for (i, f) in files(&root().join("corpus/cases"), ".case")
        .iter()
        .enumerate()
    {
        let c = parse(&std::fs::read_to_string(f).unwrap()).unwrap();
        let Ok(req) = request(&c, f.parent(), i as u64 + 1) else {
            continue;
        };
        replies.push(reply_line(req.id, &model.run(&req)));
        reqs.push(serde_json::to_string(&req).unwrap());
    }
    (reqs, replies)
}

#[test]
fn engine_replies_parse_or_are_refused_with_a_reason() {
    let (reqs, replies) = requests_and_replies();
    // The request each seed reply answers and the model's answer to it, by seed index.
    let mut model = ModelEngine::new();
    let answered: Vec<_> = reqs
        .iter()
        .map(|r| {
            let req: rbcheck::engine::protocol::CaseRequest = serde_json::from_str(r).unwrap();
            let a = model.run(&req);
            (req, a)
        })
        .collect();
    let mut seeds: Vec<Vec<u8>> = replies.into_iter().map(String::into_bytes).collect();
    for s in [
        "{\"type\":\"result\",\"id\":1,\"items\":[{\"item\":4294967295,\"executions\":1}]}",
        "{\"type\":\"result\",\"id\":1,\"items\":[{\"item\":18446744073709551616}]}",
        "{\"type\":\"result\",\"id\":1,\"units\":{\"NOPE\":{\"zone\":\"board\"}}}",
        "{\"type\":\"result\",\"id\":1,\"players\":{\"nobody\":{\"hand_size\":-1}}}",
        "{\"type\":\"unsupported\",\"id\":1,\"feature\":\"deflect\"}",
        "{\"type\":\"error\",\"id\":1,\"message\":\"no\"}",
        "{\"type\":\"result\",\"id\":1}",
    ] {
        seeds.push(s.as_bytes().to_vec());
    }
    fuzz(&seeds, |bytes, seed| {
        let Ok(line) = std::str::from_utf8(bytes) else {
            return;
        };
        let id = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.get("id").and_then(|i| i.as_u64()))
            .unwrap_or(1);
        match parse_reply(line, id) {
            // What parsed prints back to a line that parses, and is compared with the model's
            // answer to the request it answers: differences, never a panic.
            Ok(r) => {
                assert!(parse_reply(&reply_line(id, &r), id).is_ok(), "{line}");
                if let (Reply::Result(obs), Some((req, Reply::Result(model)))) =
                    (&r, answered.get(seed))
                {
                    for d in compare(req, model, obs).differences {
                        assert!(!d.line().is_empty(), "{line}");
                    }
                }
            }
            Err(why) => assert!(!why.is_empty()),
        }
    });
}

/// An engine's hello: parsed into what the engine speaks and supports, or a fault that says
/// what is wrong, never a panic.
#[test]
fn engine_hellos_parse_or_are_refused_with_a_reason() {
    let hello = ModelEngine::new().hello().unwrap();
    let v2 = serde_json::to_string(&hello).unwrap();
    let mut seeds: Vec<Vec<u8>> = vec![v2.clone().into_bytes()];
    seeds.push(
        v2.replace("rbcheck-engine/2", "rbcheck-engine/1")
            .into_bytes(),
    );
    for s in [
        "{\"type\":\"hello\",\"protocol\":\"rbcheck-engine/9\"}",
        "{\"type\":\"hello\",\"protocol\":\"rbcheck-engine/2\",\"rules\":[\"rup4\"],\"features\":[\"nope\"]}",
        "{\"type\":\"result\",\"id\":1}",
        "[]",
    ] {
        seeds.push(s.as_bytes().to_vec());
    }
    let clients = [ClientHello::new(), ClientHello::v1()];
    fuzz(&seeds, |bytes, _| {
        let Ok(line) = std::str::from_utf8(bytes) else {
            return;
        };
        for client in &clients {
            match parse_hello(line, client) {
                Ok(h) => {
                    let _ = (
                        h.describe(),
                        h.supports_rules("rup4"),
                        h.supports("deflect"),
                    );
                }
                Err(f) => assert!(!f.to_string().is_empty(), "{line}"),
            }
        }
    });
}

/// Part files of `check --shard`: real ones (a preset's and a rulebook file's, whole runs of one
/// shard), mutated. What parses is merged: a report or an error, never a panic; an error names
/// the line (a part is JSON) and says what.
#[test]
fn part_files_parse_and_merge_or_say_why() {
    let dir = std::env::temp_dir().join(format!("rbcheck-fuzz-parts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut seeds = vec![];
    for (i, rules) in ["rup4", "corpus/rulebooks/one-target-list.toml"]
        .iter()
        .enumerate()
    {
        let d = dir.join(i.to_string());
        std::fs::create_dir_all(&d).unwrap();
        let opts = rbcheck::check::CheckOptions {
            rules: match rules.ends_with(".toml") {
                true => root().join(rules).to_string_lossy().into_owned(),
                false => rules.to_string(),
            },
            bound: "tiny".into(),
            counterexamples: 1,
            ..Default::default()
        };
        let run = rbcheck::shard::run(&opts, (1, 1), &d).unwrap();
        seeds.push(std::fs::read(&run.path).unwrap());
    }
    let scratch = dir.join("mutated.json");
    let merged = std::sync::atomic::AtomicUsize::new(0);
    fuzz(&seeds, |bytes, _| match rbcheck::shard::parse(bytes) {
        Err(why) => assert!(
            why.starts_with("line ") || why.starts_with("format `"),
            "no line or format named: {why}"
        ),
        // Merging a rulebook file's part may search the presets for where a field is exercised:
        // too slow for a fuzz target; a preset's part is merged.
        Ok(part) if part.rules.text.is_none() => {
            let _ = std::fs::remove_file(&scratch);
            std::fs::write(&scratch, bytes).unwrap();
            merged.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if let Err(e) = rbcheck::shard::merge(std::slice::from_ref(&scratch), 1) {
                assert!(!e.to_string().is_empty());
            }
        }
        Ok(_) => {}
    });
    let merged = merged.into_inner();
    println!("part files merged: {merged}");
    // The seed merges at least: the target looked at merge, not only at the parser.
    assert!(merged >= 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plan file (`check --plan`) parses or says where it is wrong; a parsed plan given to a
/// shard that does not fit its run is refused, never a panic.
#[test]
fn plan_files_parse_or_say_why() {
    let dir = std::env::temp_dir().join(format!("rbcheck-fuzz-plan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let opts = rbcheck::check::CheckOptions {
        rules: "rup4".into(),
        bound: "tiny".into(),
        counterexamples: 1,
        ..Default::default()
    };
    let made = rbcheck::shard::plan::make(&opts, 3, &dir).unwrap();
    let seeds = vec![std::fs::read(&made.path).unwrap()];
    let system = properties::RepeatSystem::new(
        model::rulebook::Rulebook::preset(model::rulebook::Version::Rup4),
        &properties::Bound::preset("tiny").unwrap(),
    )
    .unwrap();
    fuzz(&seeds, |bytes, _| {
        match rbcheck::shard::plan::parse(bytes) {
            Err(why) => assert!(
                why.starts_with("line ") || why.starts_with("format `"),
                "no line or format named: {why}"
            ),
            Ok(file) => {
                use checker::CheckerExt;
                let n = file.plan.shards;
                if n > 0 && n <= 8 {
                    let _ = system
                        .checker()
                        .threads(1)
                        .max_states(200)
                        .shard(0, n)
                        .with_plan(file.plan)
                        .run_part();
                }
            }
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_requests_are_answered_never_a_panic() {
    let (reqs, _) = requests_and_replies();
    let hello = serde_json::to_string(&ClientHello::new()).unwrap();
    // Sessions: the hello, a few requests, maybe a bye.
    let mut seeds: Vec<Vec<u8>> = reqs
        .chunks(3)
        .map(|c| format!("{hello}\n{}\n", c.join("\n")).into_bytes())
        .collect();
    for s in [
        format!("{hello}\nnot json\n{{\"type\":\"bye\"}}\n"),
        "{\"type\":\"case\",\"id\":1}\n".to_string(),
        "{\"type\":\"hello\",\"protocol\":\"rbcheck-engine/9\"}\n".to_string(),
        format!("{hello}\n{{\"type\":\"case\",\"id\":18446744073709551615,\"rules\":\"rup4\"}}\n"),
    ] {
        seeds.push(s.into_bytes());
    }
    fuzz(&seeds, |bytes, _| {
        let mut out = Vec::new();
        let mut engine = ModelEngine::new();
        // An error (a bad hello, a line that is not UTF-8) ends the session; either way every
        // answer written is one JSON line.
        let _ = serve(&mut engine, bytes, &mut out);
        for l in String::from_utf8(out).expect("answers are UTF-8").lines() {
            assert!(
                serde_json::from_str::<serde_json::Value>(l).is_ok(),
                "not JSON: {l}"
            );
        }
    });
}
