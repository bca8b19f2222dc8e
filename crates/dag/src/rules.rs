//! DAG-*: plans as DAGs of tool calls ("Acts of Emergence 010: Agent/Plan").
//!
//! The rest of the crate reads the plan and describes its graph; this file decides
//! what breaks a rule, and how strongly. The ACP revision does not matter
//! here, so every rule applies to all revisions.
//!
//! Levels. Errors only where the text requires it: the plan must be
//! acyclic and is checked before it runs (DAG-CYCLE); a call cannot start
//! until what it reads has been written (DAG-READ-DANGLING, and the syntax
//! rules without which a read or write means nothing: 010 shows references
//! and `_outputPath` only by example, so DAG-REF-SYNTAX and DAG-OUTPUT-SYNTAX
//! are the suite's reading, `Basis::Reading`, printed as such); State is immutable
//! once written in the text as of late 2025 (DAG-WRITE-TWICE under
//! `--writes immutable`); a call must name a tool the agent has
//! (DAG-TOOL-MISSING, and DAG-TOOL-UNKNOWN with `--tools`). Listing order is
//! not normative: the Execution Loop "runs the tools in the right order"
//! from the graph, so a call listed before its producer is a warning
//! (DAG-ORDER), as are argument schema mismatches (the text defines no
//! argument schemas) and writes outside the State blueprint (a guide, in
//! the text, not a constraint).

use crate::data::KnownData;
use crate::graph::{Clash, Graph, Resolution, TooManyEdges};
use crate::options::WriteMode;
use crate::plan::{display_name, Call, FaultKind, Place, Read, ToolPlan, MAX_NESTING};
use crate::reference::{Reference, ReferenceError};
use crate::tools::ToolCatalog;
use acp_plan_conformance::catalog::{docs, Basis, Citation, Level, Rule, ALL_REVISIONS};
use acp_plan_conformance::diag::Diagnostic;
use acp_plan_conformance::text::{shorten, snippet};
use std::collections::BTreeMap;

/// Every rule of the suite: the trace rules (`acp_plan_conformance::rules`),
/// then the `DAG-*` rules, in the order `acp-plan rules` lists them.
pub fn every_rule() -> impl Iterator<Item = &'static Rule> {
    acp_plan_conformance::rules::trace_rules().chain(RULES.iter().copied())
}

const FORMED: &str = "How a Plan is Formed";
const FLOWCHART: &str = "The Plan's Content: A Flowchart of Data";
const DOING: &str = "Separating Planning from Doing";
const BLUEPRINT: &str = "Example: Using a Blueprint to Guide Planning";
const FAILURE: &str = "Example: Handling Failure";

const DEPENDENCY: &str = "This creates a clear dependency: the second tool can't start until the first one has finished its job and written the result to the notepad.";
const CONNECTIONS: &str = "Connections (The State Object): The links between steps are formed when one tool writes a result to the State notepad, and another tool reads it. A tool says where it will write its result using a special note called _outputPath. Another tool can then use that result by pointing to the same spot on the notepad using a Variable Reference.";
const TOOLS_GIVEN: &str = "The agent gets a set of tools and a user's request.";

pub const INPUT: Rule = Rule {
    id: "DAG-INPUT",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "The plan file is one JSON document: an array of calls, a solution, a plan message, or a context array with one plan message",
    citation: Citation {
        document: docs::SUITE_DAG,
        section: "acp-plan dag",
        text: "The plan file is one JSON document: a bare array of calls, a solution {\"calls\": [...], \"output\": ...}, a plan message {\"type\": \"plan\", \"plan\": [...]}, or a context array (messages with a string type) holding exactly one plan message",
        note: "The suite's own input format: a file it cannot read holds no plan it can judge.",
    },
    revision_citations: &[],
};

pub const LIMIT: Rule = Rule {
    id: "DAG-LIMIT",
    level: Level::Limit,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "The plan exceeds an input limit of the checker and was not (fully) checked",
    citation: Citation {
        document: docs::SUITE_DAG,
        section: "Limits",
        text: "A plan over a limit is not fully checked, so the suite cannot call the plan sound.",
        note: "The checker's own limit, not a fault of the plan.",
    },
    revision_citations: &[],
};

pub const TOOL_MISSING: Rule = Rule {
    id: "DAG-TOOL-MISSING",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A call is not an object naming its tool in a non-empty string `_tool`: there is no action to run",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FORMED,
        text: "Steps (Tool Calls): Each step in the plan is a specific action, like fetchUserProfile.",
        note: "A call without a tool name names no action: it cannot run.",
    },
    revision_citations: &[],
};

