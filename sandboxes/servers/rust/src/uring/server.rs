//! The io_uring server itself: its state and the completion loop.
//!
//! One thread owns everything ([`Server`]). The loop reads completions (CQEs) from shared
//! memory, handles each (`handle_*`: an accepted socket, received bytes, a finished send),
//! then decides once per connection what it needs from the kernel next (`schedule_io`: a
//! send, a recv armed or cancelled, a shutdown, a close), and enters the kernel only when
//! it has no completion left to read, to submit the batch's requests and wait for the next.
//! Closing is the delicate part: a connection is freed only when the kernel has given back
//! every request that points to its socket or memory.

use std::net::{Shutdown, TcpListener};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::ptr;
use std::time::{Duration, Instant};

use io_uring::types::Fd;
use io_uring::{cqueue, opcode, squeue};
use socket2::SockRef;

use crate::log::{self, RateLimit, die, log};
use crate::net;
use crate::protocol::{Protocol, feed};
use crate::stop;
use crate::uring::buffers::{BUFFER_GROUP, BufferRing};
use crate::uring::client::Client;
use crate::uring::ops::{Op, RecvMode, errno, fd_of, op_of};
use crate::uring::ring::Ring;

/// "Out of file descriptors" is said at most this often.
pub const PAUSE_LOG_INTERVAL: Duration = Duration::from_secs(10);
/// At exit: how long we wait for the kernel to give back cancelled operations.
pub const SHUTDOWN_DRAIN: Duration = Duration::from_millis(1000);
/// How long the loop waits for more completions to come in before it takes what is there.
pub const WAIT: Duration = Duration::from_micros(100);
/// ... and it waits for the requests of at most one in this many connections.
pub const WAIT_SHARE: usize = 4;

/// What the command line decided, as the server needs it.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub protocol: Protocol,
    /// `--recv plain`: the size of each connection's receive buffer.
    pub buffer_bytes: usize,
    /// Completions handled per loop turn (`--batch`).
    pub batch: usize,
    /// What the kernel let us have of `--recv`.
    pub recv_mode: RecvMode,
}

/// The server's state. One thread, so it all lives here, owned by `main`.
pub struct Server {
    // Field order matters: fields are dropped in declaration order, and the ring must be
    // gone (so the kernel has let go of every request) before the buffers it writes into.
    ring: Ring,
    /// None with `--recv plain`.
    buffers: Option<BufferRing>,
    /// clients[fd]: the connection on socket fd, if any.
    clients: Vec<Option<Client>>,
    listener: TcpListener,
    /// Readable once SIGTERM or SIGINT arrived.
    stop: OwnedFd,
    protocol: Protocol,
    buffer_bytes: usize,
    batch: usize,
    recv_mode: RecvMode,
    /// False on kernels before 5.19.
    multishot_accept: bool,
    /// An accept is in the kernel.
    accept_armed: bool,
    /// Out of file descriptors: wait for a close.
    accept_paused: bool,
    /// ... and we said so (rate-limited by `pause_log`).
    pause_logged: bool,
    pause_log: RateLimit,
    /// The poll on `stop` is in the kernel.
    stop_armed: bool,
    /// Recvs the kernel ended with ENOBUFS.
    ring_ran_dry: u64,
    /// `clients` entries in use.
    open_connections: usize,
}

impl Server {
    /// The server on `listener`, with its accept and its poll on `stop` (the read end of
    /// [`stop::stop_pipe`]) queued: they reach the kernel with [`Server::run`]'s first
    /// io_uring_enter(). `buffers` is None with `--recv plain`.
    pub fn new(
        ring: Ring,
        buffers: Option<BufferRing>,
        listener: TcpListener,
        stop: OwnedFd,
        settings: Settings,
    ) -> Server {
        let mut server = Server {
            ring,
            buffers,
            clients: Vec::new(),
            listener,
            stop,
            protocol: settings.protocol,
            buffer_bytes: settings.buffer_bytes,
            batch: settings.batch,
            recv_mode: settings.recv_mode,
            multishot_accept: true,
            accept_armed: false,
            accept_paused: false,
            pause_logged: false,
            pause_log: RateLimit::new(PAUSE_LOG_INTERVAL),
            stop_armed: false,
            ring_ran_dry: 0,
            open_connections: 0,
        };
        server.arm_accept();
        server.arm_stop_poll();
        server
    }

