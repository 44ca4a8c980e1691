/*
 * poll.c - c-poll: one thread serves every client with a poll() event loop.
 *
 * What it shows: non-blocking sockets plus poll(). The list of sockets we care about
 * is an array of struct pollfd in *our* memory, one entry per socket; every call hands
 * the whole array to the kernel, which checks every entry and writes back which are
 * ready. So each call costs time in proportion to the number of watched sockets, idle
 * ones included (about 0.14-0.23 us per idle socket per call measured on the course
 * machine), while epoll's cost follows only the ready ones. Unlike select(), poll()
 * has no fixed limit on file descriptor numbers. Readiness is level-triggered: a
 * socket is reported on every call for as long as it is ready.
 * A client that sends but never reads cannot make the server's memory grow without
 * bound: once OUTPUT_HIGH_WATER_BYTES are queued for it, the server stops reading
 * from it until the client catches up (backpressure).
 *
 * Minimum kernel: Linux 2.6.28 (accept4, pipe2); poll() itself is as old as Linux 2.1.
 *
 * Usage:     c-poll [--port 9000] [--protocol echo|http] [--backlog 4096]
 *                   [--buffer-bytes 16384]
 * Test with: c-poll --port 9000 &  and then  nc 127.0.0.1 9000   (type; lines come back)
 *            c-poll --protocol http &  and then  wrk -c 100 -d 5s http://127.0.0.1:9000/
 *
 * Simplifications: one thread, so one CPU core; no idle timeouts (a silent client keeps
 * its connection for ever); IPv4 only. The protocols live in protocol.c.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define INITIAL_POLLFDS          64            /* entries in the pollfd array at first; it
                                                  doubles whenever it is full */
#define OUTPUT_HIGH_WATER_BYTES  (256 * 1024)  /* bytes queued for a client before we stop
                                                  reading from it */

/* Settings, set once by main(). */
static struct server_config cfg;
static int stop_fd = -1;        /* readable once SIGTERM or SIGINT arrived */
static int max_fds;             /* size of conns[] and slot_of[]: the most fds we may have */

/* The event loop's state. One thread, so plain globals are enough. */
static struct pollfd *pollfds;  /* what poll() watches: one entry per socket */
static nfds_t pollfd_count;     /* entries in use */
static nfds_t pollfd_capacity;  /* entries allocated */
static int *slot_of;            /* slot_of[fd]: where fd's entry is in pollfds[] */
static bool slots_freed;        /* some entries were closed (fd -1): compact the array */
static int listen_fd = -1;
static bool accept_paused;      /* out of fds: not asking about listen_fd for now */
static struct conn **conns;     /* conns[fd]: the connection on fd, or NULL */
static char *read_buf;          /* every read() lands here first */
static unsigned long accepted;  /* connections this loop has accepted */

/*
 * Relies on: nothing from the kernel yet. The pollfd array is ours, in user memory, and
 * poll() reads it afresh on every call, so watching one more socket is one more entry;
 * there is no registration system call (epoll needs epoll_ctl).
 */
/* ANCHOR: pollfd-array */
static int add_pollfd(int fd, short events)
{
    if (pollfd_count == pollfd_capacity) {
        nfds_t capacity = pollfd_capacity ? 2 * pollfd_capacity : INITIAL_POLLFDS;
        struct pollfd *bigger = realloc(pollfds, capacity * sizeof *pollfds);
        if (bigger == NULL)
            return -1;
        pollfds = bigger;
        pollfd_capacity = capacity;
    }
    slot_of[fd] = (int)pollfd_count;
    pollfds[pollfd_count++] = (struct pollfd){.fd = fd, .events = events};
    return 0;
}

/*
 * Relies on: poll() ignoring an entry whose fd is negative. A closed socket's entry is
 * first set to -1, so the loop that is walking the array can carry on; compact_pollfds()
 * squeezes such holes out afterwards, keeping the array as short as the connections.
 */
static void remove_pollfd(int fd)
{
    pollfds[slot_of[fd]].fd = -1;
    slots_freed = true;
}

/* Relies on: poll() reading .events afresh on every call: no system call needed. */
static void set_watch(int fd, short events)
{
    pollfds[slot_of[fd]].events = events;
}

