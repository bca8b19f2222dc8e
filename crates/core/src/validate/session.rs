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
    /// Bytes the client state holds for this session: the legacy plan, and
    /// each keyed plan by id (see `Validator::apply`).
    legacy_bytes: usize,
    plan_bytes: foldhash::HashMap<String, usize>,
    /// What FULL-DELTA remembers between updates of the legacy plan and of
    /// each keyed plan (its bytes are counted in `*_bytes`).
    legacy_suspicion: Suspicion,
    plan_suspicions: foldhash::HashMap<String, Suspicion>,
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
        match id {
            None => self.legacy_bytes,
            Some(id) => self.plan_bytes.get(id).copied().unwrap_or(0),
        }
    }

    /// Record the bytes held for plan `id` (`None`: legacy); 0 forgets it.
    pub fn set_bytes(&mut self, id: Option<&str>, bytes: usize) {
        match id {
            None => self.legacy_bytes = bytes,
            Some(id) if bytes == 0 => {
                self.plan_bytes.remove(id);
            }
            Some(id) => {
                self.plan_bytes.insert(id.to_owned(), bytes);
            }
        }
    }

    /// What FULL-DELTA remembers about plan `id` (`None`: the legacy plan).
    pub fn suspicion(&self, id: Option<&str>) -> &Suspicion {
        static NONE: Suspicion = Suspicion::EMPTY;
        match id {
            None => &self.legacy_suspicion,
            Some(id) => self.plan_suspicions.get(id).unwrap_or(&NONE),
        }
    }

    /// Replace what FULL-DELTA remembers about plan `id` (`None`: legacy).
    pub fn set_suspicion(&mut self, id: Option<&str>, suspicion: Suspicion) {
        match id {
            None => self.legacy_suspicion = suspicion,
            Some(id) if suspicion.is_empty() => {
                self.plan_suspicions.remove(id);
            }
            Some(id) => {
                self.plan_suspicions.insert(id.to_owned(), suspicion);
            }
        }
    }

    /// Bytes held for the whole session.
    pub fn bytes(&self) -> usize {
        self.legacy_bytes + self.plan_bytes.values().sum::<usize>()
    }

    pub fn forget_removal(&mut self, id: &str) {
        if self.removed.remove(id).is_some() {
            self.removal_order.retain(|known| known != id);
        }
    }
}
