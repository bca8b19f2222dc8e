//! `stream`: a whole trace through the validator.
//!
//! Invariants, checked under the default limits and under tiny ones that
//! fuzz inputs reach:
//! - every diagnostic's line is a line of the input, its texts are bounded
//!   and its pointer names something in that line's message;
//! - the verdict is "not conformant" exactly when there is an error;
//! - the reference state holds plans only for sessions established on the
//!   connection;
//! - live state stays within every limit after every line;
//! - `check_reader` gives what feeding the lines one by one gives, however
//!   the reads are cut;
//! - for envelope traces, the [`super::readings`] invariants: a repeated
//!   member never gives the other party an error, escapes change nothing;
//! - a line whose message holds a value RFC 8259 calls unpredictable, or
//!   repeats a member name, read whole, names one (wherever it is: no rule
//!   need read it).

use super::{
    check_diagnostic, check_pointer_in_message, ensure, readings_of, Broken, Checked, Written,
};
use crate::catalog::Counts;
use crate::catalog::Severity;
use crate::diag::Diagnostic;
use crate::report::{verdict, ReportOptions, Verdict};
use crate::rules::env;
use crate::spec::messages::PlanContent;
use crate::trace::{Limits, LineReader};
use crate::validate::{check_reader, Config, Occupancy, Validator};
use serde_json::Value;
use std::io::BufReader;

/// Limits small enough for fuzz inputs to hit each one.
pub(crate) fn tiny_limits() -> Limits {
    Limits {
        max_line_bytes: 2048,
        max_depth: 12,
        max_sessions: 3,
        max_plans_per_session: 3,
        max_entries_per_plan: 4,
        max_outstanding_requests: 4,
        max_diagnostics: 8,
        max_state_bytes: 4096,
    }
}

/// The `stream` target: checks `data` as a whole trace under the default and tiny limits, and
/// checks the report's invariants (diagnostic lines within the input, verdict agreeing with the
/// error count, state only for established sessions, live state within the limits) and that
/// streaming and chunked reading give the same report.
pub fn check(data: &[u8]) -> Checked {
    for limits in [Limits::default(), tiny_limits()] {
        check_with(
            data,
            Config {
                limits,
                ..Config::default()
            },
        )?;
    }
    // Readings: a repeated member never gives the other party an error,
    // escapes change nothing (envelope traces of modest size only).
    if let Ok(text) = std::str::from_utf8(data) {
        if data.len() <= READINGS_MAX_BYTES {
            let h = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
            let pick = |shift: u32| (h.rotate_left(shift) & 0xffff) as usize;
            super::readings::check(text, pick(0), pick(16), pick(32), h)?;
        }
    }
    Ok(())
}

/// Traces up to this size also go through the readings invariants (each
/// runs the trace four more times).
const READINGS_MAX_BYTES: usize = 64 * 1024;

