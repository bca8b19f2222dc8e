//! ENV-*: framing and JSON-RPC 2.0.

use crate::catalog::{docs, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::jsonrpc::{Direction, FrameFault, Id, RequestOutcome, ResponseOutcome};
use crate::spec::Revision;
use crate::trace::RecordFault;

pub const UTF8: Rule = Rule {
    id: "ENV-UTF8",
    level: Level::Must,
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

pub const JSON: Rule = Rule {
    id: "ENV-JSON",
    level: Level::Must,
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

pub const OBJECT: Rule = Rule {
    id: "ENV-OBJECT",
    level: Level::Must,
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
                note: "v2 also allows batch arrays of such objects (ENV-BATCH).",
            },
        },
    ],
};

pub const BATCH: Rule = Rule {
    id: "ENV-BATCH",
    level: Level::Should,
    revisions: ALL_REVISIONS,
    summary: "ACP sends one message per line; batches are not used (and are not checked)",
    citation: Citation {
        document: docs::TRANSPORTS_V1,
        section: "stdio",
        text: "Messages are individual JSON-RPC requests, notifications, or responses.",
        note: "v1 says nothing of batches: a batch is reported for information and each element is still checked as a message.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::TRANSPORTS_V2,
                section: "JSON-RPC Batch Messages",
                text: "A client or agent MAY send an array filled with Request objects.",
                note: "v2 allows batches (\"The batch MUST be an array with at least one value\"): each element is checked as a message; an empty batch is the error.",
            },
        },
    ],
};

pub const DUPLICATE_KEY: Rule = Rule {
    id: "ENV-DUPLICATE-KEY",
    level: Level::Should,
    revisions: ALL_REVISIONS,
    summary: "Member names are unique in every object of a message (a repeat in the JSON-RPC object or in a plan update leaves that message unchecked)",
    citation: Citation {
        document: docs::RFC8259,
        section: "4. Objects",
        text: "The names within an object SHOULD be unique.",
        note: "",
    },
    revision_citations: &[],
};

pub const VERSION: Rule = Rule {
    id: "ENV-VERSION",
    level: Level::Must,
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

pub const METHOD: Rule = Rule {
    id: "ENV-METHOD",
    level: Level::Must,
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

pub const ID: Rule = Rule {
    id: "ENV-ID",
    level: Level::Must,
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

pub const PARAMS: Rule = Rule {
    id: "ENV-PARAMS",
    level: Level::Must,
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

pub const RESULT_OR_ERROR: Rule = Rule {
    id: "ENV-RESULT-ERROR",
    level: Level::Must,
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

pub const UNKNOWN_RESPONSE: Rule = Rule {
    id: "ENV-UNKNOWN-RESPONSE",
    level: Level::Must,
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

pub const DUPLICATE_RESPONSE: Rule = Rule {
    id: "ENV-DUPLICATE-RESPONSE",
    level: Level::Must,
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

pub const ID_REUSE: Rule = Rule {
    id: "ENV-ID-REUSE",
    level: Level::Should,
    revisions: ALL_REVISIONS,
    summary: "A request id is reused while a request with that id awaits its response (no text forbids it; answers become ambiguous)",
    citation: Citation {
        document: docs::JSONRPC,
        section: "4. Request object (id)",
        text: "The Server MUST reply with the same value in the Response object if included. This member is used to correlate the context between the two objects.",
        note: "No text forbids reusing an id. While two requests with the same id await their responses, an answer cannot be matched to one of them, so the suite warns about the ambiguity.",
    },
    revision_citations: &[],
};

pub const RULES: &[&Rule] = &[
    &UTF8,
    &JSON,
    &OBJECT,
    &BATCH,
    &DUPLICATE_KEY,
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
pub fn record_fault(fault: &RecordFault) -> Option<Diagnostic> {
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
        RecordFault::Batch => Diagnostic::new(&BATCH, "line is a JSON array (a JSON-RPC batch); it was not checked")
            .hint("send each message on its own line"),
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

/// A member name repeated inside a payload the rules read (`pointer` points
/// at the member); `consequence` says what was not read because of it.
pub fn duplicate_member(pointer: &str, key: &str, consequence: &str) -> Diagnostic {
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

pub fn frame_fault(fault: &FrameFault) -> Diagnostic {
    match fault {
        FrameFault::Version { found: Some(found) } => {
            Diagnostic::new(&VERSION, format!("`jsonrpc` is {found}, not \"2.0\"")).at("/jsonrpc")
        }
        FrameFault::Version { found: None } => {
            Diagnostic::new(&VERSION, "`jsonrpc` member is missing")
                .at("/jsonrpc")
                .hint("add \"jsonrpc\": \"2.0\"")
        }
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

pub fn request_outcome(
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

pub fn response_outcome(outcome: &ResponseOutcome, id: &Id) -> Option<Diagnostic> {
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
        ResponseOutcome::Ambiguous { request, .. } => {
            Some(super::trace_format::ambiguous_response(&id.to_string(), &request.method))
        }
        _ => None,
    }
}
