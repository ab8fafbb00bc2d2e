"""The MCP server under 10,000 sequential tool calls (issue 9): every call answered, memory
flat, one access-log row per call.

One ``skc mcp`` process, spoken to over its real stdin/stdout (JSON-RPC, one message per
line): the ``initialize`` handshake, then ``tools/call`` requests cycling through the
read-only gateway tools and a few calls that fail the way a model's mistakes do (unknown
section, path outside the skill, empty query). The server's resident set
(``/proc/<pid>/status`` VmRSS) is sampled every 500 calls; after the first 1,000 calls
(imports and caches warm) it may not grow by more than 8 MB. (A leak of one kilobyte per
call would add 9 MB.)

The 10,000 calls are the long suite (``long``; ``SKILLC_MCP_CALLS`` changes the count); the
default run makes 1,000 the same way (smoke), its memory compared from call 500 on.

Skipped when the installed ``skc`` has no ``mcp`` command.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stress_support import McpClient, count_rows, mcp_available, vm_rss_kb

CALLS = int(os.environ.get("SKILLC_MCP_CALLS", "10000"))
SMOKE = 1000
WARM = 1000
SAMPLE_EVERY = 500
GROWTH_LIMIT_KB = 8 * 1024

CALL_CYCLE: list[tuple[str, dict[str, Any], bool]] = [
    ("skc_show", {"skill": "demo", "section": "Install"}, False),
    ("skc_search", {"skill": "demo", "query": "widgets"}, False),
    ("skc_outline", {"skill": "demo"}, False),
    ("skc_open", {"skill": "demo", "path": "references/gadgets.md"}, False),
    ("skc_sources", {"skill": "demo"}, False),
    (
        "skc_show",
        {"skill": "demo", "section": "Gadget API", "file": "references/gadgets.md"},
        False,
    ),
    ("skc_search", {"skill": "demo", "query": "gadget endpoint json"}, False),
    ("skc_show", {"skill": "demo", "section": "No such heading"}, True),
    ("skc_open", {"skill": "demo", "path": "../outside.md"}, True),
    ("skc_search", {"skill": "demo", "query": "   "}, True),
]


@pytest.fixture
def server(
    skc_path: Path, clean_env: dict[str, str], project: Path, demo: Path, tmp_path: Path
) -> Iterator[McpClient]:
    if not mcp_available(skc_path, clean_env, project):
        pytest.skip("the installed skc has no 'mcp' command (skillc-mcp not installed)")
    running = McpClient([str(skc_path), "mcp"], project, clean_env, tmp_path / "mcp-stderr.log")
    try:
        yield running
    finally:
        if running.process.poll() is None:
            running.process.kill()
            running.process.wait()


@pytest.mark.parametrize(
    "calls",
    [pytest.param(SMOKE, id="smoke"), pytest.param(CALLS, id="long", marks=pytest.mark.long)],
)
def test_ten_thousand_calls_with_flat_memory(server: McpClient, runtime: Path, calls: int) -> None:
    server.initialize()
    log = runtime / ".skillc-meta" / "logs.db"
    rows_before = count_rows(log)
    # a short run samples and warms up in proportion (the smoke: every 100 calls, from 500)
    sample_every, warm = min(SAMPLE_EVERY, calls // 10), min(WARM, calls // 2)

    samples: list[tuple[int, int]] = []
    for number in range(calls):
        name, arguments, fails = CALL_CYCLE[number % len(CALL_CYCLE)]
        result = server.call(number + 2, name, arguments)
        text = result["content"][0]["text"]
        if fails:
            assert result.get("isError") is True and text.startswith("error[E"), result
            assert not text.startswith("error[E999]"), result
        else:
            assert not result.get("isError"), result
            assert "structuredContent" in result, result
        if (number + 1) % sample_every == 0:
            samples.append((number + 1, vm_rss_kb(server.process.pid)))

    assert server.close() == 0
    print("\nmcp RSS (calls, KB): " + ", ".join(f"{n}: {kb}" for n, kb in samples))
    warmed = [kb for n, kb in samples if n >= warm]
    assert len(warmed) >= 2, samples
    assert warmed[-1] - warmed[0] <= GROWTH_LIMIT_KB, samples
    assert max(warmed) - warmed[0] <= GROWTH_LIMIT_KB, samples
    # every call resolved the skill and logged one row: none lost
    assert count_rows(log) - rows_before == calls


HOSTILE: list[bytes] = [
    b"{not json",
    b"\xff\xfe garbage bytes",
    b'{"jsonrpc":"2.0","id":90,"method":"tools/call","params":{"name":"skc_show",'
    b'"arguments":{"skill":"demo","section":' + b"[" * 100_000 + b"]" * 100_000 + b"}}}",
    *(
        json.dumps(
            {"jsonrpc": "2.0", "id": 100 + n, "method": "tools/call", "params": params}
        ).encode()
        for n, params in enumerate(
            [
                {"name": "skc_search", "arguments": {"skill": "demo", "query": "x " * 20_000}},
                {"name": "skc_search", "arguments": {"skill": "demo", "query": "a\udcffb"}},
                {"name": "skc_search", "arguments": {"skill": "demo", "query": "a\x00b"}},
                {"name": "skc_open", "arguments": {"skill": "demo", "path": "a\x00b"}},
                {"name": "skc_sources", "arguments": {"skill": "demo", "dir": "a\x00b"}},
                {
                    "name": "skc_show",
                    "arguments": {"skill": "demo", "section": "x", "file": "\x00"},
                },
                {"name": "skc_open", "arguments": {"skill": "demo", "path": "x" * 5000}},
                {"name": "skc_open", "arguments": {"skill": "demo", "path": "../../etc/passwd"}},
                {"name": "skc_show", "arguments": {"skill": 5, "section": None}},
                {"name": "skc_show", "arguments": {"skill": "../../../etc", "section": "x"}},
                {"name": "skc_show", "arguments": {"skill": "demo", "section": "x" * 100_000}},
                {"name": "no_such_tool", "arguments": {}},
                {"name": "skc_show"},
            ]
        )
    ),
]


def test_hostile_requests_never_stop_the_server(server: McpClient, runtime: Path) -> None:
    """Malformed JSON, absurd nesting and sizes, NUL bytes, lone surrogates, wrong types,
    paths out of the skill: each gets an answer (a JSON-RPC error or an ``isError`` result
    whose text is a typed diagnostic, never E999), and the server goes on serving."""
    server.initialize()
    assert server.process.stdin is not None
    for raw in HOSTILE:
        server.process.stdin.write(raw + b"\n")
        server.process.stdin.flush()
        line = server.line()
        assert line, f"the server stopped after {raw[:80]!r}"
        answer = json.loads(line)
        if "error" in answer:
            assert isinstance(answer["error"]["code"], int), answer
        else:
            result = answer["result"]
            if result.get("isError"):
                text = result["content"][0]["text"]
                assert text.startswith("error[E") and not text.startswith("error[E999]"), answer
    shown = server.call(2, "skc_show", {"skill": "demo", "section": "Install"})
    assert "Run the installer" in shown["structuredContent"]["content"]
    assert server.close() == 0