/// Check `data` under one configuration.
pub fn check_with(data: &[u8], config: Config) -> Checked {
    let limits = config.limits.clone();
    let lines = split_lines(data);
    // Judged as `check_reader` judges it: the lines before the `initialize`
    // answer by the revision the trace turns out to have.
    let mut validator = crate::validate::validator_for_trace(data, config.clone())
        .map_err(|e| Broken(format!("reading from memory failed: {e}")))?;
    // Small reads: the streamed report must not depend on how input arrives.
    let mut reader = LineReader::new(BufReader::with_capacity(5, data), limits.max_line_bytes);
    let mut all = Vec::new();
    let mut not_kept = Counts::default();
    let mut read = 0;
    // Each line's message under each of its readings and as written, parsed
    // once, when a diagnostic needs it.
    let mut messages: Vec<Option<Messages>> = vec![None; lines.len()];
    while let Some((line_no, line)) = reader
        .next_line()
        .map_err(|e| Broken(format!("reading from memory failed: {e}")))?
    {
        read = line_no;
        validator.push_line(line_no, line);
        let found = validator.take_diagnostics();
        for d in &found {
            check_diagnostic(d)?;
            ensure!(
                d.line >= 1 && d.line <= line_no,
                "{} reported on line {} while reading line {line_no}",
                d.rule.id,
                d.line
            );
            let index = d.line as usize - 1;
            if let (Some(slot), Some(line)) = (messages.get_mut(index), lines.get(index)) {
                let (readings, written) = slot.get_or_insert_with(|| messages_of(line));
                if !readings.is_empty() {
                    check_pointer_in_message(d, readings, written)?;
                }
            }
        }
        ensure!(
            found.len() <= limits.max_diagnostics,
            "line {line_no} left {} diagnostics pending, over the limit of {}",
            found.len(),
            limits.max_diagnostics
        );
        all.extend(found);
        not_kept.merge(validator.take_not_kept());
        check_occupancy(&validator.occupancy(), &limits, line_no)?;
        check_state(&validator, &limits)?;
    }
    ensure!(
        read as usize == lines.len(),
        "read {read} lines, the input has {}",
        lines.len()
    );
    // (Only when every diagnostic found was kept.)
    if limits == Limits::default() && not_kept == Counts::default() {
        check_said_anywhere(&lines, &all)?;
    }

    let report = check_reader("fuzz", data, config)
        .map_err(|e| Broken(format!("check_reader failed on memory: {e}")))?;
    let mut counts = not_kept;
    for d in &all {
        counts.add(d.severity());
    }
    ensure!(
        report.counts == counts,
        "check_reader counted {:?}, line by line gave {counts:?}",
        report.counts
    );
    let mut kept: Vec<Diagnostic> = all.iter().take(limits.max_diagnostics).cloned().collect();
    kept.sort_by_key(|d| d.line);
    ensure!(
        report.diagnostics == kept,
        "check_reader kept other diagnostics than the first {} found line by line",
        limits.max_diagnostics
    );
    ensure!(
        &report.state == validator.state(),
        "check_reader's final state differs from the state fed line by line"
    );
    ensure!(
        report.lines == read && report.messages == validator.messages(),
        "check_reader read {} lines and {} messages, line by line {read} and {}",
        report.lines,
        report.messages,
        validator.messages()
    );
    let errors = not_kept.errors
        + all
            .iter()
            .filter(|d| d.severity() == Severity::Error)
            .count() as u64;
    let said = verdict(std::slice::from_ref(&report), ReportOptions::default());
    ensure!(
        (said == Verdict::NotConformant) == (errors > 0),
        "verdict {said:?} with {errors} errors"
    );
    ensure!(
        report.counts.errors == errors,
        "the report counts {} errors, {errors} were found",
        report.counts.errors
    );
    Ok(())
}

fn check_occupancy(o: &Occupancy, limits: &Limits, line: u64) -> Checked {
    let within = [
        ("sessions", o.sessions, limits.max_sessions),
        ("shown sessions", o.shown_sessions, limits.max_sessions),
        (
            "session slots",
            o.session_slots,
            2 * limits.max_sessions + 64,
        ),
        (
            "plans in a session",
            o.most_plans_in_a_session,
            limits.max_plans_per_session,
        ),
        (
            "entries in a plan",
            o.most_entries_in_a_plan,
            limits.max_entries_per_plan,
        ),
        (
            "client requests in flight",
            o.outstanding_requests[0],
            limits.max_outstanding_requests,
        ),
        (
            "agent requests in flight",
            o.outstanding_requests[1],
            limits.max_outstanding_requests,
        ),
        (
            "bytes of client state",
            o.state_bytes,
            limits.max_state_bytes,
        ),
    ];
    for (what, count, limit) in within {
        ensure!(
            count <= limit,
            "after line {line}: {count} {what}, over the limit of {limit}"
        );
    }
    ensure!(
        o.remembered_ids <= 3 * 256,
        "after line {line}: {} request ids remembered",
        o.remembered_ids
    );
    ensure!(
        o.remembered_removals <= 1024 * o.sessions.max(1),
        "after line {line}: {} removed plan ids remembered for {} sessions",
        o.remembered_removals,
        o.sessions
    );
    Ok(())
}

