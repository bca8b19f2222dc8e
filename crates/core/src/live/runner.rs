//! `acp-plan agent`: run the agent through the scenarios, a fresh process
//! per connection, acting as a conformant client.

use super::client::{Awaited, Connection, ConnectionEnd, ConnectionOptions, Incident};
use super::process::AgentCommand;
use super::scenario::{client_revision, Evidence, Scenario, ScenarioOutcome, ScenarioResult};
use super::PermissionChoice;
use crate::baseline::AsOf;
use crate::catalog::Counts;
use crate::rules::load::{compare_replay, REPLAY_MISSING};
use crate::spec::{Revision, SpecChoice};
use crate::state::SessionPlans;
use crate::trace::Limits;
use crate::validate::{Config, TraceReport};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The prompt sent when no `--prompt` is given.
pub(crate) const DEFAULT_PROMPT: &str = "Before you change anything, make a plan of at least three steps for this task and keep it up to date as you go: add a `--verbose` flag to a small command-line tool, document it, and add a test for it. Then carry out the first step.";

/// What `acp-plan agent` was asked to do.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// How to start the agent; a fresh process for every scenario.
    pub agent: AgentCommand,
    /// The scenarios to run, already selected (see [`super::scenario::select`]).
    pub scenarios: Vec<Scenario>,
    /// The prompts to send, one turn each (`--prompt`; default `DEFAULT_PROMPT`).
    pub prompts: Vec<String>,
    /// The revision to judge by, or how to choose it from the handshake.
    pub spec: SpecChoice,
    /// Bounds on the checker's memory for the agent's traffic.
    pub limits: Limits,
    /// Longest wait for each response (`--timeout`).
    pub timeout: Duration,
    /// Longest time for one scenario (`--scenario-timeout`).
    pub scenario_timeout: Duration,
    /// Sent as `cwd` in `session/new` and `session/load` or `session/resume` (absolute).
    pub cwd: PathBuf,
    /// Where transcripts and stderr logs go.
    pub out: Option<PathBuf>,
    /// How the suite answers the agent's `session/request_permission`.
    pub permission: PermissionChoice,
    /// Whether a warning fails a scenario (`--deny-warnings`).
    pub deny_warnings: bool,
    /// Pass a scenario whose only problem is traffic the checker could not check.
    pub accept_incomplete: bool,
    /// Failures accepted for now, by scenario name (see [`crate::baseline`]).
    pub baseline: Option<AsOf>,
}

/// What the `capability` scenario leaves for `load`.
struct LiveSession {
    id: String,
    /// `loadSession` advertised (v2: protocol version 2 agreed, so
    /// `session/resume` is there).
    load_advertised: bool,
    plans: SessionPlans,
    plan_messages: u64,
    spec: SpecChoice,
}

