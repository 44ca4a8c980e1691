//! The two wire protocols every C10K Lab server speaks, as pure functions.
//!
//! This is a port of `servers/c/protocol.c` (its `conn_feed` and the buffers behind it), so
//! that a Rust server answers byte for byte like the C servers: the same echo, the same fixed
//! HTTP responses, the same pipelining, `Connection: close` and HTTP/1.0 rules, the same
//! 8 KiB limit on a request head. Nothing in here makes a system call: an I/O model reads
//! some bytes, hands them to [`feed`], and writes out what it gets back.
//!
//! ```
//! use servers::protocol::{Conn, Protocol, feed};
//!
//! let mut conn = Conn::new(Protocol::Http);
//! let reply = feed(&mut conn, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
//! assert!(reply.starts_with(b"HTTP/1.1 200 OK\r\n"));
//! let n = reply.len();
//! conn.output_sent(n); // all of it was written to the socket
//! assert_eq!(conn.output_pending(), 0);
//! ```
//!
//! Simplifications (as in protocol.c): HTTP requests are taken to have no body (GET-style),
//! and every request gets the same small response, whatever it asked for.

/// Longer request heads get `431 Request Header Fields Too Large` and a close.
pub const HTTP_MAX_HEAD_BYTES: usize = 8192;
/// An emptied buffer whose allocation is bigger than this is freed, so that the memory a
/// burst needed goes back and idle connections stay small.
const BUFFER_KEEP_BYTES: usize = 65536;

/// The body every HTTP request gets.
pub const HTTP_BODY: &[u8] = b"Hello from C10K Lab\n";

/// The response to a request that keeps the connection open.
pub const HTTP_200_KEEP_ALIVE: &[u8] = b"HTTP/1.1 200 OK\r\n\
Server: c10klab\r\n\
Content-Type: text/plain\r\n\
Content-Length: 20\r\n\
Connection: keep-alive\r\n\
\r\n\
Hello from C10K Lab\n";

/// The response to a request after which the connection closes.
pub const HTTP_200_CLOSE: &[u8] = b"HTTP/1.1 200 OK\r\n\
Server: c10klab\r\n\
Content-Type: text/plain\r\n\
Content-Length: 20\r\n\
Connection: close\r\n\
\r\n\
Hello from C10K Lab\n";

/// The response to a request head over [`HTTP_MAX_HEAD_BYTES`] (RFC 6585); then we close.
pub const HTTP_431: &[u8] = b"HTTP/1.1 431 Request Header Fields Too Large\r\n\
Server: c10klab\r\n\
Content-Type: text/plain\r\n\
Content-Length: 23\r\n\
Connection: close\r\n\
\r\n\
request head too large\n";

/// Which protocol a server speaks (`--protocol echo|http`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    /// Every byte read is written back, in order.
    Echo,
    /// Each request head gets one fixed `200 OK` (keep-alive).
    Http,
}

impl Protocol {
    /// The name used on the command line and in the start-up line.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Echo => "echo",
            Protocol::Http => "http",
        }
    }
}

/// A byte queue: `data[start..]` holds the bytes not yet consumed.
#[derive(Debug, Default)]
struct Buffer {
    data: Vec<u8>,
    start: usize,
}

impl Buffer {
    fn len(&self) -> usize {
        self.data.len() - self.start
    }

    fn bytes(&self) -> &[u8] {
        &self.data[self.start..]
    }

    /// Appends bytes, first reusing the space at the front that has already been consumed.
    fn append(&mut self, bytes: &[u8]) {
        if self.data.capacity() - self.data.len() < bytes.len() && self.start > 0 {
            self.data.drain(..self.start);
            self.start = 0;
        }
        self.data.extend_from_slice(bytes);
    }

    /// Drops the first `n` bytes.
    fn consume(&mut self, n: usize) {
        self.start += n;
        if self.start == self.data.len() {
            self.data.clear();
            self.start = 0;
            if self.data.capacity() > BUFFER_KEEP_BYTES {
                self.free();
            }
        }
    }

