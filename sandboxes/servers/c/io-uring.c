/*
 * io-uring.c - c-io-uring: one thread serves every client through io_uring, Linux's
 * completion-based I/O interface (the "Proactor" pattern).
 *
 * What it shows: epoll tells us *which* sockets are ready and leaves the read() and
 * write() calls to us. io_uring takes the operations themselves: we write requests
 * ("accept on this socket", "receive from that one", "send these bytes") as submission
 * queue entries (SQEs) into a ring of memory shared with the kernel, and read the results
 * as completion queue entries (CQEs) from a second shared ring. One io_uring_enter() call
 * hands the kernel a whole batch of SQEs and sleeps until completions arrive, so the
 * number of system calls per request falls far below epoll's two or three.
 *   - one system call per turn of the loop: CQEs are read from shared memory without
 *     one, so the loop enters the kernel only when the completion queue is empty, and
 *     then submits the replies of the last batch and waits for the next in the same call;
 *   - a wait that expects a batch: it asks for the CQEs it can expect soon (its own sends
 *     and about as many requests as last time), for at most WAIT_USEC, so one wake-up
 *     brings many completions, not one; a lone client is not kept waiting (without
 *     SQPOLL: with it, the loop waits for one CQE);
 *   - replies decided once per batch: a connection with several CQEs in one batch gets
 *     one send with all its replies;
 *   - multishot accept: one SQE accepts every future connection, one CQE each;
 *   - multishot recv: one SQE per connection receives for as long as data comes. The
 *     kernel picks a buffer for each chunk from a "provided buffer ring" the server shares
 *     with it, so an idle connection holds no receive buffer at all;
 *   - send: one send SQE in flight per connection, so replies leave in order; a short send
 *     is resubmitted for the rest, and replies produced meanwhile wait in the connection's
 *     output buffer (protocol.c);
 *   - backpressure as in c-epoll: past OUTPUT_HIGH_WATER_BYTES of unsent replies we cancel
 *     the client's recv and arm it again once the client has read its replies.
 * The kernel may end a multishot request on its own (no IORING_CQE_F_MORE flag on the
 * last CQE), e.g. with ENOBUFS when every ring buffer is in use: we then submit it again.
 * With --sqpoll on, a kernel thread takes SQEs from the ring as we write them, so
 * submitting needs no system call while that thread is awake. SQPOLL still makes
 * io_uring_enter() calls: to wake the thread after it has gone to sleep
 * (SQ_THREAD_IDLE_MS without work) and to wait for completions when none are waiting.
 * Not necessarily fewer: without SQPOLL this loop already submits inside the call that
 * waits, and with it the loop waits for one CQE at a time, so it may enter the kernel
 * more often per request (lesson 7 counts both).
 * That thread wants a CPU of its own: on the server's one core it competes with the loop,
 * and it completes receives faster than the loop hands buffers back, so with thousands
 * of busy clients the ring runs dry far more often (the count is printed at exit).
 *
 * Minimum kernel: Linux 5.7 to run (IORING_FEAT_FAST_POLL, the opcodes below), with
 * fallbacks that it prints at start: multishot accept and buffer rings need 5.19 (before
 * that: one accept SQE per connection, and one recv SQE at a time into a buffer of the
 * connection's own), multishot recv 6.0 (before: one recv SQE at a time, buffer from the
 * ring), IORING_SETUP_SINGLE_ISSUER 6.0 and IORING_SETUP_DEFER_TASKRUN 6.1 (before: the
 * kernel runs completion work whenever the thread enters the kernel; slower, same results).
 * liburing 2.3 or later (Debian bookworm), linked statically. Docker 25 and later block
 * io_uring in their default seccomp profile: run the container with the course's
 * sandboxes/seccomp/io-uring.json (the runner does so for this server).
 *
 * Usage:     c-io-uring [--port 9000] [--protocol echo|http] [--sqpoll off|on]
 *                       [--batch 64] [--entries 4096] [--buffers 1024]
 *                       [--recv multishot|oneshot|plain] [--backlog 4096]
 *                       [--buffer-bytes 16384]
 * Test with: c-io-uring --port 9000 &  and then  nc 127.0.0.1 9000   (type; lines come back)
 *            c-io-uring --protocol http &  and then  wrk -c 100 -d 5s http://127.0.0.1:9000/
 *
 * Simplifications: one thread and one ring, so one CPU core; received bytes are copied
 * from the ring buffer into the connection's output (no zero-copy send); sockets are
 * ordinary file descriptors (no registered files); no idle timeouts; IPv4 only. The
 * protocols live in protocol.c.
 */
#define _GNU_SOURCE
#include "protocol.h"

#include <errno.h>
#include <liburing.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_ENTRIES          4096          /* submission queue slots (a power of two) */
#define CQ_ENTRIES_PER_SQE       4             /* completion queue slots per SQ slot: one
                                                  multishot SQE posts many CQEs */
#define DEFAULT_BATCH            64            /* CQEs handled between two submissions, and
                                                  the most the loop waits for at once */
#define WAIT_USEC                100           /* how long the loop waits for more completions
                                                  to come in before it takes what is there */
#define WAIT_SHARE               4             /* ... and it waits for the requests of at most
                                                  one in this many connections */
#define MAX_BATCH                4096
#define DEFAULT_BUFFERS          1024          /* receive buffers in the ring, shared by all */
#define MAX_BUFFERS              32768         /* the kernel's limit for one buffer ring */
#define MAX_BUFFER_RING_BYTES    (1L << 30)    /* buffers x buffer_bytes: 1 GiB at most */
#define BUFFER_GROUP             0             /* our buffer ring's id ("buffer group") */
#define SQ_THREAD_IDLE_MS        100           /* --sqpoll on: the kernel thread sleeps after
                                                  this many milliseconds without work */
#define OUTPUT_HIGH_WATER_BYTES  (256 * 1024)  /* bytes queued for a client before we stop
                                                  receiving from it */
