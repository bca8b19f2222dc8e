//! `acp-plan completions SHELL` and `acp-plan man`: generated from the same
//! clap definitions as the parser, so they cannot drift from it.

use super::EXIT_CONFORMANT;
use crate::cli::{command, CompletionsArgs};
use crate::error::Error;
use std::io::{self, Write};

pub fn completions(args: CompletionsArgs) -> Result<u8, Error> {
    let mut command = command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "acp-plan", &mut out);
    Ok(write_out(&out))
}

pub fn man() -> Result<u8, Error> {
    let mut out = Vec::new();
    clap_mangen::Man::new(command())
        .render(&mut out)
        .map_err(|e| Error::Usage(format!("cannot render the man page: {e}")))?;
    Ok(write_out(&out))
}

fn write_out(bytes: &[u8]) -> u8 {
    let mut stdout = io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = stdout.write_all(bytes).and_then(|()| stdout.flush());
    EXIT_CONFORMANT
}
