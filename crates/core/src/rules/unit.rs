//! Rules as units over typed events.
//!
//! The engine ([`crate::validate::Validator`]) reads the trace and keeps the
//! connection's facts (handshake, revision, lines it could not read or
//! pair). Where it learns something a rule decides on, it tells every
//! registered unit an [`Event`], with a read-only view of those facts
//! ([`Facts`]). A unit owns its decision and the state that decision needs,
//! and puts what it finds in an [`Emit`]; the engine then says each finding
//! through its one `emit`, which places it (line, batch element, snippet,
//! revision) and applies the limits, as for every other rule.
//!
//! So a unit can be tested on a short sequence of events without a trace.
//! The units are registered in one table, the `units!` call in
//! `rules/mod.rs`, which also puts their rules in the catalog.

use crate::catalog::Rule;
use crate::diag::Diagnostic;
use crate::jsonrpc::Direction;
use crate::spec::capability::VersionFault;
use crate::spec::Revision;
use crate::state::SessionPlans;
use serde_json::value::RawValue;

/// Something the engine learnt about the connection, at the point where it
/// learnt it. The enum grows with the units: an event exists when a unit
/// consumes it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Event<'a> {
    /// A successful `initialize` answer, read on `line`. `results` are the
    /// readings of its result (one, unless the response repeats `result`)
    /// when the answer is read as its request's for certain; none when it
    /// is one reading of a request read several ways (a repeated `method`,
    /// two requests in flight under one id), a guess (its id paired with no
    /// request in flight), or a response whose readings do not all
    /// succeed: what it advertises is then not known. A unit reads every
    /// reading ([`agreed`]).
    InitializeAnswered {
        results: &'a [&'a RawValue],
        line: u64,
    },
    /// A client's request or notification (other than `session/update`):
    /// one reading of its line.
    ClientCall {
        method: &'a str,
        /// The method of every reading of the line, decoded (a value that
        /// is not a string reads as ""), when they differ by JSON value;
        /// empty when every reading calls `method`. A rule that holds for
        /// every reading reads them all.
        every_method: &'a [String],
    },
    // SES-UPDATE-PARAMS:
    /// A `session/update` whose params the engine could not read as an
    /// update (one reading of its line): what is `missing`, and the session
    /// when it was read.
    UpdateParamsUnread {
        missing: crate::rules::update_params::Missing,
        session: Option<&'a str>,
    },
    // SES-UPDATE-NOTIFICATION:
    /// A `session/update` call (one reading of its line), before the
    /// engine reads it as an update.
    SessionUpdateCall {
        direction: Direction,
        /// It carries an `id`: a request, not a notification.
        request: bool,
        /// The method of every reading of the line, when they differ (as
        /// [`Event::ClientCall`]'s); empty when every reading calls
        /// `session/update`.
        every_method: &'a [String],
    },
    // Session ids (SES-NEW-SESSION-ID, SES-SESSION-ID-REUSED):
    /// A successful answer read as the answer to a `session/new` or
    /// `session/fork` (`method`): once for each reading of the request
    /// that the answer fits, and once, with no `sessions`, for the readings
    /// under which it names no session to open.
    NewSessionAnswered {
        method: &'a str,
        /// Every session id the readings of the answer name (each value of
        /// a repeated `sessionId`, each reading of a repeated `result`),
        /// each once, in order.
        sessions: &'a [String],
        /// The `result` of the first reading that names no session (no
        /// `sessionId`, or one that is not a string); `None` when every
        /// reading names one.
        unnamed: Option<&'a RawValue>,
        /// Whether the answer is read as `method`'s for certain: every
        /// reading of it succeeds and names a session, and its request is
        /// read one way.
        certain: bool,
        /// Whether some other reading of the request (a repeated `method`,
        /// or another request in flight under the answer's id) takes the
        /// answer as its own: under that reading it owes no session id.
        other_readings: bool,
        /// Whether each of `sessions` (at least one) was established on the
        /// connection before this answer, and no load of it is in flight
        /// (a load may fail): the engine then shows the session afresh.
        every_established: bool,
        /// Whether a `session/close` of one of `sessions` is in flight: it
        /// may be closed already.
        closing: bool,
        /// A `session/new` answer, certain, that names one session not
        /// established on the connection before: the whole conversation of
        /// it is in the trace.
        fresh: bool,
    },
    /// A `session/close` the engine cannot follow to its answer (it names
    /// no session, or its answer will not be paired): any session may be
    /// closed from here on.
    CloseUnfollowed,
    // The initialize exchange (INIT-CLIENT-VERSION, INIT-CAPABILITIES-DIFFER,
    // SES-PROTOCOL-VERSION):
    /// One reading of a client's `initialize` request, read at `request`
    /// (its line, and its batch element + 1, 0 outside a batch).
    InitializeRequested {
        request: (u64, u32),
        params: Option<&'a RawValue>,
        /// The method of every reading of the line, when they differ (as
        /// [`Event::ClientCall`]'s); empty when every reading calls
        /// `initialize`.
        every_method: &'a [String],
    },
    /// Every reading of an `initialize` request the engine awaits an
    /// answer to was read: at once when it has no `params` (no reading can
    /// have any), else once its line is read. Findings are placed at the
    /// request.
    InitializeRead {
        /// It has `params`.
        params_given: bool,
        /// Some reading of it names a `protocolVersion`.
        names_version: bool,
        /// Some reading of its line calls another method.
        other_method: bool,
    },
    /// The `initialize` read at `request` was answered by an error.
    InitializeFailed { request: (u64, u32) },
    /// The `protocolVersion` of each successful reading of an `initialize`
    /// answer that negotiates (the first answered, or one whose request's
    /// capabilities the engine kept), as the engine reads it: the version,
    /// or why none can be read. `one_reading`: the answer is one reading of
    /// a request read several ways, so what the answer owes is not judged.
    InitializeVersions {
        versions: &'a [Result<u64, VersionFault<'a>>],
        one_reading: bool,
    },
    // Turns and replays (SES-UPDATE-AFTER-CANCEL, SES-REPLAY-AFTER-ANSWER,
    // SES-RESUME-REPLAY, SES-PROMPT-BEFORE-SETUP, SES-REPLAY-COMPLETE,
    // SES-UNKNOWN-SESSION).
    /// A client's `session/prompt` of `session`: a new turn starts.
    Prompt {
        session: &'a str,
        /// While only a `session/load` or `session/resume` in flight opened
        /// the session (its answer sets it up), the first such request's
        /// line.
        setup_in_flight: Option<u64>,
    },
    /// The turn of `session` that the client cancelled ended on `line`
    /// (v1 and the draft: the prompt's answer; v2: the idle
    /// `state_update`).
    CancelledTurnEnded { session: &'a str, line: u64 },
    /// A successful `session/close` answer: `session` is closed, and
    /// what its turns and replays were is over.
    SessionClosed { session: &'a str },
    /// The answer, on `line`, to a request read at `request` (its line,
    /// and its batch element + 1) that asked for a replay of `session`
    /// (`method`: `session/load`, or v2's `session/resume` with a
    /// `replayFrom` cursor).
    ReplayAnswered {
        method: &'a str,
        session: &'a str,
        request: (u64, u32),
        line: u64,
        /// Every reading of the answer succeeds.
        succeeded: bool,
        /// It is an error answer.
        failed: bool,
        /// What the client shows of the session now.
        shown: Option<&'a SessionPlans>,
        /// A request that asked for a replay went unrecorded (at a limit).
        untracked: bool,
        /// v2: the replay had its `replay_complete`.
        marked: bool,
        /// v2: the request's `replayFrom` reads both ways, or its readings
        /// name different sessions (repeated members): a marker is neither
        /// owed nor out of place.
        optional: bool,
        /// Another request that asked for a replay of the session is still
        /// in flight: its replay may go on.
        replay_goes_on: bool,
    },
    /// A `session/update` names `session`, which the client state does not
    /// show and no line lost since may have opened.
    UnestablishedSession {
        session: &'a str,
        /// The client state dropped sessions at its limit: it may be one.
        sessions_overflowed: bool,
    },
    /// v2: a `replay_complete` of `session` (once for a line whose every
    /// reading is that marker).
    ReplayMarker {
        session: &'a str,
        /// The request in flight whose replay it ends: the first that had
        /// no marker yet, which the engine marks.
        ends: Option<(u64, u32)>,
        /// What the client shows of the session now.
        shown: Option<&'a SessionPlans>,
        /// The line of the first request in flight that asked for a replay
        /// of the session, if any.
        first_pending: Option<u64>,
        /// Such a request's `replayFrom` reads both ways, or readings of a
        /// marker line disagreed: a marker is neither owed nor out of place.
        optional: bool,
        /// A request that asked for a replay went unrecorded (at a limit),
        /// or one in flight names different sessions in its readings: the
        /// marker may be its.
        untracked: bool,
    },
    /// A `session/load`, or v2's `session/resume` with a `replayFrom`
    /// cursor, of `session`, read at `request`, before the engine counts it
    /// in flight. LOAD-REPLAY-STATE.
    ReplayRequested {
        session: &'a str,
        request: (u64, u32),
        /// It asks for the whole conversation (v1's load; v2: from the
        /// start), not from a cursor.
        from_start: bool,
        /// Its answer will be paired, no request that asked for a replay
        /// went unrecorded, and no other replay or turn of the session is in
        /// flight: only its replay changes what the session shows.
        alone: bool,
        /// What the client shows of the session, and the bytes that takes.
        shown: Option<(&'a SessionPlans, usize)>,
        /// Bytes of plan content the client state holds.
        state_bytes: usize,
    },
    /// A plan update of `session` (one reading of a `session/update` whose
    /// kind is a plan kind), before it is checked. Told for every plan
    /// update: what it carries is borrowed or a copy.
    PlanUpdate {
        session: &'a str,
        /// Its kind (`plan`, `plan_update`, `plan_removed`). Plan
        /// operations (CAP-PLAN-OPS, CAP-LEGACY-V2).
        kind: &'a str,
        /// The first `session/resume` of the session in flight that asked
        /// for no replay, if any.
        quiet_resume: Option<QuietResume>,
    },
}

/// What the engine knows of the connection when it tells an [`Event`]:
/// read-only, the same for every unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Facts {
    /// The revision in force. Under `--spec auto` before an `initialize`
    /// is answered it is provisional. When the handshake named no revision
    /// the suite knows (INIT-VERSION-UNKNOWN), the engine itself drops what
    /// units say under rules that not every revision holds.
    pub(crate) revision: Revision,
    /// Whether an `initialize` was answered successfully (before the event:
    /// for [`Event::InitializeAnswered`], by an earlier answer).
    pub(crate) initialized: bool,
    /// The line of the error that answered the last `initialize`, while
    /// no later one succeeded; `None` otherwise.
    pub(crate) initialize_failed_at: Option<u64>,
    /// The last line the checker's limits kept it from reading, 0 if none.
    pub(crate) lost_at: u64,
    /// The last line that may have been an answer the engine could not
    /// pair (unreadable, no JSON-RPC frame, or a response to no request in
    /// flight), 0 if none.
    pub(crate) garbled_at: u64,
    // Turns and replays (SES-UPDATE-AFTER-CANCEL ...).
    /// `--max-outstanding-requests`: what a unit remembers per session or
    /// request in flight is bounded by it, as the engine's own maps are.
    pub(crate) request_limit: usize,
    /// `--max-state-bytes`: what a unit copies of the client state counts
    /// against it with the state itself.
    pub(crate) state_limit: usize,
    // Plan operations (CAP-PLAN-OPS, CAP-LEGACY-V2).
    /// What the client's `initialize` advertised of the plan capability
    /// (v2: always [`Advertised::Yes`](crate::rules::cap::Advertised), plan
    /// operations being baseline), as the engine read it with CAP-VALUE;
    /// [`Advertised::No`](crate::rules::cap::Advertised) before any
    /// `initialize` is answered.
    pub(crate) plan_capability: crate::rules::cap::Advertised,
}

impl Facts {
    /// The last line whose content is not known for certain (lost or
    /// garbled), 0 if none: it may have been any message, such as another
    /// `initialize` answer.
    pub(crate) fn unknown_since(&self) -> u64 {
        self.lost_at.max(self.garbled_at)
    }
}

/// Whether every reading of a line calls a method `is` accepts: `method`,
/// the one being read, when the readings agree (`every_method` empty), or
/// each of `every_method` (see [`Event::ClientCall`]).
pub(crate) fn every_reading_calls(
    method: &str,
    every_method: &[String],
    is: impl Fn(&str) -> bool,
) -> bool {
    if every_method.is_empty() {
        is(method)
    } else {
        every_method.iter().all(|m| is(m))
    }
}

/// What every reading in `results` says, read by `read`, when they all say
/// the same; `T::default()` (unknown) when they differ or there is none.
pub(crate) fn agreed<T: Default + PartialEq>(
    results: &[&RawValue],
    read: impl Fn(&RawValue) -> T,
) -> T {
    let mut readings = results.iter().map(|r| read(r));
    let Some(first) = readings.next() else {
        return T::default();
    };
    if readings.all(|other| other == first) {
        first
    } else {
        T::default()
    }
}

/// Remember `value` for `session` in `map`, unless `limit` sessions are
/// there already (one there is replaced): what a unit keeps per session is
/// bounded as the engine's own maps are ([`Facts::request_limit`]). Turns
/// and replays (SES-UPDATE-AFTER-CANCEL ...).
pub(crate) fn remember<V>(
    map: &mut foldhash::HashMap<crate::state::Key, V>,
    limit: usize,
    session: &str,
    value: V,
) {
    if map.len() < limit || map.contains_key(session) {
        map.insert(crate::state::Key::new(session), value);
    }
}

/// A `session/resume` in flight that asked for no replay, as a plan update
/// of its session finds it ([`Event::PlanUpdate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct QuietResume {
    /// The line the request was read on.
    pub(crate) line: u64,
    /// A turn of the session may be running (v1: a prompt in flight; v2:
    /// not reported idle since its prompt, or prompted by a request the
    /// checker did not track), or a replay asked for by a load or resume of
    /// it is in flight: the update may be that turn's or that replay's.
    pub(crate) live: bool,
}

