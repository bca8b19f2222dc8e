//! `acp-plan client --fuzz N --seed S`: hostile agents, reproducibly. Each
//! iteration sends a prompt turn of plan messages built from the
//! generator's operation model ([`crate::gen`]), rendered as v1 sends them,
//! then mutated structurally: values of the wrong type, huge and deeply
//! nested members, control characters and terminal escape sequences,
//! out-of-range numbers, unknown types, missing members and floods; and
//! line by line ([`RawMutation`]), what no JSON value can express:
//! repeated members, lone surrogate escapes, numbers past any float,
//! nesting deeper than parsers go. The same seed and iteration always give
//! the same lines.
//!
//! What is judged is robustness ([`super::client_gate::FindingKind`]); the
//! client's own messages are still checked. A finding's turn is minimised
//! (messages dropped while the same finding kinds remain) and written as a
//! script that `acp-plan fake-agent --script` replays.

use super::client_scenario::{permission_params, tool_call_update, Negotiated, ESCAPE_PROBES};
use crate::gen::{
    Capability, Content, Entry, FileUri, Framing, Meta, PlanOp, Priority, Renderer, Status,
};
use crate::spec::Revision;
use serde_json::{json, Map, Value};

/// The session the fuzz turns name (the suite's first `session/new` answer).
pub(crate) const FUZZ_SESSION: &str = super::client_scenario::FIRST_SESSION_ID;

/// Most messages in one iteration before a flood.
const MAX_MESSAGES: usize = 6;
/// Copies of a flooded message.
const FLOOD: std::ops::Range<usize> = 200..2000;
/// Longest line that is flooded.
const FLOOD_MAX_LINE: usize = 4096;
/// Nesting of a deep member: within the depth `check` and serde_json read
/// by default (128), so the reproducer loads.
const DEEP: std::ops::Range<usize> = 20..100;

/// Nesting of a raw deep member: past serde_json's default limit (128)
/// and most parsers' recursion, as only a raw line can carry it.
const RAW_DEEP: std::ops::Range<usize> = 200..5000;
/// Digits of a raw huge number.
const HUGE_DIGITS: std::ops::Range<usize> = 400..20_000;

/// A line-level mutation: text no JSON value can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawMutation {
    /// `"content":"\ud800..."`: a lone surrogate escape (no Unicode
    /// scalar value; strict parsers reject it, others pass it on).
    LoneSurrogate,
    /// A member given twice with different values (`"content":"a",
    /// "content":"b"`, or a second `sessionUpdate`): parsers keep the
    /// first, the last, or refuse.
    RepeatedMember,
    /// A number no float holds (thousands of digits, an exponent past
    /// any range).
    HugeNumber,
    /// Arrays nested thousands deep.
    DeepNesting,
}

impl RawMutation {
    /// Every mutation, in the order a fuzz run cycles through them.
    pub const ALL: [RawMutation; 4] = [
        RawMutation::LoneSurrogate,
        RawMutation::RepeatedMember,
        RawMutation::HugeNumber,
        RawMutation::DeepNesting,
    ];

    /// `line` (one compact JSON-RPC message) mutated; `None` when it has no
    /// place for the mutation (then it is sent as it is).
    pub fn apply(self, rng: &mut fastrand::Rng, line: &[u8]) -> Option<Vec<u8>> {
        let text = std::str::from_utf8(line).ok()?;
        let (at, insert) = match self {
            RawMutation::LoneSurrogate => {
                let surrogate = ["\\ud800", "\\udfff", "\\udbff"][rng.usize(0..3)];
                match text.find("\"content\":\"") {
                    Some(i) => (i + "\"content\":\"".len(), surrogate.to_owned()),
                    None => member_slot(text, &format!("\"acp-plan/probe\":\"{surrogate}\""))?,
                }
            }
            RawMutation::RepeatedMember => match text.find("\"content\":") {
                Some(i) => (i, "\"content\":\"acp-plan-probe-repeat\",".to_owned()),
                None => {
                    let i = text.find("\"sessionUpdate\":")?;
                    let other = ["plan", "plan_removed", "tool_call"][rng.usize(0..3)];
                    (i, format!("\"sessionUpdate\":\"{other}\","))
                }
            },
            RawMutation::HugeNumber => {
                let number = if rng.bool() {
                    "9".repeat(rng.usize(HUGE_DIGITS))
                } else {
                    format!("1e{}", rng.u32(400..u32::MAX))
                };
                member_slot(text, &format!("\"acp-plan/probe\":{number}"))?
            }
            RawMutation::DeepNesting => {
                let depth = rng.usize(RAW_DEEP);
                let deep = format!("{}0{}", "[".repeat(depth), "]".repeat(depth));
                member_slot(text, &format!("\"acp-plan/probe\":{deep}"))?
            }
        };
        let mut out = String::with_capacity(text.len() + insert.len());
        out.push_str(&text[..at]);
        out.push_str(&insert);
        out.push_str(&text[at..]);
        Some(out.into_bytes())
    }
}

