//! End-to-end tests: tiny in-test servers (a thread per connection) on free ports in
//! 15000–19999, the real `loadgen` binary run against them for about a second, and its JSON
//! lines checked — each one against `schema/output.schema.json`.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::atomic::{AtomicU16, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::Value;

const HTTP_RESPONSE: &[u8] =
    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, world!";

/// Binds a listener on the first free port from a per-process starting point in 15000–19999.
fn listen() -> TcpListener {
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let base = 15000 + (std::process::id() % 50) as u16 * 100;
    for _ in 0..5000 {
        let offset = NEXT.fetch_add(1, Ordering::Relaxed) % 5000;
        let port = 15000 + (base - 15000 + offset) % 5000;
        if let Ok(listener) = TcpListener::bind(("127.0.0.1", port)) {
            return listener;
        }
    }
    panic!("no free port in 15000-19999");
}

/// A port in 15000–19999 where nothing listens.
fn closed_port() -> u16 {
    listen().local_addr().unwrap().port() // dropped at once: nothing listens there
}

/// Serves every connection of `listener` on its own thread with `handle`.
fn serve(listener: TcpListener, handle: fn(TcpStream)) -> u16 {
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = stream.set_nodelay(true);
            thread::spawn(move || handle(stream));
        }
    });
    port
}

/// Writes back every byte read.
fn echo(mut s: TcpStream) {
    let mut buf = [0u8; 16384];
    while let Ok(n) = s.read(&mut buf) {
        if n == 0 || s.write_all(&buf[..n]).is_err() {
            return;
        }
    }
}

/// Writes back every byte read, but with the first byte of each read changed.
fn wrong_echo(mut s: TcpStream) {
    let mut buf = [0u8; 16384];
    while let Ok(n) = s.read(&mut buf) {
        if n == 0 {
            return;
        }
        buf[0] ^= 0xff;
        if s.write_all(&buf[..n]).is_err() {
            return;
        }
    }
}

/// Echoes, but closes each connection after 50 replies of `64` bytes (to exercise reconnects).
fn flaky_echo(mut s: TcpStream) {
    let mut buf = [0u8; 64];
    for _ in 0..50 {
        if s.read_exact(&mut buf).is_err() || s.write_all(&buf).is_err() {
            return;
        }
    }
}

/// Answers each request head (ending in CRLFCRLF) with one fixed 200 response.
fn http(mut s: TcpStream) {
    let mut buf = [0u8; 16384];
    let mut matched = 0;
    while let Ok(n) = s.read(&mut buf) {
        if n == 0 {
            return;
        }
        let mut responses = 0;
        for &b in &buf[..n] {
            matched = match (matched, b) {
                (0 | 2, b'\r') => matched + 1,
                (1 | 3, b'\n') => matched + 1,
                (_, b'\r') => 1,
                _ => 0,
            };
            if matched == 4 {
                responses += 1;
                matched = 0;
            }
        }
        for _ in 0..responses {
            if s.write_all(HTTP_RESPONSE).is_err() {
                return;
            }
        }
    }
}

struct Run {
    status: i32,
    lines: Vec<Value>,
    stderr: String,
}

impl Run {
    fn of_type<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.lines.iter().filter(move |l| l["type"] == kind)
    }

    fn summary(&self) -> &Value {
        let last = self.lines.last().expect("some output");
        assert_eq!(
            last["type"], "summary",
            "last line: {last}\nstderr: {}",
            self.stderr
        );
        last
    }

    fn phases(&self) -> Vec<&str> {
        self.of_type("phase")
            .map(|l| l["phase"].as_str().unwrap())
            .collect()
    }
}

/// Runs the real binary with `args`; every stdout line must be JSON valid against the schema.
fn loadgen(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_loadgen"))
        .args(args)
        .output()
        .expect("run loadgen");
    let stdout = String::from_utf8(output.stdout).expect("utf-8 stdout");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let schema: Value = serde_json::from_str(include_str!("../schema/output.schema.json")).unwrap();
    let validator = jsonschema::draft202012::new(&schema).expect("schema compiles");
    let lines: Vec<Value> = stdout
        .lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {line}\nstderr: {stderr}"));
            let errors: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{line}\nviolates the schema: {errors:?}");
            value
        })
        .collect();
    Run {
        status: output.status.code().unwrap_or(-1),
        lines,
        stderr,
    }
}

fn port_arg(port: u16) -> String {
    port.to_string()
}

#[test]
fn schema_is_a_valid_2020_12_schema() {
    let schema: Value = serde_json::from_str(include_str!("../schema/output.schema.json")).unwrap();
    assert!(jsonschema::meta::validate(&schema).is_ok());
}

