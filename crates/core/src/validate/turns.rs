//! Where sessions stand between requests: what SES-RESUME-REPLAY,
//! SES-REPLAY-AFTER-ANSWER and SES-UPDATE-AFTER-CANCEL compare plan updates
//! with.

use super::{At, FoldMap};
use crate::state::Key;
use std::collections::BTreeSet;

/// The turn and replay boundaries of every session. Every map is bounded
/// by `max_outstanding_requests`.
#[derive(Default)]
pub(super) struct Turns {
    /// Successful session/new or session/fork answers that named no session:
    /// a later update for a session nobody named is taken as theirs.
    pub unnamed_sessions: usize,
    /// session/resume requests that asked for no replay.
    pub quiet_resumes: SessionRequests,
    /// session/load (v2: session/resume with a replay) requests in flight.
    pub replaying: SessionRequests,
    /// v2: replaying requests in flight whose replay_complete came: the
    /// marker's line.
    pub replay_marked: FoldMap<At, u64>,
    /// v2: replaying requests whose `replayFrom` reads both ways (repeated):
    /// a marker is neither owed nor out of place.
    pub replay_optional: FoldMap<At, ()>,
    /// A replaying request went unrecorded (at a limit): a replay_complete
    /// that no known request asked for may be its.
    pub replays_untracked: bool,
    /// Replaying requests in flight whose readings (a repeated
    /// `sessionId`) name different sessions, with the sessions of the
    /// readings before the last: `replaying` keeps the last reading's, so
    /// a replay_complete of one of these may be theirs, and what their
    /// answer owes is not known.
    pub replay_readings_differ: FoldMap<At, Vec<Key>>,
    /// v2: what each session showed at its last replay_complete, the end
    /// of its replay (later updates are live).
    pub replay_ends: FoldMap<Key, crate::state::SessionPlans>,
    /// session/prompt requests in flight.
    pub prompts: SessionRequests,
    /// Sessions whose turn may run with no prompt in flight: v2 sessions
    /// prompted and not reported idle since (a v2 turn runs on after its
    /// prompt is answered), and sessions prompted by a request the suite
    /// did not track (at a limit). The prompt's line.
    pub running: FoldMap<Key, u64>,
    /// Sessions the client cancelled whose turn has not ended yet.
    pub cancelling: FoldMap<Key, u64>,
}

impl Turns {
    /// Insert unless `limit` keys are there already (a key there is replaced).
    pub fn bounded<K: std::hash::Hash + Eq, V>(
        map: &mut FoldMap<K, V>,
        limit: usize,
        key: K,
        value: V,
    ) {
        if map.len() < limit || map.contains_key(&key) {
            map.insert(key, value);
        }
    }
}

/// Requests in flight, each for one session, by where they were read, and
/// the same requests by session. A plan update or a cancel asks whether one
/// is in flight for its session (and which came first): a scan of every
/// request in flight made each such line cost up to `max_outstanding_requests`
/// string compares, ten times the whole check on a trace that left
/// thousands of resumes unanswered.
///
/// The index by session is built by the first question that would scan
/// more than a few requests, and kept from then on until none is in flight:
/// a prompt is remembered and forgotten on every turn, and most traces
/// never ask (v1 asks at a cancel), so keeping it from the start was 1.6%
/// of the instructions of a trace of 10,000 sessions for nothing. It is
/// keyed by the session's hash, not a copy of its id (a second allocation
/// per request cost as much again); two ids of one hash share an entry, so a
/// lookup checks each request's own id.
#[derive(Default)]
pub(super) struct SessionRequests {
    by_request: FoldMap<At, Key>,
    /// Empty and not kept up to date unless `indexed`.
    by_session: FoldMap<u64, Lines>,
    indexed: bool,
    /// Tests: every id has the same hash, so ids share index entries.
    #[cfg(test)]
    colliding: bool,
}

/// Where the requests in flight for one session hash were read. Most
/// sessions have one at a time: it takes no set of its own.
enum Lines {
    One(At),
    Many(BTreeSet<At>),
}

/// Requests a question scans without the index.
const SCANNED: usize = 8;

impl SessionRequests {
    /// Remember the request read at `at` for `session`, unless `limit`
    /// requests are in flight already; another reading of the same request
    /// (same `at`) replaces it. Whether it is remembered.
    pub fn insert(&mut self, limit: usize, at: At, session: &str) -> bool {
        if self.by_request.len() >= limit && !self.by_request.contains_key(&at) {
            return false;
        }
        let previous = self.by_request.insert(at, Key::new(session));
        if self.indexed {
            if let Some(previous) = previous {
                self.unindex(&previous, at);
            }
            self.index(session, at);
        }
        true
    }

    /// The session of the request read at `at`, if it is in flight.
    pub fn session_of(&self, at: &At) -> Option<&Key> {
        self.by_request.get(at)
    }

    /// The request read at `at` is answered: its session, if it was in flight.
    pub fn remove(&mut self, at: &At) -> Option<Key> {
        let session = self.by_request.remove(at)?;
        if self.indexed {
            self.unindex(&session, *at);
            if self.by_request.is_empty() {
                self.indexed = false;
            }
        }
        Some(session)
    }

    /// Where the first request in flight for `session` was read.
    pub fn first_for(&mut self, session: &str) -> Option<At> {
        if self.by_request.is_empty() {
            return None;
        }
        if !self.indexed {
            if self.by_request.len() <= SCANNED {
                return self
                    .by_request
                    .iter()
                    .filter(|(_, known)| known.as_str() == session)
                    .map(|(at, _)| *at)
                    .min();
            }
            self.build_index();
        }
        let is_for = |at: &At| {
            self.by_request
                .get(at)
                .is_some_and(|known| known == session)
        };
        match self.by_session.get(&self.key(session))? {
            Lines::One(at) => Some(*at).filter(is_for),
            Lines::Many(set) => set.iter().copied().find(is_for),
        }
    }