#define SHUTDOWN_DRAIN_MS        1000          /* at exit: how long we wait for the kernel to
                                                  give back cancelled operations */
#define PAUSE_LOG_INTERVAL_S     10            /* "out of file descriptors" said at most this
                                                  often */

static const char *const on_off[] = {"off", "on", NULL};
static const char *const recv_choices[] = {"multishot", "oneshot", "plain", NULL};
enum recv_mode {
    RECV_MULTISHOT,  /* one multishot recv per connection, buffers from the ring */
    RECV_ONESHOT,    /* one recv SQE per chunk received, buffers from the ring */
    RECV_PLAIN,      /* one recv SQE per chunk, into a buffer the connection owns */
};

static struct knob knobs[] = {
    {.name = "sqpoll", .flag = "--sqpoll", .choices = on_off, .value = 0,
     .help = "a kernel thread polls the submission queue (IORING_SETUP_SQPOLL)"},
    {.name = "batch", .flag = "--batch", .min = 1, .max = MAX_BATCH, .value = DEFAULT_BATCH,
     .help = "completions handled per loop turn, between two submissions"},
    {.name = "entries", .flag = "--entries", .min = 8, .max = 32768, .value = DEFAULT_ENTRIES,
     .help = "submission queue slots (rounded up to a power of two)"},
    {.name = "buffers", .flag = "--buffers", .min = 1, .max = MAX_BUFFERS,
     .value = DEFAULT_BUFFERS, .help = "receive buffers in the ring, --buffer-bytes each"},
    {.name = "recv", .flag = "--recv", .choices = recv_choices, .value = RECV_MULTISHOT,
     .help = "how to receive: multishot, or one SQE per chunk (ring or own buffer)"},
};
enum { KNOB_SQPOLL, KNOB_BATCH, KNOB_ENTRIES, KNOB_BUFFERS, KNOB_RECV };

/*
 * Every SQE carries 64 bits of "user data" that come back in its CQEs: we put the
 * operation there and the socket's fd. An fd cannot be reused while an operation on it
 * is in flight, because we close a socket only once the kernel has returned them all.
 */
enum op { OP_ACCEPT = 1, OP_RECV, OP_SEND, OP_STOP, OP_CANCEL, OP_PROBE };

/* What the kernel holds for one connection, next to the protocol's struct conn. */
struct client {
    struct conn   *conn;            /* NULL: no connection on this fd */
    struct buffer  sending;         /* the bytes of the send SQE in flight */
    char          *recv_buf;        /* --recv plain only: this client's receive buffer */
    bool           recv_armed;      /* a recv is in the kernel (multishot: until its last CQE) */
    bool           recv_cancelled;  /* ... and we have asked the kernel to cancel it */
    bool           send_in_flight;  /* a send is in the kernel */
    bool           closing;         /* free once the kernel has returned every operation */
};

/* The server's state. One thread, so plain globals are enough. */
static struct server_config cfg;
static struct io_uring ring;
static bool sqpoll;                    /* --sqpoll on */
static unsigned batch;                 /* --batch */
static enum recv_mode recv_mode;       /* --recv, or what the kernel lets us do instead */
static bool multishot_accept = true;   /* false on kernels before 5.19 */
static const char *setup_flags = "";   /* the IORING_SETUP_* flags we got, for the log */
static int listen_fd = -1;
static int stop_fd = -1;               /* readable once SIGTERM or SIGINT arrived */
static bool accept_armed;              /* an accept is in the kernel */
static bool accept_paused;             /* out of file descriptors: wait for a close */
static bool pause_logged;              /* ... and we said so (rate-limited) */
static time_t last_pause_log;
static bool stop_armed;                /* the poll on stop_fd is in the kernel */
static struct client *clients;         /* clients[fd] */
static int max_fds;                    /* size of clients[] */
static unsigned ops_in_flight;         /* SQEs whose last CQE has not arrived yet */
static unsigned open_connections;      /* clients[] entries in use */

static struct io_uring_buf_ring *buf_ring;  /* the provided buffer ring shared with the kernel */
static size_t buf_ring_bytes;
static int buf_ring_mask;
static char *buf_memory;               /* the buffers themselves, buffers x buffer_bytes */
static size_t buf_memory_bytes;
static unsigned long ring_ran_dry;     /* recvs the kernel ended with ENOBUFS */

static uint64_t op_data(enum op op, int fd)
{
    return (uint64_t)op << 32 | (uint32_t)fd;
}

static enum op op_of(uint64_t data)
{
    return (enum op)(data >> 32);
}

static int fd_of(uint64_t data)
{
    return (int)(uint32_t)data;
}

/* liburing returns errors as -errno; our messages come from errno. */
static void __attribute__((noreturn)) die_with(int negative_errno, const char *what)
{
    errno = -negative_errno;
    die_errno("%s failed", what);
}

/*
 * Relies on: the submission queue being a ring we write and the kernel reads. When it is
 * full, io_uring_submit() hands the kernel what we have written, which frees the slots;
 * with SQPOLL the kernel thread frees them in its own time, and io_uring_sqring_wait()
 * sleeps until it has.
 */
static struct io_uring_sqe *new_sqe(enum op op, int fd)
{
    struct io_uring_sqe *sqe;
    while ((sqe = io_uring_get_sqe(&ring)) == NULL) {
        int ret = io_uring_submit(&ring);
        if (ret < 0 && ret != -EINTR)
            die_with(ret, "io_uring_submit()");
        if (sqpoll && (ret = io_uring_sqring_wait(&ring)) < 0 && ret != -EINTR)
            die_with(ret, "io_uring_sqring_wait()");
    }
    io_uring_sqe_set_data64(sqe, op_data(op, fd));
    ops_in_flight++;
    return sqe;
}

/*
 * Relies on: IORING_OP_ASYNC_CANCEL finding a request by its user data. The cancelled
 * request still completes, with -ECANCELED (or with its result, if it finished first).
 */
