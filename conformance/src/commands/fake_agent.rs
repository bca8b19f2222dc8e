use super::EXIT_CONFORMANT;
use crate::cli::FakeAgentArgs;
use crate::error::Error;
use acp_plan_conformance::live::fake_agent::{play, Script};
use std::io;

pub fn run(args: FakeAgentArgs) -> Result<u8, Error> {
    let script = Script::load(&args.script, args.case.as_deref())?;
    match play(script, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => Ok(EXIT_CONFORMANT),
        // The client went away: nothing left to play to.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(EXIT_CONFORMANT),
        Err(e) => Err(Error::FakeAgent(e)),
    }
}
