//! The engine: feeds records through the layers and the rules, and owns the
//! per-connection state (handshake, revision, sessions, requests in flight).
//!
//! A line goes through `framing` (what it is before it is one message),
//! then `calls` (requests, notifications and answers; `handshake` for
//! `initialize`) or `updates` (`session/update`). Every line is read one
//! way: serde reads its bytes (`trace::parse_record`, `parse_message`), and
//! the layers read members of what it read; `head` reads well-formed update
//! params in one borrowed pass of that read's text.
//!
//! Memory is bounded by live state and the limits in [`Limits`], never by
//! the length of the trace.

/// What the units find on `event`, told by the validator `$validator`. A
/// macro, not a method, so that the event may borrow the validator's other
/// fields (the line's readings, the client state) while the units are
/// told.
macro_rules! units_found {
    ($validator:ident, $event:expr) => {{
        let facts = $validator.facts();
        let event = $event;
        let mut out = $crate::rules::unit::Emit::default();
        $validator.units.on(&event, &facts, &mut out);
        out.take()
    }};
}

/// Tell the units `event`, and say what they find through the validator's
/// one `emit`, which places it where the event was read and limits it, as
/// every finding.
macro_rules! tell_units {
    ($validator:ident, $event:expr) => {
        for d in units_found!($validator, $event) {
            $validator.emit(d);
        }
    };
}

mod calls;
mod files;
mod framing;
mod handshake;
mod head;
#[cfg(test)]
mod lifecycle_tests;
mod session;
mod turns;
mod updates;

pub use files::{check_paths, check_paths_then, default_jobs};

use crate::catalog::Counts;
use crate::diag::Diagnostic;
use crate::jsonrpc::{self, Direction};
use crate::rules::unit::Facts;
use crate::rules::{cap, env, init, trace_format, Units};
use crate::spec::capability;
use crate::spec::messages::PlanContent;
use crate::spec::{RevisionChoice, SpecChoice};
use crate::state::{self, ClientState};
use crate::trace::{
    duplicate_keys, parse_message, parse_record, DuplicateMember, Limits, LineReader, RawLine,
};
use handshake::{Handshake, PendingInitialize};
use serde_json::value::RawValue;
use session::SessionTrack;
use std::collections::BTreeMap;
use std::io::{self, BufRead};
use turns::Turns;

/// The maps of per-session and per-request state, looked up several times
/// a line: foldhash (seeded per process, so a hostile trace cannot choose
/// colliding keys) instead of SipHash, which was a tenth of the
/// instructions on traces of many sessions.
type FoldMap<K, V> = foldhash::HashMap<K, V>;

/// Where a request was read: its line, and its place in the line's batch
/// (see [`jsonrpc::correlate::Pending::element`]). Requests in flight are
/// remembered by it: a batch puts several on one line.
type At = (u64, u32);

/// How to check.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Which revision to judge by.
    pub spec: SpecChoice,
    /// The bounds on memory and output.
    pub limits: Limits,
}

/// How a message calls a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    Notification,
    /// `tracked`: the correlator keeps it, so its answer will be paired
    /// (not past `--max-outstanding-requests`).
    Request {
        tracked: bool,
    },
}

