/*
 * runtime.c - what every C10K Lab server process needs before and around its I/O model:
 * messages, the command line, the listening socket, the file-descriptor limit, the stop
 * signals, and accept() errors. See runtime.h for how a server uses it. Nothing in here
 * touches a client's bytes: that is protocol.c.
 *
 * Simplifications: IPv4 only.
 */
#define _GNU_SOURCE
#include "runtime.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <fcntl.h>

#define MAX_FDS  1048576     /* cap on raise_fd_limit()'s answer */

static const char *program = "server";   /* the server id, set by config_parse() */

/* ---- messages --------------------------------------------------------------------- */

static void vlog(const char *fmt, va_list args, int err)
{
    char message[512];
    vsnprintf(message, sizeof message, fmt, args);
    if (err != 0)
        fprintf(stderr, "%s: %s: %s\n", program, message, strerror(err));
    else
        fprintf(stderr, "%s: %s\n", program, message);
}

void log_msg(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vlog(fmt, args, 0);
    va_end(args);
}

void log_errno(const char *fmt, ...)
{
    int err = errno;
    va_list args;
    va_start(args, fmt);
    vlog(fmt, args, err);
    va_end(args);
    errno = err;
}

void die_errno(const char *fmt, ...)
{
    int err = errno;
    va_list args;
    va_start(args, fmt);
    vlog(fmt, args, err);
    va_end(args);
    exit(1);
}

bool rate_limit(time_t *last, int seconds)
{
    time_t now = time(NULL);
    if (*last != 0 && now - *last < seconds)
        return false;
    *last = now;
    return true;
}

void close_or_log(int fd)
{
    if (close(fd) < 0)
        log_errno("close(fd %d) failed", fd);
}

void pause_ms(long ms)
{
    struct timespec pause = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    if (nanosleep(&pause, NULL) < 0 && errno != EINTR)
        log_errno("nanosleep() failed");
}

/* ---- command line ------------------------------------------------------------------- */

static const char *protocol_name(enum protocol p)
{
    return p == PROTOCOL_HTTP ? "http" : "echo";
}

/* "lt|et" for an enum knob, "N" for an integer knob. */
static const char *knob_metavar(const struct knob *k, char *text, size_t size)
{
    if (k->choices == NULL)
        return "N";
    size_t used = 0;
    text[0] = '\0';
    for (size_t j = 0; k->choices[j] && used < size; j++)
        used += (size_t)snprintf(text + used, size - used, "%s%s", j ? "|" : "", k->choices[j]);
    return text;
}

static void usage(FILE *out, const struct knob *knobs, size_t knob_count)
{
    char metavar[128];
    fprintf(out, "Usage: %s [--port N] [--protocol echo|http] [--backlog N] [--buffer-bytes N]",
            program);
    for (size_t i = 0; i < knob_count; i++)
        fprintf(out, " [%s %s]", knobs[i].flag, knob_metavar(&knobs[i], metavar, sizeof metavar));
    fprintf(out, "\n\n"
            "  --port N              TCP port to listen on, all interfaces (default %d)\n"
            "  --protocol echo|http  echo: send every byte back; http: answer each request\n"
            "                        with a fixed keep-alive 200 OK (default echo)\n"
            "  --backlog N           listen() backlog (default %d)\n"
            "  --buffer-bytes N      bytes asked for by one read(), %d..%d (default %d)\n",
            DEFAULT_PORT, DEFAULT_BACKLOG, MIN_BUFFER_BYTES, MAX_BUFFER_BYTES,
            DEFAULT_BUFFER_BYTES);
    for (size_t i = 0; i < knob_count; i++) {
        const struct knob *k = &knobs[i];
        char flag_and_metavar[160];
        snprintf(flag_and_metavar, sizeof flag_and_metavar, "%s %s", k->flag,
                 knob_metavar(k, metavar, sizeof metavar));
        fprintf(out, "  %-21s %s", flag_and_metavar, k->help);
        if (k->choices)
            fprintf(out, " (default %s)\n", k->choices[k->value]);
        else
            fprintf(out, ", %ld..%ld (default %ld)\n", k->min, k->max, k->value);
    }
}