static void cancel(enum op op, int fd)
{
    struct io_uring_sqe *sqe = new_sqe(OP_CANCEL, fd);
    io_uring_prep_cancel64(sqe, op_data(op, fd), 0);
}

/* ---- set-up --------------------------------------------------------------------------- */

/*
 * io_uring_setup() failing with EPERM almost always means a policy, not a bug: a seccomp
 * filter (Docker 25+ and containerd 2.0 block io_uring in their default profiles) or the
 * sysctl kernel.io_uring_disabled (Linux 6.6+). Say so, and what to do, then exit 1.
 */
static void __attribute__((noreturn)) die_setup_failed(int err)
{
    errno = err;
    if (err == EPERM) {
        log_errno("io_uring_setup() failed (EPERM)");
        log_msg("io_uring is not allowed here. Docker 25 and later (and containerd 2.0) leave "
                "io_uring_setup, io_uring_enter and io_uring_register out of their default "
                "seccomp profile, and the sysctl kernel.io_uring_disabled (1 or 2) forbids "
                "io_uring too.");
        log_msg("Fix: run the container with --security-opt "
                "seccomp=sandboxes/seccomp/io-uring.json (the course's runner does this for "
                "servers whose catalog entry says \"needs_io_uring\": true), or set "
                "sysctl kernel.io_uring_disabled=0 on the host.%s",
                sqpoll ? " (With --sqpoll on, kernels before 5.11 also need CAP_SYS_ADMIN.)"
                       : "");
    } else if (err == ENOSYS) {
        log_errno("io_uring_setup() failed (ENOSYS)");
        log_msg("this kernel has no io_uring: it needs Linux 5.1 or later built with "
                "CONFIG_IO_URING (this server needs 5.7); use c-epoll instead.");
    } else if (err == ENOMEM) {
        log_errno("io_uring_setup() failed (ENOMEM)");
        log_msg("the rings did not fit in memory (before Linux 5.12 they count against "
                "RLIMIT_MEMLOCK): try a smaller --entries.");
    } else {
        log_errno("io_uring_setup() failed");
    }
    exit(1);
}

/*
 * Relies on: io_uring_setup() (inside io_uring_queue_init_params()) creating the two
 * rings, sized by `entries` and cq_entries, and rejecting with EINVAL a flag the kernel
 * does not know. Without SQPOLL we ask for SINGLE_ISSUER (only this thread submits) and
 * DEFER_TASKRUN (the kernel finishes completions only when we wait for them, in one go,
 * instead of interrupting us at any system call: so the loop asks for completions only
 * when it has none left to read, and for many at once); if the kernel is older than 6.1
 * we do without. SQPOLL cannot be combined with DEFER_TASKRUN.
 */
/* ANCHOR: ring-setup */
static void setup_ring(unsigned entries)
{
    struct io_uring_params params = {
        .flags = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP,
        .cq_entries = entries * CQ_ENTRIES_PER_SQE,
    };
    if (sqpoll) {
        params.flags |= IORING_SETUP_SQPOLL;
        params.sq_thread_idle = SQ_THREAD_IDLE_MS;
        setup_flags = "SQPOLL";
    } else {
        params.flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
        setup_flags = "SINGLE_ISSUER|DEFER_TASKRUN";
    }
    struct io_uring_params asked = params;   /* the call overwrites params */

    int ret = io_uring_queue_init_params(entries, &ring, &params);
    if (ret == -EINVAL && !sqpoll) {
        log_msg("IORING_SETUP_DEFER_TASKRUN not supported (needs Linux 6.1): "
                "the kernel will run completion work at any system call instead");
        params = asked;
        params.flags &= ~(IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
        setup_flags = "none";
        ret = io_uring_queue_init_params(entries, &ring, &params);
    }
    if (ret < 0)
        die_setup_failed(-ret);
}
/* ANCHOR_END: ring-setup */

/*
 * Relies on: IORING_REGISTER_PROBE (Linux 5.6) listing the opcodes this kernel knows,
 * and IORING_FEAT_FAST_POLL (5.7): without it, a recv on a socket with nothing to read
 * would park a kernel worker thread per connection instead of waiting on the socket.
 */
static void check_kernel_support(void)
{
    static const struct {
        int op;
        const char *name;
        const char *since;
    } needed[] = {
        {IORING_OP_POLL_ADD, "POLL_ADD", "5.1"},
        {IORING_OP_ACCEPT, "ACCEPT", "5.5"},
        {IORING_OP_ASYNC_CANCEL, "ASYNC_CANCEL", "5.5"},
        {IORING_OP_SEND, "SEND", "5.6"},
        {IORING_OP_RECV, "RECV", "5.6"},
    };
    struct io_uring_probe *probe = io_uring_get_probe_ring(&ring);
    if (probe == NULL) {
        log_msg("io_uring_register(IORING_REGISTER_PROBE) failed: this kernel is older than "
                "Linux 5.6 (this server needs 5.7)");
        exit(1);
    }
    bool missing = false;
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++) {
        if (!io_uring_opcode_supported(probe, needed[i].op)) {
            log_msg("this kernel's io_uring lacks IORING_OP_%s (Linux %s)", needed[i].name,
                    needed[i].since);
            missing = true;
        }
    }
    io_uring_free_probe(probe);
    if (!(ring.features & IORING_FEAT_FAST_POLL)) {
        log_msg("this kernel's io_uring lacks IORING_FEAT_FAST_POLL (Linux 5.7)");
        missing = true;
    }
    if (missing)
        exit(1);
}

