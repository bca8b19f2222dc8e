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
//! bytes; `dag` gets the plans under `corpus/dag/`. Each target's seed
//! directory is emptied and rewritten.

use acp_plan_conformance::fuzzing::seeds::{dedup, from_trace, structured, Seed};
use std::path::{Path, PathBuf};
use std::{env, fs, io};

const TARGETS: [&str; 6] = [
    "frame",
    "plan_messages",
    "stream",
    "differential",
    "structured",
    "dag",
];

fn main() -> io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut args: Vec<PathBuf> = env::args_os().skip(1).map(PathBuf::from).collect();
    let out = args.pop().unwrap_or_else(|| root.join("fuzz/seeds"));
    if args.is_empty() {
        args = vec![root.join("corpus"), root.join("fuzz/traces")];
    }
    let mut traces = Vec::new();
    for dir in &args {
        collect_ext(dir, "jsonl", &mut traces)?;
    }
    traces.sort();
    let mut seeds = Vec::new();
    for path in &traces {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        seeds.extend(from_trace(&stem, &fs::read(path)?));
    }
    seeds.extend(structured(32));
    // Plans of tool calls (not their --input, --state or --tools files).
    let mut plans = Vec::new();
    collect_ext(&root.join("corpus/dag"), "json", &mut plans)?;
    plans.retain(|p| {
        let name = p.file_name().unwrap_or_default().to_string_lossy();
        ![".input.json", ".state.json", ".tools.json"]
            .iter()
            .any(|suffix| name.ends_with(suffix))
    });
    plans.sort();
    for path in &plans {
        let name = path.strip_prefix(root.join("corpus/dag")).unwrap_or(path);
        seeds.push(Seed {
            target: "dag",
            name: name.to_string_lossy().replace('/', "-"),
            bytes: fs::read(path)?,
        });
    }
    let seeds = dedup(seeds);
    for target in TARGETS {
        let dir = out.join(target);
        if dir.exists() {
            fs::remove_dir_all(&dir)?;
        }
        fs::create_dir_all(&dir)?;
    }
    for seed in &seeds {
        let path = out.join(seed.target).join(&seed.name);
        fs::write(&path, &seed.bytes)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    }
    for target in TARGETS {
        let n = seeds.iter().filter(|s| s.target == target).count();
        println!("{target}: {n} seeds");
    }
    println!("from {} traces into {}", traces.len(), out.display());
    Ok(())
}

/// Files under `dir` (recursively) whose extension is `ext`.
fn collect_ext(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) -> io::Result<()> {
    if !dir.exists() {
        return Ok(());
    }
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_ext(&path, ext, out)?;
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
    Ok(())
}
