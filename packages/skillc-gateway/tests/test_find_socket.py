"""The find server's socket as ``skc find`` meets it first (:mod:`skillc_gateway.find_socket`):
where it is without pathlib, and the query told ahead (``prepare``) to a server of ours only,
never waiting for it.

A real Unix socket listens where the find server's would (the ``listening`` fixture); what a
client sends is read from it. The server's side of a ``prepare`` is in ``test_watch.py``
(a real server process) and ``test_find_semantic.py`` (the model's work taken by the find).
"""

from __future__ import annotations

import ast
import functools
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from skillc_gateway import find_quick
from skillc_gateway.catalog.protocol import socket_path
from skillc_gateway.find_socket import home_socket, tcp_peer_uid, tell_ahead
from skillc_index import Layout

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

#: A safety net for a thread or a connection; never a timing assertion.
WAIT_SECONDS = 30.0


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short private ``$SKILLC_HOME`` (a socket path holds 107 bytes), with the step on."""
    path = Path(tempfile.mkdtemp(prefix="skt-", dir="/tmp")).resolve()
    (path / ".skillc").mkdir()
    monkeypatch.setenv("SKILLC_HOME", str(path))
    monkeypatch.delenv("SKILLC_FIND_SEMANTIC", raising=False)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def received(listener: socket.socket, reply: bytes = b"") -> dict[str, Any]:
    """The next message a client sent to ``listener`` (it waits for one), ``reply`` sent back."""
    listener.settimeout(WAIT_SECONDS)
    connection, _ = listener.accept()
    with connection:
        connection.settimeout(WAIT_SECONDS)
        data = b""
        while chunk := connection.recv(1 << 16):
            data += chunk
        if reply:  # a prepare's client is gone: it reads none
            connection.sendall(reply)
    message: dict[str, Any] = json.loads(data)
    return message


def test_the_socket_is_where_the_layout_puts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:func:`home_socket` (os.path) and ``socket_path`` of the discovered layout (pathlib)
    name the same file for every form of ``$SKILLC_HOME`` and of the home folder."""
    real = tmp_path / "real home"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "link"))
    forms = [
        None,  # the user's home folder, through a symlink
        str(real),
        str(tmp_path / "link") + "/",
        "link",  # relative to the working directory
        "./link/../real home",
        "~",
        "~/sub/../",
        str(tmp_path / "not yet made"),
    ]
    for form in forms:
        env = {} if form is None else {"SKILLC_HOME": form}
        expected = str(socket_path(Layout.discover(tmp_path, env)))
        assert home_socket(env) == expected, form
        assert expected.startswith(str(real) if form != forms[-1] else str(tmp_path))


def test_the_query_is_told_to_a_server_of_ours_only(
    home: Path, listening: Callable[[Path], socket.socket], monkeypatch: pytest.MonkeyPatch
) -> None:
    sock = home / ".skillc" / "find.sock"
    tell_ahead("paint a fence")  # no socket yet: nothing, no error
    with listening(sock) as listener:
        tell_ahead("paint a fence")
        assert received(listener) == {"version": 1, "op": "prepare", "query": "paint a fence"}
        # what is not told: each is followed by a query that is, which must come next
        nothing: list[Callable[[], None]] = [
            lambda: tell_ahead("   "),  # a query find refuses
            lambda: tell_ahead("x" * 10_001),
        ]
        for value in ("0", " OFF ", "no"):
            nothing.append(functools.partial(_with_env, monkeypatch, value))
        nothing.append(lambda: _with_mode(sock, 0o660))
        for index, step in enumerate(nothing):
            step()
            tell_ahead(f"query {index}")
            assert received(listener)["query"] == f"query {index}"
    sock.unlink()
    sock.write_text("not a socket\n", encoding="utf-8")
    tell_ahead("paint a fence")  # a file in its place: left alone
    assert sock.read_text(encoding="utf-8") == "not a socket\n"


