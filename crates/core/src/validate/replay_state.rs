//! LOAD-REPLAY-STATE within one trace: a session that lived on this
//! connection, replayed on it again (`session/load`; v2 `session/resume`
//! from the start). The client keeps what it showed, so the replay must
//! leave it showing the same plans.

use super::{At, FoldMap, Validator};
use crate::state::{Key, SessionPlans};

/// What a session showed when a replay of it was asked for, and (v2) at
/// its `replay_complete`.
pub(super) struct ReplayCopy {
    session: Key,
    before: SessionPlans,
    at_marker: Option<SessionPlans>,
    bytes: usize,
}

/// The copies of sessions with a replay in flight, bounded by
/// `max_outstanding_requests` and, with the client state, `max_state_bytes`.
#[derive(Default)]
pub(super) struct ReplayCopies {
    /// Sessions opened by a `session/new` answer on this connection and not
    /// replayed since unjudged: the whole conversation is in the trace, so
    /// what the client shows is what the live session ended with.
    pub born_here: FoldMap<Key, ()>,
    by_request: FoldMap<At, ReplayCopy>,
    bytes: usize,
}

impl ReplayCopies {
    fn drop_session(&mut self, session: &str) {
        let bytes = &mut self.bytes;
        self.by_request.retain(|_, copy| {
            let keep = copy.session.as_str() != session;
            if !keep {
                *bytes -= copy.bytes.min(*bytes);
            }
            keep
        });
    }

    fn take(&mut self, request: &At) -> Option<ReplayCopy> {
        let copy = self.by_request.remove(request)?;
        self.bytes -= copy.bytes.min(self.bytes);
        Some(copy)
    }
}

impl Validator {
    /// A successful `session/new` answer named `session` alone, certainly.
    pub(super) fn born_here(&mut self, session: &str) {
        let limit = self.config.limits.max_outstanding_requests;
        let copies = &mut self.turns.replay_copies;
        if copies.born_here.len() < limit {
            copies.born_here.insert(Key::new(session), ());
        }
    }

    /// A replaying request of `session` read at `at` (before it counts as in
    /// flight): keep what the client shows when every reading agrees that
    /// it is what the live session ended with, and that the replay alone
    /// will change it (no unread line so far, no other replay or turn of the
    /// session in flight).
    pub(super) fn remember_before_replay(&mut self, session: &str, at: At, awaits_answer: bool) {
        let copies = &mut self.turns.replay_copies;
        copies.drop_session(session);
        let born_here = copies.born_here.remove(session).is_some();
        let unknown = self.lost_at.max(self.garbled_at) > 0;
        let turns = &mut self.turns;
        if !born_here
            || !awaits_answer
            || unknown
            || turns.replays_untracked
            || turns.replaying.first_for(session).is_some()
            || turns.prompts.first_for(session).is_some()
            || turns.running.contains_key(session)
        {
            return;
        }
        let Some(index) = self.state.session_index(session) else {
            return;
        };
        let Some(before) = self.state.session_at(index) else {
            return;
        };
        let bytes = self.tracks.get(index).map_or(0, |track| track.bytes());
        let limits = &self.config.limits;
        let copies = &self.turns.replay_copies;
        if copies.by_request.len() >= limits.max_outstanding_requests
            || self.state_bytes + copies.bytes + bytes > limits.max_state_bytes
        {
            return;
        }
        let copy = ReplayCopy {
            session: Key::new(session),
            before: before.clone(),
            at_marker: None,
            bytes,
        };
        let copies = &mut self.turns.replay_copies;
        copies.bytes += bytes;
        copies.by_request.insert(at, copy);
    }

    /// A prompt of `session`: a replay of it in flight is not judged (its
    /// updates may be the turn's).
    pub(super) fn replay_interrupted(&mut self, session: &str) {
        let copies = &mut self.turns.replay_copies;
        if !copies.by_request.is_empty() {
            copies.drop_session(session);
        }
    }

