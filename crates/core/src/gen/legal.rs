//! Rewriting any op sequence into one that is legal in context.
//!
//! The legalizer follows what a conformant client would show (per session:
//! the legacy plan, the live keyed plans with their items), so each op can
//! be adapted to the state it meets. It works one op at a time, so
//! [`super::synthetic`] can stream traces of any length through it.

use super::{
    AgentRequestKind, Capability, Connection, Content, Entry, FileUri, Framing, Op, PlanOp,
    PlanRef, Priority, SessionRef, SessionUpdate, Status,
};
use crate::spec::Revision;

/// What the legalizer remembers of one session.
#[derive(Clone, Debug, Default)]
struct SessionModel {
    legacy: Option<Vec<Entry>>,
    /// Live keyed plans in the order shown; the entries of `items` plans.
    plans: Vec<(PlanRef, Option<Vec<Entry>>)>,
    prompt_open: bool,
    agent_requests: usize,
}

impl SessionModel {
    fn live(&self, plan: PlanRef) -> Option<usize> {
        self.plans.iter().position(|(id, _)| *id == plan)
    }
}

#[derive(Clone, Debug)]
pub(super) struct Legalizer {
    revision: Revision,
    framing: Framing,
    /// Whether `plan_update` / `plan_removed` may be sent.
    keyed_allowed: bool,
    /// Whether the legacy `plan` may be sent.
    legacy_allowed: bool,
    /// Whether the revision gates keyed plans behind a capability (and the
    /// client did not advertise it): the setting for `CAP-PLAN-OPS`.
    capability_missing: bool,
    sessions: Vec<SessionModel>,
}

impl Legalizer {
    pub(super) fn new(scenario: &Connection) -> Legalizer {
        Legalizer::for_connection(scenario.revision, scenario.capability, scenario.framing)
    }

    pub(super) fn for_connection(
        revision: Revision,
        capability: Capability,
        framing: Framing,
    ) -> Legalizer {
        let spelling = revision.spelling();
        let gated = spelling.capability_key.is_some();
        Legalizer {
            revision,
            framing,
            keyed_allowed: !gated || capability.advertises(),
            legacy_allowed: spelling.legacy_plan,
            capability_missing: gated && !capability.advertises(),
            sessions: Vec::new(),
        }
    }

    pub(super) fn session_count(&self) -> usize {
        self.sessions.len()
    }

    /// Live keyed plans of a session (for the synthetic generator).
    pub(super) fn live_plans(&self, session: SessionRef) -> usize {
        self.sessions
            .get(usize::from(session))
            .map_or(0, |s| s.plans.len())
    }

    /// Whether `plan_update` / `plan_removed` may be sent.
    pub(super) fn keyed_allowed(&self) -> bool {
        self.keyed_allowed
    }

    /// Whether the legacy `plan` may be sent.
    pub(super) fn legacy_allowed(&self) -> bool {
        self.legacy_allowed
    }

    /// Whether a keyed plan message breaks `CAP-PLAN-OPS` here.
    pub(super) fn capability_missing(&self) -> bool {
        self.capability_missing
    }

    pub(super) fn revision(&self) -> Revision {
        self.revision
    }

    /// Whether `plan` is live in `session` (`None`: no such session).
    pub(super) fn is_live(&self, session: SessionRef, plan: PlanRef) -> Option<bool> {
        let model = self.sessions.get(usize::from(session))?;
        Some(model.live(plan).is_some())
    }

    /// The established session `selector` stands for, if there is one.
    pub(super) fn resolve(&self, selector: SessionRef) -> Option<SessionRef> {
        let count = self.sessions.len();
        if count == 0 {
            return None;
        }
        let index = usize::from(selector);
        let index = if index < count { index } else { index % count };
        SessionRef::try_from(index).ok()
    }

    fn session_mut(&mut self, session: SessionRef) -> Option<&mut SessionModel> {
        self.sessions.get_mut(usize::from(session))
    }

    /// A new session's number, or `None` when numbers ran out.
    fn open_session(&mut self) -> Option<SessionRef> {
        let session = SessionRef::try_from(self.sessions.len()).ok()?;
        self.sessions.push(SessionModel::default());
        Some(session)
    }

