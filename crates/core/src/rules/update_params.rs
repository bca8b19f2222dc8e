//! SES-UPDATE-PARAMS: the members every `session/update` needs (a string
//! `sessionId`, an `update` object with a string `sessionUpdate`). A unit
//! ([`super::unit`]) on [`Event::UpdateParamsUnread`]: the engine's one read
//! of the params says what it could not read, and the unit says why that
//! breaks the rule. (A repeated member there is ENV-DUPLICATE-KEY's, said by
//! the engine with the readings it makes.)

use super::unit::{Emit, Event, Facts, Unit};
use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;

/// `session/update` params without the members every update needs.
pub(crate) const UPDATE_PARAMS: Rule = Rule {
    id: "SES-UPDATE-PARAMS",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`session/update` params carry a string `sessionId` and an `update` object with a string `sessionUpdate`",
    citation: Citation {
        document: docs::SCHEMA_V1,
        section: "SessionNotification",
        text: "\"required\": [\"sessionId\", \"update\"]",
        note: "update is a SessionUpdate, an object discriminated by its string sessionUpdate.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::SCHEMA_V2,
                section: "UpdateSessionNotification",
                text: "\"required\": [\"sessionId\", \"update\"]",
                note: "update is a SessionUpdate, an object discriminated by its string sessionUpdate.",
            },
        },
    ],
};

/// What the read of `session/update` params found missing, in the order it
/// looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Missing {
    /// No `params`.
    Params,
    /// `params` is not an object.
    ParamsObject,
    /// No `sessionId`.
    SessionId,
    /// A `sessionId` that is not a string.
    SessionIdString,
    /// No `update`.
    Update,
    /// An `update` object without a string `sessionUpdate`.
    SessionUpdate,
    /// An `update` that is not an object.
    UpdateObject,
}

/// The diagnostic for `missing`: where it points, and what completes
/// "session/update ...".
fn bad_params(missing: Missing) -> Diagnostic {
    let (pointer, what) = match missing {
        Missing::Params => ("/params", "has no params"),
        Missing::ParamsObject => ("/params", "params are not an object"),
        Missing::SessionId => ("/params", "has no `sessionId`"),
        Missing::SessionIdString => ("/params/sessionId", "`sessionId` is not a string"),
        Missing::Update => ("/params", "has no `update`"),
        Missing::SessionUpdate => ("/params/update", "`update` has no string `sessionUpdate`"),
        Missing::UpdateObject => (
            "/params/update",
            "`update` is not an object with a string `sessionUpdate`",
        ),
    };
    Diagnostic::new(&UPDATE_PARAMS, format!("session/update {what}")).at(pointer)
}

/// The unit of SES-UPDATE-PARAMS. It keeps no state.
#[derive(Debug, Default)]
pub(crate) struct UpdateParams;

impl Unit for UpdateParams {
    const RULES: &'static [&'static Rule] = &[&UPDATE_PARAMS];

    fn on(&mut self, event: &Event<'_>, _facts: &Facts, out: &mut Emit) {
        let Event::UpdateParamsUnread { missing, session } = *event else {
            return;
        };
        let d = bad_params(missing);
        out.say(match session {
            Some(session) => d.session(session),
            None => d,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;

    #[test]
    fn what_the_read_misses_is_the_agents_breach_where_it_is_missing() {
        let unread = |missing, session| Event::UpdateParamsUnread { missing, session };
        let mut unit = UpdateParams;
        let events = [
            (unread(Missing::Params, None), facts(Revision::V1, true)),
            (unread(Missing::UpdateObject, Some("s")), facts(Revision::V2, true)),
        ];
        assert_eq!(said(&mut unit, &events), ["SES-UPDATE-PARAMS", "SES-UPDATE-PARAMS"]);
        let mut out = Emit::default();
        unit.on(&unread(Missing::SessionIdString, None), &facts(Revision::V1, true), &mut out);
        unit.on(&unread(Missing::SessionUpdate, Some("s")), &facts(Revision::V1, true), &mut out);
        let found = out.take();
        let placed: Vec<_> = (found.iter())
            .map(|d| (d.pointer.as_str(), d.session.as_deref()))
            .collect();
        assert_eq!(placed, [("/params/sessionId", None), ("/params/update", Some("s"))]);
        assert_eq!(found[1].message, "session/update `update` has no string `sessionUpdate`");
        // Every other event: nothing.
        unit.on(&Event::CloseUnfollowed, &facts(Revision::V1, true), &mut out);
        assert!(out.take().is_empty());
    }
}