static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vlog(fmt, args, 0);
    va_end(args);
    fprintf(stderr, "Try '%s --help'.\n", program);
    exit(1);
}

static long parse_long(const char *flag, const char *text, long min, long max)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < min || value > max)
        usage_error("%s wants a whole number from %ld to %ld, not '%s'", flag, min, max, text);
    return value;
}

static long parse_choice(const char *flag, const char *text, const char *const *choices)
{
    for (long i = 0; choices[i]; i++)
        if (strcmp(text, choices[i]) == 0)
            return i;
    usage_error("%s does not accept '%s' (see --help)", flag, text);
}

void config_parse(struct server_config *cfg, const char *name, int argc, char **argv,
                  struct knob *knobs, size_t knob_count)
{
    program = name;
    *cfg = (struct server_config){
        .name = name,
        .port = DEFAULT_PORT,
        .protocol = PROTOCOL_ECHO,
        .backlog = DEFAULT_BACKLOG,
        .buffer_bytes = DEFAULT_BUFFER_BYTES,
    };
    static const char *const protocols[] = {"echo", "http", NULL};

    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        if (strcmp(flag, "--help") == 0 || strcmp(flag, "-h") == 0) {
            usage(stdout, knobs, knob_count);
            exit(0);
        }
        if (i + 1 == argc)
            usage_error("%s needs a value", flag);
        const char *value = argv[++i];

        if (strcmp(flag, "--port") == 0)
            cfg->port = (int)parse_long(flag, value, 1, 65535);
        else if (strcmp(flag, "--protocol") == 0)
            cfg->protocol = parse_choice(flag, value, protocols) == 1 ? PROTOCOL_HTTP
                                                                       : PROTOCOL_ECHO;
        else if (strcmp(flag, "--backlog") == 0)
            cfg->backlog = (int)parse_long(flag, value, 1, 65535);
        else if (strcmp(flag, "--buffer-bytes") == 0)
            cfg->buffer_bytes = (size_t)parse_long(flag, value, MIN_BUFFER_BYTES, MAX_BUFFER_BYTES);
        else {
            size_t k = 0;
            while (k < knob_count && strcmp(flag, knobs[k].flag) != 0)
                k++;
            if (k == knob_count)
                usage_error("unknown flag '%s'", flag);
            knobs[k].value = knobs[k].choices
                                 ? parse_choice(flag, value, knobs[k].choices)
                                 : parse_long(flag, value, knobs[k].min, knobs[k].max);
        }
    }
}

void config_print(const struct server_config *cfg, const struct knob *knobs, size_t knob_count)
{
    /* Built first and printed in one go, so that the line never appears half-written. */
    char line[512];
    size_t used = (size_t)snprintf(line, sizeof line, "%s: listening on 0.0.0.0:%d protocol=%s",
                                   cfg->name, cfg->port, protocol_name(cfg->protocol));
    for (size_t i = 0; i < knob_count && used < sizeof line; i++) {
        const struct knob *k = &knobs[i];
        if (k->choices)
            used += (size_t)snprintf(line + used, sizeof line - used, " %s=%s", k->name,
                                     k->choices[k->value]);
        else
            used += (size_t)snprintf(line + used, sizeof line - used, " %s=%ld", k->name,
                                     k->value);
    }
    if (used < sizeof line)
        snprintf(line + used, sizeof line - used, " backlog=%d buffer=%zu", cfg->backlog,
                 cfg->buffer_bytes);
    fprintf(stderr, "%s\n", line);
}

/* ---- set-up ----------------------------------------------------------------------------- */

/*
 * Relies on: SO_REUSEADDR letting us bind a port whose previous connections are still
 * in TIME_WAIT (so a restarted server can listen at once), and Linux copying
 * TCP_NODELAY from the listening socket to every accepted socket, so that small replies
 * leave at once instead of waiting for the client's ACK (Nagle's algorithm).
 */
