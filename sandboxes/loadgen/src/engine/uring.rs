//! The io_uring engine: one ring per worker thread, completions instead of readiness.
//!
//! Minimum kernel: 6.0 (multishot receive, `IORING_SETUP_SINGLE_ISSUER`); 6.1 for
//! `DEFER_TASKRUN`, which is preferred. Anything older, or a ring the kernel refuses, makes
//! the run fall back to epoll with a note ([`Refusal`], see [`crate::engine`]).
//!
//! What a connection costs:
//! - connect: `socket()` (and `setsockopt`, `bind`) as system calls, then `IORING_OP_CONNECT`;
//! - once connected, one multishot receive (`IORING_OP_RECV` with `IORING_RECV_MULTISHOT`)
//!   stays armed for the connection's life: every arrival posts a completion naming the
//!   buffer the kernel took from the provided-buffer ring ([`BufRing`]), which goes back at
//!   once after its bytes are checked. It is armed again only if it ends without the
//!   connection ending (no buffer was free: `ENOBUFS`, or the completion queue overflowed);
//! - each request: one `IORING_OP_SEND` with `MSG_WAITALL` (the kernel retries partial sends
//!   itself) and `IOSQE_CQE_SKIP_SUCCESS`, so a send that took everything posts nothing;
//! - close: `IORING_OP_ASYNC_CANCEL` of every operation on the socket, then
//!   `IORING_OP_CLOSE`, both queued. The descriptor is closed by the ring, after every
//!   earlier operation naming it was issued, so its number cannot be reused under a queued
//!   operation of the old connection (closing it directly could hand the number to a new
//!   socket while a re-armed receive for the old one still waits in the queue).
//!
//! So a closed-loop round trip is one submission and one completion, and no system call of
//! its own: the sends a batch of replies made due are submitted by the same `io_uring_enter`
//! that waits for the next replies. When completions are already waiting in the queue, they
//! are handled first without entering the kernel.
//!
//! Each operation's `user_data` carries the connection, the kind of operation, and the
//! connection's generation, bumped at every close: completions of a socket already closed
//! are stale and only give back their buffer.
//!
//! Ring flags, each for a reason:
//! - `IORING_SETUP_SINGLE_ISSUER` (6.0): only the worker's thread submits, which lets the
//!   kernel skip locking, and is required by the next flag.
//! - `IORING_SETUP_DEFER_TASKRUN` (6.1): the completion work (copying received bytes into a
//!   buffer, posting the completion) waits until the worker enters the kernel to wait,
//!   instead of interrupting it in the middle of a batch; it is then done all together. Where
//!   the kernel does not know it (6.0), `IORING_SETUP_COOP_TASKRUN` instead: the work still
//!   runs at the thread's next kernel entry, but without an interrupt to force it. The two
//!   are not combined: with deferred work there is no interrupt left to avoid.
//! - `IORING_SETUP_TASKRUN_FLAG`: the kernel flags pending completion work in the shared
//!   ring, so open loop's busy-polling enters the kernel only when there is something to
//!   submit or to complete.
//! - `IORING_SETUP_SUBMIT_ALL`: one bad entry does not stop the rest of a batch.
//! - `IORING_SETUP_R_DISABLED`: the coordinator creates every worker's ring (so a refusal
//!   decides for the whole run before any worker starts); each worker enables its own and
//!   so becomes its single issuer.
//! - Not `IORING_SETUP_SQPOLL`: a kernel thread polling the submission queue would take a
//!   core of its own, on the course's two-core machines the server's.
//!
//! Open loop: the wait's timeout (`IORING_ENTER_EXT_ARG`, nanoseconds) replaces the epoll
//! engine's timerfd; the wake window and busy-polling are the same ([`crate::pacing`]).

use std::io;
use std::mem::MaybeUninit;
use std::net::{Ipv4Addr, SocketAddr};
use std::os::fd::{AsRawFd, FromRawFd, IntoRawFd, OwnedFd};
use std::sync::Arc;
use std::time::Instant;

use io_uring::{IoUring, Probe, cqueue, opcode, squeue, types};

use super::buf_ring::BufRing;
use crate::cli::Protocol;
use crate::net::{self, Blocking, SockAddr};
use crate::pacing::set_timer_slack;
use crate::stats::ErrorKind;
use crate::worker::{Engine, Io, Load, Wait, WorkerSpec};

