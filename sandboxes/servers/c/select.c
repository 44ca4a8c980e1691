/*
 * select.c - c-select: one thread serves every client with a select() event loop.
 *
 * What it shows: non-blocking sockets plus select(), the oldest way (4.2BSD, 1983) to
 * wait for many sockets at once. The sockets we care about are bits in an fd_set, a
 * bitmap indexed by file descriptor number. select() overwrites the sets it is given
 * with the answer, so we keep master sets and hand it fresh copies on every call;
 * the kernel then checks every descriptor number up to the highest one we pass, and so
 * do we afterwards to find the ready ones. Readiness is level-triggered.
 * The hard limit: glibc's fd_set has a fixed FD_SETSIZE of 1024 bits, so only fds
 * 0..1023 fit in it. This is glibc's limit, not the kernel's (the kernel's select()
 * accepts bigger bitmaps), and raising the file descriptor limit does not help: setting
 * bit 1024 writes past the end of the fd_set. The server therefore refuses, closing at
 * once, any connection that arrives on an fd of 1024 or more, and keeps serving the
 * others: with six fds of its own (stdin, stdout, stderr, the signal pipe's two ends,
 * the listening socket) that leaves room for 1018 clients.
 * A client that sends but never reads cannot make the server's memory grow without
 * bound: once OUTPUT_HIGH_WATER_BYTES are queued for it, the server stops reading
 * from it until the client catches up (backpressure).
 *
 * Minimum kernel: Linux 2.6.28 (accept4, pipe2); select() itself is as old as Linux.
 *
 * Usage:     c-select [--port 9000] [--protocol echo|http] [--backlog 4096]
 *                     [--buffer-bytes 16384]
 * Test with: c-select --port 9000 &  and then  nc 127.0.0.1 9000   (type; lines come back)
 *            c-select --protocol http &  and then  wrk -c 100 -d 5s http://127.0.0.1:9000/
 *
 * Simplifications: one thread, so one CPU core; no idle timeouts (a silent client keeps
 * its connection for ever); IPv4 only. The protocols live in protocol.c.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_HIGH_WATER_BYTES  (256 * 1024)  /* bytes queued for a client before we stop
                                                  reading from it */
#define REFUSAL_LOG_INTERVAL_MS  1000          /* at most one "refusing fd" message this
                                                  often: a burst of refusals is one line */

/* What we wait for on a socket (in c->interest), and what select() reported. */
enum { READABLE = 1, WRITABLE = 2 };

/* Settings, set once by main(). */
static struct server_config cfg;
static int stop_fd = -1;        /* readable once SIGTERM or SIGINT arrived */

/* The event loop's state. One thread, so plain globals are enough. */
static fd_set read_watch;       /* master sets: the fds we wait on. select() gets copies */
static fd_set write_watch;
static int max_fd = -1;         /* the highest fd in either master set */
static int listen_fd = -1;
static bool accept_paused;      /* out of fds: not asking about listen_fd for now */
static struct conn *conns[FD_SETSIZE];   /* conns[fd]: the connection on fd, or NULL */
static char *read_buf;          /* every read() lands here first */
static unsigned long accepted;  /* connections this loop has accepted */
static unsigned long refused;   /* connections closed at once: fd >= FD_SETSIZE */

/*
 * Relies on: nothing from the kernel yet. The fd_sets are ours, in user memory, and
 * select() reads (and overwrites) copies of them on every call, so changing what we
 * wait for is setting or clearing a bit; there is no registration system call (epoll
 * needs epoll_ctl). FD_SET() on an fd >= FD_SETSIZE would write past the bitmap, so
 * every fd that reaches here has been checked. We keep max_fd up to date because
 * select() must be told how far to look.
 */
/* ANCHOR: fd-set */
static void set_watch(int fd, int events)
{
    if (events & READABLE)
        FD_SET(fd, &read_watch);
    else
        FD_CLR(fd, &read_watch);
    if (events & WRITABLE)
        FD_SET(fd, &write_watch);
    else
        FD_CLR(fd, &write_watch);

    if (events != 0 && fd > max_fd)
        max_fd = fd;
    while (max_fd >= 0 && !FD_ISSET(max_fd, &read_watch) && !FD_ISSET(max_fd, &write_watch))
        max_fd--;                           /* the highest one went: look further down */
}
/* ANCHOR_END: fd-set */

static void watch_or_die(int fd, int events)
{
    if (fd >= FD_SETSIZE) {
        log_msg("fd %d is not below FD_SETSIZE (%d): select() cannot watch it", fd,
                FD_SETSIZE);
        exit(1);
    }
    set_watch(fd, events);
}