def _with_env(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    with monkeypatch.context() as patched:
        patched.setenv("SKILLC_FIND_SEMANTIC", value)
        tell_ahead("the step is off")


def _with_mode(sock: Path, mode: int) -> None:
    sock.chmod(mode)
    try:
        tell_ahead("a socket others may use")
    finally:
        sock.chmod(0o600)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can listen as another user")
def test_a_socket_of_ours_served_by_another_user_is_not_told(
    home: Path, line_within: Callable[..., Any]
) -> None:
    """The socket file is ours and private, but the process listening on it dropped to
    another user after it bound it: the client connects, sees the peer's user and says
    nothing (the connection closes empty)."""
    sock = home / ".skillc" / "find.sock"
    code = (
        "import os, socket, sys\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "os.umask(0o177)\n"
        "s.bind(sys.argv[1])\n"
        "if sys.argv[2] == 'drop':\n"
        "    os.setuid(65534)\n"
        "s.listen()\n"
        "print('ready', flush=True)\n"
        "c, _ = s.accept()\n"
        "data = b''\n"
        "while chunk := c.recv(65536):\n"
        "    data += chunk\n"
        "print(repr(data), flush=True)\n"
    )
    heard: dict[str, str] = {}
    for user in ("drop", "keep"):  # near miss: the same listener of ours is told
        with subprocess.Popen(
            [sys.executable, "-c", code, str(sock), user], stdout=subprocess.PIPE, text=True
        ) as child:
            assert child.stdout is not None
            assert line_within(child) == "ready\n"
            tell_ahead("paint a fence")
            heard[user] = line_within(child).strip()
        assert child.returncode == 0
        sock.unlink()
    assert heard["drop"] == "b''"
    assert json.loads(ast.literal_eval(heard["keep"]))["query"] == "paint a fence"


def test_a_server_whose_queue_is_full_is_not_waited_for(
    home: Path, listening: Callable[[Path], socket.socket]
) -> None:
    """The client never waits to tell: a server that does not accept (its queue full) is
    not told, and the client goes on."""
    sock = home / ".skillc" / "find.sock"
    listener = listening(sock)
    listener.listen(0)  # its queue: as short as can be
    waiting: list[socket.socket] = []
    try:
        while True:  # fill its queue
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.setblocking(False)
            try:
                client.connect(str(sock))
            except BlockingIOError:
                client.close()
                break
            waiting.append(client)
        telling = threading.Thread(target=tell_ahead, args=("paint a fence",))
        telling.start()
        telling.join(WAIT_SECONDS)
        assert not telling.is_alive()
        # near miss: with room in the queue, the same call tells
        listener.settimeout(WAIT_SECONDS)
        for _ in waiting:
            listener.accept()[0].close()
        for client in waiting:
            client.close()
        tell_ahead("paint a fence")
        assert received(listener)["op"] == "prepare"
    finally:
        listener.close()


def test_the_quick_path_tells_the_query_before_it_asks(
    home: Path, project: Path, library: Path, listening: Callable[[Path], socket.socket],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """``skc find``'s quick path tells the server its query, then asks its find, which the
    server here refuses (the click command would then answer): the same query both times."""
    monkeypatch.chdir(project)
    sock = home / ".skillc" / "find.sock"

    def heard(told: int) -> list[dict[str, Any]]:
        """What one ``skc find``'s quick path sends: ``told`` messages, then its find."""
        messages: list[dict[str, Any]] = []
        with listening(sock) as listener:

            def serve() -> None:
                messages.extend(received(listener) for _ in range(told))
                messages.append(received(listener, b'{"version": 1, "ok": false, "error": "no"}'))

            serving = threading.Thread(target=serve)
            serving.start()
            assert find_quick.run(["paint a bicycle", "--path", "library"]) is None
            serving.join(WAIT_SECONDS)
        sock.unlink()
        return messages

    first, then = heard(1)
    assert (first["op"], then["op"]) == ("prepare", "find")
    assert first["query"] == then["query"] == "paint a bicycle"
    # near miss: with the step off, the find is asked untold
    monkeypatch.setenv("SKILLC_FIND_SEMANTIC", "0")
    assert [message["op"] for message in heard(0)] == ["find"]


@pytest.fixture
def library(project: Path, write_skill: Callable[..., Path]) -> Path:
    root = project / "library"
    write_skill(root / "painter", "painter", "Paint fences red.", "## Paint a bicycle\n\nBrush.\n")
    return root


_CONNECT = """\
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=30)
print(repr(s.getsockname()[:2]), flush=True)
s.recv(1)
"""


def test_tcp_peer_uid_reads_the_table_up_to_the_entry_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The MCP HTTP server asks it for every connection, on its event loop: it read up to
    16 MiB of ``/proc/net/tcp`` at once whatever line held the entry. It reads a line at a
    time, up to the first entry that says (TIME_WAIT says nothing), within the bound."""
    import io

    import skillc_gateway.find_socket as find_socket

    def line(number: int, local: str, remote: str, state: str, uid: int) -> bytes:
        return (
            f"{number:4}: {local} {remote} {state} 00000000:00000000 00:00000000 00000000 "
            f"{uid:5} 0 {number} 1 0000000000000000 20 4 30 10 -1\n"
        ).encode()

    if sys.byteorder != "little":  # pragma: no cover - the kernel prints words as stored
        pytest.skip("the table below is a little-endian machine's")
    local, remote = "0100007F:1F90", "0100007F:C350"  # 127.0.0.1:8080, 127.0.0.1:50000
    head = b"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid\n"
    rows = [line(0, remote, local, "06", 0), line(1, remote, local, "01", 4242)]
    rest = b"".join(line(n, "0100007F:0016", "0100007F:0017", "0A", 7) for n in range(2, 60000))
    table = head + b"".join(rows) + rest
    read: list[int] = []

    class Table(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            data = super().read(size)
            read.append(len(data))
            return data

        def readline(self, size: int | None = -1) -> bytes:
            data = super().readline(size)
            read.append(len(data))
            return data

    monkeypatch.setattr(find_socket, "open", lambda *_args: Table(table), raising=False)
    addresses = (("127.0.0.1", 8080), ("127.0.0.1", 50000))
    assert tcp_peer_uid(*addresses) == 4242
    assert sum(read) == len(head) + len(rows[0]) + len(rows[1])  # not the 6 MB after it
    monkeypatch.setattr(find_socket, "MAX_TCP_TABLE", len(head) + len(rows[0]))
    assert tcp_peer_uid(*addresses) == -1  # the entry lies past the bound


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_tcp_peer_uid_names_the_user_of_the_socket_at_the_other_end(host: str) -> None:
    """The MCP HTTP server's check of who connected (``/proc/net/tcp``, ``tcp6``): a
    connection of ours is ours; one of another user (root only: the system's python3
    connecting as uid 65534) is that user's; addresses no socket has are -1."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.bind((host, 0))
    except OSError:
        pytest.skip(f"no {host} here")
    with listener:
        listener.listen()
        here = listener.getsockname()[:2]
        with socket.create_connection(here, timeout=WAIT_SECONDS) as client:
            accepted, remote = listener.accept()
            with accepted:
                assert tcp_peer_uid(here, remote[:2]) == os.getuid()
                assert tcp_peer_uid(client.getsockname()[:2], here) == os.getuid()
        assert tcp_peer_uid(here, (host, 1)) == -1  # no such connection
        python = shutil.which("python3", path="/usr/bin:/bin")
        if os.geteuid() != 0 or python is None:
            return
        with subprocess.Popen(
            [python, "-c", _CONNECT, host, str(here[1])],
            user=65534,
            stdout=subprocess.PIPE,
            text=True,
            env={"PATH": os.environ.get("PATH", "")},
            cwd="/",
        ) as child:
            assert child.stdout is not None
            accepted, remote = listener.accept()
            with accepted:
                assert ast.literal_eval(child.stdout.readline())[1] == remote[1]
                assert tcp_peer_uid(here, remote[:2]) == 65534
                accepted.sendall(b"x")
        assert child.returncode == 0
