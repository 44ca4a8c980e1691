//! `loadgen`: the C10K Lab load generator.
//!
//! A client for the course's servers: it keeps `--connections` TCP connections busy with one
//! request in flight on each, speaking `echo` (random payload, checked byte for byte) or
//! `http` (`GET /`, checked for `HTTP/1.1 200` and its Content-Length body), and writes JSON
//! lines to stdout: `phase`, one `progress` per interval, a final `summary`, or a fatal
//! `error`. `schema/output.schema.json` documents every line.
//!
//! Closed loop by default: each connection sends its next request as soon as the previous
//! reply arrived, which shows what a server sustains. Open loop with `--rate`: requests go
//! out on a fixed schedule, as wrk2 sends them ([`pacing`]), and latency counts from when each
//! request was due, so a server that stalls shows it in the percentiles instead of merely
//! slowing the client down (coordinated omission); the uncorrected latency and how far the
//! sends slipped are reported beside it. Also: `--idle` connections held open in silence,
//! `--new-connection-per-request`, `--ramp-s` to open the connections gradually, and
//! `--sample-procs` to read the server's processes from `/proc` ([`procs`]).
//!
//! A run goes: wait until the server accepts a connection ([`ready::wait_ready`]), verify one
//! reply ([`ready::verify`]), open the connections, warm up, measure. The load is made like
//! wrk makes it: `--threads` OS threads, each with its own single-threaded event loop, its
//! own connections and its own HdrHistograms ([`worker`]); this thread (the coordinator)
//! merges their per-interval figures into progress lines and the summary. The loop is epoll
//! by default, or io_uring with `--engine io_uring` ([`engine`]: where the kernel refuses
//! io_uring, the run falls back to epoll and says so in the summary's `engine_note`).
//!
//! `--check` runs no load: it checks that the server answers correctly — sizes, many
//! connections at once, half-close; keep-alive, pipelining, `Connection: close` ([`check`]) —
//! and prints one `check` line, so a learner's edited server is benchmarked only once it is
//! right.
//!
//! Try it against any echo server on port 9000:
//!
//! ```text
//! cargo run --release -- --port 9000 --protocol echo --connections 100 --duration-s 3
//! cargo run --release -- --port 9000 --protocol echo --connections 100 --rate 20000
//! cargo run --release -- --port 9000 --protocol echo --check
//! ```

pub mod check;
pub mod cli;
pub mod engine;
pub mod http;
pub mod net;
pub mod observe;
pub mod output;
pub mod pacing;
pub mod procs;
pub mod quote;
pub mod ready;
pub mod rng;
pub mod stats;
pub mod worker;

use std::ffi::OsString;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use clap::Parser;

use crate::cli::{Args, Config, Engine, Protocol};
use crate::output::{
    ConfigEcho, ConnectionMode, Idle, Line, Mode, OpenLoop, Phase, Progress, SHORT_OF_TARGET,
    Summary, emit,
};
use crate::procs::{ProcSampler, ProcTotals};
use crate::stats::{
    IntervalStats, LatencyDigest, LatencySummary, percentile_distribution, qps, round_to,
};
use crate::worker::{Gate, Interval, Ramp, Report, Schedule, WorkerSpec};

/// The crate version, reported in the summary.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// File descriptors needed besides the connections and the threads' (stdio, the probe,
/// `/proc` files).
const SPARE_FDS: u64 = 64;
/// File descriptors of each worker thread: its epoll instance and its timerfd, or its ring.
const FDS_PER_THREAD: u64 = 2;

/// How long past the schedule's end the coordinator waits for a worker's last report.
const REPORT_GRACE: Duration = Duration::from_secs(10);

/// How long opening the connections may take besides the ramp and the connect timeout:
/// connect() itself can cost over a millisecond each when ephemeral ports run short (see
/// [`net::CONNECTIONS_PER_SOURCE`]).
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

