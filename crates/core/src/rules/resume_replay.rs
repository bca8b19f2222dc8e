//! SES-RESUME-REPLAY: no plan update that can be nothing but history
//! between a `session/resume` that asks for no replay and its answer. A
//! unit ([`super::unit`]) on [`Event::PlanUpdate`], which carries the
//! engine's turn facts: the first such resume of the session in flight,
//! and whether a turn or a replay of the session may be running too.

use super::unit::{Emit, Event, Facts, QuietResume, Unit};
use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

pub(crate) const RESUME_REPLAY: Rule = Rule {
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

/// A plan update of `session` before the answer to the session/resume on
/// `request_line`, which asked for no replay.
fn resume_replay(session: &str, request_line: u64) -> Diagnostic {
    Diagnostic::new(
        &RESUME_REPLAY,
        format!("plan update for session `{}` before the answer to its session/resume on line {request_line}, which asked for no replay", crate::text::shorten(session, 80)),
    )
    .at("/params/update/sessionUpdate")
    .session(session)
    .hint("answer session/resume first; send plan updates once the session runs again")
}

/// The unit of SES-RESUME-REPLAY. It keeps no state: which resumes are in
/// flight, and whether a turn or a replay of the session may be running,
/// are the engine's turn facts ([`Event::PlanUpdate`]).
#[derive(Debug, Default)]
pub(crate) struct ResumeReplay;

impl Unit for ResumeReplay {
    const RULES: &'static [&'static Rule] = &[&RESUME_REPLAY];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        let Event::PlanUpdate {
            session,
            quiet_resume: Some(QuietResume { line, live }),
            ..
        } = *event
        else {
            return;
        };
        // A line not read since the resume may have been its answer. A
        // replay asked for by a load (or resume) of the session in flight
        // too may be what this update is; so may a turn of the session that
        // is running, even one the client started too early
        // (SES-PROMPT-BEFORE-SETUP): only what can be nothing but history
        // is judged.
        if facts.lost_at < line && !live {
            out.say(resume_replay(session, line));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;

    fn update(quiet_resume: Option<QuietResume>) -> Event<'static> {
        Event::PlanUpdate {
            session: "s",
            kind: "plan_update",
            quiet_resume,
        }
    }

    #[test]
    fn an_update_that_can_only_be_history_before_a_quiet_resume_is_answered_is_an_error() {
        for revision in crate::catalog::ALL_REVISIONS {
            let events = [(
                update(Some(QuietResume { line: 3, live: false })),
                facts(*revision, true),
            )];
            assert_eq!(
                said(&mut ResumeReplay, &events),
                ["SES-RESUME-REPLAY"],
                "{revision:?}"
            );
        }
        let mut out = Emit::default();
        let event = update(Some(QuietResume { line: 3, live: false }));
        ResumeReplay.on(&event, &facts(Revision::V1, true), &mut out);
        let d = out.take().remove(0);
        assert!(d.message.contains("line 3"), "{}", d.message);
        assert_eq!(d.session.as_deref(), Some("s"));
        assert_eq!(d.severity(), crate::catalog::Severity::Error);
    }

    #[test]
    fn an_update_that_may_be_live_or_follow_a_lost_line_is_not_judged() {
        let live = update(Some(QuietResume { line: 3, live: true }));
        let quiet = update(Some(QuietResume { line: 3, live: false }));
        let lost = Facts {
            lost_at: 4,
            ..facts(Revision::V1, true)
        };
        let before = Facts {
            lost_at: 2,
            ..facts(Revision::V1, true)
        };
        let events = [
            (update(None), facts(Revision::V1, true)),
            (live, facts(Revision::V1, true)),
            (quiet, lost),
        ];
        assert!(said(&mut ResumeReplay, &events).is_empty());
        // Near miss: a line lost before the resume was read.
        assert_eq!(said(&mut ResumeReplay, &[(quiet, before)]), ["SES-RESUME-REPLAY"]);
    }
}
