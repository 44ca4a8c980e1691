//! Starts a real server binary on a free port in 15000-19999 and stops it with SIGTERM,
//! holding it to the servers' contract: exit status 0 within 2 s.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The contract: SIGTERM -> exit 0 within this long.
pub const STOP_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a server may take to start listening (a busy machine is slow).
const READY_TIMEOUT: Duration = Duration::from_secs(20);
/// A deadline for any one read or write, far above what a healthy server needs.
pub const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// The two binaries, and the knob sets every test runs them with.
pub fn variants() -> Vec<(&'static str, Vec<&'static str>)> {
    let tokio = env!("CARGO_BIN_EXE_rust-tokio");
    let uring = env!("CARGO_BIN_EXE_rust-io-uring");
    vec![
        (tokio, vec![]),
        (
            tokio,
            vec!["--worker-threads", "1", "--buffer-bytes", "512"],
        ),
        (uring, vec![]),
        (
            uring,
            vec![
                "--recv",
                "oneshot",
                "--buffers",
                "4",
                "--buffer-bytes",
                "512",
            ],
        ),
        (uring, vec!["--recv", "plain", "--batch", "1"]),
        (uring, vec!["--sqpoll", "on"]),
    ]
}

/// A port in 15000-19999 that nothing is bound to right now.
fn pick_port() -> u16 {
    let random = RandomState::new();
    for attempt in 0u32..200 {
        let port = 15000 + (random.hash_one(attempt) % 5000) as u16;
        if TcpListener::bind(("0.0.0.0", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port in 15000-19999");
}

pub struct Server {
    pub name: String,
    pub port: u16,
    child: Child,
}

impl Server {
    /// Starts `binary --port P args...` and waits until it accepts connections.
    pub fn start(binary: &str, args: &[&str]) -> Server {
        for _attempt in 0..5 {
            let port = pick_port();
            let mut child = Command::new(binary)
                .arg("--port")
                .arg(port.to_string())
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
            let name = format!("{} {}", binary.rsplit('/').next().unwrap(), args.join(" "));
            let deadline = Instant::now() + READY_TIMEOUT;
            loop {
                if let Some(status) = child.try_wait().unwrap() {
                    let log = stderr_of(&mut child);
                    if log.contains("Address already in use") {
                        break; // someone took the port meanwhile: try another
                    }
                    panic!("{name} exited with {status}:\n{log}");
                }
                if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                    return Server { name, port, child };
                }
                assert!(Instant::now() < deadline, "{name} did not listen in time");
                sleep(Duration::from_millis(20));
            }
        }
        panic!("could not start {binary}");
    }

    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
        stream.set_write_timeout(Some(IO_TIMEOUT)).unwrap();
        stream.set_nodelay(true).unwrap();
        stream
    }

    /// Sends SIGTERM; asserts exit status 0 within 2 s. Returns everything on stderr.
    pub fn stop(mut self) -> String {
        // SAFETY: kill() only sends a signal to our own child, which has not been reaped.
        let sent = unsafe { libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM) };
        assert_eq!(sent, 0, "kill({}) failed", self.child.id());
        let deadline = Instant::now() + STOP_TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let log = stderr_of(&mut self.child);
                assert!(
                    status.success(),
                    "{}: {status} after SIGTERM:\n{log}",
                    self.name
                );
                return log;
            }
            assert!(
                Instant::now() < deadline,
                "{} still running {STOP_TIMEOUT:?} after SIGTERM",
                self.name
            );
            sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _killed = self.child.kill();
            let _reaped = self.child.wait();
        }
    }
}

fn stderr_of(child: &mut Child) -> String {
    let mut log = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _read = stderr.read_to_string(&mut log);
    }
    log
}

/// Reads until the server closes the connection.
pub fn read_to_eof(stream: &mut TcpStream) -> Vec<u8> {
    let mut data = Vec::new();
    stream
        .read_to_end(&mut data)
        .expect("read until the server closes");
    data
}