    fn client(&mut self, fd: RawFd) -> &mut Client {
        self.clients[fd as usize]
            .as_mut()
            .expect("a completion for a connection we have")
    }

    /// Relies on: the accept CQE's result being the new socket's file descriptor.
    // ANCHOR: multishot-accept
    fn arm_accept(&mut self) {
        let fd = self.listener.as_raw_fd();
        let entry = if self.multishot_accept {
            opcode::AcceptMulti::new(Fd(fd))
                .flags(libc::SOCK_CLOEXEC)
                .build()
        } else {
            opcode::Accept::new(Fd(fd), ptr::null_mut(), ptr::null_mut())
                .flags(libc::SOCK_CLOEXEC)
                .build()
        };
        // SAFETY: no memory: we do not ask for the peer's address (null pointers).
        unsafe { self.ring.push(entry, Op::Accept, fd) }
        self.accept_armed = true;
    }
    // ANCHOR_END: multishot-accept

    /// Relies on: a one-shot IORING_OP_POLL_ADD completing once the fd is readable.
    fn arm_stop_poll(&mut self) {
        let fd = self.stop.as_raw_fd();
        let entry = opcode::PollAdd::new(Fd(fd), libc::POLLIN as u32).build();
        // SAFETY: a poll points to no memory.
        unsafe { self.ring.push(entry, Op::Stop, fd) }
        self.stop_armed = true;
    }

    /// Relies on: a recv with IOSQE_BUFFER_SELECT taking a buffer from our ring only when
    /// bytes have arrived, and IORING_RECV_MULTISHOT (Linux 6.0) keeping the request alive
    /// after each chunk: one CQE per chunk, each flagged IORING_CQE_F_MORE, until end of
    /// stream, an error, a cancel, or an empty ring (ENOBUFS) ends it.
    // ANCHOR: multishot-recv
    fn arm_recv(&mut self, fd: RawFd) {
        let mode = self.recv_mode;
        let cl = self.clients[fd as usize]
            .as_mut()
            .expect("arm_recv for a connection we have");
        let entry = match mode {
            RecvMode::Multishot => opcode::RecvMulti::new(Fd(fd), BUFFER_GROUP).build(),
            RecvMode::Oneshot => opcode::Recv::new(Fd(fd), ptr::null_mut(), 0)
                .buf_group(BUFFER_GROUP) // "pick a buffer from this group"
                .build()
                .flags(squeue::Flags::BUFFER_SELECT),
            RecvMode::Plain => {
                let buf = cl
                    .recv_buf
                    .as_mut()
                    .expect("--recv plain: every client has a buffer");
                opcode::Recv::new(Fd(fd), buf.as_mut_ptr().cast(), buf.len() as u32).build()
            }
        };
        // SAFETY: with a buffer group the kernel writes into a ring buffer, memory that
        // lives in `self.buffers` until after the ring is gone (Server's field order). With
        // --recv plain it writes into `cl.recv_buf`, a heap allocation that does not move
        // with the Client and that nothing reads, replaces or frees while `recv_armed` is
        // set: free_if_idle() drops a Client only once its last recv CQE has arrived.
        unsafe { self.ring.push(entry, Op::Recv, fd) }
        cl.recv_armed = true;
        cl.recv_cancelled = false;
    }
    // ANCHOR_END: multishot-recv

    /// Relies on: a send SQE reading its bytes when the kernel gets to it, perhaps after this
    /// function has long returned, and sending perhaps only part of them (the CQE says how
    /// many). So the bytes move out of the protocol's output queue, which `feed` keeps
    /// appending to, into `sending`, untouched until the CQE arrives; and only one send is in
    /// flight per connection, because two could complete, or send their bytes, out of order.
    // ANCHOR: send
    fn start_send(&mut self, fd: RawFd) {
        let cl = self.clients[fd as usize]
            .as_mut()
            .expect("start_send for a connection we have");
        // None while a send is in flight (one at a time: handle_send() starts the next), or
        // with nothing to send. Otherwise the rest of a short send, or everything queued.
        let Some(rest) = cl.next_send() else {
            return;
        };
        let len = u32::try_from(rest.len()).unwrap_or(u32::MAX); // a short send does the rest
        let entry = opcode::Send::new(Fd(fd), rest.as_ptr(), len)
            .flags(libc::MSG_NOSIGNAL)
            .build();
        // SAFETY: the bytes live in `cl.sending`'s heap allocation, which does not move with
        // the Client and which nothing changes, replaces or frees while `send_in_flight` is
        // set: only Client::next_send() refills `sending`, and not while the flag is set;
        // Client::bytes_sent() frees it only after handle_send() has seen the CQE and
        // cleared the flag; free_if_idle() drops a Client only when no send is in flight.
        unsafe { self.ring.push(entry, Op::Send, fd) }
        cl.send_in_flight = true;
    }
    // ANCHOR_END: send

