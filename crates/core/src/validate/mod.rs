//! The engine: feeds records through the layers and the rules, and owns the
//! per-connection state (handshake, revision, sessions, requests in flight).
//!
//! Memory is bounded by live state and the limits in [`Limits`], never by
//! the length of the trace.

mod files;
mod head;
mod session;
pub mod skim;
pub mod skim_rpc;
#[cfg(test)]
mod test_lines;
mod turns;

pub use files::{check_paths, default_jobs};

use crate::catalog::Counts;
use crate::diag::Diagnostic;
use crate::jsonrpc::{self, Direction, Frame, RequestOutcome, ResponseOutcome};
use crate::rules::{cap, env, full, id as id_rules, ses, shape, trace_format};
use crate::spec::capability::{self, CapabilityKeys};
use crate::spec::messages::{PlanContent, PlanMessage};
use crate::spec::{RevisionChoice, SpecChoice};
use crate::state::ClientState;
use crate::trace::interop::{self, Unpredictable};
use crate::trace::{
    duplicate_keys, first_duplicate_member, is_object, last_member, parse_message, parse_record,
    DuplicateMember, Limits, LineObject, LineReader, RawLine, Record, RecordFault,
};
use head::PlanRead;
use serde::Deserialize;
use serde_json::value::RawValue;
use session::{PlanSlot, SessionTrack};
use skim::{SkimFraming, Skimmer};
use skim_rpc::RpcSkimmer;
use std::borrow::Cow;
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
    pub spec: SpecChoice,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handshake {
    NotStarted,
    Answered,
}

/// An `initialize` request awaiting its answer.
#[derive(Debug)]
struct PendingInitialize {
    at: At,
    /// Its plan capability keys, in every reading of the request.
    keys: CapabilityKeys,
    /// The pointer to it inside its batch (`/2`), or empty.
    base: String,
    /// Its line, up to `INITIALIZE_LINE_KEPT` bytes, for the snippets of
    /// diagnostics about its capabilities found when it is answered.
    bytes: Vec<u8>,
}

/// Most `initialize` requests awaiting an answer whose capabilities are
/// kept: a client sends one, or retries one; past this the oldest is
/// forgotten, and an answer to it cannot tell what the client advertised.
const INITIALIZE_IN_FLIGHT_KEPT: usize = 4;

impl PendingInitialize {
    /// `diagnostics` about its capabilities (CAP-*), placed at its line
    /// and inside its batch, with a snippet of its line when that was kept.
    fn place(&self, mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        for d in &mut diagnostics {
            d.line = self.at.0;
            d.pointer.insert_str(0, &self.base);
            if !self.bytes.is_empty() {
                d.snippet = Some(crate::text::snippet(&self.bytes, &d.pointer));
            }
        }
        diagnostics
    }
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
    plan_capability: cap::Advertised,
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
    /// Buffers of the one-pass read of updates not about plans.
    skimmer: Skimmer,
    /// Buffers of the one-pass read of requests and responses.
    rpc_skimmer: RpcSkimmer,
    /// Whether lines that [`skim`] reads skip the exact path (tests turn it
    /// off to compare).
    skim: bool,
    /// The last line the checker's limits kept it from reading (too long,
    /// too deep), 0 if none: it may have held any message, so no rule
    /// judges a later one as if it were known not to be there.
    lost_at: u64,
}

/// Most of the initialize request kept for snippets.
const INITIALIZE_LINE_KEPT: usize = 64 * 1024;
/// Diagnostics per line whose snippet is centred on their pointer.
const CENTRED_SNIPPETS_PER_LINE: usize = 16;
/// Bytes of a line enough for a snippet of its start.
const SNIPPET_HEAD_BYTES: usize = 1024;

impl Validator {
    pub fn new(config: Config) -> Self {
        Validator {
            correlator: jsonrpc::Correlator::new(config.limits.max_outstanding_requests),
            revision: capability::provisional_revision(config.spec),
            handshake: Handshake::NotStarted,
            initializing: Vec::new(),
            plan_capability: cap::Advertised::No,
            tracks: Vec::new(),
            recent_session: None,
            sessions_overflowed: false,
            lost_at: 0,
            state: ClientState::new(),
            diagnostics: Vec::new(),
            not_kept: Counts::default(),
            line: 0,
            messages: 0,
            loading: FoldMap::default(),
            loaded_provisionally: FoldMap::default(),
            element_base: String::new(),
            element: 0,
            state_bytes: 0,
            turns: Turns::default(),
            skimmer: Skimmer::default(),
            rpc_skimmer: RpcSkimmer::default(),
            skim: true,
            config,
        }
    }

    /// Read every line the exact way, without the one-pass read of updates
    /// not about plans ([`skim`]): what tests compare the fast path with.
    pub fn exact_only(mut self) -> Self {
        self.skim = false;
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

    /// Feed one line of a trace (as read by [`LineReader`]).
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
        if self.skim {
            let max_depth = self.config.limits.max_depth;
            // Requests and responses first when the line's start names no
            // update (either read declines the other's lines, only later).
            let rpc_first = !names_update(bytes);
            if rpc_first && self.skimmed_rpc(bytes, None, SkimFraming::Record) {
                self.after_message(before, bytes);
                return;
            }
            if let Some(update) = self
                .skimmer
                .skim_update(bytes, max_depth, SkimFraming::Record)
            {
                let direction = update.direction.and_then(Direction::parse);
                let plan = self.skimmed_plan(&update);
                self.skimmed_update(direction, update, plan);
                self.after_message(before, bytes);
                return;
            }
            if !rpc_first && self.skimmed_rpc(bytes, None, SkimFraming::Record) {
                self.after_message(before, bytes);
                return;
            }
        }
        match parse_record(bytes, self.config.limits.max_depth) {
            Ok(Record::Bare(object)) => self.message(None, &object),
            Ok(Record::Envelope {
                direction,
                message,
                remarks,
            }) => {
                for remark in &remarks {
                    self.emit(trace_format::envelope_remark(remark));
                }
                self.message(Direction::parse(direction), &message)
            }
            Err(fault) => self.record_fault(None, bytes, fault),
        }
        self.after_message(before, bytes);
    }

