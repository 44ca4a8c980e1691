//! rust-io-uring: one thread serves every client through io_uring, Linux's completion-based
//! I/O interface (the "Proactor" pattern), driven with the `io-uring` crate directly.
//!
//! What it shows: epoll tells a server *which* sockets are ready and leaves the read() and
//! write() calls to it. io_uring takes the operations themselves: we write requests
//! ("accept on this socket", "receive from that one", "send these bytes") as submission
//! queue entries (SQEs) into a ring of memory shared with the kernel, and read the results
//! as completion queue entries (CQEs) from a second shared ring. One io_uring_enter() call
//! hands the kernel a whole batch of SQEs and sleeps until completions arrive, so the number
//! of system calls per request falls far below epoll's two or three.
//!   - one system call per turn of the loop: CQEs are read from shared memory without one, so
//!     the loop enters the kernel only when the completion queue is empty, and then submits
//!     the replies of the last batch and waits for the next in the same call;
//!   - a wait that expects a batch: it asks for the CQEs it can expect soon (its own sends and
//!     about as many requests as last time), for at most WAIT, so one wake-up brings many
//!     completions, not one; a lone client is not kept waiting (without SQPOLL: with it, the
//!     loop waits for one CQE);
//!   - replies decided once per batch: a connection with several CQEs in one batch gets one
//!     send with all its replies;
//!   - multishot accept: one SQE accepts every future connection, one CQE each;
//!   - multishot recv: one SQE per connection receives for as long as data comes. The kernel
//!     picks a buffer for each chunk from a "provided buffer ring" we share with it, so an
//!     idle connection holds no receive buffer at all;
//!   - send: one send SQE in flight per connection, so replies leave in order; a short send
//!     is resubmitted for the rest, and replies produced meanwhile wait in the protocol's
//!     output queue;
//!   - backpressure: past OUTPUT_HIGH_WATER_BYTES of unsent replies we cancel the client's
//!     recv, and arm it again once the client has read its replies.
//!
//! The kernel may end a multishot request on its own (no IORING_CQE_F_MORE flag on its last
//! CQE), e.g. with ENOBUFS when every ring buffer is in use: we then submit it again. With
//! `--sqpoll on`, a kernel thread takes SQEs from the ring as we write them, so submitting
//! needs no system call while that thread is awake; it still makes io_uring_enter() calls,
//! just fewer: to wake the thread after SQ_THREAD_IDLE_MS without work, and to wait for
//! completions when none are waiting.
//!
//! The kernel reads and writes our memory *after* the call that asked it to has returned,
//! which Rust's borrow checker cannot see: every `unsafe` block below says why the memory
//! an SQE points to outlives that SQE.
//!
//! This is the Rust twin of c-io-uring (servers/c/io-uring.c): the same design, knobs and
//! fallbacks, so the two can be compared line for line.
//!
//! Minimum kernel: Linux 5.7 to run (IORING_FEAT_FAST_POLL, and the opcodes checked at start),
//! with fallbacks it prints at start: multishot accept and buffer rings need 5.19 (before:
//! one accept SQE per connection, and one recv SQE at a time into a buffer of the
//! connection's own), multishot recv 6.0 (before: one recv SQE at a time, buffer from the
//! ring), IORING_SETUP_SINGLE_ISSUER 6.0 and IORING_SETUP_DEFER_TASKRUN 6.1 (before: the
//! kernel runs completion work whenever the thread enters the kernel). Docker 25 and later
//! block io_uring in their default seccomp profile: run the container with the course's
//! sandboxes/seccomp/io-uring.json (the runner does so for this server).
//!
//! Usage:     rust-io-uring [--port 9000] [--protocol echo|http] [--sqpoll off|on]
//!                          [--batch 64] [--entries 4096] [--buffers 1024]
//!                          [--recv multishot|oneshot|plain] [--backlog 4096]
//!                          [--buffer-bytes 16384]
//! Test with: rust-io-uring --port 9000 &  and then  nc 127.0.0.1 9000   (type; lines come back)
//!            rust-io-uring --protocol http &  and then  wrk -c 100 -d 5s http://127.0.0.1:9000/
//!
//! Simplifications: one thread and one ring, so one CPU core; received bytes are copied from
//! the ring buffer into the connection's output (no zero-copy send); sockets are ordinary
//! file descriptors (no registered files); no idle timeouts; IPv4 only. The protocols live
//! in src/protocol.rs, shared with rust-tokio.

use std::io;
use std::mem::MaybeUninit;
use std::net::{Shutdown, TcpListener};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::process::ExitCode;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum, value_parser};
use io_uring::types::{BufRingEntry, Fd, SubmitArgs, Timespec};
use io_uring::{IoUring, Probe, cqueue, opcode, squeue};
use socket2::SockRef;

use servers::config::{self, Common};
use servers::log::{self, RateLimit, die, log};
use servers::net;
use servers::protocol::{Conn, Protocol, feed};
use servers::stop;

const SERVER_ID: &str = "rust-io-uring";
/// Completion queue slots per submission queue slot: one multishot SQE posts many CQEs.
const CQ_ENTRIES_PER_SQE: u32 = 4;
/// `--buffers` x `--buffer-bytes` may not exceed this (1 GiB).
const MAX_BUFFER_RING_BYTES: usize = 1 << 30;
/// Our buffer ring's id (its "buffer group").
const BUFFER_GROUP: u16 = 0;
/// `--sqpoll on`: the kernel thread sleeps after this many milliseconds without work.
const SQ_THREAD_IDLE_MS: u32 = 100;
/// Bytes of replies queued for a client before we stop receiving from it.
const OUTPUT_HIGH_WATER_BYTES: usize = 256 * 1024;
/// A connection's send buffer bigger than this is freed once sent, as protocol.rs does.
const SENDING_KEEP_BYTES: usize = 65536;
/// "Out of file descriptors" is said at most this often.
const PAUSE_LOG_INTERVAL: Duration = Duration::from_secs(10);
/// At exit: how long we wait for the kernel to give back cancelled operations.
const SHUTDOWN_DRAIN: Duration = Duration::from_millis(1000);
/// How long the loop waits for more completions to come in before it takes what is there.
const WAIT: Duration = Duration::from_micros(100);
/// ... and it waits for the requests of at most one in this many connections.
const WAIT_SHARE: usize = 4;

/// One thread serves every client through io_uring.
#[derive(Parser, Debug)]
#[command(name = SERVER_ID, max_term_width = 100)]
struct Cli {
    #[command(flatten)]
    common: Common,

