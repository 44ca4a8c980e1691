//! `loadgen`: the C10K Lab load generator.
//!
//! A closed-loop client for the course's servers: it keeps `--connections` TCP connections
//! busy with one request in flight on each, speaking `echo` (random payload, checked byte for
//! byte) or `http` (`GET /`, checked for `HTTP/1.1 200` and its Content-Length body), and
//! writes JSON lines to stdout: `phase`, one `progress` per interval, a final `summary`, or a
//! fatal `error`. `schema/output.schema.json` documents every line.
//!
//! A run goes: wait until the server accepts a connection ([`ready::wait_ready`]), verify one
//! reply ([`ready::verify`]), open the connections, warm up, measure. The load is made like
//! wrk makes it: `--threads` OS threads, each with its own single-threaded epoll loop, its own
//! connections and its own HdrHistogram ([`worker`]); this thread (the coordinator) merges
//! their per-interval figures into progress lines and the summary.
//!
//! Try it against any echo server on port 9000:
//!
//! ```text
//! cargo run --release -- --port 9000 --protocol echo --connections 100 --duration-s 3
//! ```

pub mod cli;
pub mod http;
pub mod output;
pub mod ready;
pub mod stats;
pub mod worker;

use std::ffi::OsString;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Parser;

use crate::cli::{Args, Config, Protocol};
use crate::output::{ConfigEcho, Line, Phase, Progress, Summary, emit};
use crate::stats::{
    IntervalStats, LatencyDigest, LatencySummary, percentile_distribution, qps, round_to,
};
use crate::worker::{Gate, Interval, Report, Schedule, WorkerSpec};

/// The crate version, reported in the summary.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// File descriptors needed besides the connections (stdio, epoll instances, the probe).
const SPARE_FDS: u64 = 64;

/// How long past the schedule's end the coordinator waits for a worker's last report.
const REPORT_GRACE: Duration = Duration::from_secs(10);

/// How long opening the connections may take besides the connect timeout: connect() itself
/// can cost over a millisecond each when ephemeral ports run short (see
/// [`worker::CONNECTIONS_PER_SOURCE`]).
const OPEN_GRACE: Duration = Duration::from_secs(60);

/// A run that could not be carried out; written as an `error` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fatal {
    /// `not_ready`, `verify_failed`, `resource_limit`, `internal` or `output`.
    pub kind: &'static str,
    pub message: String,
}

impl Fatal {
    fn new(kind: &'static str, message: impl Into<String>) -> Fatal {
        Fatal {
            kind,
            message: message.into(),
        }
    }
}

/// The whole program: parses `argv`, runs, writes JSON lines to `out` and diagnostics to
/// stderr. Returns the exit status: 0 success, 1 a fatal `error` line, 2 bad arguments.
pub fn main_with_args(argv: impl IntoIterator<Item = OsString>, out: &mut dyn Write) -> i32 {
    let args = match Args::try_parse_from(argv) {
        Ok(args) => args,
        Err(e) => {
            use clap::error::ErrorKind as K;
            let _ = e.print(); // help and version to stdout, errors to stderr
            if matches!(e.kind(), K::DisplayHelp | K::DisplayVersion) {
                return 0;
            }
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            return usage_error(out, first.trim_start_matches("error: "));
        }
    };
    let config = match args.validate() {
        Ok(config) => config,
        Err(message) => {
            eprintln!("error: {message}");
            return usage_error(out, &message);
        }
    };
    match run(&config, out) {
        Ok(_) => 0,
        Err(fatal) => {
            eprintln!("loadgen: {}: {}", fatal.kind, fatal.message);
            let _ = emit(
                out,
                &Line::Error {
                    kind: fatal.kind,
                    message: &fatal.message,
                },
            );
            1
        }
    }
}

fn usage_error(out: &mut dyn Write, message: &str) -> i32 {
    let _ = emit(
        out,
        &Line::Error {
            kind: "usage",
            message,
        },
    );
    2
}

