/*
 * epoll.c - c-epoll: one thread serves every client with an epoll event loop.
 *
 * What it shows: non-blocking sockets plus epoll. The kernel keeps the list of
 * sockets we care about (the "interest list"); epoll_wait() sleeps until some of them
 * are ready and returns just those, so the cost of a wake-up follows the number of
 * *ready* sockets, not the number of connections. Level-triggered (lt) readiness is
 * reported again and again while it lasts; edge-triggered (et) only when it begins,
 * so the server must then read (or accept) until the kernel says EAGAIN.
 * A client that sends but never reads cannot make the server's memory grow without
 * bound: once OUTPUT_HIGH_WATER_BYTES are queued for it, the server stops reading
 * from it until the client catches up (backpressure).
 * For the zero-copy lesson, the http replies can carry a body of --body-bytes, sent either
 * by copying it (--send copy: write() from our memory) or by sendfile() from a file
 * (--send sendfile): the event loop is the same, only protocol.c's conn_flush() differs.
 *
 * Minimum kernel: Linux 3.17 (memfd_create, for --send sendfile); otherwise 2.6.28
 * (epoll_create1, accept4, pipe2).
 *
 * Usage:     c-epoll [--port 9000] [--protocol echo|http] [--trigger lt|et]
 *                    [--send copy|sendfile] [--body-bytes 20] [--backlog 4096]
 *                    [--buffer-bytes 16384]
 * Test with: c-epoll --port 9000 &  and then  nc 127.0.0.1 9000   (type; lines come back)
 *            c-epoll --protocol http &  and then  wrk -c 100 -d 5s http://127.0.0.1:9000/
 *            c-epoll --protocol http --send sendfile --body-bytes 1048576 &  and then
 *            curl -s http://127.0.0.1:9000/ | wc -c
 *
 * Simplifications: one thread, so one CPU core (c-epoll-reuseport, in epoll-reuseport.c,
 * runs this same event loop once per core); no idle timeouts (a silent client keeps its
 * connection for ever); IPv4 only. The protocols live in protocol.c.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_EVENTS               512           /* events taken from one epoll_wait() call */
#define OUTPUT_HIGH_WATER_BYTES  (256 * 1024)  /* bytes queued for a client before we stop
                                                  reading from it */

static const char *const trigger_choices[] = {"lt", "et", NULL};
enum { TRIGGER_LT, TRIGGER_ET };
static const char *const send_choices[] = {"copy", "sendfile", NULL};

/* Settings, set once by main() and the same for every event loop in the process. */
static struct server_config cfg;
static bool edge_triggered;     /* --trigger et */
static int stop_fd = -1;        /* readable once SIGTERM or SIGINT arrived */
static int max_fds;             /* size of conns[]: the most file descriptors we may have */

/*
 * One event loop's state. c-epoll runs one loop, so these could be plain globals;
 * _Thread_local gives every thread its own copy, which lets c-epoll-reuseport run this
 * same loop in several threads that share nothing (and so need no locks).
 */
static _Thread_local int epfd = -1;           /* the epoll instance */
static _Thread_local int listen_fd = -1;
static _Thread_local bool accept_paused;      /* out of fds: listen_fd taken off the list */
static _Thread_local struct conn **conns;     /* conns[fd]: the connection on fd, or NULL */
static _Thread_local char *read_buf;          /* every read() lands here first */
static _Thread_local unsigned long accepted;  /* connections this loop has accepted */

/* EPOLLET when running edge-triggered, 0 when level-triggered. */
static uint32_t trigger_flag(void)
{
    return edge_triggered ? EPOLLET : 0;
}

/*
 * Relies on: epoll_ctl(ADD) putting fd on the epoll instance's interest list, where it
 * stays until we remove it or the socket is closed.
 */
static void watch_or_die(int fd, uint32_t events)
{
    struct epoll_event ev = {.events = events, .data.fd = fd};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
        die_errno("epoll_ctl(ADD, fd %d) failed", fd);
}

/*
 * We read from a client unless it has finished sending, too much output waits for it, or
 * the protocol still holds requests back (with --send sendfile, one reply at a time).
 */
static bool wants_to_read(const struct conn *c)
{
    return !c->read_eof && conn_output_pending(c) < OUTPUT_HIGH_WATER_BYTES &&
           conn_caught_up(c);
}

/*
 * Relies on: epoll_ctl(MOD) replacing the events we wait for, and on it checking the
 * socket's readiness at once, so turning EPOLLIN back on reports data that is already
 * waiting, even edge-triggered. We only ask for EPOLLOUT while output is queued: an
 * empty send buffer is "writable" almost always, and level-triggered EPOLLOUT would
 * wake us for nothing on every epoll_wait().
 */
