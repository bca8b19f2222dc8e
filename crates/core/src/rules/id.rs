//! ID-*: plan identity within a session.
//!
//! Ids are scoped to a session: nothing here ever looks across sessions.

use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};

/// The revisions that say nothing of a removal for an unknown id.
const WITHOUT_IGNORED_REMOVALS: &[Revision] = &[
    Revision::Draft202605,
    Revision::V1Schema117,
    Revision::V2Schema117,
];
use crate::diag::Diagnostic;
use crate::spec::Revision;
use crate::state::SessionPlans;
use crate::text::shorten;

/// A `plan_removed` for an id not live in its session (see [`check_removal`]).
pub(crate) const REMOVE_UNKNOWN: Rule = Rule {
    id: "ID-REMOVE-UNKNOWN",
    level: Level::Should,
    basis: Basis::Text,
    // Schema 1.20.0 made the removal of an unknown id the client's business:
    // "Clients MUST ignore a removal for an unknown ID" (the reference state does).
    revisions: WITHOUT_IGNORED_REMOVALS,
    summary: "`plan_removed` names a plan that is live in that session (not never-created or already removed); before schema 1.20.0 only",
    citation: Citation {
        document: docs::RFD,
        section: "Plan Removal",
        text: "Agent sends a plan_removed session update with the plan's id to dismiss it.",
        note: "A removal of a plan that is not live dismisses nothing.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::PLAN_V1_OPS,
                section: "Removing Plans",
                text: "Agents can remove a plan by sending plan_removed with the plan ID:",
                note: "A removal of a plan that is not live dismisses nothing.",
            },
        },
        RevisionCitation {
            revision: Revision::V2Schema117,
            citation: Citation {
                document: docs::PLAN_V2_UNSTABLE,
                section: "Removing Plans",
                text: "Agents can remove a plan by sending plan_removed with the plan ID:",
                note: "A removal of a plan that is not live dismisses nothing.",
            },
        },
    ],
};

/// A removed plan id used again: information, as it is allowed.
pub const RECREATE: Rule = Rule {
    id: "ID-RECREATE",
    level: Level::Info,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A removed plan id is used again (allowed: it creates a new plan)",
    citation: Citation {
        document: docs::RFD,
        section: "Multiple Plans",
        text: "Client tracks plans by ID; updates replace the content of that specific plan",
        note: "Nothing forbids using a removed id again: the update creates a new plan.",
    },
    revision_citations: &[],
};

/// A plan whose `type` changes between updates: information, as it is allowed.
pub(crate) const TYPE_CHANGE: Rule = Rule {
    id: "ID-TYPE-CHANGE",
    level: Level::Info,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A plan changes its `type` (allowed: the update replaces the plan's content)",
    citation: Citation {
        document: docs::RFD,
        section: "Multiple Plans",
        text: "Client tracks plans by ID; updates replace the content of that specific plan",
        note: "Nothing forbids a plan changing its type: the update replaces its content.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1,
            citation: Citation {
                document: docs::SCHEMA_1_20_V1,
                section: "PlanUpdate.plan",
                text: "Replaces the whole plan with this `planId`, even if its `type` changes.",
                note: "",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::SCHEMA_1_20_V2,
                section: "PlanUpdate.plan",
                text: "Replaces the whole plan with this `planId`, even if its `type` changes.",
                note: "",
            },
        },
    ],
};

/// The ID-* rules, in catalog order.
pub const RULES: &[&Rule] = &[&REMOVE_UNKNOWN, &RECREATE, &TYPE_CHANGE];

/// Most of an id or a (v2 custom) type name repeated in a message: they come
/// from the trace and can be huge.
const SHOWN_ID_CHARS: usize = 80;
const SHOWN_TYPE_CHARS: usize = 40;

/// Before `plan_removed` for `id` is applied. `untracked`: an update of
/// the session went unapplied at a checker limit, so a plan the session does
/// not show may be live for the agent: then nothing is said (the limit was).
pub(crate) fn check_removal(
    revision: Revision,
    plans: &SessionPlans,
    id: &str,
    removed_on_line: Option<u64>,
    untracked: bool,
) -> Option<Diagnostic> {
    if !REMOVE_UNKNOWN.applies_to(revision) || untracked || plans.plans.contains_key(id) {
        return None;
    }
    let shown = shorten(id, SHOWN_ID_CHARS);
    let message = match removed_on_line {
        Some(line) => format!("plan `{shown}` was already removed (line {line})"),
        None => format!("plan `{shown}` was never created in this session"),
    };
    Some(
        Diagnostic::new(&REMOVE_UNKNOWN, message)
            .plan(id)
            .hint("remove only plans that the session shows; ids are scoped to their session"),
    )
}

/// Before `plan_update` for `id` with content type `type_name` is applied;
/// `shown_type`: the type of the plan the session shows under that id, when
/// it is one and what is shown is what the agent last sent.
pub fn check_update(
    shown_type: Option<&str>,
    id: &str,
    type_name: &str,
    removed_on_line: Option<u64>,
) -> Option<Diagnostic> {
    if let Some(line) = removed_on_line {
        return Some(
            Diagnostic::new(
                &RECREATE,
                format!(
                    "plan `{}` was removed on line {line} and is created again",
                    shorten(id, SHOWN_ID_CHARS)
                ),
            )
            .plan(id),
        );
    }
    let before = shown_type?;
    (before != type_name).then(|| {
        Diagnostic::new(
            &TYPE_CHANGE,
            format!(
                "plan `{}` changes type from `{}` to `{}`",
                shorten(id, SHOWN_ID_CHARS),
                shorten(before, SHOWN_TYPE_CHARS),
                shorten(type_name, SHOWN_TYPE_CHARS)
            ),
        )
        .plan(id)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::messages::{Plan, PlanContent, PlanMessage, PlanUpdate};
    use crate::state::ClientState;

    #[test]
    fn messages_stay_small_whatever_the_ids_and_types() {
        let huge = "x".repeat(100_000);
        let custom = format!("_{huge}");
        let mut state = ClientState::new();
        state.open_session("s");
        let markdown = PlanContent::Markdown {
            content: "# plan".into(),
            path: None,
        };
        let update = PlanMessage::Update(PlanUpdate {
            plan: Plan {
                id: huge.clone(),
                content: markdown,
                meta: None,
            },
            meta: None,
        });
        state.apply("s", &update);
        let plans = state.session("s").expect("session is open");

        let removal = check_removal(
            Revision::V1Schema117,
            plans,
            &format!("{huge}y"),
            None,
            false,
        )
        .expect("never created");
        let shown = plans
            .plans
            .get(huge.as_str())
            .map(|plan| plan.content.type_name());
        let recreation = check_update(shown, &huge, "items", Some(3)).expect("removed earlier");
        let type_change = check_update(shown, &huge, &custom, None).expect("type changes");
        for d in [removal, recreation, type_change] {
            assert!(
                d.message.len() < 300,
                "{}: {} bytes",
                d.rule.id,
                d.message.len()
            );
            assert!(d.plan.as_ref().is_some_and(|p| p.len() < 300));
        }
    }
}