    /// A kernel thread polls the submission queue (IORING_SETUP_SQPOLL)
    #[arg(long, value_enum, default_value_t = OnOff::Off)]
    sqpoll: OnOff,

    /// Completions handled per loop turn, between two submissions, 1..=4096
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 64,
          value_parser = value_parser!(u32).range(1..=4096))]
    batch: u32,

    /// Submission queue slots, 8..=32768 (rounded up to a power of two)
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 4096,
          value_parser = value_parser!(u32).range(8..=32768))]
    entries: u32,

    /// Receive buffers in the ring, --buffer-bytes each, 1..=32768
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 1024,
          value_parser = value_parser!(u32).range(1..=32768))]
    buffers: u32,

    /// How to receive: multishot, or one SQE per chunk (ring or own buffer)
    #[arg(long, value_enum, default_value_t = RecvMode::Multishot)]
    recv: RecvMode,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OnOff {
    Off,
    On,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RecvMode {
    /// One multishot recv per connection, buffers from the ring (Linux 6.0)
    Multishot,
    /// One recv SQE per chunk received, buffers from the ring (Linux 5.19)
    Oneshot,
    /// One recv SQE per chunk, into a buffer the connection owns
    Plain,
}

impl RecvMode {
    fn name(self) -> &'static str {
        match self {
            RecvMode::Multishot => "multishot",
            RecvMode::Oneshot => "oneshot",
            RecvMode::Plain => "plain",
        }
    }
}

/// Every SQE carries 64 bits of "user data" that come back in its CQEs: we put the operation
/// there and the socket's fd. An fd cannot be reused while an operation on it is in flight,
/// because we close a socket only once the kernel has returned them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Accept = 1,
    Recv,
    Send,
    Stop,
    Cancel,
    Probe,
}

fn user_data(op: Op, fd: RawFd) -> u64 {
    (op as u64) << 32 | u64::from(fd as u32)
}

fn op_of(data: u64) -> Option<Op> {
    [
        Op::Accept,
        Op::Recv,
        Op::Send,
        Op::Stop,
        Op::Cancel,
        Op::Probe,
    ]
    .into_iter()
    .find(|op| *op as u64 == data >> 32)
}

fn fd_of(data: u64) -> RawFd {
    data as u32 as RawFd
}

/// A CQE's negative result as the error it stands for.
fn errno(result: i32) -> io::Error {
    io::Error::from_raw_os_error(-result)
}

// ---- the ring ---------------------------------------------------------------------------

/// The io_uring instance, and how many of our requests the kernel still holds.
struct Ring {
    uring: IoUring,
    sqpoll: bool,
    /// SQEs whose last CQE has not arrived yet.
    in_flight: usize,
}

impl Ring {
    /// Queues one request; the next io_uring_enter() (or the SQPOLL thread) submits it.
    ///
    /// Relies on: the submission queue being a ring we write and the kernel reads. When it
    /// is full, submitting hands the kernel what we have written, which frees the slots;
    /// with SQPOLL the kernel thread frees them in its own time, and IORING_ENTER_SQ_WAIT
    /// sleeps until it has.
    ///
    /// # Safety
    ///
    /// Every buffer the entry points to must stay valid until the request's last CQE has
    /// arrived: not freed, not moved, and for a send not changed.
    unsafe fn push(&mut self, entry: squeue::Entry, op: Op, fd: RawFd) {
        let entry = entry.user_data(user_data(op, fd));
        loop {
            // SAFETY: our caller vouches for the entry's buffers (see above).
            if unsafe { self.uring.submission().push(&entry) }.is_ok() {
                break;
            }
            match self.uring.submit() {
                Ok(_) => {}
                Err(e) if e.raw_os_error() == Some(libc::EINTR) => {}
                Err(e) => die(format_args!("io_uring_enter() failed: {e}")),
            }
            if self.sqpoll {
                match self.uring.submitter().squeue_wait() {
                    Ok(_) => {}
                    Err(e) if e.raw_os_error() == Some(libc::EINTR) => {}
                    Err(e) => die(format_args!("io_uring_enter(SQ_WAIT) failed: {e}")),
                }
            }
        }
        self.in_flight += 1;
    }

    /// Relies on: IORING_OP_ASYNC_CANCEL finding a request by its user data. The cancelled
    /// request still completes, with -ECANCELED (or with its result, if it finished first).
    fn cancel(&mut self, op: Op, fd: RawFd) {
        let entry = opcode::AsyncCancel::new(user_data(op, fd)).build();
        // SAFETY: a cancel names its target by user data and points to no memory.
        unsafe { self.push(entry, Op::Cancel, fd) }
    }

    /// One io_uring_enter(): submits what is queued and waits until `want` CQEs are waiting or
    /// `timeout` has passed (IORING_FEAT_EXT_ARG, Linux 5.11). Neither ETIME (the time is up
    /// and nothing came) nor EINTR (a signal) is an error here: the caller looks at the queue.
    fn submit_and_wait_at_most(&mut self, want: usize, timeout: Duration) {
        let timeout = Timespec::from(timeout);
        let args = SubmitArgs::new().timespec(&timeout);
        match self.uring.submitter().submit_with_args(want, &args) {
            Ok(_) => {}
            Err(e) if matches!(e.raw_os_error(), Some(libc::ETIME | libc::EINTR)) => {}
            Err(e) => die(format_args!("io_uring_enter() failed: {e}")),
        }
    }

    /// Submits what is queued and waits for one CQE; set-up only.
    fn wait_one(&mut self) -> cqueue::Entry {
        loop {
            if let Some(cqe) = self.uring.completion().next() {
                return cqe;
            }
            match self.uring.submit_and_wait(1) {
                Ok(_) => {}
                Err(e) if e.raw_os_error() == Some(libc::EINTR) => {}
                Err(e) => die(format_args!("io_uring_enter() failed: {e}")),
            }
        }
    }
}

// ---- set-up -----------------------------------------------------------------------------

