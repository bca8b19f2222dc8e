//! What the validator remembers per session beyond the client state.

use crate::rules::full::Suspicion;
use std::collections::VecDeque;

/// Removed plan ids remembered per session, to tell "already removed" from
/// "never created" and to note re-creation.
const REMOVED_MEMORY: usize = 1024;

#[derive(Debug, Default)]
pub struct SessionTrack {
    /// Boxed, and only once a plan is removed: most sessions never remove
    /// one, and every plan update reads this track, so it is kept to the
    /// few bytes each update needs (with thousands of sessions, each line
    /// of it is a wait on memory).
    removals: Option<Box<Removals>>,
    /// The legacy plan's bytes and FULL-DELTA memory.
    legacy: PlanTrack,
    /// Each keyed plan's, by the plan's index among those the session
    /// shows (in the client state's order: added and removed with it).
    plans: Vec<PlanTrack>,
    /// A plan update of this session was checked but not applied, at one of
    /// the checker's limits: a plan the session does not show may be the one
    /// that update named.
    plans_untracked: bool,
    /// Such an update whose plan is not known (unreadable, or over the
    /// entries limit): no plan's history can be trusted to compare with.
    history_unknown: bool,
}

/// Plan ids a session removed, and the lines they were removed on.
#[derive(Debug, Default)]
struct Removals {
    removed: foldhash::HashMap<String, u64>,
    order: VecDeque<String>,
}

/// One plan of a session: the legacy plan, or a keyed plan by its index
/// among the plans the client state shows (`None`: not shown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanSlot {
    Legacy,
    Keyed(Option<usize>),
}

/// What the validator keeps about one plan the client state shows.
#[derive(Debug, Default)]
struct PlanTrack {
    /// Bytes the client state holds for it (see `Validator::apply`),
    /// FULL-DELTA's memory included.
    bytes: usize,
    /// What FULL-DELTA remembers between its updates.
    suspicion: Suspicion,
    /// An update of this plan was not applied at a limit: what the client
    /// state shows is older than what the agent last sent.
    stale: bool,
}

impl SessionTrack {
    /// The line a plan id was removed on, if it is remembered as removed.
    pub fn removed_on(&self, id: &str) -> Option<u64> {
        self.removals.as_ref()?.removed.get(id).copied()
    }

    pub fn record_removal(&mut self, id: &str, line: u64) {
        let removals = self.removals.get_or_insert_with(Box::default);
        if removals.removed.insert(id.to_owned(), line).is_none() {
            removals.order.push_back(id.to_owned());
        }
        while removals.order.len() > REMOVED_MEMORY {
            if let Some(oldest) = removals.order.pop_front() {
                removals.removed.remove(&oldest);
            }
        }
    }

    /// Removed ids remembered (at most `REMOVED_MEMORY`).
    pub fn remembered_removals(&self) -> usize {
        self.removals
            .as_ref()
            .map_or(0, |r| r.removed.len().max(r.order.len()))
    }

    /// Bytes held now for a plan.
    pub fn bytes_of(&self, slot: PlanSlot) -> usize {
        self.plan(slot).map_or(0, |plan| plan.bytes)
    }

    /// What FULL-DELTA remembers about a plan.
    pub fn suspicion(&self, slot: PlanSlot) -> &Suspicion {
        static NONE: Suspicion = Suspicion::EMPTY;
        self.plan(slot).map_or(&NONE, |plan| &plan.suspicion)
    }

    /// Whether a plan update of the session went unapplied at a limit (so
    /// a plan not shown may still be live for the agent).
    pub fn plans_untracked(&self) -> bool {
        self.plans_untracked
    }

    /// Whether what the client state shows of a plan may be older than
    /// what the agent last sent for it (an update went unapplied at a
    /// limit), so that no rule compares an update with it.
    pub fn history_unknown(&self, slot: PlanSlot) -> bool {
        self.history_unknown || self.plan(slot).is_some_and(|plan| plan.stale)
    }

    /// A plan update went unapplied at a limit: the plan at `slot`, or
    /// `None` when the update's plan is not known.
    pub fn dropped_at_limit(&mut self, slot: Option<PlanSlot>) {
        self.plans_untracked = true;
        let plan = match slot {
            None => {
                self.history_unknown = true;
                return;
            }
            Some(PlanSlot::Legacy) => Some(&mut self.legacy),
            Some(PlanSlot::Keyed(index)) => index.and_then(|index| self.plans.get_mut(index)),
        };
        if let Some(plan) = plan {
            plan.stale = true;
        }
    }

    /// Record the bytes held for a plan the client state is about to show
    /// (a keyed plan not shown yet is added last, as the state adds it) and
    /// what FULL-DELTA remembers about it; `removed` drops a keyed plan.
    pub fn set_plan(&mut self, slot: PlanSlot, bytes: usize, suspicion: Suspicion, removed: bool) {
        let plan = PlanTrack {
            bytes,
            suspicion,
            stale: false,
        };
        match slot {
            PlanSlot::Legacy => self.legacy = plan,
            PlanSlot::Keyed(Some(index)) if removed => {
                if index < self.plans.len() {
                    self.plans.remove(index);
                }
            }
            PlanSlot::Keyed(Some(index)) => {
                if let Some(known) = self.plans.get_mut(index) {
                    *known = plan;
                }
            }
            PlanSlot::Keyed(None) if removed => {}
            PlanSlot::Keyed(None) => crate::state::push_growing_exactly(&mut self.plans, plan),
        }
    }

    fn plan(&self, slot: PlanSlot) -> Option<&PlanTrack> {
        match slot {
            PlanSlot::Legacy => Some(&self.legacy),
            PlanSlot::Keyed(index) => self.plans.get(index?),
        }
    }

    /// Bytes held for the whole session.
    pub fn bytes(&self) -> usize {
        self.legacy.bytes + self.plans.iter().map(|plan| plan.bytes).sum::<usize>()
    }

    /// Forget what FULL-DELTA remembers of every plan (a replay restates
    /// the session from its start, so an entry an earlier update left out
    /// may come back in it unchanged): the bytes freed.
    pub fn forget_deltas(&mut self) -> usize {
        let mut freed = 0;
        for plan in std::iter::once(&mut self.legacy).chain(self.plans.iter_mut()) {
            let held = plan.suspicion.bytes();
            if held > 0 || !plan.suspicion.is_empty() {
                plan.bytes -= held.min(plan.bytes);
                freed += held;
                plan.suspicion = Suspicion::default();
            }
        }
        freed
    }

    pub fn forget_removal(&mut self, id: &str) {
        let Some(removals) = &mut self.removals else {
            return;
        };
        if removals.removed.remove(id).is_some() {
            removals.order.retain(|known| known != id);
        }
    }
}
