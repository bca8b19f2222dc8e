//! ENV-*: framing and JSON-RPC 2.0.

use crate::catalog::{
    docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS, V2_ONLY, WITH_CAPABILITY,
};
use crate::diag::Diagnostic;
use crate::jsonrpc::{Direction, FrameFault, Id, RequestOutcome, ResponseOutcome};
use crate::spec::Revision;
use crate::trace::RecordFault;

/// Bytes of a message that are not UTF-8, against its sender.
pub const UTF8: Rule = Rule {
    id: "ENV-UTF8",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Messages are UTF-8",
    citation: Citation {
        document: docs::TRANSPORTS_V1,
        section: "Transports",
        text: "ACP uses JSON-RPC to encode messages. JSON-RPC messages MUST be UTF-8 encoded.",
        note: "",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::TRANSPORTS_V2,
            section: "Transports",
            text: "ACP uses JSON-RPC to encode messages. JSON-RPC messages MUST be UTF-8 encoded.",
            note: "",
        },
    }],
};

/// A line that does not parse as one JSON value, against its sender.
pub const JSON: Rule = Rule {
    id: "ENV-JSON",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Each line is one complete JSON value",
    citation: Citation {
        document: docs::TRANSPORTS_V1,
        section: "stdio",
        text: "Messages are delimited by newlines (\\n), and MUST NOT contain embedded newlines.",
        note: "A line that is not one complete JSON value is a message cut by an embedded newline, or no JSON-RPC message at all.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::TRANSPORTS_V2,
                section: "stdio",
                text: "Messages are delimited by newlines (\\n), and MUST NOT contain embedded newlines.",
                note: "",
            },
        },
    ],
};

/// A JSON value that is not a JSON-RPC object (nor, where allowed, a batch of them).
pub const OBJECT: Rule = Rule {
    id: "ENV-OBJECT",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A message is a JSON-RPC Request, Notification or Response object",
    citation: Citation {
        document: docs::TRANSPORTS_V1,
        section: "stdio",
        text: "The agent MUST NOT write anything to its stdout that is not a valid ACP message. The client MUST NOT write anything to the agent's stdin that is not a valid ACP message.",
        note: "ACP messages are JSON-RPC 2.0 Request, Notification or Response objects.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::TRANSPORTS_V2,
                section: "stdio",
                text: "The agent MUST NOT write anything to its stdout that is not a valid ACP message. The client MUST NOT write anything to the agent's stdin that is not a valid ACP message.",
                note: "v2 also allows batch arrays of such objects: each element is checked as a message, and an empty batch is ENV-BATCH-EMPTY.",
            },
        },
    ],
};

/// v1 and the draft say nothing of batches; JSON-RPC 2.0 allows them. A
/// batch is noted (peers written for v1 may not read one) and each of its
/// messages is checked as if it came on its own line.
pub const BATCH: Rule = Rule {
    id: "ENV-BATCH",
    level: Level::Info,
    basis: Basis::Text,
    revisions: WITH_CAPABILITY,
    summary: "A JSON-RPC batch (an array of messages) on one line, which the transport of this revision does not mention; each message in it is still checked",
    citation: Citation {
        document: docs::TRANSPORTS_V1,
        section: "stdio",
        text: "Messages are individual JSON-RPC requests, notifications, or responses.",
        note: "v1 says nothing of batches (JSON-RPC 2.0 allows them): a batch is reported for information and each element is still checked as a message.",
    },
    revision_citations: &[],
};

/// v2 allows batches and asks that one hold at least one value.
pub(crate) const BATCH_EMPTY: Rule = Rule {
    id: "ENV-BATCH-EMPTY",
    level: Level::Must,
    basis: Basis::Text,
    revisions: V2_ONLY,
    summary: "A batch holds at least one message (v2: batches are allowed; each message in one is checked)",
    citation: Citation {
        document: docs::TRANSPORTS_V2,
        section: "JSON-RPC Batch Messages",
        text: "The batch MUST be an array with at least one value.",
        note: "v2 allows batches (\"A client or agent MAY send an array filled with Request objects\"): each element is checked as a message; an empty batch is the error.",
    },
    revision_citations: &[],
};