    /// The op, legal here, or `None` when it has no legal form here.
    pub(super) fn legalize(&mut self, op: Op) -> Option<Op> {
        match op {
            Op::NewSession { .. } => Some(Op::NewSession {
                session: self.open_session()?,
            }),
            Op::LoadSession { replay, .. } => {
                let session = self.open_session()?;
                let replay = replay
                    .into_iter()
                    .filter_map(|u| self.update(session, u))
                    .collect();
                Some(Op::LoadSession { session, replay })
            }
            Op::Update { session, update } => {
                let session = self.resolve(session)?;
                let update = self.update(session, update)?;
                Some(Op::Update { session, update })
            }
            Op::Prompt { session } => {
                let session = self.resolve(session)?;
                let model = self.session_mut(session)?;
                if model.prompt_open {
                    return None;
                }
                model.prompt_open = true;
                Some(Op::Prompt { session })
            }
            Op::EndTurn { session, stop } => {
                let session = self.resolve(session)?;
                let model = self.session_mut(session)?;
                if !model.prompt_open {
                    return None;
                }
                model.prompt_open = false;
                Some(Op::EndTurn { session, stop })
            }
            Op::Cancel { session } => Some(Op::Cancel {
                session: self.resolve(session)?,
            }),
            Op::AgentRequest { session, kind } => {
                let session = self.resolve(session)?;
                let kind = match (kind, self.framing) {
                    // A bare `_` request cannot be placed (TRACE-DIRECTION).
                    (AgentRequestKind::Extension, Framing::Bare) => AgentRequestKind::ReadTextFile,
                    (kind, _) => kind,
                };
                self.session_mut(session)?.agent_requests += 1;
                Some(Op::AgentRequest { session, kind })
            }
            Op::ClientResponse {
                session,
                pick,
                error,
            } => {
                let session = self.resolve(session)?;
                let model = self.session_mut(session)?;
                let open = model.agent_requests;
                if open == 0 {
                    return None;
                }
                model.agent_requests -= 1;
                let pick = u8::try_from(usize::from(pick) % open).unwrap_or(0);
                Some(Op::ClientResponse {
                    session,
                    pick,
                    error,
                })
            }
            Op::ExtNotification { from_agent } => Some(Op::ExtNotification { from_agent }),
            Op::Violation(v) => v.legalize(self).map(Op::Violation),
        }
    }

    fn update(&mut self, session: SessionRef, update: SessionUpdate) -> Option<SessionUpdate> {
        match update {
            SessionUpdate::Other(other) => Some(SessionUpdate::Other(other)),
            SessionUpdate::Plan(op) => self.plan_op(session, op).map(SessionUpdate::Plan),
        }
    }

    /// A legal plan op for `session`, applied to the model.
    pub(super) fn plan_op(&mut self, session: SessionRef, op: PlanOp) -> Option<PlanOp> {
        let op = self.plan_op_form(op)?;
        let model = self.session_mut(session)?;
        Some(match op {
            PlanOp::Legacy { entries, meta } => {
                let entries = full_list(model.legacy.as_deref(), entries);
                model.legacy = Some(entries.clone());
                PlanOp::Legacy { entries, meta }
            }
            PlanOp::Update {
                plan,
                content,
                plan_meta,
                meta,
            } => {
                let slot = model.live(plan);
                let content = match content {
                    Content::Items { entries } => {
                        let previous = slot
                            .and_then(|i| model.plans.get(i))
                            .and_then(|(_, items)| items.as_deref());
                        Content::Items {
                            entries: full_list(previous, entries),
                        }
                    }
                    other => other,
                };
                let items = match &content {
                    Content::Items { entries } => Some(entries.clone()),
                    _ => None,
                };
                match slot.and_then(|i| model.plans.get_mut(i)) {
                    Some(existing) => existing.1 = items,
                    None => model.plans.push((plan, items)),
                }
                PlanOp::Update {
                    plan,
                    content,
                    plan_meta,
                    meta,
                }
            }
            PlanOp::Remove { plan, meta } => {
                let live = model.plans.len();
                if live == 0 {
                    return None;
                }
                let index = model.live(plan).unwrap_or(usize::from(plan) % live);
                let (plan, _) = model.plans.remove(index);
                PlanOp::Remove { plan, meta }
            }
        })
    }

