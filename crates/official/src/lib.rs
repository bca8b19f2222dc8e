//! acp-plan-official: the official `agent-client-protocol-schema` crate's
//! reading of plan messages, for the differential checks in
//! `acp_plan_conformance::fuzzing::differential`.
//!
//! A crate of its own so that the `differential` fuzz target, this crate's
//! regression test and the `differential_catalog` example compare against
//! the same reading, and the library does not depend on the official crate.

use acp_plan_conformance::fuzzing::differential::Official;
use agent_client_protocol_schema::v1::{InitializeRequest, SessionUpdate};
use serde_json::Value;

/// Reads with `agent-client-protocol-schema` 1.15.1 (`v1` module, feature
/// `unstable_plan_operations`), the way an SDK-based client or agent would.
pub struct OfficialCrate;

impl Official for OfficialCrate {
    fn session_update(&self, update: &str) -> Result<Value, String> {
        let read: SessionUpdate = serde_json::from_str(update).map_err(|e| e.to_string())?;
        serde_json::to_value(&read).map_err(|e| e.to_string())
    }

    fn client_capabilities(&self, params: &str) -> Result<Value, String> {
        let read: InitializeRequest = serde_json::from_str(params).map_err(|e| e.to_string())?;
        serde_json::to_value(&read.client_capabilities).map_err(|e| e.to_string())
    }
}