/// The methods v2's Transports page names as lifecycle-sensitive: each
/// changes which later messages are valid, and a batch may be processed in
/// any order.
pub const LIFECYCLE_SENSITIVE: [&str; 5] = [
    "initialize",
    "auth/login",
    "session/new",
    "session/resume",
    "session/prompt",
];

/// v2 allows batches but asks that lifecycle-sensitive messages travel alone.
pub(crate) const BATCH_LIFECYCLE: Rule = Rule {
    id: "ENV-BATCH-LIFECYCLE",
    level: Level::Should,
    basis: Basis::Text,
    revisions: V2_ONLY,
    summary: "A batch carries a lifecycle-sensitive request or notification (`initialize`, `auth/login`, `session/new`, `session/resume`, `session/prompt`), which v2 asks to send on its own",
    citation: Citation {
        document: docs::TRANSPORTS_V2,
        section: "JSON-RPC Batch Messages",
        text: "Clients and agents SHOULD NOT batch lifecycle-sensitive messages such as initialize, auth/login, session/new, session/resume, and session/prompt. These messages are easier to reason about as individual transport messages and can change which later messages are valid.",
        note: "Reported against the party that sent the batch, once per such message, for the five methods the sentence names (its list is open, \"such as\": the suite does not guess others). A response inside a batch is not reported: the receiver of a batch is asked to answer with an array, and the suite does not track whether a request came in one. Every message of the batch is still checked.",
    },
    revision_citations: &[],
};

/// A member name repeated in one object: each reading is checked, and
/// only what every reading breaks is an error.
pub(crate) const DUPLICATE_KEY: Rule = Rule {
    id: "ENV-DUPLICATE-KEY",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Member names are unique in every object of a message (a message with a repeat is checked under each of its values; no party is judged on a value another reading drops)",
    citation: Citation {
        document: docs::RFC8259,
        section: "4. Objects",
        text: "The names within an object SHOULD be unique.",
        note: "",
    },
    revision_citations: &[],
};

/// A message that starts with a byte order mark: not JSON to the readers
/// the official SDKs use, so the suite reads what follows it.
pub const BOM: Rule = Rule {
    id: "ENV-BOM",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A message does not start with a byte order mark (U+FEFF) (the suite reads what follows it and checks that)",
    citation: Citation {
        document: docs::RFC8259,
        section: "8.1. Character Encoding",
        text: "Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.",
        note: "Each message on the wire is a JSON text. RFC 8259 lets a reader ignore the mark, but JSON.parse, Python's json and serde_json reject the line: the message is lost to such a client. The suite reads what follows the mark and checks it.",
    },
    revision_citations: &[],
};

/// A message (a bare line, or one read live) that starts with a byte order mark.
pub(crate) fn byte_order_mark() -> Diagnostic {
    Diagnostic::new(
        &BOM,
        "the line starts with a byte order mark (U+FEFF, bytes EF BB BF): JSON.parse, Python's json and serde_json reject it; the suite reads what follows",
    )
    .hint("write messages as UTF-8 without a byte order mark (e.g. .NET's UTF8Encoding(false))")
}

/// Grammatical JSON that RFC 8259 says readers treat unpredictably: the
/// suite reads it one documented way and checks the message as read.
pub(crate) const NUMBER_RANGE: Rule = Rule {
    id: "ENV-NUMBER-RANGE",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Numbers stay within the range of IEEE 754 doubles (a larger one is read as the largest double and the message still checked)",
    citation: Citation {
        document: docs::RFC8259,
        section: "6. Numbers",
        text: "Since software that implements IEEE 754 binary64 (double precision) numbers [IEEE754] is generally available and widely used, good interoperability can be achieved by implementations that expect no more precision or range than these provide",
        note: "Grammatical JSON whose meaning readers disagree on: the suite reads a number beyond the range as the largest double of its sign and checks the message as read.",
    },
    revision_citations: &[],
};

