//! Replays every fuzz regression (`fuzz/regressions/<target>/`) and every
//! fuzz seed (`fuzz/seeds/<target>/`) through the same checks the fuzz
//! targets make (`acp_plan_conformance::fuzzing`), so that `cargo test`
//! keeps each bug the fuzzers found fixed without needing cargo-fuzz.
//! (`structured` needs `--features arbitrary`; `dag` and `differential` are
//! replayed by the `acp-plan-dag` and `acp-plan-official` crates' own
//! `fuzz_regressions` tests.)

use acp_plan_conformance::fuzzing::{self, Checked};
use std::path::Path;

/// Run `check` over the target's regressions and seeds; fail listing every
/// input that breaks an invariant.
fn replay(target: &str, check: impl Fn(&[u8]) -> Checked) {
    let fuzz_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let failures = fuzzing::replay(&fuzz_dir, target, check);
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

/// Needs the generator's `arbitrary` derives: `cargo test --features
/// arbitrary --test fuzz_regressions` (as `.ci/run` does).
#[cfg(feature = "arbitrary")]
#[test]
fn structured() {
    replay("structured", fuzzing::structured::check);
}
