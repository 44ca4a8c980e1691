//! SIGTERM and SIGINT as a readable pipe, for an event loop that waits on file descriptors
//! (the "self-pipe trick", as `signals_init()` in `protocol.c`).

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicI32, Ordering};

use crate::log::die;

/// The pipe's write end, for the signal handler; -1 until [`stop_pipe`] ran.
static WRITE_FD: AtomicI32 = AtomicI32::new(-1);
/// 0, or the signal that asked us to stop.
static STOP_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Runs inside the signal handler: may only touch atomics and async-signal-safe calls.
extern "C" fn on_stop_signal(signal: libc::c_int) {
    STOP_SIGNAL.store(signal, Ordering::SeqCst);
    // SAFETY: __errno_location and write are async-signal-safe; the byte is a static.
    // errno is saved and restored so the interrupted code never sees ours. If the pipe is
    // full, a wake-up byte is already waiting: a failed write loses nothing.
    unsafe {
        let errno = *libc::__errno_location();
        let _written = libc::write(WRITE_FD.load(Ordering::SeqCst), b"x".as_ptr().cast(), 1);
        *libc::__errno_location() = errno;
    }
}

/// Ignores SIGPIPE and makes SIGTERM and SIGINT write a byte into a pipe. Returns the pipe's
/// read end: an event loop watches it and stops once it is readable. Exits 1 on failure.
///
/// Relies on: a write to a closed connection raising SIGPIPE (fatal unless ignored), and on
/// the self-pipe trick: a signal that arrives just before the loop goes to sleep still
/// leaves a byte in the pipe, so the sleep ends at once.
pub fn stop_pipe() -> OwnedFd {
    let mut fds = [-1; 2];
    // SAFETY: pipe2 writes two file descriptors into the array we pass.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_NONBLOCK | libc::O_CLOEXEC) } < 0 {
        die(format_args!(
            "pipe2() failed: {}",
            io::Error::last_os_error()
        ));
    }
    WRITE_FD.store(fds[1], Ordering::SeqCst); // kept open for the life of the process

    // SAFETY: the handler only calls async-signal-safe functions (see above); the
    // sigaction structs live on our stack for the duration of each call.
    unsafe {
        let mut ignore: libc::sigaction = std::mem::zeroed();
        ignore.sa_sigaction = libc::SIG_IGN;
        if libc::sigaction(libc::SIGPIPE, &ignore, std::ptr::null_mut()) < 0 {
            die(format_args!(
                "sigaction(SIGPIPE) failed: {}",
                io::Error::last_os_error()
            ));
        }
        let mut stop: libc::sigaction = std::mem::zeroed();
        stop.sa_sigaction = on_stop_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        stop.sa_flags = 0; // no SA_RESTART: a blocking call returns EINTR
        libc::sigemptyset(&mut stop.sa_mask);
        for (signal, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGINT, "SIGINT")] {
            if libc::sigaction(signal, &stop, std::ptr::null_mut()) < 0 {
                die(format_args!(
                    "sigaction({name}) failed: {}",
                    io::Error::last_os_error()
                ));
            }
        }
        // SAFETY (from_raw_fd): fds[0] was just opened by pipe2 and nothing else owns it.
        OwnedFd::from_raw_fd(fds[0])
    }
}

/// True once SIGTERM or SIGINT has arrived.
pub fn stop_requested() -> bool {
    STOP_SIGNAL.load(Ordering::SeqCst) != 0
}

/// "SIGINT" or "SIGTERM", for the farewell message.
pub fn stop_signal_name() -> &'static str {
    if STOP_SIGNAL.load(Ordering::SeqCst) == libc::SIGINT {
        "SIGINT"
    } else {
        "SIGTERM"
    }
}
