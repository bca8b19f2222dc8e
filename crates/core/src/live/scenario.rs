//! The scenarios `acp-plan agent` runs, what the client advertises in each,
//! and how each one ends.

use super::transcript::RecentMessage;
use crate::diag::Diagnostic;
use crate::spec::{Revision, SpecChoice, ALL_CAPABILITY_KEYS};
use crate::validate::TraceReport;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// One way of driving the agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scenario {
    /// The client advertises no plan capability: no `plan_update` or
    /// `plan_removed` may appear; legacy plans are checked.
    NoCapability,
    /// The plan capability in the revision's spelling (under v2, where plan
    /// operations need none, a plain session).
    Capability,
    /// The capability key with the value `null` (not advertised).
    CapabilityNull,
    /// Only the other revision's key (e.g. `planCapabilities` under v1): the
    /// agent must treat it as not advertised.
    OtherRevisionKey,
    /// `session/load` of the `capability` session in a fresh process (v2:
    /// `session/resume` with `replayFrom: {"type": "start"}`): the replayed
    /// plans must be well-formed and end where the live session did.
    Load,
}

impl Scenario {
    /// Every scenario, in the order they run.
    pub const ALL: [Scenario; 5] = [
        Scenario::NoCapability,
        Scenario::Capability,
        Scenario::CapabilityNull,
        Scenario::OtherRevisionKey,
        Scenario::Load,
    ];

    /// The scenario's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Scenario::NoCapability => "no-capability",
            Scenario::Capability => "capability",
            Scenario::CapabilityNull => "capability-null",
            Scenario::OtherRevisionKey => "other-revision-key",
            Scenario::Load => "load",
        }
    }

    /// Whether the scenario means anything under `revision`. v2 has no plan
    /// capability (plan operations are baseline), so the capability
    /// variations collapse into `capability`, a plain session; v2 has no
    /// `session/load`, so `load` asks `session/resume` to replay from the start.
    pub fn applies_to(self, revision: Revision) -> bool {
        revision.spelling().capability_key.is_some()
            || matches!(self, Scenario::Capability | Scenario::Load)
    }

    /// The `initialize` params the client sends: v1's `clientCapabilities`
    /// and `clientInfo`, or v2's `capabilities` and `info`.
    pub(crate) fn initialize_params(self, client: Revision) -> Value {
        let info = json!({
            "name": "acp-plan",
            "title": "acp-plan conformance client",
            "version": env!("CARGO_PKG_VERSION"),
        });
        let capabilities = self.client_capabilities(client);
        match client {
            Revision::V2Schema117 | Revision::V2 => json!({
                "protocolVersion": protocol_version(client),
                "info": info,
                "capabilities": capabilities,
            }),
            Revision::Draft202605 | Revision::V1Schema117 | Revision::V1 => json!({
                "protocolVersion": protocol_version(client),
                "clientCapabilities": capabilities,
                "clientInfo": info,
            }),
        }
    }

    /// The client capabilities sent in this scenario under `revision`. Under
    /// v1 (and the draft) fs and terminal are advertised as unsupported: the
    /// client implements neither, and answers such requests with "method not
    /// found". v2 has neither capability, so it gets an empty object.
    pub fn client_capabilities(self, revision: Revision) -> Value {
        let mut caps = Map::new();
        if revision == Revision::V2 {
            return Value::Object(caps);
        }
        caps.insert(
            "fs".into(),
            json!({"readTextFile": false, "writeTextFile": false}),
        );
        caps.insert("terminal".into(), Value::Bool(false));
        if let Some(key) = revision.spelling().capability_key {
            match self {
                Scenario::NoCapability => {}
                Scenario::Capability | Scenario::Load => {
                    caps.insert(key.into(), json!({}));
                }
                Scenario::CapabilityNull => {
                    caps.insert(key.into(), Value::Null);
                }
                Scenario::OtherRevisionKey => {
                    for other in ALL_CAPABILITY_KEYS.iter().filter(|k| **k != key) {
                        caps.insert((*other).into(), json!({}));
                    }
                }
            }
        }
        Value::Object(caps)
    }

    /// The revision the validator must use for this scenario. Under `auto`
    /// the handshake decides, except where the client deliberately spells
    /// the capability as another revision does: detection would take that
    /// spelling at its word, so the client's own revision is fixed.
    pub(crate) fn validator_spec(self, spec: SpecChoice, client: Revision) -> SpecChoice {
        match (self, spec) {
            (Scenario::OtherRevisionKey, SpecChoice::Auto) => SpecChoice::Fixed(client),
            _ => spec,
        }
    }

    /// What the client does differently in this scenario.
    pub fn describe(self) -> &'static str {
        match self {
            Scenario::NoCapability => "client advertises no plan capability",
            Scenario::Capability => {
                "client advertises the plan capability (under v2: a plain session)"
            }
            Scenario::CapabilityNull => "client sends the capability key as null",
            Scenario::OtherRevisionKey => "client sends only the other revision's capability key",
            Scenario::Load => "session/load (v2: session/resume replaying from the start) of the capability session in a fresh process",
        }
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scenario {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Scenario::ALL
            .into_iter()
            .find(|sc| sc.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Scenario::ALL.iter().map(|sc| sc.name()).collect();
                format!(
                    "unknown scenario `{s}` (expected one of {})",
                    names.join(", ")
                )
            })
    }
}