/// A streaming validator for one connection.
pub struct Validator {
    config: Config,
    correlator: jsonrpc::Correlator,
    revision: RevisionChoice,
    handshake: Handshake,
    /// `initialize` requests awaiting their answers, oldest first (at most
    /// `INITIALIZE_IN_FLIGHT_KEPT`). Each answer negotiates for its own
    /// request; on an initialized connection a successful one negotiates
    /// the revision again, and the capability where both agree.
    initializing: Vec<PendingInitialize>,
    /// The handshake negotiated no protocol version a revision defines
    /// (INIT-VERSION-UNKNOWN): only rules that decide the same under every
    /// revision judge from then on.
    revision_unknown: bool,
    /// INIT-VERSION-UNKNOWN was said (once per connection).
    revision_unknown_said: bool,
    plan_capability: cap::Advertised,
    /// The rules that are units ([`crate::rules::unit`]): told the events
    /// of the connection, they keep their own state.
    units: Units,
    /// While the readings of a line whose `method` repeats with values that
    /// differ are read: the method of each reading, decoded (empty
    /// otherwise). A rule on what the client may call holds only where
    /// every reading breaks it, since another reading calls something else.
    reading_methods: Vec<String>,
    /// While such a line is read: the JSON-RPC frame faults of each
    /// reading, said once the line is read where every reading has them.
    faults_of_readings: Option<Vec<Vec<Diagnostic>>>,
    /// While the distinct readings of one `session/update` are read: the
    /// state changes they hold (`replay_complete` markers, turn ends, a
    /// session nobody named), made once for the message, not per reading.
    update_readings: Option<updates::UpdateReadings>,
    /// While the readings of a line that repeats a top-level member are
    /// read: the readings of a response, paired once the line is read.
    response_readings: Option<calls::ResponseReadings>,
    /// What the validator keeps per session beyond what the client shows,
    /// by the session's index in `state`: opened and forgotten with it (a
    /// forgotten session's slot stays, empty, until both compact), so that a
    /// message looks its session up once.
    tracks: Vec<SessionTrack>,
    /// The session the last update named, and its index in `state`:
    /// updates come in runs for one session, and a compare with this costs
    /// less than a lookup whose key has left the cache. Cleared when a
    /// session is forgotten (it may be this one, and compacting moves
    /// indexes).
    recent_session: Option<(String, usize)>,
    sessions_overflowed: bool,
    state: ClientState,
    diagnostics: Vec<Diagnostic>,
    /// Diagnostics found beyond `max_diagnostics` pending, counted only.
    not_kept: Counts,
    line: u64,
    messages: u64,
    /// session/load and session/resume requests awaiting their answers
    /// for sessions they opened (see `loaded_provisionally`), by where
    /// they were read.
    loading: FoldMap<At, String>,
    /// session/close requests awaiting their answers, by where they were
    /// read: a successful answer closes the session, which the client then
    /// shows no more.
    closing: FoldMap<At, String>,
    /// Sessions that loads opened and that none has loaded yet, with the
    /// number of their loads in flight: a failed answer takes a session
    /// back only when it was the last of them.
    loaded_provisionally: FoldMap<String, u32>,
    /// While a batch element is read: the pointer to it (`/2`), which
    /// prefixes the pointers of what is found in it.
    element_base: String,
    /// While a batch element is read: its index + 1; 0 otherwise.
    element: u32,
    /// Bytes of plan content in the client state (see `max_state_bytes`).
    state_bytes: usize,
    /// The turn and replay boundaries the session rules read (SES-*).
    turns: Turns,
    /// The last line the checker's limits kept it from reading (too long,
    /// too deep), 0 if none: it may have held any message, so no rule
    /// judges a later one as if it were known not to be there.
    lost_at: u64,
    /// The last line that may have been an answer the suite could not pair
    /// (unreadable, not a JSON-RPC frame, or a response to no request in
    /// flight), 0 if none: a request in flight before it may be answered.
    garbled_at: u64,
    /// The repeats and values RFC 8259 calls unpredictable named so far on
    /// this line, as (rule, pointer): the look at the whole message names
    /// the others.
    named_in_line: Vec<(&'static str, String)>,
}

/// Diagnostics per line whose snippet is centred on their pointer.
const CENTRED_SNIPPETS_PER_LINE: usize = 16;
/// Bytes of a line enough for a snippet of its start.
const SNIPPET_HEAD_BYTES: usize = 1024;

impl Validator {
    /// A validator for a new connection.
    pub fn new(config: Config) -> Self {
        Validator {
            correlator: jsonrpc::Correlator::new(config.limits.max_outstanding_requests),
            revision: capability::provisional_revision(config.spec),
            handshake: Handshake::NotStarted,
            initializing: Vec::new(),
            revision_unknown: false,
            revision_unknown_said: false,
            plan_capability: cap::Advertised::No,
            units: Units::default(),
            reading_methods: Vec::new(),
            faults_of_readings: None,
            update_readings: None,
            response_readings: None,
            tracks: Vec::new(),
            recent_session: None,
            sessions_overflowed: false,
            lost_at: 0,
            garbled_at: 0,
            named_in_line: Vec::new(),
            state: ClientState::new(),
            diagnostics: Vec::new(),
            not_kept: Counts::default(),
            line: 0,
            messages: 0,
            loading: FoldMap::default(),
            closing: FoldMap::default(),
            loaded_provisionally: FoldMap::default(),
            element_base: String::new(),
            element: 0,
            state_bytes: 0,
            turns: Turns::default(),
            config,
        }
    }

    /// Whether an `initialize` was answered successfully: the revision in
    /// force is then the one the trace names (until another answer).
    pub fn revision_settled(&self) -> bool {
        self.handshake == Handshake::Answered
    }

    /// This validator, judging the lines before the `initialize` answer by
    /// the revision that `scout`, a validator fed the same first lines up to
    /// that answer, settled on, instead of the provisional v1: those lines
    /// belong to the revision the trace turns out to have. Only without
    /// `--spec`, and only once the scout's handshake was answered.
    pub fn with_revision_of(mut self, scout: &Validator) -> Self {
        if self.config.spec == SpecChoice::Auto && scout.revision_settled() {
            self.revision = scout.revision.clone();
            self.revision_unknown = scout.revision_unknown;
        }
        self
    }

    /// The revision in force, and why.
    pub fn revision(&self) -> &RevisionChoice {
        &self.revision
    }

    /// What a conformant client shows now.
    pub fn state(&self) -> &ClientState {
        &self.state
    }

    /// v2: what `session` showed at its last `replay_complete`, the end of
    /// the replay a session/resume with a cursor asked for (what came after
    /// it is live).
    pub fn replay_end_plans(&self, session: &str) -> Option<&state::SessionPlans> {
        self.turns.replay_ends.get(session)
    }

    /// What a conformant client shows at the end, without a copy.
    pub fn into_state(self) -> ClientState {
        self.state
    }

    /// JSON-RPC messages read so far.
    pub fn messages(&self) -> u64 {
        self.messages
    }

    /// Requests sent in `direction` still waiting for their response, in
    /// the order they were sent: (id, method, line). Those beyond the
    /// outstanding limit were never tracked and are not listed.
    pub fn unanswered(&self, direction: Direction) -> Vec<(String, String, u64)> {
        let mut requests: Vec<(String, String, u64)> = self
            .correlator
            .outstanding(direction)
            .map(|(id, pending)| (id.to_string(), pending.method.to_string(), pending.line))
            .collect();
        requests.sort_by_key(|(_, _, line)| *line);
        requests
    }

