//! Open-loop pacing: when each request is due, and waking up on time for it.
//!
//! The schedule is wrk2's. A target rate R is spread over the N active connections: run-wide
//! connection j sends its k-th request at `start + (j + k·N) / R`, so the connections take
//! turns at even gaps of 1/R and each one sends every N/R seconds. Every intended time is
//! computed afresh from the integer counters, never by adding up a period, so rounding cannot
//! accumulate: request 10^12 is due exactly when it should be ([`Pacer`]).
//!
//! Waking up on time is the hard part. `epoll_wait`'s timeout counts whole milliseconds, so a
//! worker of the epoll engine arms a timerfd instead ([`Timer`]: CLOCK_MONOTONIC, absolute,
//! nanosecond resolution) and registers it in its epoll set; the io_uring engine's wait takes
//! a nanosecond timeout itself. Even so the wake-up comes late: by the thread's timer slack
//! (each worker lowers its own to 1 ns with [`set_timer_slack`]) and by interrupt and
//! scheduling delay. In a virtual machine such as the course's (Firecracker) a timerfd wake-up
//! can be tens of microseconds late at the median and far later at p99 (the longer the sleep,
//! the later), much more than on bare metal; `results/loadgen-vs-wrk.md` measures the pacing
//! that results. So the worker arms the timer a little early and busy-polls (`epoll_wait` with
//! a zero timeout, or an `io_uring_enter` that does not wait, still handling replies) for the
//! rest. How early is learnt while running ([`WakeWindow`]): the window follows the 99th
//! percentile of the lateness actually seen, so the spinning costs little CPU where timers are
//! punctual and buys precision where they are not.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::{Duration, Instant};

use mio::unix::SourceFd;
use mio::{Interest, Registry, Token};

/// Rates are held as whole requests per 10^6 s, so the schedule is integer arithmetic.
const RATE_SCALE: f64 = 1e6;
/// Nanoseconds in 10^6 s.
const NANOS_PER_RATE_UNIT: u128 = 1_000_000_000_000_000;
const NANOS_PER_SECOND: u128 = 1_000_000_000;

/// The lowest open-loop rate (one request per 10^6 s): finer rates cannot be represented.
pub const MIN_RATE: f64 = 1.0 / RATE_SCALE;

/// The open-loop schedule of a run: when each connection's k-th request is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pacer {
    start: Instant,
    /// N, the active connections of the whole run.
    connections: u128,
    /// R in requests per 10^6 s.
    scaled_rate: u128,
}

impl Pacer {
    /// The schedule for `rate` requests per second (at least [`MIN_RATE`]) over `connections`
    /// active connections, from `start`.
    pub fn new(start: Instant, rate: f64, connections: usize) -> Pacer {
        Pacer {
            start,
            connections: connections.max(1) as u128,
            scaled_rate: ((rate * RATE_SCALE).round() as u128).max(1),
        }
    }

    // ANCHOR: schedule
    /// When run-wide connection `j` is to send its `k`-th request (both counted from 0).
    pub fn intended(&self, j: usize, k: u64) -> Instant {
        let offset = self.offset(j, k);
        self.start
            .checked_add(offset)
            .unwrap_or_else(|| self.start + Duration::from_secs(u64::from(u32::MAX)))
    }

    /// `(j + k·N) / R` after the start, rounded down to the nanosecond; exact for any `k`
    /// (the whole units of 10^6 s are split off first, so the products stay in 128 bits).
    pub fn offset(&self, j: usize, k: u64) -> Duration {
        let slot = j as u128 + u128::from(k) * self.connections;
        let whole = slot / self.scaled_rate;
        let rest = slot % self.scaled_rate;
        let nanos = whole
            .saturating_mul(NANOS_PER_RATE_UNIT)
            .saturating_add(rest * NANOS_PER_RATE_UNIT / self.scaled_rate);
        let secs = u64::try_from(nanos / NANOS_PER_SECOND).unwrap_or(u64::MAX);
        Duration::new(secs, (nanos % NANOS_PER_SECOND) as u32)
    }
    // ANCHOR_END: schedule
}