/// The revision the client speaks: the fixed one, or v1 (the shipped
/// protocol) under `auto`.
pub(crate) fn client_revision(spec: SpecChoice) -> Revision {
    match spec {
        SpecChoice::Fixed(revision) => revision,
        SpecChoice::Auto => Revision::V1,
    }
}

/// The `protocolVersion` the client asks for when speaking `revision`.
pub fn protocol_version(revision: Revision) -> u64 {
    match revision {
        Revision::V2Schema117 | Revision::V2 => 2,
        Revision::Draft202605 | Revision::V1Schema117 | Revision::V1 => 1,
    }
}

/// A scenario asked for that cannot run.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScenarioError {
    /// The scenario needs a plan capability the client revision does not have.
    #[error("scenario `{scenario}` does not apply under {client} (no plan capability); run `capability` or `load`")]
    NotApplicable {
        /// The scenario asked for.
        scenario: Scenario,
        /// The revision the suite's client speaks.
        client: Revision,
    },
}

/// The scenarios to run: those asked for (in run order, without repeats), or
/// every one that applies. `load` needs the `capability` session, so it
/// brings `capability` along. Asking for one that does not apply is an error.
pub fn select(requested: &[Scenario], client: Revision) -> Result<Vec<Scenario>, ScenarioError> {
    if requested.is_empty() {
        return Ok(Scenario::ALL
            .into_iter()
            .filter(|s| s.applies_to(client))
            .collect());
    }
    if let Some(bad) = requested.iter().find(|s| !s.applies_to(client)) {
        return Err(ScenarioError::NotApplicable {
            scenario: *bad,
            client,
        });
    }
    let mut chosen: Vec<Scenario> = requested.to_vec();
    if chosen.contains(&Scenario::Load) {
        chosen.push(Scenario::Capability);
    }
    chosen.sort();
    chosen.dedup();
    Ok(chosen)
}

/// How a scenario ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScenarioResult {
    /// The agent did what the scenario checks, with no error.
    Pass,
    /// The agent broke a rule, failed or hung.
    Fail,
    /// Nothing the scenario needed happened (no plan message was seen).
    NotExercised,
}

impl ScenarioResult {
    /// As written in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ScenarioResult::Pass => "pass",
            ScenarioResult::Fail => "fail",
            ScenarioResult::NotExercised => "not_exercised",
        }
    }

    /// As written for people.
    pub fn label(self) -> &'static str {
        match self {
            ScenarioResult::Pass => "pass",
            ScenarioResult::Fail => "fail",
            ScenarioResult::NotExercised => "not exercised",
        }
    }
}

/// What happened to one scenario.
#[derive(Debug)]
pub struct ScenarioOutcome {
    /// The scenario run.
    pub scenario: Scenario,
    /// How it ended.
    pub result: ScenarioResult,
    /// One line on why.
    pub reason: String,
    /// The checked transcript (named after the scenario), when the scenario
    /// ran an agent.
    pub report: Option<TraceReport>,
    /// Where the transcript was written (`--out`).
    pub transcript: Option<PathBuf>,
    /// The revision the transcript was checked with when it was fixed
    /// rather than detected: `acp-plan check --spec` needs it to agree.
    pub fixed_spec: Option<Revision>,
    /// A timeout, crash, garbage on stdout or failed setup request, e.g.
    /// "timed out after 60 s waiting for ...".
    pub incident: Option<String>,
    /// How the connection ended, for every scenario that started the agent:
    /// what a reader of a failed scenario needs to act without rerunning.
    pub evidence: Option<Evidence>,
    /// Diagnostics on the client's own messages: the scenario's doing (e.g.
    /// the other revision's key, sent on purpose), never findings against
    /// the agent. They are left out of `report`; `check` of the transcript
    /// shows them.
    pub own_diagnostics: Vec<Diagnostic>,
}