    /// Whether `session` was established on this connection (and is tracked).
    pub fn is_established(&self, session: &str) -> bool {
        self.state.session_index(session).is_some()
    }

    /// How much live state the validator holds, item by item: what the
    /// limits in [`Limits`] bound. For memory checks and fuzzing.
    pub fn occupancy(&self) -> Occupancy {
        let mut occupancy = Occupancy {
            sessions: (0..self.tracks.len())
                .filter(|&index| self.state.session_at(index).is_some())
                .count(),
            session_slots: self.tracks.len(),
            shown_sessions: self.state.session_count(),
            outstanding_requests: [Direction::ClientToAgent, Direction::AgentToClient]
                .map(|d| self.correlator.outstanding_count(d)),
            remembered_ids: self.correlator.remembered_count(),
            pending_diagnostics: self.diagnostics.len(),
            state_bytes: self.state_bytes,
            ..Occupancy::default()
        };
        for (_, plans) in self.state.sessions() {
            occupancy.plans += plans.plans.len();
            occupancy.most_plans_in_a_session =
                occupancy.most_plans_in_a_session.max(plans.plans.len());
            let entries = plans
                .plans
                .values()
                .filter_map(|view| match &view.content {
                    PlanContent::Items { entries } => Some(entries.len()),
                    _ => None,
                })
                .chain(plans.legacy.as_ref().map(Vec::len));
            for n in entries {
                occupancy.most_entries_in_a_plan = occupancy.most_entries_in_a_plan.max(n);
            }
        }
        for track in &self.tracks {
            occupancy.remembered_removals += track.remembered_removals();
        }
        occupancy
    }

    /// Diagnostics found since the last call: at most `max_diagnostics`;
    /// the rest are only counted (see [`Validator::take_not_kept`]).
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    /// Diagnostics found since the last call that were over the
    /// `max_diagnostics` bound on pending diagnostics, by severity. One line
    /// can break rules many times over (a plan of 10 000 bad entries); this
    /// keeps memory bounded while the verdict still counts every one.
    pub fn take_not_kept(&mut self) -> Counts {
        std::mem::take(&mut self.not_kept)
    }

    /// Feed one line of a trace (as read by the trace reader, `LineReader`,
    /// public with the `cli` feature).
    pub fn push_line(&mut self, line_no: u64, line: RawLine<'_>) {
        self.line = line_no;
        match line {
            RawLine::TooLong { bytes } => {
                let d = trace_format::line_too_long(bytes, self.config.limits.max_line_bytes);
                self.emit(d);
                self.lose_a_message();
            }
            RawLine::Bytes(bytes) => self.push_record(line_no, bytes),
        }
    }

    /// Feed one trace record (a bare message or an envelope). Blank lines
    /// are skipped.
    pub fn push_record(&mut self, line_no: u64, bytes: &[u8]) {
        self.line = line_no;
        let before = self.diagnostics.len();
        let bytes = self.past_byte_order_mark(bytes, true);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match parse_record(bytes, self.config.limits.max_depth) {
            Ok(record) => self.record(record),
            Err(fault) => self.record_fault(None, bytes, fault),
        }
        self.whole_message(bytes, true);
        self.after_message(before, bytes);
    }

    /// Judge the capabilities of an initialize read whole, give new
    /// diagnostics their snippets, and keep the initialize line.
    fn after_message(&mut self, before: usize, bytes: &[u8]) {
        if !self.initializing.is_empty() {
            self.initialize_read(bytes);
        }
        self.give_snippets(before, bytes);
    }

    /// Give the diagnostics found since `before` their snippets of `bytes`.
    fn give_snippets(&mut self, before: usize, bytes: &[u8]) {
        let line = self.line;
        // Centring a snippet scans the line, so only the first few
        // diagnostics of a line get one; the rest show the line's start
        // (a huge line with thousands of faults stays linear).
        let head = &bytes[..bytes.len().min(SNIPPET_HEAD_BYTES)];
        let mut head_snippet = None;
        let mut centred = 0;
        for d in self.diagnostics.iter_mut().skip(before) {
            if d.snippet.is_some() || d.line != line {
                continue;
            }
            if centred < CENTRED_SNIPPETS_PER_LINE {
                centred += 1;
                d.snippet = Some(crate::text::snippet(bytes, &d.pointer));
            } else {
                d.snippet = Some(
                    head_snippet
                        .get_or_insert_with(|| crate::text::snippet(head, ""))
                        .clone(),
                );
            }
        }
    }

    /// Feed one message whose direction is known (live modes).
    pub fn push_message(&mut self, line_no: u64, direction: Direction, bytes: &[u8]) {
        self.line = line_no;
        let before = self.diagnostics.len();
        let bytes = self.past_byte_order_mark(bytes, false);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match parse_message(bytes, self.config.limits.max_depth) {
            Ok(object) => self.message(Some(direction), &object),
            Err(fault) => self.record_fault(Some(direction), bytes, fault),
        }
        self.whole_message(bytes, false);
        self.after_message(before, bytes);
    }