/// The whole program: parses `argv`, runs (or, with `--check`, checks: [`check::main`]),
/// writes JSON lines to `out` and diagnostics to stderr. Returns the exit status: 0 success,
/// 1 a fatal `error` line (or a failed check), 2 bad arguments.
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
    if config.check {
        return check::main(&config, out);
    }
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
    let sockets = (config.connections + config.idle) as u64;
    raise_nofile_limit(sockets + FDS_PER_THREAD * config.threads as u64 + SPARE_FDS)
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

    let mut workers = Workers::start(config, addr, &request)?;
    let plan = plan(config.warmup, config.duration, config.progress_interval);
    let mut sampler = config.sample_procs.then(ProcSampler::new);
    if let Some(sampler) = sampler.as_mut() {
        sampler.baseline();
    }
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
    let mut totals = report_intervals(&workers, &plan, deadline, sampler.as_mut(), out)?;
    totals.connect_failures += workers.open_failures;
    totals.idle_open_at_start = workers.idle_open;
    totals.engine = workers.engine;
    totals.engine_note = workers.engine_note.take();
    workers.join();

    let config_echo = ConfigEcho::new(config, addr.to_string(), request.len());
    let summary = build_summary(&totals, config, config_echo);
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
    if let Some(shortfall) = summary.open_loop.as_ref().and_then(shortfall) {
        eprintln!("loadgen: {shortfall}");
    }
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
    /// Idle connections open once opening was over.
    idle_open: usize,
    /// The engine the workers run, and why it is not the one asked for (if it is not).
    engine: Engine,
    engine_note: Option<String>,
}

