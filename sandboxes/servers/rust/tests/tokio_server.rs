//! rust-tokio's server run in-process, as mini-redis tests its server: each test binds port 0,
//! hands `tokio_server::run` the listener and a shutdown future of its own (a oneshot
//! channel), and speaks to it in raw bytes. Where tests/servers.rs starts the binaries and
//! stops them with SIGTERM, these need no free port, no process and no signal, so they can
//! stop the server at an exact moment and time how long it takes.

use std::io::ErrorKind;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use servers::config::DEFAULT_BUFFER_BYTES;
use servers::protocol::{HTTP_200_CLOSE, HTTP_200_KEEP_ALIVE, Protocol};
use servers::tokio_server::{self, SHUTDOWN_GRACE, Settings};

/// A deadline for anything a healthy server does at once: a broken one fails the test
/// instead of hanging it.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

/// A server running in this process until `stop` is called.
struct Running {
    addr: SocketAddr,
    stop: oneshot::Sender<()>,
    server: JoinHandle<()>,
}

impl Running {
    async fn start(protocol: Protocol, buffer_bytes: usize) -> Running {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let settings = Settings {
            protocol,
            buffer_bytes,
        };
        // A dropped sender (a test that panicked) stops the server too.
        let shutdown = async move {
            let _sent_or_dropped = stopped.await;
            "test"
        };
        let server = tokio::spawn(tokio_server::run(listener, settings, shutdown));
        Running { addr, stop, server }
    }

    async fn connect(&self) -> TcpStream {
        let stream = within("connect", TcpStream::connect(self.addr)).await;
        let stream = stream.expect("connect");
        stream.set_nodelay(true).unwrap();
        stream
    }

    /// Resolves the shutdown future and waits for `run` to return; returns how long it took.
    async fn stop(self) -> Duration {
        let started = Instant::now();
        self.stop.send(()).expect("the server is still waiting");
        within("run() to return", self.server).await.unwrap();
        started.elapsed()
    }
}

/// `future`'s output, or a panic naming `what` after IO_TIMEOUT.
async fn within<T>(what: &str, future: impl Future<Output = T>) -> T {
    tokio::time::timeout(IO_TIMEOUT, future)
        .await
        .unwrap_or_else(|_| panic!("{what}: nothing after {IO_TIMEOUT:?}"))
}

async fn read_to_eof(stream: &mut TcpStream) -> Vec<u8> {
    let mut data = Vec::new();
    within("EOF", stream.read_to_end(&mut data))
        .await
        .expect("read until the server closes");
    data
}

/// Sends `message` and reads back as many bytes.
async fn exchange(stream: &mut TcpStream, message: &[u8]) -> Vec<u8> {
    stream.write_all(message).await.unwrap();
    let mut reply = vec![0; message.len()];
    within("the reply", stream.read_exact(&mut reply))
        .await
        .unwrap();
    reply
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echo_sends_megabytes_back_then_closes_after_the_half_close() {
    // The smallest --buffer-bytes and the default: many short reads, and a few long ones.
    for buffer_bytes in [512, DEFAULT_BUFFER_BYTES as usize] {
        let server = Running::start(Protocol::Echo, buffer_bytes).await;
        let payload: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let (mut reader, mut writer) = server.connect().await.into_split();
        // Written from a task of its own: the server stops reading while we do not read its
        // echo (backpressure), so writing it all before reading would deadlock.
        let to_send = payload.clone();
        let sender = tokio::spawn(async move {
            writer.write_all(&to_send).await.unwrap();
            writer.shutdown().await.unwrap(); // half-close: the echo still comes back
        });
        let mut echoed = Vec::new();
        within("the echo", reader.read_to_end(&mut echoed))
            .await
            .expect("read until the server closes");
        within("the sender", sender).await.unwrap();
        assert!(
            echoed == payload,
            "--buffer-bytes {buffer_bytes}: {} of {} bytes came back",
            echoed.len(),
            payload.len()
        );
        server.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_keep_alive_answers_in_order_and_closes_on_connection_close() {
    let server = Running::start(Protocol::Http, DEFAULT_BUFFER_BYTES as usize).await;
    let mut stream = server.connect().await;

    // Keep-alive: one request at a time on one connection.
    for _ in 0..20 {
        stream.write_all(GET).await.unwrap();
        let mut reply = vec![0; HTTP_200_KEEP_ALIVE.len()];
        within("a response", stream.read_exact(&mut reply))
            .await
            .unwrap();
        assert_eq!(reply, HTTP_200_KEEP_ALIVE);
    }

    // Pipelined in one write, the last asking to close: answered in order, then closed.
    let mut requests = GET.repeat(10);
    requests.extend_from_slice(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
    stream.write_all(&requests).await.unwrap();
    let mut expected = HTTP_200_KEEP_ALIVE.repeat(10);
    expected.extend_from_slice(HTTP_200_CLOSE);
    assert_eq!(read_to_eof(&mut stream).await, expected);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_closes_open_connections_within_the_grace_period() {
    let server = Running::start(Protocol::Echo, DEFAULT_BUFFER_BYTES as usize).await;
    // An exchange on each, so that each has its task: a connection still in the kernel's
    // accept queue would be reset with the listener, not closed by its task.
    let mut idle = Vec::new();
    for _ in 0..5 {
        let mut stream = server.connect().await;
        assert_eq!(exchange(&mut stream, b"ping").await, b"ping");
        idle.push(stream);
    }
    // One whose task is stuck writing an echo we do not read.
    let mut unread = server.connect().await;
    assert_eq!(exchange(&mut unread, b"ping").await, b"ping");
    within("1 MiB sent", unread.write_all(&vec![b'z'; 1 << 20]))
        .await
        .unwrap();

    let took = server.stop().await;
    // A task that did not react would keep `run` waiting for the whole grace period.
    assert!(
        took < SHUTDOWN_GRACE / 2,
        "run() returned {took:?} after shutdown"
    );
    for mut stream in idle {
        assert_eq!(
            read_to_eof(&mut stream).await,
            b"",
            "an idle client reads EOF"
        );
    }
    // Its task closed with our bytes unread, so the kernel may reset instead of sending EOF:
    // either way, the connection is closed (a read returns 0 or fails, never blocks).
    let mut rest = Vec::new();
    let _eof_or_reset = within("the close", unread.read_to_end(&mut rest)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_opened_after_shutdown_is_refused() {
    let server = Running::start(Protocol::Echo, DEFAULT_BUFFER_BYTES as usize).await;
    let addr = server.addr;
    let mut before = server.connect().await;
    assert_eq!(exchange(&mut before, b"ping").await, b"ping");
    server.stop().await;
    let after = within("connect", TcpStream::connect(addr)).await;
    assert_eq!(
        after.map(drop).map_err(|e| e.kind()),
        Err(ErrorKind::ConnectionRefused),
        "connecting to {addr} after shutdown"
    );
}
