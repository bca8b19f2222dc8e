//! What the validator remembers per session beyond the client state.

use std::collections::{HashMap, VecDeque};

/// Removed plan ids remembered per session, to tell "already removed" from
/// "never created" and to note re-creation.
const REMOVED_MEMORY: usize = 1024;

#[derive(Debug, Default)]
pub struct SessionTrack {
    removed: HashMap<String, u64>,
    removal_order: VecDeque<String>,
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

    pub fn forget_removal(&mut self, id: &str) {
        if self.removed.remove(id).is_some() {
            self.removal_order.retain(|known| known != id);
        }
    }
}