/// Where a new first member `member` goes: into the update object if the
/// line has one, else the message itself.
fn member_slot(text: &str, member: &str) -> Option<(usize, String)> {
    let at = match text.find("\"update\":{") {
        Some(i) => i + "\"update\":{".len(),
        None => text.find('{')? + 1,
    };
    let rest_empty = text[at..].starts_with('}');
    let separator = if rest_empty { "" } else { "," };
    Some((at, format!("{member}{separator}")))
}

/// The seed of iteration `iteration` of a run from `seed`.
pub(crate) fn iteration_seed(seed: u64, iteration: u64) -> u64 {
    // SplitMix64's mixing: neighbouring iterations get unrelated streams.
    let mut z = seed ^ iteration.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The lines (`session/update` notifications) of one fuzz iteration.
pub(crate) fn fuzz_lines(seed: u64, iteration: u64) -> Vec<Vec<u8>> {
    let mut rng = fastrand::Rng::with_seed(iteration_seed(seed, iteration));
    let renderer = Renderer::for_connection(Revision::V1, Capability::Object, Framing::Envelope);
    let count = rng.usize(1..=MAX_MESSAGES);
    let mut lines = Vec::new();
    for _ in 0..count {
        let op = plan_op(&mut rng);
        let mut update = renderer.plan_update(&op);
        let mutations = rng.usize(0..=2);
        for _ in 0..mutations {
            mutate(&mut rng, &mut update);
        }
        let message = json!({"jsonrpc": "2.0", "method": "session/update",
            "params": {"sessionId": FUZZ_SESSION, "update": update}});
        let mut line = serde_json::to_vec(&message).unwrap_or_default();
        if rng.u8(..) < 64 {
            let mutation = RawMutation::ALL[rng.usize(0..RawMutation::ALL.len())];
            if let Some(mutated) = mutation.apply(&mut rng, &line) {
                line = mutated;
            }
        }
        // Floods of small messages (a flood of huge ones measures the pipe).
        if rng.u8(..) < 16 && line.len() < FLOOD_MAX_LINE {
            let copies = rng.usize(FLOOD);
            lines.extend(std::iter::repeat_n(line, copies));
        } else {
            lines.push(line);
        }
    }
    lines
}

fn plan_op(rng: &mut fastrand::Rng) -> PlanOp {
    let plan = rng.u8(0..4);
    match rng.u8(0..10) {
        0..=3 => PlanOp::Legacy {
            entries: entries(rng),
            meta: meta(rng),
        },
        4..=8 => PlanOp::Update {
            plan,
            content: match rng.u8(0..4) {
                0 | 1 => Content::Items {
                    entries: entries(rng),
                },
                2 => Content::Markdown { text: text(rng) },
                _ => Content::File {
                    uri: FileUri::Absolute(rng.u8(..)),
                },
            },
            plan_meta: meta(rng),
            meta: meta(rng),
        },
        _ => PlanOp::Remove {
            plan,
            meta: meta(rng),
        },
    }
}

fn entries(rng: &mut fastrand::Rng) -> Vec<Entry> {
    // Thousands of entries, or a few whose text may be hostile or huge.
    let many = rng.u8(0..8) == 0;
    let count = if many {
        rng.usize(1000..5000)
    } else {
        rng.usize(0..6)
    };
    (0..count)
        .map(|i| Entry {
            content: if many { format!("Step {i}") } else { text(rng) },
            priority: [Priority::High, Priority::Medium, Priority::Low][rng.usize(0..3)],
            status: [Status::Pending, Status::InProgress, Status::Completed][rng.usize(0..3)],
            meta: meta(rng),
        })
        .collect()
}

fn meta(rng: &mut fastrand::Rng) -> Meta {
    match rng.u8(0..6) {
        0 => Meta::Null,
        1 => Meta::Object(rng.u8(..)),
        _ => Meta::Absent,
    }
}

/// Text an agent might send, hostile or not.
fn text(rng: &mut fastrand::Rng) -> String {
    match rng.u8(0..12) {
        0 => ESCAPE_PROBES[rng.usize(0..ESCAPE_PROBES.len())].to_owned(),
        1 => (0..rng.usize(1..40))
            .map(|_| char::from(rng.u8(0..0x20)))
            .chain(['\u{7f}', '\u{9b}', '\u{202e}', '\u{200b}'])
            .collect(),
        2 => "x".repeat(rng.usize(100_000..300_000)),
        3 => "\n".repeat(rng.usize(100..10_000)),
        4 => "Überprüfe 計画 تحقق 🧪 e\u{301}\u{fe0f}".repeat(rng.usize(1..50)),
        5 => String::new(),
        _ => format!("Step {}", rng.u16(..)),
    }
}

/// One structural mutation somewhere in `update`.
fn mutate(rng: &mut fastrand::Rng, update: &mut Value) {
    let mut paths = Vec::new();
    collect_paths(update, &mut Vec::new(), &mut paths);
    let Some(path) = paths.get(rng.usize(0..paths.len().max(1))).cloned() else {
        return;
    };
    let Some(target) = pointer_mut(update, &path) else {
        return;
    };
    *target = match rng.u8(0..8) {
        0 => json!(null),
        1 => json!(u64::MAX),
        2 => json!(-1e308),
        3 => json!(["not", {"what": "was expected"}]),
        4 => {
            let mut deep = json!("bottom");
            for _ in 0..rng.usize(DEEP) {
                deep = json!([deep]);
            }
            deep
        }
        5 => json!("y".repeat(rng.usize(100_000..300_000))),
        6 => json!(format!("unknown_{}", rng.u8(..))),
        _ => {
            // A member taken away: replace the parent object without it.
            if let Some((last, parent)) = path.split_last() {
                if let Some(Value::Object(object)) = pointer_mut(update, parent) {
                    object.remove(last);
                }
            }
            return;
        }
    };
}

fn collect_paths(value: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        Value::Object(object) => {
            for (key, member) in object {
                at.push(key.clone());
                out.push(at.clone());
                collect_paths(member, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            // Long lists: a few of their items are enough.
            for (i, item) in items.iter().enumerate().take(8) {
                at.push(i.to_string());
                out.push(at.clone());
                collect_paths(item, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn pointer_mut<'a>(value: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    let mut at = value;
    for key in path {
        at = match at {
            Value::Object(object) => object.get_mut(key)?,
            Value::Array(items) => items.get_mut(key.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}

/// A script for `acp-plan fake-agent --script`: the handshake a v1 client
/// with the plan capability makes, the turn's `lines` after its prompt,
/// the permission request, the prompt's answer.
pub fn reproducer(lines: &[Vec<u8>]) -> Vec<u8> {
    let negotiated = Negotiated {
        revision: Revision::V1,
        plan_operations: true,
    };
    let envelope = |direction: &str, message: Value| {
        let mut object = Map::new();
        object.insert("direction".into(), direction.into());
        object.insert("message".into(), message);
        let mut line = serde_json::to_vec(&Value::Object(object)).unwrap_or_default();
        line.push(b'\n');
        line
    };
    let client = |message: Value| envelope("client_to_agent", message);
    let agent = |message: Value| envelope("agent_to_client", message);
    let mut script = Vec::new();
    script.extend(client(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": 1, "clientCapabilities": {"plan": {}}}}),
    ));
    script.extend(agent(
        json!({"jsonrpc": "2.0", "id": 1, "result": negotiated.initialize_result(false)}),
    ));
    script.extend(client(
        json!({"jsonrpc": "2.0", "id": 2, "method": "session/new",
        "params": {"cwd": "/", "mcpServers": []}}),
    ));
    script.extend(agent(
        json!({"jsonrpc": "2.0", "id": 2, "result": {"sessionId": FUZZ_SESSION}}),
    ));
    script.extend(client(json!({"jsonrpc": "2.0", "id": 3, "method": "session/prompt",
        "params": {"sessionId": FUZZ_SESSION, "prompt": [{"type": "text", "text": "Make a plan"}]}})));
    for line in lines {
        // A line serde_json writes back byte for byte stays a message;
        // any other (a raw mutation) is replayed as its raw text.
        let parsed = serde_json::from_slice::<Value>(line).ok();
        match parsed.filter(|m| serde_json::to_vec(m).ok().as_deref() == Some(line.as_slice())) {
            Some(message) => script.extend(agent(message)),
            None => {
                let raw = json!({"direction": "agent_to_client",
                                 "raw": String::from_utf8_lossy(line)});
                let mut line = serde_json::to_vec(&raw).unwrap_or_default();
                line.push(b'\n');
                script.extend(line);
            }
        }
    }
    script.extend(agent(json!({"jsonrpc": "2.0", "method": "session/update",
        "params": {"sessionId": FUZZ_SESSION, "update": tool_call_update(1)}})));
    script.extend(agent(
        json!({"jsonrpc": "2.0", "id": "acp-plan-permission-1",
        "method": "session/request_permission", "params": permission_params(FUZZ_SESSION, 1)}),
    ));
    script.extend(client(
        json!({"jsonrpc": "2.0", "id": "acp-plan-permission-1",
        "result": {"outcome": {"outcome": "selected", "optionId": "allow"}}}),
    ));
    script.extend(agent(
        json!({"jsonrpc": "2.0", "id": 3, "result": {"stopReason": "end_turn"}}),
    ));
    script
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_lines_and_another_seed_others() {
        for iteration in 0..20 {
            assert_eq!(fuzz_lines(7, iteration), fuzz_lines(7, iteration));
        }
        let run = |seed| (0..20).map(|i| fuzz_lines(seed, i)).collect::<Vec<_>>();
        assert_ne!(run(7), run(8));
        assert_ne!(fuzz_lines(7, 0), fuzz_lines(7, 1));
    }

    #[test]
    fn lines_are_session_updates_that_the_reproducer_keeps() {
        let mut kinds = std::collections::BTreeSet::new();
        let mut raw = 0;
        for iteration in 0..40 {
            let lines = fuzz_lines(1, iteration);
            assert!(!lines.is_empty());
            for line in &lines {
                let text = std::str::from_utf8(line).expect("UTF-8 lines");
                assert!(text.starts_with('{') && !text.contains('\n'));
                let Ok(message) = serde_json::from_slice::<Value>(line) else {
                    raw += 1;
                    continue;
                };
                assert_eq!(message["method"], "session/update");
                if let Some(kind) = message
                    .pointer("/params/update/sessionUpdate")
                    .and_then(Value::as_str)
                {
                    kinds.insert(kind.to_owned());
                }
            }
            let script = super::super::fake_agent::Script::parse("r", &reproducer(&lines), None)
                .expect("the reproducer loads");
            assert_eq!(script.exchanges(), 3);
        }
        assert!(
            kinds.contains("plan")
                && kinds.contains("plan_update")
                && kinds.contains("plan_removed")
        );
        assert!(raw > 0, "some lines are mutated past what JSON values hold");
    }

    /// Each raw mutation yields a line no JSON value round-trips to, and
    /// the reproducer carries it byte for byte.
    #[test]
    fn raw_mutations_write_what_no_value_can_and_the_reproducer_keeps_the_bytes() {
        let items = br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}}}"#;
        let removed = br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"planId":"p","sessionUpdate":"plan_removed"}}}"#;
        let mut rng = fastrand::Rng::with_seed(3);
        for mutation in RawMutation::ALL {
            for line in [&items[..], &removed[..]] {
                let mutated = mutation.apply(&mut rng, line).expect("a place for it");
                let text = String::from_utf8(mutated.clone()).unwrap();
                match mutation {
                    RawMutation::LoneSurrogate => {
                        assert!(text.contains("\\ud") || text.contains("\\udfff"))
                    }
                    RawMutation::RepeatedMember => {
                        let key = if line == &items[..] {
                            "\"content\":"
                        } else {
                            "\"sessionUpdate\":"
                        };
                        assert_eq!(text.matches(key).count(), 2, "{text}");
                    }
                    RawMutation::HugeNumber | RawMutation::DeepNesting => {
                        assert!(text.contains("\"acp-plan/probe\":"), "{text}")
                    }
                }
                let round_trip = serde_json::from_slice::<Value>(&mutated)
                    .ok()
                    .and_then(|v| serde_json::to_vec(&v).ok());
                assert_ne!(
                    round_trip.as_deref(),
                    Some(mutated.as_slice()),
                    "{mutation:?}"
                );
                let script = reproducer(std::slice::from_ref(&mutated));
                let envelope = script
                    .split(|&b| b == b'\n')
                    .filter_map(|l| serde_json::from_slice::<Value>(l).ok())
                    .find(|e| e.get("raw").is_some())
                    .expect("a raw line");
                assert_eq!(
                    envelope["raw"].as_str().unwrap().as_bytes(),
                    mutated.as_slice()
                );
            }
        }
    }
}
