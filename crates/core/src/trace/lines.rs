//! Newline framing with a bound on line length.

use std::io::{self, BufRead};

/// One line of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawLine<'a> {
    /// The line's bytes, without the newline (and without a trailing `\r`).
    Bytes(&'a [u8]),
    /// The line was longer than the limit; its bytes were skipped, not kept.
    TooLong {
        /// The line's length, counted while it was skipped.
        bytes: u64,
    },
}

/// Reads newline-delimited lines, never buffering more than `max` bytes of one.
pub struct LineReader<R> {
    inner: R,
    max: usize,
    buf: Vec<u8>,
    line_no: u64,
    /// Bytes of the last line handed out from `inner`'s buffer, consumed at
    /// the next call.
    pending: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of `inner` that hands out lines of at most `max_line_bytes` bytes; a longer
    /// line is reported as [`RawLine::TooLong`] and skipped without being kept.
    pub fn new(inner: R, max_line_bytes: usize) -> Self {
        LineReader {
            inner,
            max: max_line_bytes,
            buf: Vec::new(),
            line_no: 0,
            pending: 0,
        }
    }

    /// Bytes the reader has allocated for lines: never much more than the
    /// limit, however long a line is (for memory checks).
    pub fn buffer_capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// The next line and its 1-based number, or `None` at end of input.
    pub fn next_line(&mut self) -> io::Result<Option<(u64, RawLine<'_>)>> {
        self.inner.consume(std::mem::take(&mut self.pending));
        // A line whole in the reader's buffer is handed out from there, not
        // copied. (The buffer is looked at twice: a borrow returned on one
        // path only would hold `inner` for the whole function.)
        let whole = match self.fill_buf()? {
            [] => None,
            chunk => memchr::memchr(b'\n', chunk).filter(|&end| end <= self.max),
        };
        if let Some(end) = whole {
            self.pending = end + 1;
            self.line_no += 1;
            let chunk = self.inner.fill_buf()?;
            let mut line = chunk.get(..end).unwrap_or_default();
            if let [rest @ .., b'\r'] = line {
                line = rest;
            }
            return Ok(Some((self.line_no, RawLine::Bytes(line))));
        }
        self.buf.clear();
        let mut total: u64 = 0;
        let mut saw_any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (take, done) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            total += take as u64;
            if total <= self.max as u64 {
                self.buf.extend_from_slice(&chunk[..take]);
            } else if !self.buf.is_empty() {
                // Over the limit: stop keeping bytes, keep counting them.
                self.buf = Vec::new();
            }
            self.inner.consume(if done { take + 1 } else { take });
            if done {
                break;
            }
        }
        self.line_no += 1;
        if total > self.max as u64 {
            return Ok(Some((self.line_no, RawLine::TooLong { bytes: total })));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(Some((self.line_no, RawLine::Bytes(&self.buf))))
    }

    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        loop {
            match self.inner.fill_buf() {
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        self.inner.fill_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(u64, Result<Vec<u8>, u64>)> {
        let mut reader = LineReader::new(input, max);
        let mut out = Vec::new();
        while let Some((n, line)) = reader.next_line().unwrap() {
            out.push((
                n,
                match line {
                    RawLine::Bytes(b) => Ok(b.to_vec()),
                    RawLine::TooLong { bytes } => Err(bytes),
                },
            ));
        }
        out
    }

    #[test]
    fn splits_lines_and_strips_cr() {
        let got = lines(b"a\r\n\nbc\nd", 10);
        assert_eq!(
            got,
            vec![
                (1, Ok(b"a".to_vec())),
                (2, Ok(b"".to_vec())),
                (3, Ok(b"bc".to_vec())),
                (4, Ok(b"d".to_vec())),
            ]
        );
    }

    #[test]
    fn long_lines_are_skipped_not_buffered() {
        let got = lines(b"abcdef\nxy\n", 3);
        assert_eq!(got, vec![(1, Err(6)), (2, Ok(b"xy".to_vec()))]);
    }

    #[test]
    fn long_lines_across_small_reads() {
        let data = b"0123456789\nok\n";
        let reader = io::BufReader::with_capacity(2, &data[..]);
        let mut lr = LineReader::new(reader, 4);
        assert_eq!(
            lr.next_line().unwrap(),
            Some((1, RawLine::TooLong { bytes: 10 }))
        );
        assert_eq!(lr.next_line().unwrap(), Some((2, RawLine::Bytes(b"ok"))));
        assert_eq!(lr.next_line().unwrap(), None);
    }
}
