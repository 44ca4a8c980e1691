//! `--check`: does the server answer correctly? Run before a learner's edited server is
//! benchmarked.
//!
//! A benchmark of a wrong server measures nothing: one that drops bytes, answers on the wrong
//! connection or ignores a pipelined request can look fast. The load checks every reply, but
//! only of its one request shape; these checks try, one at a time, the cases an edit to a
//! server most often breaks, and stop at the first failure with a message saying which
//! exchange it was and what came back.
//!
//! echo:
//! - `echo-sizes`: one connection; payloads of 1, 7, 1000, 65536 and 300000 random bytes, each
//!   written whole (from a second thread: the server echoes while we still write, and with both
//!   directions' buffers full a single thread would wait forever) and read back byte-exact.
//!   Catches a fixed-size buffer, a lost partial write, a short read taken for a whole one.
//! - `echo-idle-neighbour`: one connection answered once, then silent while three more come one
//!   after another, 100 ms apart, each answered and closed; then the silent one answered
//!   again. Catches a server that, once a client has gone, waits for another that is still
//!   there (a SIGCHLD handler that blocks in waitpid(), a pthread_join(), a blocking read).
//!   Skipped with `--connections 1`: a server that serves one client at a time is checked so.
//! - `echo-many-connections`: N connections open at once (N = min(--connections, 64)); five
//!   rounds of one random payload of 1..=4096 bytes written on every connection, then every
//!   reply read. Catches per-connection state kept in one place, replies on the wrong
//!   connection, and a server that serves one connection at a time.
//! - `echo-half-close`: 10000 bytes, then shutdown(SHUT_WR): all 10000 must come back, then
//!   end-of-stream. Catches a server that closes on read() == 0 before its output is sent, or
//!   never closes.
//! - `echo-slow-reader`: 16 MiB written while nothing is read, until the writes stall, then
//!   the whole echo read, each piece within `--timeout-ms` of the one before (a busy host
//!   moves 16 MiB slowly, but steadily). By then the server's writes have come back short
//!   (more was sent than its send buffer and our receive buffer hold): catches a server that
//!   keeps what it could not write but never asks to be told when it can write again
//!   (EPOLLOUT, POLLOUT): nothing more comes back at all.
//! - `echo-client-reset`: one connection answered once, then reset (SO_LINGER 0: an RST, not
//!   a FIN), then a new connection answered once. The server's read() of the reset one fails
//!   with ECONNRESET: catches a server that exits then, and (with the sanitized build a
//!   learner's server is checked with) one that uses the connection after closing it.
//!
//! http (every request is `GET / HTTP/1.1` with `Host: x`; a response must be `HTTP/1.1 200`
//! with a Content-Length and exactly that many body bytes, the course's body: [`HTTP_BODY`]
//! repeated):
//! - `http-one-request`: one request, one response, nothing after it. The response is read
//!   only 300 ms after the request, on a connection whose receive buffer is 4 KiB until then:
//!   a response larger than the server's send buffer (at most 4 MiB by default) cannot leave
//!   in one write() or sendfile(), so this catches a server that loses what a partial send
//!   left, or never asks to be told it can send again.
//! - `http-keep-alive`: 20 requests one after another on one connection, each answered, and
//!   the connection still open after (HTTP/1.1 keeps it open unless asked to close).
//! - `http-idle-neighbour`: as `echo-idle-neighbour`, one request per exchange.
//! - `http-pipelined`: 8 requests in one write, 8 complete responses (all responses to `GET /`
//!   are alike, so "in order" means: 8 whole responses, one after another, nothing else).
//!   Catches a server that answers one request per read().
//! - `http-many-connections`: N connections, 5 keep-alive requests each, interleaved as above.
//! - `http-connection-close`: a request with `Connection: close` gets its response, then
//!   end-of-stream.
//! - `http-client-reset`: as `echo-client-reset`, one request per exchange.
//!
//! Every read and write is bounded: each reply (or write, or connect; the slow reader's each
//! piece) must complete within `--timeout-ms`, and the whole check within [`BOUND`], so a
//! server that never answers fails
//! with "no reply within 5000 ms" instead of hanging the check.

use std::fmt::Display;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use socket2::{Domain, SockRef, Socket, Type};

use crate::cli::{Config, Protocol};
use crate::http::{Parsed, ResponseParser};
use crate::output::{CheckFailure, CheckReport, Line, emit};
use crate::quote;
use crate::ready;
use crate::rng::Rng;

/// Most connections the many-connections checks open at once: `--connections` above this
/// (its default, 100, included) is cut to it.
pub const MAX_CONNECTIONS: usize = 64;
/// The longest the checks may take together (the readiness wait not included).
pub const BOUND: Duration = Duration::from_secs(60);

/// The payload sizes of `echo-sizes`: a byte, less than a word, a typical message, a common
/// buffer size, and more than the socket buffers hold.
pub const ECHO_SIZES: [usize; 5] = [1, 7, 1000, 65_536, 300_000];
/// Payloads (echo) or requests (http) per connection in the many-connections checks.
const ROUNDS: usize = 5;
/// Largest payload of `echo-many-connections`.
const MANY_PAYLOAD_MAX: usize = 4096;
/// Bytes sent before the half-close.
const HALF_CLOSE_BYTES: usize = 10_000;
/// Bytes of `echo-slow-reader`: more than the most Linux lets the server's send buffer and
/// our receive buffer hold together (tcp_wmem's 4 MiB and tcp_rmem's 6 MiB by default).
const SLOW_READER_BYTES: usize = 16 << 20;
/// Written at a time by `echo-slow-reader`, counting progress in between.
const SLOW_READER_CHUNK: usize = 64 << 10;
/// How long `echo-slow-reader`'s writes must make no progress before it reads.
const STALL: Duration = Duration::from_millis(300);
/// Connections made one after another while another sits idle, in the idle-neighbour checks.
const NEIGHBOURS: usize = 3;
/// The pause before each of them: time for the server to see the one before end (its child
/// exit, its thread finish), so that what it does then happens before the next one comes.
const NEIGHBOUR_GAP: Duration = Duration::from_millis(100);
/// The receive buffer of `http-one-request`'s connection while it does not read: so small
/// that what the server can hand to the kernel is bounded by its own send buffer.
const SLOW_READER_RCVBUF: usize = 4096;
/// Requests of `http-keep-alive`.
const KEEP_ALIVE_REQUESTS: usize = 20;
/// Requests of `http-pipelined`, all in one write.
const PIPELINED_REQUESTS: usize = 8;
/// How long a connection must stay quiet after its last response: no bytes beyond the
/// Content-Length body, and (keep-alive) no close.
const QUIET_FOR: Duration = Duration::from_millis(100);

/// Most bytes of a response kept to quote it.
const KEPT_BYTES: usize = 4096;

/// Every 200's body: these bytes repeated to its Content-Length (the course's protocol, which
/// every server speaks; `--body-bytes` makes it longer).
pub const HTTP_BODY: &[u8] = b"Hello from C10K Lab\n";

/// The request of every HTTP check but the last.
pub const HTTP_REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";
/// The request of `http-connection-close`.
pub const HTTP_CLOSE_REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

/// One check: its name, what it does, and how many connections it needs open at once (a
/// server that serves fewer is not given it).
struct Check {
    name: &'static str,
    run: fn(&mut Session) -> Result<(), Problem>,
    at_once: usize,
}

const fn check(name: &'static str, run: fn(&mut Session) -> Result<(), Problem>) -> Check {
    Check {
        name,
        run,
        at_once: 1,
    }
}

/// The idle-neighbour checks hold one connection while making others.
const fn with_neighbour(name: &'static str, run: fn(&mut Session) -> Result<(), Problem>) -> Check {
    Check {
        name,
        run,
        at_once: 2,
    }
}

/// The echo checks, in the order they run. The idle neighbour comes second, before many
/// connections: once a server waits for a client that stays, every later check fails too,
/// and its own message says why.
const ECHO_CHECKS: [Check; 6] = [
    check("echo-sizes", echo_sizes),
    with_neighbour("echo-idle-neighbour", echo_idle_neighbour),
    check("echo-many-connections", echo_many_connections),
    check("echo-half-close", echo_half_close),
    check("echo-slow-reader", echo_slow_reader),
    check("echo-client-reset", echo_client_reset),
];

/// The HTTP checks, in the order they run. The one request first: it reads late, so a server
/// that loses what a partial send left fails it every time, and any later check only when
/// its reads happen to fall behind. The idle neighbour after keep-alive, which names a
/// server that closes after every response better than "the idle client" would.
const HTTP_CHECKS: [Check; 7] = [
    check("http-one-request", http_one_request),
    check("http-keep-alive", http_keep_alive),
    with_neighbour("http-idle-neighbour", http_idle_neighbour),
    check("http-pipelined", http_pipelined),
    check("http-many-connections", http_many_connections),
    check("http-connection-close", http_connection_close),
    check("http-client-reset", http_client_reset),
];

