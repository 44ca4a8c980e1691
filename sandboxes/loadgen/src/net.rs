//! Client sockets, made the same way for both engines: which source address a connection
//! uses, and a TCP socket created, tuned and bound before its connect is started.
//!
//! The engines differ only in how the connect is started and finished: the epoll engine makes
//! the socket non-blocking and calls `connect()` itself ([`start_connect`]); the io_uring
//! engine leaves it blocking and hands the connect to the ring (io_uring issues every
//! operation non-blocking inside the kernel and waits for readiness itself).

use std::io;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// Connections per IPv4 loopback source address.
///
/// Linux's `connect()` takes ephemeral ports of one parity first (the other half is left for
/// `bind()`); with the default range (32768–60999) that half runs out near 14,000 connections
/// to one destination, and from then on every `connect()` scans the whole range: about 1.6 ms
/// each, so opening 19,000 connections took over 10 s here. Every address of 127.0.0.0/8 is
/// local, so beyond this many connections to a loopback server each further block gets its
/// own source address (127.0.0.2, 127.0.0.3 …) and with it a fresh set of ports.
pub const CONNECTIONS_PER_SOURCE: usize = 8192;

/// The source address for run-wide connection number `n` to `server`: `None` (the kernel's
/// choice) for the first [`CONNECTIONS_PER_SOURCE`] and for servers not on IPv4 loopback.
pub fn source_address(server: SocketAddr, n: usize) -> Option<Ipv4Addr> {
    let SocketAddr::V4(v4) = server else {
        return None;
    };
    let block = n / CONNECTIONS_PER_SOURCE;
    if !v4.ip().is_loopback() || block == 0 {
        return None;
    }
    let block = u32::try_from(block).ok()?;
    Some(Ipv4Addr::from(u32::from(Ipv4Addr::LOCALHOST) + block))
}

/// Whether reads, writes and connect on a socket return at once (`EAGAIN`, `EINPROGRESS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocking {
    /// For readiness loops (epoll): the loop calls `read`/`write` when the socket is ready.
    No,
    /// For io_uring, which tries each operation non-blocking itself and otherwise waits for
    /// readiness inside the kernel.
    Yes,
}

