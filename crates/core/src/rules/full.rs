//! FULL-*: full-list replacement.
//!
//! The reference state replaces a plan wholesale on every update (see
//! `state`); this family warns when the trace shows that an update was a
//! delta: entries it left out come back unchanged later (see
//! [`check_update`]). It is a heuristic, so it is a SHOULD-level warning,
//! never an error.

use crate::catalog::{docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::spec::messages::{PlanEntry, Status};
use crate::spec::Revision;
use crate::text::shorten;
use std::collections::{HashMap, VecDeque};

/// An update that proved to be a delta (see [`check_update`]): a warning,
/// as the suite cannot know the full list.
pub const DELTA: Rule = Rule {
    id: "FULL-DELTA",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Heuristic: entries an update left out come back unchanged later, so that update carried only the changed entries (a delta), not the full list",
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
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::PLAN_V1,
                section: "Updating Plans",
                text: "The Agent MUST send a complete list of all plan entries in each update and their current status. The Client MUST replace the current plan completely.",
                note: "The suite cannot know the full list, so this is a heuristic and a warning.",
            },
        },
        RevisionCitation {
            revision: Revision::V1,
            citation: Citation {
                document: docs::SCHEMA_1_20_V1,
                section: "PlanItems.entries",
                text: "The Agent MUST send all entries with their current status. The Client MUST replace the checklist with this `planId` on each update.",
                note: "The legacy plan's entries say the same (\"The Client MUST replace the entire checklist with each update.\"). The suite cannot know the full list, so this is a heuristic and a warning.",
            },
        },
    ],
};

/// The FULL-* rules, in catalog order.
pub const RULES: &[&Rule] = &[&DELTA];

/// An entry that a delta-shaped update left out, as it was then.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Vanished {
    content: String,
    status: Status,
    /// The line of the update that left it out.
    line: u64,
}

/// What FULL-DELTA remembers about one plan between its updates: the
/// entries that delta-shaped updates left out and that have not come back
/// yet (at least one of them unfinished, or nothing). An update only moves entries between the plan and this
/// list (see [`check_update`]), so the plan and its suspicion together never
/// hold more entries than the plan did when the suspicion began.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suspicion {
    vanished: Vec<Vanished>,
}

impl Suspicion {
    /// Nothing remembered.
    pub const EMPTY: Suspicion = Suspicion {
        vanished: Vec::new(),
    };

    /// Whether nothing is remembered, so that no entry can come back and
    /// [`check_update`] can answer without pairing entries.
    pub fn is_empty(&self) -> bool {
        self.vanished.is_empty()
    }

    /// Entries remembered.
    pub fn len(&self) -> usize {
        self.vanished.len()
    }

    /// Bytes this suspicion holds: each entry's struct and text, with an
    /// allocator's rounding (counted with the plan's own bytes against
    /// `--max-state-bytes`).
    pub fn bytes(&self) -> usize {
        self.vanished
            .iter()
            .map(|v| {
                std::mem::size_of::<Vanished>()
                    + v.content.len()
                    + match &v.status {
                        Status::Custom(text) => text.len() + 16,
                        _ => 0,
                    }
                    + 16
            })
            .sum()
    }
}

/// What [`check_update`] found: the warning, if the update proved a delta,
/// and what to remember about the plan once the update is applied.
#[derive(Debug)]
pub struct Outcome {
    /// FULL-DELTA, when a remembered entry came back unchanged.
    pub diagnostic: Option<Diagnostic>,
    /// What to remember about the plan in place of the suspicion given.
    pub suspicion: Suspicion,
}