/* "FAST_POLL NODROP ...": the IORING_FEAT_* flags io_uring_setup() reported. */
static void describe_features(char *text, size_t size)
{
    static const struct {
        unsigned flag;
        const char *name;
    } features[] = {
        {IORING_FEAT_SINGLE_MMAP, "SINGLE_MMAP"}, {IORING_FEAT_NODROP, "NODROP"},
        {IORING_FEAT_SUBMIT_STABLE, "SUBMIT_STABLE"}, {IORING_FEAT_FAST_POLL, "FAST_POLL"},
        {IORING_FEAT_SQPOLL_NONFIXED, "SQPOLL_NONFIXED"}, {IORING_FEAT_EXT_ARG, "EXT_ARG"},
        {IORING_FEAT_NATIVE_WORKERS, "NATIVE_WORKERS"}, {IORING_FEAT_CQE_SKIP, "CQE_SKIP"},
    };
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < sizeof features / sizeof features[0] && used < size; i++)
        if (ring.features & features[i].flag)
            used += (size_t)snprintf(text + used, size - used, "%s%s", used ? " " : "",
                                     features[i].name);
}

static char *buffer_address(unsigned bid)
{
    return buf_memory + (size_t)bid * cfg.buffer_bytes;
}

/* Hands buffer `bid` back to the kernel: it goes in at the ring's tail. */
static void recycle_buffer(unsigned bid)
{
    io_uring_buf_ring_add(buf_ring, buffer_address(bid), (unsigned)cfg.buffer_bytes,
                          (unsigned short)bid, buf_ring_mask, 0);
    io_uring_buf_ring_advance(buf_ring, 1);
}

/*
 * Relies on: IORING_REGISTER_PBUF_RING (Linux 5.19). The ring is an array of
 * {address, length, buffer id} that we fill at the tail and the kernel takes from at the
 * head, one buffer per received chunk; the CQE says which buffer (its id) holds the bytes.
 * Its size must be a power of two, and the kernel reads it where we put it, so it is
 * page-aligned memory of our own (liburing 2.4 wraps these steps in io_uring_setup_buf_ring();
 * Debian's 2.3 does not have it yet). Returns false if the kernel says no.
 */
/* ANCHOR: buffer-ring */
static bool setup_buffer_ring(unsigned count)
{
    unsigned entries = 1;
    while (entries < count)
        entries *= 2;
    buf_ring_bytes = entries * sizeof(struct io_uring_buf);
    void *ring_memory = mmap(NULL, buf_ring_bytes, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ring_memory == MAP_FAILED)
        die_errno("mmap(%zu bytes) for the buffer ring failed", buf_ring_bytes);

    struct io_uring_buf_reg reg = {
        .ring_addr = (uintptr_t)ring_memory,
        .ring_entries = entries,
        .bgid = BUFFER_GROUP,
    };
    int ret = io_uring_register_buf_ring(&ring, &reg, 0);
    if (ret < 0) {
        errno = -ret;
        log_errno("io_uring_register_buf_ring() failed (buffer rings need Linux 5.19); "
                  "falling back to a receive buffer per connection");
        if (munmap(ring_memory, buf_ring_bytes) < 0)
            die_errno("munmap() failed");
        return false;
    }
    buf_ring = ring_memory;
    buf_ring_mask = io_uring_buf_ring_mask(entries);

    buf_memory_bytes = (size_t)count * cfg.buffer_bytes;
    buf_memory = mmap(NULL, buf_memory_bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf_memory == MAP_FAILED)
        die_errno("mmap(%zu bytes) for %u receive buffers failed", buf_memory_bytes, count);

    io_uring_buf_ring_init(buf_ring);
    for (unsigned bid = 0; bid < count; bid++)
        io_uring_buf_ring_add(buf_ring, buffer_address(bid), (unsigned)cfg.buffer_bytes,
                              (unsigned short)bid, buf_ring_mask, (int)bid);
    io_uring_buf_ring_advance(buf_ring, (int)count);   /* the kernel sees them from now on */
    return true;
}
/* ANCHOR_END: buffer-ring */

/*
 * One io_uring_enter(): submits what is queued and waits until `want` CQEs are waiting or
 * `usec` microseconds have passed (IORING_FEAT_EXT_ARG, Linux 5.11). Neither -ETIME (the
 * time is up and nothing came) nor -EINTR (a signal) is an error here: the caller looks
 * at the queue.
 */
static void submit_and_wait_at_most(unsigned want, long usec)
{
    struct __kernel_timespec timeout = {.tv_sec = usec / 1000000,
                                        .tv_nsec = usec % 1000000 * 1000};
    struct io_uring_cqe *cqe;
    int ret = io_uring_submit_and_wait_timeout(&ring, &cqe, want, &timeout, NULL);
    if (ret < 0 && ret != -ETIME && ret != -EINTR)
        die_with(ret, "io_uring_submit_and_wait_timeout()");
}

/* Submits what is queued and waits for one CQE; set-up and shut-down only. */
static struct io_uring_cqe *wait_one_cqe(void)
{
    struct io_uring_cqe *cqe;
    int ret = io_uring_submit_and_wait(&ring, 1);
    if (ret >= 0 || ret == -EINTR)
        ret = io_uring_wait_cqe(&ring, &cqe);
    while (ret == -EINTR)
        ret = io_uring_wait_cqe(&ring, &cqe);
    if (ret < 0)
        die_with(ret, "io_uring_wait_cqe()");
    return cqe;
}

/*
 * Relies on: kernels before 6.0 rejecting IORING_RECV_MULTISHOT with EINVAL. The opcode
 * probe cannot tell (IORING_OP_RECV itself is older), so we try: one byte and then end of
 * stream waiting on a socketpair, one multishot recv. A kernel that supports it posts the
 * byte with IORING_CQE_F_MORE ("more CQEs will follow"), then a last CQE for the end.
 */
