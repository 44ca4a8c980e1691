//! One connection as the io_uring server sees it: the protocol's state plus what the kernel
//! holds of it.
//!
//! With epoll a connection's state is what the protocol needs. With io_uring it is also
//! which requests the kernel has (a recv, a send) and which memory they point to, because
//! the kernel uses that memory after the call that asked it to has returned: the bytes of
//! the send in flight must stay put, and a Client may be freed only once every request has
//! come back. [`Client`] keeps that bookkeeping, and decides the two things that are pure
//! arithmetic on it: what the next send carries, and whether to receive (backpressure).

use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;

use crate::protocol::{Conn, Protocol};

/// Bytes of replies queued for a client before we stop receiving from it.
pub const OUTPUT_HIGH_WATER_BYTES: usize = 256 * 1024;
/// A connection's send buffer bigger than this is freed once sent, as protocol.rs does.
pub const SENDING_KEEP_BYTES: usize = 65536;

/// What the kernel holds for one connection, next to the protocol's `Conn`.
pub(super) struct Client {
    /// The socket; closed when the Client is dropped.
    pub(super) socket: OwnedFd,
    pub(super) conn: Conn,
    /// The bytes of the send SQE in flight (and any of them not sent yet).
    sending: Vec<u8>,
    /// How many bytes of `sending` the kernel has taken so far.
    sent: usize,
    /// `--recv plain` only: this client's receive buffer.
    pub(super) recv_buf: Option<Box<[MaybeUninit<u8>]>>,
    /// A recv is in the kernel (multishot: until its last CQE).
    pub(super) recv_armed: bool,
    /// ... and we have asked the kernel to cancel it.
    pub(super) recv_cancelled: bool,
    /// A send is in the kernel.
    pub(super) send_in_flight: bool,
    /// Free once the kernel has returned every operation.
    pub(super) closing: bool,
}

impl Client {
    /// A connection just accepted; `recv_buf_bytes` gives it a receive buffer of its own
    /// (`--recv plain`).
    pub(super) fn new(
        socket: OwnedFd,
        protocol: Protocol,
        recv_buf_bytes: Option<usize>,
    ) -> Client {
        Client {
            socket,
            conn: Conn::new(protocol),
            sending: Vec::new(),
            sent: 0,
            recv_buf: recv_buf_bytes.map(Box::new_uninit_slice),
            recv_armed: false,
            recv_cancelled: false,
            send_in_flight: false,
            closing: false,
        }
    }

    /// Bytes of replies not yet sent: those in flight plus those waiting behind them.
    pub(super) fn queued_output(&self) -> usize {
        (self.sending.len() - self.sent) + self.conn.output_pending()
    }

    /// We receive from a client unless it has finished sending or too much output waits.
    pub(super) fn wants_to_receive(&self) -> bool {
        !self.conn.read_eof && self.queued_output() < OUTPUT_HIGH_WATER_BYTES
    }

    /// The bytes the next send SQE should carry, or None if one is in flight or nothing is
    /// queued. The rest of a short send goes first; once `sending` is all sent, the protocol's
    /// whole output queue moves into it (the old vector becomes the new queue, so the two take
    /// turns without allocating), where it stays untouched until the send's CQE.
    pub(super) fn next_send(&mut self) -> Option<&[u8]> {
        if self.send_in_flight {
            return None; // one at a time: handle_send() starts the next
        }
        if self.sent == self.sending.len() {
            if self.conn.output_pending() == 0 {
                return None;
            }
            let spare = std::mem::take(&mut self.sending);
            self.sending = self.conn.take_output(spare);
            self.sent = 0;
        }
        Some(&self.sending[self.sent..])
    }

