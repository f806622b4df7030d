/* freezeclock: preloaded into redis-server while its work is counted, so
 * that the same requests cost the same instructions in every run.
 *
 * - The clock stands still at a fixed time, and the event loop never wakes
 *   up for a timer: serverCron's time-driven work (memory statistics,
 *   resizing client buffers, incremental rehashing, expiry) would otherwise
 *   run at random points between requests and change what the requests
 *   after it cost.
 * - Randomness is fixed: the process id, /dev/urandom and getrandom() give
 *   the same values every run, so the seeds the server derives from them
 *   (its hash function's seed, srand/srandom) are the same, and so are the
 *   hash tables' layouts and the elements SPOP picks.
 * - The event loop sees one event per turn (epoll_wait returns at most one):
 *   when two events are ready at once (a closed connection and a new one),
 *   the server would otherwise handle them in one turn or in two depending
 *   on timing, and Redis 6.0+ frees a closed client only at the end of the
 *   turn, so the same requests would go through a different order of
 *   allocations and client-table updates.
 * - A read from a socket waits until the batch of requests it starts has
 *   arrived, so a pipeline the client is still writing is read in the same
 *   pieces every run (a request split across two reads is copied again when
 *   the rest arrives). The wrapper's own work is not counted (callgrind's
 *   collection is off in it). FREEZECLOCK_SETTLE_READS=no turns the wait
 *   off, for a client that sends one request at a time: each is one write
 *   of less than a segment, which a read gets whole or not at all, and the
 *   wait (about a millisecond) would be most of each request's time under
 *   Valgrind. Accepted connections get a fixed 8 MiB receive
 *   buffer (no autotuning), so how much a client can have pending does not
 *   depend on timing either.
 * - jemalloc 4.x (Redis 3.2, 4.0) is told it does not run under Valgrind
 *   (below), so that it allocates as it does natively (3.x, in Redis 2.6 to
 *   3.0, is told so by its options).
 * - Counting windows open and close on a signal (FREEZECLOCK_CONTROL, below):
 *   vgdb took ~125 ms a command, a signal 3 ms.
 * Everything a request does still runs as it is. SHUTDOWN still stops the
 * server; SIGTERM, handled in serverCron, does not.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <valgrind/callgrind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* 2023-11-14 22:13:20 UTC; the monotonic clock at 1,000,000 s. */
static const struct timespec frozen_realtime = {1700000000, 0};
static const struct timespec frozen_monotonic = {1000000, 0};


int clock_gettime(clockid_t id, struct timespec *ts) {
    switch (id) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
        *ts = frozen_realtime;
        break;
    default:
        *ts = frozen_monotonic;
    }
    return 0;
}

int gettimeofday(struct timeval *tv, void *tz) {
    (void)tz;
    if (tv) {
        tv->tv_sec = frozen_realtime.tv_sec;
        tv->tv_usec = frozen_realtime.tv_nsec / 1000;
    }
    return 0;
}

time_t time(time_t *t) {
    if (t) *t = frozen_realtime.tv_sec;
    return frozen_realtime.tv_sec;
}

/* Counting windows. With FREEZECLOCK_CONTROL naming a file of at least
 * sizeof(struct control) bytes, the collector zeroes callgrind's counters by
 * sending the server's main thread ZERO_SIGNAL, and dumps them, with the hint
 * it wrote into the file, by sending DUMP_SIGNAL; each time the handler counts
 * one more in the file's acks, which the collector waits for. The collector
 * signals only a server asleep in epoll_wait with no client connected, so
 * the instructions a window holds besides its requests (the handler's after
 * a zero and before a dump, the signal's return, epoll_wait called again) are
 * the same every time. */
#define ZERO_SIGNAL 40
#define DUMP_SIGNAL 41
struct control {
    volatile unsigned long acks; /* little-endian, bytes 0-7 */
    char hint[56];               /* NUL-terminated, bytes 8-63 */
};
static struct control *control;
static volatile sig_atomic_t windows; /* handler runs, for epoll_wait */

