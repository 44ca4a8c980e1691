/*
 * protocol.h - the bytes every C10K Lab server exchanges with a client, so that each
 * server file (iterative.c, threaded.c, poll.c, epoll.c, io-uring.c ...) shows only its
 * I/O model. It builds on runtime.h (flags, listening socket, signals, messages).
 *
 * What lives here:
 *   - one struct conn per client, with an input and an output buffer;
 *   - the two wire protocols as pure functions: conn_feed() takes bytes read from
 *     the client and appends the bytes to send back (no system calls inside);
 *   - the http body: 20 bytes by default, or any size set by http_body_setup(), sent by
 *     copying it (write) or from a file without copying it (sendfile);
 *   - conn_flush(): send buffered output, coping with partial writes and EAGAIN;
 *   - serve_blocking(): a whole conversation with one client, for the models that
 *     block in read() and write() (iterative, forking, preforked, threaded, prethreaded).
 *
 * How a model uses it (error handling left out):
 *
 *     struct conn *c = conn_new(accepted_fd, &cfg);
 *     ssize_t n = read(c->fd, buf, cfg.buffer_bytes);
 *     if (n == 0) c->read_eof = true;
 *     if (n > 0)  conn_feed(c, buf, n);     // appends the reply to c's output buffer
 *     conn_flush(c);                        // FLUSH_DONE, FLUSH_AGAIN or FLUSH_ERROR
 *     if (conn_finished(c)) conn_close(c);
 */
#ifndef C10KLAB_PROTOCOL_H
#define C10KLAB_PROTOCOL_H

#include "runtime.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HTTP_MAX_HEAD_BYTES   8192      /* longer request heads get "431" and a close */
#define DEFAULT_BODY_BYTES    20        /* "Hello from C10K Lab\n" */
#define MAX_BODY_BYTES        16777216  /* 16 MiB: --body-bytes upper bound */

/* ---- the http body ----------------------------------------------------------------- */

enum send_mode {
    SEND_COPY,      /* the body sits in memory; each reply copies it into the connection's
                       buffer and write() copies it again, into the socket */
    SEND_SENDFILE,  /* the body sits in a file (a memfd: page-cache pages); sendfile() hands
                       those pages to the socket, and no byte of the body passes through
                       our memory */
};

/*
 * From now on every http 200 carries a body of body_bytes bytes ("Hello from C10K Lab\n"
 * repeated, cut at body_bytes), sent as `mode` says. Call it before serving; without it the
 * body is those 20 bytes, copied. Exits 1 with a message if the file cannot be made.
 * With SEND_SENDFILE a reply is its head from c->out followed by the body from the file, so
 * the model must check conn_caught_up() before reading (see there).
 */
void http_body_setup(size_t body_bytes, enum send_mode mode);

/*
 * The zero-copy lesson's two knobs, for a server that offers them: --send copy|sendfile
 * and --body-bytes N. Put HTTP_BODY_KNOBS last in the server's knob table and, after
 * config_parse(), pass the first of the two to http_body_setup_from_knobs().
 */
extern const char *const send_mode_choices[];   /* {"copy", "sendfile", NULL} */
#define HTTP_BODY_KNOBS                                                                  \
    {.name = "send", .flag = "--send", .choices = send_mode_choices, .value = SEND_COPY, \
     .help = "http: send the body with write() from memory (copy) or by sendfile() "    \
             "from a file (sendfile)"},                                                 \
    {.name = "body_bytes", .flag = "--body-bytes", .min = 1, .max = MAX_BODY_BYTES,      \
     .value = DEFAULT_BODY_BYTES, .help = "http: bytes in each reply's body"}
void http_body_setup_from_knobs(const struct knob *http_body_knobs);

/* ---- connections ------------------------------------------------------------------ */

/* A byte queue: data[start..end) holds the bytes not yet consumed. */
struct buffer {
    char   *data;
    size_t  start;
    size_t  end;
    size_t  capacity;
};

