//! Counterexamples in the formats other tools read: JSON steps, ITF (the Informal Trace Format of
//! Apalache and Quint, with `mbt::actionTaken` and `mbt::nondetPicks` per state, as model-based
//! testing tools expect) and DOT. Case files are written by `crate::cases`.

use checker::{Model, Trace};
use model::state::{Obj, Player, State, Zone};
use properties::RepeatSystem;
use rbcheck::case::print::{loc, player};
use serde_json::{json, Value};

fn int(n: impl Into<i64>) -> Value {
    json!({ "#bigint": n.into().to_string() })
}

fn obj(o: Obj) -> String {
    match o {
        Obj::Unit(u) => format!("unit {}", u + 1),
        Obj::Gear(g) => format!("gear {}", g + 1),
        Obj::Item(i) => format!("item {}", i + 1),
    }
}

/// The state as ITF values: records, lists, `#bigint` integers.
fn itf_state(sys: &RepeatSystem, s: &State) -> serde_json::Map<String, Value> {
    let g = &sys.game;
    let mut m = serde_json::Map::new();
    m.insert(
        "units".into(),
        Value::Array(
            s.units
                .iter()
                .map(|u| {
                    json!({
                        "card": g.card(u.card).name,
                        "controller": player(u.controller),
                        "location": loc(u.loc),
                        "zone": if u.zone == Zone::Board { "board" } else { "trash" },
                        "might": int(u.current_might()),
                        "damage": int(u.damage),
                        "token": u.token,
                    })
                })
                .collect(),
        ),
    );
    m.insert(
        "gear".into(),
        Value::Array(
            s.gear
                .iter()
                .map(|x| json!({ "card": g.card(x.card).name, "controller": player(x.controller), "zone": if x.zone == Zone::Board { "board" } else { "trash" } }))
                .collect(),
        ),
    );
    m.insert(
        "players".into(),
        Value::Array(
            [Player::YOU, Player::OPP]
                .iter()
                .map(|p| {
                    let ps = &s.players[p.ix()];
                    json!({
                        "player": player(*p),
                        "pool": ps.pool.to_string(),
                        "hand_size": int(ps.hand.len() as i64 + i64::from(ps.hand_other)),
                        "deck": int(ps.deck),
                        "trash": ps.trash.iter().map(|c| g.card(*c).name.clone()).collect::<Vec<_>>(),
                        "finalized": int(ps.finalized_this_turn),
                    })
                })
                .collect(),
        ),
    );
    m.insert(
        "chain".into(),
        Value::Array(
            s.chain
                .iter()
                .map(|i| {
                    json!({
                        "item": int(i.id + 1),
                        "card": g.card(i.card).name,
                        "controller": player(i.controller),
                        "phase": format!("{:?}", i.phase),
                        "repeat_paid": i.repeat.iter().enumerate().filter(|(_, r)| r.paid > 0).map(|(n, _)| int(n as i64 + 1)).collect::<Vec<_>>(),
                        "choices": i.choices.iter().map(|c| json!({
                            "mode": c.mode.map(|m| int(m + 1)),
                            "targets": c.objects().map(obj).collect::<Vec<_>>(),
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect(),
        ),
    );
    m.insert(
        "events".into(),
        Value::Array(
            s.log
                .iter()
                .filter_map(|e| g.describe_event(s, e))
                .map(Value::String)
                .collect(),
        ),
    );
    m
}

/// A trace as ITF JSON.
pub fn itf(sys: &RepeatSystem, trace: &Trace<RepeatSystem>, property: &str, rule: &str) -> String {
    let vars = [
        "mbt::actionTaken",
        "mbt::nondetPicks",
        "rule",
        "units",
        "gear",
        "players",
        "chain",
        "events",
    ];
    let mut states = vec![];
    let mut last = &trace.init;
    let push =
        |states: &mut Vec<Value>, i: usize, s: &State, action: &str, rule: &str, picks: Value| {
            let mut m = itf_state(sys, s);
            m.insert("#meta".into(), json!({ "index": i }));
            m.insert("mbt::actionTaken".into(), Value::String(action.into()));
            m.insert("mbt::nondetPicks".into(), picks);
            m.insert("rule".into(), Value::String(rule.into()));
            states.push(Value::Object(m));
        };
    push(
        &mut states,
        0,
        &trace.init,
        "init",
        "",
        json!({ "scenario": sys.scenarios.get(trace.init_index).map(|s| s.name.clone()) }),
    );
    for (i, step) in trace.steps.iter().enumerate() {
        let picks = json!({ "description": sys.format_action(last, &step.action), "action_index": int(step.action_index as i64) });
        push(
            &mut states,
            i + 1,
            &step.state,
            step.action.name(),
            step.action.rule(),
            picks,
        );
        last = &step.state;
    }
    json!({
        "#meta": {
            "format": "ITF",
            "format-description": "https://apalache-mc.org/docs/adr/015adr-trace.html",
            "source": "rbcheck",
            "description": format!("counterexample to {property} ({rule}) under {}", sys.game.rules.name),
        },
        "vars": vars,
        "states": states,
    })
    .to_string()
}

/// A trace as a DOT path: one node per state (its newest events), one edge per step (its rule).
pub fn dot(sys: &RepeatSystem, trace: &Trace<RepeatSystem>, property: &str) -> String {
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut o = format!(
        "digraph \"{}\" {{\n  rankdir=TB;\n  node [shape=box, fontsize=10];\n",
        esc(property)
    );
    let scenario = sys
        .scenarios
        .get(trace.init_index)
        .map(|s| s.name.clone())
        .unwrap_or_default();
    o.push_str(&format!("  s0 [label=\"start: {}\"];\n", esc(&scenario)));
    let mut last = &trace.init;
    for (i, step) in trace.steps.iter().enumerate() {
        let changes = sys.format_step(last, &step.state).unwrap_or_default();
        o.push_str(&format!("  s{} [label=\"{}\"];\n", i + 1, esc(&changes)));
        o.push_str(&format!(
            "  s{} -> s{} [label=\"{}\"];\n",
            i,
            i + 1,
            esc(&sys.format_action(last, &step.action))
        ));
        last = &step.state;
    }
    o.push_str("}\n");
    o
}
