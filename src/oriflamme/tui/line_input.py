"""Reading a typed line at the terminal so that a Ctrl-C is never lost.

``input()`` alone can lose a Ctrl-C. Python's C-level signal handler only
notes a SIGINT; the interpreter raises ``KeyboardInterrupt`` at its next
instruction, or when a blocking system call returns early because of the
signal. A Ctrl-C that lands after ``input()`` has begun but before its
``read()`` blocks is noted and then waits, unseen, until the next line is
typed. This is the race PEP 475 describes ("deadlock if the signal comes before
the system call"). The person sees ``^C`` and nothing more. On a busy machine
the window is wide enough to hit when Ctrl-C follows the prompt at once.

The remedy is the one PEP 475 recommends: wait in ``select`` on the terminal
*and* on a signal wakeup pipe. The C handler writes into the pipe the instant
the signal arrives, so the wait ends whenever the Ctrl-C came. Only then does
``input()`` read, and it reads a line that is already there.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
from typing import TextIO

from rich.console import Console
from rich.text import Text


def read_terminal_line(console: Console, prompt: str) -> str:
    """Show ``prompt`` and return the line typed after it (without its newline).

    Raises ``KeyboardInterrupt`` on Ctrl-C, whenever it was pressed, and
    ``EOFError`` at the end of input, as ``input()`` does.
    """
    console.print(Text(prompt), end="")
    wait_for_line(sys.stdin)
    return input()


def wait_for_line(stream: TextIO) -> None:
    """Return once ``stream`` has something to read, letting any signal interrupt the wait.

    Does nothing where the wait cannot be made safely: off POSIX, when the
    stream is not a terminal (a pipe or a file, which never waits for a person),
    or outside the main thread (the only one that can own a wakeup fd). Callers
    then read as ``input()`` always did.
    """
    if os.name != "posix" or threading.current_thread() is not threading.main_thread():
        return
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return
    if not os.isatty(fd):
        return
    wake_r, wake_w = os.pipe()
    try:
        os.set_blocking(wake_r, False)
        os.set_blocking(wake_w, False)  # set_wakeup_fd refuses a blocking fd
        previous = signal.set_wakeup_fd(wake_w)
        try:
            while True:
                ready, _, _ = select.select([fd, wake_r], [], [])
                if fd in ready:
                    return
                # A signal arrived. If it was Ctrl-C, the interpreter raises
                # KeyboardInterrupt before the next line here runs; any other
                # signal had its handler run, and the wait goes on.
                _drain(wake_r)
        finally:
            signal.set_wakeup_fd(previous)
    finally:
        os.close(wake_r)
        os.close(wake_w)


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


__all__ = ["read_terminal_line", "wait_for_line"]