/// How early to arm the timer before a request is due, learnt from how late it fires.
///
/// A streaming estimate of the 99th percentile of the lateness ("frugal" quantile
/// estimation): a wake-up later than the estimate raises it by 99 steps, any other lowers it
/// by one, so it settles where 1% of wake-ups are later. Clamped to
/// [`MIN_WINDOW`]..=[`MAX_WINDOW`], which bounds the CPU spent spinning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WakeWindow {
    window: Duration,
}

/// The window before any wake-up has been seen (near the p99 measured in a VM).
pub const INITIAL_WINDOW: Duration = Duration::from_micros(150);
pub const MIN_WINDOW: Duration = Duration::from_micros(5);
/// At most this much spinning per timer wake-up (5% of a core at 100 wake-ups a second).
pub const MAX_WINDOW: Duration = Duration::from_micros(500);
const WINDOW_STEP: Duration = Duration::from_nanos(100);
const TARGET_PERCENTILE: u32 = 99;

impl Default for WakeWindow {
    fn default() -> Self {
        WakeWindow {
            window: INITIAL_WINDOW,
        }
    }
}

impl WakeWindow {
    /// How long before a due time to arm the timer.
    pub fn get(&self) -> Duration {
        self.window
    }

    /// Learns from one timer wake-up that came `lateness` after the time it was armed for.
    pub fn observe(&mut self, lateness: Duration) {
        self.window = if lateness > self.window {
            self.window + WINDOW_STEP * TARGET_PERCENTILE
        } else {
            self.window.saturating_sub(WINDOW_STEP)
        }
        .clamp(MIN_WINDOW, MAX_WINDOW);
    }
}

/// A timerfd on CLOCK_MONOTONIC, armed with absolute times, for a `mio` poll.
///
/// Relies on: `timerfd_create(2)` (Linux 2.6.25, flags since 2.6.27); an expired timer makes
/// the descriptor readable (an epoll event) until its expiration count is read; re-arming
/// replaces the previous expiry.
pub struct Timer {
    fd: OwnedFd,
    /// The same moment read from both clocks, to convert one into the other.
    anchor: Instant,
    anchor_monotonic: Duration,
    armed: Option<Instant>,
}

impl Timer {
    pub fn new() -> io::Result<Timer> {
        // SAFETY: plain timerfd_create(2); the result is checked before it is owned.
        let fd = unsafe {
            libc::timerfd_create(
                libc::CLOCK_MONOTONIC,
                libc::TFD_NONBLOCK | libc::TFD_CLOEXEC,
            )
        };
        if fd < 0 {
            return Err(os_error("timerfd_create"));
        }
        // SAFETY: `fd` is a fresh descriptor that nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let anchor = Instant::now();
        let anchor_monotonic = monotonic_now()?;
        Ok(Timer {
            fd,
            anchor,
            anchor_monotonic,
            armed: None,
        })
    }

    /// Adds the timer to `registry` (edge-triggered, as all `mio` sources are).
    pub fn register(&self, registry: &Registry, token: Token) -> io::Result<()> {
        let fd = self.fd.as_raw_fd();
        registry.register(&mut SourceFd(&fd), token, Interest::READABLE)
    }

    /// The time the timer is armed for, if it has not fired yet.
    pub fn armed(&self) -> Option<Instant> {
        self.armed
    }

    /// Makes the timer fire at `at` (at once if that has passed); nothing to do if it is
    /// already armed for that time.
    pub fn arm(&mut self, at: Instant) -> io::Result<()> {
        if self.armed == Some(at) {
            return Ok(());
        }
        // An all-zero time would disarm the timer instead.
        let when =
            to_monotonic(at, self.anchor, self.anchor_monotonic).max(Duration::from_nanos(1));
        let spec = libc::itimerspec {
            it_interval: libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            },
            it_value: libc::timespec {
                tv_sec: when.as_secs() as libc::time_t,
                tv_nsec: when.subsec_nanos() as libc::c_long,
            },
        };
        // SAFETY: `spec` is a valid itimerspec that outlives the call; no old value wanted.
        let rc = unsafe {
            libc::timerfd_settime(
                self.fd.as_raw_fd(),
                libc::TFD_TIMER_ABSTIME,
                &spec,
                std::ptr::null_mut(),
            )
        };
        if rc != 0 {
            return Err(os_error("timerfd_settime"));
        }
        self.armed = Some(at);
        Ok(())
    }

    /// After the timer's event: reads its expiration count (so that the next expiry makes a
    /// new event) and returns the time it had been armed for; `None` for a stale event (the
    /// timer was re-armed before the event was handled, and has not expired since).
    pub fn fired(&mut self) -> Option<Instant> {
        let mut expirations = 0u64;
        // SAFETY: reads at most 8 bytes into a u64 we own.
        let n = unsafe {
            libc::read(
                self.fd.as_raw_fd(),
                (&mut expirations as *mut u64).cast(),
                size_of::<u64>(),
            )
        };
        // Anything but 8 bytes is EAGAIN: not expired.
        if n != size_of::<u64>() as isize {
            return None;
        }
        self.armed.take()
    }
}

