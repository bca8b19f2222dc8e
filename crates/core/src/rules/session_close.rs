//! SES-CLOSE-NOT-ADVERTISED: a client's `session/close` when the agent's
//! `initialize` answer did not advertise `sessionCapabilities.close`. A unit
//! ([`super::unit`]), judged as its siblings in [`super::session_offers`]
//! are; a warning, since the schema states no MUST.

use super::session_offers::{applies, capability_offer, object_or_null, AnswerOffer, Offer};
use super::unit::{agreed, Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, Rule};
use crate::diag::Diagnostic;
use crate::spec::Revision;

pub(crate) const CLOSE_NOT_ADVERTISED: Rule = Rule {
    id: "SES-CLOSE-NOT-ADVERTISED",
    level: Level::Should,
    basis: Basis::Text,
    // v2 has no close capability: `agentCapabilities.session: {}` advertises
    // session/close among "the baseline session methods".
    revisions: &[Revision::Draft202605, Revision::V1Schema117, Revision::V1],
    summary: "No `session/close` when the agent's initialize answer did not advertise `agentCapabilities.sessionCapabilities.close`",
    citation: Citation {
        document: docs::SCHEMA_1_20_V1,
        section: "CloseSessionRequest",
        text: "Only available if the Agent supports the `sessionCapabilities.close` capability.",
        note: "No MUST: the schema says when the method is available, not that a client must not call it, so the call is a warning, not an error. The same words in schema 1.17.0 (v1-1.17) and 1.15.1 (draft-2026-05). `null` counts as not advertised (the schema: \"Omitted or `null` both mean the agent does not advertise support.\"). Judged only when every reading of the answer says so, as SES-RESUME-NOT-ADVERTISED is: not when a member repeats with values that disagree or is not of its type, when the initialize answer was not read or not paired for certain, when initialize answers disagree on it, when a line since the answer went unread, or when the line's readings disagree on its `method`.",
    },
    revision_citations: &[],
};

/// A client's `session/close` after an initialize answer (on
/// `answer_line`) that did not advertise `sessionCapabilities.close`.
fn close_not_advertised(answer_line: u64) -> Diagnostic {
    Diagnostic::new(
        &CLOSE_NOT_ADVERTISED,
        format!(
            "session/close, but the agent's initialize answer on line {answer_line} did not advertise `agentCapabilities.sessionCapabilities.close`"
        ),
    )
    .at("/method")
    .hint("call session/close only when the agent advertises sessionCapabilities.close")
}

/// The unit of SES-CLOSE-NOT-ADVERTISED.
#[derive(Debug, Default)]
pub(crate) struct CloseOffer {
    /// `agentCapabilities.sessionCapabilities.close` of the last answer.
    close: AnswerOffer<Offer>,
}

