//! Files of puzzles, one per line (`batch`, `rate FILE`), read so that nothing is lost.
//!
//! Lines are read as bytes. A byte-order mark at the start and a `\r` before each newline are
//! dropped (a file saved on Windows reads as it does elsewhere); blank lines and lines starting
//! with `#` are skipped. A line that is not UTF-8, or longer than [`MAX_LINE_BYTES`], does not
//! stop the file: it comes out as a bad [`Line`] with its number (its bytes are skipped without
//! being kept), so the commands answer it with `invalid: line N: ...` in its place and go on
//! with the lines after it.

use std::io::{self, BufRead};

use anydoku::{Error, Location};

/// The longest line read (a 49x49 Killer as one JSON line is about 600 kB).
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// One line of a file: its 1-based number and its text, or why it cannot be read.
#[derive(Debug)]
pub struct Line {
    pub number: usize,
    pub text: Result<String, Error>,
}

impl Line {
    /// The answer for this line when `error` says what is wrong with it: `line N: message`, or
    /// `line N, column C: message` when the error knows where in the line.
    pub fn invalid(&self, error: &Error) -> String {
        match error.location() {
            Some(at) if at.line == 1 => {
                format!("line {}, column {}: {error}", self.number, at.column)
            }
            _ => format!("line {}: {error}", self.number),
        }
    }

    /// Where `error` is, for stderr: `N:C` or `N`.
    pub fn place(&self, error: Option<&Error>) -> String {
        match error.and_then(Error::location) {
            Some(at) if at.line == 1 => format!("{}:{}", self.number, at.column),
            _ => self.number.to_string(),
        }
    }
}

/// The puzzle lines of a reader, in order (see the module docs).
pub struct Lines<R> {
    reader: R,
    number: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    pub fn new(reader: R) -> Self {
        Lines {
            reader,
            number: 0,
            buf: Vec::new(),
        }
    }

    /// Reads the next line into `buf` (without its newline); `Ok(None)` at the end, `Ok(Some(
    /// false))` for a line longer than [`MAX_LINE_BYTES`] (`buf` then holds its start only).
    fn read(&mut self) -> io::Result<Option<bool>> {
        self.buf.clear();
        let mut any = false;
        let mut fits = true;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(any.then_some(fits));
            }
            any = true;
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            let room = MAX_LINE_BYTES.saturating_sub(self.buf.len());
            fits &= take <= room;
            self.buf.extend_from_slice(&chunk[..take.min(room)]);
            self.reader.consume(take + done as usize);
            if done {
                return Ok(Some(fits));
            }
        }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let fits = match self.read() {
                Ok(Some(fits)) => fits,
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            };
            self.number += 1;
            let mut bytes = &self.buf[..];
            if self.number == 1 {
                bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
            }
            bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            let number = self.number;
            let bad = |message: String, column: usize| Line {
                number,
                text: Err(Error::Syntax {
                    message,
                    location: Some(Location { line: 1, column }),
                }),
            };
            if !fits {
                return Some(Ok(bad(
                    format!("the line is longer than {MAX_LINE_BYTES} bytes (the limit)"),
                    1,
                )));
            }
            let text = match std::str::from_utf8(bytes) {
                Ok(t) => t,
                Err(e) => {
                    let good = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or("");
                    return Some(Ok(bad(
                        "the line is not UTF-8 text".into(),
                        good.chars().count() + 1,
                    )));
                }
            };
            let t = text.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            return Some(Ok(Line {
                number,
                text: Ok(text.to_string()),
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<(usize, Result<String, String>)> {
        Lines::new(bytes)
            .map(|l| l.unwrap())
            .map(|l| {
                let text = l.text.as_ref().map_err(|e| l.invalid(e)).cloned();
                (l.number, text)
            })
            .collect()
    }

    #[test]
    fn bom_crlf_blank_and_comment_lines() {
        let got = lines(b"\xef\xbb\xbfabc\r\n\r\n# note\r\n  \ndef\r\nlast");
        assert_eq!(
            got,
            vec![
                (1, Ok("abc".to_string())),
                (5, Ok("def".to_string())),
                (6, Ok("last".to_string()))
            ]
        );
        // a BOM is only dropped at the start of the file
        let got = lines(b"a\n\xef\xbb\xbfb\n");
        assert_eq!(got[1], (2, Ok("\u{feff}b".to_string())));
    }

    #[test]
    fn a_bad_line_is_reported_in_place_and_the_rest_is_read() {
        let got = lines(b"good\nba\xffd\nmore\n");
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], (1, Ok("good".to_string())));
        assert_eq!(got[1].0, 2);
        assert_eq!(
            got[1].1,
            Err("line 2, column 3: the line is not UTF-8 text".to_string())
        );
        assert_eq!(got[2], (3, Ok("more".to_string())));
    }

    #[test]
    fn an_overlong_line_is_skipped_without_being_kept() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 10];
        text.extend_from_slice(b"\nnext\n");
        // a small buffer, so the line arrives in many chunks
        let reader = io::BufReader::with_capacity(4096, &text[..]);
        let got: Vec<Line> = Lines::new(reader).map(|l| l.unwrap()).collect();
        assert_eq!(got.len(), 2);
        assert!(got[0]
            .text
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains("longer than"));
        assert_eq!(got[1].text.as_deref().ok(), Some("next"));
        assert_eq!(got[1].number, 2);
    }
}
