/*
 * threaded.c - c-threaded: a new thread for every connection (thread per connection).
 *
 * What it shows: the model of classic Java servers and of many C servers of the 1990s.
 * The main thread only accepts; for each connection it starts a thread, which serves
 * that one client with plain blocking read() and write() and ends when the client
 * leaves. Like c-forking, a slow client holds up only itself, but a thread is much
 * cheaper to start than a process: it shares the address space, so nothing is copied.
 * What each thread costs is mostly its stack. --stack-kib sets how much address space
 * each stack reserves (8 MiB by default, as `ulimit -s`), but the kernel gives a thread
 * real memory only for the stack pages it touches: compare the server's virtual size
 * (VmSize in /proc/PID/status) with its resident size (VmRSS) under many connections.
 * Threads share memory, so the main thread and the clients' threads must take a lock
 * around what they share (here: the list of sockets to wake on SIGTERM).
 *
 * Minimum kernel: Linux 2.6.28 (accept4); any kernel of the last decade (NPTL threads).
 *
 * Usage:     c-threaded [--port 9000] [--protocol echo|http] [--stack-kib 8192]
 *                       [--backlog 4096] [--buffer-bytes 16384]
 * Test with: c-threaded --port 9000 &  then  nc 127.0.0.1 9000  in two terminals, and
 *            ls /proc/$(pgrep c-threaded)/task  to see one thread per client.
 *
 * Simplifications: no cap on the number of threads other than the kernel's (thread
 * creation then fails and that client is turned away); no idle timeouts; IPv4 only. The
 * conversation with a client (serve_blocking()) and the protocols live in protocol.c.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_STACK_KIB  8192   /* KiB of address space per thread's stack (glibc's default) */
#define MIN_STACK_KIB      64
#define MAX_STACK_KIB      65536
#define STOP_WAIT_MS       1500   /* after SIGTERM, how long to wait for the threads to end */

static struct knob knobs[] = {
    {.name = "stack-kib", .flag = "--stack-kib", .min = MIN_STACK_KIB, .max = MAX_STACK_KIB,
     .value = DEFAULT_STACK_KIB, .help = "address space reserved for each thread's stack, KiB"},
};

static struct server_config cfg;
static pthread_attr_t thread_attr;     /* detached, with --stack-kib of stack */

/* Shared by the main thread and the clients' threads: touch only with `lock` held. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t last_thread_done = PTHREAD_COND_INITIALIZER;
static bool *serving;                  /* serving[fd]: a thread is serving the socket fd */
static int max_fds;                    /* size of serving[] */
static int thread_count;               /* threads serving a client */

/*
 * The client on fd is done with. serving[] is indexed by descriptor number, and the
 * kernel hands a closed number to the very next accept(): so the entry is cleared and
 * the socket closed in one step under the lock, and stop_threads() can never shut down
 * a newer client's socket by mistake.
 */
static void finish_client(int fd)
{
    lock_or_die(&lock);
    serving[fd] = false;
    close_or_log(fd);
    if (--thread_count == 0)
        (void)pthread_cond_signal(&last_thread_done);   /* cannot fail on a valid cond */
    unlock_or_die(&lock);
}

/* ANCHOR: thread */
/* One thread's whole life: serve one client, then end. */
static void *client_thread(void *arg)
{
    int fd = (int)(intptr_t)arg;
    serve_blocking(fd, &cfg);               /* sleeps in read() and write() as it needs */
    finish_client(fd);
    return NULL;                            /* detached: the thread's memory is freed */
}
/* ANCHOR_END: thread */

/*
 * Relies on: pthread_create() starting a thread that shares our memory and descriptors,
 * with a stack of the size set in thread_attr: mmap() reserves that much address space,
 * and the kernel backs a page with memory only when the thread first touches it.
 * The thread is detached, so nobody has to pthread_join() it: its stack is freed when
 * it ends. Creating one fails with EAGAIN at the kernel's (or the container's) limit on
 * processes and threads: then this client is turned away, and the others carry on.
 */
