/*
 * prethreaded.c - c-prethreaded: a fixed pool of threads, started before any client
 * arrives, fed by a queue of accepted connections.
 *
 * What it shows: the thread pool, as in Java's ThreadPoolExecutor or Apache's worker
 * MPM. The main thread only accepts, and puts each new connection in a bounded queue;
 * --threads worker threads take connections from the queue, one at a time, and serve
 * each with plain blocking read() and write() until its client closes. No thread is
 * created per connection, and memory stays bounded however many clients come. But a
 * worker is busy for as long as its client stays connected: with more clients than
 * threads, the extra ones wait in the queue (and, once the queue is full, in the
 * kernel's listen backlog), connected but unanswered, until a worker is free. The
 * server does not hang: it keeps accepting, serves each waiting connection as soon as
 * an earlier client leaves, and a watcher thread logs when connections wait long.
 *
 * Minimum kernel: Linux 2.6.28 (accept4); any kernel of the last decade (NPTL threads).
 *
 * Usage:     c-prethreaded [--port 9000] [--protocol echo|http] [--threads 16]
 *                          [--queue 1024] [--backlog 4096] [--buffer-bytes 16384]
 * Test with: c-prethreaded --threads 2 &  then  nc 127.0.0.1 9000  in three terminals:
 *            the third echoes nothing until one of the first two quits (Ctrl-D).
 *
 * Simplifications: the pool never grows or shrinks; a waiting connection waits for ever
 * (no timeout, no "503 busy" reply); IPv4 only. The conversation with a client
 * (serve_blocking()) and the protocols live in protocol.c.
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

#define DEFAULT_THREADS       16
#define MAX_THREADS           1024
#define DEFAULT_QUEUE         1024    /* connections accepted and waiting for a thread */
#define MAX_QUEUE             65536
#define QUEUE_WARN_MS         1000    /* a connection that waited this long is worth a log line */
#define QUEUE_LOG_INTERVAL_S  5       /* ... but at most one such line in this many seconds */
#define WAKE_MS               500     /* the queue's watcher looks at it this often; the main
                                         thread, waiting for room in it, checks for SIGTERM */

static struct knob knobs[] = {
    {.name = "threads", .flag = "--threads", .min = 1, .max = MAX_THREADS,
     .value = DEFAULT_THREADS, .help = "worker threads, each serving one client at a time"},
    {.name = "queue", .flag = "--queue", .min = 1, .max = MAX_QUEUE, .value = DEFAULT_QUEUE,
     .help = "accepted connections that may wait for a thread"},
};

static struct server_config cfg;
static int thread_total;              /* --threads */
static pthread_t *workers;            /* thread_total of them */
static pthread_t watcher;             /* reports connections that wait long */

/* A connection waiting for a thread, and since when (CLOCK_MONOTONIC). */
struct waiting {
    int             fd;
    struct timespec since;
};

/* Shared by all threads: touch only with `lock` held. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  not_empty = PTHREAD_COND_INITIALIZER;  /* one was queued, or stop */
static pthread_cond_t  not_full = PTHREAD_COND_INITIALIZER;   /* a worker took one */
static pthread_cond_t  stop_watching = PTHREAD_COND_INITIALIZER;  /* for the watcher */
static struct waiting *queue;         /* a ring: queue_length entries from queue_head on */
static size_t queue_capacity;         /* --queue */
static size_t queue_head, queue_length;
static int  *serving;                 /* serving[i]: the socket worker i serves, or -1 */
static bool  stopping;                /* SIGTERM: workers take no more connections */

/* pthread_cond_wait() and friends fail only on invalid arguments: a bug, so we stop. */
static void check_cond(int err, const char *call)
{
    if (err != 0 && err != ETIMEDOUT) {
        errno = err;
        die_errno("%s() failed", call);
    }
}

static struct timespec now(clockid_t clock)
{
    struct timespec t;
    if (clock_gettime(clock, &t) < 0)
        die_errno("clock_gettime() failed");
    return t;
}