/// The CLOCK_MONOTONIC reading of `at`, given one moment `anchor` whose reading is
/// `anchor_monotonic` (clamped at the clock's zero).
pub fn to_monotonic(at: Instant, anchor: Instant, anchor_monotonic: Duration) -> Duration {
    match at.checked_duration_since(anchor) {
        Some(after) => anchor_monotonic.saturating_add(after),
        None => anchor_monotonic.saturating_sub(anchor.duration_since(at)),
    }
}

fn monotonic_now() -> io::Result<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    if unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) } != 0 {
        return Err(os_error("clock_gettime(CLOCK_MONOTONIC)"));
    }
    Ok(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// Lowers the calling thread's timer slack to 1 ns, so its timer wake-ups are not deferred
/// (by default by up to 50 µs) to be merged with others.
///
/// Relies on: `prctl(PR_SET_TIMERSLACK)` (Linux 2.6.28), a per-thread setting.
pub fn set_timer_slack() -> io::Result<()> {
    // SAFETY: prctl with integer arguments only.
    if unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong) } != 0 {
        return Err(os_error("prctl(PR_SET_TIMERSLACK)"));
    }
    Ok(())
}

fn os_error(call: &str) -> io::Error {
    let e = io::Error::last_os_error();
    io::Error::new(e.kind(), format!("{call} failed: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ns(n: u64) -> Duration {
        Duration::from_nanos(n)
    }

    #[test]
    fn connections_take_turns_at_even_gaps() {
        // 1000 req/s over 4 connections: a request every 1 ms, each connection every 4 ms.
        let p = Pacer::new(Instant::now(), 1000.0, 4);
        let order: Vec<Duration> = (0..3)
            .flat_map(|k| (0..4).map(move |j| (j, k)))
            .map(|(j, k)| p.offset(j, k))
            .collect();
        let expected: Vec<Duration> = (0..12).map(Duration::from_millis).collect();
        assert_eq!(order, expected);
    }

    #[test]
    fn workers_interleave_through_run_wide_numbers() {
        // Two workers with connections 0..2 and 2..5 of 5: together they cover every slot
        // of 1/R once, whichever worker owns the connection.
        let p = Pacer::new(Instant::now(), 500.0, 5);
        let mut slots: Vec<Duration> = [0..2, 2..5]
            .into_iter()
            .flat_map(|worker| worker.flat_map(|j| (0..10).map(move |k| (j, k))))
            .map(|(j, k)| p.offset(j, k))
            .collect();
        slots.sort();
        let expected: Vec<Duration> = (0..50).map(|n| Duration::from_millis(2 * n)).collect();
        assert_eq!(slots, expected);
    }

    #[test]
    fn intended_times_are_exact_for_huge_counters() {
        // 3 req/s: 1/R is not a whole number of nanoseconds, yet every third slot falls on a
        // whole second, however far into the run.
        let p = Pacer::new(Instant::now(), 3.0, 1);
        for k in [3, 3_000, 3_000_000_000, 3_000_000_000_000] {
            assert_eq!(p.offset(0, k), Duration::from_secs(k / 3), "k = {k}");
        }
        assert_eq!(p.offset(0, 1), ns(333_333_333));
        assert_eq!(p.offset(0, 2), ns(666_666_666));
        // 7 connections at 100,000 req/s, k = 10^12: slot 7·10^12 + 5 is 70,000,000 s + 50 µs.
        let p = Pacer::new(Instant::now(), 100_000.0, 7);
        assert_eq!(
            p.offset(5, 1_000_000_000_000),
            Duration::from_secs(70_000_000) + Duration::from_micros(50)
        );
    }

    #[test]
    fn no_drift_against_an_accumulated_period() {
        // Adding up a rounded period drifts; the schedule does not. 7 req/s → 142,857,142 ns
        // rounded; after 7 million requests the sum is 6 µs short of 10^6 s, the schedule exact.
        let p = Pacer::new(Instant::now(), 7.0, 1);
        let period = p.offset(0, 1);
        assert_eq!(period, ns(142_857_142));
        let k = 7_000_000u64;
        assert_eq!(p.offset(0, k), Duration::from_secs(1_000_000));
        assert!(period * (k as u32) < Duration::from_secs(1_000_000));
        // Consecutive gaps differ by at most the 1 ns of rounding.
        for k in 0..1000 {
            let gap = p.offset(0, k + 1) - p.offset(0, k);
            assert!(gap == period || gap == period + ns(1), "{gap:?}");
        }
    }

    #[test]
    fn fractional_and_extreme_rates() {
        let p = Pacer::new(Instant::now(), 0.5, 2);
        assert_eq!(p.offset(1, 0), Duration::from_secs(2));
        assert_eq!(p.offset(0, 1), Duration::from_secs(4));
        let p = Pacer::new(Instant::now(), 10_000_000.0, 19_000);
        assert_eq!(p.offset(18_999, 0), ns(1_899_900));
        let p = Pacer::new(Instant::now(), MIN_RATE, 1);
        assert_eq!(p.offset(0, 1), Duration::from_secs(1_000_000));
        // Far beyond any run: saturates instead of overflowing.
        assert!(p.offset(0, u64::MAX) > Duration::from_secs(1 << 60));
        let start = Instant::now();
        let p = Pacer::new(start, 1000.0, 1);
        assert_eq!(p.intended(0, 1500), start + Duration::from_millis(1500));
        assert!(Pacer::new(start, MIN_RATE, 1).intended(0, u64::MAX) > start);
    }

    #[test]
    fn wake_window_settles_near_the_99th_percentile() {
        let mut w = WakeWindow::default();
        // 1% of wake-ups 300 µs late, the rest 20 µs: the window ends between the two.
        for i in 0..200_000u32 {
            let late = if i % 100 == 0 { 300 } else { 20 };
            w.observe(Duration::from_micros(late));
        }
        assert!(
            w.get() >= Duration::from_micros(20) && w.get() <= Duration::from_micros(310),
            "{:?}",
            w.get()
        );
        // Always punctual: shrinks to the minimum; always very late: capped.
        for _ in 0..10_000 {
            w.observe(Duration::ZERO);
        }
        assert_eq!(w.get(), MIN_WINDOW);
        for _ in 0..100 {
            w.observe(Duration::from_millis(5));
        }
        assert_eq!(w.get(), MAX_WINDOW);
    }

    #[test]
    fn instants_convert_to_the_monotonic_clock_both_ways() {
        let anchor = Instant::now();
        let mono = Duration::from_secs(1000);
        let later = anchor + Duration::from_micros(1500);
        assert_eq!(
            to_monotonic(later, anchor, mono),
            mono + Duration::from_micros(1500)
        );
        if let Some(earlier) = anchor.checked_sub(Duration::from_millis(3)) {
            assert_eq!(
                to_monotonic(earlier, anchor, mono),
                mono - Duration::from_millis(3)
            );
        }
    }

    #[test]
    fn timer_fires_close_to_its_time() {
        set_timer_slack().unwrap();
        let mut poll = mio::Poll::new().unwrap();
        let mut timer = Timer::new().unwrap();
        timer.register(poll.registry(), Token(7)).unwrap();
        let mut events = mio::Events::with_capacity(4);
        let at = Instant::now() + Duration::from_millis(20);
        timer.arm(at).unwrap();
        assert_eq!(timer.armed(), Some(at));
        loop {
            poll.poll(&mut events, Some(Duration::from_secs(5)))
                .unwrap();
            if events.iter().any(|e| e.token() == Token(7)) {
                break;
            }
        }
        // Never early; "late" is bounded generously (the machine is shared).
        assert!(Instant::now() >= at);
        assert_eq!(timer.fired(), Some(at));
        assert_eq!(timer.armed(), None);
    }
}
