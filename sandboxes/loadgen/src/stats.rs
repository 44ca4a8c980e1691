//! Counting: error kinds, per-interval statistics and the latency histograms.
//!
//! Every worker thread records into its own [`IntervalStats`] (no locks, no sharing) and hands
//! it to the coordinator when an interval ends; the coordinator merges the threads' intervals
//! into one progress line and the measure-phase intervals into the summary.

use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use serde::Serialize;

/// Highest latency the histograms can hold: 60 s, in microseconds. Larger values are clamped.
pub const MAX_LATENCY_US: u64 = 60_000_000;

/// Significant decimal digits kept by the histograms (0.1% relative error).
pub const SIGNIFICANT_DIGITS: u8 = 3;

/// Percentiles always present in the summary's distribution, whatever the iteration yields.
pub const FIXED_PERCENTILES: [f64; 6] = [50.0, 90.0, 99.0, 99.9, 99.99, 100.0];

/// Most points taken from the HdrHistogram percentile iteration (before adding the fixed ones).
pub const MAX_ITERATED_POINTS: usize = 40;

/// A latency histogram in microseconds, 1 µs .. 60 s, 3 significant digits.
pub fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_LATENCY_US, SIGNIFICANT_DIGITS)
        .expect("constant histogram bounds are valid")
}

/// Why a connection was given up (it is then reconnected after a back-off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Connecting failed (refused, timed out, out of ports or file descriptors …).
    Connect,
    /// The peer reset the connection (ECONNRESET, EPIPE).
    Reset,
    /// The server closed the connection before the reply was complete.
    Eof,
    /// No complete reply within `--timeout-ms`.
    Timeout,
    /// Wrong bytes came back: an echo that differs, or a malformed / non-200 HTTP reply.
    Mismatch,
    /// Any other socket error.
    Io,
}

impl ErrorKind {
    /// All kinds, in the order of [`ErrorCounts`].
    pub const ALL: [ErrorKind; 6] = [
        ErrorKind::Connect,
        ErrorKind::Reset,
        ErrorKind::Eof,
        ErrorKind::Timeout,
        ErrorKind::Mismatch,
        ErrorKind::Io,
    ];

    /// The name used in the JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Connect => "connect",
            ErrorKind::Reset => "reset",
            ErrorKind::Eof => "eof",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Mismatch => "mismatch",
            ErrorKind::Io => "io",
        }
    }

    /// Classifies a socket error met on an established connection.
    pub fn from_io(err: &std::io::Error) -> ErrorKind {
        use std::io::ErrorKind as K;
        match err.kind() {
            K::ConnectionReset | K::BrokenPipe | K::ConnectionAborted => ErrorKind::Reset,
            K::UnexpectedEof => ErrorKind::Eof,
            K::TimedOut => ErrorKind::Timeout,
            _ => ErrorKind::Io,
        }
    }
}

/// Error counts, one per [`ErrorKind`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ErrorCounts([u64; 6]);

impl ErrorCounts {
    /// Counts one error of `kind`.
    pub fn add(&mut self, kind: ErrorKind) {
        self.0[kind as usize] += 1;
    }

    /// The count for `kind`.
    pub fn get(&self, kind: ErrorKind) -> u64 {
        self.0[kind as usize]
    }

    /// All errors together.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Adds another set of counts to this one.
    pub fn merge(&mut self, other: &ErrorCounts) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }
}

impl Serialize for ErrorCounts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(ErrorKind::ALL.len()))?;
        for kind in ErrorKind::ALL {
            map.serialize_entry(kind.as_str(), &self.get(kind))?;
        }
        map.end()
    }
}

