//! What the C10K Lab Rust servers share, so that each binary shows only its I/O model
//! (the Rust counterpart of `servers/c/protocol.{h,c}`):
//!
//! - [`protocol`]: the echo and http protocols as pure functions ([`protocol::feed`]),
//!   byte for byte the same as the C servers';
//! - [`config`]: the flags every server takes (`--port`, `--protocol`, `--backlog`,
//!   `--buffer-bytes`) and the start-up line;
//! - [`net`]: the listening socket, the file-descriptor limit, which errors mean what;
//! - [`log`]: messages in nginx's style, `recv(fd 7) failed: Connection reset by peer`;
//! - [`stop`]: SIGTERM and SIGINT as a readable pipe, for event loops that watch file
//!   descriptors (the tokio server uses `tokio::signal` instead).
//!
//! And the servers themselves, which their binaries start:
//!
//! - [`tokio_server`]: the tokio server that `src/bin/rust-tokio.rs` starts: the accept loop,
//!   a task per connection, shutdown. Here so that tests can run it in their own process:
//!   [`tokio_server::run`] takes the listener and a shutdown future from its caller, as
//!   mini-redis's `server::run` does;
//! - [`uring`]: the io_uring server that `src/bin/rust-io-uring.rs` starts, too long for one
//!   file: the ring and its set-up, the provided buffer ring, one connection's bookkeeping,
//!   the completion loop.
//!
//! The binaries are `src/bin/rust-tokio.rs` and `src/bin/rust-io-uring.rs`: each parses its
//! flags, sets up what its server runs on (tokio's runtime, the ring) and starts it.

pub mod config;
pub mod log;
pub mod net;
pub mod protocol;
pub mod stop;
pub mod tokio_server;
pub mod uring;
