//! SES-BEFORE-INIT: a client calls no session method before `initialize`
//! was answered successfully. A unit ([`super::unit`]) on
//! [`Event::ClientCall`]: the engine's [`Facts`] say whether the handshake
//! was answered, failed, or may have been on a line it could not read.

use super::unit::{every_reading_calls, Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, Rule, RevisionCitation, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

pub(crate) const BEFORE_INIT: Rule = Rule {
    id: "SES-BEFORE-INIT",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "No session message before `initialize` has been answered",
    citation: Citation {
        document: docs::INITIALIZATION_V1,
        section: "Initialization",
        text: "Before a Session can be created, Clients MUST initialize the connection by calling the initialize method",
        note: "The suite treats a session/update before the initialize answer the same way: no session can exist yet.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::INITIALIZATION_V2,
                section: "Initialization",
                text: "Before a Session can be created, Clients MUST initialize the connection by calling the initialize method",
                note: "",
            },
        },
    ],
};

/// A client's session `method` before `initialize` was answered
/// (`failed_at`: the line of the error that answered it, if one did).
fn before_init(method: &str, failed_at: Option<u64>) -> Diagnostic {
    let method = crate::text::shorten(method, 80);
    let (message, hint) = match failed_at {
        None => (
            format!("`{method}` before `initialize` was answered"),
            "the client calls initialize first and waits for its response",
        ),
        Some(line) => (
            format!("`{method}` after `initialize` was answered with an error (line {line}), so the connection is not initialized"),
            "the client initializes again and waits for a successful response",
        ),
    };
    Diagnostic::new(&BEFORE_INIT, message)
        .at("/method")
        .hint(hint)
}

/// The unit of SES-BEFORE-INIT. It keeps no state: the handshake is the
/// engine's fact.
#[derive(Debug, Default)]
pub(crate) struct BeforeInit;

impl Unit for BeforeInit {
    const RULES: &'static [&'static Rule] = &[&BEFORE_INIT];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        let Event::ClientCall {
            method,
            every_method,
            ..
        } = *event
        else {
            return;
        };
        // Every reading of the line calls a session method (a line whose
        // `method` repeats may also read as `initialize`), and no line
        // went unread (it may have been the initialize or its answer).
        let every_reading =
            every_reading_calls(method, every_method, |m| m.starts_with("session/"));
        if every_reading && !facts.initialized && facts.lost_at == 0 {
            out.say(before_init(method, facts.initialize_failed_at));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;

    fn call<'a>(method: &'a str, every_method: &'a [String]) -> Event<'a> {
        Event::ClientCall {
            method,
            every_method,
        }
    }

    #[test]
    fn a_huge_method_name_is_not_repeated() {
        let method = format!("session/{}", "m".repeat(100_000));
        assert!(before_init(&method, None).message.len() < 200);
        assert!(before_init(&method, Some(3)).message.len() < 250);
    }

    #[test]
    fn a_session_method_before_the_answer_is_the_clients_error() {
        let before = facts(Revision::V1, false);
        for method in ["session/new", "session/prompt", "session/load"] {
            let events = [(call(method, &[]), before)];
            assert_eq!(said(&mut BeforeInit, &events), ["SES-BEFORE-INIT"], "{method}");
        }
        let events = [(call("initialize", &[]), before)];
        assert!(said(&mut BeforeInit, &events).is_empty());
        let after = facts(Revision::V1, true);
        assert!(said(&mut BeforeInit, &[(call("session/new", &[]), after)]).is_empty());
    }

    #[test]
    fn a_failed_initialize_is_named_and_a_lost_line_judges_no_one() {
        let failed = Facts {
            initialize_failed_at: Some(2),
            ..facts(Revision::V2, false)
        };
        let mut out = Emit::default();
        BeforeInit.on(&call("session/new", &[]), &failed, &mut out);
        let said = out.take();
        assert_eq!(said.len(), 1);
        assert!(said[0].message.contains("line 2"), "{}", said[0].message);
        let lost = Facts {
            lost_at: 1,
            ..facts(Revision::V1, false)
        };
        let events = [(call("session/new", &[]), lost)];
        assert!(super::super::session_offers::tests::said(&mut BeforeInit, &events).is_empty());
    }

    #[test]
    fn a_method_that_may_read_as_initialize_is_not_judged() {
        let before = facts(Revision::V1, false);
        let mixed = ["initialize".to_owned(), "session/new".to_owned()];
        let events = [(call("session/new", &mixed), before)];
        assert!(said(&mut BeforeInit, &events).is_empty());
        // Every reading a session method: the client's error in each.
        let both = ["session/new".to_owned(), "session/prompt".to_owned()];
        let events = [(call("session/prompt", &both), before)];
        assert_eq!(said(&mut BeforeInit, &events), ["SES-BEFORE-INIT"]);
    }
}