pub const REF_SYNTAX: Rule = Rule {
    id: "DAG-REF-SYNTAX",
    level: Level::Must,
    basis: Basis::Reading,
    revisions: ALL_REVISIONS,
    summary: "A string argument starting with † is not a reference `†<kind>.<dotted.path>` the suite can read: it points to no spot on the notepad, so the call cannot run (the suite's reading of 010's examples)",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FORMED,
        text: CONNECTIONS,
        note: "010 gives the reference syntax by example only (†input.amount, †state.userProfileData). A string starting with † that the suite cannot read as †<kind>.<path> points to no spot on the notepad, so the call cannot run: the suite's reading of the examples, not a sentence of 010.",
    },
    revision_citations: &[],
};

pub const OUTPUT_SYNTAX: Rule = Rule {
    id: "DAG-OUTPUT-SYNTAX",
    level: Level::Must,
    basis: Basis::Reading,
    revisions: ALL_REVISIONS,
    summary: "`_outputPath` is not a string of references joined by `||` (one of) or `&&` (all of): it names no spot to write, so the call cannot run (the suite's reading of 010's example)",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FAILURE,
        text: "\"_outputPath\": \"†state.receipt || †state.error\"",
        note: "010's only output with several targets joins them with || (one of, by success or failure). The suite also reads && (all of), a companion essay's notation that 010 does not use. An _outputPath the suite cannot read names no spot to write, so the call cannot run: the suite's reading, not a sentence of 010.",
    },
    revision_citations: &[],
};

pub const OUTPUT_KIND: Rule = Rule {
    id: "DAG-OUTPUT-KIND",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`_outputPath` writes a data kind other than `state` (the links between steps go through the State)",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FORMED,
        text: CONNECTIONS,
        note: "",
    },
    revision_citations: &[],
};

pub const READ_DANGLING: Rule = Rule {
    id: "DAG-READ-DANGLING",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A call reads a path that no call writes and the known data (input, state) does not hold: it can never start",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FORMED,
        text: DEPENDENCY,
        note: "A read that no call writes and no known data holds can never start.",
    },
    revision_citations: &[],
};

pub const READ_UNCHECKED: Rule = Rule {
    id: "DAG-READ-UNCHECKED",
    level: Level::Info,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Reads of a data kind the checker was given no data for (e.g. input without --input) were not checked",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FORMED,
        text: DEPENDENCY,
        note: "",
    },
    revision_citations: &[],
};

pub const READ_ALTERNATIVE: Rule = Rule {
    id: "DAG-READ-ALTERNATIVE",
    level: Level::Info,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A call reads a path its producer writes only as one alternative (`||`): on the other branch it cannot run and the agent replans",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FAILURE,
        text: "The system tries to run the processPayment tool, but it fails. The system writes an error message to the shared notepad.",
        note: "",
    },
    revision_citations: &[],
};

pub const CYCLE: Rule = Rule {
    id: "DAG-CYCLE",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "The calls' data flow has a loop: the plan is not a DAG",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FLOWCHART,
        text: "Acyclic: The flowchart can't have any loops. This guarantees that the plan has a clear start and a clear finish. It's a safety feature to stop the computer brain from accidentally creating a plan that runs forever. The system always checks to make sure a Plan has no loops before it starts.",
        note: "",
    },
    revision_citations: &[],
};

pub const ORDER: Rule = Rule {
    id: "DAG-ORDER",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A call is listed before the call that writes what it reads (listing order is not normative: the Execution Loop orders by the graph; but reviewers and list-order executors are misled)",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: DOING,
        text: "Carrying out the plan is handled by the Execution Loop, which reads the Plan and runs the tools in the right order, updating the shared State notepad as it goes.",
        note: "Listing order is not normative; the warning is for reviewers and list-order executors.",
    },
    revision_citations: &[],
};

pub const WRITE_TWICE: Rule = Rule {
    id: "DAG-WRITE-TWICE",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "--writes immutable (default): two calls may write the same (or an overlapping) path, or a call writes a path the State already holds; State is immutable once written (companion essay 009 as of late 2025; 010 does not say so)",
    citation: Citation {
        document: docs::EMERGENCE_STATE,
        section: "Agent/State",
        text: "",
        note: "010 says nothing about writing a State path twice. Under --writes immutable (the default) the suite follows the companion essay 009 as read in late 2025, where State is immutable once written; later revisions of 009 say the last write wins. Hence a warning, never an error. 009 is not one of the seeds, so nothing is quoted.",
    },
    revision_citations: &[],
};