    // ANCHOR: close
    /// Frees the connection once the kernel holds nothing of it: no recv, no send in flight.
    fn free_if_idle(&mut self, fd: RawFd) {
        let cl = self.client(fd);
        if cl.recv_armed || cl.send_in_flight {
            return; // their CQEs will call us again
        }
        self.clients[fd as usize] = None; // closes the socket, frees the buffers
        self.open_connections -= 1;

        if self.accept_paused && !stop::stop_requested() {
            self.accept_paused = false; // a file descriptor is free again
            if self.pause_logged {
                log("accepting connections again");
            }
            self.arm_accept();
        }
    }

    /// Relies on: the kernel possibly still using the connection's socket and memory (a recv
    /// waiting for bytes, a send waiting for room). We cancel those and free the connection
    /// when their last CQEs have come back, never before: the kernel could otherwise write
    /// into freed memory, or the fd be reused while CQEs for the old socket are on their way.
    fn close_client(&mut self, fd: RawFd) {
        let cl = self.clients[fd as usize]
            .as_mut()
            .expect("close_client for a connection we have");
        if cl.closing {
            return;
        }
        cl.closing = true;
        if cl.recv_armed && !cl.recv_cancelled {
            self.ring.cancel(Op::Recv, fd);
            cl.recv_cancelled = true;
        }
        if cl.send_in_flight {
            self.ring.cancel(Op::Send, fd);
        }
        self.free_if_idle(fd);
    }
    // ANCHOR_END: close

    /// After a batch of completions, for each connection that had one: what does it need from
    /// the kernel next? The io_uring counterpart of epoll.c's update_interest(). Sends what is
    /// queued; once all is sent, shuts down the sending side after an HTTP "Connection: close"
    /// reply, and closes when the client has finished too; arms a recv if we want bytes and
    /// none is in the kernel, or cancels it if replies are piling up (backpressure).
    fn schedule_io(&mut self, fd: RawFd) {
        self.start_send(fd);
        let cl = self.client(fd);
        if !cl.send_in_flight {
            // Everything has been sent.
            if cl.conn.should_shut_output() {
                if let Err(e) = SockRef::from(&cl.socket).shutdown(Shutdown::Write) {
                    log::connection_error("shutdown", fd, &e);
                    return self.close_client(fd);
                }
                cl.conn.output_shut = true;
            }
            if cl.conn.finished() {
                return self.close_client(fd); // the client is done sending, and all is sent
            }
        }
        let wants = cl.wants_to_receive();
        if wants && !cl.recv_armed {
            self.arm_recv(fd);
        } else if !wants && cl.recv_armed && !cl.recv_cancelled {
            cl.recv_cancelled = true;
            self.ring.cancel(Op::Recv, fd); // bytes stay in the socket: TCP slows the client
        }
    }

    // ---- completions ----------------------------------------------------------------------

    /// Relies on: a multishot accept posting one CQE per connection, flagged
    /// IORING_CQE_F_MORE while it stays armed. An error ends it (no F_MORE): after a client
    /// that gave up we arm it again at once; when file descriptors run out (EMFILE) only
    /// after a connection closes, as c-epoll does. Kernels before 5.19 reject the multishot
    /// flag with EINVAL: from then on one accept SQE per connection.
    fn handle_accept(&mut self, result: i32, flags: u32) {
        if !cqueue::more(flags) {
            self.accept_armed = false;
        }
        if result >= 0 {
            // SAFETY: the kernel has just opened this descriptor for us; nothing else owns it.
            let socket = unsafe { OwnedFd::from_raw_fd(result) };
            let index = result as usize;
            if index >= self.clients.len() {
                self.clients.resize_with(index + 1, || None);
            }
            let recv_buf_bytes = (self.recv_mode == RecvMode::Plain).then_some(self.buffer_bytes);
            self.open_connections += 1;
            self.clients[index] = Some(Client::new(socket, self.protocol, recv_buf_bytes));
            self.arm_recv(result);
        } else if result == -libc::EINVAL && self.multishot_accept {
            log(
                "multishot accept not supported (needs Linux 5.19): one accept SQE per connection instead",
            );
            self.multishot_accept = false;
        } else if net::accept_error_is_exhaustion(-result) {
            self.pause_logged = self.pause_log.ready();
            if self.pause_logged {
                log(format_args!(
                    "accept() failed; pausing until a connection closes (said at most every \
                     {} s): {}",
                    PAUSE_LOG_INTERVAL.as_secs(),
                    errno(result)
                ));
            }
            self.accept_paused = true;
        } else if result != -libc::ECANCELED && !net::accept_error_is_transient(-result) {
            die(format_args!(
                "accept(fd {}) failed: {}",
                self.listener.as_raw_fd(),
                errno(result)
            ));
        }
        if !self.accept_armed && !self.accept_paused && !stop::stop_requested() {
            self.arm_accept();
        }
    }