/// Submission queue entries per ring: about one per connection, within these bounds (a full
/// queue is submitted early, so this only sets how often that happens).
const MIN_SQ_ENTRIES: u32 = 64;
const MAX_SQ_ENTRIES: u32 = 4096;
/// Completion queue entries per submission queue entry: multishot receives post without
/// submitting, and an overflowing queue costs the kernel extra work.
const CQ_PER_SQ: u32 = 8;
const MAX_CQ_ENTRIES: u32 = 65536;
/// Provided buffers per ring: about one per connection (each has at most one reply in
/// flight), within these bounds, and at most this much memory.
const MIN_BUFFERS: usize = 64;
const MAX_BUFFERS: usize = 4096;
const MAX_BUFFER_MEMORY: usize = 64 << 20;
/// Buffer size: an echo reply fits in one (within these bounds); HTTP replies are unknown.
const MIN_BUFFER_BYTES: usize = 1024;
const MAX_BUFFER_BYTES: usize = 64 << 10;
const HTTP_BUFFER_BYTES: usize = 16 << 10;
/// `io_uring_enter` flag: run completion work and reap (the crate sets it only for waits).
const IORING_ENTER_GETEVENTS: u32 = 1;
/// The provided-buffer group of every receive.
const BUFFER_GROUP: u16 = 0;
/// Completions taken from the queue at a time.
const COMPLETIONS_PER_BATCH: usize = 1024;

/// The operations, in the low bits of `user_data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Connect = 0,
    Recv = 1,
    Send = 2,
    /// Closing (cancel and close): only failures post, and they are ignored.
    Close = 3,
}

const OP_BITS: u32 = 2;
const OP_MASK: u64 = (1 << OP_BITS) - 1;

/// `user_data` for operation `op` on connection `i` in its generation `generation`.
fn user_data(op: Op, i: usize, generation: u32) -> u64 {
    (u64::from(generation) << 32) | ((i as u64) << OP_BITS) | op as u64
}

/// The operation, connection and generation of a completion's `user_data`.
fn decode(user_data: u64) -> (Op, usize, u32) {
    let op = match user_data & OP_MASK {
        0 => Op::Connect,
        1 => Op::Recv,
        2 => Op::Send,
        _ => Op::Close,
    };
    let i = ((user_data & 0xffff_ffff) >> OP_BITS) as usize;
    (op, i, (user_data >> 32) as u32)
}

/// Why io_uring cannot be used: what was refused and the errno (or missing feature).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// "EPERM", "ENOSYS" …, or "missing feature".
    cause: String,
    detail: String,
}

impl Refusal {
    fn os(call: &str, err: &io::Error) -> Refusal {
        let errno = err.raw_os_error().unwrap_or(0);
        let hint = match errno {
            libc::EPERM => " (a seccomp profile, or the sysctl kernel.io_uring_disabled)",
            libc::ENOSYS => " (a kernel without io_uring, or a sandbox that hides it)",
            libc::EINVAL => " (a kernel older than 6.0?)",
            _ => "",
        };
        Refusal {
            cause: errno_name(errno),
            detail: format!("{call} failed: {err}{hint}"),
        }
    }

    fn missing(what: &str) -> Refusal {
        Refusal {
            cause: "missing feature".to_string(),
            detail: format!("the kernel lacks {what}"),
        }
    }

    /// The note for stderr and the summary, e.g. "io_uring refused (EPERM):
    /// io_uring_setup failed: …; used epoll".
    pub fn note(&self) -> String {
        format!(
            "io_uring refused ({}): {}; used epoll",
            self.cause, self.detail
        )
    }
}

/// The symbolic name of the errnos io_uring setup is known to fail with.
fn errno_name(errno: i32) -> String {
    let name = match errno {
        libc::EPERM => "EPERM",
        libc::ENOENT => "ENOENT",
        libc::EINTR => "EINTR",
        libc::ENOMEM => "ENOMEM",
        libc::EACCES => "EACCES",
        libc::EFAULT => "EFAULT",
        libc::EBUSY => "EBUSY",
        libc::EINVAL => "EINVAL",
        libc::ENFILE => "ENFILE",
        libc::EMFILE => "EMFILE",
        libc::ENOSYS => "ENOSYS",
        libc::EOPNOTSUPP => "EOPNOTSUPP",
        _ => return format!("errno {errno}"),
    };
    name.to_string()
}

