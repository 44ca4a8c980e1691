//! Messages on stderr, each prefixed with the server id, in nginx's style: a failed system
//! call is named with its argument and the reason, `accept() failed: Too many open files`.

use std::fmt::Display;
use std::io;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

static PROGRAM: OnceLock<&'static str> = OnceLock::new();

/// Sets the server id that prefixes every message (done by [`crate::config::parse`]).
pub fn set_program(name: &'static str) {
    // A second call keeps the first name: there is only one server per process.
    let _already_set = PROGRAM.set(name);
}

/// The server id, e.g. `rust-tokio`.
pub fn program() -> &'static str {
    PROGRAM.get().copied().unwrap_or("server")
}

/// `rust-tokio: <message>` on stderr.
pub fn log(message: impl Display) {
    eprintln!("{}: {message}", program());
}

/// [`log`], then exit 1: for set-up errors.
pub fn die(message: impl Display) -> ! {
    log(message);
    std::process::exit(1);
}

/// Errors that only say the client went away: routine for a server, not worth a log line.
pub fn client_went_away(err: &io::Error) -> bool {
    matches!(
        err.raw_os_error(),
        Some(libc::ECONNRESET | libc::EPIPE | libc::ETIMEDOUT)
    )
}

/// For a failed per-connection call: logs `recv(fd 7) failed: ...` unless the error only
/// says the client went away.
pub fn connection_error(syscall: &str, fd: i32, err: &io::Error) {
    if !client_went_away(err) {
        log(format_args!("{syscall}(fd {fd}) failed: {err}"));
    }
}

/// For messages that could repeat thousands of times a second (out of file descriptors at
/// every accept): [`RateLimit::ready`] is true at most once per interval, the first time at
/// once.
#[derive(Debug)]
pub struct RateLimit {
    interval: Duration,
    last: Option<Instant>,
}

impl RateLimit {
    pub const fn new(interval: Duration) -> RateLimit {
        RateLimit {
            interval,
            last: None,
        }
    }

    /// True if the message may be said now (and then not again for `interval`).
    pub fn ready(&mut self) -> bool {
        let now = Instant::now();
        if self
            .last
            .is_some_and(|last| now.duration_since(last) < self.interval)
        {
            return false;
        }
        self.last = Some(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limit_says_it_once_per_interval() {
        let mut limit = RateLimit::new(Duration::from_secs(3600));
        assert!(limit.ready());
        assert!(!limit.ready());
        let mut always = RateLimit::new(Duration::ZERO);
        assert!(always.ready() && always.ready());
    }

    #[test]
    fn only_a_vanished_client_goes_unlogged() {
        assert!(client_went_away(&io::Error::from_raw_os_error(
            libc::ECONNRESET
        )));
        assert!(client_went_away(&io::Error::from_raw_os_error(libc::EPIPE)));
        assert!(!client_went_away(&io::Error::from_raw_os_error(
            libc::EBADF
        )));
    }
}