    /// Cold, as `Diagnostic::new` is (see there).
    #[cold]
    fn emit(&mut self, mut d: Diagnostic) {
        if self.revision_unknown && !init::holds_in_every_revision(d.rule) {
            // Some revision may allow it: not judged (INIT-VERSION-UNKNOWN
            // says the check is incomplete).
            return;
        }
        let kept = self.diagnostics.len() < self.config.limits.max_diagnostics;
        // Where a repeat or an unpredictable value was named is remembered
        // even when the diagnostic is only counted, so that it is named once.
        let anywhere = env::holds_anywhere(d.rule);
        if !kept && !anywhere {
            self.not_kept.add(d.severity());
            return;
        }
        if d.line == 0 {
            d.line = self.line;
            // Found in the message being read: inside its batch, if any.
            d.pointer.insert_str(0, &self.element_base);
        }
        if anywhere {
            self.named_in_line.push((d.rule.id, d.pointer.clone()));
        }
        if !kept {
            self.not_kept.add(d.severity());
            return;
        }
        d.revision.get_or_insert(self.revision.revision);
        self.diagnostics.push(d);
    }

    /// What the units are told of the connection with each event.
    fn facts(&self) -> Facts {
        Facts {
            revision: self.revision.revision,
            initialized: self.handshake == Handshake::Answered,
            initialize_failed_at: match self.handshake {
                Handshake::Failed { line } => Some(line),
                _ => None,
            },
            lost_at: self.lost_at,
            garbled_at: self.garbled_at,
            request_limit: self.config.limits.max_outstanding_requests,
            state_limit: self.config.limits.max_state_bytes,
            plan_capability: self.plan_capability,
        }
    }

    /// The client state forgot the session at `index`: so does the
    /// validator (its track's slot stays, empty, as the state's does), and
    /// both drop their empty slots together once they outnumber the
    /// sessions shown.
    fn forgot_session(&mut self, index: usize) {
        self.recent_session = None;
        if let Some(track) = self.tracks.get_mut(index) {
            let track = std::mem::take(track);
            self.state_bytes -= track.bytes().min(self.state_bytes);
        }
        if self.state.is_sparse() {
            let state = &self.state;
            let mut index = 0;
            self.tracks.retain(|_| {
                let shown = state.session_at(index).is_some();
                index += 1;
                shown
            });
            self.state.compact();
        }
    }

    fn open_session(&mut self, session: &str) {
        if self.is_established(session) {
            return;
        }
        // The state numbers up to u32::MAX slots, far more sessions than
        // `max_sessions` lets in by default; past either, the session is not
        // tracked, and said once to be the checker's limit (its updates are
        // then no SES-UNKNOWN-SESSION of the agent's).
        let opened = self.state.session_count() < self.config.limits.max_sessions
            && self.state.open_session(session).is_some_and(|index| {
                debug_assert_eq!(index, self.tracks.len());
                self.tracks.push(SessionTrack::default());
                true
            });
        if !opened && !self.sessions_overflowed {
            self.sessions_overflowed = true;
            let limit = self.config.limits.max_sessions.min(u32::MAX as usize);
            self.emit(
                Diagnostic::new(
                    &trace_format::LIMIT,
                    format!("more than {limit} sessions on one connection; further sessions are not tracked"),
                )
                .hint("raise --max-sessions"),
            );
        }
    }
}

impl Validator {
    /// [`repeated_member`] of a value of the line being read.
    fn repeat_of(&self, raw: &RawValue, keys: &[&str]) -> Option<DuplicateMember> {
        repeated_member(raw, keys)
    }

    /// The first member name repeated anywhere in `raw`, a value of the
    /// line being read.
    fn first_repeat_in(&self, raw: &RawValue) -> Option<DuplicateMember> {
        crate::trace::first_duplicate_member(raw.get())
    }
}

/// The first of `keys` that the object `raw` repeats (serde rejects the
/// object, so the member cannot be read).
fn repeated_member(raw: &RawValue, keys: &[&str]) -> Option<DuplicateMember> {
    duplicate_keys(raw.get())
        .into_iter()
        .find(|d| keys.contains(&d.key.as_str()))
}

/// Live state held by a [`Validator`], counted per item (see
/// [`Validator::occupancy`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Occupancy {
    /// Sessions established and tracked (at most `max_sessions`).
    pub sessions: usize,
    /// Per-session slots held, forgotten sessions' empty ones included
    /// (dropped once they outnumber the sessions: at most twice
    /// `max_sessions` and 64 more).
    pub session_slots: usize,
    /// Sessions in the reference client state (the same sessions).
    pub shown_sessions: usize,
    /// Keyed plans live over all sessions.
    pub plans: usize,
    /// Keyed plans live in the fullest session (at most `max_plans_per_session`).
    pub most_plans_in_a_session: usize,
    /// Entries of the longest plan shown (at most `max_entries_per_plan`).
    pub most_entries_in_a_plan: usize,
    /// Requests in flight, sent by the client and by the agent (each at most
    /// `max_outstanding_requests`).
    pub outstanding_requests: [usize; 2],
    /// Answered and unplaced request ids remembered to name duplicates (a
    /// small constant).
    pub remembered_ids: usize,
    /// Removed plan ids remembered, over all sessions (a small constant per session).
    pub remembered_removals: usize,
    /// Diagnostics found and not yet taken with [`Validator::take_diagnostics`].
    pub pending_diagnostics: usize,
    /// Bytes of plan content in the client state (at most `max_state_bytes`).
    pub state_bytes: usize,
}