    /// Relies on: a recv CQE's result being the byte count (0: the client shut down its
    /// sending side; negative: -errno), and, with a ring buffer, IORING_CQE_F_BUFFER plus the
    /// buffer's id in the flags. We copy the bytes into the protocol (`feed`) and give the
    /// buffer straight back to the ring. The replies go out when the whole batch is in
    /// (schedule_io()).
    // ANCHOR: recv-completion
    fn handle_recv(&mut self, fd: RawFd, result: i32, flags: u32) {
        let buffer_id = cqueue::buffer_select(flags);
        let Some(cl) = self.clients[fd as usize].as_mut() else {
            unreachable!("recv completion for fd {fd}, which has no connection");
        };
        if !cqueue::more(flags) {
            cl.recv_armed = false; // the kernel ended it: schedule_io() re-arms it
        }
        if result > 0 && !cl.closing {
            let len = result as usize;
            let data = match (buffer_id, &cl.recv_buf) {
                (Some(id), _) => self.buffers.as_ref().expect("a buffer ring").bytes(id, len),
                // SAFETY: the kernel wrote `len` bytes at the start of this client's buffer
                // and is done with it: the recv that did so has just completed.
                (None, Some(buf)) => unsafe {
                    std::slice::from_raw_parts(buf.as_ptr().cast(), len)
                },
                (None, None) => unreachable!("a recv completion with bytes but no buffer"),
            };
            feed(&mut cl.conn, data);
        }
        if let Some(id) = buffer_id {
            self.buffers.as_mut().expect("a buffer ring").recycle(id);
        }

        if cl.closing {
            return self.free_if_idle(fd);
        }
        match result {
            0 => cl.conn.read_eof = true,
            r if r == -libc::ENOBUFS => {
                if self.ring_ran_dry == 0 {
                    log(
                        "the buffer ring ran dry (all buffers in use); receiving again as \
                         buffers come back (more with --buffers)",
                    );
                }
                self.ring_ran_dry += 1;
            }
            r if r < 0 && r != -libc::ECANCELED => {
                log::connection_error("recv", fd, &errno(r));
                self.close_client(fd);
            }
            _ => {}
        }
    }
    // ANCHOR_END: recv-completion

    /// Relies on: a send CQE's result being the number of bytes the kernel took, which may be
    /// fewer than we offered (schedule_io() then sends the rest before anything newer).
    // ANCHOR: send-completion
    fn handle_send(&mut self, fd: RawFd, result: i32) {
        let cl = self.client(fd);
        cl.send_in_flight = false;
        if cl.closing {
            return self.free_if_idle(fd);
        }
        if result < 0 {
            log::connection_error("send", fd, &errno(result));
            return self.close_client(fd);
        }
        cl.bytes_sent(result as usize); // frees a buffer a burst made big, once all is sent
    }
    // ANCHOR_END: send-completion

    /// Relies on: a cancel's own CQE: 0 found, -ENOENT already finished, -EALREADY finishing.
    fn handle_cancel(&mut self, fd: RawFd, result: i32) {
        if result < 0 && result != -libc::ENOENT && result != -libc::EALREADY {
            log(format_args!("cancel(fd {fd}) failed: {}", errno(result)));
        }
    }

    /// The signal handler has already set stop_requested(): this CQE only woke the loop.
    fn handle_stop(&mut self) {
        self.stop_armed = false;
    }

