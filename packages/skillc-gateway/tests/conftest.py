"""Fixtures for skillc-gateway's tests: a skill on disk in a temporary project and home (the
shared ``home``, ``project`` and ``cli`` are in the checkout's conftest.py)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from skillc_index import Layout, ResolvedSkill, resolve_skill

Run = Callable[..., subprocess.CompletedProcess[str]]

SKILL_MD = """---
name: demo
description: A demo skill for gateway tests. Use when testing.
---

# Demo

Intro text.

## Install

Run the installer.

```sh
# not a heading
make install
```

## Usage

Use it.
"""


@pytest.fixture
def project(project: Path) -> Path:
    """The shared empty project (the checkout's conftest.py), with its skill store."""
    (project / ".skillc" / "skills").mkdir(parents=True)
    return project


@pytest.fixture
def demo(project: Path) -> Path:
    root = project / ".skillc" / "skills" / "demo"
    (root / "references").mkdir(parents=True)
    (root / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    (root / "references" / "api.md").write_text("# API\n\n## Endpoints\n\n### GET\n", "utf-8")
    (root / "references" / "notes.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")
    (root / ".hidden.md").write_text("# Hidden\n", encoding="utf-8")
    return root


@pytest.fixture
def resolved(demo: Path, project: Path, home: Path) -> ResolvedSkill:
    return resolve_skill("demo", Layout.discover(project, {"SKILLC_HOME": str(home)}))


@pytest.fixture
def gateway(cli: Callable[..., Run]) -> Run:
    """``gateway(*args, cwd=None)``: ``skillc_gateway``'s ``main`` in this process, in the
    project with a private SKILLC_HOME (``gateway_process`` for a real subprocess)."""
    return cli("skillc_gateway")


@pytest.fixture
def eval_json(gateway: Run) -> Callable[..., tuple[int, dict[str, Any]]]:
    """``eval_json(*args)``: ``eval *args --format json`` run by :func:`gateway`; its exit
    status and its report, parsed (a run that printed nothing fails with its stderr)."""

    def run(*args: str) -> tuple[int, dict[str, Any]]:
        done = gateway("eval", *args, "--format", "json")
        assert done.stdout, done.stderr
        return done.returncode, json.loads(done.stdout)

    return run


@pytest.fixture
def gateway_process(cli: Callable[..., Run]) -> Run:
    """Like :func:`gateway`, as ``python -m skillc_gateway`` in a subprocess."""
    return cli("skillc_gateway", process=True)


@pytest.fixture
def listening() -> Callable[[Path], socket.socket]:
    """Make a Unix socket listen at a path as a find server's does (mode 0600), its
    ``accept`` timing out every 0.1 s (so a thread serving it sees it closed): a stand-in
    for the find server, whose replies a test writes."""

    def listen(path: Path) -> socket.socket:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        umask = os.umask(0o177)
        try:
            listener.bind(str(path))
        finally:
            os.umask(umask)
        listener.listen()
        listener.settimeout(0.1)
        return listener

    return listen


#: ``newer_gateway(*edits)``: see :func:`newer_gateway`.
NewerGateway = Callable[..., dict[str, str]]


@pytest.fixture
def newer_gateway(clean_env: dict[str, str], tmp_path: Path) -> NewerGateway:
    """``newer_gateway(*edits)``: the environment (``clean_env``'s) of a newer skillc, a copy
    of skillc-gateway's modules first on the module path, its find server's protocol 2, its
    version 9.0.0, and ``edits`` (``(module, old, new)``: ``old`` replaced in that file of
    it, which must hold it), as an audit simulated one (a copy, not a monkeypatch: the server
    and ``skc find`` it runs are processes of their own)."""
    import shutil

    import skillc_gateway

    def make(*edits: tuple[str, str, str]) -> dict[str, str]:
        copy = Path(tempfile.mkdtemp(prefix="newer-", dir=tmp_path))
        folder = Path(str(skillc_gateway.__file__)).parent
        ignore = shutil.ignore_patterns("__pycache__")
        shutil.copytree(folder, copy / "skillc_gateway", ignore=ignore)
        version = f'__version__ = "{skillc_gateway.__version__}"'
        for module, old, new in [
            ("find_socket.py", "\nPROTOCOL = 1\n", "\nPROTOCOL = 2\n"),
            ("__init__.py", version, '__version__ = "9.0.0"'),
            *edits,
        ]:
            edited = copy / "skillc_gateway" / module
            text = edited.read_text(encoding="utf-8")
            assert old in text, (module, old)
            edited.write_text(text.replace(old, new), encoding="utf-8")
        path = os.pathsep.join(filter(None, [str(copy), clean_env.get("PYTHONPATH")]))
        return {**clean_env, "PYTHONPATH": path}

    return make


#: ``stand_in(path, reply=None, *, read=True, hold=False)``: see :func:`stand_in`.
StandIn = Callable[..., AbstractContextManager[list[bytes]]]


@pytest.fixture
def stand_in(listening: Callable[[Path], socket.socket]) -> StandIn:
    """``with stand_in(path, reply) as requests:`` a find server stand-in listening at
    ``path``, serving in a thread until the block ends (then its socket file is removed):
    each connection's request is read to its end and kept in ``requests``, and ``reply``
    (bytes, or a function of the request) sent back; ``read=False`` closes each connection
    unread and unanswered, ``hold=True`` keeps each open unanswered until the block ends (a
    stuck server). ``requests`` has an entry per connection (empty when unread)."""

    @contextmanager
    def serve(
        path: Path,
        reply: bytes | Callable[[bytes], bytes] | None = None,
        *,
        read: bool = True,
        hold: bool = False,
    ) -> Iterator[list[bytes]]:
        listener = listening(path)
        requests: list[bytes] = []
        held: list[socket.socket] = []

        def loop() -> None:
            while listener.fileno() != -1:
                try:
                    connection, _ = listener.accept()
                except (TimeoutError, OSError):
                    continue
                if hold:
                    requests.append(b"")
                    held.append(connection)
                    continue
                with connection:
                    data = b""
                    if read:
                        connection.settimeout(10)
                        while chunk := connection.recv(1 << 16):
                            data += chunk
                    requests.append(data)
                    if reply is not None:
                        connection.sendall(reply(data) if callable(reply) else reply)

        thread = threading.Thread(target=loop)
        thread.start()
        try:
            yield requests
        finally:
            listener.close()
            thread.join()
            for connection in held:
                connection.close()
            path.unlink(missing_ok=True)

    return serve
