//! Replays every regression (`fuzz/regressions/differential/`) and seed
//! (`fuzz/seeds/differential/`) of the `differential` fuzz target against
//! the official crate, with the reader of each revision that has one
//! (`OfficialCrate::all`), so that `cargo test` keeps each disagreement the
//! fuzzer found explained without needing cargo-fuzz.

use acp_plan_conformance::fuzzing::{differential, replay};
use acp_plan_official::OfficialCrate;
use std::path::Path;

#[test]
fn differential() {
    let fuzz_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let readers = OfficialCrate::all();
    assert!(!readers.is_empty(), "no revision has an official reader");
    for reader in readers {
        let failures = replay(&fuzz_dir, "differential", |data| {
            differential::check(data, &reader).map(|_| ())
        });
        assert!(
            failures.is_empty(),
            "{} read with {}:\n{}",
            acp_plan_conformance::fuzzing::differential::Official::revision(&reader),
            reader.release().version(),
            failures.join("\n")
        );
    }
}
