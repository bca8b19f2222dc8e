//! One line to one record: a bare JSON-RPC message or an envelope.

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

/// The members of a line's top-level object that anyone downstream reads,
/// borrowed from the line. Payloads stay raw until a rule needs them.
/// Each member is `Some` when the line has it, even as `null`: absent and
/// `null` break different rules.
#[derive(Debug, Default)]
pub struct LineObject<'a> {
    /// The protocol version, which must be exactly `"2.0"`.
    pub jsonrpc: Option<&'a RawValue>,
    /// The request or response id, raw; [`crate::jsonrpc::Id`] reads it canonical.
    pub id: Option<&'a RawValue>,
    /// The method name of a request or notification, raw (a non-string is a frame fault).
    pub method: Option<&'a RawValue>,
    /// The method's parameters, raw, read by the plan layer when the method is ACP's.
    pub params: Option<&'a RawValue>,
    /// A response's result, raw.
    pub result: Option<&'a RawValue>,
    /// A response's error object, raw.
    pub error: Option<&'a RawValue>,
    // Envelope members.
    /// The envelope's `direction` (`"client_to_agent"` or `"agent_to_client"`).
    pub direction: Option<&'a RawValue>,
    /// The envelope's wrapped JSON-RPC message.
    pub message: Option<&'a RawValue>,
    /// The envelope's optional timestamp; only its type is checked.
    pub time: Option<&'a RawValue>,
}

impl LineObject<'_> {
    /// The members read, by name, in the order of the fields.
    pub const MEMBERS: [&'static str; 9] = [
        "jsonrpc",
        "id",
        "method",
        "params",
        "result",
        "error",
        "direction",
        "message",
        "time",
    ];
}

/// Read from a JSON object only (not from an array, as a derived struct
/// would be), each member `Some` when it is there, even as `null`; any
/// other member skipped, whatever its name (even one holding half of a
/// character, which a derived read fails on).
impl<'de> Deserialize<'de> for LineObject<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let [jsonrpc, id, method, params, result, error, direction, message, time] =
            super::names::read_fields(d, &LineObject::MEMBERS)?;
        Ok(LineObject {
            jsonrpc,
            id,
            method,
            params,
            result,
            error,
            direction,
            message,
            time,
        })
    }
}

/// Whether a raw JSON value is an object. Check it before reading a struct
/// from raw JSON: serde would also read a struct from an array, by position.
pub fn is_object(raw: &RawValue) -> bool {
    raw.get().trim_start().starts_with('{')
}

/// `Some` for a member that is there, even when its value is `null`.
fn present<'de: 'a, 'a, D: Deserializer<'de>>(d: D) -> Result<Option<&'a RawValue>, D::Error> {
    <&'a RawValue>::deserialize(d).map(Some)
}

/// What a line holds.
#[derive(Debug)]
pub enum Record<'a> {
    /// A bare JSON-RPC message; its direction must be inferred.
    Bare(LineObject<'a>),
    /// An envelope: the direction as written, and the message; `remarks`
    /// are faults of the envelope that do not stop its message being read.
    Envelope {
        /// The `direction` as written, already one of the two values.
        direction: &'a str,
        /// The wrapped message's members.
        message: LineObject<'a>,
        /// The envelope's faults, at most a few named per line.
        remarks: Vec<EnvelopeRemark>,
    },
}

/// Something wrong with an envelope that still leaves its message readable
/// (the message is checked all the same: nothing hides a violation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvelopeRemark {
    /// `time` is there but not a string (its JSON type).
    TimeNotString {
        /// The JSON type `time` has instead, as the report says it (`"a number"`, `"null"`, …).
        found: &'static str,
    },
    /// A member other than direction, message and time.
    UnknownMember {
        /// The member's name as written (shortened for the report).
        name: String,
    },
}

