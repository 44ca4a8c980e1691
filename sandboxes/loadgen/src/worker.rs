//! One worker thread: a single-threaded `mio` event loop that owns a share of the connections
//! and its own statistics, as each of wrk's threads does.
//!
//! Closed loop: every connection has at most one request in flight. A round trip costs one
//! `read`, one `write` and a share of one `epoll_wait`; nothing is paced by timers. As in wrk,
//! the replies of one batch of events are read first and the next requests written after the
//! batch, so the server, too, finds many requests ready per wake-up rather than one at a time.
//! Sockets are registered once, edge-triggered, for both directions: a writable event only
//! matters while a large request is still being sent.
//!
//! A read that returns less than the buffer size drained the socket (TCP never returns short
//! while data is queued), so an edge-triggered loop needs no extra `read` to see `EAGAIN`.
//!
//! Time is split into the [`Schedule`]'s intervals; a request counts in the interval in which
//! its reply completed (its timestamp decides, not when the loop got round to it). At each
//! interval's end the worker sends its [`IntervalStats`] to the coordinator and starts afresh.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::os::fd::FromRawFd;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use mio::event::Event;
use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token};

use crate::cli::Protocol;
use crate::http::{Parsed, ResponseParser};
use crate::output::Phase;
use crate::stats::{ErrorKind, IntervalStats};

/// Size of each thread's read buffer (shared by all its connections).
const READ_BUFFER_BYTES: usize = 64 * 1024;
/// Most events taken from one `epoll_wait`.
const EVENTS_PER_POLL: usize = 1024;
/// First reconnect delay after an error; doubles on each further error, up to the maximum.
const FIRST_BACKOFF: Duration = Duration::from_millis(10);
const MAX_BACKOFF: Duration = Duration::from_secs(1);
/// Longest gap between two checks for timed-out requests.
const MAX_SWEEP_PERIOD: Duration = Duration::from_millis(100);

/// One progress interval of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    pub phase: Phase,
    pub start: Instant,
    pub end: Instant,
}

/// When the load starts and where each interval ends; shared by all workers.
#[derive(Clone, Debug)]
pub struct Schedule {
    pub start: Instant,
    pub intervals: Vec<Interval>,
}

/// Messages from a worker to the coordinator.
#[derive(Debug)]
pub enum Report {
    /// The initial connections are settled: `connected` open, `failed` attempts failed.
    Opened {
        worker: usize,
        connected: usize,
        failed: u64,
    },
    /// The figures of interval `index` of the schedule.
    Interval {
        worker: usize,
        index: usize,
        stats: IntervalStats,
    },
    /// The worker could not go on (its event loop failed).
    Failed { worker: usize, message: String },
}

/// Holds the workers between opening their connections and starting the load.
#[derive(Debug, Default)]
pub struct Gate {
    state: Mutex<Option<Option<Arc<Schedule>>>>,
    cv: Condvar,
}

impl Gate {
    /// Lets the workers start on `schedule`.
    pub fn open(&self, schedule: Arc<Schedule>) {
        self.set(Some(schedule));
    }

    /// Tells waiting workers to give up.
    pub fn abort(&self) {
        self.set(None);
    }

    fn set(&self, value: Option<Arc<Schedule>>) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        *state = Some(value);
        self.cv.notify_all();
    }

    fn wait(&self) -> Option<Arc<Schedule>> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(decision) = state.as_ref() {
                return decision.clone();
            }
            state = self.cv.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// What one worker is to do.
#[derive(Clone, Debug)]
pub struct WorkerSpec {
    pub index: usize,
    pub connections: usize,
    /// Run-wide number of this worker's first connection (see [`source_address`]).
    pub first_connection: usize,
    pub addr: SocketAddr,
    pub protocol: Protocol,
    /// The bytes of one request: the echo payload, or the HTTP request.
    pub request: Arc<[u8]>,
    pub timeout: Duration,
}

