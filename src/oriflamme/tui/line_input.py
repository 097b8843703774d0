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
``input()`` read, and it reads a line that is already there. (``select`` rather
than ``poll``: macOS's ``poll`` does not wait on terminals.)

A line typed before its question was shown is thrown away: a person who
types ahead while the bots play would otherwise answer a question they never
saw (``2`` meant for one menu choosing in the next). The terminal's input
queue is emptied just before each prompt is shown.

This module must stay interpreted (it is not in the mypyc build's list):
compiled code runs no Python signal handler between two calls, so the wait
would go back to ``select`` with the Ctrl-C still pending.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
from functools import cache
from typing import TextIO

from rich.console import Console
from rich.text import Text


def read_terminal_line(console: Console, prompt: str) -> str:
    """Show ``prompt`` and return the line typed after it (without its newline).

    Raises ``KeyboardInterrupt`` on Ctrl-C, whenever it was pressed, and
    ``EOFError`` at the end of input, as ``input()`` does.
    """
    discard_typed_ahead(sys.stdin)
    console.print(Text(prompt), end="")
    wait_for_line(sys.stdin)
    return input()


def discard_typed_ahead(stream: TextIO) -> None:
    """Throw away whatever was typed at the terminal and not read yet.

    Only a terminal in the foreground is touched: a pipe or a file holds
    answers written in advance on purpose, and a background job must not
    flush a terminal that belongs to another. ``input()`` reads a terminal one
    line per ``read`` (canonical mode), so no typed-ahead line waits in a
    buffer of this process: emptying the terminal's queue is enough.
    """
    fd = _foreground_terminal(stream)
    if fd is None:
        return
    if sys.platform == "win32":
        import msvcrt

        while msvcrt.kbhit():
            msvcrt.getwch()
        return
    import termios

    # Not a terminal after all, or one this process may not change: nothing to throw away.
    with contextlib.suppress(termios.error):
        termios.tcflush(fd, termios.TCIFLUSH)


def _foreground_terminal(stream: TextIO) -> int | None:
    """The descriptor of ``stream`` if it is a terminal this process reads in the foreground."""
    try:
        fd = stream.fileno()
        if not os.isatty(fd):
            return None
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return None
    if sys.platform != "win32":
        try:
            if os.tcgetpgrp(fd) != os.getpgrp():
                return None
        except OSError:
            pass  # a terminal that is not this process's controlling one: no job control to respect
    return fd


def wait_for_line(stream: TextIO) -> None:
    """Return once ``stream`` has something to read, letting any signal interrupt the wait.

    Does nothing where the wait cannot be made safely, and callers then read
    as ``input()`` always did: on Windows; when the stream is not a terminal (a
    pipe or a file, which never waits for a person); when this process is not
    the terminal's foreground job (its read must stop it, as job control
    expects); outside the main thread (the only one that can own a wakeup fd);
    when no pipe can be made (no descriptor left).
    """
    if sys.platform == "win32" or threading.current_thread() is not threading.main_thread():
        return
    fd = _foreground_terminal(stream)
    if fd is None:
        return
    try:
        wake, wake_writer = _pipe()
    except OSError:
        return
    _drain(wake)
    previous: int | None = None
    try:
        # A signal that raises between this call's return and the assignment leaves the pipe as
        # the wakeup fd for good: harmless, as it is never closed, though a wakeup fd set before
        # (the terminal game sets none) would then not be put back.
        previous = signal.set_wakeup_fd(wake_writer, warn_on_full_buffer=False)
        while True:
            try:
                ready, _, _ = select.select([fd, wake], [], [])
            except ValueError:  # a descriptor past select's limit: read as input() does
                return
            if fd in ready:
                return
            # A signal arrived. If it was Ctrl-C, the interpreter raises
            # KeyboardInterrupt before the next line here runs; any other
            # signal had its handler run, and the wait goes on.
            _drain(wake)
    finally:
        if previous is not None:
            signal.set_wakeup_fd(previous)  # its warn_on_full_buffer cannot be read back: the default


@cache
def _pipe() -> tuple[int, int]:
    """The wakeup pipe, made once and kept for the life of the process (never closed, so a
    wakeup fd left pointing at it can never write into a descriptor reused for something else)."""
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    os.set_blocking(write_end, False)  # set_wakeup_fd refuses a blocking fd
    return read_end, write_end


def _drain(fd: int) -> None:
    """Empty the wakeup pipe, so that a signal already handled does not end the next wait."""
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


__all__ = ["discard_typed_ahead", "read_terminal_line", "wait_for_line"]
