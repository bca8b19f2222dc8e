//! What a plan may read besides what its calls write: the values of Input
//! and State messages (`--input`, `--state`, or the context array the plan
//! came in), and the State blueprint (a State message's `schema`, whose
//! properties are the paths the plan may fill).

use crate::reference::Reference;
use acp_plan_conformance::text::json_type;
use serde_json::{Map, Value};

/// Values known before the plan runs, by data kind, and the State blueprint.
#[derive(Clone, Debug, Default)]
pub struct KnownData {
    /// (kind, object of values); several sources of one kind are all read.
    sources: Vec<(String, Value)>,
    state_schema: Option<Value>,
}

/// A data file that is neither a message of the expected kind nor an
/// object of values.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DataError {
    #[error("expected a JSON object (a `{kind}` message or an object of values), found {found}")]
    NotObject { kind: String, found: &'static str },
    #[error("the state message's `schema` is {found}, not a JSON Schema object")]
    SchemaNotObject { found: &'static str },
}

impl KnownData {
    /// Add a document for data `kind`: a message `{"type": kind, ...}`
    /// (for `state`, its `schema` member is the blueprint) or a plain object
    /// of values.
    pub fn add(&mut self, kind: &str, document: Value) -> Result<(), DataError> {
        let Value::Object(mut members) = document else {
            return Err(DataError::NotObject {
                kind: kind.to_owned(),
                found: json_type(&document),
            });
        };
        if members.get("type").and_then(Value::as_str) == Some(kind) {
            members.shift_remove("type");
            if kind == "state" {
                if let Some(schema) = members.shift_remove("schema") {
                    if !matches!(schema, Value::Object(_) | Value::Bool(_)) {
                        return Err(DataError::SchemaNotObject {
                            found: json_type(&schema),
                        });
                    }
                    self.state_schema = Some(schema);
                }
            }
        }
        self.sources.push((kind.to_owned(), Value::Object(members)));
        Ok(())
    }

    /// Take the data of a context message (`input`, `state`); other
    /// message types carry no data. A `schema` that is not a schema is
    /// dropped (its values are kept): a blueprint that is not an object
    /// lists no slots.
    pub(crate) fn add_context_message(&mut self, message: &Map<String, Value>) {
        if let Some(kind @ ("input" | "state")) = message.get("type").and_then(Value::as_str) {
            let mut message = message.clone();
            if kind == "state"
                && !matches!(
                    message.get("schema"),
                    None | Some(Value::Object(_) | Value::Bool(_))
                )
            {
                message.shift_remove("schema");
            }
            // Cannot fail: an object whose `schema`, if any, is a schema.
            let _ = self.add(kind, Value::Object(message));
        }
    }

    /// Add `other`'s sources after ours; our blueprint, if any, wins.
    pub fn merge(&mut self, other: &KnownData) {
        self.sources.extend(other.sources.iter().cloned());
        if self.state_schema.is_none() {
            self.state_schema.clone_from(&other.state_schema);
        }
    }

    /// Whether any values of `kind` were given.
    pub fn supplied(&self, kind: &str) -> bool {
        self.sources.iter().any(|(k, _)| k == kind)
    }

    /// Whether some source of the reference's kind holds a value at its path.
    pub fn holds(&self, reference: &Reference) -> bool {
        self.sources
            .iter()
            .filter(|(kind, _)| *kind == reference.kind)
            .any(|(_, root)| value_at(root, &reference.path).is_some())
    }

    /// The State blueprint, if a State message carried one.
    pub fn state_schema(&self) -> Option<&Value> {
        self.state_schema.as_ref()
    }
}

/// The value at `path` (object members by key, array elements by index).
pub fn value_at<'v>(root: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(root, |node, segment| match node {
        Value::Object(members) => members.get(segment),
        Value::Array(items) => items.get(segment.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Where a State path stands against the blueprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaFit {
    /// The blueprint has a slot for the path (or leaves that part open).
    Inside,
    /// The first `fits` segments are slots; the next one is not.
    Outside { fits: usize },
}

/// Walk `path` through the blueprint. A level with `properties` admits
/// only those names unless `additionalProperties` is `true` or a schema
/// (a blueprint lists the slots the plan should fill, so an unlisted
/// name is outside even though JSON Schema would allow it by default). A
/// level without `properties` is open if its type is `object`, `array` or
/// unstated, closed for scalar types. `$ref` is not followed (open).
pub fn schema_fit(schema: &Value, path: &[String]) -> SchemaFit {
    let mut node = schema;
    for (depth, segment) in path.iter().enumerate() {
        let outside = SchemaFit::Outside { fits: depth };
        let Value::Object(keywords) = node else {
            return if node == &Value::Bool(false) {
                outside
            } else {
                SchemaFit::Inside
            };
        };
        if let Some(Value::Object(properties)) = keywords.get("properties") {
            node = match (
                properties.get(segment),
                keywords.get("additionalProperties"),
            ) {
                (Some(slot), _) => slot,
                (None, Some(extra @ Value::Object(_))) => extra,
                (None, Some(Value::Bool(true))) => return SchemaFit::Inside,
                (None, _) => return outside,
            };
            continue;
        }
        if let Some(items @ Value::Object(_)) = keywords.get("items") {
            if segment.parse::<usize>().is_ok() {
                node = items;
                continue;
            }
            return outside;
        }
        let open = match keywords.get("type") {
            None => true,
            Some(Value::String(t)) => t == "object" || t == "array",
            Some(Value::Array(types)) => types.iter().any(|t| t == "object" || t == "array"),
            Some(_) => true,
        };
        return if open { SchemaFit::Inside } else { outside };
    }
    SchemaFit::Inside
}

/// The leaf slots of the blueprint: paths through `properties` down to a
/// property that has none of its own. At most `max_slots`, each at most
/// `max_depth` segments deep (deeper levels count as one slot).
pub fn schema_slots(schema: &Value, max_depth: usize, max_slots: usize) -> Vec<Vec<String>> {
    let mut slots = Vec::new();
    let mut stack: Vec<(Vec<String>, &Value)> = vec![(Vec::new(), schema)];
    while let Some((path, node)) = stack.pop() {
        let properties = node
            .get("properties")
            .and_then(Value::as_object)
            .filter(|p| !p.is_empty() && path.len() < max_depth);
        match properties {
            Some(properties) => {
                // Reversed so that slots come out in document order.
                for (name, child) in properties.iter().rev() {
                    let mut child_path = path.clone();
                    child_path.push(name.clone());
                    stack.push((child_path, child));
                }
            }
            None if !path.is_empty() => {
                slots.push(path);
                if slots.len() == max_slots {
                    break;
                }
            }
            None => {}
        }
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(dotted: &str) -> Vec<String> {
        dotted.split('.').map(str::to_owned).collect()
    }

    #[test]
    fn messages_and_plain_objects_are_data() {
        let mut data = KnownData::default();
        data.add("input", json!({"type": "input", "amount": 50.0}))
            .unwrap();
        data.add(
            "state",
            json!({"type": "state", "error": {"code": "x"}, "schema": {"type": "object"}}),
        )
        .unwrap();
        let r = |kind: &str, p: &str| Reference {
            kind: kind.into(),
            path: path(p),
        };
        assert!(data.holds(&r("input", "amount")));
        assert!(!data.holds(&r("input", "type")));
        assert!(data.holds(&r("state", "error.code")));
        assert!(!data.holds(&r("state", "schema")));
        assert!(data.state_schema().is_some());
        assert!(data.supplied("input") && !data.supplied("config"));
        let mut plain = KnownData::default();
        plain.add("input", json!({"type": "refund"})).unwrap();
        assert!(plain.holds(&r("input", "type")));
        assert_eq!(
            plain.add("input", json!([1])),
            Err(DataError::NotObject {
                kind: "input".into(),
                found: "an array"
            })
        );
    }

    #[test]
    fn values_are_found_through_objects_and_arrays() {
        let root = json!({"a": [{"b": 1}]});
        assert_eq!(value_at(&root, &path("a.0.b")), Some(&json!(1)));
        assert_eq!(value_at(&root, &path("a.x")), None);
        assert_eq!(value_at(&root, &path("a.0.b.c")), None);
    }

    #[test]
    fn blueprint_paths() {
        let schema = json!({"type": "object", "properties": {
            "language": {"type": "string"},
            "user": {"type": "object", "properties": {"name": {"type": "string"}}},
            "free": {"type": "object"},
            "list": {"type": "array", "items": {"type": "object", "properties": {"id": {}}}}
        }});
        let fit = |p: &str| schema_fit(&schema, &path(p));
        assert_eq!(fit("language"), SchemaFit::Inside);
        assert_eq!(fit("user.name"), SchemaFit::Inside);
        assert_eq!(fit("free.anything.deep"), SchemaFit::Inside);
        assert_eq!(fit("list.3.id"), SchemaFit::Inside);
        assert_eq!(fit("nope"), SchemaFit::Outside { fits: 0 });
        assert_eq!(fit("language.code"), SchemaFit::Outside { fits: 1 });
        assert_eq!(fit("user.age"), SchemaFit::Outside { fits: 1 });
        assert_eq!(fit("list.x"), SchemaFit::Outside { fits: 1 });
        let open = json!({"properties": {"a": {}}, "additionalProperties": true});
        assert_eq!(schema_fit(&open, &path("b.c")), SchemaFit::Inside);
        assert_eq!(
            schema_fit(&json!(false), &path("b")),
            SchemaFit::Outside { fits: 0 }
        );
    }

    #[test]
    fn blueprint_slots_in_document_order() {
        let schema = json!({"properties": {
            "language": {"type": "string"},
            "user": {"properties": {"name": {}, "age": {}}},
            "isEnglish": {"type": "boolean"}
        }});
        let slots: Vec<String> = schema_slots(&schema, 8, 100)
            .into_iter()
            .map(|p| p.join("."))
            .collect();
        assert_eq!(slots, ["language", "user.name", "user.age", "isEnglish"]);
        assert_eq!(schema_slots(&schema, 1, 100).len(), 3);
        assert_eq!(schema_slots(&schema, 8, 2).len(), 2);
    }
}
