/* window-check: run with freezeclock.so preloaded and FREEZECLOCK_CONTROL set
 * (freezeclock_test.go). Waits in epoll_wait for standard input and prints
 * what epoll_wait returned: the collector's window signals in between must
 * not reach it. */
#include <stdio.h>
#include <sys/epoll.h>

int main(void) {
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN};
    ev.data.fd = 0;
    epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev);
    printf("ready\n");
    fflush(stdout);
    struct epoll_event out[1];
    printf("epoll_wait %d\n", epoll_wait(ep, out, 1, 1000));
    return 0;
}