#[test]
fn schema_accepts_edge_cases_built_by_the_library() {
    use loadgen::output::{ConfigEcho, Line};
    let schema: Value = serde_json::from_str(include_str!("../schema/output.schema.json")).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let check = |line: &Line<'_>| {
        let value = serde_json::to_value(line).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{value}: {errors:?}");
    };
    // A measure phase in which nothing completed: zeros and an empty distribution.
    let config = loadgen::cli::Args::try_parse_from(["loadgen", "--warmup-s", "0"])
        .unwrap()
        .validate()
        .unwrap();
    let echo = ConfigEcho::new(&config, "127.0.0.1:9000".into(), 64);
    let empty = loadgen::stats::IntervalStats::default();
    let summary = loadgen::build_summary(&empty, config.duration, 3, echo);
    assert!(summary.percentiles.is_empty());
    check(&Line::Summary(&summary));
    let progress = loadgen::progress_line(
        loadgen::output::Phase::Warmup,
        Duration::ZERO,
        Duration::from_millis(10),
        &empty,
    );
    check(&Line::Progress(&progress));
    for kind in [
        "not_ready",
        "verify_failed",
        "usage",
        "resource_limit",
        "internal",
        "output",
    ] {
        check(&Line::Error { kind, message: "x" });
    }
    // And it rejects what is not output.
    for bad in [
        r#"{"type":"phase","phase":"cooldown"}"#,
        r#"{"type":"error","kind":"not_ready"}"#,
        r#"{"type":"progress","phase":"measure"}"#,
        r#"{"type":"other"}"#,
    ] {
        let value: Value = serde_json::from_str(bad).unwrap();
        assert!(!validator.is_valid(&value), "accepted {bad}");
    }
}

