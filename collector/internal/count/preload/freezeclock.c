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
 * Everything a request does still runs as it is. SHUTDOWN still stops the
 * server; SIGTERM, handled in serverCron, does not.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
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

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    static int (*real)(int, struct epoll_event *, int, int);
    if (!real) real = dlsym(RTLD_NEXT, "epoll_wait");
    (void)timeout; /* no timer is ever due: wait for events only */
    return real(epfd, events, maxevents, -1);
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
