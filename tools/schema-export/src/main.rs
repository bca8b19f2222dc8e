//! Prints the official JSON Schema of the linked `agent-client-protocol-schema`
//! release, for the protocol version and stability its features select, as
//! upstream publishes it in `schema/{v1,v2}/schema[.unstable].json`: one
//! root naming every message an agent or a client sends (JSON-RPC requests,
//! responses and notifications), with every type under `$defs`, so that a
//! test can validate a single type (`$defs/SessionUpdate`,
//! `$defs/ClientCapabilities`) against the same document.
//!
//! The root and the generator settings follow upstream's `src/bin/generate.rs`
//! (draft 2020-12, titled untagged variants, no `$ref` siblings, no boolean
//! schemas); the batch messages of v2 are left out, as the suite reads no batch
//! schema. scripts/spec-sync is the only caller.

use schemars::generate::SchemaSettings;
use schemars::transform::{RemoveRefSiblings, ReplaceBoolSchemas};
use schemars::JsonSchema;
use std::io::Write;

#[cfg(not(feature = "v2"))]
use agent_client_protocol_schema::v1 as protocol;
#[cfg(feature = "v2")]
use agent_client_protocol_schema::v2 as protocol;

use protocol::{
    AgentNotification, AgentRequest, AgentResponse, ClientNotification, ClientRequest,
    ClientResponse, JsonRpcMessage, Notification, Request, Response,
};

/// Every message an agent sends to a client.
#[derive(JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
#[allow(dead_code, clippy::large_enum_variant)]
enum AgentOutgoingMessage {
    Request(Request<AgentRequest>),
    Response(Response<AgentResponse>),
    Notification(Notification<AgentNotification>),
}

/// Every message a client sends to an agent.
#[derive(JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
#[allow(dead_code, clippy::large_enum_variant)]
enum ClientOutgoingMessage {
    Request(Request<ClientRequest>),
    Response(Response<ClientResponse>),
    Notification(Notification<ClientNotification>),
}

/// The root: a message from either side.
#[derive(JsonSchema)]
#[serde(untagged)]
#[schemars(title = "Agent Client Protocol")]
#[allow(dead_code, clippy::large_enum_variant)]
enum AcpTypes {
    Agent(JsonRpcMessage<AgentOutgoingMessage>),
    Client(JsonRpcMessage<ClientOutgoingMessage>),
}

fn main() {
    let mut settings = SchemaSettings::draft2020_12();
    settings.untagged_enum_variant_titles = true;
    let mut bool_schemas = ReplaceBoolSchemas::default();
    bool_schemas.skip_additional_properties = true;
    let generator = settings
        .with_transform(RemoveRefSiblings::default())
        .with_transform(bool_schemas)
        .into_generator();
    let schema = generator.into_root_schema_for::<AcpTypes>();
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serializes");
    text.push('\n');
    std::io::stdout()
        .write_all(text.as_bytes())
        .expect("stdout is writable");
}