    fn handle_completion(&mut self, cqe: &cqueue::Entry) {
        let (data, result, flags) = (cqe.user_data(), cqe.result(), cqe.flags());
        if !cqueue::more(flags) {
            self.ring.in_flight -= 1; // that was the operation's last CQE
        }
        match op_of(data) {
            Some(Op::Accept) => self.handle_accept(result, flags),
            Some(Op::Recv) => self.handle_recv(fd_of(data), result, flags),
            Some(Op::Send) => self.handle_send(fd_of(data), result),
            Some(Op::Stop) => self.handle_stop(),
            Some(Op::Cancel) => self.handle_cancel(fd_of(data), result),
            Some(Op::Probe) | None => {}
        }
    }

    /// The second half of a completion: the connection it was about, if it is still open,
    /// decides what it needs next. Called once the whole batch has been handled, so that a
    /// connection whose recv posted three chunks in one batch sends one reply with all three,
    /// instead of one now and the others only after that send's CQE has come back.
    fn schedule_after(&mut self, cqe: &cqueue::Entry) {
        let data = cqe.user_data();
        if !matches!(op_of(data), Some(Op::Recv | Op::Send)) {
            return;
        }
        let fd = fd_of(data);
        if self.clients[fd as usize]
            .as_ref()
            .is_some_and(|cl| !cl.closing)
        {
            self.schedule_io(fd); // twice for the same connection does no harm
        }
    }

    // ANCHOR: coalesced-wait
    /// How many CQEs the next wait can expect soon: one for each SQE we are about to submit
    /// (nearly all sends, which complete at once), and as many requests (recv CQEs) as the last
    /// wait brought, at least one: a lone client's next request is the one more we wait for,
    /// so it is not slowed. But at most the requests of one connection in WAIT_SHARE: a client
    /// that sends its next request only once it has our reply would otherwise find all its
    /// connections waiting on us, and idle. Never more than one batch.
    fn expected_completions(&mut self, requests: usize) -> usize {
        let queued = self.ring.uring.submission().len();
        completions_to_expect(queued, requests, self.open_connections, self.batch)
    }

    /// Relies on: io_uring_enter() with IORING_ENTER_GETEVENTS doing three jobs in one call:
    /// it submits every SQE written since the last call, runs the completion work that
    /// DEFER_TASKRUN kept for this moment, and sleeps until `want` CQEs are waiting. With a
    /// timeout (IORING_FEAT_EXT_ARG, Linux 5.11) it returns when the time is up with whatever
    /// is there, or ETIME if nothing came.
    ///
    /// Why wait for more than one CQE: the sends we submit in the same call usually complete at
    /// once, so waiting for one CQE would return straight away with just those, and a second
    /// call would do the real waiting; and with DEFER_TASKRUN the kernel finishes at most
    /// max(20, want) completions per pass (Linux 6.13 and later). So we wait for the CQEs we
    /// can expect (expected_completions()), but never longer than WAIT: a request that came in
    /// early waits at most that long for company. If nothing came in that time the server is
    /// idle, and the next call sleeps for one CQE without a limit. With SQPOLL neither reason
    /// holds (the kernel thread submits the sends, and there is no DEFER_TASKRUN): waiting for
    /// more would only hold replies back (measured: a quarter fewer requests served), so we
    /// wait for one, as before.
    fn wait_for_completions(&mut self, want: usize) {
        if want > 1 && !self.ring.sqpoll && self.ring.uring.params().is_feature_ext_arg() {
            self.ring.submit_and_wait_at_most(want, WAIT);
        } else if let Err(e) = self.ring.uring.submit_and_wait(1)
            && e.raw_os_error() != Some(libc::EINTR)
        {
            die(format_args!("io_uring_enter() failed: {e}"));
        }
    }
    // ANCHOR_END: coalesced-wait

