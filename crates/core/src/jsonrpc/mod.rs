//! Trace records to JSON-RPC 2.0 frames with a direction.
//!
//! [`classify`] says what a message object is and what is wrong with its
//! frame; [`Correlator`] pairs responses with requests per direction and
//! infers directions for bare messages. Neither decides rules: they report
//! facts that `rules::env` turns into diagnostics.

mod correlate;
mod methods;

pub use correlate::{Correlator, Pending, RequestOutcome, ResponseOutcome};
pub use methods::{direction_of_method, METHODS};

use crate::trace::interop::{read_string, scan, Unpredictable};
use crate::trace::LineObject;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::fmt;

/// Who sent a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// From the client to the agent.
    ClientToAgent,
    /// From the agent to the client.
    AgentToClient,
}

impl Direction {
    /// The other direction.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::ClientToAgent => Direction::AgentToClient,
            Direction::AgentToClient => Direction::ClientToAgent,
        }
    }

    /// The direction as traces and reports spell it (`client_to_agent`).
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::ClientToAgent => "client_to_agent",
            Direction::AgentToClient => "agent_to_client",
        }
    }

    /// The party that sends in this direction.
    pub fn sender(self) -> &'static str {
        match self {
            Direction::ClientToAgent => "client",
            Direction::AgentToClient => "agent",
        }
    }

    pub(crate) fn index(self) -> usize {
        match self {
            Direction::ClientToAgent => 0,
            Direction::AgentToClient => 1,
        }
    }

    /// Reads a direction as [`Direction::as_str`] spells it.
    pub fn parse(text: &str) -> Option<Direction> {
        match text {
            "client_to_agent" => Some(Direction::ClientToAgent),
            "agent_to_client" => Some(Direction::AgentToClient),
            _ => None,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A request id in canonical JSON text, so `1` and `"1"` differ while
/// `"\u0061"` equals `"a"` and `1.0` equals `1` (the same JSON value).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(smol_str::SmolStr);

impl Id {
    /// The id as JSON text, e.g. `1` or `"abc"`.
    pub fn as_json(&self) -> &str {
        &self.0
    }

    #[cfg(test)]
    fn from_raw(raw: &RawValue) -> Option<Id> {
        Id::read(raw).map(|(id, _)| id)
    }

    /// The id, and what in it readers may read differently: an unpaired
    /// surrogate escape in a string (read as U+FFFD) or a number beyond the
    /// range of doubles (read as the largest double of its sign), so that a
    /// request and its answer still pair.
    fn read(raw: &RawValue) -> Option<(Id, Option<Unpredictable>)> {
        let text = raw.get();
        if text.starts_with('"') && text.contains("\\u") {
            let (value, found) = read_string(text)?;
            return Some((
                Id(serde_json::Value::String(value).to_string().into()),
                found,
            ));
        }
        if let Some(id) = Id::canonical(text) {
            return Some((id, None));
        }
        // serde_json refuses a number beyond the range of doubles (`1e400`),
        // which is still a number.
        if !matches!(text.as_bytes().first(), Some(b'-' | b'0'..=b'9')) {
            return None;
        }
        let scanned = scan(text, 1)?;
        let id = Id::canonical(&scanned.readable)?;
        Some((id, scanned.found.into_iter().next()))
    }

    fn canonical(text: &str) -> Option<Id> {
        match text.as_bytes().first() {
            // Plain strings and integers are already canonical; skip the round trip.
            Some(b'"') if !text.contains('\\') => Some(Id(text.into())),
            Some(b'-' | b'0'..=b'9')
                if !text.starts_with("-0")
                    && text.bytes().all(|b| b == b'-' || b.is_ascii_digit())
                    && !beyond_double(text) =>
            {
                Some(Id(text.into()))
            }
            _ => match serde_json::from_str::<serde_json::Value>(text).ok()? {
                serde_json::Value::Number(n) => Some(Id(canonical_number(&n).into())),
                v @ (serde_json::Value::String(_) | serde_json::Value::Null) => {
                    Some(Id(v.to_string().into()))
                }
                _ => None,
            },
        }
    }

    /// Whether the id is `null`, which answers a request the peer could not read (JSON-RPC 2.0
    /// §5) and so pairs with none.
    pub fn is_null(&self) -> bool {
        self.0 == "null"
    }
}

/// Whether the integer `digits` is beyond the range of doubles (309 digits
/// or more), which [`Id::read`] reads and says like `1e400` (the one-pass
/// read leaves such an id to it).
pub(crate) fn beyond_double(digits: &str) -> bool {
    digits_beyond_double(digits.as_bytes())
}

/// [`beyond_double`] of digits as bytes: a run this short is within range
/// without being read as a number (or as UTF-8).
pub(crate) fn digits_beyond_double(digits: &[u8]) -> bool {
    digits.len() > 308
        && std::str::from_utf8(digits)
            .ok()
            .and_then(|digits| digits.parse::<f64>().ok())
            .is_none_or(f64::is_infinite)
}

/// A number as an integer when it has an exact integer value (`1.0`, `1e0`
/// and `-0` are `1`, `1` and `0`), else as serde_json writes it.
fn canonical_number(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        return n.to_string();
    }
    match n.as_f64() {
        // Below 2^53 every integral f64 is exact.
        Some(f) if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
            format!("{}", f as i64)
        }
        _ => n.to_string(),
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::text::shorten(&self.0, 80))
    }
}

