//! The JSON lines written to stdout, one object per line, each tagged with `"type"`.
//!
//! `schema/output.schema.json` documents them; the integration tests validate real output
//! against it.

use std::io::{self, Write};

use serde::Serialize;

use crate::cli::{Config, Engine, Protocol};
use crate::procs::{ProcSample, ProcSummary};
use crate::stats::{ErrorCounts, LatencyDigest, LatencySummary, PercentilePoint};

/// One line of output.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Line<'a> {
    /// Readiness verified (`ready`), or a phase of the load begins.
    Phase { phase: Phase },
    /// The figures of one progress interval.
    Progress(&'a Progress),
    /// The whole measure phase; the last line of a successful run.
    Summary(&'a Summary),
    /// A fatal error; the process exits with status 1 (2 for `usage`).
    Error { kind: &'a str, message: &'a str },
    /// `--check`: the only line; the process exits 0 when `ok`, else 1.
    Check(&'a CheckReport),
}

/// The phases, in order: `ready`, `warmup` (only when `--warmup-s` > 0), `measure`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Ready,
    Warmup,
    Measure,
}

/// One progress interval, merged over all threads.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Progress {
    pub phase: Phase,
    /// Seconds since the load started (start of warm-up) at the end of this interval.
    pub elapsed_s: f64,
    /// Length of this interval in seconds.
    pub interval_s: f64,
    /// Requests completed in this interval.
    pub requests: u64,
    /// requests / interval_s.
    pub qps: f64,
    /// Errors (all kinds) in this interval.
    pub errors: u64,
    /// Latency of this interval's requests, microseconds (from the intended send time in
    /// open loop).
    pub latency_us: LatencyDigest,
    /// Idle connections dropped by the server in this interval.
    pub idle_dropped: u64,
    /// Open loop only: latency from the actual send.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_actual_us: Option<LatencyDigest>,
    /// Open loop only: actual send time minus intended send time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub send_lag_us: Option<LatencyDigest>,
    /// `--sample-procs` only: the other processes at the interval's end (`null` when there
    /// are none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub procs: Option<Option<ProcSample>>,
}

/// The result of the measure phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub requests: u64,
    pub qps: f64,
    pub duration_s: f64,
    pub errors: ErrorCounts,
    pub error_total: u64,
    pub connect_failures: u64,
    pub latency_us: LatencySummary,
    pub percentiles: Vec<PercentilePoint>,
    pub mode: Mode,
    pub connection_mode: ConnectionMode,
    /// Requests completed over warm-up and measure.
    pub requests_total: u64,
    /// Active connections still waiting at the end on a request (or connect) that started
    /// before the measure phase: served never while it lasted. Not in any histogram.
    pub starved: u64,
    pub open_loop: Option<OpenLoop>,
    pub idle: Idle,
    pub procs: Option<ProcSummary>,
    /// The engine that ran (`config.engine` is the one asked for).
    pub engine: Engine,
    /// Why the engine that ran is not the one asked for; `None` when it is.
    pub engine_note: Option<String>,
    pub config: ConfigEcho,
    pub version: &'static str,
}

/// How requests are paced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The next request as soon as the previous reply arrived.
    Closed,
    /// Requests on a fixed schedule (`--rate`).
    Open,
}

/// How requests use connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConnectionMode {
    KeepAlive,
    /// `--new-connection-per-request`.
    PerRequest,
}

/// The open-loop figures of the measure phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenLoop {
    pub target_qps: f64,
    pub achieved_qps: f64,
    /// achieved_qps / target_qps.
    pub achieved_fraction: f64,
    /// achieved_qps fell under [`SHORT_OF_TARGET`] of the target.
    pub short_of_target: bool,
    pub latency_actual_us: LatencySummary,
    pub send_lag_us: LatencySummary,
    pub percentiles_actual: Vec<PercentilePoint>,
}

/// The share of the target rate under which an open-loop run is short of its target.
pub const SHORT_OF_TARGET: f64 = 0.95;

/// The idle connections of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Idle {
    /// `--idle`.
    pub requested: usize,
    /// Open when the load started.
    pub open_at_start: usize,
    /// Closed or reset by the server (or sent data) while the load ran, warm-up included:
    /// each time, reconnects included.
    pub dropped: u64,
    /// How many distinct idle connections that was (at most `requested`); `dropped` less
    /// this is the reconnects dropped again.
    pub dropped_connections: u64,
}

/// The effective configuration, echoed in the summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigEcho {
    pub host: String,
    pub port: u16,
    /// The socket address actually connected to.
    pub address: String,
    pub protocol: Protocol,
    pub connections: usize,
    pub payload_bytes: usize,
    /// Bytes of one request on the wire.
    pub request_bytes: usize,
    pub duration_s: f64,
    pub warmup_s: f64,
    pub threads: usize,
    pub wait_ready_s: f64,
    pub progress_interval_ms: u64,
    pub timeout_ms: u64,
    /// 0 in closed loop.
    pub rate: f64,
    pub idle: usize,
    pub new_connection_per_request: bool,
    pub ramp_s: f64,
    pub sample_procs: bool,
    /// `--engine`: the engine asked for.
    pub engine: Engine,
}

