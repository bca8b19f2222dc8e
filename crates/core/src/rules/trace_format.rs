//! TRACE-*: the input itself (records the suite cannot read or place).
//!
//! These are about the trace, not the peers: a trace the suite cannot read
//! cannot be called conformant, so unreadable records are errors.

use crate::catalog::{docs, Basis, Citation, Level, Rule, ALL_REVISIONS};
use crate::diag::Diagnostic;
use crate::trace::{EnvelopeRemark, RecordFault};

/// A trace line that is neither a message nor a well-formed envelope.
pub const RECORD: Rule = Rule {
    id: "TRACE-RECORD",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Every trace line is a JSON-RPC message or an envelope {direction, message[, time]}",
    citation: Citation {
        document: docs::SUITE,
        section: "Traces",
        text:
            "A trace is newline-delimited JSON (UTF-8, one record per line, blank lines skipped).",
        note:
            "The suite's own trace format: a record it cannot read is not a message it can judge.",
    },
    revision_citations: &[],
};

/// Input the checker did not (fully) check because of one of its limits:
/// its own limit, against no party.
pub const LIMIT: Rule = Rule {
    id: "TRACE-LIMIT",
    level: Level::Limit,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A message exceeds an input limit of the checker and was not (fully) checked",
    citation: Citation {
        document: docs::SUITE,
        section: "Limits",
        text: "A record over a limit is not fully checked, so the suite cannot call the trace conformant.",
        note: "The checker's own limit, not a violation by either party.",
    },
    revision_citations: &[],
};

/// A bare message that cannot be placed in a direction, so no party is
/// judged on it.
pub const DIRECTION: Rule = Rule {
    id: "TRACE-DIRECTION",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A bare message whose direction cannot be inferred (use envelopes)",
    citation: Citation {
        document: docs::SUITE,
        section: "Traces",
        text: "A bare message's direction is inferred from its method or from the request it answers; where that is impossible, record the trace with envelopes.",
        note: "",
    },
    revision_citations: &[],
};

/// A byte order mark at the start of a bare trace: the file's writer or the
/// first message's sender put it there, and nothing tells which.
pub(crate) const FILE_BOM: Rule = Rule {
    id: "TRACE-BOM",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A bare trace does not start with a byte order mark (U+FEFF): whether it was on the wire (ENV-BOM) or only in the file is ambiguous",
    citation: Citation {
        document: docs::SUITE,
        section: "Inputs that can be read more than one way",
        text: "A byte order mark at the start of a bare trace may be the recorder's or the first message's sender's, so it is reported once as an ambiguity, against no party.",
        note: "Before an envelope at the start of the file the mark is the recorder's, and not reported: the suite reads the trace all the same.",
    },
    revision_citations: &[],
};

/// The TRACE-* rules, in catalog order.
pub const RULES: &[&Rule] = &[&RECORD, &LIMIT, &DIRECTION, &FILE_BOM];

/// The diagnostic for an envelope fault, or `None` for faults of the message
/// itself (those belong to `env`).
pub(crate) fn record_fault(fault: &RecordFault) -> Option<Diagnostic> {
    Some(match fault {
        RecordFault::TooDeep { limit } => Diagnostic::new(
            &LIMIT,
            format!("arrays and objects nest deeper than {limit} levels; the line was not checked"),
        )
        .hint("raise --max-depth if this nesting is intended"),
        RecordFault::BadDirection { found } => Diagnostic::new(
            &RECORD,
            format!("envelope `direction` is {found}, not \"client_to_agent\" or \"agent_to_client\""),
        )
        .hint("write the direction of the message as one of the two strings"),
        RecordFault::MissingMessage => Diagnostic::new(&RECORD, "envelope has no `message`")
            .hint("put the JSON-RPC message under `message`"),
        RecordFault::EnvelopeMember => Diagnostic::new(
            &RECORD,
            "line mixes envelope members (direction, message) with JSON-RPC members",
        )
        .hint("an envelope holds only direction, message and time; the JSON-RPC members go inside `message`"),
        // Pointers point into the message, so "" is the message itself.
        RecordFault::NotObject { in_envelope: true } => {
            Diagnostic::new(&RECORD, "envelope `message` is not a JSON object")
        }
        RecordFault::DuplicateKey {
            in_envelope: true,
            reason,
        } => Diagnostic::new(&RECORD, format!("envelope `message` could not be read: {reason}")),
        _ => return None,
    })
}

