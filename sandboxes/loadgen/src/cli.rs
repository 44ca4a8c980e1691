//! Command-line arguments, their validation, and the effective configuration.
//!
//! `--engine` defaults to `epoll`: see [`crate::engine`] for why, and for what `io_uring`
//! needs of the kernel.

use std::time::Duration;

use clap::{Parser, ValueEnum};
use serde::Serialize;

use crate::pacing::MIN_RATE;

/// Most connections a run may open, active and idle together (the containers' nofile limit
/// is 20000).
pub const MAX_CONNECTIONS: u32 = 19_000;
/// Highest `--rate`, requests per second.
pub const MAX_RATE: f64 = 10_000_000.0;
/// Largest echo request.
pub const MAX_PAYLOAD_BYTES: u32 = 1_048_576;
/// Most worker threads.
pub const MAX_THREADS: u32 = 64;
/// Longest duration, warm-up or readiness wait, in seconds (one hour).
pub const MAX_SECONDS: f64 = 3600.0;

/// The wire protocol spoken to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// Send `--payload-bytes` random bytes, expect the same bytes back.
    Echo,
    /// Send `GET / HTTP/1.1`, expect `HTTP/1.1 200` with a Content-Length body.
    Http,
}

/// How the worker threads drive their sockets (see [`crate::engine`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    /// epoll (through mio): readiness, then a read and a write system call per round trip.
    #[default]
    Epoll,
    /// io_uring: one ring per thread, multishot receives into provided buffers, sends
    /// batched into the wait's system call (Linux 6.0+; falls back to epoll, saying why).
    #[value(name = "io_uring", alias = "io-uring")]
    IoUring,
}

impl Engine {
    /// The name used on the command line and in the output.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Epoll => "epoll",
            Engine::IoUring => "io_uring",
        }
    }
}

/// Load generator for the C10K Lab servers: N connections, one request in flight on each,
/// sent as soon as the previous reply arrives (closed loop) or on a fixed schedule (open loop,
/// --rate); JSON lines on stdout (phase, progress, summary, error).
#[derive(Clone, Debug, Parser)]
#[command(name = "loadgen", version, about, max_term_width = 100)]
pub struct Args {
    /// Server host name or IP address.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,

    /// Server TCP port.
    #[arg(long, default_value_t = 9000, value_parser = clap::value_parser!(u16).range(1..))]
    pub port: u16,

    /// Wire protocol.
    #[arg(long, value_enum, default_value_t = Protocol::Echo)]
    pub protocol: Protocol,

    /// Connections kept busy, each with one request in flight (1..=19000).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=MAX_CONNECTIONS as i64))]
    pub connections: u32,

    /// Echo request size in bytes (1..=1048576); ignored for http.
    #[arg(long, value_name = "B", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=MAX_PAYLOAD_BYTES as i64))]
    pub payload_bytes: u32,

    /// Length of the measured phase in seconds (> 0, at most 3600).
    #[arg(long, value_name = "D", default_value_t = 5.0, value_parser = positive_seconds,
          allow_negative_numbers = true)]
    pub duration_s: f64,

    /// Warm-up before measuring, in seconds (0 for none); its results are discarded.
    #[arg(long, value_name = "W", default_value_t = 1.0, value_parser = seconds,
          allow_negative_numbers = true)]
    pub warmup_s: f64,

    /// Worker threads, each with its own event loop and share of the connections.
    #[arg(long, value_name = "T", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    pub threads: u32,

    /// How long to keep retrying the first connection before giving up (`not_ready`).
    #[arg(long, value_name = "S", default_value_t = 10.0, value_parser = seconds,
          allow_negative_numbers = true)]
    pub wait_ready_s: f64,

    /// Interval between progress lines, in milliseconds (10..=60000).
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub progress_interval_ms: u64,

    /// Per-request timeout in milliseconds (also bounds connecting), 1..=600000.
    #[arg(long, value_name = "MS", default_value_t = 5000,
          value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub timeout_ms: u64,

    /// Open loop: requests per second for the whole run (at most 10000000), spread evenly
    /// over the connections as wrk2 does; latency counts from when each request was due.
    /// 0 = closed loop.
    #[arg(long, value_name = "R", default_value_t = 0.0, value_parser = rate,
          allow_negative_numbers = true)]
    pub rate: f64,

    /// Extra connections, opened after the active ones, that never send a byte
    /// (connections + idle at most 19000).
    #[arg(long, value_name = "K", default_value_t = 0, allow_negative_numbers = true,
          value_parser = clap::value_parser!(u32).range(0..=MAX_CONNECTIONS as i64))]
    pub idle: u32,

    /// Every request on a fresh connection: connect, send, read the reply, close; latency
    /// counts from the start of the connect.
    #[arg(long)]
    pub new_connection_per_request: bool,

    /// Open the connections (active, then idle) evenly over this many seconds instead of all
    /// at once, before the load starts (0..=3600).
    #[arg(long = "ramp-s", visible_alias = "ramp", value_name = "S", default_value_t = 0.0,
          value_parser = seconds, allow_negative_numbers = true)]
    pub ramp_s: f64,

    /// At every progress interval, read `/proc/[pid]/status` of every other process in this pid
    /// namespace (the server's, when run in its namespace): threads, memory, context switches.
    #[arg(long)]
    pub sample_procs: bool,

    /// How each worker thread drives its sockets: epoll, or io_uring (one ring per thread,
    /// many operations per system call). Where the kernel refuses io_uring the run uses epoll
    /// and says why (stderr, and the summary's engine_note).
    #[arg(long, value_enum, default_value_t = Engine::Epoll)]
    pub engine: Engine,

    /// Check that the server answers correctly instead of loading it: the protocol's checks
    /// in order, stopping at the first failure, then one `check` line (exit 0 when all pass,
    /// 1 when one fails). Uses --host, --port, --protocol, --timeout-ms, --wait-ready-s and
    /// min(--connections, 64) connections at once; ignores the load's flags.
    #[arg(long)]
    pub check: bool,
}

