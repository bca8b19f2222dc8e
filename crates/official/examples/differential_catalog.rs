//! Tally how the suite and the official `agent-client-protocol-schema`
//! crate disagree over a directory of inputs (usually the `differential`
//! fuzz corpus), for the catalogue in `fuzz/README.md`:
//!
//! ```sh
//! cargo run -p acp-plan-official --example differential_catalog -- fuzz/corpus/differential
//! ```
//!
//! Prints each kind of agreement with its rules, how many inputs showed it,
//! and the shortest example. A broken claim is printed as a violation.

use acp_plan_conformance::fuzzing::differential::{check, Agreement};
use acp_plan_official::OfficialCrate;
use std::collections::BTreeMap;
use std::{env, fs};

fn main() -> std::io::Result<()> {
    let mut kinds: BTreeMap<String, (usize, Vec<u8>)> = BTreeMap::new();
    for dir in env::args().skip(1) {
        for entry in fs::read_dir(dir)? {
            let data = fs::read(entry?.path())?;
            let kind = match check(&data, &OfficialCrate) {
                Ok(Agreement::NotCompared) => continue,
                Ok(Agreement::Same) => "same".to_owned(),
                Ok(Agreement::OfficialLossy { rules }) => {
                    format!("official lossy; suite reports {}", distinct(&rules))
                }
                Ok(Agreement::StricterHere { rules }) => {
                    format!("suite stricter: {}", distinct(&rules))
                }
                Err(violation) => format!("VIOLATION: {violation}"),
            };
            let slot = kinds.entry(kind).or_insert((0, data.clone()));
            slot.0 += 1;
            if data.len() < slot.1.len() {
                slot.1 = data;
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
