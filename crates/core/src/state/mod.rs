//! The reference client state: what a conformant client shows after each
//! message.
//!
//! Per session: the legacy plan (replaced wholesale by every `plan` update,
//! `None` until the first) and the keyed plans (replaced wholesale by every
//! `plan_update` for their id, dropped by `plan_removed`), in the order they
//! were first shown. Only messages that are well-formed and allowed in their
//! context are applied; anything else leaves the state as it was.

use crate::spec::messages::{PlanContent, PlanEntry, PlanMessage};
use hashbrown::HashTable;
use serde_json::{json, Map, Value};
use std::hash::BuildHasher;

mod key;
mod plans;
pub use key::Key;
pub use plans::Plans;

/// A keyed plan as the client shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanView {
    /// What the plan shows.
    pub content: PlanContent,
}

/// What one session shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SessionPlans {
    /// The legacy plan's entries, once a legacy `plan` update was shown.
    pub legacy: Option<Vec<PlanEntry>>,
    /// The keyed plans, in the order first shown.
    pub plans: Plans,
}

/// What the client shows, for every session of the connection: the
/// reference state a conformant client reaches (read it from
/// [`TraceReport::state`](crate::TraceReport::state); only the validator
/// changes it).
///
/// Sessions are kept in the order they were opened, each in a slot that
/// never moves while it is shown: forgetting one (a failed `session/load`)
/// empties its slot instead of moving every later session down, which made
/// a trace whose loads failed in the order sent cost each answer every
/// session opened since. Empty slots are dropped by
/// compaction once they outnumber the sessions shown.
#[derive(Clone, Default)]
pub struct ClientState {
    slots: Vec<Option<(Key, SessionPlans)>>,
    /// The slot of each session shown, found by the hash of the session's
    /// id and compared with the id in the slot, which the caller reads next
    /// anyway. Four bytes a session, where a map that held each id in its
    /// bucket took 48: with 10 000 sessions that index left the cache and
    /// most lines waited on memory to find their session (four bytes
    /// instead of eight took 3% of the cache misses of such a trace off;
    /// bench/README.md).
    by_id: HashTable<u32>,
    hasher: foldhash::fast::RandomState,
}

impl std::fmt::Debug for ClientState {
    /// The sessions shown, in order (not the slots or the index, whose
    /// order and seed differ from one run to the next).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        struct Sessions<'a>(&'a ClientState);
        impl std::fmt::Debug for Sessions<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_map().entries(self.0.sessions()).finish()
            }
        }
        f.debug_struct("ClientState")
            .field("sessions", &Sessions(self))
            .finish()
    }
}

impl PartialEq for ClientState {
    /// The same sessions showing the same plans, in the same order; empty
    /// slots are not part of what a client shows.
    fn eq(&self, other: &Self) -> bool {
        self.sessions().eq(other.sessions())
    }
}

impl ClientState {
    /// A state with no session.
    pub fn new() -> Self {
        Self::default()
    }

    /// Start showing a session (idempotent). Returns its index: sessions are
    /// numbered in the order they were opened, from 0, and keep their number
    /// until [`ClientState::compact`] (a forgotten session's number is not
    /// given to another). `None`, and nothing shown, when `u32::MAX` slots
    /// are taken already (the most the index numbers; a validator's
    /// `max_sessions` stops far below).
    pub(crate) fn open_session(&mut self, session: &str) -> Option<usize> {
        let Self {
            slots,
            by_id,
            hasher,
            ..
        } = self;
        // One hash and one probe, whether the session is shown or not.
        let entry = by_id.entry(
            hasher.hash_one(session),
            |&index| slot_is(slots, index, session),
            |&index| slot_hash(hasher, slots, index),
        );
        match entry {
            hashbrown::hash_table::Entry::Occupied(shown) => Some(widen(*shown.get())),
            hashbrown::hash_table::Entry::Vacant(place) => {
                let index = u32::try_from(slots.len()).ok()?;
                slots.push(Some((Key::new(session), SessionPlans::default())));
                place.insert(index);
                Some(widen(index))
            }
        }
    }