    /// Where every request in flight for `session` was read, in order.
    pub fn all_for(&mut self, session: &str) -> Vec<At> {
        let mut found = Vec::new();
        while let Some(at) = self.first_after(session, found.last().copied()) {
            found.push(at);
        }
        found
    }

    /// The first request in flight for `session` read after `after`.
    fn first_after(&mut self, session: &str, after: Option<At>) -> Option<At> {
        let later = |at: &At| after.is_none_or(|after| *at > after);
        if self.by_request.len() <= SCANNED && !self.indexed {
            return self
                .by_request
                .iter()
                .filter(|(at, known)| known.as_str() == session && later(at))
                .map(|(at, _)| *at)
                .min();
        }
        if !self.indexed {
            self.build_index();
        }
        let is_for = |at: &At| {
            later(at)
                && self
                    .by_request
                    .get(at)
                    .is_some_and(|known| known == session)
        };
        match self.by_session.get(&self.key(session))? {
            Lines::One(at) => Some(*at).filter(is_for),
            Lines::Many(set) => set.iter().copied().find(is_for),
        }
    }

    fn build_index(&mut self) {
        let requests: Vec<(At, u64)> = self
            .by_request
            .iter()
            .map(|(at, session)| (*at, self.key(session)))
            .collect();
        self.by_session.clear();
        for (at, key) in requests {
            self.index_key(key, at);
        }
        self.indexed = true;
    }

    /// The index key of `session`: its hash by the map's own (per-process
    /// seeded) hasher.
    fn key(&self, session: &str) -> u64 {
        use std::hash::BuildHasher;
        #[cfg(test)]
        if self.colliding {
            return 0;
        }
        self.by_request.hasher().hash_one(session)
    }

    fn index(&mut self, session: &str, at: At) {
        let key = self.key(session);
        self.index_key(key, at);
    }

    fn index_key(&mut self, key: u64, at: At) {
        match self.by_session.get_mut(&key) {
            None => {
                self.by_session.insert(key, Lines::One(at));
            }
            Some(lines) => match lines {
                Lines::One(first) => *lines = Lines::Many(BTreeSet::from([*first, at])),
                Lines::Many(set) => {
                    set.insert(at);
                }
            },
        }
    }

    fn unindex(&mut self, session: &str, at: At) {
        let key = self.key(session);
        let Some(lines) = self.by_session.get_mut(&key) else {
            return;
        };
        let now_empty = match lines {
            Lines::One(only) => *only == at,
            Lines::Many(set) => {
                set.remove(&at);
                set.is_empty()
            }
        };
        if now_empty {
            self.by_session.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index by session follows every insert, replacement and removal,
    /// and the limit, as a scan of the requests would see them.
    #[test]
    fn requests_by_session_agree_with_a_scan() {
        for colliding in [false, true] {
            agree_with_a_scan(SessionRequests {
                colliding,
                ..SessionRequests::default()
            });
        }
    }

    fn agree_with_a_scan(mut requests: SessionRequests) {
        let scan = |r: &SessionRequests, session: &str| {
            r.by_request
                .iter()
                .filter(|(_, s)| s.as_str() == session)
                .map(|(at, _)| *at)
                .min()
        };
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let sessions = ["a", "b", "c"];
        for step in 0..5_000 {
            let at = (next(40), next(2) as u32);
            let session = sessions[next(3) as usize];
            if next(3) == 0 {
                let had = requests.by_request.get(&at).cloned();
                assert_eq!(requests.remove(&at), had, "step {step}");
            } else {
                requests.insert(30, at, session);
            }
            assert!(requests.by_request.len() <= 30);
            // Ask only now and then: the index is built by a question and
            // must follow every change after it.
            if next(4) == 0 {
                for s in sessions {
                    let expected = scan(&requests, s);
                    assert_eq!(requests.first_for(s), expected, "step {step} {s}");
                }
            }
            if requests.indexed {
                // Nothing is kept for a session without requests.
                let live: std::collections::HashSet<u64> = requests
                    .by_request
                    .values()
                    .map(|s| requests.key(s))
                    .collect();
                assert!(requests.by_session.keys().all(|k| live.contains(k)));
                let indexed: usize = requests
                    .by_session
                    .values()
                    .map(|lines| match lines {
                        Lines::One(_) => 1,
                        Lines::Many(set) => set.len(),
                    })
                    .sum();
                assert_eq!(indexed, requests.by_request.len(), "step {step}");
            }
        }
    }

    #[test]
    fn a_second_reading_of_a_request_moves_it() {
        let mut requests = SessionRequests::default();
        // Enough requests in flight that the question builds the index.
        for line in 10..11 + SCANNED as u64 {
            requests.insert(100, (line, 0), "other");
        }
        assert_eq!(requests.first_for("other"), Some((10, 0)));
        assert!(requests.indexed);
        requests.insert(100, (3, 0), "a");
        requests.insert(100, (3, 0), "b");
        assert_eq!(requests.first_for("a"), None);
        assert_eq!(requests.first_for("b"), Some((3, 0)));
        assert_eq!(requests.remove(&(3, 0)).as_deref(), Some("b"));
        assert_eq!(requests.first_for("b"), None);
        for line in 10..11 + SCANNED as u64 {
            requests.remove(&(line, 0));
        }
        // None in flight: the index goes, to be built again if asked.
        assert!(!requests.indexed);
        assert!(requests.by_session.is_empty());
    }
}
