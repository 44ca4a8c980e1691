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
 * For the zero-copy lesson it takes protocol.h's --send and --body-bytes knobs: the
 * event loop is the same whether replies are copied or sent by sendfile().
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
 * connection for ever); IPv4 only. What every readiness loop does alike (the connection
 * table, reading with backpressure, sending) is in readiness.c; the protocols are in
 * protocol.c.
 */
#define _GNU_SOURCE
#include "epoll.h"
#include "readiness.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/epoll.h>
#include <unistd.h>

#define MAX_EVENTS  512         /* events taken from one epoll_wait() call */

const char *const trigger_choices[] = {"lt", "et", NULL};

/*
 * This thread's loop. c-epoll runs one loop; c-epoll-reuseport runs one per thread, and
 * _Thread_local gives each its own copy, so the threads share nothing.
 */
static _Thread_local int epfd = -1;              /* the epoll instance */
static _Thread_local bool edge_triggered;        /* --trigger et */

/* The epoll events for what the loop wants, edge-triggered or not. */
static uint32_t epoll_events(unsigned wants)
{
    return ((wants & WANT_READ) ? EPOLLIN : 0) | ((wants & WANT_WRITE) ? EPOLLOUT : 0) |
           (edge_triggered ? EPOLLET : 0);
}

/*
 * Relies on: epoll_ctl(ADD) putting fd on the epoll instance's interest list, where it
 * stays until we remove it or the socket is closed. The kernel keeps the list: after
 * this one call, epoll_wait() never needs to be told about fd again.
 */
/* ANCHOR: interest */
int watch_fd(int fd, unsigned wants)
{
    struct epoll_event ev = {.events = epoll_events(wants), .data.fd = fd};
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

/*
 * Relies on: epoll_ctl(MOD) replacing the events we wait for, and on it checking the
 * socket's readiness at once, so turning EPOLLIN back on reports data that is already
 * waiting, even edge-triggered. Changing interest is a system call here, where select and
 * poll change a bit or a field in our own memory: readiness.c calls this only when the
 * interest really changed.
 */
int rewatch_fd(int fd, unsigned wants)
{
    struct epoll_event ev = {.events = epoll_events(wants), .data.fd = fd};
    return epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
}

/*
 * Relies on: close() removing the socket from every epoll interest list (it is the last
 * file descriptor for that socket: we never dup() or fork()), so there is nothing to do.
 */
void unwatch_fd(int fd)
{
    (void)fd;
}
/* ANCHOR_END: interest */

/*
 * Level-triggered, we take one connection per event: epoll reports the listening socket
 * again while more wait. Edge-triggered, we must empty the queue, until EAGAIN, because
 * no new event comes for connections already queued.
 */
/* ANCHOR: accept */
static void handle_accept(void)
{
    do {
        int fd = loop_accept();
        if (fd == ACCEPT_EMPTY || fd == ACCEPT_PAUSED)
            return;
        if (fd >= 0)
            loop_add_connection(fd);
    } while (edge_triggered);
}
/* ANCHOR_END: accept */

/*
 * Level-triggered, one read() per event is enough: epoll reports the socket again if
 * bytes remain. Edge-triggered, we read until EAGAIN, because the next event comes only
 * when new bytes arrive: bytes left unread now would wait for ever.
 * Afterwards we try to send the replies at once: usually the send buffer has room, and
 * this saves a trip through epoll_wait().
 */
/* ANCHOR: read */
static void handle_readable(struct conn *c)
{
    enum read_result r;
    do
        r = loop_read(c);
    while (edge_triggered && r == READ_AGAIN);
    if (r != READ_CLOSED)
        loop_send(c);
}
/* ANCHOR_END: read */

/*
 * Relies on: epoll always reporting EPOLLERR and EPOLLHUP, even when we did not ask.
 * What went wrong is easiest to learn by trying: the next read() or write() fails with
 * the reason (or read() returns 0), and the connection is closed.
 */
static void handle_client_event(struct conn *c, uint32_t events)
{
    if (events & (EPOLLERR | EPOLLHUP))
        events |= EPOLLIN | EPOLLOUT;
    if ((events & EPOLLIN) && loop_wants_to_read(c))
        handle_readable(c);                 /* reads, then sends what it can */
    else if (events & EPOLLOUT)
        loop_send(c);
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
            struct conn *c;
            if (loop_is_stop(fd))
                break;                      /* SIGTERM or SIGINT: the loop condition ends it */
            if (loop_is_listener(fd))
                handle_accept();
            else if ((c = loop_conn(fd)) != NULL)
                handle_client_event(c, events[i].events);
        }
    }
}
/* ANCHOR_END: event-loop */

/*
 * One event loop around a listening socket: an epoll instance watching that socket and
 * the stop pipe, run until a stop signal, then everything closed again.
 */
/* ANCHOR: epoll-create */
struct loop_totals epoll_serve(const struct server_config *cfg, int listener, int stop_fd,
                               int max_fds, bool edge)
{
    edge_triggered = edge;
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0)
        die_errno("epoll_create1() failed");
    loop_open(cfg, listener, stop_fd, max_fds);   /* watches listener and stop_fd */

    run_event_loop();

    struct loop_totals totals = {.open = loop_close(), .accepted = loop_accepted()};
    close_or_log(epfd);
    return totals;
}
/* ANCHOR_END: epoll-create */

/* ---- the c-epoll program: one event loop, run by the main thread ---------------------- */
#ifndef EPOLL_LOOP_ONLY   /* defined when building c-epoll-reuseport, which has its own main() */

static struct knob knobs[] = {
    EPOLL_TRIGGER_KNOB,
    HTTP_BODY_KNOBS,
};
enum { KNOB_TRIGGER, KNOB_HTTP_BODY };

int main(int argc, char **argv)
{
    struct server_config cfg;
    config_parse(&cfg, "c-epoll", argc, argv, knobs, KNOB_COUNT(knobs));
    http_body_setup_from_knobs(&knobs[KNOB_HTTP_BODY]);

    int stop_fd = signals_init();
    int max_fds = raise_fd_limit();
    int listener = listen_on(&cfg, LISTEN_NONBLOCK);
    config_print(&cfg, knobs, KNOB_COUNT(knobs));

    struct loop_totals totals = epoll_serve(&cfg, listener, stop_fd, max_fds,
                                            knobs[KNOB_TRIGGER].value == TRIGGER_ET);
    log_msg("%s received: closed %d connection%s (%lu accepted in all), exiting",
            stop_signal_name(), totals.open, totals.open == 1 ? "" : "s", totals.accepted);
    return 0;
}

#endif