    fn free(&mut self) {
        *self = Buffer::default();
    }

    /// The unconsumed bytes as a vector of their own, leaving `spare` (emptied) in their place.
    fn take(&mut self, mut spare: Vec<u8>) -> Vec<u8> {
        if self.start > 0 {
            self.data.drain(..self.start);
            self.start = 0;
        }
        spare.clear();
        std::mem::replace(&mut self.data, spare)
    }
}

/// One client connection's protocol state: what has been read of a request head so far, the
/// replies waiting to be sent, and whether the connection is on its way out.
#[derive(Debug)]
pub struct Conn {
    protocol: Protocol,
    /// http: the part of a request head read so far.
    input: Buffer,
    /// Bytes waiting to be sent, oldest first.
    output: Buffer,
    /// http: bytes of `input` already searched for CRLFCRLF.
    scanned: usize,
    /// http: send what is queued, then close ("Connection: close", HTTP/1.0, or 431).
    close_after_output: bool,
    /// The client shut its sending side: a read returned 0. Set by the I/O model.
    pub read_eof: bool,
    /// `shutdown(SHUT_WR)` done: nothing more will be sent. Set by the I/O model.
    pub output_shut: bool,
}

impl Conn {
    pub fn new(protocol: Protocol) -> Conn {
        Conn {
            protocol,
            input: Buffer::default(),
            output: Buffer::default(),
            scanned: 0,
            close_after_output: false,
            read_eof: false,
            output_shut: false,
        }
    }

    /// Output waiting to be sent. After sending some of it, say how much with
    /// [`Conn::output_sent`].
    pub fn output(&self) -> &[u8] {
        self.output.bytes()
    }

    pub fn output_pending(&self) -> usize {
        self.output.len()
    }

    /// `n` bytes of [`Conn::output`] have been handed to the kernel.
    pub fn output_sent(&mut self, n: usize) {
        self.output.consume(n);
    }

    /// All pending output as a vector of its own, for an I/O model that must keep the bytes
    /// of a send in flight untouched while [`feed`] queues more (io_uring). `spare`, emptied,
    /// becomes the new output queue, so two vectors can take turns without allocating.
    pub fn take_output(&mut self, spare: Vec<u8>) -> Vec<u8> {
        self.output.take(spare)
    }

    /// http: the last response is queued; once it is sent, shut down the sending side and
    /// discard input until the client closes.
    pub fn close_after_output(&self) -> bool {
        self.close_after_output
    }

    /// True when the last response has gone out and `shutdown(SHUT_WR)` is due. Closing at
    /// once instead, with unread input, would make the kernel send a reset, which can
    /// destroy the response before the client has read it.
    pub fn should_shut_output(&self) -> bool {
        self.close_after_output && !self.output_shut && self.output_pending() == 0
    }

    /// True once there is nothing left to do: the client has stopped sending and all is sent.
    pub fn finished(&self) -> bool {
        self.read_eof && self.output_pending() == 0
    }
}

/// The protocol: consume bytes read from the client and queue the reply. Echo queues the
/// bytes themselves. HTTP queues one response per complete request head, and stops (sets
/// `close_after_output`) after `Connection: close`, an HTTP/1.0 request without keep-alive,
/// or a head over 8 KiB. Returns everything now waiting to be sent.
pub fn feed<'c>(conn: &'c mut Conn, data: &[u8]) -> &'c [u8] {
    match conn.protocol {
        Protocol::Echo => echo_feed(conn, data),
        Protocol::Http => http_feed(conn, data),
    }
    conn.output()
}

// ANCHOR: echo
/// Echo: every byte read goes back to the client, in order.
fn echo_feed(conn: &mut Conn, data: &[u8]) {
    conn.output.append(data);
}
// ANCHOR_END: echo

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Does `s` contain `word`, ignoring ASCII case?
fn contains_word(s: &[u8], word: &[u8]) -> bool {
    s.windows(word.len()).any(|w| w.eq_ignore_ascii_case(word))
}