/// A request rate: finite, 0 (closed loop) or [`MIN_RATE`]..=[`MAX_RATE`] requests per second.
fn rate(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of requests per second"))?;
    if !v.is_finite() || !(0.0..=MAX_RATE).contains(&v) {
        return Err(format!("{s} is not in 0..={MAX_RATE} requests per second"));
    }
    if v > 0.0 && v < MIN_RATE {
        return Err(format!(
            "{s} is below the lowest open-loop rate, {MIN_RATE} requests per second (0 means closed loop)"
        ));
    }
    Ok(v)
}

/// A duration in seconds: finite, 0..=3600.
fn seconds(s: &str) -> Result<f64, String> {
    seconds_from(s, 0.0)
}

/// A duration in seconds: finite, at least 1 ms, at most 3600.
fn positive_seconds(s: &str) -> Result<f64, String> {
    seconds_from(s, 0.001)
}

fn seconds_from(s: &str, min: f64) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !v.is_finite() || !(min..=MAX_SECONDS).contains(&v) {
        return Err(format!("{s} is not in {min}..={MAX_SECONDS} seconds"));
    }
    Ok(v)
}

/// The validated, effective configuration of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub host: String,
    pub port: u16,
    pub protocol: Protocol,
    pub connections: usize,
    pub payload_bytes: usize,
    pub duration: Duration,
    pub warmup: Duration,
    pub threads: usize,
    pub wait_ready: Duration,
    pub progress_interval: Duration,
    pub timeout: Duration,
    /// Requests per second in open loop; `None` in closed loop.
    pub rate: Option<f64>,
    /// Connections held open without sending.
    pub idle: usize,
    pub new_connection_per_request: bool,
    pub ramp: Duration,
    pub sample_procs: bool,
    /// The engine asked for (the one that ran may be epoll instead, see [`crate::engine`]).
    pub engine: Engine,
    /// `--check`: check the server's answers instead of loading it ([`crate::check`]).
    pub check: bool,
}

