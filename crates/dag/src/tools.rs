//! The tools a plan may call (`--tools FILE`), with their argument schemas.
//!
//! Accepted shapes:
//! - an object mapping tool names to argument schemas (`null` or `{}`: any
//!   arguments): `{"bookFlight": {"type": "object", ...}}`;
//! - an array of names or of tool descriptions with `name` and one of
//!   `inputSchema` (MCP), `input_schema`, `parameters` (OpenAI) or `schema`;
//!   OpenAI's `{"type": "function", "function": {...}}` wrapper is unwrapped;
//! - `{"tools": [...]}` (an MCP `tools/list` result) holding such an array.
//!
//! A call's arguments are its members that do not start with `_` (`_tool`
//! and `_outputPath` are the call's own). A reference stands for a value
//! only known at run time, so a schema error that may depend on a
//! reference's value is not reported (see [`ToolCatalog::check_arguments`]).

use acp_plan_conformance::text::json_type;
use indexmap::IndexMap;
use jsonschema::error::ValidationErrorKind;
use serde_json::{Map, Value};

/// Known tools in file order, each with its compiled schema (if any).
#[derive(Debug, Default)]
pub struct ToolCatalog {
    tools: IndexMap<String, Option<jsonschema::Validator>>,
}

/// An argument (or the whole argument object) that does not fit the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgumentMismatch {
    /// JSON pointer relative to the call object.
    pub pointer: String,
    pub message: String,
}

/// A tools document (`--tools`) that cannot be used: what is wrong, where.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ToolsError(String);

impl From<String> for ToolsError {
    fn from(message: String) -> Self {
        ToolsError(message)
    }
}

impl ToolCatalog {
    /// Read a tools document (see the module docs for the shapes).
    pub fn from_json(document: &Value) -> Result<Self, ToolsError> {
        let mut catalog = ToolCatalog::default();
        match document {
            Value::Object(members) => match members.get("tools") {
                Some(Value::Array(list)) if members.len() == 1 => catalog.add_list(list)?,
                _ => {
                    for (name, schema) in members {
                        catalog.add(name, Some(schema))?;
                    }
                }
            },
            Value::Array(list) => catalog.add_list(list)?,
            other => {
                return Err(ToolsError(format!(
                    "expected an object of tool schemas or an array of tools, found {}",
                    json_type(other)
                )))
            }
        }
        Ok(catalog)
    }

    fn add_list(&mut self, list: &[Value]) -> Result<(), ToolsError> {
        for (index, tool) in list.iter().enumerate() {
            match tool {
                Value::String(name) => self.add(name, None)?,
                Value::Object(members) => {
                    let members = match members.get("function") {
                        Some(Value::Object(function)) => function,
                        _ => members,
                    };
                    let name = members
                        .get("name")
                        .and_then(Value::as_str)
                        .ok_or_else(|| format!("tool {} has no string `name`", index + 1))?;
                    let schema = ["inputSchema", "input_schema", "parameters", "schema"]
                        .iter()
                        .find_map(|key| members.get(*key));
                    self.add(name, schema)?;
                }
                other => {
                    return Err(ToolsError(format!(
                        "tool {} is {}, not a name or an object",
                        index + 1,
                        json_type(other)
                    )))
                }
            }
        }
        Ok(())
    }

    fn add(&mut self, name: &str, schema: Option<&Value>) -> Result<(), ToolsError> {
        let validator = match schema {
            None | Some(Value::Null) => None,
            Some(schema @ (Value::Object(_) | Value::Bool(_))) => Some(
                jsonschema::validator_for(schema)
                    .map_err(|e| format!("the schema of tool `{name}` is not usable: {e}"))?,
            ),
            Some(other) => {
                return Err(ToolsError(format!(
                    "the schema of tool `{name}` is {}, not a JSON Schema",
                    json_type(other)
                )))
            }
        };
        self.tools.insert(name.to_owned(), validator);
        Ok(())
    }

    pub fn contains(&self, name: &str) -> bool {
        self.tools.contains_key(name)
    }

