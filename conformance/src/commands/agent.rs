use crate::cli::AgentArgs;
use crate::error::Error;

#[cfg(not(unix))]
pub fn run(_args: AgentArgs) -> Result<u8, Error> {
    Err(Error::Usage(
        "acp-plan agent needs a Unix-like system (process groups)".into(),
    ))
}

#[cfg(unix)]
pub fn run(args: AgentArgs) -> Result<u8, Error> {
    use super::{check::limits, emit, finish_reports, open_reports};
    use super::{EXIT_CONFORMANT, EXIT_NOT_CONFORMANT};
    use acp_plan_conformance::live::process::AgentCommand;
    use acp_plan_conformance::live::report::{
        judge_scenarios, progress_line, render_agent, render_incidents, traces, AgentReport,
    };
    use acp_plan_conformance::live::runner;
    use acp_plan_conformance::live::Scenarios;
    use acp_plan_conformance::report::{Format, Outcome};
    use std::io::IsTerminal;

    let reports = open_reports(&args.report)?;
    let baselines = super::LiveBaseline::open(&args.baseline)?;
    let mut settings = Scenarios::new(args.spec.spec)
        .timeout(args.timeout)
        .scenario_timeout(args.scenario_timeout)
        .permission(args.permission.clone())
        .limits(limits(&args.limits))
        .deny_warnings(args.verdict.deny_warnings)
        .accept_incomplete(args.verdict.incomplete == crate::cli::IncompletePolicy::Warn);
    for scenario in &args.scenarios {
        settings = settings.only(*scenario);
    }
    for prompt in &args.prompts {
        settings = settings.prompt(prompt.clone());
    }
    if let Some(out) = &args.out {
        settings = settings.transcripts(out.clone());
    }
    if let Some(baseline) = baselines.accept.clone() {
        settings = settings.baseline(baseline.baseline, baseline.today);
    }
    let scenarios = settings.selected()?;
    let cwd = args
        .cwd
        .clone()
        .map_or_else(std::env::current_dir, Ok)
        .and_then(|dir| dir.canonicalize())
        .map_err(|e| Error::Usage(format!("bad working directory: {e}")))?;
    let mut agent = AgentCommand::from_words(&args.command)
        .ok_or_else(|| Error::Usage("no agent command after `--`".into()))?;
    if let Ok(here) = std::env::current_dir() {
        agent.anchor_program(&here);
    }
    agent.cwd = Some(cwd.clone());
    agent.env = args.env.clone();
    let options = settings.run_options(scenarios, agent, cwd);
    let show_progress = std::io::stderr().is_terminal();
    let outcomes = runner::run(&options, &mut |outcome| {
        if show_progress {
            eprintln!("{}", progress_line(outcome));
        }
    })
    .map_err(Error::Live)?;
    let report_options = args.report.options(Some(&args.verdict), Some(&args.state));
    let format = args.report.format();
    if format != Format::Human {
        // Only the human report has room for stderr tails: elsewhere they go to stderr too.
        eprint!("{}", render_incidents(&outcomes));
    }
    let agent_name = options.agent.display();
    let judgement = settings
        .baseline_as_of()
        .map(|b| judge_scenarios(b, &outcomes));
    let report = AgentReport {
        agent: &agent_name,
        outcomes: &outcomes,
        options: report_options,
        allow_unexercised: args.allow_unexercised,
        baseline: judgement.as_ref(),
    };
    emit(&render_agent(format, &report), &reports)?;
    baselines.write(&traces(&outcomes), args.verdict.deny_warnings)?;
    let status = match report.outcome() {
        Outcome::Pass => EXIT_CONFORMANT,
        Outcome::Fail => EXIT_NOT_CONFORMANT,
    };
    finish_reports(reports, status, |format| render_agent(format, &report))
}