/// Run every selected scenario, calling `on_outcome` as each one ends. Fails
/// only when the agent cannot be started or `--out` cannot be written.
pub fn run(
    options: &RunOptions,
    on_outcome: &mut dyn FnMut(&ScenarioOutcome),
) -> io::Result<Vec<ScenarioOutcome>> {
    if let Some(out) = &options.out {
        fs::create_dir_all(out).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot create {}: {e}", out.display()))
        })?;
    }
    let client = client_revision(options.spec);
    let mut outcomes = Vec::new();
    let mut live = None;
    for &scenario in &options.scenarios {
        let outcome = if scenario == Scenario::Load {
            run_load(options, client, live.as_ref())?
        } else {
            let (outcome, session) = run_live(options, scenario, client)?;
            if scenario == Scenario::Capability {
                live = session;
            }
            outcome
        };
        on_outcome(&outcome);
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

fn open(options: &RunOptions, scenario: Scenario, spec: SpecChoice) -> io::Result<Connection> {
    let out = |suffix: &str| {
        options
            .out
            .as_ref()
            .map(|dir| dir.join(format!("{}{suffix}", scenario.name())))
    };
    Connection::open(
        scenario.name(),
        ConnectionOptions {
            agent: &options.agent,
            config: Config {
                spec,
                limits: options.limits.clone(),
            },
            timeout: options.timeout,
            deadline: Instant::now() + options.scenario_timeout,
            scenario_timeout: options.scenario_timeout,
            permission: &options.permission,
            transcript: out(".jsonl"),
            stderr_log: out(".stderr.log"),
        },
    )
}

/// What a live scenario got done before it ended.
#[derive(Default)]
struct Progress {
    session: Option<String>,
    load_advertised: bool,
}

fn run_live(
    options: &RunOptions,
    scenario: Scenario,
    client: Revision,
) -> io::Result<(ScenarioOutcome, Option<LiveSession>)> {
    let spec = scenario.validator_spec(options.spec, client);
    let mut connection = open(options, scenario, spec)?;
    let mut progress = Progress::default();
    let incident = drive_session(&mut connection, options, scenario, client, &mut progress).err();
    let mut end = connection.finish(incident.as_ref());
    let baselined = take_baselined(&mut end, options);
    let session = match (&incident, progress.session) {
        (None, Some(id)) => Some(LiveSession {
            plans: end.report.state.session(&id).cloned().unwrap_or_default(),
            id,
            load_advertised: progress.load_advertised,
            plan_messages: end.plans.total(),
            spec,
        }),
        _ => None,
    };
    let exercised = end.plans.total() > 0;
    let (result, reason) = judge(&end, incident.as_ref(), options, exercised);
    let reason = match result {
        ScenarioResult::NotExercised => format!(
            "the agent sent no plan message ({}); try a --prompt that asks for a plan",
            scenario.describe()
        ),
        ScenarioResult::Pass => format!(
            "checked {} plan message(s): {}{}{}",
            end.plans.total(),
            end.plans,
            warnings_note(&end),
            client_note(&end, scenario)
        ),
        ScenarioResult::Fail => reason,
    } + &baselined;
    Ok((
        outcome(scenario, result, reason, end, incident, spec),
        session,
    ))
}

fn drive_session(
    connection: &mut Connection,
    options: &RunOptions,
    scenario: Scenario,
    client: Revision,
    progress: &mut Progress,
) -> Result<(), Incident> {
    let init = connection.request("initialize", scenario.initialize_params(client))?;
    progress.load_advertised = match client {
        // No capability gates it: "Agents that support the `session` method
        // surface MUST support `session/resume`", once v2 is agreed on.
        Revision::V2Schema117 | Revision::V2 => {
            init.result.get("protocolVersion") == Some(&Value::from(2))
        }
        Revision::Draft202605 | Revision::V1Schema117 | Revision::V1 => {
            init.result.pointer("/agentCapabilities/loadSession") == Some(&Value::Bool(true))
        }
    };
    let new = connection.request("session/new", json!({"cwd": options.cwd, "mcpServers": []}))?;
    let Some(id) = new.result.get("sessionId").and_then(Value::as_str) else {
        return Err(Incident::BadResult {
            method: "session/new",
            what: "has no string `sessionId`",
        });
    };
    let id = id.to_owned();
    progress.session = Some(id.clone());
    // Under v2 the prompt response only accepts the prompt; the turn ends
    // when the session reports that it is idle.
    let idle = |message: &Value| {
        message.pointer("/params/sessionId") == Some(&Value::from(id.as_str()))
            && message.pointer("/params/update/sessionUpdate") == Some(&Value::from("state_update"))
            && message.pointer("/params/update/state") == Some(&Value::from("idle"))
    };
    let turn_end: Option<Awaited<'_>> = match client {
        Revision::V2Schema117 | Revision::V2 => {
            Some(("the session's `state_update` to idle", &idle))
        }
        Revision::Draft202605 | Revision::V1Schema117 | Revision::V1 => None,
    };
    for prompt in &options.prompts {
        connection.request_until(
            "session/prompt",
            json!({"sessionId": id, "prompt": [{"type": "text", "text": prompt}]}),
            turn_end,
        )?;
    }
    Ok(())
}

