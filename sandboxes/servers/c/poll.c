/*
 * poll.c - c-poll: one thread serves every client with a poll() event loop.
 *
 * What it shows: non-blocking sockets plus poll(). The list of sockets we care about
 * is an array of struct pollfd in *our* memory, one entry per socket; every call hands
 * the whole array to the kernel, which checks every entry and writes back which are
 * ready. So each call costs time for every watched socket, idle ones included, while
 * epoll's cost follows only the ready ones (lesson 4 measures it: each idle socket costs
 * more the more of them there are). Unlike select(), poll() has no fixed limit on file
 * descriptor numbers. Readiness is level-triggered: a
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
 * its connection for ever); IPv4 only. What every readiness loop does alike (the
 * connection table, reading with backpressure, sending) is in readiness.c; the protocols
 * are in protocol.c.
 */
#define _GNU_SOURCE
#include "readiness.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#define INITIAL_POLLFDS  64     /* entries in the pollfd array at first; it doubles
                                   whenever it is full */

/* The event loop's state. One thread, so plain globals are enough. */
static struct pollfd *pollfds;  /* what poll() watches: one entry per socket */
static nfds_t pollfd_count;     /* entries in use */
static nfds_t pollfd_capacity;  /* entries allocated */
static int *slot_of;            /* slot_of[fd]: where fd's entry is in pollfds[] */
static bool slots_freed;        /* some entries were closed (fd -1): compact the array */

/* The poll events for what the loop wants. */
static short poll_events(unsigned wants)
{
    return (short)(((wants & WANT_READ) ? POLLIN : 0) | ((wants & WANT_WRITE) ? POLLOUT : 0));
}

/*
 * Relies on: nothing from the kernel yet. The pollfd array is ours, in user memory, and
 * poll() reads it afresh on every call, so watching one more socket is one more entry;
 * there is no registration system call (epoll needs epoll_ctl).
 */
/* ANCHOR: pollfd-array */
int watch_fd(int fd, unsigned wants)
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
    pollfds[pollfd_count++] = (struct pollfd){.fd = fd, .events = poll_events(wants)};
    return 0;
}

/* Relies on: poll() reading .events afresh on every call: no system call needed. */
int rewatch_fd(int fd, unsigned wants)
{
    pollfds[slot_of[fd]].events = poll_events(wants);
    return 0;
}

/*
 * Relies on: poll() ignoring an entry whose fd is negative. A closed socket's entry is
 * first set to -1, so the loop that is walking the array can carry on; compact_pollfds()
 * squeezes such holes out afterwards, keeping the array as short as the connections.
 */
void unwatch_fd(int fd)
{
    pollfds[slot_of[fd]].fd = -1;
    slots_freed = true;
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

/*
 * Every poll() call walks the whole array, so we take every waiting connection per call
 * (until EAGAIN) rather than one: a thousand clients arriving at once then cost a few
 * calls, not a thousand.
 */
/* ANCHOR: accept */
static void handle_accept(void)
{
    for (;;) {
        int fd = loop_accept();
        if (fd == ACCEPT_EMPTY || fd == ACCEPT_PAUSED)
            return;
        if (fd >= 0)
            loop_add_connection(fd);
    }
}
/* ANCHOR_END: accept */

/*
 * One read() per event is enough: poll() is level-triggered and reports the socket again
 * next call if bytes remain. Afterwards we try to send the replies at once: usually the
 * send buffer has room, and this saves a trip through poll().
 */
/* ANCHOR: read */
static void handle_readable(struct conn *c)
{
    if (loop_read(c) != READ_CLOSED)
        loop_send(c);
}
/* ANCHOR_END: read */

/*
 * Relies on: poll() always reporting POLLERR, POLLHUP and POLLNVAL, even when we did not
 * ask. What went wrong is easiest to learn by trying: the next read() or write() fails
 * with the reason (or read() returns 0), and the connection is closed.
 */
static void handle_client_event(struct conn *c, short revents)
{
    if (revents & (POLLERR | POLLHUP | POLLNVAL))
        revents |= POLLIN | POLLOUT;
    if ((revents & POLLIN) && loop_wants_to_read(c))
        handle_readable(c);                 /* reads, then sends what it can */
    else if (revents & POLLOUT)
        loop_send(c);
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
            struct conn *c;
            if (fd < 0 || revents == 0)
                continue;                   /* closed in this pass, or not ready */
            if (loop_is_stop(fd))
                break;                      /* SIGTERM or SIGINT: the loop condition ends it */
            if (loop_is_listener(fd))
                handle_accept();
            else if ((c = loop_conn(fd)) != NULL)
                handle_client_event(c, revents);
        }
        if (slots_freed)
            compact_pollfds();
    }
}
/* ANCHOR_END: event-loop */

int main(int argc, char **argv)
{
    struct server_config cfg;
    config_parse(&cfg, "c-poll", argc, argv, NULL, 0);

    int stop_fd = signals_init();
    int max_fds = raise_fd_limit();
    slot_of = calloc((size_t)max_fds, sizeof *slot_of);
    if (slot_of == NULL)
        die_errno("malloc() failed");
    loop_open(&cfg, listen_on(&cfg, LISTEN_NONBLOCK), stop_fd, max_fds);

    config_print(&cfg, NULL, 0);
    run_event_loop();
    int open = loop_close();
    free(pollfds);
    free(slot_of);
    log_msg("%s received: closed %d connection%s (%lu accepted in all), exiting",
            stop_signal_name(), open, open == 1 ? "" : "s", loop_accepted());
    return 0;
}
