//! SES-REPLAY-COMPLETE (v2): one `replay_complete` per `session/resume`
//! with a `replayFrom` cursor, before its successful answer; none without
//! one. A unit ([`super::unit`]) on [`Event::ReplayMarker`] and
//! [`Event::ReplayAnswered`]: which replays are in flight and which had
//! their marker are the engine's turn facts (they decide which updates are
//! live), carried by the events.

use super::unit::{Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, Rule};
use crate::diag::Diagnostic;
use crate::spec::Revision;

pub(crate) const REPLAY_COMPLETE: Rule = Rule {
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

/// A successful session/resume answer with a replayFrom cursor and no
/// replay_complete before it.
fn replay_complete_missing(session: &str, request_line: u64) -> Diagnostic {
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
fn replay_complete_unasked(session: &str) -> Diagnostic {
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
fn replay_complete_again(session: &str, request_line: u64) -> Diagnostic {
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

/// The unit of SES-REPLAY-COMPLETE. It keeps no state: which replays are
/// in flight and which had their marker are the engine's turn facts (they
/// decide which updates are live), told with [`Event::ReplayMarker`] and
/// [`Event::ReplayAnswered`].
#[derive(Debug, Default)]
pub(crate) struct ReplayComplete;

impl Unit for ReplayComplete {
    const RULES: &'static [&'static Rule] = &[&REPLAY_COMPLETE];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        match *event {
            Event::ReplayMarker {
                session,
                ends: None,
                first_pending,
                optional,
                untracked,
                ..
            } => match first_pending {
                // Each of the resumes in flight had its marker; a line not
                // read since the first may have been another resume.
                Some(line) => {
                    if facts.lost_at < line && !optional && !untracked {
                        out.say(replay_complete_again(session, line));
                    }
                }
                None => {
                    if facts.lost_at == 0 && !untracked {
                        out.say(replay_complete_unasked(session));
                    }
                }
            },
            // v2: a successful answer to a resume with a cursor comes after
            // its replay_complete (unless a line not read since may have
            // been the marker).
            Event::ReplayAnswered {
                method: "session/resume",
                session,
                request: (request_line, _),
                succeeded: true,
                marked: false,
                optional: false,
                ..
            } if facts.revision.spelling().replay_complete && facts.lost_at < request_line => {
                out.say(replay_complete_missing(session, request_line));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;

    const V2: Revision = Revision::V2;

    fn marker(first_pending: Option<u64>, optional: bool, untracked: bool) -> Event<'static> {
        Event::ReplayMarker {
            session: "s",
            ends: None,
            shown: None,
            first_pending,
            optional,
            untracked,
        }
    }

    fn answered(method: &'static str, succeeded: bool, marked: bool, optional: bool) -> Event<'static> {
        Event::ReplayAnswered {
            method,
            session: "s",
            request: (3, 0),
            line: 6,
            succeeded,
            failed: false,
            shown: None,
            untracked: false,
            marked,
            optional,
            replay_goes_on: false,
        }
    }

    #[test]
    fn a_marker_no_replay_in_flight_awaits_is_an_error() {
        let events = [
            (marker(None, false, false), facts(V2, true)),
            (marker(Some(3), false, false), facts(V2, true)),
        ];
        assert_eq!(
            said(&mut ReplayComplete, &events),
            ["SES-REPLAY-COMPLETE", "SES-REPLAY-COMPLETE"]
        );
        let mut out = Emit::default();
        ReplayComplete.on(&marker(Some(3), false, false), &facts(V2, true), &mut out);
        ReplayComplete.on(&marker(None, false, false), &facts(V2, true), &mut out);
        let said = out.take();
        assert!(said[0].message.contains("second replay_complete"), "{}", said[0].message);
        assert!(said[0].message.contains("line 3"), "{}", said[0].message);
        assert!(said[1].message.contains("no session/resume"), "{}", said[1].message);
    }

    #[test]
    fn a_marker_that_ends_a_replay_or_may_be_owed_is_not_judged() {
        let ends = Event::ReplayMarker {
            session: "s",
            ends: Some((3, 0)),
            shown: None,
            first_pending: Some(3),
            optional: false,
            untracked: false,
        };
        let lost = Facts {
            lost_at: 4,
            ..facts(V2, true)
        };
        let events = [
            (ends, facts(V2, true)),
            (marker(Some(3), true, false), facts(V2, true)),
            (marker(Some(3), false, true), facts(V2, true)),
            (marker(None, false, true), facts(V2, true)),
            (marker(Some(3), false, false), lost),
            (marker(None, false, false), lost),
        ];
        assert!(said(&mut ReplayComplete, &events).is_empty());
        // Near miss: a line lost before the request.
        let earlier = Facts {
            lost_at: 2,
            ..facts(V2, true)
        };
        assert_eq!(
            said(&mut ReplayComplete, &[(marker(Some(3), false, false), earlier)]),
            ["SES-REPLAY-COMPLETE"]
        );
    }

    #[test]
    fn a_successful_resume_answer_without_its_marker_is_an_error_in_v2() {
        let events = [(answered("session/resume", true, false, false), facts(V2, true))];
        assert_eq!(said(&mut ReplayComplete, &events), ["SES-REPLAY-COMPLETE"]);
        let mut out = Emit::default();
        let event = answered("session/resume", true, false, false);
        ReplayComplete.on(&event, &facts(V2, true), &mut out);
        let d = out.take().remove(0);
        assert_eq!(d.pointer, "/result");
        assert!(d.message.contains("line 3"), "{}", d.message);
        // Near misses: a failed answer, a marked replay, a cursor read both
        // ways, a load, v2-1.17 (no marker), a line lost since the request.
        let lost = Facts {
            lost_at: 4,
            ..facts(V2, true)
        };
        let events = [
            (answered("session/resume", false, false, false), facts(V2, true)),
            (answered("session/resume", true, true, false), facts(V2, true)),
            (answered("session/resume", true, false, true), facts(V2, true)),
            (answered("session/load", true, false, false), facts(V2, true)),
            (
                answered("session/resume", true, false, false),
                facts(Revision::V2Schema117, true),
            ),
            (answered("session/resume", true, false, false), lost),
        ];
        assert!(said(&mut ReplayComplete, &events).is_empty());
    }
}