static bool multishot_recv_works(void)
{
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0)
        die_errno("socketpair() failed");
    if (write(pair[1], "x", 1) != 1)
        die_errno("write(fd %d) failed", pair[1]);
    if (close(pair[1]) < 0)
        die_errno("close(fd %d) failed", pair[1]);

    struct io_uring_sqe *sqe = new_sqe(OP_PROBE, pair[0]);
    io_uring_prep_recv_multishot(sqe, pair[0], NULL, 0, 0);
    sqe->flags |= IOSQE_BUFFER_SELECT;
    sqe->buf_group = BUFFER_GROUP;

    bool works = false, last = false;
    while (!last) {
        struct io_uring_cqe *cqe = wait_one_cqe();
        if (cqe->res == 1 && (cqe->flags & IORING_CQE_F_MORE))
            works = true;
        if (cqe->flags & IORING_CQE_F_BUFFER)
            recycle_buffer(cqe->flags >> IORING_CQE_BUFFER_SHIFT);
        last = !(cqe->flags & IORING_CQE_F_MORE);
        io_uring_cqe_seen(&ring, cqe);
    }
    ops_in_flight--;
    if (close(pair[0]) < 0)
        die_errno("close(fd %d) failed", pair[0]);
    return works;
}

/* ---- connections ------------------------------------------------------------------------ */

/* Relies on: the accept CQE's result being the new socket's file descriptor. */
/* ANCHOR: multishot-accept */
static void arm_accept(void)
{
    struct io_uring_sqe *sqe = new_sqe(OP_ACCEPT, listen_fd);
    if (multishot_accept)
        io_uring_prep_multishot_accept(sqe, listen_fd, NULL, NULL, SOCK_CLOEXEC);
    else
        io_uring_prep_accept(sqe, listen_fd, NULL, NULL, SOCK_CLOEXEC);
    accept_armed = true;
}
/* ANCHOR_END: multishot-accept */

/* Relies on: a one-shot IORING_OP_POLL_ADD completing once the fd is readable. */
static void arm_stop_poll(void)
{
    struct io_uring_sqe *sqe = new_sqe(OP_STOP, stop_fd);
    io_uring_prep_poll_add(sqe, stop_fd, POLLIN);
    stop_armed = true;
}

/*
 * Relies on: a recv with IOSQE_BUFFER_SELECT taking a buffer from our ring only when
 * bytes have arrived, and IORING_RECV_MULTISHOT (Linux 6.0) keeping the request alive
 * after each chunk: one CQE per chunk, each flagged IORING_CQE_F_MORE, until end of
 * stream, an error, a cancel, or an empty ring (ENOBUFS) ends it.
 */
/* ANCHOR: multishot-recv */
static void arm_recv(struct client *cl)
{
    int fd = cl->conn->fd;
    struct io_uring_sqe *sqe = new_sqe(OP_RECV, fd);
    if (recv_mode == RECV_PLAIN) {
        io_uring_prep_recv(sqe, fd, cl->recv_buf, cfg.buffer_bytes, 0);
    } else {
        if (recv_mode == RECV_MULTISHOT)
            io_uring_prep_recv_multishot(sqe, fd, NULL, 0, 0);
        else
            io_uring_prep_recv(sqe, fd, NULL, 0, 0);
        sqe->flags |= IOSQE_BUFFER_SELECT;       /* "pick a buffer from this group" */
        sqe->buf_group = BUFFER_GROUP;
    }
    cl->recv_armed = true;
    cl->recv_cancelled = false;
}
/* ANCHOR_END: multishot-recv */

/*
 * Relies on: a send SQE reading its bytes when the kernel gets to it, perhaps after this
 * function has long returned, and sending perhaps only part of them (the CQE says how
 * many). So the bytes move out of c->out, which conn_feed() keeps appending to, into
 * cl->sending, untouched until the CQE arrives; and only one send is in flight per
 * connection, because two could complete, or send their bytes, out of order.
 */
/* ANCHOR: send */
static void start_send(struct client *cl)
{
    struct conn *c = cl->conn;
    if (cl->send_in_flight)
        return;                          /* one at a time: handle_send() starts the next */
    if (buffer_length(&cl->sending) == 0) {
        if (conn_output_pending(c) == 0)
            return;
        conn_take_output(c, &cl->sending);
    }
    struct io_uring_sqe *sqe = new_sqe(OP_SEND, c->fd);
    io_uring_prep_send(sqe, c->fd, cl->sending.data + cl->sending.start,
                       buffer_length(&cl->sending), MSG_NOSIGNAL);
    cl->send_in_flight = true;
}
/* ANCHOR_END: send */

/* ANCHOR: close */
/* Frees the connection once the kernel holds nothing of it: no recv, no send in flight. */
static void free_if_idle(struct client *cl)
{
    if (cl->recv_armed || cl->send_in_flight)
        return;                          /* their CQEs will call us again */
    conn_close(cl->conn);                /* closes the socket */
    buffer_free(&cl->sending);
    free(cl->recv_buf);
    *cl = (struct client){0};
    open_connections--;

    if (accept_paused && !stop_requested()) {   /* a file descriptor is free again */
        accept_paused = false;
        if (pause_logged)
            log_msg("accepting connections again");
        arm_accept();
    }
}

/*
 * Relies on: the kernel possibly still using the connection's socket and memory (a recv
 * waiting for bytes, a send waiting for room). We cancel those and free the connection
 * when their last CQEs have come back, never before: the kernel could otherwise write
 * into freed memory, or the fd be reused while CQEs for the old socket are on their way.
 */
static void close_client(struct client *cl)
{
    if (cl->closing)
        return;
    cl->closing = true;
    if (cl->recv_armed && !cl->recv_cancelled) {
        cancel(OP_RECV, cl->conn->fd);
        cl->recv_cancelled = true;
    }
    if (cl->send_in_flight)
        cancel(OP_SEND, cl->conn->fd);
    free_if_idle(cl);
}
/* ANCHOR_END: close */

/* Bytes of replies not yet sent: those in flight plus those waiting behind them. */
static size_t queued_output(const struct client *cl)
{
    return buffer_length(&cl->sending) + conn_output_pending(cl->conn);
}

/* We receive from a client unless it has finished sending or too much output waits for it. */
static bool wants_to_receive(const struct client *cl)
{
    return !cl->conn->read_eof && queued_output(cl) < OUTPUT_HIGH_WATER_BYTES;
}