impl Unit for CloseOffer {
    const RULES: &'static [&'static Rule] = &[&CLOSE_NOT_ADVERTISED];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        match *event {
            Event::InitializeAnswered { results, line } => {
                // "Omitted or `null` both mean the agent does not advertise
                // support. Supplying `{}` means the agent supports closing
                // sessions."
                let offer = agreed(results, |result| {
                    capability_offer(
                        result,
                        &["agentCapabilities", "sessionCapabilities"],
                        "close",
                        object_or_null,
                    )
                });
                self.close.answered(offer, facts, line);
            }
            Event::ClientCall {
                method: "session/close",
                every_method,
            } if self.close.offer == Offer::NotOffered
                && self.close.judges(facts, every_method.is_empty())
                && applies(&CLOSE_NOT_ADVERTISED, facts.revision) =>
            {
                out.say(close_not_advertised(self.close.answer_line));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, raw, said};
    use super::*;

    fn answered<'a>(results: &'a [&'a serde_json::value::RawValue]) -> Event<'a> {
        Event::InitializeAnswered { results, line: 2 }
    }

    fn close() -> Event<'static> {
        Event::ClientCall {
            method: "session/close",
            every_method: &[],
        }
    }

    /// What the unit says of a session/close after an answer with
    /// `agent_capabilities`, under `revision`.
    fn verdict(revision: Revision, answer: &str) -> Vec<&'static str> {
        let answer = raw(answer);
        let answer = [&*answer];
        let events = [
            (answered(&answer), facts(revision, false)),
            (close(), facts(revision, true)),
        ];
        said(&mut CloseOffer::default(), &events)
    }

    #[test]
    fn a_close_the_answer_left_out_is_a_warning_in_every_v1_revision() {
        for revision in [Revision::Draft202605, Revision::V1Schema117, Revision::V1] {
            for answer in [
                r#"{"agentCapabilities":{"sessionCapabilities":{"resume":{}}}}"#,
                r#"{"agentCapabilities":{"sessionCapabilities":{"close":null}}}"#,
                r#"{"agentCapabilities":{"sessionCapabilities":null}}"#,
                r#"{"agentCapabilities":{"loadSession":true}}"#,
                r#"{"protocolVersion":1}"#,
            ] {
                assert_eq!(
                    verdict(revision, answer),
                    ["SES-CLOSE-NOT-ADVERTISED"],
                    "{revision:?} {answer}"
                );
            }
        }
        let d = {
            let mut out = Emit::default();
            let answer = raw("{}");
            let answer = [&*answer];
            let mut unit = CloseOffer::default();
            unit.on(&answered(&answer), &facts(Revision::V1, false), &mut out);
            unit.on(&close(), &facts(Revision::V1, true), &mut out);
            out.take().remove(0)
        };
        assert_eq!(d.severity(), crate::catalog::Severity::Warning);
        assert_eq!(d.pointer, "/method");
        assert!(d.message.contains("line 2"), "{}", d.message);
    }

    #[test]
    fn an_advertised_close_or_v2_is_not_judged() {
        for answer in [
            r#"{"agentCapabilities":{"sessionCapabilities":{"close":{}}}}"#,
            r#"{"agentCapabilities":{"sessionCapabilities":{"close":{"_meta":{}}}}}"#,
        ] {
            assert!(verdict(Revision::V1, answer).is_empty(), "{answer}");
        }
        // v2: session/close is a baseline method of `session: {}`.
        for revision in [Revision::V2Schema117, Revision::V2] {
            assert!(verdict(revision, r#"{"agentCapabilities":{}}"#).is_empty());
        }
    }

    #[test]
    fn an_answer_not_read_one_way_judges_no_close() {
        for answer in [
            // Readings that disagree.
            r#"{"agentCapabilities":{"sessionCapabilities":{"close":{},"close":null}}}"#,
            // Not of its type.
            r#"{"agentCapabilities":{"sessionCapabilities":{"close":true}}}"#,
            r#"{"agentCapabilities":{"sessionCapabilities":[]}}"#,
        ] {
            assert!(verdict(Revision::V1, answer).is_empty(), "{answer}");
        }
        // Answers that disagree.
        let (without, with) = (raw("{}"), raw(r#"{"agentCapabilities":{"sessionCapabilities":{"close":{}}}}"#));
        let (without, with) = ([&*without], [&*with]);
        let events = [
            (answered(&without), facts(Revision::V1, false)),
            (answered(&with), facts(Revision::V1, true)),
            (close(), facts(Revision::V1, true)),
        ];
        assert!(said(&mut CloseOffer::default(), &events).is_empty());
        // A line since the answer went unread, or the line's readings call
        // something else too.
        let lost = Facts {
            lost_at: 3,
            ..facts(Revision::V1, true)
        };
        let events = [(answered(&without), facts(Revision::V1, false)), (close(), lost)];
        assert!(said(&mut CloseOffer::default(), &events).is_empty());
        let methods = ["session/close".to_owned(), "session/cancel".to_owned()];
        let split = Event::ClientCall {
            method: "session/close",
            every_method: &methods,
        };
        let events = [
            (answered(&without), facts(Revision::V1, false)),
            (split, facts(Revision::V1, true)),
        ];
        assert!(said(&mut CloseOffer::default(), &events).is_empty());
        // Other methods are not this rule's.
        let prompt = Event::ClientCall {
            method: "session/prompt",
            every_method: &[],
        };
        let events = [
            (answered(&without), facts(Revision::V1, false)),
            (prompt, facts(Revision::V1, true)),
        ];
        assert!(said(&mut CloseOffer::default(), &events).is_empty());
    }
}
