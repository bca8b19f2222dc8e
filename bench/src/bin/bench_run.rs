//! Run a command once and record what it cost: wall time, user and system
//! CPU time, and peak resident memory (the kernel's `ru_maxrss` for the
//! child, from `wait4`), so the benchmark script needs no GNU `time`.
//!
//! Usage: `bench_run --out FILE --label LABEL -- CMD [ARGS...]`
//!
//! Appends `LABEL WALL_S USER_S SYS_S MAXRSS_KB STATUS` to FILE; the
//! command's own output goes where this program's goes. Exits with the
//! command's status.

#[cfg(unix)]
fn main() -> std::process::ExitCode {
    match unix::run() {
        Ok(code) => std::process::ExitCode::from(code),
        Err(message) => {
            eprintln!("bench_run: {message}");
            std::process::ExitCode::from(2)
        }
    }
}

#[cfg(not(unix))]
fn main() -> std::process::ExitCode {
    eprintln!("bench_run: needs a Unix-like system (wait4)");
    std::process::ExitCode::from(2)
}

#[cfg(unix)]
mod unix {
    use std::fs::OpenOptions;
    use std::io::Write;
    use std::process::Command;
    use std::time::Instant;

    pub fn run() -> Result<u8, String> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let usage = "usage: bench_run --out FILE --label LABEL -- CMD [ARGS...]";
        let split = args.iter().position(|a| a == "--").ok_or(usage)?;
        let (options, command) = (&args[..split], &args[split + 1..]);
        let (mut out, mut label) = (None, None);
        let mut options = options.iter();
        while let Some(flag) = options.next() {
            let value = options.next().ok_or(usage)?;
            match flag.as_str() {
                "--out" => out = Some(value.clone()),
                "--label" => label = Some(value.clone()),
                _ => return Err(usage.into()),
            }
        }
        let (Some(out), Some(label), Some(program)) = (out, label, command.first()) else {
            return Err(usage.into());
        };
        let start = Instant::now();
        let child = Command::new(program)
            .args(&command[1..])
            .spawn()
            .map_err(|e| format!("cannot run {program}: {e}"))?;
        let pid = libc::pid_t::try_from(child.id()).map_err(|e| e.to_string())?;
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // The child is reaped here rather than by `Child::wait`, which does
        // not report resource usage.
        // SAFETY: `pid` is our own unreaped child; both pointers are valid.
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        let wall = start.elapsed().as_secs_f64();
        if reaped != pid {
            return Err(format!("wait4: {}", std::io::Error::last_os_error()));
        }
        let code = if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            128 + libc::WTERMSIG(status)
        };
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        let line = format!(
            "{label} {wall:.6} {:.6} {:.6} {} {code}\n",
            seconds(usage.ru_utime),
            seconds(usage.ru_stime),
            // Linux reports kilobytes.
            usage.ru_maxrss
        );
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&out)
            .and_then(|mut f| f.write_all(line.as_bytes()))
            .map_err(|e| format!("cannot write {out}: {e}"))?;
        Ok(u8::try_from(code & 0xff).unwrap_or(1))
    }
}
