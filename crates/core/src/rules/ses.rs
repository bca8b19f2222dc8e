//! SES-*: connection and session lifecycle around plan updates.

use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

/// A `session/update` for a session this connection never established.
pub const UNKNOWN_SESSION: Rule = Rule {
    id: "SES-UNKNOWN-SESSION",
    // No MUST binds the agent here: the one that says a session must be
    // attached on the connection before its updates binds the client.
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`session/update` names a session established on this connection",
    citation: Citation {
        document: docs::SCHEMA_1_20_V1,
        section: "SessionStatus open",
        text: "A Client that did not create or resume the session on its own connection MUST still call `session/load` or `session/resume` before sending `session/prompt` or expecting `session/update` notifications.",
        note: "The MUST binds the client (and sits under the unstable session/status feature, the same words in schema 1.17.0); the suite infers from it that an agent's session/update names a session of this connection: one that session/new or session/fork returned, or that session/load or session/resume named. No MUST binds the agent to that, so it is a warning.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::SCHEMA_1_20_V2,
                section: "SessionStatus open",
                text: "A Client that did not create or resume the session on its own connection MUST still call `session/resume` before sending `session/prompt` or expecting `session/update` notifications.",
                note: "The MUST binds the client (and sits under the unstable session/status feature, the same words in schema 1.17.0); the suite infers from it that an agent's session/update names a session of this connection: one that session/new or session/fork returned, or that session/resume named. No MUST binds the agent to that, so it is a warning.",
            },
        },
    ],
};

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

/// A plan update between a no-replay `session/resume` and its answer.
pub const RESUME_REPLAY: Rule = Rule {
    id: "SES-RESUME-REPLAY",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "No plan update for a session between a `session/resume` that asks for no replay and its answer",
    citation: Citation {
        document: docs::SESSION_SETUP_V1,
        section: "Resuming Sessions",
        text: "Unlike session/load, the Agent MUST NOT replay the conversation history via session/update notifications before responding.",
        note: "Only an update that can be nothing but history is judged: none while a turn of the session may be running (a session/prompt in flight), whoever sent that prompt early (SES-PROMPT-BEFORE-SETUP).",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::SESSION_SETUP_V2,
            section: "Resuming Sessions",
            text: "When replayFrom is omitted or null, the Agent MUST NOT replay the conversation history via session/update notifications before responding.",
            note: "With replayFrom {\"type\": \"start\"} the agent replays plans as live traffic (Migrating to v2) and this rule does not apply. Only an update that can be nothing but history is judged: none while a turn of the session may be running (a prompt not yet followed by the idle state_update).",
        },
    }],
};

/// A plan update for a loaded session between the end of its replay and the
/// next prompt: information, as it is not part of the replay.
pub const REPLAY_AFTER_ANSWER: Rule = Rule {
    id: "SES-REPLAY-AFTER-ANSWER",
    level: Level::Info,
    basis: Basis::Text,
    // v2 from schema 1.20.0 on ends a replay with replay_complete, and what
    // follows it is live; an answer without it is SES-REPLAY-COMPLETE.
    revisions: &[
        Revision::Draft202605,
        Revision::V1Schema117,
        Revision::V1,
        Revision::V2Schema117,
    ],
    summary: "A plan update for a loaded session after the answer and before the next prompt: not part of the replay",
    citation: Citation {
        document: docs::SESSION_SETUP_V1,
        section: "Loading Sessions",
        text: "When all the conversation entries have been streamed to the Client, the Agent MUST respond to the original session/load request.",
        note: "If the update belongs to the history, it came after the answer that says the replay is over; if it is new, no text forbids it. The trace cannot tell: an info (the suite's replay comparison, LOAD-REPLAY-*, ends at the answer).",
    },
    revision_citations: &[],
};

