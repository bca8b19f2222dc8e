//! The README's sample report is what `acp-plan` prints: its ```text block
//! starts with `$ acp-plan ARGS...` (run from the repository root), then the
//! exact standard output; the README says the exit status is 1.

use crate::common;

use std::process::Command;

#[test]
fn readme_sample_report_is_real_output() {
    let root = common::repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let block = readme
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("README.md has a ```text block with a sample report");
    let (command, expected) = block
        .split_once('\n')
        .expect("the block has a command line and output");
    let args: Vec<&str> = command
        .strip_prefix("$ acp-plan ")
        .expect("the sample starts with `$ acp-plan ...`")
        .split_whitespace()
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_acp-plan"))
        .args(&args)
        .current_dir(&root)
        .output()
        .expect("run acp-plan");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        expected,
        "README.md's sample report is not what `acp-plan {}` prints",
        args.join(" ")
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "the README says this sample exits with status 1"
    );
}
