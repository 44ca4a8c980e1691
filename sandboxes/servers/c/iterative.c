/*
 * iterative.c - c-iterative: one client at a time. accept() a connection, serve it until
 * the client closes, then accept the next one.
 *
 * What it shows: the simplest server there is, and why it is not enough. accept(), read()
 * and write() all block, so while the server sleeps waiting for one client, every other
 * client waits too. Their connections are not refused: the kernel completes each TCP
 * handshake by itself and queues the connection in the listen backlog, so connect()
 * succeeds and the client's request sits unread in the kernel until the server comes
 * back to accept() it. Ten clients and one of them silent: the other nine get nothing
 * at all until the silent one hangs up.
 *
 * Minimum kernel: Linux 2.6.28 (accept4); any kernel of the last decade.
 *
 * Usage:     c-iterative [--port 9000] [--protocol echo|http] [--backlog 4096]
 *                        [--buffer-bytes 16384]
 * Test with: c-iterative --port 9000 &  then  nc 127.0.0.1 9000  in two terminals:
 *            the second gets its lines back only once the first nc quits (Ctrl-D).
 *
 * Simplifications: no timeouts, so one silent client stops the server for everyone;
 * IPv4 only. The conversation with a client (serve_blocking()) and the protocols live
 * in protocol.c.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>


static struct server_config cfg;

/*
 * Relies on: accept() on a blocking listening socket sleeping until the kernel has a
 * completed connection in the listen backlog, then returning a new socket for it; and on
 * the kernel completing handshakes while we are busy elsewhere (up to --backlog of them),
 * so clients that arrive meanwhile wait in that queue instead of being refused.
 * SIGTERM shuts down the listening socket and the client's socket (stop_shuts_down()),
 * which wakes whichever call we are sleeping in.
 */
/* ANCHOR: accept-loop */
static void accept_loop(int listen_fd)
{
    int fd;
    while ((fd = accept_blocking(listen_fd)) >= 0) {   /* sleeps until a client, or a stop */
        stop_shuts_down(listen_fd, fd);     /* SIGTERM now wakes the read() or write() */
        serve_blocking(fd, &cfg);           /* until this client closes: all others wait */
        stop_shuts_down(listen_fd, -1);
        close_or_log(fd);
    }
}
/* ANCHOR_END: accept-loop */

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-iterative", argc, argv, NULL, 0);
    (void)signals_init();                   /* its stop pipe is for event loops: we block */
    int listen_fd = listen_on(&cfg, 0);     /* a blocking listening socket */
    stop_shuts_down(listen_fd, -1);
    config_print(&cfg, NULL, 0);

    accept_loop(listen_fd);

    log_msg("%s received, exiting", stop_signal_name());
    close_or_log(listen_fd);
    return 0;
}
