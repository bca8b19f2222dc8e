//! Properties of the plan checker on random plans: a DAG passes, a back
//! edge is always found as a cycle, and reordering calls without breaking
//! dependencies keeps the verdict. Plus: no input makes it panic.
//!
//! The model is independent of the checker: call `i` writes `†state.v<i>`
//! (if it writes), reads the outputs of some earlier writers (maybe a field
//! inside them, maybe nested in an argument), and reads given input.

use acp_plan_conformance::report::ReportOptions;
use acp_plan_dag::{check_bytes, DagOptions, DagReport};
use acp_plan_dag::{dataflow, report};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Value};
use std::collections::BTreeSet;

const INPUT_KEYS: usize = 3;

#[derive(Clone, Debug)]
struct ModelCall {
    writes: bool,
    /// Calls whose output this one reads.
    reads: BTreeSet<usize>,
    /// Read a field inside the producer's output instead of the whole value.
    deep: bool,
    /// Put references inside a nested argument.
    nested: bool,
    input_reads: Vec<usize>,
    /// Extra faults for the shuffle property.
    dangling: bool,
    shared_write: bool,
}

fn model(faults: bool) -> impl Strategy<Value = Vec<ModelCall>> {
    let call = (
        any::<bool>(),
        prop::collection::vec(any::<Index>(), 0..4),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(0..INPUT_KEYS, 0..3),
        prop::bool::weighted(if faults { 0.1 } else { 0.0 }),
        prop::bool::weighted(if faults { 0.15 } else { 0.0 }),
    );
    prop::collection::vec(call, 1..30).prop_map(|raw| {
        let mut calls: Vec<ModelCall> = Vec::new();
        for (i, (writes, picks, deep, nested, input_reads, dangling, shared_write)) in
            raw.into_iter().enumerate()
        {
            let reads = if i == 0 {
                BTreeSet::new()
            } else {
                picks
                    .iter()
                    .map(|p| p.index(i))
                    .filter(|&j| calls[j].writes)
                    .collect()
            };
            calls.push(ModelCall {
                writes,
                reads,
                deep,
                nested,
                input_reads,
                dangling,
                shared_write,
            });
        }
        calls
    })
}

/// The plan file for the model, with calls in `order` (a permutation).
fn plan_text(calls: &[ModelCall], order: &[usize], shape: u8) -> String {
    let list: Vec<Value> = order
        .iter()
        .map(|&i| {
            let c = &calls[i];
            let mut refs: Vec<Value> = c
                .reads
                .iter()
                .map(|j| {
                    let path = if c.deep {
                        format!("†state.v{j}.field")
                    } else {
                        format!("†state.v{j}")
                    };
                    Value::String(path)
                })
                .collect();
            refs.extend(c.input_reads.iter().map(|k| json!(format!("†input.k{k}"))));
            if c.dangling {
                refs.push(json!(format!("†state.nobody{i}")));
            }
            let mut call = serde_json::Map::new();
            call.insert("_tool".into(), json!(format!("tool{i}")));
            if c.nested {
                call.insert("args".into(), json!({"list": refs, "literal": 1}));
            } else {
                for (n, r) in refs.into_iter().enumerate() {
                    call.insert(format!("a{n}"), r);
                }
            }
            let mut outputs = Vec::new();
            if c.writes {
                outputs.push(format!("†state.v{i}"));
            }
            if c.shared_write {
                outputs.push("†state.shared".to_owned());
            }
            if !outputs.is_empty() {
                call.insert("_outputPath".into(), json!(outputs.join(" && ")));
            }
            Value::Object(call)
        })
        .collect();
    let document = match shape % 3 {
        0 => Value::Array(list),
        1 => json!({"calls": list, "output": null}),
        _ => json!({"type": "plan", "plan": list}),
    };
    serde_json::to_string_pretty(&document).expect("serializable")
}

fn options() -> DagOptions {
    let mut options = DagOptions::default();
    let input: serde_json::Map<String, Value> = (0..INPUT_KEYS)
        .map(|k| (format!("k{k}"), json!(k)))
        .collect();
    options
        .data
        .add("input", Value::Object(input))
        .expect("input");
    options
}

fn check(calls: &[ModelCall], order: &[usize], shape: u8) -> DagReport {
    check_bytes(plan_text(calls, order, shape).as_bytes(), &options())
}

/// All calls with a path to `target` in the model, and `target` itself.
fn ancestors(calls: &[ModelCall], target: usize) -> BTreeSet<usize> {
    let mut found = BTreeSet::from([target]);
    let mut stack = vec![target];
    while let Some(v) = stack.pop() {
        for &u in &calls[v].reads {
            if found.insert(u) {
                stack.push(u);
            }
        }
    }
    found
}

/// Every view of a report, for the never-panic properties.
fn render_all(report: &DagReport) {
    let options = ReportOptions::default();
    let _ = report::render_human(report, options, true);
    let _ = report::render_json(report, options, true);
    let _ = dataflow::mermaid(report);
    let _ = dataflow::dot(report);
}

