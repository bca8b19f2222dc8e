//! The files generated from the rule catalog: `docs/rules.md` is
//! `acp-plan rules --format markdown` and `corpus/rules.json` is
//! `acp-plan rules --format json`.

use acp_plan_conformance::catalog::Rule;
use acp_plan_conformance::report::reference::markdown;
use serde_json::Value;
use std::path::Path;

#[test]
fn rules_json_is_the_catalog() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/rules.json");
    let text = std::fs::read_to_string(&path).expect("corpus/rules.json");
    let committed: Value = serde_json::from_str(&text).expect("corpus/rules.json is JSON");
    let catalog: Vec<&Rule> = acp_plan_dag::every_rule().collect();
    let current = serde_json::to_value(&catalog).expect("the catalog serializes");
    assert!(
        committed == current,
        "corpus/rules.json is stale; regenerate it with\n  cargo run --bin acp-plan -- rules --format json > corpus/rules.json"
    );
}

#[test]
fn docs_rules_md_is_generated_from_the_catalog() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules.md");
    let committed = std::fs::read_to_string(&path).expect("docs/rules.md");
    assert!(
        committed == markdown(acp_plan_dag::every_rule()),
        "docs/rules.md differs from the rule catalog. Regenerate it with:\n\n    \
         cargo run --bin acp-plan -- rules --format markdown > docs/rules.md\n"
    );
}
