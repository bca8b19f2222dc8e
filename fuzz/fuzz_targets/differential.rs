//! See `acp_plan_conformance::fuzzing::differential` for what this target checks;
//! each revision is read by the official release that judges it.
#![no_main]

use acp_plan_official::OfficialCrate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for reader in OfficialCrate::all() {
        if let Err(violation) =
            acp_plan_conformance::fuzzing::differential::check(data, &reader)
        {
            panic!(
                "differential claim broken ({} read with {}): {violation}",
                acp_plan_conformance::fuzzing::differential::Official::revision(&reader),
                reader.release().version()
            );
        }
    }
});
