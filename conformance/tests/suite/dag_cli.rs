//! `acp-plan dag` as users run it: exit statuses, the graph alone on
//! standard output, companion files, usage errors.

use crate::common;

use common::{acp_plan, repo_root, stdout};

#[test]
fn a_seed_example_is_conformant() {
    let out = acp_plan(&[
        "dag",
        "--input",
        "corpus/dag/translation.input.json",
        "--state",
        "corpus/dag/translation.state.json",
        "--tools",
        "corpus/dag/translation.tools.json",
        "--dry-run",
        "corpus/dag/translation.json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("wave 3\n  #3 translateText"), "{text}");
    assert!(
        text.ends_with("verdict: conformant (0 errors, 0 warnings)\n"),
        "{text}"
    );
}

#[test]
fn errors_exit_1_and_warnings_only_when_denied() {
    let cycle = acp_plan(&["dag", "corpus/dag/broken/cycle.json"]);
    assert_eq!(cycle.status.code(), Some(1));
    assert!(stdout(&cycle).contains("error[DAG-CYCLE]"));
    let order = acp_plan(&["dag", "corpus/dag/broken/order.json"]);
    assert_eq!(order.status.code(), Some(0));
    let denied = acp_plan(&["dag", "--deny-warnings", "corpus/dag/broken/order.json"]);
    assert_eq!(denied.status.code(), Some(1));
}

#[test]
fn writes_mode_changes_the_verdict() {
    // A second write is a warning by default (essay 009, not the 010 seed):
    // the run passes unless warnings are denied.
    let immutable = acp_plan(&["dag", "corpus/dag/broken/double-write.json"]);
    assert_eq!(immutable.status.code(), Some(0));
    assert!(stdout(&immutable).contains("warning[DAG-WRITE-TWICE]"));
    let denied = acp_plan(&[
        "dag",
        "--deny-warnings",
        "corpus/dag/broken/double-write.json",
    ]);
    assert_eq!(denied.status.code(), Some(1));
    let last_wins = acp_plan(&[
        "dag",
        "--writes",
        "last-wins",
        "--input",
        "corpus/dag/broken/double-write.input.json",
        "--format",
        "json",
        "corpus/dag/broken/double-write.json",
    ]);
    assert_eq!(last_wins.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&last_wins.stdout).expect("JSON");
    assert_eq!(report["writes"], "last-wins");
    assert_eq!(report["diagnostics"][0]["rule"], "DAG-WRITE-OVERWRITE");
    assert_eq!(report["diagnostics"][0]["line"], 7);
}

#[test]
fn the_graph_alone_goes_to_stdout() {
    let out = acp_plan(&["dag", "--graph", "dot", "corpus/dag/broken/cycle.json"]);
    assert_eq!(out.status.code(), Some(1));
    let graph = stdout(&out);
    assert!(
        graph.starts_with("digraph plan {") && graph.ends_with("}\n"),
        "{graph}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[DAG-CYCLE]"));
    let mermaid = acp_plan(&["dag", "--graph", "mermaid", "corpus/dag/profile.json"]);
    assert!(stdout(&mermaid).starts_with("flowchart TD\n"));
}

#[test]
fn usage_and_io_errors_exit_2() {
    let missing = acp_plan(&["dag", "corpus/dag/no-such-plan.json"]);
    assert_eq!(missing.status.code(), Some(2));
    let bad_tools = acp_plan(&[
        "dag",
        "--tools",
        "corpus/dag/broken/not-json.json",
        "corpus/dag/profile.json",
    ]);
    assert_eq!(bad_tools.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_tools.stderr).contains("--tools"));
    let bad_option = acp_plan(&["dag", "--writes", "sometimes", "corpus/dag/profile.json"]);
    assert_eq!(bad_option.status.code(), Some(2));
}

#[test]
fn limits_are_reported_not_crashed_on() {
    // Incomplete, not an error: fails closed by default, passes with --incomplete warn.
    let out = acp_plan(&["dag", "--max-calls", "1", "corpus/dag/profile.json"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("incomplete[DAG-LIMIT]"), "{text}");
    assert!(
        text.contains("verdict: incomplete (0 errors, 0 warnings, 1 part not checked)"),
        "{text}"
    );
    let warned = acp_plan(&[
        "dag",
        "--incomplete",
        "warn",
        "--max-calls",
        "1",
        "--format",
        "json",
        "corpus/dag/profile.json",
    ]);
    assert_eq!(warned.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&warned.stdout).expect("JSON");
    assert_eq!(report["verdict"], "incomplete");
    assert_eq!(report["summary"]["incomplete"], 1);
    assert_eq!(report["unchecked"][0]["rule"], "DAG-LIMIT");
}

#[test]
fn every_report_format_points_at_the_calls_line() {
    let args = [
        "--input",
        "corpus/dag/broken/cycle.input.json",
        "corpus/dag/broken/cycle.json",
    ];
    let with_format = |format: &str| {
        let mut all = vec!["dag", "--format", format];
        all.extend_from_slice(&args);
        let out = acp_plan(&all);
        assert_eq!(out.status.code(), Some(1), "{format}: {}", stdout(&out));
        stdout(&out)
    };
    // JUnit: one suite for the plan file, one case per DAG rule.
    let xml = with_format("junit");
    let report = quick_junit::Report::deserialize_from_str(&xml).expect("JUnit parses");
    assert_eq!(report.test_suites.len(), 1);
    let suite = &report.test_suites[0];
    assert_eq!(suite.name.as_str(), "corpus/dag/broken/cycle.json");
    let dag_rules = acp_plan_dag::rules::RULES;
    assert_eq!(suite.test_cases.len(), dag_rules.len());
    let cycle = suite
        .test_cases
        .iter()
        .find(|c| c.name.as_str() == "DAG-CYCLE")
        .expect("a DAG-CYCLE case");
    assert!(matches!(
        cycle.status,
        quick_junit::TestCaseStatus::NonSuccess { .. }
    ));
    assert_eq!(suite.failures, 1);

    // SARIF: valid 2.1.0, results at the call's line, the DAG rules as the driver's.
    let sarif: serde_json::Value = serde_json::from_str(&with_format("sarif")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("schemas/sarif-schema-2.1.0.json")).unwrap(),
    )
    .unwrap();
    assert!(jsonschema::is_valid(&schema, &sarif), "{sarif:#}");
    let run = &sarif["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{run:#}");
    let first = &results[0];
    assert_eq!(first["ruleId"], "DAG-CYCLE");
    let rule_index = first["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(
        run["tool"]["driver"]["rules"][rule_index]["id"],
        "DAG-CYCLE"
    );
    let place = &first["locations"][0]["physicalLocation"];
    assert_eq!(
        place["artifactLocation"]["uri"],
        "corpus/dag/broken/cycle.json"
    );
    assert_eq!(place["region"]["startLine"], 3);

    // GitHub: an annotation per diagnostic at the call's line, then the verdict.
    let text = with_format("github");
    assert!(
        text.starts_with("::error file=corpus/dag/broken/cycle.json,line=3,title=DAG-CYCLE::"),
        "{text}"
    );
    assert!(
        text.ends_with("acp-plan dag: not conformant (2 errors, 0 warnings)\n"),
        "{text}"
    );
}