/// Why a line is not a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordFault {
    /// The line is not UTF-8.
    NotUtf8 {
        /// The 1-based byte column of the first byte that is not UTF-8.
        column: usize,
    },
    /// The line is not JSON (serde_json's verdict).
    NotJson {
        /// The 1-based byte column where reading failed.
        column: usize,
        /// serde_json's message, without its own position.
        reason: String,
    },
    /// The line nests deeper than the limit; it is not parsed, so a hostile line cannot exhaust
    /// the stack.
    TooDeep {
        /// The depth limit in force (the configured one, capped at what the reader supports).
        limit: usize,
    },
    /// The top-level value is an array: a JSON-RPC batch.
    Batch,
    /// The top-level value (or the envelope's `message`) is not an object.
    NotObject {
        /// Whether the object is the envelope's `message` rather than the line itself.
        in_envelope: bool,
    },
    /// One of the members read ([`LineObject::MEMBERS`]) appears twice in the
    /// object, so its value depends on the reader; the validator then reads
    /// the line once per reading (nothing hides a violation).
    DuplicateKey {
        /// serde_json's message naming the member, without its position.
        reason: String,
        /// Whether the repeat is in the envelope's `message` rather than the line itself.
        in_envelope: bool,
    },
    /// An envelope whose `direction` is not one of the two values.
    BadDirection {
        /// The `direction` value as written.
        found: String,
    },
    /// An envelope without `message`.
    MissingMessage,
    /// An envelope with members other than direction, message and time.
    EnvelopeMember,
}

/// A line read in one pass: the members of [`LineObject`], with an
/// envelope's `message` parsed straight into its own [`LineObject`] rather
/// than kept raw and parsed again. Only for well-formed lines: any error
/// (an unknown member too) sends the line down the exact path, which names
/// the fault.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OnePassLine<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    result: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    error: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    direction: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "message_object")]
    message: Option<LineObject<'a>>,
    #[serde(default, borrow, deserialize_with = "present")]
    time: Option<&'a RawValue>,
}

/// An envelope's `message`, only when it is a JSON object (serde would
/// also read a struct from an array).
fn message_object<'de: 'a, 'a, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<LineObject<'a>>, D::Error> {
    struct ObjectOnly;
    impl<'de> serde::de::Visitor<'de> for ObjectOnly {
        type Value = LineObject<'de>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON-RPC message object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            LineObject::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_map(ObjectOnly).map(Some)
}

/// The deepest nesting a line may have, whatever `--max-depth` says: the
/// payloads the rules read are parsed by serde_json, whose recursion limit
/// is 128 levels, and a payload sits at least one level inside its line.
pub const MAX_SUPPORTED_DEPTH: usize = 128;

/// Parse one non-blank line of a trace.
pub fn parse_record(line: &[u8], max_depth: usize) -> Result<Record<'_>, RecordFault> {
    if let Some(record) = parse_record_one_pass(line, max_depth) {
        return Ok(record);
    }
    parse_record_exact(line, max_depth)
}

/// The common case in one pass over the line, or `None` when the line is
/// anything but a well-formed bare message or envelope.
fn parse_record_one_pass(line: &[u8], max_depth: usize) -> Option<Record<'_>> {
    let text = std::str::from_utf8(line).ok()?;
    let max_depth = max_depth.min(MAX_SUPPORTED_DEPTH);
    if text.trim_start().as_bytes().first() != Some(&b'{') || nesting_exceeds(line, max_depth) {
        return None;
    }
    let read = serde_json::from_str::<OnePassLine<'_>>(text).ok()?;
    let object = LineObject {
        jsonrpc: read.jsonrpc,
        id: read.id,
        method: read.method,
        params: read.params,
        result: read.result,
        error: read.error,
        direction: read.direction,
        message: None,
        time: read.time,
    };
    match (read.direction, read.message) {
        (None, None) => Some(Record::Bare(object)),
        (Some(direction), Some(message))
            if !has_message_members(&object)
                && read.time.is_none_or(|t| t.get().starts_with('"')) =>
        {
            let direction = match direction.get() {
                "\"client_to_agent\"" => "client_to_agent",
                "\"agent_to_client\"" => "agent_to_client",
                _ => return None,
            };
            Some(Record::Envelope {
                direction,
                message,
                remarks: Vec::new(),
            })
        }
        _ => None,
    }
}

fn has_message_members(object: &LineObject<'_>) -> bool {
    object.jsonrpc.is_some()
        || object.id.is_some()
        || object.method.is_some()
        || object.params.is_some()
        || object.result.is_some()
        || object.error.is_some()
}

