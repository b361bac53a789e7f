//! The model as an engine: it answers a request by replaying the case (`rbcheck serve`).

use super::observe::{model_observation, model_observation_under};
use super::protocol::*;
use super::Engine;
use model::rulebook::Rulebook;
use rbcheck_case as case;

/// The model, answering the protocol by replaying each case.
#[derive(Default)]
pub struct ModelEngine {}

impl ModelEngine {
    /// A model engine.
    pub fn new() -> ModelEngine {
        ModelEngine::default()
    }
}

impl Engine for ModelEngine {
    fn hello(&mut self) -> Result<Hello, Fault> {
        Ok(Hello {
            kind: "hello".into(),
            protocol: PROTOCOL.into(),
            engine: "rbcheck-model".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            rules: PRESETS
                .iter()
                .map(|s| s.to_string())
                .chain(["custom".to_string()])
                .collect(),
            features: FEATURES.iter().map(|s| s.to_string()).collect(),
            repeat: RepeatShape::Instances,
        })
    }

    fn run(&mut self, req: &CaseRequest) -> Reply {
        let c = match &req.case_text {
            Some(t) => match case::parse(t) {
                Ok(c) => c,
                Err(e) => {
                    return Reply::Error(format!("case_text {}:{}: {}", e.line, e.col, e.message))
                }
            },
            None => match case_from_request(req) {
                Ok(c) => c,
                Err(e) => return Reply::Error(e),
            },
        };
        // Line numbers are the request's: map the case's plays onto them by position.
        let lines: Vec<usize> = c.plays.iter().map(|p| p.line).collect();
        let out = if PRESETS.contains(&c.rules.as_str()) {
            model_observation(&c, None)
        } else {
            // A rulebook file is sent as its fields: parsed here in memory (writing it to a
            // file in the shared temp folder could follow a link planted there).
            let Some(rb) = &req.rulebook else {
                return Reply::Unsupported {
                    feature: "rules".into(),
                    detail: format!("rules `{}` without a `rulebook` object", c.rules),
                };
            };
            let text = match serde_json::from_value::<toml::Value>(rb.clone()) {
                Ok(toml::Value::Table(t)) => t.to_string(),
                _ => return Reply::Error("`rulebook` is not an object of rulebook fields".into()),
            };
            let name = std::path::Path::new(&c.rules)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("custom")
                .to_string();
            match Rulebook::from_toml(&text, &name) {
                Ok(rules) => model_observation_under(&c, rules),
                Err(e) => Err(format!("`rulebook`: {}", e.message)),
            }
        };
        match out {
            Ok(mut o) => {
                if let Some(i) = &mut o.illegal {
                    if let Some(ix) = i.play {
                        i.line = req.plays.get(ix).map(|p| p.line).or(lines.get(ix).copied());
                    }
                }
                Reply::Result(o)
            }
            Err(e) => Reply::Error(e),
        }
    }
}
