/*
 * forking.c - c-forking: a new process for every connection (process per connection).
 *
 * What it shows: the classic Unix server, as inetd and early Apache ran. The parent only
 * accepts; for each connection it fork()s a child, which serves that one client with
 * plain blocking read() and write() and exits when the client leaves. A slow client
 * now holds up only its own process. The price: one fork() per connection (the kernel
 * copies the parent's page tables, and every page either process writes is copied
 * later), one process per client in memory and in the scheduler, and the chores of a
 * parent: children that exit stay "zombies" until the parent collects them with
 * waitpid(), and on SIGTERM the parent must stop them too. --parent-mib makes the parent
 * as big as a real server, to show fork()'s cost growing with it.
 *
 * Minimum kernel: Linux 2.6.28 (accept4); any kernel of the last decade.
 *
 * Usage:     c-forking [--port 9000] [--protocol echo|http] [--backlog 4096]
 *                      [--buffer-bytes 16384] [--parent-mib 0]
 * Test with: c-forking --port 9000 &  then  nc 127.0.0.1 9000  in two terminals, and
 *            ps --ppid $(pgrep -o c-forking)  to see one child per client.
 *
 * Simplifications: no cap on the number of children other than MAX_CHILDREN and the
 * kernel's process limit (fork() then fails and that client is turned away); no idle
 * timeouts; IPv4 only. The conversation with a client (serve_blocking()) and the
 * protocols live in protocol.c.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CHILDREN     32768   /* processes: the most we keep track of (the kernel's
                                    default pid_max is 32768 too) */
#define MAX_PARENT_MIB   512

static struct knob knobs[] = {
    {.name = "parent-mib", .flag = "--parent-mib", .min = 0, .max = MAX_PARENT_MIB, .value = 0,
     .help = "MiB of memory the parent writes before it accepts, for every fork() to copy "
             "the page tables of"},
};

static struct server_config cfg;
static char *ballast;                   /* --parent-mib of written memory, kept for life */

/*
 * The children still running (or exited but not yet collected), so that SIGTERM can
 * reach them. Changed by the main loop and by the SIGCHLD handler: the main loop blocks
 * SIGCHLD while it touches the table, so the two never run at the same time.
 */
static pid_t children[MAX_CHILDREN];
static int child_count;

/* Drops pid from the table (the last entry takes its place). */
static void forget_child(pid_t pid)
{
    for (int i = 0; i < child_count; i++) {
        if (children[i] == pid) {
            children[i] = children[--child_count];
            return;
        }
    }
}

/*
 * Relies on: the kernel keeping an exited child as a zombie (its pid and exit status)
 * until the parent calls waitpid(), and sending the parent SIGCHLD when a child exits.
 * Signals of one kind do not queue: ten children exiting together may raise SIGCHLD
 * once, so the handler collects every exited child, until waitpid(WNOHANG) says none
 * is left. Runs inside the signal handler: waitpid() is async-signal-safe.
 */
/* ANCHOR: reap */
static void on_child_exit(int sig)
{
    (void)sig;
    int saved_errno = errno;
    pid_t pid;
    while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
        forget_child(pid);                  /* collected: no zombie left behind */
    errno = saved_errno;
}
/* ANCHOR_END: reap */

/*
 * SA_RESTART: a SIGCHLD arriving while the parent sleeps in accept() restarts the call
 * instead of failing it with EINTR. SA_NOCLDSTOP: no SIGCHLD when a child merely stops.
 */
static void reap_children_on_sigchld(void)
{
    struct sigaction reap = {.sa_handler = on_child_exit,
                             .sa_flags = SA_RESTART | SA_NOCLDSTOP};
    if (sigemptyset(&reap.sa_mask) < 0)
        die_errno("sigemptyset() failed");
    if (sigaction(SIGCHLD, &reap, NULL) < 0)
        die_errno("sigaction(SIGCHLD) failed");
}

/* Undoes block_signals() (runtime.h): the mask it saved in *old applies again. */
static void restore_signals(const sigset_t *old)
{
    if (sigprocmask(SIG_SETMASK, old, NULL) < 0)
        die_errno("sigprocmask() failed");
}

/*
 * The child: serve one client, then exit. It takes back the default actions of SIGTERM
 * and SIGINT (terminate) and of SIGCHLD, which fork() copied from the parent's handlers,
 * before it unblocks them: a SIGTERM the parent sends at any moment ends it, and the
 * kernel closes its socket. It closes its copy of the listening socket, so that only
 * the parent holds it.
 */
