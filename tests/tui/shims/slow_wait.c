/* Loaded with LD_PRELOAD into `oriflamme play` by tests/tui/test_terminal.py.

   It widens the gap between a prompt and the system call that waits for the
   answer, which a busy machine sometimes stretches for a few microseconds:
   fgets() on stdin (what input() reads with) and select() on stdin without a
   timeout (what the terminal game waits in) first pause, until a signal
   arrives or ten seconds pass. A Ctrl-C sent in that pause must still end the
   game. The file named by SLOW_WAIT_MARK gets a line "paused" when a pause
   begins and "signal" when a signal ends one, so the test knows the Ctrl-C
   really fell into the gap. Signals are blocked from before "paused" is
   written until pselect() unblocks them and waits in one step, so a signal
   that comes right after the mark still ends the pause. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
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
    sigset_t all, before;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &before);
    mark("paused\n");
    struct timespec ten = {10, 0};
    int interrupted = pselect(0, NULL, NULL, NULL, &ten, &before) < 0 && errno == EINTR;
    sigprocmask(SIG_SETMASK, &before, NULL);
    if (interrupted) mark("signal\n");
    errno = saved;
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
    if (r != NULL && n > 0 && FD_ISSET(0, r) && t == NULL) pause_before_waiting();
    return real(n, r, w, e, t);
}
