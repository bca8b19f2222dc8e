//! Reading a plan file: its shape, its calls, and each call's tool,
//! references and output path. Problems are described as [`PlanFault`]s;
//! `rules::dag` decides what they break.

use crate::data::KnownData;
use crate::options::DagLimits;
use crate::reference::{
    is_reference, parse_output_path, parse_reference, OutputPath, OutputPathError, Reference,
    ReferenceError,
};
use crate::span::{self, LineCounter, Step};
use acp_plan_conformance::text::json_type;
use acp_plan_conformance::text::pointer_token;
use serde::Serialize;
use serde_json::{Map, Value};

/// serde_json refuses documents nested deeper than this.
pub const MAX_NESTING: usize = 128;

/// Longest call (in bytes of the file) rendered as a one-line snippet.
const MAX_SNIPPET_SOURCE: usize = 4096;

/// The accepted shapes of a plan file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// `[call, ...]`
    Calls,
    /// `{"calls": [call, ...], "output": ...}`
    Solution,
    /// `{"type": "plan", "plan": [call, ...]}`
    PlanMessage,
    /// `[message, ...]` holding one plan message (and maybe input/state).
    Context,
}

impl Shape {
    pub fn describe(self) -> &'static str {
        match self {
            Shape::Calls => "array of calls",
            Shape::Solution => "solution",
            Shape::PlanMessage => "plan message",
            Shape::Context => "context array",
        }
    }
}

/// Where something is: the line a call (or the document) starts on, and
/// a JSON pointer into the document.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub line: u64,
    pub pointer: String,
}

/// A string argument that reads data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub reference: Reference,
    /// Pointer to the argument in the document.
    pub pointer: String,
}

/// One tool call of the plan.
#[derive(Clone, Debug)]
pub struct Call {
    /// Position in the plan (0-based; shown 1-based as `#n`).
    pub index: usize,
    pub place: Place,
    /// `_tool`, when it is a non-empty string.
    pub tool: Option<String>,
    /// Well-formed references, in document order.
    pub reads: Vec<Read>,
    /// A well-formed `_outputPath`.
    pub output: Option<OutputPath>,
    /// The call as written.
    pub value: Value,
    /// Pointers (relative to the call) of every string argument that
    /// starts with `†`, well-formed or not.
    pub reference_arguments: Vec<String>,
    /// The call on one line, when it is short enough to show.
    pub compact: Option<String>,
}

impl Call {
    /// `#2 confirmOrder` (1-based), for messages; hostile names are cut.
    pub fn label(&self) -> String {
        match &self.tool {
            Some(tool) => format!("#{} {}", self.index + 1, display_name(tool)),
            None => format!("#{}", self.index + 1),
        }
    }

    /// Pointer to the `_outputPath` member.
    pub fn output_pointer(&self) -> String {
        format!("{}/_outputPath", self.place.pointer)
    }
}

/// A tool name fit for one line of a report.
pub fn display_name(name: &str) -> String {
    acp_plan_conformance::text::shorten(&name.escape_debug().to_string(), 60)
}