/// A `\uD800`-style escape without its pair, which readers decode
/// differently; read as U+FFFD.
pub(crate) const UNPAIRED_SURROGATE: Rule = Rule {
    id: "ENV-UNPAIRED-SURROGATE",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Strings hold no unpaired UTF-16 surrogate escape (one is read as U+FFFD and the message still checked)",
    citation: Citation {
        document: docs::RFC8259,
        section: "8.2. Unicode Characters",
        text: "The behavior of software that receives JSON texts containing such values is unpredictable",
        note: "Such values are unpaired UTF-16 surrogate escapes (\"\\uDEAD\"); the suite reads one as U+FFFD and checks the message as read.",
    },
    revision_citations: &[],
};

/// Whether `rule` holds anywhere in a message (a repeated member name,
/// what RFC 8259 calls unpredictable): the validator says it of members no
/// rule reads too.
pub(crate) fn holds_anywhere(rule: &Rule) -> bool {
    rule.id == DUPLICATE_KEY.id || rule.id == NUMBER_RANGE.id || rule.id == UNPAIRED_SURROGATE.id
}

/// A value RFC 8259 calls unpredictable, at `pointer`.
pub fn unpredictable(found: &crate::trace::interop::Unpredictable, pointer: &str) -> Diagnostic {
    use crate::trace::interop::UnpredictableKind;
    match found.kind {
        UnpredictableKind::NumberBeyondDouble => Diagnostic::new(
            &NUMBER_RANGE,
            format!(
                "the number {} is beyond the range of IEEE 754 doubles: readers may fail, or read infinity; the suite reads it as the largest double of its sign",
                found.text
            ),
        )
        .hint("send numbers a double can hold (or a string)"),
        UnpredictableKind::UnpairedSurrogate => Diagnostic::new(
            &UNPAIRED_SURROGATE,
            format!(
                "the string {} holds an unpaired UTF-16 surrogate escape (half of a character, e.g. an emoji cut in two): readers may fail or read different text; the suite reads it as U+FFFD",
                found.text
            ),
        )
        .hint("cut strings at character boundaries, not UTF-16 code units"),
    }
    .at(pointer)
}

/// The `jsonrpc` member: missing or not exactly "2.0".
pub const VERSION: Rule = Rule {
    id: "ENV-VERSION",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`jsonrpc` is exactly \"2.0\"",
    citation: Citation {
        document: docs::JSONRPC,
        section: "4. Request object (jsonrpc)",
        text: "A String specifying the version of the JSON-RPC protocol. MUST be exactly \"2.0\".",
        note: "The Response object (5) says the same of its jsonrpc member.",
    },
    revision_citations: &[],
};

/// A request or notification without a string `method`.
pub(crate) const METHOD: Rule = Rule {
    id: "ENV-METHOD",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A request or notification has a string `method`",
    citation: Citation {
        document: docs::JSONRPC,
        section: "4. Request object (method)",
        text: "A String containing the name of the method to be invoked.",
        note: "",
    },
    revision_citations: &[],
};

/// An `id` of a type JSON-RPC does not allow.
pub const ID: Rule = Rule {
    id: "ENV-ID",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`id` is a string, a number or null",
    citation: Citation {
        document: docs::JSONRPC,
        section: "4. Request object (id)",
        text: "An identifier established by the Client that MUST contain a String, Number, or NULL value if included.",
        note: "",
    },
    revision_citations: &[],
};

/// `params` that are neither an object nor an array.
pub(crate) const PARAMS: Rule = Rule {
    id: "ENV-PARAMS",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`params`, when present, is an object or an array",
    citation: Citation {
        document: docs::JSONRPC,
        section: "4.2 Parameter Structures",
        text: "If present, parameters for the rpc call MUST be provided as a Structured value.",
        note: "",
    },
    revision_citations: &[],
};

/// A response with both or neither of `result` and `error`, or no `id`.
pub(crate) const RESULT_OR_ERROR: Rule = Rule {
    id: "ENV-RESULT-ERROR",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A response has exactly one of `result` and `error`, and an `id`",
    citation: Citation {
        document: docs::JSONRPC,
        section: "5. Response object",
        text: "Either the result member or error member MUST be included, but both members MUST NOT be included.",
        note: "The id member of a Response \"is REQUIRED\" (5).",
    },
    revision_citations: &[],
};

