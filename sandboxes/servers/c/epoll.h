/*
 * epoll.h - c-epoll's event loop as a piece another program can run: c-epoll runs it
 * once, c-epoll-reuseport once per worker thread (see epoll-reuseport.c).
 */
#ifndef C10KLAB_EPOLL_H
#define C10KLAB_EPOLL_H

#include "runtime.h"

#include <stdbool.h>

/* The --trigger knob: level- (lt) or edge-triggered (et) readiness. */
enum { TRIGGER_LT, TRIGGER_ET };
extern const char *const trigger_choices[];   /* {"lt", "et", NULL} */
#define EPOLL_TRIGGER_KNOB                                                                \
    {.name = "trigger", .flag = "--trigger", .choices = trigger_choices,                  \
     .value = TRIGGER_LT, .help = "level- (lt) or edge-triggered (et) readiness"}

/* What one event loop did, told once it has stopped. */
struct loop_totals {
    int           open;       /* connections still open at the stop (now closed) */
    unsigned long accepted;   /* connections it accepted in all */
};

/*
 * Serves clients of `listener` with an epoll event loop in the calling thread until
 * SIGTERM or SIGINT makes stop_fd readable; then closes everything it opened, including
 * listener. Connections may use fds below max_fds.
 */
struct loop_totals epoll_serve(const struct server_config *cfg, int listener, int stop_fd,
                               int max_fds, bool edge_triggered);

#endif