impl ScenarioOutcome {
    /// A scenario that did not start the agent.
    pub fn skipped(scenario: Scenario, reason: impl Into<String>) -> ScenarioOutcome {
        ScenarioOutcome {
            scenario,
            result: ScenarioResult::NotExercised,
            reason: reason.into(),
            report: None,
            transcript: None,
            fixed_spec: None,
            incident: None,
            evidence: None,
            own_diagnostics: Vec::new(),
        }
    }
}

/// How one connection ended, with what helps to see why (bounded: the last
/// few messages, shortened, and the last lines of stderr).
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    /// How the agent process ended, e.g. "exit status 0".
    pub agent_end: String,
    /// The last lines the agent wrote to stderr.
    pub stderr_tail: String,
    /// The last messages of the connection.
    pub recent: Vec<RecentMessage>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_per_scenario_and_revision() {
        let caps = |s: Scenario, r| s.client_capabilities(r);
        assert_eq!(caps(Scenario::Capability, Revision::V1)["plan"], json!({}));
        assert_eq!(
            caps(Scenario::Capability, Revision::Draft202605)["planCapabilities"],
            json!({})
        );
        assert!(caps(Scenario::Capability, Revision::V2)
            .get("plan")
            .is_none());
        assert!(caps(Scenario::NoCapability, Revision::V1)
            .get("plan")
            .is_none());
        assert_eq!(
            caps(Scenario::CapabilityNull, Revision::V1)["plan"],
            Value::Null
        );
        let other = caps(Scenario::OtherRevisionKey, Revision::V1);
        assert_eq!(other["planCapabilities"], json!({}));
        assert!(other.get("plan").is_none());
        let other = caps(Scenario::OtherRevisionKey, Revision::Draft202605);
        assert_eq!(other["plan"], json!({}));
        assert!(other.get("planCapabilities").is_none());
        assert_eq!(
            caps(Scenario::NoCapability, Revision::V1)["terminal"],
            false
        );
    }

    #[test]
    fn selection() {
        assert_eq!(select(&[], Revision::V1).unwrap(), Scenario::ALL);
        // v2: a plain session, and its resume replaying from the start.
        assert_eq!(
            select(&[], Revision::V2).unwrap(),
            [Scenario::Capability, Scenario::Load]
        );
        assert_eq!(
            select(&[Scenario::Load], Revision::V2).unwrap(),
            [Scenario::Capability, Scenario::Load]
        );
        assert_eq!(
            select(
                &[Scenario::Load, Scenario::NoCapability, Scenario::Load],
                Revision::V1
            )
            .unwrap(),
            [Scenario::NoCapability, Scenario::Capability, Scenario::Load]
        );
        assert!(select(&[Scenario::CapabilityNull], Revision::V2).is_err());
    }

    #[test]
    fn initialize_params_per_protocol_version() {
        let v1 = Scenario::Capability.initialize_params(Revision::V1);
        assert_eq!(v1["protocolVersion"], 1);
        assert_eq!(v1["clientCapabilities"]["plan"], json!({}));
        assert_eq!(v1["clientInfo"]["name"], "acp-plan");
        let v2 = Scenario::Capability.initialize_params(Revision::V2);
        assert_eq!(v2["protocolVersion"], 2);
        assert_eq!(v2["info"]["name"], "acp-plan");
        assert_eq!(v2["capabilities"], json!({}));
        assert!(v2.get("clientInfo").is_none());
    }

    #[test]
    fn names_round_trip() {
        for s in Scenario::ALL {
            assert_eq!(s.name().parse::<Scenario>(), Ok(s));
        }
        assert!("nope".parse::<Scenario>().is_err());
    }

    #[test]
    fn other_revision_key_fixes_the_revision_under_auto() {
        assert_eq!(
            Scenario::OtherRevisionKey.validator_spec(SpecChoice::Auto, Revision::V1),
            SpecChoice::Fixed(Revision::V1)
        );
        assert_eq!(
            Scenario::Capability.validator_spec(SpecChoice::Auto, Revision::V1),
            SpecChoice::Auto
        );
    }
}
