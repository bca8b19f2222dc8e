//! The data-flow graph of a plan for review and approval: calls (boxes)
//! write and read data paths (rounded nodes), as in the seed's picture
//! "fetchUserProfile → writes to → state.userProfileData → read by →
//! summarizeProfile". Calls in a loop, reads nobody satisfies and data
//! given up front are marked. Node ids are generated; user text only ever
//! appears escaped inside labels.

use crate::check::DagReport;
use crate::graph::Resolution;
use indexmap::{IndexMap, IndexSet};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Mark {
    Plain,
    Cycle,
    Dangling,
    Given,
    Unchecked,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Line {
    Writes,
    WritesOneOf,
    Reads,
    /// One path contains the other (written → read).
    Overlaps,
}

struct Flow {
    /// (label, mark) per call, in plan order.
    calls: Vec<(String, Mark)>,
    /// dotted path → mark, in order of first use.
    data: IndexMap<String, Mark>,
    /// (from, to, line); nodes named `c<i>` / `d<i>`.
    lines: IndexSet<(String, String, Line)>,
}

fn flow(report: &DagReport) -> Flow {
    let calls = &report.plan.calls;
    let graph = report.graph.as_ref();
    let mut flow = Flow {
        calls: calls
            .iter()
            .map(|c| {
                let in_cycle = graph.is_some_and(|g| g.in_cycle.get(c.index) == Some(&true));
                (c.label(), if in_cycle { Mark::Cycle } else { Mark::Plain })
            })
            .collect(),
        data: IndexMap::new(),
        lines: IndexSet::new(),
    };
    let Some(graph) = graph else {
        return flow;
    };
    fn data_id(flow: &mut Flow, path: String, mark: Mark) -> String {
        let entry = flow.data.entry(path);
        let index = entry.index();
        let slot = entry.or_insert(mark);
        // A written path is plain, whatever a read thought of it.
        if mark == Mark::Plain {
            *slot = Mark::Plain;
        }
        format!("d{index}")
    }
    let mut facts = graph.reads.iter().peekable();
    for call in calls {
        while let Some(fact) = facts.next_if(|f| f.call == call.index) {
            let Some(read) = call.reads.get(fact.read) else {
                continue;
            };
            let mark = match fact.resolution {
                Resolution::Written { .. } => Mark::Plain,
                Resolution::Known => Mark::Given,
                Resolution::Unchecked => Mark::Unchecked,
                Resolution::Dangling => Mark::Dangling,
            };
            let id = data_id(&mut flow, read.reference.dotted(), mark);
            flow.lines
                .insert((id, format!("c{}", call.index), Line::Reads));
        }
        if let Some(output) = &call.output {
            let line = if output.is_alternative() {
                Line::WritesOneOf
            } else {
                Line::Writes
            };
            for target in &output.targets {
                let id = data_id(&mut flow, target.dotted(), Mark::Plain);
                flow.lines.insert((format!("c{}", call.index), id, line));
            }
        }
    }
    for edge in &graph.edges {
        let read = calls
            .get(edge.to)
            .and_then(|c| c.reads.get(edge.read))
            .map(|r| r.reference.dotted());
        let written = calls
            .get(edge.from)
            .and_then(|c| c.output.as_ref())
            .and_then(|o| o.targets.get(edge.target))
            .map(|t| t.dotted());
        if let (Some(read), Some(written)) = (read, written) {
            if read != written {
                let from = flow.data.get_index_of(&written);
                let to = flow.data.get_index_of(&read);
                if let (Some(from), Some(to)) = (from, to) {
                    flow.lines
                        .insert((format!("d{from}"), format!("d{to}"), Line::Overlaps));
                }
            }
        }
    }
    flow
}

/// Escape user text for a quoted Mermaid label (entity codes).
fn mermaid_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Mermaid `flowchart`.
pub fn mermaid(report: &DagReport) -> String {
    let flow = flow(report);
    let mut out = String::from("flowchart TD\n");
    if report.graph.is_none() {
        out.push_str("  %% the plan could not be read completely: calls only\n");
    }
    for (i, (label, _)) in flow.calls.iter().enumerate() {
        // The label is "#n name": our own "#n" stays as it is (Mermaid's
        // entity codes need `#word;`, and a space follows the number); the
        // name is escaped.
        let (number, name) = label.split_once(' ').unwrap_or((label, ""));
        out.push_str(&format!(
            "  c{i}[\"{number}{}{}\"]\n",
            if name.is_empty() { "" } else { " " },
            mermaid_text(name)
        ));
    }
    for (i, (path, _)) in flow.data.iter().enumerate() {
        out.push_str(&format!("  d{i}([\"{}\"])\n", mermaid_text(path)));
    }
    for (from, to, line) in &flow.lines {
        let arrow = match line {
            Line::Writes | Line::Reads => "-->",
            Line::WritesOneOf => "-. one of .->",
            Line::Overlaps => "-. overlaps .->",
        };
        out.push_str(&format!("  {from} {arrow} {to}\n"));
    }
    let marked = |mark: Mark| -> Vec<String> {
        let calls = flow
            .calls
            .iter()
            .enumerate()
            .filter(|(_, (_, m))| *m == mark)
            .map(|(i, _)| format!("c{i}"));
        let data = flow
            .data
            .values()
            .enumerate()
            .filter(|(_, m)| **m == mark)
            .map(|(i, _)| format!("d{i}"));
        calls.chain(data).collect()
    };
    for (mark, name, style) in [
        (Mark::Cycle, "cycle", "stroke:#c00,stroke-width:3px"),
        (
            Mark::Dangling,
            "dangling",
            "stroke:#c00,stroke-dasharray:4 2",
        ),
        (Mark::Given, "given", "fill:#eef"),
        (Mark::Unchecked, "unchecked", "stroke-dasharray:2 2"),
    ] {
        let nodes = marked(mark);
        if !nodes.is_empty() {
            out.push_str(&format!("  classDef {name} {style}\n"));
            out.push_str(&format!("  class {} {name}\n", nodes.join(",")));
        }
    }
    out
}

/// Escape user text for a quoted DOT string.
fn dot_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Graphviz `digraph`.
pub fn dot(report: &DagReport) -> String {
    let flow = flow(report);
    let mut out = String::from("digraph plan {\n  rankdir=TB;\n");
    if report.graph.is_none() {
        out.push_str("  // the plan could not be read completely: calls only\n");
    }
    for (i, (label, mark)) in flow.calls.iter().enumerate() {
        let style = if *mark == Mark::Cycle {
            ", color=red, penwidth=3"
        } else {
            ""
        };
        out.push_str(&format!(
            "  c{i} [shape=box, label=\"{}\"{style}];\n",
            dot_text(label)
        ));
    }
    for (i, (path, mark)) in flow.data.iter().enumerate() {
        let style = match mark {
            Mark::Dangling => ", color=red, style=dashed",
            Mark::Given => ", style=filled, fillcolor=\"#eeeeff\"",
            Mark::Unchecked => ", style=dotted",
            Mark::Plain | Mark::Cycle => "",
        };
        out.push_str(&format!(
            "  d{i} [shape=ellipse, label=\"{}\"{style}];\n",
            dot_text(path)
        ));
    }
    for (from, to, line) in &flow.lines {
        let attributes = match line {
            Line::Writes | Line::Reads => "",
            Line::WritesOneOf => " [style=dashed, label=\"one of\"]",
            Line::Overlaps => " [style=dotted, label=\"overlaps\"]",
        };
        out.push_str(&format!("  {from} -> {to}{attributes};\n"));
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check_bytes, DagOptions};

    const HOSTILE: &str = r#"[{"_tool": "a\"b#lt;\n<x>\\", "_outputPath": "†state.q\"];evil"},
                              {"_tool": "r", "q": "†state.q\"];evil"}]"#;

    #[test]
    fn mermaid_labels_cannot_break_out() {
        let report = check_bytes(HOSTILE.as_bytes(), &DagOptions::default());
        let text = mermaid(&report);
        // One line per node and per line of the graph, nothing injected.
        assert_eq!(text.lines().count(), 1 + 2 + 1 + 2, "{text}");
        assert!(
            text.contains(r##"c0["#1 a\#quot;b#35;lt;\n#lt;x#gt;\\"]"##),
            "{text}"
        );
        assert!(text.contains(r##"d0(["state.q#quot;];evil"])"##), "{text}");
    }

    #[test]
    fn dot_labels_cannot_break_out() {
        let report = check_bytes(HOSTILE.as_bytes(), &DagOptions::default());
        let text = dot(&report);
        assert_eq!(text.lines().count(), 2 + 2 + 1 + 2 + 1, "{text}");
        assert!(
            text.contains(r##"label="#1 a\\\"b#lt;\\n<x>\\\\""##),
            "{text}"
        );
        assert!(text.contains(r##"label="state.q\"];evil""##), "{text}");
    }

    #[test]
    fn overlapping_paths_are_linked_and_marks_shown() {
        let plan = r#"[{"_tool": "w", "_outputPath": "†state.user || †state.err"},
                       {"_tool": "r", "n": "†state.user.name", "x": "†state.nobody", "i": "†input.q"}]"#;
        let report = check_bytes(plan.as_bytes(), &DagOptions::default());
        let text = mermaid(&report);
        assert!(text.contains("c0 -. one of .-> d0"), "{text}");
        assert!(text.contains("d0 -. overlaps .-> d2"), "{text}");
        assert!(text.contains("class d3 dangling"), "{text}");
        assert!(text.contains("class d4 unchecked"), "{text}");
    }
}
