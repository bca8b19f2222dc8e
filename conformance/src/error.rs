//! Why a command could not do its job: every such error ends the run with
//! exit status 2, and `main` is the one place that prints it.

use acp_plan_conformance::baseline::LoadError;
use acp_plan_conformance::gen::synthetic::SyntheticError;
use acp_plan_conformance::live::fake_agent::ScriptError;
use acp_plan_conformance::live::scenario::ScenarioError;
use acp_plan_dag::data::DataError;
use acp_plan_dag::tools::ToolsError;
use std::io;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("cannot create {}: {source}", path.display())]
    Create { path: PathBuf, source: io::Error },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    /// Some inputs could not be read (each was reported as it failed); the
    /// run still reported on the others.
    #[error("{0} of the inputs could not be read")]
    Unread(usize),
    #[error(transparent)]
    Baseline(#[from] LoadError),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Script(#[from] ScriptError),
    #[error("fake-agent: {0}")]
    FakeAgent(io::Error),
    #[error(transparent)]
    Generator(#[from] SyntheticError),
    /// `acp-plan dag --input/--state/--tools FILE`.
    #[error("--{flag} {}: {source}", path.display())]
    DagInput {
        flag: &'static str,
        path: PathBuf,
        source: DagInputError,
    },
    /// The live modes: the agent could not be started or its traffic not
    /// kept; `tap` marks its own lines on the agent's stderr.
    #[error("{0}")]
    Live(io::Error),
    #[error("{0}")]
    Tap(io::Error),
    /// An option or a combination of options that cannot be honoured.
    #[error("{0}")]
    Usage(String),
}

/// A data or tools file of `acp-plan dag` that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DagInputError {
    #[error("cannot read: {0}")]
    Read(io::Error),
    #[error("larger than --max-bytes ({0})")]
    TooLarge(usize),
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error(transparent)]
    Data(#[from] DataError),
    #[error(transparent)]
    Tools(#[from] ToolsError),
}

/// What `tap` puts before its lines on the agent's (shared) stderr.
pub const TAP_PREFIX: &str = "[acp-plan tap] ";

/// Print `error` on stderr, as every command reports the errors that end it.
pub fn print(error: &Error) {
    match error {
        // Each unreadable input was printed when it failed (see `print`'s
        // callers): the count adds nothing.
        Error::Unread(_) => {}
        Error::Tap(e) => eprintln!("{TAP_PREFIX}error: {e}"),
        other => eprintln!("error: {other}"),
    }
}