/// How big one worker's ring and buffers are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sizes {
    sq_entries: u32,
    cq_entries: u32,
    buffers: u16,
    buffer_bytes: usize,
}

impl Sizes {
    fn of(spec: &WorkerSpec) -> Sizes {
        let sockets = (spec.connections + spec.idle).max(1);
        let sq_entries = (sockets.next_power_of_two() as u32).clamp(MIN_SQ_ENTRIES, MAX_SQ_ENTRIES);
        let buffer_bytes = match spec.protocol {
            Protocol::Echo => spec
                .request
                .len()
                .next_power_of_two()
                .clamp(MIN_BUFFER_BYTES, MAX_BUFFER_BYTES),
            Protocol::Http => HTTP_BUFFER_BYTES,
        };
        let buffers = sockets
            .next_power_of_two()
            .clamp(MIN_BUFFERS, MAX_BUFFERS)
            .min(MAX_BUFFER_MEMORY / buffer_bytes);
        Sizes {
            sq_entries,
            cq_entries: (sq_entries * CQ_PER_SQ).min(MAX_CQ_ENTRIES),
            buffers: buffers as u16,
            buffer_bytes,
        }
    }
}

/// A worker's ring and its provided buffers, created (disabled) by the coordinator.
pub struct Ring {
    ring: IoUring,
    /// Declared after the ring, so dropped after it: the kernel may fill buffers until then.
    buffers: BufRing,
}

impl Ring {
    /// Creates the ring for the worker of `spec`, with its buffers registered, or says why
    /// the kernel refused.
    pub fn new(spec: &WorkerSpec) -> Result<Ring, Refusal> {
        let sizes = Sizes::of(spec);
        let ring = setup(&sizes)?;
        let params = ring.params();
        for (present, what) in [
            (
                params.is_feature_ext_arg(),
                "IORING_FEAT_EXT_ARG (wait timeouts)",
            ),
            (params.is_feature_fast_poll(), "IORING_FEAT_FAST_POLL"),
            (params.is_feature_nodrop(), "IORING_FEAT_NODROP"),
            (
                params.is_feature_skip_cqe_on_success(),
                "IORING_FEAT_CQE_SKIP",
            ),
        ] {
            if !present {
                return Err(Refusal::missing(what));
            }
        }
        let mut probe = Probe::new();
        ring.submitter()
            .register_probe(&mut probe)
            .map_err(|e| Refusal::os("io_uring_register(PROBE)", &e))?;
        for (code, name) in [
            (opcode::Connect::CODE, "IORING_OP_CONNECT"),
            (opcode::Send::CODE, "IORING_OP_SEND"),
            (opcode::RecvMulti::CODE, "IORING_OP_RECV"),
            (opcode::AsyncCancel2::CODE, "IORING_OP_ASYNC_CANCEL"),
            (opcode::Close::CODE, "IORING_OP_CLOSE"),
        ] {
            if !probe.is_supported(code) {
                return Err(Refusal::missing(name));
            }
        }
        let buffers = BufRing::new(sizes.buffers, sizes.buffer_bytes)
            .map_err(|e| Refusal::os("mmap (provided buffers)", &e))?;
        // SAFETY: `buffers` is dropped after `ring` (field order of Ring and UringEngine).
        unsafe { buffers.register(&ring.submitter(), BUFFER_GROUP) }
            .map_err(|e| Refusal::os("io_uring_register(PBUF_RING)", &e))?;
        Ok(Ring { ring, buffers })
    }
}

/// `io_uring_setup` with the flags explained in the header: deferred task work, or
/// cooperative where the kernel predates it.
fn setup(sizes: &Sizes) -> Result<IoUring, Refusal> {
    let mut builder = IoUring::builder();
    builder
        .setup_cqsize(sizes.cq_entries)
        .setup_submit_all()
        .setup_single_issuer()
        .setup_taskrun_flag()
        .setup_r_disabled();
    let mut deferred = builder.clone();
    deferred.setup_defer_taskrun();
    match deferred.build(sizes.sq_entries) {
        Ok(ring) => Ok(ring),
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => builder
            .setup_coop_taskrun()
            .build(sizes.sq_entries)
            .map_err(|e| Refusal::os("io_uring_setup", &e)),
        Err(e) => Err(Refusal::os("io_uring_setup", &e)),
    }
}