/* We read from a client unless it has finished sending or too much output waits for it. */
static bool wants_to_read(const struct conn *c)
{
    return !c->read_eof && conn_output_pending(c) < OUTPUT_HIGH_WATER_BYTES;
}

/*
 * Relies on: select() looking at our sets afresh on every call, so changing what we wait
 * for is a bit in our own memory, not a system call. We only ask about writability while
 * output is queued: an empty send buffer is "writable" almost always, and select() would
 * return at once, for nothing, on every call.
 */
/* ANCHOR: interest */
static void update_interest(struct conn *c)
{
    int events = 0;
    if (wants_to_read(c))
        events |= READABLE;
    if (conn_output_pending(c) > 0)
        events |= WRITABLE;
    set_watch(c->fd, events);
    c->interest = (uint32_t)events;
}
/* ANCHOR_END: interest */

/* Relies on: nothing but our own sets: a closed socket's bits are simply cleared. */
static void close_connection(struct conn *c)
{
    set_watch(c->fd, 0);
    conns[c->fd] = NULL;
    conn_close(c);

    if (accept_paused) {                    /* a file descriptor is free again */
        set_watch(listen_fd, READABLE);
        accept_paused = false;
        log_msg("accepting connections again");
    }
}

/* Milliseconds on a clock that never jumps, for rate-limiting messages. */
static long long now_ms(void)
{
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) < 0)
        die_errno("clock_gettime(CLOCK_MONOTONIC) failed");
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/*
 * Relies on: the kernel handing out the lowest free fd number on accept(), so an fd of
 * FD_SETSIZE or more means every number below it is taken. Such a connection cannot go
 * into an fd_set, so we close it at once (the client reads end-of-stream, or a reset if
 * it had already sent something) and carry on serving the others. A crowd of clients
 * arriving at the limit would log one line each; instead the first refusal of a burst
 * is logged, and then at most one line per REFUSAL_LOG_INTERVAL_MS, with a count.
 */
/* ANCHOR: refuse */
static void refuse(int fd)
{
    static long long last_log_ms = -REFUSAL_LOG_INTERVAL_MS;
    static unsigned long unlogged;          /* refused since the last message */

    refused++;
    unlogged++;
    long long now = now_ms();
    if (now - last_log_ms >= REFUSAL_LOG_INTERVAL_MS) {
        log_msg("refusing connections: accept4() returned fd %d, but select() can only "
                "watch fds below FD_SETSIZE (%d), the fixed size of glibc's fd_set; "
                "closed %lu connection%s since the last message",
                fd, FD_SETSIZE, unlogged, unlogged == 1 ? "" : "s");
        last_log_ms = now;
        unlogged = 0;
    }
    if (close(fd) < 0)
        log_errno("close(fd %d) failed", fd);
}
/* ANCHOR_END: refuse */

/*
 * Relies on: accept4() on a non-blocking listening socket returning EAGAIN once the
 * kernel's queue of completed connections is empty. Every select() call scans every fd
 * number up to max_fd, so we take every waiting connection per call rather than one:
 * a thousand clients arriving at once then cost a few calls, not a thousand.
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
        if (fd >= FD_SETSIZE) {
            refuse(fd);                     /* never FD_SET() it: it is past the bitmap */
            continue;
        }

        struct conn *c = conn_new(fd, &cfg);
        if (c == NULL) {
            log_msg("no room for a connection on fd %d; closing it", fd);
            if (close(fd) < 0)
                log_errno("close(fd %d) failed", fd);
            continue;
        }
        c->interest = READABLE;
        set_watch(fd, READABLE);
        conns[fd] = c;
        accepted++;
    }
}
/* ANCHOR_END: accept */

/*
 * Relies on: write() on a non-blocking socket sending what fits in the socket's send
 * buffer and failing with EAGAIN when nothing fits (conn_flush() in protocol.c), and on
 * select() reporting the socket writable once there is room again.
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
    update_interest(c);                     /* writability on while output waits, else off */
}
/* ANCHOR_END: write */

/*
 * Relies on: read() on a non-blocking socket returning what has arrived (perhaps less
 * than a whole message, perhaps several), 0 once the client has shut down its sending
 * side, and EAGAIN when nothing is waiting. One read() per event is enough: select() is
 * level-triggered and reports the socket again next call if bytes remain.
 * Backpressure: we are only called while wants_to_read(), and update_interest() stops
 * asking about readability once replies pile up, so a client that does not read is not
 * read from.
 * Afterwards we try to write the replies at once: usually the send buffer has room,
 * and this saves a trip through select().
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
 * Relies on: select() reporting a socket with an error (or a reset) as readable and
 * writable, so that the next read() or write() fails with the reason (or read()
 * returns 0), and the handlers close the connection. select() has no separate
 * "hang-up" or "error" answer for sockets.
 */