/* ms milliseconds from now, on the clock pthread_cond_timedwait() uses (CLOCK_REALTIME). */
static struct timespec deadline_in_ms(long ms)
{
    struct timespec t = now(CLOCK_REALTIME);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static double seconds_since(const struct timespec *then)
{
    struct timespec t = now(CLOCK_MONOTONIC);
    return (double)(t.tv_sec - then->tv_sec) + (double)(t.tv_nsec - then->tv_nsec) / 1e9;
}

/* Call with the lock held. Says so when connections have been waiting long for a thread. */
static void report_waiting(void)
{
    static time_t last_report;
    if (queue_length == 0)
        return;
    double waited = seconds_since(&queue[queue_head].since);
    if (waited * 1000 < QUEUE_WARN_MS || !rate_limit(&last_report, QUEUE_LOG_INTERVAL_S))
        return;
    log_msg("no free thread (%d in the pool): %zu connection%s waiting, the oldest for %.1f s",
            thread_total, queue_length, queue_length == 1 ? "" : "s", waited);
}

/*
 * Relies on: pthread_cond_wait() releasing the lock and sleeping as one step, and taking
 * the lock again before it returns, so a connection queued in between is not missed.
 * A woken thread checks the condition again (another worker may have taken the
 * connection first, and condition variables may wake a thread for no reason at all).
 * The worker records which socket it serves, in the same step, for stop_pool().
 */
/* ANCHOR: queue */
/* A worker: sleeps until a connection is queued, and takes it. -1: time to stop. */
static int take_connection(int worker)
{
    lock_or_die(&lock);
    while (queue_length == 0 && !stopping)
        check_cond(pthread_cond_wait(&not_empty, &lock), "pthread_cond_wait");
    int fd = -1;
    if (!stopping) {
        fd = queue[queue_head].fd;
        queue_head = (queue_head + 1) % queue_capacity;
        queue_length--;
        serving[worker] = fd;
        check_cond(pthread_cond_signal(&not_full), "pthread_cond_signal");
    }
    unlock_or_die(&lock);
    return fd;
}

/*
 * The main thread: queues a connection for the workers. While the queue is full it stops
 * accepting (new connections wait in the listen backlog), waking every WAKE_MS to see
 * whether SIGTERM has come: a signal handler may not touch a condition variable.
 */
static void put_connection(int fd)
{
    lock_or_die(&lock);
    while (queue_length == queue_capacity && !stop_requested()) {
        struct timespec deadline = deadline_in_ms(WAKE_MS);
        check_cond(pthread_cond_timedwait(&not_full, &lock, &deadline), "pthread_cond_timedwait");
    }
    if (queue_length == queue_capacity) {   /* stopping, and no room: never to be served */
        unlock_or_die(&lock);
        close_or_log(fd);
        return;
    }
    struct waiting *slot = &queue[(queue_head + queue_length) % queue_capacity];
    *slot = (struct waiting){.fd = fd, .since = now(CLOCK_MONOTONIC)};
    queue_length++;
    check_cond(pthread_cond_signal(&not_empty), "pthread_cond_signal");   /* wake one worker */
    unlock_or_die(&lock);
}
/* ANCHOR_END: queue */

/* A worker is done with its client. Unregistered before close(): see stop_pool(). */
static void finish_connection(int worker, int fd)
{
    lock_or_die(&lock);
    serving[worker] = -1;
    unlock_or_die(&lock);
    close_or_log(fd);
}

/* ANCHOR: pool */
/* A worker thread: serves one queued connection after another, until the server stops. */
static void *worker_thread(void *arg)
{
    int worker = (int)(intptr_t)arg;
    for (;;) {
        int fd = take_connection(worker);   /* sleeps while the queue is empty */
        if (fd < 0)
            return NULL;
        serve_blocking(fd, &cfg);           /* until this client closes: the thread is busy */
        finish_connection(worker, fd);
    }
}
/* ANCHOR_END: pool */

/*
 * Relies on: pthread_cond_timedwait() returning at its deadline when nobody signals.
 * While every worker is busy and no client comes or goes, no other thread of the server
 * runs at all, so this one looks at the queue every WAKE_MS, to say so in the log when
 * connections have been waiting long.
 */
/* ANCHOR: watch-queue */
static void *queue_watcher(void *arg)
{
    (void)arg;
    lock_or_die(&lock);
    while (!stopping) {
        struct timespec deadline = deadline_in_ms(WAKE_MS);
        check_cond(pthread_cond_timedwait(&stop_watching, &lock, &deadline),
                   "pthread_cond_timedwait");
        report_waiting();
    }
    unlock_or_die(&lock);
    return NULL;
}
/* ANCHOR_END: watch-queue */

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
        put_connection(fd);                 /* sleeps while the queue is full */
    }
}
/* ANCHOR_END: accept-loop */