fn run_load(
    options: &RunOptions,
    client: Revision,
    live: Option<&LiveSession>,
) -> io::Result<ScenarioOutcome> {
    let skipped = |reason: &str| Ok(ScenarioOutcome::skipped(Scenario::Load, reason));
    let Some(live) = live else {
        return skipped("the capability scenario did not complete a session to load");
    };
    if !live.load_advertised {
        return skipped(match client {
            Revision::V2Schema117 | Revision::V2 => "the agent did not answer protocol version 2, whose session/resume replays the session",
            Revision::Draft202605 | Revision::V1Schema117 | Revision::V1 => {
                "the agent does not advertise agentCapabilities.loadSession"
            }
        });
    }
    let mut connection = open(options, Scenario::Load, live.spec)?;
    let incident = replay_session(&mut connection, options, client, live).err();
    let mut end = connection.finish(incident.as_ref());
    let baselined = take_baselined(&mut end, options);
    let replayed = end.plans.total();
    let exercised = live.plan_messages > 0 || replayed > 0;
    let (result, reason) = judge(&end, incident.as_ref(), options, exercised);
    let reason = match result {
        ScenarioResult::NotExercised => {
            "the capability session sent no plan message and the replay none: nothing to compare"
                .to_owned()
        }
        ScenarioResult::Pass if replayed == 0 => format!(
            "the replay had no plan message, though the live session sent {}{}",
            live.plan_messages,
            warnings_note(&end)
        ),
        ScenarioResult::Pass if end.agent_warnings.contains_key(REPLAY_MISSING.id) => format!(
            "the replay ({replayed} plan message(s): {}) shows no plan the live session did not end with, but leaves some out{}",
            end.plans,
            warnings_note(&end)
        ),
        ScenarioResult::Pass => format!(
            "the replay ({replayed} plan message(s): {}) ends with the plans the live session ended with{}",
            end.plans,
            warnings_note(&end)
        ),
        ScenarioResult::Fail => reason,
    } + &baselined;
    Ok(outcome(
        Scenario::Load,
        result,
        reason,
        end,
        incident,
        live.spec,
    ))
}

fn replay_session(
    connection: &mut Connection,
    options: &RunOptions,
    client: Revision,
    live: &LiveSession,
) -> Result<(), Incident> {
    connection.request("initialize", Scenario::Load.initialize_params(client))?;
    let mut params = json!({"sessionId": live.id, "cwd": options.cwd, "mcpServers": []});
    let method = match client {
        // v2 resumes quietly unless asked to replay the whole conversation.
        Revision::V2Schema117 | Revision::V2 => {
            params["replayFrom"] = json!({"type": "start"});
            "session/resume"
        }
        Revision::Draft202605 | Revision::V1Schema117 | Revision::V1 => "session/load",
    };
    let reply = connection.request(method, params)?;
    // The replay is what the agent sent before it answered; v2 ends it
    // with replay_complete, after which updates are live.
    let replay = connection
        .replay_end_plans(&live.id)
        .or_else(|| connection.session_plans(&live.id))
        .unwrap_or_default();
    for mut d in compare_replay(&live.id, &live.plans, &replay) {
        d.line = reply.line;
        connection.add_diagnostic(d);
    }
    Ok(())
}

/// The result of a connection: an incident or an error from the agent
/// fails it (a warning too under `deny_warnings`); otherwise it passes if it
/// was exercised. The reason is filled in for failures only.
fn judge(
    end: &ConnectionEnd,
    incident: Option<&Incident>,
    options: &RunOptions,
    exercised: bool,
) -> (ScenarioResult, String) {
    let mut findings = Vec::new();
    if end.agent_counts.errors > 0 {
        findings.push(rule_list(
            end.agent_counts.errors,
            "error",
            &end.agent_errors,
        ));
    }
    if end.agent_counts.incomplete > 0 && !options.accept_incomplete {
        // The checker's own limits: not the agent's fault, but a scenario
        // that could not be checked completely cannot pass.
        findings.push(format!(
            "{} {} of the traffic not checked (checker limits, TRACE-LIMIT)",
            end.agent_counts.incomplete,
            if end.agent_counts.incomplete == 1 {
                "part"
            } else {
                "parts"
            }
        ));
    }
    if options.deny_warnings && end.agent_counts.warnings > 0 {
        findings.push(rule_list(
            end.agent_counts.warnings,
            "warning",
            &end.agent_warnings,
        ));
    }
    if let Some(incident) = incident {
        let mut reason = incident.describe();
        if !findings.is_empty() {
            reason = format!("{reason}; also {}", findings.join("; "));
        }
        return (ScenarioResult::Fail, reason);
    }
    if !findings.is_empty() {
        return (ScenarioResult::Fail, findings.join("; "));
    }
    if !exercised {
        return (ScenarioResult::NotExercised, String::new());
    }
    (ScenarioResult::Pass, String::new())
}

