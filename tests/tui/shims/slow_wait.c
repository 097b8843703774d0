/* Loaded with LD_PRELOAD into `oriflamme play` by tests/tui/test_terminal.py.

   It widens, to one second, the gap between a prompt and the system call that
   waits for the answer, as a busy machine sometimes does for a few
   microseconds: fgets() and select() on the terminal first sleep. A Ctrl-C
   sent in that gap must still end the game. Each delay also touches the file
   named by SLOW_WAIT_MARK, so the test knows the shim was really in the path. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static void pause_before_waiting(void) {
    const char *mark = getenv("SLOW_WAIT_MARK");
    if (mark) {
        int fd = open(mark, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd >= 0) close(fd);
    }
    struct timespec left = {1, 0};
    while (nanosleep(&left, &left) != 0) {
    }
}

char *fgets(char *s, int n, FILE *fp) {
    static char *(*real)(char *, int, FILE *);
    if (!real) real = (char *(*)(char *, int, FILE *))dlsym(RTLD_NEXT, "fgets");
    if (fp == stdin) pause_before_waiting();
    return real(s, n, fp);
}

int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *t) {
    static int (*real)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
    if (!real) real = (int (*)(int, fd_set *, fd_set *, fd_set *, struct timeval *))dlsym(RTLD_NEXT, "select");
    if (r && FD_ISSET(0, r) && t == NULL) pause_before_waiting();
    return real(n, r, w, e, t);
}
