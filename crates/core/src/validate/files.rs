//! Many traces at once: one file per worker, results in argument order.

use super::{check_reader, Config, TraceReport};
use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

/// Bytes read from a trace file at a time.
const READ_BUFFER_BYTES: usize = 256 * 1024;

/// Check each of `paths` (`-` is standard input) with up to `jobs` workers,
/// one file per worker at a time, the largest first. The results come back in the order of
/// `paths`, each exactly what a run over that file alone gives, so the
/// output is the same whatever `jobs` is. Standard input, which every `-`
/// shares, is read on the calling thread in argument order, as a sequential
/// run would (the first `-` reads it all).
///
/// With one worker (one file, or `jobs` 1) every path is checked on the
/// calling thread, in argument order: no thread to start, and the check
/// keeps its state in the heap the program set up for it (the binary's
/// `heap` module), not in one that glibc maps for a new thread.
pub fn check_paths(
    paths: &[PathBuf],
    config: &Config,
    jobs: usize,
) -> Vec<io::Result<TraceReport>> {
    let files_only = paths.iter().filter(|path| !is_stdin(path)).count();
    let workers = jobs.min(files_only);
    if workers <= 1 {
        return paths.iter().map(|path| check_path(path, config)).collect();
    }
    let files = largest_first(paths);
    let mut results: Vec<Option<io::Result<TraceReport>>> = paths.iter().map(|_| None).collect();
    let next = AtomicUsize::new(0);
    thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(&index) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                        done.push((index, check_file(&paths[index], config.clone())));
                    }
                    done
                })
            })
            .collect();
        for (index, path) in paths.iter().enumerate() {
            if is_stdin(path) {
                results[index] = Some(check_path(path, config));
            }
        }
        for handle in handles {
            match handle.join() {
                Ok(done) => {
                    for (index, result) in done {
                        results[index] = Some(result);
                    }
                }
                // A worker's panic is the program's panic, as in a sequential run.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    results
        .into_iter()
        .map(|result| result.unwrap_or_else(|| Err(io::Error::other("not checked"))))
        .collect()
}

/// The indexes of the files among `paths` (not standard input), largest
/// first: a large file taken last would keep one worker busy while the others
/// idle (longest processing time first). Unreadable sizes count as empty;
/// equal sizes keep argument order.
fn largest_first(paths: &[PathBuf]) -> Vec<usize> {
    let mut files: Vec<(u64, usize)> = paths
        .iter()
        .enumerate()
        .filter(|(_, path)| !is_stdin(path))
        .map(|(index, path)| (std::fs::metadata(path).map_or(0, |m| m.len()), index))
        .collect();
    files.sort_by_key(|&(bytes, index)| (std::cmp::Reverse(bytes), index));
    files.into_iter().map(|(_, index)| index).collect()
}

/// Workers for [`check_paths`]: one per core the process may use.
pub fn default_jobs() -> usize {
    thread::available_parallelism().map_or(1, usize::from)
}

/// One path checked on the calling thread.
fn check_path(path: &Path, config: &Config) -> io::Result<TraceReport> {
    if is_stdin(path) {
        check_reader("<stdin>", io::stdin().lock(), config.clone())
    } else {
        check_file(path, config.clone())
    }
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

fn check_file(path: &Path, config: Config) -> io::Result<TraceReport> {
    let file = File::open(path)?;
    check_reader(
        &path.display().to_string(),
        BufReader::with_capacity(READ_BUFFER_BYTES, file),
        config,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{synthetic, SyntheticParams};

    /// Workers take the largest file first; standard input is not theirs.
    #[test]
    fn workers_take_the_largest_files_first() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for (name, bytes) in [("a", 10), ("b", 300), ("c", 10), ("d", 20)] {
            let path = dir.path().join(name);
            std::fs::write(&path, vec![b'x'; bytes]).unwrap();
            paths.push(path);
        }
        paths.insert(1, PathBuf::from("-"));
        paths.push(dir.path().join("missing"));
        assert_eq!(largest_first(&paths), [2, 4, 0, 3, 5]);
    }

    /// Many workers give what one gives, in argument order, unreadable
    /// files included.
    #[test]
    fn workers_give_the_sequential_result_in_argument_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for (n, inject) in ["", "SES-UNKNOWN-SESSION", "", "ID-REMOVE-UNKNOWN", ""]
            .iter()
            .enumerate()
        {
            let params = SyntheticParams {
                messages: 50 + 40 * n as u64,
                inject: crate::gen::Violation::for_rule(inject)
                    .into_iter()
                    .collect(),
                ..SyntheticParams::default()
            };
            let path = dir.path().join(format!("t{n}.jsonl"));
            let mut trace = Vec::new();
            synthetic(&params, n as u64, &mut trace).unwrap();
            std::fs::write(&path, trace).unwrap();
            paths.push(path);
            if n == 2 {
                paths.push(dir.path().join("missing.jsonl"));
            }
        }
        let describe = |results: Vec<io::Result<TraceReport>>| -> Vec<String> {
            results
                .into_iter()
                .map(|r| match r {
                    Ok(report) => format!("{report:?}"),
                    Err(e) => format!("error: {e}"),
                })
                .collect()
        };
        let config = Config::default();
        let sequential = describe(check_paths(&paths, &config, 1));
        assert_eq!(sequential.len(), paths.len());
        assert!(sequential[3].starts_with("error"), "{}", sequential[3]);
        for (path, report) in paths.iter().zip(&sequential) {
            if !report.starts_with("error") {
                assert!(report.contains(&path.display().to_string()));
            }
        }
        assert!(sequential.iter().any(|r| r.contains("SES-UNKNOWN-SESSION")));
        for jobs in [2, 3, 8] {
            assert_eq!(
                describe(check_paths(&paths, &config, jobs)),
                sequential,
                "{jobs} jobs"
            );
        }
    }
}