int listen_on(const struct server_config *cfg, int flags)
{
    int type = SOCK_STREAM | SOCK_CLOEXEC | ((flags & LISTEN_NONBLOCK) ? SOCK_NONBLOCK : 0);
    int fd = socket(AF_INET, type, 0);
    if (fd < 0)
        die_errno("socket() failed");

    int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0)
        die_errno("setsockopt(SO_REUSEADDR) failed");
    if ((flags & LISTEN_REUSEPORT) &&
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0)
        die_errno("setsockopt(SO_REUSEPORT) failed");
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0)
        die_errno("setsockopt(TCP_NODELAY) failed");

    struct sockaddr_in addr = {
        .sin_family = AF_INET,
        .sin_port = htons((uint16_t)cfg->port),
        .sin_addr.s_addr = htonl(INADDR_ANY),
    };
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0)
        die_errno("bind(0.0.0.0:%d) failed", cfg->port);
    if (listen(fd, cfg->backlog) < 0)
        die_errno("listen(fd %d, backlog %d) failed", fd, cfg->backlog);
    return fd;
}

/*
 * Relies on: an unprivileged process being allowed to raise its soft RLIMIT_NOFILE up
 * to the hard limit. Every connection is a file descriptor, so this is the C10K ceiling.
 */
int raise_fd_limit(void)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) < 0)
        die_errno("getrlimit(RLIMIT_NOFILE) failed");
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &limit) < 0)
            die_errno("setrlimit(RLIMIT_NOFILE, %llu) failed",
                      (unsigned long long)limit.rlim_cur);
    }
    return limit.rlim_cur > MAX_FDS ? MAX_FDS : (int)limit.rlim_cur;
}

/* ---- signals ---------------------------------------------------------------------------- */

static volatile sig_atomic_t stop_signal;   /* 0, or the signal that asked us to stop */
static int stop_pipe[2] = {-1, -1};         /* [0] read end for event loops, [1] write end */
static volatile sig_atomic_t stop_listen_fd = -1;  /* sockets to shut down on a stop signal: */
static volatile sig_atomic_t stop_client_fd = -1;  /* see stop_shuts_down() */

/* shutdown() is async-signal-safe. Errors don't matter: the socket may already be closing. */
static void shut_down_stop_sockets(void)
{
    if (stop_listen_fd >= 0)
        (void)shutdown(stop_listen_fd, SHUT_RDWR);
    if (stop_client_fd >= 0)
        (void)shutdown(stop_client_fd, SHUT_RDWR);
}

/* Runs inside the signal handler: may only touch sig_atomic_t and async-signal-safe calls. */
static void on_stop_signal(int sig)
{
    int saved_errno = errno;
    stop_signal = sig;
    /* If the pipe is full, a wake-up byte is already waiting: nothing to do. */
    ssize_t written = write(stop_pipe[1], "x", 1);
    (void)written;
    shut_down_stop_sockets();
    errno = saved_errno;
}

/*
 * Relies on: a write to a closed connection raising SIGPIPE (fatal unless ignored);
 * a handler installed without SA_RESTART making blocking calls (accept, read,
 * epoll_wait, poll ...) fail with EINTR; and the "self-pipe trick": the handler writes
 * to a pipe that an event loop watches, so a signal arriving just before the loop goes
 * to sleep still wakes it.
 */
int signals_init(void)
{
    if (pipe2(stop_pipe, O_NONBLOCK | O_CLOEXEC) < 0)
        die_errno("pipe2() failed");

    struct sigaction ignore = {.sa_handler = SIG_IGN};
    if (sigaction(SIGPIPE, &ignore, NULL) < 0)
        die_errno("sigaction(SIGPIPE) failed");

    struct sigaction stop = {.sa_handler = on_stop_signal, .sa_flags = 0 /* no SA_RESTART */};
    if (sigemptyset(&stop.sa_mask) < 0)
        die_errno("sigemptyset() failed");
    if (sigaction(SIGTERM, &stop, NULL) < 0)
        die_errno("sigaction(SIGTERM) failed");
    if (sigaction(SIGINT, &stop, NULL) < 0)
        die_errno("sigaction(SIGINT) failed");
    return stop_pipe[0];
}

