//! `frame`: raw bytes through line framing, UTF-8, JSON, nesting depth,
//! the envelope-or-bare decision and JSON-RPC classification.
//!
//! Every layer is compared with an oracle built on plain `serde_json::Value`:
//! lines are what splitting on `\n` gives; a record is accepted exactly when
//! the line is UTF-8 JSON of the right shape; the members the frame reads are
//! the members the value has; faults are claimed only when true.

use super::{as_read, ensure, json_depth, read_value, Checked};
use crate::jsonrpc::{classify, Frame, FrameFault};
use crate::trace::{parse_record, LineObject, LineReader, RawLine, Record, RecordFault};
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::io::BufReader;

/// Line limits tried: one that fuzz inputs often exceed, one they never do.
const LINE_LIMITS: [usize; 2] = [64, 1 << 20];
/// Read buffer sizes tried: framing must not depend on how reads are cut.
const READ_CAPACITIES: [usize; 4] = [1, 2, 7, 8192];
/// Depth limits tried, both below serde_json's own recursion limit so that
/// the oracle can measure the depth of anything the checker accepts.
const DEPTH_LIMITS: [usize; 2] = [4, 100];

/// The `frame` target: reads `data` as a trace under several line limits, read buffer sizes and
/// depth limits, and checks that framing does not depend on how reads are cut and that every
/// line's record and frame agree with a `serde_json::Value` oracle.
pub fn check(data: &[u8]) -> Checked {
    for max in LINE_LIMITS {
        let expected = expected_lines(data, max);
        for capacity in READ_CAPACITIES {
            let got = read_lines(data, max, capacity)?;
            ensure!(
                got == expected,
                "LineReader (limit {max}, reads of {capacity} bytes) gave {got:?}, splitting on \\n gives {expected:?}"
            );
        }
    }
    for line in expected_lines(data, usize::MAX) {
        if let Line::Bytes(bytes) = line {
            for depth in DEPTH_LIMITS {
                check_record(&bytes, depth)?;
            }
        }
    }
    Ok(())
}

#[derive(Debug, PartialEq, Eq)]
enum Line {
    Bytes(Vec<u8>),
    TooLong(u64),
}

/// The oracle for `LineReader`: split on `\n`, no line after a final `\n`,
/// one trailing `\r` stripped, a line over `max` bytes (counted before
/// stripping) reported by length.
fn expected_lines(data: &[u8], max: usize) -> Vec<Line> {
    let mut pieces: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if pieces.last().is_some_and(|last| last.is_empty()) {
        pieces.pop();
    }
    pieces
        .into_iter()
        .map(|piece| {
            if piece.len() > max {
                Line::TooLong(piece.len() as u64)
            } else {
                Line::Bytes(piece.strip_suffix(b"\r").unwrap_or(piece).to_vec())
            }
        })
        .collect()
}

fn read_lines(data: &[u8], max: usize, capacity: usize) -> Result<Vec<Line>, super::Broken> {
    let mut reader = LineReader::new(BufReader::with_capacity(capacity, data), max);
    let mut lines = Vec::new();
    let mut expected_no = 1;
    loop {
        let next = reader
            .next_line()
            .map_err(|e| super::Broken(format!("reading from memory failed: {e}")))?;
        let Some((no, line)) = next else { break };
        ensure!(
            no == expected_no,
            "line numbers skip: got {no}, expected {expected_no}"
        );
        expected_no += 1;
        lines.push(match line {
            RawLine::Bytes(bytes) => {
                ensure!(
                    bytes.len() <= max,
                    "a line of {} bytes came back under a limit of {max}",
                    bytes.len()
                );
                Line::Bytes(bytes.to_vec())
            }
            RawLine::TooLong { bytes } => Line::TooLong(bytes),
        });
        ensure!(
            reader.buffer_capacity() <= max.saturating_mul(2).max(64),
            "LineReader holds {} bytes under a limit of {max}",
            reader.buffer_capacity()
        );
    }
    Ok(lines)
}

/// The members of `LineObject`, by name.
const FRAME_MEMBERS: [&str; 9] = LineObject::MEMBERS;
const JSONRPC_MEMBERS: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];

