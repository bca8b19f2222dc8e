//! Live modes: drive a real agent through scenarios as a client
//! ([`runner`], `acp-plan agent`), watch a real client-agent connection
//! ([`tap`], `acp-plan tap`), and play a scripted agent ([`fake_agent`],
//! `acp-plan fake-agent`).
//!
//! Everything goes through the same [`Validator`](crate::Validator) as
//! `check`, line by line, with the line numbers of the transcript
//! ([`transcript`]) that `check` re-checks with the same result.
//!
//! Agents run as child processes in their own process group; whatever
//! happens, the group is killed when a scenario ends, so nothing an agent
//! starts outlives it (children that start their own session or group are
//! beyond reach, as for any supervisor).

#[cfg(unix)]
mod client;
pub mod fake_agent;
#[cfg(unix)]
pub mod process;
pub mod report;
#[cfg(unix)]
pub mod runner;
pub mod scenario;
#[cfg(unix)]
pub mod tap;
pub mod transcript;

use crate::catalog::Counts;
use crate::rules::shape::PLAN_KINDS;
use crate::validate::{TraceReport, Validator};
use serde_json::{json, Value};
use std::fmt;
use std::str::FromStr;

/// How the client answers `session/request_permission`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum PermissionChoice {
    /// The first option of kind `allow_once` or `allow_always` (else the
    /// first option).
    #[default]
    Allow,
    /// The first option of kind `reject_once` or `reject_always` (else
    /// cancelled).
    Reject,
    /// The `cancelled` outcome.
    Cancel,
    /// The option with this `optionId`.
    Option(String),
}

impl PermissionChoice {
    /// The `outcome` of the response to a permission request with `params`.
    pub fn outcome(&self, params: Option<&Value>) -> Value {
        let options: &[Value] = params
            .and_then(|p| p.get("options"))
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let id_of_kind = |kinds: &[&str]| {
            options.iter().find_map(|o| {
                let kind = o.get("kind").and_then(Value::as_str)?;
                kinds
                    .contains(&kind)
                    .then(|| o.get("optionId").cloned())
                    .flatten()
            })
        };
        let chosen = match self {
            PermissionChoice::Allow => id_of_kind(&["allow_once", "allow_always"])
                .or_else(|| options.first().and_then(|o| o.get("optionId").cloned())),
            PermissionChoice::Reject => id_of_kind(&["reject_once", "reject_always"]),
            PermissionChoice::Cancel => None,
            PermissionChoice::Option(id) => Some(Value::from(id.as_str())),
        };
        match chosen {
            Some(id) => json!({"outcome": "selected", "optionId": id}),
            None => json!({"outcome": "cancelled"}),
        }
    }
}

impl FromStr for PermissionChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "allow" => Ok(PermissionChoice::Allow),
            "reject" => Ok(PermissionChoice::Reject),
            "cancel" => Ok(PermissionChoice::Cancel),
            _ => match s.strip_prefix("option:") {
                Some(id) if !id.is_empty() => Ok(PermissionChoice::Option(id.to_owned())),
                _ => Err(format!(
                    "unknown permission answer `{s}` (expected allow, reject, cancel or option:ID)"
                )),
            },
        }
    }
}

/// An empty report for a live connection named `name`, to fill with
/// [`TraceReport::add`] and [`finish_report`].
fn new_report(name: &str, validator: &Validator) -> TraceReport {
    TraceReport {
        name: name.to_owned(),
        revision: validator.revision().clone(),
        diagnostics: Vec::new(),
        dropped: Vec::new(),
        counts: Counts::default(),
        by_rule: Default::default(),
        lines: 0,
        messages: 0,
        state: validator.state().clone(),
    }
}

/// Close a live connection's report as `check_reader` closes a trace's.
fn finish_report(report: &mut TraceReport, validator: &Validator, lines: u64) {
    report.diagnostics.sort_by_key(|d| d.line);
    report.revision = validator.revision().clone();
    report.messages = validator.messages();
    report.state = validator.state().clone();
    report.lines = lines;
}

/// Plan messages seen from the agent, by kind (well-formed or not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanCounts([u64; 3]);

impl PlanCounts {
    /// Count `message` if it is a plan-related `session/update`.
    pub fn count(&mut self, message: &Value) {
        if message.get("method").and_then(Value::as_str) != Some("session/update") {
            return;
        }
        let kind = message
            .pointer("/params/update/sessionUpdate")
            .and_then(Value::as_str);
        if let Some(i) = kind.and_then(|k| PLAN_KINDS.iter().position(|p| *p == k)) {
            if let Some(n) = self.0.get_mut(i) {
                *n += 1;
            }
        }
    }

    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl fmt::Display for PlanCounts {
    /// "plan ×2, plan_update ×1", or "none".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = PLAN_KINDS
            .iter()
            .zip(self.0)
            .filter(|(_, n)| *n > 0)
            .map(|(kind, n)| format!("{kind} ×{n}"))
            .collect();
        if parts.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permission_answers() {
        let params = json!({"options": [
            {"optionId": "no", "kind": "reject_once", "name": "No"},
            {"optionId": "always", "kind": "allow_always", "name": "Always"},
            {"optionId": "yes", "kind": "allow_once", "name": "Yes"},
        ]});
        let selected = |c: PermissionChoice| c.outcome(Some(&params));
        assert_eq!(
            selected(PermissionChoice::Allow),
            json!({"outcome": "selected", "optionId": "always"})
        );
        assert_eq!(
            selected(PermissionChoice::Reject),
            json!({"outcome": "selected", "optionId": "no"})
        );
        assert_eq!(
            selected(PermissionChoice::Cancel),
            json!({"outcome": "cancelled"})
        );
        assert_eq!(
            selected("option:yes".parse().unwrap()),
            json!({"outcome": "selected", "optionId": "yes"})
        );
        assert_eq!(
            PermissionChoice::Allow.outcome(None),
            json!({"outcome": "cancelled"})
        );
        assert!("option:".parse::<PermissionChoice>().is_err());
    }

    #[test]
    fn plan_counts() {
        let mut counts = PlanCounts::default();
        let update = |kind: &str| {
            json!({"jsonrpc": "2.0", "method": "session/update",
                   "params": {"sessionId": "s", "update": {"sessionUpdate": kind}}})
        };
        counts.count(&update("plan"));
        counts.count(&update("plan"));
        counts.count(&update("plan_removed"));
        counts.count(&update("agent_message_chunk"));
        counts.count(&json!({"method": "other"}));
        assert_eq!(counts.total(), 3);
        assert_eq!(counts.to_string(), "plan ×2, plan_removed ×1");
        assert_eq!(PlanCounts::default().to_string(), "none");
    }
}
