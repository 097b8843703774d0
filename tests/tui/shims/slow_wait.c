/* Loaded with LD_PRELOAD into `oriflamme play` by tests/tui/test_terminal.py.

   It widens the gap between a prompt and the system call that waits for the
   answer, which a busy machine sometimes stretches for a few microseconds:
   fgets() on stdin (what input() reads with) and poll() on stdin without a
   timeout (what the terminal game waits in) first pause, until a signal
   arrives or ten seconds pass. A Ctrl-C sent in that pause must still end the
   game. The file named by SLOW_WAIT_MARK gets a line "paused" when a pause
   begins and "signal" when a signal ends one, so the test knows the Ctrl-C
   really fell into the gap. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void mark(const char *line) {
    const char *path = getenv("SLOW_WAIT_MARK");
    if (!path) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd < 0) return;
    ssize_t written = write(fd, line, strlen(line));
    (void)written;
    close(fd);
}

static void pause_before_waiting(void) {
    int saved = errno;
    mark("paused\n");
    struct timespec left = {10, 0};
    if (nanosleep(&left, &left) != 0 && errno == EINTR) mark("signal\n");
    errno = saved;
}

char *fgets(char *s, int n, FILE *fp) {
    static char *(*real)(char *, int, FILE *);
    if (!real) real = (char *(*)(char *, int, FILE *))dlsym(RTLD_NEXT, "fgets");
    if (fp == stdin) pause_before_waiting();
    return real(s, n, fp);
}

int poll(struct pollfd *fds, nfds_t n, int timeout) {
    static int (*real)(struct pollfd *, nfds_t, int);
    if (!real) real = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
    if (timeout < 0) {
        for (nfds_t i = 0; i < n; i++) {
            if (fds[i].fd == 0) {
                pause_before_waiting();
                break;
            }
        }
    }
    return real(fds, n, timeout);
}