/// What `parse_record` should make of a line, decided from a `Value`.
fn check_record(line: &[u8], max_depth: usize) -> Checked {
    let result = parse_record(line, max_depth);
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(e) => {
            let column = e.valid_up_to() + 1;
            ensure!(
                matches!(result, Err(RecordFault::NotUtf8 { column: c }) if c == column),
                "invalid UTF-8 (first bad byte at column {column}) read as {result:?}"
            );
            return Ok(());
        }
    };
    let valid_json = serde_json::from_str::<IgnoredAny>(text).is_ok();
    // Half of a character (an unpaired surrogate escape), in a name or a
    // string, is read as U+FFFD, as the suite reads it: the line is then
    // judged like any other, so that such a name cannot end the read.
    let readable = if valid_json {
        as_read(text)
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    let text = &*readable;
    let value = match serde_json::from_str::<Value>(text) {
        Ok(value) => value,
        Err(e) if valid_json && e.to_string().starts_with("recursion limit exceeded") => {
            // Deeper than serde_json's recursion limit, so deeper than
            // every limit tried here.
            ensure!(
                matches!(result, Err(RecordFault::TooDeep { .. })),
                "JSON nested deeper than 127 levels (limit {max_depth}) read as {result:?}"
            );
            return Ok(());
        }
        Err(_) if valid_json => {
            // Valid JSON that a `Value` cannot hold (a number beyond f64):
            // whatever the checker makes of it, the line is JSON.
            ensure!(
                !matches!(
                    result,
                    Err(RecordFault::NotJson { .. } | RecordFault::NotUtf8 { .. })
                ),
                "valid JSON {:?} read as {result:?}",
                crate::text::shorten(text, 200)
            );
            return Ok(());
        }
        Err(_) => {
            ensure!(
                matches!(
                    result,
                    Err(RecordFault::NotJson { .. } | RecordFault::TooDeep { .. })
                ),
                "invalid JSON {:?} read as {result:?}",
                crate::text::shorten(text, 200)
            );
            return Ok(());
        }
    };
    let depth = json_depth(&value);
    if depth > max_depth {
        ensure!(
            matches!(result, Err(RecordFault::TooDeep { limit }) if limit == max_depth),
            "JSON nested {depth} deep (limit {max_depth}) read as {result:?}"
        );
        return Ok(());
    }
    let object = match &value {
        Value::Object(object) => object,
        Value::Array(_) => {
            ensure!(
                matches!(result, Err(RecordFault::Batch)),
                "a top-level array read as {result:?}"
            );
            return Ok(());
        }
        _ => {
            ensure!(
                matches!(result, Err(RecordFault::NotObject { in_envelope: false })),
                "a top-level scalar read as {result:?}"
            );
            return Ok(());
        }
    };
    if has_duplicate_member(text, &FRAME_MEMBERS) {
        ensure!(
            matches!(
                result,
                Err(RecordFault::DuplicateKey {
                    in_envelope: false,
                    ..
                })
            ),
            "a line repeating a frame member read as {result:?}"
        );
        return Ok(());
    }
    let is_envelope = object.contains_key("direction") || object.contains_key("message");
    if !is_envelope {
        let Ok(Record::Bare(frame)) = &result else {
            return Err(super::Broken(format!(
                "a JSON object without envelope members read as {result:?}"
            )));
        };
        return check_message(frame, &value);
    }
    if JSONRPC_MEMBERS.iter().any(|m| object.contains_key(*m)) {
        ensure!(
            matches!(result, Err(RecordFault::EnvelopeMember)),
            "an envelope with JSON-RPC members read as {result:?}"
        );
        return Ok(());
    }
    let direction = match object.get("direction") {
        Some(Value::String(d)) if d == "client_to_agent" || d == "agent_to_client" => d.as_str(),
        _ => {
            ensure!(
                matches!(result, Err(RecordFault::BadDirection { .. })),
                "envelope direction {:?} read as {result:?}",
                object.get("direction")
            );
            return Ok(());
        }
    };
    let Some(message) = object.get("message") else {
        ensure!(
            matches!(result, Err(RecordFault::MissingMessage)),
            "an envelope without message read as {result:?}"
        );
        return Ok(());
    };
    if !message.is_object() {
        ensure!(
            matches!(result, Err(RecordFault::NotObject { in_envelope: true })),
            "an envelope whose message is not an object read as {result:?}"
        );
        return Ok(());
    }
    let message_text = raw_member(text, "message").unwrap_or_default();
    if has_duplicate_member(&message_text, &FRAME_MEMBERS) {
        ensure!(
            matches!(
                result,
                Err(RecordFault::DuplicateKey {
                    in_envelope: true,
                    ..
                })
            ),
            "an envelope message repeating a frame member read as {result:?}"
        );
        return Ok(());
    }
    match &result {
        Ok(Record::Envelope {
            direction: got,
            message: frame,
            remarks,
        }) => {
            ensure!(
                *got == direction,
                "envelope direction {direction} read as {got}"
            );
            let time_remark = remarks
                .iter()
                .any(|r| matches!(r, crate::trace::EnvelopeRemark::TimeNotString { .. }));
            let time_wrong = object.get("time").is_some_and(|t| !t.is_string());
            ensure!(
                time_remark == time_wrong,
                "envelope time {:?} remarked as {remarks:?}",
                object.get("time")
            );
            let unknown = object
                .keys()
                .any(|k| !matches!(k.as_str(), "direction" | "message" | "time"));
            let unknown_remark = remarks
                .iter()
                .any(|r| matches!(r, crate::trace::EnvelopeRemark::UnknownMember { .. }));
            ensure!(
                unknown == unknown_remark,
                "envelope members {:?} remarked as {remarks:?}",
                object.keys().collect::<Vec<_>>()
            );
            check_message(frame, message)
        }
        other => Err(super::Broken(format!(
            "a well-formed envelope read as {other:?}"
        ))),
    }
}

