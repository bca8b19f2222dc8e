//! See `acp_plan_conformance::fuzzing::plan_messages` for what this target checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = acp_plan_conformance::fuzzing::plan_messages::check(data) {
        panic!("plan_messages invariant broken: {violation}");
    }
});
