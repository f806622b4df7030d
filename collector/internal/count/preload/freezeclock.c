/* freezeclock: preloaded into redis-server while its work is counted.
 *
 * The server's clock stands still at its start-up time, and its event loop
 * never wakes up for a timer: serverCron's time-driven work (memory
 * statistics, resizing client buffers, incremental rehashing, expiry) would
 * otherwise run at random points between requests and change what the
 * requests after it cost. Everything a request does still runs as it is.
 * SHUTDOWN still stops the server; SIGTERM, handled in serverCron, does not.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/epoll.h>
#include <sys/time.h>
#include <time.h>

static struct timespec frozen_realtime, frozen_monotonic;
static int frozen;

static void freeze(void) {
    if (frozen) return;
    int (*real)(clockid_t, struct timespec *) = dlsym(RTLD_NEXT, "clock_gettime");
    real(CLOCK_REALTIME, &frozen_realtime);
    real(CLOCK_MONOTONIC, &frozen_monotonic);
    frozen = 1;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    freeze();
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
    freeze();
    if (tv) {
        tv->tv_sec = frozen_realtime.tv_sec;
        tv->tv_usec = frozen_realtime.tv_nsec / 1000;
    }
    return 0;
}

time_t time(time_t *t) {
    freeze();
    if (t) *t = frozen_realtime.tv_sec;
    return frozen_realtime.tv_sec;
}

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    static int (*real)(int, struct epoll_event *, int, int);
    if (!real) real = dlsym(RTLD_NEXT, "epoll_wait");
    (void)timeout; /* no timer is ever due: wait for events only */
    return real(epfd, events, maxevents, -1);
}
