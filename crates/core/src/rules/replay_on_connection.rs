//! LOAD-REPLAY-STATE within one trace: a session that lived on this
//! connection, replayed on it again (`session/load`; v2 `session/resume`
//! from the start). The client keeps what it showed, so the replay must
//! leave it showing the same plans. A unit ([`super::unit`]): it keeps the
//! sessions born on the connection and a copy of what each showed when its
//! replay was asked for; the comparison is `load.rs`'s, which the live
//! runner also uses across two connections.

use super::load::{compare_replay_on_same_connection, REPLAY_STATE};
use super::unit::{Emit, Event, Facts, Unit};
use crate::catalog::Rule;
use crate::state::{Key, SessionPlans};

/// Where a request was read: its line, and its batch element + 1.
type At = (u64, u32);

/// What a session showed when a replay of it was asked for, and (v2) at
/// its `replay_complete`.
#[derive(Debug)]
struct ReplayCopy {
    session: Key,
    before: SessionPlans,
    at_marker: Option<SessionPlans>,
    bytes: usize,
}

/// The unit of LOAD-REPLAY-STATE on one connection. Its copies are bounded
/// by `max_outstanding_requests` and, with the client state, by
/// `max_state_bytes`.
#[derive(Debug, Default)]
pub(crate) struct ReplayOnConnection {
    /// Sessions opened by a `session/new` answer on this connection and not
    /// replayed since unjudged: the whole conversation is in the trace, so
    /// what the client shows is what the live session ended with.
    born_here: foldhash::HashMap<Key, ()>,
    /// The copies of sessions with a replay in flight, by its request.
    by_request: foldhash::HashMap<At, ReplayCopy>,
    bytes: usize,
}

impl Unit for ReplayOnConnection {
    const RULES: &'static [&'static Rule] = &[&REPLAY_STATE];

    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit) {
        match *event {
            Event::NewSessionAnswered {
                sessions: [session],
                fresh: true,
                ..
            } => self.born_here(session, facts),
            Event::ReplayRequested {
                session,
                request,
                from_start: true,
                alone,
                shown,
                state_bytes,
            } => {
                self.drop_session(session);
                let born_here = self.born_here.remove(session).is_some();
                let Some((before, bytes)) = shown else {
                    return;
                };
                // What the client shows is the live session's, and only the
                // replay will change it (no unread line so far).
                if !born_here || !alone || facts.unknown_since() > 0 {
                    return;
                }
                if self.by_request.len() >= facts.request_limit
                    || state_bytes + self.bytes + bytes > facts.state_limit
                {
                    return;
                }
                self.bytes += bytes;
                let copy = ReplayCopy {
                    session: Key::new(session),
                    before: before.clone(),
                    at_marker: None,
                    bytes,
                };
                self.by_request.insert(request, copy);
            }
            // A replay from a cursor other than the start, or a close: what
            // the client shows of it is no longer known to be the live
            // session's.
            Event::ReplayRequested { session, .. } | Event::SessionClosed { session } => {
                self.drop_session(session);
                self.born_here.remove(session);
            }
            // A replay in flight is not judged: its updates may be the
            // turn's.
            Event::Prompt { session, .. } => self.drop_session(session),
            Event::ReplayMarker {
                ends: Some(request),
                shown,
                ..
            } => {
                if let Some(copy) = self.by_request.get_mut(&request) {
                    copy.at_marker = shown.cloned();
                }
            }
            Event::ReplayAnswered {
                request,
                failed,
                shown,
                untracked,
                replay_goes_on,
                ..
            } => {
                let Some(copy) = self.take(&request) else {
                    return;
                };
                // Judged in every reading: no line since the request unread
                // or unpaired, no other replay of the session in flight.
                if failed || facts.unknown_since() > 0 || untracked || replay_goes_on {
                    return;
                }
                let session = copy.session.as_str();
                let Some(after) = copy.at_marker.as_ref().or(shown) else {
                    return;
                };
                let found = compare_replay_on_same_connection(session, &copy.before, after);
                if found.is_empty() {
                    // Faithful: what the client shows is still the live
                    // session's.
                    self.born_here(session, facts);
                }
                for d in found {
                    out.say(d);
                }
            }
            _ => {}
        }
    }
}

impl ReplayOnConnection {
    fn born_here(&mut self, session: &str, facts: &Facts) {
        if self.born_here.len() < facts.request_limit {
            self.born_here.insert(Key::new(session), ());
        }
    }

