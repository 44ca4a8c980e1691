/*
 * protocol.c - the bytes every C10K Lab server exchanges with a client, whatever its I/O
 * model: connection buffers, sending with partial writes and EAGAIN, sendfile(), the echo
 * and http protocols, and a whole blocking conversation. See protocol.h for how a server
 * uses it. Nothing in here knows which I/O model is calling it.
 *
 * Simplifications: HTTP requests are taken to have no body (GET-style), and every request
 * gets the same response, whatever it asked for.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#define BUFFER_MIN_CAPACITY  4096        /* bytes: a buffer's first allocation */
#define BUFFER_KEEP_BYTES    65536       /* bytes: an emptied buffer bigger than this is freed */

#define STRINGIFY_(x) #x
#define STRINGIFY(x)  STRINGIFY_(x)

/* ---- buffers ----------------------------------------------------------------------------- */

size_t buffer_length(const struct buffer *b)
{
    return b->end - b->start;
}

void buffer_free(struct buffer *b)
{
    free(b->data);
    *b = (struct buffer){0};
}

/* Appends n bytes, growing the buffer when they don't fit. Returns -1 if out of memory. */
static int buffer_append(struct buffer *b, const char *data, size_t n)
{
    if (n == 0)
        return 0;
    if (b->capacity - b->end < n && b->start > 0) {
        /* Reuse the space at the front that has already been consumed. */
        size_t length = buffer_length(b);
        memmove(b->data, b->data + b->start, length);
        b->start = 0;
        b->end = length;
    }
    if (b->capacity - b->end < n) {
        size_t capacity = b->capacity ? b->capacity : BUFFER_MIN_CAPACITY;
        while (capacity - b->end < n)
            capacity *= 2;
        char *bigger = realloc(b->data, capacity);
        if (bigger == NULL)
            return -1;
        b->data = bigger;
        b->capacity = capacity;
    }
    memcpy(b->data + b->end, data, n);
    b->end += n;
    return 0;
}

/* Drops the first n bytes. */
void buffer_consume(struct buffer *b, size_t n)
{
    b->start += n;
    if (b->start == b->end) {
        b->start = b->end = 0;
        if (b->capacity > BUFFER_KEEP_BYTES)
            buffer_free(b);   /* give back what a burst needed; idle connections stay small */
    }
}

/* ---- connections ------------------------------------------------------------------------- */

struct conn *conn_new(int fd, const struct server_config *cfg)
{
    struct conn *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->fd = fd;
    c->protocol = cfg->protocol;
    return c;
}

/* Frees the connection but leaves its socket open. */
static void conn_free(struct conn *c)
{
    buffer_free(&c->in);
    buffer_free(&c->out);
    free(c);
}

void conn_close(struct conn *c)
{
    if (close(c->fd) < 0)
        log_errno("close(fd %d) failed", c->fd);
    conn_free(c);
}

const char *conn_output(const struct conn *c)
{
    return c->out.data + c->out.start;
}

size_t conn_output_pending(const struct conn *c)
{
    return buffer_length(&c->out) + c->body_left;
}

void conn_output_sent(struct conn *c, size_t n)
{
    buffer_consume(&c->out, n);
}

static int answer_held_requests(struct conn *c);

/*
 * Swaps rather than copies: *to (empty) lends its memory to c->out, and c->out's bytes
 * move to *to without being touched. The emptied c->out then has room for the replies
 * to requests the protocol held back.
 */
void conn_take_output(struct conn *c, struct buffer *to)
{
    struct buffer spare = *to;
    spare.start = spare.end = 0;
    *to = c->out;
    c->out = spare;
    if (answer_held_requests(c) < 0) {
        log_errno("no memory for the output of fd %d; closing it after what is queued", c->fd);
        c->close_after_output = true;
    }
}

bool conn_finished(const struct conn *c)
{
    return c->read_eof && conn_output_pending(c) == 0;
}

static enum flush_result send_body(struct conn *c);
static size_t http_body_bytes(void);
static int    http_body_fd(void);

