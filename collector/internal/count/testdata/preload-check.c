/* preload-check: run with freezeclock.so preloaded (freezeclock_test.go);
 * prints what the preload makes a server see. */
#include <poll.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    printf("time %ld\n", (long)time(NULL));

    /* Two sockets ready at once: the event loop is given one. */
    int a[2], b[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, a);
    socketpair(AF_UNIX, SOCK_STREAM, 0, b);
    write(a[1], "x\r\n", 3);
    write(b[1], "y\r\n", 3);
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN};
    ev.data.fd = a[0];
    epoll_ctl(ep, EPOLL_CTL_ADD, a[0], &ev);
    ev.data.fd = b[0];
    epoll_ctl(ep, EPOLL_CTL_ADD, b[0], &ev);
    struct epoll_event out[8];
    printf("events %d\n", epoll_wait(ep, out, 8, 1000));

    /* A request written in two parts 50 ms apart is read whole. */
    int s[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, s);
    if (fork() == 0) {
        write(s[1], "PI", 2);
        struct timespec gap = {0, 50000000};
        nanosleep(&gap, NULL);
        write(s[1], "NG\r\n", 4);
        _exit(0);
    }
    /* As a server does: read once the socket is readable (the first part
     * has arrived). */
    struct pollfd pfd = {.fd = s[0], .events = POLLIN};
    poll(&pfd, 1, -1);
    char buf[64];
    printf("read %zd\n", read(s[0], buf, sizeof buf));
    wait(NULL);
    return 0;
}