/// A response to no request in flight, against its sender when the
/// direction is known.
pub(crate) const UNKNOWN_RESPONSE: Rule = Rule {
    id: "ENV-UNKNOWN-RESPONSE",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A response answers a request that is in flight",
    citation: Citation {
        document: docs::JSONRPC,
        section: "5. Response object (id)",
        text: "This member is REQUIRED. It MUST be the same as the value of the id member in the Request Object.",
        note: "",
    },
    revision_citations: &[],
};

/// A second response to one request, against the party that answered twice.
pub(crate) const DUPLICATE_RESPONSE: Rule = Rule {
    id: "ENV-DUPLICATE-RESPONSE",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A request is answered once",
    citation: Citation {
        document: docs::JSONRPC,
        section: "5. Response object",
        text: "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.",
        note: "The suite reads \"a Response\" as one: a second answer to a request already answered answers no request in flight.",
    },
    revision_citations: &[],
};

/// A request id reused while the first request still awaits its answer: a
/// warning, as no text forbids it.
pub(crate) const ID_REUSE: Rule = Rule {
    id: "ENV-ID-REUSE",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A request id is reused while a request with that id awaits its response (no text forbids it; answers become ambiguous)",
    citation: Citation {
        document: docs::JSONRPC,
        section: "4. Request object (id)",
        text: "The Server MUST reply with the same value in the Response object if included. This member is used to correlate the context between the two objects.",
        note: "No text forbids reusing an id. While two requests with the same id await their responses, an answer cannot be matched to one of them, so the suite warns about the ambiguity. Not said when a line since the earlier request went unread at one of the checker's limits: it may have been that request's answer.",
    },
    revision_citations: &[],
};

/// The ENV-* rules, in catalog order ([`super::trace_rules`] adds the units').
pub const RULES: &[&Rule] = &[
    &UTF8,
    &BOM,
    &JSON,
    &OBJECT,
    &BATCH,
    &BATCH_EMPTY,
    &BATCH_LIFECYCLE,
    &DUPLICATE_KEY,
    &NUMBER_RANGE,
    &UNPAIRED_SURROGATE,
    &VERSION,
    &METHOD,
    &ID,
    &PARAMS,
    &RESULT_OR_ERROR,
    &UNKNOWN_RESPONSE,
    &DUPLICATE_RESPONSE,
    &ID_REUSE,
];

/// The diagnostic for a line that is not a readable message, or `None`
/// for envelope faults (those are `TRACE-*`).
pub(crate) fn record_fault(fault: &RecordFault) -> Option<Diagnostic> {
    Some(match fault {
        RecordFault::NotUtf8 { column } => Diagnostic::new(
            &UTF8,
            format!("line is not valid UTF-8 (first bad byte at column {column})"),
        )
        .hint("encode messages as UTF-8"),
        RecordFault::NotJson { column, reason } => {
            Diagnostic::new(&JSON, format!("line is not valid JSON at column {column}: {reason}"))
                .hint("each line must be one complete JSON-RPC message; check for truncation or embedded newlines")
        }
        RecordFault::Batch => batch(0, false),
        RecordFault::NotObject { in_envelope: false } => {
            Diagnostic::new(&OBJECT, "line is JSON but not an object, so not a JSON-RPC message")
        }
        RecordFault::DuplicateKey {
            reason,
            in_envelope: false,
        } => Diagnostic::new(&DUPLICATE_KEY, format!("message not checked: {reason}"))
            .hint("send each member once"),
        _ => return None,
    })
}

/// A batch of `len` messages; `allowed` under a revision whose transport
/// allows batches (then only an empty one is reported).
pub fn batch(len: usize, allowed: bool) -> Diagnostic {
    match (len, allowed) {
        (0, true) => Diagnostic::new(&BATCH_EMPTY, "the line is an empty JSON array: a batch with no message")
            .hint("send at least one message in a batch, or none at all"),
        (0, false) => Diagnostic::new(&BATCH, "the line is an empty JSON array (an empty JSON-RPC batch, which JSON-RPC 2.0 calls invalid)")
            .hint("send each message on its own line"),
        (n, _) => Diagnostic::new(
            &BATCH,
            format!("the line is a JSON-RPC batch of {n} message{}; each is checked as a message, but this revision's transport sends one message per line", if n == 1 { "" } else { "s" }),
        )
        .hint("send each message on its own line (protocol v2 allows batches)"),
    }
}