/// One worker's io_uring loop.
pub struct UringEngine {
    io: UringIo,
    /// After `io` (which holds the ring), so dropped after the ring.
    buffers: BufRing,
    /// Completions copied out of the queue, then handled.
    completions: Box<[MaybeUninit<cqueue::Entry>]>,
}

/// The ring, the sockets, and what the kernel reads while operations are in flight.
pub struct UringIo {
    ring: IoUring,
    socks: Vec<Option<OwnedFd>>,
    /// Per connection, bumped at each close (see [`user_data`]).
    generations: Vec<u32>,
    addr: SocketAddr,
    /// The server's address as the kernel reads it when a connect is submitted.
    server: Box<SockAddr>,
    /// The request, read by the kernel while a send is in flight.
    request: Arc<[u8]>,
}

impl UringEngine {
    /// Takes over `ring` in the worker's thread (its only submitter from now on).
    pub fn new(ring: Ring, spec: &WorkerSpec) -> io::Result<UringEngine> {
        let Ring { ring, buffers } = ring;
        ring.submitter().register_enable_rings().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("io_uring_register(ENABLE_RINGS) failed: {e}"),
            )
        })?;
        if spec.rate.is_some() {
            set_timer_slack()?;
        }
        let sockets = spec.connections + spec.idle;
        Ok(UringEngine {
            io: UringIo {
                ring,
                socks: (0..sockets).map(|_| None).collect(),
                generations: vec![0; sockets],
                addr: spec.addr,
                server: Box::new(SockAddr::from(spec.addr)),
                request: spec.request.clone(),
            },
            buffers,
            completions: Box::new_uninit_slice(COMPLETIONS_PER_BATCH),
        })
    }

    /// Handles every completion in the queue.
    fn drain(&mut self, load: &mut Load) {
        let mut batch = std::mem::take(&mut self.completions);
        loop {
            let taken = self.io.ring.completion().fill(&mut batch).len();
            if taken == 0 {
                break;
            }
            for cqe in &batch[..taken] {
                // SAFETY: `fill` initialised the first `taken` entries.
                let cqe = unsafe { cqe.assume_init_ref() };
                self.complete(load, cqe);
            }
        }
        self.completions = batch;
    }

    fn complete(&mut self, load: &mut Load, cqe: &cqueue::Entry) {
        let (op, i, generation) = decode(cqe.user_data());
        let res = cqe.result();
        let current = self.io.is_current(i, generation);
        match op {
            Op::Recv => self.received(load, i, generation, res, cqe.flags()),
            Op::Connect if current && res < 0 => {
                load.fail(&mut self.io, i, ErrorKind::Connect, Instant::now());
            }
            Op::Connect if current => match self.io.arm_recv(i) {
                Ok(()) => load.on_connected(&mut self.io, i),
                Err(_) => load.fail(&mut self.io, i, ErrorKind::Io, Instant::now()),
            },
            // Only a send that failed (or fell short) posts a completion.
            Op::Send if current => {
                let kind = if res < 0 {
                    error_kind(res)
                } else {
                    ErrorKind::Io
                };
                load.fail(&mut self.io, i, kind, Instant::now());
            }
            Op::Connect | Op::Send | Op::Close => {} // stale, or a close's failure
        }
    }

    /// A multishot receive completion on connection `i`: bytes (in a provided buffer, given
    /// back at once), the end of the stream, or an error.
    fn received(&mut self, load: &mut Load, i: usize, generation: u32, res: i32, flags: u32) {
        let current = self.io.is_current(i, generation);
        match cqueue::buffer_select(flags) {
            Some(id) => {
                if current && res > 0 {
                    load.on_data(&mut self.io, i, self.buffers.get(id, res as usize));
                }
                self.buffers.recycle(id);
            }
            None if !current || res == -libc::ENOBUFS => {}
            None if res == 0 => load.on_closed(&mut self.io, i, ErrorKind::Eof),
            None => load.on_closed(&mut self.io, i, error_kind(res)),
        }
        // Ended without the connection ending: no buffer was free, or the queue overflowed.
        let ended_early = !cqueue::more(flags) && (res > 0 || res == -libc::ENOBUFS);
        if ended_early && self.io.is_current(i, generation) && self.io.arm_recv(i).is_err() {
            load.fail(&mut self.io, i, ErrorKind::Io, Instant::now());
        }
    }
}

impl Engine for UringEngine {
    type Io = UringIo;

    fn io(&mut self) -> &mut UringIo {
        &mut self.io
    }