/// The names of `protocol`'s checks, in the order they run.
pub fn names(protocol: Protocol) -> Vec<&'static str> {
    checks(protocol).iter().map(|c| c.name).collect()
}

fn checks(protocol: Protocol) -> &'static [Check] {
    match protocol {
        Protocol::Echo => &ECHO_CHECKS,
        Protocol::Http => &HTTP_CHECKS,
    }
}

/// What to check, and how patiently.
#[derive(Clone, Debug)]
pub struct Options {
    pub protocol: Protocol,
    /// Connections open at once in the many-connections checks.
    pub connections: usize,
    /// Longest wait for one reply, write or connect.
    pub timeout: Duration,
    /// Longest time for all checks together.
    pub bound: Duration,
    /// Seeds the payloads and their sizes.
    pub seed: u64,
}

impl Options {
    /// The options of `--check` with `config`'s flags; payloads differ from run to run.
    pub fn new(config: &Config) -> Options {
        Options {
            protocol: config.protocol,
            connections: config.connections.min(MAX_CONNECTIONS),
            timeout: config.timeout,
            bound: BOUND,
            seed: Rng::from_clock().next_u64(),
        }
    }
}

/// `loadgen --check`: waits for the server, runs the checks, writes the one `check` line.
/// Returns the exit status: 0 when every check passed, 1 otherwise.
pub fn main(config: &Config, out: &mut dyn Write) -> i32 {
    let report = match ready_address(config) {
        Ok(addr) => run(addr, &Options::new(config)),
        Err(message) => {
            eprintln!("loadgen: not ready: {message}");
            CheckReport {
                ok: false,
                protocol: config.protocol,
                passed: Vec::new(),
                failed: Some(CheckFailure {
                    check: "ready",
                    message,
                    expected: None,
                    got: None,
                }),
            }
        }
    };
    if let Err(e) = emit(out, &Line::Check(&report)) {
        eprintln!("loadgen: cannot write to stdout: {e}");
        return 1;
    }
    i32::from(!report.ok)
}

/// The address of the server once it accepts a connection. The probe connection is closed
/// at once: a server that serves one connection at a time must see it end.
fn ready_address(config: &Config) -> Result<SocketAddr, String> {
    let addrs = ready::resolve(&config.host, config.port)?;
    let (_probe, addr) = ready::wait_ready(&addrs, config.wait_ready, config.timeout)?;
    Ok(addr)
}

/// Runs `options.protocol`'s checks against `addr` in order, stopping at the first failure.
pub fn run(addr: SocketAddr, options: &Options) -> CheckReport {
    let mut session = Session::new(addr, options);
    let mut passed = Vec::new();
    for &Check { name, run, at_once } in checks(options.protocol) {
        if session.connections < at_once {
            eprintln!("loadgen: check {name} skipped: it needs {at_once} connections at once");
            continue;
        }
        let started = Instant::now();
        match run(&mut session) {
            Ok(()) => {
                eprintln!(
                    "loadgen: check {name} passed ({} ms)",
                    started.elapsed().as_millis()
                );
                passed.push(name);
            }
            Err(problem) => {
                eprintln!("loadgen: check {name} failed: {}", problem.message);
                return CheckReport {
                    ok: false,
                    protocol: options.protocol,
                    passed,
                    failed: Some(problem.failure(name)),
                };
            }
        }
    }
    CheckReport {
        ok: true,
        protocol: options.protocol,
        passed,
        failed: None,
    }
}

/// What the checks share: where the server is, how long to wait, the payloads' generator.
struct Session {
    addr: SocketAddr,
    connections: usize,
    timeout: Duration,
    bound: Duration,
    /// When the whole check must be over.
    end: Instant,
    rng: Rng,
}

impl Session {
    fn new(addr: SocketAddr, options: &Options) -> Session {
        Session {
            addr,
            connections: options.connections.max(1),
            timeout: options.timeout,
            bound: options.bound,
            end: Instant::now() + options.bound,
            rng: Rng::new(options.seed),
        }
    }

    /// The deadline of an operation starting now: `--timeout-ms` from now, or the end of the
    /// whole check if that comes first.
    fn deadline(&self) -> Deadline {
        self.deadline_in(self.timeout, Limit::Timeout(self.timeout))
    }

    fn deadline_in(&self, wait: Duration, limit: Limit) -> Deadline {
        let own = Instant::now() + wait;
        if own <= self.end {
            Deadline { at: own, limit }
        } else {
            Deadline {
                at: self.end,
                limit: Limit::Bound(self.bound),
            }
        }
    }

    /// A new connection to the server (`TCP_NODELAY`: every request is one small write).
    fn connect(&self) -> Result<TcpStream, Problem> {
        self.connect_receiving(None)
    }

    /// A new connection whose receive buffer is `receive_buffer` bytes when given: set
    /// before connecting, so the window the server is offered is that small from the first
    /// byte (shrunk later, a window already offered would be overrun and its bytes dropped).
    fn connect_receiving(&self, receive_buffer: Option<usize>) -> Result<TcpStream, Problem> {
        let deadline = self.deadline();
        let Some(wait) = deadline.left() else {
            return Err(Problem::new(format!(
                "could not connect {}",
                deadline.within()
            )));
        };
        let failed =
            |e: io::Error| Problem::new(format!("connecting to {} failed: {e}", self.addr));
        let socket =
            Socket::new(Domain::for_address(self.addr), Type::STREAM, None).map_err(failed)?;
        if let Some(bytes) = receive_buffer {
            socket
                .set_recv_buffer_size(bytes)
                .map_err(|e| Problem::new(format!("cannot set SO_RCVBUF: {e}")))?;
        }
        socket
            .connect_timeout(&self.addr.into(), wait)
            .map_err(failed)?;
        socket
            .set_tcp_nodelay(true)
            .map_err(|e| Problem::new(format!("cannot set TCP_NODELAY: {e}")))?;
        Ok(socket.into())
    }

    /// [`Self::connections`] connections, all open at once.
    fn connect_many(&self) -> Result<Vec<TcpStream>, Problem> {
        (0..self.connections)
            .map(|i| {
                self.connect()
                    .map_err(|p| p.within(format!("connection {} of {}", i + 1, self.connections)))
            })
            .collect()
    }

    /// A random payload of 1..=`max` bytes.
    fn payload_up_to(&mut self, max: usize) -> Vec<u8> {
        let len = self.rng.in_range(1, max);
        self.rng.bytes(len)
    }
}

/// When an operation must be over, and what set that time.
#[derive(Clone, Copy, Debug)]
struct Deadline {
    at: Instant,
    limit: Limit,
}

#[derive(Clone, Copy, Debug)]
enum Limit {
    /// `--timeout-ms`.
    Timeout(Duration),
    /// The whole check's bound.
    Bound(Duration),
    /// A short wait for silence ([`QUIET_FOR`]).
    Quiet,
}

impl Deadline {
    /// Time left, `None` once passed (a zero timeout would mean "no timeout" to the socket).
    fn left(&self) -> Option<Duration> {
        self.at
            .checked_duration_since(Instant::now())
            .filter(|left| !left.is_zero())
    }

    /// "within 5000 ms", for messages.
    fn within(&self) -> String {
        match self.limit {
            Limit::Timeout(t) => format!("within {} ms", t.as_millis()),
            Limit::Bound(b) => format!(
                "before the whole check's {} s bound ran out",
                b.as_secs_f64()
            ),
            Limit::Quiet => format!("within {} ms", QUIET_FOR.as_millis()),
        }
    }
}

/// What one bounded read brought.
enum Got {
    Bytes(usize),
    /// End-of-stream: the server closed (or shut down its sending side).
    End,
    /// The deadline passed first.
    Late,
    Failed(io::Error),
}