/// A TCP socket for `server`, not yet connected: `TCP_NODELAY` set (each request is one small
/// write that must not wait for the previous reply's ACK), bound to `source` when given.
///
/// Relies on: `IP_BIND_ADDRESS_NO_PORT` (Linux 4.2) so that `bind()` to a source address
/// leaves the port to `connect()`; without it bind() reserves a port of its own, which still
/// works, so a failure to set it is ignored.
pub fn socket(
    server: SocketAddr,
    source: Option<Ipv4Addr>,
    blocking: Blocking,
) -> io::Result<OwnedFd> {
    let family = match server {
        SocketAddr::V4(_) => libc::AF_INET,
        SocketAddr::V6(_) => libc::AF_INET6,
    };
    let nonblock = match blocking {
        Blocking::No => libc::SOCK_NONBLOCK,
        Blocking::Yes => 0,
    };
    // SAFETY: plain socket(2); the descriptor is checked, then owned (closed on drop).
    let fd = unsafe { libc::socket(family, libc::SOCK_STREAM | libc::SOCK_CLOEXEC | nonblock, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` is a fresh, valid socket that nothing else owns.
    let sock = unsafe { OwnedFd::from_raw_fd(fd) };
    set_option(&sock, libc::IPPROTO_TCP, libc::TCP_NODELAY)?;
    if let (Some(source), SocketAddr::V4(_)) = (source, server) {
        let _ = set_option(&sock, libc::IPPROTO_IP, libc::IP_BIND_ADDRESS_NO_PORT);
        let local = SockAddr::from(SocketAddr::V4(SocketAddrV4::new(source, 0)));
        // SAFETY: `local` holds an initialised address of `local.len` bytes.
        if unsafe { libc::bind(fd, local.as_ptr(), local.len) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(sock)
}

/// Starts a non-blocking connect of `sock` (made with [`Blocking::No`]) to `server`: done or
/// in progress is success; the socket becomes writable when it is settled.
pub fn start_connect(sock: &OwnedFd, server: SocketAddr) -> io::Result<()> {
    let remote = SockAddr::from(server);
    // SAFETY: `remote` holds an initialised address of `remote.len` bytes.
    if unsafe { libc::connect(sock.as_raw_fd(), remote.as_ptr(), remote.len) } != 0 {
        let err = io::Error::last_os_error();
        if err.raw_os_error() != Some(libc::EINPROGRESS) {
            return Err(err);
        }
    }
    Ok(())
}

/// Sets a boolean socket option to 1.
fn set_option(sock: &OwnedFd, level: libc::c_int, name: libc::c_int) -> io::Result<()> {
    let one: libc::c_int = 1;
    // SAFETY: `one` outlives the call and its size is passed.
    let rc = unsafe {
        libc::setsockopt(
            sock.as_raw_fd(),
            level,
            name,
            (&one as *const libc::c_int).cast(),
            size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A socket address in the C layout the kernel reads (`sockaddr_in` or `sockaddr_in6`).
#[derive(Clone, Copy)]
pub struct SockAddr {
    storage: libc::sockaddr_storage,
    pub len: libc::socklen_t,
}

impl SockAddr {
    /// The address for a `connect()` or `bind()` call (or an io_uring connect).
    pub fn as_ptr(&self) -> *const libc::sockaddr {
        (&self.storage as *const libc::sockaddr_storage).cast()
    }
}

impl From<SocketAddr> for SockAddr {
    fn from(addr: SocketAddr) -> SockAddr {
        // SAFETY: sockaddr_storage is plain data; all zeroes is a valid (empty) value.
        let mut storage: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
        let len = match addr {
            SocketAddr::V4(v4) => {
                let sin = libc::sockaddr_in {
                    sin_family: libc::AF_INET as libc::sa_family_t,
                    sin_port: v4.port().to_be(),
                    sin_addr: libc::in_addr {
                        s_addr: u32::from(*v4.ip()).to_be(),
                    },
                    sin_zero: [0; 8],
                };
                // SAFETY: sockaddr_storage is larger than, and aligned for, sockaddr_in.
                unsafe {
                    std::ptr::write((&mut storage as *mut libc::sockaddr_storage).cast(), sin)
                };
                size_of::<libc::sockaddr_in>()
            }
            SocketAddr::V6(v6) => {
                let sin6 = libc::sockaddr_in6 {
                    sin6_family: libc::AF_INET6 as libc::sa_family_t,
                    sin6_port: v6.port().to_be(),
                    sin6_flowinfo: v6.flowinfo(),
                    sin6_addr: libc::in6_addr {
                        s6_addr: v6.ip().octets(),
                    },
                    sin6_scope_id: v6.scope_id(),
                };
                // SAFETY: sockaddr_storage is larger than, and aligned for, sockaddr_in6.
                unsafe {
                    std::ptr::write((&mut storage as *mut libc::sockaddr_storage).cast(), sin6)
                };
                size_of::<libc::sockaddr_in6>()
            }
        };
        SockAddr {
            storage,
            len: len as libc::socklen_t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn source_addresses_spread_only_large_loopback_runs() {
        let loopback: SocketAddr = "127.0.0.1:9000".parse().unwrap();
        assert_eq!(source_address(loopback, 0), None);
        assert_eq!(source_address(loopback, CONNECTIONS_PER_SOURCE - 1), None);
        assert_eq!(
            source_address(loopback, CONNECTIONS_PER_SOURCE),
            Some(Ipv4Addr::new(127, 0, 0, 2))
        );
        assert_eq!(
            source_address(loopback, 18_999),
            Some(Ipv4Addr::new(127, 0, 0, 3))
        );
        let remote: SocketAddr = "10.0.0.1:9000".parse().unwrap();
        assert_eq!(source_address(remote, 18_999), None);
        let v6: SocketAddr = "[::1]:9000".parse().unwrap();
        assert_eq!(source_address(v6, 18_999), None);
    }

    #[test]
    fn a_bound_socket_connects_from_its_source_address() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let server = listener.local_addr().unwrap();
        let sock = socket(server, Some(Ipv4Addr::new(127, 0, 0, 7)), Blocking::No).unwrap();
        start_connect(&sock, server).unwrap();
        let (_accepted, peer) = listener.accept().unwrap();
        assert_eq!(peer.ip(), Ipv4Addr::new(127, 0, 0, 7));
    }

    #[test]
    fn an_ipv6_socket_connects() {
        let Ok(listener) = TcpListener::bind("[::1]:0") else {
            return; // no IPv6 loopback here
        };
        let server = listener.local_addr().unwrap();
        let sock = socket(server, None, Blocking::Yes).unwrap();
        start_connect(&sock, server).unwrap();
        let (_accepted, peer) = listener.accept().unwrap();
        assert!(peer.is_ipv6());
    }
}