    /// Relies on: the completion queue being memory we can read without a system call. So the
    /// loop enters the kernel only when there is nothing left to read: then one io_uring_enter()
    /// submits what the last batch queued and waits for the next. While CQEs are waiting we take
    /// up to --batch of them at a time (the completion queue's head moves past them when the
    /// iterator is dropped, freeing their slots for the kernel at once), first handling each,
    /// then deciding once per connection what it needs next (schedule_after). After a full
    /// batch, if more CQEs are waiting, we submit without waiting (one system call, none with
    /// SQPOLL while its thread is awake), so replies do not wait for the whole queue to be read.
    // ANCHOR: event-loop
    pub fn run(&mut self) {
        let mut completions: Vec<cqueue::Entry> = Vec::with_capacity(self.batch);
        let mut requests = 0; // recv CQEs since the last wait
        while !stop::stop_requested() {
            if self.ring.uring.completion().is_empty() {
                let want = self.expected_completions(requests);
                self.wait_for_completions(want);
                requests = 0;
            } else if !self.ring.uring.submission().is_empty()
                && let Err(e) = self.ring.uring.submit()
                && e.raw_os_error() != Some(libc::EINTR)
            {
                die(format_args!("io_uring_enter() failed: {e}"));
            }

            completions.extend(self.ring.uring.completion().take(self.batch));
            for cqe in &completions {
                if op_of(cqe.user_data()) == Some(Op::Recv) {
                    requests += 1;
                }
                self.handle_completion(cqe);
            }
            for cqe in &completions {
                self.schedule_after(cqe);
            }
            completions.clear();
        }
    }
    // ANCHOR_END: event-loop

    // ---- shutting down --------------------------------------------------------------------

    /// Relies on: cancelled requests completing promptly with -ECANCELED. We wait (at most
    /// SHUTDOWN_DRAIN) until every operation has come back before closing sockets and freeing
    /// memory: the listening socket in particular would otherwise live on, held by the
    /// accept request, until the kernel tears the ring down in the background.
    fn drain_in_flight_operations(&mut self) {
        if self.accept_armed {
            self.ring.cancel(Op::Accept, self.listener.as_raw_fd());
        }
        if self.stop_armed {
            self.ring.cancel(Op::Stop, self.stop.as_raw_fd());
        }
        for fd in 0..self.clients.len() {
            let Some(cl) = self.clients[fd].as_mut() else {
                continue;
            };
            if cl.recv_armed && !cl.recv_cancelled {
                self.ring.cancel(Op::Recv, fd as RawFd);
                cl.recv_cancelled = true;
            }
            if cl.send_in_flight {
                self.ring.cancel(Op::Send, fd as RawFd);
            }
        }

        let deadline = Instant::now() + SHUTDOWN_DRAIN;
        while self.ring.in_flight > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                log(format_args!(
                    "{} operations still in flight after {SHUTDOWN_DRAIN:?}; exiting anyway",
                    self.ring.in_flight
                ));
                return;
            }
            if self.ring.uring.params().is_feature_ext_arg() {
                self.ring.submit_and_wait_at_most(1, left);
            } else {
                // Before Linux 5.11 a wait cannot carry a timeout: look again in a moment.
                std::thread::sleep(Duration::from_millis(10));
                if let Err(e) = self.ring.uring.submit()
                    && e.raw_os_error() != Some(libc::EINTR)
                {
                    die(format_args!("io_uring_enter() failed: {e}"));
                }
            }
            for cqe in self.ring.uring.completion() {
                if !cqueue::more(cqe.flags()) {
                    self.ring.in_flight -= 1;
                }
                if op_of(cqe.user_data()) == Some(Op::Accept) && cqe.result() >= 0 {
                    // SAFETY: accepted too late: the kernel opened it for us; we close it.
                    drop(unsafe { OwnedFd::from_raw_fd(cqe.result()) });
                }
            }
        }
    }

    /// Closes every connection and frees everything; call it once [`Server::run`] returns.
    pub fn shut_down(mut self) {
        self.drain_in_flight_operations();
        let open = self.clients.iter().flatten().count();
        self.clients.clear(); // closes every socket
        log(format_args!(
            "{} received: closed {open} connection{}, exiting",
            stop::stop_signal_name(),
            if open == 1 { "" } else { "s" }
        ));
        if self.ring_ran_dry > 0 {
            log(format_args!(
                "the buffer ring ran dry {} time{}",
                self.ring_ran_dry,
                if self.ring_ran_dry == 1 { "" } else { "s" }
            ));
        }
        // Dropping `self` closes the ring (unregistering the buffer ring), then unmaps the
        // buffers, then closes the listening socket and the stop pipe.
    }
}

/// [`Server::expected_completions`]' arithmetic: `queued` SQEs about to be submitted,
/// `requests` recv CQEs the last wait brought, of `open_connections`; at most `batch`.
fn completions_to_expect(
    queued: usize,
    requests: usize,
    open_connections: usize,
    batch: usize,
) -> usize {
    let requests = requests.min(open_connections / WAIT_SHARE).max(1);
    (queued + requests).min(batch)
}

