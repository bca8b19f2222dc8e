//! Modules depend one way. Each crate's modules are listed here in layers,
//! lowest first; a module may import (`crate::x`, `super::x` at the crate
//! root) only from modules in lower layers. A new module must be placed in
//! the order before it can be used, so the flow stays a decision, not an
//! accident. Test modules (`#[cfg(test)] mod tests`) may reach anywhere.

use acp_plan_test_support::{corpus_files, repo_root};

use std::collections::BTreeSet;
use std::path::Path;

/// `acp-plan-conformance` (crates/core): bytes → frames → typed messages →
/// catalog → diagnostics → client state → rules → validator → baselines →
/// reports → live modes; the generator and the fuzzing invariants on top.
const CORE: &[&str] = &[
    "text", "trace", "jsonrpc", "spec", "catalog", "diag", "state", "rules", "validate", "gen",
    "baseline", "report", "gate", "live", "fuzzing",
];

/// `acp-plan-dag` (crates/dag): references and plans, known data and tools,
/// the graph, the rules, one check, its views, the fuzzing invariants.
const DAG: &[&str] = &[
    "reference",
    "span",
    "data",
    "tools",
    "options",
    "plan",
    "graph",
    "rules",
    "check",
    "report",
    "dataflow",
    "fuzzing",
];

/// `acp-plan` (conformance/): the allocator's set-up, the clap definitions
/// and errors, then the commands.
const BIN: &[&str] = &["heap", "cli", "error", "commands"];

/// The code of `text` without comments and without its test module.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segments of every `crate::` path in `code` (and of `super::`
/// paths when the file is a module at the crate root), with `use
/// crate::{a::x, b}` read as `a` and `b`.
fn imports(code: &str, root_module: bool) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let prefixes: &[&str] = if root_module {
        &["crate::", "super::"]
    } else {
        &["crate::"]
    };
    for prefix in prefixes {
        for (at, _) in code.match_indices(prefix) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':') {
                continue;
            }
            let rest = &code[at + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let mut depth = 0;
                let end = group
                    .char_indices()
                    .find(|&(_, c)| {
                        match c {
                            '{' => depth += 1,
                            '}' if depth == 0 => return true,
                            '}' => depth -= 1,
                            _ => {}
                        }
                        false
                    })
                    .map_or(group.len(), |(i, _)| i);
                let mut depth = 0;
                let mut item = String::new();
                for c in group[..end].chars() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            found.insert(first_segment(&item));
                            item.clear();
                            continue;
                        }
                        _ => {}
                    }
                    item.push(c);
                }
                found.insert(first_segment(&item));
            } else {
                found.insert(first_segment(rest));
            }
        }
    }
    found.remove("");
    found.remove("self");
    found
}

fn first_segment(path: &str) -> String {
    path.trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The top-level module a source file belongs to (`None` for the crate root).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let first = relative.components().next()?.as_os_str().to_string_lossy();
    let name = first.trim_end_matches(".rs").to_owned();
    (!matches!(name.as_str(), "lib" | "main")).then_some(name)
}

/// Every breach of `layers` in the crate whose sources are in `src`.
fn breaches(src: &str, layers: &[&str]) -> Vec<String> {
    let root = repo_root();
    let src = root.join(src);
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for file in corpus_files(&src.strip_prefix(&root).unwrap().to_string_lossy(), "rs") {
        let path = root.join(&file);
        let Some(module) = module_of(&src, &path) else {
            continue;
        };
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            // A test module in a file of its own.
            continue;
        }
        seen.insert(module.clone());
        let Some(level) = layers.iter().position(|m| *m == module) else {
            problems.push(format!("{file}: module `{module}` is in no layer"));
            continue;
        };
        let text = std::fs::read_to_string(&path).expect("readable source");
        let at_root = path.parent() == Some(src.as_path());
        for used in imports(&code(&text), at_root) {
            if used == module {
                continue;
            }
            match layers.iter().position(|m| *m == used) {
                Some(other) if other < level => {}
                Some(_) => problems.push(format!(
                    "{file}: `{module}` imports `{used}`, which is not below it"
                )),
                None => problems.push(format!(
                    "{file}: `{module}` imports `crate::{used}`, which is no module of the \
                     layers (import items from the module that defines them)"
                )),
            }
        }
    }
    for module in layers {
        if !seen.contains(*module) {
            problems.push(format!("{src:?}: layer `{module}` names no module"));
        }
    }
    problems
}

fn assert_one_way(src: &str, layers: &[&str]) {
    let problems = breaches(src, layers);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn core_modules_depend_one_way() {
    assert_one_way("crates/core/src", CORE);
}

#[test]
fn dag_modules_depend_one_way() {
    assert_one_way("crates/dag/src", DAG);
}

#[test]
fn binary_modules_depend_one_way() {
    assert_one_way("conformance/src", BIN);
}

#[test]
fn the_checker_sees_grouped_and_nested_imports() {
    let found = imports(
        "use crate::{a::{x, y}, b};\nlet v = crate::c::f();\nmacro $crate::d",
        false,
    );
    assert_eq!(found, ["a", "b", "c"].map(String::from).into());
    assert!(imports("use super::e;", true).contains("e"));
    assert!(!imports("use super::e;", false).contains("e"));
    assert_eq!(
        code("x // crate::hidden\n#[cfg(test)]\nmod tests { crate::z }"),
        "x "
    );
}