    /// The form a plan op takes in this connection, regardless of session
    /// state: the legacy `plan` becomes an `items` plan in v2, keyed plans
    /// fall back to the legacy `plan` without the capability (as the spec
    /// requires), and content and entries use the revision's vocabulary.
    pub(super) fn plan_op_form(&self, op: PlanOp) -> Option<PlanOp> {
        let op = match op {
            PlanOp::Legacy { entries, meta } if !self.legacy_allowed => PlanOp::Update {
                plan: 0,
                content: Content::Items { entries },
                plan_meta: super::Meta::Absent,
                meta,
            },
            PlanOp::Update { content, meta, .. } if !self.keyed_allowed => match content {
                Content::Items { entries } => PlanOp::Legacy { entries, meta },
                _ => return None,
            },
            PlanOp::Remove { .. } if !self.keyed_allowed => return None,
            op => op,
        };
        Some(match op {
            PlanOp::Legacy { entries, meta } => PlanOp::Legacy {
                entries: self.entries(entries),
                meta,
            },
            PlanOp::Update {
                plan,
                content,
                plan_meta,
                meta,
            } => PlanOp::Update {
                plan,
                content: self.content(content),
                plan_meta,
                meta,
            },
            remove => remove,
        })
    }

    pub(super) fn content(&self, content: Content) -> Content {
        let spelling = self.revision.spelling();
        match content {
            Content::Items { entries } => Content::Items {
                entries: self.entries(entries),
            },
            Content::Custom { name, .. } if !spelling.open_enums => Content::Markdown {
                text: format!("custom plan {name}"),
            },
            // Schema 1.20.0 dropped `file` plans: the plan's text instead.
            Content::File { uri } if !spelling.plan_types.contains(&"file") => Content::Markdown {
                text: format!("plan file {}", uri.render()),
            },
            Content::File {
                uri: FileUri::Relative(n),
            } if spelling.absolute_file_uri => Content::File {
                uri: FileUri::Absolute(n),
            },
            other => other,
        }
    }

    pub(super) fn entries(&self, entries: Vec<Entry>) -> Vec<Entry> {
        entries.into_iter().map(|e| self.entry(e)).collect()
    }

    fn entry(&self, entry: Entry) -> Entry {
        let open = self.revision.spelling().open_enums;
        let priority = match entry.priority {
            Priority::Custom(_) if !open => Priority::Medium,
            p => p,
        };
        let status = match entry.status {
            Status::Cancelled | Status::Custom(_) if !open => Status::Completed,
            s => s,
        };
        Entry {
            priority,
            status,
            ..entry
        }
    }
}

