//! SES-*: connection and session lifecycle around plan updates.

use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::capability::{VersionFault, MAX_PROTOCOL_VERSION};
use crate::spec::Revision;

pub const UPDATE_PARAMS: Rule = Rule {
    id: "SES-UPDATE-PARAMS",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`session/update` params carry a string `sessionId` and an `update` object with a string `sessionUpdate`",
    citation: Citation {
        document: docs::SCHEMA_V1,
        section: "SessionNotification",
        text: "\"required\": [\"sessionId\", \"update\"]",
        note: "update is a SessionUpdate, an object discriminated by its string sessionUpdate.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::SCHEMA_V2,
                section: "UpdateSessionNotification",
                text: "\"required\": [\"sessionId\", \"update\"]",
                note: "update is a SessionUpdate, an object discriminated by its string sessionUpdate.",
            },
        },
    ],
};

pub const UPDATE_NOTIFICATION: Rule = Rule {
    id: "SES-UPDATE-NOTIFICATION",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`session/update` is a notification from the agent to the client",
    citation: Citation {
        document: docs::TRANSPORTS_V1,
        section: "stdio",
        text: "The agent MUST NOT write anything to its stdout that is not a valid ACP message.",
        note: "session/update is a notification (no id, JSON-RPC 2.0, 4.1) that only the agent sends (\"The Agent reports the model's output to the Client via session/update notifications.\"); a session/update request, or one from the client, is no valid ACP message. The client's counterpart: \"The client MUST NOT write anything to the agent's stdin that is not a valid ACP message.\"",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::TRANSPORTS_V2,
                section: "stdio",
                text: "The agent MUST NOT write anything to its stdout that is not a valid ACP message.",
                note: "session/update is a notification (no id, JSON-RPC 2.0, 4.1) that only the agent sends (\"The Agent reports the model's output to the Client via session/update notifications.\"); a session/update request, or one from the client, is no valid ACP message. The client's counterpart: \"The client MUST NOT write anything to the agent's stdin that is not a valid ACP message.\"",
            },
        },
    ],
};

pub const PROTOCOL_VERSION: Rule = Rule {
    id: "SES-PROTOCOL-VERSION",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A successful `initialize` result carries the chosen `protocolVersion`, an integer from 0 to 65535",
    citation: Citation {
        document: docs::INITIALIZATION_V1,
        section: "Initialization",
        text: "The Agent MUST respond with the chosen protocol version and the capabilities it supports.",
        note: "The protocol version is \"a single integer that identifies a MAJOR protocol version\"; the schema's ProtocolVersion is an integer from 0 to 65535 (uint16), so a value outside that range is no version a client can read. Without one no revision is known (INIT-VERSION-UNKNOWN).",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::INITIALIZATION_V2,
            section: "Initialization",
            text: "The Agent MUST respond with the chosen protocol version",
            note: "The protocol version is \"a single integer that identifies a MAJOR protocol version\"; the schema's ProtocolVersion is an integer from 0 to 65535 (uint16), so a value outside that range is no version a client can read. Without one no revision is known (INIT-VERSION-UNKNOWN).",
        },
    }],
};

pub const NEW_SESSION_ID: Rule = Rule {
    id: "SES-NEW-SESSION-ID",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A successful `session/new` (or `session/fork`) result carries the new session's `sessionId`, a string",
    citation: Citation {
        document: docs::SESSION_SETUP_V1,
        section: "Creating a Session",
        text: "The Agent MUST respond with a unique Session ID that identifies this conversation:",
        note: "The agent's later updates that name a session no answer named are then taken as that session's (not SES-UNKNOWN-SESSION): the fault is this answer's.",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::SESSION_SETUP_V2,
            section: "Creating a Session",
            text: "The Agent MUST respond with a unique Session ID that identifies this conversation:",
            note: "The agent's later updates that name a session no answer named are then taken as that session's (not SES-UNKNOWN-SESSION): the fault is this answer's.",
        },
    }],
};

