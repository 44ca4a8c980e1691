//! The HTTP/1.1 side: the request we send and an incremental response parser.
//!
//! The parser is fed whatever `read` returned, in any split: a head cut in the middle, a body
//! spread over several reads, or several responses in one read (pipelining). A response is
//! complete after its head (ending in CRLFCRLF) and `Content-Length` body bytes. Anything that
//! is not `HTTP/1.1 200` with a `Content-Length` is an error, which the load generator counts as
//! `mismatch`.

use std::fmt;

/// Longest response head accepted (the servers' own request-head limit is 8 KiB too).
pub const MAX_HEAD_BYTES: usize = 8 * 1024;

/// Most header lines accepted in one response head.
const MAX_HEADERS: usize = 32;

/// The request sent on every connection: `GET /` with a `Host` header, keep-alive (HTTP/1.1).
pub fn request(host: &str, port: u16) -> Vec<u8> {
    let host = if host.contains(':') {
        format!("[{host}]") // an IPv6 literal
    } else {
        host.to_string()
    };
    format!("GET / HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n").into_bytes()
}

/// Why a response was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HttpError {
    /// The bytes are not an HTTP/1.x response head.
    Malformed(String),
    /// The head grew past [`MAX_HEAD_BYTES`] without ending.
    HeadTooLarge,
    /// A well-formed response, but not `HTTP/1.1 200`.
    Status {
        version: u8,
        code: u16,
        reason: String,
    },
    /// No `Content-Length` header, so the body's end is unknown.
    NoContentLength,
    /// A `Content-Length` that is not a number, or two that disagree.
    BadContentLength(String),
    /// `Transfer-Encoding` (e.g. chunked) is not supported.
    TransferEncoding(String),
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HttpError::Malformed(why) => write!(f, "not an HTTP response ({why})"),
            HttpError::HeadTooLarge => {
                write!(f, "response head longer than {MAX_HEAD_BYTES} bytes")
            }
            HttpError::Status {
                version,
                code,
                reason,
            } => write!(
                f,
                "expected status line \"HTTP/1.1 200\", got \"HTTP/1.{version} {code} {reason}\""
            ),
            HttpError::NoContentLength => write!(f, "response has no Content-Length header"),
            HttpError::BadContentLength(v) => write!(f, "bad Content-Length {v:?}"),
            HttpError::TransferEncoding(v) => {
                write!(f, "Transfer-Encoding {v:?} is not supported")
            }
        }
    }
}

impl std::error::Error for HttpError {}

/// What one call to [`ResponseParser::parse`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// A response ended after the first `consumed` bytes of the input; the rest, if any,
    /// belongs to the next response.
    Complete { consumed: usize },
    /// All input was used and the response is not complete yet.
    Partial,
}

/// Where the body bytes of the last [`ResponseParser::parse`] call were: `input` in that
/// call's input, starting at byte `at` of the response's body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodySpan {
    pub input: std::ops::Range<usize>,
    pub at: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Head,
    Body { remaining: u64, length: u64 },
}

/// Incremental parser for a stream of HTTP/1.1 responses. Reusable: after a complete response
/// it waits for the next head; [`reset`](Self::reset) starts over on a new connection.
#[derive(Debug)]
pub struct ResponseParser {
    state: State,
    /// Bytes of a head that arrived split over reads (empty in the common case).
    head: Vec<u8>,
    /// The body bytes the last call consumed, for a caller that checks them.
    last_body: BodySpan,
}

impl Default for ResponseParser {
    fn default() -> Self {
        Self::new()
    }
}

impl ResponseParser {
    pub fn new() -> Self {
        ResponseParser {
            state: State::Head,
            head: Vec::new(),
            last_body: BodySpan::default(),
        }
    }

    /// Forgets any partial response (for a new connection).
    pub fn reset(&mut self) {
        self.state = State::Head;
        self.head.clear();
    }

    /// The body bytes the last [`parse`](Self::parse) consumed (an empty range when none).
    pub fn last_body(&self) -> &BodySpan {
        &self.last_body
    }

    /// True when no partial response is pending.
    pub fn is_idle(&self) -> bool {
        self.state == State::Head && self.head.is_empty()
    }

