/*
 * readiness.c - the half of the select, poll and epoll event loops that does not depend
 * on how readiness is asked for. See readiness.h for the split, and select.c, poll.c and
 * epoll.c for the other half.
 */
#define _GNU_SOURCE
#include "readiness.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/*
 * One loop's state. c-select, c-poll and c-epoll run one loop, so these could be plain
 * globals; _Thread_local gives every thread its own copy, which lets c-epoll-reuseport
 * run the same loop in several threads that share nothing (and so need no locks).
 */
static _Thread_local const struct server_config *cfg;
static _Thread_local int stop_fd = -1;         /* readable once SIGTERM or SIGINT arrived */
static _Thread_local int listen_fd = -1;
static _Thread_local bool accept_paused;       /* out of fds: listen_fd unwatched for now */
static _Thread_local int max_conns;            /* size of conns[] */
static _Thread_local struct conn **conns;      /* conns[fd]: the connection on fd, or NULL */
static _Thread_local char *read_buf;           /* every read() lands here first */
static _Thread_local unsigned long accepted;   /* connections this loop has accepted */

static void watch_or_die(int fd, unsigned wants)
{
    if (watch_fd(fd, wants) < 0)
        die_errno("watching fd %d failed", fd);
}

void loop_open(const struct server_config *config, int listener, int stop, int max_fds)
{
    cfg = config;
    max_conns = max_fds;
    conns = calloc((size_t)max_conns, sizeof *conns);
    read_buf = malloc(cfg->buffer_bytes);
    if (conns == NULL || read_buf == NULL)
        die_errno("malloc() failed");

    listen_fd = listener;
    stop_fd = stop;
    watch_or_die(listen_fd, WANT_READ);
    watch_or_die(stop_fd, WANT_READ);
}

int loop_close(void)
{
    int open = 0;
    for (int fd = 0; fd < max_conns; fd++) {
        if (conns[fd] != NULL) {
            conn_close(conns[fd]);
            open++;
        }
    }
    close_or_log(listen_fd);
    free(conns);
    free(read_buf);
    return open;
}

unsigned long loop_accepted(void)
{
    return accepted;
}

bool loop_is_stop(int fd)
{
    return fd == stop_fd;
}

bool loop_is_listener(int fd)
{
    return fd == listen_fd;
}

struct conn *loop_conn(int fd)
{
    return fd >= 0 && fd < max_conns ? conns[fd] : NULL;
}

/*
 * Relies on: accept4() on a non-blocking listening socket returning EAGAIN once the
 * kernel's queue of completed connections is empty. When file descriptors run out
 * (EMFILE), the pending connection stays queued and the socket stays readable: we stop
 * watching it until a connection closes, rather than spin on an accept that cannot
 * succeed.
 */
/* ANCHOR: accept */
int loop_accept(void)
{
    int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0)
        return fd;
    if (errno == EAGAIN || errno == EWOULDBLOCK)
        return ACCEPT_EMPTY;
    if (accept_error_is_transient(errno))
        return ACCEPT_SKIPPED;
    if (!accept_error_is_exhaustion(errno))
        die_errno("accept4(fd %d) failed", listen_fd);

    log_errno("accept4() failed; pausing until a connection closes");
    if (rewatch_fd(listen_fd, 0) < 0)
        die_errno("unwatching the listening socket (fd %d) failed", listen_fd);
    accept_paused = true;
    return ACCEPT_PAUSED;
}

void loop_add_connection(int fd)
{
    struct conn *c = fd < max_conns ? conn_new(fd, cfg) : NULL;
    if (c == NULL) {
        log_msg("no room for a connection on fd %d; closing it", fd);
        close_or_log(fd);
        return;
    }
    if (watch_fd(fd, WANT_READ) < 0) {
        log_errno("watching fd %d failed", fd);
        conn_close(c);
        return;
    }
    c->interest = WANT_READ;
    conns[fd] = c;
    accepted++;
}
/* ANCHOR_END: accept */

void loop_close_connection(struct conn *c)
{
    unwatch_fd(c->fd);
    conns[c->fd] = NULL;
    conn_close(c);

    if (accept_paused) {                    /* a file descriptor is free again */
        if (rewatch_fd(listen_fd, WANT_READ) < 0)
            die_errno("watching the listening socket (fd %d) again failed", listen_fd);
        accept_paused = false;
        log_msg("accepting connections again");
    }
}

bool loop_wants_to_read(const struct conn *c)
{
    return !c->read_eof && conn_output_pending(c) < OUTPUT_HIGH_WATER_BYTES &&
           conn_caught_up(c);
}

/*
 * We only wait for writability while output is queued: an empty send buffer is
 * "writable" almost always, and the model's wait would return at once, for nothing,
 * every time. Unchanged interest costs nothing (for epoll, it saves a system call).
 */
/* ANCHOR: interest */
static int update_interest(struct conn *c)
{
    unsigned wants = 0;
    if (loop_wants_to_read(c))
        wants |= WANT_READ;
    if (conn_output_pending(c) > 0)
        wants |= WANT_WRITE;
    if (wants == c->interest)
        return 0;
    if (rewatch_fd(c->fd, wants) < 0) {
        log_errno("rewatching fd %d failed", c->fd);
        return -1;
    }
    c->interest = wants;
    return 0;
}
/* ANCHOR_END: interest */

/*
 * Relies on: write() on a non-blocking socket sending what fits in the socket's send
 * buffer and failing with EAGAIN when nothing fits (conn_flush() in protocol.c), and on
 * the model reporting the socket writable once there is room again.
 */
/* ANCHOR: send */
void loop_send(struct conn *c)
{
    if (conn_flush(c) == FLUSH_ERROR) {
        conn_log_error(c, "write");
        loop_close_connection(c);
        return;
    }
    if (conn_finished(c)) {                 /* client done sending, and all is sent */
        loop_close_connection(c);
        return;
    }
    if (update_interest(c) < 0)             /* writability on while output waits, else off */
        loop_close_connection(c);
}
/* ANCHOR_END: send */

/*
 * Relies on: read() on a non-blocking socket returning what has arrived (perhaps less
 * than a whole message, perhaps several), 0 once the client has shut down its sending
 * side, and EAGAIN when nothing is waiting.
 * Backpressure: when replies pile up we send some first, and if they still don't fit in
 * the kernel, we don't read. update_interest() then stops waiting for readability, and
 * waiting for it again later reports the bytes left unread, so nothing is lost.
 */
/* ANCHOR: read */
enum read_result loop_read(struct conn *c)
{
    if (!loop_wants_to_read(c)) {
        if (conn_flush(c) == FLUSH_ERROR) {
            conn_log_error(c, "write");
            loop_close_connection(c);
            return READ_CLOSED;
        }
        if (!loop_wants_to_read(c))
            return READ_DONE;               /* the client isn't reading: nor do we */
    }

    ssize_t n = read(c->fd, read_buf, cfg->buffer_bytes);
    if (n > 0) {
        if (conn_feed(c, read_buf, (size_t)n) < 0) {
            log_errno("no memory for the output of fd %d", c->fd);
            loop_close_connection(c);
            return READ_CLOSED;
        }
        return READ_AGAIN;
    }
    if (n == 0) {
        c->read_eof = true;                 /* the client shut down its side */
        return READ_DONE;
    }
    if (errno == EINTR)
        return READ_AGAIN;
    if (errno == EAGAIN || errno == EWOULDBLOCK)
        return READ_DONE;                   /* nothing more to read for now */
    conn_log_error(c, "read");
    loop_close_connection(c);
    return READ_CLOSED;
}
/* ANCHOR_END: read */