    pub fn len(&self) -> usize {
        self.tools.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// Check a call's arguments against the tool's schema. `references`
    /// are the pointers (relative to the call) of reference arguments.
    /// An error is kept if it cannot depend on a reference's value: either
    /// nothing at or below its location is a reference, or it is about the
    /// object's shape only (required, unexpected or counted members, a
    /// member that is never allowed).
    pub fn check_arguments(
        &self,
        tool: &str,
        call: &Map<String, Value>,
        references: &[String],
    ) -> Vec<ArgumentMismatch> {
        let Some(Some(validator)) = self.tools.get(tool) else {
            return Vec::new();
        };
        let arguments: Map<String, Value> = call
            .iter()
            .filter(|(key, _)| !key.starts_with('_'))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        let arguments = Value::Object(arguments);
        validator
            .iter_errors(&arguments)
            .filter_map(|error| {
                let pointer = error.instance_path.as_str().to_owned();
                let under = |reference: &String| {
                    reference == &pointer
                        || reference
                            .strip_prefix(pointer.as_str())
                            .is_some_and(|rest| rest.starts_with('/'))
                };
                let value_dependent = !shape_only(&error.kind) && references.iter().any(under);
                (!value_dependent).then(|| ArgumentMismatch {
                    message: acp_plan_conformance::text::shorten(&error.to_string(), 200),
                    pointer,
                })
            })
            .collect()
    }
}

/// Errors decided by which members exist, never by a member's value.
fn shape_only(kind: &ValidationErrorKind) -> bool {
    matches!(
        kind,
        ValidationErrorKind::Required { .. }
            | ValidationErrorKind::AdditionalProperties { .. }
            | ValidationErrorKind::MinProperties { .. }
            | ValidationErrorKind::MaxProperties { .. }
            | ValidationErrorKind::MinItems { .. }
            | ValidationErrorKind::MaxItems { .. }
            | ValidationErrorKind::PropertyNames { .. }
            | ValidationErrorKind::FalseSchema
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(value: Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn reads_the_accepted_shapes() {
        let map = ToolCatalog::from_json(&json!({"a": null, "b": {"type": "object"}})).unwrap();
        assert_eq!(map.names().collect::<Vec<_>>(), ["a", "b"]);
        let list = ToolCatalog::from_json(&json!([
            "a",
            {"name": "b", "inputSchema": {"type": "object"}},
            {"type": "function", "function": {"name": "c", "parameters": {}}}
        ]))
        .unwrap();
        assert_eq!(list.names().collect::<Vec<_>>(), ["a", "b", "c"]);
        let mcp = ToolCatalog::from_json(&json!({"tools": [{"name": "x"}]})).unwrap();
        assert!(mcp.contains("x") && !mcp.contains("tools"));
        assert!(ToolCatalog::from_json(&json!(3)).is_err());
        assert!(ToolCatalog::from_json(&json!([{"title": "no name"}])).is_err());
        assert!(ToolCatalog::from_json(&json!({"a": 3})).is_err());
    }

    #[test]
    fn checks_literal_arguments_and_spares_references() {
        let catalog = ToolCatalog::from_json(&json!({"issueRefund": {
            "type": "object",
            "properties": {"customerId": {"type": "string"}, "amount": {"type": "number"}},
            "required": ["customerId", "amount"],
            "additionalProperties": false
        }}))
        .unwrap();
        let ok = call(json!({"_tool": "issueRefund", "_outputPath": "†state.r",
                             "customerId": "c1", "amount": "†input.amount"}));
        assert_eq!(
            catalog.check_arguments("issueRefund", &ok, &["/amount".into()]),
            []
        );
        let bad = call(json!({"_tool": "issueRefund", "customerId": 7, "extra": 1,
                              "amount": "†input.amount"}));
        let mismatches = catalog.check_arguments("issueRefund", &bad, &["/amount".into()]);
        let pointers: Vec<_> = mismatches.iter().map(|m| m.pointer.as_str()).collect();
        assert!(pointers.contains(&"/customerId"), "{mismatches:?}");
        assert!(
            pointers.contains(&""),
            "additional property: {mismatches:?}"
        );
        assert!(!pointers.contains(&"/amount"));
        let missing = call(json!({"_tool": "issueRefund", "amount": "†input.amount"}));
        let mismatches = catalog.check_arguments("issueRefund", &missing, &["/amount".into()]);
        assert_eq!(mismatches.len(), 1, "required is kept: {mismatches:?}");
    }

    #[test]
    fn tools_without_schema_accept_anything() {
        let catalog = ToolCatalog::from_json(&json!(["free"])).unwrap();
        let c = call(json!({"_tool": "free", "x": 1}));
        assert_eq!(catalog.check_arguments("free", &c, &[]), []);
        assert_eq!(catalog.check_arguments("unknown", &c, &[]), []);
    }
}
