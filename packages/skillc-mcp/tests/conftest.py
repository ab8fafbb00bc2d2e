"""Fixtures for skillc-mcp's tests: a real skill in a temporary project and home, and the
installed ``skillc-mcp`` server run as a subprocess, spoken to over its real stdin/stdout."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

# The helpers live next to this file; pytest's importlib mode does not put it on sys.path.
sys.path.insert(0, str(Path(__file__).parent))

from skillc_mcp_testing import MANAGED_SETTINGS, TIMEOUT, HttpServer, WireClient

SKILL_MD = """---
name: demo
description: A demo skill for the MCP server tests. Use when testing skillc-mcp.
---

# Demo

Intro text about widgets.

## Install

Run the installer to set up widgets.

```sh
# not a heading
make install
```

## Usage

Use the widgets daily.

## Usage notes

More about usage.
"""

API_MD = """# API

## Endpoints

### GET

Fetch widgets.

## Usage

Call the endpoints.
"""


@pytest.fixture(scope="session")
def server_command(script_path: Callable[[str], Path]) -> list[str]:
    """How a client starts the server: the installed ``skillc-mcp`` script, no arguments."""
    return [str(script_path("skillc-mcp"))]


@pytest.fixture
def project(project: Path) -> Path:
    """The shared project (the checkout's conftest.py) holding the ``demo`` skill (not built)."""
    path = project
    skill = path / ".skillc" / "skills" / "demo"
    (skill / "references").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
    (skill / "references" / "api.md").write_text(API_MD, encoding="utf-8")
    (skill / "references" / "notes.txt").write_text("one\ntwo\nthree\n", encoding="utf-8")
    return path


@pytest.fixture
def env(home: Path) -> dict[str, str]:
    """The server's environment: this one without SKILLC_*, with a private SKILLC_HOME and
    its managed settings file (not the machine's)."""
    values = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLC_", "SKC_"))}
    values["SKILLC_HOME"] = str(home)
    values["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(home / MANAGED_SETTINGS)
    values["PYTHONDONTWRITEBYTECODE"] = "1"
    values["SKILLC_FIND_SERVER"] = "0"  # no find server started by skc_find outlives a test
    return values


@pytest.fixture
def wire(
    server_command: list[str], project: Path, env: dict[str, str], tmp_path: Path
) -> Iterator[WireClient]:
    """The server, started in the project, as a raw JSON-RPC client."""
    client = WireClient(server_command, project, env, tmp_path / "server.log")
    yield client
    if client.process.poll() is None:
        assert client.close() == 0, client.stderr()


@pytest.fixture
def start(
    script_path: Callable[[str], Path], project: Path, env: dict[str, str]
) -> Iterator[Callable[..., HttpServer]]:
    servers: list[HttpServer] = []

    def run(
        *args: str, script: Sequence[str] = (), environ: dict[str, str] | None = None
    ) -> HttpServer:
        """``skillc-mcp --http 127.0.0.1:0 ARGS`` (``script``: another command in its place,
        ``environ``: another environment than ``env``)."""
        server = list(script) or [str(script_path("skillc-mcp"))]
        command = [*server, "--http", "127.0.0.1:0", *args]
        process = subprocess.Popen(
            command, cwd=project, env=environ or env, stderr=subprocess.PIPE, text=True
        )
        assert process.stderr is not None
        first = process.stderr.readline()
        match = re.search(r"http://(\S+)/mcp", first)
        if not match:  # the rest is read once the server is ended (it would run on)
            process.kill()
            pytest.fail(first + process.communicate(timeout=TIMEOUT)[1])
        log: list[str] = [first]
        reader = threading.Thread(target=lambda: log.extend(process.stderr), daemon=True)  # type: ignore[arg-type]
        reader.start()
        server = HttpServer(process, f"http://{match.group(1)}/mcp", log, reader)
        servers.append(server)
        return server

    yield run
    for server in servers:
        server.stop()
