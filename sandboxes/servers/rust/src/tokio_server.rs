//! rust-tokio's server: one task per connection, on whatever tokio runtime calls [`run`].
//! The binary, `src/bin/rust-tokio.rs`, parses the flags, builds the multi-threaded runtime
//! and hands `run` the listening socket and a future that resolves on SIGTERM or SIGINT.
//!
//! The shape is mini-redis's: the listener and the shutdown signal come from the caller, so
//! the integration tests (`tests/tokio_server.rs`) run the server in their own process on
//! port 0 and stop it with a future of their own instead of a signal.
//!
//! - the accept loop ([`run`], `accept_loop`) spawns a task per connection and, out of file
//!   descriptors, waits for one of them to close;
//! - a connection task (`serve`) reads, lets the protocol answer, writes, and again;
//! - shutdown: stop accepting, tell every task to drop its connection, wait for them all for
//!   at most [`SHUTDOWN_GRACE`].

use std::future::Future;
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, broadcast, mpsc};

use crate::log::{self, RateLimit, die, log};
use crate::net;
use crate::protocol::{Conn, Protocol, feed};

/// Out of file descriptors with none of ours open: try accept() again after this long.
const ACCEPT_RETRY: Duration = Duration::from_secs(1);
/// "Out of file descriptors" is said at most this often.
const PAUSE_LOG_INTERVAL: Duration = Duration::from_secs(10);
/// How long connection tasks get to close their sockets after shutdown (SIGTERM). The
/// binary gives the runtime as long again to stop its threads.
pub const SHUTDOWN_GRACE: Duration = Duration::from_millis(1000);

/// What every connection task needs to know, from the command line.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// `--protocol`: what the server answers.
    pub protocol: Protocol,
    /// `--buffer-bytes`: the size of each connection's read buffer.
    pub buffer_bytes: usize,
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

/// Serves connections on `listener` until `shutdown` resolves, then stops accepting, closes
/// them all and returns: within [`SHUTDOWN_GRACE`] once `shutdown` has resolved. What
/// `shutdown` resolves to names the reason in the last log line (`SIGTERM received: ...`).
///
/// Must run inside a tokio runtime with I/O and timers enabled: each connection is a
/// `tokio::spawn`ed task, so a multi-threaded runtime spreads them over its workers.
///
/// The shape is mini-redis's: the listener and the shutdown signal come from the caller,
/// so a test can hand in its own. Every connection task gets a receiver of a broadcast
/// channel that is closed to tell it to stop, and a sender of an mpsc channel whose last
/// drop tells us that every task has finished.
pub async fn run(
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
