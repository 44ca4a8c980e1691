//! Both servers, started as real processes, spoken to in raw bytes: echo, HTTP keep-alive and
//! pipelining, the close rules, 431, flags, and SIGTERM. Each test runs every variant in
//! `common::variants()` (both binaries, several knob sets). The full conformance suite is in
//! sandboxes/tests; these are the quick checks `cargo test` runs.

mod common;

use std::io::{Read, Write};
use std::net::Shutdown;
use std::process::Command;
use std::thread;

use common::{Server, read_to_eof, variants};
use servers::protocol::{HTTP_200_CLOSE, HTTP_200_KEEP_ALIVE, HTTP_431};

const GET: &[u8] = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

#[test]
fn echo_sends_every_byte_back_then_closes_after_the_client() {
    for (binary, args) in variants() {
        let server = Server::start(binary, &[&["--protocol", "echo"], &args[..]].concat());
        let payload: Vec<u8> = (0..3_000_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut stream = server.connect();
        let mut writer = stream.try_clone().unwrap();
        let to_send = payload.clone();
        let sender = thread::spawn(move || {
            writer.write_all(&to_send).unwrap();
            writer.shutdown(Shutdown::Write).unwrap(); // half-close: the echo still comes back
        });
        let echoed = read_to_eof(&mut stream);
        sender.join().unwrap();
        assert!(
            echoed == payload,
            "{}: {} of {} bytes",
            server.name,
            echoed.len(),
            payload.len()
        );
        server.stop();
    }
}

#[test]
fn http_keep_alive_answers_in_order_and_honours_connection_close() {
    for (binary, args) in variants() {
        let server = Server::start(binary, &[&["--protocol", "http"], &args[..]].concat());

        // Keep-alive: one request at a time on one connection.
        let mut stream = server.connect();
        for _ in 0..50 {
            stream.write_all(GET).unwrap();
            let mut reply = vec![0; HTTP_200_KEEP_ALIVE.len()];
            stream.read_exact(&mut reply).unwrap();
            assert_eq!(reply, HTTP_200_KEEP_ALIVE, "{}", server.name);
        }

        // Pipelined, a byte at a time for the last one: answered in order, then closed.
        let mut requests = GET.repeat(30);
        requests.extend_from_slice(b"GET / HTTP/1.1\r\nconnection: Close\r\n\r\n");
        let (all_but_last, last) = requests.split_at(GET.len() * 30);
        stream.write_all(all_but_last).unwrap();
        for byte in last {
            stream.write_all(&[*byte]).unwrap();
        }
        let mut expected = HTTP_200_KEEP_ALIVE.repeat(30);
        expected.extend_from_slice(HTTP_200_CLOSE);
        assert_eq!(read_to_eof(&mut stream), expected, "{}", server.name);

        // HTTP/1.0 closes unless asked to keep alive.
        let mut stream = server.connect();
        stream.write_all(b"GET / HTTP/1.0\r\n\r\n").unwrap();
        assert_eq!(read_to_eof(&mut stream), HTTP_200_CLOSE, "{}", server.name);
        server.stop();
    }
}

#[test]
fn a_head_over_8_kib_gets_431_and_a_close() {
    for (binary, args) in variants() {
        let server = Server::start(binary, &[&["--protocol", "http"], &args[..]].concat());
        let mut stream = server.connect();
        let mut head = b"GET / HTTP/1.1\r\nX-Big: ".to_vec();
        head.resize(20_000, b'a');
        stream.write_all(&head).unwrap();
        assert_eq!(read_to_eof(&mut stream), HTTP_431, "{}", server.name);
        server.stop();
    }
}

#[test]
fn sigterm_with_clients_connected_exits_0_within_2_s() {
    for (binary, args) in variants() {
        let server = Server::start(binary, &[&["--protocol", "echo"], &args[..]].concat());
        let idle: Vec<_> = (0..20).map(|_| server.connect()).collect();
        let mut busy = server.connect();
        busy.write_all(b"ping").unwrap();
        let mut pong = [0; 4];
        busy.read_exact(&mut pong).unwrap();
        let mut unread = server.connect();
        unread.write_all(&vec![b'z'; 1 << 20]).unwrap(); // replies the client never reads
        let port = server.port;
        let log = server.stop(); // asserts exit 0 within 2 s
        assert!(log.contains("SIGTERM received: closed"), "{log}");
        assert!(
            std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
            "still accepting"
        );
        drop((idle, busy, unread));
    }
}

#[test]
fn the_startup_line_shows_the_effective_config() {
    let tokio = Server::start(env!("CARGO_BIN_EXE_rust-tokio"), &["--backlog", "100"]);
    let (port, log) = (tokio.port, tokio.stop());
    assert!(
        log.contains(&format!(
            "rust-tokio: listening on 0.0.0.0:{port} protocol=echo worker_threads=0 \
             backlog=100 buffer=16384\n"
        )),
        "{log}"
    );
    let uring = Server::start(env!("CARGO_BIN_EXE_rust-io-uring"), &["--protocol", "http"]);
    let (port, log) = (uring.port, uring.stop());
    assert!(
        log.contains(&format!(
            "rust-io-uring: listening on 0.0.0.0:{port} protocol=http sqpoll=off batch=64 \
             entries=4096 buffers=1024 recv="
        )),
        "{log}"
    );
}

#[test]
fn bad_flags_exit_1_naming_the_flag() {
    for binary in [
        env!("CARGO_BIN_EXE_rust-tokio"),
        env!("CARGO_BIN_EXE_rust-io-uring"),
    ] {
        for args in [
            &["--port", "0"][..],
            &["--port", "ninety"],
            &["--protocol", "gopher"],
            &["--backlog", "-1"],
            &["--buffer-bytes", "1"],
            &["--no-such-flag", "1"],
        ] {
            let out = Command::new(binary).args(args).output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{binary} {args:?}: {stderr}");
            assert!(stderr.contains(args[0]), "{binary} {args:?}: {stderr}");
        }
        let help = Command::new(binary).arg("--help").output().unwrap();
        assert_eq!(help.status.code(), Some(0));
    }
}