/// What units found on one event, drained by the engine in the order said.
#[derive(Debug, Default)]
pub(crate) struct Emit {
    found: Vec<Diagnostic>,
}

impl Emit {
    /// Report `diagnostic` (placed by the engine: leave its line 0).
    pub(crate) fn say(&mut self, diagnostic: Diagnostic) {
        self.found.push(diagnostic);
    }

    /// Everything said since the last call.
    pub(crate) fn take(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.found)
    }
}

/// A rule family that owns its decision and its state: it consumes the
/// engine's events and says what breaks its rules.
pub(crate) trait Unit: Default {
    /// The rules it decides, as the catalog lists them.
    const RULES: &'static [&'static Rule];

    /// React to `event`, with the connection's `facts`; say findings in
    /// `out`. Never panics on what the event carries.
    fn on(&mut self, event: &Event<'_>, facts: &Facts, out: &mut Emit);
}

/// The registration table: `units! { module => Type, ... }` declares each
/// unit's file, `rules/module.rs`, and `Units`, which holds one of each unit
/// (static dispatch, in the order listed: the order their findings on one
/// event are said), and `UNIT_RULES`, their rules for the catalog.
macro_rules! units {
    ($($module:ident => $unit:ident,)*) => {
        $(pub(crate) mod $module;)*

        /// Every registered unit, fed by the engine.
        #[derive(Debug, Default)]
        pub(crate) struct Units {
            $($module: $module::$unit,)*
        }

        impl Units {
            /// Tell every unit `event`, in registration order.
            pub(crate) fn on(
                &mut self,
                event: &$crate::rules::unit::Event<'_>,
                facts: &$crate::rules::unit::Facts,
                out: &mut $crate::rules::unit::Emit,
            ) {
                use $crate::rules::unit::Unit as _;
                $(self.$module.on(event, facts, out);)*
            }
        }

        /// The rules the units decide, unit by unit.
        const UNIT_RULES: &[&[&$crate::catalog::Rule]] =
            &[$(<$module::$unit as $crate::rules::unit::Unit>::RULES,)*];
    };
}
pub(crate) use units;