/// A plan update for a session between the end of its cancelled turn and
/// the next prompt: information.
pub const UPDATE_AFTER_CANCEL: Rule = Rule {
    id: "SES-UPDATE-AFTER-CANCEL",
    level: Level::Info,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A plan update for a session after its cancelled turn ended (v1: the session/prompt answer; v2: the idle state_update) and before the next prompt",
    citation: Citation {
        document: docs::PROMPT_TURN_V1,
        section: "Cancellation",
        text: "The Agent MAY send session/update notifications with content or tool call updates after receiving the session/cancel notification, but it MUST ensure that it does so before responding to the session/prompt request.",
        note: "A late update of the cancelled turn breaks this MUST; an update outside any turn is not forbidden (v1 sends some, e.g. available commands). The trace cannot tell them apart, so an info; a later prompt starts a new turn.",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::PROMPT_LIFECYCLE_V2,
            section: "Cancellation",
            text: "The Agent MAY send session/update notifications with content or tool call updates after receiving the session/cancel notification, but it MUST ensure that it does so before sending the idle state_update session update that reports cancellation.",
            note: "v2 also says \"Background activity MAY continue and emit other session/update notifications while the Agent reports idle\", so the trace cannot tell a late update from background work: an info.",
        },
    }],
};

/// A `session/prompt` before the answer to the load or resume that sets its
/// session up, against the client.
pub const PROMPT_BEFORE_SETUP: Rule = Rule {
    id: "SES-PROMPT-BEFORE-SETUP",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "No `session/prompt` for a session whose `session/load` or `session/resume` is not answered yet",
    citation: Citation {
        document: docs::PROMPT_TURN_V1,
        section: "Prompt Turn",
        text: "Before sending prompts, Clients MUST first complete the initialization phase and session setup.",
        note: "A session the client loads or resumes is set up when the agent answers that request; not judged when a line since the request may have been that answer (unreadable, or a response to no request in flight). Until then the prompt's turn may run alongside the replay, so the agent is not judged on which of its updates are history (SES-RESUME-REPLAY).",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::PROMPT_LIFECYCLE_V2,
            section: "Prompt Turn",
            text: "Before sending prompts, Clients MUST first complete the initialization phase and session setup.",
            note: "A session the client resumes is set up when the agent answers session/resume; a batch that carries both does not wait for it. Not judged when a line since the request may have been that answer (unreadable, or a response to no request in flight). Until then the prompt's turn may run alongside the replay, so the agent is not judged on which of its updates are history (SES-RESUME-REPLAY).",
        },
    }],
};

/// v2's `replay_complete`: missing, repeated or unasked for.
pub const REPLAY_COMPLETE: Rule = Rule {
    id: "SES-REPLAY-COMPLETE",
    level: Level::Must,
    basis: Basis::Text,
    // Schema 1.20.0 added the marker.
    revisions: &[Revision::V2],
    summary: "v2: one `replay_complete` per `session/resume` with a `replayFrom` cursor, before its successful answer; none without a cursor",
    citation: Citation {
        document: docs::SCHEMA_1_20_V2,
        section: "ReplayComplete",
        text: "The Agent MUST send this exactly once on a session for each session/resume request with a replayFrom cursor, after the last replayed update for that session and before the response, even for an empty replay.",
        note: "The same text: \"The Agent MUST NOT send it when replayFrom is omitted or null, or when it cannot finish the replay.\" A failed answer owes no marker; a resume whose replayFrom reads both ways (a repeated member) neither owes nor forbids one. The updates after the marker are live (\"Every update after it is not\"): SES-REPLAY-AFTER-ANSWER and the replay comparison end at the marker.",
    },
    revision_citations: &[],
};

/// This file's SES-* rules; the session units' follow them in the catalog.
pub const RULES: &[&Rule] = &[
    &UNKNOWN_SESSION,
    &UPDATE_PARAMS,
    &UPDATE_NOTIFICATION,
    &RESUME_REPLAY,
    &REPLAY_AFTER_ANSWER,
    &UPDATE_AFTER_CANCEL,
    &PROMPT_BEFORE_SETUP,
    &REPLAY_COMPLETE,
];

