//! A second reference, beside `json_floor`: the same read and parse, plus
//! what any client has to keep. For each `session/update` about plans it
//! stores, by session, the legacy plan's entries and each keyed plan as
//! sent (a `plan_update` replaces the plan with its id, a `plan_removed`
//! drops it), as parsed `Value`s. No rule is checked. `check` keeps the
//! same plans in its client state; this keeps them the plainest way, so on
//! traces of many sessions it shows what holding that state costs a program
//! that does nothing else (see bench/README.md). Built like `json_floor`
//! (the `floor` profile).
//!
//! Reads the spellings `acp-plan gen` writes (v1 and v2: `plan_update` with
//! `plan.planId`, `plan_removed` with `planId`), bare or in a trace envelope
//! (`{"direction":…,"message":…}`).
//!
//! Usage: `client_floor FILE`; prints lines, bytes, lines that were not
//! JSON, and the sessions and plans shown at the end.

#[path = "../json_lines.rs"]
mod json_lines;

use serde_json::Value;
use std::collections::HashMap;
use std::process::ExitCode;

/// What a client shows for one session.
#[derive(Default)]
struct SessionPlans {
    legacy: Option<Value>,
    plans: HashMap<String, Value>,
}

fn main() -> ExitCode {
    let mut sessions: HashMap<String, SessionPlans> = HashMap::new();
    match json_lines::read_values("client_floor", |value| apply(&mut sessions, value)) {
        Ok(counts) => {
            let plans: usize = sessions
                .values()
                .map(|s| s.plans.len() + usize::from(s.legacy.is_some()))
                .sum();
            println!("{counts} sessions {} plans {plans}", sessions.len());
            ExitCode::SUCCESS
        }
        Err(status) => status,
    }
}

/// A member's value, taken out (`Null` if absent, or if `value` is not an
/// object: indexing for a change would panic on an array).
fn take(value: &mut Value, name: &str) -> Value {
    value.get_mut(name).map(Value::take).unwrap_or_default()
}

/// Keeps what a plan update changes; ignores every other message.
fn apply(sessions: &mut HashMap<String, SessionPlans>, mut value: Value) {
    if value.get("direction").is_some() {
        value = take(&mut value, "message");
    }
    if value["method"] != "session/update" {
        return;
    }
    let mut params = take(&mut value, "params");
    let mut update = take(&mut params, "update");
    let kind = update["sessionUpdate"].as_str().unwrap_or_default();
    if !matches!(kind, "plan" | "plan_update" | "plan_removed") {
        return;
    }
    let Some(session) = params["sessionId"].as_str() else {
        return;
    };
    // The id is copied only for a new session (then looked up again).
    if !sessions.contains_key(session) {
        sessions.insert(session.to_owned(), SessionPlans::default());
    }
    let Some(plans) = sessions.get_mut(session) else {
        return;
    };
    match kind {
        "plan" => plans.legacy = Some(take(&mut update, "entries")),
        "plan_update" => {
            let plan = take(&mut update, "plan");
            if let Some(id) = plan["planId"].as_str() {
                match plans.plans.get_mut(id) {
                    Some(shown) => *shown = plan,
                    None => {
                        plans.plans.insert(id.to_owned(), plan);
                    }
                }
            }
        }
        _ => {
            if let Some(id) = update["planId"].as_str() {
                plans.plans.remove(id);
            }
        }
    }
}
