//! The plan fixtures under `corpus/dag/`: the seed's examples (which must
//! pass) and deliberately broken plans (which must break the rules they
//! were written for), with snapshots of every output in `snapshots/dag/`.
//!
//! A fixture `NAME.json` may have companions `NAME.input.json`,
//! `NAME.state.json` and `NAME.tools.json`, passed as `--input`, `--state`
//! and `--tools`.

use acp_plan_conformance::report::ReportOptions;
use acp_plan_dag::{check_named, DagOptions, DagReport, ToolCatalog, WriteMode};
use acp_plan_dag::{dataflow, report};
use acp_plan_test_support::repo_root;
use std::collections::BTreeMap;
use std::path::Path;

const COMPANIONS: [&str; 3] = ["input", "state", "tools"];

/// Repo-relative paths of the plan fixtures, sorted.
fn fixtures() -> Vec<String> {
    let mut found = Vec::new();
    for dir in ["corpus/dag", "corpus/dag/broken"] {
        for entry in std::fs::read_dir(repo_root().join(dir)).expect("fixture directory") {
            let name = entry.expect("directory entry").file_name();
            let name = name.to_string_lossy();
            let companion = COMPANIONS
                .iter()
                .any(|c| name.ends_with(&format!(".{c}.json")));
            if name.ends_with(".json") && !companion {
                found.push(format!("{dir}/{name}"));
            }
        }
    }
    found.sort();
    found
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).expect("companion")).expect("companion is JSON")
}

fn check(fixture: &str, writes: WriteMode) -> DagReport {
    let root = repo_root();
    let stem = fixture.trim_end_matches(".json");
    let mut options = DagOptions {
        writes,
        ..DagOptions::default()
    };
    for kind in ["input", "state"] {
        let companion = root.join(format!("{stem}.{kind}.json"));
        if companion.exists() {
            options
                .data
                .add(kind, read_json(&companion))
                .expect("data companion");
        }
    }
    let tools = root.join(format!("{stem}.tools.json"));
    if tools.exists() {
        options.tools = Some(ToolCatalog::from_json(&read_json(&tools)).expect("tools companion"));
    }
    let bytes = std::fs::read(root.join(fixture)).expect("fixture");
    check_named(fixture, &bytes, &options)
}

/// `corpus/dag/broken/cycle.json` → `broken-cycle`.
fn snapshot_name(fixture: &str) -> String {
    fixture
        .trim_start_matches("corpus/dag/")
        .trim_end_matches(".json")
        .replace('/', "-")
}

fn snapshot_settings() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../../../../snapshots/dag");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

fn human(report: &DagReport, dry_run: bool) -> String {
    report::render_human(report, ReportOptions::default(), dry_run)
}

fn rule_counts(report: &DagReport) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for d in &report.diagnostics {
        *counts.entry(d.rule.id).or_default() += 1;
    }
    counts
}

/// What a fixture must produce: (fixture, writes, rule → count). Every
/// rule a fixture raises is listed, infos included.
type Expectation = (&'static str, WriteMode, Vec<(&'static str, usize)>);

fn expectations() -> Vec<Expectation> {
    use WriteMode::{Immutable, LastWins};
    vec![
        // The seed's examples.
        ("corpus/dag/profile.json", Immutable, vec![]),
        ("corpus/dag/refund-first.json", Immutable, vec![]),
        ("corpus/dag/refund-next-context.json", Immutable, vec![]),
        ("corpus/dag/refund-next.json", Immutable, vec![]),
        ("corpus/dag/trip-context.json", Immutable, vec![]),
        ("corpus/dag/trip-new.json", Immutable, vec![]),
        (
            "corpus/dag/payment-first.json",
            Immutable,
            vec![("DAG-READ-ALTERNATIVE", 1)],
        ),
        // The "now-useless" plan next to a State that already holds `error`:
        // running it again would write `error` a second time.
        (
            "corpus/dag/payment-next-context.json",
            Immutable,
            vec![("DAG-WRITE-TWICE", 1), ("DAG-READ-ALTERNATIVE", 1)],
        ),
        (
            "corpus/dag/payment-next-context.json",
            LastWins,
            vec![("DAG-WRITE-OVERWRITE", 1), ("DAG-READ-ALTERNATIVE", 1)],
        ),
        ("corpus/dag/payment-replan.json", Immutable, vec![]),
        ("corpus/dag/translation.json", Immutable, vec![]),
        // "Is it Sunny?": the two branch calls both write state.activity,
        // but only one runs (each reads one alternative of the choice).
        (
            "corpus/dag/sunny.json",
            Immutable,
            vec![("DAG-READ-ALTERNATIVE", 2)],
        ),
        // Broken on purpose.
        (
            "corpus/dag/broken/bad-reference.json",
            Immutable,
            vec![("DAG-OUTPUT-SYNTAX", 3), ("DAG-REF-SYNTAX", 4)],
        ),
        (
            "corpus/dag/broken/cycle.json",
            Immutable,
            vec![("DAG-CYCLE", 2)],
        ),
        (
            "corpus/dag/broken/dangling-read.json",
            Immutable,
            vec![("DAG-READ-DANGLING", 2)],
        ),
        (
            "corpus/dag/broken/double-write.json",
            Immutable,
            vec![("DAG-WRITE-TWICE", 2)],
        ),
        (
            "corpus/dag/broken/double-write.json",
            LastWins,
            vec![("DAG-WRITE-OVERWRITE", 2)],
        ),
        // Writing inside a path the State holds, like writing inside one
        // an earlier call wrote.
        (
            "corpus/dag/broken/below-state.json",
            Immutable,
            vec![("DAG-WRITE-TWICE", 1)],
        ),
        (
            "corpus/dag/broken/missing-tool.json",
            Immutable,
            vec![("DAG-READ-UNCHECKED", 1), ("DAG-TOOL-MISSING", 5)],
        ),
        (
            "corpus/dag/broken/not-json.json",
            Immutable,
            vec![("DAG-INPUT", 1)],
        ),
        (
            "corpus/dag/broken/order.json",
            Immutable,
            vec![("DAG-ORDER", 1)],
        ),
        (
            "corpus/dag/broken/schema-outside.json",
            Immutable,
            vec![("DAG-SCHEMA-PATH", 2), ("DAG-SCHEMA-UNFILLED", 1)],
        ),
        (
            "corpus/dag/broken/tools-mismatch.json",
            Immutable,
            vec![("DAG-TOOL-ARGS", 2), ("DAG-TOOL-UNKNOWN", 1)],
        ),
    ]
}

