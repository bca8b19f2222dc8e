use super::{EXIT_CONFORMANT, EXIT_USAGE};
use crate::cli::FakeAgentArgs;
use crate::live::fake_agent::{play, Script};
use std::io;

pub fn run(args: FakeAgentArgs) -> u8 {
    let script = match Script::load(&args.script, args.case.as_deref()) {
        Ok(script) => script,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_USAGE;
        }
    };
    match play(script, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => EXIT_CONFORMANT,
        // The client went away: nothing left to play to.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_CONFORMANT,
        Err(e) => {
            eprintln!("error: fake-agent: {e}");
            EXIT_USAGE
        }
    }
}