/// Runs one benchmark with `config`, writing JSON lines to `out`; returns the summary (also
/// written) or the fatal error (not written: the caller reports it).
pub fn run(config: &Config, out: &mut dyn Write) -> Result<Summary, Fatal> {
    raise_nofile_limit(config.connections as u64 + SPARE_FDS)
        .map_err(|m| Fatal::new("resource_limit", m))?;
    let addrs =
        ready::resolve(&config.host, config.port).map_err(|m| Fatal::new("not_ready", m))?;
    let request: Arc<[u8]> = match config.protocol {
        Protocol::Echo => random_payload(config.payload_bytes).into(),
        Protocol::Http => http::request(&config.host, config.port).into(),
    };

    let (probe, addr) = ready::wait_ready(&addrs, config.wait_ready, config.timeout)
        .map_err(|m| Fatal::new("not_ready", m))?;
    ready::verify(probe, config.protocol, &request, config.timeout)
        .map_err(|m| Fatal::new("verify_failed", m))?;
    write_line(
        out,
        &Line::Phase {
            phase: Phase::Ready,
        },
    )?;
    eprintln!("loadgen: {addr} ready and verified ({:?})", config.protocol);

    let workers = Workers::start(config, addr, &request)?;
    let plan = plan(config.warmup, config.duration, config.progress_interval);
    let start = Instant::now();
    workers.go(Schedule {
        start,
        intervals: plan
            .iter()
            .map(|&(phase, from, to)| Interval {
                phase,
                start: start + from,
                end: start + to,
            })
            .collect(),
    });
    write_line(out, &Line::Phase { phase: plan[0].0 })?;
    let deadline = start + config.warmup + config.duration + config.timeout + REPORT_GRACE;
    let (measured, run_connect_failures) = report_intervals(&workers, &plan, deadline, out)?;
    let open_failures = workers.open_failures;
    workers.join();

    let config_echo = ConfigEcho::new(config, addr.to_string(), request.len());
    let connect_failures = open_failures + run_connect_failures;
    let summary = build_summary(&measured, config.duration, connect_failures, config_echo);
    write_line(out, &Line::Summary(&summary))?;
    eprintln!(
        "loadgen: {} requests in {:.3} s = {:.0} req/s, p50 {} µs, p99 {} µs, {} errors",
        summary.requests,
        summary.duration_s,
        summary.qps,
        summary.latency_us.p50,
        summary.latency_us.p99,
        summary.error_total
    );
    Ok(summary)
}

/// The worker threads of a run, from opening their connections to the end. Dropped before
/// [`join`](Self::join) (an error on the way), it stops them.
struct Workers {
    handles: Vec<JoinHandle<()>>,
    rx: mpsc::Receiver<Report>,
    gate: Arc<Gate>,
    stop: Arc<AtomicBool>,
    count: usize,
    /// Failed connection attempts while opening.
    open_failures: u64,
}

impl Workers {
    /// Starts `config.threads` workers and waits until each has opened its connections.
    fn start(config: &Config, addr: SocketAddr, request: &Arc<[u8]>) -> Result<Workers, Fatal> {
        let (tx, rx) = mpsc::channel();
        let mut workers = Workers {
            handles: Vec::with_capacity(config.threads),
            rx,
            gate: Arc::new(Gate::default()),
            stop: Arc::new(AtomicBool::new(false)),
            count: config.threads,
            open_failures: 0,
        };
        let started = Instant::now();
        let mut first_connection = 0;
        for (index, connections) in split(config.connections, config.threads)
            .into_iter()
            .enumerate()
        {
            let spec = WorkerSpec {
                index,
                connections,
                first_connection,
                addr,
                protocol: config.protocol,
                request: request.clone(),
                timeout: config.timeout,
            };
            first_connection += connections;
            let handle =
                worker::spawn(spec, tx.clone(), workers.gate.clone(), workers.stop.clone())
                    .map_err(|e| Fatal::new("internal", format!("cannot start a thread: {e}")))?;
            workers.handles.push(handle);
        }
        drop(tx);

        let deadline = started + config.timeout + OPEN_GRACE;
        let mut connected = 0;
        for _ in 0..config.threads {
            match receive(&workers.rx, deadline)? {
                Report::Opened {
                    connected: c,
                    failed,
                    ..
                } => {
                    connected += c;
                    workers.open_failures += failed;
                }
                Report::Failed { message, .. } => return Err(Fatal::new("internal", message)),
                Report::Interval { .. } => unreachable!("no interval before the gate opens"),
            }
        }
        eprintln!(
            "loadgen: {connected} of {} connections open in {:.1} ms ({} failed attempts)",
            config.connections,
            started.elapsed().as_secs_f64() * 1e3,
            workers.open_failures
        );
        Ok(workers)
    }

    /// Starts the load on `schedule`.
    fn go(&self, schedule: Schedule) {
        self.gate.open(Arc::new(schedule));
    }

    /// Waits for the threads, which end with the schedule.
    fn join(mut self) {
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        if !self.handles.is_empty() {
            self.stop.store(true, Ordering::Relaxed);
            self.gate.abort();
        }
    }
}