#[cfg(test)]
mod tests {
    use std::io::{ErrorKind, Read, Write};
    use std::net::TcpStream;
    use std::os::unix::net::UnixStream;

    use clap::ValueEnum;

    use super::*;
    use crate::protocol::{HTTP_200_CLOSE, HTTP_200_KEEP_ALIVE};
    use crate::uring::client::OUTPUT_HIGH_WATER_BYTES;
    use crate::uring::test_ring;

    #[test]
    fn the_wait_expects_its_own_sends_and_about_as_many_requests_as_last_time() {
        assert_eq!(
            completions_to_expect(0, 0, 100, 64),
            1,
            "at least one request"
        );
        assert_eq!(completions_to_expect(3, 0, 100, 64), 3 + 1);
        assert_eq!(completions_to_expect(10, 10, 100, 64), 10 + 10);
        assert_eq!(
            completions_to_expect(10, 40, 100, 64),
            10 + 100 / WAIT_SHARE,
            "the requests of at most one connection in WAIT_SHARE"
        );
        assert_eq!(completions_to_expect(1, 1, 1, 64), 1 + 1, "a lone client");
        assert_eq!(
            completions_to_expect(60, 30, 1000, 64),
            64,
            "never more than a batch"
        );
    }

    /// A server on 127.0.0.1 (a port of the kernel's choosing) with a small ring of its own,
    /// and the other end of its stop "pipe", to keep open; None where io_uring is refused.
    fn server(protocol: Protocol, recv_mode: RecvMode) -> Option<(Server, UnixStream)> {
        let uring = test_ring(64)?;
        let buffers = recv_mode
            .uses_buffer_ring()
            .then(|| BufferRing::register(&uring, 8, 4096).expect("Linux 5.19 or later"));
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind()");
        let (stop, stop_writer) = UnixStream::pair().expect("socketpair()");
        let settings = Settings {
            protocol,
            buffer_bytes: 4096,
            batch: 64,
            recv_mode,
        };
        let ring = Ring::new(uring, false);
        let server = Server::new(ring, buffers, listener, stop.into(), settings);
        Some((server, stop_writer))
    }

    fn connect(server: &Server) -> TcpStream {
        let stream = TcpStream::connect(server.listener.local_addr().unwrap()).expect("connect()");
        stream.set_nonblocking(true).unwrap();
        stream
    }

    /// One turn of Server::run's loop, without its look at the stop flag (a process-wide
    /// static): wait a little for CQEs, handle them, then schedule what each connection needs.
    fn turn(server: &mut Server) {
        server
            .ring
            .submit_and_wait_at_most(1, Duration::from_millis(10));
        let cqes: Vec<cqueue::Entry> = server.ring.uring.completion().collect();
        for cqe in &cqes {
            server.handle_completion(cqe);
        }
        for cqe in &cqes {
            server.schedule_after(cqe);
        }
    }

    /// Turns the loop until `done`, for at most 10 s.
    fn turn_until(server: &mut Server, mut done: impl FnMut(&mut Server) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done(server) {
            assert!(Instant::now() < deadline, "not there after 10 s");
            turn(server);
        }
    }

    /// Reads what has arrived into `into`; true once the server has closed its side.
    fn read_available(stream: &mut TcpStream, into: &mut Vec<u8>) -> bool {
        let mut buf = [0; 65536];
        loop {
            match stream.read(&mut buf) {
                Ok(0) => return true,
                Ok(n) => into.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == ErrorKind::WouldBlock => return false,
                Err(e) => panic!("read(): {e}"),
            }
        }
    }

    /// After a test: every request the kernel holds comes back once cancelled.
    fn drain(mut server: Server) {
        server.drain_in_flight_operations();
        assert_eq!(server.ring.in_flight, 0, "every request came back");
    }

