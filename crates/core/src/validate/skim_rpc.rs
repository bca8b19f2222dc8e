//! Requests, notifications and responses read in one pass without serde:
//! `session/new`, `session/prompt` and their results are most of the lines
//! of a trace with many sessions and short turns, and no rule reads more of
//! them, or of a `session/cancel`, than the frame (`jsonrpc`, `id`,
//! `method`) and a top-level `sessionId` of the params or result.
//!
//! [`RpcSkimmer::skim_rpc`] validates the whole line as JSON with the
//! primitives of [`super::skim`] (the same grammar, the same refusal of
//! control bytes, escapes in names, repeated members at any depth, deep
//! nesting and envelope members the exact path remarks on), and returns the
//! frame and that `sessionId`. It is as conservative: an id that is not a
//! plain string or a non-negative integer, a `method` or `sessionId` with an
//! escape or of another type, params that are not an object, a response
//! carrying `error`, a member other than the frame's, and every method whose
//! params a rule reads in full (`initialize`, `session/update`) send the
//! line down the exact path.
//! Property tests check that whatever it accepts, the exact path reads the
//! same frame and says nothing about, and that a validator gives the same
//! verdict with and without it.

use super::skim::{line_text, tokens, PlanCapture, Skim, Span};
use super::SkimFraming;

/// A well-formed request, notification or response, as the exact path
/// would read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkimmedRpc<'a> {
    /// The envelope's `direction`, `None` for a bare message.
    pub direction: Option<&'a str>,
    /// The id as canonical JSON text: a string with its quotes and without
    /// escapes, or a non-negative integer without leading zeros; `None`
    /// for a notification.
    pub id: Option<&'a str>,
    /// The request's method (without escapes); `None` for a response.
    pub method: Option<&'a str>,
    /// A string `sessionId` at the top level of the params (a request) or
    /// of the result (a response), without escapes.
    pub session: Option<&'a str>,
    /// The params or result have a `replayFrom` that is not `null`.
    pub replay_from: bool,
}

/// Reusable buffers for [`RpcSkimmer::skim_rpc`], so a line costs no
/// allocation.
#[derive(Default)]
pub struct RpcSkimmer {
    keys: Vec<(usize, usize)>,
    /// Unused here (no plan is read), but the skim's reader needs one.
    capture: PlanCapture,
}

/// Methods whose params a rule reads beyond `sessionId` and `replayFrom`:
/// never skimmed.
fn read_in_full(method: &[u8]) -> bool {
    matches!(method, b"initialize" | b"session/update")
}

impl RpcSkimmer {
    /// Read `line` in one pass if it is a well-formed request, notification
    /// or successful response whose frame is plain; `None` otherwise (then
    /// the exact path reads it).
    pub fn skim_rpc<'a>(
        &mut self,
        line: &'a [u8],
        max_depth: usize,
        framing: SkimFraming,
    ) -> Option<SkimmedRpc<'a>> {
        let mut skim = Skim::start(line, max_depth, &mut self.keys, &mut self.capture, true);
        let found = found_rpc(&mut skim, framing)?;
        skim.whitespace();
        if skim.at != line.len() {
            return None;
        }
        let text = line_text(line)?;
        let span = |(start, end): Span| text.get(start..end);
        Some(SkimmedRpc {
            direction: match found.direction {
                Some(direction) => Some(span(direction)?),
                None => None,
            },
            id: match found.id {
                Some(id) => Some(span(id)?),
                None => None,
            },
            method: match found.method {
                Some(method) => Some(span(method)?),
                None => None,
            },
            session: match found.session {
                Some(session) => Some(span(session)?),
                None => None,
            },
            replay_from: found.replay_from,
        })
    }
}

/// One-off [`RpcSkimmer::skim_rpc`] (tests and fuzzing).
pub fn skim_rpc(line: &[u8], max_depth: usize, framing: SkimFraming) -> Option<SkimmedRpc<'_>> {
    RpcSkimmer::default().skim_rpc(line, max_depth, framing)
}

/// The members of a request or response seen so far.
#[derive(Default)]
struct RpcRead {
    jsonrpc: bool,
    id: Option<Span>,
    method: Option<Span>,
    params: bool,
    result: bool,
    session: Option<Span>,
    replay_from: bool,
}

#[derive(Debug, PartialEq, Eq)]
struct FoundRpc {
    direction: Option<Span>,
    id: Option<Span>,
    method: Option<Span>,
    session: Option<Span>,
    replay_from: bool,
}

/// The line's frame: the usual form, else the general read.
fn found_rpc(skim: &mut Skim<'_, '_>, framing: SkimFraming) -> Option<FoundRpc> {
    if skim.compact {
        if let Some(found) = compact_rpc_line(skim, framing) {
            return Some(found);
        }
        skim.restart();
    }
    rpc_line(skim, framing)
}