/*
 * After a batch of completions, for each connection that had one: what does it need from
 * the kernel next? The io_uring counterpart of epoll.c's update_interest(). Sends what
 * is queued; once all is sent, shuts down the sending side after an HTTP "Connection:
 * close" reply, and closes when the client has finished too; arms a recv if we want
 * bytes and none is in the kernel, or cancels it if replies are piling up (backpressure).
 */
static void schedule_io(struct client *cl)
{
    struct conn *c = cl->conn;
    start_send(cl);
    if (!cl->send_in_flight) {               /* everything has been sent */
        if (c->close_after_output && !c->output_shut) {
            if (shutdown(c->fd, SHUT_WR) < 0) {
                conn_log_error(c, "shutdown");
                close_client(cl);
                return;
            }
            c->output_shut = true;
        }
        if (conn_finished(c)) {              /* the client is done sending, and all is sent */
            close_client(cl);
            return;
        }
    }
    if (wants_to_receive(cl) && !cl->recv_armed) {
        arm_recv(cl);
    } else if (!wants_to_receive(cl) && cl->recv_armed && !cl->recv_cancelled) {
        cancel(OP_RECV, c->fd);              /* bytes stay in the socket: TCP slows the client */
        cl->recv_cancelled = true;
    }
}

/* ---- completions ------------------------------------------------------------------------ */

/*
 * Relies on: a multishot accept posting one CQE per connection, flagged
 * IORING_CQE_F_MORE while it stays armed. An error ends it (no F_MORE): after a
 * client that gave up we arm it again at once; when file descriptors run out (EMFILE)
 * only after a connection closes, as c-epoll does. Kernels before 5.19 reject the
 * multishot flag with EINVAL: from then on one accept SQE per connection.
 */
static void handle_accept(const struct io_uring_cqe *cqe)
{
    if (!(cqe->flags & IORING_CQE_F_MORE))
        accept_armed = false;
    int fd = cqe->res;
    if (fd >= 0) {
        struct conn *c = fd < max_fds ? conn_new(fd, &cfg) : NULL;
        char *recv_buf = c != NULL && recv_mode == RECV_PLAIN ? malloc(cfg.buffer_bytes) : NULL;
        if (c == NULL || (recv_mode == RECV_PLAIN && recv_buf == NULL)) {
            log_msg("no room for a connection on fd %d; closing it", fd);
            if (c != NULL)
                conn_close(c);
            else if (close(fd) < 0)
                log_errno("close(fd %d) failed", fd);
        } else {
            clients[fd] = (struct client){.conn = c, .recv_buf = recv_buf};
            open_connections++;
            arm_recv(&clients[fd]);
        }
    } else if (fd == -EINVAL && multishot_accept) {
        log_msg("multishot accept not supported (needs Linux 5.19): "
                "one accept SQE per connection instead");
        multishot_accept = false;
    } else if (accept_error_is_exhaustion(-fd)) {
        errno = -fd;
        pause_logged = rate_limit(&last_pause_log, PAUSE_LOG_INTERVAL_S);
        if (pause_logged)
            log_errno("accept() failed; pausing until a connection closes (said at most "
                      "every %d s)", PAUSE_LOG_INTERVAL_S);
        accept_paused = true;
    } else if (fd != -ECANCELED && !accept_error_is_transient(-fd)) {
        errno = -fd;
        die_errno("accept(fd %d) failed", listen_fd);
    }
    if (!accept_armed && !accept_paused && !stop_requested())
        arm_accept();
}

/*
 * Relies on: a recv CQE's result being the byte count (0: the client shut down its
 * sending side; negative: -errno), and, with a ring buffer, IORING_CQE_F_BUFFER plus the
 * buffer's id in the upper 16 bits of the flags. We copy the bytes into the protocol
 * (conn_feed) and give the buffer straight back to the ring. The replies go out when
 * the whole batch is in (schedule_io()).
 */
/* ANCHOR: recv-completion */
static void handle_recv(struct client *cl, const struct io_uring_cqe *cqe)
{
    struct conn *c = cl->conn;
    if (!(cqe->flags & IORING_CQE_F_MORE))
        cl->recv_armed = false;          /* the kernel ended it: schedule_io() re-arms it */
    int res = cqe->res;
    int fed = 0;
    if (res > 0 && !cl->closing) {
        const char *data = cl->recv_buf;
        if (cqe->flags & IORING_CQE_F_BUFFER)
            data = buffer_address(cqe->flags >> IORING_CQE_BUFFER_SHIFT);
        fed = conn_feed(c, data, (size_t)res);
    }
    if (cqe->flags & IORING_CQE_F_BUFFER)
        recycle_buffer(cqe->flags >> IORING_CQE_BUFFER_SHIFT);

    if (cl->closing) {
        free_if_idle(cl);
        return;
    }
    if (fed < 0) {
        log_errno("no memory for the output of fd %d", c->fd);
        close_client(cl);
        return;
    }
    if (res == 0) {
        c->read_eof = true;
    } else if (res == -ENOBUFS) {
        if (ring_ran_dry++ == 0)
            log_msg("the buffer ring ran dry (all %ld buffers in use); receiving again as "
                    "buffers come back (more with --buffers)", knobs[KNOB_BUFFERS].value);
    } else if (res < 0 && res != -ECANCELED) {
        errno = -res;
        conn_log_error(c, "recv");
        close_client(cl);
    }
}
/* ANCHOR_END: recv-completion */

/*
 * Relies on: a send CQE's result being the number of bytes the kernel took, which may be
 * fewer than we offered (schedule_io() then sends the rest before anything newer).
 */
/* ANCHOR: send-completion */
static void handle_send(struct client *cl, const struct io_uring_cqe *cqe)
{
    cl->send_in_flight = false;
    if (cl->closing) {
        free_if_idle(cl);
        return;
    }
    if (cqe->res < 0) {
        errno = -cqe->res;
        conn_log_error(cl->conn, "send");
        close_client(cl);
        return;
    }
    buffer_consume(&cl->sending, (size_t)cqe->res);
}
/* ANCHOR_END: send-completion */