pub const WRITE_OVERWRITE: Rule = Rule {
    id: "DAG-WRITE-OVERWRITE",
    level: Level::Info,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "--writes last-wins: two calls may write the same (or an overlapping) path, or a call overwrites a value the State holds; the last write wins",
    citation: Citation {
        document: docs::EMERGENCE_STATE,
        section: "Agent/State",
        text: "",
        note: "010 says nothing about writing a State path twice. Under --writes last-wins the suite follows later revisions of the companion essay 009: the last write wins. 009 is not one of the seeds, so nothing is quoted.",
    },
    revision_citations: &[],
};

pub const SCHEMA_PATH: Rule = Rule {
    id: "DAG-SCHEMA-PATH",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A call writes a State path that is not a slot of the State blueprint (the State message's schema)",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: BLUEPRINT,
        text: "By providing the schema, the user gives the agent a clear map for the data. The agent doesn't have to guess the variable names or the right order; it just fills in the predefined slots, leading to a much more reliable Plan.",
        note: "",
    },
    revision_citations: &[],
};

pub const SCHEMA_UNFILLED: Rule = Rule {
    id: "DAG-SCHEMA-UNFILLED",
    level: Level::Info,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Slots of the State blueprint that no call writes",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: BLUEPRINT,
        text: "The user gives the agent an Input and a State message that only contains a schema, or blueprint. This blueprint describes the data flow by listing the \"variables\" the plan should fill in.",
        note: "",
    },
    revision_citations: &[],
};

pub const TOOL_UNKNOWN: Rule = Rule {
    id: "DAG-TOOL-UNKNOWN",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "With --tools: a call names a tool the agent was not given; the Execution Loop cannot run it",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FAILURE,
        text: TOOLS_GIVEN,
        note: "A call to a tool the agent was not given cannot run.",
    },
    revision_citations: &[],
};

pub const TOOL_ARGS: Rule = Rule {
    id: "DAG-TOOL-ARGS",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "With --tools: a call's literal arguments do not fit its tool's argument schema (values of references are unknown until run time and are not judged)",
    citation: Citation {
        document: docs::EMERGENCE_PLAN,
        section: FAILURE,
        text: TOOLS_GIVEN,
        note: "",
    },
    revision_citations: &[],
};

pub const RULES: &[&Rule] = &[
    &INPUT,
    &LIMIT,
    &TOOL_MISSING,
    &REF_SYNTAX,
    &OUTPUT_SYNTAX,
    &OUTPUT_KIND,
    &READ_DANGLING,
    &READ_UNCHECKED,
    &READ_ALTERNATIVE,
    &CYCLE,
    &ORDER,
    &WRITE_TWICE,
    &WRITE_OVERWRITE,
    &SCHEMA_PATH,
    &SCHEMA_UNFILLED,
    &TOOL_UNKNOWN,
    &TOOL_ARGS,
];

/// A diagnostic placed at `place`, showing `call` on one line if it has one.
fn placed(d: Diagnostic, place: &Place, call: Option<&Call>) -> Diagnostic {
    let mut d = d.at(place.pointer.clone());
    d.line = place.line;
    d.snippet = call
        .and_then(|c| c.compact.as_deref())
        .map(|compact| snippet(compact.as_bytes(), &place.pointer));
    d
}

fn at_pointer(call: &Call, pointer: String) -> Place {
    Place {
        line: call.place.line,
        pointer,
    }
}