impl Workers {
    /// Starts `config.threads` workers with the engine asked for (or epoll, if the kernel
    /// refuses io_uring) and waits until each has opened its connections.
    fn start(config: &Config, addr: SocketAddr, request: &Arc<[u8]>) -> Result<Workers, Fatal> {
        let started = Instant::now();
        let specs = worker_specs(config, addr, request, started);
        let chosen = engine::prepare(config.engine, &specs);
        if let Some(note) = &chosen.note {
            eprintln!("loadgen: {note}");
        }
        let (tx, rx) = mpsc::channel();
        let mut workers = Workers {
            handles: Vec::with_capacity(config.threads),
            rx,
            gate: Arc::new(Gate::default()),
            stop: Arc::new(AtomicBool::new(false)),
            count: config.threads,
            open_failures: 0,
            idle_open: 0,
            engine: chosen.engine,
            engine_note: chosen.note,
        };
        for (spec, setup) in specs.into_iter().zip(chosen.setups) {
            let gate = workers.gate.clone();
            let handle = worker::spawn(spec, setup, tx.clone(), gate, workers.stop.clone())
                .map_err(|e| Fatal::new("internal", format!("cannot start a thread: {e}")))?;
            workers.handles.push(handle);
        }
        drop(tx);

        let deadline = started + config.ramp + config.timeout + OPEN_GRACE;
        let mut connected = 0;
        for _ in 0..config.threads {
            match receive(&workers.rx, deadline)? {
                Report::Opened {
                    connected: c,
                    idle_connected,
                    failed,
                    ..
                } => {
                    connected += c;
                    workers.idle_open += idle_connected;
                    workers.open_failures += failed;
                }
                Report::Failed { message, .. } => return Err(Fatal::new("internal", message)),
                Report::Interval { .. } => unreachable!("no interval before the gate opens"),
            }
        }
        eprintln!(
            "loadgen: {} in {:.1} ms ({} failed attempts; engine {})",
            opened_message(config, connected, workers.idle_open),
            started.elapsed().as_secs_f64() * 1e3,
            workers.open_failures,
            workers.engine.name()
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

/// What each of the `config.threads` workers is to do: its share of the connections (and of
/// the idle ones), numbered run-wide; the ramp starts at `started`.
fn worker_specs(
    config: &Config,
    addr: SocketAddr,
    request: &Arc<[u8]>,
    started: Instant,
) -> Vec<WorkerSpec> {
    let ramp = Ramp {
        start: started,
        length: config.ramp,
        total: opened_ahead(config),
    };
    let mut first_connection = 0;
    let mut first_idle = config.connections;
    let shares = split(config.connections, config.threads)
        .into_iter()
        .zip(split(config.idle, config.threads));
    shares
        .enumerate()
        .map(|(index, (connections, idle))| {
            let spec = WorkerSpec {
                index,
                connections,
                first_connection,
                idle,
                first_idle,
                total_connections: config.connections,
                addr,
                protocol: config.protocol,
                request: request.clone(),
                timeout: config.timeout,
                rate: config.rate,
                per_request: config.new_connection_per_request,
                ramp,
            };
            first_connection += connections;
            first_idle += idle;
            spec
        })
        .collect()
}

/// How many connections are opened before the load starts: the active ones (unless each
/// request opens its own) and the idle ones. The ramp spreads these.
pub fn opened_ahead(config: &Config) -> usize {
    let active = if config.new_connection_per_request {
        0
    } else {
        config.connections
    };
    active + config.idle
}

/// What was opened, for people: "100 of 100 connections and 5 of 5 idle ones open".
fn opened_message(config: &Config, connected: usize, idle_connected: usize) -> String {
    let idle = config.idle;
    match (config.new_connection_per_request, idle) {
        (false, 0) => format!("{connected} of {} connections open", config.connections),
        (false, _) => format!(
            "{connected} of {} connections and {idle_connected} of {idle} idle ones open",
            config.connections
        ),
        (true, 0) => String::from("no connections opened ahead (a new one per request)"),
        (true, _) => {
            format!("{idle_connected} of {idle} idle connections open (and a new one per request)")
        }
    }
}

/// What the coordinator adds up over a run, for the summary.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    /// The measure phase, merged over its intervals and threads.
    pub measured: IntervalStats,
    /// Requests completed over warm-up and measure.
    pub requests_total: u64,
    /// Failed connection attempts over the whole run, opening included.
    pub connect_failures: u64,
    /// Idle connections dropped over warm-up and measure, reconnects included.
    pub idle_dropped: u64,
    /// Distinct idle connections dropped over warm-up and measure.
    pub idle_dropped_connections: u64,
    /// Idle connections open when the load started.
    pub idle_open_at_start: usize,
    /// The measure phase's `/proc` samples.
    pub procs: ProcTotals,
    /// The engine that ran, and why it is not the one asked for (if it is not).
    pub engine: Engine,
    pub engine_note: Option<String>,
}

/// Merges the workers' interval reports in order and writes each progress line as soon as
/// every worker has sent that interval (and a phase line where the phase changes), with a
/// `/proc` sample taken then when there is a `sampler`. Returns the run's totals but for
/// what happened while opening.
fn report_intervals(
    workers: &Workers,
    plan: &[(Phase, Duration, Duration)],
    deadline: Instant,
    mut sampler: Option<&mut ProcSampler>,
    out: &mut dyn Write,
) -> Result<Totals, Fatal> {
    let mut pending: Vec<(usize, IntervalStats)> =
        plan.iter().map(|_| (0, IntervalStats::default())).collect();
    let mut totals = Totals::default();
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
            let mut progress = progress_line(phase, from, to, &stats);
            if let Some(sampler) = sampler.as_deref_mut() {
                let sample = sampler.sample();
                if let (Phase::Measure, Some(sample)) = (phase, &sample) {
                    totals.procs.add(sample);
                }
                progress.procs = Some(sample);
            }
            write_line(out, &Line::Progress(&progress))?;
            totals.requests_total += stats.requests;
            totals.connect_failures += stats.connect_failures;
            totals.idle_dropped += stats.idle_dropped;
            totals.idle_dropped_connections += stats.idle_dropped_connections;
            if phase == Phase::Measure {
                totals.measured.merge(&stats);
            }
            next += 1;
            if let Some(&(following, _, _)) = plan.get(next)
                && following != phase
            {
                write_line(out, &Line::Phase { phase: following })?;
            }
        }
    }
    Ok(totals)
}

/// The progress line for one merged interval `[from, to)` (offsets from the load's start);
/// without a `/proc` sample.
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
        idle_dropped: stats.idle_dropped,
        latency_actual_us: stats.pacing.as_ref().map(|p| LatencyDigest::of(&p.actual)),
        send_lag_us: stats
            .pacing
            .as_ref()
            .map(|p| LatencyDigest::of(&p.send_lag)),
        procs: None,
    }
}