impl Args {
    /// Checks what clap cannot check alone and returns the effective configuration.
    pub fn validate(&self) -> Result<Config, String> {
        if self.host.trim().is_empty() {
            return Err("--host must not be empty".to_string());
        }
        if self.threads > self.connections {
            return Err(format!(
                "--threads ({}) must not exceed --connections ({}): every thread needs a connection",
                self.threads, self.connections
            ));
        }
        if self.connections + self.idle > MAX_CONNECTIONS {
            return Err(format!(
                "--connections ({}) plus --idle ({}) must not exceed {MAX_CONNECTIONS}",
                self.connections, self.idle
            ));
        }
        Ok(Config {
            host: self.host.trim().to_string(),
            port: self.port,
            protocol: self.protocol,
            connections: self.connections as usize,
            payload_bytes: self.payload_bytes as usize,
            duration: Duration::from_secs_f64(self.duration_s),
            warmup: Duration::from_secs_f64(self.warmup_s),
            threads: self.threads as usize,
            wait_ready: Duration::from_secs_f64(self.wait_ready_s),
            progress_interval: Duration::from_millis(self.progress_interval_ms),
            timeout: Duration::from_millis(self.timeout_ms),
            rate: (self.rate > 0.0).then_some(self.rate),
            idle: self.idle as usize,
            new_connection_per_request: self.new_connection_per_request,
            ramp: Duration::from_secs_f64(self.ramp_s),
            sample_procs: self.sample_procs,
            engine: self.engine,
            check: self.check,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Config, String> {
        let argv = std::iter::once("loadgen").chain(args.iter().copied());
        Args::try_parse_from(argv)
            .map_err(|e| e.to_string())?
            .validate()
    }

    #[test]
    fn defaults() {
        let c = parse(&[]).unwrap();
        assert_eq!(c.host, "127.0.0.1");
        assert_eq!(c.port, 9000);
        assert_eq!(c.protocol, Protocol::Echo);
        assert_eq!(c.threads, 1);
        assert_eq!(c.wait_ready, Duration::from_secs(10));
        assert_eq!(c.progress_interval, Duration::from_secs(1));
        assert_eq!(c.timeout, Duration::from_secs(5));
        assert_eq!(c.rate, None);
        assert_eq!(c.idle, 0);
        assert!(!c.new_connection_per_request);
        assert_eq!(c.ramp, Duration::ZERO);
        assert!(!c.sample_procs);
        assert_eq!(c.engine, Engine::Epoll);
        assert!(!c.check);
    }

    #[test]
    fn check_mode_keeps_the_other_flags_and_their_validation() {
        let c = parse(&["--check", "--protocol", "http", "--connections", "500"]).unwrap();
        assert!(c.check);
        assert_eq!(c.protocol, Protocol::Http);
        assert_eq!(c.connections, 500);
        let err = parse(&["--check", "--timeout-ms", "0"]).unwrap_err();
        assert!(err.contains("--timeout-ms"), "{err}");
        let err = parse(&["--check=yes"]).unwrap_err();
        assert!(err.contains("--check"), "{err}");
    }

    #[test]
    fn engines() {
        assert_eq!(
            parse(&["--engine", "io_uring"]).unwrap().engine,
            Engine::IoUring
        );
        assert_eq!(
            parse(&["--engine", "io-uring"]).unwrap().engine,
            Engine::IoUring
        );
        assert_eq!(parse(&["--engine", "epoll"]).unwrap().engine, Engine::Epoll);
        for engine in [Engine::Epoll, Engine::IoUring] {
            let json = serde_json::to_string(&engine).unwrap();
            assert_eq!(json, format!("\"{}\"", engine.name()));
            assert_eq!(parse(&["--engine", engine.name()]).unwrap().engine, engine);
        }
    }

    #[test]
    fn open_loop_idle_per_request_ramp_and_procs() {
        let c = parse(&[
            "--rate",
            "1.23457e+06",
            "--connections",
            "1000",
            "--idle",
            "18000",
            "--new-connection-per-request",
            "--ramp-s",
            "2.5",
            "--sample-procs",
        ])
        .unwrap();
        assert_eq!(c.rate, Some(1_234_570.0));
        assert_eq!(c.idle, 18_000);
        assert!(c.new_connection_per_request);
        assert_eq!(c.ramp, Duration::from_millis(2500));
        assert!(c.sample_procs);
        // --ramp is the same flag; rate 0 is the closed loop; the extremes are accepted.
        assert_eq!(
            parse(&["--ramp", "3600"]).unwrap().ramp,
            Duration::from_secs(3600)
        );
        assert_eq!(parse(&["--rate", "0"]).unwrap().rate, None);
        assert_eq!(
            parse(&["--rate", "10000000"]).unwrap().rate,
            Some(10_000_000.0)
        );
        assert_eq!(parse(&["--rate", "0.5"]).unwrap().rate, Some(0.5));
        assert_eq!(parse(&["--ramp-s", "0"]).unwrap().ramp, Duration::ZERO);
        let c = parse(&["--connections", "1", "--idle", "18999"]).unwrap();
        assert_eq!(c.connections + c.idle, 19_000);
    }

    #[test]
    fn full_command_line() {
        let c = parse(&[
            "--host",
            "localhost",
            "--port",
            "15000",
            "--protocol",
            "http",
            "--connections",
            "19000",
            "--payload-bytes",
            "1048576",
            "--duration-s",
            "2.5",
            "--warmup-s",
            "0",
            "--threads",
            "2",
            "--wait-ready-s",
            "0.5",
            "--progress-interval-ms",
            "250",
            "--timeout-ms",
            "100",
        ])
        .unwrap();
        assert_eq!(c.protocol, Protocol::Http);
        assert_eq!(c.connections, 19000);
        assert_eq!(c.payload_bytes, 1_048_576);
        assert_eq!(c.duration, Duration::from_millis(2500));
        assert_eq!(c.warmup, Duration::ZERO);
        assert_eq!(c.wait_ready, Duration::from_millis(500));
        assert_eq!(c.progress_interval, Duration::from_millis(250));
        assert_eq!(c.timeout, Duration::from_millis(100));
    }

    #[test]
    fn out_of_range_values_are_rejected_with_the_flag_named() {
        for (args, needle) in [
            (&["--connections", "0"][..], "--connections"),
            (&["--connections", "19001"][..], "--connections"),
            (&["--payload-bytes", "0"][..], "--payload-bytes"),
            (&["--payload-bytes", "1048577"][..], "--payload-bytes"),
            (&["--duration-s", "0"][..], "--duration-s"),
            (&["--duration-s", "-1"][..], "--duration-s"),
            (&["--duration-s", "NaN"][..], "--duration-s"),
            (&["--duration-s", "inf"][..], "--duration-s"),
            (&["--duration-s", "abc"][..], "--duration-s"),
            (&["--warmup-s", "-0.5"][..], "--warmup-s"),
            (&["--warmup-s", "3601"][..], "--warmup-s"),
            (&["--threads", "0"][..], "--threads"),
            (&["--threads", "65"][..], "--threads"),
            (&["--port", "0"][..], "--port"),
            (&["--port", "65536"][..], "--port"),
            (&["--protocol", "ftp"][..], "--protocol"),
            (
                &["--progress-interval-ms", "5"][..],
                "--progress-interval-ms",
            ),
            (&["--timeout-ms", "0"][..], "--timeout-ms"),
            (&["--wait-ready-s", "-1"][..], "--wait-ready-s"),
            (&["--rate", "-1"][..], "--rate"),
            (&["--rate", "10000001"][..], "--rate"),
            (&["--rate", "NaN"][..], "--rate"),
            (&["--rate", "inf"][..], "--rate"),
            (&["--rate", "fast"][..], "--rate"),
            (&["--rate", "0.0000001"][..], "--rate"),
            (&["--idle", "-1"][..], "--idle"),
            (&["--idle", "19001"][..], "--idle"),
            (&["--idle", "many"][..], "--idle"),
            (&["--ramp-s", "-1"][..], "--ramp-s"),
            (&["--ramp-s", "3601"][..], "--ramp-s"),
            (&["--ramp", "NaN"][..], "--ramp"),
            (&["--new-connection-per-request", "yes"][..], "yes"),
            (&["--sample-procs=1"][..], "--sample-procs"),
            (&["--engine", "poll"][..], "--engine"),
            (&["--bogus"][..], "--bogus"),
        ] {
            let err = parse(args).expect_err(&format!("{args:?} should fail"));
            assert!(err.contains(needle), "{args:?}: {err}");
        }
    }

    #[test]
    fn cross_field_checks() {
        let err = parse(&["--connections", "2", "--threads", "3"]).unwrap_err();
        assert!(
            err.contains("--threads (3) must not exceed --connections (2)"),
            "{err}"
        );
        let err = parse(&["--host", " "]).unwrap_err();
        assert!(err.contains("--host"), "{err}");
        assert!(parse(&["--connections", "3", "--threads", "3"]).is_ok());
        let err = parse(&["--connections", "10000", "--idle", "9001"]).unwrap_err();
        assert!(
            err.contains("--connections (10000) plus --idle (9001) must not exceed 19000"),
            "{err}"
        );
        let err = parse(&["--connections", "19000", "--idle", "1"]).unwrap_err();
        assert!(err.contains("--idle"), "{err}");
        // Idle connections do not count for --threads: every thread needs an active one.
        let err = parse(&["--connections", "1", "--idle", "5", "--threads", "2"]).unwrap_err();
        assert!(err.contains("--threads"), "{err}");
    }

    #[test]
    fn zero_warmup_and_zero_wait_are_allowed() {
        let c = parse(&["--warmup-s", "0", "--wait-ready-s", "0"]).unwrap();
        assert_eq!(c.warmup, Duration::ZERO);
        assert_eq!(c.wait_ready, Duration::ZERO);
    }
}
