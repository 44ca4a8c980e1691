//! Before any load: wait until the server accepts a connection, then check one reply.
//!
//! The server runs in a container with no network but loopback, so nothing outside can probe
//! it; the load generator itself retries connecting (every [`RETRY_EVERY`]) and then verifies
//! one request/response byte for byte, so a server that answers wrongly fails the run with a
//! message saying what came back, instead of producing a fast-looking result.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::thread;
use std::time::{Duration, Instant};

use crate::cli::Protocol;
use crate::http::{HttpError, Parsed, ResponseParser};
use crate::quote;

/// Pause between connection attempts while waiting for the server.
pub const RETRY_EVERY: Duration = Duration::from_millis(50);

/// Most bytes of an HTTP response kept to say how long it was (its start is quoted).
const SEEN_BYTES: usize = 64 * 1024;

/// Resolves `host:port` to the addresses to try, in resolver order.
pub fn resolve(host: &str, port: u16) -> Result<Vec<SocketAddr>, String> {
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve host {host:?}: {e}"))?
        .collect();
    if addrs.is_empty() {
        return Err(format!("host {host:?} has no addresses"));
    }
    Ok(addrs)
}

/// Connects to the first of `addrs` that accepts, retrying every [`RETRY_EVERY`] until
/// `wait` has passed (at least one round of attempts is always made).
pub fn wait_ready(
    addrs: &[SocketAddr],
    wait: Duration,
    timeout: Duration,
) -> Result<(TcpStream, SocketAddr), String> {
    let deadline = Instant::now() + wait;
    let mut attempts = 0u64;
    loop {
        let mut last_error = None;
        for &addr in addrs {
            attempts += 1;
            let left = deadline.saturating_duration_since(Instant::now());
            let per_try = left.clamp(
                Duration::from_millis(100),
                timeout.max(Duration::from_millis(100)),
            );
            match TcpStream::connect_timeout(&addr, per_try) {
                Ok(stream) => return Ok((stream, addr)),
                Err(e) => last_error = Some(format!("{addr}: {e}")),
            }
        }
        if Instant::now() + RETRY_EVERY > deadline {
            return Err(format!(
                "server did not accept a connection within {:.1} s ({attempts} attempts; last: {})",
                wait.as_secs_f64(),
                last_error.unwrap_or_default()
            ));
        }
        thread::sleep(RETRY_EVERY);
    }
}

/// Sends one request on `stream` and checks the reply: the echo comes back byte-exact, or
/// the HTTP reply is `HTTP/1.1 200` with its full Content-Length body. The error says what
/// came back.
pub fn verify(
    stream: TcpStream,
    protocol: Protocol,
    request: &[u8],
    timeout: Duration,
) -> Result<(), String> {
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .and_then(|()| stream.set_nodelay(true))
        .map_err(|e| format!("cannot set socket options: {e}"))?;
    // Write from a second thread so a large echo cannot deadlock (both sides' buffers full).
    let mut writer = stream
        .try_clone()
        .map_err(|e| format!("cannot clone socket: {e}"))?;
    let owned = request.to_vec();
    let sender = thread::spawn(move || writer.write_all(&owned));
    let result = match protocol {
        Protocol::Echo => read_echo(&stream, request, timeout),
        Protocol::Http => read_http(&stream, timeout),
    };
    let sent = sender
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("writer panicked")));
    result?;
    sent.map_err(|e| format!("sending the request failed: {e}"))
}

/// Reads the echo of `request`, comparing as it goes.
fn read_echo(mut stream: &TcpStream, request: &[u8], timeout: Duration) -> Result<(), String> {
    let mut got = vec![0u8; request.len()];
    let mut have = 0;
    while have < request.len() {
        match stream.read(&mut got[have..]) {
            Ok(0) => {
                return Err(format!(
                    "server closed the connection after echoing {have} of {} bytes{}",
                    request.len(),
                    last_bytes(&got[..have])
                ));
            }
            Ok(n) => {
                let start = have;
                have += n;
                if let Some(i) = (start..have).find(|&i| got[i] != request[i]) {
                    let (expected, got) = quote::at_byte(request, &got[..have], i);
                    return Err(format!(
                        "echo differs from the {}-byte request at byte {i}: expected {expected}, \
                         got {got}",
                        request.len(),
                    ));
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(read_failure(&e, have, request.len(), &got[..have], timeout)),
        }
    }
    Ok(())
}

/// Reads one HTTP response and checks it.
fn read_http(mut stream: &TcpStream, timeout: Duration) -> Result<(), String> {
    let mut parser = ResponseParser::new();
    let mut seen: Vec<u8> = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => {
                return Err(format!(
                    "server closed the connection before a complete HTTP response{}",
                    if seen.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", quote::text(&seen))
                    }
                ));
            }
            Ok(n) => {
                if seen.len() < SEEN_BYTES {
                    seen.extend_from_slice(&buf[..n]);
                }
                match parser.parse(&buf[..n]) {
                    Ok(Parsed::Complete { .. }) => return Ok(()),
                    Ok(Parsed::Partial) => {}
                    Err(e) => return Err(http_failure(&e, &seen)),
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let what = if seen.is_empty() {
                    String::from("nothing")
                } else {
                    quote::text(&seen)
                };
                return Err(if is_timeout(&e) {
                    format!(
                        "no complete HTTP response within {} ms; got {what}",
                        timeout.as_millis()
                    )
                } else {
                    format!("reading the HTTP response failed: {e}; got {what}")
                });
            }
        }
    }
}