/// A message with `method` at `pointer` (`/2`) inside a batch of `len`
/// messages, sent by `sender` (when known), under a revision whose transport
/// allows batches: a warning if the method is lifecycle-sensitive.
pub(crate) fn batched_lifecycle(
    method: &str,
    sender: Option<Direction>,
    pointer: &str,
    len: usize,
) -> Option<Diagnostic> {
    let method = LIFECYCLE_SENSITIVE.iter().find(|m| **m == method)?;
    let party = sender.map_or("sending party", Direction::sender);
    Some(
        Diagnostic::new(
            &BATCH_LIFECYCLE,
            format!("the {party} sent `{method}` inside a batch of {len} message{}: v2 asks that lifecycle-sensitive messages travel alone (a batch may be processed in any order)", if len == 1 { "" } else { "s" }),
        )
        .hint(format!("send `{method}` on its own line, and what depends on it after its answer"))
        .at(format!("{pointer}/method")),
    )
}

/// A value at `pointer` whose repeated member names give it more readings
/// than the checker reads ([`crate::trace::readings`]): some values of its
/// repeated members were not checked, so the update is not applied.
pub(crate) fn readings_cut(pointer: &str) -> Diagnostic {
    let most = crate::trace::MAX_READINGS;
    Diagnostic::new(
        &super::trace_format::LIMIT,
        format!(
            "member names repeat so often that this has more than {most} readings; {most} were \
             checked (the first ones and the one of every last value), and the update is not applied"
        ),
    )
    .at(pointer)
    .hint("send each member once")
}

/// A message (or envelope) whose top-level names repeat so often that not
/// every value was read.
pub(crate) fn message_readings_cut() -> Diagnostic {
    let most = crate::trace::MAX_READINGS;
    Diagnostic::new(
        &super::trace_format::LIMIT,
        format!(
            "member names of the message repeat so often that it has more than {most} readings; \
             {most} were checked (the first ones and the one of every last value)"
        ),
    )
    .hint("send each member once")
}

/// A member name repeated inside a payload the rules read (`pointer` points
/// at the member); `consequence` says what was not read because of it.
pub(crate) fn duplicate_member(pointer: &str, key: &str, consequence: &str) -> Diagnostic {
    Diagnostic::new(
        &DUPLICATE_KEY,
        format!(
            "member `{}` appears twice in one object; {consequence}",
            crate::text::shorten(key, 60)
        ),
    )
    .at(pointer)
    .hint("send each member once (JSON parsers disagree on which one wins)")
}

/// The diagnostic for a JSON-RPC framing fault that
/// [`crate::jsonrpc`] found (each fault maps to one ENV-* rule).
pub(crate) fn frame_fault(fault: &FrameFault) -> Diagnostic {
    match fault {
        FrameFault::Version { found: Some(found) } => {
            Diagnostic::new(&VERSION, format!("`jsonrpc` is {found}, not \"2.0\"")).at("/jsonrpc")
        }
        FrameFault::Version { found: None } => {
            Diagnostic::new(&VERSION, "`jsonrpc` member is missing")
                .at("/jsonrpc")
                .hint("add \"jsonrpc\": \"2.0\"")
        }
        FrameFault::Unpredictable { member, found } => unpredictable(found, &format!("/{member}")),
        FrameFault::MethodNotString => {
            Diagnostic::new(&METHOD, "`method` is not a string").at("/method")
        }
        FrameFault::MissingMethod => Diagnostic::new(
            &METHOD,
            "message has an `id` but no `method`, `result` or `error`",
        )
        .hint("a request needs a method; a response needs result or error"),
        FrameFault::IdType => {
            Diagnostic::new(&ID, "`id` is neither a string, a number nor null").at("/id")
        }
        FrameFault::ParamsType => {
            Diagnostic::new(&PARAMS, "`params` is neither an object nor an array").at("/params")
        }
        FrameFault::ResultAndError => {
            Diagnostic::new(&RESULT_OR_ERROR, "response has both `result` and `error`")
        }
        FrameFault::ResponseWithoutId => {
            Diagnostic::new(&RESULT_OR_ERROR, "response has no `id`").at("/id")
        }
    }
}

