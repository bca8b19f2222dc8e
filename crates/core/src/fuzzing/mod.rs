//! The invariants the fuzz targets check, written once (`fuzz/`, and the
//! official schema's differential target in `acp-plan-official`).
//!
//! Each target under `fuzz/fuzz_targets/` is a thin wrapper that calls one
//! `check` function here and panics on a [`Broken`]; the regression test
//! (`conformance/tests/fuzz_regressions.rs`) replays every file under
//! `fuzz/regressions/<target>/` and `fuzz/seeds/<target>/` through the same
//! functions, so a bug a fuzzer once found stays found by `cargo test`.
//!
//! | target | input | checks |
//! |---|---|---|
//! | [`frame`] | raw bytes | line framing, UTF-8, JSON, depth, envelope and JSON-RPC classification against a `serde_json::Value` oracle |
//! | [`plan_messages`] | one `update` object | the strict parser of every revision: rejections are explained, accepted messages re-serialize and parse back equal |
//! | [`stream`] | a whole trace | the validator: diagnostic lines within the input, verdict agrees with the error count, state only for established sessions, live state within the limits, streaming and chunking give the same report |
//! | [`differential`] | one `update` or `initialize` params object | the strict parser against the official `agent-client-protocol-schema` crate |
//! | `dag` (`acp_plan_dag::fuzzing`) | a plan of tool calls | the DAG checker: bounded diagnostics within the input, a schedule that respects every edge, cycles that close, every view renders |
//! | `structured` (feature `arbitrary`) | an `arbitrary` sequence of protocol operations | the validator reports exactly the violations the generator injected |
//!
//! Nothing here panics on input: a broken invariant is returned, so the
//! caller decides how to fail.

pub mod differential;
pub mod frame;
pub mod plan_messages;
pub mod readings;
pub mod seeds;
pub mod stream;
#[cfg(feature = "arbitrary")]
pub mod structured;

use crate::diag::Diagnostic;
use serde_json::Value;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// A broken invariant: what was expected, what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken(
    /// The message the fuzz target panics with.
    pub String,
);

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Broken {}

/// The outcome of one check.
pub type Checked = Result<(), Broken>;

/// `Err(Broken)` with a formatted message unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err($crate::fuzzing::Broken(format!($($arg)+)));
        }
    };
}
pub(crate) use ensure;

/// Run `check` over every regression (`<fuzz_dir>/regressions/<target>/`)
/// and seed (`<fuzz_dir>/seeds/<target>/`) of a target, as the regression
/// tests of every crate do: the failures, one line each (none: all pass).
/// A target without seeds fails.
pub fn replay(fuzz_dir: &Path, target: &str, check: impl Fn(&[u8]) -> Checked) -> Vec<String> {
    let seeds = inputs(&fuzz_dir.join("seeds").join(target));
    if seeds.is_empty() {
        return vec![format!(
            "no seeds for {target}: run `cargo run -p acp-plan-conformance --example fuzz_seeds`"
        )];
    }
    let regressions = inputs(&fuzz_dir.join("regressions").join(target));
    let mut failures = Vec::new();
    for path in regressions.iter().chain(&seeds) {
        let outcome = fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|data| check(&data).map_err(|v| v.to_string()));
        if let Err(failure) = outcome {
            failures.push(format!("{}: {failure}", path.display()));
        }
    }
    failures
}

/// The files of `dir`, sorted, without its README (none if it does not exist).
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.file_name().is_none_or(|n| n != "README.md"))
        .collect();
    files.sort();
    files
}

/// Longest message or hint any diagnostic may carry, whatever the input:
/// reports must not grow with hostile ids, keys or values.
pub(crate) const MAX_DIAGNOSTIC_TEXT: usize = 1024;
/// Longest snippet (the shortened line, plus two `…`).
pub(crate) const MAX_SNIPPET: usize = 142;
/// Longest session or plan id kept in a diagnostic (plus `…`).
pub(crate) const MAX_ID_IN_DIAGNOSTIC: usize = 121;