    /// Feeds `data`; returns where the current response ended, or that more is needed.
    /// Call again with the remaining bytes after a [`Parsed::Complete`].
    pub fn parse(&mut self, data: &[u8]) -> Result<Parsed, HttpError> {
        self.last_body = BodySpan::default();
        match self.state {
            State::Body { remaining, length } => Ok(self.body(data, 0, remaining, length)),
            State::Head if self.head.is_empty() => match parse_head(data)? {
                Some((head_len, body_len)) => {
                    Ok(self.body(&data[head_len..], head_len, body_len, body_len))
                }
                None => {
                    if data.len() > MAX_HEAD_BYTES {
                        return Err(HttpError::HeadTooLarge);
                    }
                    self.head.extend_from_slice(data);
                    Ok(Parsed::Partial)
                }
            },
            State::Head => {
                // Continue a split head: append at most what could still be part of it.
                let before = self.head.len();
                let take = data.len().min(MAX_HEAD_BYTES + 1 - before);
                self.head.extend_from_slice(&data[..take]);
                match parse_head(&self.head)? {
                    Some((head_len, body_len)) => {
                        self.head.clear();
                        let used = head_len - before;
                        Ok(self.body(&data[used..], used, body_len, body_len))
                    }
                    None if self.head.len() > MAX_HEAD_BYTES => Err(HttpError::HeadTooLarge),
                    None => Ok(Parsed::Partial),
                }
            }
        }
    }

    /// Consumes body bytes from `rest` (which starts `offset` bytes into the caller's input)
    /// of a body of `length` bytes, `remaining` of them still to come.
    fn body(&mut self, rest: &[u8], offset: usize, remaining: u64, length: u64) -> Parsed {
        let available = rest.len() as u64;
        let taken = available.min(remaining) as usize;
        self.last_body = BodySpan {
            input: offset..offset + taken,
            at: length - remaining,
        };
        if available >= remaining {
            self.state = State::Head;
            Parsed::Complete {
                consumed: offset + taken,
            }
        } else {
            self.state = State::Body {
                remaining: remaining - available,
                length,
            };
            Parsed::Partial
        }
    }
}

/// Parses a complete head at the start of `buf`: `Some((head_len, content_length))`, or
/// `None` when the head has not ended yet.
fn parse_head(buf: &[u8]) -> Result<Option<(usize, u64)>, HttpError> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut response = httparse::Response::new(&mut headers);
    let head_len = match response.parse(buf) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => return Err(HttpError::Malformed(e.to_string())),
    };
    let version = response.version.unwrap_or(0);
    let code = response.code.unwrap_or(0);
    if version != 1 || code != 200 {
        return Err(HttpError::Status {
            version,
            code,
            reason: response.reason.unwrap_or("").to_string(),
        });
    }
    let mut length: Option<u64> = None;
    for h in response.headers.iter() {
        if h.name.eq_ignore_ascii_case("content-length") {
            let text = String::from_utf8_lossy(h.value);
            let value = parse_length(h.value)
                .ok_or_else(|| HttpError::BadContentLength(text.to_string()))?;
            if length.is_some_and(|l| l != value) {
                return Err(HttpError::BadContentLength(text.to_string()));
            }
            length = Some(value);
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            let text = String::from_utf8_lossy(h.value);
            return Err(HttpError::TransferEncoding(text.to_string()));
        }
    }
    match length {
        Some(l) => Ok(Some((head_len, l))),
        None => Err(HttpError::NoContentLength),
    }
}

