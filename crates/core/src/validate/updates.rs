//! `session/update`: read, held against the session's boundaries, and,
//! for plan messages, checked and applied to the client state.

use super::handshake::Handshake;
use super::head::{self, PlanRead};
use super::session::PlanSlot;
use super::turns::Turns;
use super::{repeated_member, Validator};
use crate::diag::Diagnostic;
use crate::rules::unit::{Event, QuietResume};
use crate::rules::plan_operations::{self, Gate};
use crate::rules::update_params::Missing;
use crate::rules::{env, full, id as id_rules, shape, trace_format};
use crate::spec::messages::{PlanContent, PlanMessage};
use crate::state::Key;
use crate::trace::interop::{self, Unpredictable};
use crate::trace::{is_object, last_member};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

impl Validator {
    /// The index of the session an update names; if it is not established,
    /// SES-UNKNOWN-SESSION (unless sessions overflowed the limit). `apply`:
    /// the reading of the update a client applies (one per message).
    fn update_session(&mut self, session: &str, apply: bool) -> Option<usize> {
        if let Some(index) = self.shown_session_index(session) {
            return Some(index);
        }
        if self.lost_at > 0 {
            // A line not read may have opened it: the reading applied opens
            // it, once for the message (another reading may name another).
            if apply {
                self.open_session(session);
            }
            return self.state.session_index(session);
        }
        let sessions_overflowed = self.sessions_overflowed;
        tell_units!(self, Event::UnestablishedSession {
            session,
            sessions_overflowed,
        });
        None
    }

    /// The index of a session the client state shows, remembered with the
    /// session's id for the next update (updates come in runs).
    fn shown_session_index(&mut self, session: &str) -> Option<usize> {
        if let Some((recent, index)) = &self.recent_session {
            if recent == session {
                return Some(*index);
            }
        }
        let index = self.state.session_index(session)?;
        let (recent, recent_index) = self.recent_session.get_or_insert_default();
        recent.clear();
        recent.push_str(session);
        *recent_index = index;
        Some(index)
    }