/// A plan update for `session` before the answer to the no-replay
/// `session/resume` on `request_line`.
pub fn resume_replay(session: &str, request_line: u64) -> Diagnostic {
    Diagnostic::new(
        &RESUME_REPLAY,
        format!("plan update for session `{}` before the answer to its session/resume on line {request_line}, which asked for no replay", crate::text::shorten(session, 80)),
    )
    .at("/params/update/sessionUpdate")
    .session(session)
    .hint("answer session/resume first; send plan updates once the session runs again")
}

/// A prompt for `session` before the answer to the load or resume on
/// `request_line` (pointing at its `sessionId`).
pub fn prompt_before_setup(session: &str, request_line: u64) -> Diagnostic {
    Diagnostic::new(
        &PROMPT_BEFORE_SETUP,
        format!(
            "session/prompt for session `{}` before the agent answered the session/load or session/resume on line {request_line} that sets it up",
            crate::text::shorten(session, 80)
        ),
    )
    .at("/params/sessionId")
    .session(session)
    .hint("wait for the session/load or session/resume answer before prompting")
}

/// A successful session/resume answer with a replayFrom cursor and no
/// replay_complete before it.
pub fn replay_complete_missing(session: &str, request_line: u64) -> Diagnostic {
    Diagnostic::new(
        &REPLAY_COMPLETE,
        format!(
            "the agent answered the session/resume on line {request_line}, which gave a replayFrom cursor, without sending replay_complete for session `{}` first",
            crate::text::shorten(session, 80)
        ),
    )
    .at("/result")
    .session(session)
    .hint("send session/update replay_complete after the last replayed update, even for an empty replay, then answer")
}

/// A replay_complete no session/resume with a cursor asked for.
pub fn replay_complete_unasked(session: &str) -> Diagnostic {
    Diagnostic::new(
        &REPLAY_COMPLETE,
        format!(
            "replay_complete for session `{}`, but no session/resume of it with a replayFrom cursor awaits its answer",
            crate::text::shorten(session, 80)
        ),
    )
    .at("/params/update/sessionUpdate")
    .session(session)
    .hint("send replay_complete only to end the replay a session/resume with replayFrom asked for")
}

/// A second replay_complete for the same session/resume.
pub fn replay_complete_again(session: &str, request_line: u64) -> Diagnostic {
    Diagnostic::new(
        &REPLAY_COMPLETE,
        format!(
            "a second replay_complete for session `{}` before the answer to the session/resume on line {request_line}",
            crate::text::shorten(session, 80)
        ),
    )
    .at("/params/update/sessionUpdate")
    .session(session)
    .hint("send replay_complete exactly once per session/resume with replayFrom")
}

/// A plan update for `session` after the replay ended with the answer on
/// `answer_line`, before a new prompt.
pub fn replay_after_answer(session: &str, answer_line: u64) -> Diagnostic {
    Diagnostic::new(
        &REPLAY_AFTER_ANSWER,
        format!("plan update for session `{}` after the replay ended (answer on line {answer_line}) and before any new prompt: not part of the replay", crate::text::shorten(session, 80)),
    )
    .at("/params/update/sessionUpdate")
    .session(session)
    .hint("replay the session's plans before answering; send new plans during a prompt")
}

/// A plan update for `session` after its cancelled turn ended on `end_line`,
/// before a new prompt.
pub fn update_after_cancel(session: &str, end_line: u64) -> Diagnostic {
    Diagnostic::new(
        &UPDATE_AFTER_CANCEL,
        format!("plan update for session `{}` after its cancelled turn ended on line {end_line} and before a new prompt", crate::text::shorten(session, 80)),
    )
    .at("/params/update/sessionUpdate")
    .session(session)
    .hint("send the cancelled turn's last updates before ending it")
}

/// `failed_at`: the line of the error answer to the connection's last
/// `initialize`, when every answer so far was an error.
pub fn unknown_session(session: &str) -> Diagnostic {
    Diagnostic::new(
        &UNKNOWN_SESSION,
        format!(
            "session/update for session `{}`, which no session/new, session/load or resume established on this connection",
            crate::text::shorten(session, 80)
        ),
    )
    .at("/params/sessionId")
    .session(session)
    .hint("use the sessionId returned by session/new (or passed to session/load)")
}

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


