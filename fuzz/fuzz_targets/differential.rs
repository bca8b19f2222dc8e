//! See `acp_plan_conformance::fuzzing::differential` for what this target checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) =
        acp_plan_conformance::fuzzing::differential::check(data, &acp_plan_official::OfficialCrate)
    {
        panic!("differential claim broken: {violation}");
    }
});
