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
 * its connection for ever); IPv4 only. What every readiness loop does alike (the
 * connection table, reading with backpressure, sending) is in readiness.c; the protocols
 * are in protocol.c.
 */
#define _GNU_SOURCE
#include "readiness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

#define REFUSAL_LOG_INTERVAL_MS  1000          /* at most one "refusing fd" message this
                                                  often: a burst of refusals is one line */

/* The event loop's state. One thread, so plain globals are enough. */
static fd_set read_watch;       /* master sets: the fds we wait on. select() gets copies */
static fd_set write_watch;
static int max_fd = -1;         /* the highest fd in either master set */
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
int rewatch_fd(int fd, unsigned wants)
{
    if (wants & WANT_READ)
        FD_SET(fd, &read_watch);
    else
        FD_CLR(fd, &read_watch);
    if (wants & WANT_WRITE)
        FD_SET(fd, &write_watch);
    else
        FD_CLR(fd, &write_watch);

    if (wants != 0 && fd > max_fd)
        max_fd = fd;
    while (max_fd >= 0 && !FD_ISSET(max_fd, &read_watch) && !FD_ISSET(max_fd, &write_watch))
        max_fd--;                           /* the highest one went: look further down */
    return 0;
}

int watch_fd(int fd, unsigned wants)
{
    if (fd >= FD_SETSIZE) {
        log_msg("fd %d is not below FD_SETSIZE (%d): select() cannot watch it", fd,
                FD_SETSIZE);
        errno = EBADF;
        return -1;
    }
    return rewatch_fd(fd, wants);
}

void unwatch_fd(int fd)
{
    rewatch_fd(fd, 0);
}
/* ANCHOR_END: fd-set */

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
 * Every select() call scans every fd number up to max_fd, so we take every waiting
 * connection per call (until EAGAIN) rather than one: a thousand clients arriving at
 * once then cost a few calls, not a thousand. An fd past the bitmap is refused.
 */
/* ANCHOR: accept */
static void handle_accept(void)
{
    for (;;) {
        int fd = loop_accept();
        if (fd == ACCEPT_EMPTY || fd == ACCEPT_PAUSED)
            return;
        if (fd >= FD_SETSIZE)
            refuse(fd);                     /* never FD_SET() it: it is past the bitmap */
        else if (fd >= 0)
            loop_add_connection(fd);
    }
}
/* ANCHOR_END: accept */

/*
 * One read() per event is enough: select() is level-triggered and reports the socket
 * again next call if bytes remain. Afterwards we try to send the replies at once:
 * usually the send buffer has room, and this saves a trip through select().
 */
/* ANCHOR: read */
static void handle_readable(struct conn *c)
{
    if (loop_read(c) != READ_CLOSED)
        loop_send(c);
}
/* ANCHOR_END: read */

/*
 * Relies on: select() reporting a socket with an error (or a reset) as readable and
 * writable, so that the next read() or write() fails with the reason (or read()
 * returns 0), and the connection is closed. select() has no separate "hang-up" or
 * "error" answer for sockets.
 */
static void handle_client_event(struct conn *c, unsigned ready)
{
    if ((ready & WANT_READ) && loop_wants_to_read(c))
        handle_readable(c);                 /* reads, then sends what it can */
    else if (ready & WANT_WRITE)
        loop_send(c);
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
            unsigned events = (FD_ISSET(fd, &readable) ? WANT_READ : 0) |
                              (FD_ISSET(fd, &writable) ? WANT_WRITE : 0);
            struct conn *c;
            if (events == 0)
                continue;                   /* not ready */
            if (loop_is_stop(fd))
                break;                      /* SIGTERM or SIGINT: the loop condition ends it */
            if (loop_is_listener(fd))
                handle_accept();
            else if ((c = loop_conn(fd)) != NULL)
                handle_client_event(c, events);
        }
    }
}
/* ANCHOR_END: event-loop */

/*
 * Relies on: the kernel handing out the lowest free fd number, so the fds the server
 * holds itself are 0..N-1 and the first client gets N. fcntl(F_DUPFD, 0) asks for that
 * lowest free number (we close the copy at once).
 */
static int fds_in_use(int listen_fd)
{
    int lowest_free = fcntl(listen_fd, F_DUPFD_CLOEXEC, 0);
    if (lowest_free < 0)
        die_errno("fcntl(fd %d, F_DUPFD_CLOEXEC) failed", listen_fd);
    if (close(lowest_free) < 0)
        die_errno("close(fd %d) failed", lowest_free);
    return lowest_free;
}

int main(int argc, char **argv)
{
    struct server_config cfg;
    config_parse(&cfg, "c-select", argc, argv, NULL, 0);

    int stop_fd = signals_init();
    int fd_limit = raise_fd_limit();        /* as every server does; select() can't use it */
    int listener = listen_on(&cfg, LISTEN_NONBLOCK);
    loop_open(&cfg, listener, stop_fd, FD_SETSIZE);

    int own = fds_in_use(listener);
    log_msg("the fd limit is %d, but select() can watch only fds 0..%d (FD_SETSIZE, the "
            "fixed size of glibc's fd_set); fds 0..%d are the server's own, leaving room "
            "for %d clients", fd_limit, FD_SETSIZE - 1, own - 1, FD_SETSIZE - own);
    config_print(&cfg, NULL, 0);
    run_event_loop();
    int open = loop_close();
    log_msg("%s received: closed %d connection%s (%lu accepted, %lu refused in all), "
            "exiting", stop_signal_name(), open, open == 1 ? "" : "s", loop_accepted(),
            refused);
    return 0;
}
