//! The live suite as a library: run an agent through the scenarios from a
//! Rust test, without a separately installed binary.
//!
//! ```no_run
//! use acp_plan_conformance::live::Scenarios;
//! use std::process::Command;
//!
//! # fn main() -> std::io::Result<()> {
//! let run = Scenarios::v1()
//!     .agent(Command::new("my-agent").arg("--stdio"))
//!     .run()?;
//! run.assert_conformant(); // panics with the human report
//! # Ok(())
//! # }
//! ```
//!
//! The agent runs as a child process in its own process group, as under
//! `acp-plan agent`, with the same scenarios, verdicts and report.

use super::process::AgentCommand;
use super::report::{judge_scenarios, render_agent, AgentReport};
use super::runner::{self, RunOptions, DEFAULT_PROMPT};
use super::scenario::{
    client_revision, select, Scenario, ScenarioError, ScenarioOutcome, ScenarioResult,
};
use super::PermissionChoice;
use crate::baseline::{AsOf, Baseline, Judgement};
use crate::report::{Format, Outcome, ReportOptions};
use crate::spec::{Revision, SpecChoice};
use crate::trace::Limits;
use chrono::NaiveDate;
use std::borrow::BorrowMut;
use std::io;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Which scenarios to run, and how: the options of `acp-plan agent`.
/// Start from [`Scenarios::v1`] (or another revision), adjust, then name
/// the agent with [`Scenarios::agent`].
#[derive(Clone, Debug)]
pub struct Scenarios {
    spec: SpecChoice,
    only: Vec<Scenario>,
    prompts: Vec<String>,
    timeout: Duration,
    scenario_timeout: Duration,
    permission: PermissionChoice,
    limits: Limits,
    out: Option<PathBuf>,
    deny_warnings: bool,
    accept_incomplete: bool,
    allow_unexercised: bool,
    baseline: Option<AsOf>,
}

impl Scenarios {
    /// The client speaks `spec`'s revision, and the rules are that revision's.
    pub fn new(spec: SpecChoice) -> Scenarios {
        Scenarios {
            spec,
            only: Vec::new(),
            prompts: Vec::new(),
            timeout: Duration::from_secs(120),
            scenario_timeout: Duration::from_secs(600),
            permission: PermissionChoice::Allow,
            limits: Limits::default(),
            out: None,
            deny_warnings: false,
            accept_incomplete: false,
            allow_unexercised: false,
            baseline: None,
        }
    }

    /// ACP v1 (the shipped protocol): every scenario.
    pub fn v1() -> Scenarios {
        Scenarios::new(SpecChoice::Fixed(Revision::V1))
    }

    /// ACP v2 (plan operations need no capability): the `capability` scenario.
    pub fn v2() -> Scenarios {
        Scenarios::new(SpecChoice::Fixed(Revision::V2))
    }

    /// The first draft of plan operations (`planCapabilities`).
    pub fn draft_2026_05() -> Scenarios {
        Scenarios::new(SpecChoice::Fixed(Revision::Draft202605))
    }

    /// Run only `scenario` (call again to add more; default: all that apply).
    pub fn only(mut self, scenario: Scenario) -> Scenarios {
        self.only.push(scenario);
        self
    }

    /// Send `text` as a prompt, one turn each (default: a task that asks for a plan).
    pub fn prompt(mut self, text: impl Into<String>) -> Scenarios {
        self.prompts.push(text.into());
        self
    }

    /// Longest wait for each response (default 120 s).
    pub fn timeout(mut self, timeout: Duration) -> Scenarios {
        self.timeout = timeout;
        self
    }

    /// Longest time for one scenario (default 600 s).
    pub fn scenario_timeout(mut self, timeout: Duration) -> Scenarios {
        self.scenario_timeout = timeout;
        self
    }

    /// How the client answers `session/request_permission` (default: allow).
    pub fn permission(mut self, answer: PermissionChoice) -> Scenarios {
        self.permission = answer;
        self
    }

    /// Input limits of the checker.
    pub fn limits(mut self, limits: Limits) -> Scenarios {
        self.limits = limits;
        self
    }

    /// Write each scenario's transcript and the agent's stderr into `dir`.
    pub fn transcripts(mut self, dir: impl Into<PathBuf>) -> Scenarios {
        self.out = Some(dir.into());
        self
    }

    /// Fail a scenario on the agent's warnings too.
    pub fn deny_warnings(mut self, deny: bool) -> Scenarios {
        self.deny_warnings = deny;
        self
    }

    /// Pass a scenario whose only problem is traffic the checker could not
    /// check (`acp-plan agent --incomplete warn`).
    pub fn accept_incomplete(mut self, accept: bool) -> Scenarios {
        self.accept_incomplete = accept;
        self
    }