    pub(super) fn session_update(&mut self, params: Option<&RawValue>) {
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
        // One message takes one session that a session/new answer left
        // unnamed, whichever session each of its readings names (each may
        // be the one: each is opened).
        let taken = self
            .update_readings
            .as_ref()
            .is_some_and(|r| r.unnamed_taken);
        if (taken || self.turns.unnamed_sessions > 0) && !self.is_established(session) {
            // A session/new answer named no session (SES-NEW-SESSION-ID, its
            // fault): this is most likely that session, not an unknown one.
            if !taken {
                self.turns.unnamed_sessions -= 1;
                if let Some(readings) = &mut self.update_readings {
                    readings.unnamed_taken = true;
                }
            }
            self.open_session(session);
        }
        let index = self.update_session(session, apply);
        // v2's state_update ends a turn; v1 and the draft have none (a
        // v1 trace's state_update is an extension's, and ends nothing).
        if kind == "state_update"
            && !revision.spelling().legacy_plan
            && (self.turns.cancelling.contains_key(session)
                || self.turns.running.contains_key(session))
        {
            // Every value of a repeated `state` is a reading: the turn ends
            // only when each is idle (ending it on one reading would judge
            // later updates by a state another reading contradicts).
            let states = update
                .or_else(|| reread_update(params))
                .map(|u| crate::trace::members_named(u, "state"))
                .unwrap_or_default();
            let idle = !states.is_empty()
                && states.iter().all(|s| {
                    // By value: `"\u0069dle"` is idle too.
                    interop::read_string(s.get()).is_some_and(|(state, _)| state == "idle")
                });
            if idle {
                match &mut self.update_readings {
                    // Once for the message, when every reading ends it.
                    Some(readings) => readings.turn_ends.push(session.to_owned()),
                    None => self.turn_ended(session),
                }
            }
        }
        if kind == "replay_complete" && revision.spelling().replay_complete {
            match &mut self.update_readings {
                Some(readings) => readings.markers.push((session.to_owned(), index)),
                None => self.replay_complete(session, index),
            }
        }
        if !shape::PLAN_KINDS.contains(&kind) {
            return true;
        }
        self.plan_update_told(session, kind);
        // What the plan_operations unit just judged (CAP-LEGACY-V2,
        // CAP-PLAN-OPS) is also whether the update is read and applied.
        let initialized = self.handshake == Handshake::Answered;
        let allowed = match plan_operations::gate(kind, revision, self.plan_capability, initialized)
        {
            Gate::Open => true,
            Gate::LegacyInV2 => return false,
            Gate::WithoutCapability => false,
        };
        // Well-formed plan updates go straight into the typed message: in the
        // one pass when it read them, else read again.
        let well_formed = match (plan_read, update, params) {
            (PlanRead::WellFormed(message), _, _) => Some(message),
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
        // Readings are told apart by value (`each_reading`): a member
        // repeated with equal values is one reading, read once and applied
        // like a message without repeats. Of several, each is checked (one
        // at a time, keeping the first until a second comes and the last,
        // to be applied); the markers they hold are counted once, below.
        let mut first: Option<Box<RawValue>> = None;
        let mut last: Option<Box<RawValue>> = None;
        let mut readings = 0usize;
        let mut every_reading_applies = true;
        self.update_readings = Some(UpdateReadings::default());
        let complete = crate::trace::each_reading(params.get(), |text| {
            let Ok(reading) = RawValue::from_string(text.to_owned()) else {
                return;
            };
            readings += 1;
            if readings == 1 {
                first = Some(reading);
                return;
            }
            if let Some(first) = first.take() {
                every_reading_applies &= self.session_update_reading(Some(&first), false);
            }
            every_reading_applies &= self.session_update_reading(Some(&reading), false);
            last = Some(reading);
        });
        if let (true, Some(only)) = (complete, &first) {
            self.update_readings = None;
            self.session_update_reading(Some(only), true);
        } else {
            if let Some(only) = &first {
                every_reading_applies &= self.session_update_reading(Some(only), false);
                last = first;
            }
            let mut gathered = self.update_readings.take().unwrap_or_default();
            self.markers_of_readings(std::mem::take(&mut gathered.markers), readings);
            let turn_ends = std::mem::take(&mut gathered.turn_ends);
            if let [session, ..] = turn_ends.as_slice() {
                // A turn ends when every reading ends it (the rest were read).
                if complete && turn_ends.len() == readings && turn_ends.iter().all(|s| s == session)
                {
                    self.turn_ended(session);
                }
            }
            if !complete && last.is_some() {
                self.emit(env::readings_cut("/params"));
            }
            if let (true, true, Some(last)) = (complete, every_reading_applies, &last) {
                // What the readings change was changed once, above.
                self.update_readings = Some(gathered);
                self.session_update_reading(Some(last), true);
                self.update_readings = None;
            }
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

    /// The `replay_complete` markers of the distinct readings (`readings`
    /// of them) of one `session/update`: one marker when every reading is
    /// the marker of the same session. Where only some are, or of different
    /// sessions, the agent may or may not have ended a replay: the resumes
    /// in flight for those sessions neither owe nor forbid a marker.
    fn markers_of_readings(&mut self, markers: Vec<(String, Option<usize>)>, readings: usize) {
        let Some((session, index)) = markers.first() else {
            return;
        };
        if markers.len() == readings && markers.iter().all(|(s, _)| s == session) {
            let (session, index) = (session.clone(), *index);
            self.replay_complete(&session, index);
            return;
        }
        let limit = self.config.limits.max_outstanding_requests;
        for (session, _) in &markers {
            for at in self.turns.replaying.all_for(session) {
                Turns::bounded(&mut self.turns.replay_optional, limit, at, ());
            }
        }
    }

    /// v2: an idle `state_update` of `session` ends its turn; a cancelled
    /// one ends here (SES-UPDATE-AFTER-CANCEL judges what comes after).
    fn turn_ended(&mut self, session: &str) {
        self.turns.running.remove(session);
        if self.turns.cancelling.remove(session).is_some() {
            let line = self.line;
            tell_units!(self, Event::CancelledTurnEnded { session, line });
        }
    }

    /// v2 `replay_complete` for `session` (shown at `index`): the end of the
    /// replay of the first session/resume with a cursor in flight for it
    /// that has not had its marker; what the session shows now is what the
    /// replay ends with.
    fn replay_complete(&mut self, session: &str, index: Option<usize>) {
        let limit = self.config.limits.max_outstanding_requests;
        let pending = self.turns.replaying.all_for(session);
        let unmarked = pending
            .iter()
            .find(|at| !self.turns.replay_marked.contains_key(*at));
        let ends = unmarked.copied();
        let shown = index.and_then(|index| self.state.session_at(index));
        if let Some(at) = ends {
            Turns::bounded(&mut self.turns.replay_marked, limit, at, self.line);
            if let Some(plans) = shown {
                let plans = plans.clone();
                Turns::bounded(&mut self.turns.replay_ends, limit, Key::new(session), plans);
            }
        }
        let optional = ends.is_none()
            && pending
                .iter()
                .any(|at| self.turns.replay_optional.contains_key(at));
        tell_units!(self, Event::ReplayMarker {
            session,
            ends,
            shown,
            first_pending: pending.first().map(|&(line, _)| line),
            optional,
            untracked: self.turns.replays_untracked
                || (self.turns.replay_readings_differ.values())
                    .any(|sessions| sessions.iter().any(|s| s.as_str() == session)),
        });
    }

    /// A plan update, told to the units with the turn facts they hold it
    /// against: the first quiet resume of its session in flight, and then
    /// whether the update may be live.
    fn plan_update_told(&mut self, session: &str, kind: &str) {
        // The earliest such resume, not the first a hash map happens to
        // list (its order differs from one map to the next).
        let quiet_resume = self.turns.quiet_resumes.first_for(session).map(|(line, _)| {
            // A replay asked for by a load (or resume) of the session in
            // flight too may be what the update is; so may a turn of the
            // session that is running (v1: its prompt in flight; v2: not
            // reported idle since its prompt), even one the client started
            // too early (SES-PROMPT-BEFORE-SETUP).
            let live = self.turns.prompts.first_for(session).is_some()
                || self.turns.running.contains_key(session)
                || self.turns.replaying.first_for(session).is_some();
            QuietResume { line, live }
        });
        tell_units!(self, Event::PlanUpdate {
            session,
            kind,
            quiet_resume,
        });
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
                PlanSlot::Keyed(plans.plans.get_index_of(update.plan.id.as_str()))
            }
            PlanMessage::Removed(removed) => {
                PlanSlot::Keyed(plans.plans.get_index_of(removed.plan_id.as_str()))
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
                    self.revision.revision,
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
    pub(super) fn read_update_params<'a>(
        &mut self,
        params: Option<&'a RawValue>,
    ) -> Option<UpdateRead<'a>> {
        let Some(params) = params else {
            tell_units!(self, unread(Missing::Params, None));
            return None;
        };
        if let Some(repeated) = self.repeat_of(params, &["sessionId", "update"]) {
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
                tell_units!(self, unread(Missing::ParamsObject, None));
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
                tell_units!(self, unread(Missing::SessionIdString, None));
                return None;
            }
            None => {
                tell_units!(self, unread(Missing::SessionId, None));
                return None;
            }
        };
        let Some(update) = read.update else {
            tell_units!(self, unread(Missing::Update, Some(&session)));
            return None;
        };
        if let Some(repeated) = self.repeat_of(update, &["sessionUpdate"]) {
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
                tell_units!(self, unread(Missing::SessionUpdate, Some(&session)));
                return None;
            }
            Err(()) => {
                tell_units!(self, unread(Missing::UpdateObject, Some(&session)));
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
        PlanContent::Markdown { content, path } => {
            content.len() + path.as_ref().map_or(0, String::len)
        }
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

/// Whether `session/update` params repeat a member the update is read by
/// (`sessionId`, `update`, or `sessionUpdate` inside `update`).
fn repeats_update_members(params: &RawValue) -> bool {
    repeated_member(params, &["sessionId", "update"]).is_some()
        || last_member(params.get(), "update")
            .is_some_and(|update| repeated_member(update, &["sessionUpdate"]).is_some())
}

fn ses_session(mut d: Diagnostic, session: &str) -> Diagnostic {
    if d.session.is_none() {
        d.set_session(session);
    }
    d
}

/// While the distinct readings of one `session/update` are read: what
/// they would change, gathered so that it changes once for the message.
#[derive(Debug, Default)]
pub(super) struct UpdateReadings {
    /// The `replay_complete` markers they hold (session, and where the
    /// client shows it): see [`Validator::markers_of_readings`].
    markers: Vec<(String, Option<usize>)>,
    /// The session of each reading that ends a v2 turn (an idle
    /// `state_update`): ended when every reading ends the same one.
    turn_ends: Vec<String>,
    /// A reading took a session that a session/new answer left unnamed.
    unnamed_taken: bool,
}

pub(super) struct UpdateRead<'a> {
    pub(super) session: Cow<'a, str>,
    pub(super) kind: Cow<'a, str>,
    /// The `update` object, when the read kept it.
    pub(super) update: Option<&'a RawValue>,
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
pub(super) fn reread_update(params: Option<&str>) -> Option<&str> {
    serde_json::from_str::<UpdateParams<'_>>(params?)
        .ok()?
        .update
        .map(RawValue::get)
}

/// What the read of `session/update` params could not read (SES-UPDATE-PARAMS).
fn unread(missing: Missing, session: Option<&str>) -> Event<'_> {
    Event::UpdateParamsUnread { missing, session }
}