/// FULL-DELTA from evidence. `previous` is the plan shown before this
/// update, `suspicion` what earlier updates of the same plan left out,
/// `next` the update's entries (at `entries_pointer`, on `line`).
///
/// An update *looks* like a delta when it is not empty, every entry it
/// carries is an earlier entry (by `content`) with a different status, and
/// an unfinished entry vanished. That is also what a legitimate replan looks
/// like ("the Agent MAY add or remove entries"), so it is never warned about
/// by itself: the entries it left out are remembered. The warning comes
/// when a remembered unfinished entry comes back *unchanged* (same content
/// and status as when it vanished): the agent never meant to remove it, so
/// the update that left it out was a list of changes, not the full list.
///
/// - A remembered entry that comes back changed is a replan: no warning, and
///   it is forgotten.
/// - Partial return: one entry back unchanged is enough; the warning counts
///   how many came back.
/// - Delta-shaped updates in a row add to what is remembered (a delta agent
///   sends only what changed, update after update).
/// - Any other update is a full list (it is empty, repeats an entry
///   unchanged, or brings new content): if it brings nothing back unchanged,
///   everything remembered is forgotten.
pub fn check_update(
    previous: &[PlanEntry],
    suspicion: &Suspicion,
    next: &[PlanEntry],
    line: u64,
    entries_pointer: &str,
) -> Outcome {
    // With nothing remembered, nothing can come back, and only a non-empty
    // update shorter than the plan can leave an entry out while pairing all
    // of its own: any other is a full list (the common case, answered
    // without building the pools; a test holds it to the full answer).
    if suspicion.is_empty() && (next.is_empty() || next.len() >= previous.len()) {
        return Outcome {
            diagnostic: None,
            suspicion: Suspicion::default(),
        };
    }
    check_update_in_full(previous, suspicion, next, line, entries_pointer)
}

/// [`check_update`] without its shortcut.
fn check_update_in_full(
    previous: &[PlanEntry],
    suspicion: &Suspicion,
    next: &[PlanEntry],
    line: u64,
    entries_pointer: &str,
) -> Outcome {
    let remembered = &suspicion.vanished;
    // Pair `next` with the shown entries and the remembered ones, exact
    // matches first (with repeated contents, matching by content alone could
    // pair an unchanged entry with a changed twin), each entry at most once.
    let mut shown = Pool::new(previous.iter().map(|e| (e.content.as_str(), &e.status)));
    let mut away = Pool::new(remembered.iter().map(|v| (v.content.as_str(), &v.status)));
    let mut paired = vec![false; next.len()];
    let mut repeats_unchanged = false;
    for (n, entry) in next.iter().enumerate() {
        if shown.take_exact(entry).is_some() {
            paired[n] = true;
            repeats_unchanged = true;
        }
    }
    // (position in `next`, remembered entry) of each entry back unchanged.
    let mut back_unchanged: Vec<(usize, &Vanished)> = Vec::new();
    for (n, entry) in next.iter().enumerate() {
        if paired[n] {
            continue;
        }
        if let Some(index) = away.take_exact(entry) {
            paired[n] = true;
            // A finished entry coming back as it was is history repeated,
            // not evidence (agents drop and re-list finished tasks).
            if !remembered[index].status.is_finished() {
                back_unchanged.push((n, &remembered[index]));
            }
        }
    }
    let mut new_content = false;
    for (n, entry) in next.iter().enumerate() {
        if paired[n] {
            continue;
        }
        if shown.take_any(entry).is_none() && away.take_any(entry).is_none() {
            new_content = true;
        }
    }
    if !back_unchanged.is_empty() {
        return Outcome {
            diagnostic: Some(came_back(&back_unchanged, entries_pointer)),
            suspicion: Suspicion::default(),
        };
    }
    if next.is_empty() || repeats_unchanged || new_content {
        return Outcome {
            diagnostic: None,
            suspicion: Suspicion::default(),
        };
    }
    // A list of changes: remember what it left out, keep what is still away.
    let mut vanished: Vec<Vanished> = remembered
        .iter()
        .zip(&away.taken)
        .filter(|(_, taken)| !**taken)
        .map(|(v, _)| v.clone())
        .collect();
    // Left out means its content is sent fewer times than before. A shown
    // entry can stay unpaired while its content is not sent fewer times: the
    // update's entry of that content went to a remembered twin (exact
    // matches come first). Read the other way, the shown entry changed; with
    // two readings it is not remembered, so a warning always rests on a
    // content sent fewer times (a property test holds it).
    let mut left_out: HashMap<&str, usize> = previous
        .iter()
        .zip(&shown.taken)
        .filter(|(_, taken)| !**taken)
        .map(|(entry, _)| (entry.content.as_str(), 0))
        .collect();
    for entry in previous {
        if let Some(count) = left_out.get_mut(entry.content.as_str()) {
            *count += 1;
        }
    }
    for entry in next {
        if let Some(count) = left_out.get_mut(entry.content.as_str()) {
            *count = count.saturating_sub(1);
        }
    }
    vanished.extend(
        previous
            .iter()
            .zip(&shown.taken)
            .filter(|(entry, taken)| {
                !**taken
                    && left_out
                        .get_mut(entry.content.as_str())
                        .is_some_and(|count| {
                            let one_more = *count > 0;
                            *count = count.saturating_sub(1);
                            one_more
                        })
            })
            .map(|(entry, _)| Vanished {
                content: entry.content.clone(),
                status: entry.status.clone(),
                line,
            }),
    );
    // Finished entries are remembered only beside an unfinished one (so a
    // later delta that touches them still reads as a list of changes):
    // dropping finished tasks alone is what full lists do.
    if vanished.iter().all(|v| v.status.is_finished()) {
        vanished.clear();
    }
    Outcome {
        diagnostic: None,
        suspicion: Suspicion { vanished },
    }
}

