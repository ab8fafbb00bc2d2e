"""Helpers for skillc-mcp's tests (imported by conftest.py, which puts this folder on
``sys.path``): the raw JSON-RPC client of a server subprocess and shared constants."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from queue import Empty, SimpleQueue
from typing import Any, TypeVar

import anyio
import jsonschema
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

#: A safety net against a hung server; never a timing assertion.
TIMEOUT = 60

#: The managed settings file of a test's server, in its home (``$SKILLC_CLAUDE_MANAGED_SETTINGS``,
#: none there unless the test writes it): never the machine's, as the commands' ``clean_env``.
MANAGED_SETTINGS = "no-managed-settings.json"

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "skillc-tests", "version": "0"},
}


def mirrored(message: dict[str, Any]) -> dict[str, str]:
    """The headers a 2026-07-28 client sends over HTTP with ``message`` (a request whose
    ``_meta`` names its version): its version, method and, for ``tools/call`` and
    ``resources/read``, name or URI (plain ASCII ones here: none base64-encoded)."""
    method = message["method"]
    params = message["params"]
    headers = {
        "mcp-protocol-version": params["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "mcp-method": method,
    }
    name = {"tools/call": "name", "resources/read": "uri"}.get(method)
    if name is not None and name in params:
        headers["mcp-name"] = params[name]
    return headers


class WireClient:
    """A raw JSON-RPC client of a server subprocess: lines in, lines out.

    Every line the server writes to stdout is kept; :meth:`close` checks each one is a JSON
    object (only protocol messages may reach stdout) and returns the exit status.
    """

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str], log: Path) -> None:
        self.log_path = log
        self._log = log.open("wb")
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
        )
        self.lines: list[bytes] = []
        self._queue: SimpleQueue[bytes | None] = SimpleQueue()
        threading.Thread(target=self._pump, daemon=True).start()
        self._next_id = 1000

    def _pump(self) -> None:
        assert self.process.stdout is not None
        with self.process.stdout:
            for line in self.process.stdout:
                self.lines.append(line)
                self._queue.put(line)
        self._queue.put(None)

    def send_raw(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_raw(json.dumps(message).encode("utf-8") + b"\n")

    def receive_value(self, timeout: float = TIMEOUT) -> Any:
        """The next line the server wrote, parsed: a message, or a batch's list of them."""
        try:
            line = self._queue.get(timeout=timeout)
        except Empty:
            pytest.fail(f"no response from the server within {timeout} s\n{self.stderr()}")
        if line is None:
            pytest.fail(f"the server closed stdout\n{self.stderr()}")
        return json.loads(line)

    def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message = self.receive_value(timeout)
        assert isinstance(message, dict), message
        return message

    def nothing_within(self, seconds: float) -> bool:
        try:
            line = self._queue.get(timeout=seconds)
        except Empty:
            return True
        pytest.fail(f"unexpected message: {line!r}")

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a request and return its response (asserting the id matches)."""
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        response = self.receive()
        assert response.get("id") == self._next_id, response
        return response

    def initialize(self, version: str = "2025-11-25") -> dict[str, Any]:
        response = self.request(
            "initialize",
            {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "skillc-tests", "version": "0"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return response

    def call(self, name: str, arguments: dict[str, Any], modern: bool = False) -> dict[str, Any]:
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        if modern:
            params["_meta"] = MODERN_META
        response = self.request("tools/call", params)
        assert "result" in response, response
        result: dict[str, Any] = response["result"]
        return result

    def stderr(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def close(self) -> int:
        """Close stdin (end of session); the exit status, after checking stdout."""
        assert self.process.stdin is not None
        if not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            code = self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self._log.close()
        while self._queue.get(timeout=TIMEOUT) is not None:
            pass
        for line in self.lines:
            assert line.endswith(b"\n"), line
            value = json.loads(line)  # a message, or a batch's responses (2025-03-26)
            assert isinstance(value, dict) or all(isinstance(v, dict) for v in value), line
        return code


T = TypeVar("T")

LINUX_PROC = Path("/proc/self/status").exists()
"""Whether :func:`peak_rss_mb` can read a process's memory."""


def sdk_env(home: str | Path) -> dict[str, str]:
    """The environment a test's SDK client starts the server with (the SDK adds its safe
    defaults, ``HOME`` and ``PATH``): ``home`` as the skillc home, its
    :data:`MANAGED_SETTINGS` file, and no find server started by ``skc_find`` (it would
    outlive the test); ``PYTHONPATH`` kept, so the server runs the code under test (a
    checkout's sources put before the installed ones)."""
    env = {"SKILLC_HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1", "SKILLC_FIND_SERVER": "0"}
    env["SKILLC_CLAUDE_MANAGED_SETTINGS"] = str(Path(home) / MANAGED_SETTINGS)
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def sdk_session(
    command: list[str], project: Path, env: dict[str, str], body: Callable[[Client], Awaitable[T]]
) -> T:
    """Start the server (``command``: the script and its options) the way the SDK does."""

    async def main() -> T:
        params = StdioServerParameters(
            command=command[0],
            args=command[1:],
            env=sdk_env(env["SKILLC_HOME"]),
            cwd=project,
        )
        with (project.parent / "sdk-server.log").open("a", encoding="utf-8") as errlog:
            async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
                return await body(client)

    return anyio.run(main)


async def call(client: Client, name: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
    """(is_error, structuredContent checked against the output schema, or the error text)."""
    result = await client.call_tool(name, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    if result.is_error:
        return True, text
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    jsonschema.Draft202012Validator(tools[name].output_schema).validate(result.structured_content)
    return False, result.structured_content


def peak_rss_mb(pid: int) -> float:
    """The high-water mark of a process's resident memory (Linux ``VmHWM``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


class HttpServer:
    def __init__(
        self, process: subprocess.Popen[str], url: str, log: list[str], reader: threading.Thread
    ) -> None:
        self.reader = reader
        self.process = process
        self.url = url
        self.log = log

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        status = self.process.wait(30)
        self.reader.join(10)
        assert self.process.stderr is not None
        self.process.stderr.close()
        return status