/// Invariants every diagnostic of a trace keeps, whatever the input: its
/// rule is a trace rule, and [`check_bounds`].
pub(crate) fn check_diagnostic(d: &Diagnostic) -> Checked {
    ensure!(
        crate::rules::find(d.rule.id).is_some(),
        "diagnostic rule {} is not in the catalog",
        d.rule.id
    );
    check_bounds(d)
}

/// Invariants every diagnostic keeps, whatever the input or checker: its
/// texts are bounded, its pointer is a JSON pointer.
pub fn check_bounds(d: &Diagnostic) -> Checked {
    let chars = |s: &str| s.chars().count();
    ensure!(
        chars(&d.message) <= MAX_DIAGNOSTIC_TEXT,
        "{} message is {} characters long: {:.200}",
        d.rule.id,
        chars(&d.message),
        d.message
    );
    if let Some(hint) = &d.hint {
        ensure!(
            chars(hint) <= MAX_DIAGNOSTIC_TEXT,
            "{} hint is {} characters long",
            d.rule.id,
            chars(hint)
        );
    }
    if let Some(snippet) = &d.snippet {
        ensure!(
            chars(snippet) <= MAX_SNIPPET,
            "{} snippet is {} characters long",
            d.rule.id,
            chars(snippet)
        );
    }
    for (what, id) in [("session", &d.session), ("plan", &d.plan)] {
        if let Some(id) = id {
            ensure!(
                chars(id) <= MAX_ID_IN_DIAGNOSTIC,
                "{} {what} id is {} characters long",
                d.rule.id,
                chars(id)
            );
        }
    }
    ensure!(
        d.pointer.is_empty() || d.pointer.starts_with('/'),
        "{} pointer {:?} is not a JSON pointer",
        d.rule.id,
        d.pointer
    );
    Ok(())
}

/// A diagnostic's pointer names a value of `message`, or a missing member
/// of an object that is there ("`x` is missing" may point at `x` or at its
/// parent).
pub(crate) fn check_pointer(d: &Diagnostic, message: &Value) -> Checked {
    if d.pointer.is_empty() || message.pointer(&d.pointer).is_some() {
        return Ok(());
    }
    let parent = d.pointer.rsplit_once('/').map_or("", |(parent, _)| parent);
    ensure!(
        matches!(message.pointer(parent), Some(Value::Object(_))),
        "{} pointer {} names nothing in the message (nor a member of an object there)",
        d.rule.id,
        d.pointer
    );
    Ok(())
}

/// [`check_pointer`] for a message that may repeat member names: the
/// validator checks each value of a repeated member (every reading, see
/// [`crate::trace::readings`]), so a pointer may name something in any one
/// of the readings. `readings` must not be empty.
pub(crate) fn check_pointer_in_readings(d: &Diagnostic, readings: &[Value]) -> Checked {
    let mut outcome = Err(Broken(format!(
        "{} pointer {} checked against no reading of the message",
        d.rule.id, d.pointer
    )));
    for reading in readings {
        outcome = check_pointer(d, reading);
        if outcome.is_ok() {
            break;
        }
    }
    outcome
}

/// [`check_pointer_in_readings`], with one exception: the report of a
/// repeated member name is found in the text as written, at any depth of
/// any value ([`crate::trace::duplicate_members`]), not in a reading. Past
/// [`crate::trace::MAX_READINGS`] a repeat may sit in no reading, so that
/// report's pointer must name a member of one of `written` when any value
/// of a repeated member may be followed.
pub(crate) fn check_pointer_in_message(
    d: &Diagnostic,
    readings: &[Value],
    written: &[Written],
) -> Checked {
    let in_readings = check_pointer_in_readings(d, readings);
    if in_readings.is_err() && d.rule.id == crate::rules::env::DUPLICATE_KEY.id {
        ensure!(
            written.iter().any(|root| root.names(&d.pointer)),
            "{} pointer {} names no member of the message as written",
            d.rule.id,
            d.pointer
        );
        return Ok(());
    }
    in_readings
}