/*
 * Relies on: write() on a socket taking only as many bytes as fit in the socket's send
 * buffer (a partial write), and on a non-blocking socket failing with EAGAIN when none
 * fit. On a blocking socket the same loop simply waits inside write().
 * Once everything queued has gone, requests the protocol held back get their replies,
 * which go out in turn.
 * After the last response of an HTTP connection, shutdown(SHUT_WR) sends FIN at once;
 * the caller keeps reading (and discarding) until the client closes too. Closing with
 * unread input would make the kernel send RST, which can destroy the response before
 * the client has read it.
 */
/* ANCHOR: flush */
enum flush_result conn_flush(struct conn *c)
{
    int answered;
    do {
        while (buffer_length(&c->out) > 0) {
            ssize_t n = write(c->fd, conn_output(c), buffer_length(&c->out));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                if (errno == EAGAIN || errno == EWOULDBLOCK)
                    return FLUSH_AGAIN;   /* send buffer full: try again when writable */
                return FLUSH_ERROR;
            }
            conn_output_sent(c, (size_t)n);   /* n may be less than we offered */
        }
        if (c->body_left > 0) {               /* --send sendfile: the body follows its head */
            enum flush_result sent = send_body(c);
            if (sent != FLUSH_DONE)
                return sent;
        }
    } while ((answered = answer_held_requests(c)) > 0);
    if (answered < 0)
        return FLUSH_ERROR;                   /* out of memory: errno says so */
    if (c->close_after_output && !c->output_shut) {
        if (shutdown(c->fd, SHUT_WR) < 0)
            return FLUSH_ERROR;
        c->output_shut = true;
    }
    return FLUSH_DONE;
}
/* ANCHOR_END: flush */

/*
 * Relies on: sendfile() from a file to a socket handing the socket references to the
 * file's page-cache pages instead of copying their bytes (zero copy: the CPU never reads
 * the body), and on it behaving like write() otherwise: partial sends, and EAGAIN on a
 * non-blocking socket whose send buffer is full. The offset is the reply's own, so every
 * connection reads the one file from the start.
 */
/* ANCHOR: sendfile */
static enum flush_result send_body(struct conn *c)
{
    while (c->body_left > 0) {
        off_t offset = (off_t)(http_body_bytes() - c->body_left);
        ssize_t n = sendfile(c->fd, http_body_fd(), &offset, c->body_left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return FLUSH_AGAIN;       /* send buffer full: try again when writable */
            return FLUSH_ERROR;
        }
        if (n == 0) {                     /* the file is shorter than it was made: a bug */
            errno = EIO;
            return FLUSH_ERROR;
        }
        c->body_left -= (size_t)n;
    }
    return FLUSH_DONE;
}
/* ANCHOR_END: sendfile */

void conn_log_error(const struct conn *c, const char *syscall)
{
    if (errno == ECONNRESET || errno == EPIPE || errno == ETIMEDOUT)
        return;   /* the client went away: routine for a server, not worth a log line */
    log_errno("%s(fd %d) failed", syscall, c->fd);
}

/* ---- blocking servers ------------------------------------------------------------------- */

/*
 * Relies on: read() on a blocking socket sleeping until at least one byte has arrived
 * (and returning what has, perhaps less than a message, perhaps several), or returning 0
 * once the client has shut down its sending side; and write() on a blocking socket
 * sleeping until the kernel has taken every byte (conn_flush() never sees EAGAIN here).
 * While this thread sleeps in write() it does not read: a client that never reads its
 * replies fills the kernel's buffers, and then TCP flow control stops it sending. That
 * is all the backpressure a blocking server needs.
 * A signal interrupts read() or write() with EINTR (or a short write): we just carry on;
 * a server that wants to stop shuts the socket down first (stop_shuts_down()).
 * After a "Connection: close" reply, conn_flush() has shut down our sending side, and
 * conn_feed() ignores what the client still sends: we read until it closes, as c-epoll does.
 */
