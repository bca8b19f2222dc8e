//! A tiny ACP agent on stdio that reports a plan the way the spec asks:
//! legacy `plan` updates (always allowed), or Plan Operations when the
//! client advertised the plan capability. `--broken` makes it send
//! `plan_update` whatever the client advertised, to show the gate failing.

use serde_json::{json, Value};
use std::io::{self, BufRead, Write};

fn main() -> io::Result<()> {
    let broken = std::env::args().any(|a| a == "--broken");
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut plan_ops = false;
    for line in stdin.lock().lines() {
        let line = line?;
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let (Some(id), Some(method)) = (message.get("id"), message["method"].as_str()) else {
            continue; // responses and notifications need no answer here
        };
        let result = match method {
            "initialize" => {
                // v1 spells the capability `plan`; any object means advertised.
                plan_ops = message
                    .pointer("/params/clientCapabilities/plan")
                    .is_some_and(Value::is_object);
                json!({"protocolVersion": 1, "agentCapabilities": {"loadSession": false}})
            }
            "session/new" => json!({"sessionId": "example-session"}),
            "session/prompt" => {
                let session = &message["params"]["sessionId"];
                for done in 0..=3 {
                    let update = plan(done, plan_ops || broken);
                    send(
                        &mut out,
                        &json!({
                            "jsonrpc": "2.0",
                            "method": "session/update",
                            "params": {"sessionId": session, "update": update},
                        }),
                    )?;
                }
                json!({"stopReason": "end_turn"})
            }
            _ => {
                send(
                    &mut out,
                    &json!({
                        "jsonrpc": "2.0", "id": id,
                        "error": {"code": -32601, "message": "method not found"},
                    }),
                )?;
                continue;
            }
        };
        send(
            &mut out,
            &json!({"jsonrpc": "2.0", "id": id, "result": result}),
        )?;
    }
    Ok(())
}

/// The plan with its first `done` steps completed, as a full list.
fn plan(done: usize, plan_ops: bool) -> Value {
    let entries: Vec<Value> = ["Add the flag", "Document it", "Test it"]
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let status = match i.cmp(&done) {
                std::cmp::Ordering::Less => "completed",
                std::cmp::Ordering::Equal => "in_progress",
                std::cmp::Ordering::Greater => "pending",
            };
            json!({"content": step, "priority": "medium", "status": status})
        })
        .collect();
    if plan_ops {
        json!({"sessionUpdate": "plan_update",
               "plan": {"planId": "main", "type": "items", "entries": entries}})
    } else {
        json!({"sessionUpdate": "plan", "entries": entries})
    }
}

fn send(out: &mut impl Write, message: &Value) -> io::Result<()> {
    writeln!(out, "{message}")?;
    out.flush()
}
