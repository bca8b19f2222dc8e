//! The dependency graph of a plan: which call reads what another writes.
//!
//! A call that reads a path depends on every call that may write it, or a
//! path that contains it, or a path inside it (writing `state.user` changes
//! what `state.user.name` reads, and the other way round). Paths live in a
//! trie per data kind, so finding the writers of a read costs its depth
//! plus the writers found. Everything here is iterative: a 100 000-call
//! chain costs heap, never stack.
//!
//! This module describes the graph (edges, unresolved reads, overlapping
//! writes, cycles, order, waves); `rules::dag` decides what that breaks.

use crate::data::{schema_fit, schema_slots, KnownData, SchemaFit};
use crate::plan::ToolPlan;
use crate::reference::Reference;
use std::collections::{HashMap, HashSet, VecDeque};

/// Blueprint slots examined for being filled, at most.
const MAX_SLOTS: usize = 10_000;

/// Writer `from` produces something that `to` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    /// The read of `to` (index into its `reads`) that makes the edge.
    pub read: usize,
    /// The target of `from`'s output path it overlaps.
    pub target: usize,
}

/// How a read is satisfied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Some call writes it (or an overlapping path). `alternatives_only`:
    /// every such write is one branch of an `||`, and no known data holds it.
    Written { alternatives_only: bool },
    /// Only known data (input, state) holds it.
    Known,
    /// Nobody writes it and no data of its kind was given to check against.
    Unchecked,
    /// Nobody writes it and the known data of its kind does not hold it.
    Dangling,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadFact {
    pub call: usize,
    pub read: usize,
    pub resolution: Resolution,
    /// The calls that write what it reads, in listing order.
    pub writers: Vec<usize>,
}

/// What else writes a path a call writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clash {
    /// An earlier-listed call writes an overlapping path.
    Call { call: usize, target: usize },
    /// The known data already holds the path.
    KnownData,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteClash {
    pub call: usize,
    pub target: usize,
    pub with: Clash,
}

/// One concrete cycle: edge indexes, each edge's `to` is the next edge's
/// `from`, and the last edge returns to the first edge's `from`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    pub edges: Vec<usize>,
    /// Calls in the same strongly connected component (all tangled in loops).
    pub component_size: usize,
}

/// A write outside the State blueprint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutsideSchema {
    pub call: usize,
    pub target: usize,
    /// How many leading segments are slots of the blueprint.
    pub fits: usize,
}

/// Execution order: waves of calls whose inputs are all produced by
/// earlier waves, so the calls of one wave can run in parallel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    pub waves: Vec<Vec<usize>>,
    /// Calls in a cycle or downstream of one.
    pub unscheduled: Vec<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub edges: Vec<Edge>,
    pub reads: Vec<ReadFact>,
    pub clashes: Vec<WriteClash>,
    pub cycles: Vec<Cycle>,
    pub in_cycle: Vec<bool>,
    /// Edges whose writer is listed after its reader (outside cycles).
    pub misordered: Vec<usize>,
    pub outside_schema: Vec<OutsideSchema>,
    pub unfilled_slots: Vec<Vec<String>>,
    pub schedule: Schedule,
}

/// The reader-writer pairs exceed the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyEdges {
    pub limit: usize,
}

