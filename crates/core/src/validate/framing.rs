//! What a line is before it is one message: a byte order mark, a record
//! the one-object read refused, a batch, a message that repeats members.

use super::Validator;
use crate::diag::Diagnostic;
use crate::jsonrpc::{self, Direction};
use crate::rules::{env, trace_format};
use crate::trace::interop;
use crate::trace::{duplicate_keys, last_member, parse_record, LineObject, Record, RecordFault};
use serde_json::value::RawValue;

/// Most repeats, and most values RFC 8259 calls unpredictable, named per
/// message beyond those the rules that read them named.
const NAMED_PER_MESSAGE: usize = 8;

impl Validator {
    /// What holds anywhere in the message of a line: a repeated member
    /// name, a value RFC 8259 calls unpredictable. Each is named once, at
    /// its pointer, where no rule that read it named it: a reader that
    /// rejects one loses the whole message, whatever member holds it. Not
    /// in a line the checker's limits kept it from reading.
    pub(super) fn whole_message(&mut self, bytes: &[u8], record: bool) {
        let named = std::mem::take(&mut self.named_in_line);
        if self.lost_at != self.line {
            if let Ok(text) = std::str::from_utf8(bytes) {
                self.name_in_message(text, record, &named);
            }
        }
        self.named_in_line = named;
        self.named_in_line.clear();
    }

    /// The look of [`Validator::whole_message`]; `named`: what rules named
    /// on the line already, as (rule, pointer).
    fn name_in_message(&mut self, text: &str, record: bool, named: &[(&str, String)]) {
        let envelope = record && crate::trace::gives_member(text, &["direction", "message"]);
        // Pointers into the message; an envelope's own members are the trace
        // file's, not a party's.
        let inside = |pointer: &str| -> Option<String> {
            if !envelope {
                return Some(pointer.to_owned());
            }
            let inside = pointer.strip_prefix("/message")?;
            (inside.is_empty() || inside.starts_with('/')).then(|| inside.to_owned())
        };
        let limit = NAMED_PER_MESSAGE + named.len() + 1;
        let repeated = crate::trace::duplicate_members(text, limit);
        let unpredictable = interop::may_hold_unpredictable(text.as_bytes());
        // Text that is not JSON is ENV-JSON, and only that.
        if (repeated.is_empty() && !unpredictable)
            || serde_json::from_str::<&RawValue>(text).is_err()
        {
            return;
        }
        let repeats: Vec<Diagnostic> = (repeated.iter())
            .filter_map(|repeat| {
                // The envelope's own `message`, repeated, is the trace file's.
                let pointer = inside(&repeat.pointer).filter(|p| !p.is_empty())?;
                Some(env::duplicate_member(
                    &pointer,
                    &repeat.key,
                    "no rule reads it, but readers disagree on a repeat (the official Rust crate may reject the message)",
                ))
            })
            .collect();
        self.name_fresh(repeats, false, text, envelope, named);
        if !unpredictable {
            return;
        }
        let Some((found, total)) = interop::find(text, limit) else {
            return;
        };
        let values: Vec<Diagnostic> = (found.iter())
            .filter_map(|found| Some(env::unpredictable(found, &inside(&found.pointer)?)))
            .collect();
        let more = total > found.len();
        self.name_fresh(values, more, text, envelope, named);
    }

    /// Of `found` (in the order found), those not named yet, at most
    /// [`NAMED_PER_MESSAGE`], each with the session the message's params
    /// name; the last says when there are `more` (or more were left out).
    fn name_fresh(
        &mut self,
        found: Vec<Diagnostic>,
        mut more: bool,
        text: &str,
        envelope: bool,
        named: &[(&str, String)],
    ) {
        let mut fresh: Vec<Diagnostic> = Vec::new();
        for d in found {
            let seen = |rule: &str, at: &str| rule == d.rule.id && at == d.pointer;
            if named.iter().any(|(rule, at)| seen(rule, at))
                || fresh.iter().any(|f| seen(f.rule.id, &f.pointer))
            {
                continue;
            }
            if fresh.len() == NAMED_PER_MESSAGE {
                more = true;
                break;
            }
            fresh.push(d);
        }
        if fresh.is_empty() {
            return;
        }
        if more {
            if let Some(last) = fresh.last_mut() {
                last.message
                    .push_str("; the message holds more like it, not named one by one");
            }
        }
        // The session the message's params name, as the rules that read
        // such a member give theirs (not inside a batch, whose elements each
        // name one).
        let message = if envelope {
            last_member(text, "message").map(RawValue::get)
        } else {
            Some(text)
        };
        let session = message
            .filter(|m| m.starts_with('{'))
            .and_then(|m| last_member(m, "params"))
            .and_then(|params| last_member(params.get(), "sessionId"))
            .and_then(|id| interop::read_string(id.get()))
            .map(|(session, _)| session);
        for mut d in fresh {
            if let Some(session) = &session {
                d.set_session(session);
            }
            self.emit(d);
        }
    }