    /// A close of `session`, or a replay of it that is not judged (v2: from
    /// a cursor other than the start, or one of several sessions it names):
    /// what the client shows of it is no longer known to be the live
    /// session's.
    pub(super) fn replay_unjudged(&mut self, session: &str) {
        self.replay_interrupted(session);
        let copies = &mut self.turns.replay_copies;
        if !copies.born_here.is_empty() {
            copies.born_here.remove(session);
        }
    }

    /// v2: the `replay_complete` of the replay asked for at `request`: what
    /// the session shows now is what the replay ends with.
    pub(super) fn replay_marked_for_state(&mut self, request: At, index: Option<usize>) {
        if let Some(copy) = self.turns.replay_copies.by_request.get_mut(&request) {
            copy.at_marker = index
                .and_then(|index| self.state.session_at(index))
                .cloned();
        }
    }

    /// The answer to the replaying request read at `request` (`failed`: an
    /// error answer): LOAD-REPLAY-STATE when the replay left the client
    /// showing other plans than before, in every reading (no line since
    /// the request unread or unpaired, no other replay of the session in
    /// flight).
    pub(super) fn replay_answered(&mut self, request: At, failed: bool) {
        let Some(copy) = self.turns.replay_copies.take(&request) else {
            return;
        };
        let session = copy.session.as_str();
        if failed
            || self.lost_at.max(self.garbled_at) > 0
            || self.turns.replays_untracked
            || self.turns.replaying.first_for(session).is_some()
        {
            return;
        }
        let Some(after) = copy
            .at_marker
            .as_ref()
            .or_else(|| self.state.session(session))
        else {
            return;
        };
        let found =
            crate::rules::load::compare_replay_on_same_connection(session, &copy.before, after);
        if found.is_empty() {
            // Faithful: what the client shows is still the live session's.
            let session = session.to_owned();
            self.born_here(&session);
        }
        for d in found {
            self.emit(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::spec::Revision;

    /// A v1 trace: session `s1` created, its turn shows plan `b` (after
    /// `a`), then a session/load of it whose replay ends on `a`.
    fn older_replay() -> String {
        let update = |plan: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s1","update":{{"sessionUpdate":"plan","entries":[{{"content":"{plan}","priority":"high","status":"pending"}}]}}}}}}"#
            )
        };
        [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}"#.to_owned(),
            update("a"),
            update("b"),
            r#"{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":4,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}"#.to_owned(),
            update("a"),
            r#"{"jsonrpc":"2.0","id":4,"result":{}}"#.to_owned(),
        ]
        .join("\n")
    }

    /// The lines of every diagnostic of the trace checked under `limits`, by rule.
    fn found(limits: Limits) -> Vec<(&'static str, u64)> {
        let config = Config {
            spec: crate::spec::SpecChoice::Fixed(Revision::V1),
            limits,
        };
        let report = check_reader("t", older_replay().as_bytes(), config).unwrap();
        (report.diagnostics.iter())
            .map(|d| (d.rule.id, d.line))
            .collect()
    }

    /// Bare lines: the load's answer ends the replay, judged there; a copy
    /// that would take the state over `max_state_bytes`, or a load beyond
    /// `max_outstanding_requests` copies, is not kept, and the replay goes
    /// unjudged rather than misjudged.
    #[test]
    fn a_replay_on_the_same_connection_is_judged_within_the_limits() {
        assert_eq!(found(Limits::default()), [("LOAD-REPLAY-STATE", 11)]);
        let bytes = |max_state_bytes| Limits {
            max_state_bytes,
            ..Limits::default()
        };
        // The least room the plan fits in: then its copy does not.
        let fits = (1..100_000)
            .find(|&room| {
                found(bytes(room))
                    .iter()
                    .all(|(rule, _)| *rule != "TRACE-LIMIT")
            })
            .unwrap();
        assert_eq!(found(bytes(fits)), []);
        assert_eq!(found(bytes(2 * fits)), [("LOAD-REPLAY-STATE", 11)]);
        let one_request = Limits {
            max_outstanding_requests: 1,
            ..Limits::default()
        };
        assert_eq!(found(one_request), [("LOAD-REPLAY-STATE", 11)]);
    }
}