fn quoted(text: &str) -> String {
    shorten(&text.escape_debug().to_string(), 80)
}

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Diagnostics for what reading the plan found.
pub fn plan_faults(plan: &ToolPlan) -> Vec<Diagnostic> {
    plan.faults
        .iter()
        .map(|fault| {
            let call = fault.call.and_then(|i| plan.calls.get(i));
            let label = call.map_or_else(
                || format!("#{}", fault.call.map_or(0, |i| i + 1)),
                Call::label,
            );
            let d = match &fault.kind {
                FaultKind::TooLarge { limit } => Diagnostic::new(
                    &LIMIT,
                    format!("the plan file is over the limit of {limit} bytes; it was not checked"),
                )
                .hint("raise --max-bytes if plans this large are expected"),
                FaultKind::TooDeep => Diagnostic::new(
                    &LIMIT,
                    format!("arrays and objects nest deeper than {MAX_NESTING} levels; the plan was not checked"),
                ),
                FaultKind::NotJson { reason } => Diagnostic::new(&INPUT, format!("not JSON: {reason}"))
                    .hint("a plan file is one JSON document; JavaScript literals need quoted keys, double quotes and no comments"),
                FaultKind::NotAPlan { found } => Diagnostic::new(
                    &INPUT,
                    format!("the file is {found}, not a plan"),
                )
                .hint("give an array of calls, a solution {\"calls\": [...]}, a plan message {\"type\": \"plan\", \"plan\": [...]}, or a context array holding one plan message"),
                FaultKind::CallsNotArray { member, found } => Diagnostic::new(
                    &INPUT,
                    format!("`{member}` is {found}, not an array of calls"),
                ),
                FaultKind::SeveralPlans { count } => Diagnostic::new(
                    &INPUT,
                    format!("the context array holds {count} plan messages; the checker takes one plan"),
                )
                .hint("check each plan message on its own"),
                FaultKind::TooManyCalls { count, limit } => Diagnostic::new(
                    &LIMIT,
                    format!("the plan has {count} calls, over the limit of {limit}; it was not checked"),
                )
                .hint("raise --max-calls if plans this large are expected"),
                FaultKind::TooManyReferences { limit } => Diagnostic::new(
                    &LIMIT,
                    format!("the plan has more than {limit} references; its graph was not checked"),
                )
                .hint("raise --max-references if plans this large are expected"),
                FaultKind::PathTooDeep { text, limit } => Diagnostic::new(
                    &LIMIT,
                    format!("{label}: `{}` has more than {limit} path segments; the graph was not checked", quoted(text)),
                )
                .hint("raise --max-path-segments if paths this deep are expected"),
                FaultKind::CallNotObject { found } => Diagnostic::new(
                    &TOOL_MISSING,
                    format!("call {label} is {found}, not an object naming its tool in `_tool`"),
                ),
                FaultKind::ToolMissing => {
                    let looks_like_message = call
                        .and_then(|c| c.value.get("type"))
                        .is_some_and(|t| t.is_string());
                    Diagnostic::new(&TOOL_MISSING, format!("call {label} has no `_tool`")).hint(
                        if looks_like_message {
                            "this looks like a context message (it has `type`): give the plan message, or the whole context array with one plan message"
                        } else {
                            "name the tool the step runs: {\"_tool\": \"fetchUserProfile\", ...}"
                        },
                    )
                }
                FaultKind::ToolNotString { found } => Diagnostic::new(
                    &TOOL_MISSING,
                    format!("call {label}: `_tool` is {found}, not a tool name"),
                ),
                FaultKind::ToolEmpty => {
                    Diagnostic::new(&TOOL_MISSING, format!("call {label}: `_tool` is empty"))
                }
                FaultKind::BadReference { text, error } => Diagnostic::new(
                    &REF_SYNTAX,
                    format!(
                        "call {label} cannot run: \"{}\" starts with † but the suite cannot read it as a reference (it points to no spot on the notepad): {error}",
                        quoted(text)
                    ),
                )
                .hint(if text.contains("||") || text.contains("&&") {
                    "alternatives (`||`, `&&`) belong in `_outputPath`; an argument reads one path"
                } else if *error == ReferenceError::NoPath {
                    "name the path inside the data: `†state.userProfileData`, `†input.customerId`"
                } else {
                    "write `†<kind>.<dotted.path>`, e.g. `†state.userProfileData`"
                }),
                FaultKind::OutputNotString { found } => Diagnostic::new(
                    &OUTPUT_SYNTAX,
                    format!("call {label} cannot run: `_outputPath` is {found}, not a string of references (it names no spot to write)"),
                )
                .hint("write `\"_outputPath\": \"†state.result\"`"),
                FaultKind::BadOutputPath { text, error } => Diagnostic::new(
                    &OUTPUT_SYNTAX,
                    format!(
                        "call {label} cannot run: the suite cannot read `_outputPath` \"{}\" (it names no spot to write): {error}",
                        quoted(text)
                    ),
                )
                .hint("write `†state.a`, `†state.a || †state.b` (writes one of them) or `†state.a && †state.b` (writes all of them)"),
            };
            placed(d, &fault.place, call)
        })
        .collect()
}