    /// Stop showing a session. Returns the index it had, if it was shown;
    /// no other session's index changes (see [`ClientState::compact`]).
    pub(crate) fn forget_session(&mut self, session: &str) -> Option<usize> {
        let hash = self.hasher.hash_one(session);
        let slots = &self.slots;
        let found = self
            .by_id
            .find_entry(hash, |&index| slot_is(slots, index, session));
        let (index, _) = found.ok()?.remove();
        let index = widen(index);
        if let Some(slot) = self.slots.get_mut(index) {
            *slot = None;
        }
        Some(index)
    }

    /// Whether forgotten sessions' empty slots are worth dropping: more of
    /// them than sessions shown (so each [`ClientState::compact`] is paid
    /// for by as many forgets as it moves sessions).
    pub(crate) fn is_sparse(&self) -> bool {
        let empty = self.slots.len() - self.by_id.len();
        empty > 64 && empty > self.by_id.len()
    }

    /// Drop the empty slots: every session moves down by the number of
    /// empty slots before it, keeping its order. A caller that keeps
    /// something of its own by index drops the same slots (those where
    /// [`ClientState::session_at`] was `None` before the call).
    pub(crate) fn compact(&mut self) {
        self.slots.retain(Option::is_some);
        let Self {
            slots,
            by_id,
            hasher,
            ..
        } = self;
        by_id.clear();
        for (index, slot) in slots.iter().enumerate() {
            // Fewer slots than before, all numbered then.
            if let (Some((id, _)), Ok(index)) = (slot, u32::try_from(index)) {
                by_id.insert_unique(hasher.hash_one(&**id), index, |&index| {
                    slot_hash(hasher, slots, index)
                });
            }
        }
    }

    /// What session `session` shows, if it is open.
    pub fn session(&self, session: &str) -> Option<&SessionPlans> {
        self.session_at(self.session_index(session)?)
    }

    /// The index of a session shown (see [`ClientState::open_session`]): a
    /// caller that keeps something of its own per session keeps it by index
    /// and looks the session up once per message.
    pub(crate) fn session_index(&self, session: &str) -> Option<usize> {
        let slots = &self.slots;
        self.by_id
            .find(self.hasher.hash_one(session), |&index| {
                slot_is(slots, index, session)
            })
            .map(|&index| widen(index))
    }

    /// The session at `index` (see [`ClientState::session_index`]); `None`
    /// for a forgotten session's empty slot.
    pub(crate) fn session_at(&self, index: usize) -> Option<&SessionPlans> {
        self.slots.get(index)?.as_ref().map(|(_, plans)| plans)
    }

    /// The sessions shown, in the order they were opened.
    pub fn sessions(&self) -> impl Iterator<Item = (&str, &SessionPlans)> {
        self.slots
            .iter()
            .flatten()
            .map(|(id, plans)| (&**id, plans))
    }

    /// The number of sessions shown.
    pub fn session_count(&self) -> usize {
        self.by_id.len()
    }

    /// Apply a plan message to a session that is open. Returns false (and
    /// changes nothing) for a session that is not.
    #[cfg(test)]
    pub(crate) fn apply(&mut self, session: &str, message: &PlanMessage) -> bool {
        if self.session_index(session).is_none() {
            return false;
        }
        self.apply_owned(session, message.clone())
    }

    /// [`ClientState::apply`], keeping the message's entries and id
    /// instead of copies of them (the validator's way: it reads each
    /// message for the state alone).
    #[cfg(test)]
    pub(crate) fn apply_owned(&mut self, session: &str, message: PlanMessage) -> bool {
        match self.session_index(session) {
            Some(index) => self.apply_at(index, message),
            None => false,
        }
    }

