//! The traces a command line names: files as given, and every `*.jsonl`
//! below a directory, in a stable order, so CI can point `check` at a folder
//! of recorded traces.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The extension of trace files found in directories.
pub const TRACE_EXTENSION: &str = "jsonl";

/// `paths` with each directory replaced by the `*.jsonl` files below it
/// (recursively, sorted by path; hidden entries skipped). Files and `-` are
/// kept as given, in place. A directory without traces is an error, as is
/// one that cannot be read: a gate that checks nothing must not pass.
pub fn expand(paths: &[PathBuf]) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for path in paths {
        if path.as_os_str() != "-" && path.is_dir() {
            let before = out.len();
            walk(path, &mut out)?;
            if out.len() == before {
                return Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("no *.{TRACE_EXTENSION} file in {}", path.display()),
                ));
            }
            out[before..].sort();
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let entries = fs::read_dir(dir)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        // Symbolic links to directories are not followed (no cycles).
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == TRACE_EXTENSION)
            && (kind.is_file() || path.is_file())
        {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directories_become_their_traces_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("b/deep")).unwrap();
        fs::create_dir_all(root.join(".hidden")).unwrap();
        for file in [
            "z.jsonl",
            "a.jsonl",
            "b/deep/c.jsonl",
            "b/notes.txt",
            ".hidden/x.jsonl",
        ] {
            fs::write(root.join(file), "").unwrap();
        }
        let single = root.join("b/notes.txt");
        let got = expand(&[single.clone(), root.to_owned(), "-".into()]).unwrap();
        assert_eq!(
            got,
            vec![
                single,
                root.join("a.jsonl"),
                root.join("b/deep/c.jsonl"),
                root.join("z.jsonl"),
                PathBuf::from("-"),
            ]
        );
        let empty = root.join("b/deep/empty");
        fs::create_dir_all(&empty).unwrap();
        assert!(expand(&[empty]).is_err());
    }
}