/* ANCHOR: blocking-serve */
void serve_blocking(int fd, const struct server_config *cfg)
{
    struct conn *c = conn_new(fd, cfg);
    char *buf = malloc(cfg->buffer_bytes);
    if (c == NULL || buf == NULL) {
        log_errno("no memory for the connection on fd %d", fd);
        free(buf);
        if (c != NULL)
            conn_free(c);
        return;
    }

    for (;;) {
        ssize_t n = read(fd, buf, cfg->buffer_bytes);   /* sleeps until the client sends */
        if (n == 0)
            break;                           /* the client closed: all replies are sent */
        if (n < 0) {
            if (errno == EINTR)
                continue;
            conn_log_error(c, "read");
            break;
        }
        if (conn_feed(c, buf, (size_t)n) < 0) {
            log_errno("no memory for the output of fd %d", fd);
            break;
        }
        if (conn_flush(c) != FLUSH_DONE) {   /* sleeps until every reply byte is sent */
            conn_log_error(c, "write");
            break;
        }
    }
    free(buf);
    conn_free(c);
}
/* ANCHOR_END: blocking-serve */

/* ---- echo ------------------------------------------------------------------------------- */

/* ANCHOR: echo */
/* Echo: every byte read goes back to the client, in order. */
static int echo_feed(struct conn *c, const char *data, size_t len)
{
    return buffer_append(&c->out, data, len);
}
/* ANCHOR_END: echo */

/* ---- http ------------------------------------------------------------------------------- */

#define HTTP_BODY            "Hello from C10K Lab\n"   /* repeated for longer bodies */
#define HTTP_BODY_BYTES      20
#define HTTP_431_BODY        "request head too large\n"
#define HTTP_431_BODY_BYTES  23
#define HTTP_HOLD_BACK_BYTES (256 * 1024)   /* replies queued before we stop answering */
_Static_assert(sizeof HTTP_BODY - 1 == HTTP_BODY_BYTES, "fix HTTP_BODY_BYTES");
_Static_assert(HTTP_BODY_BYTES == DEFAULT_BODY_BYTES, "fix DEFAULT_BODY_BYTES");
_Static_assert(sizeof HTTP_431_BODY - 1 == HTTP_431_BODY_BYTES, "fix HTTP_431_BODY_BYTES");

static const char http_200_keep_alive[] =
    "HTTP/1.1 200 OK\r\n"
    "Server: c10klab\r\n"
    "Content-Type: text/plain\r\n"
    "Content-Length: " STRINGIFY(HTTP_BODY_BYTES) "\r\n"
    "Connection: keep-alive\r\n"
    "\r\n"
    HTTP_BODY;

static const char http_200_close[] =
    "HTTP/1.1 200 OK\r\n"
    "Server: c10klab\r\n"
    "Content-Type: text/plain\r\n"
    "Content-Length: " STRINGIFY(HTTP_BODY_BYTES) "\r\n"
    "Connection: close\r\n"
    "\r\n"
    HTTP_BODY;

static const char http_431[] =
    "HTTP/1.1 431 Request Header Fields Too Large\r\n"
    "Server: c10klab\r\n"
    "Content-Type: text/plain\r\n"
    "Content-Length: " STRINGIFY(HTTP_431_BODY_BYTES) "\r\n"
    "Connection: close\r\n"
    "\r\n"
    HTTP_431_BODY;

/* The 200 replies: the ones above until http_body_setup() makes its own. */
static struct {
    const char *keep_alive;     /* SEND_COPY: the whole reply; SEND_SENDFILE: its head */
    size_t      keep_alive_bytes;
    const char *close;          /* the same, with "Connection: close" */
    size_t      close_bytes;
    size_t      body_bytes;
    int         body_fd;        /* SEND_SENDFILE: the file holding the body; otherwise -1 */
} http_reply = {
    .keep_alive = http_200_keep_alive, .keep_alive_bytes = sizeof http_200_keep_alive - 1,
    .close = http_200_close, .close_bytes = sizeof http_200_close - 1,
    .body_bytes = HTTP_BODY_BYTES, .body_fd = -1,
};

static size_t http_body_bytes(void)
{
    return http_reply.body_bytes;
}

static int http_body_fd(void)
{
    return http_reply.body_fd;
}