    #[test]
    fn echo_in_every_recv_mode_then_close_after_the_client() {
        for mode in RecvMode::value_variants().iter().copied() {
            let Some((mut server, _stop)) = server(Protocol::Echo, mode) else {
                return;
            };
            let mut client = connect(&server);
            turn_until(&mut server, |s| s.open_connections == 1);

            client.write_all(b"ping").unwrap();
            let mut echoed = Vec::new();
            turn_until(&mut server, |_| {
                read_available(&mut client, &mut echoed);
                echoed.len() >= 4
            });
            assert_eq!(echoed, b"ping", "{mode:?}");

            client.shutdown(Shutdown::Write).unwrap(); // the client is done: so is the server
            turn_until(&mut server, |s| s.open_connections == 0);
            assert!(server.clients.iter().all(Option::is_none), "{mode:?}");
            turn_until(&mut server, |_| read_available(&mut client, &mut echoed));
            assert_eq!(
                echoed, b"ping",
                "{mode:?}: nothing more, then end of stream"
            );
            drain(server);
        }
    }

    #[test]
    fn http_connection_close_is_answered_then_the_sending_side_shut() {
        let Some((mut server, _stop)) = server(Protocol::Http, RecvMode::Multishot) else {
            return;
        };
        let mut client = connect(&server);
        client
            .write_all(b"GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut reply = Vec::new();
        turn_until(&mut server, |_| read_available(&mut client, &mut reply));
        assert_eq!(reply, [HTTP_200_KEEP_ALIVE, HTTP_200_CLOSE].concat());
        assert_eq!(server.open_connections, 1, "open until the client closes");
        drop(client);
        turn_until(&mut server, |s| s.open_connections == 0);
        drain(server);
    }

    #[test]
    fn past_the_high_water_mark_the_recv_is_cancelled_and_armed_again_once_replies_are_read() {
        let Some((mut server, _stop)) = server(Protocol::Echo, RecvMode::Multishot) else {
            return;
        };
        let mut client = connect(&server);
        turn_until(&mut server, |s| s.open_connections == 1);
        let fd = server.clients.iter().position(Option::is_some).unwrap();
        assert!(server.clients[fd].as_ref().unwrap().recv_armed);

        // Replies queued as if the client had sent 16 MiB and read nothing: more than the
        // kernel's socket buffers hold, so the send cannot finish while the client does not read.
        let owed = 64 * OUTPUT_HIGH_WATER_BYTES;
        feed(
            &mut server.clients[fd].as_mut().unwrap().conn,
            &vec![b'x'; owed],
        );
        server.schedule_io(fd as RawFd);
        let cl = server.clients[fd].as_ref().unwrap();
        assert!(
            cl.send_in_flight && cl.recv_cancelled,
            "a send, and the recv cancelled"
        );
        turn_until(&mut server, |s| !s.clients[fd].as_ref().unwrap().recv_armed);
        for _ in 0..10 {
            turn(&mut server);
            assert!(
                !server.clients[fd].as_ref().unwrap().recv_armed,
                "not armed again yet"
            );
        }

        let mut echoed = Vec::new();
        turn_until(&mut server, |s| {
            read_available(&mut client, &mut echoed);
            echoed.len() == owed && s.clients[fd].as_ref().unwrap().recv_armed
        });
        drain(server);
    }

    #[test]
    fn a_client_that_does_not_read_is_not_read_from_until_it_does() {
        let Some((mut server, _stop)) = server(Protocol::Echo, RecvMode::Multishot) else {
            return;
        };
        let mut client = connect(&server);
        turn_until(&mut server, |s| s.open_connections == 1);
        let fd = server.clients.iter().position(Option::is_some).unwrap();

        // Send without reading: the replies pile up until the server stops receiving.
        let chunk = [b'x'; 65536];
        let mut written = 0;
        turn_until(&mut server, |s| {
            loop {
                match client.write(&chunk) {
                    Ok(n) => written += n,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(e) => panic!("write(): {e}"),
                }
            }
            let cl = s.clients[fd].as_ref().unwrap();
            !cl.recv_armed && cl.queued_output() >= OUTPUT_HIGH_WATER_BYTES
        });
        for _ in 0..10 {
            turn(&mut server); // and it stays that way while the client does not read
        }
        let cl = server.clients[fd].as_ref().unwrap();
        assert!(!cl.recv_armed && !cl.wants_to_receive());

        // Read every reply: the server receives again, and every byte comes back.
        let mut echoed = Vec::new();
        turn_until(&mut server, |_| {
            read_available(&mut client, &mut echoed);
            echoed.len() >= written
        });
        assert_eq!(echoed.len(), written);
        assert!(echoed.iter().all(|b| *b == b'x'));
        assert!(server.clients[fd].as_ref().unwrap().recv_armed);
        drain(server);
    }
}