static void handle_client_event(struct conn *c, int events)
{
    if ((events & READABLE) && wants_to_read(c))
        handle_readable(c);                 /* reads, then writes what it can */
    else if (events & WRITABLE)
        handle_writable(c);
}

/*
 * Relies on: select() sleeping until at least one fd in the sets is ready, overwriting
 * the sets with just the ready ones, and failing with EINTR when a signal arrives.
 * Because it overwrites them, we rebuild its sets from the master sets before every
 * call. Each call copies the bitmaps into the kernel, which checks every fd number from
 * 0 to max_fd (and hangs itself on every watched socket's wait queue before it sleeps);
 * then we scan 0..max_fd again to find the ready ones. The cost grows with the highest
 * fd, idle connections included. The stop pipe closes the gap where a signal lands just
 * before select() starts.
 */
/* ANCHOR: event-loop */
static void run_event_loop(void)
{
    while (!stop_requested()) {
        fd_set readable = read_watch;       /* select() overwrites these: fresh copies */
        fd_set writable = write_watch;
        int highest = max_fd;               /* fds accepted below were not asked about */
        int ready = select(highest + 1, &readable, &writable, NULL, NULL);
        if (ready < 0) {
            if (errno == EINTR)
                continue;                   /* a signal: the loop condition decides */
            die_errno("select(%d fds) failed", highest + 1);
        }
        for (int fd = 0; fd <= highest; fd++) {
            int events = (FD_ISSET(fd, &readable) ? READABLE : 0) |
                         (FD_ISSET(fd, &writable) ? WRITABLE : 0);
            if (events == 0)
                continue;                   /* not ready */
            if (fd == stop_fd)
                break;                      /* SIGTERM or SIGINT: the loop condition ends it */
            if (fd == listen_fd)
                handle_accept();
            else if (conns[fd] != NULL)
                handle_client_event(conns[fd], events);
        }
    }
}
/* ANCHOR_END: event-loop */

/*
 * Relies on: the kernel handing out the lowest free fd number, so the fds the server
 * holds itself are 0..N-1 and the first client gets N. fcntl(F_DUPFD, 0) asks for that
 * lowest free number (we close the copy at once).
 */
static int fds_in_use(void)
{
    int lowest_free = fcntl(listen_fd, F_DUPFD_CLOEXEC, 0);
    if (lowest_free < 0)
        die_errno("fcntl(fd %d, F_DUPFD_CLOEXEC) failed", listen_fd);
    if (close(lowest_free) < 0)
        die_errno("close(fd %d) failed", lowest_free);
    return lowest_free;
}

/*
 * Sets up the event loop around a listening socket: master fd_sets watching that socket
 * and the stop pipe, and an empty table of connections.
 */
static void open_event_loop(int listener)
{
    read_buf = malloc(cfg.buffer_bytes);
    if (read_buf == NULL)
        die_errno("malloc() failed");

    FD_ZERO(&read_watch);
    FD_ZERO(&write_watch);
    listen_fd = listener;
    watch_or_die(listen_fd, READABLE);
    watch_or_die(stop_fd, READABLE);
}

/*
 * Closes every connection and frees everything, so a leak checker finds nothing.
 * Returns how many connections were still open.
 */
static int close_event_loop(void)
{
    int open = 0;
    for (int fd = 0; fd < FD_SETSIZE; fd++) {
        if (conns[fd] != NULL) {
            conn_close(conns[fd]);
            open++;
        }
    }
    if (close(listen_fd) < 0)
        log_errno("close(fd %d) failed", listen_fd);
    free(read_buf);
    return open;
}

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-select", argc, argv, NULL, 0);

    stop_fd = signals_init();
    int fd_limit = raise_fd_limit();        /* as every server does; select() can't use it */
    open_event_loop(listen_on(&cfg, LISTEN_NONBLOCK));

    int own = fds_in_use();
    log_msg("the fd limit is %d, but select() can watch only fds 0..%d (FD_SETSIZE, the "
            "fixed size of glibc's fd_set); fds 0..%d are the server's own, leaving room "
            "for %d clients", fd_limit, FD_SETSIZE - 1, own - 1, FD_SETSIZE - own);
    config_print(&cfg, NULL, 0);
    run_event_loop();
    int open = close_event_loop();
    log_msg("%s received: closed %d connection%s (%lu accepted, %lu refused in all), "
            "exiting", stop_signal_name(), open, open == 1 ? "" : "s", accepted, refused);
    return 0;
}
