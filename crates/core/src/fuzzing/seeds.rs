//! Seed inputs for the fuzz targets, cut from real traces so that every
//! target starts from real messages. `cargo run -p acp-plan-conformance
//! --example fuzz_seeds` writes them to `fuzz/seeds/<target>/`.

use crate::jsonrpc::classify;
use crate::rules::shape::{parse_plan_update, PLAN_KINDS};
use crate::spec::Revision;
use crate::trace::{parse_record, Record};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// One seed file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The fuzz target it is for.
    pub target: &'static str,
    /// A file name that says where it came from.
    pub name: String,
    /// The file's contents, the input given to the target.
    pub bytes: Vec<u8>,
}

/// Seeds from one trace named `stem`: the whole trace (`stream`), each line
/// (`frame`), each plan update in every revision's spelling
/// (`plan_messages`), and each plan update and `initialize` params
/// (`differential`).
pub fn from_trace(stem: &str, trace: &[u8]) -> Vec<Seed> {
    let mut seeds = vec![Seed {
        target: "stream",
        name: format!("{stem}.jsonl"),
        bytes: trace.to_vec(),
    }];
    // The same trace without the updates that are not about plans (message
    // chunks, tool calls): small enough for a short -max_len.
    let mut plans_only = Vec::new();
    for (index, line) in trace.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if !is_other_update(line) {
            plans_only.extend_from_slice(line);
            plans_only.push(b'\n');
        }
        let at = format!("{stem}-L{}", index + 1);
        seeds.push(Seed {
            target: "frame",
            name: format!("{at}.json"),
            bytes: line.to_vec(),
        });
        let Ok(record) = parse_record(line, 128) else {
            continue;
        };
        let message = match &record {
            Record::Bare(message) | Record::Envelope { message, .. } => message,
        };
        let (Some(frame), _) = classify(message) else {
            continue;
        };
        match (frame.method(), frame.params()) {
            (Some("initialize"), Some(params)) => seeds.push(Seed {
                target: "differential",
                name: format!("{at}-initialize.json"),
                bytes: params.get().as_bytes().to_vec(),
            }),
            (Some("session/update"), Some(params)) => {
                seeds.extend(update_seeds(&at, params));
            }
            _ => {}
        }
    }
    if plans_only.len() < trace.len() {
        seeds.push(Seed {
            target: "stream",
            name: format!("{stem}-plans-only.jsonl"),
            bytes: plans_only,
        });
    }
    seeds
}

/// A `session/update` whose kind is not about plans.
fn is_other_update(line: &[u8]) -> bool {
    let Ok(record) = parse_record(line, 128) else {
        return false;
    };
    let message = match &record {
        Record::Bare(message) | Record::Envelope { message, .. } => message,
    };
    let (Some(frame), _) = classify(message) else {
        return false;
    };
    if frame.method() != Some("session/update") {
        return false;
    }
    let kind = frame
        .params()
        .and_then(|p| serde_json::from_str::<UpdateParams<'_>>(p.get()).ok())
        .and_then(|p| serde_json::from_str::<Map<String, Value>>(p.update.get()).ok())
        .and_then(|u| {
            u.get("sessionUpdate")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
    !kind.is_some_and(|k| PLAN_KINDS.contains(&k.as_str()))
}

#[derive(Deserialize)]
struct UpdateParams<'a> {
    #[serde(borrow)]
    update: &'a RawValue,
}

fn update_seeds(at: &str, params: &RawValue) -> Vec<Seed> {
    let Ok(UpdateParams { update }) = serde_json::from_str::<UpdateParams<'_>>(params.get()) else {
        return Vec::new();
    };
    let Ok(object) = serde_json::from_str::<Map<String, Value>>(update.get()) else {
        return Vec::new();
    };
    let Some(kind) = object
        .get("sessionUpdate")
        .and_then(Value::as_str)
        .filter(|k| PLAN_KINDS.contains(k))
    else {
        return Vec::new();
    };
    let raw = update.get().as_bytes().to_vec();
    let mut seeds = vec![
        Seed {
            target: "plan_messages",
            name: format!("{at}-{kind}.json"),
            bytes: raw.clone(),
        },
        Seed {
            target: "differential",
            name: format!("{at}-{kind}.json"),
            bytes: raw,
        },
    ];
    // The same message in every revision's spelling, where it parses.
    for from in Revision::ALL {
        let parsed = parse_plan_update(&object, kind, from, usize::MAX);
        let Some(message) = parsed.message else {
            continue;
        };
        for to in Revision::ALL.into_iter().filter(|to| *to != from) {
            seeds.push(Seed {
                target: "plan_messages",
                name: format!("{at}-{kind}-as-{to}.json"),
                bytes: message.to_update_json(to).to_string().into_bytes(),
            });
        }
        break;
    }
    seeds
}

/// Seeds for `structured`, whose input is not JSON but the bytes an
/// `arbitrary` operation sequence is read from: `count` pseudo-random byte
/// strings of 64 to 511 bytes from a fixed seed (each reads as a handful of
/// operations, some of them violations).
pub fn structured(count: usize) -> Vec<Seed> {
    let mut rng = fastrand::Rng::with_seed(4);
    (0..count)
        .map(|n| {
            let len = rng.usize(64..512);
            Seed {
                target: "structured",
                name: format!("random-{n:02}.bin"),
                bytes: (0..len).map(|_| rng.u8(..)).collect(),
            }
        })
        .collect()
}

/// Drop seeds whose bytes an earlier seed of the same target already has.
pub fn dedup(seeds: Vec<Seed>) -> Vec<Seed> {
    let mut seen = std::collections::HashSet::new();
    seeds
        .into_iter()
        .filter(|s| seen.insert((s.target, s.bytes.clone())))
        .collect()
}
