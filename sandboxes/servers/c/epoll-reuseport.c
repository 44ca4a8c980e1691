/*
 * epoll-reuseport.c - c-epoll-reuseport: one epoll event loop per CPU core, nginx-style
 * (a "multi-reactor").
 *
 * What it shows: the step from one reactor (c-epoll) to one reactor per core. The
 * server starts N worker threads. Each has its OWN listening socket, bound to the same
 * port, which SO_REUSEPORT allows, and runs c-epoll's event loop on it, unchanged:
 * epoll_serve() from epoll.c, whose state (and readiness.c's) is _Thread_local, so every
 * worker has its own epoll instance, connection table and read buffer. The kernel spreads new connections
 * over the listening sockets, picking one by a hash of the connection's addresses and
 * ports (its 4-tuple); a connection then stays with the worker that accepted it for
 * its whole life. The workers share nothing and take no locks, so N cores can serve
 * about N times what one can.
 *
 * Threads or processes? nginx forks worker processes: a crashed worker is replaced by
 * its master process, and workers can be swapped for new ones when the configuration
 * changes. We need neither, and threads keep the rest simple: one process gets SIGTERM
 * and leaves no children behind; all workers share one file descriptor table, so the
 * container's nofile limit bounds them all together, exactly as for c-epoll; and the
 * container's process count shows them as threads. The event loops would run the same
 * in processes.
 *
 * Minimum kernel: Linux 3.9 (SO_REUSEPORT for TCP).
 *
 * Usage:     c-epoll-reuseport [--port 9000] [--protocol echo|http] [--workers 0]
 *                              [--trigger lt|et] [--backlog 4096] [--buffer-bytes 16384]
 * Test with: c-epoll-reuseport --workers 4 &  and then  ss -ltn 'sport = 9000'
 *            (four listening sockets on one port), then
 *            c-epoll-reuseport --protocol http &  and  wrk -c 100 -d 5s http://127.0.0.1:9000/
 *
 * Simplifications: the kernel's choice of worker ignores how busy each is, and nothing
 * moves a connection afterwards, so an unlucky worker may get more than its share of busy
 * clients; when file descriptors run out, a worker resumes accepting only once one of
 * its own connections closes; more workers than CPUs only adds contention (in the
 * benchmark the server's container is pinned to one CPU). Also c-epoll's: no idle
 * timeouts, IPv4 only.
 */
#define _GNU_SOURCE
#include "epoll.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#define MAX_WORKERS  64         /* --workers upper bound: threads, one event loop each */

static struct knob knobs[] = {
    {.name = "workers", .flag = "--workers", .min = 0, .max = MAX_WORKERS, .value = 0,
     .help = "event loops, one thread and one listening socket each; 0 means one per CPU "
             "this process may run on"},
    EPOLL_TRIGGER_KNOB,
};
enum { KNOB_WORKERS, KNOB_TRIGGER };

/* Settings, set once by main() before any worker starts, and read by all of them. */
static struct server_config cfg;
static bool edge_triggered;     /* --trigger et */
static int stop_fd = -1;        /* readable once SIGTERM or SIGINT arrived */
static int max_fds;             /* the most file descriptors the process may have */

struct worker {
    pthread_t           thread;
    int                 listen_fd;   /* its own listening socket on the shared port */
    struct loop_totals  totals;      /* connections it accepted, and left open at the stop */
};

/*
 * Relies on: sched_getaffinity() listing the CPUs this process may run on, as `nproc`
 * does. In a container pinned to one CPU that is 1, even on a 64-core host, where
 * sysconf(_SC_NPROCESSORS_ONLN) would count all 64.
 */
/* ANCHOR: usable-cpus */
static int usable_cpus(void)
{
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) < 0)
        die_errno("sched_getaffinity() failed");
    int n = CPU_COUNT(&cpus);
    return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : n;
}
/* ANCHOR_END: usable-cpus */

/*
 * One worker thread: c-epoll's event loop, on the worker's own listening socket.
 * Everything the loop touches is this thread's own copy (_Thread_local state).
 * Relies on: the stop pipe waking every worker: the signal handler writes one byte,
 * nobody reads it, and level-triggered epoll keeps reporting it to each worker's
 * epoll_wait(), so one SIGTERM stops them all.
 */
/* ANCHOR: workers */
static void *run_worker(void *arg)
{
    struct worker *w = arg;
    w->totals = epoll_serve(&cfg, w->listen_fd, stop_fd, max_fds, edge_triggered);
    return NULL;
}
/* ANCHOR_END: workers */

/* Logs "connections accepted by each worker: 26 24 ...": how the kernel spread them. */
static void log_spread(const struct worker *workers, int count)
{
    char line[MAX_WORKERS * 24];
    size_t used = 0;
    line[0] = '\0';
    for (int i = 0; i < count && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, " %lu",
                                 workers[i].totals.accepted);
    log_msg("connections accepted by each worker:%s", line);
}

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-epoll-reuseport", argc, argv, knobs, KNOB_COUNT(knobs));
    edge_triggered = knobs[KNOB_TRIGGER].value == TRIGGER_ET;
    int worker_count = knobs[KNOB_WORKERS].value > 0 ? (int)knobs[KNOB_WORKERS].value
                                                     : usable_cpus();

    stop_fd = signals_init();
    max_fds = raise_fd_limit();

    /*
     * Relies on: SO_REUSEPORT (set by listen_on() before bind()) letting several sockets
     * of the same user bind the same address and port; the kernel then hashes each new
     * connection's 4-tuple to pick one listening socket, whose own accept queue holds it
     * until that socket's worker accepts it. All sockets are bound here, in the main
     * thread, so that a set-up error (port in use) exits before any worker starts.
     */
    /* ANCHOR: reuseport */
    struct worker workers[MAX_WORKERS];
    memset(workers, 0, sizeof workers);
    for (int i = 0; i < worker_count; i++)
        workers[i].listen_fd = listen_on(&cfg, LISTEN_NONBLOCK | LISTEN_REUSEPORT);

    for (int i = 0; i < worker_count; i++) {
        int err = pthread_create(&workers[i].thread, NULL, run_worker, &workers[i]);
        if (err != 0) {
            errno = err;
            die_errno("pthread_create(worker %d) failed", i);
        }
    }
    /* ANCHOR_END: reuseport */

    log_msg("%d worker thread%s, each with its own listening socket and epoll instance%s",
            worker_count, worker_count == 1 ? "" : "s",
            knobs[KNOB_WORKERS].value == 0 ? " (--workers 0: one per usable CPU)" : "");
    config_print(&cfg, knobs, KNOB_COUNT(knobs));

    int open = 0;
    for (int i = 0; i < worker_count; i++) {
        int err = pthread_join(workers[i].thread, NULL);
        if (err != 0) {
            errno = err;
            die_errno("pthread_join(worker %d) failed", i);
        }
        open += workers[i].totals.open;
    }
    log_spread(workers, worker_count);
    log_msg("%s received: closed %d connection%s, exiting", stop_signal_name(), open,
            open == 1 ? "" : "s");
    return 0;
}
