//! rust-io-uring: one thread serves every client through io_uring, Linux's completion-based
//! I/O interface (the "Proactor" pattern), driven with the `io-uring` crate directly.
//!
//! What it shows: epoll tells a server *which* sockets are ready and leaves the read() and
//! write() calls to it. io_uring takes the operations themselves: we write requests
//! ("accept on this socket", "receive from that one", "send these bytes") as submission
//! queue entries (SQEs) into a ring of memory shared with the kernel, and read the results
//! as completion queue entries (CQEs) from a second shared ring. One io_uring_enter() call
//! hands the kernel a whole batch of SQEs and sleeps until completions arrive, so the number
//! of system calls per request falls far below epoll's two or three.
//!
//! How, piece by piece (multishot accept and recv, the provided buffer ring, one send in
//! flight per connection, backpressure, a wait that expects a batch), is told in
//! src/uring/mod.rs; each file there opens with what it holds. This binary parses the flags,
//! sets the ring up with the fallbacks below, and starts the server.
//!
//! This is the Rust twin of c-io-uring (servers/c/io-uring.c): the same design, knobs and
//! fallbacks, so the two can be compared line for line.
//!
//! Minimum kernel: Linux 5.7 to run (IORING_FEAT_FAST_POLL, and the opcodes checked at start),
//! with fallbacks it prints at start: multishot accept and buffer rings need 5.19 (before:
//! one accept SQE per connection, and one recv SQE at a time into a buffer of the
//! connection's own), multishot recv 6.0 (before: one recv SQE at a time, buffer from the
//! ring), IORING_SETUP_SINGLE_ISSUER 6.0 and IORING_SETUP_DEFER_TASKRUN 6.1 (before: the
//! kernel runs completion work whenever the thread enters the kernel). Docker 25 and later
//! block io_uring in their default seccomp profile: run the container with the course's
//! sandboxes/seccomp/io-uring.json (the runner does so for this server).
//!
//! Usage:     rust-io-uring [--port 9000] [--protocol echo|http] [--sqpoll off|on]
//!                          [--batch 64] [--entries 4096] [--buffers 1024]
//!                          [--recv multishot|oneshot|plain] [--backlog 4096]
//!                          [--buffer-bytes 16384]
//! Test with: rust-io-uring --port 9000 &  and then  nc 127.0.0.1 9000   (type; lines come back)
//!            rust-io-uring --protocol http &  and then  wrk -c 100 -d 5s http://127.0.0.1:9000/
//!
//! Simplifications: one thread and one ring, so one CPU core; received bytes are copied from
//! the ring buffer into the connection's output (no zero-copy send); sockets are ordinary
//! file descriptors (no registered files); no idle timeouts; IPv4 only. The protocols live
//! in src/protocol.rs, shared with rust-tokio.

use std::process::ExitCode;

use clap::{Parser, ValueEnum, value_parser};

use servers::config::{self, Common};
use servers::log::{die, log};
use servers::net;
use servers::stop;
use servers::uring::buffers::{self, BufferRing};
use servers::uring::ops::RecvMode;
use servers::uring::ring::{self, Ring};
use servers::uring::server::{Server, Settings};

const SERVER_ID: &str = "rust-io-uring";

/// One thread serves every client through io_uring.
#[derive(Parser, Debug)]
#[command(name = SERVER_ID, max_term_width = 100)]
struct Cli {
    #[command(flatten)]
    common: Common,

    /// A kernel thread polls the submission queue (IORING_SETUP_SQPOLL)
    #[arg(long, value_enum, default_value_t = OnOff::Off)]
    sqpoll: OnOff,

    /// Completions handled per loop turn, between two submissions, 1..=4096
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 64,
          value_parser = value_parser!(u32).range(1..=4096))]
    batch: u32,

    /// Submission queue slots, 8..=32768 (rounded up to a power of two)
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 4096,
          value_parser = value_parser!(u32).range(8..=32768))]
    entries: u32,

    /// Receive buffers in the ring, --buffer-bytes each, 1..=32768
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = 1024,
          value_parser = value_parser!(u32).range(1..=32768))]
    buffers: u32,

    /// How to receive: multishot, or one SQE per chunk (ring or own buffer)
    #[arg(long, value_enum, default_value_t = RecvMode::Multishot)]
    recv: RecvMode,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OnOff {
    Off,
    On,
}