    /// `bytes` after a leading byte order mark, which is said: a message's
    /// (`ENV-BOM`, its sender's), or in a trace (`record`) the trace file's
    /// before an envelope, and on the first line too, where whatever wrote
    /// the file may have put it as well as the sender (no one is judged on
    /// the guess). A line of nothing but the mark is then a blank line.
    fn past_byte_order_mark<'b>(&mut self, bytes: &'b [u8], record: bool) -> &'b [u8] {
        let Some(rest) = bytes.strip_prefix(BYTE_ORDER_MARK) else {
            return bytes;
        };
        let text = std::str::from_utf8(rest).unwrap_or_default();
        if record && crate::trace::gives_member(text, &["direction", "message"]) {
            self.emit(trace_format::envelope_byte_order_mark());
        } else if record && self.line == 1 {
            self.emit(trace_format::file_byte_order_mark());
        } else {
            self.emit(env::byte_order_mark());
        }
        rest
    }

    /// A line the one-object read refused. A batch and a message that
    /// repeats a member name are still read (nothing hides a violation);
    /// anything else is a diagnostic. `direction` is known in live modes.
    fn record_fault(&mut self, direction: Option<Direction>, bytes: &[u8], fault: RecordFault) {
        let text = std::str::from_utf8(bytes).unwrap_or_default();
        match fault {
            RecordFault::Batch => return self.batch(direction, text, ""),
            RecordFault::DuplicateKey {
                in_envelope: false, ..
            } => return self.repeated_members(direction, text, direction.is_none()),
            RecordFault::NotObject { in_envelope: true }
            | RecordFault::DuplicateKey {
                in_envelope: true, ..
            } if direction.is_none() => {
                if let Some((direction, message)) = envelope_message(text) {
                    let read_apart =
                        message.get().starts_with('[') || message.get().starts_with('{');
                    if read_apart {
                        let max_depth = self.config.limits.max_depth;
                        for remark in crate::trace::remarks_of_envelope(bytes, max_depth) {
                            self.emit(trace_format::envelope_remark(&remark));
                        }
                    }
                    if message.get().starts_with('[') {
                        return self.batch(direction, message.get(), "");
                    }
                    if message.get().starts_with('{') {
                        return self.repeated_members(direction, message.get(), false);
                    }
                }
            }
            _ => {}
        }
        self.unread(&fault);
    }

    /// A line (or batch element) not read as a message, for `fault`: said,
    /// and, when the checker's limits are why, lost.
    fn unread(&mut self, fault: &RecordFault) {
        if matches!(fault, RecordFault::TooDeep { .. }) {
            self.lose_a_message();
        }
        if let Some(d) = trace_format::record_fault(fault).or_else(|| env::record_fault(fault)) {
            self.emit(d);
        }
    }

    /// A line the checker's limits kept it from reading (`TRACE-LIMIT`):
    /// it may have been any message, a request whose answer comes later as
    /// much as an update or an answer the rest relies on.
    fn lose_a_message(&mut self) {
        self.lost_at = self.line;
        self.correlator.lose_a_message();
    }

    /// A JSON-RPC batch: legal under v2 (only an empty one is an error),
    /// noted under v1 and the draft; each element is checked as a message,
    /// with pointers into the batch (`/0/...`).
    fn batch(&mut self, direction: Option<Direction>, text: &str, base: &str) {
        // Read one element at a time, in one pass: no list of the elements
        // (a hostile batch of millions of tiny ones). What depends on the
        // count waits for the end, kept small: a lifecycle-sensitive method
        // as its element's number and the method's, not as a diagnostic
        // (a 16 MB batch of `session/new` held 670 922 of them: 439 MB).
        let before = self.diagnostics.len();
        let mut lifecycle: Vec<(u32, u8, Option<Direction>)> = Vec::new();
        let mut elements = 0usize;
        let read = crate::trace::each_element(text, |element| {
            let index = elements;
            elements += 1;
            self.element_base = format!("{base}/{index}");
            self.element = u32::try_from(index + 1).unwrap_or(u32::MAX);
            match element.get().as_bytes().first() {
                Some(b'{') => {
                    let parsed = serde_json::from_str::<LineObject<'_>>(element.get());
                    // Every `method` the element carries: a repeated one is
                    // read each way, so each value is judged.
                    let methods: Vec<&serde_json::value::RawValue> = match &parsed {
                        Ok(object) => object.method.into_iter().collect(),
                        Err(_) => crate::trace::members_named(element.get(), "method"),
                    };
                    let mut seen: Vec<std::borrow::Cow<'_, str>> = Vec::new();
                    for raw in methods {
                        let Ok(method) =
                            serde_json::from_str::<std::borrow::Cow<'_, str>>(raw.get())
                        else {
                            continue;
                        };
                        if seen.contains(&method) {
                            continue;
                        }
                        let sensitive = env::LIFECYCLE_SENSITIVE.iter().position(|m| *m == method);
                        if let Some(number) = sensitive.and_then(|n| u8::try_from(n).ok()) {
                            let sender =
                                direction.or_else(|| jsonrpc::direction_of_method(&method));
                            lifecycle.push((
                                u32::try_from(index).unwrap_or(u32::MAX),
                                number,
                                sender,
                            ));
                        }
                        seen.push(method);
                    }
                    match parsed {
                        Ok(object) => self.message(direction, &object),
                        Err(_) => self.repeated_members(direction, element.get(), false),
                    }
                }
                _ => {
                    self.messages += 1;
                    self.emit(Diagnostic::new(
                        &env::OBJECT,
                        "a batch element is not an object, so not a JSON-RPC message",
                    ));
                }
            }
            Some(())
        });
        self.element_base.clear();
        self.element = 0;
        if read.is_none() && elements == 0 {
            return;
        }
        // Judged by the revision in force after the batch: a batch that
        // carries the handshake is read under the revision it negotiates.
        let allowed = self.revision.revision.spelling().batches;
        if allowed {
            for (index, number, sender) in lifecycle {
                let method = env::LIFECYCLE_SENSITIVE.get(usize::from(number)).copied();
                let pointer = format!("{base}/{index}");
                let d = method.and_then(|m| env::batched_lifecycle(m, sender, &pointer, elements));
                if let Some(d) = d {
                    self.emit(d);
                }
            }
        }
        if elements == 0 || !allowed {
            // The note heads the batch's findings: when they filled the
            // report, it takes the place of the last one kept.
            let max = self.config.limits.max_diagnostics;
            if self.diagnostics.len() >= max && self.diagnostics.len() > before {
                if let Some(last) = self.diagnostics.pop() {
                    self.not_kept.add(last.severity());
                }
            }
            let kept = self.diagnostics.len();
            self.emit(env::batch(elements, allowed).at(base));
            if self.diagnostics.len() > kept {
                if let Some(note) = self.diagnostics.pop() {
                    self.diagnostics.insert(before.min(kept), note);
                }
            }
        }
    }

    /// A message object (or, for a trace line, `record`, an envelope) that
    /// repeats member names at its top level: the repeat is reported, and
    /// the line is read once per distinct reading (one for each value of a
    /// repeated name; identical repeats make one reading).
    fn repeated_members(&mut self, direction: Option<Direction>, text: &str, record: bool) {
        let envelope = record && crate::trace::gives_member(text, &["direction", "message"]);
        for repeat in duplicate_keys(text) {
            if envelope {
                self.emit(Diagnostic::new(
                    &trace_format::RECORD,
                    format!(
                        "envelope member `{}` appears twice; the line is read under each value",
                        crate::text::shorten(&repeat.key, 60)
                    ),
                ));
            } else {
                self.emit(env::duplicate_member(
                    &repeat.pointer,
                    &repeat.key,
                    "the message is checked under each of its values",
                ));
            }
        }
        let messages = self.messages;
        // Read one at a time (a hostile line costs one reading at a time).
        let max_depth = self.config.limits.max_depth;
        let complete = crate::trace::each_top_level_reading(text, |reading| {
            if envelope {
                match parse_record(reading.as_bytes(), max_depth) {
                    Ok(Record::Envelope {
                        direction,
                        message,
                        remarks,
                    }) => {
                        for remark in &remarks {
                            self.emit(trace_format::envelope_remark(remark));
                        }
                        self.message(Direction::parse(direction), &message);
                    }
                    Ok(Record::Bare(object)) => self.message(None, &object),
                    Err(fault) => self.unread(&fault),
                }
            } else if let Ok(object) = serde_json::from_str::<LineObject<'_>>(reading) {
                self.message(direction, &object);
            }
        });
        if complete == Some(false) {
            self.emit(env::message_readings_cut());
        }
        // One message, however many readings.
        self.messages = messages + 1;
    }

    /// Judge the capabilities of an initialize read whole, give new
    /// diagnostics their snippets, and keep the initialize line.
    fn after_message(&mut self, before: usize, bytes: &[u8]) {
        if !self.initializing.is_empty() {
            self.initialize_read(bytes);
        }
        self.give_snippets(before, bytes);
    }

    /// What an initialize request of the line just read needs once every
    /// reading of the line is read.
    #[cold]
    fn initialize_read(&mut self, bytes: &[u8]) {
        let line = self.line;
        match self.config.spec {
            // With the revision given, the client's capabilities are judged
            // as sent, every reading of the line read: an initialize that is
            // never answered, or answered with an error, is judged too.
            SpecChoice::Fixed(revision) => {
                let found: Vec<Diagnostic> = (self.initializing.iter())
                    .filter(|p| p.at.0 == line)
                    .flat_map(|p| p.place(cap::read_advertisement(&p.keys, revision).1))
                    .collect();
                for d in found {
                    self.emit(d);
                }
            }
            // Otherwise the revision is the one its answer negotiates.
            SpecChoice::Auto => {
                for pending in self.initializing.iter_mut().filter(|p| p.at.0 == line) {
                    pending.bytes = bytes[..bytes.len().min(INITIALIZE_LINE_KEPT)].to_vec();
                }
            }
        }
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
        if self.skim {
            let max_depth = self.config.limits.max_depth;
            let rpc_first = !names_update(bytes);
            if rpc_first && self.skimmed_rpc(bytes, Some(direction), SkimFraming::Message) {
                self.after_message(before, bytes);
                return;
            }
            if let Some(update) = self
                .skimmer
                .skim_update(bytes, max_depth, SkimFraming::Message)
            {
                let plan = self.skimmed_plan(&update);
                self.skimmed_update(Some(direction), update, plan);
                self.after_message(before, bytes);
                return;
            }
            if !rpc_first && self.skimmed_rpc(bytes, Some(direction), SkimFraming::Message) {
                self.after_message(before, bytes);
                return;
            }
        }
        match parse_message(bytes, self.config.limits.max_depth) {
            Ok(object) => self.message(Some(direction), &object),
            Err(fault) => self.record_fault(Some(direction), bytes, fault),
        }
        self.after_message(before, bytes);
    }

    fn emit(&mut self, mut d: Diagnostic) {
        if self.diagnostics.len() >= self.config.limits.max_diagnostics {
            self.not_kept.add(d.severity());
            return;
        }
        if d.line == 0 {
            d.line = self.line;
            // Found in the message being read: inside its batch, if any.
            d.pointer.insert_str(0, &self.element_base);
        }
        d.revision.get_or_insert(self.revision.revision);
        self.diagnostics.push(d);
    }

    /// A well-formed `session/update` notification read by [`skim`]: what
    /// [`Validator::message`], [`Validator::call`] and
    /// [`Validator::session_update`] do with one, given its session, kind
    /// and `update` object.
    fn skimmed_update(
        &mut self,
        direction: Option<Direction>,
        update: skim::SkimmedUpdate<'_>,
        plan: PlanRead,
    ) {
        self.messages += 1;
        let method = "session/update";
        let Some(direction) = direction.or_else(|| jsonrpc::direction_of_method(method)) else {
            self.emit(trace_format::unplaced_method(method));
            return;
        };
        if direction == Direction::ClientToAgent {
            self.emit(ses::update_from_client());
            return;
        }
        // An agent's update before the initialize answer breaks no MUST of
        // the agent's (SES-BEFORE-INIT quotes the client's): it names a
        // session that cannot exist yet, which SES-UNKNOWN-SESSION says.
        self.update_body(
            update.session,
            update.kind,
            plan,
            Some(update.update),
            None,
            true,
        );
    }

    /// The plan message of a skimmed plan update, typed in the skim's pass
    /// when it could be ([`Skimmer::typed_plan`]); else it is read from the
    /// update's text as before.
    fn skimmed_plan(&self, update: &skim::SkimmedUpdate<'_>) -> PlanRead {
        if !shape::PLAN_KINDS.contains(&update.kind) {
            return PlanRead::NotRead;
        }
        let revision = self.revision.revision;
        let max_entries = self.config.limits.max_entries_per_plan;
        match self.skimmer.typed_plan(update.line, revision, max_entries) {
            Some(message) => PlanRead::WellFormed(Box::new(message)),
            None => PlanRead::NotRead,
        }
    }

    /// Whether the session of an update is established; if not, said once
    /// per update (unless sessions overflowed the limit).
    /// The index of the session an update names, or SES-UNKNOWN-SESSION.
    fn update_session(&mut self, session: &str) -> Option<usize> {
        if let Some((recent, index)) = &self.recent_session {
            if recent == session {
                return Some(*index);
            }
        }
        let Some(index) = self.state.session_index(session) else {
            if self.lost_at > 0 {
                // A line not read may have opened it.
                self.open_session(session);
                return self.state.session_index(session);
            }
            if !self.sessions_overflowed {
                self.emit(ses::unknown_session(session));
            }
            return None;
        };
        let (recent, recent_index) = self.recent_session.get_or_insert_default();
        recent.clear();
        recent.push_str(session);
        *recent_index = index;
        Some(index)
    }

    fn message(&mut self, direction: Option<Direction>, object: &LineObject<'_>) {
        self.messages += 1;
        let (frame, faults) = jsonrpc::classify(object);
        for fault in &faults {
            self.emit(env::frame_fault(fault));
        }
        let Some(frame) = frame else { return };
        match frame {
            Frame::Request { id, method, params } => {
                let Some(direction) = direction.or_else(|| jsonrpc::direction_of_method(&method))
                else {
                    self.correlator.unplaced_request(id, &method);
                    self.emit(trace_format::unplaced_method(&method));
                    return;
                };
                let outcome = self.correlator.request(
                    direction,
                    id.clone(),
                    &method,
                    self.line,
                    self.element,
                );
                if let Some(d) = env::request_outcome(&outcome, direction, &id, &method) {
                    self.emit(d);
                }
                // Even an untracked request is still checked for what it
                // says; only what waits for its answer is not kept.
                let call = Call::Request {
                    tracked: outcome != RequestOutcome::Overflow,
                };
                self.call(direction, &method, params, call);
            }
            Frame::Notification { method, params } => {
                let Some(direction) = direction.or_else(|| jsonrpc::direction_of_method(&method))
                else {
                    // No rule reads extension notifications, so not knowing their
                    // direction costs nothing; anything else is said.
                    if !method.starts_with('_') {
                        self.emit(trace_format::unplaced_method(&method));
                    }
                    return;
                };
                self.call(direction, &method, params, Call::Notification);
            }
            Frame::Response { id, result, error } => {
                // A bare response whose result only one party's answers
                // carry is that party's, as if its line said so (unless its
                // id is ambiguous: then what is left of the pair decides).
                let direction = direction.or_else(|| {
                    result
                        .and_then(sender_of_result)
                        .filter(|_| !self.correlator.is_ambiguous(&id))
                });
                let outcome = self.correlator.response(direction, &id);
                if let Some(d) = env::response_outcome(&outcome, &id) {
                    self.emit(d);
                }
                match outcome {
                    ResponseOutcome::Answers { request, .. } if request.also.is_empty() => {
                        self.answered(&request.method, request.at(), result, error);
                    }
                    // A request read several ways (a repeated `method`):
                    // take the answer for each method it fits.
                    ResponseOutcome::Answers { request, .. } => {
                        for method in std::iter::once(&*request.method)
                            .chain(request.also.iter().map(String::as_str))
                        {
                            if answer_fits(method, result, error) {
                                self.answered(method, request.at(), result, error);
                            }
                        }
                    }
                    // Either request may be the one answered: take what the
                    // response says for each method it fits, so that the
                    // suite's guess never becomes an error for a party.
                    ResponseOutcome::Ambiguous {
                        request,
                        alternative,
                        ..
                    } => {
                        for candidate in [request, alternative] {
                            if answer_fits(&candidate.method, result, error) {
                                self.answered(&candidate.method, candidate.at(), result, error);
                            }
                        }
                    }
                    ResponseOutcome::Untracked => self.untracked_answer(result, error),
                    _ => {}
                }
            }
        }
    }

    /// A request or notification travelling in `direction`.
    fn call(&mut self, direction: Direction, method: &str, params: Option<&RawValue>, call: Call) {
        // What waits for an answer is kept only when the answer can be
        // paired: an untracked request's answer is never read as its own.
        let awaits_answer = call == Call::Request { tracked: true };
        if method == "session/update" {
            if call != Call::Notification {
                self.emit(ses::update_as_request());
            }
            if direction == Direction::ClientToAgent {
                self.emit(ses::update_from_client());
                return;
            }
            self.session_update(params);
            return;
        }
        if direction != Direction::ClientToAgent {
            return;
        }
        self.before_init(method);
        match method {
            "initialize" => {
                if let Some(repeat) = params.and_then(|p| first_duplicate_member(p.get())) {
                    self.emit(env::duplicate_member(
                        &format!("/params{}", repeat.pointer),
                        &repeat.key,
                        "each value is a reading of the capabilities; where the readings disagree on the plan capability, the agent is not judged against it",
                    ));
                }
                let keys = capability::read_capability_keys(params);
                let at = (self.line, self.element);
                if let Some(pending) = self.initializing.iter_mut().find(|p| p.at == at) {
                    // Another reading of the same request (a repeated
                    // member): every reading's capabilities count.
                    pending.keys = pending.keys.merge(keys);
                } else {
                    if self.initializing.len() == INITIALIZE_IN_FLIGHT_KEPT {
                        let forgotten = self.initializing.remove(0);
                        self.emit(
                            Diagnostic::new(
                                &trace_format::LIMIT,
                                format!(
                                    "more than {INITIALIZE_IN_FLIGHT_KEPT} initialize requests await their answers; \
                                     the capabilities of the one on line {} are not kept, so its answer is not \
                                     judged against them",
                                    forgotten.at.0
                                ),
                            )
                            .hint("answer each initialize before the client sends another"),
                        );
                    }
                    self.initializing.push(PendingInitialize {
                        at,
                        keys,
                        base: self.element_base.clone(),
                        bytes: Vec::new(),
                    });
                }
            }
            "session/load" | "session/resume" => {
                self.warn_repeat(
                    params.and_then(|p| repeated_member(p, &["sessionId"])),
                    "/params",
                );
                for session in self.session_ids(params, "/params") {
                    self.load(method, &session, asks_for_replay(params), awaits_answer);
                }
            }
            "session/prompt" => {
                if let Some(session) = self.session_id(params, "/params") {
                    self.prompt(&session, awaits_answer);
                }
            }
            "session/cancel" => {
                if let Some(session) = self.session_id(params, "/params") {
                    self.cancel(&session);
                }
            }
            _ => {}
        }
    }

    /// SES-BEFORE-INIT for a client's `method`, when it is a session method
    /// sent before `initialize` was answered (and no line went unread: that
    /// line may have been the initialize or its answer).
    fn before_init(&mut self, method: &str) {
        if method.starts_with("session/")
            && self.handshake != Handshake::Answered
            && self.lost_at == 0
        {
            self.emit(ses::before_init(method));
        }
    }

    /// A `session/load` or `session/resume` of `session`; `replay_from`:
    /// its params ask for a replay (a `replayFrom` that is not null);
    /// `awaits_answer`: a request whose answer the suite will pair.
    fn load(&mut self, method: &str, session: &str, replay_from: bool, awaits_answer: bool) {
        let limit = self.config.limits.max_outstanding_requests;
        let replays = method == "session/load"
            || (!self.revision.revision.spelling().legacy_plan && replay_from);
        let at = (self.line, self.element);
        match (awaits_answer, replays) {
            (true, true) => self.turns.replaying.insert(limit, at, session),
            (true, false) => self.turns.quiet_resumes.insert(limit, at, session),
            // A replay whose answer is not tracked may be what a later
            // update is: no resume of the session in flight judges it.
            (false, true) => {
                while let Some(resume) = self.turns.quiet_resumes.first_for(session) {
                    self.turns.quiet_resumes.remove(&resume);
                }
            }
            (false, false) => {}
        }
        // The agent replays a loaded session before it answers, so the
        // request establishes the session; a failed answer takes it back
        // unless another load of it is in flight or succeeded (see
        // `answered`).
        let new = !self.is_established(session);
        self.open_session(session);
        let provisional = new || self.loaded_provisionally.contains_key(session);
        if !provisional || !self.is_established(session) {
            return;
        }
        if awaits_answer && self.loading.len() < self.config.limits.max_outstanding_requests {
            self.loading.insert(at, session.to_owned());
            match self.loaded_provisionally.get_mut(session) {
                Some(in_flight) if !new => *in_flight += 1,
                _ => {
                    self.loaded_provisionally.insert(session.to_owned(), 1);
                }
            }
        } else {
            // A load whose answer is not tracked may be the one that loads
            // it: no failure of another takes the session back.
            self.loaded_provisionally.remove(session);
        }
    }

    /// A `session/prompt` for `session`; `awaits_answer`: a request whose
    /// answer the suite will pair.
    fn prompt(&mut self, session: &str, awaits_answer: bool) {
        // A new prompt starts a new turn: what ended before is over.
        if !self.turns.replayed.is_empty() {
            self.turns.replayed.remove(session);
        }
        if !self.turns.cancel_ended.is_empty() {
            self.turns.cancel_ended.remove(session);
        }
        if awaits_answer {
            let limit = self.config.limits.max_outstanding_requests;
            self.turns
                .prompts
                .insert(limit, (self.line, self.element), session);
        }
    }

    /// A `session/cancel` for `session`.
    fn cancel(&mut self, session: &str) {
        // v1 ends the turn with the prompt's answer (so a prompt must be in
        // flight); v2 with an idle state_update.
        let v2 = !self.revision.revision.spelling().legacy_plan;
        if v2 || self.turns.prompts.first_for(session).is_some() {
            let limit = self.config.limits.max_outstanding_requests;
            Turns::bounded(
                &mut self.turns.cancelling,
                limit,
                session.to_owned(),
                self.line,
            );
        }
    }

    /// A line [`skim_rpc`] reads in one pass: what [`Validator::message`]
    /// does with a request or a response, given its frame and `sessionId`.
    /// Returns `false`, having changed nothing, when the line is for the
    /// exact path: not skimmed, a request whose direction cannot be placed,
    /// or a response that is not the plain answer to a request whose
    /// answer no rule reads beyond a `sessionId`.
    fn skimmed_rpc(
        &mut self,
        bytes: &[u8],
        known: Option<Direction>,
        framing: SkimFraming,
    ) -> bool {
        let max_depth = self.config.limits.max_depth;
        let Some(rpc) = self.rpc_skimmer.skim_rpc(bytes, max_depth, framing) else {
            return false;
        };
        let direction = known.or_else(|| rpc.direction.and_then(Direction::parse));
        let id = jsonrpc::Id::from_canonical(rpc.id);
        if let Some(method) = rpc.method {
            let Some(direction) = direction.or_else(|| jsonrpc::direction_of_method(method)) else {
                return false;
            };
            self.messages += 1;
            let outcome =
                self.correlator
                    .request(direction, id.clone(), method, self.line, self.element);
            if let Some(d) = env::request_outcome(&outcome, direction, &id, method) {
                self.emit(d);
            }
            let awaits_answer = outcome != RequestOutcome::Overflow;
            // What `call` does with a request whose params it reads only
            // for `sessionId` (the skim declines the others).
            if direction != Direction::ClientToAgent {
                return true;
            }
            self.before_init(method);
            match (method, rpc.session) {
                ("session/prompt", Some(session)) => self.prompt(session, awaits_answer),
                ("session/cancel", Some(session)) => self.cancel(session),
                ("session/load" | "session/resume", Some(session)) => {
                    self.load(method, session, rpc.replay_from, awaits_answer);
                }
                _ => {}
            }
            return true;
        }
        // A bare response's result may name its sender (`sender_of_result`),
        // which this read does not look at: the exact path reads it.
        if direction.is_none() {
            return false;
        }
        let Some(pending) = self.correlator.plain_answer(direction, &id) else {
            return false;
        };
        let opens = matches!(&*pending.method, "session/new" | "session/fork");
        if pending.method == "initialize" || (opens && rpc.session.is_none()) {
            return false;
        }
        self.messages += 1;
        let outcome = self.correlator.response(direction, &id);
        if let Some(d) = env::response_outcome(&outcome, &id) {
            self.emit(d);
        }
        if let ResponseOutcome::Answers { request, .. } = outcome {
            match rpc.session {
                Some(session) if opens => self.open_session(session),
                // `answered` reads no more of a successful answer to any
                // other method than that it came (initialize, session/new
                // and session/fork were declined above).
                _ => self.answered(&request.method, request.at(), None, None),
            }
        }
        true
    }

    /// An answer to a request the suite could not track (past
    /// `--max-outstanding-requests`): its method is unknown, so it is read
    /// as the answer of each request whose answer changes what later lines
    /// may do and that it fits: the initialize awaiting its answer (a valid
    /// `protocolVersion`), a session/new or session/fork (a `sessionId`). A
    /// reading may establish; none judges, since the method is a guess: the
    /// checker's limit never becomes a party's error.
    fn untracked_answer(&mut self, result: Option<&RawValue>, error: Option<&RawValue>) {
        let version = match error {
            None => capability::read_protocol_version(result).ok(),
            Some(_) => None,
        };
        let awaiting = match self.initializing.as_slice() {
            [] => None,
            // Of several, which one it answers is not known: an `At` of
            // none of them, so what the client advertised is not known.
            [one] => Some(one.at),
            _ => Some((0, 0)),
        };
        match (self.handshake, awaiting, version) {
            (_, Some(at), Some(_)) => {
                self.answered("initialize", at, result, error);
            }
            // The initialize itself may be a line not read: the revision is
            // the one its answer names, and what the client advertised is
            // not known, so no agent is judged on the capability.
            (Handshake::NotStarted, None, Some(version)) if self.lost_at > 0 => {
                let mut choice = capability::choose_revision(
                    self.config.spec,
                    CapabilityKeys::NONE,
                    Some(version),
                );
                if self.config.spec == SpecChoice::Auto {
                    choice.reason = format!(
                        "protocolVersion {version} negotiated; the initialize request was not read (a checker limit)"
                    );
                }
                self.revision = choice;
                self.plan_capability = cap::Advertised::Ambiguous;
                self.handshake = Handshake::Answered;
            }
            _ => {}
        }
        if answer_fits("session/new", result, error) {
            for session in self.session_ids(result, "/result") {
                self.open_session(&session);
            }
        }
    }

    /// The answer to a request of `method` read at `request`.
    fn answered(
        &mut self,
        method: &str,
        request: At,
        result: Option<&RawValue>,
        error: Option<&RawValue>,
    ) {
        let request_line = request.0;
        match method {
            "initialize" if result.is_some() && error.is_none() => {
                let pending = (self.initializing.iter())
                    .position(|p| p.at == request)
                    .map(|index| self.initializing.remove(index));
                // A second initialize: the connection stays initialized
                // whatever its answer. One whose capabilities were not kept
                // changes nothing.
                if pending.is_none() && self.handshake == Handshake::Answered {
                    return;
                }
                let keys = pending.as_ref().map_or(CapabilityKeys::NONE, |p| p.keys);
                self.warn_repeat(
                    result.and_then(|r| first_duplicate_member(r.get())),
                    "/result",
                );
                let negotiated = match capability::read_protocol_version(result) {
                    Ok(version) => Some(version),
                    Err(fault) => {
                        self.emit(ses::no_protocol_version(fault));
                        None
                    }
                };
                self.revision = capability::choose_revision(self.config.spec, keys, negotiated);
                let (advertised, diagnostics) =
                    cap::read_advertisement(&keys, self.revision.revision);
                let renegotiated = self.handshake == Handshake::Answered;
                self.handshake = Handshake::Answered;
                let Some(pending) = pending else {
                    // What the client advertised is not known.
                    self.plan_capability = cap::Advertised::Ambiguous;
                    return;
                };
                // An agent may take the capabilities of the latest answered
                // initialize, or keep those of the first (or, of two in
                // flight, of the one it handled last): where they disagree,
                // it is not judged on them.
                self.plan_capability = if renegotiated && advertised != self.plan_capability {
                    cap::Advertised::Ambiguous
                } else {
                    advertised
                };
                // Under a given revision they were judged when the request's
                // line was read, unless that is this line.
                if self.config.spec == SpecChoice::Auto || request_line == self.line {
                    for d in pending.place(diagnostics) {
                        self.emit(d);
                    }
                }
            }
            // A failed initialize changes nothing.
            "initialize" => self.initializing.retain(|p| p.at != request),
            "session/new" | "session/fork" if error.is_none() => {
                self.warn_repeat(
                    result.and_then(|r| repeated_member(r, &["sessionId"])),
                    "/result",
                );
                // Every value of a repeated `sessionId` is a reading: the
                // agent's updates for any of them are not the agent's error.
                let sessions = self.session_ids(result, "/result");
                if sessions.is_empty() && result.is_some() {
                    let found = result
                        .and_then(|r| last_member(r.get(), "sessionId"))
                        .map(|v| crate::text::json_type_of_raw(v.get()));
                    self.emit(ses::no_session_id(method, found));
                    if self.turns.unnamed_sessions < self.config.limits.max_sessions {
                        self.turns.unnamed_sessions += 1;
                    }
                }
                for session in sessions {
                    if !self.loaded_provisionally.is_empty() {
                        self.loaded_provisionally.remove(&session);
                    }
                    self.open_session(&session);
                }
            }
            "session/prompt" => {
                if let Some(session) = self.turns.prompts.remove(&request) {
                    // v1 and the draft end a turn with the prompt's answer.
                    if self.revision.revision.spelling().legacy_plan
                        && self.turns.cancelling.remove(&session).is_some()
                    {
                        let limit = self.config.limits.max_outstanding_requests;
                        Turns::bounded(&mut self.turns.cancel_ended, limit, session, self.line);
                    }
                }
            }
            "session/load" | "session/resume" => {
                self.turns.quiet_resumes.remove(&request);
                if let Some(session) = self.turns.replaying.remove(&request) {
                    // While another load of the session is in flight, its
                    // replay may go on.
                    if error.is_none() && self.turns.replaying.first_for(&session).is_none() {
                        let limit = self.config.limits.max_outstanding_requests;
                        Turns::bounded(&mut self.turns.replayed, limit, session, self.line);
                    }
                }
                if let Some(session) = self.loading.remove(&request) {
                    let last = match self.loaded_provisionally.get_mut(&session) {
                        // Loaded: established, whatever its other loads say.
                        Some(_) if error.is_none() => true,
                        Some(in_flight) => {
                            *in_flight -= 1;
                            *in_flight == 0
                        }
                        None => false,
                    };
                    if last {
                        self.loaded_provisionally.remove(&session);
                    }
                    if last && error.is_some() {
                        // Not loaded: never established on this connection.
                        if let Some(index) = self.state.forget_session(&session) {
                            self.forgot_session(index);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// `sessionId` of params or a result at `base` (see [`read_session_id`]);
    /// half of a character in it is said, and the id read with U+FFFD.
    fn session_id(&mut self, raw: Option<&RawValue>, base: &str) -> Option<String> {
        let (session, found) = read_session_id(raw)?;
        self.warn_unpredictable(found, &session, base);
        Some(session)
    }

    /// Every `sessionId` of params or a result at `base` (see [`read_session_ids`]).
    fn session_ids(&mut self, raw: Option<&RawValue>, base: &str) -> Vec<String> {
        let mut sessions = Vec::new();
        for (session, found) in read_session_ids(raw) {
            self.warn_unpredictable(found, &session, base);
            sessions.push(session);
        }
        sessions
    }

    fn warn_unpredictable(&mut self, found: Option<Unpredictable>, session: &str, base: &str) {
        if let Some(found) = found {
            let d = env::unpredictable(&found, &format!("{base}/sessionId")).session(session);
            self.emit(d);
        }
    }

    /// A repeated member in a payload whose every value is a reading.
    fn warn_repeat(&mut self, repeat: Option<DuplicateMember>, base: &str) {
        if let Some(repeat) = repeat {
            self.emit(env::duplicate_member(
                &format!("{base}{}", repeat.pointer),
                &repeat.key,
                "each value is taken as a reading (parsers disagree; the official ACP crate may reject the object)",
            ));
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
        if self.state.session_count() >= self.config.limits.max_sessions {
            if !self.sessions_overflowed {
                self.sessions_overflowed = true;
                let limit = self.config.limits.max_sessions;
                self.emit(
                    Diagnostic::new(
                        &trace_format::LIMIT,
                        format!("more than {limit} sessions on one connection; further sessions are not tracked"),
                    )
                    .hint("raise --max-sessions"),
                );
            }
            return;
        }
        let index = self.state.open_session(session);
        debug_assert_eq!(index, self.tracks.len());
        self.tracks.push(SessionTrack::default());
    }

    fn session_update(&mut self, params: Option<&RawValue>) {
        // An agent's update before the initialize answer breaks no MUST of
        // the agent's (SES-BEFORE-INIT quotes the client's): it names a
        // session that cannot exist yet, which SES-UNKNOWN-SESSION says.
        self.session_update_reading(params, true);
    }

    /// One reading of `session/update` params: checked, and applied to the
    /// state when `apply`. Returns whether a client could apply it (a plan
    /// message that is well-formed, or an update that is not about plans).
    fn session_update_reading(&mut self, params: Option<&RawValue>, apply: bool) -> bool {
        let revision = self.revision.revision;
        let max_entries = self.config.limits.max_entries_per_plan;
        let head = params.and_then(|p| head::read_head(p.get(), revision, max_entries));
        let (update, plan_read) = match head {
            Some(head) => {
                let read = UpdateRead {
                    session: head.session,
                    kind: head.kind,
                    update: None,
                };
                (read, head.plan)
            }
            None => {
                if let Some(params) = params.filter(|p| repeats_update_members(p)) {
                    self.session_update_readings(params);
                    return true;
                }
                match self.read_update_params(params) {
                    Some(update) => (update, PlanRead::NotRead),
                    None => return false,
                }
            }
        };
        let UpdateRead {
            session,
            kind,
            update,
        } = update;
        self.update_body(
            session.as_ref(),
            kind.as_ref(),
            plan_read,
            update.map(RawValue::get),
            params.map(RawValue::get),
            apply,
        )
    }

    /// An update whose session and kind are read: the session must be
    /// known, and a plan update is checked and applied. `update` is the
    /// update object's text when the read kept it, else it is found in
    /// `params`. Applied to the state when `apply`; returns whether a client
    /// could apply it (see `session_update_reading`).
    fn update_body(
        &mut self,
        session: &str,
        kind: &str,
        plan_read: PlanRead,
        update: Option<&str>,
        params: Option<&str>,
        apply: bool,
    ) -> bool {
        let revision = self.revision.revision;
        let max_entries = self.config.limits.max_entries_per_plan;
        if self.turns.unnamed_sessions > 0 && !self.is_established(session) {
            // A session/new answer named no session (SES-NEW-SESSION-ID, its
            // fault): this is most likely that session, not an unknown one.
            self.turns.unnamed_sessions -= 1;
            self.open_session(session);
        }
        let index = self.update_session(session);
        if kind == "state_update" && self.turns.cancelling.contains_key(session) {
            let idle = update
                .or_else(|| reread_update(params))
                .and_then(|u| last_member(u, "state"))
                // By value: `"\u0069dle"` is idle too.
                .and_then(|s| interop::read_string(s.get()))
                .is_some_and(|(state, _)| state == "idle");
            if idle {
                self.turns.cancelling.remove(session);
                let limit = self.config.limits.max_outstanding_requests;
                Turns::bounded(
                    &mut self.turns.cancel_ended,
                    limit,
                    session.to_owned(),
                    self.line,
                );
            }
        }
        if !shape::PLAN_KINDS.contains(&kind) {
            return true;
        }
        self.turn_rules(session);
        let mut allowed = true;
        if kind == "plan" && !revision.spelling().legacy_plan {
            let d = ses_session(cap::legacy_in_v2(), session);
            self.emit(d);
            return false;
        }
        if kind != "plan"
            && self.plan_capability == cap::Advertised::No
            && self.handshake == Handshake::Answered
        {
            let d = ses_session(cap::operations_without_capability(kind, revision), session);
            self.emit(d);
            allowed = false;
        }
        // Well-formed plan updates go straight into the typed message: in the
        // one pass when it read them, else read again.
        let well_formed = match (plan_read, update, params) {
            (PlanRead::WellFormed(message), _, _) => Some(*message),
            (PlanRead::Declined, _, _) => None,
            (PlanRead::NotRead, Some(update), _) => {
                shape::parse_well_formed(update, kind, revision, max_entries)
            }
            (PlanRead::NotRead, None, Some(params)) => {
                shape::parse_well_formed_params(params, kind, revision, max_entries)
            }
            (PlanRead::NotRead, None, None) => None,
        };
        if let Some(message) = well_formed {
            if let (true, true, Some(index)) = (allowed, apply, index) {
                self.apply(session, index, message);
            }
            return true;
        }
        let Some(update) = update.or_else(|| reread_update(params)) else {
            return false;
        };
        let parsed = shape::parse_plan_update_json(update, kind, revision, max_entries);
        let at_limit = parsed.message.is_none()
            && parsed
                .diagnostics
                .iter()
                .any(|d| d.rule.id == trace_format::LIMIT.id);
        for d in parsed.diagnostics {
            let d = ses_session(d, session);
            self.emit(d);
        }
        if at_limit {
            // Which plan it was is not read: none of the session's is known.
            if let Some(track) = index.and_then(|index| self.tracks.get_mut(index)) {
                track.dropped_at_limit(None);
            }
        }
        let Some(message) = parsed.message else {
            return false;
        };
        if let (true, true, Some(index)) = (allowed, apply, index) {
            self.apply(session, index, message);
        }
        true
    }

    /// `session/update` params that repeat `sessionId`, `update` or
    /// `update.sessionUpdate`: each repeat is reported, every reading is
    /// checked, and the last reading (what serde_json and JavaScript keep)
    /// is applied when every reading could be (none is past
    /// `MAX_READINGS` readings: the values not read are said, as a limit).
    fn session_update_readings(&mut self, params: &RawValue) {
        for repeat in crate::trace::duplicate_members(params.get(), 8) {
            self.emit(env::duplicate_member(
                &format!("/params{}", repeat.pointer),
                &repeat.key,
                "the update is checked under each of its values",
            ));
        }
        let before = self.diagnostics.len();
        // Read one at a time: only the last is kept, to be applied.
        let mut last: Option<Box<RawValue>> = None;
        let mut every_reading_applies = true;
        let complete = crate::trace::each_reading(params.get(), |text| {
            if let Ok(reading) = RawValue::from_string(text.to_owned()) {
                every_reading_applies &= self.session_update_reading(Some(&reading), false);
                last = Some(reading);
            }
        });
        if !complete && last.is_some() {
            self.emit(env::readings_cut("/params"));
        }
        if let (true, true, Some(last)) = (complete, every_reading_applies, &last) {
            self.session_update_reading(Some(last), true);
        }
        // Each reading finds most things again: keep one of each.
        let mut kept: Vec<Diagnostic> = Vec::new();
        for d in self.diagnostics.drain(before..) {
            if !kept.iter().any(|k| k.same_finding(&d)) {
                kept.push(d);
            }
        }
        self.diagnostics.extend(kept);
    }

    /// A plan update against the session's boundaries: a quiet resume not yet
    /// answered, a replay already answered, a cancelled turn already ended.
    fn turn_rules(&mut self, session: &str) {
        // Each boundary holds unless a line not read since may have moved
        // it (the resume's answer, a new load, a new prompt).
        let lost_at = self.lost_at;
        // The earliest such resume, not the first a hash map happens to
        // list (its order differs from one map to the next).
        let resume = self.turns.quiet_resumes.first_for(session);
        if let Some((line, _)) = resume.filter(|&(line, _)| lost_at < line) {
            // A replay asked for by a load (or resume) of the session in
            // flight too may be what this update is.
            if self.turns.replaying.first_for(session).is_none() {
                self.emit(ses::resume_replay(session, line));
            }
        }
        if let Some(&line) = self
            .turns
            .replayed
            .get(session)
            .filter(|&&line| lost_at < line)
        {
            self.emit(ses::replay_after_answer(session, line));
        }
        if let Some(&line) = self
            .turns
            .cancel_ended
            .get(session)
            .filter(|&&line| lost_at < line)
        {
            self.emit(ses::update_after_cancel(session, line));
        }
    }

    /// Identity and replacement rules, then the state change, for the
    /// session at `index`.
    fn apply(&mut self, session: &str, index: usize, owned: PlanMessage) {
        let message = &owned;
        let (Some(plans), Some(track)) = (self.state.session_at(index), self.tracks.get(index))
        else {
            return;
        };
        let mut found = Vec::new();
        // The plan, looked up once.
        let slot = match message {
            PlanMessage::Legacy(_) => PlanSlot::Legacy,
            PlanMessage::Update(update) => {
                PlanSlot::Keyed(plans.plans.get_index_of(&update.plan.id))
            }
            PlanMessage::Removed(removed) => {
                PlanSlot::Keyed(plans.plans.get_index_of(&removed.plan_id))
            }
        };
        let shown = match slot {
            PlanSlot::Keyed(index) => index.and_then(|index| plans.plans.get_index(index)),
            PlanSlot::Legacy => None,
        };
        // What FULL-DELTA remembers about the plan once this is applied.
        let mut suspicion = full::Suspicion::default();
        // No rule compares with what is shown when an update the agent sent
        // since went unapplied at a limit.
        let history_known = self.lost_at == 0 && !track.history_unknown(slot);
        match message {
            PlanMessage::Legacy(legacy) => {
                if let Some(previous) = plans.legacy.as_ref().filter(|_| history_known) {
                    let outcome = full::check_update(
                        previous,
                        track.suspicion(slot),
                        &legacy.entries,
                        self.line,
                        "/params/update/entries",
                    );
                    found.extend(outcome.diagnostic);
                    suspicion = outcome.suspicion;
                }
            }
            PlanMessage::Update(update) => {
                let id = update.plan.id.as_str();
                let shown = shown.filter(|_| history_known);
                found.extend(id_rules::check_update(
                    shown.map(|(_, previous)| previous.content.type_name()),
                    id,
                    update.plan.content.type_name(),
                    track.removed_on(id),
                ));
                if let (Some((_, previous)), PlanContent::Items { entries }) =
                    (shown, &update.plan.content)
                {
                    if let PlanContent::Items { entries: before } = &previous.content {
                        let outcome = full::check_update(
                            before,
                            track.suspicion(slot),
                            entries,
                            self.line,
                            "/params/update/plan/entries",
                        );
                        found.extend(outcome.diagnostic.map(|d| d.plan(id)));
                        suspicion = outcome.suspicion;
                    }
                }
                if shown.is_none() && plans.plans.len() >= self.config.limits.max_plans_per_session
                {
                    let limit = self.config.limits.max_plans_per_session;
                    let d = Diagnostic::new(
                        &trace_format::LIMIT,
                        format!("more than {limit} live plans in one session; plan not tracked"),
                    )
                    .plan(id)
                    .hint("raise --max-plans-per-session");
                    self.dropped_at_limit(session, index, found, d, slot);
                    return;
                }
            }
            PlanMessage::Removed(removed) => {
                let id = removed.plan_id.as_str();
                found.extend(id_rules::check_removal(
                    plans,
                    id,
                    track.removed_on(id),
                    self.lost_at > 0 || track.plans_untracked(),
                ));
            }
        }
        // The state is bounded in bytes, not only in items (what FULL-DELTA
        // remembers about a plan counts with the plan).
        let (key, content_bytes) = match message {
            PlanMessage::Legacy(legacy) => (None, entries_bytes(&legacy.entries)),
            PlanMessage::Update(update) => (
                Some(update.plan.id.as_str()),
                update.plan.id.len() + content_bytes(&update.plan.content),
            ),
            PlanMessage::Removed(removed) => (Some(removed.plan_id.as_str()), 0),
        };
        let was_shown = shown.is_some();
        let bytes = content_bytes + suspicion.bytes();
        let held = track.bytes_of(slot);
        let limit = self.config.limits.max_state_bytes;
        if bytes > held && self.state_bytes - held + bytes > limit {
            let mut d = Diagnostic::new(
                &trace_format::LIMIT,
                format!(
                    "showing this plan ({bytes} bytes) would take the client state over {limit} bytes; it was checked but not applied, and its later updates are not compared with what is shown"
                ),
            )
            .hint("raise --max-state-bytes");
            if let Some(id) = key {
                d = d.plan(id);
            }
            self.dropped_at_limit(session, index, found, d, slot);
            return;
        }
        for d in found {
            self.emit(ses_session(d, session));
        }
        self.state_bytes = self.state_bytes - held + bytes;
        let line = self.line;
        let removal = matches!(message, PlanMessage::Removed(_));
        if let Some(track) = self.tracks.get_mut(index) {
            track.set_plan(slot, bytes, suspicion, removal);
            match message {
                PlanMessage::Update(update) => track.forget_removal(&update.plan.id),
                // The removal of a plan shown is remembered (ID-RECREATE,
                // ID-REMOVE-UNKNOWN).
                PlanMessage::Removed(removed) if was_shown => {
                    track.record_removal(&removed.plan_id, line);
                }
                _ => {}
            }
        }
        self.state.apply_at(index, owned);
    }

    /// A plan message of the session at `index` checked but not applied at
    /// a limit (`limit`, the diagnostic that says so): what the check found
    /// is said, then the limit, and the session's track remembers that what
    /// it shows of the plan at `slot` is not what the agent last sent.
    fn dropped_at_limit(
        &mut self,
        session: &str,
        index: usize,
        found: Vec<Diagnostic>,
        limit: Diagnostic,
        slot: PlanSlot,
    ) {
        for d in found.into_iter().chain([limit]) {
            self.emit(ses_session(d, session));
        }
        if let Some(track) = self.tracks.get_mut(index) {
            track.dropped_at_limit(Some(slot));
        }
    }

    /// `sessionId`, `update` and `update.sessionUpdate`, or the diagnostics
    /// for what is missing.
    fn read_update_params<'a>(&mut self, params: Option<&'a RawValue>) -> Option<UpdateRead<'a>> {
        let Some(params) = params else {
            self.emit(ses::bad_params("/params", "has no params"));
            return None;
        };
        if let Some(repeated) = repeated_member(params, &["sessionId", "update"]) {
            self.emit(env::duplicate_member(
                &format!("/params{}", repeated.pointer),
                &repeated.key,
                "the update was not read",
            ));
            return None;
        }
        let read = match serde_json::from_str::<UpdateParams<'a>>(params.get()) {
            Ok(read) if is_object(params) => read,
            _ => {
                self.emit(ses::bad_params("/params", "params are not an object"));
                return None;
            }
        };
        let session = match read.session_id.map(|raw| interop::read_string(raw.get())) {
            Some(Some((session, found))) => {
                if let Some(found) = found {
                    let d = env::unpredictable(&found, "/params/sessionId").session(&session);
                    self.emit(d);
                }
                session
            }
            Some(None) => {
                self.emit(ses::bad_params(
                    "/params/sessionId",
                    "`sessionId` is not a string",
                ));
                return None;
            }
            None => {
                self.emit(ses::bad_params("/params", "has no `sessionId`"));
                return None;
            }
        };
        let Some(update) = read.update else {
            self.emit(ses::bad_params("/params", "has no `update`").session(&session));
            return None;
        };
        if let Some(repeated) = repeated_member(update, &["sessionUpdate"]) {
            self.emit(
                env::duplicate_member(
                    &format!("/params/update{}", repeated.pointer),
                    &repeated.key,
                    "the update was not read",
                )
                .session(&session),
            );
            return None;
        }
        let kind = match update_kind(update) {
            Ok(Some((kind, found))) => {
                if let Some(found) = found {
                    let at = "/params/update/sessionUpdate";
                    let d = env::unpredictable(&found, at).session(&session);
                    self.emit(d);
                }
                kind
            }
            Ok(None) => {
                self.emit(
                    ses::bad_params("/params/update", "`update` has no string `sessionUpdate`")
                        .session(&session),
                );
                return None;
            }
            Err(()) => {
                self.emit(
                    ses::bad_params(
                        "/params/update",
                        "`update` is not an object with a string `sessionUpdate`",
                    )
                    .session(&session),
                );
                return None;
            }
        };
        Some(UpdateRead {
            session: Cow::Owned(session),
            kind,
            update: Some(update),
        })
    }
}

/// U+FEFF in UTF-8: a byte order mark, read past (ENV-BOM).
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// Whether a line's start (where a writer puts `method`) names
/// `session/update`: which one-pass read to try first.
fn names_update(line: &[u8]) -> bool {
    const NAME: &[u8] = b"\"session/update\"";
    let head = line.get(..line.len().min(160)).unwrap_or(line);
    // Each `/` of the head (a few at most) against the name around it: a
    // vector search for one byte costs less than a substring searcher's.
    memchr::memchr_iter(b'/', head).any(|slash| {
        slash
            .checked_sub(8)
            .and_then(|start| head.get(start..start + NAME.len()))
            == Some(NAME)
    })
}

/// Bytes a legacy plan or items plan holds in the client state: each
/// entry's struct and its text, with an allocator's rounding (measured: the
/// hostile shapes of `bench/run.sh --hostile` stay within the budget).
fn entries_bytes(entries: &[crate::spec::messages::PlanEntry]) -> usize {
    entries
        .iter()
        .map(|e| {
            std::mem::size_of::<crate::spec::messages::PlanEntry>()
                + e.content.len()
                + custom_text(
                    &e.priority.as_str().len(),
                    matches!(e.priority, crate::spec::messages::Priority::Custom(_)),
                )
                + custom_text(
                    &e.status.as_str().len(),
                    matches!(e.status, crate::spec::messages::Status::Custom(_)),
                )
                + 16
        })
        .sum()
}

/// Heap bytes of a custom (`_`-prefixed) enum value's text.
fn custom_text(len: &usize, custom: bool) -> usize {
    if custom {
        *len + 16
    } else {
        0
    }
}

/// Bytes a keyed plan's content holds in the client state.
fn content_bytes(content: &PlanContent) -> usize {
    match content {
        PlanContent::Items { entries } => entries_bytes(entries),
        PlanContent::File { uri } => uri.len(),
        PlanContent::Markdown { content } => content.len(),
        PlanContent::Custom { type_name, fields } => {
            type_name.len()
                + fields
                    .iter()
                    .map(|(name, value)| {
                        std::mem::size_of::<(String, crate::spec::messages::RawJson)>()
                            + name.len()
                            + value.as_str().len()
                            + 32
                    })
                    .sum::<usize>()
        }
    }
}

/// Whether a response that may answer a request of `method` carries what
/// such an answer does (for responses whose request is ambiguous). Only
/// effects that establish something are taken: a failed `session/load` of
/// an ambiguous pair takes nothing back.
fn answer_fits(method: &str, result: Option<&RawValue>, error: Option<&RawValue>) -> bool {
    let has = |key: &str| result.is_some_and(|r| last_member(r.get(), key).is_some());
    match method {
        "initialize" => error.is_none() && has("protocolVersion"),
        "session/new" | "session/fork" => error.is_none() && has("sessionId"),
        _ => false,
    }
}

/// Who sent a response, when its result carries a member that only one
/// party's answers carry (ACP's schema): `protocolVersion` (initialize),
/// `sessionId` (session/new, session/fork) and `stopReason` (session/prompt)
/// only the agent's; `outcome` (session/request_permission) and `terminalId`
/// (terminal/create) only the client's.
fn sender_of_result(result: &RawValue) -> Option<Direction> {
    let mut sender = None;
    let _ = crate::trace::each_member(result.get(), |name, _| {
        sender = match name {
            "protocolVersion" | "sessionId" | "stopReason" => Some(Direction::AgentToClient),
            "outcome" | "terminalId" => Some(Direction::ClientToAgent),
            _ => return Some(()),
        };
        None
    });
    sender
}

/// Whether `session/update` params repeat a member the update is read by
/// (`sessionId`, `update`, or `sessionUpdate` inside `update`).
fn repeats_update_members(params: &RawValue) -> bool {
    repeated_member(params, &["sessionId", "update"]).is_some()
        || last_member(params.get(), "update")
            .is_some_and(|update| repeated_member(update, &["sessionUpdate"]).is_some())
}

/// An envelope's direction and raw message, read leniently (a repeated
/// member keeps its last value) for the lines the strict read refused.
fn envelope_message(text: &str) -> Option<(Option<Direction>, &RawValue)> {
    let direction = last_member(text, "direction")
        .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
        .and_then(|d| Direction::parse(&d));
    Some((direction, last_member(text, "message")?))
}

/// The first of `keys` that the object `raw` repeats (serde rejects the
/// object, so the member cannot be read).
fn repeated_member(raw: &RawValue, keys: &[&str]) -> Option<DuplicateMember> {
    duplicate_keys(raw.get())
        .into_iter()
        .find(|d| keys.contains(&d.key.as_str()))
}

fn ses_session(mut d: Diagnostic, session: &str) -> Diagnostic {
    if d.session.is_none() {
        d.set_session(session);
    }
    d
}

struct UpdateRead<'a> {
    session: Cow<'a, str>,
    kind: Cow<'a, str>,
    /// The `update` object, when the read kept it.
    update: Option<&'a RawValue>,
}

struct UpdateParams<'a> {
    session_id: Option<&'a RawValue>,
    update: Option<&'a RawValue>,
}

/// Read like a derived struct, but past a member named with half of a
/// character ([`crate::trace::read_fields`]).
impl<'de> Deserialize<'de> for UpdateParams<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let [session_id, update] = crate::trace::read_fields(d, &["sessionId", "update"])?;
        Ok(UpdateParams { session_id, update })
    }
}