/// What is wrong with the plan file, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// Larger than `max_bytes`.
    TooLarge {
        limit: usize,
    },
    /// Nested deeper than serde_json reads.
    TooDeep,
    NotJson {
        reason: String,
    },
    /// Neither of the accepted shapes.
    NotAPlan {
        found: &'static str,
    },
    /// `calls` / `plan` is not an array.
    CallsNotArray {
        member: &'static str,
        found: &'static str,
    },
    /// A context array with several plan messages.
    SeveralPlans {
        count: usize,
    },
    TooManyCalls {
        count: usize,
        limit: usize,
    },
    TooManyReferences {
        limit: usize,
    },
    /// A reference or output path with more segments than allowed.
    PathTooDeep {
        text: String,
        limit: usize,
    },
    CallNotObject {
        found: &'static str,
    },
    ToolMissing,
    ToolNotString {
        found: &'static str,
    },
    ToolEmpty,
    BadReference {
        text: String,
        error: ReferenceError,
    },
    OutputNotString {
        found: &'static str,
    },
    BadOutputPath {
        text: String,
        error: OutputPathError,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanFault {
    pub place: Place,
    /// The call it is about, if any.
    pub call: Option<usize>,
    pub kind: FaultKind,
}

/// A plan of tool calls as read from a plan file (not an ACP plan message:
/// that is `acp_plan_conformance::spec::messages::Plan`).
#[derive(Debug, Default)]
pub struct ToolPlan {
    pub shape: Option<Shape>,
    pub calls: Vec<Call>,
    pub faults: Vec<PlanFault>,
    /// Input and State messages of a context array.
    pub context: KnownData,
    /// False when reading stopped at a limit or on unreadable input: the
    /// graph would be incomplete, so graph checks are skipped.
    pub complete: bool,
}

impl ToolPlan {
    fn fault(&mut self, place: Place, call: Option<usize>, kind: FaultKind) {
        self.faults.push(PlanFault { place, call, kind });
    }
}

/// Read a plan file. Never panics; every problem is a fault.
pub fn read_plan(bytes: &[u8], limits: &DagLimits) -> ToolPlan {
    let mut plan = ToolPlan::default();
    let start = Place {
        line: 1,
        pointer: String::new(),
    };
    if bytes.len() > limits.max_bytes {
        plan.fault(
            start,
            None,
            FaultKind::TooLarge {
                limit: limits.max_bytes,
            },
        );
        return plan;
    }
    // A UTF-8 byte order mark is not JSON, but editors write it.
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut document: Value = match serde_json::from_slice(text) {
        Ok(document) => document,
        Err(e) => {
            let place = Place {
                line: e.line().max(1) as u64,
                pointer: String::new(),
            };
            let kind = if e.to_string().starts_with("recursion limit exceeded") {
                FaultKind::TooDeep
            } else {
                FaultKind::NotJson {
                    reason: e.to_string(),
                }
            };
            plan.fault(place, None, kind);
            return plan;
        }
    };
    let mut lines = LineCounter::new(text);
    let Some((shape, container)) = find_calls(&document, &mut plan) else {
        return plan;
    };
    plan.shape = Some(shape);
    let mut place_of = |offset: Option<usize>, pointer: String| Place {
        line: offset.map_or(1, |o| lines.line_of(o)),
        pointer,
    };
    let container_offset = span::locate(text, &container.steps());
    let container_pointer = container.pointer();
    // Taken, not cloned: each call keeps its own value.
    let calls = match container.value_mut(&mut document) {
        Some(Value::Array(calls)) => std::mem::take(calls),
        other => {
            let found = other.map_or("nothing", |v| json_type(v));
            plan.fault(
                place_of(container_offset, container_pointer),
                None,
                FaultKind::CallsNotArray {
                    member: container.member,
                    found,
                },
            );
            return plan;
        }
    };
    if calls.len() > limits.max_calls {
        plan.fault(
            place_of(container_offset, container_pointer),
            None,
            FaultKind::TooManyCalls {
                count: calls.len(),
                limit: limits.max_calls,
            },
        );
        return plan;
    }
    let offsets = container_offset
        .and_then(|at| span::elements(text, at))
        .filter(|o| o.len() == calls.len());
    plan.complete = true;
    let mut references = 0usize;
    for (index, value) in calls.into_iter().enumerate() {
        let offset = offsets.as_ref().and_then(|o| o.get(index).copied());
        let place = place_of(
            offset.or(container_offset),
            format!("{container_pointer}/{index}"),
        );
        let compact = offset
            .and_then(|start| Some(span::skip_value(text, start)? - start))
            .filter(|&len| len <= MAX_SNIPPET_SOURCE)
            .and_then(|_| serde_json::to_string(&value).ok());
        let call = read_call(
            &mut plan,
            index,
            place,
            value,
            compact,
            limits,
            &mut references,
        );
        plan.calls.push(call);
    }
    plan
}

/// Where the calls are: a path of member names and indexes from the root.
struct Container {
    context_index: Option<usize>,
    member: &'static str,
}

impl Container {
    fn steps(&self) -> Vec<Step<'static>> {
        let mut steps = Vec::new();
        steps.extend(self.context_index.map(Step::Index));
        if !self.member.is_empty() {
            steps.push(Step::Key(self.member));
        }
        steps
    }

    fn pointer(&self) -> String {
        let mut pointer = String::new();
        if let Some(index) = self.context_index {
            pointer.push_str(&format!("/{index}"));
        }
        if !self.member.is_empty() {
            pointer.push('/');
            pointer.push_str(self.member);
        }
        pointer
    }

    fn value_mut<'v>(&self, document: &'v mut Value) -> Option<&'v mut Value> {
        let mut node = document;
        if let Some(index) = self.context_index {
            node = node.get_mut(index)?;
        }
        if !self.member.is_empty() {
            node = node.get_mut(self.member)?;
        }
        Some(node)
    }
}

