//! Regenerate the fuzz seeds from real traces:
//!
//! ```sh
//! cargo run -p acp-plan-conformance --example fuzz_seeds            # corpus/ → fuzz/seeds/
//! cargo run -p acp-plan-conformance --example fuzz_seeds -- IN... OUT
//! ```
//!
//! Every `*.jsonl` under the input directories (sorted, recursively) is cut
//! into seeds by `acp_plan_conformance::fuzzing::seeds` (the default inputs
//! are `corpus/` and `fuzz/traces/`); `structured` gets fixed pseudo-random
//! bytes. Each target's seed directory is emptied and rewritten.

use acp_plan_conformance::fuzzing::seeds::{dedup, from_trace, structured};
use std::path::{Path, PathBuf};
use std::{env, fs, io};

const TARGETS: [&str; 5] = [
    "frame",
    "plan_messages",
    "stream",
    "differential",
    "structured",
];

fn main() -> io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut args: Vec<PathBuf> = env::args_os().skip(1).map(PathBuf::from).collect();
    let out = args.pop().unwrap_or_else(|| root.join("fuzz/seeds"));
    if args.is_empty() {
        args = vec![root.join("corpus"), root.join("fuzz/traces")];
    }
    let mut traces = Vec::new();
    for dir in &args {
        collect(dir, &mut traces)?;
    }
    traces.sort();
    let mut seeds = Vec::new();
    for path in &traces {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        seeds.extend(from_trace(&stem, &fs::read(path)?));
    }
    seeds.extend(structured(32));
    let seeds = dedup(seeds);
    for target in TARGETS {
        let dir = out.join(target);
        if dir.exists() {
            fs::remove_dir_all(&dir)?;
        }
        fs::create_dir_all(&dir)?;
    }
    for seed in &seeds {
        fs::write(out.join(seed.target).join(&seed.name), &seed.bytes)?;
    }
    for target in TARGETS {
        let n = seeds.iter().filter(|s| s.target == target).count();
        println!("{target}: {n} seeds");
    }
    println!("from {} traces into {}", traces.len(), out.display());
    Ok(())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    if !dir.exists() {
        return Ok(());
    }
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
    Ok(())
}
