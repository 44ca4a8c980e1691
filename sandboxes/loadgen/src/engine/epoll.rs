//! The epoll engine: one `mio` poll (epoll, edge-triggered) per worker thread.
//!
//! A round trip costs one `read`, one `write` and a share of one `epoll_wait` (wrk adds two
//! `epoll_ctl`), with no allocation, no locks and, in closed loop, no timers on the hot path.
//! Sockets are registered once, edge-triggered, for both directions: a writable event only
//! matters while a connect is settling or a large request is still being sent.
//!
//! A read that returns less than the buffer size drained the socket (TCP never returns short
//! while data is queued), so an edge-triggered loop needs no extra `read` to see `EAGAIN`.
//!
//! Open loop: `epoll_wait` only counts milliseconds, so the engine arms a timerfd
//! ([`Timer`]) for the wake-up the state machine asks for, registered in the same epoll set.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mio::event::Event;
use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token};

use crate::net::{self, Blocking};
use crate::pacing::{Timer, set_timer_slack};
use crate::stats::ErrorKind;
use crate::worker::{Engine, Io, Load, Reply, State, Wait, WorkerSpec};

/// Size of each thread's read buffer (shared by all its connections).
const READ_BUFFER_BYTES: usize = 64 * 1024;
/// Most events taken from one `epoll_wait`.
const EVENTS_PER_POLL: usize = 1024;
/// The timerfd's token; connections use their index.
const TIMER: Token = Token(usize::MAX);

/// One worker's epoll loop.
pub struct EpollEngine {
    io: EpollIo,
    events: Events,
    buf: Box<[u8]>,
    /// Open loop: wakes the loop for the earliest due request.
    timer: Option<Timer>,
}

/// The sockets, in the epoll set, and what is sent on them.
pub struct EpollIo {
    poll: Poll,
    server: SocketAddr,
    socks: Vec<Option<TcpStream>>,
    request: Arc<[u8]>,
}

impl EpollEngine {
    pub fn new(spec: &WorkerSpec) -> io::Result<EpollEngine> {
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
        Ok(EpollEngine {
            io: EpollIo {
                poll,
                server: spec.addr,
                socks: (0..spec.connections + spec.idle).map(|_| None).collect(),
                request: spec.request.clone(),
            },
            events: Events::with_capacity(EVENTS_PER_POLL),
            buf: vec![0u8; READ_BUFFER_BYTES].into_boxed_slice(),
            timer,
        })
    }

    fn on_event(&mut self, load: &mut Load, event: &Event) {
        if event.token() == TIMER {
            if let Some(armed) = self.timer.as_mut().and_then(Timer::fired) {
                load.on_timer(armed);
            }
            return;
        }
        let i = event.token().0;
        match load.state(i) {
            State::Connecting => {
                match self.io.connect_outcome(i) {
                    None => return, // not settled yet
                    Some(Ok(())) => load.on_connected(&mut self.io, i),
                    Some(Err(())) => load.fail(&mut self.io, i, ErrorKind::Connect, Instant::now()),
                }
                // A server that closes at once may have sent its FIN with the connect's edge.
                if load.state(i) == State::Held && hung_up(event) {
                    load.drop_held(&mut self.io, i, Instant::now());
                }
            }
            State::Busy => {
                if event.is_writable() && !load.on_writable(&mut self.io, i) {
                    return;
                }
                if event.is_readable() || event.is_read_closed() || event.is_error() {
                    self.read(load, i);
                }
            }
            State::Held if hung_up(event) => load.drop_held(&mut self.io, i, Instant::now()),
            State::Held | State::Closed | State::Ready => {}
        }
    }

    /// Reads what arrived on connection `i` and hands it to the state machine, until the
    /// socket is drained or the reply is complete (or wrong).
    #[inline]
    fn read(&mut self, load: &mut Load, i: usize) {
        loop {
            let Some(sock) = self.io.socks[i].as_mut() else {
                return;
            };
            let n = match sock.read(&mut self.buf) {
                Ok(0) => return load.on_closed(&mut self.io, i, ErrorKind::Eof),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return load.on_closed(&mut self.io, i, ErrorKind::from_io(&e)),
            };
            let reply = load.on_data(&mut self.io, i, &self.buf[..n]);
            if reply != Reply::Partial || n < self.buf.len() {
                return; // complete, wrong, or drained
            }
        }
    }
}

impl Engine for EpollEngine {
    type Io = EpollIo;

    fn io(&mut self) -> &mut EpollIo {
        &mut self.io
    }

    /// One `epoll_wait` (mio rounds sub-millisecond timeouts up, so this never spins unless
    /// asked to with a wake-up that has passed) and the handling of what it returned.
    fn poll(&mut self, load: &mut Load, wait: Wait) -> io::Result<()> {
        let now = Instant::now();
        let mut timeout = wait.until.saturating_duration_since(now);
        if let (Some(wake), Some(timer)) = (wait.wake, self.timer.as_mut()) {
            if wake <= now {
                timeout = Duration::ZERO;
            } else {
                timer.arm(wake)?;
            }
        }
        match self.io.poll.poll(&mut self.events, Some(timeout)) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(()),
            Err(e) => return Err(io::Error::new(e.kind(), format!("epoll_wait failed: {e}"))),
        }
        // Moved out while its events are handled (an empty Events allocates nothing).
        let events = std::mem::replace(&mut self.events, Events::with_capacity(0));
        for event in events.iter() {
            self.on_event(load, event);
        }
        self.events = events;
        Ok(())
    }
}

impl EpollIo {
    /// Whether connection `i`'s non-blocking connect has settled: connected, failed, or
    /// (`None`) not yet.
    fn connect_outcome(&self, i: usize) -> Option<Result<(), ()>> {
        let sock = self.socks[i].as_ref()?;
        match sock.take_error() {
            Ok(None) => {}
            Ok(Some(_)) | Err(_) => return Some(Err(())),
        }
        match sock.peer_addr() {
            Ok(_) => Some(Ok(())),
            Err(e) if e.kind() == io::ErrorKind::NotConnected => None,
            Err(_) => Some(Err(())),
        }
    }
}

impl Io for EpollIo {
    fn connect(&mut self, i: usize, source: Option<Ipv4Addr>) -> io::Result<()> {
        let fd = net::socket(self.server, source, Blocking::No)?;
        net::start_connect(&fd, self.server)?;
        let mut sock = TcpStream::from_std(std::net::TcpStream::from(fd));
        self.poll.registry().register(
            &mut sock,
            Token(i),
            Interest::READABLE | Interest::WRITABLE,
        )?;
        self.socks[i] = Some(sock);
        Ok(())
    }

    /// Writes as much of the request as the socket takes.
    #[inline]
    fn send(&mut self, i: usize, from: usize) -> Result<usize, ErrorKind> {
        let Some(sock) = self.socks[i].as_mut() else {
            return Err(ErrorKind::Io);
        };
        let mut written = from;
        while written < self.request.len() {
            match sock.write(&self.request[written..]) {
                Ok(0) => return Err(ErrorKind::Io),
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ErrorKind::from_io(&e)),
            }
        }
        Ok(written - from)
    }

    /// Closes the socket, which also removes it from the epoll set.
    fn close(&mut self, i: usize) {
        self.socks[i] = None;
    }
}

/// The peer closed or reset the connection, or sent something: all the same to an idle one.
fn hung_up(event: &Event) -> bool {
    event.is_readable() || event.is_read_closed() || event.is_error()
}
