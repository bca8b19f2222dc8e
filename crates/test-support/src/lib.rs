//! Helpers the workspace's integration tests share: where the repository
//! is, and the corpus files in it. A dev-dependency only (never published):
//! the tests read the corpus at the workspace root, which no package ships.

use std::path::{Path, PathBuf};

/// The repository root (the workspace that holds `corpus/` and `snapshots/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("corpus").is_dir() && dir.join("snapshots").is_dir())
        .expect("the crate lives in the repository")
        .to_path_buf()
}

/// Every file under `dir` (relative to the repository root) whose name ends
/// with `.{ext}`, recursively, as repository-relative paths with `/`
/// separators, sorted. A missing directory has no files.
pub fn corpus_files(dir: &str, ext: &str) -> Vec<String> {
    let root = repo_root();
    let mut found = Vec::new();
    let mut pending = vec![root.join(dir)];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("readable directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                found.push(relative(&root, &path));
            }
        }
    }
    found.sort();
    found
}

/// `path` relative to `root`, with `/` separators on every platform, so it is
/// the same string in snapshots on every machine.
fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .expect("path under the repository root")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_holds_the_corpus_and_listings_are_relative_and_sorted() {
        let root = repo_root();
        assert!(root.join("Cargo.toml").is_file());
        let vectors = corpus_files("corpus/vectors", "json");
        assert!(!vectors.is_empty());
        assert!(vectors.windows(2).all(|w| w[0] < w[1]));
        assert!(vectors.iter().all(|p| p.starts_with("corpus/vectors/")));
        assert!(corpus_files("no/such/dir", "json").is_empty());
    }
}
