//! Helpers shared by the integration tests of the `acp-plan` binary: running
//! it, and (from `acp-plan-test-support`) where the repository is and the
//! corpus files in it.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

// Where the repository is and the corpus files in it: one copy for every
// test crate of the workspace.
pub use acp_plan_test_support::{corpus_files, repo_root};

pub mod excerpts;

/// Run `acp-plan` from the repository root (so that file names in reports
/// are repository-relative) with nothing on standard input.
pub fn acp_plan(args: &[&str]) -> Output {
    acp_plan_with_stdin(args, &[])
}

/// [`acp_plan`] with `stdin` on standard input; a panic fails the test.
pub fn acp_plan_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_acp-plan"))
        .args(args)
        .current_dir(repo_root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("acp-plan starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // The binary may exit before reading all of stdin (usage errors): a
    // broken pipe here is not the test's concern.
    let _ = pipe.write_all(stdin);
    drop(pipe);
    let output = child.wait_with_output().expect("acp-plan runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked"),
        "acp-plan {args:?} panicked: {stderr}"
    );
    output
}

pub fn status(output: &Output) -> i32 {
    output.status.code().expect("acp-plan exits with a status")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
