//! Bytes to trace records: line framing with a size bound, UTF-8, JSON
//! syntax, nesting depth, and the envelope-or-bare decision.
//!
//! Nothing here knows JSON-RPC; it only reports what a line is.

cli_module!(discover);
cli_module!(interop);
mod lines;
mod names;
mod record;
mod unique;
mod value;

pub use lines::{LineReader, RawLine};
pub(crate) use names::read_fields;
pub use record::{
    is_object, parse_message, parse_record, remarks_of_envelope, EnvelopeRemark, LineObject,
    Record, RecordFault, MAX_SUPPORTED_DEPTH,
};
/// Whether the JSON texts `a` and `b` hold the same value, however they are
/// spelled (whitespace, escapes, member order, `2` and `2.0`); a text
/// serde_json does not read is only the same as itself.
pub fn same_json_value(a: &str, b: &str) -> bool {
    value::same_value(a, b)
}

pub use unique::{
    duplicate_keys, duplicate_members, each_element, each_member, each_reading,
    each_top_level_reading, first_duplicate_member, gives_member, is_plain, last_member,
    members_named, readings, DuplicateMember, Readings, MAX_READINGS,
};

/// Bounds that keep memory flat on hostile input. The defaults are far above
/// what real traces need; exceeding one is a `TRACE-LIMIT` diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest line read; a longer one is skipped (without buffering it).
    pub max_line_bytes: usize,
    /// Deepest nesting of arrays and objects in one line (at most
    /// `MAX_SUPPORTED_DEPTH`, 128; a larger value acts as that).
    pub max_depth: usize,
    /// Sessions tracked at once on one connection.
    pub max_sessions: usize,
    /// Keyed plans live at once in one session.
    pub max_plans_per_session: usize,
    /// Entries in one plan.
    pub max_entries_per_plan: usize,
    /// Requests awaiting a response, per direction.
    pub max_outstanding_requests: usize,
    /// Diagnostics kept for the report; more are counted, not stored.
    pub max_diagnostics: usize,
    /// Bytes of plan content the reference client state holds at once
    /// (entry texts, plan ids, URIs, markdown, custom plan members): the
    /// item limits above bound counts, this bounds their size.
    pub max_state_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_line_bytes: 16 * 1024 * 1024,
            max_depth: 128,
            max_sessions: 10_000,
            max_plans_per_session: 1_000,
            max_entries_per_plan: 10_000,
            max_outstanding_requests: 10_000,
            max_diagnostics: 10_000,
            max_state_bytes: 32 * 1024 * 1024,
        }
    }
}