/// The outcome of checking one trace.
#[derive(Clone, Debug)]
pub struct TraceReport {
    /// The trace's name (its path, or `<stdin>`).
    pub name: String,
    /// The revision it was judged by, and why.
    pub revision: RevisionChoice,
    /// Kept diagnostics, in the order found (at most `max_diagnostics`).
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics by severity, kept or not.
    pub counts: Counts,
    /// Diagnostics per rule id (all of them, kept or not): what baselines and
    /// per-rule reports (JUnit) count.
    pub by_rule: BTreeMap<&'static str, u64>,
    /// Lines read.
    pub lines: u64,
    /// JSON-RPC messages read.
    pub messages: u64,
    /// The reference client state at the end of the trace.
    pub state: ClientState,
}

impl TraceReport {
    /// Count a diagnostic, and keep it while fewer than `max_kept` are kept.
    pub fn add(&mut self, d: Diagnostic, max_kept: usize) {
        self.counts.add(d.severity());
        *self.by_rule.entry(d.rule.id).or_default() += 1;
        if self.diagnostics.len() < max_kept {
            self.diagnostics.push(d);
        }
    }
}

/// Check a whole trace from a reader.
pub fn check_reader<R: BufRead>(name: &str, reader: R, config: Config) -> io::Result<TraceReport> {
    check_reader_then(name, reader, config)
}

/// A line read ahead by [`scout_revision`].
enum HeldLine {
    Bytes(Vec<u8>),
    TooLong { bytes: u64 },
}

/// The validator [`check_reader`] judges the trace in `data` with: the
/// same read ahead to the `initialize` answer (see [`scout_revision`]),
/// for checks that then feed the lines themselves (the `stream` fuzz
/// invariant compares the two).
pub(crate) fn validator_for_trace(data: &[u8], config: Config) -> io::Result<Validator> {
    let mut lines = LineReader::new(data, config.limits.max_line_bytes);
    Ok(scout_revision(config, &mut lines)?.0)
}

/// Most bytes of a trace's first lines read ahead to find the revision
/// its `initialize` answer names (a handshake is a few lines).
const SCOUTED_BYTES: usize = 256 * 1024;

/// The validator for a trace read from `lines`, and the lines read ahead
/// to make it: without `--spec`, the lines up to the `initialize` answer
/// (at most [`SCOUTED_BYTES`]) are read once to learn the revision the
/// trace turns out to have, so that they are judged by it too, not by the
/// provisional v1 (a v2 batch before the answer is v2's).
fn scout_revision<R: BufRead>(
    config: Config,
    lines: &mut LineReader<R>,
) -> io::Result<(Validator, Vec<(u64, HeldLine)>)> {
    let mut held = Vec::new();
    if config.spec != SpecChoice::Auto {
        return Ok((Validator::new(config), held));
    }
    let mut scout = Validator::new(config.clone());
    let mut bytes_held = 0;
    while !scout.revision_settled() && bytes_held < SCOUTED_BYTES {
        let Some((line_no, line)) = lines.next_line()? else {
            break;
        };
        scout.push_line(line_no, line);
        scout.take_diagnostics();
        held.push((
            line_no,
            match line {
                RawLine::Bytes(bytes) => {
                    bytes_held += bytes.len() + 1;
                    HeldLine::Bytes(bytes.to_vec())
                }
                RawLine::TooLong { bytes } => {
                    bytes_held += 1;
                    HeldLine::TooLong { bytes }
                }
            },
        ));
    }
    Ok((Validator::new(config).with_revision_of(&scout), held))
}