static void on_window(int sig) {
    if (sig == ZERO_SIGNAL) {
        CALLGRIND_ZERO_STATS;
    } else {
        CALLGRIND_DUMP_STATS_AT(control->hint);
    }
    windows++;
    __atomic_add_fetch(&control->acks, 1, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void init_windows(void) {
    const char *path = getenv("FREEZECLOCK_CONTROL");
    if (!path) return;
    int fd = open(path, O_RDWR);
    if (fd < 0) return;
    void *m = mmap(NULL, sizeof *control, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) return;
    control = m;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_window;
    sigfillset(&sa.sa_mask);
    sigaction(ZERO_SIGNAL, &sa, NULL);
    sigaction(DUMP_SIGNAL, &sa, NULL);
}

/* jemalloc 3.x and 4.x notice Valgrind when it starts and then allocates
 * differently: no thread cache, a quarantine of freed memory, red zones.
 * The options in JE_MALLOC_CONF (matrix.toml) set the last two back to their
 * native defaults, and 3.x's valgrind:false turns the mode off. 4.x has no
 * such option, keeps taking its Valgrind-only steps (client requests that
 * tell Valgrind about memory) while its in_valgrind is set, and refuses
 * tcache:true. So jemalloc is started here, before the server's first
 * allocation, in_valgrind is cleared and the thread cache turned on: from
 * then on it runs its native paths. A server without a visible
 * je_in_valgrind (other jemallocs, libc malloc) is left alone. */
__attribute__((constructor)) static void native_allocator(void) {
    unsigned char *in_valgrind = dlsym(RTLD_DEFAULT, "je_in_valgrind");
    void *(*je_malloc)(size_t) = dlsym(RTLD_DEFAULT, "je_malloc");
    void (*je_free)(void *) = dlsym(RTLD_DEFAULT, "je_free");
    if (!in_valgrind || !je_malloc || !je_free) return;
    je_free(je_malloc(1)); /* jemalloc reads its options, notices Valgrind */
    *in_valgrind = 0;
    /* 4.x refuses tcache:true under Valgrind: turn the thread cache on for
     * the threads to come (opt.tcache) and for this one. */
    _Bool *opt_tcache = dlsym(RTLD_DEFAULT, "je_opt_tcache");
    int (*mallctl)(const char *, void *, size_t *, void *, size_t) = dlsym(RTLD_DEFAULT, "je_mallctl");
    if (opt_tcache) *opt_tcache = 1;
    _Bool on = 1;
    if (mallctl) mallctl("thread.tcache.enabled", NULL, NULL, &on, sizeof on);
}

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    static int (*real)(int, struct epoll_event *, int, int);
    if (!real) real = dlsym(RTLD_NEXT, "epoll_wait");
    (void)timeout; /* no timer is ever due: wait for events only */
    for (;;) {
        sig_atomic_t before = windows;
        int n = real(epfd, events, maxevents > 1 ? 1 : maxevents, -1);
        /* A window's signal is not the server's business: wait again. */
        if (n < 0 && errno == EINTR && windows != before) continue;
        return n;
    }
}

/* A socket read waits, the first time it reads a new batch of requests,
 * until the batch has arrived: the bytes pending end a line and stay the
 * same for two looks a quarter of a millisecond apart (at most a second in
 * all). A read that left bytes pending is followed by one that does not wait:
 * the client sends its next batch only once it has every reply. */
#define MAX_FD 65536
static unsigned char midbatch[MAX_FD];
static char peekbuf[8 << 20];

static int is_socket(int fd) {
    struct stat st;
    return fd >= 0 && fd < MAX_FD && fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

static int pending(int fd) {
    int n = 0;
    return ioctl(fd, FIONREAD, &n) == 0 ? n : -1;
}

static int ends_line(int fd, int n) {
    if (n < 2 || n > (int)sizeof peekbuf) return 1; /* nothing (EOF) or too much to look at */
    ssize_t got = recv(fd, peekbuf, (size_t)n, MSG_PEEK | MSG_DONTWAIT);
    return got == n && peekbuf[n - 2] == '\r' && peekbuf[n - 1] == '\n';
}

static void settle_socket(int fd) {
    int last = -1, same = 0;
    for (int i = 0; i < 4000 && same < 2; i++) {
        int n = pending(fd);
        if (n < 0) break;
        same = n == last && ends_line(fd, n) ? same + 1 : 0;
        last = n;
        struct timespec wait = {0, 250000};
        nanosleep(&wait, NULL);
    }
}

/* settle_reads is whether socket reads wait for their batch: 1 unless
 * FREEZECLOCK_SETTLE_READS is "no". */
static int settle_reads(void) {
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("FREEZECLOCK_SETTLE_READS");
        on = !(v && strcmp(v, "no") == 0);
    }
    return on;
}

ssize_t read(int fd, void *buf, size_t count) {
    static ssize_t (*real)(int, void *, size_t);
    CALLGRIND_TOGGLE_COLLECT; /* the wait is not the server's work */
    int saved = errno;
    if (!real) real = dlsym(RTLD_NEXT, "read");
    int sock = is_socket(fd);
    if (sock && !midbatch[fd] && settle_reads()) settle_socket(fd);
    errno = saved;
    CALLGRIND_TOGGLE_COLLECT;
    ssize_t got = real(fd, buf, count);
    CALLGRIND_TOGGLE_COLLECT;
    saved = errno;
    if (sock) midbatch[fd] = got > 0 && pending(fd) > 0;
    errno = saved;
    CALLGRIND_TOGGLE_COLLECT;
    return got;
}

static int fixed_buffer(int fd) {
    if (fd >= 0) {
        if (fd < MAX_FD) midbatch[fd] = 0;
        int size = 8 << 20;
        int saved = errno;
        setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size);
        errno = saved;
    }
    return fd;
}

int accept(int fd, struct sockaddr *addr, socklen_t *len) {
    static int (*real)(int, struct sockaddr *, socklen_t *);
    if (!real) real = dlsym(RTLD_NEXT, "accept");
    return fixed_buffer(real(fd, addr, len));
}

int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    static int (*real)(int, struct sockaddr *, socklen_t *, int);
    if (!real) real = dlsym(RTLD_NEXT, "accept4");
    return fixed_buffer(real(fd, addr, len, flags));
}

pid_t getpid(void) { return 4242; }

/* fixed_bytes fills buf with the same pseudo-random bytes every run. */
static void fixed_bytes(unsigned char *buf, size_t len) {
    unsigned long long x = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < len; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        buf[i] = (unsigned char)x;
    }
}

ssize_t getrandom(void *buf, size_t len, unsigned int flags) {
    (void)flags;
    fixed_bytes(buf, len);
    return (ssize_t)len;
}

static unsigned char urandom[4096];

static FILE *open_file(const char *sym, const char *path, const char *mode) {
    if (path && strcmp(path, "/dev/urandom") == 0) {
        fixed_bytes(urandom, sizeof urandom);
        return fmemopen(urandom, sizeof urandom, "r");
    }
    FILE *(*real)(const char *, const char *) = dlsym(RTLD_NEXT, sym);
    return real(path, mode);
}

FILE *fopen(const char *path, const char *mode) { return open_file("fopen", path, mode); }
FILE *fopen64(const char *path, const char *mode) { return open_file("fopen64", path, mode); }