    /// A send CQE said the kernel took `bytes` of what [`Client::next_send`] offered. Once
    /// all is sent, a buffer a burst made big is given back.
    pub(super) fn bytes_sent(&mut self, bytes: usize) {
        self.sent += bytes;
        if self.sent == self.sending.len() && self.sending.capacity() > SENDING_KEEP_BYTES {
            self.sending = Vec::new(); // give back what a burst needed
            self.sent = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::net::UnixStream;

    use super::*;
    use crate::protocol::feed;

    fn client() -> Client {
        let (ours, _theirs) = UnixStream::pair().expect("socketpair()");
        Client::new(OwnedFd::from(ours), Protocol::Echo, None)
    }

    #[test]
    fn a_new_client_wants_bytes_and_has_nothing_to_send() {
        let mut cl = client();
        assert!(cl.wants_to_receive());
        assert_eq!(cl.queued_output(), 0);
        assert_eq!(cl.next_send(), None);
        assert!(cl.recv_buf.is_none());
        let plain = Client::new(
            OwnedFd::from(UnixStream::pair().unwrap().0),
            Protocol::Echo,
            Some(512),
        );
        assert_eq!(plain.recv_buf.as_ref().map(|b| b.len()), Some(512));
    }

    #[test]
    fn a_send_carries_everything_queued_and_what_comes_later_waits_behind_it() {
        let mut cl = client();
        feed(&mut cl.conn, b"hello ");
        feed(&mut cl.conn, b"world");
        assert_eq!(cl.next_send(), Some(&b"hello world"[..]));
        cl.send_in_flight = true;
        feed(&mut cl.conn, b"!");
        assert_eq!(cl.next_send(), None, "one send in flight at a time");
        assert_eq!(cl.queued_output(), 12, "in flight and waiting both count");

        cl.send_in_flight = false;
        cl.bytes_sent(4); // a short send: the rest goes before anything newer
        assert_eq!(cl.next_send(), Some(&b"o world"[..]));
        cl.bytes_sent(7);
        assert_eq!(cl.queued_output(), 1);
        assert_eq!(cl.next_send(), Some(&b"!"[..]));
        cl.bytes_sent(1);
        assert_eq!((cl.queued_output(), cl.next_send()), (0, None));
    }

    #[test]
    fn past_the_high_water_mark_it_stops_receiving_until_replies_are_read() {
        let mut cl = client();
        feed(&mut cl.conn, &vec![b'x'; OUTPUT_HIGH_WATER_BYTES - 1]);
        assert!(cl.wants_to_receive());
        feed(&mut cl.conn, b"x");
        assert!(
            !cl.wants_to_receive(),
            "{} bytes queued",
            cl.queued_output()
        );

        let offered = cl.next_send().map(<[u8]>::len);
        assert_eq!(offered, Some(OUTPUT_HIGH_WATER_BYTES));
        assert!(!cl.wants_to_receive(), "bytes in flight are not read yet");
        cl.bytes_sent(1);
        assert!(cl.wants_to_receive());
    }

    #[test]
    fn a_client_that_has_finished_sending_is_not_received_from() {
        let mut cl = client();
        cl.conn.read_eof = true;
        assert!(!cl.wants_to_receive());
    }

    #[test]
    fn a_big_send_buffer_is_freed_once_sent_and_a_small_one_kept() {
        let mut cl = client();
        feed(&mut cl.conn, &vec![b'x'; SENDING_KEEP_BYTES + 1]);
        let len = cl.next_send().map_or(0, <[u8]>::len);
        cl.bytes_sent(len - 1);
        assert!(
            cl.sending.capacity() > SENDING_KEEP_BYTES,
            "not all sent yet"
        );
        cl.bytes_sent(1);
        assert_eq!((cl.sending.capacity(), cl.sent), (0, 0));

        feed(&mut cl.conn, b"small");
        cl.next_send();
        cl.bytes_sent(5);
        assert!(cl.sending.capacity() >= 5, "kept for the next send");
        assert_eq!(cl.sent, 5);
        feed(&mut cl.conn, b"again");
        assert_eq!(cl.next_send(), Some(&b"again"[..]));
    }
}
