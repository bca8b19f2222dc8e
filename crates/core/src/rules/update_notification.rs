//! SES-UPDATE-NOTIFICATION: `session/update` is a notification that only
//! the agent sends. A unit ([`super::unit`]) on [`Event::SessionUpdateCall`];
//! an error only where every reading of a repeated `method` is
//! `session/update` (another reading is another call).

use super::unit::{every_reading_calls, Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::jsonrpc::Direction;
use crate::spec::Revision;

pub(crate) const UPDATE_NOTIFICATION: Rule = Rule {
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

/// A `session/update` with an `id` (pointing at it).
fn update_as_request() -> Diagnostic {
    Diagnostic::new(
        &UPDATE_NOTIFICATION,
        "session/update sent as a request (with an `id`)",
    )
    .at("/id")
    .hint("session/update is a notification: drop the id")
}

/// A `session/update` the client sent.
fn update_from_client() -> Diagnostic {
    Diagnostic::new(&UPDATE_NOTIFICATION, "session/update sent by the client").at("/method")
}

/// The unit of SES-UPDATE-NOTIFICATION. It keeps no state.
#[derive(Debug, Default)]
pub(crate) struct UpdateNotification;

impl Unit for UpdateNotification {
    const RULES: &'static [&'static Rule] = &[&UPDATE_NOTIFICATION];

    fn on(&mut self, event: &Event<'_>, _facts: &Facts, out: &mut Emit) {
        let Event::SessionUpdateCall {
            direction,
            request,
            every_method,
        } = *event
        else {
            return;
        };
        if !every_reading_calls("session/update", every_method, |m| m == "session/update") {
            return;
        }
        if request {
            out.say(update_as_request());
        }
        if direction == Direction::ClientToAgent {
            out.say(update_from_client());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;

    fn update(direction: Direction, request: bool, every_method: &[String]) -> Event<'_> {
        Event::SessionUpdateCall {
            direction,
            request,
            every_method,
        }
    }

    #[test]
    fn the_agents_notification_is_conformant() {
        let f = facts(Revision::V1, true);
        let events = [(update(Direction::AgentToClient, false, &[]), f)];
        assert!(said(&mut UpdateNotification, &events).is_empty());
    }

    #[test]
    fn a_request_and_a_clients_update_are_errors_each() {
        let f = facts(Revision::V2, true);
        let agent_request = [(update(Direction::AgentToClient, true, &[]), f)];
        assert_eq!(
            said(&mut UpdateNotification, &agent_request),
            ["SES-UPDATE-NOTIFICATION"]
        );
        let client_notification = [(update(Direction::ClientToAgent, false, &[]), f)];
        assert_eq!(
            said(&mut UpdateNotification, &client_notification),
            ["SES-UPDATE-NOTIFICATION"]
        );
        let client_request = [(update(Direction::ClientToAgent, true, &[]), f)];
        assert_eq!(
            said(&mut UpdateNotification, &client_request),
            ["SES-UPDATE-NOTIFICATION", "SES-UPDATE-NOTIFICATION"]
        );
    }

    #[test]
    fn a_line_that_may_call_another_method_is_no_error() {
        let f = facts(Revision::V1, true);
        let maybe = ["session/cancel".to_owned(), "session/update".to_owned()];
        let events = [(update(Direction::ClientToAgent, true, &maybe), f)];
        assert!(said(&mut UpdateNotification, &events).is_empty());
        // Readings that differ by value but all call session/update.
        let every = ["session/update".to_owned(), "session/update".to_owned()];
        let events = [(update(Direction::ClientToAgent, false, &every), f)];
        assert_eq!(
            said(&mut UpdateNotification, &events),
            ["SES-UPDATE-NOTIFICATION"]
        );
    }
}
