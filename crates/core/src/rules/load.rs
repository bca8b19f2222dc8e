//! LOAD-*: a loaded session's replay against the live session it replays.
//!
//! `acp-plan agent` compares two connections (the live session, then a
//! fresh connection that calls `session/load`, or under v2 `session/resume`
//! with `replayFrom: {"type": "start"}`). `check` decides LOAD-REPLAY-STATE
//! when one connection holds both (the unit `replay_on_connection.rs`, with
//! this file's comparison): the client keeps what it showed, so a
//! replay there can only change it by restating other plans (or removing
//! one); a plan left out changes nothing it shows, so LOAD-REPLAY-MISSING
//! stays with `acp-plan agent`.

use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::Revision;
use crate::state::SessionPlans;

/// The sentences both rules quote: v1's, and v2's for a resume from the start.
const REPLAY_CONVERSATION: &str = "The Agent MUST replay the entire conversation to the Client in the form of session/update notifications (like session/prompt).";
const REPLAY_FROM_START: &str = "When replayFrom.type is \"start\", the Agent MUST replay the entire conversation to the Client in the form of session/update notifications before responding.";

/// A replay that ends with plans other than the live session's (see
/// [`compare_replay`]).
pub(crate) const REPLAY_STATE: Rule = Rule {
    id: "LOAD-REPLAY-STATE",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "The plans a `session/load` replay (v2: `session/resume` from the start) ends with are the plans the live session ended with",
    citation: Citation {
        document: docs::SESSION_SETUP_V1,
        section: "Loading Sessions",
        text: REPLAY_CONVERSATION,
        note: "The replay is what the agent sends before it answers session/load.",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::SESSION_SETUP_V2,
            section: "Resuming Sessions",
            text: REPLAY_FROM_START,
            note: "The replay is what the agent sends before it answers session/resume with replayFrom {\"type\": \"start\"}.",
        },
    }],
};

/// A replay that leaves out a plan the live session ended with: a warning.
pub(crate) const REPLAY_MISSING: Rule = Rule {
    id: "LOAD-REPLAY-MISSING",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A `session/load` replay (v2: `session/resume` from the start) shows the plans the live session ended with (a replay without them is incomplete)",
    citation: Citation {
        document: docs::SESSION_SETUP_V1,
        section: "Loading Sessions",
        text: REPLAY_CONVERSATION,
        note: "Whether plan updates are part of \"the conversation\" is not spelled out in v1, so a replay without them is a warning.",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::SESSION_SETUP_V2,
            section: "Resuming Sessions",
            text: REPLAY_FROM_START,
            note: "v2 names user, agent and thought messages as what may be replayed, not plan updates, so a replay without them is a warning.",
        },
    }],
};

/// The LOAD-* rules, in catalog order.
pub const RULES: &[&Rule] = &[&REPLAY_MISSING];

/// Compare what a client shows after the replay with what it showed at the
/// end of the live session, as a client shows plans (`_meta` is not shown,
/// so it is not compared). A plan the replay shows differently, or shows
/// although the live session did not end with it, is an error; a plan the
/// replay leaves out is a warning.
pub(crate) fn compare_replay(
    session: &str,
    live: &SessionPlans,
    replay: &SessionPlans,
) -> Vec<Diagnostic> {
    compare(session, live, replay, false)
}

/// [`compare_replay`] for a replay on the connection the session lived on:
/// `before` is what the client showed when the replay was asked for,
/// `after` what it shows when the replay ends. The client keeps `before`,
/// so a plan `after` lacks is one the replay removed: an error, not an
/// omission.
pub(crate) fn compare_replay_on_same_connection(
    session: &str,
    before: &SessionPlans,
    after: &SessionPlans,
) -> Vec<Diagnostic> {
    compare(session, before, after, true)
}

