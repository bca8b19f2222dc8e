//! The Markdown documentation stays navigable and true to CI:
//!
//! - every relative link (and image) in every tracked Markdown file names a
//!   file or directory that exists, and a `#fragment` names a heading or an
//!   `id="…"` anchor of the Markdown file it points into (GitHub's rules);
//! - the README's quickstart commands are the ones `.ci/run` runs.

use acp_plan_test_support::repo_root as root;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Markdown files tracked by git (relative to the root); without git (an
/// exported tree), every `.md` file outside build output and hidden directories.
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let listed = Command::new("git")
        .args(["ls-files", "-z", "--", "*.md"])
        .current_dir(root)
        .output();
    if let Ok(out) = listed {
        if out.status.success() {
            let files: Vec<PathBuf> = out
                .stdout
                .split(|&b| b == 0)
                .filter(|name| !name.is_empty())
                .map(|name| PathBuf::from(String::from_utf8_lossy(name).into_owned()))
                .filter(|path| root.join(path).is_file())
                .collect();
            if !files.is_empty() {
                return files;
            }
        }
    }
    let mut files = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(root.join(&dir))
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries {
            let entry = entry.expect("directory entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = dir.join(&name);
            if entry.file_type().expect("file type").is_dir() {
                if !name.starts_with('.') && name != "target" && name != "node_modules" {
                    pending.push(path);
                }
            } else if name.ends_with(".md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// What one Markdown file links to and which anchors it defines.
#[derive(Default)]
struct Document {
    /// Link destinations as written, with the line they are on.
    links: Vec<(usize, String)>,
    anchors: BTreeSet<String>,
}

/// GitHub's heading anchor: lower case, punctuation other than `-` and `_`
/// dropped, spaces turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// `id="…"` and `name="…"` attributes in raw HTML (`<a id="trace-record"></a>`).
fn html_anchors(html: &str, anchors: &mut BTreeSet<String>) {
    for attribute in ["id=\"", "name=\""] {
        let mut rest = html;
        while let Some(start) = rest.find(attribute) {
            rest = &rest[start + attribute.len()..];
            if let Some(end) = rest.find('"') {
                anchors.insert(rest[..end].to_owned());
                rest = &rest[end..];
            }
        }
    }
}

fn parse(text: &str) -> Document {
    let mut doc = Document::default();
    let mut heading: Option<String> = None;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH;
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                doc.links
                    .push((line_of(range.start), dest_url.into_string()));
            }
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(_)) => {
                if let Some(title) = heading.take() {
                    // Repeated headings get -1, -2, … as on GitHub.
                    let base = slug(&title);
                    let count = seen.entry(base.clone()).or_insert(0);
                    let anchor = if *count == 0 {
                        base.clone()
                    } else {
                        format!("{base}-{count}")
                    };
                    *count += 1;
                    doc.anchors.insert(anchor);
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(title) = heading.as_mut() {
                    title.push_str(&t);
                }
            }
            Event::Html(html) | Event::InlineHtml(html) => html_anchors(&html, &mut doc.anchors),
            _ => {}
        }
    }
    doc
}

/// A destination that leaves the repository (a URL with a scheme, or mail).
fn is_external(dest: &str) -> bool {
    match dest.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }
        None => false,
    }
}

#[test]
fn every_relative_link_in_the_markdown_resolves() {
    let root = root();
    let files = markdown_files(&root);
    assert!(
        files.iter().any(|f| f == Path::new("README.md")),
        "README.md is not among the Markdown files found: {files:?}"
    );
    let docs: BTreeMap<PathBuf, Document> = files
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(root.join(file))
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
            (file.clone(), parse(&text))
        })
        .collect();
    let mut broken = Vec::new();
    let mut checked = 0;
    for (file, doc) in &docs {
        for (line, dest) in &doc.links {
            if is_external(dest) {
                continue;
            }
            checked += 1;
            let (path, fragment) = match dest.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (dest.as_str(), None),
            };
            let target = if path.is_empty() {
                file.clone()
            } else if let Some(absolute) = path.strip_prefix('/') {
                PathBuf::from(absolute)
            } else {
                file.parent().unwrap_or(Path::new("")).join(path)
            };
            let on_disk = root.join(&target);
            if !on_disk.exists() {
                broken.push(format!(
                    "{}:{line}: {dest}: {} does not exist",
                    file.display(),
                    target.display()
                ));
                continue;
            }
            let Some(fragment) = fragment.filter(|f| !f.is_empty()) else {
                continue;
            };
            if !target.to_string_lossy().ends_with(".md") {
                continue; // anchors into code are line numbers GitHub makes up
            }
            let anchors = match std::fs::canonicalize(&on_disk) {
                Ok(canonical) => docs
                    .iter()
                    .find(|(f, _)| {
                        std::fs::canonicalize(root.join(f)).is_ok_and(|c| c == canonical)
                    })
                    .map(|(_, d)| &d.anchors),
                Err(_) => None,
            };
            match anchors {
                Some(anchors) if anchors.contains(fragment) => {}
                Some(_) => broken.push(format!(
                    "{}:{line}: {dest}: {} has no heading or anchor #{fragment}",
                    file.display(),
                    target.display()
                )),
                None => broken.push(format!(
                    "{}:{line}: {dest}: {} is not a tracked Markdown file",
                    file.display(),
                    target.display()
                )),
            }
        }
    }
    assert!(checked > 0, "no relative links found in {files:?}");
    assert!(
        broken.is_empty(),
        "broken links in the documentation:\n  {}",
        broken.join("\n  ")
    );
}

#[test]
fn heading_anchors_follow_github() {
    let doc = parse(
        "# Plans of tool calls: `acp-plan dag`\n## Limits\n## Limits\n<a id=\"trace-record\"></a>\n",
    );
    let expected: BTreeSet<String> = [
        "plans-of-tool-calls-acp-plan-dag",
        "limits",
        "limits-1",
        "trace-record",
    ]
    .map(String::from)
    .into();
    assert_eq!(doc.anchors, expected);
    assert!(is_external("https://agentclientprotocol.com"));
    assert!(!is_external("docs/guide.md#revisions"));
}

/// The shell commands of the README's "Quickstart" block (comments and blank
/// lines left out).
fn quickstart_commands(readme: &str) -> Vec<String> {
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with("Quickstart"))
        .expect("README.md has a \"Quickstart\" section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the Quickstart section has a ```sh block");
    block
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn readme_quickstart_is_what_ci_runs() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let ci = std::fs::read_to_string(root.join(".ci/run")).expect(".ci/run");
    let ci_lines: BTreeSet<&str> = ci.lines().map(str::trim).collect();
    let commands = quickstart_commands(&readme);
    assert!(
        commands.len() >= 2,
        "the quickstart should show at least the check and the test command: {commands:?}"
    );
    let missing: Vec<&String> = commands
        .iter()
        .filter(|c| !ci_lines.contains(c.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "README.md's quickstart shows commands .ci/run does not run: {missing:?}"
    );
}
