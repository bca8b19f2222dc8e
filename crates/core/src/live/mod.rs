//! Live modes: drive a real agent through scenarios as a client
//! ([`Scenarios`] from Rust; `runner`, `acp-plan agent`), watch a real
//! client-agent connection (`tap`, `acp-plan tap`), play a scripted agent
//! (`fake_agent`, `acp-plan fake-agent`), and play a conformant (or
//! hostile) agent to a client under test (`client_gate`, `acp-plan
//! client`). The modules named are the command's, public with the `cli`
//! feature.
//!
//! Everything goes through the same [`Validator`] as
//! `check`, line by line, with the line numbers of the transcript
//! (`transcript`) that `check` re-checks with the same result.
//!
//! Agents run as child processes in their own process group; whatever
//! happens, the group is killed when a scenario ends, so nothing an agent
//! starts outlives it (children that start their own session or group are
//! beyond reach, as for any supervisor).

#[cfg(unix)]
mod client;
cli_module!(client_fuzz);
cli_module!(
    #[cfg(unix)]
    client_gate
);
cli_module!(
    #[cfg(unix)]
    client_report
);
cli_module!(client_scenario);
cli_module!(fake_agent);
cli_module!(fake_client);
cli_module!(
    #[cfg(unix)]
    process
);
cli_module!(
    #[cfg(unix)]
    relay
);
cli_module!(report);
cli_module!(
    #[cfg(unix)]
    runner
);
cli_module!(scenario);
#[cfg(unix)]
mod suite;
cli_module!(
    #[cfg(unix)]
    tap
);
cli_module!(transcript);

pub use scenario::{Evidence, Scenario, ScenarioError, ScenarioOutcome, ScenarioResult};
#[cfg(unix)]
pub use suite::{AgentRun, LiveRun, Scenarios};
pub use transcript::RecentMessage;

use crate::catalog::Counts;
use crate::jsonrpc::Direction;
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

/// How a tapped session ended: what a report says beyond the rules, so an
/// agent that crashed mid-turn is not just "conformant".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionEnd {
    /// How the agent process ended, e.g. "exit status 0", "killed by signal 9".
    pub agent_end: String,
    /// Whether the agent ended abnormally (a status other than 0, or a signal).
    pub agent_failed: bool,
    /// The side that closed its stream first: the client (end of file on the
    /// agent's stdin) or the agent (end of its stdout, while the client's
    /// side was open); `None` when not known.
    pub first_closed: Option<Direction>,
    /// Requests still waiting for their response at the end.
    pub unanswered: Vec<Unanswered>,
    /// Last lines cut at teardown (no newline): their direction and bytes.
    pub cut_lines: Vec<(Direction, u64)>,
    /// Lines of traffic the checker skipped because it fell behind
    /// (forwarded unchanged, not checked), and their bytes.
    pub skipped_lines: u64,
    /// The bytes of the skipped lines.
    pub skipped_bytes: u64,
}

/// A request left without a response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unanswered {
    /// Who sent the request.
    pub direction: Direction,
    /// The request's id, as written.
    pub id: String,
    /// The request's method.
    pub method: String,
    /// Its line in the trace.
    pub line: u64,
}

impl SessionEnd {
    /// Whether anything but a clean end happened.
    pub(crate) fn abnormal(&self) -> bool {
        self.agent_failed
            || !self.unanswered.is_empty()
            || !self.cut_lines.is_empty()
            || self.skipped_lines > 0
            || self.skipped_bytes > 0
    }

    /// One line per fact, for people.
    pub fn describe(&self) -> Vec<String> {
        let side = |d: Direction| match d {
            Direction::ClientToAgent => "the client",
            Direction::AgentToClient => "the agent",
        };
        let mut lines = vec![format!("agent: {}", self.agent_end)];
        lines.push(match self.first_closed {
            Some(Direction::ClientToAgent) => {
                "closed first: the client (end of file on the agent's stdin)".to_owned()
            }
            Some(Direction::AgentToClient) => {
                "closed first: the agent (its stdout), while the client's side was open".to_owned()
            }
            None => "closed first: unknown".to_owned(),
        });
        if self.unanswered.is_empty() {
            lines.push("requests left unanswered: none".to_owned());
        } else {
            let listed: Vec<String> = self
                .unanswered
                .iter()
                .map(|u| {
                    format!(
                        "`{}` (id {}, line {}) from {}",
                        u.method,
                        u.id,
                        u.line,
                        side(u.direction)
                    )
                })
                .collect();
            lines.push(format!("requests left unanswered: {}", listed.join(", ")));
        }
        for (direction, bytes) in &self.cut_lines {
            lines.push(format!(
                "a line cut at teardown: {bytes} bytes from {} without a newline",
                side(*direction)
            ));
        }
        if self.skipped_lines > 0 || self.skipped_bytes > 0 {
            lines.push(format!(
                "skipped by the checker (it fell behind; forwarded, not checked): {} line(s), {} bytes",
                self.skipped_lines, self.skipped_bytes
            ));
        }
        lines
    }

    /// The JSON report's `session_end`.
    pub fn to_json(&self) -> Value {
        let side = |d: Direction| match d {
            Direction::ClientToAgent => "client",
            Direction::AgentToClient => "agent",
        };
        json!({
            "agent": self.agent_end,
            "agent_failed": self.agent_failed,
            "first_closed": self.first_closed.map(side),
            "unanswered": self.unanswered.iter().map(|u| json!({
                "from": side(u.direction),
                "id": u.id,
                "method": u.method,
                "line": u.line,
            })).collect::<Vec<_>>(),
            "cut_lines": self.cut_lines.iter().map(|(d, bytes)| json!({
                "from": side(*d),
                "bytes": bytes,
            })).collect::<Vec<_>>(),
            "skipped_lines": self.skipped_lines,
            "skipped_bytes": self.skipped_bytes,
        })
    }
}

/// Plan messages seen from the agent, by kind (well-formed or not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlanCounts([u64; 3]);

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

    /// The plan messages counted, of all kinds.
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