fn main() -> ExitCode {
    let cli: Cli = config::parse(SERVER_ID);
    let sqpoll = cli.sqpoll == OnOff::On;
    let buffer_bytes = cli.common.buffer_bytes as usize;
    let mut recv_mode = cli.recv;

    if recv_mode.uses_buffer_ring() && !buffers::fits(cli.buffers, buffer_bytes) {
        die(format_args!(
            "--buffers {} x --buffer-bytes {buffer_bytes} is more than {} MiB of receive buffers",
            cli.buffers,
            buffers::MAX_BUFFER_RING_BYTES >> 20
        ));
    }

    let stop = stop::stop_pipe();
    net::raise_fd_limit();

    // ANCHOR: start-up
    let (uring, setup_flags) = ring::setup_ring(cli.entries, sqpoll);
    ring::check_kernel_support(&uring);
    let mut ring = Ring::new(uring, sqpoll);
    let mut buffers = None;
    if recv_mode.uses_buffer_ring() {
        // --buffers is at most 32768: it fits a u16.
        match BufferRing::register(ring.uring(), cli.buffers as u16, buffer_bytes) {
            Ok(registered) => buffers = Some(registered),
            Err(e) => {
                log(format_args!(
                    "io_uring_register(IORING_REGISTER_PBUF_RING) failed: {e} (buffer rings \
                     need Linux 5.19); falling back to a receive buffer per connection"
                ));
                recv_mode = RecvMode::Plain;
            }
        }
    }
    if let (RecvMode::Multishot, Some(registered)) = (recv_mode, buffers.as_mut())
        && !ring::multishot_recv_works(&mut ring, registered)
    {
        log("multishot recv not supported (needs Linux 6.0): one recv SQE at a time");
        recv_mode = RecvMode::Oneshot;
    }
    // ANCHOR_END: start-up

    log(format_args!(
        "io_uring on Linux {}: features {}; setup flags {setup_flags}; multishot accept; {}",
        ring::kernel_release(),
        ring::describe_features(ring.uring()),
        recv_mode.description()
    ));

    let listener = net::listen_on(&cli.common); // blocking: io_uring does the waiting
    let settings = Settings {
        protocol: cli.common.protocol,
        buffer_bytes,
        batch: cli.batch as usize,
        recv_mode,
    };
    let mut server = Server::new(ring, buffers, listener, stop, settings);
    config::print_config(
        SERVER_ID,
        &cli.common,
        &[
            ("sqpoll", if sqpoll { "on" } else { "off" }.to_string()),
            ("batch", cli.batch.to_string()),
            ("entries", cli.entries.to_string()),
            ("buffers", cli.buffers.to_string()),
            ("recv", recv_mode.name().to_string()), // what we really do
        ],
    );
    server.run();
    server.shut_down();
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_flags_default_to_the_catalog_values() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from(["x"]).unwrap();
        assert_eq!(cli.sqpoll, OnOff::Off);
        assert_eq!((cli.batch, cli.entries, cli.buffers), (64, 4096, 1024));
        assert_eq!(cli.recv, RecvMode::Multishot);
    }

    #[test]
    fn the_flags_take_their_whole_range_and_nothing_beyond() {
        let cli = Cli::try_parse_from([
            "x",
            "--sqpoll",
            "on",
            "--batch",
            "4096",
            "--entries",
            "8",
            "--buffers",
            "32768",
            "--recv",
            "plain",
        ])
        .unwrap();
        assert_eq!(cli.sqpoll, OnOff::On);
        assert_eq!((cli.batch, cli.entries, cli.buffers), (4096, 8, 32768));
        assert_eq!(cli.recv, RecvMode::Plain);
        for args in [
            ["x", "--batch", "0"],
            ["x", "--batch", "4097"],
            ["x", "--entries", "7"],
            ["x", "--entries", "32769"],
            ["x", "--buffers", "0"],
            ["x", "--buffers", "32769"],
            ["x", "--buffers", "-1"],
            ["x", "--sqpoll", "yes"],
            ["x", "--recv", "zerocopy"],
        ] {
            let err = Cli::try_parse_from(args).unwrap_err();
            assert!(err.to_string().contains(args[1]), "{err}");
        }
    }
}