/* Relies on: a cancel's own CQE: 0 found, -ENOENT already finished, -EALREADY finishing. */
static void handle_cancel(const struct io_uring_cqe *cqe)
{
    int res = cqe->res;
    if (res < 0 && res != -ENOENT && res != -EALREADY) {
        errno = -res;
        log_errno("cancel(fd %d) failed", fd_of(io_uring_cqe_get_data64(cqe)));
    }
}

/* The signal handler has already set stop_requested(): this CQE only woke the loop. */
static void handle_stop(void)
{
    stop_armed = false;
}

static void handle_completion(const struct io_uring_cqe *cqe)
{
    uint64_t data = io_uring_cqe_get_data64(cqe);
    if (!(cqe->flags & IORING_CQE_F_MORE))
        ops_in_flight--;                 /* that was the operation's last CQE */
    switch (op_of(data)) {
    case OP_ACCEPT:
        handle_accept(cqe);
        break;
    case OP_RECV:
        handle_recv(&clients[fd_of(data)], cqe);
        break;
    case OP_SEND:
        handle_send(&clients[fd_of(data)], cqe);
        break;
    case OP_STOP:
        handle_stop();
        break;
    case OP_CANCEL:
        handle_cancel(cqe);
        break;
    case OP_PROBE:
        break;
    }
}

/*
 * The second half of a completion: the connection it was about, if it is still open,
 * decides what it needs next. Called once the whole batch has been handled, so that a
 * connection whose recv posted three chunks in one batch sends one reply with all three,
 * instead of one now and the others only after that send's CQE has come back.
 */
static void schedule_after(const struct io_uring_cqe *cqe)
{
    uint64_t data = io_uring_cqe_get_data64(cqe);
    if (op_of(data) != OP_RECV && op_of(data) != OP_SEND)
        return;
    struct client *cl = &clients[fd_of(data)];
    if (cl->conn != NULL && !cl->closing)
        schedule_io(cl);                 /* twice for the same connection does no harm */
}

/* ANCHOR: coalesced-wait */
/*
 * How many CQEs the next wait can expect soon: one for each SQE we are about to submit
 * (nearly all sends, which complete at once), and as many requests (recv CQEs) as the
 * last wait brought, at least one: a lone client's next request is the one more we wait
 * for, so it is not slowed. But at most the requests of one connection in WAIT_SHARE: a
 * client that sends its next request only once it has our reply would otherwise find
 * all its connections waiting on us, and idle. Never more than one batch.
 */
static unsigned expected_completions(unsigned requests)
{
    unsigned most = open_connections / WAIT_SHARE;
    if (requests > most)
        requests = most;
    unsigned want = io_uring_sq_ready(&ring) + (requests > 0 ? requests : 1);
    return want < batch ? want : batch;
}

/*
 * Relies on: io_uring_enter() with IORING_ENTER_GETEVENTS doing three jobs in one call:
 * it submits every SQE written since the last call, runs the completion work that
 * DEFER_TASKRUN kept for this moment, and sleeps until `want` CQEs are waiting. With a
 * timeout (IORING_FEAT_EXT_ARG, Linux 5.11) it returns when the time is up with whatever
 * is there, or -ETIME if nothing came.
 *
 * Why wait for more than one CQE: the sends we submit in the same call usually complete
 * at once, so waiting for one CQE would return straight away with just those, and a
 * second call would do the real waiting; and with DEFER_TASKRUN the kernel finishes at
 * most max(20, want) completions per pass (Linux 6.13 and later). So we wait for the
 * CQEs we can expect (expected_completions()), but never longer than WAIT_USEC: a
 * request that came in early waits at most that long for company. If nothing came in
 * that time the server is idle, and the next call sleeps for one CQE without a limit.
 * With SQPOLL neither reason holds (the kernel thread submits the sends, and there is no
 * DEFER_TASKRUN): waiting for more would only hold replies back (measured: a quarter
 * fewer requests served), so we wait for one, as before.
 */
static void wait_for_completions(unsigned want)
{
    if (want > 1 && !sqpoll && (ring.features & IORING_FEAT_EXT_ARG)) {
        submit_and_wait_at_most(want, WAIT_USEC);
    } else {
        int ret = io_uring_submit_and_wait(&ring, 1);
        if (ret < 0 && ret != -EINTR)
            die_with(ret, "io_uring_enter()");
    }
}
/* ANCHOR_END: coalesced-wait */

/*
 * Relies on: the completion queue being memory we can read without a system call. So
 * the loop enters the kernel only when there is nothing left to read: then one
 * io_uring_enter() submits what the last batch queued and waits for the next. While
 * CQEs are waiting we take up to --batch of them at a time, first handling each, then
 * deciding once per connection what it needs next (schedule_after), and tell the kernel
 * once, with io_uring_cq_advance(), that their slots are free. After a full batch, if
 * more CQEs are waiting, we submit without waiting (one system call, none with SQPOLL
 * while its thread is awake), so replies do not wait for the whole queue to be read.
 */
/* ANCHOR: event-loop */
static void run_event_loop(void)
{
    static struct io_uring_cqe *cqes[MAX_BATCH];
    unsigned requests = 0;               /* recv CQEs since the last wait */

    while (!stop_requested()) {
        if (io_uring_cq_ready(&ring) == 0) {
            wait_for_completions(expected_completions(requests));
            requests = 0;
        } else {
            int ret = io_uring_submit(&ring);    /* no system call if nothing is queued */
            if (ret < 0 && ret != -EINTR)
                die_with(ret, "io_uring_enter()");
        }

        unsigned n = io_uring_peek_batch_cqe(&ring, cqes, batch);
        for (unsigned i = 0; i < n; i++) {
            requests += op_of(io_uring_cqe_get_data64(cqes[i])) == OP_RECV;
            handle_completion(cqes[i]);
        }
        for (unsigned i = 0; i < n; i++)
            schedule_after(cqes[i]);
        io_uring_cq_advance(&ring, n);
    }
}
/* ANCHOR_END: event-loop */