    /// A run where no scenario was exercised (no plan message) passes.
    pub fn allow_unexercised(mut self, allow: bool) -> Scenarios {
        self.allow_unexercised = allow;
        self
    }

    /// Accept the failures `baseline` lists, judging expiry as of `today`
    /// (`acp-plan agent --baseline`): its scopes are scenario names. A
    /// scenario whose only failures it accepts passes; an entry that expired
    /// or matches nothing fails the run.
    pub fn baseline(mut self, baseline: Baseline, today: NaiveDate) -> Scenarios {
        self.baseline = Some(AsOf { baseline, today });
        self
    }

    /// The baseline set with [`Scenarios::baseline`].
    pub fn baseline_as_of(&self) -> Option<&AsOf> {
        self.baseline.as_ref()
    }

    /// The scenarios to run for the revision: those asked for with
    /// [`Scenarios::only`] (an error for one that does not apply), or all
    /// that apply.
    pub fn selected(&self) -> Result<Vec<Scenario>, ScenarioError> {
        select(&self.only, client_revision(self.spec))
    }

    /// The runner's options: these settings, `scenarios` (from
    /// [`Scenarios::selected`]), `agent` and the absolute `cwd` sent in
    /// `session/new`. `acp-plan agent` and [`AgentRun::run`] both build
    /// them here.
    pub fn run_options(
        &self,
        scenarios: Vec<Scenario>,
        agent: AgentCommand,
        cwd: PathBuf,
    ) -> RunOptions {
        RunOptions {
            agent,
            scenarios,
            prompts: if self.prompts.is_empty() {
                vec![DEFAULT_PROMPT.to_owned()]
            } else {
                self.prompts.clone()
            },
            spec: self.spec,
            limits: self.limits.clone(),
            timeout: self.timeout,
            scenario_timeout: self.scenario_timeout,
            cwd,
            out: self.out.clone(),
            permission: self.permission.clone(),
            deny_warnings: self.deny_warnings,
            accept_incomplete: self.accept_incomplete,
            baseline: self.baseline.clone(),
        }
    }

    /// The agent to run: its program, arguments, environment and working
    /// directory are taken from `command` (a `Command` or `&mut Command`;
    /// stdio is the suite's).
    pub fn agent(self, mut command: impl BorrowMut<Command>) -> AgentRun {
        let command = command.borrow_mut();
        let env = command
            .get_envs()
            .map(|(key, value)| {
                (
                    key.to_string_lossy().into_owned(),
                    value.map(|v| v.to_string_lossy().into_owned()),
                )
            })
            .collect();
        AgentRun {
            scenarios: self,
            program: command.get_program().to_owned(),
            args: command.get_args().map(ToOwned::to_owned).collect(),
            env,
            cwd: command.get_current_dir().map(ToOwned::to_owned),
        }
    }
}

/// An agent and the scenarios to run it through.
#[derive(Clone, Debug)]
pub struct AgentRun {
    scenarios: Scenarios,
    program: std::ffi::OsString,
    args: Vec<std::ffi::OsString>,
    /// `None` values were removed from the environment with `env_remove`.
    env: Vec<(String, Option<String>)>,
    cwd: Option<PathBuf>,
}

impl AgentRun {
    /// Run every scenario, a fresh agent process each. Fails when the agent
    /// cannot be started, the transcript directory cannot be written, or
    /// the options do not fit (a scenario that does not apply to the
    /// revision, `env_remove`); a non-conformant agent is an `Ok` run that
    /// says so.
    pub fn run(&self) -> io::Result<LiveRun> {
        let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidInput, message);
        let options = &self.scenarios;
        let scenarios = options.selected().map_err(|e| invalid(e.to_string()))?;
        let mut env = Vec::new();
        for (key, value) in &self.env {
            match value {
                Some(value) => env.push((key.clone(), value.clone())),
                None => {
                    return Err(invalid(format!(
                        "env_remove(\"{key}\") is not supported: the agent inherits the test's environment"
                    )))
                }
            }
        }
        let cwd = match &self.cwd {
            Some(dir) => dir.clone(),
            None => std::env::current_dir()?,
        }
        .canonicalize()?;
        let mut agent = AgentCommand {
            program: self.program.clone(),
            args: self.args.clone(),
            cwd: Some(cwd.clone()),
            env,
        };
        agent.anchor_program(&std::env::current_dir()?);
        let run_options = options.run_options(scenarios, agent, cwd);
        let outcomes = runner::run(&run_options, &mut |_| {})?;
        let baseline = options
            .baseline
            .as_ref()
            .map(|b| judge_scenarios(b, &outcomes));
        Ok(LiveRun {
            agent: run_options.agent.display(),
            outcomes,
            baseline,
            options: ReportOptions {
                deny_warnings: options.deny_warnings,
                accept_incomplete: options.accept_incomplete,
                show_state: false,
                quiet: false,
            },
            allow_unexercised: options.allow_unexercised,
        })
    }
}