/// Starts a worker thread. It reports on `tx`, waits at `gate` after opening its
/// connections, and stops early when `stop` is set.
pub fn spawn(
    spec: WorkerSpec,
    tx: Sender<Report>,
    gate: Arc<Gate>,
    stop: Arc<AtomicBool>,
) -> io::Result<JoinHandle<()>> {
    thread::Builder::new()
        .name(format!("loadgen-{}", spec.index))
        .spawn(move || {
            let index = spec.index;
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                Worker::new(spec, tx.clone(), stop)?.run(&gate)
            }));
            let message = match outcome {
                Ok(Ok(())) => return,
                Ok(Err(e)) => format!("worker {index}: {e}"),
                Err(_) => format!("worker {index} panicked"),
            };
            let _ = tx.send(Report::Failed {
                worker: index,
                message,
            });
        })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No socket; reconnect at `retry_at`.
    Closed,
    /// Non-blocking connect in progress since `since`.
    Connecting,
    /// Connected, no request in flight (before the load starts, or until the end of the
    /// current batch of events).
    Idle,
    /// A request in flight, sent at `since`.
    Busy,
}

struct Conn {
    sock: Option<TcpStream>,
    state: State,
    /// Request bytes written so far.
    written: usize,
    /// Echo bytes received (and matched) so far.
    received: usize,
    since: Instant,
    retry_at: Instant,
    backoff: Duration,
    parser: ResponseParser,
}

struct Worker {
    spec: WorkerSpec,
    poll: Poll,
    conns: Vec<Conn>,
    buf: Box<[u8]>,
    tx: Sender<Report>,
    stop: Arc<AtomicBool>,
    stats: IntervalStats,
    /// Connections whose reply completed in this batch of events: their next request is
    /// written after the batch (see [`Worker::poll_once`]).
    to_send: Vec<usize>,
    /// Connections in [`State::Connecting`].
    connecting: usize,
    /// Connect failures before the load started.
    open_failures: u64,
    schedule: Option<Arc<Schedule>>,
    /// Index of the interval being recorded; `intervals.len()` once the schedule is over.
    current: usize,
    current_end: Instant,
    next_sweep: Instant,
    sweep_period: Duration,
}

impl Worker {
    fn new(spec: WorkerSpec, tx: Sender<Report>, stop: Arc<AtomicBool>) -> io::Result<Worker> {
        let now = Instant::now();
        let conns = (0..spec.connections)
            .map(|_| Conn {
                sock: None,
                state: State::Closed,
                written: 0,
                received: 0,
                since: now,
                retry_at: now,
                backoff: FIRST_BACKOFF,
                parser: ResponseParser::new(),
            })
            .collect();
        let sweep_period = (spec.timeout / 4).clamp(Duration::from_millis(1), MAX_SWEEP_PERIOD);
        Ok(Worker {
            poll: Poll::new()?,
            conns,
            buf: vec![0u8; READ_BUFFER_BYTES].into_boxed_slice(),
            tx,
            stop,
            stats: IntervalStats::default(),
            to_send: Vec::with_capacity(spec.connections),
            connecting: 0,
            open_failures: 0,
            schedule: None,
            current: 0,
            current_end: far_future(now),
            next_sweep: now,
            sweep_period,
            spec,
        })
    }

    fn run(mut self, gate: &Gate) -> io::Result<()> {
        let mut events = Events::with_capacity(EVENTS_PER_POLL);
        self.open_all(&mut events)?;
        let connected = self.conns.iter().filter(|c| c.state == State::Idle).count();
        let opened = Report::Opened {
            worker: self.spec.index,
            connected,
            failed: self.open_failures,
        };
        if self.tx.send(opened).is_err() {
            return Ok(()); // the coordinator is gone
        }
        let Some(schedule) = gate.wait() else {
            return Ok(());
        };
        self.start(schedule);
        self.event_loop(&mut events)
    }

    /// Opens every connection and waits (at most the timeout) until each is connected or
    /// failed. Failed ones are retried once the load starts.
    fn open_all(&mut self, events: &mut Events) -> io::Result<()> {
        for i in 0..self.conns.len() {
            self.connect(i);
        }
        // Each connect has the full timeout, counted from when it was started.
        let deadline = Instant::now() + self.spec.timeout;
        while self.connecting > 0 {
            let now = Instant::now();
            if now >= deadline || self.stop.load(Ordering::Relaxed) {
                break;
            }
            self.poll_once(events, deadline - now)?;
        }
        Ok(())
    }

