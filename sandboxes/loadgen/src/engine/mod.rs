//! The I/O engines, chosen with `--engine`: how each worker thread drives its sockets.
//!
//! - `epoll` ([`epoll`]): readiness. One `epoll_wait` reports the sockets that can be read
//!   or written, then one `read` and one `write` system call per round trip. It runs
//!   wherever Linux does.
//! - `io_uring` ([`uring`]): completions. One ring per worker; a multishot receive armed once
//!   per connection delivers every reply into a buffer the kernel takes from a provided-buffer
//!   ring, and the next requests' sends go out in the same `io_uring_enter` that waits for the
//!   following replies. A round trip costs no system call of its own, only a share of one
//!   `io_uring_enter`. Needs Linux 6.0 (multishot receive), and io_uring not blocked by a
//!   seccomp profile or `kernel.io_uring_disabled`.
//!
//! The default is `epoll`. Every figure recorded so far (the course's baselines,
//! `results/loadgen-vs-wrk.md`, whose point is to compare like with like against wrk's epoll
//! loop) was measured with it, so a caller that does not ask keeps getting the load it was
//! calibrated against, and a container whose seccomp profile refuses io_uring does not print
//! a fallback note on every run. The backend's runner asks for `io_uring` explicitly.
//!
//! Refusal is never silent. Asked for io_uring, the coordinator creates every worker's ring
//! before any worker starts ([`prepare`]); if the kernel refuses one (`io_uring_setup` fails
//! with EPERM from seccomp or the sysctl, ENOSYS, EINVAL on a kernel too old, or a needed
//! feature or operation is missing), the whole run uses epoll, and the reason is printed on
//! stderr and carried in the summary (`engine_note`).
//!
//! Both engines implement [`Engine`] and [`Io`](crate::worker::Io): the connection state
//! machine, pacing, verification and statistics are [`Load`]'s, shared.

pub mod buf_ring;
pub mod epoll;
pub mod uring;

use std::io;

use crate::cli::Engine as Kind;
use crate::worker::{Gate, Load, WorkerSpec};

pub use crate::worker::Engine;

/// What one worker is handed to drive its sockets with.
pub enum Setup {
    Epoll,
    /// A ring created (disabled) by the coordinator; the worker enables it, becoming its
    /// only submitter.
    IoUring(Box<uring::Ring>),
}

/// The engine a run uses, and each worker's setup for it.
pub struct Chosen {
    /// The engine that runs.
    pub engine: Kind,
    /// Why it is not the one asked for (io_uring refused), for stderr and the summary.
    pub note: Option<String>,
    /// One per worker, in the order of the specs.
    pub setups: Vec<Setup>,
}

/// Prepares the `requested` engine for the workers of `specs`: for io_uring, creates all
/// their rings now, so that a refusal makes the whole run fall back to epoll (with a note)
/// before any worker starts.
pub fn prepare(requested: Kind, specs: &[WorkerSpec]) -> Chosen {
    let epoll = |note| Chosen {
        engine: Kind::Epoll,
        note,
        setups: specs.iter().map(|_| Setup::Epoll).collect(),
    };
    match requested {
        Kind::Epoll => epoll(None),
        Kind::IoUring => match specs
            .iter()
            .map(uring::Ring::new)
            .collect::<Result<Vec<_>, _>>()
        {
            Ok(rings) => Chosen {
                engine: Kind::IoUring,
                note: None,
                setups: rings
                    .into_iter()
                    .map(|ring| Setup::IoUring(Box::new(ring)))
                    .collect(),
            },
            Err(refusal) => epoll(Some(refusal.note())),
        },
    }
}

/// Runs one worker's `load` with the engine of `setup`, from opening its connections (then
/// waiting at `gate`) to the end of the schedule.
pub fn run(setup: Setup, load: Load, gate: &Gate) -> io::Result<()> {
    match setup {
        Setup::Epoll => {
            let mut engine = epoll::EpollEngine::new(load.spec())?;
            load.run(&mut engine, gate)
        }
        Setup::IoUring(ring) => {
            let mut engine = uring::UringEngine::new(*ring, load.spec())?;
            load.run(&mut engine, gate)
        }
    }
}