/// Build the graph of a completely read plan against the known data.
pub fn build(plan: &ToolPlan, data: &KnownData, max_edges: usize) -> Result<Graph, TooManyEdges> {
    let calls = &plan.calls;
    let mut trie = Trie::default();
    for call in calls {
        for (t, target) in call
            .output
            .iter()
            .flat_map(|o| o.targets.iter().enumerate())
        {
            trie.insert(target, (call.index, t));
        }
    }
    trie.summarize();

    let mut graph = Graph::default();
    let mut pairs = HashSet::new();
    let mut budget = max_edges;
    for call in calls {
        for (r, read) in call.reads.iter().enumerate() {
            let writers = trie
                .overlapping(&read.reference, &mut budget)
                .ok_or(TooManyEdges { limit: max_edges })?;
            let known = data.holds(&read.reference);
            let resolution = if !writers.is_empty() {
                let alternatives_only = !known
                    && writers.iter().all(|&(w, _)| {
                        calls[w].output.as_ref().is_some_and(|o| o.is_alternative())
                    });
                Resolution::Written { alternatives_only }
            } else if known {
                Resolution::Known
            } else if read.reference.kind == "state" || data.supplied(&read.reference.kind) {
                Resolution::Dangling
            } else {
                Resolution::Unchecked
            };
            let mut writer_calls: Vec<usize> = writers.iter().map(|&(w, _)| w).collect();
            writer_calls.dedup();
            graph.reads.push(ReadFact {
                call: call.index,
                read: r,
                resolution,
                writers: writer_calls,
            });
            for (writer, target) in writers {
                if pairs.insert((writer, call.index)) {
                    graph.edges.push(Edge {
                        from: writer,
                        to: call.index,
                        read: r,
                        target,
                    });
                }
            }
        }
    }

    for call in calls {
        for (t, target) in call
            .output
            .iter()
            .flat_map(|o| o.targets.iter().enumerate())
        {
            if let Some((other, other_target)) = trie.earliest_other_writer(target, call.index) {
                if other < call.index {
                    graph.clashes.push(WriteClash {
                        call: call.index,
                        target: t,
                        with: Clash::Call {
                            call: other,
                            target: other_target,
                        },
                    });
                }
            }
            if data.holds(target) {
                graph.clashes.push(WriteClash {
                    call: call.index,
                    target: t,
                    with: Clash::KnownData,
                });
            }
        }
    }

    let n = calls.len();
    let mut out: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (e, edge) in graph.edges.iter().enumerate() {
        out[edge.from].push((edge.to, e));
    }
    let component = components(&out);
    let (cycles, in_cycle) = cycles(&graph.edges, &out, &component);
    graph.cycles = cycles;
    graph.misordered = graph
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| e.from > e.to && component[e.from] != component[e.to])
        .map(|(i, _)| i)
        .collect();
    graph.in_cycle = in_cycle;
    graph.schedule = schedule(&out);

    if let Some(schema) = data.state_schema() {
        for call in calls {
            for (t, target) in call
                .output
                .iter()
                .flat_map(|o| o.targets.iter().enumerate())
            {
                if target.kind != "state" {
                    continue;
                }
                if let SchemaFit::Outside { fits } = schema_fit(schema, &target.path) {
                    graph.outside_schema.push(OutsideSchema {
                        call: call.index,
                        target: t,
                        fits,
                    });
                }
            }
        }
        let max_depth = plan_path_depth(plan);
        for slot in schema_slots(schema, max_depth, MAX_SLOTS) {
            let reference = Reference {
                kind: "state".into(),
                path: slot,
            };
            if !trie.any_overlapping(&reference) && !data.holds(&reference) {
                graph.unfilled_slots.push(reference.path);
            }
        }
    }
    Ok(graph)
}

/// The deepest path the plan uses (at least 1): blueprint slots deeper
/// than any write cannot be told apart from their parents anyway.
fn plan_path_depth(plan: &ToolPlan) -> usize {
    plan.calls
        .iter()
        .flat_map(|c| c.output.iter().flat_map(|o| o.targets.iter()))
        .map(|t| t.path.len())
        .max()
        .unwrap_or(1)
        .max(1)
}

/// Writes by (call, target), the two earliest distinct calls kept.
#[derive(Clone, Copy, Debug, Default)]
struct Earliest([Option<(usize, usize)>; 2]);

impl Earliest {
    fn offer(&mut self, entry: (usize, usize)) {
        let [first, second] = self.0;
        self.0 = match (first, second) {
            (None, _) => [Some(entry), None],
            (Some(a), _) if a.0 == entry.0 => self.0,
            (Some(a), _) if entry.0 < a.0 => [Some(entry), Some(a)],
            (Some(a), None) => [Some(a), Some(entry)],
            (Some(a), Some(b)) if entry.0 < b.0 => [Some(a), Some(entry)],
            _ => self.0,
        };
    }

    fn other_than(&self, call: usize) -> Option<(usize, usize)> {
        self.0.iter().flatten().copied().find(|e| e.0 != call)
    }
}

#[derive(Debug, Default)]
struct Node {
    children: HashMap<String, usize>,
    parent: Option<usize>,
    writes: Vec<(usize, usize)>,
    own: Earliest,
    subtree: Earliest,
}

/// Written paths, one tree per data kind; node 0.. are created parents
/// first, so a parent's index is always lower than its children's.
#[derive(Debug, Default)]
struct Trie {
    roots: HashMap<String, usize>,
    nodes: Vec<Node>,
}

impl Trie {
    fn insert(&mut self, path: &Reference, write: (usize, usize)) {
        let mut node = match self.roots.get(&path.kind) {
            Some(&root) => root,
            None => {
                self.nodes.push(Node::default());
                let root = self.nodes.len() - 1;
                self.roots.insert(path.kind.clone(), root);
                root
            }
        };
        for segment in &path.path {
            node = match self.nodes[node].children.get(segment) {
                Some(&child) => child,
                None => {
                    self.nodes.push(Node {
                        parent: Some(node),
                        ..Node::default()
                    });
                    let child = self.nodes.len() - 1;
                    self.nodes[node].children.insert(segment.clone(), child);
                    child
                }
            };
        }
        self.nodes[node].writes.push(write);
        self.nodes[node].own.offer(write);
    }