/// Should the connection stay open after answering this request head (which ends in
/// CRLFCRLF)? HTTP/1.1 keeps it open unless the client sends "Connection: close";
/// HTTP/1.0 closes it unless the client sends "Connection: keep-alive".
fn http_keep_alive(head: &[u8]) -> bool {
    let line_end = find(head, b"\r\n").expect("a request head ends with CRLFCRLF");
    let mut keep_alive = !(line_end >= 8 && &head[line_end - 8..line_end] == b"HTTP/1.0");

    let mut line = line_end + 2;
    while line < head.len() {
        let n = find(&head[line..], b"\r\n").expect("every header line ends with CRLF");
        let text = &head[line..line + n];
        if n > 11 && text[..11].eq_ignore_ascii_case(b"Connection:") {
            if contains_word(&text[11..], b"close") {
                keep_alive = false;
            } else if contains_word(&text[11..], b"keep-alive") {
                keep_alive = true;
            }
        }
        line += n + 2;
    }
    keep_alive
}

/// A request head over [`HTTP_MAX_HEAD_BYTES`]: answer 431 (RFC 6585) and close.
fn http_reject(conn: &mut Conn) {
    conn.input.free();
    conn.scanned = 0;
    conn.close_after_output = true;
    conn.output.append(HTTP_431);
}

// ANCHOR: http
/// HTTP: collect bytes until a request head ends with an empty line (CRLFCRLF), then
/// queue one fixed response. Several requests may arrive in one read (pipelining) and
/// one request may arrive over several reads; either way the answers go out in order.
fn http_feed(conn: &mut Conn, data: &[u8]) {
    if conn.close_after_output {
        return; // already queued the last answer: ignore the rest
    }
    conn.input.append(data);

    loop {
        // Empty lines before a request are allowed and ignored (RFC 9112, 2.2).
        while let Some(b'\r' | b'\n') = conn.input.bytes().first() {
            conn.input.consume(1);
        }
        let available = conn.input.len();
        if available == 0 {
            return;
        }

        let from = conn.scanned.saturating_sub(3); // CRLFCRLF may span two reads
        let Some(blank_line) = find(&conn.input.bytes()[from..], b"\r\n\r\n") else {
            conn.scanned = available;
            if available > HTTP_MAX_HEAD_BYTES {
                http_reject(conn);
            }
            return; // wait for the rest of the head
        };

        let head_bytes = from + blank_line + 4;
        if head_bytes > HTTP_MAX_HEAD_BYTES {
            http_reject(conn);
            return;
        }
        let keep_alive = http_keep_alive(&conn.input.bytes()[..head_bytes]);
        conn.output.append(if keep_alive {
            HTTP_200_KEEP_ALIVE
        } else {
            HTTP_200_CLOSE
        });
        conn.input.consume(head_bytes);
        conn.scanned = 0;

        if !keep_alive {
            conn.close_after_output = true;
            conn.input.free();
            return;
        }
    }
}
// ANCHOR_END: http

#[cfg(test)]
mod tests {
    use super::*;

    const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";

    fn http() -> Conn {
        Conn::new(Protocol::Http)
    }

    /// Feeds every chunk and returns all the output, marking it sent.
    fn run(conn: &mut Conn, chunks: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for chunk in chunks {
            out.extend_from_slice(feed(conn, chunk));
            let n = conn.output_pending();
            conn.output_sent(n);
        }
        out
    }

    fn head_of_size(total: usize) -> Vec<u8> {
        let mut head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ".to_vec();
        head.resize(total - 4, b'a');
        head.extend_from_slice(b"\r\n\r\n");
        head
    }

