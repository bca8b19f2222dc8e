//! Each linked release reads the plan shapes it is documented to read: the
//! 1.20.0 reader is not the 1.15.1 one under another name.

use acp_plan_conformance::fuzzing::differential::Official;
use acp_plan_conformance::Revision;
use acp_plan_official::{OfficialCrate, OfficialRelease};
use serde_json::json;

fn reader(release: OfficialRelease) -> OfficialCrate {
    OfficialCrate::new(release, Revision::V1)
}

const FILE_PLAN: &str = r#"{"sessionUpdate":"plan_update","plan":{"type":"file","planId":"p","uri":"file:///plan.md"}}"#;
const MARKDOWN_WITH_PATH: &str = r##"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":"# Plan","path":"/home/user/plan.md"}}"##;

#[test]
fn release_1_15_1_reads_file_plans() {
    let read = reader(OfficialRelease::R1_15_1)
        .session_update(FILE_PLAN)
        .expect("1.15.1 knows `file`");
    assert_eq!(read["plan"]["uri"], json!("file:///plan.md"));
}

#[test]
fn release_1_20_0_has_no_file_plans() {
    let error = reader(OfficialRelease::R1_20_0)
        .session_update(FILE_PLAN)
        .expect_err("1.20.0 dropped `file`");
    assert!(error.contains("unknown variant `file`"), "{error}");
}

#[test]
fn only_release_1_20_0_keeps_a_markdown_path() {
    let new = reader(OfficialRelease::R1_20_0)
        .session_update(MARKDOWN_WITH_PATH)
        .expect("1.20.0 reads `path`");
    assert_eq!(new["plan"]["path"], json!("/home/user/plan.md"));
    let old = reader(OfficialRelease::R1_15_1)
        .session_update(MARKDOWN_WITH_PATH)
        .expect("1.15.1 ignores the unknown member");
    assert!(old["plan"].get("path").is_none(), "{old}");
}

#[test]
fn both_releases_read_the_plan_capability() {
    let params = r#"{"protocolVersion":1,"clientCapabilities":{"plan":{}}}"#;
    for release in OfficialRelease::ALL {
        let capabilities = reader(release)
            .client_capabilities(params)
            .unwrap_or_else(|e| panic!("{}: {e}", release.version()));
        assert_eq!(capabilities["plan"], json!({}), "{}", release.version());
    }
}

#[test]
fn each_revision_reads_with_its_release() {
    let v1 = OfficialCrate::for_revision(Revision::V1).expect("v1 has a reader");
    assert_eq!(v1.revision(), Revision::V1);
    assert_eq!(v1.release(), OfficialRelease::R1_20_0);
    let earlier = OfficialCrate::for_revision(Revision::V1Schema117).expect("v1-1.17 has a reader");
    assert_eq!(earlier.release(), OfficialRelease::R1_15_1);
    assert!(OfficialCrate::for_revision(Revision::Draft202605).is_none());
    assert_eq!(OfficialCrate::all().len(), 2);
}
