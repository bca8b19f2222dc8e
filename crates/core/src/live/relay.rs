//! The agent a client under test starts (`acp-plan client` puts this
//! command where the client's command says `{agent}`): it connects to the
//! running `acp-plan client` over a Unix socket and copies bytes both
//! ways, so the suite plays the agent and sees every byte the client sends.

use std::io::{self, Read, Write};
use std::net::Shutdown;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::thread;

/// Relay stdin to the socket at `socket` and the socket to stdout, until
/// the suite closes the socket.
pub fn run(socket: &Path) -> io::Result<()> {
    let stream = UnixStream::connect(socket)?;
    let mut to_suite = stream.try_clone()?;
    thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        let _ = copy_flushing(&mut stdin, &mut to_suite);
        // The client closed our stdin: the suite reads end of file.
        let _ = to_suite.shutdown(Shutdown::Write);
    });
    let mut from_suite = stream;
    let mut stdout = io::stdout().lock();
    match copy_flushing(&mut from_suite, &mut stdout) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// `io::copy`, flushing after every read so that no message waits in a buffer.
fn copy_flushing(from: &mut impl Read, to: &mut impl Write) -> io::Result<()> {
    let mut buf = [0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        to.write_all(&buf[..n])?;
        to.flush()?;
    }
}