/// An envelope fault that leaves its message readable (it is checked all
/// the same).
pub(crate) fn envelope_remark(remark: &EnvelopeRemark) -> Diagnostic {
    match remark {
        EnvelopeRemark::TimeNotString { found } => Diagnostic::new(
            &RECORD,
            format!("envelope `time` is {found}, not a string; the message was still checked"),
        )
        .hint("write `time` as a string (e.g. RFC 3339), or leave it out"),
        EnvelopeRemark::UnknownMember { name } => Diagnostic::new(
            &RECORD,
            format!("envelope member `{name}` is not part of the trace format (direction, message, time); the message was still checked"),
        )
        .hint("an envelope holds only direction, message and time"),
    }
}

/// An envelope line that starts with a byte order mark: the trace file's
/// fault (whatever wrote it), not the message's.
pub(crate) fn envelope_byte_order_mark() -> Diagnostic {
    Diagnostic::new(
        &RECORD,
        "the line starts with a byte order mark (U+FEFF) before its envelope, which is not part of the trace format; the message was still checked",
    )
    .hint("write trace files as UTF-8 without a byte order mark")
}

/// A bare trace whose first line starts with a byte order mark: the file's
/// writer or the first message's sender put it there, and nothing tells
/// which.
pub(crate) fn file_byte_order_mark() -> Diagnostic {
    Diagnostic::new(
        &FILE_BOM,
        "the trace starts with a byte order mark (U+FEFF): whatever wrote the file or the sender of its first message put it there, so no party is judged on it; the message was still checked",
    )
    .hint("record the trace with envelopes, or write trace files as UTF-8 without a byte order mark (a mark the sender writes on later lines is ENV-BOM)")
}

/// A line longer than the limit.
pub(crate) fn line_too_long(bytes: u64, limit: usize) -> Diagnostic {
    Diagnostic::new(
        &LIMIT,
        format!("line is {bytes} bytes, over the limit of {limit}; it was skipped unchecked"),
    )
    .hint("raise --max-line-bytes if messages this large are expected")
}

/// A bare request or notification with a method that says nothing of its direction.
pub(crate) fn unplaced_method(method: &str) -> Diagnostic {
    Diagnostic::new(
        &DIRECTION,
        format!(
            "cannot tell who sent `{}` in a bare trace; it was not checked",
            crate::text::shorten(method, 80)
        ),
    )
    .at("/method")
    .hint("record the trace with envelopes ({\"direction\": ..., \"message\": ...})")
}

/// A second bare response with an id already answered: its sender, or the
/// first one's, is unknown, so is the party at fault.
pub(crate) fn duplicate_or_stray_response(id: &str, direction: crate::jsonrpc::Direction) -> Diagnostic {
    Diagnostic::new(
        &DIRECTION,
        format!(
            "response id {id} came again in a bare trace: either the {} answered request {id} twice, or the {} sent one of the two responses to no request; no one is judged on which",
            direction.sender(),
            direction.opposite().sender()
        ),
    )
    .at("/id")
    .hint("record the trace with envelopes so each response's direction is known")
}

/// A bare response whose id is in flight in both directions: it was paired
/// with the `assumed` request, but may answer `alternative` (the methods).
pub(crate) fn ambiguous_response(id: &str, assumed: &str, alternative: &str) -> Diagnostic {
    Diagnostic::new(
        &DIRECTION,
        format!(
            "response id {id} is in flight in both directions; it may answer `{}` or `{}`, so no one is judged on which (paired with the older request for the count)",
            crate::text::shorten(assumed, 60),
            crate::text::shorten(alternative, 60)
        ),
    )
    .at("/id")
    .hint("record the trace with envelopes so each response's direction is known")
}
