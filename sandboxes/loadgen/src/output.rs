//! The JSON lines written to stdout, one object per line, each tagged with `"type"`.
//!
//! `schema/output.schema.json` documents them; the integration tests validate real output
//! against it.

use std::io::{self, Write};

use serde::Serialize;

use crate::cli::{Config, Protocol};
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
    /// Latency of this interval's requests, microseconds.
    pub latency_us: LatencyDigest,
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
    pub config: ConfigEcho,
    pub version: &'static str,
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
        }
    }
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
        };
        assert_eq!(
            json(&Line::Progress(&p)),
            concat!(
                r#"{"type":"progress","phase":"measure","elapsed_s":2.0,"interval_s":1.0,"#,
                r#""requests":10,"qps":10.0,"errors":0,"#,
                r#""latency_us":{"p50":1,"p90":2,"p99":3,"p999":4,"max":5}}"#,
                "\n"
            )
        );
    }
}
