//! rust-io-uring's server: one thread serves every client through io_uring, Linux's
//! completion-based I/O interface (the "Proactor" pattern), driven with the `io-uring` crate
//! directly. The binary, `src/bin/rust-io-uring.rs`, parses the flags and starts it.
//!
//! What it shows: epoll reports which sockets are ready and leaves the read() and write()
//! calls to the server; io_uring takes the operations themselves, as submission queue
//! entries (SQEs) in a ring shared with the kernel, and returns their results as completion
//! queue entries (CQEs) in a second ring. The design, piece by piece:
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
//! which Rust's borrow checker cannot see: every `unsafe` block in these files says why the
//! memory an SQE points to outlives that SQE.
//!
//! The files, in the order a request meets them:
//! - [`ops`]: what an SQE asks for and how its CQEs find their way back (the user data), and
//!   the three ways to receive ([`ops::RecvMode`]);
//! - [`ring`]: creating the ring, checking what this kernel supports, queueing requests;
//! - [`buffers`]: the provided buffer ring the kernel receives into;
//! - `client`: one connection's bookkeeping: the bytes of its send in flight, backpressure;
//! - [`server`]: the server's state and the completion loop.

pub mod buffers;
mod client;
pub mod ops;
pub mod ring;
pub mod server;

/// A small ring for a test, or None (said on stderr) where io_uring is not allowed: a
/// seccomp filter (EPERM) or a kernel without it (ENOSYS).
#[cfg(test)]
pub(crate) fn test_ring(entries: u32) -> Option<io_uring::IoUring> {
    match io_uring::IoUring::new(entries) {
        Ok(ring) => Some(ring),
        Err(e) if matches!(e.raw_os_error(), Some(libc::EPERM | libc::ENOSYS)) => {
            eprintln!("io_uring is not available here ({e}): test skipped");
            None
        }
        Err(e) => panic!("io_uring_setup() failed: {e}"),
    }
}
