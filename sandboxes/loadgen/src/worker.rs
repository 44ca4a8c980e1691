//! One worker thread: its share of the connections, their state machine, and its own
//! statistics, as each of wrk's threads has. How the sockets are driven — epoll or io_uring —
//! is the engine's business ([`crate::engine`]); everything else is here, once, so both
//! engines pace, time, verify and count requests the same way.
//!
//! Every active connection has at most one request in flight. In closed loop (the default)
//! the next request follows the reply at once, and nothing is paced by timers. As in wrk, the
//! replies of one batch of events are handled first and the next requests started after the
//! batch, so the server, too, finds many requests ready per wake-up rather than one at a time
//! (and the io_uring engine submits all of them with one system call).
//!
//! In open loop (`--rate`) each request has an intended send time ([`Pacer`]); a connection
//! whose reply came early waits in a min-heap of due times until then, and the engine wakes
//! for the earliest one a little early, then busy-polls to the microsecond (see
//! [`crate::pacing`]). A reply that comes after the next request's intended time makes that
//! request late: it goes out right after the reply, and its latency still counts from the
//! intended time, so a stalled server cannot hide its stall by holding back the load
//! (coordinated omission).
//!
//! With a new connection per request, an active connection has no socket between requests:
//! each request connects, sends, reads the whole reply and closes (the client closes first,
//! so the client side holds the TIME_WAIT). Idle connections (`--idle`) connect and then
//! sit silent; if the server closes one, resets it or sends on it, it counts as dropped and
//! is reconnected after the usual back-off.
//!
//! Time is split into the [`Schedule`]'s intervals; a request counts in the interval in which
//! its reply completed (its timestamp decides, not when the loop got round to it). At each
//! interval's end the worker sends its [`IntervalStats`] to the coordinator and starts afresh.
//!
//! The contract with an engine: the state machine asks it to connect, send and close through
//! [`Io`]; the engine waits for events ([`Engine::poll`]) and reports each one back through
//! [`Load`]'s `on_*` methods.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::cli::Protocol;
use crate::engine::{self, Setup};
use crate::http::{Parsed, ResponseParser};
use crate::net::source_address;
use crate::output::Phase;
use crate::pacing::{Pacer, WakeWindow};
use crate::stats::{ErrorKind, IntervalStats};

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

/// What the state machine asks of an engine. Each call starts an operation; its outcome comes
/// back later through [`Load`]'s `on_*` methods, called from [`Engine::poll`].
pub trait Io {
    /// Starts connecting connection `i` to the server, from `source` when given. An error
    /// means the connect failed at once (no socket is left open).
    fn connect(&mut self, i: usize, source: Option<Ipv4Addr>) -> io::Result<()>;

    /// Sends the request on connection `i` from byte `from` on; returns how many bytes were
    /// taken (the rest is sent when [`Load::on_writable`] is called), or why it failed.
    fn send(&mut self, i: usize, from: usize) -> Result<usize, ErrorKind>;

    /// Closes connection `i` (if it is open); nothing more is reported about that socket.
    fn close(&mut self, i: usize);
}

/// An I/O engine: the loop that waits for socket events and hands them to the state machine.
pub trait Engine {
    type Io: Io;

    /// The engine's side of the sockets, for the state machine's calls.
    fn io(&mut self) -> &mut Self::Io;

    /// Submits what was asked of [`Io`] (if the engine queues it), waits for events as
    /// [`Wait`] says, and reports each one to `load`.
    fn poll(&mut self, load: &mut Load, wait: Wait) -> io::Result<()>;
}

/// How long [`Engine::poll`] may wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    /// Return by then at the latest: the current interval's end, the next sweep, or the next
    /// connection on the ramp.
    pub until: Instant,
    /// Open loop: wake at this time for the earliest waiting request (the wake window ahead of
    /// it); at or before now means busy-poll (look for events without sleeping). A wake-up
    /// that comes from this time passing is reported with [`Load::on_timer`].
    pub wake: Option<Instant>,
}

