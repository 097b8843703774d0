"""Reading a line at the terminal: the typed line comes back, a signal whose handler raises ends
the wait, other signals do not, and the process's signal wakeup fd is left as it was found.

Standard input is a pseudo-terminal made here, so the waits are the real ones
(``select`` on a terminal and a signal wakeup pipe). A helper thread types or
signals after a pause, and is joined before the test's signal handlers are put
back, so a late signal can only fail its own test. A line typed a few seconds
later ends a wait that should already have ended, so such a test fails instead
of hanging. The race the wakeup pipe closes (a Ctrl-C landing before the wait
blocks) needs the program held in that gap: ``test_terminal.py`` does it with a
preloaded shim.
"""

from __future__ import annotations

import io
import os
import signal
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TextIO

import pytest
from rich.console import Console

from oriflamme.tui import line_input
from oriflamme.tui.line_input import read_terminal_line, wait_for_line

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals and wakeup fds are POSIX")


class Interrupted(Exception):
    """Raised by the tests' SIGINT handler: an ordinary exception, so a signal that came too late
    fails one test rather than stopping the session as a KeyboardInterrupt would."""


def interrupt(signum: int, frame: FrameType | None) -> None:
    raise Interrupted


#: When a "late line" is typed: long after any right wait has ended, so that a wait that ended
#: only because the line came is told by the line having come, not by the time it took.
LATE = 60.0


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

    def type_later(self, text: bytes, seconds: float = LATE) -> threading.Event:
        """Type ``text`` after ``seconds``; the event tells whether it has been typed."""
        typed = threading.Event()

        def run() -> None:
            time.sleep(seconds)
            self.type(text)
            typed.set()

        threading.Thread(target=run, daemon=True).start()
        return typed

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


