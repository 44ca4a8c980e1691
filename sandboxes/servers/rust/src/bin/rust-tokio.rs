//! rust-tokio: one task per connection on tokio's multi-threaded runtime.
//!
//! What it shows: async Rust. Each connection is served by straight-line code in its own
//! task — read, let the protocol answer, write, repeat — and the runtime multiplexes tens of
//! thousands of such tasks over a few worker threads. Underneath is an epoll loop much like
//! c-epoll's (tokio's I/O driver, through mio): when a socket would block, the task's future
//! returns `Pending`, its worker runs another task, and epoll wakes the task once the socket
//! is ready. A task costs a few hundred bytes plus its future (here the connection's state
//! and read buffer) where a thread costs a stack, and idle workers steal tasks from busy
//! ones, so every core the server is given gets used.
//!
//! The server itself, the accept loop and the connection tasks, is src/tokio_server.rs: a
//! library module, so that tests can run it in their own process. This binary parses the
//! flags, builds the runtime and starts the server with SIGTERM and SIGINT as its stop.
//!
//! Minimum kernel: any Linux Rust supports (3.2); tokio waits with epoll.
//!
//! Usage:     rust-tokio [--port 9000] [--protocol echo|http] [--worker-threads 0]
//!                       [--backlog 4096] [--buffer-bytes 16384]
//! Test with: rust-tokio --port 9000 &  and then  nc 127.0.0.1 9000   (type; lines come back)
//!            rust-tokio --protocol http &  and then  wrk -c 100 -d 5s http://127.0.0.1:9000/
//!
//! Simplifications: no idle timeouts (a silent client keeps its connection for ever); IPv4
//! only. A task writes everything it owes before it reads again, so a client that does not
//! read is not read from either: that is the backpressure, with no queue to bound. The
//! protocols live in src/protocol.rs, shared with rust-io-uring.

use std::future::Future;
use std::num::NonZero;
use std::process::ExitCode;

use clap::{Parser, value_parser};
use tokio::net::TcpListener;
use tokio::signal::unix::{SignalKind, signal};

use servers::config::{self, Common};
use servers::log::{die, log};
use servers::net;
use servers::tokio_server::{self, SHUTDOWN_GRACE, Settings};

const SERVER_ID: &str = "rust-tokio";
/// Most worker threads `--worker-threads` accepts.
const MAX_WORKER_THREADS: u16 = 64;

/// One task per connection on tokio's multi-threaded runtime.
#[derive(Parser, Debug)]
#[command(name = SERVER_ID, max_term_width = 100)]
struct Cli {
    #[command(flatten)]
    common: Common,

    /// Worker threads running the tasks, 0..=64; 0: one per CPU this process may use
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 0,
          value_parser = value_parser!(u16).range(0..=MAX_WORKER_THREADS as i64))]
    worker_threads: u16,
}

fn main() -> ExitCode {
    let cli: Cli = config::parse(SERVER_ID);
    let worker_threads = match cli.worker_threads {
        0 => usable_cpus(),
        n => n,
    };
    // SIGPIPE needs nothing from us: Rust's start-up code sets it to SIG_IGN before main, so
    // a write to a vanished client fails with EPIPE instead of killing the server.
    net::raise_fd_limit();

    // ANCHOR: runtime
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(worker_threads.into())
        .enable_all()
        .build()
        .unwrap_or_else(|e| die(format_args!("starting the tokio runtime failed: {e}")));
    // ANCHOR_END: runtime

    runtime.block_on(async {
        // The handlers come first: from the moment the port accepts, SIGTERM is a clean stop
        // (registered after, a SIGTERM just after start-up would kill the server outright).
        let shutdown = stop_signal();
        let listener = net::listen_on(&cli.common);
        if let Err(e) = listener.set_nonblocking(true) {
            die(format_args!(
                "fcntl(O_NONBLOCK) on the listening socket failed: {e}"
            ));
        }
        let listener = TcpListener::from_std(listener).unwrap_or_else(|e| {
            die(format_args!(
                "epoll_ctl(ADD) on the listening socket failed: {e}"
            ))
        });
        log(format_args!(
            "{worker_threads} worker thread{}{}",
            if worker_threads == 1 { "" } else { "s" },
            if cli.worker_threads == 0 {
                " (--worker-threads 0: one per usable CPU)"
            } else {
                ""
            }
        ));
        config::print_config(
            SERVER_ID,
            &cli.common,
            &[("worker_threads", cli.worker_threads.to_string())],
        );
        let settings = Settings {
            protocol: cli.common.protocol,
            buffer_bytes: cli.common.buffer_bytes as usize,
        };
        tokio_server::run(listener, settings, shutdown).await;
    });
    // A task still alive after the grace period is dropped here (its socket closed), and
    // the worker threads get as long again to stop.
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    ExitCode::SUCCESS
}

/// How many CPUs this process may run on (at most 64). Relies on: `available_parallelism`
/// honouring the CPU affinity mask and the cgroup CPU quota, so a container pinned to one
/// CPU gets one worker.
fn usable_cpus() -> u16 {
    let cpus = std::thread::available_parallelism().map_or(1, NonZero::get);
    cpus.clamp(1, MAX_WORKER_THREADS.into()) as u16
}

/// Resolves with the signal's name once SIGTERM or SIGINT arrives. Relies on tokio
/// installing the handlers when the streams are created, so a signal that arrives before
/// anyone awaits this future is not lost (and does not kill the process).
fn stop_signal() -> impl Future<Output = &'static str> {
    let mut terminate = signal(SignalKind::terminate())
        .unwrap_or_else(|e| die(format_args!("sigaction(SIGTERM) failed: {e}")));
    let mut interrupt = signal(SignalKind::interrupt())
        .unwrap_or_else(|e| die(format_args!("sigaction(SIGINT) failed: {e}")));
    async move {
        tokio::select! {
            _ = terminate.recv() => "SIGTERM",
            _ = interrupt.recv() => "SIGINT",
        }
    }
}