/// Diagnostics for the graph of a completely read plan, rule by rule, in a fixed order (the
/// report then sorts them by line).
pub fn graph_findings(
    plan: &ToolPlan,
    graph: &Graph,
    data: &KnownData,
    writes: WriteMode,
) -> Vec<Diagnostic> {
    let calls = &plan.calls;
    let mut out = outputs_outside_state(calls);
    out.extend(read_findings(calls, graph, data));
    out.extend(write_clashes(calls, graph, writes));
    out.extend(cycles(calls, graph));
    out.extend(misordered(calls, graph));
    out.extend(outside_schema(calls, graph));
    out.extend(unfilled_slots(graph));
    out
}

/// Target `target` of call `call`'s `_outputPath`.
fn target_of(calls: &[Call], call: usize, target: usize) -> Option<&Reference> {
    calls.get(call)?.output.as_ref()?.targets.get(target)
}

/// DAG-OUTPUT-KIND: a call writes outside the State.
fn outputs_outside_state(calls: &[Call]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for call in calls {
        let Some(output) = &call.output else { continue };
        for target in output.targets.iter().filter(|t| t.kind != "state") {
            out.push(placed(
                Diagnostic::new(
                    &OUTPUT_KIND,
                    format!("call {} writes {target}, outside the State", call.label()),
                )
                .hint("write results to the State (`†state.<path>`), where later calls read them"),
                &at_pointer(call, call.output_pointer()),
                Some(call),
            ));
        }
    }
    out
}

/// DAG-READ-DANGLING and DAG-READ-ALTERNATIVE, read by read, then
/// DAG-READ-UNCHECKED once per data kind.
fn read_findings(calls: &[Call], graph: &Graph, data: &KnownData) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Unchecked reads: one note per data kind, at its first read.
    let mut unchecked: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    for fact in &graph.reads {
        let Some(call) = calls.get(fact.call) else {
            continue;
        };
        let Some(read) = call.reads.get(fact.read) else {
            continue;
        };
        match fact.resolution {
            Resolution::Dangling => out.push(dangling_read(call, read, data)),
            Resolution::Unchecked => {
                let entry = unchecked
                    .entry(read.reference.kind.as_str())
                    .or_insert((fact.call, fact.read, 0));
                entry.2 += 1;
            }
            Resolution::Written {
                alternatives_only: true,
            } => out.push(alternative_read(call, read)),
            Resolution::Written { .. } | Resolution::Known => {}
        }
    }
    for (kind, (c, r, n)) in unchecked {
        let Some(call) = calls.get(c) else { continue };
        let Some(read) = call.reads.get(r) else {
            continue;
        };
        let hint = if kind == "input" {
            "pass the Input message (or an object of its values) with --input".to_owned()
        } else {
            format!("the checker takes data for `input` and `state` only; `{kind}` reads are assumed to be available")
        };
        out.push(placed(
            Diagnostic::new(
                &READ_UNCHECKED,
                format!(
                    "{} of `{kind}` (first: call {} reads {}) not checked: no {kind} data given",
                    count(n, "read", "reads"),
                    call.label(),
                    read.reference
                ),
            )
            .hint(hint),
            &at_pointer(call, read.pointer.clone()),
            Some(call),
        ));
    }
    out
}

/// DAG-READ-DANGLING: a read that no call writes and no known data holds.
fn dangling_read(call: &Call, read: &Read, data: &KnownData) -> Diagnostic {
    let place = at_pointer(call, read.pointer.clone());
    let kind = &read.reference.kind;
    let (why, hint) = if kind != "state" {
        (
            format!("and the {kind} data given does not hold it"),
            format!("fix the path, or give the value in the {kind} data"),
        )
    } else if data.supplied(kind) {
        (
            "and the State given does not hold it".to_owned(),
            format!(
                "add a call with \"_outputPath\": \"{}\", or fix the path",
                read.reference
            ),
        )
    } else {
        (
            "and the State starts empty (no --state given)".to_owned(),
            format!(
                "add a call with \"_outputPath\": \"{}\"; if the State already holds it when the plan runs, pass the State with --state",
                read.reference
            ),
        )
    };
    placed(
        Diagnostic::new(
            &READ_DANGLING,
            format!(
                "call {} reads {}, which no call writes {why}",
                call.label(),
                read.reference
            ),
        )
        .hint(hint),
        &place,
        Some(call),
    )
}

/// DAG-READ-ALTERNATIVE: a read written only on one branch of `||`.
fn alternative_read(call: &Call, read: &Read) -> Diagnostic {
    let place = at_pointer(call, read.pointer.clone());
    placed(
        Diagnostic::new(
            &READ_ALTERNATIVE,
            format!(
                "call {} reads {}, which is written only as one alternative (`||`); on the other branch this call cannot run",
                call.label(),
                read.reference
            ),
        ),
        &place,
        Some(call),
    )
}