/// Decide the shape. A top-level array is a context when every element is
/// an object with a string `type` and no `_tool`, and one of them is a
/// plan message; otherwise it is an array of calls.
fn find_calls(document: &Value, plan: &mut ToolPlan) -> Option<(Shape, Container)> {
    let top = Place {
        line: 1,
        pointer: String::new(),
    };
    match document {
        Value::Array(items) => {
            let is_message = |item: &Value| {
                item.get("type").is_some_and(Value::is_string) && item.get("_tool").is_none()
            };
            let plans: Vec<usize> = items
                .iter()
                .enumerate()
                .filter(|(_, item)| item.get("type").and_then(Value::as_str) == Some("plan"))
                .map(|(i, _)| i)
                .collect();
            if items.is_empty() || plans.is_empty() || !items.iter().all(is_message) {
                return Some((
                    Shape::Calls,
                    Container {
                        context_index: None,
                        member: "",
                    },
                ));
            }
            if plans.len() > 1 {
                plan.fault(top, None, FaultKind::SeveralPlans { count: plans.len() });
                return None;
            }
            for item in items {
                if let Value::Object(message) = item {
                    plan.context.add_context_message(message);
                }
            }
            Some((
                Shape::Context,
                Container {
                    context_index: plans.first().copied(),
                    member: "plan",
                },
            ))
        }
        Value::Object(members) if members.contains_key("calls") => Some((
            Shape::Solution,
            Container {
                context_index: None,
                member: "calls",
            },
        )),
        Value::Object(members) if members.get("type").and_then(Value::as_str) == Some("plan") => {
            Some((
                Shape::PlanMessage,
                Container {
                    context_index: None,
                    member: "plan",
                },
            ))
        }
        other => {
            plan.fault(
                top,
                None,
                FaultKind::NotAPlan {
                    found: match other {
                        Value::Object(_) => "an object without `calls` or `\"type\": \"plan\"`",
                        other => json_type(other),
                    },
                },
            );
            None
        }
    }
}

fn read_call(
    plan: &mut ToolPlan,
    index: usize,
    place: Place,
    value: Value,
    compact: Option<String>,
    limits: &DagLimits,
    references: &mut usize,
) -> Call {
    let mut call = Call {
        index,
        place: place.clone(),
        tool: None,
        reads: Vec::new(),
        output: None,
        value: Value::Null,
        reference_arguments: Vec::new(),
        compact,
    };
    let Value::Object(members) = &value else {
        plan.fault(
            place,
            Some(index),
            FaultKind::CallNotObject {
                found: json_type(&value),
            },
        );
        call.value = value;
        return call;
    };
    let at = |member: &str| Place {
        line: place.line,
        pointer: format!("{}/{}", place.pointer, pointer_token(member)),
    };
    match members.get("_tool") {
        None => plan.fault(place.clone(), Some(index), FaultKind::ToolMissing),
        Some(Value::String(tool)) if tool.trim().is_empty() => {
            plan.fault(at("_tool"), Some(index), FaultKind::ToolEmpty)
        }
        Some(Value::String(tool)) => call.tool = Some(tool.clone()),
        Some(other) => plan.fault(
            at("_tool"),
            Some(index),
            FaultKind::ToolNotString {
                found: json_type(other),
            },
        ),
    }
    match members.get("_outputPath") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => match parse_output_path(text, limits.max_path_segments) {
            Ok(output) => call.output = Some(output),
            Err(OutputPathError::BadTarget {
                error: ReferenceError::TooDeep { limit, .. },
                ..
            }) => {
                plan.complete = false;
                plan.fault(
                    at("_outputPath"),
                    Some(index),
                    FaultKind::PathTooDeep {
                        text: text.clone(),
                        limit,
                    },
                );
            }
            Err(error) => plan.fault(
                at("_outputPath"),
                Some(index),
                FaultKind::BadOutputPath {
                    text: text.clone(),
                    error,
                },
            ),
        },
        Some(other) => plan.fault(
            at("_outputPath"),
            Some(index),
            FaultKind::OutputNotString {
                found: json_type(other),
            },
        ),
    }
    read_arguments(plan, &mut call, members, limits, references);
    call.value = value;
    call
}