    /// [`ClientState::apply_owned`] to the session at `index`.
    pub(crate) fn apply_at(&mut self, index: usize, message: PlanMessage) -> bool {
        let Some(Some((_, plans))) = self.slots.get_mut(index) else {
            return false;
        };
        match message {
            PlanMessage::Legacy(legacy) => plans.legacy = Some(shown_entries(legacy.entries)),
            PlanMessage::Update(update) => match plans.plans.get_mut(update.plan.id.as_str()) {
                Some(existing) => existing.content = shown_content(update.plan.content),
                None => {
                    let view = PlanView {
                        content: shown_content(update.plan.content),
                    };
                    plans.plans.insert(Key::new(&update.plan.id), view);
                }
            },
            PlanMessage::Removed(removed) => {
                plans.plans.shift_remove(removed.plan_id.as_str());
            }
        }
        true
    }

    /// The state as JSON, the form test vectors use:
    /// `{"sessions": {ID: {"legacy": [entries] | null, "plans": {ID: {"type", ...}}}}}`.
    pub fn to_json(&self) -> Value {
        let sessions: Map<String, Value> = self
            .sessions()
            .map(|(id, plans)| (id.to_owned(), plans.to_json()))
            .collect();
        json!({ "sessions": sessions })
    }
}

/// A slot's number in the index as an index of the slots.
fn widen(index: u32) -> usize {
    // Infallible where usize has 32 bits or more (no slot is that far).
    usize::try_from(index).unwrap_or(usize::MAX)
}

/// Push `value` onto a short list, one place at a time while it is short:
/// a session shows one or two plans, and `Vec`'s first growth reserves four.
/// With 10 000 sessions the plans' lists and their validator records held
/// some 2.5 MB of unused places in a state of 24 MB, all of it memory the
/// kernel zeroed for nothing (bench/README.md). Past [`EXACT_GROWTH_UP_TO`]
/// places a list grows as usual.
pub(crate) fn push_growing_exactly<T>(list: &mut Vec<T>, value: T) {
    if list.len() == list.capacity() && list.len() < EXACT_GROWTH_UP_TO {
        list.reserve_exact(1);
    }
    list.push(value);
}

/// Places a short list grows by one at a time (see [`push_growing_exactly`]).
const EXACT_GROWTH_UP_TO: usize = 4;

/// Whether the slot at `index` shows `session`.
fn slot_is(slots: &[Option<(Key, SessionPlans)>], index: u32, session: &str) -> bool {
    matches!(slots.get(widen(index)), Some(Some((id, _))) if &**id == session)
}

/// The hash of the id in the slot at `index` (every slot the index holds
/// shows a session).
fn slot_hash(
    hasher: &foldhash::fast::RandomState,
    slots: &[Option<(Key, SessionPlans)>],
    index: u32,
) -> u64 {
    match slots.get(widen(index)) {
        Some(Some((id, _))) => hasher.hash_one(&**id),
        _ => 0,
    }
}

/// Content as a client shows it (see [`shown_entries`]).
fn shown_content(content: PlanContent) -> PlanContent {
    match content {
        PlanContent::Items { entries } => PlanContent::Items {
            entries: shown_entries(entries),
        },
        // A text the caller built may have room to spare.
        PlanContent::File { mut uri } => {
            uri.shrink_to_fit();
            PlanContent::File { uri }
        }
        PlanContent::Markdown { mut content, path } => {
            content.shrink_to_fit();
            PlanContent::Markdown { content, path }
        }
        other => other,
    }
}

/// Entries as a client shows them: `_meta` is not shown, so the state does
/// not keep it (a hostile `_meta` would otherwise live as long as its plan).
fn shown_entries(mut entries: Vec<PlanEntry>) -> Vec<PlanEntry> {
    for entry in &mut entries {
        entry.meta = None;
        // A text the caller built may have room to spare.
        entry.content.shrink_to_fit();
    }
    // Held as long as the plan is shown: no spare capacity.
    entries.shrink_to_fit();
    entries
}

