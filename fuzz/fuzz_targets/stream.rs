//! See `acp_plan_conformance::fuzzing::stream` for what this target checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = acp_plan_conformance::fuzzing::stream::check(data) {
        panic!("stream invariant broken: {violation}");
    }
});