struct conn {
    int            fd;
    enum protocol  protocol;
    struct buffer  in;                 /* http: the part of a request head read so far */
    struct buffer  out;                /* bytes waiting to be sent, oldest first */
    size_t         scanned;            /* http: bytes of `in` already searched for CRLFCRLF */
    bool           read_eof;           /* the client shut its sending side: read() returned 0 */
    bool           close_after_output; /* http: send what is queued, then close */
    bool           output_shut;        /* shutdown(SHUT_WR) done: nothing more will be sent */
    size_t         body_left;          /* sendfile: body bytes still to send once `out` is sent */
    uint32_t       interest;           /* for the I/O model: the events it waits for now */
};

/* A connection for an accepted socket, or NULL if out of memory (fd is left open). */
struct conn *conn_new(int fd, const struct server_config *cfg);

/* Closes the socket and frees the connection. */
void conn_close(struct conn *c);

/*
 * The protocol: consume `len` bytes read from the client, append the reply to c->out.
 * Echo appends the bytes themselves. HTTP appends one response per complete request
 * head, and sets close_after_output for "Connection: close" or a head over 8 KiB.
 * HTTP holds requests back, unanswered in c->in, while 256 KiB of replies wait or while
 * a body waits to be sent by sendfile; conn_flush() and conn_take_output() answer them
 * once that output has gone. Makes no system calls. Returns 0, or -1 if out of memory
 * (close the connection).
 */
int conn_feed(struct conn *c, const char *data, size_t len);

/*
 * False while the protocol holds back requests it has read but not answered: reading
 * more would only pile them up in memory. Only needed with SEND_SENDFILE: in copy mode
 * requests are held back only while 256 KiB of replies wait, and a model stops reading
 * then anyway (its backpressure).
 */
bool conn_caught_up(const struct conn *c);

/* Bytes of replies not yet sent, including a body still to go out by sendfile. */
size_t      conn_output_pending(const struct conn *c);

/* The replies waiting in memory, c->out (not a sendfile body); after sending some of them,
 * report how much with conn_output_sent(). */
const char *conn_output(const struct conn *c);
void        conn_output_sent(struct conn *c, size_t n);

/*
 * For models whose sends complete later (io_uring): the kernel reads the bytes of a send
 * after the call that queued it has returned, while conn_feed() may grow or move c->out
 * at any time, so the bytes in flight must live somewhere else until the send completes.
 * conn_take_output() moves everything queued in c->out to *to, which must be empty (its
 * memory, if any, is reused for c->out), then answers requests the protocol held back.
 * The buffer_*() functions below work on *to. Not for SEND_SENDFILE.
 */
void conn_take_output(struct conn *c, struct buffer *to);

size_t buffer_length(const struct buffer *b);      /* bytes held */
void   buffer_consume(struct buffer *b, size_t n); /* drop the first n; frees a big emptied one */
void   buffer_free(struct buffer *b);              /* free the memory; the buffer is empty again */

enum flush_result {
    FLUSH_DONE,   /* everything queued has been handed to the kernel */
    FLUSH_AGAIN,  /* the socket's send buffer is full (EAGAIN): wait until it is writable */
    FLUSH_ERROR,  /* write() failed; errno says why: close the connection */
};

/*
 * write()s queued output (and sendfile()s a body) until it is all sent or the kernel says
 * EAGAIN; answers requests held back as their turn comes.
 */
enum flush_result conn_flush(struct conn *c);

/* True once there is nothing left to do: the client has stopped sending and all is sent. */
bool conn_finished(const struct conn *c);

/*
 * For the blocking models (iterative, forking, preforked, threaded, prethreaded): serve
 * the client on socket fd with blocking read() and write() until it closes its side,
 * a call fails, or the socket is shut down. Each read's replies are all written before
 * the next read, so a client that does not read its replies soon stops being read from.
 * Same protocol, same Connection: close and 431 handling as the event-loop servers.
 * Does not close fd: the caller does (see threaded.c for why that matters).
 */
void serve_blocking(int fd, const struct server_config *cfg);

/*
 * For a failed per-connection call: logs "read(fd 7) failed: ..." unless errno only says
 * the client went away (ECONNRESET, EPIPE ...), which is normal for a server.
 */
void conn_log_error(const struct conn *c, const char *syscall);

#endif
