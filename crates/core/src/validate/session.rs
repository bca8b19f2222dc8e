//! What the validator remembers per session beyond the client state.

use crate::rules::full::Suspicion;
use std::collections::VecDeque;

/// Removed plan ids remembered per session, to tell "already removed" from
/// "never created" and to note re-creation.
const REMOVED_MEMORY: usize = 1024;

#[derive(Debug, Default)]
pub struct SessionTrack {
    removed: foldhash::HashMap<String, u64>,
    removal_order: VecDeque<String>,
    /// The legacy plan's bytes and FULL-DELTA memory.
    legacy: PlanTrack,
    /// Each keyed plan's, by id (one map: an update reads and writes both).
    plans: foldhash::HashMap<String, PlanTrack>,
}

/// What the validator keeps about one plan the client state shows.
#[derive(Debug, Default)]
struct PlanTrack {
    /// Bytes the client state holds for it (see `Validator::apply`),
    /// FULL-DELTA's memory included.
    bytes: usize,
    /// What FULL-DELTA remembers between its updates.
    suspicion: Suspicion,
}

impl SessionTrack {
    /// The line a plan id was removed on, if it is remembered as removed.
    pub fn removed_on(&self, id: &str) -> Option<u64> {
        self.removed.get(id).copied()
    }

    pub fn record_removal(&mut self, id: &str, line: u64) {
        if self.removed.insert(id.to_owned(), line).is_none() {
            self.removal_order.push_back(id.to_owned());
        }
        while self.removal_order.len() > REMOVED_MEMORY {
            if let Some(oldest) = self.removal_order.pop_front() {
                self.removed.remove(&oldest);
            }
        }
    }

    /// Removed ids remembered (at most `REMOVED_MEMORY`).
    pub fn remembered_removals(&self) -> usize {
        self.removed.len().max(self.removal_order.len())
    }

    /// Bytes held now for the plan `id` (`None`: the legacy plan).
    pub fn bytes_of(&self, id: Option<&str>) -> usize {
        self.plan(id).map_or(0, |plan| plan.bytes)
    }

    /// What FULL-DELTA remembers about plan `id` (`None`: the legacy plan).
    pub fn suspicion(&self, id: Option<&str>) -> &Suspicion {
        static NONE: Suspicion = Suspicion::EMPTY;
        self.plan(id).map_or(&NONE, |plan| &plan.suspicion)
    }

    /// Record the bytes held for plan `id` (`None`: legacy) and what
    /// FULL-DELTA remembers about it; nothing held forgets it.
    pub fn set_plan(&mut self, id: Option<&str>, bytes: usize, suspicion: Suspicion) {
        let plan = PlanTrack { bytes, suspicion };
        let Some(id) = id else {
            self.legacy = plan;
            return;
        };
        if bytes == 0 && plan.suspicion.is_empty() {
            self.plans.remove(id);
        } else if let Some(known) = self.plans.get_mut(id) {
            // Most updates replace a plan already shown: no new key.
            *known = plan;
        } else {
            self.plans.insert(id.to_owned(), plan);
        }
    }

    fn plan(&self, id: Option<&str>) -> Option<&PlanTrack> {
        match id {
            None => Some(&self.legacy),
            Some(id) => self.plans.get(id),
        }
    }

    /// Bytes held for the whole session.
    pub fn bytes(&self) -> usize {
        self.legacy.bytes + self.plans.values().map(|plan| plan.bytes).sum::<usize>()
    }

    pub fn forget_removal(&mut self, id: &str) {
        if self.removed.remove(id).is_some() {
            self.removal_order.retain(|known| known != id);
        }
    }
}