/* ANCHOR: child */
static void __attribute__((noreturn)) run_child(int listen_fd, int fd, const sigset_t *mask)
{
    struct sigaction default_action = {.sa_handler = SIG_DFL};
    if (sigaction(SIGTERM, &default_action, NULL) < 0 ||
        sigaction(SIGINT, &default_action, NULL) < 0 ||
        sigaction(SIGCHLD, &default_action, NULL) < 0)
        die_errno("sigaction() failed in the child");
    restore_signals(mask);                  /* a SIGTERM already sent ends us here */
    close_or_log(listen_fd);

    serve_blocking(fd, &cfg);
    close_or_log(fd);
    exit(0);
}
/* ANCHOR_END: child */

/*
 * Relies on: fork() returning twice, 0 in the new child and the child's pid in the
 * parent, with the child holding copies of all our file descriptors, this client's
 * socket among them. The parent closes its copy at once; the connection stays open until
 * the child closes its own. Signals are blocked around fork() so that the SIGCHLD
 * handler does not touch the table while we add to it, and so that the child cannot run
 * our SIGTERM handler before it has reset it.
 */
/* ANCHOR: fork */
static void handle_connection(int listen_fd, int fd)
{
    static time_t last_complaint;
    sigset_t old;
    block_signals(&old);

    pid_t pid = -1;
    if (child_count < MAX_CHILDREN)
        pid = fork();
    else
        errno = EAGAIN;                     /* our table is full: as if the kernel's were */
    if (pid == 0)
        run_child(listen_fd, fd, &old);     /* in the child: never returns */
    if (pid > 0)
        children[child_count++] = pid;
    else if (rate_limit(&last_complaint, 1))
        log_errno("fork() failed with %d children running; closing the connection",
                  child_count);

    restore_signals(&old);
    close_or_log(fd);                       /* the child has its own copy */
}
/* ANCHOR_END: fork */

/*
 * Relies on: accept() on a blocking listening socket sleeping until the kernel has a
 * completed connection for us. SIGTERM shuts the listening socket down
 * (stop_shuts_down()), which makes accept() fail at once.
 */
/* ANCHOR: accept-loop */
static void accept_loop(int listen_fd)
{
    int fd;
    while ((fd = accept_blocking(listen_fd)) >= 0) {   /* sleeps until a client, or a stop */
        handle_connection(listen_fd, fd);
    }
}
/* ANCHOR_END: accept-loop */

/*
 * Relies on: SIGTERM's default action ending each child at once (run_child() restored
 * it), and on waitpid() sleeping until some child has exited. SIGCHLD stays blocked, so
 * the handler cannot collect a child behind our back: waitpid() here collects them all.
 * If it fails with children still in the table (ECHILD: none left to wait for), the table
 * was wrong, e.g. children reaped elsewhere without forget_child(): -1, and main() exits
 * with a failure rather than claim a clean stop.
 */
/* ANCHOR: stop-children */
static int stop_children(void)
{
    sigset_t old;
    block_signals(&old);
    int stopped = child_count;
    for (int i = 0; i < child_count; i++)
        if (kill(children[i], SIGTERM) < 0)
            log_errno("kill(%d, SIGTERM) failed", (int)children[i]);

    while (child_count > 0) {
        pid_t pid = waitpid(-1, NULL, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            log_errno("waitpid() failed with %d children left", child_count);
            stopped = -1;
            break;
        }
        forget_child(pid);
    }
    restore_signals(&old);
    return stopped;
}
/* ANCHOR_END: stop-children */

/*
 * --parent-mib: make the parent big, as a real server with caches and loaded code is.
 * Relies on: fork() copying the page-table entries of every private page the parent has
 * written (the pages themselves are shared until one side writes them), and exit()
 * tearing the child's copy down again. Both grow with this memory, though the children
 * never touch it.
 */
/* ANCHOR: parent-size */
static void grow_parent(long mib)
{
    if (mib == 0)
        return;
    size_t bytes = (size_t)mib << 20;
    ballast = malloc(bytes);
    if (ballast == NULL)
        die_errno("malloc(%ld MiB) for --parent-mib failed", mib);
    memset(ballast, 1, bytes);          /* written: resident, with a page-table entry each */
}
/* ANCHOR_END: parent-size */

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-forking", argc, argv, knobs, KNOB_COUNT(knobs));
    grow_parent(knobs[0].value);
    (void)signals_init();                   /* its stop pipe is for event loops: we block */
    reap_children_on_sigchld();
    int listen_fd = listen_on(&cfg, 0);     /* a blocking listening socket */
    stop_shuts_down(listen_fd, -1);
    config_print(&cfg, knobs, KNOB_COUNT(knobs));

    accept_loop(listen_fd);

    int stopped = stop_children();
    close_or_log(listen_fd);
    if (stopped < 0) {
        log_msg("%s received: lost track of child processes, exiting", stop_signal_name());
        return EXIT_FAILURE;
    }
    log_msg("%s received: stopped %d child process%s, exiting", stop_signal_name(), stopped,
            stopped == 1 ? "" : "es");
    return 0;
}
