//! acp-plan-official: the official `agent-client-protocol-schema` crate's
//! reading of plan messages, for the differential checks in
//! `acp_plan_conformance::fuzzing::differential`.
//!
//! A crate of its own so that the `differential` fuzz target, this crate's
//! regression test and the `differential_catalog` example compare against
//! the same reading, and the library does not depend on the official crate.
//! It links two releases of the official crate: each revision is read by the
//! release that judges it ([`OfficialCrate::for_revision`]).

use acp_plan_conformance::fuzzing::differential::Official;
use acp_plan_conformance::Revision;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// A release of `agent-client-protocol-schema` this crate links (`v1` types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum OfficialRelease {
    /// 1.15.1 with `unstable_plan_operations`: the v1 plan shapes of releases
    /// 1.3.0 to 1.17.0 (`file` plans, no markdown `path`).
    R1_15_1,
    /// 1.20.0: plan operations stable, no `file` plan type, markdown `path`.
    R1_20_0,
}

impl OfficialRelease {
    pub const ALL: [OfficialRelease; 2] = [OfficialRelease::R1_15_1, OfficialRelease::R1_20_0];

    /// The release number, as crates.io spells it.
    pub fn version(self) -> &'static str {
        match self {
            OfficialRelease::R1_15_1 => "1.15.1",
            OfficialRelease::R1_20_0 => "1.20.0",
        }
    }
}

/// Reads with one release of the official crate, the way an SDK-based client
/// or agent would, for the revision that release judges.
#[derive(Clone, Copy, Debug)]
pub struct OfficialCrate {
    release: OfficialRelease,
    revision: Revision,
}

impl OfficialCrate {
    /// The reader of the release `revision` is judged by, or `None` where no
    /// official crate reads it (the draft has no official types; the v2
    /// differential is not written).
    ///
    /// Until the library has the release-keyed revisions of issue 42, `v1`
    /// is the 1.17.0 shape and reads with 1.15.1; then `v1` reads with 1.20.0
    /// and `v1-1.17` with 1.15.1.
    pub fn for_revision(revision: Revision) -> Option<OfficialCrate> {
        let release = match revision {
            Revision::V1 => OfficialRelease::R1_20_0,
            Revision::V1Schema117 => OfficialRelease::R1_15_1,
            // The differential compares protocol 1's readers only.
            Revision::Draft202605 | Revision::V2Schema117 | Revision::V2 => return None,
        };
        Some(OfficialCrate { release, revision })
    }

    /// Every revision's reader: what the fuzz target and its regression test check.
    pub fn all() -> Vec<OfficialCrate> {
        Revision::ALL
            .into_iter()
            .filter_map(OfficialCrate::for_revision)
            .collect()
    }

    /// A reader of `release` for `revision`, whatever `for_revision` maps.
    pub fn new(release: OfficialRelease, revision: Revision) -> OfficialCrate {
        OfficialCrate { release, revision }
    }

    pub fn release(&self) -> OfficialRelease {
        self.release
    }
}

/// `T` read from `text` and serialized again, or why it was rejected.
fn reread<T: DeserializeOwned + Serialize>(text: &str) -> Result<Value, String> {
    let read: T = serde_json::from_str(text).map_err(|e| e.to_string())?;
    serde_json::to_value(&read).map_err(|e| e.to_string())
}

impl Official for OfficialCrate {
    fn revision(&self) -> Revision {
        self.revision
    }

    fn session_update(&self, update: &str) -> Result<Value, String> {
        match self.release {
            OfficialRelease::R1_15_1 => reread::<schema_1_15::v1::SessionUpdate>(update),
            OfficialRelease::R1_20_0 => reread::<schema_1_20::v1::SessionUpdate>(update),
        }
    }

    fn client_capabilities(&self, params: &str) -> Result<Value, String> {
        let capabilities = match self.release {
            OfficialRelease::R1_15_1 => {
                let read: schema_1_15::v1::InitializeRequest =
                    serde_json::from_str(params).map_err(|e| e.to_string())?;
                serde_json::to_value(&read.client_capabilities)
            }
            OfficialRelease::R1_20_0 => {
                let read: schema_1_20::v1::InitializeRequest =
                    serde_json::from_str(params).map_err(|e| e.to_string())?;
                serde_json::to_value(&read.client_capabilities)
            }
        };
        capabilities.map_err(|e| e.to_string())
    }
}
