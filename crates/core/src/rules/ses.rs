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

/// This file's SES-* rules; the session units' follow them in the catalog.
pub const RULES: &[&Rule] = &[
    &UPDATE_PARAMS,
];

/// `session/update` params that break SES-UPDATE-PARAMS at `pointer`; `what`
/// completes "session/update ..." (e.g. "has no params").
pub fn bad_params(pointer: &str, what: &str) -> Diagnostic {
    Diagnostic::new(&UPDATE_PARAMS, format!("session/update {what}")).at(pointer)
}