/* A 200 reply's head for a body of body_bytes, followed by the body itself if body != NULL. */
static char *format_reply(const char *connection, size_t body_bytes, const char *body,
                          size_t *reply_bytes)
{
    char head[256];
    int head_bytes = snprintf(head, sizeof head,
                              "HTTP/1.1 200 OK\r\n"
                              "Server: c10klab\r\n"
                              "Content-Type: text/plain\r\n"
                              "Content-Length: %zu\r\n"
                              "Connection: %s\r\n"
                              "\r\n", body_bytes, connection);
    size_t bytes = (size_t)head_bytes + (body ? body_bytes : 0);
    char *reply = malloc(bytes);
    if (reply == NULL)
        die_errno("malloc(%zu) failed", bytes);
    memcpy(reply, head, (size_t)head_bytes);
    if (body)
        memcpy(reply + head_bytes, body, body_bytes);
    *reply_bytes = bytes;
    return reply;
}

/*
 * Relies on: memfd_create() making a file that lives only in memory (its pages are
 * page-cache pages, like those of a file read recently from disk), which sendfile() can
 * read from as from any file; no writable filesystem needed in a read-only container.
 */
void http_body_setup(size_t body_bytes, enum send_mode mode)
{
    char *body = malloc(body_bytes ? body_bytes : 1);
    if (body == NULL)
        die_errno("malloc(%zu) failed", body_bytes);
    for (size_t i = 0; i < body_bytes; i++)
        body[i] = HTTP_BODY[i % HTTP_BODY_BYTES];

    const char *in_reply = mode == SEND_COPY ? body : NULL;
    http_reply.keep_alive = format_reply("keep-alive", body_bytes, in_reply,
                                         &http_reply.keep_alive_bytes);
    http_reply.close = format_reply("close", body_bytes, in_reply, &http_reply.close_bytes);
    http_reply.body_bytes = body_bytes;

    if (mode == SEND_SENDFILE) {
        int fd = memfd_create("c10klab-body", MFD_CLOEXEC);
        if (fd < 0)
            die_errno("memfd_create() failed");
        for (size_t written = 0; written < body_bytes; ) {
            ssize_t n = write(fd, body + written, body_bytes - written);
            if (n < 0 && errno != EINTR)
                die_errno("write(memfd) failed");
            written += n > 0 ? (size_t)n : 0;
        }
        http_reply.body_fd = fd;
    }
    free(body);
}

const char *const send_mode_choices[] = {"copy", "sendfile", NULL};

void http_body_setup_from_knobs(const struct knob *http_body_knobs)
{
    const struct knob *send = &http_body_knobs[0], *body_bytes = &http_body_knobs[1];
    http_body_setup((size_t)body_bytes->value, (enum send_mode)send->value);
}

/* Does s[0..n) contain word, ignoring case? */
static bool contains_word(const char *s, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (strncasecmp(s + i, word, w) == 0)
            return true;
    return false;
}

/*
 * Should the connection stay open after answering this request head?
 * HTTP/1.1 keeps it open unless the client sends "Connection: close";
 * HTTP/1.0 closes it unless the client sends "Connection: keep-alive".
 */
static bool http_keep_alive(const char *head, size_t head_bytes)
{
    const char *end = head + head_bytes;
    const char *line_end = memmem(head, head_bytes, "\r\n", 2);   /* end of "GET / HTTP/1.1" */
    bool keep_alive = !(line_end - head >= 8 && memcmp(line_end - 8, "HTTP/1.0", 8) == 0);

    for (const char *line = line_end + 2; line < end; ) {
        const char *eol = memmem(line, (size_t)(end - line), "\r\n", 2);
        size_t n = (size_t)(eol - line);
        if (n > 11 && strncasecmp(line, "Connection:", 11) == 0) {
            if (contains_word(line + 11, n - 11, "close"))
                keep_alive = false;
            else if (contains_word(line + 11, n - 11, "keep-alive"))
                keep_alive = true;
        }
        line = eol + 2;
    }
    return keep_alive;
}

/* A request head over HTTP_MAX_HEAD_BYTES: answer 431 (RFC 6585) and close. */
static int http_reject(struct conn *c)
{
    buffer_free(&c->in);
    c->scanned = 0;
    c->close_after_output = true;
    return buffer_append(&c->out, http_431, sizeof http_431 - 1);
}

