"""Reading a line at the terminal: the typed line comes back, Ctrl-C ends the wait, other signals do not.

Standard input is a pseudo-terminal made here, so the waits are the real ones
(``select`` on a terminal and a signal wakeup pipe). A helper thread types or
signals after a pause; it also types a line after a few seconds, so a wait that
should have ended fails the test instead of hanging it.
"""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

import pytest
from rich.console import Console

from oriflamme.tui.line_input import read_terminal_line, wait_for_line

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals and wakeup fds are POSIX")

SAFETY_LINE = b"typed-late\n"


class Typist:
    """The side of the pseudo-terminal a person types into, writable until the test ends."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lock = threading.Lock()
        self.closed = False

    def type(self, text: bytes) -> None:
        with self.lock:
            if not self.closed:  # a late helper must not write into a reused descriptor
                os.write(self.fd, text)

    def close(self) -> None:
        with self.lock:
            self.closed = True
            os.close(self.fd)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[Typist]:
    """Standard input becomes a fresh pseudo-terminal; the fixture gives the side a person types into."""
    typist_fd, reader = os.openpty()
    stdin = open(reader, encoding="utf-8")  # noqa: SIM115 - closed below
    monkeypatch.setattr(sys, "stdin", stdin)
    typist = Typist(typist_fd)
    try:
        yield typist
    finally:
        typist.close()
        stdin.close()


def later(seconds: float, action: Callable[[], object], typist: Typist) -> None:
    """Run ``action`` after ``seconds``; type the safety line five seconds later, in case the wait missed it."""

    def run() -> None:
        time.sleep(seconds)
        action()
        time.sleep(5)
        typist.type(SAFETY_LINE)

    threading.Thread(target=run, daemon=True).start()


def test_the_typed_line_comes_back_after_the_prompt(terminal: Typist) -> None:
    out = io.StringIO()
    console = Console(file=out, width=80)
    terminal.type(b"place soldier first\n")
    assert read_terminal_line(console, "p1> ") == "place soldier first"
    assert out.getvalue() == "p1> "


def test_ctrl_c_while_waiting_raises_keyboard_interrupt(terminal: Typist) -> None:
    main = threading.main_thread().ident
    assert main is not None
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        later(0.2, lambda: signal.pthread_kill(main, signal.SIGINT), terminal)
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            wait_for_line(sys.stdin)
        assert time.monotonic() - started < 4, "the wait ended only when the safety line came"
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_signal_other_than_ctrl_c_runs_its_handler_and_the_wait_goes_on(terminal: Typist) -> None:
    main = threading.main_thread().ident
    assert main is not None
    received: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: received.append(signum))

    typed = threading.Event()

    def signal_then_type() -> None:
        signal.pthread_kill(main, signal.SIGUSR1)
        time.sleep(0.3)
        typed.set()
        terminal.type(b"2\n")

    try:
        later(0.1, signal_then_type, terminal)
        wait_for_line(sys.stdin)
        assert typed.is_set(), "the wait ended at the signal, before anything was typed"
        assert input() == "2"
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert received == [signal.SIGUSR1]


def test_end_of_input_raises_eof_error(terminal: Typist) -> None:
    terminal.type(b"\x04")  # Ctrl-D on an empty line
    with pytest.raises(EOFError):
        read_terminal_line(Console(file=io.StringIO()), "p1> ")


def test_the_wait_leaves_the_wakeup_fd_as_it_found_it(terminal: Typist) -> None:
    """The pipe is the wait's own: afterwards signals wake whatever woke before (here, nothing)."""
    terminal.type(b"1\n")
    wait_for_line(sys.stdin)
    assert signal.set_wakeup_fd(-1) == -1


@pytest.mark.parametrize("kind", ["in-memory", "pipe", "closed"])
def test_a_stream_that_is_no_terminal_is_left_to_input(kind: str) -> None:
    """Pipes, files and in-memory streams never wait for a person: no wait, no wakeup fd, no error."""
    stream: TextIO
    if kind == "in-memory":
        stream = io.StringIO("1\n")
    else:
        read, write = os.pipe()
        os.close(write)  # an empty pipe at its end: a wait on it would not block, but none is made
        stream = open(read, encoding="utf-8")  # noqa: SIM115 - closed below
        if kind == "closed":
            stream.close()
    try:
        wait_for_line(stream)
        assert signal.set_wakeup_fd(-1) == -1
    finally:
        stream.close()
