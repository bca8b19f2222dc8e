//! `acp-plan dag` as users run it: exit statuses, the graph alone on
//! standard output, companion files, usage errors.

mod common;

use common::{acp_plan, stdout};

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
    let immutable = acp_plan(&["dag", "corpus/dag/broken/double-write.json"]);
    assert_eq!(immutable.status.code(), Some(1));
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
    let out = acp_plan(&["dag", "--max-calls", "1", "corpus/dag/profile.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("error[DAG-LIMIT]"));
}