fn http_failure(e: &HttpError, seen: &[u8]) -> String {
    format!("bad HTTP response: {e}; got {}", quote::text(seen))
}

fn read_failure(e: &io::Error, have: usize, want: usize, got: &[u8], timeout: Duration) -> String {
    if is_timeout(e) {
        format!(
            "no complete echo within {} ms: {have} of {want} bytes came back{}",
            timeout.as_millis(),
            last_bytes(got)
        )
    } else {
        format!("reading the echo failed after {have} of {want} bytes: {e}")
    }
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// The last bytes of an echo that stopped short, after a semicolon; nothing if none came.
fn last_bytes(got: &[u8]) -> String {
    if got.is_empty() {
        String::new()
    } else {
        format!("; the last: {}", quote::tail(got))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn serve_once(reply: impl FnOnce(&mut TcpStream) + Send + 'static) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            reply(&mut s);
        });
        addr
    }

    fn connect(addr: SocketAddr) -> TcpStream {
        wait_ready(&[addr], Duration::from_secs(2), Duration::from_secs(1))
            .unwrap()
            .0
    }

    const T: Duration = Duration::from_millis(500);

    #[test]
    fn echo_verified_and_wrong_echo_reported() {
        let addr = serve_once(|s| {
            let mut buf = [0u8; 5];
            s.read_exact(&mut buf).unwrap();
            s.write_all(&buf).unwrap();
        });
        verify(connect(addr), Protocol::Echo, b"hello", T).unwrap();

        let addr = serve_once(|s| {
            let mut buf = [0u8; 5];
            s.read_exact(&mut buf).unwrap();
            s.write_all(b"hellO").unwrap();
        });
        let err = verify(connect(addr), Protocol::Echo, b"hello", T).unwrap_err();
        assert!(err.contains("at byte 4"), "{err}");
        assert!(err.contains("expected @0: 68 65 6c 6c 6f |hello|"), "{err}");
        assert!(err.contains("got @0: 68 65 6c 6c 4f |hellO|"), "{err}");
    }

    #[test]
    fn silent_server_times_out_and_closing_server_is_eof() {
        let addr = serve_once(|_s| thread::sleep(Duration::from_secs(2)));
        let err = verify(connect(addr), Protocol::Echo, b"hello", T).unwrap_err();
        assert!(err.contains("no complete echo within 500 ms"), "{err}");

        // Read the request before closing: closing with unread bytes makes the kernel send a
        // reset instead of a FIN, and the client would see that instead of end-of-stream.
        let addr = serve_once(|s| {
            let mut buf = [0u8; 5];
            s.read_exact(&mut buf).unwrap();
            s.write_all(b"he").unwrap();
        });
        let err = verify(connect(addr), Protocol::Echo, b"hello", T).unwrap_err();
        assert!(err.contains("closed the connection"), "{err}");
    }

    #[test]
    fn http_verified_and_wrong_status_reported() {
        let addr = serve_once(|s| {
            let mut buf = [0u8; 512];
            let _ = s.read(&mut buf).unwrap();
            s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                .unwrap();
        });
        verify(connect(addr), Protocol::Http, b"GET / HTTP/1.1\r\n\r\n", T).unwrap();

        let addr = serve_once(|s| {
            let mut buf = [0u8; 512];
            let _ = s.read(&mut buf).unwrap();
            s.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                .unwrap();
        });
        let err = verify(connect(addr), Protocol::Http, b"GET / HTTP/1.1\r\n\r\n", T).unwrap_err();
        assert!(err.contains("404 Not Found"), "{err}");
    }

    #[test]
    fn nothing_listening_is_not_ready() {
        let addr = {
            let l = TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap()
        };
        let started = Instant::now();
        let err = wait_ready(&[addr], Duration::from_millis(300), T).unwrap_err();
        assert!(started.elapsed() >= Duration::from_millis(250));
        assert!(err.contains("did not accept a connection"), "{err}");
    }
}
