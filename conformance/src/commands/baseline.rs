use super::check::{check_all, limits};
use super::{print, EXIT_CONFORMANT};
use crate::cli::{BaselineCommand, BaselineWriteArgs};
use crate::error::Error;
use acp_plan_conformance::baseline::{self, WriteOptions};
use acp_plan_conformance::validate::Config;

pub fn run(command: BaselineCommand) -> Result<u8, Error> {
    match command {
        BaselineCommand::Write(args) => write(args),
    }
}

fn write(args: BaselineWriteArgs) -> Result<u8, Error> {
    let config = Config {
        spec: args.spec.spec,
        limits: limits(&args.limits),
    };
    // A baseline counts diagnostics: no client state is kept.
    let (traces, unread) = check_all(&args.files, &config, false);
    if unread > 0 {
        // A baseline of part of the run would fail the next full run.
        return Err(Error::Unread(unread));
    }
    let text = baseline::write(
        &traces,
        &WriteOptions {
            warnings: args.deny_warnings,
            reason: args.reason,
            expires: args.expires,
        },
    );
    match &args.output {
        None => print(&text),
        Some(path) => std::fs::write(path, text).map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?,
    }
    Ok(EXIT_CONFORMANT)
}