/*
 * Relies on: shutdown() of a socket waking a worker blocked in read() or write() on it
 * (read() returns 0, write() fails with EPIPE), and pthread_cond_broadcast() waking every
 * worker asleep in take_connection(). A worker clears serving[] before it closes its
 * socket, so a number we shut down here is always still that worker's client.
 * Connections still waiting in the queue are closed unserved. Returns how many.
 */
/* ANCHOR: stop-pool */
static size_t stop_pool(void)
{
    lock_or_die(&lock);
    stopping = true;
    check_cond(pthread_cond_broadcast(&not_empty), "pthread_cond_broadcast");
    check_cond(pthread_cond_signal(&stop_watching), "pthread_cond_signal");
    size_t unserved = queue_length;
    for (; queue_length > 0; queue_length--) {
        close_or_log(queue[queue_head].fd);
        queue_head = (queue_head + 1) % queue_capacity;
    }
    for (int i = 0; i < thread_total; i++)
        if (serving[i] >= 0 && shutdown(serving[i], SHUT_RDWR) < 0 && errno != ENOTCONN)
            log_errno("shutdown(fd %d) failed", serving[i]);
    unlock_or_die(&lock);

    for (int i = 0; i <= thread_total; i++) {
        int err = pthread_join(i < thread_total ? workers[i] : watcher, NULL);
        if (err != 0) {
            errno = err;
            log_errno("pthread_join() failed");
        }
    }
    return unserved;
}
/* ANCHOR_END: stop-pool */

/* Starts the pool and its watcher; a set-up error if even one thread cannot be created. */
static void start_pool(void)
{
    for (int i = 0; i < thread_total; i++) {
        int err = pthread_create(&workers[i], NULL, worker_thread, (void *)(intptr_t)i);
        if (err != 0) {
            errno = err;
            die_errno("pthread_create() failed for thread %d of %d", i + 1, thread_total);
        }
    }
    int err = pthread_create(&watcher, NULL, queue_watcher, NULL);
    if (err != 0) {
        errno = err;
        die_errno("pthread_create() failed for the queue's watcher");
    }
}

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-prethreaded", argc, argv, knobs, KNOB_COUNT(knobs));
    thread_total = (int)knobs[0].value;
    queue_capacity = (size_t)knobs[1].value;

    (void)signals_init();                   /* its stop pipe is for event loops: we block */
    (void)raise_fd_limit();                 /* every queued connection is a descriptor */
    workers = calloc((size_t)thread_total, sizeof *workers);
    serving = calloc((size_t)thread_total, sizeof *serving);
    queue = calloc(queue_capacity, sizeof *queue);
    if (workers == NULL || serving == NULL || queue == NULL)
        die_errno("malloc() failed");
    for (int i = 0; i < thread_total; i++)
        serving[i] = -1;

    int listen_fd = listen_on(&cfg, 0);     /* a blocking listening socket */
    stop_shuts_down(listen_fd, -1);
    start_pool();
    config_print(&cfg, knobs, KNOB_COUNT(knobs));

    accept_loop(listen_fd);

    size_t unserved = stop_pool();
    log_msg("%s received: stopped %d thread%s, closed %zu waiting connection%s, exiting",
            stop_signal_name(), thread_total, thread_total == 1 ? "" : "s", unserved,
            unserved == 1 ? "" : "s");
    close_or_log(listen_fd);
    free(queue);
    free(serving);
    free(workers);
    return 0;
}