/// DAG-WRITE-TWICE (or DAG-WRITE-OVERWRITE under `--writes last-wins`).
fn write_clashes(calls: &[Call], graph: &Graph, writes: WriteMode) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for clash in &graph.clashes {
        let (Some(call), Some(target)) = (
            calls.get(clash.call),
            target_of(calls, clash.call, clash.target),
        ) else {
            continue;
        };
        let may = |c: &Call| {
            if c.output.as_ref().is_some_and(|o| o.is_alternative()) {
                "may write"
            } else {
                "writes"
            }
        };
        let what = match clash.with {
            Clash::Call {
                call: other,
                target: other_target,
            } => {
                let (Some(other), Some(other_target)) =
                    (calls.get(other), target_of(calls, other, other_target))
                else {
                    continue;
                };
                let same = if other_target == target {
                    String::new()
                } else {
                    format!(" as part of {other_target}")
                };
                format!(
                    "call {} {} {target}, which call {} also {}{same}",
                    call.label(),
                    may(call),
                    other.label(),
                    may(other)
                )
            }
            Clash::KnownData => format!(
                "call {} {} {target}, which the {} given already holds",
                call.label(),
                may(call),
                if target.kind == "state" {
                    "State".to_owned()
                } else {
                    format!("{} data", target.kind)
                }
            ),
            Clash::KnownDataAbove => format!(
                "call {} {} {target}, inside a path the {} given already holds",
                call.label(),
                may(call),
                if target.kind == "state" {
                    "State".to_owned()
                } else {
                    format!("{} data", target.kind)
                }
            ),
        };
        let d = match writes {
            WriteMode::Immutable => Diagnostic::new(&WRITE_TWICE, format!("{what}; State is immutable once written (essay 009; 010 does not say)"))
                .hint("give each result its own path; if later writes are meant to win, check with --writes last-wins"),
            WriteMode::LastWins => Diagnostic::new(&WRITE_OVERWRITE, format!("{what}; the last write wins")),
        };
        out.push(placed(
            d,
            &at_pointer(call, call.output_pointer()),
            Some(call),
        ));
    }
    out
}

/// DAG-CYCLE: one diagnostic per reported cycle.
fn cycles(calls: &[Call], graph: &Graph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for cycle in &graph.cycles {
        let edges: Vec<_> = cycle
            .edges
            .iter()
            .filter_map(|&e| graph.edges.get(e))
            .collect();
        let Some(first) = edges.first().and_then(|e| calls.get(e.from)) else {
            continue;
        };
        let mut ring: Vec<String> = edges
            .iter()
            .filter_map(|e| calls.get(e.from).map(Call::label))
            .collect();
        ring.push(first.label());
        let steps: Vec<String> = edges
            .iter()
            .filter_map(|e| {
                let reader = calls.get(e.to)?;
                let read = &reader.reads.get(e.read)?.reference;
                let written = target_of(calls, e.from, e.target)?;
                let writer = calls.get(e.from)?.label();
                Some(if read == written {
                    format!("{} reads {read}, written by {writer}", reader.label())
                } else {
                    format!(
                        "{} reads {read}, which {writer} writes as part of {written}",
                        reader.label()
                    )
                })
            })
            .collect();
        let tangled = if cycle.component_size > edges.len() {
            format!(
                " ({} are tangled in loops with these)",
                count(cycle.component_size, "call", "calls")
            )
        } else {
            String::new()
        };
        let message = if let [edge] = edges.as_slice() {
            let read = first
                .reads
                .get(edge.read)
                .map_or_else(String::new, |r| r.reference.to_string());
            format!(
                "call {} reads {read}, which it writes itself",
                first.label()
            )
        } else {
            format!(
                "cycle of {}: {}{tangled}: {}",
                count(edges.len(), "call", "calls"),
                ring.join(" → "),
                steps.join("; ")
            )
        };
        out.push(placed(
            Diagnostic::new(&CYCLE, message).hint(
                "a plan must be acyclic: break the loop; for repetition, let the plan start a sub-plan per iteration (the seed's for-loop pattern)",
            ),
            &first.place,
            Some(first),
        ));
    }
    out
}

