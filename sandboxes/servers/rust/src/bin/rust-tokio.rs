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
use std::os::fd::AsRawFd;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use clap::{Parser, value_parser};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::{Notify, broadcast, mpsc};

use servers::config::{self, Common};
use servers::log::{self, RateLimit, die, log};
use servers::net;
use servers::protocol::{Conn, Protocol, feed};

const SERVER_ID: &str = "rust-tokio";
/// Most worker threads `--worker-threads` accepts.
const MAX_WORKER_THREADS: u16 = 64;
/// Out of file descriptors with none of ours open: try accept() again after this long.
const ACCEPT_RETRY: Duration = Duration::from_secs(1);
/// "Out of file descriptors" is said at most this often.
const PAUSE_LOG_INTERVAL: Duration = Duration::from_secs(10);
/// How long connection tasks get to close their sockets after SIGTERM.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(1000);

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

/// What every connection task needs to know.
#[derive(Clone, Copy, Debug)]
struct Settings {
    protocol: Protocol,
    buffer_bytes: usize,
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
        run(listener, settings, shutdown).await;
    });
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

/// What the accept loop and the connection tasks share: how many connections are open, and
/// a wake-up for an accept loop that is waiting for a file descriptor to come free.
#[derive(Default)]
struct Connections {
    open: AtomicUsize,
    closed: Notify,
}

/// Held by each connection task: counts its connection as open and, when dropped (however
/// the task ends), as closed again.
struct Counted(Arc<Connections>);

impl Counted {
    fn new(connections: &Arc<Connections>) -> Counted {
        connections.open.fetch_add(1, Ordering::Relaxed);
        Counted(Arc::clone(connections))
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::Relaxed);
        self.0.closed.notify_one(); // a descriptor is free again
    }
}

/// Serves connections until `shutdown` resolves, then stops accepting and closes them all.
/// The shape is mini-redis's: the listener and the shutdown signal come from the caller,
/// so a test can hand in its own. Every connection task gets a receiver of a broadcast
/// channel that is closed to tell it to stop, and a sender of an mpsc channel whose last
/// drop tells us that every task has finished.
async fn run(
    listener: TcpListener,
    settings: Settings,
    shutdown: impl Future<Output = &'static str>,
) {
    let connections = Arc::new(Connections::default());
    let (notify_shutdown, _) = broadcast::channel::<()>(1);
    let (all_done_tx, mut all_done_rx) = mpsc::channel::<()>(1);

    let signal_name = tokio::select! {
        never = accept_loop(&listener, settings, &connections, &notify_shutdown, &all_done_tx) => match never {},
        name = shutdown => name,
    };

    drop(listener); // stop accepting: new connections are refused from here on
    let open = connections.open.load(Ordering::Relaxed);
    drop(notify_shutdown); // every task's `shutdown.recv()` now returns: they close
    drop(all_done_tx);
    if tokio::time::timeout(SHUTDOWN_GRACE, all_done_rx.recv())
        .await
        .is_err()
    {
        log("some connections did not close in time");
    }
    log(format_args!(
        "{signal_name} received: closed {open} connection{}, exiting",
        if open == 1 { "" } else { "s" }
    ));
}

/// Accepts connections for ever and spawns a task for each; it only ends when `run` drops
/// it on shutdown.
///
/// Relies on: `accept().await` suspending this task until the kernel's queue of completed
/// connections is non-empty (epoll readiness on the listening socket). When file
/// descriptors run out (EMFILE), the pending connection stays queued in the kernel: we wait
/// until one of our connections closes rather than spin on an accept that cannot succeed
/// (and look again every ACCEPT_RETRY in case none of ours is open).
// ANCHOR: accept-loop
async fn accept_loop(
    listener: &TcpListener,
    settings: Settings,
    connections: &Arc<Connections>,
    notify_shutdown: &broadcast::Sender<()>,
    all_done: &mpsc::Sender<()>,
) -> std::convert::Infallible {
    let mut pause_log = RateLimit::new(PAUSE_LOG_INTERVAL);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _peer)) => stream,
            Err(e) => {
                let errno = e.raw_os_error().unwrap_or(0);
                if net::accept_error_is_transient(errno) {
                    continue; // that client gave up; try the next one
                }
                if !net::accept_error_is_exhaustion(errno) {
                    die(format_args!("accept() failed: {e}"));
                }
                let said = pause_log.ready();
                if said {
                    log(format_args!(
                        "accept() failed; pausing until a connection closes (said at most \
                         every {} s): {e}",
                        PAUSE_LOG_INTERVAL.as_secs()
                    ));
                }
                tokio::select! {
                    () = connections.closed.notified() => {}
                    () = tokio::time::sleep(ACCEPT_RETRY) => {}
                }
                if said {
                    log("accepting connections again");
                }
                continue;
            }
        };

        let counted = Counted::new(connections);
        let mut shutdown = notify_shutdown.subscribe();
        let all_done = all_done.clone();
        tokio::spawn(async move {
            tokio::select! {
                () = serve(stream, settings) => {}
                _ = shutdown.recv() => {} // SIGTERM: drop the connection, closing it
            }
            drop(counted);
            drop(all_done);
        });
    }
}
// ANCHOR_END: accept-loop

/// One connection, from accept to close: read what the client sent, let the protocol
/// answer, write the whole answer, and again, until the client is done.
///
/// Relies on: `read` returning what has arrived (perhaps part of a request, perhaps
/// several) and 0 once the client has shut down its sending side; `write_all` looping over
/// short writes. Every `.await` may suspend the task until epoll reports the socket ready,
/// and while the task waits to write, it does not read: a client that stops reading its
/// replies is stopped too (backpressure). After the last HTTP response the task shuts down
/// its sending side and keeps reading, discarding, until the client closes: closing with
/// unread input would send a reset that can destroy the response.
// ANCHOR: connection-task
async fn serve(mut stream: TcpStream, settings: Settings) {
    let fd = stream.as_raw_fd();
    let mut conn = Conn::new(settings.protocol);
    let mut buf = Vec::with_capacity(settings.buffer_bytes);

    while !conn.finished() {
        buf.clear();
        match stream.read_buf(&mut buf).await {
            Ok(0) => conn.read_eof = true, // the client shut down its side
            Ok(_) => {
                feed(&mut conn, &buf); // queue the reply
            }
            Err(e) => return log::connection_error("read", fd, &e),
        }

        if let Err(e) = stream.write_all(conn.output()).await {
            return log::connection_error("write", fd, &e);
        }
        conn.output_sent(conn.output_pending());

        if conn.should_shut_output() {
            if let Err(e) = stream.shutdown().await {
                return log::connection_error("shutdown", fd, &e);
            }
            conn.output_shut = true;
        }
    }
}
// ANCHOR_END: connection-task