/// A request, notification or response as SDKs and recorders write it,
/// with the frame's members in the usual order: `{"jsonrpc":"2.0","id":…,
/// "method":"…","params":{…}}` (no `id` in a notification, no `params`
/// perhaps) or `{"jsonrpc":"2.0","id":…,"result":…}`, bare or in an
/// envelope `{"direction":…,"message":…}` with its `time` last if there;
/// with or without whitespace between the tokens. The frame's members are
/// distinct by construction, so only the params or result are searched
/// for repeats. Anything else returns `None` (the caller restarts and
/// [`rpc_line`] reads it); whatever this accepts, `rpc_line` accepts with
/// the same result.
fn compact_rpc_line(skim: &mut Skim<'_, '_>, framing: SkimFraming) -> Option<FoundRpc> {
    let direction = skim.usual_envelope_head(framing)?;
    // The depth of the message object.
    let levels = 1 + usize::from(direction.is_some());
    if levels > skim.max_depth {
        return None;
    }
    skim.tokens(tokens!(b"{\"jsonrpc\":\"2.0\","))?;
    let id = match skim.tokens(tokens!(b"\"id\":")) {
        Some(()) => {
            let id = plain_id(skim)?;
            skim.tokens(tokens!(b","))?;
            Some(id)
        }
        None => None,
    };
    // The params or result object is read at the message's depth (its own
    // is checked as it is read).
    skim.depth = levels;
    let (method, (session, replay_from)) = if skim.tokens(tokens!(b"\"method\":")).is_some() {
        let method = skim.plain_string()?;
        if read_in_full(skim.get(method)) {
            return None;
        }
        skim.whitespace();
        let holder = if skim.tokens(tokens!(b",\"params\":")).is_some() {
            // An array or a scalar is for the exact path (see `rpc_member`).
            if skim.peek()? != b'{' {
                return None;
            }
            session_holder(skim)?
        } else {
            (None, false)
        };
        (Some(method), holder)
    } else {
        // A response has an id.
        id?;
        skim.tokens(tokens!(b"\"result\":"))?;
        let holder = if skim.peek()? == b'{' {
            session_holder(skim)?
        } else {
            skim.value()?;
            (None, false)
        };
        (None, holder)
    };
    skim.usual_line_end(direction.is_some())?;
    Some(FoundRpc {
        direction,
        id,
        method,
        session,
        replay_from,
    })
}

/// The top-level object: an envelope or a bare message (the envelope read
/// as [`super::skim`] reads it: `direction`, `message`, a string `time`).
fn rpc_line(skim: &mut Skim<'_, '_>, framing: SkimFraming) -> Option<FoundRpc> {
    skim.whitespace();
    let mut message = RpcRead::default();
    let (mut direction, mut inner, mut time) = (None, None, false);
    let record = framing == SkimFraming::Record;
    skim.object(|skim, key| match key {
        b"direction" if record && direction.is_none() => {
            let value = skim.plain_string()?;
            match skim.get(value) {
                b"client_to_agent" | b"agent_to_client" => direction = Some(value),
                _ => return None,
            }
            Some(())
        }
        b"message" if record && inner.is_none() => {
            let mut read = RpcRead::default();
            skim.object(|skim, key| rpc_member(skim, key, &mut read))?;
            inner = Some(read);
            Some(())
        }
        b"time" if record && !time => {
            time = true;
            skim.string().map(drop)
        }
        _ => rpc_member(skim, key, &mut message),
    })?;
    let bare = message.jsonrpc
        || message.id.is_some()
        || message.method.is_some()
        || message.params
        || message.result;
    let (direction, message) = match (direction, inner) {
        (None, None) if !time => (None, message),
        (Some(direction), Some(inner)) if !bare => (Some(direction), inner),
        _ => return None,
    };
    let RpcRead {
        jsonrpc: true,
        id,
        method,
        params,
        result,
        session,
        replay_from,
    } = message
    else {
        return None;
    };
    match (id, method, params, result) {
        // A request or a notification (params optional).
        (_, Some(method), _, false) if !read_in_full(skim.get(method)) => {}
        // A response with a result.
        (Some(_), None, false, true) => {}
        _ => return None,
    }
    Some(FoundRpc {
        direction,
        id,
        method,
        session,
        replay_from,
    })
}