pub const SESSION_ID_REUSED: Rule = Rule {
    id: "SES-SESSION-ID-REUSED",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A `session/new` (or `session/fork`) answer names no session already established on the connection",
    citation: Citation {
        document: docs::SESSION_SETUP_V1,
        section: "Creating a Session",
        text: "The Agent MUST respond with a unique Session ID that identifies this conversation:",
        note: "Judged when every reading of the answer names a session that an earlier session/new or session/fork answer, or an answered session/load or session/resume, established; not while a load of it is in flight (it may fail), nor for a session whose session/close is in flight or was answered (the text does not say whether an id stays unique once its session is closed), nor after a session/close the suite cannot follow to its answer or a line went unread. The reference client shows the answered session afresh (the old conversation's plans are not the new one's).",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::SESSION_SETUP_V2,
            section: "Creating a Session",
            text: "The Agent MUST respond with a unique Session ID that identifies this conversation:",
            note: "Judged when every reading of the answer names a session that an earlier session/new or session/fork answer, or an answered session/resume, established; not while a resume of it is in flight, nor for a session whose session/close is in flight or was answered (the text does not say whether an id stays unique once its session is closed), nor after a session/close the suite cannot follow to its answer or a line went unread. The reference client shows the answered session afresh.",
        },
    }],
};

pub const RULES: &[&Rule] = &[
    &UPDATE_PARAMS,
    &UPDATE_NOTIFICATION,
    &PROTOCOL_VERSION,
    &NEW_SESSION_ID,
    &SESSION_ID_REUSED,
];

/// A successful initialize result without a protocolVersion the suite can
/// read.
pub fn no_protocol_version(fault: VersionFault<'_>) -> Diagnostic {
    let what = match fault {
        VersionFault::Missing => {
            return Diagnostic::new(
                &PROTOCOL_VERSION,
                "the initialize result has no `protocolVersion`",
            )
            .at("/result")
            .hint("answer with the protocol version chosen, e.g. \"protocolVersion\": 1");
        }
        VersionFault::NotANumber(kind) => format!("is {kind}, not an integer"),
        VersionFault::NotAnInteger(text) => {
            format!("is {}, not an integer", crate::text::shorten(text, 40))
        }
        VersionFault::OutOfRange(text) => format!(
            "is {}, beyond the range of protocol versions (integers from 0 to {MAX_PROTOCOL_VERSION})",
            crate::text::shorten(text, 40)
        ),
    };
    Diagnostic::new(
        &PROTOCOL_VERSION,
        format!("the initialize result's `protocolVersion` {what}"),
    )
    .at("/result/protocolVersion")
    .hint("answer with the protocol version chosen, e.g. \"protocolVersion\": 1")
}

/// A successful session/new (or fork) result without a string sessionId.
pub fn no_session_id(method: &str, found: Option<&str>) -> Diagnostic {
    let what = match found {
        None => "has no `sessionId`".to_owned(),
        Some(kind) => format!("has a `sessionId` that is {kind}, not a string"),
    };
    Diagnostic::new(
        &NEW_SESSION_ID,
        format!("the {method} result {what}: the client cannot address the session"),
    )
    .at(if found.is_some() {
        "/result/sessionId"
    } else {
        "/result"
    })
    .hint("answer with the new session's id: \"sessionId\": \"sess_...\"")
}

pub fn bad_params(pointer: &str, what: &str) -> Diagnostic {
    Diagnostic::new(&UPDATE_PARAMS, format!("session/update {what}")).at(pointer)
}

pub fn update_as_request() -> Diagnostic {
    Diagnostic::new(
        &UPDATE_NOTIFICATION,
        "session/update sent as a request (with an `id`)",
    )
    .at("/id")
    .hint("session/update is a notification: drop the id")
}

pub fn update_from_client() -> Diagnostic {
    Diagnostic::new(&UPDATE_NOTIFICATION, "session/update sent by the client").at("/method")
}

/// A session/new or session/fork answer naming a session already
/// established on the connection.
pub fn session_id_reused(method: &str, session: &str) -> Diagnostic {
    Diagnostic::new(
        &SESSION_ID_REUSED,
        format!(
            "the {method} result names session `{}`, already established on this connection: the new conversation is shown afresh",
            crate::text::shorten(session, 80)
        ),
    )
    .at("/result/sessionId")
    .session(session)
    .hint("answer each session/new with a session id not used before on the connection")
}