/// One `read` into `buf`, given until `deadline`.
fn read_before(mut stream: &TcpStream, buf: &mut [u8], deadline: &Deadline) -> Got {
    loop {
        let Some(left) = deadline.left() else {
            return Got::Late;
        };
        if let Err(e) = stream.set_read_timeout(Some(left)) {
            return Got::Failed(e);
        }
        match stream.read(buf) {
            Ok(0) => return Got::End,
            Ok(n) => return Got::Bytes(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if is_timeout(&e) => return Got::Late,
            Err(e) => return Got::Failed(e),
        }
    }
}

/// Writes all of `bytes` before `deadline`; the error says how far it got.
fn write_before(mut stream: &TcpStream, bytes: &[u8], deadline: &Deadline) -> Result<(), String> {
    let mut sent = 0;
    while sent < bytes.len() {
        let Some(left) = deadline.left() else {
            return Err(format!(
                "sent only {sent} of {}: the server did not read the rest {}",
                count(bytes.len()),
                deadline.within()
            ));
        };
        stream
            .set_write_timeout(Some(left))
            .map_err(|e| format!("cannot set a write timeout: {e}"))?;
        match stream.write(&bytes[sent..]) {
            Ok(0) => return Err(format!("write() took none of {} bytes", bytes.len() - sent)),
            Ok(n) => sent += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted || is_timeout(&e) => {}
            Err(e) => {
                return Err(format!(
                    "sending failed after {sent} of {}: {}",
                    count(bytes.len()),
                    describe(&e)
                ));
            }
        }
    }
    Ok(())
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// A socket error in words a learner recognises.
fn describe(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::ConnectionReset => format!("the server reset the connection ({e})"),
        io::ErrorKind::BrokenPipe => format!("the server had closed the connection ({e})"),
        _ => e.to_string(),
    }
}

/// "1 byte", "812 bytes".
fn count(n: usize) -> String {
    if n == 1 {
        "1 byte".to_string()
    } else {
        format!("{n} bytes")
    }
}

/// Why a check failed, before it is named.
#[derive(Debug)]
struct Problem {
    message: String,
    expected: Option<String>,
    got: Option<String>,
    /// The bytes of the reply that came back, for [`crossed`].
    received: Vec<u8>,
    /// Nothing at all came back in time, for [`served_only`].
    no_reply: bool,
    /// A response began but did not end: the rest never came, in time or at all.
    cut_short: bool,
}

impl Problem {
    fn new(message: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            expected: None,
            got: None,
            received: Vec::new(),
            no_reply: false,
            cut_short: false,
        }
    }

    /// Nothing came back in time.
    fn no_reply(deadline: &Deadline) -> Problem {
        Problem {
            no_reply: true,
            ..Problem::new(format!("no reply {}", deadline.within()))
        }
    }

    /// A problem at byte `at` of a reply: `expected` and `got` quote a line of each around it.
    fn at_byte(message: impl Into<String>, expected: &[u8], got: &[u8], at: usize) -> Problem {
        let (expected, quoted) = quote::at_byte(expected, got, at);
        Problem {
            expected: Some(expected),
            got: Some(quoted),
            received: got.to_vec(),
            ..Problem::new(message)
        }
    }

    /// A problem with an HTTP response: `got` quotes its start.
    fn response(message: impl Into<String>, seen: &[u8]) -> Problem {
        Problem {
            got: (!seen.is_empty()).then(|| quote::escaped(seen)),
            ..Problem::new(message)
        }
    }

    /// Bytes that came where none should.
    fn extra(message: impl Into<String>, extra: &[u8]) -> Problem {
        Problem::at_byte(message, &[], extra, 0)
    }

    /// Says where: "connection 3, payload 2 (812 bytes): " before the message.
    fn within(mut self, context: impl Display) -> Problem {
        self.message = format!("{context}: {}", self.message);
        self
    }

    /// Adds what the failure suggests, in parentheses after the message.
    fn note(mut self, note: impl Display) -> Problem {
        self.message = format!("{} ({note})", self.message);
        self
    }

    fn failure(self, check: &'static str) -> CheckFailure {
        CheckFailure {
            check,
            message: self.message,
            expected: self.expected,
            got: self.got,
        }
    }
}

/// Reads the echo of `sent`, comparing as the bytes arrive, so a wrong byte fails at once
/// instead of after the timeout.
fn read_echo(stream: &TcpStream, sent: &[u8], deadline: &Deadline) -> Result<(), Problem> {
    read_echo_paced(stream, sent, Pace::Whole(*deadline))
}

/// How long an echo may take to come back.
#[derive(Clone, Copy)]
enum Pace<'a> {
    /// All of it by then.
    Whole(Deadline),
    /// Each piece within `--timeout-ms` of the one before: for a reply far larger than the
    /// socket buffers, which a busy host moves slowly but steadily, while a server that holds
    /// its output back sends nothing more at all.
    Steady(&'a Session),
}

fn read_echo_paced(stream: &TcpStream, sent: &[u8], pace: Pace) -> Result<(), Problem> {
    let want = sent.len();
    let mut got = vec![0u8; want];
    let mut have = 0;
    let mut deadline = match pace {
        Pace::Whole(deadline) => deadline,
        Pace::Steady(s) => s.deadline(),
    };
    while have < want {
        let short = match read_before(stream, &mut got[have..], &deadline) {
            Got::Bytes(n) => {
                let start = have;
                have += n;
                if let Pace::Steady(s) = pace {
                    deadline = s.deadline();
                }
                if let Some(at) = (start..have).find(|&i| got[i] != sent[i]) {
                    let message = format!("byte {at} differs");
                    return Err(Problem::at_byte(message, sent, &got[..have], at));
                }
                continue;
            }
            Got::End => format!("connection closed after {have} of {}", count(want)),
            Got::Late if have == 0 => {
                let window = Problem::at_byte(String::new(), sent, &[], 0);
                return Err(Problem {
                    expected: window.expected,
                    got: window.got,
                    ..Problem::no_reply(&deadline)
                });
            }
            Got::Late => match pace {
                Pace::Whole(_) => format!(
                    "only {have} of {} came back {}",
                    count(want),
                    deadline.within()
                ),
                Pace::Steady(_) => format!(
                    "only {have} of {} came back, then nothing more {}",
                    count(want),
                    deadline.within()
                ),
            },
            Got::Failed(e) => format!(
                "reading failed after {have} of {}: {}",
                count(want),
                describe(&e)
            ),
        };
        // Quoted from where the bytes stop: what was still expected, and the last ones got.
        return Err(Problem::at_byte(short, sent, &got[..have], have));
    }
    Ok(())
}

/// Writes `payload` whole from a second thread while this one reads the echo: the server
/// echoes while it is still receiving, and once both directions' socket buffers are full a
/// single thread that writes everything before reading would wait forever.
fn exchange_whole(stream: &TcpStream, payload: &[u8], deadline: &Deadline) -> Result<(), Problem> {
    thread::scope(|scope| {
        let sender = scope.spawn(|| write_before(stream, payload, deadline));
        let echoed = read_echo(stream, payload, deadline);
        if echoed.is_err() {
            // Wakes the writer if it waits for room the server will never make.
            let _ = stream.shutdown(Shutdown::Both);
        }
        let sent = sender
            .join()
            .unwrap_or_else(|_| Err("the writing thread panicked".to_string()));
        echoed?;
        sent.map_err(Problem::new)
    })
}

/// `echo-sizes`: one connection, payloads of [`ECHO_SIZES`] bytes, each echoed byte-exact.
fn echo_sizes(s: &mut Session) -> Result<(), Problem> {
    let stream = s.connect()?;
    for (i, &size) in ECHO_SIZES.iter().enumerate() {
        let payload = s.rng.bytes(size);
        exchange_whole(&stream, &payload, &s.deadline())
            .map_err(|p| p.within(format!("payload {} ({})", i + 1, count(size))))?;
    }
    Ok(())
}

/// `echo-many-connections`: every connection open at once; [`ROUNDS`] rounds of a payload
/// written on each, then each echo read from its own connection.
fn echo_many_connections(s: &mut Session) -> Result<(), Problem> {
    let conns = s.connect_many()?;
    for round in 0..ROUNDS {
        let payloads: Vec<Vec<u8>> = (0..conns.len())
            .map(|_| s.payload_up_to(MANY_PAYLOAD_MAX))
            .collect();
        let label = |i: usize| {
            format!(
                "connection {}, payload {} ({})",
                i + 1,
                round + 1,
                count(payloads[i].len())
            )
        };
        for (i, (conn, payload)) in conns.iter().zip(&payloads).enumerate() {
            write_before(conn, payload, &s.deadline())
                .map_err(|m| Problem::new(m).within(label(i)))?;
        }
        for (i, (conn, payload)) in conns.iter().zip(&payloads).enumerate() {
            read_echo(conn, payload, &s.deadline())
                .map_err(|p| served_only(crossed(p, i, &payloads), round, i).within(label(i)))?;
        }
    }
    Ok(())
}

/// One request answered on a connection, whatever the protocol: what the checks about
/// clients rather than bytes (an idle neighbour, a reset) are made of.
trait Client: Sized {
    fn open(stream: TcpStream) -> Self;
    fn exchange(&mut self, s: &mut Session) -> Result<(), Problem>;
    fn into_stream(self) -> TcpStream;
}

/// An echo client: one random payload of 1..=[`MANY_PAYLOAD_MAX`] bytes per exchange.
struct EchoClient(TcpStream);

impl Client for EchoClient {
    fn open(stream: TcpStream) -> Self {
        EchoClient(stream)
    }