impl ConfigEcho {
    pub fn new(config: &Config, address: String, request_bytes: usize) -> ConfigEcho {
        ConfigEcho {
            host: config.host.clone(),
            port: config.port,
            address,
            protocol: config.protocol,
            connections: config.connections,
            payload_bytes: config.payload_bytes,
            request_bytes,
            duration_s: config.duration.as_secs_f64(),
            warmup_s: config.warmup.as_secs_f64(),
            threads: config.threads,
            wait_ready_s: config.wait_ready.as_secs_f64(),
            progress_interval_ms: config.progress_interval.as_millis() as u64,
            timeout_ms: config.timeout.as_millis() as u64,
            rate: config.rate.unwrap_or(0.0),
            idle: config.idle,
            new_connection_per_request: config.new_connection_per_request,
            ramp_s: config.ramp.as_secs_f64(),
            sample_procs: config.sample_procs,
            engine: config.engine,
        }
    }
}

/// The outcome of `--check` (see [`crate::check`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// Every check passed.
    pub ok: bool,
    pub protocol: Protocol,
    /// The checks that passed, in the order they ran.
    pub passed: Vec<&'static str>,
    /// The check that failed (the last to run); `None` when all passed.
    pub failed: Option<CheckFailure>,
}

/// Why a check failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckFailure {
    /// The check's name, or `ready` when the server never accepted a connection.
    pub check: &'static str,
    /// Which exchange and what came back, for a person.
    pub message: String,
    /// The expected bytes around the first difference (at most 64, escaped); `None` when the
    /// failure is not about bytes.
    pub expected: Option<String>,
    /// What came back at the same place (escaped); `None` as for `expected`.
    pub got: Option<String>,
}

/// Writes `line` as one JSON line and flushes, so a reader sees it at once.
pub fn emit(out: &mut dyn Write, line: &Line<'_>) -> io::Result<()> {
    let mut buf = serde_json::to_vec(line).map_err(io::Error::other)?;
    buf.push(b'\n');
    out.write_all(&buf)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(line: &Line<'_>) -> String {
        let mut out = Vec::new();
        emit(&mut out, line).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn phase_and_error_lines() {
        assert_eq!(
            json(&Line::Phase {
                phase: Phase::Ready
            }),
            "{\"type\":\"phase\",\"phase\":\"ready\"}\n"
        );
        assert_eq!(
            json(&Line::Error {
                kind: "not_ready",
                message: "no \"server\""
            }),
            "{\"type\":\"error\",\"kind\":\"not_ready\",\"message\":\"no \\\"server\\\"\"}\n"
        );
    }

    #[test]
    fn progress_line_is_flat_with_type_first() {
        let p = Progress {
            phase: Phase::Measure,
            elapsed_s: 2.0,
            interval_s: 1.0,
            requests: 10,
            qps: 10.0,
            errors: 0,
            latency_us: LatencyDigest {
                p50: 1,
                p90: 2,
                p99: 3,
                p999: 4,
                max: 5,
            },
            idle_dropped: 0,
            latency_actual_us: None,
            send_lag_us: None,
            procs: None,
        };
        assert_eq!(
            json(&Line::Progress(&p)),
            concat!(
                r#"{"type":"progress","phase":"measure","elapsed_s":2.0,"interval_s":1.0,"#,
                r#""requests":10,"qps":10.0,"errors":0,"#,
                r#""latency_us":{"p50":1,"p90":2,"p99":3,"p999":4,"max":5},"idle_dropped":0}"#,
                "\n"
            )
        );
    }

    #[test]
    fn open_loop_progress_has_its_digests_and_procs_may_be_null() {
        let digest = LatencyDigest {
            p50: 1,
            p90: 2,
            p99: 3,
            p999: 4,
            max: 5,
        };
        let p = Progress {
            phase: Phase::Warmup,
            elapsed_s: 1.0,
            interval_s: 1.0,
            requests: 0,
            qps: 0.0,
            errors: 0,
            latency_us: digest,
            idle_dropped: 3,
            latency_actual_us: Some(digest),
            send_lag_us: Some(LatencyDigest::default()),
            procs: Some(None),
        };
        let line = json(&Line::Progress(&p));
        assert!(
            line.contains(r#""idle_dropped":3,"latency_actual_us":{"p50":1,"#),
            "{line}"
        );
        assert!(line.contains(r#""send_lag_us":{"p50":0,"#), "{line}");
        assert!(line.ends_with("\"procs\":null}\n"), "{line}");
    }

    #[test]
    fn check_lines() {
        let passed = CheckReport {
            ok: true,
            protocol: Protocol::Http,
            passed: vec!["http-one-request"],
            failed: None,
        };
        assert_eq!(
            json(&Line::Check(&passed)),
            concat!(
                r#"{"type":"check","ok":true,"protocol":"http","passed":["http-one-request"],"#,
                r#""failed":null}"#,
                "\n"
            )
        );
        let failed = CheckReport {
            ok: false,
            protocol: Protocol::Echo,
            passed: vec![],
            failed: Some(CheckFailure {
                check: "echo-sizes",
                message: "payload 1 (1 bytes): no reply within 5000 ms".into(),
                expected: Some("\\x07".into()),
                got: None,
            }),
        };
        assert_eq!(
            json(&Line::Check(&failed)),
            concat!(
                r#"{"type":"check","ok":false,"protocol":"echo","passed":[],"failed":{"#,
                r#""check":"echo-sizes","message":"payload 1 (1 bytes): no reply within 5000 ms","#,
                r#""expected":"\\x07","got":null}}"#,
                "\n"
            )
        );
    }

    #[test]
    fn modes_are_snake_case() {
        let text = serde_json::to_string(&(
            Mode::Closed,
            Mode::Open,
            ConnectionMode::KeepAlive,
            ConnectionMode::PerRequest,
        ))
        .unwrap();
        assert_eq!(text, r#"["closed","open","keep_alive","per_request"]"#);
    }
}