fn check_reader_then<R: BufRead>(name: &str, reader: R, config: Config) -> io::Result<TraceReport> {
    let max_line = config.limits.max_line_bytes;
    let max_kept = config.limits.max_diagnostics;
    let mut lines = LineReader::new(reader, max_line);
    let (mut validator, held) = scout_revision(config, &mut lines)?;
    let mut report = TraceReport {
        name: name.to_owned(),
        revision: validator.revision().clone(),
        diagnostics: Vec::new(),
        counts: Counts::default(),
        by_rule: BTreeMap::new(),
        lines: 0,
        messages: 0,
        state: ClientState::new(),
    };
    let mut push = |line_no: u64, line: RawLine<'_>, report: &mut TraceReport| {
        report.lines = line_no;
        validator.push_line(line_no, line);
        for d in validator.take_diagnostics() {
            report.add(d, max_kept);
        }
        report.counts.merge(validator.take_not_kept());
    };
    for (line_no, line) in held {
        match line {
            HeldLine::Bytes(bytes) => push(line_no, RawLine::Bytes(&bytes), &mut report),
            HeldLine::TooLong { bytes } => push(line_no, RawLine::TooLong { bytes }, &mut report),
        }
    }
    while let Some((line_no, line)) = lines.next_line()? {
        push(line_no, line, &mut report);
    }
    report.diagnostics.sort_by_key(|d| d.line);
    report.revision = validator.revision().clone();
    report.messages = validator.messages();
    report.state = validator.into_state();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::handshake::INITIALIZE_IN_FLIGHT_KEPT;
    use super::head::{read_head, PlanRead};
    use super::updates::reread_update;
    use super::*;
    use crate::rules::shape;
    use crate::spec::messages::PlanMessage;
    use crate::spec::Revision;
    use proptest::prelude::*;

    /// An answered `initialize` (v1, with the plan capability) and an
    /// answered `session/new` that opens session `s1`.
    const HANDSHAKE: &str = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}"#,
        "\n",
    );

    fn check(tail: &str) -> TraceReport {
        let trace = format!("{HANDSHAKE}{tail}\n");
        check_reader("t", trace.as_bytes(), Config::default()).unwrap()
    }

    fn rules(report: &TraceReport) -> Vec<(&'static str, u64, &str)> {
        report
            .diagnostics
            .iter()
            .map(|d| (d.rule.id, d.line, d.pointer.as_str()))
            .collect()
    }

    #[test]
    fn positional_update_params_are_not_read() {
        // serde reads a struct from an array by position; ACP params are objects.
        let report = check(
            r#"{"jsonrpc":"2.0","method":"session/update","params":["s1",{"sessionUpdate":"plan","entries":[]}]}"#,
        );
        assert_eq!(rules(&report), vec![("SES-UPDATE-PARAMS", 5, "/params")]);
        assert_eq!(report.state.session("s1").unwrap().legacy, None);
    }

    #[test]
    fn update_that_is_an_array_is_reported() {
        let report = check(
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":["plan_update"]}}"#,
        );
        assert_eq!(
            rules(&report),
            vec![("SES-UPDATE-PARAMS", 5, "/params/update")]
        );
    }

    /// A batched prompt whose `method` is repeated is read both ways: each
    /// lifecycle-sensitive value is warned of once.
    #[test]
    fn a_repeated_method_in_a_v2_batch_is_judged_under_each_value() {
        let trace = concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2,"capabilities":{}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":2,"capabilities":{}}}"#,
            "\n",
            r#"[{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}},{"jsonrpc":"2.0","id":2,"method":"session/new","method":"session/new","params":{"cwd":"/w","mcpServers":[]}}]"#,
            "\n",
        );
        let config = Config {
            spec: crate::spec::SpecChoice::Fixed(Revision::V2),
            ..Config::default()
        };
        let report = check_reader("t", trace.as_bytes(), config).unwrap();
        let lifecycle: Vec<_> = rules(&report)
            .into_iter()
            .filter(|(id, _, _)| *id == "ENV-BATCH-LIFECYCLE")
            .collect();
        assert_eq!(lifecycle, vec![("ENV-BATCH-LIFECYCLE", 3, "/1/method")]);
        assert!(report
            .diagnostics
            .iter()
            .any(|d| d.rule.id == "ENV-DUPLICATE-KEY"));
    }

    /// Without `--spec`, each initialize's capabilities are judged when
    /// its own answer comes, at its own line, whatever the order.
    #[test]
    fn two_initialize_requests_in_flight_are_judged_each_at_its_line() {
        let first = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":{}}}}"#;
        let second = r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"plan":true}}}"#;
        let answer = |id: u32| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"result":{{"protocolVersion":1,"agentCapabilities":{{}}}}}}"#
            )
        };
        for answers in [[1, 2], [2, 1]] {
            let trace = format!(
                "{first}\n{second}\n{}\n{}\n",
                answer(answers[0]),
                answer(answers[1])
            );
            let report = check_reader("t", trace.as_bytes(), Config::default()).unwrap();
            // The second advertises otherwise: the ambiguity is the client's.
            assert_eq!(
                rules(&report),
                vec![
                    ("INIT-CAPABILITIES-DIFFER", 2, "/params/clientCapabilities"),
                    ("CAP-VALUE", 2, "/params/clientCapabilities/plan")
                ],
                "answers {answers:?}"
            );
        }
    }

    /// Without --spec, lines before the initialize answer are judged by the
    /// revision the answer names: a batched initialize of a v2 trace is
    /// v2's lifecycle warning, not v1's batch info; under a version no
    /// revision defines, neither.
    #[test]
    fn lines_before_the_answer_are_judged_by_the_trace_revision() {
        let trace = |version: u32| {
            format!(
                "[{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{{\"protocolVersion\":{version}}}}}]\n\
                 {{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{{\"protocolVersion\":{version}}}}}\n"
            )
        };
        let check =
            |version: u32| check_reader("t", trace(version).as_bytes(), Config::default()).unwrap();
        assert_eq!(
            rules(&check(2)),
            vec![("ENV-BATCH-LIFECYCLE", 1, "/0/method")]
        );
        assert_eq!(check(2).revision.revision, Revision::V2);
        assert_eq!(rules(&check(1)), vec![("ENV-BATCH", 1, "")]);
        assert_eq!(
            rules(&check(3)),
            vec![("INIT-VERSION-UNKNOWN", 2, "/result/protocolVersion")]
        );
    }

    /// Past the initialize requests whose capabilities are kept, the
    /// oldest is forgotten: said once as the checker's limit, and its
    /// answer leaves the capability unknown, so no agent is judged on it.
    #[test]
    fn an_initialize_forgotten_at_the_limit_judges_no_one() {
        let request = |id: usize| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":1,"clientCapabilities":{{}}}}}}"#
            )
        };
        let mut trace = String::new();
        for id in 1..=INITIALIZE_IN_FLIGHT_KEPT + 1 {
            trace += &request(id);
            trace.push('\n');
        }
        trace += r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}"#;
        trace += "\n";
        trace += r#"{"jsonrpc":"2.0","id":9,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}"#;
        trace += "\n";
        trace += r#"{"jsonrpc":"2.0","id":9,"result":{"sessionId":"s1"}}"#;
        trace += "\n";
        trace += r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"planId":"p","type":"items","entries":[]}}}}"#;
        trace += "\n";
        let report = check_reader("t", trace.as_bytes(), Config::default()).unwrap();
        let line = INITIALIZE_IN_FLIGHT_KEPT as u64 + 1;
        assert_eq!(rules(&report), vec![("TRACE-LIMIT", line, "")]);
        // The first request's own answer, had it been kept, forbids it.
        let kept = trace.replacen(&(request(INITIALIZE_IN_FLIGHT_KEPT + 1) + "\n"), "", 1);
        let report = check_reader("t", kept.as_bytes(), Config::default()).unwrap();
        assert_eq!(
            rules(&report),
            vec![("CAP-PLAN-OPS", 8, "/params/update/sessionUpdate")]
        );
    }

    #[test]
    fn a_session_message_after_a_failed_initialize_says_it_failed() {
        let trace = concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#,
            "\n",
        );
        let report = check_reader("t", trace.as_bytes(), Config::default()).unwrap();
        assert_eq!(rules(&report), vec![("SES-BEFORE-INIT", 3, "/method")]);
        let message = &report.diagnostics[0].message;
        assert!(
            message.contains("answered with an error (line 2)"),
            "{message}"
        );
        assert!(
            !message.contains("before `initialize` was answered"),
            "{message}"
        );
        // Before any answer, the words say so.
        let unanswered = concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#,
            "\n",
        );
        let report = check_reader("t", unanswered.as_bytes(), Config::default()).unwrap();
        assert!(report.diagnostics[0]
            .message
            .contains("before `initialize` was answered"));
    }

    #[test]
    fn a_failed_session_load_establishes_nothing() {
        let report = check(concat!(
            r#"{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"s2","cwd":"/w","mcpServers":[]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"Resource not found"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"plan","entries":[]}}}"#,
            "\n",
            // Loading a session that is already established and failing keeps it.
            r#"{"jsonrpc":"2.0","id":4,"method":"session/load","params":{"sessionId":"s1","cwd":"/w","mcpServers":[]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[]}}}"#,
        ));
        assert_eq!(
            rules(&report),
            vec![("SES-UNKNOWN-SESSION", 7, "/params/sessionId")]
        );
        assert!(report.state.session("s2").is_none());
        assert_eq!(report.state.session("s1").unwrap().legacy, Some(vec![]));
    }

    /// A session/new answered with the id of a session whose load is in
    /// flight establishes it: the load's failure later takes nothing back,
    /// on the one-pass read of the answer as on the exact one (the one-pass
    /// read used to open the session and leave the load able to forget it).
    #[test]
    fn a_session_opened_while_its_load_is_in_flight_outlives_the_load() {
        let report = check(concat!(
            r#"{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"s2","cwd":"/w","mcpServers":[]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#,
            "\n",
            // The direction said, as a recorder writes it: the one-pass
            // read takes the answer.
            r#"{"direction":"agent_to_client","message":{"jsonrpc":"2.0","id":4,"result":{"sessionId":"s2"}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32002,"message":"Resource not found"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"plan","entries":[]}}}"#,
        ));
        assert_eq!(rules(&report), vec![]);
        assert_eq!(report.state.session("s2").unwrap().legacy, Some(vec![]));
    }

    #[test]
    fn positional_session_new_result_opens_no_session() {
        let trace = concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"result":["s1"]}"#,
            "\n",
        );
        let report = check_reader("t", trace.as_bytes(), Config::default()).unwrap();
        assert_eq!(report.state.session_count(), 0);
    }

    /// Two prompts in one batch are two turns: each is remembered by its
    /// place in the batch, not by the line they share (the second used to
    /// take the first's place, so a cancel of the first session found no
    /// prompt in flight and an update after its cancelled turn went unsaid).
    #[test]
    fn prompts_batched_on_one_line_are_separate_turns() {
        let report = check(concat!(
            r#"{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":3,"result":{"sessionId":"s2"}}"#,
            "\n",
            r#"[{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}},{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":"s2","prompt":[]}}]"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":5,"result":{"stopReason":"cancelled"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[]}}}"#,
        ));
        assert_eq!(
            rules(&report),
            vec![
                ("ENV-BATCH", 7, ""),
                (
                    "SES-UPDATE-AFTER-CANCEL",
                    10,
                    "/params/update/sessionUpdate"
                )
            ]
        );
    }

    /// What the validator keeps per session and per plan is kept by index
    /// in the client state's order: a session forgotten (a failed load) and
    /// a plan removed move the later ones down, and what is kept moves with
    /// them. The bytes counted are those of a trace that showed only the
    /// plans left.
    #[test]
    fn per_session_and_per_plan_memory_follows_the_state() {
        fn update(session: &str, update: &str) -> String {
            format!(
                r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"{session}","update":{update}}}}}"#
            ) + "\n"
        }
        fn markdown(id: &str, text: &str) -> String {
            format!(
                r#"{{"sessionUpdate":"plan_update","plan":{{"type":"markdown","planId":"{id}","content":"{text}"}}}}"#
            )
        }
        let open_s3 = concat!(
            r#"{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":6,"result":{"sessionId":"s3"}}"#,
            "\n",
        );
        let trace = [
            HANDSHAKE.to_owned(),
            r#"{"jsonrpc":"2.0","id":5,"method":"session/load","params":{"sessionId":"s2","cwd":"/w","mcpServers":[]}}"#.to_owned() + "\n",
            open_s3.to_owned(),
            update("s3", &markdown("p1", "aaaa")),
            update("s3", &markdown("p2", "bbbbbbbbbbbb")),
            update("s3", &markdown("p3", "c")),
            // s2 is forgotten: s3 moves from index 2 to 1.
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"no such session"}}"#.to_owned() + "\n",
            update("s3", r#"{"sessionUpdate":"plan_removed","planId":"p2"}"#),
            update("s3", &markdown("p3", "cc")),
            update("s3", &markdown("p1", "aaaa")),
        ]
        .concat();
        let left = [
            HANDSHAKE.to_owned(),
            open_s3.to_owned(),
            update("s3", &markdown("p1", "aaaa")),
            update("s3", &markdown("p3", "cc")),
        ]
        .concat();
        let occupancy = |trace: &str| {
            let mut validator = Validator::new(Config::default());
            for (n, line) in trace.lines().enumerate() {
                validator.push_record(n as u64 + 1, line.as_bytes());
            }
            (
                validator.occupancy().state_bytes,
                validator.into_state().to_json(),
            )
        };
        let (bytes, state) = occupancy(&trace);
        assert_eq!((bytes, &state), (occupancy(&left).0, &occupancy(&left).1));
        assert_eq!(
            state["sessions"]["s3"]["plans"],
            serde_json::json!({
                "p1": {"type": "markdown", "content": "aaaa"},
                "p3": {"type": "markdown", "content": "cc"},
            })
        );
        assert!(state["sessions"].get("s2").is_none());
    }

    fn update() -> impl Strategy<Value = String> {
        let member = prop::sample::select(vec![
            "\"sessionUpdate\":\"plan\"",
            "\"sessionUpdate\":\"plan_removed\"",
            "\"sessionUpdate\":\"agent_message_chunk\"",
            "\"sessionUpdate\":\"pl\\u0061n\"",
            "\"sessionUpdate\":1",
            "\"sessionUpdate\":null",
            "\"entries\":[]",
            "\"entries\":[{\"content\":\"a\",\"priority\":\"high\",\"status\":\"pending\"}]",
            "\"entries\":[{\"content\":\"a\"}]",
            "\"planId\":\"p\"",
            "\"content\":{\"text\":\"}\"}",
        ]);
        prop_oneof![
            prop::collection::vec(member, 0..4).prop_map(|m| format!("{{{}}}", m.join(","))),
            Just("null".to_owned()),
            Just("[\"plan\"]".to_owned()),
            Just("\"plan\"".to_owned()),
        ]
    }

    fn params() -> impl Strategy<Value = String> {
        let session = prop::sample::select(vec!["\"s\"", "\"\\u0073\"", "null", "1", "[]"]);
        let member = prop_oneof![
            session.prop_map(|s| format!("\"sessionId\":{s}")),
            update().prop_map(|u| format!("\"update\":{u}")),
            Just("\"other\":[1,{\"update\":2}]".to_owned()),
        ];
        prop::collection::vec(member, 0..4).prop_map(|m| format!("{{{}}}", m.join(",")))
    }

    proptest! {
        /// The one-pass head read accepts only what the member-by-member
        /// read accepts, with the same session and kind; the plan message it
        /// reads is the one the fast path of the strict parser reads from
        /// the update; and the plan re-read finds the same update.
        #[test]
        fn update_head_agrees_with_the_exact_read(
            params in params(),
            revision in prop::sample::select(Revision::ALL.to_vec()),
        ) {
            let raw: Box<RawValue> = serde_json::from_str(&params).map_err(|e| TestCaseError::fail(e.to_string()))?;
            if let Some(head) = read_head(raw.get(), revision, 100) {
                let mut validator = Validator::new(Config::default());
                let exact = validator.read_update_params(Some(&raw));
                prop_assert!(validator.take_diagnostics().is_empty());
                let exact = exact.ok_or_else(|| TestCaseError::fail("exact read failed"))?;
                prop_assert_eq!(&head.session, &exact.session);
                prop_assert_eq!(&head.kind, &exact.kind);
                let update = exact.update.map(RawValue::get).unwrap_or_default();
                let fast = shape::parse_well_formed(update, &exact.kind, revision, 100);
                match head.plan {
                    PlanRead::WellFormed(message) => prop_assert_eq!(Some(message), fast),
                    PlanRead::Declined => prop_assert_eq!(None, fast),
                    PlanRead::NotRead => {}
                }
                let again = reread_update(Some(raw.get()));
                prop_assert_eq!(exact.update.map(RawValue::get), again);
            }
        }
    }

    #[test]
    fn well_formed_update_params_take_the_one_pass() {
        let params = r#"{"update":{"sessionUpdate":"plan","entries":[]},"sessionId":"s"}"#;
        let head = read_head(params, Revision::V1, 100).expect("one pass");
        assert_eq!((head.session.as_ref(), head.kind.as_ref()), ("s", "plan"));
        assert!(matches!(
            head.plan,
            PlanRead::WellFormed(PlanMessage::Legacy(_))
        ));
        // Not first: read again later.
        let params = r#"{"sessionId":"s","update":{"entries":[],"sessionUpdate":"plan"}}"#;
        let head = read_head(params, Revision::V1, 100).expect("one pass");
        assert!(matches!(head.plan, PlanRead::NotRead));
        // Repeated `sessionUpdate` is for the exact read to name.
        let params = r#"{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[],"sessionUpdate":"plan"}}"#;
        assert!(read_head(params, Revision::V1, 100).is_none());
        let params = r#"{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{}]}}"#;
        assert!(read_head(params, Revision::V1, 100).is_none());
    }
}
