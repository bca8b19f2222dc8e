//! Requests, notifications and their answers: what they establish
//! (sessions, the revision, turns) for the rules of later lines.

use super::handshake::ReadAs;
use super::turns::Turns;
use super::{repeated_member, At, Call, Validator};
use crate::jsonrpc::{self, Direction, Frame, RequestOutcome, ResponseOutcome};
use crate::rules::unit::Event;
use crate::rules::{env, trace_format};
use crate::state::Key;
use crate::trace::interop::{self, Unpredictable};
use crate::trace::{last_member, DuplicateMember, LineObject};
use serde_json::value::RawValue;

impl Validator {
    pub(super) fn message(&mut self, direction: Option<Direction>, object: &LineObject<'_>) {
        self.messages += 1;
        let (frame, faults) = jsonrpc::classify(object);
        let faults: Vec<_> = faults.iter().map(env::frame_fault).collect();
        match &mut self.faults_of_readings {
            // One reading of a line that repeats a member: its faults are
            // said when every reading has them (`repeated_members`).
            Some(readings) => readings.push(faults),
            None => {
                for fault in faults {
                    self.emit(fault);
                }
            }
        }
        let Some(frame) = frame else {
            // Whatever it was, it may have been an answer.
            self.garbled_at = self.line;
            return;
        };
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
                self.request_outcome(&outcome, direction, &id, &method);
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
                if let Some(readings) = &mut self.response_readings {
                    // One reading of a response that repeats a member: paired
                    // once with the others, when the line is read.
                    readings.add(direction, id, result, error);
                    return;
                }
                self.response(direction, &id, &[(result, error)]);
            }
        }
    }

    /// A response with `id` (`direction`: as the trace says it), read as
    /// each of `replies` (one, unless a repeated `result` or `error` makes
    /// several readings): paired once, and judged on what every reading
    /// says.
    fn response(&mut self, direction: Option<Direction>, id: &jsonrpc::Id, replies: &[Reply<'_>]) {
        // A bare response whose result only one party's answers carry is
        // that party's, as if its line said so (unless its id is
        // ambiguous: then what is left of the pair decides).
        let direction = direction
            .or_else(|| sender_of_replies(replies).filter(|_| !self.correlator.is_ambiguous(id)));
        let outcome = self.correlator.response(direction, id);
        if let Some(d) = env::response_outcome(&outcome, id) {
            self.emit(d);
        }
        self.paired_response(outcome, replies);
    }

    /// What a response paired as `outcome` answers, read as each of `replies`.
    fn paired_response(&mut self, outcome: ResponseOutcome, replies: &[Reply<'_>]) {
        let paired = matches!(
            outcome,
            ResponseOutcome::Answers { .. }
                | ResponseOutcome::Ambiguous { .. }
                | ResponseOutcome::AnswersUnplaced { .. }
                | ResponseOutcome::MaybeAnswers { .. }
        );
        if !paired {
            // An answer the suite pairs with no request in flight
            // (its id garbled, or past a limit) may be any request's.
            self.garbled_at = self.line;
        }
        match outcome {
            ResponseOutcome::Answers { request, .. } if request.also.is_empty() => {
                self.answered(&request.method, request.at(), replies);
            }
            // A request read several ways (a repeated `method`):
            // take the answer for each method it fits.
            ResponseOutcome::Answers { request, .. } => {
                let at = request.at();
                let readings = std::iter::once(&*request.method)
                    .chain(request.also.iter().map(String::as_str))
                    .map(|method| (method, at));
                self.answered_readings(readings, replies);
            }
            // Either request may be the one answered: take what the
            // response says for each method it fits, so that the
            // suite's guess never becomes an error for a party.
            ResponseOutcome::Ambiguous {
                request,
                alternative,
                ..
            } => {
                let readings = [&request, &alternative]
                    .into_iter()
                    .map(|candidate| (&*candidate.method, candidate.at()));
                self.answered_readings(readings, replies);
            }
            // An earlier response may have answered it already.
            ResponseOutcome::MaybeAnswers { request } => {
                let readings = std::iter::once((&*request.method, request.at()));
                self.answered_readings(readings, replies);
            }
            ResponseOutcome::Untracked => {
                for &(result, error) in replies {
                    self.untracked_answer(result, error);
                }
            }
            _ => {}
        }
    }

    /// The readings of a response whose line repeats a top-level member,
    /// once the line is read. Readings of one id are one response, paired
    /// once and judged together (an error only where every reading breaks
    /// the rule). Readings that give different ids (a repeated `id`) may
    /// answer either request: each is taken, none is judged as answered
    /// for certain, and a later response to one of them is no duplicate.
    pub(super) fn response_readings_read(&mut self, readings: ResponseReadings) {
        let mut ids: Vec<&jsonrpc::Id> = Vec::new();
        for reading in &readings.readings {
            if !ids.contains(&&reading.id) {
                ids.push(&reading.id);
            }
        }
        let replies_of = |id: &jsonrpc::Id| -> Vec<Reply<'_>> {
            (readings.readings.iter())
                .filter(|reading| reading.id == *id)
                .map(|reading| readings.reply(reading))
                .collect()
        };
        // The direction every reading of `id` gives, if they agree.
        let direction_of = |id: &jsonrpc::Id| -> Option<Direction> {
            let mut of_id = (readings.readings.iter()).filter(|reading| reading.id == *id);
            let first = of_id.next()?.direction;
            of_id
                .all(|reading| reading.direction == first)
                .then_some(first)?
        };
        match ids.as_slice() {
            [] => {}
            [id] => self.response(direction_of(id), id, &replies_of(id)),
            _ => {
                let mut outcomes = Vec::new();
                for id in &ids {
                    let replies = replies_of(id);
                    let direction = direction_of(id).or_else(|| {
                        sender_of_replies(&replies).filter(|_| !self.correlator.is_ambiguous(id))
                    });
                    outcomes.push(((*id).clone(), self.correlator.response(direction, id)));
                }
                // An id that answers nothing is an error only when every
                // reading's does (the first is said).
                let said: Vec<_> = (outcomes.iter())
                    .map(|(id, outcome)| env::response_outcome(outcome, id))
                    .collect();
                let unpaired = |outcome: &ResponseOutcome| {
                    matches!(
                        outcome,
                        ResponseOutcome::Unknown { .. }
                            | ResponseOutcome::Duplicate { .. }
                            | ResponseOutcome::DuplicateOrStray { .. }
                            | ResponseOutcome::NullId
                    )
                };
                let every_unpaired = outcomes.iter().all(|(_, outcome)| unpaired(outcome));
                let mut said_unpaired = false;
                for ((_, outcome), d) in outcomes.iter().zip(said) {
                    let Some(d) = d else { continue };
                    if unpaired(outcome) {
                        if !every_unpaired || said_unpaired {
                            continue;
                        }
                        said_unpaired = true;
                    }
                    self.emit(d);
                }
                let mut candidates: Vec<(String, At)> = Vec::new();
                for (id, outcome) in outcomes {
                    match outcome {
                        ResponseOutcome::Answers { request, .. } => {
                            for method in std::iter::once(&*request.method)
                                .chain(request.also.iter().map(String::as_str))
                            {
                                candidates.push((method.to_owned(), request.at()));
                            }
                            self.correlator.maybe_answered(id, request);
                        }
                        ResponseOutcome::Ambiguous {
                            request,
                            alternative,
                            ..
                        } => {
                            candidates.push((request.method.to_string(), request.at()));
                            candidates.push((alternative.method.to_string(), alternative.at()));
                            self.correlator.maybe_answered(id, request);
                        }
                        ResponseOutcome::MaybeAnswers { request } => {
                            candidates.push((request.method.to_string(), request.at()));
                            self.correlator.maybe_answered(id, request);
                        }
                        ResponseOutcome::Untracked => self.garbled_at = self.line,
                        _ => {}
                    }
                }
                if every_unpaired {
                    self.garbled_at = self.line;
                }
                let replies: Vec<Reply<'_>> = (readings.readings.iter())
                    .map(|reading| readings.reply(reading))
                    .collect();
                let candidates = candidates.iter().map(|(method, at)| (method.as_str(), *at));
                self.answered_readings(candidates, &replies);
            }
        }
    }

    /// What tracking a request found (ENV-ID-REUSE, TRACE-LIMIT). An id
    /// reused after a line the checker's limits kept it from reading is not
    /// the sender's: that line may have been the earlier request's answer.
    fn request_outcome(
        &mut self,
        outcome: &RequestOutcome,
        direction: Direction,
        id: &jsonrpc::Id,
        method: &str,
    ) {
        if let RequestOutcome::Reused { previous_line } = outcome {
            if self.lost_at > *previous_line {
                return;
            }
        }
        if let Some(d) = env::request_outcome(outcome, direction, id, method) {
            self.emit(d);
        }
    }

    /// A request or notification travelling in `direction`.
    fn call(&mut self, direction: Direction, method: &str, params: Option<&RawValue>, call: Call) {
        // What waits for an answer is kept only when the answer can be
        // paired: an untracked request's answer is never read as its own.
        let awaits_answer = call == Call::Request { tracked: true };
        if method == "session/update" {
            tell_units!(self, Event::SessionUpdateCall {
                direction,
                request: call != Call::Notification,
                every_method: &self.reading_methods,
            });
            // The client's update is no update of the client state.
            if direction == Direction::ClientToAgent {
                return;
            }
            self.session_update(params);
            return;
        }
        if direction != Direction::ClientToAgent {
            return;
        }
        tell_units!(self, Event::ClientCall {
            method,
            every_method: &self.reading_methods,
        });
        match method {
            "initialize" => self.initialize_requested(params),
            "session/load" | "session/resume" => {
                self.warn_repeat(
                    params.and_then(|p| self.repeat_of(p, &["sessionId"])),
                    "/params",
                );
                let sessions = self.session_ids(params, "/params");
                if sessions.is_empty() {
                    // The client's request names no session: the agent's
                    // updates for a session nobody named may be the one it
                    // meant, and are not the agent's unknown session.
                    self.count_unnamed_session();
                }
                // Every reading of a repeated `replayFrom`: a replay asked
                // for by one of them keeps updates unjudged, and a marker is
                // owed only when every reading asks.
                let (asks, quiet) = replay_readings(params);
                // LOAD-REPLAY-STATE judges only a replay of one session, from
                // the start in every reading.
                let from_start =
                    (method == "session/load" || replay_from_start(params)) && sessions.len() == 1;
                for session in sessions {
                    self.load(method, &session, asks, from_start, awaits_answer);
                    if asks && quiet && awaits_answer {
                        let at = (self.line, self.element);
                        let limit = self.config.limits.max_outstanding_requests;
                        Turns::bounded(&mut self.turns.replay_optional, limit, at, ());
                    }
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
            "session/close" => {
                let session = self.session_id(params, "/params");
                self.close_requested(session.as_deref(), awaits_answer);
            }
            _ => {}
        }
    }

    /// A session/close of `session` (`None`: it names none);
    /// `awaits_answer`: a request whose answer the suite will pair. A close
    /// the suite cannot follow to its answer may have closed any session.
    fn close_requested(&mut self, session: Option<&str>, awaits_answer: bool) {
        match session {
            Some(session)
                if awaits_answer
                    && self.closing.len() < self.config.limits.max_outstanding_requests =>
            {
                self.closing
                    .insert((self.line, self.element), session.to_owned());
            }
            _ => tell_units!(self, Event::CloseUnfollowed),
        }
    }

    /// An answered session/close of `session`: the client shows it no
    /// more, and what the validator knew of its turns and replays ends with
    /// it ("the agent MUST cancel any ongoing work ... and then free up any
    /// resources associated with the session"), so none of it judges a
    /// later session that takes the id.
    fn closed(&mut self, session: &str) {
        if let Some(index) = self.state.forget_session(session) {
            self.forgot_session(index);
        }
        let turns = &mut self.turns;
        turns.running.remove(session);
        turns.cancelling.remove(session);
        turns.replay_ends.remove(session);
        tell_units!(self, Event::SessionClosed { session });
    }

    /// A `session/load` or `session/resume` of `session`; `replay_from`:
    /// its params ask for a replay (a `replayFrom` that is not null);
    /// `awaits_answer`: a request whose answer the suite will pair.
    fn load(
        &mut self,
        method: &str,
        session: &str,
        replay_from: bool,
        from_start: bool,
        awaits_answer: bool,
    ) {
        let limit = self.config.limits.max_outstanding_requests;
        let replays = method == "session/load"
            || (!self.revision.revision.spelling().legacy_plan && replay_from);
        let at = (self.line, self.element);
        if replays {
            self.forget_deltas(session);
            let turns = &mut self.turns;
            let alone = awaits_answer
                && !turns.replays_untracked
                && turns.replaying.first_for(session).is_none()
                && turns.prompts.first_for(session).is_none()
                && !turns.running.contains_key(session);
            let index = self.state.session_index(session);
            let bytes = (index.and_then(|index| self.tracks.get(index))).map_or(0, |t| t.bytes());
            let shown = index.and_then(|index| self.state.session_at(index));
            tell_units!(self, Event::ReplayRequested {
                session,
                request: at,
                from_start,
                alone,
                shown: shown.map(|plans| (plans, bytes)),
                state_bytes: self.state_bytes,
            });
        }
        match (awaits_answer, replays) {
            (true, true) => {
                let turns = &mut self.turns;
                let other = (turns.replaying.session_of(&at)).filter(|s| s.as_str() != session);
                if let Some(other) = other.cloned() {
                    // Another reading of this request names another session.
                    if turns.replay_readings_differ.len() < limit {
                        turns.replay_readings_differ.entry(at).or_default().push(other);
                    } else {
                        turns.replays_untracked = true;
                    }
                }
                if !self.turns.replaying.insert(limit, at, session) {
                    self.turns.replays_untracked = true;
                }
            }
            (true, false) => {
                self.turns.quiet_resumes.insert(limit, at, session);
            }
            // A replay whose answer is not tracked may be what a later
            // update is: no resume of the session in flight judges it.
            (false, true) => {
                self.turns.replays_untracked = true;
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

    /// A replay of `session` was asked for: FULL-DELTA's memory of its
    /// plans does not span it (the replay restates older lists).
    fn forget_deltas(&mut self, session: &str) {
        let track =
            (self.state.session_index(session)).and_then(|index| self.tracks.get_mut(index));
        if let Some(track) = track {
            let freed = track.forget_deltas();
            self.state_bytes -= freed.min(self.state_bytes);
        }
    }

    /// A `session/prompt` for `session`; `awaits_answer`: a request whose
    /// answer the suite will pair.
    fn prompt(&mut self, session: &str, awaits_answer: bool) {
        // A session opened only by a load or resume in flight is not set up
        // yet. A new prompt starts a new turn: what ended before is over.
        let setup_in_flight = if self.loaded_provisionally.contains_key(session) {
            let setup = self.turns.quiet_resumes.first_for(session);
            let setup = setup
                .into_iter()
                .chain(self.turns.replaying.first_for(session));
            setup.min().map(|(line, _)| line)
        } else {
            None
        };
        tell_units!(self, Event::Prompt {
            session,
            setup_in_flight,
        });
        // A v2 turn runs until the idle state_update; a prompt whose answer
        // is not tracked (at a limit) may run until any line: either way
        // the session may be running.
        if !awaits_answer || !self.revision.revision.spelling().legacy_plan {
            let limit = self.config.limits.max_outstanding_requests;
            Turns::bounded(&mut self.turns.running, limit, Key::new(session), self.line);
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
        // flight); v2 with an idle state_update (so the session must be
        // running: a cancel while idle cancels nothing, and must not make
        // the next turn look cancelled).
        let v2 = !self.revision.revision.spelling().legacy_plan;
        let running = self.turns.running.contains_key(session);
        if (v2 && running) || self.turns.prompts.first_for(session).is_some() {
            let limit = self.config.limits.max_outstanding_requests;
            Turns::bounded(
                &mut self.turns.cancelling,
                limit,
                Key::new(session),
                self.line,
            );
        }
    }

    /// An answer to a request the suite could not track (past
    /// `--max-outstanding-requests`): its method is unknown, so it is read
    /// as the answer of each request whose answer changes what later lines
    /// may do and that it fits: the initialize awaiting its answer (a valid
    /// `protocolVersion`), a session/new or session/fork (a `sessionId`). A
    /// reading may establish; none judges, since the method is a guess: the
    /// checker's limit never becomes a party's error.
    fn untracked_answer(&mut self, result: Option<&RawValue>, error: Option<&RawValue>) {
        self.untracked_initialize_answer(result, error);
        if answer_fits("session/new", result, error) {
            for session in self.session_ids(result, "/result") {
                self.opened_by_answer(&session);
            }
        }
    }

    /// An answer whose request can be read as each of `readings` (method,
    /// and where the request was read), the answer itself read as each of
    /// `replies`. What the answer establishes under a reading it fits is
    /// taken, without judging it for what that method's answer owes
    /// ([`ReadAs::OneReading`]): the ambiguity was said once, against
    /// whoever caused it. A session/new or session/fork reading answered
    /// without a session id counts one session the suite cannot name, as
    /// a plain answer does, once whichever readings agree; only when every
    /// reading is one is the missing id judged.
    fn answered_readings<'m>(
        &mut self,
        readings: impl Iterator<Item = (&'m str, At)>,
        replies: &[Reply<'_>],
    ) {
        // The first reading that opens a session nobody named, and whether
        // every reading does: then every reading breaks the MUST.
        let mut unnamed = None;
        let mut every_unnamed = true;
        let mut unnamed_result = None;
        for (method, request) in readings {
            let fitting: Vec<Reply<'_>> = (replies.iter().copied())
                .filter(|&(result, error)| answer_fits(method, result, error))
                .collect();
            if !fitting.is_empty() {
                every_unnamed = false;
                match method {
                    "initialize" => self.initialize_answered(request, &fitting, ReadAs::OneReading),
                    _ => {
                        let mut sessions = Vec::new();
                        for (result, _) in &fitting {
                            for session in self.session_ids(*result, "/result") {
                                if !sessions.contains(&session) {
                                    sessions.push(session);
                                }
                            }
                        }
                        self.new_session_answered(method, &sessions, None, false);
                    }
                }
            }
            let sets_up = matches!(method, "session/load" | "session/resume")
                && (replies.iter()).any(|(result, error)| error.is_none() && result.is_some());
            if sets_up {
                // Under a reading that answers it with success, the request
                // set its session up: not set up for certain (another
                // reading leaves it in flight), so no rule judges the
                // session as not set up yet, nor takes it back at a failed
                // answer of another reading.
                if let Some(session) = self.loading.remove(&request) {
                    self.loaded_provisionally.remove(&session);
                }
            }
            if fitting.len() == replies.len() {
                continue;
            }
            if matches!(method, "session/load" | "session/resume") {
                // Whichever request it answers, this answer may end the
                // resume's window: no later update is judged as its replay.
                // (A replay in flight stays: it only keeps updates unjudged.)
                self.turns.quiet_resumes.remove(&request);
                every_unnamed = false;
            } else if let Some(&(result, _)) = (replies.iter())
                .find(|(result, error)| error.is_none() && result.is_some())
                .filter(|_| matches!(method, "session/new" | "session/fork"))
            {
                // A result that does not fit: it names no session to open.
                unnamed.get_or_insert(method);
                unnamed_result.get_or_insert(result);
            } else {
                every_unnamed = false;
            }
        }
        if let Some(method) = unnamed {
            tell_units!(self, Event::NewSessionAnswered {
                method,
                sessions: &[],
                unnamed: unnamed_result.flatten(),
                certain: false,
                other_readings: !every_unnamed,
                every_established: false,
                closing: false,
                fresh: false,
            });
            self.count_unnamed_session();
        }
    }

    /// A successful session/new or session/fork answer naming `sessions`
    /// (each value of a repeated `sessionId` a reading), `unnamed`: the
    /// result of a reading that names none; `certain`: read as that
    /// method's answer for certain (not one reading of an ambiguous pair).
    /// The units judge the ids (`rules/session_ids.rs`). A session already
    /// established (whose load, which may fail, is not in flight) that
    /// every reading names again is shown afresh: it is a new
    /// conversation, and the old one's plans are not its plans.
    fn new_session_answered(
        &mut self,
        method: &str,
        sessions: &[String],
        unnamed: Option<&RawValue>,
        certain: bool,
    ) {
        let fresh = method == "session/new"
            && certain
            && matches!(sessions, [session] if !self.is_established(session));
        let reused = |session: &String| {
            self.is_established(session) && !self.loaded_provisionally.contains_key(session)
        };
        let every_established = !sessions.is_empty() && sessions.iter().all(reused);
        let closing = (sessions.iter())
            .any(|session| self.closing.values().any(|closed| closed == session));
        tell_units!(self, Event::NewSessionAnswered {
            method,
            sessions,
            unnamed,
            certain,
            other_readings: false,
            every_established,
            closing,
            fresh,
        });
        if certain && every_established {
            if let [session] = sessions {
                if let Some(index) = self.state.forget_session(session) {
                    self.forgot_session(index);
                }
            }
        }
        for session in sessions {
            self.opened_by_answer(session);
        }
    }

    /// A session that a session/new or session/fork answer names: established,
    /// so a load of it in flight that fails later takes nothing back.
    fn opened_by_answer(&mut self, session: &str) {
        if !self.loaded_provisionally.is_empty() {
            self.loaded_provisionally.remove(session);
        }
        self.open_session(session);
    }

    /// A session/new or session/fork answered without a session id: a later
    /// update for a session nobody named is taken as its.
    fn count_unnamed_session(&mut self) {
        if self.turns.unnamed_sessions < self.config.limits.max_sessions {
            self.turns.unnamed_sessions += 1;
        }
    }

    /// The answer to a request of `method` read at `request`, read as each
    /// of `replies` (one, unless the response repeats `result` or `error`):
    /// what every reading says judges, what any reading establishes is
    /// taken.
    fn answered(&mut self, method: &str, request: At, replies: &[Reply<'_>]) {
        // Every reading fails, or every reading succeeds (a repeated
        // `result` or `error` gives readings of one kind).
        let failed = replies.iter().all(|(_, error)| error.is_some());
        let succeeded = replies.iter().all(|(_, error)| error.is_none());
        match method {
            "initialize" => self.initialize_answered(request, replies, ReadAs::TheRequest),
            "session/new" | "session/fork" if !failed => {
                let mut sessions = Vec::new();
                let mut unnamed = None;
                for &(result, _) in replies.iter().filter(|(_, error)| error.is_none()) {
                    self.warn_repeat(
                        result.and_then(|r| self.repeat_of(r, &["sessionId"])),
                        "/result",
                    );
                    // Every value of a repeated `sessionId` is a reading: the
                    // agent's updates for any of them are not the agent's error.
                    let named = self.session_ids(result, "/result");
                    if named.is_empty() && result.is_some() {
                        unnamed.get_or_insert(result);
                    }
                    for session in named {
                        if !sessions.contains(&session) {
                            sessions.push(session);
                        }
                    }
                }
                if unnamed.is_some() {
                    self.count_unnamed_session();
                }
                let certain = succeeded && unnamed.is_none();
                self.new_session_answered(method, &sessions, unnamed.flatten(), certain);
            }
            "session/prompt" => {
                if let Some(session) = self.turns.prompts.remove(&request) {
                    // v1 and the draft end a turn with the prompt's answer.
                    if self.revision.revision.spelling().legacy_plan
                        && self.turns.cancelling.remove(session.as_str()).is_some()
                    {
                        let line = self.line;
                        tell_units!(self, Event::CancelledTurnEnded {
                            session: &session,
                            line,
                        });
                    }
                }
            }
            "session/load" | "session/resume" => {
                self.turns.quiet_resumes.remove(&request);
                let marked = self.turns.replay_marked.remove(&request).is_some();
                // `|`, not `||`: the request leaves both maps.
                let optional = self.turns.replay_optional.remove(&request).is_some()
                    | self.turns.replay_readings_differ.remove(&request).is_some();
                if let Some(session) = self.turns.replaying.remove(&request) {
                    let replay_goes_on = self.turns.replaying.first_for(&session).is_some();
                    let line = self.line;
                    tell_units!(self, Event::ReplayAnswered {
                        method,
                        session: &session,
                        request,
                        line,
                        succeeded,
                        failed,
                        shown: self.state.session(&session),
                        untracked: self.turns.replays_untracked,
                        marked,
                        optional,
                        replay_goes_on,
                    });
                }
                if let Some(session) = self.loading.remove(&request) {
                    let last = match self.loaded_provisionally.get_mut(&session) {
                        // Loaded: established, whatever its other loads say.
                        Some(_) if !failed => true,
                        Some(in_flight) => {
                            *in_flight -= 1;
                            *in_flight == 0
                        }
                        None => false,
                    };
                    if last {
                        self.loaded_provisionally.remove(&session);
                    }
                    if last && failed {
                        // Not loaded: never established on this connection.
                        if let Some(index) = self.state.forget_session(&session) {
                            self.forgot_session(index);
                        }
                    }
                }
            }
            "session/close" => {
                // Closed: the client shows the session no more. A failed
                // close leaves it open.
                if let Some(session) = self.closing.remove(&request) {
                    if succeeded {
                        self.closed(&session);
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
    pub(super) fn warn_repeat(&mut self, repeat: Option<DuplicateMember>, base: &str) {
        if let Some(repeat) = repeat {
            self.emit(env::duplicate_member(
                &format!("{base}{}", repeat.pointer),
                &repeat.key,
                "each value is taken as a reading (parsers disagree; the official ACP crate may reject the object)",
            ));
        }
    }
}

/// One reading of a response: its `result` and its `error`.
pub(super) type Reply<'a> = (Option<&'a RawValue>, Option<&'a RawValue>);

/// The readings of one response whose line repeats a top-level member
/// (`result`, `error`, `id`), gathered while the line is read, to be paired
/// and judged together once it is ([`Validator::response_readings_read`]).
#[derive(Debug, Default)]
pub(super) struct ResponseReadings {
    readings: Vec<ResponseReading>,
    /// The distinct result and error values, each kept once: together no
    /// longer than the line.
    values: Vec<Box<RawValue>>,
}

impl ResponseReadings {
    fn add(
        &mut self,
        direction: Option<Direction>,
        id: jsonrpc::Id,
        result: Option<&RawValue>,
        error: Option<&RawValue>,
    ) {
        let result = result.map(|value| self.keep(value));
        let error = error.map(|value| self.keep(value));
        self.readings.push(ResponseReading {
            direction,
            id,
            result,
            error,
        });
    }

    fn keep(&mut self, value: &RawValue) -> usize {
        if let Some(index) = self.values.iter().position(|v| v.get() == value.get()) {
            return index;
        }
        self.values.push(value.to_owned());
        self.values.len() - 1
    }

    fn value(&self, index: Option<usize>) -> Option<&RawValue> {
        index.and_then(|index| self.values.get(index)).map(|v| &**v)
    }
}

/// One reading of a response: its direction (as the trace says it), id,
/// and result and error (indexes into [`ResponseReadings::values`]).
#[derive(Debug)]
struct ResponseReading {
    direction: Option<Direction>,
    id: jsonrpc::Id,
    result: Option<usize>,
    error: Option<usize>,
}

impl ResponseReadings {
    fn reply(&self, reading: &ResponseReading) -> Reply<'_> {
        (self.value(reading.result), self.value(reading.error))
    }
}

/// The sender every reading's result names (see [`sender_of_result`]),
/// when they agree.
fn sender_of_replies(replies: &[Reply<'_>]) -> Option<Direction> {
    let mut senders = replies
        .iter()
        .map(|(result, _)| result.and_then(sender_of_result));
    let first = senders.next()?;
    senders.all(|sender| sender == first).then_some(first)?
}

/// Whether a response that may answer a request of `method` carries what
/// such an answer does (for responses whose request is ambiguous). Only
/// effects that establish something are taken: a failed `session/load` of
/// an ambiguous pair takes nothing back.
fn answer_fits(method: &str, result: Option<&RawValue>, error: Option<&RawValue>) -> bool {
    let has = |key: &str| result.is_some_and(|r| last_member(r.get(), key).is_some());
    match method {
        "initialize" => error.is_none() && has("protocolVersion"),
        // A session id to open: an answer whose `sessionId` is not a string
        // would only be judged for it (see `Validator::answered_readings`).
        "session/new" | "session/fork" => error.is_none() && !read_session_ids(result).is_empty(),
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

/// `sessionId` of a params or result object: every string value when it
/// repeats (each is a reading), in order, each with the unpaired surrogate
/// escape it holds (read as U+FFFD).
pub(super) fn read_session_ids(raw: Option<&RawValue>) -> Vec<(String, Option<Unpredictable>)> {
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

/// Whether some reading of session/resume params asks for a replay (a
/// `replayFrom` that is not null), and whether some reading does not
/// (absent, or null): each value of a repeated `replayFrom` is a reading.
fn replay_readings(params: Option<&RawValue>) -> (bool, bool) {
    let values = params.map_or_else(Vec::new, |p| {
        crate::trace::members_named(p.get(), "replayFrom")
    });
    if values.is_empty() {
        return (false, true);
    }
    let asks = values.iter().any(|value| value.get() != "null");
    let quiet = values.iter().any(|value| value.get() == "null");
    (asks, quiet)
}

/// Whether every reading of `replayFrom` in `params` asks for a replay
/// from the start (schema 1.20.0 v2 `ReplayFromStart`: `{"type": "start"}`;
/// other cursors replay part of the conversation).
fn replay_from_start(params: Option<&RawValue>) -> bool {
    let values = params.map_or_else(Vec::new, |p| {
        crate::trace::members_named(p.get(), "replayFrom")
    });
    !values.is_empty()
        && values.iter().all(|value| {
            let types = crate::trace::members_named(value.get(), "type");
            !types.is_empty()
                && types
                    .iter()
                    .all(|t| serde_json::from_str::<String>(t.get()).is_ok_and(|t| t == "start"))
        })
}

/// `sessionId` of a params or result object (the last, if it repeats).
pub(super) fn read_session_id(raw: Option<&RawValue>) -> Option<(String, Option<Unpredictable>)> {
    let session = last_member(raw?.get(), "sessionId")?;
    interop::read_string(session.get())
}
