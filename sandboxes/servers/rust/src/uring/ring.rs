//! The io_uring instance: creating it, checking what this kernel's io_uring can do, and
//! queueing requests into it.
//!
//! Set-up is where io_uring differs most between kernels and hosts, so it is kept apart from
//! the server's loop: [`setup_ring`] asks for the flags that make the loop cheap and does
//! without the ones an older kernel refuses; [`check_kernel_support`] and
//! [`multishot_recv_works`] find out what the kernel supports before the first client comes;
//! a refusal by policy (seccomp, a sysctl) is told apart from a missing feature and explained.
//! [`Ring`] wraps the ring for the server: it counts the requests the kernel still holds,
//! which is what a clean shutdown waits for.

use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::time::Duration;

use io_uring::types::{Fd, SubmitArgs, Timespec};
use io_uring::{IoUring, Probe, cqueue, opcode, squeue};

use crate::log::{die, log};
use crate::uring::buffers::{BUFFER_GROUP, BufferRing};
use crate::uring::ops::{Op, user_data};

/// Completion queue slots per submission queue slot: one multishot SQE posts many CQEs.
pub const CQ_ENTRIES_PER_SQE: u32 = 4;
/// `--sqpoll on`: the kernel thread sleeps after this many milliseconds without work.
pub const SQ_THREAD_IDLE_MS: u32 = 100;

/// The io_uring instance, and how many of our requests the kernel still holds.
pub struct Ring {
    pub(super) uring: IoUring,
    pub(super) sqpoll: bool,
    /// SQEs whose last CQE has not arrived yet.
    pub(super) in_flight: usize,
}

impl Ring {
    /// Wraps a ring from [`setup_ring`]; `sqpoll` says whether it was set up with SQPOLL.
    pub fn new(uring: IoUring, sqpoll: bool) -> Ring {
        Ring {
            uring,
            sqpoll,
            in_flight: 0,
        }
    }