/// io_uring_setup() failing with EPERM almost always means a policy, not a bug: a seccomp
/// filter (Docker 25+ and containerd 2.0 block io_uring in their default profiles) or the
/// sysctl kernel.io_uring_disabled (Linux 6.6+). Say so, and what to do, then exit 1.
fn die_setup_failed(err: io::Error, sqpoll: bool) -> ! {
    match err.raw_os_error() {
        Some(libc::EPERM) => {
            log(format_args!("io_uring_setup() failed (EPERM): {err}"));
            log(
                "io_uring is not allowed here. Docker 25 and later (and containerd 2.0) leave \
                 io_uring_setup, io_uring_enter and io_uring_register out of their default \
                 seccomp profile, and the sysctl kernel.io_uring_disabled (1 or 2) forbids \
                 io_uring too.",
            );
            die(format_args!(
                "Fix: run the container with --security-opt \
                 seccomp=sandboxes/seccomp/io-uring.json (the course's runner does this for \
                 servers whose catalog entry says \"needs_io_uring\": true), or set sysctl \
                 kernel.io_uring_disabled=0 on the host.{}",
                if sqpoll {
                    " (With --sqpoll on, kernels before 5.11 also need CAP_SYS_ADMIN.)"
                } else {
                    ""
                }
            ))
        }
        Some(libc::ENOSYS) => die(format_args!(
            "io_uring_setup() failed (ENOSYS): {err}: this kernel has no io_uring: it needs \
             Linux 5.1 or later built with CONFIG_IO_URING (this server needs 5.7); use \
             rust-tokio or c-epoll instead."
        )),
        Some(libc::ENOMEM) => die(format_args!(
            "io_uring_setup() failed (ENOMEM): {err}: the rings did not fit in memory (before \
             Linux 5.12 they count against RLIMIT_MEMLOCK): try a smaller --entries."
        )),
        _ => die(format_args!("io_uring_setup() failed: {err}")),
    }
}

/// Creates the ring; returns it with the setup flags we got, for the log.
///
/// Relies on: io_uring_setup() creating the two rings, sized by `entries` and the completion
/// queue size, and rejecting with EINVAL a flag the kernel does not know. Without SQPOLL we
/// ask for SINGLE_ISSUER (only this thread submits) and DEFER_TASKRUN (the kernel finishes
/// completions only when we wait for them, in one go, instead of interrupting us at any
/// system call: so the loop asks for completions only when it has none left to read, and for
/// many at once); if the kernel is older than 6.1 we do without. SQPOLL cannot be combined
/// with DEFER_TASKRUN.
// ANCHOR: ring-setup
fn setup_ring(entries: u32, sqpoll: bool) -> (IoUring, &'static str) {
    let entries = entries.next_power_of_two();
    let mut builder = IoUring::builder();
    builder
        .setup_cqsize(entries * CQ_ENTRIES_PER_SQE)
        .setup_clamp();
    let flags = if sqpoll {
        builder.setup_sqpoll(SQ_THREAD_IDLE_MS);
        "SQPOLL"
    } else {
        builder.setup_single_issuer().setup_defer_taskrun();
        "SINGLE_ISSUER|DEFER_TASKRUN"
    };

    match builder.build(entries) {
        Ok(ring) => (ring, flags),
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) && !sqpoll => {
            log(
                "IORING_SETUP_DEFER_TASKRUN not supported (needs Linux 6.1): \
                 the kernel will run completion work at any system call instead",
            );
            let ring = IoUring::builder()
                .setup_cqsize(entries * CQ_ENTRIES_PER_SQE)
                .setup_clamp()
                .build(entries)
                .unwrap_or_else(|e| die_setup_failed(e, sqpoll));
            (ring, "none")
        }
        Err(e) => die_setup_failed(e, sqpoll),
    }
}
// ANCHOR_END: ring-setup

/// Relies on: IORING_REGISTER_PROBE (Linux 5.6) listing the opcodes this kernel knows, and
/// IORING_FEAT_FAST_POLL (5.7): without it, a recv on a socket with nothing to read would
/// park a kernel worker thread per connection instead of waiting on the socket.
fn check_kernel_support(ring: &IoUring) {
    let mut probe = Probe::new();
    if let Err(e) = ring.submitter().register_probe(&mut probe) {
        die(format_args!(
            "io_uring_register(IORING_REGISTER_PROBE) failed: {e}: this kernel is older than \
             Linux 5.6 (this server needs 5.7)"
        ));
    }
    let needed = [
        (opcode::PollAdd::CODE, "POLL_ADD", "5.1"),
        (opcode::Accept::CODE, "ACCEPT", "5.5"),
        (opcode::AsyncCancel::CODE, "ASYNC_CANCEL", "5.5"),
        (opcode::Send::CODE, "SEND", "5.6"),
        (opcode::Recv::CODE, "RECV", "5.6"),
    ];
    let mut missing = false;
    for (code, name, since) in needed {
        if !probe.is_supported(code) {
            log(format_args!(
                "this kernel's io_uring lacks IORING_OP_{name} (Linux {since})"
            ));
            missing = true;
        }
    }
    if !ring.params().is_feature_fast_poll() {
        log("this kernel's io_uring lacks IORING_FEAT_FAST_POLL (Linux 5.7)");
        missing = true;
    }
    if missing {
        std::process::exit(1);
    }
}

/// "FAST_POLL NODROP ...": the IORING_FEAT_* flags io_uring_setup() reported.
fn describe_features(ring: &IoUring) -> String {
    let p = ring.params();
    let features = [
        (p.is_feature_single_mmap(), "SINGLE_MMAP"),
        (p.is_feature_nodrop(), "NODROP"),
        (p.is_feature_submit_stable(), "SUBMIT_STABLE"),
        (p.is_feature_fast_poll(), "FAST_POLL"),
        (p.is_feature_sqpoll_nonfixed(), "SQPOLL_NONFIXED"),
        (p.is_feature_ext_arg(), "EXT_ARG"),
        (p.is_feature_native_workers(), "NATIVE_WORKERS"),
        (p.is_feature_skip_cqe_on_success(), "CQE_SKIP"),
    ];
    let names: Vec<&str> = features
        .iter()
        .filter(|(has, _)| *has)
        .map(|(_, name)| *name)
        .collect();
    names.join(" ")
}

/// Anonymous memory from mmap(): page-aligned and zero-filled, as the kernel wants a buffer
/// ring; unmapped when dropped.
struct Mapping {
    address: NonNull<u8>,
    bytes: usize,
}

