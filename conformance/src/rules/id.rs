//! ID-*: plan identity within a session.
//!
//! Ids are scoped to a session: nothing here ever looks across sessions.

use super::{docs, Citation, Level, Rule, ALL_REVISIONS};
use crate::diag::{shorten, Diagnostic};
use crate::state::SessionPlans;

pub const REMOVE_UNKNOWN: Rule = Rule {
    id: "ID-REMOVE-UNKNOWN",
    level: Level::Should,
    revisions: ALL_REVISIONS,
    summary: "`plan_removed` names a plan that is live in that session (not never-created or already removed)",
    citation: Citation {
        document: docs::RFD,
        section: "Plan Removal",
        text: "Agent sends a plan_removed session update with the plan's id to dismiss it.",
    },
};

pub const RECREATE: Rule = Rule {
    id: "ID-RECREATE",
    level: Level::Info,
    revisions: ALL_REVISIONS,
    summary: "A removed plan id is used again (allowed: it creates a new plan)",
    citation: Citation {
        document: docs::RFD,
        section: "Multiple Plans",
        text: "Each plan_update targets the plan with the given id; Client tracks plans by ID.",
    },
};

pub const TYPE_CHANGE: Rule = Rule {
    id: "ID-TYPE-CHANGE",
    level: Level::Info,
    revisions: ALL_REVISIONS,
    summary: "A plan changes its `type` (allowed: the update replaces the plan's content)",
    citation: Citation {
        document: docs::RFD,
        section: "Multiple Plans",
        text: "Client tracks plans by ID; updates replace the content of that specific plan. Different plans may use different types.",
    },
};

pub const RULES: &[&Rule] = &[&REMOVE_UNKNOWN, &RECREATE, &TYPE_CHANGE];

/// Before `plan_removed` for `id` is applied.
pub fn check_removal(
    plans: &SessionPlans,
    id: &str,
    removed_on_line: Option<u64>,
) -> Option<Diagnostic> {
    if plans.plans.contains_key(id) {
        return None;
    }
    let shown = shorten(id, 80);
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

/// Before `plan_update` for `id` with content type `type_name` is applied.
pub fn check_update(
    plans: &SessionPlans,
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
                    shorten(id, 80)
                ),
            )
            .plan(id),
        );
    }
    let previous = plans.plans.get(id)?;
    let before = previous.content.type_name();
    (before != type_name).then(|| {
        Diagnostic::new(
            &TYPE_CHANGE,
            format!(
                "plan `{}` changes type from `{}` to `{}`",
                shorten(id, 80),
                shorten(before, 40),
                shorten(type_name, 40)
            ),
        )
        .plan(id)
    })
}