/// Merges the workers' interval reports in order and writes each progress line as soon as
/// every worker has sent that interval (and a phase line where the phase changes). Returns
/// the merged measure-phase figures and the connect failures of all intervals.
fn report_intervals(
    workers: &Workers,
    plan: &[(Phase, Duration, Duration)],
    deadline: Instant,
    out: &mut dyn Write,
) -> Result<(IntervalStats, u64), Fatal> {
    let mut pending: Vec<(usize, IntervalStats)> =
        plan.iter().map(|_| (0, IntervalStats::default())).collect();
    let mut measured = IntervalStats::default();
    let mut connect_failures = 0;
    let mut next = 0;
    while next < plan.len() {
        match receive(&workers.rx, deadline)? {
            Report::Interval { index, stats, .. } => {
                pending[index].0 += 1;
                pending[index].1.merge(&stats);
            }
            Report::Failed { message, .. } => return Err(Fatal::new("internal", message)),
            Report::Opened { .. } => unreachable!("each worker opens once"),
        }
        while next < plan.len() && pending[next].0 == workers.count {
            let stats = std::mem::take(&mut pending[next].1);
            let (phase, from, to) = plan[next];
            write_line(
                out,
                &Line::Progress(&progress_line(phase, from, to, &stats)),
            )?;
            connect_failures += stats.connect_failures;
            if phase == Phase::Measure {
                measured.merge(&stats);
            }
            next += 1;
            if let Some(&(following, _, _)) = plan.get(next)
                && following != phase
            {
                write_line(out, &Line::Phase { phase: following })?;
            }
        }
    }
    Ok((measured, connect_failures))
}

/// The progress line for one merged interval `[from, to)` (offsets from the load's start).
pub fn progress_line(
    phase: Phase,
    from: Duration,
    to: Duration,
    stats: &IntervalStats,
) -> Progress {
    let interval = to - from;
    Progress {
        phase,
        elapsed_s: round_to(to.as_secs_f64(), 6),
        interval_s: round_to(interval.as_secs_f64(), 6),
        requests: stats.requests,
        qps: round_to(qps(stats.requests, interval), 1),
        errors: stats.errors.total(),
        latency_us: LatencyDigest::of(&stats.latency),
    }
}

/// The summary of the measure phase: `measured` merged over all its intervals and threads,
/// over `duration`.
pub fn build_summary(
    measured: &IntervalStats,
    duration: Duration,
    connect_failures: u64,
    config: ConfigEcho,
) -> Summary {
    Summary {
        requests: measured.requests,
        qps: round_to(qps(measured.requests, duration), 1),
        duration_s: round_to(duration.as_secs_f64(), 6),
        errors: measured.errors,
        error_total: measured.errors.total(),
        connect_failures,
        latency_us: LatencySummary::of(&measured.latency),
        percentiles: percentile_distribution(&measured.latency),
        config,
        version: VERSION,
    }
}

/// The intervals of a run as `(phase, from, to)` offsets from the load's start: the warm-up
/// then the measure phase, each cut into `every`-long intervals (the last one may be shorter).
pub fn plan(
    warmup: Duration,
    duration: Duration,
    every: Duration,
) -> Vec<(Phase, Duration, Duration)> {
    let mut intervals = Vec::new();
    let mut t = Duration::ZERO;
    for (phase, length) in [(Phase::Warmup, warmup), (Phase::Measure, duration)] {
        let end = t + length;
        while t < end {
            let to = (t + every).min(end);
            intervals.push((phase, t, to));
            t = to;
        }
    }
    intervals
}

/// Splits `n` connections over `threads` as evenly as possible.
pub fn split(n: usize, threads: usize) -> Vec<usize> {
    (0..threads)
        .map(|i| n / threads + usize::from(i < n % threads))
        .collect()
}

fn receive(rx: &mpsc::Receiver<Report>, deadline: Instant) -> Result<Report, Fatal> {
    let wait = deadline.saturating_duration_since(Instant::now());
    rx.recv_timeout(wait).map_err(|e| match e {
        mpsc::RecvTimeoutError::Timeout => {
            Fatal::new("internal", "a worker thread stopped reporting")
        }
        mpsc::RecvTimeoutError::Disconnected => {
            Fatal::new("internal", "the worker threads exited early")
        }
    })
}

fn write_line(out: &mut dyn Write, line: &Line<'_>) -> Result<(), Fatal> {
    emit(out, line).map_err(|e| Fatal::new("output", format!("cannot write to stdout: {e}")))
}

/// `len` pseudo-random bytes (splitmix64, seeded from the clock and pid): echo payloads that
/// a server cannot get right by accident.
pub fn random_payload(len: usize) -> Vec<u8> {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut state = nanos ^ (u64::from(std::process::id()) << 32);
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut payload = Vec::with_capacity(len + 8);
    while payload.len() < len {
        payload.extend_from_slice(&next().to_le_bytes());
    }
    payload.truncate(len);
    payload
}

