use crate::cli::{AgentRelayArgs, ClientArgs, FakeClientArgs};
use crate::error::Error;

#[cfg(not(unix))]
pub fn run(_args: ClientArgs) -> Result<u8, Error> {
    Err(Error::Usage(
        "acp-plan client needs a Unix-like system (process groups, Unix sockets)".into(),
    ))
}

#[cfg(not(unix))]
pub fn relay(_args: AgentRelayArgs) -> Result<u8, Error> {
    Err(Error::Usage(
        "acp-plan agent-relay needs a Unix-like system".into(),
    ))
}

#[cfg(unix)]
pub fn relay(args: AgentRelayArgs) -> Result<u8, Error> {
    acp_plan_conformance::live::relay::run(&args.socket).map_err(|source| Error::Read {
        path: args.socket.clone(),
        source,
    })?;
    Ok(super::EXIT_CONFORMANT)
}

#[cfg(unix)]
pub fn run(args: ClientArgs) -> Result<u8, Error> {
    use super::{check::limits, emit, finish_reports, open_reports};
    use super::{EXIT_CONFORMANT, EXIT_NOT_CONFORMANT};
    use acp_plan_conformance::live::client_gate::{self, has_placeholder, ClientOptions};
    use acp_plan_conformance::live::client_report::{
        client_traces, judge_client_scenarios, progress_line, render_client, ClientReport,
    };
    use acp_plan_conformance::live::process::AgentCommand;
    use acp_plan_conformance::report::Outcome;
    use std::io::IsTerminal;

    let reports = open_reports(&args.report)?;
    let baselines = super::LiveBaseline::open(&args.baseline)?;
    let mut client = AgentCommand::from_words(&args.command)
        .ok_or_else(|| Error::Usage("no client command after `--`".into()))?;
    if !has_placeholder(&client) {
        return Err(Error::Usage(format!(
            "the client command has no `{}`: put it where the client takes its agent's command line",
            client_gate::AGENT_PLACEHOLDER
        )));
    }
    let here =
        std::env::current_dir().map_err(|e| Error::Usage(format!("no working directory: {e}")))?;
    client.anchor_program(&here);
    client.cwd = match &args.cwd {
        Some(dir) => Some(
            dir.canonicalize()
                .map_err(|e| Error::Usage(format!("bad working directory: {e}")))?,
        ),
        None => None,
    };
    client.env = args.env.clone();
    let exe = std::env::current_exe().map_err(|e| {
        Error::Usage(format!(
            "cannot find the acp-plan binary to start as the agent: {e}"
        ))
    })?;
    let options = ClientOptions {
        client,
        relay: vec![exe.into_os_string(), "agent-relay".into()],
        timeout: args.timeout,
        scenario_timeout: args.scenario_timeout,
        limits: limits(&args.limits),
        out: args.out.clone(),
        max_memory_bytes: args.max_memory.saturating_mul(1024 * 1024),
        deny_warnings: args.verdict.deny_warnings,
        robustness_fails: args.robustness == crate::cli::IncompletePolicy::Fail,
        baseline: baselines.accept.clone(),
        spec: args.spec.spec,
    };
    let show_progress = std::io::stderr().is_terminal();
    let mut progress = |outcome: &client_gate::ClientOutcome| {
        if show_progress {
            eprintln!("{}", progress_line(outcome));
        }
    };
    let outcomes = match args.fuzz {
        Some(iterations) => {
            let reproducers = args
                .out
                .clone()
                .unwrap_or_else(|| here.join("acp-plan-client-fuzz"));
            client_gate::run_fuzz(&options, args.seed, iterations, &reproducers, &mut progress)
        }
        None => client_gate::run(
            &options,
            &client_gate::scenario_turns(&args.scenarios),
            &mut progress,
        ),
    }
    .map_err(Error::Live)?;
    let name = options.client.display();
    let judgement = baselines
        .accept
        .as_ref()
        .map(|b| judge_client_scenarios(b, &outcomes));
    let report = ClientReport {
        client: &name,
        outcomes: &outcomes,
        options: args.report.options(Some(&args.verdict), None),
        baseline: judgement.as_ref(),
    };
    let format = args.report.format();
    emit(&render_client(format, &report), &reports)?;
    baselines.write(&client_traces(&outcomes), args.verdict.deny_warnings)?;
    let status = match report.outcome() {
        Outcome::Pass => EXIT_CONFORMANT,
        Outcome::Fail => EXIT_NOT_CONFORMANT,
    };
    finish_reports(reports, status, |format| render_client(format, &report))
}

/// `acp-plan fake-client`: exit 0 once the turn ended (or the agent went away).
pub fn fake(args: FakeClientArgs) -> Result<u8, Error> {
    use acp_plan_conformance::live::fake_client::FakeClient;
    let client = FakeClient {
        agent: args.agent,
        protocol_version: args.protocol_version,
        prompt: args.prompt,
        load: args.load,
        flaw: args.flaw,
    };
    let mut screen = std::io::stdout().lock();
    client.run(&mut screen).map_err(Error::Live)?;
    Ok(super::EXIT_CONFORMANT)
}
