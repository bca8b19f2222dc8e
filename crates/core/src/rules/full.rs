//! FULL-*: full-list replacement.
//!
//! The reference state replaces a plan wholesale on every update (see
//! `state`); this family only warns when an update *looks* like a delta.
//! It is a heuristic, so it is a SHOULD-level warning, never an error.

use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::messages::{PlanEntry, Status};
use crate::spec::Revision;
use std::collections::{HashMap, HashSet, VecDeque};

pub const DELTA: Rule = Rule {
    id: "FULL-DELTA",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Heuristic: an update that carries only the changed entries while unfinished ones vanish looks like a delta, not a full list",
    citation: Citation {
        document: docs::PLAN_V1,
        section: "Updating Plans",
        text: "The Agent MUST send a complete list of all plan entries in each update and their current status. The Client MUST replace the current plan completely.",
        note: "The suite cannot know the full list, so this is a heuristic and a warning.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::Draft202605,
            citation: Citation {
                document: docs::PLAN_DRAFT,
                section: "Updating Plans",
                text: "The Agent MUST send a complete list of all plan entries in each update and their current status. The Client MUST replace the current plan completely.",
                note: "The suite cannot know the full list, so this is a heuristic and a warning.",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Updating Plans",
                text: "For item-based plans, the Agent MUST send a complete list of all plan entries in each update and their current status. The Client MUST replace the current contents of that plan completely.",
                note: "The suite cannot know the full list, so this is a heuristic and a warning.",
            },
        },
    ],
};

pub const RULES: &[&Rule] = &[&DELTA];

/// Warn when `next` looks like a delta against `previous`: it is a strict,
/// non-empty subset of the previous entries (matched by `content`), every
/// entry it carries changed status, and at least one unfinished entry
/// vanished. Dropping finished or deleted entries from a full list (as
/// real agents do) never matches, nor does any update that repeats an
/// unchanged entry.
pub fn check_replacement(previous: &[PlanEntry], next: &[PlanEntry]) -> Option<Diagnostic> {
    if next.is_empty() || next.len() >= previous.len() {
        return None;
    }
    // An entry repeated unchanged means this is not a list of changes.
    // (Checked against every previous entry first: with repeated contents,
    // matching by content alone could pair it with a different twin.)
    let unchanged: HashSet<(&str, &Status)> = previous
        .iter()
        .map(|p| (p.content.as_str(), &p.status))
        .collect();
    if next
        .iter()
        .any(|entry| unchanged.contains(&(entry.content.as_str(), &entry.status)))
    {
        return None;
    }
    // Previous entries by content, in order: matching stays linear however
    // long the plans are.
    let mut by_content: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for (index, entry) in previous.iter().enumerate() {
        by_content
            .entry(entry.content.as_str())
            .or_default()
            .push_back(index);
    }
    let mut carried = vec![false; previous.len()];
    for entry in next {
        let index = by_content.get_mut(entry.content.as_str())?.pop_front()?;
        carried[index] = true;
    }
    let vanished_unfinished = previous
        .iter()
        .zip(&carried)
        .filter(|(p, carried)| !**carried && !p.status.is_finished())
        .count();
    (vanished_unfinished > 0).then(|| {
        Diagnostic::new(
            &DELTA,
            format!(
                "update carries only {} changed entr{} of {}, and {} unfinished entr{} vanished: this looks like a delta",
                next.len(),
                if next.len() == 1 { "y" } else { "ies" },
                previous.len(),
                vanished_unfinished,
                if vanished_unfinished == 1 { "y" } else { "ies" },
            ),
        )
        .hint("send the complete list of entries with their current status on every update; the client replaces the plan (heuristic)")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::messages::{Priority, Status};

    fn entry(content: &str, status: Status) -> PlanEntry {
        PlanEntry {
            content: content.into(),
            priority: Priority::High,
            status,
            meta: None,
        }
    }

    #[test]
    fn delta_is_flagged() {
        let previous = [entry("a", Status::Pending), entry("b", Status::Pending)];
        let next = [entry("a", Status::InProgress)];
        assert!(check_replacement(&previous, &next).is_some());
    }

    #[test]
    fn full_lists_and_dropped_entries_are_not() {
        let previous = [
            entry("a", Status::Completed),
            entry("b", Status::InProgress),
            entry("c", Status::Pending),
        ];
        // Same list again (agents may repeat a plan).
        assert!(check_replacement(&previous, &previous).is_none());
        // A deleted task vanishes; the rest is repeated unchanged.
        let next = [entry("a", Status::Completed), entry("b", Status::Completed)];
        assert!(check_replacement(&previous, &next).is_none());
        // Only finished entries vanished.
        let previous = [entry("a", Status::Completed), entry("b", Status::Pending)];
        let next = [entry("b", Status::InProgress)];
        assert!(check_replacement(&previous, &next).is_none());
        // A new plan altogether.
        let next = [entry("z", Status::Pending)];
        assert!(check_replacement(&previous, &next).is_none());
        // Emptying the plan is a full list.
        assert!(check_replacement(&previous, &[]).is_none());
    }

    #[test]
    fn an_unchanged_entry_with_a_twin_is_still_unchanged() {
        // Two tasks share their content; the pending one and "b" were
        // deleted, the in-progress one is repeated as it was. Matching by
        // content alone paired it with its pending twin and called it a
        // delta (found while writing the FULL-DELTA properties in
        // tests/properties.rs).
        let previous = [
            entry("run tests", Status::Pending),
            entry("run tests", Status::InProgress),
            entry("b", Status::Pending),
        ];
        let next = [entry("run tests", Status::InProgress)];
        assert!(check_replacement(&previous, &next).is_none());
        // The near miss: both twins vanish but one comes back changed.
        let next = [entry("run tests", Status::Completed)];
        assert!(check_replacement(&previous, &next).is_some());
    }
}