/* ANCHOR: interest */
static int update_interest(struct conn *c)
{
    uint32_t events = trigger_flag();
    if (wants_to_read(c))
        events |= EPOLLIN;
    if (conn_output_pending(c) > 0)
        events |= EPOLLOUT;
    if (events == c->interest)
        return 0;                           /* nothing changed: save a system call */

    struct epoll_event ev = {.events = events, .data.fd = c->fd};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0) {
        log_errno("epoll_ctl(MOD, fd %d) failed", c->fd);
        return -1;
    }
    c->interest = events;
    return 0;
}
/* ANCHOR_END: interest */

/*
 * Relies on: close() removing the socket from every epoll interest list (it is the last
 * file descriptor for that socket: we never dup() or fork()).
 */
static void close_connection(struct conn *c)
{
    conns[c->fd] = NULL;
    conn_close(c);

    if (accept_paused) {                    /* a file descriptor is free again */
        watch_or_die(listen_fd, EPOLLIN | trigger_flag());
        accept_paused = false;
        log_msg("accepting connections again");
    }
}

/*
 * Relies on: accept4() on a non-blocking listening socket returning EAGAIN once the
 * kernel's queue of completed connections is empty. Level-triggered, we take one
 * connection per event (epoll reports the socket again while more wait); edge-triggered,
 * we must empty the queue, because no new event comes for connections already queued.
 * When file descriptors run out (EMFILE), the pending connection stays queued and the
 * socket stays readable: we stop watching it until a connection closes, rather than
 * spin on an accept that cannot succeed.
 */
/* ANCHOR: accept */
static void handle_accept(void)
{
    do {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;                     /* queue empty */
            if (accept_error_is_transient(errno))
                continue;                   /* that client gave up; try the next one */
            if (accept_error_is_exhaustion(errno)) {
                log_errno("accept4() failed; pausing until a connection closes");
                if (epoll_ctl(epfd, EPOLL_CTL_DEL, listen_fd, NULL) < 0)
                    die_errno("epoll_ctl(DEL, fd %d) failed", listen_fd);
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
        c->interest = EPOLLIN | trigger_flag();
        struct epoll_event ev = {.events = c->interest, .data.fd = fd};
        if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
            log_errno("epoll_ctl(ADD, fd %d) failed", fd);
            conn_close(c);
            continue;
        }
        conns[fd] = c;
        accepted++;
    } while (edge_triggered);
}
/* ANCHOR_END: accept */

/*
 * Relies on: write() on a non-blocking socket sending what fits in the socket's send
 * buffer and failing with EAGAIN when nothing fits (conn_flush() in protocol.c), and on
 * epoll reporting EPOLLOUT once there is room again.
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
    if (update_interest(c) < 0)             /* EPOLLOUT on while output waits, else off */
        close_connection(c);
}
/* ANCHOR_END: write */

/*
 * Relies on: read() on a non-blocking socket returning what has arrived (perhaps less
 * than a whole message, perhaps several), 0 once the client has shut down its sending
 * side, and EAGAIN when nothing is waiting. Level-triggered, one read() per event is
 * enough: epoll reports the socket again if bytes remain. Edge-triggered, we read until
 * EAGAIN, because the next event comes only when new bytes arrive.
 * The one exception is backpressure: when replies pile up we send some first, and if
 * they still don't fit in the kernel, we stop reading early. update_interest() then
 * drops EPOLLIN, and the epoll_ctl(MOD) that later restores it reports the bytes left
 * waiting, so even edge-triggered nothing is lost.
 * Afterwards we try to write the replies at once: usually the send buffer has room,
 * and this saves a trip through epoll_wait().
 */
/* ANCHOR: read */
static void handle_readable(struct conn *c)
{
    while (!c->read_eof) {
        if (!wants_to_read(c)) {
            if (conn_flush(c) == FLUSH_ERROR) {
                conn_log_error(c, "write");
                close_connection(c);
                return;
            }
            if (!wants_to_read(c))
                break;                      /* the client isn't reading: nor do we */
        }

        ssize_t n = read(c->fd, read_buf, cfg.buffer_bytes);
        if (n > 0) {
            if (conn_feed(c, read_buf, (size_t)n) < 0) {
                log_errno("no memory for the output of fd %d", c->fd);
                close_connection(c);
                return;
            }
        } else if (n == 0) {
            c->read_eof = true;             /* the client shut down its side */
        } else if (errno == EINTR) {
            continue;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            break;                          /* nothing more to read for now */
        } else {
            conn_log_error(c, "read");
            close_connection(c);
            return;
        }
        if (!edge_triggered)
            break;
    }
    handle_writable(c);
}
/* ANCHOR_END: read */