/// Every layer on its own, so that the first fault found is the one named.
fn parse_record_exact(line: &[u8], max_depth: usize) -> Result<Record<'_>, RecordFault> {
    let object = parse_message(line, max_depth)?;
    let is_envelope = object.direction.is_some() || object.message.is_some();
    if !is_envelope {
        return Ok(Record::Bare(object));
    }
    if has_message_members(&object) {
        return Err(RecordFault::EnvelopeMember);
    }
    let direction = match object.direction {
        // Compared by value: `"agent\u005fto_client"` is a direction too.
        Some(raw) => {
            match serde_json::from_str::<std::borrow::Cow<'_, str>>(raw.get()).as_deref() {
                Ok("client_to_agent") => "client_to_agent",
                Ok("agent_to_client") => "agent_to_client",
                _ => {
                    return Err(RecordFault::BadDirection {
                        found: crate::text::shorten(raw.get(), 60),
                    })
                }
            }
        }
        None => {
            return Err(RecordFault::BadDirection {
                found: "(missing)".into(),
            })
        }
    };
    let message = object.message.ok_or(RecordFault::MissingMessage)?;
    let message = parse_object(message.get(), true)?;
    Ok(Record::Envelope {
        direction,
        message,
        remarks: envelope_remarks(&object, line),
    })
}

/// The envelope remarks (`time` not a string, unknown members) of an envelope whose message the one-object read
/// refused (a repeated member name, a batch): the message is read another
/// way, and the envelope's own faults must not go with it. None for a line
/// that is not an object.
pub fn remarks_of_envelope(line: &[u8], max_depth: usize) -> Vec<EnvelopeRemark> {
    parse_message(line, max_depth)
        .map(|object| envelope_remarks(&object, line))
        .unwrap_or_default()
}

/// What the trace format says against an envelope that is otherwise
/// readable: a `time` that is not a string, members it does not define.
fn envelope_remarks(object: &LineObject<'_>, line: &[u8]) -> Vec<EnvelopeRemark> {
    let mut remarks = Vec::new();
    if let Some(time) = object.time {
        if !time.get().starts_with('"') {
            remarks.push(EnvelopeRemark::TimeNotString {
                found: crate::text::json_type_of_raw(time.get()),
            });
        }
    }
    let text = std::str::from_utf8(line).unwrap_or_default();
    let _ = super::unique::each_member(text, |name, _| {
        if !matches!(name, "direction" | "message" | "time") {
            if remarks.len() >= MAX_ENVELOPE_REMARKS {
                return None;
            }
            remarks.push(EnvelopeRemark::UnknownMember {
                name: crate::text::shorten(name, 60),
            });
        }
        Some(())
    });
    remarks
}

/// Envelope remarks named per line (a hostile envelope can carry millions
/// of members).
const MAX_ENVELOPE_REMARKS: usize = 8;

/// Parse one message line as it travels on the wire (no envelope).
pub fn parse_message(line: &[u8], max_depth: usize) -> Result<LineObject<'_>, RecordFault> {
    let text = std::str::from_utf8(line).map_err(|e| RecordFault::NotUtf8 {
        column: e.valid_up_to() + 1,
    })?;
    let max_depth = max_depth.min(MAX_SUPPORTED_DEPTH);
    if nesting_exceeds(text.as_bytes(), max_depth) {
        return Err(RecordFault::TooDeep { limit: max_depth });
    }
    parse_object(text, false)
}

fn parse_object(text: &str, in_envelope: bool) -> Result<LineObject<'_>, RecordFault> {
    let first = text.trim_start().as_bytes().first().copied();
    if first != Some(b'{') {
        // serde would read a struct from an array too: decide on the shape first.
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
            return Err(not_json(&e, text));
        }
        return Err(match first {
            Some(b'[') if !in_envelope => RecordFault::Batch,
            _ => RecordFault::NotObject { in_envelope },
        });
    }
    serde_json::from_str::<LineObject<'_>>(text).map_err(|e| {
        if e.is_syntax() || e.is_eof() {
            return not_json(&e, text);
        }
        // serde stops at the first repeated member; the rest of the line
        // may not even be JSON, which is the graver fault.
        if let Err(syntax) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
            return not_json(&syntax, text);
        }
        RecordFault::DuplicateKey {
            reason: strip_position(&e.to_string()),
            in_envelope,
        }
    })
}