    #[test]
    fn responses_match_protocol_c_byte_for_byte() {
        // The literals protocol.c builds with STRINGIFY(HTTP_BODY_BYTES).
        assert_eq!(HTTP_BODY.len(), 20);
        let content_length = |r: &[u8]| {
            let text = std::str::from_utf8(r).unwrap();
            let (head, body) = text.split_once("\r\n\r\n").unwrap();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .unwrap()
                .parse()
                .unwrap();
            (length, body.len())
        };
        for response in [HTTP_200_KEEP_ALIVE, HTTP_200_CLOSE, HTTP_431] {
            let (length, body) = content_length(response);
            assert_eq!(length, body);
        }
        assert_eq!(HTTP_200_KEEP_ALIVE.len(), 126);
        assert_eq!(HTTP_200_CLOSE.len(), 121);
        assert_eq!(HTTP_431.len(), 153);
        assert!(HTTP_200_CLOSE.ends_with(HTTP_BODY));
        assert!(HTTP_431.ends_with(b"\r\n\r\nrequest head too large\n"));
    }

    #[test]
    fn echo_returns_every_byte_in_order() {
        let mut conn = Conn::new(Protocol::Echo);
        assert_eq!(feed(&mut conn, b"hello "), b"hello ");
        assert_eq!(feed(&mut conn, b"world"), b"hello world");
        conn.output_sent(3);
        assert_eq!(conn.output(), b"lo world");
        assert!(!conn.finished());
        conn.read_eof = true;
        conn.output_sent(8);
        assert!(conn.finished());
        assert!(!conn.should_shut_output(), "echo never shuts down early");
    }

    #[test]
    fn echo_keeps_order_across_partial_sends_and_compaction() {
        let mut conn = Conn::new(Protocol::Echo);
        let mut expected = Vec::new();
        let mut sent = Vec::new();
        for i in 0..2000u32 {
            let chunk: Vec<u8> = (0..(i % 97) as u8).map(|b| b ^ i as u8).collect();
            expected.extend_from_slice(&chunk);
            feed(&mut conn, &chunk);
            let n = conn.output_pending() / 3;
            sent.extend_from_slice(&conn.output()[..n]);
            conn.output_sent(n);
        }
        sent.extend_from_slice(conn.output());
        assert_eq!(sent, expected);
    }

    #[test]
    fn one_request_gets_one_keep_alive_response() {
        let mut conn = http();
        assert_eq!(feed(&mut conn, GET), HTTP_200_KEEP_ALIVE);
        assert!(!conn.close_after_output());
    }