    /// Fill each node's `subtree` (children before parents: higher index first).
    fn summarize(&mut self) {
        for n in (0..self.nodes.len()).rev() {
            let own = self.nodes[n].own;
            let node = &mut self.nodes[n];
            for entry in own.0.into_iter().flatten() {
                node.subtree.offer(entry);
            }
            let subtree = node.subtree;
            if let Some(parent) = node.parent {
                for entry in subtree.0.into_iter().flatten() {
                    self.nodes[parent].subtree.offer(entry);
                }
            }
        }
    }

    /// The node of `path`, and its strict ancestors below the kind root.
    fn walk(&self, path: &Reference) -> (Vec<usize>, Option<usize>) {
        let mut ancestors = Vec::new();
        let Some(&root) = self.roots.get(&path.kind) else {
            return (ancestors, None);
        };
        let mut node = root;
        for (depth, segment) in path.path.iter().enumerate() {
            if depth > 0 {
                ancestors.push(node);
            }
            match self.nodes[node].children.get(segment) {
                Some(&child) => node = child,
                None => return (ancestors, None),
            }
        }
        (ancestors, Some(node))
    }

    /// Every write overlapping `path`; `None` when `budget` runs out.
    fn overlapping(&self, path: &Reference, budget: &mut usize) -> Option<Vec<(usize, usize)>> {
        let (ancestors, node) = self.walk(path);
        let mut found = Vec::new();
        let mut take = |writes: &[(usize, usize)], found: &mut Vec<(usize, usize)>| {
            *budget = budget.checked_sub(writes.len())?;
            found.extend_from_slice(writes);
            Some(())
        };
        for &a in &ancestors {
            take(&self.nodes[a].writes, &mut found)?;
        }
        if let Some(node) = node {
            let mut stack = vec![node];
            while let Some(n) = stack.pop() {
                take(&self.nodes[n].writes, &mut found)?;
                stack.extend(self.nodes[n].children.values().copied());
            }
        }
        // Children are kept in a hash map; sort so that edges and their
        // witnesses do not depend on hashing.
        found.sort_unstable();
        Some(found)
    }

    fn any_overlapping(&self, path: &Reference) -> bool {
        let (ancestors, node) = self.walk(path);
        ancestors.iter().any(|&a| !self.nodes[a].writes.is_empty())
            || node.is_some_and(|n| self.nodes[n].subtree.0[0].is_some())
    }

    /// The earliest-listed call other than `call` whose write overlaps `path`.
    fn earliest_other_writer(&self, path: &Reference, call: usize) -> Option<(usize, usize)> {
        let (ancestors, node) = self.walk(path);
        node.into_iter()
            .filter_map(|n| self.nodes[n].subtree.other_than(call))
            .chain(
                ancestors
                    .iter()
                    .filter_map(|&a| self.nodes[a].own.other_than(call)),
            )
            .min()
    }
}

/// Strongly connected components (Tarjan), iteratively: the component
/// number of each call.
fn components(out: &[Vec<(usize, usize)>]) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let n = out.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut component = vec![UNSEEN; n];
    let mut next_index = 0;
    let mut next_component = 0;
    // (call, position of the next out-edge to look at)
    let mut frames: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        frames.push((root, 0));
        while let Some(&(v, position)) = frames.last() {
            if let Some(&(w, _)) = out[v].get(position) {
                if let Some(frame) = frames.last_mut() {
                    frame.1 += 1;
                }
                if index[w] == UNSEEN {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = next_component;
                    if w == v {
                        break;
                    }
                }
                next_component += 1;
            }
        }
    }
    component
}

