//! Many traces at once: one file per worker, results in argument order.

use super::{check_reader_then, Config, TraceReport};
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

/// Bytes read from a trace file at a time.
const READ_BUFFER_BYTES: usize = 256 * 1024;

/// Check each of `paths` (`-` is standard input) with up to `jobs` workers,
/// one file per worker at a time, the costliest first. The results come
/// back in the order of `paths`, each exactly what a run over that file
/// alone gives, so the output is the same whatever `jobs` is. Standard
/// input, which every `-` shares, is read on the calling thread in argument
/// order, as a sequential run would (the first `-` reads it all).
///
/// With one worker (one file, or `jobs` 1) every path is checked on the
/// calling thread, in argument order: no thread to start. With more, the
/// calling thread is one of them unless it reads standard input.
pub fn check_paths(
    paths: &[PathBuf],
    config: &Config,
    jobs: usize,
) -> Vec<io::Result<TraceReport>> {
    check_paths_then(paths, config, jobs, |report| report)
}

/// [`check_paths`], with `then` applied to each report on the worker that
/// checked it, as soon as its check ends. A caller that keeps less than
/// the whole report (a report that does not show the client state, say)
/// then holds that much per file, not every file's state until the last
/// one is checked: each state is bounded by `max_state_bytes`, the number
/// of files by nothing.
pub fn check_paths_then<T: Send>(
    paths: &[PathBuf],
    config: &Config,
    jobs: usize,
    then: impl Fn(TraceReport) -> T + Sync,
) -> Vec<io::Result<T>> {
    let files_only = paths.iter().filter(|path| !is_stdin(path)).count();
    let workers = jobs.min(files_only);
    if workers <= 1 {
        return (paths.iter())
            .map(|path| check_path(path, config).map(&then))
            .collect();
    }
    let files = costliest_first(paths, workers);
    let mut results: Vec<Option<io::Result<T>>> = paths.iter().map(|_| None).collect();
    let next = AtomicUsize::new(0);
    let take_next = || next.fetch_add(1, Ordering::Relaxed);
    // Check files from `position` in `files` on, taking the next one left
    // after each.
    let work = |mut position: usize| {
        let mut done = Vec::new();
        while let Some(&index) = files.get(position) {
            done.push((index, check_file(&paths[index], config.clone()).map(&then)));
            position = take_next();
        }
        done
    };
    // Unless it reads standard input, the calling thread is a worker too,
    // and takes the costliest file before any thread starts.
    let reads_stdin = paths.iter().any(|path| is_stdin(path));
    let first_here = (!reads_stdin).then(take_next);
    let threads = workers - usize::from(first_here.is_some());
    thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| work(take_next())))
            .collect();
        for (index, path) in paths.iter().enumerate() {
            if is_stdin(path) {
                results[index] = Some(check_path(path, config).map(&then));
            }
        }
        let done_here = first_here.map(work).unwrap_or_default();
        let mut record = |done: Vec<(usize, io::Result<T>)>| {
            for (index, result) in done {
                results[index] = Some(result);
            }
        };
        record(done_here);
        for handle in handles {
            match handle.join() {
                Ok(done) => record(done),
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

/// The indexes of the files among `paths` (not standard input), the
/// costliest first: a costly file taken last would keep one worker busy
/// while the others idle (longest processing time first). A file's cost is
/// its bytes plus its lines at [`LINE_COST_BYTES`] each, the lines estimated
/// from a sample. Files under 1/16 of a worker's share of all the bytes
/// cannot decide how long the run takes, and are not sampled (thousands of
/// small files cost no second open each): their lines count as none, which
/// puts them after every sampled file. Unreadable files count as free;
/// equal costs keep argument order.
fn costliest_first(paths: &[PathBuf], workers: usize) -> Vec<usize> {
    let sizes: Vec<(usize, u64)> = paths
        .iter()
        .enumerate()
        .filter(|(_, path)| !is_stdin(path))
        .map(|(index, path)| (index, std::fs::metadata(path).map_or(0, |m| m.len())))
        .collect();
    let total: u64 = sizes.iter().map(|&(_, bytes)| bytes).sum();
    let worth_sampling = (total / (workers as u64).saturating_mul(16)).max(1);
    let mut sample = Vec::with_capacity(SAMPLE_BYTES as usize);
    let mut files: Vec<(u64, usize)> = sizes
        .into_iter()
        .map(|(index, bytes)| {
            let cost = if bytes >= worth_sampling {
                estimated_cost(&paths[index], bytes, &mut sample).unwrap_or(bytes)
            } else {
                bytes
            };
            (cost, index)
        })
        .collect();
    files.sort_by_key(|&(cost, index)| (std::cmp::Reverse(cost), index));
    files.into_iter().map(|(_, index)| index).collect()
}

/// Bytes read from the middle of a file to estimate its lines.
const SAMPLE_BYTES: u64 = 16 * 1024;
/// What a line costs beyond its bytes, in bytes. A check's time follows
/// its lines far more than its bytes: on the benchmark's 100 MB traces it
/// was 0.6 to 0.9 µs a line whether the lines were 260 bytes or 1.6 KB
/// long, and the 72 MB trace of many sessions took twice as long as the
/// 100 MB ones. Ordered by bytes alone, that trace started last and ended
/// the run alone (bench/README.md, "Many files").
const LINE_COST_BYTES: u64 = 4096;

/// A file of `bytes`: those, plus its lines (estimated from
/// [`SAMPLE_BYTES`] at its middle) at [`LINE_COST_BYTES`] each.
fn estimated_cost(path: &Path, bytes: u64, sample: &mut Vec<u8>) -> io::Result<u64> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(bytes.saturating_sub(SAMPLE_BYTES) / 2))?;
    sample.clear();
    file.take(SAMPLE_BYTES).read_to_end(sample)?;
    let newlines = memchr::memchr_iter(b'\n', sample).count() as u64;
    let lines = match sample.len() as u64 {
        0 => 0,
        sampled => newlines.saturating_mul(bytes) / sampled,
    };
    Ok(bytes.saturating_add(lines.saturating_mul(LINE_COST_BYTES)))
}