/// A classified JSON-RPC message.
#[derive(Debug)]
pub enum Frame<'a> {
    /// A message with `method` and `id`: it expects a response.
    Request {
        /// The request's id, canonical.
        id: Id,
        /// The method name (an unpaired surrogate read as U+FFFD).
        method: String,
        /// The raw `params`, when present.
        params: Option<&'a RawValue>,
    },
    /// A message with `method` and no `id`: no response is expected.
    Notification {
        /// The method name (an unpaired surrogate read as U+FFFD).
        method: String,
        /// The raw `params`, when present.
        params: Option<&'a RawValue>,
    },
    /// A message with `id` and `result` or `error` (both: a fault reported
    /// alongside); the answer to a request.
    Response {
        /// The id of the request answered (`null` for one the peer could not read).
        id: Id,
        /// The raw `result`, when present.
        result: Option<&'a RawValue>,
        /// The raw `error`, when present.
        error: Option<&'a RawValue>,
    },
}

impl Frame<'_> {
    /// The method of a request or notification; `None` for a response.
    pub fn method(&self) -> Option<&str> {
        match self {
            Frame::Request { method, .. } | Frame::Notification { method, .. } => Some(method),
            Frame::Response { .. } => None,
        }
    }

    /// The `params` of a request or notification; `None` for a response (or when absent).
    pub fn params(&self) -> Option<&RawValue> {
        match self {
            Frame::Request { params, .. } | Frame::Notification { params, .. } => *params,
            Frame::Response { .. } => None,
        }
    }
}

/// Something wrong with a message's JSON-RPC frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameFault {
    /// `jsonrpc` missing or not exactly "2.0".
    Version {
        /// What `jsonrpc` holds (its JSON text, shortened), `None` when it is missing.
        found: Option<String>,
    },
    /// `method` present but not a string.
    MethodNotString,
    /// An `id` but no `method`, `result` or `error`.
    MissingMethod,
    /// `id` is not a string, number or null.
    IdType,
    /// A response with both `result` and `error`.
    ResultAndError,
    /// A response without an `id` member.
    ResponseWithoutId,
    /// `params` present but neither an object nor an array.
    ParamsType,
    /// A string `method` or `id` holding an unpaired surrogate escape: read
    /// as U+FFFD, and the message still classified.
    Unpredictable {
        /// The member: `"method"` or `"id"`.
        member: &'static str,
        /// The escape found, and where.
        found: Unpredictable,
    },
}