/// Diagnostics on the client's own messages are the scenario's doing, not
/// the agent's; say that they were left out.
fn client_note(end: &ConnectionEnd, scenario: Scenario) -> String {
    match (end.own_diagnostics.len(), scenario) {
        (0, _) => String::new(),
        (n, Scenario::OtherRevisionKey) => format!(
            "; {n} diagnostic(s) on the client's initialize, which sends the other revision's key on purpose, left out"
        ),
        (n, _) => format!("; {n} diagnostic(s) on the client's own messages, left out"),
    }
}

/// Take what the baseline accepts in this scenario (its transcript's report
/// is named after it) out of the counts and rule lists it is judged by;
/// the report keeps those diagnostics, and its renderers mark them
/// baselined. Returns a note for the scenario's reason ("" for none).
fn take_baselined(end: &mut ConnectionEnd, options: &RunOptions) -> String {
    let Some(baseline) = &options.baseline else {
        return String::new();
    };
    let Some((accepted, rules)) = baselined(baseline, &end.report) else {
        return String::new();
    };
    end.agent_errors.retain(|rule, _| !rules.contains_key(rule));
    end.agent_warnings
        .retain(|rule, _| !rules.contains_key(rule));
    let open = &mut end.agent_counts;
    open.errors = open.errors.saturating_sub(accepted.errors);
    open.warnings = open.warnings.saturating_sub(accepted.warnings);
    open.infos = open.infos.saturating_sub(accepted.infos);
    open.incomplete = open.incomplete.saturating_sub(accepted.incomplete);
    format!("; baselined: {}", rule_counts(&rules))
}

/// What `baseline` accepts in one scenario's report (named after the
/// scenario): the counts and each accepted rule with its count; `None`
/// when it accepts nothing there.
pub(crate) fn baselined(
    baseline: &AsOf,
    report: &TraceReport,
) -> Option<(Counts, BTreeMap<&'static str, u64>)> {
    let judgement = baseline.judge(std::slice::from_ref(report));
    let accepted = judgement.baselined_in(0);
    if accepted == Counts::default() {
        return None;
    }
    let rules = report
        .by_rule
        .iter()
        .filter(|(rule, _)| judgement.covering(0, rule).is_some())
        .map(|(rule, count)| (*rule, *count))
        .collect();
    Some((accepted, rules))
}

/// "CAP-PLAN-OPS ×1, SHAPE-STATUS ×1".
pub(crate) fn rule_counts(by_rule: &BTreeMap<&'static str, u64>) -> String {
    let rules: Vec<String> = by_rule.iter().map(|(id, n)| format!("{id} ×{n}")).collect();
    rules.join(", ")
}

/// "; 1 warning from the agent: FULL-DELTA ×1", or nothing.
fn warnings_note(end: &ConnectionEnd) -> String {
    if end.agent_counts.warnings == 0 {
        return String::new();
    }
    format!(
        "; {}",
        rule_list(end.agent_counts.warnings, "warning", &end.agent_warnings)
    )
}

/// "2 errors: CAP-PLAN-OPS ×1, SHAPE-STATUS ×1".
fn rule_list(total: u64, what: &str, by_rule: &BTreeMap<&'static str, u64>) -> String {
    format!(
        "{total} {what}{} from the agent: {}",
        if total == 1 { "" } else { "s" },
        rule_counts(by_rule)
    )
}

fn outcome(
    scenario: Scenario,
    result: ScenarioResult,
    reason: String,
    end: ConnectionEnd,
    incident: Option<Incident>,
    spec: SpecChoice,
) -> ScenarioOutcome {
    let (transcript, reason) = match end.transcript {
        Ok(path) => (path, reason),
        Err(e) => (
            None,
            format!("{reason} (writing the transcript failed: {e})"),
        ),
    };
    ScenarioOutcome {
        scenario,
        result,
        reason,
        incident: incident.map(|i| i.describe()),
        evidence: Some(Evidence {
            agent_end: end.process.describe(),
            stderr_tail: end.stderr_tail,
            recent: end.recent,
        }),
        own_diagnostics: end.own_diagnostics,
        report: Some(end.report),
        transcript,
        fixed_spec: match spec {
            SpecChoice::Fixed(revision) => Some(revision),
            SpecChoice::Auto => None,
        },
    }
}
