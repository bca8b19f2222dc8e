//! `differential`: the same bytes through this suite's strict reading and
//! through the official `agent-client-protocol-schema` crate (v1 types), as
//! the release that judges the revision the reader names
//! ([`Official::revision`]).
//!
//! The official crate is lenient by design. The claims checked:
//! 1. Whatever the suite accepts without error, the official crate accepts,
//!    with equal content.
//! 2. Where the official crate accepts but loses or changes data (drops an
//!    entry, ignores a member, reads a capability as absent), the suite
//!    reports at least one rule.
//! 3. Both read the same plan capability from the same `initialize` params.
//!
//! Everything else (the suite stricter than the official crate, both
//! rejecting) is an [`Agreement`] the caller may tally; `fuzz/README.md`
//! catalogues the kinds seen.
//!
//! The official crate is a dev-dependency, never a dependency of this
//! library: callers pass its reading in through [`Official`].

use super::{ensure, Broken};
use crate::catalog::Severity;
use crate::rules::cap::VALUE;
use crate::rules::env::{DUPLICATE_KEY, NUMBER_RANGE, UNPAIRED_SURROGATE};
use crate::rules::plan_operations::PLAN_OPERATIONS;
use crate::rules::shape::{parse_plan_update_json, PLAN_KINDS};
use crate::rules::trace_format::LIMIT;
use crate::spec::{Revision, SpecChoice};
use crate::trace::first_duplicate_member;
use crate::validate::{Config, Validator};
use serde_json::{Map, Value};

/// The official crate's reading of some JSON, written back as JSON.
pub trait Official {
    /// The revision whose plan messages this reader's types implement: the
    /// suite reads the same bytes under it.
    fn revision(&self) -> Revision;
    /// `v1::SessionUpdate` read from `update` (a `session/update`'s
    /// `update` object) and serialized again, or why it was rejected.
    fn session_update(&self, update: &str) -> Result<Value, String>;
    /// `v1::InitializeRequest` read from `params` (an `initialize`
    /// request's params), and its `clientCapabilities` serialized again.
    fn client_capabilities(&self, params: &str) -> Result<Value, String>;
}

/// How the two readings of one input relate, when no claim is broken.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Agreement {
    /// Neither a plan update nor `initialize` params: nothing to compare.
    NotCompared,
    /// Both accept the same content, or both reject.
    Same,
    /// The official crate accepts but loses or changes data; the suite
    /// reports these rules.
    OfficialLossy {
        /// The ids of the rules the suite reports.
        rules: Vec<&'static str>,
    },
    /// The suite rejects (with these rules) what the official crate reads
    /// without loss.
    StricterHere {
        /// The ids of the rules the suite rejects with.
        rules: Vec<&'static str>,
    },
    /// Readers disagree on the input (the official crate is one reading):
    /// the suite reports these rules against the sender and judges no one
    /// on the disputed reading.
    Ambiguous {
        /// The ids of the rules the suite reports against the sender.
        rules: Vec<&'static str>,
    },
}

/// Compare both readings of `data`, as an `update` object or as
/// `initialize` params, whichever it looks like.
pub fn check(data: &[u8], official: &dyn Official) -> Result<Agreement, Broken> {
    let Ok(text) = std::str::from_utf8(data) else {
        return Ok(Agreement::NotCompared);
    };
    let Ok(Value::Object(object)) = serde_json::from_str::<Value>(text) else {
        return Ok(Agreement::NotCompared);
    };
    if let Some(kind) = object
        .get("sessionUpdate")
        .and_then(Value::as_str)
        .filter(|k| PLAN_KINDS.contains(k))
    {
        return check_update(text, &object, kind, official);
    }
    if object.contains_key("clientCapabilities") {
        return check_capabilities(text, &object, official);
    }
    Ok(Agreement::NotCompared)
}

fn check_update(
    text: &str,
    update: &Map<String, Value>,
    kind: &str,
    official: &dyn Official,
) -> Result<Agreement, Broken> {
    let max_entries = crate::trace::Limits::default().max_entries_per_plan;
    let ours = parse_plan_update_json(text, kind, official.revision(), max_entries);
    let rules: Vec<&'static str> = ours.diagnostics.iter().map(|d| d.rule.id).collect();
    let has_error = ours
        .diagnostics
        .iter()
        .any(|d| d.severity() == Severity::Error);
    let accepted_clean = ours.message.is_some() && !has_error;
    if rules.contains(&NUMBER_RANGE.id) || rules.contains(&UNPAIRED_SURROGATE.id) {
        // Grammatical JSON whose meaning RFC 8259 leaves open: the official
        // crate (serde_json) rejects it; the suite says so and reads it one
        // documented way.
        return Ok(Agreement::Ambiguous { rules });
    }
    if first_duplicate_member(text).is_some() {
        // Readers disagree on repeated members (the official crate rejects
        // a repeated field it knows and keeps the last of others); the suite
        // checks every reading and must say so.
        ensure!(
            rules.contains(&DUPLICATE_KEY.id),
            "`{kind}` repeats a member and the suite does not say so"
        );
        return Ok(Agreement::Ambiguous { rules });
    }
    let theirs = match official.session_update(text) {
        Ok(theirs) => without_null_meta(theirs),
        Err(reason) => {
            ensure!(
                !accepted_clean,
                "the suite accepts `{kind}` without error, the official crate rejects it: {reason}"
            );
            return Ok(Agreement::Same);
        }
    };
    if let (true, Some(message)) = (accepted_clean, &ours.message) {
        let mine = without_null_meta(message.to_update_json(official.revision()));
        ensure!(
            mine == theirs,
            "both accept `{kind}` but read different content:\n  suite:    {mine}\n  official: {theirs}"
        );
    }
    let input = without_null_meta(Value::Object(update.clone()));
    if theirs != input {
        ensure!(
            !rules.is_empty(),
            "the official crate changes `{kind}` and the suite reports nothing:\n  input:    {input}\n  official: {theirs}"
        );
        return Ok(Agreement::OfficialLossy { rules });
    }
    if accepted_clean {
        Ok(Agreement::Same)
    } else {
        Ok(Agreement::StricterHere { rules })
    }
}