#[test]
fn every_fixture_has_an_expectation() {
    let expected: Vec<&str> = expectations().iter().map(|e| e.0).collect();
    for fixture in fixtures() {
        assert!(
            expected.contains(&fixture.as_str()),
            "no expectation for {fixture}"
        );
    }
}

#[test]
fn fixtures_raise_exactly_the_expected_rules() {
    for (fixture, writes, rules) in expectations() {
        let report = check(fixture, writes);
        let expected: BTreeMap<&str, usize> = rules.into_iter().collect();
        assert_eq!(rule_counts(&report), expected, "{fixture} ({writes:?})");
        assert_eq!(report.not_shown, 0);
    }
}

#[test]
fn seed_examples_run_in_the_order_the_text_describes() {
    // Translation: detect → isEnglish → translate, one call per wave.
    assert_eq!(
        check("corpus/dag/translation.json", WriteMode::Immutable).waves(),
        [vec![0], vec![1], vec![2]]
    );
    // Refund: both calls read only the input, so they can run together.
    assert_eq!(
        check("corpus/dag/refund-first.json", WriteMode::Immutable).waves(),
        [vec![0, 1]]
    );
    // Profile: summarize after fetch.
    assert_eq!(
        check("corpus/dag/profile.json", WriteMode::Immutable).waves(),
        [vec![0], vec![1]]
    );
    // The cycle is spelled out call by call; the reader of its output waits forever.
    let cycle = check("corpus/dag/broken/cycle.json", WriteMode::Immutable);
    assert_eq!(cycle.cycles(), [vec![0, 1], vec![3]]);
    assert_eq!(cycle.waves(), Vec::<Vec<usize>>::new());
}

#[test]
fn human_reports() {
    snapshot_settings().bind(|| {
        for fixture in fixtures() {
            let report = check(&fixture, WriteMode::Immutable);
            insta::assert_snapshot!(snapshot_name(&fixture), human(&report, false));
        }
        for fixture in [
            "corpus/dag/broken/double-write.json",
            "corpus/dag/payment-next-context.json",
        ] {
            let report = check(fixture, WriteMode::LastWins);
            insta::assert_snapshot!(
                format!("{}.last-wins", snapshot_name(fixture)),
                human(&report, false)
            );
        }
    });
}

#[test]
fn dry_runs() {
    snapshot_settings().bind(|| {
        for fixture in fixtures()
            .iter()
            .filter(|f| !f.contains("/broken/") || f.ends_with("cycle.json"))
        {
            let report = check(fixture, WriteMode::Immutable);
            insta::assert_snapshot!(
                format!("{}.dry-run", snapshot_name(fixture)),
                report::render_dry_run(&report)
            );
        }
    });
}

#[test]
fn graphs() {
    snapshot_settings().bind(|| {
        for fixture in [
            "corpus/dag/translation.json",
            "corpus/dag/payment-first.json",
            "corpus/dag/broken/cycle.json",
            "corpus/dag/broken/double-write.json",
        ] {
            let report = check(fixture, WriteMode::Immutable);
            let name = snapshot_name(fixture);
            insta::assert_snapshot!(format!("{name}.mermaid"), dataflow::mermaid(&report));
            insta::assert_snapshot!(format!("{name}.dot"), dataflow::dot(&report));
        }
    });
}

#[test]
fn json_report() {
    snapshot_settings().bind(|| {
        let report = check("corpus/dag/payment-first.json", WriteMode::Immutable);
        insta::assert_json_snapshot!(
            "payment-first.json-report",
            report::render_json(&report, ReportOptions::default(), true)
        );
    });
}
