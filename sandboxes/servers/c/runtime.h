/*
 * runtime.h - what every C10K Lab server process needs besides its I/O model and its
 * protocol: command-line flags, the listening socket, the stop signals, messages, and
 * what an accept() error means. protocol.h (the bytes a server exchanges with a client)
 * builds on it, and every server file includes protocol.h.
 *
 * What lives here:
 *   - command-line flags common to every server (--port, --protocol, --backlog,
 *     --buffer-bytes), plus a small table through which a model adds its own knobs;
 *   - the listening socket and the file-descriptor limit;
 *   - signals: SIGPIPE ignored, SIGTERM/SIGINT ask the server to stop, and blocking
 *     them (with SIGCHLD) while a forking model forks;
 *   - error messages in nginx's style: "read(fd 7) failed: Connection reset by peer";
 *   - accept() errors sorted into "try the next client" and "out of descriptors", and a
 *     blocking accept that copes with both, for the blocking models.
 *
 * How a model starts (error handling left out):
 *
 *     struct server_config cfg;
 *     config_parse(&cfg, "c-poll", argc, argv, knobs, KNOB_COUNT(knobs));
 *     int stop_fd  = signals_init();        // readable once SIGTERM/SIGINT arrived
 *     int listener = listen_on(&cfg, LISTEN_NONBLOCK);
 *     config_print(&cfg, knobs, KNOB_COUNT(knobs));
 */
#ifndef C10KLAB_RUNTIME_H
#define C10KLAB_RUNTIME_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define DEFAULT_PORT          9000
#define DEFAULT_BACKLOG       4096      /* connections waiting in the kernel's accept queue */
#define DEFAULT_BUFFER_BYTES  16384     /* bytes asked for by one read() */
#define MIN_BUFFER_BYTES      512
#define MAX_BUFFER_BYTES      1048576

/* ---- configuration -------------------------------------------------------------- */

enum protocol { PROTOCOL_ECHO, PROTOCOL_HTTP };

struct server_config {
    const char    *name;          /* server id, e.g. "c-epoll": prefixes every message */
    int            port;
    enum protocol  protocol;
    int            backlog;
    size_t         buffer_bytes;
};

/*
 * A model's own command-line knob, e.g. epoll's "--trigger lt|et".
 * An enum knob lists its choices (NULL-terminated) and its value is an index into
 * them; an integer knob has choices == NULL and a range. Set .value to the default
 * before calling config_parse(); afterwards it holds what the user asked for.
 */
struct knob {
    const char         *name;     /* shown in the start-up line: "trigger=lt" */
    const char         *flag;     /* "--trigger" */
    const char         *help;
    const char *const  *choices;  /* enum knob: {"lt", "et", NULL}; integer knob: NULL */
    long                min, max; /* integer knob: allowed range */
    long                value;
};

#define KNOB_COUNT(knobs) (sizeof(knobs) / sizeof((knobs)[0]))

/* Parses argv into cfg and knobs. Prints usage and exits 0 for --help, 1 on bad input. */
void config_parse(struct server_config *cfg, const char *name, int argc, char **argv,
                  struct knob *knobs, size_t knob_count);

/* "c-epoll: listening on 0.0.0.0:9000 protocol=echo trigger=lt backlog=4096 buffer=16384" */
void config_print(const struct server_config *cfg, const struct knob *knobs, size_t knob_count);

/* ---- set-up (each exits 1 with a message on failure) ---------------------------- */

#define LISTEN_NONBLOCK  1        /* accept() returns EAGAIN instead of blocking */
#define LISTEN_REUSEPORT 2        /* several sockets may bind the port (one per thread) */

int listen_on(const struct server_config *cfg, int flags);

/* Raises RLIMIT_NOFILE to its hard limit; returns the new limit (the most fds we may have). */
int raise_fd_limit(void);

/*
 * Ignores SIGPIPE and makes SIGTERM and SIGINT ask the server to stop.
 * Returns the read end of a pipe that becomes readable when that happens, for models
 * that wait in select/poll/epoll. Blocking calls (accept, read) return EINTR instead:
 * models that block check stop_requested() when they see it.
 */
int  signals_init(void);
bool stop_requested(void);
const char *stop_signal_name(void);

/*
 * For models that block in accept(), read() or write() rather than wait on the stop pipe:
 * from now on the stop signal also shuts down these sockets (-1: none), and if it has
 * already arrived they are shut down at once. A call blocked on a shut-down socket
 * returns (accept() fails, read() returns 0, write() fails), and so does every later
 * one, so a signal that lands just before the call is not missed the way EINTR would be.
 * Call it again with client_fd = -1 before closing that client's socket.
 */
void stop_shuts_down(int listen_fd, int client_fd);

/*
 * For the models that fork (c-forking, c-preforked): blocks SIGCHLD, SIGTERM and SIGINT,
 * so that no handler runs while the parent forks or counts its children; *old gets the
 * mask as it was, to restore (or to give a new child) afterwards.
 */
void block_signals(sigset_t *old);

/* ---- messages ------------------------------------------------------------------- */

/* "c-epoll: <message>" on stderr. */
void log_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "c-epoll: <message>: <strerror(errno)>", e.g. "epoll_wait() failed: Bad file descriptor". */
void log_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* log_errno(), then exit(1): for set-up errors. */
void die_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * For messages that could repeat thousands of times a second (fork() failing for every
 * new client): true at most once every `seconds` for the same *last, which starts at 0.
 */
bool rate_limit(time_t *last, int seconds);

/* close(), logging "close(fd 7) failed: ..." if it fails. */
void close_or_log(int fd);

/* Sleeps for ms milliseconds, or less if a signal arrives. */
void pause_ms(long ms);

/* ---- accepting -------------------------------------------------------------------- */

/* accept() errors after which the next accept() may well succeed (the client gave up). */
bool accept_error_is_transient(int err);

/* accept() errors that mean "no file descriptors or memory left": stop accepting for a while. */
bool accept_error_is_exhaustion(int err);

/* Blocking servers: the next client's socket from a blocking listening socket, waiting
 * out a shortage of file descriptors; -1 once a stop was requested. */
int accept_blocking(int listen_fd);

/* Threaded servers: lock or unlock a mutex; a failure is a bug, so the process ends. */
void lock_or_die(pthread_mutex_t *mutex);
void unlock_or_die(pthread_mutex_t *mutex);

#endif