    fn drop_session(&mut self, session: &str) {
        if self.by_request.is_empty() {
            return;
        }
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

#[cfg(test)]
mod tests {
    use super::super::session_offers::tests::{facts, said};
    use super::*;
    use crate::spec::Revision;
    use crate::trace::Limits;
    use crate::validate::{check_reader, Config};

    /// A session showing one legacy plan of `content` (`None`: no plan).
    fn showing(content: Option<&str>) -> SessionPlans {
        let entry = |content: &str| crate::spec::messages::PlanEntry {
            content: content.to_owned(),
            priority: crate::spec::messages::Priority::High,
            status: crate::spec::messages::Status::Pending,
            meta: None,
        };
        SessionPlans {
            legacy: content.map(|content| vec![entry(content)]),
            ..SessionPlans::default()
        }
    }

    fn born(session: &[String]) -> Event<'_> {
        Event::NewSessionAnswered {
            method: "session/new",
            sessions: session,
            unnamed: None,
            certain: true,
            other_readings: false,
            every_established: false,
            closing: false,
            fresh: true,
        }
    }

    fn requested(alone: bool, shown: &SessionPlans) -> Event<'_> {
        Event::ReplayRequested {
            session: "s",
            request: (4, 0),
            from_start: true,
            alone,
            shown: Some((shown, 100)),
            state_bytes: 100,
        }
    }

    fn answered(shown: &SessionPlans) -> Event<'_> {
        Event::ReplayAnswered {
            method: "session/load",
            session: "s",
            request: (4, 0),
            line: 6,
            succeeded: true,
            failed: false,
            shown: Some(shown),
            untracked: false,
            marked: false,
            optional: false,
            replay_goes_on: false,
        }
    }

    /// A session born on the connection and replayed alone: the replay
    /// must leave it showing what it showed; a second faithful-or-not
    /// replay is judged again only once a faithful one left it the live
    /// session's.
    #[test]
    fn a_replay_of_a_session_born_here_must_show_what_it_showed() {
        let s = ["s".to_owned()];
        let (b, a) = (showing(Some("b")), showing(Some("a")));
        let v1 = || facts(Revision::V1, true);
        let mut unit = ReplayOnConnection::default();
        let events = [(born(&s), v1()), (requested(true, &b), v1()), (answered(&a), v1())];
        assert_eq!(said(&mut unit, &events), ["LOAD-REPLAY-STATE"]);
        // Unfaithful once: the session is no longer known to be the live
        // one, so the next replay is not judged.
        let events = [(requested(true, &a), v1()), (answered(&b), v1())];
        assert!(said(&mut unit, &events).is_empty());
        // Faithful, then judged again.
        let mut unit = ReplayOnConnection::default();
        let events = [
            (born(&s), v1()),
            (requested(true, &b), v1()),
            (answered(&b), v1()),
            (requested(true, &b), v1()),
            (answered(&a), v1()),
        ];
        assert_eq!(said(&mut unit, &events), ["LOAD-REPLAY-STATE"]);
    }

    #[test]
    fn a_replay_that_is_not_alone_or_not_of_a_session_born_here_is_not_judged() {
        let s = ["s".to_owned()];
        let (b, a) = (showing(Some("b")), showing(Some("a")));
        let v1 = || facts(Revision::V1, true);
        let lost = || Facts { lost_at: 2, ..v1() };
        let tight = || Facts { state_limit: 150, ..v1() };
        for (case, events) in [
            ("a turn in flight", vec![(born(&s), v1()), (requested(false, &b), v1()), (answered(&a), v1())]),
            ("not born here", vec![(requested(true, &b), v1()), (answered(&a), v1())]),
            ("a line lost", vec![(born(&s), v1()), (requested(true, &b), lost()), (answered(&a), lost())]),
            ("no room for the copy", vec![(born(&s), v1()), (requested(true, &b), tight()), (answered(&a), tight())]),
            (
                "a prompt while it replays",
                vec![
                    (born(&s), v1()),
                    (requested(true, &b), v1()),
                    (Event::Prompt { session: "s", setup_in_flight: None }, v1()),
                    (answered(&a), v1()),
                ],
            ),
            (
                "closed",
                vec![(born(&s), v1()), (Event::SessionClosed { session: "s" }, v1()), (requested(true, &b), v1()), (answered(&a), v1())],
            ),
        ] {
            let mut unit = ReplayOnConnection::default();
            assert!(said(&mut unit, &events).is_empty(), "{case}");
        }
    }

    /// v2: what the session shows at its `replay_complete` is what the
    /// replay ends with, whatever comes before the answer.
    #[test]
    fn the_marker_fixes_what_the_replay_ends_with() {
        let s = ["s".to_owned()];
        let (b, a) = (showing(Some("b")), showing(Some("a")));
        let v2 = || facts(Revision::V2, true);
        let marker = |shown| Event::ReplayMarker {
            session: "s",
            ends: Some((4, 0)),
            shown,
            first_pending: Some(4),
            optional: false,
            untracked: false,
        };
        // What the unit says of a replay of `b` whose marker shows
        // `at_marker` and whose answer comes when the session shows
        // `at_answer`.
        let replayed = |at_marker, at_answer| {
            let events = [
                (born(&s), v2()),
                (requested(true, &b), v2()),
                (marker(Some(at_marker)), v2()),
                (answered(at_answer), v2()),
            ];
            said(&mut ReplayOnConnection::default(), &events)
        };
        assert_eq!(replayed(&a, &b), ["LOAD-REPLAY-STATE"]);
        assert!(replayed(&b, &a).is_empty());
    }

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