/// The plan capability keys of `clientCapabilities`: the v1 key and the
/// draft's, which the official crate does not know.
const PLAN_CAPABILITY_KEYS: [&str; 2] = ["plan", "planCapabilities"];

fn check_capabilities(
    text: &str,
    params: &Map<String, Value>,
    official: &dyn Official,
) -> Result<Agreement, Broken> {
    let Some(ours) = suite_reading_of_initialize(text, official.revision()) else {
        return Ok(Agreement::NotCompared);
    };
    let theirs = match official.client_capabilities(text) {
        Ok(theirs) => theirs,
        // The official crate rejects the whole initialize request (no
        // protocolVersion, say): no capability to compare.
        Err(_) => return Ok(Agreement::NotCompared),
    };
    let their_plan = theirs.get("plan").is_some_and(|p| !p.is_null());
    // The official crate is one reading. The suite never blames the agent
    // where it reads the capability as advertised.
    ensure!(
        ours.advertised || !their_plan,
        "the official crate reads the plan capability as advertised, but the suite blames the agent's plan operations: {}",
        crate::text::shorten(text, 300)
    );
    if let Some(repeat) = first_duplicate_member(text) {
        // The official crate drops what holds a repeated known member; the
        // suite reads every value and must say why it may differ.
        ensure!(
            ours.rules.contains(&DUPLICATE_KEY.id),
            "initialize params repeat `{}` at {} and the suite does not say so",
            repeat.key,
            repeat.pointer
        );
        return Ok(if ours.advertised == their_plan {
            Agreement::Same
        } else {
            Agreement::Ambiguous { rules: ours.rules }
        });
    }
    if ours.advertised && !their_plan {
        // Readers disagree (an array, which serde can read as an object but
        // not from every element): the client is told, the agent is not judged.
        ensure!(
            ours.rules.contains(&VALUE.id),
            "the suite lets the agent send plan operations the official crate would not, without saying why: {}",
            crate::text::shorten(text, 300)
        );
        return Ok(Agreement::Ambiguous { rules: ours.rules });
    }
    let sent = params.get("clientCapabilities").and_then(Value::as_object);
    let lost: Vec<&str> = PLAN_CAPABILITY_KEYS
        .into_iter()
        .filter(|key| {
            let sent = sent.and_then(|c| c.get(*key)).filter(|v| !v.is_null());
            let kept = theirs.get(*key).filter(|v| !v.is_null());
            sent.is_some() && kept.is_none()
        })
        .collect();
    if !lost.is_empty() {
        ensure!(
            !ours.rules.is_empty(),
            "the official crate ignores clientCapabilities {lost:?} and the suite reports nothing: {}",
            crate::text::shorten(text, 300)
        );
        return Ok(Agreement::OfficialLossy { rules: ours.rules });
    }
    Ok(Agreement::Same)
}

/// What the validator makes of `initialize` params under a v1 revision.
struct InitializeReading {
    /// Whether the validator lets the agent send plan operations.
    advertised: bool,
    /// The rules reported about the initialize request.
    rules: Vec<&'static str>,
}

/// Run `params` through the validator as a v1 handshake followed by a
/// `plan_removed`: the capability was read as advertised exactly when the
/// plan operation draws no `CAP-PLAN-OPS`. `None` when the params hit an
/// input limit.
fn suite_reading_of_initialize(params: &str, revision: Revision) -> Option<InitializeReading> {
    let mut validator = Validator::new(Config {
        spec: SpecChoice::Fixed(revision),
        ..Config::default()
    });
    let initialize =
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{params}}}"#);
    let lines = [
        initialize.as_str(),
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s"}}"#,
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan_removed","planId":"p"}}}"#,
    ];
    for (index, line) in lines.iter().enumerate() {
        validator.push_record(index as u64 + 1, line.as_bytes());
    }
    let diagnostics = validator.take_diagnostics();
    if diagnostics.iter().any(|d| d.rule.id == LIMIT.id) {
        return None;
    }
    Some(InitializeReading {
        advertised: !diagnostics.iter().any(|d| d.rule.id == PLAN_OPERATIONS.id),
        rules: diagnostics
            .iter()
            .filter(|d| d.line == 1)
            .map(|d| d.rule.id)
            .collect(),
    })
}

/// `_meta: null` means the same as no `_meta`; the official crate drops it.
fn without_null_meta(mut value: Value) -> Value {
    let mut stack = vec![&mut value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(members) => {
                if members.get("_meta") == Some(&Value::Null) {
                    members.remove("_meta");
                }
                stack.extend(
                    members
                        .iter_mut()
                        .filter(|(k, _)| *k != "_meta")
                        .map(|(_, v)| v),
                );
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
    value
}