    fn exchange(&mut self, s: &mut Session) -> Result<(), Problem> {
        let payload = s.payload_up_to(MANY_PAYLOAD_MAX);
        write_before(&self.0, &payload, &s.deadline()).map_err(Problem::new)?;
        read_echo(&self.0, &payload, &s.deadline())
    }

    fn into_stream(self) -> TcpStream {
        self.0
    }
}

/// `echo-idle-neighbour`: see [`idle_neighbour`].
fn echo_idle_neighbour(s: &mut Session) -> Result<(), Problem> {
    idle_neighbour::<EchoClient>(s)
}

/// A client answered once and then silent while [`NEIGHBOURS`] others come one after another,
/// [`NEIGHBOUR_GAP`] apart, each answered once and closed; then the silent one answered
/// again.
fn idle_neighbour<C: Client>(s: &mut Session) -> Result<(), Problem> {
    let mut idle = C::open(s.connect()?);
    idle.exchange(s)
        .map_err(|p| p.within("the client that then sits idle"))?;
    for k in 1..=NEIGHBOURS {
        thread::sleep(NEIGHBOUR_GAP);
        let context = format!("client {k} of {NEIGHBOURS}, while another sits idle");
        let mut neighbour = C::open(s.connect().map_err(|p| p.within(&context))?);
        neighbour.exchange(s).map_err(|p| {
            let p = p.within(&context);
            if p.no_reply {
                p.note(
                    "a server must serve the others while one client sends nothing: does it \
                     serve one client at a time, or wait, once one has gone, for another \
                     (waitpid() without WNOHANG, pthread_join(), a blocking read)?",
                )
            } else {
                p
            }
        })?;
    }
    thread::sleep(NEIGHBOUR_GAP);
    idle.exchange(s)
        .map_err(|p| p.within("the idle client, when it sends again"))
}

/// `echo-client-reset`: see [`client_reset`].
fn echo_client_reset(s: &mut Session) -> Result<(), Problem> {
    client_reset::<EchoClient>(s)
}

/// A client answered once that then resets its connection (an RST, not a FIN), then a new
/// client answered once. The server's next read() of the first fails with ECONNRESET: it
/// must close that connection, only that one, and go on serving.
fn client_reset<C: Client>(s: &mut Session) -> Result<(), Problem> {
    let mut first = C::open(s.connect()?);
    first
        .exchange(s)
        .map_err(|p| p.within("the client that then resets"))?;
    reset(first.into_stream())?;
    thread::sleep(NEIGHBOUR_GAP);
    let context = "a new client, after one reset its connection";
    let mut next = C::open(s.connect().map_err(|p| {
        p.within(context)
            .note("did the server exit when a read() failed with ECONNRESET?")
    })?);
    next.exchange(s).map_err(|p| p.within(context))
}

/// Closes `stream` with a reset: SO_LINGER on with a zero timeout sends an RST, not a FIN.
fn reset(stream: TcpStream) -> Result<(), Problem> {
    SockRef::from(&stream)
        .set_linger(Some(Duration::ZERO))
        .map_err(|e| Problem::new(format!("cannot set SO_LINGER to reset: {e}")))?;
    drop(stream);
    Ok(())
}

/// When the wrong bytes on connection `i` are the start of another connection's payload of
/// the same round, says so: the server answered on the wrong connection.
fn crossed(problem: Problem, i: usize, payloads: &[Vec<u8>]) -> Problem {
    let got = &problem.received;
    let whose = (0..payloads.len()).find(|&j| {
        let other = &payloads[j];
        let n = got.len().min(other.len());
        j != i && n > 0 && n >= other.len().min(8) && got[..n] == other[..n]
    });
    match whose {
        Some(j) => problem.note(format!(
            "these bytes are connection {}'s payload: replies crossed connections",
            j + 1
        )),
        None => problem,
    }
}

/// A server that serves only so many connections at a time (one process or thread each, from
/// a fixed pool) answers the first ones of the first round and then nothing: says so.
fn served_only(problem: Problem, round: usize, i: usize) -> Problem {
    if round > 0 || i == 0 || !problem.no_reply {
        return problem;
    }
    let answered = match i {
        1 => "connection 1 got its reply: does the server serve one connection at a time?"
            .to_string(),
        _ => format!(
            "connections 1 to {i} got theirs: does the server serve only {i} connections at a time?"
        ),
    };
    problem.note(answered)
}

/// `echo-half-close`: [`HALF_CLOSE_BYTES`] bytes, shutdown(SHUT_WR), the same bytes back,
/// then end-of-stream.
fn echo_half_close(s: &mut Session) -> Result<(), Problem> {
    let context = format!("{HALF_CLOSE_BYTES} bytes, then shutdown(SHUT_WR)");
    let stream = s.connect()?;
    let payload = s.rng.bytes(HALF_CLOSE_BYTES);
    // Small enough for the socket buffers: written whole before reading.
    write_before(&stream, &payload, &s.deadline()).map_err(|m| Problem::new(m).within(&context))?;
    stream
        .shutdown(Shutdown::Write)
        .map_err(|e| Problem::new(format!("shutdown(SHUT_WR) failed: {e}")))?;
    read_echo(&stream, &payload, &s.deadline()).map_err(|p| p.within(&context))?;
    let deadline = s.deadline();
    let mut after = [0u8; quote::TEXT_BYTES];
    let problem = match read_before(&stream, &mut after, &deadline) {
        Got::End => return Ok(()),
        Got::Bytes(n) => Problem::extra(
            format!("{} more than were sent came back", count(n)),
            &after[..n],
        ),
        Got::Late => Problem::new(format!(
            "all {HALF_CLOSE_BYTES} bytes came back, but the connection was not closed {} \
             (once read() returns 0 and the echo is sent, the server should close)",
            deadline.within()
        )),
        Got::Failed(e) => Problem::new(format!(
            "all {HALF_CLOSE_BYTES} bytes came back, then reading failed instead of \
             end-of-stream: {}",
            describe(&e)
        )),
    };
    Err(problem.within(&context))
}

/// `echo-slow-reader`: [`SLOW_READER_BYTES`] written from a second thread while this one
/// reads nothing until the writes have stalled for [`STALL`], then the whole echo. A stall
/// means every buffer between us is full, the server's send buffer too: its writes came back
/// short, and it holds output it can send only once told the socket is writable again.
fn echo_slow_reader(s: &mut Session) -> Result<(), Problem> {
    let context = format!(
        "{} MiB, none read until the writes stall",
        SLOW_READER_BYTES >> 20
    );
    let stream = s.connect()?;
    let payload = s.rng.bytes(SLOW_READER_BYTES);
    let sent = AtomicUsize::new(0);
    let s: &Session = s;
    thread::scope(|scope| {
        let sender = scope.spawn(|| {
            for chunk in payload.chunks(SLOW_READER_CHUNK) {
                // Once stalled, a write waits for our reads, which wait for the stall: each
                // chunk gets more than one timeout.
                let wait = s.timeout + STALL;
                let deadline = s.deadline_in(wait, Limit::Timeout(wait));
                write_before(&stream, chunk, &deadline).map_err(|m| {
                    let done = sent.load(Ordering::Relaxed);
                    format!("after {} of {}: {m}", count(done), count(payload.len()))
                })?;
                sent.fetch_add(chunk.len(), Ordering::Relaxed);
            }
            Ok(())
        });
        wait_for_stall(&sent, payload.len());
        let echoed = read_echo_paced(&stream, &payload, Pace::Steady(s));
        if echoed.is_err() {
            // Wakes the writer if it waits for room the server will never make.
            let _ = stream.shutdown(Shutdown::Both);
        }
        let written = sender
            .join()
            .unwrap_or_else(|_| Err("the writing thread panicked".to_string()));
        echoed.map_err(|p| {
            p.within(&context).note(
                "a write() that comes back short leaves output to send once the socket is \
                 writable again: does the server ask to be told (EPOLLOUT, POLLOUT)?",
            )
        })?;
        written.map_err(|m| Problem::new(m).within(&context))
    })
}