/* ---- shutting down ---------------------------------------------------------------------- */

/*
 * Relies on: cancelled requests completing promptly with -ECANCELED. We wait (at most
 * SHUTDOWN_DRAIN_MS) until every operation has come back before closing sockets and
 * freeing memory: the listening socket in particular would otherwise live on, held by
 * the accept request, until the kernel tears the ring down in the background.
 */
static void drain_in_flight_operations(void)
{
    if (accept_armed)
        cancel(OP_ACCEPT, listen_fd);
    if (stop_armed)
        cancel(OP_STOP, stop_fd);
    for (int fd = 0; fd < max_fds; fd++) {
        struct client *cl = &clients[fd];
        if (cl->conn == NULL)
            continue;
        if (cl->recv_armed && !cl->recv_cancelled)
            cancel(OP_RECV, fd);
        if (cl->send_in_flight)
            cancel(OP_SEND, fd);
    }

    struct timespec now, deadline;
    if (clock_gettime(CLOCK_MONOTONIC, &deadline) < 0)
        die_errno("clock_gettime() failed");
    deadline.tv_sec += SHUTDOWN_DRAIN_MS / 1000;
    deadline.tv_nsec += (SHUTDOWN_DRAIN_MS % 1000) * 1000000L;
    while (ops_in_flight > 0) {
        if (clock_gettime(CLOCK_MONOTONIC, &now) < 0)
            die_errno("clock_gettime() failed");
        long left_ms = (deadline.tv_sec - now.tv_sec) * 1000 +
                       (deadline.tv_nsec - now.tv_nsec) / 1000000;
        if (left_ms <= 0) {
            log_msg("%u operations still in flight after %d ms; exiting anyway",
                    ops_in_flight, SHUTDOWN_DRAIN_MS);
            return;
        }
        submit_and_wait_at_most(1, left_ms * 1000);

        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe(&ring, head, cqe) {
            seen++;
            if (!(cqe->flags & IORING_CQE_F_MORE))
                ops_in_flight--;
            uint64_t data = io_uring_cqe_get_data64(cqe);
            if (op_of(data) == OP_ACCEPT && cqe->res >= 0 && close(cqe->res) < 0)
                log_errno("close(fd %d) failed", cqe->res);   /* accepted too late */
        }
        io_uring_cq_advance(&ring, seen);
    }
}

/* Closes every connection and frees everything, so a leak checker finds nothing. */
static void shut_down(void)
{
    drain_in_flight_operations();
    int open = 0;
    for (int fd = 0; fd < max_fds; fd++) {
        struct client *cl = &clients[fd];
        if (cl->conn == NULL)
            continue;
        conn_close(cl->conn);
        buffer_free(&cl->sending);
        free(cl->recv_buf);
        open++;
    }
    log_msg("%s received: closed %d connection%s, exiting", stop_signal_name(), open,
            open == 1 ? "" : "s");
    if (ring_ran_dry > 0)
        log_msg("the buffer ring ran dry %lu time%s", ring_ran_dry,
                ring_ran_dry == 1 ? "" : "s");
    if (close(listen_fd) < 0)
        log_errno("close(fd %d) failed", listen_fd);
    io_uring_queue_exit(&ring);          /* also unregisters the buffer ring */
    if (buf_ring != NULL && munmap(buf_ring, buf_ring_bytes) < 0)
        log_errno("munmap() failed");
    if (buf_memory != NULL && munmap(buf_memory, buf_memory_bytes) < 0)
        log_errno("munmap() failed");
    free(clients);
}

int main(int argc, char **argv)
{
    config_parse(&cfg, "c-io-uring", argc, argv, knobs, KNOB_COUNT(knobs));
    sqpoll = knobs[KNOB_SQPOLL].value == 1;
    batch = (unsigned)knobs[KNOB_BATCH].value;
    recv_mode = (enum recv_mode)knobs[KNOB_RECV].value;

    if (recv_mode != RECV_PLAIN &&
        knobs[KNOB_BUFFERS].value * (long)cfg.buffer_bytes > MAX_BUFFER_RING_BYTES) {
        log_msg("--buffers %ld x --buffer-bytes %zu is more than %ld MiB of receive buffers",
                knobs[KNOB_BUFFERS].value, cfg.buffer_bytes, MAX_BUFFER_RING_BYTES >> 20);
        exit(1);
    }

    stop_fd = signals_init();
    max_fds = raise_fd_limit();
    clients = calloc((size_t)max_fds, sizeof *clients);
    if (clients == NULL)
        die_errno("malloc() failed");

    setup_ring((unsigned)knobs[KNOB_ENTRIES].value);
    check_kernel_support();
    if (recv_mode != RECV_PLAIN && !setup_buffer_ring((unsigned)knobs[KNOB_BUFFERS].value))
        recv_mode = RECV_PLAIN;
    if (recv_mode == RECV_MULTISHOT && !multishot_recv_works()) {
        log_msg("multishot recv not supported (needs Linux 6.0): one recv SQE at a time");
        recv_mode = RECV_ONESHOT;
    }
    knobs[KNOB_RECV].value = recv_mode;  /* the start-up line shows what we really do */

    struct utsname kernel;
    if (uname(&kernel) < 0)
        die_errno("uname() failed");
    char features[256];
    describe_features(features, sizeof features);
    log_msg("io_uring on Linux %s: features %s; setup flags %s; %s accept; %s", kernel.release,
            features, setup_flags, multishot_accept ? "multishot" : "one-shot",
            recv_mode == RECV_MULTISHOT ? "multishot recv from the buffer ring"
            : recv_mode == RECV_ONESHOT ? "one-shot recv from the buffer ring"
                                        : "one-shot recv into a buffer per connection");

    listen_fd = listen_on(&cfg, 0);      /* blocking: io_uring does the waiting */
    arm_accept();
    arm_stop_poll();
    config_print(&cfg, knobs, KNOB_COUNT(knobs));
    run_event_loop();
    shut_down();
    return 0;
}
