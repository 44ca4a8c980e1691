/*
 * preforked.c - c-preforked: a fixed set of worker processes, forked before any client
 * arrives, all sleeping in accept() on the same listening socket.
 *
 * What it shows: how Apache's prefork MPM avoids paying for fork() on every connection.
 * The parent opens the listening socket and forks --workers processes; each inherits the
 * socket and loops: accept() a client, serve it with blocking read() and write() until
 * it closes, accept the next. When a connection arrives the kernel wakes one of the
 * sleeping workers. With N workers, N clients are served at once; client N+1 waits,
 * completed but unaccepted, in the listen backlog until a worker is free, exactly as
 * every client but one waits with c-iterative. The parent serves no one: it sleeps,
 * starts a new worker if one dies, and stops them all on SIGTERM.
 *
 * Minimum kernel: Linux 2.6.28 (accept4); any kernel of the last decade.
 *
 * Usage:     c-preforked [--port 9000] [--protocol echo|http] [--workers 4]
 *                        [--backlog 4096] [--buffer-bytes 16384]
 * Test with: c-preforked --workers 2 &  then  nc 127.0.0.1 9000  in three terminals:
 *            the third echoes nothing until one of the first two quits (Ctrl-D).
 *
 * Simplifications: the number of workers is fixed (Apache grows and shrinks the pool
 * between MinSpareServers and MaxRequestWorkers); no idle timeouts; IPv4 only. The
 * conversation with a client (serve_blocking()) and the protocols live in protocol.c.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_WORKERS   4
#define MAX_WORKERS       64
#define RESTART_DELAY_MS  100   /* before replacing a worker that died, so that one dying
                                   at once cannot make us fork in a tight loop */

static struct knob knobs[] = {
    {.name = "workers", .flag = "--workers", .min = 1, .max = MAX_WORKERS,
     .value = DEFAULT_WORKERS, .help = "worker processes, each serving one client at a time"},
};

static struct server_config cfg;
static pid_t parent_pid;
static pid_t workers[MAX_WORKERS];   /* workers[i]: the pid of worker i, or 0 if none */
static int worker_count;             /* --workers */

/*
 * Relies on: several processes being allowed to sleep in accept() on one listening
 * socket (they share it: fork() copied the descriptor), and on the kernel waking only
 * one of them for each new connection (blocking accept() waits in an "exclusive" wait
 * queue, so there is no thundering herd). The worker is busy until its client closes;
 * meanwhile new connections go to the other workers, or wait in the backlog.
 */
/* ANCHOR: accept-loop */
static void __attribute__((noreturn)) worker_loop(int listen_fd)
{
    int fd;
    while ((fd = accept_blocking(listen_fd)) >= 0) {   /* sleeps until a client */
        serve_blocking(fd, &cfg);           /* until this client closes */
        close_or_log(fd);
    }
    _exit(0);   /* not reached: workers keep SIGTERM's default action, which ends them */
}
/* ANCHOR_END: accept-loop */

/*
 * Relies on: fork() giving the child copies of our descriptors, the listening socket
 * among them. The worker takes back the default action of SIGTERM and SIGINT (terminate:
 * a worker has nothing to tidy up; the kernel closes its sockets) before it unblocks
 * them, and asks the kernel for SIGTERM should the parent die (PR_SET_PDEATHSIG), so
 * that no worker outlives the parent, even one killed with SIGKILL.
 * Returns the worker's pid, or -1 if fork() failed.
 */
/* ANCHOR: prefork */
static pid_t start_worker(int listen_fd, const sigset_t *unblocked)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;                         /* the parent (or fork() failed: -1) */

    struct sigaction default_action = {.sa_handler = SIG_DFL};
    if (sigaction(SIGTERM, &default_action, NULL) < 0 ||
        sigaction(SIGINT, &default_action, NULL) < 0 ||
        sigaction(SIGCHLD, &default_action, NULL) < 0)
        die_errno("sigaction() failed in a worker");
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
        die_errno("prctl(PR_SET_PDEATHSIG) failed");
    if (getppid() != parent_pid)
        exit(0);                            /* the parent died before prctl(): so do we */
    if (sigprocmask(SIG_SETMASK, unblocked, NULL) < 0)
        die_errno("sigprocmask() failed in a worker");
    worker_loop(listen_fd);
}
/* ANCHOR_END: prefork */