/// One shortest cycle through the first-listed call of each component
/// that has a loop (several calls, or a call reading its own output).
fn cycles(
    edges: &[Edge],
    out: &[Vec<(usize, usize)>],
    component: &[usize],
) -> (Vec<Cycle>, Vec<bool>) {
    let n = out.len();
    let mut size: HashMap<usize, usize> = HashMap::new();
    for &c in component {
        *size.entry(c).or_default() += 1;
    }
    let self_loop = |v: usize| out[v].iter().any(|&(w, _)| w == v);
    let cyclic = |v: usize| size.get(&component[v]).copied().unwrap_or(0) > 1 || self_loop(v);
    let in_cycle: Vec<bool> = (0..n).map(cyclic).collect();
    let mut done = HashSet::new();
    let mut found = Vec::new();
    // Reused across components; `seen` is reset for the nodes touched.
    let mut came_by: Vec<Option<usize>> = vec![None; n];
    let mut seen = vec![false; n];
    for start in 0..n {
        if !in_cycle[start] || !done.insert(component[start]) {
            continue;
        }
        let home = component[start];
        let mut touched = vec![start];
        seen[start] = true;
        let mut queue = VecDeque::from([start]);
        let mut closing = None;
        'search: while let Some(v) = queue.pop_front() {
            for &(w, e) in &out[v] {
                if w == start {
                    closing = Some(e);
                    break 'search;
                }
                if component[w] == home && !seen[w] {
                    seen[w] = true;
                    touched.push(w);
                    came_by[w] = Some(e);
                    queue.push_back(w);
                }
            }
        }
        if let Some(last) = closing {
            let mut path = vec![last];
            let mut at = edges[last].from;
            while at != start {
                let Some(e) = came_by[at] else { break };
                path.push(e);
                at = edges[e].from;
            }
            path.reverse();
            found.push(Cycle {
                edges: path,
                component_size: size.get(&home).copied().unwrap_or(1),
            });
        }
        for v in touched {
            seen[v] = false;
            came_by[v] = None;
        }
    }
    (found, in_cycle)
}