    /// A trace record read whole: its message, and what its envelope says.
    pub(super) fn record(&mut self, record: Record<'_>) {
        match record {
            Record::Bare(object) => self.message(None, &object),
            Record::Envelope {
                direction,
                message,
                remarks,
            } => {
                for remark in &remarks {
                    self.emit(trace_format::envelope_remark(remark));
                }
                self.message(Direction::parse(direction), &message);
            }
        }
    }

    /// `bytes` after a leading byte order mark, which is said: a message's
    /// (`ENV-BOM`, its sender's), or in a trace (`record`) the trace file's
    /// before an envelope (`TRACE-RECORD`; nothing at the start of the file,
    /// where a recorder's mark is no finding), and on the first line of a
    /// bare trace, where whatever wrote the file may have put it as well as
    /// the sender (`TRACE-BOM`, the ambiguity, against no one). A line of
    /// nothing but the mark is then a blank line.
    pub(super) fn past_byte_order_mark<'b>(&mut self, bytes: &'b [u8], record: bool) -> &'b [u8] {
        let Some(rest) = bytes.strip_prefix(BYTE_ORDER_MARK) else {
            return bytes;
        };
        let text = std::str::from_utf8(rest).unwrap_or_default();
        if record && crate::trace::gives_member(text, &["direction", "message"]) {
            // At the start of the file, the mark is the recorder's (an
            // editor's or a Windows tool's habit), and the trace reads fine.
            if self.line != 1 {
                self.emit(trace_format::envelope_byte_order_mark());
            }
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
    pub(super) fn record_fault(
        &mut self,
        direction: Option<Direction>,
        bytes: &[u8],
        fault: RecordFault,
    ) {
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
        self.garbled_at = self.line;
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
    pub(super) fn lose_a_message(&mut self) {
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
        let methods = crate::trace::members_named(text, "method");
        // By value: `"session/load"` and `"session\/load"` are one method.
        let differ = methods
            .iter()
            .any(|m| !crate::trace::same_json_value(m.get(), methods[0].get()));
        if differ {
            self.reading_methods = (methods.iter())
                .map(|m| serde_json::from_str::<String>(m.get()).unwrap_or_default())
                .collect();
        }
        // Read one at a time (a hostile line costs one reading at a time);
        // a response's readings are kept to be paired once, together.
        let max_depth = self.config.limits.max_depth;
        let outer = self.response_readings.replace(Default::default());
        let outer_faults = self.faults_of_readings.replace(Vec::new());
        let complete = crate::trace::each_top_level_reading(text, |reading| {
            if envelope {
                match parse_record(reading.as_bytes(), max_depth) {
                    Ok(record) => self.record(record),
                    Err(fault) => self.unread(&fault),
                }
            } else if let Ok(object) = serde_json::from_str::<LineObject<'_>>(reading) {
                self.message(direction, &object);
            }
        });
        let faults = std::mem::replace(&mut self.faults_of_readings, outer_faults);
        if complete == Some(true) {
            self.faults_in_every_reading(faults.unwrap_or_default());
        }
        let responses = std::mem::replace(&mut self.response_readings, outer);
        if let Some(responses) = responses {
            self.response_readings_read(responses);
        }
        if complete == Some(false) {
            self.emit(env::message_readings_cut());
        }
        self.reading_methods.clear();
        // One message, however many readings.
        self.messages = messages + 1;
    }

    /// Of the frame faults each reading of a line has (`readings`), those
    /// every reading has: a fault of one reading (`"jsonrpc":"2.0"` given
    /// again as `"1.0"`) rests on a value another reading contradicts.
    fn faults_in_every_reading(&mut self, readings: Vec<Vec<Diagnostic>>) {
        let mut readings = readings.into_iter();
        let Some(first) = readings.next() else {
            return;
        };
        let others: Vec<Vec<Diagnostic>> = readings.collect();
        for fault in first {
            // The same rule at the same place, whatever value each reading
            // gives there.
            let broken = |f: &Diagnostic| f.rule.id == fault.rule.id && f.pointer == fault.pointer;
            if (others.iter()).all(|faults| faults.iter().any(broken)) {
                self.emit(fault);
            }
        }
    }
}

/// U+FEFF in UTF-8: a byte order mark, read past (ENV-BOM).
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// An envelope's direction and raw message, read leniently (a repeated
/// member keeps its last value) for the lines the strict read refused.
fn envelope_message(text: &str) -> Option<(Option<Direction>, &RawValue)> {
    let direction = last_member(text, "direction")
        .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok())
        .and_then(|d| Direction::parse(&d));
    Some((direction, last_member(text, "message")?))
}
