//! Replays every regression (`fuzz/regressions/dag/`) and seed
//! (`fuzz/seeds/dag/`) of the `dag` fuzz target through the invariants the
//! target checks (`acp_plan_dag::fuzzing`), so that `cargo test` keeps each
//! bug the fuzzer found fixed without needing cargo-fuzz.

use std::fs;
use std::path::{Path, PathBuf};

/// The files of `fuzz/<kind>/dag/`, sorted (none if it does not exist).
fn inputs(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz")
        .join(kind)
        .join("dag");
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

#[test]
fn dag() {
    let seeds = inputs("seeds");
    assert!(
        !seeds.is_empty(),
        "no seeds for dag: run `cargo run -p acp-plan-conformance --example fuzz_seeds`"
    );
    let mut failures = Vec::new();
    for path in inputs("regressions").iter().chain(&seeds) {
        let data = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(violation) = acp_plan_dag::fuzzing::check(&data) {
            failures.push(format!("{}: {violation}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