/// DAG-ORDER: a reader listed before its writer.
fn misordered(calls: &[Call], graph: &Graph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for edge in graph.misordered.iter().filter_map(|&e| graph.edges.get(e)) {
        let (Some(reader), Some(writer)) = (calls.get(edge.to), calls.get(edge.from)) else {
            continue;
        };
        let (Some(read), Some(written)) = (
            reader.reads.get(edge.read),
            target_of(calls, edge.from, edge.target),
        ) else {
            continue;
        };
        out.push(placed(
            Diagnostic::new(
                &ORDER,
                format!(
                    "call {} reads {} but is listed before call {}, which writes {written}",
                    reader.label(),
                    read.reference,
                    writer.label()
                ),
            )
            .hint("list producers before their readers; the Execution Loop orders by the graph, but a reviewer reads the list top to bottom"),
            &at_pointer(reader, read.pointer.clone()),
            Some(reader),
        ));
    }
    out
}

/// DAG-SCHEMA-PATH: writes outside the State blueprint.
fn outside_schema(calls: &[Call], graph: &Graph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for outside in &graph.outside_schema {
        let (Some(call), Some(target)) = (
            calls.get(outside.call),
            target_of(calls, outside.call, outside.target),
        ) else {
            continue;
        };
        let fitting = Reference {
            kind: target.kind.clone(),
            path: target.path.iter().take(outside.fits).cloned().collect(),
        };
        let missing = target.path.get(outside.fits).map_or("", String::as_str);
        let where_ = if outside.fits == 0 {
            format!("the blueprint has no slot `{}`", display_name(missing))
        } else {
            format!("{fitting} has no slot `{}`", display_name(missing))
        };
        out.push(placed(
            Diagnostic::new(
                &SCHEMA_PATH,
                format!(
                    "call {} writes {target}, outside the State blueprint: {where_}",
                    call.label()
                ),
            )
            .hint("write to the slots the State message's schema lists, or add the slot to the blueprint"),
            &at_pointer(call, call.output_pointer()),
            Some(call),
        ));
    }
    out
}

/// DAG-SCHEMA-UNFILLED: blueprint slots no call writes.
fn unfilled_slots(graph: &Graph) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if !graph.unfilled_slots.is_empty() {
        let slots: Vec<String> = graph
            .unfilled_slots
            .iter()
            .take(20)
            .map(|p| display_name(&format!("state.{}", p.join("."))))
            .collect();
        let more = graph.unfilled_slots.len().saturating_sub(slots.len());
        out.push(
            Diagnostic::new(
                &SCHEMA_UNFILLED,
                format!(
                    "no call writes the blueprint {} {}{}",
                    if graph.unfilled_slots.len() == 1 { "slot" } else { "slots" },
                    slots.join(", "),
                    if more > 0 { format!(" and {more} more") } else { String::new() }
                ),
            )
            .at("")
            .hint("fine if the plan continues in a later step; otherwise add the calls that fill them"),
        );
        if let Some(d) = out.last_mut() {
            d.line = 1;
        }
    }
    out
}

/// The graph had more reader-writer pairs than allowed.
pub fn too_many_edges(hit: TooManyEdges) -> Diagnostic {
    let mut d = Diagnostic::new(
        &LIMIT,
        format!(
            "more than {} reader-writer pairs; the graph was not checked",
            hit.limit
        ),
    )
    .hint("raise --max-edges if plans this connected are expected");
    d.line = 1;
    d
}