/// What one thread (or, merged, all threads) saw during one progress interval.
#[derive(Clone, Debug)]
pub struct IntervalStats {
    /// Requests completed (a full, correct reply arrived).
    pub requests: u64,
    /// Connections given up, by kind.
    pub errors: ErrorCounts,
    /// Failed connection attempts (also counted in `errors` as `connect`).
    pub connect_failures: u64,
    /// Idle connections (`--idle`) that the server closed or reset, or sent data on: each
    /// time, reconnects included.
    pub idle_dropped: u64,
    /// Of those, the idle connections dropped for the first time in the run: over a run, how
    /// many of the `--idle` connections the server would not keep.
    pub idle_dropped_connections: u64,
    /// Set in the schedule's last interval only: active connections whose request (or
    /// connect) was still waiting when the measure phase ended, having started before it
    /// began. Their latency is in no histogram, yet no timeout may have fired: a server that
    /// serves fewer clients at once than it has (c-iterative, a full thread pool) starves
    /// them, and a run shorter than the timeout would otherwise look clean.
    pub starved: u64,
    /// Latency of the completed requests, in microseconds: in closed loop from the actual
    /// send, in open loop from the intended send time (corrected for coordinated omission).
    pub latency: Histogram<u64>,
    /// Open loop only: how the actual sends compare with the schedule.
    pub pacing: Option<PacingStats>,
}

/// The two open-loop histograms besides the corrected latency, in microseconds.
#[derive(Clone, Debug)]
pub struct PacingStats {
    /// From the actual send to the reply: what a closed-loop client would have recorded.
    pub actual: Histogram<u64>,
    /// From the intended send time to the actual send: the schedule's slip. A few µs means
    /// the pacing is precise; more means the previous reply came late (or the load
    /// generator could not keep up).
    pub send_lag: Histogram<u64>,
}

impl Default for IntervalStats {
    /// Closed-loop figures.
    fn default() -> Self {
        IntervalStats::new(false)
    }
}

impl IntervalStats {
    /// Empty figures, with the pacing histograms when `open_loop`.
    pub fn new(open_loop: bool) -> IntervalStats {
        IntervalStats {
            requests: 0,
            errors: ErrorCounts::default(),
            connect_failures: 0,
            idle_dropped: 0,
            idle_dropped_connections: 0,
            starved: 0,
            latency: new_histogram(),
            pacing: open_loop.then(|| PacingStats {
                actual: new_histogram(),
                send_lag: new_histogram(),
            }),
        }
    }

    /// Records one completed closed-loop request.
    #[inline]
    pub fn record(&mut self, latency: Duration) {
        self.requests += 1;
        self.latency.saturating_record(micros(latency));
    }

    // ANCHOR: record-paced
    /// Records one completed open-loop request: due at `intended`, sent at `sent` (the start
    /// of its connect, for a new connection per request), its reply complete at `done`.
    #[inline]
    pub fn record_paced(&mut self, intended: Instant, sent: Instant, done: Instant) {
        self.record(done.saturating_duration_since(intended));
        if let Some(pacing) = &mut self.pacing {
            pacing
                .actual
                .saturating_record(micros(done.saturating_duration_since(sent)));
            pacing
                .send_lag
                .saturating_record(micros(sent.saturating_duration_since(intended)));
        }
    }
    // ANCHOR_END: record-paced

    /// Counts one error; connect errors are also counted as connect failures.
    pub fn error(&mut self, kind: ErrorKind) {
        self.errors.add(kind);
        if kind == ErrorKind::Connect {
            self.connect_failures += 1;
        }
    }

    /// Adds another thread's (or interval's) figures to these.
    pub fn merge(&mut self, other: &IntervalStats) {
        self.requests += other.requests;
        self.errors.merge(&other.errors);
        self.connect_failures += other.connect_failures;
        self.idle_dropped += other.idle_dropped;
        self.idle_dropped_connections += other.idle_dropped_connections;
        self.starved += other.starved;
        add_histogram(&mut self.latency, &other.latency);
        match (&mut self.pacing, &other.pacing) {
            (Some(mine), Some(theirs)) => {
                add_histogram(&mut mine.actual, &theirs.actual);
                add_histogram(&mut mine.send_lag, &theirs.send_lag);
            }
            (None, Some(theirs)) => self.pacing = Some(theirs.clone()),
            (_, None) => {}
        }
    }
}