/// A member of a request or response: only the frame's, each once.
fn rpc_member(skim: &mut Skim<'_, '_>, key: &[u8], read: &mut RpcRead) -> Option<()> {
    match key {
        b"jsonrpc" if !read.jsonrpc => {
            let value = skim.plain_string()?;
            read.jsonrpc = skim.get(value) == b"2.0";
            read.jsonrpc.then_some(())
        }
        b"id" if read.id.is_none() => {
            read.id = Some(plain_id(skim)?);
            Some(())
        }
        b"method" if read.method.is_none() => {
            let method = skim.plain_string()?;
            // Declined as soon as seen: most lines are updates.
            if read_in_full(skim.get(method)) {
                return None;
            }
            read.method = Some(method);
            Some(())
        }
        b"params" if !read.params && !read.result => {
            read.params = true;
            // Params are an object here (an array or a scalar is for the
            // exact path, which remarks on the latter).
            if skim.peek()? != b'{' {
                return None;
            }
            (read.session, read.replay_from) = session_holder(skim)?;
            Some(())
        }
        b"result" if !read.result && !read.params => {
            read.result = true;
            if skim.peek()? == b'{' {
                (read.session, read.replay_from) = session_holder(skim)?;
            } else {
                skim.value()?;
            }
            Some(())
        }
        _ => None,
    }
}

/// An id already in the canonical text `jsonrpc::Id` keeps: a string
/// without escapes (its span with the quotes) or an integer `0|[1-9][0-9]*`
/// within the range of doubles (one beyond it the exact path says).
fn plain_id(skim: &mut Skim<'_, '_>) -> Option<Span> {
    let start = skim.at;
    match skim.peek()? {
        b'"' => {
            let (_, end, escaped) = skim.string()?;
            (!escaped).then_some((start, end + 1))
        }
        b'0'..=b'9' => {
            skim.number()?;
            let span = (start, skim.at);
            let digits = skim.get(span);
            (digits.iter().all(u8::is_ascii_digit) && !crate::jsonrpc::digits_beyond_double(digits))
                .then_some(span)
        }
        _ => None,
    }
}