    /// Submits the queued operations and waits for at least one completion (or the time in
    /// `wait`) with one `io_uring_enter` — unless completions are already waiting, which are
    /// handled first, without entering the kernel.
    fn poll(&mut self, load: &mut Load, wait: Wait) -> io::Result<()> {
        if self.io.ring.completion().is_empty()
            && let Some(armed) = self.io.submit_and_wait(wait)?
        {
            load.on_timer(armed);
        }
        self.drain(load);
        Ok(())
    }
}

impl UringIo {
    /// True if a completion of `generation` concerns connection `i`'s open socket.
    fn is_current(&self, i: usize, generation: u32) -> bool {
        self.generations[i] == generation && self.socks[i].is_some()
    }

    /// Queues `entry`, submitting the queue first if it is full.
    fn push(&mut self, entry: &squeue::Entry) -> io::Result<()> {
        loop {
            // SAFETY: what entries point to (the request, the server's address, the buffer
            // ring) lives as long as the ring; sockets are closed through the ring.
            if unsafe { self.ring.submission().push(entry) }.is_ok() {
                return Ok(());
            }
            self.ring.submit()?;
        }
    }

    /// Submits the queue and waits, with one `io_uring_enter`, until a completion arrives or
    /// the time in `wait` comes; returns that time if it was the wake-up asked for and the
    /// wait ended because it came.
    fn submit_and_wait(&mut self, wait: Wait) -> io::Result<Option<Instant>> {
        let (deadline, waking) = match wait.wake {
            Some(wake) if wake < wait.until => (wake, true),
            _ => (wait.until, false),
        };
        let timeout = deadline.saturating_duration_since(Instant::now());
        if timeout.is_zero() {
            self.submit_and_peek()?;
            return Ok(None);
        }
        let ts = types::Timespec::from(timeout);
        let args = types::SubmitArgs::new().timespec(&ts);
        match self.ring.submitter().submit_with_args(1, &args) {
            Ok(_) => Ok(None),
            Err(e) if e.raw_os_error() == Some(libc::ETIME) => Ok(waking.then_some(deadline)),
            // A signal, or completions the kernel must flush first: look at the queue.
            Err(e) if matches!(e.raw_os_error(), Some(libc::EINTR | libc::EBUSY)) => Ok(None),
            Err(e) => Err(enter_failed(e)),
        }
    }

    /// Submits the queue and runs the completion work already pending, without sleeping (a
    /// zero timeout would still sleep until its timer's interrupt): busy-polling. Enters the
    /// kernel only if there is something to submit or completion work is flagged.
    fn submit_and_peek(&mut self) -> io::Result<()> {
        let queue = self.ring.submission();
        let queued = queue.len() as u32;
        if queued == 0 && !queue.taskrun() {
            return Ok(());
        }
        drop(queue);
        // SAFETY: no argument is passed; the queued entries are valid (see `push`).
        let entered = unsafe {
            self.ring
                .submitter()
                .enter::<libc::sigset_t>(queued, 0, IORING_ENTER_GETEVENTS, None)
        };
        match entered {
            Ok(_) => Ok(()),
            Err(e) if matches!(e.raw_os_error(), Some(libc::EINTR | libc::EBUSY)) => Ok(()),
            Err(e) => Err(enter_failed(e)),
        }
    }

    /// Arms the multishot receive of connection `i`.
    fn arm_recv(&mut self, i: usize) -> io::Result<()> {
        let Some(sock) = &self.socks[i] else {
            return Ok(());
        };
        let entry = opcode::RecvMulti::new(types::Fd(sock.as_raw_fd()), BUFFER_GROUP)
            .build()
            .user_data(user_data(Op::Recv, i, self.generations[i]));
        self.push(&entry)
    }
}

impl Io for UringIo {
    fn connect(&mut self, i: usize, source: Option<Ipv4Addr>) -> io::Result<()> {
        let sock = net::socket(self.addr, source, Blocking::Yes)?;
        let entry = opcode::Connect::new(
            types::Fd(sock.as_raw_fd()),
            self.server.as_ptr(),
            self.server.len,
        )
        .build()
        .user_data(user_data(Op::Connect, i, self.generations[i]));
        self.push(&entry)?;
        self.socks[i] = Some(sock);
        Ok(())
    }