impl Mapping {
    fn new(bytes: usize, what: &str) -> Mapping {
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing
        // touches no memory of ours.
        let address = unsafe {
            libc::mmap(
                ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if address == libc::MAP_FAILED {
            die(format_args!(
                "mmap({bytes} bytes) for {what} failed: {}",
                io::Error::last_os_error()
            ));
        }
        let address = NonNull::new(address.cast()).expect("mmap never returns NULL here");
        Mapping { address, bytes }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: we mapped exactly this range in Mapping::new, and nothing uses it any more.
        if unsafe { libc::munmap(self.address.as_ptr().cast(), self.bytes) } < 0 {
            log(format_args!(
                "munmap() failed: {}",
                io::Error::last_os_error()
            ));
        }
    }
}

/// The provided buffer ring (Linux 5.19): an array of {address, length, buffer id} that we
/// fill at the tail and the kernel takes from at the head, one buffer per received chunk;
/// the CQE says which buffer (its id) holds the bytes. Plus the buffers themselves.
struct BufferRing {
    entries: Mapping,
    memory: Mapping,
    mask: u16,
    tail: u16,
    buffer_bytes: usize,
}

impl BufferRing {
    /// Relies on: IORING_REGISTER_PBUF_RING. The ring's size must be a power of two, and the
    /// kernel reads it where we put it, so it is page-aligned memory of our own. Returns the
    /// kernel's error if it says no (before 5.19).
    // ANCHOR: buffer-ring
    fn register(ring: &IoUring, count: u16, buffer_bytes: usize) -> io::Result<BufferRing> {
        let entries = count.next_power_of_two();
        let ring_memory = Mapping::new(
            usize::from(entries) * std::mem::size_of::<BufRingEntry>(),
            "the buffer ring",
        );
        // SAFETY: the ring memory stays mapped until this BufferRing is dropped, which the
        // Server does only after the IoUring (field order), and so after the kernel has let
        // go of it.
        unsafe {
            ring.submitter().register_buf_ring_with_flags(
                ring_memory.address.as_ptr() as u64,
                entries,
                BUFFER_GROUP,
                0,
            )?;
        }
        let memory = Mapping::new(usize::from(count) * buffer_bytes, "the receive buffers");
        let mut buffers = BufferRing {
            entries: ring_memory,
            memory,
            mask: entries - 1,
            tail: 0,
            buffer_bytes,
        };
        for id in 0..count {
            buffers.recycle(id); // the kernel sees each buffer from now on
        }
        Ok(buffers)
    }
    // ANCHOR_END: buffer-ring

    /// The first `len` bytes of buffer `id`, which a CQE has just handed us.
    fn bytes(&self, id: u16, len: usize) -> &[u8] {
        assert!(len <= self.buffer_bytes);
        // SAFETY: buffer `id` lies inside `memory`; the kernel wrote `len` bytes into it and,
        // having reported them, does not touch it again until we recycle it.
        unsafe {
            std::slice::from_raw_parts(
                self.memory
                    .address
                    .as_ptr()
                    .add(usize::from(id) * self.buffer_bytes),
                len,
            )
        }
    }

    /// Hands buffer `id` back to the kernel: it goes in at the ring's tail.
    fn recycle(&mut self, id: u16) {
        let base = self.entries.address.as_ptr().cast::<BufRingEntry>();
        let address = self.memory.address.as_ptr() as usize + usize::from(id) * self.buffer_bytes;
        // SAFETY: the slot at our tail is inside the ring, and the kernel reads only the slots
        // between its head and the tail we last published, which this one is not. The tail
        // itself lives in slot 0's reserved field, which the setters do not touch; it is
        // published with a release store, so the kernel sees the slot filled before it sees
        // the new tail.
        unsafe {
            let slot = &mut *base.add(usize::from(self.tail & self.mask));
            slot.set_addr(address as u64);
            slot.set_len(self.buffer_bytes as u32);
            slot.set_bid(id);
            self.tail = self.tail.wrapping_add(1);
            AtomicU16::from_ptr(BufRingEntry::tail(base).cast_mut())
                .store(self.tail, Ordering::Release);
        }
    }
}

/// Relies on: kernels before 6.0 rejecting IORING_RECV_MULTISHOT with EINVAL. The opcode
/// probe cannot tell (IORING_OP_RECV itself is older), so we try: one byte and then end of
/// stream waiting on a socket pair, one multishot recv. A kernel that supports it posts the
/// byte with IORING_CQE_F_MORE ("more CQEs will follow"), then a last CQE for the end.
fn multishot_recv_works(ring: &mut Ring, buffers: &mut BufferRing) -> bool {
    let (ours, mut theirs) =
        UnixStream::pair().unwrap_or_else(|e| die(format_args!("socketpair() failed: {e}")));
    io::Write::write_all(&mut theirs, b"x")
        .unwrap_or_else(|e| die(format_args!("write(fd {}) failed: {e}", theirs.as_raw_fd())));
    drop(theirs); // end of stream after the byte

    let fd = ours.as_raw_fd();
    let entry = opcode::RecvMulti::new(Fd(fd), BUFFER_GROUP).build();
    // SAFETY: a buffer-select recv writes only into the registered ring's buffers, which
    // outlive the ring; `ours` stays open until the request's last CQE (the loop below).
    unsafe { ring.push(entry, Op::Probe, fd) }

    let mut works = false;
    loop {
        let cqe = ring.wait_one();
        if cqe.result() == 1 && cqueue::more(cqe.flags()) {
            works = true;
        }
        if let Some(id) = cqueue::buffer_select(cqe.flags()) {
            buffers.recycle(id);
        }
        if !cqueue::more(cqe.flags()) {
            ring.in_flight -= 1;
            return works;
        }
    }
}

// ---- connections ------------------------------------------------------------------------

/// What the kernel holds for one connection, next to the protocol's `Conn`.
struct Client {
    /// The socket; closed when the Client is dropped.
    socket: OwnedFd,
    conn: Conn,
    /// The bytes of the send SQE in flight (and any of them not sent yet).
    sending: Vec<u8>,
    /// How many bytes of `sending` the kernel has taken so far.
    sent: usize,
    /// `--recv plain` only: this client's receive buffer.
    recv_buf: Option<Box<[MaybeUninit<u8>]>>,
    /// A recv is in the kernel (multishot: until its last CQE).
    recv_armed: bool,
    /// ... and we have asked the kernel to cancel it.
    recv_cancelled: bool,
    /// A send is in the kernel.
    send_in_flight: bool,
    /// Free once the kernel has returned every operation.
    closing: bool,
}

impl Client {
    /// Bytes of replies not yet sent: those in flight plus those waiting behind them.
    fn queued_output(&self) -> usize {
        (self.sending.len() - self.sent) + self.conn.output_pending()
    }

    /// We receive from a client unless it has finished sending or too much output waits.
    fn wants_to_receive(&self) -> bool {
        !self.conn.read_eof && self.queued_output() < OUTPUT_HIGH_WATER_BYTES
    }
}

/// The server's state. One thread, so it all lives here, owned by `main`.
struct Server {
    // Field order matters: fields are dropped in declaration order, and the ring must be
    // gone (so the kernel has let go of every request) before the buffers it writes into.
    ring: Ring,
    /// None with `--recv plain`.
    buffers: Option<BufferRing>,
    /// clients[fd]: the connection on socket fd, if any.
    clients: Vec<Option<Client>>,
    listener: TcpListener,
    /// Readable once SIGTERM or SIGINT arrived.
    stop: OwnedFd,
    protocol: Protocol,
    buffer_bytes: usize,
    batch: usize,
    recv_mode: RecvMode,
    /// False on kernels before 5.19.
    multishot_accept: bool,
    /// An accept is in the kernel.
    accept_armed: bool,
    /// Out of file descriptors: wait for a close.
    accept_paused: bool,
    /// ... and we said so (rate-limited by `pause_log`).
    pause_logged: bool,
    pause_log: RateLimit,
    /// The poll on `stop` is in the kernel.
    stop_armed: bool,
    /// Recvs the kernel ended with ENOBUFS.
    ring_ran_dry: u64,
    /// `clients` entries in use.
    open_connections: usize,
}

impl Server {
    fn client(&mut self, fd: RawFd) -> &mut Client {
        self.clients[fd as usize]
            .as_mut()
            .expect("a completion for a connection we have")
    }

    /// Relies on: the accept CQE's result being the new socket's file descriptor.
    // ANCHOR: multishot-accept
    fn arm_accept(&mut self) {
        let fd = self.listener.as_raw_fd();
        let entry = if self.multishot_accept {
            opcode::AcceptMulti::new(Fd(fd))
                .flags(libc::SOCK_CLOEXEC)
                .build()
        } else {
            opcode::Accept::new(Fd(fd), ptr::null_mut(), ptr::null_mut())
                .flags(libc::SOCK_CLOEXEC)
                .build()
        };
        // SAFETY: no memory: we do not ask for the peer's address (null pointers).
        unsafe { self.ring.push(entry, Op::Accept, fd) }
        self.accept_armed = true;
    }
    // ANCHOR_END: multishot-accept

    /// Relies on: a one-shot IORING_OP_POLL_ADD completing once the fd is readable.
    fn arm_stop_poll(&mut self) {
        let fd = self.stop.as_raw_fd();
        let entry = opcode::PollAdd::new(Fd(fd), libc::POLLIN as u32).build();
        // SAFETY: a poll points to no memory.
        unsafe { self.ring.push(entry, Op::Stop, fd) }
        self.stop_armed = true;
    }

    /// Relies on: a recv with IOSQE_BUFFER_SELECT taking a buffer from our ring only when
    /// bytes have arrived, and IORING_RECV_MULTISHOT (Linux 6.0) keeping the request alive
    /// after each chunk: one CQE per chunk, each flagged IORING_CQE_F_MORE, until end of
    /// stream, an error, a cancel, or an empty ring (ENOBUFS) ends it.
    // ANCHOR: multishot-recv
    fn arm_recv(&mut self, fd: RawFd) {
        let mode = self.recv_mode;
        let cl = self.clients[fd as usize]
            .as_mut()
            .expect("arm_recv for a connection we have");
        let entry = match mode {
            RecvMode::Multishot => opcode::RecvMulti::new(Fd(fd), BUFFER_GROUP).build(),
            RecvMode::Oneshot => opcode::Recv::new(Fd(fd), ptr::null_mut(), 0)
                .buf_group(BUFFER_GROUP) // "pick a buffer from this group"
                .build()
                .flags(squeue::Flags::BUFFER_SELECT),
            RecvMode::Plain => {
                let buf = cl
                    .recv_buf
                    .as_mut()
                    .expect("--recv plain: every client has a buffer");
                opcode::Recv::new(Fd(fd), buf.as_mut_ptr().cast(), buf.len() as u32).build()
            }
        };
        // SAFETY: with a buffer group the kernel writes into a ring buffer, memory that
        // lives in `self.buffers` until after the ring is gone (Server's field order). With
        // --recv plain it writes into `cl.recv_buf`, a heap allocation that does not move
        // with the Client and that nothing reads, replaces or frees while `recv_armed` is
        // set: free_if_idle() drops a Client only once its last recv CQE has arrived.
        unsafe { self.ring.push(entry, Op::Recv, fd) }
        cl.recv_armed = true;
        cl.recv_cancelled = false;
    }
    // ANCHOR_END: multishot-recv

    /// Relies on: a send SQE reading its bytes when the kernel gets to it, perhaps after this
    /// function has long returned, and sending perhaps only part of them (the CQE says how
    /// many). So the bytes move out of the protocol's output queue, which `feed` keeps
    /// appending to, into `sending`, untouched until the CQE arrives; and only one send is in
    /// flight per connection, because two could complete, or send their bytes, out of order.
    // ANCHOR: send
    fn start_send(&mut self, fd: RawFd) {
        let cl = self.clients[fd as usize]
            .as_mut()
            .expect("start_send for a connection we have");
        if cl.send_in_flight {
            return; // one at a time: handle_send() starts the next
        }
        if cl.sent == cl.sending.len() {
            if cl.conn.output_pending() == 0 {
                return;
            }
            let spare = std::mem::take(&mut cl.sending);
            cl.sending = cl.conn.take_output(spare);
            cl.sent = 0;
        }
        let rest = &cl.sending[cl.sent..];
        let len = u32::try_from(rest.len()).unwrap_or(u32::MAX); // a short send does the rest
        let entry = opcode::Send::new(Fd(fd), rest.as_ptr(), len)
            .flags(libc::MSG_NOSIGNAL)
            .build();
        // SAFETY: the bytes live in `cl.sending`'s heap allocation, which does not move with
        // the Client and which nothing changes, replaces or frees while `send_in_flight` is
        // set: only this function refills `sending`, and only after handle_send() has seen
        // the CQE; free_if_idle() drops a Client only when no send is in flight.
        unsafe { self.ring.push(entry, Op::Send, fd) }
        cl.send_in_flight = true;
    }
    // ANCHOR_END: send

    // ANCHOR: close
    /// Frees the connection once the kernel holds nothing of it: no recv, no send in flight.
    fn free_if_idle(&mut self, fd: RawFd) {
        let cl = self.client(fd);
        if cl.recv_armed || cl.send_in_flight {
            return; // their CQEs will call us again
        }
        self.clients[fd as usize] = None; // closes the socket, frees the buffers
        self.open_connections -= 1;

        if self.accept_paused && !stop::stop_requested() {
            self.accept_paused = false; // a file descriptor is free again
            if self.pause_logged {
                log("accepting connections again");
            }
            self.arm_accept();
        }
    }

    /// Relies on: the kernel possibly still using the connection's socket and memory (a recv
    /// waiting for bytes, a send waiting for room). We cancel those and free the connection
    /// when their last CQEs have come back, never before: the kernel could otherwise write
    /// into freed memory, or the fd be reused while CQEs for the old socket are on their way.
    fn close_client(&mut self, fd: RawFd) {
        let cl = self.clients[fd as usize]
            .as_mut()
            .expect("close_client for a connection we have");
        if cl.closing {
            return;
        }
        cl.closing = true;
        if cl.recv_armed && !cl.recv_cancelled {
            self.ring.cancel(Op::Recv, fd);
            cl.recv_cancelled = true;
        }
        if cl.send_in_flight {
            self.ring.cancel(Op::Send, fd);
        }
        self.free_if_idle(fd);
    }
    // ANCHOR_END: close

    /// After a batch of completions, for each connection that had one: what does it need from
    /// the kernel next? The io_uring counterpart of epoll.c's update_interest(). Sends what is
    /// queued; once all is sent, shuts down the sending side after an HTTP "Connection: close"
    /// reply, and closes when the client has finished too; arms a recv if we want bytes and
    /// none is in the kernel, or cancels it if replies are piling up (backpressure).
    fn schedule_io(&mut self, fd: RawFd) {
        self.start_send(fd);
        let cl = self.client(fd);
        if !cl.send_in_flight {
            // Everything has been sent.
            if cl.conn.should_shut_output() {
                if let Err(e) = SockRef::from(&cl.socket).shutdown(Shutdown::Write) {
                    log::connection_error("shutdown", fd, &e);
                    return self.close_client(fd);
                }
                cl.conn.output_shut = true;
            }
            if cl.conn.finished() {
                return self.close_client(fd); // the client is done sending, and all is sent
            }
        }
        let wants = cl.wants_to_receive();
        if wants && !cl.recv_armed {
            self.arm_recv(fd);
        } else if !wants && cl.recv_armed && !cl.recv_cancelled {
            cl.recv_cancelled = true;
            self.ring.cancel(Op::Recv, fd); // bytes stay in the socket: TCP slows the client
        }
    }

    // ---- completions ----------------------------------------------------------------------

    /// Relies on: a multishot accept posting one CQE per connection, flagged
    /// IORING_CQE_F_MORE while it stays armed. An error ends it (no F_MORE): after a client
    /// that gave up we arm it again at once; when file descriptors run out (EMFILE) only
    /// after a connection closes, as c-epoll does. Kernels before 5.19 reject the multishot
    /// flag with EINVAL: from then on one accept SQE per connection.
    fn handle_accept(&mut self, result: i32, flags: u32) {
        if !cqueue::more(flags) {
            self.accept_armed = false;
        }
        if result >= 0 {
            // SAFETY: the kernel has just opened this descriptor for us; nothing else owns it.
            let socket = unsafe { OwnedFd::from_raw_fd(result) };
            let index = result as usize;
            if index >= self.clients.len() {
                self.clients.resize_with(index + 1, || None);
            }
            let recv_buf = (self.recv_mode == RecvMode::Plain)
                .then(|| Box::new_uninit_slice(self.buffer_bytes));
            self.open_connections += 1;
            self.clients[index] = Some(Client {
                socket,
                conn: Conn::new(self.protocol),
                sending: Vec::new(),
                sent: 0,
                recv_buf,
                recv_armed: false,
                recv_cancelled: false,
                send_in_flight: false,
                closing: false,
            });
            self.arm_recv(result);
        } else if result == -libc::EINVAL && self.multishot_accept {
            log(
                "multishot accept not supported (needs Linux 5.19): one accept SQE per connection instead",
            );
            self.multishot_accept = false;
        } else if net::accept_error_is_exhaustion(-result) {
            self.pause_logged = self.pause_log.ready();
            if self.pause_logged {
                log(format_args!(
                    "accept() failed; pausing until a connection closes (said at most every \
                     {} s): {}",
                    PAUSE_LOG_INTERVAL.as_secs(),
                    errno(result)
                ));
            }
            self.accept_paused = true;
        } else if result != -libc::ECANCELED && !net::accept_error_is_transient(-result) {
            die(format_args!(
                "accept(fd {}) failed: {}",
                self.listener.as_raw_fd(),
                errno(result)
            ));
        }
        if !self.accept_armed && !self.accept_paused && !stop::stop_requested() {
            self.arm_accept();
        }
    }

    /// Relies on: a recv CQE's result being the byte count (0: the client shut down its
    /// sending side; negative: -errno), and, with a ring buffer, IORING_CQE_F_BUFFER plus the
    /// buffer's id in the flags. We copy the bytes into the protocol (`feed`) and give the
    /// buffer straight back to the ring. The replies go out when the whole batch is in
    /// (schedule_io()).
    // ANCHOR: recv-completion
    fn handle_recv(&mut self, fd: RawFd, result: i32, flags: u32) {
        let buffer_id = cqueue::buffer_select(flags);
        let Some(cl) = self.clients[fd as usize].as_mut() else {
            unreachable!("recv completion for fd {fd}, which has no connection");
        };
        if !cqueue::more(flags) {
            cl.recv_armed = false; // the kernel ended it: schedule_io() re-arms it
        }
        if result > 0 && !cl.closing {
            let len = result as usize;
            let data = match (buffer_id, &cl.recv_buf) {
                (Some(id), _) => self.buffers.as_ref().expect("a buffer ring").bytes(id, len),
                // SAFETY: the kernel wrote `len` bytes at the start of this client's buffer
                // and is done with it: the recv that did so has just completed.
                (None, Some(buf)) => unsafe {
                    std::slice::from_raw_parts(buf.as_ptr().cast(), len)
                },
                (None, None) => unreachable!("a recv completion with bytes but no buffer"),
            };
            feed(&mut cl.conn, data);
        }
        if let Some(id) = buffer_id {
            self.buffers.as_mut().expect("a buffer ring").recycle(id);
        }

        if cl.closing {
            return self.free_if_idle(fd);
        }
        match result {
            0 => cl.conn.read_eof = true,
            r if r == -libc::ENOBUFS => {
                if self.ring_ran_dry == 0 {
                    log(
                        "the buffer ring ran dry (all buffers in use); receiving again as \
                         buffers come back (more with --buffers)",
                    );
                }
                self.ring_ran_dry += 1;
            }
            r if r < 0 && r != -libc::ECANCELED => {
                log::connection_error("recv", fd, &errno(r));
                self.close_client(fd);
            }
            _ => {}
        }
    }
    // ANCHOR_END: recv-completion

    /// Relies on: a send CQE's result being the number of bytes the kernel took, which may be
    /// fewer than we offered (schedule_io() then sends the rest before anything newer).
    // ANCHOR: send-completion
    fn handle_send(&mut self, fd: RawFd, result: i32) {
        let cl = self.client(fd);
        cl.send_in_flight = false;
        if cl.closing {
            return self.free_if_idle(fd);
        }
        if result < 0 {
            log::connection_error("send", fd, &errno(result));
            return self.close_client(fd);
        }
        cl.sent += result as usize;
        if cl.sent == cl.sending.len() && cl.sending.capacity() > SENDING_KEEP_BYTES {
            cl.sending = Vec::new(); // give back what a burst needed
            cl.sent = 0;
        }
    }
    // ANCHOR_END: send-completion

    /// Relies on: a cancel's own CQE: 0 found, -ENOENT already finished, -EALREADY finishing.
    fn handle_cancel(&mut self, fd: RawFd, result: i32) {
        if result < 0 && result != -libc::ENOENT && result != -libc::EALREADY {
            log(format_args!("cancel(fd {fd}) failed: {}", errno(result)));
        }
    }

    /// The signal handler has already set stop_requested(): this CQE only woke the loop.
    fn handle_stop(&mut self) {
        self.stop_armed = false;
    }

    fn handle_completion(&mut self, cqe: &cqueue::Entry) {
        let (data, result, flags) = (cqe.user_data(), cqe.result(), cqe.flags());
        if !cqueue::more(flags) {
            self.ring.in_flight -= 1; // that was the operation's last CQE
        }
        match op_of(data) {
            Some(Op::Accept) => self.handle_accept(result, flags),
            Some(Op::Recv) => self.handle_recv(fd_of(data), result, flags),
            Some(Op::Send) => self.handle_send(fd_of(data), result),
            Some(Op::Stop) => self.handle_stop(),
            Some(Op::Cancel) => self.handle_cancel(fd_of(data), result),
            Some(Op::Probe) | None => {}
        }
    }

    /// The second half of a completion: the connection it was about, if it is still open,
    /// decides what it needs next. Called once the whole batch has been handled, so that a
    /// connection whose recv posted three chunks in one batch sends one reply with all three,
    /// instead of one now and the others only after that send's CQE has come back.
    fn schedule_after(&mut self, cqe: &cqueue::Entry) {
        let data = cqe.user_data();
        if !matches!(op_of(data), Some(Op::Recv | Op::Send)) {
            return;
        }
        let fd = fd_of(data);
        if self.clients[fd as usize]
            .as_ref()
            .is_some_and(|cl| !cl.closing)
        {
            self.schedule_io(fd); // twice for the same connection does no harm
        }
    }

    // ANCHOR: coalesced-wait
    /// How many CQEs the next wait can expect soon: one for each SQE we are about to submit
    /// (nearly all sends, which complete at once), and as many requests (recv CQEs) as the last
    /// wait brought, at least one: a lone client's next request is the one more we wait for,
    /// so it is not slowed. But at most the requests of one connection in WAIT_SHARE: a client
    /// that sends its next request only once it has our reply would otherwise find all its
    /// connections waiting on us, and idle. Never more than one batch.
    fn expected_completions(&mut self, requests: usize) -> usize {
        let requests = requests.min(self.open_connections / WAIT_SHARE).max(1);
        (self.ring.uring.submission().len() + requests).min(self.batch)
    }

    /// Relies on: io_uring_enter() with IORING_ENTER_GETEVENTS doing three jobs in one call:
    /// it submits every SQE written since the last call, runs the completion work that
    /// DEFER_TASKRUN kept for this moment, and sleeps until `want` CQEs are waiting. With a
    /// timeout (IORING_FEAT_EXT_ARG, Linux 5.11) it returns when the time is up with whatever
    /// is there, or ETIME if nothing came.
    ///
    /// Why wait for more than one CQE: the sends we submit in the same call usually complete at
    /// once, so waiting for one CQE would return straight away with just those, and a second
    /// call would do the real waiting; and with DEFER_TASKRUN the kernel finishes at most
    /// max(20, want) completions per pass (Linux 6.13 and later). So we wait for the CQEs we
    /// can expect (expected_completions()), but never longer than WAIT: a request that came in
    /// early waits at most that long for company. If nothing came in that time the server is
    /// idle, and the next call sleeps for one CQE without a limit. With SQPOLL neither reason
    /// holds (the kernel thread submits the sends, and there is no DEFER_TASKRUN): waiting for
    /// more would only hold replies back (measured: a quarter fewer requests served), so we
    /// wait for one, as before.
    fn wait_for_completions(&mut self, want: usize) {
        if want > 1 && !self.ring.sqpoll && self.ring.uring.params().is_feature_ext_arg() {
            self.ring.submit_and_wait_at_most(want, WAIT);
        } else if let Err(e) = self.ring.uring.submit_and_wait(1)
            && e.raw_os_error() != Some(libc::EINTR)
        {
            die(format_args!("io_uring_enter() failed: {e}"));
        }
    }
    // ANCHOR_END: coalesced-wait

    /// Relies on: the completion queue being memory we can read without a system call. So the
    /// loop enters the kernel only when there is nothing left to read: then one io_uring_enter()
    /// submits what the last batch queued and waits for the next. While CQEs are waiting we take
    /// up to --batch of them at a time (the completion queue's head moves past them when the
    /// iterator is dropped, freeing their slots for the kernel at once), first handling each,
    /// then deciding once per connection what it needs next (schedule_after). After a full
    /// batch, if more CQEs are waiting, we submit without waiting (one system call, none with
    /// SQPOLL while its thread is awake), so replies do not wait for the whole queue to be read.
    // ANCHOR: event-loop
    fn run(&mut self) {
        let mut completions: Vec<cqueue::Entry> = Vec::with_capacity(self.batch);
        let mut requests = 0; // recv CQEs since the last wait
        while !stop::stop_requested() {
            if self.ring.uring.completion().is_empty() {
                let want = self.expected_completions(requests);
                self.wait_for_completions(want);
                requests = 0;
            } else if !self.ring.uring.submission().is_empty()
                && let Err(e) = self.ring.uring.submit()
                && e.raw_os_error() != Some(libc::EINTR)
            {
                die(format_args!("io_uring_enter() failed: {e}"));
            }

            completions.extend(self.ring.uring.completion().take(self.batch));
            for cqe in &completions {
                if op_of(cqe.user_data()) == Some(Op::Recv) {
                    requests += 1;
                }
                self.handle_completion(cqe);
            }
            for cqe in &completions {
                self.schedule_after(cqe);
            }
            completions.clear();
        }
    }
    // ANCHOR_END: event-loop

    // ---- shutting down --------------------------------------------------------------------

    /// Relies on: cancelled requests completing promptly with -ECANCELED. We wait (at most
    /// SHUTDOWN_DRAIN) until every operation has come back before closing sockets and freeing
    /// memory: the listening socket in particular would otherwise live on, held by the
    /// accept request, until the kernel tears the ring down in the background.
    fn drain_in_flight_operations(&mut self) {
        if self.accept_armed {
            self.ring.cancel(Op::Accept, self.listener.as_raw_fd());
        }
        if self.stop_armed {
            self.ring.cancel(Op::Stop, self.stop.as_raw_fd());
        }
        for fd in 0..self.clients.len() {
            let Some(cl) = self.clients[fd].as_mut() else {
                continue;
            };
            if cl.recv_armed && !cl.recv_cancelled {
                self.ring.cancel(Op::Recv, fd as RawFd);
                cl.recv_cancelled = true;
            }
            if cl.send_in_flight {
                self.ring.cancel(Op::Send, fd as RawFd);
            }
        }

        let deadline = Instant::now() + SHUTDOWN_DRAIN;
        while self.ring.in_flight > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                log(format_args!(
                    "{} operations still in flight after {SHUTDOWN_DRAIN:?}; exiting anyway",
                    self.ring.in_flight
                ));
                return;
            }
            if self.ring.uring.params().is_feature_ext_arg() {
                self.ring.submit_and_wait_at_most(1, left);
            } else {
                // Before Linux 5.11 a wait cannot carry a timeout: look again in a moment.
                std::thread::sleep(Duration::from_millis(10));
                if let Err(e) = self.ring.uring.submit()
                    && e.raw_os_error() != Some(libc::EINTR)
                {
                    die(format_args!("io_uring_enter() failed: {e}"));
                }
            }
            for cqe in self.ring.uring.completion() {
                if !cqueue::more(cqe.flags()) {
                    self.ring.in_flight -= 1;
                }
                if op_of(cqe.user_data()) == Some(Op::Accept) && cqe.result() >= 0 {
                    // SAFETY: accepted too late: the kernel opened it for us; we close it.
                    drop(unsafe { OwnedFd::from_raw_fd(cqe.result()) });
                }
            }
        }
    }

