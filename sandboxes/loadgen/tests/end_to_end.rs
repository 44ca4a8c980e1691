//! End-to-end tests: tiny in-test servers (a thread per connection) on free ports in
//! 15000–19999, the real `loadgen` binary run against them for about a second, and its JSON
//! lines checked — each one against `schema/output.schema.json`. Every run of the load is
//! tested once per engine (`epoll::…` and `io_uring::…`, see `with_each_engine!`), and the
//! fallback from a refused io_uring under a seccomp filter, as a container's profile refuses
//! it.

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::atomic::{AtomicU16, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};

/// The course's response: its body is what `loadgen --check` expects of every server.
const HTTP_RESPONSE: &[u8] =
    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 20\r\n\r\nHello from C10K Lab\n";

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

/// Serves every connection of `listener` on its own thread with `handle`, and records what
/// it saw of each connection in the returned [`Seen`].
fn serve_counting(listener: TcpListener, handle: fn(Counting)) -> (u16, Arc<Seen>) {
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Seen::default());
    let log = seen.clone();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = stream.set_nodelay(true);
            log.accepted.lock().unwrap().push(Instant::now());
            let open = log.open.fetch_add(1, Ordering::SeqCst) + 1;
            log.peak.fetch_max(open, Ordering::SeqCst);
            let counting = Counting {
                stream,
                bytes: 0,
                seen: log.clone(),
            };
            thread::spawn(move || handle(counting));
        }
    });
    (port, seen)
}

/// What a counting server saw: when it accepted each connection, how many were open at
/// most, and, for each connection that ended, how many bytes the client had sent on it.
#[derive(Default)]
struct Seen {
    accepted: Mutex<Vec<Instant>>,
    open: AtomicUsize,
    peak: AtomicUsize,
    ended: Mutex<Vec<u64>>,
}

