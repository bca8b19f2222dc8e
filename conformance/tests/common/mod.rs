//! Helpers shared by the integration tests of the `acp-plan` binary: where
//! the repository is, the corpus files in it, and running the binary.

// Each test crate uses a different subset of these helpers.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root (the workspace that holds `corpus/` and `snapshots/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("corpus").is_dir() && dir.join("snapshots").is_dir())
        .expect("the crate lives in the repository")
        .to_path_buf()
}

/// Every file under `dir` (relative to the repository root) whose name ends
/// with `.{ext}`, recursively, as repository-relative paths with `/`
/// separators, sorted. A missing directory has no files.
pub fn corpus_files(dir: &str, ext: &str) -> Vec<String> {
    let root = repo_root();
    let mut found = Vec::new();
    let mut pending = vec![root.join(dir)];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("readable directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                found.push(relative(&root, &path));
            }
        }
    }
    found.sort();
    found
}

/// `path` relative to `root`, with `/` separators on every platform, so it is
/// the same string in snapshots on every machine.
pub fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .expect("path under the repository root")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

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
