use super::EXIT_USAGE;
use crate::cli::AgentArgs;

#[cfg(not(unix))]
pub fn run(_args: AgentArgs) -> u8 {
    eprintln!("error: acp-plan agent needs a Unix-like system (process groups)");
    EXIT_USAGE
}

#[cfg(unix)]
pub fn run(args: AgentArgs) -> u8 {
    use super::{check::limits, print, EXIT_CONFORMANT, EXIT_NOT_CONFORMANT};
    use crate::cli::Format;
    use crate::live::process::AgentCommand;
    use crate::live::report::{agent_outcome, progress_line, render_agent, render_incidents};
    use crate::live::runner::{self, RunOptions, DEFAULT_PROMPT};
    use crate::live::scenario::{client_revision, select};
    use crate::report::{Outcome, ReportOptions};
    use std::io::IsTerminal;

    let scenarios = match select(&args.scenarios, client_revision(args.spec)) {
        Ok(scenarios) => scenarios,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let cwd = match args
        .cwd
        .clone()
        .map_or_else(std::env::current_dir, Ok)
        .and_then(|dir| dir.canonicalize())
    {
        Ok(cwd) => cwd,
        Err(e) => {
            eprintln!("error: bad working directory: {e}");
            return EXIT_USAGE;
        }
    };
    let Some(mut agent) = AgentCommand::from_words(&args.command) else {
        eprintln!("error: no agent command after `--`");
        return EXIT_USAGE;
    };
    if let Ok(here) = std::env::current_dir() {
        agent.anchor_program(&here);
    }
    agent.cwd = Some(cwd.clone());
    agent.env = args.env.clone();
    let options = RunOptions {
        agent,
        scenarios,
        prompts: if args.prompts.is_empty() {
            vec![DEFAULT_PROMPT.to_owned()]
        } else {
            args.prompts.clone()
        },
        spec: args.spec,
        limits: limits(&args.limits),
        timeout: args.timeout,
        scenario_timeout: args.scenario_timeout,
        cwd,
        out: args.out.clone(),
        permission: args.permission.clone(),
        deny_warnings: args.deny_warnings,
        accept_incomplete: args.incomplete == crate::cli::IncompletePolicy::Warn,
    };
    let show_progress = std::io::stderr().is_terminal();
    let outcomes = match runner::run(&options, &mut |outcome| {
        if show_progress {
            eprintln!("{}", progress_line(outcome));
        }
    }) {
        Ok(outcomes) => outcomes,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    let report_options = ReportOptions {
        deny_warnings: args.deny_warnings,
        accept_incomplete: args.incomplete == crate::cli::IncompletePolicy::Warn,
        show_state: args.show_state,
        quiet: args.quiet,
    };
    if args.format != Format::Human {
        // Only the human report has room for stderr tails: elsewhere they go to stderr.
        eprint!("{}", render_incidents(&outcomes));
    }
    print(&render_agent(
        args.format,
        &outcomes,
        report_options,
        args.allow_unexercised,
    ));
    match agent_outcome(&outcomes, args.allow_unexercised) {
        Outcome::Pass => EXIT_CONFORMANT,
        Outcome::Fail => EXIT_NOT_CONFORMANT,
    }
}
