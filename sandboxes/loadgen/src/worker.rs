//! One worker thread: a single-threaded `mio` event loop that owns a share of the connections
//! and its own statistics, as each of wrk's threads does.
//!
//! Every active connection has at most one request in flight. In closed loop (the default)
//! the next request follows the reply at once: a round trip costs one `read`, one `write` and
//! a share of one `epoll_wait`, and nothing is paced by timers. As in wrk, the replies of one
//! batch of events are read first and the next requests written after the batch, so the
//! server, too, finds many requests ready per wake-up rather than one at a time. Sockets are
//! registered once, edge-triggered, for both directions: a writable event only matters while
//! a large request is still being sent.
//!
//! In open loop (`--rate`) each request has an intended send time ([`Pacer`]); a connection
//! whose reply came early waits in a min-heap of due times until then, and the worker wakes
//! for the earliest one with a timerfd armed a little early, then busy-polls to the
//! microsecond (see [`crate::pacing`]). A reply that comes after the next request's intended
//! time makes that request late: it goes out right after the reply, and its latency still
//! counts from the intended time, so a stalled server cannot hide its stall by holding back
//! the load (coordinated omission).
//!
//! With a new connection per request, an active connection has no socket between requests:
//! each request connects, sends, reads the whole reply and closes (the client closes first,
//! so the client side holds the TIME_WAIT). Idle connections (`--idle`) connect and then
//! sit silent; if the server closes one, resets it or sends on it, it counts as dropped and
//! is reconnected after the usual back-off.
//!
//! A read that returns less than the buffer size drained the socket (TCP never returns short
//! while data is queued), so an edge-triggered loop needs no extra `read` to see `EAGAIN`.
//!
//! Time is split into the [`Schedule`]'s intervals; a request counts in the interval in which
//! its reply completed (its timestamp decides, not when the loop got round to it). At each
//! interval's end the worker sends its [`IntervalStats`] to the coordinator and starts afresh.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
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
use crate::pacing::{Pacer, Timer, WakeWindow, set_timer_slack};
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
/// The timerfd's token; connections use their index.
const TIMER: Token = Token(usize::MAX);

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
    /// The initial connections are settled: `connected` active and `idle_connected` idle ones
    /// open, `failed` attempts failed.
    Opened {
        worker: usize,
        connected: usize,
        idle_connected: usize,
        failed: u64,
    },
    /// The figures of interval `index` of the schedule (boxed: they are large, the other
    /// reports small).
    Interval {
        worker: usize,
        index: usize,
        stats: Box<IntervalStats>,
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

/// When the connections opened ahead of the load are opened: the one at run-wide position
/// `p` of `total` at `start + length · p / total` (all at `start` when `length` is zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ramp {
    pub start: Instant,
    pub length: Duration,
    pub total: usize,
}

impl Ramp {
    /// When to open the connection at run-wide position `position`.
    pub fn at(&self, position: usize) -> Instant {
        if self.total == 0 {
            return self.start;
        }
        let nanos = self.length.as_nanos() * position as u128 / self.total as u128;
        self.start + Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
    }
}

/// What one worker is to do.
#[derive(Clone, Debug)]
pub struct WorkerSpec {
    pub index: usize,
    /// Active connections of this worker (they send requests).
    pub connections: usize,
    /// Run-wide number of this worker's first active connection (see [`source_address`] and
    /// [`Pacer`]).
    pub first_connection: usize,
    /// Idle connections of this worker (`--idle`).
    pub idle: usize,
    /// Run-wide number of its first idle connection; idle ones are numbered after all the
    /// active ones.
    pub first_idle: usize,
    /// Active connections of the whole run.
    pub total_connections: usize,
    pub addr: SocketAddr,
    pub protocol: Protocol,
    /// The bytes of one request: the echo payload, or the HTTP request.
    pub request: Arc<[u8]>,
    pub timeout: Duration,
    /// Open loop: requests per second for the whole run; `None`: closed loop.
    pub rate: Option<f64>,
    /// Each request on a new connection.
    pub per_request: bool,
    /// When to open each connection opened ahead of the load.
    pub ramp: Ramp,
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
    /// No socket, after an error: reconnect (or, with a new connection per request, start
    /// the next request) at `retry_at`.
    Closed,
    /// Non-blocking connect in progress since `since` (with a new connection per request,
    /// the first part of the request).
    Connecting,
    /// An active connection with no request in flight: before the load starts, waiting for
    /// its intended time (open loop), or until the end of the current batch of events. With
    /// a new connection per request it has no socket then.
    Ready,
    /// A request in flight, started at `since`.
    Busy,
    /// An idle connection, open and silent since `since`.
    Held,
}

