//! SES-*: connection and session lifecycle around plan updates.

use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

/// `session/update` params without the members every update needs.
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

/// A `session/update` sent as a request, or by the client.
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

/// This file's SES-* rules; the session units' follow them in the catalog.
pub const RULES: &[&Rule] = &[
    &UPDATE_PARAMS,
    &UPDATE_NOTIFICATION,
];

/// `session/update` params that break SES-UPDATE-PARAMS at `pointer`; `what`
/// completes "session/update ..." (e.g. "has no params").
pub fn bad_params(pointer: &str, what: &str) -> Diagnostic {
    Diagnostic::new(&UPDATE_PARAMS, format!("session/update {what}")).at(pointer)
}

/// A `session/update` with an `id` (pointing at it).
pub fn update_as_request() -> Diagnostic {
    Diagnostic::new(
        &UPDATE_NOTIFICATION,
        "session/update sent as a request (with an `id`)",
    )
    .at("/id")
    .hint("session/update is a notification: drop the id")
}

/// A `session/update` the client sent.
pub fn update_from_client() -> Diagnostic {
    Diagnostic::new(&UPDATE_NOTIFICATION, "session/update sent by the client").at("/method")
}