/// A JSON value as written: an object keeps every member in order,
/// repeated names included (serde_json's `Value` keeps one), so that a
/// pointer can be followed through every value of a repeated member.
#[derive(Clone, Debug)]
pub enum Written {
    /// A number, string, boolean or null: nothing to follow.
    Scalar,
    /// The elements, in order.
    Array(Vec<Written>),
    /// The members in document order, each name as many times as it is written.
    Object(Vec<(String, Written)>),
}

impl Written {
    /// The value of JSON text `text`, or `None` for text serde_json does
    /// not read (not JSON, or nested beyond its recursion limit).
    pub fn parse(text: &str) -> Option<Written> {
        serde_json::from_str(&as_read(text)).ok()
    }

    /// Whether `pointer` names a value here, following every member of a
    /// repeated name, or a missing member of an object there (as
    /// `check_pointer` allows).
    pub fn names(&self, pointer: &str) -> bool {
        if pointer.is_empty() {
            return true;
        }
        let Some(tokens) = pointer.strip_prefix('/') else {
            return false;
        };
        let tokens: Vec<String> = tokens
            .split('/')
            .map(crate::text::unescape_pointer_token)
            .collect();
        let mut at: Vec<&Written> = vec![self];
        for (index, token) in tokens.iter().enumerate() {
            let next: Vec<&Written> = at.iter().flat_map(|node| node.step(token)).collect();
            if next.is_empty() {
                let last = index + 1 == tokens.len();
                return last && at.iter().any(|node| matches!(node, Written::Object(_)));
            }
            at = next;
        }
        true
    }

