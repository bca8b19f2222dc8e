//! See `acp_plan_conformance::fuzzing::differential` for what this target checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

// The official crate's reading, shared with crates/core/tests/fuzz_regressions.rs.
#[path = "../../crates/core/tests/support/official.rs"]
mod official;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) =
        acp_plan_conformance::fuzzing::differential::check(data, &official::OfficialCrate)
    {
        panic!("differential claim broken: {violation}");
    }
});
