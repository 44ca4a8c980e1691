//! The listening socket, the file-descriptor limit, and what `accept()` errors mean.

use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};

use socket2::{Domain, Socket, Type};

use crate::config::Common;
use crate::log::die;

/// Cap on [`raise_fd_limit`]'s answer.
const MAX_FDS: u64 = 1_048_576;

/// A listening TCP socket on 0.0.0.0:`--port` with backlog `--backlog`; exits 1 on failure.
///
/// Relies on: SO_REUSEADDR letting us bind a port whose previous connections are still in
/// TIME_WAIT (so a restarted server can listen at once), and Linux copying TCP_NODELAY from
/// the listening socket to every accepted socket, so that small replies leave at once
/// instead of waiting for the client's ACK (Nagle's algorithm). The socket is blocking and
/// close-on-exec; a model that wants it non-blocking says so itself.
pub fn listen_on(common: &Common) -> TcpListener {
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)
        .unwrap_or_else(|e| die(format_args!("socket() failed: {e}")));
    socket
        .set_reuse_address(true)
        .unwrap_or_else(|e| die(format_args!("setsockopt(SO_REUSEADDR) failed: {e}")));
    socket
        .set_tcp_nodelay(true)
        .unwrap_or_else(|e| die(format_args!("setsockopt(TCP_NODELAY) failed: {e}")));
    let addr = SocketAddr::from((Ipv4Addr::UNSPECIFIED, common.port));
    socket
        .bind(&addr.into())
        .unwrap_or_else(|e| die(format_args!("bind({addr}) failed: {e}")));
    // The backlog fits: --backlog is at most 65535.
    socket.listen(common.backlog as i32).unwrap_or_else(|e| {
        die(format_args!(
            "listen(backlog {}) failed: {e}",
            common.backlog
        ))
    });
    socket.into()
}

/// Raises the soft RLIMIT_NOFILE to the hard limit and returns it: the most file
/// descriptors, so the most connections, this process may have.
///
/// Relies on: an unprivileged process being allowed to raise its soft limit up to the
/// hard limit. Every connection is a file descriptor, so this is the C10K ceiling.
pub fn raise_fd_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the rlimit struct we pass, which lives on our stack.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } < 0 {
        die(format_args!(
            "getrlimit(RLIMIT_NOFILE) failed: {}",
            io::Error::last_os_error()
        ));
    }
    if limit.rlim_cur < limit.rlim_max {
        limit.rlim_cur = limit.rlim_max;
        // SAFETY: setrlimit only reads the rlimit struct we pass.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } < 0 {
            die(format_args!(
                "setrlimit(RLIMIT_NOFILE, {}) failed: {}",
                limit.rlim_cur,
                io::Error::last_os_error()
            ));
        }
    }
    limit.rlim_cur.min(MAX_FDS)
}

/// `accept()` errors after which the next accept may well succeed: accept(2) says Linux
/// reports network errors already pending on the new connection here, to be treated like
/// EAGAIN; ECONNABORTED means the client gave up.
pub fn accept_error_is_transient(errno: i32) -> bool {
    matches!(
        errno,
        libc::EINTR
            | libc::ECONNABORTED
            | libc::EPROTO
            | libc::EPERM
            | libc::ENETDOWN
            | libc::ENOPROTOOPT
            | libc::EHOSTDOWN
            | libc::ENONET
            | libc::EHOSTUNREACH
            | libc::EOPNOTSUPP
            | libc::ENETUNREACH
    )
}

/// `accept()` errors that mean "no file descriptors or memory left": stop accepting until a
/// connection closes, rather than spin on an accept that cannot succeed.
pub fn accept_error_is_exhaustion(errno: i32) -> bool {
    matches!(
        errno,
        libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM
    )
}