/// Entries to pair with an update's, each at most once, by content and
/// status or by content alone, in order. Indexes keep it linear however
/// long the plans are and however many entries share a content.
struct Pool<'a> {
    exact: HashMap<(&'a str, &'a Status), VecDeque<usize>>,
    by_content: HashMap<&'a str, VecDeque<usize>>,
    taken: Vec<bool>,
}

impl<'a> Pool<'a> {
    fn new(entries: impl Iterator<Item = (&'a str, &'a Status)>) -> Pool<'a> {
        let mut pool = Pool {
            exact: HashMap::new(),
            by_content: HashMap::new(),
            taken: Vec::new(),
        };
        for (index, (content, status)) in entries.enumerate() {
            pool.exact
                .entry((content, status))
                .or_default()
                .push_back(index);
            pool.by_content.entry(content).or_default().push_back(index);
            pool.taken.push(false);
        }
        pool
    }

    /// An entry with the same content and status, not yet taken.
    fn take_exact(&mut self, entry: &'a PlanEntry) -> Option<usize> {
        let queue = self
            .exact
            .get_mut(&(entry.content.as_str(), &entry.status))?;
        Self::take_first(queue, &mut self.taken)
    }

    /// An entry with the same content, not yet taken.
    fn take_any(&mut self, entry: &'a PlanEntry) -> Option<usize> {
        let queue = self.by_content.get_mut(entry.content.as_str())?;
        Self::take_first(queue, &mut self.taken)
    }

    fn take_first(queue: &mut VecDeque<usize>, taken: &mut [bool]) -> Option<usize> {
        while let Some(index) = queue.pop_front() {
            if !taken[index] {
                taken[index] = true;
                return Some(index);
            }
        }
        None
    }
}