/// The summary of a run of `config`: the measure phase (merged over all its intervals and
/// threads) and the run's totals; `echo` is the configuration as reported.
pub fn build_summary(totals: &Totals, config: &Config, echo: ConfigEcho) -> Summary {
    let measured = &totals.measured;
    let achieved = qps(measured.requests, config.duration);
    Summary {
        requests: measured.requests,
        qps: round_to(achieved, 1),
        duration_s: round_to(config.duration.as_secs_f64(), 6),
        errors: measured.errors,
        error_total: measured.errors.total(),
        connect_failures: totals.connect_failures,
        latency_us: LatencySummary::of(&measured.latency),
        percentiles: percentile_distribution(&measured.latency),
        mode: match config.rate {
            Some(_) => Mode::Open,
            None => Mode::Closed,
        },
        connection_mode: if config.new_connection_per_request {
            ConnectionMode::PerRequest
        } else {
            ConnectionMode::KeepAlive
        },
        requests_total: totals.requests_total,
        starved: measured.starved,
        open_loop: config
            .rate
            .map(|target| open_loop_summary(target, achieved, measured)),
        idle: Idle {
            requested: config.idle,
            open_at_start: totals.idle_open_at_start,
            dropped: totals.idle_dropped,
            dropped_connections: totals.idle_dropped_connections,
        },
        procs: if config.sample_procs {
            totals.procs.summary(config.duration)
        } else {
            None
        },
        engine: totals.engine,
        engine_note: totals.engine_note.clone(),
        config: echo,
        version: VERSION,
    }
}

/// The open-loop part of the summary: the rate achieved against the `target`, and the
/// uncorrected latency and send lag of the `measured` requests.
fn open_loop_summary(target: f64, achieved: f64, measured: &IntervalStats) -> OpenLoop {
    let fraction = achieved / target;
    let (actual, send_lag, percentiles_actual) = match &measured.pacing {
        Some(p) => (
            LatencySummary::of(&p.actual),
            LatencySummary::of(&p.send_lag),
            percentile_distribution(&p.actual),
        ),
        None => Default::default(),
    };
    OpenLoop {
        target_qps: target,
        achieved_qps: round_to(achieved, 1),
        achieved_fraction: round_to(fraction, 4),
        short_of_target: fraction < SHORT_OF_TARGET,
        latency_actual_us: actual,
        send_lag_us: send_lag,
        percentiles_actual,
    }
}

/// The stderr note for a run that fell short of its target rate, e.g. "achieved 81,234 of
/// 100,000 req/s (81%): the server (or loadgen) could not keep up".
pub fn shortfall(open_loop: &OpenLoop) -> Option<String> {
    open_loop.short_of_target.then(|| {
        format!(
            "achieved {} of {} req/s ({}%): the server (or loadgen) could not keep up",
            thousands(open_loop.achieved_qps),
            thousands(open_loop.target_qps),
            (open_loop.achieved_fraction * 100.0).floor()
        )
    })
}