    /// Closes every connection and frees everything.
    fn shut_down(mut self) {
        self.drain_in_flight_operations();
        let open = self.clients.iter().flatten().count();
        self.clients.clear(); // closes every socket
        log(format_args!(
            "{} received: closed {open} connection{}, exiting",
            stop::stop_signal_name(),
            if open == 1 { "" } else { "s" }
        ));
        if self.ring_ran_dry > 0 {
            log(format_args!(
                "the buffer ring ran dry {} time{}",
                self.ring_ran_dry,
                if self.ring_ran_dry == 1 { "" } else { "s" }
            ));
        }
        // Dropping `self` closes the ring (unregistering the buffer ring), then unmaps the
        // buffers, then closes the listening socket and the stop pipe.
    }
}

fn main() -> ExitCode {
    let cli: Cli = config::parse(SERVER_ID);
    let sqpoll = cli.sqpoll == OnOff::On;
    let buffer_bytes = cli.common.buffer_bytes as usize;
    let mut recv_mode = cli.recv;

    if recv_mode != RecvMode::Plain && cli.buffers as usize * buffer_bytes > MAX_BUFFER_RING_BYTES {
        die(format_args!(
            "--buffers {} x --buffer-bytes {buffer_bytes} is more than {} MiB of receive buffers",
            cli.buffers,
            MAX_BUFFER_RING_BYTES >> 20
        ));
    }

    let stop = stop::stop_pipe();
    net::raise_fd_limit();

    let (uring, setup_flags) = setup_ring(cli.entries, sqpoll);
    check_kernel_support(&uring);
    let mut ring = Ring {
        uring,
        sqpoll,
        in_flight: 0,
    };
    let mut buffers = None;
    if recv_mode != RecvMode::Plain {
        // --buffers is at most 32768: it fits a u16.
        match BufferRing::register(&ring.uring, cli.buffers as u16, buffer_bytes) {
            Ok(registered) => buffers = Some(registered),
            Err(e) => {
                log(format_args!(
                    "io_uring_register(IORING_REGISTER_PBUF_RING) failed: {e} (buffer rings \
                     need Linux 5.19); falling back to a receive buffer per connection"
                ));
                recv_mode = RecvMode::Plain;
            }
        }
    }
    if let (RecvMode::Multishot, Some(registered)) = (recv_mode, buffers.as_mut())
        && !multishot_recv_works(&mut ring, registered)
    {
        log("multishot recv not supported (needs Linux 6.0): one recv SQE at a time");
        recv_mode = RecvMode::Oneshot;
    }

    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").map_or_else(
        |_| "(unknown)".to_string(),
        |release| release.trim().to_string(),
    );
    log(format_args!(
        "io_uring on Linux {kernel}: features {}; setup flags {setup_flags}; multishot accept; {}",
        describe_features(&ring.uring),
        match recv_mode {
            RecvMode::Multishot => "multishot recv from the buffer ring",
            RecvMode::Oneshot => "one-shot recv from the buffer ring",
            RecvMode::Plain => "one-shot recv into a buffer per connection",
        }
    ));

    let listener = net::listen_on(&cli.common); // blocking: io_uring does the waiting
    let mut server = Server {
        ring,
        buffers,
        clients: Vec::new(),
        listener,
        stop,
        protocol: cli.common.protocol,
        buffer_bytes,
        batch: cli.batch as usize,
        recv_mode,
        multishot_accept: true,
        accept_armed: false,
        accept_paused: false,
        pause_logged: false,
        pause_log: RateLimit::new(PAUSE_LOG_INTERVAL),
        stop_armed: false,
        ring_ran_dry: 0,
        open_connections: 0,
    };
    server.arm_accept();
    server.arm_stop_poll();
    config::print_config(
        SERVER_ID,
        &cli.common,
        &[
            ("sqpoll", if sqpoll { "on" } else { "off" }.to_string()),
            ("batch", cli.batch.to_string()),
            ("entries", cli.entries.to_string()),
            ("buffers", cli.buffers.to_string()),
            ("recv", recv_mode.name().to_string()), // what we really do
        ],
    );
    server.run();
    server.shut_down();
    ExitCode::SUCCESS
}