/// The results of an agent run.
#[derive(Debug)]
pub struct LiveRun {
    agent: String,
    outcomes: Vec<ScenarioOutcome>,
    baseline: Option<Judgement>,
    options: ReportOptions,
    allow_unexercised: bool,
}

impl LiveRun {
    /// Each scenario's result, reason, checked transcript and evidence.
    pub fn outcomes(&self) -> &[ScenarioOutcome] {
        &self.outcomes
    }

    /// The result of `scenario`, if it ran.
    pub fn result(&self, scenario: Scenario) -> Option<ScenarioResult> {
        self.outcomes
            .iter()
            .find(|o| o.scenario == scenario)
            .map(|o| o.result)
    }

    /// Whether the run passes the gate `acp-plan agent` applies (exit status 0):
    /// no scenario failed, one was exercised (unless that is allowed), and
    /// no baseline entry expired or matched nothing.
    pub fn is_conformant(&self) -> bool {
        self.report().outcome() == Outcome::Pass
    }

    /// The report `acp-plan agent` prints.
    pub fn human_report(&self) -> String {
        render_agent(Format::Human, &self.report())
    }

    /// Panic with the human report unless the run [is conformant](Self::is_conformant).
    #[track_caller]
    pub fn assert_conformant(&self) {
        if !self.is_conformant() {
            panic!(
                "the agent is not conformant (acp-plan-conformance {}):\n{}",
                env!("CARGO_PKG_VERSION"),
                self.human_report()
            );
        }
    }

    fn report(&self) -> AgentReport<'_> {
        AgentReport {
            agent: &self.agent,
            outcomes: &self.outcomes,
            options: self.options,
            allow_unexercised: self.allow_unexercised,
            baseline: self.baseline.as_ref(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent() -> AgentCommand {
        AgentCommand::from_words(&["my-agent".into()]).unwrap_or_default()
    }

    #[test]
    fn run_options_carry_every_setting() {
        let settings = Scenarios::v2()
            .prompt("first")
            .prompt("second")
            .timeout(Duration::from_secs(3))
            .scenario_timeout(Duration::from_secs(4))
            .permission(PermissionChoice::Reject)
            .transcripts("/tmp/out")
            .deny_warnings(true)
            .accept_incomplete(true)
            .baseline(
                crate::baseline::Baseline {
                    file: "b.toml".into(),
                    entries: Vec::new(),
                },
                NaiveDate::from_ymd_opt(2026, 11, 23).unwrap_or_default(),
            );
        let scenarios = settings.selected().expect("v2 has scenarios");
        let options = settings.run_options(scenarios.clone(), agent(), "/work".into());
        assert_eq!(options.scenarios, scenarios);
        assert_eq!(options.prompts, ["first", "second"]);
        assert_eq!(options.spec, SpecChoice::Fixed(Revision::V2));
        assert_eq!(options.timeout, Duration::from_secs(3));
        assert_eq!(options.scenario_timeout, Duration::from_secs(4));
        assert_eq!(options.permission, PermissionChoice::Reject);
        assert_eq!(options.out, Some(PathBuf::from("/tmp/out")));
        assert_eq!(options.cwd, PathBuf::from("/work"));
        assert!(options.deny_warnings && options.accept_incomplete);
        let baseline = options.baseline.expect("the baseline is carried");
        assert_eq!(baseline.baseline.file, "b.toml");
        assert_eq!(baseline.today.to_string(), "2026-11-23");
    }

    #[test]
    fn without_prompts_the_default_prompt_is_sent_and_nothing_is_accepted() {
        let settings = Scenarios::v1();
        let options = settings.run_options(Vec::new(), agent(), "/work".into());
        assert_eq!(options.prompts, [DEFAULT_PROMPT]);
        assert!(!options.deny_warnings && !options.accept_incomplete);
        assert!(options.out.is_none() && options.baseline.is_none());
    }

    #[test]
    fn a_scenario_that_does_not_apply_is_not_selected() {
        assert!(Scenarios::v2()
            .only(Scenario::CapabilityNull)
            .selected()
            .is_err());
        // `load` brings `capability` along (under v2 it resumes from the start).
        for settings in [Scenarios::v1(), Scenarios::v2()] {
            let both = settings.only(Scenario::Load).selected();
            assert_eq!(both.ok(), Some(vec![Scenario::Capability, Scenario::Load]));
        }
    }
}