/// The frame's members are the message's members, and `classify` says what
/// the JSON-RPC 2.0 specification says about them.
fn check_message(frame: &LineObject<'_>, message: &Value) -> Checked {
    let members = [
        ("jsonrpc", frame.jsonrpc),
        ("id", frame.id),
        ("method", frame.method),
        ("params", frame.params),
        ("result", frame.result),
        ("error", frame.error),
    ];
    for (name, raw) in members {
        let got = raw.map(|r| read_value(r.get()));
        match (got, message.get(name)) {
            (None, None) => {}
            (Some(Ok(got)), Some(want)) if &got == want => {}
            (got, want) => {
                return Err(super::Broken(format!(
                    "member {name}: frame has {got:?}, message has {want:?}"
                )))
            }
        }
    }
    let (classified, faults) = classify(frame);
    let has = |f: &FrameFault| faults.contains(f);
    let version_ok = message.get("jsonrpc") == Some(&Value::from("2.0"));
    ensure!(
        version_ok
            != faults
                .iter()
                .any(|f| matches!(f, FrameFault::Version { .. })),
        "jsonrpc {:?} but faults {faults:?}",
        message.get("jsonrpc")
    );
    let params_ok = !matches!(message.get("params"), Some(v) if !v.is_object() && !v.is_array());
    ensure!(
        params_ok != has(&FrameFault::ParamsType),
        "params {:?} but faults {faults:?}",
        message.get("params")
    );
    let id = message.get("id");
    if matches!(
        id,
        Some(Value::Bool(_) | Value::Array(_) | Value::Object(_))
    ) {
        ensure!(
            has(&FrameFault::IdType) && classified.is_none(),
            "id {id:?} but faults {faults:?}"
        );
        return Ok(());
    }
    if let Some(method) = message.get("method") {
        let Value::String(method) = method else {
            ensure!(
                has(&FrameFault::MethodNotString) && classified.is_none(),
                "method {method:?} but faults {faults:?}"
            );
            return Ok(());
        };
        let (got_method, got_id) = match &classified {
            Some(Frame::Request { id, method, .. }) => (method, Some(id)),
            Some(Frame::Notification { method, .. }) => (method, None),
            other => {
                return Err(super::Broken(format!(
                    "a message with a method classified as {other:?}"
                )))
            }
        };
        ensure!(
            got_method == method,
            "method {method:?} classified as {got_method:?}"
        );
        return same_id(got_id, id);
    }
    let result = message.get("result");
    let error = message.get("error");
    if result.is_none() && error.is_none() {
        ensure!(
            has(&FrameFault::MissingMethod) && classified.is_none(),
            "no method, result or error, but faults {faults:?}"
        );
        return Ok(());
    }
    ensure!(
        (result.is_some() && error.is_some()) == has(&FrameFault::ResultAndError),
        "result {result:?} and error {error:?} but faults {faults:?}"
    );
    match (&classified, id) {
        (None, None) => {
            ensure!(
                has(&FrameFault::ResponseWithoutId),
                "a response without id, faults {faults:?}"
            );
            Ok(())
        }
        (Some(Frame::Response { id: got, .. }), Some(_)) => same_id(Some(got), id),
        (other, _) => Err(super::Broken(format!(
            "a response with id {id:?} classified as {other:?}"
        ))),
    }
}

fn same_id(got: Option<&crate::jsonrpc::Id>, want: Option<&Value>) -> Checked {
    let got_value = got.map(|id| read_value(id.as_json()).ok());
    match (got_value, want) {
        (None, None) => Ok(()),
        (Some(Some(got)), Some(want)) if same_value(&got, want) => Ok(()),
        (got, want) => Err(super::Broken(format!("id {want:?} classified as {got:?}"))),
    }
}

/// Whether two ids are the same JSON value: a number is its value however
/// it is written (`1.0`, `1e0` and `1` are one id).
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a == b,
            _ => match (a.as_u64(), b.as_u64()) {
                (Some(a), Some(b)) => a == b,
                _ => a.as_f64() == b.as_f64(),
            },
        },
        _ => a == b,
    }
}

/// Whether the object in `text` repeats one of `members` (serde_json's
/// `Value` keeps only the last, so the oracle reads the keys itself).
fn has_duplicate_member(text: &str, members: &[&str]) -> bool {
    let Ok(KeyList(keys)) = serde_json::from_str::<KeyList>(text) else {
        return false;
    };
    members
        .iter()
        .any(|m| keys.iter().filter(|k| k.as_str() == *m).count() > 1)
}

/// The text of the top-level member `name` of the object in `text`.
fn raw_member(text: &str, name: &str) -> Option<String> {
    let members: std::collections::HashMap<String, Box<serde_json::value::RawValue>> =
        serde_json::from_str(text).ok()?;
    members.get(name).map(|raw| raw.get().to_owned())
}

/// The keys of a JSON object, repeats included, in order.
struct KeyList(Vec<String>);

impl<'de> Deserialize<'de> for KeyList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = KeyList;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeyList, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value::<IgnoredAny>()?;
                    keys.push(key);
                }
                Ok(KeyList(keys))
            }
        }
        d.deserialize_map(Keys)
    }
}