/// An update's `sessionUpdate`, with the unpaired surrogate escape it holds.
type KindRead<'a> = (Cow<'a, str>, Option<Unpredictable>);

/// An update's `sessionUpdate` (as [`interop::read_string`] reads it),
/// `Ok(None)` when it has none (or `null`, as a derived read has it), and
/// `Err` when `update` is not an object or its `sessionUpdate` is not a
/// string.
fn update_kind(update: &RawValue) -> Result<Option<KindRead<'_>>, ()> {
    let mut de = serde_json::Deserializer::from_str(update.get());
    let [kind] = crate::trace::read_fields(&mut de, &["sessionUpdate"]).map_err(|_| ())?;
    let Some(kind) = kind.filter(|kind| kind.get() != "null") else {
        return Ok(None);
    };
    if let Ok(kind) = serde_json::from_str::<Cow<'_, str>>(kind.get()) {
        return Ok(Some((kind, None)));
    }
    match interop::read_string(kind.get()) {
        Some((kind, found)) => Ok(Some((Cow::Owned(kind), found))),
        None => Err(()),
    }
}

/// The `update` of params that [`head::read_head`] accepted.
fn reread_update(params: Option<&str>) -> Option<&str> {
    serde_json::from_str::<UpdateParams<'_>>(params?)
        .ok()?
        .update
        .map(RawValue::get)
}