/* Starts a new worker in the place of each one that has exited (none should). */
static void replace_dead_workers(int listen_fd, const sigset_t *unblocked)
{
    static time_t last_complaint;
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        for (int i = 0; i < worker_count; i++) {
            if (workers[i] != pid)
                continue;
            if (WIFSIGNALED(status))
                log_msg("worker %d (pid %d) was killed by signal %d (%s); starting another", i,
                        (int)pid, WTERMSIG(status), strsignal(WTERMSIG(status)));
            else
                log_msg("worker %d (pid %d) exited with status %d; starting another", i,
                        (int)pid, WEXITSTATUS(status));
            pause_ms(RESTART_DELAY_MS);
            workers[i] = start_worker(listen_fd, unblocked);
            if (workers[i] < 0) {
                if (rate_limit(&last_complaint, 1))
                    log_errno("fork() failed; running with one worker fewer");
                workers[i] = 0;
            }
        }
    }
}

/* Does nothing: it only has to exist, so that SIGCHLD ends sigsuspend() (see supervise()). */
static void on_child_exit(int sig)
{
    (void)sig;
}

/*
 * Relies on: sigsuspend() unblocking signals and sleeping as one atomic step, until a
 * signal handler has run. Signals stay blocked everywhere else in the parent, so one
 * arriving just before we go to sleep is held pending and ends the sleep at once,
 * rather than being missed. The parent sleeps here for the server's whole life: it
 * wakes when a worker dies (SIGCHLD) or when asked to stop (SIGTERM, SIGINT).
 */
/* ANCHOR: supervise */
static void supervise(int listen_fd, const sigset_t *unblocked)
{
    while (!stop_requested()) {
        (void)sigsuspend(unblocked);        /* always "fails" with EINTR: nothing to check */
        if (!stop_requested())
            replace_dead_workers(listen_fd, unblocked);
    }
}
/* ANCHOR_END: supervise */

/*
 * Relies on: SIGTERM's default action ending each worker at once (start_worker() restored
 * it), and waitpid() sleeping until that worker has exited.
 */
static void stop_workers(void)
{
    for (int i = 0; i < worker_count; i++)
        if (workers[i] > 0 && kill(workers[i], SIGTERM) < 0)
            log_errno("kill(%d, SIGTERM) failed", (int)workers[i]);
    for (int i = 0; i < worker_count; i++) {
        while (workers[i] > 0 && waitpid(workers[i], NULL, 0) < 0) {
            if (errno != EINTR) {
                log_errno("waitpid(%d) failed", (int)workers[i]);
                break;
            }
        }
    }
}

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-preforked", argc, argv, knobs, KNOB_COUNT(knobs));
    worker_count = (int)knobs[0].value;
    parent_pid = getpid();

    (void)signals_init();                   /* its stop pipe is for event loops */
    struct sigaction wake = {.sa_handler = on_child_exit, .sa_flags = SA_NOCLDSTOP};
    if (sigemptyset(&wake.sa_mask) < 0 || sigaction(SIGCHLD, &wake, NULL) < 0)
        die_errno("sigaction(SIGCHLD) failed");
    int listen_fd = listen_on(&cfg, 0);     /* a blocking listening socket */

    sigset_t unblocked;                     /* the mask to sleep with, and the workers' */
    block_signals(&unblocked);
    for (int i = 0; i < worker_count; i++) {
        workers[i] = start_worker(listen_fd, &unblocked);
        if (workers[i] < 0)
            die_errno("fork() failed starting worker %d", i);   /* PDEATHSIG ends the rest */
    }
    config_print(&cfg, knobs, KNOB_COUNT(knobs));

    supervise(listen_fd, &unblocked);

    stop_workers();
    log_msg("%s received: stopped %d worker%s, exiting", stop_signal_name(), worker_count,
            worker_count == 1 ? "" : "s");
    close_or_log(listen_fd);
    return 0;
}