    pub fn uring(&self) -> &IoUring {
        &self.uring
    }

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
    pub(super) unsafe fn push(&mut self, entry: squeue::Entry, op: Op, fd: RawFd) {
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
    pub(super) fn cancel(&mut self, op: Op, fd: RawFd) {
        let entry = opcode::AsyncCancel::new(user_data(op, fd)).build();
        // SAFETY: a cancel names its target by user data and points to no memory.
        unsafe { self.push(entry, Op::Cancel, fd) }
    }

    /// One io_uring_enter(): submits what is queued and waits until `want` CQEs are waiting or
    /// `timeout` has passed (IORING_FEAT_EXT_ARG, Linux 5.11). Neither ETIME (the time is up
    /// and nothing came) nor EINTR (a signal) is an error here: the caller looks at the queue.
    pub(super) fn submit_and_wait_at_most(&mut self, want: usize, timeout: Duration) {
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
    let mut messages = setup_failure_messages(&err, sqpoll);
    let last = messages.pop().expect("at least one message");
    for message in messages {
        log(message);
    }
    die(last)
}

/// What [`die_setup_failed`] says, one log line each; the last is said as the server exits.
fn setup_failure_messages(err: &io::Error, sqpoll: bool) -> Vec<String> {
    match err.raw_os_error() {
        Some(libc::EPERM) => vec![
            format!("io_uring_setup() failed (EPERM): {err}"),
            "io_uring is not allowed here. Docker 25 and later (and containerd 2.0) leave \
             io_uring_setup, io_uring_enter and io_uring_register out of their default \
             seccomp profile, and the sysctl kernel.io_uring_disabled (1 or 2) forbids \
             io_uring too."
                .to_string(),
            format!(
                "Fix: run the container with --security-opt \
                 seccomp=sandboxes/seccomp/io-uring.json (the course's runner does this for \
                 servers whose catalog entry says \"needs_io_uring\": true), or set sysctl \
                 kernel.io_uring_disabled=0 on the host.{}",
                if sqpoll {
                    " (With --sqpoll on, kernels before 5.11 also need CAP_SYS_ADMIN.)"
                } else {
                    ""
                }
            ),
        ],
        Some(libc::ENOSYS) => vec![format!(
            "io_uring_setup() failed (ENOSYS): {err}: this kernel has no io_uring: it needs \
             Linux 5.1 or later built with CONFIG_IO_URING (this server needs 5.7); use \
             rust-tokio or c-epoll instead."
        )],
        Some(libc::ENOMEM) => vec![format!(
            "io_uring_setup() failed (ENOMEM): {err}: the rings did not fit in memory (before \
             Linux 5.12 they count against RLIMIT_MEMLOCK): try a smaller --entries."
        )],
        _ => vec![format!("io_uring_setup() failed: {err}")],
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
pub fn setup_ring(entries: u32, sqpoll: bool) -> (IoUring, &'static str) {
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
pub fn check_kernel_support(ring: &IoUring) {
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
pub fn describe_features(ring: &IoUring) -> String {
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

/// The running kernel's release ("6.1.0-18-amd64"), for the start-up log.
pub fn kernel_release() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease").map_or_else(
        |_| "(unknown)".to_string(),
        |release| release.trim().to_string(),
    )
}

/// Relies on: kernels before 6.0 rejecting IORING_RECV_MULTISHOT with EINVAL. The opcode
/// probe cannot tell (IORING_OP_RECV itself is older), so we try: one byte and then end of
/// stream waiting on a socket pair, one multishot recv. A kernel that supports it posts the
/// byte with IORING_CQE_F_MORE ("more CQEs will follow"), then a last CQE for the end.
pub fn multishot_recv_works(ring: &mut Ring, buffers: &mut BufferRing) -> bool {
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

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::uring::ops::{fd_of, op_of};
    use crate::uring::test_ring;

    #[test]
    fn a_cancel_of_nothing_comes_back_as_enoent_with_its_user_data() {
        let Some(uring) = test_ring(8) else { return };
        let mut ring = Ring::new(uring, false);
        ring.cancel(Op::Recv, 42);
        assert_eq!(ring.in_flight, 1);
        let cqe = ring.wait_one();
        assert_eq!(op_of(cqe.user_data()), Some(Op::Cancel));
        assert_eq!(fd_of(cqe.user_data()), 42);
        assert_eq!(cqe.result(), -libc::ENOENT, "no recv on fd 42 to cancel");
    }

    #[test]
    fn a_full_submission_queue_is_submitted_to_make_room() {
        let Some(uring) = test_ring(8) else { return };
        let mut ring = Ring::new(uring, false); // 8 submission slots
        for fd in 0..20 {
            ring.cancel(Op::Send, fd);
        }
        assert_eq!(ring.in_flight, 20);
        let mut fds: Vec<RawFd> = (0..20)
            .map(|_| fd_of(ring.wait_one().user_data()))
            .collect();
        fds.sort_unstable();
        assert_eq!(
            fds,
            (0..20).collect::<Vec<_>>(),
            "every request reached the kernel"
        );
    }

    #[test]
    fn a_wait_with_nothing_to_come_ends_at_its_timeout() {
        let Some(uring) = test_ring(8) else { return };
        let mut ring = Ring::new(uring, false);
        let start = Instant::now();
        ring.submit_and_wait_at_most(1, Duration::from_millis(20));
        let waited = start.elapsed();
        assert!(waited >= Duration::from_millis(15), "{waited:?}");
        assert!(waited < Duration::from_secs(5), "{waited:?}");
        assert!(ring.uring.completion().is_empty());
    }

    #[test]
    fn this_kernel_gets_the_flags_we_ask_for_and_the_features_we_need() {
        if test_ring(8).is_none() {
            return; // setup_ring would exit the test process
        }
        let (uring, flags) = setup_ring(5, false);
        assert_eq!(flags, "SINGLE_ISSUER|DEFER_TASKRUN", "Linux 6.1 or later");
        assert_eq!(
            uring.params().sq_entries(),
            8,
            "rounded up to a power of two"
        );
        assert_eq!(uring.params().cq_entries(), 8 * CQ_ENTRIES_PER_SQE);
        check_kernel_support(&uring); // exits the test process if anything is missing

        let features = describe_features(&uring);
        for needed in ["FAST_POLL", "EXT_ARG"] {
            assert!(features.split(' ').any(|f| f == needed), "{features}");
        }
        assert!(!features.starts_with(' ') && !features.ends_with(' ') && !features.contains("  "));
    }

    #[test]
    fn multishot_recv_is_found_to_work_and_leaves_nothing_in_flight() {
        let Some(uring) = test_ring(8) else { return };
        let mut buffers = BufferRing::register(&uring, 4, 512).expect("Linux 5.19 or later");
        let mut ring = Ring::new(uring, false);
        assert!(
            multishot_recv_works(&mut ring, &mut buffers),
            "Linux 6.0 or later"
        );
        assert_eq!(ring.in_flight, 0);
    }

    #[test]
    fn a_refused_ring_is_explained_by_what_refused_it() {
        let eperm = setup_failure_messages(&io::Error::from_raw_os_error(libc::EPERM), false);
        assert_eq!(eperm.len(), 3);
        assert!(eperm[0].starts_with("io_uring_setup() failed (EPERM): "));
        assert!(eperm[1].contains("seccomp") && eperm[1].contains("io_uring_disabled"));
        assert!(eperm[2].contains("seccomp=sandboxes/seccomp/io-uring.json"));
        assert!(!eperm[2].contains("--sqpoll"));
        let sqpoll = setup_failure_messages(&io::Error::from_raw_os_error(libc::EPERM), true);
        assert!(sqpoll[2].ends_with("also need CAP_SYS_ADMIN.)"));

        let enosys = setup_failure_messages(&io::Error::from_raw_os_error(libc::ENOSYS), false);
        assert!(enosys.len() == 1 && enosys[0].contains("use rust-tokio or c-epoll"));
        let enomem = setup_failure_messages(&io::Error::from_raw_os_error(libc::ENOMEM), false);
        assert!(enomem.len() == 1 && enomem[0].contains("try a smaller --entries"));
        let other = setup_failure_messages(&io::Error::from_raw_os_error(libc::EFAULT), false);
        assert_eq!(other.len(), 1);
        assert!(other[0].starts_with("io_uring_setup() failed: "));
    }
}