fn not_json(e: &serde_json::Error, text: &str) -> RecordFault {
    let mut column = e.column();
    // serde_json names the column of a control character in a string it
    // decodes, and the one before it in a string it skips: the byte is
    // named, wherever it is.
    let is_control = |index: usize| text.as_bytes().get(index).is_some_and(|b| *b < 0x20);
    if e.line() == 1 && !is_control(column.wrapping_sub(1)) && is_control(column) {
        column += 1;
    }
    RecordFault::NotJson {
        column,
        reason: strip_position(&e.to_string()),
    }
}

/// serde_json appends " at line 1 column N"; the report prints its own location.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

/// Whether arrays and objects nest deeper than `limit` (strings are skipped).
fn nesting_exceeds(bytes: &[u8], limit: usize) -> bool {
    // Depth never exceeds the number of opening brackets (counting those in
    // strings too). Finding them is a vectorized search; the exact scan below
    // runs only for lines where the limit could be reached.
    if memchr::memchr2_iter(b'[', b'{', bytes).nth(limit).is_none() {
        return false;
    }
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_control_character_is_named_at_its_column() {
        // In a name (decoded), in a value (skipped), first in a string, in
        // an envelope's message, and two in a row.
        let lines: [(&[u8], usize); 5] = [
            (b"{\"a\x01b\":1}", 4),
            (b"{\"x\":\"a\x01b\"}", 8),
            (b"{\"x\":\"\x1f\"}", 7),
            (
                b"{\"direction\":\"agent_to_client\",\"message\":{\"m\":\"\x00\"}}",
                48,
            ),
            (b"{\"x\":\"\x01\x02\"}", 7),
        ];
        for (line, column) in lines {
            assert_eq!(line.get(column - 1).map(|b| *b < 0x20), Some(true));
            match parse_record(line, 8) {
                Err(RecordFault::NotJson { column: got, .. }) => {
                    assert_eq!(got, column, "{}", String::from_utf8_lossy(line))
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn bare_and_envelope() {
        let bare = parse_record(br#"{"jsonrpc":"2.0","method":"x"}"#, 8).unwrap();
        assert!(matches!(bare, Record::Bare(o) if o.method.unwrap().get() == "\"x\""));
        let env = parse_record(
            br#"{"direction":"agent_to_client","time":"t","message":{"jsonrpc":"2.0","id":null,"result":null}}"#,
            8,
        )
        .unwrap();
        match env {
            Record::Envelope {
                direction, message, ..
            } => {
                assert_eq!(direction, "agent_to_client");
                assert_eq!(message.id.unwrap().get(), "null");
                assert_eq!(message.result.unwrap().get(), "null");
                assert!(message.error.is_none());
            }
            other => panic!("expected envelope, got {other:?}"),
        }
    }

    #[test]
    fn faults() {
        assert!(matches!(
            parse_record(b"\xff", 8),
            Err(RecordFault::NotUtf8 { column: 1 })
        ));
        assert!(matches!(
            parse_record(b"{\"a\":", 8),
            Err(RecordFault::NotJson { .. })
        ));
        assert!(matches!(
            parse_record(b"[[[[1]]]]", 3),
            Err(RecordFault::TooDeep { limit: 3 })
        ));
        assert!(matches!(
            parse_record(b"[\"[[[[\"]", 3),
            Err(RecordFault::Batch)
        ));
        assert!(matches!(
            parse_record(b"42", 8),
            Err(RecordFault::NotObject { in_envelope: false })
        ));
        assert!(matches!(
            parse_record(b"42 x", 8),
            Err(RecordFault::NotJson { .. })
        ));
        assert!(matches!(
            parse_record(b"", 8),
            Err(RecordFault::NotJson { .. })
        ));
        assert!(matches!(
            parse_record(br#"{"id":1,"id":2}"#, 8),
            Err(RecordFault::DuplicateKey { .. })
        ));
        assert!(matches!(
            parse_record(br#"{"direction":"up","message":{}}"#, 8),
            Err(RecordFault::BadDirection { .. })
        ));
        assert!(matches!(
            parse_record(br#"{"direction":"client_to_agent"}"#, 8),
            Err(RecordFault::MissingMessage)
        ));
        assert!(matches!(
            parse_record(br#"{"direction":"client_to_agent","message":[]}"#, 8),
            Err(RecordFault::NotObject { in_envelope: true })
        ));
    }

    #[test]
    fn well_formed_records_take_the_one_pass() {
        let bare = br#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[1]}}"#;
        let envelope = br#"{"time":"t","message":{"jsonrpc":"2.0","id":1,"result":null},"direction":"agent_to_client"}"#;
        for line in [&bare[..], &envelope[..]] {
            let fast = parse_record_one_pass(line, 8).expect("one pass");
            let exact = parse_record_exact(line, 8).expect("exact");
            assert_eq!(format!("{fast:?}"), format!("{exact:?}"));
        }
        // Faults go down the exact path.
        for line in [
            &br#"{"direction":"agent_to_client","message":[]}"#[..],
            br#"{"direction":"agent_to_client","message":{"id":1,"id":2}}"#,
            br#"{"direction":"agent_to_client","message":{},"id":1}"#,
            br#"[{"jsonrpc":"2.0"}]"#,
            b"[[[[[[[[[[1]]]]]]]]]]",
        ] {
            assert!(parse_record_one_pass(line, 8).is_none());
        }
    }

    use proptest::prelude::*;

    fn member_value(message: BoxedStrategy<String>) -> impl Strategy<Value = String> {
        prop_oneof![
            Just("null".to_owned()),
            Just("1".to_owned()),
            Just("\"2.0\"".to_owned()),
            Just("\"x\"".to_owned()),
            Just("\"client_to_agent\"".to_owned()),
            Just("\"agent_to_client\"".to_owned()),
            Just("\"\\u0061gent_to_client\"".to_owned()),
            Just("[]".to_owned()),
            Just("[[[[[[[[[1]]]]]]]]]".to_owned()),
            Just("{\"a\":[1,{\"b\":\"}\"}]}".to_owned()),
            message,
        ]
    }

    fn object(message: BoxedStrategy<String>) -> impl Strategy<Value = String> {
        let mut keys = LineObject::MEMBERS.to_vec();
        keys.push("other");
        let key = prop::sample::select(keys);
        prop::collection::vec((key, member_value(message)), 0..6).prop_map(|members| {
            let members: Vec<String> = members
                .into_iter()
                .map(|(k, v)| format!("\"{k}\":{v}"))
                .collect();
            format!("{{{}}}", members.join(","))
        })
    }

    /// Mostly envelopes, in any member order, sometimes with a stray member.
    fn envelope(message: BoxedStrategy<String>) -> impl Strategy<Value = String> {
        let direction = prop::sample::select(vec![
            "\"client_to_agent\"",
            "\"agent_to_client\"",
            "\"up\"",
            "null",
        ]);
        let stray = prop::sample::select(vec!["", "\"time\":\"t\"", "\"id\":1", "\"message\":{}"]);
        (direction, message, stray, any::<prop::sample::Index>()).prop_map(
            |(direction, message, stray, order)| {
                let mut members = vec![
                    format!("\"direction\":{direction}"),
                    format!("\"message\":{message}"),
                ];
                if !stray.is_empty() {
                    members.insert(order.index(3), stray.to_owned());
                }
                format!("{{{}}}", members.join(","))
            },
        )
    }

    fn line() -> impl Strategy<Value = String> {
        let message = object(Just("{}".to_owned()).boxed()).boxed();
        let line = prop_oneof![object(message.clone()), envelope(message)];
        (
            prop::sample::select(vec!["", " ", "[", "x"]),
            line,
            prop::sample::select(vec!["", " ", "]", "}", "\r"]),
        )
            .prop_map(|(before, line, after)| format!("{before}{line}{after}"))
    }

    proptest! {
        #[test]
        fn one_pass_agrees_with_the_exact_path(line in line()) {
            let exact = parse_record_exact(line.as_bytes(), 8);
            if let Some(fast) = parse_record_one_pass(line.as_bytes(), 8) {
                let exact = exact.map_err(|e| TestCaseError::fail(format!("exact path: {e:?}")))?;
                prop_assert_eq!(format!("{fast:?}"), format!("{exact:?}"));
            }
        }
    }
}