/// The reference state only shows sessions the connection established, and
/// only plans a client could have been sent.
fn check_state(validator: &Validator, limits: &Limits) -> Checked {
    for (session, plans) in validator.state().sessions() {
        ensure!(
            validator.is_established(session),
            "the state shows session {:?}, which was never established",
            crate::text::shorten(session, 80)
        );
        for (id, view) in &plans.plans {
            if let PlanContent::Items { entries } = &view.content {
                ensure!(
                    entries.len() <= limits.max_entries_per_plan,
                    "plan {id:?} shows {} entries",
                    entries.len()
                );
            }
        }
    }
    Ok(())
}

/// Each line of JSON read whole (no TRACE-LIMIT on it) whose message holds
/// a value RFC 8259 calls unpredictable, or repeats a member name, names
/// one of each.
fn check_said_anywhere(lines: &[&[u8]], found: &[Diagnostic]) -> Checked {
    for (index, line) in lines.iter().enumerate() {
        let line_no = index as u64 + 1;
        let on_line = || found.iter().filter(move |d| d.line == line_no);
        if on_line().any(|d| d.rule.id == crate::rules::trace_format::LIMIT.id) {
            continue;
        }
        let Ok(text) = std::str::from_utf8(line) else {
            continue;
        };
        if serde_json::from_str::<&serde_json::value::RawValue>(text).is_err() {
            continue;
        }
        // An envelope's own members are the trace file's.
        let envelope = crate::trace::gives_member(text, &["direction", "message"]);
        let in_message =
            |pointer: &str| !envelope || pointer == "/message" || pointer.starts_with("/message/");
        if let Some((found, _)) = crate::trace::interop::find(text, 64) {
            let unpredictable = [env::NUMBER_RANGE.id, env::UNPAIRED_SURROGATE.id];
            ensure!(
                !found.iter().any(|f| in_message(&f.pointer))
                    || on_line().any(|d| unpredictable.contains(&d.rule.id)),
                "line {line_no} holds {:?} at {} and nothing names it",
                found[0].kind,
                found[0].pointer
            );
        }
        let repeats = crate::trace::duplicate_members(text, 64);
        // A repeat's pointer names the member: the envelope's own `message`
        // repeated is the trace file's too.
        let repeat = (repeats.iter()).find(|r| !envelope || r.pointer.starts_with("/message/"));
        if let Some(repeat) = repeat {
            ensure!(
                on_line().any(|d| d.rule.id == env::DUPLICATE_KEY.id),
                "line {line_no} repeats `{}` at {} and nothing names it",
                repeat.key,
                repeat.pointer
            );
        }
    }
    Ok(())
}

/// The input's lines as the trace format defines them (see `frame`).
fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// A line's message under each reading, and as written.
type Messages = (Vec<Value>, Vec<Written>);

/// The JSON-RPC message a line holds (inside its envelope, if any), under
/// each reading of the line (see [`readings_of`]), and as written (each
/// value of a repeated `message`); none for a line that is not JSON
/// serde_json builds.
fn messages_of(line: &[u8]) -> Messages {
    let Ok(text) = std::str::from_utf8(line) else {
        return (Vec::new(), Vec::new());
    };
    let written = match Written::parse(text) {
        Some(Written::Object(members))
            if members
                .iter()
                .any(|(name, _)| name == "direction" || name == "message") =>
        {
            members
                .into_iter()
                .filter(|(name, _)| name == "message")
                .map(|(_, message)| message)
                .collect()
        }
        Some(message) => vec![message],
        None => Vec::new(),
    };
    let readings = readings_of(text)
        .into_iter()
        .filter_map(|mut value| {
            let object = value.as_object_mut()?;
            if object.contains_key("direction") || object.contains_key("message") {
                return object.remove("message");
            }
            Some(value)
        })
        .collect();
    (readings, written)
}