fn compare(
    session: &str,
    live: &SessionPlans,
    replay: &SessionPlans,
    same_connection: bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let shown = |plans: &SessionPlans| plans.to_json();
    let (live_json, replay_json) = (shown(live), shown(replay));
    match (&live_json["legacy"], &replay_json["legacy"]) {
        (serde_json::Value::Null, serde_json::Value::Null) => {}
        (serde_json::Value::Null, _) => out.push(
            Diagnostic::new(
                &REPLAY_STATE,
                "the replay shows a legacy plan, but the live session ended without one",
            )
            .hint("replay the plan updates the session actually sent"),
        ),
        (_, serde_json::Value::Null) if same_connection => out.push(
            Diagnostic::new(
                &REPLAY_STATE,
                "the replay leaves the client without the legacy plan the live session ended with",
            )
            .hint("replay the plan updates the session actually sent"),
        ),
        (_, serde_json::Value::Null) => out.push(
            Diagnostic::new(
                &REPLAY_MISSING,
                "the replay shows no legacy plan, but the live session ended with one",
            )
            .hint("replay the session's `plan` updates so a client that loads it shows the plan"),
        ),
        (before, after) if before != after => out.push(
            Diagnostic::new(
                &REPLAY_STATE,
                format!(
                    "the replay ends with a different legacy plan than the live session: live {}, replayed {}",
                    crate::text::shorten(&before.to_string(), 200),
                    crate::text::shorten(&after.to_string(), 200)
                ),
            )
            .hint("replay every plan update, in order, up to the last one sent"),
        ),
        _ => {}
    }
    for (id, view) in &live.plans {
        match replay.plans.get(id) {
            None if same_connection => out.push(
                Diagnostic::new(
                    &REPLAY_STATE,
                    format!("the replay removes plan `{}`, which the live session ended with", crate::text::shorten(id, 80)),
                )
                .plan(id)
                .hint("replay the session's `plan_removed` only where the session removed the plan, and its later updates after it"),
            ),
            None => out.push(
                Diagnostic::new(
                    &REPLAY_MISSING,
                    format!("the replay does not show plan `{}`, which the live session ended with", crate::text::shorten(id, 80)),
                )
                .plan(id)
                .hint("replay the session's `plan_update`s so a client that loads it shows the plan"),
            ),
            Some(replayed) if replayed != view => out.push(
                Diagnostic::new(
                    &REPLAY_STATE,
                    format!(
                        "the replay ends with different content for plan `{}`: live {}, replayed {}",
                        crate::text::shorten(id, 80),
                        crate::text::shorten(&view.to_json().to_string(), 200),
                        crate::text::shorten(&replayed.to_json().to_string(), 200)
                    ),
                )
                .plan(id)
                .hint("replay every update of the plan, in order, up to the last one sent"),
            ),
            Some(_) => {}
        }
    }
    for id in replay
        .plans
        .keys()
        .filter(|id| !live.plans.contains_key(id))
    {
        out.push(
            Diagnostic::new(
                &REPLAY_STATE,
                format!(
                    "the replay shows plan `{}`, which the live session did not end with (never sent, or removed)",
                    crate::text::shorten(id, 80)
                ),
            )
            .plan(id)
            .hint("replay `plan_removed` too, or leave out plans the session removed"),
        );
    }
    for d in &mut out {
        d.set_session(session);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::messages::{PlanContent, PlanEntry, Priority, Status};
    use crate::state::PlanView;

    fn entry(content: &str, status: Status, meta: Option<serde_json::Value>) -> PlanEntry {
        PlanEntry {
            content: content.into(),
            priority: Priority::High,
            status,
            meta: meta
                .as_ref()
                .map(crate::spec::messages::RawMeta::from_value),
        }
    }

    fn markdown(text: &str) -> PlanView {
        PlanView {
            content: PlanContent::Markdown {
                content: text.into(),
                path: None,
            },
        }
    }

    fn ids(found: &[Diagnostic]) -> Vec<&str> {
        found.iter().map(|d| d.rule.id).collect()
    }

    #[test]
    fn identical_replays_pass_and_meta_is_not_compared() {
        let mut live = SessionPlans {
            legacy: Some(vec![entry("a", Status::Completed, None)]),
            ..Default::default()
        };
        live.plans.insert("p".into(), markdown("x"));
        let mut replay = live.clone();
        replay.legacy = Some(vec![entry(
            "a",
            Status::Completed,
            Some(serde_json::json!({"t": 1})),
        )]);
        assert!(compare_replay("s", &live, &replay).is_empty());
    }

    #[test]
    fn differences_are_errors_and_omissions_warnings() {
        let mut live = SessionPlans {
            legacy: Some(vec![entry("a", Status::Completed, None)]),
            ..Default::default()
        };
        live.plans.insert("kept".into(), markdown("final"));
        live.plans.insert("dropped".into(), markdown("y"));
        let mut replay = SessionPlans {
            legacy: Some(vec![entry("a", Status::Pending, None)]),
            ..Default::default()
        };
        replay.plans.insert("kept".into(), markdown("draft"));
        replay.plans.insert("removed-live".into(), markdown("z"));
        let found = compare_replay("s", &live, &replay);
        assert_eq!(
            ids(&found),
            [
                "LOAD-REPLAY-STATE",
                "LOAD-REPLAY-STATE",
                "LOAD-REPLAY-MISSING",
                "LOAD-REPLAY-STATE"
            ]
        );
        assert_eq!(found[1].plan.as_deref(), Some("kept"));
        assert_eq!(found[2].plan.as_deref(), Some("dropped"));
        assert!(found.iter().all(|d| d.session.as_deref() == Some("s")));
        let empty = SessionPlans::default();
        assert_eq!(
            ids(&compare_replay("s", &live, &empty)),
            ["LOAD-REPLAY-MISSING"; 3]
        );
        assert_eq!(
            ids(&compare_replay("s", &empty, &live)),
            ["LOAD-REPLAY-STATE"; 3]
        );
    }
}
