//! `docs/rules.md` is `acp-plan rules --format markdown`: this test fails
//! when the file and the rule catalog differ.

use acp_plan_conformance::report::reference::markdown;
use std::path::Path;

#[test]
fn docs_rules_md_is_generated_from_the_catalog() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules.md");
    let committed = std::fs::read_to_string(&path).expect("docs/rules.md");
    assert!(
        committed == markdown(),
        "docs/rules.md differs from the rule catalog. Regenerate it with:\n\n    \
         cargo run --bin acp-plan -- rules --format markdown > docs/rules.md\n"
    );
}