bool stop_requested(void)
{
    return stop_signal != 0;
}

const char *stop_signal_name(void)
{
    return stop_signal == SIGINT ? "SIGINT" : "SIGTERM";
}

void block_signals(sigset_t *old)
{
    sigset_t set;
    if (sigemptyset(&set) < 0 || sigaddset(&set, SIGCHLD) < 0 ||
        sigaddset(&set, SIGTERM) < 0 || sigaddset(&set, SIGINT) < 0)
        die_errno("sigaddset() failed");
    if (sigprocmask(SIG_BLOCK, &set, old) < 0)
        die_errno("sigprocmask() failed");
}

/*
 * Relies on: shutdown() waking every thread blocked on the socket, and leaving it shut:
 * on Linux, shutting down a listening socket stops it listening, so accept() fails with
 * EINVAL; on a connected socket read() then returns 0 and write() fails with EPIPE.
 * Storing the fds before checking stop_signal closes the gap with the handler: either it
 * runs after the store and shuts the sockets down itself, or we see stop_signal set.
 */
void stop_shuts_down(int listen_fd, int client_fd)
{
    stop_listen_fd = listen_fd;
    stop_client_fd = client_fd;
    if (stop_signal != 0)
        shut_down_stop_sockets();
}

/* ---- accepting ---------------------------------------------------------------------------- */

bool accept_error_is_transient(int err)
{
    /* accept(2): Linux reports network errors already pending on the new connection
       here; "treat them like EAGAIN by retrying". ECONNABORTED: the client gave up. */
    switch (err) {
    case EINTR: case ECONNABORTED: case EPROTO: case EPERM:
    case ENETDOWN: case ENOPROTOOPT: case EHOSTDOWN: case ENONET:
    case EHOSTUNREACH: case EOPNOTSUPP: case ENETUNREACH:
        return true;
    default:
        return false;
    }
}

bool accept_error_is_exhaustion(int err)
{
    return err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM;
}

/* ---- blocking servers ------------------------------------------------------------------- */

#define ACCEPT_RETRY_MS  100   /* out of file descriptors: wait this long, then try again */

/*
 * Relies on: accept() on a blocking listening socket sleeping until the kernel has a
 * completed connection in the listen backlog; and on a stop (SIGTERM: stop_shuts_down()
 * shuts the listening socket down) making a sleeping accept() fail at once. A client that
 * gave up before we took it is skipped; when the process is out of file descriptors, we
 * wait and try again (an existing client closing frees one), saying so at most once a
 * second. Any other failure ends the process.
 */
/* ANCHOR: accept-blocking */
int accept_blocking(int listen_fd)
{
    static time_t last_complaint;

    for (;;) {
        int fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);   /* sleeps until a client */
        if (fd >= 0)
            return fd;
        if (stop_requested())
            return -1;                      /* the listening socket was shut down */
        if (accept_error_is_transient(errno))
            continue;                       /* that client gave up; take the next one */
        if (!accept_error_is_exhaustion(errno))
            die_errno("accept4(fd %d) failed", listen_fd);
        if (rate_limit(&last_complaint, 1))
            log_errno("accept4() failed; retrying every %d ms", ACCEPT_RETRY_MS);
        pause_ms(ACCEPT_RETRY_MS);
    }
}
/* ANCHOR_END: accept-blocking */

void lock_or_die(pthread_mutex_t *mutex)
{
    int err = pthread_mutex_lock(mutex);
    if (err != 0) {
        errno = err;
        die_errno("pthread_mutex_lock() failed");
    }
}

void unlock_or_die(pthread_mutex_t *mutex)
{
    int err = pthread_mutex_unlock(mutex);
    if (err != 0) {
        errno = err;
        die_errno("pthread_mutex_unlock() failed");
    }
}

