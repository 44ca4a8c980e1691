//! The command-line flags every server shares, and the start-up line.
//!
//! A binary puts [`Common`] into its own `clap` parser next to its knobs:
//!
//! ```ignore
//! #[derive(clap::Parser)]
//! struct Cli {
//!     #[command(flatten)]
//!     common: Common,
//!     /// Worker threads (1..=64)
//!     #[arg(long)]
//!     worker_threads: Option<u16>,
//! }
//! let cli: Cli = config::parse("rust-tokio");
//! ```

use clap::{Args, Parser, value_parser};

use crate::log;
use crate::protocol::Protocol;

pub const DEFAULT_PORT: u16 = 9000;
/// Connections waiting in the kernel's accept queue (a small backlog gives multi-second
/// tail latency and SYN cookies under load).
pub const DEFAULT_BACKLOG: u32 = 4096;
/// Bytes asked for by one read.
pub const DEFAULT_BUFFER_BYTES: u32 = 16384;
pub const MIN_BUFFER_BYTES: u32 = 512;
pub const MAX_BUFFER_BYTES: u32 = 1_048_576;

/// The flags every C10K Lab server takes (as `protocol.c`'s `config_parse`).
#[derive(Args, Clone, Debug)]
pub struct Common {
    /// TCP port to listen on, all interfaces
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = DEFAULT_PORT,
          value_parser = value_parser!(u16).range(1..))]
    pub port: u16,

    /// echo: send every byte back; http: answer each request with a fixed keep-alive 200 OK
    #[arg(long, value_enum, default_value_t = Protocol::Echo)]
    pub protocol: Protocol,

    /// listen() backlog: connections the kernel queues before accept(), 1..=65535
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = DEFAULT_BACKLOG,
          value_parser = value_parser!(u32).range(1..=65535))]
    pub backlog: u32,

    /// Bytes asked for by one read, 512..=1048576
    #[arg(long, value_name = "N", allow_negative_numbers = true, default_value_t = DEFAULT_BUFFER_BYTES,
          value_parser = value_parser!(u32).range(MIN_BUFFER_BYTES as i64..=MAX_BUFFER_BYTES as i64))]
    pub buffer_bytes: u32,
}

/// Parses the command line into `T`. `--help` prints usage and exits 0; a bad flag or value
/// prints what was wrong (naming the flag) and exits 1, as the C servers do.
pub fn parse<T: Parser>(server_id: &'static str) -> T {
    log::set_program(server_id);
    match T::try_parse() {
        Ok(args) => args,
        Err(err) => {
            // clap's own exit code for a usage error is 2; the servers' contract says 1.
            let code = if err.use_stderr() { 1 } else { 0 };
            // Nothing more to do if stdout or stderr is gone.
            let _printed = err.print();
            std::process::exit(code);
        }
    }
}

/// The start-up line, printed in one piece:
/// `rust-tokio: listening on 0.0.0.0:9000 protocol=echo worker_threads=2 backlog=4096 buffer=16384`.
/// `knobs` are the model's own settings as (name, value), named as in catalog.json.
pub fn startup_line(server_id: &str, common: &Common, knobs: &[(&str, String)]) -> String {
    let mut line = format!(
        "{server_id}: listening on 0.0.0.0:{} protocol={}",
        common.port,
        common.protocol.name()
    );
    for (name, value) in knobs {
        line += &format!(" {name}={value}");
    }
    line += &format!(" backlog={} buffer={}", common.backlog, common.buffer_bytes);
    line
}

/// Prints [`startup_line`] to stderr.
pub fn print_config(server_id: &str, common: &Common, knobs: &[(&str, String)]) {
    eprintln!("{}", startup_line(server_id, common, knobs));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        common: Common,
    }

    #[test]
    fn defaults_match_the_c_servers() {
        let cli = Cli::try_parse_from(["x"]).unwrap();
        assert_eq!(cli.common.port, 9000);
        assert_eq!(cli.common.protocol, Protocol::Echo);
        assert_eq!(cli.common.backlog, 4096);
        assert_eq!(cli.common.buffer_bytes, 16384);
    }

    #[test]
    fn bad_values_name_the_flag() {
        for args in [
            &["x", "--port", "0"][..],
            &["x", "--port", "65536"],
            &["x", "--port"],
            &["x", "--protocol", "gopher"],
            &["x", "--backlog", "0"],
            &["x", "--buffer-bytes", "1"],
            &["x", "--buffer-bytes", "99999999"],
        ] {
            let err = Cli::try_parse_from(args).unwrap_err();
            assert!(err.use_stderr());
            assert!(err.to_string().contains(args[1]), "{err}");
        }
    }

    #[test]
    fn the_startup_line_has_every_setting() {
        let cli = Cli::try_parse_from(["x", "--protocol", "http", "--backlog", "1000"]).unwrap();
        assert_eq!(
            startup_line("rust-x", &cli.common, &[("batch", "64".into())]),
            "rust-x: listening on 0.0.0.0:9000 protocol=http batch=64 backlog=1000 buffer=16384"
        );
    }
}