    /// Queues a send of the rest of the request; the kernel sends it all (`MSG_WAITALL`) or
    /// posts the failure.
    #[inline]
    fn send(&mut self, i: usize, from: usize) -> Result<usize, ErrorKind> {
        let Some(sock) = &self.socks[i] else {
            return Err(ErrorKind::Io);
        };
        let rest = &self.request[from..];
        let entry = opcode::Send::new(
            types::Fd(sock.as_raw_fd()),
            rest.as_ptr(),
            rest.len() as u32,
        )
        .flags(libc::MSG_NOSIGNAL | libc::MSG_WAITALL)
        .build()
        .flags(squeue::Flags::SKIP_SUCCESS)
        .user_data(user_data(Op::Send, i, self.generations[i]));
        let len = rest.len();
        self.push(&entry).map_err(|_| ErrorKind::Io)?;
        Ok(len)
    }

    /// Queues the cancellation of everything pending on the socket, then its close.
    fn close(&mut self, i: usize) {
        let Some(sock) = self.socks[i].take() else {
            return;
        };
        self.generations[i] = self.generations[i].wrapping_add(1);
        let fd = sock.into_raw_fd();
        let ignored = user_data(Op::Close, i, 0);
        let cancel = opcode::AsyncCancel2::new(types::CancelBuilder::fd(types::Fd(fd)).all())
            .build()
            .flags(squeue::Flags::SKIP_SUCCESS)
            .user_data(ignored);
        let close = opcode::Close::new(types::Fd(fd))
            .build()
            .flags(squeue::Flags::SKIP_SUCCESS)
            .user_data(ignored);
        if self.push(&cancel).and_then(|()| self.push(&close)).is_err() {
            // The ring cannot take them: close here (the receive may linger until the end).
            // SAFETY: `fd` was owned by `sock` and is closed exactly once.
            drop(unsafe { OwnedFd::from_raw_fd(fd) });
        }
    }
}

impl Drop for UringIo {
    /// Hands the queued operations (closes among them) to the kernel before the ring goes.
    fn drop(&mut self) {
        let _ = self.ring.submit();
    }
}

/// An `io_uring_enter` error, saying so.
fn enter_failed(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("io_uring_enter failed: {e}"))
}