    #[test]
    fn pipelined_requests_are_answered_in_order() {
        let mut conn = http();
        let mut stream = GET.repeat(20);
        stream.extend_from_slice(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
        stream.extend_from_slice(GET); // after the close: ignored
        let mut expected = HTTP_200_KEEP_ALIVE.repeat(20);
        expected.extend_from_slice(HTTP_200_CLOSE);
        assert_eq!(feed(&mut conn, &stream), expected);
        assert!(conn.close_after_output());
        assert!(
            feed(&mut conn, GET).ends_with(HTTP_200_CLOSE),
            "input after close ignored"
        );
        assert_eq!(conn.output_pending(), expected.len());
    }

    #[test]
    fn a_request_split_anywhere_is_still_one_request() {
        let mut stream = Vec::new();
        for i in 0..5 {
            stream.extend_from_slice(
                format!("GET /{i} HTTP/1.1\r\nX-Pad: {}\r\n\r\n", "p".repeat(i * 7)).as_bytes(),
            );
        }
        let expected = HTTP_200_KEEP_ALIVE.repeat(5);
        for cut in 1..stream.len() {
            let mut conn = http();
            assert_eq!(
                run(&mut conn, &[&stream[..cut], &stream[cut..]]),
                expected,
                "cut at {cut}"
            );
        }
        let mut conn = http();
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(run(&mut conn, &bytes), expected, "one byte at a time");
    }

    #[test]
    fn empty_lines_before_a_request_are_ignored() {
        let mut conn = http();
        assert_eq!(
            run(&mut conn, &[b"\r\n\r\n\n", GET, b"\r\n", GET]),
            HTTP_200_KEEP_ALIVE.repeat(2)
        );
    }

    #[test]
    fn connection_header_rules() {
        let cases: [(&[u8], bool); 7] = [
            (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", true),
            (b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", false),
            (b"GET / HTTP/1.1\r\nconnection: CLOSE\r\n\r\n", false),
            (b"GET / HTTP/1.0\r\nHost: x\r\n\r\n", false),
            (b"GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", true),
            (b"GET / HTTP/1.0\r\n\r\n", false),
            // "Connection:" with nothing after it is too short to count (n > 11 in protocol.c).
            (b"GET / HTTP/1.0\r\nConnection:\r\n\r\n", false),
        ];
        for (request, stays_open) in cases {
            let mut conn = http();
            let reply = feed(&mut conn, request).to_vec();
            let expected = if stays_open {
                HTTP_200_KEEP_ALIVE
            } else {
                HTTP_200_CLOSE
            };
            assert_eq!(reply, expected, "{}", String::from_utf8_lossy(request));
            assert_eq!(conn.close_after_output(), !stays_open);
        }
    }

    #[test]
    fn a_head_at_the_limit_is_served_one_byte_more_gets_431() {
        let mut conn = http();
        let mut stream = head_of_size(HTTP_MAX_HEAD_BYTES);
        stream.extend_from_slice(GET);
        assert_eq!(feed(&mut conn, &stream), HTTP_200_KEEP_ALIVE.repeat(2));

        for total in [HTTP_MAX_HEAD_BYTES + 1, 9000, 64 * 1024] {
            let mut conn = http();
            assert_eq!(feed(&mut conn, &head_of_size(total)), HTTP_431, "{total}");
            assert!(conn.close_after_output());
            assert!(conn.should_shut_output() || conn.output_pending() > 0);
        }
    }

    #[test]
    fn a_head_that_never_ends_gets_431_once_it_passes_the_limit() {
        let mut conn = http();
        let mut start = b"GET / HTTP/1.1\r\nX-Endless: ".to_vec();
        start.resize(HTTP_MAX_HEAD_BYTES, b'b');
        assert_eq!(
            feed(&mut conn, &start),
            b"",
            "8192 bytes without an end: still waiting"
        );
        assert_eq!(feed(&mut conn, b"b"), HTTP_431);
        assert_eq!(
            feed(&mut conn, &[b'b'; 20_000]),
            HTTP_431,
            "the rest is discarded"
        );
    }

    #[test]
    fn after_the_last_response_the_output_is_shut_then_the_connection_finishes() {
        let mut conn = http();
        let n = feed(&mut conn, b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n").len();
        assert!(
            !conn.should_shut_output(),
            "not before the response is sent"
        );
        conn.output_sent(n);
        assert!(conn.should_shut_output());
        conn.output_shut = true;
        assert!(!conn.should_shut_output());
        assert!(!conn.finished(), "drain until the client closes");
        conn.read_eof = true;
        assert!(conn.finished());
    }

    #[test]
    fn take_output_swaps_buffers_without_losing_bytes() {
        let mut conn = Conn::new(Protocol::Echo);
        feed(&mut conn, b"abcdef");
        conn.output_sent(2);
        let spare = b"old bytes".to_vec();
        let taken = conn.take_output(spare);
        assert_eq!(taken, b"cdef");
        assert_eq!(conn.output_pending(), 0);
        assert_eq!(feed(&mut conn, b"gh"), b"gh");
    }

    #[test]
    fn big_buffers_are_given_back_once_empty() {
        let mut conn = Conn::new(Protocol::Echo);
        feed(&mut conn, &vec![7; 1 << 20]);
        conn.output_sent(1 << 20);
        assert_eq!(conn.output.data.capacity(), 0);
        feed(&mut conn, &[1; 100]);
        conn.output_sent(100);
        assert!(conn.output.data.capacity() > 0, "small buffers are kept");
    }
}
