//! The rule catalog: every check the suite makes, with its id, level,
//! revisions and the spec sentence it enforces.
//!
//! One file per family. Each file declares its rules as constants next to the
//! code that decides them, and lists them in its `RULES`; [`trace_rules`] is
//! the union. The types of the catalog are in [`crate::catalog`]. Lower layers (trace, jsonrpc, spec) only describe what they saw; the
//! decision that something breaks a rule is made here.

cli_module!(cap);
cli_module!(env);
cli_module!(full);
cli_module!(id);
cli_module!(init);
cli_module!(load);
cli_module!(ses);
cli_module!(shape);
cli_module!(trace_format);

use crate::catalog::Rule;

/// The families that judge ACP message traces (`check`, `agent`, `tap`).
const TRACE_FAMILIES: [&[&Rule]; 9] = [
    trace_format::RULES,
    env::RULES,
    init::RULES,
    ses::RULES,
    cap::RULES,
    shape::RULES,
    id::RULES,
    full::RULES,
    load::RULES,
];

/// The rules that judge ACP message traces, family by family, in a stable
/// order. (The `DAG-*` rules, which judge plans of tool calls, are declared
/// in the `acp-plan-dag` crate; `acp_plan_dag::every_rule` lists both.)
pub fn trace_rules() -> impl Iterator<Item = &'static Rule> {
    TRACE_FAMILIES.into_iter().flatten().copied()
}

/// The trace rules one trace can trigger on its own: all but
/// LOAD-REPLAY-MISSING, a plan a replay leaves out, which only shows when
/// the replay is on another connection than the live session (only
/// `acp-plan agent` decides it; `check` decides LOAD-REPLAY-STATE when one
/// connection holds both).
pub fn single_trace_rules() -> impl Iterator<Item = &'static Rule> {
    trace_rules().filter(|r| decided_by_one_trace(r))
}

/// Whether one trace is enough to decide `rule` (see [`single_trace_rules`]).
pub fn decided_by_one_trace(rule: &Rule) -> bool {
    rule.id != load::REPLAY_MISSING.id
}

/// Look a trace rule up by id.
pub fn find(id: &str) -> Option<&'static Rule> {
    trace_rules().find(|r| r.id == id)
}