/// The error kind of a failed operation's result (`-errno`).
fn error_kind(res: i32) -> ErrorKind {
    ErrorKind::from_io(&io::Error::from_raw_os_error(-res))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::Ramp;
    use std::time::Duration;

    fn spec(
        connections: usize,
        idle: usize,
        protocol: Protocol,
        request_bytes: usize,
    ) -> WorkerSpec {
        let now = Instant::now();
        WorkerSpec {
            index: 0,
            connections,
            first_connection: 0,
            idle,
            first_idle: connections,
            total_connections: connections,
            addr: "127.0.0.1:9000".parse().unwrap(),
            protocol,
            request: vec![0u8; request_bytes].into(),
            timeout: Duration::from_secs(1),
            rate: None,
            per_request: false,
            ramp: Ramp {
                start: now,
                length: Duration::ZERO,
                total: 0,
            },
        }
    }

    #[test]
    fn user_data_round_trips() {
        for (op, i, generation) in [
            (Op::Connect, 0, 0),
            (Op::Recv, 18_999, u32::MAX),
            (Op::Send, 7, 12345),
            (Op::Close, (1 << 30) - 1, 1),
        ] {
            assert_eq!(decode(user_data(op, i, generation)), (op, i, generation));
        }
    }

    #[test]
    fn sizes_follow_the_connections_and_the_reply() {
        let small = Sizes::of(&spec(100, 0, Protocol::Echo, 64));
        assert_eq!(
            small,
            Sizes {
                sq_entries: 128,
                cq_entries: 1024,
                buffers: 128,
                buffer_bytes: 1024
            }
        );
        let large = Sizes::of(&spec(19_000, 0, Protocol::Echo, 1 << 20));
        assert_eq!(large.sq_entries, MAX_SQ_ENTRIES);
        assert_eq!(large.cq_entries, 32768);
        assert_eq!(large.buffer_bytes, MAX_BUFFER_BYTES);
        assert_eq!(large.buffers, 1024, "64 MiB of 64 KiB buffers");
        let http = Sizes::of(&spec(1, 2, Protocol::Http, 40));
        assert_eq!((http.sq_entries, http.buffers), (64, 64));
        assert_eq!(http.buffer_bytes, HTTP_BUFFER_BYTES);
    }

    #[test]
    fn refusals_name_the_errno_and_the_fallback() {
        let eperm = Refusal::os("io_uring_setup", &io::Error::from_raw_os_error(libc::EPERM));
        let note = eperm.note();
        assert!(
            note.starts_with("io_uring refused (EPERM): io_uring_setup failed: "),
            "{note}"
        );
        assert!(
            note.contains("seccomp") && note.ends_with("; used epoll"),
            "{note}"
        );
        let enosys = Refusal::os(
            "io_uring_setup",
            &io::Error::from_raw_os_error(libc::ENOSYS),
        );
        assert!(enosys.note().starts_with("io_uring refused (ENOSYS): "));
        assert_eq!(errno_name(9999), "errno 9999");
        assert_eq!(
            Refusal::missing("IORING_OP_SEND").note(),
            "io_uring refused (missing feature): the kernel lacks IORING_OP_SEND; used epoll"
        );
    }

    #[test]
    fn a_ring_is_created_with_its_buffers_here() {
        // This machine runs a kernel new enough; a refusal here would make every io_uring
        // end-to-end test fall back, so say why at once.
        let ring =
            Ring::new(&spec(10, 0, Protocol::Echo, 64)).unwrap_or_else(|r| panic!("{}", r.note()));
        assert_eq!(ring.buffers.buffer_bytes(), 1024);
    }

    /// The completions after one wait of at most a second: (operation, result, flags).
    fn completions(io: &mut UringIo) -> Vec<(Op, i32, u32)> {
        io.submit_and_wait(Wait::until(Instant::now() + Duration::from_secs(1)))
            .unwrap();
        let cq = io.ring.completion();
        cq.map(|c| (decode(c.user_data()).0, c.result(), c.flags()))
            .collect()
    }

    #[test]
    fn a_receive_without_buffers_ends_loses_nothing_and_close_closes() {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut spec = spec(1, 0, Protocol::Echo, 64);
        spec.addr = listener.local_addr().unwrap();
        // Two buffers of 16 bytes for 100 bytes: the receive runs dry and must be re-armed.
        let sizes = Sizes {
            sq_entries: 8,
            cq_entries: 64,
            buffers: 2,
            buffer_bytes: 16,
        };
        let ring = setup(&sizes).unwrap_or_else(|r| panic!("{}", r.note()));
        let buffers = BufRing::new(2, 16).unwrap();
        // SAFETY: the ring is dropped first (field order of UringEngine).
        unsafe { buffers.register(&ring.submitter(), BUFFER_GROUP) }.unwrap();
        let mut engine = UringEngine::new(Ring { ring, buffers }, &spec).unwrap();
        let io = &mut engine.io;
        io.connect(0, None).unwrap();
        io.submit_and_peek().unwrap(); // queued until submitted
        let (mut peer, _) = listener.accept().unwrap();
        assert_eq!(completions(io), [(Op::Connect, 0, 0)]);
        io.arm_recv(0).unwrap();
        let sent: Vec<u8> = (0..100u8).collect();
        peer.write_all(&sent).unwrap();
        let mut received = Vec::new();
        let mut ran_dry = 0;
        // Bounded, so that a receive that stops delivering fails the test instead of hanging.
        for _ in 0..20 {
            if received.len() >= sent.len() {
                break;
            }
            for (op, res, flags) in completions(io) {
                assert_eq!(op, Op::Recv);
                if let Some(id) = cqueue::buffer_select(flags) {
                    received.extend_from_slice(engine.buffers.get(id, res as usize));
                    engine.buffers.recycle(id);
                } else {
                    assert_eq!(res, -libc::ENOBUFS);
                    assert!(!cqueue::more(flags), "ENOBUFS ends the receive");
                    ran_dry += 1;
                    io.arm_recv(0).unwrap();
                }
            }
        }
        assert_eq!(received, sent);
        assert!(ran_dry >= 1);
        // Cancel and close through the ring: the peer sees the end of the stream.
        io.close(0);
        io.submit_and_peek().unwrap();
        peer.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        assert_eq!(peer.read(&mut [0u8; 8]).unwrap(), 0);
    }

    #[test]
    fn the_cooperative_setup_works_too() {
        // The 6.0 path, taken when DEFER_TASKRUN is unknown, exercised directly.
        let mut builder: io_uring::Builder = IoUring::builder();
        builder
            .setup_single_issuer()
            .setup_coop_taskrun()
            .setup_submit_all();
        assert!(builder.build(8).is_ok());
    }
}
