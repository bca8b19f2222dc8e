//! SES-PROMPT-BEFORE-SETUP: no `session/prompt` for a session whose
//! `session/load` or `session/resume` is not answered yet. A unit
//! ([`super::unit`]) on [`Event::Prompt`], which carries the engine's fact:
//! the first such request in flight for a session that only it opened.

use super::unit::{Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

pub(crate) const PROMPT_BEFORE_SETUP: Rule = Rule {
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

/// A prompt of `session` before the answer to the load or resume on
/// `request_line` that sets it up.
fn prompt_before_setup(session: &str, request_line: u64) -> Diagnostic {
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

/// The unit of SES-PROMPT-BEFORE-SETUP. It keeps no state: which loads and
/// resumes are in flight is the engine's fact ([`Event::Prompt`]).
#[derive(Debug, Default)]
pub(crate) struct PromptBeforeSetup;

impl Unit for PromptBeforeSetup {
    const RULES: &'static [&'static Rule] = &[&PROMPT_BEFORE_SETUP];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        let Event::Prompt {
            session,
            setup_in_flight: Some(line),
        } = *event
        else {
            return;
        };
        // Unless a line since the request may have been its answer (not
        // read, or read but not paired).
        if facts.unknown_since() < line {
            out.say(prompt_before_setup(session, line));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;

    fn prompt(setup_in_flight: Option<u64>) -> Event<'static> {
        Event::Prompt {
            session: "s",
            setup_in_flight,
        }
    }

    #[test]
    fn a_prompt_while_its_session_is_set_up_is_an_error() {
        for revision in crate::catalog::ALL_REVISIONS {
            let events = [(prompt(Some(3)), facts(*revision, true))];
            assert_eq!(
                said(&mut PromptBeforeSetup, &events),
                ["SES-PROMPT-BEFORE-SETUP"],
                "{revision:?}"
            );
        }
        let mut out = Emit::default();
        PromptBeforeSetup.on(&prompt(Some(3)), &facts(Revision::V2, true), &mut out);
        let d = out.take().remove(0);
        assert!(d.message.contains("line 3"), "{}", d.message);
        assert_eq!(d.pointer, "/params/sessionId");
        assert_eq!(d.session.as_deref(), Some("s"));
    }

    #[test]
    fn a_prompt_after_setup_or_after_a_line_that_may_have_been_its_answer_is_not_judged() {
        let lost = Facts {
            lost_at: 4,
            ..facts(Revision::V1, true)
        };
        let garbled = Facts {
            garbled_at: 4,
            ..facts(Revision::V1, true)
        };
        let events = [
            (prompt(None), facts(Revision::V1, true)),
            (prompt(Some(3)), lost),
            (prompt(Some(3)), garbled),
        ];
        assert!(said(&mut PromptBeforeSetup, &events).is_empty());
        // Near miss: the unknown line came before the request.
        let earlier = Facts {
            garbled_at: 2,
            ..facts(Revision::V1, true)
        };
        assert_eq!(
            said(&mut PromptBeforeSetup, &[(prompt(Some(3)), earlier)]),
            ["SES-PROMPT-BEFORE-SETUP"]
        );
    }
}
