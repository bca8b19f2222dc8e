//! The engine: feeds records through the layers and the rules, and owns the
//! per-connection state (handshake, revision, sessions, requests in flight).
//!
//! Memory is bounded by live state and the limits in [`Limits`], never by
//! the length of the trace.

mod session;

use crate::diag::Diagnostic;
use crate::jsonrpc::{self, Direction, Frame, RequestOutcome, ResponseOutcome};
use crate::rules::{cap, env, full, id as id_rules, ses, shape, trace as trace_rules};
use crate::spec::capability::{self, CapabilityKeys};
use crate::spec::messages::{PlanContent, PlanMessage};
use crate::spec::{RevisionChoice, SpecChoice};
use crate::state::ClientState;
use crate::trace::{
    duplicate_keys, first_duplicate_member, last_member, parse_message, parse_record,
    DuplicateMember, Limits, LineObject, LineReader, RawLine, Record,
};
use serde::Deserialize;
use serde_json::value::RawValue;
use session::SessionTrack;
use std::collections::HashMap;
use std::io::{self, BufRead};

/// How to check.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub spec: SpecChoice,
    pub limits: Limits,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Handshake {
    NotStarted,
    Requested { keys: CapabilityKeys, line: u64 },
    Answered,
}

/// A streaming validator for one connection.
pub struct Validator {
    config: Config,
    correlator: jsonrpc::Correlator,
    revision: RevisionChoice,
    handshake: Handshake,
    plan_capability: bool,
    tracks: HashMap<String, SessionTrack>,
    sessions_overflowed: bool,
    state: ClientState,
    diagnostics: Vec<Diagnostic>,
    /// Diagnostics found beyond `max_diagnostics` pending, counted only.
    not_kept: Counts,
    line: u64,
    messages: u64,
    /// The initialize request's line, for snippets of diagnostics about
    /// the capabilities it advertised (found only when it is answered).
    initialize_line: Vec<u8>,
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
            plan_capability: false,
            tracks: HashMap::new(),
            sessions_overflowed: false,
            state: ClientState::new(),
            diagnostics: Vec::new(),
            not_kept: Counts::default(),
            line: 0,
            messages: 0,
            initialize_line: Vec::new(),
            config,
        }
    }

    /// The revision in force, and why.
    pub fn revision(&self) -> &RevisionChoice {
        &self.revision
    }

    /// What a conformant client shows now.
    pub fn state(&self) -> &ClientState {
        &self.state
    }

    /// JSON-RPC messages read so far.
    pub fn messages(&self) -> u64 {
        self.messages
    }

    /// Whether `session` was established on this connection (and is tracked).
    pub fn is_established(&self, session: &str) -> bool {
        self.tracks.contains_key(session)
    }

    /// How much live state the validator holds, item by item: what the
    /// limits in [`Limits`] bound. For memory checks and fuzzing.
    pub fn occupancy(&self) -> Occupancy {
        let mut occupancy = Occupancy {
            sessions: self.tracks.len(),
            shown_sessions: self.state.session_count(),
            outstanding_requests: [Direction::ClientToAgent, Direction::AgentToClient]
                .map(|d| self.correlator.outstanding_count(d)),
            remembered_ids: self.correlator.remembered_count(),
            pending_diagnostics: self.diagnostics.len(),
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
        for track in self.tracks.values() {
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
                let d = trace_rules::line_too_long(bytes, self.config.limits.max_line_bytes);
                self.emit(d);
            }
            RawLine::Bytes(bytes) => self.push_record(line_no, bytes),
        }
    }

    /// Feed one trace record (a bare message or an envelope). Blank lines
    /// are skipped.
    pub fn push_record(&mut self, line_no: u64, bytes: &[u8]) {
        self.line = line_no;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let before = self.diagnostics.len();
        match parse_record(bytes, self.config.limits.max_depth) {
            Ok(Record::Bare(object)) => self.message(None, &object),
            Ok(Record::Envelope { direction, message }) => {
                self.message(Direction::parse(direction), &message)
            }
            Err(fault) => {
                if let Some(d) =
                    trace_rules::record_fault(&fault).or_else(|| env::record_fault(&fault))
                {
                    self.emit(d);
                }
            }
        }
        self.after_message(before, bytes);
    }

    /// Give new diagnostics their snippets, and keep the initialize line.
    fn after_message(&mut self, before: usize, bytes: &[u8]) {
        let line = self.line;
        if matches!(self.handshake, Handshake::Requested { line: l, .. } if l == line) {
            self.initialize_line = bytes[..bytes.len().min(INITIALIZE_LINE_KEPT)].to_vec();
        }
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
                d.snippet = Some(crate::diag::snippet(bytes, &d.pointer));
            } else {
                d.snippet = Some(
                    head_snippet
                        .get_or_insert_with(|| crate::diag::snippet(head, ""))
                        .clone(),
                );
            }
        }
    }

    /// Feed one message whose direction is known (live modes).
    pub fn push_message(&mut self, line_no: u64, direction: Direction, bytes: &[u8]) {
        self.line = line_no;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let before = self.diagnostics.len();
        match parse_message(bytes, self.config.limits.max_depth) {
            Ok(object) => self.message(Some(direction), &object),
            Err(fault) => {
                if let Some(d) =
                    trace_rules::record_fault(&fault).or_else(|| env::record_fault(&fault))
                {
                    self.emit(d);
                }
            }
        }
        self.after_message(before, bytes);
    }

    fn emit(&mut self, mut d: Diagnostic) {
        if self.diagnostics.len() >= self.config.limits.max_diagnostics {
            self.not_kept.add(&d);
            return;
        }
        if d.line == 0 {
            d.line = self.line;
        }
        self.diagnostics.push(d);
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
                    self.emit(trace_rules::unplaced_method(&method));
                    return;
                };
                let outcome = self
                    .correlator
                    .request(direction, id.clone(), &method, self.line);
                if let Some(d) = env::request_outcome(&outcome, direction, &id, &method) {
                    self.emit(d);
                }
                if matches!(
                    outcome,
                    RequestOutcome::Tracked
                        | RequestOutcome::Reused { .. }
                        | RequestOutcome::Overflow
                ) {
                    self.call(direction, &method, params, true);
                }
            }
            Frame::Notification { method, params } => {
                let Some(direction) = direction.or_else(|| jsonrpc::direction_of_method(&method))
                else {
                    if !method.starts_with('_') {
                        self.emit(trace_rules::unplaced_method(&method));
                    }
                    return;
                };
                self.call(direction, &method, params, false);
            }
            Frame::Response { id, result, error } => {
                let outcome = self.correlator.response(direction, &id);
                if let Some(d) = env::response_outcome(&outcome, &id) {
                    self.emit(d);
                }
                if let ResponseOutcome::Answers { request, .. }
                | ResponseOutcome::Ambiguous { request, .. } = outcome
                {
                    self.answered(&request.method, request.line, result, error);
                }
            }
        }
    }

    /// A request (`is_request`) or notification travelling in `direction`.
    fn call(
        &mut self,
        direction: Direction,
        method: &str,
        params: Option<&RawValue>,
        is_request: bool,
    ) {
        if method == "session/update" {
            if is_request {
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
        if method.starts_with("session/") && self.handshake != Handshake::Answered {
            self.emit(ses::before_init(method));
        }
        match method {
            "initialize" => {
                self.warn_repeat(
                    params.and_then(|p| first_duplicate_member(p.get())),
                    "/params",
                );
                self.handshake = Handshake::Requested {
                    keys: capability::read_capability_keys(params),
                    line: self.line,
                };
            }
            "session/load" | "session/resume" => {
                self.warn_repeat(
                    params.and_then(|p| repeated_member(p, &["sessionId"])),
                    "/params",
                );
                if let Some(session) = read_session_id(params) {
                    self.open_session(&session);
                }
            }
            _ => {}
        }
    }

    fn answered(
        &mut self,
        method: &str,
        request_line: u64,
        result: Option<&RawValue>,
        error: Option<&RawValue>,
    ) {
        match method {
            "initialize" if result.is_some() && error.is_none() => {
                let keys = match self.handshake {
                    Handshake::Requested { keys, .. } => keys,
                    _ => CapabilityKeys::NONE,
                };
                self.warn_repeat(
                    result.and_then(|r| first_duplicate_member(r.get())),
                    "/result",
                );
                let negotiated = capability::read_protocol_version(result);
                self.revision = capability::choose_revision(self.config.spec, keys, negotiated);
                let (advertised, diagnostics) =
                    cap::read_advertisement(&keys, self.revision.revision);
                self.plan_capability = advertised;
                for mut d in diagnostics {
                    d.line = request_line;
                    if !self.initialize_line.is_empty() {
                        d.snippet = Some(crate::diag::snippet(&self.initialize_line, &d.pointer));
                    }
                    self.emit(d);
                }
                self.initialize_line = Vec::new();
                self.handshake = Handshake::Answered;
            }
            "session/new" | "session/fork" if error.is_none() => {
                self.warn_repeat(
                    result.and_then(|r| repeated_member(r, &["sessionId"])),
                    "/result",
                );
                if let Some(session) = read_session_id(result) {
                    self.open_session(&session);
                }
            }
            _ => {}
        }
    }

    /// A repeated member in a payload read with last-wins semantics.
    fn warn_repeat(&mut self, repeat: Option<DuplicateMember>, base: &str) {
        if let Some(repeat) = repeat {
            self.emit(env::duplicate_member(
                &format!("{base}{}", repeat.pointer),
                &repeat.key,
                "the suite reads the last one (parsers disagree; the official ACP crate may reject the object)",
            ));
        }
    }

    fn open_session(&mut self, session: &str) {
        if self.tracks.contains_key(session) {
            return;
        }
        if self.tracks.len() >= self.config.limits.max_sessions {
            if !self.sessions_overflowed {
                self.sessions_overflowed = true;
                let limit = self.config.limits.max_sessions;
                self.emit(
                    Diagnostic::new(
                        &trace_rules::LIMIT,
                        format!("more than {limit} sessions on one connection; further sessions are not tracked"),
                    )
                    .hint("raise --max-sessions"),
                );
            }
            return;
        }
        self.tracks
            .insert(session.to_owned(), SessionTrack::default());
        self.state.open_session(session);
    }

    fn session_update(&mut self, params: Option<&RawValue>) {
        if self.handshake != Handshake::Answered {
            self.emit(ses::before_init("session/update"));
        }
        let Some(update) = self.read_update_params(params) else {
            return;
        };
        let UpdateRead {
            session,
            kind,
            update,
        } = update;
        let known = self.tracks.contains_key(&session);
        if !known && !self.sessions_overflowed {
            self.emit(ses::unknown_session(&session));
        }
        if !shape::PLAN_KINDS.contains(&kind.as_str()) {
            return;
        }
        let revision = self.revision.revision;
        let mut allowed = true;
        if kind == "plan" && !revision.spelling().legacy_plan {
            let d = ses_session(cap::legacy_in_v2(), &session);
            self.emit(d);
            return;
        }
        if kind != "plan" && !self.plan_capability && self.handshake == Handshake::Answered {
            let d = ses_session(
                cap::operations_without_capability(&kind, revision),
                &session,
            );
            self.emit(d);
            allowed = false;
        }
        let parsed = shape::parse_plan_update_json(
            update.get(),
            &kind,
            revision,
            self.config.limits.max_entries_per_plan,
        );
        for d in parsed.diagnostics {
            let d = ses_session(d, &session);
            self.emit(d);
        }
        let Some(message) = parsed.message else {
            return;
        };
        if allowed && known {
            self.apply(&session, &message);
        }
    }

    /// Identity and replacement rules, then the state change.
    fn apply(&mut self, session: &str, message: &PlanMessage) {
        let Some(plans) = self.state.session(session) else {
            return;
        };
        let Some(track) = self.tracks.get(session) else {
            return;
        };
        let mut found = Vec::new();
        match message {
            PlanMessage::Legacy(legacy) => {
                if let Some(previous) = &plans.legacy {
                    found.extend(full::check_replacement(previous, &legacy.entries));
                }
            }
            PlanMessage::Update(update) => {
                let id = update.plan.id.as_str();
                found.extend(id_rules::check_update(
                    plans,
                    id,
                    update.plan.content.type_name(),
                    track.removed_on(id),
                ));
                if let (Some(previous), PlanContent::Items { entries }) =
                    (plans.plans.get(id), &update.plan.content)
                {
                    if let PlanContent::Items { entries: before } = &previous.content {
                        found.extend(full::check_replacement(before, entries).map(|d| d.plan(id)));
                    }
                }
                if !plans.plans.contains_key(id)
                    && plans.plans.len() >= self.config.limits.max_plans_per_session
                {
                    let limit = self.config.limits.max_plans_per_session;
                    let d = Diagnostic::new(
                        &trace_rules::LIMIT,
                        format!("more than {limit} live plans in one session; plan not tracked"),
                    )
                    .plan(id)
                    .hint("raise --max-plans-per-session");
                    self.emit(ses_session(d, session));
                    return;
                }
            }
            PlanMessage::Removed(removed) => {
                let id = removed.plan_id.as_str();
                found.extend(id_rules::check_removal(plans, id, track.removed_on(id)));
            }
        }
        for d in found {
            self.emit(ses_session(d, session));
        }
        let line = self.line;
        if let Some(track) = self.tracks.get_mut(session) {
            match message {
                PlanMessage::Update(update) => track.forget_removal(&update.plan.id),
                PlanMessage::Removed(removed) => {
                    if self
                        .state
                        .session(session)
                        .is_some_and(|p| p.plans.contains_key(&removed.plan_id))
                    {
                        track.record_removal(&removed.plan_id, line);
                    }
                }
                PlanMessage::Legacy(_) => {}
            }
        }
        self.state.apply(session, message);
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
        let Ok(read) = serde_json::from_str::<UpdateParams<'a>>(params.get()) else {
            self.emit(ses::bad_params("/params", "params are not an object"));
            return None;
        };
        let session = match read
            .session_id
            .map(|raw| serde_json::from_str::<String>(raw.get()))
        {
            Some(Ok(session)) => session,
            Some(Err(_)) => {
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
        let kind = match serde_json::from_str::<UpdateKind<'_>>(update.get()) {
            Ok(UpdateKind {
                session_update: Some(kind),
            }) => kind,
            Ok(UpdateKind {
                session_update: None,
            }) => {
                self.emit(
                    ses::bad_params("/params/update", "`update` has no string `sessionUpdate`")
                        .session(&session),
                );
                return None;
            }
            Err(_) => {
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
            session,
            kind: kind.into_owned(),
            update,
        })
    }
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
    session: String,
    kind: String,
    update: &'a RawValue,
}

#[derive(Deserialize)]
struct UpdateParams<'a> {
    #[serde(rename = "sessionId", default, borrow)]
    session_id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    update: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct UpdateKind<'a> {
    #[serde(rename = "sessionUpdate", default, borrow)]
    session_update: Option<std::borrow::Cow<'a, str>>,
}

