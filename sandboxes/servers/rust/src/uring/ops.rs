//! What we ask the kernel for, and how its answers find their way back.
//!
//! An SQE carries 64 bits of "user data" that the kernel copies into each of its CQEs,
//! untouched: this file says what we put there ([`Op`] and the socket's fd) and how a CQE is
//! read back ([`op_of`], [`fd_of`], [`errno`]). It also holds [`RecvMode`], the three ways
//! the server can ask for a socket's bytes. All of it is pure: no ring, no system call.

use std::io;
use std::os::fd::RawFd;

use clap::ValueEnum;

/// Every SQE carries 64 bits of "user data" that come back in its CQEs: we put the operation
/// there and the socket's fd. An fd cannot be reused while an operation on it is in flight,
/// because we close a socket only once the kernel has returned them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Accept = 1,
    Recv,
    Send,
    Stop,
    Cancel,
    Probe,
}

impl Op {
    /// Every operation, for reading one back out of user data.
    pub const ALL: [Op; 6] = [
        Op::Accept,
        Op::Recv,
        Op::Send,
        Op::Stop,
        Op::Cancel,
        Op::Probe,
    ];
}

/// The operation in the high 32 bits, the fd in the low 32.
pub fn user_data(op: Op, fd: RawFd) -> u64 {
    (op as u64) << 32 | u64::from(fd as u32)
}

/// The operation a CQE's user data names; None for user data we never wrote.
pub fn op_of(data: u64) -> Option<Op> {
    Op::ALL.into_iter().find(|op| *op as u64 == data >> 32)
}

/// The fd a CQE's user data names.
pub fn fd_of(data: u64) -> RawFd {
    data as u32 as RawFd
}

/// A CQE's negative result as the error it stands for.
pub fn errno(result: i32) -> io::Error {
    io::Error::from_raw_os_error(-result)
}

/// How the server asks for a connection's bytes (`--recv`); the kernel may make it settle
/// for a simpler one (see `src/bin/rust-io-uring.rs`'s start-up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RecvMode {
    /// One multishot recv per connection, buffers from the ring (Linux 6.0)
    Multishot,
    /// One recv SQE per chunk received, buffers from the ring (Linux 5.19)
    Oneshot,
    /// One recv SQE per chunk, into a buffer the connection owns
    Plain,
}

impl RecvMode {
    /// The `--recv` value, for the start-up line.
    pub fn name(self) -> &'static str {
        match self {
            RecvMode::Multishot => "multishot",
            RecvMode::Oneshot => "oneshot",
            RecvMode::Plain => "plain",
        }
    }

    /// What the server really does, for the start-up log.
    pub fn description(self) -> &'static str {
        match self {
            RecvMode::Multishot => "multishot recv from the buffer ring",
            RecvMode::Oneshot => "one-shot recv from the buffer ring",
            RecvMode::Plain => "one-shot recv into a buffer per connection",
        }
    }

    /// Receives into the provided buffer ring (every mode but `plain`).
    pub fn uses_buffer_ring(self) -> bool {
        self != RecvMode::Plain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_data_comes_back_as_the_op_and_fd_it_was_made_of() {
        for op in Op::ALL {
            for fd in [0, 1, 7, 65_535, RawFd::MAX] {
                let data = user_data(op, fd);
                assert_eq!(op_of(data), Some(op), "{op:?} fd {fd}");
                assert_eq!(fd_of(data), fd, "{op:?} fd {fd}");
            }
        }
    }

    #[test]
    fn every_op_has_user_data_of_its_own() {
        let mut seen: Vec<u64> = Op::ALL.iter().map(|op| user_data(*op, 3)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), Op::ALL.len());
    }

    #[test]
    fn user_data_we_never_wrote_names_no_op() {
        for data in [0, 42, 7 << 32, u64::from(u32::MAX) << 32 | 5, u64::MAX] {
            assert_eq!(op_of(data), None, "{data:#x}");
        }
        // A fd with the high bit set must not spill into the op.
        assert_eq!(op_of(user_data(Op::Recv, -1)), Some(Op::Recv));
    }

    #[test]
    fn a_negative_result_is_the_errno_it_carries() {
        assert_eq!(
            errno(-libc::ECONNRESET).raw_os_error(),
            Some(libc::ECONNRESET)
        );
        assert_eq!(errno(-libc::ENOBUFS).raw_os_error(), Some(libc::ENOBUFS));
    }

    #[test]
    fn recv_modes_are_named_as_the_flag_spells_them() {
        for mode in RecvMode::value_variants() {
            let value = mode.to_possible_value().expect("no variant is hidden");
            assert_eq!(value.get_name(), mode.name());
            assert_eq!(RecvMode::from_str(mode.name(), false), Ok(*mode));
        }
        assert_eq!(RecvMode::value_variants().len(), 3);
        assert!(RecvMode::from_str("zerocopy", false).is_err());
    }

    #[test]
    fn only_plain_recv_does_without_the_buffer_ring() {
        assert!(RecvMode::Multishot.uses_buffer_ring());
        assert!(RecvMode::Oneshot.uses_buffer_ring());
        assert!(!RecvMode::Plain.uses_buffer_ring());
        assert!(RecvMode::Plain.description().contains("per connection"));
        assert!(RecvMode::Multishot.description().starts_with("multishot"));
    }
}