/// Classify a message object. A frame comes back whenever the message can
/// still be understood, alongside any faults.
pub fn classify<'a>(object: &LineObject<'a>) -> (Option<Frame<'a>>, Vec<FrameFault>) {
    let mut faults = Vec::new();
    match object.jsonrpc.map(RawValue::get) {
        Some("\"2.0\"") => {}
        // Compared by value: "2\u002e0" is "2.0".
        Some(escaped)
            if escaped.contains('\\')
                && serde_json::from_str::<String>(escaped).is_ok_and(|v| v == "2.0") => {}
        found => faults.push(FrameFault::Version {
            found: found.map(|s| crate::text::shorten(s, 40)),
        }),
    }
    let id = match object.id {
        None => None,
        Some(raw) => match Id::read(raw) {
            Some((id, found)) => {
                if let Some(found) = found {
                    faults.push(FrameFault::Unpredictable {
                        member: "id",
                        found,
                    });
                }
                Some(id)
            }
            None => {
                faults.push(FrameFault::IdType);
                return (None, faults);
            }
        },
    };
    if let Some(params) = object.params {
        if !matches!(params.get().as_bytes().first(), Some(b'{' | b'[')) {
            faults.push(FrameFault::ParamsType);
        }
    }
    if let Some(method) = object.method {
        let Some((method, found)) = read_string(method.get()) else {
            faults.push(FrameFault::MethodNotString);
            return (None, faults);
        };
        if let Some(found) = found {
            faults.push(FrameFault::Unpredictable {
                member: "method",
                found,
            });
        }
        let params = object.params;
        let frame = match id {
            Some(id) => Frame::Request { id, method, params },
            None => Frame::Notification { method, params },
        };
        return (Some(frame), faults);
    }
    match (object.result, object.error) {
        (None, None) => {
            faults.push(FrameFault::MissingMethod);
            (None, faults)
        }
        (result, error) => {
            if result.is_some() && error.is_some() {
                faults.push(FrameFault::ResultAndError);
            }
            match id {
                Some(id) => (Some(Frame::Response { id, result, error }), faults),
                None => {
                    faults.push(FrameFault::ResponseWithoutId);
                    (None, faults)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::interop::UnpredictableKind;
    use crate::trace::{parse_record, Record};

    fn classify_line(line: &str) -> (Option<String>, Vec<FrameFault>) {
        let Ok(Record::Bare(object)) = parse_record(line.as_bytes(), 64) else {
            panic!("not a bare record: {line}");
        };
        let (frame, faults) = classify(&object);
        (frame.map(|f| format!("{f:?}")), faults)
    }

    #[test]
    fn well_formed_frames() {
        let (f, faults) =
            classify_line(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#);
        assert!(faults.is_empty());
        assert!(f.unwrap().starts_with("Request"));
        let (f, faults) = classify_line(r#"{"jsonrpc":"2.0","method":"session/update"}"#);
        assert!(faults.is_empty());
        assert!(f.unwrap().starts_with("Notification"));
        let (f, faults) = classify_line(r#"{"jsonrpc":"2.0","id":"a","result":null}"#);
        assert!(faults.is_empty());
        assert!(f.unwrap().starts_with("Response"));
    }

    #[test]
    fn frame_faults() {
        assert_eq!(
            classify_line(r#"{"jsonrpc":"1.0","method":"x"}"#).1,
            vec![FrameFault::Version {
                found: Some("\"1.0\"".into())
            }]
        );
        assert_eq!(
            classify_line(r#"{"method":"x"}"#).1,
            vec![FrameFault::Version { found: None }]
        );
        assert_eq!(
            classify_line(r#"{"jsonrpc":"2.0","id":1}"#).1,
            vec![FrameFault::MissingMethod]
        );
        assert_eq!(
            classify_line(r#"{"jsonrpc":"2.0","id":{},"method":"x"}"#).1,
            vec![FrameFault::IdType]
        );
        assert_eq!(
            classify_line(r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{}}"#).1,
            vec![FrameFault::ResultAndError]
        );
        assert_eq!(
            classify_line(r#"{"jsonrpc":"2.0","method":5}"#).1,
            vec![FrameFault::MethodNotString]
        );
        assert_eq!(
            classify_line(r#"{"jsonrpc":"2.0","method":"x","params":3}"#).1,
            vec![FrameFault::ParamsType]
        );
    }

    #[test]
    fn half_a_character_in_method_or_id_is_read_and_said() {
        let (frame, faults) =
            classify_line(r#"{"jsonrpc":"2.0","id":"t\ud83d","method":"_x\ud800"}"#);
        let frame = frame.expect("still a request");
        assert!(frame.contains("method: \"_x\u{fffd}\""), "{frame}");
        assert_eq!(
            faults
                .iter()
                .map(|f| match f {
                    FrameFault::Unpredictable { member, found } => (*member, found.kind),
                    other => panic!("{other:?}"),
                })
                .collect::<Vec<_>>(),
            [
                ("id", UnpredictableKind::UnpairedSurrogate),
                ("method", UnpredictableKind::UnpairedSurrogate)
            ]
        );
        // The answer's id is read the same way, so it pairs.
        let raw = |s: &str| Id::from_raw(&serde_json::from_str::<Box<RawValue>>(s).unwrap());
        assert_eq!(raw(r#""t\ud83d""#), raw(r#""t\ufffd""#));
        assert!(raw(r#""t\ud83d""#).is_some());
    }

    #[test]
    fn an_id_beyond_the_range_of_doubles_is_a_number_read_and_said() {
        for (line, kind) in [
            (r#"{"jsonrpc":"2.0","id":1e400,"method":"x"}"#, "Request"),
            (r#"{"jsonrpc":"2.0","id":-1E999,"result":{}}"#, "Response"),
        ] {
            let (frame, faults) = classify_line(line);
            assert!(frame.expect(line).starts_with(kind), "{line}");
            match faults.as_slice() {
                [FrameFault::Unpredictable { member, found }] => {
                    assert_eq!(*member, "id");
                    assert_eq!(found.kind, UnpredictableKind::NumberBeyondDouble);
                }
                other => panic!("{line}: {other:?}"),
            }
        }
        // Read as the largest double of its sign, as the payload rules read
        // such numbers, so a request and its answer pair.
        let raw = |s: &str| Id::from_raw(&serde_json::from_str::<Box<RawValue>>(s).unwrap());
        assert_eq!(raw("1e400"), raw("1.7976931348623157e308"));
        assert_eq!(raw("-1e999"), raw("-1.7976931348623157e308"));
        // Also when written out in digits.
        let digits = format!("1{}", "0".repeat(400));
        assert_eq!(raw(&digits), raw("1e400"));
        let (_, faults) = classify_line(&format!(
            r#"{{"jsonrpc":"2.0","id":{digits},"method":"x"}}"#
        ));
        assert!(
            matches!(
                faults.as_slice(),
                [FrameFault::Unpredictable { member: "id", .. }]
            ),
            "{faults:?}"
        );
        // An integer within range keeps its digits, however long.
        let long = format!("1{}", "0".repeat(300));
        assert_eq!(
            raw(&long).map(|id| id.as_json().to_owned()),
            Some(long.clone())
        );
        assert_ne!(raw("1e400"), raw("-1e400"));
        assert!(raw("1e400").is_some());
    }

    #[test]
    fn ids_are_canonical() {
        let raw = |s: &str| Id::from_raw(&serde_json::from_str::<Box<RawValue>>(s).unwrap());
        assert_eq!(raw("\"\\u0061\""), raw("\"a\""));
        assert_ne!(raw("1"), raw("\"1\""));
        // The same number however it is written.
        assert_eq!(raw("1.0"), raw("1"));
        assert_eq!(raw("1e2"), raw("100"));
        assert_eq!(raw("-0"), raw("0"));
        assert_eq!(raw("-0.0"), raw("0"));
        assert_ne!(raw("1.5"), raw("1"));
        assert_eq!(raw("[1]"), None);
    }
}