    /// Starts the load: a first request on every open connection.
    fn start(&mut self, schedule: Arc<Schedule>) {
        let now = Instant::now();
        self.current = 0;
        self.current_end = schedule
            .intervals
            .first()
            .map_or(now, |interval| interval.end);
        self.schedule = Some(schedule);
        // Poll before the first sweep, so connects that completed meanwhile are seen first.
        self.next_sweep = now + self.sweep_period;
        for i in 0..self.conns.len() {
            match self.conns[i].state {
                State::Idle => self.send_request(i, now),
                State::Closed => self.connect(i),
                State::Connecting | State::Busy => {}
            }
        }
    }

    fn event_loop(&mut self, events: &mut Events) -> io::Result<()> {
        loop {
            let now = Instant::now();
            self.advance(now);
            if self.finished() || self.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            if now >= self.next_sweep {
                self.sweep(now);
            }
            let wake = self.current_end.min(self.next_sweep);
            self.poll_once(events, wake.saturating_duration_since(now))?;
        }
    }

    /// One `epoll_wait` (mio rounds sub-millisecond timeouts up, so this never spins) and
    /// the handling of what it returned.
    fn poll_once(&mut self, events: &mut Events, timeout: Duration) -> io::Result<()> {
        match self.poll.poll(events, Some(timeout)) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(()),
            Err(e) => return Err(io::Error::new(e.kind(), format!("epoll_wait failed: {e}"))),
        }
        for event in events.iter() {
            self.on_event(event);
        }
        self.send_pending();
        Ok(())
    }

    fn finished(&self) -> bool {
        self.schedule
            .as_ref()
            .is_some_and(|s| self.current >= s.intervals.len())
    }

    /// Closes every interval that ended at or before `now`, sending its figures.
    #[inline]
    fn advance(&mut self, now: Instant) {
        if now < self.current_end {
            return;
        }
        let Some(schedule) = self.schedule.clone() else {
            return;
        };
        while self.current < schedule.intervals.len() && now >= self.current_end {
            let stats = std::mem::take(&mut self.stats);
            let _ = self.tx.send(Report::Interval {
                worker: self.spec.index,
                index: self.current,
                stats,
            });
            self.current += 1;
            self.current_end = schedule
                .intervals
                .get(self.current)
                .map_or_else(|| far_future(now), |interval| interval.end);
        }
    }

    /// True while the load runs (started, schedule not over).
    fn running(&self) -> bool {
        self.schedule.is_some() && !self.finished()
    }

    fn on_event(&mut self, event: &Event) {
        let i = event.token().0;
        match self.conns[i].state {
            State::Connecting => self.on_connected(i),
            State::Busy => {
                if event.is_writable()
                    && self.conns[i].written < self.spec.request.len()
                    && !self.write(i)
                {
                    return;
                }
                if event.is_readable() || event.is_read_closed() || event.is_error() {
                    self.read(i);
                }
            }
            State::Closed | State::Idle => {}
        }
    }

    /// Starts a non-blocking connect for connection `i`, timed from now.
    fn connect(&mut self, i: usize) {
        // Its own clock reading: thousands of connects in a row can take a while.
        let now = Instant::now();
        let source = source_address(self.spec.addr, self.spec.first_connection + i);
        let attempt = open_socket(self.spec.addr, source).and_then(|mut sock| {
            self.poll.registry().register(
                &mut sock,
                Token(i),
                Interest::READABLE | Interest::WRITABLE,
            )?;
            Ok(sock)
        });
        match attempt {
            Ok(sock) => {
                let conn = &mut self.conns[i];
                conn.sock = Some(sock);
                conn.state = State::Connecting;
                conn.since = now;
                self.connecting += 1;
                self.next_sweep = self.next_sweep.min(now + self.spec.timeout);
            }
            Err(_) => self.fail(i, ErrorKind::Connect, now),
        }
    }

    /// A connecting socket became writable (or failed): find out which.
    fn on_connected(&mut self, i: usize) {
        let now = Instant::now();
        let Some(sock) = self.conns[i].sock.as_ref() else {
            return;
        };
        match sock.take_error() {
            Ok(None) => {}
            Ok(Some(_)) | Err(_) => return self.fail(i, ErrorKind::Connect, now),
        }
        match sock.peer_addr() {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotConnected => return, // not yet
            Err(_) => return self.fail(i, ErrorKind::Connect, now),
        }
        let _ = sock.set_nodelay(true);
        self.connecting -= 1;
        self.conns[i].state = State::Idle;
        if self.running() {
            self.send_request(i, now);
        }
    }

    /// Sends a new request on connection `i`, timed from `now`.
    #[inline]
    fn send_request(&mut self, i: usize, now: Instant) {
        let conn = &mut self.conns[i];
        conn.state = State::Busy;
        conn.written = 0;
        conn.received = 0;
        conn.since = now;
        self.write(i);
    }

    /// Writes as much of the request as the socket takes; false if the connection failed.
    #[inline]
    fn write(&mut self, i: usize) -> bool {
        let request = &self.spec.request;
        let conn = &mut self.conns[i];
        let Some(sock) = conn.sock.as_mut() else {
            return false;
        };
        let mut failure = None;
        while conn.written < request.len() {
            match sock.write(&request[conn.written..]) {
                Ok(0) => {
                    failure = Some(ErrorKind::Io);
                    break;
                }
                Ok(n) => conn.written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    failure = Some(ErrorKind::from_io(&e));
                    break;
                }
            }
        }
        match failure {
            None => true,
            Some(kind) => {
                self.fail(i, kind, Instant::now());
                false
            }
        }
    }

    /// Reads what arrived on connection `i`, checks it, and completes the request when the
    /// whole reply is there.
    #[inline]
    fn read(&mut self, i: usize) {
        loop {
            let conn = &mut self.conns[i];
            let Some(sock) = conn.sock.as_mut() else {
                return;
            };
            let n = match sock.read(&mut self.buf) {
                Ok(0) => return self.fail(i, ErrorKind::Eof, Instant::now()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return self.fail(i, ErrorKind::from_io(&e), Instant::now()),
            };
            let data = &self.buf[..n];
            let outcome = match self.spec.protocol {
                Protocol::Echo => check_echo(&self.spec.request, &mut conn.received, data),
                Protocol::Http => check_http(&mut conn.parser, data),
            };
            match outcome {
                Reply::Complete => return self.complete(i),
                Reply::Partial if n < self.buf.len() => return, // drained
                Reply::Partial => {}
                Reply::Wrong => return self.fail(i, ErrorKind::Mismatch, Instant::now()),
            }
        }
    }

    /// Writes the next request on every connection whose reply completed in the last batch
    /// of events, each timed from its own write.
    fn send_pending(&mut self) {
        let mut to_send = std::mem::take(&mut self.to_send);
        if self.running() {
            for &i in &to_send {
                if self.conns[i].state == State::Idle {
                    self.send_request(i, Instant::now());
                }
            }
        }
        to_send.clear();
        self.to_send = to_send;
    }

    /// The reply on connection `i` is complete: record it; the next request goes out after
    /// this batch of events.
    #[inline]
    fn complete(&mut self, i: usize) {
        let now = Instant::now();
        self.advance(now);
        let running = self.running();
        let conn = &mut self.conns[i];
        conn.backoff = FIRST_BACKOFF;
        conn.state = State::Idle;
        if running {
            self.stats.record(now - conn.since);
            self.to_send.push(i);
        }
    }

    /// Gives up connection `i`: count the error, close, and schedule a reconnect.
    fn fail(&mut self, i: usize, kind: ErrorKind, now: Instant) {
        if self.schedule.is_some() {
            self.advance(now);
            if self.running() {
                self.stats.error(kind);
            }
        } else if kind == ErrorKind::Connect {
            self.open_failures += 1;
        }
        let conn = &mut self.conns[i];
        if conn.state == State::Connecting {
            self.connecting -= 1;
        }
        conn.sock = None; // closing also removes it from the epoll set
        conn.state = State::Closed;
        conn.parser.reset();
        conn.retry_at = now + conn.backoff;
        conn.backoff = (conn.backoff * 2).min(MAX_BACKOFF);
        self.next_sweep = self.next_sweep.min(conn.retry_at);
    }

    /// Reconnects closed connections whose back-off has passed and fails connects and
    /// requests older than the timeout.
    fn sweep(&mut self, now: Instant) {
        self.next_sweep = now + self.sweep_period;
        let running = self.running();
        let timeout = self.spec.timeout;
        for i in 0..self.conns.len() {
            let conn = &self.conns[i];
            match conn.state {
                State::Closed if running => {
                    if now >= conn.retry_at {
                        self.connect(i);
                    } else {
                        self.next_sweep = self.next_sweep.min(conn.retry_at);
                    }
                }
                State::Connecting if now.duration_since(conn.since) >= timeout => {
                    self.fail(i, ErrorKind::Connect, now);
                }
                State::Busy if now.duration_since(conn.since) >= timeout => {
                    self.fail(i, ErrorKind::Timeout, now);
                }
                _ => {}
            }
        }
    }
}

