//! The I/O engines: how each worker thread drives its sockets.
//!
//! - `epoll` ([`epoll`]): readiness. One `epoll_wait` reports the sockets that can be read
//!   or written, then one `read` and one `write` system call per round trip.
//!
//! An engine implements [`Engine`] and [`Io`](crate::worker::Io): the connection state
//! machine, pacing, verification and statistics are [`Load`]'s, shared.

pub mod epoll;

use std::io;

use crate::worker::{Gate, Load};

pub use crate::worker::Engine;

/// What one worker is handed to drive its sockets with.
pub enum Setup {
    Epoll,
}

/// Runs one worker's `load` with the engine of `setup`, from opening its connections (then
/// waiting at `gate`) to the end of the schedule.
pub fn run(setup: Setup, load: Load, gate: &Gate) -> io::Result<()> {
    match setup {
        Setup::Epoll => {
            let mut engine = epoll::EpollEngine::new(load.spec())?;
            load.run(&mut engine, gate)
        }
    }
}
