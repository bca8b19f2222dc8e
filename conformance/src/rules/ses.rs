//! SES-*: connection and session lifecycle around plan updates.

use super::{docs, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

pub const BEFORE_INIT: Rule = Rule {
    id: "SES-BEFORE-INIT",
    level: Level::Must,
    revisions: ALL_REVISIONS,
    summary: "No session message before `initialize` has been answered",
    citation: Citation {
        document: docs::INITIALIZATION_V1,
        section: "Initialization",
        text: "Before a Session can be created, Clients MUST initialize the connection by calling the initialize method",
        note: "The suite treats a session/update before the initialize answer the same way: no session can exist yet.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::INITIALIZATION_V2,
                section: "Initialization",
                text: "Before a Session can be created, Clients MUST initialize the connection by calling the initialize method",
                note: "",
            },
        },
    ],
};

pub const UNKNOWN_SESSION: Rule = Rule {
    id: "SES-UNKNOWN-SESSION",
    level: Level::Must,
    revisions: ALL_REVISIONS,
    summary: "`session/update` names a session established on this connection",
    citation: Citation {
        document: docs::SESSION_SETUP_V1,
        section: "Session ID",
        text: "The session ID returned by session/new is a unique identifier for the conversation context.",
        note: "The suite infers that an agent's session/update names a session of this connection: one that session/new or session/fork returned, or that session/load or session/resume named. Schema: sessionId is \"The ID of the session this update pertains to.\"",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::SESSION_SETUP_V2,
                section: "Session ID",
                text: "The session ID returned by session/new is a unique identifier for the conversation context.",
                note: "The suite infers that an agent's session/update names a session of this connection: one that session/new or session/fork returned, or that session/resume named.",
            },
        },
    ],
};

pub const UPDATE_PARAMS: Rule = Rule {
    id: "SES-UPDATE-PARAMS",
    level: Level::Must,
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
    revisions: ALL_REVISIONS,
    summary: "`session/update` is a notification from the agent to the client",
    citation: Citation {
        document: docs::PROMPT_TURN_V1,
        section: "3. Agent Reports Output",
        text: "The Agent reports the model's output to the Client via session/update notifications.",
        note: "A notification has no id (JSON-RPC 2.0, 4.1), and it travels from the agent to the client.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PROMPT_LIFECYCLE_V2,
                section: "3. Agent Reports Output",
                text: "The Agent reports the model's output to the Client via session/update notifications.",
                note: "A notification has no id (JSON-RPC 2.0, 4.1), and it travels from the agent to the client.",
            },
        },
    ],
};

pub const RULES: &[&Rule] = &[
    &BEFORE_INIT,
    &UNKNOWN_SESSION,
    &UPDATE_PARAMS,
    &UPDATE_NOTIFICATION,
];

pub fn before_init(method: &str) -> Diagnostic {
    Diagnostic::new(
        &BEFORE_INIT,
        format!(
            "`{}` before `initialize` was answered",
            crate::diag::shorten(method, 80)
        ),
    )
    .at("/method")
    .hint("the client calls initialize first and waits for its response")
}

pub fn unknown_session(session: &str) -> Diagnostic {
    Diagnostic::new(
        &UNKNOWN_SESSION,
        format!(
            "session/update for session `{}`, which no session/new, session/load or resume established on this connection",
            crate::diag::shorten(session, 80)
        ),
    )
    .at("/params/sessionId")
    .session(session)
    .hint("use the sessionId returned by session/new (or passed to session/load)")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_method_name_is_not_repeated() {
        let method = format!("session/{}", "m".repeat(100_000));
        assert!(before_init(&method).message.len() < 200);
    }
}