@pytest.fixture
def wakeup_fd() -> Iterator[int]:
    """A wakeup fd of the process's own, as a library such as asyncio would have set: the wait
    must hand it back. The one found before the test is put back after it."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    found = signal.set_wakeup_fd(write_end)
    try:
        yield write_end
    finally:
        signal.set_wakeup_fd(found)
        os.close(read_end)
        os.close(write_end)


def after(seconds: float, action: Callable[[], object]) -> threading.Thread:
    def run() -> None:
        time.sleep(seconds)
        action()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@contextmanager
def handling(
    signum: int, handler: Callable[[int, FrameType | None], object]
) -> Iterator[list[threading.Thread]]:
    """``handler`` for ``signum`` inside the block; the threads put in the list it gives, which
    send the signal, are joined before the old handler is back, so a late signal can only fail
    its own test."""
    senders: list[threading.Thread] = []
    previous = signal.signal(signum, handler)
    try:
        yield senders
    finally:
        try:
            for sender in senders:
                sender.join(5)
        finally:
            signal.signal(signum, previous)


def test_the_typed_line_comes_back_after_the_prompt(terminal: Typist) -> None:
    out = io.StringIO()
    console = Console(file=out, width=80)
    terminal.type_later(b"place soldier first\n", 0.2)
    assert read_terminal_line(console, "p1> ") == "place soldier first"
    assert out.getvalue() == "p1> "


def test_a_line_typed_before_the_prompt_is_thrown_away(terminal: Typist) -> None:
    """Typed ahead while the bots played, ``2`` would answer a question nobody has seen yet."""
    terminal.type(b"2\n")
    time.sleep(0.1)  # the line is in the terminal's queue before the prompt is shown
    terminal.type_later(b"keep\n", 0.3)
    assert read_terminal_line(Console(file=io.StringIO()), "p1> ") == "keep"


def test_typed_ahead_lines_are_kept_when_they_come_from_a_pipe() -> None:
    """Answers written in advance into a pipe or a file are meant: they are never thrown away."""
    read, write = os.pipe()
    os.write(write, b"2\n")
    os.close(write)
    with open(read, encoding="utf-8") as stream:
        line_input.discard_typed_ahead(stream)
        assert stream.readline() == "2\n"


def test_a_signal_whose_handler_raises_ends_the_wait(terminal: Typist, wakeup_fd: int) -> None:
    """As Ctrl-C does (Python's own SIGINT handler raises KeyboardInterrupt)."""
    main = threading.main_thread().ident
    assert main is not None
    with handling(signal.SIGINT, interrupt) as senders:
        late = terminal.type_later(b"typed-late\n")
        with pytest.raises(Interrupted):
            senders.append(after(0.2, lambda: signal.pthread_kill(main, signal.SIGINT)))
            wait_for_line(sys.stdin)
        assert not late.is_set(), "the wait ended only when the late line came"
    assert signal.set_wakeup_fd(wakeup_fd) == wakeup_fd, "the wait kept its own wakeup fd"


def test_a_signal_whose_handler_returns_runs_it_and_the_wait_goes_on(
    terminal: Typist, wakeup_fd: int
) -> None:
    main = threading.main_thread().ident
    assert main is not None
    received: list[int] = []
    typed = threading.Event()

    def signal_then_type() -> None:
        signal.pthread_kill(main, signal.SIGUSR1)
        time.sleep(0.3)
        typed.set()
        terminal.type(b"2\n")

    with handling(signal.SIGUSR1, lambda signum, frame: received.append(signum)) as senders:
        senders.append(after(0.1, signal_then_type))
        wait_for_line(sys.stdin)
        assert typed.is_set(), "the wait ended at the signal, before anything was typed"
        assert input() == "2"
    assert received == [signal.SIGUSR1]
    assert signal.set_wakeup_fd(wakeup_fd) == wakeup_fd, "the wait kept its own wakeup fd"


def test_end_of_input_raises_eof_error(terminal: Typist) -> None:
    terminal.type_later(b"\x04", 0.2)  # Ctrl-D on an empty line
    with pytest.raises(EOFError):
        read_terminal_line(Console(file=io.StringIO()), "p1> ")


def returns_at_once(wait: Callable[[], object], late: threading.Event) -> None:
    """``wait()`` must return without anything typed; the late line would end a wrong wait."""
    wait()
    assert not late.is_set(), "it waited for the late line"


@pytest.mark.parametrize("kind", ["in-memory", "pipe", "closed"])
def test_a_stream_that_is_no_terminal_is_left_to_input(kind: str, wakeup_fd: int) -> None:
    """Pipes, files and in-memory streams never wait for a person: no wait, no error, and the
    wakeup fd untouched."""
    stream: TextIO
    writer: Typist | None = None
    late = threading.Event()  # never set for an in-memory stream: nothing is typed late
    if kind == "in-memory":
        stream = io.StringIO("1\n")
    else:
        read, write = os.pipe()  # open and empty: a wait on it would block until the late line
        stream = open(read, encoding="utf-8")  # noqa: SIM115 - closed below
        if kind == "closed":
            stream.close()
        writer = Typist(write)
        late = writer.type_later(b"late\n")
    try:
        returns_at_once(lambda: wait_for_line(stream), late)
        assert signal.set_wakeup_fd(wakeup_fd) == wakeup_fd
    finally:
        stream.close()
        if writer is not None:
            writer.close()


def test_outside_the_main_thread_the_wait_is_left_to_input(terminal: Typist, wakeup_fd: int) -> None:
    """Only the main thread may own a wakeup fd (and receives Python's signal handlers)."""
    late = terminal.type_later(b"late\n")
    outcome: list[BaseException | None] = []

    def in_a_thread() -> None:
        try:
            returns_at_once(lambda: wait_for_line(sys.stdin), late)
            outcome.append(None)
        except BaseException as error:  # reported by the main thread below
            outcome.append(error)

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join(10)
    assert outcome == [None]
    assert signal.set_wakeup_fd(wakeup_fd) == wakeup_fd


def test_a_background_job_is_left_to_input(
    terminal: Typist, wakeup_fd: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that is not the terminal's foreground job reads at once, so that job control
    stops it there (SIGTTIN) as it stopped it before the wait existed."""
    late = terminal.type_later(b"late\n")
    monkeypatch.setattr(os, "tcgetpgrp", lambda fd: os.getpgrp() + 1)
    returns_at_once(lambda: wait_for_line(sys.stdin), late)
    assert signal.set_wakeup_fd(wakeup_fd) == wakeup_fd


def test_the_wait_stays_out_of_the_compiled_build() -> None:
    """Compiled code runs no Python signal handler between two calls, so a compiled wait would
    go back to select with the Ctrl-C pending: the module must stay interpreted."""
    pyproject = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    compiled = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["include"]
    assert compiled, "the mypyc build's list moved: read it where it is now"
    assert not [p for p in compiled if "oriflamme/tui" in p or p.endswith("src/oriflamme")]
    assert line_input.__file__ is not None and line_input.__file__.endswith(".py")
