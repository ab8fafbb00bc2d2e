"""The MCP stdio transport: one JSON-RPC message per line on stdin, one per line on stdout.

Only protocol messages may reach stdout. :func:`claim_stdio` moves the protocol onto private
copies of file descriptors 0 and 1, points descriptor 1 at stderr and descriptor 0 at the null
device, and makes ``sys.stdout`` stderr: a stray ``print``, a C extension or a child process
writes to the log, never to the wire, and cannot eat the client's input. Logs go to stderr.

A reader thread parses lines as they arrive while the main thread answers them in order. The
reader notes ``notifications/cancelled`` at once, so a request cancelled before it runs is
never run, and one cancelled while it runs gets no response (MCP cancellation: the receiver
should not answer a cancelled request). The server exits when stdin reaches end of file,
after answering what it had already read.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from queue import SimpleQueue
from typing import Any, BinaryIO

from skillc_mcp._protocol import (
    INTERNAL_ERROR,
    PARSE_ERROR,
    ProtocolError,
    Server,
    error_response,
    request_id_of,
    valid_id,
)

_EOF = object()


class _Unparsable:
    """A line that is not JSON: answered with -32700."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def claim_stdio() -> tuple[BinaryIO, BinaryIO]:
    """Take stdin and stdout for the protocol; return (wire in, wire out).

    The copies made by :func:`os.dup` are not inherited by child processes (PEP 446).
    """
    sys.stdout.flush()
    wire_in = os.fdopen(os.dup(0), "rb")
    wire_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    sys.stdout = sys.stderr
    return wire_in, wire_out


def encode(message: dict[str, Any]) -> bytes:
    """One line of UTF-8 JSON. Text that is not valid Unicode (a file name in a foreign
    encoding) is written with ``\\u`` escapes instead, so the line is always valid UTF-8."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"


class Connection:
    """One client on a pair of byte streams."""

    def __init__(
        self,
        wire_in: BinaryIO,
        wire_out: BinaryIO,
        server: Server | None = None,
        *,
        verbose: bool = False,
    ) -> None:
        self._in = wire_in
        self._out = wire_out
        self.server = server or Server()
        self._verbose = verbose
        self._inbox: SimpleQueue[object] = SimpleQueue()
        self._lock = threading.Lock()
        self._pending: set[str | int] = set()
        self._cancelled: set[str | int] = set()

    def send(self, message: dict[str, Any]) -> None:
        try:
            data = encode(message)
        except (TypeError, ValueError) as exc:  # a result that is not JSON: a bug, reported
            error = ProtocolError(INTERNAL_ERROR, f"Internal error: {exc}")
            data = encode(error_response(message.get("id"), error))
        self._out.write(data)
        self._out.flush()

    def _read(self) -> None:
        """The reader thread: parse each line, note requests and cancellations, queue them."""
        try:
            for line in self._in:
                if not line.strip():
                    continue
                try:
                    message = json.loads(line)
                except (ValueError, RecursionError) as exc:  # bad UTF-8, absurd nesting
                    self._inbox.put(_Unparsable(str(exc)))
                    continue
                request_id = request_id_of(message)
                with self._lock:
                    if request_id is not None:
                        self._pending.add(request_id)
                    elif _is_cancellation(message):
                        target = valid_id(message["params"].get("requestId"))
                        if target in self._pending:
                            self._cancelled.add(target)
                self._inbox.put(message)
        except (OSError, ValueError):
            pass  # stdin closed under us: same as end of file
        finally:
            self._inbox.put(_EOF)

    def serve(self) -> int:
        """Answer messages until end of input; the exit status (0)."""
        threading.Thread(target=self._read, name="skillc-mcp-stdin", daemon=True).start()
        try:
            while True:
                item = self._inbox.get()
                if item is _EOF:
                    return 0
                if isinstance(item, _Unparsable):
                    error = ProtocolError(PARSE_ERROR, f"Parse error: {item.reason}")
                    self.send(error_response(None, error))
                    continue
                self._answer(item)
        except BrokenPipeError:
            return 0  # the client is gone
        finally:
            self.server.close()

    def _answer(self, message: object) -> None:
        request_id = request_id_of(message)
        with self._lock:
            skip = request_id in self._cancelled
        start = time.perf_counter()
        response = None if skip else self.server.handle(message)
        if self._verbose:
            _log_request(message, response, time.perf_counter() - start, skip)
        with self._lock:
            if request_id is not None:
                self._pending.discard(request_id)
                skip = request_id in self._cancelled
                self._cancelled.discard(request_id)
        if response is not None and not skip:
            self.send(response)


def _log_request(
    message: object, response: dict[str, Any] | None, seconds: float, skipped: bool
) -> None:
    """``-v``: one line per message on stderr: method (tool), id, outcome, milliseconds."""
    if not isinstance(message, dict):
        return
    method = message.get("method", "(response)")
    params = message.get("params")
    if method == "tools/call" and isinstance(params, dict):
        method = f"{method} {params.get('name')}"
    outcome = "cancelled" if skipped else "notification"
    if response is not None:
        result = response.get("result")
        if "error" in response:
            outcome = f"error {response['error'].get('code')}"
        elif isinstance(result, dict) and result.get("isError"):
            outcome = "tool error"
        else:
            outcome = "ok"
    request_id = message.get("id", "-")
    print(
        f"skillc-mcp: {method} [{request_id}] {outcome} {seconds * 1000:.1f} ms",
        file=sys.stderr,
        flush=True,
    )


def _is_cancellation(message: object) -> bool:
    return (
        isinstance(message, dict)
        and message.get("method") == "notifications/cancelled"
        and "id" not in message
        and isinstance(message.get("params"), dict)
    )


def serve_stdio(server: Server | None = None, *, verbose: bool = False) -> int:
    """Serve MCP on this process's stdin and stdout until end of input; the exit status."""
    wire_in, wire_out = claim_stdio()
    return Connection(wire_in, wire_out, server, verbose=verbose).serve()