/// `x` rounded to a whole number, with a comma between groups of three digits.
pub fn thousands(x: f64) -> String {
    let digits = format!("{:.0}", x.abs());
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if x.round() < 0.0 {
        grouped.push('-');
    }
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
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

/// `len` pseudo-random bytes (seeded from the clock and pid): echo payloads that a server
/// cannot get right by accident.
pub fn random_payload(len: usize) -> Vec<u8> {
    rng::Rng::from_clock().bytes(len)
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

    fn config(args: &[&str]) -> Config {
        let argv = ["loadgen", "--duration-s", "2"]
            .into_iter()
            .chain(args.iter().copied());
        Args::try_parse_from(argv).unwrap().validate().unwrap()
    }

    fn summary_of(totals: &Totals, config: &Config) -> Summary {
        let echo = ConfigEcho::new(config, "127.0.0.1:9000".into(), 64);
        build_summary(totals, config, echo)
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
        let mut totals = Totals {
            connect_failures: 7,
            requests_total: 5000,
            ..Totals::default()
        };
        totals.measured.merge(&a);
        totals.measured.merge(&b);
        let summary = summary_of(&totals, &config(&[]));
        assert_eq!(summary.requests, 4000);
        assert_eq!(summary.requests_total, 5000);
        assert_eq!(summary.mode, Mode::Closed);
        assert_eq!(summary.connection_mode, ConnectionMode::KeepAlive);
        assert_eq!(summary.open_loop, None);
        assert_eq!(summary.procs, None);
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
    fn open_loop_summary_compares_with_the_target() {
        let mut totals = Totals {
            idle_dropped: 3,
            idle_dropped_connections: 2,
            idle_open_at_start: 9,
            ..Totals::default()
        };
        let mut stats = IntervalStats::new(true);
        let start = Instant::now();
        for k in 0..1500u32 {
            let intended = start + Duration::from_millis(u64::from(k));
            let sent = intended + Duration::from_micros(10);
            stats.record_paced(intended, sent, sent + Duration::from_micros(200));
        }
        totals.measured.merge(&stats);
        let config = config(&[
            "--rate",
            "1000",
            "--idle",
            "10",
            "--new-connection-per-request",
            "--sample-procs",
        ]);
        let summary = summary_of(&totals, &config);
        assert_eq!(summary.mode, Mode::Open);
        assert_eq!(summary.connection_mode, ConnectionMode::PerRequest);
        let open = summary.open_loop.as_ref().unwrap();
        // 1500 requests in 2 s of a 1000 req/s target: 75%, short.
        assert_eq!(open.target_qps, 1000.0);
        assert_eq!(open.achieved_qps, 750.0);
        assert_eq!(open.achieved_fraction, 0.75);
        assert!(open.short_of_target);
        assert_eq!(open.send_lag_us.p50, 10);
        assert_eq!(open.latency_actual_us.p50, 200);
        assert_eq!(summary.latency_us.p50, 210);
        assert_eq!(open.percentiles_actual.last().unwrap().latency_us, 200);
        assert_eq!(
            summary.idle,
            Idle {
                requested: 10,
                open_at_start: 9,
                dropped: 3,
                dropped_connections: 2
            }
        );
        // Sampling asked for, but no sample saw a process.
        assert_eq!(summary.procs, None);
        assert_eq!(
            shortfall(open).unwrap(),
            "achieved 750 of 1,000 req/s (75%): the server (or loadgen) could not keep up"
        );
        let on_target = open_loop_summary(1000.0, 960.0, &stats);
        assert!(!on_target.short_of_target);
        assert_eq!(shortfall(&on_target), None);
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0.0), "0");
        assert_eq!(thousands(999.4), "999");
        assert_eq!(thousands(81_234.2), "81,234");
        assert_eq!(thousands(100_000.0), "100,000");
        assert_eq!(thousands(10_000_000.0), "10,000,000");
        assert_eq!(thousands(-1234.0), "-1,234");
    }

    #[test]
    fn connections_opened_ahead_and_the_message_about_them() {
        let keep = config(&["--connections", "10", "--idle", "5"]);
        assert_eq!(opened_ahead(&keep), 15);
        assert_eq!(
            opened_message(&keep, 10, 4),
            "10 of 10 connections and 4 of 5 idle ones open"
        );
        assert_eq!(
            opened_message(&config(&[]), 99, 0),
            "99 of 100 connections open"
        );
        let per_request = config(&["--connections", "10", "--new-connection-per-request"]);
        assert_eq!(opened_ahead(&per_request), 0);
        assert_eq!(
            opened_message(&per_request, 0, 0),
            "no connections opened ahead (a new one per request)"
        );
        let both = config(&["--idle", "7", "--new-connection-per-request"]);
        assert_eq!(opened_ahead(&both), 7);
        assert_eq!(
            opened_message(&both, 0, 7),
            "7 of 7 idle connections open (and a new one per request)"
        );
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
        assert_eq!(empty.latency_actual_us, None);
        assert_eq!(empty.idle_dropped, 0);
        let open = progress_line(
            Phase::Measure,
            Duration::ZERO,
            Duration::from_secs(1),
            &IntervalStats::new(true),
        );
        assert_eq!(open.send_lag_us, Some(LatencyDigest::default()));
    }

    #[test]
    fn nofile_limit_already_enough() {
        assert!(raise_nofile_limit(16).is_ok());
        assert!(raise_nofile_limit(u64::MAX).is_err());
    }
}