/// Kahn's algorithm by levels.
fn schedule(out: &[Vec<(usize, usize)>]) -> Schedule {
    let n = out.len();
    let mut waiting = vec![0usize; n];
    for targets in out {
        for &(w, _) in targets {
            waiting[w] += 1;
        }
    }
    let mut wave: Vec<usize> = (0..n).filter(|&v| waiting[v] == 0).collect();
    let mut placed = vec![false; n];
    let mut waves = Vec::new();
    while !wave.is_empty() {
        let mut next = Vec::new();
        for &v in &wave {
            placed[v] = true;
            for &(w, _) in &out[v] {
                waiting[w] -= 1;
                if waiting[w] == 0 {
                    next.push(w);
                }
            }
        }
        next.sort_unstable();
        waves.push(std::mem::replace(&mut wave, next));
    }
    Schedule {
        waves,
        unscheduled: (0..n).filter(|&v| !placed[v]).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{plan::read_plan, DagLimits};

    fn graph(text: &str) -> Graph {
        graph_with(text, &KnownData::default())
    }

    fn graph_with(text: &str, data: &KnownData) -> Graph {
        let plan = read_plan(text.as_bytes(), &DagLimits::default());
        assert!(plan.complete, "{:?}", plan.faults);
        build(&plan, data, 1_000).unwrap()
    }

    fn pairs(g: &Graph) -> Vec<(usize, usize)> {
        g.edges.iter().map(|e| (e.from, e.to)).collect()
    }

    #[test]
    fn reads_depend_on_overlapping_writes() {
        let g = graph(
            r#"[{"_tool": "a", "_outputPath": "†state.user"},
                {"_tool": "b", "n": "†state.user.name", "_outputPath": "†state.x.y"},
                {"_tool": "c", "x": "†state.x", "u": "†state.user"}]"#,
        );
        assert_eq!(pairs(&g), [(0, 1), (1, 2), (0, 2)]);
        assert_eq!(g.schedule.waves, [vec![0], vec![1], vec![2]]);
        assert!(g.cycles.is_empty() && g.misordered.is_empty() && g.clashes.is_empty());
    }

    #[test]
    fn resolutions() {
        let mut data = KnownData::default();
        data.add("input", serde_json::json!({"x": 1})).unwrap();
        let g = graph_with(
            r#"[{"_tool": "p", "_outputPath": "†state.receipt || †state.error"},
                {"_tool": "c", "r": "†state.receipt", "i": "†input.x", "j": "†input.y",
                 "k": "†config.z", "s": "†state.nobody"}]"#,
            &data,
        );
        let resolutions: Vec<Resolution> = g.reads.iter().map(|r| r.resolution).collect();
        assert_eq!(
            resolutions,
            [
                Resolution::Written {
                    alternatives_only: true
                },
                Resolution::Known,
                Resolution::Dangling,
                Resolution::Unchecked,
                Resolution::Dangling,
            ]
        );
    }

    #[test]
    fn overlapping_writes_clash_with_the_earliest_writer() {
        let mut data = KnownData::default();
        data.add("state", serde_json::json!({"done": true}))
            .unwrap();
        let g = graph_with(
            r#"[{"_tool": "a", "_outputPath": "†state.x.y"},
                {"_tool": "b", "_outputPath": "†state.z && †state.x"},
                {"_tool": "c", "_outputPath": "†state.x.y"},
                {"_tool": "d", "_outputPath": "†state.done"}]"#,
            &data,
        );
        assert_eq!(
            g.clashes,
            [
                WriteClash {
                    call: 1,
                    target: 1,
                    with: Clash::Call { call: 0, target: 0 }
                },
                WriteClash {
                    call: 2,
                    target: 0,
                    with: Clash::Call { call: 0, target: 0 }
                },
                WriteClash {
                    call: 3,
                    target: 0,
                    with: Clash::KnownData
                },
            ]
        );
    }

    #[test]
    fn cycles_are_spelled_out_and_left_unscheduled() {
        let g = graph(
            r#"[{"_tool": "src", "_outputPath": "†state.s"},
                {"_tool": "a", "s": "†state.s", "c": "†state.c", "_outputPath": "†state.a"},
                {"_tool": "b", "a": "†state.a", "_outputPath": "†state.b"},
                {"_tool": "c", "b": "†state.b", "_outputPath": "†state.c"},
                {"_tool": "self", "x": "†state.x", "_outputPath": "†state.x"},
                {"_tool": "after", "c": "†state.c"}]"#,
        );
        assert_eq!(g.cycles.len(), 2);
        let calls: Vec<Vec<usize>> = g
            .cycles
            .iter()
            .map(|c| c.edges.iter().map(|&e| g.edges[e].from).collect())
            .collect();
        assert_eq!(calls, [vec![1, 2, 3], vec![4]]);
        for cycle in &g.cycles {
            let first = g.edges[cycle.edges[0]].from;
            let last = g.edges[*cycle.edges.last().unwrap()].to;
            assert_eq!(first, last);
        }
        assert_eq!(g.schedule.waves, [vec![0]]);
        assert_eq!(g.schedule.unscheduled, [1, 2, 3, 4, 5]);
        assert!(
            g.misordered.is_empty(),
            "edges inside a cycle are not order problems"
        );
    }

    #[test]
    fn order_and_parallel_waves() {
        let g = graph(
            r#"[{"_tool": "late", "x": "†state.x"},
                {"_tool": "p", "_outputPath": "†state.x"},
                {"_tool": "q"}]"#,
        );
        assert_eq!(g.misordered.len(), 1);
        assert_eq!(g.schedule.waves, [vec![1, 2], vec![0]]);
    }

    #[test]
    fn blueprint_paths_and_slots() {
        let mut data = KnownData::default();
        data.add(
            "state",
            serde_json::json!({"type": "state", "schema": {"type": "object", "properties": {
                "language": {"type": "string"}, "isEnglish": {"type": "boolean"}}}}),
        )
        .unwrap();
        let g = graph_with(
            r#"[{"_tool": "d", "_outputPath": "†state.language"},
                {"_tool": "e", "_outputPath": "†state.lang && †state.language.code"}]"#,
            &data,
        );
        let outside: Vec<(usize, usize, usize)> = g
            .outside_schema
            .iter()
            .map(|o| (o.call, o.target, o.fits))
            .collect();
        assert_eq!(outside, [(1, 0, 0), (1, 1, 1)]);
        assert_eq!(g.unfilled_slots, [vec!["isEnglish".to_owned()]]);
    }

    #[test]
    fn the_edge_budget_is_enforced() {
        let plan = read_plan(
            r#"[{"_tool": "a", "_outputPath": "†state.x"}, {"_tool": "b", "_outputPath": "†state.x"},
                 {"_tool": "c", "x": "†state.x"}]"#.as_bytes(),
            &DagLimits::default(),
        );
        assert_eq!(
            build(&plan, &KnownData::default(), 1).unwrap_err(),
            TooManyEdges { limit: 1 }
        );
        assert!(build(&plan, &KnownData::default(), 2).is_ok());
    }

    #[test]
    fn long_chains_need_no_recursion() {
        let n = 100_000;
        let mut text = String::from("[");
        for i in 0..n {
            if i > 0 {
                text.push(',');
            }
            // Call i reads what i+1 writes, and the last reads the first: one big loop.
            let next = (i + 1) % n;
            text.push_str(&format!(
                r#"{{"_tool":"t","x":"†state.v{next}","_outputPath":"†state.v{i}"}}"#
            ));
        }
        text.push(']');
        let plan = read_plan(text.as_bytes(), &DagLimits::default());
        let g = build(&plan, &KnownData::default(), 1_000_000).unwrap();
        assert_eq!(g.cycles.len(), 1);
        assert_eq!(g.cycles[0].edges.len(), n);
        assert_eq!(g.schedule.unscheduled.len(), n);
    }
}