/// `sessionId` of a params or result object (the last, if it repeats).
fn read_session_id(raw: Option<&RawValue>) -> Option<String> {
    let session = last_member(raw?.get(), "sessionId")?;
    serde_json::from_str::<String>(session.get()).ok()
}

/// Live state held by a [`Validator`], counted per item (see
/// [`Validator::occupancy`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Occupancy {
    /// Sessions established and tracked (at most `max_sessions`).
    pub sessions: usize,
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
}

/// The outcome of checking one trace.
#[derive(Debug)]
pub struct TraceReport {
    pub name: String,
    pub revision: RevisionChoice,
    /// Kept diagnostics, in the order found (at most `max_diagnostics`).
    pub diagnostics: Vec<Diagnostic>,
    /// Diagnostics found beyond `max_diagnostics`, counted but not kept.
    pub dropped: Vec<Diagnostic>,
    pub counts: Counts,
    pub lines: u64,
    pub messages: u64,
    pub state: ClientState,
}

/// Diagnostics by severity (all of them, kept or not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub errors: u64,
    pub warnings: u64,
    pub infos: u64,
}

impl Counts {
    pub fn merge(&mut self, other: Counts) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
    }

    pub fn add(&mut self, d: &Diagnostic) {
        match d.severity() {
            crate::rules::Severity::Error => self.errors += 1,
            crate::rules::Severity::Warning => self.warnings += 1,
            crate::rules::Severity::Info => self.infos += 1,
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
        lines: 0,
        messages: 0,
        state: ClientState::new(),
    };
    while let Some((line_no, line)) = lines.next_line()? {
        report.lines = line_no;
        validator.push_line(line_no, line);
        for d in validator.take_diagnostics() {
            report.counts.add(&d);
            if report.diagnostics.len() < max_kept {
                report.diagnostics.push(d);
            }
        }
        report.counts.merge(validator.take_not_kept());
    }
    report.diagnostics.sort_by_key(|d| d.line);
    report.revision = validator.revision().clone();
    report.messages = validator.messages();
    report.state = validator.state().clone();
    Ok(report)
}
