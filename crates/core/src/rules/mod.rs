//! The rule catalog: every check the suite makes, with its id, level,
//! revisions and the spec sentence it enforces.
//!
//! One file per family. Each file declares its rules as constants next to the
//! code that decides them, and lists them in its `RULES`; [`trace_rules`] is
//! the union. The types of the catalog are in [`crate::catalog`]. Lower layers (trace, jsonrpc, spec) only describe what they saw; the
//! decision that something breaks a rule is made here.
//!
//! Rules are moving to units (`unit.rs`): one file that owns a rule's
//! decision and state, fed typed events by the engine, and registered in the
//! one table below (which also lists its rules in the catalog, after its
//! family's). The older families still decide inside `validate/` and only
//! keep their constants and message builders here.

cli_module!(cap);
cli_module!(env);
cli_module!(full);
cli_module!(id);
cli_module!(init);
cli_module!(load);
cli_module!(shape);
cli_module!(trace_format);
pub(crate) mod unit;

use crate::catalog::Rule;

// The units, in the order the engine tells them each event (the order of
// their findings on one line). One row per unit: `module => Type,`
// declares `rules/module.rs` and registers `module::Type`.
unit::units! {
    update_params => UpdateParams,
    before_init => BeforeInit,
    session_offers => SessionOffers,
    session_close => CloseOffer,
    session_ids => SessionIds,
    initialize => InitializeExchange,
    prompt_before_setup => PromptBeforeSetup,
    resume_replay => ResumeReplay,
    replay_after_answer => ReplayAfterAnswer,
    update_after_cancel => UpdateAfterCancel,
    replay_complete => ReplayComplete,
    unknown_session => UnknownSession,
    plan_operations => PlanOperations,
    update_notification => UpdateNotification,
    replay_on_connection => ReplayOnConnection,
}

/// The families that judge ACP message traces (`check`, `agent`, `tap`),
/// by the prefix of their rule ids.
const TRACE_FAMILIES: [(&str, &[&Rule]); 9] = [
    ("TRACE-", trace_format::RULES),
    ("ENV-", env::RULES),
    ("INIT-", init::RULES),
    ("SES-", &[]),
    ("CAP-", cap::RULES),
    ("SHAPE-", shape::RULES),
    ("ID-", id::RULES),
    ("FULL-", full::RULES),
    ("LOAD-", load::RULES),
];

/// The rules that judge ACP message traces, family by family (a family's
/// file first, then its units'), in a stable order. (The `DAG-*` rules,
/// which judge plans of tool calls, are declared in the `acp-plan-dag`
/// crate; `acp_plan_dag::every_rule` lists both.)
pub fn trace_rules() -> impl Iterator<Item = &'static Rule> {
    TRACE_FAMILIES.into_iter().flat_map(|(prefix, rules)| {
        let of_units = UNIT_RULES.iter().copied().flatten().copied();
        (rules.iter().copied()).chain(of_units.filter(move |rule| rule.id.starts_with(prefix)))
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_rule_is_in_the_catalog_once() {
        for rule in UNIT_RULES.iter().copied().flatten() {
            let listed = trace_rules().filter(|r| r.id == rule.id).count();
            assert_eq!(listed, 1, "{} is listed {listed} times", rule.id);
        }
        let mut ids: Vec<&str> = trace_rules().map(|r| r.id).collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), count, "a rule id is listed twice");
    }
}
