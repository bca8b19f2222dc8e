//! SES-NEW-SESSION-ID, SES-SESSION-ID-REUSED: the agent answers each
//! `session/new` (or `session/fork`) with a session id, a string, that is
//! not one already established on the connection. A unit
//! ([`super::unit`]) on [`Event::NewSessionAnswered`]: the engine keeps
//! which sessions are open (the reference client's state) and says, with
//! each answer, whether every session it names was open; the unit keeps
//! whether any session may have been closed unseen.

use super::unit::{Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;
use serde_json::value::RawValue;

pub(crate) const NEW_SESSION_ID: Rule = Rule {
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


pub(crate) const SESSION_ID_REUSED: Rule = Rule {
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


/// A successful session/new (or fork) result without a string sessionId.
fn no_session_id(method: &str, found: Option<&str>) -> Diagnostic {
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


/// A session/new or session/fork answer naming a session already
/// established on the connection.
fn session_id_reused(method: &str, session: &str) -> Diagnostic {
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

/// The JSON type of a result's `sessionId` (the last, if it repeats).
fn session_id_type(result: &RawValue) -> Option<&'static str> {
    crate::trace::last_member(result.get(), "sessionId")
        .map(|v| crate::text::json_type_of_raw(v.get()))
}

/// The unit of SES-NEW-SESSION-ID and SES-SESSION-ID-REUSED.
#[derive(Debug, Default)]
pub(crate) struct SessionIds {
    /// The client sent a `session/close` the engine cannot follow to its
    /// answer: any session may be closed, and an agent may give a closed
    /// session's id to a new one.
    closed_any: bool,
}

impl Unit for SessionIds {
    const RULES: &'static [&'static Rule] = &[&NEW_SESSION_ID, &SESSION_ID_REUSED];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        match *event {
            Event::NewSessionAnswered {
                method,
                sessions,
                unnamed,
                certain,
                other_readings,
                every_established,
                closing,
                ..
            } => {
                // Only when no reading names a session, and no other
                // reading of the request owes none.
                if let Some(result) = unnamed.filter(|_| sessions.is_empty() && !other_readings) {
                    out.say(no_session_id(method, session_id_type(result)));
                }
                // Only when every reading reuses an id; not when one of them
                // may have been closed (whether an id stays unique once its
                // session is closed is not said), nor after a line that went
                // unread (it may have been a close).
                let reuse_known = !closing && !self.closed_any && facts.lost_at == 0;
                if let (true, true, Some(session)) =
                    (certain && every_established, reuse_known, sessions.first())
                {
                    out.say(session_id_reused(method, session));
                }
            }
            Event::CloseUnfollowed => self.closed_any = true,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, raw, said};
    use super::*;

    /// A `session/new` answer read one way, naming `sessions` (none:
    /// `unnamed` is its result), every one of them open already or not.
    fn answered<'a>(
        sessions: &'a [String],
        unnamed: Option<&'a RawValue>,
        every_established: bool,
    ) -> Event<'a> {
        Event::NewSessionAnswered {
            method: "session/new",
            sessions,
            unnamed,
            certain: unnamed.is_none(),
            other_readings: false,
            every_established,
            closing: false,
            fresh: false,
        }
    }

    /// `event` with its `closing` and `certain` changed by `change`.
    fn with<'a>(mut event: Event<'a>, change: impl Fn(&mut bool, &mut bool)) -> Event<'a> {
        if let Event::NewSessionAnswered {
            closing, certain, ..
        } = &mut event
        {
            change(closing, certain);
        }
        event
    }

    fn v1() -> Facts {
        facts(Revision::V1, true)
    }

    #[test]
    fn an_answer_without_a_string_session_id_is_the_agents_breach() {
        for (result, pointer, says) in [
            (r#"{}"#, "/result", "has no `sessionId`"),
            (r#"{"sessionId":7}"#, "/result/sessionId", "a number, not a string"),
        ] {
            let result = raw(result);
            let mut out = Emit::default();
            let event = answered(&[], Some(&result), false);
            SessionIds::default().on(&event, &v1(), &mut out);
            let found = out.take();
            assert_eq!(found.len(), 1, "{result}");
            assert_eq!(found[0].rule.id, "SES-NEW-SESSION-ID");
            assert_eq!(found[0].pointer, pointer);
            assert!(found[0].message.contains(says), "{}", found[0].message);
        }
    }

    #[test]
    fn a_missing_id_is_not_judged_where_another_reading_names_one_or_owes_none() {
        let result = raw(r#"{"sessionId":null}"#);
        let named = ["s1".to_owned()];
        // One reading of a repeated `result` names a session.
        let some_reading_names = answered(&named, Some(&result), false);
        // Another reading of the request (say, session/load) owes no id.
        let other_reading = Event::NewSessionAnswered {
            method: "session/new",
            sessions: &[],
            unnamed: Some(&result),
            certain: false,
            other_readings: true,
            every_established: false,
            closing: false,
            fresh: false,
        };
        let mut unit = SessionIds::default();
        let events = [(some_reading_names, v1()), (other_reading, v1())];
        assert!(said(&mut unit, &events).is_empty());
    }

    #[test]
    fn an_id_already_open_is_reused_when_every_reading_names_one() {
        let once = ["s1".to_owned()];
        let twice = ["s1".to_owned(), "s2".to_owned()];
        let mut unit = SessionIds::default();
        let events = [
            (answered(&once, None, false), v1()),
            (answered(&once, None, true), v1()),
            (answered(&twice, None, true), v1()),
        ];
        assert_eq!(
            said(&mut unit, &events),
            ["SES-SESSION-ID-REUSED", "SES-SESSION-ID-REUSED"]
        );
        let mut out = Emit::default();
        unit.on(&answered(&twice, None, true), &v1(), &mut out);
        let found = out.take();
        assert_eq!(found[0].pointer, "/result/sessionId");
        assert!(found[0].message.contains("`s1`"), "{}", found[0].message);
    }

    #[test]
    fn a_reuse_is_not_judged_when_the_session_may_be_closed_or_the_answer_is_uncertain() {
        let once = ["s1".to_owned()];
        let result = raw("{}");
        let closing = with(answered(&once, None, true), |closing, _| *closing = true);
        let one_reading = with(answered(&once, None, true), |_, certain| *certain = false);
        // Some reading (a repeated `result`) names no session.
        let part_unnamed = answered(&once, Some(&result), true);
        let mut lost = v1();
        lost.lost_at = 3;
        let mut unit = SessionIds::default();
        let events = [
            (closing, v1()),
            (one_reading, v1()),
            (part_unnamed, v1()),
            (answered(&once, None, true), lost),
        ];
        assert!(said(&mut unit, &events).is_empty());
        // After a close the engine cannot follow, any session may be closed.
        let mut unit = SessionIds::default();
        let events = [
            (Event::CloseUnfollowed, v1()),
            (answered(&once, None, true), v1()),
        ];
        assert!(said(&mut unit, &events).is_empty());
    }
}