static void compact_pollfds(void)
{
    nfds_t kept = 0;
    for (nfds_t i = 0; i < pollfd_count; i++) {
        if (pollfds[i].fd < 0)
            continue;
        pollfds[kept] = pollfds[i];
        slot_of[pollfds[kept].fd] = (int)kept;
        kept++;
    }
    pollfd_count = kept;
    slots_freed = false;
}
/* ANCHOR_END: pollfd-array */

static void watch_or_die(int fd, short events)
{
    if (add_pollfd(fd, events) < 0)
        die_errno("realloc() of the pollfd array failed");
}

/* We read from a client unless it has finished sending or too much output waits for it. */
static bool wants_to_read(const struct conn *c)
{
    return !c->read_eof && conn_output_pending(c) < OUTPUT_HIGH_WATER_BYTES;
}

/*
 * Relies on: poll() reading .events afresh on every call, so changing what we wait for
 * is a store into our own array, not a system call. We only ask for POLLOUT while
 * output is queued: an empty send buffer is "writable" almost always, and POLLOUT
 * would wake us for nothing on every poll().
 */
/* ANCHOR: interest */
static void update_interest(struct conn *c)
{
    short events = 0;
    if (wants_to_read(c))
        events |= POLLIN;
    if (conn_output_pending(c) > 0)
        events |= POLLOUT;
    set_watch(c->fd, events);
    c->interest = (uint32_t)events;
}
/* ANCHOR_END: interest */

/* Relies on: nothing but our own array: a closed socket's entry simply goes. */
static void close_connection(struct conn *c)
{
    remove_pollfd(c->fd);
    conns[c->fd] = NULL;
    conn_close(c);

    if (accept_paused) {                    /* a file descriptor is free again */
        set_watch(listen_fd, POLLIN);
        accept_paused = false;
        log_msg("accepting connections again");
    }
}

/*
 * Relies on: accept4() on a non-blocking listening socket returning EAGAIN once the
 * kernel's queue of completed connections is empty. Every poll() call walks the whole
 * array, so we take every waiting connection per call rather than one: a thousand
 * clients arriving at once then cost a few calls, not a thousand.
 * When file descriptors run out (EMFILE), the pending connection stays queued and the
 * socket stays readable: we stop asking about it until a connection closes, rather than
 * spin on an accept that cannot succeed.
 */
/* ANCHOR: accept */
static void handle_accept(void)
{
    for (;;) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;                     /* queue empty */
            if (accept_error_is_transient(errno))
                continue;                   /* that client gave up; try the next one */
            if (accept_error_is_exhaustion(errno)) {
                log_errno("accept4() failed; pausing until a connection closes");
                set_watch(listen_fd, 0);
                accept_paused = true;
                return;
            }
            die_errno("accept4(fd %d) failed", listen_fd);
        }

        struct conn *c = fd < max_fds ? conn_new(fd, &cfg) : NULL;
        if (c == NULL) {
            log_msg("no room for a connection on fd %d; closing it", fd);
            if (close(fd) < 0)
                log_errno("close(fd %d) failed", fd);
            continue;
        }
        c->interest = POLLIN;
        if (add_pollfd(fd, POLLIN) < 0) {
            log_errno("realloc() of the pollfd array failed for fd %d", fd);
            conn_close(c);
            continue;
        }
        conns[fd] = c;
        accepted++;
    }
}
/* ANCHOR_END: accept */

/*
 * Relies on: write() on a non-blocking socket sending what fits in the socket's send
 * buffer and failing with EAGAIN when nothing fits (conn_flush() in protocol.c), and on
 * poll() reporting POLLOUT once there is room again.
 */
/* ANCHOR: write */
static void handle_writable(struct conn *c)
{
    if (conn_flush(c) == FLUSH_ERROR) {
        conn_log_error(c, "write");
        close_connection(c);
        return;
    }
    if (conn_finished(c)) {                 /* client done sending, and all is sent */
        close_connection(c);
        return;
    }
    update_interest(c);                     /* POLLOUT on while output waits, else off */
}
/* ANCHOR_END: write */

/*
 * Relies on: read() on a non-blocking socket returning what has arrived (perhaps less
 * than a whole message, perhaps several), 0 once the client has shut down its sending
 * side, and EAGAIN when nothing is waiting. One read() per event is enough: poll() is
 * level-triggered and reports the socket again next call if bytes remain.
 * Backpressure: we are only called while wants_to_read(), and update_interest() drops
 * POLLIN once replies pile up, so a client that does not read is not read from.
 * Afterwards we try to write the replies at once: usually the send buffer has room,
 * and this saves a trip through poll().
 */
