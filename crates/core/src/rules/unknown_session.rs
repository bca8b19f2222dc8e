//! SES-UNKNOWN-SESSION: an agent's `session/update` names a session
//! established on the connection. A unit ([`super::unit`]) on
//! [`Event::UnestablishedSession`]: which sessions are established is the
//! client state's, an engine fact.

use super::unit::{Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

pub(crate) const UNKNOWN_SESSION: Rule = Rule {
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

/// An update of `session`, which no request or answer established.
fn unknown_session(session: &str) -> Diagnostic {
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

/// The unit of SES-UNKNOWN-SESSION. It keeps no state: which sessions are
/// established is the client state's, the engine's fact
/// ([`Event::UnestablishedSession`]).
#[derive(Debug, Default)]
pub(crate) struct UnknownSession;

impl Unit for UnknownSession {
    const RULES: &'static [&'static Rule] = &[&UNKNOWN_SESSION];

    fn on(&mut self, event: &Event<'_>, _facts: &Facts, out: &mut Emit) {
        // Unless the client state dropped sessions at its limit: the update
        // may name one of them.
        if let Event::UnestablishedSession {
            session,
            sessions_overflowed: false,
        } = *event
        {
            out.say(unknown_session(session));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;

    #[test]
    fn an_update_of_a_session_not_established_is_a_warning() {
        for revision in crate::catalog::ALL_REVISIONS {
            let events = [(
                Event::UnestablishedSession {
                    session: "s",
                    sessions_overflowed: false,
                },
                facts(*revision, true),
            )];
            assert_eq!(said(&mut UnknownSession, &events), ["SES-UNKNOWN-SESSION"]);
        }
        let mut out = Emit::default();
        let event = Event::UnestablishedSession {
            session: "s",
            sessions_overflowed: false,
        };
        UnknownSession.on(&event, &facts(Revision::V1, true), &mut out);
        let d = out.take().remove(0);
        assert_eq!(d.severity(), crate::catalog::Severity::Warning);
        assert_eq!(d.pointer, "/params/sessionId");
        assert_eq!(d.session.as_deref(), Some("s"));
    }

    #[test]
    fn sessions_dropped_at_a_limit_or_other_events_are_no_finding() {
        let events = [
            (
                Event::UnestablishedSession {
                    session: "s",
                    sessions_overflowed: true,
                },
                facts(Revision::V1, true),
            ),
            (Event::PlanUpdate { session: "s", kind: "plan", quiet_resume: None }, facts(Revision::V1, true)),
        ];
        assert!(said(&mut UnknownSession, &events).is_empty());
    }
}
