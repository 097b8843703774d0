"""A connection that never finishes sending its request is closed, at a real ``oriflamme serve``.

Once, 1,000 sockets sending a header line (or a byte of body) now and then
were each held for as long as their senders liked (uvicorn times out only
idle kept-alive connections). The deadline here is ``--request-timeout 1``.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    db = Path(tmp_path_factory.mktemp("slow")) / "games.sqlite3"
    cmd = [sys.executable, "-m", "oriflamme", "serve", "--port", str(port), "--db", str(db), "--bot-workers", "0",
           "--request-timeout", "1"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(
                        f"the server did not start: {proc.stderr.read() if proc.stderr else ''}"
                    ) from None
                time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` (reads end) before ``within`` seconds pass."""
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


@pytest.mark.parametrize("sent", [b"", b"GET / HTTP/1.1\r\nHost: x\r\n"], ids=["nothing", "half a request"])
def test_a_connection_that_does_not_finish_its_headers_is_closed(server: int, sent: bytes) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.sendall(sent)
        assert closed_by_server(sock, 15)


def test_a_slow_trickle_of_header_lines_does_not_keep_a_connection(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\n")
        for i in range(30):
            try:
                sock.sendall(f"X-Slow-{i}: a\r\n".encode())
            except OSError:
                break  # closed: the trickle did not hold it
            time.sleep(0.3)
        assert closed_by_server(sock, 15)


def test_requests_and_a_game_socket_that_stays_quiet_are_not_cut(server: int) -> None:
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert sock.recv(1024).startswith(b"HTTP/1.1 200")
    with connect(f"ws://127.0.0.1:{server}/ws") as ws:
        time.sleep(2.5)  # past the headers' deadline, twice over: a game socket stays open
        ws.send('{"type": "ping"}')
        assert '"pong"' in str(ws.recv(timeout=10))


@pytest.mark.parametrize("chunked", [False, True], ids=["with a length", "chunked"])
def test_a_body_sent_a_byte_at_a_time_does_not_keep_a_connection(server: int, chunked: bool) -> None:
    """Headers complete, then a body trickled in: the request must arrive whole in time too."""
    framing = b"Transfer-Encoding: chunked\r\n" if chunked else b"Content-Length: 16000\r\n"
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + framing + b"\r\n"
        )
        for _ in range(30):
            try:
                sock.sendall(b"1\r\n{\r\n" if chunked else b"{")
            except OSError:
                break
            time.sleep(0.3)
        assert closed_by_server(sock, 15)


@pytest.mark.parametrize(
    "extra",
    [
        b"Content-Length: 1\r\n",
        b"Transfer-Encoding: chunked\r\n",
        b"".join(b"X-%d: a\r\n" % i for i in range(130)),
    ],
    ids=["a body", "a chunked body", "many headers"],
)
def test_an_upgrade_the_handshake_refuses_is_closed_at_the_deadline(server: int, extra: bytes) -> None:
    """uvicorn holds such an upgrade open without an answer, for as long as its sender likes."""
    request = (
        b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" + extra + b"\r\n"
    )
    with socket.create_connection(("127.0.0.1", server)) as sock:
        sock.sendall(request)
        assert closed_by_server(sock, 15)
