/*
 * readiness.h - the half of a readiness event loop that is the same whether readiness
 * comes from select(), poll() or epoll: a table of connections, accepting, reading with
 * backpressure, sending, closing. The other half, how a server asks the kernel which
 * sockets are ready, is the lesson, and stays in select.c, poll.c and epoll.c.
 *
 * The split: a model file defines the three functions below, watch_fd(), rewatch_fd()
 * and unwatch_fd() (an fd_set bit, a pollfd entry, an epoll_ctl() call), and runs its
 * own wait loop. For each ready socket it calls back into this module:
 *
 *     if (loop_is_stop(fd))      break;              // SIGTERM or SIGINT
 *     if (loop_is_listener(fd))  ... loop_accept() and loop_add_connection(), once
 *                                    or until ACCEPT_EMPTY: the model's choice ...
 *     else if ((c = loop_conn(fd)) != NULL)
 *         ... loop_read(c) once or until READ_DONE, then loop_send(c) ...
 *
 * A model that runs several loops in threads (c-epoll-reuseport) gets one table per
 * thread: all the state here is _Thread_local.
 */
#ifndef C10KLAB_READINESS_H
#define C10KLAB_READINESS_H

#include "protocol.h"

#include <stdbool.h>

/* What the loop waits for on a socket, and what the model reports ready. */
enum { WANT_READ = 1, WANT_WRITE = 2 };

/* Bytes queued for a client before we stop reading from it (backpressure). */
#define OUTPUT_HIGH_WATER_BYTES  (256 * 1024)

/* ---- what each readiness model defines ------------------------------------------- */

/* Start watching a new fd for `wants` (WANT_READ, WANT_WRITE). 0, or -1 with errno set. */
int watch_fd(int fd, unsigned wants);

/* From now on wait on fd for `wants`; 0 means for nothing, but keep it. 0, or -1 (errno). */
int rewatch_fd(int fd, unsigned wants);

/* fd is about to be closed: stop watching it. */
void unwatch_fd(int fd);

/* ---- the shared half ------------------------------------------------------------- */

/*
 * Sets up this thread's loop: an empty table for connections on fds below max_fds, and
 * the listening socket and the stop pipe watched for reading. The model's own state
 * (an epoll instance, a pollfd array) must be ready first: this calls watch_fd().
 */
void loop_open(const struct server_config *cfg, int listener, int stop_fd, int max_fds);

/* Closes every connection and the listening socket and frees the table, so a leak checker
 * finds nothing. Returns how many connections were still open. */
int loop_close(void);

/* Connections this thread's loop has accepted. */
unsigned long loop_accepted(void);

bool         loop_is_stop(int fd);       /* the stop pipe: SIGTERM or SIGINT arrived */
bool         loop_is_listener(int fd);   /* the listening socket */
struct conn *loop_conn(int fd);          /* the connection on fd, or NULL */

/* loop_accept()'s answers other than a new socket's fd. */
enum {
    ACCEPT_EMPTY   = -1,   /* the kernel's queue of connections is empty (EAGAIN) */
    ACCEPT_SKIPPED = -2,   /* that client gave up before we took it: try the next */
    ACCEPT_PAUSED  = -3,   /* out of fds: the listener is unwatched until one closes */
};

/* One accept4() on the non-blocking listening socket: a new fd (not yet a connection:
 * pass it to loop_add_connection()), or one of the ACCEPT_ answers. */
int loop_accept(void);

/* Makes fd a connection and watches it for reading; if it cannot, logs why and closes fd. */
void loop_add_connection(int fd);

/* True while we read from c: it is still sending, not too much output waits for it, and
 * the protocol holds no request back. */
bool loop_wants_to_read(const struct conn *c);

enum read_result {
    READ_AGAIN,    /* bytes came (or EINTR): more may be waiting */
    READ_DONE,     /* nothing more to read now: EAGAIN, end of stream, or backpressure */
    READ_CLOSED,   /* a call failed: the connection is closed, c is gone */
};

/* One read() from c, its bytes fed to the protocol. Under backpressure it first sends
 * what it can, and reads only if that made room. */
enum read_result loop_read(struct conn *c);

/* Sends what is queued for c; then closes c if it is finished (or a call failed), or
 * rewatches it: for writing while output waits, for reading while loop_wants_to_read(). */
void loop_send(struct conn *c);

/* Unwatches and closes c; if accepting was paused for want of fds, resumes it. */
void loop_close_connection(struct conn *c);

#endif