    /// The values `token` names here: every member of that name, or the
    /// element at that index (written as serde_json's pointers take it).
    fn step<'a>(&'a self, token: &'a str) -> Vec<&'a Written> {
        match self {
            Written::Object(members) => members
                .iter()
                .filter(|(name, _)| name == token)
                .map(|(_, value)| value)
                .collect(),
            Written::Array(items) => {
                let leading_zero = token.len() > 1 && token.starts_with('0');
                let canonical = !(token.starts_with('+') || leading_zero);
                let index = token.parse::<usize>().ok().filter(|_| canonical);
                index.and_then(|i| items.get(i)).into_iter().collect()
            }
            Written::Scalar => Vec::new(),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Written {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Written;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Written, E> {
                Ok(Written::Scalar)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Written, E> {
                Ok(Written::Scalar)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Written, E> {
                Ok(Written::Scalar)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Written, E> {
                Ok(Written::Scalar)
            }
            fn visit_str<E>(self, _: &str) -> Result<Written, E> {
                Ok(Written::Scalar)
            }
            fn visit_unit<E>(self) -> Result<Written, E> {
                Ok(Written::Scalar)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Written, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Written::Array(items))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Written, A::Error> {
                let mut members = Vec::new();
                while let Some((name, value)) = map.next_entry::<String, Written>()? {
                    members.push((name, value));
                }
                Ok(Written::Object(members))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// The distinct readings of a JSON text as values (one when no member
/// name repeats; see [`crate::trace::readings`]), each parsed by
/// serde_json. Readings serde_json will not build (a number beyond f64, an
/// unpaired surrogate) are left out.
pub(crate) fn readings_of(text: &str) -> Vec<Value> {
    crate::trace::readings(text)
        .texts
        .iter()
        .filter_map(|reading| read_value(reading).ok())
        .collect()
}

/// `json` as the suite reads it ([`crate::trace::interop`]): an unpaired
/// surrogate escape, even in a member name, as U+FFFD, and a number beyond
/// the range of doubles as the largest double, so that serde_json builds
/// the value the validator checked instead of refusing it.
pub(crate) fn as_read(json: &str) -> std::borrow::Cow<'_, str> {
    match crate::trace::interop::scan(json, 0) {
        Some(scanned) => std::borrow::Cow::Owned(scanned.readable),
        None => std::borrow::Cow::Borrowed(json),
    }
}

/// A JSON value as the suite reads it ([`as_read`]).
pub(crate) fn read_value(json: &str) -> serde_json::Result<Value> {
    serde_json::from_str(&as_read(json))
}

/// Nesting depth of arrays and objects (a scalar is 0).
pub(crate) fn json_depth(value: &Value) -> usize {
    // Iterative: the oracle must not overflow the stack the checked code guards.
    let mut deepest = 0;
    let mut stack = vec![(value, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(members) => Box::new(members.values()),
            _ => continue,
        };
        deepest = deepest.max(depth + 1);
        stack.extend(children.map(|c| (c, depth + 1)));
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::shape::UNKNOWN_FIELD;

    /// serde_json keeps the last value of a repeated member; the validator
    /// checks every value, so its pointers may name the first.
    #[test]
    fn pointers_may_name_any_reading_of_a_repeated_member() {
        let text = r#"{"plan":{"entries":[{"contknt":"a"}]},"plan":{"content":"b"}}"#;
        let readings = readings_of(text);
        assert_eq!(readings.len(), 2);
        let first = Diagnostic::new(&UNKNOWN_FIELD, "").at("/plan/entries/0/contknt");
        let last_only: Value = serde_json::from_str(text).unwrap();
        assert!(check_pointer(&first, &last_only).is_err());
        assert!(check_pointer_in_readings(&first, &readings).is_ok());
        let nowhere = Diagnostic::new(&UNKNOWN_FIELD, "").at("/plan/entries/1/x");
        assert!(check_pointer_in_readings(&nowhere, &readings).is_err());
        assert!(check_pointer_in_readings(&first, &[]).is_err());
    }

    /// Past `MAX_READINGS` readings, the ninth value of `content` is in
    /// no reading; the repeated `s` inside it is still reported, at its
    /// place in the text.
    #[test]
    fn a_repeat_in_a_value_no_reading_holds_is_named_as_written() {
        let text = r#"{"content":0,"content":1,"content":2,"content":3,"content":4,
            "content":5,"content":6,"content":7,"content":{"x":{"s":1,"s":2}},"content":9}"#;
        let readings = readings_of(text);
        let written = [Written::parse(text).unwrap()];
        assert!(!crate::trace::readings(text).complete);
        let repeat = crate::rules::env::duplicate_member("/content/x/s", "s", "");
        assert!(check_pointer_in_readings(&repeat, &readings).is_err());
        assert!(check_pointer_in_message(&repeat, &readings, &written).is_ok());
        // Only a repeated member's report is read against the text: any
        // other diagnostic still points into a reading.
        let other = Diagnostic::new(&UNKNOWN_FIELD, "").at("/content/x/s");
        assert!(check_pointer_in_message(&other, &readings, &written).is_err());
        let nowhere = crate::rules::env::duplicate_member("/content/y/s", "s", "");
        assert!(check_pointer_in_message(&nowhere, &readings, &written).is_err());
    }

    #[test]
    fn written_values_follow_every_member_of_a_name() {
        let written = Written::parse(r#"{"a":[{"b":1}],"a":{"c":{"d~/":2}},"e":3}"#).unwrap();
        for named in [
            "",
            "/a/0/b",
            "/a/c/d~0~1",
            "/a/0/missing",
            "/a/c/missing",
            "/e",
        ] {
            assert!(written.names(named), "{named}");
        }
        for not_named in ["a", "/a/0/b/x", "/e/x", "/a/c/d~0~1/x", "/x/y"] {
            assert!(!written.names(not_named), "{not_named}");
        }
        // Indexes as serde_json's pointers take them.
        let array = Written::parse("[[1]]").unwrap();
        assert!(array.names("/0/0"));
        for not_named in ["/00/0", "/+0/0", "/0/1", "/1/0"] {
            assert!(!array.names(not_named), "{not_named}");
        }
    }
}