/* Queues the 200 reply; with sendfile, its body follows when c->out has been sent. */
static int http_queue_reply(struct conn *c, bool keep_alive)
{
    const char *reply = keep_alive ? http_reply.keep_alive : http_reply.close;
    size_t reply_bytes = keep_alive ? http_reply.keep_alive_bytes : http_reply.close_bytes;
    if (buffer_append(&c->out, reply, reply_bytes) < 0)
        return -1;
    if (http_reply.body_fd >= 0)
        c->body_left = http_reply.body_bytes;
    return 0;
}

/*
 * Should the next request wait? Its reply would go behind a body still to be sent by
 * sendfile (c->out can't hold it in between), or behind 256 KiB of replies already: a
 * client that pipelines many requests for big bodies and reads nothing would otherwise
 * make us hold all the replies in memory at once.
 */
static bool http_holding_back(const struct conn *c)
{
    return c->body_left > 0 || buffer_length(&c->out) >= HTTP_HOLD_BACK_BYTES;
}

/* ANCHOR: http */
/*
 * HTTP: collect bytes until a request head ends with an empty line (CRLFCRLF), then
 * queue one fixed response. Several requests may arrive in one read (pipelining) and
 * one request may arrive over several reads; either way the answers go out in order.
 */
static int http_answer(struct conn *c)
{
    for (;;) {
        if (http_holding_back(c))
            return 0;                    /* answered later, by conn_flush() */
        /* Empty lines before a request are allowed and ignored (RFC 9112, 2.2). */
        while (buffer_length(&c->in) > 0 &&
               (c->in.data[c->in.start] == '\r' || c->in.data[c->in.start] == '\n'))
            buffer_consume(&c->in, 1);
        size_t available = buffer_length(&c->in);
        if (available == 0)
            return 0;

        const char *head = c->in.data + c->in.start;
        size_t from = c->scanned > 3 ? c->scanned - 3 : 0;   /* CRLFCRLF may span two reads */
        const char *blank_line = memmem(head + from, available - from, "\r\n\r\n", 4);
        if (blank_line == NULL) {
            c->scanned = available;
            if (available > HTTP_MAX_HEAD_BYTES)
                return http_reject(c);
            return 0;                    /* wait for the rest of the head */
        }

        size_t head_bytes = (size_t)(blank_line - head) + 4;
        if (head_bytes > HTTP_MAX_HEAD_BYTES)
            return http_reject(c);
        bool keep_alive = http_keep_alive(head, head_bytes);
        if (http_queue_reply(c, keep_alive) < 0)
            return -1;
        buffer_consume(&c->in, head_bytes);
        c->scanned = 0;

        if (!keep_alive) {
            c->close_after_output = true;
            buffer_free(&c->in);
            return 0;
        }
    }
}
/* ANCHOR_END: http */

static int http_feed(struct conn *c, const char *data, size_t len)
{
    if (c->close_after_output)
        return 0;                        /* already sent the last answer: ignore the rest */
    if (buffer_append(&c->in, data, len) < 0)
        return -1;
    return http_answer(c);
}

/* -1 out of memory, 0 nothing (more) to answer now, 1 replies queued. */
static int answer_held_requests(struct conn *c)
{
    if (c->protocol != PROTOCOL_HTTP || c->close_after_output || buffer_length(&c->in) == 0 ||
        http_holding_back(c))
        return 0;
    size_t before = conn_output_pending(c);
    if (http_answer(c) < 0)
        return -1;
    return conn_output_pending(c) > before;
}

bool conn_caught_up(const struct conn *c)
{
    return c->protocol != PROTOCOL_HTTP || buffer_length(&c->in) == 0 || !http_holding_back(c);
}

int conn_feed(struct conn *c, const char *data, size_t len)
{
    switch (c->protocol) {
    case PROTOCOL_ECHO:
        return echo_feed(c, data, len);
    case PROTOCOL_HTTP:
        return http_feed(c, data, len);
    }
    errno = EINVAL;
    return -1;
}