/// What the request tracker's verdict on a request with `id` says: a reuse
/// (ENV-ID-REUSE against `direction`'s sender), a request past the
/// in-flight limit (TRACE-LIMIT), or `None` for a request tracked as usual.
pub(crate) fn request_outcome(
    outcome: &RequestOutcome,
    direction: Direction,
    id: &Id,
    method: &str,
) -> Option<Diagnostic> {
    match outcome {
        RequestOutcome::Tracked => None,
        RequestOutcome::Reused { previous_line } => Some(
            Diagnostic::new(
                &ID_REUSE,
                format!(
                    "the {} reused request id {id} for `{}` while its request on line {previous_line} still awaits a response: an answer to either is ambiguous",
                    direction.sender(),
                    crate::text::shorten(method, 60)
                ),
            )
            .at("/id")
            .hint("number requests so that no two in flight share an id"),
        ),
        RequestOutcome::Overflow => Some(
            Diagnostic::new(
                &super::trace_format::LIMIT,
                format!("too many requests in flight from the {}; this one is not tracked", direction.sender()),
            )
            .hint("raise --max-outstanding-requests"),
        ),
    }
}

/// What the request tracker's verdict on a response with `id` says: an
/// unknown or duplicate response, or one that a bare trace cannot place
/// (TRACE-DIRECTION, against no party, said once per ambiguous pair);
/// `None` when it answers a request, or may (an earlier reading's repeat).
pub(crate) fn response_outcome(outcome: &ResponseOutcome, id: &Id) -> Option<Diagnostic> {
    match outcome {
        ResponseOutcome::Unknown { direction } => Some(
            Diagnostic::new(
                &UNKNOWN_RESPONSE,
                match direction {
                    Some(d) => format!(
                        "the {} answered request id {id}, but the {} has no request with that id in flight",
                        d.sender(),
                        d.opposite().sender()
                    ),
                    None => format!("response id {id} answers no request in flight in either direction"),
                },
            )
            .at("/id"),
        ),
        ResponseOutcome::Duplicate { direction } => Some(
            Diagnostic::new(
                &DUPLICATE_RESPONSE,
                format!("the {} answered request id {id} a second time", direction.sender()),
            )
            .at("/id")
            .hint("send exactly one response per request"),
        ),
        ResponseOutcome::DuplicateOrStray { direction } => Some(
            super::trace_format::duplicate_or_stray_response(&id.to_string(), *direction),
        ),
        ResponseOutcome::Ambiguous {
            request,
            alternative,
            repeat: false,
            ..
        } => Some(super::trace_format::ambiguous_response(
            &id.to_string(),
            &request.method,
            &alternative.method,
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_lifecycle_sensitive_methods_of_a_batch_are_reported_against_their_sender() {
        let d = batched_lifecycle("session/prompt", Some(Direction::ClientToAgent), "/1", 2)
            .expect("session/prompt is lifecycle-sensitive");
        assert_eq!(d.rule.id, "ENV-BATCH-LIFECYCLE");
        assert_eq!(d.pointer, "/1/method");
        assert!(
            d.message.starts_with("the client sent `session/prompt`"),
            "{}",
            d.message
        );
        let unplaced = batched_lifecycle("initialize", None, "/0", 1).expect("initialize");
        assert!(
            unplaced.message.starts_with("the sending party"),
            "{}",
            unplaced.message
        );
        for method in [
            "session/list",
            "session/update",
            "session/cancel",
            "session/prompt2",
        ] {
            assert!(
                batched_lifecycle(method, None, "/0", 1).is_none(),
                "{method}"
            );
        }
    }
}