fn rule_ids(report: &DagReport) -> Vec<&'static str> {
    let mut ids: Vec<_> = report.diagnostics.iter().map(|d| d.rule.id).collect();
    ids.sort_unstable();
    ids
}

proptest! {
    #[test]
    fn random_dags_pass(calls in model(false), shape in any::<u8>()) {
        let order: Vec<usize> = (0..calls.len()).collect();
        let report = check(&calls, &order, shape);
        prop_assert_eq!(report.counts.errors, 0, "{:?}", report.diagnostics);
        prop_assert_eq!(report.counts.warnings, 0, "{:?}", report.diagnostics);
        // Every call is scheduled once, after every call it reads from.
        let waves = report.waves();
        let mut wave_of = vec![usize::MAX; calls.len()];
        for (w, wave) in waves.iter().enumerate() {
            for &c in wave {
                prop_assert_eq!(wave_of[c], usize::MAX);
                wave_of[c] = w;
            }
        }
        for (i, call) in calls.iter().enumerate() {
            prop_assert!(wave_of[i] != usize::MAX);
            for &j in &call.reads {
                prop_assert!(wave_of[j] < wave_of[i]);
            }
            // Waves are as early as possible: a call in wave w > 0 reads from wave w - 1.
            if wave_of[i] > 0 {
                prop_assert!(call.reads.iter().any(|&j| wave_of[j] + 1 == wave_of[i]));
            }
        }
    }

    #[test]
    fn an_injected_back_edge_is_always_found(
        mut calls in model(false),
        target in any::<Index>(),
        source in any::<Index>(),
        shape in any::<u8>(),
    ) {
        let b = target.index(calls.len());
        calls[b].writes = true;
        let upstream: Vec<usize> = ancestors(&calls, b).into_iter().collect();
        let a = upstream[source.index(upstream.len())];
        // a → … → b already; a now reads b's output: b → a closes the loop.
        calls[a].reads.insert(b);
        let order: Vec<usize> = (0..calls.len()).collect();
        let report = check(&calls, &order, shape);
        prop_assert!(report.counts.errors > 0);
        prop_assert!(report.diagnostics.iter().any(|d| d.rule.id == "DAG-CYCLE"));
        let cycles = report.cycles();
        prop_assert!(
            cycles.iter().any(|c| c.contains(&a) && c.contains(&b)),
            "a={} b={} cycles={:?}", a, b, cycles
        );
        // Every reported cycle is real in the model: each call reads the previous one.
        for cycle in &cycles {
            for (k, &from) in cycle.iter().enumerate() {
                let to = cycle[(k + 1) % cycle.len()];
                prop_assert!(calls[to].reads.contains(&from), "{:?} is not a cycle", cycle);
            }
        }
    }

    #[test]
    fn reordering_along_dependencies_keeps_the_verdict(
        calls in model(true),
        priorities in prop::collection::vec(any::<u32>(), 30),
        shape in any::<u8>(),
    ) {
        let listed: Vec<usize> = (0..calls.len()).collect();
        // A random topological order: among the calls whose producers are
        // placed, take the one with the highest random priority.
        let mut placed = vec![false; calls.len()];
        let mut shuffled = Vec::new();
        while shuffled.len() < calls.len() {
            let next = (0..calls.len())
                .filter(|&i| !placed[i] && calls[i].reads.iter().all(|&j| placed[j]))
                .max_by_key(|&i| (priorities[i], i))
                .expect("a DAG always has a ready call");
            placed[next] = true;
            shuffled.push(next);
        }
        let before = check(&calls, &listed, shape);
        let after = check(&calls, &shuffled, shape);
        prop_assert_eq!(before.counts.errors > 0, after.counts.errors > 0);
        prop_assert_eq!(rule_ids(&before), rule_ids(&after));
        prop_assert!(!rule_ids(&after).contains(&"DAG-ORDER"));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let report = check_bytes(&bytes, &DagOptions::default());
        prop_assert!(report.counts.errors > 0 || report.plan.shape.is_some());
        render_all(&report);
    }

    #[test]
    fn damaged_plans_never_panic(
        calls in model(true),
        cut in any::<Index>(),
        insert in prop::sample::select(vec!["†", "\"", "{", "]", "||", "&&", ".", "\\u00e9", ",", ""]),
    ) {
        let order: Vec<usize> = (0..calls.len()).collect();
        let mut text = plan_text(&calls, &order, 1);
        let mut at = cut.index(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text.insert_str(at, insert);
        let report = check_bytes(text.as_bytes(), &options());
        render_all(&report);
        // Whatever happened, each diagnostic points into the file.
        let lines = text.lines().count().max(1) as u64;
        for d in &report.diagnostics {
            prop_assert!(d.line >= 1 && d.line <= lines, "{:?}", d);
        }
    }
}