/* ANCHOR: spawn-thread */
static void handle_connection(int fd)
{
    static time_t last_complaint;
    if (fd >= max_fds) {
        log_msg("no room for a connection on fd %d; closing it", fd);
        close_or_log(fd);
        return;
    }
    lock_or_die(&lock);
    serving[fd] = true;
    int running = ++thread_count;
    unlock_or_die(&lock);

    pthread_t thread;
    int err = pthread_create(&thread, &thread_attr, client_thread, (void *)(intptr_t)fd);
    if (err != 0) {
        errno = err;
        if (rate_limit(&last_complaint, 1))
            log_errno("pthread_create() failed with %d threads running; closing the connection",
                      running - 1);
        finish_client(fd);
    }
}
/* ANCHOR_END: spawn-thread */

/*
 * Relies on: accept() on a blocking listening socket sleeping until the kernel has a
 * completed connection for us. SIGTERM shuts the listening socket down
 * (stop_shuts_down()), which makes accept() fail at once, whichever thread the signal
 * handler ran on.
 */
/* ANCHOR: accept-loop */
static void accept_loop(int listen_fd)
{
    int fd;
    while ((fd = accept_blocking(listen_fd)) >= 0) {   /* sleeps until a client, or a stop */
        handle_connection(fd);
    }
}
/* ANCHOR_END: accept-loop */

/*
 * Relies on: shutdown() of a socket waking a thread blocked in read() or write() on it
 * (read() returns 0, write() fails with EPIPE), so every thread finishes its client
 * promptly. close() would not do: on Linux, closing a descriptor another thread is
 * blocked on does not wake that thread. Waits until the threads have all ended, or
 * STOP_WAIT_MS. Sets *stopped to how many were running; returns how many still are.
 */
/* ANCHOR: stop-threads */
static int stop_threads(int *stopped)
{
    lock_or_die(&lock);
    *stopped = thread_count;
    for (int fd = 0; fd < max_fds; fd++)
        if (serving[fd] && shutdown(fd, SHUT_RDWR) < 0 && errno != ENOTCONN)
            log_errno("shutdown(fd %d) failed", fd);

    struct timespec deadline;
    if (clock_gettime(CLOCK_REALTIME, &deadline) < 0)   /* the clock condvars use */
        die_errno("clock_gettime() failed");
    deadline.tv_sec += STOP_WAIT_MS / 1000;
    deadline.tv_nsec += (STOP_WAIT_MS % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    while (thread_count > 0) {
        int err = pthread_cond_timedwait(&last_thread_done, &lock, &deadline);
        if (err == ETIMEDOUT) {
            log_msg("%d threads still running after %d ms; exiting anyway", thread_count,
                    STOP_WAIT_MS);
            break;
        }
        if (err != 0) {
            errno = err;
            die_errno("pthread_cond_timedwait() failed");
        }
    }
    int left = thread_count;
    unlock_or_die(&lock);
    return left;
}
/* ANCHOR_END: stop-threads */

/* ANCHOR: stack-size */
/* Detached threads with --stack-kib of stack each. */
static void init_thread_attr(long stack_kib)
{
    int err = pthread_attr_init(&thread_attr);
    if (err == 0)
        err = pthread_attr_setdetachstate(&thread_attr, PTHREAD_CREATE_DETACHED);
    if (err == 0)
        err = pthread_attr_setstacksize(&thread_attr, (size_t)stack_kib * 1024);
    if (err != 0) {
        errno = err;
        die_errno("pthread_attr_setstacksize(%ld KiB) failed", stack_kib);
    }
}
/* ANCHOR_END: stack-size */

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-threaded", argc, argv, knobs, KNOB_COUNT(knobs));
    init_thread_attr(knobs[0].value);

    (void)signals_init();                   /* its stop pipe is for event loops: we block */
    max_fds = raise_fd_limit();
    serving = calloc((size_t)max_fds, sizeof *serving);
    if (serving == NULL)
        die_errno("malloc() failed");
    int listen_fd = listen_on(&cfg, 0);     /* a blocking listening socket */
    stop_shuts_down(listen_fd, -1);
    config_print(&cfg, knobs, KNOB_COUNT(knobs));

    accept_loop(listen_fd);

    int stopped;
    int left = stop_threads(&stopped);
    log_msg("%s received: stopped %d thread%s, exiting", stop_signal_name(), stopped,
            stopped == 1 ? "" : "s");
    close_or_log(listen_fd);
    if (pthread_attr_destroy(&thread_attr) != 0)
        log_msg("pthread_attr_destroy() failed");
    if (left == 0)           /* no thread can still be using it (a stuck one might) */
        free(serving);
    return 0;
}