impl Seen {
    /// The bytes received on each connection, once every accepted connection has ended.
    fn all_ended(&self) -> Vec<u64> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let ended = self.ended.lock().unwrap().clone();
            if ended.len() >= self.accepted.lock().unwrap().len() || Instant::now() > deadline {
                return ended;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A server's side of a connection, counting the bytes it reads; reports them on drop.
struct Counting {
    stream: TcpStream,
    bytes: u64,
    seen: Arc<Seen>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.stream.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

impl Write for Counting {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

impl Drop for Counting {
    fn drop(&mut self) {
        self.seen.open.fetch_sub(1, Ordering::SeqCst);
        self.seen.ended.lock().unwrap().push(self.bytes);
    }
}

/// Writes back every byte read.
fn echo(mut s: impl Read + Write) {
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

/// Echoes each 64-byte request after 20 ms: at most 50 replies a second per connection.
fn slow_echo(mut s: TcpStream) {
    let mut buf = [0u8; 64];
    while s.read_exact(&mut buf).is_ok() {
        thread::sleep(Duration::from_millis(20));
        if s.write_all(&buf).is_err() {
            return;
        }
    }
}

/// Echoes, but closes a connection on which nothing arrived within 300 ms.
fn impatient_echo(s: TcpStream) {
    let mut first = [0u8; 1];
    let _ = s.set_read_timeout(Some(Duration::from_millis(300)));
    match (&s).read(&mut first) {
        Ok(1) => {}
        _ => return, // silent (or closed): hang up
    }
    let _ = s.set_read_timeout(None);
    if (&s).write_all(&first).is_ok() {
        echo(s);
    }
}

/// Answers each request head (ending in CRLFCRLF) with one fixed 200 response.
fn http(mut s: impl Read + Write) {
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
    /// The engine asked for.
    engine: &'static str,
}

impl Run {
    fn of_type<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
        self.lines.iter().filter(move |l| l["type"] == kind)
    }

    /// The summary line, which must be the last, of a run on the engine asked for (a run
    /// that fell back to epoll here would not test the io_uring engine).
    fn summary(&self) -> &Value {
        let last = self.lines.last().expect("some output");
        assert_eq!(
            last["type"], "summary",
            "last line: {last}\nstderr: {}",
            self.stderr
        );
        assert_eq!(last["config"]["engine"], self.engine);
        assert_eq!(last["engine"], self.engine, "{last}");
        assert!(last["engine_note"].is_null(), "{last}");
        last
    }

    fn phases(&self) -> Vec<&str> {
        self.of_type("phase")
            .map(|l| l["phase"].as_str().unwrap())
            .collect()
    }
}

/// The engine a test runs the binary with (`--engine`).
#[derive(Clone, Copy)]
struct Engine(&'static str);

impl Engine {
    /// Runs the real binary with `args` on this engine; every stdout line must be JSON valid
    /// against the schema.
    fn loadgen(self, args: &[&str]) -> Run {
        self.run(Command::new(env!("CARGO_BIN_EXE_loadgen")), args)
    }

    /// Runs `command` (the binary, perhaps prepared to run restricted) as [`Self::loadgen`].
    fn run(self, mut command: Command, args: &[&str]) -> Run {
        let output = command
            .args(["--engine", self.0])
            .args(args)
            .output()
            .expect("run loadgen");
        parse_run(self, output)
    }
}

/// The outcome of a run: its exit status, its stdout lines (each checked against the
/// schema) and its stderr.
fn parse_run(engine: Engine, output: std::process::Output) -> Run {
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
        engine: engine.0,
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
    // A measure phase in which nothing completed: zeros and an empty distribution, in
    // closed and in open loop.
    for args in [
        &[][..],
        &["--rate", "1000", "--sample-procs", "--idle", "3"][..],
    ] {
        let argv = ["loadgen", "--warmup-s", "0"]
            .into_iter()
            .chain(args.iter().copied());
        let config = loadgen::cli::Args::try_parse_from(argv)
            .unwrap()
            .validate()
            .unwrap();
        let echo = ConfigEcho::new(&config, "127.0.0.1:9000".into(), 64);
        let totals = loadgen::Totals {
            measured: loadgen::stats::IntervalStats::new(config.rate.is_some()),
            connect_failures: 3,
            ..loadgen::Totals::default()
        };
        let mut summary = loadgen::build_summary(&totals, &config, echo);
        assert!(summary.percentiles.is_empty());
        check(&Line::Summary(&summary));
        // Either engine, and a fallback's note; not anything else.
        summary.engine = loadgen::cli::Engine::IoUring;
        check(&Line::Summary(&summary));
        summary.engine = loadgen::cli::Engine::Epoll;
        summary.config.engine = loadgen::cli::Engine::IoUring;
        summary.engine_note =
            Some("io_uring refused (ENOSYS): io_uring_setup failed; used epoll".into());
        check(&Line::Summary(&summary));
        let mut value = serde_json::to_value(Line::Summary(&summary)).unwrap();
        for (field, bad) in [
            ("engine", json!("uring")),
            ("engine_note", json!("io_uring was refused")),
            ("engine_note", json!(3)),
        ] {
            let good = std::mem::replace(&mut value[field], bad);
            assert!(
                !validator.is_valid(&value),
                "accepted {field} {}",
                value[field]
            );
            value[field] = good;
        }
        value.as_object_mut().unwrap().remove("engine");
        assert!(!validator.is_valid(&value), "engine is required");
        let mut progress = loadgen::progress_line(
            loadgen::output::Phase::Warmup,
            Duration::ZERO,
            Duration::from_millis(10),
            &totals.measured,
        );
        check(&Line::Progress(&progress));
        progress.procs = Some(None);
        check(&Line::Progress(&progress));
        progress.procs = Some(Some(loadgen::procs::ProcSample::default()));
        check(&Line::Progress(&progress));
    }
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
    // Check lines: passed, failed with quotes, failed with none, not ready.
    use loadgen::output::{CheckFailure, CheckReport};
    let failure = |check, expected: Option<&str>, got: Option<&str>| CheckFailure {
        check,
        message: "x".into(),
        expected: expected.map(String::from),
        got: got.map(String::from),
    };
    for (passed, failed) in [
        (loadgen::check::names(loadgen::cli::Protocol::Http), None),
        (
            vec!["echo-sizes"],
            Some(failure("echo-many-connections", Some("\\x00"), Some(""))),
        ),
        (vec![], Some(failure("http-one-request", None, None))),
        (vec![], Some(failure("ready", None, None))),
    ] {
        check(&Line::Check(&CheckReport {
            ok: failed.is_none(),
            protocol: loadgen::cli::Protocol::Echo,
            passed,
            failed,
        }));
    }
    // And it rejects what is not output.
    for bad in [
        r#"{"type":"check","ok":true,"protocol":"echo","passed":[],"failed":{"check":"echo-sizes","message":"x","expected":null,"got":null}}"#,
        r#"{"type":"check","ok":false,"protocol":"echo","passed":[],"failed":null}"#,
        r#"{"type":"check","ok":true,"protocol":"echo","passed":["echo-everything"],"failed":null}"#,
        r#"{"type":"check","ok":false,"protocol":"echo","passed":[],"failed":{"check":"echo-sizes","message":"x"}}"#,
        r#"{"type":"phase","phase":"cooldown"}"#,
        r#"{"type":"error","kind":"not_ready"}"#,
        r#"{"type":"progress","phase":"measure"}"#,
        r#"{"type":"progress","phase":"measure","elapsed_s":1,"interval_s":1,"requests":0,"qps":0,"errors":0,"latency_us":{"p50":0,"p90":0,"p99":0,"p999":0,"max":0}}"#,
        r#"{"type":"other"}"#,
    ] {
        let value: Value = serde_json::from_str(bad).unwrap();
        assert!(!validator.is_valid(&value), "accepted {bad}");
    }
}

fn echo_run_reports_phases_progress_and_summary(engine: Engine) {
    let port = port_arg(serve(listen(), echo));
    let run = engine.loadgen(&[
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
    for p in &progress {
        assert_eq!(p["idle_dropped"], 0, "{p}");
        for absent in ["latency_actual_us", "send_lag_us", "procs"] {
            assert!(p.get(absent).is_none(), "closed loop has no {absent}: {p}");
        }
    }
    let all: u64 = progress
        .iter()
        .map(|p| p["requests"].as_u64().unwrap())
        .sum();
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
    assert_eq!(summary["mode"], "closed");
    assert_eq!(summary["connection_mode"], "keep_alive");
    assert_eq!(summary["requests_total"].as_u64().unwrap(), all);
    assert!(all > measured, "warm-up requests count in requests_total");
    assert!(summary["open_loop"].is_null());
    assert!(summary["procs"].is_null());
    assert_eq!(
        summary["idle"],
        serde_json::json!({"requested": 0, "open_at_start": 0, "dropped": 0, "dropped_connections": 0})
    );
    assert_eq!(summary["config"]["rate"], 0.0);
    assert_eq!(summary["config"]["idle"], 0);
    assert_eq!(summary["config"]["new_connection_per_request"], false);
    assert_eq!(summary["config"]["ramp_s"], 0.0);
    assert_eq!(summary["config"]["sample_procs"], false);
    assert_eq!(summary["version"], env!("CARGO_PKG_VERSION"));
    let percentiles = summary["percentiles"].as_array().unwrap();
    assert_eq!(percentiles.last().unwrap()["percentile"], 100.0);
    assert!(percentiles.iter().any(|p| p["percentile"] == 99.9));
}

fn http_run_with_two_threads_and_no_warmup(engine: Engine) {
    let port = port_arg(serve(listen(), http));
    let run = engine.loadgen(&[
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

fn large_echo_payloads_are_sent_and_checked_in_pieces(engine: Engine) {
    let port = port_arg(serve(listen(), echo));
    let run = engine.loadgen(&[
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

fn connections_closed_by_the_server_count_as_eof_and_reconnect(engine: Engine) {
    let port = port_arg(serve(listen(), flaky_echo));
    let run = engine.loadgen(&[
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

fn nothing_listening_is_not_ready(engine: Engine) {
    let port = port_arg(closed_port());
    let started = Instant::now();
    let run = engine.loadgen(&[
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

fn wrong_echo_is_verify_failed_with_what_came_back(engine: Engine) {
    let port = port_arg(serve(listen(), wrong_echo));
    let run = engine.loadgen(&[
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
    // A line of each in hex and text from the first wrong byte, not a dump of the payload.
    assert!(
        message.starts_with("echo differs from the 16-byte request at byte 0: expected @0: "),
        "{message}"
    );
    assert!(message.contains(", got @0: "), "{message}");
    assert!(message.len() < 300, "{message}");
    assert!(run.of_type("progress").next().is_none());
}

fn http_against_an_echo_server_is_verify_failed(engine: Engine) {
    let port = port_arg(serve(listen(), echo));
    let run = engine.loadgen(&["--port", &port, "--protocol", "http", "--duration-s", "1"]);
    assert_eq!(run.status, 1);
    let error = run.lines.last().unwrap();
    assert_eq!(error["kind"], "verify_failed");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("GET / HTTP/1.1"),
        "says what came back: {message}"
    );
}

fn bad_arguments_are_a_usage_error(engine: Engine) {
    let run = engine.loadgen(&["--connections", "0"]);
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

    let run = engine.loadgen(&["--connections", "2", "--threads", "4"]);
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
        "--rate",
        "--idle",
        "--new-connection-per-request",
        "--ramp-s",
        "[alias: --ramp]",
        "--sample-procs",
        "--engine",
        "io_uring",
        "--check",
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

/// Runs `loadgen --check` with `args`: its one line (checked against the schema) and status.
fn check(args: &[&str]) -> (Value, i32) {
    let run = Engine("epoll").loadgen(&[&["--check"], args].concat());
    assert_eq!(
        run.lines.len(),
        1,
        "{:?}\nstderr: {}",
        run.lines,
        run.stderr
    );
    let line = run.lines[0].clone();
    assert_eq!(line["type"], "check", "{line}");
    (line, run.status)
}

#[test]
fn check_passes_a_right_echo_server_and_ignores_the_load_flags() {
    let port = port_arg(serve(listen(), echo));
    let started = Instant::now();
    let (line, status) = check(&["--port", &port, "--duration-s", "3600", "--rate", "5"]);
    assert_eq!(status, 0, "{line}");
    assert_eq!(
        line,
        json!({"type": "check", "ok": true, "protocol": "echo",
               "passed": ["echo-sizes", "echo-idle-neighbour", "echo-many-connections",
                          "echo-half-close", "echo-slow-reader", "echo-client-reset"],
               "failed": null})
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn check_names_the_first_failing_http_check() {
    // The test server answers every request but never closes, not even after
    // "Connection: close".
    let port = port_arg(serve(listen(), http));
    let (line, status) = check(&["--port", &port, "--protocol", "http", "--timeout-ms", "500"]);
    assert_eq!(status, 1);
    assert_eq!(line["ok"], false);
    assert_eq!(
        line["passed"],
        json!([
            "http-one-request",
            "http-keep-alive",
            "http-idle-neighbour",
            "http-pipelined",
            "http-many-connections"
        ])
    );
    assert_eq!(line["failed"]["check"], "http-connection-close");
    let message = line["failed"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("no end-of-stream within 500 ms"),
        "{message}"
    );
}

#[test]
fn check_quotes_a_wrong_echo() {
    let port = port_arg(serve(listen(), wrong_echo));
    let (line, status) = check(&["--port", &port]);
    assert_eq!(status, 1);
    let failed = &line["failed"];
    assert_eq!(failed["check"], "echo-sizes");
    assert_eq!(failed["message"], "payload 1 (1 byte): byte 0 differs");
    assert_ne!(failed["expected"], failed["got"]);
}

#[test]
fn check_of_a_server_that_is_not_there_fails_ready_and_bad_flags_are_usage() {
    let port = port_arg(closed_port());
    let (line, status) = check(&["--port", &port, "--wait-ready-s", "0.2"]);
    assert_eq!(status, 1);
    assert_eq!(line["failed"]["check"], "ready");
    assert_eq!(line["passed"], json!([]));
    let run = Engine("epoll").loadgen(&["--check", "--connections", "0"]);
    assert_eq!(run.status, 2);
    assert_eq!(run.lines[0]["kind"], "usage");
}

/// The digest field `key` of `v` (a latency digest or summary) as a number.
fn us(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("no {key} in {v}"))
}

/// Asserts that an open-loop run kept to its schedule: about `target_qps` × `duration_s`
/// requests, with the slack a busy host explains. A request counts in the window its reply
/// arrives in, so a stall (this machine runs other suites beside this one) moves across the
/// window's edges at most the requests due during the longest corrected latency seen. A pacer
/// at the wrong rate, or not pacing at all, falls outside it.
fn assert_kept_to_the_schedule(summary: &Value) {
    let open = &summary["open_loop"];
    let target = open["target_qps"].as_f64().unwrap();
    let due = target * summary["duration_s"].as_f64().unwrap();
    let connections = summary["config"]["connections"].as_f64().unwrap();
    let longest_s = us(&summary["latency_us"], "max") as f64 / 1e6;
    let slack = (0.1 * due).max(target * longest_s + connections);
    let requests = summary["requests"].as_f64().unwrap();
    assert!(
        (requests - due).abs() <= slack,
        "{requests} requests, {due} due, slack {slack}: {summary}"
    );
}

fn open_loop_at_a_modest_rate_meets_its_target(engine: Engine) {
    let port = port_arg(serve(listen(), echo));
    let run = engine.loadgen(&[
        "--port",
        &port,
        "--connections",
        "4",
        "--rate",
        "400",
        "--warmup-s",
        "0.2",
        "--duration-s",
        "2",
        "--progress-interval-ms",
        "250",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    let summary = run.summary();
    assert_eq!(summary["mode"], "open");
    assert_eq!(summary["config"]["rate"], 400.0);
    let open = &summary["open_loop"];
    assert_eq!(open["target_qps"], 400.0);
    assert_kept_to_the_schedule(summary);
    assert_eq!(open["achieved_qps"], summary["qps"]);
    assert_eq!(summary["error_total"], 0, "{summary}");
    // Corrected latency is never below the actual one, request by request, so neither is
    // any percentile of it.
    let (corrected, actual) = (&summary["latency_us"], &open["latency_actual_us"]);
    for key in ["p50", "p90", "p99", "max"] {
        assert!(us(corrected, key) >= us(actual, key), "{key}: {summary}");
    }
    assert!(!open["percentiles_actual"].as_array().unwrap().is_empty());
    assert!(us(&open["send_lag_us"], "max") <= us(corrected, "max"));
    for p in run.of_type("progress") {
        for key in ["latency_actual_us", "send_lag_us"] {
            assert!(p[key].is_object(), "{key} missing: {p}");
        }
    }
    assert!(!run.stderr.contains("could not keep up"), "{}", run.stderr);
}

fn a_slow_server_falls_short_and_its_stalls_show_in_corrected_latency(engine: Engine) {
    // Two connections to a server that takes 20 ms per reply manage about 100 req/s; 400 are
    // asked for, so requests queue up behind late replies.
    let port = port_arg(serve(listen(), slow_echo));
    let run = engine.loadgen(&[
        "--port",
        &port,
        "--connections",
        "2",
        "--payload-bytes",
        "64",
        "--rate",
        "400",
        "--warmup-s",
        "0",
        "--duration-s",
        "1",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    let summary = run.summary();
    let open = &summary["open_loop"];
    assert_eq!(open["short_of_target"], true, "{summary}");
    assert!(open["achieved_fraction"].as_f64().unwrap() < 0.95);
    assert!(
        us(&summary["latency_us"], "p99") > us(&open["latency_actual_us"], "p99"),
        "{summary}"
    );
    assert!(us(&open["send_lag_us"], "p99") > 0, "{summary}");
    assert!(
        run.stderr.contains("of 400 req/s") && run.stderr.contains("could not keep up"),
        "{}",
        run.stderr
    );
}

fn idle_connections_stay_open_and_silent(engine: Engine) {
    let (port, seen) = serve_counting(listen(), echo);
    let run = engine.loadgen(&[
        "--port",
        &port_arg(port),
        "--connections",
        "2",
        "--idle",
        "5",
        "--threads",
        "2",
        "--warmup-s",
        "0",
        "--duration-s",
        "0.5",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    let summary = run.summary();
    assert_eq!(
        summary["idle"],
        serde_json::json!({"requested": 5, "open_at_start": 5, "dropped": 0, "dropped_connections": 0}),
        "{summary}"
    );
    assert_eq!(summary["error_total"], 0, "{summary}");
    assert!(summary["requests"].as_u64().unwrap() > 0);
    // The readiness probe, 2 active and 5 idle connections, all open together at some point.
    assert!(seen.peak.load(Ordering::SeqCst) >= 7);
    let ended = seen.all_ended();
    assert_eq!(ended.len(), 8, "{ended:?}");
    assert_eq!(ended.iter().filter(|&&b| b == 0).count(), 5, "{ended:?}");
}

fn idle_connections_the_server_closes_are_dropped_and_reopened(engine: Engine) {
    let port = port_arg(serve(listen(), impatient_echo));
    let run = engine.loadgen(&[
        "--port",
        &port,
        "--connections",
        "1",
        "--idle",
        "3",
        "--warmup-s",
        "0",
        "--duration-s",
        "1.2",
        "--progress-interval-ms",
        "300",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    let summary = run.summary();
    let dropped = summary["idle"]["dropped"].as_u64().unwrap();
    // Each idle connection is closed after 300 ms of silence, again after reconnecting: all
    // three were dropped, and the drops beyond three are their reconnects dropped again.
    assert!(dropped >= 3, "{summary}");
    assert_eq!(summary["idle"]["dropped_connections"], 3, "{summary}");
    let per_interval: u64 = run
        .of_type("progress")
        .map(|p| p["idle_dropped"].as_u64().unwrap())
        .sum();
    assert_eq!(per_interval, dropped);
    assert_eq!(summary["error_total"], 0, "drops are not errors: {summary}");
}

fn a_new_connection_per_request_makes_one_connection_per_request(engine: Engine) {
    let (port, seen) = serve_counting(listen(), echo);
    let run = engine.loadgen(&[
        "--port",
        &port_arg(port),
        "--connections",
        "3",
        "--payload-bytes",
        "64",
        "--new-connection-per-request",
        "--warmup-s",
        "0.2",
        "--duration-s",
        "0.6",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    let summary = run.summary();
    assert_eq!(summary["connection_mode"], "per_request");
    assert_eq!(summary["config"]["new_connection_per_request"], true);
    assert_eq!(summary["error_total"], 0, "{summary}");
    let requests = summary["requests_total"].as_u64().unwrap();
    assert!(requests > 10, "{summary}");
    // One connection per completed request, plus the readiness probe, plus at most one in
    // flight per active connection when the run ended.
    let accepted = seen.accepted.lock().unwrap().len() as u64;
    assert!(
        (requests + 1..=requests + 1 + 3).contains(&accepted),
        "{accepted} connections for {requests} requests"
    );
    let ended = seen.all_ended();
    assert!(
        ended.iter().all(|&b| b <= 64),
        "one request each: {ended:?}"
    );
}

fn a_new_connection_per_request_in_open_loop_over_http(engine: Engine) {
    let (port, seen) = serve_counting(listen(), http);
    let run = engine.loadgen(&[
        "--port",
        &port_arg(port),
        "--protocol",
        "http",
        "--connections",
        "2",
        "--rate",
        "200",
        "--new-connection-per-request",
        "--warmup-s",
        "0",
        "--duration-s",
        "2",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    let summary = run.summary();
    assert_eq!(summary["mode"], "open");
    assert_eq!(summary["connection_mode"], "per_request");
    assert_eq!(summary["error_total"], 0, "{summary}");
    assert_kept_to_the_schedule(summary);
    let requests = summary["requests_total"].as_u64().unwrap();
    let accepted = seen.accepted.lock().unwrap().len() as u64;
    assert!(
        (requests + 1..=requests + 1 + 2).contains(&accepted),
        "{accepted} connections for {requests} requests"
    );
}

fn a_ramp_spreads_the_opening_of_connections(engine: Engine) {
    let (port, seen) = serve_counting(listen(), echo);
    let started = Instant::now();
    let run = engine.loadgen(&[
        "--port",
        &port_arg(port),
        "--connections",
        "4",
        "--idle",
        "2",
        "--ramp",
        "0.6",
        "--warmup-s",
        "0",
        "--duration-s",
        "0.3",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    // The last of six connections opens 5/6 into the ramp, then 0.3 s of load.
    assert!(started.elapsed() >= Duration::from_millis(800));
    let summary = run.summary();
    assert_eq!(summary["config"]["ramp_s"], 0.6);
    assert_eq!(summary["idle"]["open_at_start"], 2);
    // Six connections after the probe, opened 0.1 s apart.
    let accepted = seen.accepted.lock().unwrap().clone();
    assert_eq!(accepted.len(), 7, "{accepted:?}");
    let spread = accepted[6] - accepted[1];
    assert!(spread >= Duration::from_millis(400), "{spread:?}");
}

fn sample_procs_sees_other_processes(engine: Engine) {
    let mut child = Command::new("sleep")
        .arg("30")
        .spawn()
        .expect("spawn sleep");
    let port = port_arg(serve(listen(), echo));
    let run = engine.loadgen(&[
        "--port",
        &port,
        "--connections",
        "2",
        "--sample-procs",
        "--warmup-s",
        "0.2",
        "--duration-s",
        "0.5",
        "--progress-interval-ms",
        "250",
    ]);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    for p in run.of_type("progress") {
        let procs = &p["procs"];
        assert!(procs["processes"].as_u64().unwrap() >= 1, "{p}");
        assert!(procs["threads"].as_u64().unwrap() >= 1, "{p}");
        assert!(procs["rss_bytes"].as_u64().unwrap() > 0, "{p}");
    }
    let summary = run.summary();
    let procs = &summary["procs"];
    assert_eq!(procs["samples"], 2, "{summary}");
    assert!(procs["processes_peak"].as_u64().unwrap() >= 1);
    assert!(procs["rss_peak_bytes"].as_u64().unwrap() > 0);
    assert!(procs["rss_mean_bytes"].as_u64().unwrap() > 0);
    assert!(procs["voluntary_ctxt_switches_per_s"].as_f64().unwrap() >= 0.0);
    assert_eq!(summary["config"]["sample_procs"], true);
}

/// Serves one connection at a time, as an iterative server does: the others wait in the
/// listen backlog until the one being served closes.
fn serve_one_at_a_time(listener: TcpListener) -> u16 {
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let _ = stream.set_nodelay(true);
            echo(stream);
        }
    });
    port
}

fn connections_a_server_never_serves_are_reported_starved_even_before_any_timeout(engine: Engine) {
    // Three connections to a one-at-a-time server: the first is served, the other two wait
    // through the whole run, far shorter than the 5 s request timeout.
    let port = port_arg(serve_one_at_a_time(listen()));
    let run = engine.loadgen(&[
        "--port",
        &port,
        "--connections",
        "3",
        "--warmup-s",
        "0.3",
        "--duration-s",
        "0.5",
    ]);
    assert_eq!(run.status, 0, "stderr: {}", run.stderr);
    let summary = run.summary();
    assert_eq!(summary["starved"], 2, "{summary}");
    assert_eq!(summary["errors"]["timeout"], 0, "{summary}");
    assert!(summary["requests"].as_u64().unwrap() > 0, "{summary}");

    // A server that serves everyone starves nobody.
    let port = port_arg(serve(listen(), echo));
    let run = engine.loadgen(&["--port", &port, "--connections", "3", "--duration-s", "0.5"]);
    assert_eq!(run.summary()["starved"], 0);
}

/// Syscall filter instructions (classic BPF, as seccomp takes them).
fn bpf(code: u32, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    }
}

/// The binary, made to run under a seccomp filter that fails `io_uring_setup` with `errno`,
/// as Docker's default profile does (EPERM) or a sandbox without io_uring (ENOSYS).
fn without_io_uring(errno: i32) -> Command {
    use std::os::unix::process::CommandExt;
    let filter = [
        // Load the syscall number (offset 0 of struct seccomp_data).
        bpf(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, 0),
        bpf(
            libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K,
            libc::SYS_io_uring_setup as u32,
            0,
            1,
        ),
        bpf(
            libc::BPF_RET | libc::BPF_K,
            libc::SECCOMP_RET_ERRNO | errno as u32,
            0,
            0,
        ),
        bpf(libc::BPF_RET | libc::BPF_K, libc::SECCOMP_RET_ALLOW, 0, 0),
    ];
    let mut command = Command::new(env!("CARGO_BIN_EXE_loadgen"));
    // SAFETY: between fork and exec only prctl(2) is called, which is async-signal-safe;
    // `filter` is copied into the child with the rest of the parent's memory.
    unsafe {
        command.pre_exec(move || {
            let program = libc::sock_fprog {
                len: filter.len() as u16,
                filter: filter.as_ptr().cast_mut(),
            };
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                || libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &program) != 0
            {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        })
    };
    command
}

#[test]
fn a_refused_io_uring_falls_back_to_epoll_and_says_why() {
    for (errno, name) in [(libc::EPERM, "EPERM"), (libc::ENOSYS, "ENOSYS")] {
        let port = port_arg(serve(listen(), echo));
        let args = [
            "--port",
            &port,
            "--connections",
            "4",
            "--threads",
            "2",
            "--duration-s",
            "0.3",
        ];
        let run = Engine("io_uring").run(without_io_uring(errno), &args);
        assert_eq!(run.status, 0, "stderr: {}", run.stderr);
        let summary = run.lines.last().unwrap();
        assert_eq!(summary["type"], "summary", "{summary}");
        assert_eq!(summary["engine"], "epoll", "{summary}");
        assert_eq!(summary["config"]["engine"], "io_uring");
        let note = summary["engine_note"].as_str().unwrap();
        let expected = format!("io_uring refused ({name}): io_uring_setup failed: ");
        assert!(note.starts_with(&expected), "{note}");
        assert!(note.ends_with("; used epoll"), "{note}");
        assert!(
            summary["requests"].as_u64().unwrap() > 0,
            "epoll did the work: {summary}"
        );
        let said: Vec<&str> = run.stderr.lines().filter(|l| l.contains(note)).collect();
        assert_eq!(said.len(), 1, "the note once on stderr: {}", run.stderr);
    }
    // Asked for epoll, the same filter changes nothing and nothing is noted.
    let port = port_arg(serve(listen(), echo));
    let run = Engine("epoll").run(
        without_io_uring(libc::EPERM),
        &["--port", &port, "--duration-s", "0.3"],
    );
    run.summary();
    assert!(!run.stderr.contains("io_uring"), "{}", run.stderr);
}

/// Makes each listed test (a function taking the [`Engine`]) two tests: `epoll::<name>` and
/// `io_uring::<name>`.
macro_rules! with_each_engine {
    ($($test:ident),* $(,)?) => {
        mod epoll {
            $( #[test] fn $test() { super::$test(super::Engine("epoll")) } )*
        }
        mod io_uring {
            $( #[test] fn $test() { super::$test(super::Engine("io_uring")) } )*
        }
    };
}

with_each_engine!(
    echo_run_reports_phases_progress_and_summary,
    http_run_with_two_threads_and_no_warmup,
    large_echo_payloads_are_sent_and_checked_in_pieces,
    connections_closed_by_the_server_count_as_eof_and_reconnect,
    nothing_listening_is_not_ready,
    wrong_echo_is_verify_failed_with_what_came_back,
    http_against_an_echo_server_is_verify_failed,
    bad_arguments_are_a_usage_error,
    open_loop_at_a_modest_rate_meets_its_target,
    a_slow_server_falls_short_and_its_stalls_show_in_corrected_latency,
    idle_connections_stay_open_and_silent,
    idle_connections_the_server_closes_are_dropped_and_reopened,
    a_new_connection_per_request_makes_one_connection_per_request,
    a_new_connection_per_request_in_open_loop_over_http,
    a_ramp_spreads_the_opening_of_connections,
    sample_procs_sees_other_processes,
    connections_a_server_never_serves_are_reported_starved_even_before_any_timeout,
);