/// Adds `other` into `h`; all histograms share the same bounds, so this cannot fail.
fn add_histogram(h: &mut Histogram<u64>, other: &Histogram<u64>) {
    h.add(other).expect("histograms share bounds");
}

/// Whole microseconds, saturating.
fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// Requests per second over `duration` (0 for an empty duration).
pub fn qps(requests: u64, duration: Duration) -> f64 {
    let secs = duration.as_secs_f64();
    if secs > 0.0 {
        requests as f64 / secs
    } else {
        0.0
    }
}

/// The short latency digest carried by progress lines, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct LatencyDigest {
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub p999: u64,
    pub max: u64,
}

impl LatencyDigest {
    /// The digest of `h` (all zeros when it is empty).
    pub fn of(h: &Histogram<u64>) -> LatencyDigest {
        if h.is_empty() {
            return LatencyDigest::default();
        }
        LatencyDigest {
            p50: h.value_at_quantile(0.50),
            p90: h.value_at_quantile(0.90),
            p99: h.value_at_quantile(0.99),
            p999: h.value_at_quantile(0.999),
            max: h.max(),
        }
    }
}

/// The summary's latency figures, in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct LatencySummary {
    pub min: u64,
    pub mean: f64,
    pub stdev: f64,
    pub p50: u64,
    pub p90: u64,
    pub p99: u64,
    pub p999: u64,
    pub max: u64,
}

impl LatencySummary {
    /// The figures of `h` (all zeros when it is empty).
    pub fn of(h: &Histogram<u64>) -> LatencySummary {
        if h.is_empty() {
            return LatencySummary::default();
        }
        let d = LatencyDigest::of(h);
        LatencySummary {
            min: h.min(),
            mean: round_to(h.mean(), 2),
            stdev: round_to(h.stdev(), 2),
            p50: d.p50,
            p90: d.p90,
            p99: d.p99,
            p999: d.p999,
            max: d.max,
        }
    }
}

/// One point of the percentile distribution: `percentile` % of requests took at most
/// `latency_us` microseconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PercentilePoint {
    pub percentile: f64,
    pub latency_us: u64,
}

/// The HdrHistogram percentile distribution of `h`: the classic iteration with one tick per
/// half-distance (0, 50, 75, 87.5, … %), at most [`MAX_ITERATED_POINTS`] of them, plus the
/// [`FIXED_PERCENTILES`]; sorted by percentile, without duplicates. Empty for an empty histogram.
pub fn percentile_distribution(h: &Histogram<u64>) -> Vec<PercentilePoint> {
    if h.is_empty() {
        return Vec::new();
    }
    let mut points: Vec<PercentilePoint> = h
        .iter_quantiles(1)
        .take(MAX_ITERATED_POINTS)
        .map(|v| PercentilePoint {
            percentile: round_to(v.quantile_iterated_to() * 100.0, 6),
            latency_us: v.value_iterated_to(),
        })
        .collect();
    for p in FIXED_PERCENTILES {
        let latency_us = if p >= 100.0 {
            h.max()
        } else {
            h.value_at_quantile(p / 100.0)
        };
        points.push(PercentilePoint {
            percentile: p,
            latency_us,
        });
    }
    points.sort_by(|a, b| a.percentile.total_cmp(&b.percentile));
    // Keep the first of equal percentiles; the fixed ones were pushed last, so for equal
    // percentiles the iterated value (taken from the same histogram) wins.
    points.dedup_by(|later, earlier| (later.percentile - earlier.percentile).abs() < 1e-9);
    // A distribution never decreases; clamp rounding artefacts at the top to the maximum.
    let max = h.max();
    for p in &mut points {
        p.latency_us = p.latency_us.min(max);
    }
    points
}

