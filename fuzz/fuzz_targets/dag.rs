//! See `acp_plan_dag::fuzzing` for what this target checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(violation) = acp_plan_dag::fuzzing::check(data) {
        panic!("dag invariant broken: {violation}");
    }
});