/// Connections per IPv4 loopback source address.
///
/// Linux's `connect()` takes ephemeral ports of one parity first (the other half is left for
/// `bind()`); with the default range (32768–60999) that half runs out near 14,000 connections
/// to one destination, and from then on every `connect()` scans the whole range: about 1.6 ms
/// each, so opening 19,000 connections took over 10 s here. Every address of 127.0.0.0/8 is
/// local, so beyond this many connections to a loopback server each further block gets its
/// own source address (127.0.0.2, 127.0.0.3 …) and with it a fresh set of ports.
pub const CONNECTIONS_PER_SOURCE: usize = 8192;

/// The source address for run-wide connection number `n` to `server`: `None` (the kernel's
/// choice) for the first [`CONNECTIONS_PER_SOURCE`] and for servers not on IPv4 loopback.
pub fn source_address(server: SocketAddr, n: usize) -> Option<Ipv4Addr> {
    let SocketAddr::V4(v4) = server else {
        return None;
    };
    let block = n / CONNECTIONS_PER_SOURCE;
    if !v4.ip().is_loopback() || block == 0 {
        return None;
    }
    let block = u32::try_from(block).ok()?;
    Some(Ipv4Addr::from(u32::from(Ipv4Addr::LOCALHOST) + block))
}

/// Starts a non-blocking connect to `server`, from `source` (port chosen at connect time,
/// `IP_BIND_ADDRESS_NO_PORT`) when given.
fn open_socket(server: SocketAddr, source: Option<Ipv4Addr>) -> io::Result<TcpStream> {
    let (Some(source), SocketAddr::V4(server)) = (source, server) else {
        return TcpStream::connect(server);
    };
    // SAFETY: plain socket(2); the descriptor is checked, then owned by `sock` (closed on drop).
    let fd = unsafe {
        libc::socket(
            libc::AF_INET,
            libc::SOCK_STREAM | libc::SOCK_NONBLOCK | libc::SOCK_CLOEXEC,
            0,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` is a fresh, valid socket that nothing else owns.
    let sock = unsafe { std::net::TcpStream::from_raw_fd(fd) };
    let one: libc::c_int = 1;
    // Best effort: without it bind() reserves a port of its own, which still works.
    // SAFETY: `one` outlives the call and its size is passed.
    unsafe {
        libc::setsockopt(
            fd,
            libc::IPPROTO_IP,
            libc::IP_BIND_ADDRESS_NO_PORT,
            (&one as *const libc::c_int).cast(),
            size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    let local = sockaddr_in(SocketAddrV4::new(source, 0));
    let remote = sockaddr_in(server);
    let len = size_of::<libc::sockaddr_in>() as libc::socklen_t;
    // SAFETY: both addresses are initialised sockaddr_in values that outlive the calls.
    if unsafe { libc::bind(fd, (&local as *const libc::sockaddr_in).cast(), len) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::connect(fd, (&remote as *const libc::sockaddr_in).cast(), len) } != 0 {
        let err = io::Error::last_os_error();
        if err.raw_os_error() != Some(libc::EINPROGRESS) {
            return Err(err);
        }
    }
    Ok(TcpStream::from_std(sock))
}

fn sockaddr_in(addr: SocketAddrV4) -> libc::sockaddr_in {
    libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: addr.port().to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from(*addr.ip()).to_be(),
        },
        sin_zero: [0; 8],
    }
}

/// What a read told about the reply in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply {
    Partial,
    Complete,
    Wrong,
}

/// Echo: `data` must continue the request from byte `received`, and not go past its end.
#[inline]
fn check_echo(request: &[u8], received: &mut usize, data: &[u8]) -> Reply {
    let expected = &request[*received..];
    if data.len() > expected.len() || data != &expected[..data.len()] {
        return Reply::Wrong;
    }
    *received += data.len();
    if *received == request.len() {
        Reply::Complete
    } else {
        Reply::Partial
    }
}

/// HTTP: `data` must continue one response; bytes after its end (a second response to one
/// request) are wrong in a closed loop.
#[inline]
fn check_http(parser: &mut ResponseParser, data: &[u8]) -> Reply {
    match parser.parse(data) {
        Ok(Parsed::Complete { consumed }) if consumed == data.len() => Reply::Complete,
        Ok(Parsed::Complete { .. }) | Err(_) => {
            parser.reset();
            Reply::Wrong
        }
        Ok(Parsed::Partial) => Reply::Partial,
    }
}

fn far_future(now: Instant) -> Instant {
    now + Duration::from_secs(10 * 365 * 24 * 3600)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_check_accepts_pieces_and_rejects_wrong_or_extra_bytes() {
        let request = b"abcdef";
        let mut received = 0;
        assert_eq!(check_echo(request, &mut received, b"ab"), Reply::Partial);
        assert_eq!(check_echo(request, &mut received, b"cde"), Reply::Partial);
        assert_eq!(check_echo(request, &mut received, b"f"), Reply::Complete);
        let mut received = 0;
        assert_eq!(check_echo(request, &mut received, b"abX"), Reply::Wrong);
        let mut received = 4;
        assert_eq!(check_echo(request, &mut received, b"efg"), Reply::Wrong);
    }

    #[test]
    fn http_check_rejects_a_second_response() {
        let ok = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        let mut parser = ResponseParser::new();
        assert_eq!(check_http(&mut parser, &ok[..10]), Reply::Partial);
        assert_eq!(check_http(&mut parser, &ok[10..]), Reply::Complete);
        let two = [&ok[..], &ok[..]].concat();
        assert_eq!(check_http(&mut parser, &two), Reply::Wrong);
        assert!(parser.is_idle());
        assert_eq!(
            check_http(&mut parser, b"HTTP/1.1 500 Oops\r\n\r\n"),
            Reply::Wrong
        );
    }

    #[test]
    fn source_addresses_spread_only_large_loopback_runs() {
        let loopback: SocketAddr = "127.0.0.1:9000".parse().unwrap();
        assert_eq!(source_address(loopback, 0), None);
        assert_eq!(source_address(loopback, CONNECTIONS_PER_SOURCE - 1), None);
        assert_eq!(
            source_address(loopback, CONNECTIONS_PER_SOURCE),
            Some(Ipv4Addr::new(127, 0, 0, 2))
        );
        assert_eq!(
            source_address(loopback, 18_999),
            Some(Ipv4Addr::new(127, 0, 0, 3))
        );
        let remote: SocketAddr = "10.0.0.1:9000".parse().unwrap();
        assert_eq!(source_address(remote, 18_999), None);
        let v6: SocketAddr = "[::1]:9000".parse().unwrap();
        assert_eq!(source_address(v6, 18_999), None);
    }

    #[test]
    fn a_bound_socket_connects_from_its_source_address() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let server = listener.local_addr().unwrap();
        let sock = open_socket(server, Some(Ipv4Addr::new(127, 0, 0, 7))).unwrap();
        let (_accepted, peer) = listener.accept().unwrap();
        assert_eq!(peer.ip(), Ipv4Addr::new(127, 0, 0, 7));
        drop(sock);
    }

    #[test]
    fn gate_hands_out_the_schedule_or_an_abort() {
        let gate = Arc::new(Gate::default());
        let waiter = {
            let gate = gate.clone();
            thread::spawn(move || gate.wait().map(|s| s.intervals.len()))
        };
        let now = Instant::now();
        gate.open(Arc::new(Schedule {
            start: now,
            intervals: vec![Interval {
                phase: Phase::Measure,
                start: now,
                end: now,
            }],
        }));
        assert_eq!(waiter.join().unwrap(), Some(1));
        let gate = Gate::default();
        gate.abort();
        assert!(gate.wait().is_none());
    }
}