/// The warning at the update that brought entries back unchanged, naming
/// the earlier update(s) that left them out.
fn came_back(back: &[(usize, &Vanished)], entries_pointer: &str) -> Diagnostic {
    let mut lines: Vec<u64> = back.iter().map(|(_, v)| v.line).collect();
    lines.sort_unstable();
    lines.dedup();
    let mut named: Vec<String> = lines.iter().take(3).map(u64::to_string).collect();
    if lines.len() > 3 {
        named.push("...".into());
    }
    let (updates, those) = if lines.len() == 1 {
        ("the update on line", "that update")
    } else {
        ("the updates on lines", "those updates")
    };
    let entries: Vec<String> = back
        .iter()
        .take(3)
        .map(|(_, v)| {
            format!(
                "`{}` {}",
                shorten(&v.content, 60),
                shorten(v.status.as_str(), 20)
            )
        })
        .collect();
    let more = if back.len() > 3 { ", ..." } else { "" };
    let first = back.iter().map(|(n, _)| *n).min().unwrap_or(0);
    Diagnostic::new(
        &DELTA,
        format!(
            "{} entr{} ({}{more}) left out of `{entries_pointer}` by {updates} {} came back unchanged: {those} carried only the entries that changed (a delta), not the full list",
            back.len(),
            if back.len() == 1 { "y" } else { "ies" },
            entries.join(", "),
            named.join(", "),
        ),
    )
    .at(format!("{entries_pointer}/{first}"))
    .hint("send the complete list of entries with their current status on every update: the client replaced the plan with the partial list and showed the entries left out as removed (heuristic)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::messages::Priority;

    const POINTER: &str = "/params/update/entries";

    #[test]
    fn the_shortcut_gives_the_full_answer() {
        // Sequences of small plans over few contents and statuses (so that
        // entries repeat, vanish and come back): at every step the answer
        // with the shortcut is the answer without it.
        let statuses = [
            Status::Pending,
            Status::InProgress,
            Status::Completed,
            Status::Cancelled,
        ];
        let mut rng = fastrand::Rng::with_seed(11);
        let (mut shortcuts, mut deltas) = (0, 0);
        for _ in 0..3000 {
            let mut previous: Vec<PlanEntry> = Vec::new();
            let mut suspicion = Suspicion::default();
            for step in 0..6 {
                let next: Vec<PlanEntry> = (0..rng.usize(0..5))
                    .map(|_| {
                        let content = ["a", "b", "c", "d"][rng.usize(0..4)];
                        entry(content, statuses[rng.usize(0..4)].clone())
                    })
                    .collect();
                let fast = check_update(&previous, &suspicion, &next, step, POINTER);
                let full = check_update_in_full(&previous, &suspicion, &next, step, POINTER);
                assert_eq!(fast.diagnostic, full.diagnostic);
                assert_eq!(fast.suspicion, full.suspicion);
                shortcuts += usize::from(
                    suspicion.is_empty() && (next.is_empty() || next.len() >= previous.len()),
                );
                deltas += usize::from(!full.suspicion.is_empty() || full.diagnostic.is_some());
                suspicion = full.suspicion;
                previous = next;
            }
        }
        assert!(shortcuts > 1000 && deltas > 100, "{shortcuts} {deltas}");
    }

    fn entry(content: &str, status: Status) -> PlanEntry {
        PlanEntry {
            content: content.into(),
            priority: Priority::High,
            status,
            meta: None,
        }
    }

    use Status::{Cancelled, Completed, InProgress, Pending};

    fn plan(entries: &[(&str, Status)]) -> Vec<PlanEntry> {
        entries
            .iter()
            .map(|(content, status)| entry(content, status.clone()))
            .collect()
    }

    /// Runs updates of one plan (the first on line 1) and returns the
    /// warnings by line, and what is remembered at the end.
    fn run(updates: &[Vec<PlanEntry>]) -> (Vec<(u64, Diagnostic)>, Suspicion) {
        let mut warnings = Vec::new();
        let mut suspicion = Suspicion::default();
        for (n, pair) in updates.windows(2).enumerate() {
            let line = n as u64 + 2;
            let outcome = check_update(&pair[0], &suspicion, &pair[1], line, POINTER);
            warnings.extend(outcome.diagnostic.map(|d| (line, d)));
            suspicion = outcome.suspicion;
        }
        (warnings, suspicion)
    }

    fn warned_on(updates: &[Vec<PlanEntry>]) -> Vec<u64> {
        run(updates).0.into_iter().map(|(line, _)| line).collect()
    }

    #[test]
    fn the_replan_of_the_issue_is_silent() {
        // "the Agent MAY add or remove entries": C is dropped for good.
        let updates = [
            plan(&[("A", InProgress), ("B", Pending), ("C", Pending)]),
            plan(&[("A", Completed), ("B", InProgress)]),
            plan(&[("A", Completed), ("B", Completed)]),
        ];
        assert_eq!(warned_on(&updates), Vec::<u64>::new());
        // The suspicion was dropped by the full list on line 3.
        assert!(run(&updates).1.is_empty());
        // Looking like a delta is remembered, never warned about by itself.
        let (warnings, suspicion) = run(&updates[..2]);
        assert!(warnings.is_empty());
        assert_eq!(suspicion.len(), 1);
    }

    #[test]
    fn entries_coming_back_unchanged_prove_a_delta() {
        let updates = [
            plan(&[("A", Pending), ("B", Pending), ("C", Pending)]),
            plan(&[("A", InProgress)]),
            plan(&[("A", Completed), ("B", Pending), ("C", Pending)]),
        ];
        let (warnings, suspicion) = run(&updates);
        assert_eq!(warnings.len(), 1);
        let (line, d) = &warnings[0];
        assert_eq!(*line, 3);
        assert_eq!(d.rule.id, "FULL-DELTA");
        assert_eq!(d.pointer, "/params/update/entries/1");
        assert!(d.message.contains("2 entries"), "{}", d.message);
        assert!(
            d.message.contains("by the update on line 2"),
            "{}",
            d.message
        );
        assert!(d.message.contains("`B` pending"), "{}", d.message);
        assert!(suspicion.is_empty(), "warned once, then forgotten");
    }

    #[test]
    fn deltas_in_a_row_accumulate_until_something_comes_back() {
        // A pure delta agent: each update carries only what changed.
        let updates = [
            plan(&[("A", Pending), ("B", Pending), ("C", Pending)]),
            plan(&[("A", InProgress)]),
            plan(&[("A", Completed)]),
            plan(&[("B", InProgress)]),
            plan(&[("B", Completed)]),
            plan(&[("A", Completed), ("B", Completed), ("C", Pending)]),
        ];
        let (warnings, _) = run(&updates);
        assert_eq!(warnings.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [6]);
        // C vanished on line 2; B came back changed on line 4 (a replan of
        // B, not evidence); A had finished when it vanished on line 4.
        let message = &warnings[0].1.message;
        assert!(message.contains("1 entry (`C` pending)"), "{message}");
        assert!(message.contains("on line 2"), "{message}");
    }

    #[test]
    fn coming_back_changed_is_a_replan() {
        let updates = [
            plan(&[("A", InProgress), ("B", Pending), ("C", Pending)]),
            plan(&[("A", Completed), ("B", InProgress)]),
            plan(&[("A", Completed), ("B", Completed), ("C", InProgress)]),
        ];
        assert_eq!(warned_on(&updates), Vec::<u64>::new());
        // Brought back changed inside another list of changes: forgotten,
        // so it cannot count later.
        let updates = [
            plan(&[("A", InProgress), ("B", Pending), ("C", Pending)]),
            plan(&[("A", Completed)]),
            plan(&[("B", InProgress)]),
            plan(&[("B", InProgress), ("C", Pending)]),
        ];
        assert_eq!(warned_on(&updates), [4]);
        assert_eq!(
            run(&updates[..3]).1.len(),
            2,
            "B forgotten; C remembered, and finished A beside it"
        );
    }

    #[test]
    fn partial_return_is_enough_and_names_every_dropping_line() {
        let updates = [
            plan(&[
                ("A", InProgress),
                ("B", Pending),
                ("C", Pending),
                ("D", Pending),
            ]),
            plan(&[("A", Completed), ("B", InProgress)]),
            plan(&[("B", Completed)]),
            // C comes back unchanged, D never does, A (finished) is not evidence.
            plan(&[("A", Completed), ("B", Completed), ("C", Pending)]),
        ];
        let (warnings, suspicion) = run(&updates);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].1.message.starts_with("1 entry"));
        assert!(suspicion.is_empty());
        let updates = [
            plan(&[
                ("A", InProgress),
                ("B", InProgress),
                ("C", Pending),
                ("D", Pending),
            ]),
            // B vanishes on line 2, D on line 3.
            plan(&[("A", Completed), ("C", InProgress), ("D", InProgress)]),
            plan(&[("A", Cancelled), ("C", Completed)]),
            plan(&[("A", Completed), ("B", InProgress), ("D", InProgress)]),
        ];
        let (warnings, _) = run(&updates);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let message = &warnings[0].1.message;
        assert!(message.contains("2 entries"), "{message}");
        assert!(message.contains("on lines 2, 3"), "{message}");
    }

    #[test]
    fn a_full_list_drops_the_suspicion() {
        let dropped = [
            plan(&[("A", InProgress), ("B", Pending), ("C", Pending)]),
            plan(&[("A", Completed), ("B", InProgress)]),
        ];
        let back = plan(&[("A", Completed), ("B", Completed), ("C", Pending)]);
        for full in [
            // Repeats an entry unchanged.
            plan(&[("A", Completed), ("B", Completed)]),
            // New content.
            plan(&[("D", Pending)]),
            // Emptied.
            vec![],
        ] {
            let mut updates = dropped.to_vec();
            updates.push(full.clone());
            updates.push(back.clone());
            assert_eq!(warned_on(&updates), Vec::<u64>::new(), "{full:?}");
        }
        // Without the full list in between, the return is the evidence.
        let mut updates = dropped.to_vec();
        updates.push(back);
        assert_eq!(warned_on(&updates), [3]);
    }

    #[test]
    fn full_lists_and_dropped_entries_are_never_suspected() {
        let previous = plan(&[("a", Completed), ("b", InProgress), ("c", Pending)]);
        let none = Suspicion::default();
        for next in [
            previous.clone(),
            plan(&[("a", Completed), ("b", Completed)]),
            plan(&[("z", Pending)]),
            vec![],
        ] {
            let outcome = check_update(&previous, &none, &next, 2, POINTER);
            assert!(outcome.diagnostic.is_none() && outcome.suspicion.is_empty());
        }
        // Only finished entries vanished.
        let previous = plan(&[("a", Completed), ("b", Pending)]);
        let next = plan(&[("b", InProgress)]);
        assert!(check_update(&previous, &none, &next, 2, POINTER)
            .suspicion
            .is_empty());
    }

    #[test]
    fn an_unchanged_entry_with_a_twin_is_still_unchanged() {
        // Two tasks share their content; the in-progress one is repeated as
        // it was. Matching by content alone paired it with its pending twin
        // and called the update a list of changes.
        let previous = plan(&[
            ("run tests", Pending),
            ("run tests", InProgress),
            ("b", Pending),
        ]);
        let none = Suspicion::default();
        let next = plan(&[("run tests", InProgress)]);
        assert!(check_update(&previous, &none, &next, 2, POINTER)
            .suspicion
            .is_empty());
        // The near miss: both twins vanish but one comes back changed.
        let next = plan(&[("run tests", Completed)]);
        assert_eq!(
            check_update(&previous, &none, &next, 2, POINTER)
                .suspicion
                .len(),
            2
        );
    }

    #[test]
    fn an_entry_whose_content_is_sent_as_often_is_not_left_out() {
        // Found by `every_delta_warning_has_evidence`: line 3's cancelled `a`
        // paired with the remembered cancelled twin, so the pending `a` of
        // line 2 looked left out, and its return on line 4 was "evidence".
        // Line 3 sends `a` as often as line 2 did: nothing was left out.
        let updates = [
            plan(&[("a", InProgress), ("a", Cancelled), ("a", InProgress)]),
            plan(&[("a", Pending)]),
            plan(&[("a", Cancelled)]),
            plan(&[("a", Pending)]),
        ];
        assert_eq!(warned_on(&updates), Vec::<u64>::new());
        // Sent fewer times, the same return is evidence.
        let updates = [
            plan(&[("a", InProgress), ("a", Cancelled), ("a", InProgress)]),
            plan(&[("a", Pending), ("a", Pending)]),
            plan(&[("a", Cancelled)]),
            plan(&[("a", Pending)]),
        ];
        assert_eq!(warned_on(&updates), [4]);
    }

    #[test]
    fn the_suspicion_never_outgrows_the_plan() {
        // Entries only move between the plan and the suspicion.
        let mut shown = plan(&[
            ("a", Pending),
            ("b", Pending),
            ("c", Pending),
            ("d", Pending),
        ]);
        let mut suspicion = Suspicion::default();
        let mut most = 0;
        let statuses = [InProgress, Completed, Status::Custom("_x".into())];
        for step in 0..40usize {
            let name = ["a", "b", "c", "d"][step % 4];
            let next = plan(&[(name, statuses[step % 3].clone())]);
            let outcome = check_update(&shown, &suspicion, &next, step as u64, POINTER);
            suspicion = outcome.suspicion;
            assert!(suspicion.len() + next.len() <= 4);
            most = most.max(suspicion.bytes());
            shown = next;
        }
        assert!(most > 0);
    }
}