/* ANCHOR: read */
static void handle_readable(struct conn *c)
{
    ssize_t n = read(c->fd, read_buf, cfg.buffer_bytes);
    if (n > 0) {
        if (conn_feed(c, read_buf, (size_t)n) < 0) {
            log_errno("no memory for the output of fd %d", c->fd);
            close_connection(c);
            return;
        }
    } else if (n == 0) {
        c->read_eof = true;                 /* the client shut down its side */
    } else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) {
        conn_log_error(c, "read");
        close_connection(c);
        return;
    }
    handle_writable(c);
}
/* ANCHOR_END: read */

/*
 * Relies on: poll() always reporting POLLERR, POLLHUP and POLLNVAL, even when we did not
 * ask. What went wrong is easiest to learn by trying: the next read() or write() fails
 * with the reason (or read() returns 0), and the handlers close the connection.
 */
static void handle_client_event(struct conn *c, short revents)
{
    if (revents & (POLLERR | POLLHUP | POLLNVAL))
        revents |= POLLIN | POLLOUT;
    if ((revents & POLLIN) && wants_to_read(c))
        handle_readable(c);                 /* reads, then writes what it can */
    else if (revents & POLLOUT)
        handle_writable(c);
}

/*
 * Relies on: poll() sleeping until at least one entry is ready and setting .revents in
 * every entry, and on it failing with EINTR when a signal arrives. Each call copies the
 * whole array into the kernel, which walks every entry (and hangs itself on every
 * socket's wait queue before it sleeps): the cost grows with the number of watched
 * sockets, idle ones included. Then we walk the whole array again to find the ready
 * ones. The stop pipe closes the gap where a signal lands just before poll() starts.
 */
/* ANCHOR: event-loop */
static void run_event_loop(void)
{
    while (!stop_requested()) {
        int ready = poll(pollfds, pollfd_count, -1);
        if (ready < 0) {
            if (errno == EINTR)
                continue;                   /* a signal: the loop condition decides */
            die_errno("poll(%lu fds) failed", (unsigned long)pollfd_count);
        }
        nfds_t watched = pollfd_count;      /* entries accepted below have no events yet */
        for (nfds_t i = 0; i < watched; i++) {
            int fd = pollfds[i].fd;
            short revents = pollfds[i].revents;
            if (fd < 0 || revents == 0)
                continue;                   /* closed in this pass, or not ready */
            if (fd == stop_fd)
                break;                      /* SIGTERM or SIGINT: the loop condition ends it */
            if (fd == listen_fd)
                handle_accept();
            else if (conns[fd] != NULL)
                handle_client_event(conns[fd], revents);
        }
        if (slots_freed)
            compact_pollfds();
    }
}
/* ANCHOR_END: event-loop */

/*
 * Sets up the event loop around a listening socket: a pollfd array watching that socket
 * and the stop pipe, and an empty table of connections.
 */
static void open_event_loop(int listener)
{
    conns = calloc((size_t)max_fds, sizeof *conns);
    slot_of = calloc((size_t)max_fds, sizeof *slot_of);
    read_buf = malloc(cfg.buffer_bytes);
    if (conns == NULL || slot_of == NULL || read_buf == NULL)
        die_errno("malloc() failed");

    listen_fd = listener;
    watch_or_die(listen_fd, POLLIN);
    watch_or_die(stop_fd, POLLIN);
}

/*
 * Closes every connection and frees everything, so a leak checker finds nothing.
 * Returns how many connections were still open.
 */
static int close_event_loop(void)
{
    int open = 0;
    for (int fd = 0; fd < max_fds; fd++) {
        if (conns[fd] != NULL) {
            conn_close(conns[fd]);
            open++;
        }
    }
    if (close(listen_fd) < 0)
        log_errno("close(fd %d) failed", listen_fd);
    free(pollfds);
    free(slot_of);
    free(conns);
    free(read_buf);
    return open;
}

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-poll", argc, argv, NULL, 0);

    stop_fd = signals_init();
    max_fds = raise_fd_limit();
    open_event_loop(listen_on(&cfg, LISTEN_NONBLOCK));

    config_print(&cfg, NULL, 0);
    run_event_loop();
    int open = close_event_loop();
    log_msg("%s received: closed %d connection%s (%lu accepted in all), exiting",
            stop_signal_name(), open, open == 1 ? "" : "s", accepted);
    return 0;
}
