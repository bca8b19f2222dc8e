//! SES-UPDATE-AFTER-CANCEL: a plan update of a session after its cancelled
//! turn ended and before its next prompt. A unit ([`super::unit`]): the
//! engine says when a cancelled turn ended ([`Event::CancelledTurnEnded`]),
//! when a prompt starts the next ([`Event::Prompt`]) and each plan update;
//! the unit keeps, per session, the line its cancelled turn ended on.

use super::unit::{remember, Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;
use crate::state::Key;

pub(crate) const UPDATE_AFTER_CANCEL: Rule = Rule {
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

/// A plan update of `session` after its cancelled turn ended on `end_line`.
fn update_after_cancel(session: &str, end_line: u64) -> Diagnostic {
    Diagnostic::new(
        &UPDATE_AFTER_CANCEL,
        format!("plan update for session `{}` after its cancelled turn ended on line {end_line} and before a new prompt", crate::text::shorten(session, 80)),
    )
    .at("/params/update/sessionUpdate")
    .session(session)
    .hint("send the cancelled turn's last updates before ending it")
}

/// The unit of SES-UPDATE-AFTER-CANCEL.
#[derive(Debug, Default)]
pub(crate) struct UpdateAfterCancel {
    /// Sessions whose cancelled turn ended, until their next prompt: the
    /// end's line. Bounded by [`Facts::request_limit`].
    ended: foldhash::HashMap<Key, u64>,
}

impl Unit for UpdateAfterCancel {
    const RULES: &'static [&'static Rule] = &[&UPDATE_AFTER_CANCEL];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        match *event {
            Event::CancelledTurnEnded { session, line } => {
                remember(&mut self.ended, facts.request_limit, session, line);
            }
            // A new prompt starts a new turn, and a closed session's turns
            // are over: what ended before judges nothing after.
            Event::Prompt { session, .. } | Event::SessionClosed { session } => {
                self.ended.remove(session);
            }
            Event::PlanUpdate { session, .. } => {
                // Unless a line not read since the end may have been a new
                // prompt.
                if let Some(&line) = self.ended.get(session).filter(|&&line| facts.lost_at < line) {
                    out.say(update_after_cancel(session, line));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;

    const V1: Revision = Revision::V1;

    fn ended(line: u64) -> Event<'static> {
        Event::CancelledTurnEnded { session: "s", line }
    }

    fn update(session: &str) -> Event<'_> {
        Event::PlanUpdate {
            session,
            kind: "plan_update",
            quiet_resume: None,
        }
    }

    #[test]
    fn an_update_after_the_cancelled_turn_ended_is_said_once_per_update() {
        let events = [
            (ended(4), facts(V1, true)),
            (update("s"), facts(V1, true)),
            (update("s"), facts(V1, true)),
        ];
        let mut unit = UpdateAfterCancel::default();
        assert_eq!(
            said(&mut unit, &events),
            ["SES-UPDATE-AFTER-CANCEL", "SES-UPDATE-AFTER-CANCEL"]
        );
        let mut out = Emit::default();
        unit.on(&update("s"), &facts(V1, true), &mut out);
        let d = out.take().remove(0);
        assert!(d.message.contains("ended on line 4"), "{}", d.message);
        assert_eq!(d.session.as_deref(), Some("s"));
        assert_eq!(d.pointer, "/params/update/sessionUpdate");
        assert_eq!(d.severity(), crate::catalog::Severity::Info);
    }

    #[test]
    fn a_prompt_a_close_another_session_or_a_line_unread_since_is_no_finding() {
        for (between, after) in [
            (Some(Event::Prompt { session: "s", setup_in_flight: None }), facts(V1, true)),
            (Some(Event::SessionClosed { session: "s" }), facts(V1, true)),
            // A line lost since the end may have been a prompt.
            (None, Facts { lost_at: 5, ..facts(V1, true) }),
        ] {
            let mut events = vec![(ended(4), facts(V1, true))];
            events.extend(between.map(|event| (event, facts(V1, true))));
            events.push((update("s"), after));
            assert!(said(&mut UpdateAfterCancel::default(), &events).is_empty());
        }
        // Near misses: another session's update, a prompt of another
        // session, a line lost before the end.
        let events = [
            (ended(4), facts(V1, true)),
            (update("t"), facts(V1, true)),
            (Event::Prompt { session: "t", setup_in_flight: None }, facts(V1, true)),
            (update("s"), Facts { lost_at: 3, ..facts(V1, true) }),
        ];
        assert_eq!(
            said(&mut UpdateAfterCancel::default(), &events),
            ["SES-UPDATE-AFTER-CANCEL"]
        );
    }

    #[test]
    fn sessions_remembered_are_bounded_by_the_request_limit() {
        let limited = Facts { request_limit: 1, ..facts(V1, true) };
        let events = [
            (Event::CancelledTurnEnded { session: "a", line: 2 }, limited),
            (Event::CancelledTurnEnded { session: "b", line: 3 }, limited),
            // A session remembered is updated in place at the limit.
            (Event::CancelledTurnEnded { session: "a", line: 4 }, limited),
            (update("b"), limited),
            (update("a"), limited),
        ];
        let mut unit = UpdateAfterCancel::default();
        let mut out = Emit::default();
        for (event, facts) in &events {
            unit.on(event, facts, &mut out);
        }
        let said = out.take();
        assert_eq!(said.len(), 1);
        assert!(said[0].message.contains("line 4"), "{}", said[0].message);
    }
}