#[test]
fn echo_run_reports_phases_progress_and_summary() {
    let port = port_arg(serve(listen(), echo));
    let run = loadgen(&[
        "--port",
        &port,
        "--protocol",
        "echo",
        "--connections",
        "8",
        "--payload-bytes",
        "100",
        "--warmup-s",
        "0.3",
        "--duration-s",
        "0.8",
        "--progress-interval-ms",
        "200",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    assert_eq!(run.phases(), ["ready", "warmup", "measure"]);
    // Lines come in order: phase ready, phase warmup, warmup progress…, phase measure, …
    let kinds: Vec<String> = run
        .lines
        .iter()
        .map(|l| {
            format!(
                "{}:{}",
                l["type"].as_str().unwrap(),
                l["phase"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        kinds[..3],
        ["phase:ready", "phase:warmup", "progress:warmup"]
    );
    let measure_at = kinds.iter().position(|k| k == "phase:measure").unwrap();
    assert!(
        kinds[..measure_at]
            .iter()
            .skip(2)
            .all(|k| k == "progress:warmup"),
        "{kinds:?}"
    );
    assert!(
        kinds[measure_at + 1..kinds.len() - 1]
            .iter()
            .all(|k| k == "progress:measure"),
        "{kinds:?}"
    );

    let progress: Vec<&Value> = run.of_type("progress").collect();
    assert_eq!(
        progress.len(),
        2 + 4,
        "0.3 s warm-up and 0.8 s measure in 0.2 s intervals"
    );
    let measured: u64 = progress
        .iter()
        .filter(|p| p["phase"] == "measure")
        .map(|p| p["requests"].as_u64().unwrap())
        .sum();
    let last_elapsed = progress.last().unwrap()["elapsed_s"].as_f64().unwrap();
    assert!((last_elapsed - 1.1).abs() < 1e-9, "{last_elapsed}");

    let summary = run.summary();
    assert!(summary["requests"].as_u64().unwrap() > 0);
    assert_eq!(
        summary["requests"].as_u64().unwrap(),
        measured,
        "summary = sum of measure intervals"
    );
    assert_eq!(summary["error_total"], 0, "{summary}");
    assert_eq!(summary["connect_failures"], 0);
    assert_eq!(summary["duration_s"], 0.8);
    let qps = summary["qps"].as_f64().unwrap();
    assert!((qps - measured as f64 / 0.8).abs() < 1.0, "qps {qps}");
    assert_eq!(summary["config"]["connections"], 8);
    assert_eq!(summary["config"]["request_bytes"], 100);
    assert_eq!(summary["version"], env!("CARGO_PKG_VERSION"));
    let percentiles = summary["percentiles"].as_array().unwrap();
    assert_eq!(percentiles.last().unwrap()["percentile"], 100.0);
    assert!(percentiles.iter().any(|p| p["percentile"] == 99.9));
}

#[test]
fn http_run_with_two_threads_and_no_warmup() {
    let port = port_arg(serve(listen(), http));
    let run = loadgen(&[
        "--port",
        &port,
        "--protocol",
        "http",
        "--connections",
        "6",
        "--threads",
        "2",
        "--warmup-s",
        "0",
        "--duration-s",
        "1",
        "--progress-interval-ms",
        "500",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    assert_eq!(run.phases(), ["ready", "measure"]);
    assert_eq!(run.of_type("progress").count(), 2);
    let summary = run.summary();
    assert!(summary["requests"].as_u64().unwrap() > 0);
    assert_eq!(summary["error_total"], 0, "{summary}");
    assert_eq!(summary["config"]["threads"], 2);
    assert_eq!(summary["config"]["protocol"], "http");
}

#[test]
fn large_echo_payloads_are_sent_and_checked_in_pieces() {
    let port = port_arg(serve(listen(), echo));
    let run = loadgen(&[
        "--port",
        &port,
        "--connections",
        "2",
        "--payload-bytes",
        "1048576",
        "--warmup-s",
        "0",
        "--duration-s",
        "0.5",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    let summary = run.summary();
    assert!(summary["requests"].as_u64().unwrap() > 0, "{summary}");
    assert_eq!(summary["error_total"], 0, "{summary}");
}

#[test]
fn connections_closed_by_the_server_count_as_eof_and_reconnect() {
    let port = port_arg(serve(listen(), flaky_echo));
    let run = loadgen(&[
        "--port",
        &port,
        "--connections",
        "4",
        "--payload-bytes",
        "64",
        "--warmup-s",
        "0",
        "--duration-s",
        "0.6",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    let summary = run.summary();
    let eof = summary["errors"]["eof"].as_u64().unwrap();
    let requests = summary["requests"].as_u64().unwrap();
    let reset = summary["errors"]["reset"].as_u64().unwrap();
    assert!(eof >= 2, "{summary}");
    // Reconnecting works: far more requests than one connection lifetime of 50 each.
    assert!(requests > 4 * 50, "{summary}");
    // A request already sent when the server closes makes its close a reset.
    assert_eq!(
        summary["error_total"].as_u64().unwrap(),
        eof + reset,
        "{summary}"
    );
}

#[test]
fn nothing_listening_is_not_ready() {
    let port = port_arg(closed_port());
    let started = Instant::now();
    let run = loadgen(&[
        "--port",
        &port,
        "--wait-ready-s",
        "0.3",
        "--duration-s",
        "1",
    ]);
    assert_eq!(run.status, 1);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(run.lines.len(), 1, "{:?}", run.lines);
    assert_eq!(run.lines[0]["type"], "error");
    assert_eq!(run.lines[0]["kind"], "not_ready");
}

#[test]
fn wrong_echo_is_verify_failed_with_what_came_back() {
    let port = port_arg(serve(listen(), wrong_echo));
    let run = loadgen(&[
        "--port",
        &port,
        "--payload-bytes",
        "16",
        "--duration-s",
        "1",
    ]);
    assert_eq!(run.status, 1);
    let error = run.lines.last().unwrap();
    assert_eq!(error["kind"], "verify_failed", "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("at byte 0") && message.contains("16 bytes"),
        "{message}"
    );
    assert!(run.of_type("progress").next().is_none());
}

#[test]
fn http_against_an_echo_server_is_verify_failed() {
    let port = port_arg(serve(listen(), echo));
    let run = loadgen(&["--port", &port, "--protocol", "http", "--duration-s", "1"]);
    assert_eq!(run.status, 1);
    let error = run.lines.last().unwrap();
    assert_eq!(error["kind"], "verify_failed");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("GET / HTTP/1.1"),
        "says what came back: {message}"
    );
}

#[test]
fn bad_arguments_are_a_usage_error() {
    let run = loadgen(&["--connections", "0"]);
    assert_eq!(run.status, 2);
    assert_eq!(run.lines.len(), 1);
    assert_eq!(run.lines[0]["kind"], "usage");
    assert!(
        run.lines[0]["message"]
            .as_str()
            .unwrap()
            .contains("--connections")
    );
    assert!(run.stderr.contains("--connections"));

    let run = loadgen(&["--connections", "2", "--threads", "4"]);
    assert_eq!(run.status, 2);
    assert!(
        run.lines[0]["message"]
            .as_str()
            .unwrap()
            .contains("--threads")
    );
}

#[test]
fn help_and_version_exit_zero() {
    let out = Command::new(env!("CARGO_BIN_EXE_loadgen"))
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--connections",
        "--payload-bytes",
        "--wait-ready-s",
        "--timeout-ms",
    ] {
        assert!(help.contains(flag), "{flag} missing from --help");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_loadgen"))
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains(env!("CARGO_PKG_VERSION")));
}
