//! Fuzz targets for every parser of outside input (issue 14): case files, rulebooks, bounds,
//! engine replies and `rbcheck serve` requests. Each target starts from seeds (the corpus, the
//! presets and the inputs of past bugs), mutates one seed (cut, insert, delete, overwrite, or
//! splice with another seed) and checks that the parser answers with a value or an error, never
//! a panic; a case file that parses prints to a text that parses to the same case and prints the
//! same again.
//!
//! Under `cargo test` each target runs its seeds and then a fixed number of random mutations
//! (bolero's random engine; `BOLERO_RANDOM_SEED` in a failure message replays it). With
//! cargo-bolero, libFuzzer drives the same targets with coverage guidance, for example
//! `cargo bolero test --test fuzz_parsers case_files_parse_and_print_stably`.

use rbcheck::case::{parse, print};
use rbcheck::engine::protocol::{parse_reply, reply_line, request, ClientHello};
use rbcheck::engine::serve::serve;
use rbcheck::engine::{Engine, ModelEngine};
use std::path::{Path, PathBuf};

/// Random mutations per target under `cargo test` (each target takes well under 10 s).
const ITERATIONS: usize = 3000;

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

/// Runs `check` on every seed, then on `ITERATIONS` mutations of them.
fn fuzz(seeds: &[Vec<u8>], check: impl Fn(&[u8]) + std::panic::RefUnwindSafe) {
    assert!(!seeds.is_empty());
    for s in seeds {
        check(s);
    }
    bolero::check!()
        .with_iterations(ITERATIONS)
        .with_max_len(4096)
        .with_type::<Mutation>()
        .for_each(|m| check(&mutate(seeds, m)));
}

/// Case files from past bugs (issue 14 and before).
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
    fuzz(&seeds, |bytes| {
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
            }
            Err(e) => assert!(e.line >= 1 && e.col >= 1, "{e}"),
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
    fuzz(&seeds, |bytes| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        if let Err(e) = model::rulebook::Rulebook::from_toml(text, "fuzz") {
            assert!(e.line >= 1, "{e:?}");
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
    ] {
        seeds.push(s.as_bytes().to_vec());
    }
    fuzz(&seeds, |bytes| {
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        // Only the parser: building the scenarios of a huge bound is the checker's business.
        if let Err(e) = properties::bound::Bound::from_toml(text, "fuzz") {
            assert!(e.line >= 1, "{e:?}");
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
    let (_, replies) = requests_and_replies();
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
    fuzz(&seeds, |bytes| {
        let Ok(line) = std::str::from_utf8(bytes) else {
            return;
        };
        let id = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.get("id").and_then(|i| i.as_u64()))
            .unwrap_or(1);
        match parse_reply(line, id) {
            // What parsed prints back to a line that parses.
            Ok(r) => assert!(parse_reply(&reply_line(id, &r), id).is_ok(), "{line}"),
            Err(why) => assert!(!why.is_empty()),
        }
    });
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
    fuzz(&seeds, |bytes| {
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