/// An object skimmed whole, with its `sessionId` when it has one (a string
/// without escapes: any other `sessionId` declines the line) and whether it
/// has a `replayFrom` other than `null`.
fn session_holder(skim: &mut Skim<'_, '_>) -> Option<(Option<Span>, bool)> {
    let (mut session, mut replay_from) = (None, false);
    skim.object(|skim, key| match key {
        b"sessionId" => {
            session = Some(skim.plain_string()?);
            Some(())
        }
        b"replayFrom" => {
            replay_from = skim.peek()? != b'n';
            skim.value()
        }
        _ => skim.value(),
    })?;
    Some((session, replay_from))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::{classify, Direction, Frame};
    use crate::trace::{duplicate_keys, parse_record, Record};
    use crate::validate::calls::{asks_for_replay, read_session_ids};
    use crate::validate::test_lines::{mutate, respace, with_and_without_handshake};
    use crate::validate::{Config, Validator};
    use proptest::prelude::*;

    fn skim(line: &str) -> Option<SkimmedRpc<'_>> {
        skim_rpc(line.as_bytes(), 128, SkimFraming::Record)
    }

    #[test]
    fn reads_requests_notifications_and_responses() {
        let prompt = r#"{"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"sessionId":"s-1","prompt":[{"type":"text","text":"a\"b"}]}}"#;
        assert_eq!(
            skim(prompt),
            Some(SkimmedRpc {
                direction: None,
                id: Some("12"),
                method: Some("session/prompt"),
                session: Some("s-1"),
                replay_from: false,
            })
        );
        let envelope =
            format!(r#" {{"time":"t","direction":"client_to_agent","message":{prompt}}} "#);
        assert_eq!(
            skim(&envelope).map(|r| (r.direction, r.id)),
            Some((Some("client_to_agent"), Some("12")))
        );
        assert_eq!(
            skim_rpc(envelope.as_bytes(), 128, SkimFraming::Message),
            None
        );
        let answer = r#"{"id":"a b","result":{"sessionId":"s-2","modes":null},"jsonrpc":"2.0"}"#;
        assert_eq!(
            skim(answer),
            Some(SkimmedRpc {
                direction: None,
                id: Some("\"a b\""),
                method: None,
                session: Some("s-2"),
                replay_from: false,
            })
        );
        let empty = r#"{"jsonrpc":"2.0","id":0,"result":null}"#;
        assert_eq!(
            skim(empty).map(|r| (r.id, r.session)),
            Some((Some("0"), None))
        );
        let cancel = r#"{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}"#;
        assert_eq!(
            skim(cancel),
            Some(SkimmedRpc {
                direction: None,
                id: None,
                method: Some("session/cancel"),
                session: Some("s"),
                replay_from: false,
            })
        );
        let no_params = r#"{"jsonrpc":"2.0","id":3,"method":"_x/y"}"#;
        assert_eq!(skim(no_params).map(|r| r.method), Some(Some("_x/y")));
        let resume = r#"{"jsonrpc":"2.0","id":4,"method":"session/resume","params":{"sessionId":"s","replayFrom":{"a":1}}}"#;
        assert_eq!(
            skim(resume).map(|r| (r.session, r.replay_from)),
            Some((Some("s"), true))
        );
        let quiet = r#"{"jsonrpc":"2.0","id":4,"method":"session/load","params":{"replayFrom":null,"sessionId":"s"}}"#;
        assert_eq!(
            skim(quiet).map(|r| (r.session, r.replay_from)),
            Some((Some("s"), false))
        );
    }

    #[test]
    fn declines_what_the_exact_path_must_see() {
        let declined = [
            // Methods whose params rules read, errors.
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"session/update","params":{"sessionId":"s"}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#,
            r#"{"jsonrpc":"2.0","id":1}"#,
            // Ids that are not already canonical.
            r#"{"jsonrpc":"2.0","id":-1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1.0,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1e2,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":01,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":"\u0061","result":{}}"#,
            r#"{"jsonrpc":"2.0","id":null,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":[1],"result":{}}"#,
            // Frames that are not plain.
            r#"{"jsonrpc":"2.1","id":1,"result":{}}"#,
            r#"{"id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"session/pr\u006fmpt","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":7,"params":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":[]}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":3}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"m","result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{},"params":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{},"extra":1}"#,
            // sessionId that is not a plain string.
            r#"{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"\u0073"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":5}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":null}}"#,
            // Repeats at any depth.
            r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"sessionId":"a","sessionId":"b"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"a":{"b":1,"b":1}}}"#,
            // Not JSON, or not quite.
            r#"{"jsonrpc":"2.0","id":1,"result":{"a":1.}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{}} x"#,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"a\":\"\t\"}}",
            // Envelope faults.
            r#"{"direction":"up","message":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"direction":"agent_to_client","time":1,"message":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"direction":"agent_to_client","id":1,"message":{"jsonrpc":"2.0","id":1,"result":{}}}"#,
            r#"{"direction":"agent_to_client"}"#,
        ];
        for line in declined {
            assert_eq!(skim(line), None, "{line}");
        }
        // An integer id long enough to be beyond the range of doubles.
        let digits = format!("1{}", "0".repeat(400));
        let line = format!(r#"{{"jsonrpc":"2.0","id":{digits},"result":{{}}}}"#);
        assert_eq!(skim(&line), None);
        assert_eq!(
            skim_rpc(
                b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"\xff\"}",
                128,
                SkimFraming::Record
            ),
            None
        );
    }

    // -----------------------------------------------------------------------
    // The fast path agrees with the exact path.

    /// A JSON value, now and then with what trips readers (escapes, repeats,
    /// numbers of every form, nesting).
    fn json_value() -> impl Strategy<Value = String> {
        let leaf = prop::sample::select(vec![
            "\"a\"",
            "\"\\u00e9\\ud800\"",
            "\"\\\"\\\\\\/\\n\"",
            "\"é😀\"",
            "0",
            "-1.5e3",
            "18446744073709551616",
            "true",
            "null",
        ])
        .prop_map(str::to_owned);
        leaf.prop_recursive(4, 24, 3, |inner| {
            let key = prop::sample::select(vec!["a", "b", "sessionId", "text"]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..3)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec((key, inner), 0..3).prop_map(|members| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(k, v)| format!("\"{k}\":{v}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    /// A small id space, so that requests and responses meet, and ids that
    /// are not canonical.
    fn id() -> impl Strategy<Value = String> {
        prop_oneof![
            6 => (0..6u8).prop_map(|n| n.to_string()),
            2 => (0..3u8).prop_map(|n| format!("\"r{n}\"")),
            1 => prop::sample::select(vec!["\"\\u0072\"", "-0", "1.0", "null", "01", "[1]"])
                .prop_map(str::to_owned),
        ]
    }

    fn session() -> impl Strategy<Value = String> {
        prop_oneof![
            6 => (0..4u8).prop_map(|n| format!("\"s{n}\"")),
            1 => prop::sample::select(vec!["\"s\\u0031\"", "5", "null", "\"\""])
                .prop_map(str::to_owned),
        ]
    }

    /// An object holding maybe a `sessionId`, maybe a `replayFrom` and
    /// other members, now and then one of them twice (with another value,
    /// or nested a level down).
    fn holder() -> impl Strategy<Value = String> {
        let replay = prop::option::of(prop::sample::select(vec!["null", "\"r\"", "0", "{}"]));
        let repeat = prop_oneof![
            6 => Just(None),
            1 => Just(Some(0u8)),
            1 => Just(Some(1u8)),
        ];
        (
            prop::option::of(session()),
            prop::collection::vec(json_value(), 0..3),
            any::<bool>(),
            replay,
            repeat,
        )
            .prop_map(|(session, values, last, replay, repeat)| {
                let mut members: Vec<String> = values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| format!("\"m{i}\":{v}"))
                    .collect();
                if let Some(replay) = replay {
                    members.push(format!("\"replayFrom\":{replay}"));
                }
                if let Some(s) = session {
                    let member = format!("\"sessionId\":{s}");
                    if last {
                        members.push(member);
                    } else {
                        members.insert(0, member);
                    }
                }
                // The first member again with another value, or an object
                // that repeats it.
                let again = members.first().and_then(|first| {
                    let (name, value) = first.split_once(':')?;
                    Some(match repeat? {
                        0 => format!("{name}:[0,{value}]"),
                        _ => format!("\"m9\":{{{first},{first}}}"),
                    })
                });
                members.extend(again);
                format!("{{{}}}", members.join(","))
            })
    }

    /// A request, notification or response, bare or in an envelope.
    fn rpc_line() -> impl Strategy<Value = String> {
        let method = prop::sample::select(vec![
            "\"session/new\"",
            "\"session/prompt\"",
            "\"session/cancel\"",
            "\"session/fork\"",
            "\"session/load\"",
            "\"session/resume\"",
            "\"initialize\"",
            "\"fs/read_text_file\"",
            "\"_acme/x\"",
            "\"session/pr\\u006fmpt\"",
        ]);
        // Form 3 repeats `method` with another value: a request of each
        // method, whose answer the fast path must leave to the exact one.
        let request = (id(), method.clone(), method, holder(), 0..7u8).prop_map(
            |(id, method, other, params, form)| match form {
                0 => format!("{{\"jsonrpc\":\"2.0\",\"method\":{method},\"params\":{params}}}"),
                1 => format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":{method}}}"),
                2 => format!(
                    "{{\"params\":{params},\"method\":{method},\"id\":{id},\"jsonrpc\":\"2.0\"}}"
                ),
                3 => format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":{other},\"method\":{method},\"params\":{params}}}"
                ),
                _ => format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":{method},\"params\":{params}}}"
                ),
            },
        );
        let result = prop_oneof![4 => holder(), 1 => json_value()];
        let response = (id(), result, 0..6u8).prop_map(|(id, result, form)| match form {
            0 => format!(
                "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-1,\"message\":\"m\"}}}}"
            ),
            1 => format!("{{\"result\":{result},\"id\":{id},\"jsonrpc\":\"2.0\"}}"),
            2 => format!("{{\"jsonrpc\":\"2.0\",\"result\":{result}}}"),
            _ => format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}"),
        });
        let message = prop_oneof![request, response];
        let direction = prop_oneof![
            3 => Just(None),
            2 => Just(Some("\"agent_to_client\"")),
            2 => Just(Some("\"client_to_agent\"")),
            1 => Just(Some("\"up\"")),
        ];
        let time = prop::sample::select(vec![
            "",
            ",\"time\":\"2026-01-01T00:00:00Z\"",
            ",\"time\":1",
        ]);
        (message, direction, time).prop_map(|(message, direction, time)| match direction {
            None => message,
            Some(d) => format!("{{\"direction\":{d},\"message\":{message}{time}}}"),
        })
    }

    /// A line with one byte changed, inserted or removed.
    fn mutated_line() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop::sample::select(vec![
            b'"', b'\\', b'u', b'{', b'}', b'[', b']', b',', b':', b'0', b'-', b'.', b' ', 0, 0x1f,
            0xc3, 0xff, b'a',
        ]);
        (rpc_line(), any::<prop::sample::Index>(), byte, 0..3u8)
            .prop_map(|(line, at, byte, how)| mutate(line, at, byte, how))
    }

    /// A line spaced as [`respace`] does: Python's `json.dumps`, and odd
    /// whitespace around the punctuation.
    fn spaced_line() -> impl Strategy<Value = Vec<u8>> {
        let space = prop::sample::select(vec!["", "", " ", " ", "  ", "\t", "\r", " \t"]);
        (rpc_line(), prop::collection::vec(space, 1..8))
            .prop_map(|(line, spaces)| respace(&line, &spaces).into_bytes())
    }

    /// The usual form ([`compact_rpc_line`]) reads a line as the general
    /// read does: the same frame, `sessionId` and `replayFrom`, and the same
    /// end. Returns whether it took the line.
    fn compact_agrees(
        line: &[u8],
        framing: SkimFraming,
        max_depth: usize,
    ) -> Result<bool, TestCaseError> {
        let read = |compact: bool| {
            let (mut keys, mut capture) = (Vec::new(), PlanCapture::default());
            let mut skim = Skim::start(line, max_depth, &mut keys, &mut capture, compact);
            let found = if compact {
                compact_rpc_line(&mut skim, framing)
            } else {
                super::rpc_line(&mut skim, framing)
            };
            (found, skim.at)
        };
        let (compact, at) = read(true);
        let Some(compact) = compact else {
            return Ok(false);
        };
        let (general, general_at) = read(false);
        prop_assert_eq!(Some(compact), general);
        prop_assert_eq!(at, general_at);
        Ok(true)
    }

    /// Whatever the fast path accepts, the exact path reads as the same
    /// frame and `sessionId`, and finds nothing to say about.
    fn agrees_with_exact_path(line: &[u8], framing: SkimFraming) -> Result<(), TestCaseError> {
        let Some(rpc) = skim_rpc(line, 128, framing) else {
            return Ok(());
        };
        prop_assert!(serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok());
        let (direction, object) = match framing {
            SkimFraming::Record => match parse_record(line, 128) {
                Ok(Record::Bare(object)) => (None, object),
                Ok(Record::Envelope {
                    direction,
                    message,
                    remarks,
                }) => {
                    prop_assert!(remarks.is_empty(), "{:?}", remarks);
                    (Some(direction), message)
                }
                Err(fault) => return Err(TestCaseError::fail(format!("{fault:?}"))),
            },
            SkimFraming::Message => match crate::trace::parse_message(line, 128) {
                Ok(object) => (None, object),
                Err(fault) => return Err(TestCaseError::fail(format!("{fault:?}"))),
            },
        };
        prop_assert_eq!(direction, rpc.direction);
        let (frame, faults) = classify(&object);
        prop_assert!(faults.is_empty(), "{:?}", faults);
        let (id, payload) = match frame {
            Some(Frame::Request { id, method, params }) => {
                prop_assert_eq!(Some(method.as_str()), rpc.method);
                prop_assert!(!read_in_full(method.as_bytes()));
                (Some(id), params)
            }
            Some(Frame::Notification { method, params }) => {
                prop_assert_eq!(Some(method.as_str()), rpc.method);
                prop_assert!(!read_in_full(method.as_bytes()));
                (None, params)
            }
            Some(Frame::Response {
                id,
                result: Some(result),
                error: None,
            }) => {
                prop_assert_eq!(None, rpc.method);
                (Some(id), Some(result))
            }
            other => return Err(TestCaseError::fail(format!("{other:?}"))),
        };
        prop_assert_eq!(id.as_ref().map(|id| id.as_json()), rpc.id);
        if let Some(payload) = payload {
            prop_assert!(duplicate_keys(payload.get()).is_empty());
        }
        // What the validator reads of params and results.
        // Read alike, and without a remark (an unpaired surrogate).
        let sessions = read_session_ids(payload);
        prop_assert_eq!(
            sessions
                .iter()
                .map(|(session, found)| (session.as_str(), found.is_some()))
                .collect::<Vec<_>>(),
            rpc.session
                .map(|s| (s, false))
                .into_iter()
                .collect::<Vec<_>>()
        );
        let session = crate::validate::calls::read_session_id(payload);
        prop_assert_eq!(
            session
                .as_ref()
                .map(|(s, found)| (s.as_str(), found.is_some())),
            rpc.session.map(|s| (s, false))
        );
        prop_assert_eq!(asks_for_replay(payload), rpc.replay_from);
        Ok(())
    }

    /// The same trace through a validator with and without the fast paths:
    /// the same diagnostics, state, counts and requests left unanswered.
    fn same_verdict(trace: &[u8]) -> Result<(), TestCaseError> {
        let mut fast = Validator::new(Config::default());
        let mut exact = Validator::new(Config::default()).exact_only();
        for (i, line) in trace.split(|&b| b == b'\n').enumerate() {
            let n = i as u64 + 1;
            fast.push_record(n, line);
            exact.push_record(n, line);
            prop_assert_eq!(fast.take_diagnostics(), exact.take_diagnostics());
        }
        prop_assert_eq!(fast.messages(), exact.messages());
        prop_assert_eq!(fast.state(), exact.state());
        prop_assert_eq!(fast.occupancy(), exact.occupancy());
        for direction in [Direction::ClientToAgent, Direction::AgentToClient] {
            prop_assert_eq!(fast.unanswered(direction), exact.unanswered(direction));
        }
        // Live traffic, whose direction is known.
        let mut fast = Validator::new(Config::default());
        let mut exact = Validator::new(Config::default()).exact_only();
        for (i, line) in trace.split(|&b| b == b'\n').enumerate() {
            let n = i as u64 + 1;
            let direction = if line.windows(6).any(|w| w == b"result") {
                Direction::AgentToClient
            } else {
                Direction::ClientToAgent
            };
            fast.push_message(n, direction, line);
            exact.push_message(n, direction, line);
            prop_assert_eq!(fast.take_diagnostics(), exact.take_diagnostics());
        }
        prop_assert_eq!(fast.messages(), exact.messages());
        prop_assert_eq!(fast.occupancy(), exact.occupancy());
        for direction in [Direction::ClientToAgent, Direction::AgentToClient] {
            prop_assert_eq!(fast.unanswered(direction), exact.unanswered(direction));
        }
        Ok(())
    }

    /// Plan updates and a turn's end, so the sessions opened and prompted
    /// above are read by the rules.
    fn update_line() -> impl Strategy<Value = String> {
        (0..4u8, 0..3u8).prop_map(|(session, kind)| {
            let update = match kind {
                0 => r#"{"sessionUpdate":"plan","entries":[{"content":"a","priority":"high","status":"pending"}]}"#,
                1 => r#"{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}"#,
                _ => r#"{"sessionUpdate":"plan","entries":[]}"#,
            };
            format!(r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s{session}","update":{update}}}}}"#)
        })
    }

    /// A whole turn of a session: opened, prompted, cancelled (a
    /// notification, or now and then a request), answered, then updated
    /// (after its end, so that the cancel is what the rules read), one line
    /// each.
    fn turn_lines() -> impl Strategy<Value = Vec<u8>> {
        (0..4u8, 0..6u8, any::<bool>(), any::<bool>()).prop_map(|(session, id, notify, plan)| {
            let cancel = if notify {
                format!(r#"{{"jsonrpc":"2.0","method":"session/cancel","params":{{"sessionId":"s{session}"}}}}"#)
            } else {
                format!(r#"{{"jsonrpc":"2.0","id":{},"method":"session/cancel","params":{{"sessionId":"s{session}"}}}}"#, 90 + id)
            };
            let update = if plan {
                r#"{"sessionUpdate":"plan","entries":[]}"#
            } else {
                r#"{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}"#
            };
            [
                format!(r#"{{"jsonrpc":"2.0","id":{},"method":"session/new","params":{{"cwd":"/","mcpServers":[]}}}}"#, 50 + id),
                format!(r#"{{"jsonrpc":"2.0","id":{},"result":{{"sessionId":"s{session}"}}}}"#, 50 + id),
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"session/prompt","params":{{"sessionId":"s{session}","prompt":[]}}}}"#),
                cancel,
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"stopReason":"cancelled"}}}}"#),
                format!(r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s{session}","update":{update}}}}}"#),
            ]
            .join("\n")
            .into_bytes()
        })
    }

    /// A request whose `method` repeats with another value (either order),
    /// its answer, then an update for the session the answer may have
    /// opened: what the answer establishes depends on every reading.
    fn readings_lines() -> impl Strategy<Value = Vec<u8>> {
        let method = prop::sample::select(vec![
            "session/new",
            "session/fork",
            "session/prompt",
            "initialize",
            "fs/read_text_file",
        ]);
        let result = prop::sample::select(vec![
            r#"{"sessionId":"s1"}"#,
            r#"{}"#,
            r#"{"protocolVersion":1}"#,
            r#"{"stopReason":"end_turn"}"#,
        ]);
        (method.clone(), method, result, 0..6u8).prop_map(|(first, second, result, id)| {
            [
                format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{first}","method":"{second}","params":{{"sessionId":"s0","cwd":"/","mcpServers":[]}}}}"#),
                format!(r#"{{"direction":"agent_to_client","message":{{"jsonrpc":"2.0","id":{id},"result":{result}}}}}"#),
                r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[]}}}"#.to_owned(),
            ]
            .join("\n")
            .into_bytes()
        })
    }

    /// A session/load in flight while a session/new or session/fork is
    /// answered, with the direction said (so the one-pass read takes the
    /// answer), naming the loaded session or another; the load answered
    /// before or after, failed or not; then an update for the loaded
    /// session: what a failed load takes back depends on what else
    /// established the session.
    fn load_lines() -> impl Strategy<Value = Vec<u8>> {
        let opener = prop::sample::select(vec!["session/new", "session/fork"]);
        (0..3u8, 0..3u8, opener, any::<bool>(), any::<bool>()).prop_map(
            |(loaded, named, opener, fails, load_answered_first)| {
                let answer = |message: String| {
                    format!(r#"{{"direction":"agent_to_client","message":{message}}}"#)
                };
                let opened = answer(format!(
                    r#"{{"jsonrpc":"2.0","id":8,"result":{{"sessionId":"s{named}"}}}}"#
                ));
                let load_answer = answer(if fails {
                    r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32002,"message":"m"}}"#.to_owned()
                } else {
                    r#"{"jsonrpc":"2.0","id":7,"result":{}}"#.to_owned()
                });
                let (first, second) = if load_answered_first {
                    (load_answer, opened)
                } else {
                    (opened, load_answer)
                };
                [
                    format!(r#"{{"jsonrpc":"2.0","id":7,"method":"session/load","params":{{"sessionId":"s{loaded}","cwd":"/","mcpServers":[]}}}}"#),
                    format!(r#"{{"jsonrpc":"2.0","id":8,"method":"{opener}","params":{{"cwd":"/","mcpServers":[]}}}}"#),
                    first,
                    second,
                    format!(r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s{loaded}","update":{{"sessionUpdate":"plan","entries":[]}}}}}}"#),
                ]
                .join("\n")
                .into_bytes()
            },
        )
    }

    /// A cancel sent as a notification is read in one pass and still ends
    /// the turn: an update after the answer draws the same info with and
    /// without the fast paths.
    #[test]
    fn a_cancel_notification_is_taken_and_read() {
        let cancel = r#"{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}"#;
        assert!(skim(cancel).is_some());
        let trace = [
            HANDSHAKE,
            r#"{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}"#,
            r#"{"jsonrpc":"2.0","id":5,"result":{"sessionId":"s1"}}"#,
            r#"{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}"#,
            cancel,
            r#"{"jsonrpc":"2.0","id":6,"result":{"stopReason":"cancelled"}}"#,
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[]}}}"#,
        ]
        .join("\n");
        let mut fast = Validator::new(Config::default());
        let mut exact = Validator::new(Config::default()).exact_only();
        for (i, line) in trace.lines().filter(|l| !l.is_empty()).enumerate() {
            fast.push_record(i as u64 + 1, line.as_bytes());
            exact.push_record(i as u64 + 1, line.as_bytes());
        }
        let (fast, exact) = (fast.take_diagnostics(), exact.take_diagnostics());
        let rules: Vec<&str> = fast.iter().map(|d| d.rule.id).collect();
        assert_eq!(rules, ["SES-UPDATE-AFTER-CANCEL"]);
        assert_eq!(fast, exact);
    }

    const HANDSHAKE: &str = concat!(
        r#"{"jsonrpc":"2.0","id":100,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":100,"result":{"protocolVersion":1}}"#,
        "\n",
    );

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn generated_lines_read_alike(line in rpc_line()) {
            agrees_with_exact_path(line.as_bytes(), SkimFraming::Record)?;
            agrees_with_exact_path(line.as_bytes(), SkimFraming::Message)?;
        }

        #[test]
        fn mutated_lines_read_alike(line in mutated_line()) {
            agrees_with_exact_path(&line, SkimFraming::Record)?;
            agrees_with_exact_path(&line, SkimFraming::Message)?;
        }

        #[test]
        fn spaced_lines_read_alike(line in spaced_line()) {
            agrees_with_exact_path(&line, SkimFraming::Record)?;
            agrees_with_exact_path(&line, SkimFraming::Message)?;
        }

        #[test]
        fn the_usual_form_reads_as_the_general_read(line in prop_oneof![
            rpc_line().prop_map(String::into_bytes),
            mutated_line(),
            spaced_line(),
        ], max_depth in prop::sample::select(vec![0usize, 1, 2, 3, 64])) {
            compact_agrees(&line, SkimFraming::Record, max_depth)?;
            compact_agrees(&line, SkimFraming::Message, max_depth)?;
        }

        #[test]
        fn traces_get_the_same_verdict(lines in prop::collection::vec(prop_oneof![
            6 => rpc_line().prop_map(String::into_bytes),
            2 => spaced_line(),
            2 => update_line().prop_map(String::into_bytes),
            1 => turn_lines(),
            1 => readings_lines(),
            1 => load_lines(),
            1 => mutated_line(),
        ], 1..24)) {
            for trace in with_and_without_handshake(HANDSHAKE, lines) {
                same_verdict(&trace)?;
            }
        }
    }

    /// The properties above are not vacuous: the fast path takes requests,
    /// notifications and responses (with and without a session) and
    /// declines many lines.
    #[test]
    fn generated_lines_are_taken_and_declined() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut requests, mut notifications, mut sessions, mut responses, mut declined) =
            (0, 0, 0, 0, 0);
        // Lines the usual form takes, as written, as Python spaces them,
        // and with odd whitespace; in an envelope and bare.
        let (mut usual, mut usual_spaced, mut usual_bare) = (0, 0, 0);
        for _ in 0..2000 {
            let line = rpc_line().new_tree(&mut runner).unwrap().current();
            let took =
                |line: &str| compact_agrees(line.as_bytes(), SkimFraming::Record, 64).unwrap();
            usual += usize::from(took(&line));
            usual_bare += usize::from(!line.contains("direction") && took(&line));
            for spaces in [&[""] as &[&str], &[" "], &["", " ", "\t ", ""]] {
                let line = respace(&line, spaces).replace("{ ", "{");
                usual_spaced += usize::from(took(&line));
            }
            match skim_rpc(line.as_bytes(), 128, SkimFraming::Record) {
                Some(read) => {
                    match (read.method, read.id) {
                        (Some(_), Some(_)) => requests += 1,
                        (Some(_), None) => notifications += 1,
                        (None, _) => responses += 1,
                    }
                    sessions += usize::from(read.session.is_some());
                }
                None => declined += 1,
            }
        }
        assert!(
            requests > 100
                && notifications > 50
                && responses > 100
                && sessions > 100
                && declined > 400
                && usual > 400
                && usual_bare > 200
                && usual_spaced > 3 * 400,
            "{requests} {notifications} {responses} {sessions} {declined} {usual} {usual_bare} {usual_spaced}"
        );
    }
}
