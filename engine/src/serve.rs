//! The engine side of the protocol: read a hello and then one case per line, answer each with
//! an [`Engine`] (`rbcheck serve` uses the model). A line longer than [`MAX_LINE_BYTES`] is
//! answered with an error and skipped, never read whole into memory. A client that speaks only
//! `rbcheck-engine/1` is answered in v1: the v1 features, and results without v2 fields.

use super::protocol::*;
use super::Engine;
use rbcheck_case::read::{read_line, MAX_LINE_BYTES};
use std::io::{BufRead, Write};

/// Answers the protocol on `input`/`output` until `bye` or the end of input.
pub fn serve(
    engine: &mut dyn Engine,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), String> {
    // The hello as sent, in the client's version: it also says what a result may state.
    let mut greeted: Option<Hello> = None;
    let out = |o: &mut dyn Write, line: String| -> Result<(), String> {
        writeln!(o, "{line}")
            .and_then(|_| o.flush())
            .map_err(|e| format!("writing: {e}"))
    };
    let mut input = input;
    while let Some(line) =
        read_line(&mut input, MAX_LINE_BYTES).map_err(|e| format!("reading: {e}"))?
    {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                out(
                    &mut output,
                    serde_json::json!({"type": "error", "id": null, "message": format!("{e}: a request is one JSON object on one line")}).to_string(),
                )?;
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                out(
                    &mut output,
                    serde_json::json!({"type": "error", "id": null, "message": format!("not JSON: {e}")}).to_string(),
                )?;
                continue;
            }
        };
        let id = v.get("id").and_then(|i| i.as_u64());
        match v.get("type").and_then(|t| t.as_str()) {
            Some("hello") => {
                let client = serde_json::from_value::<ClientHello>(v.clone()).ok();
                let Some(version) = client.as_ref().and_then(|c| c.answer_version()) else {
                    let proto = v.get("protocol").and_then(|p| p.as_str()).unwrap_or("");
                    out(
                        &mut output,
                        serde_json::json!({"type": "error", "id": null, "message": format!("this engine speaks {PROTOCOL} and {PROTOCOL_V1}, not `{proto}`")}).to_string(),
                    )?;
                    return Err(format!("the client speaks `{proto}`"));
                };
                let mut h = engine.hello().map_err(|f| f.to_string())?;
                if version == PROTOCOL_V1 {
                    h.protocol = PROTOCOL_V1.into();
                    h.features.retain(|f| !NOT_IN_V1.contains(&f.as_str()));
                }
                out(
                    &mut output,
                    serde_json::to_string(&h).map_err(|e| e.to_string())?,
                )?;
                greeted = Some(h);
            }
            Some("case") if greeted.is_some() => {
                let reply = match serde_json::from_value::<CaseRequest>(v.clone()) {
                    Ok(req) => match (engine.run(&req), &greeted) {
                        (Reply::Result(o), Some(h)) => Reply::Result(h.expressible(&o)),
                        (r, _) => r,
                    },
                    Err(e) => Reply::Error(format!("a bad case request: {e}")),
                };
                out(&mut output, reply_line(id.unwrap_or(0), &reply))?;
            }
            Some("case") => out(
                &mut output,
                serde_json::json!({"type": "error", "id": id, "message": "send the hello first"})
                    .to_string(),
            )?,
            Some("bye") => return Ok(()),
            other => {
                let message = match other {
                    Some(t) => format!("unknown message type `{t}` (expected hello, case or bye)"),
                    None => "a message needs a string `type`: hello, case or bye".to_string(),
                };
                out(
                    &mut output,
                    serde_json::json!({"type": "error", "id": id, "message": message}).to_string(),
                )?
            }
        }
    }
    Ok(())
}