/// With `--tools`: unknown tools and arguments that do not fit.
pub fn tool_findings(plan: &ToolPlan, catalog: &ToolCatalog) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for call in &plan.calls {
        let Some(tool) = &call.tool else { continue };
        if !catalog.contains(tool) {
            let mut known: Vec<String> = catalog.names().take(12).map(display_name).collect();
            if catalog.len() > known.len() {
                known.push("…".into());
            }
            let hint = if known.is_empty() {
                "the --tools file lists no tools".to_owned()
            } else {
                format!("tools given: {}", known.join(", "))
            };
            out.push(placed(
                Diagnostic::new(
                    &TOOL_UNKNOWN,
                    format!(
                        "call #{} names tool `{}`, which is not among the {} given with --tools",
                        call.index + 1,
                        display_name(tool),
                        count(catalog.len(), "tool", "tools")
                    ),
                )
                .hint(hint),
                &at_pointer(call, format!("{}/_tool", call.place.pointer)),
                Some(call),
            ));
            continue;
        }
        let Some(members) = call.value.as_object() else {
            continue;
        };
        for mismatch in catalog.check_arguments(tool, members, &call.reference_arguments) {
            out.push(placed(
                Diagnostic::new(
                    &TOOL_ARGS,
                    format!(
                        "call {}: the arguments do not fit the tool's schema: {}",
                        call.label(),
                        mismatch.message
                    ),
                ),
                &at_pointer(call, format!("{}{}", call.place.pointer, mismatch.pointer)),
                Some(call),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check_bytes, DagOptions};

    fn ids(plan: &str, writes: WriteMode) -> Vec<&'static str> {
        let options = DagOptions {
            writes,
            ..DagOptions::default()
        };
        check_bytes(plan.as_bytes(), &options)
            .diagnostics
            .iter()
            .map(|d| d.rule.id)
            .collect()
    }

    #[test]
    fn every_rule_is_in_the_catalog_for_every_revision() {
        for rule in RULES {
            assert!(every_rule().any(|r| r.id == rule.id), "{}", rule.id);
            assert!(acp_plan_conformance::rules::find(rule.id).is_none());
            assert!(rule.id.starts_with("DAG-"));
            assert_eq!(rule.revisions, ALL_REVISIONS);
            assert!(!rule.citation.text.is_empty() || !rule.citation.note.is_empty());
        }
    }

    #[test]
    fn unreadable_references_and_outputs_are_the_suites_reading_not_a_must() {
        for rule in [&REF_SYNTAX, &OUTPUT_SYNTAX] {
            assert_eq!(rule.basis, Basis::Reading, "{}", rule.id);
            assert_eq!(
                rule.severity(),
                acp_plan_conformance::catalog::Severity::Error
            );
            let printed = rule.citation_lines(&rule.citation).join("\n");
            assert!(
                printed.starts_with("suite's reading (error): Acts of Emergence 010"),
                "{printed}"
            );
            assert!(!printed.contains("MUST"), "{printed}");
        }
        // What 010 states (no loops, reads that can be satisfied) stays a spec error.
        for rule in [&CYCLE, &READ_DANGLING] {
            assert_eq!(rule.basis, Basis::Text, "{}", rule.id);
            assert!(rule.citation_lines(&rule.citation)[0].starts_with("spec (MUST): "));
        }
    }

    #[test]
    fn the_write_mode_decides_the_level() {
        let plan = r#"[{"_tool": "a", "_outputPath": "†state.x"}, {"_tool": "b", "_outputPath": "†state.x"}]"#;
        assert_eq!(ids(plan, WriteMode::Immutable), ["DAG-WRITE-TWICE"]);
        assert_eq!(ids(plan, WriteMode::LastWins), ["DAG-WRITE-OVERWRITE"]);
        // 010 says nothing of writing twice; the default rests on essay 009.
        assert_eq!(WRITE_TWICE.level, Level::Should);
        assert_eq!(WRITE_OVERWRITE.level, Level::Info);
    }

    #[test]
    fn listing_order_is_only_a_warning() {
        let plan =
            r#"[{"_tool": "b", "x": "†state.x"}, {"_tool": "a", "_outputPath": "†state.x"}]"#;
        let report = check_bytes(plan.as_bytes(), &DagOptions::default());
        assert_eq!(report.counts.errors, 0);
        assert_eq!(report.diagnostics[0].rule.id, "DAG-ORDER");
        assert_eq!(report.diagnostics[0].pointer, "/0/x");
    }

    #[test]
    fn hostile_names_are_cut_and_escaped_in_messages() {
        let name = format!("{}\n", "x".repeat(500));
        let plan = serde_json::json!([{"_tool": name, "a": "†state.missing"}]).to_string();
        let report = check_bytes(plan.as_bytes(), &DagOptions::default());
        let message = &report.diagnostics[0].message;
        assert!(message.len() < 300 && !message.contains('\n'), "{message}");
    }

    #[test]
    fn limits_are_errors_that_stop_the_graph_checks() {
        let options = DagOptions {
            limits: crate::options::DagLimits {
                max_edges: 1,
                ..Default::default()
            },
            ..DagOptions::default()
        };
        let plan = r#"[{"_tool": "a", "_outputPath": "†state.x"}, {"_tool": "b", "_outputPath": "†state.x"},
                       {"_tool": "c", "x": "†state.x"}]"#;
        let report = check_bytes(plan.as_bytes(), &options);
        let ids: Vec<_> = report.diagnostics.iter().map(|d| d.rule.id).collect();
        assert_eq!(ids, ["DAG-LIMIT"]);
        assert!(report.graph.is_none());
    }
}