/// Raises the soft `RLIMIT_NOFILE` to `needed` if it is lower; fails if the hard limit is.
fn raise_nofile_limit(needed: u64) -> Result<(), String> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the rlimit struct we own.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(format!(
            "getrlimit(RLIMIT_NOFILE) failed: {}",
            std::io::Error::last_os_error()
        ));
    }
    if limit.rlim_cur >= needed {
        return Ok(());
    }
    if limit.rlim_max < needed {
        return Err(format!(
            "{needed} file descriptors needed but the hard limit (ulimit -Hn) is {}; use fewer connections or raise the nofile limit",
            limit.rlim_max
        ));
    }
    limit.rlim_cur = needed;
    // SAFETY: setrlimit reads the rlimit struct we own.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
        return Err(format!(
            "setrlimit(RLIMIT_NOFILE, {needed}) failed: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::ErrorKind;

    #[test]
    fn plan_cuts_warmup_and_measure_into_intervals() {
        let s = Duration::from_secs;
        let ms = Duration::from_millis;
        assert_eq!(
            plan(s(1), ms(2500), s(1)),
            vec![
                (Phase::Warmup, s(0), s(1)),
                (Phase::Measure, s(1), s(2)),
                (Phase::Measure, s(2), s(3)),
                (Phase::Measure, s(3), ms(3500)),
            ]
        );
        assert_eq!(
            plan(Duration::ZERO, s(1), s(1)),
            vec![(Phase::Measure, s(0), s(1))]
        );
        assert_eq!(plan(ms(300), ms(200), s(1)).len(), 2);
    }

    #[test]
    fn split_is_even() {
        assert_eq!(split(10, 3), vec![4, 3, 3]);
        assert_eq!(split(2, 2), vec![1, 1]);
        assert_eq!(split(19000, 1), vec![19000]);
    }

    #[test]
    fn random_payload_has_the_length_and_varies() {
        let p = random_payload(1000);
        assert_eq!(p.len(), 1000);
        assert!(p.iter().any(|&b| b != p[0]));
        assert_eq!(random_payload(3).len(), 3);
    }

    fn echo_config() -> ConfigEcho {
        let config = Args::try_parse_from(["loadgen", "--duration-s", "2"])
            .unwrap()
            .validate()
            .unwrap();
        ConfigEcho::new(&config, "127.0.0.1:9000".into(), 64)
    }

    #[test]
    fn summary_merges_threads_and_divides_by_the_measured_duration() {
        let mut a = IntervalStats::default();
        let mut b = IntervalStats::default();
        for _ in 0..3000 {
            a.record(Duration::from_micros(100));
        }
        for _ in 0..1000 {
            b.record(Duration::from_micros(300));
        }
        b.error(ErrorKind::Reset);
        b.error(ErrorKind::Connect);
        let mut measured = IntervalStats::default();
        measured.merge(&a);
        measured.merge(&b);
        let summary = build_summary(&measured, Duration::from_secs(2), 7, echo_config());
        assert_eq!(summary.requests, 4000);
        assert_eq!(summary.qps, 2000.0);
        assert_eq!(summary.duration_s, 2.0);
        assert_eq!(summary.error_total, 2);
        assert_eq!(summary.errors.get(ErrorKind::Reset), 1);
        assert_eq!(summary.connect_failures, 7);
        assert_eq!(summary.latency_us.min, 100);
        assert_eq!(summary.latency_us.p50, 100);
        assert_eq!(summary.latency_us.p90, 300);
        assert_eq!(summary.latency_us.max, 300);
        assert_eq!(summary.latency_us.mean, 150.0);
        assert_eq!(summary.version, VERSION);
        assert_eq!(summary.percentiles.last().unwrap().latency_us, 300);
    }

    #[test]
    fn progress_line_reports_the_interval() {
        let mut stats = IntervalStats::default();
        for _ in 0..500 {
            stats.record(Duration::from_micros(50));
        }
        stats.error(ErrorKind::Eof);
        let p = progress_line(
            Phase::Measure,
            Duration::from_millis(1500),
            Duration::from_millis(2000),
            &stats,
        );
        assert_eq!(p.elapsed_s, 2.0);
        assert_eq!(p.interval_s, 0.5);
        assert_eq!(p.qps, 1000.0);
        assert_eq!(p.errors, 1);
        assert_eq!(p.latency_us.p99, 50);
        let empty = progress_line(
            Phase::Warmup,
            Duration::ZERO,
            Duration::from_secs(1),
            &IntervalStats::default(),
        );
        assert_eq!(empty.qps, 0.0);
        assert_eq!(empty.latency_us, LatencyDigest::default());
    }

    #[test]
    fn nofile_limit_already_enough() {
        assert!(raise_nofile_limit(16).is_ok());
        assert!(raise_nofile_limit(u64::MAX).is_err());
    }
}