/// Rounds `x` to `digits` decimal places (for tidy JSON numbers).
pub fn round_to(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist_of(values: impl IntoIterator<Item = u64>) -> Histogram<u64> {
        let mut h = new_histogram();
        for v in values {
            h.record(v).unwrap();
        }
        h
    }

    #[test]
    fn error_counts_total_merge_and_json() {
        let mut a = ErrorCounts::default();
        a.add(ErrorKind::Reset);
        a.add(ErrorKind::Reset);
        a.add(ErrorKind::Timeout);
        let mut b = ErrorCounts::default();
        b.add(ErrorKind::Mismatch);
        a.merge(&b);
        assert_eq!(a.total(), 4);
        assert_eq!(a.get(ErrorKind::Reset), 2);
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"connect":0,"reset":2,"eof":0,"timeout":1,"mismatch":1,"io":0}"#
        );
    }

    #[test]
    fn io_errors_are_classified() {
        use std::io::{Error, ErrorKind as K};
        assert_eq!(
            ErrorKind::from_io(&Error::from(K::ConnectionReset)),
            ErrorKind::Reset
        );
        assert_eq!(
            ErrorKind::from_io(&Error::from(K::BrokenPipe)),
            ErrorKind::Reset
        );
        assert_eq!(
            ErrorKind::from_io(&Error::from(K::TimedOut)),
            ErrorKind::Timeout
        );
        assert_eq!(
            ErrorKind::from_io(&Error::from(K::PermissionDenied)),
            ErrorKind::Io
        );
    }

    #[test]
    fn record_counts_microseconds_and_clamps() {
        let mut s = IntervalStats::default();
        s.record(Duration::from_micros(250));
        s.record(Duration::from_nanos(999)); // under 1 µs rounds down to 0
        s.record(Duration::from_secs(3600)); // over the 60 s bound is clamped
        assert_eq!(s.requests, 3);
        assert_eq!(s.latency.len(), 3);
        assert_eq!(s.latency.min(), 0);
        assert!(s.latency.max() >= MAX_LATENCY_US && s.latency.max() < MAX_LATENCY_US * 101 / 100);
    }

    #[test]
    fn connect_errors_are_connect_failures_too() {
        let mut s = IntervalStats::default();
        s.error(ErrorKind::Connect);
        s.error(ErrorKind::Eof);
        s.idle_dropped += 2;
        let mut t = IntervalStats::default();
        t.merge(&s);
        assert_eq!(t.idle_dropped, 2);
        assert_eq!(s.connect_failures, 1);
        assert_eq!(s.errors.total(), 2);
    }

    #[test]
    fn merging_threads_adds_counts_and_histograms() {
        let mut a = IntervalStats::default();
        let mut b = IntervalStats::default();
        for us in 1..=1000 {
            a.record(Duration::from_micros(us));
        }
        for us in 1001..=2000 {
            b.record(Duration::from_micros(us));
        }
        b.error(ErrorKind::Timeout);
        let mut total = IntervalStats::default();
        total.merge(&a);
        total.merge(&b);
        assert_eq!(total.requests, 2000);
        assert_eq!(total.errors.get(ErrorKind::Timeout), 1);
        assert_eq!(total.latency.len(), 2000);
        let d = LatencyDigest::of(&total.latency);
        // 3 significant digits: within 0.1%.
        assert!((999..=1001).contains(&d.p50), "p50 {}", d.p50);
        assert!((1799..=1802).contains(&d.p90), "p90 {}", d.p90);
        assert!((1979..=1982).contains(&d.p99), "p99 {}", d.p99);
        assert!((1997..=2001).contains(&d.max), "max {}", d.max);
    }

    #[test]
    fn late_replies_make_corrected_latency_exceed_actual_and_the_sends_lag() {
        // One connection due every 1 ms; the server takes 0.5 ms, except 3.5 ms once (for
        // request k = 2). Requests go out at their intended time or, when the previous
        // reply is late, right after it.
        let t0 = Instant::now();
        let ms = |x: f64| Duration::from_secs_f64(x / 1000.0);
        let service = [0.5, 0.5, 3.5, 0.5, 0.5, 0.5, 0.5];
        let mut stats = IntervalStats::new(true);
        let mut free_at = t0;
        for (k, &took) in service.iter().enumerate() {
            let intended = t0 + ms(k as f64);
            let sent = intended.max(free_at);
            let done = sent + ms(took);
            stats.record_paced(intended, sent, done);
            free_at = done;
        }
        let pacing = stats.pacing.as_ref().unwrap();
        assert_eq!(stats.requests, 7);
        // Request k = 3 (due at 3 ms) waits until 5.5 ms: 2.5 ms of lag, 3 ms corrected latency.
        // (Histogram values are exact to 3 significant digits.)
        let near = |value: u64, expected: u64| value.abs_diff(expected) <= expected / 1000;
        assert!(
            near(pacing.send_lag.max(), 2500),
            "{}",
            pacing.send_lag.max()
        );
        assert_eq!(pacing.send_lag.min(), 0);
        // Actual latency never sees the wait; corrected latency does.
        assert!(near(pacing.actual.max(), 3500), "{}", pacing.actual.max());
        assert!(stats.latency.value_at_quantile(0.8) > pacing.actual.value_at_quantile(0.8));
        assert!(stats.latency.mean() > pacing.actual.mean());
        // Corrected = lag + actual for every request, so the sums add up.
        let sum = |h: &Histogram<u64>| h.mean() * h.len() as f64;
        assert!((sum(&stats.latency) - sum(&pacing.send_lag) - sum(&pacing.actual)).abs() < 10.0);

        // Merging keeps the pacing histograms; closed-loop figures have none.
        let mut merged = IntervalStats::default();
        assert!(merged.pacing.is_none());
        merged.merge(&stats);
        merged.merge(&stats);
        assert_eq!(merged.pacing.as_ref().unwrap().send_lag.len(), 14);
        let mut closed = IntervalStats::default();
        closed.record(Duration::from_micros(5));
        closed.merge(&IntervalStats::default());
        assert!(closed.pacing.is_none());
    }

    #[test]
    fn qps_is_requests_over_seconds() {
        assert_eq!(qps(1000, Duration::from_millis(500)), 2000.0);
        assert_eq!(qps(5, Duration::ZERO), 0.0);
        assert!((qps(1, Duration::from_secs(3)) - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn summary_of_known_values() {
        let h = hist_of([100, 200, 300, 400]);
        let s = LatencySummary::of(&h);
        assert_eq!(s.min, 100);
        assert_eq!(s.max, 400);
        assert_eq!(s.mean, 250.0);
        // Population standard deviation of 100,200,300,400.
        assert!((s.stdev - 111.8).abs() < 0.1, "stdev {}", s.stdev);
        assert_eq!(s.p50, 200);
        assert_eq!(
            LatencySummary::of(&new_histogram()),
            LatencySummary::default()
        );
    }

    #[test]
    fn distribution_is_sorted_unique_and_holds_fixed_points() {
        let h = hist_of(1..=100_000);
        let points = percentile_distribution(&h);
        assert!(points.len() <= MAX_ITERATED_POINTS + FIXED_PERCENTILES.len());
        for w in points.windows(2) {
            assert!(w[0].percentile < w[1].percentile, "{:?}", w);
            assert!(w[0].latency_us <= w[1].latency_us, "{:?}", w);
        }
        for p in FIXED_PERCENTILES {
            assert!(
                points.iter().any(|x| (x.percentile - p).abs() < 1e-9),
                "missing {p}"
            );
        }
        // Classic half-distance ticks are there.
        for p in [0.0, 50.0, 75.0, 87.5, 93.75] {
            assert!(
                points.iter().any(|x| (x.percentile - p).abs() < 1e-9),
                "{p}"
            );
        }
        let last = points.last().unwrap();
        assert_eq!(last.percentile, 100.0);
        assert_eq!(last.latency_us, h.max());
        let p99 = points.iter().find(|x| x.percentile == 99.0).unwrap();
        assert!((98_950..=99_050).contains(&p99.latency_us), "{p99:?}");
    }

    #[test]
    fn distribution_of_one_value_and_of_nothing() {
        let points = percentile_distribution(&hist_of([42]));
        assert!(points.iter().all(|p| p.latency_us == 42));
        assert_eq!(points.last().unwrap().percentile, 100.0);
        assert!(percentile_distribution(&new_histogram()).is_empty());
    }
}
