//! SES-REPLAY-AFTER-ANSWER: a plan update of a loaded session after the
//! answer that ended its replay and before its next prompt. A unit
//! ([`super::unit`]): the engine tells each answer to a request that asked
//! for a replay ([`Event::ReplayAnswered`]), each prompt and each plan
//! update; the unit keeps, per session, the line of the answer that ended
//! its replay.

use super::unit::{remember, Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, Rule};
use crate::diag::Diagnostic;
use crate::spec::Revision;
use crate::state::Key;

pub(crate) const REPLAY_AFTER_ANSWER: Rule = Rule {
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

/// A plan update of `session` after the answer on `answer_line` ended its
/// replay.
fn replay_after_answer(session: &str, answer_line: u64) -> Diagnostic {
    Diagnostic::new(
        &REPLAY_AFTER_ANSWER,
        format!("plan update for session `{}` after the replay ended (answer on line {answer_line}) and before any new prompt: not part of the replay", crate::text::shorten(session, 80)),
    )
    .at("/params/update/sessionUpdate")
    .session(session)
    .hint("replay the session's plans before answering; send new plans during a prompt")
}

/// The unit of SES-REPLAY-AFTER-ANSWER.
#[derive(Debug, Default)]
pub(crate) struct ReplayAfterAnswer {
    /// Sessions whose replay was answered, until their next prompt: the
    /// answer's line. Bounded by [`Facts::request_limit`].
    replayed: foldhash::HashMap<Key, u64>,
}

impl Unit for ReplayAfterAnswer {
    const RULES: &'static [&'static Rule] = &[&REPLAY_AFTER_ANSWER];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        match *event {
            Event::ReplayAnswered {
                session,
                line,
                succeeded,
                replay_goes_on,
                ..
            } => {
                // While another replay of the session is in flight, its
                // updates may still be history. v2 from schema 1.20.0 ends
                // a replay with its marker, and what comes after is live
                // (SES-REPLAY-COMPLETE).
                let marker = facts.revision.spelling().replay_complete;
                if succeeded && !marker && !replay_goes_on {
                    remember(&mut self.replayed, facts.request_limit, session, line);
                }
            }
            // A new prompt starts a new turn, and a closed session's
            // replay is over.
            Event::Prompt { session, .. } | Event::SessionClosed { session } => {
                self.replayed.remove(session);
            }
            Event::PlanUpdate { session, .. } => {
                // Unless a line not read since the answer may have been a
                // new load or prompt.
                if let Some(&line) = (self.replayed.get(session)).filter(|&&line| facts.lost_at < line)
                {
                    out.say(replay_after_answer(session, line));
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

    fn answered(succeeded: bool, replay_goes_on: bool) -> Event<'static> {
        Event::ReplayAnswered {
            method: "session/load",
            session: "s",
            request: (3, 0),
            line: 5,
            succeeded,
            failed: false,
            shown: None,
            untracked: false,
            marked: false,
            optional: false,
            replay_goes_on,
        }
    }

    fn update(session: &str) -> Event<'_> {
        Event::PlanUpdate {
            session,
            kind: "plan_update",
            quiet_resume: None,
        }
    }

    /// What the unit says of an update of `s` after `answer`, under `revision`.
    fn verdict(revision: Revision, answer: Event<'static>) -> Vec<&'static str> {
        let events = [(answer, facts(revision, true)), (update("s"), facts(revision, true))];
        said(&mut ReplayAfterAnswer::default(), &events)
    }

    #[test]
    fn an_update_after_a_successful_replay_answer_is_an_info() {
        for revision in [
            Revision::Draft202605,
            Revision::V1Schema117,
            Revision::V1,
            Revision::V2Schema117,
        ] {
            assert_eq!(verdict(revision, answered(true, false)), ["SES-REPLAY-AFTER-ANSWER"]);
        }
        let mut unit = ReplayAfterAnswer::default();
        let mut out = Emit::default();
        unit.on(&answered(true, false), &facts(Revision::V1, true), &mut out);
        unit.on(&update("s"), &facts(Revision::V1, true), &mut out);
        let d = out.take().remove(0);
        assert!(d.message.contains("answer on line 5"), "{}", d.message);
        assert_eq!(d.session.as_deref(), Some("s"));
        assert_eq!(d.severity(), crate::catalog::Severity::Info);
    }

    #[test]
    fn near_misses_are_no_finding() {
        // A failed answer; another replay of the session still in flight;
        // v2 (the marker ends the replay instead).
        assert!(verdict(Revision::V1, answered(false, false)).is_empty());
        assert!(verdict(Revision::V1, answered(true, true)).is_empty());
        assert!(verdict(Revision::V2, answered(true, false)).is_empty());
        // A prompt or a close between; a line lost since the answer;
        // another session's update.
        for between in [Event::Prompt { session: "s", setup_in_flight: None }, Event::SessionClosed { session: "s" }] {
            let events = [
                (answered(true, false), facts(Revision::V1, true)),
                (between, facts(Revision::V1, true)),
                (update("s"), facts(Revision::V1, true)),
            ];
            assert!(said(&mut ReplayAfterAnswer::default(), &events).is_empty());
        }
        let lost = Facts {
            lost_at: 6,
            ..facts(Revision::V1, true)
        };
        let events = [
            (answered(true, false), facts(Revision::V1, true)),
            (update("t"), facts(Revision::V1, true)),
            (update("s"), lost),
        ];
        assert!(said(&mut ReplayAfterAnswer::default(), &events).is_empty());
    }
}
