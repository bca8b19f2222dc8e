//! Replays every fuzz regression (`fuzz/regressions/<target>/`) and every
//! fuzz seed (`fuzz/seeds/<target>/`) through the same checks the fuzz
//! targets make (`acp_plan_conformance::fuzzing`), so that `cargo test`
//! keeps each bug the fuzzers found fixed without needing cargo-fuzz.
//! (`structured` needs `--features arbitrary`; `dag` is replayed by the
//! `acp-plan-dag` crate's own `fuzz_regressions` test.)

#[path = "support/official.rs"]
mod official;

use acp_plan_conformance::fuzzing::{self, Checked};
use std::fs;
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `fuzz/<kind>/<target>/`, sorted (none if it does not exist).
fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = fuzz_dir().join(kind).join(target);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.file_name().is_none_or(|n| n != "README.md"))
        .collect();
    files.sort();
    files
}

/// Run `check` over the target's regressions and seeds; fail listing every
/// input that breaks an invariant.
fn replay(target: &str, check: impl Fn(&[u8]) -> Checked) {
    let seeds = inputs("seeds", target);
    assert!(
        !seeds.is_empty(),
        "no seeds for {target}: run `cargo run -p acp-plan-conformance --example fuzz_seeds`"
    );
    let mut failures = Vec::new();
    for path in inputs("regressions", target).iter().chain(&seeds) {
        let data = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(violation) = check(&data) {
            failures.push(format!("{}: {violation}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn frame() {
    replay("frame", fuzzing::frame::check);
}

#[test]
fn plan_messages() {
    replay("plan_messages", fuzzing::plan_messages::check);
}

#[test]
fn stream() {
    replay("stream", fuzzing::stream::check);
}

#[test]
fn differential() {
    replay("differential", |data| {
        fuzzing::differential::check(data, &official::OfficialCrate).map(|_| ())
    });
}

/// Needs the generator's `arbitrary` derives: `cargo test --features
/// arbitrary --test fuzz_regressions` (as `.ci/run` does).
#[cfg(feature = "arbitrary")]
#[test]
fn structured() {
    replay("structured", fuzzing::structured::check);
}
