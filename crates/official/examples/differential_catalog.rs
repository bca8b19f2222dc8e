//! Tally how the suite and the official `agent-client-protocol-schema`
//! crate disagree over a directory of inputs (usually the `differential`
//! fuzz corpus), for the catalogue in `fuzz/README.md`:
//!
//! ```sh
//! cargo run -p acp-plan-official --example differential_catalog -- fuzz/corpus/differential
//! ```
//!
//! Prints each kind of agreement with its rules, how many inputs showed it,
//! and the shortest example, per revision and the official release that reads
//! it (`OfficialCrate::all`). A broken claim is printed as a violation.

use acp_plan_conformance::fuzzing::differential::Official;
use acp_plan_conformance::fuzzing::differential::{check, Agreement};
use acp_plan_official::OfficialCrate;
use std::collections::BTreeMap;
use std::{env, fs};

fn main() -> std::io::Result<()> {
    let mut kinds: BTreeMap<String, (usize, Vec<u8>)> = BTreeMap::new();
    let mut inputs = Vec::new();
    for dir in env::args().skip(1) {
        for entry in fs::read_dir(dir)? {
            inputs.push(fs::read(entry?.path())?);
        }
    }
    for reader in OfficialCrate::all() {
        let label = format!("{} ({})", reader.revision(), reader.release().version());
        for data in &inputs {
            let kind = match check(data, &reader) {
                Ok(Agreement::NotCompared) => continue,
                Ok(Agreement::Same) => "same".to_owned(),
                Ok(Agreement::OfficialLossy { rules }) => {
                    format!("official lossy; suite reports {}", distinct(&rules))
                }
                Ok(Agreement::StricterHere { rules }) => {
                    format!("suite stricter: {}", distinct(&rules))
                }
                Ok(Agreement::Ambiguous { rules }) => {
                    format!("readers disagree; suite reports {}", distinct(&rules))
                }
                Err(violation) => format!("VIOLATION: {violation}"),
            };
            let slot = kinds
                .entry(format!("{label}: {kind}"))
                .or_insert((0, data.clone()));
            slot.0 += 1;
            if data.len() < slot.1.len() {
                slot.1 = data.clone();
            }
        }
    }
    for (kind, (count, example)) in &kinds {
        println!(
            "{count:>7}  {kind}\n         e.g. {}",
            String::from_utf8_lossy(example)
        );
    }
    Ok(())
}

fn distinct(rules: &[&str]) -> String {
    let mut rules = rules.to_vec();
    rules.sort_unstable();
    rules.dedup();
    rules.join(", ")
}