/// Returns once `sent` has not moved for [`STALL`], or has reached `total`.
fn wait_for_stall(sent: &AtomicUsize, total: usize) {
    let (mut seen, mut since) = (usize::MAX, Instant::now());
    loop {
        let now = sent.load(Ordering::Relaxed);
        if now >= total {
            return;
        }
        if now != seen {
            (seen, since) = (now, Instant::now());
        } else if since.elapsed() >= STALL {
            return;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// A client connection speaking HTTP/1.1: requests out, responses parsed as they come.
struct HttpConn {
    stream: TcpStream,
    parser: ResponseParser,
    /// Bytes read beyond the last complete response.
    pending: Vec<u8>,
    /// Responses completed on this connection.
    answered: usize,
}

/// Whether the server closed a connection while it was expected to stay quiet.
#[derive(Debug, PartialEq, Eq)]
enum Quiet {
    Open,
    Closed,
}

impl HttpConn {
    fn new(stream: TcpStream) -> HttpConn {
        HttpConn {
            stream,
            parser: ResponseParser::new(),
            pending: Vec::new(),
            answered: 0,
        }
    }

    fn send(&self, request: &[u8], s: &Session) -> Result<(), Problem> {
        write_before(&self.stream, request, &s.deadline()).map_err(Problem::new)
    }

    /// Reads one whole response (`HTTP/1.1 200`, Content-Length, that many body bytes).
    fn read_response(&mut self, s: &Session) -> Result<(), Problem> {
        let deadline = s.deadline();
        let mut seen: Vec<u8> = Vec::new(); // the start of this response, to quote
        let mut buf = [0u8; 16 * 1024];
        loop {
            if !self.pending.is_empty() {
                let data = std::mem::take(&mut self.pending);
                let parsed = self.parser.parse(&data);
                let span = self.parser.last_body();
                if let Some(problem) = wrong_body_byte(&data[span.input.clone()], span.at) {
                    keep_start(&mut seen, &data);
                    return Err(problem);
                }
                match parsed {
                    Ok(Parsed::Complete { consumed }) => {
                        self.pending = data[consumed..].to_vec();
                        self.answered += 1;
                        return Ok(());
                    }
                    Ok(Parsed::Partial) => keep_start(&mut seen, &data),
                    Err(e) => {
                        keep_start(&mut seen, &data);
                        return Err(Problem::response(e.to_string(), &seen));
                    }
                }
            }
            let problem = match read_before(&self.stream, &mut buf, &deadline) {
                Got::Bytes(n) => {
                    self.pending.extend_from_slice(&buf[..n]);
                    continue;
                }
                Got::End if seen.is_empty() && self.answered == 0 => {
                    Problem::new("connection closed without a response")
                }
                Got::End if seen.is_empty() => Problem::new(format!(
                    "the server closed the connection after {} on it (HTTP/1.1 keeps a \
                     connection open unless the request says \"Connection: close\")",
                    plural(self.answered, "response")
                )),
                Got::End => Problem {
                    cut_short: true,
                    ..Problem::response("connection closed in the middle of a response", &seen)
                },
                Got::Late if seen.is_empty() => Problem::no_reply(&deadline),
                Got::Late => Problem {
                    cut_short: true,
                    ..Problem::response(format!("incomplete response {}", deadline.within()), &seen)
                },
                Got::Failed(e) => Problem::response(
                    format!("reading the response failed: {}", describe(&e)),
                    &seen,
                ),
            };
            return Err(problem);
        }
    }

    /// Waits [`QUIET_FOR`] for anything after the last response: more bytes fail, a close is
    /// reported (whether that is wrong is the caller's call).
    fn stays_quiet(&mut self, s: &Session) -> Result<Quiet, Problem> {
        self.no_more_bytes()?;
        let deadline = s.deadline_in(QUIET_FOR.min(s.timeout), Limit::Quiet);
        let mut after = [0u8; quote::TEXT_BYTES];
        match read_before(&self.stream, &mut after, &deadline) {
            Got::Late => Ok(Quiet::Open),
            Got::End => Ok(Quiet::Closed),
            Got::Bytes(n) => Err(self.extra(&after[..n])),
            Got::Failed(e) => Err(Problem::new(format!(
                "after the response: {}",
                describe(&e)
            ))),
        }
    }

    /// Nothing beyond the last response has arrived.
    fn no_more_bytes(&self) -> Result<(), Problem> {
        match self.pending.is_empty() {
            true => Ok(()),
            false => Err(self.extra(&self.pending)),
        }
    }

    fn extra(&self, bytes: &[u8]) -> Problem {
        Problem::extra(
            format!(
                "{} came after the Content-Length body of response {}",
                count(bytes.len()),
                self.answered
            ),
            bytes,
        )
    }
}

/// Keeps the first [`KEPT_BYTES`] of a response, to quote its start and say its length.
/// The first byte of `body` (bytes `at`.. of a response's body) that is not [`HTTP_BODY`]'s,
/// as a problem quoting a few bytes from there.
fn wrong_body_byte(body: &[u8], at: u64) -> Option<Problem> {
    let expected = |k: usize| HTTP_BODY[((at + k as u64) % HTTP_BODY.len() as u64) as usize];
    let bad = (0..body.len()).find(|&k| body[k] != expected(k))?;
    let window = bad..body.len().min(bad + HTTP_BODY.len());
    let want: Vec<u8> = window.clone().map(expected).collect();
    Some(Problem {
        expected: Some(quote::escaped(&want)),
        got: Some(quote::escaped(&body[window])),
        ..Problem::new(format!(
            "body byte {} differs (a body is \"Hello from C10K Lab\\n\" repeated)",
            at + bad as u64
        ))
    })
}

fn keep_start(seen: &mut Vec<u8>, data: &[u8]) {
    let room = KEPT_BYTES.saturating_sub(seen.len());
    seen.extend_from_slice(&data[..data.len().min(room)]);
}

/// "1 response", "2 responses".
fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `http-one-request`: one request, one whole response, nothing after it. The response is
/// read [`STALL`] after the request, with a receive buffer of [`SLOW_READER_RCVBUF`] until
/// then: the server's first send of a large response is partial, every time.
fn http_one_request(s: &mut Session) -> Result<(), Problem> {
    let mut conn = HttpConn::new(s.connect_receiving(Some(SLOW_READER_RCVBUF))?);
    conn.send(HTTP_REQUEST, s)?;
    thread::sleep(STALL);
    conn.read_response(s).map_err(|p| {
        if p.cut_short {
            p.note(
                "the response was read only once the server's send buffer was full, so it \
                 left in parts: does the server keep what a write() or sendfile() did not \
                 send, and send it once the socket is writable again?",
            )
        } else {
            p
        }
    })?;
    conn.stays_quiet(s).map(|_| ()) // closing here is http-keep-alive's business
}

impl Client for HttpConn {
    fn open(stream: TcpStream) -> Self {
        HttpConn::new(stream)
    }

    fn exchange(&mut self, s: &mut Session) -> Result<(), Problem> {
        self.send(HTTP_REQUEST, s)?;
        self.read_response(s)
    }

    fn into_stream(self) -> TcpStream {
        self.stream
    }
}

/// `http-idle-neighbour`: see [`idle_neighbour`].
fn http_idle_neighbour(s: &mut Session) -> Result<(), Problem> {
    idle_neighbour::<HttpConn>(s)
}

/// `http-client-reset`: see [`client_reset`].
fn http_client_reset(s: &mut Session) -> Result<(), Problem> {
    client_reset::<HttpConn>(s)
}

/// `http-keep-alive`: [`KEEP_ALIVE_REQUESTS`] requests one after another on one connection,
/// which is still open after the last response.
fn http_keep_alive(s: &mut Session) -> Result<(), Problem> {
    let mut conn = HttpConn::new(s.connect()?);
    for k in 1..=KEEP_ALIVE_REQUESTS {
        let context = format!("request {k} of {KEEP_ALIVE_REQUESTS}");
        conn.send(HTTP_REQUEST, s)
            .and_then(|()| conn.read_response(s))
            .map_err(|p| p.within(&context))?;
    }
    match conn.stays_quiet(s)? {
        Quiet::Open => Ok(()),
        Quiet::Closed => Err(Problem::new(format!(
            "the server closed the connection after {KEEP_ALIVE_REQUESTS} keep-alive requests \
             (HTTP/1.1 keeps it open unless the request says \"Connection: close\")"
        ))),
    }
}

/// `http-pipelined`: [`PIPELINED_REQUESTS`] requests in one write, as many whole responses.
fn http_pipelined(s: &mut Session) -> Result<(), Problem> {
    let mut conn = HttpConn::new(s.connect()?);
    conn.send(&HTTP_REQUEST.repeat(PIPELINED_REQUESTS), s)
        .map_err(|p| p.within(format!("{PIPELINED_REQUESTS} requests in one write")))?;
    for k in 1..=PIPELINED_REQUESTS {
        conn.read_response(s).map_err(|p| {
            p.within(format!(
                "{PIPELINED_REQUESTS} requests in one write, response {k}"
            ))
        })?;
    }
    conn.no_more_bytes()
}

/// `http-many-connections`: every connection open at once; [`ROUNDS`] rounds of a request
/// sent on each, then each response read.
fn http_many_connections(s: &mut Session) -> Result<(), Problem> {
    let mut conns: Vec<HttpConn> = s.connect_many()?.into_iter().map(HttpConn::new).collect();
    for round in 1..=ROUNDS {
        let label = |i: usize| format!("connection {}, request {round}", i + 1);
        for (i, conn) in conns.iter().enumerate() {
            conn.send(HTTP_REQUEST, s).map_err(|p| p.within(label(i)))?;
        }
        for (i, conn) in conns.iter_mut().enumerate() {
            conn.read_response(s)
                .and_then(|()| conn.no_more_bytes())
                .map_err(|p| served_only(p, round - 1, i).within(label(i)))?;
        }
    }
    Ok(())
}

/// `http-connection-close`: a request with `Connection: close` gets its response, then
/// end-of-stream.
fn http_connection_close(s: &mut Session) -> Result<(), Problem> {
    let mut conn = HttpConn::new(s.connect()?);
    conn.send(HTTP_CLOSE_REQUEST, s)?;
    conn.read_response(s)?;
    conn.no_more_bytes()?;
    let deadline = s.deadline();
    let mut after = [0u8; quote::TEXT_BYTES];
    match read_before(&conn.stream, &mut after, &deadline) {
        Got::End => Ok(()),
        Got::Bytes(n) => Err(conn.extra(&after[..n])),
        Got::Late => Err(Problem::new(format!(
            "no end-of-stream {} after the response to a request with \"Connection: close\" \
             (the server should close the connection)",
            deadline.within()
        ))),
        Got::Failed(e) => Err(Problem::new(format!(
            "after the response to a request with \"Connection: close\", reading failed \
             instead of end-of-stream: {}",
            describe(&e)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::net::TcpListener;
    use std::sync::atomic::AtomicBool;
    use std::sync::{Arc, Mutex};

    use clap::Parser;

    use super::*;
    use crate::cli::Args;

    /// Short, as the failures wait for it; long enough for a right reply on a busy machine.
    const T: Duration = Duration::from_millis(1000);

    /// Serves every connection on its own thread with `handle`.
    fn serve(handle: impl Fn(TcpStream) + Clone + Send + 'static) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let handle = handle.clone();
                thread::spawn(move || handle(stream));
            }
        });
        addr
    }

    /// Serves `workers` connections at a time, each worker one after another, as a prefork
    /// server does (one worker: as an iterative server does).
    fn serve_by_workers(workers: usize, handle: fn(TcpStream)) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        for _ in 0..workers {
            let listener = listener.try_clone().unwrap();
            thread::spawn(move || listener.incoming().flatten().for_each(handle));
        }
        addr
    }

    /// Echoes every connection on its own thread, but on accepting one after another has
    /// ended, first waits for all the others to end, and never serves it while one stays: a
    /// forking server whose SIGCHLD handler calls waitpid() without WNOHANG.
    fn serve_waiting_for_the_rest() -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        thread::spawn(move || {
            let mut serving: Vec<thread::JoinHandle<()>> = Vec::new();
            for stream in listener.incoming().flatten() {
                if serving.iter().any(|t| t.is_finished()) {
                    serving.drain(..).for_each(|t| t.join().unwrap());
                }
                serving.push(thread::spawn(move || echo(stream)));
            }
        });
        addr
    }

    /// Echoes every connection on its own thread until one's read() fails, and then accepts
    /// no more: a server that exits on ECONNRESET.
    fn serve_dying_on_reset() -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let died = Arc::new(AtomicBool::new(false));
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                if died.load(Ordering::SeqCst) {
                    return; // the listener and this connection go with it
                }
                let died = Arc::clone(&died);
                thread::spawn(move || {
                    let mut s = stream;
                    let mut buf = [0u8; 16384];
                    loop {
                        match s.read(&mut buf) {
                            Ok(0) => return,
                            Ok(n) if s.write_all(&buf[..n]).is_ok() => {}
                            Ok(_) | Err(_) => {
                                died.store(true, Ordering::SeqCst);
                                return;
                            }
                        }
                    }
                });
            }
        });
        addr
    }

    /// Sends back every byte read; closes when the client has.
    fn echo(mut s: TcpStream) {
        let mut buf = [0u8; 16384];
        while let Ok(n) = s.read(&mut buf) {
            if n == 0 || s.write_all(&buf[..n]).is_err() {
                return;
            }
        }
    }

    /// Echoes, but drops the last byte of every read longer than 100 bytes.
    fn echo_dropping(mut s: TcpStream) {
        let mut buf = [0u8; 16384];
        while let Ok(n) = s.read(&mut buf) {
            let keep = if n > 100 { n - 1 } else { n };
            if n == 0 || s.write_all(&buf[..keep]).is_err() {
                return;
            }
        }
    }

    /// Echoes the first 512 bytes of the connection, then closes its sending side (and reads
    /// on, so that the close is a FIN, not a reset).
    fn echo_closing_early(mut s: TcpStream) {
        let mut buf = [0u8; 16384];
        let mut echoed = 0;
        while let Ok(n) = s.read(&mut buf) {
            if n == 0 {
                return;
            }
            let take = n.min(512 - echoed);
            if s.write_all(&buf[..take]).is_err() {
                return;
            }
            echoed += take;
            if echoed == 512 {
                let _ = s.shutdown(Shutdown::Write);
                drain(s);
                return;
            }
        }
    }

    /// Echoes, but after the client's end-of-stream keeps the connection open.
    fn echo_never_closing(s: TcpStream) {
        let keep = s.try_clone().unwrap();
        echo(s);
        thread::sleep(Duration::from_secs(2));
        drop(keep);
    }

    /// Echoes without blocking as an event loop that never asks for EPOLLOUT does: what a
    /// write leaves is sent only after a later read, and past 256 KiB held it stops reading
    /// (backpressure). Once its client stops sending, the held output never goes.
    fn echo_never_waiting_to_write(mut s: TcpStream) {
        s.set_nonblocking(true).unwrap();
        let (mut held, mut buf) = (Vec::new(), [0u8; 16384]);
        while held.len() <= 256 << 10 {
            match s.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => held.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    thread::sleep(Duration::from_millis(1));
                    continue; // no input: nothing tells it the socket is writable
                }
                Err(_) => return,
            }
            match s.write(&held) {
                Ok(written) => drop(held.drain(..written)),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return,
            }
        }
        thread::sleep(Duration::from_secs(5));
    }

    /// Reads and discards everything: never replies.
    fn drain(mut s: TcpStream) {
        let mut buf = [0u8; 16384];
        while matches!(s.read(&mut buf), Ok(n) if n > 0) {}
    }

    /// Echoes what connection k (numbered from 0 as accepted) sends on connection k ^ 1
    /// instead, from the third on: the 3rd gets the 4th's bytes and the 4th the 3rd's, and so
    /// on. The first two echo to themselves.
    fn serve_crossed() -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let writers: Arc<Mutex<HashMap<usize, TcpStream>>> = Arc::default();
        thread::spawn(move || {
            for (k, mut from) in listener.incoming().flatten().enumerate() {
                writers.lock().unwrap().insert(k, from.try_clone().unwrap());
                let writers = writers.clone();
                thread::spawn(move || {
                    // echo-sizes' connection, then the idle neighbour's and its neighbours',
                    // then the first of echo-many-connections' answer themselves; the
                    // others in pairs: connections 2 and 3, 4 and 5, ...
                    let before = 2 + NEIGHBOURS;
                    let partner = if k <= before { k } else { k ^ 1 };
                    // The client opens every connection before it sends; wait for the partner.
                    let give_up = Instant::now() + Duration::from_secs(2);
                    let mut to = loop {
                        if let Some(w) = writers.lock().unwrap().get(&partner) {
                            break w.try_clone().unwrap();
                        }
                        if Instant::now() > give_up {
                            break from.try_clone().unwrap();
                        }
                        thread::sleep(Duration::from_millis(5));
                    };
                    let mut buf = [0u8; 16384];
                    while let Ok(n) = from.read(&mut buf) {
                        if n == 0 || to.write_all(&buf[..n]).is_err() {
                            return;
                        }
                    }
                });
            }
        });
        addr
    }

    /// How a test HTTP server behaves.
    #[derive(Clone, Copy)]
    struct Http {
        status: &'static str,
        /// Answers further requests on a connection (else closes after the first response).
        keep_alive: bool,
        /// Answers every request that arrived in one read (else only the first).
        pipelining: bool,
        /// Closes after answering a request with `Connection: close`.
        honours_close: bool,
        /// The 20-byte body.
        body: &'static str,
        /// Extra bytes after the body.
        trailing: &'static str,
    }

    const RIGHT: Http = Http {
        status: "200 OK",
        keep_alive: true,
        pipelining: true,
        honours_close: true,
        body: "Hello from C10K Lab\n",
        trailing: "",
    };

    /// Answers each request head (ending in CRLFCRLF) as `how` says.
    fn http(mut s: TcpStream, how: Http) {
        let mut heads: Vec<u8> = Vec::new();
        let mut buf = [0u8; 16384];
        while let Ok(n) = s.read(&mut buf) {
            if n == 0 {
                return;
            }
            heads.extend_from_slice(&buf[..n]);
            let mut answered = 0;
            while let Some(end) = heads.windows(4).position(|w| w == b"\r\n\r\n") {
                let head: Vec<u8> = heads.drain(..end + 4).collect();
                if answered > 0 && !how.pipelining {
                    continue; // dropped, as a server that parses one request per read() does
                }
                answered += 1;
                let asked_to_close = String::from_utf8_lossy(&head)
                    .to_ascii_lowercase()
                    .contains("connection: close");
                let close = !how.keep_alive || (how.honours_close && asked_to_close);
                let reply = format!(
                    "HTTP/1.1 {}\r\nContent-Length: 20\r\nConnection: {}\r\n\r\n{}{}",
                    how.status,
                    if close { "close" } else { "keep-alive" },
                    how.body,
                    how.trailing
                );
                if s.write_all(reply.as_bytes()).is_err() {
                    return;
                }
                if close {
                    let _ = s.shutdown(Shutdown::Write);
                    return drain(s);
                }
            }
        }
    }

    fn serve_http(how: Http) -> SocketAddr {
        serve(move |s| http(s, how))
    }

    /// Bytes of [`http_big`]'s bodies: more than a socket's send buffer ever holds.
    const BIG_BODY: usize = 8 << 20;

    /// Answers every request with a [`BIG_BODY`] body, all of it (`whole`), or only what one
    /// non-blocking write takes: a server that loses what a partial send left.
    fn http_big(mut s: TcpStream, whole: bool) {
        let mut reply =
            format!("HTTP/1.1 200 OK\r\nContent-Length: {BIG_BODY}\r\n\r\n").into_bytes();
        reply.extend(HTTP_BODY.iter().cycle().take(BIG_BODY));
        let mut buf = [0u8; 16384];
        while matches!(s.read(&mut buf), Ok(n) if n > 0) {
            if whole {
                if s.write_all(&reply).is_err() {
                    return;
                }
            } else {
                s.set_nonblocking(true).unwrap();
                let _ = s.write(&reply); // what did not fit is forgotten
                s.set_nonblocking(false).unwrap();
            }
        }
    }

    fn options(protocol: Protocol) -> Options {
        Options {
            protocol,
            connections: 8,
            timeout: T,
            bound: Duration::from_secs(30),
            seed: 42,
        }
    }

    fn check(addr: SocketAddr, protocol: Protocol) -> CheckReport {
        run(addr, &options(protocol))
    }

    /// The failure of `report`, which must have passed `passed` and then failed `check`.
    fn failure(report: &CheckReport, passed: &[&str], check: &str) -> CheckFailure {
        assert!(!report.ok, "{report:?}");
        assert_eq!(report.passed, passed, "{report:?}");
        let failed = report.failed.clone().expect("a failure");
        assert_eq!(failed.check, check, "{failed:?}");
        failed
    }

    #[test]
    fn a_right_echo_server_passes_every_check() {
        let report = check(serve(echo), Protocol::Echo);
        assert!(report.ok, "{report:?}");
        assert_eq!(report.passed, names(Protocol::Echo));
        assert_eq!(report.passed.len(), 6);
        assert_eq!(report.failed, None);
    }

    #[test]
    fn a_server_that_never_waits_to_write_fails_the_slow_reader() {
        // Alone: when its last write of a payload comes back short it can fail the others
        // too, depending on how fast this side reads.
        let addr = serve(echo_never_waiting_to_write);
        let problem = echo_slow_reader(&mut Session::new(addr, &options(Protocol::Echo)));
        let message = problem.unwrap_err().message;
        assert!(
            message.starts_with("16 MiB, none read until the writes stall: only "),
            "{message}"
        );
        assert!(message.contains("(EPOLLOUT, POLLOUT)?"), "{message}");
        assert!(echo_slow_reader(&mut Session::new(serve(echo), &options(Protocol::Echo))).is_ok());
    }

    #[test]
    fn a_server_that_loses_what_a_partial_send_left_fails_one_request_every_time() {
        for _ in 0..3 {
            let report = check(serve(|s| http_big(s, false)), Protocol::Http);
            let f = failure(&report, &[], "http-one-request");
            assert!(
                f.message.starts_with("incomplete response within 1000 ms"),
                "{}",
                f.message
            );
            assert!(
                f.message
                    .contains("send it once the socket is writable again?")
            );
        }
        let whole = http_one_request(&mut Session::new(
            serve(|s| http_big(s, true)),
            &options(Protocol::Http),
        ));
        assert!(whole.is_ok(), "{whole:?}");
    }

    #[test]
    fn a_right_http_server_passes_every_check() {
        let report = check(serve_http(RIGHT), Protocol::Http);
        assert!(report.ok, "{report:?}");
        assert_eq!(report.passed, names(Protocol::Http));
        assert_eq!(report.passed.len(), 7);
    }

    #[test]
    fn dropped_bytes_fail_echo_sizes_saying_how_many_came_back() {
        let report = check(serve(echo_dropping), Protocol::Echo);
        let f = failure(&report, &[], "echo-sizes");
        // 1 and 7 bytes come back whole; of 1000, all but the last byte of each server read.
        assert!(
            f.message.starts_with("payload 3 (1000 bytes): only 99"),
            "{}",
            f.message
        );
        assert!(
            f.message
                .ends_with("of 1000 bytes came back within 1000 ms"),
            "{}",
            f.message
        );
        let (expected, got) = (f.expected.unwrap(), f.got.unwrap());
        assert!(!expected.is_empty() && expected.len() > got.len(), "{got}");
    }

    #[test]
    fn replies_on_the_wrong_connection_are_named() {
        let report = check(serve_crossed(), Protocol::Echo);
        let f = failure(
            &report,
            &["echo-sizes", "echo-idle-neighbour"],
            "echo-many-connections",
        );
        assert!(
            f.message.starts_with("connection 2, payload 1 (") && f.message.contains("differs"),
            "{}",
            f.message
        );
        assert!(
            f.message
                .contains("(these bytes are connection 3's payload: replies crossed connections)"),
            "{}",
            f.message
        );
        assert_ne!(f.expected, f.got);
    }

    #[test]
    fn a_silent_echo_server_fails_with_no_reply_not_a_hang() {
        let started = Instant::now();
        let report = check(serve(drain), Protocol::Echo);
        let f = failure(&report, &[], "echo-sizes");
        assert_eq!(f.message, "payload 1 (1 byte): no reply within 1000 ms");
        assert_eq!(f.got.as_deref(), Some("@0: (nothing)"));
        let expected = f.expected.unwrap();
        assert!(
            expected.starts_with("@0: ") && expected.len() == "@0: xx |x|".len(),
            "the 1 byte expected is quoted: {expected}"
        );
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn an_early_close_says_after_how_many_bytes() {
        let report = check(serve(echo_closing_early), Protocol::Echo);
        let f = failure(&report, &[], "echo-sizes");
        // 1 + 7 bytes, then 504 of the 1000.
        assert_eq!(
            f.message,
            "payload 3 (1000 bytes): connection closed after 504 of 1000 bytes"
        );
        // Quoted from a few bytes before the end of what came: those got, and a line of what
        // was expected from there.
        let (got, expected) = (f.got.unwrap(), f.expected.unwrap());
        assert!(
            got.starts_with("@500: ") && expected.starts_with("@500: "),
            "{got}"
        );
        assert!(got.len() < expected.len(), "{got} / {expected}");
    }

    #[test]
    fn a_server_that_never_closes_after_half_close_fails_that_check() {
        let report = check(serve(echo_never_closing), Protocol::Echo);
        let f = failure(
            &report,
            &["echo-sizes", "echo-idle-neighbour", "echo-many-connections"],
            "echo-half-close",
        );
        assert!(
            f.message.starts_with(
                "10000 bytes, then shutdown(SHUT_WR): all 10000 bytes came back, \
                 but the connection was not closed within 1000 ms"
            ),
            "{}",
            f.message
        );
    }

    /// The note of a client that got no reply while another sat idle.
    const WAITS: &str = "(a server must serve the others while one client sends nothing: \
                         does it serve one client at a time, or wait, once one has gone, for \
                         another (waitpid() without WNOHANG, pthread_join(), a blocking read)?)";

    #[test]
    fn a_server_of_one_connection_at_a_time_is_told_so() {
        let report = check(serve_by_workers(1, echo), Protocol::Echo);
        let f = failure(&report, &["echo-sizes"], "echo-idle-neighbour");
        assert_eq!(
            f.message,
            format!("client 1 of 3, while another sits idle: no reply within 1000 ms {WAITS}")
        );
        let report = check(serve_by_workers(1, |s| http(s, RIGHT)), Protocol::Http);
        let f = failure(
            &report,
            &["http-one-request", "http-keep-alive"],
            "http-idle-neighbour",
        );
        assert!(
            f.message
                .starts_with("client 1 of 3, while another sits idle: no reply within 1000 ms"),
            "{}",
            f.message
        );
        // With as many connections as it serves at once, it passes, the idle neighbour not
        // tried.
        let one = Options {
            connections: 1,
            ..options(Protocol::Echo)
        };
        let report = run(serve_by_workers(1, echo), &one);
        assert!(report.ok, "{report:?}");
        assert!(
            !report.passed.contains(&"echo-idle-neighbour"),
            "{report:?}"
        );
    }

    #[test]
    fn a_server_of_a_few_connections_at_a_time_is_told_how_many() {
        let report = check(serve_by_workers(2, echo), Protocol::Echo);
        let f = failure(
            &report,
            &["echo-sizes", "echo-idle-neighbour"],
            "echo-many-connections",
        );
        assert!(
            f.message.starts_with("connection 3, payload 1 (")
                && f.message.ends_with(
                    "no reply within 1000 ms (connections 1 to 2 got theirs: does the server \
                     serve only 2 connections at a time?)"
                ),
            "{}",
            f.message
        );
    }

    #[test]
    fn a_server_that_waits_for_a_client_that_stays_fails_the_idle_neighbour() {
        let report = check(serve_waiting_for_the_rest(), Protocol::Echo);
        let f = failure(&report, &["echo-sizes"], "echo-idle-neighbour");
        // The first client whose server-side end it notices is the one it waits after: the
        // first check's, or the first neighbour's.
        assert!(
            f.message.starts_with("client ")
                && f.message.ends_with(&format!(
                    "of 3, while another sits idle: no reply within 1000 ms {WAITS}"
                )),
            "{}",
            f.message
        );
    }

    #[test]
    fn a_server_that_exits_when_a_client_resets_fails_that_check() {
        let report = check(serve_dying_on_reset(), Protocol::Echo);
        let f = failure(
            &report,
            &[
                "echo-sizes",
                "echo-idle-neighbour",
                "echo-many-connections",
                "echo-half-close",
                "echo-slow-reader",
            ],
            "echo-client-reset",
        );
        assert!(
            f.message
                .starts_with("a new client, after one reset its connection: "),
            "{}",
            f.message
        );
    }

    #[test]
    fn the_whole_check_has_a_bound_besides_the_timeout() {
        let started = Instant::now();
        let bounded = Options {
            timeout: Duration::from_secs(5),
            bound: Duration::from_millis(400),
            ..options(Protocol::Echo)
        };
        let report = run(serve(drain), &bounded);
        let f = failure(&report, &[], "echo-sizes");
        assert_eq!(
            f.message,
            "payload 1 (1 byte): no reply before the whole check's 0.4 s bound ran out"
        );
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn http_without_keep_alive_fails_at_the_second_request() {
        let report = check(
            serve_http(Http {
                keep_alive: false,
                ..RIGHT
            }),
            Protocol::Http,
        );
        let f = failure(&report, &["http-one-request"], "http-keep-alive");
        assert!(
            f.message.starts_with(
                "request 2 of 20: the server closed the connection after 1 response on it"
            ),
            "{}",
            f.message
        );
    }

    #[test]
    fn a_wrong_status_is_quoted() {
        let report = check(
            serve_http(Http {
                status: "500 Internal Server Error",
                ..RIGHT
            }),
            Protocol::Http,
        );
        let f = failure(&report, &[], "http-one-request");
        assert!(
            f.message
                .contains("got \"HTTP/1.1 500 Internal Server Error\""),
            "{}",
            f.message
        );
        assert!(f.got.unwrap().starts_with("HTTP/1.1 500 Internal"));
    }

    #[test]
    fn a_server_answering_one_request_per_read_fails_pipelining() {
        let report = check(
            serve_http(Http {
                pipelining: false,
                ..RIGHT
            }),
            Protocol::Http,
        );
        let f = failure(
            &report,
            &["http-one-request", "http-keep-alive", "http-idle-neighbour"],
            "http-pipelined",
        );
        assert_eq!(
            f.message,
            "8 requests in one write, response 2: no reply within 1000 ms"
        );
    }

    #[test]
    fn ignoring_connection_close_fails_the_last_check() {
        let report = check(
            serve_http(Http {
                honours_close: false,
                ..RIGHT
            }),
            Protocol::Http,
        );
        let f = failure(
            &report,
            &names(Protocol::Http)[..5],
            "http-connection-close",
        );
        assert!(
            f.message.starts_with(
                "no end-of-stream within 1000 ms after the response to a request with \
                 \"Connection: close\""
            ),
            "{}",
            f.message
        );
    }

    #[test]
    fn bytes_beyond_the_content_length_are_reported() {
        let report = check(
            serve_http(Http {
                trailing: "!!",
                ..RIGHT
            }),
            Protocol::Http,
        );
        let f = failure(&report, &[], "http-one-request");
        assert_eq!(
            f.message,
            "2 bytes came after the Content-Length body of response 1"
        );
        assert_eq!(
            (f.expected.as_deref(), f.got.as_deref()),
            (Some("@0: (nothing)"), Some("@0: 21 21 |!!|"))
        );
    }

    #[test]
    fn a_body_other_than_the_protocols_is_quoted_from_its_first_wrong_byte() {
        let report = check(
            serve_http(Http {
                body: "Hello from C10K Lab!",
                ..RIGHT
            }),
            Protocol::Http,
        );
        let f = failure(&report, &[], "http-one-request");
        assert_eq!(
            f.message,
            "body byte 19 differs (a body is \"Hello from C10K Lab\\n\" repeated)"
        );
        assert_eq!(
            (f.expected.as_deref(), f.got.as_deref()),
            (Some("\\n"), Some("!"))
        );
    }

    #[test]
    fn silent_and_echoing_servers_fail_http_saying_what_came_back() {
        let report = check(serve(drain), Protocol::Http);
        let f = failure(&report, &[], "http-one-request");
        assert_eq!(f.message, "no reply within 1000 ms");
        assert_eq!((f.expected, f.got), (None, None));

        let report = check(serve(echo), Protocol::Http);
        let f = failure(&report, &[], "http-one-request");
        assert!(
            f.message.starts_with("not an HTTP response"),
            "{}",
            f.message
        );
        assert_eq!(
            f.got.as_deref(),
            Some("GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
        );
    }

    #[test]
    fn quotes_are_a_line_around_the_difference() {
        let expected: Vec<u8> = (0..=255).collect();
        let mut got = expected[..100].to_vec();
        got[40] = b'!';
        let p = Problem::at_byte("byte 40 differs", &expected, &got, 40);
        // From byte 36 (4 before), 16 bytes in hex and as text.
        assert_eq!(
            p.expected.unwrap(),
            "@36: 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f 30 31 32 33 |$%&'()*+,-./0123|"
        );
        assert_eq!(
            p.got.unwrap(),
            "@36: 24 25 26 27 21 29 2a 2b 2c 2d 2e 2f 30 31 32 33 |$%&'!)*+,-./0123|"
        );
        // Short of bytes: got stops where it stops.
        let p = Problem::at_byte("closed", b"abc\"def", b"ab", 2);
        assert_eq!(
            (p.expected.as_deref(), p.got.as_deref()),
            (
                Some("@0: 61 62 63 22 64 65 66 |abc\"def|"),
                Some("@0: 61 62 |ab|")
            )
        );
    }

    #[test]
    fn main_reports_a_server_that_is_not_there_as_ready_failed() {
        let port = {
            let l = TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let config = Args::try_parse_from([
            "loadgen",
            "--check",
            "--port",
            &port.to_string(),
            "--wait-ready-s",
            "0.2",
        ])
        .unwrap()
        .validate()
        .unwrap();
        let mut out = Vec::new();
        assert_eq!(main(&config, &mut out), 1);
        let line: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(line["type"], "check");
        assert_eq!(line["ok"], false);
        assert_eq!(line["passed"], serde_json::json!([]));
        assert_eq!(line["failed"]["check"], "ready");
        let message = line["failed"]["message"].as_str().unwrap();
        assert!(message.contains("did not accept a connection"), "{message}");
        assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
    }

    #[test]
    fn check_mode_uses_at_most_64_connections() {
        let config = |n: &str| {
            Args::try_parse_from(["loadgen", "--check", "--connections", n])
                .unwrap()
                .validate()
                .unwrap()
        };
        assert_eq!(Options::new(&config("100")).connections, 64);
        assert_eq!(Options::new(&config("3")).connections, 3);
        assert_eq!(Options::new(&config("3")).bound, BOUND);
    }
}