/// A decimal Content-Length (surrounding spaces allowed), at most 2^62.
fn parse_length(v: &[u8]) -> Option<u64> {
    let v = v.trim_ascii();
    if v.is_empty() || v.len() > 18 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(v.iter().fold(0u64, |acc, d| acc * 10 + u64::from(d - b'0')))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &[u8] =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, world!";

    /// Feeds `chunks` one by one; returns how many responses completed, and any leftover
    /// (bytes after the last complete response are fed again, as the load generator does).
    fn feed_all(p: &mut ResponseParser, chunks: &[&[u8]]) -> Result<usize, HttpError> {
        let mut complete = 0;
        for chunk in chunks {
            let mut rest: &[u8] = chunk;
            while !rest.is_empty() {
                match p.parse(rest)? {
                    Parsed::Complete { consumed } => {
                        complete += 1;
                        rest = &rest[consumed..];
                    }
                    Parsed::Partial => break,
                }
            }
        }
        Ok(complete)
    }

    #[test]
    fn request_has_host_and_ends_in_blank_line() {
        assert_eq!(
            request("127.0.0.1", 9000),
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1:9000\r\n\r\n"
        );
        assert_eq!(
            request("::1", 80),
            b"GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n"
        );
    }

    #[test]
    fn whole_response_in_one_read() {
        let mut p = ResponseParser::new();
        assert_eq!(
            p.parse(OK).unwrap(),
            Parsed::Complete { consumed: OK.len() }
        );
        assert!(p.is_idle());
    }

    #[test]
    fn every_split_point_works() {
        for cut in 0..=OK.len() {
            let mut p = ResponseParser::new();
            let (a, b) = OK.split_at(cut);
            assert_eq!(feed_all(&mut p, &[a, b]).unwrap(), 1, "cut at {cut}");
            assert!(p.is_idle(), "cut at {cut}");
        }
    }

    #[test]
    fn byte_by_byte() {
        let mut p = ResponseParser::new();
        let chunks: Vec<&[u8]> = OK.chunks(1).collect();
        assert_eq!(feed_all(&mut p, &chunks).unwrap(), 1);
    }

    #[test]
    fn pipelined_responses_in_one_read_and_split_across_reads() {
        let three = [OK, OK, OK].concat();
        let mut p = ResponseParser::new();
        assert_eq!(
            p.parse(&three).unwrap(),
            Parsed::Complete { consumed: OK.len() }
        );
        assert_eq!(feed_all(&mut p, &[&three[OK.len()..]]).unwrap(), 2);
        // Split in the second response's head.
        let mut p = ResponseParser::new();
        let cut = OK.len() + 20;
        assert_eq!(
            feed_all(&mut p, &[&three[..cut], &three[cut..]]).unwrap(),
            3
        );
    }

    #[test]
    fn the_body_bytes_of_each_call_are_told_with_where_in_the_body_they_are() {
        let mut p = ResponseParser::new();
        let head = b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n";
        let mut first = head.to_vec();
        first.extend_from_slice(b"0123");
        assert_eq!(p.parse(&first).unwrap(), Parsed::Partial);
        let span = p.last_body().clone();
        assert_eq!((span.input, span.at), (head.len()..head.len() + 4, 0));
        assert_eq!(
            p.parse(b"456789HTTP").unwrap(),
            Parsed::Complete { consumed: 6 }
        );
        let span = p.last_body().clone();
        assert_eq!((span.input, span.at), (0..6, 4));
        // A call that ends in a head tells an empty span.
        assert_eq!(p.parse(b"HTTP/1.1 200").unwrap(), Parsed::Partial);
        assert!(p.last_body().input.is_empty());
    }

    #[test]
    fn empty_body_and_large_body() {
        let mut p = ResponseParser::new();
        let empty = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
        assert_eq!(
            p.parse(empty).unwrap(),
            Parsed::Complete {
                consumed: empty.len()
            }
        );
        let head = b"HTTP/1.1 200 OK\r\ncontent-length:  100000 \r\n\r\n";
        let body = vec![b'x'; 100_000];
        let mut p = ResponseParser::new();
        let chunks: Vec<&[u8]> = std::iter::once(&head[..])
            .chain(body.chunks(4096))
            .collect();
        assert_eq!(feed_all(&mut p, &chunks).unwrap(), 1);
    }

    #[test]
    fn non_200_is_an_error_naming_the_status() {
        let mut p = ResponseParser::new();
        let err = p
            .parse(b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\n\r\n")
            .unwrap_err();
        assert!(matches!(err, HttpError::Status { code: 431, .. }));
        assert!(err.to_string().contains("431"), "{err}");
        let err = ResponseParser::new()
            .parse(b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")
            .unwrap_err();
        assert!(matches!(err, HttpError::Status { version: 0, .. }));
    }

    #[test]
    fn malformed_responses_are_errors() {
        // An echo server answering our request with the request itself.
        let err = ResponseParser::new()
            .parse(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap_err();
        assert!(matches!(err, HttpError::Malformed(_)), "{err:?}");
        assert!(matches!(
            ResponseParser::new().parse(b"\x00\x01garbage\r\n\r\n"),
            Err(HttpError::Malformed(_))
        ));
        assert_eq!(
            ResponseParser::new().parse(b"HTTP/1.1 200 OK\r\n\r\n"),
            Err(HttpError::NoContentLength)
        );
        assert!(matches!(
            ResponseParser::new().parse(b"HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n"),
            Err(HttpError::BadContentLength(_))
        ));
        assert!(matches!(
            ResponseParser::new()
                .parse(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            Err(HttpError::BadContentLength(_))
        ));
        assert!(matches!(
            ResponseParser::new().parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Err(HttpError::TransferEncoding(_))
        ));
    }

    #[test]
    fn endless_head_is_rejected_in_one_read_or_many() {
        let long = [
            &b"HTTP/1.1 200 OK\r\nX-Long: "[..],
            &vec![b'a'; MAX_HEAD_BYTES][..],
        ]
        .concat();
        assert_eq!(
            ResponseParser::new().parse(&long),
            Err(HttpError::HeadTooLarge)
        );
        let mut p = ResponseParser::new();
        let mut result = Ok(Parsed::Partial);
        for chunk in long.chunks(1000) {
            result = p.parse(chunk);
            if result.is_err() {
                break;
            }
        }
        assert_eq!(result, Err(HttpError::HeadTooLarge));
    }

    #[test]
    fn reset_forgets_a_partial_response() {
        let mut p = ResponseParser::new();
        assert_eq!(p.parse(&OK[..10]).unwrap(), Parsed::Partial);
        assert!(!p.is_idle());
        p.reset();
        assert!(p.is_idle());
        assert_eq!(feed_all(&mut p, &[OK]).unwrap(), 1);
    }
}