/// `sessionId` of a params or result object: every string value when it
/// repeats (each is a reading), in order, each with the unpaired surrogate
/// escape it holds (read as U+FFFD).
fn read_session_ids(raw: Option<&RawValue>) -> Vec<(String, Option<Unpredictable>)> {
    let Some(raw) = raw else {
        return Vec::new();
    };
    let Some(session) = last_member(raw.get(), "sessionId") else {
        return Vec::new();
    };
    if repeated_member(raw, &["sessionId"]).is_none() {
        return interop::read_string(session.get()).into_iter().collect();
    }
    let mut sessions: Vec<(String, Option<Unpredictable>)> = Vec::new();
    for value in crate::trace::members_named(raw.get(), "sessionId") {
        if let Some(read) = interop::read_string(value.get()) {
            if !sessions.iter().any(|(known, _)| *known == read.0) {
                sessions.push(read);
            }
        }
    }
    sessions
}

/// Whether session/resume params ask for a replay (v2 `replayFrom` other
/// than absent or null).
fn asks_for_replay(params: Option<&RawValue>) -> bool {
    params
        .and_then(|p| last_member(p.get(), "replayFrom"))
        .is_some_and(|r| r.get() != "null")
}

/// `sessionId` of a params or result object (the last, if it repeats).
fn read_session_id(raw: Option<&RawValue>) -> Option<(String, Option<Unpredictable>)> {
    let session = last_member(raw?.get(), "sessionId")?;
    interop::read_string(session.get())
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
    pub name: String,
    pub revision: RevisionChoice,
    /// Kept diagnostics, in the order found (at most `max_diagnostics`).
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics found beyond `max_diagnostics`, counted but not kept.
    pub dropped: Vec<Diagnostic>,
    pub counts: Counts,
    /// Diagnostics per rule id (all of them, kept or not): what baselines and
    /// per-rule reports (JUnit) count.
    pub by_rule: BTreeMap<&'static str, u64>,
    pub lines: u64,
    pub messages: u64,
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
    let max_line = config.limits.max_line_bytes;
    let max_kept = config.limits.max_diagnostics;
    let mut validator = Validator::new(config);
    let mut lines = LineReader::new(reader, max_line);
    let mut report = TraceReport {
        name: name.to_owned(),
        revision: validator.revision().clone(),
        diagnostics: Vec::new(),
        dropped: Vec::new(),
        counts: Counts::default(),
        by_rule: BTreeMap::new(),
        lines: 0,
        messages: 0,
        state: ClientState::new(),
    };
    while let Some((line_no, line)) = lines.next_line()? {
        report.lines = line_no;
        validator.push_line(line_no, line);
        for d in validator.take_diagnostics() {
            report.add(d, max_kept);
        }
        report.counts.merge(validator.take_not_kept());
    }
    report.diagnostics.sort_by_key(|d| d.line);
    report.revision = validator.revision().clone();
    report.messages = validator.messages();
    report.state = validator.into_state();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::head::{read_head, PlanRead};
    use super::test_lines::HANDSHAKE;
    use super::*;
    use crate::spec::Revision;
    use proptest::prelude::*;

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
            assert_eq!(
                rules(&report),
                vec![("CAP-VALUE", 2, "/params/clientCapabilities/plan")],
                "answers {answers:?}"
            );
        }
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

    /// The order of the one-pass reads: an update's name near the start,
    /// whatever comes before it; nothing else.
    #[test]
    fn names_update_looks_for_the_method_near_the_start() {
        let update = r#"{"direction":"agent_to_client","message":{"jsonrpc":"2.0","method":"session/update","params":{}}}"#;
        assert!(names_update(update.as_bytes()));
        assert!(names_update(br#"{"method":"session/update"}"#));
        assert!(names_update(
            br#"{"a":"x/y","b":"/","method":"session/update"}"#
        ));
        // A value that spells the name counts too: only which read goes
        // first depends on it.
        assert!(names_update(
            br#"{"id":3,"method":"m","params":{"sessionId":"session/update"}}"#
        ));
        for other in [
            r#"{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s/u"}}"#,
            r#"{"method":"session/updates"}"#,
            r#"{"method":"xsession/update"}"#,
            r#"/session/update""#,
            "",
        ] {
            assert!(!names_update(other.as_bytes()), "{other}");
        }
        let late = format!(
            r#"{{"pad":"{}","method":"session/update"}}"#,
            "x".repeat(200)
        );
        assert!(!names_update(late.as_bytes()));
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
        #![proptest_config(ProptestConfig::with_cases(1024))]
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
                    PlanRead::WellFormed(message) => prop_assert_eq!(Some(*message), fast),
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
        assert!(
            matches!(head.plan, PlanRead::WellFormed(m) if matches!(*m, PlanMessage::Legacy(_)))
        );
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