/// `next` as an update that cannot look like a delta of `previous`: an
/// update that is shorter than the previous list, non-empty, and made only
/// of entries the previous list had is padded with the previous list's
/// remaining entries. (A sufficient condition, independent of how the
/// `FULL-DELTA` heuristic matches entries.)
pub(super) fn full_list(previous: Option<&[Entry]>, mut next: Vec<Entry>) -> Vec<Entry> {
    let Some(previous) = previous else {
        return next;
    };
    let shrinks = !next.is_empty() && next.len() < previous.len();
    let only_known = next
        .iter()
        .all(|e| previous.iter().any(|p| p.content == e.content));
    if shrinks && only_known {
        next.extend(previous.iter().skip(next.len()).cloned());
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::Meta;

    fn entry(content: &str, status: Status) -> Entry {
        Entry {
            content: content.into(),
            priority: Priority::High,
            status,
            meta: Meta::Absent,
        }
    }

    #[test]
    fn shrinking_updates_of_known_entries_are_padded() {
        let previous = vec![entry("a", Status::Pending), entry("b", Status::Pending)];
        let next = full_list(Some(&previous), vec![entry("a", Status::InProgress)]);
        assert_eq!(next.len(), 2);
        // New content, or an emptied list, is a full list as it stands.
        assert_eq!(
            full_list(Some(&previous), vec![entry("z", Status::Pending)]).len(),
            1
        );
        assert!(full_list(Some(&previous), Vec::new()).is_empty());
    }

    #[test]
    fn removals_only_of_live_plans_and_sessions_resolve() {
        let mut scenario = Connection::new(Revision::V1);
        scenario.ops = vec![
            Op::Update {
                session: 0,
                update: SessionUpdate::Other(super::super::OtherUpdate::ToolCall { call: 1 }),
            },
            Op::NewSession { session: 9 },
            Op::Update {
                session: 7,
                update: SessionUpdate::Plan(PlanOp::Remove {
                    plan: 1,
                    meta: Meta::Absent,
                }),
            },
            Op::Update {
                session: 7,
                update: SessionUpdate::Plan(PlanOp::Update {
                    plan: 4,
                    content: Content::Markdown { text: "x".into() },
                    plan_meta: Meta::Absent,
                    meta: Meta::Absent,
                }),
            },
            Op::Update {
                session: 3,
                update: SessionUpdate::Plan(PlanOp::Remove {
                    plan: 1,
                    meta: Meta::Absent,
                }),
            },
        ];
        scenario.legalize();
        let remove_4 = Op::Update {
            session: 1,
            update: SessionUpdate::Plan(PlanOp::Remove {
                plan: 4,
                meta: Meta::Absent,
            }),
        };
        // A session opens for the update that came before any; the removal
        // with nothing live goes; the last removal takes the live plan-4.
        assert_eq!(scenario.ops.len(), 5, "{:?}", scenario.ops);
        assert_eq!(scenario.ops[0], Op::NewSession { session: 0 });
        assert_eq!(scenario.ops[2], Op::NewSession { session: 1 });
        assert_eq!(scenario.ops[4], remove_4);
        let again = scenario.clone().legalized();
        assert_eq!(again, scenario, "legalizing is idempotent");
    }

    #[test]
    fn plan_ops_take_the_form_of_the_context() {
        let update = |content| {
            SessionUpdate::Plan(PlanOp::Update {
                plan: 0,
                content,
                plan_meta: Meta::Absent,
                meta: Meta::Absent,
            })
        };
        let legacy = SessionUpdate::Plan(PlanOp::Legacy {
            entries: vec![entry("a", Status::Cancelled)],
            meta: Meta::Absent,
        });
        let ops = vec![
            Op::NewSession { session: 0 },
            Op::Update {
                session: 0,
                update: legacy.clone(),
            },
            Op::Update {
                session: 0,
                update: update(Content::Items {
                    entries: vec![entry("b", Status::Custom(1))],
                }),
            },
            Op::Update {
                session: 0,
                update: update(Content::Markdown { text: "m".into() }),
            },
        ];
        // v1 without the capability: keyed items fall back to the legacy plan.
        let mut v1 = Connection::new(Revision::V1);
        v1.capability = Capability::Omitted;
        v1.ops = ops.clone();
        v1.legalize();
        let kinds: Vec<_> = v1.ops.iter().map(kind).collect();
        assert_eq!(kinds, ["new", "legacy", "legacy"]);
        // v2: the legacy plan becomes an items plan; cancelled stays.
        let mut v2 = Connection::new(Revision::V2);
        v2.ops = ops;
        v2.legalize();
        let kinds: Vec<_> = v2.ops.iter().map(kind).collect();
        assert_eq!(kinds, ["new", "keyed", "keyed", "keyed"]);
        // Draft without the capability cannot be detected: pinned.
        let mut draft = Connection::new(Revision::Draft202605);
        draft.capability = Capability::Null;
        draft.legalize();
        assert!(draft.pin_spec);
    }

    fn kind(op: &Op) -> &'static str {
        match op {
            Op::NewSession { .. } => "new",
            Op::Update {
                update: SessionUpdate::Plan(PlanOp::Legacy { .. }),
                ..
            } => "legacy",
            Op::Update {
                update: SessionUpdate::Plan(_),
                ..
            } => "keyed",
            _ => "other",
        }
    }
}