struct Conn {
    sock: Option<TcpStream>,
    state: State,
    /// Request bytes written so far.
    written: usize,
    /// Echo bytes received (and matched) so far.
    received: usize,
    since: Instant,
    /// Open loop: when the current (or, while waiting, the next) request is due.
    intended: Instant,
    /// Open loop: requests scheduled so far, so the index k of the next one.
    scheduled: u64,
    retry_at: Instant,
    backoff: Duration,
    parser: ResponseParser,
}

struct Worker {
    spec: WorkerSpec,
    poll: Poll,
    /// The active connections, then the idle ones.
    conns: Vec<Conn>,
    buf: Box<[u8]>,
    tx: Sender<Report>,
    stop: Arc<AtomicBool>,
    stats: IntervalStats,
    /// Connections whose next request is to be started after this batch of events (see
    /// [`Worker::poll_once`]).
    to_send: Vec<usize>,
    /// Open loop: waiting connections by intended time, earliest first.
    due: BinaryHeap<Reverse<(Instant, usize)>>,
    /// Open loop: the schedule, once the load has started.
    pacer: Option<Pacer>,
    /// Open loop: wakes the loop for the earliest due request.
    timer: Option<Timer>,
    window: WakeWindow,
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
        let conns = (0..spec.connections + spec.idle)
            .map(|i| Conn {
                sock: None,
                // With a new connection per request nothing is opened ahead for requests.
                state: if spec.per_request && i < spec.connections {
                    State::Ready
                } else {
                    State::Closed
                },
                written: 0,
                received: 0,
                since: now,
                intended: now,
                scheduled: 0,
                retry_at: now,
                backoff: FIRST_BACKOFF,
                parser: ResponseParser::new(),
            })
            .collect();
        let poll = Poll::new()?;
        let timer = match spec.rate {
            Some(_) => {
                set_timer_slack()?;
                let timer = Timer::new()?;
                timer.register(poll.registry(), TIMER)?;
                Some(timer)
            }
            None => None,
        };
        let sweep_period = (spec.timeout / 4).clamp(Duration::from_millis(1), MAX_SWEEP_PERIOD);
        Ok(Worker {
            poll,
            conns,
            buf: vec![0u8; READ_BUFFER_BYTES].into_boxed_slice(),
            tx,
            stop,
            stats: IntervalStats::new(spec.rate.is_some()),
            to_send: Vec::with_capacity(spec.connections),
            due: BinaryHeap::with_capacity(spec.connections),
            pacer: None,
            timer,
            window: WakeWindow::default(),
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
        let active = self.spec.connections;
        let opened = Report::Opened {
            worker: self.spec.index,
            connected: self.conns[..active]
                .iter()
                .filter(|c| c.state == State::Ready && c.sock.is_some())
                .count(),
            idle_connected: self.conns[active..]
                .iter()
                .filter(|c| c.state == State::Held)
                .count(),
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

    /// True for the connections that send requests; false for the idle ones.
    fn is_active(&self, i: usize) -> bool {
        i < self.spec.connections
    }

    /// The run-wide number of connection `i`: active ones first, then idle ones.
    fn number(&self, i: usize) -> usize {
        if self.is_active(i) {
            self.spec.first_connection + i
        } else {
            self.spec.first_idle + (i - self.spec.connections)
        }
    }

    /// Opens the connections that are opened ahead (all but the active ones with a new
    /// connection per request), each at its time on the ramp, and waits (at most the
    /// timeout) until each is connected or failed. Failed ones are retried once the load
    /// starts.
    fn open_all(&mut self, events: &mut Events) -> io::Result<()> {
        let per_request = self.spec.per_request;
        // With a new connection per request only idle connections are on the ramp, from 0.
        let skipped = if per_request {
            self.spec.total_connections
        } else {
            0
        };
        for i in 0..self.conns.len() {
            if per_request && self.is_active(i) {
                continue;
            }
            let at = self.spec.ramp.at(self.number(i) - skipped);
            loop {
                let now = Instant::now();
                if self.stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                if now >= at {
                    break;
                }
                self.poll_once(events, at - now)?;
            }
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

    /// Starts the load: schedules a first request on every active connection and reconnects
    /// the ones that failed to open.
    fn start(&mut self, schedule: Arc<Schedule>) {
        let now = Instant::now();
        self.current = 0;
        self.current_end = schedule
            .intervals
            .first()
            .map_or(now, |interval| interval.end);
        self.pacer = self
            .spec
            .rate
            .map(|rate| Pacer::new(schedule.start, rate, self.spec.total_connections));
        self.schedule = Some(schedule);
        self.stats = IntervalStats::new(self.pacer.is_some());
        // Poll before the first sweep, so connects that completed meanwhile are seen first.
        self.next_sweep = now + self.sweep_period;
        for i in 0..self.conns.len() {
            match self.conns[i].state {
                State::Ready => self.ready_for_next(i, now),
                State::Closed => self.restart(i, now),
                State::Connecting | State::Busy | State::Held => {}
            }
        }
        self.send_pending();
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
            self.release_due(now);
            self.send_pending();
            let timeout = self.wait_time(Instant::now())?;
            self.poll_once(events, timeout)?;
        }
    }

    /// How long the next `epoll_wait` may block: until the current interval ends or the next
    /// sweep is due. In open loop the timer is armed for the earliest waiting request, the
    /// wake window ahead of it; inside that window the loop busy-polls (zero timeout).
    fn wait_time(&mut self, now: Instant) -> io::Result<Duration> {
        let until = self.current_end.min(self.next_sweep);
        if let (Some(&Reverse((due, _))), Some(timer)) = (self.due.peek(), self.timer.as_mut()) {
            let wake = due.checked_sub(self.window.get()).unwrap_or(due);
            if wake <= now {
                return Ok(Duration::ZERO);
            }
            timer.arm(wake)?;
        }
        Ok(until.saturating_duration_since(now))
    }

    /// One `epoll_wait` (mio rounds sub-millisecond timeouts up, so this never spins unless
    /// asked to with a zero timeout) and the handling of what it returned.
    fn poll_once(&mut self, events: &mut Events, timeout: Duration) -> io::Result<()> {
        match self.poll.poll(events, Some(timeout)) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(()),
            Err(e) => return Err(io::Error::new(e.kind(), format!("epoll_wait failed: {e}"))),
        }
        for event in events.iter() {
            self.on_event(event);
        }
        if !self.due.is_empty() {
            self.release_due(Instant::now());
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
            if self.current + 1 == schedule.intervals.len() {
                self.stats.starved = self.starved(&schedule);
            }
            let fresh = IntervalStats::new(self.pacer.is_some());
            let stats = Box::new(std::mem::replace(&mut self.stats, fresh));
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

    /// Active connections waiting, at the end of the schedule, on a request or connect that
    /// started before the measure phase did (see [`IntervalStats::starved`]).
    fn starved(&self, schedule: &Schedule) -> u64 {
        let Some(measure) = schedule
            .intervals
            .iter()
            .find(|i| i.phase == Phase::Measure)
        else {
            return 0;
        };
        let waiting = |c: &&Conn| matches!(c.state, State::Busy | State::Connecting);
        let active = &self.conns[..self.spec.connections];
        active
            .iter()
            .filter(waiting)
            .filter(|c| c.since < measure.start)
            .count() as u64
    }

    /// True while the load runs (started, schedule not over).
    fn running(&self) -> bool {
        self.schedule.is_some() && !self.finished()
    }

    fn on_event(&mut self, event: &Event) {
        if event.token() == TIMER {
            return self.on_timer();
        }
        let i = event.token().0;
        match self.conns[i].state {
            State::Connecting => {
                self.on_connected(i);
                // A server that closes at once may have sent its FIN with the connect's edge.
                if self.conns[i].state == State::Held && hung_up(event) {
                    self.drop_held(i, Instant::now());
                }
            }
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
            State::Held if hung_up(event) => self.drop_held(i, Instant::now()),
            State::Held | State::Closed | State::Ready => {}
        }
    }

    /// The timer fired: learn from how late.
    fn on_timer(&mut self) {
        let Some(armed) = self.timer.as_mut().and_then(Timer::fired) else {
            return;
        };
        let now = Instant::now();
        if now >= armed {
            self.window.observe(now - armed);
        }
    }

    /// Starts a non-blocking connect for connection `i`, timed from now.
    fn connect(&mut self, i: usize) {
        // Its own clock reading: thousands of connects in a row can take a while.
        let now = Instant::now();
        let source = source_address(self.spec.addr, self.number(i));
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

    /// A connecting socket became writable (or failed): find out which, and go on: an idle
    /// connection is held, a new connection per request sends its request, a kept-alive
    /// one waits for its first request.
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
        if !self.is_active(i) {
            self.conns[i].state = State::Held;
            self.conns[i].since = now;
        } else if self.spec.per_request {
            // The request started with the connect: `since` stays.
            self.conns[i].state = State::Busy;
            self.write(i);
        } else {
            self.conns[i].state = State::Ready;
            if self.running() {
                self.ready_for_next(i, now);
            }
        }
    }

    /// Active connection `i` may start its next request: after this batch of events in
    /// closed loop; in open loop at its intended time, or after this batch if that passed.
    fn ready_for_next(&mut self, i: usize, now: Instant) {
        let number = self.number(i);
        let conn = &mut self.conns[i];
        conn.state = State::Ready;
        if let Some(pacer) = &self.pacer {
            conn.intended = pacer.intended(number, conn.scheduled);
            conn.scheduled += 1;
            if conn.intended > now {
                self.due.push(Reverse((conn.intended, i)));
                return;
            }
        }
        self.to_send.push(i);
    }

    /// Moves the waiting connections whose intended time has come to the send list.
    fn release_due(&mut self, now: Instant) {
        while let Some(&Reverse((due, i))) = self.due.peek() {
            if due > now {
                break;
            }
            self.due.pop();
            self.to_send.push(i);
        }
    }

    /// Starts a request on active connection `i`, timed from `now`: writes it, or with a
    /// new connection per request first connects.
    #[inline]
    fn begin(&mut self, i: usize, now: Instant) {
        let conn = &mut self.conns[i];
        conn.written = 0;
        conn.received = 0;
        if self.spec.per_request {
            self.connect(i);
        } else {
            conn.state = State::Busy;
            conn.since = now;
            self.write(i);
        }
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

    /// Starts the next request on every connection queued in [`Self::to_send`], each timed
    /// from its own start.
    fn send_pending(&mut self) {
        let mut to_send = std::mem::take(&mut self.to_send);
        if self.running() {
            for &i in &to_send {
                if self.conns[i].state == State::Ready {
                    self.begin(i, Instant::now());
                }
            }
        }
        to_send.clear();
        self.to_send = to_send;
    }

    /// The reply on connection `i` is complete: record it (closing the connection if it was
    /// for this request only) and schedule the next request.
    #[inline]
    fn complete(&mut self, i: usize) {
        let now = Instant::now();
        self.advance(now);
        let running = self.running();
        let conn = &mut self.conns[i];
        conn.backoff = FIRST_BACKOFF;
        conn.state = State::Ready;
        if self.spec.per_request {
            // Everything was read, so close() sends a FIN (unread bytes would make it a reset).
            conn.sock = None;
        }
        if running {
            match self.pacer {
                Some(_) => self.stats.record_paced(conn.intended, conn.since, now),
                None => self.stats.record(now - conn.since),
            }
            self.ready_for_next(i, now);
        }
    }

    /// Gives up connection `i`: count the error, close, and schedule a retry.
    fn fail(&mut self, i: usize, kind: ErrorKind, now: Instant) {
        if self.schedule.is_some() {
            self.advance(now);
            if self.running() {
                self.stats.error(kind);
            }
        } else if kind == ErrorKind::Connect {
            self.open_failures += 1;
        }
        if self.conns[i].state == State::Connecting {
            self.connecting -= 1;
        }
        self.close_for_retry(i, now);
    }

    /// Idle connection `i` was closed, reset or sent to by the server: count it and
    /// reconnect after the back-off. One that stayed open for [`MAX_BACKOFF`] or longer had
    /// succeeded, so its back-off starts afresh.
    fn drop_held(&mut self, i: usize, now: Instant) {
        if self.schedule.is_some() {
            self.advance(now);
            if self.running() {
                self.stats.idle_dropped += 1;
            }
        }
        let conn = &mut self.conns[i];
        if now.duration_since(conn.since) >= MAX_BACKOFF {
            conn.backoff = FIRST_BACKOFF;
        }
        self.close_for_retry(i, now);
    }

    /// Closes connection `i` (which also removes it from the epoll set) and sets when to
    /// retry: after the back-off, which doubles for next time.
    fn close_for_retry(&mut self, i: usize, now: Instant) {
        let conn = &mut self.conns[i];
        conn.sock = None;
        conn.state = State::Closed;
        conn.parser.reset();
        conn.retry_at = now + conn.backoff;
        conn.backoff = (conn.backoff * 2).min(MAX_BACKOFF);
        self.next_sweep = self.next_sweep.min(conn.retry_at);
    }

    /// Retries closed connection `i`: reconnects it, or with a new connection per request
    /// schedules its next request (which connects).
    fn restart(&mut self, i: usize, now: Instant) {
        if self.spec.per_request && self.is_active(i) {
            self.ready_for_next(i, now);
        } else {
            self.connect(i);
        }
    }

    /// Retries closed connections whose back-off has passed and fails connects and
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
                        self.restart(i, now);
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

/// The peer closed or reset the connection, or sent something: all the same to an idle one.
fn hung_up(event: &Event) -> bool {
    event.is_readable() || event.is_read_closed() || event.is_error()
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
    fn ramp_spreads_the_opening_evenly() {
        let start = Instant::now();
        let ramp = Ramp {
            start,
            length: Duration::from_secs(2),
            total: 8,
        };
        let times: Vec<Duration> = (0..8).map(|p| ramp.at(p) - start).collect();
        let expected: Vec<Duration> = (0..8).map(|p| Duration::from_millis(250 * p)).collect();
        assert_eq!(times, expected);
        let at_once = Ramp {
            length: Duration::ZERO,
            ..ramp
        };
        assert_eq!(at_once.at(7), start);
        let nothing = Ramp { total: 0, ..ramp };
        assert_eq!(nothing.at(0), start);
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
