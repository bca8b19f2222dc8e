//! Replays every regression (`fuzz/regressions/dag/`) and seed
//! (`fuzz/seeds/dag/`) of the `dag` fuzz target through the invariants the
//! target checks (`acp_plan_dag::fuzzing`), so that `cargo test` keeps each
//! bug the fuzzer found fixed without needing cargo-fuzz.

use acp_plan_conformance::fuzzing::replay;
use std::path::Path;

#[test]
fn dag() {
    let fuzz_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let failures = replay(&fuzz_dir, "dag", acp_plan_dag::fuzzing::check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