/*
 * Relies on: epoll always reporting EPOLLERR and EPOLLHUP, even when we did not ask.
 * What went wrong is easiest to learn by trying: the next read() or write() fails with
 * the reason (or read() returns 0), and the handlers close the connection.
 */
static void handle_client_event(struct conn *c, uint32_t events)
{
    if (events & (EPOLLERR | EPOLLHUP))
        events |= EPOLLIN | EPOLLOUT;
    if ((events & EPOLLIN) && wants_to_read(c))
        handle_readable(c);                 /* reads, then writes what it can */
    else if (events & EPOLLOUT)
        handle_writable(c);
}

/*
 * Relies on: epoll_wait() sleeping until at least one watched file descriptor is ready
 * and returning only the ready ones, and on it failing with EINTR when a signal arrives.
 * The stop pipe closes the gap where a signal lands just before epoll_wait() starts.
 */
/* ANCHOR: event-loop */
static void run_event_loop(void)
{
    struct epoll_event events[MAX_EVENTS];

    while (!stop_requested()) {
        int ready = epoll_wait(epfd, events, MAX_EVENTS, -1);
        if (ready < 0) {
            if (errno == EINTR)
                continue;                   /* a signal: the loop condition decides */
            die_errno("epoll_wait(fd %d) failed", epfd);
        }
        for (int i = 0; i < ready; i++) {
            int fd = events[i].data.fd;
            if (fd == stop_fd)
                break;                      /* SIGTERM or SIGINT: the loop condition ends it */
            if (fd == listen_fd)
                handle_accept();
            else if (conns[fd] != NULL)
                handle_client_event(conns[fd], events[i].events);
        }
    }
}
/* ANCHOR_END: event-loop */

/*
 * Sets up one event loop around a listening socket: an epoll instance watching that
 * socket and the stop pipe, and an empty table of connections.
 */
/* ANCHOR: epoll-create */
static void open_event_loop(int listener)
{
    conns = calloc((size_t)max_fds, sizeof *conns);
    read_buf = malloc(cfg.buffer_bytes);
    if (conns == NULL || read_buf == NULL)
        die_errno("malloc() failed");

    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0)
        die_errno("epoll_create1() failed");
    listen_fd = listener;
    watch_or_die(listen_fd, EPOLLIN | trigger_flag());
    watch_or_die(stop_fd, EPOLLIN);
}
/* ANCHOR_END: epoll-create */

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
    if (close(epfd) < 0)
        log_errno("close(fd %d) failed", epfd);
    free(conns);
    free(read_buf);
    return open;
}

/* ---- the c-epoll program: one event loop, run by the main thread ---------------------- */
#ifndef EPOLL_EVENT_LOOP_ONLY   /* defined by epoll-reuseport.c, which has its own main() */

static struct knob knobs[] = {
    {.name = "trigger", .flag = "--trigger", .choices = trigger_choices, .value = TRIGGER_LT,
     .help = "level- (lt) or edge-triggered (et) readiness"},
    {.name = "send", .flag = "--send", .choices = send_choices, .value = SEND_COPY,
     .help = "http: send the body with write() from memory (copy) or by sendfile() from "
             "a file (sendfile)"},
    {.name = "body_bytes", .flag = "--body-bytes", .min = 1, .max = MAX_BODY_BYTES,
     .value = DEFAULT_BODY_BYTES, .help = "http: bytes in each reply's body"},
};
enum { KNOB_TRIGGER, KNOB_SEND, KNOB_BODY_BYTES };

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-epoll", argc, argv, knobs, KNOB_COUNT(knobs));
    edge_triggered = knobs[KNOB_TRIGGER].value == TRIGGER_ET;
    http_body_setup((size_t)knobs[KNOB_BODY_BYTES].value, (enum send_mode)knobs[KNOB_SEND].value);

    stop_fd = signals_init();
    max_fds = raise_fd_limit();
    open_event_loop(listen_on(&cfg, LISTEN_NONBLOCK));

    config_print(&cfg, knobs, KNOB_COUNT(knobs));
    run_event_loop();
    int open = close_event_loop();
    log_msg("%s received: closed %d connection%s (%lu accepted in all), exiting",
            stop_signal_name(), open, open == 1 ? "" : "s", accepted);
    return 0;
}

#endif