/// Workers for [`check_paths`]: one per core the process may use.
pub fn default_jobs() -> usize {
    thread::available_parallelism().map_or(1, usize::from)
}

/// One path checked on the calling thread.
fn check_path(path: &Path, config: &Config) -> io::Result<TraceReport> {
    if is_stdin(path) {
        check_reader_then("<stdin>", io::stdin().lock(), config.clone())
    } else {
        check_file(path, config.clone())
    }
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

fn check_file(path: &Path, config: Config) -> io::Result<TraceReport> {
    let file = File::open(path)?;
    check_reader_then(
        &path.display().to_string(),
        BufReader::with_capacity(READ_BUFFER_BYTES, file),
        config,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{synthetic, SyntheticParams};

    /// Workers take the costliest file first, lines counting far more than
    /// bytes, and small files after the sampled ones; standard input is not
    /// theirs.
    #[test]
    fn workers_take_the_costliest_files_first() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for (name, bytes) in [
            ("a", b"x".repeat(10)),
            ("b", b"x".repeat(300)),
            ("c", b"x".repeat(10)),
            ("d", b"x".repeat(20)),
            ("e", b"x\n".repeat(6)),
            ("f", b"\n".repeat(9)),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            paths.push(path);
        }
        paths.insert(1, PathBuf::from("-"));
        paths.push(dir.path().join("missing"));
        // 361 bytes on 2 workers: files of 11 bytes and more are sampled
        // (b, d, e), the others come after them by bytes (a, c, f).
        assert_eq!(costliest_first(&paths, 2), [5, 2, 4, 0, 3, 6, 7]);
        // On 1 worker, files of 22 bytes and more: e is not sampled.
        assert_eq!(costliest_first(&paths, 1), [2, 4, 5, 0, 3, 6, 7]);
    }

    /// A file larger than the sample: its lines are estimated from its
    /// middle, and its bytes count too.
    #[test]
    fn a_large_file_costs_its_estimated_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        // 10 000 lines of 100 bytes, then one line of 0.5 MB: the middle
        // sample sees only the short lines.
        let mut trace = format!("{}\n", "x".repeat(99)).repeat(10_000).into_bytes();
        trace.extend(b"y".repeat(500_000));
        std::fs::write(&path, &trace).unwrap();
        let bytes = trace.len() as u64;
        let cost = estimated_cost(&path, bytes, &mut Vec::new()).unwrap();
        // The sample (at 0.75 MB, inside the short lines) has one newline
        // per 100 bytes: bytes / 100 lines, within a line of the sample
        // (1%).
        let lines = (cost - bytes) / LINE_COST_BYTES;
        assert!(
            lines.abs_diff(bytes / 100) <= bytes / 100 / 100,
            "{lines} lines estimated for {bytes} bytes"
        );
        assert!(estimated_cost(&dir.path().join("missing"), 1, &mut Vec::new()).is_err());
    }

    /// Many workers give what one gives, in argument order, unreadable
    /// files included, and so does a check that leaves its memory to the
    /// system.
    #[test]
    fn workers_give_the_sequential_result_in_argument_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for (n, inject) in ["", "SES-UNKNOWN-SESSION", "", "FULL-DELTA", ""]
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
        // What each worker makes of its reports comes back in the same
        // order, made once per file read.
        let summary = |r: &TraceReport| (r.name.clone(), r.counts, r.state.session_count());
        let expected: Vec<_> = (check_paths(&paths, &config, 1).iter())
            .map(|r| r.as_ref().map(summary).map_err(|e| e.kind()))
            .collect();
        for jobs in [1, 2, 3, 8] {
            let made = AtomicUsize::new(0);
            let summaries: Vec<_> = check_paths_then(&paths, &config, jobs, |r| {
                made.fetch_add(1, Ordering::Relaxed);
                summary(&r)
            })
            .into_iter()
            .map(|r| r.map_err(|e| e.kind()))
            .collect();
            assert_eq!(summaries, expected, "{jobs} jobs");
            assert_eq!(made.into_inner(), paths.len() - 1, "{jobs} jobs");
        }
    }
}
