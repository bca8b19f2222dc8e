use super::check::{check_all, limits};
use super::{print, EXIT_CONFORMANT, EXIT_USAGE};
use crate::baseline::{self, WriteOptions};
use crate::cli::{BaselineCommand, BaselineWriteArgs};
use crate::validate::Config;

pub fn run(command: BaselineCommand) -> u8 {
    match command {
        BaselineCommand::Write(args) => write(args),
    }
}

fn write(args: BaselineWriteArgs) -> u8 {
    let config = Config {
        spec: args.spec,
        limits: limits(&args.limits),
    };
    let (traces, io_failed) = check_all(&args.files, &config);
    if io_failed {
        // A baseline of part of the run would fail the next full run.
        return EXIT_USAGE;
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
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return EXIT_USAGE;
            }
        }
    }
    EXIT_CONFORMANT
}