/// Starts a worker thread driving its sockets with the engine `setup` prepared. It reports on
/// `tx`, waits at `gate` after opening its connections, and stops early when `stop` is set.
pub fn spawn(
    spec: WorkerSpec,
    setup: Setup,
    tx: Sender<Report>,
    gate: Arc<Gate>,
    stop: Arc<AtomicBool>,
) -> io::Result<JoinHandle<()>> {
    thread::Builder::new()
        .name(format!("loadgen-{}", spec.index))
        .spawn(move || {
            let index = spec.index;
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
                let load = Load::new(spec, tx.clone(), stop);
                engine::run(setup, load, &gate)
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

/// Where a connection is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// No socket, after an error: reconnect (or, with a new connection per request, start
    /// the next request) at `retry_at`.
    Closed,
    /// Connect in progress since `since` (with a new connection per request, the first part
    /// of the request).
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
    state: State,
    /// Request bytes handed to the engine so far.
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
    /// An idle connection the server has dropped before in this run: dropping it again is a
    /// reconnect dropped, not one more connection refused.
    dropped_before: bool,
}

/// One worker's connections, schedule and statistics: everything but the sockets.
pub struct Load {
    spec: WorkerSpec,
    /// The active connections, then the idle ones.
    conns: Vec<Conn>,
    tx: Sender<Report>,
    stop: Arc<AtomicBool>,
    stats: IntervalStats,
    /// Connections whose next request is to be started after this batch of events (see
    /// [`Load::poll`]).
    to_send: Vec<usize>,
    /// Open loop: waiting connections by intended time, earliest first.
    due: BinaryHeap<Reverse<(Instant, usize)>>,
    /// Open loop: the schedule, once the load has started.
    pacer: Option<Pacer>,
    /// Open loop: how far ahead of a due request to wake.
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

impl Load {
    pub fn new(spec: WorkerSpec, tx: Sender<Report>, stop: Arc<AtomicBool>) -> Load {
        let now = Instant::now();
        let conns = (0..spec.connections + spec.idle)
            .map(|i| Conn {
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
                dropped_before: false,
            })
            .collect();
        let sweep_period = (spec.timeout / 4).clamp(Duration::from_millis(1), MAX_SWEEP_PERIOD);
        Load {
            conns,
            tx,
            stop,
            stats: IntervalStats::new(spec.rate.is_some()),
            to_send: Vec::with_capacity(spec.connections),
            due: BinaryHeap::with_capacity(spec.connections),
            pacer: None,
            window: WakeWindow::default(),
            connecting: 0,
            open_failures: 0,
            schedule: None,
            current: 0,
            current_end: far_future(now),
            next_sweep: now,
            sweep_period,
            spec,
        }
    }

    /// What this worker is to do.
    pub fn spec(&self) -> &WorkerSpec {
        &self.spec
    }

    /// The state of connection `i`.
    #[inline]
    pub fn state(&self, i: usize) -> State {
        self.conns[i].state
    }

    /// The whole life of the worker with `engine`: open the connections, report, wait at
    /// `gate` for the schedule, then run it to its end.
    pub fn run<E: Engine>(mut self, engine: &mut E, gate: &Gate) -> io::Result<()> {
        self.open_all(engine)?;
        let active = self.spec.connections;
        let per_request = self.spec.per_request;
        let opened = Report::Opened {
            worker: self.spec.index,
            connected: self.conns[..active]
                .iter()
                .filter(|c| c.state == State::Ready && !per_request)
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
        self.start(engine.io(), schedule);
        self.event_loop(engine)
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
    fn open_all<E: Engine>(&mut self, engine: &mut E) -> io::Result<()> {
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
                if self.stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                if Instant::now() >= at {
                    break;
                }
                self.poll(engine, Wait::until(at))?;
            }
            self.connect(engine.io(), i);
        }
        // Each connect has the full timeout, counted from when it was started.
        let deadline = Instant::now() + self.spec.timeout;
        while self.connecting > 0 {
            if Instant::now() >= deadline || self.stop.load(Ordering::Relaxed) {
                break;
            }
            self.poll(engine, Wait::until(deadline))?;
        }
        Ok(())
    }

    /// Starts the load: schedules a first request on every active connection and reconnects
    /// the ones that failed to open.
    fn start(&mut self, io: &mut impl Io, schedule: Arc<Schedule>) {
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
                State::Closed => self.restart(io, i, now),
                State::Connecting | State::Busy | State::Held => {}
            }
        }
        self.send_pending(io);
    }

    fn event_loop<E: Engine>(&mut self, engine: &mut E) -> io::Result<()> {
        loop {
            let now = Instant::now();
            self.advance(now);
            if self.finished() || self.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            if now >= self.next_sweep {
                self.sweep(engine.io(), now);
            }
            self.release_due(now);
            self.send_pending(engine.io());
            let wait = self.wait(Instant::now());
            self.poll(engine, wait)?;
        }
    }

    /// How long the engine may wait: until the current interval ends or the next sweep is
    /// due, and in open loop until the wake window before the earliest waiting request.
    fn wait(&self, now: Instant) -> Wait {
        let until = self.current_end.min(self.next_sweep).max(now);
        let wake = self
            .due
            .peek()
            .map(|&Reverse((due, _))| due.checked_sub(self.window.get()).unwrap_or(due));
        Wait { until, wake }
    }

    /// One wait for events and their handling by `engine`, then the requests they made due
    /// are started (all together, after the batch).
    fn poll<E: Engine>(&mut self, engine: &mut E, wait: Wait) -> io::Result<()> {
        engine.poll(self, wait)?;
        if !self.due.is_empty() {
            self.release_due(Instant::now());
        }
        self.send_pending(engine.io());
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

    /// The engine woke because the time [`Wait::wake`] asked for (`armed`) passed: learn from
    /// how late the wake-up came.
    pub fn on_timer(&mut self, armed: Instant) {
        let now = Instant::now();
        if now >= armed {
            self.window.observe(now - armed);
        }
    }

    /// Starts a connect for connection `i`, timed from now.
    fn connect(&mut self, io: &mut impl Io, i: usize) {
        // Its own clock reading: thousands of connects in a row can take a while.
        let now = Instant::now();
        let source = source_address(self.spec.addr, self.number(i));
        match io.connect(i, source) {
            Ok(()) => {
                let conn = &mut self.conns[i];
                conn.state = State::Connecting;
                conn.since = now;
                self.connecting += 1;
                self.next_sweep = self.next_sweep.min(now + self.spec.timeout);
            }
            Err(_) => self.fail(io, i, ErrorKind::Connect, now),
        }
    }

    /// Connection `i`'s connect succeeded: an idle connection is held, a new connection per
    /// request sends its request, a kept-alive one waits for its first request.
    pub fn on_connected(&mut self, io: &mut impl Io, i: usize) {
        let now = Instant::now();
        self.connecting -= 1;
        if !self.is_active(i) {
            self.conns[i].state = State::Held;
            self.conns[i].since = now;
        } else if self.spec.per_request {
            // The request started with the connect: `since` stays.
            self.conns[i].state = State::Busy;
            self.send(io, i);
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

    /// Moves the waiting connections whose intended time has come to the send list. An entry
    /// is stale if its connection no longer waits for that time: it failed while it waited
    /// (the io_uring engine sees a server's close at once) and was rescheduled since.
    fn release_due(&mut self, now: Instant) {
        while let Some(&Reverse((due, i))) = self.due.peek() {
            if due > now {
                break;
            }
            self.due.pop();
            let conn = &self.conns[i];
            if conn.state == State::Ready && conn.intended == due {
                self.to_send.push(i);
            }
        }
    }

    /// Starts a request on active connection `i`, timed from `now`: sends it, or with a new
    /// connection per request first connects.
    #[inline]
    fn begin(&mut self, io: &mut impl Io, i: usize, now: Instant) {
        let conn = &mut self.conns[i];
        conn.written = 0;
        conn.received = 0;
        if self.spec.per_request {
            self.connect(io, i);
        } else {
            conn.state = State::Busy;
            conn.since = now;
            self.send(io, i);
        }
    }

    /// Hands the rest of the request on connection `i` to the engine; false if the
    /// connection failed.
    #[inline]
    fn send(&mut self, io: &mut impl Io, i: usize) -> bool {
        match io.send(i, self.conns[i].written) {
            Ok(n) => {
                self.conns[i].written += n;
                true
            }
            Err(kind) => {
                self.fail(io, i, kind, Instant::now());
                false
            }
        }
    }

    /// Connection `i` can take more bytes: sends the rest of its request if some is left;
    /// false if the connection failed.
    #[inline]
    pub fn on_writable(&mut self, io: &mut impl Io, i: usize) -> bool {
        self.conns[i].state != State::Busy
            || self.conns[i].written >= self.spec.request.len()
            || self.send(io, i)
    }

    /// Bytes arrived on connection `i`: checks them against the reply in progress and
    /// completes the request when the whole reply is there. On an idle connection they are a
    /// drop; on one with no request in flight they are wrong. Says what the bytes were.
    #[inline]
    pub fn on_data(&mut self, io: &mut impl Io, i: usize, data: &[u8]) -> Reply {
        let conn = &mut self.conns[i];
        let outcome = match (conn.state, self.spec.protocol) {
            (State::Busy, Protocol::Echo) => {
                check_echo(&self.spec.request, &mut conn.received, data)
            }
            (State::Busy, Protocol::Http) => check_http(&mut conn.parser, data),
            (State::Held, _) => {
                self.drop_held(io, i, Instant::now());
                return Reply::Wrong;
            }
            (State::Closed, _) => return Reply::Wrong,
            _ => Reply::Wrong,
        };
        match outcome {
            Reply::Complete => self.complete(io, i),
            Reply::Partial => {}
            Reply::Wrong => self.fail(io, i, ErrorKind::Mismatch, Instant::now()),
        }
        outcome
    }

    /// The server closed connection `i` (`Eof`) or it failed with `kind`: a drop for an idle
    /// connection, an error for any other.
    pub fn on_closed(&mut self, io: &mut impl Io, i: usize, kind: ErrorKind) {
        let now = Instant::now();
        match self.conns[i].state {
            State::Held => self.drop_held(io, i, now),
            State::Closed => {}
            _ => self.fail(io, i, kind, now),
        }
    }

    /// Starts the next request on every connection queued in [`Self::to_send`], each timed
    /// from its own start.
    fn send_pending(&mut self, io: &mut impl Io) {
        let mut to_send = std::mem::take(&mut self.to_send);
        if self.running() {
            for &i in &to_send {
                if self.conns[i].state == State::Ready {
                    self.begin(io, i, Instant::now());
                }
            }
        }
        to_send.clear();
        self.to_send = to_send;
    }

    /// The reply on connection `i` is complete: record it (closing the connection if it was
    /// for this request only) and schedule the next request.
    #[inline]
    fn complete(&mut self, io: &mut impl Io, i: usize) {
        let now = Instant::now();
        self.advance(now);
        let running = self.running();
        let conn = &mut self.conns[i];
        conn.backoff = FIRST_BACKOFF;
        conn.state = State::Ready;
        if self.spec.per_request {
            // Everything was read, so the close sends a FIN (unread bytes would make it a
            // reset).
            io.close(i);
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
    pub fn fail(&mut self, io: &mut impl Io, i: usize, kind: ErrorKind, now: Instant) {
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
        self.close_for_retry(io, i, now);
    }

    /// Idle connection `i` was closed, reset or sent to by the server: count it (and, the
    /// first time, count the connection) and reconnect after the back-off. One that stayed
    /// open for [`MAX_BACKOFF`] or longer had succeeded, so its back-off starts afresh.
    pub fn drop_held(&mut self, io: &mut impl Io, i: usize, now: Instant) {
        if self.schedule.is_some() {
            self.advance(now);
            if self.running() {
                self.stats.idle_dropped += 1;
                if !self.conns[i].dropped_before {
                    self.conns[i].dropped_before = true;
                    self.stats.idle_dropped_connections += 1;
                }
            }
        }
        let conn = &mut self.conns[i];
        if now.duration_since(conn.since) >= MAX_BACKOFF {
            conn.backoff = FIRST_BACKOFF;
        }
        self.close_for_retry(io, i, now);
    }

    /// Closes connection `i` and sets when to retry: after the back-off, which doubles for
    /// next time.
    fn close_for_retry(&mut self, io: &mut impl Io, i: usize, now: Instant) {
        io.close(i);
        let conn = &mut self.conns[i];
        conn.state = State::Closed;
        conn.parser.reset();
        conn.retry_at = now + conn.backoff;
        conn.backoff = (conn.backoff * 2).min(MAX_BACKOFF);
        self.next_sweep = self.next_sweep.min(conn.retry_at);
    }

    /// Retries closed connection `i`: reconnects it, or with a new connection per request
    /// schedules its next request (which connects).
    fn restart(&mut self, io: &mut impl Io, i: usize, now: Instant) {
        if self.spec.per_request && self.is_active(i) {
            self.ready_for_next(i, now);
        } else {
            self.connect(io, i);
        }
    }

    /// Retries closed connections whose back-off has passed and fails connects and
    /// requests older than the timeout.
    fn sweep(&mut self, io: &mut impl Io, now: Instant) {
        self.next_sweep = now + self.sweep_period;
        let running = self.running();
        let timeout = self.spec.timeout;
        for i in 0..self.conns.len() {
            let conn = &self.conns[i];
            match conn.state {
                State::Closed if running => {
                    if now >= conn.retry_at {
                        self.restart(io, i, now);
                    } else {
                        self.next_sweep = self.next_sweep.min(conn.retry_at);
                    }
                }
                State::Connecting if now.duration_since(conn.since) >= timeout => {
                    self.fail(io, i, ErrorKind::Connect, now);
                }
                State::Busy if now.duration_since(conn.since) >= timeout => {
                    self.fail(io, i, ErrorKind::Timeout, now);
                }
                _ => {}
            }
        }
    }
}

impl Wait {
    /// Wait until `until`, with no request to wake for.
    pub fn until(until: Instant) -> Wait {
        Wait { until, wake: None }
    }
}

/// What some bytes told about the reply in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
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