/// Collect the references among the arguments (members not starting with
/// `_`, searched through nested arrays and objects), in document order.
/// Iterative, and a pointer is only spelled out for a reference: a wide
/// argument costs a frame per level, not a string per element.
fn read_arguments(
    plan: &mut ToolPlan,
    call: &mut Call,
    members: &Map<String, Value>,
    limits: &DagLimits,
    references: &mut usize,
) {
    enum Level<'v> {
        Object(serde_json::map::Iter<'v>),
        Array(std::iter::Enumerate<std::slice::Iter<'v, Value>>),
    }
    // Tokens of the containers we are inside (below the call).
    let mut path: Vec<String> = Vec::new();
    let mut stack = vec![Level::Object(members.iter())];
    loop {
        // The call's own members: those starting with `_` are not arguments.
        let at_top = stack.len() == 1;
        let Some(level) = stack.last_mut() else { break };
        let next = match level {
            Level::Object(members) => members
                .by_ref()
                .find(|(key, _)| !(at_top && key.starts_with('_')))
                .map(|(key, value)| (pointer_token(key), value)),
            Level::Array(items) => items.next().map(|(i, value)| (i.to_string(), value)),
        };
        let Some((token, value)) = next else {
            stack.pop();
            path.pop();
            continue;
        };
        match value {
            Value::String(text) if is_reference(text) => {
                let mut relative = String::new();
                for t in path.iter().chain(std::iter::once(&token)) {
                    relative.push('/');
                    relative.push_str(t);
                }
                if !read_reference(plan, call, text, relative, limits, references) {
                    return;
                }
            }
            Value::Array(items) => {
                path.push(token);
                stack.push(Level::Array(items.iter().enumerate()));
            }
            Value::Object(object) => {
                path.push(token);
                stack.push(Level::Object(object.iter()));
            }
            _ => {}
        }
    }
}

/// Record one reference argument; `false` once the reference limit is hit.
fn read_reference(
    plan: &mut ToolPlan,
    call: &mut Call,
    text: &str,
    relative: String,
    limits: &DagLimits,
    references: &mut usize,
) -> bool {
    if *references >= limits.max_references {
        // Reported once, at the first call over the limit.
        if *references == limits.max_references {
            *references += 1;
            plan.complete = false;
            plan.fault(
                call.place.clone(),
                Some(call.index),
                FaultKind::TooManyReferences {
                    limit: limits.max_references,
                },
            );
        }
        return false;
    }
    *references += 1;
    let pointer = format!("{}{relative}", call.place.pointer);
    let place = Place {
        line: call.place.line,
        pointer: pointer.clone(),
    };
    match parse_reference(text, limits.max_path_segments) {
        Ok(reference) => call.reads.push(Read { reference, pointer }),
        Err(ReferenceError::TooDeep { limit, .. }) => {
            plan.complete = false;
            plan.fault(
                place,
                Some(call.index),
                FaultKind::PathTooDeep {
                    text: text.to_owned(),
                    limit,
                },
            );
        }
        Err(error) => plan.fault(
            place,
            Some(call.index),
            FaultKind::BadReference {
                text: text.to_owned(),
                error,
            },
        ),
    }
    call.reference_arguments.push(relative);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> ToolPlan {
        read_plan(text.as_bytes(), &DagLimits::default())
    }

    #[test]
    fn reads_the_three_shapes_and_a_context() {
        let calls = read(r#"[{"_tool": "a"}]"#);
        assert_eq!(calls.shape, Some(Shape::Calls));
        assert_eq!(calls.calls[0].place.pointer, "/0");
        let solution = read(r#"{"calls": [{"_tool": "a"}], "output": null}"#);
        assert_eq!(solution.shape, Some(Shape::Solution));
        assert_eq!(solution.calls[0].place.pointer, "/calls/0");
        let message = read(r#"{"type": "plan", "plan": [{"_tool": "a"}]}"#);
        assert_eq!(message.shape, Some(Shape::PlanMessage));
        let context = read(
            r#"[{"type": "input", "x": 1}, {"type": "tool", "tool": "a"},
                {"type": "plan", "plan": [{"_tool": "a", "x": "†input.x"}]}]"#,
        );
        assert_eq!(context.shape, Some(Shape::Context));
        assert_eq!(context.calls[0].place.pointer, "/2/plan/0");
        assert!(context.context.holds(&context.calls[0].reads[0].reference));
        assert!(context.faults.is_empty() && context.complete);
    }

    #[test]
    fn calls_know_their_lines() {
        let plan =
            read("{\n \"calls\": [\n  {\"_tool\": \"a\"},\n\n  {\n   \"_tool\": \"b\"}\n ]\n}");
        let lines: Vec<u64> = plan.calls.iter().map(|c| c.place.line).collect();
        assert_eq!(lines, [3, 5]);
    }

    #[test]
    fn references_are_found_in_nested_arguments_in_order() {
        let plan = read(
            r#"[{"_tool": "t", "b": {"x": ["lit", "†state.q"]}, "a": "†input.p",
                 "_meta": "†state.ignored", "_outputPath": "†state.o || †state.e"}]"#,
        );
        let call = &plan.calls[0];
        let reads: Vec<String> = call.reads.iter().map(|r| r.reference.to_string()).collect();
        assert_eq!(reads, ["†state.q", "†input.p"]);
        assert_eq!(call.reads[0].pointer, "/0/b/x/1");
        assert_eq!(call.reference_arguments, ["/b/x/1", "/a"]);
        assert_eq!(call.output.as_ref().unwrap().targets.len(), 2);
    }

    #[test]
    fn faults_are_described_with_places() {
        let plan = read(
            r#"[3, {"x": 1}, {"_tool": ""}, {"_tool": 5, "_outputPath": 1},
                {"_tool": "t", "a": "†state", "_outputPath": "†state.a && †state.b || †state.c"}]"#,
        );
        let kinds: Vec<&FaultKind> = plan.faults.iter().map(|f| &f.kind).collect();
        assert_eq!(
            kinds,
            [
                &FaultKind::CallNotObject { found: "a number" },
                &FaultKind::ToolMissing,
                &FaultKind::ToolEmpty,
                &FaultKind::ToolNotString { found: "a number" },
                &FaultKind::OutputNotString { found: "a number" },
                &FaultKind::BadOutputPath {
                    text: "†state.a && †state.b || †state.c".into(),
                    error: OutputPathError::MixedOperators
                },
                &FaultKind::BadReference {
                    text: "†state".into(),
                    error: ReferenceError::NoPath
                },
            ]
        );
        assert_eq!(plan.faults[6].place.pointer, "/4/a");
        assert!(plan.complete, "syntax faults do not stop the graph checks");
    }

    #[test]
    fn unreadable_documents_and_limits() {
        let not_json = read("{\n\"calls\": [\n}");
        assert!(matches!(not_json.faults[0].kind, FaultKind::NotJson { .. }));
        assert_eq!(not_json.faults[0].place.line, 3);
        assert!(!not_json.complete);
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(read(&deep).faults[0].kind, FaultKind::TooDeep);
        let not_plan = read(r#"{"type": "state"}"#);
        assert!(matches!(
            not_plan.faults[0].kind,
            FaultKind::NotAPlan { .. }
        ));
        let not_array = read(r#"{"calls": {}}"#);
        assert!(matches!(
            not_array.faults[0].kind,
            FaultKind::CallsNotArray {
                member: "calls",
                found: "an object"
            }
        ));
        let limits = DagLimits {
            max_calls: 1,
            ..DagLimits::default()
        };
        let many = read_plan(br#"[{"_tool": "a"}, {"_tool": "b"}]"#, &limits);
        assert!(matches!(
            many.faults[0].kind,
            FaultKind::TooManyCalls { count: 2, limit: 1 }
        ));
        assert!(!many.complete);
        let two_plans = read(r#"[{"type": "plan", "plan": []}, {"type": "plan", "plan": []}]"#);
        assert_eq!(
            two_plans.faults[0].kind,
            FaultKind::SeveralPlans { count: 2 }
        );
    }

    #[test]
    fn reference_limits_stop_the_graph_checks() {
        let limits = DagLimits {
            max_references: 1,
            max_path_segments: 2,
            ..DagLimits::default()
        };
        let plan = read_plan(
            r#"[{"_tool": "a", "x": "†s.a", "y": "†s.b"}]"#.as_bytes(),
            &limits,
        );
        assert_eq!(
            plan.faults[0].kind,
            FaultKind::TooManyReferences { limit: 1 }
        );
        assert!(!plan.complete);
        let deep = read_plan(r#"[{"_tool": "a", "x": "†s.a.b.c"}]"#.as_bytes(), &limits);
        assert!(matches!(
            deep.faults[0].kind,
            FaultKind::PathTooDeep { limit: 2, .. }
        ));
    }
}