impl SessionPlans {
    /// The session's plans as JSON (the `--show-state` document).
    pub fn to_json(&self) -> Value {
        let legacy = match &self.legacy {
            Some(entries) => entries_json(entries),
            None => Value::Null,
        };
        let plans: Map<String, Value> = self
            .plans
            .iter()
            .map(|(id, view)| (id.to_string(), view.to_json()))
            .collect();
        json!({ "legacy": legacy, "plans": plans })
    }
}

impl PlanView {
    /// `{"type": ..., <content members>}`; `_meta` is not shown.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("type".into(), Value::from(self.content.type_name()));
        match &self.content {
            PlanContent::Items { entries } => {
                object.insert("entries".into(), entries_json(entries));
            }
            PlanContent::File { uri } => {
                object.insert("uri".into(), Value::from(uri.as_str()));
            }
            PlanContent::Markdown { content, path } => {
                object.insert("content".into(), Value::from(content.as_str()));
                if let Some(path) = path {
                    object.insert("path".into(), Value::from(path.as_str()));
                }
            }
            PlanContent::Custom { fields, .. } => {
                // Built only to be shown.
                for (k, v) in fields {
                    object.insert(k.clone(), v.to_value());
                }
            }
        }
        Value::Object(object)
    }
}

/// Entries as shown: content, priority and status (`_meta` is not shown).
fn entries_json(entries: &[PlanEntry]) -> Value {
    Value::Array(
        entries
            .iter()
            .map(|e| json!({"content": e.content, "priority": e.priority.as_str(), "status": e.status.as_str()}))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::messages::*;

    /// A `plan_update` of plan `id` to `content`.
    fn update(id: &str, content: PlanContent) -> PlanMessage {
        PlanMessage::Update(PlanUpdate {
            plan: Plan {
                id: id.into(),
                content,
                meta: None,
            },
            meta: None,
        })
    }

    fn markdown(id: &str, text: &str) -> PlanMessage {
        update(
            id,
            PlanContent::Markdown {
                content: text.into(),
                path: None,
            },
        )
    }

    /// Sessions are numbered in the order opened; forgetting one leaves its
    /// number empty, and compacting moves the later ones down, as a
    /// caller's own per-session list must.
    #[test]
    fn sessions_by_index() {
        let mut state = ClientState::new();
        assert_eq!(state.open_session("a"), Some(0));
        assert_eq!(state.open_session("b"), Some(1));
        assert_eq!(state.open_session("c"), Some(2));
        assert_eq!(state.open_session("b"), Some(1));
        assert!(state.apply_at(2, markdown("p", "in c")));
        assert!(!state.apply_at(3, markdown("p", "nowhere")));
        assert_eq!(state.forget_session("b"), Some(1));
        assert_eq!(state.forget_session("b"), None);
        assert_eq!(state.session_index("c"), Some(2));
        assert_eq!(state.session_at(1), None);
        assert!(!state.apply_at(1, markdown("p", "forgotten")));
        assert_eq!(state.session_count(), 2);
        // Opened again, it comes last, under a new number.
        assert_eq!(state.open_session("b"), Some(3));
        assert_eq!(state.forget_session("b"), Some(3));
        let order: Vec<&str> = state.sessions().map(|(id, _)| id).collect();
        assert_eq!(order, ["a", "c"]);
        // Empty slots are dropped only when they outnumber the sessions.
        assert!(!state.is_sparse());
        let before = state.clone();
        state.compact();
        assert_eq!(state, before, "compacting changes nothing a client shows");
        assert_eq!(state.session_index("c"), Some(1));
        assert_eq!(state.session_at(1), state.session("c"));
        assert_eq!(state.session_at(1).unwrap().plans.len(), 1);
        assert_eq!(state.session_at(2), None);
        assert!(state.apply_owned("a", markdown("p", "in a")));
        assert!(!state.apply_owned("b", markdown("p", "gone")));
        assert_eq!(state.session_index("a"), Some(0));
        for n in 0..100 {
            state.open_session(&format!("x{n}"));
        }
        for n in 0..66 {
            state.forget_session(&format!("x{n}"));
        }
        // 66 empty slots against 36 sessions.
        assert!(state.is_sparse());
    }

    /// A short list takes only the places it fills; a long one grows as
    /// `Vec` does, not one place per push.
    #[test]
    fn short_lists_grow_one_place_at_a_time() {
        let mut list = Vec::new();
        for n in 1..=EXACT_GROWTH_UP_TO {
            push_growing_exactly(&mut list, n);
            assert_eq!(list.capacity(), n, "after {n} pushes");
        }
        let mut reallocations = 0;
        for n in EXACT_GROWTH_UP_TO + 1..=1000 {
            let capacity = list.capacity();
            push_growing_exactly(&mut list, n);
            reallocations += usize::from(list.capacity() != capacity);
        }
        assert!(reallocations <= 10, "{reallocations} reallocations");
        assert_eq!(list, (1..=1000).collect::<Vec<_>>());
    }

    fn items(id: &str, entries: &[(&str, Status)]) -> PlanMessage {
        let entries = entries
            .iter()
            .map(|(content, status)| PlanEntry {
                content: (*content).into(),
                priority: Priority::High,
                status: status.clone(),
                meta: Some(RawJson::new("{}")),
            })
            .collect();
        update(id, PlanContent::Items { entries })
    }

    /// Entries replaced in place (text as long as before), by new ones
    /// (longer text, another count) or by another type show what was sent
    /// last, without `_meta`.
    #[test]
    fn updates_replace_entries_in_place_or_not() {
        let mut state = ClientState::new();
        state.open_session("s");
        let shown =
            |state: &ClientState| state.session("s").unwrap().plans.get("p").unwrap().clone();
        // What was sent, with each entry's `_meta` taken out by hand.
        let expect = |message: &PlanMessage| {
            let PlanMessage::Update(update) = message else {
                unreachable!()
            };
            let mut content = update.plan.content.clone();
            if let PlanContent::Items { entries } = &mut content {
                for entry in entries {
                    entry.meta = None;
                }
            }
            PlanView { content }
        };
        let steps = [
            items("p", &[("abc", Status::Pending), ("de", Status::Pending)]),
            items(
                "p",
                &[("xyz", Status::Completed), ("de", Status::InProgress)],
            ),
            items(
                "p",
                &[("longer", Status::Completed), ("d", Status::Pending)],
            ),
            items("p", &[("one", Status::Cancelled)]),
            markdown("p", "text"),
            items("p", &[("two", Status::Pending), ("and", Status::Pending)]),
        ];
        for step in &steps {
            assert!(state.apply("s", step));
            let view = shown(&state);
            assert_eq!(view, expect(step));
            if let PlanContent::Items { entries } = &view.content {
                assert!(entries.iter().all(|e| e.meta.is_none()));
            }
        }
        let PlanContent::Items { entries } = &shown(&state).content else {
            unreachable!()
        };
        assert_eq!(entries[1].content, "and");
    }

    #[test]
    fn updates_replace_and_removals_drop_per_session() {
        let mut state = ClientState::new();
        assert!(!state.apply("s1", &markdown("p", "x")));
        state.open_session("s1");
        state.open_session("s2");
        assert!(state.apply("s1", &markdown("p", "one")));
        assert!(state.apply("s2", &markdown("p", "other")));
        assert!(state.apply("s1", &markdown("p", "two")));
        assert_eq!(
            state
                .session("s1")
                .unwrap()
                .plans
                .get("p")
                .unwrap()
                .to_json(),
            json!({"type": "markdown", "content": "two"})
        );
        state.apply(
            "s1",
            &PlanMessage::Removed(PlanRemoved {
                plan_id: "p".into(),
                meta: None,
            }),
        );
        assert!(state.session("s1").unwrap().plans.is_empty());
        assert_eq!(state.session("s2").unwrap().plans.len(), 1);
        assert_eq!(
            state.to_json(),
            json!({"sessions": {
                "s1": {"legacy": null, "plans": {}},
                "s2": {"legacy": null, "plans": {"p": {"type": "markdown", "content": "other"}}}
            }})
        );
    }
}
